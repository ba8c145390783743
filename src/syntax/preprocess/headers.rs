//! Where `#include` finds a header: the directories to search (the
//! including file's own for `"..."`, then `-I`), then the headers
//! focuscheck ships (`include/` in the project, built into the binary so
//! an installed binary needs no files beside it). The system's headers
//! (`/usr/include`) are not searched: they are written for the host (64
//! bits, GNU extensions), not for C11 on ILP32 as focuscheck reads it.

use std::path::{Path, PathBuf};

/// The shipped headers, by the name `#include <...>` gives.
pub const SHIPPED: &[(&str, &str)] = &[
    ("assert.h", include_str!("../../../include/assert.h")),
    ("ctype.h", include_str!("../../../include/ctype.h")),
    ("limits.h", include_str!("../../../include/limits.h")),
    ("math.h", include_str!("../../../include/math.h")),
    ("stdbool.h", include_str!("../../../include/stdbool.h")),
    ("stddef.h", include_str!("../../../include/stddef.h")),
    ("stdint.h", include_str!("../../../include/stdint.h")),
    ("stdio.h", include_str!("../../../include/stdio.h")),
    ("stdlib.h", include_str!("../../../include/stdlib.h")),
    ("string.h", include_str!("../../../include/string.h")),
];

/// A header found: the name messages give it, its text, its directory.
pub struct Found {
    pub name: String,
    pub text: String,
    pub dir: Option<PathBuf>,
}

/// The header `target` in the first of `dirs` that has it, else the
/// shipped one of that name.
pub fn find(target: &str, dirs: &[PathBuf], read: Option<super::ReadFile>) -> Option<Found> {
    for d in dirs.iter().filter(|_| read.is_some()) {
        let path = d.join(target);
        let Some(bytes) = read.and_then(|r| r(&path)) else {
            continue;
        };
        let text = String::from_utf8_lossy(&bytes).into_owned();
        return Some(Found {
            name: display(&path),
            text,
            dir: path.parent().map(Path::to_path_buf),
        });
    }
    let (_, text) = SHIPPED.iter().find(|(n, _)| *n == target)?;
    Some(Found {
        name: format!("<{target}>"),
        text: text.to_string(),
        dir: None,
    })
}

/// A path as a message shows it (`./x.h` as `x.h`).
fn display(path: &Path) -> String {
    let s = path.display().to_string();
    s.strip_prefix("./").map(str::to_string).unwrap_or(s)
}

/// Where a header was looked for, for the error that it is not there.
pub fn not_found_note(quoted: bool) -> String {
    let shipped: Vec<String> = SHIPPED.iter().map(|(n, _)| format!("<{n}>")).collect();
    format!(
        "searched {}in the `-I DIR` directories, then among the headers focuscheck ships ({}); \
         the system's headers are not read: give a header's directory with `-I DIR`",
        if quoted { "beside the including file, " } else { "" },
        shipped.join(", ")
    )
}
