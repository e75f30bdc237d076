//! From the calls the LLVM IR reader found ([`crate::llvm_ir`]) to truth sites, for
//! the clang and rustc oracles.
//!
//! A site is kept when its file lies in the tree. It is named as the source writes
//! it, read from the source line at the compiler's column (structurally: the path or
//! member name that starts there, up to its `(`), and its column is moved to that
//! name token: rustc puts a path call `a::b::f()` at `a`, clang a member call at the
//! member name, so the name is the last segment of the path that starts at the
//! compiler's column. What the truth then says:
//! - a target in the tree is the callee's definition by its `DISubprogram` line, and
//!   for a C++ member also its in-class declaration (both acceptable); a target whose
//!   line is an attribute (`#[derive(Clone)]` makes `clone` there) moves to the item
//!   the attribute decorates; generic functions are monomorphised, so one site may
//!   have several targets, all acceptable;
//! - a callee outside the tree is `outside` with its demangled symbol;
//! - set apart as `implicit` (no source text writes the call): drops and
//!   destructors, panic/overflow checks, calls inside a macro expansion (the column
//!   holds a macro name, or in C/C++ a name other than the callee's), calls whose name
//!   is not written at the column (`?`, `for` desugaring, operators, derive bodies),
//!   constructors whose class is not written on the line; in C++ an operator of
//!   the tree's own types is judged at its token, and a call written in a macro's
//!   arguments is found there, over all their lines, by order (docs/PROTOCOL.md
//!   §19, DECISIONS D46);
//! - `unjudged`: indirect calls (function pointers, `dyn`), virtual calls whose slot
//!   the class's debug info does not name, and calls of a symbol of another crate of
//!   the same tree that no compiled module defines.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use crate::llvm_ir::{Callee, IrCall, Subprogram};
use crate::truth::{OracleStamp, Position, Truth, TruthSite, TruthTarget, TRUTH_SCHEMA};

/// The truth of the IR's call `sites` in the tree, stamped by `oracle` and
/// validated; an IR with no call site in the tree is a failure.
pub fn ir_truth(corpus: &str, oracle: OracleStamp, sites: Vec<TruthSite>) -> Result<Truth, String> {
    if sites.is_empty() {
        return Err("the IR holds no call site in the tree".into());
    }
    let origin = format!("{} oracle", oracle.name);
    let truth = Truth {
        schema: TRUTH_SCHEMA.into(),
        corpus: corpus.into(),
        oracle,
        shape: None,
        sites,
        references: None,
        pairs: Vec::new(),
    };
    truth.validate(&origin).map_err(|e| e.to_string())?;
    Ok(truth)
}

/// The source language's rules for names and set-apart calls.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Flavor {
    /// Rust; the crate names of the tree (a declared-only callee of one of them is
    /// in another crate of the tree, which was not compiled with it).
    Rust {
        tree_crates: Vec<String>,
    },
    C,
    Cpp,
}

/// Builds truth sites from calls, reading source lines from `root` (the tree the
/// truth is about); `compiled_root` is where the compiler saw the same tree (a copy
/// for cargo builds; the same directory otherwise).
pub struct SiteBuilder<'a> {
    root: &'a Path,
    compiled_root: PathBuf,
    flavor: Flavor,
    demangled: &'a HashMap<String, String>,
    lines: HashMap<String, Option<Vec<String>>>,
    /// C/C++ calls written in a macro's arguments, matched to the written
    /// occurrences by order: how many calls of one body (module, caller) to one
    /// callee the macro site at (file, line, column) has had so far.
    in_arguments: HashMap<(usize, String, String, u32, u32, String), usize>,
}

