//! The clang AST reading of a C corpus (`clang-ast`), the second reading of the
//! clang oracle (`harness crosscheck --corpus hiredis`): every translation unit the
//! clang oracle compiles, with the same flags, dumped by
//! `clang -fsyntax-only -Xclang -ast-dump=json`, and each `CallExpr` read as the
//! front end bound it — its callee a `DeclRefExpr` to a `FunctionDecl` (a direct
//! call, judged) or any other expression (a call through a value, unjudged).
//!
//! It shares nothing with the IR reading but the unit list: no IR, no debug info,
//! no reading of source lines. A site is where the callee's name token is
//! spelled: in the file, or in a macro's arguments (`isMacroArgExpansion`); a call
//! whose callee a macro's own body spells is set apart (`macro`) at the macro's
//! name. The target is the callee's definition by its name line: in the unit for a
//! `static` function, else the external definition any unit gives; no definition
//! in the tree is `outside`. Calls of `__builtin_*` are set apart (`builtin`: the
//! IR holds no call for most). C++ units are not read (`not_implemented`).
//!
//! The JSON dump writes a location's `file` and `line` only when they differ from
//! the location printed before it, so locations are resolved in document order:
//! the dump is parsed into a tree that keeps object keys in order, by an explicit
//! stack (no recursion limit), and walked in that order.

use std::collections::HashMap;
use std::path::Path;

use crate::clang::{cmake_units, failed, file_units, version_word, ClangOptions, Unit};
use crate::llvm_truth::ir_truth;
use crate::oracle::{Oracle, OracleOptions};
use crate::rustc::absolute_dir;
use crate::toolchain::{Outcome, Tool};
use crate::truth::{OracleStamp, Position, Truth, TruthSite, TruthTarget};

/// Bumped whenever what the adapter emits changes (truths are cached by it). 2: an
/// argument another macro's body passes is that body's call, not a written one.
pub const ADAPTER_VERSION: &str = "2";

/// Deepest AST the walk follows (a deeper node's calls are not read).
const MAX_DEPTH: usize = 4096;

/// The most bytes one unit's dump may have.
const DUMP_CAP: u64 = 1 << 31;

/// The clang AST reading.
#[derive(Debug, Clone, Copy, Default)]
pub struct ClangAst;

impl Oracle for ClangAst {
    fn name(&self) -> &'static str {
        "clang-ast"
    }

    fn version(&self) -> &'static str {
        ADAPTER_VERSION
    }

    fn toolchain_version(&self) -> Result<String, Outcome> {
        Tool::locate("clang")?.version(&["--version"])
    }

    fn run(&self, corpus_dir: &Path, options: &OracleOptions<'_>) -> Result<Truth, Outcome> {
        let clang_options = ClangOptions::from_json(options.options).map_err(failed)?;
        if !clang_options.cmake_stubs.is_empty() {
            return Err(not_read("a tree built with stand-ins"));
        }
        let clang = Tool::locate("clang")?;
        let version = self.toolchain_version()?;
        let root = corpus_dir
            .canonicalize()
            .map_err(|e| failed(format!("cannot read the root: {e}")))?;
        let work = absolute_dir(options.work_dir)?;
        let units = match clang_options.build.as_str() {
            "cmake" => cmake_units(&root, &work, &clang_options, options)?,
            _ => file_units(&root, &clang_options)
                .map_err(|e| failed(format!("cannot list the tree: {e}")))?,
        };
        if units.iter().any(|u| u.cpp) {
            return Err(not_read("C++ units"));
        }
        let mut read = Vec::new();
        let mut rejected = Vec::new();
        for unit in &units {
            match dump(&clang, unit, options) {
                Ok(text) => read.push(unit_calls(&parse(&text).map_err(failed)?, &root)),
                Err(Outcome::ToolFailed { detail, .. }) => {
                    rejected.push(format!("{}: {detail}", unit.file.display()))
                }
                Err(other) => return Err(other),
            }
        }
        if units.is_empty() || rejected.len() * 4 > units.len() {
            return Err(failed(format!(
                "clang rejected {} of {} units",
                rejected.len(),
                units.len()
            )));
        }
        let sites = sites_of(read);
        let oracle = OracleStamp::at_name("clang-ast", version_word(&version), ADAPTER_VERSION);
        ir_truth(options.corpus_id, oracle, sites).map_err(failed)
    }
}

