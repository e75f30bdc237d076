//! Reviewed manifests (DESIGN §12, docs/PROTOCOL.md §17): `manifests/<corpus>.json`,
//! sites no oracle judges (calls through function pointers, closures stored in
//! fields) each read against the source and confirmed by a run, in the truth format
//! with `"source": "manifest"`.
//!
//! A manifest is its own source: its sites are scored as their own population,
//! never folded into the oracle's figures. A manifest site the oracle judges the same
//! way is redundant (a warning, not scored twice); one the oracle judges otherwise is
//! refused unless the site carries an adjudicated `dispute`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use oracles::{describe_json_error, read_capped, OracleStamp, Truth, TruthSite, TruthTarget};
use serde::{Deserialize, Serialize};

use crate::figures::{figures, Figures};
use crate::report::Report;
use crate::score::{score, ScoreOptions};

/// The `source` every manifest declares.
pub const MANIFEST_SOURCE: &str = "manifest";

/// The name a manifest writes for a call whose callee is a parenthesised expression
/// (`(*f)(x)`, the clang truth's own spelling): the engine reports such a call
/// without a name, and a truth site's name may not be empty.
pub const PARENTHESISED_CALLEE: &str = "(call)";

/// One manifest file as written.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    pub schema: String,
    pub corpus: String,
    pub source: String,
    pub oracle: OracleStamp,
    pub sites: Vec<ManifestSite>,
}

/// One reviewed site: a truth site plus what shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ManifestSite {
    #[serde(flatten)]
    pub site: TruthSite,
    pub evidence: Evidence,
    /// One line: why these targets, and what the run could not show.
    pub reason: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dispute: Option<Dispute>,
}

/// The run that shows the callee, described so that it can be re-run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Evidence {
    pub command: String,
    pub input: String,
    pub observed: String,
}

/// A site where the manifest overrules the oracle, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Dispute {
    /// What the oracle answers at the site (its targets, as the truth writes them).
    pub oracle_says: serde_json::Value,
    pub adjudication: String,
}

/// A manifest that cannot be used. Every variant names the file; a contradiction
/// names the site.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ManifestError {
    #[error("invalid_manifest: {path}: {detail}")]
    Invalid { path: String, detail: String },
    #[error(
        "manifest_contradicts_oracle: {path}: site {site}: the oracle judges {oracle_says}, \
         the manifest {manifest_says}; mark the site as an adjudicated dispute or remove it"
    )]
    Contradicts {
        path: String,
        site: String,
        oracle_says: String,
        manifest_says: String,
    },
}

/// An adjudicated dispute, as the row lists it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Adjudication {
    pub site: String,
    pub oracle_says: String,
    pub manifest_says: String,
    pub adjudication: String,
}

/// What the row says about its manifest: the file's pin, what was merged, and the
/// engine's figures on the manifest's own population.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ManifestFigures {
    /// `manifests/<corpus>.json`.
    pub file: String,
    pub sha256: String,
    /// Sites the file lists.
    pub listed: u64,
    /// Sites the oracle already judges the same way: not scored again.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub redundant: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub adjudications: Vec<Adjudication>,
    /// The engine on the manifest sites that remain.
    pub figures: Figures,
}

impl Manifest {
    /// Reads and validates `path`, refusing files above `cap` bytes.
    pub fn load(path: &Path, cap: u64) -> Result<(Manifest, String), ManifestError> {
        let origin = path.display().to_string();
        let bytes = read_capped(path, cap).map_err(|e| ManifestError::Invalid {
            path: origin.clone(),
            detail: e.to_string(),
        })?;
        let manifest = Manifest::from_slice(&bytes, &origin)?;
        Ok((manifest, sha256_hex(&bytes)))
    }

    /// Parses and validates manifest JSON; `origin` names the file in errors.
    pub fn from_slice(bytes: &[u8], origin: &str) -> Result<Manifest, ManifestError> {
        let invalid = |detail: String| ManifestError::Invalid {
            path: origin.to_string(),
            detail,
        };
        let manifest: Manifest =
            serde_json::from_slice(bytes).map_err(|e| invalid(describe_json_error(&e)))?;
        if manifest.schema != oracles::TRUTH_SCHEMA {
            return Err(invalid(format!(
                "schema is `{}`, expected `{}`",
                manifest.schema,
                oracles::TRUTH_SCHEMA
            )));
        }
        if manifest.oracle.column != oracles::ColumnUnit::Name {
            return Err(invalid(
                "a manifest's columns are the call's name token (`\"column\": \"name\"`)".into(),
            ));
        }
        if manifest.source != MANIFEST_SOURCE {
            return Err(invalid(format!(
                "source is `{}`, expected `{MANIFEST_SOURCE}`",
                manifest.source
            )));
        }
        manifest
            .as_truth(manifest.sites.iter().map(|s| s.site.clone()).collect())
            .validate(origin)
            .map_err(|e| invalid(e.to_string()))?;
        for site in &manifest.sites {
            if let Some(problem) = reviewed_site_problem(site) {
                return Err(invalid(format!("site {}: {problem}", label(&site.site))));
            }
        }
        Ok(manifest)
    }

