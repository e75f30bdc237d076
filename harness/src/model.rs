//! `measurements/1`: what `harness measure` writes to reports/measurements.json and
//! what `merge`, `gate` and `reproduce` read back.
//!
//! Deterministic by construction: rows sorted by id, maps ordered, no timestamps, no
//! machine paths — two runs on the same inputs are byte-identical, and a merge of
//! shards equals a single run.

use std::collections::BTreeMap;
use std::path::Path;

use oracles::{describe_json_error, read_capped, Outcome};
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::figures::{FamilyFigures, Figures};
use crate::score::{SiteRecord, Verdict};

pub const MEASUREMENTS_SCHEMA: &str = "measurements/1";
pub const PROTOCOL: &str = "protocol/2";

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Measurements {
    pub schema: String,
    pub protocol: String,
    pub rows: Vec<Row>,
    /// Second readings (`harness crosscheck --out`): each oracle against an
    /// independent reading of the same corpus. Absent when none was run.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub crosschecks: Vec<CrosscheckRecord>,
}

/// One corpus's truth against its second reading: the sites both judge, how many
/// name the same declarations, the disagreements by kind (each is listed by
/// `harness crosscheck`, and explained in docs/DECISIONS.md), and the sites only one
/// reading judges.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CrosscheckRecord {
    pub corpus: String,
    /// The corpus's oracle: name and `version (adapter N)`.
    pub first: NameVersion,
    pub second: NameVersion,
    pub both: u64,
    pub agree: u64,
    pub disagreements: BTreeMap<String, u64>,
    pub first_only: u64,
    pub second_only: u64,
}

impl CrosscheckRecord {
    /// Which pair of readings of which corpus (one record per key in a file).
    pub fn key(&self) -> (&str, &str, &str) {
        (&self.corpus, &self.first.name, &self.second.name)
    }
}

/// A name and a version string (oracle, toolchain).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct NameVersion {
    pub name: String,
    pub version: String,
}

/// Which corpus, at which pin (a registry archive's sha256, or for proofs the sha256
/// over the proof files).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CorpusStamp {
    pub id: String,
    pub pin: String,
}

/// A proof case the engine could not analyse; its sites count as missed.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct EngineFailure {
    pub case: String,
    pub outcome: Outcome,
}

/// One row: one corpus (or one proof language), its pins and versions, and either
/// its figures or the outcome that prevented them.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Row {
    pub id: String,
    pub language: String,
    pub corpus: CorpusStamp,
    pub oracle: NameVersion,
    pub toolchain: NameVersion,
    pub engine: NameVersion,
    /// Set when the row could not be scored; `figures` is then absent. An outcome is
    /// never a score.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<Outcome>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub figures: Option<Figures>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub verdicts: BTreeMap<Verdict, u64>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub families: BTreeMap<String, FamilyFigures>,
    /// Proof rows: shape id → the shape matrix cell of this language.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub shapes: BTreeMap<String, String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub engine_failures: Vec<EngineFailure>,
    /// Pair-level rows (PyCG's dotted names, docs/PROTOCOL.md §11): pair precision and
    /// recall, complete and sound cases, what was set apart. A pair-only row has no
    /// site `figures`; its `sites` are its pairs (line 0, name `caller -> callee`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name_pairs: Option<crate::name_pairs::NamePairFigures>,
    /// The reviewed manifest's population (docs/PROTOCOL.md §17): its pin, what was
    /// merged, and the engine's figures on its sites, apart from the oracle's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub manifest: Option<crate::manifest::ManifestFigures>,
    /// Wall time and peak RSS of the tool's run (`harness measure --peers` only: a
    /// timing is no deterministic figure, so a run without peers writes none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run: Option<crate::peers::RunStats>,
    /// The command that re-measures this row from its pins.
    pub reproduce: String,
    /// Every judged site and its verdict, so a gate can name what a change lost.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sites: Vec<SiteRecord>,
}

impl Row {
    /// The command printed in MEASUREMENTS.md to reproduce a row.
    pub fn reproduce_command(id: &str) -> String {
        format!("harness reproduce {id}")
    }

    /// Whether the row carries figures (it was scored).
    pub fn is_scored(&self) -> bool {
        self.outcome.is_none() && (self.figures.is_some() || self.name_pairs.is_some())
    }
}

