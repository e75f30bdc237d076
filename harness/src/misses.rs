//! `harness misses`: every declined, missed, overload-unnamed and wrong site of the
//! measured corpora, grouped by **shape** — what the engine said (its typed reason,
//! or the family of a wrong answer), the callee's structure and what its first
//! written name is (the report's `receiver`, docs/REPORT.md), and what the oracle's
//! target is (the kind of the declaration at its target, or outside) — with counts
//! per corpus, each count's share of the corpus's judged sites, and three examples.
//!
//! It reads the report and the truth as JSON documents, like the scorer, and the
//! verdicts are the scorer's own (`score::judge_sites`), so a shape's counts add up
//! to the figures of `harness measure`.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write;
use std::path::{Path, PathBuf};

use oracles::{TruthSite, TruthTarget};
use serde::Serialize;

use crate::pairing::pair_sites;
use crate::pipeline::Prepared;
use crate::report::{Call, Report, Resolution};
use crate::score::{judge_sites, EntityIndex, JudgedSite, SiteKind, TruthCategory, Verdict};
use crate::tables::{cell, header, language_family};

/// The schema string of `harness misses --json`.
pub const MISSES_SCHEMA: &str = "misses/1";

/// Examples shown per shape unless `--examples` says otherwise.
pub const EXAMPLES_PER_SHAPE: usize = 3;

/// A source line longer than this is cut (at a character boundary) in examples.
const SOURCE_LINE_CHARS: usize = 160;

/// What `harness misses` prints: the corpora read, then the shapes per language.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Misses {
    pub schema: &'static str,
    pub corpora: Vec<CorpusLine>,
    pub languages: Vec<LanguageShapes>,
}

/// One corpus: how many sites it judged, and how many it lists here.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CorpusLine {
    pub id: String,
    /// The language the corpus is summarised under (`tsx` reads as `typescript`).
    pub language: String,
    /// Why the corpus has no sites here (a tool outcome, a pair-only truth).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outcome: Option<String>,
    pub judged_in_tree: u64,
    pub judged_outside: u64,
    /// Sites grouped below: declined, missed, overload_unnamed and every wrong verdict.
    pub listed: u64,
}

/// The shapes of one language, largest first.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LanguageShapes {
    pub language: String,
    /// The corpora of the language that have sites, in id order (the table's columns).
    pub corpora: Vec<String>,
    pub shapes: Vec<ShapeLine>,
}

/// What groups sites: the verdict, what the engine said, the callee's structure,
/// what its first name is, and the oracle's target.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct Shape {
    /// `declined`, `missed`, `overload_unnamed`, `wrong`, `wrong_overload`,
    /// `false_outside`, `false_in_tree`.
    pub verdict: String,
    /// The engine's typed reason where it abstained, the family of its answer where
    /// it answered, `—` where it reported no site.
    pub engine: String,
    /// The report's `receiver.callee`, `—` without a site (or an older report).
    pub callee: String,
    /// The report's `receiver.kind`, with `+N` for N member reads after it (`+2…`
    /// for two or more).
    pub receiver: String,
    /// The kind of the declaration at the oracle's target (`function`, `method`,
    /// `constructor`, `class`…; `undeclared` where the report has none there, kinds
    /// joined by `|` where targets differ), or `outside`.
    pub target: String,
}

/// One shape of one language.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ShapeLine {
    #[serde(flatten)]
    pub shape: Shape,
    pub total: u64,
    /// Corpus id → its count and the count's share of its judged sites.
    pub per_corpus: BTreeMap<String, CorpusCount>,
    pub examples: Vec<Example>,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct CorpusCount {
    pub count: u64,
    /// count / the corpus's judged sites of the same truth: judged in-tree sites
    /// (coverage's denominator) for in-tree truths, judged outside sites otherwise.
    pub share: Option<f64>,
}

/// One site of a shape, as a reader checks it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Example {
    pub corpus: String,
    pub file: String,
    pub line: u32,
    /// The source line, trimmed (empty when the file could not be read).
    pub source: String,
    pub engine: String,
    pub oracle: String,
}

/// One corpus's listed sites, before grouping.
#[derive(Debug, Clone, PartialEq)]
pub struct CorpusMisses {
    pub line: CorpusLine,
    /// The tree the report's and the truth's paths are relative to.
    pub root: PathBuf,
    pub sites: Vec<MissSite>,
    /// Judged sites per truth category, the shares' denominators.
    judged: BTreeMap<TruthCategory, u64>,
}

