//! A small random generator of Cimple programs for differential tests.
//!
//! `program(seed, &cfg)` returns a program that is valid Cimple *and* valid
//! C with the same meaning, as long as values stay small (C's `int` is 32
//! bits, Cimple's integers are unbounded). It uses a few `int` globals (one
//! may be an array), 1-3 procedures with `int` parameters and results,
//! locals, `=`/`+=`/`-=`/`*=`/`/=`/`%=`/`++`/`--`, arithmetic, comparisons,
//! `&&`/`||`/`!`/`?:`, `if`/`else`, `switch`, `for`/`while`/`do` loops with
//! bounded counters, `break`/`continue`, arrays indexed by constants and by
//! computed values (so an index may be out of bounds), division and
//! remainder by constants and by variables (so a division by zero may
//! happen), calls inside expressions, assignments and `++`/`--` inside
//! expressions, chained assignments, `static` locals, forward `goto`s,
//! `__VERIFIER_nondet_int()`, `__VERIFIER_assert`, `__VERIFIER_assume`,
//! `reach_error()` and `abort()`. With `c_types`, scalars may also be
//! `unsigned`, `char`, `unsigned char`, `short`, `unsigned short` or `_Bool`,
//! and leaves may be casts, character literals with every escape, and
//! unsigned constants near 0 and 2^32, so conversions and wrap-around are
//! exercised (C's and Cimple's meanings agree: docs/cimple.md).
//!
//! C leaves the evaluation order of most operands unspecified; the
//! generator never puts in operands that C may evaluate in either order two
//! operations whose order could matter: two that may fail or draw a choice
//! (a call, a `nondet`, a division by a variable, an access with a risky
//! index), a write and a read or write of the same variable, or a call and
//! an access to a global (the call may write it).
//!
//! Uninitialised locals of `main` are inputs in Cimple and uninitialised
//! locals of other procedures draw a choice; a C harness has to give them
//! those values (the generator leaves them uninitialised on purpose).
//! Loops never nest deeper than `GenConfig::max_loop_depth`, every loop runs
//! at most `GenConfig::loop_bound` times and a procedure only calls
//! procedures defined before it, so every run terminates.

#![allow(dead_code)]

/// SplitMix64: small, fast, and the same on every machine.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x5DEE_CE66_D1CE_4E5B)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            0
        } else {
            self.next_u64() % n
        }
    }

    /// A number in `lo..=hi`.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        assert!(lo <= hi, "empty range {lo}..={hi}");
        lo + self.below((hi - lo + 1) as u64) as i64
    }

    /// True with the given probability in percent.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    pub fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len() as u64) as usize]
    }
}

/// Knobs of the generator. The defaults keep values far from 32-bit
/// overflow in almost every run.
#[derive(Clone, Debug)]
pub struct GenConfig {
    /// Scalar globals: 1 to this many.
    pub max_globals: usize,
    /// Procedures besides `main`: 0 to this many.
    pub max_procs: usize,
    pub max_params: usize,
    /// Scalar locals per procedure (besides loop counters): 0 to this many.
    pub max_locals: usize,
    /// Statements per block: 1 to this many.
    pub max_stmts: usize,
    /// Nesting of statements (`if`, loops, `switch`).
    pub max_depth: usize,
    pub max_expr_depth: usize,
    pub max_loop_depth: usize,
    /// Each loop runs at most this many times.
    pub loop_bound: i64,
    /// Constants in expressions are drawn from this range.
    pub constants: (i64, i64),
    pub arrays: bool,
    pub division: bool,
    pub nondet: bool,
    /// `__VERIFIER_assert`, `__VERIFIER_assume`, `reach_error()`, `abort()`.
    pub errors: bool,
    /// Calls of procedures inside expressions (calls as statements are
    /// always allowed).
    pub calls_in_exprs: bool,
    /// `(x = e)`, `(x += e)`, `x++`, `--x` inside expressions.
    pub assignments_in_exprs: bool,
    /// `static` locals and forward `goto`s.
    pub statics_and_gotos: bool,
    /// Procedures that call themselves (at most 2 deep: the first parameter
    /// counts down).
    pub recursion: bool,
    /// Scalars of narrow and unsigned types, casts, character literals and
    /// unsigned constants (C's conversions and wrap-around).
    pub c_types: bool,
    /// Uninitialised local arrays in `main` (every element is an input);
    /// when false, `main`'s local array is always initialised, which keeps
    /// the number of inputs small.
    pub input_arrays: bool,
    /// `& | ^ ~ << >>` and `&= |= ^= <<= >>=`, over operands cast to
    /// narrow, unsigned and 64-bit types, with shift amounts at the edges
    /// (0, 31, 32, 63, negative) and computed ones.
    pub bitwise: bool,
}

