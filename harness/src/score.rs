//! Verdicts (protocol/2 §2): what each judged truth site says about the engine's
//! answer at that site.

use std::collections::{BTreeMap, HashMap, HashSet};

use oracles::{Expect, Truth, TruthSite};
use serde::{Deserialize, Serialize};

use crate::caller_pairs::{count_pairs, PairCounts};
use crate::pairing::{pair_sites, NameRule, Pairing};
use crate::report::{Call, Entity, MayReach, Report, Resolution};

/// Every verdict a judged truth site can receive.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// In-tree truth: the engine named one of the targets, its declaration named or unique.
    Right,
    /// In-tree truth: right qualified name, several declarations share it, none named.
    OverloadUnnamed,
    /// In-tree truth: right method, another of its declarations named.
    WrongOverload,
    /// In-tree truth: another target. Abstain truth: any answer.
    Wrong,
    /// In-tree truth: the engine said the call leaves the tree.
    FalseOutside,
    /// The engine abstained (undetermined or unresolved) where an answer was expected.
    Declined,
    /// Outside truth: the engine said outside.
    RightOutside,
    /// Outside truth: the engine named a declaration in the tree.
    FalseInTree,
    /// Abstain truth (proofs): the engine abstained, as it must.
    RightAbstention,
    /// Either truth (proofs): the engine abstained, which the proof accepts.
    AcceptableAbstention,
    /// The engine reported no site that pairs with this one.
    Missed,
}

impl Verdict {
    /// Every verdict, in the order tables list them.
    pub const ALL: [Verdict; 11] = [
        Verdict::Right,
        Verdict::OverloadUnnamed,
        Verdict::WrongOverload,
        Verdict::Wrong,
        Verdict::FalseOutside,
        Verdict::Declined,
        Verdict::RightOutside,
        Verdict::FalseInTree,
        Verdict::RightAbstention,
        Verdict::AcceptableAbstention,
        Verdict::Missed,
    ];

    /// The snake_case token of the verdict.
    pub fn token(self) -> &'static str {
        match self {
            Verdict::Right => "right",
            Verdict::OverloadUnnamed => "overload_unnamed",
            Verdict::WrongOverload => "wrong_overload",
            Verdict::Wrong => "wrong",
            Verdict::FalseOutside => "false_outside",
            Verdict::Declined => "declined",
            Verdict::RightOutside => "right_outside",
            Verdict::FalseInTree => "false_in_tree",
            Verdict::RightAbstention => "right_abstention",
            Verdict::AcceptableAbstention => "acceptable_abstention",
            Verdict::Missed => "missed",
        }
    }

    /// The engine did what the truth asks.
    pub fn is_right(self) -> bool {
        matches!(
            self,
            Verdict::Right | Verdict::RightOutside | Verdict::RightAbstention
        )
    }

    /// The engine gave an answer the truth contradicts.
    pub fn is_wrong(self) -> bool {
        matches!(
            self,
            Verdict::Wrong | Verdict::WrongOverload | Verdict::FalseOutside | Verdict::FalseInTree
        )
    }

    /// A judged answer: the population precision is computed over.
    pub fn is_judged_answer(self) -> bool {
        matches!(self, Verdict::Right | Verdict::RightOutside) || self.is_wrong()
    }
}

/// Calls and references are paired and judged apart: a call never pairs with a
/// reference.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SiteKind {
    Call,
    Reference,
}

/// What the truth asks of a site.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TruthCategory {
    /// Reaches a declaration in the tree (any in-tree target).
    InTree,
    /// Leaves the tree (outside targets only).
    Outside,
    /// Proofs: `expect: abstain`, where any answer is wrong.
    Abstain,
}

/// What the engine said at the site.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Answer {
    InTree,
    Outside,
    Abstained,
    /// No engine site paired with the truth site.
    NoSite,
}

/// One judged truth site and its verdict; measurements.json keeps these so a gate can
/// name the answers a change lost.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct SiteRecord {
    pub kind: SiteKind,
    pub file: String,
    pub line: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub column: Option<u32>,
    pub name: String,
    /// Which of the truth sites with this (kind, file, line, name) it is, in truth
    /// order: two calls of one name on one line stay two identities.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub nth: u32,
    pub truth: TruthCategory,
    pub answer: Answer,
    pub verdict: Verdict,
    /// The engine's `placed_by` when it answered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub family: Option<String>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub primary: bool,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl SiteRecord {
    /// The identity a gate compares across runs.
    pub fn identity(&self) -> (SiteKind, &str, u32, &str, u32) {
        (self.kind, &self.file, self.line, &self.name, self.nth)
    }

    /// Counted among the judged in-tree sites (coverage's denominator): an in-tree
    /// truth site, unless the proof accepted the engine's abstention.
    pub fn is_judged_in_tree(&self) -> bool {
        self.truth == TruthCategory::InTree && self.verdict != Verdict::AcceptableAbstention
    }

    /// `file:line name`, as tables and gate messages print a site.
    pub fn label(&self) -> String {
        let kind = match self.kind {
            SiteKind::Call => "",
            SiteKind::Reference => " (reference)",
        };
        format!("{}:{} {}{kind}", self.file, self.line, self.name)
    }
}

