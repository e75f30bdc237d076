//! The per-corpus pipeline for real corpora: fetch the pinned archive, run the oracle,
//! run the engine, score. Fetchers (one per registry) and oracles (one per
//! toolchain) plug in through registries; until one exists, the row records the
//! outcome `not_implemented` — an outcome, never a score.

use std::path::{Path, PathBuf};
use std::time::Duration;

use oracles::{oracle_named, Oracle, OracleOptions, Outcome, Truth};

use crate::corpora::CorpusEntry;
use crate::engine::Analyzer;
use crate::model::{CorpusStamp, NameVersion, Row};
use crate::pairing::NameRule;
use crate::report::Report;
use crate::score::ScoreOptions;

/// Downloads a corpus from its registry with the registry's ordinary client, checks
/// its sha256 and unpacks it into the cache; returns the unpacked directory.
pub trait Fetcher {
    /// The registry name corpora.json uses (`debian`, `pypi`, `npm`, `crates`, ...).
    fn registry(&self) -> &'static str;
    fn fetch(
        &self,
        corpus: &CorpusEntry,
        cache_dir: &Path,
        bound: Duration,
    ) -> Result<PathBuf, Outcome>;
}

/// The fetcher of a registry, when one is implemented.
pub fn fetcher_for(registry: &str) -> Option<Box<dyn Fetcher>> {
    // Adding a registry is one line here.
    match registry {
        "crates" => Some(Box::new(crate::fetch::crates::Crates)),
        "debian" => Some(Box::new(crate::fetch::debian::Debian)),
        "maven" => Some(Box::new(crate::fetch::maven::Maven)),
        "npm" => Some(Box::new(crate::fetch::npm::Npm)),
        "pypi" => Some(Box::new(crate::fetch::pypi::Pypi)),
        "local" => Some(Box::new(crate::fetch::local::Local)),
        _ => None,
    }
}

/// Where fetched corpora and truths are kept, and the bound on each tool run.
#[derive(Debug, Clone)]
pub struct CorpusSetup {
    pub cache_dir: PathBuf,
    pub bound: Duration,
    /// Where `<corpus>.json` reviewed manifests are read (the repository's `manifests/`).
    pub manifests_dir: PathBuf,
    /// Run the opt-in peer tools too (`harness measure --peers`, src/peers.rs).
    pub peers: bool,
}

/// Measures one real corpus. Every failure along the way becomes the row's outcome.
pub fn measure_corpus(corpus: &CorpusEntry, setup: &CorpusSetup, analyzer: &dyn Analyzer) -> Row {
    let (mut row, prepared) = prepare_corpus(corpus, setup, analyzer);
    if let Some(prepared) = prepared {
        crate::measure::fill_scores(
            &mut row,
            &prepared.report,
            &prepared.truth,
            &prepared.options,
        );
        fill_manifest(&mut row, &prepared, setup);
    }
    row
}

/// Scores the corpus's reviewed manifest, if it has one, as the row's own manifest
/// population. A manifest that cannot be used (or contradicts the oracle without an
/// adjudicated dispute) refuses the row: its figures would rest on an unreviewed file.
pub fn fill_manifest(row: &mut Row, prepared: &Prepared, setup: &CorpusSetup) {
    let found = crate::manifest::score_manifest(
        &setup.manifests_dir,
        &row.id,
        &prepared.truth,
        &prepared.report,
        &prepared.options,
        oracles::DEFAULT_INPUT_CAP,
    );
    match found {
        Ok(manifest) => row.manifest = manifest,
        Err(e) => {
            row.figures = None;
            row.verdicts.clear();
            row.families.clear();
            row.sites.clear();
            row.outcome = Some(Outcome::tool_failed("manifest", e.to_string()));
        }
    }
}

/// What scoring one corpus reads: the engine's report, the oracle's truth, the tree
/// both speak of (the corpus's `include` view), and how names pair.
#[derive(Debug, Clone)]
pub struct Prepared {
    pub report: Report,
    pub truth: Truth,
    pub root: PathBuf,
    pub options: ScoreOptions,
}

/// Fetches, runs the oracle (or reads its cached truth) and runs the engine on one
/// corpus: the row without figures, and what scoring it reads — or, on any
/// failure, the row with its outcome and nothing to score.
pub fn prepare_corpus(
    corpus: &CorpusEntry,
    setup: &CorpusSetup,
    analyzer: &dyn Analyzer,
) -> (Row, Option<Prepared>) {
    let mut row = Row {
        id: corpus.id.clone(),
        language: corpus.language.clone(),
        corpus: CorpusStamp {
            id: corpus.id.clone(),
            pin: format!("sha256:{}", corpus.source.sha256),
        },
        oracle: NameVersion {
            name: corpus.oracle.name.clone(),
            version: String::new(),
        },
        reproduce: Row::reproduce_command(&corpus.id),
        ..Row::default()
    };
    match run_pipeline(corpus, setup, analyzer, &mut row) {
        Ok(prepared) => (row, Some(prepared)),
        Err(outcome) => {
            row.outcome = Some(outcome);
            (row, None)
        }
    }
}

fn run_pipeline(
    corpus: &CorpusEntry,
    setup: &CorpusSetup,
    analyzer: &dyn Analyzer,
    row: &mut Row,
) -> Result<Prepared, Outcome> {
    let oracle = oracle_named(&corpus.oracle.name).ok_or_else(|| Outcome::NotImplemented {
        tool: format!("oracle:{}", corpus.oracle.name),
        detail: "no adapter for this oracle yet".into(),
    })?;
    row.oracle.version = oracle.version().to_string();
    row.toolchain = NameVersion {
        name: oracle.name().to_string(),
        version: oracle.toolchain_version()?,
    };
    let fetcher = fetcher_for(&corpus.source.registry).ok_or_else(|| Outcome::NotImplemented {
        tool: format!("fetch:{}", corpus.source.registry),
        detail: "no fetcher for this registry yet".into(),
    })?;
    let unpacked = fetcher.fetch(corpus, &setup.cache_dir, setup.bound)?;
    let root = crate::tree_view::analysed_root(&unpacked, corpus, &setup.cache_dir)?;
    let (truth, _) = crate::truth_cache::cached_truth(
        &setup.cache_dir,
        corpus,
        oracle.as_ref(),
        &row.toolchain.version,
        || run_oracle(oracle.as_ref(), corpus, &root, setup),
    )?;
    let report = analyzer.analyze_with(&root, &corpus.build)?;
    row.engine = NameVersion {
        name: "callgraph".into(),
        version: report.engine.version.clone(),
    };
    let options = ScoreOptions {
        only: None,
        names: NameRule::for_language(&corpus.language),
    };
    Ok(Prepared {
        report,
        truth,
        root,
        options,
    })
}

fn run_oracle(
    oracle: &dyn Oracle,
    corpus: &CorpusEntry,
    root: &Path,
    setup: &CorpusSetup,
) -> Result<oracles::Truth, Outcome> {
    let work = tempfile::tempdir().map_err(|e| Outcome::ToolFailed {
        tool: oracle.name().into(),
        detail: format!("no temporary directory: {e}"),
    })?;
    let build = serde_json::to_value(&corpus.build).expect("a build configuration serializes");
    let options = OracleOptions {
        corpus_id: &corpus.id,
        language: &corpus.language,
        options: &corpus.oracle.options,
        build: &build,
        work_dir: work.path(),
        cache_dir: &setup.cache_dir,
        timeout: setup.bound,
    };
    oracle.run(root, &options)
}
