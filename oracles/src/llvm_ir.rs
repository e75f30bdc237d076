//! A reader of textual LLVM IR (`.ll`) carrying debug info, shared by the clang and
//! rustc oracles: every `call`/`invoke` with its `!dbg` location, the caller's and
//! the callee's `DISubprogram`, and what kind of callee it is.
//!
//! What it reads (the prototype is `llvm_calls.py` of the oracle research, §1–2):
//! - `define … @sym(…) … !dbg !N` binds a defined symbol to its `DISubprogram`;
//!   `@a = … alias … @b` makes the C++ complete-object constructor/destructor (C1/D1)
//!   the same function as the base-object one (C2/D2) it aliases;
//! - a `call`/`invoke` (an invoke's `to label …, !dbg` continuation line joined
//!   first) of `@sym` is direct; of `%reg` it is indirect — unless the function just
//!   type-tested the vtable pointer (`llvm.type.test(vptr, "_ZTS…")`, which clang
//!   emits with `-flto -fwhole-program-vtables`) and indexed the vtable at a slot: then
//!   it is virtual, resolved to the method with that `virtualIndex` in that class or
//!   its bases (a virtual destructor takes two Itanium slots);
//! - the site is the call's `DILocation`; the caller is its scope walked up through
//!   lexical blocks to the `DISubprogram`;
//! - each `DILocation` with `inlinedAt` is a call that vanished into its caller
//!   (always-inline): a synthetic direct call at the `inlinedAt` location;
//! - intrinsics (`@llvm.*`), inline assembly and calls without a location (glue the
//!   compiler wrote) are not calls of the source.
//!
//! Symbols are resolved across modules, so a call into another translation unit or
//! crate finds the defining module's `DISubprogram`; a symbol only `declare`d in
//! every module has no definition (`definition: None`).

use std::collections::{HashMap, HashSet};
use std::path::{Component, Path, PathBuf};

/// A place in a source file: absolute (normalized) path, 1-based line and column
/// (0 when the compiler gave none).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SourceLoc {
    pub file: PathBuf,
    pub line: u32,
    pub column: u32,
}

/// What the debug info says about one function.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Subprogram {
    /// The source name (`bump`, `Vec2`, `operator+`, `~Circle`, `{closure#0}`).
    pub name: String,
    /// The symbol, when the debug info records one.
    pub linkage_name: Option<String>,
    /// The file and line of the function's name (for a definition: where it is
    /// defined), when known.
    pub file: Option<PathBuf>,
    pub line: u32,
    /// C++ members: the in-class declaration (`declaration:`), file and line.
    pub declaration: Option<(PathBuf, u32)>,
    /// The name of the class/struct whose member this is, when its scope is one.
    pub scope_type: Option<String>,
}

/// What a call reaches, as far as the IR says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Callee {
    /// A call of a named symbol; `definition` is `None` when no module defines it.
    Direct {
        symbol: String,
        definition: Option<Subprogram>,
    },
    /// A vtable call whose static class and slot the IR type-tested; `method` is the
    /// declared method at that slot, when the class's debug info has it.
    Virtual {
        type_id: String,
        slot: u32,
        method: Option<Subprogram>,
    },
    /// A call through a value (function pointer, `dyn` vtable, closure object).
    Indirect,
}

/// One call of the source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IrCall {
    pub site: SourceLoc,
    pub caller: Option<Subprogram>,
    pub callee: Callee,
    /// A call recovered from an `inlinedAt` chain (the call instruction vanished).
    pub inlined: bool,
    /// The index of the module the call was read from (one function body compiled
    /// in several units is several bodies).
    pub module: usize,
}

/// One metadata node the reader keeps (the others are skipped while parsing).
#[derive(Debug, Clone)]
enum Md {
    File {
        path: PathBuf,
    },
    Location {
        line: u32,
        column: u32,
        scope: u32,
        inlined_at: Option<u32>,
    },
    /// DILexicalBlock / DILexicalBlockFile: a scope inside a function.
    Block {
        scope: u32,
        file: Option<u32>,
    },
    Subprogram {
        name: String,
        linkage_name: Option<String>,
        scope: Option<u32>,
        file: Option<u32>,
        line: u32,
        declaration: Option<u32>,
        virtual_index: Option<u32>,
    },
    Composite {
        name: String,
        identifier: Option<String>,
    },
    Inheritance {
        scope: u32,
        base: u32,
    },
}

/// A call instruction as read, before symbols are resolved across modules.
#[derive(Debug, Clone)]
enum RawCallee {
    Symbol(String),
    Virtual { type_id: String, slot: u32 },
    Indirect,
}

#[derive(Debug, Clone)]
struct RawCall {
    callee: RawCallee,
    dbg: u32,
}

/// One parsed `.ll` file.
#[derive(Debug, Default)]
pub struct Module {
    md: HashMap<u32, Md>,
    /// Defined symbol → its DISubprogram id (aliases included).
    defined: HashMap<String, u32>,
    /// Symbols defined with `internal` or `private` linkage: a C `static`, a C++
    /// anonymous-namespace function. They answer calls of their own module only.
    local: HashSet<String>,
    calls: Vec<RawCall>,
}

