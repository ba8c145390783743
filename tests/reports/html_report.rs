//! The HTML report (`check --html DIR`) in a real browser: headless
//! Chromium loads the page of `paper/lock.c`, clicks the top-ranked NEST,
//! then its "full trace" link, and the test checks what is shown. A
//! screenshot of the clicked page is saved under `target/`.
//!
//! Chromium is found as `$FOCUSCHECK_CHROMIUM`, `chromium`,
//! `chromium-browser` or `google-chrome`; `scripts/test` installs Debian's
//! `chromium` when none is present. Without one the test fails and says so.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn out_dir(name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Runs `focuscheck check ARGS... --html DIR` and returns DIR.
fn report(name: &str, args: &[&str]) -> PathBuf {
    let dir = out_dir(name);
    let out = Command::new(env!("CARGO_BIN_EXE_focuscheck"))
        .current_dir(root())
        .arg("check")
        .args(args)
        .arg("--html")
        .arg(&dir)
        .output()
        .unwrap();
    let code = out.status.code();
    assert!(
        matches!(code, Some(0) | Some(1)),
        "check failed ({code:?}): {}",
        String::from_utf8_lossy(&out.stderr)
    );
    dir
}

fn chromium() -> PathBuf {
    let candidates: Vec<String> = std::env::var("FOCUSCHECK_CHROMIUM")
        .into_iter()
        .chain(["chromium", "chromium-browser", "google-chrome"].map(String::from))
        .collect();
    for c in &candidates {
        if Command::new(c)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
        {
            return PathBuf::from(c);
        }
    }
    panic!(
        "no headless browser found (tried {}): run `scripts/test`, which installs Debian's `chromium`, \
         or set FOCUSCHECK_CHROMIUM",
        candidates.join(", ")
    );
}

fn browser(page: &Path, extra: &[&str]) -> std::process::Output {
    let url = format!("file://{}", page.display());
    let profile = out_dir("chromium-profile");
    Command::new(chromium())
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--disable-background-networking",
            "--no-first-run",
            "--hide-scrollbars",
            "--window-size=1400,900",
            "--virtual-time-budget=5000",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(extra)
        .arg(url)
        .output()
        .unwrap()
}

/// What the page shows after the clicks, as JSON: written by a script
/// appended to a copy of the page, read back from the dumped DOM.
const CLICKS: &str = r#"
<script>
window.addEventListener('load', () => {
  const shown = el => !!el && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  const marked = cls => [...document.querySelectorAll('.ln.' + cls)].map(e => e.id.slice(1));
  const r = {};
  const nest = document.querySelector('#c0-r1 .nest');
  r.nest_found = !!nest;
  if (nest) nest.click();
  r.nest_marked = marked('nest');
  const link = document.querySelector('#c0-r1 .to-trace');
  r.link_shown = shown(link);
  if (link) link.click();
  const t = document.getElementById('c0-t1');
  r.traces_open = !!t && t.closest('details.traces').open;
  r.trace_open = !!t && t.open;
  const items = t ? [...t.querySelectorAll('ol li')] : [];
  r.steps = items.length;
  r.steps_shown = items.filter(shown).length;
  r.inputs = t ? t.querySelector('.inputs').textContent : '';
  r.inputs_shown = !!t && shown(t.querySelector('.inputs'));
  r.trace_marked = marked('hl');
  const pre = document.createElement('pre');
  pre.id = 'test-result';
  pre.textContent = JSON.stringify(r);
  document.body.appendChild(pre);
});
</script>
"#;

fn clicked_copy(page: &Path) -> PathBuf {
    let html = std::fs::read_to_string(page).unwrap();
    assert!(html.contains("</body>"), "{}: no </body>", page.display());
    let copy = page.with_file_name("clicked.html");
    std::fs::write(&copy, html.replace("</body>", &format!("{CLICKS}</body>"))).unwrap();
    copy
}

fn result_of(dom: &str) -> Value {
    let start = dom
        .find("<pre id=\"test-result\">")
        .unwrap_or_else(|| panic!("the test script left no result; the page's DOM:\n{dom}"));
    let body = &dom[start + "<pre id=\"test-result\">".len()..];
    let body = &body[..body.find("</pre>").unwrap()];
    let text = body
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&amp;", "&");
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("bad result {text}: {e}"))
}

#[test]
fn clicking_from_the_nest_down_to_the_full_trace() {
    let dir = report("html-lock", &["programs/paper/lock.c"]);
    let index = std::fs::read_to_string(dir.join("index.html")).unwrap();
    assert!(
        index.contains("programs/paper/lock.c") && index.contains("unsafe"),
        "{index}"
    );
    let page = dir.join("files").join("0001-lock.c.html");
    let copy = clicked_copy(&page);

    let out = browser(&copy, &["--dump-dom"]);
    let dom = String::from_utf8_lossy(&out.stdout);
    let r = result_of(&dom);
    assert_eq!(r["nest_found"], true, "{r}");
    // The NEST of the top-ranked FSS of lock.c (the paper's Fig. 1) is
    // highlighted in the source.
    let nest: Vec<&str> = r["nest_marked"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert_eq!(nest, ["4", "5", "6", "7", "11", "12", "18", "20"], "{r}");
    assert_eq!(
        r["link_shown"], true,
        "the link to the full trace is not visible after the click: {r}"
    );
    // The full trace is open and visible, with its concrete inputs.
    assert_eq!(r["traces_open"], true, "{r}");
    assert_eq!(r["trace_open"], true, "{r}");
    assert_eq!(r["inputs_shown"], true, "{r}");
    let inputs = r["inputs"].as_str().unwrap();
    assert!(inputs.contains("gotlock = 1"), "inputs shown: {inputs}");
    let steps = r["steps"].as_u64().unwrap();
    assert!(steps > 10, "{r}");
    assert_eq!(r["steps_shown"].as_u64().unwrap(), steps, "{r}");
    // The trace's lines are highlighted, from main's first statement to the
    // error in rellock.
    let marked: Vec<&str> = r["trace_marked"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    for l in ["4", "11", "12", "20"] {
        assert!(marked.contains(&l), "line {l} not highlighted: {r}");
    }

    let shot = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("html-report.png");
    let _ = std::fs::remove_file(&shot);
    let out = browser(&copy, &[&format!("--screenshot={}", shot.display())]);
    assert!(
        shot.metadata().is_ok_and(|m| m.len() > 10_000),
        "no screenshot at {}: {}",
        shot.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    eprintln!("screenshot: {}", shot.display());
}

#[test]
fn the_report_is_self_contained() {
    let dir = report("html-paper", &["programs/paper", "programs/examples"]);
    let index = std::fs::read_to_string(dir.join("index.html")).unwrap();
    let mut pages = vec![index.clone()];
    for e in std::fs::read_dir(dir.join("files")).unwrap() {
        let p = e.unwrap().path();
        // Every page is linked from the index.
        let name = p.file_name().unwrap().to_str().unwrap().to_string();
        assert!(
            index.contains(&format!("files/{name}")),
            "{name} not linked from the index"
        );
        pages.push(std::fs::read_to_string(&p).unwrap());
    }
    assert!(pages.len() > 10, "{} pages", pages.len());
    for page in &pages {
        for needle in ["src=\"http", "href=\"http", "url(http", "@import", "<link "] {
            assert!(
                !page.contains(needle),
                "the report loads something from outside: {needle}"
            );
        }
    }
}
