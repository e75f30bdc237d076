//! The two SCIP indexers as peers (issue 18, D76): `@sourcegraph/scip-python` 0.6.6
//! (pyright's resolution) on the Python corpora and `@sourcegraph/scip-typescript`
//! 0.4.0 (the TypeScript checker's) on the TypeScript and JavaScript corpora — the
//! compiler-grade references beside the engine.
//!
//! Both are pinned by peers/scip/package-lock.json, installed into the cache at run
//! time; the indexer is the timed process (its time and peak RSS as every peer's).
//! Its index is read by the project's one SCIP reader ([`oracles::scip`]): a call is
//! a reference occurrence at a call's name token of the syntax tree, so every site
//! sits on the name token already. What a call names becomes the report's answer:
//! a definition of the tree is `in_tree` at that definition (the exact node: its
//! `declaration_line` written), another package's symbol `outside`, a variable or
//! parameter `undetermined`, a name of the tree's own package that nothing defines
//! `unresolved`. The caller is the innermost definition whose enclosing range holds
//! the site. A converter never reads the truth.

use std::collections::BTreeMap;
use std::path::Path;

use oracles::scip::{Callee, ScipCalls};
use oracles::toolchain::{Outcome, Tool};

use crate::peer_codegraph::{ensure_installed, Lock};
use crate::peers::RunStats;
use crate::pipeline::CorpusSetup;
use crate::report::{
    Call, EngineStamp, Entity, OutsideRef, Report, Resolution, Target, REPORT_SCHEMA,
};

/// scip-python in corpora.json's `peers`.
pub const SCIP_PYTHON: &str = "scip-python";
pub const SCIP_PYTHON_VERSION: &str = "0.6.6";
/// scip-typescript in corpora.json's `peers`.
pub const SCIP_TYPESCRIPT: &str = "scip-typescript";
pub const SCIP_TYPESCRIPT_VERSION: &str = "0.4.0";

const SCIP_LOCK: Lock = Lock {
    name: "scip",
    package_json: include_str!("../../peers/scip/package.json"),
    package_lock: include_str!("../../peers/scip/package-lock.json"),
};

/// Whether `peer` reads a corpus of `language`.
pub fn scip_reads(peer: &str, language: &str) -> bool {
    match peer {
        SCIP_PYTHON => language == "python",
        SCIP_TYPESCRIPT => matches!(language, "typescript" | "tsx" | "javascript"),
        _ => false,
    }
}

fn failed(tool: &str, detail: String) -> Outcome {
    Outcome::ToolFailed {
        tool: tool.into(),
        detail,
    }
}

/// The install's node_modules (absolute: the indexers run in other directories).
fn modules(setup: &CorpusSetup) -> Result<std::path::PathBuf, Outcome> {
    ensure_installed(&SCIP_LOCK, setup, |_| Ok(()))?
        .join("node_modules")
        .canonicalize()
        .map_err(|e| failed("scip", format!("cannot resolve the install: {e}")))
}

/// scip-python on a copy of the tree (it runs inside the tree, where a
/// `pyrightconfig.json` names the corpus's import roots: `python_path`).
pub fn run_scip_python(
    root: &Path,
    python_path: &[String],
    setup: &CorpusSetup,
) -> Result<(Report, RunStats), Outcome> {
    let modules = modules(setup)?;
    let node = Tool::locate("node")?;
    let (scratch, tree) = crate::peer_codegraph::scratch_tree(SCIP_PYTHON, root)?;
    oracles::scip_python::write_pyright_config(&tree, python_path)?;
    let index = scratch.path().join("index.scip");
    let mut args: Vec<std::ffi::OsString> =
        vec![modules.join("@sourcegraph/scip-python/index.js").into()];
    args.extend(oracles::scip_python::index_args("tree", &index));
    let env = [("HOME", scratch.path().join("home").into_os_string())];
    let stats = crate::peers::timed_run_env(SCIP_PYTHON, &node.path, &args, &tree, &env, setup)?;
    let calls = read_calls(&node, &modules, &tree, &tree, &index, scratch.path(), setup)?;
    Ok((scip_report(&calls, SCIP_PYTHON, SCIP_PYTHON_VERSION), stats))
}

