//! Annotated multi-file Go fixtures (engine/tests/fixtures/go/*.txt), in the
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

use engine::config::Configuration;
use engine::lang::Language;

fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/go")
}

const LANGUAGE: Language = Language::Go;

#[macro_use]
mod slash_fixtures;
use slash_fixtures::*;

fixtures!(packages, receivers, values, gaps);

/// The files the default build leaves out (constraints, name suffixes, a rejected
/// `//go:build` line, `_` names, `package documentation`) are skipped as
/// `build_excluded`, exactly the files `go list` ignores or rejects for
/// linux/amd64 with cgo; none of their declarations is an entity.
#[test]
fn build() {
    let report = run_fixture("build");
    assert_build_excluded(
        &report,
        &[
            "hash/_scratch.go",
            "hash/both.go",
            "hash/doc.go",
            "hash/future.go",
            "hash/gccgo.go",
            "hash/gen.go",
            "hash/legacy_off.go",
            "hash/malformed.go",
            "hash/nocgo.go",
            "hash/sum_arm64.go",
            "hash/sum_linux_arm64.go",
            "hash/sum_purego.go",
            "hash/sum_windows.go",
            "hash/sum_windows_test.go",
            "hash/twice.go",
            "only/x_windows.go",
        ],
    );
}

/// The same constructs under `--go-tags purego,netgo`, cgo off and tests left out:
/// the twins the default build leaves out are the ones built.
#[test]
fn build_tags() {
    let report = run_fixture_with("build_tags", |files| {
        let mut config = Configuration::default();
        config.go.tags = vec!["purego".into(), "netgo".into()];
        config.go.cgo = false;
        config.tests = false;
        analyze_configured(files, &[LANGUAGE], config)
    });
    assert_build_excluded(
        &report,
        &[
            "hash/cgo.go",
            "hash/gen.go",
            "hash/sum_fast.go",
            "hash/sum_test.go",
            "hash/tagged_cgo.go",
        ],
    );
}

/// `skipped` holds exactly these files, each as `build_excluded`, and no entity
/// is declared in one of them.
fn assert_build_excluded(report: &engine::report::Report, expected: &[&str]) {
    let skipped: Vec<(&str, &str)> = report
        .skipped
        .iter()
        .map(|s| (s.path.as_str(), s.reason))
        .collect();
    let want: Vec<(&str, &str)> = expected.iter().map(|p| (*p, "build_excluded")).collect();
    assert_eq!(skipped, want);
    let stray: Vec<&str> = report
        .entities
        .iter()
        .map(|e| e.file.as_str())
        .filter(|f| expected.contains(f))
        .collect();
    assert!(stray.is_empty(), "entities in excluded files: {stray:?}");
}

/// Registry invariant: every family Go places with is asserted by a fixture.
#[test]
fn every_go_family_is_exercised() {
    assert_every_family_is_exercised(ALL_FIXTURES);
}

/// The harness itself must be able to fail: a wrong expectation is reported.
#[test]
fn a_wrong_expectation_fails() {
    assert_a_wrong_expectation_fails(
        analyze,
        "//- a.go\npackage a\n\nfunc f() { g() }\n//         ^ callee: a.go::f [lexical]\nfunc g() {}\n",
        (3, 12),
        "a.go::g",
        "lexical",
    );
}

/// A package of 26 000 functions, each calling the previous one: every call is
/// placed (`lexical`), and the analysis stays linear (no per-call scan of the
/// package's declarations).
#[test]
fn a_file_with_26000_functions_resolves_every_call() {
    assert_26000_functions_resolve_every_call(
        analyze,
        "big.go",
        "package big\n\nfunc f0() {}\n",
        |i, p| format!("func f{i}() {{ f{p}() }}\n"),
    );
}

/// Expressions nested far past the walk's depth bound: the file is analysed, the
/// cut is counted as a parse error, nothing overflows.
#[test]
fn deeply_nested_expressions_are_cut_not_overflowed() {
    assert_deep_nesting_is_cut(analyze, "deep.go", |open, close| {
        format!("package deep\n\nfunc g(x int) int {{ return x }}\n\nfunc f() int {{ return {open}1{close} }}\n")
    });
}
