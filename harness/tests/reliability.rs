//! The harness's defects of the reliability probe (issue 14), end to end: exit
//! codes of `measure`, corpus ids that would leave the cache, and tools that outlive
//! a killed harness.

mod common;

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use common::*;

fn entry(id: &str, registry: &str, sha: &str) -> serde_json::Value {
    serde_json::json!({
        "id": id, "language": "python",
        "source": {"registry": registry, "package": "p", "version": "1.0",
                   "archive": "p.tar.gz", "sha256": sha},
        "oracle": {"name": "pycg-micro"}})
}

#[test]
fn measure_exits_three_when_every_requested_row_is_an_outcome() {
    // D9: `harness measure` exited 0 with every row `not_implemented`.
    let _ = engines();
    let dir = workdir();
    let list = write_corpora(dir.path(), entry("nope", "cpan", &"a".repeat(64)));
    let engine = stand_in_engine(dir.path(), "{}", "");
    let out = measure_corpus(
        dir.path(),
        "nope",
        &dir.path().join("out"),
        &list,
        &dir.path().join("cache"),
        &engine,
    );
    assert_code(&out, 3);
    assert!(
        stdout(&out).contains("nope: not_implemented"),
        "{}",
        stdout(&out)
    );
    // The tables are written all the same.
    assert!(dir.path().join("out/MEASUREMENTS.md").is_file());
}

#[test]
fn measure_exits_one_when_an_archive_fails_its_checksum() {
    let _ = engines();
    let dir = workdir();
    let src = dir.path().join("src");
    std::fs::create_dir_all(src.join("p-1.0")).unwrap();
    std::fs::write(src.join("p-1.0/a.py"), "x = 1\n").unwrap();
    tar_gz(&src, "p-1.0", &dir.path().join("p.tar.gz"));
    let list = write_corpora(dir.path(), entry("p", "local", &"0".repeat(64)));
    let engine = stand_in_engine(dir.path(), "{}", "");
    let out = measure_corpus(
        dir.path(),
        "p",
        &dir.path().join("out"),
        &list,
        &dir.path().join("cache"),
        &engine,
    );
    assert_code(&out, 1);
    assert!(
        stdout(&out).contains("checksum_mismatch"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn a_corpus_id_that_leaves_the_cache_is_refused_before_anything_is_written() {
    // D10: id `../../escaped` wrote `escaped-*` two levels above --cache.
    let _ = engines();
    let dir = workdir();
    let cache = dir.path().join("a/b/cache");
    let list = write_corpora(dir.path(), entry("../../escaped", "local", &"0".repeat(64)));
    let engine = stand_in_engine(dir.path(), "{}", "");
    let out = measure_corpus(
        dir.path(),
        "../../escaped",
        &dir.path().join("out"),
        &list,
        &cache,
        &engine,
    );
    assert_code(&out, 2);
    assert!(stderr(&out).contains("invalid_corpora"), "{}", stderr(&out));
    let escaped: Vec<_> = walk(dir.path())
        .into_iter()
        .filter(|p| p.to_string_lossy().contains("escaped-"))
        .collect();
    assert!(escaped.is_empty(), "{escaped:?}");
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        out.push(path.clone());
        if path.is_dir() {
            out.extend(walk(&path));
        }
    }
    out
}

#[test]
fn a_killed_harness_takes_its_tools_with_it() {
    // D8: SIGKILL (or SIGINT, SIGTERM) of the harness left its tools running: each
    // is in a process group of its own, and only the dead harness's timer killed it.
    // The three signals run side by side, each harness with its own proof and marker.
    let _ = engines();
    if !has("python3") {
        return;
    }
    let dir = workdir();
    let runs: Vec<(&str, std::path::PathBuf, std::process::Child)> = ["KILL", "INT", "TERM"]
        .into_iter()
        .map(|signal| {
            let marker = dir.path().join(format!("survived-{signal}"));
            let proofs = dir.path().join(format!("proofs-{signal}"));
            one_sleeping_proof(&proofs, &marker);
            let child = Command::new(env!("CARGO_BIN_EXE_harness"))
                .args(["proofs", "--no-engine", "--language", "python", "--proofs"])
                .arg(&proofs)
                .current_dir(dir.path())
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .spawn()
                .unwrap();
            (signal, marker, child)
        })
        .collect();
    std::thread::sleep(Duration::from_millis(1200));
    let mut markers = Vec::new();
    for (signal, marker, mut child) in runs {
        let killed = Command::new("kill")
            .arg(format!("-{signal}"))
            .arg(child.id().to_string())
            .status()
            .unwrap();
        assert!(killed.success());
        let started = Instant::now();
        let _ = child.wait();
        assert!(started.elapsed() < Duration::from_secs(5));
        markers.push((signal, marker));
    }
    // Past the 3 s the tools would have slept: none of them is left to touch its marker.
    std::thread::sleep(Duration::from_millis(3500));
    for (signal, marker) in markers {
        assert!(
            !marker.exists(),
            "a tool of the harness outlived SIG{signal}"
        );
    }
}

/// A Python proof whose program and a child it starts touch `marker` after 3 s.
fn one_sleeping_proof(proofs: &Path, marker: &Path) {
    let case = proofs.join("python/S01-sleeps");
    std::fs::create_dir_all(&case).unwrap();
    std::fs::write(
        case.join("main.py"),
        format!(
            "import pathlib, subprocess, time\n\
             subprocess.Popen(['sh', '-c', 'sleep 3; touch {0}'])\n\
             time.sleep(3)\n\
             pathlib.Path('{0}').touch()\n",
            marker.display()
        ),
    )
    .unwrap();
    std::fs::write(case.join("expected.stdout"), "").unwrap();
    std::fs::write(
        case.join("expected.json"),
        r#"{"schema": "callgraph-truth/1", "corpus": "proof:python/S01-sleeps",
            "oracle": {"name": "proof", "version": "1", "adapter": "1", "column": "name"},
            "sites": []}"#,
    )
    .unwrap();
}

#[test]
fn an_os_error_is_said_once() {
    // D23: `unreadable: nope.json: No such file or directory (os error 2): No such
    // file or directory (os error 2)` — the error was the sentence and its source.
    let dir = workdir();
    let nope = dir.path().join("nope.json");
    let out = Command::new(env!("CARGO_BIN_EXE_harness"))
        .arg("score")
        .arg("--report")
        .arg(&nope)
        .arg("--truth")
        .arg(&nope)
        .output()
        .unwrap();
    assert_code(&out, 2);
    let text = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(text.contains("unreadable"), "{text}");
    assert_eq!(text.matches("os error 2").count(), 1, "{text}");
}
