//! Annotated multi-file C# fixtures (engine/tests/fixtures/csharp/*.txt), in the
//! format of the Java fixtures (columns are bytes: a tab counts one).
//!
//! A fixture is one text with `//- path/File.cs` headers. An expectation is a
//! comment on the line under a call, its caret under the call's name token:
//!
//! ```text
//!         Helper();
//! //      ^ callee: p/A.cs::N::A::Helper [own_type]
//! //      ^ callee: p/A.cs::N::A::M [written_type] @12   (overload named: line 12;
//! //                                                      no `@` = no declaration named)
//! //      ^ outside [builtin]            or   ^ outside System.Math.Max [external_import]
//! //      ^ undetermined receiver_type_unknown
//! //      ^ unresolved no_declaration
//! //      ^ none                              (no call at that column)
//! ```
//!
//! Each fixture also renders every call as sorted `caller -> callee  [family]`
//! lines and compares them with `<name>.golden` (rewrite with UPDATE_EXPECT=1).
//! Text before the first `//-` header says what the fixture is about.

use std::path::{Path, PathBuf};

use engine::config::{Configuration, Define};
use engine::lang::Language;

fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/csharp")
}

const LANGUAGE: Language = Language::CSharp;

#[macro_use]
mod slash_fixtures;
use slash_fixtures::*;

fixtures!(
    namespaces,
    partial_nested,
    members,
    constructors,
    receivers,
    extensions,
    interfaces,
    generics,
    delegates,
    overloads,
    hidden_members,
    preprocessor,
    method_groups,
);

/// `defines.txt` as the build with `NET20` and `DEBUG` compiles it.
#[test]
fn defines() {
    run_fixture_with("defines", |files| {
        analyze_with_defines(files, &["NET20", "DEBUG"])
    });
}

/// Registry invariant: every family C# places with is asserted by a fixture.
#[test]
fn every_csharp_family_is_exercised() {
    assert_every_family_is_exercised(ALL_FIXTURES);
}

/// The harness itself must be able to fail: a wrong expectation is reported.
#[test]
fn a_wrong_expectation_fails() {
    assert_a_wrong_expectation_fails(
        analyze,
        "//- A.cs\nclass A {\n    void F() { G(); }\n//             ^ callee: A.cs::A::F [own_type]\n    void G() {}\n}\n",
        (2, 16),
        "A.cs::A::G",
        "own_type",
    );
}

/// The files as the build with these `--define` symbols compiles them.
fn analyze_with_defines(files: &[(String, String)], defines: &[&str]) -> engine::report::Report {
    let mut config = Configuration::default();
    config.c.defines = defines
        .iter()
        .map(|d| Define {
            name: d.to_string(),
            value: "1".into(),
        })
        .collect();
    analyze_configured(files, &[LANGUAGE], config)
}
