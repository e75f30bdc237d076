//! `harness crosscheck --corpus ID`: a corpus's truth against an independent second
//! reading of the same build — rustc's THIR (`rustc`) against the LLVM IR of the same
//! crate (`rustc-ir`), the Python trace (`pytrace`) against pyright's index
//! (`scip-python`). Prints the agreement rate over the sites both readings judge
//! and every disagreement, so each is read and explained rather than averaged.
//!
//! Sites are matched by (file, line, name, column); two judged sites agree when they
//! name the same in-tree declarations, or are both outside. Where a reading gives
//! several acceptable targets (the IR's one per instantiation of a generic body), the
//! sites agree when each in-tree target of one is among the other's. Exit 0 when the
//! comparison ran (disagreements are listed, not a failure), 3 when a reading could
//! not be made.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::Path;
use std::time::Duration;

use clap::Args;
use oracles::{oracle_named, Oracle, OracleOptions, Outcome, Truth, TruthSite, TruthTarget};

use crate::cli::SourceArgs;
use crate::corpora::CorpusEntry;
use crate::error::{Error, Result, EXIT_OK};
use crate::measure::{load_corpora, Sources};
use crate::model::{CrosscheckRecord, Measurements, NameVersion};
use crate::progress::Progress;

#[derive(Debug, Args)]
pub struct CrosscheckArgs {
    #[command(flatten)]
    pub sources: SourceArgs,
    /// The corpus (a corpora.json id).
    #[arg(long = "corpus", value_name = "ID")]
    pub corpus: String,
    /// The second reading (default: the one the corpus's oracle has).
    #[arg(long, value_name = "ORACLE")]
    pub second: Option<String>,
    /// Also record the agreement in DIR/measurements.json's `crosschecks` section
    /// (the file is created if absent) and rewrite DIR's tables, whose "Second
    /// readings" table shows it.
    #[arg(long, value_name = "DIR")]
    pub out: Option<std::path::PathBuf>,
}

/// The second reading of an oracle, where one exists.
pub fn second_reading(oracle: &str) -> Option<&'static str> {
    match oracle {
        "rustc" => Some("rustc-ir"),
        "gotypes" => Some("go-callgraph"),
        "clang" => Some("clang-ast"),
        "tsc" => Some("scip-typescript"),
        "gnat" => Some("gnat-gimple"),
        "javac" => Some("javac-bytecode"),
        "kotlinc" => Some("kotlinc-bytecode"),
        "pytrace" => Some("scip-python"),
        "mcs" => Some("mcs-il"),
        _ => None,
    }
}

pub fn crosscheck(
    args: CrosscheckArgs,
    cap: u64,
    progress: &Progress,
    out: &mut dyn Write,
) -> Result<u8> {
    let sources = Sources {
        proofs_dir: args.sources.proofs.clone(),
        corpora_path: args
            .sources
            .corpora
            .clone()
            .unwrap_or_else(|| "corpora.json".into()),
        corpora_explicit: args.sources.corpora.is_some(),
        input_cap: cap,
    };
    let file = load_corpora(&sources)?;
    let corpus = file
        .corpora
        .iter()
        .find(|c| c.id == args.corpus)
        .ok_or_else(|| Error::UnknownCorpus {
            id: args.corpus.clone(),
            proofs: sources.proofs_dir.display().to_string(),
            corpora: sources.corpora_path.display().to_string(),
        })?;
    let second_name = match &args.second {
        Some(name) => name.clone(),
        None => second_reading(&corpus.oracle.name)
            .ok_or_else(|| {
                Error::InvalidArgument(format!(
                    "oracle `{}` has no second reading; name one with --second",
                    corpus.oracle.name
                ))
            })?
            .to_string(),
    };
    let first = adapter(&corpus.oracle.name)?;
    let second = adapter(&second_name)?;
    let bound = Duration::from_secs(args.sources.tool_timeout);
    let task = progress.task("crosscheck", 3);
    task.step(&format!("{} (fetch)", corpus.id));
    let root = crate::fetch_command::fetch_one(corpus, &args.sources.cache, bound)?;
    task.step(&format!("{} ({})", corpus.id, first.name()));
    let a = reading(first.as_ref(), corpus, &root, &args.sources.cache, bound)?;
    task.step(&format!("{} ({})", corpus.id, second.name()));
    let b = reading(second.as_ref(), corpus, &root, &args.sources.cache, bound)?;
    task.finish();
    let comparison = compare(&a, &b);
    let text = comparison.render(&corpus.id, &a, &b);
    out.write_all(text.as_bytes())
        .map_err(|e| Error::io(Path::new("<stdout>"), e))?;
    if let Some(dir) = &args.out {
        record_into(dir, comparison.record(&corpus.id, &a, &b), cap, out)?;
    }
    Ok(EXIT_OK)
}

