//! The PyCG micro-benchmark as a pair-level truth (`pycg-micro`).
//!
//! The `pycg==0.0.8` sdist ships `micro-benchmark/snippets/<category>/<case>/` — a
//! small program (`main.py` and helper modules) and its `callgraph.json`, written by
//! PyCG's authors: `{"caller": ["callee", ...]}` by dotted names. Each case is one
//! [`PairCase`]; expectations under `<builtin>` and in modules the case does not
//! contain are set apart and counted (pairs.rs).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::input::{describe_json_error, read_capped, DEFAULT_INPUT_CAP};
use crate::pairs::{module_of_path, PairCase, PairGraph, PAIRS_SCHEMA};
use crate::toolchain::Outcome;
use crate::truth::{ColumnUnit, OracleStamp};

/// The oracle's name in corpora.json.
pub const NAME: &str = "pycg-micro";
/// The adapter version: bump when what [`micro_benchmark_truth`] emits changes.
pub const ADAPTER_VERSION: &str = "1";
/// Where the cases live inside the unpacked sdist.
pub const SNIPPETS: &str = "micro-benchmark/snippets";

/// One case of the benchmark: its directory (relative to the snippets directory),
/// its Python files (relative to the case) and its expectations file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MicroCase {
    pub id: String,
    pub dir: PathBuf,
    pub files: Vec<String>,
}

impl MicroCase {
    /// The dotted names of the case's modules.
    pub fn modules(&self) -> BTreeSet<String> {
        self.files
            .iter()
            .filter_map(|f| module_of_path(f))
            .filter(|m| !m.is_empty())
            .collect()
    }
}

/// The snippets directory of an unpacked sdist root.
pub fn snippets_dir(root: &Path) -> PathBuf {
    root.join(SNIPPETS)
}

/// Every case under `root/micro-benchmark/snippets` that has a `callgraph.json`,
/// sorted by id (`args/call`).
pub fn micro_cases(root: &Path) -> Result<Vec<MicroCase>, Outcome> {
    let snippets = snippets_dir(root);
    let failed = |detail: String| Outcome::ToolFailed {
        tool: NAME.into(),
        detail,
    };
    let categories =
        sorted_dirs(&snippets).map_err(|e| failed(format!("cannot list {SNIPPETS}: {e}")))?;
    let mut cases = Vec::new();
    for category in categories {
        for dir in sorted_dirs(&category).map_err(|e| failed(e.to_string()))? {
            if !dir.join("callgraph.json").is_file() {
                continue;
            }
            let mut files = Vec::new();
            collect_python(&dir, &dir, &mut files).map_err(|e| failed(e.to_string()))?;
            files.sort();
            let id = dir
                .strip_prefix(&snippets)
                .expect("under the snippets directory")
                .to_string_lossy()
                .replace('\\', "/");
            cases.push(MicroCase { id, dir, files });
        }
    }
    if cases.is_empty() {
        return Err(failed(format!(
            "no case with a callgraph.json under {SNIPPETS}"
        )));
    }
    Ok(cases)
}

/// The benchmark's expectations as a pair-level truth.
pub fn micro_benchmark_truth(
    root: &Path,
    corpus_id: &str,
    toolchain_version: &str,
) -> Result<PairGraph, Outcome> {
    let mut cases = Vec::new();
    for case in micro_cases(root)? {
        let raw = read_pycg_json(&case.dir.join("callgraph.json"))?;
        cases.push(PairCase::from_raw(&case.id, &case.modules(), &raw));
    }
    Ok(PairGraph {
        schema: PAIRS_SCHEMA.into(),
        corpus: corpus_id.into(),
        oracle: OracleStamp {
            name: NAME.into(),
            version: toolchain_version.into(),
            adapter: ADAPTER_VERSION.into(),
            column: ColumnUnit::None,
        },
        cases,
    })
}

/// Reads PyCG's simple JSON (`{"caller": ["callee", ...]}`) into pairs, in file order.
pub fn read_pycg_json(path: &Path) -> Result<Vec<(String, String)>, Outcome> {
    let failed = |detail: String| Outcome::ToolFailed {
        tool: NAME.into(),
        detail: format!("{}: {detail}", path.display()),
    };
    let bytes = read_capped(path, DEFAULT_INPUT_CAP).map_err(|e| failed(e.to_string()))?;
    parse_pycg_json(&bytes).map_err(failed)
}

/// Parses PyCG's simple JSON output.
pub fn parse_pycg_json(bytes: &[u8]) -> Result<Vec<(String, String)>, String> {
    let graph: serde_json::Map<String, serde_json::Value> =
        serde_json::from_slice(bytes).map_err(|e| describe_json_error(&e))?;
    let mut pairs = Vec::new();
    for (caller, callees) in graph {
        let callees = callees
            .as_array()
            .ok_or_else(|| format!("`{caller}`: the callees are not a list"))?;
        for callee in callees {
            let callee = callee
                .as_str()
                .ok_or_else(|| format!("`{caller}`: a callee is not a string"))?;
            pairs.push((caller.clone(), callee.to_string()));
        }
    }
    Ok(pairs)
}

fn sorted_dirs(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.is_dir() && !p.is_symlink())
        .collect();
    dirs.sort();
    Ok(dirs)
}

fn collect_python(base: &Path, dir: &Path, out: &mut Vec<String>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_symlink() {
            continue;
        }
        if path.is_dir() {
            collect_python(base, &path, out)?;
        } else if path.extension().is_some_and(|e| e == "py") {
            let rel = path.strip_prefix(base).expect("under the case");
            out.push(rel.to_string_lossy().replace('\\', "/"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(path: &Path, text: &str) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    #[test]
    fn cases_become_pair_truths_with_builtins_and_absent_modules_apart() {
        let dir = tempfile::tempdir().unwrap();
        let case = dir.path().join(SNIPPETS).join("imports/init_func_import");
        write(&case.join("main.py"), "import nested\n");
        write(&case.join("nested/__init__.py"), "def func(): pass\n");
        write(&case.join("nested/mod.py"), "def func2(): pass\n");
        write(
            &case.join("callgraph.json"),
            r#"{"main": ["nested.func", "nested.mod.func2", "<builtin>.print", "ext.f"],
                "nested": [], "nested.func": []}"#,
        );
        // A directory without expectations is not a case.
        write(&dir.path().join(SNIPPETS).join("imports/empty/main.py"), "");
        let truth = micro_benchmark_truth(dir.path(), "pycg-micro", "0.0.8").unwrap();
        assert_eq!(truth.cases.len(), 1);
        let c = &truth.cases[0];
        assert_eq!(c.case, "imports/init_func_import");
        assert_eq!(c.modules, vec!["main", "nested", "nested.mod"]);
        let pairs: Vec<(&str, &str)> = c
            .pairs
            .iter()
            .map(|p| (p.caller.as_str(), p.callee.as_str()))
            .collect();
        assert_eq!(
            pairs,
            vec![("main", "nested.func"), ("main", "nested.mod.func2")]
        );
        assert_eq!(c.set_apart.len(), 2);
        assert_eq!(c.set_apart_counts().get("builtin"), Some(&1));
        assert_eq!(c.set_apart_counts().get("absent_module"), Some(&1));
    }

    #[test]
    fn a_malformed_expectation_file_is_named() {
        let err = parse_pycg_json(br#"{"main": "main.f"}"#).unwrap_err();
        assert!(err.contains("`main`"), "{err}");
        assert!(parse_pycg_json(b"{").unwrap_err().contains("truncated"));
    }
}
