use super::*;
use FloatKind::*;

/// Tiny deterministic PRNG so the property tests need no dependencies.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    fn bits(&mut self, width: u32) -> u128 {
        (u128::from(self.next()) << 64 | u128::from(self.next())) & mask(width)
    }
}

// Expected strings below were produced by `mlir-opt-22
// --allow-unregistered-dialect --mlir-print-op-generic` from
// `"test.op"() {v = 0x<bits> : <type>} : () -> ()` (or the decimal
// literal for PARSE_CASES).
const PRINT_CASES: &[(FloatKind, u128, &str)] = &[
    (F4E2M1FN, 0x0, "0.000000e+00"),
    (F4E2M1FN, 0x8, "-0.000000e+00"),
    (F4E2M1FN, 0x1, "5.000000e-01"),
    (F4E2M1FN, 0x7, "6.000000e+00"),
    (F4E2M1FN, 0xF, "-6.000000e+00"),
    (F6E2M3FN, 0x1F, "7.500000e+00"),
    (F6E2M3FN, 0x21, "-1.250000e-01"),
    (F6E3M2FN, 0x1F, "2.800000e+01"),
    (F6E3M2FN, 0x3, "1.875000e-01"),
    (F8E5M2, 0x7C, "0x7C"),
    (F8E5M2, 0xFC, "0xFC"),
    (F8E5M2, 0x7E, "0x7E"),
    (F8E5M2, 0x7B, "5.734400e+04"),
    (F8E5M2, 0x1, "1.525880e-05"),
    (F8E4M3, 0x78, "0x78"),
    (F8E4M3, 0x77, "2.400000e+02"),
    (F8E4M3, 0x7F, "0x7F"),
    (F8E4M3FN, 0x7E, "4.480000e+02"),
    (F8E4M3FN, 0x7F, "0x7F"),
    (F8E4M3FN, 0xFF, "0xFF"),
    (F8E4M3FN, 0x1, "1.953130e-03"),
    (F8E4M3FN, 0x80, "-0.000000e+00"),
    (F8E5M2FNUZ, 0x80, "0x80"),
    (F8E5M2FNUZ, 0x7F, "5.734400e+04"),
    (F8E5M2FNUZ, 0x1, "7.629390e-06"),
    (F8E4M3FNUZ, 0x80, "0x80"),
    (F8E4M3FNUZ, 0xFF, "-2.400000e+02"),
    (F8E4M3B11FNUZ, 0x7F, "3.000000e+01"),
    (F8E4M3B11FNUZ, 0x1, "1.220700e-04"),
    (F8E3M4, 0x70, "0x70"),
    (F8E3M4, 0x6F, "1.550000e+01"),
    (F8E3M4, 0x1, "1.562500e-02"),
    (F8E8M0FNU, 0x0, "5.877470e-39"),
    (F8E8M0FNU, 0x7F, "1.000000e+00"),
    (F8E8M0FNU, 0xFE, "1.701410e+38"),
    (F8E8M0FNU, 0xFF, "0xFF"),
    (BF16, 0x3F80, "1.000000e+00"),
    (BF16, 0x4049, "3.140630e+00"),
    (BF16, 0x7FC0, "0x7FC0"),
    (BF16, 0xFF80, "0xFF80"),
    (BF16, 0x1, "9.183550e-41"),
    (BF16, 0x3DCD, "1.000980e-01"),
    (F16, 0x7BFF, "6.550400e+04"),
    (F16, 0x1, "5.960460e-08"),
    (F16, 0x7E00, "0x7E00"),
    (F16, 0x3C01, "1.000980e+00"),
    (F16, 0x8000, "-0.000000e+00"),
    (TF32, 0x3FC00, "0x3FC00"),
    (TF32, 0x3FE00, "0x3FE00"),
    (TF32, 0x1FC01, "1.000980e+00"),
    (TF32, 0x1, "1.147940e-41"),
    (F32, 0x3DCCCCCD, "1.000000e-01"),
    (F32, 0x3F800001, "1.00000012"),
    (F32, 0x4B800001, "0x4B800001"),
    (F32, 0x7F7FFFFF, "3.40282347E+38"),
    (F32, 0x1, "1.401300e-45"),
    (F32, 0x7FC00000, "0x7FC00000"),
    (F32, 0xFF800000, "0xFF800000"),
    (F32, 0x80000000, "-0.000000e+00"),
    (F32, 0x501502F9, "1.000000e+10"),
    (F64, 0x3FB99999_9999999A, "1.000000e-01"),
    (F64, 0x3FF00000_00000001, "1.0000000000000002"),
    (F64, 0x41700000_10000000, "0x4170000010000000"),
    (F64, 0x441AC53A_7E04BCDA, "1.2345678901234568E+20"),
    (F64, 0x1, "4.940660e-324"),
    (F64, 0x7FEFFFFF_FFFFFFFF, "1.7976931348623157E+308"),
    (F64, 0x7FF00000_00000000, "0x7FF0000000000000"),
    (F64, 0xFFF80000_00000000, "0xFFF8000000000000"),
    (F64, 0x3FD55555_55555555, "0.33333333333333331"),
    (F64, 0xC00921FB_54442D18, "-3.1415926535897931"),
    (F80, 0x3FFF_80000000_00000000, "1.000000e+00"),
    (F80, 0x3FFF_80000000_00000001, "1.00000000000000000011"),
    (F80, 0x1, "3.645200e-4951"),
    (F80, 0x7FFF_80000000_00000000, "0x7FFF8000000000000000"),
    (F80, 0x4000_00000000_00000000, "0x7FFF0000000000000000"),
    (
        F80,
        0x0000_80000000_00000000,
        "3.36210314311209350626E-4932",
    ),
    (F80, 0x3FFB_CCCCCCCC_CCCCCCCD, "1.000000e-01"),
    (F128, 0x3FFB9999_99999999_99999999_9999999A, "1.000000e-01"),
    (
        F128,
        0x3FFB9999_9999999A_00000000_00000000,
        "0.100000000000000088817841970012523234",
    ),
    (F128, 0x1, "6.475180e-4966"),
    (
        F128,
        0x7FFF0000_00000000_00000000_00000000,
        "0x7FFF0000000000000000000000000000",
    ),
    (
        F128,
        0x3FFF0000_00000000_00000000_00000001,
        "1.00000000000000000000000000000000019",
    ),
    (
        F128,
        0x7FFEFFFF_FFFFFFFF_FFFFFFFF_FFFFFFFF,
        "1.18973149535723176508575932662800702E+4932",
    ),
];
const PARSE_CASES: &[(FloatKind, &str, &str)] = &[
    (F128, "0.1", "0.100000000000000005551115123125782702"),
    (F80, "0.1", "0.100000000000000005551"),
    (F32, "0.1", "1.000000e-01"),
    (F64, "16777217.0", "0x4170000010000000"),
    (F64, "1.23456789e20", "1.23456789E+20"),
    (F8E4M3FN, "1000.0", "0x7F"),
    (F8E4M3FN, "464.0", "4.480000e+02"),
    (F8E4M3FN, "464.1", "0x7F"),
    (F4E2M1FN, "7.0", "6.000000e+00"),
    (F6E3M2FN, "-100.0", "-2.800000e+01"),
    (F8E8M0FNU, "3.0", "4.000000e+00"),
    (F8E8M0FNU, "0.0", "5.877470e-39"),
    (F8E8M0FNU, "1.0e-50", "5.877470e-39"),
    (F8E8M0FNU, "3.0e38", "0xFF"),
    (F8E4M3FNUZ, "-0.0", "0.000000e+00"),
    (F8E5M2FNUZ, "-1.0e-10", "0.000000e+00"),
    (BF16, "3.140625", "3.140630e+00"),
    (BF16, "-0.0", "-0.000000e+00"),
    (F16, "65520.0", "0x7C00"),
    (F16, "65519.99", "6.550400e+04"),
    (F32, "1.0e300", "0x7F800000"),
    (F64, "1.0e1000", "0x7FF0000000000000"),
    (F32, "6.659981377152290882293073e-12", "6.65998159E-12"),
    (F32, "1e10", "1.000000e+10"),
    (F16, "1.5e-3", "1.500130e-03"),
    (F32, "1.", "1.000000e+00"),
    (F64, "-2.0e-3", "-2.000000e-03"),
];

