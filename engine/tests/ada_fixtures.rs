//! Annotated multi-file Ada fixtures (engine/tests/fixtures/ada/*.txt), in the
//! format of the Java fixtures with Ada's comment: a `//- path` header opens a
//! file, and `-- ^ …` under a call states what the call's name token must reach
//! (columns are bytes). Names compare without case, so the engine's qualified
//! names are lower-cased. Each fixture's calls are also rendered and compared
//! with `<name>.golden` (rewrite with UPDATE_EXPECT=1).

use std::path::{Path, PathBuf};

use engine::lang::Language;

fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/ada")
}

const LANGUAGE: Language = Language::Ada;

#[macro_use]
mod slash_fixtures;
use slash_fixtures::*;

fixtures!(
    visibility,
    renamings_generics,
    not_calls,
    use_through_use,
    object_types,
    call_places,
    argument_types,
    nested_arguments,
    protected_operations,
    dispatching,
    calls_in_prefixes,
    generic_overrides,
    private_views,
    qualified_inherited,
    outside_types,
    closed_profiles
);

/// Registry invariant: every family Ada places with is asserted by a fixture.
#[test]
fn every_ada_family_is_exercised() {
    assert_every_family_is_exercised(ALL_FIXTURES);
}

/// The harness itself must be able to fail: a wrong expectation is reported.
#[test]
fn a_wrong_expectation_fails() {
    assert_a_wrong_expectation_fails(
        analyze,
        "//- a.adb\nprocedure A is\n   procedure G is begin null; end G;\nbegin\n   G;\n-- ^ callee: a.adb::a [lexical]\nend A;\n",
        (4, 4),
        "a.adb::a::g",
        "lexical",
    );
}

/// 26 000 procedures in one package, each calling the previous one: every call is
/// placed (`lexical`), and the analysis stays linear.
#[test]
fn a_file_with_26000_procedures_resolves_every_call() {
    let mut text = String::from("procedure Big is\n   procedure F0 is begin null; end F0;\n");
    for i in 1..26_000 {
        text.push_str(&format!(
            "   procedure F{i} is begin F{}; end F{i};\n",
            i - 1
        ));
    }
    text.push_str("begin\n   null;\nend Big;\n");
    let report = analyze(&[("big.adb".to_string(), text)]);
    assert_eq!(report.calls.len(), 25_999);
    assert!(report
        .calls
        .iter()
        .all(|c| c.resolution == "in_tree" && c.placed_by.map(|f| f.token()) == Some("lexical")));
}

/// Expressions nested far past the walk's depth bound: the file is analysed, the
/// cut counted as a parse error, nothing overflows.
#[test]
fn deep_nesting_is_cut() {
    assert_deep_nesting_is_cut(analyze, "deep.adb", |open, close| {
        format!(
            "procedure Deep is\n   X : Integer := {open}1{close};\nbegin\n   G (X);\nend Deep;\n"
        )
    });
}
