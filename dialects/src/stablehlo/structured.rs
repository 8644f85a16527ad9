//! StableHLO's structured ops: dot_general and dot, convolution, reduce (with the
//! compact `applies` form), reduce_window, select_and_scatter, gather, scatter,
//! sort, while, if, case, map, custom_call, composite, tuples, optimization
//! barriers and `return`: the ops that carry dimension numbers, windows or
//! regions. Ops whose StableHLO definition has no custom syntax
//! (reduce_window, gather, scatter, sort, if, case, map, ...) print in the
//! generic form, as stablehlo-opt prints them.

use super::attrs::{ConvDims, DotAlgorithm, DotDims, GatherDims, ScatterDims};
use super::{
    ANY_ATTR, BOOL_ARRAY, ELEMENTS_ATTR, INT_TENSOR, STRING_ATTR, TENSOR, interp, op, syntax,
    verify,
};
use aic::constraints::{BOOL_ATTR, I32_ATTR, I64_ARRAY, I64_ATTR};
use aic::dialect::{CustomAsm, Dialect, OpSpec, Traits, ac, tc};

aic::op! {
    /// `stablehlo.dot_general`.
    pub DotGeneral = DOT_GENERAL {
        operands: [lhs: one(TENSOR), rhs: one(TENSOR)],
        results: [result: one(TENSOR)],
        attributes: [
            dot_dimension_numbers: required(DotDims::CONSTRAINT),
            precision_config: optional(ANY_ATTR),
            algorithm: optional(DotAlgorithm::CONSTRAINT),
        ],
        spec: OpSpec {
            format: Some(
                "$lhs `,` $rhs `,` custom<DotDimensionNumbers>($dot_dimension_numbers) `` custom<PrecisionConfigAndAlgorithm>($precision_config, $algorithm) attr-dict `:` functional-type(operands, results)",
            ),
            verify: Some(verify::dot_general),
            interpret: Some(interp::dot_general),
            ..op("stablehlo.dot_general", "DotGeneral operation")
        },
    }
}

aic::op! {
    /// `stablehlo.dot`.
    pub Dot = DOT {
        operands: [lhs: one(TENSOR), rhs: one(TENSOR)],
        results: [result: one(TENSOR)],
        attributes: [precision_config: optional(ANY_ATTR)],
        spec: OpSpec {
            format: Some(
                "$lhs `,` $rhs `` custom<PrecisionConfig>($precision_config) attr-dict `:` functional-type(operands, results)",
            ),
            interpret: Some(interp::dot),
            ..op("stablehlo.dot", "Dot operation")
        },
    }
}

aic::op! {
    /// `stablehlo.convolution`.
    pub Convolution = CONVOLUTION {
        operands: [lhs: one(TENSOR), rhs: one(TENSOR)],
        results: [result: one(TENSOR)],
        attributes: [
            window_strides: optional(I64_ARRAY) as Vec<i64>,
            padding: optional(ELEMENTS_ATTR),
            lhs_dilation: optional(I64_ARRAY) as Vec<i64>,
            rhs_dilation: optional(I64_ARRAY) as Vec<i64>,
            window_reversal: optional(BOOL_ARRAY),
            dimension_numbers: required(ConvDims::CONSTRAINT),
            feature_group_count: required(I64_ATTR) as i64,
            batch_group_count: required(I64_ATTR) as i64,
            precision_config: optional(ANY_ATTR),
        ],
        spec: OpSpec {
            format: Some(
                "`(`operands`)` `dim_numbers` `=` custom<ConvolutionDimensions>($dimension_numbers) `,` `window` `=` `{` custom<WindowAttributes>($window_strides, $padding, $lhs_dilation, $rhs_dilation, $window_reversal) `}` attr-dict `:` functional-type(operands, results)",
            ),
            verify: Some(verify::convolution),
            interpret: Some(interp::convolution),
            ..op("stablehlo.convolution", "Convolution operation")
        },
    }
}

aic::op! {
    /// `stablehlo.reduce`: inputs then as many init values.
    pub Reduce = REDUCE {
        operands: [inputs_and_init_values: variadic(TENSOR)],
        results: [results: variadic(TENSOR)],
        attributes: [dimensions: required(I64_ARRAY) as Vec<i64>],
        regions: [body: sized],
        spec: OpSpec {
            traits: Traits::RECURSIVE_MEMORY_EFFECTS,
            custom: Some(CustomAsm {
                parse: |p, st| syntax::parse_reduce(p, st, &REDUCE),
                print: |pr, op| syntax::print_reduce(pr, op, &REDUCE),
            }),
            verify: Some(verify::reduce),
            interpret: Some(interp::reduce),
            ..op("stablehlo.reduce", "Reduce operation")
        },
    }
}

