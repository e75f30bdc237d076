//! The harness's own view of an engine report (`callgraph-report/1`, DESIGN §4).
//!
//! Only the fields the scorer reads are declared; unknown fields are ignored, so the
//! engine may add to its report without breaking the harness. The harness never
//! links the engine crate: it reads the file the engine wrote.

use std::collections::HashSet;
use std::path::Path;

use oracles::{describe_json_error, read_capped};
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// The schema string of every engine report.
pub const REPORT_SCHEMA: &str = "callgraph-report/1";

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    pub schema: String,
    #[serde(default)]
    pub engine: EngineStamp,
    #[serde(default)]
    pub entities: Vec<Entity>,
    #[serde(default)]
    pub calls: Vec<Call>,
    #[serde(default)]
    pub references: Vec<Call>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct EngineStamp {
    #[serde(default)]
    pub version: String,
}

/// A declaration, by the position of its name token.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entity {
    pub id: u64,
    pub qualified_name: String,
    #[serde(default)]
    pub kind: String,
    pub file: String,
    pub line: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub column: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_line: Option<u32>,
    /// Written in code the build leaves out (or in a type stub): listed, never a
    /// declaration a call can reach.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub inactive: bool,
}

/// A call site (or, in `references`, a function used as a value) and its answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Call {
    pub file: String,
    pub line: u32,
    /// The column of the call's own name token. Optional here so a report without
    /// columns can still be scored (pairing then falls back to order).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub column: Option<u32>,
    #[serde(default)]
    pub caller: Option<u64>,
    #[serde(default)]
    pub wrote: String,
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub args: Option<u32>,
    pub resolution: Resolution,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub placed_by: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<Target>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub declaration_line: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outside: Option<OutsideRef>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// An undetermined call's complete set of in-tree targets (D25): pairs only,
    /// never a site answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub may_reach: Option<MayReach>,
    /// The callee's structure and what its first written name is (docs/REPORT.md);
    /// only `harness misses` reads it, to group sites by shape.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub receiver: Option<ReceiverShape>,
    /// `false` for a tool that knows caller → callee pairs but not where the call is
    /// written (docs/REPORT.md): such a call is no site. It is scored by pair
    /// precision and recall only, never paired with a truth site.
    #[serde(default = "written_at_site", skip_serializing_if = "is_site")]
    pub site: bool,
}

fn written_at_site() -> bool {
    true
}

fn is_site(site: &bool) -> bool {
    *site
}

