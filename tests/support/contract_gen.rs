//! Random Cimple programs with ACSL contracts, for the consistency tests of
//! the contract engine: loop-free functions over two globals and one or
//! two parameters, with `requires`, `ensures` (`\result`, `\old`),
//! `assigns`, `if`/`else`, `//@ assert` and calls of earlier functions; a
//! `main` that calls them. Linear arithmetic and small constants, so the
//! interpreter can enumerate the inputs around 0.

#![allow(dead_code)]

use super::gen::Rng;

/// A generated program and what a test needs to know about it.
pub struct Generated {
    pub text: String,
    /// Functions that call a function with a contract (their VCs rest on
    /// the callee's contract, not on its body).
    pub calls_contracts: Vec<String>,
}

struct Fn {
    name: String,
    params: usize,
    contract: bool,
}

struct G<'r> {
    r: &'r mut Rng,
}

const OPS: &[&str] = &["<", "<=", "==", "!=", ">", ">="];

impl G<'_> {
    fn constant(&mut self) -> i64 {
        self.r.range(-3, 3)
    }

    fn expr(&mut self, vars: &[String]) -> String {
        let v = self.r.pick(vars).clone();
        match self.r.below(6) {
            0 => self.constant().to_string(),
            1 | 2 => v,
            3 => format!("{v} + {}", self.constant()),
            4 => format!("{v} - {}", self.r.pick(vars)),
            _ => format!("2 * {v}"),
        }
    }

    fn atom(&mut self, vars: &[String]) -> String {
        let a = self.expr(vars);
        let op = *self.r.pick(OPS);
        let b = if self.r.chance(50) {
            self.constant().to_string()
        } else {
            self.expr(vars)
        };
        format!("{a} {op} {b}")
    }

    /// A formula: an atom, a conjunction, or an implication.
    fn formula(&mut self, vars: &[String]) -> String {
        match self.r.below(5) {
            0 => format!("{} && {}", self.atom(vars), self.atom(vars)),
            1 => format!("{} ==> {}", self.atom(vars), self.atom(vars)),
            _ => self.atom(vars),
        }
    }

    fn block(&mut self, fns: &[Fn], vars: &[String], assignable: &[String], depth: usize, calls: &mut bool) -> String {
        let n = 1 + self.r.below(3) as usize;
        let mut out = String::new();
        let pad = "  ".repeat(depth + 1);
        for _ in 0..n {
            match self.r.below(if depth < 2 { 6 } else { 4 }) {
                0 | 1 => {
                    let x = self.r.pick(assignable).clone();
                    out.push_str(&format!("{pad}{x} = {};\n", self.expr(vars)));
                }
                2 => out.push_str(&format!("{pad}//@ assert {};\n", self.formula(vars))),
                3 if !fns.is_empty() => {
                    let f = self.r.pick(fns);
                    let args: Vec<String> = (0..f.params).map(|_| self.expr(vars)).collect();
                    let x = self.r.pick(assignable).clone();
                    *calls |= f.contract;
                    out.push_str(&format!("{pad}{x} = {}({});\n", f.name, args.join(", ")));
                }
                3 => out.push_str(&format!("{pad}{} = {};\n", self.r.pick(assignable), self.expr(vars))),
                _ => {
                    let c = self.atom(vars);
                    let t = self.block(fns, vars, assignable, depth + 1, calls);
                    let e = self.block(fns, vars, assignable, depth + 1, calls);
                    out.push_str(&format!("{pad}if ({c}) {{\n{t}{pad}}} else {{\n{e}{pad}}}\n"));
                }
            }
        }
        out
    }
}