    /// The given sites as a truth of this manifest's stamp.
    fn as_truth(&self, sites: Vec<TruthSite>) -> Truth {
        Truth {
            schema: self.schema.clone(),
            corpus: self.corpus.clone(),
            oracle: self.oracle.clone(),
            shape: None,
            sites,
            references: None,
            pairs: vec![],
        }
    }
}

/// What a reviewed site lacks, if anything: a manifest judges every site it lists,
/// by a position the engine's columns pair with, and says what showed it.
fn reviewed_site_problem(site: &ManifestSite) -> Option<&'static str> {
    if site.site.targets.is_empty() {
        return Some("a reviewed site names the targets the run showed");
    }
    if !site.site.is_judged() || site.site.expect.is_some() {
        return Some("a reviewed site is judged: no unjudged, implicit or expect");
    }
    if site.site.column.is_none() {
        return Some("a reviewed site has the column of the call's name");
    }
    let e = &site.evidence;
    if [&e.command, &e.input, &e.observed, &site.reason]
        .iter()
        .any(|t| t.trim().is_empty())
    {
        return Some("evidence (command, input, observed) and reason are all required");
    }
    None
}

/// `file:line:column name`, how errors and the row name a site.
pub fn label(site: &TruthSite) -> String {
    format!(
        "{}:{}:{} `{}`",
        site.file,
        site.line,
        site.column.unwrap_or(0),
        site.name
    )
}

fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    crate::proofs::hex(&Sha256::digest(bytes))
}

/// The manifest sites the oracle does not already answer, checked against the oracle.
#[derive(Debug, Clone, PartialEq)]
pub struct Merged {
    pub truth: Truth,
    pub redundant: Vec<String>,
    pub adjudications: Vec<Adjudication>,
}

/// Sets each manifest site beside the oracle's site at the same position: kept where
/// the oracle does not judge it (or an adjudicated dispute overrules it), redundant
/// where the oracle judges it the same way, refused where it judges it otherwise.
pub fn merge(manifest: &Manifest, oracle: &Truth, origin: &str) -> Result<Merged, ManifestError> {
    let by_position: BTreeMap<(&str, u32, Option<u32>, &str), &TruthSite> = oracle
        .sites
        .iter()
        .filter(|s| s.is_judged())
        .map(|s| ((s.file.as_str(), s.line, s.column, s.name.as_str()), s))
        .collect();
    let mut kept = Vec::new();
    let mut redundant = Vec::new();
    let mut adjudications = Vec::new();
    for reviewed in &manifest.sites {
        let site = &reviewed.site;
        let key = (
            site.file.as_str(),
            site.line,
            site.column,
            site.name.as_str(),
        );
        match by_position.get(&key) {
            None => kept.push(as_engine_names_it(site)),
            Some(judged) if agrees(judged, site) && reviewed.dispute.is_none() => {
                redundant.push(label(site))
            }
            Some(judged) => {
                let Some(dispute) = &reviewed.dispute else {
                    return Err(ManifestError::Contradicts {
                        path: origin.to_string(),
                        site: label(site),
                        oracle_says: show_targets(&judged.targets),
                        manifest_says: show_targets(&site.targets),
                    });
                };
                adjudications.push(Adjudication {
                    site: label(site),
                    oracle_says: show_targets(&judged.targets),
                    manifest_says: show_targets(&site.targets),
                    adjudication: dispute.adjudication.clone(),
                });
                kept.push(as_engine_names_it(site));
            }
        }
    }
    Ok(Merged {
        truth: manifest.as_truth(kept),
        redundant,
        adjudications,
    })
}

/// The site under the name the engine's report gives it, so that the two pair.
fn as_engine_names_it(site: &TruthSite) -> TruthSite {
    let mut site = site.clone();
    if site.name == PARENTHESISED_CALLEE {
        site.name.clear();
    }
    site
}

