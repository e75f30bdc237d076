//! Rust frontend: one syntax tree → FileFacts, in one bounded walk while the tree
//! is alive.
//!
//! Items are declarations: `fn` (function, or method inside `impl`/`trait`),
//! `struct`/`union` (class), `enum` (enum; its variants are its `fields`),
//! `trait` (interface; its methods, with or without a default body, are its
//! members). An `impl T` / `impl Tr for T` block is a class declaration named by
//! T's last segment with `impl_of = T` and the trait as its base, so its methods
//! are `file::T::m`. An inline `mod m { }` is a class declaration with
//! `is_module`. A closure is a lambda declaration. `use` trees become one
//! `RustUse` import per leaf, bound in the scope the `use` stands in; `mod m;`
//! is a `RustMod` import (the module tree is built by [`assign_module_paths`]).
//!
//! Calls: `f()` is `Name`; `a.b()` is `Member` on the receiver's shape;
//! `a::b::f()` / `T::new()` is `Member` on a path that starts with
//! [`policy::SCOPED`]. Macro invocations are not calls, and their token trees
//! are not read (README: known gaps).
//!
//! Conditional compilation ([`cfg`]): code under a `#[cfg]` (or a `cfg_attr`
//! that expands to one) the build leaves out is walked as inactive: its
//! declarations are pushed marked `inactive`, it binds no name, pushes no
//! import and no call. A file that only an inactive `mod x;` reaches is made
//! inactive once the module tree is known ([`assign_module_paths`]).

use std::collections::HashMap;

use crate::lang::syntax::{column_of, line_of, tail_of, ErrorCount};
use tree_sitter::Node;

use crate::facts::{
    ArgShape, Binding, BindingValue, Call, CallIdx, Callee, Decl, DeclIdx, DeclKind, Decorator,
    Field, FileFacts, Import, ImportKind, LiteralType, Param, Receiver, Scope, ScopeIdx, ScopeKind,
    TypeRef, ValueExpr,
};
use crate::lang::core::{self, push_call, CallSite, LangShape, MAX_DEPTH};
use crate::lang::rust::cfg::{self, Builds, Env, Predicate};
use crate::lang::rust::policy;
use crate::lang::Language;

const MAX_TYPE_DEPTH: u32 = 64;
const MAX_WROTE: usize = 120;

/// `tree_wide` carries the build configuration and each package's features; a
/// file no build compiles (a test target when the run leaves tests out) is
/// `build_excluded`.
pub fn extract(
    path: &str,
    source: &[u8],
    tree: &tree_sitter::Tree,
    tree_wide: &crate::lang::TreeWide,
) -> FileFacts {
    let (package_dir, features) = tree_wide.rust_packages.of_file(path);
    let env = Env {
        rust: &tree_wide.config.rust,
        features,
    };
    let Some(builds) = cfg::file_builds(path, package_dir, &tree_wide.config) else {
        let mut facts = FileFacts::new(path, Language::Rust);
        facts.build_excluded = true;
        return facts;
    };
    let mut x = Extractor::new(path, source, env, builds);
    x.items(tree.root_node(), 0);
    let mut facts = x.facts;
    facts.parse_errors = x.errors.total(tree);
    facts
}

/// The calls read in a tree macro's argument join their file's calls where every
/// `macro_rules!` of that name in the file's crate forwards its expression (and
/// one does); otherwise they are dropped (the macro may discard its tokens).
/// Run once the crate roots are known (`module[1]`).
pub fn adopt_macro_argument_calls(facts: &mut [crate::facts::FileFacts]) {
    let mut verdict: HashMap<(String, String), bool> = HashMap::new();
    for f in facts.iter().filter(|f| f.language == Language::Rust) {
        let krate = f.module.get(1).cloned().unwrap_or_default();
        for (name, forwards) in &f.macro_rules {
            let e = verdict.entry((krate.clone(), name.clone())).or_insert(true);
            *e = *e && *forwards;
        }
    }
    for f in facts.iter_mut().filter(|f| f.language == Language::Rust) {
        let krate = f.module.get(1).cloned().unwrap_or_default();
        for (name, calls) in std::mem::take(&mut f.macro_argument_calls) {
            if verdict.get(&(krate.clone(), name)) != Some(&true) {
                continue;
            }
            let offset = f.calls.len() as CallIdx;
            for mut call in calls {
                renumber_calls(&mut call, offset);
                f.calls.push(call);
            }
        }
    }
}

/// Shift the call indices a call holds (its receiver, its arguments) by `offset`.
fn renumber_calls(call: &mut Call, offset: CallIdx) {
    let shift_receiver = |r: &mut Receiver| match r {
        Receiver::Call(i) => *i += offset,
        Receiver::CallThen { call, .. } => *call += offset,
        _ => {}
    };
    match &mut call.callee {
        Callee::Member { receiver, .. } => shift_receiver(receiver),
        Callee::Subscript { base, .. } => shift_receiver(base),
        Callee::Result(i) => *i += offset,
        Callee::Name(_) | Callee::Dynamic => {}
    }
    for a in call
        .args
        .iter_mut()
        .chain(call.keywords.iter_mut().map(|(_, a)| a))
    {
        if let ArgShape::Call(i) = a {
            *i += offset;
        }
    }
}

/// Give every Rust file its module: `module = [key, crate root path, "a::b"]`,
/// the key being `root::a::b` (the root's path alone for the crate root).
/// Crate roots are the files no `mod name;` reaches; from each, `mod name;`
/// declared in file F (inside inline modules `within`) is `D/within/name.rs` or
/// `D/within/name/mod.rs`, where D is F's directory for `lib.rs`, `main.rs`,
/// `mod.rs` and a crate root, else F's directory joined with F's stem.
pub fn assign_module_paths(
    facts: &mut [crate::facts::FileFacts],
    tree_wide: &crate::lang::TreeWide,
) {
    let by_path: HashMap<String, usize> = facts
        .iter()
        .enumerate()
        .filter(|(_, f)| f.language == Language::Rust)
        .map(|(i, f)| (f.path.clone(), i))
        .collect();
    // Children of each file: (child file, module name path below the file's
    // module, whether the `mod` is one the build leaves out).
    let mut children: Vec<Vec<(usize, Vec<String>, bool)>> = vec![Vec::new(); facts.len()];
    let mut reached = vec![false; facts.len()];
    let mut files: Vec<usize> = by_path.values().copied().collect();
    files.sort_unstable();
    let mod_children = |fi: usize, dir: &str, inactive: bool| -> Vec<(usize, Vec<String>)> {
        let mut out = Vec::new();
        for imp in &facts[fi].imports {
            let ImportKind::RustMod {
                name,
                within,
                inactive: left_out,
            } = &imp.kind
            else {
                continue;
            };
            if *left_out != inactive {
                continue;
            }
            let base = within.iter().fold(dir.to_string(), |b, w| join(&b, w));
            let candidates = [
                format!("{}.rs", join(&base, name)),
                join(&join(&base, name), "mod.rs"),
            ];
            if let Some(&child) = candidates.iter().find_map(|c| by_path.get(c.as_str())) {
                if child != fi {
                    let mut sub = within.clone();
                    sub.push(name.clone());
                    out.push((child, sub));
                }
            }
        }
        out
    };
    // The `mod`s the build compiles claim their files first; a file that only a
    // `mod` the build leaves out names is still placed in the tree, inactive.
    for inactive in [false, true] {
        for &fi in &files {
            for (child, sub) in mod_children(fi, &module_dir(&facts[fi].path), inactive) {
                if !reached[child] {
                    reached[child] = true;
                    children[fi].push((child, sub, inactive));
                }
            }
        }
        // A crate root that is no `lib.rs`/`main.rs` (`tests/it.rs`) keeps its
        // children beside it.
        for &fi in &files {
            let path = &facts[fi].path;
            let dir = path.rsplit_once('/').map(|(d, _)| d).unwrap_or("");
            if reached[fi] || module_dir(path) == dir {
                continue;
            }
            for (child, sub) in mod_children(fi, dir, inactive) {
                if !reached[child] {
                    reached[child] = true;
                    children[fi].push((child, sub, inactive));
                }
            }
        }
    }
    let mut roots: Vec<usize> = by_path.values().copied().filter(|&i| !reached[i]).collect();
    roots.sort_by(|a, b| facts[*a].path.cmp(&facts[*b].path));
    let mut assigned = vec![false; facts.len()];
    let mut left_out = Vec::new();
    for root in roots {
        let key = facts[root].path.clone();
        let mut stack = vec![(root, Vec::<String>::new(), false)];
        while let Some((fi, module, inactive)) = stack.pop() {
            if assigned[fi] || module.len() > 64 {
                continue;
            }
            assigned[fi] = true;
            if inactive {
                left_out.push(fi);
            }
            let path = module.join("::");
            facts[fi].module = vec![super::resolve::module_key(&key, &path), key.clone(), path];
            for (child, sub, edge_inactive) in children[fi].clone() {
                let mut m = module.clone();
                m.extend(sub);
                stack.push((child, m, inactive || edge_inactive));
            }
        }
    }
    for fi in left_out {
        leave_out(&mut facts[fi]);
    }
    // Files only reachable through a cycle: each its own crate root.
    for &fi in by_path.values() {
        if !assigned[fi] {
            let key = facts[fi].path.clone();
            facts[fi].module = vec![key.clone(), key, String::new()];
        }
    }
    // The package's library, by the name its other crates (`tests/`, `examples/`,
    // `benches/`, `src/main.rs`) write it with: `module[3]` its name, `module[4]`
    // its root file.
    let mut packages: HashMap<String, Option<(String, String)>> = HashMap::new();
    for &fi in by_path.values() {
        let dir = facts[fi]
            .path
            .rsplit_once('/')
            .map(|(d, _)| d)
            .unwrap_or("");
        if let Some((name, lib)) = library_above(tree_wide, dir, &mut packages) {
            if by_path.contains_key(&lib) {
                facts[fi].module.extend([name, lib]);
            }
        }
    }
    adopt_macro_argument_calls(facts);
}