impl<'a> SiteBuilder<'a> {
    pub fn new(
        root: &'a Path,
        compiled_root: &Path,
        flavor: Flavor,
        demangled: &'a HashMap<String, String>,
    ) -> SiteBuilder<'a> {
        SiteBuilder {
            root,
            compiled_root: compiled_root.to_path_buf(),
            flavor,
            demangled,
            lines: HashMap::new(),
            in_arguments: HashMap::new(),
        }
    }

    /// The sites of `calls`, merged by (file, line, column, name) and sorted.
    pub fn sites(&mut self, calls: &[IrCall]) -> Vec<TruthSite> {
        let mut merged: BTreeMap<(String, u32, u32, String), Merged> = BTreeMap::new();
        for call in calls {
            let Some(site) = self.site(call) else {
                continue;
            };
            let key = (
                site.file.clone(),
                site.line,
                site.column.unwrap_or(0),
                site.name.clone(),
            );
            merged.entry(key).or_default().add(site);
        }
        merged.into_values().map(Merged::finish).collect()
    }

    /// The truth site of one call, when its file is in the tree.
    fn site(&mut self, call: &IrCall) -> Option<TruthSite> {
        let file = self.relative(&call.site.file)?;
        let caller = call.caller.as_ref().and_then(|c| self.position_of(c));
        let site = TruthSite {
            file: file.clone(),
            line: call.site.line.max(1),
            column: (call.site.column > 0).then_some(call.site.column),
            caller,
            name: String::new(),
            targets: vec![],
            unjudged: None,
            implicit: None,
            expect: None,
            primary: false,
        };
        let written = self.written_name(&file, call.site.line, call.site.column);
        let callee_name = self.callee_name(call);
        if let Some(reason) = self.implicit_by_callee(call) {
            return Some(set_apart(site, None, &callee_name, Some(reason), None));
        }
        if let Some(reason) = self.unjudged_by_callee(call) {
            // A call through a value is written; its name is what the source calls.
            return Some(set_apart(site, written, &callee_name, None, Some(reason)));
        }
        if self.flavor == Flavor::Cpp && is_constructor(call) {
            // clang puts `Vec2 a(1, 2)` at `a`, `new Vec2(…)` at `new`: the class
            // name written on the line names the construction.
            let found = self
                .token_on_line(&file, site.line, &callee_name, site.column.unwrap_or(1))
                .or_else(|| {
                    self.written_in_arguments(call, &file, site.line, &written, &callee_name)
                });
            let Some(named) = found else {
                return Some(set_apart(
                    site,
                    None,
                    &callee_name,
                    Some("constructor_not_written"),
                    None,
                ));
            };
            return Some(self.judged_at(site, named, call));
        }
        if self.flavor == Flavor::Cpp && operator_spelling(&callee_name).is_some() {
            if let Some(named) = self.operator_written(call, &file, &site, &written, &callee_name) {
                return Some(self.judged_at(site, named, call));
            }
            // An in-tree operator at a macro's name that its arguments do not write
            // is the macro body's; any other is a library type's or not written.
            let in_macro = written.as_ref().is_some_and(|w| w.called) && self.in_tree(call);
            let reason = if in_macro { "macro" } else { "operator" };
            return Some(set_apart(site, None, &callee_name, Some(reason), None));
        }
        let Some(written) = written else {
            return Some(set_apart(
                site,
                None,
                &callee_name,
                Some("not_written"),
                None,
            ));
        };
        if written.is_macro {
            return Some(set_apart(site, None, &callee_name, Some("macro"), None));
        }
        if callee_name == "operator()"
            && written.name != callee_name
            && self.defined_at(call, &file, site.line)
        {
            // A lambda written on the call's own line and called there under
            // another name: a macro expands the lambda and calls it
            // (`EXPECT_EQ(…, FMT_STRING("{}"))`); the name written is the macro's.
            return Some(set_apart(site, None, &callee_name, Some("macro"), None));
        }
        let named = if written.name == callee_name {
            Some(written.clone())
        } else {
            self.renamed(&written, &callee_name).or_else(|| {
                self.written_in_arguments(
                    call,
                    &file,
                    site.line,
                    &Some(written.clone()),
                    &callee_name,
                )
            })
        };
        let Some(named) = named else {
            let reason = match &self.flavor {
                Flavor::Rust { .. } => "not_written",
                _ => "macro",
            };
            return Some(set_apart(site, None, &callee_name, Some(reason), None));
        };
        let site = self.judged_at(site, named, call);
        Some(site)
    }

    /// Whether the callee is a declaration of the tree.
    fn in_tree(&mut self, call: &IrCall) -> bool {
        self.targets(call)
            .iter()
            .any(|t| matches!(t, TruthTarget::InTree { .. }))
    }

    /// A judged site at the name the source writes (a call in a macro's arguments
    /// may lie on a later line than the macro's name).
    fn judged_at(&mut self, mut site: TruthSite, named: Written, call: &IrCall) -> TruthSite {
        site.name = named.name;
        site.line = named.line.unwrap_or(site.line);
        site.column = Some(named.column);
        site.targets = self.targets(call);
        if site.targets.is_empty() {
            site.unjudged = Some("no_target".into());
        }
        site
    }

    /// C++: an operator call the source writes as an operator, named by its
    /// spelling (`operator==` at `==`, `operator[]` at the indexed expression, as
    /// the engine names and places them), when the callee is the tree's own
    /// operator. clang puts a binary, unary or assignment operator at its token
    /// and an index at its base; one written in a macro's arguments is at the
    /// macro's name and found there by order. An operator of a library type
    /// (`std::string::operator==`) and a conversion stay set apart.
    fn operator_written(
        &mut self,
        call: &IrCall,
        file: &str,
        site: &TruthSite,
        written: &Option<Written>,
        callee_name: &str,
    ) -> Option<Written> {
        let spelling = operator_spelling(callee_name)?;
        if !self.in_tree(call) {
            return None;
        }
        let column = site.column?;
        let text = self.source(file)?.get(site.line as usize - 1)?.clone();
        let at = column as usize - 1;
        let here = match written {
            None => operator_token_at(text.as_bytes(), at, spelling),
            Some(w) if spelling == "[]" && !w.called => {
                let end = w.column as usize - 1 + w.name.len();
                let next = skip_space(text.as_bytes(), end);
                text.as_bytes().get(next) == Some(&b'[')
            }
            Some(_) => false,
        };
        if here {
            return Some(Written {
                name: callee_name.to_string(),
                column,
                line: None,
                called: true,
                is_macro: false,
            });
        }
        self.written_in_arguments(call, file, site.line, written, callee_name)
    }

    /// A written name other than the callee's that still names this call: a C++
    /// constructor named by its class elsewhere on the line (`Vec2 a(1, 2)` puts the
    /// call at `a`), a call of a closure or lambda object by its variable, a Rust call
    /// through a local that holds a function item.
    fn renamed(&self, written: &Written, callee_name: &str) -> Option<Written> {
        match &self.flavor {
            Flavor::Cpp | Flavor::C => {
                (callee_name == "operator()" && written.called).then(|| written.clone())
            }
            Flavor::Rust { .. } => {
                (callee_name.starts_with("{closure") && written.called).then(|| written.clone())
            }
        }
    }

    /// The callee's source name: its DISubprogram's, else the last segment of its
    /// demangled symbol (`core::fmt::Arguments::new` → `new`).
    fn callee_name(&self, call: &IrCall) -> String {
        let name = callee_short_name(call);
        let Callee::Direct {
            symbol,
            definition: None,
        } = &call.callee
        else {
            return name;
        };
        let shown = self.display(symbol);
        let path = shown.split('(').next().unwrap_or(&shown);
        let last = last_path_segment(path);
        if last.is_empty() {
            name
        } else {
            last.to_string()
        }
    }

    /// C/C++: clang places a call written in a macro's arguments
    /// (`EXPECT_EQ(f(x), 1)`, `ASSERT_OK(\n Put(WriteOptions(), k))`) at the
    /// macro's name. The arguments are read whole (every line up to the macro's
    /// closing parenthesis, literals and comments blanked) and the callee's written
    /// occurrences — `name(`, `name<…>(`, a construction's `Class{`, an operator's
    /// token — are matched to the body's calls of that callee at that site in order:
    /// the k-th call is the k-th occurrence. A call with no occurrence left is one
    /// the macro's own body makes, and stays set apart.
    fn written_in_arguments(
        &mut self,
        call: &IrCall,
        file: &str,
        line: u32,
        written: &Option<Written>,
        callee_name: &str,
    ) -> Option<Written> {
        let written = written.as_ref()?;
        if matches!(self.flavor, Flavor::Rust { .. }) || !written.called {
            return None;
        }
        let open_line = line;
        let lines = self.source(file)?;
        let open_at = written.column as usize - 1 + written.name.len();
        let span = macro_argument_span(lines, open_line as usize - 1, open_at)?;
        let occurrences = occurrences_in(&span, callee_name);
        let caller = call.caller.as_ref().map_or_else(String::new, |c| {
            c.linkage_name
                .clone()
                .unwrap_or_else(|| format!("{}:{}", c.name, c.line))
        });
        let key = (
            call.module,
            caller,
            file.to_string(),
            line,
            written.column,
            callee_name.to_string(),
        );
        let seen = self.in_arguments.entry(key).or_insert(0);
        let k = *seen;
        *seen += 1;
        let &(at_line, at_column) = occurrences.get(k)?;
        Some(Written {
            name: callee_name.to_string(),
            column: at_column,
            line: Some(at_line),
            called: true,
            is_macro: false,
        })
    }

    fn implicit_by_callee(&self, call: &IrCall) -> Option<&'static str> {
        let Callee::Direct { symbol, definition } = &call.callee else {
            return None;
        };
        let shown = self.display(symbol);
        match &self.flavor {
            Flavor::Rust { .. } => {
                if shown.contains("drop_in_place") {
                    Some("drop")
                } else if shown.starts_with("core::panicking::")
                    || shown.contains("panic_const_")
                    || shown.starts_with("core::ub_checks::")
                {
                    Some("panic_check")
                } else {
                    None
                }
            }
            Flavor::Cpp | Flavor::C => {
                let name = definition.as_ref().map_or("", |d| d.name.as_str());
                (name.starts_with('~') || is_itanium_destructor(symbol)).then_some("destructor")
            }
        }
    }

    fn unjudged_by_callee(&self, call: &IrCall) -> Option<&'static str> {
        match &call.callee {
            Callee::Indirect => Some("indirect_call"),
            Callee::Virtual { method: None, .. } => Some("virtual_unresolved"),
            Callee::Virtual { .. } => None,
            Callee::Direct {
                symbol,
                definition: None,
            } => {
                let Flavor::Rust { tree_crates } = &self.flavor else {
                    return None;
                };
                let shown = self.display(symbol);
                let krate = shown
                    .trim_start_matches('<')
                    .split("::")
                    .next()
                    .unwrap_or("");
                tree_crates
                    .iter()
                    .any(|c| c == krate)
                    .then_some("other_crate")
            }
            Callee::Direct { .. } => None,
        }
    }

    /// The acceptable targets of a judged call.
    /// Whether the callee is defined in `file` at `line`.
    fn defined_at(&mut self, call: &IrCall, file: &str, line: u32) -> bool {
        self.targets(call).iter().any(
            |t| matches!(t, TruthTarget::InTree { file: f, line: l } if f == file && *l == line),
        )
    }

    fn targets(&mut self, call: &IrCall) -> Vec<TruthTarget> {
        let (symbol, definition) = match &call.callee {
            Callee::Direct { symbol, definition } => (symbol.clone(), definition.clone()),
            Callee::Virtual {
                method, type_id, ..
            } => (
                method
                    .as_ref()
                    .and_then(|m| m.linkage_name.clone())
                    .unwrap_or_else(|| type_id.clone()),
                method.clone(),
            ),
            Callee::Indirect => return vec![],
        };
        let mut targets = BTreeSet::new();
        if let Some(d) = &definition {
            if let Some(p) = self.position_of(d) {
                targets.insert(TruthTarget::InTree {
                    file: p.file,
                    line: p.line,
                });
            }
            if let Some((file, line)) = &d.declaration {
                if let Some(rel) = self.relative(file) {
                    if *line > 0 {
                        targets.insert(TruthTarget::InTree {
                            file: rel,
                            line: *line,
                        });
                    }
                }
            }
        }
        if targets.is_empty() {
            let symbol = definition
                .as_ref()
                .and_then(|d| d.linkage_name.clone())
                .unwrap_or(symbol);
            targets.insert(TruthTarget::Outside {
                symbol: self.display(&symbol),
            });
        }
        targets.into_iter().collect()
    }

    /// A subprogram's name line in the tree, an attribute line moved to the item it
    /// decorates.
    fn position_of(&mut self, sp: &Subprogram) -> Option<Position> {
        let file = self.relative(sp.file.as_ref()?)?;
        if sp.line == 0 {
            return None;
        }
        let line = match self.flavor {
            Flavor::Rust { .. } => self.item_after_attributes(&file, sp.line),
            _ => sp.line,
        };
        Some(Position { file, line })
    }

    /// The first line at or after `line` that is not an attribute or a comment
    /// (`#[derive(Clone)]` → the `struct` it decorates); attributes spanning lines
    /// are followed by bracket depth.
    fn item_after_attributes(&mut self, file: &str, line: u32) -> u32 {
        let Some(lines) = self.source(file) else {
            return line;
        };
        let mut depth = 0i32;
        let mut n = line as usize;
        while n >= 1 && n <= lines.len() && n < line as usize + 200 {
            let text = lines[n - 1].trim();
            let in_attribute = depth > 0 || text.starts_with("#[") || text.starts_with("#![");
            if in_attribute {
                for c in text.chars() {
                    match c {
                        '[' => depth += 1,
                        ']' => depth -= 1,
                        _ => {}
                    }
                }
            } else if !(text.starts_with("//") || text.is_empty()) {
                return n as u32;
            }
            n += 1;
        }
        line
    }

    /// A path in the tree as the truth writes it (relative, `/`-separated).
    fn relative(&self, path: &Path) -> Option<String> {
        let rel = path.strip_prefix(&self.compiled_root).ok()?;
        let text = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy())
            .collect::<Vec<_>>()
            .join("/");
        (!text.is_empty() && !text.starts_with("..")).then_some(text)
    }

    fn source(&mut self, file: &str) -> Option<&Vec<String>> {
        let root = self.root;
        self.lines
            .entry(file.to_string())
            .or_insert_with(|| {
                let bytes = std::fs::read(root.join(file)).ok()?;
                Some(
                    String::from_utf8_lossy(&bytes)
                        .split('\n')
                        .map(str::to_string)
                        .collect(),
                )
            })
            .as_ref()
    }

    /// The name the source writes at (line, column): the last segment of the path or
    /// member name starting there.
    fn written_name(&mut self, file: &str, line: u32, column: u32) -> Option<Written> {
        if line == 0 || column == 0 {
            return None;
        }
        let rust = matches!(self.flavor, Flavor::Rust { .. });
        let text = self.source(file)?.get(line as usize - 1)?;
        read_path(text, column as usize - 1, rust).map(|(name, col, called, is_macro)| Written {
            name,
            column: col as u32 + 1,
            line: None,
            called,
            is_macro,
        })
    }

    /// The class name `name` written as a construction on the line, nearest at or
    /// before `column` (clang's column is the class, the declared variable after it,
    /// or `new`): followed by `(`, `{`, `)`, `;` or the variable's name — not a
    /// macro argument such as `TEST_F(DBTest, Name)`.
    fn token_on_line(&mut self, file: &str, line: u32, name: &str, column: u32) -> Option<Written> {
        let text = self.source(file)?.get(line as usize - 1)?.clone();
        let b = text.as_bytes();
        let constructs = |p: &usize| {
            let mut after = skip_space(b, p + name.len());
            // `W<int> w(3)`, `new formatter<int>()`: template arguments first.
            if after < b.len() && b[after] == b'<' {
                match skip_angles(b, after) {
                    Some(end) => after = skip_space(b, end),
                    None => return false,
                }
            }
            after >= b.len()
                || matches!(b[after], b'(' | b'{' | b')' | b';')
                || is_ident_start(b[after])
        };
        let found: Vec<usize> = identifier_positions(&text, name);
        let pick = found
            .iter()
            .rev()
            .filter(|&&p| p < column as usize)
            .find(|p| constructs(p))
            .copied()?;
        Some(Written {
            name: name.to_string(),
            column: pick as u32 + 1,
            line: None,
            called: true,
            is_macro: false,
        })
    }

    fn display(&self, symbol: &str) -> String {
        let shown = self.demangled.get(symbol).map_or(symbol, String::as_str);
        clean_symbol(shown)
    }
}