/// Options of one score computation.
#[derive(Debug, Clone, Default)]
pub struct ScoreOptions {
    /// Read every other family's answers as declined (`--only FAMILY`).
    pub only: Option<String>,
    pub names: NameRule,
}

/// Everything one score computation yields; figures are computed from it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Scored {
    pub sites: Vec<SiteRecord>,
    /// Engine calls (not references), and those with an answer.
    pub engine_calls: u64,
    pub answered_calls: u64,
    /// Engine sites no truth site paired with.
    pub unjudged_engine: u64,
    /// Truth sites the oracle marked unjudged.
    pub unjudged_truth: u64,
    /// Truth sites the oracle classified as implicit calls.
    pub implicit: u64,
    /// Judged in-tree sites with at least one target at an entity of the report.
    pub ceiling_hits: u64,
    /// Answers (calls and references) per `placed_by` family.
    pub family_answers: BTreeMap<String, u64>,
    pub pairs: PairCounts,
    pub may_reach: MayReachCounts,
}

/// Undetermined sites that publish a may-reach set (D25), judged apart from every
/// site figure: a set is never an answer, so it never counts as right or wrong.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MayReachCounts {
    /// Engine calls with a set, judged or not.
    pub sets: u64,
    /// Sets at a judged truth site with in-tree targets.
    pub judged: u64,
    /// Judged sets holding every in-tree target the oracle gives.
    pub holding_all: u64,
    /// Judged sets holding none of them.
    pub holding_none: u64,
    /// Members of the judged sets.
    pub members: u64,
}

/// The report's entities, indexed the ways the verdicts need.
pub struct EntityIndex<'a> {
    by_id: HashMap<u64, &'a Entity>,
    by_qualified_name: HashMap<&'a str, Vec<(&'a str, u32)>>,
    positions: HashSet<(&'a str, u32)>,
}

impl<'a> EntityIndex<'a> {
    pub fn new(report: &'a Report) -> Self {
        let mut index = EntityIndex {
            by_id: HashMap::new(),
            by_qualified_name: HashMap::new(),
            positions: HashSet::new(),
        };
        for entity in &report.entities {
            index.by_id.insert(entity.id, entity);
            // A declaration the build leaves out shares no qualified name with the
            // ones it compiles (a `#[cfg]` twin is no overload).
            if entity.inactive {
                continue;
            }
            index
                .by_qualified_name
                .entry(&entity.qualified_name)
                .or_default()
                .push((&entity.file, entity.line));
            index.positions.insert((&entity.file, entity.line));
        }
        index
    }

    pub fn entity(&self, id: u64) -> Option<&'a Entity> {
        self.by_id.get(&id).copied()
    }

    /// The declarations that share a qualified name.
    fn declarations_named(&self, qualified_name: &str) -> &[(&'a str, u32)] {
        self.by_qualified_name
            .get(qualified_name)
            .map_or(&[], Vec::as_slice)
    }

    fn declares_at(&self, file: &str, line: u32) -> bool {
        self.positions.contains(&(file, line))
    }
}

