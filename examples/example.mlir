// A small example in MLIR's generic form; `aic-opt` parses it and prints it back.
"func.func"() <{function_type = (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>, sym_name = "add"}> ({
^bb0(%a: tensor<4xf32>, %b: tensor<4xf32>):
  %sum = "t.add"(%a, %b) {fastmath = #t.fastmath<fast>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %pair:2 = "t.split"(%sum) : (tensor<4xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  "t.cond"(%pair#0)[^done] : (tensor<2xf32>) -> ()
^done:
  "func.return"(%sum) : (tensor<4xf32>) -> ()
}) : () -> ()