impl Module {
    /// Reads one module's text. Lines the reader does not know are skipped: the
    /// format is LLVM's, and only what call sites need is kept.
    pub fn parse(text: &str) -> Module {
        let mut module = Module::default();
        let mut aliases: Vec<(String, String)> = Vec::new();
        let mut in_function = false;
        let mut vtable: Option<(String, u32)> = None;
        let mut pending: Option<String> = None;
        let mut type_entries: HashMap<u32, u32> = HashMap::new();
        let mut vtables: Vec<(String, Vec<u32>)> = Vec::new();
        for raw in text.lines() {
            // An invoke continues on the next line (`to label … unwind label …, !dbg`).
            let joined;
            let line = if let Some(head) = pending.take() {
                if raw.trim_start().starts_with("to label") {
                    joined = format!("{head} {}", raw.trim());
                    joined.as_str()
                } else {
                    module.read_body_line(&head, &mut vtable);
                    raw
                }
            } else {
                raw
            };
            if let Some(rest) = line.strip_prefix('!') {
                if let Some((entry, type_id)) = type_entry(rest) {
                    type_entries.insert(entry, type_id);
                }
                module.read_metadata(rest);
                continue;
            }
            if line.starts_with("define ") {
                in_function = true;
                vtable = None;
                if let (Some(symbol), Some(dbg)) = (defined_symbol(line), dbg_id(line)) {
                    if has_local_linkage(line) {
                        module.local.insert(symbol.clone());
                    }
                    module.defined.insert(symbol, dbg);
                }
                continue;
            }
            if line.starts_with('}') {
                in_function = false;
                continue;
            }
            if line.starts_with('@') {
                if let Some(pair) = alias_of(line) {
                    aliases.push(pair);
                }
                if let Some(types) = vtable_types(line) {
                    vtables.push(types);
                }
                continue;
            }
            if !in_function {
                continue;
            }
            let body = line.trim_start();
            let is_invoke = body.starts_with("invoke ") || body.contains(" = invoke ");
            if is_invoke && !line.contains("!dbg") {
                pending = Some(line.to_string());
                continue;
            }
            module.read_body_line(line, &mut vtable);
        }
        if let Some(head) = pending {
            module.read_body_line(&head, &mut vtable);
        }
        for (alias, target) in aliases {
            if let Some(&sp) = module.defined.get(&target) {
                module.defined.entry(alias).or_insert(sp);
            }
        }
        module.name_distinct_type_ids(&type_entries, &vtables);
        module
    }

    /// Names each distinct type id node (`!12`) of a type-tested call by the class
    /// whose vtable carries it with the fewest type entries — the class itself, not
    /// a class derived from it, whose vtable carries its bases' ids too: `!12` of
    /// `_ZTVN12_GLOBAL__N_11BE` is `_ZTSN12_GLOBAL__N_11BE`. An id no vtable of the
    /// module carries stays as it is (the call's method is then not found).
    fn name_distinct_type_ids(
        &mut self,
        type_entries: &HashMap<u32, u32>,
        vtables: &[(String, Vec<u32>)],
    ) {
        let mut named: HashMap<String, (usize, String)> = HashMap::new();
        for (symbol, entries) in vtables {
            for entry in entries {
                let Some(type_id) = type_entries.get(entry) else {
                    continue;
                };
                let key = format!("!{type_id}");
                let candidate = (entries.len(), format!("_ZTS{symbol}"));
                let slot = named.entry(key).or_insert_with(|| candidate.clone());
                if candidate < *slot {
                    *slot = candidate;
                }
            }
        }
        for call in &mut self.calls {
            if let RawCallee::Virtual { type_id, .. } = &mut call.callee {
                if let Some((_, name)) = named.get(type_id.as_str()) {
                    *type_id = name.clone();
                }
            }
        }
    }

    /// One instruction line of a function body: a vtable type test, the vtable slot
    /// taken after it, or a call.
    fn read_body_line(&mut self, line: &str, vtable: &mut Option<(String, u32)>) {
        let body = line.trim_start();
        if body.starts_with(';') {
            return;
        }
        if let Some(type_id) = type_test(body) {
            *vtable = Some((type_id, 0));
            return;
        }
        if vtable.is_some() && body.contains("getelementptr") {
            if let (Some(slot), Some(v)) = (vtable_slot(body), vtable.as_mut()) {
                v.1 = slot;
            }
            return;
        }
        let Some(rest) = call_operands(body) else {
            return;
        };
        let Some(token) = callee_token(rest) else {
            return;
        };
        let callee = if let Some(symbol) = token.strip_prefix('@') {
            let symbol = unquote(symbol);
            if symbol.starts_with("llvm.") {
                return; // intrinsics: dbg.declare, memcpy, type.test, …
            }
            RawCallee::Symbol(symbol)
        } else {
            match vtable.take() {
                Some((type_id, slot)) => RawCallee::Virtual { type_id, slot },
                None => RawCallee::Indirect,
            }
        };
        let Some(dbg) = dbg_id(body) else {
            return; // glue without a source position
        };
        self.calls.push(RawCall { callee, dbg });
    }

