//! The GNAT oracle (Ada): every unit of the tree compiled for semantics only
//! (`gcc -c -gnatc`, Debian `gnat`), and the cross-reference sections of the `.ali`
//! files it writes read by [`crate::ali`] into a truth.
//!
//! Units: every `.adb` and every `.ads` without a body beside it, each compiled
//! alone in its own directory with `-I` for every directory of the tree that holds
//! Ada sources (sorted); a subunit (`separate (P)`) is compiled with its parent, not
//! alone. Coverage is observed: a unit GNAT rejects is left out, more than a quarter
//! rejected is `tool_failed`.
//!
//! What the truth says (docs/PROTOCOL.md §15, DECISIONS D45):
//! - a site is a reference of kind `s` (static call) or `R` (dispatching call) in a
//!   file of the tree, at the called name: GNAT's column (characters, a tab to the
//!   next multiple of eight) made a byte column; named by the identifier written
//!   there. References are deduplicated across `.ali` files (a unit's spec is read
//!   by every unit that depends on it, and each `.ali` holds only its own unit's
//!   references, but a generic's may repeat);
//! - its target is the entity GNAT names: a declaration of the tree by its name
//!   line (the spec where there is one, a renaming or instance declaration where the
//!   call names one), or `outside` with GNAT's unit name (`ada.text_io.Put_Line`).
//!   Also acceptable, where the tree has them: the entity's bodies (`b`: the same
//!   subprogram), the renamed entity of a renaming declaration, and the generic a
//!   subprogram instance instantiates;
//! - its caller is the innermost body (`b` … `t`, same file) around it, by the
//!   body's name line; a call in a package spec, or in an expression function
//!   (which has no `t`), has none;
//! - `implicit: "operator"`: a user-defined operator called in infix form (`A + B`):
//!   the source writes an operator, not a call, and the engine reports no site for
//!   one (as the Rust truth sets operators apart). The prefix form `"+" (A, B)` is a
//!   site;
//! - not in the truth, because GNAT records none of them: predefined operators,
//!   attribute functions (`Float'Image`), calls through access-to-subprogram values
//!   (`P.all (X)`; `F'Access` is only a reference) and type conversions.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::ali::{Ali, Entity, Place};
use crate::oracle::{Oracle, OracleOptions};
use crate::toolchain::{Outcome, Tool};
use crate::truth::{OracleStamp, Position, Truth, TruthSite, TruthTarget, TRUTH_SCHEMA};

/// Bumped whenever what the adapter emits changes (truths are cached by it).
pub const ADAPTER_VERSION: &str = "1";

const TOOL: &str = "gnat";

/// `oracle.options` of a GNAT corpus.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GnatOptions {
    /// Extra compiler switches, `-gnat…` only (`-gnat2022`, `-gnatX`).
    #[serde(default)]
    pub flags: Vec<String>,
}

impl GnatOptions {
    pub fn from_json(value: &serde_json::Value) -> Result<GnatOptions, String> {
        if value.is_null() {
            return Ok(GnatOptions::default());
        }
        let options: GnatOptions = serde_json::from_value(value.clone())
            .map_err(|e| format!("oracle options for gnat: {e}"))?;
        if let Some(bad) = options.flags.iter().find(|f| !f.starts_with("-gnat")) {
            return Err(format!(
                "oracle options for gnat: flag `{bad}` is not a -gnat switch"
            ));
        }
        Ok(options)
    }
}

/// The GNAT oracle.
#[derive(Debug, Clone, Copy, Default)]
pub struct Gnat;

