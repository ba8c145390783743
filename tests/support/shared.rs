//! `../shared`, beside the project root: the corpora (SV-COMP, TCAS) and
//! schemas some tests read. Never an absolute path: a clone anywhere works
//! when `../shared` sits beside it.

use std::path::PathBuf;

/// `../shared/REL` beside the project; fails at once, saying what is
/// missing and where it was looked for, when it is not there.
#[allow(dead_code)]
pub fn shared(rel: &str) -> PathBuf {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared");
    assert!(
        root.is_dir(),
        "this test reads `../shared` beside the project, which is missing (looked for {}): \
         put the shared corpora and schemas there (see the README, \"Tests\")",
        root.display()
    );
    let p = root.join(rel);
    assert!(
        p.exists(),
        "this test reads `../shared/{rel}`, which is missing (looked for {})",
        p.display()
    );
    p
}
