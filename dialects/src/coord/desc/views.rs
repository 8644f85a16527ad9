//! Views as descriptors: the transpose, slice, broadcast, reshape and
//! concatenation views the fusion lowering composes, and a convolution's
//! implicit-GEMM operands.

use super::{Desc, Step, Transform};

/// A 2-d convolution's geometry, for its implicit-GEMM descriptors.
#[derive(Clone, Debug)]
pub struct Conv {
    /// NCHW input and OIHW filter (else NHWC and HWIO).
    pub nchw: bool,
    /// The input shape in its layout.
    pub input: [i64; 4],
    /// Filter height and width.
    pub filter: [i64; 2],
    /// Output channels.
    pub out_channels: i64,
    /// Row and column strides.
    pub strides: [i64; 2],
    /// Row and column dilations.
    pub dilations: [i64; 2],
    /// Padding: top, bottom, left, right.
    pub pads: [i64; 4],
    /// Channel groups.
    pub groups: i64,
}

impl Conv {
    /// The input shape as `[n, h, w, c]`.
    pub fn nhwc(&self) -> [i64; 4] {
        let x = self.input;
        if self.nchw {
            [x[0], x[2], x[3], x[1]]
        } else {
            x
        }
    }

    /// The output height and width.
    pub fn out(&self) -> [i64; 2] {
        let [_, h, w, _] = self.nhwc();
        let o = |len: i64, k: i64, s: i64, d: i64, lo: i64, hi: i64| {
            let (padded, span) = (len + lo + hi, d * (k - 1) + 1);
            if padded < span {
                0
            } else {
                (padded - span) / s + 1
            }
        };
        [
            o(
                h,
                self.filter[0],
                self.strides[0],
                self.dilations[0],
                self.pads[0],
                self.pads[1],
            ),
            o(
                w,
                self.filter[1],
                self.strides[1],
                self.dilations[1],
                self.pads[2],
                self.pads[3],
            ),
        ]
    }
}

fn step(t: Transform, upper: &[usize], lower: &[usize]) -> Step {
    Step {
        t,
        upper: upper.to_vec(),
        lower: lower.to_vec(),
    }
}

fn embed(len: i64, strides: &[i64], offset: i64) -> Transform {
    Transform::Embed {
        len,
        strides: strides.to_vec(),
        offset,
    }
}

impl Desc {
    /// The transpose view: upper dim `i` is lower dim `perm[i]` (as
    /// `graph.transpose` with `perm`, seen from its result).
    pub fn transpose(lower: &[i64], perm: &[usize]) -> Desc {
        Desc {
            upper: perm.iter().map(|p| lower[*p]).collect(),
            stages: vec![
                perm.iter()
                    .enumerate()
                    .map(|(i, p)| Step {
                        t: Transform::Pass,
                        upper: vec![i],
                        lower: vec![*p],
                    })
                    .collect(),
            ],
        }
    }

    /// The window `[begin, begin + len)` of each dim of a tensor of `lower`.
    pub fn slice(lower: &[i64], begin: &[i64], len: &[i64]) -> Desc {
        Desc {
            upper: len.to_vec(),
            stages: vec![
                (0..lower.len())
                    .map(|i| Step {
                        t: Transform::Slice {
                            begin: begin[i],
                            len: lower[i],
                        },
                        upper: vec![i],
                        lower: vec![i],
                    })
                    .collect(),
            ],
        }
    }

    /// A tensor of `lower` broadcast to `upper`, lower dim `i` being upper
    /// dim `dims[i]` (as `graph.broadcast`); the other upper dims repeat.
    pub fn broadcast(lower: &[i64], upper: &[i64], dims: &[usize]) -> Desc {
        let steps = (0..upper.len())
            .map(|u| match dims.iter().position(|d| *d == u) {
                // A size-1 dim stretched is a broadcast of it plus a frozen 0.
                Some(i) if lower[i] == upper[u] => Step {
                    t: Transform::Pass,
                    upper: vec![u],
                    lower: vec![i],
                },
                _ => Step {
                    t: Transform::Broadcast,
                    upper: vec![u],
                    lower: vec![],
                },
            })
            .chain(
                dims.iter()
                    .enumerate()
                    .filter(|(i, d)| lower[*i] != upper[**d])
                    .map(|(i, _)| Step {
                        t: Transform::Freeze { value: 0, len: 1 },
                        upper: vec![],
                        lower: vec![i],
                    }),
            )
            .collect();
        Desc {
            upper: upper.to_vec(),
            stages: vec![steps],
        }
    }

