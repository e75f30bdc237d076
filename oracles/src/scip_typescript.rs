//! scip-typescript (`@sourcegraph/scip-typescript` 0.4.0) as the second reading of the
//! tsc oracle (`harness crosscheck --corpus ky`): the indexer writes `index.scip` for
//! the tree (a tsconfig.json in the scratch directory holds the tree with the tsc
//! oracle's defaults for files no config holds), and oracles/scip/scip-calls.js reads
//! it: for every call the TypeScript parser finds (the tsc oracle's sites and name
//! tokens), the symbol of the occurrence at the name token and that symbol's
//! definition occurrence, by its line. A global symbol no document of the tree
//! defines is `outside`; a token with no occurrence is left out.
//!
//! Pinned by oracles/scip/package-lock.json (scip-typescript 0.4.0 and the typescript
//! it runs on), installed by `npm ci` into the cache at run time.

use std::path::Path;

use serde::Deserialize;

use crate::jstrace::{ensure_installed, Lock};
use crate::oracle::{Oracle, OracleOptions};
use crate::toolchain::{Outcome, Tool};
use crate::truth::{ColumnUnit, OracleStamp, Truth, TruthSite, TRUTH_SCHEMA};

/// The reader, written into the scratch directory at run time.
pub const HELPER: &str = include_str!("../scip/scip-calls.js");
/// The reading's name (`harness crosscheck --second scip-typescript`).
pub const NAME: &str = "scip-typescript";
/// 2: the reader gained its occurrences mode (the SCIP peers and the scip-python
/// reading); its sites are those of version 1 (D76).
const ADAPTER_VERSION: &str = "2";

const SCIP_LOCK: Lock = Lock {
    name: "scip-typescript",
    package_json: include_str!("../scip/package.json"),
    package_lock: include_str!("../scip/package-lock.json"),
};

/// The compiler options of the tsc oracle's program of files no config holds
/// (oracles/tsc/README.md), so both readings read one program.
const TSCONFIG_OPTIONS: &str = r#"{"allowJs": true, "checkJs": true, "target": "es2022",
  "module": "esnext", "moduleResolution": "bundler", "jsx": "react-jsx",
  "esModuleInterop": true, "resolveJsonModule": true, "noEmit": true, "skipLibCheck": true}"#;

/// The second reading.
#[derive(Debug, Clone, Copy, Default)]
pub struct ScipTypescript;

#[derive(Debug, Deserialize)]
struct HelperOutput {
    scip_typescript: String,
    sites: Vec<TruthSite>,
}

impl Oracle for ScipTypescript {
    fn name(&self) -> &'static str {
        NAME
    }

    fn version(&self) -> &'static str {
        ADAPTER_VERSION
    }

    fn toolchain_version(&self) -> Result<String, Outcome> {
        let node = Tool::locate("node")?.version(&["--version"])?;
        Ok(format!("scip-typescript {}, node {node}", pinned_version()))
    }

    fn run(&self, corpus_dir: &Path, options: &OracleOptions<'_>) -> Result<Truth, Outcome> {
        let node = Tool::locate("node")?;
        let modules = ensure_installed(options, &SCIP_LOCK)?;
        let root = corpus_dir
            .canonicalize()
            .map_err(|e| failed(format!("cannot resolve the corpus: {e}")))?;
        let project = crate::toolchain::absolute_dir(NAME, options.work_dir)?;
        write_project(&project, &root)?;
        let index = project.join("index.scip");
        node.command(&project)
            .arg(modules.join("@sourcegraph/scip-typescript/dist/src/main.js"))
            .args(index_args(&project, &index))
            .timeout(options.timeout)
            .run()?;
        let helper = project.join("scip-calls.js");
        std::fs::write(&helper, HELPER)
            .map_err(|e| failed(format!("cannot write the reader: {e}")))?;
        let out = project.join("sites.json");
        let finished = node
            .command(&project)
            .arg(&helper)
            .arg("--modules")
            .arg(&modules)
            .arg("--root")
            .arg(&root)
            .arg("--project")
            .arg(&project)
            .arg("--index")
            .arg(&index)
            .arg("--out")
            .arg(&out)
            .timeout(options.timeout)
            .run()?;
        let bytes = std::fs::read(&out).map_err(|e| failed(finished.wrote_no(&out, &e)))?;
        truth_from_helper(&bytes, options.corpus_id)
    }
}

