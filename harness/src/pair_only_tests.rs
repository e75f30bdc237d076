//! Pair scoring of reports whose calls are `site: false` (a peer tool that knows
//! caller → callee pairs only): judged by caller and called name, recalled by the
//! truth's slots, never paired with a truth site.

use crate::figures::figures;
use crate::report::{Call, Report};
use crate::score::{score, ScoreOptions};
use crate::testkit::*;

/// Entities: f (line 1), g (line 2), h (line 3), k (line 4), all in a.py.
fn entities() -> Vec<crate::report::Entity> {
    vec![
        entity(1, "f", "a.py", 1),
        entity(2, "g", "a.py", 2),
        entity(3, "h", "a.py", 3),
        entity(4, "k", "a.py", 4),
    ]
}

/// A pair-only answer: `caller` calls `name` at (a.py, `line`), no site.
fn pair(caller: u64, name: &str, line: u32) -> Call {
    let mut c = call(caller as u32, None, name)
        .to("pairs", name, "a.py", line)
        .called_by(caller);
    c.site = false;
    c
}

/// The truth: f calls g (line 10) and h (line 11); g calls h (line 20); k calls
/// something outside (line 30).
fn truth_of_four() -> oracles::Truth {
    truth(vec![
        site(10, Some(4), "g", &[("a.py", 2)]).called_from("a.py", 1),
        site(11, Some(4), "h", &[("a.py", 3)]).called_from("a.py", 1),
        site(20, Some(4), "h", &[("a.py", 3)]).called_from("a.py", 2),
        outside_site(30, Some(4), "print").called_from("a.py", 4),
    ])
}

fn pair_report(calls: Vec<Call>) -> Report {
    report(entities(), calls)
}

#[test]
fn pair_only_calls_are_no_sites() {
    let r = pair_report(vec![pair(1, "g", 2), pair(1, "h", 3)]);
    let s = score(&r, &truth_of_four(), &ScoreOptions::default());
    let f = figures(&s);
    // Every truth site is missed: a pair never pairs with a site.
    assert_eq!(f.right, 0);
    assert_eq!(f.coverage, Some(0.0));
    assert_eq!(f.precision, None);
    assert_eq!(f.unjudged_engine, 0);
    assert_eq!(s.engine_calls, 0);
    assert_eq!(f.pairs.counts.pair_only_calls, 2);
}

#[test]
fn a_pair_is_judged_by_its_caller_and_called_name() {
    let r = pair_report(vec![
        // Right: f calls g.
        pair(1, "g", 2),
        // Wrong callee for a judged name: f calls `h`, the tool says k.
        pair(1, "h", 4),
        // Not judged: the truth has no call of `g` in h.
        pair(3, "g", 2),
        // Right: g calls h.
        pair(2, "h", 3),
    ]);
    let f = figures(&score(&r, &truth_of_four(), &ScoreOptions::default()));
    let p = &f.pairs;
    assert_eq!(p.counts.engine_pairs, 4);
    assert_eq!(p.counts.judged_engine_pairs, 3);
    assert_eq!(p.counts.true_engine_pairs, 2);
    // Slots: f→{g}, f→{h}, g→{h}; the outside call has none.
    assert_eq!(p.counts.truth_pairs, 3);
    assert_eq!(p.counts.recalled_truth_pairs, 2);
    assert_eq!((p.precision, p.recall), (Some(0.666667), Some(0.666667)));
}

#[test]
fn a_pair_called_at_an_outside_site_is_judged_false() {
    // k calls `print`, which the truth says leaves the tree: a tool that names the
    // tree's declaration for it has a false pair.
    let r = pair_report(vec![pair(4, "print", 1)]);
    let p = figures(&score(&r, &truth_of_four(), &ScoreOptions::default())).pairs;
    assert_eq!(
        (p.counts.judged_engine_pairs, p.counts.true_engine_pairs),
        (1, 0)
    );
    assert_eq!(p.precision, Some(0.0));
}

#[test]
fn unresolved_pair_only_calls_are_counted_not_paired() {
    let mut unresolved = call(1, None, "g").unresolved().called_by(1);
    unresolved.site = false;
    let r = pair_report(vec![unresolved, pair(1, "g", 2)]);
    let p = figures(&score(&r, &truth_of_four(), &ScoreOptions::default())).pairs;
    assert_eq!(p.counts.pair_only_calls, 2);
    assert_eq!(p.counts.engine_pairs, 1);
    assert_eq!(p.counts.true_engine_pairs, 1);
}

#[test]
fn duplicate_pairs_count_once() {
    let r = pair_report(vec![pair(1, "g", 2), pair(1, "g", 2), pair(1, "g", 2)]);
    let p = figures(&score(&r, &truth_of_four(), &ScoreOptions::default())).pairs;
    assert_eq!(
        (p.counts.engine_pairs, p.counts.judged_engine_pairs),
        (1, 1)
    );
    assert_eq!(p.counts.recalled_truth_pairs, 1);
}

#[test]
fn sites_and_pairs_in_one_report_share_the_slots() {
    // f's call of g is a site the engine answers; g's call of h is a pair only.
    let site_call = call(10, Some(4), "g")
        .to("lexical", "g", "a.py", 2)
        .called_by(1);
    let r = pair_report(vec![site_call, pair(2, "h", 3)]);
    let f = figures(&score(&r, &truth_of_four(), &ScoreOptions::default()));
    assert_eq!(f.right, 1);
    let p = &f.pairs;
    assert_eq!(
        (p.counts.judged_engine_pairs, p.counts.true_engine_pairs),
        (2, 2)
    );
    assert_eq!(
        (p.counts.truth_pairs, p.counts.recalled_truth_pairs),
        (3, 2)
    );
}

#[test]
fn the_site_flag_round_trips_and_defaults_to_a_site() {
    let mut c = pair(1, "g", 2);
    let json = serde_json::to_value(&c).unwrap();
    assert_eq!(json["site"], serde_json::Value::Bool(false));
    c.site = true;
    let json = serde_json::to_value(&c).unwrap();
    assert!(json.get("site").is_none(), "a site writes no flag");
    let back: Call = serde_json::from_value(json).unwrap();
    assert!(back.site);
}