/// One listed site.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct MissSite {
    pub shape: Shape,
    pub truth: TruthCategory,
    pub file: String,
    pub line: u32,
    pub column: Option<u32>,
    pub engine: String,
    pub oracle: String,
}

/// Whether a verdict is one `misses` lists.
pub fn is_listed(verdict: Verdict) -> bool {
    matches!(
        verdict,
        Verdict::Declined | Verdict::Missed | Verdict::OverloadUnnamed
    ) || verdict.is_wrong()
}

/// A corpus with nothing to read: its line says why.
pub fn without_sites(id: &str, language: &str, outcome: String) -> CorpusMisses {
    CorpusMisses {
        line: CorpusLine {
            id: id.to_string(),
            language: language_family(language).to_string(),
            outcome: Some(outcome),
            judged_in_tree: 0,
            judged_outside: 0,
            listed: 0,
        },
        root: PathBuf::new(),
        sites: Vec::new(),
        judged: BTreeMap::new(),
    }
}

/// Pairs and judges one corpus exactly as the scorer does, and keeps the sites
/// `misses` lists with their shapes and answers.
pub fn collect(id: &str, language: &str, prepared: &Prepared) -> CorpusMisses {
    let Prepared {
        report,
        truth,
        root,
        options,
    } = prepared;
    let index = EntityIndex::new(report);
    let declared = Declared::of(report);
    let unit = truth.oracle.column;
    let mut judged_sites: Vec<JudgedSite<'_>> = Vec::new();
    let call_pairing = pair_sites(&report.calls, &truth.sites, unit, options.names);
    judged_sites.extend(judge_sites(
        SiteKind::Call,
        &report.calls,
        &truth.sites,
        &call_pairing,
        &index,
    ));
    if let Some(references) = &truth.references {
        let pairing = pair_sites(&report.references, references, unit, options.names);
        judged_sites.extend(judge_sites(
            SiteKind::Reference,
            &report.references,
            references,
            &pairing,
            &index,
        ));
    }
    let mut judged: BTreeMap<TruthCategory, u64> = BTreeMap::new();
    let mut sites = Vec::new();
    for j in &judged_sites {
        if j.record.verdict == Verdict::AcceptableAbstention {
            continue;
        }
        *judged.entry(j.record.truth).or_default() += 1;
        if is_listed(j.record.verdict) {
            sites.push(miss_site(j, &declared));
        }
    }
    sites.sort();
    CorpusMisses {
        line: CorpusLine {
            id: id.to_string(),
            language: language_family(language).to_string(),
            outcome: None,
            judged_in_tree: judged.get(&TruthCategory::InTree).copied().unwrap_or(0),
            judged_outside: judged.get(&TruthCategory::Outside).copied().unwrap_or(0),
            listed: sites.len() as u64,
        },
        root: root.clone(),
        sites,
        judged,
    }
}

/// The report's declarations by the position of their name: what the oracle's
/// target is, and what it is called.
struct Declared<'a> {
    at: HashMap<(&'a str, u32), (&'a str, &'a str)>,
}

impl<'a> Declared<'a> {
    fn of(report: &'a Report) -> Declared<'a> {
        let mut at = HashMap::new();
        for e in &report.entities {
            at.entry((e.file.as_str(), e.line))
                .or_insert((e.kind.as_str(), e.qualified_name.as_str()));
        }
        Declared { at }
    }

    fn kind(&self, file: &str, line: u32) -> &'a str {
        self.at.get(&(file, line)).map_or("undeclared", |(k, _)| k)
    }

    fn name(&self, file: &str, line: u32) -> Option<&'a str> {
        self.at.get(&(file, line)).map(|(_, n)| *n)
    }
}

fn miss_site(judged: &JudgedSite<'_>, declared: &Declared<'_>) -> MissSite {
    let JudgedSite {
        site,
        partner,
        record,
    } = judged;
    let (callee, receiver) = match partner.and_then(|c| c.receiver.as_ref()) {
        Some(r) => (r.callee.clone(), receiver_label(&r.kind, r.depth)),
        None => ("—".to_string(), "—".to_string()),
    };
    MissSite {
        shape: Shape {
            verdict: record.verdict.token().to_string(),
            engine: what_the_engine_said(*partner),
            callee,
            receiver,
            target: target_kind(site, record.truth, declared),
        },
        truth: record.truth,
        file: record.file.clone(),
        line: record.line,
        column: record.column,
        engine: engine_answer(*partner),
        oracle: oracle_answer(site, declared),
    }
}

