//! The `callgraph-report/1` document (DESIGN §4, docs/REPORT.md). Every collection
//! is in a fixed order so the same tree gives byte-identical output.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::config::Configuration;
use crate::facts::{Call, Callee, ValueRef};
use crate::index::{Eid, TreeIndex};
use crate::resolve::family::{Family, OutsideKind, Reason};
use crate::resolve::{Placement, Resolution, Resolved, Target};
use crate::Analysis;

mod receiver;

pub use receiver::ReceiverEntry;

pub const SCHEMA: &str = "callgraph-report/1";

#[derive(Debug, Serialize)]
pub struct Report {
    pub schema: &'static str,
    pub engine: EngineInfo,
    /// The build configuration the run evaluated (docs/REPORT.md).
    pub configuration: Configuration,
    pub files: Vec<FileEntry>,
    pub skipped: Vec<SkippedEntry>,
    pub entities: Vec<Entity>,
    pub calls: Vec<CallEntry>,
    pub references: Vec<CallEntry>,
    pub summary: Summary,
}

#[derive(Debug, Serialize)]
pub struct EngineInfo {
    pub version: &'static str,
}

#[derive(Debug, Serialize)]
pub struct FileEntry {
    pub path: String,
    pub language: &'static str,
    /// `stub` (a Python type stub) or `build` (a build file the frontends read);
    /// left out for a source.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub role: Option<&'static str>,
    pub sha256: String,
    pub bytes: u64,
    pub parse_errors: u32,
}

#[derive(Debug, Serialize)]
pub struct SkippedEntry {
    pub path: String,
    pub reason: &'static str,
}

#[derive(Debug, Serialize)]
pub struct Entity {
    pub id: u32,
    pub qualified_name: String,
    pub kind: &'static str,
    pub file: String,
    pub line: u32,
    pub column: u32,
    pub end_line: u32,
    pub params: Params,
    /// Written in code the build configuration leaves out: never a target.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub inactive: bool,
}

#[derive(Debug, Serialize)]
pub struct Params {
    pub names: Vec<String>,
    pub min: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max: Option<u32>,
}

#[derive(Debug, Serialize)]
pub struct CallEntry {
    pub file: String,
    pub line: u32,
    pub column: u32,
    pub caller: Option<u32>,
    pub wrote: String,
    pub name: String,
    pub args: u32,
    pub resolution: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub placed_by: Option<Family>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<TargetEntry>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub declaration_line: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outside: Option<OutsideEntry>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<Reason>,
    /// Only for an `ambiguous` call whose every in-tree target is known (D25).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub may_reach: Option<MayReachEntry>,
    /// Calls only: the callee's structure and what its first written name is, for
    /// reading misses by shape; no rule reads it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub receiver: Option<ReceiverEntry>,
}

/// The complete set of declarations an undetermined call may reach, and the
/// family of the evidence that closed the set.
#[derive(Debug, Serialize)]
pub struct MayReachEntry {
    pub placed_by: Family,
    pub targets: Vec<TargetEntry>,
}

#[derive(Debug, Serialize)]
pub struct TargetEntry {
    pub entity: u32,
    pub qualified_name: String,
    pub file: String,
    pub line: u32,
}

#[derive(Debug, Serialize)]
pub struct OutsideEntry {
    pub kind: OutsideKind,
    pub symbol: String,
}

