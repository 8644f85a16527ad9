//! GSPMD's legacy `mhlo.sharding` strings (what JAX exports without Shardy:
//! `{devices=[2,1]<=[2]}`, `{replicated}`, `{maximal device=0}`, iota tile
//! assignments `<=[2,2]T(1,0)` and `last_tile_dim_replicate`) read as
//! [`Sharding`]s, so `spmd-partition` treats a GSPMD export as a Shardy one.
//!
//! A tile assignment names, for each tile (row-major over the tile
//! dimensions), the device that holds it. Over a mesh of one axis per prime
//! factor of the device count, smallest first ([`mesh_for`]; device `p` is
//! mesh position `p`), an iota assignment `<=[r0, r1, ...]T(perm)` splits
//! each `ri` into consecutive axes, permutes those groups, and hands the
//! axes out to the tile dimensions in order; the last tile dimension's axes
//! are left out under `last_tile_dim_replicate` (the tensor is replicated
//! along them). `{maximal device=N}` (the value on one device) is read as
//! replicated: every device computes the same value, which is what the one
//! device would hold.
//!
//! The strings are HLO's own small grammar, with no crate to read them: a
//! few dozen lines here. Manual and tuple shardings, explicit device lists
//! other than `0..N`, and tiles that do not fall on whole axes are errors
//! that say so.

use super::attrs::{AxisRef, DimSharding, Mesh, MeshRef, Sharding};

/// How tiles are assigned to devices.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TileOrder {
    /// `<=[r0, ...]T(p0, ...)`: `iota(r0 * ...)` reshaped to `r`, then
    /// transposed by `perm`.
    Iota {
        /// The reshape.
        reshape: Vec<i64>,
        /// The transpose (identity when absent).
        perm: Vec<usize>,
    },
    /// An explicit device per tile.
    List(Vec<i64>),
}

/// An `mhlo.sharding` string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HloSharding {
    /// `{replicated}`
    Replicated,
    /// `{maximal device=N}`
    Maximal(i64),
    /// `{devices=[t0, ...]...}`
    Tiled {
        /// Tiles per dimension (and the replication count last, with
        /// `last_tile_dim_replicate`).
        tile: Vec<i64>,
        /// Which device holds each tile.
        order: TileOrder,
        /// Whether the last tile dimension is replication.
        last_replicate: bool,
    },
}

type R<T> = Result<T, String>;

fn ints(s: &str) -> R<Vec<i64>> {
    s.split(',')
        .map(|x| {
            x.trim()
                .parse::<i64>()
                .map_err(|_| format!("{x:?} is not an integer"))
        })
        .collect()
}

/// `[a,b,...]` at the start of `s`: the integers and the rest.
fn bracketed(s: &str) -> R<(Vec<i64>, &str)> {
    let body = s
        .strip_prefix('[')
        .ok_or_else(|| format!("expected '[' at {s:?}"))?;
    let end = body
        .find(']')
        .ok_or_else(|| format!("unclosed '[' at {s:?}"))?;
    Ok((ints(&body[..end])?, &body[end + 1..]))
}

/// Read an `mhlo.sharding` string.
pub fn parse(text: &str) -> R<HloSharding> {
    let t = text.trim();
    let body = t
        .strip_prefix('{')
        .and_then(|b| b.strip_suffix('}'))
        .ok_or("a sharding is written in braces")?
        .trim();
    if body.starts_with('{') {
        return Err("tuple shardings are not supported".into());
    }
    // Metadata (op names, source lines) says nothing of the layout.
    let body = body.split(" metadata=").next().unwrap_or(body).trim();
    if body == "replicated" {
        return Ok(HloSharding::Replicated);
    }
    if let Some(d) = body.strip_prefix("maximal device=") {
        return Ok(HloSharding::Maximal(ints(d)?[0]));
    }
    let Some(rest) = body.strip_prefix("devices=") else {
        return Err(format!(
            "{:?} sharding is not supported",
            body.split_whitespace().next().unwrap_or(body)
        ));
    };
    let (tile, rest) = bracketed(rest)?;
    let (order, rest) = if let Some(r) = rest.strip_prefix("<=") {
        let (reshape, r) = bracketed(r)?;
        let (perm, r) = match r.strip_prefix("T(") {
            Some(p) => {
                let end = p.find(')').ok_or("unclosed 'T('")?;
                let perm = ints(&p[..end])?
                    .into_iter()
                    .map(|x| usize::try_from(x).map_err(|_| format!("transpose index {x}")))
                    .collect::<R<Vec<usize>>>()?;
                (perm, &p[end + 1..])
            }
            None => ((0..reshape.len()).collect(), r),
        };
        let mut sorted = perm.clone();
        sorted.sort_unstable();
        if sorted != (0..reshape.len()).collect::<Vec<_>>() {
            return Err(format!("T{perm:?} is not a permutation of {reshape:?}"));
        }
        (TileOrder::Iota { reshape, perm }, r)
    } else {
        let end = rest.find(' ').unwrap_or(rest.len());
        (TileOrder::List(ints(&rest[..end])?), &rest[end..])
    };
    let last_replicate = match rest.trim() {
        "" => false,
        "last_tile_dim_replicate" | "last_tile_dims={replicated}" => true,
        other => return Err(format!("{other:?} is not supported")),
    };
    Ok(HloSharding::Tiled {
        tile,
        order,
        last_replicate,
    })
}

