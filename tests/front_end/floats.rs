//! Floating point (`float`, `double`): the interpreter bit for bit against
//! gcc, on generated programs (`support/float_gen.rs`), and every engine's
//! verdict on small programs against the answer a run gives.
//!
//! gcc compiles with `-O0 -msse2 -mfpmath=sse` (SSE arithmetic, each
//! operation in its own type: C's `FLT_EVAL_METHOD` 0, the semantics
//! Cimple follows; on x86-64, where no 32-bit C library is installed, that
//! is gcc's default code). A run whose lowering with overflow checks stops
//! at an undefined float-to-integer conversion is skipped (C leaves its
//! value open). A NaN equals any NaN: the model gives every NaN an
//! operation makes the same bits (docs/cimple.md). Set
//! `FOCUSCHECK_FLOAT_PROGRAMS=N` (and `FOCUSCHECK_FLOAT_FIRST=S`) to run
//! more seeds.

use crate::cli;
use crate::float_gen;

use focuscheck::interp::{self, Config, Outcome};
use focuscheck::ir::lower::LowerOptions;
use focuscheck::ir::{GlobalsMode, Program};
use focuscheck::syntax::source::SourceFile;
use std::process::Command;
use std::sync::Arc;

const PROGRAMS: u64 = 60;
/// Programs whose verdicts are checked against runs (each engine).
const CHECKED: u64 = 12;
/// More whose conditions also read the input's bytes through a union.
const PUNNED: u64 = 4;

fn load(text: &str, overflow_checks: bool) -> Result<Program, String> {
    let opts = LowerOptions {
        globals: Some(GlobalsMode::Zero),
        overflow_checks,
        ..LowerOptions::default()
    };
    let (p, diags) = focuscheck::load(Arc::new(SourceFile::new("gen.c", text)), &opts);
    p.ok_or_else(|| diags.iter().map(|d| format!("{d:?}")).collect::<Vec<_>>().join("\n"))
}

/// The value of global `name` at the end of a run (`float` bits, `double`
/// bits, or an integer).
fn global(p: &Program, globals: &[i64], name: &str) -> i64 {
    let layout = p.layout();
    let v = p
        .globals
        .iter()
        .find(|&&g| p.var(g).name == name)
        .unwrap_or_else(|| panic!("no global {name}"));
    globals[layout.offset[v.index()] as usize]
}

/// The C program printing each result's bits (as `unsigned long long`).
fn c_text(prog: &float_gen::FloatProgram) -> String {
    let mut s = prog.text.replace("int main(void)", "int fc_main(void)");
    s = format!("#include <stdio.h>\n#include <string.h>\n{s}");
    s += "int main(void) {\n    fc_main();\n";
    for (name, ty) in &prog.results {
        s += &match *ty {
            "double" => format!("    {{ unsigned long long b; memcpy(&b, &{name}, 8); printf(\"%llu\\n\", b); }}\n"),
            "float" => {
                format!("    {{ unsigned b; memcpy(&b, &{name}, 4); printf(\"%llu\\n\", (unsigned long long)b); }}\n")
            }
            _ => format!("    printf(\"%lld\\n\", (long long){name});\n"),
        };
    }
    s + "    return 0;\n}\n"
}

fn run_gcc(dir: &std::path::Path, text: &str) -> Vec<i64> {
    let (src, exe) = (dir.join("p.c"), dir.join("p"));
    std::fs::write(&src, text).expect("write the C file");
    let out = Command::new("gcc")
        .args(["-std=gnu11", "-O0", "-msse2", "-mfpmath=sse", "-w", "-o"])
        .arg(&exe)
        .arg(&src)
        .arg("-lm")
        .output()
        .expect("gcc on PATH (this test compares with gcc)");
    assert!(
        out.status.success(),
        "gcc rejects:\n{}\n{text}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = Command::new(&exe).output().expect("run the program");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| {
            l.parse::<u64>()
                .map(|v| v as i64)
                .or_else(|_| l.parse::<i64>())
                .expect("a number")
        })
        .collect()
}

