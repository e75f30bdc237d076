//! The manifest loader, merge, separate scoring, refusal, adjudication listing and
//! pin, on small hand-made manifests.

use super::*;
use crate::testkit::*;

/// The example of manifests/README.md, kept in step with it by `the_readme_example_parses`.
fn readme_example() -> String {
    let readme = include_str!("../../manifests/README.md");
    let start = readme.find("```json\n").expect("README has a json block") + 8;
    let end = start + readme[start..].find("```").expect("closed block");
    readme[start..end].to_string()
}

/// A manifest of `sites` (JSON objects) for corpus `test` in a.py.
fn manifest(sites: &[&str]) -> String {
    format!(
        r#"{{"schema": "callgraph-truth/1", "corpus": "test", "source": "manifest",
        "oracle": {{"name": "manifest", "version": "1", "adapter": "review", "column": "name"}},
        "sites": [{}]}}"#,
        sites.join(",")
    )
}

const EVIDENCE: &str = r#""evidence": {"command": "./t", "input": "t's tests", "observed": "a.py:5 called g"},
   "reason": "the table sets it to g""#;

/// A reviewed site at a.py:`line`:5 `p` reaching a.py:`target`.
fn reviewed(line: u32, target: u32) -> String {
    format!(
        r#"{{"file": "a.py", "line": {line}, "column": 5, "name": "p",
        "targets": [{{"kind": "in_tree", "file": "a.py", "line": {target}}}], {EVIDENCE}}}"#
    )
}

fn disputed(line: u32, target: u32) -> String {
    let site = reviewed(line, target);
    format!(
        r#"{},"dispute": {{"oracle_says": [{{"kind": "in_tree", "file": "a.py", "line": 1}}],
        "adjudication": "the oracle reads the declaration, the run the definition"}}}}"#,
        &site[..site.len() - 1]
    )
}

#[test]
fn the_readme_example_parses() {
    let m = parse(&readme_example()).unwrap();
    assert_eq!(m.corpus, "hiredis");
    assert_eq!(m.sites.len(), 1);
    assert!(m.sites[0].evidence.command.contains("hiredis-test"));
    assert_eq!(m.sites[0].dispute, None);
}

