//! The proofs as a corpus (DESIGN §8): discovering cases, pinning them, and joining
//! each language's cases into one report and one truth so a single score computation
//! yields the row `proofs-<language>`.
//!
//! Each case is analysed as its own root (cases reuse module names such as main.py
//! and must not see each other); joining prefixes every path with `<case>/` on both
//! sides and renumbers entity ids so they stay unique.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use oracles::{
    ColumnUnit, OracleStamp, Position, Truth, TruthPair, TruthSite, TruthTarget, TRUTH_SCHEMA,
};
use sha2::{Digest, Sha256};

use crate::error::{Error, Result};
use crate::report::{Call, Report, REPORT_SCHEMA};
use crate::score::{SiteRecord, Verdict};

/// The row id of a proof language.
pub fn row_id(language: &str) -> String {
    format!("proofs-{language}")
}

/// The language of a proof row id, when it is one.
pub fn language_of_row(id: &str) -> Option<&str> {
    id.strip_prefix("proofs-")
}

/// One proof program and what its calls must reach.
#[derive(Debug, Clone)]
pub struct ProofCase {
    pub language: String,
    /// The case directory's name (`S10-named-import`), also its path prefix.
    pub name: String,
    pub dir: PathBuf,
    pub truth: Truth,
    /// The shape id (`S10`): expected.json's `shape`, else the name's `Sxx` prefix.
    pub shape: String,
}

/// Directories skipped everywhere under proofs/: hidden ones and bytecode caches.
fn is_ignored(name: &str) -> bool {
    name.starts_with('.') || name.starts_with('_')
}

/// Sorted names of the subdirectories of `dir`.
fn subdirectories(dir: &Path) -> Result<Vec<String>> {
    let entries = std::fs::read_dir(dir).map_err(|e| Error::io(dir, e))?;
    let mut names = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| Error::io(dir, e))?;
        let is_dir = entry.file_type().map_err(|e| Error::io(dir, e))?.is_dir();
        let name = entry.file_name().to_string_lossy().into_owned();
        if is_dir && !is_ignored(&name) {
            names.push(name);
        }
    }
    names.sort();
    Ok(names)
}

/// The languages with proofs: the subdirectories of the proofs directory that hold
/// at least one case (a directory with an expected.json). Others — `tools/` — are not
/// languages.
pub fn languages(proofs_dir: &Path) -> Result<Vec<String>> {
    if !proofs_dir.is_dir() {
        return Err(Error::InvalidArgument(format!(
            "no proofs directory at {} (run from the repository root or pass --proofs DIR)",
            proofs_dir.display()
        )));
    }
    let mut languages = Vec::new();
    for name in subdirectories(proofs_dir)? {
        let dir = proofs_dir.join(&name);
        let holds_a_case = subdirectories(&dir)?
            .iter()
            .any(|case| dir.join(case).join("expected.json").is_file());
        if holds_a_case {
            languages.push(name);
        }
    }
    Ok(languages)
}

/// Every case of one language, sorted by name. A case directory without an
/// expected.json is refused: a proof that silently drops out of the corpus would
/// raise the figures.
pub fn load_cases(proofs_dir: &Path, language: &str, cap: u64) -> Result<Vec<ProofCase>> {
    let language_dir = proofs_dir.join(language);
    let mut cases = Vec::new();
    for name in subdirectories(&language_dir)? {
        let dir = language_dir.join(&name);
        let expected = dir.join("expected.json");
        if !expected.is_file() {
            return Err(Error::InvalidProof {
                path: dir.display().to_string(),
                detail: "no expected.json".into(),
            });
        }
        let truth = Truth::load(&expected, cap)?;
        let shape = truth
            .shape
            .clone()
            .or_else(|| shape_prefix(&name))
            .unwrap_or_else(|| name.clone());
        cases.push(ProofCase {
            language: language.to_string(),
            name,
            dir,
            truth,
            shape,
        });
    }
    Ok(cases)
}

/// `S10` from `S10-named-import`.
fn shape_prefix(name: &str) -> Option<String> {
    let head = name.split('-').next()?;
    let digits = head.strip_prefix('S')?;
    (!digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit())).then(|| head.to_string())
}

