//! Strings and the C library models (`src/ir/libc`) against gcc, on
//! generated programs: string literals, `char` arrays initialised by
//! strings, and every modelled function of `<string.h>`, `<stdlib.h>`,
//! `<ctype.h>` and `<stdio.h>` output (`memset`/`memcpy` on `int` arrays
//! too, byte for byte; and on structs, whole ones; an array field of an
//! array of structs, `ns[i].t`, by name, through pointers and whole-struct
//! copies) on three buffers whose string lengths
//! the generator follows (so that a correct program never overflows).
//!
//! Each program is deterministic given its input `in` (0, 1 or 2) and ends
//! by storing what it computed in `int out[4]`. It must give, run by the
//! interpreter on each input, the `out` that the same file compiled by gcc
//! (ASan and UBSan on) prints; every fourth one is checked by `check`
//! against every run's outcome. A second family overflows a buffer through
//! a library call (or writes to a string literal) on input 2: gcc's
//! sanitizer stops there, and `check` reports the invalid access at the
//! user's call.
//!
//! `FOCUSCHECK_LIB_PROGRAMS=N` runs more seeds.

use crate::sanitized_gcc;
use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;

const PROGRAMS: u64 = 24;

use crate::xorshift;
use xorshift::Rng;

/// The prototypes a program declares (no header: they work before the
/// headers are shipped, and with gcc's).
const PRELUDE: &str = "\
extern void __VERIFIER_error(void);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int c);
void __VERIFIER_assert(int c) { if (!c) __VERIFIER_error(); }
extern unsigned int strlen(const char *s);
extern unsigned int strnlen(const char *s, unsigned int n);
extern char *strcpy(char *restrict d, const char *restrict s);
extern char *strncpy(char *restrict d, const char *restrict s, unsigned int n);
extern char *strcat(char *restrict d, const char *restrict s);
extern int strcmp(const char *a, const char *b);
extern int strncmp(const char *a, const char *b, unsigned int n);
extern char *strchr(const char *s, int c);
extern void *memcpy(void *restrict d, const void *restrict s, unsigned int n);
extern void *memmove(void *d, const void *s, unsigned int n);
extern void *memset(void *d, int c, unsigned int n);
extern int memcmp(const void *a, const void *b, unsigned int n);
extern int abs(int x);
extern long labs(long x);
extern int atoi(const char *s);
extern long strtol(const char *restrict s, char **restrict end, int base);
#define NULL ((void *)0)
extern int isdigit(int c);
extern int isalpha(int c);
extern int isspace(int c);
extern int isupper(int c);
extern int islower(int c);
extern int isalnum(int c);
extern int toupper(int c);
extern int tolower(int c);
extern int printf(const char *restrict fmt, ...);
extern int puts(const char *s);
extern int putchar(int c);
extern unsigned int strspn(const char *s, const char *accept);
extern unsigned int strcspn(const char *s, const char *reject);
extern char *strrchr(const char *s, int c);
extern char *strncat(char *restrict d, const char *restrict s, unsigned int n);
extern void *memchr(const void *s, int c, unsigned int n);
extern struct _IO_FILE *stdout;
extern int fputs(const char *restrict s, struct _IO_FILE *restrict stream);
extern int fputc(int c, struct _IO_FILE *stream);
extern int fflush(struct _IO_FILE *stream);
extern int sprintf(char *restrict s, const char *restrict fmt, ...);
extern int snprintf(char *restrict s, unsigned long n, const char *restrict fmt, ...);
struct N { char t[3]; short s; int i; unsigned char u; long long q; };
struct M { short s; int i; unsigned char u; long long q; };
struct P { int *p; int k; };
char gs[16] = \"g\" \"s\";
int out[4];
";

/// Words of at most 5 characters: letters, digits, signs and spaces.
const WORDS: &[&str] = &[
    "", "a", "hi", "Zed", "42", "-7x", " 19", "abc", "hello", "b9Q", "+8", "\\tq",
];

/// The length of a word as C reads it (`\t` is one character).
fn word_len(w: &str) -> usize {
    w.replace("\\t", "\t").len()
}

