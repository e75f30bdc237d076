//! `harness measure`: which corpora to measure (the embedded default, named corpora,
//! a shard of them), measuring each into a row, and the rows into measurements.

use std::path::PathBuf;
use std::str::FromStr;

use oracles::Truth;

use crate::corpora::{CorporaFile, CorpusEntry};
use crate::engine::Analyzer;
use crate::error::{Error, Result};
use crate::figures::{family_figures, figures, verdict_counts};
use crate::model::{CorpusStamp, EngineFailure, Measurements, NameVersion, Row};
use crate::pairing::NameRule;
use crate::pipeline::{CorpusSetup, Prepared};
use crate::progress::Progress;
use crate::proof_runs::toolchain_stamp;
use crate::proofs::{
    empty_report, join_reports, join_truths, load_cases, pin, row_id, shape_cells, ProofCase,
};
use crate::report::Report;
use crate::score::{score, ScoreOptions};

/// Where corpora come from.
#[derive(Debug, Clone)]
pub struct Sources {
    pub proofs_dir: PathBuf,
    pub corpora_path: PathBuf,
    /// Whether the user named the corpora file (a missing one is then an error, not
    /// an empty list).
    pub corpora_explicit: bool,
    pub input_cap: u64,
}

/// What to measure.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Selection {
    /// Every proof language (the embedded default).
    Default,
    /// Every proof language and every corpus of corpora.json.
    All,
    /// These row ids: `proofs-<language>` or corpus ids.
    Named(Vec<String>),
}

/// One thing that becomes one row.
#[derive(Debug, Clone, PartialEq)]
pub enum Unit {
    Proofs { language: String },
    Corpus(Box<CorpusEntry>),
}

impl Unit {
    pub fn id(&self) -> String {
        match self {
            Unit::Proofs { language } => row_id(language),
            Unit::Corpus(corpus) => corpus.id.clone(),
        }
    }
}

/// The K-th (1-based) of N slices of the sorted unit list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

impl FromStr for Shard {
    type Err = String;

