//! Figures (protocol/2 §3–§5): the numbers one row of a table shows, computed from
//! the verdicts and counts of one score computation.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::caller_pairs::PairCounts;
use crate::score::{Answer, Scored, Verdict};

/// The figures of one row. Ratios are `None` where their denominator is zero, and are
/// rounded to six decimals so the JSON is the same on every machine and every reader.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Figures {
    /// In-tree truth sites judged (coverage's denominator).
    pub judged_in_tree: u64,
    pub judged_outside: u64,
    /// Proof sites where the engine must abstain.
    pub judged_abstain: u64,
    pub right: u64,
    pub coverage: Option<f64>,
    pub right_method: Option<f64>,
    pub precision: Option<f64>,
    pub in_tree_precision: Option<f64>,
    pub outside_precision: Option<f64>,
    /// wrong + wrong_overload + false_in_tree.
    pub false_edges: u64,
    pub false_outside: u64,
    pub overload_unnamed: u64,
    /// Engine calls with an answer (in_tree or outside), over all engine calls.
    pub answered: Option<f64>,
    pub answered_calls: u64,
    pub engine_calls: u64,
    /// Share of judged in-tree sites with a target at an entity of the report.
    pub ceiling: Option<f64>,
    /// Unpaired engine sites plus truth sites marked unjudged.
    pub unjudged: u64,
    pub unjudged_engine: u64,
    pub unjudged_truth: u64,
    pub implicit: u64,
    pub missed: u64,
    pub pairs: PairFigures,
    /// Undetermined sites with a may-reach set, judged apart (D25).
    #[serde(default)]
    pub may_reach: crate::score::MayReachCounts,
}

/// Pair figures: never combined with site figures into one percentage.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PairFigures {
    #[serde(flatten)]
    pub counts: PairCounts,
    pub precision: Option<f64>,
    pub recall: Option<f64>,
}

/// One family's answers and how they were judged, on one corpus.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct FamilyFigures {
    /// Every answer (calls and references) the family placed, judged or not.
    pub answers: u64,
    pub right: u64,
    pub wrong: u64,
    pub precision: Option<f64>,
}

/// `n / d`, rounded to six decimals; `None` when `d` is zero.
pub fn ratio(n: u64, d: u64) -> Option<f64> {
    (d > 0).then(|| ((n as f64 / d as f64) * 1e6).round() / 1e6)
}

/// How many sites received each verdict (every verdict listed, zeros included).
pub fn verdict_counts(scored: &Scored) -> BTreeMap<Verdict, u64> {
    let mut counts: BTreeMap<Verdict, u64> = Verdict::ALL.iter().map(|v| (*v, 0)).collect();
    for site in &scored.sites {
        *counts.entry(site.verdict).or_default() += 1;
    }
    counts
}

/// Computes the figures of one score computation.
pub fn figures(scored: &Scored) -> Figures {
    let count = |v: Verdict| scored.sites.iter().filter(|s| s.verdict == v).count() as u64;
    let judged_in_tree = scored
        .sites
        .iter()
        .filter(|s| s.is_judged_in_tree())
        .count() as u64;
    let right = count(Verdict::Right);
    let right_outside = count(Verdict::RightOutside);
    let overload_unnamed = count(Verdict::OverloadUnnamed);
    let wrong_overload = count(Verdict::WrongOverload);
    let judged_answers: Vec<_> = scored
        .sites
        .iter()
        .filter(|s| s.verdict.is_judged_answer())
        .collect();
    let answers_of = |answer: Answer| judged_answers.iter().filter(move |s| s.answer == answer);
    let in_tree_answers = answers_of(Answer::InTree).count() as u64;
    let outside_answers = answers_of(Answer::Outside).count() as u64;
    let right_in_tree = answers_of(Answer::InTree)
        .filter(|s| s.verdict.is_right())
        .count() as u64;
    let right_out = answers_of(Answer::Outside)
        .filter(|s| s.verdict.is_right())
        .count() as u64;
    let category = |c| scored.sites.iter().filter(|s| s.truth == c).count() as u64;
    let pairs = &scored.pairs;
    Figures {
        judged_in_tree,
        judged_outside: scored
            .sites
            .iter()
            .filter(|s| {
                s.truth == crate::score::TruthCategory::Outside
                    && s.verdict != Verdict::AcceptableAbstention
            })
            .count() as u64,
        judged_abstain: category(crate::score::TruthCategory::Abstain),
        right,
        coverage: ratio(right, judged_in_tree),
        right_method: ratio(right + overload_unnamed + wrong_overload, judged_in_tree),
        precision: ratio(right + right_outside, judged_answers.len() as u64),
        in_tree_precision: ratio(right_in_tree, in_tree_answers),
        outside_precision: ratio(right_out, outside_answers),
        false_edges: count(Verdict::Wrong) + wrong_overload + count(Verdict::FalseInTree),
        false_outside: count(Verdict::FalseOutside),
        overload_unnamed,
        answered: ratio(scored.answered_calls, scored.engine_calls),
        answered_calls: scored.answered_calls,
        engine_calls: scored.engine_calls,
        ceiling: ratio(scored.ceiling_hits, judged_in_tree),
        unjudged: scored.unjudged_engine + scored.unjudged_truth,
        unjudged_engine: scored.unjudged_engine,
        unjudged_truth: scored.unjudged_truth,
        implicit: scored.implicit,
        missed: count(Verdict::Missed),
        pairs: PairFigures {
            counts: pairs.clone(),
            precision: ratio(pairs.true_engine_pairs, pairs.judged_engine_pairs),
            recall: ratio(pairs.recalled_truth_pairs, pairs.truth_pairs),
        },
        may_reach: scored.may_reach.clone(),
    }
}

/// Per family: answers, right, wrong and precision over the sites it answered.
pub fn family_figures(scored: &Scored) -> BTreeMap<String, FamilyFigures> {
    let mut families: BTreeMap<String, FamilyFigures> = scored
        .family_answers
        .iter()
        .map(|(family, answers)| {
            let figures = FamilyFigures {
                answers: *answers,
                ..FamilyFigures::default()
            };
            (family.clone(), figures)
        })
        .collect();
    for site in &scored.sites {
        let Some(family) = &site.family else { continue };
        let entry = families.entry(family.clone()).or_default();
        if site.verdict.is_right() {
            entry.right += 1;
        } else if site.verdict.is_wrong() {
            entry.wrong += 1;
        }
    }
    for figures in families.values_mut() {
        figures.precision = ratio(figures.right, figures.right + figures.wrong);
    }
    families
}
