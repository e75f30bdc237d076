//! The defects of the reliability probe (issue 14, shared/research/reliability_probe.md),
//! each as its reproducer made small: hostile trees, links and special files, ignore
//! files, budgets and bounds, positions, and the deep hierarchies.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use engine::limits::Limits;
use engine::Options;

fn callgraph() -> Command {
    Command::new(env!("CARGO_BIN_EXE_callgraph"))
}

fn analyse(root: &Path, options: &Options) -> serde_json::Value {
    serde_json::to_value(engine::analyze(root, options).unwrap()).unwrap()
}

fn report(root: &Path) -> serde_json::Value {
    analyse(root, &Options::default())
}

fn skipped(report: &serde_json::Value) -> Vec<(String, String)> {
    report["skipped"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["path"].as_str().unwrap().to_string(),
                s["reason"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn file_paths(report: &serde_json::Value) -> Vec<String> {
    report["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap().to_string())
        .collect()
}

fn calls_named<'a>(report: &'a serde_json::Value, name: &str) -> Vec<&'a serde_json::Value> {
    report["calls"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["name"] == name)
        .collect()
}

fn write(root: &Path, rel: &str, text: impl AsRef<[u8]>) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn mkfifo(path: &Path) {
    let made = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(made.success());
}

// D5: no parse budget.

#[test]
fn a_file_over_its_parse_budget_is_skipped_and_the_run_goes_on() {
    // 40 KB of TypeScript quotes took 13.6 s; with a 1 ms budget the file is cut at
    // the first progress check and the other file is analysed.
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "quotes.ts", "\"".repeat(40_000));
    write(dir.path(), "ok.ts", "function f() {}\nf();\n");
    let mut options = Options::default();
    options.limits.parse_time_ms = 1;
    let started = Instant::now();
    let r = analyse(dir.path(), &options);
    assert!(started.elapsed() < Duration::from_secs(5));
    assert_eq!(
        skipped(&r),
        [("quotes.ts".to_string(), "parse_budget".to_string())]
    );
    assert_eq!(file_paths(&r), ["ok.ts"]);
    assert_eq!(calls_named(&r, "f")[0]["resolution"], "in_tree");
}

#[test]
fn a_tree_over_the_node_budget_is_skipped() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "big.py", "g()\n".repeat(2_000));
    write(dir.path(), "small.py", "g()\n");
    let mut options = Options::default();
    options.limits.max_tree_nodes = 1_000;
    let r = analyse(dir.path(), &options);
    assert_eq!(
        skipped(&r),
        [("big.py".to_string(), "parse_budget".to_string())]
    );
    assert_eq!(r["summary"]["calls"], 1);
}

#[test]
fn the_budget_flags_reach_the_engine() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "quotes.ts", "\"".repeat(40_000));
    let out = callgraph()
        .args(["analyze", "--parse-time-ms", "1"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(out.status.success());
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["skipped"][0]["reason"], "parse_budget");
    // A quick file for the tree-size budget: the quotes would parse to the default
    // time budget first (10 s), since tree size is checked on the finished tree.
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "calls.ts", "g();\n".repeat(100));
    let out = callgraph()
        .args(["analyze"])
        .arg(dir.path())
        .env("CALLGRAPH_MAX_TREE_NODES", "10")
        .output()
        .unwrap();
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["skipped"][0]["reason"], "parse_budget");
}

// D6: reads outside the root.

#[test]
fn a_fifo_named_go_mod_or_cargo_toml_does_not_hang_the_run() {
    let dir = tempfile::tempdir().unwrap();
    mkfifo(&dir.path().join("go.mod"));
    mkfifo(&dir.path().join("Cargo.toml"));
    write(
        dir.path(),
        "main.go",
        "package main\nfunc f() {}\nfunc main() { f() }\n",
    );
    let started = Instant::now();
    let r = report(dir.path());
    assert!(started.elapsed() < Duration::from_secs(10));
    assert_eq!(
        skipped(&r),
        [
            ("Cargo.toml".to_string(), "unreadable".to_string()),
            ("go.mod".to_string(), "unreadable".to_string())
        ]
    );
    assert_eq!(calls_named(&r, "f")[0]["resolution"], "in_tree");
}