/// A line of a generated program, given the (largest) string length held
/// by each buffer, which it updates. `whole`: `memset` and `memcpy` on the
/// `int` arrays `w` and `v` cover whole elements (the programs `check`
/// decides); else any byte count, a partial element included.
fn line(r: &mut Rng, len: &mut [usize; 3], whole: bool) -> Option<String> {
    const BUFS: [&str; 3] = ["a", "b", "gs"];
    let x = r.below(3) as usize;
    let y = (x + 1 + r.below(2) as usize) % 3;
    let (bx, by) = (BUFS[x], BUFS[y]);
    let k = r.below(4);
    let w = r.pick(WORDS);
    let c = r.pick(&["'a'", "'h'", "'9'", "'Q'", "' '", "'\\0'", "'-'"]);
    let bytes = if whole { 4 * r.below(5) } else { r.below(17) };
    Some(match r.below(34) {
        0 => {
            len[x] = word_len(w);
            format!("strcpy({bx}, \"{w}\");")
        }
        1 => {
            len[x] = len[y];
            format!("strcpy({bx}, {by});")
        }
        2 => {
            len[x] = len[y];
            format!("strncpy({bx}, {by}, {});", len[y] + 1 + r.below(3) as usize)
        }
        3 if len[x] + len[y] <= 15 => {
            len[x] += len[y];
            format!("strcat({bx}, {by});")
        }
        4 => format!(
            "out[{k}] += strlen({bx}) * {} + strnlen({by}, {});",
            1 + r.below(5),
            r.below(6)
        ),
        5 => format!("out[{k}] += (strcmp({bx}, {by}) > 0) - (strcmp({bx}, \"{w}\") < 0) * 2;"),
        6 => format!(
            "out[{k}] += (strncmp({bx}, {by}, {n}) > 0) * 3 - (strncmp({bx}, {by}, {n}) < 0);",
            n = r.below(6)
        ),
        7 => format!("{{ char *p = strchr({bx}, {c}); out[{k}] += p != 0 ? (int)(p - {bx}) : -1; }}"),
        8 => {
            let n = r.below(10) as usize; // at most 9 digits: `strtol` fits a 32-bit `long`
            len[x] = n;
            format!("memset({bx}, {}, {n}); {bx}[{n}] = 0;", r.pick(&["'x'", "'5'", "' '"]))
        }
        9 => {
            len[x] = len[y];
            format!("memcpy({bx}, {by}, 16);")
        }
        10 if len[x] <= 13 => {
            len[x] += 1;
            format!("memmove({bx} + 1, {bx}, 14);")
        }
        11 => format!(
            "out[{k}] += (memcmp({bx}, {by}, {n}) > 0) - (memcmp({bx}, {by}, {n}) < 0) * 5;",
            n = r.below(17)
        ),
        12 => format!(
            "out[{k}] += abs(in * {} - {}) + (int)labs((long)(in - {}));",
            r.below(9),
            r.below(20),
            r.below(4)
        ),
        13 => format!("out[{k}] += atoi({bx}) + (int)strtol({by}, NULL, 10);"),
        14 => {
            let i = r.below(len[x] as u64 + 1);
            let e = format!("{bx}[{i}]");
            format!(
                "out[{k}] += (isdigit({e}) != 0) + (isalpha({e}) != 0) * 2 + (isspace({e}) != 0) * 4 \
                 + (isupper({e}) != 0) * 8 + (islower({e}) != 0) * 16 + (isalnum({e}) != 0) * 32;"
            )
        }
        15 if len[x] > 0 => {
            let i = r.below(len[x] as u64);
            let f = r.pick(&["toupper", "tolower"]);
            format!("{bx}[{i}] = {f}({bx}[{i}]);")
        }
        16 => {
            len[x] = len[x].max(word_len(w));
            format!("if (in == {}) strcpy({bx}, \"{w}\");", r.below(3))
        }
        17 => format!("printf(\"%d %s|%c\\n\", out[{k}], {bx}, {by}[0]); puts({by}); putchar({bx}[0]);"),
        18 => format!("out[{k}] += strspn({bx}, \"{w}\") * 2 + strcspn({bx}, {by}) * 3;"),
        19 => format!("{{ char *p = strrchr({bx}, {c}); out[{k}] += p != 0 ? (int)(p - {bx}) : -1; }}"),
        20 => {
            let n = r.below(5) as usize;
            if len[x] + len[y].min(n) > 15 {
                return None;
            }
            len[x] += len[y].min(n);
            format!("strncat({bx}, {by}, {n});")
        }
        21 => format!(
            "{{ char *p = memchr({bx}, {c}, {}); out[{k}] += p != 0 ? (int)(p - {bx}) : -1; }}",
            r.below(17)
        ),
        22 => format!("memset(w, {}, {bytes});", r.pick(&["0", "1", "0x7f", "0xff", "'a'"])),
        23 => format!("memcpy({}, {bytes});", r.pick(&["w, v", "v, w"])),
        24 => format!("fputs({bx}, stdout); fputc({by}[0], stdout); fflush(stdout);"),
        25 => {
            let (d, n) = [
                ("&n1", "sizeof n1"),
                ("&n2", "sizeof(struct N)"),
                ("m", "sizeof m"),
                ("&m[1]", "1 * sizeof *m"),
            ][r.below(4) as usize];
            format!("memset({d}, {}, {n});", r.pick(&["0", "1", "0x7f", "0xff", "'a'"]))
        }
        26 => {
            let (d, s, n) = [
                ("&n2", "&n1", "sizeof n1"),
                ("&n1", "&n2", "sizeof(struct N)"),
                ("m", "m + 1", "sizeof(struct M)"),
                ("m + 1", "m", "sizeof *m"),
            ][r.below(4) as usize];
            format!("{}({d}, {s}, {n});", r.pick(&["memcpy", "memmove"]))
        }
        27 => format!("memset(&pk, 0, sizeof pk); out[{k}] += (pk.p == 0) + pk.k;"),
        28 => r.pick(&["n2 = n1;", "n1 = n2;", "m[0] = m[1];"]).to_string(),
        29 => {
            let convs: [(&str, &str, usize); 10] = [
                ("%d", "in * -37", 3),
                ("%4d", "in", 4),
                ("%-3u", "(unsigned)in + 7u", 3),
                ("%x", "in * 255 + 10", 3),
                ("%02X", "in * 100", 3),
                ("%o", "in + 8", 2),
                ("%c", "'A' + in", 1),
                ("%%", "", 1),
                ("%.3s", by, 3),
                ("%s", "\"w\"", 1),
            ];
            let (mut fmt, mut args, mut most) = (String::from("<"), String::new(), 1);
            for _ in 0..3 {
                let (f, a, m) = convs[r.below(10) as usize];
                fmt.push_str(f);
                most += m;
                if !a.is_empty() {
                    args.push_str(", ");
                    args.push_str(a);
                }
            }
            if y == x {
                return None;
            }
            if r.below(2) == 0 {
                len[x] = most;
                format!("out[{k}] += sprintf({bx}, \"{fmt}\"{args});")
            } else {
                let n = r.below(17) as usize;
                len[x] = if n == 0 { len[x] } else { len[x].max(most.min(n - 1)) };
                format!("out[{k}] += snprintf({bx}, {n}, \"{fmt}\"{args});")
            }
        }
        30 => {
            let w = r.pick(&["", "q", "rs"]);
            format!(
                "strcpy(ns[{}].t, \"{w}\"); out[{k}] += (int)strnlen(ns[in % 2].t, 3);",
                r.below(2)
            )
        }
        31 => format!(
            "{{ struct N *np = &ns[{}]; np->t[{}] = (char)(in + {c}); out[{k}] += np->t[in % 3]; }}",
            r.below(2),
            r.below(2)
        ),
        32 => format!(
            "{{ char *tp = ns[in % 2].t; tp[{}] += 1; out[{k}] += tp[{}] + (strncmp(tp, \"cd\", 3) < 0); }}",
            r.below(3),
            r.below(3)
        ),
        33 => r
            .pick(&[
                "ns[1] = n1;",
                "n2 = ns[0];",
                "ns[0] = ns[1];",
                "memset(&ns[1], 0, sizeof ns[1]);",
                "memcpy(&ns[0], &ns[1], sizeof(struct N));",
                "{ struct N t = ns[in % 2]; ns[1 - in % 2] = t; }",
            ])
            .to_string(),
        _ => return None,
    })
}