/// The pin of a proof language: sha256 over its files (relative path and content
/// digest, in sorted order), so any edit to a proof changes the pin.
pub fn pin(proofs_dir: &Path, language: &str) -> Result<String> {
    let root = proofs_dir.join(language);
    let mut files = Vec::new();
    collect_files(&root, &root, &mut files)?;
    files.sort();
    let mut hasher = Sha256::new();
    for relative in &files {
        let path = root.join(relative);
        let bytes = std::fs::read(&path).map_err(|e| Error::io(&path, e))?;
        hasher.update(relative.as_bytes());
        hasher.update(b"\0");
        hasher.update(hex(&Sha256::digest(&bytes)).as_bytes());
        hasher.update(b"\n");
    }
    Ok(format!("sha256:{}", hex(&hasher.finalize())))
}

fn collect_files(root: &Path, dir: &Path, out: &mut Vec<String>) -> Result<()> {
    let entries = std::fs::read_dir(dir).map_err(|e| Error::io(dir, e))?;
    for entry in entries {
        let entry = entry.map_err(|e| Error::io(dir, e))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        // Links are not followed: a proof is the files it holds.
        let kind = entry.file_type().map_err(|e| Error::io(dir, e))?;
        if is_ignored(&name) || is_build_output(&name) {
            continue;
        }
        if kind.is_dir() {
            collect_files(root, &entry.path(), out)?;
        } else if kind.is_file() {
            let relative = entry
                .path()
                .strip_prefix(root)
                .expect("under root")
                .to_path_buf();
            out.push(relative.to_string_lossy().replace('\\', "/"));
        }
    }
    Ok(())
}

fn is_build_output(name: &str) -> bool {
    name.ends_with(".class") || name.ends_with(".pyc")
}

pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// An empty report, standing in for a case the engine could not analyse.
pub fn empty_report() -> Report {
    Report {
        schema: REPORT_SCHEMA.to_string(),
        engine: Default::default(),
        entities: vec![],
        calls: vec![],
        references: vec![],
    }
}

fn prefixed(case: &str, file: &str) -> String {
    format!("{case}/{file}")
}

/// Joins the reports of several cases into one, each path under `<case>/` and entity
/// ids renumbered 1.. in order.
pub fn join_reports(parts: &[(String, Report)]) -> Report {
    let mut joined = empty_report();
    let mut next_id = 1u64;
    for (case, report) in parts {
        if joined.engine.version.is_empty() {
            joined.engine.version = report.engine.version.clone();
        }
        let mut ids = HashMap::new();
        for entity in &report.entities {
            ids.insert(entity.id, next_id);
            let mut entity = entity.clone();
            entity.id = next_id;
            entity.file = prefixed(case, &entity.file);
            // Qualified names start with the file path, and cases reuse file names
            // (main.py::main): unprefixed, every case's `main` would look like an
            // overload of the others'.
            entity.qualified_name = prefixed(case, &entity.qualified_name);
            joined.entities.push(entity);
            next_id += 1;
        }
        let remap = |call: &Call| {
            let mut call = call.clone();
            call.file = prefixed(case, &call.file);
            call.caller = call.caller.and_then(|id| ids.get(&id).copied());
            if let Some(target) = &mut call.target {
                target.file = prefixed(case, &target.file);
                target.qualified_name = prefixed(case, &target.qualified_name);
                target.entity = target.entity.and_then(|id| ids.get(&id).copied());
            }
            call
        };
        joined.calls.extend(report.calls.iter().map(remap));
        joined
            .references
            .extend(report.references.iter().map(remap));
    }
    joined
}

fn prefix_site(case: &str, site: &TruthSite) -> TruthSite {
    let mut site = site.clone();
    site.file = prefixed(case, &site.file);
    if let Some(caller) = &mut site.caller {
        caller.file = prefixed(case, &caller.file);
    }
    for target in &mut site.targets {
        if let TruthTarget::InTree { file, .. } = target {
            *file = prefixed(case, file);
        }
    }
    site
}

