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

mod slash_fixtures;
use slash_fixtures::*;

macro_rules! fixtures {
    ($($name:ident),* $(,)?) => {
        $( #[test] fn $name() { run_fixture(stringify!($name)); } )*
        const ALL_FIXTURES: &[&str] = &[$(stringify!($name)),*];
    };
}

fixtures!(classes, scopes);

/// Registry invariant: every family C++ places with is asserted by a fixture.
#[test]
fn every_cpp_family_is_exercised() {
    assert_every_family_is_exercised(ALL_FIXTURES);
}

/// The harness itself must be able to fail: a wrong expectation is reported.
#[test]
fn a_wrong_expectation_fails() {
    let text = "//- a.cc\nvoid g(void) {}\nvoid f(void) { g(); }\n//             ^ callee: a.cc::f [lexical]\n";
    let fixture = parse_fixture(text);
    let report = analyze(&fixture.files);
    let e = &fixture.expectations[0];
    assert_eq!((e.line, e.column), (2, 16));
    assert!(
        check_one(&report, e).is_err(),
        "g() must not be reported as reaching f"
    );
    let right = Expectation {
        what: Expect::Callee {
            qname: "a.cc::g".into(),
            family: "lexical".into(),
            decl: None,
        },
        ..e.clone()
    };
    assert_eq!(check_one(&report, &right), Ok(()));
}

/// A file of 26 000 functions, each calling the previous one: every call is
/// placed (`lexical`), and the analysis stays linear.
#[test]
fn a_file_with_26000_functions_resolves_every_call() {
    let mut text = String::from("void f0(void) {}\n");
    for i in 1..26_000 {
        text.push_str(&format!("void f{i}(void) {{ f{}(); }}\n", i - 1));
    }
    let report = analyze(&[("big.cc".to_string(), text)]);
    assert_eq!(report.calls.len(), 25_999);
    assert!(report
        .calls
        .iter()
        .all(|c| c.resolution == "in_tree" && c.placed_by.map(|f| f.token()) == Some("lexical")));
}

/// Expressions nested far past the walk's depth bound: the file is analysed, the
/// cut is counted as a parse error, nothing overflows.
#[test]
fn deeply_nested_expressions_are_cut_not_overflowed() {
    let depth = 5_000;
    let text = format!(
        "int g(int x) {{ return x; }}\nint f(void) {{ return {}1{}; }}\n",
        "g(".repeat(depth),
        ")".repeat(depth)
    );
    let report = analyze(&[("deep.cc".to_string(), text)]);
    assert_eq!(report.files.len(), 1);
    assert!(report.files[0].parse_errors >= 1);
    assert!(!report.calls.is_empty());
}
