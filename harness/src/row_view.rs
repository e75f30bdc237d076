//! One row of measurements.json read for the charts and the index page: which tool
//! on which corpus, the site and pair figures it has, its timing and its outcome. A
//! pure reading of the row (no figure is computed that the tables do not show).

use crate::model::Row;
use crate::proofs::language_of_row;
use crate::python_rows::corpus_of_row;
use crate::score::Verdict;

/// The engine's name in a row's `engine` stamp.
pub const ENGINE: &str = "callgraph";

/// What the charts and the page show of one row.
#[derive(Debug, Clone, PartialEq)]
pub struct RowView {
    pub id: String,
    /// The corpus the row measures (`tomlkit` for `tomlkit@pyan3`).
    pub corpus: String,
    /// `callgraph` for the engine's rows (also those judged by a second oracle,
    /// `express@jstrace`), else the peer's name from the row id.
    pub tool: String,
    pub is_peer: bool,
    pub is_proof: bool,
    pub language: String,
    pub oracle: String,
    /// Site figures, when the tool gives call sites and the row was scored.
    pub sites: Option<SiteView>,
    pub pair_precision: Option<f64>,
    pub pair_recall: Option<f64>,
    pub wall_ms: Option<u64>,
    pub peak_rss_kib: Option<u64>,
    /// `tool_failed`, `timeout`…, with the detail; `None` when scored.
    pub outcome: Option<(String, String)>,
}

/// A scored row's site figures and the counts behind its precision.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SiteView {
    pub judged_in_tree: u64,
    pub coverage: Option<f64>,
    pub precision: Option<f64>,
    /// Judged answers (precision's denominator) and the wrong ones among them.
    pub judged_answers: u64,
    pub errors: u64,
}

impl SiteView {
    /// 1 − precision as wrong / judged answers; `None` when nothing was judged.
    pub fn error_rate(&self) -> Option<f64> {
        (self.judged_answers > 0).then(|| self.errors as f64 / self.judged_answers as f64)
    }
}

/// The peer's name of a row id, when the row is another tool's: a row of the engine
/// judged by a corpus's other oracle (`express@jstrace`) is the engine's.
fn peer_of(row: &Row) -> Option<&str> {
    let (_, tool) = row.id.split_once('@')?;
    (row.engine.name != ENGINE).then_some(tool)
}

/// Precision's denominator and its wrong answers, from the verdict counts.
fn judged_answers(row: &Row) -> (u64, u64) {
    let count = |v: Verdict| row.verdicts.get(&v).copied().unwrap_or(0);
    let right = count(Verdict::Right) + count(Verdict::RightOutside);
    let errors = count(Verdict::Wrong)
        + count(Verdict::WrongOverload)
        + count(Verdict::FalseInTree)
        + count(Verdict::FalseOutside);
    (right + errors, errors)
}

fn site_view(row: &Row) -> Option<SiteView> {
    let figures = row.figures.as_ref().filter(|_| row.outcome.is_none())?;
    // A pair-only tool's row carries site counts of the truth but no site answer.
    if figures.engine_calls == 0 && figures.precision.is_none() {
        return None;
    }
    let (judged_answers, errors) = judged_answers(row);
    Some(SiteView {
        judged_in_tree: figures.judged_in_tree,
        coverage: figures.coverage,
        precision: figures.precision,
        judged_answers,
        errors,
    })
}

/// Reads one row.
pub fn view(row: &Row) -> RowView {
    let peer = peer_of(row);
    let scored = row.outcome.is_none();
    let (pair_precision, pair_recall) = match (&row.figures, &row.name_pairs) {
        _ if !scored => (None, None),
        (Some(f), _) => (f.pairs.precision, f.pairs.recall),
        (None, Some(n)) => (n.precision, n.recall),
        (None, None) => (None, None),
    };
    RowView {
        id: row.id.clone(),
        corpus: corpus_of_row(&row.id).to_string(),
        tool: peer.unwrap_or(ENGINE).to_string(),
        is_peer: peer.is_some(),
        is_proof: language_of_row(&row.id).is_some(),
        language: row.language.clone(),
        oracle: row.oracle.name.clone(),
        sites: site_view(row),
        pair_precision,
        pair_recall,
        wall_ms: row.run.map(|r| r.wall_ms),
        peak_rss_kib: row.run.and_then(|r| r.peak_rss_kib),
        outcome: row
            .outcome
            .as_ref()
            .map(|o| (o.token().to_string(), o.to_string())),
    }
}

/// A precision as text that never reads 100 % while an answer was wrong: floored
/// to one decimal (99.97 % → 99.9 %).
pub fn floored_percent(value: Option<f64>) -> String {
    match value {
        Some(v) => format!("{:.1}%", (v * 1000.0 + 1e-9).floor() / 10.0),
        None => "—".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_precision_below_one_never_prints_as_a_hundred() {
        assert_eq!(floored_percent(Some(0.99997)), "99.9%");
        assert_eq!(floored_percent(Some(1.0)), "100.0%");
        assert_eq!(floored_percent(Some(0.5)), "50.0%");
        assert_eq!(floored_percent(None), "—");
    }

    #[test]
    fn an_engine_row_judged_by_a_second_oracle_is_the_engine() {
        let mut row = Row {
            id: "express@jstrace".into(),
            ..Row::default()
        };
        row.engine.name = ENGINE.into();
        assert_eq!(view(&row).tool, ENGINE);
        assert!(!view(&row).is_peer);
        row.id = "tomlkit@pyan3".into();
        row.engine.name = "pyan3".into();
        let v = view(&row);
        assert_eq!(
            (v.tool.as_str(), v.corpus.as_str(), v.is_peer),
            ("pyan3", "tomlkit", true)
        );
    }
}