    /// `N = [distinct] !Kind(fields)` (the leading `!` already stripped).
    fn read_metadata(&mut self, rest: &str) {
        let Some((id, node)) = rest.split_once(" = ") else {
            return;
        };
        let Ok(id) = id.parse::<u32>() else {
            return; // named metadata (`!llvm.dbg.cu = …`)
        };
        let node = node.strip_prefix("distinct ").unwrap_or(node);
        let Some(node) = node.strip_prefix('!') else {
            return;
        };
        let Some((kind, body)) = node.split_once('(') else {
            return;
        };
        let wanted = matches!(
            kind,
            "DIFile"
                | "DILocation"
                | "DILexicalBlock"
                | "DILexicalBlockFile"
                | "DISubprogram"
                | "DICompositeType"
                | "DIDerivedType"
        );
        if !wanted {
            return;
        }
        let body = body.trim_end().strip_suffix(')').unwrap_or(body);
        let f = Fields::parse(body);
        let parsed = match kind {
            "DIFile" => {
                let name = f.string("filename").unwrap_or_default();
                let dir = f.string("directory").unwrap_or_default();
                let path = if name.starts_with('/') || dir.is_empty() {
                    PathBuf::from(&name)
                } else {
                    Path::new(&dir).join(&name)
                };
                Md::File {
                    path: normalize(&path),
                }
            }
            "DILocation" => Md::Location {
                line: f.number("line").unwrap_or(0),
                column: f.number("column").unwrap_or(0),
                scope: match f.reference("scope") {
                    Some(s) => s,
                    None => return,
                },
                inlined_at: f.reference("inlinedAt"),
            },
            "DILexicalBlock" | "DILexicalBlockFile" => Md::Block {
                scope: match f.reference("scope") {
                    Some(s) => s,
                    None => return,
                },
                file: f.reference("file"),
            },
            "DISubprogram" => Md::Subprogram {
                name: f.string("name").unwrap_or_default(),
                linkage_name: f.string("linkageName"),
                scope: f.reference("scope"),
                file: f.reference("file"),
                line: f.number("line").unwrap_or(0),
                declaration: f.reference("declaration"),
                virtual_index: f.number("virtualIndex"),
            },
            "DICompositeType" => Md::Composite {
                name: f.string("name").unwrap_or_default(),
                identifier: f.string("identifier"),
            },
            "DIDerivedType" => {
                if f.raw("tag") != Some("DW_TAG_inheritance") {
                    return;
                }
                match (f.reference("scope"), f.reference("baseType")) {
                    (Some(scope), Some(base)) => Md::Inheritance { scope, base },
                    _ => return,
                }
            }
            _ => return,
        };
        self.md.insert(id, parsed);
    }

    fn file_path(&self, id: Option<u32>) -> Option<PathBuf> {
        match self.md.get(&id?) {
            Some(Md::File { path }) => Some(path.clone()),
            _ => None,
        }
    }

    /// Walks a scope up through lexical blocks to its DISubprogram.
    fn subprogram_of(&self, mut scope: u32) -> Option<u32> {
        for _ in 0..10_000 {
            match self.md.get(&scope)? {
                Md::Subprogram { .. } => return Some(scope),
                Md::Block { scope: up, .. } => scope = *up,
                _ => return None,
            }
        }
        None
    }

    /// The file a scope (block or subprogram) is in.
    fn scope_file(&self, scope: u32) -> Option<PathBuf> {
        match self.md.get(&scope)? {
            Md::Block { file, scope: up } => self.file_path(*file).or_else(|| self.scope_file(*up)),
            Md::Subprogram { file, .. } => self.file_path(*file),
            _ => None,
        }
    }

    fn subprogram(&self, id: u32) -> Option<Subprogram> {
        let Md::Subprogram {
            name,
            linkage_name,
            scope,
            file,
            line,
            declaration,
            ..
        } = self.md.get(&id)?
        else {
            return None;
        };
        let declaration = declaration.and_then(|d| match self.md.get(&d) {
            Some(Md::Subprogram { file, line, .. }) => Some((self.file_path(*file)?, *line)),
            _ => None,
        });
        let scope_type = scope.and_then(|s| match self.md.get(&s) {
            Some(Md::Composite { name, .. }) => Some(name.clone()),
            _ => None,
        });
        Some(Subprogram {
            name: name.clone(),
            linkage_name: linkage_name.clone(),
            file: self.file_path(*file),
            line: *line,
            declaration,
            scope_type,
        })
    }

    fn location(&self, id: u32) -> Option<(SourceLoc, u32, Option<u32>)> {
        let Md::Location {
            line,
            column,
            scope,
            inlined_at,
        } = self.md.get(&id)?
        else {
            return None;
        };
        let file = self.scope_file(*scope)?;
        Some((
            SourceLoc {
                file,
                line: *line,
                column: *column,
            },
            *scope,
            *inlined_at,
        ))
    }