/// Scores a report against a truth: pairs sites, judges every judged truth site, and
/// counts what figures need.
pub fn score(report: &Report, truth: &Truth, options: &ScoreOptions) -> Scored {
    let index = EntityIndex::new(report);
    // Pair-only calls (`site: false`) are no sites: only the pair figures read them.
    let (calls, pair_only): (Vec<Call>, Vec<Call>) =
        as_read_under(&report.calls, options.only.as_deref())
            .into_iter()
            .partition(|c| c.site);
    let references = as_read_under(&report.references, options.only.as_deref());
    let unit = truth.oracle.column;
    let mut scored = Scored::default();

    let call_pairing = pair_sites(&calls, &truth.sites, unit, options.names);
    judge_population(
        SiteKind::Call,
        &calls,
        &truth.sites,
        &call_pairing,
        &index,
        &mut scored,
    );
    scored.unjudged_engine += unpaired(&call_pairing);

    // References are judged only when the truth judges them; otherwise they are
    // neither scored nor counted as unjudged (no real oracle lists them).
    if let Some(truth_references) = &truth.references {
        let pairing = pair_sites(&references, truth_references, unit, options.names);
        judge_population(
            SiteKind::Reference,
            &references,
            truth_references,
            &pairing,
            &index,
            &mut scored,
        );
        scored.unjudged_engine += unpaired(&pairing);
    }

    scored.engine_calls = calls.len() as u64;
    scored.answered_calls = calls.iter().filter(|c| c.resolution.is_answer()).count() as u64;
    for call in calls.iter().chain(&pair_only).chain(&references) {
        if let (true, Some(family)) = (call.resolution.is_answer(), &call.placed_by) {
            *scored.family_answers.entry(family.clone()).or_default() += 1;
        }
    }
    scored.pairs = count_pairs(&calls, &pair_only, truth, &call_pairing, &index);
    scored.may_reach.sets = calls.iter().filter(|c| c.may_reach.is_some()).count() as u64;
    scored.sites.sort();
    scored
}

/// The engine's sites as `--only FAMILY` reads them: every other family's answers
/// become abstentions, so the figures are those of an engine with only that rule.
fn as_read_under(calls: &[Call], only: Option<&str>) -> Vec<Call> {
    let Some(only) = only else {
        return calls.to_vec();
    };
    calls
        .iter()
        .cloned()
        .map(|mut call| {
            if call.resolution.is_answer() && call.placed_by.as_deref() != Some(only) {
                call.resolution = Resolution::Undetermined;
                call.placed_by = None;
                call.target = None;
                call.declaration_line = None;
                call.outside = None;
            }
            call
        })
        .collect()
}

fn unpaired(pairing: &Pairing) -> u64 {
    pairing.engine_paired.iter().filter(|p| !**p).count() as u64
}

fn judge_population(
    kind: SiteKind,
    calls: &[Call],
    truth_sites: &[TruthSite],
    pairing: &Pairing,
    index: &EntityIndex<'_>,
    scored: &mut Scored,
) {
    scored.implicit += truth_sites.iter().filter(|s| s.implicit.is_some()).count() as u64;
    scored.unjudged_truth += truth_sites
        .iter()
        .filter(|s| s.implicit.is_none() && s.unjudged.is_some())
        .count() as u64;
    for judged in judge_sites(kind, calls, truth_sites, pairing, index) {
        let JudgedSite {
            site,
            partner,
            record,
        } = judged;
        if record.is_judged_in_tree() && a_target_is_declared(site, index) {
            scored.ceiling_hits += 1;
        }
        if let (true, Some(set)) = (
            record.is_judged_in_tree(),
            partner.and_then(|c| c.may_reach.as_ref()),
        ) {
            judge_may_reach(site, set, &mut scored.may_reach);
        }
        scored.sites.push(record);
    }
}

/// One judged truth site, the engine site it paired with, and its record.
#[derive(Debug, Clone)]
pub struct JudgedSite<'a> {
    pub site: &'a TruthSite,
    pub partner: Option<&'a Call>,
    pub record: SiteRecord,
}

/// Every judged truth site of one population (implicit and unjudged ones left
/// out), in truth order, with its partner and verdict: what the figures count and
/// what `harness misses` groups.
pub fn judge_sites<'a>(
    kind: SiteKind,
    calls: &'a [Call],
    truth_sites: &'a [TruthSite],
    pairing: &Pairing,
    index: &EntityIndex<'_>,
) -> Vec<JudgedSite<'a>> {
    let mut seen: HashMap<(&str, u32, &str), u32> = HashMap::new();
    let mut judged = Vec::new();
    for (i, site) in truth_sites.iter().enumerate() {
        let nth = seen.entry((&site.file, site.line, &site.name)).or_default();
        let this_nth = *nth;
        *nth += 1;
        if !site.is_judged() {
            continue;
        }
        let partner = pairing.truth_to_engine[i].map(|e| &calls[e]);
        let category = category_of(site);
        let verdict = judge(site, category, partner, index);
        let record = SiteRecord {
            kind,
            file: site.file.clone(),
            line: site.line,
            column: site.column.or(partner.and_then(|c| c.column)),
            name: site.name.clone(),
            nth: this_nth,
            truth: category,
            answer: answer_of(partner),
            verdict,
            family: partner
                .filter(|c| c.resolution.is_answer())
                .and_then(|c| c.placed_by.clone()),
            primary: site.primary,
        };
        judged.push(JudgedSite {
            site,
            partner,
            record,
        });
    }
    judged
}

