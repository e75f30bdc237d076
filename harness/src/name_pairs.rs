//! Pair-level scoring by dotted names (PyCG's format, docs/PROTOCOL.md §11): the
//! engine's report turned into PyCG's names, any tool's pair graph judged against a
//! pair-level truth, per case and in all.
//!
//! A case is *complete* when the tool names no pair the case does not expect, and
//! *sound* when it names every pair the case expects. Expectations under `<builtin>`
//! and in modules the case does not contain are set apart by the truth adapter and
//! counted here, never judged; so are the tool's own pairs of that kind, and the
//! engine's calls of a class that declares no `__init__` (PyCG names a construction
//! only by the `__init__` it runs, so such an engine edge has no counterpart).

use std::collections::{BTreeMap, BTreeSet, HashMap};

use oracles::pairs::{module_of_path, NamePair, PairCase, PairGraph, SetApart};
use serde::{Deserialize, Serialize};

use crate::figures::{ratio, FamilyFigures};
use crate::model::{Measurements, Row};
use crate::report::{Entity, Report, Resolution};
use crate::score::{Answer, SiteKind, SiteRecord, TruthCategory, Verdict};
use crate::tables::{header, percent};

/// Why an engine edge has no PyCG counterpart: a call of a class without `__init__`.
pub const SET_APART_CLASS_WITHOUT_INIT: &str = "class_without_init";

/// The figures of one pair-level row.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NamePairFigures {
    /// Judged truth pairs (expectations not set apart).
    pub truth_pairs: u64,
    /// Judged pairs the tool names.
    pub tool_pairs: u64,
    /// Tool pairs the truth expects.
    pub true_pairs: u64,
    pub precision: Option<f64>,
    pub recall: Option<f64>,
    /// Cases judged, and those with no extra pair (complete), no missing pair
    /// (sound), and both (exact).
    pub cases: u64,
    pub complete_cases: u64,
    pub sound_cases: u64,
    pub exact_cases: u64,
    /// Expectations set apart by reason (`builtin`, `absent_module`).
    #[serde(default)]
    pub truth_set_apart: BTreeMap<String, u64>,
    /// The tool's pairs set apart by reason.
    #[serde(default)]
    pub tool_set_apart: BTreeMap<String, u64>,
    /// Cases the tool gave no answer for (a crash), counted as empty answers.
    #[serde(default)]
    pub tool_failed_cases: u64,
}

/// A tool's pairs for one case, with the family that made each pair when the tool is
/// the engine.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ToolCase {
    pub case: PairCase,
    pub families: BTreeMap<NamePair, String>,
    pub failed: bool,
}

/// One case's judgement: the records the gate compares, and the counts.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PairScore {
    pub figures: NamePairFigures,
    pub records: Vec<SiteRecord>,
    pub families: BTreeMap<String, FamilyFigures>,
}

/// Judges a tool's pair graph against a pair-level truth, case by case. A case the
/// tool has no entry for is an empty answer.
pub fn score_pairs(truth: &PairGraph, tool: &[ToolCase]) -> PairScore {
    let by_case: HashMap<&str, &ToolCase> =
        tool.iter().map(|t| (t.case.case.as_str(), t)).collect();
    let empty = ToolCase::default();
    let mut score = PairScore::default();
    let f = &mut score.figures;
    for case in &truth.cases {
        let answer = by_case.get(case.case.as_str()).copied().unwrap_or(&empty);
        let expected: BTreeSet<&NamePair> = case.pairs.iter().collect();
        let named: BTreeSet<&NamePair> = answer.case.pairs.iter().collect();
        let found = expected.intersection(&named).count() as u64;
        f.cases += 1;
        f.truth_pairs += expected.len() as u64;
        f.tool_pairs += named.len() as u64;
        f.true_pairs += found;
        let complete = named.is_subset(&expected);
        let sound = expected.is_subset(&named);
        f.complete_cases += u64::from(complete);
        f.sound_cases += u64::from(sound);
        f.exact_cases += u64::from(complete && sound);
        f.tool_failed_cases += u64::from(answer.failed);
        for (why, n) in case.set_apart_counts() {
            *f.truth_set_apart.entry(why).or_default() += n;
        }
        for (why, n) in answer.case.set_apart_counts() {
            *f.tool_set_apart.entry(why).or_default() += n;
        }
        for pair in &expected {
            let verdict = if named.contains(pair) {
                Verdict::Right
            } else {
                Verdict::Missed
            };
            let family = answer.families.get(*pair).cloned();
            score
                .records
                .push(record(&case.case, pair, verdict, family));
        }
        for pair in named.difference(&expected) {
            let family = answer.families.get(*pair).cloned();
            score
                .records
                .push(record(&case.case, pair, Verdict::Wrong, family));
        }
    }
    f.precision = ratio(f.true_pairs, f.tool_pairs);
    f.recall = ratio(f.true_pairs, f.truth_pairs);
    for tool_case in tool {
        for family in tool_case.families.values() {
            score.families.entry(family.clone()).or_default().answers += 1;
        }
    }
    for r in &score.records {
        let Some(family) = &r.family else { continue };
        let entry = score.families.entry(family.clone()).or_default();
        entry.right += u64::from(r.verdict == Verdict::Right);
        entry.wrong += u64::from(r.verdict == Verdict::Wrong);
    }
    for figures in score.families.values_mut() {
        figures.precision = ratio(figures.right, figures.right + figures.wrong);
    }
    score.records.sort();
    score
}