impl Oracle for Gnat {
    fn name(&self) -> &'static str {
        "gnat"
    }

    fn version(&self) -> &'static str {
        ADAPTER_VERSION
    }

    /// `GNAT 12.2.0`, from `gnatls --version` (`GNATLS 12.2.0`): the Debian
    /// package that puts the Ada front end beside gcc.
    fn toolchain_version(&self) -> Result<String, Outcome> {
        let line = Tool::locate("gnatls")?.version(&["--version"])?;
        Ok(match line.strip_prefix("GNATLS ") {
            Some(version) => format!("GNAT {version}"),
            None => line,
        })
    }

    fn run(&self, corpus_dir: &Path, options: &OracleOptions<'_>) -> Result<Truth, Outcome> {
        let gnat_options = GnatOptions::from_json(options.options).map_err(failed)?;
        Tool::locate("gnatls")?;
        let gcc = Tool::locate("gcc")?;
        let version = self.toolchain_version()?;
        let AdaCorpus {
            root,
            tree,
            units,
            includes,
        } = AdaCorpus::read(corpus_dir, TOOL)?;
        let work = crate::toolchain::absolute_dir(TOOL, options.work_dir)?;
        let mut alis = Vec::new();
        let mut rejected = Vec::new();
        for (n, unit) in units.iter().enumerate() {
            let dir = crate::toolchain::absolute_dir(TOOL, &work.join(format!("u{n}")))?;
            let finished = gcc
                .command(&dir)
                .args(["-c", "-gnatc", "-gnatws"])
                .args(&gnat_options.flags)
                .args(&includes)
                .arg(root.join(unit))
                .timeout(options.timeout)
                .run_unchecked()?;
            if finished.status != Some(0) {
                rejected.push(unit.clone());
                continue;
            }
            for ali in files_ending(&dir, ".ali")
                .map_err(|e| failed(format!("cannot list {unit}'s .ali: {e}")))?
            {
                let text = std::fs::read(&ali)
                    .map_err(|e| failed(format!("cannot read {}: {e}", ali.display())))?;
                alis.push(Ali::parse(&String::from_utf8_lossy(&text)));
            }
        }
        if rejected.len() * 4 > units.len() {
            return Err(failed(format!(
                "GNAT rejected {} of {} units (first: {})",
                rejected.len(),
                units.len(),
                rejected[0]
            )));
        }
        let stamp = OracleStamp::at_name(TOOL, version, ADAPTER_VERSION);
        let truth = truth_from_alis(options.corpus_id, stamp, &alis, &tree);
        truth
            .validate("gnat cross-references")
            .map_err(|e| failed(e.to_string()))?;
        Ok(truth)
    }
}

/// The files of `dir` whose name ends with `suffix`, sorted.
pub(crate) fn files_ending(dir: &Path, suffix: &str) -> std::io::Result<Vec<PathBuf>> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(suffix))
        .collect();
    out.sort();
    Ok(out)
}

/// The corpus as both GNAT readings compile it: the canonical root, its Ada
/// sources, their compilation units (never none) and the `-I` flags of the
/// directories that hold them.
pub(crate) struct AdaCorpus {
    pub root: PathBuf,
    pub tree: SourceTree,
    pub units: Vec<String>,
    pub includes: Vec<String>,
}

impl AdaCorpus {
    /// Reads the corpus; a failure is `tool`'s outcome.
    pub(crate) fn read(corpus_dir: &Path, tool: &str) -> Result<AdaCorpus, Outcome> {
        let failed = |detail: String| Outcome::tool_failed(tool, detail);
        let root = corpus_dir
            .canonicalize()
            .map_err(|e| failed(format!("cannot read the root: {e}")))?;
        let tree = SourceTree::read(&root).map_err(|e| failed(format!("cannot read: {e}")))?;
        let units = tree.units();
        if units.is_empty() {
            return Err(failed("no Ada unit in the tree".into()));
        }
        let includes = tree
            .dirs
            .iter()
            .map(|d| format!("-I{}", root.join(d).display()))
            .collect();
        Ok(AdaCorpus {
            root,
            tree,
            units,
            includes,
        })
    }
}

/// The Ada sources of the tree: their texts by root-relative path, the directories
/// that hold them, and which path GNAT finds for a file name (the first directory
/// in `-I` order).
#[derive(Debug, Clone, Default)]
pub struct SourceTree {
    pub texts: BTreeMap<String, String>,
    pub dirs: Vec<String>,
    by_name: HashMap<String, String>,
}

impl SourceTree {
    /// Reads every `.ads`/`.adb` under `root` (links not followed).
    pub fn read(root: &Path) -> std::io::Result<SourceTree> {
        let mut files = Vec::new();
        list_sources(root, root, &mut files)?;
        let mut texts = BTreeMap::new();
        for path in files {
            let bytes = std::fs::read(root.join(&path))?;
            texts.insert(path, String::from_utf8_lossy(&bytes).into_owned());
        }
        Ok(SourceTree::from_texts(texts))
    }

    /// A tree of these files (root-relative paths).
    pub fn from_texts(texts: BTreeMap<String, String>) -> SourceTree {
        let dirs: BTreeSet<String> = texts.keys().map(|p| dir_of(p).to_string()).collect();
        let dirs: Vec<String> = dirs.into_iter().collect();
        let mut by_name = HashMap::new();
        for dir in &dirs {
            for path in texts.keys().filter(|p| dir_of(p) == dir) {
                by_name
                    .entry(file_name(path).to_string())
                    .or_insert_with(|| path.clone());
            }
        }
        SourceTree {
            texts,
            dirs,
            by_name,
        }
    }

