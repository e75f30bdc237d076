//! Pair figures (protocol/2 §4): unique (caller declaration, callee declaration)
//! pairs, kept apart from site figures.
//!
//! A caller is the declaration containing the site, by its name position; a call at
//! module level has the module as caller, written (file, 0).
//!
//! A report may also hold calls marked `site: false` (a peer tool that knows caller →
//! callee pairs, not where the call is written). They pair with no truth site, so
//! "the pairs of calls at judged sites" cannot judge them; a pair-only call is judged
//! instead when the truth has a judged site in the same caller whose called name is
//! the call's name (the converter writes the name the source would call: a class's
//! name for its constructor). Recall and its slots are the same for both kinds.

use std::collections::BTreeSet;

use oracles::{Expect, Position, Truth};
use serde::{Deserialize, Serialize};

use crate::pairing::Pairing;
use crate::report::{Call, Resolution};
use crate::score::EntityIndex;

/// The counts pair precision and recall are computed from.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairCounts {
    /// Unique pairs over all the engine's in-tree calls.
    pub engine_pairs: u64,
    /// Unique pairs from engine calls at judged truth sites.
    pub judged_engine_pairs: u64,
    /// Judged engine pairs the truth contains.
    pub true_engine_pairs: u64,
    /// Unique truth pairs (caller, set of acceptable callees) the engine should have.
    pub truth_pairs: u64,
    /// Truth pairs the engine has (any acceptable callee).
    pub recalled_truth_pairs: u64,
    /// Calls of the report marked `site: false` (pair-only answers), in-tree or not.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub pair_only_calls: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

type Pair = (Position, Position);

/// Counts the engine's pairs against the truth's: `calls` are the report's sites
/// (paired with the truth by `pairing`), `pair_only` its `site: false` calls.
pub fn count_pairs(
    calls: &[Call],
    pair_only: &[Call],
    truth: &Truth,
    pairing: &Pairing,
    index: &EntityIndex<'_>,
) -> PairCounts {
    let all_engine: BTreeSet<Pair> = calls
        .iter()
        .chain(pair_only)
        .filter_map(|c| engine_pair(c, index))
        .collect();
    let mut judged_engine: BTreeSet<Pair> = judged_calls(calls, truth, pairing)
        .filter_map(|c| engine_pair(c, index))
        .collect();
    judged_engine.extend(judged_by_name(pair_only, calls, truth, pairing, index));
    let (slots, universe) = truth_pairs(calls, truth, pairing, index);
    let recalled = slots
        .iter()
        .filter(|(caller, callees)| {
            callees
                .iter()
                .any(|callee| all_engine.contains(&(caller.clone(), callee.clone())))
        })
        .count();
    PairCounts {
        engine_pairs: all_engine.len() as u64,
        judged_engine_pairs: judged_engine.len() as u64,
        true_engine_pairs: judged_engine.intersection(&universe).count() as u64,
        truth_pairs: slots.len() as u64,
        recalled_truth_pairs: recalled as u64,
        pair_only_calls: pair_only.len() as u64,
    }
}

/// The pairs of pair-only calls the truth can judge: a judged truth site in the
/// call's caller calls the call's name. A pair the truth would judge at no site (a
/// call the tool invented, or one in another caller) stays unjudged, as an engine
/// site no truth site pairs with does.
fn judged_by_name(
    pair_only: &[Call],
    calls: &[Call],
    truth: &Truth,
    pairing: &Pairing,
    index: &EntityIndex<'_>,
) -> BTreeSet<Pair> {
    if pair_only.is_empty() {
        return BTreeSet::new();
    }
    if truth.sites.is_empty() && !truth.pairs.is_empty() {
        return pair_only
            .iter()
            .filter_map(|c| engine_pair(c, index))
            .collect();
    }
    let called: BTreeSet<(Position, &str)> = truth
        .sites
        .iter()
        .zip(&pairing.truth_to_engine)
        .filter(|(site, _)| site.is_judged())
        .map(|(site, partner)| {
            (
                truth_caller(site, *partner, calls, index),
                site.name.as_str(),
            )
        })
        .collect();
    pair_only
        .iter()
        .filter_map(|call| {
            let pair = engine_pair(call, index)?;
            called
                .contains(&(pair.0.clone(), call.name.as_str()))
                .then_some(pair)
        })
        .collect()
}

