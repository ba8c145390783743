//! `int main(int argc, char **argv)` (`char *argv[]`, `const` variants) as
//! C gives them (C11 5.1.2.2.1p2): the arguments are inputs of the run.
//!
//! - `argc` is any value from 1 (POSIX gives the program's name).
//! - `argv` points to the array `argv@entry` of `argc + 1` pointers, its
//!   size in bytes `argv@entry::(bytes)`: `argv[argc]` is `NULL`, each
//!   `argv[i]` below it the string `argv[i]@entry`; an access past
//!   `argv[argc]` is a `deref` error. The model holds the first
//!   [`ARGV_HELD`] pointers; an access to one past them inside the array
//!   (`argc` larger) is beyond the model (`limit`), never a verdict.
//! - Each string is a distinct writable object of any length (its size in
//!   bytes, length + 1, is the input `argv[i]@entry::(bytes)`), of chars
//!   that are not NUL before its terminator; the model holds its first
//!   `--param-elems` chars, and a run that reads past them is beyond the
//!   model, as for an entry's pointer parameters (`params.rs`).
//! - Only the strings the program can read are constrained so (`argv[K]`
//!   names string `K` alone; any other use of `argv`, all of them), and
//!   only below `argc`: each constrained string splits the exploration on
//!   its length, so four of them made 17^4 paths before `main` began.
//! - Neither the array nor a string may be freed (`freeable` names
//!   neither). An unused `argv` is left out (`stmt.rs`); `envp` is refused.

use super::expr::*;
use super::*;
use crate::syntax::ast::{Param, Stmt};

/// The pointers of `argv` the model holds, `argv[0]` .. `argv[3]`: with
/// `argc` up to 3 the model holds every argument and `argv[argc]`.
pub const ARGV_HELD: i64 = 4;

/// The array `argv` points to.
const ARRAY: &str = "argv@entry";

/// The string `argv[i]` points to.
fn string(i: i64) -> String {
    format!("argv[{i}]@entry")
}

/// Whether `q` is `main`'s `char **argv`, the second of its parameters.
pub(super) fn is_argv(f: &ast::Function, q: &Param) -> bool {
    let char_ptr_ptr = match &q.ctype {
        CType::Ptr(t) => {
            matches!(&**t, CType::Ptr(c) if matches!(**c, CType::Int(IntType::Char | IntType::SChar | IntType::UChar)))
        }
        _ => false,
    };
    f.name.name == "main"
        && char_ptr_ptr
        && f.params.len() >= 2
        && f.params[0].ctype.is_int()
        && std::ptr::eq(&f.params[1], q)
}

impl Mem {
    /// The objects of `main`'s `argv` when the entry is `main` and uses it
    /// (second pass).
    pub(super) fn setup_argv(&mut self, f: &ast::Function, opts: &crate::ir::lower::LowerOptions) {
        let Some(q) = f.params.get(1).filter(|q| is_argv(f, q)) else {
            return;
        };
        let Some(name) = &q.name else { return };
        if q.pointer || !self.param_used(f, &name.name) || f.params[0].name.is_none() {
            return;
        }
        let span = q.span;
        let elem = CType::Int(IntType::Char).ptr();
        let held = ARGV_HELD;
        self.objects.add_heap(&self.types, ARRAY, &elem, &int(held, span));
        self.heap_storage(ARRAY, &elem, held, true, span);
        self.global_with(&Self::heap_state(ARRAY), IntType::Int, 1, span);
        self.zero_global(&Self::heap_len(ARRAY), IntType::LongLong, span);
        self.unbounded.insert(ARRAY.to_string());
        let chars = opts.param_elems as i64;
        let c = CType::Int(IntType::Char);
        for i in 0..held {
            let s = string(i);
            self.objects.add_heap(&self.types, &s, &c, &int(chars, span));
            self.heap_storage(&s, &c, chars, false, span);
            self.global_with(&Self::heap_state(&s), IntType::Int, 1, span);
            self.input_global(&Self::heap_len(&s), IntType::LongLong, span);
            self.unbounded.insert(s);
        }
        self.argv = Some(name.name.clone());
        self.argv_read = strings_read(f, &name.name).filter(|_| !self.contracts_of.contains_key(&f.name.name));
        let text = format!(
            "`{}` of `main` points to `argc + 1` pointers, the last `NULL`, the others to strings of any length (the model holds the first {held} pointers and {chars} chars of each string, `--param-elems`); `argc` is 1 or more",
            name.name
        );
        self.diags.push(Diag::note(span, text));
    }

