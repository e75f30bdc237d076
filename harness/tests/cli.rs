//! The harness binary end to end, with fake engines that copy canned reports.

mod common;

use std::path::Path;

use common::*;

/// proofs-python: S01 (print → outside, f → right) and S03 (g must abstain but the
/// engine answers: wrong; print → outside; call → right).
#[test]
fn measure_writes_every_output_deterministically() {
    let e = engines();
    let dir = workdir();
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    let first = measure(dir.path(), &e.good, &a, &[]);
    assert_code(&first, 0);
    assert_code(&measure(dir.path(), &e.good, &b, &[]), 0);
    for file in OUTPUTS {
        assert_eq!(
            read(&a.join(file)),
            read(&b.join(file)),
            "{file} differs between two runs"
        );
    }
    let out = stdout(&first);
    assert!(
        out.contains(
            "proofs-python: 2 judged, 2 right, coverage 100.0%, precision 80.0%, 1 false edges"
        ),
        "{out}"
    );
    assert!(
        out.contains(
            "proofs-java: 4 judged, 4 right, coverage 100.0%, precision 100.0%, 0 false edges"
        ),
        "{out}"
    );

    let md = String::from_utf8(read(&a.join("MEASUREMENTS.md"))).unwrap();
    for expected in [
        "| shape | java | python |",
        "| S01 | — | lexical |",
        "| S03 | — | WRONG |",
        "| S20 | own_type | — |",
        "| unique_name | proofs-python | 1 | 0 | 1 | 0.0% |",
        "| proofs-python | `harness reproduce proofs-python` |",
    ] {
        assert!(
            md.contains(expected),
            "MEASUREMENTS.md lacks {expected:?}:\n{md}"
        );
    }
    let json: serde_json::Value =
        serde_json::from_slice(&read(&a.join("measurements.json"))).unwrap();
    assert_eq!(json["schema"], "measurements/1");
    assert_eq!(json["protocol"], "protocol/2");
    let rows = json["rows"].as_array().unwrap();
    let ids: Vec<_> = rows.iter().map(|r| r["id"].as_str().unwrap()).collect();
    assert_eq!(ids, vec!["proofs-java", "proofs-python"]);
    let python = &rows[1];
    assert_eq!(python["oracle"]["name"], "proof");
    assert!(python["corpus"]["pin"]
        .as_str()
        .unwrap()
        .starts_with("sha256:"));
    assert_eq!(python["engine"]["version"], "canned");
    assert_eq!(python["verdicts"]["wrong"], 1);
    assert_eq!(python["figures"]["precision"], 0.8);
    let wrong_site = python["sites"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["verdict"] == "wrong")
        .unwrap();
    assert_eq!(wrong_site["file"], "S03-shadowed-by-parameter/main.py");
    assert_eq!(wrong_site["family"], "unique_name");
    let csv = String::from_utf8(read(&a.join("measurements.csv"))).unwrap();
    assert_eq!(csv.lines().count(), 3);
    assert!(csv
        .lines()
        .next()
        .unwrap()
        .starts_with("id,language,corpus,pin"));
    let svg = String::from_utf8(read(&a.join("charts/family-heatmap.svg"))).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("proofs-python"));
}

