//! Formulas in the program's words: the model's variables by their source
//! names, each comparison in one canonical form (so that an answers file
//! can key a question by its text), literals in a fixed order.

use super::abduce::{op, var_index};
use std::collections::BTreeMap;
use z3::ast::{Ast, Bool, Dynamic};

/// How variables are shown.
pub trait Names {
    /// The name of model variable `v`.
    fn name(&self, v: usize) -> String;
    /// The variable shown as `name` holds a truth value (0 or 1): `v == 0`
    /// reads `!v`.
    fn boolean(&self, name: &str) -> bool;
    /// An abstraction defined by an operation: its definition.
    fn definition(&self, v: usize) -> Option<Dynamic>;
}

/// A literal or a conjunction/disjunction of literals, as text.
pub fn show(b: &Bool, names: &dyn Names) -> String {
    match op(b).as_str() {
        "and" | "or" if b.num_children() > 1 => {
            let sep = if op(b) == "and" { " && " } else { " || " };
            let mut parts: Vec<String> = b
                .children()
                .iter()
                .map(|k| {
                    let s = k.as_bool().map(|k| show(&k, names)).unwrap_or_else(|| "?".into());
                    if s.contains(" && ") || s.contains(" || ") {
                        format!("({s})")
                    } else {
                        s
                    }
                })
                .collect();
            parts.sort_by_key(|s| sort_key(s));
            parts.dedup();
            parts.join(sep)
        }
        // `(and x)`, as a conjunction of one query part is: `x`.
        "and" | "or" if b.num_children() == 1 => match b.children()[0].as_bool() {
            Some(k) => show(&k, names),
            None => literal(b, names),
        },
        _ => literal(b, names),
    }
}

fn sort_key(s: &str) -> String {
    s.trim_start_matches(['!', '(']).to_string()
}

/// A linear combination of terms (keyed by their text) and a constant.
#[derive(Default)]
struct Lin {
    terms: BTreeMap<String, i128>,
    konst: i128,
}

impl Lin {
    fn add(&mut self, other: Lin, k: i128) {
        for (t, c) in other.terms {
            *self.terms.entry(t).or_insert(0) += c * k;
        }
        self.konst += other.konst * k;
        self.terms.retain(|_, c| *c != 0);
    }
}

/// Reads an integer term as a linear combination; other subterms are
/// opaque terms shown by `term`.
fn lin(e: &Dynamic, names: &dyn Names) -> Lin {
    let mut out = Lin::default();
    if let Some(i) = e.as_int() {
        if let Some(c) = i.as_i64() {
            out.konst = c as i128;
            return out;
        }
    }
    if e.is_app() {
        let kids = e.children();
        match op(e).as_str() {
            "+" => {
                for k in &kids {
                    out.add(lin(k, names), 1);
                }
                return out;
            }
            "-" if kids.len() == 2 => {
                out.add(lin(&kids[0], names), 1);
                out.add(lin(&kids[1], names), -1);
                return out;
            }
            "-" if kids.len() == 1 => {
                out.add(lin(&kids[0], names), -1);
                return out;
            }
            "*" => {
                let consts: Vec<i128> = kids
                    .iter()
                    .filter_map(|k| k.as_int().and_then(|i| i.as_i64()).map(|c| c as i128))
                    .collect();
                let others: Vec<&Dynamic> = kids
                    .iter()
                    .filter(|k| k.as_int().and_then(|i| i.as_i64()).is_none())
                    .collect();
                if others.len() <= 1 {
                    let k: i128 = consts.iter().product();
                    match others.first() {
                        Some(o) => out.add(lin(o, names), k),
                        None => out.konst = k,
                    }
                    return out;
                }
            }
            _ => {}
        }
    }
    out.terms.insert(term(e, names), 1);
    out
}

/// A term that is not a sum: a variable, or an operation shown in C-like
/// syntax (`div` and `mod` are Z3's, rounding down).
fn term(e: &Dynamic, names: &dyn Names) -> String {
    if let Some(v) = var_index(e, usize::MAX) {
        if let Some(def) = names.definition(v) {
            return format!("({})", term(&def, names));
        }
        return names.name(v);
    }
    if !e.is_app() {
        return format!("{e}");
    }
    let kids = e.children();
    let sum = |d: &Dynamic| show_sum(&lin(d, names));
    let wrap = |d: &Dynamic| {
        let s = sum(d);
        if s.contains(' ') {
            format!("({s})")
        } else {
            s
        }
    };
    match (op(e).as_str(), kids.len()) {
        ("*", _) => kids.iter().map(wrap).collect::<Vec<_>>().join(" * "),
        ("div", 2) => format!("{} div {}", wrap(&kids[0]), wrap(&kids[1])),
        ("mod", 2) => format!("{} mod {}", wrap(&kids[0]), wrap(&kids[1])),
        ("rem", 2) => format!("{} rem {}", wrap(&kids[0]), wrap(&kids[1])),
        // Z3 names the operator `if` (it prints `ite`).
        ("ite" | "if", 3) => format!(
            "({} ? {} : {})",
            kids[0].as_bool().map(|c| show(&c, names)).unwrap_or_default(),
            sum(&kids[1]),
            sum(&kids[2])
        ),
        _ => format!("{e}"),
    }
}

