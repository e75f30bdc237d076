//! The preprocessor's conditionals, evaluated for the build (issue 11, DECISIONS
//! D34): every translation unit of the tree is preprocessed the way the compiler
//! does it — its directives in order, `#include`s of the tree's headers followed
//! where they stand, `#define`/`#undef` applied in order, the compiler's predefined
//! macros and the build's `-D`/`-U` in place — and a branch no unit compiles is
//! blanked byte for byte before parsing (newlines kept, so no position moves), the
//! way `macros.rs` masks attribute macros.
//!
//! - A source file (`.c`, `.cc`, …) is a unit: its conditionals are decided by its
//!   own preprocessing. A header is read once but compiled in every unit that
//!   includes it: a branch of it is blanked only when no unit that includes it
//!   compiles the branch (units that disagree keep both branches). A header no unit
//!   includes is preprocessed on its own, its include guard undefined and every
//!   macro an includer could set unknown.
//! - What a name is where a condition reads it: what the unit defined so far; else
//!   undefined when clang never defines it on this target (`clang14::never_defined`)
//!   or when the tree itself defines it somewhere (the tree's own macro: a header
//!   outside the tree does not define it); else unknown once the unit has included a
//!   header outside the tree (it may define anything), undefined before.
//! - A condition that depends on an unknown keeps every branch it could select
//!   (the parse then reads both, and a name both declare is ambiguous). A `#define`
//!   in such a branch holds inside it; after the group a name is what every way
//!   through the group agrees on, else unknown.
//! - Only decided conditionals change the bytes: a group with one branch left loses
//!   its directive lines too (the grammar then reads plain code); a group with
//!   several keeps them and loses only its dead branches.

pub mod expr;
pub mod lex;

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use rayon::prelude::*;

use crate::config::{CConfig, UnitMacro};
use crate::fasthash::{FastMap, FastSet};
use crate::lang::c::clang14::{self, Mode};
use crate::lang::c::includes::{Found, IncludePaths};
use expr::{MacroDef, MacroState, Tri};
use lex::Tok;

/// One C or C++ file of the tree, as the pass reads it.
pub struct Input<'a> {
    pub path: &'a str,
    pub bytes: &'a [u8],
    /// Read as C++ (its discovered language).
    pub cpp: bool,
}

/// The byte ranges to blank in each file, sorted and disjoint.
#[derive(Default, Debug)]
pub struct Blanks {
    by_path: FastMap<String, Vec<(usize, usize)>>,
}