fn not_read(what: &str) -> Outcome {
    Outcome::NotImplemented {
        tool: "clang-ast".into(),
        detail: format!("the AST reading does not read {what}"),
    }
}

/// One unit's AST as JSON text.
fn dump(clang: &Tool, unit: &Unit, options: &OracleOptions<'_>) -> Result<String, Outcome> {
    let finished = clang
        .command(&unit.directory)
        .args(&unit.arguments[1..])
        .args(["-fsyntax-only", "-w", "-Xclang", "-ast-dump=json"])
        .output_cap(DUMP_CAP)
        .timeout(options.timeout)
        .run()?;
    Ok(finished.stdout)
}

/// A JSON value with object keys in document order.
#[derive(Debug, Clone, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    Num(i64),
    Str(String),
    Arr(Vec<Json>),
    Obj(Vec<(String, Json)>),
}

impl Json {
    fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Obj(fields) => fields.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    fn str(&self, key: &str) -> Option<&str> {
        match self.get(key)? {
            Json::Str(s) => Some(s),
            _ => None,
        }
    }

    fn num(&self, key: &str) -> Option<i64> {
        match self.get(key)? {
            Json::Num(n) => Some(*n),
            _ => None,
        }
    }

    fn inner(&self) -> &[Json] {
        match self.get("inner") {
            Some(Json::Arr(items)) => items,
            _ => &[],
        }
    }
}

/// A container being filled while parsing.
enum Open {
    Arr(Vec<Json>),
    Obj(Vec<(String, Json)>, Option<String>),
}

/// Parses JSON text with an explicit stack, so nesting depth is bounded by memory
/// only. Numbers keep their integer part.
pub fn parse(text: &str) -> Result<Json, String> {
    let b = text.as_bytes();
    let mut i = 0;
    let mut stack: Vec<Open> = Vec::new();
    loop {
        i = skip_ws(b, i);
        let value = match b.get(i) {
            None => return Err("the AST dump ends early".into()),
            Some(b'{') => {
                i += 1;
                stack.push(Open::Obj(Vec::new(), None));
                i = skip_ws(b, i);
                if b.get(i) == Some(&b'}') {
                    i += 1;
                    stack.pop();
                    Json::Obj(Vec::new())
                } else {
                    let (key, next) = string_at(b, i)?;
                    i = expect(b, next, b':')?;
                    if let Some(Open::Obj(_, k)) = stack.last_mut() {
                        *k = Some(key);
                    }
                    continue;
                }
            }
            Some(b'[') => {
                i += 1;
                i = skip_ws(b, i);
                if b.get(i) == Some(&b']') {
                    i += 1;
                    Json::Arr(Vec::new())
                } else {
                    stack.push(Open::Arr(Vec::new()));
                    continue;
                }
            }
            Some(b'"') => {
                let (s, next) = string_at(b, i)?;
                i = next;
                Json::Str(s)
            }
            Some(b't') if b[i..].starts_with(b"true") => {
                i += 4;
                Json::Bool(true)
            }
            Some(b'f') if b[i..].starts_with(b"false") => {
                i += 5;
                Json::Bool(false)
            }
            Some(b'n') if b[i..].starts_with(b"null") => {
                i += 4;
                Json::Null
            }
            Some(_) => {
                let start = i;
                while i < b.len() && matches!(b[i], b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')
                {
                    i += 1;
                }
                let word = &text[start..i];
                let whole = word.split(['.', 'e', 'E']).next().unwrap_or("");
                let n = whole
                    .parse::<i64>()
                    .map_err(|_| format!("not a number at byte {start}: `{word}`"))?;
                Json::Num(n)
            }
        };
        // Place the value, closing every container it completes.
        let mut value = value;
        loop {
            let Some(top) = stack.last_mut() else {
                return Ok(value);
            };
            match top {
                Open::Arr(items) => items.push(value),
                Open::Obj(fields, key) => {
                    let key = key.take().ok_or("a value without a key")?;
                    fields.push((key, value));
                }
            }
            i = skip_ws(b, i);
            match (b.get(i), stack.last_mut()) {
                (Some(b','), Some(Open::Arr(_))) => {
                    i += 1;
                    break;
                }
                (Some(b','), Some(Open::Obj(_, key))) => {
                    let (k, next) = string_at(b, skip_ws(b, i + 1))?;
                    i = expect(b, next, b':')?;
                    *key = Some(k);
                    break;
                }
                (Some(b']'), Some(Open::Arr(_))) => {
                    i += 1;
                    let Some(Open::Arr(items)) = stack.pop() else {
                        unreachable!("matched an array")
                    };
                    value = Json::Arr(items);
                }
                (Some(b'}'), Some(Open::Obj(..))) => {
                    i += 1;
                    let Some(Open::Obj(fields, _)) = stack.pop() else {
                        unreachable!("matched an object")
                    };
                    value = Json::Obj(fields);
                }
                _ => return Err(format!("unexpected byte at {i} in the AST dump")),
            }
        }
    }
}

fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && b[i].is_ascii_whitespace() {
        i += 1;
    }
    i
}

