//! A Rust corpus end to end without the network: a local archive of a crate with no
//! dependencies, the rustc oracle (its THIR and HIR dumps read back), the truth cache, and the
//! row. The engine is a stand-in that writes one canned report, so the figures are
//! known exactly. cargo builds this test, so rustc is always there.

mod common;

use std::path::{Path, PathBuf};

use common::*;

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
    let sha = tar_gz(&src, "tiny-1.0.0", &path);
    (path, sha)
}

fn corpora(dir: &Path, archive: &Path, sha: &str) -> PathBuf {
    write_corpora(
        dir,
        serde_json::json!({"id": "tiny", "language": "rust",
            "source": {"registry": "local", "package": "tiny", "version": "1.0.0",
                       "archive": archive, "sha256": sha},
            "root": "tiny-1.0.0",
            "oracle": {"name": "rustc", "options": {}}}),
    )
}

#[test]
fn a_rust_corpus_is_measured_through_rustc() {
    engines();
    let dir = workdir();
    let (tarball, sha) = archive(dir.path());
    let list = corpora(dir.path(), &tarball, &sha);
    let engine = stand_in_engine(dir.path(), REPORT, "");
    let cache = dir.path().join("cache");
    let out = dir.path().join("reports");
    let measured = measure_corpus(dir.path(), "tiny", &out, &list, &cache, &engine);
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
    assert_eq!(
        row["oracle"]["version"],
        oracles::rustc_thir::ADAPTER_VERSION
    );
    assert!(row["toolchain"]["version"]
        .as_str()
        .unwrap()
        .starts_with("rustc "));
    assert_eq!(row["verdicts"]["right"], 1);
    assert_eq!(row["verdicts"]["right_outside"], 1);
    assert_eq!(row["verdicts"]["declined"], 1);
    assert_eq!(row["figures"]["judged_in_tree"], 2);
    assert_eq!(row["figures"]["judged_outside"], 1);
    // The calls `vec!`'s expansion makes are implicit (the THIR has no drops or
    // overflow checks: they are made later, in MIR).
    assert!(row["figures"]["implicit"].as_u64().unwrap() >= 2, "{row}");
    let truths: Vec<_> = std::fs::read_dir(cache.join("truths")).unwrap().collect();
    assert_eq!(truths.len(), 1, "the truth is cached");
}
