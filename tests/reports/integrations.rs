//! The integrations with other tools, each a script run here against the
//! binary under test (see their headers and the README): BenchExec's check
//! of the tool-info module and a BenchExec run on a few SV-COMP tasks
//! (`scripts/test-benchexec`), and a one-node Slurm cluster running
//! `scripts/slurm-check` over `programs/` and the SV-COMP corpus
//! (`scripts/test-slurm`). They install what they need (benchexec from
//! PyPI, Debian's slurm-wlm and munge) and fail, never skip, when
//! something cannot run.

use std::process::Command;

fn script(name: &str) {
    let bin = env!("CARGO_BIN_EXE_focuscheck");
    let out = Command::new(format!("{}/scripts/{name}", env!("CARGO_MANIFEST_DIR")))
        .arg(bin)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap_or_else(|e| panic!("cannot run scripts/{name}: {e}"));
    let err = String::from_utf8_lossy(&out.stderr);
    // What the script found, for --nocapture.
    for line in err.lines().filter(|l| l.starts_with("test-")) {
        eprintln!("{line}");
    }
    assert!(
        out.status.success(),
        "scripts/{name} {bin} failed ({}):\n{err}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(err.contains(": ok"), "scripts/{name} did not say ok:\n{err}");
}

#[test]
fn benchexec_runs_the_tool_info_module_and_agrees_with_check() {
    script("test-benchexec");
}

#[test]
fn slurm_shards_merged_equal_one_check() {
    script("test-slurm");
}
