//! The calls of a SCIP index (scip-python 0.6.6, scip-typescript 0.4.0), read for the
//! two SCIP peers (harness/src/peer_scip.rs) and for scip-python as the pytrace
//! oracle's second reading ([`crate::scip_python`]).
//!
//! The index is read by the one SCIP reader of the project, oracles/scip/scip-calls.js
//! (the protobuf classes scip-typescript ships), in its occurrences mode: every
//! occurrence of the tree's documents as (line, byte column, symbol, definition?,
//! enclosing lines). SCIP has no notion of a call: a call is a reference occurrence
//! whose start is the called name's token of a call in the file's syntax tree
//! (`f()`, `a.f()`, `new T()`, `@d`), read here with the grammars the engine uses.
//!
//! What a call names (research J17, D76):
//! - a function, method or type the tree defines: `in_tree`, at its definition's
//!   name token (a type: a construction; the truths accept the class line);
//! - a term or a local the tree defines with an enclosing range (scip-typescript's
//!   `const f = () => ...`, a local `def`): `in_tree`;
//! - any other term, parameter or local (an attribute, a `require` binding, a
//!   variable): `undetermined` (SCIP names the variable, not its value);
//! - a symbol no document of the tree defines: `outside` when its package is none
//!   of the tree's, else `unresolved` (the tree's own name with no definition).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde::Deserialize;

use crate::toolchain::{Outcome, Tool};

/// One occurrence as the reader writes it.
#[derive(Debug, Clone, Deserialize, PartialEq, Eq)]
pub struct Occurrence {
    pub line: u32,
    /// 1-based byte column of the occurrence's start.
    pub column: u32,
    pub symbol: String,
    #[serde(default)]
    pub definition: bool,
    /// A definition's enclosing range: first and last line.
    #[serde(default)]
    pub enclosing: Option<[u32; 2]>,
}

/// The occurrences of one document of the tree (root-relative path).
#[derive(Debug, Clone, Deserialize)]
pub struct Document {
    pub file: String,
    pub occurrences: Vec<Occurrence>,
}

/// The reader's output.
#[derive(Debug, Clone, Deserialize)]
pub struct Dump {
    /// The indexer's own name and version (`scip-python 0.6.6`).
    #[serde(default)]
    pub tool: String,
    pub documents: Vec<Document>,
}

/// What a symbol is, by its last descriptor's suffix (the SCIP symbol grammar).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SymbolKind {
    /// `f().` with a type descriptor before it.
    Method,
    /// `f().` of a module or of another function.
    Function,
    /// `T#`.
    Type,
    /// `x.`: a variable, a property, an attribute.
    Term,
    /// `(x)`.
    Parameter,
    /// `local N`.
    Local,
    /// A module, a namespace, a macro, a type parameter.
    Other,
}

impl SymbolKind {
    pub fn of(symbol: &str) -> SymbolKind {
        if symbol.starts_with("local ") {
            return SymbolKind::Local;
        }
        if let Some(before) = symbol.strip_suffix(").") {
            // `C#run().` (a method of a type) or `m/f().`, `f().inner().`: the
            // descriptor before the name says which.
            let owner = before.rfind('(').map_or(before, |k| &before[..k]);
            let cut = owner.rfind(['#', '/', '.', ':']);
            return match cut.map(|k| owner.as_bytes()[k]) {
                Some(b'#') => SymbolKind::Method,
                _ => SymbolKind::Function,
            };
        }
        if symbol.ends_with('#') {
            SymbolKind::Type
        } else if symbol.ends_with(')') {
            SymbolKind::Parameter
        } else if symbol.ends_with('.') {
            SymbolKind::Term
        } else {
            SymbolKind::Other
        }
    }

    /// The report's entity kind.
    pub fn entity_kind(self) -> &'static str {
        match self {
            SymbolKind::Method => "method",
            SymbolKind::Function | SymbolKind::Local | SymbolKind::Term => "function",
            SymbolKind::Type => "class",
            SymbolKind::Parameter | SymbolKind::Other => "other",
        }
    }
}

/// The package of a global symbol (`scheme manager package version descriptors`).
fn package_of(symbol: &str) -> Option<&str> {
    let mut fields = symbol.splitn(5, ' ');
    let (_scheme, _manager, package) = (fields.next()?, fields.next()?, fields.next()?);
    Some(package)
}

/// The descriptors of a global symbol (its name inside its package).
pub fn descriptors(symbol: &str) -> &str {
    symbol.splitn(5, ' ').nth(4).unwrap_or(symbol)
}

