//! Every verdict and every figure on small reports and truths built by hand, and the
//! worked example of docs/PROTOCOL.md.

use std::collections::BTreeMap;

use oracles::{ColumnUnit, Expect, Truth};
use serde_json::Value;

use crate::figures::{family_figures, figures, verdict_counts, Figures};
use crate::model::Row;
use crate::report::{Call, Report};
use crate::score::{score, Answer, ScoreOptions, Scored, SiteKind, TruthCategory, Verdict};
use crate::testkit::*;

fn scored(report: &Report, truth: &Truth) -> Scored {
    score(report, truth, &ScoreOptions::default())
}

fn verdicts(report: &Report, truth: &Truth) -> Vec<Verdict> {
    // Records are sorted by (kind, file, line, ...); tests put one site per line.
    scored(report, truth)
        .sites
        .iter()
        .map(|s| s.verdict)
        .collect()
}

/// Entities: f (line 1), g (line 2), two overloads of h (lines 3 and 4).
fn entities() -> Vec<crate::report::Entity> {
    vec![
        entity(1, "a.py::f", "a.py", 1),
        entity(2, "a.py::g", "a.py", 2),
        entity(3, "a.py::h", "a.py", 3),
        entity(4, "a.py::h", "a.py", 4),
    ]
}

fn one(call: Call, site: oracles::TruthSite) -> Verdict {
    let v = verdicts(&report(entities(), vec![call]), &truth(vec![site]));
    assert_eq!(v.len(), 1);
    v[0]
}

#[test]
fn in_tree_truth_verdicts() {
    let at = |name| call(10, Some(5), name);
    let wants = |name, target| site(10, Some(5), name, &[("a.py", target)]);
    assert_eq!(
        one(at("f").to("lexical", "a.py::f", "a.py", 1), wants("f", 1)),
        Verdict::Right
    );
    assert_eq!(
        one(
            at("f").to("unique_name", "a.py::g", "a.py", 2),
            wants("f", 1)
        ),
        Verdict::Wrong
    );
    assert_eq!(
        one(at("f").outside("builtin"), wants("f", 1)),
        Verdict::FalseOutside
    );
    assert_eq!(one(at("f"), wants("f", 1)), Verdict::Declined);
    assert_eq!(one(at("f").unresolved(), wants("f", 1)), Verdict::Declined);
}

#[test]
fn an_inactive_twin_is_no_overload() {
    // `def f` in a branch the build does not take (inactive) beside the one it
    // compiles: the call named the only declaration a call can reach.
    let mut twin = entity(5, "a.py::f", "a.py", 7);
    twin.inactive = true;
    let mut all = entities();
    all.push(twin);
    let c = call(10, Some(5), "f").to("lexical", "a.py::f", "a.py", 1);
    let v = verdicts(
        &report(all, vec![c]),
        &truth(vec![site(10, Some(5), "f", &[("a.py", 1)])]),
    );
    assert_eq!(v, [Verdict::Right]);
}

#[test]
fn overload_verdicts_count_declarations_in_the_report() {
    let at = || call(10, Some(5), "h");
    let wants_4 = || site(10, Some(5), "h", &[("a.py", 4)]);
    let h = |c: Call| c.to("import", "a.py::h", "a.py", 3);
    // Two declarations share a::h and none is named.
    assert_eq!(one(h(at()), wants_4()), Verdict::OverloadUnnamed);
    assert_eq!(one(h(at()).declaring(4), wants_4()), Verdict::Right);
    assert_eq!(one(h(at()).declaring(3), wants_4()), Verdict::WrongOverload);
    // Right qualified name but the truth wants g: plain wrong.
    let wants_g = site(10, Some(5), "h", &[("a.py", 2)]);
    assert_eq!(one(h(at()), wants_g.clone()), Verdict::Wrong);
    assert_eq!(one(h(at()).declaring(3), wants_g), Verdict::Wrong);
}

