//! Views: values of a group's body that only re-address a group input
//! (broadcasts, transposes, reshapes, slices, and chains of them). A kernel
//! never computes them; it reads the input through their descriptor.

use super::*;
use std::collections::HashMap;

/// A tensor the kernel reads: a group input and the descriptor from the
/// read value's shape to that input's (row-major) buffer.
#[derive(Clone, Debug)]
pub(super) struct Source {
    /// The group input (the kernel's buffer).
    pub(super) input: Value,
    /// From the read value's index space to the buffer.
    pub(super) desc: Desc,
}

/// The views among a group body's ops.
#[derive(Default)]
pub(super) struct Views {
    of: HashMap<Value, Source>,
}

/// The descriptor of view op `o` from its result's index space to its
/// operand's, if `o` is a view.
pub(super) fn view_desc(ctx: &Context, o: Op) -> Option<Desc> {
    let x = *ctx.operands(o).first()?;
    let (from, to) = (shape(ctx, x), shape(ctx, ctx.result(o, 0)));
    let dims =
        |name: &str| -> Vec<usize> { ints(ctx, o, name).into_iter().map(|d| d as usize).collect() };
    Some(match ctx.op_name(o) {
        "graph.broadcast" => Desc::broadcast(&from, &to, &dims("dims")),
        "graph.transpose" => Desc::transpose(&from, &dims("perm")),
        "graph.reshape" => Desc::reshape(&from, &to),
        "graph.slice" => Desc::strided_slice(
            &from,
            &ints(ctx, o, "start"),
            &ints(ctx, o, "limit"),
            &ints(ctx, o, "strides"),
        ),
        _ => return None,
    })
}

impl Views {
    /// The views among `ops` whose operand is a group input (of `inputs`)
    /// or another view.
    pub(super) fn of(ctx: &Context, ops: &[Op], inputs: &[Value]) -> Result<Views, Skip> {
        let mut v = Views::default();
        for &o in ops {
            let Some(&x) = ctx.operands(o).first() else {
                continue;
            };
            let Some(base) = v.source(ctx, inputs, x) else {
                continue;
            };
            if let Some(d) = view_desc(ctx, o) {
                let desc = base.desc.compose(&d).map_err(|e| e.to_string())?;
                v.of.insert(
                    ctx.result(o, 0),
                    Source {
                        input: base.input,
                        desc,
                    },
                );
            }
        }
        Ok(v)
    }

    /// Whether `v` is a view.
    pub(super) fn is_view(&self, v: Value) -> bool {
        self.of.contains_key(&v)
    }

    /// How `v` is read: a group input as it is, or a view of one.
    pub(super) fn source(&self, ctx: &Context, inputs: &[Value], v: Value) -> Option<Source> {
        if inputs.contains(&v) {
            return Some(Source {
                input: v,
                desc: Desc::row_major(&shape(ctx, v)),
            });
        }
        self.of.get(&v).cloned()
    }
}
