//! Annotated multi-file Rust fixtures (engine/tests/fixtures/rust/*.txt), in the
//! `//- path` / `// ^ …` format of the Java and Go fixtures (documented in
//! java_fixtures.rs; columns are bytes). Each fixture also renders every call as
//! sorted `caller -> callee  [family]` lines and compares them with
//! `<name>.golden` (rewrite with UPDATE_EXPECT=1).

use std::path::{Path, PathBuf};

use engine::lang::Language;

fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/rust")
}

const LANGUAGE: Language = Language::Rust;

#[macro_use]
mod slash_fixtures;
use slash_fixtures::*;

fixtures!(modules, packages, receivers, gaps);

/// Registry invariant: every family Rust places with is asserted by a fixture.
#[test]
fn every_rust_family_is_exercised() {
    assert_every_family_is_exercised(ALL_FIXTURES);
}

/// The harness itself must be able to fail: a wrong expectation is reported.
#[test]
fn a_wrong_expectation_fails() {
    assert_a_wrong_expectation_fails(
        analyze,
        "//- src/lib.rs\nfn f() { g() }\n//       ^ callee: src/lib.rs::f [lexical]\nfn g() {}\n",
        (1, 10),
        "src/lib.rs::g",
        "lexical",
    );
}

/// A file of 26 000 functions, each calling the previous one: every call is
/// placed (`lexical`), and the analysis stays linear.
#[test]
fn a_file_with_26000_functions_resolves_every_call() {
    assert_26000_functions_resolve_every_call(analyze, "src/lib.rs", "fn f0() {}\n", |i, p| {
        format!("fn f{i}() {{ f{p}() }}\n")
    });
}

/// Expressions nested far past the walk's depth bound: the file is analysed, the
/// cut is counted as a parse error, nothing overflows.
#[test]
fn deeply_nested_expressions_are_cut_not_overflowed() {
    assert_deep_nesting_is_cut(analyze, "src/lib.rs", |open, close| {
        format!("fn g(x: u32) -> u32 {{ x }}\nfn f() -> u32 {{ {open}1{close} }}\n")
    });
}

/// A long method chain (`b.m().m()….m()`) is typed link by link through the
/// chain rounds without the work growing past the chain bound.
#[test]
fn a_long_builder_chain_stays_bounded() {
    let mut text = String::from(
        "struct B;\nimpl B {\n    fn new() -> B { B }\n    fn m(self) -> B { self }\n}\nfn f() {\n    B::new()",
    );
    for _ in 0..300 {
        text.push_str(".m()");
    }
    text.push_str(";\n}\n");
    let started = std::time::Instant::now();
    let report = analyze(&[("src/lib.rs".to_string(), text)]);
    assert_eq!(report.calls.len(), 301);
    assert!(started.elapsed().as_secs() < 20);
    // Each chain round carries the instances of the previous one, so links far
    // past one round's depth bound are placed; past the last round they abstain
    // (FIXME: a chain longer than the rounds reach).
    let placed = report
        .calls
        .iter()
        .filter(|c| c.resolution == "in_tree")
        .count();
    assert!(placed >= 40, "only {placed} links placed");
    assert!(report
        .calls
        .iter()
        .all(|c| c.resolution == "in_tree" || c.resolution == "undetermined"));
}
