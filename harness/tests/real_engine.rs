//! The harness against the real engine binary. The engine is built by another crate,
//! so these tests look for it ($CALLGRAPH_BIN, else target/debug/callgraph of the
//! workspace). Where it is absent or does not write a report yet they print that they
//! were not run — and fail instead when HARNESS_REQUIRE_ENGINE=1 (CI sets it).

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::*;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

fn required() -> bool {
    std::env::var("HARNESS_REQUIRE_ENGINE").is_ok_and(|v| v == "1")
}

/// Where the engine binary should be: $CALLGRAPH_BIN, else next to this test's own
/// target directory (the same profile), else the workspace's target/debug.
fn engine_candidates() -> Vec<PathBuf> {
    if let Some(path) = std::env::var_os("CALLGRAPH_BIN") {
        return vec![PathBuf::from(path)];
    }
    let mut candidates = Vec::new();
    // target/<profile>/deps/real_engine-… → target/<profile>/callgraph
    if let Some(profile_dir) = std::env::current_exe()
        .ok()
        .and_then(|exe| Some(exe.parent()?.parent()?.to_path_buf()))
    {
        candidates.push(profile_dir.join("callgraph"));
    }
    candidates.push(workspace().join("target/debug/callgraph"));
    candidates
}

/// The real engine, when it exists and writes a report; otherwise the reason.
fn real_engine() -> Result<PathBuf, String> {
    let candidates = engine_candidates();
    let Some(path) = candidates.iter().find(|p| p.is_file()).cloned() else {
        return Err(format!("no engine binary at {candidates:?}"));
    };
    let probe = tempfile::tempdir().unwrap();
    let tree = probe.path().join("tree");
    std::fs::create_dir_all(&tree).unwrap();
    std::fs::write(
        tree.join("main.py"),
        "def f():\n    return 1\n\n\nprint(f())\n",
    )
    .unwrap();
    let out = probe.path().join("report.json");
    let status = Command::new(&path)
        .arg("analyze")
        .arg(&tree)
        .arg("--out")
        .arg(&out)
        .status()
        .map_err(|e| format!("cannot run {}: {e}", path.display()))?;
    if !status.success() || !out.is_file() {
        return Err(format!(
            "the engine at {} does not write a report yet ({status})",
            path.display()
        ));
    }
    Ok(path)
}

/// Runs `test` with the engine, or says why not (failing when the engine is required).
fn with_engine(test: impl FnOnce(&Path)) {
    let _ = engines();
    match real_engine() {
        Ok(path) => test(&path),
        Err(why) if required() => panic!("HARNESS_REQUIRE_ENGINE=1 but {why}"),
        Err(why) => {
            println!("not run: {why} (set HARNESS_REQUIRE_ENGINE=1 to make this a failure)")
        }
    }
}

fn proofs_dir() -> PathBuf {
    let real = workspace().join("proofs");
    if real.is_dir() {
        real
    } else {
        proofs()
    }
}

#[test]
fn the_real_engine_is_measured_on_the_proofs_without_failures() {
    with_engine(|engine| {
        let dir = workdir();
        let out = dir.path().join("reports");
        let output = harness(
            dir.path(),
            &[
                "measure",
                "--proofs",
                proofs_dir().to_str().unwrap(),
                "--engine",
                engine.to_str().unwrap(),
                "--out",
                out.to_str().unwrap(),
            ],
        );
        assert_code(&output, 0);
        let json: serde_json::Value =
            serde_json::from_slice(&read(&out.join("measurements.json"))).unwrap();
        let rows = json["rows"].as_array().unwrap();
        for row in rows {
            assert!(
                row.get("outcome").is_none(),
                "{}: {}",
                row["id"],
                row["outcome"]
            );
            let failures = &row["engine_failures"];
            assert!(failures.is_null(), "{}: {failures}", row["id"]);
        }
        // The reports were read, not just accepted: some row saw the engine's calls.
        // (Which languages the engine covers is the engine's business, not this test's.)
        assert!(rows
            .iter()
            .any(|r| r["figures"]["engine_calls"].as_u64().unwrap() > 0));
    });
}