/// `parameter`, `parameter+1`, `field+2…`: the kind, and the member reads after it.
pub fn receiver_label(kind: &str, depth: u32) -> String {
    match depth {
        0 => kind.to_string(),
        1 => format!("{kind}+1"),
        _ => format!("{kind}+2…"),
    }
}

/// The engine's typed reason where it abstained, the family where it answered.
fn what_the_engine_said(partner: Option<&Call>) -> String {
    let Some(call) = partner else {
        return "—".to_string();
    };
    let word = if call.resolution.is_answer() {
        call.placed_by.as_deref()
    } else {
        call.reason.as_deref()
    };
    word.unwrap_or("—").to_string()
}

fn target_kind(site: &TruthSite, truth: TruthCategory, declared: &Declared<'_>) -> String {
    match truth {
        TruthCategory::Outside => "outside".to_string(),
        TruthCategory::Abstain => "abstain".to_string(),
        TruthCategory::InTree => {
            let mut kinds: Vec<&str> = site
                .in_tree_targets()
                .map(|(file, line)| declared.kind(file, line))
                .collect();
            kinds.sort_unstable();
            kinds.dedup();
            kinds.join("|")
        }
    }
}

/// The engine's answer at the site, for a reader.
fn engine_answer(partner: Option<&Call>) -> String {
    let Some(call) = partner else {
        return "no site".to_string();
    };
    let family = call.placed_by.as_deref().unwrap_or("?");
    match call.resolution {
        Resolution::InTree => {
            let target = call
                .target
                .as_ref()
                .map_or("?", |t| t.qualified_name.as_str());
            match call.declaration_line {
                Some(line) => format!("{target} (line {line}) [{family}]"),
                None => format!("{target} [{family}]"),
            }
        }
        Resolution::Outside => {
            let symbol = call.outside.as_ref().map_or("?", |o| o.symbol.as_str());
            format!("outside {symbol} [{family}]")
        }
        Resolution::Unresolved | Resolution::Undetermined => {
            let word = if call.resolution == Resolution::Unresolved {
                "unresolved"
            } else {
                "undetermined"
            };
            let reason = call.reason.as_deref().unwrap_or("?");
            match &call.may_reach {
                Some(set) => format!("{word} ({reason}, may reach {})", set.targets.len()),
                None => format!("{word} ({reason})"),
            }
        }
    }
}

/// What the oracle says the site reaches: declarations by name where the report
/// declares them, else by position; outside symbols.
fn oracle_answer(site: &TruthSite, declared: &Declared<'_>) -> String {
    let named: Vec<(Option<&str>, String)> = site
        .targets
        .iter()
        .map(|t| match t {
            TruthTarget::InTree { file, line } => match declared.name(file, *line) {
                Some(name) => (Some(name), format!("{name} (line {line})")),
                None => (None, format!("{file}:{line}")),
            },
            TruthTarget::Outside { symbol } if symbol.is_empty() => (None, "outside".into()),
            TruthTarget::Outside { symbol } => (None, format!("outside {symbol}")),
        })
        .collect();
    // A declaration's line is said only where its name does not tell it apart.
    let shared = |name: &str| named.iter().filter(|(n, _)| *n == Some(name)).count() > 1;
    let answers: Vec<String> = named
        .iter()
        .map(|(name, text)| match name {
            Some(name) if !shared(name) => name.to_string(),
            _ => text.clone(),
        })
        .collect();
    match answers.len() {
        0 => "abstain".to_string(),
        1..=3 => answers.join(", "),
        n => format!("{}, … ({n} targets)", answers[..3].join(", ")),
    }
}

