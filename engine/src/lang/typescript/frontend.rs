//! TypeScript / TSX / JavaScript frontend: one syntax tree → FileFacts, in one
//! bounded walk while the tree is alive. The three grammars share their node
//! kinds; JavaScript writes no types, TSX adds JSX (which JavaScript's grammar
//! also reads).
//!
//! What the facts hold, beyond the shared model:
//! - Scope [`EXPORTS_SCOPE`] (no parent) is the module's export table: one
//!   binding per exported name (`default`, [`EXPORT_EQUALS`] for
//!   `module.exports =` / `export =`, [`STAR`] for each `export * from`), whose
//!   value is the declaration, the local name, or the re-export's import.
//! - Imports reuse the shared kinds with the module specifier as a single path
//!   segment (never split): `import {a as b}` / destructured `require` are
//!   `From`, `import * as ns` / `const ns = require(..)` / `await import(..)`
//!   are `Module`, `export * from` is `Star`; a default import is `From` of
//!   `default`.
//! - `const f = () => …` / `function` expressions are declarations named by what
//!   holds them (tsc's symbol declaration); an object literal of functions is a
//!   `Dict` value whose entries are such declarations (`Lambda` values).
//! - `X.p = v` writes a `Slot` of X (properties assigned onto a function, or the
//!   mutation of an imported object).
//! - Types: `TypeRef` paths; `T | null` is T; marker heads [`TYPEOF`],
//!   [`INDEXED`] and [`FUNCTION_TYPE`] spell `typeof X`, `A["m"]` and function
//!   types as structure. A type alias is an `Interface` declaration whose
//!   `returns` holds what it aliases (object-type aliases hold members instead).
//! - `await e` is the awaited value: the `Subscript` of e by the key [`AWAIT`], and the
//!   segment [`AWAIT`] in a receiver path read after a call.

use crate::lang::syntax::{children, column_of, head_of, line_of, named_children, ErrorCount};
use tree_sitter::Node;

use crate::facts::{
    ArgShape, Binding, BindingValue, CallIdx, CallKind, Callee, Decl, DeclIdx, DeclKind, Decorator,
    Field, FileFacts, Import, ImportKind, Key, LiteralType, ModuleSyntax, Param, Receiver,
    ReturnValue, Scope, ScopeIdx, ScopeKind, TypeRef, ValueExpr, ValueRef,
};
use crate::lang::core::{self, CallSite, LangShape, MAX_DEPTH};
use crate::lang::Language;

const MAX_TYPE_DEPTH: u32 = 64;
const MAX_WROTE: usize = 120;

/// The scope that holds the module's export table.
pub const EXPORTS_SCOPE: ScopeIdx = 1;
/// The export of the whole module (`module.exports = X`, `export = X`), tsc's name for it.
pub const EXPORT_EQUALS: &str = "export=";
/// An `export * from` entry of the export table.
pub const STAR: &str = "*";
/// The default export.
pub const DEFAULT: &str = "default";
/// A receiver path segment: the value the preceding call's promise resolves to.
pub const AWAIT: &str = "(await)";
/// Type head: `typeof a.b` is `[TYPEOF, "a", "b"]`.
pub const TYPEOF: &str = "(typeof)";
/// Type head: `A["m"]` is `[INDEXED]` with args `[A, m]`.
pub const INDEXED: &str = "(indexed)";
/// Type head: a function type; its one arg is the return type.
pub const FUNCTION_TYPE: &str = "(function)";
/// The line of an opaque binding that records a write the engine cannot order
/// (`x = v` from a closure, a second write): every read of the name abstains.
pub const POISON_LINE: u32 = 0;
/// The binding name a slot write `X.key = v` is recorded under (`X.key`; no
/// identifier holds a dot, so it names nothing else), so reading one member of X
/// is a hash hit, not a scan of every member written onto X.
pub fn slot_name(object: &str, key: &Key) -> String {
    match key {
        Key::Str(k) => format!("{object}.{k}"),
        Key::Int(i) => format!("{object}.{i}"),
    }
}

/// Slot key prefix of a method written onto a constructor function's prototype
/// (`F.prototype.m = f` is the slot `prototype.m` of F).
pub const PROTOTYPE: &str = "prototype.";
/// A type the model does not spell (union, intersection, mapped, conditional).
pub const OPAQUE: &str = "(opaque)";

/// `_tree_wide` carries the build configuration and the tree's build files; what
/// they decide (which files are in a program, where specifiers go) is read once the
/// whole tree's facts exist (project.rs).
pub fn extract(
    language: Language,
    path: &str,
    source: &[u8],
    tree: &tree_sitter::Tree,
    _tree_wide: &crate::lang::TreeWide,
) -> FileFacts {
    let mut x = Extractor::new(language, path, source);
    x.walk(tree.root_node(), 0);
    let mut facts = x.facts;
    facts.parse_errors = x.errors.total(tree);
    facts
}

/// What only TypeScript/JavaScript adds to the shared expression core.
#[derive(Debug, Clone)]
enum TsShape {
    /// A function or arrow expression declared at this index.
    Func(DeclIdx),
    /// A class expression declared at this index.
    Class(DeclIdx),
    Dict(Vec<(Key, ValueExpr)>),
    /// `require('m')`, `import('m')`: the module, by specifier.
    Module(String),
    /// `await e`.
    Awaited(Box<Shape>),
    /// `require('m').x`.
    ModuleMember(String, String),
}

impl LangShape for TsShape {
    /// `(await f()).m()`: the member of what the call's promise resolves to.
    fn receiver(self) -> Receiver {
        match self {
            TsShape::Awaited(inner) => match *inner {
                Shape::Call(i) => Receiver::CallThen {
                    call: i,
                    path: vec![AWAIT.to_string()],
                },
                other => receiver_of(other),
            },
            _ => Receiver::Unknown,
        }
    }

    fn arg(self) -> ArgShape {
        match self {
            TsShape::Func(d) => ArgShape::Function(d),
            _ => ArgShape::Unknown,
        }
    }

    fn value(self) -> ValueExpr {
        match self {
            TsShape::Func(d) | TsShape::Class(d) => ValueExpr::Lambda(d),
            TsShape::Dict(entries) => ValueExpr::Dict(entries),
            TsShape::Awaited(inner) => ValueExpr::Subscript {
                base: Box::new(inner.value()),
                key: Key::Str(AWAIT.to_string()),
            },
            _ => ValueExpr::Unknown,
        }
    }
}

/// What an expression is, as far as calls, receivers and values care.
type Shape = core::Shape<TsShape>;

/// A shape as a receiver: `super` is the base class's member, anything else as
/// the core reads it. (`super` stays a [`Shape::Name`] so `super.a.m()` is a path.)
fn receiver_of(shape: Shape) -> Receiver {
    match shape {
        Shape::Name(n) if n == "super" => Receiver::Super,
        other => other.receiver(),
    }
}

struct Extractor<'s> {
    src: &'s [u8],
    facts: FileFacts,
    scope: ScopeIdx,
    owner: Option<DeclIdx>,
    /// The class whose body is being walked (for fields written in constructors).
    class: Option<DeclIdx>,
    errors: ErrorCount,
    lambdas: u32,
    /// The object a function about to be declared is a property of (`X.m = function`,
    /// `const X = { m() {} }`): `this` inside it is X, as tsc reads JavaScript.
    /// (`is_self`: `F.prototype.m = function`, `this` is an instance made by `new F()`.)
    this_holder: Option<TypeRef>,
    /// Per function being walked: the values its own `return` statements return.
    returns: Vec<Vec<ValueExpr>>,
    /// The names each scope declares (not slots), for assignments to find their variable.
    /// (`true` for a bare declaration, `let x;`, whose first assignment gives it a value.)
    declared: std::collections::HashMap<(ScopeIdx, String), bool>,
    /// Inline object types declared as anonymous interfaces, by syntax node.
    anon_types: std::collections::HashMap<usize, String>,
    /// Variables whose writes are already recorded as unknowable (one marker each).
    poisoned: std::collections::HashSet<(ScopeIdx, String)>,
    /// Variables already given their value by an assignment after a bare declaration.
    assigned: std::collections::HashSet<(ScopeIdx, String)>,
}

/// A tag JSX treats as a component (a call of it), not an intrinsic element.
fn is_component_tag(name: &str) -> bool {
    name.chars().next().is_some_and(|c| c.is_ascii_uppercase())
}

impl<'s> Extractor<'s> {
    fn new(language: Language, path: &str, src: &'s [u8]) -> Extractor<'s> {
        Extractor {
            src,
            facts: FileFacts {
                module: vec![path.to_string()],
                // Scope 1 is the file's export table (ES exports, `module.exports`).
                scopes: vec![
                    Scope::new(ScopeKind::Module, None, None),
                    Scope::new(ScopeKind::Module, None, None),
                ],
                ..FileFacts::new(path, language)
            },
            scope: 0,
            owner: None,
            class: None,
            errors: ErrorCount::default(),
            lambdas: 0,
            this_holder: None,
            declared: Default::default(),
            assigned: Default::default(),
            poisoned: Default::default(),
            anon_types: Default::default(),
            returns: Vec::new(),
        }
    }

    fn text(&self, node: Node) -> &'s str {
        crate::lang::node_text(self.src, node)
    }

    fn push_scope(&mut self, kind: ScopeKind, owner: Option<DeclIdx>) -> ScopeIdx {
        self.facts
            .scopes
            .push(Scope::new(kind, Some(self.scope), owner));
        (self.facts.scopes.len() - 1) as ScopeIdx
    }

    fn bind_in(&mut self, scope: ScopeIdx, name: &str, line: u32, value: BindingValue) {
        if name.is_empty() {
            return;
        }
        if !matches!(value, BindingValue::Slot { .. }) {
            let bare = matches!(value, BindingValue::Value(ValueExpr::Unknown));
            self.declared
                .entry((scope, name.to_string()))
                .or_insert(bare);
        }
        self.facts.scopes[scope as usize].bindings.push(Binding {
            name: name.to_string(),
            line,
            value,
        });
    }

