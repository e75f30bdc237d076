//! The truth format `callgraph-truth/1` (DESIGN §6), with the fields only proofs use
//! (`shape`, per-site `expect` and `primary`, and `references`; docs/PROOF-FORMAT.md).
//!
//! An oracle adapter writes one of these per corpus; a proof's `expected.json` is one
//! written by hand. The scorer reads nothing else about what a call really reaches.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::input::{describe_json_error, read_capped, InputError};

/// The schema string every truth file carries.
pub const TRUTH_SCHEMA: &str = "callgraph-truth/1";

/// The most sites (calls + references + pairs) one truth file may hold. Far above any
/// real corpus; a file beyond it is refused rather than scored partially.
pub const MAX_TRUTH_SITES: usize = 20_000_000;

/// What one oracle knows about one corpus.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Truth {
    pub schema: String,
    pub corpus: String,
    pub oracle: OracleStamp,
    /// Proofs only: the shape id of SHAPES.md this program shows (`S10`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shape: Option<String>,
    #[serde(default)]
    pub sites: Vec<TruthSite>,
    /// Functions used as values. `None` when the oracle does not judge references at
    /// all, which the scorer must tell apart from "judges them and there are none".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub references: Option<Vec<TruthSite>>,
    /// Caller → callee pairs, for oracles that know only pairs (PyCG).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pairs: Vec<TruthPair>,
}

/// Which oracle wrote the truth, and what its site columns mean.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OracleStamp {
    pub name: String,
    pub version: String,
    #[serde(default)]
    pub adapter: String,
    #[serde(default)]
    pub column: ColumnUnit,
}

impl OracleStamp {
    /// The stamp of an oracle whose site columns point at the call's name token.
    pub fn at_name(name: &str, version: String, adapter: &str) -> Self {
        OracleStamp {
            name: name.into(),
            version,
            adapter: adapter.into(),
            column: ColumnUnit::Name,
        }
    }
}

/// What a truth site's column points at. Only `name` is comparable with the engine's
/// columns, which always point at the call's own name token.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum ColumnUnit {
    Name,
    OpenParen,
    ExpressionStart,
    #[default]
    None,
}

/// One call (or function-as-value use) the source writes, and what it reaches.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TruthSite {
    pub file: String,
    pub line: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub column: Option<u32>,
    /// The declaration containing the site, by its name line; absent when the oracle
    /// does not know it (the scorer then borrows the engine's caller).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub caller: Option<Position>,
    pub name: String,
    #[serde(default)]
    pub targets: Vec<TruthTarget>,
    /// Why the oracle cannot judge this site; such sites are counted, never scored.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unjudged: Option<String>,
    /// A call no source text writes (`drop`, implicit `super()`); counted, never scored.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub implicit: Option<String>,
    /// Proofs only: `abstain` or `either`; absent means "must name one of `targets`".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expect: Option<Expect>,
    /// Proofs only: a site the shape is about (the shape matrix reads these).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub primary: bool,
}

/// A place in the tree: file relative to the root, and a 1-based line.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Position {
    pub file: String,
    pub line: u32,
}

/// One acceptable target of a site.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TruthTarget {
    /// A declaration in the tree, by the line of its name.
    InTree { file: String, line: u32 },
    /// Something outside the tree. The symbol is informative: protocol/1 does not
    /// compare it with the engine's, whose naming no adapter normalizes yet.
    Outside {
        #[serde(default)]
        symbol: String,
    },
}

/// What a proof accepts besides naming one of the targets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Expect {
    /// Any answer is wrong; an abstention is right.
    Abstain,
    /// Naming one of the targets or abstaining are both acceptable.
    Either,
}

/// A caller → callee pair known without a site.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct TruthPair {
    pub caller: Position,
    pub callee: Position,
}

/// A truth file that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum TruthError {
    #[error(transparent)]
    Input(#[from] InputError),
    #[error("invalid_truth: {path}: {detail}")]
    Invalid { path: String, detail: String },
    #[error("too_large: {path}: {detail}")]
    TooManySites { path: String, detail: String },
}

impl TruthError {
    /// The stable code of this refusal.
    pub fn code(&self) -> &'static str {
        match self {
            TruthError::Input(e) => e.code(),
            TruthError::Invalid { .. } => "invalid_truth",
            TruthError::TooManySites { .. } => "too_large",
        }
    }
}

impl TruthSite {
    /// The in-tree targets, as (file, line).
    pub fn in_tree_targets(&self) -> impl Iterator<Item = (&str, u32)> {
        self.targets.iter().filter_map(|t| match t {
            TruthTarget::InTree { file, line } => Some((file.as_str(), *line)),
            TruthTarget::Outside { .. } => None,
        })
    }