#[test]
fn keywords_round_trip() {
    for kind in FloatKind::ALL {
        assert_eq!(FloatKind::from_keyword(kind.keyword()), Some(kind));
    }
    assert_eq!(FloatKind::from_keyword("f8e4m3fn"), None);
    assert_eq!(FloatKind::from_keyword("bf16"), Some(BF16));
    assert_eq!(TF32.bit_width(), 19);
    assert_eq!(F80.bit_width(), 80);
    assert_eq!(F80.precision(), 64);
    assert_eq!(F8E8M0FNU.precision(), 1);
    assert!(F8E5M2.has_inf() && !F8E4M3FN.has_inf() && F8E4M3FN.has_nan());
    assert!(!F4E2M1FN.has_nan() && !F6E3M2FN.has_inf());
}

#[test]
fn print_matches_mlir_opt() {
    for &(kind, bits, expected) in PRINT_CASES {
        assert_eq!(print_mlir(kind, bits), expected, "{kind:?} {bits:#X}");
    }
}

#[test]
fn parse_then_print_matches_mlir_opt() {
    for &(kind, text, expected) in PARSE_CASES {
        let bits = parse_decimal(kind, text).expect(text);
        assert_eq!(print_mlir(kind, bits), expected, "{kind:?} {text}");
    }
}

