//! Whole files: mlir-opt-22's generic output parses and prints back byte for byte,
//! and malformed files get spanned diagnostics.

use aic::op_printer::{PrintOptions, print_generic};
use aic::syntax::{parse_module, with_parser_stack};
use aic::{Context, Diagnostic, DialectRegistry, SourceMap};
use std::sync::Arc;

fn roundtrip(text: &str) -> Result<String, Diagnostic> {
    let text = text.to_string();
    with_parser_stack(move || {
        let mut ctx = Context::new(Arc::new(DialectRegistry::new()));
        ctx.allow_unregistered = true;
        let mut sm = SourceMap::new();
        let f = sm.add("in.mlir", text);
        let m = parse_module(&mut ctx, &sm, f)?;
        Ok(print_generic(&ctx, m, PrintOptions::default()))
    })
}

/// `mlir-opt-22 --allow-unregistered-dialect --mlir-print-op-generic` output.
const MLIR_GENERIC: &str = r#""builtin.module"() ({
  "func.func"() <{function_type = (i1, i32) -> i32, sym_name = "f"}> ({
  ^bb0(%arg0: i1, %arg1: i32):
    %0 = "t.a"() : () -> i32
    %1 = "t.region"(%arg0) ({
    ^bb0(%arg3: i32, %arg4: f32):
      %7 = "t.b"(%arg3) : (i32) -> i32
      "t.br"()[^bb1] : () -> ()
    ^bb1(%8: i32):  // pred: ^bb0
      "t.y"(%8) : (i32) -> ()
    }, {
      %6 = "t.c"() : () -> i32
      "t.y"(%6) : (i32) -> ()
    }) {attr = [1, 2 : i32, 3.000000e+00, "s"], d = dense<[1, 2]> : tensor<2xi32>, s = dense<1.000000e+00> : tensor<4xf32>, t = 42 : i64, u = true, v = 2.500000e+00 : f64, w, x = {a = 2 : i64, b = 1 : i64}} : (i1) -> i32
    %2 = "t.isolated"() ({
    ^bb0(%arg2: i32):
      %5 = "t.d"() : () -> i32
      "t.y"(%5) : (i32) -> ()
    }) : () -> i32
    %3:2 = "t.multi"() : () -> (i32, i32)
    %4:2 = "t.multi"() : () -> (i32, i32)
    "func.return"(%4#1) : (i32) -> ()
  }) : () -> ()
}) : () -> ()
"#;

#[test]
fn mlir_generic_output_round_trips_byte_for_byte() {
    assert_eq!(roundtrip(MLIR_GENERIC).unwrap(), MLIR_GENERIC);
}

#[test]
fn top_level_ops_get_an_implicit_module_and_forward_refs_resolve() {
    let src = r#"
// a comment
"t.user"(%x) : (i32) -> ()
%x = "t.def"() : () -> i32
"t.cfg"() ({
  "t.br"()[^later] : () -> ()
^later:
  "t.br"()[^later] : () -> ()
}) : () -> ()
"#;
    let want = r#""builtin.module"() ({
  "t.user"(%0) : (i32) -> ()
  %0 = "t.def"() : () -> i32
  "t.cfg"() ({
    "t.br"()[^bb1] : () -> ()
  ^bb1:  // 2 preds: ^bb0, ^bb1
    "t.br"()[^bb1] : () -> ()
  }) : () -> ()
}) : () -> ()
"#;
    assert_eq!(roundtrip(src).unwrap(), want);
}

/// (input, message, 1-based line, column)
const BAD: &[(&str, &str, usize, usize)] = &[
    (
        "\"t.a\"(%x) : (i32) -> ()",
        "use of undeclared SSA value name '%x'",
        1,
        7,
    ),
    (
        "%a = \"t.a\"() : () -> i32\n%a = \"t.b\"() : () -> i32",
        "redefinition of SSA value '%a'",
        2,
        1,
    ),
    (
        "%a = \"t.a\"() : () -> i32\n\"t.b\"(%a) : (f32) -> ()",
        "use of value '%a' expects different type than prior uses",
        2,
        7,
    ),
    (
        "\"t.a\"() : (i32) -> ()",
        "expected 0 operand types but had 1",
        1,
        11,
    ),
    (
        "%a, %b = \"t.a\"() : () -> i32",
        "operation defines 1 results but was provided 2 to bind",
        1,
        1,
    ),
    (
        "\"t.a\"() ({\n  \"t.br\"()[^nope] : () -> ()\n}) : () -> ()",
        "reference to an undefined block '^nope'",
        2,
        12,
    ),
    // At the end of the input, MLIR points just past the last token.
    ("\"t.a\"() ({\n", "expected '}' to end the region", 1, 11),
    ("\"t.a\"(", "expected", 1, 7),
    ("foo.bar %x", "custom op 'foo.bar' is unknown", 1, 1),
    (
        "\"t.a\"() : () -> tensor<4xbogus>",
        "expected non-function type",
        1,
        26,
    ),
];

#[test]
fn bad_files_get_diagnostics_at_the_right_place() {
    for (src, msg, line, col) in BAD {
        let text = src.to_string();
        let (d, rendered, pos) = with_parser_stack(move || {
            let mut ctx = Context::new(Arc::new(DialectRegistry::new()));
            ctx.allow_unregistered = true;
            let mut sm = SourceMap::new();
            let f = sm.add("in.mlir", text);
            let d = parse_module(&mut ctx, &sm, f).expect_err("should fail");
            let (file, start, _) = sm.resolve(ctx.uniquer(), d.at).expect("has a span");
            let pos = sm.line_col(file, start);
            let rendered = sm.render(ctx.uniquer(), &d);
            (d, rendered, pos)
        });
        assert!(
            d.message.contains(msg),
            "{src:?}: got '{}', want '{msg}'",
            d.message
        );
        assert_eq!(pos, (*line, *col), "{src:?}: position of '{}'", d.message);
        assert!(
            rendered.contains(&format!("in.mlir:{line}:{col}")),
            "{rendered}"
        );
    }
}