impl Blanks {
    /// Preprocesses every unit of the tree under the build's configuration.
    pub fn collect(files: &[Input<'_>], config: &CConfig) -> Blanks {
        // `CALLGRAPH_NO_PREPROC=1` reads every branch, to measure what this changes.
        if files.is_empty() || std::env::var_os("CALLGRAPH_NO_PREPROC").is_some() {
            return Blanks::default();
        }
        let tree = Tree::read(files);
        let build = Build::new(config);
        let roots: Vec<usize> = (0..tree.files.len())
            .filter(|&i| !tree.files[i].header)
            .collect();
        let spent = AtomicU64::new(0);
        // Each unit's reading is merged as it ends (a unit's record of what it
        // reached is as long as its headers; all of them together need not be kept).
        let mut records = roots
            .par_iter()
            .fold(
                || Records::new(&tree),
                |mut records, &root| {
                    let run = State::for_unit(&tree, &build, &spent, root).run_root(root);
                    records.merge_where(&run, |_| true);
                    records
                },
            )
            .reduce(|| Records::new(&tree), Records::union);
        // Past the tree's budget a unit's reading may have been cut anywhere: the
        // tree is read whole, as if nothing were preprocessed.
        if spent.load(Ordering::Relaxed) > TREE_BUDGET {
            return Blanks::default();
        }
        // Headers no unit reached: each read on its own, recording only in files no
        // unit reached (a unit's reading of a file is the build's; this is not).
        let reached_by_units = records.touched.clone();
        let unreached: Vec<usize> = (0..tree.files.len())
            .filter(|&i| tree.files[i].header && !reached_by_units[i])
            .collect();
        let alone = unreached
            .par_iter()
            .fold(
                || Records::new(&tree),
                |mut records, &h| {
                    let run = State::standalone(&tree, &build, &spent, h).run_root(h);
                    records.merge_where(&run, |f| !reached_by_units[f]);
                    records
                },
            )
            .reduce(|| Records::new(&tree), Records::union);
        if spent.load(Ordering::Relaxed) > TREE_BUDGET {
            return Blanks::default();
        }
        records = records.union(alone);
        let mut by_path = FastMap::default();
        for (i, file) in tree.files.iter().enumerate() {
            let ranges = records.blanks_of(i, file);
            if !ranges.is_empty() {
                by_path.insert(file.path.clone(), ranges);
            }
        }
        Blanks { by_path }
    }

    /// The ranges blanked in a file (none when the build compiles all of it).
    pub fn ranges(&self, path: &str) -> &[(usize, usize)] {
        self.by_path.get(path).map_or(&[], Vec::as_slice)
    }

    /// The file's bytes with its blanked ranges replaced by spaces (newlines kept),
    /// or `None` when nothing is blanked.
    pub fn apply(&self, path: &str, src: &[u8]) -> Option<Vec<u8>> {
        let ranges = self.ranges(path);
        if ranges.is_empty() {
            return None;
        }
        let mut out = src.to_vec();
        for &(a, b) in ranges {
            for byte in &mut out[a.min(src.len())..b.min(src.len())] {
                if *byte != b'\n' {
                    *byte = b' ';
                }
            }
        }
        Some(out)
    }
}

/// One directive of a file.
#[derive(Debug)]
struct Directive {
    start: usize,
    end: usize,
    kind: Kind,
}

#[derive(Debug)]
enum Kind {
    If(Vec<Tok>),
    Ifdef(Arc<str>),
    Ifndef(Arc<str>),
    Elif(Vec<Tok>),
    Else,
    Endif,
    Define(Arc<str>, Arc<MacroDef>),
    Undef(Arc<str>),
    Include(Target),
    PragmaOnce,
    /// A condition the pass cannot read (`#ifdef` without a name, `#elifdef`):
    /// unknown.
    UnknownIf,
    UnknownElif,
    Other,
}

/// Where an `#include` leads.
#[derive(Debug, Clone, Copy)]
enum Target {
    File(usize),
    /// Several files of the tree could be meant.
    Ambiguous,
    /// A header outside the tree (or one the build generates).
    Outside,
    /// A written path that is not to be read here (`#include MACRO`).
    Computed,
}

/// One `#if … #endif`: the directives that open its branches, then its `#endif`.
#[derive(Debug)]
struct Group {
    arms: Vec<usize>,
    endif: usize,
}

struct File {
    path: String,
    cpp: bool,
    header: bool,
    directives: Vec<Directive>,
    groups: Vec<Group>,
    /// Every `#if` closes: only then are its branches blanked.
    balanced: bool,
    /// `#ifndef G` / `#define G` … `#endif` around the whole file.
    guard: Option<Arc<str>>,
    /// The file says `#pragma once`.
    pragma_once: bool,
}

/// The tree as the preprocessor sees it, read once.
struct Tree {
    files: Vec<File>,
    paths: IncludePaths,
    /// Names the tree defines somewhere other than as a fallback (`#ifndef X` /
    /// `#define X`): a header outside the tree does not define them.
    owned: FastSet<Arc<str>>,
}

impl Tree {
    fn read(inputs: &[Input<'_>]) -> Tree {
        let paths = IncludePaths::new(inputs.iter().map(|f| f.path));
        let index: FastMap<&str, usize> = inputs
            .iter()
            .enumerate()
            .map(|(i, f)| (f.path, i))
            .collect();
        let read: Vec<(File, Vec<Arc<str>>)> = inputs
            .par_iter()
            .map(|input| read_file(input, &paths, &index))
            .collect();
        let mut owned = FastSet::default();
        let mut files = Vec::with_capacity(read.len());
        for (file, names) in read {
            owned.extend(names);
            files.push(file);
        }
        Tree {
            files,
            paths,
            owned,
        }
    }
}

/// One file's directives, groups, guard, and the names it owns.
fn read_file(
    input: &Input<'_>,
    paths: &IncludePaths,
    index: &FastMap<&str, usize>,
) -> (File, Vec<Arc<str>>) {
    let lines = lex::directive_lines(input.bytes, input.cpp);
    let mut directives = Vec::with_capacity(lines.len());
    for line in lines {
        let kind = directive_kind(&line.text, input.path, paths, index);
        directives.push(Directive {
            start: line.start,
            end: line.end,
            kind,
        });
    }
    let (groups, balanced) = groups_of(&directives);
    let guard = include_guard(&directives, &groups);
    let owned = owned_names(&directives);
    let pragma_once = directives
        .iter()
        .any(|d| matches!(d.kind, Kind::PragmaOnce));
    let file = File {
        path: input.path.to_string(),
        cpp: input.cpp,
        header: super::is_header_path(input.path),
        directives,
        groups,
        balanced,
        guard,
        pragma_once,
    };
    (file, owned)
}

fn directive_kind(
    text: &str,
    path: &str,
    paths: &IncludePaths,
    index: &FastMap<&str, usize>,
) -> Kind {
    let t = text.trim_start();
    let word_len = t
        .bytes()
        .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
        .count();
    let (word, rest) = t.split_at(word_len);
    let one_name = |rest: &str| match lex::tokens(rest).as_slice() {
        [Tok::Ident(n), ..] => Some(n.clone()),
        _ => None,
    };
    match word {
        "if" => Kind::If(lex::tokens(rest)),
        "elif" => Kind::Elif(lex::tokens(rest)),
        "ifdef" => one_name(rest).map_or(Kind::UnknownIf, Kind::Ifdef),
        "ifndef" => one_name(rest).map_or(Kind::UnknownIf, Kind::Ifndef),
        // clang 14 has no `#elifdef`: a unit using it does not compile; unknown.
        "elifdef" | "elifndef" => Kind::UnknownElif,
        "else" => Kind::Else,
        "endif" => Kind::Endif,
        "define" => match expr::parse_define(rest) {
            Some((name, def)) => Kind::Define(name, Arc::new(def)),
            None => Kind::Other,
        },
        "undef" => one_name(rest).map_or(Kind::Other, Kind::Undef),
        "include" | "include_next" | "import" => {
            Kind::Include(include_target(word == "include", rest, path, paths, index))
        }
        "pragma" if lex::tokens(rest).first() == Some(&Tok::Ident("once".into())) => {
            Kind::PragmaOnce
        }
        _ => Kind::Other,
    }
}

fn include_target(
    plain: bool,
    rest: &str,
    path: &str,
    paths: &IncludePaths,
    index: &FastMap<&str, usize>,
) -> Target {
    let r = rest.trim();
    let written = if let Some(q) = r.strip_prefix('"') {
        q.split('"').next()
    } else if let Some(a) = r.strip_prefix('<') {
        a.split('>').next()
    } else {
        None
    };
    let Some(written) = written else {
        return Target::Computed;
    };
    // `#include_next` skips the directories searched so far: never this tree's guess.
    if !plain {
        return Target::Outside;
    }
    match paths.find(path, written) {
        Found::File(p) => index.get(p).map_or(Target::Outside, |&i| Target::File(i)),
        Found::Ambiguous => Target::Ambiguous,
        Found::Absent => Target::Outside,
    }
}

/// The conditional groups of a file, and whether every one closes.
fn groups_of(directives: &[Directive]) -> (Vec<Group>, bool) {
    let mut groups = Vec::new();
    let mut open: Vec<Vec<usize>> = Vec::new();
    let mut balanced = true;
    for (i, d) in directives.iter().enumerate() {
        match d.kind {
            Kind::If(_) | Kind::Ifdef(_) | Kind::Ifndef(_) | Kind::UnknownIf => open.push(vec![i]),
            Kind::Elif(_) | Kind::Else | Kind::UnknownElif => match open.last_mut() {
                Some(arms) => arms.push(i),
                None => balanced = false,
            },
            Kind::Endif => match open.pop() {
                Some(arms) => groups.push(Group { arms, endif: i }),
                None => balanced = false,
            },
            _ => {}
        }
    }
    (groups, balanced && open.is_empty())
}

/// The include guard: the file's first directive is `#ifndef G` (or `#if
/// !defined(G)`), its second `#define G`, and the group closes at its last directive.
fn include_guard(directives: &[Directive], groups: &[Group]) -> Option<Arc<str>> {
    let name = negated_defined(&directives.first()?.kind)?;
    match &directives.get(1)?.kind {
        Kind::Define(n, def) if *n == name && !def.function_like => {}
        _ => return None,
    }
    let group = groups.iter().find(|g| g.arms[0] == 0)?;
    (group.arms.len() == 1 && group.endif + 1 == directives.len()).then_some(name)
}

/// `#ifndef X`, `#if !defined(X)`, `#if !defined X`: the name tested.
fn negated_defined(kind: &Kind) -> Option<Arc<str>> {
    match kind {
        Kind::Ifndef(n) => Some(n.clone()),
        Kind::If(toks) => match toks.as_slice() {
            [Tok::Punct("!"), Tok::Ident(d), Tok::Punct("("), Tok::Ident(n), Tok::Punct(")")]
            | [Tok::Punct("!"), Tok::Ident(d), Tok::Ident(n)]
                if &**d == "defined" =>
            {
                Some(n.clone())
            }
            _ => None,
        },
        _ => None,
    }
}

/// Names this file defines other than as a fallback of themselves (`#ifndef X` /
/// `#define X …`, a name something outside the tree may define first). The file's
/// first conditional followed at once by a `#define` of its name is an include
/// guard, not a fallback.
fn owned_names(directives: &[Directive]) -> Vec<Arc<str>> {
    let first_conditional = directives.iter().position(|d| {
        matches!(
            d.kind,
            Kind::If(_) | Kind::Ifdef(_) | Kind::Ifndef(_) | Kind::UnknownIf
        )
    });
    let mut open: Vec<&Kind> = Vec::new();
    let mut out = Vec::new();
    for (i, d) in directives.iter().enumerate() {
        match &d.kind {
            Kind::If(_) | Kind::Ifdef(_) | Kind::Ifndef(_) | Kind::UnknownIf => open.push(&d.kind),
            Kind::Elif(_) | Kind::Else | Kind::UnknownElif => {
                if let Some(top) = open.last_mut() {
                    *top = &d.kind;
                }
            }
            Kind::Endif => {
                open.pop();
            }
            Kind::Define(name, _) => {
                let guard = i > 0 && first_conditional == Some(i - 1);
                let fallback = !guard
                    && open
                        .last()
                        .and_then(|k| negated_defined(k))
                        .is_some_and(|n| n == *name);
                if !fallback {
                    out.push(name.clone());
                }
            }
            _ => {}
        }
    }
    out
}

/// The build's configuration, as the pass applies it.
struct Build {
    c: Mode,
    cpp: Mode,
    exceptions: bool,
    rtti: bool,
    defines: Vec<UnitMacro>,
    units: FastMap<String, Vec<UnitMacro>>,
    varying: Vec<Arc<str>>,
    /// Per mode: the predefined macros and the compiler's own names.
    initial: FastMap<Mode, Vec<(Arc<str>, Entry)>>,
    /// Names whose meaning differs between C and C++ (for a header read alone).
    language_dependent: Vec<Arc<str>>,
}

impl Build {
    fn new(config: &CConfig) -> Build {
        let c = Mode::named(&config.c_std).unwrap_or(Mode::default_for(false));
        let cpp = Mode::named(&config.cpp_std).unwrap_or(Mode::default_for(true));
        let mut b = Build {
            c,
            cpp,
            exceptions: config.cpp_exceptions,
            rtti: config.cpp_rtti,
            defines: config
                .defines
                .iter()
                .map(|d| UnitMacro::Define(d.clone()))
                .collect(),
            units: config
                .units
                .iter()
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
            varying: config
                .varying
                .iter()
                .map(|v| Arc::from(v.as_str()))
                .collect(),
            initial: FastMap::default(),
            language_dependent: Vec::new(),
        };
        for mode in [c, cpp] {
            let entries = b.initial_entries(mode);
            b.initial.insert(mode, entries);
        }
        let as_map =
            |m: Mode| -> FastMap<Arc<str>, Entry> { b.initial[&m].iter().cloned().collect() };
        let (cm, cppm) = (as_map(c), as_map(cpp));
        let mut dependent: Vec<Arc<str>> = cm
            .iter()
            .filter(|(n, v)| cppm.get(*n) != Some(*v))
            .map(|(n, _)| n.clone())
            .chain(cppm.keys().filter(|n| !cm.contains_key(*n)).cloned())
            .collect();
        dependent.sort();
        b.language_dependent = dependent;
        b
    }