fn expect(b: &[u8], i: usize, c: u8) -> Result<usize, String> {
    let i = skip_ws(b, i);
    if b.get(i) == Some(&c) {
        Ok(i + 1)
    } else {
        Err(format!("expected `{}` at byte {i}", c as char))
    }
}

/// The string starting at the `"` at `i`, unescaped, and the byte after it.
fn string_at(b: &[u8], i: usize) -> Result<(String, usize), String> {
    if b.get(i) != Some(&b'"') {
        return Err(format!("expected a string at byte {i}"));
    }
    let mut out: Vec<u8> = Vec::new();
    let mut k = i + 1;
    while k < b.len() {
        match b[k] {
            b'"' => return Ok((String::from_utf8_lossy(&out).into_owned(), k + 1)),
            b'\\' => {
                let c = *b.get(k + 1).ok_or("an escape at the end")?;
                match c {
                    b'n' => out.push(b'\n'),
                    b't' => out.push(b'\t'),
                    b'r' => out.push(b'\r'),
                    b'b' | b'f' => out.push(b' '),
                    b'u' => {
                        let hex = std::str::from_utf8(b.get(k + 2..k + 6).ok_or("a short \\u")?)
                            .map_err(|_| "a bad \\u")?;
                        let code = u32::from_str_radix(hex, 16).map_err(|_| "a bad \\u")?;
                        let ch = char::from_u32(code).unwrap_or('\u{fffd}');
                        out.extend(ch.to_string().as_bytes());
                        k += 4;
                    }
                    other => out.push(other),
                }
                k += 2;
            }
            c => {
                out.push(c);
                k += 1;
            }
        }
    }
    Err("an unclosed string in the AST dump".into())
}

/// A resolved source position: file as the dump writes it, line, column.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Loc {
    file: String,
    line: u32,
    col: u32,
}

/// Where a node's begin lies: spelled in a file (or a macro's arguments), or in a
/// macro's own body (then at the macro's expansion).
#[derive(Debug, Clone, PartialEq, Eq)]
enum Spot {
    Written(Loc),
    MacroBody(Loc),
}

/// The last file and line the dump printed.
#[derive(Default)]
struct LocState {
    file: String,
    line: u32,
}