    fn from_str(text: &str) -> std::result::Result<Shard, String> {
        let bad = || format!("`{text}` is not a shard K/N with 1 <= K <= N");
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let index: usize = k.trim().parse().map_err(|_| bad())?;
        let count: usize = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || count == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

/// The units of one shard: contiguous slices, so each machine of a CI matrix gets a
/// stable, disjoint part and together they cover the list.
pub fn take_shard(units: Vec<Unit>, shard: Shard) -> Vec<Unit> {
    let len = units.len();
    let start = (shard.index - 1) * len / shard.count;
    let end = shard.index * len / shard.count;
    units.into_iter().skip(start).take(end - start).collect()
}

/// Reads corpora.json: absent at the default path is an empty list; absent where
/// the user pointed is an error.
pub fn load_corpora(sources: &Sources) -> Result<CorporaFile> {
    if sources.corpora_path.exists() || sources.corpora_explicit {
        return CorporaFile::load(&sources.corpora_path, sources.input_cap);
    }
    Ok(CorporaFile::empty())
}

/// The units a selection names, sorted by row id.
pub fn plan(sources: &Sources, selection: &Selection) -> Result<Vec<Unit>> {
    let proof_units = || -> Result<Vec<Unit>> {
        Ok(crate::proofs::languages(&sources.proofs_dir)?
            .into_iter()
            .map(|language| Unit::Proofs { language })
            .collect())
    };
    let mut units = match selection {
        Selection::Default => proof_units()?,
        Selection::All => {
            let mut units = if sources.proofs_dir.is_dir() {
                proof_units()?
            } else {
                vec![]
            };
            units.extend(
                load_corpora(sources)?
                    .corpora
                    .into_iter()
                    .map(|c| Unit::Corpus(Box::new(c))),
            );
            units
        }
        Selection::Named(ids) => named_units(sources, ids)?,
    };
    units.sort_by_key(Unit::id);
    units.dedup_by_key(|u| u.id());
    Ok(units)
}

fn named_units(sources: &Sources, ids: &[String]) -> Result<Vec<Unit>> {
    let mut corpora: Option<CorporaFile> = None;
    let mut units = Vec::new();
    for id in ids {
        if let Some(language) = crate::proofs::language_of_row(id) {
            if sources.proofs_dir.join(language).is_dir() {
                units.push(Unit::Proofs {
                    language: language.to_string(),
                });
                continue;
            }
        }
        if corpora.is_none() {
            corpora = Some(load_corpora(sources)?);
        }
        // A peer row (`pycg-micro@pycg`) is measured with its corpus.
        let corpus_id = crate::python_rows::corpus_of_row(id);
        let found = corpora
            .as_ref()
            .and_then(|c| c.corpora.iter().find(|c| c.id == corpus_id));
        match found {
            Some(corpus) => units.push(Unit::Corpus(Box::new(corpus.clone()))),
            None => {
                return Err(Error::UnknownCorpus {
                    id: id.clone(),
                    proofs: sources.proofs_dir.display().to_string(),
                    corpora: sources.corpora_path.display().to_string(),
                })
            }
        }
    }
    Ok(units)
}

/// Measures every unit into one set of measurements.
pub fn measure_units(
    units: &[Unit],
    sources: &Sources,
    corpus_setup: &CorpusSetup,
    analyzer: &dyn Analyzer,
    progress: &Progress,
) -> Result<Measurements> {
    let mut rows = Vec::new();
    for unit in units {
        let row = match unit {
            Unit::Proofs { language } => {
                measure_proof_language(language, sources, analyzer, progress)?
            }
            Unit::Corpus(corpus) => {
                progress.note(&format!("measuring {}", corpus.id));
                let mut corpus_rows = crate::python_rows::measure_corpus_rows(
                    corpus,
                    corpus_setup,
                    analyzer,
                    progress,
                );
                let first = corpus_rows.remove(0);
                for mut row in corpus_rows {
                    if crate::peers::is_peer_row(&row) {
                        // A peer's row keeps its figures, not its per-site list:
                        // no gate judges a peer, and the lists of the codegraph
                        // peers alone would more than double measurements.json.
                        row.sites.clear();
                    }
                    if let Some(outcome) = &row.outcome {
                        progress.note(&format!("{}: {outcome}", row.id));
                    }
                    rows.push(row);
                }
                first
            }
        };
        if let Some(outcome) = &row.outcome {
            progress.note(&format!("{}: {outcome}", row.id));
        }
        rows.push(row);
    }
    Ok(Measurements::new(rows))
}

/// Scores a report against a truth and stores figures, verdicts, families and the
/// per-site list in the row.
pub fn fill_scores(row: &mut Row, report: &Report, truth: &Truth, options: &ScoreOptions) {
    let scored = score(report, truth, options);
    row.figures = Some(figures(&scored));
    row.verdicts = verdict_counts(&scored);
    row.families = family_figures(&scored);
    row.sites = scored.sites;
}

/// Measures the proofs of one language as the row `proofs-<language>`: each case
/// analysed as its own root, then joined and scored once.
pub fn measure_proof_language(
    language: &str,
    sources: &Sources,
    analyzer: &dyn Analyzer,
    progress: &Progress,
) -> Result<Row> {
    let PreparedProofs {
        mut row,
        cases,
        prepared,
    } = prepare_proof_language(language, sources, analyzer, progress)?;
    if let Some(p) = prepared {
        fill_scores(&mut row, &p.report, &p.truth, &p.options);
        row.shapes = shape_cells(&cases, &row.sites);
    }
    Ok(row)
}

/// The proofs of one language, analysed and joined, not yet scored.
pub struct PreparedProofs {
    /// The row without figures (with its outcome when no case could be analysed).
    pub row: Row,
    pub cases: Vec<ProofCase>,
    /// What scoring reads; `None` when the row has an outcome instead.
    pub prepared: Option<Prepared>,
}

/// Analyses every case of one language as its own root and joins the reports and
/// the truths into one of each, paths prefixed by the case (rooted at the
/// language's proof directory).
pub fn prepare_proof_language(
    language: &str,
    sources: &Sources,
    analyzer: &dyn Analyzer,
    progress: &Progress,
) -> Result<PreparedProofs> {
    let id = row_id(language);
    let cases = load_cases(&sources.proofs_dir, language, sources.input_cap)?;
    let pin = pin(&sources.proofs_dir, language)?;
    let task = progress.task(&id, cases.len() as u64);
    let mut reports = Vec::new();
    let mut failures = Vec::new();
    for case in &cases {
        task.step(&case.name);
        match analyzer.analyze_with(&case.dir, &crate::proof_runs::engine_build(language)) {
            Ok(report) => reports.push((case.name.clone(), report)),
            Err(outcome) => {
                task.note(&format!(
                    "{id}/{}: the engine gave no report: {outcome}",
                    case.name
                ));
                failures.push(EngineFailure {
                    case: case.name.clone(),
                    outcome,
                });
                reports.push((case.name.clone(), empty_report()));
            }
        }
    }
    task.finish();
    let truths: Vec<(String, Truth)> = cases
        .iter()
        .map(|c| (c.name.clone(), c.truth.clone()))
        .collect();
    let report = join_reports(&reports);
    let truth = join_truths(&id, &truths);
    let mut row = Row {
        id: id.clone(),
        language: language.to_string(),
        corpus: CorpusStamp {
            id: id.clone(),
            pin,
        },
        oracle: NameVersion {
            name: truth.oracle.name.clone(),
            version: truth.oracle.version.clone(),
        },
        toolchain: toolchain_stamp(language),
        engine: NameVersion {
            name: "callgraph".into(),
            version: report.engine.version.clone(),
        },
        reproduce: Row::reproduce_command(&id),
        ..Row::default()
    };
    let nothing_analysed = !cases.is_empty() && failures.len() == cases.len();
    if nothing_analysed {
        // Not one case analysed: the row cannot be answered; show why, not zeros.
        row.outcome = Some(failures[0].outcome.clone());
    }
    row.engine_failures = failures;
    let prepared = (!nothing_analysed).then(|| Prepared {
        report,
        truth,
        root: sources.proofs_dir.join(language),
        options: ScoreOptions {
            only: None,
            names: NameRule::for_language(language),
        },
    });
    Ok(PreparedProofs {
        row,
        cases,
        prepared,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn units(n: usize) -> Vec<Unit> {
        (0..n)
            .map(|i| Unit::Proofs {
                language: format!("l{i}"),
            })
            .collect()
    }

    #[test]
    fn shards_are_disjoint_and_cover_the_list() {
        for n in 1..5 {
            for len in 0..7 {
                let mut all = Vec::new();
                for k in 1..=n {
                    all.extend(take_shard(units(len), Shard { index: k, count: n }));
                }
                assert_eq!(all, units(len), "len {len} in {n} shards");
            }
        }
    }

    #[test]
    fn shard_syntax_is_checked() {
        assert_eq!("2/3".parse::<Shard>(), Ok(Shard { index: 2, count: 3 }));
        for bad in ["0/3", "4/3", "1", "a/b", "1/0"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }
}