fn is_nan(ty: &str, bits: i64) -> bool {
    match ty {
        "double" => f64::from_bits(bits as u64).is_nan(),
        "float" => f32::from_bits(bits as u32).is_nan(),
        _ => false,
    }
}

#[test]
fn generated_float_programs_agree_with_gcc_bit_for_bit() {
    let env = |name: &str, default: u64| std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default);
    let first = env("FOCUSCHECK_FLOAT_FIRST", 0);
    let dir = tempfile::tempdir().expect("a temporary directory");
    let (mut compared, mut skipped) = (0, 0);
    for seed in first..first + env("FOCUSCHECK_FLOAT_PROGRAMS", PROGRAMS) {
        let prog = float_gen::program(seed);
        let checked = load(&prog.text, true).unwrap_or_else(|e| panic!("rejected {seed}: {e}\n{}", prog.text));
        let cfg = Config::default();
        let run = interp::run(&checked, &cfg).expect("a run");
        if run.outcome != Outcome::Finished {
            // An undefined conversion (out of range, or a NaN).
            skipped += 1;
            continue;
        }
        let p = load(&prog.text, false).expect("accepted");
        let run = interp::run(&p, &cfg).expect("a run");
        assert_eq!(run.outcome, Outcome::Finished, "seed {seed}");
        let c = run_gcc(dir.path(), &c_text(&prog));
        for (k, (name, ty)) in prog.results.iter().enumerate() {
            let ours = global(&p, &run.globals, name);
            let theirs = c[k];
            let ours = if *ty == "float" { ours & 0xFFFF_FFFF } else { ours };
            let same = ours == theirs || (is_nan(ty, ours) && is_nan(ty, theirs));
            assert!(
                same,
                "seed {seed}: {name} ({ty}): interpreter {ours:#x}, gcc {theirs:#x}\n{}",
                prog.text
            );
        }
        compared += 1;
    }
    println!("float programs: {compared} compared, {skipped} skipped (undefined conversions)");
    assert!(
        compared > skipped,
        "too few programs compared: {compared} (skipped {skipped})"
    );
}

/// The verdict counts `check` prints: (unsafe, unknown, safe).
fn verdicts(out: &str) -> (u32, u32, u32) {
    let line = out
        .lines()
        .find(|l| l.contains(" unsafe, "))
        .unwrap_or_else(|| panic!("no summary: {out}"));
    let count = |word: &str| {
        let at = line.find(word).unwrap_or_else(|| panic!("no `{word}` in {line}"));
        let digits: String = line[..at].trim_end().rsplit(' ').next().unwrap_or("").to_string();
        digits
            .parse::<u32>()
            .unwrap_or_else(|_| panic!("count before `{word}` in {line}"))
    };
    (count("unsafe"), count("unknown"), count("safe ("))
}