fn program(seed: u64) -> String {
    let mut r = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut s = String::from(PRELUDE);
    s.push_str("int main(void) {\n  int in = __VERIFIER_nondet_int();\n  __VERIFIER_assume(0 <= in && in <= 2);\n");
    let (wa, wb) = (r.pick(WORDS), r.pick(WORDS));
    let _ = writeln!(
        s,
        "  char a[16] = \"{wa}\";\n  char b[16] = \"{wb}\" \"...\";\n  char c[] = \"{wa}\";"
    );
    let mut len = [word_len(wa), word_len(wb) + 3, 2];
    s.push_str("  const char *lit = \"lit\";\n  out[0] = sizeof(c) + strlen(lit) + c[0];\n");
    s.push_str("  int w[4] = {in, -2, 300, 4};\n  int v[4] = {5, in * 7, -70000, 8};\n");
    s.push_str("  struct N n1 = {\"ab\", -3, in, 200, 5};\n  struct N n2 = {\"z\", 7, -40000, 1, -9};\n");
    s.push_str("  struct M m[2];\n  m[0].s = 3; m[0].i = in; m[0].u = 9; m[0].q = -7; m[1] = m[0]; m[1].s = -4;\n  struct P pk;\n  pk.p = &w[1]; pk.k = in;\n");
    s.push_str("  struct N ns[2] = {{\"cd\", 1, in, 2, 3}, {\"e\", 4, 5, 6}};\n");
    let whole = seed.is_multiple_of(4);
    for _ in 0..(6 + r.below(10)) {
        if let Some(l) = line(&mut r, &mut len, whole) {
            let _ = writeln!(s, "  {l}");
        }
    }
    s.push_str("  out[3] ^= (int)((unsigned)n1.t[1] + (unsigned)n1.s * 3u + (unsigned)n1.i * 5u + n1.u * 7u + (unsigned)(n1.q % 1000003) + (unsigned)n2.t[0] * 11u + (unsigned)n2.i * 13u + (unsigned)(n2.q % 999983) + (unsigned)m[0].s * 17u + (unsigned)m[1].q * 19u + (unsigned)m[1].i + m[0].u);\n");
    s.push_str("  out[2] ^= ns[0].t[0] + ns[0].t[1] * 3 + ns[0].t[2] * 5 + ns[1].t[0] * 7 + ns[1].t[1] * 11 + ns[1].t[2] * 13 + ns[1].i * 17 + (int)ns[0].q;\n");
    s.push_str("  out[0] ^= (int)((unsigned)w[0] + (unsigned)w[1] * 3u + (unsigned)w[2] * 5u + (unsigned)w[3] * 7u + (unsigned)v[1] * 11u);\n");
    for (k, buf) in ["a", "b", "gs"].iter().enumerate() {
        let _ = writeln!(
            s,
            "  out[{}] += {buf}[0] + {buf}[1] * 3 + {buf}[2] * 5 + {buf}[3] * 7 + {buf}[5] * 11 + (int)strlen({buf}) * 13;",
            k + 1
        );
    }
    s
}

