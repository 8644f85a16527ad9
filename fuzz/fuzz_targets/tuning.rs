//! Fuzzing of JSON tuning caches (`--tuning=FILE`): any text is read or
//! rejected with an error, never a panic. A cache that reads has positive
//! sizes, as fusion-to-tile relies on.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(cache) = aic_passes::fusion_to_tile::read_cache(text) {
        for t in cache.values() {
            assert!(t.bm >= 1 && t.bn >= 1 && t.bk >= 1 && t.stages >= 1 && t.threads >= 0);
        }
    }
});