/// What the source writes at a call's column.
#[derive(Debug, Clone)]
struct Written {
    name: String,
    column: u32,
    /// The line, when not the compiler's (a macro argument on a later line).
    line: Option<u32>,
    /// The name is followed by `(` (or a turbofish then `(`): a call as written.
    called: bool,
    /// Rust: the name is followed by `!`.
    is_macro: bool,
}

/// A site set apart. An implicit one is named by its callee (no source text names
/// it) at the compiler's column; an unjudged one is a written call, named as written.
fn set_apart(
    mut site: TruthSite,
    written: Option<Written>,
    callee_name: &str,
    implicit: Option<&str>,
    unjudged: Option<&str>,
) -> TruthSite {
    match written {
        Some(w) => {
            site.name = w.name;
            site.column = Some(w.column);
        }
        None => site.name = callee_name.to_string(),
    }
    if site.name.is_empty() {
        site.name = "(call)".into();
    }
    site.implicit = implicit.map(str::to_string);
    site.unjudged = unjudged.map(str::to_string);
    site
}

#[derive(Default)]
struct Merged {
    site: Option<TruthSite>,
    targets: BTreeSet<TruthTarget>,
    judged: bool,
    unjudged: Option<String>,
    implicit: Option<String>,
}

impl Merged {
    fn add(&mut self, site: TruthSite) {
        if site.unjudged.is_some() && self.unjudged.is_none() {
            self.unjudged = site.unjudged.clone();
        }
        if site.implicit.is_some() && self.implicit.is_none() {
            self.implicit = site.implicit.clone();
        }
        if site.is_judged() {
            self.judged = true;
            self.targets.extend(site.targets.iter().cloned());
        }
        if self.site.is_none() {
            self.site = Some(site);
        }
    }

