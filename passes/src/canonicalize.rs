//! `canonicalize`: fold ops, erase dead ones and apply every registered op's
//! canonicalisation patterns with the greedy driver until a fixed point.

use aic::Diagnostic;
use aic::ir::{Context, Op};
use aic::pass::{OptKind, OptSpec, Pass, PassInfo, PassOptions};
use aic::rewrite::{GreedyConfig, PatternSet, apply_patterns_greedily};

static OPTIONS: [OptSpec; 5] = [
    OptSpec {
        name: "max-iterations",
        kind: OptKind::Int,
        default: "10",
        range: Some((1, u32::MAX as i64)),
        help: "Max. iterations between applying patterns / simplifying regions",
    },
    OptSpec {
        name: "max-num-rewrites",
        kind: OptKind::Int,
        default: "-1",
        range: Some((-1, i64::MAX)),
        help: "Max. number of pattern rewrites within an iteration",
    },
    OptSpec {
        name: "top-down",
        kind: OptKind::Bool,
        default: "true",
        range: None,
        help: "Seed the worklist in general top-down order",
    },
    OptSpec {
        name: "region-simplify",
        kind: OptKind::Enum(&["disabled", "normal", "aggressive"]),
        default: "normal",
        range: None,
        help: "Control-flow simplification of regions: unreachable blocks are always erased, as mlir-opt-22 does even when disabled; merging identical blocks needs branch ops, which aic has no dialect for yet",
    },
    OptSpec {
        name: "test-convergence",
        kind: OptKind::Bool,
        default: "false",
        range: None,
        help: "Test only: Fail pass on non-convergence to detect cyclic pattern",
    },
];

/// The registered pass.
pub static INFO: PassInfo = PassInfo {
    flag: "canonicalize",
    name: "Canonicalizer",
    summary: "Canonicalize operations",
    anchor: None,
    options: &OPTIONS,
    create: |o: &PassOptions| {
        Box::new(Canonicalize {
            config: GreedyConfig {
                max_iterations: o.int("max-iterations").clamp(1, u32::MAX as i64) as u32,
                fold: true,
                top_down: o.bool("top-down"),
                max_rewrites: u64::try_from(o.int("max-num-rewrites")).ok(),
            },
            test_convergence: o.bool("test-convergence"),
        })
    },
};

struct Canonicalize {
    config: GreedyConfig,
    test_convergence: bool,
}

impl Pass for Canonicalize {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }
    fn run(&self, ctx: &mut Context, op: Op) -> Result<bool, Diagnostic> {
        let patterns = PatternSet::canonicalization(ctx);
        let (changed, converged) = apply_patterns_greedily(ctx, op, &patterns, self.config);
        if self.test_convergence && !converged {
            return Err(
                Diagnostic::error("pattern application did not converge").at_loc(ctx.op(op).loc)
            );
        }
        Ok(changed)
    }
}
