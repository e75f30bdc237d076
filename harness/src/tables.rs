//! The tables a reviewer reads in a diff: MEASUREMENTS.md and measurements.csv, both
//! pure functions of the measurements (so a merge of shards renders byte-identically
//! to a single run).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

use crate::families::FAMILIES;
use crate::figures::Figures;
use crate::model::{Measurements, Row};
use crate::proofs::language_of_row;
use crate::score::Verdict;

/// A ratio as a percentage with one decimal; `—` when there is none.
pub fn percent(value: Option<f64>) -> String {
    match value {
        Some(v) => format!("{:.1}%", v * 100.0),
        None => "—".to_string(),
    }
}

fn short_pin(pin: &str) -> String {
    let digest = pin.strip_prefix("sha256:").unwrap_or(pin);
    if digest.len() > 12 {
        format!("{}…", &digest[..12])
    } else if digest.is_empty() {
        "—".to_string()
    } else {
        digest.to_string()
    }
}

/// `javac 17.0.15` rather than `javac javac 17.0.15` when the version names the tool.
fn version_of(name: &str, version: &str) -> String {
    let names_itself = version.to_lowercase().starts_with(&name.to_lowercase());
    match (name.is_empty(), version.is_empty()) {
        (true, _) => "—".to_string(),
        (false, true) => name.to_string(),
        (false, false) if names_itself => version.to_string(),
        (false, false) => format!("{name} {version}"),
    }
}

/// Table cells may not hold a `|` or a line break.
pub fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

/// The language a row is summarised under: TSX is TypeScript (one frontend, one
/// checker), every other language is its own.
pub fn language_family(language: &str) -> &str {
    match language {
        "tsx" => "typescript",
        other => other,
    }
}

/// The columns of the row table; the figures start at [`FIRST_FIGURE_COLUMN`].
pub const ROW_HEADER: &[&str] = &[
    "row",
    "language",
    "corpus @ pin",
    "oracle",
    "toolchain",
    "engine",
    "judged",
    "right",
    "coverage",
    "right method",
    "precision",
    "in-tree precision",
    "outside precision",
    "false edges",
    "false outside",
    "overload unnamed",
    "answered",
    "ceiling",
    "unjudged",
    "implicit",
];

/// Where the figure columns start in [`ROW_HEADER`].
pub const FIRST_FIGURE_COLUMN: usize = 6;

/// A markdown table header.
pub fn header(columns: &[&str]) -> String {
    let mut text = format!("| {} |\n", columns.join(" | "));
    text.push('|');
    for _ in columns {
        text.push_str("---|");
    }
    text.push('\n');
    text
}

/// The figure cells of one row, in the order of the last columns of the row table.
pub fn figure_cells(figures: &Figures) -> Vec<String> {
    vec![
        figures.judged_in_tree.to_string(),
        figures.right.to_string(),
        percent(figures.coverage),
        percent(figures.right_method),
        percent(figures.precision),
        percent(figures.in_tree_precision),
        percent(figures.outside_precision),
        figures.false_edges.to_string(),
        figures.false_outside.to_string(),
        figures.overload_unnamed.to_string(),
        percent(figures.answered),
        percent(figures.ceiling),
        figures.unjudged.to_string(),
        figures.implicit.to_string(),
    ]
}

fn row_cells(row: &Row) -> Vec<String> {
    let mut cells = vec![
        row.id.clone(),
        row.language.clone(),
        format!("{} @ {}", row.corpus.id, short_pin(&row.corpus.pin)),
        version_of(&row.oracle.name, &row.oracle.version),
        version_of(&row.toolchain.name, &row.toolchain.version),
        version_of(&row.engine.name, &row.engine.version),
    ];
    match (&row.outcome, &row.figures) {
        (None, Some(figures)) => cells.extend(figure_cells(figures)),
        (outcome, _) => {
            let why = match (outcome, &row.name_pairs) {
                (Some(o), _) => o.to_string(),
                (None, Some(_)) => "pairs only: see Name pairs".to_string(),
                (None, None) => "no figures".to_string(),
            };
            cells.push(why);
            cells.extend(std::iter::repeat_n(
                "—".to_string(),
                ROW_HEADER.len() - cells.len(),
            ));
        }
    }
    cells
}