    /// The method at `slot` of the class `type_id` or of one of its bases.
    fn virtual_method(&self, type_id: &str, slot: u32) -> Option<Subprogram> {
        let mut classes: Vec<u32> = self
            .md
            .iter()
            .filter(|(_, m)| matches!(m, Md::Composite { identifier: Some(i), .. } if i == type_id))
            .map(|(&id, _)| id)
            .collect();
        if classes.is_empty() {
            classes = self.classes_by_member_symbols(type_id);
        }
        classes.sort_unstable();
        let mut methods: HashMap<u32, Vec<(u32, u32, bool)>> = HashMap::new();
        let mut bases: HashMap<u32, Vec<u32>> = HashMap::new();
        for (&id, m) in &self.md {
            match m {
                Md::Subprogram {
                    scope: Some(scope),
                    virtual_index: Some(index),
                    name,
                    ..
                } => methods
                    .entry(*scope)
                    .or_default()
                    .push((*index, id, name.starts_with('~'))),
                Md::Inheritance { scope, base } => bases.entry(*scope).or_default().push(*base),
                _ => {}
            }
        }
        let mut todo = classes;
        let mut seen = HashSet::new();
        while let Some(class) = todo.pop() {
            if !seen.insert(class) {
                continue;
            }
            let found = methods.get(&class).and_then(|ms| {
                let mut ms = ms.clone();
                ms.sort();
                // Itanium: a virtual destructor has two slots (complete, deleting).
                ms.iter()
                    .find(|(i, _, _)| *i == slot)
                    .or_else(|| {
                        ms.iter()
                            .find(|(i, _, dtor)| *dtor && slot > 0 && *i == slot - 1)
                    })
                    .map(|(_, id, _)| *id)
            });
            if let Some(id) = found {
                return self.subprogram(id);
            }
            todo.extend(bases.get(&class).into_iter().flatten());
        }
        None
    }
}

impl Module {
    /// The class whose type id is `_ZTS<name>` found through its members' symbols
    /// (`_ZN<name>…`): clang writes no `identifier:` on a class compiled without RTTI
    /// (`-fno-rtti`, as leveldb is), but its members keep their linkage names.
    fn classes_by_member_symbols(&self, type_id: &str) -> Vec<u32> {
        let Some(name) = type_id.strip_prefix("_ZTS") else {
            return vec![];
        };
        // `N7leveldb8IteratorE` → `_ZN7leveldb8Iterator`; `5Shape` → `_ZN5Shape`.
        let nested = match name.strip_prefix('N') {
            Some(inner) => match inner.strip_suffix('E') {
                Some(inner) => inner,
                None => return vec![],
            },
            None => name,
        };
        // A const member's symbol is `_ZNK…` (also `V`, `r` and ref-qualifiers).
        let member_of_class = |symbol: &str| {
            symbol
                .strip_prefix("_ZN")
                .map(|r| r.trim_start_matches(['r', 'V', 'K', 'R', 'O']))
                .and_then(|r| r.strip_prefix(nested))
                .is_some_and(member_follows)
        };
        let mut found: Vec<u32> = self
            .md
            .values()
            .filter_map(|m| match m {
                Md::Subprogram {
                    linkage_name: Some(l),
                    scope: Some(scope),
                    virtual_index: Some(_),
                    ..
                } if member_of_class(l) => Some(*scope),
                _ => None,
            })
            .filter(|scope| matches!(self.md.get(scope), Some(Md::Composite { .. })))
            .collect();
        found.sort_unstable();
        found.dedup();
        found
    }
}

/// Whether a mangled name continues with one member of the class just read: a
/// source name (`10SeekToLast`), a constructor/destructor (`C2`, `D0`), or an
/// operator (two lowercase letters) — not a longer class name.
fn member_follows(rest: &str) -> bool {
    let mut chars = rest.chars();
    match (chars.next(), chars.next()) {
        (Some(c), _) if c.is_ascii_digit() => true,
        (Some('C' | 'D'), Some(d)) if d.is_ascii_digit() => true,
        (Some(a), Some(b)) => a.is_ascii_lowercase() && b.is_ascii_lowercase(),
        _ => false,
    }
}

/// Every call of every module, symbols resolved across all of them (this module's
/// definition first, then the first module that defines the symbol).
pub fn resolve_calls(modules: &[Module]) -> Vec<IrCall> {
    let mut global: HashMap<&str, (usize, u32)> = HashMap::new();
    for (m, module) in modules.iter().enumerate() {
        let mut symbols: Vec<(&String, &u32)> = module.defined.iter().collect();
        symbols.sort();
        for (symbol, &sp) in symbols {
            if !module.local.contains(symbol) {
                global.entry(symbol.as_str()).or_insert((m, sp));
            }
        }
    }
    let definition = |m: usize, symbol: &str| -> Option<Subprogram> {
        if let Some(&sp) = modules[m].defined.get(symbol) {
            return modules[m].subprogram(sp);
        }
        let &(other, sp) = global.get(symbol)?;
        modules[other].subprogram(sp)
    };
    let mut out = Vec::new();
    for (m, module) in modules.iter().enumerate() {
        let mut virtuals: HashMap<(String, u32), Option<Subprogram>> = HashMap::new();
        for call in &module.calls {
            let Some((site, scope, _)) = module.location(call.dbg) else {
                continue;
            };
            let caller = module
                .subprogram_of(scope)
                .and_then(|s| module.subprogram(s));
            let callee = match &call.callee {
                RawCallee::Symbol(symbol) => Callee::Direct {
                    symbol: symbol.clone(),
                    definition: definition(m, symbol),
                },
                RawCallee::Virtual { type_id, slot } => Callee::Virtual {
                    type_id: type_id.clone(),
                    slot: *slot,
                    method: virtuals
                        .entry((type_id.clone(), *slot))
                        .or_insert_with(|| module.virtual_method(type_id, *slot))
                        .clone(),
                },
                RawCallee::Indirect => Callee::Indirect,
            };
            out.push(IrCall {
                site,
                caller,
                callee,
                inlined: false,
                module: m,
            });
        }
        out.extend(
            inlined_calls(module)
                .into_iter()
                .map(|c| IrCall { module: m, ..c }),
        );
    }
    out
}

