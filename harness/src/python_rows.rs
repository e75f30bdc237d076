//! Rows of the Python corpora beyond the site pipeline: the PyCG micro-benchmark,
//! whose truth is pair-level (`pycg-micro`), and peer tools — other call-graph tools
//! judged against the same truth as the engine, side by side in the same tables
//! (`pycg-micro@pycg`: PyCG itself as the tool under test).
//!
//! Every failure along the way is the row's outcome, never a row of wrong answers.

use std::path::{Path, PathBuf};

use oracles::pairs::PairGraph;
use oracles::pycg::{micro_benchmark_graph, Pycg};
use oracles::pycg_micro::{self, micro_benchmark_truth, micro_cases};
use oracles::Outcome;
use serde::{Deserialize, Serialize};

use crate::corpora::{CorpusEntry, OracleChoice};
use crate::engine::Analyzer;
use crate::model::{CorpusStamp, EngineFailure, NameVersion, Row};
use crate::name_pairs::{engine_case, score_pairs, PairScore, ToolCase};
use crate::pipeline::{measure_corpus, CorpusSetup};
use crate::progress::Progress;

/// The row id of a peer tool on a corpus: `pycg-micro@pycg`.
pub fn peer_row_id(corpus: &str, peer: &str) -> String {
    format!("{corpus}@{peer}")
}

/// The corpus id of a row id (`pycg-micro@pycg` → `pycg-micro`).
pub fn corpus_of_row(id: &str) -> &str {
    id.split_once('@').map_or(id, |(corpus, _)| corpus)
}

/// Every row of one corpus: the engine's, then one per peer.
pub fn measure_corpus_rows(
    corpus: &CorpusEntry,
    setup: &CorpusSetup,
    analyzer: &dyn Analyzer,
    progress: &Progress,
) -> Vec<Row> {
    let timed = setup.peers
        && corpus
            .peers
            .iter()
            .any(|p| crate::peers::is_opt_in(&p.name));
    let mut prepared = None;
    let mut rows = vec![if corpus.oracle.name == pycg_micro::NAME {
        measure_micro(corpus, setup, analyzer, progress)
    } else if timed {
        let (mut row, ready) = crate::pipeline::prepare_corpus(corpus, setup, analyzer);
        if let Some(p) = &ready {
            crate::measure::fill_scores(&mut row, &p.report, &p.truth, &p.options);
            row.run = crate::peers::time_engine(analyzer, corpus, &p.root, setup);
        }
        prepared = ready;
        row
    } else {
        measure_corpus(corpus, setup, analyzer)
    }];
    for other in &corpus.other_oracles {
        let id = peer_row_id(&corpus.id, &other.name);
        progress.note(&format!("measuring {id}"));
        rows.push(measure_other_oracle(corpus, other, setup, analyzer, id));
    }
    for peer in &corpus.peers {
        if crate::peers::is_opt_in(&peer.name) {
            if !setup.peers {
                continue;
            }
            progress.note(&format!(
                "measuring {}",
                peer_row_id(&corpus.id, &peer.name)
            ));
            let mut row = base_row(corpus, peer_row_id(&corpus.id, &peer.name));
            row.oracle.version = rows[0].oracle.version.clone();
            row.toolchain = rows[0].toolchain.clone();
            if let Err(outcome) =
                crate::peers::measure_peer(corpus, peer, setup, prepared.as_ref(), &mut row)
            {
                row.outcome = Some(outcome);
            }
            rows.push(row);
            continue;
        }
        progress.note(&format!(
            "measuring {}",
            peer_row_id(&corpus.id, &peer.name)
        ));
        rows.push(measure_peer(corpus, peer, setup, progress));
    }
    rows
}

/// The engine judged by another oracle of the corpus (`express@jstrace`): the same
/// tree and build, the truth of `other` (cached under its own name).
fn measure_other_oracle(
    corpus: &CorpusEntry,
    other: &OracleChoice,
    setup: &CorpusSetup,
    analyzer: &dyn Analyzer,
    id: String,
) -> Row {
    let mut judged = corpus.clone();
    judged.oracle = other.clone();
    judged.other_oracles.clear();
    judged.peers.clear();
    let mut row = measure_corpus(&judged, setup, analyzer);
    row.reproduce = Row::reproduce_command(&id);
    row.id = id;
    row
}

fn base_row(corpus: &CorpusEntry, id: String) -> Row {
    Row {
        reproduce: Row::reproduce_command(&id),
        id,
        language: corpus.language.clone(),
        corpus: CorpusStamp {
            id: corpus.id.clone(),
            pin: format!("sha256:{}", corpus.source.sha256.to_ascii_lowercase()),
        },
        oracle: NameVersion {
            name: corpus.oracle.name.clone(),
            version: String::new(),
        },
        ..Row::default()
    }
}

