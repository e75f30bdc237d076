//! The `callgraph` binary: explain's rule trail, languages, exit codes.

use std::process::Command;

fn callgraph() -> Command {
    Command::new(env!("CARGO_BIN_EXE_callgraph"))
}

#[test]
fn explain_prints_every_rule_in_order_and_the_answer() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("m.py"),
        "def f():\n    pass\n\n\nh = f\nh()\n",
    )
    .unwrap();
    let out = callgraph()
        .arg("explain")
        .arg(dir.path())
        .arg("m.py:6")
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let lexical = text.find("lexical").expect("lexical rule listed");
    let value_flow = text.find("value_flow ").expect("value_flow rule listed");
    assert!(lexical < value_flow, "rules in order:\n{text}");
    assert!(text.contains("placed: m.py::f [value_flow]"), "{text}");
    assert!(
        text.contains("=> placed: m.py::f [value_flow] at m.py:1"),
        "{text}"
    );
}

#[test]
fn explain_says_what_the_overload_pass_named() {
    let root = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../proofs/java/S61-overload-by-arity"
    );
    let out = callgraph()
        .args(["explain", root, "Main.java:14:28"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("overload_pass                named the declaration at line 7 of 2"),
        "{text}"
    );
}

#[test]
fn languages_lists_extensions_and_families() {
    let out = callgraph().arg("languages").output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("python") && text.contains(".py") && text.contains("lexical"),
        "{text}"
    );
    assert!(text.contains("java") && text.contains(".java"), "{text}");
    let csharp = text
        .lines()
        .find(|l| l.starts_with("csharp "))
        .unwrap_or_else(|| panic!("no csharp line: {text}"));
    assert!(
        csharp.contains(".cs") && csharp.contains("own_type"),
        "{csharp}"
    );
}

#[test]
fn exit_codes_follow_the_design() {
    let bad_root = callgraph()
        .args(["analyze", "/no/such/dir"])
        .output()
        .unwrap();
    assert_eq!(bad_root.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad_root.stderr).contains("invalid_root"));
    let bad_flag = callgraph()
        .args(["analyze", "--no-such-flag"])
        .output()
        .unwrap();
    assert_eq!(bad_flag.status.code(), Some(2));
    let dir = tempfile::tempdir().unwrap();
    for i in 0..3 {
        std::fs::write(dir.path().join(format!("m{i}.py")), "pass\n").unwrap();
    }
    let too_many = callgraph()
        .arg("analyze")
        .arg(dir.path())
        .args(["--max-files", "2"])
        .output()
        .unwrap();
    assert_eq!(too_many.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&too_many.stderr).contains("workload_too_large"));
    let out_file = dir.path().join("r.json");
    let ok = callgraph()
        .arg("analyze")
        .arg(dir.path())
        .arg("--out")
        .arg(&out_file)
        .output()
        .unwrap();
    assert_eq!(ok.status.code(), Some(0));
    let report: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&out_file).unwrap()).unwrap();
    assert_eq!(report["schema"], "callgraph-report/1");
}

#[test]
fn the_report_states_its_configuration_and_lists_build_files() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("go.mod"), "module example.com/m\n").unwrap();
    std::fs::write(dir.path().join("m.go"), "package m\n\nfunc F() {}\n").unwrap();
    let out = callgraph()
        .arg("analyze")
        .arg(dir.path())
        .args(["--cfg", "feature=\"x\"", "--go-tags", "purego,netgo"])
        .args(["--define", "NDEBUG", "--python-version", "3.12"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let c = &report["configuration"];
    assert_eq!(c["rust"]["cfg"][0]["key"], "feature");
    assert_eq!(c["rust"]["cfg"][0]["value"], "x");
    assert_eq!(c["rust"]["default_features"], true);
    assert_eq!(c["go"]["tags"], serde_json::json!(["purego", "netgo"]));
    assert_eq!(c["go"]["goos"], "linux");
    assert_eq!(c["c"]["defines"][0]["name"], "NDEBUG");
    assert_eq!(c["c"]["defines"][0]["value"], "1");
    assert_eq!(c["python"]["version"], "3.12");
    let files = report["files"].as_array().unwrap();
    let go_mod = files
        .iter()
        .find(|f| f["path"] == "go.mod")
        .expect("go.mod listed");
    assert_eq!(go_mod["role"], "build");
    assert_eq!(go_mod["language"], "go");
    let source = files.iter().find(|f| f["path"] == "m.go").unwrap();
    assert!(
        source.get("role").is_none(),
        "a source has no role: {source}"
    );
}

#[test]
fn the_report_states_the_c_build() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.c"), "int f(void) { return 0; }\n").unwrap();
    let out = callgraph()
        .arg("analyze")
        .arg(dir.path())
        .args([
            "--std",
            "c11",
            "--std",
            "c++1z",
            "--fno-exceptions",
            "--fno-rtti",
        ])
        .args(["--unit-macro", "a.c:-DX=2", "--unit-macro", "a.c:-UY"])
        .args(["--define-varies", "V"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let c = &report["configuration"]["c"];
    assert_eq!(c["c_std"], "c11");
    assert_eq!(c["cpp_std"], "c++17");
    assert_eq!(c["cpp_exceptions"], false);
    assert_eq!(c["cpp_rtti"], false);
    assert_eq!(c["units"]["a.c"], serde_json::json!(["-DX=2", "-UY"]));
    assert_eq!(c["varying"], serde_json::json!(["V"]));
}

#[test]
fn a_malformed_build_flag_is_a_wrong_invocation() {
    let dir = tempfile::tempdir().unwrap();
    for bad in [
        ["--cfg", "feature=x"],
        ["--define", "1X"],
        ["--python-version", "three"],
        ["--go-tags", "a;b"],
        ["--std", "c++42"],
        ["--unit-macro", "a.c:-XY"],
        ["--define-varies", "X=1"],
    ] {
        let out = callgraph()
            .arg("analyze")
            .arg(dir.path())
            .args(bad)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("invalid_argument"), "{bad:?}: {err}");
    }
}