/// MEASUREMENTS.md.
pub fn render_markdown(measurements: &Measurements) -> String {
    let mut md = String::new();
    md.push_str("# Measurements\n\n");
    let _ = writeln!(
        md,
        "Scored with `{}` (docs/PROTOCOL.md). Written by `harness measure`; regenerate it, do not edit it.\n",
        measurements.protocol
    );
    md.push_str("## Rows\n\n");
    md.push_str(&header(ROW_HEADER));
    for row in &measurements.rows {
        let cells: Vec<String> = row_cells(row).iter().map(|c| cell(c)).collect();
        let _ = writeln!(md, "| {} |", cells.join(" | "));
    }
    md.push('\n');
    render_by_language_section(&mut md, measurements);
    render_pairs(&mut md, measurements);
    render_may_reach(&mut md, measurements);
    crate::manifest::render_section(&mut md, measurements);
    crate::name_pairs::render_section(&mut md, measurements);
    crate::peers::render_section(&mut md, measurements);
    render_families(&mut md, measurements);
    render_shape_matrix(&mut md, measurements);
    render_engine_failures(&mut md, measurements);
    render_second_readings(&mut md, measurements);
    md.push_str("## Reproduce\n\n");
    md.push_str(&header(&["row", "command"]));
    for row in &measurements.rows {
        let _ = writeln!(md, "| {} | `{}` |", cell(&row.id), row.reproduce);
    }
    md
}

/// The second readings (`harness crosscheck --corpus ID --out DIR`): the agreement
/// over the sites both readings judge, each disagreement counted by kind (the
/// command lists them one by one). Absent when no crosscheck was recorded.
fn render_second_readings(md: &mut String, measurements: &Measurements) {
    if measurements.crosschecks.is_empty() {
        return;
    }
    md.push_str("## Second readings\n\n");
    md.push_str("Each oracle against an independent reading of the same corpus, over the sites both judge (`harness crosscheck --corpus ID`, which lists every disagreement).\n\n");
    md.push_str(&header(&[
        "corpus",
        "oracle",
        "second reading",
        "sites both judge",
        "agree",
        "agreement",
        "disagreements",
        "judged by the oracle only",
        "judged by the second only",
    ]));
    for c in &measurements.crosschecks {
        let rate = (c.both > 0).then(|| c.agree as f64 / c.both as f64);
        let kinds: Vec<String> = c
            .disagreements
            .iter()
            .map(|(kind, n)| format!("{kind} {n}"))
            .collect();
        let disagreements = match kinds.is_empty() {
            true => "0".to_string(),
            false => kinds.join(", "),
        };
        let cells = [
            c.corpus.clone(),
            format!("{} {}", c.first.name, c.first.version),
            format!("{} {}", c.second.name, c.second.version),
            c.both.to_string(),
            c.agree.to_string(),
            percent(rate),
            disagreements,
            c.first_only.to_string(),
            c.second_only.to_string(),
        ];
        let cells: Vec<String> = cells.iter().map(|t| cell(t)).collect();
        let _ = writeln!(md, "| {} |", cells.join(" | "));
    }
    md.push('\n');
}

/// One language over its real corpora: proof rows and peer tools' rows apart.
#[derive(Debug, Clone, PartialEq)]
pub struct LanguageSummary {
    pub language: String,
    /// Corpora scored by site.
    pub corpora: u64,
    pub coverage_min: Option<f64>,
    pub coverage_median: Option<f64>,
    pub precision_min: Option<f64>,
    pub precision_median: Option<f64>,
    pub false_edges: u64,
    /// Rows of the language without site figures, each with why (`pairs only`, an
    /// outcome).
    pub without_figures: Vec<String>,
}

/// A real corpus's row: not a proof row, not a peer tool's (`corpus@tool`).
fn is_real_corpus_row(row: &Row) -> bool {
    language_of_row(&row.id).is_none() && crate::python_rows::corpus_of_row(&row.id) == row.id
}

/// The middle value; the mean of the two middle values of an even count.
pub fn median(values: &[f64]) -> Option<f64> {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let n = sorted.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(sorted[n / 2]),
        _ => Some((sorted[n / 2 - 1] + sorted[n / 2]) / 2.0),
    }
}