    fn bind(&mut self, name: &str, line: u32, value: BindingValue) {
        self.bind_in(self.scope, name, line, value);
    }

    fn export(&mut self, name: &str, line: u32, value: BindingValue) {
        self.bind_in(EXPORTS_SCOPE, name, line, value);
    }

    fn add_import(&mut self, line: u32, kind: ImportKind) -> u32 {
        self.facts.imports.push(Import { line, kind });
        (self.facts.imports.len() - 1) as u32
    }

    fn push_decl(&mut self, decl: Decl) -> DeclIdx {
        self.facts.decls.push(decl);
        (self.facts.decls.len() - 1) as DeclIdx
    }

    fn new_decl(&self, name: &str, kind: DeclKind, node: Node, name_node: Node) -> Decl {
        Decl::new(
            name.to_string(),
            kind,
            self.owner,
            self.scope,
            (line_of(name_node), column_of(name_node)),
            node.end_position().row as u32 + 1,
        )
    }

    fn in_scope<T>(
        &mut self,
        kind: ScopeKind,
        owner: Option<DeclIdx>,
        f: impl FnOnce(&mut Self) -> T,
    ) -> T {
        let saved = (self.scope, self.owner);
        self.scope = self.push_scope(kind, owner);
        if owner.is_some() {
            self.owner = owner;
        }
        let out = f(self);
        self.scope = saved.0;
        self.owner = saved.1;
        out
    }

    fn walk_children(&mut self, node: Node, depth: u32) {
        for child in named_children(node) {
            self.walk(child, depth);
        }
    }

    fn walk(&mut self, node: Node, depth: u32) -> Shape {
        if self.errors.too_deep(depth, MAX_DEPTH) {
            return Shape::Unknown;
        }
        self.errors.note(node);
        let d = depth + 1;
        match node.kind() {
            "comment" => Shape::Unknown,
            "import_statement" => {
                self.import_statement(node);
                Shape::Unknown
            }
            "export_statement" => {
                self.export_statement(node, d);
                Shape::Unknown
            }
            "function_declaration" | "generator_function_declaration" | "function_signature" => {
                if let Some(idx) = self.function_like(
                    node,
                    node.child_by_field_name("name"),
                    DeclKind::Function,
                    d,
                ) {
                    let line = 0;
                    let name = self.facts.decls[idx as usize].name.clone();
                    self.bind(&name, line, BindingValue::Decl(idx));
                }
                Shape::Unknown
            }
            "function_expression" | "function" | "generator_function" | "arrow_function" => {
                let name = node.child_by_field_name("name");
                match self.function_like(node, name, DeclKind::Lambda, d) {
                    Some(idx) => Shape::Lang(TsShape::Func(idx)),
                    None => Shape::Unknown,
                }
            }
            "class_declaration" | "abstract_class_declaration" => {
                if let Some(idx) = self.class(node, node.child_by_field_name("name"), d) {
                    let name = self.facts.decls[idx as usize].name.clone();
                    self.bind(&name, 0, BindingValue::Decl(idx));
                }
                Shape::Unknown
            }
            "class" => match self.class(node, node.child_by_field_name("name"), d) {
                Some(idx) => Shape::Lang(TsShape::Class(idx)),
                None => Shape::Unknown,
            },
            "interface_declaration" => {
                self.interface(node, d);
                Shape::Unknown
            }
            "type_alias_declaration" => {
                self.type_alias(node);
                Shape::Unknown
            }
            "enum_declaration" => {
                if let Some(name) = node.child_by_field_name("name") {
                    let n = self.text(name).to_string();
                    let decl = self.new_decl(&n, DeclKind::Enum, node, name);
                    let idx = self.push_decl(decl);
                    self.bind(&n, 0, BindingValue::Decl(idx));
                }
                Shape::Unknown
            }
            "internal_module" | "module" => {
                // `namespace N { … }`: its body is walked for calls; its members
                // are not modelled (a known gap, README.md).
                if let Some(body) = node.child_by_field_name("body") {
                    self.in_scope(ScopeKind::Block, None, |x| x.walk_children(body, d));
                }
                Shape::Unknown
            }
            "lexical_declaration" | "variable_declaration" => {
                for child in named_children(node) {
                    if child.kind() == "variable_declarator" {
                        self.declarator(child, d);
                    }
                }
                Shape::Unknown
            }
            "statement_block" | "for_statement" | "while_statement" | "do_statement"
            | "switch_case" | "switch_default" | "if_statement" | "else_clause"
            | "try_statement" | "finally_clause" => {
                self.in_scope(ScopeKind::Block, None, |x| x.walk_children(node, d));
                Shape::Unknown
            }
            "for_in_statement" => {
                self.in_scope(ScopeKind::Block, None, |x| {
                    let right = node.child_by_field_name("right").map(|r| x.walk(r, d));
                    let of = node
                        .child_by_field_name("operator")
                        .is_some_and(|o| x.text(o) == "of");
                    let awaits = children(node).any(|c| c.kind() == "await");
                    match (node.child_by_field_name("left"), right) {
                        // `for (const x of xs)`: x is one element of what xs iterates.
                        (Some(left), Some(r)) if of && !awaits && left.kind() == "identifier" => {
                            let n = x.text(left).to_string();
                            let value = ValueExpr::Element(Box::new(r.value()));
                            x.bind(&n, line_of(left), BindingValue::Value(value));
                        }
                        (Some(left), _) => x.bind_pattern_opaque(left),
                        _ => {}
                    }
                    for field in ["value", "body"] {
                        if let Some(c) = node.child_by_field_name(field) {
                            x.walk(c, d);
                        }
                    }
                });
                Shape::Unknown
            }
            "catch_clause" => {
                self.in_scope(ScopeKind::Block, None, |x| {
                    if let Some(p) = node.child_by_field_name("parameter") {
                        x.bind_pattern_opaque(p);
                    }
                    if let Some(b) = node.child_by_field_name("body") {
                        x.walk_children(b, d);
                    }
                });
                Shape::Unknown
            }
            "assignment_expression" => self.assignment(node, d),
            "return_statement" => {
                let value = named_children(node)
                    .find(|c| c.kind() != "comment")
                    .map(|v| self.walk(v, d).value())
                    .unwrap_or(ValueExpr::Unknown);
                if let Some(r) = self.returns.last_mut() {
                    r.push(value);
                }
                Shape::Unknown
            }
            "call_expression" => self.call(node, d),
            "new_expression" => self.new_expression(node, d),
            "member_expression" => self.member(node, d),
            "subscript_expression" => {
                let base = node.child_by_field_name("object").map(|o| self.walk(o, d));
                let index = node.child_by_field_name("index");
                let key = index.and_then(|i| self.index_key(i));
                if let Some(i) = index {
                    if key.is_none() {
                        self.walk(i, d);
                    }
                }
                match (base, key) {
                    (Some(Shape::Name(n)), Some(Key::Str(k))) => Shape::Path(vec![n, k]),
                    (Some(Shape::Path(mut p)), Some(Key::Str(k))) => {
                        p.push(k);
                        Shape::Path(p)
                    }
                    _ => Shape::Unknown,
                }
            }
            "await_expression" => match named_children(node).next() {
                Some(inner) => Shape::Lang(TsShape::Awaited(Box::new(self.walk(inner, d)))),
                None => Shape::Unknown,
            },
            "parenthesized_expression" | "non_null_expression" | "satisfies_expression" => {
                let mut out = Shape::Unknown;
                for (i, c) in named_children(node).enumerate() {
                    let s = self.walk(c, d);
                    if i == 0 {
                        out = s;
                    }
                }
                out
            }
            "as_expression" | "type_assertion" => {
                let mut kids = named_children(node);
                let (expr, ty) = if node.kind() == "as_expression" {
                    (kids.next(), kids.next())
                } else {
                    let t = kids.next();
                    (kids.next(), t)
                };
                let inner = expr.map(|e| self.walk(e, d)).unwrap_or(Shape::Unknown);
                match ty.and_then(|t| self.type_ref(t, 0)) {
                    Some(t) => Shape::New(t),
                    None => inner,
                }
            }
            "object" => self.object(node, d),
            "jsx_self_closing_element" | "jsx_opening_element" => {
                self.jsx(node, d);
                Shape::Unknown
            }
            "decorator" => {
                self.decorator(node, d);
                Shape::Unknown
            }
            "identifier" | "shorthand_property_identifier" => {
                Shape::Name(self.text(node).to_string())
            }
            "this" => Shape::Name("this".into()),
            "super" => Shape::Name("super".into()),
            "string" | "template_string" => {
                self.walk_children(node, d);
                Shape::Literal(LiteralType::Str)
            }
            "number" => Shape::Literal(LiteralType::Double),
            "true" | "false" => Shape::Literal(LiteralType::Bool),
            "null" | "undefined" => Shape::Literal(LiteralType::None),
            "array" => {
                self.walk_children(node, d);
                Shape::Literal(LiteralType::List)
            }
            // Types hold no calls (a `typeof f()` is not valid TypeScript).
            "type_annotation" | "type_arguments" | "type_parameters" | "type_identifier"
            | "predefined_type" | "regex" => Shape::Unknown,
            _ => {
                self.walk_children(node, d);
                Shape::Unknown
            }
        }
    }

    // ----- imports and exports ------------------------------------------------------------

    fn string_value(&self, node: Node) -> Option<String> {
        if node.kind() != "string" {
            return None;
        }
        let fragment: String = named_children(node)
            .filter(|c| c.kind() == "string_fragment")
            .map(|c| self.text(c))
            .collect();
        Some(fragment)
    }

