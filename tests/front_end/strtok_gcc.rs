//! `strtok` and `strtok_r` (`src/ir/libc/models.c`) against gcc, on
//! generated programs: short strings of letters and delimiters, split by
//! delimiter sets that may change from call to call (empty, or naming
//! characters the string lacks), the input changing or cutting the string.
//! `strtok` goes on from its saved position in another function too (one
//! hidden global shared by every copy of the model); `strtok_r` splits
//! each token again with a second saved pointer. Each program stores the
//! token count, the tokens' offsets in the buffer and first characters,
//! and where the buffer holds NULs afterwards in `out`: the interpreter
//! must give gcc's `out` on each input, and `check` must prove it or find
//! the run that differs. Then hand-written cases: the token counter is
//! safe, too many tokens for an array are caught with a replay, `strtok`
//! with `NULL` first and a string literal split are errors at the call.
//!
//! `FOCUSCHECK_LIB_PROGRAMS=N` runs more seeds.

use crate::cli;
use crate::lib_gcc::run_out;
use crate::xorshift::Rng;
use std::fmt::Write as _;

const PRELUDE: &str = "\
extern void __VERIFIER_error(void);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int c);
void __VERIFIER_assert(int c) { if (!c) __VERIFIER_error(); }
#include <string.h>
int out[4];
char *next_tok(const char *d) { return strtok(NULL, d); }
";

const ALPHABET: &[u8] = b"ab ,;";
const DELIMS: &[&str] = &[" ", ",", " ,", ";,", ", ;", "x", ""];

/// A string literal's text of `n` characters of `ALPHABET`.
fn text(r: &mut Rng, n: u64) -> String {
    (0..n)
        .map(|_| ALPHABET[r.below(ALPHABET.len() as u64) as usize] as char)
        .collect()
}

/// A delimiter set, rarely the empty one.
fn delims(r: &mut Rng) -> &'static str {
    match r.below(12) {
        0 => "",
        k => DELIMS[k as usize % (DELIMS.len() - 1)],
    }
}

/// The loop over the tokens `t` of `line`, in one of three ways.
fn tokens(r: &mut Rng, s: &mut String, mode: u64) {
    let (d1, d2) = (delims(r), delims(r));
    let body = "out[0]++;\n    out[1] += out[0] * (int)(t - line);\n    out[2] = out[2] * 3 + t[0];";
    match mode {
        0 => {
            _ = writeln!(
                s,
                "  for (char *t = strtok(line, \"{d1}\"); t; t = strtok(NULL, \"{d2}\")) {{\n    {body}\n  }}"
            )
        }
        1 => {
            _ = writeln!(
                s,
                "  for (char *t = strtok(line, \"{d1}\"); t != NULL; t = next_tok(\"{d2}\")) {{\n    {body}\n  }}"
            )
        }
        _ => {
            let d3 = delims(r);
            s.push_str("  char *save = NULL, *in_save = NULL;\n");
            let _ = writeln!(s, "  for (char *t = strtok_r(line, \"{d1}\", &save); t; t = strtok_r(NULL, \"{d2}\", &save)) {{\n    {body}");
            let _ = writeln!(s, "    for (char *u = strtok_r(t, \"{d3}\", &in_save); u; u = strtok_r(NULL, \"{d3}\", &in_save))\n      out[3] += (int)(u - line);\n  }}");
        }
    }
}