/// Every engine against runs on a pool of inputs (NaN, infinities, signed
/// zeros, a subnormal, values past `int`): a "safe" verdict is wrong if a
/// run reaches the error; an "unsafe" one comes with a replayed
/// counterexample (`check` says it only then), here run again.
#[test]
fn engine_verdicts_agree_with_runs_on_an_input_pool() {
    let env = |name: &str, default: u64| std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default);
    let dir = tempfile::tempdir().expect("a temporary directory");
    let engines = ["auto", "fsum", "vc"];
    let mut decided = [0usize; 3];
    let programs = env("FOCUSCHECK_FLOAT_CHECKED", CHECKED);
    let punned = env("FOCUSCHECK_FLOAT_PUNNED", PUNNED);
    let seeds = (0..programs).map(|s| (s, false)).chain((0..punned).map(|s| (s, true)));
    for (seed, pun) in seeds {
        let text = float_gen::checked_program(seed, pun);
        let p = load(&text, false).unwrap_or_else(|e| panic!("rejected {seed}: {e}\n{text}"));
        let reached = float_gen::input_pool().into_iter().any(|x| {
            let cfg = Config {
                choices: vec![x],
                ..Config::default()
            };
            let run = interp::run(&p, &cfg).expect("a run");
            matches!(run.outcome, Outcome::Error { .. })
        });
        let path = cli::write(dir.path(), &format!("f{seed}{pun}.c"), &text);
        for (e, &engine) in engines.iter().enumerate() {
            let (_, out, err) = cli::focuscheck(&["check", "--engine", engine, "--timeout", "20", &path]);
            let (unsafe_, _, safe) = verdicts(&format!("{out}{err}"));
            assert!(
                !(safe > 0 && reached),
                "seed {seed}: {engine} says safe, a run reaches the error\n{text}\n{out}{err}"
            );
            if !pun {
                decided[e] += (unsafe_ + safe) as usize;
            }
        }
    }
    println!(
        "float verdicts decided of {programs}: auto {}, fsum {}, vc {}",
        decided[0], decided[1], decided[2]
    );
    // The VC engine decides float conditions in Z3's floating-point
    // theory over bit-vectors (`vc::float`); `auto` uses it. An integer
    // read of a floating value's bits crosses to Z3's integers
    // (`bv2int`), which it rarely decides: punned programs are checked
    // for soundness only.
    for e in [0, 2] {
        assert!(
            decided[e] * 2 > programs as usize,
            "{} decides {} of {programs} programs",
            engines[e],
            decided[e]
        );
    }
}

/// ACSL over a floating variable is refused where it is written (its
/// comparisons would read bits as integers: `y > 5` held of every
/// positive `double`'s bits, a wrong "safe").
#[test]
fn acsl_over_a_floating_variable_is_refused_with_its_location() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let text = "extern double __VERIFIER_nondet_double(void);\nint main(void) {\n    double x = __VERIFIER_nondet_double();\n    if (x > 1.0 && x < 2.0) {\n        double y = x * 2.0;\n        //@ assert y > 5;\n    }\n    return 0;\n}\n";
    let path = cli::write(dir.path(), "acsl.c", text);
    let (code, out, err) = cli::focuscheck(&["check", &path]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(!out.contains(" safe ("), "{out}");
    assert!(
        err.contains("acsl.c:6:20") && err.contains("`y` is a `double`"),
        "{err}"
    );
}

/// An explanation shows floating values as C writes them: the fact, the
/// assumptions and the trace name `volts = 5.3763423f`, never the bits
/// (1085016831) the engines carry.
#[test]
fn explanations_show_floating_values_as_c() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let text = "extern float __VERIFIER_nondet_float(void);\nextern void reach_error(void);\nint main(void) {\n    float raw = __VERIFIER_nondet_float();\n    if (raw < 0.0f || raw > 1100.0f) return 1;\n    float volts = raw * (5.0f / 1023.0f);\n    if (volts > 5.0f) reach_error();\n    return 0;\n}\n";
    let path = cli::write(dir.path(), "sensor.c", text);
    let (code, out, err) = cli::focuscheck(&["check", &path]);
    assert_eq!(code, 1, "{out}{err}");
    let fact = out
        .lines()
        .find(|l| l.trim_start().starts_with("fact:"))
        .expect("a fact line");
    // A C `float` literal above 5 (which run the engine picks is its own
    // business: Z3's or the sampler's).
    let volts = fact
        .split("volts = ")
        .nth(1)
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.strip_suffix('f'))
        .and_then(|v| v.parse::<f32>().ok());
    assert!(volts.is_some_and(|v| v > 5.0), "{fact}");
    assert!(out.contains("> 5.0f"), "the assumption in C: {out}");
    let bits = volts.expect("checked").to_bits().to_string();
    assert!(!out.contains(&bits), "a bit pattern shown: {out}");
}

