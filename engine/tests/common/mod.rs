//! Annotated fixtures: one text holds several files (`#- path` or `//- path`
//! headers); an expectation sits on the line under a call, its caret under the
//! call's name token:
//!
//! ```text
//! helper()
//! # ^ callee: main.py::helper [lexical]
//! print(x)
//! # ^ outside [builtin]
//! h()
//! # ^ undetermined local_value
//! cb()
//! # ^ may reach: main.py::f | main.py::g [value_flow]
//! ```
//!
//! The helper writes the files to a temporary directory, runs the engine, checks
//! every expectation, and renders `caller -> callee  [family]` lines for a golden
//! comparison (`UPDATE_EXPECT=1` rewrites the golden file).

#![allow(dead_code)] // each test binary uses a part of this module

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;

pub struct Fixture {
    pub files: Vec<(String, String)>,
}

#[derive(Debug)]
pub struct Expectation {
    pub file: String,
    pub line: u32,
    pub column: u32,
    pub what: String,
}

pub fn parse_fixture(text: &str, comment: &str) -> Fixture {
    let header = format!("{comment}- ");
    let mut files: Vec<(String, String)> = Vec::new();
    for line in text.lines() {
        if let Some(path) = line.strip_prefix(&header) {
            files.push((path.trim().to_string(), String::new()));
        } else if let Some((_, body)) = files.last_mut() {
            body.push_str(line);
            body.push('\n');
        }
    }
    Fixture { files }
}

/// Expectations: a comment line whose first non-space text after the comment
/// marker is `^`; the caret's column names the call on the nearest code line above.
pub fn expectations(fixture: &Fixture, comment: &str) -> Vec<Expectation> {
    let mut out = Vec::new();
    for (path, body) in &fixture.files {
        let lines: Vec<&str> = body.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let trimmed = line.trim_start();
            let Some(rest) = trimmed.strip_prefix(comment) else {
                continue;
            };
            let Some(caret_rel) = rest.find('^') else {
                continue;
            };
            if !rest[..caret_rel].trim().is_empty() {
                continue;
            }
            let indent = line.len() - trimmed.len();
            let column = (indent + comment.len() + caret_rel + 1) as u32;
            let what = rest[caret_rel + 1..].trim().to_string();
            // The code line is the nearest line above that is not an expectation.
            let mut j = i;
            while j > 0 {
                j -= 1;
                let t = lines[j].trim_start();
                if !(t.starts_with(comment) && t[comment.len()..].trim_start().starts_with('^')) {
                    break;
                }
            }
            out.push(Expectation {
                file: path.clone(),
                line: j as u32 + 1,
                column,
                what,
            });
        }
    }
    out
}

pub fn write_tree(fixture: &Fixture, dir: &Path) {
    for (path, body) in &fixture.files {
        let p = dir.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, body).unwrap();
    }
}

pub fn analyze(dir: &Path) -> Value {
    let report = engine::analyze(dir, &engine::Options::default()).expect("analysis runs");
    serde_json::to_value(&report).unwrap()
}

/// What the report says of the call at (file, line, column), as the expectation
/// language writes it.
/// The caret names the call whose name token spans its column; an expectation
/// may start with `(name)` to choose among calls sharing a token (`for x in C()`
/// puts `C`, `__iter__` and `__next__` on one column).
pub fn describe(report: &Value, file: &str, line: u32, column: u32, name: Option<&str>) -> String {
    let calls = report["calls"].as_array().unwrap();
    let hit = calls.iter().find(|c| {
        let start = c["column"].as_u64().unwrap() as u32;
        let len = c["name"].as_str().unwrap().len().max(1) as u32;
        c["file"] == file
            && c["line"] == line
            && start <= column
            && column < start + len
            && name.is_none_or(|n| c["name"] == n)
    });
    let Some(c) = hit else {
        return "no call here".to_string();
    };
    let fam = c["placed_by"].as_str().unwrap_or("");
    match c["resolution"].as_str().unwrap() {
        "in_tree" => {
            let mut s = format!(
                "callee: {} [{fam}]",
                c["target"]["qualified_name"].as_str().unwrap()
            );
            if let Some(d) = c["declaration_line"].as_u64() {
                s.push_str(&format!(" @{d}"));
            }
            s
        }
        "outside" => format!("outside [{fam}]"),
        _ if c.get("may_reach").is_some() => may_reach(c),
        other => format!("{other} {}", c["reason"].as_str().unwrap_or("")),
    }
}

/// `may reach: a.py::f | a.py::g [value_flow]`: an undetermined call's set.
fn may_reach(c: &Value) -> String {
    let set = &c["may_reach"];
    let names: Vec<&str> = set["targets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["qualified_name"].as_str().unwrap())
        .collect();
    format!(
        "may reach: {} [{}]",
        names.join(" | "),
        set["placed_by"].as_str().unwrap()
    )
}

/// Run a fixture file: every expectation must hold. Returns the report.
pub fn check_fixture(path: &Path, comment: &str) -> Value {
    let text = std::fs::read_to_string(path).unwrap();
    let fixture = parse_fixture(&text, comment);
    let dir = tempfile::tempdir().unwrap();
    write_tree(&fixture, dir.path());
    let report = analyze(dir.path());
    let exps = expectations(&fixture, comment);
    assert!(!exps.is_empty(), "{} has no expectations", path.display());
    let mut failures = Vec::new();
    for e in &exps {
        let (name, what) = match e.what.strip_prefix('(').and_then(|r| r.split_once(") ")) {
            Some((n, rest)) => (Some(n), rest.trim()),
            None => (None, e.what.as_str()),
        };
        let got = describe(&report, &e.file, e.line, e.column, name);
        if got != what {
            failures.push(format!(
                "{}:{}:{}: expected `{}`, got `{}`",
                e.file, e.line, e.column, e.what, got
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{}:\n{}",
        path.display(),
        failures.join("\n")
    );
    report
}

/// Sorted `caller -> callee  [family]` lines.
pub fn render_edges(report: &Value) -> String {
    let entities: BTreeMap<u64, String> = report["entities"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["id"].as_u64().unwrap(),
                e["qualified_name"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let mut lines: Vec<String> = report["calls"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let caller = c["caller"]
                .as_u64()
                .and_then(|id| entities.get(&id).cloned())
                .unwrap_or_else(|| format!("{}::<module>", c["file"].as_str().unwrap()));
            let callee = match c["resolution"].as_str().unwrap() {
                "in_tree" => c["target"]["qualified_name"].as_str().unwrap().to_string(),
                "outside" => format!("<outside {}>", c["outside"]["symbol"].as_str().unwrap()),
                _ if c.get("may_reach").is_some() => format!("<{}>", may_reach(c)),
                r => format!("<{r} {}>", c["reason"].as_str().unwrap_or("")),
            };
            let fam = c["placed_by"].as_str().unwrap_or("-");
            format!(
                "{}:{} {caller} -> {callee}  [{fam}]",
                c["file"].as_str().unwrap(),
                c["line"]
            )
        })
        .collect();
    lines.sort();
    lines.join("\n") + "\n"
}

/// Compare with a golden file; `UPDATE_EXPECT=1` rewrites it.
pub fn assert_golden(actual: &str, golden: &Path) {
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::write(golden, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(golden).unwrap_or_default();
    assert!(expected == actual, "golden {} differs (UPDATE_EXPECT=1 to rewrite after review):\n--- expected\n{expected}\n--- actual\n{actual}", golden.display());
}
