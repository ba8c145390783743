//! Generated float programs: globals of type `double`, `float`, `int`,
//! `unsigned`, `long long` set from a pool of values (NaN, infinities,
//! signed zeros, subnormals, values near the integer types' ends), and
//! results computed from them by random expressions over `+ - * /`, unary
//! minus, casts between every pair, comparisons, `!`, `?:` and the
//! `<math.h>` functions Cimple models. No result is folded by either
//! compiler: every operand is a global read. The same seed gives the same
//! program.

use super::xorshift::Rng;

/// Literal values the inputs take (as C literals of their type).
const DOUBLES: &[&str] = &[
    "0.0",
    "-0.0",
    "1.0",
    "-1.5",
    "0.1",
    "3.0",
    "1e308",
    "-1e308",
    "4.9e-324",
    "2.2250738585072014e-308",
    "2147483647.5",
    "-2147483648.9",
    "1e-3",
    "0x1p-3",
    "123456789.125",
    "0.5",
    "2.5",
    "-2.5",
];
const FLOATS: &[&str] = &[
    "0.0f",
    "-0.0f",
    "1.0f",
    "0.1f",
    "-3.75f",
    "3.4e38f",
    "1e-45f",
    "1.17549435e-38f",
    "16777217.0f",
    "0.5f",
    "2.5f",
    "-1e10f",
];
const INTS: &[&str] = &["0", "1", "-1", "7", "-100", "2147483647", "-2147483647 - 1", "16777217"];

const TYPES: &[&str] = &["double", "float", "int", "unsigned", "long long"];

struct Gen {
    rng: Rng,
    /// Leaves may read the input `x` (a `double`).
    input: bool,
}

impl Gen {
    fn chance(&mut self, percent: u64) -> bool {
        self.rng.below(100) < percent
    }

    /// A `double` or `float` expression.
    fn float_expr(&mut self, depth: u32) -> String {
        let leaf = |g: &mut Gen| {
            if g.input && g.chance(50) {
                return "x".to_string();
            }
            let ty = if g.chance(50) { "d" } else { "f" };
            format!("{ty}{}", g.rng.below(3))
        };
        if depth == 0 || self.chance(25) {
            return leaf(self);
        }
        match self.rng.below(9) {
            0..=3 => {
                let op = self.rng.pick(&["+", "-", "*", "/"]);
                format!("({} {op} {})", self.float_expr(depth - 1), self.float_expr(depth - 1))
            }
            4 => format!("(-{})", self.float_expr(depth - 1)),
            5 => {
                let ty = self.rng.pick(&["float", "double"]);
                format!("(({ty}){})", self.any_expr(depth - 1))
            }
            6 => {
                let f = self.rng.pick(&["fabs", "sqrt", "floor", "ceil", "trunc", "round"]);
                let (f, arg) = if self.chance(50) {
                    (f.to_string(), self.float_expr(depth - 1))
                } else {
                    (format!("{f}f"), format!("(float){}", self.float_expr(depth - 1)))
                };
                format!("{f}({arg})")
            }
            7 => {
                let f = self.rng.pick(&["fmin", "fmax"]);
                format!("{f}({}, {})", self.float_expr(depth - 1), self.float_expr(depth - 1))
            }
            _ => format!(
                "({} ? {} : {})",
                self.int_expr(depth - 1),
                self.float_expr(depth - 1),
                self.float_expr(depth - 1)
            ),
        }
    }

    /// An integer expression built from floating ones.
    fn int_expr(&mut self, depth: u32) -> String {
        if depth == 0 || self.chance(20) {
            return format!("i{}", self.rng.below(2));
        }
        let x = self.float_expr(depth - 1);
        match self.rng.below(6) {
            0 | 1 => {
                let op = self.rng.pick(&["<", "<=", ">", ">=", "==", "!="]);
                format!("({x} {op} {})", self.float_expr(depth - 1))
            }
            2 => {
                let f = self.rng.pick(&["isnan", "isinf", "isfinite"]);
                format!("({f}({x}) != 0)")
            }
            3 => format!("(isnan({x}) ? 2 : signbit({x}) != 0)"),
            4 => format!("(!{x})"),
            _ => {
                // A conversion; the harness skips runs where it is undefined.
                let ty = self.rng.pick(&["int", "unsigned char", "short", "long long", "_Bool"]);
                format!("(int)(({ty}){x})")
            }
        }
    }

