//! PyCG (`pycg==0.0.8`) as a tool: installed from its sdist into a venv under the
//! cache (the 0.0.8 wheel installs `PyCG/` where the code imports `pycg`, so it cannot
//! run), then run as `python -m pycg --package DIR FILE... -o OUT`. Its answer is a
//! pair-level graph by dotted names (pairs.rs); PyCG gives no call sites.
//!
//! A crash, a timeout or output that is not its JSON is an outcome, never a graph.

use std::path::Path;
use std::time::Duration;

use crate::pairs::{module_of_path, PairCase, PairGraph, PAIRS_SCHEMA};
use crate::pycg_micro::{micro_cases, parse_pycg_json};
use crate::pyenv::{ensure_venv, Venv, VenvSpec};
use crate::toolchain::{Outcome, Tool};
use crate::truth::{ColumnUnit, OracleStamp};

/// The pinned release.
pub const PYCG_VERSION: &str = "0.0.8";
/// The name tables use for the tool.
pub const NAME: &str = "pycg";

/// What the venv holds: PyCG built from its sdist (its build backend comes as a wheel).
pub fn pycg_spec() -> VenvSpec {
    VenvSpec {
        name: NAME.into(),
        packages: vec![format!("pycg=={PYCG_VERSION}")],
        pip_flags: vec!["--no-binary".into(), "pycg".into()],
    }
}

/// An installed PyCG.
#[derive(Debug, Clone)]
pub struct Pycg {
    venv: Venv,
}

impl Pycg {
    /// Installs PyCG into its venv under `cache_dir`, or reuses the one there.
    pub fn install(cache_dir: &Path, bound: Duration) -> Result<Pycg, Outcome> {
        Ok(Pycg {
            venv: ensure_venv(cache_dir, &pycg_spec(), bound)?,
        })
    }

    /// `0.0.8 (Python 3.11.7)`.
    pub fn version(&self) -> String {
        format!("{PYCG_VERSION} ({})", self.venv.python_version)
    }

    /// Runs PyCG on `files` (relative to `package_dir`, which is also its package
    /// root) and returns its pairs in output order.
    pub fn run(
        &self,
        package_dir: &Path,
        files: &[String],
        bound: Duration,
    ) -> Result<Vec<(String, String)>, Outcome> {
        let out_dir = tempfile::tempdir().map_err(|e| failed(format!("no temporary dir: {e}")))?;
        let out = out_dir.path().join("cg.json");
        let tool = Tool {
            name: NAME.into(),
            path: self.venv.python.path.clone(),
        };
        tool.command(package_dir)
            .args(["-m", "pycg", "--package", "."])
            .args(files)
            .arg("-o")
            .arg(&out)
            .timeout(bound)
            .run()?;
        let bytes = std::fs::read(&out).map_err(|e| failed(format!("wrote no output: {e}")))?;
        parse_pycg_json(&bytes).map_err(|e| failed(format!("output is not its JSON: {e}")))
    }
}

fn failed(detail: String) -> Outcome {
    Outcome::ToolFailed {
        tool: NAME.into(),
        detail,
    }
}

/// The stamp a PyCG graph carries.
pub fn stamp(version: &str) -> OracleStamp {
    OracleStamp {
        name: NAME.into(),
        version: version.into(),
        adapter: "1".into(),
        column: ColumnUnit::None,
    }
}

/// PyCG's graph of every micro-benchmark case under `root` (the unpacked sdist): one
/// run per case, as PyCG's own benchmark script runs it. A case PyCG crashes on is an
/// empty case and is named in the returned list of failures; a timeout stops the run.
pub fn micro_benchmark_graph(
    pycg: &Pycg,
    root: &Path,
    corpus_id: &str,
    bound: Duration,
) -> Result<(PairGraph, Vec<(String, Outcome)>), Outcome> {
    let mut cases = Vec::new();
    let mut failures = Vec::new();
    for case in micro_cases(root)? {
        let raw = match pycg.run(&case.dir, &case.files, bound) {
            Ok(raw) => raw,
            Err(timeout @ Outcome::Timeout { .. }) => return Err(timeout),
            Err(outcome) => {
                failures.push((case.id.clone(), outcome));
                Vec::new()
            }
        };
        cases.push(PairCase::from_raw(&case.id, &case.modules(), &raw));
    }
    let graph = PairGraph {
        schema: PAIRS_SCHEMA.into(),
        corpus: corpus_id.into(),
        oracle: stamp(&pycg.version()),
        cases,
    };
    Ok((graph, failures))
}

/// The Python files of a tree, relative to it, sorted; `.py` under hidden or cache
/// directories is left out.
pub fn python_files(root: &Path) -> std::io::Result<Vec<String>> {
    fn walk(base: &Path, dir: &Path, out: &mut Vec<String>) -> std::io::Result<()> {
        for entry in std::fs::read_dir(dir)? {
            let path = entry?.path();
            let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
            let hidden = name
                .as_deref()
                .is_some_and(|n| n.starts_with('.') || n == "__pycache__");
            if hidden || path.is_symlink() {
                continue;
            }
            if path.is_dir() {
                walk(base, &path, out)?;
            } else if path.extension().is_some_and(|e| e == "py") {
                let rel = path.strip_prefix(base).expect("under the root");
                out.push(rel.to_string_lossy().replace('\\', "/"));
            }
        }
        Ok(())
    }
    let mut files = Vec::new();
    walk(root, root, &mut files)?;
    files.sort();
    Ok(files)
}

/// The modules of a list of files, dotted.
pub fn modules_of(files: &[String]) -> std::collections::BTreeSet<String> {
    files
        .iter()
        .filter_map(|f| module_of_path(f))
        .filter(|m| !m.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pycg_is_built_from_its_sdist_at_the_pin() {
        let spec = pycg_spec();
        assert_eq!(spec.packages, vec!["pycg==0.0.8"]);
        assert_eq!(spec.pip_flags, vec!["--no-binary", "pycg"]);
    }

    #[test]
    fn python_files_skip_caches_and_hidden_directories() {
        let dir = tempfile::tempdir().unwrap();
        for f in [
            "a.py",
            "pkg/__init__.py",
            "pkg/b.py",
            "__pycache__/a.py",
            ".venv/x.py",
            "c.txt",
        ] {
            let p = dir.path().join(f);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, "").unwrap();
        }
        let files = python_files(dir.path()).unwrap();
        assert_eq!(files, vec!["a.py", "pkg/__init__.py", "pkg/b.py"]);
        let modules: Vec<String> = modules_of(&files).into_iter().collect();
        assert_eq!(modules, vec!["a", "pkg", "pkg.b"]);
    }
}