/// The mesh GSPMD shardings over `devices` devices are read on: one axis
/// `_axis_<k>` per prime factor, smallest first.
pub fn mesh_for(devices: i64) -> Mesh {
    let mut axes = Vec::new();
    let (mut n, mut p) = (devices, 2);
    while n > 1 {
        if p * p > n {
            p = n;
        }
        if n % p == 0 {
            axes.push((format!("_axis_{}", axes.len()), p));
            n /= p;
        } else {
            p += 1;
        }
    }
    Mesh {
        axes,
        device_ids: Vec::new(),
    }
}

/// Take axes from `seq` (from `*at`) whose sizes multiply to `n`.
fn take<'a>(mesh: &'a Mesh, seq: &[usize], at: &mut usize, n: i64) -> R<Vec<&'a str>> {
    let mut out = Vec::new();
    let mut prod = 1;
    while prod < n && *at < seq.len() {
        let (name, size) = &mesh.axes[seq[*at]];
        prod *= size;
        out.push(name.as_str());
        *at += 1;
    }
    if prod != n {
        let sizes: Vec<i64> = mesh.axes.iter().map(|a| a.1).collect();
        return Err(format!(
            "a tile dimension of {n} does not fall on whole axes of the mesh {sizes:?}"
        ));
    }
    Ok(out)
}

