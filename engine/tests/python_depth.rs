//! Every recursion of the Python frontend and its readers is bounded (issue 14, D4):
//! annotations and dotted paths nested far deeper than the worker's 64 MiB stack
//! allows are cut and counted as parse errors, and the run goes on. Each input
//! below overflowed the stack (SIGABRT, no report) before the bound.

use engine::Options;

/// The analysed report of one file `a.py` holding `source`.
fn report_of(source: &str) -> serde_json::Value {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.py"), source).unwrap();
    serde_json::to_value(engine::analyze(dir.path(), &Options::default()).unwrap()).unwrap()
}

fn parse_errors(report: &serde_json::Value) -> u64 {
    report["files"][0]["parse_errors"].as_u64().unwrap()
}

fn calls_named(report: &serde_json::Value, name: &str) -> usize {
    report["calls"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["name"] == name)
        .count()
}

const LEVELS: usize = 100_000;

#[test]
fn a_union_annotation_a_hundred_thousand_wide_is_cut() {
    let report = report_of(&format!("def f(x: {}A): g()\n", "A|".repeat(LEVELS)));
    assert!(parse_errors(&report) >= 1, "the cut is counted");
    assert_eq!(calls_named(&report, "g"), 1, "the body is still read");
}

#[test]
fn a_generic_annotation_a_hundred_thousand_deep_is_cut() {
    let source = format!(
        "def f(x: {}A{}): g()\n",
        "A[".repeat(LEVELS),
        "]".repeat(LEVELS)
    );
    let report = report_of(&source);
    assert!(parse_errors(&report) >= 1);
    assert_eq!(calls_named(&report, "g"), 1);
}

#[test]
fn a_class_base_a_hundred_thousand_deep_is_cut() {
    let source = format!(
        "class C({}A{}): pass\ng()\n",
        "A[".repeat(LEVELS),
        "]".repeat(LEVELS)
    );
    let report = report_of(&source);
    assert!(parse_errors(&report) >= 1);
    assert_eq!(calls_named(&report, "g"), 1);
}

#[test]
fn dotted_annotations_and_decorators_of_any_length_are_read_without_recursion() {
    let dots = ".b".repeat(300_000);
    let report = report_of(&format!("def f(x: a{dots}): g()\n"));
    assert_eq!(calls_named(&report, "g"), 1);
    let report = report_of(&format!("@a{dots}\ndef f():\n    g()\n"));
    assert_eq!(calls_named(&report, "g"), 1);
}

#[test]
fn a_guard_compared_with_a_literal_in_deep_parentheses_is_read_without_recursion() {
    let source = format!(
        "import sys\nif sys.version_info >= {}(3, 8){}:\n    g()\n",
        "(".repeat(LEVELS),
        ")".repeat(LEVELS)
    );
    let report = report_of(&source);
    assert_eq!(calls_named(&report, "g"), 1);
}
