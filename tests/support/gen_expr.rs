//! The expression tree of the generated programs (`gen.rs`), kept so
//! that the generator can check that C's evaluation order cannot matter.

use super::*;

/// An expression of the generated program, kept as a tree so that the
/// generator can check that C's evaluation order cannot matter.
#[derive(Clone, Debug)]
pub(super) enum E {
    Const(i64),
    Var {
        name: String,
        global: bool,
    },
    Elem {
        name: String,
        global: bool,
        len: i64,
        index: Box<E>,
    },
    Neg(Box<E>),
    /// A literal written as text (`'\x7f'`, `4294967295u`).
    Lit(String),
    /// `((T)(e))`.
    Cast(&'static str, Box<E>),
    /// `+ - *` and comparisons: operands in unspecified order.
    Bin(&'static str, Box<E>, Box<E>),
    /// `/ %`.
    Div(&'static str, Box<E>, Box<E>),
    /// `<< >>`: undefined for an amount outside the promoted width.
    Shift(&'static str, Box<E>, Box<E>),
    /// `~e`.
    Compl(Box<E>),
    /// `&& ||`: operands in order.
    Logic(&'static str, Box<E>, Box<E>),
    Not(Box<E>),
    Ternary(Box<E>, Box<E>, Box<E>),
    Call(String, Vec<E>),
    Nondet,
    /// `(x = e)`, `(x += e)`, `(x -= e)` on a scalar.
    Set {
        name: String,
        global: bool,
        op: &'static str,
        rhs: Box<E>,
    },
    /// `x++`, `++x`, `x--`, `--x` on a scalar.
    Inc {
        name: String,
        global: bool,
        op: &'static str,
        prefix: bool,
    },
    /// `(a, b)`: in order.
    Comma(Box<E>, Box<E>),
}

/// A variable read or written: its name and whether it is a global.
pub(super) type Access = (String, bool);

impl E {
    pub(super) fn render(&self) -> String {
        match self {
            E::Const(c) => c.to_string(),
            E::Var { name, .. } => name.clone(),
            E::Elem { name, index, .. } => format!("{name}[{}]", index.render()),
            E::Neg(x) => format!("-({})", x.render()),
            E::Lit(t) => t.clone(),
            E::Cast(t, x) => format!("(({t})({}))", x.render()),
            E::Bin(op, a, b) | E::Div(op, a, b) | E::Shift(op, a, b) | E::Logic(op, a, b) => {
                format!("({} {op} {})", a.render(), b.render())
            }
            E::Not(x) => format!("!({})", x.render()),
            E::Compl(x) => format!("~({})", x.render()),
            E::Ternary(c, a, b) => format!("({} ? {} : {})", c.render(), a.render(), b.render()),
            E::Call(f, args) => {
                let args: Vec<String> = args.iter().map(E::render).collect();
                format!("{f}({})", args.join(", "))
            }
            E::Nondet => "__VERIFIER_nondet_int()".into(),
            E::Set { name, op, rhs, .. } => format!("({name} {op} {})", rhs.render()),
            E::Comma(a, b) => format!("({}, {})", a.render(), b.render()),
            E::Inc { name, op, prefix, .. } => {
                if *prefix {
                    format!("({op}{name})")
                } else {
                    format!("({name}{op})")
                }
            }
        }
    }

    /// Renders without the outermost parentheses (for statement level).
    pub(super) fn render_top(&self) -> String {
        let s = self.render();
        match self {
            E::Bin(..) | E::Div(..) | E::Shift(..) | E::Logic(..) | E::Ternary(..) | E::Set { .. } | E::Inc { .. } => {
                s[1..s.len() - 1].to_string()
            }
            _ => s,
        }
    }

    pub(super) fn children(&self) -> Vec<&E> {
        match self {
            E::Const(_) | E::Lit(_) | E::Var { .. } | E::Nondet | E::Inc { .. } => vec![],
            E::Elem { index, .. } => vec![index],
            E::Neg(x) | E::Not(x) | E::Compl(x) | E::Cast(_, x) => vec![x],
            E::Set { rhs, .. } => vec![rhs],
            E::Bin(_, a, b) | E::Div(_, a, b) | E::Shift(_, a, b) | E::Logic(_, a, b) | E::Comma(a, b) => vec![a, b],
            E::Ternary(c, a, b) => vec![c, a, b],
            E::Call(_, args) => args.iter().collect(),
        }
    }

    /// Can evaluating it fail, stop the run or draw a choice?
    pub(super) fn fails(&self) -> bool {
        let own = match self {
            E::Call(..) | E::Nondet => true,
            E::Elem { index, len, .. } => !matches!(**index, E::Const(k) if (0..*len).contains(&k)),
            E::Div(_, _, den) => !matches!(**den, E::Const(k) if k != 0),
            E::Shift(_, _, amount) => !matches!(**amount, E::Const(k) if (0..32).contains(&k)),
            _ => false,
        };
        own || self.children().iter().any(|c| c.fails())
    }

    /// Does it call a procedure (which may read and write any global)?
    pub(super) fn calls(&self) -> bool {
        matches!(self, E::Call(..)) || self.children().iter().any(|c| c.calls())
    }

    pub(super) fn reads(&self, out: &mut Vec<Access>) {
        match self {
            E::Var { name, global } | E::Elem { name, global, .. } | E::Inc { name, global, .. } => {
                out.push((name.clone(), *global))
            }
            E::Set { name, global, op, .. } if *op != "=" => out.push((name.clone(), *global)),
            _ => {}
        }
        for c in self.children() {
            c.reads(out);
        }
    }

    pub(super) fn writes(&self, out: &mut Vec<Access>) {
        if let E::Set { name, global, .. } | E::Inc { name, global, .. } = self {
            out.push((name.clone(), *global));
        }
        for c in self.children() {
            c.writes(out);
        }
    }

    pub(super) fn read_set(&self) -> Vec<Access> {
        let mut v = Vec::new();
        self.reads(&mut v);
        v
    }

    pub(super) fn write_set(&self) -> Vec<Access> {
        let mut v = Vec::new();
        self.writes(&mut v);
        v
    }

    pub(super) fn writes_var(&self, name: &str) -> bool {
        self.write_set().iter().any(|(n, _)| n == name)
    }

    pub(super) fn reads_global(&self) -> bool {
        self.read_set().iter().any(|(_, g)| *g)
    }

    /// Has it no effect at all (so it can go anywhere)?
    pub(super) fn pure(&self) -> bool {
        !self.fails() && !self.calls() && self.write_set().is_empty()
    }

    /// Does the result not depend on the order in which C evaluates
    /// unsequenced operands (and is it free of undefined behaviour such as
    /// `x = x++`)?
    pub(super) fn ordered(&self) -> bool {
        if !self.children().iter().all(|c| c.ordered()) {
            return false;
        }
        match self {
            E::Bin(_, a, b) => independent(a, b),
            // gcc checks the divisor before it evaluates the dividend: a
            // division that may fail must not have failing operands.
            E::Div(_, a, b) => independent(a, b) && (matches!(**b, E::Const(k) if k != 0) || !a.fails() && !b.fails()),
            // Likewise the shift amount.
            E::Shift(_, a, b) => {
                independent(a, b) && (matches!(**b, E::Const(k) if (0..32).contains(&k)) || !a.fails() && !b.fails())
            }
            E::Call(_, args) => args
                .iter()
                .enumerate()
                .all(|(i, a)| args[i + 1..].iter().all(|b| independent(a, b))),
            E::Set { name, rhs, .. } => !rhs.writes_var(name),
            _ => true,
        }
    }
}

/// Can `a` and `b` be evaluated in either order with the same result?
pub(super) fn independent(a: &E, b: &E) -> bool {
    if a.fails() && b.fails() {
        return false;
    }
    let (ra, wa, rb, wb) = (a.read_set(), a.write_set(), b.read_set(), b.write_set());
    let meets = |w: &[Access], other: &[Access]| w.iter().any(|(n, _)| other.iter().any(|(m, _)| m == n));
    if meets(&wa, &rb) || meets(&wa, &wb) || meets(&wb, &ra) {
        return false;
    }
    let global = |v: &[Access]| v.iter().any(|(_, g)| *g);
    !(a.calls() && (global(&rb) || global(&wb))) && !(b.calls() && (global(&ra) || global(&wa)))
}

/// Expressions and conditions of the generated programs.
impl Gen<'_> {
    /// An expression whose value does not depend on C's evaluation order.
    pub(super) fn full_expr(&mut self, depth: usize) -> E {
        for _ in 0..20 {
            let e = self.expr(depth);
            if e.ordered() {
                return e;
            }
        }
        self.leaf(false)
    }

    /// A condition whose value does not depend on C's evaluation order.
    pub(super) fn full_cond(&mut self, depth: usize) -> E {
        for _ in 0..20 {
            let e = self.cond(depth);
            if e.ordered() {
                return e;
            }
        }
        let v = self.leaf(false);
        let c = self.constant();
        E::Bin("<", Box::new(v), Box::new(E::Const(c)))
    }

    pub(super) fn leaf(&mut self, risky_ok: bool) -> E {
        let w = self.rng.below(100);
        let scalars = self.scalars(false);
        let arrays = self.arrays();
        if self.cfg.c_types && w < 8 {
            return self.c_leaf();
        }
        if w < 30 || scalars.is_empty() && arrays.is_empty() {
            return E::Const(self.constant());
        }
        if w < 80 || arrays.is_empty() {
            if scalars.is_empty() {
                return E::Const(self.constant());
            }
            let v = self.rng.pick(&scalars).clone();
            return E::Var {
                name: v.name,
                global: v.global,
            };
        }
        let a = self.rng.pick(&arrays).clone();
        let index = self.index(a.len.expect("an array"), risky_ok);
        E::Elem {
            name: a.name,
            global: a.global,
            len: a.len.expect("an array"),
            index: Box::new(index),
        }
    }

    /// An index: mostly a constant within bounds; sometimes one just outside,
    /// or a computed one that may be anywhere.
    pub(super) fn index(&mut self, len: i64, risky_ok: bool) -> E {
        let w = self.rng.below(100);
        if !risky_ok || w < 80 {
            E::Const(self.rng.range(0, len - 1))
        } else if w < 84 {
            E::Const(*self.rng.pick(&[-1, len]))
        } else if w < 94 {
            let e = self.expr(1);
            E::Div("%", Box::new(e), Box::new(E::Const(len)))
        } else {
            self.expr(1)
        }
    }

    pub(super) fn expr(&mut self, depth: usize) -> E {
        if depth == 0 || self.rng.chance(25) {
            return self.leaf(true);
        }
        let d = depth - 1;
        let w = self.rng.below(if self.cfg.bitwise { 117 } else { 105 });
        let int_procs: Vec<ProcSig> = self.procs.iter().filter(|p| p.returns_int).cloned().collect();
        match w {
            0..=29 => {
                let op = *self.rng.pick(&["+", "-"]);
                E::Bin(op, Box::new(self.expr(d)), Box::new(self.expr(d)))
            }
            30..=41 => {
                let a = self.expr(d);
                let b = if self.rng.chance(75) {
                    E::Const(self.rng.range(-3, 4))
                } else {
                    self.leaf(false)
                };
                E::Bin("*", Box::new(a), Box::new(b))
            }
            42..=53 if self.cfg.division => {
                let op = *self.rng.pick(&["/", "%"]);
                let num = self.expr(d);
                let x = self.rng.below(100);
                let den = if x < 68 {
                    let c = *self.rng.pick(&[-4, -3, -2, -1, 1, 2, 3, 4, 5, 7]);
                    E::Const(c)
                } else if x < 70 {
                    E::Const(0)
                } else {
                    self.expr(d)
                };
                E::Div(op, Box::new(num), Box::new(den))
            }
            54..=63 => {
                let op = *self.rng.pick(&["==", "!=", "<", "<=", ">", ">="]);
                E::Bin(op, Box::new(self.expr(d)), Box::new(self.expr(d)))
            }
            64..=69 => {
                let op = *self.rng.pick(&["&&", "||"]);
                E::Logic(op, Box::new(self.cond(d)), Box::new(self.cond(d)))
            }
            70..=73 => E::Not(Box::new(self.cond(d))),
            74..=77 => E::Neg(Box::new(self.expr(d))),
            78..=84 => E::Ternary(Box::new(self.cond(d)), Box::new(self.expr(d)), Box::new(self.expr(d))),
            85..=92 if self.cfg.calls_in_exprs && !int_procs.is_empty() => {
                let p = self.rng.pick(&int_procs).clone();
                let args = self.args(&p, d.min(1));
                E::Call(p.name, args)
            }
            93..=96 if self.cfg.nondet => E::Nondet,
            97..=101 if self.cfg.assignments_in_exprs => self.set_or_inc(d),
            102..=104 if self.cfg.assignments_in_exprs => {
                let first = self.set_or_inc(d);
                E::Comma(Box::new(first), Box::new(self.expr(d)))
            }
            105..=116 => self.bitwise(d),
            _ => self.leaf(true),
        }
    }

    /// A bitwise operation: a mask, a complement, or a shift of a value of
    /// some integer type by an amount at the edges or computed.
    pub(super) fn bitwise(&mut self, d: usize) -> E {
        const MASKS: &[&str] = &[
            "1",
            "3",
            "0xff",
            "0x80",
            "-1",
            "0xf0",
            "255u",
            "0x7fffffff",
            "0xffffffffu",
            "-8",
        ];
        const TYPES: &[&str] = &[
            "unsigned char",
            "char",
            "short",
            "unsigned short",
            "int",
            "unsigned",
            "long long",
            "unsigned long long",
        ];
        let w = self.rng.below(100);
        let operand = |g: &mut Self| {
            let e = g.expr(d);
            if g.cfg.c_types && g.rng.chance(40) {
                E::Cast(TYPES[g.rng.below(TYPES.len() as u64) as usize], Box::new(e))
            } else {
                e
            }
        };
        match w {
            0..=39 => {
                let op = *self.rng.pick(&["&", "|", "^"]);
                let a = operand(self);
                let b = if self.rng.chance(50) {
                    E::Lit(self.rng.pick(MASKS).to_string())
                } else {
                    operand(self)
                };
                E::Bin(op, Box::new(a), Box::new(b))
            }
            40..=49 => E::Compl(Box::new(operand(self))),
            _ => {
                let op = *self.rng.pick(&["<<", ">>"]);
                let a = operand(self);
                let x = self.rng.below(100);
                let amount = if x < 70 {
                    E::Const(*self.rng.pick(&[0, 1, 2, 3, 4, 7, 8, 15, 16, 24, 30, 31]))
                } else if x < 80 {
                    E::Const(*self.rng.pick(&[32, 33, 40, 63, 64, -1]))
                } else {
                    self.expr(d)
                };
                E::Shift(op, Box::new(a), Box::new(amount))
            }
        }
    }

    /// `(x = e)`, `(x += e)`, `(x -= e)`, `x++`, `--x`, ... on a scalar.
    pub(super) fn set_or_inc(&mut self, depth: usize) -> E {
        let targets = self.scalars(true);
        let Some(v) = self.pick_var(&targets) else {
            return self.leaf(true);
        };
        if self.rng.chance(50) {
            let op = *self.rng.pick(&["++", "--"]);
            E::Inc {
                name: v.name,
                global: v.global,
                op,
                prefix: self.rng.chance(50),
            }
        } else {
            let ops: &[&'static str] = if self.cfg.bitwise {
                &["=", "=", "+=", "-=", "&=", "|=", "^="]
            } else {
                &["=", "=", "+=", "-="]
            };
            let op = *self.rng.pick(ops);
            E::Set {
                name: v.name,
                global: v.global,
                op,
                rhs: Box::new(self.expr(depth)),
            }
        }
    }

    pub(super) fn cond(&mut self, depth: usize) -> E {
        let w = self.rng.below(100);
        let d = depth.saturating_sub(1);
        match w {
            0..=54 => {
                let op = *self.rng.pick(&["==", "!=", "<", "<=", ">", ">="]);
                let a = self.expr(d);
                let b = if self.rng.chance(50) {
                    E::Const(self.constant())
                } else {
                    self.expr(d)
                };
                E::Bin(op, Box::new(a), Box::new(b))
            }
            55..=69 if depth > 0 => {
                let op = *self.rng.pick(&["&&", "||"]);
                E::Logic(op, Box::new(self.cond(d)), Box::new(self.cond(d)))
            }
            70..=77 if depth > 0 => E::Not(Box::new(self.cond(d))),
            78..=81 if self.cfg.nondet => E::Nondet,
            _ => self.expr(d),
        }
    }

    // ---- statements ----
}