    fn initial_entries(&self, mode: Mode) -> Vec<(Arc<str>, Entry)> {
        let (exceptions, rtti) = if mode.cpp() {
            (self.exceptions, self.rtti)
        } else {
            (true, true)
        };
        let mut out: Vec<(Arc<str>, Entry)> = clang14::predefined(mode, exceptions, rtti)
            .into_iter()
            .map(|(n, body)| (Arc::from(n), Entry::Def(Arc::new(MacroDef::object(body)))))
            .collect();
        out.extend(clang14::builtin_macros(mode).map(|n| (Arc::from(n), Entry::Builtin)));
        out
    }

    fn mode(&self, cpp: bool) -> Mode {
        if cpp {
            self.cpp
        } else {
            self.c
        }
    }
}

/// What the state holds for a name.
#[derive(Debug, Clone, PartialEq)]
enum Entry {
    Def(Arc<MacroDef>),
    Builtin,
    Undefined,
    Unknown,
}

/// How much of a region the build compiles.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Region {
    Live,
    /// Compiled or not, depending on something unknown.
    Maybe,
    Dead,
}

fn narrow(outer: Region, cond: Tri) -> Region {
    match (outer, cond) {
        (Region::Dead, _) | (_, Tri::False) => Region::Dead,
        (Region::Live, Tri::True) => Region::Live,
        _ => Region::Maybe,
    }
}

/// Whether an earlier branch of the group was taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Taken {
    No,
    Maybe,
    Yes,
}

