//! The integer constant expression of `#if` and `#elif` (C11 6.10.1):
//! evaluated in `intmax_t`/`uintmax_t` (64 bits), after `defined` and
//! macros are replaced; a name left is 0.

use super::super::lexer::{TokKind, Token};
use crate::syntax::source::Span;

/// A value with its signedness (`uintmax_t` when unsigned).
#[derive(Clone, Copy, Debug)]
struct Val {
    v: i128,
    unsigned: bool,
}

impl Val {
    fn new(v: i128, unsigned: bool) -> Val {
        let v = if unsigned { v as u64 as i128 } else { v as i64 as i128 };
        Val { v, unsigned }
    }

    fn truth(self) -> bool {
        self.v != 0
    }
}

/// Evaluates the tokens of a condition; `Err` with a message and where.
pub fn evaluate(toks: &[Token], at: Span) -> Result<bool, (String, Span)> {
    let mut p = Cond { toks, i: 0, at };
    let v = p.ternary()?;
    if let Some(t) = toks.get(p.i) {
        return Err((format!("unexpected {} in `#if`", t.describe()), t.span));
    }
    Ok(v.truth())
}

struct Cond<'t> {
    toks: &'t [Token],
    i: usize,
    at: Span,
}

/// Binary operators by precedence level, loosest first.
const LEVELS: &[&[&str]] = &[
    &["||"],
    &["&&"],
    &["|"],
    &["^"],
    &["&"],
    &["==", "!="],
    &["<", ">", "<=", ">="],
    &["<<", ">>"],
    &["+", "-"],
    &["*", "/", "%"],
];

impl Cond<'_> {
    fn peek_punct(&self) -> Option<&'static str> {
        match self.toks.get(self.i).map(|t| &t.kind) {
            Some(TokKind::Punct(p)) => Some(p),
            _ => None,
        }
    }

    fn span(&self) -> Span {
        self.toks.get(self.i).map_or(self.at, |t| t.span)
    }

    fn expect(&mut self, p: &str) -> Result<(), (String, Span)> {
        if self.peek_punct() == Some(p) {
            self.i += 1;
            Ok(())
        } else {
            Err((format!("expected `{p}` in `#if`"), self.span()))
        }
    }

    fn ternary(&mut self) -> Result<Val, (String, Span)> {
        let c = self.binary(0)?;
        if self.peek_punct() != Some("?") {
            return Ok(c);
        }
        self.i += 1;
        let a = self.ternary()?;
        self.expect(":")?;
        let b = self.ternary()?;
        let unsigned = a.unsigned || b.unsigned;
        Ok(Val::new(if c.truth() { a.v } else { b.v }, unsigned))
    }

    fn binary(&mut self, level: usize) -> Result<Val, (String, Span)> {
        if level == LEVELS.len() {
            return self.unary();
        }
        let mut l = self.binary(level + 1)?;
        while let Some(op) = self.peek_punct().filter(|p| LEVELS[level].contains(p)) {
            let at = self.span();
            self.i += 1;
            let r = self.binary(level + 1)?;
            l = apply(op, l, r).ok_or_else(|| ("division by zero in `#if`".to_string(), at))?;
        }
        Ok(l)
    }

    fn unary(&mut self) -> Result<Val, (String, Span)> {
        let Some(t) = self.toks.get(self.i) else {
            return Err(("expected a value in `#if`".into(), self.at));
        };
        self.i += 1;
        match &t.kind {
            TokKind::Int { value, ty } => Ok(Val::new(*value, !ty.is_signed())),
            TokKind::Char(c) => Ok(Val::new(*c as i128, false)),
            // A name no macro replaced is 0 (C11 6.10.1p4).
            TokKind::Ident(_) => Ok(Val::new(0, false)),
            TokKind::Punct("(") => {
                let v = self.ternary()?;
                self.expect(")")?;
                Ok(v)
            }
            TokKind::Punct(op @ ("-" | "+" | "~" | "!")) => {
                let v = self.unary()?;
                Ok(match *op {
                    "-" => Val::new(v.v.wrapping_neg(), v.unsigned),
                    "+" => v,
                    "~" => Val::new(!v.v, v.unsigned),
                    _ => Val::new(i128::from(!v.truth()), false),
                })
            }
            _ => Err((format!("unexpected {} in `#if`", t.describe()), t.span)),
        }
    }
}

/// `l << r` or `l >> r` as gcc's preprocessor computes them: a negative
/// count shifts the other way, a count of 64 or more leaves 0 (or -1 for a
/// negative signed value shifted right).
fn shift(left: bool, l: Val, r: Val) -> Val {
    let count = if r.unsigned { r.v as u64 as i128 } else { r.v };
    let (left, n) = if count < 0 { (!left, -count) } else { (left, count) };
    let a = if l.unsigned { l.v as u64 as i128 } else { l.v };
    let v = match (left, n >= 64) {
        (true, true) => 0,
        (true, false) => a << n,
        (false, true) => -i128::from(a < 0),
        (false, false) => a >> n,
    };
    Val::new(v, l.unsigned)
}

/// A binary operator with C's usual conversions on `intmax_t`; `None`
/// for a division by zero.
fn apply(op: &str, l: Val, r: Val) -> Option<Val> {
    let unsigned = l.unsigned || r.unsigned;
    let (a, b) = if unsigned {
        (l.v as u64 as i128, r.v as u64 as i128)
    } else {
        (l.v, r.v)
    };
    let bool_val = |c: bool| Val::new(i128::from(c), false);
    Some(match op {
        "||" => bool_val(l.truth() || r.truth()),
        "&&" => bool_val(l.truth() && r.truth()),
        "|" => Val::new(a | b, unsigned),
        "^" => Val::new(a ^ b, unsigned),
        "&" => Val::new(a & b, unsigned),
        "==" => bool_val(a == b),
        "!=" => bool_val(a != b),
        "<" => bool_val(a < b),
        ">" => bool_val(a > b),
        "<=" => bool_val(a <= b),
        ">=" => bool_val(a >= b),
        "<<" | ">>" => shift(op == "<<", l, r),
        "+" => Val::new(a.wrapping_add(b), unsigned),
        "-" => Val::new(a.wrapping_sub(b), unsigned),
        "*" => Val::new(a.wrapping_mul(b), unsigned),
        "/" if b == 0 => return None,
        "%" if b == 0 => return None,
        "/" => Val::new(a / b, unsigned),
        "%" => Val::new(a % b, unsigned),
        _ => return None,
    })
}
