//! Checked shape and size arithmetic: element counts, byte sizes and
//! row-major strides of shapes that come from user IR, where a dimension may
//! be dynamic ([`DYNAMIC`](crate::types::DYNAMIC), `?`) and a product may not
//! fit an `i64`. Every tool and pass that sizes a buffer or walks a shape
//! goes through here, so that such shapes are errors, never panics or
//! wrapped-around sizes.

use crate::Diagnostic;
use crate::ir::{Context, Op, Uniquer};
use crate::types::Type;

/// Why a shape has no size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShapeError {
    /// A dimension is dynamic (`?`) or otherwise negative.
    Dynamic,
    /// The element count (or byte size, or an offset) does not fit an `i64`.
    Overflow,
}

impl ShapeError {
    /// The message for a value of type text `ty` (`tensor<?x4xf32>`) that
    /// `what` (a pass, a tool, an emitter) cannot size.
    pub fn message(self, ty: &str, what: &str) -> String {
        match self {
            ShapeError::Dynamic => {
                format!("dynamic dimensions are not supported yet by {what} ({ty})")
            }
            ShapeError::Overflow => format!("{ty} has more elements than {what} can address"),
        }
    }
}

/// The number of elements of `shape` (1 for rank 0).
pub fn elements(shape: &[i64]) -> Result<i64, ShapeError> {
    shape.iter().try_fold(1i64, |acc, &d| {
        if d < 0 {
            Err(ShapeError::Dynamic)
        } else {
            acc.checked_mul(d).ok_or(ShapeError::Overflow)
        }
    })
}

/// The bytes of `shape`'s elements of `elem_bytes` bytes each, as an `i64`
/// (so that every byte offset into it fits one too).
pub fn bytes(shape: &[i64], elem_bytes: u64) -> Result<i64, ShapeError> {
    let n = elements(shape)?;
    let e = i64::try_from(elem_bytes).map_err(|_| ShapeError::Overflow)?;
    n.checked_mul(e).ok_or(ShapeError::Overflow)
}

/// The row-major (C order) strides of `shape`, in elements.
pub fn strides(shape: &[i64]) -> Result<Vec<i64>, ShapeError> {
    // Checking the whole count first bounds every suffix product.
    elements(shape)?;
    let mut out = vec![1i64; shape.len()];
    for i in (0..shape.len().saturating_sub(1)).rev() {
        // Bounded by the count unless a zero dim makes the count 0: checked.
        out[i] = out[i + 1]
            .checked_mul(shape[i + 1])
            .ok_or(ShapeError::Overflow)?;
    }
    Ok(out)
}

/// `a * b`, or [`ShapeError::Overflow`].
pub fn mul(a: i64, b: i64) -> Result<i64, ShapeError> {
    a.checked_mul(b).ok_or(ShapeError::Overflow)
}

/// `a + b`, or [`ShapeError::Overflow`].
pub fn add(a: i64, b: i64) -> Result<i64, ShapeError> {
    a.checked_add(b).ok_or(ShapeError::Overflow)
}

/// The element count of shaped type `ty` (1 for a type without a shape),
/// with [`ShapeError::message`]'s error naming the type and `what`.
pub fn type_elements(u: &Uniquer, ty: Type, what: &str) -> Result<i64, String> {
    match u.type_kind(ty).shape() {
        None => Ok(1),
        Some(s) => elements(s).map_err(|e| e.message(&crate::printer::type_text(u, ty), what)),
    }
}

/// Checks that shaped type `ty` is static and its element count fits an
/// `i64` (types without a shape pass).
pub fn check_type(u: &Uniquer, ty: Type, what: &str) -> Result<(), String> {
    type_elements(u, ty, what).map(|_| ())
}

/// Checks every value `root` and the ops nested in it define (results and
/// block arguments) with [`check_type`]; the error is at the first
/// offending value (a block argument's own location where it has one, else
/// its op's).
pub fn check_values(ctx: &Context, root: Op, what: &str) -> Result<(), Diagnostic> {
    let mut first = None;
    ctx.walk(root, crate::ir::WalkOrder::PreOrder, &mut |_, o| {
        if first.is_some() {
            return;
        }
        let args = ctx
            .regions(o)
            .iter()
            .flat_map(|r| ctx.region_blocks(*r))
            .flat_map(|b| ctx.block_args(b).iter().copied());
        for v in ctx.results(o).chain(args) {
            if let Err(e) = check_type(ctx.uniquer(), ctx.value_type(v), what) {
                let loc = ctx.value(v).loc.unwrap_or(ctx.op(o).loc);
                first = Some(Diagnostic::error(e).at_loc(loc));
                return;
            }
        }
    });
    first.map_or(Ok(()), Err)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::DYNAMIC;

    #[test]
    fn counts_bytes_and_strides() {
        assert_eq!(elements(&[]), Ok(1));
        assert_eq!(elements(&[2, 3, 4]), Ok(24));
        assert_eq!(elements(&[0, i64::MAX]), Ok(0));
        assert_eq!(bytes(&[2, 3], 4), Ok(24));
        assert_eq!(strides(&[2, 3, 4]), Ok(vec![12, 4, 1]));
        assert_eq!(strides(&[]), Ok(vec![]));
        assert_eq!(strides(&[5]), Ok(vec![1]));
    }

    #[test]
    fn dynamic_and_overflowing_shapes_are_errors() {
        assert_eq!(elements(&[DYNAMIC, 4]), Err(ShapeError::Dynamic));
        assert_eq!(elements(&[4, -1]), Err(ShapeError::Dynamic));
        // DYNAMIC is i64::MIN: a plain product of it wraps or panics.
        assert_eq!(elements(&[0, DYNAMIC]), Err(ShapeError::Dynamic));
        let big = 99_999_999_999;
        assert_eq!(elements(&[big, big]), Err(ShapeError::Overflow));
        assert_eq!(bytes(&[1 << 62], 4), Err(ShapeError::Overflow));
        assert_eq!(bytes(&[1], u64::MAX), Err(ShapeError::Overflow));
        assert_eq!(strides(&[big, big]), Err(ShapeError::Overflow));
        assert_eq!(strides(&[2, DYNAMIC]), Err(ShapeError::Dynamic));
        assert_eq!(mul(i64::MAX, 2), Err(ShapeError::Overflow));
        assert_eq!(add(i64::MAX, 1), Err(ShapeError::Overflow));
        let m = ShapeError::Dynamic.message("tensor<?x4xf32>", "fusion-to-tile");
        assert!(m.starts_with("dynamic dimensions are not supported yet by fusion-to-tile"));
        let m = ShapeError::Overflow.message("tensor<99999999999x99999999999xf32>", "aic-run");
        assert!(
            m.contains("has more elements than aic-run can address"),
            "{m}"
        );
    }
}