#[test]
fn a_go_mod_linked_out_of_the_root_is_never_read() {
    // With the outside go.mod read, `pkg.F()` was in_tree: the answer came from a
    // file outside the tree.
    let outside = tempfile::tempdir().unwrap();
    write(
        outside.path(),
        "go.mod",
        "module example.com/m\n\ngo 1.21\n",
    );
    let dir = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(outside.path().join("go.mod"), dir.path().join("go.mod")).unwrap();
    write(dir.path(), "pkg/f.go", "package pkg\n\nfunc F() {}\n");
    write(
        dir.path(),
        "main.go",
        "package main\n\nimport \"example.com/m/pkg\"\n\nfunc main() { pkg.F() }\n",
    );
    let r = report(dir.path());
    assert!(skipped(&r).contains(&("go.mod".to_string(), "link_outside_root".to_string())));
    assert!(!file_paths(&r).contains(&"go.mod".to_string()));
    assert_ne!(calls_named(&r, "F")[0]["resolution"], "in_tree");
}

#[test]
fn a_cargo_toml_read_from_dev_zero_is_bounded() {
    // `go.mod -> /dev/zero` was read until allocation failed.
    let dir = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink("/dev/zero", dir.path().join("Cargo.toml")).unwrap();
    let r = report(dir.path());
    assert_eq!(
        skipped(&r),
        [("Cargo.toml".to_string(), "link_outside_root".to_string())]
    );
}

// D7: ignore files outside the root, and hidden files.

#[test]
fn only_ignore_files_inside_the_root_count_and_every_left_out_file_is_listed() {
    let parent = tempfile::tempdir().unwrap();
    // A parent's .gitignore and the enclosing repository's excludes: not the tree's.
    write(parent.path(), ".gitignore", "*.py\n");
    write(parent.path(), ".git/info/exclude", "root/x.py\n");
    let root = parent.path().join("root");
    write(&root, "a.py", "def f():\n    pass\n");
    write(&root, "x.py", "f()\n");
    // The tree's own ignore file counts, and says so.
    write(&root, ".gitignore", "build/\ngen.py\n");
    write(&root, "gen.py", "x = 1\n");
    write(&root, "build/out.py", "x = 1\n");
    write(&root, ".hidden/h.py", "x = 1\n");
    write(&root, ".h.py", "x = 1\n");
    let r = report(&root);
    assert_eq!(file_paths(&r), ["a.py", "x.py"]);
    assert_eq!(
        skipped(&r),
        [
            (".h.py".to_string(), "hidden".to_string()),
            (".hidden/".to_string(), "hidden".to_string()),
            ("build/".to_string(), "ignored".to_string()),
            ("gen.py".to_string(), "ignored".to_string()),
        ]
    );
}

#[test]
fn the_users_global_git_excludes_do_not_change_the_report() {
    let home = tempfile::tempdir().unwrap();
    write(home.path(), ".config/git/ignore", "y.py\n");
    write(
        home.path(),
        ".gitconfig",
        "[core]\n\texcludesFile = ~/.config/git/ignore\n",
    );
    let root = tempfile::tempdir().unwrap();
    write(root.path(), "y.py", "def y():\n    pass\n");
    let out = callgraph()
        .arg("analyze")
        .arg(root.path())
        .env("HOME", home.path())
        .env("XDG_CONFIG_HOME", home.path().join(".config"))
        .output()
        .unwrap();
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(file_paths(&r), ["y.py"]);
}

// D13: the report and memory grow without bound.

#[test]
fn a_report_past_its_bound_is_refused_with_a_typed_error() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a.py", "g();".repeat(20_000));
    let mut options = Options::default();
    options.limits.max_report_ratio = 1;
    let err = engine::analyze_to_json(dir.path(), &options).unwrap_err();
    assert_eq!(err.code(), "workload_too_large");
    assert_eq!(err.exit_code(), 3);
    let out = callgraph()
        .args(["analyze", "--max-report-ratio", "1"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("callgraph: workload_too_large"));
    // The default bound (64 times the input) leaves the report whole.
    let json = engine::analyze_to_json(dir.path(), &Options::default()).unwrap();
    assert!(json.len() < 64 * 80_000 + (1 << 20));
}

#[test]
fn may_reach_sets_are_bounded_per_file() {
    // Sixty functions passed as `cb` and many `cb()` sites: every site listed all
    // sixty targets (181 KB of source gave 180 MB of report).
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::new();
    for i in 0..60 {
        text.push_str(&format!("def f{i}():\n    pass\n"));
    }
    text.push_str("def run(cb):\n");
    for _ in 0..400 {
        text.push_str("    cb()\n");
    }
    for i in 0..60 {
        text.push_str(&format!("run(f{i})\n"));
    }
    write(dir.path(), "a.py", &text);
    let r = report(dir.path());
    let sets: usize = calls_named(&r, "cb")
        .iter()
        .filter_map(|c| c["may_reach"]["targets"].as_array())
        .map(Vec::len)
        .sum();
    assert!(sets > 0, "the first sites keep their sets");
    assert!(sets <= text.len() / 16 + 64, "{sets} targets listed");
    assert!(r["summary"]["may_reach_dropped"].as_u64().unwrap() > 300);
}