pub fn program(seed: u64) -> Generated {
    let mut rng = Rng::new(seed ^ 0x5eed_c0de);
    let mut g = G { r: &mut rng };
    let globals = ["g0".to_string(), "g1".to_string()];
    let mut text = String::from("int g0, g1;\n\n");
    let mut fns: Vec<Fn> = Vec::new();
    let mut calls_contracts = Vec::new();
    let count = 1 + g.r.below(3) as usize;
    for k in 0..count {
        let name = format!("f{k}");
        let params: Vec<String> = ["a", "b"][..1 + g.r.below(2) as usize]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let contract = g.r.chance(80);
        let mut inputs = params.clone();
        inputs.extend(globals.iter().cloned());
        if contract {
            let mut clauses = Vec::new();
            if g.r.chance(70) {
                clauses.push(format!("requires {};", g.formula(&inputs)));
            }
            let mut after = inputs.clone();
            after.push("\\result".into());
            after.push("\\old(g0)".into());
            for _ in 0..1 + g.r.below(2) {
                clauses.push(format!("ensures {};", g.formula(&after)));
            }
            match g.r.below(4) {
                0 => clauses.push("assigns \\nothing;".into()),
                1 => clauses.push("assigns g0;".into()),
                2 => clauses.push("assigns g0, g1;".into()),
                _ => {}
            }
            text.push_str(&format!("/*@ {} */\n", clauses.join("\n    ")));
        }
        let decl: Vec<String> = params.iter().map(|p| format!("int {p}")).collect();
        text.push_str(&format!("int {name}({}) {{\n", decl.join(", ")));
        let mut vars = inputs.clone();
        text.push_str(&format!("  int x = {};\n", g.expr(&vars)));
        vars.push("x".into());
        let mut assignable: Vec<String> = vec!["x".into()];
        assignable.extend(globals.iter().cloned());
        assignable.extend(params.iter().cloned());
        let mut calls = false;
        text.push_str(&g.block(&fns, &vars, &assignable, 0, &mut calls));
        text.push_str(&format!("  return {};\n}}\n\n", g.expr(&vars)));
        if calls {
            calls_contracts.push(name.clone());
        }
        fns.push(Fn {
            name,
            params: params.len(),
            contract,
        });
    }
    text.push_str("int main(void) {\n  int r = 0;\n");
    for f in &fns {
        let args: Vec<String> = (0..f.params).map(|_| g.constant().to_string()).collect();
        text.push_str(&format!("  r = r + {}({});\n", f.name, args.join(", ")));
    }
    text.push_str("  return r;\n}\n");
    if fns.iter().any(|f| f.contract) {
        calls_contracts.push("main".into());
    }
    Generated { text, calls_contracts }
}

/// A pointer function's parameters: two pointers to `int`, or one pointer
/// to an array of two.
#[derive(Clone, Copy, PartialEq)]
enum Shape {
    Two,
    Array,
    /// `int *p, int *q` with `p[0]`, `p[1]` and `*q`: `q` may point to
    /// `p[1]` (`f(arr, &arr[1])`), aliasing at an offset.
    Pair,
}

struct PtrFn {
    name: String,
    shape: Shape,
    contract: bool,
}

impl G<'_> {
    /// A formula over the pointed-to values (and, after the call,
    /// `\old` of them and `\result`).
    fn ptr_formula(&mut self, terms: &[String]) -> String {
        let terms: Vec<String> = terms.to_vec();
        self.formula(&terms)
    }

    /// Statements writing through the pointers, `x` and `g1`.
    fn ptr_block(&mut self, reads: &[String], writes: &[String], depth: usize) -> String {
        let pad = "  ".repeat(depth + 1);
        let mut out = String::new();
        // Small bodies: every access through a pointer splits the paths a
        // VC follows over the objects it may reach.
        for _ in 0..1 + self.r.below(if depth == 0 { 2 } else { 1 }) {
            match self.r.below(if depth < 1 { 5 } else { 3 }) {
                0 | 1 => {
                    let w = self.r.pick(writes).clone();
                    out.push_str(&format!("{pad}{w} = {};\n", self.expr(reads)));
                }
                2 => out.push_str(&format!("{pad}//@ assert {};\n", self.formula(reads))),
                _ => {
                    let c = self.atom(reads);
                    let t = self.ptr_block(reads, writes, depth + 1);
                    let e = self.ptr_block(reads, writes, depth + 1);
                    out.push_str(&format!("{pad}if ({c}) {{\n{t}{pad}}} else {{\n{e}{pad}}}\n"));
                }
            }
        }
        out
    }
}