aic::op! {
    /// `stablehlo.reduce_window`: inputs then as many init values.
    pub ReduceWindow = REDUCE_WINDOW {
        operands: [inputs_and_init_values: variadic(TENSOR)],
        results: [results: variadic(TENSOR)],
        attributes: [
            window_dimensions: required(I64_ARRAY),
            window_strides: optional(I64_ARRAY),
            base_dilations: optional(I64_ARRAY),
            window_dilations: optional(I64_ARRAY),
            padding: optional(ELEMENTS_ATTR),
        ],
        regions: [body: sized],
        spec: OpSpec {
            traits: Traits::RECURSIVE_MEMORY_EFFECTS,
            verify: Some(verify::reduce_window),
            interpret: Some(interp::reduce_window),
            ..op("stablehlo.reduce_window", "ReduceWindow operation")
        },
    }
}

aic::op! {
    /// `stablehlo.select_and_scatter`.
    pub SelectAndScatter = SELECT_AND_SCATTER {
        operands: [operand: one(TENSOR), source: one(TENSOR), init_value: one(TENSOR)],
        results: [result: one(TENSOR)],
        attributes: [
            window_dimensions: optional(I64_ARRAY),
            window_strides: optional(I64_ARRAY),
            padding: optional(ELEMENTS_ATTR),
        ],
        regions: [select: sized, scatter: sized],
        spec: OpSpec {
            traits: Traits::RECURSIVE_MEMORY_EFFECTS,
            verify: Some(verify::select_and_scatter),
            interpret: Some(interp::select_and_scatter),
            ..op("stablehlo.select_and_scatter", "SelectAndScatter operation")
        },
    }
}

aic::op! {
    /// `stablehlo.gather`.
    pub Gather = GATHER {
        operands: [operand: one(TENSOR), start_indices: one(INT_TENSOR)],
        results: [result: one(TENSOR)],
        attributes: [
            dimension_numbers: required(GatherDims::CONSTRAINT),
            slice_sizes: required(I64_ARRAY),
            indices_are_sorted: optional(BOOL_ATTR),
        ],
        spec: OpSpec {
            verify: Some(verify::gather),
            interpret: Some(interp::gather),
            ..op("stablehlo.gather", "Gather operation")
        },
    }
}

aic::op! {
    /// `stablehlo.scatter`: inputs, the scatter indices, then as many updates.
    pub Scatter = SCATTER {
        operands: [inputs_indices_updates: variadic(TENSOR)],
        results: [results: variadic(TENSOR)],
        attributes: [
            scatter_dimension_numbers: required(ScatterDims::CONSTRAINT),
            indices_are_sorted: optional(BOOL_ATTR),
            unique_indices: optional(BOOL_ATTR),
        ],
        regions: [update_computation: sized],
        spec: OpSpec {
            traits: Traits::RECURSIVE_MEMORY_EFFECTS,
            verify: Some(verify::scatter),
            interpret: Some(interp::scatter),
            ..op("stablehlo.scatter", "Scatter operation")
        },
    }
}

fn minus_one(u: &aic::ir::Uniquer) -> aic::attributes::Attr {
    u.attr(aic::attributes::AttrKind::Integer {
        value: -1,
        ty: u.int_type(64),
    })
}

aic::op! {
    /// `stablehlo.sort`.
    pub Sort = SORT {
        operands: [inputs: variadic(TENSOR)],
        results: [results: variadic(TENSOR)],
        attributes: [dimension: defaulted(I64_ATTR, minus_one), is_stable: optional(BOOL_ATTR)],
        regions: [comparator: sized],
        spec: OpSpec {
            traits: Traits::RECURSIVE_MEMORY_EFFECTS,
            verify: Some(verify::sort),
            interpret: Some(interp::sort),
            ..op("stablehlo.sort", "Sort operation")
        },
    }
}