#[test]
fn mlir_parses_through_f64_but_exact_parse_does_not() {
    // 0.1 rounded to f64 first, then widened: not the nearest f128.
    let via_f64 = parse_decimal(F128, "0.1").unwrap();
    let exact = parse_decimal_exact(F128, "0.1").unwrap();
    assert_eq!(via_f64, 0x3FFB9999_99999999_A0000000_00000000);
    assert_eq!(exact, 0x3FFB9999_99999999_99999999_9999999A);
    // Just below an f32 halfway point: the f64 rounding lands on the
    // halfway point and the tie then goes to even (up), whereas a single
    // correct rounding goes down.
    let text = "6.659981377152290882293073e-12";
    assert_eq!(parse_decimal(F32, text), Some(0x2CEA53C8));
    assert_eq!(parse_decimal_exact(F32, text), Some(0x2CEA53C7));
}

#[test]
fn malformed_literals_are_rejected() {
    for text in [
        "", "-", "inf", "nan", "-inf", ".5", "+1.0", "--1.0", "1.5e", "1.5e+", "1.0f", "0x10",
        "1.0.0", "1 ", " 1", "1e1.5", "١.٠",
    ] {
        assert_eq!(parse_decimal(F32, text), None, "{text:?}");
        assert_eq!(parse_decimal_exact(F32, text), None, "{text:?}");
    }
    for (text, bits) in [
        ("1.", 0x3F800000),
        ("1.e5", 0x47C35000),
        ("1e10", 0x501502F9),
        ("1E+1", 0x41200000),
        ("-0.0", 0x80000000),
        ("00012.5000", 0x41480000),
        ("0.0e999999999999999999", 0),
        ("1.0e999999999999999999", 0x7F800000),
        ("1.0e-999999999999999999", 0),
    ] {
        assert_eq!(parse_decimal(F32, text), Some(bits), "{text:?}");
    }
}