#[test]
fn a_declaration_the_build_leaves_out_is_no_overload() {
    let mut twins = entities();
    twins[2].inactive = true;
    let c = call(10, Some(5), "h").to("qualified_path", "a.py::h", "a.py", 4);
    let v = verdicts(
        &report(twins, vec![c]),
        &truth(vec![site(10, Some(5), "h", &[("a.py", 4)])]),
    );
    assert_eq!(v, vec![Verdict::Right]);
}

#[test]
fn outside_truth_verdicts() {
    let at = || call(10, Some(5), "len");
    let wants = || outside_site(10, Some(5), "len");
    assert_eq!(one(at().outside("builtin"), wants()), Verdict::RightOutside);
    assert_eq!(
        one(at().to("unique_name", "a.py::f", "a.py", 1), wants()),
        Verdict::FalseInTree
    );
    assert_eq!(one(at(), wants()), Verdict::Declined);
    assert_eq!(one(at().unresolved(), wants()), Verdict::Declined);
}

#[test]
fn abstain_truth_verdicts() {
    let at = || call(10, Some(5), "p");
    let wants = || site(10, Some(5), "p", &[]).expecting(Expect::Abstain);
    assert_eq!(
        one(at().to("unique_name", "a.py::f", "a.py", 1), wants()),
        Verdict::Wrong
    );
    assert_eq!(one(at().outside("builtin"), wants()), Verdict::Wrong);
    assert_eq!(one(at(), wants()), Verdict::RightAbstention);
    assert_eq!(one(at().unresolved(), wants()), Verdict::RightAbstention);
}

#[test]
fn either_truth_verdicts() {
    let at = || call(10, Some(5), "g");
    let wants = || site(10, Some(5), "g", &[("a.py", 2)]).expecting(Expect::Either);
    assert_eq!(one(at(), wants()), Verdict::AcceptableAbstention);
    assert_eq!(
        one(at().to("value_flow", "a.py::g", "a.py", 2), wants()),
        Verdict::Right
    );
    assert_eq!(
        one(at().to("value_flow", "a.py::f", "a.py", 1), wants()),
        Verdict::Wrong
    );
}

#[test]
fn a_multi_target_site_is_right_on_any_target() {
    let wants = || site(10, Some(5), "C", &[("a.py", 1), ("a.py", 2)]);
    let at = || call(10, Some(5), "C");
    assert_eq!(
        one(at().to("construction", "a.py::f", "a.py", 1), wants()),
        Verdict::Right
    );
    assert_eq!(
        one(at().to("construction", "a.py::g", "a.py", 2), wants()),
        Verdict::Right
    );
    assert_eq!(
        one(
            at().to("construction", "a.py::h", "a.py", 3).declaring(3),
            wants()
        ),
        Verdict::Wrong
    );
}

/// A may-reach set is declined as a site answer and judged apart: whether it
/// holds every target the oracle saw, or none of them.
#[test]
fn a_may_reach_set_is_declined_and_judged_apart() {
    let set = |line| {
        call(line, Some(5), "cb").may_reach(
            "value_flow",
            &[("a.py::f", "a.py", 1), ("a.py::g", "a.py", 2)],
        )
    };
    let report = report(entities(), vec![set(10), set(11), set(12), set(13)]);
    let truth = truth(vec![
        site(10, Some(5), "cb", &[("a.py", 1)]),
        site(11, Some(5), "cb", &[("a.py", 1), ("a.py", 2)]),
        site(12, Some(5), "cb", &[("a.py", 1), ("a.py", 3)]),
        site(13, Some(5), "cb", &[("a.py", 3)]),
    ]);
    let scored = scored(&report, &truth);
    assert!(scored.sites.iter().all(|s| s.verdict == Verdict::Declined));
    let m = &scored.may_reach;
    assert_eq!((m.sets, m.judged, m.members), (4, 4, 8));
    assert_eq!((m.holding_all, m.holding_none), (2, 1));
    // Pairs stay the placed edges only: a set is not an edge for a site oracle.
    assert_eq!(scored.pairs.engine_pairs, 0);
}