/// The toolchain of the micro-benchmark truth: the sdist the cases come from.
fn micro_toolchain(corpus: &CorpusEntry) -> NameVersion {
    NameVersion {
        name: "pycg micro-benchmark".into(),
        version: format!("{} {}", corpus.source.package, corpus.source.version),
    }
}

/// The analysed tree of the corpus (fetched, verified, unpacked; its `include` view).
fn fetched_root(corpus: &CorpusEntry, setup: &CorpusSetup) -> Result<PathBuf, Outcome> {
    crate::fetch_command::fetch_one(corpus, &setup.cache_dir, setup.bound)
}

fn micro_truth(corpus: &CorpusEntry, root: &Path) -> Result<PairGraph, Outcome> {
    micro_benchmark_truth(root, &corpus.id, &micro_toolchain(corpus).version)
}

fn fill(row: &mut Row, score: PairScore) {
    row.name_pairs = Some(score.figures);
    row.sites = score.records;
    row.families = score.families;
}

/// The engine on the micro-benchmark: each case analysed as its own root, its report
/// read in PyCG's names, every case judged against its `callgraph.json`.
fn measure_micro(
    corpus: &CorpusEntry,
    setup: &CorpusSetup,
    analyzer: &dyn Analyzer,
    progress: &Progress,
) -> Row {
    let mut row = base_row(corpus, corpus.id.clone());
    row.oracle.version = pycg_micro::ADAPTER_VERSION.into();
    row.toolchain = micro_toolchain(corpus);
    if let Err(outcome) = engine_on_micro(corpus, setup, analyzer, progress, &mut row) {
        row.outcome = Some(outcome);
    }
    row
}

fn engine_on_micro(
    corpus: &CorpusEntry,
    setup: &CorpusSetup,
    analyzer: &dyn Analyzer,
    progress: &Progress,
    row: &mut Row,
) -> Result<(), Outcome> {
    let root = fetched_root(corpus, setup)?;
    let truth = micro_truth(corpus, &root)?;
    let cases = micro_cases(&root)?;
    let task = progress.task(&corpus.id, cases.len() as u64);
    let mut answers = Vec::new();
    for case in &cases {
        task.step(&case.id);
        match analyzer.analyze(&case.dir) {
            Ok(report) => {
                if row.engine.version.is_empty() {
                    row.engine = NameVersion {
                        name: "callgraph".into(),
                        version: report.engine.version.clone(),
                    };
                }
                answers.push(engine_case(&case.id, &case.modules(), &report));
            }
            Err(outcome) => {
                task.note(&format!(
                    "{}/{}: the engine gave no report: {outcome}",
                    corpus.id, case.id
                ));
                row.engine_failures.push(EngineFailure {
                    case: case.id.clone(),
                    outcome,
                });
                answers.push(ToolCase {
                    failed: true,
                    ..ToolCase::default()
                });
            }
        }
    }
    task.finish();
    if !cases.is_empty() && row.engine_failures.len() == cases.len() {
        return Err(row.engine_failures[0].outcome.clone());
    }
    fill(row, score_pairs(&truth, &answers));
    Ok(())
}

/// One peer tool on one corpus.
fn measure_peer(
    corpus: &CorpusEntry,
    peer: &OracleChoice,
    setup: &CorpusSetup,
    progress: &Progress,
) -> Row {
    let mut row = base_row(corpus, peer_row_id(&corpus.id, &peer.name));
    let result = match peer.name.as_str() {
        oracles::pycg::NAME if corpus.oracle.name == pycg_micro::NAME => {
            pycg_on_micro(corpus, setup, progress, &mut row)
        }
        oracles::pycg::NAME => pycg_on_tree(corpus, peer, setup, &mut row),
        other => Err(Outcome::NotImplemented {
            tool: format!("peer:{other}"),
            detail: "no such peer tool".into(),
        }),
    };
    if let Err(outcome) = result {
        row.outcome = Some(outcome);
    }
    row
}

/// A peer's graph as cached: keyed by the corpus pin and the tool's version.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct CachedGraph {
    graph: PairGraph,
    #[serde(default)]
    failed_cases: Vec<String>,
}

fn peer_cache_path(
    setup: &CorpusSetup,
    corpus: &CorpusEntry,
    tool: &str,
    version: &str,
) -> PathBuf {
    let sha = corpus.source.sha256.to_ascii_lowercase();
    let version: String = version
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' {
                c
            } else {
                '_'
            }
        })
        .collect();
    setup.cache_dir.join("peers").join(format!(
        "{}-{}-{tool}-{version}.json",
        corpus.id,
        &sha[..sha.len().min(16)]
    ))
}

