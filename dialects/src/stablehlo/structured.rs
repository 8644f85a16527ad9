//! StableHLO's structured ops: dot_general and dot, convolution, reduce (with the
//! compact `applies` form), reduce_window, select_and_scatter, gather, scatter,
//! sort, while, if, case, map, custom_call, composite, tuples, optimization
//! barriers and `return`: the ops that carry dimension numbers, windows or
//! regions. Ops whose StableHLO definition has no custom syntax
//! (reduce_window, gather, scatter, sort, if, case, map, ...) print in the
//! generic form, as stablehlo-opt prints them.

use super::{
    ANY_ATTR, BOOL_ARRAY, ELEMENTS_ATTR, INT_TENSOR, STRING_ATTR, STRUCT_ATTR, TENSOR, op, syntax,
};
use aic::constraints::{BOOL_ATTR, I32_ATTR, I64_ARRAY, I64_ATTR};
use aic::dialect::{AttrSpec, CustomAsm, Dialect, OpSpec, RegionSpec, Traits, ValueSpec, ac, tc};

const PRECISION: AttrSpec = AttrSpec::optional("precision_config", ANY_ATTR);

/// `stablehlo.dot_general`.
pub const DOT_GENERAL: OpSpec = OpSpec {
    operands: &[ValueSpec::one("lhs", TENSOR), ValueSpec::one("rhs", TENSOR)],
    results: &[ValueSpec::one("result", TENSOR)],
    attributes: &[
        AttrSpec::required("dot_dimension_numbers", STRUCT_ATTR),
        PRECISION,
        AttrSpec::optional("algorithm", ANY_ATTR),
    ],
    format: Some(
        "$lhs `,` $rhs `,` custom<DotDimensionNumbers>($dot_dimension_numbers) `` custom<PrecisionConfigAndAlgorithm>($precision_config, $algorithm) attr-dict `:` functional-type(operands, results)",
    ),
    ..op("stablehlo.dot_general", "DotGeneral operation")
};

/// `stablehlo.dot`.
pub const DOT: OpSpec = OpSpec {
    operands: &[ValueSpec::one("lhs", TENSOR), ValueSpec::one("rhs", TENSOR)],
    results: &[ValueSpec::one("result", TENSOR)],
    attributes: &[PRECISION],
    format: Some(
        "$lhs `,` $rhs `` custom<PrecisionConfig>($precision_config) attr-dict `:` functional-type(operands, results)",
    ),
    ..op("stablehlo.dot", "Dot operation")
};

/// `stablehlo.convolution`.
pub const CONVOLUTION: OpSpec = OpSpec {
    operands: &[ValueSpec::one("lhs", TENSOR), ValueSpec::one("rhs", TENSOR)],
    results: &[ValueSpec::one("result", TENSOR)],
    attributes: &[
        AttrSpec::optional("window_strides", I64_ARRAY),
        AttrSpec::optional("padding", ELEMENTS_ATTR),
        AttrSpec::optional("lhs_dilation", I64_ARRAY),
        AttrSpec::optional("rhs_dilation", I64_ARRAY),
        AttrSpec::optional("window_reversal", BOOL_ARRAY),
        AttrSpec::required("dimension_numbers", STRUCT_ATTR),
        AttrSpec::required("feature_group_count", I64_ATTR),
        AttrSpec::required("batch_group_count", I64_ATTR),
        PRECISION,
    ],
    format: Some(
        "`(`operands`)` `dim_numbers` `=` custom<ConvolutionDimensions>($dimension_numbers) `,` `window` `=` `{` custom<WindowAttributes>($window_strides, $padding, $lhs_dilation, $rhs_dilation, $window_reversal) `}` attr-dict `:` functional-type(operands, results)",
    ),
    ..op("stablehlo.convolution", "Convolution operation")
};