/// The oracle and the manifest accept the same targets.
fn agrees(oracle: &TruthSite, reviewed: &TruthSite) -> bool {
    let set = |s: &TruthSite| s.targets.iter().cloned().collect::<BTreeSet<TruthTarget>>();
    set(oracle) == set(reviewed)
}

fn show_targets(targets: &[TruthTarget]) -> String {
    let shown: Vec<String> = targets
        .iter()
        .map(|t| match t {
            TruthTarget::InTree { file, line } => format!("{file}:{line}"),
            TruthTarget::Outside { symbol } => format!("outside `{symbol}`"),
        })
        .collect();
    format!("[{}]", shown.join(", "))
}

/// Reads `dir/<corpus>.json` if it exists, merges it with the oracle's truth and
/// scores the engine on the manifest's own population. `Ok(None)`: no manifest.
pub fn score_manifest(
    dir: &Path,
    corpus: &str,
    oracle: &Truth,
    report: &Report,
    options: &ScoreOptions,
    cap: u64,
) -> Result<Option<ManifestFigures>, ManifestError> {
    let path = dir.join(format!("{corpus}.json"));
    if !path.is_file() {
        return Ok(None);
    }
    let (manifest, sha256) = Manifest::load(&path, cap)?;
    let file = format!("manifests/{corpus}.json");
    if manifest.corpus != corpus {
        return Err(ManifestError::Invalid {
            path: file,
            detail: format!("corpus is `{}`, the file is {corpus}'s", manifest.corpus),
        });
    }
    let merged = merge(&manifest, oracle, &file)?;
    let scored = score(report, &merged.truth, options);
    Ok(Some(ManifestFigures {
        file,
        sha256,
        listed: manifest.sites.len() as u64,
        redundant: merged.redundant,
        adjudications: merged.adjudications,
        figures: figures(&scored),
    }))
}

/// The "Reviewed manifests" section of MEASUREMENTS.md: each row's manifest
/// population on its own line, then every adjudicated dispute. Absent when no row
/// has a manifest.
pub fn render_section(md: &mut String, measurements: &crate::model::Measurements) {
    use crate::tables::{cell, header, percent};
    use std::fmt::Write as _;
    let rows: Vec<(&str, &ManifestFigures)> = measurements
        .rows
        .iter()
        .filter_map(|row| Some((row.id.as_str(), row.manifest.as_ref()?)))
        .collect();
    if rows.is_empty() {
        return;
    }
    md.push_str("## Reviewed manifests\n\n");
    md.push_str("Sites no oracle judges, each read against the source and confirmed by a run (`manifests/<corpus>.json`, docs/PROTOCOL.md §17). The engine's figures on them are their own population, never part of the row's figures above. Redundant: sites the oracle already judges the same way, not scored again.\n\n");
    md.push_str(&header(&[
        "row",
        "manifest",
        "listed",
        "redundant",
        "judged",
        "right",
        "coverage",
        "precision",
        "false edges",
        "adjudications",
    ]));
    for (id, m) in &rows {
        let f = &m.figures;
        let _ = writeln!(
            md,
            "| {} | {} @ {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            cell(id),
            cell(&m.file),
            &m.sha256[..m.sha256.len().min(12)],
            m.listed,
            m.redundant.len(),
            f.judged_in_tree + f.judged_outside,
            f.right,
            percent(f.coverage),
            percent(f.precision),
            f.false_edges,
            m.adjudications.len()
        );
    }
    md.push('\n');
    let adjudications: Vec<(&str, &Adjudication)> = rows
        .iter()
        .flat_map(|(id, m)| m.adjudications.iter().map(move |a| (*id, a)))
        .collect();
    if !adjudications.is_empty() {
        md.push_str(&header(&[
            "row",
            "site",
            "oracle says",
            "manifest says",
            "adjudication",
        ]));
        for (id, a) in adjudications {
            let _ = writeln!(
                md,
                "| {} | {} | {} | {} | {} |",
                cell(id),
                cell(&a.site),
                cell(&a.oracle_says),
                cell(&a.manifest_says),
                cell(&a.adjudication)
            );
        }
        md.push('\n');
    }
}

/// Parses and validates a manifest text named `m.json`.
#[cfg(test)]
fn parse(text: &str) -> Result<Manifest, ManifestError> {
    Manifest::from_slice(text.as_bytes(), "m.json")
}

#[cfg(test)]
#[path = "manifest_tests.rs"]
mod tests;