/// Writes into `project` the tsconfig.json that holds the tree (`root`, absolute)
/// with the tsc oracle's defaults, so the indexer reads the program tsc reads.
pub fn write_project(project: &Path, root: &Path) -> Result<(), Outcome> {
    let tsconfig = serde_json::json!({
        "compilerOptions": serde_json::from_str::<serde_json::Value>(TSCONFIG_OPTIONS)
            .expect("the options are JSON"),
        "include": [format!("{}/**/*", root.display())],
        "exclude": [format!("{}/**/node_modules", root.display())],
    });
    std::fs::write(project.join("tsconfig.json"), tsconfig.to_string())
        .map_err(|e| failed(format!("cannot write the tsconfig: {e}")))
}

/// The indexer's arguments (after its `dist/src/main.js`), run in `project`.
pub fn index_args(project: &Path, index: &Path) -> Vec<std::ffi::OsString> {
    vec![
        "index".into(),
        "--cwd".into(),
        project.as_os_str().into(),
        "--output".into(),
        index.as_os_str().into(),
        "--no-progress-bar".into(),
    ]
}

pub fn pinned_version() -> String {
    let lock: serde_json::Value = serde_json::from_str(SCIP_LOCK.package_lock).unwrap_or_default();
    lock["packages"]["node_modules/@sourcegraph/scip-typescript"]["version"]
        .as_str()
        .unwrap_or("?")
        .to_string()
}

fn failed(detail: String) -> Outcome {
    Outcome::ToolFailed {
        tool: NAME.into(),
        detail,
    }
}

/// The truth of the reader's output.
pub fn truth_from_helper(bytes: &[u8], corpus: &str) -> Result<Truth, Outcome> {
    let output: HelperOutput = serde_json::from_slice(bytes).map_err(|e| {
        failed(format!(
            "unreadable sites: {}",
            crate::describe_json_error(&e)
        ))
    })?;
    let truth = Truth {
        schema: TRUTH_SCHEMA.into(),
        corpus: corpus.into(),
        oracle: OracleStamp {
            name: NAME.into(),
            version: format!("scip-typescript {}", output.scip_typescript),
            adapter: ADAPTER_VERSION.into(),
            column: ColumnUnit::Name,
        },
        shape: None,
        sites: output.sites,
        references: None,
        pairs: vec![],
    };
    truth
        .validate("the index")
        .map_err(|e| failed(e.to_string()))?;
    Ok(truth)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sha256 of the helper this adapter version was written for.
    const HELPER_SHA256: &str = "2fcdcaec91b7c8d03d8b2ba8b82c51562e186194bfc48ee8903c3f62a4de27d6";

    #[test]
    fn a_changed_helper_asks_for_a_new_adapter_version() {
        assert_eq!(
            crate::toolchain::sha256_hex(HELPER),
            HELPER_SHA256,
            "oracles/scip/scip-calls.js changed: bump ADAPTER_VERSION (cached truths are keyed by it) and set HELPER_SHA256"
        );
    }

    #[test]
    fn the_indexer_is_pinned_exactly() {
        assert_eq!(pinned_version(), "0.4.0");
        assert!(!SCIP_LOCK.package_lock.contains("\"resolved\""));
    }

    #[test]
    fn reader_output_becomes_a_truth_in_name_columns() {
        let out = br#"{"scip_typescript": "0.4.0", "sites": [
            {"file": "a.ts", "line": 3, "column": 5, "name": "f",
             "targets": [{"kind": "in_tree", "file": "a.ts", "line": 1}]}]}"#;
        let truth = truth_from_helper(out, "t").unwrap();
        assert_eq!(truth.oracle.column, ColumnUnit::Name);
        assert_eq!(truth.sites.len(), 1);
    }
}
