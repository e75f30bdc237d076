//! Annotated multi-file C fixtures (engine/tests/fixtures/c/*.txt), in the
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
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/c")
}

const LANGUAGE: Language = Language::C;

#[macro_use]
mod slash_fixtures;
use slash_fixtures::*;

fixtures!(units, values, preprocessor);

/// What the build compiles, read with the flags of a release build: `NDEBUG`,
/// `-std=c11`, a flag a library header would set, one unit's own `-D`.
fn analyze_release(files: &[(String, String)]) -> engine::report::Report {
    use engine::config::{Configuration, Define, UnitMacro};
    let mut config = Configuration::default();
    config.c.defines = vec![
        Define::parse("NDEBUG").unwrap(),
        Define::parse("SOME_LIBRARY_FLAG").unwrap(),
    ];
    config.c.set_std("c11").unwrap();
    config.c.units.insert(
        "a.c".into(),
        vec![
            UnitMacro::Define(Define::parse("ONLY_A=2").unwrap()),
            UnitMacro::Undefine("SOME_LIBRARY_FLAG".into()),
        ],
    );
    config.c.varying.push("VARIES".into());
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
    run_fixture_with("preprocessor_flags", analyze_release);
}

/// A branch the build leaves out declares nothing: each function of the
/// preprocessor fixture is declared once, in the branch the build compiles.
#[test]
fn inactive_branches_declare_nothing() {
    let report = run_fixture("preprocessor");
    let names: Vec<&str> = report
        .entities
        .iter()
        .filter(|e| e.file == "platform.c")
        .map(|e| e.qualified_name.as_str())
        .collect();
    let distinct: std::collections::BTreeSet<&str> = names.iter().copied().collect();
    assert_eq!(
        names.len(),
        distinct.len(),
        "a name declared twice: {names:?}"
    );
    assert!(distinct.contains("platform.c::os"), "{names:?}");
    // Both of `mode`'s files keep it: their condition is unknown.
    let modes = report
        .entities
        .iter()
        .filter(|e| e.qualified_name.ends_with("::mode"))
        .count();
    assert_eq!(modes, 3, "the prototype and both definitions");
}

/// Registry invariant: every family C places with is asserted by a fixture.
#[test]
fn every_c_family_is_exercised() {
    assert_every_family_is_exercised(ALL_FIXTURES);
}

/// The harness itself must be able to fail: a wrong expectation is reported.
#[test]
fn a_wrong_expectation_fails() {
    assert_a_wrong_expectation_fails(
        analyze,
        "//- a.c\nvoid g(void) {}\nvoid f(void) { g(); }\n//             ^ callee: a.c::f [lexical]\n",
        (2, 16),
        "a.c::g",
        "lexical",
    );
}

/// A file of 26 000 functions, each calling the previous one: every call is
/// placed (`lexical`), and the analysis stays linear.
#[test]
fn a_file_with_26000_functions_resolves_every_call() {
    assert_26000_functions_resolve_every_call(analyze, "big.c", "void f0(void) {}\n", |i, p| {
        format!("void f{i}(void) {{ f{p}(); }}\n")
    });
}

/// Expressions nested far past the walk's depth bound: the file is analysed, the
/// cut is counted as a parse error, nothing overflows.
#[test]
fn deeply_nested_expressions_are_cut_not_overflowed() {
    assert_deep_nesting_is_cut(analyze, "deep.c", |open, close| {
        format!("int g(int x) {{ return x; }}\nint f(void) {{ return {open}1{close}; }}\n")
    });
}
