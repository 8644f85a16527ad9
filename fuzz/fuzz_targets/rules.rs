//! Fuzzing of eqsat rule files (`*.rules`, `eqsat-fusion{rule-files=…}`): any
//! text loads or is rejected with an error naming the line, never a panic,
//! stack overflow or hang. Rules are read as eqsat-fusion reads them: with its
//! natives (`@name` right-hand sides, `if pred(…)` guards) and every op they
//! name checked against the registered dialects.

#![no_main]

use aic_passes::eqsat_fusion::natives::NATIVES;
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

fn registry() -> &'static aic::dialect::DialectRegistry {
    static REG: OnceLock<aic::dialect::DialectRegistry> = OnceLock::new();
    REG.get_or_init(aic_dialects::all_dialects)
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let known_op = |name: &str| registry().op(name).is_some();
    let _ = aic::eqsat::parse_rules_with(text, &NATIVES, &known_op);
    let _ = aic::eqsat::parse_rules(text);
});