    fn any_expr(&mut self, depth: u32) -> String {
        match self.rng.below(3) {
            0 => self.int_expr(depth),
            1 => format!("u{}", self.rng.below(2)),
            _ => self.float_expr(depth),
        }
    }
}

/// Members of the union the programs pun through (elements of its array
/// members, at constant and computed indices): name, type, and the type
/// of the result global a read of it goes to.
type Form = (&'static str, &'static str, &'static str);
const MEMBERS: &[Form] = &[
    ("d", "double", "double"),
    ("f", "float", "float"),
    ("u", "unsigned", "unsigned"),
    ("ll", "long long", "long long"),
    ("s", "short", "int"),
    ("w[1]", "unsigned", "unsigned"),
    ("w[i1 & 1]", "unsigned", "unsigned"),
    ("b[3]", "signed char", "int"),
    ("b[u0 % 8]", "signed char", "int"),
    ("h[2]", "unsigned short", "int"),
    ("g[1]", "float", "float"),
    ("g[i0 & 1]", "float", "float"),
];
const UNION: &str =
    "union pun { double d; float f; unsigned u; long long ll; short s; unsigned w[2]; signed char b[8]; unsigned short h[4]; float g[2]; } pu;\n";

/// Scalars read and written through pointers to other types (`*(unsigned
/// *)&sd`, `((unsigned *)&sd)[1]`): the variable, then its forms (as
/// `MEMBERS`).
const CAST_FORMS: &[(&str, &[Form])] = &[
    (
        "double sd;\n",
        &[
            ("sd", "double", "double"),
            ("*(unsigned *)&sd", "unsigned", "unsigned"),
            ("((unsigned *)&sd)[1]", "unsigned", "unsigned"),
            ("((signed char *)&sd)[i1 & 7]", "signed char", "int"),
            ("*(long long *)&sd", "long long", "long long"),
            ("((float *)&sd)[1]", "float", "float"),
        ],
    ),
    (
        "float sf;\n",
        &[
            ("sf", "float", "float"),
            ("*(int *)&sf", "int", "int"),
            ("((unsigned short *)&sf)[1]", "unsigned short", "int"),
            ("((unsigned char *)&sf)[u1 % 4]", "unsigned char", "int"),
        ],
    ),
];

/// Type punning through a union: a member written, another read (its
/// bytes, as gcc lays them out), three times; the statements for `main`.
fn punning(g: &mut Gen, text: &mut String, results: &mut Vec<(String, &'static str)>) -> String {
    // C leaves a NaN's sign and payload unspecified (gcc folds `a / -b`
    // to `-a / b`, flipping it): a NaN is replaced before its bits show.
    *text += UNION;
    *text += "float nnf(float v) { return v != v ? 1.5f : v; }\n";
    *text += "double nnd(double v) { return v != v ? 2.5 : v; }\n";
    let mut body = String::new();
    for k in 0..3 {
        let (w, wty, _) = MEMBERS[g.rng.below(MEMBERS.len() as u64) as usize];
        let (r, _, rty) = MEMBERS[g.rng.below(MEMBERS.len() as u64) as usize];
        body += &pun_step(
            g,
            text,
            results,
            (&format!("pu.{w}"), wty),
            (&format!("pu.{r}"), rty),
            k,
        );
    }
    for (k, &(decl, forms)) in CAST_FORMS.iter().enumerate() {
        *text += decl;
        let (w, wty, _) = forms[g.rng.below(forms.len() as u64) as usize];
        let (r, _, rty) = forms[g.rng.below(forms.len() as u64) as usize];
        body += &pun_step(g, text, results, (w, wty), (r, rty), 3 + k);
    }
    body
}

/// `w = e;` (`e` of `w`'s type, a NaN replaced) then `q<k> = r;`.
fn pun_step(
    g: &mut Gen,
    text: &mut String,
    results: &mut Vec<(String, &'static str)>,
    (w, wty): (&str, &str),
    (r, rty): (&str, &'static str),
    k: usize,
) -> String {
    let e = if wty == "double" || wty == "float" {
        format!("nn{}({})", &wty[..1], g.float_expr(2))
    } else {
        // Unsigned arithmetic: defined for every input, unlike a
        // floating value converted to an integer.
        let (a, b, c) = (g.rng.below(2), g.rng.below(100_000), g.rng.below(2));
        format!("({wty})(u{a} * {b}u + (unsigned)i{c})")
    };
    let name = format!("q{k}");
    *text += &format!("{rty} {name};\n");
    results.push((name.clone(), rty));
    format!("    {w} = {e};\n    {name} = {r};\n")
}

/// A program and the names and C types of its result globals.
pub struct FloatProgram {
    pub text: String,
    pub results: Vec<(String, &'static str)>,
}

/// The globals every program starts with.
fn inputs(g: &mut Gen) -> String {
    let mut text = String::from("#include <math.h>\n");
    for k in 0..3 {
        text += &format!("double d{k} = {};\n", g.rng.pick(DOUBLES));
        text += &format!("float f{k} = {};\n", g.rng.pick(FLOATS));
    }
    for k in 0..2 {
        text += &format!("int i{k} = {};\n", g.rng.pick(INTS));
        text += &format!("unsigned u{k} = {}u;\n", g.rng.below(5000));
    }
    text
}

/// A program calling `reach_error()` when a condition over the input `x`
/// (a `double` from `__VERIFIER_nondet_double()`) holds; with `pun`, the
/// condition also reads the input's bytes through a union.
pub fn checked_program(seed: u64, pun: bool) -> String {
    let mut g = Gen {
        rng: Rng(seed.wrapping_mul(0x2545_F491_4F6C_DD1D) | 1),
        input: true,
    };
    let mut text = inputs(&mut g);
    let mut cond = g.int_expr(3);
    let mut write = String::new();
    if pun {
        // The input's bytes read through a union: its sign, its low word.
        text += UNION;
        write = g.rng.pick(&["    pu.d = x;\n", "    pu.f = (float)x;\n"]).to_string();
        let test = g.rng.pick(&[
            "pu.ll < 0",
            "pu.u == 0",
            "pu.s > 100",
            "pu.u % 3 == 1",
            "pu.f != pu.f",
            "pu.w[1] > 0x40000000u",
            "pu.b[7] < 0",
            "pu.h[3] == 0",
        ]);
        cond = format!("({cond}) || ({test})");
    }
    text += "extern double __VERIFIER_nondet_double(void);\nextern void reach_error(void);\n";
    text += &format!(
        "int main(void) {{\n    double x = __VERIFIER_nondet_double();\n{write}    if ({cond}) reach_error();\n    return 0;\n}}\n"
    );
    text
}

/// Values the input takes in an exhaustive run (bits of `double`s).
pub fn input_pool() -> Vec<i64> {
    [
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.1,
        0.5,
        2.5,
        -2.5,
        3.0,
        1e308,
        -1e308,
        4.9e-324,
        2147483648.0,
        -2147483649.0,
        1e10,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        -f64::NAN,
    ]
    .iter()
    .map(|v: &f64| v.to_bits() as i64)
    .collect()
}

/// Constant conversions (folded by both compilers, and by the lowering
/// where a global is initialised): a type and literals of other types
/// whose conversion to it C defines.
const CONVERTED: &[(&str, &[&str])] = &[
    ("_Bool", &["0.0", "-0.0", "0.1", "4.9e-324", "-0.0f", "1e-45f", "2.5"]),
    (
        "int",
        &["0.5", "-1.5", "2147483647.5", "-2147483648.9", "-3.75f", "16777217.0f"],
    ),
    ("unsigned", &["0.5", "3.0", "123456789.125", "4294967295.5", "-0.9"]),
    (
        "float",
        &[
            "0.1",
            "1e308",
            "4.9e-324",
            "123456789.125",
            "16777217",
            "-2147483647 - 1",
        ],
    ),
    ("double", &["0.1f", "3.4e38f", "1e-45f", "2147483647", "4294967295u"]),
];

pub fn program(seed: u64) -> FloatProgram {
    let mut g = Gen {
        rng: Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1),
        input: false,
    };
    let mut text = inputs(&mut g);
    let mut results = Vec::new();
    for k in 0..2 {
        let (ty, literals) = CONVERTED[g.rng.below(CONVERTED.len() as u64) as usize];
        let name = format!("c{k}");
        text += &format!("{ty} {name} = {};\n", g.rng.pick(literals));
        results.push((name, ty));
    }
    let mut body = String::new();
    for k in 0..6 {
        let ty = TYPES[g.rng.below(TYPES.len() as u64) as usize];
        let e = if ty == "double" || ty == "float" {
            g.float_expr(3)
        } else {
            g.any_expr(3)
        };
        let name = format!("r{k}");
        text += &format!("{ty} {name};\n");
        body += &format!("    {name} = {e};\n");
        results.push((name, ty));
    }
    body += &punning(&mut g, &mut text, &mut results);
    text += &format!("int main(void) {{\n{body}    return 0;\n}}\n");
    FloatProgram { text, results }
}