    /// The files compiled alone: every body that is no subunit, and every spec
    /// without a body beside it.
    pub fn units(&self) -> Vec<String> {
        self.texts
            .iter()
            .filter(|(path, text)| match path.strip_suffix(".ads") {
                Some(stem) => !self.texts.contains_key(&format!("{stem}.adb")),
                None => !is_subunit(text),
            })
            .map(|(path, _)| path.clone())
            .collect()
    }

    /// The tree path GNAT means by a file name, when the tree has it.
    fn path_of(&self, name: &str) -> Option<&str> {
        self.by_name.get(name).map(String::as_str)
    }
}

fn dir_of(path: &str) -> &str {
    path.rsplit_once('/').map_or(".", |(d, _)| d)
}

fn file_name(path: &str) -> &str {
    path.rsplit_once('/').map_or(path, |(_, n)| n)
}

fn list_sources(top: &Path, dir: &Path, out: &mut Vec<String>) -> std::io::Result<()> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)?.collect::<Result<_, _>>()?;
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let kind = entry.file_type()?;
        let path = entry.path();
        if kind.is_dir() {
            list_sources(top, &path, out)?;
        } else if kind.is_file() && path.extension().is_some_and(|x| x == "ads" || x == "adb") {
            let relative = path
                .strip_prefix(top)
                .expect("walked under the top")
                .components()
                .map(|c| c.as_os_str().to_string_lossy())
                .collect::<Vec<_>>()
                .join("/");
            out.push(relative);
        }
    }
    Ok(())
}

/// A subunit starts with `separate (Parent)`, after comments.
fn is_subunit(text: &str) -> bool {
    let first = text
        .lines()
        .map(|l| l.split("--").next().unwrap_or("").trim())
        .find(|l| !l.is_empty())
        .unwrap_or("");
    let word: String = first
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    word.eq_ignore_ascii_case("separate")
}

/// The 1-based byte column of GNAT's column `col` on `line`: GNAT counts one per
/// byte and a tab to the next multiple of eight.
pub fn byte_column(line: &str, col: u32) -> u32 {
    let mut visual = 1u32;
    for (i, b) in line.bytes().enumerate() {
        if visual >= col {
            return i as u32 + 1;
        }
        visual = match b {
            b'\t' => (visual - 1) / 8 * 8 + 9,
            _ => visual + 1,
        };
    }
    line.len() as u32 + 1
}

/// What the sections of every `.ali` say across the tree, before sites are read.
#[derive(Default)]
struct CrossIndex {
    /// Entity (declaring path, line, col, name) → the bodies of the tree (`b`).
    bodies: HashMap<EntityKey, BTreeSet<(String, u32)>>,
    /// A reference's position in the tree → the in-tree entity it names (path, line).
    referenced_at: HashMap<(String, u32, u32), (String, u32)>,
    /// Per file: body spans (start, end, the body's name line).
    spans: HashMap<String, BTreeSet<Span>>,
}

/// A body's span in a file: from its `b` (line, col) to its `t` (line, col), and
/// the body's name line.
type Span = ((u32, u32), (u32, u32), u32);

type EntityKey = (String, u32, u32, String);

/// Resolves an `.ali`'s dependency numbers to the tree's paths.
struct Files<'a> {
    ali: &'a Ali,
    tree: &'a SourceTree,
}

impl<'a> Files<'a> {
    fn path(&self, dep: u32) -> Option<&'a str> {
        self.ali.dep(dep).and_then(|d| self.tree.path_of(&d.file))
    }

    /// `ada.text_io` for a runtime file: the unit GNAT names in its `D` line.
    fn unit(&self, dep: u32) -> String {
        match self.ali.dep(dep) {
            Some(d) => d
                .unit
                .as_deref()
                .map(|u| u.split('%').next().unwrap_or(u).to_string())
                .unwrap_or_else(|| d.file.clone()),
            None => String::new(),
        }
    }
}

impl CrossIndex {
    fn build(alis: &[Ali], tree: &SourceTree) -> CrossIndex {
        let mut index = CrossIndex::default();
        for ali in alis {
            let files = Files { ali, tree };
            for section in &ali.sections {
                let declared = files.path(section.dep);
                for entity in &section.entities {
                    index.add_entity(&files, declared, entity);
                }
            }
        }
        index
    }