fn prefix_position(case: &str, position: &Position) -> Position {
    Position {
        file: prefixed(case, &position.file),
        line: position.line,
    }
}

/// Joins the truths of several cases into the truth of one row. When the cases do
/// not agree on what a column means, the joined truth says `none` and pairing falls
/// back to order, which is right for every unit.
pub fn join_truths(corpus: &str, parts: &[(String, Truth)]) -> Truth {
    let stamp = |field: fn(&OracleStamp) -> &str| {
        let values: BTreeSet<&str> = parts.iter().map(|(_, t)| field(&t.oracle)).collect();
        values.into_iter().collect::<Vec<_>>().join(",")
    };
    let units: BTreeSet<ColumnUnit> = parts.iter().map(|(_, t)| t.oracle.column).collect();
    let column = match units.len() {
        1 => *units.iter().next().expect("one unit"),
        _ => ColumnUnit::None,
    };
    let judges_references = parts.iter().any(|(_, t)| t.references.is_some());
    let mut joined = Truth {
        schema: TRUTH_SCHEMA.to_string(),
        corpus: corpus.to_string(),
        oracle: OracleStamp {
            name: stamp(|o| &o.name),
            version: stamp(|o| &o.version),
            adapter: stamp(|o| &o.adapter),
            column,
        },
        shape: None,
        sites: vec![],
        references: judges_references.then(Vec::new),
        pairs: vec![],
    };
    for (case, truth) in parts {
        joined
            .sites
            .extend(truth.sites.iter().map(|s| prefix_site(case, s)));
        if let (Some(all), Some(these)) = (&mut joined.references, &truth.references) {
            all.extend(these.iter().map(|s| prefix_site(case, s)));
        }
        joined.pairs.extend(truth.pairs.iter().map(|p| TruthPair {
            caller: prefix_position(case, &p.caller),
            callee: prefix_position(case, &p.callee),
        }));
    }
    joined
}

/// The shape matrix cell for sites of one case (already prefixed by the case).
///
/// The primary sites are read (all judged sites when a case marks none): WRONG when
/// any is wrong, MISS when any abstained or was missed where an answer was
/// expected, else the families that placed them (`abstain` for a right abstention),
/// joined with `+`.
pub fn case_cell(records: &[&SiteRecord]) -> String {
    let primary: Vec<&SiteRecord> = records.iter().copied().filter(|r| r.primary).collect();
    let read = if primary.is_empty() {
        records.to_vec()
    } else {
        primary
    };
    if read.is_empty() {
        return MISS.to_string();
    }
    if read.iter().any(|r| r.verdict.is_wrong()) {
        return WRONG.to_string();
    }
    let mut tokens = BTreeSet::new();
    for record in &read {
        match record.verdict {
            Verdict::RightAbstention | Verdict::AcceptableAbstention => {
                tokens.insert("abstain".to_string());
            }
            Verdict::Right | Verdict::RightOutside => {
                tokens.insert(record.family.clone().unwrap_or_else(|| "?".into()));
            }
            _ => return MISS.to_string(),
        }
    }
    tokens.into_iter().collect::<Vec<_>>().join("+")
}

pub const WRONG: &str = "WRONG";
pub const MISS: &str = "MISS";

/// Two cells of one shape (variants of a case): the worse wins; two good cells join
/// their families.
pub fn worse_cell(a: &str, b: &str) -> String {
    for bad in [WRONG, MISS] {
        if a == bad || b == bad {
            return bad.to_string();
        }
    }
    let tokens: BTreeSet<&str> = a.split('+').chain(b.split('+')).collect();
    tokens.into_iter().collect::<Vec<_>>().join("+")
}