/// scip-typescript on the tree, through a tsconfig.json of the tsc oracle's
/// defaults in a scratch project (oracles/src/scip_typescript.rs).
pub fn run_scip_typescript(
    root: &Path,
    setup: &CorpusSetup,
) -> Result<(Report, RunStats), Outcome> {
    let modules = modules(setup)?;
    let node = Tool::locate("node")?;
    let root = root
        .canonicalize()
        .map_err(|e| failed(SCIP_TYPESCRIPT, format!("cannot resolve the tree: {e}")))?;
    let scratch =
        tempfile::tempdir().map_err(|e| failed(SCIP_TYPESCRIPT, format!("no temp dir: {e}")))?;
    let project = scratch
        .path()
        .canonicalize()
        .map_err(|e| failed(SCIP_TYPESCRIPT, format!("no project dir: {e}")))?;
    oracles::scip_typescript::write_project(&project, &root)?;
    let index = project.join("index.scip");
    let mut args: Vec<std::ffi::OsString> = vec![modules
        .join("@sourcegraph/scip-typescript/dist/src/main.js")
        .into()];
    args.extend(oracles::scip_typescript::index_args(&project, &index));
    let env = [("HOME", project.clone().into_os_string())];
    let stats =
        crate::peers::timed_run_env(SCIP_TYPESCRIPT, &node.path, &args, &project, &env, setup)?;
    let calls = read_calls(&node, &modules, &root, &project, &index, &project, setup)?;
    Ok((
        scip_report(&calls, SCIP_TYPESCRIPT, SCIP_TYPESCRIPT_VERSION),
        stats,
    ))
}

/// The calls of an index the indexer wrote (none written: the tool's failure).
fn read_calls(
    node: &Tool,
    modules: &Path,
    root: &Path,
    project: &Path,
    index: &Path,
    work: &Path,
    setup: &CorpusSetup,
) -> Result<ScipCalls, Outcome> {
    if !index.is_file() {
        return Err(failed("scip", "wrote no index".into()));
    }
    let dump = oracles::scip::read_index(node, modules, root, project, index, work, setup.bound)?;
    Ok(oracles::scip::calls_of(&dump, root))
}