/// One open `#if` group, and what its branches did to the macros.
struct Frame {
    outer: Region,
    taken: Taken,
    current: Region,
    /// Each name a branch of the group changed, as it was before the group (`None`:
    /// not in the state).
    before: FastMap<Arc<str>, Option<Entry>>,
    /// Each finished branch that is compiled (maybe): the names it changed, as it
    /// left them.
    outcomes: Vec<FastMap<Arc<str>, Option<Entry>>>,
    /// The group is the include guard of this file.
    guard_of: Option<usize>,
}

/// Two readings of a name agree, or it is unknown.
fn join(a: &Option<Entry>, b: &Option<Entry>) -> Option<Entry> {
    if a == b {
        a.clone()
    } else {
        Some(Entry::Unknown)
    }
}

/// Bounds on one unit's preprocessing: directives read, include depth.
const STEP_BUDGET: u64 = 2_000_000;
/// Bound on the directives all units read together (each unit reads its headers
/// again): past it nothing is blanked.
const TREE_BUDGET: u64 = 200_000_000;
const MAX_INCLUDE_DEPTH: u32 = 200;

/// One unit's (or one lone header's) preprocessing.
struct State<'t> {
    tree: &'t Tree,
    build: &'t Build,
    /// Directives every unit has read so far (the tree's budget).
    spent: &'t AtomicU64,
    mode: Mode,
    macros: FastMap<Arc<str>, Entry>,
    /// A header read on its own: what an includer could define is unknown.
    standalone: bool,
    /// A header outside the tree was included: it may have defined anything.
    outside_included: bool,
    /// An include the pass could not follow into the tree: even the tree's own
    /// names may be defined.
    unfollowed_included: bool,
    once: FastSet<usize>,
    /// The files being read, outermost first.
    stack: Vec<usize>,
    /// The `#if` groups open, across the files being read.
    frames: Vec<Frame>,
    /// What each guarded file's body left defined the last time it was read: a
    /// later inclusion whose guard is unknown (the first was maybe compiled) is,
    /// where it is skipped, the earlier one's effect.
    effects: FastMap<usize, FastMap<Arc<str>, Option<Entry>>>,
    file: usize,
    steps: u64,
    run: Run,
}

/// What one preprocessing saw.
#[derive(Default)]
struct Run {
    /// (file, directive) of every branch reached, and of every group entered.
    reached: Vec<(usize, usize)>,
    entered: Vec<(usize, usize)>,
    touched: Vec<usize>,
    aborted: bool,
}

struct Abort;

