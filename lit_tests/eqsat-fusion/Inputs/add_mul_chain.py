"""Print a function with a chain of N alternating graph.add / graph.mul ops."""
import sys

n = int(sys.argv[1])
print("func.func @chain(%x: tensor<8xf32>, %y: tensor<8xf32>) -> tensor<8xf32> {")
prev = "%x"
for i in range(n):
    op = "graph.add" if i % 2 == 0 else "graph.mul"
    print(f"  %v{i} = {op} {prev}, %y : tensor<8xf32>")
    prev = f"%v{i}"
print(f"  return {prev} : tensor<8xf32>")
print("}")