#[test]
fn two_calls_of_one_name_on_one_line_are_judged_apart() {
    // f(f(x)) where the outer f is placed and the inner one is not; the engine lists
    // the inner call first.
    let engine = vec![
        call(10, Some(3), "f"),
        call(10, Some(1), "f").to("lexical", "a.py::f", "a.py", 1),
    ];
    let truth = truth(vec![
        site(10, Some(1), "f", &[("a.py", 1)]),
        site(10, Some(3), "f", &[("a.py", 1)]),
    ]);
    let s = scored(&report(entities(), engine), &truth);
    let by_column: BTreeMap<u32, Verdict> = s
        .sites
        .iter()
        .map(|r| (r.column.unwrap(), r.verdict))
        .collect();
    assert_eq!(by_column[&1], Verdict::Right);
    assert_eq!(by_column[&3], Verdict::Declined);
    assert_eq!(
        s.sites.iter().map(|r| r.nth).collect::<Vec<_>>(),
        vec![0, 1]
    );
}

#[test]
fn a_truth_with_columns_against_a_report_without_pairs_in_order() {
    let engine = vec![
        call(10, None, "f").to("lexical", "a.py::f", "a.py", 1),
        call(10, None, "f"),
    ];
    let truth = truth(vec![
        site(10, Some(1), "f", &[("a.py", 1)]),
        site(10, Some(3), "f", &[("a.py", 1)]),
    ]);
    let s = scored(&report(entities(), engine), &truth);
    let by_column: BTreeMap<u32, Verdict> = s
        .sites
        .iter()
        .map(|r| (r.column.unwrap(), r.verdict))
        .collect();
    assert_eq!(by_column[&1], Verdict::Right);
    assert_eq!(by_column[&3], Verdict::Declined);
    assert_eq!(s.unjudged_engine, 0);
}

#[test]
fn unjudged_implicit_missed_and_unpaired_sites_are_counted_not_scored() {
    let engine = vec![
        call(10, Some(1), "reflect"),
        call(11, Some(1), "extra").to("lexical", "a.py::f", "a.py", 1),
    ];
    let truth = truth(vec![
        site(10, Some(1), "reflect", &[]).unjudged("reflection"),
        site(12, Some(1), "drop", &[]).implicit("drop"),
        site(13, Some(1), "f", &[("a.py", 1)]),
    ]);
    let s = scored(&report(entities(), engine), &truth);
    assert_eq!(s.sites.len(), 1);
    assert_eq!(s.sites[0].verdict, Verdict::Missed);
    assert_eq!(s.sites[0].answer, Answer::NoSite);
    // The engine's `reflect` is absorbed by the unjudged truth site; `extra` is unjudged.
    assert_eq!((s.unjudged_engine, s.unjudged_truth, s.implicit), (1, 1, 1));
    let f = figures(&s);
    assert_eq!(
        (f.unjudged, f.implicit, f.missed, f.judged_in_tree),
        (2, 1, 1, 1)
    );
    assert_eq!(f.coverage, Some(0.0));
    assert_eq!(f.precision, None);
}