    /// One site: an unjudged record makes the site unjudged (the truth is not whole
    /// there); otherwise judged records win over implicit ones at the same name.
    fn finish(self) -> TruthSite {
        let mut site = self.site.expect("a merged site has one record");
        site.targets = self.targets.into_iter().collect();
        site.unjudged = self.unjudged;
        site.implicit = if self.judged || site.unjudged.is_some() {
            None
        } else {
            self.implicit
        };
        if site.unjudged.is_some() {
            site.targets.clear();
        }
        site
    }
}

/// The callee's source name without template arguments (`twice<double>` → `twice`).
fn callee_short_name(call: &IrCall) -> String {
    let name = match &call.callee {
        Callee::Direct {
            definition: Some(d),
            ..
        } => d.name.clone(),
        Callee::Direct { symbol, .. } => symbol.clone(),
        Callee::Virtual {
            method: Some(m), ..
        } => m.name.clone(),
        _ => String::new(),
    };
    if name.starts_with("operator") {
        return name;
    }
    match name.find('<') {
        Some(at) if at > 0 => name[..at].to_string(),
        _ => name,
    }
}

/// The last `::` segment of a path outside any `<…>`, without its own generic
/// arguments (`<A as B>::f<T>` → `f`).
fn last_path_segment(path: &str) -> &str {
    let mut depth = 0i32;
    let mut start = 0;
    let bytes = path.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'<' => depth += 1,
            b'>' => depth -= 1,
            b':' if depth == 0 && bytes.get(i + 1) == Some(&b':') => {
                start = i + 2;
                i += 1;
            }
            _ => {}
        }
        i += 1;
    }
    let last = &path[start.min(path.len())..];
    match last.find('<') {
        Some(at) if at > 0 => &last[..at],
        _ => last,
    }
}