#[test]
fn a_manifest_needs_its_source_evidence_reason_targets_and_column() {
    parse(&manifest(&[&reviewed(5, 2)])).unwrap();
    let not_manifest = manifest(&[&reviewed(5, 2)]).replace("\"manifest\",", "\"oracle\",");
    let err = parse(&not_manifest).unwrap_err();
    assert!(err.to_string().contains("source is `oracle`"), "{err}");
    let starts =
        manifest(&[&reviewed(5, 2)]).replace("\"column\": \"name\"", "\"column\": \"none\"");
    assert!(parse(&starts)
        .unwrap_err()
        .to_string()
        .contains("name token"));
    let other = manifest(&[&reviewed(5, 2)]).replace("callgraph-truth/1", "callgraph-truth/0");
    assert!(parse(&other).unwrap_err().to_string().contains("schema is"));
    let cases = [
        (reviewed(5, 2).replace("\"./t\"", "\"\""), "evidence"),
        (
            reviewed(5, 2).replace("the table sets it to g", " "),
            "reason",
        ),
        (
            reviewed(5, 2).replace(
                r#"[{"kind": "in_tree", "file": "a.py", "line": 2}]"#,
                "[], \"unjudged\": \"x\"",
            ),
            "targets",
        ),
        (reviewed(5, 2).replace("\"column\": 5,", ""), "column"),
    ];
    for (site, word) in cases {
        let err = parse(&manifest(&[&site])).unwrap_err();
        let msg = err.to_string();
        assert!(
            msg.starts_with("invalid_manifest: m.json: site a.py:5") && msg.contains(word),
            "{word}: {msg}"
        );
    }
    let no_evidence = reviewed(5, 2).replace(EVIDENCE, r#""reason": "r""#);
    assert!(parse(&manifest(&[&no_evidence])).is_err());
}

#[test]
fn sites_the_oracle_does_not_judge_are_merged_and_agreeing_ones_are_redundant() {
    let m = parse(&manifest(&[&reviewed(5, 2), &reviewed(6, 2)])).unwrap();
    let oracle = truth(vec![
        site(5, Some(5), "p", &[]).unjudged("indirect_call"),
        site(6, Some(5), "p", &[("a.py", 2)]),
    ]);
    let merged = merge(&m, &oracle, "m.json").unwrap();
    assert_eq!(merged.truth.oracle.name, "manifest");
    assert_eq!(merged.truth.sites.len(), 1);
    assert_eq!(merged.truth.sites[0].line, 5);
    assert_eq!(merged.redundant, vec!["a.py:6:5 `p`"]);
    assert!(merged.adjudications.is_empty());
}

#[test]
fn a_site_contradicting_the_oracle_is_refused_by_name() {
    let m = parse(&manifest(&[&reviewed(5, 2)])).unwrap();
    let oracle = truth(vec![site(5, Some(5), "p", &[("a.py", 1)])]);
    let err = merge(&m, &oracle, "m.json").unwrap_err();
    assert_eq!(
        err,
        ManifestError::Contradicts {
            path: "m.json".into(),
            site: "a.py:5:5 `p`".into(),
            oracle_says: "[a.py:1]".into(),
            manifest_says: "[a.py:2]".into(),
        }
    );
    assert!(err
        .to_string()
        .starts_with("manifest_contradicts_oracle: m.json: site a.py:5:5"));
}

#[test]
fn an_adjudicated_dispute_is_kept_and_listed() {
    let m = parse(&manifest(&[&disputed(5, 2)])).unwrap();
    let oracle = truth(vec![site(5, Some(5), "p", &[("a.py", 1)])]);
    let merged = merge(&m, &oracle, "m.json").unwrap();
    assert_eq!(merged.truth.sites.len(), 1);
    assert_eq!(
        merged.adjudications,
        vec![Adjudication {
            site: "a.py:5:5 `p`".into(),
            oracle_says: "[a.py:1]".into(),
            manifest_says: "[a.py:2]".into(),
            adjudication: "the oracle reads the declaration, the run the definition".into(),
        }]
    );
}

/// Engine: line 5 answers g (right by the manifest), line 7 answers f (wrong), line 8
/// abstains; the oracle judges only line 9.
fn scored_on(dir: &Path, text: &str) -> (ManifestFigures, crate::figures::Figures) {
    std::fs::write(dir.join("test.json"), text).unwrap();
    let engine = report(
        vec![
            entity(1, "a.py::f", "a.py", 1),
            entity(2, "a.py::g", "a.py", 2),
        ],
        vec![
            call(5, Some(5), "p").to("pointer", "a.py::g", "a.py", 2),
            call(7, Some(5), "p").to("pointer", "a.py::f", "a.py", 1),
            call(8, Some(5), "p"),
            call(9, Some(5), "f").to("direct", "a.py::f", "a.py", 1),
        ],
    );
    let oracle = truth(vec![
        site(5, Some(5), "p", &[]).unjudged("indirect_call"),
        site(9, Some(5), "f", &[("a.py", 1)]),
    ]);
    let options = ScoreOptions::default();
    let population = score_manifest(dir, "test", &oracle, &engine, &options, u64::MAX)
        .unwrap()
        .unwrap();
    let oracle_figures = figures(&score(&engine, &oracle, &options));
    (population, oracle_figures)
}

#[test]
fn manifest_sites_are_scored_as_their_own_population() {
    let dir = tempfile::tempdir().unwrap();
    let text = manifest(&[&reviewed(5, 2), &reviewed(7, 2), &reviewed(8, 2)]);
    let (population, oracle_figures) = scored_on(dir.path(), &text);
    assert_eq!(population.file, "manifests/test.json");
    assert_eq!(population.listed, 3);
    let f = &population.figures;
    assert_eq!((f.judged_in_tree, f.right, f.false_edges), (3, 1, 1));
    assert_eq!(f.coverage, Some(0.333333)); // figures round to six decimals
    assert_eq!(f.precision, Some(0.5));
    // The oracle's population is the oracle's alone: one judged site, right.
    assert_eq!(
        (oracle_figures.judged_in_tree, oracle_figures.right),
        (1, 1)
    );
    assert_eq!(oracle_figures.false_edges, 0);
}

#[test]
fn the_manifest_sha_follows_its_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let first = scored_on(dir.path(), &manifest(&[&reviewed(5, 2)])).0;
    let again = scored_on(dir.path(), &manifest(&[&reviewed(5, 2)])).0;
    assert_eq!(first.sha256, again.sha256);
    assert_eq!(first.sha256.len(), 64);
    let edited = scored_on(dir.path(), &manifest(&[&reviewed(5, 2), &reviewed(8, 2)])).0;
    assert_ne!(first.sha256, edited.sha256);
    // A re-measured row whose manifest changed differs from the published one.
    let row = |m: ManifestFigures| crate::model::Row {
        manifest: Some(m),
        ..crate::model::Row::default()
    };
    let d = crate::reproduce::differences(&row(first), &row(edited));
    assert!(
        d.figures.iter().any(|f| f.starts_with("manifest.sha256:")),
        "{:?}",
        d.figures
    );
}