/// Adds one record to DIR/measurements.json (replacing the same pair's) and
/// rewrites DIR's tables.
fn record_into(dir: &Path, record: CrosscheckRecord, cap: u64, out: &mut dyn Write) -> Result<()> {
    let path = dir.join("measurements.json");
    let measurements = match path.is_file() {
        true => Measurements::load(&path, cap)?,
        false => Measurements::new(Vec::new()),
    };
    let measurements = measurements.with_crosschecks([record]);
    for written in crate::outputs::write_outputs(&measurements, dir)? {
        out.write_all(format!("wrote {}\n", written.display()).as_bytes())
            .map_err(|e| Error::io(Path::new("<stdout>"), e))?;
    }
    Ok(())
}

/// The second readings already recorded in DIR/measurements.json, so that `harness
/// measure --out DIR` keeps them when it rewrites the file (none when there is no
/// readable file: a first measurement).
pub fn recorded(dir: &Path, cap: u64) -> Vec<CrosscheckRecord> {
    Measurements::load(&dir.join("measurements.json"), cap)
        .map(|m| m.crosschecks)
        .unwrap_or_default()
}

fn adapter(name: &str) -> Result<Box<dyn Oracle>> {
    oracle_named(name).ok_or_else(|| {
        Error::Outcome(Outcome::NotImplemented {
            tool: format!("oracle:{name}"),
            detail: "no adapter for this oracle".into(),
        })
    })
}

/// The options of a reading: those of the corpus's `other_oracles` entry naming it
/// (`express`'s jstrace), else the corpus oracle's.
fn reading_options<'a>(corpus: &'a CorpusEntry, name: &str) -> &'a serde_json::Value {
    corpus
        .other_oracles
        .iter()
        .find(|other| other.name == name)
        .map_or(&corpus.oracle.options, |other| &other.options)
}

/// One reading of the corpus, through the truth cache (keyed by the adapter's name
/// and version, so the two readings never share an entry).
fn reading(
    oracle: &dyn Oracle,
    corpus: &CorpusEntry,
    root: &Path,
    cache: &Path,
    bound: Duration,
) -> Result<Truth> {
    let toolchain = oracle.toolchain_version()?;
    let (truth, _) = crate::truth_cache::cached_truth(cache, corpus, oracle, &toolchain, || {
        let work = tempfile::tempdir().map_err(|e| Outcome::ToolFailed {
            tool: oracle.name().into(),
            detail: format!("no temporary directory: {e}"),
        })?;
        let build = serde_json::to_value(&corpus.build).expect("a build configuration serializes");
        let options = OracleOptions {
            corpus_id: &corpus.id,
            language: &corpus.language,
            options: reading_options(corpus, oracle.name()),
            build: &build,
            work_dir: work.path(),
            cache_dir: cache,
            timeout: bound,
        };
        oracle.run(root, &options)
    })?;
    Ok(truth)
}

/// What two readings say at one site.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Disagreement {
    pub file: String,
    pub line: u32,
    pub column: Option<u32>,
    pub name: String,
    pub first: Vec<TruthTarget>,
    pub second: Vec<TruthTarget>,
    pub kind: &'static str,
}

/// The comparison of two readings.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Comparison {
    /// Sites both readings judge.
    pub both: usize,
    pub agree: usize,
    /// Sites one reading judges and the other sets apart, leaves unjudged or lacks.
    pub first_only: BTreeMap<String, usize>,
    pub second_only: BTreeMap<String, usize>,
    pub disagreements: Vec<Disagreement>,
}

type Key = (String, u32, String);

fn group(truth: &Truth) -> BTreeMap<Key, Vec<&TruthSite>> {
    let mut groups: BTreeMap<Key, Vec<&TruthSite>> = BTreeMap::new();
    for site in &truth.sites {
        groups
            .entry((site.file.clone(), site.line, site.name.clone()))
            .or_default()
            .push(site);
    }
    for sites in groups.values_mut() {
        sites.sort_by_key(|s| s.column);
    }
    groups
}

