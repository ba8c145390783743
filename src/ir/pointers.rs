//! Pointers as C spells them. The memory model (`mem`) gives a pointer `p`
//! two integer leaves, `p` (the tag of the object it points to, 0 for
//! null) and `p.off` (an element offset), computes through temporaries
//! `__memN`, and turns `*p` into a split over tags checked at the access.
//! Views use this file to show `p = &a[2]` and "`*p = 7` accesses `a[...]`"
//! instead of the leaves, the temporaries and the split's branches.

use super::{Cond, ExprKind, NodeId, NodeKind, Program, RelOp, VarId, VarKind};
use std::collections::{HashMap, HashSet};

/// What the memory model made of a program's pointers.
#[derive(Clone, Debug, Default)]
pub struct Memory {
    /// By tag: tag `t` names `objects[t - 1]` (0 is null).
    pub objects: Vec<ObjectName>,
    /// The source spans `(lo, hi)` of the accesses through pointers: the
    /// branches of their splits and checks carry these spans.
    pub accesses: HashSet<(u32, u32)>,
    /// Where the index of a global array leaf goes in its name, when not
    /// at its end: `a.f` of `struct S a[4]` is `a[i].f`, at 1.
    pub index_at: HashMap<String, usize>,
    /// The spans of the calls through function pointers (their `deref`
    /// sites say "call through an invalid function pointer").
    pub fn_calls: HashSet<(u32, u32)>,
}

/// One step of a pointer into a field of an array's elements (`&a[1].f +
/// 1`): the memory model moves its offset by this much, out of the object
/// (`mem/arith.rs`); more than any such array's length.
pub const FIELD_STEP: i64 = 1 << 20;

/// An object a pointer can point to.
#[derive(Clone, Debug)]
pub struct ObjectName {
    /// Its storage's name: `x`, `s.f`, `main::a`, `a.f` (field `f` of an
    /// array of structs `a`).
    pub base: String,
    /// For an array: where the index goes in `base`.
    pub index_at: Option<usize>,
    /// A function (whose address is taken): a pointer to it is called,
    /// never read.
    pub function: bool,
    /// An array field of an array's elements (`a.name` of `struct S
    /// a[4]` with `char name[8]`): the array's length, 4; offset
    /// `j * 4 + i` is `&a[i].name[j]`.
    pub stride: Option<i64>,
    /// A string literal's object (`string#1`): the literal as C writes it,
    /// `"out.txt"`, shortened past [`LITERAL_SHOWN`] chars.
    pub literal: Option<String>,
}

/// The chars of a string literal a view shows.
pub const LITERAL_SHOWN: usize = 24;

/// A string literal's chars (to its NUL) as C writes them: `"a\n\x01"`.
pub fn spell_literal(chars: impl Iterator<Item = u8>) -> String {
    let mut s = String::from("\"");
    for (k, b) in chars.take_while(|&b| b != 0).enumerate() {
        if k == LITERAL_SHOWN {
            s.push_str("...");
            break;
        }
        match b {
            b'"' => s.push_str("\\\""),
            b'\\' => s.push_str("\\\\"),
            b'\n' => s.push_str("\\n"),
            b'\t' => s.push_str("\\t"),
            0x20..=0x7e => s.push(b as char),
            _ => s.push_str(&format!("\\x{b:02x}")),
        }
    }
    s.push('"');
    s
}

impl ObjectName {
    /// The address of element `off`: `&a[2]`, `&a[2].f`, `&x`; a heap
    /// object's start is the object as C draws a node: `malloc@11#3`,
    /// `&malloc@11#3->next`.
    pub fn address(&self, off: i64) -> String {
        match &self.literal {
            Some(l) if off == 0 => return l.clone(),
            Some(l) => return format!("{l} + {off}"),
            None => {}
        }
        match (is_heap_object(&self.base), self.index_at) {
            (true, Some(at)) if self.stride.is_some() && off >= 0 => {
                let n = self.stride.unwrap_or(1);
                let (i, j) = (off % n, off / n);
                let field = self.base[at..].replacen('.', "->", 1);
                return match i {
                    0 => format!("&{}{field}[{j}]", &self.base[..at]),
                    _ => format!("&{}[{i}]{field}[{j}]", &self.base[..at]),
                };
            }
            (true, Some(at)) if at == self.base.len() && off == 0 => return self.base.clone(),
            (true, Some(at)) if at == self.base.len() => return format!("{} + {off}", self.base),
            (true, Some(at)) if off == 0 => {
                return format!("&{}{}", &self.base[..at], self.base[at..].replacen('.', "->", 1))
            }
            _ => {}
        }
        match self.index_at {
            Some(at) if self.stride.is_some() && off >= 0 => {
                let n = self.stride.unwrap_or(1);
                let (i, j) = (off % n, off / n);
                format!("&{}[{i}]{}[{j}]", &self.base[..at], &self.base[at..])
            }
            // A field of an array's elements: the element, then steps.
            Some(at) if at < self.base.len() && !(0..FIELD_STEP).contains(&off) => {
                let (i, k) = (off.rem_euclid(FIELD_STEP), off.div_euclid(FIELD_STEP));
                format!("&{}[{i}]{} + {k}", &self.base[..at], &self.base[at..])
            }
            Some(at) => format!("&{}[{off}]{}", &self.base[..at], &self.base[at..]),
            None if off == 0 => format!("&{}", self.base),
            None => format!("&{} + {off}", self.base),
        }
    }