/// `stablehlo.reduce`: inputs then as many init values.
pub const REDUCE: OpSpec = OpSpec {
    operands: &[ValueSpec::variadic("inputs_and_init_values", TENSOR)],
    results: &[ValueSpec::variadic("results", TENSOR)],
    attributes: &[AttrSpec::required("dimensions", I64_ARRAY)],
    regions: &[RegionSpec::sized("body")],
    traits: Traits::RECURSIVE_MEMORY_EFFECTS,
    custom: Some(CustomAsm {
        parse: |p, st| syntax::parse_reduce(p, st, &REDUCE),
        print: |pr, op| syntax::print_reduce(pr, op, &REDUCE),
    }),
    ..op("stablehlo.reduce", "Reduce operation")
};

/// `stablehlo.reduce_window`: inputs then as many init values.
pub const REDUCE_WINDOW: OpSpec = OpSpec {
    operands: &[ValueSpec::variadic("inputs_and_init_values", TENSOR)],
    results: &[ValueSpec::variadic("results", TENSOR)],
    attributes: &[
        AttrSpec::required("window_dimensions", I64_ARRAY),
        AttrSpec::optional("window_strides", I64_ARRAY),
        AttrSpec::optional("base_dilations", I64_ARRAY),
        AttrSpec::optional("window_dilations", I64_ARRAY),
        AttrSpec::optional("padding", ELEMENTS_ATTR),
    ],
    regions: &[RegionSpec::sized("body")],
    traits: Traits::RECURSIVE_MEMORY_EFFECTS,
    ..op("stablehlo.reduce_window", "ReduceWindow operation")
};

/// `stablehlo.select_and_scatter`.
pub const SELECT_AND_SCATTER: OpSpec = OpSpec {
    operands: &[
        ValueSpec::one("operand", TENSOR),
        ValueSpec::one("source", TENSOR),
        ValueSpec::one("init_value", TENSOR),
    ],
    results: &[ValueSpec::one("result", TENSOR)],
    attributes: &[
        AttrSpec::optional("window_dimensions", I64_ARRAY),
        AttrSpec::optional("window_strides", I64_ARRAY),
        AttrSpec::optional("padding", ELEMENTS_ATTR),
    ],
    regions: &[RegionSpec::sized("select"), RegionSpec::sized("scatter")],
    traits: Traits::RECURSIVE_MEMORY_EFFECTS,
    ..op("stablehlo.select_and_scatter", "SelectAndScatter operation")
};

/// `stablehlo.gather`.
pub const GATHER: OpSpec = OpSpec {
    operands: &[
        ValueSpec::one("operand", TENSOR),
        ValueSpec::one("start_indices", INT_TENSOR),
    ],
    results: &[ValueSpec::one("result", TENSOR)],
    attributes: &[
        AttrSpec::required("dimension_numbers", STRUCT_ATTR),
        AttrSpec::required("slice_sizes", I64_ARRAY),
        AttrSpec::optional("indices_are_sorted", BOOL_ATTR),
    ],
    ..op("stablehlo.gather", "Gather operation")
};

/// `stablehlo.scatter`: inputs, the scatter indices, then as many updates.
pub const SCATTER: OpSpec = OpSpec {
    operands: &[ValueSpec::variadic("inputs_indices_updates", TENSOR)],
    results: &[ValueSpec::variadic("results", TENSOR)],
    attributes: &[
        AttrSpec::required("scatter_dimension_numbers", STRUCT_ATTR),
        AttrSpec::optional("indices_are_sorted", BOOL_ATTR),
        AttrSpec::optional("unique_indices", BOOL_ATTR),
    ],
    regions: &[RegionSpec::sized("update_computation")],
    traits: Traits::RECURSIVE_MEMORY_EFFECTS,
    ..op("stablehlo.scatter", "Scatter operation")
};

fn minus_one(u: &aic::ir::Uniquer) -> aic::attributes::Attr {
    u.attr(aic::attributes::AttrKind::Integer {
        value: -1,
        ty: u.int_type(64),
    })
}