#[test]
fn shards_merge_into_the_single_run_byte_for_byte() {
    let e = engines();
    let dir = workdir();
    let full = dir.path().join("full");
    assert_code(&measure(dir.path(), &e.good, &full, &[]), 0);
    let (s1, s2) = (dir.path().join("s1"), dir.path().join("s2"));
    assert_code(&measure(dir.path(), &e.good, &s1, &["--shard", "1/2"]), 0);
    assert_code(&measure(dir.path(), &e.good, &s2, &["--shard", "2/2"]), 0);
    let shard_ids = |out: &Path| -> Vec<String> {
        let json: serde_json::Value =
            serde_json::from_slice(&read(&out.join("measurements.json"))).unwrap();
        json["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["id"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(shard_ids(&s1), vec!["proofs-java"]);
    assert_eq!(shard_ids(&s2), vec!["proofs-python"]);
    let merged = dir.path().join("merged");
    let (j1, j2) = (s1.join("measurements.json"), s2.join("measurements.json"));
    // Given in the other order on purpose: the result may not depend on it.
    let output = harness(
        dir.path(),
        &[
            "merge",
            j2.to_str().unwrap(),
            j1.to_str().unwrap(),
            "--out",
            merged.to_str().unwrap(),
        ],
    );
    assert_code(&output, 0);
    for file in OUTPUTS {
        assert_eq!(
            read(&full.join(file)),
            read(&merged.join(file)),
            "{file}: merge differs from a single run"
        );
    }
    // Overlapping shards are refused, naming the row.
    let output = harness(
        dir.path(),
        &[
            "merge",
            j1.to_str().unwrap(),
            j1.to_str().unwrap(),
            "--out",
            merged.to_str().unwrap(),
        ],
    );
    assert_code(&output, 2);
    assert!(stderr(&output).contains("duplicate_row") && stderr(&output).contains("proofs-java"));
    // A bad shard spec is a wrong invocation.
    assert_code(&measure(dir.path(), &e.good, &s1, &["--shard", "3/2"]), 2);
}

#[test]
fn the_gate_names_lost_answers_and_exits_by_the_contract() {
    let e = engines();
    let dir = workdir();
    let (base, now) = (dir.path().join("base"), dir.path().join("now"));
    assert_code(&measure(dir.path(), &e.good, &base, &[]), 0);
    assert_code(&measure(dir.path(), &e.worse, &now, &[]), 0);
    let baseline = base.join("measurements.json");
    let current = now.join("measurements.json");
    let (b, c) = (baseline.to_str().unwrap(), current.to_str().unwrap());

    let same = harness(dir.path(), &["gate", "--baseline", b, "--current", b]);
    assert_code(&same, 0);
    assert!(stdout(&same).contains("gate: no regression"));

    let worse = harness(dir.path(), &["gate", "--baseline", b, "--current", c]);
    assert_code(&worse, 1);
    let text = stdout(&worse);
    assert!(
        text.contains("| lexical | proofs-python | 2 → 1 | 0 → 0 |"),
        "{text}"
    );
    assert!(
        text.contains("proofs-python: lost a right answer at S01-local-function/main.py:5 f: right (lexical) → declined"),
        "{text}"
    );
    // 4 of 5 judged answers were right, now 3 of 4.
    assert!(
        text.contains("proofs-python: precision fell 80.0% → 75.0% (tolerance 0.1%)"),
        "{text}"
    );

    // The reverse direction gained a right answer: no regression.
    assert_code(
        &harness(dir.path(), &["gate", "--baseline", c, "--current", b]),
        0,
    );

    // Without --current the gate measures the baseline's rows now.
    let proofs = proofs();
    let fresh = harness(
        dir.path(),
        &[
            "gate",
            "--baseline",
            b,
            "--proofs",
            proofs.to_str().unwrap(),
            "--engine",
            e.worse.to_str().unwrap(),
        ],
    );
    assert_code(&fresh, 1);
    assert!(stdout(&fresh).contains("S01-local-function/main.py:5 f"));

    // A baseline row that is missing now: could not answer.
    let mut json: serde_json::Value = serde_json::from_slice(&read(&baseline)).unwrap();
    let mut ghost = json["rows"][0].clone();
    ghost["id"] = "ghost".into();
    json["rows"].as_array_mut().unwrap().push(ghost);
    let with_ghost = dir.path().join("ghost.json");
    std::fs::write(&with_ghost, serde_json::to_vec(&json).unwrap()).unwrap();
    let missing = harness(
        dir.path(),
        &[
            "gate",
            "--baseline",
            with_ghost.to_str().unwrap(),
            "--current",
            b,
        ],
    );
    assert_code(&missing, 3);
    assert!(stdout(&missing).contains("ghost: missing now"));

    // Bad input and bad flags.
    let truncated = dir.path().join("truncated.json");
    let bytes = read(&baseline);
    std::fs::write(&truncated, &bytes[..bytes.len() / 2]).unwrap();
    let bad = harness(
        dir.path(),
        &[
            "gate",
            "--baseline",
            truncated.to_str().unwrap(),
            "--current",
            b,
        ],
    );
    assert_code(&bad, 2);
    assert!(
        stderr(&bad).contains("truncated.json") && stderr(&bad).contains("truncated"),
        "{}",
        stderr(&bad)
    );
    assert_code(
        &harness(
            dir.path(),
            &["gate", "--baseline", b, "--current", b, "--tolerance=-1"],
        ),
        2,
    );
    assert_code(&harness(dir.path(), &["gate", "--current", b]), 2);
}

#[test]
fn a_precision_fall_beyond_the_tolerance_is_a_regression() {
    let dir = workdir();
    let e = engines();
    let base = dir.path().join("base");
    assert_code(&measure(dir.path(), &e.good, &base, &[]), 0);
    let baseline = base.join("measurements.json");
    let mut json: serde_json::Value = serde_json::from_slice(&read(&baseline)).unwrap();
    json["rows"][1]["figures"]["precision"] = 0.85.into();
    let edited = dir.path().join("edited.json");
    std::fs::write(&edited, serde_json::to_vec(&json).unwrap()).unwrap();
    let (b, c) = (edited.to_str().unwrap(), baseline.to_str().unwrap());
    let fell = harness(dir.path(), &["gate", "--baseline", b, "--current", c]);
    assert_code(&fell, 1);
    assert!(
        stdout(&fell).contains("proofs-python: precision fell 85.0% → 80.0%"),
        "{}",
        stdout(&fell)
    );
    assert_code(
        &harness(
            dir.path(),
            &[
                "gate",
                "--baseline",
                b,
                "--current",
                c,
                "--tolerance",
                "0.1",
            ],
        ),
        0,
    );
}

#[test]
fn score_prints_figures_and_refuses_bad_input_by_name() {
    let _ = engines();
    let dir = workdir();
    let report = fixtures().join("reports/python/S03-shadowed-by-parameter.json");
    let truth = proofs().join("python/S03-shadowed-by-parameter/expected.json");
    let (r, t) = (report.to_str().unwrap(), truth.to_str().unwrap());
    let json_out = dir.path().join("row.json");
    let ok = harness(
        dir.path(),
        &[
            "score",
            "--report",
            r,
            "--truth",
            t,
            "--pairs",
            "--json",
            json_out.to_str().unwrap(),
        ],
    );
    assert_code(&ok, 0);
    let text = stdout(&ok);
    // judged 1 (call), right 1, coverage 100%, precision 2/3 (call, print right; g wrong).
    assert!(
        text.contains("| 1 | 1 | 100.0% | 100.0% | 66.7% |"),
        "{text}"
    );
    assert!(
        text.contains("| unique_name | 1 | 0 | 1 | 0.0% |"),
        "{text}"
    );
    assert!(text.contains("pair precision"), "{text}");
    let row: serde_json::Value = serde_json::from_slice(&read(&json_out)).unwrap();
    assert_eq!(row["verdicts"]["wrong"], 1);

    let only = harness(
        dir.path(),
        &["score", "--report", r, "--truth", t, "--only", "lexical"],
    );
    assert_code(&only, 0);
    assert!(
        stdout(&only).contains("| 1 | 1 | 100.0% | 100.0% | 100.0% |"),
        "{}",
        stdout(&only)
    );
    assert_code(
        &harness(
            dir.path(),
            &["score", "--report", r, "--truth", t, "--only", "guesswork"],
        ),
        2,
    );

    let truncated = dir.path().join("cut-report.json");
    let bytes = read(&report);
    std::fs::write(&truncated, &bytes[..bytes.len() - 20]).unwrap();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["--report", truncated.to_str().unwrap(), "--truth", t],
            "truncated",
        ),
        (
            vec!["--report", t, "--truth", t],
            "schema is `callgraph-truth/1`",
        ),
        (
            vec!["--report", r, "--truth", r],
            "schema is `callgraph-report/1`",
        ),
        (
            vec!["--report", r, "--truth", t, "--max-input-bytes", "100"],
            "too_large",
        ),
        (
            vec!["--report", "/nonexistent/r.json", "--truth", t],
            "unreadable",
        ),
    ];
    for (args, expected) in cases {
        let mut all = vec!["score"];
        all.extend(args.iter());
        let output = harness(dir.path(), &all);
        assert_code(&output, 2);
        let err = stderr(&output);
        assert!(err.contains(expected), "{all:?}: {err}");
        let named = args[1];
        let named = if expected.contains("report/1") {
            args[3]
        } else {
            named
        };
        let file = Path::new(named).file_name().unwrap().to_str().unwrap();
        assert!(err.contains(file), "{all:?} does not name {file}: {err}");
    }
}

