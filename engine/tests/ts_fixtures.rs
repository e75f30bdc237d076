//! Annotated multi-file TypeScript / TSX / JavaScript fixtures
//! (engine/tests/fixtures/typescript/*.txt), in the `//- path` / `// ^ …` format of
//! the Java and Go fixtures (documented in java_fixtures.rs). A fixture may mix
//! `.ts`, `.tsx`, `.js` and `.d.ts` files: the three languages are analysed together.
//! Each fixture's sorted `caller -> callee  [family]` rendering is compared with
//! `<name>.golden` (rewrite with UPDATE_EXPECT=1).

use std::path::{Path, PathBuf};

use engine::lang::Language;
use engine::limits::Limits;
use engine::report::Report;
use engine::Options;

fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/typescript")
}

/// The language whose policy lists the families (the three share one resolver).
const LANGUAGE: Language = Language::TypeScript;

mod slash_fixtures;
use slash_fixtures::*;

const FAMILY: &[Language] = &[Language::TypeScript, Language::Tsx, Language::JavaScript];

fn analyze_family(files: &[(String, String)]) -> Report {
    let dir = tempfile::tempdir().expect("temp dir");
    for (path, text) in files {
        let full = dir.path().join(path);
        std::fs::create_dir_all(full.parent().unwrap()).unwrap();
        std::fs::write(full, text).unwrap();
    }
    let options = Options {
        languages: FAMILY.to_vec(),
        limits: Limits::default(),
        threads: 2,
    };
    engine::analyze(dir.path(), &options).expect("analysis runs")
}

fn run(name: &str) -> Report {
    let text = std::fs::read_to_string(fixtures_dir().join(format!("{name}.txt")))
        .expect("fixture exists");
    let fixture = parse_fixture(&text);
    assert!(
        !fixture.expectations.is_empty(),
        "{name}: a fixture without expectations cannot fail"
    );
    let report = analyze_family(&fixture.files);
    let mut failures = Vec::new();
    for e in &fixture.expectations {
        if let Err(msg) = check_one(&report, e) {
            failures.push(format!(
                "{name}.txt:{} ({}:{}:{}): {msg}",
                e.at, e.file, e.line, e.column
            ));
        }
    }
    if let Err(msg) = compare_golden(name, &render(&report)) {
        failures.push(msg);
    }
    assert!(
        failures.is_empty(),
        "{} failure(s):\n{}",
        failures.len(),
        failures.join("\n")
    );
    report
}

macro_rules! fixtures {
    ($($name:ident),* $(,)?) => {
        $( #[test] fn $name() { run(stringify!($name)); } )*
        const ALL_FIXTURES: &[&str] = &[$(stringify!($name)),*];
    };
}

fixtures!(modules, commonjs, classes, values, gaps);

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
    let text = "//- a.ts\nfunction f() { g(); }\n//             ^ callee: a.ts::f [lexical]\nfunction g() {}\n";
    let fixture = parse_fixture(text);
    let report = analyze_family(&fixture.files);
    let e = &fixture.expectations[0];
    assert_eq!((e.line, e.column), (1, 16));
    assert!(check_one(&report, e).is_err(), "g() must not reach f");
    let right = Expectation {
        what: Expect::Callee {
            qname: "a.ts::g".into(),
            family: "lexical".into(),
            decl: None,
        },
        ..e.clone()
    };
    assert_eq!(check_one(&report, &right), Ok(()));
}

/// A file of 26 000 functions, each calling the previous one: every call is
/// placed, and the analysis stays linear.
#[test]
fn a_file_with_26000_functions_resolves_every_call() {
    let mut text = String::from("function f0() {}\n");
    for i in 1..26_000 {
        text.push_str(&format!("function f{i}() {{ f{}(); }}\n", i - 1));
    }
    let report = analyze_family(&[("big.js".to_string(), text)]);
    assert_eq!(report.calls.len(), 25_999);
    assert!(report
        .calls
        .iter()
        .all(|c| c.resolution == "in_tree" && c.placed_by.map(|f| f.token()) == Some("lexical")));
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
    let depth = 5_000;
    let text = format!(
        "function g(x: number): number {{ return x; }}\nconst y = {}1{};\n",
        "g(".repeat(depth),
        ")".repeat(depth)
    );
    let report = analyze_family(&[("deep.ts".to_string(), text)]);
    assert_eq!(report.files.len(), 1);
    assert!(report.files[0].parse_errors >= 1);
    assert!(!report.calls.is_empty());
}
