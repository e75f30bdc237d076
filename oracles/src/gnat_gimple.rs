//! The code generator's reading of an Ada corpus (`gnat-gimple`), the second reading
//! of the GNAT oracle (`harness crosscheck --corpus ahven`): every unit the `gnat`
//! oracle compiles, compiled again **for code** (`gcc -c -g -O0
//! -fdump-tree-gimple-lineno-asmname`), and each call statement of the GIMPLE dump read
//! with its source location and the assembler name of the function it calls; the
//! callee's declaration is the `DW_TAG_subprogram` of that name in the DWARF the same
//! compilations wrote (`llvm-dwarfdump --debug-info`).
//!
//! It shares nothing with the `.ali` reading but the unit list and the compiler's
//! front end: no cross-reference section is read. The binding is the one gigi
//! lowered to a call instruction (after expansion: renamings resolved, instances
//! generated, overloads as `pkg__name__2`), and the declaration is the one the
//! debugger is told about.
//!
//! Normalisation to the truth format (docs/PROTOCOL.md §18, DECISIONS D64):
//! - a GIMPLE location is `[file:line:col]`, GNAT's column (a tab to the next multiple
//!   of eight) of the node gigi took it from — the call's name, the `.` of a selected
//!   name, or the enclosing expression for a parameterless call that is an operand.
//!   The site is named by the callee's simple name as the line spells it (the
//!   nearest whole-word occurrence, any case, at or after the column, else before),
//!   at that spelling's byte column; a callee the line does not spell (a renaming:
//!   `Rep (C)` calls `report`) is named by the identifier at the column;
//! - a callee with a DWARF definition in a file of the tree (not artificial) is in
//!   the tree at its `DW_AT_decl_line` (GNAT gives the body's line);
//! - a callee the tree's dumps define, or of a unit of the tree by its assembler
//!   prefix (`ahven__framework__`: a unit GNAT would not compile for code), that DWARF
//!   does not place (an instance's
//!   subprogram, a generated init or finalize procedure) is `unjudged:
//!   no_declaration_line` where the line spells its name, else `implicit:
//!   generated`;
//! - a callee the tree does not define is `outside` with its dotted name
//!   (`ada.text_io.put_line`) where the line spells it, else `implicit: expanded` (a
//!   runtime call the expander wrote: `Float'Image`, the secondary stack, checks);
//! - a callee whose name GNAT did not encode (no `__`: a subprogram imported from C,
//!   called by its foreign symbol) is `unjudged: foreign_name`;
//! - an operator callee (`shapes__Oadd`) is `implicit: operator` unless the column
//!   holds its quoted designator (`"+" (A, B)`), as the GNAT truth sets infix
//!   operators apart;
//! - calls through a value (a temporary, a local or parameter of the function: a
//!   dispatching call, `P.all (X)`) and calls of `__builtin_*` / `__gnat_*` are not
//!   sites: the statement names no subprogram;
//! - one site met in several dumps or instances is one site with the union of its
//!   callees.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::path::Path;

use crate::gnat::{byte_column, files_ending, AdaCorpus, Gnat, GnatOptions, SourceTree};
use crate::oracle::{Oracle, OracleOptions};
use crate::toolchain::{Outcome, Tool};
use crate::truth::{OracleStamp, Truth, TruthSite, TruthTarget, TRUTH_SCHEMA};

/// Bumped whenever what the adapter emits changes (truths are cached by it).
pub const ADAPTER_VERSION: &str = "1";

const NAME: &str = "gnat-gimple";

/// The most bytes one object's DWARF listing may have.
const DWARF_CAP: u64 = 1 << 30;

/// The GIMPLE reading of an Ada tree.
#[derive(Debug, Clone, Copy, Default)]
pub struct GnatGimple;