#[test]
fn a_failed_run_leaves_the_good_tables_untouched() {
    let e = engines();
    let dir = workdir();
    let out = dir.path().join("reports");
    assert_code(&measure(dir.path(), &e.good, &out, &[]), 0);
    let before: Vec<Vec<u8>> = OUTPUTS.iter().map(|f| read(&out.join(f))).collect();

    // A proof whose expected.json is truncated: refused before anything is written.
    let broken = dir.path().join("broken");
    copy_dir(&proofs(), &broken);
    let expected = broken.join("python/S01-local-function/expected.json");
    let bytes = read(&expected);
    std::fs::write(&expected, &bytes[..bytes.len() / 2]).unwrap();
    let output = harness(
        dir.path(),
        &[
            "measure",
            "--proofs",
            broken.to_str().unwrap(),
            "--engine",
            e.good.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ],
    );
    assert_code(&output, 2);
    assert!(stderr(&output).contains("invalid_truth") && stderr(&output).contains("expected.json"));

    // No engine at all: could not answer, nothing written.
    let output = harness(
        dir.path(),
        &[
            "measure",
            "--proofs",
            proofs().to_str().unwrap(),
            "--engine",
            "/nonexistent/callgraph",
            "--out",
            out.to_str().unwrap(),
        ],
    );
    assert_code(&output, 3);
    assert!(stderr(&output).contains("tool_missing"));

    let after: Vec<Vec<u8>> = OUTPUTS.iter().map(|f| read(&out.join(f))).collect();
    assert_eq!(before, after);
    let leftovers: Vec<_> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(
        leftovers.len(),
        5,
        "temporary files left behind: {leftovers:?}"
    );
}