/// A definition of the tree a call can land on or a site can sit in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Definition {
    pub symbol: String,
    pub kind: SymbolKind,
    pub file: String,
    /// The name token.
    pub line: u32,
    pub column: u32,
    /// The enclosing range, when the index gives one.
    pub span: Option<[u32; 2]>,
}

impl Definition {
    /// A function, method or type, or a term or local with a body.
    pub fn is_callable(&self) -> bool {
        is_callable(self.kind, self.span)
    }
}

/// What one call names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Callee {
    /// The index of the definition in [`ScipCalls::definitions`].
    InTree(usize),
    Outside(String),
    Unresolved(String),
    Undetermined(String),
}

/// One call of the tree the index names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScipCall {
    pub file: String,
    pub line: u32,
    pub column: u32,
    pub name: String,
    /// The innermost definition with an enclosing range holding the site.
    pub caller: Option<usize>,
    pub callee: Callee,
}

/// The calls of one index.
#[derive(Debug, Clone, Default)]
pub struct ScipCalls {
    pub tool: String,
    pub definitions: Vec<Definition>,
    pub calls: Vec<ScipCall>,
}

/// Whether a definition is one a call lands on and a caller can be: a function,
/// a method or a type, or a term or local with a body (an enclosing range).
fn is_callable(kind: SymbolKind, span: Option<[u32; 2]>) -> bool {
    match kind {
        SymbolKind::Method | SymbolKind::Function | SymbolKind::Type => true,
        SymbolKind::Term | SymbolKind::Local => span.is_some(),
        SymbolKind::Parameter | SymbolKind::Other => false,
    }
}

/// The definitions of the tree: the first definition occurrence of each global
/// symbol; a local's per document (`local N` repeats across documents).
struct Definitions {
    all: Vec<Definition>,
    global: BTreeMap<String, usize>,
    local: BTreeMap<(String, String), usize>,
    /// The packages the tree defines symbols of.
    packages: BTreeSet<String>,
    /// A function's implementation where the index gives its definition at an
    /// `@overload` stub ([`overload_implementations`]).
    implementation: BTreeMap<String, usize>,
}

fn definitions(dump: &Dump) -> Definitions {
    let mut d = Definitions {
        all: Vec::new(),
        global: BTreeMap::new(),
        local: BTreeMap::new(),
        packages: BTreeSet::new(),
        implementation: BTreeMap::new(),
    };
    for doc in &dump.documents {
        for occ in doc.occurrences.iter().filter(|o| o.definition) {
            let kind = SymbolKind::of(&occ.symbol);
            let definition = Definition {
                symbol: occ.symbol.clone(),
                kind,
                file: doc.file.clone(),
                line: occ.line,
                column: occ.column,
                span: occ.enclosing,
            };
            if kind == SymbolKind::Local {
                let key = (doc.file.clone(), occ.symbol.clone());
                if !d.local.contains_key(&key) {
                    d.local.insert(key, d.all.len());
                    d.all.push(definition);
                }
                continue;
            }
            if let Some(package) = package_of(&occ.symbol) {
                d.packages.insert(package.to_string());
            }
            if !d.global.contains_key(&occ.symbol) {
                d.global.insert(occ.symbol.clone(), d.all.len());
                d.all.push(definition);
            }
        }
    }
    d
}

/// What a reference at a call names.
fn callee_of(symbol: &str, file: &str, d: &Definitions) -> Callee {
    let found = match SymbolKind::of(symbol) {
        SymbolKind::Local => d.local.get(&(file.to_string(), symbol.to_string())),
        _ => d
            .implementation
            .get(symbol)
            .or_else(|| d.global.get(symbol)),
    };
    match found {
        Some(&k) if is_callable(d.all[k].kind, d.all[k].span) => Callee::InTree(k),
        Some(_) => Callee::Undetermined(symbol.to_string()),
        None if SymbolKind::of(symbol) == SymbolKind::Local => {
            Callee::Undetermined(symbol.to_string())
        }
        None => match package_of(symbol) {
            Some(package) if !d.packages.contains(package) => Callee::Outside(symbol.to_string()),
            _ => Callee::Unresolved(symbol.to_string()),
        },
    }
}

