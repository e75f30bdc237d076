//! Peer call-graph tools run beside the engine in the same run (issue 18, D53):
//! each installed from its pins into the cache, run on the tree the engine analyses
//! with the engine's time bound, its wall time and peak RSS measured the way the
//! engine's are measured in that run (`/usr/bin/time` around the process), its output
//! converted here into `callgraph-report/1` and scored against the same truth.
//!
//! Opt-in: `harness measure --peers` (timings are no deterministic figure, so a run
//! without it writes none). A tool that crashes, hangs or cannot read the corpus is
//! the row's outcome, never a row of wrong answers. A converter never reads the
//! truth: it reads the tool's output and, where said, the analysed tree.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use oracles::toolchain::{Outcome, Tool};
use serde::{Deserialize, Serialize};
use sha2::Digest as _;

use crate::corpora::{CorpusEntry, OracleChoice};
use crate::engine::Analyzer;
use crate::model::{Measurements, NameVersion, Row};
use crate::peer_code2flow::CODE2FLOW;
use crate::peer_codegraph::{COLBY, OPTAVE};
use crate::peer_scip::{SCIP_PYTHON, SCIP_TYPESCRIPT};
use crate::pipeline::{CorpusSetup, Prepared};
use crate::report::{Call, EngineStamp, Entity, Report, Resolution, Target, REPORT_SCHEMA};

/// pyan3 2.x: Python, pairs (its *uses* edges, read as calls: it has no calls-only
/// mode, research J14).
pub const PYAN3: &str = "pyan3";
/// The pinned pyan3 release (peers/python/requirements.txt).
pub const PYAN3_VERSION: &str = "2.9.0";

/// The peers `--peers` runs; any other `peers` entry of corpora.json (PyCG) runs as
/// before.
pub fn is_opt_in(name: &str) -> bool {
    matches!(
        name,
        PYAN3
            | JARVIS
            | JARVIS_PRECISION
            | CODE2FLOW
            | COLBY
            | OPTAVE
            | SCIP_PYTHON
            | SCIP_TYPESCRIPT
    )
}

/// JARVIS (`jarviscg`): Python, pairs by dotted names; default and flow-sensitive.
pub const JARVIS: &str = "jarvis";
pub const JARVIS_PRECISION: &str = "jarvis-precision";
/// The pinned JARVIS release (peers/python/requirements.txt).
pub const JARVIS_VERSION: &str = "0.1.0rc7";

/// How long one process ran and its peak resident set, as `/usr/bin/time` reads it
/// (the largest resident set of the process and of any child it waited for).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunStats {
    pub wall_ms: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub peak_rss_kib: Option<u64>,
}

/// The program that measures every timed run: GNU time (Debian's `time` package).
const TIME: &str = "/usr/bin/time";

/// Runs `program args` in `cwd` within the setup's bound, under `/usr/bin/time` when
/// it is installed (else the wall time alone): the same measurement for the engine
/// and for every peer.
fn timed_run(
    tool: &str,
    program: &Path,
    args: &[std::ffi::OsString],
    cwd: &Path,
    setup: &CorpusSetup,
) -> Result<RunStats, Outcome> {
    timed_run_env(tool, program, args, cwd, &[], setup)
}

/// [`timed_run`] with `env` set for the tool (and its children).
pub(crate) fn timed_run_env(
    tool: &str,
    program: &Path,
    args: &[std::ffi::OsString],
    cwd: &Path,
    env: &[(&str, std::ffi::OsString)],
    setup: &CorpusSetup,
) -> Result<RunStats, Outcome> {
    let scratch = tempfile::tempdir().map_err(|e| failed(tool, format!("no temp dir: {e}")))?;
    let stats = scratch.path().join("time.txt");
    let started = std::time::Instant::now();
    if Path::new(TIME).is_file() {
        let timer = Tool {
            name: tool.into(),
            path: TIME.into(),
        };
        let mut command = timer.command(cwd);
        for (key, value) in env {
            command = command.env(key, value);
        }
        command
            .args(["-f", "%M", "-o"])
            .arg(&stats)
            .arg(program)
            .args(args)
            .timeout(setup.bound)
            .run()?;
    } else {
        let tool = Tool {
            name: tool.into(),
            path: program.to_path_buf(),
        };
        let mut command = tool.command(cwd);
        for (key, value) in env {
            command = command.env(key, value);
        }
        command.args(args).timeout(setup.bound).run()?;
    }
    let wall_ms = started.elapsed().as_millis() as u64;
    let peak_rss_kib = std::fs::read_to_string(&stats)
        .ok()
        .and_then(|text| last_number(&text));
    Ok(RunStats {
        wall_ms,
        peak_rss_kib,
    })
}

