//! Fuzzing of compiled bundles (what `aic-run --target=cuda` loads): any bytes
//! are read or rejected with an error, never a panic or an allocation the
//! input's size does not justify. A bundle that reads writes back to the same
//! bytes.

#![no_main]

use aic_runtime::Bundle;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(b) = Bundle::from_bytes(data) {
        let again = Bundle::from_bytes(&b.to_bytes()).expect("a written bundle reads back");
        assert_eq!(b, again);
    }
});