/// A file the build leaves out (only an inactive `mod` reaches it, or a file
/// such a file declares): every declaration inactive, no call, no binding, no
/// macro, as if each item were under a `cfg` that is off.
fn leave_out(facts: &mut FileFacts) {
    for d in &mut facts.decls {
        d.inactive = true;
    }
    facts.calls.clear();
    facts.refs.clear();
    facts.macro_argument_calls.clear();
    facts.macro_rules.clear();
    for scope in &mut facts.scopes {
        scope.bindings.clear();
        scope.by_name.clear();
    }
}

/// The library of the nearest `Cargo.toml` at or above `dir` (inside the root):
/// its crate name (`[lib] name`, else `[package] name` with `-` as `_`) and root
/// file (`[lib] path`, else `src/lib.rs`), root-relative.
fn library_above(
    tree_wide: &crate::lang::TreeWide,
    dir: &str,
    cache: &mut HashMap<String, Option<(String, String)>>,
) -> Option<(String, String)> {
    if let Some(hit) = cache.get(dir) {
        return hit.clone();
    }
    let found = match tree_wide.build_file(&join(dir, "Cargo.toml")) {
        Some(text) => manifest_library(text).map(|(name, path)| (name, join(dir, &path))),
        None if dir.is_empty() => None,
        None => {
            let parent = dir.rsplit_once('/').map(|(p, _)| p).unwrap_or("");
            library_above(tree_wide, parent, cache)
        }
    };
    cache.insert(dir.to_string(), found.clone());
    found
}

/// `[package] name` / `[lib] name` / `[lib] path` of a manifest (the simple
/// `key = "value"` lines Cargo writes).
fn manifest_library(text: &str) -> Option<(String, String)> {
    let mut section = "";
    let (mut package, mut lib_name, mut lib_path) = (None, None, None);
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            section = line;
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            continue;
        };
        let value = value.trim().trim_matches('"').to_string();
        match (section, key.trim()) {
            ("[package]", "name") => package = Some(value),
            ("[lib]", "name") => lib_name = Some(value),
            ("[lib]", "path") => lib_path = Some(value),
            _ => {}
        }
    }
    let name = lib_name.or_else(|| package.map(|p| p.replace('-', "_")))?;
    Some((name, lib_path.unwrap_or_else(|| "src/lib.rs".to_string())))
}

/// The directory a file's `mod name;` children live in.
fn module_dir(path: &str) -> String {
    let (dir, file) = path.rsplit_once('/').unwrap_or(("", path));
    let stem = file.strip_suffix(".rs").unwrap_or(file);
    if matches!(stem, "lib" | "main" | "mod") {
        dir.to_string()
    } else {
        join(dir, stem)
    }
}

fn join(dir: &str, name: &str) -> String {
    if dir.is_empty() {
        name.to_string()
    } else {
        format!("{dir}/{name}")
    }
}

/// What only Rust adds to the shared expression core: a closure, which as an
/// argument is the function declared at its index and as a value a lambda.
#[derive(Debug, Clone)]
enum RustShape {
    Closure(DeclIdx),
}

impl LangShape for RustShape {
    fn arg(self) -> ArgShape {
        match self {
            RustShape::Closure(d) => ArgShape::Function(d),
        }
    }

    fn value(self) -> ValueExpr {
        match self {
            RustShape::Closure(d) => ValueExpr::Lambda(d),
        }
    }

    /// `f()?` / `f().field`: the call's result, then each segment read after it
    /// as a subscript by that segment (`?`, a field name).
    fn call_then_value(call: CallIdx, path: Vec<String>) -> ValueExpr {
        path.into_iter()
            .fold(ValueExpr::CallResult(call), |base, seg| {
                ValueExpr::Subscript {
                    base: Box::new(base),
                    key: crate::facts::Key::Str(seg),
                }
            })
    }
}

/// An expression's shape; [`core::Shape::then`] extends it by one segment (a
/// field, `?`, `[]`, `.await`).
type Shape = core::Shape<RustShape>;

struct Extractor<'s> {
    src: &'s [u8],
    facts: FileFacts,
    scope: ScopeIdx,
    owner: Option<DeclIdx>,
    /// The innermost type-like declaration items are members of (impl, trait,
    /// inline module), for `parent`.
    parent: Option<DeclIdx>,
    /// Inline module names around the current point.
    within: Vec<String>,
    closures: u32,
    /// A closure's first parameter written as a pattern (`|(k, v)|`): each name
    /// and its path, for the element an adapter hands it.
    closure_patterns: HashMap<DeclIdx, Vec<(String, Vec<String>)>>,
    errors: ErrorCount,
    /// Reading the argument of a macro of the tree (its calls kept aside).
    in_tree_macro: bool,
    /// What the `cfg` predicates are evaluated against.
    env: Env<'s>,
    /// The builds that compile the code being walked; none while walking code
    /// the build leaves out.
    builds: Builds,
}

/// What the attributes before an item say: its decorators (`derive`s, also
/// those an active `cfg_attr` adds) and the `cfg` predicates that gate it.
#[derive(Default)]
struct Attrs {
    decorators: Vec<Decorator>,
    gates: Vec<Predicate>,
}

impl Attrs {
    fn extend(&mut self, other: Attrs) {
        self.decorators.extend(other.decorators);
        self.gates.extend(other.gates);
    }
}

fn end_line_of(node: Node) -> u32 {
    node.end_position().row as u32 + 1
}

fn named_children(node: Node) -> Vec<Node> {
    let mut cursor = node.walk();
    node.named_children(&mut cursor).collect()
}