/// `stablehlo.sort`.
pub const SORT: OpSpec = OpSpec {
    operands: &[ValueSpec::variadic("inputs", TENSOR)],
    results: &[ValueSpec::variadic("results", TENSOR)],
    attributes: &[
        AttrSpec::defaulted("dimension", I64_ATTR, minus_one),
        AttrSpec::optional("is_stable", BOOL_ATTR),
    ],
    regions: &[RegionSpec::sized("comparator")],
    traits: Traits::RECURSIVE_MEMORY_EFFECTS,
    ..op("stablehlo.sort", "Sort operation")
};

/// `stablehlo.while`.
pub const WHILE: OpSpec = OpSpec {
    operands: &[ValueSpec::variadic("operand", tc::ANY)],
    results: &[ValueSpec::variadic("results", tc::ANY)],
    regions: &[RegionSpec::sized("cond"), RegionSpec::sized("body")],
    traits: Traits::RECURSIVE_MEMORY_EFFECTS,
    // `%iterArg`, `%iterArg_0`, ... as stablehlo-opt names them.
    region_arg_names: Some(|ctx, op, _| vec![Some("iterArg".to_string()); ctx.operands(op).len()]),
    custom: Some(CustomAsm {
        parse: |p, st| syntax::parse_while(p, st, &WHILE),
        print: syntax::print_while,
    }),
    ..op("stablehlo.while", "While operation")
};

/// `stablehlo.if`.
pub const IF: OpSpec = OpSpec {
    operands: &[ValueSpec::one("pred", super::PRED_TENSOR)],
    results: &[ValueSpec::variadic("results", tc::ANY)],
    regions: &[
        RegionSpec::sized("true_branch"),
        RegionSpec::sized("false_branch"),
    ],
    traits: Traits::RECURSIVE_MEMORY_EFFECTS,
    ..op("stablehlo.if", "If operation")
};

/// `stablehlo.case`.
pub const CASE: OpSpec = OpSpec {
    operands: &[ValueSpec::one("index", INT_TENSOR)],
    results: &[ValueSpec::variadic("results", tc::ANY)],
    regions: &[RegionSpec::variadic("branches")],
    traits: Traits::RECURSIVE_MEMORY_EFFECTS,
    ..op("stablehlo.case", "Case operation")
};

/// `stablehlo.map`.
pub const MAP: OpSpec = OpSpec {
    operands: &[ValueSpec::variadic("inputs", TENSOR)],
    results: &[ValueSpec::one("result", TENSOR)],
    attributes: &[AttrSpec::required("dimensions", I64_ARRAY)],
    regions: &[RegionSpec::sized("computation")],
    traits: Traits::RECURSIVE_MEMORY_EFFECTS,
    ..op("stablehlo.map", "Map operation")
};

/// `stablehlo.custom_call`: kept as written; the interpreter reports it unsupported.
pub const CUSTOM_CALL: OpSpec = OpSpec {
    operands: &[ValueSpec::variadic("inputs", tc::ANY)],
    results: &[ValueSpec::variadic("results", tc::ANY)],
    attributes: &[
        AttrSpec::required("call_target_name", STRING_ATTR),
        AttrSpec::optional("has_side_effect", BOOL_ATTR),
        AttrSpec::optional("backend_config", ANY_ATTR),
        AttrSpec::optional("api_version", ANY_ATTR),
        AttrSpec::optional("called_computations", ANY_ATTR),
        AttrSpec::optional("operand_layouts", ANY_ATTR),
        AttrSpec::optional("result_layouts", ANY_ATTR),
        AttrSpec::optional("output_operand_aliases", ANY_ATTR),
    ],
    traits: Traits::NONE,
    format: Some(
        "custom<CustomCallTarget>($call_target_name) `(` $inputs `)` attr-dict `:` functional-type(operands, results)",
    ),
    ..op("stablehlo.custom_call", "CustomCall operation")
};

