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

use engine::lang::Language;

fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/go")
}

const LANGUAGE: Language = Language::Go;

#[macro_use]
mod slash_fixtures;
use slash_fixtures::*;

fixtures!(packages, receivers, values, gaps);

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