impl Oracle for GnatGimple {
    fn name(&self) -> &'static str {
        NAME
    }

    fn version(&self) -> &'static str {
        ADAPTER_VERSION
    }

    /// The same compiler as the `gnat` oracle's.
    fn toolchain_version(&self) -> Result<String, Outcome> {
        Gnat.toolchain_version()
    }

    fn run(&self, corpus_dir: &Path, options: &OracleOptions<'_>) -> Result<Truth, Outcome> {
        let gnat_options = GnatOptions::from_json(options.options).map_err(failed)?;
        let gcc = Tool::locate("gcc")?;
        let dwarfdump = Tool::locate("llvm-dwarfdump")?;
        let version = self.toolchain_version()?;
        let AdaCorpus {
            root,
            tree,
            units,
            includes,
        } = AdaCorpus::read(corpus_dir, NAME)?;
        let work = crate::toolchain::absolute_dir(NAME, options.work_dir)?;
        let mut dumps = Vec::new();
        let mut subprograms = Vec::new();
        let mut rejected = Vec::new();
        let mut unread = Vec::new();
        for (n, unit) in units.iter().enumerate() {
            let dir = crate::toolchain::absolute_dir(NAME, &work.join(format!("u{n}")))?;
            let finished = gcc
                .command(&dir)
                .args([
                    "-c",
                    "-g",
                    "-O0",
                    "-gnatws",
                    "-fdump-tree-gimple-lineno-asmname",
                ])
                .args(&gnat_options.flags)
                .args(&includes)
                .arg(root.join(unit))
                .timeout(options.timeout)
                .run_unchecked()?;
            if finished.status != Some(0) {
                rejected.push(unit.clone());
                continue;
            }
            for file in files_ending(&dir, ".gimple").map_err(|e| failed(format!("{e}")))? {
                let text = std::fs::read(&file)
                    .map_err(|e| failed(format!("cannot read {}: {e}", file.display())))?;
                dumps.push(String::from_utf8_lossy(&text).into_owned());
            }
            for object in files_ending(&dir, ".o").map_err(|e| failed(format!("{e}")))? {
                let listing = dwarfdump
                    .command(&dir)
                    .arg("--debug-info")
                    .arg(&object)
                    .timeout(options.timeout)
                    .output_cap(DWARF_CAP)
                    .run_unchecked()?;
                // llvm-dwarfdump 14 crashes on a few GNAT objects (ncursesada): that
                // unit's subprograms are then unplaced, and its callees unjudged.
                match listing.status {
                    Some(0) => subprograms.extend(dwarf_subprograms(&listing.stdout)),
                    _ => unread.push(unit.clone()),
                }
            }
        }
        if rejected.len() * 4 > units.len() {
            return Err(failed(format!(
                "GNAT rejected {} of {} units for code (first: {})",
                rejected.len(),
                units.len(),
                rejected[0]
            )));
        }
        if unread.len() * 4 > units.len() {
            return Err(failed(format!(
                "llvm-dwarfdump could not read {} of {} units' objects (first: {})",
                unread.len(),
                units.len(),
                unread[0]
            )));
        }
        let calls: Vec<Call> = dumps.iter().flat_map(|d| gimple_calls(d)).collect();
        let defined: HashSet<String> = dumps.iter().flat_map(|d| defined_functions(d)).collect();
        let places = Places::new(&root, &tree, &subprograms);
        let stamp = OracleStamp::at_name(NAME, version, ADAPTER_VERSION);
        let truth = truth_of(options.corpus_id, stamp, &calls, &defined, &places, &tree);
        if truth.sites.is_empty() {
            return Err(failed("the dumps hold no call in the tree".into()));
        }
        truth
            .validate("gnat gimple calls")
            .map_err(|e| failed(e.to_string()))?;
        Ok(truth)
    }
}

/// One call statement of a GIMPLE dump: where gigi placed it and the assembler
/// name it calls.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Call {
    pub file: String,
    pub line: u32,
    /// GNAT's column (a tab to the next multiple of eight).
    pub col: u32,
    pub callee: String,
}

/// The call statements of one dump whose callee is a named function: not a value
/// (a temporary `_3`, `D.123`, `x.4_1`, or a local or parameter of the function the
/// statement is in) and not a builtin.
pub fn gimple_calls(dump: &str) -> Vec<Call> {
    let mut out = Vec::new();
    let mut locals: HashSet<String> = HashSet::new();
    for line in dump.lines() {
        if let Some(params) = function_header(line) {
            locals = params;
            continue;
        }
        let trimmed = line.trim_start();
        if !trimmed.starts_with('[') {
            if let Some(name) = declared_local(trimmed) {
                locals.insert(name);
            }
            continue;
        }
        let Some((file, line_no, col, rest)) = location(trimmed) else {
            continue;
        };
        let Some(callee) = called_name(rest) else {
            continue;
        };
        if locals.contains(callee) || is_value_name(callee) {
            continue;
        }
        out.push(Call {
            file: file.to_string(),
            line: line_no,
            col,
            callee: callee.to_string(),
        });
    }
    out
}

/// A function definition's header, at column 0 (`void shapes__circleIP (struct
/// shapes__circle & _init, boolean P29s)`): the names of its parameters.
fn function_header(line: &str) -> Option<HashSet<String>> {
    if line.starts_with([' ', '\t', '{', '}', ';', '<', '[']) || !line.ends_with(')') {
        return None;
    }
    let open = line.find(" (")?;
    let params = &line[open + 2..line.len() - 1];
    Some(
        params
            .split(", ")
            .filter_map(|p| p.rsplit([' ', '&', '*']).next())
            .filter(|p| !p.is_empty())
            .map(str::to_string)
            .collect(),
    )
}