pub(crate) fn focuscheck(args: &[&str]) -> (i32, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_focuscheck"))
        .args(args)
        .output()
        .expect("run focuscheck");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    (o.status.code().unwrap_or(-1), text)
}

/// `out = [a, b, c, d]` from `focuscheck run`'s globals line.
pub(crate) fn run_out(text: &str) -> Option<Vec<i64>> {
    let at = text.find("out = [")? + "out = [".len();
    let end = text[at..].find(']')? + at;
    text[at..end].split(',').map(|v| v.trim().parse().ok()).collect()
}

/// The seeds a generated-library test runs: `default`, or
/// `FOCUSCHECK_LIB_PROGRAMS`.
pub(crate) fn seeds(default: u64) -> u64 {
    std::env::var("FOCUSCHECK_LIB_PROGRAMS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// What gcc's sanitized build of `text` prints on each input; a panic
/// naming `seed` when it is not valid C.
pub(crate) fn gcc_outputs(dir: &Path, name: &str, text: &str, seed: u64) -> Vec<Vec<i64>> {
    sanitized_gcc::runs(dir, name, text)
        .into_iter()
        .map(|r| r.unwrap_or_else(|e| panic!("seed {seed}: not valid C (sanitizer):\n{text}\n{e}")))
        .collect()
}

#[test]
fn generated_string_programs_agree_with_gcc_and_every_verdict() {
    let n = seeds(PROGRAMS);
    let dir = tempfile::tempdir().expect("a temporary directory");
    for seed in 0..n {
        let text = program(seed);
        let name = format!("s{seed}");
        let want = gcc_outputs(dir.path(), &name, &text, seed);
        let file = dir.path().join(format!("{name}.fc.c"));
        std::fs::write(&file, format!("{text}  return 0;\n}}\n")).expect("write");
        let f = file.to_str().expect("utf-8 path");
        for (input, want) in want.iter().enumerate() {
            let choices = format!("{input}{}", ",1".repeat(40));
            let (code, ran) = focuscheck(&["run", "--choices", &choices, f]);
            assert_eq!(code, 0, "seed {seed}: run failed:\n{ran}\n{text}");
            assert_eq!(
                run_out(&ran),
                Some(want.clone()),
                "seed {seed}, input {input}: interpreter != gcc\n{ran}\n{text}"
            );
        }
        if seed % 4 == 0 {
            engines_agree(dir.path(), &name, seed, &text, &want);
        }
    }
}

/// `check` proves `out[k] == v` where every run computes `v` and finds it
/// unsafe where some run does not; `out[k] != v` is always unsafe.
fn engines_agree(dir: &Path, name: &str, seed: u64, text: &str, want: &[Vec<i64>]) {
    let k = (seed / 4 % 4) as usize;
    let v0 = want[0][k];
    let same = want.iter().all(|w| w[k] == v0);
    for (op, verdict) in [("==", if same { "safe" } else { "unsafe" }), ("!=", "unsafe")] {
        let checked = format!("{text}  __VERIFIER_assert(out[{k}] {op} {v0});\n  return 0;\n}}\n");
        let cf = dir.join(format!("{name}{}.c", if op == "==" { "t" } else { "f" }));
        std::fs::write(&cf, &checked).expect("write");
        let (_, out) = focuscheck(&[
            "check",
            "--property",
            "unreach-call",
            "--timeout",
            "60",
            cf.to_str().expect("utf-8"),
        ]);
        let first = out
            .lines()
            .find(|l| l.contains(" conditions") || l.contains(" condition:"))
            .unwrap_or("");
        let counts = match verdict {
            "safe" => first.contains("0 unsafe, 0 unknown, 1 safe"),
            _ => first.contains("1 unsafe, 0 unknown, 0 safe"),
        };
        assert!(
            counts,
            "seed {seed}: expected {verdict} for out[{k}] {op} {v0} (runs: {want:?}):\n{out}\n{checked}"
        );
    }
}

/// An access past a buffer through a library call, or a write to a string
/// literal, on input 2 only.
fn overflow_program(seed: u64) -> (String, &'static str) {
    let mut r = Rng(seed.wrapping_mul(0x2545_F491_4F6C_DD1D) | 1);
    let bad: &[&str] = &[
        "strcpy(a, \"0123456789abcdefXY\");",
        "strcat(a, b);",
        "memset(b, 'x', 17);",
        "memcpy(a, b, 17);",
        "strncpy(gs, \"ab\", 17);",
        "lit[1] = 'x';",
        "strcpy(lit, \"ok\");",
        "out[0] = strlen(b);",
        "out[0] = isdigit(in - 300);",
    ];
    let call = bad[(seed % bad.len() as u64) as usize];
    let mut s = String::from(PRELUDE);
    s.push_str("int main(void) {\n  int in = __VERIFIER_nondet_int();\n  __VERIFIER_assume(0 <= in && in <= 2);\n");
    s.push_str(
        "  char a[16] = \"0123456789\";\n  char b[16];\n  memset(b, 'z', 16);\n  char *lit = (char *)\"lit\";\n",
    );
    // `b` lacks its NUL until a correct run puts it back.
    let _ = writeln!(s, "  if (in != 2) b[{}] = 0;", r.below(6));
    let _ = writeln!(s, "  out[1] = strlen(a) + in;\n  if (in == 2) {call}");
    s.push_str("  out[2] = a[0] + lit[0];\n");
    (s, call)
}

#[test]
fn overflows_through_library_calls_are_found_at_the_call() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    for seed in 0..9u64 {
        let (text, call) = overflow_program(seed);
        let name = format!("o{seed}");
        let runs = sanitized_gcc::runs(dir.path(), &name, &text);
        assert!(runs[0].is_ok() && runs[1].is_ok(), "seed {seed}: {runs:?}\n{text}");
        // glibc's `isdigit` reads its table at any index, unseen by ASan.
        if !call.contains("isdigit") {
            let Err(e) = &runs[2] else {
                panic!("seed {seed}: gcc's sanitizer finds nothing on input 2\n{text}");
            };
            assert!(
                e.contains("AddressSanitizer") || e.contains("runtime error"),
                "seed {seed}: {e}"
            );
        }
        let file = dir.path().join(format!("{name}.fc.c"));
        std::fs::write(&file, format!("{text}  return 0;\n}}\n")).expect("write");
        let f = file.to_str().expect("utf-8 path");
        let (code, out) = focuscheck(&["check", "--timeout", "60", f]);
        assert_eq!(code, 1, "seed {seed}:\n{out}\n{text}");
        let line = text.lines().position(|l| l.contains(call)).expect("the call's line") + 1;
        let kind = if call.contains("isdigit") {
            "array bounds"
        } else {
            "pointer access"
        };
        let shown = call.trim_end_matches(';');
        let shown = shown.strip_prefix("out[0] = ").unwrap_or(shown);
        assert!(
            out.lines()
                .any(|l| l.starts_with(&format!("unsafe: {kind} in `{shown}`"))),
            "seed {seed}: no `{kind}` error at `{shown}`:\n{out}\n{text}"
        );
        assert!(
            out.contains(&format!(".fc.c:{line}:")),
            "seed {seed}: the error is not at line {line}:\n{out}\n{text}"
        );
        // Inputs 0 and 1 run to the end in the interpreter too.
        for input in 0..2 {
            let choices = format!("{input}{}", ",1".repeat(40));
            let (code, ran) = focuscheck(&["run", "--choices", &choices, f]);
            assert_eq!(code, 0, "seed {seed}, input {input}:\n{ran}\n{text}");
        }
    }
}

/// `fgets` as glibc reads a line: two calls with generated buffer sizes on
/// generated input (newlines, a last line without one, bytes above 127,
/// no input at all); the interpreter, given the input's bytes as the
/// draws of the model (then EOF), computes what gcc's build computes
/// reading the same bytes from `stdin`.
#[test]
fn fgets_reads_lines_as_glibc_does() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let bytes: &[u8] = b"ab\n\n x9\n\xc8Q";
    for seed in 0..12u64 {
        let mut r = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
        let (n1, n2) = (
            r.pick(&["0", "1", "2", "3", "5", "16"]),
            r.pick(&["1", "2", "4", "8", "14"]),
        );
        let input: Vec<u8> = (0..r.below(14))
            .map(|_| bytes[r.below(bytes.len() as u64) as usize])
            .collect();
        let text = format!(
            "extern int __VERIFIER_nondet_int(void);\n\
             extern char *fgets(char *restrict s, int n, struct _IO_FILE *restrict stream);\n\
             extern struct _IO_FILE *stdin;\nint out[4];\n\
             static int hash(const char *b) {{ unsigned h = 0; for (int i = 0; i < 16; i++) h = h * 3u + (unsigned)b[i]; return (int)(h % 100003u); }}\n\
             int main(void) {{\n  int in = __VERIFIER_nondet_int();\n  char buf[16] = \"zzzzzzzzzzzzzzz\";\n\
             \x20 char *r1 = fgets(buf, {n1}, stdin);\n  out[0] = r1 == 0 ? -1 : (int)(r1 - buf);\n  out[1] = hash(buf) + in;\n\
             \x20 char *r2 = fgets(buf + 2, {n2}, stdin);\n  out[2] = r2 == 0 ? -1 : (int)(r2 - buf);\n  out[3] = hash(buf);\n"
        );
        let name = format!("g{seed}");
        let main = text.replace("int main(void) {", "int fc_main(void) {");
        let harness = format!(
            "#include <stdio.h>\nint __VERIFIER_nondet_int(void) {{ return 0; }}\n{main}  return 0;\n}}\n\
             int main(void) {{ fc_main(); for (int i = 0; i < 4; i++) printf(\"OUT %d\\n\", out[i]); return 0; }}\n"
        );
        let exe = sanitized_gcc::build(dir.path(), &name, &harness);
        let mut child = Command::new(&exe)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("run the compiled program");
        use std::io::Write as _;
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(&input)
            .expect("write stdin");
        let o = child.wait_with_output().expect("the program's output");
        assert!(
            o.status.success(),
            "seed {seed}: gcc's build failed: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let want: Vec<i64> = String::from_utf8_lossy(&o.stdout)
            .lines()
            .filter_map(|l| l.strip_prefix("OUT ")?.trim().parse().ok())
            .collect();
        let file = dir.path().join(format!("{name}.fc.c"));
        std::fs::write(&file, format!("{text}  return 0;\n}}\n")).expect("write");
        let draws: Vec<String> = input.iter().map(|b| b.to_string()).collect();
        let choices = format!("0,{}{}", draws.join(","), ",-1".repeat(20));
        let choices = choices.replace("0,,", "0,");
        let (code, ran) = focuscheck(&["run", "--choices", &choices, file.to_str().expect("utf-8")]);
        assert_eq!(code, 0, "seed {seed}: {ran}\n{text}");
        assert_eq!(
            run_out(&ran),
            Some(want),
            "seed {seed}, input {input:?}:\n{ran}\n{text}"
        );
    }
}