impl Default for GenConfig {
    fn default() -> Self {
        GenConfig {
            max_globals: 3,
            max_procs: 2,
            max_params: 3,
            max_locals: 3,
            max_stmts: 5,
            max_depth: 3,
            max_expr_depth: 3,
            max_loop_depth: 2,
            loop_bound: 4,
            constants: (-5, 9),
            arrays: true,
            division: true,
            nondet: true,
            errors: true,
            calls_in_exprs: true,
            assignments_in_exprs: true,
            statics_and_gotos: true,
            recursion: true,
            c_types: true,
            input_arrays: true,
            bitwise: true,
        }
    }
}

/// The text of a random program; the same seed and configuration always give
/// the same text.
/// Declarations that `c_types` programs carry and never use.
const UNUSED_DECLS: &[&str] = &[
    "typedef double fc_real;",
    "typedef int (*fc_compar_fn)(const void *, const void *);",
    "extern double atof(const char *nptr);",
    "extern long double strtold(const char *nptr, char **endptr);",
    "extern void qsort(void *base, unsigned int n, unsigned int size, fc_compar_fn compar);",
    "extern int atexit(void (*func)(void));",
    "extern int getloadavg(double loadavg[], int nelem);",
];

/// The file-scope `const int` that sizes some local arrays.
const LA_LEN: &str = "la_len";

pub fn program(seed: u64, cfg: &GenConfig) -> String {
    Gen::new(seed, cfg).program()
}