/// A population with one site of every verdict, and the figures it must give.
#[test]
fn every_figure_on_a_population_of_every_verdict() {
    let e = |line, name: &str| call(line, Some(1), name).called_by(1);
    let engine = vec![
        e(10, "f").to("lexical", "a.py::f", "a.py", 1), // right
        e(11, "h").to("import", "a.py::h", "a.py", 3),  // overload_unnamed
        e(12, "h").to("import", "a.py::h", "a.py", 3).declaring(3), // wrong_overload
        e(13, "g").to("unique_name", "a.py::f", "a.py", 1), // wrong
        e(14, "g").outside("builtin"),                  // false_outside
        e(15, "g"),                                     // declined
        e(16, "len").outside("builtin"),                // right_outside
        e(17, "len").to("unique_name", "a.py::g", "a.py", 2), // false_in_tree
        e(18, "p"),                                     // right_abstention
        e(19, "q"),                                     // acceptable_abstention
        e(20, "x").to("lexical", "a.py::g", "a.py", 2), // unjudged (no truth)
    ];
    let truth = truth(vec![
        site(10, Some(1), "f", &[("a.py", 1)]),
        site(11, Some(1), "h", &[("a.py", 4)]),
        site(12, Some(1), "h", &[("a.py", 4)]),
        site(13, Some(1), "g", &[("a.py", 2)]),
        site(14, Some(1), "g", &[("a.py", 2)]),
        site(15, Some(1), "g", &[("other.py", 9)]),
        outside_site(16, Some(1), "len"),
        outside_site(17, Some(1), "len"),
        site(18, Some(1), "p", &[]).expecting(Expect::Abstain),
        site(19, Some(1), "q", &[("a.py", 2)]).expecting(Expect::Either),
        site(21, Some(1), "g", &[("a.py", 2)]), // missed
    ]);
    let s = scored(&report(entities(), engine), &truth);
    let counts = verdict_counts(&s);
    for verdict in Verdict::ALL {
        assert_eq!(counts[&verdict], 1, "{verdict:?}");
    }
    let f = figures(&s);
    // In-tree sites 10-15 and 21 (19 abstained acceptably, so it is not judged).
    assert_eq!(f.judged_in_tree, 7);
    assert_eq!((f.judged_outside, f.judged_abstain), (2, 1));
    assert_eq!(f.right, 1);
    assert_eq!(f.coverage, Some(0.142857));
    assert_eq!(f.right_method, Some(0.428571)); // (1 + 1 + 1) / 7
                                                // Judged answers: right, wrong_overload, wrong, false_outside, right_outside, false_in_tree.
    assert_eq!(f.precision, Some(0.333333)); // (1 + 1) / 6
    assert_eq!(f.in_tree_precision, Some(0.25)); // 1 of lines 10, 12, 13, 17
    assert_eq!(f.outside_precision, Some(0.5)); // 1 of lines 14, 16
    assert_eq!(
        (f.false_edges, f.false_outside, f.overload_unnamed),
        (3, 1, 1)
    );
    assert_eq!((f.answered_calls, f.engine_calls), (8, 11));
    assert_eq!(f.answered, Some(0.727273));
    // Ceiling: line 15 targets other.py:9, which no entity declares: 6 of 7.
    assert_eq!(f.ceiling, Some(0.857143));
    assert_eq!((f.unjudged, f.implicit, f.missed), (1, 0, 1));

    let fam = family_figures(&s);
    assert_eq!(
        (
            fam["lexical"].answers,
            fam["lexical"].right,
            fam["lexical"].wrong
        ),
        (2, 1, 0)
    );
    assert_eq!(
        (
            fam["import"].answers,
            fam["import"].right,
            fam["import"].wrong
        ),
        (2, 0, 1)
    );
    assert_eq!(fam["import"].precision, Some(0.0));
    assert_eq!(
        (fam["unique_name"].answers, fam["unique_name"].wrong),
        (2, 2)
    );
    assert_eq!(
        (
            fam["builtin"].answers,
            fam["builtin"].right,
            fam["builtin"].wrong
        ),
        (2, 1, 1)
    );
    assert_eq!(fam["builtin"].precision, Some(0.5));

    // Pairs: all callers are entity 1 (a.py:1).
    let p = &f.pairs;
    // Engine pairs: f:1→f:1, →h:3 (two calls), →f:1 again, →g:2 (twice) = {f1, h3, g2}.
    assert_eq!(p.counts.engine_pairs, 3);
    // Judged: from sites 10-17 (in-tree answers at 10, 11, 12, 13, 17) = {f1, h3, g2}.
    assert_eq!(p.counts.judged_engine_pairs, 3);
    // Truth universe: f1, h4, g2, other9, (either) g2 → f1 and g2 are true.
    assert_eq!(p.counts.true_engine_pairs, 2);
    // Slots from a.py:1 (borrowed from the engine partners): {f1}, {h4}, {g2},
    // {other9}; the missed line 21 has no partner to borrow from, so its caller is
    // the module (a.py:0): a fifth slot {g2}@0.
    assert_eq!(p.counts.truth_pairs, 5);
    assert_eq!(p.counts.recalled_truth_pairs, 2);
    assert_eq!((p.precision, p.recall), (Some(0.666667), Some(0.4)));
}

