//! Objects: the storage a pointer can hold the address of, each with a tag
//! (the integer a pointer's first leaf holds; 0 is null).
//!
//! An object is a variable whose address is taken (or an array that decays
//! to a pointer), or a field of one: `s.f` of `struct S s` is an object of
//! `f`'s type, `a.f` of `struct S a[4]` an array of them. A pointer into an
//! object is its tag and an element offset; the storage of an object is the
//! IR variables named by its base and its type's leaves (`types.rs`).

use super::types::Types;
use crate::syntax::ast::{self, CType};

#[derive(Clone, Debug)]
pub struct Obj {
    pub tag: i64,
    /// The name its storage's leaves start with (`x`, `s.f`, `main::a`).
    pub base: String,
    pub ty: CType,
    /// Number of elements, for an array object.
    pub len: Option<ast::Expr>,
    /// The function whose call it lives in (a local of a function other than
    /// the entry): valid only while that call runs.
    pub owner: Option<String>,
}

#[derive(Default)]
pub struct Objects {
    pub list: Vec<Obj>,
}

impl Objects {
    /// Adds an object and, for a struct, every field of it (recursively).
    pub fn add(&mut self, types: &Types, base: &str, ty: &CType, len: Option<&ast::Expr>, owner: Option<&str>) {
        if self.list.iter().any(|o| o.base == base) {
            return;
        }
        self.list.push(Obj {
            tag: self.list.len() as i64 + 1,
            base: base.to_string(),
            ty: ty.clone(),
            len: len.cloned(),
            owner: owner.map(str::to_string),
        });
        if let CType::Struct(tag) = ty {
            let fields: Vec<ast::Field> = types.fields(tag).map(|f| f.to_vec()).unwrap_or_default();
            for f in &fields {
                let flen = match (&f.array, len) {
                    (Some(_), Some(_)) => continue,
                    (Some(n), None) => Some(n),
                    (None, l) => l,
                };
                self.add(types, &format!("{base}.{}", f.name.name), &f.ty, flen, owner);
            }
        }
    }

    pub fn by_base(&self, base: &str) -> Option<&Obj> {
        self.list.iter().find(|o| o.base == base)
    }

    /// The objects a pointer to `ty` may point to (by type: the program
    /// converts pointers only between equal types and `void *`).
    pub fn of_type<'a>(&'a self, ty: &'a CType) -> impl Iterator<Item = &'a Obj> + 'a {
        self.list.iter().filter(move |o| &o.ty == ty)
    }
}