/// The grammar of a file the SCIP indexers read.
fn grammar(file: &str) -> Option<tree_sitter::Language> {
    let extension = file.rsplit_once('.').map_or("", |(_, e)| e);
    Some(match extension {
        "py" | "pyi" => tree_sitter_python::LANGUAGE.into(),
        "js" | "mjs" | "cjs" | "jsx" => tree_sitter_javascript::LANGUAGE.into(),
        "ts" | "mts" | "cts" => tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
        "tsx" => tree_sitter_typescript::LANGUAGE_TSX.into(),
        _ => return None,
    })
}

/// The called name's node of a call node, or `None` when the node is no call or
/// its callee has no name token (`f()()`, `a[0]()`).
fn called_name<'t>(node: &tree_sitter::Node<'t>) -> Option<tree_sitter::Node<'t>> {
    let callee = match node.kind() {
        // Python `f()`, JS/TS `f()`, `` tag`...` ``.
        "call" | "call_expression" => node.child_by_field_name("function")?,
        "new_expression" => node.child_by_field_name("constructor")?,
        // `@d` / `@a.d` (a `@d(...)` is a call inside the decorator).
        "decorator" => node.named_child(0)?,
        _ => return None,
    };
    match callee.kind() {
        "identifier" => Some(callee),
        "attribute" => callee.child_by_field_name("attribute"),
        "member_expression" => callee.child_by_field_name("property"),
        _ => None,
    }
}

/// The declared name of a function declaration node and the lines the declaration
/// spans (a Python function's decorators included, as the indexers' enclosing
/// ranges are).
fn declared_name<'t>(node: &tree_sitter::Node<'t>) -> Option<(tree_sitter::Node<'t>, [u32; 2])> {
    if !matches!(
        node.kind(),
        "function_definition" | "function_declaration" | "method_definition"
    ) {
        return None;
    }
    let name = node.child_by_field_name("name")?;
    let whole = match node.parent() {
        Some(p) if p.kind() == "decorated_definition" => p,
        _ => *node,
    };
    let span = [
        whole.start_position().row as u32 + 1,
        whole.end_position().row as u32 + 1,
    ];
    Some((name, span))
}

/// What the syntax tree of one file says at name tokens, by (1-based line, 1-based
/// byte column).
#[derive(Debug, Default)]
pub struct FileSyntax {
    /// The called name of each call → its text.
    pub calls: BTreeMap<(u32, u32), String>,
    /// The declared name of each function declaration → the lines it spans.
    pub declared: BTreeMap<(u32, u32), [u32; 2]>,
}

fn position(node: &tree_sitter::Node<'_>) -> (u32, u32) {
    let start = node.start_position();
    (start.row as u32 + 1, start.column as u32 + 1)
}

/// The called and declared name tokens of one file.
pub fn file_syntax(file: &str, source: &[u8]) -> Option<FileSyntax> {
    let mut parser = tree_sitter::Parser::new();
    parser.set_language(&grammar(file)?).ok()?;
    let tree = parser.parse(source, None)?;
    let mut syntax = FileSyntax::default();
    let mut cursor = tree.walk();
    // An iterative walk: depth is bounded by the tree, not by the call stack.
    loop {
        let node = cursor.node();
        if let Some(name) = called_name(&node) {
            if let Ok(text) = name.utf8_text(source) {
                syntax.calls.insert(position(&name), text.to_string());
            }
        }
        if let Some((name, span)) = declared_name(&node) {
            syntax.declared.insert(position(&name), span);
        }
        if cursor.goto_first_child() || cursor.goto_next_sibling() {
            continue;
        }
        loop {
            if !cursor.goto_parent() {
                return Some(syntax);
            }
            if cursor.goto_next_sibling() {
                break;
            }
        }
    }
}

/// scip-python writes every `@overload` stub and the implementation of a function
/// under one symbol, the first stub's name as its definition and every later
/// declaration's name as a reference (research J16). The declaration the name is
/// bound to at run time is the last one the file writes: a reference occurrence at
/// a declared name of the syntax tree, latest line, is the symbol's implementation,
/// a definition with the declaration's span (so its body's calls have it as caller).
fn overload_implementations(dump: &Dump, syntax: &[Option<FileSyntax>], d: &mut Definitions) {
    let mut latest: BTreeMap<&str, Definition> = BTreeMap::new();
    for (doc, syntax) in dump.documents.iter().zip(syntax) {
        let Some(syntax) = syntax else { continue };
        for occ in doc.occurrences.iter().filter(|o| !o.definition) {
            let Some(span) = syntax.declared.get(&(occ.line, occ.column)) else {
                continue;
            };
            let kind = SymbolKind::of(&occ.symbol);
            let declared_elsewhere = d.global.get(&occ.symbol).is_some_and(|&k| {
                let first = &d.all[k];
                first.file == doc.file && first.line < occ.line
            });
            if !matches!(kind, SymbolKind::Function | SymbolKind::Method) || !declared_elsewhere {
                continue;
            }
            let later = latest
                .get(occ.symbol.as_str())
                .is_none_or(|l| l.line < occ.line);
            if later {
                latest.insert(
                    &occ.symbol,
                    Definition {
                        symbol: occ.symbol.clone(),
                        kind,
                        file: doc.file.clone(),
                        line: occ.line,
                        column: occ.column,
                        span: Some(*span),
                    },
                );
            }
        }
    }
    for (symbol, definition) in latest {
        d.implementation.insert(symbol.to_string(), d.all.len());
        d.all.push(definition);
    }
}