#[derive(Debug, Default, Serialize)]
pub struct Summary {
    pub files: usize,
    pub skipped: usize,
    pub entities: usize,
    pub calls: usize,
    pub references: usize,
    pub by_resolution: BTreeMap<&'static str, usize>,
    pub by_family: BTreeMap<&'static str, usize>,
    pub by_reason: BTreeMap<&'static str, usize>,
    /// Calls whose `may_reach` set was left out because the file's sets were past
    /// their bound (D13): each is still `undetermined` / `ambiguous`. Absent when 0.
    #[serde(skip_serializing_if = "is_zero")]
    pub may_reach_dropped: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// How many `may_reach` targets one file's calls may list in all: one per 16 bytes
/// of the file, and 64 whatever its size. A set is about 150 bytes of report per
/// target, so a small file whose every line calls a parameter fed by sixty callers
/// cannot turn into a report a thousand times its size (D13); real trees list a few
/// per file (click: 92 in all).
fn may_reach_budget(file_bytes: u64) -> usize {
    (file_bytes / 16) as usize + 64
}

pub fn build(
    index: &TreeIndex,
    analysis: &Analysis,
    configuration: &Configuration,
    resolved: &Resolved,
) -> Report {
    let files = &analysis.file_meta;
    let facts = index.files;
    let mut entities = Vec::with_capacity(index.entity_count());
    for (fi, file) in facts.iter().enumerate() {
        for di in 0..file.decls.len() {
            entities.push(entity(
                index,
                Eid {
                    file: fi as u32,
                    decl: di as u32,
                },
            ));
        }
    }
    let mut calls = Vec::new();
    let mut references = Vec::new();
    let mut may_reach_dropped = 0;
    for (fi, file) in facts.iter().enumerate() {
        let mut budget = may_reach_budget(files[fi].1);
        let fields = receiver::FileFields::of(file);
        for (call, resolution) in file.calls.iter().zip(&resolved.calls[fi]) {
            if is_unseen_implicit_call(call, resolution) {
                continue;
            }
            let mut entry = call_entry(index, fi as u32, call, resolution);
            if let Some(set) = &entry.may_reach {
                match budget.checked_sub(set.targets.len()) {
                    Some(left) => budget = left,
                    None => {
                        entry.may_reach = None;
                        may_reach_dropped += 1;
                    }
                }
            }
            entry.receiver = Some(receiver::receiver_of(file, &fields, call));
            calls.push(entry);
        }
        for (r, placement) in file.refs.iter().zip(&resolved.refs[fi]) {
            if let Some(p) = placement {
                references.push(reference_entry(index, fi as u32, r, p));
            }
        }
    }
    // Compare borrowed keys: `sort_by_key` would clone two strings per comparison.
    let order = |a: &CallEntry, b: &CallEntry| {
        (&a.file, a.line, a.column, &a.name).cmp(&(&b.file, b.line, b.column, &b.name))
    };
    calls.sort_by(order);
    references.sort_by(order);
    let mut files_out: Vec<FileEntry> = facts
        .iter()
        .zip(files)
        .map(|(f, (sha, bytes))| FileEntry {
            path: f.path.clone(),
            language: f.language.token(),
            role: f.role.token(),
            sha256: sha.clone(),
            bytes: *bytes,
            parse_errors: f.parse_errors,
        })
        .collect();
    files_out.extend(analysis.build_files.iter().map(|b| FileEntry {
        path: b.path.clone(),
        language: b.language.token(),
        role: Some("build"),
        sha256: b.sha256.clone(),
        bytes: b.bytes,
        parse_errors: 0,
    }));
    files_out.sort_by(|a, b| a.path.cmp(&b.path));
    let skipped_out: Vec<SkippedEntry> = analysis
        .skipped
        .iter()
        .map(|s| SkippedEntry {
            path: s.path.clone(),
            reason: s.reason.token(),
        })
        .collect();
    let mut summary = summarize(&files_out, &skipped_out, &entities, &calls, &references);
    summary.may_reach_dropped = may_reach_dropped;
    Report {
        schema: SCHEMA,
        engine: EngineInfo {
            version: env!("CARGO_PKG_VERSION"),
        },
        configuration: configuration.clone(),
        files: files_out,
        skipped: skipped_out,
        entities,
        calls,
        references,
        summary,
    }
}

impl Report {
    /// The bytes of every file the run read (sources and build files).
    pub fn input_bytes(&self) -> u64 {
        self.files.iter().map(|f| f.bytes).sum()
    }
}

/// A writer that refuses to hold more than `limit` bytes.
struct Bounded {
    bytes: Vec<u8>,
    limit: u64,
}

impl std::io::Write for Bounded {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if (self.bytes.len() + buf.len()) as u64 > self.limit {
            return Err(std::io::Error::other("the report is past its bound"));
        }
        self.bytes.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The report as pretty JSON with a final newline; a report past `bound` bytes is
/// refused (`workload_too_large`) before more than `bound` bytes are held.
pub fn to_json_within(report: &Report, bound: u64) -> Result<Vec<u8>, crate::error::EngineError> {
    let mut out = Bounded {
        bytes: Vec::new(),
        limit: bound,
    };
    let written = serde_json::to_writer_pretty(&mut out, report)
        .and_then(|()| std::io::Write::write_all(&mut out, b"\n").map_err(serde_json::Error::io));
    match written {
        Ok(()) => Ok(out.bytes),
        Err(_) => Err(crate::error::EngineError::ReportTooLarge { limit: bound }),
    }
}

/// Calls no source text writes (a `for` loop's `__iter__`/`__next__`, `with`'s
/// `__enter__`, `raise E`, applying `@factory(...)`'s result) are reported only
/// where they reach a declaration of the tree: on a list or an unknown
/// receiver they would be sites no oracle lists and no reader asked for.
fn is_unseen_implicit_call(call: &Call, resolution: &Resolution) -> bool {
    use crate::facts::{CallKind, Callee};
    // `@factory(args)` applies the factory's result without writing a call.
    let applied_decorator =
        call.kind == CallKind::Decorator && matches!(call.callee, Callee::Result(_));
    let implicit = applied_decorator
        || matches!(
            call.kind,
            CallKind::Iter | CallKind::Next | CallKind::Raise | CallKind::Enter
        );
    let in_tree =
        matches!(resolution, Resolution::Placed(p) if matches!(p.target(), Target::InTree(_)));
    implicit && !in_tree
}

fn entity(index: &TreeIndex, eid: Eid) -> Entity {
    let decl = index.decl(eid);
    let (min, max) = decl.arity();
    Entity {
        id: index.entity_id(eid),
        qualified_name: index.qualified_name(eid).to_string(),
        kind: decl.kind.token(),
        file: index.file(eid.file).path.clone(),
        line: decl.line,
        column: decl.column,
        end_line: decl.end_line,
        params: Params {
            names: decl.params.iter().map(|p| p.name.clone()).collect(),
            min,
            max,
        },
        inactive: decl.inactive,
    }
}

fn call_entry(index: &TreeIndex, fi: u32, call: &Call, resolution: &Resolution) -> CallEntry {
    let mut entry = site_entry(
        index,
        fi,
        (call.line, call.column),
        call.caller,
        &call.wrote,
        call.name(),
    );
    entry.args = call.args.len() as u32;
    match resolution {
        Resolution::Placed(p) => fill_placement(index, &mut entry, p),
        Resolution::Unresolved(r) => {
            entry.resolution = "unresolved";
            entry.reason = Some(*r);
        }
        Resolution::Undetermined(r) => entry.reason = Some(*r),
        Resolution::MayReach(m) => {
            entry.reason = Some(Reason::Ambiguous);
            entry.may_reach = Some(MayReachEntry {
                placed_by: m.family(),
                targets: m
                    .targets()
                    .iter()
                    .map(|&t| target_entry(index, t))
                    .collect(),
            });
        }
    }
    entry
}

fn target_entry(index: &TreeIndex, eid: Eid) -> TargetEntry {
    TargetEntry {
        entity: index.entity_id(eid),
        qualified_name: index.qualified_name(eid).to_string(),
        file: index.file(eid.file).path.clone(),
        line: index.decl(eid).line,
    }
}

fn reference_entry(index: &TreeIndex, fi: u32, r: &ValueRef, p: &Placement) -> CallEntry {
    let name = match &r.target {
        Callee::Name(n) => n.as_str(),
        Callee::Member { name, .. } => name.as_str(),
        _ => "",
    };
    let mut entry = site_entry(index, fi, (r.line, r.column), r.caller, &r.wrote, name);
    fill_placement(index, &mut entry, p);
    entry
}

/// A site with its position and caller, not yet answered.
fn site_entry(
    index: &TreeIndex,
    fi: u32,
    (line, column): (u32, u32),
    caller: Option<crate::facts::DeclIdx>,
    wrote: &str,
    name: &str,
) -> CallEntry {
    CallEntry {
        file: index.file(fi).path.clone(),
        line,
        column,
        caller: caller.map(|d| index.entity_id(Eid { file: fi, decl: d })),
        wrote: wrote.to_string(),
        name: name.to_string(),
        args: 0,
        resolution: "undetermined",
        placed_by: None,
        target: None,
        declaration_line: None,
        outside: None,
        reason: None,
        may_reach: None,
        receiver: None,
    }
}

fn fill_placement(index: &TreeIndex, entry: &mut CallEntry, p: &Placement) {
    entry.placed_by = Some(p.family());
    match p.target() {
        Target::InTree(targets) => {
            entry.resolution = "in_tree";
            // The named declaration when the overload pass chose one; otherwise the
            // first declaration of the name stands for the whole set.
            let shown = p.named().unwrap_or(targets[0]);
            entry.target = Some(target_entry(index, shown));
            let shared = index.same_qualified_name(shown).len() > 1;
            if shared {
                entry.declaration_line = p.named().map(|n| index.decl(n).line);
            }
        }
        Target::Outside { kind, symbol } => {
            entry.resolution = "outside";
            entry.outside = Some(OutsideEntry {
                kind: *kind,
                symbol: symbol.clone(),
            });
        }
    }
}

fn summarize(
    files: &[FileEntry],
    skipped: &[SkippedEntry],
    entities: &[Entity],
    calls: &[CallEntry],
    references: &[CallEntry],
) -> Summary {
    let mut s = Summary {
        files: files.len(),
        skipped: skipped.len(),
        entities: entities.len(),
        calls: calls.len(),
        references: references.len(),
        ..Summary::default()
    };
    for c in calls {
        *s.by_resolution.entry(c.resolution).or_default() += 1;
        if let Some(f) = c.placed_by {
            *s.by_family.entry(f.token()).or_default() += 1;
        }
        if let Some(r) = c.reason {
            *s.by_reason.entry(r.token()).or_default() += 1;
        }
    }
    s
}
