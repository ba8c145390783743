//! C's own semantics where C defines them (docs/cimple.md, "Types and
//! values"): literals and escapes, conversions, unsigned wrap-around, source
//! text as C reads it. Each program was a wrong verdict once. Its expected
//! verdict is asserted, and where the program is deterministic gcc compiles
//! and runs it to show that C agrees.

use crate::cli;

use std::path::Path;
use std::process::Command;

/// The verdicts `check` gives, one per condition, in order.
fn verdicts(dir: &Path, name: &str, text: &[u8]) -> Vec<String> {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write the program");
    let (code, out, err) = cli::focuscheck(&["check", path.to_str().unwrap(), "--format", "json", "--no-explain"]);
    assert!(matches!(code, 0 | 1 | 3), "{name}: exit {code}\n{err}");
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{name}: {e}\n{out}"));
    doc["conditions"]
        .as_array()
        .expect("conditions")
        .iter()
        .map(|c| c["verdict"].as_str().expect("a verdict").to_string())
        .collect()
}

/// Does the program, compiled by gcc and run, call `reach_error()`?
fn gcc_reaches_error(dir: &Path, name: &str, text: &[u8]) -> bool {
    let src = dir.join(format!("gcc_{name}"));
    let mut c =
        b"#include <stdio.h>\n#include <stdlib.h>\nvoid reach_error(void) { puts(\"ERROR\"); exit(0); }\n".to_vec();
    // Without the BOM, which must come first.
    c.extend_from_slice(text.strip_prefix("\u{feff}".as_bytes()).unwrap_or(text));
    std::fs::write(&src, c).expect("write the C file");
    let exe = dir.join(format!("{name}.out"));
    let built = Command::new("gcc")
        .args(["-w", "-O0", "-o"])
        .arg(&exe)
        .arg(&src)
        .output()
        .expect("gcc runs");
    assert!(
        built.status.success(),
        "gcc: {}",
        String::from_utf8_lossy(&built.stderr)
    );
    let run = Command::new(&exe).output().expect("the program runs");
    String::from_utf8_lossy(&run.stdout).contains("ERROR")
}

const HEADER: &str = "extern void reach_error(void);\n";

/// (name, program after HEADER, the verdicts C gives, deterministic).
const CASES: &[(&str, &str, &[&str], bool)] = &[
    (
        "escapes.c",
        r"int main() { int one = '\1'; if (one == 1 && '\a' == 7 && '\b' == 8 && '\f' == 12 && '\v' == 11 && '\?' == 63 && '\x7f' == 127 && '\x41' == 65 && '\101' == 65 && '\377' == -1 && '\xff' == -1 && '\0' == 0 && '\'' == 39 && '\\' == 92) reach_error(); return 0; }",
        &["unsafe"],
        true,
    ),
    (
        "uchar_wraps.c",
        "int main() { unsigned char c = 250; c = c + 10; if (c == 4) reach_error(); return 0; }",
        &["unsafe"],
        true,
    ),
    (
        "uint_wraps.c",
        "extern unsigned int __VERIFIER_nondet_uint(void);\nint main() { unsigned int x = __VERIFIER_nondet_uint(); unsigned int y = x + 1; if (x > 0 && y < x) reach_error(); return 0; }",
        &["unsafe"],
        false,
    ),
    (
        "bool_converts.c",
        "extern int __VERIFIER_nondet_int(void);\nvoid check(_Bool b) { if (b != 0 && b != 1) reach_error(); }\n_Bool conv(int v) { return v; }\nint main() { int v = __VERIFIER_nondet_int(); _Bool b = v; if (b != 0 && b != 1) reach_error(); check(2); if (conv(v) > 1) reach_error(); return 0; }",
        &["safe", "safe", "safe"],
        false,
    ),
    (
        "casts.c",
        "int main() { if ((char)200 == -56 && (unsigned char)-1 == 255 && (short)65536 == 0) { if (!(-1 < 1u)) reach_error(); } return 0; }",
        &["unsafe"],
        true,
    ),
    (
        "usual_conversions.c",
        "int main() { unsigned int u = 0; int i = -1; long long w = 4294967295; if (i < u) return 0; if (u - 1 == 4294967295 && w == 4294967295u && -1 != 4294967295) reach_error(); return 0; }",
        &["unsafe"],
        true,
    ),
    (
        "unsigned_division.c",
        "int main() { unsigned int u = 7; int d = -2; if (u / d == 0 && -7 / 2 == -3 && -7 % 2 == -1 && 7u % -2 == 7) reach_error(); return 0; }",
        // The division by `d` is a check, and `d` is never 0.
        &["safe", "unsafe"],
        true,
    ),
    (
        "suffixes.c",
        "int main() { if (10u - 11u > 0 && 0xffffffff > 0 && 0x7fffffffffffffffLL > 0 && 1u - 2 == 4294967295 && 1ul - 2 > 0 && 077 == 63) reach_error(); return 0; }",
        &["unsafe"],
        true,
    ),
    (
        "global_initialisers.c",
        "unsigned char g = 300; char h = 255; unsigned int k = -1;\nint main() { if (g == 44 && h == -1 && k == 4294967295) reach_error(); return 0; }",
        &["unsafe"],
        true,
    ),
    (
        "increments.c",
        "int main() { unsigned char c = 255; c++; char s = 127; s += 1; unsigned int u = 0; u--; if (c == 0 && s == -128 && u == 4294967295) reach_error(); return 0; }",
        &["unsafe"],
        true,
    ),
    (
        "extern_then_defined.c",
        "extern int g;\nint g = 4;\nint main() { if (g == 4) reach_error(); return 0; }",
        &["unsafe"],
        true,
    ),
    (
        "globals_zero_without_declaration.c",
        // No prototype: the call alone makes it an SV-COMP file (globals 0).
        "int g;\nint main() { if (g != 0) reach_error(); return 0; }",
        &["safe"],
        true,
    ),
];