/// A call's `receiver` object: `callee` (the callee's structure), `kind` (what the
/// name it starts from is) and `depth` (member reads after that name).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReceiverShape {
    pub callee: String,
    pub kind: String,
    #[serde(default)]
    pub depth: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MayReach {
    pub placed_by: String,
    pub targets: Vec<Target>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Resolution {
    InTree,
    Outside,
    Unresolved,
    Undetermined,
}

impl Resolution {
    /// Whether the engine gave an answer (an edge in the tree or a proven exit).
    pub fn is_answer(self) -> bool {
        matches!(self, Resolution::InTree | Resolution::Outside)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Target {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entity: Option<u64>,
    pub qualified_name: String,
    pub file: String,
    pub line: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OutsideRef {
    #[serde(default)]
    pub kind: String,
    #[serde(default)]
    pub symbol: String,
}

impl Call {
    /// The declaration the call names: the target's file at `declaration_line` when
    /// the engine chose among several declarations, else at the target's line.
    pub fn named_declaration(&self) -> Option<(&str, u32)> {
        self.target
            .as_ref()
            .map(|t| (t.file.as_str(), self.declaration_line.unwrap_or(t.line)))
    }

    /// The declarations this call stands for as call-graph edges: its in-tree
    /// target, or every member of its may-reach set.
    pub fn edge_targets(&self) -> Vec<&Target> {
        match (&self.resolution, &self.target, &self.may_reach) {
            (Resolution::InTree, Some(t), _) => vec![t],
            (Resolution::Undetermined, _, Some(m)) => m.targets.iter().collect(),
            _ => Vec::new(),
        }
    }
}

impl Report {
    /// Reads, parses and validates a report file, refusing files above `cap` bytes.
    pub fn load(path: &Path, cap: u64) -> Result<Report> {
        let bytes = read_capped(path, cap)?;
        Report::from_slice(&bytes, &path.display().to_string())
    }

    /// Parses and validates report JSON; `origin` names the file in errors.
    pub fn from_slice(bytes: &[u8], origin: &str) -> Result<Report> {
        let invalid = |detail: String| Error::InvalidReport {
            path: origin.to_string(),
            detail,
        };
        let report: Report = match serde_json::from_slice(bytes) {
            Ok(r) => r,
            Err(e) => {
                if let Some(other) = oracles::truth::schema_of(bytes).filter(|s| s != REPORT_SCHEMA)
                {
                    return Err(invalid(wrong_schema(&other)));
                }
                return Err(invalid(describe_json_error(&e)));
            }
        };
        if report.schema != REPORT_SCHEMA {
            return Err(invalid(wrong_schema(&report.schema)));
        }
        if let Some(problem) = report.inconsistency() {
            return Err(invalid(problem));
        }
        Ok(report)
    }

    /// The first thing in the report that contradicts its own schema: ids that repeat,
    /// callers that are not entities, answers without the fields they need.
    fn inconsistency(&self) -> Option<String> {
        let mut ids = HashSet::new();
        for entity in &self.entities {
            if !ids.insert(entity.id) {
                return Some(format!("entity id {} appears twice", entity.id));
            }
        }
        let all = self.calls.iter().map(|c| ("call", c));
        let all = all.chain(self.references.iter().map(|c| ("reference", c)));
        for (what, call) in all {
            let at = format!("{what} at {}:{} `{}`", call.file, call.line, call.name);
            if call.line == 0 || call.column == Some(0) {
                return Some(format!("{at}: lines and columns are 1-based"));
            }
            if let Some(caller) = call.caller {
                if !ids.contains(&caller) {
                    return Some(format!("{at}: caller {caller} is not an entity"));
                }
            }
            if call.resolution == Resolution::InTree && call.target.is_none() {
                return Some(format!("{at}: resolves in_tree but names no target"));
            }
            if call.resolution.is_answer() && call.placed_by.is_none() {
                return Some(format!("{at}: an answer without placed_by"));
            }
            // The families are closed (DESIGN §4): an unknown one would be scored
            // and printed as a family of its own (D21).
            let families = call
                .placed_by
                .iter()
                .chain(call.may_reach.as_ref().map(|m| &m.placed_by));
            for family in families {
                if !crate::families::is_family(family) {
                    return Some(format!(
                        "{at}: placed_by `{family}` is not a family; the families are {}",
                        crate::families::FAMILIES.join(", ")
                    ));
                }
            }
        }
        None
    }
}

fn wrong_schema(found: &str) -> String {
    format!("schema is `{found}`, expected `{REPORT_SCHEMA}`")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unknown_family_is_refused() {
        let bad = GOOD.replacen(
            "\"placed_by\": \"lexical\"",
            "\"placed_by\": \"telepathy\"",
            1,
        );
        assert_ne!(bad, GOOD);
        let err = Report::from_slice(bad.as_bytes(), "r.json").unwrap_err();
        assert_eq!(err.code(), "invalid_report");
        assert!(err.to_string().contains("telepathy"), "{err}");
        Report::from_slice(GOOD.as_bytes(), "r.json").unwrap();
    }

    const GOOD: &str = r#"{
      "schema": "callgraph-report/1", "engine": {"version": "0.1.0"},
      "files": [{"path": "a.py", "language": "python"}],
      "entities": [{"id": 7, "qualified_name": "a.py::f", "kind": "function",
                    "file": "a.py", "line": 1, "column": 5, "end_line": 2,
                    "params": {"names": [], "min": 0, "max": 0}}],
      "calls": [{"file": "a.py", "line": 4, "column": 1, "caller": null, "wrote": "f",
                 "name": "f", "args": 0, "resolution": "in_tree", "placed_by": "lexical",
                 "target": {"entity": 7, "qualified_name": "a.py::f", "file": "a.py", "line": 1}},
                {"file": "a.py", "line": 5, "column": 1, "caller": 7, "wrote": "g", "name": "g",
                 "args": 0, "resolution": "undetermined", "reason": "receiver_type_unknown"}],
      "references": [],
      "summary": {"calls": 2}}"#;

    #[test]
    fn a_report_with_extra_fields_parses() {
        let report = Report::from_slice(GOOD.as_bytes(), "r.json").unwrap();
        assert_eq!(report.entities.len(), 1);
        assert_eq!(report.calls[0].named_declaration(), Some(("a.py", 1)));
        assert_eq!(report.calls[1].resolution, Resolution::Undetermined);
    }

    #[test]
    fn bad_reports_are_refused_naming_the_file_and_the_problem() {
        let cases = [
            (
                GOOD.replace("callgraph-report/1", "callgraph-truth/1"),
                "callgraph-truth/1",
            ),
            (GOOD[..GOOD.len() / 2].to_string(), "truncated"),
            (
                GOOD.replace("\"caller\": 7", "\"caller\": 9"),
                "caller 9 is not an entity",
            ),
            (
                GOOD.replace("\"in_tree\"", "\"sideways\""),
                "not the expected shape",
            ),
        ];
        for (text, expected) in cases {
            let err = Report::from_slice(text.as_bytes(), "r.json").unwrap_err();
            let msg = err.to_string();
            assert_eq!(err.code(), "invalid_report");
            assert!(msg.contains("r.json") && msg.contains(expected), "{msg}");
        }
    }

    #[test]
    fn a_report_over_the_cap_is_refused_naming_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("report.json");
        std::fs::write(&path, GOOD).unwrap();
        let err = Report::load(&path, 64).unwrap_err();
        assert_eq!(err.code(), "too_large");
        assert!(err.to_string().contains("report.json"));
    }
}