/// A pair as a record the gate can compare across runs: file = the case, line 0,
/// name = `caller -> callee`. `right` and `missed` are expected pairs; `wrong` is a
/// pair the case does not expect.
fn record(case: &str, pair: &NamePair, verdict: Verdict, family: Option<String>) -> SiteRecord {
    SiteRecord {
        kind: SiteKind::Call,
        file: case.to_string(),
        line: 0,
        column: None,
        name: format!("{} -> {}", pair.caller, pair.callee),
        nth: 0,
        truth: TruthCategory::InTree,
        answer: if verdict == Verdict::Missed {
            Answer::NoSite
        } else {
            Answer::InTree
        },
        verdict,
        family,
        primary: false,
    }
}

/// The engine's report of one case (analysed as its own root) in PyCG's names:
/// module from the file path (`nested/mod.py` → `nested.mod`), then the scope path
/// (`main.A.method`, `main.func.inner`), lambdas numbered `<lambdaN>` in source order
/// within their enclosing scope, as PyCG numbers them. A call at module level — or in
/// a class body, which PyCG attributes to the enclosing scope — has that scope as
/// caller. In-tree answers become pairs, and so does every member of a may-reach
/// set (D25): PyCG's graph is a may-call graph.
pub fn engine_case(case_id: &str, modules: &BTreeSet<String>, report: &Report) -> ToolCase {
    let names = DottedNames::new(report);
    let mut raw = Vec::new();
    let mut families_of: BTreeMap<(String, String), String> = BTreeMap::new();
    let mut class_targets = Vec::new();
    for call in &report.calls {
        let family = match &call.may_reach {
            Some(set) if call.resolution == Resolution::Undetermined => Some(&set.placed_by),
            _ => call.placed_by.as_ref(),
        };
        for target in call.edge_targets() {
            let caller = match call.caller.and_then(|id| names.entity(id)) {
                Some(entity) => names.caller_name(entity),
                None => module_of_path(&call.file).unwrap_or_default(),
            };
            let callee_entity = target
                .entity
                .and_then(|id| names.entity(id))
                .or_else(|| names.by_qualified_name(&target.qualified_name));
            let callee = match callee_entity {
                Some(entity) if entity.kind == "class" => {
                    class_targets.push((caller, names.dotted(entity)));
                    continue;
                }
                Some(entity) => names.dotted(entity),
                None => names.dotted_qualified(&target.qualified_name),
            };
            if let Some(family) = family {
                families_of
                    .entry((caller.clone(), callee.clone()))
                    .or_insert_with(|| family.clone());
            }
            raw.push((caller, callee));
        }
    }
    let mut case = PairCase::from_raw(case_id, modules, &raw);
    for (caller, callee) in class_targets {
        case.set_apart.push(SetApart {
            caller,
            callee,
            why: SET_APART_CLASS_WITHOUT_INIT.into(),
        });
    }
    case.set_apart.sort();
    case.set_apart.dedup();
    let families = case
        .pairs
        .iter()
        .filter_map(|p| {
            families_of
                .get(&(p.caller.clone(), p.callee.clone()))
                .map(|f| (p.clone(), f.clone()))
        })
        .collect();
    ToolCase {
        case,
        families,
        failed: false,
    }
}