// D14: quadratic hierarchy work.

#[test]
fn a_long_inheritance_chain_is_linear() {
    // 20 000 levels took 8.4 s in Hierarchy::ancestors (a full walk per type).
    let dir = tempfile::tempdir().unwrap();
    // 60 000 levels (1.9 MB): quadratic, about 75 s; linear, a few seconds.
    let mut text = String::from("class C0:\n def m(s): pass\n");
    for i in 1..60_000 {
        text.push_str(&format!("class C{i}(C{}): pass\n", i - 1));
    }
    write(dir.path(), "a.py", &text);
    let started = Instant::now();
    let r = report(dir.path());
    assert!(
        started.elapsed() < Duration::from_secs(25),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(r["entities"].as_array().unwrap().len(), 60_001);
}

#[test]
fn many_self_calls_over_many_subclasses_are_linear() {
    // 20 000 subclasses x 20 000 `self.m()`: every call walked every subclass.
    let dir = tempfile::tempdir().unwrap();
    // 40 000 of each (1.9 MB): quadratic, about 30 s; linear, a few seconds.
    let n = 40_000;
    let mut text = String::from("class B:\n def m(s): pass\n def run(s):\n");
    for _ in 0..n {
        text.push_str("  s.m()\n");
    }
    for i in 0..n {
        text.push_str(&format!("class S{i}(B):\n def m(s): pass\n"));
    }
    write(dir.path(), "a.py", &text);
    let started = Instant::now();
    let r = report(dir.path());
    assert!(
        started.elapsed() < Duration::from_secs(25),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(calls_named(&r, "m").len(), n);
}

// D15: non-UTF-8 file names.

#[test]
fn names_that_are_not_utf8_are_skipped_never_merged() {
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().unwrap();
    for name in [&b"bad\xff.py"[..], &b"bad\xfe.py"[..]] {
        let path = dir.path().join(std::ffi::OsStr::from_bytes(name));
        std::fs::write(path, "def f():\n    pass\n").unwrap();
    }
    write(dir.path(), "ok.py", "x = 1\n");
    let r = report(dir.path());
    assert_eq!(file_paths(&r), ["ok.py"]);
    let reasons: Vec<String> = skipped(&r).into_iter().map(|(_, why)| why).collect();
    assert_eq!(reasons, ["not_utf8_name", "not_utf8_name"]);
}

// D16: --threads.

#[test]
fn an_absurd_thread_count_is_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let started = Instant::now();
    let out = callgraph()
        .args(["analyze", "--threads", "100000"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(started.elapsed() < Duration::from_secs(5));
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("invalid_argument"));
}

// D17: lone CR line endings.

#[test]
fn a_lone_carriage_return_ends_a_line() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "a.py",
        "def g():\r    pass\r\rdef f():\r    g()\r",
    );
    let r = report(dir.path());
    let g = calls_named(&r, "g")[0];
    assert_eq!(
        (g["line"].as_u64(), g["column"].as_u64()),
        (Some(5), Some(5))
    );
    assert_eq!(g["resolution"], "in_tree");
    // The file is reported as it is on disk.
    assert_eq!(r["files"][0]["bytes"], 36);
}

// D18: past 64 levels of inheritance.

#[test]
fn a_lookup_cut_at_the_depth_bound_is_a_refusal_not_nothing_declares_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut java = String::from("class C0 { void m() {} }\n");
    let mut python = String::from("class C0:\n    def m(self):\n        pass\n");
    for i in 1..70 {
        java.push_str(&format!("class C{i} extends C{} {{}}\n", i - 1));
        python.push_str(&format!("class C{i}(C{}):\n    pass\n", i - 1));
    }
    java.push_str("class Main { static void run(C69 c) { c.m(); } }\n");
    python.push_str("C69().m()\n");
    write(dir.path(), "Main.java", &java);
    write(dir.path(), "a.py", &python);
    let r = report(dir.path());
    for m in calls_named(&r, "m") {
        assert_eq!(m["resolution"], "undetermined", "{m}");
        assert_ne!(m["reason"], "no_declaration", "{m}");
    }
    // 40 levels are within the bound: placed through inheritance.
    let dir = tempfile::tempdir().unwrap();
    let mut java = String::from("class C0 { void m() {} }\n");
    for i in 1..40 {
        java.push_str(&format!("class C{i} extends C{} {{}}\n", i - 1));
    }
    java.push_str("class Main { static void run(C39 c) { c.m(); } }\n");
    write(dir.path(), "Main.java", &java);
    let r = report(dir.path());
    assert_eq!(calls_named(&r, "m")[0]["placed_by"], "inheritance");
}