    fn add_entity(&mut self, files: &Files, declared: Option<&str>, entity: &Entity) {
        let key = declared.map(|p| entity_key(p, entity));
        let mut open: HashMap<String, (u32, u32, u32)> = HashMap::new();
        for r in &entity.refs {
            let Some(path) = files.path(r.at.dep) else {
                continue;
            };
            if let Some(decl) = declared {
                self.referenced_at.insert(
                    (path.to_string(), r.at.line, r.at.col),
                    (decl.to_string(), entity.line),
                );
            }
            match r.kind {
                'b' => {
                    if let Some(key) = &key {
                        self.bodies
                            .entry(key.clone())
                            .or_default()
                            .insert((path.to_string(), r.at.line));
                    }
                    open.insert(path.to_string(), (r.at.line, r.at.col, r.at.line));
                }
                't' => {
                    if let Some((line, col, name_line)) = open.remove(path) {
                        self.spans.entry(path.to_string()).or_default().insert((
                            (line, col),
                            (r.at.line, r.at.col),
                            name_line,
                        ));
                    }
                }
                _ => {}
            }
        }
    }

    /// The innermost body around a position of `path`.
    fn caller(&self, path: &str, line: u32, col: u32) -> Option<Position> {
        self.spans
            .get(path)?
            .iter()
            .filter(|(start, end, _)| *start <= (line, col) && (line, col) <= *end)
            .max_by_key(|(start, _, _)| *start)
            .map(|(_, _, name_line)| Position {
                file: path.to_string(),
                line: *name_line,
            })
    }
}

fn entity_key(path: &str, entity: &Entity) -> EntityKey {
    (
        path.to_string(),
        entity.line,
        entity.col,
        entity.name.to_ascii_lowercase(),
    )
}

/// The truth of a tree from the `.ali` files its units' compilations wrote.
pub fn truth_from_alis(corpus: &str, stamp: OracleStamp, alis: &[Ali], tree: &SourceTree) -> Truth {
    let index = CrossIndex::build(alis, tree);
    // (file, line, byte column, lower-cased name) → the site.
    let mut sites: BTreeMap<(String, u32, u32, String), TruthSite> = BTreeMap::new();
    for ali in alis {
        let files = Files { ali, tree };
        for section in &ali.sections {
            let declared = files.path(section.dep);
            for entity in &section.entities {
                let targets = targets_of(&files, &index, section.dep, declared, entity);
                for r in entity.refs.iter().filter(|r| matches!(r.kind, 's' | 'R')) {
                    let Some(path) = files.path(r.at.dep) else {
                        continue;
                    };
                    let Some(site) = site_at(tree, &index, path, r.at, entity, &targets) else {
                        continue;
                    };
                    let key = (
                        site.file.clone(),
                        site.line,
                        site.column.unwrap_or(0),
                        site.name.to_ascii_lowercase(),
                    );
                    match sites.get_mut(&key) {
                        Some(seen) => {
                            for t in site.targets {
                                if !seen.targets.contains(&t) {
                                    seen.targets.push(t);
                                }
                            }
                        }
                        None => {
                            sites.insert(key, site);
                        }
                    }
                }
            }
        }
    }
    Truth {
        schema: TRUTH_SCHEMA.into(),
        corpus: corpus.into(),
        oracle: stamp,
        shape: None,
        sites: sites.into_values().collect(),
        references: None,
        pairs: Vec::new(),
    }
}

/// What a call of `entity` may be judged to reach: its declaration (or GNAT's
/// unit name for it outside the tree), then its bodies, the entity a renaming
/// renames and the generic an instance instantiates, where the tree has them.
fn targets_of(
    files: &Files,
    index: &CrossIndex,
    dep: u32,
    declared: Option<&str>,
    entity: &Entity,
) -> Vec<TruthTarget> {
    let Some(path) = declared else {
        return vec![TruthTarget::Outside {
            symbol: format!("{}.{}", files.unit(dep), entity.name),
        }];
    };
    let mut out = vec![TruthTarget::InTree {
        file: path.to_string(),
        line: entity.line,
    }];
    let mut more = |file: &str, line: u32| {
        let t = TruthTarget::InTree {
            file: file.to_string(),
            line,
        };
        if !out.contains(&t) {
            out.push(t);
        }
    };
    for (file, line) in index
        .bodies
        .get(&entity_key(path, entity))
        .into_iter()
        .flatten()
    {
        more(file, *line);
    }
    if let Some(Place { dep, line, col }) = entity.renames {
        let renamed = files
            .path(dep)
            .and_then(|p| index.referenced_at.get(&(p.to_string(), line, col)));
        if let Some((file, line)) = renamed {
            more(file, *line);
        }
    }
    if let Some(Place { dep, line, .. }) = entity.instance_of {
        if let Some(file) = files.path(dep) {
            more(file, line);
        }
    }
    out
}

