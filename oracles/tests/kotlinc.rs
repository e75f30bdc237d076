//! The kotlinc adapter on the small Kotlin tree committed under
//! tests/fixtures/kotlinc: what the compiler binds (through the IR plugin), where the
//! truth says each site is, and which sites it sets apart. Needs the JDK and the
//! pinned compiler (`npm ci` in oracles/kotlin, which `.ci/setup` runs); without them
//! the oracle's answer must be the outcome `tool_missing`, never a truth.

use std::path::{Path, PathBuf};
use std::time::Duration;

use oracles::{oracle_named, ColumnUnit, OracleOptions, Outcome, Truth, TruthSite, TruthTarget};

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/kotlinc")
}

fn run_kotlinc(root: &Path) -> Result<Truth, Outcome> {
    let oracle = oracle_named("kotlinc").expect("the kotlinc oracle is registered");
    let work = tempfile::tempdir().unwrap();
    oracle.run(
        root,
        &OracleOptions {
            corpus_id: "tiny",
            language: "kotlin",
            options: &serde_json::Value::Null,
            build: oracles::DEFAULT_BUILD,
            work_dir: work.path(),
            cache_dir: work.path(),
            timeout: Duration::from_secs(600),
        },
    )
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
        "{file}:{line} `{name}` in {:#?}",
        truth.sites
    );
    found[0]
}

fn in_tree(file: &str, line: u32) -> TruthTarget {
    TruthTarget::InTree {
        file: file.into(),
        line,
    }
}

#[test]
fn the_compiler_binds_each_written_call_and_sets_the_rest_apart() {
    let oracle = oracle_named("kotlinc").unwrap();
    let answer = run_kotlinc(&fixture());
    let truth = match oracle.toolchain_version() {
        Ok(version) => {
            assert!(version.starts_with("kotlinc-jvm 2.4.20 ("), "{version}");
            answer.expect("the installed compiler answers")
        }
        Err(outcome) => {
            // FIXME(toolchain): this machine has no JDK or no `npm ci` in
            // oracles/kotlin; the adapter must then say so, never answer.
            assert_eq!(outcome.token(), "tool_missing", "{outcome}");
            assert_eq!(answer.unwrap_err().token(), "tool_missing");
            return;
        }
    };
    assert_eq!(truth.oracle.column, ColumnUnit::Name);
    let main = "app/Main.kt";
    let shapes = "app/Shapes.kt";
    // A companion member reached through the class name.
    let unit = site(&truth, main, 4, "unit");
    assert_eq!(
        (unit.column, &unit.targets),
        (Some(20), &vec![in_tree(shapes, 13)])
    );
    // The override in the receiver's static type.
    assert_eq!(
        site(&truth, main, 5, "area").targets,
        vec![in_tree(shapes, 10)]
    );
    // A default argument: the function itself, no `$default` bridge.
    let describe = site(&truth, main, 6, "describe");
    assert_eq!(
        (describe.column, &describe.targets),
        (Some(15), &vec![in_tree(shapes, 5)])
    );
    assert!(site(&truth, main, 6, "println").has_outside_target());
    // An extension function on an outside type.
    assert_eq!(
        site(&truth, main, 7, "shout").targets,
        vec![in_tree(shapes, 17)]
    );
    // A scope function and the call in its lambda with a receiver.
    assert!(site(&truth, main, 8, "apply").has_outside_target());
    assert!(site(&truth, main, 8, "append").is_judged());
    // A property read is set apart, as the destructuring `componentN` and `+` are.
    assert_eq!(
        site(&truth, main, 9, "r").implicit.as_deref(),
        Some("property_accessor")
    );
    assert_eq!(
        site(&truth, main, 10, "Point").targets,
        vec![in_tree(shapes, 19)]
    );
    let component = truth
        .sites
        .iter()
        .filter(|s| s.line == 10 && s.file == main);
    assert!(component
        .clone()
        .any(|s| s.implicit.as_deref() == Some("destructuring")));
    assert!(truth
        .sites
        .iter()
        .any(|s| s.file == main && s.line == 11 && s.implicit.as_deref() == Some("operator")));
    // `invoke` of a function value: the compiler does not know what runs either.
    assert_eq!(
        site(&truth, main, 12, "f").unjudged.as_deref(),
        Some("function_value_invoke")
    );
    // A secondary constructor, by its `constructor` line; `this(…)` delegates to the
    // primary one, by the class line; `: Shape(…)` names the superclass.
    assert_eq!(
        site(&truth, main, 13, "Circle").targets,
        vec![in_tree(shapes, 9)]
    );
    assert_eq!(
        site(&truth, shapes, 9, "this").targets,
        vec![in_tree(shapes, 8)]
    );
    assert_eq!(
        site(&truth, shapes, 8, "Shape").targets,
        vec![in_tree(shapes, 3)]
    );
    // `open class Shape` calls `Any()`, which no source writes.
    let implicit_super = truth
        .sites
        .iter()
        .find(|s| s.file == shapes && s.line == 3)
        .unwrap();
    assert_eq!(
        implicit_super.implicit.as_deref(),
        Some("implicit_super_constructor")
    );
}
