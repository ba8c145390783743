//! C types of memory: struct definitions, the integer *leaves* a value of a
//! type is made of, and `sizeof` on ILP32 (i386, as SV-COMP assumes).

use crate::ir::lower::const_eval;
use crate::syntax::ast::{self, CType, IntType, StructDef};
use std::collections::HashMap;

/// One integer of a value's flattened form: `path` is appended to the
/// storage's name (`""`, `".off"`, `".f.g"`), `len` is the size of an array
/// field (`struct { int a[4]; }`), whose index goes at `index_at` in
/// `path` (`.ps` then `[i].a` for a field `struct P ps[4]`).
#[derive(Clone, Debug)]
pub struct Leaf {
    pub path: String,
    pub ty: IntType,
    pub len: Option<ast::Expr>,
    pub index_at: Option<usize>,
}

pub struct Types {
    pub structs: HashMap<String, StructDef>,
}

impl Types {
    pub fn new(p: &ast::Program) -> Types {
        let structs = p
            .items
            .iter()
            .filter_map(|it| match it {
                ast::Item::Struct(d) => Some((d.tag.clone(), d.clone())),
                _ => None,
            })
            .collect();
        Types { structs }
    }

    pub fn fields(&self, tag: &str) -> Result<&[ast::Field], String> {
        self.structs.get(tag).map(|d| &d.fields[..]).ok_or_else(|| {
            let name = CType::Struct(tag.to_string()).c_name();
            format!("`{name}` is used but never defined")
        })
    }

    pub fn field(&self, ty: &CType, name: &str) -> Result<&ast::Field, String> {
        let CType::Struct(tag) = ty else {
            return Err(format!("`.{name}` on a value of type `{}`, not a struct", ty.c_name()));
        };
        if let Some((_, why)) = self.not_modelled(tag).iter().find(|(f, _)| f.name == name) {
            return Err(format!("not modelled yet: field `{name}` of `{}` ({why})", ty.c_name()));
        }
        self.fields(tag)?
            .iter()
            .find(|f| f.name.name == name)
            .ok_or_else(|| format!("`{}` has no field `{name}`", ty.c_name()))
    }

    /// The fields of struct `tag` outside the model.
    fn not_modelled(&self, tag: &str) -> &[(ast::Ident, String)] {
        self.structs.get(tag).map(|d| &d.not_modelled[..]).unwrap_or_default()
    }

    /// An error when struct `tag` has a field outside the model (its
    /// layout is then unknown).
    pub fn whole(&self, tag: &str) -> Result<(), String> {
        match self.not_modelled(tag).first() {
            Some((f, why)) => Err(format!(
                "not modelled yet: `{}` as a whole (its {}: {why})",
                CType::Struct(tag.to_string()).c_name(),
                if f.name.is_empty() {
                    "unnamed field".to_string()
                } else {
                    format!("field `{}`", f.name)
                }
            )),
            None => Ok(()),
        }
    }

    /// The storage of a union (`tag` starts with `union `): one integer as
    /// wide as the union, unsigned up to 4 bytes. Its members must be
    /// integers, floating values or arrays of them: a member is its low
    /// bytes, an array's element `k` the bytes from `k * sizeof`, as gcc
    /// lays them out (all at offset 0, little-endian).
    pub fn union_storage(&self, tag: &str) -> Result<Option<IntType>, String> {
        let Some((size, _)) = self.union_layout(tag)? else {
            return Ok(None);
        };
        Ok(Some(match size {
            0 | 1 => IntType::UChar,
            2 => IntType::UShort,
            4 => IntType::UInt,
            // Signed: an unsigned long long past 2^63 is beyond the model.
            _ => IntType::LongLong,
        }))
    }

    /// A union's size and alignment on ILP32 (the widest member rounded up
    /// to the strictest alignment), `None` for a struct.
    fn union_layout(&self, tag: &str) -> Result<Option<(i64, i64)>, String> {
        if !tag.starts_with(ast::UNION) {
            return Ok(None);
        }
        self.whole(tag)?;
        let (mut size, mut align) = (0, 1);
        for f in self.fields(tag)? {
            let n = f.array.as_ref().map(const_eval);
            match (&f.ty, n) {
                (CType::Int(t), None | Some(Some(1..))) if *t != IntType::Bool => {
                    size = size.max(t.size() * n.flatten().unwrap_or(1));
                    align = align.max(t.size().min(4));
                }
                _ => {
                    return Err(format!(
                        "`{tag}` has a member `{}` of type `{}`{}: only unions of integer and floating members (or arrays of them) are supported",
                        f.name.name,
                        f.ty.c_name(),
                        if f.array.is_some() { " (an array)" } else { "" }
                    ))
                }
            }
        }
        let size = (size + align - 1) / align * align;
        if ![0, 1, 2, 4, 8].contains(&size) {
            return Err(format!(
                "`{tag}` is {size} bytes: only unions of 1, 2, 4 or 8 bytes are supported"
            ));
        }
        Ok(Some((size.max(1), align)))
    }