fn is_constructor(call: &IrCall) -> bool {
    let Callee::Direct {
        definition: Some(d),
        symbol,
    } = &call.callee
    else {
        return false;
    };
    let class = d
        .scope_type
        .as_deref()
        .map(|c| c.split('<').next().unwrap_or(c));
    class == Some(d.name.as_str()) || is_itanium_constructor(symbol)
}

/// `_ZN…C1E…`/`C2E` (complete/base-object constructors).
fn is_itanium_constructor(symbol: &str) -> bool {
    symbol.starts_with("_ZN") && (symbol.contains("C1E") || symbol.contains("C2E"))
}

/// `_ZN…D0E…`/`D1E`/`D2E` (deleting/complete/base-object destructors).
fn is_itanium_destructor(symbol: &str) -> bool {
    symbol.starts_with("_ZN")
        && (symbol.contains("D0Ev") || symbol.contains("D1Ev") || symbol.contains("D2Ev"))
}

/// The demangled form of every mangled symbol (Itanium `_Z…`, Rust legacy `_ZN…E`
/// and v0 `_R…`) by one `c++filt` run per few hundred symbols; binutils' c++filt
/// knows all three schemes. Names that are not mangled are left out.
pub fn demangle_all(
    symbols: impl IntoIterator<Item = String>,
    bound: std::time::Duration,
) -> Result<HashMap<String, String>, crate::toolchain::Outcome> {
    let mut mangled: Vec<String> = symbols
        .into_iter()
        .filter(|s| s.starts_with("_Z") || s.starts_with("_R"))
        .collect();
    mangled.sort();
    mangled.dedup();
    let mut out = HashMap::new();
    if mangled.is_empty() {
        return Ok(out);
    }
    let filt = crate::toolchain::Tool::locate("c++filt")?;
    let cwd = std::env::temp_dir();
    for chunk in mangled.chunks(400) {
        let finished = filt.command(&cwd).args(chunk).timeout(bound).run()?;
        for (symbol, shown) in chunk.iter().zip(finished.stdout.lines()) {
            out.insert(symbol.clone(), shown.to_string());
        }
    }
    Ok(out)
}

/// The symbols a truth may need to show or classify: every direct callee's.
pub fn callee_symbols(calls: &[IrCall]) -> impl Iterator<Item = String> + '_ {
    calls.iter().filter_map(|c| match &c.callee {
        Callee::Direct { symbol, .. } => Some(symbol.clone()),
        Callee::Virtual { method, .. } => method.as_ref().and_then(|m| m.linkage_name.clone()),
        Callee::Indirect => None,
    })
}