aic::op! {
    /// `stablehlo.while`.
    pub While = WHILE {
        operands: [operand: variadic(tc::ANY)],
        results: [results: variadic(tc::ANY)],
        regions: [cond: sized, body: sized],
        spec: OpSpec {
            traits: Traits::RECURSIVE_MEMORY_EFFECTS,
            // `%iterArg`, `%iterArg_0`, ... as stablehlo-opt names them.
            region_arg_names: Some(|ctx, op, _| vec![Some("iterArg".to_string()); ctx.operands(op).len()]),
            custom: Some(CustomAsm {
                parse: |p, st| syntax::parse_while(p, st, &WHILE),
                print: syntax::print_while,
            }),
            verify: Some(verify::while_),
            interpret: Some(interp::while_),
            ..op("stablehlo.while", "While operation")
        },
    }
}

aic::op! {
    /// `stablehlo.if`.
    pub If = IF {
        operands: [pred: one(super::PRED_TENSOR)],
        results: [results: variadic(tc::ANY)],
        regions: [true_branch: sized, false_branch: sized],
        spec: OpSpec {
            traits: Traits::RECURSIVE_MEMORY_EFFECTS,
            verify: Some(verify::branches),
            interpret: Some(interp::if_),
            ..op("stablehlo.if", "If operation")
        },
    }
}

aic::op! {
    /// `stablehlo.case`.
    pub Case = CASE {
        operands: [index: one(INT_TENSOR)],
        results: [results: variadic(tc::ANY)],
        regions: [branches: variadic],
        spec: OpSpec {
            traits: Traits::RECURSIVE_MEMORY_EFFECTS,
            verify: Some(verify::branches),
            interpret: Some(interp::case),
            ..op("stablehlo.case", "Case operation")
        },
    }
}

aic::op! {
    /// `stablehlo.map`.
    pub Map = MAP {
        operands: [inputs: variadic(TENSOR)],
        results: [result: one(TENSOR)],
        attributes: [dimensions: required(I64_ARRAY)],
        regions: [computation: sized],
        spec: OpSpec {
            traits: Traits::RECURSIVE_MEMORY_EFFECTS,
            verify: Some(verify::map),
            interpret: Some(interp::map),
            ..op("stablehlo.map", "Map operation")
        },
    }
}

aic::op! {
    /// `stablehlo.custom_call`: kept as written; the interpreter reports it unsupported.
    pub CustomCall = CUSTOM_CALL {
        operands: [inputs: variadic(tc::ANY)],
        results: [results: variadic(tc::ANY)],
        attributes: [
            call_target_name: required(STRING_ATTR),
            has_side_effect: optional(BOOL_ATTR),
            backend_config: optional(ANY_ATTR),
            api_version: optional(ANY_ATTR),
            called_computations: optional(ANY_ATTR),
            operand_layouts: optional(ANY_ATTR),
            result_layouts: optional(ANY_ATTR),
            output_operand_aliases: optional(ANY_ATTR),
        ],
        spec: OpSpec {
            traits: Traits::NONE,
            format: Some(
                "custom<CustomCallTarget>($call_target_name) `(` $inputs `)` attr-dict `:` functional-type(operands, results)",
            ),
            interpret: Some(interp::custom_call),
            ..op("stablehlo.custom_call", "CustomCall operation")
        },
    }
}

aic::op! {
    /// `stablehlo.composite`: a named op with a decomposition function.
    pub Composite = COMPOSITE {
        operands: [inputs: variadic(tc::ANY)],
        results: [results: variadic(tc::ANY)],
        attributes: [
            name: required(STRING_ATTR),
            composite_attributes: optional(ANY_ATTR),
            decomposition: required(ac::FLAT_SYMBOL_REF),
            version: optional(I32_ATTR),
        ],
        spec: OpSpec {
            traits: Traits::NONE,
            format: Some("$name operands attr-dict `:` functional-type(operands, results)"),
            interpret: Some(interp::composite),
            ..op("stablehlo.composite", "Composite operation")
        },
    }
}

aic::op! {
    /// `stablehlo.tuple`.
    pub Tuple = TUPLE {
        operands: [val: variadic(tc::ANY)],
        results: [result: one(tc::ANY)],
        spec: OpSpec {
            format: Some("$val attr-dict `:` custom<TupleOpType>(type($val), type($result))"),
            interpret: Some(interp::tuple),
            ..op("stablehlo.tuple", "Tuple operation")
        },
    }
}