/// The last whole number of `time -o`'s file (it may precede it with a line saying
/// the command exited non-zero).
fn last_number(text: &str) -> Option<u64> {
    text.lines().rev().find_map(|l| l.trim().parse().ok())
}

fn failed(tool: &str, detail: String) -> Outcome {
    Outcome::ToolFailed {
        tool: tool.into(),
        detail,
    }
}

/// The engine on the same tree, timed as the peers are; `None` when the analyzer is
/// no binary (tests) or the timed rerun failed (its figures came from the first run).
pub fn time_engine(
    analyzer: &dyn Analyzer,
    corpus: &CorpusEntry,
    root: &Path,
    setup: &CorpusSetup,
) -> Option<RunStats> {
    let binary = analyzer.binary()?;
    // The run's directory is a scratch one: the root must not depend on it.
    let root = root.canonicalize().ok()?;
    let scratch = tempfile::tempdir().ok()?;
    let mut args: Vec<std::ffi::OsString> = vec!["analyze".into(), root.as_os_str().into()];
    args.push("--out".into());
    args.push(scratch.path().join("report.json").into_os_string());
    args.extend(corpus.build.engine_args().into_iter().map(Into::into));
    timed_run("callgraph", binary, &args, scratch.path(), setup).ok()
}

/// One opt-in peer on one corpus: installed, run, converted, scored into `row`.
pub fn measure_peer(
    corpus: &CorpusEntry,
    peer: &OracleChoice,
    setup: &CorpusSetup,
    prepared: Option<&Prepared>,
    row: &mut Row,
) -> Result<(), Outcome> {
    let prepared = prepared.ok_or_else(|| Outcome::NotImplemented {
        tool: format!("peer:{}", peer.name),
        detail: "the corpus has no truth and tree to run the peer on".into(),
    })?;
    let (report, stats) = match peer.name.as_str() {
        PYAN3 if corpus.language == "python" => run_pyan3(&prepared.root, setup)?,
        JARVIS if corpus.language == "python" => run_jarvis(&prepared.root, setup, false)?,
        JARVIS_PRECISION if corpus.language == "python" => run_jarvis(&prepared.root, setup, true)?,
        COLBY if crate::peer_codegraph::colby_reads(&corpus.language) => {
            crate::peer_codegraph::run_colby(&prepared.root, &corpus.language, setup)?
        }
        OPTAVE if crate::peer_codegraph::optave_reads(&corpus.language) => {
            crate::peer_codegraph::run_optave(&prepared.root, &corpus.language, setup)?
        }
        SCIP_PYTHON if crate::peer_scip::scip_reads(SCIP_PYTHON, &corpus.language) => {
            let python_path = oracles::scip_python::python_path(&corpus.oracle.options);
            crate::peer_scip::run_scip_python(&prepared.root, &python_path, setup)?
        }
        SCIP_TYPESCRIPT if crate::peer_scip::scip_reads(SCIP_TYPESCRIPT, &corpus.language) => {
            crate::peer_scip::run_scip_typescript(&prepared.root, setup)?
        }
        CODE2FLOW if matches!(corpus.language.as_str(), "python" | "javascript") => {
            let venv = python_peers(setup)?;
            crate::peer_code2flow::run_code2flow(&prepared.root, &corpus.language, setup, &venv)?
        }
        other => {
            return Err(Outcome::NotImplemented {
                tool: format!("peer:{other}"),
                detail: format!("no adapter for {other} on {}", corpus.language),
            })
        }
    };
    row.engine = NameVersion {
        name: peer.name.clone(),
        version: report.engine.version.clone(),
    };
    row.run = Some(stats);
    if report.calls.iter().all(|c| !c.site) && !names_callers(&prepared.truth) {
        // A truth site without a caller borrows its engine partner's (PROTOCOL
        // §6); a pair-only call has no partner, so no pair of it could be judged:
        // 0 % recall would be the scorer's gap, not the tool's.
        return Err(Outcome::NotImplemented {
            tool: format!("peer:{}", peer.name),
            detail: "the truth names no callers: pairs without sites cannot be judged".into(),
        });
    }
    crate::measure::fill_scores(row, &report, &prepared.truth, &prepared.options);
    if report.calls.iter().all(|c| !c.site) {
        if let Some(figures) = row.figures.as_mut() {
            without_site_figures(figures);
        }
    }
    Ok(())
}