impl<'s> Extractor<'s> {
    fn new(path: &str, src: &'s [u8], env: Env<'s>, builds: Builds) -> Extractor<'s> {
        Extractor {
            src,
            facts: FileFacts::new(path, Language::Rust),
            scope: 0,
            owner: None,
            parent: None,
            within: Vec::new(),
            closures: 0,
            closure_patterns: HashMap::new(),
            errors: ErrorCount::default(),
            in_tree_macro: false,
            env,
            builds,
        }
    }

    /// Whether the code being walked is compiled by some build.
    fn compiled(&self) -> bool {
        self.builds.compiled()
    }

    /// Walks `f` (one item, statement, field or arm) under the gates written on
    /// it. A library's test-only item binds nothing in its surroundings (D32):
    /// the bindings it added to the current scope are dropped.
    fn under(&mut self, gates: &[Predicate], f: impl FnOnce(&mut Self)) {
        if gates.is_empty() {
            f(self);
            return;
        }
        let around = self.builds;
        let builds = self.gated(gates);
        let scope = self.scope as usize;
        let bound = self.facts.scopes[scope].bindings.len();
        self.builds = builds;
        f(self);
        self.builds = around;
        if builds.only_for_tests_within(around) {
            self.facts.scopes[scope].bindings.truncate(bound);
        }
    }

    /// The builds of code under `gates`, inside the code being walked.
    fn gated(&self, gates: &[Predicate]) -> Builds {
        gates.iter().fold(self.builds, |b, p| b.gated(&self.env, p))
    }

    /// The named children of a list (parameters, fields, variants) that the build
    /// compiles: each after the `#[cfg]` attribute items written before it.
    fn compiled_among<'t>(&self, list: Node<'t>) -> Vec<Node<'t>> {
        let mut gates = Vec::new();
        let mut out = Vec::new();
        for n in named_children(list) {
            match n.kind() {
                "attribute_item" => gates.extend(self.attribute(n).gates),
                "line_comment" | "block_comment" => {}
                _ => {
                    if self.gated(&gates).compiled() {
                        out.push(n);
                    }
                    gates.clear();
                }
            }
        }
        out
    }

    /// The gates of the attribute items among `nodes` (a field's, an arm's own
    /// attributes).
    fn gates_among<'t>(&self, nodes: impl IntoIterator<Item = Node<'t>>) -> Vec<Predicate> {
        nodes
            .into_iter()
            .filter(|n| matches!(n.kind(), "attribute_item" | "inner_attribute_item"))
            .flat_map(|n| self.attribute(n).gates)
            .collect()
    }

    fn text(&self, node: Node) -> &'s str {
        crate::lang::node_text(self.src, node)
    }

    fn too_deep(&mut self, depth: u32) -> bool {
        self.errors.too_deep(depth, MAX_DEPTH)
    }

    /// Enters a new `kind` scope, the body of declaration `idx` (the caller saves
    /// and restores the scope it leaves).
    fn enter_body(&mut self, kind: ScopeKind, idx: DeclIdx) {
        let scope = self.push_scope(kind, Some(idx));
        self.facts.decls[idx as usize].body = Some(scope);
        self.scope = scope;
    }

    fn push_scope(&mut self, kind: ScopeKind, owner: Option<DeclIdx>) -> ScopeIdx {
        self.facts
            .scopes
            .push(Scope::new(kind, Some(self.scope), owner));
        (self.facts.scopes.len() - 1) as ScopeIdx
    }

    fn in_block(&mut self, f: impl FnOnce(&mut Self)) {
        let saved = self.scope;
        self.scope = self.push_scope(ScopeKind::Block, None);
        f(self);
        self.scope = saved;
    }

    fn bind(&mut self, name: &str, line: u32, value: BindingValue) {
        // Code the build leaves out names nothing.
        if name == "_" || name.is_empty() || !self.compiled() {
            return;
        }
        self.facts.scopes[self.scope as usize]
            .bindings
            .push(Binding {
                name: name.to_string(),
                line,
                value,
            });
    }

    fn push_decl(&mut self, mut decl: Decl) -> DeclIdx {
        decl.inactive = !self.compiled();
        self.facts.decls.push(decl);
        (self.facts.decls.len() - 1) as DeclIdx
    }

    fn new_decl(&self, name: &str, kind: DeclKind, node: Node, name_node: Node) -> Decl {
        let mut d = Decl::new(
            name.to_string(),
            kind,
            self.parent.or(self.owner),
            self.scope,
            (line_of(name_node), column_of(name_node)),
            end_line_of(node),
        );
        if self.parent.is_none() && self.owner.is_none() {
            d.parent = None;
        }
        d
    }

    // ----- items ------------------------------------------------------------------------------

    /// The items of a source file, a module body, an impl or trait body, or a block:
    /// attributes are read into the item they stand before, and its `cfg` gates
    /// decide whether it is compiled; a `#![cfg(…)]` inside the body gates all of it.
    fn items(&mut self, node: Node, depth: u32) {
        if self.too_deep(depth) {
            return;
        }
        let kids = named_children(node);
        let inner = self.gates_among(
            kids.iter()
                .filter(|k| k.kind() == "inner_attribute_item")
                .copied(),
        );
        let around = self.builds;
        self.builds = self.gated(&inner);
        let mut pending = Attrs::default();
        for child in kids {
            self.errors.note(child);
            match child.kind() {
                "attribute_item" => {
                    pending.extend(self.attribute(child));
                    continue;
                }
                "inner_attribute_item" | "line_comment" | "block_comment" => continue,
                _ => {}
            }
            let Attrs { decorators, gates } = std::mem::take(&mut pending);
            self.under(&gates, |x| x.item(child, depth + 1, decorators));
        }
        self.builds = around;
    }

    /// An item or a statement.
    fn item(&mut self, node: Node, depth: u32, attrs: Vec<Decorator>) {
        match node.kind() {
            "function_item" | "function_signature_item" => self.function(node, depth, attrs),
            "struct_item" | "union_item" => self.struct_item(node, attrs),
            "enum_item" => self.enum_item(node, depth, attrs),
            "trait_item" => self.trait_item(node, depth, attrs),
            "impl_item" => self.impl_item(node, depth),
            "mod_item" => self.mod_item(node, depth),
            "use_declaration" => self.use_declaration(node),
            "type_item" => self.type_alias(node),
            "let_declaration" => self.let_declaration(node, depth),
            "const_item" | "static_item" => self.const_item(node, depth),
            "macro_definition" => self.macro_definition(node),
            "extern_crate_declaration" | "foreign_mod_item" => {}
            "expression_statement" => {
                for c in named_children(node) {
                    self.expr(c, depth);
                }
            }
            _ => {
                self.expr(node, depth);
            }
        }
    }

    /// `#[derive(A, B)]` → `derive::A`, `derive::B`; `#[cfg(p)]` → the gate p;
    /// `#[cfg_attr(p, a, b)]` → what a and b say, a gate of theirs holding only
    /// where p does and their decorators kept where p holds; any other `#[x…]` → `x`.
    fn attribute(&self, node: Node) -> Attrs {
        let Some(attr) = named_children(node)
            .into_iter()
            .find(|c| c.kind() == "attribute")
        else {
            return Attrs::default();
        };
        let Some(path) = named_children(attr).into_iter().next() else {
            return Attrs::default();
        };
        let args = attr.child_by_field_name("arguments").or_else(|| {
            named_children(attr)
                .into_iter()
                .find(|c| c.kind() == "token_tree")
        });
        self.attribute_named(self.text(path), args, &[path])
    }

    /// One attribute by its name and its token tree (`tokens` is the attribute
    /// as written, for a `cfg_attr`'s list whose items are not syntax nodes).
    fn attribute_named(&self, name: &str, args: Option<Node>, tokens: &[Node]) -> Attrs {
        match (name, args) {
            ("derive", Some(tt)) => Attrs {
                decorators: named_children(tt)
                    .into_iter()
                    .filter(|c| c.kind() == "identifier")
                    .map(|c| Decorator {
                        path: vec!["derive".to_string(), self.text(c).to_string()],
                        called: false,
                    })
                    .collect(),
                gates: Vec::new(),
            },
            ("cfg", Some(tt)) => Attrs {
                decorators: vec![Decorator {
                    path: vec![name.to_string()],
                    called: true,
                }],
                gates: vec![one_predicate(cfg::read_predicates(self.src, tt, 0))],
            },
            ("cfg_attr", Some(tt)) => self.cfg_attr(tt),
            _ => {
                let called = args.is_some() || tokens.len() > 1;
                Attrs {
                    decorators: vec![Decorator {
                        path: vec![name.to_string()],
                        called,
                    }],
                    gates: Vec::new(),
                }
            }
        }
    }

    /// `cfg_attr(p, a, b(…), …)`: each attribute of the list is read as written
    /// on its own; its gates only where p holds (`any(not(p), q)`), its
    /// decorators only where p holds in the first build of the code walked.
    fn cfg_attr(&self, tt: Node) -> Attrs {
        let segments = cfg::segments(tt);
        let Some((first, rest)) = segments.split_first() else {
            return Attrs::default();
        };
        let p = cfg::read_predicate(self.src, first, 0);
        let applies = self.builds.holds_in_first(&self.env, &p);
        let mut out = Attrs::default();
        for tokens in rest {
            let Some(name) = tokens.first().filter(|t| t.kind() == "identifier") else {
                continue;
            };
            let args = match tokens.as_slice() {
                [_, tt] if tt.kind() == "token_tree" => Some(*tt),
                _ => None,
            };
            let inner = self.attribute_named(self.text(*name), args, tokens);
            out.gates.extend(
                inner
                    .gates
                    .into_iter()
                    .map(|q| Predicate::implied_by(p.clone(), q)),
            );
            if applies {
                out.decorators.extend(inner.decorators);
            }
        }
        out
    }

    /// `fn f(…) -> R { … }`: a function, or a method inside `impl`/`trait`.
    fn function(&mut self, node: Node, depth: u32, attrs: Vec<Decorator>) {
        let Some(name_node) = node.child_by_field_name("name") else {
            return;
        };
        let name = self.text(name_node).to_string();
        let in_type = self
            .parent
            .is_some_and(|p| !self.facts.decls[p as usize].is_module);
        let kind = if in_type {
            DeclKind::Method
        } else {
            DeclKind::Function
        };
        let mut decl = self.new_decl(&name, kind, node, name_node);
        decl.decorators = attrs;
        decl.type_params = self.type_params(node);
        let mut receiver: Option<Option<TypeRef>> = None;
        let compiled_params = node
            .child_by_field_name("parameters")
            .map(|ps| self.compiled_among(ps))
            .unwrap_or_default();
        for &p in &compiled_params {
            match p.kind() {
                "self_parameter" => receiver = Some(Some(TypeRef::self_type())),
                "parameter" => {
                    let ty = p
                        .child_by_field_name("type")
                        .and_then(|t| self.type_ref(t, 0));
                    let pat = p.child_by_field_name("pattern");
                    if pat.is_some_and(|n| n.kind() == "self") {
                        receiver = Some(ty);
                        continue;
                    }
                    let pname = match pat {
                        Some(n) if n.kind() == "identifier" => self.text(n).to_string(),
                        _ => "_".to_string(),
                    };
                    decl.params.push(Param {
                        name: pname,
                        ty,
                        variadic: false,
                        keyword_variadic: false,
                        has_default: false,
                        default: None,
                    });
                }
                _ => {}
            }
        }
        decl.is_static = receiver.is_none();
        decl.returns = node
            .child_by_field_name("return_type")
            .and_then(|r| self.type_ref(r, 0));
        let params = decl.params.clone();
        let idx = self.push_decl(decl);
        if !in_type {
            self.bind(&name, 0, BindingValue::Decl(idx));
        }
        let Some(body) = node.child_by_field_name("body") else {
            return;
        };
        let saved = (self.scope, self.owner, self.parent);
        self.enter_body(ScopeKind::Function, idx);
        self.owner = Some(idx);
        self.parent = None;
        if let Some(ty) = receiver {
            self.bind(
                "self",
                0,
                BindingValue::Param {
                    index: policy::RECEIVER_INDEX,
                    ty,
                },
            );
        }
        // Parameters bound by patterns other than a name hold nothing known.
        for &p in &compiled_params {
            if let Some(pat) = p.child_by_field_name("pattern") {
                if !matches!(pat.kind(), "identifier" | "self") {
                    self.bind_pattern_opaque(pat, 0);
                }
            }
        }
        for (i, p) in params.iter().enumerate() {
            self.bind(
                &p.name,
                0,
                BindingValue::Param {
                    index: i as u32,
                    ty: p.ty.clone(),
                },
            );
        }
        self.block(body, depth);
        (self.scope, self.owner, self.parent) = saved;
    }

    /// Type parameter names (`<T: Tr, U>`) of an item.
    fn type_params(&self, node: Node) -> Vec<String> {
        let Some(tp) = node.child_by_field_name("type_parameters") else {
            return Vec::new();
        };
        named_children(tp)
            .into_iter()
            .filter(|c| c.kind() == "type_parameter")
            .filter_map(|c| c.child_by_field_name("name"))
            .map(|n| self.text(n).to_string())
            .collect()
    }

    /// The declaration a named type item (struct, enum, trait) starts with: its
    /// name, attributes and type parameters; `None` when it has no name.
    fn type_item_decl(
        &self,
        node: Node,
        kind: DeclKind,
        attrs: Vec<Decorator>,
    ) -> Option<(String, Decl)> {
        let name_node = node.child_by_field_name("name")?;
        let name = self.text(name_node).to_string();
        let mut decl = self.new_decl(&name, kind, node, name_node);
        decl.decorators = attrs;
        decl.type_params = self.type_params(node);
        Some((name, decl))
    }

    fn struct_item(&mut self, node: Node, attrs: Vec<Decorator>) {
        let Some((name, mut decl)) = self.type_item_decl(node, DeclKind::Class, attrs) else {
            return;
        };
        if let Some(body) = node.child_by_field_name("body") {
            decl.fields = self.fields(body);
        }
        let idx = self.push_decl(decl);
        self.bind(&name, 0, BindingValue::Decl(idx));
    }

    /// Named fields (`a: T`) and tuple fields (`0`, `1`, … by position).
    fn fields(&self, body: Node) -> Vec<Field> {
        let mut out = Vec::new();
        match body.kind() {
            "field_declaration_list" => {
                for f in self.compiled_among(body) {
                    if f.kind() != "field_declaration" {
                        continue;
                    }
                    let Some(n) = f.child_by_field_name("name") else {
                        continue;
                    };
                    out.push(Field {
                        name: self.text(n).to_string(),
                        ty: f
                            .child_by_field_name("type")
                            .and_then(|t| self.type_ref(t, 0)),
                        value: None,
                        line: line_of(n),
                        is_static: false,
                        scope: 0,
                    });
                }
            }
            "ordered_field_declaration_list" => {
                for (i, t) in self.compiled_tuple_fields(body).into_iter().enumerate() {
                    out.push(Field {
                        name: i.to_string(),
                        ty: self.type_ref(t, 0),
                        value: None,
                        line: line_of(t),
                        is_static: false,
                        scope: 0,
                    });
                }
            }
            _ => {}
        }
        out
    }

    /// The types of a tuple struct's fields the build compiles, in order (a field
    /// left out shifts the positions of those after it, as rustc strips it first).
    fn compiled_tuple_fields<'t>(&self, body: Node<'t>) -> Vec<Node<'t>> {
        let mut cursor = body.walk();
        let mut gates = Vec::new();
        let mut out = Vec::new();
        if !cursor.goto_first_child() {
            return out;
        }
        loop {
            let n = cursor.node();
            if n.kind() == "attribute_item" {
                gates.extend(self.attribute(n).gates);
            } else if cursor.field_name() == Some("type") {
                if self.gated(&gates).compiled() {
                    out.push(n);
                }
                gates.clear();
            }
            if !cursor.goto_next_sibling() {
                return out;
            }
        }
    }

    /// An enum: its variants are its `fields` (no type), so `E::V(x)` is known
    /// to construct a variant, not to call a function.
    fn enum_item(&mut self, node: Node, depth: u32, attrs: Vec<Decorator>) {
        let Some((name, mut decl)) = self.type_item_decl(node, DeclKind::Enum, attrs) else {
            return;
        };
        let mut discriminants = Vec::new();
        if let Some(body) = node.child_by_field_name("body") {
            for v in self.compiled_among(body) {
                if v.kind() != "enum_variant" {
                    continue;
                }
                if let Some(n) = v.child_by_field_name("name") {
                    decl.fields.push(Field {
                        name: self.text(n).to_string(),
                        ty: None,
                        value: None,
                        line: line_of(n),
                        is_static: true,
                        scope: 0,
                    });
                }
                if let Some(value) = v.child_by_field_name("value") {
                    discriminants.push(value);
                }
            }
        }
        let idx = self.push_decl(decl);
        self.bind(&name, 0, BindingValue::Decl(idx));
        for d in discriminants {
            self.expr(d, depth);
        }
    }

    /// A trait: its methods (declared or with a default body) are its members;
    /// its supertraits are its bases.
    fn trait_item(&mut self, node: Node, depth: u32, attrs: Vec<Decorator>) {
        let Some((name, mut decl)) = self.type_item_decl(node, DeclKind::Interface, attrs) else {
            return;
        };
        if let Some(bounds) = node.child_by_field_name("bounds") {
            for b in named_children(bounds) {
                if let Some(t) = self.type_ref(b, 0) {
                    decl.bases.push(t);
                }
            }
        }
        let idx = self.push_decl(decl);
        self.bind(&name, 0, BindingValue::Decl(idx));
        self.type_body(node, idx, depth);
    }

    /// The body of an impl or trait: its items are members of `idx`.
    fn type_body(&mut self, node: Node, idx: DeclIdx, depth: u32) {
        let Some(body) = node.child_by_field_name("body") else {
            return;
        };
        let saved = (self.scope, self.parent, self.owner);
        self.enter_body(ScopeKind::Class, idx);
        self.parent = Some(idx);
        self.owner = None;
        self.items(body, depth + 1);
        (self.scope, self.parent, self.owner) = saved;
    }

    /// `impl<…> [Tr for] T { … }`: a declaration named by T's last segment whose
    /// members are T's methods.
    fn impl_item(&mut self, node: Node, depth: u32) {
        let Some(ty_node) = node.child_by_field_name("type") else {
            return;
        };
        let self_ty = self.type_ref(ty_node, 0);
        let anchor = last_name_node(ty_node).unwrap_or(ty_node);
        let name = self_ty
            .as_ref()
            .and_then(|t| t.last().map(str::to_string))
            .unwrap_or_else(|| "<impl>".to_string());
        let mut decl = self.new_decl(&name, DeclKind::Class, node, anchor);
        decl.type_params = self.type_params(node);
        decl.impl_of = self_ty.or_else(|| Some(TypeRef::simple("<impl>")));
        if let Some(tr) = node.child_by_field_name("trait") {
            if let Some(t) = self.type_ref(tr, 0) {
                decl.bases.push(t);
            }
        }
        let idx = self.push_decl(decl);
        self.type_body(node, idx, depth);
    }

    /// `mod m { … }` opens a namespace (a class declaration with `is_module`,
    /// its own module scope); `mod m;` names a file ([`assign_module_paths`]).
    fn mod_item(&mut self, node: Node, depth: u32) {
        let Some(name_node) = node.child_by_field_name("name") else {
            return;
        };
        let name = self.text(name_node).to_string();
        let Some(body) = node.child_by_field_name("body") else {
            let i = self.facts.imports.len() as u32;
            self.facts.imports.push(Import {
                line: line_of(node),
                kind: ImportKind::RustMod {
                    name: name.clone(),
                    within: self.within.clone(),
                    inactive: !self.compiled(),
                },
            });
            self.bind(&name, 0, BindingValue::Import(i));
            return;
        };
        let mut decl = self.new_decl(&name, DeclKind::Class, node, name_node);
        decl.is_module = true;
        let idx = self.push_decl(decl);
        self.bind(&name, 0, BindingValue::Decl(idx));
        let saved = (self.scope, self.parent, self.owner);
        self.enter_body(ScopeKind::Module, idx);
        self.parent = Some(idx);
        self.owner = None;
        self.within.push(name);
        self.items(body, depth + 1);
        self.within.pop();
        (self.scope, self.parent, self.owner) = saved;
    }

    /// `use a::{b, c as d, e::*};`: one import per leaf, bound by its last
    /// segment or alias (`*` for a glob) in the scope the `use` stands in.
    fn use_declaration(&mut self, node: Node) {
        // A `use` the build leaves out imports nothing.
        let Some(arg) = node
            .child_by_field_name("argument")
            .filter(|_| self.compiled())
        else {
            return;
        };
        let mut leaves = Vec::new();
        self.use_tree(arg, Vec::new(), &mut leaves, 0);
        for (path, bound, glob) in leaves {
            let i = self.facts.imports.len() as u32;
            self.facts.imports.push(Import {
                line: line_of(node),
                kind: ImportKind::RustUse { path, glob },
            });
            self.bind(&bound, 0, BindingValue::Import(i));
        }
    }

    fn use_tree(
        &self,
        node: Node,
        prefix: Vec<String>,
        out: &mut Vec<(Vec<String>, String, bool)>,
        depth: u32,
    ) {
        if depth > MAX_TYPE_DEPTH {
            return;
        }
        match node.kind() {
            "use_as_clause" => {
                let (Some(p), Some(alias)) = (
                    node.child_by_field_name("path"),
                    node.child_by_field_name("alias"),
                ) else {
                    return;
                };
                let mut path = prefix;
                path.extend(self.path_segments(p));
                out.push((path, self.text(alias).to_string(), false));
            }
            "scoped_use_list" => {
                let mut path = prefix;
                if let Some(p) = node.child_by_field_name("path") {
                    path.extend(self.path_segments(p));
                }
                if let Some(list) = node.child_by_field_name("list") {
                    self.use_tree(list, path, out, depth + 1);
                }
            }
            "use_list" => {
                for c in named_children(node) {
                    self.use_tree(c, prefix.clone(), out, depth + 1);
                }
            }
            "use_wildcard" => {
                let mut path = prefix;
                if let Some(p) = named_children(node).into_iter().next() {
                    path.extend(self.path_segments(p));
                }
                out.push((path, "*".to_string(), true));
            }
            "identifier" | "scoped_identifier" | "crate" | "self" | "super" => {
                let mut path = prefix;
                path.extend(self.path_segments(node));
                // `use a::b::{self}` binds b.
                if path.last().is_some_and(|l| l == "self") && path.len() > 1 {
                    path.pop();
                }
                let bound = path.last().cloned().unwrap_or_default();
                out.push((path, bound, false));
            }
            _ => {}
        }
    }

    /// `a::b::c` (identifiers, `crate`, `self`, `super`; generic arguments dropped).
    fn path_segments(&self, node: Node) -> Vec<String> {
        let mut out = Vec::new();
        self.push_segments(node, &mut out, 0);
        out
    }

    fn push_segments(&self, node: Node, out: &mut Vec<String>, depth: u32) {
        if depth > MAX_TYPE_DEPTH {
            return;
        }
        match node.kind() {
            "scoped_identifier" | "scoped_type_identifier" => {
                if let Some(p) = node.child_by_field_name("path") {
                    self.push_segments(p, out, depth + 1);
                }
                if let Some(n) = node.child_by_field_name("name") {
                    out.push(self.text(n).to_string());
                }
            }
            "generic_type" | "generic_type_with_turbofish" => {
                if let Some(t) = node.child_by_field_name("type") {
                    self.push_segments(t, out, depth + 1);
                }
            }
            "bracketed_type" => out.push("<>".to_string()),
            _ => out.push(self.text(node).to_string()),
        }
    }

    /// `type X<A> = T<A>;`: a binding that holds the written type, its type
    /// parameters as the value (`Sequence` of names) for substitution.
    fn type_alias(&mut self, node: Node) {
        let (Some(name), Some(ty)) = (
            node.child_by_field_name("name"),
            node.child_by_field_name("type"),
        ) else {
            return;
        };
        let Some(t) = self.type_ref(ty, 0) else {
            return;
        };
        let params = self
            .type_params(node)
            .into_iter()
            .map(ValueExpr::Name)
            .collect();
        let name = self.text(name).to_string();
        self.bind(
            &name,
            0,
            BindingValue::Typed {
                ty: t,
                value: Some(ValueExpr::Sequence(params)),
            },
        );
    }

    fn const_item(&mut self, node: Node, depth: u32) {
        let name = node
            .child_by_field_name("name")
            .map(|n| self.text(n).to_string());
        let ty = node
            .child_by_field_name("type")
            .and_then(|t| self.type_ref(t, 0));
        if let Some(v) = node.child_by_field_name("value") {
            self.expr(v, depth);
        }
        if let (Some(name), Some(ty)) = (name, ty) {
            self.bind(&name, 0, BindingValue::Typed { ty, value: None });
        }
    }

    /// `let x: T = v;` / `let x = v;`: x holds the type or the value from the end
    /// of the statement on; other patterns bind names holding nothing known.
    fn let_declaration(&mut self, node: Node, depth: u32) {
        let value = node
            .child_by_field_name("value")
            .map(|v| self.expr(v, depth));
        if let Some(alt) = node.child_by_field_name("alternative") {
            self.block(alt, depth);
        }
        let ty = node
            .child_by_field_name("type")
            .and_then(|t| self.type_ref(t, 0));
        let Some(pat) = node.child_by_field_name("pattern") else {
            return;
        };
        let line = end_line_of(node);
        if pat.kind() != "identifier" {
            self.bind_pattern(pat, value.unwrap_or(Shape::Unknown), line);
            return;
        }
        let name = self.text(pat).to_string();
        let binding = match (ty, value) {
            (Some(ty), v) => BindingValue::Typed {
                ty,
                value: v.map(Shape::value),
            },
            (None, Some(Shape::Unknown) | None) => BindingValue::Opaque,
            (None, Some(v)) => BindingValue::Value(v.value()),
        };
        self.bind(&name, line, binding);
    }

    /// A pattern matched against a value: `Some(x)` / `Ok(x)` binds x to what
    /// the value wraps (the value then `?`); any other pattern binds its names
    /// holding nothing known.
    fn bind_pattern(&mut self, pat: Node, value: Shape, line: u32) {
        let value = match value {
            Shape::Unknown | Shape::Lang(RustShape::Closure(_)) => None,
            v => Some(v.value()),
        };
        self.bind_destructured(pat, value, line);
    }

    /// A pattern matched against a value: each name it binds holds the value
    /// read through the pattern's path to it (`(a, Some(b))` binds b to the
    /// value's `1` then `?`); a pattern with other parts binds names holding
    /// nothing known.
    fn bind_destructured(&mut self, pat: Node, value: Option<ValueExpr>, line: u32) {
        let mut paths = Vec::new();
        if value.is_none() || !self.pattern_paths(pat, Vec::new(), &mut paths, 0) {
            self.bind_pattern_opaque(pat, line);
            return;
        }
        for (name, segs) in paths {
            let v = value.clone().map(|v| through_segments(v, &segs));
            let binding = match v {
                Some(v) => BindingValue::Value(v),
                None => BindingValue::Opaque,
            };
            self.bind(&name, line, binding);
        }
    }

    /// The names a pattern binds and the path of segments from the matched value
    /// to each: a name, `(p0, p1, …)` (`0`, `1`, …), `Some(p)` / `Ok(p)` (`?`),
    /// `ref`/`mut` names, `_`. Any other part: `false`.
    fn pattern_paths(
        &self,
        pat: Node,
        prefix: Vec<String>,
        out: &mut Vec<(String, Vec<String>)>,
        depth: u32,
    ) -> bool {
        if depth > MAX_TYPE_DEPTH {
            return false;
        }
        match pat.kind() {
            "identifier" => {
                out.push((self.text(pat).to_string(), prefix));
                true
            }
            "_" => true,
            "ref_pattern" | "mut_pattern" | "reference_pattern" => {
                match named_children(pat).into_iter().next() {
                    Some(inner) => self.pattern_paths(inner, prefix, out, depth + 1),
                    None => false,
                }
            }
            "tuple_pattern" => {
                let mut cursor = pat.walk();
                let elems: Vec<Node> = pat
                    .children(&mut cursor)
                    .filter(|c| !matches!(c.kind(), "(" | ")" | ","))
                    .collect();
                elems.into_iter().enumerate().all(|(i, e)| {
                    let mut p = prefix.clone();
                    p.push(i.to_string());
                    self.pattern_paths(e, p, out, depth + 1)
                })
            }
            "tuple_struct_pattern" => match self.wrapped_binding_pattern(pat) {
                Some((inner, segment)) => {
                    let mut p = prefix;
                    p.push(segment.to_string());
                    self.pattern_paths(inner, p, out, depth + 1)
                }
                None => false,
            },
            _ => false,
        }
    }

    /// `Some(p)` / `Ok(p)` with one inner pattern: that pattern, reached through
    /// `?`; `Err(p)`: through the `Result`'s error.
    fn wrapped_binding_pattern<'t>(&self, pat: Node<'t>) -> Option<(Node<'t>, &'static str)> {
        let ty = pat.child_by_field_name("type")?;
        let segment = match self.text(ty) {
            "Some" | "Ok" => policy::TRY,
            "Err" => policy::ERR,
            _ => return None,
        };
        let mut cursor = pat.walk();
        let kids: Vec<Node> = pat
            .children(&mut cursor)
            .filter(|c| *c != ty && !matches!(c.kind(), "(" | ")" | ","))
            .collect();
        match kids.as_slice() {
            [one] => Some((*one, segment)),
            _ => None,
        }
    }

    /// Every name a pattern binds, holding nothing the engine follows.
    fn bind_pattern_opaque(&mut self, pat: Node, line: u32) {
        let mut stack = vec![(pat, 0u32)];
        while let Some((n, d)) = stack.pop() {
            if d > MAX_TYPE_DEPTH {
                continue;
            }
            match n.kind() {
                "identifier" => {
                    let name = self.text(n).to_string();
                    self.bind(&name, line, BindingValue::Opaque);
                }
                // The path of `Some(x)` / `E::V { a }` names no binding.
                "scoped_identifier" | "scoped_type_identifier" | "type_identifier" => {}
                "tuple_struct_pattern" | "struct_pattern" => {
                    let ty = n.child_by_field_name("type");
                    for c in named_children(n) {
                        if Some(c) != ty {
                            stack.push((c, d + 1));
                        }
                    }
                }
                "field_pattern" => match n.child_by_field_name("pattern") {
                    Some(p) => stack.push((p, d + 1)),
                    None => {
                        if let Some(name) = n.child_by_field_name("name") {
                            let name = self.text(name).to_string();
                            self.bind(&name, line, BindingValue::Opaque);
                        }
                    }
                },
                _ => {
                    for c in named_children(n) {
                        stack.push((c, d + 1));
                    }
                }
            }
        }
    }

    // ----- expressions ------------------------------------------------------------------------

    /// A block: a scope of its own, its items and statements in order.
    fn block(&mut self, node: Node, depth: u32) {
        self.in_block(|x| {
            if node.kind() == "block" {
                x.items(node, depth + 1)
            } else {
                x.expr(node, depth + 1);
            }
        });
    }

    fn expr(&mut self, node: Node, depth: u32) -> Shape {
        if self.too_deep(depth) {
            return Shape::Unknown;
        }
        self.errors.note(node);
        let d = depth + 1;
        match node.kind() {
            "identifier" => Shape::Name(self.text(node).to_string()),
            "self" => Shape::Name("self".to_string()),
            "call_expression" => self.call(node, d),
            "field_expression" => {
                let value = node
                    .child_by_field_name("value")
                    .map(|v| self.expr(v, d))
                    .unwrap_or(Shape::Unknown);
                match node.child_by_field_name("field") {
                    Some(f) => value.then(self.text(f)),
                    None => Shape::Unknown,
                }
            }
            "try_expression" => match named_children(node).into_iter().next() {
                Some(inner) => self.expr(inner, d).then(policy::TRY),
                None => Shape::Unknown,
            },
            "await_expression" => match named_children(node).into_iter().next() {
                Some(inner) => self.expr(inner, d).then(policy::AWAIT),
                None => Shape::Unknown,
            },
            "index_expression" => {
                let kids = named_children(node);
                let base = kids.first().map(|b| self.expr(*b, d));
                for k in kids.iter().skip(1) {
                    self.expr(*k, d);
                }
                base.map(|b| b.then(policy::INDEX))
                    .unwrap_or(Shape::Unknown)
            }
            "reference_expression" => match node.child_by_field_name("value") {
                Some(v) => self.expr(v, d),
                None => Shape::Unknown,
            },
            "unary_expression" => {
                let deref = node.child(0).is_some_and(|op| self.text(op) == "*");
                let inner = named_children(node)
                    .into_iter()
                    .next()
                    .map(|v| self.expr(v, d))
                    .unwrap_or(Shape::Unknown);
                if deref {
                    inner.then(policy::DEREF)
                } else {
                    Shape::Unknown
                }
            }
            "parenthesized_expression" => match named_children(node).into_iter().next() {
                Some(inner) => self.expr(inner, d),
                None => Shape::Unknown,
            },
            "struct_expression" => {
                if let Some(body) = node.child_by_field_name("body") {
                    self.children(body, d);
                }
                match node
                    .child_by_field_name("name")
                    .and_then(|n| self.type_ref(n, 0))
                {
                    Some(t) => Shape::New(t),
                    None => Shape::Unknown,
                }
            }
            "string_literal" | "raw_string_literal" => Shape::Literal(LiteralType::Str),
            "integer_literal" => Shape::Literal(LiteralType::Int),
            "float_literal" => Shape::Literal(LiteralType::Float),
            "boolean_literal" => Shape::Literal(LiteralType::Bool),
            "char_literal" => Shape::Literal(LiteralType::Char),
            "closure_expression" => self.closure(node, d),
            "block" | "unsafe_block" | "async_block" | "const_block" | "loop_expression" => {
                self.block_like(node, d);
                Shape::Unknown
            }
            "if_expression" | "while_expression" => {
                self.in_block(|x| x.children(node, d));
                Shape::Unknown
            }
            "let_condition" => {
                let value = node
                    .child_by_field_name("value")
                    .map(|v| self.expr(v, d))
                    .unwrap_or(Shape::Unknown);
                if let Some(p) = node.child_by_field_name("pattern") {
                    self.bind_pattern(p, value, 0);
                }
                Shape::Unknown
            }
            "for_expression" => {
                self.for_expression(node, d);
                Shape::Unknown
            }
            "match_expression" => {
                let scrutinee = node
                    .child_by_field_name("value")
                    .map(|v| self.expr(v, d))
                    .unwrap_or(Shape::Unknown);
                if let Some(body) = node.child_by_field_name("body") {
                    for arm in named_children(body) {
                        if arm.kind() == "match_arm" {
                            self.match_arm(arm, scrutinee.clone(), d);
                        } else {
                            self.expr(arm, d);
                        }
                    }
                }
                Shape::Unknown
            }
            "match_arm" => {
                self.match_arm(node, Shape::Unknown, d);
                Shape::Unknown
            }
            // A macro is no call; `vec![…]` / `format!(…)` are values of std types.
            "macro_invocation" => {
                let name = node.child_by_field_name("macro").map(|m| self.text(m));
                if let (Some(n), Some(tt)) = (
                    name,
                    named_children(node)
                        .into_iter()
                        .find(|c| c.kind() == "token_tree"),
                ) {
                    self.macro_arguments(n, tt, d);
                }
                match policy::VALUE_MACROS.iter().find(|(m, _)| Some(*m) == name) {
                    Some((_, ty)) => Shape::New(TypeRef::simple(ty)),
                    None => Shape::Unknown,
                }
            }
            "let_declaration" | "function_item" | "struct_item" | "enum_item" | "impl_item"
            | "trait_item" | "mod_item" | "use_declaration" | "type_item" | "const_item"
            | "static_item" => {
                self.item(node, d, Vec::new());
                Shape::Unknown
            }
            "line_comment" | "block_comment" | "attribute_item" => Shape::Unknown,
            // `S { #[cfg(x)] a: f() }`: the field is left out with its value.
            "field_initializer" | "shorthand_field_initializer" => {
                let gates = self.gates_among(named_children(node));
                self.under(&gates, |x| x.children(node, d));
                Shape::Unknown
            }
            _ => {
                self.children(node, d);
                Shape::Unknown
            }
        }
    }

    /// `Some(x) => …` against the scrutinee's value: x holds what it wraps; the
    /// guard and the arm's value are walked in the arm's scope.
    fn match_arm(&mut self, node: Node, scrutinee: Shape, d: u32) {
        let gates = self.gates_among(named_children(node));
        self.under(&gates, |x| x.match_arm_body(node, scrutinee, d));
    }

    fn match_arm_body(&mut self, node: Node, scrutinee: Shape, d: u32) {
        self.in_block(|x| {
            if let Some(p) = node.child_by_field_name("pattern") {
                let kids = named_children(p);
                // `match_pattern` holds the pattern, then an optional guard.
                if let Some(first) = kids.first() {
                    x.bind_pattern(*first, scrutinee, 0);
                }
                for c in kids.iter().skip(1) {
                    x.expr(*c, d);
                }
            }
            if let Some(v) = node.child_by_field_name("value") {
                x.expr(v, d);
            }
        });
    }

    fn block_like(&mut self, node: Node, depth: u32) {
        if node.kind() == "block" {
            self.block(node, depth);
            return;
        }
        self.in_block(|x| {
            for c in named_children(node) {
                if c.kind() == "block" {
                    x.block(c, depth);
                } else {
                    x.expr(c, depth);
                }
            }
        });
    }

    fn children(&mut self, node: Node, depth: u32) {
        for child in named_children(node) {
            self.expr(child, depth);
        }
    }

    /// `for x in v { … }`: x holds an element of v (its type read by the
    /// resolver); other patterns bind names holding nothing known.
    fn for_expression(&mut self, node: Node, depth: u32) {
        let over = node
            .child_by_field_name("value")
            .map(|v| self.expr(v, depth))
            .unwrap_or(Shape::Unknown);
        self.in_block(|x| {
            if let Some(pat) = node.child_by_field_name("pattern") {
                if pat.kind() == "identifier" {
                    let name = x.text(pat).to_string();
                    let value = match over {
                        Shape::Unknown | Shape::Lang(RustShape::Closure(_)) => BindingValue::Opaque,
                        o => BindingValue::Value(ValueExpr::Element(Box::new(o.value()))),
                    };
                    x.bind(&name, 0, value);
                } else if let Some((name, of)) = x.enumerated(pat, &over) {
                    // `for (i, x) in v.iter().enumerate()`: x is an element of v.
                    x.bind_pattern_opaque(pat, 0);
                    x.bind(
                        &name,
                        0,
                        BindingValue::Value(ValueExpr::Element(Box::new(of))),
                    );
                } else {
                    let element = match over.clone() {
                        Shape::Unknown | Shape::Lang(RustShape::Closure(_)) => None,
                        o => Some(ValueExpr::Element(Box::new(o.value()))),
                    };
                    x.bind_destructured(pat, element, 0);
                }
            }
            if let Some(body) = node.child_by_field_name("body") {
                x.block(body, depth);
            }
        });
    }

    /// `(i, x)` over `r.enumerate()`: x's name and r as a value.
    fn enumerated(&self, pat: Node, over: &Shape) -> Option<(String, ValueExpr)> {
        let Shape::Call(ci) = over else {
            return None;
        };
        if pat.kind() != "tuple_pattern" {
            return None;
        }
        let kids = named_children(pat);
        let [_, second] = kids.as_slice() else {
            return None;
        };
        if second.kind() != "identifier" {
            return None;
        }
        let Callee::Member { receiver, name } = &self.facts.calls[*ci as usize].callee else {
            return None;
        };
        if name != "enumerate" {
            return None;
        }
        let of = match receiver {
            Receiver::Path(p) if p.first().is_some_and(|s| s != policy::SCOPED) => {
                ValueExpr::Attribute { path: p.clone() }
            }
            Receiver::Call(c) => ValueExpr::CallResult(*c),
            _ => return None,
        };
        Some((self.text(*second).to_string(), of))
    }

    /// `|a, b: T| body`: a lambda declaration whose calls are its own.
    fn closure(&mut self, node: Node, depth: u32) -> Shape {
        self.closures += 1;
        let name = format!("<closure{}>", self.closures);
        let mut decl = Decl::new(
            name,
            DeclKind::Lambda,
            self.owner,
            self.scope,
            (line_of(node), column_of(node)),
            end_line_of(node),
        );
        let mut typed: Vec<(String, Option<TypeRef>)> = Vec::new();
        let mut patterns = Vec::new();
        if let Some(ps) = node.child_by_field_name("parameters") {
            for p in named_children(ps) {
                match p.kind() {
                    "identifier" => typed.push((self.text(p).to_string(), None)),
                    "parameter" => {
                        let ty = p
                            .child_by_field_name("type")
                            .and_then(|t| self.type_ref(t, 0));
                        match p.child_by_field_name("pattern") {
                            Some(n) if n.kind() == "identifier" => {
                                typed.push((self.text(n).to_string(), ty))
                            }
                            Some(n) => patterns.push(n),
                            None => {}
                        }
                    }
                    _ => patterns.push(p),
                }
            }
        }
        decl.params = typed
            .iter()
            .map(|(n, t)| Param {
                name: n.clone(),
                ty: t.clone(),
                variadic: false,
                keyword_variadic: false,
                has_default: false,
                default: None,
            })
            .collect();
        let idx = self.push_decl(decl);
        let saved = (self.scope, self.owner);
        self.enter_body(ScopeKind::Lambda, idx);
        self.owner = Some(idx);
        for (i, p) in patterns.into_iter().enumerate() {
            let mut paths = Vec::new();
            if i == 0 && typed.is_empty() && self.pattern_paths(p, Vec::new(), &mut paths, 0) {
                self.closure_patterns.insert(idx, paths);
            }
            self.bind_pattern_opaque(p, 0);
        }
        for (i, (n, t)) in typed.into_iter().enumerate() {
            self.bind(
                &n,
                0,
                BindingValue::Param {
                    index: i as u32,
                    ty: t,
                },
            );
        }
        if let Some(body) = node.child_by_field_name("body") {
            if body.kind() == "block" {
                self.block(body, depth);
            } else {
                self.expr(body, depth);
            }
        }
        (self.scope, self.owner) = saved;
        Shape::Lang(RustShape::Closure(idx))
    }

    /// A call site: its callee as structure, its name token's position, its
    /// arguments' shapes.
    fn call(&mut self, node: Node, depth: u32) -> Shape {
        let Some(mut function) = node.child_by_field_name("function") else {
            self.children(node, depth);
            return Shape::Unknown;
        };
        let mut type_args = 0;
        if function.kind() == "generic_function" {
            if let Some(t) = function.child_by_field_name("type_arguments") {
                type_args = t.named_child_count() as u32;
            }
            match function.child_by_field_name("function") {
                Some(f) => function = f,
                None => return Shape::Unknown,
            }
        }
        // The argument position of the closure receiving an element, and the receiver.
        let mut element_of: Option<(usize, ValueExpr)> = None;
        let (callee, anchor) = match function.kind() {
            "identifier" => (Callee::Name(self.text(function).to_string()), function),
            "field_expression" => {
                let value = function
                    .child_by_field_name("value")
                    .map(|v| self.expr(v, depth))
                    .unwrap_or(Shape::Unknown);
                let Some(field) = function.child_by_field_name("field") else {
                    return Shape::Unknown;
                };
                if policy::ELEMENT_CLOSURE_METHODS.contains(&self.text(field))
                    && !matches!(value, Shape::Unknown | Shape::Lang(RustShape::Closure(_)))
                {
                    element_of = Some((
                        policy::element_closure_argument(self.text(field)),
                        value.clone().value(),
                    ));
                }
                (
                    Callee::Member {
                        receiver: value.receiver(),
                        name: self.text(field).to_string(),
                    },
                    field,
                )
            }
            "scoped_identifier" => {
                let Some(name) = function.child_by_field_name("name") else {
                    return Shape::Unknown;
                };
                let mut path = vec![policy::SCOPED.to_string()];
                if let Some(p) = function.child_by_field_name("path") {
                    path.extend(self.path_segments(p));
                }
                let callee = if path.iter().any(|s| s == "<>") {
                    Callee::Dynamic
                } else {
                    Callee::Member {
                        receiver: Receiver::Path(path),
                        name: self.text(name).to_string(),
                    }
                };
                (callee, name)
            }
            _ => {
                let inner = self.expr(function, depth);
                let callee = match inner {
                    Shape::Call(c) => Callee::Result(c),
                    _ => Callee::Dynamic,
                };
                (callee, function)
            }
        };
        let mut args = Vec::new();
        if let Some(a) = node.child_by_field_name("arguments") {
            for k in named_children(a) {
                if matches!(
                    k.kind(),
                    "line_comment" | "block_comment" | "attribute_item"
                ) {
                    continue;
                }
                let shape = self.expr(k, depth);
                if let (Shape::Lang(RustShape::Closure(d)), Some((at, of))) = (&shape, &element_of)
                {
                    if *at == args.len() {
                        self.closure_param_holds_element(*d, of.clone());
                    }
                }
                args.push(shape.arg());
            }
        }
        // A call in code the build leaves out is no site of the program.
        if !self.compiled() {
            return Shape::Unknown;
        }
        let wrote = self.wrote(function);
        let site = CallSite {
            args,
            type_args,
            ..CallSite::new(anchor, callee, wrote)
        };
        Shape::Call(push_call(&mut self.facts, self.owner, self.scope, site))
    }

    // ----- calls written in a std macro's token tree ------------------------------------------

    /// The comma-separated arguments of a token tree (`(a, f(b), c.m())`): each
    /// read for the calls it writes; their shapes.
    /// A macro's arguments: a std macro's expressions (below); a macro of the
    /// tree's one argument read with its calls kept aside, under the macro's
    /// name, until the crate's `macro_rules!` say whether it forwards it
    /// ([`adopt_macro_argument_calls`]): `ok!(self.verify_arg(id))` is a call,
    /// `debug!(…)` may expand to nothing.
    fn macro_arguments(&mut self, name: &str, tt: Node, depth: u32) {
        if policy::ARGUMENT_MACROS.contains(&name) || policy::FIRST_ARGUMENT_MACROS.contains(&name)
        {
            self.std_macro_arguments(name, tt, depth);
            return;
        }
        if self.in_tree_macro || policy::VALUE_MACROS.iter().any(|(m, _)| *m == name) {
            return;
        }
        let aside = std::mem::take(&mut self.facts.calls);
        self.in_tree_macro = true;
        let shapes = self.token_arguments(tt, depth);
        self.in_tree_macro = false;
        let read = std::mem::replace(&mut self.facts.calls, aside);
        // A forwarding macro takes one expression.
        if shapes.len() == 1 && !read.is_empty() {
            self.facts
                .macro_argument_calls
                .push((name.to_string(), read));
        }
    }

    /// `macro_rules! name { … }`: recorded with whether every rule takes one
    /// `$x:expr` (and nothing else) and writes `$x` exactly once, so that an
    /// invocation compiles its argument once, as written.
    fn macro_definition(&mut self, node: Node) {
        let Some(name) = node.child_by_field_name("name").filter(|_| self.compiled()) else {
            return;
        };
        let rules: Vec<Node> = named_children(node)
            .into_iter()
            .filter(|c| c.kind() == "macro_rule")
            .collect();
        let forwards = !rules.is_empty() && rules.iter().all(|r| self.rule_forwards(*r));
        let name = self.text(name).to_string();
        self.facts.macro_rules.push((name, forwards));
    }

    fn rule_forwards(&self, rule: Node) -> bool {
        let (Some(left), Some(right)) = (
            rule.child_by_field_name("left"),
            rule.child_by_field_name("right"),
        ) else {
            return false;
        };
        let patterns = named_children(left);
        let [binding] = patterns.as_slice() else {
            return false;
        };
        if binding.kind() != "token_binding_pattern" {
            return false;
        }
        let (Some(var), Some(kind)) = (
            binding.child_by_field_name("name"),
            binding.child_by_field_name("type"),
        ) else {
            return false;
        };
        if self.text(kind) != "expr" {
            return false;
        }
        let var = self.text(var);
        let mut uses = 0;
        let mut stack = vec![right];
        while let Some(n) = stack.pop() {
            if n.kind() == "token_repetition" {
                // Written a number of times the invocation decides.
                return false;
            }
            if n.kind() == "metavariable" && self.text(n) == var {
                uses += 1;
            }
            let mut cursor = n.walk();
            stack.extend(n.children(&mut cursor));
        }
        uses == 1
    }

    /// The arguments of a std macro that are expressions: all of them for
    /// `println!`, `assert!`, … (`ARGUMENT_MACROS`); the first only for
    /// `matches!(expr, pattern)`, whose second is a pattern, not a call.
    fn std_macro_arguments(&mut self, name: &str, tt: Node, depth: u32) {
        if policy::ARGUMENT_MACROS.contains(&name) {
            self.token_arguments(tt, depth);
        } else if policy::FIRST_ARGUMENT_MACROS.contains(&name) {
            self.token_arguments_up_to(tt, depth, 1);
        }
    }

    fn token_arguments(&mut self, tt: Node, depth: u32) -> Vec<Shape> {
        self.token_arguments_up_to(tt, depth, usize::MAX)
    }

    fn token_arguments_up_to(&mut self, tt: Node, depth: u32, limit: usize) -> Vec<Shape> {
        if self.too_deep(depth) {
            return Vec::new();
        }
        let mut cursor = tt.walk();
        let mut tokens: Vec<Node> = tt.children(&mut cursor).collect();
        // The delimiters.
        if tokens
            .first()
            .is_some_and(|t| matches!(t.kind(), "(" | "[" | "{"))
        {
            tokens.remove(0);
        }
        if tokens
            .last()
            .is_some_and(|t| matches!(t.kind(), ")" | "]" | "}"))
        {
            tokens.pop();
        }
        let mut out = Vec::new();
        for segment in tokens
            .split(|t| t.kind() == "," || t.kind() == ";")
            .take(limit)
        {
            out.push(self.token_segment(segment, depth + 1));
        }
        out
    }

    /// One argument: every chain in it read for calls; its shape when it is
    /// exactly one chain.
    fn token_segment(&mut self, tokens: &[Node], depth: u32) -> Shape {
        let mut i = 0;
        let mut chains = 0;
        let mut last = Shape::Unknown;
        while i < tokens.len() {
            let start = i;
            let shape = if tokens[i].kind() == "." {
                // A chain continued after something not read (`(a + b).f()`).
                self.token_postfix(tokens, &mut i, Shape::Unknown, depth)
            } else {
                self.token_chain(tokens, &mut i, depth)
            };
            if i == start {
                if tokens[i].kind() == "token_tree" {
                    self.token_arguments(tokens[i], depth + 1);
                }
                i += 1;
                chains += 2;
                continue;
            }
            chains += 1;
            last = shape;
        }
        if chains == 1 {
            last
        } else {
            Shape::Unknown
        }
    }

    /// A primary (`name`, `a::b`, `self`, a literal, `(…)`) and its postfix
    /// operations (`.f`, `.m(…)`, `(…)`, `?`, `[…]`), read as the expression
    /// grammar would; calls are recorded at their name tokens.
    fn token_chain(&mut self, tokens: &[Node], i: &mut usize, depth: u32) -> Shape {
        let at = |k: usize| tokens.get(k).map(|t| t.kind()).unwrap_or("");
        let is_open = |k: usize, open: &str| {
            tokens.get(k).is_some_and(|t| {
                t.kind() == "token_tree" && t.child(0).is_some_and(|c| c.kind() == open)
            })
        };
        let shape = match at(*i) {
            "identifier" | "self" | "crate" | "super" => {
                let mut path = vec![tokens[*i]];
                *i += 1;
                while at(*i) == "::" && matches!(at(*i + 1), "identifier" | "self" | "super") {
                    path.push(tokens[*i + 1]);
                    *i += 2;
                }
                if at(*i) == "::" {
                    // A turbofish (`Vec::<u8>::new()`): the rest of the argument is
                    // not read (a name after it would look like a bare call).
                    *i = tokens.len();
                    return Shape::Unknown;
                }
                if at(*i) == "!" {
                    // A nested macro: its own arguments only if it is a std one;
                    // what follows it (`m!(…).f()`) is a chain on an unknown value.
                    let name = self.text(*path.last().expect("one"));
                    *i += 1;
                    if tokens.get(*i).is_some_and(|t| t.kind() == "token_tree") {
                        self.macro_arguments(name, tokens[*i], depth + 1);
                        *i += 1;
                    }
                    Shape::Unknown
                } else if is_open(*i, "(") {
                    let args = self.token_arguments(tokens[*i], depth + 1);
                    let name_node = *path.last().expect("one");
                    let callee = if path.len() == 1 {
                        Callee::Name(self.text(name_node).to_string())
                    } else {
                        let mut p = vec![policy::SCOPED.to_string()];
                        p.extend(
                            path[..path.len() - 1]
                                .iter()
                                .map(|n| self.text(*n).to_string()),
                        );
                        Callee::Member {
                            receiver: Receiver::Path(p),
                            name: self.text(name_node).to_string(),
                        }
                    };
                    let wrote = path
                        .iter()
                        .map(|n| self.text(*n))
                        .collect::<Vec<_>>()
                        .join("::");
                    *i += 1;
                    self.push_token_call(callee, name_node, args, wrote)
                } else if path.len() == 1 {
                    Shape::Name(self.text(path[0]).to_string())
                } else {
                    Shape::Unknown
                }
            }
            "string_literal" | "raw_string_literal" => {
                *i += 1;
                Shape::Literal(LiteralType::Str)
            }
            "integer_literal" | "float_literal" | "char_literal" | "boolean_literal" => {
                *i += 1;
                Shape::Unknown
            }
            "&" | "*" => {
                *i += 1;
                if at(*i) == "mut" {
                    *i += 1;
                }
                return self.token_chain(tokens, i, depth);
            }
            "token_tree" if is_open(*i, "(") => {
                let inner = self.token_arguments(tokens[*i], depth + 1);
                *i += 1;
                match <[Shape; 1]>::try_from(inner) {
                    Ok([one]) => one,
                    Err(_) => Shape::Unknown,
                }
            }
            _ => return Shape::Unknown,
        };
        self.token_postfix(tokens, i, shape, depth)
    }

    /// The postfix operations after a primary: `.f`, `.m(…)`, `?`, `[…]`.
    fn token_postfix(&mut self, tokens: &[Node], i: &mut usize, start: Shape, depth: u32) -> Shape {
        let at = |k: usize| tokens.get(k).map(|t| t.kind()).unwrap_or("");
        let is_open = |k: usize, open: &str| {
            tokens.get(k).is_some_and(|t| {
                t.kind() == "token_tree" && t.child(0).is_some_and(|c| c.kind() == open)
            })
        };
        let mut shape = start;
        loop {
            match at(*i) {
                "." if matches!(at(*i + 1), "identifier" | "integer_literal") => {
                    let name_node = tokens[*i + 1];
                    let name = self.text(name_node).to_string();
                    *i += 2;
                    if at(*i) == "::" {
                        // A turbofish (`.collect::<Vec<_>>()`): its balanced `<…>`
                        // skipped, the call read; anything else ends the reading.
                        match turbofish_end(tokens, *i + 1) {
                            Some(end) if is_open(end, "(") => *i = end,
                            _ => {
                                *i = tokens.len();
                                return Shape::Unknown;
                            }
                        }
                    }
                    if is_open(*i, "(") {
                        let args = self.token_arguments(tokens[*i], depth + 1);
                        *i += 1;
                        let wrote = name.clone();
                        shape = self.push_token_call(
                            Callee::Member {
                                receiver: shape.receiver(),
                                name,
                            },
                            name_node,
                            args,
                            wrote,
                        );
                    } else {
                        shape = shape.then(&name);
                    }
                }
                "?" => {
                    *i += 1;
                    shape = shape.then(policy::TRY);
                }
                "token_tree" if is_open(*i, "[") => {
                    self.token_arguments(tokens[*i], depth + 1);
                    *i += 1;
                    shape = shape.then(policy::INDEX);
                }
                _ => return shape,
            }
        }
    }

    fn push_token_call(
        &mut self,
        callee: Callee,
        anchor: Node,
        args: Vec<Shape>,
        wrote: String,
    ) -> Shape {
        if !self.compiled() {
            return Shape::Unknown;
        }
        let site = CallSite {
            args: args.into_iter().map(Shape::arg).collect(),
            ..CallSite::new(anchor, callee, wrote)
        };
        Shape::Call(push_call(&mut self.facts, self.owner, self.scope, site))
    }

    /// `recv.filter(|x| …)`: the closure's first parameter, untyped, holds an
    /// element of the receiver (policy: `ELEMENT_CLOSURE_METHODS`).
    fn closure_param_holds_element(&mut self, closure: DeclIdx, of: ValueExpr) {
        if let Some(paths) = self.closure_patterns.remove(&closure) {
            let Some(body) = self.facts.decls[closure as usize].body else {
                return;
            };
            let element = ValueExpr::Element(Box::new(of));
            for b in &mut self.facts.scopes[body as usize].bindings {
                if let Some((_, segs)) = paths.iter().find(|(n, _)| *n == b.name) {
                    if matches!(b.value, BindingValue::Opaque) {
                        b.value = BindingValue::Value(through_segments(element.clone(), segs));
                    }
                }
            }
            return;
        }
        let decl = &self.facts.decls[closure as usize];
        let (Some(body), Some(first)) = (decl.body, decl.params.first()) else {
            return;
        };
        if first.ty.is_some() {
            return;
        }
        let name = first.name.clone();
        for b in &mut self.facts.scopes[body as usize].bindings {
            if b.name == name && matches!(b.value, BindingValue::Param { index: 0, ty: None }) {
                b.value = BindingValue::Value(ValueExpr::Element(Box::new(of)));
                return;
            }
        }
    }

    fn wrote(&self, node: Node) -> String {
        let text = self.text(node);
        tail_of(text, MAX_WROTE).to_string()
    }

    // ----- types ------------------------------------------------------------------------------

    /// A type as written: `T`, `a::b::T`, `T<A, B>`, `&T`/`&mut T`/`*const T` (as
    /// T), `dyn Tr` (as Tr), `impl Tr` (`["impl"]` with Tr as argument),
    /// `[T]`/`[T; N]` (array flag), `Self` (`is_self`), `Iterator<Item = T>` (T
    /// as an argument). Tuples and function types are `None`.
    fn type_ref(&self, node: Node, depth: u32) -> Option<TypeRef> {
        if depth > MAX_TYPE_DEPTH {
            return None;
        }
        let d = depth + 1;
        match node.kind() {
            "type_identifier" | "identifier" | "primitive_type" => {
                let name = self.text(node);
                if name == "Self" {
                    return Some(TypeRef::self_type());
                }
                Some(TypeRef::simple(name))
            }
            "scoped_type_identifier" | "scoped_identifier" => {
                let path = self.path_segments(node);
                if path.iter().any(|s| s == "<>") {
                    return None;
                }
                if path.len() == 1 && path[0] == "Self" {
                    return Some(TypeRef::self_type());
                }
                Some(TypeRef {
                    path,
                    args: Vec::new(),
                    is_self: false,
                    array: false,
                })
            }
            "generic_type" | "generic_type_with_turbofish" => {
                let mut t = self.type_ref(node.child_by_field_name("type")?, d)?;
                if let Some(args) = node.child_by_field_name("type_arguments") {
                    t.args = named_children(args)
                        .into_iter()
                        .filter_map(|a| match a.kind() {
                            "type_binding" => a
                                .child_by_field_name("type")
                                .and_then(|t| self.type_ref(t, d)),
                            "lifetime" => None,
                            _ => Some(self.type_ref(a, d).unwrap_or_else(|| TypeRef::simple("_"))),
                        })
                        .collect();
                }
                Some(t)
            }
            "reference_type" | "pointer_type" => {
                self.type_ref(node.child_by_field_name("type")?, d)
            }
            "dynamic_type" => self.type_ref(node.child_by_field_name("trait")?, d),
            "bounded_type" => named_children(node)
                .into_iter()
                .find_map(|c| self.type_ref(c, d)),
            "abstract_type" => {
                let tr = self.type_ref(node.child_by_field_name("trait")?, d)?;
                Some(TypeRef {
                    path: vec![policy::IMPL_TRAIT.to_string()],
                    args: vec![tr],
                    is_self: false,
                    array: false,
                })
            }
            // `(A, B)`: the path `(,)` with the elements as arguments.
            "tuple_type" => Some(TypeRef {
                path: vec![policy::TUPLE.to_string()],
                args: named_children(node)
                    .into_iter()
                    .map(|e| self.type_ref(e, d).unwrap_or_else(|| TypeRef::simple("_")))
                    .collect(),
                is_self: false,
                array: false,
            }),
            "array_type" => {
                let mut t = self.type_ref(node.child_by_field_name("element")?, d)?;
                if t.array {
                    return None;
                }
                t.array = true;
                Some(t)
            }
            _ => None,
        }
    }
}

