//! Annotated multi-file Rust fixtures (engine/tests/fixtures/rust/*.txt), in the
//! `//- path` / `// ^ …` format of the Java and Go fixtures (documented in
//! java_fixtures.rs; columns are bytes). Each fixture also renders every call as
//! sorted `caller -> callee  [family]` lines and compares them with
//! `<name>.golden` (rewrite with UPDATE_EXPECT=1).

use std::path::{Path, PathBuf};

use engine::lang::Language;
use engine::report::Report;

fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/rust")
}

const LANGUAGE: Language = Language::Rust;

#[macro_use]
mod slash_fixtures;
use slash_fixtures::*;

fixtures!(modules, packages, receivers, gaps, cfg);

/// Registry invariant: every family Rust places with is asserted by a fixture.
#[test]
fn every_rust_family_is_exercised() {
    assert_every_family_is_exercised(ALL_FIXTURES);
}

/// The harness itself must be able to fail: a wrong expectation is reported.
#[test]
fn a_wrong_expectation_fails() {
    assert_a_wrong_expectation_fails(
        analyze,
        "//- src/lib.rs\nfn f() { g() }\n//       ^ callee: src/lib.rs::f [lexical]\nfn g() {}\n",
        (1, 10),
        "src/lib.rs::g",
        "lexical",
    );
}

/// A file of 26 000 functions, each calling the previous one: every call is
/// placed (`lexical`), and the analysis stays linear.
#[test]
fn a_file_with_26000_functions_resolves_every_call() {
    assert_26000_functions_resolve_every_call(analyze, "src/lib.rs", "fn f0() {}\n", |i, p| {
        format!("fn f{i}() {{ f{p}() }}\n")
    });
}

/// Expressions nested far past the walk's depth bound: the file is analysed, the
/// cut is counted as a parse error, nothing overflows.
#[test]
fn deeply_nested_expressions_are_cut_not_overflowed() {
    assert_deep_nesting_is_cut(analyze, "src/lib.rs", |open, close| {
        format!("fn g(x: u32) -> u32 {{ x }}\nfn f() -> u32 {{ {open}1{close} }}\n")
    });
}

/// A long method chain (`b.m().m()….m()`) is typed link by link through the
/// chain rounds without the work growing past the chain bound.
#[test]
fn a_long_builder_chain_stays_bounded() {
    let mut text = String::from(
        "struct B;\nimpl B {\n    fn new() -> B { B }\n    fn m(self) -> B { self }\n}\nfn f() {\n    B::new()",
    );
    for _ in 0..300 {
        text.push_str(".m()");
    }
    text.push_str(";\n}\n");
    let started = std::time::Instant::now();
    let report = analyze(&[("src/lib.rs".to_string(), text)]);
    assert_eq!(report.calls.len(), 301);
    assert!(started.elapsed().as_secs() < 20);
    // Each chain round carries the instances of the previous one, so links far
    // past one round's depth bound are placed; past the last round they abstain
    // (FIXME: a chain longer than the rounds reach).
    let placed = report
        .calls
        .iter()
        .filter(|c| c.resolution == "in_tree")
        .count();
    assert!(placed >= 40, "only {placed} links placed");
    assert!(report
        .calls
        .iter()
        .all(|c| c.resolution == "in_tree" || c.resolution == "undetermined"));
}

/// `cfg` twins share a qualified name, so the fixture's expectations cannot
/// tell them apart: this golden names, by line, the declaration each call
/// reaches and every declaration the build leaves out (`cfg.targets.golden`,
/// rewritten with UPDATE_EXPECT=1).
#[test]
fn cfg_calls_reach_the_compiled_twin() {
    let text = std::fs::read_to_string(fixtures_dir().join("cfg.txt")).unwrap();
    let report = analyze(&parse_fixture(&text).files);
    let mut lines = std::collections::BTreeSet::new();
    for e in report.entities.iter().filter(|e| e.inactive) {
        lines.insert(format!(
            "inactive {} @{}:{}",
            e.qualified_name, e.file, e.line
        ));
    }
    for c in &report.calls {
        if let Some(t) = &c.target {
            let line = c.declaration_line.unwrap_or(t.line);
            lines.insert(format!(
                "{}:{}:{} {} -> {}:{line}",
                c.file, c.line, c.column, c.name, t.file
            ));
        }
    }
    let rendered: String = lines.into_iter().map(|l| l + "\n").collect();
    if let Err(msg) = compare_golden("cfg.targets", &rendered) {
        panic!("{msg}");
    }
}

/// Analyse files under a configuration other than the default build.
fn analyze_with(files: &[(&str, &str)], config: engine::config::Configuration) -> Report {
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

/// The one call's target line.
fn target_line(report: &Report) -> Option<u32> {
    let call = report.calls.first()?;
    call.target
        .as_ref()
        .map(|t| call.declaration_line.unwrap_or(t.line))
}

const TWINS: &[(&str, &str)] = &[
    (
        "Cargo.toml",
        "[package]\nname = \"twins\"\n[features]\ndefault = [\"std\"]\nstd = []\noff = []\n",
    ),
    (
        "src/lib.rs",
        "#[cfg(all(feature = \"std\", not(feature = \"off\")))]\nfn f() {}\n#[cfg(not(all(feature = \"std\", not(feature = \"off\"))))]\nfn f() {}\npub fn g() { f() }\n",
    ),
];

/// `--cfg feature="x"` and `--no-default-features` choose the build the twins are
/// read for; without them the default features decide.
#[test]
fn flags_choose_the_compiled_twin() {
    use engine::config::{CfgOption, Configuration};
    assert_eq!(
        target_line(&analyze_with(TWINS, Configuration::default())),
        Some(2)
    );
    let mut off = Configuration::default();
    off.rust
        .cfg
        .push(CfgOption::parse("feature=\"off\"").unwrap());
    assert_eq!(target_line(&analyze_with(TWINS, off)), Some(4));
    let mut no_default = Configuration::default();
    no_default.rust.default_features = false;
    assert_eq!(target_line(&analyze_with(TWINS, no_default)), Some(4));
}

/// Without tests in the program, a test target is skipped as `build_excluded`
/// and a library's `#[cfg(test)]` code is inactive.
#[test]
fn a_run_without_tests_leaves_test_code_out() {
    let files: &[(&str, &str)] = &[
        (
            "src/lib.rs",
            "pub fn f() {}\n#[cfg(test)]\nmod tests {\n    fn t() { super::f() }\n}\n",
        ),
        ("tests/it.rs", "fn check() { twins::f() }\n"),
    ];
    let config = engine::config::Configuration {
        tests: false,
        ..engine::config::Configuration::default()
    };
    let report = analyze_with(files, config);
    assert!(report.calls.is_empty(), "{:?}", report.calls);
    assert!(report
        .skipped
        .iter()
        .any(|s| s.path == "tests/it.rs" && s.reason == "build_excluded"));
    let inactive: Vec<&str> = report
        .entities
        .iter()
        .filter(|e| e.inactive)
        .map(|e| e.qualified_name.as_str())
        .collect();
    assert_eq!(inactive, ["src/lib.rs::tests", "src/lib.rs::tests::t"]);
    // With tests (the default), both are read.
    let report = analyze_with(files, engine::config::Configuration::default());
    assert_eq!(report.calls.len(), 2);
}
