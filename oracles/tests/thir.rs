//! The rustc oracle (adapter 3, THIR) on a small crate (oracles/tests/fixtures/thir/):
//! compiled by the real toolchain, the THIR and HIR dumps read back, and what the
//! truth says about each site asserted by line and column. cargo builds this test,
//! so rustc is there; a machine without it gets the outcome `tool_missing`, asserted
//! instead.

use std::path::{Path, PathBuf};
use std::time::Duration;

use oracles::{oracle_named, OracleOptions, Outcome, Tool, Truth, TruthSite, TruthTarget};

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/thir")
}

fn run(root: &Path, options: serde_json::Value) -> Result<Truth, Outcome> {
    run_built(root, options, oracles::DEFAULT_BUILD)
}

fn run_built(
    root: &Path,
    options: serde_json::Value,
    build: &serde_json::Value,
) -> Result<Truth, Outcome> {
    let work = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    let options = OracleOptions {
        corpus_id: "fixture",
        language: "rust",
        options: &options,
        build,
        work_dir: work.path(),
        cache_dir: cache.path(),
        timeout: Duration::from_secs(300),
    };
    oracle_named("rustc").unwrap().run(root, &options)
}

fn listing(truth: &Truth) -> String {
    truth
        .sites
        .iter()
        .map(|s| {
            format!(
                "{}:{}:{} {} {:?} implicit={:?} unjudged={:?} caller={:?}",
                s.file,
                s.line,
                s.column.unwrap_or(0),
                s.name,
                s.targets,
                s.implicit,
                s.unjudged,
                s.caller.as_ref().map(|c| c.line)
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn site<'a>(truth: &'a Truth, file: &str, line: u32, column: u32) -> &'a TruthSite {
    let found: Vec<_> = truth
        .sites
        .iter()
        .filter(|s| s.file == file && s.line == line && s.column == Some(column))
        .collect();
    assert_eq!(
        found.len(),
        1,
        "one site at {file}:{line}:{column}; the truth has:\n{}",
        listing(truth)
    );
    found[0]
}

fn at(file: &str, line: u32) -> Vec<TruthTarget> {
    vec![TruthTarget::InTree {
        file: file.into(),
        line,
    }]
}

fn outside(symbol: &str) -> Vec<TruthTarget> {
    vec![TruthTarget::Outside {
        symbol: symbol.into(),
    }]
}

/// (name, targets) of a judged site.
fn judged<'a>(
    truth: &'a Truth,
    file: &str,
    line: u32,
    column: u32,
) -> (&'a str, &'a [TruthTarget]) {
    let s = site(truth, file, line, column);
    assert!(s.is_judged(), "{s:?}");
    (s.name.as_str(), &s.targets[..])
}

#[test]
fn thir_truth_judges_every_body_generic_dyn_and_default_methods_included() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("thir");
    oracles::rustc::copy_tree(&fixture(), &root).unwrap();
    let options =
        serde_json::json!({"targets": [["--lib", "--profile", "test"], ["--test", "it"]]});
    let result = run(&root, options);
    if Tool::locate("rustc").is_err() {
        // FIXME(setup): without rustc the oracle can only say so.
        assert_eq!(result.unwrap_err().token(), "tool_missing");
        return;
    }
    let truth = result.unwrap();
    assert_eq!(
        (truth.oracle.name.as_str(), truth.oracle.adapter.as_str()),
        ("rustc", "3")
    );
    let (lib, shapes) = ("src/lib.rs", "src/shapes.rs");

    // A generic function is judged although nothing instantiates it: a call through
    // a bound is the trait's declaration, as is a call on `dyn`.
    assert_eq!(judged(&truth, lib, 9, 7), ("area", &at(shapes, 2)[..]));
    assert_eq!(
        site(&truth, lib, 9, 7).caller.as_ref().map(|c| c.line),
        Some(8)
    );
    assert_eq!(judged(&truth, lib, 13, 7), ("area", &at(shapes, 2)[..]));
    assert_eq!(
        judged(&truth, lib, 13, 18),
        ("describe", &at(shapes, 4)[..])
    );
    // On a concrete type: the impl's method, or the trait's default body where the
    // impl does not override it.
    assert_eq!(judged(&truth, lib, 18, 7), ("area", &at(shapes, 12)[..]));
    assert_eq!(
        judged(&truth, lib, 18, 18),
        ("describe", &at(shapes, 4)[..])
    );
    assert_eq!(judged(&truth, lib, 18, 36), ("new", &at(shapes, 20)[..]));
    assert_eq!(judged(&truth, lib, 18, 42), ("area", &at(shapes, 26)[..]));
    // A trait's default method body is a body like any other.
    assert_eq!(judged(&truth, shapes, 5, 14), ("area", &at(shapes, 2)[..]));
    assert_eq!(
        site(&truth, shapes, 5, 14).caller.as_ref().map(|c| c.line),
        Some(4)
    );

    // Constructions written as calls are named by what is called.
    assert_eq!(judged(&truth, lib, 17, 13), ("Sq", &at(shapes, 9)[..]));
    assert_eq!(judged(&truth, lib, 39, 25), ("Dot", &at(lib, 50)[..]));
    assert_eq!(
        judged(&truth, lib, 40, 27),
        ("Some", &outside("std::option::Option::Some")[..])
    );

    // Calls written in a macro's arguments are judged; what the expansion calls is not
    // written (`new_display` for each `{}`).
    assert_eq!(judged(&truth, lib, 22, 13), ("helper", &at(lib, 4)[..]));
    assert_eq!(judged(&truth, lib, 23, 22), ("helper", &at(lib, 4)[..]));
    assert_eq!(site(&truth, lib, 23, 14).implicit.as_deref(), Some("macro"));
    // `?` and `for` are desugared calls; an operator calls `PartialEq::eq`.
    assert_eq!(
        site(&truth, lib, 27, 30).implicit.as_deref(),
        Some("question_mark")
    );
    assert_eq!(
        judged(&truth, lib, 27, 23),
        ("parse", &outside("core::str::{impl#0}::parse")[..])
    );
    let for_head = truth
        .sites
        .iter()
        .filter(|s| s.file == lib && s.line == 29)
        .map(|s| s.implicit.as_deref())
        .collect::<Vec<_>>();
    assert_eq!(for_head, [Some("for_loop"), Some("for_loop")]);
    assert_eq!(
        site(&truth, lib, 38, 16).implicit.as_deref(),
        Some("operator")
    );
    // A path from the crate's root.
    assert_eq!(judged(&truth, lib, 30, 25), ("helper", &at(lib, 4)[..]));

    // A closure is the caller of what it calls and the target of its calls; a derived
    // method is the type it is derived for; std's blanket impl is outside.
    assert_eq!(
        site(&truth, lib, 36, 24).caller.as_ref().map(|c| c.line),
        Some(36)
    );
    assert_eq!(judged(&truth, lib, 39, 31), ("add", &at(lib, 36)[..]));
    assert_eq!(judged(&truth, lib, 37, 15), ("clone", &at(lib, 45)[..]));
    assert_eq!(
        judged(&truth, lib, 41, 19),
        (
            "to_string",
            &outside("alloc::string::ToString::to_string")[..]
        )
    );
    // A call through a function pointer: written, not judgeable.
    assert_eq!(
        site(&truth, lib, 39, 29).unjudged.as_deref(),
        Some("indirect_call")
    );

    // `cfg(test)` code is compiled with `--profile test`; the integration test reaches
    // the library's declarations, the impl on a concrete type included.
    assert_eq!(judged(&truth, lib, 63, 27), ("helper", &at(lib, 4)[..]));
    assert_eq!(
        judged(&truth, "tests/it.rs", 5, 30),
        ("helper", &at(lib, 4)[..])
    );
    assert_eq!(
        judged(&truth, "tests/it.rs", 7, 15),
        ("area", &at(shapes, 12)[..])
    );

    // Nothing outside the tree is a site, and the tree was not written to.
    assert!(truth
        .sites
        .iter()
        .all(|s| s.file.starts_with("src/") || s.file.starts_with("tests/")));
    assert!(!root.join("target").exists() && !root.join("Cargo.lock").exists());
}

#[test]
fn the_build_configuration_decides_what_is_compiled() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("thir");
    oracles::rustc::copy_tree(&fixture(), &root).unwrap();
    let default = run(&root, serde_json::json!({}));
    if Tool::locate("rustc").is_err() {
        // FIXME(setup): without rustc the oracle can only say so.
        assert_eq!(default.unwrap_err().token(), "tool_missing");
        return;
    }
    let gated = |truth: &Truth| {
        truth
            .sites
            .iter()
            .any(|s| s.file == "src/lib.rs" && s.line == 69)
    };
    // The feature is off by default: its code has no body, so no site.
    assert!(!gated(&default.unwrap()));
    let build = serde_json::json!({"cfg": ["feature=\"extra\""]});
    let with_feature = run_built(&root, serde_json::json!({}), &build).unwrap();
    assert_eq!(
        judged(&with_feature, "src/lib.rs", 69, 5),
        ("helper", &at("src/lib.rs", 4)[..])
    );
}
