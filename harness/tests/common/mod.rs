//! Shared setup for the harness's integration tests: fake engines that copy canned
//! reports, so the measuring half can be tested without the real engine.

#![allow(dead_code)] // each test binary uses a different part of this module

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

pub fn proofs() -> PathBuf {
    fixtures().join("proofs")
}

/// The two fake engines: `good` copies the canned reports; `worse` is the same but
/// has lost the right answer at python/S01 main.py:5 `f` (now undetermined).
pub struct Engines {
    pub good: PathBuf,
    pub worse: PathBuf,
    pub scratch: PathBuf,
}

/// Writes the fake engines once per test binary. Every test calls this first, so no
/// test is spawning a process while a script is being written (which could make the
/// script "text file busy").
pub fn engines() -> &'static Engines {
    static ENGINES: OnceLock<Engines> = OnceLock::new();
    ENGINES.get_or_init(|| {
        let scratch = Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("harness-it-{}", std::process::id()));
        std::fs::create_dir_all(&scratch).unwrap();
        let good_reports = fixtures().join("reports");
        let worse_reports = scratch.join("worse-reports");
        copy_dir(&good_reports, &worse_reports);
        let s01 = worse_reports.join("python/S01-local-function.json");
        let text = std::fs::read_to_string(&s01).unwrap();
        let worse = text.replace(
            r#""resolution": "in_tree", "placed_by": "lexical",
   "target": {"entity": 1, "qualified_name": "main.py::f", "file": "main.py", "line": 1}}"#,
            r#""resolution": "undetermined", "reason": "receiver_type_unknown"}"#,
        );
        assert_ne!(text, worse, "the worse fixture must differ");
        std::fs::write(&s01, worse).unwrap();
        Engines {
            good: write_engine(&scratch, "good", &good_reports),
            worse: write_engine(&scratch, "worse", &worse_reports),
            scratch,
        }
    })
}

fn write_engine(dir: &Path, name: &str, reports: &Path) -> PathBuf {
    let script = format!(
        "#!/bin/sh\n\
         # A stand-in for `callgraph analyze ROOT --out FILE`.\n\
         [ \"$1\" = analyze ] && [ \"$3\" = --out ] || exit 2\n\
         case_name=$(basename \"$2\")\n\
         language=$(basename \"$(dirname \"$2\")\")\n\
         report=\"{}/$language/$case_name.json\"\n\
         [ -f \"$report\" ] || {{ echo \"no canned report for $language/$case_name\" >&2; exit 3; }}\n\
         cp \"$report\" \"$4\"\n",
        reports.display()
    );
    let temp = dir.join(format!("{name}.tmp"));
    let path = dir.join(format!("{name}-callgraph"));
    std::fs::write(&temp, script).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&temp, std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::rename(&temp, &path).unwrap();
    path
}

pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// Runs the harness binary with `args` in `cwd`, with no engine in the environment.
pub fn harness(cwd: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_harness"))
        .args(args)
        .current_dir(cwd)
        .env_remove("CALLGRAPH_BIN")
        .env_remove("HARNESS_MAX_INPUT_BYTES")
        .output()
        .expect("the harness runs")
}

pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

pub fn code(output: &Output) -> i32 {
    output.status.code().expect("exited")
}

/// Asserts the exit code, printing both streams when it differs.
#[track_caller]
pub fn assert_code(output: &Output, expected: i32) {
    assert_eq!(
        code(output),
        expected,
        "stdout:\n{}\nstderr:\n{}",
        stdout(output),
        stderr(output)
    );
}

/// A fresh directory for one test.
pub fn workdir() -> tempfile::TempDir {
    tempfile::tempdir_in(&engines().scratch).unwrap()
}

/// `harness measure` of the fixture proofs with `engine` into `out`.
pub fn measure(cwd: &Path, engine: &Path, out: &Path, extra: &[&str]) -> Output {
    let proofs = proofs();
    let mut args = vec![
        "measure",
        "--proofs",
        proofs.to_str().unwrap(),
        "--engine",
        engine.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    harness(cwd, &args)
}

pub const OUTPUTS: &[&str] = harness::outputs::OUTPUT_FILES;

pub fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

pub fn has(tool: &str) -> bool {
    which::which(tool).is_ok()
}

/// A reproducible tar.gz (sorted, mtime 0, owner 0) at `path` of the folder `top`
/// under `src`; returns its sha256.
pub fn tar_gz(src: &Path, top: &str, path: &Path) -> String {
    oracles::Tool::locate("tar")
        .unwrap()
        .command(src)
        .args([
            "--sort=name",
            "--mtime=@0",
            "--owner=0",
            "--group=0",
            "-czf",
        ])
        .arg(path)
        .arg(top)
        .run()
        .unwrap();
    harness::fetch::sha256_file(path).unwrap()
}

/// `dir/corpora.json`, listing the one corpus `entry`.
pub fn write_corpora(dir: &Path, entry: serde_json::Value) -> PathBuf {
    let path = dir.join("corpora.json");
    let text = serde_json::json!({"schema": "corpora/1", "corpora": [entry]});
    std::fs::write(&path, text.to_string()).unwrap();
    path
}

/// `dir/callgraph`, a stand-in engine that copies the canned `report` once the
/// shell `check` (empty, or lines ending in a newline) passes on `$2`, the root.
pub fn stand_in_engine(dir: &Path, report: &str, check: &str) -> PathBuf {
    let canned = dir.join("canned-report.json");
    std::fs::write(&canned, report).unwrap();
    let script = format!(
        "#!/bin/sh\n[ \"$1\" = analyze ] && [ \"$3\" = --out ] || exit 2\n{check}cp {} \"$4\"\n",
        canned.display()
    );
    let temp = dir.join("engine.tmp");
    let path = dir.join("callgraph");
    std::fs::write(&temp, script).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&temp, std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::rename(&temp, &path).unwrap();
    path
}

/// `harness measure --corpus ID` with the list, the cache and the engine named.
pub fn measure_corpus(
    cwd: &Path,
    corpus: &str,
    out: &Path,
    list: &Path,
    cache: &Path,
    engine: &Path,
) -> Output {
    harness(
        cwd,
        &[
            "measure",
            "--corpus",
            corpus,
            "--out",
            out.to_str().unwrap(),
            "--corpora",
            list.to_str().unwrap(),
            "--cache",
            cache.to_str().unwrap(),
            "--engine",
            engine.to_str().unwrap(),
        ],
    )
}
