//! Statements of the generated programs (`gen.rs`): assignments and
//! updates, calls, blocks, `if`, loops and `switch` (with its typed
//! labels).

use super::*;

impl Gen<'_> {
    pub(super) fn stmt(&mut self, depth: usize) {
        let w = self.rng.below(105);
        let nested = depth < self.cfg.max_depth;
        match w {
            0..=29 => self.assign(),
            30..=39 => self.update(),
            40..=51 if nested => self.if_stmt(depth),
            52..=61 if nested && self.loop_depth < self.cfg.max_loop_depth => self.loop_stmt(depth),
            62..=67 if self.cfg.errors => {
                let c = self.likely_true();
                self.line(&format!("__VERIFIER_assert({});", c.render_top()));
            }
            68..=72 if !self.procs.is_empty() => self.call_stmt(),
            73..=76 if self.cfg.nondet => {
                let targets = self.scalars(true);
                if let Some(v) = self.pick_var(&targets) {
                    self.line(&format!("{} = __VERIFIER_nondet_int();", v.name));
                } else {
                    self.assign();
                }
            }
            77..=79 if self.cfg.errors => {
                let c = self.full_cond(2);
                self.line(&format!("if ({}) {{", c.render_top()));
                self.line("    reach_error();");
                self.line("}");
            }
            80..=81 if self.cfg.errors => {
                let c = self.full_cond(2);
                self.line(&format!("if ({}) {{", c.render_top()));
                if self.rng.chance(50) {
                    self.line("    abort();");
                } else {
                    self.line("    exit(0);");
                }
                self.line("}");
            }
            82..=84 => {
                let c = self.full_cond(2);
                self.line(&format!("if ({}) {{", c.render_top()));
                if self.returns_int {
                    let e = self.full_expr(2);
                    self.line(&format!("    return {};", e.render_top()));
                } else {
                    self.line("    return;");
                }
                self.line("}");
            }
            85..=88 if !self.breakables.is_empty() => {
                let continue_ok = self.breakables.iter().rev().find_map(|b| match b {
                    Breakable::Loop { continue_ok } => Some(*continue_ok),
                    Breakable::Switch => None,
                }) == Some(true);
                let what = if continue_ok && self.rng.chance(50) {
                    "continue"
                } else {
                    "break"
                };
                let c = self.full_cond(2);
                self.line(&format!("if ({}) {{", c.render_top()));
                self.line(&format!("    {what};"));
                self.line("}");
            }
            89..=90 if self.cfg.errors => {
                let c = self.likely_true();
                self.line(&format!("__VERIFIER_assume({});", c.render_top()));
            }
            91..=93 if nested => self.switch_stmt(depth),
            94..=96 => {
                // A block-local variable (initialised in `main`, where an
                // uninitialised one would be an input fixed for the run).
                // In a nested block it may hide a variable of the same name.
                let innermost: Vec<String> = self
                    .scopes
                    .last()
                    .expect("a scope")
                    .iter()
                    .map(|v| v.name.clone())
                    .collect();
                let hideable: Vec<VarInfo> = self
                    .scalars(true)
                    .into_iter()
                    .filter(|v| !innermost.contains(&v.name))
                    .collect();
                let name = match self.pick_var(&hideable) {
                    Some(v) if depth > 0 && self.rng.chance(30) => v.name,
                    _ => {
                        self.fresh += 1;
                        format!("b{}", self.fresh - 1)
                    }
                };
                let ty = self.scalar_type();
                if !self.in_main && self.rng.chance(30) {
                    self.line(&format!("{ty} {name};"));
                } else {
                    // In C the new variable is in scope in its own initialiser:
                    // naming it there would read it uninitialised.
                    let mut e = E::Const(self.constant());
                    for _ in 0..20 {
                        let x = self.full_expr(2);
                        if !x.read_set().iter().chain(&x.write_set()).any(|(n, _)| *n == name) {
                            e = x;
                            break;
                        }
                    }
                    self.line(&format!("{ty} {name} = {};", e.render_top()));
                }
                self.declare(&name, None, true);
            }
            97 => {
                // A comma-separated pair of assignments without calls.
                let targets = self.scalars(true);
                if targets.len() >= 2 {
                    let a = self.pick_var(&targets).expect("not empty");
                    let b = self.pick_var(&targets).expect("not empty");
                    let ea = self.plain_expr();
                    let eb = self.plain_expr();
                    self.line(&format!(
                        "{} = {}, {} = {};",
                        a.name,
                        ea.render_top(),
                        b.name,
                        eb.render_top()
                    ));
                } else {
                    self.assign();
                }
            }
            98..=100 if self.has_goto => {
                let c = self.full_cond(2);
                self.line(&format!("if ({}) {{", c.render_top()));
                self.line("    goto out;");
                self.line("}");
            }
            101..=104 => {
                // A chained assignment `x = y = e;`.
                let targets = self.scalars(true);
                let (Some(a), Some(b)) = (self.pick_var(&targets), self.pick_var(&targets)) else {
                    return self.assign();
                };
                let rhs = self.full_expr(2);
                let inner = E::Set {
                    name: b.name,
                    global: b.global,
                    op: "=",
                    rhs: Box::new(rhs),
                };
                // Not `x = x = e`: two writes without a sequence point.
                if inner.ordered() && !inner.writes_var(&a.name) {
                    self.line(&format!("{} = {};", a.name, inner.render_top()));
                } else {
                    self.assign();
                }
            }
            _ => self.assign(),
        }
    }

    pub(super) fn pick_var(&mut self, vars: &[VarInfo]) -> Option<VarInfo> {
        if vars.is_empty() {
            None
        } else {
            Some(self.rng.pick(vars).clone())
        }
    }

    /// An expression without calls, `nondet` or risky operations.
    pub(super) fn plain_expr(&mut self) -> E {
        for _ in 0..20 {
            let e = self.expr(2);
            if e.pure() {
                return e;
            }
        }
        E::Const(self.constant())
    }

    /// A condition that holds in most runs (assertions that always fail
    /// would end every run early).
    pub(super) fn likely_true(&mut self) -> E {
        if self.rng.chance(30) {
            return self.full_cond(2);
        }
        for _ in 0..20 {
            let e = self.expr(2);
            let bound = self.rng.range(20, 60);
            let c = match self.rng.below(3) {
                0 => E::Bin("<", Box::new(e), Box::new(E::Const(bound))),
                1 => E::Bin(">", Box::new(e), Box::new(E::Const(-bound))),
                _ => E::Bin("!=", Box::new(e), Box::new(E::Const(bound))),
            };
            if c.ordered() {
                return c;
            }
        }
        E::Const(1)
    }

    /// `x = e;` or `a[i] = e;`.
    pub(super) fn assign(&mut self) {
        let scalars = self.scalars(true);
        let arrays: Vec<VarInfo> = self.arrays().into_iter().filter(|a| a.assignable).collect();
        if !arrays.is_empty() && (scalars.is_empty() || self.rng.chance(25)) {
            let a = self.rng.pick(&arrays).clone();
            let len = a.len.expect("an array");
            for _ in 0..20 {
                let index = self.index(len, true);
                let lhs = E::Elem {
                    name: a.name.clone(),
                    global: a.global,
                    len,
                    index: Box::new(index.clone()),
                };
                let rhs = self.full_expr(self.cfg.max_expr_depth);
                // The place and the value are unsequenced in C.
                let ok = index.ordered() && !(lhs.fails() && rhs.fails()) && independent(&index, &rhs);
                if ok {
                    self.line(&format!("{} = {};", lhs.render(), rhs.render_top()));
                    return;
                }
            }
            return;
        }
        let Some(v) = self.pick_var(&scalars) else {
            return;
        };
        for _ in 0..20 {
            let rhs = self.full_expr(self.cfg.max_expr_depth);
            if !rhs.writes_var(&v.name) {
                self.line(&format!("{} = {};", v.name, rhs.render_top()));
                return;
            }
        }
    }

    /// `x += e`, `x -= e`, `x *= c`, `x /= e`, `x %= e`, `x++`, `--x`, ...
    pub(super) fn update(&mut self) {
        let scalars = self.scalars(true);
        let arrays: Vec<VarInfo> = self.arrays().into_iter().filter(|a| a.assignable).collect();
        let lhs = if !arrays.is_empty() && (scalars.is_empty() || self.rng.chance(20)) {
            let a = self.rng.pick(&arrays).clone();
            let len = a.len.expect("an array");
            let mut index = E::Const(0);
            for _ in 0..20 {
                let i = self.index(len, true);
                if i.ordered() && i.write_set().is_empty() {
                    index = i;
                    break;
                }
            }
            E::Elem {
                name: a.name,
                global: a.global,
                len,
                index: Box::new(index),
            }
        } else {
            let Some(v) = self.pick_var(&scalars) else {
                return;
            };
            E::Var {
                name: v.name,
                global: v.global,
            }
        };
        let target = lhs.render();
        let w = self.rng.below(100);
        match w {
            0..=19 => self.line(&format!("{target}++;")),
            20..=29 => self.line(&format!("{target}--;")),
            30..=34 => self.line(&format!("++{target};")),
            35..=39 => self.line(&format!("--{target};")),
            40..=49 => {
                let c = self.rng.range(-3, 3);
                self.line(&format!("{target} *= {c};"));
            }
            50..=54 if self.cfg.bitwise => {
                // A shift by a constant (32 is undefined: an error).
                let op = *self.rng.pick(&["<<=", ">>="]);
                let k = *self.rng.pick(&[1, 2, 3, 8, 31, 32]);
                self.line(&format!("{target} {op} {k};"));
            }
            50..=59 if self.cfg.division => {
                let op = *self.rng.pick(&["/=", "%="]);
                // Not both a risky index and a risky division (see `ordered`).
                let den = if self.rng.chance(60) || lhs.fails() {
                    E::Const(*self.rng.pick(&[-3, -2, 2, 3, 4]))
                } else {
                    self.plain_expr()
                };
                self.line(&format!("{target} {op} {};", den.render()));
            }
            _ => {
                let op = *self.rng.pick(&["+=", "-="]);
                // The old value is read unsequenced with the right-hand side.
                let mut rhs = E::Const(self.constant());
                for _ in 0..20 {
                    let e = self.full_expr(2);
                    if !(lhs.fails() && e.fails()) && independent(&lhs, &e) {
                        rhs = e;
                        break;
                    }
                }
                self.line(&format!("{target} {op} {};", rhs.render_top()));
            }
        }
    }

    pub(super) fn call_stmt(&mut self) {
        let p = self.rng.pick(&self.procs).clone();
        for _ in 0..20 {
            let args = self.args(&p, 1);
            let call = E::Call(p.name.clone(), args);
            if call.ordered() {
                self.line(&format!("{};", call.render()));
                return;
            }
        }
        let args: Vec<String> = (0..p.params).map(|_| self.constant().to_string()).collect();
        self.line(&format!("{}({});", p.name, args.join(", ")));
    }

    /// Arguments of a call; a recursive call passes the depth minus one.
    pub(super) fn args(&mut self, p: &ProcSig, depth: usize) -> Vec<E> {
        (0..p.params)
            .map(|k| {
                if k == 0 && p.name == self.current {
                    let depth = E::Var {
                        name: "p0".into(),
                        global: false,
                    };
                    E::Bin("-", Box::new(depth), Box::new(E::Const(1)))
                } else {
                    self.expr(depth)
                }
            })
            .collect()
    }

    pub(super) fn block(&mut self, depth: usize) {
        self.indent += 1;
        self.scopes.push(Vec::new());
        let n = self.rng.range(1, self.cfg.max_stmts as i64);
        for _ in 0..n {
            self.stmt(depth + 1);
        }
        self.scopes.pop();
        self.indent -= 1;
    }

    pub(super) fn if_stmt(&mut self, depth: usize) {
        let c = self.full_cond(self.cfg.max_expr_depth);
        self.line(&format!("if ({}) {{", c.render_top()));
        self.block(depth);
        if self.rng.chance(50) {
            self.line("} else {");
            self.block(depth);
        }
        self.line("}");
    }

    pub(super) fn loop_stmt(&mut self, depth: usize) {
        let c = format!("i{}", self.loop_depth);
        let k = self.rng.range(0, self.cfg.loop_bound);
        let kind = self.rng.below(6);
        self.loop_depth += 1;
        match kind {
            0 | 1 => {
                self.line(&format!("for ({c} = 0; {c} < {k}; {c}++) {{"));
                self.breakables.push(Breakable::Loop { continue_ok: true });
                self.block(depth);
            }
            2 => {
                self.line(&format!("for ({c} = {k}; {c} > 0; {c}--) {{"));
                self.breakables.push(Breakable::Loop { continue_ok: true });
                self.block(depth);
            }
            3 => {
                self.line(&format!("{c} = 0;"));
                let guard = if self.rng.chance(50) {
                    let extra = self.full_cond(2);
                    format!("{c} < {k} && {}", extra.render())
                } else {
                    format!("{c} < {k}")
                };
                self.line(&format!("while ({guard}) {{"));
                // Counting first makes `continue` safe.
                let count_first = self.rng.chance(50);
                if count_first {
                    self.line(&format!("    {c}++;"));
                }
                self.breakables.push(Breakable::Loop {
                    continue_ok: count_first,
                });
                self.block(depth);
                if !count_first {
                    self.line(&format!("    {c}++;"));
                }
            }
            4 => {
                self.line(&format!("{c} = 0;"));
                self.line("do {");
                let count_first = self.rng.chance(50);
                if count_first {
                    self.line(&format!("    {c}++;"));
                }
                self.breakables.push(Breakable::Loop {
                    continue_ok: count_first,
                });
                self.block(depth);
                if !count_first {
                    self.line(&format!("    {c}++;"));
                }
                self.breakables.pop();
                self.loop_depth -= 1;
                self.line(&format!("}} while ({c} < {k});"));
                return;
            }
            _ => {
                // Comma expressions in the header.
                let targets = self.scalars(true);
                let Some(v) = self.pick_var(&targets) else {
                    self.line(&format!("for ({c} = 0; {c} < {k}; {c}++) {{"));
                    self.breakables.push(Breakable::Loop { continue_ok: true });
                    self.block(depth);
                    self.breakables.pop();
                    self.loop_depth -= 1;
                    self.line("}");
                    return;
                };
                let init = self.plain_expr();
                let x = &v.name;
                self.line(&format!(
                    "for ({c} = 0, {x} = {}; {c} < {k}; {c}++, {x} = {x} + {c}) {{",
                    init.render_top()
                ));
                self.breakables.push(Breakable::Loop { continue_ok: true });
                self.block(depth);
            }
        }
        self.breakables.pop();
        self.loop_depth -= 1;
        self.line("}");
    }

    pub(super) fn switch_stmt(&mut self, depth: usize) {
        let e = self.full_expr(2);
        // With C's types, the controlling expression is of a chosen type
        // and the labels of every type: C converts each label to the
        // controlling expression's promoted type (C11 6.8.4.2p5).
        let promoted = if self.cfg.c_types && self.rng.chance(60) {
            let (ty, promoted) = *self.rng.pick(SWITCH_TYPES);
            self.line(&format!("switch (({ty})({})) {{", e.render_top()));
            Some(promoted)
        } else {
            self.line(&format!("switch ({}) {{", e.render_top()));
            None
        };
        self.breakables.push(Breakable::Switch);
        let ncases = self.rng.range(1, 3);
        // `default` may come anywhere, even first (then cases fall into it).
        let default_at = if self.rng.chance(60) {
            Some(self.rng.range(0, ncases))
        } else {
            None
        };
        let mut used = Vec::new();
        for k in 0..=ncases {
            if default_at == Some(k) {
                self.line("default: {");
                self.block(depth);
                self.line("}");
                if self.rng.chance(50) {
                    self.line("    break;");
                }
            }
            if k == ncases {
                break;
            }
            let (label, v) = match promoted {
                Some(t) if self.rng.chance(60) => {
                    let (text, v) = *self.rng.pick(TYPED_LABELS);
                    (text.to_string(), t.convert(v))
                }
                _ => {
                    let v = self.rng.range(-2, 4) as i128;
                    (v.to_string(), promoted.map_or(v, |t| t.convert(v)))
                }
            };
            if used.contains(&v) {
                continue;
            }
            used.push(v);
            self.line(&format!("case {label}: {{"));
            self.block(depth);
            self.line("}");
            if self.rng.chance(70) {
                self.line("    break;");
            }
        }
        self.breakables.pop();
        self.line("}");
    }
}

