//! Objects: the storage a pointer can hold the address of, each with a tag
//! (the integer a pointer's first leaf holds; 0 is null).
//!
//! An object is a variable whose address is taken (or an array that decays
//! to a pointer), or a field of one: `s.f` of `struct S s` is an object of
//! `f`'s type, `a.f` of `struct S a[4]` an array of them. A pointer into an
//! object is its tag and an element offset; the storage of an object is the
//! IR variables named by its base and its type's leaves (`types.rs`).
//! An array field `char name[8]` of `struct S a[4]` is one object `a.name`
//! of 4 * 8 elements, column by column, whose pointers step by 4, its
//! `stride` (`rows.rs`).

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
    /// The flag saying its storage is alive (a local of a function other
    /// than the entry: the call runs, `f::(alive)`; a block-scoped local:
    /// its block runs, `scopes.rs`).
    pub alive: Option<String>,
    /// For an array: where its index goes in `base` (`a` then `[i]`; field
    /// `f` of an array of structs `a` is `a.f`, indexed at 1: `a[i].f`).
    pub index_at: Option<usize>,
    /// For a heap object (or a field of one): the object of its allocating
    /// call, whose state and length globals an access checks.
    pub heap: Option<String>,
    /// For a variable-length array (or a field of its elements): the
    /// global holding the run's number of elements, below the elements
    /// its storage holds (`crate::ir::dims`).
    pub elems: Option<String>,
    /// For an array field of an array's elements: the array's number of
    /// elements, by which a pointer into it steps (`rows.rs`).
    pub stride: Option<i64>,
}

/// What an object's validity depends on: the flag of the call or block
/// it lives in, or the heap object it is part of.
#[derive(Clone, Copy)]
struct Life<'a> {
    alive: Option<&'a str>,
    heap: Option<&'a str>,
}

#[derive(Default)]
pub struct Objects {
    pub list: Vec<Obj>,
}

impl Objects {
    /// Adds an object and, for a struct, every field of it (recursively).
    pub fn add(&mut self, types: &Types, base: &str, ty: &CType, len: Option<&ast::Expr>, alive: Option<&str>) {
        let life = Life { alive, heap: None };
        self.add_at(types, base, ty, len, life, len.map(|_| base.len()));
    }

    /// Adds the object of an allocating call: an array of `len` elements.
    pub fn add_heap(&mut self, types: &Types, base: &str, ty: &CType, len: &ast::Expr) {
        let life = Life {
            alive: None,
            heap: Some(base),
        };
        self.add_at(types, base, ty, Some(len), life, Some(base.len()));
    }

    fn add_at(
        &mut self,
        types: &Types,
        base: &str,
        ty: &CType,
        len: Option<&ast::Expr>,
        life: Life,
        index_at: Option<usize>,
    ) {
        if self.list.iter().any(|o| o.base == base) {
            return;
        }
        self.list.push(Obj {
            tag: self.list.len() as i64 + 1,
            base: base.to_string(),
            ty: ty.clone(),
            len: len.cloned(),
            alive: life.alive.map(str::to_string),
            index_at,
            heap: life.heap.map(str::to_string),
            elems: None,
            stride: None,
        });
        // A union's members share its storage: they are not objects.
        let record = match ty {
            CType::Struct(tag) if !tag.starts_with(ast::UNION) => Some(tag),
            _ => None,
        };
        if let Some(tag) = record {
            let fields: Vec<ast::Field> = types.fields(tag).map(|f| f.to_vec()).unwrap_or_default();
            for f in &fields {
                let name = format!("{base}.{}", f.name.name);
                let (flen, at) = match (&f.array, len) {
                    (Some(ke), Some(ne)) => {
                        // A row of integers or pointers per element.
                        let eval = crate::ir::lower::const_eval;
                        if let (Some(k @ 1..), Some(n @ 1..), CType::Int(_) | CType::Ptr(_)) =
                            (eval(ke), eval(ne), &f.ty)
                        {
                            let all = ast::Expr {
                                kind: ast::ExprKind::Int(n * k, ast::IntType::Int),
                                span: ne.span,
                            };
                            self.add_at(types, &name, &f.ty, Some(&all), life, index_at);
                            if let Some(o) = self.list.iter_mut().find(|o| o.base == name) {
                                o.stride = Some(n);
                            }
                        }
                        continue;
                    }
                    (Some(n), None) => (Some(n), Some(name.len())),
                    (None, l) => (l, index_at),
                };
                self.add_at(types, &name, &f.ty, flen, life, at);
            }
        }
    }

    /// Makes object `base`, a variable-length array, and the objects of its
    /// elements' fields as long as global `elems` says.
    pub fn set_elems(&mut self, base: &str, elems: &str) {
        let prefix = format!("{base}.");
        for o in self
            .list
            .iter_mut()
            .filter(|o| o.base == base || o.base.starts_with(&prefix))
        {
            o.elems = Some(elems.to_string());
        }
    }

    pub fn by_base(&self, base: &str) -> Option<&Obj> {
        self.list.iter().find(|o| o.base == base)
    }

    /// The objects a pointer to `ty` may point to (by type: the program
    /// converts pointers only between equal types and `void *`).
    /// Each object's name and where an index goes in it, by tag.
    pub fn names(&self) -> Vec<crate::ir::ObjectName> {
        self.list
            .iter()
            .map(|o| crate::ir::ObjectName {
                base: o.base.clone(),
                index_at: o.index_at,
                function: matches!(o.ty, CType::Func(_)),
                stride: o.stride,
                literal: None,
            })
            .collect()
    }

    pub fn of_type<'a>(&'a self, ty: &'a CType) -> impl Iterator<Item = &'a Obj> + 'a {
        self.list.iter().filter(move |o| &o.ty == ty)
    }
}
