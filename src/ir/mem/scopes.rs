//! Lifetimes of block-scoped locals (C11 6.2.4p6). A local whose address
//! is taken and that is declared in a block inside its function's body
//! has a flag of its own (`x::(alive)`): set where its declaration is
//! reached, cleared wherever its block's execution ends — at the block's
//! end, and before a `break`, `continue`, `goto` or `return` that leaves
//! it. Each entry into the block is a new lifetime: until the declaration
//! is reached again, the flag is 0 and an access through a pointer to it
//! is invalid, as after the block.

use super::expr::*;
use super::*;
use crate::syntax::ast::{Stmt, StmtKind};

#[derive(Default)]
pub(super) struct Lifetimes {
    /// By block number (the walk's order, the same in both passes), found
    /// by the first pass: the declarations made in the block itself, and
    /// the labels anywhere inside it.
    decls: Vec<Vec<usize>>,
    labels: Vec<HashSet<String>>,
    /// The declarations made inside some block (not at function scope).
    nested: HashSet<usize>,
    /// The blocks the walk is in, outermost first.
    open: Vec<usize>,
    /// The loops and `switch`es the walk is in, innermost last.
    jumps: Vec<Jump>,
    next: usize,
}

/// A loop or `switch`: the blocks open outside it (a `break` leaves the
/// others), those open at its body (a `continue` leaves the others).
struct Jump {
    outside: usize,
    body: usize,
    is_loop: bool,
}

impl Lifetimes {
    /// What the first pass found, for the second.
    pub(super) fn found(&mut self) -> Lifetimes {
        Lifetimes {
            decls: std::mem::take(&mut self.decls),
            labels: std::mem::take(&mut self.labels),
            ..Lifetimes::default()
        }
    }

    pub(super) fn nested(&self, decl: usize) -> bool {
        self.nested.contains(&decl)
    }
}

/// The flag of block-scoped taken storage `base`.
pub(super) fn scope_flag(base: &str) -> String {
    format!("{base}::(alive)")
}

impl Mem {
    /// Enters a block: a scope of names and a lifetime.
    pub(super) fn open_block(&mut self) {
        let id = self.life.next;
        self.life.next += 1;
        if !self.emit {
            self.life.decls.push(Vec::new());
            self.life.labels.push(HashSet::new());
        }
        self.life.open.push(id);
        self.scopes.push(HashMap::new());
    }

    /// Leaves the innermost block; the statements ending its locals'
    /// lifetimes where its end is reached.
    pub(super) fn close_block(&mut self, span: Span) -> Vec<Stmt> {
        self.scopes.pop();
        let n = self.life.open.len();
        let out = self.end_blocks(n.saturating_sub(1), span);
        self.life.open.pop();
        out
    }

    /// `flag = 0` for each taken local of the open blocks from the
    /// `from`-th (outermost first) on.
    fn end_blocks(&mut self, from: usize, span: Span) -> Vec<Stmt> {
        if !self.emit {
            return Vec::new();
        }
        let mut out = Vec::new();
        for &b in self.life.open.get(from..).unwrap_or_default() {
            for d in self.life.decls.get(b).map(Vec::as_slice).unwrap_or_default() {
                if let Some(t) = self.found.get(d).filter(|_| self.taken.contains(d)) {
                    out.push(assign(var(&scope_flag(&t.base), span), int(0, span), span));
                }
            }
        }
        out
    }

    /// A declaration `decl` made here: whether it is inside a block.
    pub(super) fn declared_in_block(&mut self, decl: usize) -> bool {
        let Some(&b) = self.life.open.last() else {
            return false;
        };
        if !self.emit {
            self.life.decls[b].push(decl);
        }
        self.life.nested.insert(decl);
        true
    }

    /// The flag of taken block-scoped storage `base` set where its
    /// declaration is reached (second pass).
    pub(super) fn lifetime_starts(&mut self, base: &str, span: Span) -> Stmt {
        let flag = scope_flag(base);
        self.flag_global(&flag, span);
        assign(var(&flag, span), int(1, span), span)
    }

    /// Label `name` is inside every open block.
    pub(super) fn label_here(&mut self, name: &str) {
        if !self.emit {
            for &b in &self.life.open {
                self.life.labels[b].insert(name.to_string());
            }
        }
    }

    /// The body of a loop or `switch` whose statement had `outside` blocks
    /// open outside it.
    pub(super) fn jump_body(&mut self, b: &Stmt, outside: usize, is_loop: bool) -> Box<Stmt> {
        let body = self.life.open.len();
        self.life.jumps.push(Jump { outside, body, is_loop });
        let out = self.one(b);
        self.life.jumps.pop();
        out
    }

    /// Before a jump: the ends of the lifetimes of the blocks it leaves
    /// (`return`: every one).
    pub(super) fn leaving(&mut self, k: &StmtKind, span: Span) -> Vec<Stmt> {
        let open = self.life.open.len();
        let from = match k {
            StmtKind::Break => self.life.jumps.last().map_or(open, |j| j.outside),
            StmtKind::Continue => self
                .life
                .jumps
                .iter()
                .rev()
                .find(|j| j.is_loop)
                .map_or(open, |j| j.body),
            StmtKind::Goto(l) => {
                let labels = &self.life.labels;
                // The innermost open block the label is in stays.
                (0..open)
                    .rev()
                    .find(|&i| labels.get(self.life.open[i]).is_some_and(|s| s.contains(&l.name)))
                    .map_or(0, |i| i + 1)
            }
            _ => 0,
        };
        self.end_blocks(from, span)
    }
}

impl Mem {
    /// How many blocks the walk is in.
    pub(super) fn life_depth(&self) -> usize {
        self.life.open.len()
    }
}

impl Mem {
    /// A statement expression's block (`({ ... })`): its value is its last
    /// statement's, so nothing is added after it; its locals live as long
    /// as the enclosing block's.
    pub(super) fn stmt_expr_block(&mut self, b: &ast::Block) -> ast::Block {
        self.scopes.push(HashMap::new());
        let mut stmts = Vec::new();
        for s in &b.stmts {
            stmts.extend(self.stmt(s));
        }
        self.scopes.pop();
        ast::Block { stmts, span: b.span }
    }
}