/// A demangled symbol without rustc's hash suffix and crate disambiguators.
pub fn clean_symbol(shown: &str) -> String {
    let mut s = shown.to_string();
    if let Some(at) = s.rfind("::h") {
        let tail = &s[at + 3..];
        if tail.len() == 16 && tail.chars().all(|c| c.is_ascii_hexdigit()) {
            s.truncate(at);
        }
    }
    // v0: `core[c1f1a4ba060b9bfa]::…` → `core::…`.
    let mut out = String::with_capacity(s.len());
    let mut rest = s.as_str();
    while let Some(open) = rest.find('[') {
        let close = rest[open..].find(']').map(|c| open + c);
        match close {
            Some(close)
                if close > open + 1
                    && rest[open + 1..close].chars().all(|c| c.is_ascii_hexdigit()) =>
            {
                out.push_str(&rest[..open]);
                rest = &rest[close + 1..];
            }
            _ => {
                out.push_str(&rest[..=open]);
                rest = &rest[open + 1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// The symbolic operators a call can be written as, by spelling; `()`, `->`,
/// `new`/`delete` and conversions are not written as their own token.
const WRITTEN_OPERATORS: &[&str] = &[
    "==", "!=", "<=>", "<=", ">=", "<<=", ">>=", "<<", ">>", "<", ">", "+=", "-=", "*=", "/=",
    "%=", "&=", "|=", "^=", "=", "++", "--", "&&", "||", "+", "-", "*", "/", "%", "&", "|", "^",
    "~", "!", "[]", ",",
];

/// `operator==` → `==`, for the operators the source writes as a token.
fn operator_spelling(callee_name: &str) -> Option<&str> {
    let spelling = callee_name.strip_prefix("operator")?.trim();
    WRITTEN_OPERATORS.iter().find(|o| **o == spelling).copied()
}

const OPERATOR_CHARS: &[u8] = b"=!<>+-*/%&|^~";

/// Whether the operator token `spelling` stands at byte `at`, whole (`=` is not
/// the first byte of `==`, `<` not of `<<`).
fn operator_token_at(b: &[u8], at: usize, spelling: &str) -> bool {
    if spelling == "[]"
        || !b
            .get(at..)
            .is_some_and(|rest| rest.starts_with(spelling.as_bytes()))
    {
        return false;
    }
    let end = at + spelling.len();
    let before_glues = at > 0 && OPERATOR_CHARS.contains(&b[at - 1]);
    let last = *spelling.as_bytes().last().expect("operators are not empty");
    let after_glues = b
        .get(end)
        .is_some_and(|&c| c == b'=' || (c == last && b"<>&|+-".contains(&c)));
    !before_glues && !after_glues
}

/// The most lines a macro call's arguments are read over.
const MACRO_LINES: usize = 64;

/// One line of a macro call's arguments: its number, its text with string and
/// character literals and comments blanked, and the byte range inside the
/// parentheses.
struct ArgumentLine {
    line: u32,
    text: Vec<u8>,
    from: usize,
    to: usize,
}

/// The arguments of the macro call whose name ends at byte `after_name` of line
/// index `first` (0-based): from its `(` to the matching `)`, over at most
/// [`MACRO_LINES`] lines; `None` when no `(` follows or it does not close.
fn macro_argument_span(
    lines: &[String],
    first: usize,
    after_name: usize,
) -> Option<Vec<ArgumentLine>> {
    let mut out = Vec::new();
    let mut depth = 0u32;
    let mut state = Lexical::Code;
    for (n, raw) in lines.iter().enumerate().skip(first).take(MACRO_LINES) {
        let text = blank_literals(raw.as_bytes(), &mut state);
        let mut i = if n == first {
            skip_space(&text, after_name)
        } else {
            0
        };
        if n == first {
            if text.get(i) != Some(&b'(') {
                return None;
            }
            depth = 1;
            i += 1;
        }
        let from = i;
        while i < text.len() {
            match text[i] {
                b'(' => depth += 1,
                b')' => {
                    depth -= 1;
                    if depth == 0 {
                        out.push(ArgumentLine {
                            line: n as u32 + 1,
                            text,
                            from,
                            to: i,
                        });
                        return Some(out);
                    }
                }
                _ => {}
            }
            i += 1;
        }
        let to = text.len();
        out.push(ArgumentLine {
            line: n as u32 + 1,
            text,
            from,
            to,
        });
    }
    None
}

/// Where the lexer stands at a line's end.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Lexical {
    Code,
    BlockComment,
}

/// A line with the contents of its string and character literals and its comments
/// replaced by spaces (same length, so byte columns hold); a block comment may run
/// on from an earlier line.
fn blank_literals(b: &[u8], state: &mut Lexical) -> Vec<u8> {
    let mut out = b.to_vec();
    let mut i = 0;
    while i < b.len() {
        if *state == Lexical::BlockComment {
            if b[i..].starts_with(b"*/") {
                out[i] = b' ';
                out[i + 1] = b' ';
                i += 2;
                *state = Lexical::Code;
            } else {
                out[i] = b' ';
                i += 1;
            }
            continue;
        }
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                out[i..].iter_mut().for_each(|c| *c = b' ');
                return out;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                *state = Lexical::BlockComment;
                out[i] = b' ';
                out[i + 1] = b' ';
                i += 2;
            }
            quote @ (b'"' | b'\'') => {
                i += 1;
                while i < b.len() && b[i] != quote {
                    let escaped = b[i] == b'\\';
                    out[i] = b' ';
                    if escaped && i + 1 < b.len() {
                        out[i + 1] = b' ';
                        i += 1;
                    }
                    i += 1;
                }
                i += 1;
            }
            _ => i += 1,
        }
    }
    out
}

/// The (line, column) of each occurrence of the callee written in a macro's
/// arguments, in source order: `name(`, `name<…>(`, `Name{`; an operator's token;
/// an index `x[i]` at its base.
fn occurrences_in(span: &[ArgumentLine], callee_name: &str) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    let spelling = operator_spelling(callee_name);
    for arg in span {
        let b = &arg.text[..];
        match spelling {
            Some("[]") => {
                for p in arg.from..arg.to {
                    if b[p] == b'[' && index_base(b, arg.from, p).is_some() {
                        let base = index_base(b, arg.from, p).expect("checked");
                        out.push((arg.line, base as u32 + 1));
                    }
                }
            }
            Some(op) => {
                for p in arg.from..arg.to {
                    if operator_token_at(&b[..arg.to], p, op) {
                        out.push((arg.line, p as u32 + 1));
                    }
                }
            }
            None => {
                let text = String::from_utf8_lossy(&b[..arg.to]);
                for p in identifier_positions(&text, callee_name) {
                    if p < arg.from {
                        continue;
                    }
                    let mut after = skip_space(b, p + callee_name.len());
                    if after < arg.to && b[after] == b'<' {
                        match skip_angles(&b[..arg.to], after) {
                            Some(end) => after = skip_space(b, end),
                            None => continue,
                        }
                    }
                    if after < arg.to && matches!(b[after], b'(' | b'{') {
                        out.push((arg.line, p as u32 + 1));
                    }
                }
            }
        }
    }
    out
}

/// The start of the indexed expression whose `[` is at `open`: the name, member
/// path or call before it (`key[i]`, `a.b[i]`, `v[i][j]` at `v`); `None` when none
/// is written there (an array declarator's or a lambda's `[`).
fn index_base(b: &[u8], from: usize, open: usize) -> Option<usize> {
    let mut i = open;
    while i > from && b[i - 1] == b' ' {
        i -= 1;
    }
    let end = i;
    while i > from {
        let c = b[i - 1];
        if is_ident(c) || c == b'.' || c == b':' || c == b']' || c == b'[' {
            i -= 1;
        } else if c == b'>' && i >= 2 && b[i - 2] == b'-' {
            i -= 2;
        } else {
            break;
        }
    }
    (i < end && is_ident_start(b[i])).then_some(i)
}

fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_' || c >= 0x80
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c >= 0x80
}

