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
//! - Parameters of one pointee type may point into one array (`f(&a,
//!   &a)`, `f(a, a + 1)`, `f(a + 2, a)`), as nothing but a contract's
//!   `\separated` rules out: such a group of `n` parameters also has a
//!   shared array, `(p,q)@entry`, and each member an input
//!   `p@entry::(shared)`, 0 for its own array. With `E` = `--param-elems`
//!   and `F = (n - 1) * (E - 1)`, the first member points to element `F`
//!   of the shared array (input not 0), each other one to element `k - 1`
//!   (input `k` from 1 to `2F + 1`; larger: its own array), and the array
//!   has `2F + E` elements. So every member has at least `E` elements from
//!   where it points, and any placement where each member's `E` elements
//!   overlap another's (`f(a, a + 1)`, `f(a + 15, a)`, chains of `n`) is
//!   one choice of the inputs; the first fixed, not all free, keeps the
//!   choices to `(2F + 1)^(n - 1)`.
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
/// An entry's pointer parameter with an array of its own: its pointee,
/// whether its contract sizes the array, and its note's words for it.
struct Member {
    name: String,
    ty: CType,
    span: Span,
    sized: bool,
    size: String,
}

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
        self.setup_argv(f, opts);
        let mut members = Vec::new();
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
            self.entry_params.insert(name.name.clone(), base);
            members.push(Member {
                name: name.name.clone(),
                ty: (**t).clone(),
                span,
                sized,
                size,
            });
        }
        self.valid_params = opts.valid_params;
        let shared = self.setup_shared(&members, opts.param_elems as i64);
        let null = if opts.valid_params {
            "never `NULL` (`--valid-params`)"
        } else {
            "or is `NULL` (`--valid-params` rules that out)"
        };
        for m in members {
            let also = shared.get(&m.name).map_or("", String::as_str);
            let text = format!(
                "`{}` of the entry `{}` points to {}{also}, {null}",
                m.name, self.entry, m.size
            );
            self.diags.push(Diag::note(m.span, text));
        }
    }

    /// The shared array of each group of the entry's pointer parameters of
    /// one pointee type, and what each member's note says of it.
    fn setup_shared(&mut self, members: &[Member], elems: i64) -> HashMap<String, String> {
        let mut says = HashMap::new();
        let mut done: Vec<&CType> = Vec::new();
        for m in members {
            if done.contains(&&m.ty) {
                continue;
            }
            done.push(&m.ty);
            let group: Vec<&Member> = members.iter().filter(|o| o.ty == m.ty).collect();
            let n = group.len() as i64;
            if n < 2 {
                continue;
            }
            let names: Vec<&str> = group.iter().map(|o| o.name.as_str()).collect();
            let shared = format!("({})@entry", names.join(","));
            let far = (n - 1) * (elems - 1);
            let (t, span, cap) = (&m.ty, m.span, 2 * far + elems);
            self.objects.add_heap(&self.types, &shared, t, &int(cap, span));
            self.heap_storage(&shared, t, cap, false, span);
            self.global_with(&Self::heap_state(&shared), IntType::Int, 1, span);
            if group.iter().any(|o| o.sized) {
                self.unbounded.insert(shared.clone());
                self.input_global(&Self::heap_len(&shared), IntType::LongLong, span);
            } else {
                let bytes = self.types.size_align(t).map_or(1, |(s, _)| s);
                self.global_with(&Self::heap_len(&shared), IntType::LongLong, cap * bytes, span);
            }
            for (i, o) in group.iter().enumerate() {
                let x = Self::shared_input(&o.name);
                self.input_global(&x, IntType::UInt, o.span);
                let others: Vec<String> = names
                    .iter()
                    .filter(|n| **n != o.name)
                    .map(|n| format!("`{n}`"))
                    .collect();
                let (at, text) = if i == 0 {
                    let t = format!("to element {far} of the array `{shared}` it may share with {} (the input `{x}`: 0 for its own array, anything else for the shared one)", others.join(", "));
                    ((far, 1), t)
                } else {
                    let t = format!("to element k - 1 of the array `{shared}` it may share with {} (`{}` at element {far}; the input `{x}`: 0 for its own array, k from 1 to {} for the shared one)", others.join(", "), names[0], 2 * far + 1);
                    ((0, 2 * far + 1), t)
                };
                self.entry_shared.insert(o.name.clone(), (shared.clone(), at.0, at.1));
                says.insert(
                    o.name.clone(),
                    format!(", or {text}, unless `\\separated` says otherwise"),
                );
            }
        }
        says
    }

    /// The shared arrays of the entry's pointer parameters, each once.
    pub(super) fn shared_arrays(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for (b, _, _) in self.entry_shared.values() {
            if !out.contains(b) {
                out.push(b.clone());
            }
        }
        out
    }

    /// The input saying where the entry's parameter `name` points: its own
    /// array, or an element of the array its group shares.
    fn shared_input(name: &str) -> String {
        format!("{name}@entry::(shared)")
    }

    /// Where the entry's parameter `out` points: `own` (its array's tag) or
    /// `NULL` by its input, or, in a group with a shared array, `out = x - 1
    /// < count ? (out.off = lo + x - 1, shared) : own`, `x` its input
    /// (unsigned: 0 wraps past `count`). The choice is inside one
    /// statement, so `doomed` names no point of it (it belongs to the
    /// caller), and it adds one path per way to point.
    fn entry_choice(&self, name: &str, out: &str, own: i64, span: Span) -> Vec<Stmt> {
        use ast::BinOp::{Lt, Ne, Sub};
        let v = |n: &str| var(n, span);
        let pick = |c, a, b| mk(ast::ExprKind::Ternary(Box::new(c), Box::new(a), Box::new(b)), span);
        let off = format!("{out}.off");
        let shared =
            (self.entry_shared.get(name)).and_then(|(b, lo, count)| Some((self.objects.by_base(b)?.tag, *lo, *count)));
        let to = match shared {
            None => int(own, span),
            Some((tag, lo, count)) => {
                let one = mk(ast::ExprKind::Int(1, IntType::UInt), span);
                let k = bin(Sub, v(&Self::shared_input(name)), one, span);
                let inside = bin(Lt, k.clone(), int(count, span), span);
                let k = if lo == 0 {
                    k
                } else {
                    bin(ast::BinOp::Add, k, int(lo, span), span)
                };
                let at = mk(
                    ast::ExprKind::Assign(ast::AssignOp::Set, Box::new(v(&off)), Box::new(k)),
                    span,
                );
                let there = mk(ast::ExprKind::Comma(vec![at, int(tag, span)]), span);
                pick(inside, there, int(own, span))
            }
        };
        let to = if self.valid_params {
            to
        } else {
            pick(bin(Ne, v(out), int(0, span), span), to, int(0, span))
        };
        vec![assign(v(&off), int(0, span), span), assign(v(out), to, span)]
    }

    /// Why the entry's parameter `q` (a pointer or struct) is not
    /// supported, if it is not.
    pub(super) fn entry_param_refused(&self, q: &Param) -> Option<String> {
        let name = q.name.as_ref().map_or("", |n| n.name.as_str());
        match &q.ctype {
            CType::Ptr(_) if self.entry_params.contains_key(name) => None,
            CType::Ptr(_) if self.argv.as_deref() == Some(name) => None,
            CType::Ptr(_) if self.entry == "main" && self.argv.is_some() => Some(format!(
                "`main`'s third parameter `{name}` (the environment, `envp`) is not modelled: a program that reads its environment is not checked"
            )),
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
            pointee_const: false,
        };
        let prologue = self.entry_choice(name, out, tag, span);
        let off = format!("{out}.off");
        let off = Param {
            name: Some(ast::Ident { name: off, span }),
            ..param.clone()
        };
        Some((vec![param, off], prologue))
    }
}
