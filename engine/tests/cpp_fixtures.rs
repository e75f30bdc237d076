//! Annotated multi-file C++ fixtures (engine/tests/fixtures/cpp/*.txt), in the
//! format of the Java fixtures (columns are bytes: a tab counts one).
//!
//! A fixture is one text with `//- path/File.java` headers. An expectation is a
//! comment on the line under a call, its caret under the call's name token:
//!
//! ```text
//!         helper();
//! //      ^ callee: p/A.java::A::helper [own_type]
//! //      ^ callee: p/A.java::A::m [written_type] @12   (overload named: line 12;
//! //                                                      no `@` = no declaration named)
//! //      ^ outside [builtin]            or   ^ outside java.lang.Math.max [builtin]
//! //      ^ undetermined receiver_type_unknown
//! //      ^ unresolved no_declaration
//! //      ^ ref: p/A.java::A::m [own_type]    (a method reference placed there)
//! //      ^ none                              (no call at that column)
//! ```
//!
//! Each fixture also renders every call as sorted `caller -> callee  [family]`
//! lines and compares them with `<name>.golden` (rewrite with UPDATE_EXPECT=1).

use std::path::{Path, PathBuf};

use engine::lang::Language;

fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/cpp")
}

const LANGUAGE: Language = Language::Cpp;

#[macro_use]
mod slash_fixtures;
use slash_fixtures::*;

fixtures!(classes, scopes, preprocessor);

/// A C++17 build without exceptions, in release: `-std=c++17 -fno-exceptions -DNDEBUG`.
fn analyze_cpp17_release(files: &[(String, String)]) -> engine::report::Report {
    let mut config = engine::config::Configuration::default();
    config.c.defines = vec![engine::config::Define::parse("NDEBUG").unwrap()];
    config.c.set_std("c++17").unwrap();
    config.c.cpp_exceptions = false;
    let dir = tempfile::tempdir().expect("temp dir");
    for (path, text) in files {
        let full = dir.path().join(path);
        std::fs::create_dir_all(full.parent().unwrap()).unwrap();
        std::fs::write(full, text).unwrap();
    }
    let options = engine::Options {
        languages: vec![LANGUAGE],
        limits: engine::limits::Limits::default(),
        threads: 2,
        config,
    };
    engine::analyze(dir.path(), &options).expect("analysis runs")
}

#[test]
fn preprocessor_flags() {
    run_fixture_with("preprocessor_flags", analyze_cpp17_release);
}

/// A condition the engine cannot evaluate (a library header's macro) keeps both
/// branches: `Store::put` is declared twice and the call names neither.
#[test]
fn an_unknown_condition_keeps_both_branches() {
    let report = run_fixture("preprocessor");
    let puts: Vec<u32> = report
        .entities
        .iter()
        .filter(|e| e.qualified_name == "store.hpp::Store::put")
        .map(|e| e.line)
        .collect();
    assert_eq!(puts, [6, 8]);
    let ticks = report
        .entities
        .iter()
        .filter(|e| e.qualified_name == "features.hpp::Clock::ticks")
        .count();
    assert_eq!(ticks, 1, "the _WIN32 branch declares nothing");
}

/// Registry invariant: every family C++ places with is asserted by a fixture.
#[test]
fn every_cpp_family_is_exercised() {
    assert_every_family_is_exercised(ALL_FIXTURES);
}

/// The harness itself must be able to fail: a wrong expectation is reported.
#[test]
fn a_wrong_expectation_fails() {
    assert_a_wrong_expectation_fails(
        analyze,
        "//- a.cc\nvoid g(void) {}\nvoid f(void) { g(); }\n//             ^ callee: a.cc::f [lexical]\n",
        (2, 16),
        "a.cc::g",
        "lexical",
    );
}

/// A file of 26 000 functions, each calling the previous one: every call is
/// placed (`lexical`), and the analysis stays linear.
#[test]
fn a_file_with_26000_functions_resolves_every_call() {
    assert_26000_functions_resolve_every_call(analyze, "big.cc", "void f0(void) {}\n", |i, p| {
        format!("void f{i}(void) {{ f{p}(); }}\n")
    });
}

/// Expressions nested far past the walk's depth bound: the file is analysed, the
/// cut is counted as a parse error, nothing overflows.
#[test]
fn deeply_nested_expressions_are_cut_not_overflowed() {
    assert_deep_nesting_is_cut(analyze, "deep.cc", |open, close| {
        format!("int g(int x) {{ return x; }}\nint f(void) {{ return {open}1{close}; }}\n")
    });
}