#[test]
fn reproduce_reports_differences_and_exits_one() {
    let e = engines();
    let dir = workdir();
    let out = dir.path().join("reports");
    assert_code(&measure(dir.path(), &e.good, &out, &[]), 0);
    let published = out.join("measurements.json");
    let args = |engine: &Path, row: &str| -> Vec<String> {
        vec![
            "reproduce".into(),
            row.into(),
            "--measurements".into(),
            published.display().to_string(),
            "--proofs".into(),
            proofs().display().to_string(),
            "--engine".into(),
            engine.display().to_string(),
        ]
    };
    let run = |a: Vec<String>| {
        harness(
            dir.path(),
            &a.iter().map(String::as_str).collect::<Vec<_>>(),
        )
    };
    let same = run(args(&e.good, "proofs-python"));
    assert_code(&same, 0);
    assert!(stdout(&same).contains("proofs-python: reproduced"));
    let differs = run(args(&e.worse, "proofs-python"));
    assert_code(&differs, 1);
    let text = stdout(&differs);
    assert!(text.contains("differs: coverage: 1.0 → 0.5"), "{text}");
    assert!(text.contains("differs: verdicts.declined: 0 → 1"), "{text}");
    assert!(
        text.contains("differs: shapes.S01: lexical → MISS"),
        "{text}"
    );
    // The java row is untouched by the worse engine.
    assert_code(&run(args(&e.worse, "proofs-java")), 0);
    assert_code(&run(args(&e.good, "no-such-row")), 2);
}