fn program(seed: u64) -> String {
    let mut r = Rng(seed.wrapping_mul(0x2545_F491_4F6C_DD1D) | 1);
    let n = 3 + r.below(6);
    let mut s = String::from(PRELUDE);
    s.push_str("int main(void) {\n  int in = __VERIFIER_nondet_int();\n  __VERIFIER_assume(0 <= in && in <= 2);\n");
    s.push_str("  out[0] = 0;\n  out[1] = 0;\n  out[2] = 0;\n  out[3] = 0;\n");
    let _ = writeln!(s, "  char line[{}] = \"{}\";", n + 1, text(&mut r, n));
    let c = ALPHABET[r.below(ALPHABET.len() as u64) as usize] as char;
    let _ = writeln!(s, "  if (in == 1)\n    line[{}] = '{c}';", r.below(n));
    let _ = writeln!(s, "  if (in == 2)\n    line[{}] = 0;", r.below(n));
    tokens(&mut r, &mut s, seed % 3);
    if seed % 3 != 2 {
        // Where the NULs are now: the model's writes are the buffer's.
        let _ = writeln!(
            s,
            "  for (int i = 0; i < {}; i++)\n    out[3] += (i + 1) * (line[i] == 0);",
            n + 1
        );
    }
    s
}

fn focuscheck(args: &[&str]) -> String {
    let (_, out, err) = cli::focuscheck(args);
    format!("{out}{err}")
}

#[test]
fn generated_tokenising_programs_agree_with_gcc_and_every_verdict() {
    let n = crate::lib_gcc::seeds(12);
    let dir = tempfile::tempdir().expect("a temporary directory");
    for seed in 0..n {
        let text = program(seed);
        let name = format!("t{seed}");
        let want = crate::lib_gcc::gcc_outputs(dir.path(), &name, &text, seed);
        let file = cli::write(dir.path(), &format!("{name}.fc.c"), &format!("{text}  return 0;\n}}\n"));
        for (input, want) in want.iter().enumerate() {
            let ran = focuscheck(&["run", "--choices", &input.to_string(), &file]);
            assert_eq!(
                run_out(&ran).as_ref(),
                Some(want),
                "seed {seed}, input {input}:\n{ran}\n{text}"
            );
        }
        if !seed.is_multiple_of(2) {
            continue;
        }
        let k = (seed / 2 % 4) as usize;
        let v0 = want[0][k];
        let verdict = if want.iter().all(|w| w[k] == v0) {
            " 0 unsafe, 0 unknown"
        } else {
            " 1 unsafe"
        };
        let checked = cli::write(
            dir.path(),
            &format!("{name}c.c"),
            &format!("{text}  __VERIFIER_assert(out[{k}] == {v0});\n  return 0;\n}}\n"),
        );
        let out = focuscheck(&["check", "--timeout", "60", &checked]);
        assert!(
            out.contains(verdict),
            "seed {seed}: out[{k}] == {v0}, runs {want:?}:\n{out}\n{text}"
        );
    }
}

