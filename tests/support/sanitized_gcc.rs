//! Building a generated C file with gcc, ASan and UBSan on (any undefined
//! behaviour stops the program), as the differential tests compare with.

use std::path::Path;
use std::process::Command;

/// Writes `text` to `DIR/NAME.c` and builds `DIR/NAME`; returns the
/// executable's path.
pub fn build(dir: &Path, name: &str, text: &str) -> std::path::PathBuf {
    let src = dir.join(format!("{name}.c"));
    let exe = dir.join(name);
    std::fs::write(&src, text).expect("write a C file");
    let o = Command::new("gcc")
        .args([
            "-std=gnu11",
            "-O0",
            "-w",
            "-fsanitize=address,undefined",
            "-fno-sanitize-recover=all",
            "-o",
        ])
        .arg(&exe)
        .arg(&src)
        .output()
        .expect("gcc is needed by this test");
    assert!(o.status.success(), "gcc: {}", String::from_utf8_lossy(&o.stderr));
    exe
}

/// Runs generated program `text` (its `main` filling `int out[4]`, its
/// inputs `__VERIFIER_nondet_int()`) under gcc with the sanitizers: `out`
/// for each input 0, 1, 2, or what the sanitizer said.
#[allow(dead_code)] // not every test binary including this file runs programs
pub fn runs(dir: &Path, name: &str, text: &str) -> Vec<Result<Vec<i64>, String>> {
    let main = text.replace("int main(void) {", "int fc_main(void) {");
    let harness = format!(
        "#include <stdio.h>\n#include <stdlib.h>\nvoid __VERIFIER_error(void) {{ printf(\"ERROR\\n\"); exit(0); }}\n\
         int __VERIFIER_nondet_int(void) {{ return atoi(getenv(\"FC_IN\")); }}\n\
         void __VERIFIER_assume(int c) {{ if (!c) exit(0); }}\n\
         {main}  return 0;\n}}\n\
         int main(void) {{ fc_main(); for (int i = 0; i < 4; i++) printf(\"\\nOUT %d\\n\", out[i]); return 0; }}\n"
    );
    let exe = build(dir, name, &harness);
    // The values follow `OUT ` (the program may print too).
    outputs(&exe, |l| l.strip_prefix("OUT "))
}

/// What `exe` prints on inputs 0, 1 and 2 (`FC_IN`): per input the
/// numbers of the lines `pick` keeps, or the sanitizer's report of a run
/// that fails.
pub fn outputs(exe: &Path, pick: impl Fn(&str) -> Option<&str>) -> Vec<Result<Vec<i64>, String>> {
    (0..3)
        .map(|input| {
            let o = Command::new(exe)
                .env("FC_IN", input.to_string())
                .output()
                .expect("run the compiled program");
            if !o.status.success() {
                return Err(String::from_utf8_lossy(&o.stderr).into_owned());
            }
            Ok(String::from_utf8_lossy(&o.stdout)
                .lines()
                .filter_map(&pick)
                .map(|l| l.trim().parse().expect("a number"))
                .collect())
        })
        .collect()
}
