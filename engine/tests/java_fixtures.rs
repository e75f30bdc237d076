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

mod slash_fixtures;
use slash_fixtures::*;

macro_rules! fixtures {
    ($($name:ident),* $(,)?) => {
        $( #[test] fn $name() { run_fixture(stringify!($name)); } )*
        const ALL_FIXTURES: &[&str] = &[$(stringify!($name)),*];
    };
}

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
    let text = "//- p/A.java\npackage p;\nclass A {\n    void f() { g(); }\n//             ^ callee: p/A.java::A::f [own_type]\n    void g() {}\n}\n";
    let fixture = parse_fixture(text);
    let report = analyze(&fixture.files);
    let e = &fixture.expectations[0];
    assert_eq!((e.line, e.column), (3, 16));
    assert!(
        check_one(&report, e).is_err(),
        "g() must not be reported as reaching f"
    );
    let right = Expectation {
        what: Expect::Callee {
            qname: "p/A.java::A::g".into(),
            family: "own_type".into(),
            decl: None,
        },
        ..e.clone()
    };
    assert_eq!(check_one(&report, &right), Ok(()));
}