/// The name of the function a header defines.
fn header_name(line: &str) -> Option<&str> {
    function_header(line)?;
    let open = line.find(" (")?;
    line[..open].rsplit(' ').next()
}

/// The functions a dump defines, by [`defined_key`]: a header names its function by
/// its Ada name (`assertion_tests.assert_int_equal`, `shapes."+"`) where a call
/// names the assembler's (`assertion_tests__assert_int_equal`, `shapes__Oadd`).
pub fn defined_functions(dump: &str) -> Vec<String> {
    dump.lines()
        .filter_map(header_name)
        .map(defined_key)
        .collect()
}

/// The key under which a header's name and a call's assembler name meet: `__` and
/// `.` are one separator, overload and homonym numbers dropped, an operator by its
/// encoding.
pub fn defined_key(name: &str) -> String {
    let parts: Vec<String> = name
        .replace("__", ".")
        .split('.')
        .map(without_suffix)
        .filter(|p| !p.is_empty() && !p.chars().all(|c| c.is_ascii_digit()))
        .map(
            |p| match p.strip_prefix('"').and_then(|q| q.strip_suffix('"')) {
                Some(symbol) => operator_encoding(symbol).unwrap_or(p).to_string(),
                None => p.to_string(),
            },
        )
        .collect();
    parts.join(".")
}

/// `  integer x;` / `  struct p__t & r;` — a local's declaration in a body (no
/// location, one name before the `;`).
fn declared_local(line: &str) -> Option<String> {
    let body = line.strip_suffix(';')?;
    if body.contains(" = ") || body.starts_with(['[', '<']) || !body.contains(' ') {
        return None;
    }
    let name = body.rsplit([' ', '&', '*']).next()?;
    name.chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
        .then(|| name.to_string())
}

/// `[file:line:col] rest`: the location and what follows.
fn location(line: &str) -> Option<(&str, u32, u32, &str)> {
    let end = line.find("] ")?;
    let inside = &line[1..end];
    let (rest_loc, col) = inside.rsplit_once(':')?;
    let (file, line_no) = rest_loc.rsplit_once(':')?;
    Some((
        file,
        line_no.parse().ok()?,
        col.parse().ok()?,
        &line[end + 2..],
    ))
}

/// The callee of a call statement (`x = p__f (a);`, `p__g ();`, `r = p__h (b);
/// [return slot optimization]`), when the statement is a call of a name.
fn called_name(statement: &str) -> Option<&str> {
    let statement = statement
        .strip_suffix(" [return slot optimization]")
        .unwrap_or(statement);
    let statement = statement.strip_suffix(" [tail call]").unwrap_or(statement);
    if !statement.ends_with(");") {
        return None;
    }
    let call = match statement.find(" = ") {
        Some(eq) if statement[..eq].find(" (").is_none() => &statement[eq + 3..],
        _ => statement,
    };
    let open = call.find(" (")?;
    let name = &call[..open];
    let first = name.chars().next()?;
    let plain = name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '$');
    (first.is_ascii_alphabetic() && plain && !matches!(name, "if" | "switch" | "return"))
        .then_some(name)
}

/// A temporary the gimplifier made (`D.5172`, `x.4_1`, `iftmp.0`), not a function.
fn is_value_name(name: &str) -> bool {
    if name.starts_with("D.") || name.starts_with("iftmp.") {
        return true;
    }
    match name.rsplit_once('.') {
        Some((_, tail)) => {
            tail.chars().any(|c| c == '_') && tail.starts_with(|c: char| c.is_ascii_digit())
        }
        None => false,
    }
}

/// A `DW_TAG_subprogram` of the DWARF: its name, where it is declared, and whether
/// the compiler made it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Subprogram {
    pub name: String,
    pub file: Option<String>,
    pub line: Option<u32>,
    pub artificial: bool,
}