#[test]
fn unregistered_ops_need_the_flag() {
    let d = with_parser_stack(|| {
        let mut ctx = Context::new(Arc::new(DialectRegistry::new()));
        let mut sm = SourceMap::new();
        let f = sm.add("in.mlir", "\"t.a\"() : () -> ()".into());
        parse_module(&mut ctx, &sm, f).expect_err("unregistered")
    });
    assert!(
        d.message.contains("-allow-unregistered-dialect"),
        "{}",
        d.message
    );
}

#[test]
fn deep_region_nesting_is_a_diagnostic() {
    let depth = 10_000;
    let src = format!(
        "{}\"t.end\"() : () -> (){}",
        "\"t.r\"() ({\n".repeat(depth),
        "\n}) : () -> ()".repeat(depth)
    );
    let d = roundtrip(&src).expect_err("too deep");
    assert!(d.message.contains("nested deeper than"), "{}", d.message);
    let ok = format!(
        "{}\"t.end\"() : () -> (){}",
        "\"t.r\"() ({\n".repeat(200),
        "\n}) : () -> ()".repeat(200)
    );
    let printed = roundtrip(&ok).expect("200 levels parse");
    assert_eq!(
        roundtrip(&printed).unwrap(),
        printed,
        "printed form is stable"
    );
}

/// `#a0 = [1]`, then `#aK = [#aK-1, #aK-1]` (`width` uses each) up to `#a{levels}`.
fn alias_chain(levels: usize, width: usize) -> String {
    let mut s = String::from("#a0 = [1]\n");
    for k in 1..=levels {
        let uses = vec![format!("#a{}", k - 1); width].join(", ");
        s.push_str(&format!("#a{k} = [{uses}]\n"));
    }
    s
}

#[test]
fn doubling_aliases_stop_at_the_expansion_budget() {
    let start = std::time::Instant::now();
    let src = alias_chain(40, 2) + "\"t.op\"() {x = #a40} : () -> ()\n";
    let d = roundtrip(&src).expect_err("2^41 elements");
    assert!(
        d.message
            .contains("makes the aliases used so far expand to more than"),
        "{}",
        d.message
    );
    assert!(start.elapsed().as_secs() < 5, "{:?}", start.elapsed());
    // The same structure with types.
    let mut src = String::from("!t0 = tuple<i32>\n");
    for k in 1..=40 {
        src.push_str(&format!("!t{k} = tuple<!t{}, !t{}>\n", k - 1, k - 1));
    }
    src.push_str("\"t.op\"() : () -> !t40\n");
    let d = roundtrip(&src).expect_err("2^41 types");
    assert!(d.message.contains("type alias '!t"), "{}", d.message);
}

#[test]
fn repeated_uses_of_an_alias_count_against_the_budget() {
    // #a16 expands to about 200,000 elements: allowed once, and again from the
    // parser's cache of spellings, but not 100 times.
    let once = alias_chain(16, 2) + "\"t.op\"() {x = #a16} : () -> ()\n";
    let printed = roundtrip(&once).expect("one use is within the budget");
    assert!(printed.len() > 200_000, "{}", printed.len());
    let many = alias_chain(16, 2) + &"\"t.op\"() {x = #a16} : () -> ()\n".repeat(100);
    let d = roundtrip(&many).expect_err("100 uses");
    assert!(
        d.message
            .contains("the aliases used so far expand to more than"),
        "{}",
        d.message
    );
    // Small aliases may be used as often as the input likes.
    let small = "#s = {a = 1 : i32, b = [2, 3]}\n".to_string()
        + &"\"t.op\"() {x = #s} : () -> ()\n".repeat(20_000);
    roundtrip(&small).expect("small aliases are free");
}

#[test]
fn alias_chains_nest_no_deeper_than_the_parser_allows() {
    let mut src = String::from("#a0 = [1]\n");
    for k in 1..2_000 {
        src.push_str(&format!("#a{k} = [#a{}]\n", k - 1));
    }
    src.push_str("\"t.op\"() {x = #a1999} : () -> ()\n");
    let d = roundtrip(&src).expect_err("2,000 levels");
    assert!(
        d.message
            .contains("nesting deeper than 512 levels once aliases are expanded"),
        "{}",
        d.message
    );
    // #a499 nests 500 deep: 12 brackets around it reach the limit, and the printed
    // form (aliases expanded) reads back the same; 13 go beyond it.
    let mut chain = String::from("#a0 = [1]\n");
    for k in 1..500 {
        chain.push_str(&format!("#a{k} = [#a{}]\n", k - 1));
    }
    let wrapped = |n: usize| {
        format!(
            "{chain}\"t.op\"() {{x = {}#a499{}}} : () -> ()\n",
            "[".repeat(n),
            "]".repeat(n)
        )
    };
    let printed = roundtrip(&wrapped(12)).expect("512 levels");
    assert_eq!(roundtrip(&printed).unwrap(), printed);
    let d = roundtrip(&wrapped(13)).expect_err("513 levels");
    assert!(
        d.message.contains("nesting deeper than 512"),
        "{}",
        d.message
    );
}
