//! Bitwise operations in symbolic evaluation. Exact and linear where the
//! operation is (a constant shift, a mask `2^k - 1`, a wrapping `<<` by a
//! constant): the result with a helper symbol and bounds, as conversions
//! are; otherwise an abstraction symbol (`AlphaDef::Bit`) bounded by the
//! result's static range, refined on models (`refine.rs`). A shift splits
//! on whether it is defined, like a divisor on zero.

use super::*;

/// `l op r`, a comparison a case of a shift needs.
type Bound = (LinExpr, RelOp, LinExpr);

/// A bitwise operation's operands and type, and the static ranges of its
/// left operand and of its result.
pub(super) struct BitCase {
    pub op: BitOp,
    pub ty: IntType,
    pub site: Option<SiteId>,
    pub strict: bool,
    pub left: (i128, i128),
    pub result: (i128, i128),
}

impl Evaluator<'_, '_> {
    pub(super) fn bit(&mut self, c: &BitCase, x: &Value, y: &Value) -> Vec<Outcome<Value>> {
        if let (Some(a), Some(b)) = (x.as_const(), y.as_const()) {
            let result = match c.op.apply(c.ty, a as i128, b as i128, c.strict) {
                Some(v) => Ok(match i64::try_from(v) {
                    Ok(v) => Value::Const(v),
                    Err(_) => Value::sym(self.env.fresh_alpha(self.node, AlphaDef::Opaque)),
                }),
                None => Err(c.site.expect("an undefined operation has a site")),
            };
            return vec![Outcome {
                decisions: vec![],
                constraints: vec![],
                result,
            }];
        }
        let Some(site) = c.site else {
            return vec![self.bit_value(c, x, y)];
        };
        let top = c.ty.bits() as i64 - 1;
        let (xe, ye) = (x.lin(), y.lin());
        let k = |v: i64| LinExpr::constant(v);
        // The cases: defined (0), amount below 0 (-1) or past the width
        // (1), and for a strict `<<` a negative value (2) or one whose high
        // bits would be lost (3).
        let in_range = vec![(ye.clone(), RelOp::Ge, k(0)), (ye.clone(), RelOp::Le, k(top))];
        let mut cases: Vec<(i8, Vec<Bound>)> = vec![
            (-1, vec![(ye.clone(), RelOp::Lt, k(0))]),
            (1, vec![(ye.clone(), RelOp::Gt, k(top))]),
        ];
        let mut ok = in_range.clone();
        if c.strict {
            // The bits of `x` from `top - y` up: zero exactly when `x << y`
            // fits (C99's rule, gcc's -fsanitize=shift).
            let high = match y.as_const() {
                Some(b) if (0..=top).contains(&b) => None,
                _ => {
                    let rest = LinExpr::constant(top).combine(1, &ye, -1);
                    let def = AlphaDef::Bit(BitOp::Shr, c.ty, xe.clone(), rest.unwrap_or(LinExpr::constant(0)));
                    Some(LinExpr::sym(self.env.fresh_alpha(self.node, def)))
                }
            };
            let (fits, lost) = match (&high, y.as_const()) {
                (Some(h), _) => ((h.clone(), RelOp::Le, k(0)), (h.clone(), RelOp::Ge, k(1))),
                (None, Some(b)) => {
                    let max = c.ty.range().1 >> b;
                    ((xe.clone(), RelOp::Le, k(max)), (xe.clone(), RelOp::Gt, k(max)))
                }
                (None, None) => unreachable!("a non-constant amount has a `high` symbol"),
            };
            let mut neg = in_range.clone();
            neg.push((xe.clone(), RelOp::Lt, k(0)));
            cases.push((2, neg));
            let mut big = in_range.clone();
            big.push((xe.clone(), RelOp::Ge, k(0)));
            if let Some(h) = &high {
                big.push((h.clone(), RelOp::Ge, k(0)));
            }
            big.push(lost);
            cases.push((3, big));
            ok.push((xe.clone(), RelOp::Ge, k(0)));
            ok.push(fits);
        }
        cases.insert(0, (0, ok));
        let mut possible = Vec::new();
        for (kind, bounds) in cases {
            let mut cs = Vec::new();
            let mut feasible = true;
            for (l, op, r) in &bounds {
                match Constraint::compare(l, *op, r) {
                    Some(Truth::Known(true)) | None => {}
                    Some(Truth::Known(false)) => feasible = false,
                    Some(Truth::Depends(c)) => cs.push(c),
                }
            }
            if feasible {
                possible.push((kind, cs));
            }
        }
        let split = possible.len() > 1;
        let wanted = self.follow(|d| matches!(d, Decision::Overflow(s, _) if *s == site));
        let mut out = Vec::new();
        for (kind, constraints) in possible {
            if let Some(Some(Decision::Overflow(_, w))) = wanted {
                if w != kind {
                    continue;
                }
            }
            let decisions = if split {
                vec![Decision::Overflow(site, kind)]
            } else {
                vec![]
            };
            if kind != 0 {
                out.push(Outcome {
                    decisions,
                    constraints,
                    result: Err(site),
                });
                continue;
            }
            let mut v = self.bit_value(c, x, y);
            let mut all = decisions;
            all.append(&mut v.decisions);
            let mut cs = constraints;
            cs.append(&mut v.constraints);
            out.push(Outcome {
                decisions: all,
                constraints: cs,
                result: v.result,
            });
        }
        out
    }