/// The subprograms of an `llvm-dwarfdump --debug-info` listing.
pub fn dwarf_subprograms(listing: &str) -> Vec<Subprogram> {
    let mut out = Vec::new();
    let mut current: Option<Subprogram> = None;
    for line in listing.lines() {
        let trimmed = line.trim();
        if trimmed.contains("DW_TAG_") {
            out.extend(current.take().filter(|s| !s.name.is_empty()));
            if trimmed.ends_with("DW_TAG_subprogram") {
                current = Some(Subprogram {
                    name: String::new(),
                    file: None,
                    line: None,
                    artificial: false,
                });
            }
            continue;
        }
        let Some(s) = current.as_mut() else {
            continue;
        };
        let Some((attribute, value)) = trimmed.split_once('\t') else {
            continue;
        };
        let value = value.trim().trim_start_matches('(').trim_end_matches(')');
        match attribute {
            "DW_AT_name" => s.name = value.trim_matches('"').to_string(),
            "DW_AT_decl_file" => s.file = Some(value.trim_matches('"').to_string()),
            "DW_AT_decl_line" => s.line = value.parse().ok(),
            "DW_AT_artificial" => s.artificial = value == "true",
            _ => {}
        }
    }
    out.extend(current.filter(|s| !s.name.is_empty()));
    out
}

/// Where the tree's subprograms are declared, by assembler name, and how a path the
/// compiler printed is the tree's.
pub struct Places<'a> {
    root: String,
    tree: &'a SourceTree,
    by_name: HashMap<String, (String, u32)>,
    /// The assembler prefix of every unit of the tree (`ahven-framework.adb` →
    /// `ahven__framework__`), so that a callee of a unit GNAT would not compile for
    /// code is still known to be the tree's.
    unit_prefixes: HashSet<String>,
}

impl<'a> Places<'a> {
    pub fn new(root: &Path, tree: &'a SourceTree, subprograms: &[Subprogram]) -> Places<'a> {
        let unit_prefixes = tree
            .texts
            .keys()
            .filter_map(|p| p.rsplit('/').next()?.rsplit_once('.'))
            .map(|(stem, _)| format!("{}__", stem.to_ascii_lowercase().replace('-', "__")))
            .collect();
        let mut places = Places {
            root: format!("{}/", root.display()),
            tree,
            by_name: HashMap::new(),
            unit_prefixes,
        };
        let mut by_name = HashMap::new();
        for s in subprograms.iter().filter(|s| !s.artificial) {
            let (Some(file), Some(line)) = (&s.file, s.line) else {
                continue;
            };
            if let Some(path) = places.tree_path(file) {
                by_name
                    .entry(s.name.clone())
                    .or_insert((path.to_string(), line));
            }
        }
        places.by_name = by_name;
        places
    }

    /// The callee is a subprogram of a unit of the tree (by its assembler prefix).
    fn of_tree_unit(&self, callee: &str) -> bool {
        self.unit_prefixes
            .iter()
            .any(|p| callee.starts_with(p.as_str()))
    }

    /// The root-relative path of a file the compiler names (absolute under the
    /// root, or relative to the unit's directory), when it is the tree's.
    fn tree_path(&self, file: &str) -> Option<&'a str> {
        let relative = file.strip_prefix(&self.root).unwrap_or(file);
        let (path, _) = self.tree.texts.get_key_value(relative)?;
        Some(path.as_str())
    }
}

/// The simple name of an assembler name (`ada__text_io__put_line__2` → `put_line`,
/// `p__q__f.3` → `f`): its last `__` component that is not an overload or homonym
/// number.
pub fn simple_name(asm: &str) -> &str {
    let asm = match asm.rsplit_once('.') {
        Some((head, tail)) if tail.chars().all(|c| c.is_ascii_digit()) => head,
        _ => asm,
    };
    let mut parts: Vec<&str> = asm.split("__").map(without_suffix).collect();
    while parts.len() > 1
        && parts
            .last()
            .is_some_and(|p| p.chars().all(|c| c.is_ascii_digit()))
    {
        parts.pop();
    }
    parts.last().copied().unwrap_or(asm)
}

/// A name component without GNAT's body suffix (`2X`, `fX`, `gXb`: an upper-case `X`
/// and lower-case letters; Ada names are lower-cased in assembler names, so an
/// upper-case `X` is always the encoding's).
fn without_suffix(part: &str) -> &str {
    match part.rfind('X') {
        Some(at) if at > 0 && part[at + 1..].chars().all(|c| c.is_ascii_lowercase()) => &part[..at],
        _ => part,
    }
}

/// The Ada designator of GNAT's operator encoding (`Oadd` → `"+"`).
pub fn operator_symbol(simple: &str) -> Option<&'static str> {
    Some(match simple {
        "Oabs" => "abs",
        "Oand" => "and",
        "Omod" => "mod",
        "Onot" => "not",
        "Oor" => "or",
        "Orem" => "rem",
        "Oxor" => "xor",
        "Oeq" => "=",
        "One" => "/=",
        "Olt" => "<",
        "Ole" => "<=",
        "Ogt" => ">",
        "Oge" => ">=",
        "Oadd" => "+",
        "Osubtract" => "-",
        "Oconcat" => "&",
        "Omultiply" => "*",
        "Odivide" => "/",
        "Oexpon" => "**",
        _ => return None,
    })
}

