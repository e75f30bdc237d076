//! Annotated multi-file Java fixtures (engine/tests/fixtures/java/*.txt).
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
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/java")
}

const LANGUAGE: Language = Language::Java;

#[macro_use]
mod slash_fixtures;
use slash_fixtures::*;

fixtures!(
    constructor_chain,
    construction,
    implicit_this,
    static_import,
    this_super,
    qualified_path,
    written_type,
    return_type,
    overload,
    references,
    golden_project,
);

/// Registry invariant: every family Java places with is asserted by a fixture.
#[test]
fn every_java_family_is_exercised() {
    assert_every_family_is_exercised(ALL_FIXTURES);
}

/// The harness itself must be able to fail: a wrong expectation is reported.
#[test]
fn a_wrong_expectation_fails() {
    assert_a_wrong_expectation_fails(
        analyze,
        "//- p/A.java\npackage p;\nclass A {\n    void f() { g(); }\n//             ^ callee: p/A.java::A::f [own_type]\n    void g() {}\n}\n",
        (3, 16),
        "p/A.java::A::g",
        "own_type",
    );
}
