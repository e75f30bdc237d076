//! Pair figures (protocol/2 §4): unique (caller declaration, callee declaration)
//! pairs, kept apart from site figures.
//!
//! A caller is the declaration containing the site, by its name position; a call at
//! module level has the module as caller, written (file, 0).

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
}

type Pair = (Position, Position);

/// Counts the engine's pairs against the truth's.
pub fn count_pairs(
    calls: &[Call],
    truth: &Truth,
    pairing: &Pairing,
    index: &EntityIndex<'_>,
) -> PairCounts {
    let all_engine: BTreeSet<Pair> = calls.iter().filter_map(|c| engine_pair(c, index)).collect();
    let judged_engine: BTreeSet<Pair> = judged_calls(calls, truth, pairing)
        .filter_map(|c| engine_pair(c, index))
        .collect();
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
    }
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
        let caller = site
            .caller
            .clone()
            .or_else(|| partner.map(|e| engine_caller(&calls[e], index)))
            .unwrap_or_else(|| module_of(&site.file));
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
