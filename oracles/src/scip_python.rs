//! scip-python (`@sourcegraph/scip-python` 0.6.6, pyright's resolution) as the
//! second reading of the pytrace oracle (`harness crosscheck --corpus click --second
//! scip-python`, D77): the static type checker's answer beside the trace's.
//!
//! The indexer runs inside a copy of the tree (run with `--cwd` it writes an index
//! with no documents, research §8) holding a `pyrightconfig.json` whose `extraPaths`
//! are the corpus's `python_path` (the pytrace option: `src` for a src layout, so
//! `import click` resolves to the tree). Its calls are read by [`crate::scip`]: a
//! site is judged where the index names a definition of the tree (`in_tree`, by its
//! name line) or a symbol of another package (`outside`); where it names a variable,
//! a parameter or a name of the tree with no definition, the site is unjudged
//! (`scip_undetermined`, `scip_unresolved`): the index does not say what runs.
//!
//! Pinned by peers/scip/package-lock.json (the SCIP peers' lock), installed by
//! `npm ci` into the cache at run time.

use std::path::Path;

use crate::jstrace::{ensure_installed, Lock};
use crate::oracle::{Oracle, OracleOptions};
use crate::scip::{Callee, ScipCalls};
use crate::toolchain::{Outcome, Tool};
use crate::truth::{
    ColumnUnit, OracleStamp, Position, Truth, TruthSite, TruthTarget, TRUTH_SCHEMA,
};

/// The reading's name (`harness crosscheck --second scip-python`).
pub const NAME: &str = "scip-python";
/// 2: an `@overload`ed function answered at its implementation; 3: a decorator's
/// caller is the enclosing scope (D76).
const ADAPTER_VERSION: &str = "3";

/// The SCIP peers' lock: scip-python and scip-typescript (whose protobuf classes the
/// reader uses).
pub(crate) const SCIP_PEERS_LOCK: Lock = Lock {
    name: "scip-peers",
    package_json: include_str!("../../peers/scip/package.json"),
    package_lock: include_str!("../../peers/scip/package-lock.json"),
};

/// The second reading.
#[derive(Debug, Clone, Copy, Default)]
pub struct ScipPython;

impl Oracle for ScipPython {
    fn name(&self) -> &'static str {
        NAME
    }

    fn version(&self) -> &'static str {
        ADAPTER_VERSION
    }

    fn toolchain_version(&self) -> Result<String, Outcome> {
        let node = Tool::locate("node")?.version(&["--version"])?;
        Ok(format!("scip-python {}, node {node}", pinned_version()))
    }

    fn run(&self, corpus_dir: &Path, options: &OracleOptions<'_>) -> Result<Truth, Outcome> {
        let node = Tool::locate("node")?;
        let modules = ensure_installed(options, &SCIP_PEERS_LOCK)?
            .canonicalize()
            .map_err(|e| failed(format!("cannot resolve the install: {e}")))?;
        let work = crate::toolchain::absolute_dir(NAME, options.work_dir)?;
        let tree = work.join("tree");
        crate::rustc::copy_tree(corpus_dir, &tree)
            .map_err(|e| failed(format!("cannot copy the tree: {e}")))?;
        write_pyright_config(&tree, &python_path(options.options))?;
        let index = work.join("index.scip");
        node.command(&tree)
            .arg(modules.join("@sourcegraph/scip-python/index.js"))
            .args(index_args(options.corpus_id, &index))
            .timeout(options.timeout)
            .run()?;
        let dump = crate::scip::read_index(
            &node,
            &modules,
            &tree,
            &tree,
            &index,
            &work,
            options.timeout,
        )?;
        let calls = crate::scip::calls_of(&dump, &tree);
        truth_of(&calls, options.corpus_id)
    }
}

/// The indexer's arguments, run inside the tree: a project version given (without
/// one it asks git, and a tree that is no checkout makes it fail).
pub fn index_args(project: &str, index: &Path) -> Vec<std::ffi::OsString> {
    vec![
        "index".into(),
        "--project-name".into(),
        project.into(),
        "--project-version".into(),
        "0".into(),
        "--output".into(),
        index.as_os_str().into(),
        "--quiet".into(),
    ]
}

/// The corpus's `python_path` option (pytrace's: where `import` finds the tree's
/// packages), `.` when it names none.
pub fn python_path(options: &serde_json::Value) -> Vec<String> {
    options["python_path"]
        .as_array()
        .map(|paths| {
            paths
                .iter()
                .filter_map(|p| p.as_str().map(str::to_string))
                .collect()
        })
        .filter(|paths: &Vec<String>| !paths.is_empty())
        .unwrap_or_else(|| vec![".".into()])
}