/// The site of one call reference, named by what the source writes at it.
fn site_at(
    tree: &SourceTree,
    index: &CrossIndex,
    path: &str,
    at: Place,
    entity: &Entity,
    targets: &[TruthTarget],
) -> Option<TruthSite> {
    let text = tree.texts.get(path)?;
    let line_text = text.lines().nth(at.line.checked_sub(1)? as usize)?;
    let column = byte_column(line_text, at.col);
    let written = &line_text[(column as usize - 1).min(line_text.len())..];
    let identifier: String = written
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    let operator = entity.name.starts_with('"');
    let (name, implicit) = match (operator, identifier.is_empty()) {
        // `"+" (A, B)`: the operator's designator is written as a name.
        (true, _) if written.starts_with('"') => (entity.name.clone(), None),
        (true, _) => (entity.name.clone(), Some("operator".to_string())),
        (false, false) => (identifier, None),
        (false, true) => (entity.name.clone(), None),
    };
    Some(TruthSite {
        file: path.to_string(),
        line: at.line,
        column: Some(column),
        caller: index.caller(path, at.line, at.col),
        name,
        targets: if implicit.is_some() {
            Vec::new()
        } else {
            targets.to_vec()
        },
        unjudged: None,
        implicit,
        expect: None,
        primary: false,
    })
}

