//! Python rules, one annotated fixture per group of shapes.

mod common;

use std::path::PathBuf;

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/python")
        .join(name)
}

#[test]
fn names_and_imports() {
    common::check_fixture(&fixture("names_and_imports.py.txt"), "#");
}

#[test]
fn receivers() {
    common::check_fixture(&fixture("receivers.py.txt"), "#");
}

#[test]
fn values() {
    common::check_fixture(&fixture("values.py.txt"), "#");
}

/// Undetermined calls published with every target they may reach (D25).
#[test]
fn may_reach_sets() {
    common::check_fixture(&fixture("may_reach.py.txt"), "#");
}

/// Names the tree replaces at run time (monkeypatch, setattr, mock.patch) refuse;
/// pytest's own fixtures and contextlib's helpers are outside.
#[test]
fn patched_names() {
    common::check_fixture(&fixture("patches.py.txt"), "#");
}

#[test]
fn golden_report_edges() {
    let report = common::check_fixture(&fixture("receivers.py.txt"), "#");
    common::assert_golden(&common::render_edges(&report), &fixture("receivers.golden"));
}

/// Static guards evaluated for Python 3.11 on linux (D35): `TYPE_CHECKING`
/// imports serve annotations only, version and platform branches not taken bind
/// nothing, `try`/`except ImportError` imports keep the module that exists.
#[test]
fn static_guards() {
    common::check_fixture(&fixture("guards.py.txt"), "#");
}

/// A definition in a branch the interpreter does not take is listed, inactive,
/// and never a target: the call reaches the definition of the branch taken.
#[test]
fn definitions_in_a_branch_not_taken_are_inactive() {
    let report = common::check_fixture(&fixture("guards.py.txt"), "#");
    let natives: Vec<&serde_json::Value> = report["entities"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["qualified_name"] == "main.py::native")
        .collect();
    assert_eq!(natives.len(), 2);
    let inactive: Vec<bool> = natives.iter().map(|e| e["inactive"] == true).collect();
    assert_eq!(
        inactive,
        [true, false],
        "the win branch is not taken on linux"
    );
    let call = report["calls"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "native")
        .unwrap();
    assert_eq!(call["target"]["line"], natives[1]["line"]);
}

/// The interpreter is a setting (`--python-version`): for 3.7 the other branch of
/// a version guard is the one that runs.
#[test]
fn version_guards_follow_the_configured_interpreter() {
    let dir = tempfile::tempdir().unwrap();
    let files = [
        (
            "main.py",
            "import sys\nif sys.version_info >= (3, 8):\n    from new import impl\nelse:\n    from old import impl\nimpl()\n",
        ),
        ("new.py", "def impl():\n    pass\n"),
        ("old.py", "def impl():\n    pass\n"),
    ];
    for (path, text) in files {
        std::fs::write(dir.path().join(path), text).unwrap();
    }
    let target_of_impl = |version: &str| {
        let mut options = engine::Options::default();
        options.config.python.version = engine::config::PythonVersion::parse(version).unwrap();
        let report = serde_json::to_value(engine::analyze(dir.path(), &options).unwrap()).unwrap();
        let call = report["calls"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["name"] == "impl")
            .cloned()
            .unwrap();
        call["target"]["file"].as_str().unwrap().to_string()
    };
    assert_eq!(target_of_impl("3.11"), "new.py");
    assert_eq!(target_of_impl("3.7"), "old.py");
}

/// Type stubs (D36): a `.pyi` beside its module supplies the types the `.py` does
/// not write and declares nothing a call reaches; a `.pyi` alone is a module
/// outside the tree.
#[test]
fn type_stubs() {
    let report = common::check_fixture(&fixture("stubs.py.txt"), "#");
    let files = report["files"].as_array().unwrap();
    for f in files {
        let stub = f["path"].as_str().unwrap().ends_with(".pyi");
        assert_eq!(
            f.get("role").and_then(|r| r.as_str()) == Some("stub"),
            stub,
            "{f}"
        );
    }
    for e in report["entities"].as_array().unwrap() {
        let in_stub = e["file"].as_str().unwrap().ends_with(".pyi");
        assert_eq!(e["inactive"] == true, in_stub, "{e}");
    }
    let in_stubs = report["calls"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["file"].as_str().unwrap().ends_with(".pyi"))
        .count();
    assert_eq!(in_stubs, 0, "a stub has no call sites");
}

/// `explain` says where a type came from when a stub supplied it.
#[test]
fn explain_notes_a_type_read_from_the_stub() {
    let text = std::fs::read_to_string(fixture("stubs.py.txt")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    common::write_tree(&common::parse_fixture(&text, "#"), dir.path());
    let site = engine::explain::Site::parse("main.py:7").unwrap();
    let out = engine::explain::explain(dir.path(), &site, &engine::Options::default()).unwrap();
    assert!(
        out.contains("note                         the return type of pkg/core.py::make is read from its stub pkg/core.pyi:"),
        "{out}"
    );
    assert!(
        out.contains("=> placed: pkg/core.py::Box::open [return_type]"),
        "{out}"
    );
}
