//! Pointer parameters of the entry procedure (`--entry sum` on
//! `int sum(int *a, int n)`): nothing calls the entry, so what a pointer
//! parameter points to is chosen here, as a test harness would choose it.
//!
//! - It points to the first of `--param-elems` elements of a fresh object
//!   of its pointee type, named `a@entry` in traces, whose elements are
//!   inputs of the run; or it is `NULL`, unless `--valid-params` rules that
//!   out. Its input (the parameter `a` itself) is 0 for `NULL`, anything
//!   else for the object.
//! - The object is a live heap object (the caller may have allocated it):
//!   an access past its elements is a `deref` error, and so is a use after
//!   the entry frees it.
//! - When the entry's contract says the parameter is valid (`requires
//!   \valid(a + (0..n-1))`, `\valid_read`), the contract says what a caller
//!   passes: the object has any number of elements (its size in bytes is
//!   an input the `requires` bounds); the model holds its first
//!   `--param-elems`, and a run that reaches past them is beyond the model
//!   (`limit`), never a verdict.
//! - Two parameters of the same pointee type may point into one object
//!   (`f(&a, &a)`, `f(a, a + 1)`), as nothing but a contract's
//!   `\separated` rules out: for each earlier parameter `p` of its type,
//!   `q` has an input `q@entry::(alias_p)`: 0 for apart, anything else for
//!   `q == p` (when `p` is not `NULL`). Only the same address: `q == p + k`
//!   for `k != 0` (overlapping arrays at different starts) is not modelled.
//! - A pointee with pointers inside (`int **`, a struct with a pointer
//!   field) or of no size (`void *`) is not supported.
//!
//! Every file that has such a parameter gets a note saying which.

use super::expr::*;
use super::*;
use crate::syntax::ast::{Param, Stmt};

/// `--param-elems`' default.
pub const PARAM_ELEMS: u32 = 16;

/// A value of plain integers: no pointer (`.off` leaf) and no array field,
/// what an array of inputs chosen for the entry can hold.
fn integers_only(leaves: &[types::Leaf]) -> bool {
    !leaves.iter().any(|l| l.path.ends_with(".off") || l.len.is_some())
}

impl Mem {
    /// The objects of the entry's pointer parameters (second pass).
    pub(super) fn setup_params(&mut self, p: &ast::Program, opts: &crate::ir::lower::LowerOptions) {
        let Some(f) = p.items.iter().find_map(|it| match it {
            ast::Item::Function(f) if f.name.name == self.entry => Some(f),
            _ => None,
        }) else {
            return;
        };
        for q in &f.params {
            let (Some(name), CType::Ptr(t)) = (&q.name, &q.ctype) else {
                continue;
            };
            if q.pointer || !self.param_used(f, &name.name) {
                continue;
            }
            let leaves = match self.types.leaves(t) {
                Ok(l) if **t != CType::Void => l,
                _ => continue, // reported where the parameter is declared
            };
            if !integers_only(&leaves) {
                continue;
            }
            let Ok((elem_bytes, _)) = self.types.size_align(t) else {
                continue;
            };
            let span = q.span;
            let base = format!("{}@entry", name.name);
            let elems = opts.param_elems as i64;
            self.objects.add_heap(&self.types, &base, t, &int(elems, span));
            self.heap_storage(&base, t, elems, false, span);
            self.global_with(&Self::heap_state(&base), IntType::Int, 1, span);
            let sized = self.contracts_of.get(&self.entry).is_some_and(|cs| {
                cs.iter()
                    .any(|&i| acsl::valid_names(&self.annots[i]).contains(&name.name))
            });
            let size = if sized {
                self.unbounded.insert(base.clone());
                self.input_global(&Self::heap_len(&base), IntType::LongLong, span);
                format!("an array of `{}` inputs of any length (as its contract allows; the model holds {elems} of them, `--param-elems`)", t.c_name())
            } else {
                self.global_with(&Self::heap_len(&base), IntType::LongLong, elems * elem_bytes, span);
                format!("an array of {elems} `{}` inputs (`--param-elems`)", t.c_name())
            };
            let earlier: Vec<String> = self
                .entry_order
                .iter()
                .filter(|(_, u)| **t == *u)
                .map(|(e, _)| e.clone())
                .collect();
            let mut alias = String::new();
            for e in &earlier {
                let x = Self::alias_input(&base, e);
                self.input_global(&x, IntType::UInt, span);
                alias.push_str(&format!(
                    ", or to where `{e}` points (unless `\\separated({e}, {q})`: the input `{x}` is 0 for apart, anything else for `{q} == {e}`)",
                    q = name.name
                ));
            }
            let null = if opts.valid_params {
                "never `NULL` (`--valid-params`)"
            } else {
                "or is `NULL` (`--valid-params` rules that out)"
            };
            self.diags.push(Diag::note(
                span,
                format!(
                    "`{}` of the entry `{}` points to {size}{alias}, {null}",
                    name.name, self.entry
                ),
            ));
            self.entry_params.insert(name.name.clone(), base);
            self.entry_order.push((name.name.clone(), (**t).clone()));
        }
        self.valid_params = opts.valid_params;
    }