/// Shape id → cell for one language, from the row's site records.
pub fn shape_cells(cases: &[ProofCase], sites: &[SiteRecord]) -> BTreeMap<String, String> {
    let mut cells: BTreeMap<String, String> = BTreeMap::new();
    for case in cases {
        let prefix = format!("{}/", case.name);
        let records: Vec<&SiteRecord> = sites
            .iter()
            .filter(|s| s.file.starts_with(&prefix))
            .collect();
        let cell = case_cell(&records);
        let merged = match cells.get(&case.shape) {
            Some(existing) => worse_cell(existing, &cell),
            None => cell,
        };
        cells.insert(case.shape.clone(), merged);
    }
    cells
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::{Answer, SiteKind, TruthCategory};

    fn record(verdict: Verdict, family: Option<&str>, primary: bool) -> SiteRecord {
        SiteRecord {
            kind: SiteKind::Call,
            file: "S10-x/main.py".into(),
            line: 1,
            column: None,
            name: "f".into(),
            nth: 0,
            truth: TruthCategory::InTree,
            answer: Answer::InTree,
            verdict,
            family: family.map(str::to_string),
            primary,
        }
    }

    #[test]
    fn cells_read_primary_sites_and_the_worst_wins() {
        let right = record(Verdict::Right, Some("import"), true);
        let wrong_not_primary = record(Verdict::Wrong, Some("unique_name"), false);
        assert_eq!(case_cell(&[&right, &wrong_not_primary]), "import");
        let declined = record(Verdict::Declined, None, true);
        assert_eq!(case_cell(&[&right, &declined]), MISS);
        let wrong = record(Verdict::WrongOverload, Some("import"), true);
        assert_eq!(case_cell(&[&right, &declined, &wrong]), WRONG);
        let abstained = record(Verdict::RightAbstention, None, true);
        assert_eq!(case_cell(&[&abstained]), "abstain");
        // No primary site: every site is read.
        assert_eq!(case_cell(&[&wrong_not_primary]), WRONG);
        assert_eq!(worse_cell("import", "lexical"), "import+lexical");
        assert_eq!(worse_cell("import", MISS), MISS);
        assert_eq!(worse_cell(MISS, WRONG), WRONG);
    }

    #[test]
    fn joined_cases_keep_their_declarations_apart() {
        use crate::testkit::{call, entity, report, CallExt};
        let case = |line| {
            let mut main = call(9, Some(1), "main").called_by(0).to(
                "lexical",
                "main.py::main",
                "main.py",
                line,
            );
            main.file = "main.py".into();
            report(
                vec![entity(0, "main.py::main", "main.py", line)],
                vec![main],
            )
        };
        let joined = join_reports(&[("A".into(), case(1)), ("B".into(), case(5))]);
        let names: Vec<_> = joined
            .entities
            .iter()
            .map(|e| (e.id, e.qualified_name.as_str(), e.file.as_str()))
            .collect();
        assert_eq!(
            names,
            vec![
                (1, "A/main.py::main", "A/main.py"),
                (2, "B/main.py::main", "B/main.py")
            ]
        );
        let second = &joined.calls[1];
        assert_eq!(
            (second.file.as_str(), second.caller),
            ("B/main.py", Some(2))
        );
        let target = second.target.as_ref().unwrap();
        assert_eq!(
            (
                target.qualified_name.as_str(),
                target.file.as_str(),
                target.entity
            ),
            ("B/main.py::main", "B/main.py", None)
        );

        // Scored together, each case's call is right, not an unnamed overload.
        let truth = |line| {
            let mut t = crate::testkit::truth(vec![crate::testkit::site(
                9,
                Some(1),
                "main",
                &[("main.py", line)],
            )]);
            t.sites[0].file = "main.py".into();
            t
        };
        let joined_truth = join_truths(
            "proofs-x",
            &[("A".into(), truth(1)), ("B".into(), truth(5))],
        );
        let scored = crate::score::score(&joined, &joined_truth, &Default::default());
        assert!(
            scored.sites.iter().all(|s| s.verdict == Verdict::Right),
            "{:?}",
            scored.sites
        );
    }

    #[test]
    fn shape_ids_come_from_the_directory_name_when_unset() {
        assert_eq!(shape_prefix("S10-named-import").as_deref(), Some("S10"));
        assert_eq!(shape_prefix("S3").as_deref(), Some("S3"));
        assert_eq!(shape_prefix("Shadow-x"), None);
    }
}