/// pyright's configuration in the copy: the import roots, nothing else.
pub fn write_pyright_config(tree: &Path, paths: &[String]) -> Result<(), Outcome> {
    let config = serde_json::json!({ "extraPaths": paths });
    std::fs::write(tree.join("pyrightconfig.json"), config.to_string())
        .map_err(|e| failed(format!("cannot write pyrightconfig.json: {e}")))
}

/// The pinned scip-python of the lock.
pub fn pinned_version() -> String {
    let lock: serde_json::Value =
        serde_json::from_str(SCIP_PEERS_LOCK.package_lock).unwrap_or_default();
    lock["packages"]["node_modules/@sourcegraph/scip-python"]["version"]
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

/// The truth of the index's calls.
pub fn truth_of(calls: &ScipCalls, corpus: &str) -> Result<Truth, Outcome> {
    let sites = calls
        .calls
        .iter()
        .map(|call| {
            let (targets, unjudged) = match &call.callee {
                Callee::InTree(k) => {
                    let d = &calls.definitions[*k];
                    (
                        vec![TruthTarget::InTree {
                            file: d.file.clone(),
                            line: d.line,
                        }],
                        None,
                    )
                }
                Callee::Outside(symbol) => (
                    vec![TruthTarget::Outside {
                        symbol: symbol.clone(),
                    }],
                    None,
                ),
                Callee::Unresolved(_) => (vec![], Some("scip_unresolved".to_string())),
                Callee::Undetermined(_) => (vec![], Some("scip_undetermined".to_string())),
            };
            TruthSite {
                file: call.file.clone(),
                line: call.line,
                column: Some(call.column),
                caller: call.caller.map(|k| Position {
                    file: calls.definitions[k].file.clone(),
                    line: calls.definitions[k].line,
                }),
                name: call.name.clone(),
                targets,
                unjudged,
                implicit: None,
                expect: None,
                primary: false,
            }
        })
        .collect();
    let truth = Truth {
        schema: TRUTH_SCHEMA.into(),
        corpus: corpus.into(),
        oracle: OracleStamp {
            name: NAME.into(),
            version: if calls.tool.is_empty() {
                format!("scip-python {}", pinned_version())
            } else {
                calls.tool.clone()
            },
            adapter: ADAPTER_VERSION.into(),
            column: ColumnUnit::Name,
        },
        shape: None,
        sites,
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

    #[test]
    fn the_indexers_are_pinned_exactly() {
        assert_eq!(pinned_version(), "0.6.6");
        let lock: serde_json::Value = serde_json::from_str(SCIP_PEERS_LOCK.package_lock).unwrap();
        assert_eq!(
            lock["packages"]["node_modules/@sourcegraph/scip-typescript"]["version"],
            "0.4.0"
        );
        assert!(!SCIP_PEERS_LOCK.package_lock.contains("\"resolved\""));
    }

    #[test]
    fn import_roots_come_from_the_corpus_python_path() {
        let options = serde_json::json!({"python_path": ["src"]});
        assert_eq!(python_path(&options), ["src"]);
        assert_eq!(python_path(&serde_json::json!({})), ["."]);
    }

    #[test]
    fn calls_become_judged_and_unjudged_sites() {
        use crate::scip::{Definition, ScipCall, SymbolKind};
        let calls = ScipCalls {
            tool: "scip-python 0.6.6".into(),
            definitions: vec![Definition {
                symbol: "s p t 0 m/f().".into(),
                kind: SymbolKind::Function,
                file: "m.py".into(),
                line: 1,
                column: 5,
                span: Some([1, 3]),
            }],
            calls: vec![
                ScipCall {
                    file: "m.py".into(),
                    line: 2,
                    column: 5,
                    name: "f".into(),
                    caller: Some(0),
                    callee: Callee::InTree(0),
                },
                ScipCall {
                    file: "m.py".into(),
                    line: 3,
                    column: 5,
                    name: "g".into(),
                    caller: Some(0),
                    callee: Callee::Undetermined("s p t 0 m/g.".into()),
                },
            ],
        };
        let truth = truth_of(&calls, "t").unwrap();
        assert_eq!(truth.oracle.column, ColumnUnit::Name);
        assert!(truth.sites[0].is_judged());
        assert_eq!(
            truth.sites[0].targets,
            [TruthTarget::InTree {
                file: "m.py".into(),
                line: 1
            }]
        );
        assert_eq!(
            truth.sites[1].unjudged.as_deref(),
            Some("scip_undetermined")
        );
    }
}