impl<'t> State<'t> {
    fn new(
        tree: &'t Tree,
        build: &'t Build,
        spent: &'t AtomicU64,
        mode: Mode,
        file: usize,
    ) -> State<'t> {
        State {
            tree,
            build,
            spent,
            mode,
            macros: build.initial[&mode].iter().cloned().collect(),
            standalone: false,
            outside_included: false,
            unfollowed_included: false,
            once: FastSet::default(),
            stack: Vec::new(),
            frames: Vec::new(),
            effects: FastMap::default(),
            file,
            steps: 0,
            run: Run::default(),
        }
    }

    /// A unit: the predefined macros of its language, then the build's `-D`s, then
    /// its own `-D`/`-U`s; names that differ between units unknown.
    fn for_unit(tree: &'t Tree, build: &'t Build, spent: &'t AtomicU64, root: usize) -> State<'t> {
        let file = &tree.files[root];
        let mut s = State::new(tree, build, spent, build.mode(file.cpp), root);
        let own = build.units.get(&file.path).map_or(&[][..], Vec::as_slice);
        for m in build.defines.iter().chain(own) {
            s.command_line(m);
        }
        for v in &build.varying {
            s.macros.insert(v.clone(), Entry::Unknown);
        }
        s
    }

    /// A header no unit includes: its guard undefined, its language's macros known
    /// only where they do not depend on the includer's language.
    fn standalone(
        tree: &'t Tree,
        build: &'t Build,
        spent: &'t AtomicU64,
        header: usize,
    ) -> State<'t> {
        let file = &tree.files[header];
        let mut s = State::new(tree, build, spent, build.mode(file.cpp), header);
        s.standalone = true;
        for m in &build.defines {
            s.command_line(m);
        }
        for v in &build.varying {
            s.macros.insert(v.clone(), Entry::Unknown);
        }
        if !file.cpp {
            for n in &build.language_dependent {
                s.macros.insert(n.clone(), Entry::Unknown);
            }
        }
        if let Some(g) = &file.guard {
            s.macros.insert(g.clone(), Entry::Undefined);
        }
        s
    }

    fn command_line(&mut self, m: &UnitMacro) {
        match m {
            UnitMacro::Define(d) => {
                self.macros.insert(
                    Arc::from(d.name.as_str()),
                    Entry::Def(Arc::new(MacroDef::object(&d.value))),
                );
            }
            UnitMacro::Undefine(name) => {
                self.macros
                    .insert(Arc::from(name.as_str()), Entry::Undefined);
            }
        }
    }

    fn run_root(&mut self, root: usize) -> Run {
        if self.file_in(root, Region::Live, 0).is_err() {
            self.run.aborted = true;
        }
        std::mem::take(&mut self.run)
    }

    /// Preprocesses one file in a region of the includer.
    fn file_in(&mut self, f: usize, region: Region, depth: u32) -> Result<(), Abort> {
        if depth > MAX_INCLUDE_DEPTH {
            return Err(Abort);
        }
        if self.once.contains(&f) {
            return Ok(());
        }
        let tree = self.tree;
        let file = &tree.files[f];
        // A guarded file that includes itself, however indirectly: wherever its
        // body runs its guard is already defined (even where the region it was
        // entered from is only maybe compiled, which leaves the guard unknown).
        if (file.guard.is_some() || file.pragma_once) && self.stack.contains(&f) {
            return Ok(());
        }
        // Already included and guarded: nothing of it is compiled again.
        if let Some(g) = &file.guard {
            if matches!(self.macros.get(g), Some(Entry::Def(_))) {
                return Ok(());
            }
        }
        self.run.touched.push(f);
        self.stack.push(f);
        let saved_file = std::mem::replace(&mut self.file, f);
        let base = self.frames.len();
        for (i, d) in file.directives.iter().enumerate() {
            self.steps += 1;
            if self.steps > STEP_BUDGET {
                return Err(Abort);
            }
            if self.steps.is_multiple_of(1024)
                && self.spent.fetch_add(1024, Ordering::Relaxed) > TREE_BUDGET
            {
                return Err(Abort);
            }
            let here = self.frames.last().map_or(region, |fr| fr.current);
            let here = if self.frames.len() > base {
                here
            } else {
                region
            };
            match &d.kind {
                Kind::If(_) | Kind::Ifdef(_) | Kind::Ifndef(_) | Kind::UnknownIf => {
                    self.open_group(f, i, &d.kind, here)
                }
                Kind::Elif(_) | Kind::Else | Kind::UnknownElif if self.frames.len() > base => {
                    self.next_branch(f, i, &d.kind)
                }
                Kind::Endif if self.frames.len() > base => self.close_group(),
                Kind::Define(name, def) if here != Region::Dead => {
                    self.set(name, Some(Entry::Def(def.clone())))
                }
                Kind::Undef(name) if here != Region::Dead => self.set(name, Some(Entry::Undefined)),
                Kind::Include(target) if here != Region::Dead => match *target {
                    Target::File(t) => self.file_in(t, here, depth + 1)?,
                    Target::Outside => self.outside_included = true,
                    Target::Ambiguous | Target::Computed => self.unfollowed_included = true,
                },
                // Only a compiled `#pragma once` stops a later inclusion: one maybe
                // compiled may not have run where the later one does.
                Kind::PragmaOnce if here == Region::Live => {
                    self.once.insert(f);
                }
                _ => {}
            }
        }
        // A group the file leaves open ends with it.
        while self.frames.len() > base {
            self.close_group();
        }
        self.file = saved_file;
        self.stack.pop();
        Ok(())
    }

    /// A macro changes: the innermost open group remembers what it was.
    fn set(&mut self, name: &Arc<str>, entry: Option<Entry>) {
        if let Some(top) = self.frames.last_mut() {
            if !top.before.contains_key(name) {
                top.before
                    .insert(name.clone(), self.macros.get(name).cloned());
            }
        }
        self.put(name, entry);
    }

    fn put(&mut self, name: &Arc<str>, entry: Option<Entry>) {
        match entry {
            Some(e) => {
                self.macros.insert(name.clone(), e);
            }
            None => {
                self.macros.remove(name);
            }
        }
    }

    /// `#if`, `#ifdef`, `#ifndef`: the first branch's region.
    fn open_group(&mut self, f: usize, i: usize, kind: &Kind, here: Region) {
        let guard_of = (i == 0 && self.tree.files[f].guard.is_some()).then_some(f);
        if here == Region::Dead {
            self.frames.push(Frame {
                outer: Region::Dead,
                taken: Taken::Yes,
                current: Region::Dead,
                before: FastMap::default(),
                outcomes: Vec::new(),
                guard_of: None,
            });
            return;
        }
        let cond = self.condition(kind);
        let current = narrow(here, cond);
        self.run.entered.push((f, i));
        if current != Region::Dead {
            self.run.reached.push((f, i));
        }
        self.frames.push(Frame {
            outer: here,
            taken: match cond {
                Tri::True => Taken::Yes,
                Tri::Unknown => Taken::Maybe,
                Tri::False => Taken::No,
            },
            current,
            before: FastMap::default(),
            outcomes: Vec::new(),
            guard_of,
        });
    }

    /// `#elif`, `#else`: the branch before it ends, this one's region begins.
    fn next_branch(&mut self, f: usize, i: usize, kind: &Kind) {
        self.finish_branch();
        let top = self.frames.last().expect("an open group");
        let (outer, taken) = (top.outer, top.taken);
        let (current, taken) = if outer == Region::Dead || taken == Taken::Yes {
            (Region::Dead, taken)
        } else {
            let cond = match kind {
                Kind::Else => Tri::True,
                k => self.condition(k),
            };
            let mut current = narrow(outer, cond);
            if taken == Taken::Maybe && current == Region::Live {
                current = Region::Maybe;
            }
            let taken = match (taken, cond) {
                (_, Tri::True) => Taken::Yes,
                (_, Tri::Unknown) => Taken::Maybe,
                (t, Tri::False) => t,
            };
            (current, taken)
        };
        if current != Region::Dead {
            self.run.reached.push((f, i));
        }
        let top = self.frames.last_mut().expect("an open group");
        top.current = current;
        top.taken = taken;
    }

    /// The branch being read ends: what it left is one outcome of the group, and
    /// the next branch starts from the macros as they were before the group.
    fn finish_branch(&mut self) {
        let top = self.frames.last().expect("an open group");
        if top.current == Region::Dead {
            return;
        }
        let outcome: FastMap<Arc<str>, Option<Entry>> = top
            .before
            .keys()
            .map(|n| (n.clone(), self.macros.get(n).cloned()))
            .collect();
        let restore: Vec<(Arc<str>, Option<Entry>)> = top
            .before
            .iter()
            .map(|(n, v)| (n.clone(), v.clone()))
            .collect();
        self.frames
            .last_mut()
            .expect("an open group")
            .outcomes
            .push(outcome);
        for (n, v) in restore {
            self.put(&n, v);
        }
    }

    /// `#endif`: every name a branch changed is what all the ways through the
    /// group agree on (a branch that may run, and no branch where none need).
    fn close_group(&mut self) {
        self.finish_branch();
        let frame = self.frames.pop().expect("an open group");
        let through = frame.taken != Taken::Yes;
        // The include guard of a file read before: where it is skipped, the
        // earlier reading's effect holds.
        let earlier = frame.guard_of.and_then(|g| self.effects.get(&g));
        let mut finals: Vec<(Arc<str>, Option<Entry>)> = Vec::new();
        for (name, before) in &frame.before {
            let value_in = |o: &FastMap<Arc<str>, Option<Entry>>| {
                o.get(name).cloned().unwrap_or_else(|| before.clone())
            };
            let skipped = match (before, earlier.and_then(|e| e.get(name))) {
                (Some(Entry::Unknown), Some(e)) => e.clone(),
                _ => before.clone(),
            };
            let mut worlds = frame.outcomes.iter().map(value_in);
            let first = if through {
                Some(skipped)
            } else {
                worlds.next()
            };
            let Some(first) = first else {
                continue;
            };
            let value = worlds.fold(first, |acc, w| join(&acc, &w));
            finals.push((name.clone(), value));
        }
        if let (Some(g), Some(body)) = (frame.guard_of, frame.outcomes.first()) {
            self.effects.insert(g, body.clone());
        }
        // The enclosing group learns what this one changed, as it was before it.
        if let Some(parent) = self.frames.last_mut() {
            for (name, before) in &frame.before {
                if !parent.before.contains_key(name) {
                    parent.before.insert(name.clone(), before.clone());
                }
            }
        }
        for (n, v) in finals {
            self.put(&n, v);
        }
    }

    fn condition(&self, kind: &Kind) -> Tri {
        match kind {
            Kind::If(toks) | Kind::Elif(toks) => expr::evaluate(toks, self),
            Kind::Ifdef(n) => expr::defined(n, self),
            Kind::Ifndef(n) => match expr::defined(n, self) {
                Tri::True => Tri::False,
                Tri::False => Tri::True,
                Tri::Unknown => Tri::Unknown,
            },
            _ => Tri::Unknown,
        }
    }

    fn exceptions_rtti(&self) -> (bool, bool) {
        if self.mode.cpp() {
            (self.build.exceptions, self.build.rtti)
        } else {
            (true, true)
        }
    }
}