    /// A strided slice (as `graph.slice`): upper index `u` of dim `i` reads
    /// `start[i] + u * strides[i]` of a tensor of `lower`.
    pub fn strided_slice(lower: &[i64], start: &[i64], limit: &[i64], strides: &[i64]) -> Desc {
        let upper: Vec<i64> = (0..lower.len())
            .map(|i| (limit[i] - start[i] + strides[i] - 1) / strides[i])
            .collect();
        Desc {
            upper,
            stages: vec![
                (0..lower.len())
                    .map(|i| Step {
                        t: Transform::Embed {
                            len: lower[i],
                            strides: vec![strides[i]],
                            offset: start[i],
                        },
                        upper: vec![i],
                        lower: vec![i],
                    })
                    .collect(),
            ],
        }
    }

    /// One input of a concatenation along `axis`, seen from the result of
    /// length `total` there: valid where the input lies (from `before`),
    /// padding elsewhere, so a kernel reads each input through its own view.
    pub fn concat_part(part: &[i64], axis: usize, before: i64, total: i64) -> Desc {
        let mut upper = part.to_vec();
        upper[axis] = total;
        Desc {
            upper,
            stages: vec![
                (0..part.len())
                    .map(|i| Step {
                        t: if i == axis {
                            Transform::Pad {
                                lo: before,
                                hi: total - before - part[i],
                            }
                        } else {
                            Transform::Pass
                        },
                        upper: vec![i],
                        lower: vec![i],
                    })
                    .collect(),
            ],
        }
    }

    /// A tensor of `lower` read as `upper` (same element count, row-major).
    pub fn reshape(lower: &[i64], upper: &[i64]) -> Desc {
        // A scalar side has no dims to unmerge or merge: its one element
        // is the frozen index 0, or a dropped dim of length 1.
        let linear = if upper.is_empty() {
            Step {
                t: Transform::Freeze { value: 0, len: 1 },
                upper: vec![],
                lower: vec![0],
            }
        } else {
            Step {
                t: Transform::Unmerge,
                upper: (0..upper.len()).collect(),
                lower: vec![0],
            }
        };
        let split = if lower.is_empty() {
            Step {
                t: Transform::Broadcast,
                upper: vec![0],
                lower: vec![],
            }
        } else {
            Step {
                t: Transform::Merge {
                    lens: lower.to_vec(),
                },
                upper: vec![0],
                lower: (0..lower.len()).collect(),
            }
        };
        Desc {
            upper: upper.to_vec(),
            stages: vec![vec![linear], vec![split]],
        }
    }

    /// The A matrix of group `g` of a 2-d convolution as an implicit GEMM
    /// over its input buffer (no im2col): rows are output pixels `(n, ho,
    /// wo)`, columns filter taps `(kh, kw, c)` of the group's channels;
    /// padding reads as invalid (zero).
    pub fn conv_a(conv: &Conv, g: i64) -> Desc {
        let v = Desc::conv_a_view(conv, g);
        let shape = v.lower().expect("lengths agree by construction");
        v.compose_onto(&Desc::row_major(&shape))
    }

    /// [`Desc::conv_a`] as a view of the input's logical 4-d index (not
    /// yet its buffer), for inputs computed on the fly.
    pub fn conv_a_view(conv: &Conv, g: i64) -> Desc {
        Desc::pick_group(&Desc::conv_views(conv)[0], g)
    }

