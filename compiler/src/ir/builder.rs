//! Creating ops at an insertion point: [`Builder`] and the [`Build`] trait typed
//! builders take.

use super::{Block, Context, InsertPoint, Op, OpState, Value};
use crate::attributes::{Attr, Ident};
use crate::types::Type;

/// Whatever creates ops for typed builders (`Handle::build`, see
/// [`op!`](crate::op!)): a [`Builder`], or a pattern rewriter at a point.
pub trait Build {
    /// The IR being built.
    fn context(&self) -> &Context;
    /// The location given to created ops.
    fn location(&self) -> Attr;
    /// Create `st` and insert it where this builder inserts.
    fn insert_state(&mut self, st: OpState) -> Op;
}

impl Build for Builder<'_> {
    fn context(&self) -> &Context {
        self.ctx
    }
    fn location(&self) -> Attr {
        self.loc
    }
    fn insert_state(&mut self, st: OpState) -> Op {
        self.insert(st)
    }
}

/// Creates ops at an insertion point.
pub struct Builder<'a> {
    /// The context being built into.
    pub ctx: &'a mut Context,
    /// Where created ops go.
    pub ip: InsertPoint,
    /// Location given to created ops.
    pub loc: Attr,
}

impl<'a> Builder<'a> {
    /// A builder that appends to the end of `block`.
    pub fn at_end(ctx: &'a mut Context, block: Block) -> Self {
        let loc = ctx.unknown_loc();
        Builder {
            ctx,
            ip: InsertPoint::End(block),
            loc,
        }
    }
    /// A builder that inserts before `op`.
    pub fn before(ctx: &'a mut Context, op: Op) -> Self {
        let loc = ctx.op(op).loc;
        Builder {
            ctx,
            ip: InsertPoint::Before(op),
            loc,
        }
    }
    /// Create and insert an op by name.
    pub fn create(
        &mut self,
        name: &str,
        operands: &[Value],
        result_types: &[Type],
        attrs: &[(&str, Attr)],
    ) -> Op {
        let mut st = OpState::new(self.ctx.ident(name), self.loc);
        st.operands = operands.into();
        st.result_types = result_types.into();
        let mut entries: Vec<(Ident, Attr)> =
            attrs.iter().map(|(k, v)| (self.ctx.ident(k), *v)).collect();
        entries.sort_by(|a, b| self.ctx.str(a.0).cmp(self.ctx.str(b.0)));
        st.attrs = entries.into_iter().collect();
        self.insert(st)
    }
    /// Create and insert an op by name whose attributes are its properties
    /// (inherent attributes, as op specs declare them).
    pub fn create_with_props(
        &mut self,
        name: &str,
        operands: &[Value],
        result_types: &[Type],
        props: &[(&str, Attr)],
    ) -> Op {
        let mut st = OpState::new(self.ctx.ident(name), self.loc);
        st.operands = operands.into();
        st.result_types = result_types.into();
        if !props.is_empty() {
            let u = self.ctx.uniquer().clone();
            st.props = Some(u.dict_attr(props.iter().map(|(k, v)| (u.ident(k), *v)).collect()));
        }
        self.insert(st)
    }
    /// Create and insert an op from a full state.
    pub fn insert(&mut self, st: OpState) -> Op {
        let op = self.ctx.create_op(st);
        self.ctx.insert_op(self.ip, op);
        op
    }
}
