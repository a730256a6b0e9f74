//! The HTML report in a real browser: headless Chromium loads it, no
//! JavaScript error occurs, every section renders, and a screenshot is
//! kept as a test artifact (`target/tmp/report.png`).
//!
//! Chromium is not part of a Rust-only machine: without it the test says
//! so and passes, unless `CORERA_REQUIRE_BROWSER=1` (set by `.ci/run`,
//! which installs Debian's chromium) makes its absence a failure.

use std::path::PathBuf;
use std::process::Command;

use crate::corera;

fn chromium() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("CORERA_CHROMIUM") {
        return Some(p.into());
    }
    ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
        .iter()
        .map(PathBuf::from)
        .find(|p| p.exists())
}

fn headless(browser: &PathBuf, profile: &std::path::Path) -> Command {
    let mut c = Command::new(browser);
    c.args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--enable-logging=stderr",
        "--v=0",
    ])
    .arg(format!("--user-data-dir={}", profile.display()));
    c
}

/// The browser, or `None` (and the test skipped, saying why) when there is
/// none and `CORERA_REQUIRE_BROWSER` does not ask for one.
fn browser_or_skip() -> Option<PathBuf> {
    let browser = chromium();
    if browser.is_none() {
        assert!(std::env::var_os("CORERA_REQUIRE_BROWSER").is_none(), "CORERA_REQUIRE_BROWSER is set but no chromium");
        eprintln!("skipped: no chromium (install Debian's chromium, or set CORERA_CHROMIUM)");
    }
    browser
}

/// The DOM of `url` after its scripts ran, and the browser's stderr.
fn dump_dom(browser: &PathBuf, dir: &std::path::Path, url: &str) -> (String, String) {
    let dom = headless(browser, &dir.join("profile-dom")).arg("--dump-dom").arg(url).output().unwrap();
    assert!(dom.status.success(), "{}", String::from_utf8_lossy(&dom.stderr));
    (String::from_utf8_lossy(&dom.stdout).into_owned(), String::from_utf8_lossy(&dom.stderr).into_owned())
}

/// A screenshot of `url` (with `args`) in `png`, checked to be one.
fn screenshot(browser: &PathBuf, dir: &std::path::Path, url: &str, args: &[&str], png: &std::path::Path) {
    let shot = headless(browser, &dir.join("profile-shot"))
        .args(args)
        .arg(format!("--screenshot={}", png.display()))
        .arg(url)
        .output()
        .unwrap();
    assert!(shot.status.success(), "{}", String::from_utf8_lossy(&shot.stderr));
    let bytes = std::fs::read(png).unwrap();
    assert!(bytes.len() > 10_000 && bytes.starts_with(b"\x89PNG"), "{} bytes", bytes.len());
}

#[test]
fn report_renders_in_a_headless_browser_without_script_errors() {
    let Some(browser) = browser_or_skip() else { return };
    let dir = tempfile::tempdir().unwrap();
    corera().args(["analyze", "samples/printer/printer.log", "-q", "-o"]).arg(dir.path()).assert().success();
    let report = dir.path().join("report.html");
    let html = std::fs::read_to_string(&report).unwrap();
    // Self-contained: nothing to fetch.
    for needle in ["http://", "https://", "<link", "src=\""] {
        assert!(!html.contains(needle), "the report references `{needle}`");
    }
    let url = format!("file://{}", report.display());
    let (text, stderr) = dump_dom(&browser, dir.path(), &url);
    assert!(!stderr.contains("Uncaught"), "script error: {stderr}");
    let body = text.split("<body").nth(1).and_then(|b| b.split('>').next()).expect("a body element");
    assert!(body.contains("data-js-errors=\"0\""), "{body}");
    // Six timeline rows (the recording, then single core, global SMP,
    // traffic-optimal AMP, the best AMP, the recommended masks), 24 graph
    // nodes, a heat map, the front of replayed candidates and a box per
    // task and set-up.
    assert!(body.contains("gantt:6,graph:24,heatmap:"), "{body}");
    let count = |what: &str| -> usize {
        let at = body.find(&format!("{what}:")).unwrap_or_else(|| panic!("no {what} in {body}"));
        body[at + what.len() + 1..].split(|c: char| !c.is_ascii_digit()).next().unwrap().parse().unwrap()
    };
    assert!(count("front") >= 100, "{body}");
    assert_eq!(count("distributions"), 5 * 24, "{body}");
    assert_eq!(text.matches("<canvas").count(), 6);
    let sections = ["recommendation", "front", "headline", "distributions", "loads", "graph", "heatmap", "timelines"];
    for id in sections.into_iter().chain(["placement", "search", "trace"]) {
        assert!(text.contains(&format!("<section id=\"{id}\"")), "section {id}");
    }
    // A screenshot, kept for people to look at.
    let png = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("report.png");
    screenshot(&browser, dir.path(), &url, &["--window-size=1200,3000"], &png);
}

/// `simulate --timeline`'s page renders without a script error, and its
/// screenshot is the one on the book's report page (rewritten with
/// `CORERA_BLESS=1`; otherwise kept in `target/tmp/timeline.png`).
#[test]
fn the_timeline_page_renders_in_a_headless_browser() {
    let Some(browser) = browser_or_skip() else { return };
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("timeline.html");
    corera()
        .args(["simulate", "samples/printer/printer.log", "-q", "--policy", "smp", "--cores", "2", "--timeline"])
        .arg(&page)
        .assert()
        .success();
    let url = format!("file://{}", page.display());
    let (text, stderr) = dump_dom(&browser, dir.path(), &url);
    assert!(!stderr.contains("Uncaught"), "script error: {stderr}");
    let body = text.split("<body").nth(1).and_then(|b| b.split('>').next()).expect("a body element");
    assert!(body.contains("data-js-errors=\"0\"") && body.contains("gantt:2"), "{body}");
    // A legend entry per task drawn: the printer's 24.
    assert_eq!(text.matches("class=\"gantt-key\"").count(), 24);
    let png = if std::env::var_os("CORERA_BLESS").is_some() {
        crate::repo("book/src/guide/timeline.png")
    } else {
        PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("timeline.png")
    };
    screenshot(&browser, dir.path(), &url, &["--window-size=1100,620", "--hide-scrollbars"], &png);
}