    fn import_statement(&mut self, node: Node) {
        let Some(spec) = node
            .child_by_field_name("source")
            .and_then(|s| self.string_value(s))
        else {
            // `import x = require('m')`.
            for c in named_children(node) {
                if c.kind() == "import_require_clause" {
                    let spec = c
                        .child_by_field_name("source")
                        .and_then(|s| self.string_value(s));
                    let name = named_children(c).find(|n| n.kind() == "identifier");
                    if let Some(spec) = &spec {
                        self.request(spec, ModuleSyntax::Require);
                    }
                    if let (Some(spec), Some(name)) = (spec, name) {
                        let alias = self.text(name).to_string();
                        self.bind_module(&spec, &alias, line_of(node));
                    }
                }
            }
            return;
        };
        self.request(&spec, ModuleSyntax::Import);
        let line = line_of(node);
        for clause in named_children(node) {
            match clause.kind() {
                "import_clause" => {
                    for part in named_children(clause) {
                        match part.kind() {
                            "identifier" => {
                                let alias = self.text(part).to_string();
                                self.bind_from(&spec, DEFAULT, &alias, line);
                            }
                            "namespace_import" => {
                                if let Some(id) =
                                    named_children(part).find(|n| n.kind() == "identifier")
                                {
                                    let alias = self.text(id).to_string();
                                    self.bind_module(&spec, &alias, line);
                                }
                            }
                            "named_imports" => {
                                for s in
                                    named_children(part).filter(|n| n.kind() == "import_specifier")
                                {
                                    let Some(name) = s.child_by_field_name("name") else {
                                        continue;
                                    };
                                    let name = self.property_name(name);
                                    let alias = s
                                        .child_by_field_name("alias")
                                        .map(|a| self.text(a).to_string())
                                        .unwrap_or_else(|| name.clone());
                                    self.bind_from(&spec, &name, &alias, line);
                                }
                            }
                            _ => {}
                        }
                    }
                }
                "import_require_clause" => {
                    if let Some(name) = named_children(clause).find(|n| n.kind() == "identifier") {
                        let alias = self.text(name).to_string();
                        self.bind_module(&spec, &alias, line);
                    }
                }
                _ => {}
            }
        }
    }

    /// A module the file loads (for its program and its targets, project.rs).
    fn request(&mut self, spec: &str, syntax: ModuleSyntax) {
        self.facts
            .module_requests
            .push(super::project::request(spec, syntax));
    }

    fn named_import(&mut self, spec: &str, name: &str, alias: &str, line: u32) -> u32 {
        self.add_import(
            line,
            ImportKind::From {
                level: 0,
                module: vec![spec.to_string()],
                name: name.to_string(),
                alias: Some(alias.to_string()),
            },
        )
    }

    fn module_import(&mut self, spec: &str, alias: Option<&str>, line: u32) -> u32 {
        self.add_import(
            line,
            ImportKind::Module {
                path: vec![spec.to_string()],
                alias: alias.map(str::to_string),
            },
        )
    }

    fn bind_from(&mut self, spec: &str, name: &str, alias: &str, line: u32) {
        let i = self.named_import(spec, name, alias, line);
        self.bind(alias, line, BindingValue::Import(i));
    }

    fn bind_module(&mut self, spec: &str, alias: &str, line: u32) {
        let i = self.module_import(spec, Some(alias), line);
        self.bind(alias, line, BindingValue::Import(i));
    }

    fn export_statement(&mut self, node: Node, d: u32) {
        let line = line_of(node);
        for dec in named_children(node).filter(|c| c.kind() == "decorator") {
            self.decorator(dec, d);
        }
        let source = node
            .child_by_field_name("source")
            .and_then(|s| self.string_value(s));
        if let Some(spec) = &source {
            self.request(spec, ModuleSyntax::Import);
        }
        let is_default = children(node).any(|c| c.kind() == "default");
        if let Some(decl) = node.child_by_field_name("declaration") {
            let before = self.facts.scopes[self.scope as usize].bindings.len();
            self.walk(decl, d);
            // Every name the declaration bound at module level is exported.
            let bound: Vec<(String, BindingValue)> = self.facts.scopes[self.scope as usize]
                .bindings[before..]
                .iter()
                .map(|b| (b.name.clone(), b.value.clone()))
                .collect();
            for (name, value) in bound {
                let value = match value {
                    BindingValue::Decl(_) => value,
                    _ => BindingValue::Value(ValueExpr::Name(name.clone())),
                };
                let exported = if is_default {
                    DEFAULT.to_string()
                } else {
                    name
                };
                self.export(&exported, line, value);
            }
            return;
        }
        if let Some(value) = node.child_by_field_name("value") {
            // `export default expr` / `export = expr`.
            let name = if is_default { DEFAULT } else { EXPORT_EQUALS };
            let shape = self.walk(value, d);
            let v = self.exported_value(shape, line);
            self.export(name, line, v);
            return;
        }
        let mut saw_clause = false;
        for c in named_children(node) {
            match c.kind() {
                "export_clause" => {
                    saw_clause = true;
                    for s in named_children(c).filter(|n| n.kind() == "export_specifier") {
                        let Some(name) = s.child_by_field_name("name") else {
                            continue;
                        };
                        let name = self.property_name(name);
                        let alias = s
                            .child_by_field_name("alias")
                            .map(|a| self.property_name(a))
                            .unwrap_or_else(|| name.clone());
                        match &source {
                            Some(spec) => {
                                let i = self.named_import(spec, &name, &alias, line);
                                self.export(&alias, line, BindingValue::Import(i));
                            }
                            None => self.export(
                                &alias,
                                line,
                                BindingValue::Value(ValueExpr::Name(name)),
                            ),
                        }
                    }
                }
                "namespace_export" => {
                    saw_clause = true;
                    if let (Some(spec), Some(id)) = (&source, named_children(c).next()) {
                        let alias = self.text(id).to_string();
                        let i = self.module_import(spec, Some(&alias), line);
                        self.export(&alias, line, BindingValue::Import(i));
                    }
                }
                "identifier" if !is_default => {
                    // `export = X` in some grammar versions.
                    let name = self.text(c).to_string();
                    self.export(
                        EXPORT_EQUALS,
                        line,
                        BindingValue::Value(ValueExpr::Name(name)),
                    );
                    saw_clause = true;
                }
                _ => {}
            }
        }
        if !saw_clause {
            if let Some(spec) = source {
                // `export * from 'm'`.
                let i = self.add_import(
                    line,
                    ImportKind::Star {
                        level: 0,
                        module: vec![spec],
                    },
                );
                self.export(STAR, line, BindingValue::Import(i));
            }
        }
    }

    /// The export table's value for an exported expression.
    fn exported_value(&mut self, shape: Shape, line: u32) -> BindingValue {
        match shape {
            Shape::Lang(TsShape::Func(d) | TsShape::Class(d)) => BindingValue::Decl(d),
            Shape::Lang(TsShape::Module(spec)) => {
                BindingValue::Import(self.module_import(&spec, None, line))
            }
            other => BindingValue::Value(other.value()),
        }
    }

    // ----- declarations -------------------------------------------------------------------

    /// A function, method, arrow or function expression: its declaration, parameters,
    /// return type and body. `name_node` names it; an anonymous one is `<lambdaN>`.
    fn function_like(
        &mut self,
        node: Node,
        name_node: Option<Node>,
        kind: DeclKind,
        d: u32,
    ) -> Option<DeclIdx> {
        let (name, at) = match name_node {
            Some(n) => (self.property_name(n), n),
            None => {
                self.lambdas += 1;
                (format!("<lambda{}>", self.lambdas), node)
            }
        };
        let kind = if name_node.is_some() && kind == DeclKind::Lambda {
            DeclKind::Function
        } else {
            kind
        };
        let mut decl = self.new_decl(&name, kind, node, at);
        if let Some(holder) = self.this_holder.take() {
            decl.bases.push(holder);
        }
        decl.is_static = children(node).any(|c| c.kind() == "static");
        decl.returns = node
            .child_by_field_name("return_type")
            .and_then(|r| self.annotation(r));
        decl.type_params = self.type_param_names(node);
        let params_node = node.child_by_field_name("parameters");
        if let Some(list) = params_node {
            self.declare_inline_types(list, d);
        }
        let single = node.child_by_field_name("parameter");
        decl.params = match (params_node, single) {
            (Some(p), _) => self.parameters(p),
            (None, Some(id)) => vec![Param {
                name: self.text(id).to_string(),
                ty: None,
                variadic: false,
                keyword_variadic: false,
                has_default: false,
                default: None,
            }],
            _ => Vec::new(),
        };
        for dec in named_children(node).filter(|c| c.kind() == "decorator") {
            decl.decorators.push(self.decorator_path(dec));
        }
        let idx = self.push_decl(decl);
        // Decorators of a method are called where the class is defined.
        for dec in named_children(node).filter(|c| c.kind() == "decorator") {
            self.decorator(dec, d);
        }
        let body = node.child_by_field_name("body");
        let params = self.facts.decls[idx as usize].params.clone();
        self.in_scope(ScopeKind::Function, Some(idx), |x| {
            // Overload signatures and abstract methods have no body: the overload
            // pass tells them from the implementation by it.
            if body.is_some() {
                let scope = x.scope;
                x.facts.decls[idx as usize].body = Some(scope);
            }
            for (i, p) in params.iter().enumerate() {
                x.bind(
                    &p.name,
                    0,
                    BindingValue::Param {
                        index: i as u32,
                        ty: p.ty.clone(),
                    },
                );
            }
            if let Some(pn) = params_node {
                x.destructured_parameters(pn);
                x.parameter_defaults(pn, d);
            }
            x.returns.push(Vec::new());
            if let Some(body) = body {
                if body.kind() == "statement_block" {
                    x.walk_children(body, d);
                } else {
                    let value = x.walk(body, d).value();
                    if let Some(r) = x.returns.last_mut() {
                        r.push(value);
                    }
                }
            }
            // One `return` of an object literal, a name or a function: what a
            // call of the function yields (`useI18n()` → `{ t, langCode }`).
            if let Some(mut returned) = x.returns.pop() {
                if returned.len() == 1 {
                    let v = returned.pop().expect("one");
                    if matches!(
                        v,
                        ValueExpr::Dict(_) | ValueExpr::Name(_) | ValueExpr::Lambda(_)
                    ) {
                        x.facts.decls[idx as usize].returns_value = Some(ReturnValue::Value(v));
                    }
                }
            }
        });
        Some(idx)
    }