// D19: link reasons.

#[test]
fn a_dangling_link_or_a_loop_is_broken_not_outside() {
    let dir = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink("missing.py", dir.path().join("dangling.py")).unwrap();
    std::os::unix::fs::symlink("b.py", dir.path().join("a.py")).unwrap();
    std::os::unix::fs::symlink("a.py", dir.path().join("b.py")).unwrap();
    write(dir.path(), "real.py", "x = 1\n");
    std::os::unix::fs::symlink("real.py", dir.path().join("alias.py")).unwrap();
    let r = report(dir.path());
    assert_eq!(
        skipped(&r),
        [
            ("a.py".to_string(), "link_broken".to_string()),
            ("alias.py".to_string(), "link".to_string()),
            ("b.py".to_string(), "link_broken".to_string()),
            ("dangling.py".to_string(), "link_broken".to_string()),
        ]
    );
}

// D22: env limits with a typo.

#[test]
fn a_limit_variable_that_is_not_a_number_is_a_wrong_invocation() {
    let dir = tempfile::tempdir().unwrap();
    for bad in ["abc", "-5"] {
        let out = callgraph()
            .arg("analyze")
            .arg(dir.path())
            .env("CALLGRAPH_MAX_FILES", bad)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{bad}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("invalid_argument") && err.contains("CALLGRAPH_MAX_FILES"),
            "{err}"
        );
    }
}

// D1: --out onto a link, a FIFO or a device.

#[test]
fn out_through_a_link_keeps_the_link() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    write(&root, "a.py", "x = 1\n");
    std::fs::write(dir.path().join("t.json"), "old").unwrap();
    std::os::unix::fs::symlink("t.json", dir.path().join("l.json")).unwrap();
    let out = callgraph()
        .arg("analyze")
        .arg(&root)
        .arg("--out")
        .arg(dir.path().join("l.json"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let link = std::fs::symlink_metadata(dir.path().join("l.json")).unwrap();
    assert!(link.file_type().is_symlink());
    let text = std::fs::read_to_string(dir.path().join("t.json")).unwrap();
    assert!(text.contains("callgraph-report/1"));
    let out = callgraph()
        .arg("analyze")
        .arg(&root)
        .args(["--out", "/dev/null"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

// D24: a BOM's bytes count in line-1 columns (documented in docs/REPORT.md).

#[test]
fn a_bom_counts_in_the_first_lines_byte_columns() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a.py", "\u{feff}def g(): pass\ng()\n");
    let r = report(dir.path());
    let g = &r["entities"][0];
    assert_eq!(
        (g["line"].as_u64(), g["column"].as_u64()),
        (Some(1), Some(8))
    );
    assert_eq!(calls_named(&r, "g")[0]["column"], 1);
}

#[test]
fn the_limits_default_is_what_the_docs_say() {
    let l = Limits::default();
    assert_eq!(l.parse_time_ms, 10_000);
    assert_eq!(l.max_tree_nodes, 10_000_000);
    assert_eq!(l.max_report_ratio, 64);
    let docs =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/REPORT.md"))
            .unwrap();
    for said in ["10 000 ms", "10 000 000 nodes", "64 times"] {
        assert!(docs.contains(said), "docs/REPORT.md does not say {said}");
    }
}

// D23 (cosmetic): `callgraph languages` misaligned its columns for the longer tokens.

#[test]
fn the_languages_table_lines_up_its_columns() {
    let out = callgraph().arg("languages").output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let starts: Vec<(usize, usize)> = text
        .lines()
        .map(|line| {
            let ext = line.find(" .").unwrap() + 1;
            // The families: the first word after the extensions that is not one.
            let bytes = line.as_bytes();
            let families = (ext + 1..bytes.len())
                .find(|&i| bytes[i - 1] == b' ' && bytes[i].is_ascii_lowercase())
                .unwrap();
            (ext, families)
        })
        .collect();
    assert!(starts.len() >= 9, "{text}");
    assert!(starts.windows(2).all(|w| w[0] == w[1]), "{text}");
}