/// Reads the path starting at byte `start` of `text`: identifiers joined by `::`
/// (with `<…>` generic arguments skipped), then what follows the last one. Returns
/// (last identifier, its byte offset, followed by a call, followed by `!`).
fn read_path(text: &str, start: usize, rust: bool) -> Option<(String, usize, bool, bool)> {
    let b = text.as_bytes();
    let mut i = start;
    if i >= b.len() {
        return None;
    }
    // A qualified Rust path `<T as Trait>::f` starts at `<`.
    if rust && b[i] == b'<' {
        i = skip_angles(b, i)?;
        i = expect_sep(b, i)?;
    }
    if !is_ident_start(b[i]) {
        return None;
    }
    let first_end = (i..b.len()).find(|&k| !is_ident(b[k])).unwrap_or(b.len());
    let keywords = if rust { RUST_KEYWORDS } else { C_KEYWORDS };
    if keywords.contains(&&text[i..first_end]) {
        return None;
    }
    loop {
        let s = i;
        while i < b.len() && is_ident(b[i]) {
            i += 1;
        }
        let name = &text[s..i];
        let mut j = skip_space(b, i);
        // Turbofish (`f::<T>`) or C++ template arguments (`f<T>(`).
        if j + 2 < b.len() && &b[j..j + 3] == b"::<" {
            j = skip_space(b, skip_angles(b, j + 2)?);
        } else if !rust && j < b.len() && b[j] == b'<' {
            if let Some(after) = skip_angles(b, j) {
                let after = skip_space(b, after);
                if after < b.len() && (b[after] == b'(' || b[after] == b':') {
                    j = after;
                }
            }
        }
        if j + 1 < b.len() && &b[j..j + 2] == b"::" {
            let k = skip_space(b, j + 2);
            if k < b.len() && is_ident_start(b[k]) {
                i = k;
                continue;
            }
            if rust && k < b.len() && b[k] == b'<' {
                let after = skip_angles(b, k)?;
                i = expect_sep(b, after)?;
                continue;
            }
        }
        let is_macro = rust && j < b.len() && b[j] == b'!' && b.get(j + 1) != Some(&b'=');
        let called = j >= b.len() || b[j] == b'(';
        return Some((name.to_string(), s, called, is_macro));
    }
}

/// Words that are never the name of a called function. `crate`, `self` and `super`
/// are not among them: they start paths (`crate::a::f()`).
const RUST_KEYWORDS: &[&str] = &[
    "as", "async", "await", "break", "const", "continue", "dyn", "else", "enum", "extern", "fn",
    "for", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref",
    "return", "static", "struct", "trait", "type", "unsafe", "use", "where", "while",
];
const C_KEYWORDS: &[&str] = &[
    "case", "const", "delete", "do", "else", "enum", "extern", "for", "if", "new", "return",
    "sizeof", "static", "struct", "switch", "throw", "while",
];

fn skip_space(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && (b[i] == b' ' || b[i] == b'\t') {
        i += 1;
    }
    i
}

/// From a `<` to just after its matching `>`.
fn skip_angles(b: &[u8], mut i: usize) -> Option<usize> {
    let mut depth = 0i32;
    while i < b.len() {
        match b[i] {
            b'<' => depth += 1,
            b'>' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            b';' | b'{' | b'}' => return None,
            _ => {}
        }
        i += 1;
    }
    None
}