/// Dotted names of a report's entities.
struct DottedNames<'a> {
    by_id: HashMap<u64, &'a Entity>,
    by_qualified_name: HashMap<&'a str, &'a Entity>,
    /// (file, enclosing qualified path, engine lambda segment) → PyCG's segment.
    lambdas: HashMap<(String, String), String>,
}

impl<'a> DottedNames<'a> {
    fn new(report: &'a Report) -> Self {
        let mut by_qualified_name = HashMap::new();
        for entity in &report.entities {
            by_qualified_name
                .entry(entity.qualified_name.as_str())
                .or_insert(entity);
        }
        // Lambdas of one enclosing scope, in source order, numbered from 1.
        let mut per_scope: BTreeMap<String, Vec<(u32, u32, &str)>> = BTreeMap::new();
        for entity in report.entities.iter().filter(|e| e.kind == "lambda") {
            let (scope, _) = split_last(&entity.qualified_name);
            per_scope.entry(scope.to_string()).or_default().push((
                entity.line,
                entity.column.unwrap_or(0),
                entity.qualified_name.as_str(),
            ));
        }
        let mut lambdas = HashMap::new();
        for (scope, mut members) in per_scope {
            members.sort();
            for (i, (_, _, qualified)) in members.iter().enumerate() {
                let (_, last) = split_last(qualified);
                lambdas.insert(
                    (scope.clone(), last.to_string()),
                    format!("<lambda{}>", i + 1),
                );
            }
        }
        DottedNames {
            by_id: report.entities.iter().map(|e| (e.id, e)).collect(),
            by_qualified_name,
            lambdas,
        }
    }

    fn entity(&self, id: u64) -> Option<&'a Entity> {
        self.by_id.get(&id).copied()
    }

    fn by_qualified_name(&self, name: &str) -> Option<&'a Entity> {
        self.by_qualified_name.get(name).copied()
    }

    fn dotted(&self, entity: &Entity) -> String {
        self.dotted_qualified(&entity.qualified_name)
    }

    /// `nested/mod.py::A::<lambda2>` → `nested.mod.A.<lambda1>` (renumbered).
    fn dotted_qualified(&self, qualified: &str) -> String {
        let mut segments = qualified.split("::");
        let file = segments.next().unwrap_or_default();
        let mut parts: Vec<String> = Vec::new();
        let module = module_of_path(file).unwrap_or_else(|| file.to_string());
        if !module.is_empty() {
            parts.push(module);
        }
        let mut scope = file.to_string();
        for segment in segments {
            let renamed = self
                .lambdas
                .get(&(scope.clone(), segment.to_string()))
                .cloned()
                .unwrap_or_else(|| segment.to_string());
            parts.push(renamed);
            scope = format!("{scope}::{segment}");
        }
        parts.join(".")
    }

    /// The caller PyCG would name: the entity, or — for a class body — the nearest
    /// enclosing scope that is not a class (the module at the top).
    fn caller_name(&self, entity: &Entity) -> String {
        let mut current = entity;
        while current.kind == "class" {
            let (scope, _) = split_last(&current.qualified_name);
            match self.by_qualified_name(scope) {
                Some(parent) => current = parent,
                None => return module_of_path(scope).unwrap_or_default(),
            }
        }
        self.dotted(current)
    }
}

fn split_last(qualified: &str) -> (&str, &str) {
    qualified.rsplit_once("::").unwrap_or((qualified, ""))
}

/// The CSV columns of the name-pair figures (empty for rows without them).
pub const CSV_COLUMNS: &[&str] = &[
    "name_pair_precision",
    "name_pair_recall",
    "name_truth_pairs",
    "name_tool_pairs",
    "name_true_pairs",
    "cases",
    "complete_cases",
    "sound_cases",
    "exact_cases",
];

/// The CSV cells of one row, in [`CSV_COLUMNS`] order.
pub fn csv_cells(row: &Row) -> Vec<String> {
    let Some(f) = row.name_pairs.as_ref().filter(|_| row.outcome.is_none()) else {
        return vec![String::new(); CSV_COLUMNS.len()];
    };
    let ratio = |v: Option<f64>| v.map(|v| v.to_string()).unwrap_or_default();
    vec![
        ratio(f.precision),
        ratio(f.recall),
        f.truth_pairs.to_string(),
        f.tool_pairs.to_string(),
        f.true_pairs.to_string(),
        f.cases.to_string(),
        f.complete_cases.to_string(),
        f.sound_cases.to_string(),
        f.exact_cases.to_string(),
    ]
}