/// `stablehlo.composite`: a named op with a decomposition function.
pub const COMPOSITE: OpSpec = OpSpec {
    operands: &[ValueSpec::variadic("inputs", tc::ANY)],
    results: &[ValueSpec::variadic("results", tc::ANY)],
    attributes: &[
        AttrSpec::required("name", STRING_ATTR),
        AttrSpec::optional("composite_attributes", ANY_ATTR),
        AttrSpec::required("decomposition", ac::FLAT_SYMBOL_REF),
        AttrSpec::optional("version", I32_ATTR),
    ],
    traits: Traits::NONE,
    format: Some("$name operands attr-dict `:` functional-type(operands, results)"),
    ..op("stablehlo.composite", "Composite operation")
};

/// `stablehlo.tuple`.
pub const TUPLE: OpSpec = OpSpec {
    operands: &[ValueSpec::variadic("val", tc::ANY)],
    results: &[ValueSpec::one("result", tc::ANY)],
    format: Some("$val attr-dict `:` custom<TupleOpType>(type($val), type($result))"),
    ..op("stablehlo.tuple", "Tuple operation")
};

/// `stablehlo.get_tuple_element`.
pub const GET_TUPLE_ELEMENT: OpSpec = OpSpec {
    operands: &[ValueSpec::one("operand", tc::ANY)],
    results: &[ValueSpec::one("result", tc::ANY)],
    attributes: &[AttrSpec::required("index", I32_ATTR)],
    format: Some("$operand `[` $index `]` attr-dict `:` functional-type(operands, results)"),
    ..op("stablehlo.get_tuple_element", "GetTupleElement operation")
};

/// `stablehlo.optimization_barrier`.
pub const OPTIMIZATION_BARRIER: OpSpec = OpSpec {
    operands: &[ValueSpec::variadic("operand", tc::ANY)],
    results: &[ValueSpec::variadic("result", tc::ANY)],
    traits: Traits::NONE,
    format: Some(
        "attr-dict ($operand^ `:` custom<PairwiseOpType>(type($operand), type($result))):(`(` `)`)?",
    ),
    ..op(
        "stablehlo.optimization_barrier",
        "OptimizationBarrier operation",
    )
};

/// `stablehlo.return`: ends the regions of StableHLO ops.
pub const RETURN: OpSpec = OpSpec {
    operands: &[ValueSpec::variadic("results", tc::ANY)],
    traits: Traits::PURE
        .with(Traits::TERMINATOR)
        .with(Traits::RETURN_LIKE),
    format: Some("$results attr-dict (`:` type($results)^)?"),
    ..op("stablehlo.return", "Return operation")
};

/// `stablehlo.replica_id`.
pub const REPLICA_ID: OpSpec = OpSpec {
    results: &[ValueSpec::one("result", tc::ANY)],
    format: Some("attr-dict `:` type(results)"),
    ..op("stablehlo.replica_id", "ReplicaId operation")
};

/// `stablehlo.partition_id`.
pub const PARTITION_ID: OpSpec = OpSpec {
    results: &[ValueSpec::one("result", tc::ANY)],
    format: Some("attr-dict `:` type(results)"),
    ..op("stablehlo.partition_id", "PartitionId operation")
};

/// `stablehlo.create_token`.
pub const CREATE_TOKEN: OpSpec = OpSpec {
    results: &[ValueSpec::one("output", tc::ANY)],
    format: Some("attr-dict `:` type(results)"),
    ..op("stablehlo.create_token", "CreateToken operation")
};

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
];

/// The second part of the `stablehlo` dialect.
pub static STRUCTURED: Dialect = Dialect {
    name: "stablehlo",
    description: "StableHLO: the portable ML compute op set",
    ops: OPS,
    materialize_constant: None,
};