fn failed(detail: String) -> Outcome {
    Outcome::tool_failed(TOOL, detail)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(files: &[(&str, &str)]) -> SourceTree {
        SourceTree::from_texts(
            files
                .iter()
                .map(|(p, t)| (p.to_string(), t.to_string()))
                .collect(),
        )
    }

    #[test]
    fn tabs_advance_to_the_next_multiple_of_eight() {
        assert_eq!(byte_column("\tP;", 9), 2);
        assert_eq!(byte_column("\t\tP;", 17), 3);
        assert_eq!(byte_column("   P;", 4), 4);
        assert_eq!(byte_column("\tReport (C + Unit);", 19), 12);
        assert_eq!(byte_column("ab\tc", 9), 4);
    }

    #[test]
    fn units_are_bodies_and_specs_without_one_and_subunits_are_not() {
        let t = tree(&[
            ("src/a.ads", "package A is end A;"),
            ("src/a.adb", "package body A is end A;"),
            (
                "src/a-sep.adb",
                "--  x\n\nseparate (A)\nprocedure Sep is begin null; end;",
            ),
            ("src/b.ads", "package B is end B;"),
            ("test/main.adb", "procedure Main is begin null; end;"),
        ]);
        assert_eq!(t.units(), ["src/a.adb", "src/b.ads", "test/main.adb"]);
        assert_eq!(t.dirs, ["src", "test"]);
        assert_eq!(t.path_of("b.ads"), Some("src/b.ads"));
        assert_eq!(t.path_of("a-textio.ads"), None);
    }

    /// The ALI GNAT 12 writes for the sample of research §4.2 (abridged).
    const MAIN_ALI: &str = "D a-textio.ads\t\t20220819080952 deada98a ada.text_io%s\n\
D main.adb\t\t20201016210538 262927b8 main%b\n\
D shapes.ads\t\t20201016210538 262927b8 shapes%s\n\
D shapes.adb\t\t20201016210538 262927b8 shapes%b\n\
X 1 a-textio.ads\n\
507U14*Put_Line 2|11s7 20s4\n\
X 2 main.adb\n\
3U11*Main 3b11 21l5 21t9\n\
6v13 Twice 6>20 8r27\n\
8V13 Double[6]{float} 15s17\n\
9U14 Report 9b14 9>22 12l8 12t14 13r44 18s9\n\
13U14 Rep=13:44 17s4\n\
X 3 shapes.ads\n\
3y13*Area{float} 2|11R32\n\
6V13*Unit{4R9} 2|14s18 18s21 4|3b13\n\
7V14*\"+\"{4R9} 2|18s19\n";

    const MAIN: &str = "with Ada.Text_IO; use Ada.Text_IO;
with Shapes; use Shapes;
procedure Main is
   generic
      type T is digits <>;
   function Twice (X : T) return T;
   function Twice (X : T) return T is (X + X);
   function Double is new Twice (Float);
   procedure Report (S : Shape'Class) is
   begin
      Put_Line (Float'Image (S.Area));
   end Report;
   procedure Rep (S : Shape'Class) renames Report;
   C : Circle := Unit;
   X : Float := Double (2.0);
begin
   Rep (C);
\tReport (C + Unit);
   Sep (3);
   Put_Line (Float'Image (Twice_Area (C) + X));
end Main;
";

    fn sample_truth() -> Truth {
        let t = tree(&[
            ("main.adb", MAIN),
            ("shapes.ads", "package Shapes is\n"),
            ("shapes.adb", "package body Shapes is\n"),
        ]);
        let stamp = OracleStamp::at_name(TOOL, "GNAT 12.2.0".into(), ADAPTER_VERSION);
        let ali = Ali::parse(MAIN_ALI);
        // The same references read twice (a spec in two units' files) are one site.
        truth_from_alis("sample", stamp, &[ali.clone(), ali], &t)
    }

    fn site<'t>(truth: &'t Truth, line: u32, name: &str) -> &'t TruthSite {
        truth
            .sites
            .iter()
            .find(|s| s.line == line && s.name == name)
            .unwrap_or_else(|| panic!("no site {name} on line {line}: {:#?}", truth.sites))
    }

    fn in_tree(file: &str, line: u32) -> TruthTarget {
        TruthTarget::InTree {
            file: file.into(),
            line,
        }
    }

    #[test]
    fn calls_are_static_and_dispatching_references_with_their_callers() {
        let truth = sample_truth();
        truth.validate("sample").unwrap();
        let put_line = site(&truth, 11, "Put_Line");
        assert_eq!(put_line.column, Some(7));
        assert_eq!(
            put_line.targets,
            [TruthTarget::Outside {
                symbol: "ada.text_io.Put_Line".into()
            }]
        );
        assert_eq!(
            put_line.caller,
            Some(Position {
                file: "main.adb".into(),
                line: 9
            })
        );
        let area = site(&truth, 11, "Area");
        assert_eq!(area.targets, [in_tree("shapes.ads", 3)]);
        // Package-level statements of the main procedure: the procedure is the caller.
        assert_eq!(site(&truth, 17, "Rep").caller.as_ref().unwrap().line, 3);
        // A parameterless call in a declaration of the procedure.
        let unit = site(&truth, 14, "Unit");
        assert_eq!(
            unit.targets,
            [in_tree("shapes.ads", 6), in_tree("shapes.adb", 3)]
        );
        assert_eq!(truth.sites.iter().filter(|s| s.line == 11).count(), 2);
    }

    #[test]
    fn renamings_instances_and_tabbed_columns() {
        let truth = sample_truth();
        let rep = site(&truth, 17, "Rep");
        assert_eq!(
            rep.targets,
            [in_tree("main.adb", 13), in_tree("main.adb", 9)]
        );
        let double = site(&truth, 15, "Double");
        assert_eq!(
            double.targets,
            [in_tree("main.adb", 8), in_tree("main.adb", 6)]
        );
        let report = site(&truth, 18, "Report");
        assert_eq!(
            report.column,
            Some(2),
            "GNAT's column 9 after a tab is byte 2"
        );
        let unit = site(&truth, 18, "Unit");
        assert_eq!(unit.column, Some(14));
    }

    #[test]
    fn an_infix_operator_call_is_set_apart() {
        let truth = sample_truth();
        let plus = site(&truth, 18, "\"+\"");
        assert_eq!(plus.implicit.as_deref(), Some("operator"));
        assert!(plus.targets.is_empty());
        assert_eq!(plus.column, Some(12));
    }

    #[test]
    fn options_take_only_gnat_switches() {
        assert_eq!(
            GnatOptions::from_json(&serde_json::json!({"flags": ["-gnat2022"]}))
                .unwrap()
                .flags,
            ["-gnat2022"]
        );
        assert!(GnatOptions::from_json(&serde_json::json!({"flags": ["-o", "x"]})).is_err());
        assert!(GnatOptions::from_json(&serde_json::Value::Null).is_ok());
        assert!(GnatOptions::from_json(&serde_json::json!({"other": 1})).is_err());
    }
}