    /// The integers a value of type `ty` is stored as, in field order: an
    /// integer is one, a pointer two (object tag, element offset), a struct
    /// its fields' leaves.
    pub fn leaves(&self, ty: &CType) -> Result<Vec<Leaf>, String> {
        let mut out = Vec::new();
        self.leaves_into(ty, "", (None, None), &mut out, 0)?;
        Ok(out)
    }

    fn leaves_into(
        &self,
        ty: &CType,
        path: &str,
        (len, index_at): (Option<&ast::Expr>, Option<usize>),
        out: &mut Vec<Leaf>,
        depth: usize,
    ) -> Result<(), String> {
        if depth > 32 {
            return Err("a struct contains itself".into());
        }
        let leaf = |path: String, ty| Leaf {
            path,
            ty,
            len: len.cloned(),
            index_at,
        };
        match ty {
            CType::Void => return Err("a value of type `void`".into()),
            CType::Func(_) => return Err("a function is not a value (a pointer to it is)".into()),
            CType::Int(t) => out.push(leaf(path.to_string(), *t)),
            CType::Ptr(_) => {
                out.push(leaf(path.to_string(), IntType::Int));
                out.push(leaf(format!("{path}.off"), IntType::Int));
            }
            CType::Struct(tag) if tag.starts_with(ast::UNION) => {
                let t = self.union_storage(tag)?.expect("a union");
                out.push(leaf(path.to_string(), t));
            }
            CType::Struct(tag) => {
                for f in self.fields(tag)? {
                    let sub = format!("{path}.{}", f.name.name);
                    let array = match (&f.array, len) {
                        (Some(_), Some(_)) => {
                            return Err(format!(
                                "an array field (`{}`) inside an array of structs is not supported",
                                f.name.name
                            ))
                        }
                        (Some(n), None) => (Some(n), Some(sub.len())),
                        (None, l) => (l, index_at),
                    };
                    self.leaves_into(&f.ty, &sub, array, out, depth + 1)?;
                }
            }
        }
        Ok(())
    }

    /// The number of elements of the storage of `leaf` in an array of
    /// `outer` elements: an array field's rows one after another
    /// (`rows.rs`).
    pub fn storage_len(outer: Option<&ast::Expr>, leaf: &Leaf) -> Result<Option<ast::Expr>, String> {
        match (outer, &leaf.len) {
            (Some(n), Some(k)) => match (const_eval(n), const_eval(k)) {
                (Some(n2), Some(k)) => Ok(Some(ast::Expr {
                    kind: ast::ExprKind::Int(n2 * k, ast::IntType::Int),
                    span: n.span,
                })),
                _ => Err("an array of structs with an array field needs constant sizes".into()),
            },
            (n, k) => Ok(n.or(k.as_ref()).cloned()),
        }
    }

    /// `sizeof` and alignment on ILP32 (`long long` is 4-aligned in
    /// structs, as gcc -m32 lays them out).
    pub fn size_align(&self, ty: &CType) -> Result<(i64, i64), String> {
        self.size_align_at(ty, 0)
    }

    fn size_align_at(&self, ty: &CType, depth: usize) -> Result<(i64, i64), String> {
        if depth > 32 {
            return Err("a struct contains itself".into());
        }
        Ok(match ty {
            CType::Void => (1, 1),
            // gcc's `sizeof` of a function type.
            CType::Func(_) => (1, 1),
            CType::Int(t) => (t.size(), t.size().min(4)),
            CType::Ptr(_) => (4, 4),
            CType::Struct(tag) if tag.starts_with(ast::UNION) => self.union_layout(tag)?.expect("a union"),
            CType::Struct(tag) => {
                self.whole(tag)?;
                let (mut size, mut align) = (0i64, 1i64);
                for f in self.fields(tag)? {
                    let (s, a) = self.size_align_at(&f.ty, depth + 1)?;
                    let n = match &f.array {
                        Some(e) => const_eval(e).ok_or("an array field needs a constant size")?,
                        None => 1,
                    };
                    size = (size + a - 1) / a * a + s * n;
                    align = align.max(a);
                }
                ((size + align - 1) / align * align, align)
            }
        })
    }
}