#[test]
fn hex_literals_must_fit_the_width() {
    assert_eq!(from_hex_bits(F32, "7FC00000"), Some(0x7FC00000));
    assert_eq!(from_hex_bits(F8E4M3FN, "000000FF"), Some(0xFF));
    assert_eq!(from_hex_bits(F8E4M3FN, "1FF"), None);
    assert_eq!(from_hex_bits(TF32, "7FFFF"), Some(0x7FFFF));
    assert_eq!(from_hex_bits(TF32, "80000"), None);
    assert_eq!(from_hex_bits(F4E2M1FN, "F"), Some(0xF));
    assert_eq!(from_hex_bits(F4E2M1FN, "10"), None);
    assert_eq!(from_hex_bits(F6E2M3FN, "40"), None);
    assert_eq!(from_hex_bits(F80, "100000000000000000000"), None);
    assert_eq!(from_hex_bits(F128, &"F".repeat(32)), Some(u128::MAX));
    assert_eq!(
        from_hex_bits(F128, &format!("0{}", "F".repeat(32))),
        Some(u128::MAX)
    );
    assert_eq!(from_hex_bits(F128, &format!("1{}", "0".repeat(32))), None);
    assert_eq!(from_hex_bits(F16, "7c00"), Some(0x7C00));
    assert_eq!(from_hex_bits(F16, ""), None);
    assert_eq!(from_hex_bits(F16, "0x1"), None);
    assert_eq!(from_hex_bits(F16, "-1"), None);
}

#[test]
fn default_to_string_examples() {
    // APFloat::toString() defaults, as used by the printer's second step.
    let f32_tenth = decode(F32, 0x3DCCCCCD);
    let Class::Finite { mant, exp } = f32_tenth.1 else {
        panic!()
    };
    assert_eq!(
        ap_to_string(false, mant, exp, 24, 0, 3, true),
        "0.100000001"
    );
    assert_eq!(ap_to_string(false, 16777217, 0, 53, 0, 3, true), "16777217");
    assert_eq!(ap_to_string(true, 15, 36, 53, 0, 3, true), "-1030792151040");
    let five_pow_20 = 5u128.pow(20);
    assert_eq!(
        ap_to_string(false, five_pow_20, 20, 53, 0, 3, true),
        "1.0E+20"
    );
    assert_eq!(
        ap_to_string(false, 3 * five_pow_20, 19, 53, 0, 3, true),
        "1.5E+20"
    );
    assert_eq!(ap_to_string(false, 3, -12, 53, 0, 3, true), "7.32421875E-4");
    assert_eq!(ap_to_string(false, 1, 0, 53, 0, 3, true), "1");
    assert_eq!(ap_to_string(false, 1, 10, 53, 0, 3, true), "1024");
    assert_eq!(ap_to_string(false, 1, -10, 53, 0, 3, true), "9.765625E-4");
    assert_eq!(ap_to_string(false, 0, 0, 53, 0, 3, true), "0");
    assert_eq!(ap_to_string(true, 0, 0, 53, 6, 0, false), "-0.000000e+00");
    // Round half up on the exact digits, unlike Rust's `{:e}`.
    assert_eq!(ap_to_string(false, 201, -6, 8, 6, 0, false), "3.140630e+00");
}

