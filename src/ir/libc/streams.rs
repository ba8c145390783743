//! The streams of `<stdio.h>` (C11 7.21.3): a `FILE` is an object that
//! every stream model reads (`stream->__open`), so that a stream used after
//! `fclose`, closed twice, or the null of a failed `fopen` is an invalid
//! access, as a freed or null pointer's is. `fopen` allocates the object
//! from its call's heap pool (`fopen@5#1`, `crate::ir::mem`), `fclose`
//! frees it; `stdin`, `stdout` and `stderr` point to objects of their own
//! (`stdin::(FILE)`), never freed.
//!
//! This holds for the `FILE` of the shipped `<stdio.h>` (an incomplete
//! `struct __focuscheck_FILE`, given its one member here, which the
//! program cannot name). A program declaring another `FILE` (glibc's in a
//! preprocessed `.i` file) keeps the older models, whose stream is a
//! plain variable, dropped (`drop_stream`).

use crate::syntax::ast::{self, CType, Item, VarDecl};
use crate::syntax::source::Span;

/// The tag of the shipped `FILE`.
pub(super) const TAG: &str = "__focuscheck_FILE";

/// The standard streams.
const STANDARD: [&str; 3] = ["stdin", "stdout", "stderr"];

fn is_stream(t: &CType) -> bool {
    matches!(t, CType::Ptr(s) if matches!(&**s, CType::Struct(tag) if tag == TAG))
}

/// Whether the program's `FILE` is the shipped one (a prototype or a
/// global uses a `struct __focuscheck_FILE *`) and no definition of the
/// struct is the program's own.
pub(super) fn ours(p: &ast::Program) -> bool {
    let mut uses = false;
    for it in &p.items {
        match it {
            Item::Prototype(pr) => {
                uses |= pr.ret_mem.as_ref().is_some_and(is_stream)
                    || pr.params.iter().flatten().any(|q| is_stream(&q.ctype));
            }
            Item::Globals(ds) => uses |= ds.iter().any(|d| is_stream(&d.ctype)),
            Item::Struct(s) if s.tag == TAG => return false,
            _ => {}
        }
    }
    uses
}

/// The model-only definition of the stream struct, and each standard
/// stream the program declares (`extern FILE *stdin;`) made a pointer to
/// an object of its own.
pub(super) fn prelude(p: &mut ast::Program) {
    let mut at = None;
    let mut seen = Vec::new();
    for it in &mut p.items {
        let Item::Globals(ds) = it else { continue };
        let mut out = Vec::new();
        for d in ds.drain(..) {
            let name = d.name.name.clone();
            if !(STANDARD.contains(&name.as_str()) && is_stream(&d.ctype) && d.init.is_none()) {
                out.push(d);
                continue;
            }
            at.get_or_insert(d.span);
            if !seen.contains(&name) {
                out.extend(standard(&name, d.span));
                seen.push(name);
            }
        }
        *ds = out;
    }
    let span = at.unwrap_or_default();
    let def = super::parse_at(&format!("struct {TAG} {{ int __open; }};"), span, ("__object", ""));
    p.items
        .splice(0..0, def.items.into_iter().filter(|it| matches!(it, Item::Struct(_))));
}

/// `stdin` (say) pointing to `stdin::(FILE)`, a standard stream (`__open`
/// 2: `fclose` does not free it).
fn standard(name: &str, span: Span) -> Vec<VarDecl> {
    let text =
        format!("struct {TAG} {{ int __open; }}; struct {TAG} __object = {{2}}; struct {TAG} *{name} = &__object;");
    super::parse_at(&text, span, ("__object", &format!("{name}::(FILE)")))
        .items
        .into_iter()
        .flat_map(|it| match it {
            Item::Globals(ds) => ds,
            _ => Vec::new(),
        })
        .collect()
}