/// The caller of a truth site: the oracle's, else its engine partner's, else the
/// file's module.
fn truth_caller(
    site: &oracles::TruthSite,
    partner: Option<usize>,
    calls: &[Call],
    index: &EntityIndex<'_>,
) -> Position {
    site.caller
        .clone()
        .or_else(|| partner.map(|e| engine_caller(&calls[e], index)))
        .unwrap_or_else(|| module_of(&site.file))
}

/// The caller of an engine call: its `caller` entity, else the file's module.
fn engine_caller(call: &Call, index: &EntityIndex<'_>) -> Position {
    match call.caller.and_then(|id| index.entity(id)) {
        Some(entity) => Position {
            file: entity.file.clone(),
            line: entity.line,
        },
        None => module_of(&call.file),
    }
}

fn module_of(file: &str) -> Position {
    Position {
        file: file.to_string(),
        line: 0,
    }
}

fn engine_pair(call: &Call, index: &EntityIndex<'_>) -> Option<Pair> {
    if call.resolution != Resolution::InTree {
        return None;
    }
    let (file, line) = call.named_declaration()?;
    Some((
        engine_caller(call, index),
        Position {
            file: file.to_string(),
            line,
        },
    ))
}

/// The engine calls whose pairs are judged: those paired with a judged truth site —
/// or, for an oracle that knows only pairs, every call.
fn judged_calls<'c>(
    calls: &'c [Call],
    truth: &'c Truth,
    pairing: &'c Pairing,
) -> Box<dyn Iterator<Item = &'c Call> + 'c> {
    if truth.sites.is_empty() && !truth.pairs.is_empty() {
        return Box::new(calls.iter());
    }
    Box::new(
        truth
            .sites
            .iter()
            .zip(&pairing.truth_to_engine)
            .filter(|(site, _)| site.is_judged())
            .filter_map(|(_, partner)| partner.map(|e| &calls[e])),
    )
}

type Slot = (Position, Vec<Position>);

/// The truth's pairs: recall slots (caller, acceptable callees) and the universe of
/// every acceptable (caller, callee). A site without a caller borrows the caller of
/// its engine partner. Sites where abstaining is acceptable are in the universe (a
/// right answer there is a true pair) but not in recall (abstaining loses nothing).
fn truth_pairs(
    calls: &[Call],
    truth: &Truth,
    pairing: &Pairing,
    index: &EntityIndex<'_>,
) -> (BTreeSet<Slot>, BTreeSet<Pair>) {
    let mut slots = BTreeSet::new();
    let mut universe = BTreeSet::new();
    for (site, partner) in truth.sites.iter().zip(&pairing.truth_to_engine) {
        if !site.is_judged() || site.expect == Some(Expect::Abstain) {
            continue;
        }
        let callees: Vec<Position> = site
            .in_tree_targets()
            .map(|(file, line)| Position {
                file: file.to_string(),
                line,
            })
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        if callees.is_empty() {
            continue;
        }
        let caller = truth_caller(site, *partner, calls, index);
        for callee in &callees {
            universe.insert((caller.clone(), callee.clone()));
        }
        if site.expect != Some(Expect::Either) {
            slots.insert((caller, callees));
        }
    }
    for pair in &truth.pairs {
        universe.insert((pair.caller.clone(), pair.callee.clone()));
        slots.insert((pair.caller.clone(), vec![pair.callee.clone()]));
    }
    (slots, universe)
}