/// Whether any truth site names its caller (the kotlinc truth names none).
fn names_callers(truth: &oracles::truth::Truth) -> bool {
    truth.sites.iter().any(|s| s.caller.is_some()) || !truth.pairs.is_empty()
}

/// A tool that gives no call sites has no site ratios: its 0 % coverage would read
/// as a tool that answered nothing, so every site ratio is left empty (`—`); its
/// counts (judged truth sites, missed) stay as they are.
fn without_site_figures(figures: &mut crate::figures::Figures) {
    figures.coverage = None;
    figures.right_method = None;
    figures.precision = None;
    figures.in_tree_precision = None;
    figures.outside_precision = None;
    figures.answered = None;
    figures.ceiling = None;
}

/// The venv of the Python peers, installed from peers/python/requirements.txt with
/// `--require-hashes` (once; a marker holds the requirements it was made from).
fn python_peers(setup: &CorpusSetup) -> Result<PathBuf, Outcome> {
    let requirements = PathBuf::from("peers/python/requirements.txt");
    let text = std::fs::read_to_string(&requirements).map_err(|e| Outcome::ToolMissing {
        tool: "peers:python".into(),
        detail: format!("cannot read {}: {e}", requirements.display()),
    })?;
    let key: String = sha2::Sha256::digest(text.as_bytes())
        .iter()
        .take(6)
        .map(|b| format!("{b:02x}"))
        .collect();
    let spec = oracles::pyenv::VenvSpec {
        name: format!("peers-{key}"),
        packages: vec![],
        pip_flags: vec![],
    };
    let venv = oracles::pyenv::ensure_venv(&setup.cache_dir, &spec, setup.bound)?;
    let marker = venv.dir.join("peers.complete");
    if std::fs::read_to_string(&marker).ok().as_deref() != Some(text.as_str()) {
        venv.python
            .command(&venv.dir)
            .args([
                "-m",
                "pip",
                "install",
                "--quiet",
                "--disable-pip-version-check",
            ])
            .args(["--require-hashes", "--no-deps", "-r"])
            .arg(requirements.canonicalize().unwrap_or(requirements.clone()))
            .timeout(setup.bound)
            .run()?;
        std::fs::write(&marker, &text)
            .map_err(|e| failed("peers:python", format!("cannot mark the venv: {e}")))?;
    }
    Ok(venv.dir)
}

/// Every `.py` file under `root`, relative, sorted (symlinks not followed).
fn python_files(root: &Path) -> Result<Vec<String>, Outcome> {
    oracles::pycg::python_files(root)
        .map_err(|e| failed(PYAN3, format!("cannot list the tree: {e}")))
}

/// pyan3 on the analysed tree: `pyan3 FILE... --dot --no-defines --uses --file OUT`,
/// converted by [`pyan3_report`].
fn run_pyan3(root: &Path, setup: &CorpusSetup) -> Result<(Report, RunStats), Outcome> {
    let venv = python_peers(setup)?;
    let root = root
        .canonicalize()
        .map_err(|e| failed(PYAN3, format!("cannot read the root: {e}")))?;
    let files = python_files(&root)?;
    let out_dir = tempfile::tempdir().map_err(|e| failed(PYAN3, format!("no temp dir: {e}")))?;
    let out = out_dir.path().join("pyan.dot");
    let mut args: Vec<std::ffi::OsString> = files.iter().map(Into::into).collect();
    for flag in ["--dot", "--no-defines", "--uses", "--file"] {
        args.push(flag.into());
    }
    args.push(out.clone().into_os_string());
    let stats = timed_run(PYAN3, &venv.join("bin/pyan3"), &args, &root, setup)?;
    let dot =
        std::fs::read_to_string(&out).map_err(|e| failed(PYAN3, format!("wrote no graph: {e}")))?;
    let report = pyan3_report(&dot, &root.to_string_lossy())
        .map_err(|detail| failed(PYAN3, format!("unreadable graph: {detail}")))?;
    Ok((report, stats))
}

