//! A real corpus end to end without the network: a local archive (registry `local`),
//! its checksum refusal, the include view, the javac oracle, the truth cache, and
//! `reproduce`. The engine is a stand-in that writes one canned report, so the
//! figures are known exactly. The javac part needs a JDK (`make setup`).

mod common;

use std::path::{Path, PathBuf};

use common::*;

const MAIN: &str = "package p;

public class Main {
    static int helper() { return 1; }

    public static void main(String[] args) {
        helper();
        System.out.println(helper());
    }
}
";

/// What the stand-in engine checks of the root it is given: it is the include view.
const ROOT_CHECK: &str = "[ -f \"$2/src/p/Main.java\" ] && [ ! -e \"$2/bench\" ] || { echo 'not the include view' >&2; exit 3; }\n";

/// The report the stand-in engine writes: `helper()` on line 7 right, the one on
/// line 8 undetermined, `println` outside.
const REPORT: &str = r#"{"schema": "callgraph-report/1", "engine": {"version": "canned"},
 "entities": [
  {"id": 1, "qualified_name": "src/p/Main.java::Main", "kind": "class", "file": "src/p/Main.java", "line": 3},
  {"id": 2, "qualified_name": "src/p/Main.java::Main::helper", "kind": "method", "file": "src/p/Main.java", "line": 4},
  {"id": 3, "qualified_name": "src/p/Main.java::Main::main", "kind": "method", "file": "src/p/Main.java", "line": 6}],
 "calls": [
  {"file": "src/p/Main.java", "line": 7, "column": 9, "caller": 3, "name": "helper", "resolution": "in_tree",
   "placed_by": "own_type",
   "target": {"entity": 2, "qualified_name": "src/p/Main.java::Main::helper", "file": "src/p/Main.java", "line": 4}},
  {"file": "src/p/Main.java", "line": 8, "column": 20, "caller": 3, "name": "println", "resolution": "outside",
   "placed_by": "foreign_type", "outside": {"kind": "foreign_type", "symbol": "java.io.PrintStream.println"}},
  {"file": "src/p/Main.java", "line": 8, "column": 28, "caller": 3, "name": "helper", "resolution": "undetermined",
   "reason": "receiver_type_unknown"}],
 "references": []}
"#;

/// A tar.gz of `tiny-1.0/{src/p/Main.java, bench/Ignored.java}`; returns it and its sha256.
fn archive(dir: &Path) -> (PathBuf, String) {
    let src = dir.join("archive-src");
    std::fs::create_dir_all(src.join("tiny-1.0/src/p")).unwrap();
    std::fs::create_dir_all(src.join("tiny-1.0/bench")).unwrap();
    std::fs::write(src.join("tiny-1.0/src/p/Main.java"), MAIN).unwrap();
    std::fs::write(
        src.join("tiny-1.0/bench/Ignored.java"),
        "class Ignored { void f() { Integer.parseInt(\"1\"); } }\n",
    )
    .unwrap();
    let path = dir.join("tiny-1.0.tar.gz");
    let sha = tar_gz(&src, "tiny-1.0", &path);
    (path, sha)
}

fn corpora(dir: &Path, archive: &Path, sha: &str) -> PathBuf {
    write_corpora(
        dir,
        serde_json::json!({"id": "tiny", "language": "java",
            "source": {"registry": "local", "package": "tiny", "version": "1.0",
                       "archive": archive, "sha256": sha},
            "root": "tiny-1.0", "include": ["src"],
            "oracle": {"name": "javac", "options": {"release": "11"}}}),
    )
}