/// An expression of the generated program, kept as a tree so that the
/// generator can check that C's evaluation order cannot matter.
#[derive(Clone, Debug)]
enum E {
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
type Access = (String, bool);

impl E {
    fn render(&self) -> String {
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
    fn render_top(&self) -> String {
        let s = self.render();
        match self {
            E::Bin(..) | E::Div(..) | E::Shift(..) | E::Logic(..) | E::Ternary(..) | E::Set { .. } | E::Inc { .. } => {
                s[1..s.len() - 1].to_string()
            }
            _ => s,
        }
    }

    fn children(&self) -> Vec<&E> {
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
    fn fails(&self) -> bool {
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
    fn calls(&self) -> bool {
        matches!(self, E::Call(..)) || self.children().iter().any(|c| c.calls())
    }

    fn reads(&self, out: &mut Vec<Access>) {
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

    fn writes(&self, out: &mut Vec<Access>) {
        if let E::Set { name, global, .. } | E::Inc { name, global, .. } = self {
            out.push((name.clone(), *global));
        }
        for c in self.children() {
            c.writes(out);
        }
    }

    fn read_set(&self) -> Vec<Access> {
        let mut v = Vec::new();
        self.reads(&mut v);
        v
    }

    fn write_set(&self) -> Vec<Access> {
        let mut v = Vec::new();
        self.writes(&mut v);
        v
    }

    fn writes_var(&self, name: &str) -> bool {
        self.write_set().iter().any(|(n, _)| n == name)
    }

    fn reads_global(&self) -> bool {
        self.read_set().iter().any(|(_, g)| *g)
    }

    /// Has it no effect at all (so it can go anywhere)?
    fn pure(&self) -> bool {
        !self.fails() && !self.calls() && self.write_set().is_empty()
    }

    /// Does the result not depend on the order in which C evaluates
    /// unsequenced operands (and is it free of undefined behaviour such as
    /// `x = x++`)?
    fn ordered(&self) -> bool {
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
fn independent(a: &E, b: &E) -> bool {
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

#[derive(Clone, Debug)]
struct VarInfo {
    name: String,
    global: bool,
    /// Number of elements for an array.
    len: Option<i64>,
    /// Loop counters are read but never written by generated assignments.
    assignable: bool,
}

#[derive(Clone, Debug)]
struct ProcSig {
    name: String,
    params: usize,
    returns_int: bool,
}

/// What `break` and `continue` would leave.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Breakable {
    /// A loop; `continue` is only safe in `for` loops (the others count at
    /// the end of their body).
    Loop {
        continue_ok: bool,
    },
    Switch,
}

struct Gen<'a> {
    rng: Rng,
    cfg: &'a GenConfig,
    out: String,
    indent: usize,
    procs: Vec<ProcSig>,
    scopes: Vec<Vec<VarInfo>>,
    breakables: Vec<Breakable>,
    loop_depth: usize,
    in_main: bool,
    returns_int: bool,
    fresh: usize,
    /// The procedure ends with label `out:` that `goto out;` jumps to.
    has_goto: bool,
    /// The procedure being generated.
    current: String,
}

impl Gen<'_> {
    fn new(seed: u64, cfg: &GenConfig) -> Gen<'_> {
        Gen {
            rng: Rng::new(seed),
            cfg,
            out: String::new(),
            indent: 0,
            procs: Vec::new(),
            scopes: Vec::new(),
            breakables: Vec::new(),
            loop_depth: 0,
            in_main: false,
            returns_int: true,
            fresh: 0,
            has_goto: false,
            current: String::new(),
        }
    }

    fn line(&mut self, text: &str) {
        for _ in 0..self.indent {
            self.out.push_str("    ");
        }
        self.out.push_str(text);
        self.out.push('\n');
    }

    fn constant(&mut self) -> i64 {
        let (lo, hi) = self.cfg.constants;
        self.rng.range(lo, hi)
    }

    /// The type of a new scalar: mostly `int`.
    fn scalar_type(&mut self) -> &'static str {
        if !self.cfg.c_types || self.rng.chance(60) {
            return "int";
        }
        const TYPES: &[&str] = &[
            "unsigned int",
            "unsigned",
            "char",
            "unsigned char",
            "short",
            "unsigned short",
            "_Bool",
        ];
        TYPES[self.rng.below(TYPES.len() as u64) as usize]
    }

    /// A leaf that only `c_types` programs have: a character literal, an
    /// unsigned constant, or a cast of a smaller expression.
    fn c_leaf(&mut self) -> E {
        const LITERALS: &[&str] = &[
            r"'\0'",
            r"'\a'",
            r"'\b'",
            r"'\f'",
            r"'\n'",
            r"'\r'",
            r"'\t'",
            r"'\v'",
            r"'\\'",
            r"'\''",
            r#"'\"'"#,
            r"'\?'",
            r"'\1'",
            r"'\101'",
            r"'\177'",
            r"'\377'",
            r"'\x41'",
            r"'\x7f'",
            r"'\xff'",
            r"'\x80'",
            "'a'",
            "'0'",
            "0u",
            "1u",
            "2u",
            "4294967295u",
            "4294967294u",
            "2147483647u",
            "2147483648u",
            "0x7fffffff",
            "0xffffffff",
            "255u",
            "256",
            "65535",
            "-2147483647",
        ];
        if self.rng.chance(60) {
            return E::Lit(self.rng.pick(LITERALS).to_string());
        }
        let ty = *self.rng.pick(&[
            "unsigned int",
            "unsigned char",
            "char",
            "short",
            "unsigned short",
            "_Bool",
            "int",
        ]);
        let inner = self.leaf(false);
        E::Cast(ty, Box::new(inner))
    }

    fn program(mut self) -> String {
        self.line("extern int __VERIFIER_nondet_int(void);");
        self.line("extern void __VERIFIER_assert(int cond);");
        self.line("extern void __VERIFIER_assume(int cond);");
        self.line("extern void reach_error(void);");
        self.line("extern void abort(void);");
        self.line("extern void exit(int status);");
        if self.cfg.c_types {
            // Declarations of types the model does not hold, as in a
            // preprocessed glibc header: accepted since nothing uses them.
            for l in UNUSED_DECLS {
                self.line(l);
            }
        }
        if self.cfg.arrays {
            // A length `main`'s uninitialised local array of 3 takes by
            // name (a variable-length array in C whose length is known).
            self.line(&format!("const int {LA_LEN} = 3;"));
        }
        self.line("");
        let mut globals = Vec::new();
        let n = self.rng.range(1, self.cfg.max_globals.max(1) as i64);
        for k in 0..n {
            let name = format!("g{k}");
            if self.rng.chance(50) {
                let (ty, c) = (self.scalar_type(), self.constant());
                self.line(&format!("{ty} {name} = {c};"));
            } else {
                let ty = self.scalar_type();
                self.line(&format!("{ty} {name};"));
            }
            globals.push(VarInfo {
                name,
                global: true,
                len: None,
                assignable: true,
            });
        }
        if self.cfg.arrays && self.rng.chance(70) {
            let len = self.rng.range(2, 5);
            if self.rng.chance(50) {
                let k = self.rng.range(1, len) as usize;
                let vals: Vec<String> = (0..k).map(|_| self.constant().to_string()).collect();
                self.line(&format!("int ga[{len}] = {{{}}};", vals.join(", ")));
            } else {
                self.line(&format!("int ga[{len}];"));
            }
            globals.push(VarInfo {
                name: "ga".into(),
                global: true,
                len: Some(len),
                assignable: true,
            });
        }
        self.scopes.push(globals);
        let nprocs = self.rng.range(0, self.cfg.max_procs as i64);
        for k in 0..nprocs {
            self.line("");
            self.procedure(&format!("f{k}"), false);
        }
        self.line("");
        self.procedure("main", true);
        self.out
    }

    fn procedure(&mut self, name: &str, is_main: bool) {
        self.in_main = is_main;
        self.returns_int = is_main || self.rng.chance(80);
        self.fresh = 0;
        let nparams = if is_main {
            0
        } else {
            self.rng.range(0, self.cfg.max_params as i64) as usize
        };
        self.current = name.to_string();
        // A recursive procedure never changes its first parameter, the depth.
        let recursive = !is_main && self.cfg.recursion && nparams > 0 && self.rng.chance(30);
        let params: Vec<VarInfo> = (0..nparams)
            .map(|k| VarInfo {
                name: format!("p{k}"),
                global: false,
                len: None,
                assignable: !(recursive && k == 0),
            })
            .collect();
        let plist: Vec<String> = params.iter().map(|p| format!("int {}", p.name)).collect();
        let plist = if plist.is_empty() {
            "void".to_string()
        } else {
            plist.join(", ")
        };
        let ret = if self.returns_int { "int" } else { "void" };
        self.line(&format!("{ret} {name}({plist}) {{"));
        self.indent += 1;
        self.scopes.push(params);
        let sig = ProcSig {
            name: name.to_string(),
            params: nparams,
            returns_int: self.returns_int,
        };
        if recursive {
            self.line("if (p0 <= 0 || p0 > 2) {");
            if self.returns_int {
                let e = self.full_expr(2);
                self.line(&format!("    return {};", e.render_top()));
            } else {
                self.line("    return;");
            }
            self.line("}");
            self.procs.push(sig.clone());
        }
        // Loop counters first: they start at 0 and only loops change them.
        for k in 0..self.cfg.max_loop_depth {
            self.line(&format!("int i{k} = 0;"));
            self.declare(&format!("i{k}"), None, false);
        }
        let nlocals = self.rng.range(0, self.cfg.max_locals as i64);
        for k in 0..nlocals {
            let local = if is_main { format!("x{k}") } else { format!("l{k}") };
            // Left uninitialised: an input in `main`, a choice elsewhere.
            let ty = self.scalar_type();
            if self.rng.chance(45) {
                self.line(&format!("{ty} {local};"));
            } else {
                let e = self.full_expr(2);
                self.line(&format!("{ty} {local} = {};", e.render_top()));
            }
            self.declare(&local, None, true);
        }
        if self.cfg.arrays && self.rng.chance(40) {
            let len = self.rng.range(2, 5);
            // Local arrays of other procedures are always initialised: C does
            // not say in which order the elements of `{f(), g()}` are computed.
            if is_main && self.rng.chance(50) && self.cfg.input_arrays {
                let size = if len == 3 { LA_LEN.to_string() } else { len.to_string() };
                self.line(&format!("int la[{size}];"));
            } else {
                let k = self.rng.range(1, len) as usize;
                let vals: Vec<String> = (0..k).map(|_| self.constant().to_string()).collect();
                self.line(&format!("int la[{len}] = {{{}}};", vals.join(", ")));
            }
            self.declare("la", Some(len), true);
        }
        if self.cfg.statics_and_gotos && !is_main && self.rng.chance(30) {
            let c = self.constant();
            self.line(&format!("static int s0 = {c};"));
            self.declare("s0", None, true);
        }
        self.has_goto = self.cfg.statics_and_gotos && self.rng.chance(25);
        let header_len = self.scopes.last().expect("a scope").len();
        let n = self.rng.range(1, self.cfg.max_stmts as i64 + 1);
        for _ in 0..n {
            self.stmt(0);
        }
        if self.has_goto {
            // A `goto out;` may have skipped the declarations that follow the
            // header: what comes after the label must not use them.
            self.scopes.last_mut().expect("a scope").truncate(header_len);
            self.line("out:");
            if !self.returns_int {
                self.line(";");
            }
        }
        if is_main {
            self.line("return 0;");
        } else if self.returns_int {
            let e = self.full_expr(self.cfg.max_expr_depth);
            if self.rng.chance(10) {
                // May fall off the end: Cimple draws the result then.
                let c = self.cond(2);
                self.line(&format!("if ({}) {{", c.render_top()));
                self.line(&format!("    return {};", e.render_top()));
                self.line("}");
            } else {
                self.line(&format!("return {};", e.render_top()));
            }
        }
        self.scopes.pop();
        self.indent -= 1;
        self.line("}");
        if !recursive {
            self.procs.push(sig);
        }
    }

    fn declare(&mut self, name: &str, len: Option<i64>, assignable: bool) {
        self.scopes.last_mut().expect("a scope").push(VarInfo {
            name: name.to_string(),
            global: false,
            len,
            assignable,
        });
    }

    /// Visible variables, innermost first, without shadowed ones.
    fn visible(&self) -> Vec<VarInfo> {
        let mut out: Vec<VarInfo> = Vec::new();
        for scope in self.scopes.iter().rev() {
            for v in scope.iter().rev() {
                if !out.iter().any(|o| o.name == v.name) {
                    out.push(v.clone());
                }
            }
        }
        out
    }

    fn scalars(&self, assignable_only: bool) -> Vec<VarInfo> {
        self.visible()
            .into_iter()
            .filter(|v| v.len.is_none() && (v.assignable || !assignable_only))
            .collect()
    }

    fn arrays(&self) -> Vec<VarInfo> {
        self.visible().into_iter().filter(|v| v.len.is_some()).collect()
    }

    // ---- expressions ----

    /// An expression whose value does not depend on C's evaluation order.
    fn full_expr(&mut self, depth: usize) -> E {
        for _ in 0..20 {
            let e = self.expr(depth);
            if e.ordered() {
                return e;
            }
        }
        self.leaf(false)
    }

    /// A condition whose value does not depend on C's evaluation order.
    fn full_cond(&mut self, depth: usize) -> E {
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

    fn leaf(&mut self, risky_ok: bool) -> E {
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
    fn index(&mut self, len: i64, risky_ok: bool) -> E {
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

    fn expr(&mut self, depth: usize) -> E {
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
    fn bitwise(&mut self, d: usize) -> E {
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
    fn set_or_inc(&mut self, depth: usize) -> E {
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

    fn cond(&mut self, depth: usize) -> E {
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

    fn stmt(&mut self, depth: usize) {
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

    fn pick_var(&mut self, vars: &[VarInfo]) -> Option<VarInfo> {
        if vars.is_empty() {
            None
        } else {
            Some(self.rng.pick(vars).clone())
        }
    }

    /// An expression without calls, `nondet` or risky operations.
    fn plain_expr(&mut self) -> E {
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
    fn likely_true(&mut self) -> E {
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
    fn assign(&mut self) {
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
    fn update(&mut self) {
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

    fn call_stmt(&mut self) {
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
    fn args(&mut self, p: &ProcSig, depth: usize) -> Vec<E> {
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

    fn block(&mut self, depth: usize) {
        self.indent += 1;
        self.scopes.push(Vec::new());
        let n = self.rng.range(1, self.cfg.max_stmts as i64);
        for _ in 0..n {
            self.stmt(depth + 1);
        }
        self.scopes.pop();
        self.indent -= 1;
    }

    fn if_stmt(&mut self, depth: usize) {
        let c = self.full_cond(self.cfg.max_expr_depth);
        self.line(&format!("if ({}) {{", c.render_top()));
        self.block(depth);
        if self.rng.chance(50) {
            self.line("} else {");
            self.block(depth);
        }
        self.line("}");
    }

    fn loop_stmt(&mut self, depth: usize) {
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

    fn switch_stmt(&mut self, depth: usize) {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_program() {
        let cfg = GenConfig::default();
        assert_eq!(program(7, &cfg), program(7, &cfg));
        assert_ne!(program(7, &cfg), program(8, &cfg));
    }

    #[test]
    fn rendering_keeps_order_checks() {
        let call = E::Call("f0".into(), vec![]);
        let g = E::Var {
            name: "g0".into(),
            global: true,
        };
        assert!(!E::Bin("+", Box::new(call.clone()), Box::new(g.clone())).ordered());
        assert!(E::Logic("&&", Box::new(call.clone()), Box::new(call)).ordered());
        let inc = E::Inc {
            name: "g0".into(),
            global: true,
            op: "++",
            prefix: false,
        };
        assert!(!E::Bin("+", Box::new(inc.clone()), Box::new(g)).ordered());
        assert!(E::Bin("+", Box::new(inc), Box::new(E::Const(1))).ordered());
    }
}