/// Whether a may-reach set holds the targets the oracle saw at its site.
fn judge_may_reach(site: &TruthSite, set: &MayReach, counts: &mut MayReachCounts) {
    let held =
        |(file, line): (&str, u32)| set.targets.iter().any(|t| t.file == file && t.line == line);
    let seen: Vec<(&str, u32)> = site.in_tree_targets().collect();
    counts.judged += 1;
    counts.members += set.targets.len() as u64;
    if seen.iter().all(|&t| held(t)) {
        counts.holding_all += 1;
    }
    if !seen.iter().any(|&t| held(t)) {
        counts.holding_none += 1;
    }
}

/// What the truth asks: abstain (proofs), an in-tree target, or an exit.
pub fn category_of(site: &TruthSite) -> TruthCategory {
    if site.expect == Some(Expect::Abstain) {
        TruthCategory::Abstain
    } else if site.in_tree_targets().next().is_some() {
        TruthCategory::InTree
    } else {
        TruthCategory::Outside
    }
}

fn answer_of(partner: Option<&Call>) -> Answer {
    match partner.map(|c| c.resolution) {
        None => Answer::NoSite,
        Some(Resolution::InTree) => Answer::InTree,
        Some(Resolution::Outside) => Answer::Outside,
        Some(Resolution::Unresolved | Resolution::Undetermined) => Answer::Abstained,
    }
}

/// The ceiling: whether the engine has a declaration at any target, i.e. whether a
/// right answer was possible at all.
fn a_target_is_declared(site: &TruthSite, index: &EntityIndex<'_>) -> bool {
    site.in_tree_targets()
        .any(|(file, line)| index.declares_at(file, line))
}

/// The verdict on one truth site given its engine partner.
pub fn judge(
    site: &TruthSite,
    category: TruthCategory,
    partner: Option<&Call>,
    index: &EntityIndex<'_>,
) -> Verdict {
    let Some(call) = partner else {
        return Verdict::Missed;
    };
    match call.resolution {
        Resolution::InTree => judge_in_tree_answer(site, category, call, index),
        Resolution::Outside => judge_outside_answer(site, category),
        Resolution::Unresolved | Resolution::Undetermined => judge_abstention(site, category),
    }
}

fn judge_abstention(site: &TruthSite, category: TruthCategory) -> Verdict {
    if category == TruthCategory::Abstain {
        Verdict::RightAbstention
    } else if site.expect == Some(Expect::Either) {
        Verdict::AcceptableAbstention
    } else {
        Verdict::Declined
    }
}

fn judge_outside_answer(site: &TruthSite, category: TruthCategory) -> Verdict {
    if category == TruthCategory::Abstain {
        Verdict::Wrong
    } else if site.has_outside_target() {
        Verdict::RightOutside
    } else {
        Verdict::FalseOutside
    }
}

fn judge_in_tree_answer(
    site: &TruthSite,
    category: TruthCategory,
    call: &Call,
    index: &EntityIndex<'_>,
) -> Verdict {
    if category == TruthCategory::Abstain {
        return Verdict::Wrong;
    }
    let accepted: Vec<(&str, u32)> = site.in_tree_targets().collect();
    if accepted.is_empty() {
        return Verdict::FalseInTree;
    }
    the_declaration_verdict(call, &accepted, index)
}

/// Right, overload_unnamed, wrong_overload or wrong, from which declaration the
/// engine named and how many declarations share its qualified name (counted over
/// the report's entities).
fn the_declaration_verdict(
    call: &Call,
    accepted: &[(&str, u32)],
    index: &EntityIndex<'_>,
) -> Verdict {
    let Some(target) = &call.target else {
        return Verdict::Wrong;
    };
    let is_accepted = |pos: &(&str, u32)| accepted.contains(pos);
    let siblings = index.declarations_named(&target.qualified_name);
    let right_method = siblings.iter().any(is_accepted);
    match call.declaration_line {
        Some(line) if is_accepted(&(target.file.as_str(), line)) => Verdict::Right,
        Some(_) if right_method => Verdict::WrongOverload,
        Some(_) => Verdict::Wrong,
        None if siblings.len() > 1 && right_method => Verdict::OverloadUnnamed,
        None if is_accepted(&(target.file.as_str(), target.line)) && siblings.len() <= 1 => {
            Verdict::Right
        }
        None => Verdict::Wrong,
    }
}