/// Why a site is not judged, for the tallies (`implicit:macro`, `absent`).
fn status(site: Option<&TruthSite>) -> String {
    match site {
        None => "absent".into(),
        Some(s) => match (&s.implicit, &s.unjudged) {
            (Some(class), _) => format!("implicit:{class}"),
            (_, Some(reason)) => format!("unjudged:{reason}"),
            _ => "judged".into(),
        },
    }
}

/// Pairs the sites of one (file, line, name): equal columns first; then, where a
/// reading gives no column (bytecode), a line's calls of one name are compared as
/// multisets: judged sites naming the same targets pair first; the rest in column
/// order.
fn pair_up<'t>(
    a: &[&'t TruthSite],
    b: &[&'t TruthSite],
) -> Vec<(Option<&'t TruthSite>, Option<&'t TruthSite>)> {
    let mut used_b = vec![false; b.len()];
    let mut pairs = Vec::new();
    let mut left = Vec::new();
    for site in a {
        match (0..b.len()).find(|&k| !used_b[k] && b[k].column == site.column) {
            Some(k) => {
                used_b[k] = true;
                pairs.push((Some(*site), Some(b[k])));
            }
            None => left.push(*site),
        }
    }
    let mut unmatched = Vec::new();
    for site in left {
        let same = (0..b.len()).find(|&k| {
            !used_b[k]
                && (site.column.is_none() || b[k].column.is_none())
                && status(Some(site)) == "judged"
                && status(Some(b[k])) == "judged"
                && disagreement_kind(site, b[k]).is_none()
        });
        match same {
            Some(k) => {
                used_b[k] = true;
                pairs.push((Some(site), Some(b[k])));
            }
            None => unmatched.push(site),
        }
    }
    let mut rest_b = (0..b.len()).filter(|&k| !used_b[k]);
    for site in unmatched {
        pairs.push((Some(site), rest_b.next().map(|k| b[k])));
    }
    pairs.extend(rest_b.map(|k| (None, Some(b[k]))));
    pairs
}

fn in_tree_set(site: &TruthSite) -> BTreeSet<(&str, u32)> {
    site.in_tree_targets().collect()
}

/// Compares two readings of one corpus.
pub fn compare(first: &Truth, second: &Truth) -> Comparison {
    let ga = group(first);
    let gb = group(second);
    let keys: BTreeSet<&Key> = ga.keys().chain(gb.keys()).collect();
    let mut c = Comparison::default();
    for key in keys {
        let a = ga.get(key).map(Vec::as_slice).unwrap_or(&[]);
        let b = gb.get(key).map(Vec::as_slice).unwrap_or(&[]);
        for (x, y) in pair_up(a, b) {
            let (sx, sy) = (status(x), status(y));
            match (sx.as_str(), sy.as_str()) {
                ("judged", "judged") => {}
                ("judged", _) => {
                    *c.first_only.entry(sy).or_default() += 1;
                    continue;
                }
                (_, "judged") => {
                    *c.second_only.entry(sx).or_default() += 1;
                    continue;
                }
                _ => continue,
            }
            let (x, y) = (x.expect("judged"), y.expect("judged"));
            c.both += 1;
            match disagreement_kind(x, y) {
                None => c.agree += 1,
                Some(kind) => c.disagreements.push(Disagreement {
                    file: x.file.clone(),
                    line: x.line,
                    column: x.column,
                    name: x.name.clone(),
                    first: x.targets.clone(),
                    second: y.targets.clone(),
                    kind,
                }),
            }
        }
    }
    c
}

/// How two judged sites differ, if they do.
fn disagreement_kind(x: &TruthSite, y: &TruthSite) -> Option<&'static str> {
    let (tx, ty) = (in_tree_set(x), in_tree_set(y));
    match (tx.is_empty(), ty.is_empty()) {
        (true, true) => None,
        (false, true) => Some("in_tree_against_outside"),
        (true, false) => Some("outside_against_in_tree"),
        (false, false) if tx == ty || tx.is_subset(&ty) || ty.is_subset(&tx) => None,
        (false, false) => Some("other_declaration"),
    }
}

fn render_targets(targets: &[TruthTarget]) -> String {
    let shown: Vec<String> = targets
        .iter()
        .map(|t| match t {
            TruthTarget::InTree { file, line } => format!("{file}:{line}"),
            TruthTarget::Outside { symbol } => format!("outside {symbol}"),
        })
        .collect();
    shown.join(", ")
}