/// JARVIS on the analysed tree, run from its root as its package
/// (`jarviscg --package . FILE... -o OUT`, `--precision` for the flow-sensitive
/// mode); its `{caller: [callee, …]}` dotted names are placed by
/// [`crate::peer_names::DottedIndex`].
fn run_jarvis(
    root: &Path,
    setup: &CorpusSetup,
    precision: bool,
) -> Result<(Report, RunStats), Outcome> {
    let tool = if precision { JARVIS_PRECISION } else { JARVIS };
    let venv = python_peers(setup)?;
    let root = root
        .canonicalize()
        .map_err(|e| failed(tool, format!("cannot read the root: {e}")))?;
    let files = python_files(&root)?;
    let out_dir = tempfile::tempdir().map_err(|e| failed(tool, format!("no temp dir: {e}")))?;
    let out = out_dir.path().join("cg.json");
    let mut args: Vec<std::ffi::OsString> = vec!["--package".into(), ".".into()];
    if precision {
        args.push("--precision".into());
    }
    args.extend(files.iter().map(Into::into));
    args.push("-o".into());
    args.push(out.clone().into_os_string());
    let stats = timed_run(tool, &venv.join("bin/jarviscg"), &args, &root, setup)?;
    let bytes = std::fs::read(&out).map_err(|e| failed(tool, format!("wrote no graph: {e}")))?;
    let graph: BTreeMap<String, Vec<String>> = serde_json::from_slice(&bytes)
        .map_err(|e| failed(tool, format!("unreadable graph: {e}")))?;
    let index = crate::peer_names::DottedIndex::of_tree(&root, &files)
        .map_err(|detail| failed(tool, detail))?;
    Ok((dotted_report(&graph, &index, JARVIS_VERSION, tool), stats))
}

/// A `{caller: [callee, …]}` graph by dotted names as pair-only calls: a caller that
/// is a module of the tree calls at module level; one the tree does not declare is
/// dropped (it is no code of the tree); a callee the tree declares is `in_tree`
/// (a class stays the class; `__init__` is called by its class's name), a
/// `<builtin>.` name is `outside`, anything else (a module, an external, an invented
/// attribute chain) the tool's `unresolved` (research J13).
pub fn dotted_report(
    graph: &BTreeMap<String, Vec<String>>,
    index: &crate::peer_names::DottedIndex,
    version: &str,
    tool: &str,
) -> Report {
    let mut calls = Vec::new();
    for (caller, callees) in graph {
        let (file, line, caller_id) = if let Some(d) = index.declaration(caller) {
            (d.file.clone(), d.line, Some(d.id))
        } else if let Some(file) = index.module_file(caller) {
            (file.to_string(), 1, None)
        } else {
            continue;
        };
        for callee in callees {
            calls.push(dotted_call(&file, line, caller_id, callee, index, tool));
        }
    }
    Report {
        schema: REPORT_SCHEMA.into(),
        engine: EngineStamp {
            version: version.into(),
        },
        entities: index.entities(),
        calls,
        references: vec![],
    }
}

/// The name a call of `callee` is written with: its last segment, the class's for
/// `Class.__init__`.
fn called_name(callee: &str) -> &str {
    let mut segments = callee.rsplit('.');
    let last = segments.next().unwrap_or(callee);
    if last == "__init__" {
        segments.next().unwrap_or(last)
    } else {
        last
    }
}