impl expr::Env for State<'_> {
    fn macro_state(&self, name: &str) -> MacroState {
        match self.macros.get(name) {
            Some(Entry::Def(d)) => return MacroState::Def(d.clone()),
            Some(Entry::Builtin) => return MacroState::Builtin,
            Some(Entry::Undefined) => return MacroState::Undefined,
            Some(Entry::Unknown) => return MacroState::Unknown,
            None => {}
        }
        if clang14::never_defined(name) {
            return MacroState::Undefined;
        }
        if self.standalone || self.unfollowed_included {
            return MacroState::Unknown;
        }
        if self.tree.owned.contains(name) || !self.outside_included {
            return MacroState::Undefined;
        }
        MacroState::Unknown
    }

    fn has_include(&self, name: &str, _angled: bool) -> Option<bool> {
        // A header of the tree is found: the build's `-I` reaches its own headers.
        match self.tree.paths.find(&self.tree.files[self.file].path, name) {
            Found::File(_) => return Some(true),
            Found::Ambiguous => return None,
            Found::Absent => {}
        }
        let (e, r) = self.exceptions_rtti();
        clang14::query(self.mode, e, r, "__has_include", &format!("<{name}>")).map(|v| v != 0)
    }

    fn query(&self, function: &str, argument: &str) -> Option<i64> {
        let (e, r) = self.exceptions_rtti();
        clang14::query(self.mode, e, r, function, argument)
    }

    fn cpp(&self) -> bool {
        self.mode.cpp()
    }
}

/// Every preprocessing merged: which branches some reading compiles.
struct Records {
    /// Per file, per directive: bit 0 = a branch opened here was reached, bit 1 =
    /// its group was entered.
    marks: Vec<Vec<u8>>,
    touched: Vec<bool>,
    /// A reading of the file was cut short: nothing of it is blanked.
    poisoned: Vec<bool>,
}