fn expect_sep(b: &[u8], i: usize) -> Option<usize> {
    let i = skip_space(b, i);
    (i + 1 < b.len() && &b[i..i + 2] == b"::").then(|| skip_space(b, i + 2))
}

/// Byte offsets of `name` as a whole identifier in `text`.
fn identifier_positions(text: &str, name: &str) -> Vec<usize> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(at) = text[from..].find(name) {
        let p = from + at;
        let end = p + name.len();
        let before_ok = p == 0 || !is_ident(b[p - 1]);
        let after_ok = end >= b.len() || !is_ident(b[end]);
        if before_ok && after_ok {
            out.push(p);
        }
        from = p + name.len().max(1);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_is_read_to_its_last_segment() {
        let line = "    let mut c = Counter::new();";
        let (name, at, called, m) = read_path(line, 16, true).unwrap();
        assert_eq!((name.as_str(), at + 1, called, m), ("new", 26, true, false));
        let line = "    let v = c.bump(3);";
        assert_eq!(read_path(line, 14, true).unwrap().0, "bump");
        let line = "    let x = <Sq as Shape>::area(&s);";
        assert_eq!(read_path(line, 12, true).unwrap().0, "area");
        let line = "    let x = util::generic::<Sq>(&s);";
        let (name, at, called, _) = read_path(line, 12, true).unwrap();
        assert_eq!((name.as_str(), at + 1, called), ("generic", 19, true));
        let line = "    println!(\"{}\", x);";
        assert!(read_path(line, 4, true).unwrap().3);
        // A path from the crate's root is read to its last segment.
        let line = "    crate::find_byte::find_byte(needle, haystack)";
        let (name, at, called, _) = read_path(line, 4, true).unwrap();
        assert_eq!((name.as_str(), at + 1, called), ("find_byte", 23, true));
        let line = "    super::util::helper(1)";
        assert_eq!(read_path(line, 4, true).unwrap().0, "helper");
        let line = "    let v: u32 = s.parse()?;";
        assert!(read_path(line, 26, true).is_none());
        let line = "  std::printf(\"%d\", twice<double>(2.0));";
        assert_eq!(read_path(line, 2, false).unwrap().0, "printf");
        assert_eq!(read_path(line, 20, false).unwrap().0, "twice");
    }

    #[test]
    fn symbols_lose_hashes_and_disambiguators() {
        assert_eq!(
            clean_symbol(
                "core[c1f1a4ba060b9bfa]::panicking::panic_const::panic_const_add_overflow"
            ),
            "core::panicking::panic_const::panic_const_add_overflow"
        );
        assert_eq!(
            clean_symbol("alloc::string::String::len::heaa227142f5c5026"),
            "alloc::string::String::len"
        );
        assert_eq!(clean_symbol("a[i]"), "a[i]");
    }

    #[test]
    fn the_last_segment_of_a_demangled_path_is_its_name() {
        assert_eq!(last_path_segment("core::fmt::Arguments::new"), "new");
        assert_eq!(last_path_segment("<a::B as c::D>::f<u8>"), "f");
        assert_eq!(last_path_segment("printf"), "printf");
    }

    #[test]
    fn operators_are_found_as_whole_tokens() {
        let b = b"  if (a == b && c = d) x <<= 1;";
        assert!(operator_token_at(b, 8, "=="));
        assert!(!operator_token_at(b, 8, "="));
        assert!(!operator_token_at(b, 9, "="));
        assert!(operator_token_at(b, 18, "="));
        assert!(!operator_token_at(b, 25, "<<"));
        assert!(operator_token_at(b, 25, "<<="));
        assert_eq!(operator_spelling("operator=="), Some("=="));
        assert_eq!(operator_spelling("operator[]"), Some("[]"));
        assert_eq!(operator_spelling("operator()"), None);
        assert_eq!(operator_spelling("operator bool"), None);
    }

    #[test]
    fn a_macro_call_s_arguments_are_read_over_its_lines_in_order() {
        let lines: Vec<String> = [
            "  ASSERT_OK(Put(\"a)\", f(1)), // f(2)",
            "            f(3) == key[i]);",
            "  f(4);",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let span = macro_argument_span(&lines, 0, 11).expect("the arguments close");
        assert_eq!(span.len(), 2);
        assert_eq!(occurrences_in(&span, "f"), vec![(1, 23), (2, 13)]);
        assert_eq!(occurrences_in(&span, "Put"), vec![(1, 13)]);
        assert_eq!(occurrences_in(&span, "operator=="), vec![(2, 18)]);
        assert_eq!(occurrences_in(&span, "operator[]"), vec![(2, 21)]);
        let construction = vec!["  CHECK(W<int>(3), Slice{x})".to_string()];
        let span = macro_argument_span(&construction, 0, 7).unwrap();
        assert_eq!(occurrences_in(&span, "W"), vec![(1, 9)]);
        assert_eq!(occurrences_in(&span, "Slice"), vec![(1, 20)]);
        // No `(` after the name, or none that closes: not a macro call's arguments.
        assert!(macro_argument_span(&lines, 1, 0).is_none());
        let open = vec!["  CHECK(f(1),".to_string()];
        assert!(macro_argument_span(&open, 0, 7).is_none());
    }

    #[test]
    fn identifiers_are_found_whole() {
        assert_eq!(identifier_positions("Vec2 a(1), Vec2x b", "Vec2"), vec![0]);
    }
}