/// Each language's minimum and median coverage and precision over its real
/// corpora, and its false edges; TSX rows count as TypeScript.
pub fn language_summaries(measurements: &Measurements) -> Vec<LanguageSummary> {
    let mut by_language: BTreeMap<&str, Vec<&Row>> = BTreeMap::new();
    for row in measurements.rows.iter().filter(|r| is_real_corpus_row(r)) {
        by_language
            .entry(language_family(&row.language))
            .or_default()
            .push(row);
    }
    by_language
        .into_iter()
        .map(|(language, rows)| summarise(language, &rows))
        .collect()
}

fn summarise(language: &str, rows: &[&Row]) -> LanguageSummary {
    let scored: Vec<&Figures> = rows
        .iter()
        .filter(|r| r.outcome.is_none())
        .filter_map(|r| r.figures.as_ref())
        .collect();
    let coverage: Vec<f64> = scored.iter().filter_map(|f| f.coverage).collect();
    let precision: Vec<f64> = scored.iter().filter_map(|f| f.precision).collect();
    let without_figures = rows
        .iter()
        .filter(|r| r.outcome.is_some() || r.figures.is_none())
        .map(|r| match (&r.outcome, &r.name_pairs) {
            (Some(o), _) => format!("{} ({})", r.id, o.token()),
            (None, Some(_)) => format!("{} (pairs only)", r.id),
            (None, None) => format!("{} (no figures)", r.id),
        })
        .collect();
    LanguageSummary {
        language: language.to_string(),
        corpora: scored.len() as u64,
        coverage_min: coverage.iter().copied().reduce(f64::min),
        coverage_median: median(&coverage),
        precision_min: precision.iter().copied().reduce(f64::min),
        precision_median: median(&precision),
        false_edges: scored.iter().map(|f| f.false_edges).sum(),
        without_figures,
    }
}

/// The "By language" table (also the README's measurement excerpt).
pub fn render_by_language(measurements: &Measurements) -> String {
    let mut md = header(&[
        "language",
        "corpora",
        "coverage min",
        "coverage median",
        "precision min",
        "precision median",
        "false edges",
        "without site figures",
    ]);
    for s in language_summaries(measurements) {
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | {} | {} | {} | {} |",
            cell(&s.language),
            s.corpora,
            percent(s.coverage_min),
            percent(s.coverage_median),
            percent(s.precision_min),
            percent(s.precision_median),
            s.false_edges,
            cell(&s.without_figures.join(", "))
        );
    }
    md
}

/// The section, when real corpora were measured (a proofs-only run has none).
fn render_by_language_section(md: &mut String, measurements: &Measurements) {
    if !measurements.rows.iter().any(is_real_corpus_row) {
        return;
    }
    md.push_str(
        "## By language

",
    );
    md.push_str("Each language over its real corpora (proof rows and peer tools apart; TSX counts as TypeScript): the minimum and the median of coverage and of precision, and the false edges of all its corpora.\n\n");
    md.push_str(&render_by_language(measurements));
    md.push('\n');
}

fn render_pairs(md: &mut String, measurements: &Measurements) {
    md.push_str("## Pairs\n\n");
    md.push_str("Unique (caller, callee) declaration pairs; never combined with the site figures above.\n\n");
    md.push_str(&header(&[
        "row",
        "pair precision",
        "pair recall",
        "judged engine pairs",
        "truth pairs",
    ]));
    for row in &measurements.rows {
        let Some(figures) = row.figures.as_ref().filter(|_| row.outcome.is_none()) else {
            continue;
        };
        let pairs = &figures.pairs;
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | {} |",
            cell(&row.id),
            percent(pairs.precision),
            percent(pairs.recall),
            pairs.counts.judged_engine_pairs,
            pairs.counts.truth_pairs
        );
    }
    md.push('\n');
}