#[test]
fn only_one_family_reads_the_others_as_declined() {
    let engine = vec![
        call(10, Some(1), "f").to("lexical", "a.py::f", "a.py", 1),
        call(11, Some(1), "g").to("unique_name", "a.py::f", "a.py", 1),
        call(12, Some(1), "p").to("unique_name", "a.py::f", "a.py", 1),
    ];
    let truth = truth(vec![
        site(10, Some(1), "f", &[("a.py", 1)]),
        site(11, Some(1), "g", &[("a.py", 2)]),
        site(12, Some(1), "p", &[]).expecting(Expect::Abstain),
    ]);
    let report = report(entities(), engine);
    let all = score(&report, &truth, &ScoreOptions::default());
    assert_eq!(figures(&all).precision, Some(0.333333));
    let only = |family: &str| {
        let options = ScoreOptions {
            only: Some(family.into()),
            ..ScoreOptions::default()
        };
        score(&report, &truth, &options)
    };
    let lexical = only("lexical");
    let v: Vec<_> = lexical.sites.iter().map(|s| s.verdict).collect();
    assert_eq!(
        v,
        vec![Verdict::Right, Verdict::Declined, Verdict::RightAbstention]
    );
    let f = figures(&lexical);
    assert_eq!(
        (f.coverage, f.precision, f.answered),
        (Some(0.5), Some(1.0), Some(0.333333))
    );
    assert_eq!(
        family_figures(&lexical).keys().collect::<Vec<_>>(),
        vec!["lexical"]
    );
    let unique = figures(&only("unique_name"));
    assert_eq!((unique.right, unique.precision), (0, Some(0.0)));
}

#[test]
fn references_are_judged_only_when_the_truth_lists_them() {
    let mut r = report(entities(), vec![]);
    r.references = vec![call(10, Some(7), "f").to("value_flow", "a.py::f", "a.py", 1)];
    let mut t = truth(vec![]);
    let s = scored(&r, &t);
    assert!(s.sites.is_empty());
    assert_eq!(s.unjudged_engine, 0);
    t.references = Some(vec![site(10, Some(7), "f", &[("a.py", 1)])]);
    let s = scored(&r, &t);
    assert_eq!(s.sites.len(), 1);
    assert_eq!(
        (s.sites[0].kind, s.sites[0].verdict),
        (SiteKind::Reference, Verdict::Right)
    );
    // References are not engine calls: answered reads calls only.
    assert_eq!(figures(&s).answered, None);
}

#[test]
fn a_truth_site_without_a_caller_borrows_the_engines() {
    let engine = vec![call(10, Some(1), "f")
        .called_by(2)
        .to("lexical", "a.py::f", "a.py", 1)];
    let with = truth(vec![
        site(10, Some(1), "f", &[("a.py", 1)]).called_from("a.py", 2)
    ]);
    let without = truth(vec![site(10, Some(1), "f", &[("a.py", 1)])]);
    let wrong_caller = truth(vec![
        site(10, Some(1), "f", &[("a.py", 1)]).called_from("a.py", 3)
    ]);
    let r = report(entities(), engine);
    for (t, precision) in [
        (&with, Some(1.0)),
        (&without, Some(1.0)),
        (&wrong_caller, Some(0.0)),
    ] {
        assert_eq!(figures(&scored(&r, t)).pairs.precision, precision);
    }
}