#[test]
fn the_real_engines_report_is_read_by_the_scorer() {
    with_engine(|engine| {
        let dir = workdir();
        let case = proofs().join("python/S01-local-function");
        let report = dir.path().join("report.json");
        let status = Command::new(engine)
            .arg("analyze")
            .arg(&case)
            .arg("--out")
            .arg(&report)
            .status()
            .unwrap();
        assert!(status.success());
        let truth = case.join("expected.json");
        let output = harness(
            dir.path(),
            &[
                "score",
                "--report",
                report.to_str().unwrap(),
                "--truth",
                truth.to_str().unwrap(),
            ],
        );
        assert_code(&output, 0);
    });
}

/// The CI matrix's contract (.github/workflows/measure.yml): `measure --shard K/3`
/// on three machines and a `merge` of their measurements.json write exactly the
/// tables of one unsharded run — on the real proof rows with the real engine, which
/// take seconds. A shard assignment that dropped a row, or gave one to two shards,
/// would fail it: the merge of two shards is checked to differ, and a row measured
/// twice is refused.
#[test]
fn three_shards_merge_into_the_unsharded_run_byte_for_byte() {
    with_engine(|engine| {
        let dir = workdir();
        let proofs = proofs_dir();
        let measure = |out: &Path, extra: &[&str]| {
            let mut args = vec![
                "measure",
                "--all",
                "--proofs",
                proofs.to_str().unwrap(),
                "--engine",
                engine.to_str().unwrap(),
                "--out",
                out.to_str().unwrap(),
            ];
            args.extend_from_slice(extra);
            assert_code(&harness(dir.path(), &args), 0);
        };
        let full = dir.path().join("full");
        measure(&full, &[]);
        let mut shards = Vec::new();
        for k in 1..=3 {
            let out = dir.path().join(format!("shard-{k}"));
            measure(&out, &["--shard", &format!("{k}/3")]);
            shards.push(out.join("measurements.json"));
        }
        let ids = |path: &Path| -> Vec<String> {
            let json: serde_json::Value = serde_json::from_slice(&read(path)).unwrap();
            json["rows"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r["id"].as_str().unwrap().to_string())
                .collect()
        };
        let mut together: Vec<String> = shards.iter().flat_map(|s| ids(s)).collect();
        assert!(
            shards.iter().all(|s| !ids(s).is_empty()),
            "every shard measures a row"
        );
        together.sort();
        assert_eq!(together, ids(&full.join("measurements.json")));

        let merge = |inputs: &[&PathBuf], out: &Path| {
            let mut args = vec!["merge"];
            args.extend(inputs.iter().map(|p| p.to_str().unwrap()));
            args.extend(["--out", out.to_str().unwrap()]);
            harness(dir.path(), &args)
        };
        // In another order than the shards': the result may not depend on it.
        let merged = dir.path().join("merged");
        assert_code(&merge(&[&shards[2], &shards[0], &shards[1]], &merged), 0);
        for file in OUTPUTS {
            assert_eq!(
                read(&full.join(file)),
                read(&merged.join(file)),
                "{file}: the merge of three shards differs from the unsharded run"
            );
        }
        // The comparison can fail: a dropped shard's rows are missed...
        let partial = dir.path().join("partial");
        assert_code(&merge(&[&shards[0], &shards[2]], &partial), 0);
        assert_ne!(
            read(&full.join("MEASUREMENTS.md")),
            read(&partial.join("MEASUREMENTS.md"))
        );
        // ...and a row two shards measured is refused.
        let twice = dir.path().join("twice");
        let output = merge(&[&shards[0], &shards[1], &shards[1]], &twice);
        assert_code(&output, 2);
        assert!(
            stderr(&output).contains("duplicate_row"),
            "{}",
            stderr(&output)
        );
    });
}
