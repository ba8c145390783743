//! `check --tests DIR`: a C test harness per confirmed counterexample
//! (`views::harness`), or the reason there is none, said per error; and
//! the same counterexamples as a Test-Comp test suite (`views::testcomp`),
//! one folder per program.

use crate::analysis::Verdict;
use crate::check::Report;
use crate::ir::Program;
use crate::views::{harness, testcomp};
use std::path::Path;

/// The harness file of the error at `line` of `file`: the file's path
/// with its folders joined by `.` (`..` left out), so that files of the
/// same name in different folders do not share one.
pub(super) fn harness_name(file: &Path, line: u32) -> String {
    let parts: Vec<String> = file
        .components()
        .filter_map(|c| match c {
            std::path::Component::Normal(s) => Some(s.to_string_lossy().into_owned()),
            _ => None,
        })
        .collect();
    format!("{}.{line}.harness.c", parts.join("."))
}

/// Writes the harnesses of `report`'s unsafe conditions into `dir`; the
/// lines that say where each went, or why there is none.
pub fn write(dir: &Path, file: &Path, p: &Program, report: &Report) -> String {
    let name = file.display().to_string();
    let mut out = String::new();
    let mut cases: Vec<(u32, harness::Calls)> = Vec::new();
    for res in report.results.iter().filter(|r| r.verdict == Verdict::Unsafe) {
        let c = report.condition(res);
        let site = c.site().map(|s| p.site(s));
        let line = site.map(|s| p.source.start(s.span).line);
        let at = match line {
            Some(l) => format!("{name}:{l}"),
            None => format!("{name}: {}", c.describe(p)),
        };
        let cx = report.top_counterexample(res);
        let made = match (site, line, cx) {
            (Some(s), Some(l), Some(cx)) if harness::c_stops_at(s.kind, p.text(s.span)) => harness::nondet_calls(p, cx)
                .and_then(|calls| {
                    let what = p.text(s.span).split_whitespace().collect::<Vec<_>>().join(" ");
                    let text = harness::c_text(&name, &at, &what, &calls);
                    let path = dir.join(harness_name(file, l));
                    let written = std::fs::create_dir_all(dir)
                        .and_then(|_| std::fs::write(&path, text))
                        .map(|_| path)
                        .map_err(|e| format!("cannot write into `{}`: {e}", dir.display()));
                    // A Test-Comp test case has no arguments.
                    if calls.1.is_none() {
                        cases.push((l, calls));
                    }
                    written
                }),
            (_, _, None) => Err("no counterexample was kept".into()),
            _ => Err(format!(
                "C does not stop at this kind of error ({}): only calls of reach_error and failed assert calls",
                c.json_kind(p)
            )),
        };
        match made {
            Ok(path) => out.push_str(&format!("{at}: test harness {}\n", path.display())),
            Err(why) => out.push_str(&format!("{at}: no test harness: {why}\n")),
        }
    }
    if !cases.is_empty() {
        out.push_str(&write_suite(dir, file, p, &cases));
    }
    out
}

/// The Test-Comp suite of `file`: `metadata.xml` and `LINE.xml` per
/// counterexample in `DIR/NAME.testsuite/`; the line that says where.
fn write_suite(dir: &Path, file: &Path, p: &Program, cases: &[(u32, harness::Calls)]) -> String {
    let name = file.display().to_string();
    let folder = dir.join(harness_name(file, 0).replace(".0.harness.c", ".testsuite"));
    let hash = std::fs::read(file)
        .map(|b| testcomp::sha256_hex(&b))
        .unwrap_or_default();
    let entry = &p.proc(p.entry).name;
    let written = std::fs::create_dir_all(&folder).and_then(|_| {
        std::fs::write(
            folder.join("metadata.xml"),
            testcomp::metadata(&name, &hash, entry, &creation_time()),
        )?;
        for (line, calls) in cases {
            std::fs::write(folder.join(format!("{line}.xml")), testcomp::testcase(calls))?;
        }
        Ok(())
    });
    match written {
        Ok(()) => format!("{name}: Test-Comp test suite {}\n", folder.display()),
        Err(e) => format!(
            "{name}: no Test-Comp test suite: cannot write `{}`: {e}\n",
            folder.display()
        ),
    }
}

/// Now in UTC as ISO 8601 (the suite's creation time), or the time
/// `SOURCE_DATE_EPOCH` gives, for output that does not change run to run.
pub(super) fn creation_time() -> String {
    let secs = std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|s| s.trim().parse::<i64>().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs() as i64)
        });
    // Days to a civil date (Howard Hinnant's algorithm).
    let (days, rest) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}