/// The calls that vanished by inlining: each location with `inlinedAt` says that its
/// scope's function was inlined at that place.
fn inlined_calls(module: &Module) -> Vec<IrCall> {
    let mut seen = HashSet::new();
    let mut ids: Vec<u32> = module.md.keys().copied().collect();
    ids.sort_unstable();
    let mut out = Vec::new();
    for id in ids {
        let Some(Md::Location {
            scope,
            inlined_at: Some(at),
            ..
        }) = module.md.get(&id)
        else {
            continue;
        };
        let Some(inner) = module.subprogram_of(*scope) else {
            continue;
        };
        if !seen.insert((inner, *at)) {
            continue;
        }
        let Some((site, outer_scope, _)) = module.location(*at) else {
            continue;
        };
        let Some(definition) = module.subprogram(inner) else {
            continue;
        };
        let caller = module
            .subprogram_of(outer_scope)
            .and_then(|s| module.subprogram(s));
        out.push(IrCall {
            site,
            caller,
            callee: Callee::Direct {
                symbol: definition
                    .linkage_name
                    .clone()
                    .unwrap_or_else(|| definition.name.clone()),
                definition: Some(definition),
            },
            inlined: true,
            module: 0,
        });
    }
    out
}

/// `key: value` fields of a metadata node, values kept as written.
struct Fields<'a> {
    pairs: Vec<(&'a str, &'a str)>,
}

impl<'a> Fields<'a> {
    fn parse(body: &'a str) -> Fields<'a> {
        let mut pairs = Vec::new();
        let bytes = body.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            while i < bytes.len() && (bytes[i] == b' ' || bytes[i] == b',') {
                i += 1;
            }
            let key_start = i;
            while i < bytes.len() && bytes[i] != b':' {
                i += 1;
            }
            if i >= bytes.len() {
                break;
            }
            let key = body[key_start..i].trim();
            i += 1;
            while i < bytes.len() && bytes[i] == b' ' {
                i += 1;
            }
            let value_start = i;
            let mut depth = 0i32;
            let mut quoted = false;
            while i < bytes.len() {
                let c = bytes[i];
                if quoted {
                    if c == b'\\' {
                        i += 1;
                    } else if c == b'"' {
                        quoted = false;
                    }
                } else {
                    match c {
                        b'"' => quoted = true,
                        b'(' | b'{' | b'[' => depth += 1,
                        b')' | b'}' | b']' => depth -= 1,
                        b',' if depth == 0 => break,
                        _ => {}
                    }
                }
                i += 1;
            }
            let end = i.min(bytes.len());
            pairs.push((key, body[value_start..end].trim()));
        }
        Fields { pairs }
    }

    fn raw(&self, key: &str) -> Option<&'a str> {
        self.pairs.iter().find(|(k, _)| *k == key).map(|(_, v)| *v)
    }

    fn string(&self, key: &str) -> Option<String> {
        let v = self.raw(key)?;
        let inner = v.strip_prefix('"')?.strip_suffix('"')?;
        Some(unescape(inner))
    }

    fn number(&self, key: &str) -> Option<u32> {
        self.raw(key)?.parse().ok()
    }

    fn reference(&self, key: &str) -> Option<u32> {
        self.raw(key)?.strip_prefix('!')?.parse().ok()
    }
}

/// LLVM string escapes are `\XX` (two hex digits).
fn unescape(text: &str) -> String {
    if !text.contains('\\') {
        return text.to_string();
    }
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'\\' && i + 2 < bytes.len() {
            if let Ok(b) = u8::from_str_radix(&text[i + 1..(i + 3).min(text.len())], 16) {
                out.push(b);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// `@"quoted name"` or `@plain.name` → the symbol without `@` and quotes.
fn unquote(token: &str) -> String {
    let t = token.trim_start_matches(['@', '%']);
    match t.strip_prefix('"').and_then(|s| s.strip_suffix('"')) {
        Some(inner) => unescape(inner),
        None => t.to_string(),
    }
}

/// `define internal …` / `define private …`: linkage is the first word after
/// `define`, so a local symbol never answers another module's `declare` (hiredis:
/// net.c's libc `connect` was bound to test.c's `static connect`).
fn has_local_linkage(line: &str) -> bool {
    let mut words = line.split_whitespace().skip(1);
    matches!(words.next(), Some("internal" | "private"))
}

/// The symbol a `define` line defines: the first `@name(`.
fn defined_symbol(line: &str) -> Option<String> {
    let at = line.find('@')?;
    let token = symbol_token(&line[at..])?;
    Some(unquote(token))
}

/// A `@…`/`%…` token at the start of `text` (quoted or plain).
fn symbol_token(text: &str) -> Option<&str> {
    let bytes = text.as_bytes();
    if bytes.len() < 2 || !(bytes[0] == b'@' || bytes[0] == b'%') {
        return None;
    }
    if bytes[1] == b'"' {
        let mut i = 2;
        while i < bytes.len() {
            if bytes[i] == b'\\' {
                i += 2;
                continue;
            }
            if bytes[i] == b'"' {
                return Some(&text[..=i]);
            }
            i += 1;
        }
        return None;
    }
    let end = text[1..]
        .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '$' | '-')))
        .map_or(text.len(), |e| e + 1);
    (end > 1).then(|| &text[..end])
}