#[test]
fn no_manifest_is_no_population() {
    let dir = tempfile::tempdir().unwrap();
    let oracle = truth(vec![]);
    let engine = report(vec![], vec![]);
    let found = score_manifest(
        dir.path(),
        "x",
        &oracle,
        &engine,
        &ScoreOptions::default(),
        9,
    )
    .unwrap();
    assert_eq!(found, None);
}

#[test]
fn the_row_lists_its_population_and_adjudications() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("test.json"), manifest(&[&disputed(5, 2)])).unwrap();
    let engine = report(
        vec![entity(2, "a.py::g", "a.py", 2)],
        vec![call(5, Some(5), "p").to("pointer", "a.py::g", "a.py", 2)],
    );
    let oracle = truth(vec![site(5, Some(5), "p", &[("a.py", 1)])]);
    let population = score_manifest(
        dir.path(),
        "test",
        &oracle,
        &engine,
        &ScoreOptions::default(),
        u64::MAX,
    )
    .unwrap()
    .unwrap();
    assert_eq!(population.figures.right, 1);
    let row = crate::model::Row {
        id: "test".into(),
        manifest: Some(population),
        ..crate::model::Row::default()
    };
    let md = crate::tables::render_markdown(&crate::model::Measurements::new(vec![row]));
    assert!(md.contains("## Reviewed manifests"), "{md}");
    assert!(md.contains("| test | manifests/test.json @ "), "{md}");
    assert!(
        md.contains("| test | a.py:5:5 `p` | [a.py:1] | [a.py:2] | the oracle reads the declaration, the run the definition |"),
        "{md}"
    );
}

#[test]
fn a_parenthesised_callee_pairs_with_the_engines_nameless_call() {
    let site = reviewed(5, 2).replace("\"name\": \"p\"", "\"name\": \"(call)\"");
    let m = parse(&manifest(&[&site])).unwrap();
    let merged = merge(&m, &truth(vec![]), "m.json").unwrap();
    assert_eq!(merged.truth.sites[0].name, "");
    let engine = report(
        vec![entity(2, "a.py::g", "a.py", 2)],
        vec![call(5, Some(5), "").to("pointer", "a.py::g", "a.py", 2)],
    );
    let f = figures(&score(&engine, &merged.truth, &ScoreOptions::default()));
    assert_eq!((f.judged_in_tree, f.right), (1, 1));
}

#[test]
fn a_contradicting_manifest_refuses_the_row_naming_the_site() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("test.json"), manifest(&[&reviewed(5, 2)])).unwrap();
    let prepared = crate::pipeline::Prepared {
        report: report(vec![], vec![]),
        truth: truth(vec![site(5, Some(5), "p", &[("a.py", 1)])]),
        root: dir.path().to_path_buf(),
        options: ScoreOptions::default(),
    };
    let setup = crate::pipeline::CorpusSetup {
        cache_dir: dir.path().to_path_buf(),
        bound: std::time::Duration::from_secs(1),
        manifests_dir: dir.path().to_path_buf(),
        peers: false,
    };
    let mut row = crate::model::Row {
        id: "test".into(),
        figures: Some(crate::figures::Figures::default()),
        ..crate::model::Row::default()
    };
    crate::pipeline::fill_manifest(&mut row, &prepared, &setup);
    assert_eq!(row.figures, None);
    let outcome = row.outcome.expect("refused").to_string();
    assert!(
        outcome.contains("manifest_contradicts_oracle") && outcome.contains("a.py:5:5 `p`"),
        "{outcome}"
    );
}
