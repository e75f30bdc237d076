//! code2flow 2.5.1 (issue 18): Python and JavaScript, caller → callee pairs. Its
//! JSON names each function `stem::Class.func` (the file's base name without its
//! extension) with a label `LINE: func()`; an edge is one matched call, with no
//! position. A node is placed on the tree by (file stem, line, name), reading the
//! name token from the tree's syntax; a stem two files share at that line and name
//! is left unplaced, never guessed (research J15).

use std::collections::BTreeMap;
use std::path::Path;

use oracles::toolchain::Outcome;
use serde::Deserialize;

use crate::peer_tokens::TreeTokens;
use crate::pipeline::CorpusSetup;
use crate::report::{Call, EngineStamp, Entity, Report, Resolution, Target, REPORT_SCHEMA};

pub const CODE2FLOW: &str = "code2flow";
/// The pinned release (peers/python/requirements.txt).
pub const CODE2FLOW_VERSION: &str = "2.5.1";

/// acorn on PATH: code2flow parses JavaScript by running it.
const ACORN_LOCK: crate::peer_codegraph::Lock = crate::peer_codegraph::Lock {
    name: CODE2FLOW,
    package_json: include_str!("../../peers/code2flow/package.json"),
    package_lock: include_str!("../../peers/code2flow/package-lock.json"),
};

/// How many lines after the label's line the name token may sit on (a decorated
/// function's label may be its first decorator's line).
const MAX_DECORATOR_LINES: u32 = 8;

#[derive(Debug, Deserialize)]
struct Output {
    graph: Graph,
}

#[derive(Debug, Deserialize)]
struct Graph {
    #[serde(default)]
    nodes: BTreeMap<String, Node>,
    #[serde(default)]
    edges: Vec<Edge>,
}

#[derive(Debug, Deserialize)]
struct Node {
    label: String,
    name: String,
}

#[derive(Debug, Deserialize)]
struct Edge {
    source: String,
    target: String,
}

/// A node as code2flow names it: the file stem, the dotted name under it, the line.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Named<'a> {
    stem: &'a str,
    dotted: &'a str,
    line: u32,
}

impl Named<'_> {
    fn of<'a>(node: &'a Node) -> Option<Named<'a>> {
        let (stem, dotted) = node.name.split_once("::")?;
        let (line, _) = node.label.split_once(':')?;
        Some(Named {
            stem,
            dotted,
            line: line.trim().parse().ok()?,
        })
    }

    /// The function's own name (`Class.func` → `func`).
    fn name(&self) -> &str {
        self.dotted.rsplit('.').next().unwrap_or(self.dotted)
    }

    /// The module-level code of a file (`stem::(global)`).
    fn is_module(&self) -> bool {
        self.dotted == "(global)"
    }
}

/// The base name of a path without its last extension.
fn stem(file: &str) -> &str {
    let base = file.rsplit('/').next().unwrap_or(file);
    base.rsplit_once('.').map_or(base, |(s, _)| s)
}

/// The name a call of a function is written with: `__init__` (a construction) and
/// `constructor` by the class's name.
fn called_name<'a>(named: &Named<'a>) -> &'a str {
    let mut segments = named.dotted.rsplit('.');
    let last = segments.next().unwrap_or(named.dotted);
    if matches!(last, "__init__" | "constructor") {
        segments.next().unwrap_or(last)
    } else {
        last
    }
}

