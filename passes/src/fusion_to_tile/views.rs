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

/// Whether `o` only renames dims: a reshape or broadcast whose shapes agree
/// once dims of size 1 are dropped (elements stay in row-major order).
pub(super) fn is_unit_reshape(ctx: &Context, o: Op) -> bool {
    if !matches!(ctx.op_name(o), "graph.reshape" | "graph.broadcast") {
        return false;
    }
    let Some(&x) = ctx.operands(o).first() else {
        return false;
    };
    let squeeze = |s: Vec<i64>| -> Vec<i64> { s.into_iter().filter(|d| *d != 1).collect() };
    let (from, to) = (shape(ctx, x), shape(ctx, ctx.result(o, 0)));
    if ctx.op_name(o) == "graph.broadcast" {
        // Only new unit dims, the old ones kept in order.
        let dims = ints(ctx, o, "dims");
        if dims.windows(2).any(|w| w[0] >= w[1]) || from.len() != dims.len() {
            return false;
        }
    }
    squeeze(from) == squeeze(to)
}

/// An operand computed on the fly: a source, an elementwise chain applied
/// to it, and views on top (composed into every descriptor, which all
/// address the operand's own index space): BERT's `reshape(transpose(q +
/// bias))`.
pub(super) struct Operand {
    /// What the chain starts from.
    pub(super) root: Source,
    /// The elementwise ops applied to it.
    pub(super) chain: Chain,
}

/// `v` as an [`Operand`] of the group: views and elementwise ops back to a
/// group input; the ops it takes are added to `taken`.
pub(super) fn operand(
    ctx: &Context,
    v: Value,
    known: (&[Value], &Views),
    taken: &mut Vec<Op>,
) -> Result<Operand, Skip> {
    let (inputs, views) = known;
    if let Some(root) = views.source(ctx, inputs, v) {
        return Ok(Operand {
            root,
            chain: Chain::new(),
        });
    }
    let p = ctx
        .defining_op(v)
        .ok_or_else(|| "an operand that is not computed in the group".to_string())?;
    let name = ctx.op_name(p);
    if let Some(d) = view_desc(ctx, p) {
        let mut o = operand(ctx, ctx.operands(p)[0], known, taken)?;
        let re = |s: &mut Source| -> Result<(), Skip> {
            s.desc = s.desc.compose(&d).map_err(|e| e.to_string())?;
            Ok(())
        };
        re(&mut o.root)?;
        for (_, other) in &mut o.chain {
            if let Some(Other::Read(s)) = other {
                re(s)?;
            }
        }
        taken.push(p);
        return Ok(o);
    }
    if !EPILOGUE.iter().any(|(n, _)| *n == name) {
        return Err(format!("an operand computed by {name}"));
    }
    // The running value is the operand not read from memory as it is.
    let xs = ctx.operands(p).to_vec();
    let run = xs
        .iter()
        .copied()
        .find(|x| views.source(ctx, inputs, *x).is_none())
        .unwrap_or(xs[0]);
    let mut o = operand(ctx, run, known, taken)?;
    let (chain, _, _, used) = read_chain(ctx, &[p], run, known, &shape(ctx, run), false)?;
    if used != 1 {
        return Err(format!("{name} on an operand"));
    }
    o.chain.extend(chain);
    taken.push(p);
    Ok(o)
}
