//! Bad input and limits (DESIGN §9), determinism, and the family registry.

mod common;

use std::fmt::Write;
use std::path::Path;

use engine::lang::Language;
use engine::limits::Limits;
use engine::resolve::family::Family;
use engine::Options;

fn report_json(root: &Path, threads: usize) -> String {
    let options = Options {
        threads,
        ..Options::default()
    };
    serde_json::to_string(&engine::analyze(root, &options).unwrap()).unwrap()
}

fn skipped_reason(report: &serde_json::Value, path: &str) -> Option<String> {
    report["skipped"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["path"] == path)
        .map(|s| s["reason"].as_str().unwrap().to_string())
}

#[test]
fn same_bytes_with_one_and_four_threads() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../proofs");
    let one = report_json(&root, 1);
    let four = report_json(&root, 4);
    assert!(one.len() > 1000, "the proofs produce a real report");
    assert_eq!(one, four);
}

#[test]
fn bad_files_are_recorded_and_the_run_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("ok.py"), "def f():\n    pass\nf()\n").unwrap();
    std::fs::write(d.join("latin1.py"), b"x = '\xe9'\n").unwrap();
    std::fs::write(d.join("binary.py"), b"\x00\x01\x02").unwrap();
    std::fs::write(d.join("broken.py"), "def f(:\n    pass\n").unwrap();
    std::fs::write(d.join("big.py"), "x = 1\n".repeat(100)).unwrap();
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("secret.py"), "def secret(): pass\n").unwrap();
    std::os::unix::fs::symlink(outside.path().join("secret.py"), d.join("escape.py")).unwrap();
    let options = Options {
        limits: Limits {
            max_file_bytes: 300,
            ..Limits::default()
        },
        ..Options::default()
    };
    let report = serde_json::to_value(engine::analyze(d, &options).unwrap()).unwrap();
    assert_eq!(
        skipped_reason(&report, "latin1.py").as_deref(),
        Some("not_utf8")
    );
    assert_eq!(
        skipped_reason(&report, "binary.py").as_deref(),
        Some("binary")
    );
    assert_eq!(
        skipped_reason(&report, "big.py").as_deref(),
        Some("too_large")
    );
    assert_eq!(
        skipped_reason(&report, "escape.py").as_deref(),
        Some("link_outside_root")
    );
    let broken = report["files"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["path"] == "broken.py")
        .unwrap();
    assert!(broken["parse_errors"].as_u64().unwrap() > 0);
    let text = report.to_string();
    assert!(!text.contains("secret"), "nothing outside the root is read");
    assert_eq!(report["summary"]["by_family"]["lexical"], 1);
}

#[test]
fn a_file_that_cannot_be_read_as_a_file_is_recorded() {
    // Permission bits do not stop root (CI runs as root), so the unreadable case is
    // a FIFO named like a source file: not a regular file, never opened.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("ok.py"), "x = 1\n").unwrap();
    let fifo = dir.path().join("pipe.py");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    let report =
        serde_json::to_value(engine::analyze(dir.path(), &Options::default()).unwrap()).unwrap();
    assert_eq!(
        skipped_reason(&report, "pipe.py").as_deref(),
        Some("unreadable")
    );
    assert_eq!(report["files"].as_array().unwrap().len(), 1);
}

#[test]
fn deep_nesting_and_many_functions_finish() {
    let dir = tempfile::tempdir().unwrap();
    let depth = 50_000;
    let deep = format!("x = {}1{}\n", "(".repeat(depth), ")".repeat(depth));
    std::fs::write(dir.path().join("deep.py"), deep).unwrap();
    let deep_java = format!(
        "class D {{ int x = {}1{}; }}\n",
        "(".repeat(depth),
        ")".repeat(depth)
    );
    std::fs::write(dir.path().join("D.java"), deep_java).unwrap();
    let mut many = String::new();
    for i in 0..26_000u32 {
        let _ = writeln!(many, "def f{i}():\n    return f{}()\n", i.saturating_sub(1));
    }
    std::fs::write(dir.path().join("many.py"), many).unwrap();
    let report =
        serde_json::to_value(engine::analyze(dir.path(), &Options::default()).unwrap()).unwrap();
    let files = report["files"].as_array().unwrap();
    assert_eq!(files.len(), 3);
    assert!(report["entities"].as_array().unwrap().len() >= 26_000);
    assert!(report["summary"]["by_family"]["lexical"].as_u64().unwrap() >= 25_999);
}