#[test]
fn corpora_without_an_oracle_are_outcomes_not_scores() {
    let e = engines();
    let dir = workdir();
    let corpora = dir.path().join("private-corpora.json");
    std::fs::write(
        &corpora,
        r#"{"schema": "corpora/1", "corpora": [
          {"id": "jsoup", "language": "java",
           "source": {"registry": "debian", "package": "jsoup", "version": "1.15.3-1",
                      "archive": "jsoup_1.15.3.orig.tar.xz", "sha256": "052511f0"},
           "root": "jsoup-jsoup-1.15.3", "include": ["src/main/java"],
           "oracle": {"name": "no-such-oracle", "options": {}}}]}"#,
    )
    .unwrap();
    let out = dir.path().join("reports");
    let c = corpora.to_str().unwrap();
    let output = measure(
        dir.path(),
        &e.good,
        &out,
        &["--corpus", "jsoup", "--corpora", c],
    );
    // The requested row could not be answered: exit 3, the tables written (D9).
    assert_code(&output, 3);
    assert!(
        stdout(&output).contains("jsoup: not_implemented: oracle:no-such-oracle"),
        "{}",
        stdout(&output)
    );
    let json: serde_json::Value =
        serde_json::from_slice(&read(&out.join("measurements.json"))).unwrap();
    let row = &json["rows"][0];
    assert_eq!(row["outcome"]["outcome"], "not_implemented");
    assert!(row.get("figures").is_none(), "an outcome is never a score");
    let md = String::from_utf8(read(&out.join("MEASUREMENTS.md"))).unwrap();
    assert!(md.contains("not_implemented: oracle:no-such-oracle"));

    // --all: every proof language and every corpus, sorted by id.
    let all = measure(dir.path(), &e.good, &out, &["--all", "--corpora", c]);
    assert_code(&all, 3);
    let json: serde_json::Value =
        serde_json::from_slice(&read(&out.join("measurements.json"))).unwrap();
    let ids: Vec<_> = json["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, vec!["jsoup", "proofs-java", "proofs-python"]);

    let unknown = measure(
        dir.path(),
        &e.good,
        &out,
        &["--corpus", "nope", "--corpora", c],
    );
    assert_code(&unknown, 2);
    assert!(stderr(&unknown).contains("unknown_corpus"));
    let missing = measure(
        dir.path(),
        &e.good,
        &out,
        &["--all", "--corpora", "/nonexistent/corpora.json"],
    );
    assert_code(&missing, 2);
}

#[test]
fn proofs_are_built_run_and_judged() {
    let e = engines();
    let dir = workdir();
    let p = proofs();
    let output = harness(
        dir.path(),
        &[
            "proofs",
            "--proofs",
            p.to_str().unwrap(),
            "--engine",
            e.good.to_str().unwrap(),
        ],
    );
    let text = stdout(&output);
    // S03's `g` must abstain and the canned engine answers it: one wrong, exit 1.
    assert!(text.contains("9 right, 0 abstained, 1 wrong"), "{text}");
    assert!(
        text.contains("wrong: main.py:6 g — wrong (unique_name)"),
        "{text}"
    );
    assert_code(&output, 1);
    let python = has("python3");
    let java = has("javac") && has("java");
    let ran = u32::from(python) * 2 + u32::from(java);
    let summary = format!(
        "3 cases: {ran} built, {ran} ran, {} skipped, 0 failed",
        3 - ran
    );
    assert!(text.contains(&summary), "expected {summary:?} in:\n{text}");
    if !python {
        assert!(text.contains("tool_missing: python3"), "{text}");
    }

    // Without the engine, only the programs are checked.
    let only_programs = harness(
        dir.path(),
        &["proofs", "--proofs", p.to_str().unwrap(), "--no-engine"],
    );
    assert_code(&only_programs, 0);
    assert!(!stdout(&only_programs).contains("right,"));
    assert_code(
        &harness(
            dir.path(),
            &[
                "proofs",
                "--proofs",
                p.to_str().unwrap(),
                "--language",
                "cobol",
                "--no-engine",
            ],
        ),
        2,
    );
}