/// Random programs whose functions take pointers, with ACSL contracts
/// over the memory they reach: `\valid`, `\separated`, `\old(*p)`,
/// `assigns *p, p[0..1]`; `main` calls them on globals, an array and a
/// local whose addresses it takes (aliased or not), or on `NULL`.
pub fn pointer_program(seed: u64) -> Generated {
    let mut rng = Rng::new(seed ^ 0x9017_7e55);
    let mut g = G { r: &mut rng };
    let mut text = String::from("int g0, g1;\nint arr[2];\n\n");
    let mut fns: Vec<PtrFn> = Vec::new();
    for k in 0..1 + g.r.below(2) as usize {
        let name = format!("f{k}");
        let shape = match g.r.below(10) {
            0..=3 => Shape::Two,
            4..=6 => Shape::Pair,
            _ => Shape::Array,
        };
        let (cells, params): (Vec<&str>, &str) = match shape {
            Shape::Two => (vec!["*p", "*q"], "int *p, int *q"),
            Shape::Pair => (vec!["p[0]", "p[1]", "*q"], "int *p, int *q"),
            Shape::Array => (vec!["p[0]", "p[1]"], "int *p"),
        };
        let cells: Vec<String> = cells.iter().map(|c| c.to_string()).collect();
        let contract = g.r.chance(85);
        if contract {
            let mut req = Vec::new();
            match shape {
                Shape::Two => {
                    if g.r.chance(85) {
                        req.push("\\valid(p)".to_string());
                    }
                    if g.r.chance(85) {
                        req.push("\\valid(q)".to_string());
                    }
                    if g.r.chance(50) {
                        req.push("\\separated(p, q)".to_string());
                    }
                }
                Shape::Pair => {
                    if g.r.chance(85) {
                        req.push("\\valid(p + (0..1)) && \\valid(q)".to_string());
                    }
                    if g.r.chance(40) {
                        req.push("\\separated(p + (0..1), q)".to_string());
                    }
                }
                Shape::Array => {
                    if g.r.chance(85) {
                        req.push(
                            if g.r.chance(50) {
                                "\\valid(p + (0..1))"
                            } else {
                                "\\valid_read(p + (0..1))"
                            }
                            .to_string(),
                        );
                    }
                }
            }
            let mut before = cells.clone();
            before.push("g1".into());
            if g.r.chance(50) {
                req.push(g.ptr_formula(&before));
            }
            let mut clauses = Vec::new();
            if !req.is_empty() {
                clauses.push(format!("requires {};", req.join(" && ")));
            }
            let mut after = cells.clone();
            after.extend(cells.iter().map(|c| format!("\\old({c})")));
            after.push("\\result".into());
            after.push("g1".into());
            clauses.push(format!("ensures {};", g.ptr_formula(&after)));
            let assigns = match (shape, g.r.below(4)) {
                (_, 0) => Some("\\nothing"),
                (Shape::Two, 1) => Some("*p"),
                (Shape::Two, 2) => Some("*p, *q, g1"),
                (Shape::Pair, 1) => Some("p[1]"),
                (Shape::Pair, 2) => Some("p[0..1], *q"),
                (Shape::Array, 1) => Some("p[0..1], g1"),
                (Shape::Array, 2) => Some("p[0]"),
                _ => None,
            };
            if let Some(a) = assigns {
                clauses.push(format!("assigns {a};"));
            }
            text.push_str(&format!("/*@ {} */\n", clauses.join("\n    ")));
        }
        text.push_str(&format!("int {name}({params}) {{\n"));
        let mut reads = cells.clone();
        reads.push("g1".into());
        text.push_str(&format!("  int x = {};\n", g.expr(&reads)));
        reads.push("x".into());
        let mut writes = cells.clone();
        writes.push("x".into());
        writes.push("g1".into());
        text.push_str(&g.ptr_block(&reads, &writes, 0));
        text.push_str(&format!("  return {};\n}}\n\n", g.expr(&reads)));
        fns.push(PtrFn { name, shape, contract });
    }
    text.push_str("int main(void) {\n  int l = g0 + 1;\n  int r = 0;\n");
    let two = ["&g0", "&g1", "&arr[0]", "&arr[1]", "&l", "0"];
    let arrays = ["arr", "&arr[1]", "&g0", "0"];
    let seconds = ["&arr[1]", "&arr[1]", "arr", "&g0", "&l", "0"];
    for f in &fns {
        let args: Vec<String> = match f.shape {
            Shape::Two => vec![g.r.pick(&two).to_string(), g.r.pick(&two).to_string()],
            Shape::Pair => vec!["arr".to_string(), g.r.pick(&seconds).to_string()],
            Shape::Array => vec![g.r.pick(&arrays).to_string()],
        };
        text.push_str(&format!("  r = r + {}({});\n", f.name, args.join(", ")));
    }
    text.push_str("  return r;\n}\n");
    let mut calls_contracts = Vec::new();
    if fns.iter().any(|f| f.contract) {
        calls_contracts.push("main".into());
    }
    Generated { text, calls_contracts }
}