/// Groups the corpora's sites by language and shape; examples are read from each
/// corpus's tree.
pub fn group(corpora: Vec<CorpusMisses>, examples: usize) -> Misses {
    let mut corpora = corpora;
    corpora.sort_by(|a, b| a.line.id.cmp(&b.line.id));
    let mut by_language: BTreeMap<String, Vec<&CorpusMisses>> = BTreeMap::new();
    for corpus in corpora.iter().filter(|c| c.line.outcome.is_none()) {
        by_language
            .entry(corpus.line.language.clone())
            .or_default()
            .push(corpus);
    }
    let mut sources = SourceLines::default();
    let languages = by_language
        .into_iter()
        .map(|(language, members)| language_shapes(language, &members, examples, &mut sources))
        .collect();
    Misses {
        schema: MISSES_SCHEMA,
        corpora: corpora.into_iter().map(|c| c.line).collect(),
        languages,
    }
}

fn language_shapes(
    language: String,
    members: &[&CorpusMisses],
    examples: usize,
    sources: &mut SourceLines,
) -> LanguageShapes {
    let mut shapes: BTreeMap<&Shape, Vec<(&CorpusMisses, &MissSite)>> = BTreeMap::new();
    for corpus in members {
        for site in &corpus.sites {
            shapes.entry(&site.shape).or_default().push((corpus, site));
        }
    }
    let mut lines: Vec<ShapeLine> = shapes
        .into_iter()
        .map(|(shape, sites)| shape_line(shape, &sites, examples, sources))
        .collect();
    // Largest first; equal counts in shape order, so the table is deterministic.
    lines.sort_by(|a, b| b.total.cmp(&a.total).then_with(|| a.shape.cmp(&b.shape)));
    LanguageShapes {
        language,
        corpora: members.iter().map(|c| c.line.id.clone()).collect(),
        shapes: lines,
    }
}

fn shape_line(
    shape: &Shape,
    sites: &[(&CorpusMisses, &MissSite)],
    examples: usize,
    sources: &mut SourceLines,
) -> ShapeLine {
    let mut per_corpus: BTreeMap<String, CorpusCount> = BTreeMap::new();
    for (corpus, site) in sites {
        let entry = per_corpus
            .entry(corpus.line.id.clone())
            .or_insert(CorpusCount {
                count: 0,
                share: None,
            });
        entry.count += 1;
        let judged = corpus.judged.get(&site.truth).copied().unwrap_or(0);
        entry.share = (judged > 0).then(|| round6(entry.count as f64 / judged as f64));
    }
    let examples = choose_examples(sites, examples)
        .into_iter()
        .map(|(corpus, site)| Example {
            corpus: corpus.line.id.clone(),
            file: site.file.clone(),
            line: site.line,
            source: sources.line(&corpus.root, &site.file, site.line),
            engine: site.engine.clone(),
            oracle: site.oracle.clone(),
        })
        .collect();
    ShapeLine {
        shape: shape.clone(),
        total: sites.len() as u64,
        per_corpus,
        examples,
    }
}

fn round6(value: f64) -> f64 {
    (value * 1e6).round() / 1e6
}

/// `limit` examples, taken in turn from each corpus (in id order) so a shape that
/// several corpora share shows several; within a corpus, in site order.
pub fn choose_examples<'a>(
    sites: &[(&'a CorpusMisses, &'a MissSite)],
    limit: usize,
) -> Vec<(&'a CorpusMisses, &'a MissSite)> {
    let mut per_corpus: BTreeMap<&str, Vec<(&'a CorpusMisses, &'a MissSite)>> = BTreeMap::new();
    for &(corpus, site) in sites {
        per_corpus
            .entry(corpus.line.id.as_str())
            .or_default()
            .push((corpus, site));
    }
    for list in per_corpus.values_mut() {
        list.sort_by(|a, b| a.1.cmp(b.1));
    }
    let mut chosen = Vec::new();
    for round in 0.. {
        let before = chosen.len();
        for list in per_corpus.values() {
            if chosen.len() == limit {
                return chosen;
            }
            if let Some(&pick) = list.get(round) {
                chosen.push(pick);
            }
        }
        if chosen.len() == before {
            break;
        }
    }
    chosen
}

/// Source lines read from the corpus trees, each file read once.
#[derive(Default)]
struct SourceLines {
    files: HashMap<PathBuf, Vec<String>>,
}

impl SourceLines {
    fn line(&mut self, root: &Path, file: &str, line: u32) -> String {
        let path = root.join(file);
        let lines = self.files.entry(path).or_insert_with_key(|path| {
            std::fs::read(path)
                .map(|bytes| {
                    String::from_utf8_lossy(&bytes)
                        .lines()
                        .map(str::to_string)
                        .collect()
                })
                .unwrap_or_default()
        });
        let text = lines
            .get((line as usize).wrapping_sub(1))
            .map_or("", |l| l.trim());
        cut(text, SOURCE_LINE_CHARS)
    }
}