/// GNAT's encoding of an operator's designator (`+` → `Oadd`).
fn operator_encoding(symbol: &str) -> Option<&'static str> {
    const ENCODINGS: [&str; 19] = [
        "Oabs",
        "Oand",
        "Omod",
        "Onot",
        "Oor",
        "Orem",
        "Oxor",
        "Oeq",
        "One",
        "Olt",
        "Ole",
        "Ogt",
        "Oge",
        "Oadd",
        "Osubtract",
        "Oconcat",
        "Omultiply",
        "Odivide",
        "Oexpon",
    ];
    ENCODINGS
        .into_iter()
        .find(|e| operator_symbol(e) == Some(symbol))
}

/// The byte columns where `line` spells `name` as a whole word (any case), not as
/// the name of a named association.
fn occurrences(line: &str, name: &str) -> Vec<u32> {
    let lower = line.to_ascii_lowercase();
    let name = name.to_ascii_lowercase();
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let bytes = lower.as_bytes();
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(at) = lower[from..].find(&name) {
        let start = from + at;
        let end = start + name.len();
        let before_ok = start == 0 || !word(bytes[start - 1]);
        let after_ok = end == bytes.len() || !word(bytes[end]);
        // `Name =>`: a formal parameter's or a choice's name, not a call.
        let association = lower[end..].trim_start().starts_with("=>");
        if before_ok && after_ok && !association {
            found.push(start as u32 + 1);
        }
        from = start + 1;
    }
    found
}

/// The byte column where `line` spells `name` nearest to `column`: the first at or
/// after it, else the last before it.
pub fn spelled_at(line: &str, name: &str, column: u32) -> Option<u32> {
    let found = occurrences(line, name);
    found
        .iter()
        .copied()
        .find(|&c| c >= column)
        .or_else(|| found.last().copied())
}

/// A controlled type's operations, which the expander calls where no source names
/// them (an object's declaration, an assignment, the end of a scope).
const CONTROLLED: [&str; 3] = ["initialize", "adjust", "finalize"];

/// The most lines a statement's later lines are searched for a callee's name.
const MAX_STATEMENT_LINES: usize = 20;

/// Where the statement that starts at (`line`, `column`) spells `name`: on its line
/// at or after the column, else on the statement's next lines (up to the line that
/// ends it with `;`), else on its line before the column. gigi gives a call in an
/// argument on a later line the location of the statement around it.
pub fn spelled_in_statement(
    lines: &[&str],
    line: u32,
    column: u32,
    name: &str,
) -> Option<(u32, u32)> {
    let first = *lines.get((line as usize).checked_sub(1)?)?;
    if let Some(at) = occurrences(first, name).into_iter().find(|&c| c >= column) {
        return Some((line, at));
    }
    let mut previous = first;
    for (k, text) in lines
        .iter()
        .enumerate()
        .skip(line as usize)
        .take(MAX_STATEMENT_LINES)
    {
        if previous.contains(';') {
            break;
        }
        if let Some(&at) = occurrences(text, name).first() {
            return Some((k as u32 + 1, at));
        }
        previous = text;
    }
    spelled_at(first, name, column).map(|at| (line, at))
}

/// The identifier at a byte column (after a `.` of a selected name).
fn identifier_at(line: &str, column: u32) -> Option<(String, u32)> {
    let mut start = (column as usize).checked_sub(1)?;
    if line.as_bytes().get(start) == Some(&b'.') {
        start += 1;
    }
    let written: String = line
        .get(start..)?
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    (!written.is_empty()).then(|| (written, start as u32 + 1))
}