    /// The convolution's A, B and C as views over every group at once,
    /// each with a leading group index: `[G, M, K]` over the input, `[G, K,
    /// N]` over the filter, `[G, M, N]` over the output (a batched implicit
    /// GEMM; group `g`'s channels are `g * C/G ..`).
    pub fn conv_views(conv: &Conv) -> [Desc; 3] {
        let [n, h, w, c] = conv.nhwc();
        let [kh, kw] = conv.filter;
        let [ho, wo] = conv.out();
        let groups = conv.groups;
        let (cg, kg) = (c / groups, conv.out_channels / groups);
        let [ph, pw] = [
            h + conv.pads[0] + conv.pads[1],
            w + conv.pads[2] + conv.pads[3],
        ];
        // Lower dims in the buffer's order.
        let (dn, dh, dw, dc) = if conv.nchw {
            (0, 2, 3, 1)
        } else {
            (0, 1, 2, 3)
        };
        let a = Desc {
            upper: vec![groups, n * ho * wo, kh * kw * cg],
            stages: vec![
                // [g, m, k] -> [n, ho, wo, kh, kw, c, g]
                vec![
                    step(
                        Transform::Merge {
                            lens: vec![n, ho, wo],
                        },
                        &[1],
                        &[0, 1, 2],
                    ),
                    step(
                        Transform::Merge {
                            lens: vec![kh, kw, cg],
                        },
                        &[2],
                        &[3, 4, 5],
                    ),
                    step(Transform::Pass, &[0], &[6]),
                ],
                // -> [n, padded row, padded column, channel]
                vec![
                    step(Transform::Pass, &[0], &[0]),
                    step(
                        embed(ph, &[conv.strides[0], conv.dilations[0]], 0),
                        &[1, 3],
                        &[1],
                    ),
                    step(
                        embed(pw, &[conv.strides[1], conv.dilations[1]], 0),
                        &[2, 4],
                        &[2],
                    ),
                    step(embed(c, &[cg, 1], 0), &[6, 5], &[3]),
                ],
                // -> the buffer's dims
                vec![
                    step(Transform::Pass, &[0], &[dn]),
                    step(
                        Transform::Pad {
                            lo: conv.pads[0],
                            hi: conv.pads[1],
                        },
                        &[1],
                        &[dh],
                    ),
                    step(
                        Transform::Pad {
                            lo: conv.pads[2],
                            hi: conv.pads[3],
                        },
                        &[2],
                        &[dw],
                    ),
                    step(Transform::Pass, &[3], &[dc]),
                ],
            ],
        };
        let b_dims = if conv.nchw {
            [2, 3, 1, 0]
        } else {
            [0, 1, 2, 3]
        };
        let c_dims = if conv.nchw {
            [0, 2, 3, 1]
        } else {
            [0, 1, 2, 3]
        };
        [
            a,
            Desc::channel_view([kh, kw, cg], b_dims, conv.out_channels, kg),
            Desc::channel_view([n, ho, wo], c_dims, conv.out_channels, kg),
        ]
    }

    /// Group `g`'s slice `[M, K]` of a view `[G, M, K]` (the group index
    /// frozen; simplification folds it into offsets).
    fn pick_group(grouped: &Desc, g: i64) -> Desc {
        let top = Desc {
            upper: grouped.upper[1..].to_vec(),
            stages: vec![vec![
                step(
                    Transform::Freeze {
                        value: g,
                        len: grouped.upper[0],
                    },
                    &[],
                    &[0],
                ),
                step(Transform::Pass, &[0], &[1]),
                step(Transform::Pass, &[1], &[2]),
            ]],
        };
        grouped
            .compose(&top)
            .expect("lengths agree by construction")
            .simplify()
    }

    /// The B matrix of group `g`: rows filter taps `(kh, kw, c)`, columns
    /// the group's output channels, over the filter buffer (HWIO for NHWC,
    /// OIHW for NCHW).
    pub fn conv_b(conv: &Conv, g: i64) -> Desc {
        let v = Desc::conv_b_view(conv, g);
        let shape = v.lower().expect("lengths agree by construction");
        v.compose_onto(&Desc::row_major(&shape))
    }

    /// [`Desc::conv_b`] as a view of the filter's logical 4-d index.
    pub fn conv_b_view(conv: &Conv, g: i64) -> Desc {
        Desc::pick_group(&Desc::conv_views(conv)[1], g)
    }

    /// The C matrix of group `g`: rows output pixels, columns the group's
    /// output channels, over the output buffer.
    pub fn conv_c(conv: &Conv, g: i64) -> Desc {
        let v = Desc::conv_c_view(conv, g);
        let shape = v.lower().expect("lengths agree by construction");
        v.compose_onto(&Desc::row_major(&shape))
    }

    /// The C matrix of group `g` as a view of the output's logical 4-d
    /// index (not yet its buffer): what epilogue operands of the output's
    /// shape compose with.
    pub fn conv_c_view(conv: &Conv, g: i64) -> Desc {
        Desc::pick_group(&Desc::conv_views(conv)[2], g)
    }

    /// A matrix over a 4-d tensor whose rows merge three of its dims (of
    /// lengths `rows`, at dims `dims[..3]`) and whose `kg` columns are
    /// channels `first..first + kg` of its channel dim `dims[3]` (of
    /// `channels`): the convolution's B and C, as views.
    fn channel_view(rows: [i64; 3], dims: [usize; 4], channels: i64, kg: i64) -> Desc {
        Desc {
            upper: vec![channels / kg, rows.iter().product(), kg],
            stages: vec![vec![
                step(
                    Transform::Merge {
                        lens: rows.to_vec(),
                    },
                    &[1],
                    &dims[..3],
                ),
                step(embed(channels, &[kg, 1], 0), &[0, 2], &[dims[3]]),
            ]],
        }
    }

    /// `self` on top of `bottom` (see [`Desc::compose`]), for builders whose
    /// lengths are right by construction.
    fn compose_onto(self, bottom: &Desc) -> Desc {
        bottom
            .compose(&self)
            .expect("lengths agree by construction")
    }
}