/// code2flow's JSON as pair-only calls: a node the tree holds at (stem, line, name)
/// exactly once is an entity at its name token; `stem::(global)` is its file's
/// module (a stem several files share leaves it unplaced); each edge between placed
/// nodes is one `site: false` call, `in_tree` at its target; an edge to a node that
/// cannot be placed is the tool's `unresolved`, one from such a node is dropped (no
/// code of the tree can be named as its caller).
pub fn code2flow_report(
    json: &[u8],
    files: &[String],
    root: &Path,
    language: &str,
) -> Result<Report, String> {
    let output: Output = serde_json::from_slice(json).map_err(|e| e.to_string())?;
    let mut by_stem: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for file in files {
        by_stem.entry(stem(file)).or_default().push(file.as_str());
    }
    let mut tokens = TreeTokens::new(root, language);
    let mut entities: BTreeMap<&str, Entity> = BTreeMap::new();
    let mut modules: BTreeMap<&str, &str> = BTreeMap::new();
    for (uid, node) in &output.graph.nodes {
        let Some(named) = Named::of(node) else {
            continue;
        };
        let candidates = by_stem.get(named.stem).map_or(&[][..], |v| v.as_slice());
        if named.is_module() {
            if let [file] = candidates {
                modules.insert(uid.as_str(), file);
            }
            continue;
        }
        let found: Vec<(&str, (u32, u32))> = candidates
            .iter()
            .filter_map(|file| {
                let at = tokens.file(file)?.find_within(
                    named.line,
                    named.line + MAX_DECORATOR_LINES,
                    named.name(),
                )?;
                Some((*file, at))
            })
            .collect();
        let [(file, (line, column))] = found.as_slice() else {
            continue;
        };
        let id = entities.len() as u64 + 1;
        entities.insert(
            uid.as_str(),
            Entity {
                id,
                qualified_name: format!("{file}::{}", named.dotted),
                kind: "function".into(),
                file: file.to_string(),
                line: *line,
                column: Some(*column),
                end_line: None,
                inactive: false,
            },
        );
    }
    let mut calls = Vec::new();
    for edge in &output.graph.edges {
        let (file, line, caller) = if let Some(e) = entities.get(edge.source.as_str()) {
            (e.file.clone(), e.line, Some(e.id))
        } else if let Some(file) = modules.get(edge.source.as_str()) {
            (file.to_string(), 1, None)
        } else {
            continue;
        };
        let Some(named) = output.graph.nodes.get(&edge.target).and_then(Named::of) else {
            continue;
        };
        let name = called_name(&named).to_string();
        let target = entities.get(edge.target.as_str());
        calls.push(Call {
            file,
            line,
            column: None,
            caller,
            wrote: name.clone(),
            name,
            args: None,
            resolution: if target.is_some() {
                Resolution::InTree
            } else {
                Resolution::Unresolved
            },
            placed_by: target.map(|_| "code2flow:pairs".into()),
            target: target.map(|t| Target {
                entity: Some(t.id),
                qualified_name: t.qualified_name.clone(),
                file: t.file.clone(),
                line: t.line,
            }),
            declaration_line: target.map(|t| t.line),
            outside: None,
            reason: target.is_none().then(|| "no_declaration".into()),
            may_reach: None,
            receiver: None,
            site: false,
        });
    }
    calls.sort_by(|a, b| (&a.file, a.line, &a.name).cmp(&(&b.file, b.line, &b.name)));
    let mut entities: Vec<Entity> = entities.into_values().collect();
    entities.sort_by_key(|e| e.id);
    Ok(Report {
        schema: REPORT_SCHEMA.into(),
        engine: EngineStamp {
            version: CODE2FLOW_VERSION.into(),
        },
        entities,
        calls,
        references: vec![],
    })
}

/// Every file of `extensions` under `root`, relative, sorted.
fn files_of(root: &Path, extensions: &[&str]) -> Vec<String> {
    let mut found = Vec::new();
    let mut pending = vec![root.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if kind.is_dir() {
                pending.push(path);
            } else if kind.is_file()
                && path
                    .extension()
                    .is_some_and(|e| extensions.iter().any(|x| e == *x))
            {
                if let Ok(relative) = path.strip_prefix(root) {
                    found.push(relative.to_string_lossy().into_owned());
                }
            }
        }
    }
    found.sort();
    found
}