/// The innermost definition holding each of a file's lines, by one sweep over the
/// definitions in start order (enclosing ranges nest): `lines` ascending.
fn innermost_callers(spans: &[(usize, [u32; 2])], lines: &[u32]) -> Vec<Option<usize>> {
    let mut order: Vec<&(usize, [u32; 2])> = spans.iter().collect();
    order.sort_by_key(|(k, [first, last])| (*first, std::cmp::Reverse(*last), *k));
    let mut stack: Vec<(usize, u32)> = Vec::new();
    let mut next = 0;
    let mut out = Vec::with_capacity(lines.len());
    for &line in lines {
        while next < order.len() && order[next].1[0] <= line {
            let (k, [first, last]) = *order[next];
            while stack.last().is_some_and(|&(_, end)| end < first) {
                stack.pop();
            }
            stack.push((k, last));
            next += 1;
        }
        while stack.last().is_some_and(|&(_, end)| end < line) {
            stack.pop();
        }
        out.push(stack.last().map(|&(k, _)| k));
    }
    out
}

/// The calls of the index: every reference occurrence at a call's name token of
/// the file's syntax tree (`root` holds the files the documents name).
pub fn calls_of(dump: &Dump, root: &Path) -> ScipCalls {
    let syntax: Vec<Option<FileSyntax>> = dump
        .documents
        .iter()
        .map(|doc| {
            std::fs::read(root.join(&doc.file))
                .ok()
                .and_then(|source| file_syntax(&doc.file, &source))
        })
        .collect();
    let mut d = definitions(dump);
    overload_implementations(dump, &syntax, &mut d);
    let mut calls = Vec::new();
    for (doc, syntax) in dump.documents.iter().zip(&syntax) {
        let Some(tokens) = syntax.as_ref().map(|s| &s.calls) else {
            continue;
        };
        let mut found: Vec<ScipCall> = Vec::new();
        let mut seen = BTreeSet::new();
        for occ in doc.occurrences.iter().filter(|o| !o.definition) {
            let Some(name) = tokens.get(&(occ.line, occ.column)) else {
                continue;
            };
            // One call per token: the first occurrence the index gives there.
            if !seen.insert((occ.line, occ.column)) {
                continue;
            }
            found.push(ScipCall {
                file: doc.file.clone(),
                line: occ.line,
                column: occ.column,
                name: name.clone(),
                caller: None,
                callee: callee_of(&occ.symbol, &doc.file, &d),
            });
        }
        found.sort_by_key(|c| (c.line, c.column));
        let spans: Vec<(usize, [u32; 2])> = d
            .all
            .iter()
            .enumerate()
            .filter(|(_, def)| def.file == doc.file && is_callable(def.kind, def.span))
            // From the name's line: a decorator above it runs in the enclosing scope.
            .filter_map(|(k, def)| {
                def.span
                    .map(|[first, last]| (k, [def.line.max(first), last]))
            })
            .collect();
        let lines: Vec<u32> = found.iter().map(|c| c.line).collect();
        for (call, caller) in found.iter_mut().zip(innermost_callers(&spans, &lines)) {
            call.caller = caller;
        }
        calls.extend(found);
    }
    ScipCalls {
        tool: dump.tool.clone(),
        definitions: d.all,
        calls,
    }
}