    /// The name a property-like node or an import/export specifier spells: `m`,
    /// `#m`, `"m"`.
    fn property_name(&self, node: Node) -> String {
        self.string_value(node)
            .unwrap_or_else(|| self.text(node).to_string())
    }

    fn type_param_names(&self, node: Node) -> Vec<String> {
        let Some(list) = node.child_by_field_name("type_parameters") else {
            return Vec::new();
        };
        named_children(list)
            .filter(|c| c.kind() == "type_parameter")
            .filter_map(|c| c.child_by_field_name("name"))
            .map(|n| self.text(n).to_string())
            .collect()
    }

    /// `(props: { onClose: () => void; app: App })`: an inline object type written
    /// on a parameter becomes an anonymous interface `<typeN>` (bound at module
    /// level under that name, which no identifier can spell) so the parameter's
    /// members are found like a named interface's.
    fn declare_inline_types(&mut self, list: Node, d: u32) {
        for p in named_children(list) {
            let Some(object) = p
                .child_by_field_name("type")
                .and_then(|t| named_children(t).next())
                .filter(|t| t.kind() == "object_type")
            else {
                continue;
            };
            if self.anon_types.contains_key(&object.id()) {
                continue;
            }
            self.lambdas += 1;
            let name = format!("<type{}>", self.lambdas);
            let decl = self.new_decl(&name, DeclKind::Interface, object, object);
            let idx = self.push_decl(decl);
            self.bind_in(0, &name, 0, BindingValue::Decl(idx));
            self.anon_types.insert(object.id(), name);
            self.in_scope(ScopeKind::Class, Some(idx), |x| {
                x.class_body(idx, object, d)
            });
        }
    }

