//! Annotated multi-file TypeScript / TSX / JavaScript fixtures
//! (engine/tests/fixtures/typescript/*.txt), in the `//- path` / `// ^ …` format of
//! the Java and Go fixtures (documented in java_fixtures.rs). A fixture may mix
//! `.ts`, `.tsx`, `.js` and `.d.ts` files: the three languages are analysed together.
//! Each fixture's sorted `caller -> callee  [family]` rendering is compared with
//! `<name>.golden` (rewrite with UPDATE_EXPECT=1).

use std::path::{Path, PathBuf};

use engine::lang::Language;
use engine::report::Report;

fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/typescript")
}

/// The language whose policy lists the families (the three share one resolver).
const LANGUAGE: Language = Language::TypeScript;

#[macro_use]
mod slash_fixtures;
use slash_fixtures::*;

const FAMILY: &[Language] = &[Language::TypeScript, Language::Tsx, Language::JavaScript];

fn analyze_family(files: &[(String, String)]) -> Report {
    analyze_languages(files, FAMILY)
}

fn run(name: &str) -> Report {
    run_fixture_with(name, analyze_family)
}

fixtures!(run; modules, commonjs, classes, values, gaps);

/// Registry invariant: every family TypeScript places with is asserted by a fixture.
#[test]
fn every_typescript_family_is_exercised() {
    assert_every_family_is_exercised(ALL_FIXTURES);
}

/// The three grammars answer to their extensions; `.d.ts` is read as TypeScript.
#[test]
fn extensions_pick_the_grammar() {
    assert_eq!(Language::for_path("a/b.ts"), Some(Language::TypeScript));
    assert_eq!(Language::for_path("a/b.d.ts"), Some(Language::TypeScript));
    assert_eq!(Language::for_path("a/b.mts"), Some(Language::TypeScript));
    assert_eq!(Language::for_path("a/b.tsx"), Some(Language::Tsx));
    assert_eq!(Language::for_path("a/b.cjs"), Some(Language::JavaScript));
    assert_eq!(Language::for_path("a/b.jsx"), Some(Language::JavaScript));
}

/// The harness itself must be able to fail: a wrong expectation is reported.
#[test]
fn a_wrong_expectation_fails() {
    assert_a_wrong_expectation_fails(
        analyze_family,
        "//- a.ts\nfunction f() { g(); }\n//             ^ callee: a.ts::f [lexical]\nfunction g() {}\n",
        (1, 16),
        "a.ts::g",
        "lexical",
    );
}

/// A file of 26 000 functions, each calling the previous one: every call is
/// placed, and the analysis stays linear.
#[test]
fn a_file_with_26000_functions_resolves_every_call() {
    assert_26000_functions_resolve_every_call(
        analyze_family,
        "big.js",
        "function f0() {}\n",
        |i, p| format!("function f{i}() {{ f{p}(); }}\n"),
    );
}

/// 26 000 functions written onto one object (`obj.fN = function`), each calling
/// the previous one through it: every call is placed, and reading one member is a
/// hash hit, not a scan of every member written onto the object.
#[test]
fn an_object_with_26000_assigned_functions_stays_linear() {
    let mut text = String::from("var obj = {};\nobj.f0 = function () {};\n");
    for i in 1..26_000 {
        text.push_str(&format!(
            "obj.f{i} = function () {{ obj.f{}(); }};\n",
            i - 1
        ));
    }
    let report = analyze_family(&[("slots.js".to_string(), text)]);
    assert_eq!(report.calls.len(), 25_999);
    assert!(report.calls.iter().all(|c| c.resolution == "in_tree"));
}

/// An object literal of 26 000 functions, each called through the object: every
/// call is placed, and finding a member does not scan or copy the literal.
#[test]
fn an_object_literal_of_26000_functions_stays_linear() {
    let mut text = String::from("const O = {\n");
    for i in 0..26_000 {
        text.push_str(&format!("  k{i}: function () {{ return {i}; }},\n"));
    }
    text.push_str("};\n");
    for i in 0..26_000 {
        text.push_str(&format!("O.k{i}();\n"));
    }
    let report = analyze_family(&[("object.js".to_string(), text)]);
    assert_eq!(report.calls.len(), 26_000);
    assert!(report.calls.iter().all(|c| c.resolution == "in_tree"));
}

/// Expressions nested far past the walk's depth bound: the file is analysed, the
/// cut is counted as a parse error, nothing overflows.
#[test]
fn deeply_nested_expressions_are_cut_not_overflowed() {
    assert_deep_nesting_is_cut(analyze_family, "deep.ts", |open, close| {
        format!("function g(x: number): number {{ return x; }}\nconst y = {open}1{close};\n")
    });
}