    /// `main`'s `argv`, its leaves `out` and `out.off`, and the prologue
    /// that builds the arguments from the inputs; `argc` is the variable
    /// holding `argc`.
    pub(super) fn argv_param(&mut self, argc: &str, out: &str, span: Span) -> Option<(Vec<Param>, Vec<Stmt>)> {
        let tag = |m: &Self, b: &str| m.objects.by_base(b).map(|o| o.tag);
        let array = tag(self, ARRAY)?;
        let assume = |c: ast::Expr| call("__VERIFIER_assume", vec![c], span);
        let v = |n: &str| var(n, span);
        let at = |base: &str, path: &str, k: i64| Self::named_leaf(&file_scope(base), path, &Some(int(k, span)), span);
        let mut pro = vec![assume(bin(ast::BinOp::Ge, v(argc), int(1, span), span))];
        let wide = mk(ast::ExprKind::Cast(IntType::LongLong, Box::new(v(argc))), span);
        let ptr = self
            .types
            .size_align(&CType::Int(IntType::Char).ptr())
            .map_or(4, |(s, _)| s);
        let bytes = bin(
            ast::BinOp::Mul,
            bin(ast::BinOp::Add, wide, int(1, span), span),
            int(ptr, span),
            span,
        );
        pro.push(assign(v(&Self::heap_len(ARRAY)), bytes, span));
        let chars = self.objects.by_base(&string(0)).and_then(|o| o.len.clone())?;
        let chars = crate::ir::lower::const_eval(&chars)?;
        for i in 0..ARGV_HELD {
            let s = string(i);
            let below = bin(ast::BinOp::Lt, int(i, span), v(argc), span);
            let to = mk(
                ast::ExprKind::Ternary(
                    Box::new(below),
                    Box::new(int(tag(self, &s)?, span)),
                    Box::new(int(0, span)),
                ),
                span,
            );
            pro.push(assign(at(ARRAY, "", i), to, span));
            pro.push(assign(at(ARRAY, ".off", i), int(0, span), span));
            let len = v(&Self::heap_len(&s));
            // A string the run has and reads: a char before the terminator
            // is not NUL; the terminator is (the chars past it are outside
            // the string's object). One past `argc` is empty, one
            // nothing reads is left as it is: their chars are not split on.
            let at_least_one = assume(bin(ast::BinOp::Ge, len.clone(), int(1, span), span));
            if self.argv_read.as_ref().is_some_and(|r| !r.contains(&i)) {
                pro.push(at_least_one);
                continue;
            }
            // Nested, so that a string has `chars + 1` paths (its length)
            // whether or not the exploration keeps bounds of `len`.
            let mut inner = Vec::new();
            for j in (0..chars).rev() {
                let char_is = |op| assume(bin(op, at(&s, "", j), int(0, span), span));
                let mut then_ = vec![char_is(ast::BinOp::Ne)];
                then_.extend(inner);
                let inside = bin(ast::BinOp::Lt, int(j + 1, span), len.clone(), span);
                inner = vec![if_(inside, then_, vec![char_is(ast::BinOp::Eq)], span)];
            }
            let mut string = vec![at_least_one];
            string.extend(inner);
            let empty = vec![
                assume(bin(ast::BinOp::Eq, len.clone(), int(1, span), span)),
                assume(bin(ast::BinOp::Eq, at(&s, "", 0), int(0, span), span)),
            ];
            if i == 0 {
                pro.extend(string);
            } else {
                pro.push(if_(
                    bin(ast::BinOp::Lt, int(i, span), v(argc), span),
                    string,
                    empty,
                    span,
                ));
            }
        }
        let off = format!("{out}.off");
        pro.push(assign(v(&off), int(0, span), span));
        pro.push(assign(v(out), int(array, span), span));
        let param = |n: &str| Param {
            ty: IntType::Int,
            ctype: CType::Int(IntType::Int),
            name: Some(ast::Ident {
                name: n.to_string(),
                span,
            }),
            span,
            pointer: false,
            pointee_const: false,
        };
        Some((vec![param(out), param(&off)], pro))
    }
}

/// The strings of `argv` that `f`'s body reads when it names `argv` only
/// as `argv[K]` with constant `K`: then no other string is reachable (an
/// offset moved from `argv[K]` stays in its string). `None` when `argv`
/// is used any other way (`*argv`, `argv + 1`, `argv[i]`, passed on).
fn strings_read(f: &ast::Function, argv: &str) -> Option<std::collections::BTreeSet<i64>> {
    let mut read = Some(std::collections::BTreeSet::new());
    for st in &f.body.stmts {
        crate::ir::lower::stmt_walk(st, &mut |e| match &e.kind {
            ast::ExprKind::Index(n, k) if n.name == argv => match (&k.kind, read.as_mut()) {
                (ast::ExprKind::Int(k, _), Some(r)) => {
                    r.insert(*k);
                }
                _ => read = None,
            },
            ast::ExprKind::Var(n) | ast::ExprKind::DerefIndex(n, ..) if n.name == argv => read = None,
            _ => {}
        });
    }
    read
}