/// `h` as the sharding of a tensor of `rank` dimensions on `mesh` (made by
/// [`mesh_for`]), which `mesh_ref` names. Closed: GSPMD's shardings are
/// fixed.
pub fn to_sharding(h: &HloSharding, rank: usize, mesh: &Mesh, mesh_ref: MeshRef) -> R<Sharding> {
    let mut s = Sharding::replicated(mesh_ref, rank);
    let HloSharding::Tiled {
        tile,
        order,
        last_replicate,
    } = h
    else {
        return Ok(s);
    };
    let n = mesh.devices();
    let tiles: i64 = tile.iter().product();
    if tiles != n {
        return Err(format!(
            "a tile assignment of {tiles} devices in a module of {n} partitions"
        ));
    }
    if tile.len() != rank + usize::from(*last_replicate) {
        return Err(format!(
            "{} tile dimensions for a tensor of rank {rank}",
            tile.len()
        ));
    }
    let (reshape, perm) = match order {
        TileOrder::Iota { reshape, perm } => (reshape.clone(), perm.clone()),
        TileOrder::List(l) if l.iter().copied().eq(0..n) => (vec![n], vec![0]),
        TileOrder::List(_) => {
            return Err(format!(
                "an explicit device order other than 0 to {} is not supported",
                n - 1
            ));
        }
    };
    if reshape.iter().product::<i64>() != n {
        return Err(format!("an iota of {reshape:?} for {n} devices"));
    }
    // The mesh axes of each reshape dimension, then in transposed order.
    let all: Vec<usize> = (0..mesh.axes.len()).collect();
    let mut at = 0;
    let mut groups = Vec::new();
    for r in &reshape {
        let start = at;
        take(mesh, &all, &mut at, *r)?;
        groups.push((start..at).collect::<Vec<usize>>());
    }
    let seq: Vec<usize> = perm.iter().flat_map(|p| groups[*p].clone()).collect();
    let mut at = 0;
    for (d, t) in tile.iter().take(rank).enumerate() {
        let axes = take(mesh, &seq, &mut at, *t)?;
        s.dims[d] = DimSharding {
            axes: axes.into_iter().map(AxisRef::axis).collect(),
            open: false,
            priority: None,
        };
    }
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dims(h: &str, rank: usize, n: i64) -> Result<Vec<Vec<String>>, String> {
        let m = mesh_for(n);
        let s = to_sharding(&parse(h)?, rank, &m, MeshRef::Symbol("mesh".into()))?;
        Ok(s.dims
            .iter()
            .map(|d| d.axes.iter().map(|a| a.name.clone()).collect())
            .collect())
    }

    fn v(x: &[&[&str]]) -> Vec<Vec<String>> {
        x.iter()
            .map(|d| d.iter().map(|a| a.to_string()).collect())
            .collect()
    }

    #[test]
    fn meshes_have_one_axis_per_prime_factor() {
        let sizes = |n| mesh_for(n).axes.iter().map(|a| a.1).collect::<Vec<_>>();
        assert_eq!(sizes(8), vec![2, 2, 2]);
        assert_eq!(sizes(12), vec![2, 2, 3]);
        assert_eq!(sizes(7), vec![7]);
        assert_eq!(sizes(1), Vec::<i64>::new());
    }

    #[test]
    fn gspmd_strings_read_as_shardings() {
        assert_eq!(dims("{replicated}", 2, 2).unwrap(), v(&[&[], &[]]));
        assert_eq!(dims("{maximal device=1}", 1, 2).unwrap(), v(&[&[]]));
        assert_eq!(
            dims("{devices=[2,1]<=[2]}", 2, 2).unwrap(),
            v(&[&["_axis_0"], &[]])
        );
        assert_eq!(
            dims("{devices=[4,1]0,1,2,3}", 2, 4).unwrap(),
            v(&[&["_axis_0", "_axis_1"], &[]])
        );
        assert_eq!(
            dims("{devices=[2,2]<=[4]}", 2, 4).unwrap(),
            v(&[&["_axis_0"], &["_axis_1"]])
        );
        // Transposed: tile (i, j) is on device 2j + i.
        assert_eq!(
            dims("{devices=[2,2]<=[2,2]T(1,0)}", 2, 4).unwrap(),
            v(&[&["_axis_1"], &["_axis_0"]])
        );
        // Two tiles along dimension 1, each on two devices.
        assert_eq!(
            dims("{devices=[1,2,2]<=[4] last_tile_dim_replicate}", 2, 4).unwrap(),
            v(&[&[], &["_axis_0"]])
        );
        assert_eq!(
            dims(
                "{devices=[1,2,2]<=[2,2]T(1,0) last_tile_dim_replicate}",
                2,
                4
            )
            .unwrap(),
            v(&[&[], &["_axis_1"]])
        );
        assert_eq!(
            dims("{devices=[2,1]<=[2] metadata={op_name=\"jit(f)/x\"}}", 2, 2).unwrap(),
            v(&[&["_axis_0"], &[]])
        );
    }

    #[test]
    fn unsupported_forms_say_why() {
        let err = |h, rank, n| dims(h, rank, n).unwrap_err();
        assert_eq!(
            err("{manual}", 1, 2),
            "\"manual\" sharding is not supported"
        );
        assert_eq!(
            err("{{replicated}, {replicated}}", 1, 2),
            "tuple shardings are not supported"
        );
        assert_eq!(
            err("{devices=[2,1]1,0}", 2, 2),
            "an explicit device order other than 0 to 1 is not supported"
        );
        assert_eq!(
            err("{devices=[2,1]<=[2]}", 2, 4),
            "a tile assignment of 2 devices in a module of 4 partitions"
        );
        assert_eq!(
            err("{devices=[2,1]<=[2]}", 3, 2),
            "2 tile dimensions for a tensor of rank 3"
        );
        assert_eq!(
            err("{devices=[3,4]<=[12]}", 2, 12),
            "a tile dimension of 3 does not fall on whole axes of the mesh [2, 2, 3]"
        );
        assert_eq!(
            err("{devices=[2,1]<=[2] last_tile_dims={manual}}", 1, 2),
            "\"last_tile_dims={manual}\" is not supported"
        );
        assert!(parse("devices=[2]").is_err());
    }
}
