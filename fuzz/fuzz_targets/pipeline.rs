//! Fuzzing of textual pass pipelines (`--pass-pipeline`): any text must parse
//! or be rejected with an error, never panic, overflow the stack or hang. A
//! pipeline that parses prints (`OpPassManager::text`) to text that parses
//! again to the same pipeline, and runs on a small module to success or an
//! error.

#![no_main]

use aic::pass::pipeline::parse_pipeline;
use aic::pass::{Instrumentation, PassRegistry, PassRunner};
use aic::syntax::{parse_module, with_parser_stack};
use aic::verifier::verify;
use aic::{Context, SourceMap};
use libfuzzer_sys::fuzz_target;
use std::sync::{Arc, OnceLock};

fn registry() -> Arc<aic::dialect::DialectRegistry> {
    static REG: OnceLock<Arc<aic::dialect::DialectRegistry>> = OnceLock::new();
    REG.get_or_init(|| Arc::new(aic_dialects::all_dialects()))
        .clone()
}

fn passes() -> &'static PassRegistry {
    static REG: OnceLock<PassRegistry> = OnceLock::new();
    REG.get_or_init(aic_passes::all_passes)
}

/// A small module with a function, a loop and graph ops for passes to work on.
const MODULE: &str = r#"
func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>) -> tensor<4x4xf32> {
  %0 = graph.matmul %a, %b : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
  %1 = graph.exp %0 : tensor<4x4xf32>
  %2 = graph.add %1, %0 : tensor<4x4xf32>
  return %2 : tensor<4x4xf32>
}
func.func @g(%x: i32) -> i32 {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%s = %x) -> (i32) {
    %t = arith.addi %s, %x : i32
    scf.yield %t : i32
  }
  %y = func.call @h(%r) : (i32) -> i32
  return %y : i32
}
func.func private @h(%x: i32) -> i32 {
  %c = arith.constant 3 : i32
  %m = arith.muli %x, %c : i32
  return %m : i32
}
"#;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if text.len() > 4096 {
        return;
    }
    with_parser_stack(|| {
        let Ok(pm) = parse_pipeline(text, passes()) else {
            return;
        };
        let printed = pm.text();
        let again = parse_pipeline(&printed, passes())
            .unwrap_or_else(|e| panic!("printed pipeline does not parse: {printed}: {e:?}"));
        assert_eq!(printed, again.text(), "pipeline text does not round-trip");
        let mut ctx = Context::new(registry());
        let mut sm = SourceMap::new();
        let f = sm.add("fuzz.mlir", MODULE.to_string());
        let m = parse_module(&mut ctx, &sm, f).expect("the fixed module parses");
        verify(&ctx, m).expect("the fixed module verifies");
        let inst = Instrumentation::default();
        let mut sink = std::io::sink();
        let mut runner = PassRunner::new(&inst, &mut sink);
        let _ = runner.run(&pm, &mut ctx, m);
    });
});
