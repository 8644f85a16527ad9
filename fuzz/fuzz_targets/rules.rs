//! Fuzzing of eqsat rule files (`*.rules`): any text loads or is rejected
//! with an error naming the line, never a panic, stack overflow or hang.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = aic::eqsat::parse_rules(text);
});