impl LocState {
    /// A bare location (`offset`, `file`?, `line`?, `col`), updating the state.
    fn bare(&mut self, loc: &Json) -> Option<Loc> {
        if let Some(f) = loc.str("file") {
            self.file = f.to_string();
        }
        if let Some(l) = loc.num("line") {
            self.line = l as u32;
        }
        let col = loc.num("col")? as u32;
        Some(Loc {
            file: self.file.clone(),
            line: self.line,
            col,
        })
    }

    /// A location as the dump writes it, bare or split into spelling and expansion.
    fn spot(&mut self, loc: &Json) -> Option<Spot> {
        match (loc.get("spellingLoc"), loc.get("expansionLoc")) {
            (Some(spelling), Some(expansion)) => {
                let s = self.bare(spelling);
                let e = self.bare(expansion);
                let in_argument =
                    matches!(expansion.get("isMacroArgExpansion"), Some(Json::Bool(true)));
                match (s, e) {
                    // An argument written at the macro's use: spelled in the same
                    // file, after the macro's name. One spelled before it is an
                    // argument another macro's body passes (`test_cond(strncmp(…))`
                    // inside a `#define`): that body's call.
                    (Some(s), Some(e)) if in_argument && written_after(&s, &e) => {
                        Some(Spot::Written(s))
                    }
                    (_, e) => e.map(Spot::MacroBody),
                }
            }
            _ => self.bare(loc).map(Spot::Written),
        }
    }
}

/// Whether `spelling` lies in the same file as `expansion`, at or after it.
fn written_after(spelling: &Loc, expansion: &Loc) -> bool {
    spelling.file == expansion.file
        && (spelling.line, spelling.col) >= (expansion.line, expansion.col)
}

/// A function declaration of one unit.
#[derive(Debug, Clone)]
struct FunctionDecl {
    name: String,
    at: Loc,
    defined: bool,
    is_static: bool,
}

/// A call of one unit: where the callee is spelled, its name, the declaration id it
/// references (`None`: not a function), and the enclosing function.
#[derive(Debug, Clone)]
struct Call {
    spot: Spot,
    name: String,
    function: Option<String>,
    caller: Option<Loc>,
}

/// What one unit says.
#[derive(Debug, Default)]
struct UnitCalls {
    decls: HashMap<String, FunctionDecl>,
    calls: Vec<Call>,
    root: std::path::PathBuf,
}

/// The calls and function declarations of one unit's AST.
fn unit_calls(ast: &Json, root: &Path) -> UnitCalls {
    let mut out = UnitCalls {
        root: root.to_path_buf(),
        ..UnitCalls::default()
    };
    let mut state = LocState::default();
    let mut begins: HashMap<String, Spot> = HashMap::new();
    walk(ast, 0, None, &mut state, &mut begins, &mut out);
    out
}

/// Resolves the node's locations in document order, then its children's; records
/// function declarations and calls.
fn walk(
    node: &Json,
    depth: usize,
    caller: Option<&Loc>,
    state: &mut LocState,
    begins: &mut HashMap<String, Spot>,
    out: &mut UnitCalls,
) {
    if depth > MAX_DEPTH {
        return;
    }
    let Json::Obj(fields) = node else {
        return;
    };
    let mut own: Option<Spot> = None;
    let mut begin: Option<Spot> = None;
    for (key, value) in fields {
        match key.as_str() {
            "loc" => own = state.spot(value),
            "range" => {
                if let Some(b) = value.get("begin") {
                    begin = state.spot(b);
                }
                if let Some(e) = value.get("end") {
                    state.spot(e);
                }
            }
            _ => {}
        }
    }
    let kind = node.str("kind").unwrap_or("");
    let id = node.str("id").unwrap_or("").to_string();
    if let Some(b) = begin.clone() {
        begins.insert(id.clone(), b);
    }
    let mut here = caller.cloned();
    if kind == "FunctionDecl" {
        if let Some(Spot::Written(at) | Spot::MacroBody(at)) = own.clone() {
            let defined = node
                .inner()
                .iter()
                .any(|c| c.str("kind") == Some("CompoundStmt"));
            if defined {
                here = Some(at.clone());
            }
            out.decls.insert(
                id.clone(),
                FunctionDecl {
                    name: node.str("name").unwrap_or("").to_string(),
                    at,
                    defined,
                    is_static: node.str("storageClass") == Some("static"),
                },
            );
        }
    }
    for child in node.inner() {
        walk(child, depth + 1, here.as_ref(), state, begins, out);
    }
    if kind == "CallExpr" {
        if let Some(call) = call_of(node, caller, begins) {
            out.calls.push(call);
        }
    }
}