/// code2flow on the analysed tree (`code2flow . --language py|js --no-trimming
/// --output OUT.json --quiet`, run from the root; for JavaScript with the pinned
/// acorn on PATH).
pub fn run_code2flow(
    root: &Path,
    language: &str,
    setup: &CorpusSetup,
    venv: &Path,
) -> Result<(Report, crate::peers::RunStats), Outcome> {
    let failed = |detail: String| Outcome::tool_failed(CODE2FLOW, detail);
    let root = root
        .canonicalize()
        .map_err(|e| failed(format!("cannot read the root: {e}")))?;
    let (flag, extensions): (&str, &[&str]) = match language {
        "python" => ("py", &["py"]),
        _ => ("js", &["js", "mjs", "cjs"]),
    };
    let mut env = Vec::new();
    if flag == "js" {
        let install = crate::peer_codegraph::ensure_installed(&ACORN_LOCK, setup, |_| Ok(()))?;
        let path = format!(
            "{}:{}",
            install.join("node_modules/.bin").display(),
            std::env::var("PATH").unwrap_or_default()
        );
        env.push(("PATH", path.into()));
    }
    let scratch = tempfile::tempdir().map_err(|e| failed(format!("no temp dir: {e}")))?;
    let out = scratch.path().join("code2flow.json");
    let args: Vec<std::ffi::OsString> = vec![
        ".".into(),
        "--language".into(),
        flag.into(),
        "--no-trimming".into(),
        "--quiet".into(),
        "--output".into(),
        out.clone().into_os_string(),
    ];
    let program = venv.join("bin/code2flow");
    let stats = crate::peers::timed_run_env(CODE2FLOW, &program, &args, &root, &env, setup)?;
    let json = std::fs::read(&out).map_err(|e| failed(format!("wrote no graph: {e}")))?;
    let files = files_of(&root, extensions);
    let report = code2flow_report(&json, &files, &root, language)
        .map_err(|e| failed(format!("unreadable graph: {e}")))?;
    Ok((report, stats))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// code2flow's output on a two-file tree whose files share no stem but one:
    /// `a.py` and `pkg/a.py` both have the stem `a`.
    const OUTPUT: &str = r#"{"graph": {"directed": true,
      "nodes": {
        "n1": {"uid": "n1", "label": "4: __init__()", "name": "m::C.__init__"},
        "n2": {"uid": "n2", "label": "7: run()", "name": "m::C.run"},
        "n3": {"uid": "n3", "label": "11: helper()", "name": "m::helper"},
        "n4": {"uid": "n4", "label": "0: (global)()", "name": "m::(global)"},
        "n5": {"uid": "n5", "label": "1: f()", "name": "a::f"},
        "n6": {"uid": "n6", "label": "0: (global)()", "name": "a::(global)"}
      },
      "edges": [
        {"source": "n2", "target": "n3", "directed": true},
        {"source": "n3", "target": "n1", "directed": true},
        {"source": "n4", "target": "n3", "directed": true},
        {"source": "n3", "target": "n5", "directed": true},
        {"source": "n6", "target": "n3", "directed": true}
      ]}}"#;

    #[test]
    fn code2flow_nodes_are_placed_by_stem_line_and_name_token() {
        let dir = tempfile::tempdir().unwrap();
        let m = "class C:\n    # init\n\n    def __init__(self):\n        pass\n\n    def run(self):\n        helper()\n\n@deco\ndef helper():\n    C()\n\nhelper()\n";
        std::fs::write(dir.path().join("m.py"), m).unwrap();
        std::fs::create_dir(dir.path().join("pkg")).unwrap();
        std::fs::write(dir.path().join("a.py"), "def f(): pass\n").unwrap();
        std::fs::write(dir.path().join("pkg/a.py"), "def f(): pass\n").unwrap();
        let files = vec![
            "a.py".to_string(),
            "m.py".to_string(),
            "pkg/a.py".to_string(),
        ];
        let report = code2flow_report(OUTPUT.as_bytes(), &files, dir.path(), "python").unwrap();
        let entities: Vec<(&str, u32)> = report
            .entities
            .iter()
            .map(|e| (e.qualified_name.as_str(), e.line))
            .collect();
        // `a::f` is in two files at the same line: unplaced.
        assert_eq!(
            entities,
            [
                ("m.py::C.__init__", 4),
                ("m.py::C.run", 7),
                ("m.py::helper", 11)
            ]
        );
        let calls: Vec<(&str, u32, &str, Resolution)> = report
            .calls
            .iter()
            .map(|c| (c.file.as_str(), c.line, c.name.as_str(), c.resolution))
            .collect();
        assert_eq!(
            calls,
            [
                // Module level; the edge from the ambiguous `a::(global)` is dropped.
                ("m.py", 1, "helper", Resolution::InTree),
                ("m.py", 7, "helper", Resolution::InTree),
                // A construction is called by the class's name.
                ("m.py", 11, "C", Resolution::InTree),
                // To a node that cannot be placed: the tool's unresolved.
                ("m.py", 11, "f", Resolution::Unresolved),
            ]
        );
        assert!(report.calls.iter().all(|c| !c.site));
        assert_eq!(report.calls[2].target.as_ref().unwrap().line, 4);
    }
}