/// `a + 2*b - c + 3`.
fn show_sum(l: &Lin) -> String {
    let mut out = String::new();
    for (t, &c) in &l.terms {
        let mag = c.abs();
        let body = if mag == 1 { t.clone() } else { format!("{mag}*{t}") };
        if out.is_empty() {
            out = if c < 0 { format!("-{body}") } else { body };
        } else {
            out.push_str(if c < 0 { " - " } else { " + " });
            out.push_str(&body);
        }
    }
    if out.is_empty() {
        return l.konst.to_string();
    }
    if l.konst != 0 {
        out.push_str(if l.konst < 0 { " - " } else { " + " });
        out.push_str(&l.konst.abs().to_string());
    }
    out
}

fn gcd(a: i128, b: i128) -> i128 {
    if b == 0 {
        a.abs()
    } else {
        gcd(b, a % b)
    }
}

/// One comparison in canonical form; other literals as Z3 prints them.
fn literal(b: &Bool, names: &dyn Names) -> String {
    let kind = op(b);
    let kind = kind.as_str();
    if kind == "true" {
        return "true".into();
    }
    if kind == "false" {
        return "false".into();
    }
    let kids = b.children();
    if kind == "not" && kids.len() == 1 {
        if let Some(inner) = kids[0].as_bool() {
            if op(&inner) == "=" {
                return comparison(&inner, Rel::Ne, names).unwrap_or_else(|| format!("!({})", literal(&inner, names)));
            }
            return format!("!({})", show(&inner, names));
        }
    }
    let rel = match kind {
        "<=" => Rel::Le,
        "<" => Rel::Lt,
        ">=" => Rel::Ge,
        ">" => Rel::Gt,
        "=" => Rel::Eq,
        _ => return format!("{b}"),
    };
    comparison(b, rel, names).unwrap_or_else(|| format!("{b}"))
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Rel {
    Le,
    Lt,
    Ge,
    Gt,
    Eq,
    Ne,
}

/// `lhs rel rhs` as `P op Q`: every variable once, positive coefficients,
/// the first term on the left, the constant on the right, and of `<= k`
/// and `< k + 1` the one with the smaller constant.
fn comparison(b: &Bool, rel: Rel, names: &dyn Names) -> Option<String> {
    let kids = b.children();
    if kids.len() != 2 || kids[0].as_int().is_none() {
        return None;
    }
    // e = lhs - rhs, compared with 0.
    let mut e = lin(&kids[0], names);
    e.add(lin(&kids[1], names), -1);
    // Integers: e < 0 is e + 1 <= 0; e > 0 is e - 1 >= 0.
    let mut rel = rel;
    match rel {
        Rel::Lt => {
            e.konst += 1;
            rel = Rel::Le;
        }
        Rel::Gt => {
            e.konst -= 1;
            rel = Rel::Ge;
        }
        _ => {}
    }
    if e.terms.is_empty() {
        let c = e.konst;
        let holds = match rel {
            Rel::Le => c <= 0,
            Rel::Ge => c >= 0,
            Rel::Eq => c == 0,
            _ => c != 0,
        };
        return Some(holds.to_string());
    }
    // The first term leads with a positive coefficient.
    let lead = *e.terms.values().next().expect("a term");
    if lead < 0 {
        for c in e.terms.values_mut() {
            *c = -*c;
        }
        e.konst = -e.konst;
        rel = match rel {
            Rel::Le => Rel::Ge,
            Rel::Ge => Rel::Le,
            r => r,
        };
    }
    // Divide by the coefficients' gcd (rounding the constant inward).
    let g = e.terms.values().fold(0, |g, &c| gcd(g, c));
    if g > 1 {
        let k = -e.konst; // terms rel k
        let k2 = match rel {
            Rel::Le => k.div_euclid(g),
            Rel::Ge => -((-k).div_euclid(g)),
            _ if k % g != 0 => return Some((rel == Rel::Ne).to_string()),
            _ => k / g,
        };
        for c in e.terms.values_mut() {
            *c /= g;
        }
        e.konst = -k2;
    }
    // A truth value: `v == 0` is `!v`, `v != 0` and `v == 1` are `v`.
    if e.terms.len() == 1 {
        let (t, &c) = e.terms.iter().next().expect("one term");
        if c == 1 && names.boolean(t) {
            match (rel, -e.konst) {
                (Rel::Eq, 0) | (Rel::Le, 0) => return Some(format!("!{t}")),
                (Rel::Ne, 0) | (Rel::Eq, 1) | (Rel::Ge, 1) => return Some(t.clone()),
                _ => {}
            }
        }
    }
    let mut left = Lin::default();
    let mut right = Lin {
        konst: -e.konst,
        ..Lin::default()
    };
    for (t, c) in e.terms {
        if c > 0 {
            left.terms.insert(t, c);
        } else {
            right.terms.insert(t, -c);
        }
    }
    let (op, right) = match rel {
        Rel::Le | Rel::Ge => {
            // `<= k` or `< k + 1` (`>= k` or `> k - 1`).
            let strict_k = if rel == Rel::Le {
                right.konst + 1
            } else {
                right.konst - 1
            };
            if strict_k.abs() < right.konst.abs() {
                (
                    if rel == Rel::Le { "<" } else { ">" },
                    Lin {
                        konst: strict_k,
                        ..right
                    },
                )
            } else {
                (if rel == Rel::Le { "<=" } else { ">=" }, right)
            }
        }
        Rel::Eq => ("==", right),
        _ => ("!=", right),
    };
    Some(format!("{} {op} {}", show_sum(&left), show_sum(&right)))
}