    /// Whether any target lies outside the tree.
    pub fn has_outside_target(&self) -> bool {
        self.targets
            .iter()
            .any(|t| matches!(t, TruthTarget::Outside { .. }))
    }

    /// Whether the scorer judges this site (neither unjudged nor implicit).
    pub fn is_judged(&self) -> bool {
        self.unjudged.is_none() && self.implicit.is_none()
    }
}

impl Truth {
    /// Reads, parses and validates a truth file, refusing files above `cap` bytes.
    pub fn load(path: &Path, cap: u64) -> Result<Truth, TruthError> {
        let bytes = read_capped(path, cap)?;
        Truth::from_slice(&bytes, &path.display().to_string())
    }

    /// Parses and validates truth JSON; `origin` names the file in errors.
    pub fn from_slice(bytes: &[u8], origin: &str) -> Result<Truth, TruthError> {
        let invalid = |detail: String| TruthError::Invalid {
            path: origin.to_string(),
            detail,
        };
        let truth: Truth = match serde_json::from_slice(bytes) {
            Ok(t) => t,
            Err(e) => {
                // A file of another schema usually also fails to parse; say which
                // schema it is, which is the more useful sentence.
                if let Some(other) = schema_of(bytes).filter(|s| s != TRUTH_SCHEMA) {
                    return Err(invalid(wrong_schema(&other)));
                }
                return Err(invalid(describe_json_error(&e)));
            }
        };
        if truth.schema != TRUTH_SCHEMA {
            return Err(invalid(wrong_schema(&truth.schema)));
        }
        truth.validate(origin)?;
        Ok(truth)
    }

    /// Checks what serde cannot: counts, positions, and that every site says what the
    /// scorer should do with it.
    pub fn validate(&self, origin: &str) -> Result<(), TruthError> {
        let count =
            self.sites.len() + self.references.as_ref().map_or(0, Vec::len) + self.pairs.len();
        if count > MAX_TRUTH_SITES {
            return Err(TruthError::TooManySites {
                path: origin.to_string(),
                detail: format!("{count} sites is over the cap of {MAX_TRUTH_SITES}"),
            });
        }
        let invalid = |detail: String| TruthError::Invalid {
            path: origin.to_string(),
            detail,
        };
        let all_sites = self.sites.iter().chain(self.references.iter().flatten());
        for site in all_sites {
            if let Some(problem) = site_problem(site) {
                return Err(invalid(format!(
                    "site {}:{} `{}`: {problem}",
                    site.file, site.line, site.name
                )));
            }
        }
        if let Some(twice) = self.repeated_site() {
            return Err(invalid(twice));
        }
        for pair in &self.pairs {
            if pair.caller.line == 0 || pair.callee.line == 0 {
                return Err(invalid(format!(
                    "pair {}:{} -> {}:{}: lines are 1-based",
                    pair.caller.file, pair.caller.line, pair.callee.file, pair.callee.line
                )));
            }
        }
        Ok(())
    }
}

impl Truth {
    /// Two judged sites at one position under one name, where the column is the
    /// name's: one call listed twice, which would be scored twice (D21). Where the
    /// column is the expression's start, `a.replace(x).replace(y)` writes two calls
    /// of one name at one column, so only a truth of name columns is checked.
    fn repeated_site(&self) -> Option<String> {
        if self.oracle.column != ColumnUnit::Name {
            return None;
        }
        let mut seen = std::collections::HashSet::new();
        let judged = self
            .sites
            .iter()
            .chain(self.references.iter().flatten())
            .filter(|s| s.is_judged());
        for site in judged {
            let Some(column) = site.column else {
                continue;
            };
            if !seen.insert((&site.file, site.line, column, &site.name)) {
                return Some(format!(
                    "site {}:{}:{column} `{}` appears twice",
                    site.file, site.line, site.name
                ));
            }
        }
        None
    }
}

/// What is wrong with one site, if anything.
fn site_problem(site: &TruthSite) -> Option<String> {
    if site.file.is_empty() {
        return Some("file is empty".into());
    }
    if site.line == 0 || site.column == Some(0) {
        return Some("lines and columns are 1-based".into());
    }
    if site.name.is_empty() {
        return Some("name is empty".into());
    }
    for target in &site.targets {
        if let TruthTarget::InTree { file, line } = target {
            if file.is_empty() || *line == 0 {
                return Some("an in_tree target needs a file and a 1-based line".into());
            }
        }
    }
    let says_what_to_do = !site.targets.is_empty()
        || site.unjudged.is_some()
        || site.implicit.is_some()
        || site.expect == Some(Expect::Abstain);
    if !says_what_to_do {
        return Some("no targets, and not marked unjudged, implicit or expect abstain".into());
    }
    if site.expect == Some(Expect::Either) && site.targets.is_empty() {
        return Some("expect either needs the targets it accepts".into());
    }
    None
}

