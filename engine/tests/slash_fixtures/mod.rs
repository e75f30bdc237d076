//! The annotated-fixture harness shared by the Java and Go fixture tests (the
//! `//- path` / `// ^ …` format documented in java_fixtures.rs; Ada writes `-- ^ …`). A test file that
//! uses it declares `fn fixtures_dir() -> PathBuf` and `const LANGUAGE: Language`,
//! and may write its fixture tests with `fixtures!` (`#[macro_use] mod slash_fixtures;`).

#![allow(dead_code)] // each test binary uses a part of this module

use std::collections::BTreeSet;
use std::fmt::Write as _;

use engine::config::Configuration;
use engine::lang::Language;
use engine::limits::Limits;
use engine::report::{CallEntry, Report};
use engine::Options;

#[derive(Debug, Clone)]
pub struct Expectation {
    pub file: String,
    pub line: u32,
    pub column: u32,
    /// The fixture line the expectation is written on (for messages).
    pub at: usize,
    pub what: Expect,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Expect {
    Callee {
        qname: String,
        family: String,
        decl: Option<u32>,
    },
    Outside {
        symbol: Option<String>,
        family: String,
    },
    Undetermined(String),
    Unresolved(String),
    Ref {
        qname: String,
        family: String,
    },
    None,
}

pub struct Fixture {
    pub files: Vec<(String, String)>,
    pub expectations: Vec<Expectation>,
}

pub fn parse_fixture(text: &str) -> Fixture {
    let mut files: Vec<(String, String)> = Vec::new();
    let mut expectations = Vec::new();
    let mut current: Option<(String, Vec<&str>)> = None;
    let mut last_code_line = 0u32;
    let finish = |cur: Option<(String, Vec<&str>)>, files: &mut Vec<(String, String)>| {
        if let Some((path, lines)) = cur {
            files.push((path, lines.join("\n") + "\n"));
        }
    };
    for (i, line) in text.lines().enumerate() {
        if let Some(path) = line.strip_prefix("//- ") {
            finish(current.take(), &mut files);
            current = Some((path.trim().to_string(), Vec::new()));
            last_code_line = 0;
            continue;
        }
        let Some((path, lines)) = current.as_mut() else {
            continue;
        };
        lines.push(line);
        let line_no = lines.len() as u32;
        match parse_expectation(line) {
            Some((column, what)) => expectations.push(Expectation {
                file: path.clone(),
                line: last_code_line,
                column,
                at: i + 1,
                what,
            }),
            None => last_code_line = line_no,
        }
    }
    finish(current, &mut files);
    Fixture {
        files,
        expectations,
    }
}

/// `//   ^ what` → (caret column, what).
pub fn parse_expectation(line: &str) -> Option<(u32, Expect)> {
    let trimmed = line.trim_start();
    // Ada comments are `--`: its fixtures write `-- ^ …` under a call.
    let rest = trimmed
        .strip_prefix("//")
        .or_else(|| trimmed.strip_prefix("--"))?;
    let caret_in_rest = rest.find('^')?;
    if !rest[..caret_in_rest].trim().is_empty() {
        return None;
    }
    let column = (line.len() - rest.len() + caret_in_rest + 1) as u32;
    let what = rest[caret_in_rest + 1..].trim();
    Some((
        column,
        parse_what(what).unwrap_or_else(|| panic!("bad expectation: {line}")),
    ))
}

pub fn parse_what(what: &str) -> Option<Expect> {
    let family_of = |s: &str| -> Option<(String, String)> {
        // The family is the last bracketed word (a symbol may hold `[]`).
        let open = s.rfind(" [")? + 1;
        let close = open + s[open..].find(']')?;
        Some((
            s[..open].trim().to_string(),
            s[open + 1..close].trim().to_string(),
        ))
    };
    if let Some(rest) = what.strip_prefix("callee:") {
        let (qname, family) = family_of(rest)?;
        let tail = rest[rest.rfind(']')? + 1..].trim();
        let decl = match tail.strip_prefix('@') {
            Some(n) => Some(n.parse().ok()?),
            None if tail.is_empty() => None,
            None => return None,
        };
        return Some(Expect::Callee {
            qname,
            family,
            decl,
        });
    }
    if let Some(rest) = what.strip_prefix("ref:") {
        let (qname, family) = family_of(rest)?;
        return Some(Expect::Ref { qname, family });
    }
    if let Some(rest) = what.strip_prefix("outside") {
        let (symbol, family) = family_of(rest)?;
        return Some(Expect::Outside {
            symbol: Some(symbol).filter(|s| !s.is_empty()),
            family,
        });
    }
    if let Some(rest) = what.strip_prefix("undetermined") {
        return Some(Expect::Undetermined(rest.trim().to_string()));
    }
    if let Some(rest) = what.strip_prefix("unresolved") {
        return Some(Expect::Unresolved(rest.trim().to_string()));
    }
    (what == "none").then_some(Expect::None)
}

/// One `#[test]` per fixture, run by `run_fixture` (or the runner named before a
/// `;`), and `ALL_FIXTURES`, their names.
macro_rules! fixtures {
    ($run:ident; $($name:ident),* $(,)?) => {
        $( #[test] fn $name() { $run(stringify!($name)); } )*
        const ALL_FIXTURES: &[&str] = &[$(stringify!($name)),*];
    };
    ($($name:ident),* $(,)?) => {
        fixtures!(run_fixture; $($name),*);
    };
}

/// How a test analyses its files: `analyze`, or a language family's own.
pub type Analyze = fn(&[(String, String)]) -> Report;

pub fn analyze(files: &[(String, String)]) -> Report {
    analyze_languages(files, &[super::LANGUAGE])
}

/// Analyse the files as the given languages together.
pub fn analyze_languages(files: &[(String, String)], languages: &[Language]) -> Report {
    analyze_configured(files, languages, Configuration::default())
}

/// Analyse the files under a build configuration other than the default.
pub fn analyze_configured(
    files: &[(String, String)],
    languages: &[Language],
    config: Configuration,
) -> Report {
    let dir = tempfile::tempdir().expect("temp dir");
    for (path, text) in files {
        let full = dir.path().join(path);
        std::fs::create_dir_all(full.parent().unwrap()).unwrap();
        std::fs::write(full, text).unwrap();
    }
    let options = Options {
        languages: languages.to_vec(),
        limits: Limits::default(),
        threads: 2,
        config,
    };
    engine::analyze(dir.path(), &options).expect("analysis runs")
}

pub fn entity_name(report: &Report, id: Option<u32>) -> String {
    match id {
        Some(id) => report.entities[id as usize].qualified_name.clone(),
        None => "<file>".to_string(),
    }
}

pub fn describe(c: &CallEntry) -> String {
    let family = c
        .placed_by
        .map(|f| format!(" [{}]", f.token()))
        .unwrap_or_default();
    match c.resolution {
        "in_tree" => {
            let t = c.target.as_ref().unwrap();
            let decl = c
                .declaration_line
                .map(|l| format!(" @{l}"))
                .unwrap_or_default();
            format!("callee: {}{family}{decl}", t.qualified_name)
        }
        "outside" => format!("outside {}{family}", c.outside.as_ref().unwrap().symbol),
        other => format!("{other} {}", c.reason.map(|r| r.token()).unwrap_or("?")),
    }
}

pub fn check_one(report: &Report, e: &Expectation) -> Result<(), String> {
    let here = |c: &&CallEntry| c.file == e.file && c.line == e.line && c.column == e.column;
    let call = report.calls.iter().find(here);
    let reference = report.references.iter().find(here);
    let on_line: Vec<String> = report
        .calls
        .iter()
        .filter(|c| c.file == e.file && c.line == e.line)
        .map(|c| format!("{}:{} {} → {}", c.line, c.column, c.wrote, describe(c)))
        .collect();
    let missing = || {
        format!(
            "no call at {}:{}:{}; calls on that line: {:?}",
            e.file, e.line, e.column, on_line
        )
    };
    match &e.what {
        Expect::None => match call {
            None => Ok(()),
            Some(c) => Err(format!("expected no call, found {}", describe(c))),
        },
        Expect::Ref { qname, family } => {
            let r = reference
                .ok_or_else(|| format!("no reference at {}:{}:{}", e.file, e.line, e.column))?;
            let got = r
                .target
                .as_ref()
                .map(|t| t.qualified_name.as_str())
                .unwrap_or("");
            let fam = r.placed_by.map(|f| f.token()).unwrap_or("");
            if got == qname && fam == family {
                Ok(())
            } else {
                Err(format!(
                    "reference: expected {qname} [{family}], got {got} [{fam}]"
                ))
            }
        }
        what => {
            let c = call.ok_or_else(missing)?;
            let fam = c.placed_by.map(|f| f.token()).unwrap_or("");
            let ok = match what {
                Expect::Callee {
                    qname,
                    family,
                    decl,
                } => {
                    c.resolution == "in_tree"
                        && c.target
                            .as_ref()
                            .is_some_and(|t| &t.qualified_name == qname)
                        && fam == family
                        && *decl == c.declaration_line
                }
                Expect::Outside { symbol, family } => {
                    c.resolution == "outside"
                        && fam == family
                        && symbol
                            .as_ref()
                            .is_none_or(|s| c.outside.as_ref().is_some_and(|o| &o.symbol == s))
                }
                Expect::Undetermined(reason) => {
                    c.resolution == "undetermined" && c.reason.is_some_and(|r| r.token() == reason)
                }
                Expect::Unresolved(reason) => {
                    c.resolution == "unresolved" && c.reason.is_some_and(|r| r.token() == reason)
                }
                Expect::None | Expect::Ref { .. } => unreachable!(),
            };
            if ok {
                Ok(())
            } else {
                Err(format!("expected {what:?}, got {}", describe(c)))
            }
        }
    }
}

/// Sorted `caller -> callee  [family]` lines for every call and reference.
pub fn render(report: &Report) -> String {
    let mut lines = BTreeSet::new();
    for c in &report.calls {
        let caller = entity_name(report, c.caller);
        let callee = match c.resolution {
            "in_tree" => {
                let t = c.target.as_ref().unwrap();
                match c.declaration_line {
                    Some(l) => format!("{}#{l}", t.qualified_name),
                    None => t.qualified_name.clone(),
                }
            }
            "outside" => format!("outside:{}", c.outside.as_ref().unwrap().symbol),
            other => format!("{other}:{}", c.reason.map(|r| r.token()).unwrap_or("?")),
        };
        let family = c
            .placed_by
            .map(|f| format!("  [{}]", f.token()))
            .unwrap_or_default();
        lines.insert(format!(
            "{caller} -> {callee}{family}  @{}:{}:{}",
            c.file, c.line, c.column
        ));
    }
    for r in &report.references {
        let caller = entity_name(report, r.caller);
        let target = r
            .target
            .as_ref()
            .map(|t| t.qualified_name.clone())
            .unwrap_or_default();
        let family = r.placed_by.map(|f| f.token()).unwrap_or("");
        lines.insert(format!(
            "{caller} => {target}  [{family}]  @{}:{}:{}",
            r.file, r.line, r.column
        ));
    }
    let mut out = String::new();
    for l in lines {
        let _ = writeln!(out, "{l}");
    }
    out
}

pub fn compare_golden(name: &str, rendered: &str) -> Result<(), String> {
    let path = super::fixtures_dir().join(format!("{name}.golden"));
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::write(&path, rendered).unwrap();
        return Ok(());
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_default();
    if expected == rendered {
        return Ok(());
    }
    let want: BTreeSet<&str> = expected.lines().collect();
    let got: BTreeSet<&str> = rendered.lines().collect();
    let mut diff = String::new();
    for l in want.difference(&got) {
        let _ = writeln!(diff, "- {l}");
    }
    for l in got.difference(&want) {
        let _ = writeln!(diff, "+ {l}");
    }
    Err(format!(
        "{name}.golden differs (UPDATE_EXPECT=1 rewrites it):\n{diff}"
    ))
}

/// Run one fixture: every expectation, then the golden rendering.
pub fn run_fixture(name: &str) -> Report {
    run_fixture_with(name, analyze)
}

/// `run_fixture`, the files analysed by `analyze`.
pub fn run_fixture_with(name: &str, analyze: Analyze) -> Report {
    let text = std::fs::read_to_string(super::fixtures_dir().join(format!("{name}.txt")))
        .expect("fixture exists");
    let fixture = parse_fixture(&text);
    assert!(
        !fixture.expectations.is_empty(),
        "{name}: a fixture without expectations cannot fail"
    );
    let report = analyze(&fixture.files);
    let mut failures = Vec::new();
    for e in &fixture.expectations {
        if let Err(msg) = check_one(&report, e) {
            failures.push(format!(
                "{name}.txt:{} ({}:{}:{}): {msg}",
                e.at, e.file, e.line, e.column
            ));
        }
    }
    if let Err(msg) = compare_golden(name, &render(&report)) {
        failures.push(msg);
    }
    assert!(
        failures.is_empty(),
        "{} failure(s):\n{}",
        failures.len(),
        failures.join("\n")
    );
    report
}

/// Registry invariant: every family the language places with is asserted by a
/// fixture, and no fixture asserts a family the language does not list.
pub fn assert_every_family_is_exercised(fixtures: &[&str]) {
    let listed: BTreeSet<&str> = super::LANGUAGE
        .families()
        .iter()
        .map(|f| f.token())
        .collect();
    let mut asserted = BTreeSet::new();
    for name in fixtures {
        let text =
            std::fs::read_to_string(super::fixtures_dir().join(format!("{name}.txt"))).unwrap();
        for e in parse_fixture(&text).expectations {
            match e.what {
                Expect::Callee { family, .. }
                | Expect::Outside { family, .. }
                | Expect::Ref { family, .. } => {
                    asserted.insert(family);
                }
                _ => {}
            }
        }
    }
    let asserted: BTreeSet<&str> = asserted.iter().map(String::as_str).collect();
    let unexercised: Vec<_> = listed.difference(&asserted).collect();
    let unlisted: Vec<_> = asserted.difference(&listed).collect();
    assert!(
        unexercised.is_empty(),
        "families never asserted by a fixture: {unexercised:?}"
    );
    assert!(
        unlisted.is_empty(),
        "families asserted but not in the language's policy: {unlisted:?}"
    );
}

/// The harness itself must be able to fail: the fixture `text` has one expectation,
/// at `(line, column)`, that is wrong; it is reported, and the same expectation
/// naming `right` (placed by `family`) passes.
pub fn assert_a_wrong_expectation_fails(
    analyze: Analyze,
    text: &str,
    at: (u32, u32),
    right: &str,
    family: &str,
) {
    let fixture = parse_fixture(text);
    let report = analyze(&fixture.files);
    let e = &fixture.expectations[0];
    assert_eq!((e.line, e.column), at);
    assert!(
        check_one(&report, e).is_err(),
        "the wrong expectation must be reported: {e:?}"
    );
    let right = Expectation {
        what: Expect::Callee {
            qname: right.into(),
            family: family.into(),
            decl: None,
        },
        ..e.clone()
    };
    assert_eq!(check_one(&report, &right), Ok(()));
}

/// A file of 26 000 functions, `first` then `next(i, i - 1)` for each further
/// one, each calling the previous one: every call is placed in the tree
/// (`lexical`), and the analysis stays linear.
pub fn assert_26000_functions_resolve_every_call(
    analyze: Analyze,
    path: &str,
    first: &str,
    next: impl Fn(usize, usize) -> String,
) {
    let mut text = String::from(first);
    for i in 1..26_000 {
        text.push_str(&next(i, i - 1));
    }
    let report = analyze(&[(path.to_string(), text)]);
    assert_eq!(report.calls.len(), 25_999);
    assert!(report
        .calls
        .iter()
        .all(|c| c.resolution == "in_tree" && c.placed_by.map(|f| f.token()) == Some("lexical")));
}

/// Expressions nested far past the walk's depth bound (`text(open, close)`, the
/// two 5 000 times `g(` and `)`): the file is analysed, the cut is counted as a
/// parse error, nothing overflows.
pub fn assert_deep_nesting_is_cut(
    analyze: Analyze,
    path: &str,
    text: impl Fn(&str, &str) -> String,
) {
    let depth = 5_000;
    let text = text(&"g(".repeat(depth), &")".repeat(depth));
    let report = analyze(&[(path.to_string(), text)]);
    assert_eq!(report.files.len(), 1);
    assert!(report.files[0].parse_errors >= 1);
    assert!(!report.calls.is_empty());
}