    /// What an access through a pointer does to it, as a view says it:
    /// "calls `inc`", "accesses `a[...]`".
    pub fn reached(&self) -> String {
        if self.function {
            format!("calls `{}`", self.base)
        } else {
            format!("accesses `{}`", self.region())
        }
    }

    /// The object as a region: `a[...]`, `a[...].f`, `x`; a heap object
    /// as `malloc@11#3`, `malloc@11#3->next`.
    pub fn region(&self) -> String {
        if let Some(l) = &self.literal {
            return l.clone();
        }
        if let (true, Some(at)) = (is_heap_object(&self.base), self.index_at) {
            return format!("{}{}", &self.base[..at], self.base[at..].replacen('.', "->", 1));
        }
        match self.index_at {
            Some(at) => format!("{}[...]{}", &self.base[..at], &self.base[at..]),
            None => self.base.clone(),
        }
    }
}

impl Memory {
    /// Whether the access at `span` is a call through a function pointer.
    pub fn is_fn_call(&self, span: crate::syntax::source::Span) -> bool {
        self.fn_calls.contains(&(span.lo, span.hi))
    }

    pub fn object(&self, tag: i64) -> Option<&ObjectName> {
        let i = usize::try_from(tag).ok()?.checked_sub(1)?;
        self.objects.get(i)
    }

    /// A pointer value in C: `&a[2]`, `&s.y`, `NULL`; none for a tag that
    /// names no object.
    pub fn spell(&self, tag: i64, off: i64) -> Option<String> {
        match tag {
            0 if off == 0 => Some("NULL".to_string()),
            0 => Some(format!("NULL + {off}")),
            _ => self.object(tag).map(|o| o.address(off)),
        }
    }
}

/// Values of variables as C spells them: a pointer's two leaves (`p`,
/// `p.off`) as one `p = &a[2]`; the memory model's own variables left out.
pub fn c_values(p: &Program, vals: &[(String, i64)]) -> Vec<(String, String)> {
    let get = |name: &str| vals.iter().find(|(n, _)| n == name).map(|(_, v)| *v);
    vals.iter()
        .filter(|(n, _)| !is_internal(n))
        .filter(|(n, _)| n.strip_suffix(".off").is_none_or(|base| get(base).is_none()))
        .map(|(n, v)| match get(&format!("{n}.off")) {
            Some(off) => (n.clone(), p.memory.show(*v, off)),
            None => (n.clone(), v.to_string()),
        })
        .collect()
}

impl Memory {
    /// [`Memory::spell`], or the two numbers when no object has the tag.
    pub fn show(&self, tag: i64, off: i64) -> String {
        self.spell(tag, off)
            .unwrap_or_else(|| format!("(object {tag}) + {off}"))
    }
}

/// The storage of a heap object (`malloc@8`, `calloc@9.next`): named by
/// its allocating call, not by the source.
pub fn is_heap_object(name: &str) -> bool {
    name.contains('@')
}

/// A variable of the memory model, not of the program: a temporary
/// (`__mem1`), a running-call flag (`f::(alive)`) or a returned leaf
/// (`f::(ret).off`).
pub fn is_internal(name: &str) -> bool {
    name.starts_with("__mem") || name.contains("::(")
}

/// The pointers of a program: each tag leaf `p` with its offset leaf
/// `p.off` (of the same procedure).
pub fn pointer_leaves(p: &Program) -> HashMap<VarId, VarId> {
    let by_name: HashMap<(&str, _), VarId> = p
        .vars
        .iter()
        .enumerate()
        .map(|(i, v)| ((v.name.as_str(), v.proc), VarId(i as u32)))
        .collect();
    let mut out = HashMap::new();
    for (i, v) in p.vars.iter().enumerate() {
        if let Some(&off) = by_name.get(&(format!("{}.off", v.name).as_str(), v.proc)) {
            out.insert(VarId(i as u32), off);
        }
    }
    out
}

impl Program {
    /// A write the memory model made that views leave out: to one of its
    /// own variables, or a temporary holding the value of an access (an
    /// allocation's tag, shown with the pointer it is stored in).
    pub fn is_model_write(&self, n: NodeId, var: VarId) -> bool {
        let v = self.var(var);
        let span = self.node(n).span;
        is_internal(&v.name) || (v.kind == VarKind::Temp && self.memory.accesses.contains(&(span.lo, span.hi)))
    }

    /// A branch the memory model made at an access: a case of its split
    /// over objects, or a validity check.
    pub fn is_access_branch(&self, n: NodeId) -> bool {
        let node = self.node(n);
        matches!(node.kind, NodeKind::Branch { .. }) && self.memory.accesses.contains(&(node.span.lo, node.span.hi))
    }

    /// The object a case of an access's split tests for (`if (p == 3)`).
    pub fn split_object(&self, n: NodeId) -> Option<&ObjectName> {
        if !self.is_access_branch(n) {
            return None;
        }
        let NodeKind::Branch {
            cond: Cond::Atom(a), ..
        } = &self.node(n).kind
        else {
            return None;
        };
        match (a.op, &a.rhs.kind) {
            (RelOp::Eq, ExprKind::Const(k)) => self.memory.object(*k),
            _ => None,
        }
    }

    /// How a view shows the outcome of an access branch: "accesses `a[...]`"
    /// ("calls `inc`" for a call through a function pointer)
    /// for the case taken, nothing for the others and for the checks; none
    /// for a branch of the program's own.
    pub fn access_outcome(&self, n: NodeId, outcome: bool) -> Option<String> {
        if !self.is_access_branch(n) {
            return None;
        }
        Some(match self.split_object(n) {
            Some(o) if outcome => o.reached(),
            _ => String::new(),
        })
    }
}