impl Measurements {
    pub fn new(mut rows: Vec<Row>) -> Measurements {
        rows.sort_by(|a, b| a.id.cmp(&b.id));
        Measurements {
            schema: MEASUREMENTS_SCHEMA.to_string(),
            protocol: PROTOCOL.to_string(),
            rows,
            crosschecks: Vec::new(),
        }
    }

    /// Adds second readings, one per (corpus, first, second): a later record replaces
    /// an earlier one; the list stays sorted by that key.
    pub fn with_crosschecks(mut self, records: impl IntoIterator<Item = CrosscheckRecord>) -> Self {
        for record in records {
            self.crosschecks.retain(|c| c.key() != record.key());
            self.crosschecks.push(record);
        }
        self.crosschecks.sort_by(|a, b| a.key().cmp(&b.key()));
        self
    }

    pub fn row(&self, id: &str) -> Option<&Row> {
        self.rows.iter().find(|r| r.id == id)
    }

    /// The JSON text written to measurements.json: pretty, newline-terminated,
    /// with each per-site record on one line (tens of thousands of sites stay
    /// readable in a diff and a third of the size of fully indented JSON).
    pub fn to_json(&self) -> String {
        let value = serde_json::to_value(self).expect("measurements serialize");
        let mut text = String::new();
        write_pretty(&value, 0, false, &mut text);
        text.push('\n');
        text
    }

    /// Reads and validates a measurements file.
    pub fn load(path: &Path, cap: u64) -> Result<Measurements> {
        let bytes = read_capped(path, cap)?;
        Measurements::from_slice(&bytes, &path.display().to_string())
    }

    pub fn from_slice(bytes: &[u8], origin: &str) -> Result<Measurements> {
        let invalid = |detail: String| Error::InvalidMeasurements {
            path: origin.to_string(),
            detail,
        };
        let parsed: Measurements = match serde_json::from_slice(bytes) {
            Ok(m) => m,
            Err(e) => {
                if let Some(other) =
                    oracles::truth::schema_of(bytes).filter(|s| s != MEASUREMENTS_SCHEMA)
                {
                    return Err(invalid(format!(
                        "schema is `{other}`, expected `{MEASUREMENTS_SCHEMA}`"
                    )));
                }
                return Err(invalid(describe_json_error(&e)));
            }
        };
        if parsed.schema != MEASUREMENTS_SCHEMA {
            return Err(invalid(format!(
                "schema is `{}`, expected `{MEASUREMENTS_SCHEMA}`",
                parsed.schema
            )));
        }
        if parsed.protocol != PROTOCOL {
            return Err(invalid(format!(
                "protocol is `{}`, this harness scores with `{PROTOCOL}`",
                parsed.protocol
            )));
        }
        let mut ids = std::collections::BTreeSet::new();
        for row in &parsed.rows {
            if !ids.insert(row.id.as_str()) {
                return Err(invalid(format!("row `{}` appears twice", row.id)));
            }
        }
        Ok(parsed)
    }
}

/// Two-space indented JSON; the elements of a `sites` array are written one per line.
fn write_pretty(value: &serde_json::Value, depth: usize, compact_items: bool, out: &mut String) {
    use serde_json::Value;
    let pad = |d: usize| "  ".repeat(d);
    match value {
        Value::Object(map) if !map.is_empty() => {
            out.push_str("{\n");
            for (i, (k, v)) in map.iter().enumerate() {
                out.push_str(&pad(depth + 1));
                out.push_str(&serde_json::to_string(k).expect("key"));
                out.push_str(": ");
                write_pretty(v, depth + 1, k == "sites", out);
                out.push_str(if i + 1 < map.len() { ",\n" } else { "\n" });
            }
            out.push_str(&pad(depth));
            out.push('}');
        }
        Value::Array(items) if !items.is_empty() => {
            out.push_str("[\n");
            for (i, v) in items.iter().enumerate() {
                out.push_str(&pad(depth + 1));
                if compact_items {
                    out.push_str(&serde_json::to_string(v).expect("item"));
                } else {
                    write_pretty(v, depth + 1, false, out);
                }
                out.push_str(if i + 1 < items.len() { ",\n" } else { "\n" });
            }
            out.push_str(&pad(depth));
            out.push(']');
        }
        other => out.push_str(&serde_json::to_string(other).expect("scalar")),
    }
}