fn wrong_schema(found: &str) -> String {
    format!("schema is `{found}`, expected `{TRUTH_SCHEMA}`")
}

/// The `schema` string of a JSON object, when the bytes are one.
pub fn schema_of(bytes: &[u8]) -> Option<String> {
    #[derive(Deserialize)]
    struct Probe {
        schema: Option<String>,
    }
    serde_json::from_slice::<Probe>(bytes).ok()?.schema
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = r#"{"schema": "callgraph-truth/1", "corpus": "c",
      "oracle": {"name": "proof", "version": "1", "adapter": "1", "column": "name"},
      "shape": "S10",
      "sites": [
        {"file": "main.py", "line": 3, "column": 1, "name": "f", "primary": true,
         "targets": [{"kind": "in_tree", "file": "lib.py", "line": 1}]},
        {"file": "main.py", "line": 4, "column": 1, "name": "print",
         "targets": [{"kind": "outside", "symbol": "print"}]},
        {"file": "main.py", "line": 9, "column": 5, "name": "h", "targets": [], "expect": "abstain"},
        {"file": "main.py", "line": 12, "column": 5, "name": "g", "expect": "either",
         "targets": [{"kind": "in_tree", "file": "main.py", "line": 2}]}],
      "references": [{"file": "main.py", "line": 14, "column": 10, "name": "f",
         "targets": [{"kind": "in_tree", "file": "lib.py", "line": 1}]}],
      "future_field": 1}"#;

    #[test]
    fn a_site_listed_twice_is_refused_where_columns_are_names() {
        let site = r#"{"file": "main.py", "line": 3, "column": 1, "name": "f", "primary": true,
         "targets": [{"kind": "in_tree", "file": "lib.py", "line": 1}]},"#;
        let twice = GOOD.replacen(site, &format!("{site}{site}"), 1);
        assert_ne!(twice, GOOD);
        let err = Truth::from_slice(twice.as_bytes(), "t.json").unwrap_err();
        assert!(err.to_string().contains("appears twice"), "{err}");
        // Two calls of one name at one expression start are two sites.
        let starts = twice.replacen(
            "\"column\": \"name\"",
            "\"column\": \"expression_start\"",
            1,
        );
        Truth::from_slice(starts.as_bytes(), "t.json").unwrap();
    }

    #[test]
    fn the_proof_format_example_parses() {
        let truth = Truth::from_slice(GOOD.as_bytes(), "expected.json").unwrap();
        assert_eq!(truth.oracle.column, ColumnUnit::Name);
        assert_eq!(truth.shape.as_deref(), Some("S10"));
        assert_eq!(truth.sites.len(), 4);
        assert!(truth.sites[0].primary);
        assert_eq!(truth.sites[2].expect, Some(Expect::Abstain));
        assert_eq!(truth.sites[3].expect, Some(Expect::Either));
        assert_eq!(truth.references.as_ref().unwrap().len(), 1);
        assert!(truth.sites[1].has_outside_target());
    }

    #[test]
    fn another_schema_is_refused_by_name() {
        let text = GOOD.replace("callgraph-truth/1", "callgraph-report/1");
        let err = Truth::from_slice(text.as_bytes(), "t.json").unwrap_err();
        assert_eq!(err.code(), "invalid_truth");
        let msg = err.to_string();
        assert!(
            msg.contains("t.json") && msg.contains("callgraph-report/1"),
            "{msg}"
        );
    }

    #[test]
    fn a_truncated_truth_is_named_truncated() {
        let err = Truth::from_slice(&GOOD.as_bytes()[..200], "t.json").unwrap_err();
        let msg = err.to_string();
        assert!(msg.contains("t.json") && msg.contains("truncated"), "{msg}");
    }

    #[test]
    fn a_site_that_says_nothing_is_refused() {
        let text = GOOD.replace(r#""targets": [], "expect": "abstain""#, r#""targets": []"#);
        let err = Truth::from_slice(text.as_bytes(), "t.json").unwrap_err();
        assert!(err.to_string().contains("main.py:9 `h`"), "{err}");
    }

    #[test]
    fn a_truth_file_over_the_cap_is_refused_naming_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("expected.json");
        std::fs::write(&path, GOOD).unwrap();
        let err = Truth::load(&path, 10).unwrap_err();
        assert_eq!(err.code(), "too_large");
        assert!(err.to_string().contains("expected.json"));
    }
}