fn counts(map: &BTreeMap<String, u64>) -> String {
    if map.is_empty() {
        return "—".to_string();
    }
    map.iter()
        .map(|(why, n)| format!("{why} {n}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The "Name pairs" section of MEASUREMENTS.md: every row with name-pair figures, the
/// engine's and each peer tool's side by side (the tool is the `engine` column).
pub fn render_section(md: &mut String, measurements: &Measurements) {
    let rows: Vec<&Row> = measurements
        .rows
        .iter()
        .filter(|r| r.name_pairs.is_some() || (r.outcome.is_some() && r.id.contains('@')))
        .collect();
    if rows.is_empty() {
        return;
    }
    md.push_str("## Name pairs\n\n");
    md.push_str(
        "Pair-level truths by dotted names (PyCG's format; docs/PROTOCOL.md §11). The tool under test is the `tool` column: the engine, or a peer tool in rows `<corpus>@<tool>`. A case is complete with no extra pair, sound with no missing pair. Set-apart pairs are counted, never judged.\n\n",
    );
    md.push_str(&header(&[
        "row",
        "tool",
        "pair precision",
        "pair recall",
        "truth pairs",
        "tool pairs",
        "true pairs",
        "cases complete",
        "cases sound",
        "cases exact",
        "truth set apart",
        "tool set apart",
    ]));
    for row in rows {
        let tool = if row.engine.version.is_empty() {
            row.engine.name.clone()
        } else {
            format!("{} {}", row.engine.name, row.engine.version)
        };
        let cells = match (&row.outcome, &row.name_pairs) {
            (None, Some(f)) => {
                let of = |n: u64| {
                    if f.cases == 0 {
                        "—".to_string()
                    } else {
                        format!("{n}/{}", f.cases)
                    }
                };
                vec![
                    percent(f.precision),
                    percent(f.recall),
                    f.truth_pairs.to_string(),
                    f.tool_pairs.to_string(),
                    f.true_pairs.to_string(),
                    of(f.complete_cases),
                    of(f.sound_cases),
                    of(f.exact_cases),
                    counts(&f.truth_set_apart),
                    counts(&f.tool_set_apart),
                ]
            }
            (Some(outcome), _) => {
                let mut cells = vec![outcome.to_string()];
                cells.resize(10, "—".to_string());
                cells
            }
            (None, None) => continue,
        };
        let cells: Vec<String> = cells.iter().map(|c| c.replace('|', "\\|")).collect();
        md.push_str(&format!(
            "| {} | {} | {} |\n",
            row.id.replace('|', "\\|"),
            tool.replace('|', "\\|"),
            cells.join(" | ")
        ));
    }
    md.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Report;

    fn report(json: &str) -> Report {
        Report::from_slice(json.as_bytes(), "r.json").unwrap()
    }

    /// One case in the engine's words: a module-level call, a method call, a nested
    /// function, two lambdas in one function (numbered 1 and 2 there although the
    /// engine numbers them per file), a class body call, a construction of a class
    /// without `__init__`, an import of another module, and an outside call.
    const CASE: &str = r#"{"schema": "callgraph-report/1", "engine": {"version": "t"},
     "entities": [
      {"id": 1, "qualified_name": "main.py::<lambda1>", "kind": "lambda", "file": "main.py", "line": 1, "column": 5},
      {"id": 2, "qualified_name": "main.py::A", "kind": "class", "file": "main.py", "line": 2},
      {"id": 3, "qualified_name": "main.py::A::method", "kind": "method", "file": "main.py", "line": 3},
      {"id": 4, "qualified_name": "main.py::func", "kind": "function", "file": "main.py", "line": 5},
      {"id": 5, "qualified_name": "main.py::func::inner", "kind": "function", "file": "main.py", "line": 6},
      {"id": 6, "qualified_name": "main.py::func::<lambda2>", "kind": "lambda", "file": "main.py", "line": 7, "column": 9},
      {"id": 7, "qualified_name": "main.py::func::<lambda3>", "kind": "lambda", "file": "main.py", "line": 7, "column": 30},
      {"id": 8, "qualified_name": "nested/mod.py::g", "kind": "function", "file": "nested/mod.py", "line": 1}],
     "calls": [
      {"file": "main.py", "line": 9, "column": 1, "caller": null, "name": "func", "resolution": "in_tree", "placed_by": "lexical",
       "target": {"entity": 4, "qualified_name": "main.py::func", "file": "main.py", "line": 5}},
      {"file": "main.py", "line": 4, "column": 5, "caller": 2, "name": "func", "resolution": "in_tree", "placed_by": "lexical",
       "target": {"entity": 4, "qualified_name": "main.py::func", "file": "main.py", "line": 5}},
      {"file": "main.py", "line": 8, "column": 5, "caller": 4, "name": "inner", "resolution": "in_tree", "placed_by": "lexical",
       "target": {"entity": 5, "qualified_name": "main.py::func::inner", "file": "main.py", "line": 6}},
      {"file": "main.py", "line": 8, "column": 12, "caller": 4, "name": "f", "resolution": "in_tree", "placed_by": "value_flow",
       "target": {"entity": 7, "qualified_name": "main.py::func::<lambda3>", "file": "main.py", "line": 7}},
      {"file": "main.py", "line": 8, "column": 20, "caller": 5, "name": "method", "resolution": "in_tree", "placed_by": "written_type",
       "target": {"entity": 3, "qualified_name": "main.py::A::method", "file": "main.py", "line": 3}},
      {"file": "main.py", "line": 10, "column": 1, "caller": null, "name": "A", "resolution": "in_tree", "placed_by": "construction",
       "target": {"entity": 2, "qualified_name": "main.py::A", "file": "main.py", "line": 2}},
      {"file": "main.py", "line": 11, "column": 1, "caller": 1, "name": "g", "resolution": "in_tree", "placed_by": "import",
       "target": {"entity": 8, "qualified_name": "nested/mod.py::g", "file": "nested/mod.py", "line": 1}},
      {"file": "main.py", "line": 12, "column": 1, "caller": null, "name": "print", "resolution": "outside", "placed_by": "builtin",
       "outside": {"kind": "builtin", "symbol": "print"}}]}"#;

    fn modules() -> BTreeSet<String> {
        ["main", "nested", "nested.mod"]
            .iter()
            .map(|s| s.to_string())
            .collect()
    }

    fn pairs(case: &PairCase) -> Vec<String> {
        case.pairs
            .iter()
            .map(|p| format!("{} -> {}", p.caller, p.callee))
            .collect()
    }

    #[test]
    fn the_engine_report_reads_in_pycg_names() {
        let tool = engine_case("c", &modules(), &report(CASE));
        assert_eq!(
            pairs(&tool.case),
            vec![
                "main -> main.func",
                "main.<lambda1> -> nested.mod.g",
                "main.func -> main.func.<lambda2>",
                "main.func -> main.func.inner",
                "main.func.inner -> main.A.method",
            ]
        );
        assert_eq!(
            tool.case.set_apart,
            vec![SetApart {
                caller: "main".into(),
                callee: "main.A".into(),
                why: "class_without_init".into()
            }]
        );
        let by_pair: Vec<&str> = tool.families.values().map(String::as_str).collect();
        assert_eq!(
            by_pair,
            vec!["lexical", "import", "value_flow", "lexical", "written_type"]
        );
    }

    /// An undetermined call with a may-reach set gives one pair per member, under
    /// the set's family; one without a set gives none.
    #[test]
    fn a_may_reach_set_gives_a_pair_per_member() {
        let json = r#"{"schema": "callgraph-report/1", "engine": {"version": "t"},
         "entities": [
          {"id": 1, "qualified_name": "main.py::run", "kind": "function", "file": "main.py", "line": 1},
          {"id": 2, "qualified_name": "main.py::f", "kind": "function", "file": "main.py", "line": 3},
          {"id": 3, "qualified_name": "main.py::g", "kind": "function", "file": "main.py", "line": 5}],
         "calls": [
          {"file": "main.py", "line": 2, "column": 5, "caller": 1, "name": "cb", "resolution": "undetermined",
           "reason": "ambiguous", "may_reach": {"placed_by": "value_flow", "targets": [
             {"entity": 2, "qualified_name": "main.py::f", "file": "main.py", "line": 3},
             {"entity": 3, "qualified_name": "main.py::g", "file": "main.py", "line": 5}]}},
          {"file": "main.py", "line": 2, "column": 9, "caller": 1, "name": "h", "resolution": "undetermined",
           "reason": "ambiguous"}]}"#;
        let tool = engine_case("c", &modules(), &report(json));
        assert_eq!(
            pairs(&tool.case),
            vec!["main.run -> main.f", "main.run -> main.g"]
        );
        let families: Vec<&str> = tool.families.values().map(String::as_str).collect();
        assert_eq!(families, vec!["value_flow", "value_flow"]);
    }

    fn graph(cases: Vec<PairCase>) -> PairGraph {
        PairGraph {
            schema: oracles::pairs::PAIRS_SCHEMA.into(),
            corpus: "m".into(),
            oracle: oracles::pycg::stamp("t"),
            cases,
        }
    }

    fn case(id: &str, raw: &[(&str, &str)]) -> PairCase {
        let raw: Vec<(String, String)> = raw
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect();
        let modules: BTreeSet<String> = ["main".to_string()].into();
        PairCase::from_raw(id, &modules, &raw)
    }

    #[test]
    fn pairs_are_judged_per_case_complete_and_sound() {
        let truth = graph(vec![
            case(
                "a",
                &[
                    ("main", "main.f"),
                    ("main", "main.g"),
                    ("main", "<builtin>.len"),
                ],
            ),
            case("b", &[("main", "main.f")]),
            case("c", &[("main.f", "main.g")]),
            case("d", &[]),
        ]);
        let tool = vec![
            // a: one of two, nothing extra: complete, not sound.
            ToolCase {
                case: case("a", &[("main", "main.f"), ("main", "<builtin>.len")]),
                ..ToolCase::default()
            },
            // b: the expected pair and an extra one: sound, not complete.
            ToolCase {
                case: case("b", &[("main", "main.f"), ("main", "main.h")]),
                ..ToolCase::default()
            },
            // c: absent (counts as an empty answer). d: nothing expected, nothing named.
        ];
        let score = score_pairs(&truth, &tool);
        let f = &score.figures;
        assert_eq!((f.truth_pairs, f.tool_pairs, f.true_pairs), (4, 3, 2));
        assert_eq!(f.precision, Some(0.666667));
        assert_eq!(f.recall, Some(0.5));
        assert_eq!(f.cases, 4);
        assert_eq!(f.complete_cases, 3); // a, c, d
        assert_eq!(f.sound_cases, 2); // b, d
        assert_eq!(f.exact_cases, 1); // d
        assert_eq!(f.truth_set_apart.get("builtin"), Some(&1));
        assert_eq!(f.tool_set_apart.get("builtin"), Some(&1));
        let verdicts: Vec<(String, Verdict)> = score
            .records
            .iter()
            .map(|r| (format!("{}: {}", r.file, r.name), r.verdict))
            .collect();
        assert!(verdicts.contains(&("a: main -> main.g".into(), Verdict::Missed)));
        assert!(verdicts.contains(&("b: main -> main.h".into(), Verdict::Wrong)));
        assert!(verdicts.contains(&("c: main.f -> main.g".into(), Verdict::Missed)));
        assert_eq!(score.records.len(), 5);
    }

    #[test]
    fn the_gate_compares_pair_rows_pair_by_pair() {
        let truth = graph(vec![case("a", &[("main", "main.f"), ("main", "main.g")])]);
        let row = |pairs: &[(&str, &str)]| {
            let score = score_pairs(
                &truth,
                &[ToolCase {
                    case: case("a", pairs),
                    ..ToolCase::default()
                }],
            );
            Row {
                id: "m".into(),
                name_pairs: Some(score.figures),
                sites: score.records,
                ..Row::default()
            }
        };
        let before = Measurements::new(vec![row(&[("main", "main.f")])]);
        assert!(before.rows[0].is_scored());
        let same = crate::gate::compare(&before, &before, 0.001);
        assert_eq!(same.exit_code(), crate::error::EXIT_OK);
        // Losing the right pair and naming a wrong one are two regressions, and the
        // pair precision fell.
        let after = Measurements::new(vec![row(&[("main", "main.h")])]);
        let verdict = crate::gate::compare(&before, &after, 0.001);
        assert_eq!(verdict.exit_code(), crate::error::EXIT_NO);
        let text = crate::gate::render(&verdict, 0.001);
        assert!(
            text.contains("lost a right answer at a:0 main -> main.f"),
            "{text}"
        );
        assert!(
            text.contains("gained a wrong answer at a:0 main -> main.h"),
            "{text}"
        );
        assert!(text.contains("precision fell"), "{text}");
    }
}