/// The callee of a `CallExpr` (its first child, through casts and parentheses).
fn call_of(node: &Json, caller: Option<&Loc>, begins: &HashMap<String, Spot>) -> Option<Call> {
    let mut callee = node.inner().first()?;
    for _ in 0..64 {
        match callee.str("kind") {
            Some("ImplicitCastExpr" | "ParenExpr") => callee = callee.inner().first()?,
            _ => break,
        }
    }
    let spot = begins.get(callee.str("id")?)?.clone();
    let kind = callee.str("kind").unwrap_or("");
    let referenced = callee.get("referencedDecl");
    let function = (kind == "DeclRefExpr"
        && referenced.and_then(|r| r.str("kind")) == Some("FunctionDecl"))
    .then(|| {
        referenced
            .and_then(|r| r.str("id"))
            .unwrap_or("")
            .to_string()
    });
    let name = match kind {
        "DeclRefExpr" => referenced.and_then(|r| r.str("name")).unwrap_or(""),
        "MemberExpr" => callee.str("name").unwrap_or(""),
        _ => "",
    };
    Some(Call {
        spot,
        name: name.to_string(),
        function,
        caller: caller.cloned(),
    })
}

/// The truth sites of every unit: definitions found per unit (static) or across
/// units (external linkage), sites merged by position and name.
fn sites_of(units: Vec<UnitCalls>) -> Vec<TruthSite> {
    let mut external: HashMap<String, Loc> = HashMap::new();
    for unit in &units {
        let mut decls: Vec<&FunctionDecl> = unit.decls.values().collect();
        decls.sort_by(|a, b| {
            (&a.at.file, a.at.line, &a.name).cmp(&(&b.at.file, b.at.line, &b.name))
        });
        for d in decls {
            if d.defined && !d.is_static {
                external
                    .entry(d.name.clone())
                    .or_insert_with(|| d.at.clone());
            }
        }
    }
    let mut merged: std::collections::BTreeMap<(String, u32, u32, String), TruthSite> =
        std::collections::BTreeMap::new();
    for unit in &units {
        for call in &unit.calls {
            let Some(site) = site_of(unit, call, &external) else {
                continue;
            };
            let key = (
                site.file.clone(),
                site.line,
                site.column.unwrap_or(0),
                site.name.clone(),
            );
            merged
                .entry(key)
                .and_modify(|s| {
                    for t in &site.targets {
                        if !s.targets.contains(t) {
                            s.targets.push(t.clone());
                        }
                    }
                    s.targets.sort();
                })
                .or_insert(site);
        }
    }
    merged.into_values().collect()
}

/// A path the dump writes, relative to the root when it lies in the tree.
fn in_tree(root: &Path, file: &str) -> Option<String> {
    let path = Path::new(file);
    let absolute = if path.is_absolute() {
        path.to_path_buf()
    } else {
        root.join(path)
    };
    let normal = crate::llvm_ir::normalize(&absolute);
    let rel = normal.strip_prefix(root).ok()?;
    let text = rel.to_string_lossy().replace('\\', "/");
    (!text.is_empty() && !text.starts_with("..")).then_some(text)
}

