//! The entry's parameters in the product's harness, as C source: what each
//! version is passed.
//!
//! - An integer is one input, passed to both versions.
//! - A struct (of integers) is an input field by field, as `check --entry`
//!   makes it; REF gets a copy of REF's own struct type (its tags are
//!   renamed apart), field by field.
//! - A pointer is a parameter of the harness, so the memory model gives it
//!   what `check --entry` gives the entry's: an array of `--param-elems`
//!   input elements, or `NULL` (`ir::mem::params`). REF gets a copy of its
//!   own: `NULL` too, or a `calloc`'d array of as many elements with the
//!   same values, so that neither version sees the other's writes.

use super::PREFIX;
use crate::syntax::ast::{self, CType};
use std::collections::BTreeSet;

/// A parameter of the entry, as the harness names and passes it.
pub struct Param {
    /// Its name in the harness (the source's, unless a global or function
    /// of either version has it).
    pub name: String,
    /// Its type in NEW, and in REF (REF's struct tags renamed apart).
    pub new_ty: CType,
    pub ref_ty: CType,
}

/// The entry's definition in a parsed version.
pub fn entry_fn<'a>(p: &'a ast::Program, entry: &str) -> Option<&'a ast::Function> {
    p.items.iter().find_map(|it| match it {
        ast::Item::Function(f) if f.name.name == entry => Some(f),
        _ => None,
    })
}

/// The names of the entry's parameters in `text`, in order.
pub fn param_names(file: &crate::syntax::source::SourceFile, entry: &str) -> Vec<String> {
    let parsed = crate::syntax::parse_source(file, &Default::default(), &mut Vec::new());
    entry_fn(&parsed.ast, entry).map_or_else(Vec::new, |f| {
        f.params
            .iter()
            .map(|q| q.name.as_ref().map_or_else(String::new, |n| n.name.clone()))
            .collect()
    })
}

/// `t` with its struct tags renamed as REF's are.
pub fn renamed(t: &CType) -> CType {
    match t {
        CType::Ptr(x) => CType::Ptr(Box::new(renamed(x))),
        CType::Struct(tag) if !tag.starts_with(ast::UNION) => CType::Struct(format!("{PREFIX}{tag}")),
        t => t.clone(),
    }
}

/// The paths of a value's integer leaves (`""` for an integer, `.a`,
/// `.in.x` for a struct's fields); `None` for what the harness cannot copy
/// (a union, an array field, a pointer inside).
pub fn leaf_paths(p: &ast::Program, t: &CType) -> Option<Vec<String>> {
    match t {
        CType::Int(_) => Some(vec![String::new()]),
        CType::Struct(tag) if !tag.starts_with(ast::UNION) => {
            let def = p.items.iter().find_map(|it| match it {
                ast::Item::Struct(s) if s.tag == *tag => Some(s),
                _ => None,
            })?;
            if !def.not_modelled.is_empty() {
                return None;
            }
            let mut out = Vec::new();
            for f in &def.fields {
                if f.array.is_some() {
                    return None;
                }
                for l in leaf_paths(p, &f.ty)? {
                    out.push(format!(".{}{l}", f.name.name));
                }
            }
            Some(out)
        }
        _ => None,
    }
}

/// The declarations and copies that start the harness, and the arguments
/// of REF's and NEW's calls. `elems`: the elements of a pointer's array.
pub fn setup(ps: &[Param], new_ast: &ast::Program, elems: u32) -> Result<(String, Vec<String>, Vec<String>), String> {
    let mut h = String::new();
    let (mut ref_args, mut new_args) = (Vec::new(), Vec::new());
    for q in ps {
        let n = &q.name;
        let copy = format!("{PREFIX}{n}");
        new_args.push(n.clone());
        match &q.new_ty {
            CType::Int(t) => {
                h.push_str(&format!("  {} {n};\n", t.c_name()));
                ref_args.push(n.clone());
            }
            CType::Ptr(to) => {
                let paths = leaf_paths(new_ast, to).ok_or_else(|| unsupported(q))?;
                let CType::Ptr(ref_to) = &q.ref_ty else {
                    return Err(unsupported(q));
                };
                h.push_str(&format!("  {} {copy} = 0;\n  if ({n}) {{\n", q.ref_ty.c_name()));
                h.push_str(&format!("    {copy} = calloc({elems}, sizeof({}));\n", ref_to.c_name()));
                for i in 0..elems {
                    for l in &paths {
                        h.push_str(&format!("    {copy}[{i}]{l} = {n}[{i}]{l};\n"));
                    }
                }
                h.push_str("  }\n");
                ref_args.push(copy);
            }
            t => {
                let paths = leaf_paths(new_ast, t).ok_or_else(|| unsupported(q))?;
                h.push_str(&format!("  {} {n};\n  {} {copy};\n", t.c_name(), q.ref_ty.c_name()));
                for l in &paths {
                    h.push_str(&format!("  {copy}{l} = {n}{l};\n"));
                }
                ref_args.push(copy);
            }
        }
    }
    Ok((h, ref_args, new_args))
}

fn unsupported(q: &Param) -> String {
    format!(
        "`diff` cannot give the two versions equal copies of the parameter `{}` of type `{}`",
        q.name,
        q.new_ty.c_name()
    )
}

/// The harness's parameters: the pointers (the memory model's entry
/// parameters), as `T *name`.
pub fn signature(ps: &[Param]) -> String {
    ps.iter()
        .filter(|q| matches!(q.new_ty, CType::Ptr(_)))
        .map(|q| format!("{} {}", q.new_ty.c_name(), q.name))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The copies REF is given (not inputs of their own): its struct copies.
pub fn copies(ps: &[Param]) -> BTreeSet<String> {
    ps.iter()
        .filter(|q| !matches!(q.new_ty, CType::Int(_) | CType::Ptr(_)))
        .map(|q| format!("{PREFIX}{}", q.name))
        .collect()
}

/// An input of the product named in a version whose entry's parameters are
/// `version` (the harness's are `harness`): `n`, `s.a`, `p@entry[2]` of the
/// harness's `i`-th parameter become the version's `i`-th parameter's.
pub fn version_input(name: &str, harness: &[String], version: &[String]) -> String {
    for (h, v) in harness.iter().zip(version) {
        if let Some(rest) = name.strip_prefix(h.as_str()) {
            if rest.is_empty() || rest.starts_with(['.', '@', '[']) {
                return format!("{v}{rest}");
            }
        }
    }
    name.to_string()
}