/// How one call is read.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Reading {
    Judged(TruthTarget),
    Unjudged(&'static str),
    Implicit(&'static str),
}

/// The truth of the calls of every dump.
pub fn truth_of(
    corpus: &str,
    stamp: OracleStamp,
    calls: &[Call],
    defined: &HashSet<String>,
    places: &Places,
    tree: &SourceTree,
) -> Truth {
    let mut sites: BTreeMap<(String, u32, u32, String), TruthSite> = BTreeMap::new();
    let mut seen: BTreeSet<(String, u32, u32, String)> = BTreeSet::new();
    let mut lines_of: HashMap<&str, Vec<&str>> = HashMap::new();
    for call in calls {
        let Some(path) = places.tree_path(&call.file) else {
            continue;
        };
        if !seen.insert((path.to_string(), call.line, call.col, call.callee.clone())) {
            continue;
        }
        let Some(text) = tree.texts.get(path) else {
            continue;
        };
        let lines = lines_of
            .entry(path)
            .or_insert_with(|| text.lines().collect());
        let Some(site) = site_of(call, path, lines, defined, places) else {
            continue;
        };
        let key = (
            site.file.clone(),
            site.line,
            site.column.unwrap_or(0),
            site.name.to_ascii_lowercase(),
        );
        match sites.get_mut(&key) {
            Some(kept) => merge(kept, site),
            None => {
                sites.insert(key, site);
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

/// Two readings of one site (two instances of a generic body): the union of their
/// targets; a judged reading wins over one that is not.
fn merge(kept: &mut TruthSite, other: TruthSite) {
    if other.implicit.is_some() || other.unjudged.is_some() {
        return;
    }
    if kept.implicit.is_some() || kept.unjudged.is_some() {
        *kept = other;
        return;
    }
    for t in other.targets {
        if !kept.targets.contains(&t) {
            kept.targets.push(t);
        }
    }
}

/// The site of one call on its line, named as the line spells it.
fn site_of(
    call: &Call,
    path: &str,
    lines: &[&str],
    defined: &HashSet<String>,
    places: &Places,
) -> Option<TruthSite> {
    let line_text = *lines.get((call.line as usize).checked_sub(1)?)?;
    let column = byte_column(line_text, call.col);
    let simple = simple_name(&call.callee);
    let (line, name, column, reading) = match operator_symbol(simple) {
        Some(symbol) => {
            let quoted = format!("\"{symbol}\"");
            let written = line_text.get(column as usize - 1..).unwrap_or("");
            match written.to_ascii_lowercase().starts_with(&quoted) {
                true => (
                    call.line,
                    quoted,
                    column,
                    read_callee(call, true, defined, places),
                ),
                false => (call.line, quoted, column, Reading::Implicit("operator")),
            }
        }
        None => match spelled_in_statement(lines, call.line, column, simple) {
            Some((line, at)) => {
                let text = lines[line as usize - 1];
                let name = text[at as usize - 1..][..simple.len()].to_string();
                (line, name, at, read_callee(call, true, defined, places))
            }
            // The expander's calls of a controlled type's operations.
            None if CONTROLLED.contains(&simple) => (
                call.line,
                simple.to_string(),
                column,
                Reading::Implicit("controlled"),
            ),
            None => {
                let (name, at) = identifier_at(line_text, column)
                    .unwrap_or_else(|| (simple.to_string(), column));
                (
                    call.line,
                    name,
                    at,
                    read_callee(call, false, defined, places),
                )
            }
        },
    };
    let (targets, unjudged, implicit) = match reading {
        Reading::Judged(t) => (vec![t], None, None),
        Reading::Unjudged(r) => (vec![], Some(r.to_string()), None),
        Reading::Implicit(c) => (vec![], None, Some(c.to_string())),
    };
    Some(TruthSite {
        file: path.to_string(),
        line,
        column: Some(column),
        caller: None,
        name,
        targets,
        unjudged,
        implicit,
        expect: None,
        primary: false,
    })
}

/// What a call's callee is: in the tree at its DWARF declaration, outside, or not a
/// call the source writes. `spelled`: the line spells the callee's name.
fn read_callee(call: &Call, spelled: bool, defined: &HashSet<String>, places: &Places) -> Reading {
    if let Some((file, line)) = places.by_name.get(&call.callee) {
        return Reading::Judged(TruthTarget::InTree {
            file: file.clone(),
            line: *line,
        });
    }
    if !call.callee.contains("__") {
        // Not a name GNAT encodes: a subprogram imported from C (`pragma Import`),
        // called by its foreign symbol; the code does not say which Ada declaration
        // imports it.
        return Reading::Unjudged("foreign_name");
    }
    let of_tree = defined.contains(&defined_key(&call.callee)) || places.of_tree_unit(&call.callee);
    match (of_tree, spelled) {
        (true, true) => Reading::Unjudged("no_declaration_line"),
        (true, false) => Reading::Implicit("generated"),
        (false, true) => Reading::Judged(TruthTarget::Outside {
            symbol: call.callee.replace("__", "."),
        }),
        (false, false) => Reading::Implicit("expanded"),
    }
}

fn failed(detail: String) -> Outcome {
    Outcome::tool_failed(NAME, detail)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Abridged from GCC 12's `-fdump-tree-gimple-lineno-asmname` of the sample of
    /// research §4.2 (`main.adb` calling into `shapes`).
    const DUMP: &str = "void main__report (struct shapes__shape & s)
{
  long_float _3;
  void (*<T1>) (void) * _2;

  [main.adb:11:22] _2 = [main.adb:11:22] MEM[(void (*ada__tags__prim_ptr) (void)[1:1] * {ref-all})_1][1]{lb: 1 sz: 8};
  [main.adb:11:31] _3 = _2 (s);
  [main.adb:11:22] P6b = system__img_flt__impl__image_floating_point (_3, D.5175, 6);
  [main.adb:11:7] ada__text_io__put_line__2 (D.5179);
}


void _ada_main ()
{
  void (*<T2>) (integer) handler;

        [main.adb:14:18] _1 = shapes__unit ();
        [main.adb:15:17] x = main__double (2.0e+0);
        [main.adb:17:4] main__report (&c);
        [main.adb:18:19] _3 = shapes__unit ();
        [main.adb:18:19] _4 = shapes__Oadd ([main.adb:18:19] &c, _3);
        [main.adb:18:9] main__report (_4);
        [main.adb:20:15] x = shapes__twice_area (&c);
        [main.adb:20:15] handler (1);
        [main.adb:21:0] main___finalizer ();
        [main.adb:3:1] M17b = system__secondary_stack__ss_mark (); [return slot optimization]
        [main.adb:19:4] if (x > 0) goto <D.1>; else goto <D.2>;
}
";

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
   Put_Line (Float'Image (Twice_Area (C) + X));
   X := Shapes.Twice_Area (C);
end Main;
";

    fn sample() -> Truth {
        let tree = SourceTree::from_texts(
            [
                ("main.adb".to_string(), MAIN.to_string()),
                (
                    "shapes.adb".to_string(),
                    "package body Shapes is\n".to_string(),
                ),
            ]
            .into_iter()
            .collect(),
        );
        let dwarf = "0x000000e2:   DW_TAG_subprogram
                DW_AT_external\t(true)
                DW_AT_name\t(\"main\")
                DW_AT_decl_file\t(\"/r/main.adb\")
                DW_AT_decl_line\t(3)

0x00000109:       DW_TAG_subprogram
                    DW_AT_name\t(\"main__double\")
                    DW_AT_artificial\t(true)

0x00000141:       DW_TAG_subprogram
                    DW_AT_name\t(\"main__report\")
                    DW_AT_decl_file\t(\"/r/main.adb\")
                    DW_AT_decl_line\t(9)

0x00000150:         DW_TAG_formal_parameter
                      DW_AT_name\t(\"s\")

0x000005d2:   DW_TAG_subprogram
                DW_AT_name\t(\"shapes__unit\")
                DW_AT_decl_file\t(\"/r/shapes.adb\")
                DW_AT_decl_line\t(3)
0x000005f0:   DW_TAG_subprogram
                DW_AT_name\t(\"shapes__twice_area\")
                DW_AT_decl_file\t(\"/r/shapes.adb\")
                DW_AT_decl_line\t(5)
";
        let subprograms = dwarf_subprograms(dwarf);
        assert_eq!(subprograms.len(), 5, "{subprograms:#?}");
        let calls = gimple_calls(DUMP);
        let mut defined: HashSet<String> = defined_functions(DUMP).into_iter().collect();
        defined.extend(["main__double", "main___finalizer"].map(defined_key));
        let tree: &'static SourceTree = Box::leak(Box::new(tree));
        let places = Places::new(Path::new("/r"), tree, &subprograms);
        let stamp = OracleStamp::at_name(NAME, "GNAT 12.2.0".into(), ADAPTER_VERSION);
        truth_of("sample", stamp, &calls, &defined, &places, tree)
    }

    fn places_of_sample() -> Places<'static> {
        let tree: &'static SourceTree = Box::leak(Box::new(SourceTree::from_texts(
            [("src/shapes.ads".to_string(), String::new())]
                .into_iter()
                .collect(),
        )));
        Places::new(Path::new("/r"), tree, &[])
    }

    fn site<'t>(truth: &'t Truth, line: u32, name: &str) -> &'t TruthSite {
        truth
            .sites
            .iter()
            .find(|s| s.line == line && s.name == name)
            .unwrap_or_else(|| panic!("no site {name} on line {line}: {:#?}", truth.sites))
    }

    fn in_tree(file: &str, line: u32) -> Vec<TruthTarget> {
        vec![TruthTarget::InTree {
            file: file.into(),
            line,
        }]
    }

    #[test]
    fn calls_of_values_temporaries_and_conditions_are_not_calls_of_names() {
        let calls = gimple_calls(DUMP);
        let callees: Vec<&str> = calls.iter().map(|c| c.callee.as_str()).collect();
        assert!(!callees.contains(&"_2"), "{callees:?}");
        assert!(
            !callees.contains(&"handler"),
            "a local is a value: {callees:?}"
        );
        assert!(!callees.contains(&"if"), "{callees:?}");
        assert!(callees.contains(&"ada__text_io__put_line__2"));
        assert_eq!(
            defined_functions(DUMP),
            ["main.report".to_string(), "_ada_main".to_string()]
        );
        // A header's Ada name and a call's assembler name meet.
        assert_eq!(defined_key("shapes.\"+\""), defined_key("shapes__Oadd"));
        assert_eq!(
            defined_key("assertion_tests.assert_int_equal"),
            defined_key("assertion_tests__assert_int_equal")
        );
        assert_eq!(defined_key("p__run__13"), "p.run");
    }

    #[test]
    fn sites_are_named_as_the_line_spells_the_callee() {
        let truth = sample();
        truth.validate("sample").unwrap();
        let put_line = site(&truth, 11, "Put_Line");
        assert_eq!(put_line.column, Some(7));
        assert_eq!(
            put_line.targets,
            [TruthTarget::Outside {
                symbol: "ada.text_io.put_line.2".into()
            }]
        );
        assert_eq!(site(&truth, 14, "Unit").targets, in_tree("shapes.adb", 3));
        // A unit of the tree whose code no dump holds is still the tree's.
        assert!(places_of_sample().of_tree_unit("shapes__area__2"));
        assert!(!places_of_sample().of_tree_unit("ada__text_io__put_line__2"));
        // A parameterless operand takes the enclosing operator's column; the name's
        // spelling on the line gives its own (after a tab).
        assert_eq!(site(&truth, 18, "Unit").column, Some(14));
        assert_eq!(site(&truth, 18, "Report").column, Some(2));
        // A renaming: the line does not spell `report`; the identifier at the
        // column names the site, and the callee is the renamed body.
        let rep = site(&truth, 17, "Rep");
        assert_eq!(rep.targets, in_tree("main.adb", 9));
        // A selected name's column is its `.`; the name follows.
        let twice = site(&truth, 20, "Twice_Area");
        assert_eq!(twice.column, Some(16));
        assert_eq!(twice.targets, in_tree("shapes.adb", 5));
    }

    #[test]
    fn generated_expanded_operator_and_unplaced_calls_are_set_apart() {
        let truth = sample();
        assert_eq!(
            site(&truth, 15, "Double").unjudged.as_deref(),
            Some("no_declaration_line")
        );
        assert_eq!(
            site(&truth, 18, "\"+\"").implicit.as_deref(),
            Some("operator")
        );
        assert!(
            truth
                .sites
                .iter()
                .any(|s| s.line == 11 && s.implicit.as_deref() == Some("expanded")),
            "Float'Image is the runtime's"
        );
        assert!(truth
            .sites
            .iter()
            .any(|s| s.line == 21 && s.implicit.as_deref() == Some("generated")));
        assert!(truth
            .sites
            .iter()
            .any(|s| s.line == 3 && s.implicit.as_deref() == Some("expanded")));
    }

    #[test]
    fn simple_names_drop_overload_numbers_and_operators_decode() {
        assert_eq!(simple_name("ada__text_io__put_line__2"), "put_line");
        assert_eq!(simple_name("p__q__f.3"), "f");
        assert_eq!(simple_name("initscr"), "initscr");
        assert_eq!(
            simple_name("slist_tests__integer_list__initialize__2X"),
            "initialize"
        );
        assert_eq!(simple_name("p__helperXb"), "helper");
        assert_eq!(defined_key("p__q__2X"), "p.q");
        assert_eq!(simple_name("shapes__Oadd"), "Oadd");
        assert_eq!(operator_symbol("Oadd"), Some("+"));
        assert_eq!(spelled_at("   X := Unit + unit;", "UNIT", 10), Some(16));
        assert_eq!(spelled_at("   X := Unit + unit;", "unit", 9), Some(9));
        assert_eq!(spelled_at("   X := Unit + unit;", "unit", 20), Some(16));
        assert_eq!(spelled_at("   Units;", "unit", 1), None);
        // An argument's call on a later line of the statement.
        let lines = [
            "      Framework.Execute",
            "        (T => Test,",
            "         Timeout => Parameters.Timeout (Params));",
            "      Timeout;",
        ];
        assert_eq!(
            spelled_in_statement(&lines, 1, 16, "timeout"),
            Some((3, 32)),
            "the name, not the named association"
        );
        assert_eq!(
            spelled_in_statement(&lines, 1, 16, "execute"),
            Some((1, 17))
        );
        assert_eq!(spelled_in_statement(&lines, 2, 9, "absent"), None);
        assert!(is_value_name("x.4_1"));
        assert!(is_value_name("D.5172"));
        assert!(!is_value_name("p__f.3"));
    }
}