    /// Each parameter's pattern, written type and whether it has a default, in order.
    fn param_patterns<'t>(&self, list: Node<'t>) -> Vec<(Node<'t>, Option<TypeRef>, bool)> {
        let mut out = Vec::new();
        for p in named_children(list) {
            let (pattern, ty, has_default) = match p.kind() {
                "required_parameter" | "optional_parameter" => (
                    p.child_by_field_name("pattern")
                        .or_else(|| p.child_by_field_name("name")),
                    p.child_by_field_name("type")
                        .and_then(|t| self.annotation(t)),
                    p.kind() == "optional_parameter" || p.child_by_field_name("value").is_some(),
                ),
                "assignment_pattern" => (p.child_by_field_name("left"), None, true),
                "identifier" | "rest_pattern" | "object_pattern" | "array_pattern" => {
                    (Some(p), None, false)
                }
                _ => continue,
            };
            let Some(pattern) = pattern else { continue };
            if pattern.kind() == "this" {
                continue;
            }
            out.push((pattern, ty, has_default));
        }
        out
    }

    fn parameters(&self, list: Node) -> Vec<Param> {
        let mut out = Vec::new();
        for (pattern, ty, has_default) in self.param_patterns(list) {
            let (name, variadic) = match pattern.kind() {
                "identifier" => (self.text(pattern).to_string(), false),
                "rest_pattern" => (
                    named_children(pattern)
                        .next()
                        .map(|n| self.text(n).to_string())
                        .unwrap_or_default(),
                    true,
                ),
                _ => (String::new(), false),
            };
            out.push(Param {
                name,
                ty,
                variadic,
                keyword_variadic: false,
                has_default,
                default: None,
            });
        }
        out
    }

    /// `({ onChange, label: text }: Props)`: each name a destructured parameter binds
    /// holds the member of the parameter's written type (`Props["onChange"]`); an
    /// untyped or nested pattern binds parameters nothing types.
    fn destructured_parameters(&mut self, list: Node) {
        let inline = self.inline_object_types(list);
        for (index, (pattern, ty, _)) in self.param_patterns(list).into_iter().enumerate() {
            if pattern.kind() != "object_pattern" && pattern.kind() != "array_pattern" {
                continue;
            }
            // `({ a }: { a: T })`: the inline type's property types, by name.
            let written: Vec<(String, TypeRef)> = inline.get(index).cloned().unwrap_or_default();
            let member_of = |key: &str| {
                if let Some((_, t)) = written.iter().find(|(k, _)| k == key) {
                    return Some(t.clone());
                }
                ty.as_ref()
                    .filter(|_| pattern.kind() == "object_pattern")
                    .map(|t| TypeRef {
                        path: vec![INDEXED.to_string()],
                        args: vec![t.clone(), TypeRef::simple(key)],
                        is_self: false,
                        array: false,
                    })
            };
            let mut names = Vec::new();
            for p in named_children(pattern) {
                match p.kind() {
                    "shorthand_property_identifier_pattern" | "identifier" => {
                        let n = self.text(p).to_string();
                        names.push((n.clone(), member_of(&n)));
                    }
                    "object_assignment_pattern" => {
                        if let Some(l) = p.child_by_field_name("left") {
                            let n = self.text(l).to_string();
                            names.push((n.clone(), member_of(&n)));
                        }
                    }
                    "pair_pattern" => {
                        let key = p.child_by_field_name("key").map(|k| self.property_name(k));
                        match (key, p.child_by_field_name("value")) {
                            (Some(k), Some(v)) if v.kind() == "identifier" => {
                                names.push((self.text(v).to_string(), member_of(&k)));
                            }
                            (_, Some(v)) => self.collect_pattern_names(v, &mut names),
                            _ => {}
                        }
                    }
                    _ => self.collect_pattern_names(p, &mut names),
                }
            }
            for (name, ty) in names {
                self.bind(
                    &name,
                    0,
                    BindingValue::Param {
                        index: index as u32,
                        ty,
                    },
                );
            }
        }
    }

    /// Per parameter (in `param_patterns` order): the property types an inline
    /// object type annotation writes (`{ onClose: () => void; app: App }`).
    fn inline_object_types(&self, list: Node) -> Vec<Vec<(String, TypeRef)>> {
        let mut out = Vec::new();
        for p in named_children(list) {
            let pattern = match p.kind() {
                "required_parameter" | "optional_parameter" => p
                    .child_by_field_name("pattern")
                    .or_else(|| p.child_by_field_name("name")),
                "assignment_pattern" | "identifier" | "rest_pattern" | "object_pattern"
                | "array_pattern" => Some(p),
                _ => None,
            };
            let Some(pattern) = pattern else { continue };
            if pattern.kind() == "this" {
                continue;
            }
            let object = p
                .child_by_field_name("type")
                .and_then(|t| named_children(t).next())
                .filter(|t| t.kind() == "object_type");
            let mut props = Vec::new();
            if let Some(object) = object {
                for m in named_children(object) {
                    if m.kind() != "property_signature" {
                        continue;
                    }
                    let (Some(name), Some(t)) = (
                        m.child_by_field_name("name"),
                        m.child_by_field_name("type")
                            .and_then(|t| self.annotation(t)),
                    ) else {
                        continue;
                    };
                    props.push((self.property_name(name), t));
                }
            }
            out.push(props);
        }
        out
    }

    fn collect_pattern_names(&self, node: Node, out: &mut Vec<(String, Option<TypeRef>)>) {
        match node.kind() {
            "identifier" | "shorthand_property_identifier_pattern" => {
                out.push((self.text(node).to_string(), None));
            }
            _ => {
                for c in named_children(node) {
                    self.collect_pattern_names(c, out);
                }
            }
        }
    }

    /// Calls inside parameter defaults run in the function's scope.
    fn parameter_defaults(&mut self, list: Node, d: u32) {
        for p in named_children(list) {
            let value = match p.kind() {
                "required_parameter" | "optional_parameter" => p.child_by_field_name("value"),
                "assignment_pattern" => p.child_by_field_name("right"),
                _ => None,
            };
            if let Some(v) = value {
                self.walk(v, d);
            }
            for dec in named_children(p).filter(|c| c.kind() == "decorator") {
                self.decorator(dec, d);
            }
        }
    }

    fn class(&mut self, node: Node, name_node: Option<Node>, d: u32) -> Option<DeclIdx> {
        self.class_named(node, name_node, None, d)
    }

    /// A class (declaration or expression), named by its own name or by what holds it.
    fn class_named(
        &mut self,
        node: Node,
        name_node: Option<Node>,
        holder: Option<Node>,
        d: u32,
    ) -> Option<DeclIdx> {
        let at = name_node.or(holder);
        let name = match at {
            Some(n) => self.text(n).to_string(),
            None => {
                self.lambdas += 1;
                format!("<class{}>", self.lambdas)
            }
        };
        let mut decl = self.new_decl(&name, DeclKind::Class, node, at.unwrap_or(node));
        decl.type_params = self.type_param_names(node);
        for dec in named_children(node).filter(|c| c.kind() == "decorator") {
            decl.decorators.push(self.decorator_path(dec));
        }
        let mut extends_values = Vec::new();
        for h in named_children(node).filter(|c| c.kind() == "class_heritage") {
            for clause in named_children(h) {
                match clause.kind() {
                    "extends_clause" => {
                        if let Some(v) = clause.child_by_field_name("value") {
                            if let Some(t) = self.expression_type(v) {
                                decl.bases.push(t);
                            }
                            extends_values.push(v);
                        }
                    }
                    "implements_clause" => {
                        for t in named_children(clause) {
                            if let Some(t) = self.type_ref(t, 0) {
                                decl.bases.push(t);
                            }
                        }
                    }
                    // JavaScript: `class A extends B` has the expression directly.
                    _ => {
                        if let Some(t) = self.expression_type(clause) {
                            decl.bases.push(t);
                        }
                        extends_values.push(clause);
                    }
                }
            }
        }
        let idx = self.push_decl(decl);
        for dec in named_children(node).filter(|c| c.kind() == "decorator") {
            self.decorator(dec, d);
        }
        for v in extends_values {
            if !matches!(v.kind(), "identifier" | "member_expression") {
                self.walk(v, d);
            }
        }
        if let Some(body) = node.child_by_field_name("body") {
            let saved_class = self.class.replace(idx);
            self.in_scope(ScopeKind::Class, Some(idx), |x| {
                let scope = x.scope;
                x.facts.decls[idx as usize].body = Some(scope);
                x.class_body(idx, body, d);
            });
            self.class = saved_class;
        }
        Some(idx)
    }

    fn class_body(&mut self, class: DeclIdx, body: Node, d: u32) {
        for member in named_children(body) {
            match member.kind() {
                "method_definition" | "method_signature" | "abstract_method_signature" => {
                    let Some(name) = member.child_by_field_name("name") else {
                        continue;
                    };
                    if name.kind() == "computed_property_name" {
                        self.walk(name, d);
                    }
                    // Accessors are read, not called: not members a call reaches.
                    if children(member).any(|c| matches!(c.kind(), "get" | "set")) {
                        if let Some(b) = member.child_by_field_name("body") {
                            self.in_scope(ScopeKind::Block, None, |x| x.walk_children(b, d));
                        }
                        continue;
                    }
                    let text = self.property_name(name);
                    let kind = if text == "constructor" {
                        DeclKind::Constructor
                    } else {
                        DeclKind::Method
                    };
                    let idx = self.function_like(member, Some(name), kind, d);
                    if let (Some(_), DeclKind::Constructor) = (idx, kind) {
                        self.parameter_properties(class, member);
                    }
                }
                "public_field_definition" | "field_definition" | "property_signature" => {
                    self.class_field(class, member, d);
                }
                "class_static_block" => {
                    self.in_scope(ScopeKind::Block, None, |x| x.walk_children(member, d));
                }
                "decorator" => self.decorator(member, d),
                _ => {
                    self.walk(member, d);
                }
            }
        }
    }

    /// `constructor(private repo: Repo)`: a parameter property is a field.
    fn parameter_properties(&mut self, class: DeclIdx, ctor: Node) {
        let Some(list) = ctor.child_by_field_name("parameters") else {
            return;
        };
        for p in named_children(list) {
            let is_property = named_children(p)
                .any(|c| matches!(c.kind(), "accessibility_modifier" | "override_modifier"))
                || children(p).any(|c| c.kind() == "readonly");
            if !is_property {
                continue;
            }
            let Some(pattern) = p.child_by_field_name("pattern") else {
                continue;
            };
            if pattern.kind() != "identifier" {
                continue;
            }
            let ty = p
                .child_by_field_name("type")
                .and_then(|t| self.annotation(t));
            let field = Field {
                name: self.text(pattern).to_string(),
                ty,
                value: None,
                line: line_of(pattern),
                is_static: false,
                scope: self.scope,
            };
            self.facts.decls[class as usize].fields.push(field);
        }
    }

    /// A class field: its written type and value; a field holding an arrow or a
    /// function is a method named by the field (tsc's declaration of it).
    fn class_field(&mut self, class: DeclIdx, member: Node, d: u32) {
        let Some(name) = member
            .child_by_field_name("name")
            .or_else(|| member.child_by_field_name("property"))
        else {
            return;
        };
        if name.kind() == "computed_property_name" {
            self.walk(name, d);
        }
        for dec in named_children(member).filter(|c| c.kind() == "decorator") {
            self.decorator(dec, d);
        }
        let text = self.property_name(name);
        let ty = member
            .child_by_field_name("type")
            .and_then(|t| self.annotation(t));
        let is_static = children(member).any(|c| c.kind() == "static");
        let value = member.child_by_field_name("value");
        let mut field_value = None;
        if let Some(v) = value {
            if matches!(
                v.kind(),
                "arrow_function" | "function_expression" | "function"
            ) {
                if let Some(idx) = self.function_like(v, Some(name), DeclKind::Method, d) {
                    self.facts.decls[idx as usize].is_static = is_static;
                }
                return;
            }
            field_value = Some(self.walk(v, d).value());
        }
        if matches!(
            member.kind(),
            "property_signature" | "public_field_definition"
        ) {
            if let Some(t) = ty
                .as_ref()
                .filter(|t| t.path.first().is_some_and(|h| h == FUNCTION_TYPE))
            {
                // `m: () => T` in an interface: calls of it reach the property.
                let mut decl = self.new_decl(&text, DeclKind::Method, member, name);
                decl.returns = t.args.first().cloned();
                self.push_decl(decl);
            }
        }
        let field = Field {
            name: text,
            ty,
            value: field_value,
            line: line_of(name),
            is_static,
            scope: self.scope,
        };
        self.facts.decls[class as usize].fields.push(field);
    }

    fn interface(&mut self, node: Node, d: u32) {
        let Some(name) = node.child_by_field_name("name") else {
            return;
        };
        let text = self.text(name).to_string();
        let mut decl = self.new_decl(&text, DeclKind::Interface, node, name);
        decl.type_params = self.type_param_names(node);
        for c in named_children(node).filter(|c| c.kind() == "extends_type_clause") {
            for t in named_children(c) {
                if let Some(t) = self.type_ref(t, 0) {
                    decl.bases.push(t);
                }
            }
        }
        let idx = self.push_decl(decl);
        self.bind(&text, 0, BindingValue::Decl(idx));
        if let Some(body) = node.child_by_field_name("body") {
            self.in_scope(ScopeKind::Class, Some(idx), |x| x.class_body(idx, body, d));
        }
    }

    fn type_alias(&mut self, node: Node) {
        let Some(name) = node.child_by_field_name("name") else {
            return;
        };
        let text = self.text(name).to_string();
        let mut decl = self.new_decl(&text, DeclKind::Interface, node, name);
        decl.type_params = self.type_param_names(node);
        let value = node.child_by_field_name("value");
        let object = value.filter(|v| v.kind() == "object_type");
        if object.is_none() {
            // An alias of a type the model cannot spell (a union, an intersection,
            // a mapped type) aliases nothing the resolver may read members of.
            decl.returns = Some(
                value
                    .and_then(|v| self.type_ref(v, 0))
                    .unwrap_or_else(|| TypeRef::simple(OPAQUE)),
            );
        }
        let idx = self.push_decl(decl);
        self.bind(&text, 0, BindingValue::Decl(idx));
        if let Some(body) = object {
            self.in_scope(ScopeKind::Class, Some(idx), |x| x.class_body(idx, body, 0));
        }
    }

    /// `const x = v`, `const x: T = v`, `const f = () => …`, destructuring.
    fn declarator(&mut self, node: Node, d: u32) {
        let Some(name) = node.child_by_field_name("name") else {
            return;
        };
        let line = line_of(node);
        let ty = node
            .child_by_field_name("type")
            .and_then(|t| self.annotation(t));
        let value = node.child_by_field_name("value");
        if name.kind() == "identifier" {
            let text = self.text(name).to_string();
            let shape = match value {
                Some(v)
                    if matches!(
                        v.kind(),
                        "arrow_function"
                            | "function_expression"
                            | "function"
                            | "generator_function"
                    ) =>
                {
                    match self.function_like(v, Some(name), DeclKind::Function, d) {
                        Some(idx) => {
                            self.bind(&text, 0, BindingValue::Decl(idx));
                            return;
                        }
                        None => Shape::Unknown,
                    }
                }
                Some(v) if v.kind() == "class" => {
                    if let Some(idx) =
                        self.class_named(v, v.child_by_field_name("name"), Some(name), d)
                    {
                        self.bind(&text, 0, BindingValue::Decl(idx));
                        return;
                    }
                    Shape::Unknown
                }
                Some(v) => {
                    if v.kind() == "object" {
                        self.this_holder = Some(TypeRef::simple(&text));
                    }
                    let shape = self.walk(v, d);
                    self.this_holder = None;
                    if assigns_module_exports(v, self.src) {
                        // `var app = exports = module.exports = {}`: the module's export is app.
                        self.export(
                            EXPORT_EQUALS,
                            line,
                            BindingValue::Value(ValueExpr::Name(text.clone())),
                        );
                    }
                    shape
                }
                None => Shape::Unknown,
            };
            let value = match shape {
                Shape::Lang(TsShape::Module(spec)) => {
                    self.bind_module(&spec, &text, line);
                    return;
                }
                Shape::Lang(TsShape::ModuleMember(spec, member)) => {
                    self.bind_from(&spec, &member, &text, line);
                    return;
                }
                Shape::Lang(TsShape::Awaited(inner))
                    if matches!(*inner, Shape::Lang(TsShape::Module(_))) =>
                {
                    let Shape::Lang(TsShape::Module(spec)) = *inner else {
                        unreachable!()
                    };
                    self.bind_module(&spec, &text, line);
                    return;
                }
                s => s.value(),
            };
            let binding = match ty {
                Some(ty) => BindingValue::Typed {
                    ty,
                    value: Some(value),
                },
                None => BindingValue::Value(value),
            };
            self.bind(&text, line, binding);
            return;
        }
        let shape = value.map(|v| self.walk(v, d)).unwrap_or(Shape::Unknown);
        let module = match &shape {
            Shape::Lang(TsShape::Module(spec)) => Some(spec.clone()),
            Shape::Lang(TsShape::Awaited(inner)) => match inner.as_ref() {
                Shape::Lang(TsShape::Module(spec)) => Some(spec.clone()),
                _ => None,
            },
            _ => None,
        };
        match (name.kind(), module) {
            ("object_pattern", None) => {
                // `const { a, b: c } = v`: each name holds v's member of that key.
                let base = shape.value();
                for p in named_children(name) {
                    let (key, target) = match p.kind() {
                        "shorthand_property_identifier_pattern" => {
                            (Some(self.text(p).to_string()), Some(p))
                        }
                        "pair_pattern" => (
                            p.child_by_field_name("key").map(|k| self.property_name(k)),
                            p.child_by_field_name("value")
                                .filter(|v| v.kind() == "identifier"),
                        ),
                        _ => (None, None),
                    };
                    match (key, target) {
                        (Some(k), Some(t)) => {
                            let n = self.text(t).to_string();
                            let value = ValueExpr::Subscript {
                                base: Box::new(base.clone()),
                                key: Key::Str(k),
                            };
                            self.bind(&n, line, BindingValue::Value(value));
                        }
                        _ => self.bind_pattern_opaque(p),
                    }
                }
            }
            ("object_pattern", Some(spec)) => {
                // `const {a, b: c} = require('m')` / `await import('m')`.
                for p in named_children(name) {
                    match p.kind() {
                        "shorthand_property_identifier_pattern" => {
                            let n = self.text(p).to_string();
                            self.bind_from(&spec, &n, &n, line);
                        }
                        "pair_pattern" => {
                            let key = p.child_by_field_name("key").map(|k| self.property_name(k));
                            let val = p.child_by_field_name("value");
                            match (key, val) {
                                (Some(k), Some(v)) if v.kind() == "identifier" => {
                                    let alias = self.text(v).to_string();
                                    self.bind_from(&spec, &k, &alias, line);
                                }
                                (_, Some(v)) => self.bind_pattern_opaque(v),
                                _ => {}
                            }
                        }
                        _ => self.bind_pattern_opaque(p),
                    }
                }
            }
            _ => self.bind_pattern_opaque(name),
        }
    }

    /// Names a pattern binds, whose values the engine does not follow.
    fn bind_pattern_opaque(&mut self, node: Node) {
        match node.kind() {
            "identifier" | "shorthand_property_identifier_pattern" => {
                let n = self.text(node).to_string();
                self.bind(&n, line_of(node), BindingValue::Opaque);
            }
            "lexical_declaration" | "variable_declaration" => {
                for c in named_children(node) {
                    if let Some(n) = c.child_by_field_name("name") {
                        self.bind_pattern_opaque(n);
                    }
                }
            }
            "pair_pattern" => {
                if let Some(v) = node.child_by_field_name("value") {
                    self.bind_pattern_opaque(v);
                }
            }
            "assignment_pattern" | "object_assignment_pattern" => {
                if let Some(l) = node.child_by_field_name("left") {
                    self.bind_pattern_opaque(l);
                }
            }
            "object_pattern" | "array_pattern" | "rest_pattern" => {
                for c in named_children(node) {
                    self.bind_pattern_opaque(c);
                }
            }
            _ => {}
        }
    }

    /// `{ a: f, b() {}, c: () => … , d }`: the literal keys and what they hold;
    /// functions written inside are declarations named by their key.
    fn object(&mut self, node: Node, d: u32) -> Shape {
        let holder = self.this_holder.take();
        let mut entries = Vec::new();
        for p in named_children(node) {
            match p.kind() {
                "pair" => {
                    let key = p.child_by_field_name("key");
                    let value = p.child_by_field_name("value");
                    let k = key.and_then(|k| self.literal_key(k));
                    if let Some(kn) = key.filter(|k| k.kind() == "computed_property_name") {
                        self.walk(kn, d);
                    }
                    let Some(v) = value else { continue };
                    let shape = if matches!(
                        v.kind(),
                        "arrow_function" | "function_expression" | "function"
                    ) && k.is_some()
                    {
                        self.this_holder = holder.clone();
                        match self.function_like(v, key, DeclKind::Function, d) {
                            Some(idx) => Shape::Lang(TsShape::Func(idx)),
                            None => Shape::Unknown,
                        }
                    } else {
                        self.walk(v, d)
                    };
                    if let Some(k) = k {
                        entries.push((k, shape.value()));
                    }
                }
                "method_definition" => {
                    let Some(name) = p.child_by_field_name("name") else {
                        continue;
                    };
                    let key = self.literal_key(name);
                    if children(p).any(|c| matches!(c.kind(), "get" | "set")) {
                        if let Some(b) = p.child_by_field_name("body") {
                            self.in_scope(ScopeKind::Block, None, |x| x.walk_children(b, d));
                        }
                        continue;
                    }
                    self.this_holder = holder.clone();
                    if let Some(idx) = self.function_like(p, Some(name), DeclKind::Function, d) {
                        if let Some(k) = key {
                            entries.push((k, ValueExpr::Lambda(idx)));
                        }
                    }
                }
                "shorthand_property_identifier" => {
                    let n = self.text(p).to_string();
                    entries.push((Key::Str(n.clone()), ValueExpr::Name(n)));
                }
                _ => {
                    self.walk(p, d);
                }
            }
        }
        // Sorted by key, the last write of a repeated key kept (it is the one an
        // object literal holds), so a member is found by binary search.
        entries.reverse();
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        entries.dedup_by(|later, earlier| later.0 == earlier.0);
        Shape::Lang(TsShape::Dict(entries))
    }

    /// The key a subscript's index writes: a string or number literal. An
    /// identifier there is a variable (`items[i]`), never the key `"i"`.
    fn index_key(&self, node: Node) -> Option<Key> {
        match node.kind() {
            "identifier" => None,
            _ => self.literal_key(node),
        }
    }

    fn literal_key(&self, node: Node) -> Option<Key> {
        match node.kind() {
            "property_identifier" | "identifier" | "private_property_identifier" => {
                Some(Key::Str(self.text(node).to_string()))
            }
            "string" => self.string_value(node).map(Key::Str),
            "number" => self.text(node).parse::<i64>().ok().map(Key::Int),
            _ => None,
        }
    }

    // ----- assignments --------------------------------------------------------------------

    /// An assignment, which evaluates to its right side (`a = b = {}`).
    fn assignment(&mut self, node: Node, d: u32) -> Shape {
        let (Some(left), Some(right)) = (
            node.child_by_field_name("left"),
            node.child_by_field_name("right"),
        ) else {
            self.walk_children(node, d);
            return Shape::Unknown;
        };
        let line = line_of(node);
        match left.kind() {
            "identifier" => {
                let name = self.text(left).to_string();
                let shape = self.walk(right, d);
                let value = match shape.clone() {
                    Shape::Lang(TsShape::Func(idx) | TsShape::Class(idx)) => ValueExpr::Lambda(idx),
                    s => s.value(),
                };
                self.assign_name(&name, line, value);
                shape
            }
            "member_expression" => {
                let path = self.member_path(left);
                let prop = left.child_by_field_name("property");
                let is_function = matches!(
                    right.kind(),
                    "arrow_function" | "function_expression" | "function"
                );
                // `X.m = function () { this.n() }`: tsc reads `this` inside as X.
                match (path.as_deref(), is_function) {
                    (Some([object, _]), true)
                        if !matches!(object.as_str(), "this" | "module" | "exports") =>
                    {
                        self.this_holder = Some(TypeRef::simple(object));
                    }
                    // `F.prototype.m = function () {}`: `this` is an instance made by `new F()`.
                    (Some([object, proto, _]), true) if proto == "prototype" => {
                        self.this_holder = Some(TypeRef {
                            is_self: true,
                            ..TypeRef::simple(object)
                        });
                    }
                    _ => {}
                }
                let shape = if is_function {
                    match self.function_like(right, prop, DeclKind::Function, d) {
                        Some(idx) => Shape::Lang(TsShape::Func(idx)),
                        None => Shape::Unknown,
                    }
                } else if right.kind() == "class" {
                    match self.class_named(right, right.child_by_field_name("name"), prop, d) {
                        Some(idx) => Shape::Lang(TsShape::Class(idx)),
                        None => Shape::Unknown,
                    }
                } else {
                    self.walk(right, d)
                };
                if let Some(o) = left.child_by_field_name("object") {
                    if !matches!(o.kind(), "identifier" | "this" | "member_expression") {
                        self.walk(o, d);
                    }
                }
                self.this_holder = None;
                let Some(path) = path else {
                    return Shape::Unknown;
                };
                self.member_write(&path, shape.clone(), line);
                shape
            }
            "subscript_expression" => {
                self.walk(left, d);
                self.walk(right, d)
            }
            _ => {
                self.bind_pattern_opaque(left);
                self.walk(right, d)
            }
        }
    }

    /// `module.exports = v`, `exports.x = v`, `this.x = v`, `X.p = v`, `X.prototype.m = v`.
    fn member_write(&mut self, path: &[String], shape: Shape, line: u32) {
        let strs: Vec<&str> = path.iter().map(String::as_str).collect();
        match strs.as_slice() {
            ["module", "exports"] => {
                let v = self.exported_value(shape, line);
                self.export(EXPORT_EQUALS, line, v);
            }
            ["module", "exports", name] | ["exports", name] => {
                let name = name.to_string();
                let v = self.exported_value(shape, line);
                self.export(&name, line, v);
            }
            ["this", field] => {
                if let Some(class) = self.class {
                    let field = Field {
                        name: field.to_string(),
                        ty: None,
                        value: Some(shape.value()),
                        line,
                        is_static: false,
                        scope: self.scope,
                    };
                    self.facts.decls[class as usize].fields.push(field);
                }
            }
            [object, "prototype", member] => {
                let key = Key::Str(format!("{PROTOTYPE}{member}"));
                self.write_slot(object, key, shape, line);
            }
            [object, member] => {
                let key = Key::Str(member.to_string());
                self.write_slot(object, key, shape, line);
            }
            _ => {}
        }
    }

    /// `object[key] = shape`: the slot is bound where `object` is bound (else in
    /// the current scope).
    fn write_slot(&mut self, object: &str, key: Key, shape: Shape, line: u32) {
        let value = shape.value();
        let scope = self.scope_binding(object).unwrap_or(self.scope);
        let name = slot_name(object, &key);
        self.bind_in(
            scope,
            &name,
            line,
            BindingValue::Slot {
                key: Some(key),
                value,
            },
        );
    }

    /// `x = v`: the first value of a variable declared bare (`let x;`) in this
    /// function is v from here on. Any other write — a second one, one to a
    /// variable declared with a value, to an enclosing function's variable (a
    /// closure runs whenever it is called), or to a name declared later (`var`
    /// hoisting) or nowhere — leaves the variable's value unknown everywhere:
    /// the write is recorded as an opaque binding on line 0 ([`POISON_LINE`]).
    fn assign_name(&mut self, name: &str, line: u32, value: ValueExpr) {
        let mut crossed = false;
        let mut cur = Some(self.scope);
        let mut function_scope = None;
        while let Some(s) = cur {
            let sc = &self.facts.scopes[s as usize];
            if let Some(&bare) = self.declared.get(&(s, name.to_string())) {
                if !crossed && bare && self.assigned.insert((s, name.to_string())) {
                    self.bind_in(s, name, line, BindingValue::Value(value));
                } else if self.poisoned.insert((s, name.to_string())) {
                    self.bind_in(s, name, POISON_LINE, BindingValue::Opaque);
                }
                return;
            }
            if sc.kind == ScopeKind::Function || sc.parent.is_none() {
                function_scope.get_or_insert(s);
                if sc.kind == ScopeKind::Function {
                    crossed = true;
                }
            }
            cur = sc.parent;
        }
        let at = function_scope.unwrap_or(self.scope);
        if self.poisoned.insert((at, name.to_string())) {
            self.bind_in(at, name, POISON_LINE, BindingValue::Opaque);
        }
    }

    /// The scope in whose chain `name` is bound (where a slot write on it belongs).
    fn scope_binding(&self, name: &str) -> Option<ScopeIdx> {
        let mut cur = Some(self.scope);
        while let Some(s) = cur {
            let sc = &self.facts.scopes[s as usize];
            if sc.bindings.iter().rev().take(256).any(|b| b.name == name) {
                return Some(s);
            }
            cur = sc.parent;
        }
        None
    }

    /// `a.b.c` as a path of names, when every part is a name.
    fn member_path(&self, node: Node) -> Option<Vec<String>> {
        match node.kind() {
            "identifier" => Some(vec![self.text(node).to_string()]),
            "this" => Some(vec!["this".into()]),
            "member_expression" => {
                let mut p = self.member_path(node.child_by_field_name("object")?)?;
                p.push(self.text(node.child_by_field_name("property")?).to_string());
                Some(p)
            }
            _ => None,
        }
    }

    // ----- calls ----------------------------------------------------------------------------

    fn member(&mut self, node: Node, d: u32) -> Shape {
        let object = node.child_by_field_name("object");
        let prop = node
            .child_by_field_name("property")
            .map(|p| self.text(p).to_string());
        let base = object.map(|o| self.walk(o, d)).unwrap_or(Shape::Unknown);
        let Some(prop) = prop else {
            return Shape::Unknown;
        };
        match base {
            Shape::Lang(TsShape::Awaited(inner)) => match *inner {
                Shape::Call(i) => Shape::CallThen(i, vec![AWAIT.to_string(), prop]),
                _ => Shape::Unknown,
            },
            Shape::Lang(TsShape::Module(spec)) => Shape::Lang(TsShape::ModuleMember(spec, prop)),
            other => other.then(&prop),
        }
    }

    fn push_call(&mut self, site: CallSite) -> CallIdx {
        core::push_call(&mut self.facts, self.owner, self.scope, site)
    }

    fn args(&mut self, node: Option<Node>, d: u32) -> Vec<ArgShape> {
        let Some(list) = node else {
            return Vec::new();
        };
        if list.kind() == "template_string" {
            self.walk_children(list, d);
            return Vec::new();
        }
        let mut out = Vec::new();
        for a in named_children(list) {
            if a.kind() == "comment" {
                continue;
            }
            let shape = self.walk(a, d);
            if let Shape::Name(n) = &shape {
                self.reference(a, n);
            }
            out.push(shape.arg());
        }
        out
    }

    /// A name passed as an argument: a function used as a value.
    fn reference(&mut self, node: Node, name: &str) {
        if name == "this" || name == "undefined" {
            return;
        }
        self.facts.refs.push(ValueRef {
            line: line_of(node),
            column: column_of(node),
            caller: self.owner,
            scope: self.scope,
            target: Callee::Name(name.to_string()),
            wrote: name.to_string(),
            escapes: true,
        });
    }

    fn wrote(&self, node: Node) -> String {
        let t = self.text(node);
        let t: String = t.split_whitespace().collect::<Vec<_>>().join(" ");
        head_of(&t, MAX_WROTE).to_string()
    }

    fn call(&mut self, node: Node, d: u32) -> Shape {
        let Some(function) = node.child_by_field_name("function") else {
            self.walk_children(node, d);
            return Shape::Unknown;
        };
        let arguments = node.child_by_field_name("arguments");
        // `import('m')` is not a call site (tsc lists none); it yields the module.
        if function.kind() == "import" {
            let spec = arguments
                .and_then(|a| named_children(a).next())
                .and_then(|s| self.string_value(s));
            self.args(arguments, d);
            if let Some(s) = &spec {
                self.request(s, ModuleSyntax::DynamicImport);
            }
            return match spec {
                Some(s) => Shape::Lang(TsShape::Module(s)),
                None => Shape::Unknown,
            };
        }
        let type_args = node
            .child_by_field_name("type_arguments")
            .map(|t| named_children(t).count() as u32)
            .unwrap_or(0);
        let (callee, at, kind) = match function.kind() {
            "identifier" => (
                Callee::Name(self.text(function).to_string()),
                function,
                CallKind::Call,
            ),
            "super" => (
                Callee::Name("super".into()),
                function,
                CallKind::ConstructorChain,
            ),
            "member_expression" => match self.member_callee(function, d) {
                Some((callee, p)) => (callee, p, CallKind::Call),
                None => (Callee::Dynamic, function, CallKind::Call),
            },
            "subscript_expression" => {
                let object = function.child_by_field_name("object");
                let index = function.child_by_field_name("index");
                let key = index.and_then(|i| self.index_key(i));
                let receiver = object
                    .map(|o| receiver_of(self.walk(o, d)))
                    .unwrap_or(Receiver::Unknown);
                match (key, index) {
                    // `a["m"]()` is the member call `a.m()`, named at the key.
                    (Some(Key::Str(k)), Some(i)) => {
                        (Callee::Member { receiver, name: k }, i, CallKind::Call)
                    }
                    (key, _) => {
                        if key.is_none() {
                            if let Some(i) = index {
                                self.walk(i, d);
                            }
                        }
                        let at = object.unwrap_or(function);
                        (
                            Callee::Subscript {
                                base: receiver,
                                key,
                                key_name: None,
                            },
                            at,
                            CallKind::Call,
                        )
                    }
                }
            }
            "parenthesized_expression" | "non_null_expression" => {
                let inner = self.walk(function, d);
                match inner {
                    Shape::Call(i) => (Callee::Result(i), function, CallKind::Call),
                    // `(function () { … })()`: the function expression is called
                    // where it is written (bound under its own name to be found).
                    Shape::Lang(TsShape::Func(idx)) => {
                        let name = self.facts.decls[idx as usize].name.clone();
                        self.bind(&name, 0, BindingValue::Decl(idx));
                        (Callee::Name(name), function, CallKind::Call)
                    }
                    Shape::Path(mut p) if p.len() > 1 => {
                        let name = p.pop().unwrap_or_default();
                        (
                            Callee::Member {
                                receiver: Receiver::Path(p),
                                name,
                            },
                            function,
                            CallKind::Call,
                        )
                    }
                    Shape::Name(n) => (Callee::Name(n), function, CallKind::Call),
                    _ => (Callee::Dynamic, function, CallKind::Call),
                }
            }
            _ => {
                let inner = self.walk(function, d);
                match inner {
                    Shape::Call(i) => (Callee::Result(i), function, CallKind::Call),
                    _ => (Callee::Dynamic, function, CallKind::Call),
                }
            }
        };
        let args = self.args(arguments, d);
        let is_require = matches!(&callee, Callee::Name(n) if n == "require");
        let spec = if is_require {
            arguments
                .and_then(|a| named_children(a).next())
                .and_then(|s| self.string_value(s))
        } else {
            None
        };
        if let Some(s) = &spec {
            self.request(s, ModuleSyntax::Require);
        }
        let call = CallSite {
            kind,
            args,
            has_splat: arguments
                .is_some_and(|a| named_children(a).any(|c| c.kind() == "spread_element")),
            type_args,
            ..CallSite::new(at, callee, self.wrote(function))
        };
        let idx = self.push_call(call);
        match spec {
            Some(s) => Shape::Lang(TsShape::Module(s)),
            None => Shape::Call(idx),
        }
    }

    /// `o.p` called: the member `p` of the receiver `o` (walked, even when the
    /// property is missing; then there is no callee).
    fn member_callee<'t>(&mut self, member: Node<'t>, d: u32) -> Option<(Callee, Node<'t>)> {
        let prop = member.child_by_field_name("property");
        let receiver = member
            .child_by_field_name("object")
            .map(|o| receiver_of(self.walk(o, d)))
            .unwrap_or(Receiver::Unknown);
        let p = prop?;
        let name = self.text(p).to_string();
        Some((Callee::Member { receiver, name }, p))
    }

    fn new_expression(&mut self, node: Node, d: u32) -> Shape {
        let Some(ctor) = node.child_by_field_name("constructor") else {
            self.walk_children(node, d);
            return Shape::Unknown;
        };
        let (callee, at, ty) = match ctor.kind() {
            "identifier" => {
                let n = self.text(ctor).to_string();
                (Callee::Name(n.clone()), ctor, Some(TypeRef::simple(&n)))
            }
            "member_expression" => {
                let path = self.member_path(ctor);
                match self.member_callee(ctor, d) {
                    Some((callee, p)) => (
                        callee,
                        p,
                        path.map(|path| TypeRef {
                            path,
                            args: Vec::new(),
                            is_self: false,
                            array: false,
                        }),
                    ),
                    None => (Callee::Dynamic, ctor, None),
                }
            }
            _ => {
                self.walk(ctor, d);
                (Callee::Dynamic, ctor, None)
            }
        };
        let arguments = node.child_by_field_name("arguments");
        let args = self.args(arguments, d);
        let type_args = node
            .child_by_field_name("type_arguments")
            .map(|t| named_children(t).count() as u32)
            .unwrap_or(0);
        let call = CallSite {
            kind: CallKind::New,
            args,
            type_args,
            ..CallSite::new(at, callee, self.wrote(ctor))
        };
        self.push_call(call);
        match ty {
            Some(t) => Shape::New(t),
            None => Shape::Unknown,
        }
    }

    /// `<Comp …/>`, `<ns.Comp>`: a component tag is a call of the component.
    fn jsx(&mut self, node: Node, d: u32) {
        if let Some(name) = node.child_by_field_name("name") {
            let callee = match name.kind() {
                "identifier" => {
                    let n = self.text(name).to_string();
                    is_component_tag(&n).then_some((Callee::Name(n), name))
                }
                "member_expression" => {
                    let path = self.member_path(name);
                    let prop = name.child_by_field_name("property");
                    match (path, prop) {
                        (Some(mut p), Some(at)) => {
                            let last = p.pop().unwrap_or_default();
                            Some((
                                Callee::Member {
                                    receiver: Receiver::Path(p),
                                    name: last,
                                },
                                at,
                            ))
                        }
                        _ => None,
                    }
                }
                _ => None,
            };
            if let Some((callee, at)) = callee {
                let call = CallSite::new(at, callee, self.wrote(name));
                self.push_call(call);
            }
        }
        for c in named_children(node) {
            if Some(c) != node.child_by_field_name("name") {
                self.walk(c, d);
            }
        }
    }

    fn decorator_path(&self, node: Node) -> Decorator {
        let inner = named_children(node).next();
        match inner {
            Some(c) if c.kind() == "call_expression" => Decorator {
                path: c
                    .child_by_field_name("function")
                    .and_then(|f| self.member_path(f))
                    .unwrap_or_default(),
                called: true,
            },
            Some(c) => Decorator {
                path: self.member_path(c).unwrap_or_default(),
                called: false,
            },
            None => Decorator {
                path: Vec::new(),
                called: false,
            },
        }
    }

    /// `@d` calls d; `@d(args)` calls d, then applies its result.
    fn decorator(&mut self, node: Node, d: u32) {
        let Some(inner) = named_children(node).next() else {
            return;
        };
        let (callee, at) = match inner.kind() {
            "identifier" => (Callee::Name(self.text(inner).to_string()), inner),
            "member_expression" => {
                let receiver = inner
                    .child_by_field_name("object")
                    .map(|o| receiver_of(self.walk(o, d)))
                    .unwrap_or(Receiver::Unknown);
                match inner.child_by_field_name("property") {
                    Some(p) => (
                        Callee::Member {
                            receiver,
                            name: self.text(p).to_string(),
                        },
                        p,
                    ),
                    None => return,
                }
            }
            "call_expression" => {
                let shape = self.walk(inner, d);
                let at = inner.child_by_field_name("function").unwrap_or(inner);
                let at = at.child_by_field_name("property").unwrap_or(at);
                match shape {
                    Shape::Call(i) => (Callee::Result(i), at),
                    _ => return,
                }
            }
            _ => {
                self.walk(inner, d);
                return;
            }
        };
        let call = CallSite {
            kind: CallKind::Decorator,
            ..CallSite::new(at, callee, self.wrote(inner))
        };
        self.push_call(call);
    }

    // ----- types ----------------------------------------------------------------------------

    /// A `: T` annotation's type.
    fn annotation(&self, node: Node) -> Option<TypeRef> {
        match node.kind() {
            "type_annotation" | "asserts_annotation" | "type_predicate_annotation" => {
                named_children(node)
                    .next()
                    .and_then(|t| self.type_ref(t, 0))
            }
            _ => self.type_ref(node, 0),
        }
    }

    /// The type an `extends` expression names (`Base`, `ns.Base`, `Base<T>`).
    fn expression_type(&self, node: Node) -> Option<TypeRef> {
        let path = self.member_path(node)?;
        Some(TypeRef {
            path,
            args: Vec::new(),
            is_self: false,
            array: false,
        })
    }

    fn type_ref(&self, node: Node, depth: u32) -> Option<TypeRef> {
        if depth > MAX_TYPE_DEPTH {
            return None;
        }
        let d = depth + 1;
        let mk = |path: Vec<String>, args: Vec<TypeRef>| TypeRef {
            path,
            args,
            is_self: false,
            array: false,
        };
        match node.kind() {
            "type_identifier" | "predefined_type" | "identifier" => {
                Some(TypeRef::simple(self.text(node)))
            }
            "this_type" => Some(TypeRef::self_type()),
            "nested_type_identifier" | "nested_identifier" | "member_expression" => {
                let mut path = Vec::new();
                self.nested_path(node, &mut path, 0);
                (!path.is_empty()).then(|| mk(path, Vec::new()))
            }
            "generic_type" => {
                let mut t = self.type_ref(node.child_by_field_name("name")?, d)?;
                if let Some(args) = node.child_by_field_name("type_arguments") {
                    t.args = named_children(args)
                        .map(|a| {
                            self.type_ref(a, d)
                                .unwrap_or_else(|| TypeRef::simple(OPAQUE))
                        })
                        .collect();
                }
                Some(t)
            }
            "object_type" => self.anon_types.get(&node.id()).map(|n| TypeRef::simple(n)),
            "parenthesized_type" | "readonly_type" => named_children(node)
                .next()
                .and_then(|t| self.type_ref(t, d)),
            "array_type" => {
                let mut t = self.type_ref(named_children(node).next()?, d)?;
                t.array = true;
                Some(t)
            }
            "union_type" => {
                // `T | null | undefined` is T; a union of two types is unknown.
                let mut found: Option<TypeRef> = None;
                let mut parts = Vec::new();
                flatten_union(node, &mut parts, 0);
                for p in parts {
                    let t = self.type_ref(p, d)?;
                    if matches!(t.last(), Some("null" | "undefined" | "void")) && t.path.len() == 1
                    {
                        continue;
                    }
                    if found.replace(t).is_some() {
                        return None;
                    }
                }
                found
            }
            "literal_type" => {
                let inner = named_children(node).next()?;
                match inner.kind() {
                    "null" => Some(TypeRef::simple("null")),
                    "undefined" => Some(TypeRef::simple("undefined")),
                    _ => None,
                }
            }
            "function_type" => {
                let ret = node
                    .child_by_field_name("return_type")
                    .and_then(|r| self.annotation(r))
                    .unwrap_or_else(|| TypeRef::simple(OPAQUE));
                Some(mk(vec![FUNCTION_TYPE.into()], vec![ret]))
            }
            "type_query" => {
                let inner = named_children(node).next()?;
                let mut path = vec![TYPEOF.to_string()];
                path.extend(self.member_path(inner)?);
                Some(mk(path, Vec::new()))
            }
            "lookup_type" => {
                let mut kids = named_children(node);
                let object = self.type_ref(kids.next()?, d)?;
                let key = kids.next()?;
                let key = match key.kind() {
                    "literal_type" => named_children(key)
                        .next()
                        .and_then(|s| self.string_value(s))?,
                    _ => return None,
                };
                Some(mk(
                    vec![INDEXED.into()],
                    vec![object, TypeRef::simple(&key)],
                ))
            }
            _ => None,
        }
    }

    fn nested_path(&self, node: Node, out: &mut Vec<String>, depth: u32) {
        if depth > MAX_TYPE_DEPTH {
            return;
        }
        match node.kind() {
            "identifier" | "type_identifier" | "property_identifier" => {
                out.push(self.text(node).to_string())
            }
            _ => {
                for c in named_children(node) {
                    self.nested_path(c, out, depth + 1);
                }
            }
        }
    }
}

fn flatten_union<'t>(node: Node<'t>, out: &mut Vec<Node<'t>>, depth: u32) {
    if depth > MAX_TYPE_DEPTH {
        return;
    }
    for c in named_children(node) {
        if c.kind() == "union_type" {
            flatten_union(c, out, depth + 1);
        } else {
            out.push(c);
        }
    }
}

/// Whether an expression is an assignment chain that writes `module.exports`.
fn assigns_module_exports(node: Node, src: &[u8]) -> bool {
    let mut cur = Some(node);
    for _ in 0..16 {
        let Some(n) = cur.filter(|n| n.kind() == "assignment_expression") else {
            return false;
        };
        if let Some(left) = n.child_by_field_name("left") {
            if crate::lang::node_text(src, left) == "module.exports" {
                return true;
            }
        }
        cur = n.child_by_field_name("right");
    }
    false
}
