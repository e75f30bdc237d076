//! The tsc adapter on the small TypeScript / TSX / JavaScript tree committed under
//! tests/fixtures/tsc: what the checker binds, where the truth says each site is, and
//! which sites it sets apart. Needs node and the pinned checker (`npm ci` in
//! oracles/tsc, which `make setup` runs); without them the oracle's answer must be the
//! outcome `tool_missing`, never a truth.

use std::path::{Path, PathBuf};
use std::time::Duration;

use oracles::{oracle_named, ColumnUnit, OracleOptions, Outcome, Truth, TruthSite, TruthTarget};

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tsc")
}

fn run_tsc(root: &Path, options: &serde_json::Value) -> Result<Truth, Outcome> {
    let oracle = oracle_named("tsc").expect("the tsc oracle is registered");
    let work = tempfile::tempdir().unwrap();
    oracle.run(
        root,
        &OracleOptions {
            corpus_id: "tiny",
            language: "typescript",
            options,
            build: oracles::DEFAULT_BUILD,
            work_dir: work.path(),
            cache_dir: work.path(),
            timeout: Duration::from_secs(300),
        },
    )
}

/// The truth, or `None` after checking that a missing toolchain is the outcome.
fn truth_or_missing_toolchain() -> Option<Truth> {
    let oracle = oracle_named("tsc").unwrap();
    let answer = run_tsc(&fixture(), &serde_json::Value::Null);
    match oracle.toolchain_version() {
        Ok(version) => {
            assert!(version.starts_with("typescript 5.9.3 (@types/node 20.19.25), node v"));
            Some(answer.expect("the installed checker answers"))
        }
        Err(outcome) => {
            // FIXME(toolchain): this machine has no node or no `npm ci` in oracles/tsc;
            // the adapter must then say so, never answer.
            assert_eq!(outcome.token(), "tool_missing", "{outcome}");
            assert_eq!(answer.unwrap_err().token(), "tool_missing");
            None
        }
    }
}

fn site<'a>(truth: &'a Truth, file: &str, line: u32, name: &str) -> &'a TruthSite {
    let found: Vec<&TruthSite> = truth
        .sites
        .iter()
        .filter(|s| s.file == file && s.line == line && s.name == name)
        .collect();
    assert_eq!(
        found.len(),
        1,
        "one `{name}` site on {file}:{line}: {found:?}"
    );
    found[0]
}

fn sites_named<'a>(truth: &'a Truth, file: &str, line: u32, name: &str) -> Vec<&'a TruthSite> {
    truth
        .sites
        .iter()
        .filter(|s| s.file == file && s.line == line && s.name == name)
        .collect()
}

fn in_tree(file: &str, line: u32) -> TruthTarget {
    TruthTarget::InTree {
        file: file.into(),
        line,
    }
}

const MAIN: &str = "src/main.ts";
const UTIL: &str = "src/util.ts";

#[test]
fn tsc_binds_every_call_the_tree_writes() {
    let Some(truth) = truth_or_missing_toolchain() else {
        return;
    };
    assert_eq!(truth.schema, "callgraph-truth/1");
    assert_eq!(truth.corpus, "tiny");
    assert_eq!(truth.oracle.name, "tsc");
    assert_eq!(truth.oracle.version, "5.9.3 (@types/node 20.19.25)");
    assert_eq!(truth.oracle.column, ColumnUnit::Name);

    // Overloads: the signature chosen, and the symbol's first declaration.
    let fmts = sites_named(&truth, MAIN, 24, "fmt");
    let columns: Vec<Option<u32>> = fmts.iter().map(|s| s.column).collect();
    // Byte columns: the `é` before them is two bytes, one UTF-16 unit.
    assert_eq!(columns, vec![Some(24), Some(42)]);
    assert_eq!(fmts[0].targets, vec![in_tree(UTIL, 15)]);
    assert_eq!(fmts[1].targets, vec![in_tree(UTIL, 16), in_tree(UTIL, 15)]);

    // A method, a chain on a construction, a call in a lambda with its caller.
    let adds = sites_named(&truth, MAIN, 22, "add");
    assert_eq!(adds.len(), 2);
    assert!(adds.iter().all(|s| s.targets == vec![in_tree(MAIN, 6)]));
    assert_eq!(adds[0].caller.as_ref().unwrap().line, 21);
    let area = site(&truth, MAIN, 11, "area");
    assert_eq!(
        area.targets,
        vec![in_tree(UTIL, 2)],
        "the interface's method"
    );
    assert_eq!(area.caller.as_ref().unwrap().line, 11, "the lambda");

    // Constructions: the declared constructor and the class; the class alone otherwise.
    let circles: Vec<&TruthSite> = sites_named(&truth, MAIN, 22, "Circle");
    assert_eq!(circles.len(), 2, "`new Circle` and `new u.Circle`");
    for c in circles {
        assert_eq!(c.targets, vec![in_tree(UTIL, 5), in_tree(UTIL, 4)]);
    }
    assert_eq!(site(&truth, MAIN, 22, "Registry").column, Some(19));
    assert_eq!(
        site(&truth, MAIN, 24, "Dot").targets,
        vec![in_tree(UTIL, 10)]
    );
    let sup = site(&truth, MAIN, 17, "super");
    assert_eq!(
        (sup.column, sup.targets.clone()),
        (Some(5), vec![in_tree(MAIN, 4)])
    );

    // `const twice = <T>(…) =>`: the const's name line.
    assert_eq!(
        site(&truth, MAIN, 23, "twice").targets,
        vec![in_tree(UTIL, 14)]
    );
    // Calls through a parameter of function type are set apart.
    let through = sites_named(&truth, UTIL, 14, "f");
    assert_eq!(through.len(), 2);
    assert!(through
        .iter()
        .all(|s| s.unjudged.as_deref() == Some("indirect")));

    // Outside: the default library and @types/node.
    let push = site(&truth, MAIN, 7, "push");
    assert_eq!(
        push.targets,
        vec![TruthTarget::Outside {
            symbol: "lib.es5.d.ts:Array.push".into()
        }]
    );
    assert!(site(&truth, MAIN, 24, "log").has_outside_target());

    // What the checker cannot bind is unjudged, with the reason.
    assert_eq!(
        site(&truth, MAIN, 26, "()").unjudged.as_deref(),
        Some("dynamic_callee")
    );
    assert!(!site(&truth, MAIN, 28, "g").is_judged());
    // Top-level code has no caller.
    assert!(site(&truth, MAIN, 31, "main").caller.is_none());

    // Sorted.
    let mut sorted = truth.sites.clone();
    sorted.sort_by(|a, b| (&a.file, a.line, a.column).cmp(&(&b.file, b.line, b.column)));
    assert_eq!(sorted, truth.sites);
}