    /// The value of a defined `x op y`.
    fn bit_value(&mut self, c: &BitCase, x: &Value, y: &Value) -> Outcome<Value> {
        let (xe, ye) = (x.lin(), y.lin());
        // `z & (2^k - 1)`, `z >> k`: `z = 2^k * q + r` with `0 <= r < 2^k`.
        let split = |ev: &mut Self, z: &LinExpr, k: u32, want_quotient: bool| -> Option<Outcome<Value>> {
            if k == 0 || k > 62 {
                return None;
            }
            let m = 1i64 << k;
            let def = AlphaDef::Bit(c.op, c.ty, xe.clone(), ye.clone());
            let r = LinExpr::sym(ev.env.fresh_alpha(ev.node, def));
            let mut cs = Vec::new();
            let rem = if want_quotient {
                z.combine(1, &r, -m)?
            } else {
                let q = LinExpr::sym(ev.env.fresh_alpha(ev.node, AlphaDef::Quotient));
                cs.push(Constraint::compare(&r, RelOp::Eq, &z.combine(1, &q, -m)?));
                r.clone()
            };
            cs.push(Constraint::compare(&rem, RelOp::Ge, &LinExpr::constant(0)));
            cs.push(Constraint::compare(&rem, RelOp::Le, &LinExpr::constant(m - 1)));
            let constraints = cs
                .into_iter()
                .filter_map(|c| match c {
                    Some(Truth::Depends(c)) => Some(c),
                    _ => None,
                })
                .collect();
            Some(Outcome {
                decisions: vec![],
                constraints,
                result: Ok(Value::from_lin(r)),
            })
        };
        let mask = |v: Option<i64>| {
            v.filter(|m| *m > 0 && (m + 1) & m == 0)
                .map(|m| (m + 1).trailing_zeros())
        };
        let exact = match (c.op, x.as_const(), y.as_const()) {
            (BitOp::And, _, Some(0)) | (BitOp::And, Some(0), _) => Some(Outcome::ok(Value::Const(0))),
            (BitOp::And, _, Some(-1)) | (BitOp::Or | BitOp::Xor, _, Some(0)) => Some(Outcome::ok(x.clone())),
            (BitOp::And, Some(-1), _) | (BitOp::Or | BitOp::Xor, Some(0), _) => Some(Outcome::ok(y.clone())),
            (BitOp::And, _, m) if mask(m).is_some() => split(self, &xe, mask(m).expect("a mask"), false),
            (BitOp::And, m, _) if mask(m).is_some() => split(self, &ye, mask(m).expect("a mask"), false),
            (BitOp::Shr, _, Some(0)) | (BitOp::Shl, _, Some(0)) => Some(Outcome::ok(x.clone())),
            (BitOp::Shr, _, Some(k)) => split(self, &xe, k as u32, true),
            (BitOp::Shl, _, Some(k)) if k < 62 => xe.scale(1 << k).map(|scaled| {
                let (lo, hi) = c.left;
                let arg = (lo.saturating_mul(1 << k), hi.saturating_mul(1 << k));
                self.conv(c.ty, Value::from_lin(scaled), arg)
            }),
            _ => None,
        };
        if let Some(o) = exact {
            return o;
        }
        let r = LinExpr::sym(self.env.fresh_alpha(self.node, AlphaDef::Bit(c.op, c.ty, xe, ye)));
        let (lo, hi) = c.result;
        let constraints = [(RelOp::Ge, lo), (RelOp::Le, hi)]
            .into_iter()
            .filter_map(|(op, b)| i64::try_from(b).ok().map(|b| (op, b)))
            .filter_map(|(op, b)| match Constraint::compare(&r, op, &LinExpr::constant(b)) {
                Some(Truth::Depends(c)) => Some(c),
                _ => None,
            })
            .collect();
        Outcome {
            decisions: vec![],
            constraints,
            result: Ok(Value::from_lin(r)),
        }
    }
}