impl Records {
    fn new(tree: &Tree) -> Records {
        Records {
            marks: tree
                .files
                .iter()
                .map(|f| vec![0; f.directives.len()])
                .collect(),
            touched: vec![false; tree.files.len()],
            poisoned: vec![false; tree.files.len()],
        }
    }

    /// Both records: a branch reached by either, a file touched or cut by either.
    fn union(mut self, other: Records) -> Records {
        for (mine, theirs) in self.marks.iter_mut().zip(other.marks) {
            for (m, t) in mine.iter_mut().zip(theirs) {
                *m |= t;
            }
        }
        for (m, t) in self.touched.iter_mut().zip(other.touched) {
            *m |= t;
        }
        for (m, t) in self.poisoned.iter_mut().zip(other.poisoned) {
            *m |= t;
        }
        self
    }

    fn merge_where(&mut self, run: &Run, keep: impl Fn(usize) -> bool) {
        for &f in &run.touched {
            if keep(f) {
                self.touched[f] = true;
                if run.aborted {
                    self.poisoned[f] = true;
                }
            }
        }
        for &(f, d) in &run.reached {
            if keep(f) {
                self.marks[f][d] |= 1;
            }
        }
        for &(f, d) in &run.entered {
            if keep(f) {
                self.marks[f][d] |= 2;
            }
        }
    }

