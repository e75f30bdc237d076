//! Regression tests for what fuzzing found (reports/RELIABILITY.md). Kept in a test
//! binary of their own: a parse the budget abandons goes on in its thread until the
//! process ends, and this binary ends as soon as its tests have.

use std::path::Path;
use std::time::{Duration, Instant};

use engine::Options;

fn write(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// fuzz, java target, seed 2026: a proof's `super(1)` with `A<` repeated 17 000
/// times. Tree-sitter's progress callback cancels the parse at the budget, but not
/// the step that accepts the finished parse, which took 139 s (36 s for this 34 KB
/// file alone). The worker stops waiting at the budget.
#[test]
fn a_parse_stuck_where_tree_sitter_checks_no_budget_is_abandoned() {
    let dir = tempfile::tempdir().unwrap();
    let source = format!(
        "class C {{\n    C() {{\n        super(1{});\n    }}\n}}\n",
        "A<".repeat(17_000)
    );
    write(dir.path(), "p/C.java", &source);
    write(dir.path(), "p/D.java", "class D { void m() { m(); } }\n");
    let mut options = Options::default();
    options.limits.parse_time_ms = 500;
    let started = Instant::now();
    let report = serde_json::to_value(engine::analyze(dir.path(), &options).unwrap()).unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(15),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(report["skipped"][0]["path"], "p/C.java");
    assert_eq!(report["skipped"][0]["reason"], "parse_budget");
    assert_eq!(report["summary"]["calls"], 1);
}
