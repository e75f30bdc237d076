//! Python rules, one annotated fixture per group of shapes.

mod common;

use std::path::PathBuf;

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/python")
        .join(name)
}

#[test]
fn names_and_imports() {
    common::check_fixture(&fixture("names_and_imports.py.txt"), "#");
}

#[test]
fn receivers() {
    common::check_fixture(&fixture("receivers.py.txt"), "#");
}

#[test]
fn values() {
    common::check_fixture(&fixture("values.py.txt"), "#");
}

/// Undetermined calls published with every target they may reach (D25).
#[test]
fn may_reach_sets() {
    common::check_fixture(&fixture("may_reach.py.txt"), "#");
}

/// Names the tree replaces at run time (monkeypatch, setattr, mock.patch) refuse;
/// pytest's own fixtures and contextlib's helpers are outside.
#[test]
fn patched_names() {
    common::check_fixture(&fixture("patches.py.txt"), "#");
}

#[test]
fn golden_report_edges() {
    let report = common::check_fixture(&fixture("receivers.py.txt"), "#");
    common::assert_golden(&common::render_edges(&report), &fixture("receivers.golden"));
}