/// The README's kind of program: tokens counted. The count is proved;
/// claiming another is a bug found.
const COUNT: &str = "#include <string.h>
#include <stdio.h>
#include <assert.h>
int main(void) {
    char line[] = \"a b  c\";
    int n = 0;
    for (char *t = strtok(line, \" \"); t; t = strtok(NULL, \" \"))
        n++;
    printf(\"%d\\n\", n);
    assert(n == WANT);
    return n == 3 ? 0 : 1;
}
";

#[test]
fn a_token_count_is_proved_and_a_wrong_one_found() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    for (want, verdict) in [("3", " 0 unsafe, 0 unknown"), ("2", " 1 unsafe")] {
        let file = cli::write(dir.path(), &format!("count{want}.c"), &COUNT.replace("WANT", want));
        let out = focuscheck(&["check", &file]);
        assert!(out.contains(verdict), "n == {want}: expected{verdict}:\n{out}");
    }
}

/// Each token stored in an array of two: the third is past its end, found
/// with a run that replays to it.
#[test]
fn too_many_tokens_for_an_array_are_an_overflow_with_a_replay() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let text = "#include <string.h>
int main(void) {
    char line[] = \"ab,c,,d\";
    char *tok[2];
    int n = 0;
    for (char *t = strtok(line, \",\"); t; t = strtok(NULL, \",\"))
        tok[n++] = t;
    return tok[0][0];
}
";
    let file = cli::write(dir.path(), "toks.c", text);
    let out = focuscheck(&["check", &file]);
    assert!(out.contains(" 1 unsafe"), "{out}");
    assert!(out.contains("toks.c:7:"), "the store into `tok` is the error:\n{out}");
    cli::replays_reach_error(&out);
    // Room for the three tokens: safe.
    let file = cli::write(dir.path(), "toks3.c", &text.replace("tok[2]", "tok[3]"));
    let out = focuscheck(&["check", &file]);
    assert!(out.contains(" 0 unsafe, 0 unknown"), "{out}");
}

/// `strtok(NULL, ...)` with no string saved is undefined (glibc reads
/// through a null pointer): an invalid access at the user's call, also
/// from another function than the one whose string is split later, and
/// after the string it saved is gone (a local of a returned call).
#[test]
fn strtok_null_first_is_an_error_at_the_call() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let cases = [
        (
            "first.c",
            "#include <string.h>\nint main(void) {\n    char line[] = \"a b\";\n    char *t = strtok(NULL, \" \");\n    strtok(line, \" \");\n    return t != 0;\n}\n",
            "first.c:4:15",
        ),
        (
            "helper.c",
            "#include <string.h>\nchar *more(void) { return strtok(NULL, \",\"); }\nint main(void) {\n    char *t = more();\n    char line[] = \"a,b\";\n    strtok(line, \",\");\n    return more() != t;\n}\n",
            "helper.c:2:27",
        ),
        (
            "gone.c",
            "#include <string.h>\nvoid start(void) {\n    char line[] = \"a b\";\n    strtok(line, \" \");\n}\nint main(void) {\n    start();\n    return strtok(NULL, \" \") != 0;\n}\n",
            "gone.c:8:12",
        ),
    ];
    for (name, text, at) in cases {
        let file = cli::write(dir.path(), name, text);
        let out = focuscheck(&["check", &file]);
        assert!(out.contains(" 1 unsafe"), "{name}:\n{out}");
        assert!(
            out.contains(&format!("--> {}", dir.path().join(at).display())),
            "{name}: at {at}:\n{out}"
        );
        cli::replays_reach_error(&out);
    }
}

/// The NULs are written into the user's buffer: splitting a string
/// literal writes to it, the invalid access gcc's program crashes on;
/// a copy in an array is fine, and the tokens point into it.
#[test]
fn splitting_a_string_literal_is_a_write_to_it() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let text = "#include <string.h>\n#include <assert.h>\nint main(void) {\n    char *s = \"x,y\";\n    char *t = strtok(s, \",\");\n    t = strtok(NULL, \",\");\n    assert(t == s + 2 && *t == 'y');\n    return 0;\n}\n";
    let file = cli::write(dir.path(), "literal.c", text);
    let out = focuscheck(&["check", &file]);
    assert!(out.contains(" 1 unsafe"), "{out}");
    assert!(out.contains("literal.c:5:15"), "{out}");
    let file = cli::write(dir.path(), "array.c", &text.replace("char *s = ", "char s[] = "));
    let out = focuscheck(&["check", &file]);
    assert!(out.contains(" 0 unsafe, 0 unknown"), "{out}");
}

/// `diff`'s product runs REF, then NEW: each keeps its own saved
/// position, so NEW's `strtok(NULL, ...)` does not go on in REF's string
/// (it would return REF's second token, the same result as REF's).
#[test]
fn each_version_of_a_diff_keeps_its_own_position() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let text = "#include <string.h>\nchar g[] = \"a b\";\nint f(void) { return strtok(g, \" \") != 0; }\n";
    let reference = cli::write(dir.path(), "ref.c", text);
    let new = cli::write(dir.path(), "new.c", &text.replace("strtok(g,", "strtok(NULL,"));
    let out = focuscheck(&["diff", "--entry", "f", &reference, &new]);
    assert!(
        out.contains("the new version fails where the reference does not"),
        "{out}"
    );
    assert!(
        !out.contains("strtok::(saved)"),
        "the model's own global is not the user's:\n{out}"
    );
    let out = focuscheck(&["diff", "--entry", "f", &reference, &reference]);
    assert!(out.contains("equivalent"), "{out}");
}