#[test]
fn fetch_refuses_a_wrong_checksum_naming_both_digests_and_unpacks_nothing() {
    engines();
    let dir = workdir();
    let (tarball, sha) = archive(dir.path());
    let wrong = "0123456789abcdef".repeat(4);
    let list = corpora(dir.path(), &tarball, &wrong);
    let cache = dir.path().join("cache");
    let args = |list: &Path| {
        vec![
            "fetch".to_string(),
            "--corpus".into(),
            "tiny".into(),
            "--corpora".into(),
            list.display().to_string(),
            "--cache".into(),
            cache.display().to_string(),
        ]
    };
    let run = |args: Vec<String>| {
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        harness(dir.path(), &refs)
    };
    let refused = run(args(&list));
    assert_code(&refused, 1);
    let text = stdout(&refused);
    assert!(text.contains("tiny: checksum_mismatch"), "{text}");
    assert!(text.contains(&wrong) && text.contains(&sha), "{text}");
    // Only the entry's lock file (D2) is there: no tree, no record of an unpack.
    let left: Vec<_> = std::fs::read_dir(cache.join("corpora"))
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| !(e.path().is_file() && e.file_name().to_string_lossy().ends_with(".lock")))
        .map(|e| e.path())
        .collect();
    assert!(left.is_empty(), "something was unpacked: {left:?}");
    assert!(!cache.join("views").exists());

    let list = corpora(dir.path(), &tarball, &sha);
    let fetched = run(args(&list));
    assert_code(&fetched, 0);
    assert!(stdout(&fetched).contains(&format!("tiny: sha256:{sha} verified")));
    let views: Vec<_> = std::fs::read_dir(cache.join("views")).unwrap().collect();
    assert_eq!(views.len(), 1);
    let view = views[0].as_ref().unwrap().path();
    assert!(view.join("src/p/Main.java").is_file());
    assert!(!view.join("bench").exists(), "include keeps only src");

    // Nothing named is a wrong invocation.
    assert_code(&harness(dir.path(), &["fetch"]), 2);
}

#[test]
fn a_java_corpus_is_measured_through_javac_and_reproduces() {
    engines();
    if !(has("javac") && has("java")) {
        panic!("a JDK is needed (make setup installs one)");
    }
    let dir = workdir();
    let (tarball, sha) = archive(dir.path());
    let list = corpora(dir.path(), &tarball, &sha);
    let engine = stand_in_engine(dir.path(), REPORT, ROOT_CHECK);
    let cache = dir.path().join("cache");
    let out = dir.path().join("reports");
    let common = [
        "--corpora",
        list.to_str().unwrap(),
        "--cache",
        cache.to_str().unwrap(),
        "--engine",
        engine.to_str().unwrap(),
    ];
    let mut args = vec![
        "measure",
        "--corpus",
        "tiny",
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend(common);
    let measured = harness(dir.path(), &args);
    assert_code(&measured, 0);
    let text = stdout(&measured);
    assert!(
        text.contains("tiny: 2 judged, 1 right, coverage 50.0%, precision 100.0%, 0 false edges"),
        "{text}\n{}",
        stderr(&measured)
    );
    let json: serde_json::Value =
        serde_json::from_slice(&read(&out.join("measurements.json"))).unwrap();
    let row = &json["rows"][0];
    assert_eq!(row["corpus"]["pin"], format!("sha256:{sha}"));
    assert_eq!(row["oracle"]["name"], "javac");
    assert_eq!(row["oracle"]["version"], oracles::javac::ADAPTER_VERSION);
    assert!(row["toolchain"]["version"]
        .as_str()
        .unwrap()
        .starts_with("javac "));
    assert_eq!(
        row["figures"]["implicit"], 1,
        "Main's default constructor calls super()"
    );
    assert_eq!(row["verdicts"]["right_outside"], 1);
    assert_eq!(row["verdicts"]["declined"], 1);
    let truths: Vec<_> = std::fs::read_dir(cache.join("truths")).unwrap().collect();
    assert_eq!(truths.len(), 1, "the truth is cached");

    let published = out.join("measurements.json").display().to_string();
    let mut args = vec!["reproduce", "tiny", "--measurements", &published];
    args.extend(common);
    let again = harness(dir.path(), &args);
    assert_code(&again, 0);
    assert!(
        stdout(&again).contains("tiny: reproduced, every figure equal"),
        "{}",
        stdout(&again)
    );
}