/// Sites the engine left undetermined with the complete set of targets they may
/// reach (D25): never site answers, so judged here apart; rows without sets are
/// left out.
fn render_may_reach(md: &mut String, measurements: &Measurements) {
    let rows: Vec<(&str, &crate::score::MayReachCounts)> = measurements
        .rows
        .iter()
        .filter(|row| row.outcome.is_none())
        .filter_map(|row| Some((row.id.as_str(), &row.figures.as_ref()?.may_reach)))
        .filter(|(_, m)| m.sets > 0)
        .collect();
    if rows.is_empty() {
        return;
    }
    md.push_str("## May-reach sets\n\n");
    md.push_str("Undetermined sites published with every in-tree target they may reach (docs/REPORT.md, D25). A set is not an answer: the site figures above count it as declined. At judged in-tree sites, a set holds all the oracle's targets, some, or none.\n\n");
    md.push_str(&header(&[
        "row",
        "sets",
        "judged",
        "holding every target",
        "holding none",
        "mean size",
    ]));
    for (id, m) in rows {
        let mean = if m.judged > 0 {
            format!("{:.1}", m.members as f64 / m.judged as f64)
        } else {
            "—".to_string()
        };
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | {} | {} |",
            cell(id),
            m.sets,
            m.judged,
            m.holding_all,
            m.holding_none,
            mean
        );
    }
    md.push('\n');
}

/// Families in DESIGN order, then any the harness does not know, by name.
pub fn family_order(measurements: &Measurements) -> Vec<String> {
    let present: BTreeSet<&str> = measurements
        .rows
        .iter()
        .flat_map(|r| r.families.keys().map(String::as_str))
        .collect();
    let mut ordered: Vec<String> = FAMILIES
        .iter()
        .filter(|f| present.contains(*f))
        .map(|f| f.to_string())
        .collect();
    ordered.extend(
        present
            .iter()
            .filter(|f| !FAMILIES.contains(f))
            .map(|f| f.to_string()),
    );
    ordered
}

/// The per-family table of one row, for `harness score`.
pub fn render_row_families(row: &Row) -> String {
    let mut md = header(&["family", "answers", "right", "wrong", "precision"]);
    let one = Measurements::new(vec![row.clone()]);
    for family in family_order(&one) {
        let f = &row.families[&family];
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | {} |",
            cell(&family),
            f.answers,
            f.right,
            f.wrong,
            percent(f.precision)
        );
    }
    md
}

fn render_families(md: &mut String, measurements: &Measurements) {
    md.push_str("## Per family\n\n");
    md.push_str("A family's precision is meaningful only on the population it answers on, so each line names its corpus.\n\n");
    md.push_str(&header(&[
        "family",
        "corpus",
        "answers",
        "right",
        "wrong",
        "precision",
    ]));
    for family in family_order(measurements) {
        for row in &measurements.rows {
            let Some(f) = row.families.get(&family) else {
                continue;
            };
            let _ = writeln!(
                md,
                "| {} | {} | {} | {} | {} | {} |",
                cell(&family),
                cell(&row.id),
                f.answers,
                f.right,
                f.wrong,
                percent(f.precision)
            );
        }
    }
    md.push('\n');
}

/// `S2` before `S10`: by the number, then the text.
fn shape_key(shape: &str) -> (u64, String) {
    let number = shape
        .trim_start_matches(|c: char| !c.is_ascii_digit())
        .chars()
        .take_while(char::is_ascii_digit)
        .collect::<String>()
        .parse()
        .unwrap_or(u64::MAX);
    (number, shape.to_string())
}

/// The shape matrix: shape × proof language → family, MISS or WRONG.
pub fn shape_matrix(measurements: &Measurements) -> (Vec<String>, Vec<(String, Vec<String>)>) {
    let languages: BTreeMap<String, &Row> = measurements
        .rows
        .iter()
        .filter_map(|r| language_of_row(&r.id).map(|l| (l.to_string(), r)))
        .collect();
    let mut shapes: Vec<&String> = languages
        .values()
        .flat_map(|r| r.shapes.keys())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    shapes.sort_by_key(|s| shape_key(s));
    let lines = shapes
        .into_iter()
        .map(|shape| {
            let cells = languages
                .values()
                .map(|row| row.shapes.get(shape).cloned().unwrap_or_else(|| "—".into()))
                .collect();
            (shape.clone(), cells)
        })
        .collect();
    (languages.into_keys().collect(), lines)
}

fn render_shape_matrix(md: &mut String, measurements: &Measurements) {
    md.push_str("## Shape matrix\n\n");
    md.push_str("Shape (../shared/SHAPES.md) × language: the family that placed the proof's primary sites, MISS (abstained where an answer was expected), WRONG, `abstain` (abstained as required), — (no proof).\n\n");
    let (languages, lines) = shape_matrix(measurements);
    let mut columns = vec!["shape"];
    columns.extend(languages.iter().map(String::as_str));
    md.push_str(&header(&columns));
    for (shape, cells) in lines {
        let cells: Vec<String> = cells.iter().map(|c| cell(c)).collect();
        let _ = writeln!(md, "| {} | {} |", cell(&shape), cells.join(" | "));
    }
    md.push('\n');
}