fn site_of(unit: &UnitCalls, call: &Call, external: &HashMap<String, Loc>) -> Option<TruthSite> {
    let (at, body) = match &call.spot {
        Spot::Written(l) => (l, false),
        Spot::MacroBody(l) => (l, true),
    };
    let file = in_tree(&unit.root, &at.file)?;
    let caller = call
        .caller
        .as_ref()
        .and_then(|c| in_tree(&unit.root, &c.file).map(|file| Position { file, line: c.line }));
    let mut site = TruthSite {
        file,
        line: at.line.max(1),
        column: (at.col > 0).then_some(at.col),
        caller,
        name: if call.name.is_empty() {
            "(call)".into()
        } else {
            call.name.clone()
        },
        targets: vec![],
        unjudged: None,
        implicit: None,
        expect: None,
        primary: false,
    };
    let Some(id) = &call.function else {
        site.unjudged = Some("indirect_call".into());
        return Some(site);
    };
    if body {
        site.implicit = Some("macro".into());
        return Some(site);
    }
    if call.name.starts_with("__builtin") {
        site.implicit = Some("builtin".into());
        return Some(site);
    }
    let declared = unit.decls.get(id);
    let local = declared.and_then(|d| {
        unit.decls
            .values()
            .filter(|o| o.defined && o.name == d.name)
            .min_by(|a, b| (&a.at.file, a.at.line).cmp(&(&b.at.file, b.at.line)))
    });
    let definition = local
        .map(|d| d.at.clone())
        .or_else(|| external.get(&call.name).cloned());
    let target = definition
        .and_then(|d| {
            in_tree(&unit.root, &d.file).map(|file| TruthTarget::InTree { file, line: d.line })
        })
        .unwrap_or(TruthTarget::Outside {
            symbol: call.name.clone(),
        });
    site.targets = vec![target];
    Some(site)
}

#[cfg(test)]
mod tests {
    use super::*;

    const UTIL: &str = "#include \"util.h\"\nstatic int twice(int x) { return 2 * x; }\nint add(int a, int b) { return twice(a) + b; }\n";
    const HEADER: &str = "int add(int a, int b);\n#define CHECK(c, msg) do { if (!(c)) report(msg); } while (0)\nvoid report(const char *m);\n";
    const MAIN: &str = "#include <string.h>\n#include \"util.h\"\nvoid report(const char *m) { (void)strlen(m); }\nstatic int twice(int x) { return x + x; }\nint main(void) {\n  int (*f)(int, int) = add;\n  CHECK(add(1, 2) == 3 &&\n        twice(2) == 4, \"sums\");\n  return f(twice(1), add(0, 0));\n}\n";

    /// Runs one adapter over the small tree.
    fn read(oracle: &dyn Oracle, root: &Path) -> Truth {
        let work = tempfile::tempdir().unwrap();
        let options = serde_json::json!({"build": "files", "extensions": ["c"], "flags": ["-std=c99", "-I."]});
        let build = serde_json::json!({"std": ["c99"]});
        let run = OracleOptions {
            corpus_id: "small",
            language: "c",
            options: &options,
            build: &build,
            work_dir: work.path(),
            cache_dir: work.path(),
            timeout: std::time::Duration::from_secs(120),
        };
        oracle.run(root, &run).expect("the adapter runs")
    }

    fn judged(truth: &Truth) -> Vec<String> {
        truth
            .sites
            .iter()
            .filter(|s| s.is_judged())
            .map(|s| {
                let targets: Vec<String> = s
                    .targets
                    .iter()
                    .map(|t| match t {
                        TruthTarget::InTree { file, line } => format!("{file}:{line}"),
                        TruthTarget::Outside { symbol } => format!("outside {symbol}"),
                    })
                    .collect();
                format!(
                    "{}:{}:{} {} -> {}",
                    s.file,
                    s.line,
                    s.column.unwrap_or(0),
                    s.name,
                    targets.join(" ")
                )
            })
            .collect()
    }