fn pycg_on_micro(
    corpus: &CorpusEntry,
    setup: &CorpusSetup,
    progress: &Progress,
    row: &mut Row,
) -> Result<(), Outcome> {
    row.oracle.version = pycg_micro::ADAPTER_VERSION.into();
    row.toolchain = micro_toolchain(corpus);
    let root = fetched_root(corpus, setup)?;
    let truth = micro_truth(corpus, &root)?;
    let pycg = Pycg::install(&setup.cache_dir, setup.bound)?;
    row.engine = NameVersion {
        name: oracles::pycg::NAME.into(),
        version: pycg.version(),
    };
    let cache = peer_cache_path(setup, corpus, oracles::pycg::NAME, &pycg.version());
    let cached = std::fs::read(&cache)
        .ok()
        .and_then(|bytes| serde_json::from_slice::<CachedGraph>(&bytes).ok());
    let cached = match cached {
        Some(cached) => cached,
        None => {
            progress.note(&format!("{}: running PyCG on every case", row.id));
            let (graph, failures) = micro_benchmark_graph(&pycg, &root, &corpus.id, setup.bound)?;
            let cached = CachedGraph {
                graph,
                failed_cases: failures.into_iter().map(|(case, _)| case).collect(),
            };
            let mut text = serde_json::to_string(&cached).expect("graphs serialize");
            text.push('\n');
            // A cache that cannot be written costs a rerun next time, not this answer.
            let _ = crate::atomic::write_atomic(&cache, text.as_bytes());
            cached
        }
    };
    let answers: Vec<ToolCase> = cached
        .graph
        .cases
        .into_iter()
        .map(|case| ToolCase {
            failed: cached.failed_cases.contains(&case.case),
            case,
            families: Default::default(),
        })
        .collect();
    fill(row, score_pairs(&truth, &answers));
    Ok(())
}

/// PyCG on a whole tree (click): run on a view of the tree laid out as Python
/// imports it (`peer.options.layout`: corpus directory → view directory, `""` the
/// view's root), bounded by the tool timeout. PyCG 0.0.8 gives no call sites, so its
/// pairs are judged against the truth's (caller, callee) pairs.
fn pycg_on_tree(
    corpus: &CorpusEntry,
    peer: &OracleChoice,
    setup: &CorpusSetup,
    row: &mut Row,
) -> Result<(), Outcome> {
    let root = fetched_root(corpus, setup)?;
    let pycg = Pycg::install(&setup.cache_dir, setup.bound)?;
    row.engine = NameVersion {
        name: oracles::pycg::NAME.into(),
        version: pycg.version(),
    };
    let view = tempfile::tempdir().map_err(|e| Outcome::ToolFailed {
        tool: oracles::pycg::NAME.into(),
        detail: format!("no temporary directory: {e}"),
    })?;
    lay_out_view(&root, &peer.options, view.path())?;
    let files = oracles::pycg::python_files(view.path()).map_err(|e| Outcome::ToolFailed {
        tool: oracles::pycg::NAME.into(),
        detail: format!("cannot list the view: {e}"),
    })?;
    let _pairs = pycg.run(view.path(), &files, setup.bound)?;
    Err(Outcome::NotImplemented {
        tool: "peer:pycg".into(),
        detail: "judging PyCG's pairs against a site-level truth".into(),
    })
}

/// Copies each `layout` source directory of the corpus into its place in the view.
fn lay_out_view(root: &Path, options: &serde_json::Value, view: &Path) -> Result<(), Outcome> {
    let failed = |detail: String| Outcome::ToolFailed {
        tool: oracles::pycg::NAME.into(),
        detail,
    };
    let layout = options
        .get("layout")
        .and_then(|l| l.as_object())
        .ok_or_else(|| failed("the peer needs options.layout (corpus dir → view dir)".into()))?;
    for (from, to) in layout {
        let to = to
            .as_str()
            .ok_or_else(|| failed(format!("layout `{from}`: the target is not a string")))?;
        copy_python_tree(&root.join(from), &view.join(to))
            .map_err(|e| failed(format!("cannot copy {from} into the view: {e}")))?;
    }
    Ok(())
}

fn copy_python_tree(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let path = entry?.path();
        let name = path.file_name().expect("a directory entry has a name");
        if path.is_symlink() {
            continue;
        }
        if path.is_dir() {
            copy_python_tree(&path, &to.join(name))?;
        } else if path.extension().is_some_and(|e| e == "py") {
            std::fs::copy(&path, to.join(name))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn peer_rows_are_named_after_their_corpus() {
        assert_eq!(peer_row_id("pycg-micro", "pycg"), "pycg-micro@pycg");
        assert_eq!(corpus_of_row("pycg-micro@pycg"), "pycg-micro");
        assert_eq!(corpus_of_row("click"), "click");
    }
}