/// The replay command of a float counterexample gives the draws as C
/// values (`--choices 1023.0f`, not the bits `1149222912`), and running it
/// as printed reaches the error; `run` reads C's floating forms back.
#[test]
fn replay_commands_write_float_draws_as_c_values() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let file = dir.path().join("adc.c");
    std::fs::write(
        &file,
        "extern float __VERIFIER_nondet_float(void);\nextern double __VERIFIER_nondet_double(void);\n\
         extern void reach_error(void);\nint main(void) {\n  float raw = __VERIFIER_nondet_float();\n\
         \x20 double gain = __VERIFIER_nondet_double();\n  if (!(raw >= 0.0f && raw <= 1023.0f) || !(gain > 0.5 && gain < 2.0))\n\
         \x20   return 0;\n  if (raw * (5.0f / 1023.0f) >= 5.0f && gain * 2.0 > 3.5)\n    reach_error();\n  return 0;\n}\n",
    )
    .expect("write");
    let f = file.to_str().expect("utf-8 path");
    let (code, out, err) = cli::focuscheck(&["check", f, "--no-fixes"]);
    assert_eq!(code, 1, "{out}{err}");
    let replay = out
        .lines()
        .find_map(|l| l.trim().strip_prefix("replay: focuscheck "))
        .unwrap_or_else(|| panic!("a replay command: {out}"));
    let choices = replay
        .split(" --choices ")
        .nth(1)
        .expect("--choices")
        .split(' ')
        .next()
        .unwrap();
    let words: Vec<&str> = choices.split(',').collect();
    assert_eq!(words[0], "1023.0f", "{replay}");
    let gain: f64 = words[1]
        .parse()
        .unwrap_or_else(|_| panic!("a double as C writes it: {replay}"));
    assert!(words[1].contains('.') && gain > 1.75 && gain < 2.0, "{replay}");
    let args: Vec<&str> = replay.split(' ').collect();
    let (code, out, err) = cli::focuscheck(&args);
    assert_eq!(code, 1, "the printed command replays the error: {out}{err}");
    assert!(out.contains("choices: 1023.0f,"), "{out}");
    for bad in ["1023.0q", "1e", "nanq", "0x1.8p1"] {
        let (code, _, err) = cli::focuscheck(&["run", f, "--choices", bad]);
        assert_eq!(code, 2, "{bad}: {err}");
        assert!(err.contains("is not a number"), "{err}");
    }
}

/// Type punning through a union reads bytes, as gcc does: `u.f` after
/// `u.i = 0x3f800000` is `1.0f` (it was once the conversion
/// `1065353216.0f`, in the interpreter and the engines alike, so replay
/// confirmed a wrong "unsafe"), and an explanation names the bits it
/// tests as `bits(x)`, not as a comparison of the value.
#[test]
fn union_punning_reads_bits_and_explains_them_as_bits() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let text = "extern void reach_error(void);\nunion fl { unsigned i; float f; unsigned char b[4]; };\nint main(void) {\n    union fl u;\n    u.i = 0x3f800000u;\n    if (u.f != 1.0f) reach_error();\n    u.f = -2.0f;\n    if (u.b[3] != 0xc0) reach_error();\n    return 0;\n}\n";
    let path = cli::write(dir.path(), "pun.c", text);
    let (code, out, err) = cli::focuscheck(&["check", &path]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("0 unsafe, 0 unknown, 2 safe"), "{out}");
    let text = "extern double __VERIFIER_nondet_double(void);\nextern void reach_error(void);\nunion pun { double d; long long ll; };\nint main(void) {\n    union pun p;\n    p.d = __VERIFIER_nondet_double();\n    if (p.ll < 0) reach_error();\n    return 0;\n}\n";
    let path = cli::write(dir.path(), "sign.c", text);
    let (code, out, err) = cli::focuscheck(&["check", &path]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("assumes bits("), "the bits named as bits: {out}");
}
