//! Only what the project made is in the repository: no copy of a file
//! made by others (they are read in place from `../shared/data/`), no
//! third-party source, template or description file, no script that builds
//! others' code.

use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};

use crate::root;

/// The files git tracks, or `None` outside a git checkout (a source
/// tarball), where this check has nothing to read.
fn tracked() -> Option<Vec<PathBuf>> {
    let out = std::process::Command::new("git").args(["ls-files", "-z"]).current_dir(root()).output().ok()?;
    if !out.status.success() {
        return None;
    }
    let files = out.stdout.split(|&b| b == 0).filter(|p| !p.is_empty());
    Some(files.map(|p| root().join(String::from_utf8_lossy(p).as_ref())).collect())
}

/// The bytes of `path`, decompressed if it is gzip.
fn contents(path: &Path) -> Vec<u8> {
    let bytes = std::fs::read(path).unwrap_or_default();
    if bytes.starts_with(&[0x1f, 0x8b]) {
        let mut plain = Vec::new();
        if flate2::read::GzDecoder::new(&bytes[..]).read_to_end(&mut plain).is_ok() {
            return plain;
        }
    }
    bytes
}

/// Every file below `dir`.
fn files_below(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(d) = dirs.pop() {
        for entry in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() { dirs.push(path) } else { out.push(path) }
        }
    }
    out
}

/// No tracked file is a copy of a file in `../shared/data/` (plain or
/// gzip-compressed). Files of a few hundred bytes or less are left out:
/// they are too small to be anyone's data.
#[test]
fn no_tracked_file_is_a_copy_of_shared_data() {
    let Some(files) = tracked() else { return };
    let shared = corera_testdata::shared_or_skip!("");
    let mut by_len: HashMap<usize, Vec<PathBuf>> = HashMap::new();
    for path in files_below(&shared) {
        let len = std::fs::metadata(&path).map(|m| m.len() as usize).unwrap_or(0);
        if len > 200 {
            by_len.entry(len).or_default().push(path);
        }
    }
    let mut copies = Vec::new();
    for file in files {
        let bytes = contents(&file);
        for other in by_len.get(&bytes.len()).into_iter().flatten() {
            if std::fs::read(other).is_ok_and(|o| o == bytes) {
                copies.push(format!("{} = {}", file.display(), other.display()));
            }
        }
    }
    assert!(copies.is_empty(), "copies of data made by others (read them in place instead):\n{}", copies.join("\n"));
}

/// No tracked file carries another party's copyright or licence header,
/// is a recorder's configuration template, an OS's SystemView description
/// file, or a script that builds others' code. The licence texts at the
/// root are the project's own licence.
#[test]
fn no_tracked_file_is_third_party_source_or_a_recipe_for_it() {
    let Some(files) = tracked() else { return };
    let mut found = Vec::new();
    for file in files {
        let rel = file.strip_prefix(root()).unwrap_or(&file).display().to_string();
        if rel == "LICENSE-MIT" || rel == "LICENSE-APACHE" || rel == "tests/provenance.rs" {
            continue;
        }
        let name = file.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        let text = String::from_utf8_lossy(&std::fs::read(&file).unwrap_or_default()).to_lowercase();
        let why = if text.contains("copyright") || text.contains("spdx-license-identifier") {
            Some("a copyright or licence header")
        } else if name.starts_with("trc") && name.ends_with(".h") {
            Some("a TraceRecorder configuration file")
        } else if name.starts_with("SYSVIEW_") && name.ends_with(".txt") {
            Some("a SystemView description file")
        } else if name == "record.sh" || text.contains("shared/vendor") || text.contains("shared/recorders") {
            Some("a recipe that builds others' code")
        } else {
            None
        };
        if let Some(why) = why {
            found.push(format!("{rel}: {why}"));
        }
    }
    assert!(found.is_empty(), "files that are not the project's own:\n{}", found.join("\n"));
}
