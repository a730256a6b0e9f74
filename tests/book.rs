//! The book against the binary: each subcommand's reference page shows its
//! `--help` text as it is, and the quick start shows the summary the
//! printer sample really prints. `CORERA_BLESS=1` rewrites the help blocks
//! after an intended change to the flags (review the diff).

use crate::{corera, repo};

const COMMANDS: [&str; 10] =
    ["analyze", "ingest", "graph", "place", "emit", "simulate", "gen", "diff", "check", "calibrate"];

/// The fenced block after `marker` in `page`: its byte range.
fn block_after(page: &str, marker: &str) -> std::ops::Range<usize> {
    let at = page.find(marker).unwrap_or_else(|| panic!("no `{marker}` in the page"));
    let open = at + page[at..].find("```text\n").expect("a ```text block after the marker") + "```text\n".len();
    let close = open + page[open..].find("```\n").expect("the block is closed");
    open..close
}

#[test]
fn every_subcommand_page_shows_its_help() {
    for cmd in COMMANDS {
        let out = corera().args([cmd, "--help"]).env("COLUMNS", "100").output().unwrap();
        assert!(out.status.success());
        let help = String::from_utf8(out.stdout).unwrap();
        let path = repo("book/src/reference/cli").join(format!("{cmd}.md"));
        let page = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let range = block_after(&page, &format!("<!-- corera {cmd} --help -->"));
        if std::env::var_os("CORERA_BLESS").is_some() {
            let mut updated = page.clone();
            updated.replace_range(range, &help);
            std::fs::write(&path, updated).unwrap();
            continue;
        }
        assert!(
            page[range].trim_end() == help.trim_end(),
            "book/src/reference/cli/{cmd}.md shows an old `corera {cmd} --help`; rerun with CORERA_BLESS=1"
        );
        let summary = std::fs::read_to_string(repo("book/src/SUMMARY.md")).unwrap();
        assert!(summary.contains(&format!("(reference/cli/{cmd}.md)")), "{cmd} is not in the book's SUMMARY.md");
    }
}

#[test]
fn quick_start_shows_the_printer_summary() {
    let page = std::fs::read_to_string(repo("book/src/quick-start.md")).unwrap();
    let golden = std::fs::read_to_string(repo("samples/printer/expected/summary.txt")).unwrap();
    let range = block_after(&page, "The summary ends with");
    let shown = &page[range];
    assert!(shown.lines().count() >= 5);
    for line in shown.lines() {
        assert!(
            golden.lines().any(|g| g == line),
            "quick-start.md shows a line the printer sample no longer prints:\n{line}"
        );
    }
}

/// Formats, methods, policies, targets, objectives and costs are each listed once, in their
/// crate's registry; the book's lists must name every entry of it.
#[test]
fn every_registry_entry_is_in_the_book() {
    let page = |rel: &str| std::fs::read_to_string(repo(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
    let cli = page("book/src/reference/cli.md");
    let formats: Vec<&str> = std::iter::once(corera_trace_ingest::FormatChoice::AUTO)
        .chain(corera_trace_ingest::FormatChoice::ALL)
        .map(|f| f.name())
        .collect();
    let methods: Vec<&str> = corera_search::Method::ALL.iter().map(|m| m.name()).collect();
    let policies: Vec<&str> = corera_replay::Policy::ALL.iter().map(|p| p.name()).collect();
    let targets: Vec<&str> = corera_emit::Target::ALL.iter().map(|t| t.name()).collect();
    let objectives: Vec<&str> = corera_placement::Objective::ALL.iter().map(|g| g.name()).collect();
    for (flag, names, sep) in [
        ("--format", &formats, "|"),
        ("--method", &methods, "|"),
        ("--policy", &policies, "\\|"),
        ("--target", &targets, "\\|"),
        ("--objective", &objectives, "\\|"),
    ] {
        let list = format!("{flag} {}", names.join(sep));
        assert!(cli.contains(&list), "book/src/reference/cli.md does not list `{list}`");
    }
    let replay = page("book/src/design/replay.md");
    for p in &policies {
        assert!(replay.contains(&format!("| `{p}` |")), "book/src/design/replay.md has no row for policy `{p}`");
    }
    let platform = page("book/src/reference/platform.md");
    for key in corera_placement::Costs::KEYS {
        assert!(platform.contains(&format!("| `{key}` |")), "book/src/reference/platform.md has no row for `{key}`");
    }
    let outputs = page("book/src/reference/outputs.md");
    for t in &targets {
        assert!(outputs.contains(&format!("`{t}`")), "book/src/reference/outputs.md does not name target `{t}`");
    }
    for t in corera_emit::Target::ALL {
        let row = format!("| `{}` | {} |", t.name(), t.masks());
        assert!(outputs.contains(&row), "book/src/reference/outputs.md's target table lacks `{row}`");
    }
    let readme = page("README.md");
    let reference = page("book/src/SUMMARY.md");
    for f in corera_trace_ingest::FormatChoice::ALL {
        let name = f.name();
        assert!(readme.contains(&format!("`--format {name}`")), "README.md's formats do not name `{name}`");
        assert!(reference.to_lowercase().contains(&format!("reference/{}", f.page())), "no book page for `{name}`");
    }
}

/// The architecture page's crate map is the workspace: a row per member
/// (and the binary), each naming the package and folder its `Cargo.toml`
/// gives, and no row for a crate that is not there.
#[test]
fn the_architecture_page_maps_every_crate() {
    let page = std::fs::read_to_string(repo("book/src/design/architecture.md")).unwrap();
    let manifest: toml::Table = std::fs::read_to_string(repo("Cargo.toml")).unwrap().parse().unwrap();
    let members = manifest["workspace"]["members"].as_array().unwrap();
    let mut crates: Vec<(String, String)> = vec![("corera".into(), "src/".into())];
    for folder in members.iter().map(|m| m.as_str().unwrap()) {
        let member: toml::Table =
            std::fs::read_to_string(repo(&format!("{folder}/Cargo.toml"))).unwrap().parse().unwrap();
        crates.push((member["package"]["name"].as_str().unwrap().to_string(), format!("{folder}/")));
    }
    for (name, folder) in &crates {
        assert!(
            page.contains(&format!("| `{name}` | `{folder}` |")),
            "book/src/design/architecture.md has no crate-map row for `{name}` in `{folder}`"
        );
    }
    let rows = page.lines().filter(|l| l.starts_with("| `corera")).count();
    assert_eq!(rows, crates.len(), "the crate map has rows for crates the workspace does not have");
}