impl Comparison {
    pub fn rate(&self) -> Option<f64> {
        (self.both > 0).then(|| self.agree as f64 / self.both as f64)
    }

    /// The comparison as the `crosschecks` section of measurements.json keeps it.
    pub fn record(&self, corpus: &str, first: &Truth, second: &Truth) -> CrosscheckRecord {
        let stamp = |t: &Truth| NameVersion {
            name: t.oracle.name.clone(),
            version: format!("{} (adapter {})", t.oracle.version, t.oracle.adapter),
        };
        let mut disagreements = BTreeMap::new();
        for d in &self.disagreements {
            *disagreements.entry(d.kind.to_string()).or_default() += 1;
        }
        let total = |m: &BTreeMap<String, usize>| m.values().sum::<usize>() as u64;
        CrosscheckRecord {
            corpus: corpus.to_string(),
            first: stamp(first),
            second: stamp(second),
            both: self.both as u64,
            agree: self.agree as u64,
            disagreements,
            first_only: total(&self.first_only),
            second_only: total(&self.second_only),
        }
    }

    pub fn render(&self, corpus: &str, first: &Truth, second: &Truth) -> String {
        let name = |t: &Truth| {
            format!(
                "{} {} (adapter {})",
                t.oracle.name, t.oracle.version, t.oracle.adapter
            )
        };
        let mut s = format!(
            "crosscheck {corpus}: {} against {}\n",
            name(first),
            name(second)
        );
        let rate = self
            .rate()
            .map_or("—".to_string(), |r| format!("{:.1}%", r * 100.0));
        s.push_str(&format!(
            "sites both judge: {}; agree: {} ({rate}); disagree: {}\n",
            self.both,
            self.agree,
            self.disagreements.len()
        ));
        // What the other reading said at each site only one judges; nothing
        // is printed when there is no such site.
        let tally = |m: &BTreeMap<String, usize>| {
            if m.is_empty() {
                return String::new();
            }
            let parts: Vec<String> = m.iter().map(|(k, v)| format!("{k} {v}")).collect();
            format!(" (the other: {})", parts.join(", "))
        };
        s.push_str(&format!(
            "judged by {} only{}: {}\n",
            first.oracle.name,
            tally(&self.first_only),
            self.first_only.values().sum::<usize>()
        ));
        s.push_str(&format!(
            "judged by {} only{}: {}\n",
            second.oracle.name,
            tally(&self.second_only),
            self.second_only.values().sum::<usize>()
        ));
        let mut kinds: BTreeMap<&str, usize> = BTreeMap::new();
        for d in &self.disagreements {
            *kinds.entry(d.kind).or_default() += 1;
        }
        for (kind, n) in &kinds {
            s.push_str(&format!("disagreements {kind}: {n}\n"));
        }
        for d in &self.disagreements {
            s.push_str(&format!(
                "  {}:{}:{} {} [{}]: {} → {} | {} → {}\n",
                d.file,
                d.line,
                d.column.unwrap_or(0),
                d.name,
                d.kind,
                first.oracle.name,
                render_targets(&d.first),
                second.oracle.name,
                render_targets(&d.second)
            ));
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use oracles::{OracleStamp, TRUTH_SCHEMA};

    fn truth(name: &str, sites: Vec<TruthSite>) -> Truth {
        Truth {
            schema: TRUTH_SCHEMA.into(),
            corpus: "c".into(),
            oracle: OracleStamp::at_name(name, "1".into(), "1"),
            shape: None,
            sites,
            references: None,
            pairs: vec![],
        }
    }

    fn site(line: u32, column: u32, name: &str, targets: Vec<TruthTarget>) -> TruthSite {
        TruthSite {
            file: "src/a.rs".into(),
            line,
            column: Some(column),
            caller: None,
            name: name.into(),
            targets,
            unjudged: None,
            implicit: None,
            expect: None,
            primary: false,
        }
    }

    fn at(line: u32) -> TruthTarget {
        TruthTarget::InTree {
            file: "src/b.rs".into(),
            line,
        }
    }

    fn out() -> TruthTarget {
        TruthTarget::Outside {
            symbol: "core::x".into(),
        }
    }

    #[test]
    fn readings_agree_on_targets_and_disagreements_are_listed() {
        let mut set_apart = site(4, 1, "drop", vec![]);
        set_apart.implicit = Some("drop".into());
        let a = truth(
            "thir",
            vec![
                site(1, 5, "f", vec![at(10)]),
                site(2, 5, "g", vec![out()]),
                site(3, 5, "h", vec![at(20)]),
                site(3, 9, "h", vec![at(21)]),
                site(5, 5, "k", vec![at(30)]),
            ],
        );
        let b = truth(
            "ir",
            vec![
                site(1, 5, "f", vec![at(10), at(11)]),
                site(2, 5, "g", vec![out()]),
                site(3, 5, "h", vec![at(22)]),
                site(3, 9, "h", vec![out()]),
                set_apart,
            ],
        );
        let c = compare(&a, &b);
        assert_eq!((c.both, c.agree), (4, 2));
        assert_eq!(c.disagreements.len(), 2);
        assert_eq!(c.disagreements[0].kind, "other_declaration");
        assert_eq!(c.disagreements[1].kind, "in_tree_against_outside");
        assert_eq!(c.first_only.get("absent"), Some(&1));
        assert!(c.second_only.is_empty());
        let text = c.render("c", &a, &b);
        assert!(
            text.contains("sites both judge: 4; agree: 2 (50.0%); disagree: 2"),
            "{text}"
        );
        assert!(
            text.contains("src/a.rs:3:9 h [in_tree_against_outside]"),
            "{text}"
        );
        let record = c.record("c", &a, &b);
        assert_eq!((record.both, record.agree, record.first_only), (4, 2, 1));
        assert_eq!(record.disagreements.get("other_declaration"), Some(&1));
        let md = crate::tables::render_markdown(
            &Measurements::new(vec![]).with_crosschecks([record.clone(), record]),
        );
        assert!(md.contains("## Second readings"), "{md}");
        assert!(
            md.contains("| c | thir 1 (adapter 1) | ir 1 (adapter 1) | 4 | 2 | 50.0% | in_tree_against_outside 1, other_declaration 1 | 1 | 0 |"),
            "{md}"
        );
        assert_eq!(md.matches("| c | thir").count(), 1, "one record per pair");
    }

    #[test]
    fn a_reading_without_columns_is_compared_as_a_multiset_per_line_and_name() {
        let no_column = |targets| {
            let mut s = site(7, 1, "f", targets);
            s.column = None;
            s
        };
        // `f(f(x))`: the source's order is outer then inner; the bytecode's the reverse.
        let a = truth(
            "javac",
            vec![site(7, 5, "f", vec![at(10)]), site(7, 7, "f", vec![at(20)])],
        );
        let b = truth(
            "bytecode",
            vec![no_column(vec![at(20)]), no_column(vec![at(10)])],
        );
        let c = compare(&a, &b);
        assert_eq!((c.both, c.agree), (2, 2), "{:?}", c.disagreements);
        let b = truth("bytecode", vec![no_column(vec![at(30)])]);
        let c = compare(&a, &b);
        assert_eq!((c.both, c.agree), (1, 0));
        assert_eq!(c.first_only.get("absent"), Some(&1));
    }

    #[test]
    fn every_named_second_reading_is_an_adapter() {
        for oracle in [
            "rustc", "gotypes", "clang", "tsc", "gnat", "javac", "kotlinc", "pytrace", "mcs",
        ] {
            let second = second_reading(oracle).unwrap();
            assert!(oracles::oracle_named(second).is_some(), "{second}");
        }
        assert_eq!(second_reading("pytrace"), Some("scip-python"));
        assert_eq!(second_reading("mcs"), Some("mcs-il"));
    }

    #[test]
    fn recorded_crosschecks_survive_a_rewrite_of_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let stamp = |name: &str| NameVersion {
            name: name.into(),
            version: "1".into(),
        };
        let record = CrosscheckRecord {
            corpus: "c".into(),
            first: stamp("a"),
            second: stamp("b"),
            both: 3,
            agree: 3,
            ..CrosscheckRecord::default()
        };
        assert!(recorded(dir.path(), 1 << 20).is_empty());
        let mut sink = Vec::new();
        record_into(dir.path(), record.clone(), 1 << 20, &mut sink).unwrap();
        assert_eq!(recorded(dir.path(), 1 << 20), vec![record]);
        let md = std::fs::read_to_string(dir.path().join("MEASUREMENTS.md")).unwrap();
        assert!(
            md.contains("| c | a 1 | b 1 | 3 | 3 | 100.0% | 0 | 0 | 0 |"),
            "{md}"
        );
    }
}
