//! Annotated multi-file Kotlin fixtures (engine/tests/fixtures/kotlin/*.txt), in the
//! slash format documented in java_fixtures.rs: `//- path/File.kt` headers, an
//! expectation under each call's name token, and a golden rendering of every call
//! (`<name>.golden`, rewritten with UPDATE_EXPECT=1).

use std::path::{Path, PathBuf};

use engine::lang::Language;

fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/kotlin")
}

const LANGUAGE: Language = Language::Kotlin;

#[macro_use]
mod slash_fixtures;
use slash_fixtures::*;

fixtures!(
    imports,
    objects,
    constructors,
    receivers,
    extensions,
    scope_functions,
    values,
    overloads,
    not_calls,
    expect_actual,
    member_beats_extension,
    outside_overloads,
    hidden,
    most_specific,
);

/// Registry invariant: every family Kotlin places with is asserted by a fixture.
#[test]
fn every_kotlin_family_is_exercised() {
    assert_every_family_is_exercised(ALL_FIXTURES);
}

/// The harness itself must be able to fail: a wrong expectation is reported.
#[test]
fn a_wrong_expectation_fails() {
    assert_a_wrong_expectation_fails(
        analyze,
        "//- p/A.kt\npackage p\nclass A {\n    fun f() { g() }\n//            ^ callee: p/A.kt::A::f [own_type]\n    fun g() {}\n}\n",
        (3, 15),
        "p/A.kt::A::g",
        "own_type",
    );
}