#[test]
fn categories_follow_expect_then_targets() {
    let s = scored(
        &report(entities(), vec![]),
        &truth(vec![
            site(1, None, "a", &[("a.py", 1)]),
            outside_site(2, None, "b"),
            site(3, None, "c", &[]).expecting(Expect::Abstain),
        ]),
    );
    let c: Vec<_> = s.sites.iter().map(|r| r.truth).collect();
    assert_eq!(
        c,
        vec![
            TruthCategory::InTree,
            TruthCategory::Outside,
            TruthCategory::Abstain
        ]
    );
}

#[test]
fn an_open_paren_truth_pairs_by_order_and_still_judges() {
    let engine = vec![
        call(10, Some(1), "f").to("lexical", "a.py::f", "a.py", 1),
        call(10, Some(3), "f").to("lexical", "a.py::g", "a.py", 2),
    ];
    let t = truth_with_unit(
        vec![
            site(10, Some(4), "f", &[("a.py", 2)]),
            site(10, Some(2), "f", &[("a.py", 1)]),
        ],
        ColumnUnit::OpenParen,
    );
    let v = verdicts(&report(entities(), engine), &t);
    assert_eq!(v, vec![Verdict::Right, Verdict::Right]);
}

// ---- The worked example of docs/PROTOCOL.md ----

const PROTOCOL_MD: &str = include_str!("../../docs/PROTOCOL.md");

/// The text of the fenced block whose info string is `info`.
fn block(info: &str) -> String {
    let opening = format!("```{info}\n");
    let start = PROTOCOL_MD
        .find(&opening)
        .unwrap_or_else(|| panic!("no block {info}"))
        + opening.len();
    let end = start + PROTOCOL_MD[start..].find("```").expect("closed block");
    PROTOCOL_MD[start..end].to_string()
}

fn row_of(report: &Report, truth: &Truth, options: &ScoreOptions) -> Row {
    let mut row = Row::default();
    crate::measure::fill_scores(&mut row, report, truth, options);
    row
}

fn check_figures(row: &Row, expected: &str) {
    let flat = crate::reproduce::comparable(row);
    let mut checked = 0;
    for line in expected.lines().filter(|l| !l.trim().is_empty()) {
        let (key, want) = line.split_once(" = ").expect("key = value");
        let got = flat.get(key).unwrap_or_else(|| panic!("no figure {key}"));
        match (want, got) {
            ("none", Value::Null) => {}
            (number, Value::Number(n)) => {
                let want: f64 = number.parse().expect("a number");
                assert!(
                    (n.as_f64().unwrap() - want).abs() < 1e-9,
                    "{key}: protocol says {want}, scorer gives {n}"
                );
            }
            _ => panic!("{key}: protocol says {want}, scorer gives {got}"),
        }
        checked += 1;
    }
    assert!(checked > 5);
}

#[test]
fn worked_example_matches_protocol_md() {
    let report = Report::from_slice(block("json worked-report").as_bytes(), "PROTOCOL.md").unwrap();
    let truth = Truth::from_slice(block("json worked-truth").as_bytes(), "PROTOCOL.md").unwrap();
    let row = row_of(&report, &truth, &ScoreOptions::default());
    check_figures(&row, &block("text worked-figures"));
    let only = ScoreOptions {
        only: Some("own_type".into()),
        ..ScoreOptions::default()
    };
    check_figures(
        &row_of(&report, &truth, &only),
        &block("text worked-figures-only-own_type"),
    );
}

#[test]
fn figures_serialize_every_field() {
    let json = serde_json::to_value(Figures::default()).unwrap();
    for key in [
        "coverage",
        "right_method",
        "precision",
        "ceiling",
        "answered",
        "unjudged",
        "implicit",
    ] {
        assert!(json.get(key).is_some(), "{key}");
    }
    assert!(json["pairs"].get("recall").is_some());
}