fn dotted_call(
    file: &str,
    line: u32,
    caller: Option<u64>,
    callee: &str,
    index: &crate::peer_names::DottedIndex,
    tool: &str,
) -> Call {
    let declared = index.declaration(callee);
    let name = called_name(callee);
    let resolution = match declared {
        Some(_) => Resolution::InTree,
        None if callee.starts_with("<builtin>.") => Resolution::Outside,
        None => Resolution::Unresolved,
    };
    Call {
        file: file.into(),
        line,
        column: None,
        caller,
        wrote: name.into(),
        name: name.into(),
        args: None,
        resolution,
        placed_by: (resolution != Resolution::Unresolved).then(|| format!("{tool}:pairs")),
        target: declared.map(|d| Target {
            entity: Some(d.id),
            qualified_name: callee.to_string(),
            file: d.file.clone(),
            line: d.line,
        }),
        declaration_line: None,
        outside: (resolution == Resolution::Outside).then(|| crate::report::OutsideRef {
            kind: "builtin".into(),
            symbol: name.into(),
        }),
        reason: (resolution == Resolution::Unresolved).then(|| "no_declaration".into()),
        may_reach: None,
        receiver: None,
        site: false,
    }
}

/// One node of pyan3's dot output, from its tooltip `dotted\nPATH[:LINE]\nKIND in SCOPE`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct PyanNode {
    dotted: String,
    /// Root-relative file; `None` for a node outside the tree (a wildcard `*.name`).
    file: Option<String>,
    /// 0 for a module.
    line: u32,
    /// `function`, `method`, `class`, `module`, `name`, ...
    kind: String,
}

impl PyanNode {
    /// A node a call can land on: a function, a method or a class (a construction;
    /// the pytrace truth accepts the class line).
    fn is_callable(&self) -> bool {
        matches!(
            self.kind.as_str(),
            "function" | "method" | "class" | "staticmethod" | "classmethod"
        )
    }

    fn name(&self) -> &str {
        self.dotted.rsplit('.').next().unwrap_or(&self.dotted)
    }
}

/// The quoted id at the start of `text` (`"a__b"`), and what follows it.
fn quoted(text: &str) -> Option<(&str, &str)> {
    let rest = text.strip_prefix('"')?;
    let end = rest.find('"')?;
    Some((&rest[..end], &rest[end + 1..]))
}

/// The value of `key="…"` in a dot attribute list (pyan writes no escaped quotes).
fn attribute<'a>(attrs: &'a str, key: &str) -> Option<&'a str> {
    let start = attrs.find(&format!(" {key}=\""))? + key.len() + 3;
    let end = attrs[start..].find('"')?;
    Some(&attrs[start..start + end])
}

/// Reads one node's tooltip: pyan writes the line break as the two characters `\n`.
fn read_tooltip(tooltip: &str, root: &str) -> Option<PyanNode> {
    let parts: Vec<&str> = tooltip.split("\\n").collect();
    let dotted = parts.first()?.to_string();
    let place = parts.get(1).copied().unwrap_or("");
    let (path, line) = match place.rsplit_once(':') {
        Some((path, line)) if line.chars().all(|c| c.is_ascii_digit()) && !line.is_empty() => {
            (path, line.parse().ok()?)
        }
        _ => (place, 0),
    };
    let file = path
        .strip_prefix(root)
        .map(|p| p.trim_start_matches('/').to_string())
        .filter(|p| !p.is_empty());
    let kind = match parts.get(2) {
        Some(kind) => kind.split(" in ").next().unwrap_or("").to_string(),
        None if line == 0 && file.is_some() => "module".into(),
        None => String::new(),
    };
    Some(PyanNode {
        dotted,
        file,
        line,
        kind,
    })
}

