//! `memset`, `memcpy` and `memmove` on buffers of structs (`memset(&s, 0,
//! sizeof s)`, `memcpy(dst, src, n * sizeof *src)`): the model's text is
//! made for the struct, field by field, since the memory model holds a
//! struct as its fields, not as bytes.
//!
//! What is modelled: whole structs only, so the length must be a constant
//! multiple of the struct's size or say so in its text (`sizeof s`,
//! `sizeof(struct T)`, `sizeof *p`, `sizeof a` for an array of `T`, or a
//! multiple `k * sizeof ...`); a part of a struct
//! (`memset(&s, 0, 3)`) is not modelled yet. `memset` writes its byte into
//! every byte of each integer field, as on a little-endian machine; a
//! pointer or floating field only takes the byte 0 (`NULL`, `0.0`: what
//! `memset(&s, 0, ...)` is used for), so another value is not modelled
//! yet. Elements past the buffer are accesses past it, as C has them.

use super::Calls;
use crate::ir::mem::Types;
use crate::syntax::ast::{CType, Expr, ExprKind as K, IntType};
use std::fmt::Write;

/// The model of `name` (`memset`, `memcpy`, `memmove`) on a buffer of
/// struct `tag`, for the call's arguments.
pub(super) fn model(c: &Calls, name: &str, tag: &str, args: &[Expr]) -> Result<String, String> {
    let t = CType::Struct(tag.to_string());
    let what = t.c_name();
    if tag.starts_with(crate::syntax::ast::UNION) {
        return Err(format!("`{name}` on a buffer of `{what}` is not modelled yet"));
    }
    let (size, _) = c.l.types.size_align(&t)?;
    let len = args.get(2).ok_or_else(|| format!("`{name}` takes 3 arguments"))?;
    let counted = crate::ir::lower::const_eval(len).is_some_and(|v| v >= 0 && v % size.max(1) == 0);
    if !counted && !whole(c, len, &t) {
        return Err(format!(
            "`{name}` on a part of a `{what}` is not modelled yet (its length must be a `sizeof` of `{what}` or a multiple of it)"
        ));
    }
    let types = &c.l.types;
    let mut cells = String::new();
    if name != "memset" {
        if args.get(1).and_then(|e| c.pointee(e)) != Some(t.clone()) {
            return Err(format!(
                "`{name}` from a buffer of another type than `{what}` is not modelled yet"
            ));
        }
        fields(types, &t, "d[e]", 1, &mut cells, &|_, at| Ok(format!("s{}", &at[1..])))?;
        return Ok(copy(name, &what, size, &cells));
    }
    let zero = matches!(args.get(1).map(|e| &e.kind), Some(K::Int(0, _)));
    fields(types, &t, "d[e]", 1, &mut cells, &|t, at| byte_value(t, at, zero))?;
    Ok(format!(
        "{what} *memset({what} *d, int c, size_t n) {{
    unsigned int b = (unsigned char)c;
    unsigned int p2 = b | (b << 8);
    unsigned int p4 = p2 | (p2 << 16);
    size_t e = 0;
    while (e * {size} < n) {{
{cells}        e++;
    }}
    return d;
}}"
    ))
}

/// `memcpy` or `memmove` of whole structs, field by field (`cells`, at
/// element `e`); `memmove` backwards when the target is after the source.
fn copy(name: &str, what: &str, size: i64, cells: &str) -> String {
    let body = if name == "memmove" {
        format!(
            "    if (d <= s) {{
        size_t e = 0;
        while (e * {size} < n) {{
{cells}            e++;
        }}
    }} else {{
        size_t e = n / {size};
        while (e > 0) {{
            e--;
{cells}        }}
    }}"
        )
    } else {
        format!(
            "    size_t e = 0;
    while (e * {size} < n) {{
{cells}        e++;
    }}"
        )
    };
    format!("{what} *{name}({what} *d, const {what} *s, size_t n) {{\n{body}\n    return d;\n}}")
}

/// A value for the scalar field at `at` of type `t`.
type Value<'a> = dyn Fn(&CType, &str) -> Result<String, String> + 'a;

/// Statements setting every scalar field of the struct at `at` (of type
/// `t`), arrays element by element, to what `value` gives for it.
fn fields(types: &Types, t: &CType, at: &str, depth: usize, out: &mut String, value: &Value) -> Result<(), String> {
    let CType::Struct(tag) = t else {
        let v = value(t, at)?;
        let _ = writeln!(out, "        {at} = {v};");
        return Ok(());
    };
    if tag.starts_with(crate::syntax::ast::UNION) {
        return Err(format!(
            "a struct with a union field (`{}`) is not modelled yet here",
            field_name(at)
        ));
    }
    types.whole(tag)?;
    for f in types.fields(tag)? {
        let field = format!("{at}.{}", f.name.name);
        match &f.array {
            None => fields(types, &f.ty, &field, depth, out, value)?,
            Some(n) => {
                let n = crate::ir::lower::const_eval(n).ok_or("an array field needs a constant size")?;
                let i = format!("i{depth}");
                let _ = writeln!(out, "        {{ size_t {i} = 0; while ({i} < {n}) {{");
                fields(types, &f.ty, &format!("{field}[{i}]"), depth + 1, out, value)?;
                let _ = writeln!(out, "        {i}++; }} }}");
            }
        }
    }
    Ok(())
}

/// What `memset` writes into the scalar field `at` of type `t`: its byte
/// `b` in every byte of the field (0 when the byte is the literal 0).
fn byte_value(t: &CType, at: &str, zero: bool) -> Result<String, String> {
    Ok(match t {
        _ if zero => "0".to_string(),
        CType::Int(it) if it.is_float() => return Err(not_zero("a floating", at)),
        CType::Int(it) => {
            let name = it.c_name();
            match it.size() {
                1 => format!("({name})b"),
                2 => format!("({name})p2"),
                4 => format!("({name})p4"),
                _ => format!("({name})((long long)(int)p4 * 4294967296LL + p4)"),
            }
        }
        CType::Ptr(_) => return Err(not_zero("a pointer", at)),
        _ => {
            return Err(format!(
                "`memset` on the field `{}` of type `{}` is not modelled yet",
                field_name(at),
                t.c_name()
            ))
        }
    })
}

/// The field's path as the program writes it (`name[i1]`).
fn field_name(at: &str) -> &str {
    at.trim_start_matches("d[e].")
}

fn not_zero(kind: &str, at: &str) -> String {
    let field = field_name(at);
    format!("`memset` of a struct with {kind} field (`{field}`) to a byte other than 0 is not modelled yet")
}

/// Whether length `e` is whole elements of type `t` by its text: a
/// `sizeof` of `t` or of an array of `t`, or a product with one.
fn whole(c: &Calls, e: &Expr, t: &CType) -> bool {
    match &e.kind {
        K::SizeOfType(s) => s == t,
        K::SizeOf(x) => match &x.kind {
            K::Var(id) => c.objects.get(&id.name) == Some(t) || c.arrays.get(&id.name) == Some(t),
            K::Deref(p) => c.pointee(p).as_ref() == Some(t),
            K::Index(id, _) => c.scope.get(&id.name) == Some(t),
            _ => false,
        },
        K::Binary(crate::syntax::ast::BinOp::Mul, a, b) => whole(c, a, t) || whole(c, b, t),
        K::Cast(IntType::UInt | IntType::ULong, x) => whole(c, x, t),
        _ => false,
    }
}