/// The report of an index's calls: every callable definition of the tree an entity,
/// every call a site at its name token.
pub fn scip_report(calls: &ScipCalls, tool: &str, version: &str) -> Report {
    let mut ids: BTreeMap<usize, u64> = BTreeMap::new();
    let mut entities = Vec::new();
    for (k, d) in calls.definitions.iter().enumerate() {
        if !d.is_callable() {
            continue;
        }
        let id = entities.len() as u64 + 1;
        ids.insert(k, id);
        entities.push(Entity {
            id,
            qualified_name: oracles::scip::descriptors(&d.symbol).to_string(),
            kind: d.kind.entity_kind().into(),
            file: d.file.clone(),
            line: d.line,
            column: Some(d.column),
            end_line: d.span.map(|[_, last]| last),
            inactive: false,
        });
    }
    let calls = calls
        .calls
        .iter()
        .map(|c| {
            let mut call = Call {
                file: c.file.clone(),
                line: c.line,
                column: Some(c.column),
                caller: c.caller.and_then(|k| ids.get(&k).copied()),
                wrote: c.name.clone(),
                name: c.name.clone(),
                args: None,
                resolution: Resolution::Unresolved,
                placed_by: None,
                target: None,
                declaration_line: None,
                outside: None,
                reason: None,
                may_reach: None,
                receiver: None,
                site: true,
            };
            match &c.callee {
                Callee::InTree(k) => {
                    let d = &calls.definitions[*k];
                    call.resolution = Resolution::InTree;
                    call.placed_by = Some(format!("{tool}:{}", d.kind.entity_kind()));
                    call.target = Some(Target {
                        entity: ids.get(k).copied(),
                        qualified_name: oracles::scip::descriptors(&d.symbol).to_string(),
                        file: d.file.clone(),
                        line: d.line,
                    });
                    call.declaration_line = Some(d.line);
                }
                Callee::Outside(symbol) => {
                    call.resolution = Resolution::Outside;
                    call.placed_by = Some(format!("{tool}:outside"));
                    call.outside = Some(OutsideRef {
                        kind: "package".into(),
                        symbol: symbol.clone(),
                    });
                }
                Callee::Undetermined(_) => {
                    call.resolution = Resolution::Undetermined;
                    call.reason = Some("names_a_variable".into());
                }
                Callee::Unresolved(_) => call.reason = Some("no_declaration".into()),
            }
            call
        })
        .collect();
    Report {
        schema: REPORT_SCHEMA.into(),
        engine: EngineStamp {
            version: version.into(),
        },
        entities,
        calls,
        references: vec![],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use oracles::scip::{Definition, ScipCall, SymbolKind};

    fn definition(symbol: &str, kind: SymbolKind, line: u32, span: Option<[u32; 2]>) -> Definition {
        Definition {
            symbol: format!("scip-python python t 0 {symbol}"),
            kind,
            file: "p/m.py".into(),
            line,
            column: 5,
            span,
        }
    }

    fn call(line: u32, name: &str, caller: Option<usize>, callee: Callee) -> ScipCall {
        ScipCall {
            file: "p/m.py".into(),
            line,
            column: 5,
            name: name.into(),
            caller,
            callee,
        }
    }

    #[test]
    fn an_index_becomes_a_report_of_sites() {
        let calls = ScipCalls {
            tool: "scip-python 0.6.6".into(),
            definitions: vec![
                definition("p/m/C#", SymbolKind::Type, 1, Some([1, 3])),
                definition("p/m/C#x.", SymbolKind::Term, 2, None),
                definition("p/m/f().", SymbolKind::Function, 5, Some([5, 9])),
            ],
            calls: vec![
                call(6, "C", Some(2), Callee::InTree(0)),
                call(7, "print", Some(2), Callee::Outside("b/print().".into())),
                call(8, "x", Some(2), Callee::Undetermined("p/m/C#x.".into())),
                call(9, "g", None, Callee::Unresolved("p/m/g().".into())),
            ],
        };
        let report = scip_report(&calls, SCIP_PYTHON, SCIP_PYTHON_VERSION);
        // A term with no body is no entity.
        let entities: Vec<(&str, &str, u32)> = report
            .entities
            .iter()
            .map(|e| (e.qualified_name.as_str(), e.kind.as_str(), e.line))
            .collect();
        assert_eq!(
            entities,
            [("p/m/C#", "class", 1), ("p/m/f().", "function", 5)]
        );
        let seen: Vec<(u32, Resolution, Option<u64>, Option<u32>)> = report
            .calls
            .iter()
            .map(|c| (c.line, c.resolution, c.caller, c.declaration_line))
            .collect();
        assert_eq!(
            seen,
            [
                (6, Resolution::InTree, Some(2), Some(1)),
                (7, Resolution::Outside, Some(2), None),
                (8, Resolution::Undetermined, Some(2), None),
                (9, Resolution::Unresolved, None, None),
            ]
        );
        assert!(report.calls.iter().all(|c| c.site && c.column == Some(5)));
        assert_eq!(
            report.calls[0].placed_by.as_deref(),
            Some("scip-python:class")
        );
        assert_eq!(report.calls[0].target.as_ref().unwrap().entity, Some(1));
    }

    #[test]
    fn each_indexer_reads_its_languages() {
        assert!(scip_reads(SCIP_PYTHON, "python"));
        assert!(!scip_reads(SCIP_PYTHON, "typescript"));
        assert!(scip_reads(SCIP_TYPESCRIPT, "javascript"));
        assert!(scip_reads(SCIP_TYPESCRIPT, "tsx"));
        assert!(!scip_reads(SCIP_TYPESCRIPT, "python"));
    }
}