#[test]
fn over_the_file_count_limit_refuses() {
    let dir = tempfile::tempdir().unwrap();
    for i in 0..5 {
        std::fs::write(dir.path().join(format!("m{i}.py")), "pass\n").unwrap();
    }
    let options = Options {
        limits: Limits {
            max_files: 3,
            ..Limits::default()
        },
        ..Options::default()
    };
    let err = engine::analyze(dir.path(), &options).expect_err("refuses");
    assert_eq!(err.code(), "workload_too_large");
    assert_eq!(err.exit_code(), 3);
    let options = Options {
        limits: Limits {
            max_total_bytes: 10,
            ..Limits::default()
        },
        ..Options::default()
    };
    let err = engine::analyze(dir.path(), &options).expect_err("refuses");
    assert_eq!(err.code(), "workload_too_large");
}

#[test]
fn invalid_root_is_a_wrong_invocation() {
    let err = engine::analyze(Path::new("/no/such/root"), &Options::default())
        .err()
        .unwrap();
    assert_eq!(err.code(), "invalid_root");
    assert_eq!(err.exit_code(), 2);
}

#[test]
fn family_registry_is_closed_documented_and_exercised() {
    let tokens: Vec<&str> = Family::ALL.iter().map(|f| f.token()).collect();
    let mut unique = tokens.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), tokens.len(), "family tokens are unique");
    let doc =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/REPORT.md"))
            .unwrap();
    for t in &tokens {
        assert!(
            doc.contains(&format!("`{t}`")),
            "docs/REPORT.md documents `{t}`"
        );
    }
    // Every family a language lists is placed by at least one fixture or proof.
    let mut placed = std::collections::BTreeSet::new();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for dir in [root.join("../proofs"), root.join("tests/fixtures")] {
        collect_families(&dir, &mut placed);
    }
    for l in Language::ALL {
        for f in l.families() {
            assert!(
                placed.contains(f.token()),
                "{} lists `{}` but no fixture or proof exercises it",
                l.token(),
                f.token()
            );
        }
    }
}

/// Analyse each case directory (one with files and no subdirectory of cases) and
/// collect the families its report places with.
fn collect_families(dir: &Path, out: &mut std::collections::BTreeSet<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut subdirs: Vec<_> = entries
        .flatten()
        .filter(|e| e.path().is_dir())
        .map(|e| e.path())
        .collect();
    subdirs.sort();
    for d in subdirs {
        if d.join("expected.json").exists() {
            let report =
                serde_json::to_value(engine::analyze(&d, &Options::default()).unwrap()).unwrap();
            for (k, _) in report["summary"]["by_family"].as_object().unwrap() {
                out.insert(k.clone());
            }
        } else {
            collect_families(&d, out);
        }
    }
    for f in std::fs::read_dir(dir).unwrap().flatten() {
        let p = f.path();
        if p.extension().is_some_and(|e| e == "txt") {
            let comment = if p.to_string_lossy().contains("/python/") {
                "#"
            } else {
                "//"
            };
            let text = std::fs::read_to_string(&p).unwrap();
            let fixture = common::parse_fixture(&text, comment);
            let tmp = tempfile::tempdir().unwrap();
            common::write_tree(&fixture, tmp.path());
            let report =
                serde_json::to_value(engine::analyze(tmp.path(), &Options::default()).unwrap())
                    .unwrap();
            for (k, _) in report["summary"]["by_family"].as_object().unwrap() {
                out.insert(k.clone());
            }
        }
    }
}

/// A Kotlin type path thousands of segments long (a byte-order mark before `class
/// Buila.a.a…der`, the shape the fuzzer found) once cost time quadratic in its
/// length: every dotted prefix was joined and looked up (1.5 KB took 3 s to resolve,
/// 9.5 KB 29 s; this one took over a minute). Past `MAX_TYPE_PATH_SEGMENTS` it is an
/// unknown type, so the run is quick.
#[test]
fn a_very_long_kotlin_type_path_resolves_quickly() {
    let dir = tempfile::tempdir().unwrap();
    let chain = "a.".repeat(2_000);
    let text = format!(
        "\u{feff}class Buil{chain}der {{\n    private val val = StringBuilder()\n\n    fun add(p: String): Builder {{\n        val.append(p)\n        return this\n    }}\n\n    fun build(): String = val.toString()\n}}\n\nfun main() {{\n    println(Builder().add(\"a\").build())\n}}\n"
    );
    std::fs::write(dir.path().join("Main.kt"), text).unwrap();
    let started = std::time::Instant::now();
    let report =
        serde_json::to_value(engine::analyze(dir.path(), &Options::default()).unwrap()).unwrap();
    let took = started.elapsed();
    assert_eq!(report["files"].as_array().unwrap().len(), 1);
    assert!(took.as_secs() < 10, "took {took:?}");
}
