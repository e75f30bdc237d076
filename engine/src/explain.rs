//! `callgraph explain`: every rule one call site went through, in order, and what
//! each said — so a person fixing a rule sees why an edge is what it is.

use std::fmt::Write;
use std::path::Path;

use crate::error::EngineError;
use crate::index::TreeIndex;
use crate::resolve::{self, Cx, Decision, Placement, Resolution, Target};
use crate::Options;

/// Where to look: a file relative to the root, a line, and optionally a column.
pub struct Site {
    pub file: String,
    pub line: u32,
    pub column: Option<u32>,
}

impl Site {
    /// `FILE:LINE[:COL]`.
    pub fn parse(text: &str) -> Result<Site, EngineError> {
        let bad =
            || EngineError::InvalidArgument(format!("expected FILE:LINE[:COL], got {text:?}"));
        let mut parts = text.rsplitn(3, ':').collect::<Vec<_>>();
        parts.reverse();
        match parts.as_slice() {
            [file, line, col] if col.parse::<u32>().is_ok() && line.parse::<u32>().is_ok() => {
                Ok(Site {
                    file: file.to_string(),
                    line: line.parse().map_err(|_| bad())?,
                    column: Some(col.parse().map_err(|_| bad())?),
                })
            }
            [a, b, line] => Ok(Site {
                file: format!("{a}:{b}"),
                line: line.parse().map_err(|_| bad())?,
                column: None,
            }),
            [file, line] => Ok(Site {
                file: file.to_string(),
                line: line.parse().map_err(|_| bad())?,
                column: None,
            }),
            _ => Err(bad()),
        }
    }
}

/// The explanation text, or an error when the file is not part of the analysis.
pub fn explain(root: &Path, site: &Site, options: &Options) -> Result<String, EngineError> {
    crate::with_pool(options.threads, || {
        let analysis = crate::extract(root, options)?;
        let index = TreeIndex::build(&analysis.facts);
        let hierarchy = resolve::Hierarchy::build(&index);
        let resolved = resolve::resolve_all(&index, &hierarchy);
        let Some(fi) = index.file_by_path(&site.file) else {
            return Err(EngineError::InvalidArgument(format!(
                "{} is not an analysed file of the root",
                site.file
            )));
        };
        let cx = Cx {
            index: &index,
            hierarchy: &hierarchy,
            results: &resolved.results,
        };
        let mut out = String::new();
        let file = index.file(fi);
        let mut any = false;
        for (ci, call) in file.calls.iter().enumerate() {
            if call.line != site.line || site.column.is_some_and(|c| c != call.column) {
                continue;
            }
            any = true;
            let _ = writeln!(
                out,
                "{}:{}:{}  {}  ({} argument(s))",
                file.path,
                call.line,
                call.column,
                call.wrote,
                call.args.len()
            );
            let mut trail = Vec::new();
            let ((), stub_notes) = crate::lang::python::eval::with_stub_notes(|| {
                resolve::run_rules(&cx, fi, call, Some(&mut trail));
                replay_receiver_call(&cx, fi, call, &resolved.calls[fi as usize]);
            });
            for step in &trail {
                let _ = writeln!(out, "  {:<28} {}", step.rule, said(&index, &step.said));
            }
            for note in &stub_notes {
                let _ = writeln!(out, "  {:<28} {}", "note", note);
            }
            if let Some(line) = overload_step(&index, &resolved.calls[fi as usize][ci]) {
                let _ = writeln!(out, "  {:<28} {}", "overload_pass", line);
            }
            let _ = writeln!(
                out,
                "  => {}",
                final_answer(&index, &resolved.calls[fi as usize][ci])
            );
        }
        if !any {
            let _ = writeln!(out, "no call site at {}:{}", site.file, site.line);
        }
        Ok(out)
    })
}

/// Reads again what the call written as this call's receiver (`f().m()`) yields,
/// so that what the read takes from elsewhere (a type stub's return type) is
/// noted where the chain was settled in an earlier round.
fn replay_receiver_call(cx: &Cx, fi: u32, call: &crate::facts::Call, resolved: &[Resolution]) {
    let crate::facts::Callee::Member {
        receiver:
            crate::facts::Receiver::Call(inner) | crate::facts::Receiver::CallThen { call: inner, .. },
        ..
    } = &call.callee
    else {
        return;
    };
    let file = cx.index.file(fi);
    if let (Some(Resolution::Placed(p)), Some(inner_call)) = (
        resolved.get(*inner as usize),
        file.calls.get(*inner as usize),
    ) {
        resolve::resolver_for(file.language).call_result(cx, fi, inner_call, p);
    }
}

fn said(index: &TreeIndex, d: &Decision) -> String {
    match d {
        Decision::Pass => "passed".to_string(),
        Decision::Refuse(r) => format!("refused: {}", r.token()),
        Decision::Unresolved => {
            "unresolved: the tree claims the name and nothing declares it".to_string()
        }
        Decision::Place(p) => format!("placed: {}", placement(index, p)),
        Decision::MayReach(m) => format!("may reach: {}", may_reach(index, m)),
    }
}

/// What the overload pass did, where the target's name carries several declarations.
fn overload_step(index: &TreeIndex, r: &Resolution) -> Option<String> {
    let Resolution::Placed(p) = r else {
        return None;
    };
    let Target::InTree(t) = p.target() else {
        return None;
    };
    let candidates = index.same_qualified_name(t[0]).len();
    if candidates < 2 {
        return None;
    }
    Some(match p.named() {
        Some(n) => format!(
            "named the declaration at line {} of {candidates}",
            index.decl(n).line
        ),
        None => {
            format!("left the declaration unnamed: {candidates} fit or none could be told apart")
        }
    })
}

fn final_answer(index: &TreeIndex, r: &Resolution) -> String {
    match r {
        Resolution::Placed(p) => format!("placed: {}", placement(index, p)),
        Resolution::Unresolved(r) => format!("unresolved: {}", r.token()),
        Resolution::Undetermined(r) => format!("undetermined: {}", r.token()),
        Resolution::MayReach(m) => {
            format!("undetermined: ambiguous, may reach {}", may_reach(index, m))
        }
    }
}

fn may_reach(index: &TreeIndex, m: &crate::resolve::MayReach) -> String {
    let each: Vec<String> = m
        .targets()
        .iter()
        .map(|&t| {
            let decl = index.decl(t);
            format!(
                "{} at {}:{}",
                index.qualified_name(t),
                index.file(t.file).path,
                decl.line
            )
        })
        .collect();
    format!("[{}] one of {}", m.family().token(), each.join(", "))
}

fn placement(index: &TreeIndex, p: &Placement) -> String {
    match p.target() {
        Target::InTree(t) => {
            let shown = p.named().unwrap_or(t[0]);
            let decl = index.decl(shown);
            let overloads = if t.len() > 1 && p.named().is_none() {
                format!(" (one of {} declarations, unnamed)", t.len())
            } else {
                String::new()
            };
            format!(
                "{} [{}] at {}:{}{}",
                index.qualified_name(shown),
                p.family().token(),
                index.file(shown.file).path,
                decl.line,
                overloads
            )
        }
        Target::Outside { kind, symbol } => {
            format!("outside {kind:?} {symbol} [{}]", p.family().token())
        }
    }
}