/// The one predicate of a `cfg(…)`; anything else is unreadable.
fn one_predicate(predicates: Vec<Predicate>) -> Predicate {
    match <[Predicate; 1]>::try_from(predicates) {
        Ok([p]) => p,
        Err(_) => Predicate::Unreadable,
    }
}

/// A value read through a path of segments (a tuple index, `?`): nested
/// subscripts by each segment.
fn through_segments(v: ValueExpr, segs: &[String]) -> ValueExpr {
    segs.iter().fold(v, |base, seg| ValueExpr::Subscript {
        base: Box::new(base),
        key: crate::facts::Key::Str(seg.clone()),
    })
}

/// The name token of a written type (`T` in `a::T<X>`, in `&mut T`).
fn last_name_node(node: Node) -> Option<Node> {
    let mut cur = node;
    for _ in 0..MAX_TYPE_DEPTH {
        match cur.kind() {
            "type_identifier" | "identifier" | "primitive_type" => return Some(cur),
            "scoped_type_identifier" | "scoped_identifier" => {
                cur = cur.child_by_field_name("name")?
            }
            "generic_type" => cur = cur.child_by_field_name("type")?,
            "reference_type" | "pointer_type" => cur = cur.child_by_field_name("type")?,
            _ => return None,
        }
    }
    None
}

/// The index after a turbofish's generic arguments in a macro's tokens, `at`
/// being the `<` after `::`: the angle brackets counted (`>>` closes two); `None`
/// when they do not balance.
fn turbofish_end(tokens: &[Node], at: usize) -> Option<usize> {
    if tokens.get(at).map(|t| t.kind()) != Some("<") {
        return None;
    }
    let mut depth: i32 = 0;
    for (k, t) in tokens.iter().enumerate().skip(at) {
        depth += match t.kind() {
            "<" => 1,
            ">" => -1,
            ">>" => -2,
            _ => 0,
        };
        if depth == 0 {
            return Some(k + 1);
        }
        if depth < 0 {
            return None;
        }
    }
    None
}