fn render_engine_failures(md: &mut String, measurements: &Measurements) {
    let failures: Vec<_> = measurements
        .rows
        .iter()
        .flat_map(|r| r.engine_failures.iter().map(move |f| (r, f)))
        .collect();
    if failures.is_empty() {
        return;
    }
    md.push_str("## Engine failures\n\nCases the engine gave no report for; their sites count as missed.\n\n");
    for (row, failure) in failures {
        let _ = writeln!(md, "- {} / {}: {}", row.id, failure.case, failure.outcome);
    }
    md.push('\n');
}

/// A ratio in the CSV: the stored decimal, empty when absent.
fn csv_ratio(value: Option<f64>) -> String {
    value.map(|v| v.to_string()).unwrap_or_default()
}

/// measurements.csv: one line per row, every figure and every verdict count.
pub fn render_csv(measurements: &Measurements) -> String {
    let mut writer = csv::Writer::from_writer(Vec::new());
    let mut head: Vec<String> = [
        "id",
        "language",
        "corpus",
        "pin",
        "oracle",
        "oracle_version",
        "toolchain",
        "toolchain_version",
        "engine_version",
        "outcome",
        "judged_in_tree",
        "judged_outside",
        "judged_abstain",
        "right",
        "coverage",
        "right_method",
        "precision",
        "in_tree_precision",
        "outside_precision",
        "false_edges",
        "false_outside",
        "overload_unnamed",
        "answered",
        "answered_calls",
        "engine_calls",
        "ceiling",
        "unjudged",
        "unjudged_engine",
        "unjudged_truth",
        "implicit",
        "missed",
        "pair_precision",
        "pair_recall",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    head.extend(
        Verdict::ALL
            .iter()
            .map(|v| format!("verdict_{}", v.token())),
    );
    let site_columns = head.len();
    head.extend(crate::name_pairs::CSV_COLUMNS.iter().map(|c| c.to_string()));
    writer.write_record(&head).expect("csv to memory");
    for row in &measurements.rows {
        let mut line = csv_line(row);
        // A row without figures leaves their columns empty.
        line.resize(site_columns, String::new());
        line.extend(crate::name_pairs::csv_cells(row));
        writer.write_record(line).expect("csv to memory");
    }
    String::from_utf8(writer.into_inner().expect("csv to memory")).expect("csv is utf-8")
}

fn csv_line(row: &Row) -> Vec<String> {
    let mut line = vec![
        row.id.clone(),
        row.language.clone(),
        row.corpus.id.clone(),
        row.corpus.pin.clone(),
        row.oracle.name.clone(),
        row.oracle.version.clone(),
        row.toolchain.name.clone(),
        row.toolchain.version.clone(),
        row.engine.version.clone(),
        row.outcome
            .as_ref()
            .map_or("scored".to_string(), |o| o.token().to_string()),
    ];
    let f = row.figures.clone().filter(|_| row.outcome.is_none());
    let Some(f) = f else {
        return line;
    };
    line.extend([
        f.judged_in_tree.to_string(),
        f.judged_outside.to_string(),
        f.judged_abstain.to_string(),
        f.right.to_string(),
        csv_ratio(f.coverage),
        csv_ratio(f.right_method),
        csv_ratio(f.precision),
        csv_ratio(f.in_tree_precision),
        csv_ratio(f.outside_precision),
        f.false_edges.to_string(),
        f.false_outside.to_string(),
        f.overload_unnamed.to_string(),
        csv_ratio(f.answered),
        f.answered_calls.to_string(),
        f.engine_calls.to_string(),
        csv_ratio(f.ceiling),
        f.unjudged.to_string(),
        f.unjudged_engine.to_string(),
        f.unjudged_truth.to_string(),
        f.implicit.to_string(),
        f.missed.to_string(),
        csv_ratio(f.pairs.precision),
        csv_ratio(f.pairs.recall),
    ]);
    line.extend(
        Verdict::ALL
            .iter()
            .map(|v| row.verdicts.get(v).copied().unwrap_or(0).to_string()),
    );
    line
}
