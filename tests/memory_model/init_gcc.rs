//! Designated initialisers (C11 6.7.9) against gcc: generated programs
//! (`support/init_gen.rs`) initialise globals and locals with `.field`,
//! `[index]` and nested designators, overriding ones and positional
//! elements after them. The interpreter computes gcc's `out` on each
//! input, and `check` proves what every run computes and refutes what
//! some run does not.

use crate::init_gen;
use crate::mem_gcc::{engines_agree, interpreter_agrees, programs_or};

#[test]
fn generated_designated_initialisers_agree_with_gcc_and_every_verdict() {
    let n = programs_or(12);
    let dir = tempfile::tempdir().expect("a temporary directory");
    for seed in 0..n {
        let text = init_gen::program(seed);
        let name = format!("d{seed}");
        let want = interpreter_agrees(dir.path(), &name, seed, &text, 10);
        if seed % 4 == 0 {
            engines_agree(dir.path(), &name, seed, &text, &want, false);
        }
    }
}