/// A promoted type of a `switch`'s controlling expression.
#[derive(Clone, Copy, Debug)]
pub enum Promoted {
    Int,
    UInt,
    LongLong,
}

impl Promoted {
    /// `v` converted to this type (C11 6.3.1.3, as gcc does).
    pub fn convert(self, v: i128) -> i128 {
        match self {
            Promoted::Int => v as i32 as i128,
            Promoted::UInt => v as u32 as i128,
            Promoted::LongLong => v as i64 as i128,
        }
    }
}

/// Types of a `switch`'s controlling expression, with their promotion.
const SWITCH_TYPES: &[(&str, Promoted)] = &[
    ("int", Promoted::Int),
    ("unsigned", Promoted::UInt),
    ("char", Promoted::Int),
    ("unsigned char", Promoted::Int),
    ("short", Promoted::Int),
    ("unsigned short", Promoted::Int),
    ("_Bool", Promoted::Int),
    ("long long", Promoted::LongLong),
];

/// `case` labels of several types, with their value (in their own type).
const TYPED_LABELS: &[(&str, i128)] = &[
    ("-1", -1),
    ("-1u", 4294967295),
    ("4294967295u", 4294967295),
    ("4294967294u", 4294967294),
    ("0xffffffff", 4294967295),
    ("2147483648u", 2147483648),
    ("4294967296", 4294967296),
    ("255", 255),
    ("'\\xff'", -1),
    ("(unsigned char)-1", 255),
    ("(char)255", -1),
    ("(short)65535", -1),
    ("65535", 65535),
    ("(_Bool)5", 1),
    ("(long long)-2", -2),
    ("(unsigned)-2", 4294967294),
];