/// Converts pyan3's dot graph into a report of pair-only calls: every function,
/// method and class node of the tree is an entity; every edge from a node of the
/// tree is one `site: false` call of its caller (a module or a module-level name is
/// the module); an edge to a callable of the tree is `in_tree`, any other (a module,
/// a variable, a name outside the tree) is the tool's `unresolved` answer.
pub fn pyan3_report(dot: &str, root: &str) -> Result<Report, String> {
    let mut nodes: BTreeMap<String, PyanNode> = BTreeMap::new();
    let mut edges: Vec<(String, String)> = Vec::new();
    for line in dot.lines().map(str::trim) {
        let Some((from, rest)) = quoted(line) else {
            continue;
        };
        if let Some(after) = rest.trim_start().strip_prefix("->") {
            let (to, _) = quoted(after.trim_start()).ok_or("an edge without a target")?;
            edges.push((from.to_string(), to.to_string()));
        } else if let Some(tooltip) = attribute(rest, "tooltip") {
            if let Some(node) = read_tooltip(tooltip, root) {
                nodes.insert(from.to_string(), node);
            }
        }
    }
    let mut ids: BTreeMap<&str, u64> = BTreeMap::new();
    let mut entities = Vec::new();
    for (key, node) in &nodes {
        let (Some(file), true) = (&node.file, node.is_callable()) else {
            continue;
        };
        let id = entities.len() as u64 + 1;
        ids.insert(key.as_str(), id);
        entities.push(Entity {
            id,
            qualified_name: node.dotted.clone(),
            kind: node.kind.clone(),
            file: file.clone(),
            line: node.line,
            column: None,
            end_line: None,
            inactive: false,
        });
    }
    let mut calls = Vec::new();
    for (from, to) in &edges {
        let (Some(caller), Some(callee)) = (nodes.get(from), nodes.get(to)) else {
            continue;
        };
        let Some(file) = &caller.file else { continue };
        let caller_id = ids.get(from.as_str()).copied();
        let line = if caller_id.is_some() { caller.line } else { 1 };
        calls.push(pair_call(
            file,
            line.max(1),
            caller_id,
            callee,
            ids.get(to.as_str()),
        ));
    }
    calls.sort_by(|a, b| (&a.file, a.line, &a.name).cmp(&(&b.file, b.line, &b.name)));
    Ok(Report {
        schema: REPORT_SCHEMA.into(),
        engine: EngineStamp {
            version: PYAN3_VERSION.into(),
        },
        entities,
        calls,
        references: vec![],
    })
}

/// One pair-only call: placed on its caller's line (no column: the tool gives none).
fn pair_call(
    file: &str,
    line: u32,
    caller: Option<u64>,
    callee: &PyanNode,
    callee_id: Option<&u64>,
) -> Call {
    let in_tree = callee_id.is_some() && callee.file.is_some();
    Call {
        file: file.into(),
        line,
        column: None,
        caller,
        wrote: callee.name().into(),
        name: callee.name().into(),
        args: None,
        resolution: if in_tree {
            Resolution::InTree
        } else {
            Resolution::Unresolved
        },
        placed_by: in_tree.then(|| format!("pyan3:{}", callee.kind)),
        target: in_tree.then(|| Target {
            entity: callee_id.copied(),
            qualified_name: callee.dotted.clone(),
            file: callee.file.clone().unwrap_or_default(),
            line: callee.line,
        }),
        declaration_line: None,
        outside: None,
        reason: (!in_tree).then(|| "no_declaration".into()),
        may_reach: None,
        receiver: None,
        site: false,
    }
}

/// `## Peers`: per corpus that has peer rows, the engine and every peer side by
/// side, with the wall time and peak RSS of the same run and each tool's time over
/// the engine's.
pub fn render_section(md: &mut String, measurements: &Measurements) {
    let mut by_corpus: BTreeMap<&str, Vec<&Row>> = BTreeMap::new();
    for row in measurements.rows.iter().filter(|r| is_peer_row(r)) {
        if let Some((corpus, _)) = row.id.split_once('@') {
            by_corpus.entry(corpus).or_default().push(row);
        }
    }
    if by_corpus.is_empty() {
        return;
    }
    md.push_str("## Peers\n\n");
    md.push_str(
        "Each corpus's engine row beside the other call-graph tools scored against the same truth \
         in the same run (`harness measure --peers`; docs/PROTOCOL.md §6 for pair-only tools). \
         Site figures only where the tool gives call sites; wall time and peak RSS of the \
         process (`/usr/bin/time`) measured in that run; `× engine` is the tool's wall time \
         over the engine's.\n\n",
    );
    for (corpus, peers) in by_corpus {
        let engine = measurements.row(corpus);
        let _ = writeln!(md, "### {corpus}\n");
        md.push_str(&crate::tables::header(PEER_HEADER));
        let engine_wall = engine.and_then(|r| r.run).map(|s| s.wall_ms);
        for row in engine.into_iter().chain(peers) {
            let cells: Vec<String> = peer_cells(row, engine_wall)
                .iter()
                .map(|c| crate::tables::cell(c))
                .collect();
            let _ = writeln!(md, "| {} |", cells.join(" | "));
        }
        md.push('\n');
    }
}

