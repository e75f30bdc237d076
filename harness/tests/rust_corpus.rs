//! A Rust corpus end to end without the network: a local archive of a crate with no
//! dependencies, the rustc oracle (LLVM IR read back), the truth cache, and the
//! row. The engine is a stand-in that writes one canned report, so the figures are
//! known exactly. cargo builds this test, so rustc is always there.

mod common;

use std::path::{Path, PathBuf};

use common::*;
use oracles::Tool;

const MANIFEST: &str = "[package]\nname = \"tiny\"\nversion = \"1.0.0\"\nedition = \"2021\"\n";

// Line numbers matter below: the canned report and the assertions use them.
const LIB: &str = "pub fn helper() -> u32 {
    1
}

pub fn run() -> usize {
    let a = helper();
    let v = vec![a];
    v.len() + helper() as usize
}
";

/// The report the stand-in engine writes: `helper()` on line 6 right, `len`
/// outside, the `helper()` on line 8 undetermined.
const REPORT: &str = r#"{"schema": "callgraph-report/1", "engine": {"version": "canned"},
 "entities": [
  {"id": 1, "qualified_name": "src/lib.rs::helper", "kind": "function", "file": "src/lib.rs", "line": 1},
  {"id": 2, "qualified_name": "src/lib.rs::run", "kind": "function", "file": "src/lib.rs", "line": 5}],
 "calls": [
  {"file": "src/lib.rs", "line": 6, "column": 13, "caller": 2, "name": "helper", "resolution": "in_tree",
   "placed_by": "own_type",
   "target": {"entity": 1, "qualified_name": "src/lib.rs::helper", "file": "src/lib.rs", "line": 1}},
  {"file": "src/lib.rs", "line": 8, "column": 7, "caller": 2, "name": "len", "resolution": "outside",
   "placed_by": "foreign_type", "outside": {"kind": "foreign_type", "symbol": "alloc::vec::Vec::len"}},
  {"file": "src/lib.rs", "line": 8, "column": 15, "caller": 2, "name": "helper", "resolution": "undetermined",
   "reason": "receiver_type_unknown"}],
 "references": []}
"#;

/// A tar.gz of `tiny-1.0.0/{Cargo.toml, src/lib.rs}`; returns it and its sha256.
fn archive(dir: &Path) -> (PathBuf, String) {
    let src = dir.join("archive-src");
    std::fs::create_dir_all(src.join("tiny-1.0.0/src")).unwrap();
    std::fs::write(src.join("tiny-1.0.0/Cargo.toml"), MANIFEST).unwrap();
    std::fs::write(src.join("tiny-1.0.0/src/lib.rs"), LIB).unwrap();
    let path = dir.join("tiny-1.0.0.tar.gz");
    Tool::locate("tar")
        .unwrap()
        .command(&src)
        .args([
            "--sort=name",
            "--mtime=@0",
            "--owner=0",
            "--group=0",
            "-czf",
        ])
        .arg(&path)
        .arg("tiny-1.0.0")
        .run()
        .unwrap();
    let sha = harness::fetch::sha256_file(&path).unwrap();
    (path, sha)
}

fn corpora(dir: &Path, archive: &Path, sha: &str) -> PathBuf {
    let path = dir.join("corpora.json");
    let text = serde_json::json!({"schema": "corpora/1", "corpora": [
        {"id": "tiny", "language": "rust",
         "source": {"registry": "local", "package": "tiny", "version": "1.0.0",
                    "archive": archive, "sha256": sha},
         "root": "tiny-1.0.0",
         "oracle": {"name": "rustc", "options": {}}}]});
    std::fs::write(&path, text.to_string()).unwrap();
    path
}

fn stand_in_engine(dir: &Path) -> PathBuf {
    let report = dir.join("canned-report.json");
    std::fs::write(&report, REPORT).unwrap();
    let script = format!(
        "#!/bin/sh\n[ \"$1\" = analyze ] && [ \"$3\" = --out ] || exit 2\ncp {} \"$4\"\n",
        report.display()
    );
    let temp = dir.join("engine.tmp");
    let path = dir.join("callgraph");
    std::fs::write(&temp, script).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&temp, std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::rename(&temp, &path).unwrap();
    path
}

#[test]
fn a_rust_corpus_is_measured_through_rustc() {
    engines();
    let dir = workdir();
    let (tarball, sha) = archive(dir.path());
    let list = corpora(dir.path(), &tarball, &sha);
    let engine = stand_in_engine(dir.path());
    let cache = dir.path().join("cache");
    let out = dir.path().join("reports");
    let measured = harness(
        dir.path(),
        &[
            "measure",
            "--corpus",
            "tiny",
            "--out",
            out.to_str().unwrap(),
            "--corpora",
            list.to_str().unwrap(),
            "--cache",
            cache.to_str().unwrap(),
            "--engine",
            engine.to_str().unwrap(),
        ],
    );
    assert_code(&measured, 0);
    let text = stdout(&measured);
    assert!(
        text.contains("tiny: 2 judged, 1 right, coverage 50.0%, precision 100.0%"),
        "{text}\n{}",
        stderr(&measured)
    );
    let json: serde_json::Value =
        serde_json::from_slice(&read(&out.join("measurements.json"))).unwrap();
    let row = &json["rows"][0];
    assert_eq!(row["oracle"]["name"], "rustc");
    assert_eq!(row["oracle"]["version"], oracles::rustc::ADAPTER_VERSION);
    assert!(row["toolchain"]["version"]
        .as_str()
        .unwrap()
        .starts_with("rustc "));
    assert_eq!(row["verdicts"]["right"], 1);
    assert_eq!(row["verdicts"]["right_outside"], 1);
    assert_eq!(row["verdicts"]["declined"], 1);
    assert_eq!(row["figures"]["judged_in_tree"], 2);
    assert_eq!(row["figures"]["judged_outside"], 1);
    // `vec!`'s expansion, the drop of `v`, the overflow check of `+` (and, with
    // rustc 1.95, its pointer checks and the cleanup panic) are implicit.
    assert!(row["figures"]["implicit"].as_u64().unwrap() >= 3, "{row}");
    let truths: Vec<_> = std::fs::read_dir(cache.join("truths")).unwrap().collect();
    assert_eq!(truths.len(), 1, "the truth is cached");
}