#[test]
fn special_values() {
    assert!(F32.is_nan(0x7FC00000) && F32.is_nan(0xFF800001) && !F32.is_nan(0x7F800000));
    assert!(F32.is_inf(0xFF800000) && !F32.is_inf(0x7F7FFFFF));
    assert!(F8E4M3FN.is_nan(0x7F) && F8E4M3FN.is_nan(0xFF) && !F8E4M3FN.is_nan(0x7E));
    assert!(F8E4M3FNUZ.is_nan(0x80) && !F8E4M3FNUZ.is_nan(0x00));
    assert!(F8E8M0FNU.is_nan(0xFF) && !F8E8M0FNU.is_nan(0x7F));
    assert!(F80.is_inf(0x7FFF_80000000_00000000));
    // Pseudo-infinity and unnormals are NaN for APFloat.
    assert!(F80.is_nan(0x7FFF_00000000_00000000) && F80.is_nan(0x4000_00000000_00000000));
    for kind in FloatKind::ALL {
        for bits in 0..1u128 << kind.bit_width().min(8) {
            assert!(!(kind.is_nan(bits) && kind.is_inf(bits)));
            assert!(kind.has_nan() || !kind.is_nan(bits), "{kind:?}");
            assert!(kind.has_inf() || !kind.is_inf(bits), "{kind:?}");
        }
    }
    assert_eq!(F8E4M3FN.from_f64(f64::INFINITY), 0x7F);
    assert_eq!(F8E4M3FN.from_f64(f64::NEG_INFINITY), 0xFF);
    assert_eq!(F8E5M2FNUZ.from_f64(f64::NEG_INFINITY), 0x80);
    assert_eq!(F8E5M2FNUZ.from_f64(-0.0), 0x00);
    assert_eq!(F8E8M0FNU.from_f64(0.0), 0x00);
    assert_eq!(F8E8M0FNU.from_f64(-2.0), 0xFF);
    assert_eq!(F8E8M0FNU.from_f64(3.0), 0x81);
    assert_eq!(F4E2M1FN.from_f64(f64::NEG_INFINITY), 0xF);
    assert_eq!(F6E3M2FN.from_f64(1e9), 0x1F);
    assert_eq!(F4E2M1FN.from_f64(f64::NAN), 0);
    assert_eq!(BF16.from_f64(f64::NAN), 0x7FC0);
    assert_eq!(F16.from_f64(-f64::NAN), 0xFE00);
    assert_eq!(F80.from_f64(f64::NAN), 0x7FFF_C0000000_00000000);
    assert_eq!(F128.from_f64(f64::INFINITY), 0x7FFF << 112);
    assert!(F80.to_f64(0x7FFF_C0000000_00000000).is_nan());
    assert_eq!(F80.to_f64(0xFFFF_80000000_00000000), f64::NEG_INFINITY);
    assert_eq!(F128.to_f64(0x7FFE << 112), f64::INFINITY);
    assert_eq!(F128.to_f64(1), 0.0);
}

#[test]
fn f32_conversions_match_hardware() {
    let mut rng = XorShift(0x1234_5678_9ABC_DEF1);
    for i in 0..20_000 {
        // Mix raw f64 patterns with values near the f32 range edges.
        let v = match i % 3 {
            0 => f64::from_bits(rng.next()),
            1 => f64::from(f32::from_bits(rng.next() as u32)) * (1.0 + 1e-9),
            _ => (rng.next() as i64 as f64) * 2f64.powi((rng.next() % 300) as i32 - 200),
        };
        if v.is_nan() {
            continue;
        }
        let bits = F32.from_f64(v);
        assert_eq!(bits, u128::from((v as f32).to_bits()), "{v:e}");
        let back = F32.to_f64(bits);
        assert_eq!(back.to_bits(), f64::from(v as f32).to_bits(), "{v:e}");
    }
}

#[test]
fn narrow_formats_convert_exactly_through_f64() {
    let mut rng = XorShift(42);
    for kind in FloatKind::ALL {
        if matches!(kind, F80 | F128) {
            // Every f64 is exactly representable in these.
            for _ in 0..2_000 {
                let v = f64::from_bits(rng.next());
                if !v.is_nan() {
                    assert_eq!(kind.to_f64(kind.from_f64(v)).to_bits(), v.to_bits());
                }
            }
            continue;
        }
        let exhaustive = kind.bit_width() <= 16;
        let count = if exhaustive {
            1 << kind.bit_width()
        } else {
            20_000
        };
        for i in 0..count {
            let bits = if exhaustive {
                i
            } else {
                rng.bits(kind.bit_width())
            };
            if kind.is_nan(bits) {
                assert!(kind.to_f64(bits).is_nan());
                continue;
            }
            let v = kind.to_f64(bits);
            assert_eq!(kind.from_f64(v), bits, "{kind:?} {bits:#X} {v:e}");
        }
    }
}

/// A random decimal literal with up to 40 digits and an exponent around
/// the range of f32 (`wide == false`) or f64 (`wide == true`).
fn random_decimal(rng: &mut XorShift, wide: bool) -> String {
    let digits = 1 + rng.next() % 40;
    let mut s = String::new();
    if rng.next().is_multiple_of(4) {
        s.push('-');
    }
    for i in 0..digits {
        if i == 1 {
            s.push('.');
        }
        s.push(char::from(b'0' + (rng.next() % 10) as u8));
    }
    let range = if wide { 700 } else { 100 };
    let exp = (rng.next() % range) as i64 - range as i64 / 2 - i64::from(wide) * 15;
    s.push_str(&format!("e{exp}"));
    s
}