fn cut(text: &str, chars: usize) -> String {
    match text.char_indices().nth(chars) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_string(),
    }
}

/// The JSON text of `--json`.
pub fn to_json(misses: &Misses) -> String {
    let mut text = serde_json::to_string_pretty(misses).expect("misses serialize");
    text.push('\n');
    text
}

/// The markdown `harness misses` prints.
pub fn render_markdown(misses: &Misses) -> String {
    let mut md = String::from("# Misses by shape\n\n");
    md.push_str(
        "Every declined, missed, overload-unnamed and wrong site, grouped by shape: the verdict; \
         what the engine said (its reason, or the family of a wrong answer); the callee's \
         structure and what its first written name is (the report's `receiver`); and the kind \
         of the oracle's target. A count's share is of the corpus's judged sites of the same \
         truth (in-tree sites: coverage's denominator).\n\n",
    );
    render_corpora(&mut md, &misses.corpora);
    for language in &misses.languages {
        render_language(&mut md, language);
    }
    md
}

fn render_corpora(md: &mut String, corpora: &[CorpusLine]) {
    md.push_str("## Corpora\n\n");
    md.push_str(&header(&[
        "corpus",
        "language",
        "judged in-tree",
        "judged outside",
        "listed",
        "note",
    ]));
    for c in corpora {
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | {} | {} |",
            cell(&c.id),
            cell(&c.language),
            c.judged_in_tree,
            c.judged_outside,
            c.listed,
            cell(c.outcome.as_deref().unwrap_or(""))
        );
    }
    md.push('\n');
}

fn render_language(md: &mut String, language: &LanguageShapes) {
    let _ = writeln!(md, "## {}\n", language.language);
    if language.shapes.is_empty() {
        md.push_str("Nothing declined, missed or wrong.\n\n");
        return;
    }
    let mut columns = vec!["#", "verdict", "engine", "callee", "receiver", "target"];
    columns.extend(language.corpora.iter().map(String::as_str));
    columns.push("total");
    md.push_str(&header(&columns));
    for (i, line) in language.shapes.iter().enumerate() {
        let s = &line.shape;
        let mut cells = vec![
            (i + 1).to_string(),
            cell(&s.verdict),
            cell(&s.engine),
            cell(&s.callee),
            cell(&s.receiver),
            cell(&s.target),
        ];
        for corpus in &language.corpora {
            cells.push(match line.per_corpus.get(corpus) {
                Some(c) => format!("{} ({})", c.count, crate::tables::percent(c.share)),
                None => String::new(),
            });
        }
        cells.push(line.total.to_string());
        let _ = writeln!(md, "| {} |", cells.join(" | "));
    }
    md.push('\n');
    let _ = writeln!(md, "### {} examples\n", language.language);
    for (i, line) in language.shapes.iter().enumerate() {
        let s = &line.shape;
        let _ = writeln!(
            md,
            "{}. {} · {} · {} · {} · {} ({})",
            i + 1,
            s.verdict,
            s.engine,
            s.callee,
            s.receiver,
            s.target,
            line.total
        );
        for e in &line.examples {
            let _ = writeln!(
                md,
                "   - {} `{}:{}` {} — engine: {}; oracle: {}",
                e.corpus,
                e.file,
                e.line,
                code(&e.source),
                e.engine,
                e.oracle
            );
        }
    }
    md.push('\n');
}

