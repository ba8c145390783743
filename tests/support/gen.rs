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

#[path = "gen_expr.rs"]
mod gen_expr;
#[path = "gen_stmt.rs"]
mod gen_stmt;
use gen_expr::{independent, E};

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
}

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
