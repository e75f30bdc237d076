//! A TypeScript corpus end to end without the network: a local archive shaped like an
//! npm package that ships only compiled JavaScript and its source map (registry
//! `local`), the `source_maps` preparation step recovering the TypeScript, the tsc
//! oracle, the truth cache and the score. The engine is a stand-in that writes one
//! canned report, so the figures are known exactly. The tsc part needs node and the
//! pinned checker (`npm ci` in oracles/tsc, which `make setup` runs); without them
//! the row must carry the outcome `tool_missing`, never a score.

mod common;

use std::path::{Path, PathBuf};

use common::*;

const INDEX_TS: &str = "import { helper } from \"./util.js\";

export function main(): number {
  return helper(2) + Math.max(1, 2);
}
";

const UTIL_TS: &str = "export function helper(x: number): number {
  return x * 2;
}
";

/// What the stand-in engine checks of the root it is given: it is the recovered tree.
const ROOT_CHECK: &str = "[ -f \"$2/source/index.ts\" ] && [ ! -e \"$2/distribution\" ] || { echo 'not the recovered tree' >&2; exit 3; }\n";

/// `helper` on line 4 right (util.ts:1), `max` outside.
const REPORT: &str = r#"{"schema": "callgraph-report/1", "engine": {"version": "canned"},
 "entities": [
  {"id": 1, "qualified_name": "source/index.ts::main", "kind": "function", "file": "source/index.ts", "line": 3},
  {"id": 2, "qualified_name": "source/util.ts::helper", "kind": "function", "file": "source/util.ts", "line": 1}],
 "calls": [
  {"file": "source/index.ts", "line": 4, "column": 10, "caller": 1, "name": "helper", "resolution": "in_tree",
   "placed_by": "import",
   "target": {"entity": 2, "qualified_name": "source/util.ts::helper", "file": "source/util.ts", "line": 1}},
  {"file": "source/index.ts", "line": 4, "column": 27, "caller": 1, "name": "max", "resolution": "outside",
   "placed_by": "builtin", "outside": {"kind": "builtin", "symbol": "Math.max"}}],
 "references": []}
"#;

/// A tar.gz of `package/distribution/{index.js, index.js.map}` whose map carries the
/// two TypeScript sources; returns it and its sha256.
fn archive(dir: &Path) -> (PathBuf, String) {
    let src = dir.join("archive-src");
    let dist = src.join("package/distribution");
    std::fs::create_dir_all(&dist).unwrap();
    std::fs::write(dist.join("index.js"), "export {};\n").unwrap();
    let map = serde_json::json!({"version": 3, "file": "index.js",
        "sources": ["../source/index.ts", "../source/util.ts"],
        "sourcesContent": [INDEX_TS, UTIL_TS], "names": [], "mappings": ""});
    std::fs::write(dist.join("index.js.map"), map.to_string()).unwrap();
    let path = dir.join("tiny-ts-1.0.0.tgz");
    let sha = tar_gz(&src, "package", &path);
    (path, sha)
}

fn corpora(dir: &Path, archive: &Path, sha: &str) -> PathBuf {
    write_corpora(
        dir,
        serde_json::json!({"id": "tiny-ts", "language": "typescript",
            "source": {"registry": "local", "package": "tiny-ts", "version": "1.0.0",
                       "archive": archive, "sha256": sha},
            "prepare": {"source_maps": {"maps": "package/distribution", "at": "distribution",
                                        "extensions": ["ts"]}},
            "oracle": {"name": "tsc", "options": {}}}),
    )
}

#[test]
fn a_typescript_corpus_is_recovered_from_its_maps_and_measured_through_tsc() {
    engines();
    let dir = workdir();
    let (tarball, sha) = archive(dir.path());
    let list = corpora(dir.path(), &tarball, &sha);
    let engine = stand_in_engine(dir.path(), REPORT, ROOT_CHECK);
    let cache = dir.path().join("cache");
    let out = dir.path().join("reports");
    let measured = measure_corpus(dir.path(), "tiny-ts", &out, &list, &cache, &engine);
    assert_code(&measured, 0);
    let text = stdout(&measured);
    let json: serde_json::Value =
        serde_json::from_slice(&read(&out.join("measurements.json"))).unwrap();
    let row = &json["rows"][0];
    assert_eq!(row["oracle"]["name"], "tsc");

    let installed = oracles::oracle_named("tsc")
        .unwrap()
        .toolchain_version()
        .is_ok();
    if !installed {
        // FIXME(toolchain): no node or no `npm ci` in oracles/tsc on this machine: the
        // row is the outcome, never a score.
        assert_eq!(row["outcome"]["outcome"], "tool_missing", "{text}");
        assert!(row.get("figures").is_none());
        return;
    }
    assert!(
        text.contains(
            "tiny-ts: 1 judged, 1 right, coverage 100.0%, precision 100.0%, 0 false edges"
        ),
        "{text}\n{}",
        stderr(&measured)
    );
    assert!(row["toolchain"]["version"]
        .as_str()
        .unwrap()
        .starts_with("typescript 5.9.3 (@types/node 20.19.25), node "));
    assert_eq!(row["oracle"]["version"], oracles::tsc::ADAPTER_VERSION);
    assert_eq!(row["verdicts"]["right"], 1);
    assert_eq!(row["verdicts"]["right_outside"], 1);

    // The recovered tree and its counts, and the cached truth.
    let prepared: Vec<PathBuf> = std::fs::read_dir(cache.join("prepared"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    assert_eq!(prepared.len(), 1);
    assert_eq!(
        std::fs::read_to_string(prepared[0].join("source/util.ts")).unwrap(),
        UTIL_TS
    );
    let counts = harness::prepare::recovered_counts(&prepared[0]).unwrap();
    assert_eq!((counts.files, counts.lines), (2, 8));
    let truths: Vec<_> = std::fs::read_dir(cache.join("truths")).unwrap().collect();
    assert_eq!(truths.len(), 1, "the truth is cached");
}