#[test]
fn programs_get_the_verdicts_c_gives() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let gcc = Command::new("gcc").arg("--version").output().is_ok();
    for (name, body, want, deterministic) in CASES {
        // The last case must not declare reach_error: it is called only.
        let text = if name.starts_with("globals_zero") {
            body.to_string()
        } else {
            format!("{HEADER}{body}\n")
        };
        let got = verdicts(dir.path(), name, text.as_bytes());
        assert_eq!(&got, want, "{name}:\n{text}");
        if *deterministic && gcc {
            let reached = gcc_reaches_error(dir.path(), name, text.as_bytes());
            assert_eq!(reached, want.last() == Some(&"unsafe"), "gcc disagrees on {name}");
        }
    }
}

#[test]
fn source_text_is_read_as_c_reads_it() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    // A `//` comment ending in a backslash swallows the next line (CRLF too).
    let spliced = b"extern void reach_error(void);\r\nint g;\r\nint main() {\r\n  // a comment \\\r\n  g = 1;\r\n  if (g == 1) reach_error();\r\n  return 0;\r\n}\r\n";
    assert_eq!(verdicts(dir.path(), "spliced.c", spliced), ["safe"]);
    assert!(!gcc_reaches_error(dir.path(), "spliced.c", spliced));
    // A byte-order mark, and a `#define` continued under CRLF.
    let bom = "\u{feff}extern void reach_error(void);\r\n#define X \\\r\n 5\r\nint main() { if (X == 5) reach_error(); return 0; }\r\n";
    assert_eq!(verdicts(dir.path(), "bom.c", bom.as_bytes()), ["unsafe"]);
    assert!(gcc_reaches_error(dir.path(), "bom.c", bom.as_bytes()));
}

#[test]
fn malformed_literals_are_located_errors() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    for (text, message) in [
        (
            "int main() { int x = 08; return x; }",
            "1:22: invalid digit `8` in octal literal `08`",
        ),
        (
            "int main() { int x = '\\q'; return x; }",
            "unknown escape sequence `\\q`",
        ),
        (
            "int main() { int x = '\\x100'; return x; }",
            "hex escape `\\x100` is out of range",
        ),
        (
            "int main() { int x = 'ab'; return x; }",
            "multi-character literals are not part of Cimple",
        ),
        ("int main() { int x = 1lL; return x; }", "malformed number `1lL`"),
        (
            "int main() { int x = 18446744073709551616; return x; }",
            "integer literal is too large",
        ),
    ] {
        let path = dir.path().join("bad.c");
        std::fs::write(&path, text).unwrap();
        let (code, _, err) = cli::focuscheck(&["parse", path.to_str().unwrap()]);
        assert_eq!(code, 2, "{text}: {err}");
        assert!(err.contains(message), "{text}: expected `{message}` in\n{err}");
    }
}

#[test]
fn signed_overflow_is_a_condition_under_no_overflow() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let text = "extern int __VERIFIER_nondet_int(void);\n\
                int main() {\n\
                \x20 int x = __VERIFIER_nondet_int();\n\
                \x20 unsigned int u = __VERIFIER_nondet_int();\n\
                \x20 u = u * 3 + 1;\n\
                \x20 if (x < 100 && x > -100) { int y = x * 1000; }\n\
                \x20 int z = x - 1;\n\
                \x20 return 0;\n\
                }\n";
    let path = dir.path().join("overflow.c");
    std::fs::write(&path, text).unwrap();
    let file = path.to_str().unwrap();
    let (_, out, err) = cli::focuscheck(&[
        "check",
        file,
        "--property",
        "no-overflow",
        "--format",
        "json",
        "--no-explain",
    ]);
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}{err}"));
    let got: Vec<(String, String)> = doc["conditions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["condition"].as_str().unwrap().to_string(),
                c["verdict"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    // Unsigned arithmetic wraps (no condition); `x * 1000` cannot overflow
    // under its guard; `x - 1` does for x = INT_MIN (replayed).
    assert_eq!(
        got,
        [
            ("signed overflow in `x * 1000`".to_string(), "safe".to_string()),
            ("signed overflow in `x - 1`".to_string(), "unsafe".to_string()),
        ],
        "{out}"
    );
    // Without the property there is no such condition.
    let (_, out, _) = cli::focuscheck(&["check", file, "--format", "json", "--no-explain"]);
    assert!(!out.contains("signed overflow"), "{out}");
}

#[test]
fn constants_at_the_edge_of_64_bits_do_not_crash() {
    // `-x - 1 == INT64_MAX` once made a constraint overflow while it was
    // normalised: an internal error, and the file vanished from JSON.
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("edge.c");
    std::fs::write(
        &path,
        "int main() { int x; if (-x - 1 == 9223372036854775807) assert(0); if (x * 2 == -9223372036854775807 - 1) assert(0); return 0; }\n",
    )
    .unwrap();
    let (code, out, err) = cli::focuscheck(&["check", path.to_str().unwrap(), "--format", "json"]);
    assert!(matches!(code, 0 | 1 | 3), "exit {code}: {err}");
    let doc: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    for c in doc["conditions"].as_array().unwrap() {
        // Never unsafe (no int reaches these values); safe or unknown.
        assert_ne!(c["verdict"], "unsafe", "{c}");
    }
}
