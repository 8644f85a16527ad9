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
        // What it writes, it reads back the same.
        let again = aic_passes::fusion_to_tile::read_cache(
            &aic_passes::fusion_to_tile::write_cache(&cache),
        );
        assert_eq!(again.as_ref().map(|c| c.len()), Ok(cache.len()));
        for e in cache.values() {
            let t = e.tuning;
            assert!(t.bm >= 1 && t.bn >= 1 && t.bk >= 1 && t.stages >= 1 && t.threads >= 0);
        }
    }
});
