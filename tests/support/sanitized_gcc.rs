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