    /// The ranges of one file no reading compiles: dead branches, and the directive
    /// lines of every group left with one branch (or none).
    fn blanks_of(&self, i: usize, file: &File) -> Vec<(usize, usize)> {
        if !self.touched[i] || self.poisoned[i] || !file.balanced {
            return Vec::new();
        }
        let marks = &self.marks[i];
        let mut ranges = Vec::new();
        for g in &file.groups {
            if marks[g.arms[0]] & 2 == 0 {
                continue;
            }
            let live = g.arms.iter().filter(|&&a| marks[a] & 1 != 0).count();
            let mut bounds = g.arms.clone();
            bounds.push(g.endif);
            for w in bounds.windows(2) {
                let (arm, next) = (w[0], w[1]);
                if marks[arm] & 1 == 0 {
                    ranges.push((file.directives[arm].end, file.directives[next].start));
                }
            }
            if live <= 1 {
                for &d in &bounds {
                    ranges.push((file.directives[d].start, file.directives[d].end));
                }
            }
        }
        ranges.sort_unstable();
        ranges
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{Configuration, Define};

    fn blanked(files: &[(&str, &str)], config: &CConfig) -> Vec<String> {
        let inputs: Vec<Input<'_>> = files
            .iter()
            .map(|(p, t)| Input {
                path: p,
                bytes: t.as_bytes(),
                cpp: p.ends_with(".cc") || p.ends_with(".hpp"),
            })
            .collect();
        let blanks = Blanks::collect(&inputs, config);
        files
            .iter()
            .map(|(p, t)| {
                let out = blanks
                    .apply(p, t.as_bytes())
                    .unwrap_or_else(|| t.as_bytes().to_vec());
                assert_eq!(out.len(), t.len());
                // The code that is left, one line per line that holds any.
                String::from_utf8(out)
                    .unwrap()
                    .lines()
                    .map(str::trim)
                    .filter(|l| !l.is_empty())
                    .collect::<Vec<_>>()
                    .join(" | ")
            })
            .collect()
    }

    fn default_c() -> CConfig {
        Configuration::default().c
    }

    #[test]
    fn platform_language_and_debug_conditions_are_decided() {
        let src = "#ifdef _WIN32\nint win(void);\n#else\nint posix(void);\n#endif\n#if defined(NDEBUG)\nint release(void);\n#elif __GNUC__ >= 4 && __x86_64__\nint debug(void);\n#else\nint other(void);\n#endif\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n";
        assert_eq!(
            blanked(&[("a.c", src)], &default_c()),
            ["int posix(void); | int debug(void);"]
        );
        let mut release = default_c();
        release.defines.push(Define::parse("NDEBUG").unwrap());
        assert_eq!(
            blanked(&[("a.c", src)], &release),
            ["int posix(void); | int release(void);"]
        );
    }

    #[test]
    fn the_trees_own_defines_apply_in_order_through_includes() {
        let header = "#ifndef CONF_H\n#define CONF_H\n#define FEATURE 0\n#define LEVEL 2\n#endif\n";
        let src = "#include \"conf.h\"\n#if FEATURE\nint on(void);\n#else\nint off(void);\n#endif\n#undef LEVEL\n#ifdef LEVEL\nint leveled(void);\n#endif\n#include \"conf.h\"\n#if LEVEL == 2\nint again(void);\n#endif\n";
        let out = blanked(&[("conf.h", header), ("main.c", src)], &default_c());
        // The guard stops the second inclusion: LEVEL stays undefined.
        assert_eq!(
            out[1],
            "#include \"conf.h\" | int off(void); | #undef LEVEL | #include \"conf.h\""
        );
        assert_eq!(
            out[0],
            "#define CONF_H | #define FEATURE 0 | #define LEVEL 2"
        );
    }

    #[test]
    fn what_an_outside_header_may_define_is_unknown_and_keeps_both_branches() {
        let src = "#include <stdio.h>\n#ifdef SOME_LIBRARY_MACRO\nint a(void);\n#else\nint b(void);\n#endif\n#ifdef MINE\nint c(void);\n#endif\n#define MINE 1\n";
        let out = blanked(&[("main.c", src)], &default_c());
        // MINE is the tree's own (defined below): undefined where it is tested.
        assert_eq!(
            out[0],
            "#include <stdio.h> | #ifdef SOME_LIBRARY_MACRO | int a(void); | #else | int b(void); | #endif | #define MINE 1"
        );
    }

    #[test]
    fn a_header_keeps_every_branch_some_unit_compiles() {
        let header = "#pragma once\n#ifdef __cplusplus\nint cpp(void);\n#else\nint c(void);\n#endif\n#if USE_X\nint x(void);\n#endif\n";
        let files = [
            ("api.h", header),
            ("a.c", "#include \"api.h\"\n"),
            ("b.cc", "#define USE_X 0\n#include \"api.h\"\n"),
        ];
        let out = blanked(&files, &default_c());
        assert_eq!(
            out[0],
            "#pragma once | #ifdef __cplusplus | int cpp(void); | #else | int c(void); | #endif"
        );
    }

    #[test]
    fn a_define_under_an_unknown_condition_is_unknown() {
        // `#if MODE == 1` is unknown: its one branch is kept, and with no other
        // branch to tell apart its directive lines go (the parse reads the code).
        let src = "#include <x.h>\n#ifdef OUTSIDE\n#define MODE 1\n#else\n#define MODE 2\n#endif\n#if MODE == 1\nint one(void);\n#endif\n#if 0\nint never(void);\n#endif\n";
        let out = blanked(&[("m.c", src)], &default_c());
        assert_eq!(
            out[0],
            "#include <x.h> | #ifdef OUTSIDE | #define MODE 1 | #else | #define MODE 2 | #endif | int one(void);"
        );
    }

    #[test]
    fn a_maybe_compiled_branch_is_read_as_if_it_ran() {
        // Inside `#ifdef OUTSIDE`, M is 1; after it M is unknown. g.h, first read
        // where OUTSIDE may be undefined, defines G_VALUE 3 either way. The
        // `#ifdef OUTSIDE` group keeps one branch, so its directive lines go.
        let g = "#ifndef G_H\n#define G_H\n#define G_VALUE 3\n#endif\n";
        let src = "#include <x.h>\n#ifdef OUTSIDE\n#define M 1\n#include \"g.h\"\n#if M\nint inner(void);\n#endif\n#endif\n#include \"g.h\"\n#if G_VALUE == 3\nint three(void);\n#else\nint other(void);\n#endif\n#if M\nint after(void);\n#else\nint not_m(void);\n#endif\n";
        let out = blanked(&[("g.h", g), ("m.c", src)], &default_c());
        assert_eq!(
            out[1],
            "#include <x.h> | #define M 1 | #include \"g.h\" | int inner(void); | #include \"g.h\" | int three(void); | #if M | int after(void); | #else | int not_m(void); | #endif"
        );
    }

    #[test]
    fn a_lone_header_knows_only_what_no_includer_changes() {
        let header = "#ifndef LONE_H\n#define LONE_H\n#ifdef _WIN32\nint w(void);\n#endif\n#ifdef __cplusplus\nint cpp(void);\n#endif\n#ifdef CONFIGURED\nint conf(void);\n#endif\n#define CONFIGURED\n#endif\n";
        let out = blanked(&[("lone.h", header)], &default_c());
        assert_eq!(
            out[0],
            "#define LONE_H | int cpp(void); | int conf(void); | #define CONFIGURED"
        );
    }

    #[test]
    fn units_own_defines_and_varying_names() {
        let src = "#ifdef ONLY_HERE\nint here(void);\n#endif\n#ifdef VARIES\nint v(void);\n#else\nint nv(void);\n#endif\n";
        let mut c = default_c();
        c.units.insert(
            "a.c".into(),
            vec![UnitMacro::Define(Define::parse("ONLY_HERE").unwrap())],
        );
        c.varying.push("VARIES".into());
        let out = blanked(&[("a.c", src), ("b.c", src)], &c);
        assert_eq!(
            out[0],
            "int here(void); | #ifdef VARIES | int v(void); | #else | int nv(void); | #endif"
        );
        assert_eq!(
            out[1],
            "#ifdef VARIES | int v(void); | #else | int nv(void); | #endif"
        );
    }

    #[test]
    fn the_language_standard_sets_cplusplus() {
        let src = "#if __cplusplus >= 201703L\nint seventeen();\n#else\nint older();\n#endif\n";
        assert_eq!(blanked(&[("a.cc", src)], &default_c()), ["int older();"]);
        let mut c = default_c();
        c.cpp_std = "c++17".into();
        assert_eq!(blanked(&[("a.cc", src)], &c), ["int seventeen();"]);
    }

    #[test]
    fn an_include_graph_past_the_budget_is_cut_and_nothing_it_reached_is_blanked() {
        // Each header includes the next twice, unguarded: 2^30 readings.
        let texts: Vec<(String, String)> = (0..30)
            .map(|i| {
                (
                    format!("h{i}.h"),
                    format!(
                        "#if 0\nint dead{i};\n#endif\n#include \"h{n}.h\"\n#include \"h{n}.h\"\n",
                        n = i + 1
                    ),
                )
            })
            .chain([(
                "main.c".to_string(),
                "#include \"h0.h\"\n#if 0\nint x;\n#endif\n".to_string(),
            )])
            .collect();
        let files: Vec<(&str, &str)> = texts
            .iter()
            .map(|(p, t)| (p.as_str(), t.as_str()))
            .collect();
        let started = std::time::Instant::now();
        let out = blanked(&files, &default_c());
        assert!(started.elapsed().as_secs() < 20);
        assert!(out[0].starts_with("#if 0 | int dead0;"), "{}", out[0]);
        assert!(out[30].contains("int x;"), "{}", out[30]);
    }

    #[test]
    fn an_unbalanced_file_is_left_alone() {
        let src = "#if 0\nint a(void);\n";
        assert_eq!(
            blanked(&[("a.c", src)], &default_c()),
            ["#if 0 | int a(void);"]
        );
    }
}