/// Runs the reader (oracles/scip/scip-calls.js, written into `work`) on `index` in
/// its occurrences mode; `modules` holds scip-typescript (its protobuf classes).
pub fn read_index(
    node: &Tool,
    modules: &Path,
    root: &Path,
    project: &Path,
    index: &Path,
    work: &Path,
    timeout: std::time::Duration,
) -> Result<Dump, Outcome> {
    let failed = |detail: String| Outcome::ToolFailed {
        tool: "scip-reader".into(),
        detail,
    };
    let helper = work.join("scip-calls.js");
    std::fs::write(&helper, crate::scip_typescript::HELPER)
        .map_err(|e| failed(format!("cannot write the reader: {e}")))?;
    let out = work.join("occurrences.json");
    let finished = node
        .command(work)
        .arg(&helper)
        .arg("--modules")
        .arg(modules)
        .arg("--root")
        .arg(root)
        .arg("--project")
        .arg(project)
        .arg("--index")
        .arg(index)
        .arg("--out")
        .arg(&out)
        .args(["--occurrences", "1"])
        .timeout(timeout)
        .run()?;
    let bytes = std::fs::read(&out).map_err(|e| failed(finished.wrote_no(&out, &e)))?;
    serde_json::from_slice(&bytes).map_err(|e| {
        failed(format!(
            "unreadable occurrences: {}",
            crate::describe_json_error(&e)
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) const SOURCE: &str = "class C:\n    def run(self):\n        return helper(self.x)\n\ndef helper(v):\n    print(v)\n    v.x()\n    return C().run()\n";

    /// A small index of SOURCE (`p/m.py`) as the reader writes it, shaped like
    /// scip-python's (the symbols and ranges it gives, a declaration's name a
    /// definition occurrence).
    pub(crate) fn dump() -> Dump {
        let occ = |line, column, symbol: &str, definition, enclosing| Occurrence {
            line,
            column,
            symbol: format!("scip-python python t 0 {symbol}"),
            definition,
            enclosing,
        };
        Dump {
            tool: "scip-python 0.6.6".into(),
            documents: vec![Document {
                file: "p/m.py".into(),
                occurrences: vec![
                    occ(1, 7, "p/m/C#", true, Some([1, 3])),
                    occ(2, 9, "p/m/C#run().", true, Some([2, 3])),
                    occ(2, 13, "p/m/C#run().(self)", true, None),
                    occ(3, 16, "p/m/helper().", false, None),
                    occ(3, 23, "p/m/C#run().(self)", false, None),
                    occ(5, 5, "p/m/helper().", true, Some([5, 8])),
                    Occurrence {
                        line: 6,
                        column: 5,
                        symbol: "scip-python python python-stdlib 3.11 builtins/print().".into(),
                        definition: false,
                        enclosing: None,
                    },
                    occ(6, 11, "p/m/helper().(v)", false, None),
                    occ(7, 5, "p/m/helper().(v)", false, None),
                    occ(7, 7, "p/m/C#x.", false, None),
                    occ(8, 12, "p/m/C#", false, None),
                    occ(8, 16, "p/m/C#run().", false, None),
                ],
            }],
        }
    }

    #[test]
    fn symbols_are_kinded_by_their_last_descriptor() {
        assert_eq!(SymbolKind::of("s p t 0 m/C#run()."), SymbolKind::Method);
        assert_eq!(SymbolKind::of("s p t 0 m/f()."), SymbolKind::Function);
        assert_eq!(
            SymbolKind::of("s p t 0 m/f().inner()."),
            SymbolKind::Function
        );
        assert_eq!(SymbolKind::of("s p t 0 m/C#"), SymbolKind::Type);
        assert_eq!(SymbolKind::of("s p t 0 m/C#x."), SymbolKind::Term);
        assert_eq!(SymbolKind::of("s p t 0 m/f().(a)"), SymbolKind::Parameter);
        assert_eq!(SymbolKind::of("local 3"), SymbolKind::Local);
        assert_eq!(SymbolKind::of("s p t 0 m/__init__:"), SymbolKind::Other);
        assert_eq!(package_of("s p t 0 m/f()."), Some("t"));
        assert_eq!(descriptors("s p t 0 m/f()."), "m/f().");
    }

    #[test]
    fn calls_are_the_references_at_a_calls_name_token() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("p")).unwrap();
        std::fs::write(dir.path().join("p/m.py"), SOURCE).unwrap();
        let calls = calls_of(&dump(), dir.path());
        let seen: Vec<(u32, u32, &str, Option<&str>, String)> = calls
            .calls
            .iter()
            .map(|c| {
                let callee = match &c.callee {
                    Callee::InTree(k) => format!("in_tree {}", calls.definitions[*k].line),
                    Callee::Outside(_) => "outside".into(),
                    Callee::Unresolved(_) => "unresolved".into(),
                    Callee::Undetermined(_) => "undetermined".into(),
                };
                let caller = c.caller.map(|k| descriptors(&calls.definitions[k].symbol));
                (c.line, c.column, c.name.as_str(), caller, callee)
            })
            .collect();
        assert_eq!(
            seen,
            [
                // `self.x` (line 3) and `v` as an argument are references, no calls.
                (
                    3,
                    16,
                    "helper",
                    Some("p/m/C#run()."),
                    "in_tree 5".to_string()
                ),
                (6, 5, "print", Some("p/m/helper()."), "outside".to_string()),
                // An attribute of the tree's package nothing defines.
                (7, 7, "x", Some("p/m/helper()."), "unresolved".to_string()),
                // A construction names the class.
                (8, 12, "C", Some("p/m/helper()."), "in_tree 1".to_string()),
                (8, 16, "run", Some("p/m/helper()."), "in_tree 2".to_string()),
            ]
        );
    }

    #[test]
    fn a_symbol_of_the_trees_package_without_a_definition_is_unresolved() {
        let mut dump = dump();
        dump.documents[0]
            .occurrences
            .retain(|o| !o.symbol.ends_with("helper()."));
        let d = definitions(&dump);
        assert_eq!(
            callee_of("scip-python python t 0 p/m/helper().", "p/m.py", &d),
            Callee::Unresolved("scip-python python t 0 p/m/helper().".into())
        );
    }

    #[test]
    fn the_innermost_enclosing_definition_is_the_caller() {
        // 0 spans 1-10, 1 spans 2-4 (nested), 2 spans 6-8 (nested).
        let spans = [(0, [1, 10]), (1, [2, 4]), (2, [6, 8])];
        assert_eq!(
            innermost_callers(&spans, &[1, 3, 5, 7, 9, 11]),
            [Some(0), Some(1), Some(0), Some(2), Some(0), None]
        );
    }

    #[test]
    fn decorators_constructions_and_members_are_call_tokens() {
        let tokens = file_syntax("a.py", b"@d\n@a.e\ndef f(): g.h(1)\n")
            .unwrap()
            .calls;
        let names: Vec<&str> = tokens.values().map(String::as_str).collect();
        assert_eq!(names, ["d", "e", "h"]);
        let tokens = file_syntax("a.ts", b"new X(); a.b(); f<T>(); new ns.Y();\n")
            .unwrap()
            .calls;
        let seen: Vec<(u32, &str)> = tokens.iter().map(|((_, c), n)| (*c, n.as_str())).collect();
        assert_eq!(seen, [(5, "X"), (12, "b"), (17, "f"), (32, "Y")]);
    }

    #[test]
    fn an_overloaded_function_is_answered_at_its_implementation() {
        let source = "@overload\ndef f(a: int) -> int: ...\n@overload\ndef f(a: str) -> str: ...\ndef f(a):\n    return g(a)\n\nf(1)\n";
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("m.py"), source).unwrap();
        let occ = |line, column, symbol: &str, definition, enclosing| Occurrence {
            line,
            column,
            symbol: format!("scip-python python t 0 {symbol}"),
            definition,
            enclosing,
        };
        // As scip-python writes it: the first stub defines `f`, the later
        // declarations' names are references to it.
        let dump = Dump {
            tool: String::new(),
            documents: vec![Document {
                file: "m.py".into(),
                occurrences: vec![
                    Occurrence {
                        line: 1,
                        column: 2,
                        symbol: "scip-python python python-stdlib 3.11 typing/overload().".into(),
                        definition: false,
                        enclosing: None,
                    },
                    occ(2, 5, "m/f().", true, Some([1, 2])),
                    occ(4, 5, "m/f().", false, None),
                    occ(5, 5, "m/f().", false, None),
                    occ(6, 12, "m/g().", false, None),
                    occ(8, 1, "m/f().", false, None),
                ],
            }],
        };
        let calls = calls_of(&dump, dir.path());
        let seen: Vec<(u32, Option<u32>, Option<u32>)> = calls
            .calls
            .iter()
            .map(|c| {
                let target = match c.callee {
                    Callee::InTree(k) => Some(calls.definitions[k].line),
                    _ => None,
                };
                (c.line, c.caller.map(|k| calls.definitions[k].line), target)
            })
            .collect();
        // A decorator runs in the enclosing scope (the stub's range holds it); the
        // declarations are no calls; the body's call has the implementation as
        // caller; the call of `f` lands on the implementation, not the first stub.
        assert_eq!(
            seen,
            [(1, None, None), (6, Some(5), None), (8, None, Some(5))]
        );
    }
}