/// Whether a row is another tool's (`<corpus>@<tool>`): a row of the engine judged
/// by a corpus's other oracle (`express@jstrace`) is the engine, not a peer.
pub(crate) fn is_peer_row(row: &Row) -> bool {
    row.id.contains('@') && row.engine.name != "callgraph"
}

const PEER_HEADER: &[&str] = &[
    "tool",
    "version",
    "sites",
    "coverage",
    "precision",
    "false edges",
    "pair precision",
    "pair recall",
    "wall s",
    "peak RSS MiB",
    "× engine",
];

/// One tool's cells; an outcome fills the figure cells with what happened.
fn peer_cells(row: &Row, engine_wall: Option<u64>) -> Vec<String> {
    // The tool is named by its row id: a row whose tool failed before it said its
    // version has no engine stamp.
    let tool = match row.id.split_once('@') {
        Some((_, tool)) => tool.to_string(),
        None => "engine (callgraph)".into(),
    };
    let mut cells = vec![tool, row.engine.version.clone()];
    let percent = crate::tables::percent;
    match (&row.outcome, &row.figures, &row.name_pairs) {
        (Some(outcome), _, _) => {
            cells.push(format!("{outcome}"));
            cells.extend(std::iter::repeat_n("—".to_string(), 5));
        }
        (None, Some(f), _) => {
            let has_sites = f.engine_calls > 0;
            cells.push(if has_sites { "yes" } else { "no (pairs)" }.into());
            if has_sites {
                cells.push(percent(f.coverage));
                cells.push(percent(f.precision));
                cells.push(f.false_edges.to_string());
            } else {
                cells.extend(std::iter::repeat_n("—".to_string(), 3));
            }
            cells.push(percent(f.pairs.precision));
            cells.push(percent(f.pairs.recall));
        }
        (None, None, Some(p)) => {
            cells.push("no (name pairs)".into());
            cells.extend(std::iter::repeat_n("—".to_string(), 3));
            cells.push(percent(p.precision));
            cells.push(percent(p.recall));
        }
        (None, None, None) => {
            cells.push("no figures".into());
            cells.extend(std::iter::repeat_n("—".to_string(), 5));
        }
    }
    match row.run {
        Some(stats) => {
            cells.push(format!("{:.2}", stats.wall_ms as f64 / 1000.0));
            cells.push(
                stats
                    .peak_rss_kib
                    .map_or("—".into(), |k| format!("{:.0}", k as f64 / 1024.0)),
            );
            cells.push(match engine_wall {
                Some(e) if e > 0 => format!("{:.1}×", stats.wall_ms as f64 / e as f64),
                _ => "—".into(),
            });
        }
        None => cells.extend(std::iter::repeat_n("—".to_string(), 3)),
    }
    cells
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOT: &str = r#"digraph G {
        "pkg" [label="pkg", tooltip="pkg\n/r/pkg/__init__.py"];
        "pkg__m__f" [label="f", tooltip="pkg.m.f\n/r/pkg/m.py:3\nfunction in pkg.m"];
        "pkg__m__C" [label="C", tooltip="pkg.m.C\n/r/pkg/m.py:7\nclass in pkg.m"];
        "pkg__m__C__run" [label="run", tooltip="pkg.m.C.run\n/r/pkg/m.py:9\nmethod in pkg.m.C"];
        "pkg__m__X" [label="X", tooltip="pkg.m.X\n/r/pkg/m.py:1\nname in pkg.m"];
        "__open" [label="open", tooltip="*.open\n\nunknown in *"];
        "pkg" -> "pkg__m__f" [style="solid"];
        "pkg__m__f" -> "pkg__m__C" [style="solid"];
        "pkg__m__C__run" -> "pkg__m__f" [style="solid"];
        "pkg__m__C__run" -> "__open" [style="solid"];
        "pkg__m__f" -> "pkg__m__X" [style="solid"];
    }"#;

    #[test]
    fn the_engine_under_another_oracle_is_no_peer() {
        let row = |id: &str, tool: &str| Row {
            id: id.into(),
            engine: crate::model::NameVersion {
                name: tool.into(),
                version: "1".into(),
            },
            ..Row::default()
        };
        assert!(is_peer_row(&row("click@pyan3", "pyan3")));
        // A peer that failed before it said its name is still a peer.
        assert!(is_peer_row(&row("click@jarvis", "")));
        assert!(!is_peer_row(&row("express@jstrace", "callgraph")));
        assert!(!is_peer_row(&row("express", "callgraph")));
    }

    #[test]
    fn pyan3_nodes_become_entities_and_uses_pair_only_calls() {
        let report = pyan3_report(DOT, "/r").unwrap();
        let names: Vec<(&str, &str, u32)> = report
            .entities
            .iter()
            .map(|e| (e.qualified_name.as_str(), e.file.as_str(), e.line))
            .collect();
        assert_eq!(
            names,
            [
                ("pkg.m.C", "pkg/m.py", 7),
                ("pkg.m.C.run", "pkg/m.py", 9),
                ("pkg.m.f", "pkg/m.py", 3)
            ]
        );
        assert!(report.calls.iter().all(|c| !c.site));
        let calls: Vec<(&str, u32, &str, Resolution)> = report
            .calls
            .iter()
            .map(|c| (c.file.as_str(), c.line, c.name.as_str(), c.resolution))
            .collect();
        assert_eq!(
            calls,
            [
                // The package's module-level use of f: the module is the caller.
                ("pkg/__init__.py", 1, "f", Resolution::InTree),
                ("pkg/m.py", 3, "C", Resolution::InTree),
                // A use of a variable is no call of the tree: the tool's unresolved.
                ("pkg/m.py", 3, "X", Resolution::Unresolved),
                ("pkg/m.py", 9, "f", Resolution::InTree),
                ("pkg/m.py", 9, "open", Resolution::Unresolved),
            ]
        );
        assert_eq!(report.calls[0].caller, None);
        assert!(report.calls[1].caller.is_some());
    }

    #[test]
    fn dotted_names_are_placed_by_the_tree_and_never_invented() {
        let mut index = crate::peer_names::DottedIndex::default();
        index
            .add_file(
                "p/m.py",
                b"class C:\n    def __init__(self):\n        pass\n\ndef f():\n    C()\n",
            )
            .unwrap();
        let graph: BTreeMap<String, Vec<String>> = [
            ("p.m".to_string(), vec!["p.m.f".to_string()]),
            (
                "p.m.f".to_string(),
                vec![
                    "p.m.C.__init__".to_string(),
                    "<builtin>.print".to_string(),
                    "os.path.join".to_string(),
                ],
            ),
            ("os.path".to_string(), vec!["p.m.f".to_string()]),
        ]
        .into_iter()
        .collect();
        let report = dotted_report(&graph, &index, "1", "jarvis");
        let calls: Vec<(&str, u32, Option<u64>, &str, Resolution)> = report
            .calls
            .iter()
            .map(|c| {
                (
                    c.file.as_str(),
                    c.line,
                    c.caller,
                    c.name.as_str(),
                    c.resolution,
                )
            })
            .collect();
        let f = index.declaration("p.m.f").unwrap().id;
        assert_eq!(
            calls,
            [
                ("p/m.py", 1, None, "f", Resolution::InTree),
                ("p/m.py", 5, Some(f), "C", Resolution::InTree),
                ("p/m.py", 5, Some(f), "print", Resolution::Outside),
                ("p/m.py", 5, Some(f), "join", Resolution::Unresolved),
            ]
        );
        assert_eq!(report.calls[1].target.as_ref().unwrap().line, 2);
        assert!(report.calls.iter().all(|c| !c.site));
    }

    #[test]
    fn time_files_are_read_from_their_last_number() {
        assert_eq!(last_number("12345\n"), Some(12345));
        assert_eq!(
            last_number("Command exited with non-zero status 1\n2048\n"),
            Some(2048)
        );
        assert_eq!(last_number(""), None);
    }
}
