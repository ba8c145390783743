//! Polynomials of one `float` input in a range, then an assertion on the
//! result (the class of SV-COMP's `floats-cdfpl` tasks), which Z3's
//! floating-point theory does not settle within its resource limit: the
//! Datalog engine decides them by refuting boxes of inputs
//! (`analysis/float_box.rs`) and by sampling inputs
//! (`analysis/float_sample.rs`). The programs are generated; the truth
//! comes from running every `float` of the range in Rust (`f32` computes
//! what C computes with `FLT_EVAL_METHOD` 0), not from the tool.

use crate::cli;
use crate::xorshift::Rng;

/// The range `[LO, HI)`: 2^19 floats, few enough to run them all.
const LO: f32 = 1.0;
const HI: f32 = 1.0625;

/// `c0 + c1*x - c2*x*x + c3*x*x*x - c4*x*x*x*x` as C evaluates it.
fn poly(c: &[f32; 5], x: f32) -> f32 {
    c[0] + c[1] * x - c[2] * x * x + c[3] * x * x * x - c[4] * x * x * x * x
}

/// C's text of a `float` constant (Rust's shortest round-trip digits).
fn lit(v: f32) -> String {
    format!("{v:?}f")
}

/// The program: an error when the polynomial reaches `t`.
fn program(c: &[f32; 5], t: f32) -> String {
    format!(
        "extern float __VERIFIER_nondet_float(void);\n\
         extern void reach_error(void);\n\
         int main(void) {{\n\
         \x20 float x = __VERIFIER_nondet_float();\n\
         \x20 if (!(x >= {lo} && x < {hi})) return 0;\n\
         \x20 float r = {} + {}*x - {}*x*x + {}*x*x*x - {}*x*x*x*x;\n\
         \x20 if (!(r < {t})) reach_error();\n\
         \x20 return 0;\n}}\n",
        lit(c[0]),
        lit(c[1]),
        lit(c[2]),
        lit(c[3]),
        lit(c[4]),
        lo = lit(LO),
        hi = lit(HI),
        t = lit(t),
    )
}

/// Every value the polynomial takes on the range, sorted.
fn values(c: &[f32; 5]) -> Vec<f32> {
    let mut out = Vec::new();
    let mut x = LO;
    while x < HI {
        out.push(poly(c, x));
        x = f32::from_bits(x.to_bits() + 1);
    }
    out.sort_by(f32::total_cmp);
    out
}

/// Coefficients in 64ths, below 2 (exact in a `float`).
fn coefficients(rng: &mut Rng) -> [f32; 5] {
    std::array::from_fn(|_| (rng.below(128) + 1) as f32 / 64.0)
}

fn check(file: &str) -> (i32, String) {
    let (code, out, err) = cli::focuscheck(&["check", file, "--engine", "fsum", "--timeout", "120"]);
    (code, format!("{out}{err}"))
}

#[test]
fn float_polynomials_are_decided() {
    let dir = std::env::temp_dir().join(format!("focuscheck-float-paths-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut rng = Rng(0x00f1_0a75);
    for k in 0..2 {
        let c = coefficients(&mut rng);
        let vals = values(&c);
        let (least, most) = (vals[0], vals[vals.len() - 1]);

        // Unsafe: the 100 largest results reach the threshold.
        let t = vals[vals.len() - 100];
        let text = program(&c, t);
        let file = cli::write(&dir, &format!("unsafe{k}.c"), &text);
        let (code, out) = check(&file);
        assert_eq!(code, 1, "not unsafe:\n{out}\n{text}");
        cli::replays_reach_error(&out);

        // Safe: the threshold a quarter of the results' spread above the
        // largest.
        let t = most + (most - least) / 4.0;
        assert!(vals.iter().all(|v| *v < t));
        let text = program(&c, t);
        let file = cli::write(&dir, &format!("safe{k}.c"), &text);
        let (code, out) = check(&file);
        assert!(code != 1 && out.contains("1 safe"), "not proved safe:\n{out}\n{text}");
    }
}