#[test]
fn exact_parse_matches_std() {
    let mut rng = XorShift(7);
    for _ in 0..3_000 {
        let s = random_decimal(&mut rng, true);
        let want = u128::from(s.parse::<f64>().unwrap().to_bits());
        assert_eq!(parse_decimal_exact(F64, &s), Some(want), "{s}");
        assert_eq!(parse_decimal(F64, &s), Some(want), "{s}");
        let s = random_decimal(&mut rng, false);
        let want = u128::from(s.parse::<f32>().unwrap().to_bits());
        assert_eq!(parse_decimal_exact(F32, &s), Some(want), "{s}");
    }
    // Strings at and next to f32 halfway points, which are exact in f64
    // and so can be spelled out in full.
    for _ in 0..3_000 {
        let a = rng.next() as u32 & 0x7F7F_FFFF;
        let lo = f64::from(f32::from_bits(a));
        let hi = f64::from(f32::from_bits(a + 1));
        let mid = format!("{:.120e}", (lo + hi) / 2.0);
        let (mantissa, exp) = mid.split_once('e').unwrap();
        for keep in [9, 12, 17, 25, mantissa.len()] {
            let s = format!("{}e{exp}", &mantissa[..keep.min(mantissa.len())]);
            let want = u128::from(s.parse::<f32>().unwrap().to_bits());
            assert_eq!(parse_decimal_exact(F32, &s), Some(want), "{s}");
        }
    }
    // Far more digits than the sticky-digit cut-off keeps.
    let long = format!("1.{}1e-45", "0".repeat(20_000));
    assert_eq!(parse_decimal_exact(F32, &long), Some(1));
    // Just below half the smallest f32 subnormal (2^-150).
    let below_tie = format!(
        "0.{}{}",
        "0".repeat(45),
        "70064923216240853546186479164495806"
    );
    assert_eq!(parse_decimal_exact(F32, &below_tie), Some(0));
    let tie = format!(
        "{}e-46",
        "7.00649232162408535461864791644958065640130970938257885878534141944895541342930300743319094181060791015625"
    );
    assert_eq!(parse_decimal_exact(F32, &tie), Some(0));
    let above_tie = format!("{}1e-46", &tie[..tie.len() - 4]);
    assert_eq!(parse_decimal_exact(F32, &above_tie), Some(1));
}

#[test]
fn printed_values_parse_back() {
    let mut rng = XorShift(0xDEAD_BEEF);
    for kind in FloatKind::ALL {
        let width = kind.bit_width();
        let count: u128 = match width {
            0..=8 => 1 << width,
            9..=64 => 1_500,
            _ => 150,
        };
        for i in 0..count {
            let bits = if width <= 8 { i } else { rng.bits(width) };
            let printed = print_mlir(kind, bits);
            if kind.is_nan(bits) || kind.is_inf(bits) {
                assert!(printed.starts_with("0x"), "{kind:?} {printed}");
                assert_eq!(printed.len(), 2 + kind.bit_width().div_ceil(4) as usize);
                continue;
            }
            if let Some(hex) = printed.strip_prefix("0x") {
                // Only integers too long for the short form end up here.
                assert!(width >= 32, "{kind:?} {bits:#X} {printed}");
                let again = from_hex_bits(kind, hex).unwrap();
                assert_eq!(again, bits);
                continue;
            }
            let exact = parse_decimal_exact(kind, &printed).unwrap();
            assert_eq!(print_mlir(kind, exact), printed, "{kind:?} {bits:#X}");
            if kind != F80 {
                assert_eq!(exact, bits, "{kind:?} {bits:#X} {printed}");
            }
            // MLIR's own parser goes through f64, which cannot carry f80
            // or f128 precision; every narrower format survives it.
            if !matches!(kind, F80 | F128) {
                assert_eq!(
                    parse_decimal(kind, &printed),
                    Some(bits),
                    "{kind:?} {printed}"
                );
            }
        }
    }
}