/// Inline code that survives backticks in the source.
fn code(text: &str) -> String {
    if text.is_empty() {
        return "(source not read)".to_string();
    }
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    let pad = if text.starts_with('`') || text.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{text}{pad}{fence}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::ReceiverShape;
    use crate::score::ScoreOptions;
    use crate::testkit::*;

    fn method(id: u64, name: &str, line: u32) -> crate::report::Entity {
        let mut e = entity(id, name, "a.py", line);
        e.kind = "method".into();
        e
    }

    fn with_receiver(mut call: Call, callee: &str, kind: &str, depth: u32) -> Call {
        call.receiver = Some(ReceiverShape {
            callee: callee.into(),
            kind: kind.into(),
            depth,
        });
        call
    }

    /// A corpus whose a.py has `declined` parameter-receiver calls on lines
    /// `declined`, a wrong answer on line 20, a right one on 21, a missed site on 22
    /// and a declined outside call on 23; its tree holds a.py, one line per line.
    fn corpus(id: &str, declined: &[u32]) -> (Prepared, tempfile::TempDir) {
        let dir = tempfile::tempdir().unwrap();
        let source: String = (1..=30).map(|n| format!("  line {n} of {id}\n")).collect();
        std::fs::write(dir.path().join("a.py"), source).unwrap();
        let mut calls: Vec<Call> = declined
            .iter()
            .map(|&l| with_receiver(call(l, Some(5), "m"), "path", "parameter", 0))
            .collect();
        calls.push(with_receiver(
            call(20, Some(5), "m").to("unique_name", "a.py::B::m", "a.py", 51),
            "path",
            "local",
            1,
        ));
        calls.push(call(21, Some(5), "m").to("written_type", "a.py::A::m", "a.py", 50));
        calls.push(call(23, Some(5), "len"));
        let mut sites: Vec<TruthSite> = declined
            .iter()
            .map(|&l| site(l, Some(5), "m", &[("a.py", 50)]))
            .collect();
        sites.push(site(20, Some(5), "m", &[("a.py", 50)]));
        sites.push(site(21, Some(5), "m", &[("a.py", 50)]));
        sites.push(site(22, Some(5), "m", &[("a.py", 52)]));
        sites.push(outside_site(23, Some(5), "len"));
        let report = report(
            vec![method(1, "a.py::A::m", 50), method(2, "a.py::B::m", 51)],
            calls,
        );
        let prepared = Prepared {
            report,
            truth: truth(sites),
            root: dir.path().to_path_buf(),
            options: ScoreOptions::default(),
        };
        (prepared, dir)
    }

    fn shape(verdict: &str, engine: &str, callee: &str, receiver: &str, target: &str) -> Shape {
        Shape {
            verdict: verdict.into(),
            engine: engine.into(),
            callee: callee.into(),
            receiver: receiver.into(),
            target: target.into(),
        }
    }

    #[test]
    fn sites_are_grouped_by_shape_with_counts_and_shares_per_corpus() {
        let (one, _d1) = corpus("one", &[1, 2, 3]);
        let (two, _d2) = corpus("two", &[4, 5]);
        let misses = group(
            vec![
                collect("two", "python", &two),
                collect("one", "python", &one),
            ],
            EXAMPLES_PER_SHAPE,
        );
        let ids: Vec<&str> = misses.corpora.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(ids, ["one", "two"]);
        // one: 3 declined + wrong + right + missed in-tree; the outside call declined.
        assert_eq!(misses.corpora[0].judged_in_tree, 6);
        assert_eq!(misses.corpora[0].judged_outside, 1);
        assert_eq!(misses.corpora[0].listed, 6);
        let [python] = misses.languages.as_slice() else {
            panic!("one language: {:?}", misses.languages)
        };
        assert_eq!(python.corpora, ["one", "two"]);
        let table: Vec<(Shape, u64)> = python
            .shapes
            .iter()
            .map(|s| (s.shape.clone(), s.total))
            .collect();
        assert_eq!(
            table,
            [
                (
                    shape(
                        "declined",
                        "receiver_type_unknown",
                        "path",
                        "parameter",
                        "method"
                    ),
                    5
                ),
                (
                    shape("declined", "receiver_type_unknown", "—", "—", "outside"),
                    2
                ),
                (shape("missed", "—", "—", "—", "undeclared"), 2),
                (
                    shape("wrong", "unique_name", "path", "local+1", "method"),
                    2
                ),
            ]
        );
        let largest = &python.shapes[0];
        assert_eq!(largest.per_corpus["one"].count, 3);
        assert_eq!(largest.per_corpus["one"].share, Some(0.5));
        assert_eq!(largest.per_corpus["two"].count, 2);
        assert_eq!(largest.per_corpus["two"].share, Some(0.4));
        // The outside shape's share is of the judged outside sites.
        assert_eq!(python.shapes[1].per_corpus["one"].share, Some(1.0));
    }

    #[test]
    fn examples_alternate_between_corpora_in_site_order_with_their_source_lines() {
        let (one, _d1) = corpus("one", &[3, 1, 2]);
        let (two, _d2) = corpus("two", &[5, 4]);
        let misses = group(
            vec![
                collect("one", "python", &one),
                collect("two", "python", &two),
            ],
            EXAMPLES_PER_SHAPE,
        );
        let examples = &misses.languages[0].shapes[0].examples;
        let picked: Vec<(&str, u32, &str)> = examples
            .iter()
            .map(|e| (e.corpus.as_str(), e.line, e.source.as_str()))
            .collect();
        assert_eq!(
            picked,
            [
                ("one", 1, "line 1 of one"),
                ("two", 4, "line 4 of two"),
                ("one", 2, "line 2 of one"),
            ]
        );
        assert_eq!(examples[0].engine, "undetermined (receiver_type_unknown)");
        assert_eq!(examples[0].oracle, "a.py::A::m");
        let wrong = &misses.languages[0].shapes[3].examples[0];
        assert_eq!(wrong.engine, "a.py::B::m [unique_name]");
        let missed = &misses.languages[0].shapes[2].examples[0];
        assert_eq!(
            (missed.engine.as_str(), missed.oracle.as_str()),
            ("no site", "a.py:52")
        );
    }

    #[test]
    fn a_larger_example_count_shows_every_site_of_a_shape_and_no_more() {
        let (one, _d1) = corpus("one", &[3, 1, 2]);
        let (two, _d2) = corpus("two", &[5, 4]);
        let lines = |limit| {
            let misses = group(
                vec![
                    collect("one", "python", &one),
                    collect("two", "python", &two),
                ],
                limit,
            );
            let shape = &misses.languages[0].shapes[0];
            let lines: Vec<u32> = shape.examples.iter().map(|e| e.line).collect();
            (shape.total, lines)
        };
        assert_eq!(lines(100), (5, vec![1, 4, 2, 5, 3]));
        assert_eq!(lines(1), (5, vec![1]));
        assert_eq!(lines(0), (5, vec![]));
    }

    #[test]
    fn the_output_does_not_depend_on_the_order_corpora_come_in() {
        let (one, _d1) = corpus("one", &[1, 2, 3]);
        let (two, _d2) = corpus("two", &[4, 5]);
        let a = group(
            vec![collect("one", "python", &one), collect("two", "tsx", &two)],
            EXAMPLES_PER_SHAPE,
        );
        let b = group(
            vec![collect("two", "tsx", &two), collect("one", "python", &one)],
            EXAMPLES_PER_SHAPE,
        );
        assert_eq!(render_markdown(&a), render_markdown(&b));
        assert_eq!(to_json(&a), to_json(&b));
        // TSX is summarised as TypeScript.
        let languages: Vec<&str> = a.languages.iter().map(|l| l.language.as_str()).collect();
        assert_eq!(languages, ["python", "typescript"]);
        let md = render_markdown(&a);
        assert!(
            md.contains("| 1 | declined | receiver_type_unknown | path | parameter | method | 3 (50.0%) | 3 |"),
            "{md}"
        );
        assert!(md.contains("   - one `a.py:1` `line 1 of one` — engine: undetermined (receiver_type_unknown); oracle: a.py::A::m"), "{md}");
    }

    #[test]
    fn a_corpus_without_sites_is_listed_with_why() {
        let misses = group(
            vec![without_sites("micro", "python", "pairs only".into())],
            EXAMPLES_PER_SHAPE,
        );
        assert_eq!(misses.corpora[0].outcome.as_deref(), Some("pairs only"));
        assert!(misses.languages.is_empty());
        assert!(render_markdown(&misses).contains("| micro | python | 0 | 0 | 0 | pairs only |"));
    }

    #[test]
    fn labels_and_code_spans_are_what_a_reader_needs() {
        assert_eq!(receiver_label("field", 0), "field");
        assert_eq!(receiver_label("parameter", 1), "parameter+1");
        assert_eq!(receiver_label("parameter", 4), "parameter+2…");
        assert_eq!(code("a`b"), "``a`b``");
        assert_eq!(code("`x`"), "`` `x` ``");
        assert_eq!(code(""), "(source not read)");
        assert_eq!(cut("abcdef", 3), "abc…");
        assert!(is_listed(Verdict::FalseInTree) && !is_listed(Verdict::Right));
    }
}
