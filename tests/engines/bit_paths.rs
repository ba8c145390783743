//! Errors behind bytes cut out of inputs (`(a >> 8) & 255`, casts to
//! `unsigned char`, carries): the Datalog engine's linear search cannot
//! solve such paths, so they are solved in bit-vectors (`analysis/bv.rs`).
//! Generated multi-byte additions with a faulty carry (`> 254` where `>
//! 255` is right, as in SV-COMP's `byte_add`) are unsafe by `fsum`, the
//! printed replay reaches the error, and the top FSS holds the faulty
//! comparison; the correct versions are proved safe (every error path
//! the over-approximation has is infeasible in bit-vectors).

use crate::cli;

use serde_json::Value;
use std::fmt::Write as _;

/// An addition of two `bytes`-byte inputs, byte by byte with a carry; the
/// carry is taken when a byte's sum is above `threshold` (255 is right).
/// Returns the program and the line of the carry's comparison in the
/// first byte.
fn byte_adder(bytes: u32, threshold: u32) -> (String, usize) {
    let mut s = String::from(
        "extern unsigned int __VERIFIER_nondet_uint(void);\n\
         extern void reach_error(void);\n\
         unsigned int add(unsigned int a, unsigned int b) {\n\
         \x20 unsigned int r = 0;\n\
         \x20 unsigned short carry = 0;\n\
         \x20 unsigned short s;\n",
    );
    let mut line = 0;
    for k in 0..bytes {
        let shift = 8 * k;
        writeln!(
            s,
            "  s = carry + (unsigned char)(a >> {shift}) + ((b >> {shift}) & 255);"
        )
        .unwrap();
        writeln!(s, "  carry = 0;").unwrap();
        if k == 0 {
            line = s.lines().count() + 1;
        }
        writeln!(s, "  if (s > {threshold}) {{ s = s & 255; carry = 1; }}").unwrap();
        writeln!(s, "  r = r | ((unsigned int)s << {shift});").unwrap();
    }
    let limit = 1u64 << (8 * bytes - 1);
    write!(
        s,
        "  return r;\n}}\n\
         int main(void) {{\n\
         \x20 unsigned int a = __VERIFIER_nondet_uint();\n\
         \x20 unsigned int b = __VERIFIER_nondet_uint();\n\
         \x20 if (a >= {limit}U || b >= {limit}U) return 0;\n\
         \x20 if (add(a, b) != a + b) reach_error();\n\
         \x20 return 0;\n}}\n"
    )
    .unwrap();
    (s, line)
}

fn write_program(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("focuscheck-bit-paths-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn carries_over_bytes_of_inputs_are_solved() {
    for bytes in [2, 3] {
        let (faulty, line) = byte_adder(bytes, 254);
        let file = write_program(&format!("add{bytes}_faulty.c"), &faulty);
        let (code, out, err) = cli::focuscheck(&["check", &file, "--engine", "fsum", "--timeout", "60"]);
        assert_eq!(code, 1, "{bytes} bytes, faulty: not unsafe\n{out}{err}\n{faulty}");
        cli::replays_reach_error(&out);
        let (_, json, _) = cli::focuscheck(&[
            "check",
            &file,
            "--engine",
            "fsum",
            "--format",
            "json",
            "--timeout",
            "60",
        ]);
        let doc: Value = serde_json::from_str(&json).expect("JSON");
        let cond = &doc["conditions"][0];
        assert_eq!(cond["verdict"], "unsafe", "{json}");
        let top = &cond["fss"][0];
        assert!(
            cli::fss_lines(top).contains(&(line as i64)),
            "{bytes} bytes: the top FSS misses the carry's comparison (line {line}): {top}"
        );

        let (correct, _) = byte_adder(bytes, 255);
        let file = write_program(&format!("add{bytes}_correct.c"), &correct);
        let (code, out, err) = cli::focuscheck(&["check", &file, "--engine", "fsum", "--timeout", "60"]);
        assert!(
            code != 1 && !out.contains("unsafe:"),
            "{bytes} bytes, correct: unsafe\n{out}{err}"
        );
        // Every error path is infeasible, proved in bit-vectors.
        assert!(
            out.contains("1 safe"),
            "{bytes} bytes, correct: not proved safe\n{out}{err}"
        );
    }
}