aic::op! {
    /// `stablehlo.get_tuple_element`.
    pub GetTupleElement = GET_TUPLE_ELEMENT {
        operands: [operand: one(tc::ANY)],
        results: [result: one(tc::ANY)],
        attributes: [index: required(I32_ATTR)],
        spec: OpSpec {
            format: Some("$operand `[` $index `]` attr-dict `:` functional-type(operands, results)"),
            verify: Some(verify::get_tuple_element),
            interpret: Some(interp::get_tuple_element),
            ..op("stablehlo.get_tuple_element", "GetTupleElement operation")
        },
    }
}

aic::op! {
    /// `stablehlo.optimization_barrier`.
    pub OptimizationBarrier = OPTIMIZATION_BARRIER {
        operands: [operand: variadic(tc::ANY)],
        results: [result: variadic(tc::ANY)],
        spec: OpSpec {
            traits: Traits::NONE,
            format: Some(
                "attr-dict ($operand^ `:` custom<PairwiseOpType>(type($operand), type($result))):(`(` `)`)?",
            ),
            interpret: Some(interp::retype_all),
            ..op(
                "stablehlo.optimization_barrier",
                "OptimizationBarrier operation",
            )
        },
    }
}

aic::op! {
    /// `stablehlo.return`: ends the regions of StableHLO ops.
    pub Return = RETURN {
        operands: [results: variadic(tc::ANY)],
        spec: OpSpec {
            traits: Traits::PURE
                .with(Traits::TERMINATOR)
                .with(Traits::RETURN_LIKE),
            format: Some("$results attr-dict (`:` type($results)^)?"),
            ..op("stablehlo.return", "Return operation")
        },
    }
}

aic::op! {
    /// `stablehlo.replica_id`.
    pub ReplicaId = REPLICA_ID {
        results: [result: one(tc::ANY)],
        spec: OpSpec {
            format: Some("attr-dict `:` type(results)"),
            interpret: Some(interp::replica_id),
            ..op("stablehlo.replica_id", "ReplicaId operation")
        },
    }
}

aic::op! {
    /// `stablehlo.partition_id`.
    pub PartitionId = PARTITION_ID {
        results: [result: one(tc::ANY)],
        spec: OpSpec {
            format: Some("attr-dict `:` type(results)"),
            interpret: Some(interp::partition_id),
            ..op("stablehlo.partition_id", "PartitionId operation")
        },
    }
}

aic::op! {
    /// `stablehlo.create_token`.
    pub CreateToken = CREATE_TOKEN {
        results: [output: one(tc::ANY)],
        spec: OpSpec {
            format: Some("attr-dict `:` type(results)"),
            interpret: Some(interp::create_token),
            ..op("stablehlo.create_token", "CreateToken operation")
        },
    }
}

aic::op! {
    /// `stablehlo.after_all %a, %b : !stablehlo.token`: a token after all of its operands'.
    pub AfterAll = AFTER_ALL {
        operands: [inputs: variadic(tc::ANY)],
        results: [result: one(tc::ANY)],
        spec: OpSpec {
            format: Some("$inputs attr-dict `:` type($result)"),
            // The operands are tokens, of the result's type.
            infer_operand: Some(|_, g, given| {
                let t = given.get(1)?.as_ref()?.first().copied();
                if g == 0 { t } else { None }
            }),
            interpret: Some(interp::create_token),
            ..op("stablehlo.after_all", "AfterAll operation")
        },
    }
}

/// The structured ops.
pub const OPS: &[OpSpec] = &[
    DOT_GENERAL,
    DOT,
    CONVOLUTION,
    REDUCE,
    REDUCE_WINDOW,
    SELECT_AND_SCATTER,
    GATHER,
    SCATTER,
    SORT,
    WHILE,
    IF,
    CASE,
    MAP,
    CUSTOM_CALL,
    COMPOSITE,
    TUPLE,
    GET_TUPLE_ELEMENT,
    OPTIMIZATION_BARRIER,
    RETURN,
    REPLICA_ID,
    PARTITION_ID,
    CREATE_TOKEN,
    AFTER_ALL,
];

/// The second part of the `stablehlo` dialect.
pub static STRUCTURED: Dialect = Dialect {
    name: "stablehlo",
    description: "StableHLO: the portable ML compute op set",
    ops: OPS,
    materialize_constant: None,
};
