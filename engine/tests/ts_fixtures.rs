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

fixtures!(run; modules, commonjs, classes, values, gaps, build);

/// Registry invariant: every family TypeScript places with is asserted by a fixture.
#[test]
fn every_typescript_family_is_exercised() {
    assert_every_family_is_exercised(ALL_FIXTURES);
}

/// The build fixture's files that a project holds and no program reads (outside
/// `include`/`files`, matched by `exclude`, a `.js` beside its `.d.ts`, a solution
/// config's own directory) are skipped `build_excluded`; their calls are not sites.
/// A file `exclude` matches that a program imports (`kept.skip.ts`) stays.
#[test]
fn files_no_program_reads_are_build_excluded() {
    let report = run("build");
    let excluded: Vec<&str> = report
        .skipped
        .iter()
        .filter(|s| s.reason == "build_excluded")
        .map(|s| s.path.as_str())
        .collect();
    assert_eq!(
        excluded,
        [
            "app/src/old.skip.ts",
            "app/stray.ts",
            "legacy/extra.ts",
            "legacy/typed.js",
            "solution/tools/gen.ts",
            "tmpl/other/unused.ts",
            "web/scripts/build.js",
        ]
    );
    assert!(report
        .files
        .iter()
        .any(|f| f.path == "app/src/kept.skip.ts"));
    assert!(report.calls.iter().all(|c| c.file != "app/stray.ts"));
    // The configs and package.json files are listed as build files.
    let build: Vec<&str> = report
        .files
        .iter()
        .filter(|f| f.role == Some("build"))
        .map(|f| f.path.as_str())
        .collect();
    assert!(build.contains(&"app/tsconfig.base.json") && build.contains(&"esm/package.json"));
}

fn analyze_with_options(files: &[(&str, &str)], compiler_options: &str) -> Report {
    let dir = tempfile::tempdir().expect("temp dir");
    for (path, text) in files {
        let full = dir.path().join(path);
        std::fs::create_dir_all(full.parent().unwrap()).unwrap();
        std::fs::write(full, text).unwrap();
    }
    let mut options = engine::Options {
        languages: FAMILY.to_vec(),
        threads: 2,
        ..engine::Options::default()
    };
    options.config.typescript.compiler_options =
        engine::config::parse_compiler_options(compiler_options).expect("options");
    engine::analyze(dir.path(), &options).expect("analysis runs")
}

/// The corpus's compiler options (`--ts-compiler-options`, `build.compiler_options`)
/// are read over the tree's own config: `paths` given there send a specifier the
/// tree's tsconfig does not map, and the report states them.
#[test]
fn given_compiler_options_override_the_tree_configs() {
    let files = [
        (
            "tsconfig.json",
            r#"{"compilerOptions": {"module": "commonjs"}}"#,
        ),
        ("lib/f.ts", "export function f(): void {}\n"),
        (
            "src/main.ts",
            "import { f } from \"@x/f\";\nexport function g(): void {\n    f();\n}\n",
        ),
    ];
    let target_of = |report: &Report| {
        let c = report
            .calls
            .iter()
            .find(|c| c.name == "f")
            .expect("the call");
        (
            c.resolution,
            c.target.as_ref().map(|t| t.qualified_name.clone()),
        )
    };
    let plain = analyze_with_options(&files, "{}");
    assert_eq!(target_of(&plain), ("outside", None));
    let mapped = analyze_with_options(&files, r#"{"baseUrl": ".", "paths": {"@x/*": ["lib/*"]}}"#);
    assert_eq!(
        target_of(&mapped),
        ("in_tree", Some("lib/f.ts::f".to_string()))
    );
    assert_eq!(
        mapped.configuration.typescript.compiler_options["baseUrl"],
        "."
    );
}

/// A monorepo of 300 packages, each with its own tsconfig.json, importing the one
/// before it by name: every import is placed, and the projects cost what they hold
/// (each pattern reads the paths under its directory, each file walks up its own
/// directories to its project).
#[test]
fn three_hundred_projects_stay_linear() {
    let mut files = vec![(
        "package.json".to_string(),
        r#"{"private": true, "workspaces": ["packages/*"]}"#.to_string(),
    )];
    for i in 0..300 {
        let dir = format!("packages/p{i}");
        files.push((
            format!("{dir}/package.json"),
            format!(r#"{{"name": "p{i}", "exports": "./src/index.ts"}}"#),
        ));
        files.push((
            format!("{dir}/tsconfig.json"),
            r#"{"compilerOptions": {"module": "nodenext"}, "include": ["src"]}"#.to_string(),
        ));
        let body = if i == 0 {
            "export function f0(): void {}\n".to_string()
        } else {
            format!(
                "import {{ f{p} }} from \"p{p}\";\nexport function f{i}(): void {{ f{p}(); }}\n",
                p = i - 1
            )
        };
        files.push((format!("{dir}/src/index.ts"), body));
        files.push((
            format!("{dir}/scripts/gen.ts"),
            "export const x = 1;\n".into(),
        ));
    }
    let report = analyze_family(&files);
    assert_eq!(report.calls.len(), 299);
    assert!(report.calls.iter().all(|c| c.resolution == "in_tree"));
    let excluded = report
        .skipped
        .iter()
        .filter(|s| s.reason == "build_excluded")
        .count();
    assert_eq!(
        excluded, 300,
        "every scripts/gen.ts is outside its project's include"
    );
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