fn one_python_case(root: &Path, name: &str, program: &str, stdout: &str) {
    let case = root.join("python").join(name);
    std::fs::create_dir_all(&case).unwrap();
    std::fs::write(case.join("main.py"), program).unwrap();
    std::fs::write(case.join("expected.stdout"), stdout).unwrap();
    std::fs::write(
        case.join("expected.json"),
        r#"{"schema": "callgraph-truth/1", "corpus": "t", "oracle": {"name": "proof", "version": "1", "column": "name"},
            "sites": [{"file": "main.py", "line": 1, "column": 1, "name": "print",
                       "targets": [{"kind": "outside", "symbol": "print"}]}]}"#,
    )
    .unwrap();
}

#[test]
fn a_hanging_or_lying_proof_fails_and_is_reported() {
    let _ = engines();
    let dir = workdir();
    let root = dir.path().join("proofs");
    one_python_case(
        &root,
        "S98-hangs",
        "print('x')\nwhile True:\n    pass\n",
        "x\n",
    );
    one_python_case(&root, "S99-lies", "print('y')\n", "x\n");
    let started = std::time::Instant::now();
    let output = harness(
        dir.path(),
        &[
            "proofs",
            "--proofs",
            root.to_str().unwrap(),
            "--no-engine",
            // Long enough that the lying case's interpreter starts and prints under
            // a loaded machine (1 s flaked), short enough that the hang is the bound.
            "--timeout",
            "5",
        ],
    );
    let text = stdout(&output);
    if !has("python3") {
        assert_code(&output, 0);
        assert!(text.contains("2 skipped"), "{text}");
        return;
    }
    assert_code(&output, 1);
    assert!(started.elapsed() < std::time::Duration::from_secs(30));
    assert!(
        text.contains("run failed: timeout: python3: killed after 5 s"),
        "{text}"
    );
    assert!(
        text.contains("output differs at line 1: expected \"x\", printed \"y\""),
        "{text}"
    );
    assert!(
        text.contains("2 cases: 2 built, 0 ran, 0 skipped, 2 failed"),
        "{text}"
    );
}

#[test]
fn a_java_proof_that_does_not_compile_fails_its_build() {
    let _ = engines();
    if !(has("javac") && has("java")) {
        println!("not run: no javac/java on this machine");
        return;
    }
    let dir = workdir();
    let case = dir.path().join("proofs/java/S01-broken");
    std::fs::create_dir_all(&case).unwrap();
    std::fs::write(
        case.join("Main.java"),
        "public class Main { void f() { return 1; } }\n",
    )
    .unwrap();
    std::fs::write(case.join("expected.stdout"), "").unwrap();
    std::fs::write(
        case.join("expected.json"),
        r#"{"schema": "callgraph-truth/1", "corpus": "t", "oracle": {"name": "proof", "version": "1", "column": "name"}, "sites": []}"#,
    )
    .unwrap();
    let root = dir.path().join("proofs");
    let output = harness(
        dir.path(),
        &["proofs", "--proofs", root.to_str().unwrap(), "--no-engine"],
    );
    assert_code(&output, 1);
    let text = stdout(&output);
    assert!(
        text.contains("build failed: tool_failed: javac: exit status 1"),
        "{text}"
    );
    assert!(
        text.contains("1 cases: 0 built, 0 ran, 0 skipped, 1 failed"),
        "{text}"
    );
}