    /// The input saying whether the entry's parameter with object `base`
    /// points into the object of the earlier parameter `earlier`.
    fn alias_input(base: &str, earlier: &str) -> String {
        format!("{base}::(alias_{earlier})")
    }

    /// The prologue that may point parameter `out` at the object of each
    /// earlier parameter `e` of its type: `q = x != 0 && e != 0 ? e : q`,
    /// `x` its input. Both offsets are 0, so `q == e`. One statement, so
    /// its branches are inside it (`doomed` names no point of the choice,
    /// which belongs to the caller) and add few paths for the VC engine.
    fn alias_prologue(&self, name: &str, out: &str, base: &str, span: Span) -> Vec<Stmt> {
        use ast::BinOp::{And, Ne};
        let Some(ty) = self.entry_order.iter().find(|(n, _)| n == name).map(|(_, t)| t) else {
            return Vec::new();
        };
        let mut pro = Vec::new();
        for (e, u) in &self.entry_order {
            if e == name {
                break;
            }
            let Some(e_out) = self.entry_outs.get(e).filter(|_| u == ty) else {
                continue;
            };
            let v = |n: &str| var(n, span);
            let x = Self::alias_input(base, e);
            let mut when = bin(Ne, v(&x), int(0, span), span);
            if !self.valid_params {
                when = bin(And, when, bin(Ne, v(e_out), int(0, span), span), span);
            }
            let pick = ast::ExprKind::Ternary(Box::new(when), Box::new(v(e_out)), Box::new(v(out)));
            pro.push(assign(v(out), mk(pick, span), span));
        }
        pro
    }

    /// Why the entry's parameter `q` (a pointer or struct) is not
    /// supported, if it is not.
    pub(super) fn entry_param_refused(&self, q: &Param) -> Option<String> {
        let name = q.name.as_ref().map_or("", |n| n.name.as_str());
        match &q.ctype {
            CType::Ptr(_) if self.entry_params.contains_key(name) => None,
            CType::Ptr(t) => Some(format!(
                "a pointer parameter of the entry pointing to `{}` is not supported (only to integers and to structs of integers)",
                t.c_name()
            )),
            t => match self.types.leaves(t) {
                Ok(ls) if integers_only(&ls) => None,
                _ => Some(format!(
                    "a `{}` parameter of the entry is not supported (only structs of integers)",
                    t.c_name()
                )),
            },
        }
    }

    /// The entry's pointer parameter `name`: its leaves `out` (the input: 0
    /// for `NULL`, anything else the object) and `out.off` (kept so that
    /// calls from functions the entry does not reach still match), and the
    /// prologue that points it at its object.
    pub(super) fn entry_param(&mut self, name: &str, out: &str, span: Span) -> Option<(Vec<Param>, Vec<Stmt>)> {
        let base = self.entry_params.get(name)?.clone();
        let tag = self.objects.by_base(&base)?.tag;
        let param = Param {
            ty: IntType::Int,
            ctype: CType::Int(IntType::Int),
            name: Some(ast::Ident {
                name: out.to_string(),
                span,
            }),
            span,
            pointer: false,
        };
        let to = if self.valid_params {
            int(tag, span)
        } else {
            let valid = bin(ast::BinOp::Ne, var(out, span), int(0, span), span);
            mk(
                ast::ExprKind::Ternary(Box::new(valid), Box::new(int(tag, span)), Box::new(int(0, span))),
                span,
            )
        };
        let off = format!("{out}.off");
        let mut prologue = vec![
            assign(var(out, span), to, span),
            assign(var(&off, span), int(0, span), span),
        ];
        prologue.extend(self.alias_prologue(name, out, &base, span));
        self.entry_outs.insert(name.to_string(), out.to_string());
        let off = Param {
            name: Some(ast::Ident { name: off, span }),
            ..param.clone()
        };
        Some((vec![param, off], prologue))
    }
}