    /// The IR reading and the AST reading of one small C tree judge the same sites
    /// the same way: a static function per unit, a call on a macro argument's
    /// second line, a call through a pointer left unjudged by both.
    #[test]
    fn the_ast_and_the_ir_agree_on_a_small_c_tree() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("util.c"), UTIL).unwrap();
        std::fs::write(dir.path().join("util.h"), HEADER).unwrap();
        std::fs::write(dir.path().join("main.c"), MAIN).unwrap();
        let ir = read(&crate::clang::Clang, dir.path());
        let ast = read(&ClangAst, dir.path());
        let expected = [
            "main.c:3:36 strlen -> outside strlen",
            "main.c:7:9 add -> util.c:3",
            "main.c:8:9 twice -> main.c:4",
            "main.c:9:12 twice -> main.c:4",
            "main.c:9:22 add -> util.c:3",
            "util.c:3:32 twice -> util.c:2",
        ];
        assert_eq!(judged(&ast), expected);
        assert_eq!(judged(&ir), expected);
        let unjudged = |t: &Truth| {
            t.sites
                .iter()
                .filter(|s| s.unjudged.as_deref() == Some("indirect_call"))
                .count()
        };
        assert_eq!((unjudged(&ir), unjudged(&ast)), (1, 1));
    }

    #[test]
    fn the_parser_keeps_key_order_and_nests_deep() {
        let j = parse(r#"{"b": 1, "a": [true, null, "x\"y"], "c": {}}"#).unwrap();
        let Json::Obj(fields) = &j else {
            panic!("an object")
        };
        let keys: Vec<&str> = fields.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, ["b", "a", "c"]);
        assert_eq!(
            j.get("a").unwrap(),
            &Json::Arr(vec![Json::Bool(true), Json::Null, Json::Str("x\"y".into())])
        );
        let deep = format!("{}1{}", "[".repeat(5000), "]".repeat(5000));
        assert!(parse(&deep).is_ok());
        assert!(parse("{\"a\": }").is_err());
    }

    #[test]
    fn elided_files_and_lines_come_from_the_location_before() {
        let mut state = LocState::default();
        let first = parse(r#"{"offset": 1, "file": "a.c", "line": 3, "col": 5}"#).unwrap();
        let second = parse(r#"{"offset": 9, "col": 7}"#).unwrap();
        let macro_arg = parse(
            r#"{"spellingLoc": {"offset": 20, "line": 4, "col": 9},
                "expansionLoc": {"offset": 15, "line": 3, "col": 2, "isMacroArgExpansion": true}}"#,
        )
        .unwrap();
        let body = parse(
            r#"{"spellingLoc": {"offset": 2, "line": 1, "col": 20},
                "expansionLoc": {"offset": 15, "line": 3, "col": 2}}"#,
        )
        .unwrap();
        let loc = |line, col| Loc {
            file: "a.c".into(),
            line,
            col,
        };
        assert_eq!(state.spot(&first), Some(Spot::Written(loc(3, 5))));
        assert_eq!(state.spot(&second), Some(Spot::Written(loc(3, 7))));
        assert_eq!(state.spot(&macro_arg), Some(Spot::Written(loc(4, 9))));
        assert_eq!(state.spot(&body), Some(Spot::MacroBody(loc(3, 2))));
        // An argument spelled before its expansion: another macro's body wrote it.
        let nested = parse(
            r#"{"spellingLoc": {"offset": 2, "line": 1, "col": 20},
                "expansionLoc": {"offset": 15, "line": 3, "col": 2, "isMacroArgExpansion": true}}"#,
        )
        .unwrap();
        assert_eq!(state.spot(&nested), Some(Spot::MacroBody(loc(3, 2))));
    }
}