/// `!dbg !N` on a line.
fn dbg_id(line: &str) -> Option<u32> {
    let at = line.rfind("!dbg !")?;
    let digits: String = line[at + 6..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

/// `@a = … alias … @b` → (a, b).
fn alias_of(line: &str) -> Option<(String, String)> {
    let (lhs, rhs) = line.split_once(" = ")?;
    let words: Vec<&str> = rhs.split_whitespace().collect();
    if !words.contains(&"alias") {
        return None;
    }
    let target = rhs.rfind('@')?;
    Some((unquote(lhs.trim()), unquote(symbol_token(&rhs[target..])?)))
}

/// The operands of a call or invoke instruction (after the keyword), if the line is
/// one; inline assembly is not a call.
fn call_operands(body: &str) -> Option<&str> {
    let after_assign = match body.split_once(" = ") {
        Some((lhs, rhs)) if lhs.starts_with('%') && !lhs.contains(' ') => rhs,
        _ => body,
    };
    let rest = after_assign
        .strip_prefix("tail call ")
        .or_else(|| after_assign.strip_prefix("musttail call "))
        .or_else(|| after_assign.strip_prefix("notail call "))
        .or_else(|| after_assign.strip_prefix("call "))
        .or_else(|| after_assign.strip_prefix("invoke "))?;
    let head = rest.split('(').next().unwrap_or("");
    if head.split_whitespace().any(|w| w == "asm") {
        return None;
    }
    Some(rest)
}

/// The callee of a call's operands: a `bitcast (… @f to …)` target, or the first
/// `@name(` / `%name(` token.
fn callee_token(rest: &str) -> Option<&str> {
    if let Some(at) = rest.find("bitcast (") {
        let inner = &rest[at..];
        if let Some(to) = inner.find(" to ") {
            if let Some(sym) = inner[..to].rfind('@') {
                let token = symbol_token(&inner[sym..])?;
                if !rest[..at].contains(['@', '%']) {
                    return Some(token);
                }
            }
        }
    }
    let bytes = rest.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'@' || bytes[i] == b'%' {
            if let Some(token) = symbol_token(&rest[i..]) {
                let after = &rest[i + token.len()..];
                if after.starts_with('(') {
                    return Some(token);
                }
                i += token.len();
                continue;
            }
        }
        i += 1;
    }
    None
}

/// `llvm.type.test(…, metadata !"_ZTS…")` → the type id.
fn type_test(body: &str) -> Option<String> {
    if !(body.contains("@llvm.type.test(") || body.contains("@llvm.public.type.test(")) {
        return None;
    }
    if let Some(at) = body.find("metadata !\"") {
        let rest = &body[at + 11..];
        return Some(rest[..rest.find('"')?].to_string());
    }
    // A class with internal linkage (an anonymous namespace's) has a distinct node
    // for its type id (`metadata !12`), named after parsing by its vtable.
    let at = body.find("metadata !")?;
    let digits: String = body[at + 10..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    (!digits.is_empty()).then(|| format!("!{digits}"))
}

/// `N = !{i64 16, !M}` (the leading `!` stripped): a vtable type entry's node N and
/// the type id node M.
fn type_entry(rest: &str) -> Option<(u32, u32)> {
    let (id, value) = rest.split_once(" = !{i64 ")?;
    let (_, target) = value.split_once(", !")?;
    let target = target.strip_suffix('}')?;
    Some((id.trim().parse().ok()?, target.parse().ok()?))
}

/// `@_ZTV… = … !type !0, !type !2, …`: a vtable and its type entry nodes.
fn vtable_types(line: &str) -> Option<(String, Vec<u32>)> {
    let symbol = line.strip_prefix("@_ZTV")?.split([' ', '=']).next()?;
    let entries: Vec<u32> = line
        .split("!type !")
        .skip(1)
        .filter_map(|r| r.split(|c: char| !c.is_ascii_digit()).next()?.parse().ok())
        .collect();
    (!entries.is_empty()).then(|| (symbol.to_string(), entries))
}

/// The constant index of a vtable `getelementptr` (its last `i64 N` operand).
fn vtable_slot(body: &str) -> Option<u32> {
    let at = body.rfind("i64 ")?;
    let digits: String = body[at + 4..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

/// `a/./b/../c` → `a/c`, without touching the file system.
pub fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    // Cut from clang 14 output (typed pointers) for a virtual call, an alias, an
    // invoke over two lines, an intrinsic and an indirect call.
    const IR: &str = r#"
@_ZN4Vec2C1Edd = dso_local unnamed_addr alias void (%class.Vec2*, double, double), void (%class.Vec2*, double, double)* @_ZN4Vec2C2Edd

define dso_local void @_ZN4Vec2C2Edd(%class.Vec2* %this, double %x, double %y) #0 align 2 !dbg !30 {
  ret void
}

define dso_local i32 @main() #1 !dbg !40 {
  call void @llvm.dbg.declare(metadata %class.Vec2* %a, metadata !44, metadata !DIExpression()), !dbg !45
  call void @_ZN4Vec2C1Edd(%class.Vec2* %a, double 1.0, double 2.0), !dbg !45
  %vtable = load double (%class.Shape*)**, double (%class.Shape*)*** %0, align 8, !dbg !46
  %1 = call i1 @llvm.type.test(i8* %x, metadata !"_ZTS5Shape"), !dbg !46
  %vfn = getelementptr inbounds double (%class.Shape*)*, double (%class.Shape*)** %vtable, i64 2, !dbg !46
  %2 = load double (%class.Shape*)*, double (%class.Shape*)** %vfn, align 8, !dbg !46
  %call = call double %2(%class.Shape* %s), !dbg !46
  %3 = call i1 @llvm.type.test(i8* %y, metadata !"_ZTSN2db8IteratorE"), !dbg !46
  %vfn2 = getelementptr inbounds void (%class.It*)*, void (%class.It*)** %vt2, i64 3, !dbg !46
  call void %4(%class.It* %it), !dbg !46
  %5 = call i1 @llvm.type.test(i8* %y, metadata !"_ZTSN2db8IteratorE"), !dbg !46
  %vfn3 = getelementptr inbounds void (%class.It*)*, void (%class.It*)** %vt2, i64 2, !dbg !46
  call void %6(%class.It* %it), !dbg !46
  %r = invoke i32 @"_Z3addii"(i32 1, i32 2)
          to label %ok unwind label %bad, !dbg !47
  %f = call i32 %fp(i32 1), !dbg !48
  call void asm sideeffect "nop", ""(), !dbg !48
  ret i32 0
}

declare i32 @_Z3addii(i32, i32)

!1 = !DIFile(filename: "main.cpp", directory: "/src/x")
!2 = !DIFile(filename: "shapes.hpp", directory: "/src/x")
!10 = distinct !DICompositeType(tag: DW_TAG_class_type, name: "Shape", file: !2, line: 9, identifier: "_ZTS5Shape")
!11 = !DISubprogram(name: "area", linkageName: "_ZNK5Shape4areaEv", scope: !10, file: !2, line: 14, virtualIndex: 2, flags: DIFlagPrototyped)
!12 = !DISubprogram(name: "~Shape", scope: !10, file: !2, line: 12, virtualIndex: 0)
!13 = distinct !DICompositeType(tag: DW_TAG_class_type, name: "Vec2", file: !2, line: 3, identifier: "_ZTS4Vec2")
!15 = distinct !DICompositeType(tag: DW_TAG_class_type, name: "Iterator", scope: !16, file: !2, line: 30)
!16 = !DINamespace(name: "db", scope: null)
!17 = !DISubprogram(name: "Next", linkageName: "_ZNK2db8Iterator4NextEv", scope: !15, file: !2, line: 33, virtualIndex: 3)
!18 = !DIDerivedType(tag: DW_TAG_inheritance, scope: !15, baseType: !10, flags: DIFlagPublic)
!14 = !DISubprogram(name: "Vec2", scope: !13, file: !2, line: 6, flags: DIFlagPrototyped)
!30 = distinct !DISubprogram(name: "Vec2", linkageName: "_ZN4Vec2C2Edd", scope: !13, file: !1, line: 3, declaration: !14, spFlags: DISPFlagDefinition)
!40 = distinct !DISubprogram(name: "main", scope: !1, file: !1, line: 12, spFlags: DISPFlagDefinition)
!41 = distinct !DILexicalBlock(scope: !40, file: !1, line: 13, column: 3)
!45 = !DILocation(line: 14, column: 10, scope: !41)
!46 = !DILocation(line: 15, column: 17, scope: !41)
!47 = !DILocation(line: 16, column: 5, scope: !40)
!48 = !DILocation(line: 17, column: 5, scope: !40, inlinedAt: !47)
"#;

    #[test]
    fn calls_carry_sites_callers_and_resolved_callees() {
        let calls = resolve_calls(&[Module::parse(IR)]);
        let shown: Vec<String> = calls
            .iter()
            .filter(|c| !c.inlined)
            .map(|c| {
                let callee = match &c.callee {
                    Callee::Direct { symbol, definition } => format!(
                        "{symbol}->{}",
                        definition
                            .as_ref()
                            .map_or("declared".to_string(), |d| format!(
                                "{}:{} decl {:?}",
                                d.file.as_ref().unwrap().display(),
                                d.line,
                                d.declaration.as_ref().map(|(_, l)| *l)
                            ))
                    ),
                    Callee::Virtual { method, slot, .. } => format!(
                        "virtual#{slot}->{}",
                        method.as_ref().map_or("?".into(), |m| m.name.clone())
                    ),
                    Callee::Indirect => "indirect".into(),
                };
                format!(
                    "{}:{}:{} in {} {callee}",
                    c.site.file.display(),
                    c.site.line,
                    c.site.column,
                    c.caller.as_ref().unwrap().name
                )
            })
            .collect();
        assert_eq!(
            shown,
            [
                "/src/x/main.cpp:14:10 in main _ZN4Vec2C1Edd->/src/x/main.cpp:3 decl Some(6)",
                "/src/x/main.cpp:15:17 in main virtual#2->area",
                "/src/x/main.cpp:15:17 in main virtual#3->Next",
                "/src/x/main.cpp:15:17 in main virtual#2->area",
                "/src/x/main.cpp:16:5 in main _Z3addii->declared",
                "/src/x/main.cpp:17:5 in main indirect",
            ]
        );
    }

    #[test]
    fn an_anonymous_namespace_class_is_named_by_its_vtable() {
        let ir = r#"@_ZTVN12_GLOBAL__N_11BE = internal unnamed_addr constant { [3 x i8*] } zeroinitializer, align 8, !type !0
@_ZTVN12_GLOBAL__N_11DE = internal unnamed_addr constant { [3 x i8*] } zeroinitializer, align 8, !type !0, !type !2
define internal i32 @_ZNK12_GLOBAL__N_11D1gEv(i8* %0) !dbg !20 {
  %1 = call i1 @llvm.type.test(i8* %0, metadata !1), !dbg !30
  %2 = getelementptr inbounds i8*, i8** %v, i64 0, !dbg !30
  %3 = call i32 %4(i8* %0), !dbg !30
  ret i32 %3
}
!0 = !{i64 16, !1}
!1 = distinct !{}
!2 = !{i64 16, !3}
!3 = distinct !{}
!5 = !DIFile(filename: "m.cc", directory: "/t")
!10 = distinct !DICompositeType(tag: DW_TAG_structure_type, name: "B", file: !5, line: 1)
!12 = !DISubprogram(name: "k", linkageName: "_ZNK12_GLOBAL__N_11B1kEv", scope: !10, file: !5, line: 1, virtualIndex: 0, flags: DIFlagPrototyped)
!20 = distinct !DISubprogram(name: "g", linkageName: "_ZNK12_GLOBAL__N_11D1gEv", scope: !5, file: !5, line: 2, spFlags: DISPFlagDefinition)
!30 = !DILocation(line: 3, column: 5, scope: !20)
"#;
        let calls = resolve_calls(&[Module::parse(ir)]);
        assert_eq!(calls.len(), 1);
        assert!(
            matches!(&calls[0].callee, Callee::Virtual { type_id, method: Some(m), .. }
                if type_id == "_ZTSN12_GLOBAL__N_11BE" && m.name == "k"),
            "{:?}",
            calls[0].callee
        );
    }

    #[test]
    fn an_inlined_at_location_is_a_call_that_vanished() {
        let calls = resolve_calls(&[Module::parse(IR)]);
        let inlined: Vec<&IrCall> = calls.iter().filter(|c| c.inlined).collect();
        assert_eq!(inlined.len(), 1);
        assert_eq!(inlined[0].site.line, 16);
        assert!(
            matches!(&inlined[0].callee, Callee::Direct { definition: Some(d), .. } if d.name == "main")
        );
    }

    #[test]
    fn a_local_definition_answers_only_its_own_module() {
        let di = "!1 = distinct !DISubprogram(name: \"connect\", scope: !2, file: !2, line: 7, spFlags: DISPFlagDefinition)\n!2 = !DIFile(filename: \"test.c\", directory: \"/t\")\n";
        let test = Module::parse(&format!(
            "define internal i32 @connect(i32 %0) !dbg !1 {{\n  ret i32 0\n}}\n{di}"
        ));
        assert!(test.local.contains("connect"));
        let net = Module::parse("define i32 @open(i32 %0) {\n  ret i32 0\n}\n");
        assert!(net.local.is_empty());
        assert!(!has_local_linkage("define dso_local i32 @f() !dbg !3 {"));
        assert!(has_local_linkage("define private void @g() {"));
    }

    #[test]
    fn fields_keep_quoted_commas_and_escapes() {
        let f = Fields::parse(r#"name: "a, b\22c", line: 3, scope: !7, flags: A | B"#);
        assert_eq!(f.string("name").as_deref(), Some("a, b\"c"));
        assert_eq!(f.number("line"), Some(3));
        assert_eq!(f.reference("scope"), Some(7));
        assert_eq!(f.raw("flags"), Some("A | B"));
    }

    #[test]
    fn paths_are_normalized_lexically() {
        assert_eq!(
            normalize(Path::new("/a/./b/../c/d.h")),
            PathBuf::from("/a/c/d.h")
        );
    }
}