#[test]
fn javascript_is_checked_with_node_types() {
    let Some(truth) = truth_or_missing_toolchain() else {
        return;
    };
    let app = "src/app.js";
    let counter = "src/counter.js";
    // require() of a sibling module: the class (constructor first) and its method.
    assert_eq!(
        site(&truth, app, 5, "Counter").targets,
        vec![in_tree(counter, 2), in_tree(counter, 1)]
    );
    assert_eq!(
        site(&truth, app, 6, "bump").targets,
        vec![in_tree(counter, 5)]
    );
    assert_eq!(
        site(&truth, app, 7, "helper").targets,
        vec![in_tree(counter, 10)]
    );
    // @types/node resolves `require` and node's modules.
    assert!(site(&truth, app, 10, "readFileSync").has_outside_target());
    assert!(site(&truth, app, 1, "require").has_outside_target());
    // An absent package: nothing to judge.
    assert_eq!(
        site(&truth, app, 11, "thing").unjudged.as_deref(),
        Some("unresolved")
    );
}

#[test]
fn jsx_component_elements_are_sites_and_intrinsic_tags_are_not() {
    let Some(truth) = truth_or_missing_toolchain() else {
        return;
    };
    let view = "src/view.tsx";
    let button = site(&truth, view, 11, "Button");
    assert_eq!(
        (button.column, button.targets.clone()),
        (Some(8), vec![in_tree(view, 3)])
    );
    assert_eq!(
        button.caller.as_ref().unwrap().line,
        8,
        "the const holding the arrow"
    );
    // A dotted tag is named by its last segment and reaches the arrow's const.
    let panel = site(&truth, view, 19, "Panel");
    assert_eq!(
        (panel.column, panel.targets.clone()),
        (Some(17), vec![in_tree(view, 8)])
    );
    // `<div>` and `<section>` are not calls; a callback property is indirect.
    assert!(truth
        .sites
        .iter()
        .all(|s| s.name != "div" && s.name != "section"));
    assert_eq!(
        site(&truth, view, 4, "onPick").unjudged.as_deref(),
        Some("indirect")
    );
}

#[test]
fn a_tree_without_sources_is_tool_failed_or_tool_missing_not_an_empty_truth() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("README"), "no code here\n").unwrap();
    let err = run_tsc(dir.path(), &serde_json::Value::Null).unwrap_err();
    if oracle_named("tsc").unwrap().toolchain_version().is_ok() {
        assert_eq!(err.token(), "tool_failed");
        assert!(
            err.to_string().contains("no TypeScript or JavaScript"),
            "{err}"
        );
    } else {
        assert_eq!(err.token(), "tool_missing");
    }
}

#[test]
fn a_checker_that_is_not_installed_is_tool_missing() {
    // Another node_modules without typescript in it: the outcome, never a truth.
    let empty = tempfile::tempdir().unwrap();
    let err = oracles::tsc::modules_dir_at(empty.path()).unwrap_err();
    assert_eq!(err.token(), "tool_missing");
    assert!(err.to_string().contains("npm ci"), "{err}");
}
