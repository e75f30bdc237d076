//! C and C++ frontend: one syntax tree → FileFacts, in one bounded walk while the
//! tree is alive. The C++ grammar is a superset of the C one, so one walk reads
//! both; `cpp` switches on what only C++ writes (classes, namespaces, `using`,
//! constructions, `new`, `this`, operators).
//!
//! - A function *definition* is a declaration with a body (`Decl::body` is set); a
//!   prototype (`int f(void);`) and an in-class member declaration are
//!   declarations without one. The resolver targets definitions (what clang's
//!   debug info names) and falls back on a declaration only where none exists.
//! - `Decl::scope_path` holds the enclosing namespaces, and for an out-of-line
//!   member (`Box& ns::Box::other()`) the written class path too; the index makes
//!   such a definition a member of its class.
//! - `static` at file scope and anonymous namespaces make a declaration
//!   `file_local`.
//! - A function-like macro's invocation (`TWICE(x)` where the tree has
//!   `#define TWICE(x) …`) is not a call; calls written in its arguments are.
//!   Macro bodies are never walked.
//! - C++ constructions are calls named by their type: `T x(…)` / `T x{…}` / `T x;`
//!   (column of the variable, as clang's debug location), `new T(…)` and `T(…)`
//!   (column of `T`). `T x;` is a construction only where the tree defines a
//!   class T (or T is written `std::`); a C typedef or an enum is not.
//! - Casts, `sizeof`, `alignof`, `decltype`, `noexcept(…)` are never calls, and
//!   nothing inside an unevaluated operand is a call.

use crate::lang::syntax::{children, column_of, line_of, named_children, tail_of, ErrorCount};
use tree_sitter::Node;

use crate::facts::{
    ArgShape, Binding, BindingValue, CallIdx, CallKind, Callee, Decl, DeclIdx, DeclKind, Decorator,
    Field, FileFacts, Import, ImportKind, LiteralType, Param, Receiver, Scope, ScopeIdx, ScopeKind,
    TypeRef, ValueExpr, ValueRef,
};
use crate::lang::c::policy;
use crate::lang::core::{self, CallSite, LangShape, MAX_DEPTH};
use crate::lang::{Language, TreeWide};

const MAX_TYPE_DEPTH: u32 = 32;
const MAX_WROTE: usize = 120;

pub fn extract(
    language: Language,
    path: &str,
    source: &[u8],
    tree: &tree_sitter::Tree,
    tree_wide: &TreeWide,
) -> FileFacts {
    let mut x = Extractor::new(language, path, source, tree_wide);
    x.walk(tree.root_node(), 0);
    let mut facts = x.facts;
    let dir = path.rsplit_once('/').map(|(d, _)| d).unwrap_or("");
    facts.module = vec![dir.to_string()];
    facts.parse_errors = x.errors.total(tree);
    facts
}

/// Give every `#include "…"` the tree path of the file it names
/// (`lang/c/includes.rs`: beside the including file, then from the root, then the
/// one file of the tree whose path ends with it; none when several do).
pub fn resolve_includes(facts: &mut [FileFacts]) {
    let paths = crate::lang::c::includes::IncludePaths::new(
        facts
            .iter()
            .filter(|f| matches!(f.language, Language::C | Language::Cpp))
            .map(|f| f.path.as_str()),
    );
    let mut found: Vec<(usize, usize, String)> = Vec::new();
    for (fi, f) in facts.iter().enumerate() {
        if !matches!(f.language, Language::C | Language::Cpp) {
            continue;
        }
        for (ii, import) in f.imports.iter().enumerate() {
            let ImportKind::CInclude { path, .. } = &import.kind else {
                continue;
            };
            if let crate::lang::c::includes::Found::File(p) = paths.find(&f.path, path) {
                found.push((fi, ii, p.to_string()));
            }
        }
    }
    for (fi, ii, p) in found {
        if let ImportKind::CInclude { resolved, .. } = &mut facts[fi].imports[ii].kind {
            *resolved = Some(p);
        }
    }
}

/// What only C and C++ add to the shared expression core.
#[derive(Debug, Clone)]
enum CShape {
    /// `new T(…)`: a pointer to a T (calls through it are dispatched); as an
    /// argument it is a T, as a receiver or value nothing to follow here (the
    /// declaration it initialises reads it as typed).
    Pointer(TypeRef),
    /// A lambda expression: an argument that is a function.
    Func,
}

impl LangShape for CShape {
    fn arg(self) -> ArgShape {
        match self {
            CShape::Pointer(t) => ArgShape::New(t),
            CShape::Func => ArgShape::Lambda,
        }
    }
}

/// What an expression is, as far as calls, receivers, values and references care.
type Shape = core::Shape<CShape>;

/// A function's declarator, unwrapped: its name, the written qualifier, parameters.
struct FnDeclarator<'t> {
    name: String,
    name_node: Node<'t>,
    qualifier: Vec<String>,
    params: Option<Node<'t>>,
    specifiers: Vec<String>,
}

struct Extractor<'s, 'w> {
    src: &'s [u8],
    cpp: bool,
    tree_wide: &'w TreeWide,
    facts: FileFacts,
    scope: ScopeIdx,
    owner: Option<DeclIdx>,
    /// The class whose body is being read.
    class: Option<DeclIdx>,
    namespace: Vec<String>,
    /// Inside an anonymous namespace: declarations are file-local.
    anonymous: u32,
    /// Template parameters of the declaration being read.
    pending_type_params: Vec<String>,
    /// Inside the argument of a macro that writes it at global scope (`::call`).
    global_scope: bool,
    errors: ErrorCount,
    latest: std::collections::HashMap<(ScopeIdx, String), usize>,
}

impl<'s, 'w> Extractor<'s, 'w> {
    fn new(
        language: Language,
        path: &str,
        src: &'s [u8],
        tree_wide: &'w TreeWide,
    ) -> Extractor<'s, 'w> {
        Extractor {
            src,
            cpp: language == Language::Cpp,
            tree_wide,
            facts: FileFacts::new(path, language),
            scope: 0,
            owner: None,
            class: None,
            namespace: Vec::new(),
            anonymous: 0,
            pending_type_params: Vec::new(),
            global_scope: false,
            errors: ErrorCount::default(),
            latest: Default::default(),
        }
    }

    fn text(&self, node: Node) -> &'s str {
        crate::lang::node_text(self.src, node)
    }

    fn walk(&mut self, node: Node, depth: u32) -> Shape {
        if self.errors.too_deep(depth, MAX_DEPTH) {
            return Shape::Unknown;
        }
        self.errors.note(node);
        let d = depth + 1;
        match node.kind() {
            "comment" => Shape::Unknown,
            "preproc_include" => {
                self.include(node);
                Shape::Unknown
            }
            // Macro bodies are not code of this file: never sites.
            "preproc_def" | "preproc_function_def" | "preproc_call" => Shape::Unknown,
            "preproc_if" | "preproc_ifdef" | "preproc_elif" | "preproc_else"
            | "preproc_elifdef" => {
                for c in named_children(node) {
                    if node.child_by_field_name("condition") == Some(c)
                        || node.child_by_field_name("name") == Some(c)
                    {
                        continue;
                    }
                    self.walk(c, d);
                }
                Shape::Unknown
            }
            "namespace_definition" => {
                self.namespace_definition(node, d);
                Shape::Unknown
            }
            "using_declaration" => {
                self.using_declaration(node);
                Shape::Unknown
            }
            "alias_declaration" => {
                self.alias_declaration(node);
                Shape::Unknown
            }
            "type_definition" => {
                self.type_definition(node, d);
                Shape::Unknown
            }
            "template_declaration" => {
                self.template_declaration(node, d);
                Shape::Unknown
            }
            "function_definition" => {
                self.function_definition(node, d);
                Shape::Unknown
            }
            "declaration" => {
                self.declaration(node, d);
                Shape::Unknown
            }
            "field_declaration" => {
                self.field_declaration(node, d);
                Shape::Unknown
            }
            "class_specifier" | "struct_specifier" | "union_specifier" => {
                self.class_specifier(node, d);
                Shape::Unknown
            }
            // A friend defined in its class is a function of the enclosing namespace.
            "friend_declaration" => {
                for c in named_children(node) {
                    if c.kind() == "function_definition" {
                        let saved = self.class.take();
                        self.function_definition(c, d);
                        self.class = saved;
                    }
                }
                Shape::Unknown
            }
            "enum_specifier" | "static_assert_declaration" => Shape::Unknown,
            "compound_statement" | "for_statement" | "for_range_loop" | "if_statement"
            | "while_statement" | "switch_statement" | "do_statement" | "catch_clause"
            | "try_statement" => {
                self.in_block(|x| x.for_range(node, d));
                Shape::Unknown
            }
            "call_expression" => self.call(node, d),
            "new_expression" => self.new_expression(node, d),
            "compound_literal_expression" => self.compound_literal(node, d),
            "field_expression" => self.field_expression(node, d),
            "lambda_expression" => {
                self.lambda(node, d);
                Shape::Lang(CShape::Func)
            }
            "cast_expression" => {
                if let Some(v) = node.child_by_field_name("value") {
                    self.walk(v, d);
                }
                Shape::Unknown
            }
            // Unevaluated operands: nothing inside is called.
            "sizeof_expression"
            | "alignof_expression"
            | "decltype"
            | "noexcept"
            | "offsetof_expression"
            | "type_descriptor" => Shape::Unknown,
            "pointer_expression" => {
                let op = node.child_by_field_name("operator").map(|o| self.text(o));
                let inner = match node.child_by_field_name("argument") {
                    Some(a) => self.walk(a, d),
                    None => Shape::Unknown,
                };
                match (op, inner) {
                    // `&f`: the function as a value; `&x`: a name either way.
                    (Some("&"), s @ Shape::Name(_)) => s,
                    (Some("*"), s) if self.cpp => {
                        self.operator_site(node, "operator*", s.clone(), 0);
                        Shape::Unknown
                    }
                    _ => Shape::Unknown,
                }
            }
            "parenthesized_expression" => {
                match named_children(node).find(|c| c.kind() != "comment") {
                    Some(inner) => self.walk(inner, d),
                    None => Shape::Unknown,
                }
            }
            "assignment_expression" => {
                self.assignment(node, d);
                Shape::Unknown
            }
            "initializer_list" | "initializer_pair" => {
                self.initializer(node, d);
                Shape::Unknown
            }
            "binary_expression" if self.cpp => self.binary(node, d),
            "update_expression" | "unary_expression" if self.cpp => self.unary(node, d),
            "subscript_expression" if self.cpp => {
                let base = node
                    .child_by_field_name("argument")
                    .map(|a| self.walk(a, d))
                    .unwrap_or(Shape::Unknown);
                for c in named_children(node) {
                    if Some(c) != node.child_by_field_name("argument") {
                        self.walk(c, d);
                    }
                }
                self.operator_site(node, "operator[]", base, 1);
                Shape::Unknown
            }
            "identifier" => Shape::Name(self.text(node).to_string()),
            "this" => Shape::Name("this".to_string()),
            "string_literal" | "concatenated_string" | "raw_string_literal" => {
                Shape::Literal(LiteralType::Str)
            }
            "number_literal" => Shape::Literal(LiteralType::Int),
            "char_literal" => Shape::Literal(LiteralType::Char),
            "true" | "false" => Shape::Literal(LiteralType::Bool),
            "null" | "nullptr" => Shape::Literal(LiteralType::None),
            _ => {
                self.walk_children(node, d);
                Shape::Unknown
            }
        }
    }

    fn walk_children(&mut self, node: Node, depth: u32) {
        for child in named_children(node) {
            self.walk(child, depth);
        }
    }

    /// A statement that opens a scope: `for (T x : xs)` binds x inside it.
    fn for_range(&mut self, node: Node, depth: u32) {
        if node.kind() == "for_range_loop" {
            if let Some(decl) = node.child_by_field_name("declarator") {
                let ty = node
                    .child_by_field_name("type")
                    .and_then(|t| self.type_ref(t, 0));
                // `for (auto &x : xs)` over a written container: x is its element.
                let element = node
                    .child_by_field_name("right")
                    .and_then(|r| self.element_type(r));
                if let Some(name) = self.declarator_name(decl) {
                    let value = match (ty, element) {
                        (Some(t), _) if !is_auto(&t) => BindingValue::Typed { ty: t, value: None },
                        (_, Some(e)) => BindingValue::Typed { ty: e, value: None },
                        _ => BindingValue::Opaque,
                    };
                    self.bind(&name, line_of(decl), value);
                }
            }
            for c in named_children(node) {
                if Some(c) == node.child_by_field_name("declarator")
                    || Some(c) == node.child_by_field_name("type")
                {
                    continue;
                }
                self.walk(c, depth);
            }
            return;
        }
        self.walk_children(node, depth);
    }

    /// The element type of a container a name's declaration writes
    /// (`std::vector<T> xs` → T).
    fn element_type(&self, range: Node) -> Option<TypeRef> {
        if range.kind() != "identifier" {
            return None;
        }
        let ty = match &self.binding_in_chain(self.text(range))?.value {
            BindingValue::Typed { ty, .. } | BindingValue::Param { ty: Some(ty), .. } => ty,
            _ => return None,
        };
        let last = ty.last()?;
        policy::SEQUENCE_CONTAINERS
            .contains(&last)
            .then(|| ty.args.first().cloned())
            .flatten()
    }

    /// Whether a name is a local, a parameter or (in a member defined inside its
    /// class) a field of the class whose written type is a number.
    fn is_plain_local(&self, shape: &Shape) -> bool {
        let Shape::Name(n) = shape else {
            return false;
        };
        let plain =
            |ty: &TypeRef| ty.path.len() == 1 && ty.last().is_some_and(policy::is_plain_type);
        match self.binding_in_chain(n).map(|b| &b.value) {
            Some(BindingValue::Typed { ty, .. } | BindingValue::Param { ty: Some(ty), .. }) => {
                return plain(ty)
            }
            Some(_) => return false,
            None => {}
        }
        let class = self
            .owner
            .and_then(|o| self.facts.decls[o as usize].parent)
            .filter(|&c| self.facts.decls[c as usize].kind.is_type());
        class.is_some_and(|c| {
            self.facts.decls[c as usize]
                .fields
                .iter()
                .any(|f| &f.name == n && f.ty.as_ref().is_some_and(plain))
        })
    }

    fn in_block(&mut self, f: impl FnOnce(&mut Self)) {
        let saved = self.scope;
        self.scope = self.push_scope(ScopeKind::Block, None);
        f(self);
        self.scope = saved;
    }

    fn push_scope(&mut self, kind: ScopeKind, owner: Option<DeclIdx>) -> ScopeIdx {
        self.facts
            .scopes
            .push(Scope::new(kind, Some(self.scope), owner));
        (self.facts.scopes.len() - 1) as ScopeIdx
    }

    fn bind(&mut self, name: &str, line: u32, value: BindingValue) {
        if name.is_empty() {
            return;
        }
        let bindings = &mut self.facts.scopes[self.scope as usize].bindings;
        self.latest
            .insert((self.scope, name.to_string()), bindings.len());
        bindings.push(Binding {
            name: name.to_string(),
            line,
            value,
        });
    }

    fn binding_in_chain(&self, name: &str) -> Option<&Binding> {
        let mut scope = Some(self.scope);
        while let Some(s) = scope {
            let sc = &self.facts.scopes[s as usize];
            if let Some(&i) = self.latest.get(&(s, name.to_string())) {
                return Some(&sc.bindings[i]);
            }
            scope = sc.parent;
        }
        None
    }

    fn include(&mut self, node: Node) {
        let Some(p) = node.child_by_field_name("path") else {
            return;
        };
        let raw = self.text(p);
        let system = p.kind() == "system_lib_string";
        let path = raw
            .trim_matches(|c| c == '"' || c == '<' || c == '>')
            .to_string();
        self.facts.imports.push(Import {
            line: line_of(node),
            kind: ImportKind::CInclude {
                path,
                system,
                resolved: None,
            },
        });
    }

    fn namespace_definition(&mut self, node: Node, depth: u32) {
        let names: Vec<String> = match node.child_by_field_name("name") {
            Some(n) if n.kind() == "nested_namespace_specifier" => named_children(n)
                .map(|c| self.text(c).to_string())
                .filter(|s| !s.is_empty())
                .collect(),
            Some(n) => vec![self.text(n).to_string()],
            None => Vec::new(),
        };
        let anonymous = names.is_empty();
        let saved = self.namespace.len();
        self.namespace.extend(names);
        if anonymous {
            self.anonymous += 1;
        }
        if let Some(body) = node.child_by_field_name("body") {
            self.walk_children(body, depth);
        }
        if anonymous {
            self.anonymous -= 1;
        }
        self.namespace.truncate(saved);
    }

    /// `using namespace a::b;` and `using a::b::f;`.
    fn using_declaration(&mut self, node: Node) {
        let is_namespace = children(node).any(|c| c.kind() == "namespace");
        let Some(target) = named_children(node).find(|c| {
            matches!(
                c.kind(),
                "identifier" | "qualified_identifier" | "namespace_identifier"
            )
        }) else {
            return;
        };
        let mut path = self.scoped_path(target);
        let kind = if is_namespace {
            ImportKind::CppUsingNamespace { path }
        } else {
            let alias = path.pop().unwrap_or_default();
            path.push(alias.clone());
            ImportKind::CppUsing { path, alias }
        };
        self.facts.imports.push(Import {
            line: line_of(node),
            kind,
        });
    }

    /// `using Alias = a::T;`.
    fn alias_declaration(&mut self, node: Node) {
        let (Some(name), Some(ty)) = (
            node.child_by_field_name("name"),
            node.child_by_field_name("type"),
        ) else {
            return;
        };
        let ty = ty.child_by_field_name("type").unwrap_or(ty);
        if let Some(t) = self.type_ref(ty, 0) {
            let alias = self.text(name).to_string();
            self.facts.imports.push(Import {
                line: line_of(node),
                kind: ImportKind::CppUsing {
                    path: t.path,
                    alias,
                },
            });
        }
    }

    /// `typedef struct s {…} s_t;`: the struct is read; the alias names its type.
    fn type_definition(&mut self, node: Node, depth: u32) {
        let Some(ty) = node.child_by_field_name("type") else {
            return;
        };
        if matches!(
            ty.kind(),
            "struct_specifier" | "class_specifier" | "union_specifier"
        ) {
            self.walk(ty, depth);
        }
        let Some(t) = self.type_ref(ty, 0) else {
            return;
        };
        let mut cursor = node.walk();
        let decls: Vec<Node> = node
            .children_by_field_name("declarator", &mut cursor)
            .collect();
        for dn in decls {
            if dn.kind() == "type_identifier" {
                let alias = self.text(dn).to_string();
                if t.path.last() != Some(&alias) {
                    self.facts.imports.push(Import {
                        line: line_of(node),
                        kind: ImportKind::CppUsing {
                            path: t.path.clone(),
                            alias,
                        },
                    });
                }
            }
        }
    }

    fn template_declaration(&mut self, node: Node, depth: u32) {
        let mut names = Vec::new();
        if let Some(params) = node.child_by_field_name("parameters") {
            for p in named_children(params) {
                let name = p
                    .child_by_field_name("name")
                    .or_else(|| named_children(p).find(|c| c.kind() == "type_identifier"));
                if let Some(n) = name {
                    names.push(self.text(n).to_string());
                }
            }
        }
        for c in named_children(node) {
            if Some(c) == node.child_by_field_name("parameters") {
                continue;
            }
            self.pending_type_params = names.clone();
            self.walk(c, depth);
        }
        self.pending_type_params.clear();
    }

    fn push_decl(&mut self, decl: Decl) -> DeclIdx {
        self.facts.decls.push(decl);
        (self.facts.decls.len() - 1) as DeclIdx
    }

    /// Unwrap a declarator down to its function declarator, if it is one.
    fn fn_declarator<'t>(&self, node: Node<'t>) -> Option<FnDeclarator<'t>> {
        let mut cur = node;
        for _ in 0..16 {
            match cur.kind() {
                "function_declarator" => {
                    let inner = cur.child_by_field_name("declarator")?;
                    let params = cur.child_by_field_name("parameters");
                    let specifiers = named_children(cur)
                        .filter(|c| c.kind() == "virtual_specifier")
                        .map(|c| self.text(c).to_string())
                        .collect();
                    let (qualifier, name, name_node) = self.declarator_path(inner)?;
                    return Some(FnDeclarator {
                        name,
                        name_node,
                        qualifier,
                        params,
                        specifiers,
                    });
                }
                "pointer_declarator"
                | "reference_declarator"
                | "init_declarator"
                | "attributed_declarator" => {
                    cur = cur
                        .child_by_field_name("declarator")
                        .or_else(|| named_children(cur).last())?;
                }
                _ => return None,
            }
        }
        None
    }

    /// The segment a qualified name's `scope` writes: a template's name without its
    /// arguments (`Box<T>::` → `Box`), else the scope's text.
    fn scope_segment(&self, scope: Node) -> String {
        match scope.kind() {
            "template_type" => scope
                .child_by_field_name("name")
                .map(|n| self.text(n).to_string())
                .unwrap_or_default(),
            _ => self.text(scope).to_string(),
        }
    }

    /// The name of a function declarator: `f`, `ns::T::m`, `~T`, `operator==`.
    fn declarator_path<'t>(&self, node: Node<'t>) -> Option<(Vec<String>, String, Node<'t>)> {
        match node.kind() {
            "identifier" | "field_identifier" | "type_identifier" => {
                Some((Vec::new(), self.text(node).to_string(), node))
            }
            "destructor_name" => Some((Vec::new(), compact(self.text(node)), node)),
            "operator_name" => Some((Vec::new(), compact(self.text(node)), node)),
            "template_function" => {
                let n = node.child_by_field_name("name")?;
                Some((Vec::new(), self.text(n).to_string(), n))
            }
            "qualified_identifier" => {
                let mut qualifier = Vec::new();
                let mut cur = node;
                for _ in 0..16 {
                    if let Some(scope) = cur.child_by_field_name("scope") {
                        qualifier.push(self.scope_segment(scope));
                    }
                    let name = cur.child_by_field_name("name")?;
                    if name.kind() == "qualified_identifier" {
                        cur = name;
                        continue;
                    }
                    let (_, n, nn) = self.declarator_path(name)?;
                    return Some((qualifier, n, nn));
                }
                None
            }
            "parenthesized_declarator" | "pointer_declarator" => {
                let inner = node
                    .child_by_field_name("declarator")
                    .or_else(|| named_children(node).next())?;
                self.declarator_path(inner)
            }
            _ => None,
        }
    }

    fn is_static(&self, node: Node) -> bool {
        named_children(node)
            .any(|c| c.kind() == "storage_class_specifier" && self.text(c) == "static")
    }

    fn is_virtual(&self, node: Node) -> bool {
        children(node).any(|c| c.kind() == "virtual" || (c.kind() == "virtual_function_specifier"))
    }

    /// A function declaration or definition: the Decl, with its parameters, return
    /// type, flags and place (class member, out-of-line member, namespace function).
    fn function_decl(&mut self, node: Node, f: &FnDeclarator) -> DeclIdx {
        let class_name = self
            .class
            .map(|c| self.facts.decls[c as usize].name.clone());
        let kind = if let Some(cn) = &class_name {
            if f.qualifier.is_empty() && &f.name == cn {
                DeclKind::Constructor
            } else {
                DeclKind::Method
            }
        } else if let Some(last) = f.qualifier.last() {
            if last == &f.name {
                DeclKind::Constructor
            } else {
                DeclKind::Method
            }
        } else {
            DeclKind::Function
        };
        let at = (line_of(f.name_node), column_of(f.name_node));
        let mut decl = Decl::new(
            f.name.clone(),
            kind,
            self.class,
            self.scope,
            at,
            node.end_position().row as u32 + 1,
        );
        if self.class.is_none() {
            decl.scope_path = self.namespace.clone();
            decl.scope_path.extend(f.qualifier.iter().cloned());
        }
        let is_static = self.is_static(node);
        decl.is_static = is_static;
        decl.file_local =
            self.class.is_none() && f.qualifier.is_empty() && (is_static || self.anonymous > 0);
        decl.params = f.params.map(|p| self.parameters(p)).unwrap_or_default();
        decl.returns = node
            .child_by_field_name("type")
            .and_then(|t| self.type_ref(t, 0));
        decl.type_params = std::mem::take(&mut self.pending_type_params);
        if self.is_virtual(node) {
            decl.decorators.push(Decorator {
                path: vec!["virtual".to_string()],
                called: false,
            });
        }
        for s in &f.specifiers {
            decl.decorators.push(Decorator {
                path: vec![s.clone()],
                called: false,
            });
        }
        self.push_decl(decl)
    }

    fn function_definition(&mut self, node: Node, depth: u32) {
        let Some(f) = node
            .child_by_field_name("declarator")
            .and_then(|d| self.fn_declarator(d))
        else {
            // `FOO(x) { … }` a macro the grammar took for a definition: its body's calls.
            if let Some(b) = node.child_by_field_name("body") {
                self.walk(b, depth);
            }
            return;
        };
        let idx = self.function_decl(node, &f);
        // `T(const T&) = delete;` is never called: a declaration, not a definition.
        if named_children(node).any(|c| c.kind() == "delete_method_clause") {
            self.facts.decls[idx as usize].is_deleted = true;
            return;
        }
        if let Some(fixture) = self.test_fixture(node, &f) {
            self.facts.decls[idx as usize].bases.push(fixture);
        }
        let params = self.facts.decls[idx as usize].params.clone();
        let saved = (self.scope, self.owner, self.class);
        let scope = self.push_scope(ScopeKind::Function, Some(idx));
        self.facts.decls[idx as usize].body = Some(scope);
        self.scope = scope;
        self.owner = Some(idx);
        self.class = None;
        for (i, p) in params.iter().enumerate() {
            self.bind(
                &p.name,
                line_of(node),
                BindingValue::Param {
                    index: i as u32,
                    ty: p.ty.clone(),
                },
            );
        }
        for c in named_children(node) {
            match c.kind() {
                "field_initializer_list" => {
                    for init in named_children(c) {
                        let mut args = Vec::new();
                        for a in named_children(init) {
                            if matches!(a.kind(), "argument_list" | "initializer_list") {
                                args = self.arguments(a, depth);
                            }
                        }
                        self.base_initializer(init, args);
                    }
                }
                "compound_statement" | "try_statement" => {
                    self.walk_children(c, depth);
                }
                _ => {}
            }
        }
        (self.scope, self.owner, self.class) = saved;
    }

    /// `TEST_F(Fixture, Name) { … }`: a test macro (an all-caps name with no return
    /// type, whose first argument is a bare type name) expands to a member of a
    /// subclass of its first argument; the body's bare calls are that class's.
    /// The resolver uses the base only where it names a class of the tree.
    fn test_fixture(&self, node: Node, f: &FnDeclarator) -> Option<TypeRef> {
        if !self.cpp || node.child_by_field_name("type").is_some() || !f.qualifier.is_empty() {
            return None;
        }
        let caps = f.name.len() >= 2
            && f.name
                .bytes()
                .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_');
        if !caps {
            return None;
        }
        let first = named_children(f.params?).next()?;
        if first.kind() != "parameter_declaration"
            || first.child_by_field_name("declarator").is_some()
        {
            return None;
        }
        let t = first.child_by_field_name("type")?;
        (t.kind() == "type_identifier").then(|| TypeRef::simple(self.text(t)))
    }

    /// `: Base(args)` in a constructor's initializer list, where Base is a class
    /// the tree defines: the base's construction, at the name (a member
    /// initialiser `mem_(x)` names a field, not a type, and makes no site).
    fn base_initializer(&mut self, init: Node, args: Vec<ArgShape>) {
        let Some(name) = named_children(init).next() else {
            return;
        };
        let Some(ty) = self.type_ref(name, 0).or_else(|| {
            (name.kind() == "field_identifier").then(|| TypeRef::simple(self.text(name)))
        }) else {
            return;
        };
        if !ty
            .last()
            .is_some_and(|n| self.tree_wide.c_macros.is_class_name(n))
        {
            return;
        }
        let anchor = type_name_node(name).unwrap_or(name);
        self.construction_site(&ty, anchor, args);
    }

    fn parameters(&self, list: Node) -> Vec<Param> {
        let mut out = Vec::new();
        for p in named_children(list) {
            match p.kind() {
                "parameter_declaration" | "optional_parameter_declaration" => {
                    let ty = p.child_by_field_name("type");
                    // `f(void)` takes nothing.
                    if p.child_by_field_name("declarator").is_none()
                        && ty.is_some_and(|t| self.text(t) == "void")
                    {
                        continue;
                    }
                    let fn_pointer = p.child_by_field_name("declarator").is_some_and(|d| {
                        self.fn_declarator(d).is_some() || contains_function_declarator(d)
                    });
                    let ty = if fn_pointer {
                        None
                    } else {
                        ty.and_then(|t| self.type_ref(t, 0))
                    };
                    let name = p
                        .child_by_field_name("declarator")
                        .and_then(|d| self.declarator_name(d))
                        .unwrap_or_default();
                    out.push(Param {
                        name,
                        ty,
                        variadic: false,
                        keyword_variadic: false,
                        has_default: p.kind() == "optional_parameter_declaration",
                        default: None,
                    });
                }
                "variadic_parameter_declaration" | "variadic_parameter" => out.push(Param {
                    name: String::new(),
                    ty: None,
                    variadic: true,
                    keyword_variadic: false,
                    has_default: false,
                    default: None,
                }),
                _ => {}
            }
        }
        // A bare `...` is an anonymous child in some grammar versions.
        if children(list).any(|c| c.kind() == "...") && !out.iter().any(|p| p.variadic) {
            out.push(Param {
                name: String::new(),
                ty: None,
                variadic: true,
                keyword_variadic: false,
                has_default: false,
                default: None,
            });
        }
        out
    }

    /// The variable a declarator declares (`x` of `*x[3]`, `(*fp)(int)`).
    fn declarator_name(&self, node: Node) -> Option<String> {
        let mut cur = node;
        for _ in 0..16 {
            match cur.kind() {
                "identifier" | "field_identifier" => return Some(self.text(cur).to_string()),
                "structured_binding_declarator" => return None,
                _ => {
                    cur = cur
                        .child_by_field_name("declarator")
                        .or_else(|| named_children(cur).find(|c| c.kind() != "type_qualifier"))?;
                }
            }
        }
        None
    }

    /// `int f(void);`, `T x(1), *y = f;`, `static struct ops t = { a, b };`.
    fn declaration(&mut self, node: Node, depth: u32) {
        let ty_node = node.child_by_field_name("type");
        if let Some(t) = ty_node {
            if matches!(
                t.kind(),
                "struct_specifier" | "class_specifier" | "union_specifier"
            ) && t.child_by_field_name("body").is_some()
            {
                self.walk(t, depth);
            }
        }
        let ty = ty_node.and_then(|t| self.type_ref(t, 0));
        let mut cursor = node.walk();
        let declarators: Vec<Node> = node
            .children_by_field_name("declarator", &mut cursor)
            .collect();
        let is_extern = named_children(node)
            .any(|c| c.kind() == "storage_class_specifier" && self.text(c) == "extern");
        let in_function = self.owner.is_some();
        for dn in declarators {
            // A function pointer variable `int (*fp)(int) = add;` is a variable.
            if contains_function_pointer(dn) {
                self.variable(node, dn, None, is_extern, depth);
                continue;
            }
            if let Some(f) = self.fn_declarator(dn) {
                // A local `T x(a, b);` the grammar read as a function declarator.
                if in_function && self.cpp && f.qualifier.is_empty() {
                    if let Some(ty) = ty.as_ref().filter(|t| self.constructs(t)) {
                        if let Some(params) = f.params {
                            let args: Vec<ArgShape> = named_children(params)
                                .map(|p| ArgShape::Name(self.text(p).to_string()))
                                .collect();
                            self.construction_site(ty, f.name_node, args);
                            self.bind(
                                &f.name,
                                line_of(f.name_node),
                                BindingValue::Typed {
                                    ty: ty.clone(),
                                    value: None,
                                },
                            );
                            continue;
                        }
                    }
                }
                if in_function {
                    continue;
                }
                self.function_decl(node, &f);
                continue;
            }
            self.variable(node, dn, ty.as_ref(), is_extern, depth);
        }
    }

    /// One variable declarator: its binding, its initializer's calls, references
    /// and, in C++, the construction it makes.
    fn variable(
        &mut self,
        _decl: Node,
        dn: Node,
        ty: Option<&TypeRef>,
        is_extern: bool,
        depth: u32,
    ) {
        let Some(name) = self.declarator_name(dn) else {
            self.walk_children(dn, depth);
            return;
        };
        let name_node = find_identifier(dn).unwrap_or(dn);
        let indirect = is_indirect(dn);
        let fn_pointer = contains_function_pointer(dn);
        let value_node = (dn.kind() == "init_declarator")
            .then(|| dn.child_by_field_name("value"))
            .flatten();
        let mut value = None;
        match value_node {
            Some(v) if matches!(v.kind(), "argument_list") => {
                // `T x(a, b)`.
                let args = self.arguments(v, depth);
                if let Some(t) = ty.filter(|t| !indirect && self.constructs(t)) {
                    self.construction_site(t, name_node, args);
                }
            }
            Some(v)
                if v.kind() == "initializer_list"
                    && !indirect
                    && ty.is_some_and(|t| {
                        self.constructs(t)
                            && self
                                .tree_wide
                                .c_macros
                                .is_class_name(t.last().unwrap_or(""))
                    }) =>
            {
                let args = self.arguments(v, depth);
                if let Some(t) = ty {
                    self.construction_site(t, name_node, args);
                }
            }
            Some(v) => {
                let shape = self.walk(v, depth);
                if fn_pointer || !self.cpp || self.owner.is_none() {
                    self.reference(&shape, v, self.owner.is_none());
                }
                value = Some(shape);
            }
            None => {
                if !indirect && !is_extern && !fn_pointer && self.cpp && self.class.is_none() {
                    if let Some(t) = ty.filter(|t| self.default_constructs(t)) {
                        self.construction_site(t, name_node, Vec::new());
                    }
                }
            }
        }
        let binding = match (ty, value) {
            _ if fn_pointer => BindingValue::Opaque,
            // `auto p = new T(…)`: a pointer of static type T.
            (_, Some(Shape::Lang(CShape::Pointer(t)))) => {
                BindingValue::Typed { ty: t, value: None }
            }
            // A local object (not a pointer or reference): its dynamic type is its
            // written type, so a virtual call on it is direct.
            (Some(t), None) if !is_auto(t) && !indirect && self.cpp => BindingValue::Typed {
                ty: t.clone(),
                value: Some(ValueExpr::New(t.clone())),
            },
            (Some(t), v) if !is_auto(t) => BindingValue::Typed {
                ty: t.clone(),
                value: v.map(Shape::value),
            },
            (_, Some(v)) => match v.value() {
                ValueExpr::Unknown => BindingValue::Opaque,
                other => BindingValue::Value(other),
            },
            _ => BindingValue::Opaque,
        };
        self.bind(&name, line_of(name_node), binding);
    }

    /// Whether a written type may be constructed with arguments (not a primitive,
    /// not `auto`, not a C typedef of a number).
    fn constructs(&self, t: &TypeRef) -> bool {
        !t.array && !t.is_self && t.last().is_some_and(|n| !policy::is_plain_type(n)) && !is_auto(t)
    }

    /// `T x;` constructs only where the tree defines class T, or T is `std::`.
    fn default_constructs(&self, t: &TypeRef) -> bool {
        self.constructs(t)
            && (t.path.first().is_some_and(|p| p == "std")
                || t.last()
                    .is_some_and(|n| self.tree_wide.c_macros.is_class_name(n)))
    }

    /// A construction named by its type at `anchor` (the variable, or `T`).
    fn construction_site(&mut self, ty: &TypeRef, anchor: Node, args: Vec<ArgShape>) -> CallIdx {
        let name = ty.last().unwrap_or("").to_string();
        let callee = if ty.path.len() > 1 {
            Callee::Member {
                receiver: Receiver::Scope(ty.path[..ty.path.len() - 1].to_vec()),
                name,
            }
        } else {
            Callee::Name(name)
        };
        let wrote = ty.path.join("::");
        self.push_call(
            anchor,
            callee,
            CallKind::New,
            args,
            ty.args.len() as u32,
            wrote,
        )
    }

    fn push_call(
        &mut self,
        anchor: Node,
        callee: Callee,
        kind: CallKind,
        args: Vec<ArgShape>,
        type_args: u32,
        wrote: String,
    ) -> CallIdx {
        let site = CallSite {
            kind,
            args,
            type_args,
            ..CallSite::new(anchor, callee, wrote)
        };
        core::push_call(&mut self.facts, self.owner, self.scope, site)
    }

    /// A member declaration inside a class or struct body: a method declaration,
    /// or fields with their written types.
    fn field_declaration(&mut self, node: Node, depth: u32) {
        if let Some(t) = node.child_by_field_name("type") {
            if matches!(
                t.kind(),
                "struct_specifier" | "class_specifier" | "union_specifier"
            ) && t.child_by_field_name("body").is_some()
            {
                self.walk(t, depth);
            }
        }
        let ty = node
            .child_by_field_name("type")
            .and_then(|t| self.type_ref(t, 0));
        let mut cursor = node.walk();
        let declarators: Vec<Node> = node
            .children_by_field_name("declarator", &mut cursor)
            .collect();
        let is_static = self.is_static(node);
        for dn in declarators {
            if !contains_function_pointer(dn) {
                if let Some(f) = self.fn_declarator(dn) {
                    if self.class.is_some() {
                        self.function_decl(node, &f);
                    }
                    continue;
                }
            }
            let Some(name) = self.declarator_name(dn) else {
                continue;
            };
            let field_ty = if contains_function_pointer(dn) {
                None
            } else {
                ty.clone()
            };
            if let Some(c) = self.class {
                let line = line_of(dn);
                // A member object (not a pointer or reference) holds an object of
                // exactly its written type: calls on it are direct.
                let value = match (&field_ty, is_indirect(dn)) {
                    (Some(t), false) if self.cpp => Some(ValueExpr::New(t.clone())),
                    _ => None,
                };
                self.facts.decls[c as usize].fields.push(Field {
                    name,
                    ty: field_ty,
                    value,
                    line,
                    is_static,
                    scope: self.scope,
                });
            }
        }
        if let Some(v) = node.child_by_field_name("default_value") {
            self.walk(v, depth);
        }
    }

    /// A class, struct or union with a body (C++): a type declaration whose members
    /// are read in its own scope. In C a struct declares no entity; its body's
    /// nested declarations are still read.
    fn class_specifier(&mut self, node: Node, depth: u32) {
        let Some(body) = node.child_by_field_name("body") else {
            return;
        };
        let name_node = node.child_by_field_name("name");
        if !self.cpp || name_node.is_none() {
            // Anonymous or C: members matter only for nested specifiers.
            for c in named_children(body) {
                if c.kind() == "field_declaration" {
                    if let Some(t) = c.child_by_field_name("type") {
                        if t.child_by_field_name("body").is_some() {
                            self.walk(t, depth);
                        }
                    }
                }
            }
            return;
        }
        let name_node = name_node.unwrap();
        let (qualifier, name, anchor) = match self.declarator_path(name_node) {
            Some(x) => x,
            None => match name_node.kind() {
                "template_type" => {
                    let n = name_node.child_by_field_name("name").unwrap_or(name_node);
                    (Vec::new(), self.text(n).to_string(), n)
                }
                _ => (Vec::new(), self.text(name_node).to_string(), name_node),
            },
        };
        let at = (line_of(anchor), column_of(anchor));
        let mut decl = Decl::new(
            name,
            DeclKind::Class,
            self.class.or(None),
            self.scope,
            at,
            node.end_position().row as u32 + 1,
        );
        if self.class.is_none() {
            decl.scope_path = self.namespace.clone();
            decl.scope_path.extend(qualifier);
            decl.file_local = self.anonymous > 0;
            // A class local to a function belongs to it.
            decl.parent = self.owner;
        }
        decl.type_params = std::mem::take(&mut self.pending_type_params);
        if let Some(bases) = named_children(node).find(|c| c.kind() == "base_class_clause") {
            for b in named_children(bases) {
                if let Some(t) = self.type_ref(b, 0) {
                    decl.bases.push(t);
                }
            }
        }
        let idx = self.push_decl(decl);
        let saved = (self.scope, self.class, self.owner);
        let scope = self.push_scope(ScopeKind::Class, Some(idx));
        self.facts.decls[idx as usize].body = Some(scope);
        self.scope = scope;
        self.class = Some(idx);
        self.owner = None;
        for c in named_children(body) {
            match c.kind() {
                "function_definition"
                | "field_declaration"
                | "declaration"
                | "template_declaration"
                | "class_specifier"
                | "struct_specifier"
                | "union_specifier"
                | "using_declaration"
                | "alias_declaration"
                | "type_definition"
                | "preproc_if"
                | "preproc_ifdef"
                | "preproc_else"
                | "preproc_elif"
                | "friend_declaration" => {
                    self.walk(c, depth);
                }
                _ => {}
            }
        }
        (self.scope, self.class, self.owner) = saved;
    }

    fn lambda(&mut self, node: Node, depth: u32) {
        let params = node
            .child_by_field_name("declarator")
            .and_then(|d| d.child_by_field_name("parameters"))
            .map(|p| self.parameters(p))
            .unwrap_or_default();
        let saved = self.scope;
        self.scope = self.push_scope(ScopeKind::Lambda, None);
        for (i, p) in params.iter().enumerate() {
            self.bind(
                &p.name,
                line_of(node),
                BindingValue::Param {
                    index: i as u32,
                    ty: p.ty.clone(),
                },
            );
        }
        if let Some(body) = node.child_by_field_name("body") {
            self.walk_children(body, depth);
        }
        self.scope = saved;
    }

    /// `x = f;` (a function as a value), `s->cb = handler;`, `a = b` operators.
    fn assignment(&mut self, node: Node, depth: u32) {
        let left = node.child_by_field_name("left");
        let right = node.child_by_field_name("right");
        let left_shape = left.map(|l| self.walk(l, depth));
        let Some(r) = right else {
            return;
        };
        let shape = self.walk(r, depth);
        // `a = b` / `a += b` on a class that overloads the operator calls it. Only a
        // name is read (`s = f()`): a field path (`options.x = 1`) mostly stores a
        // number or a pointer, which the written type cannot tell apart.
        if let (Some(op), Some(ls @ Shape::Name(_))) =
            (node.child_by_field_name("operator"), left_shape.clone())
        {
            if self.cpp {
                let spelling = format!("operator{}", self.text(op));
                self.operator_site(op, &spelling, ls, 1);
            }
        }
        let plain = node
            .child_by_field_name("operator")
            .is_some_and(|o| self.text(o) == "=");
        if plain {
            match (&left_shape, left) {
                (Some(Shape::Name(n)), Some(l)) if self.owner.is_some() => {
                    // A local's new value: a call of it abstains. A declared type
                    // never changes (C and C++ are statically typed): typed
                    // bindings are kept.
                    let n = n.clone();
                    let untyped = self.binding_in_chain(&n).is_some_and(|b| {
                        matches!(b.value, BindingValue::Value(_) | BindingValue::Opaque)
                    });
                    if untyped {
                        self.bind(&n, line_of(l), BindingValue::Opaque);
                    }
                    self.reference(&shape, r, false);
                }
                _ => self.reference(&shape, r, true),
            }
        }
    }

    /// Elements of an initializer list: functions stored in a table are references.
    fn initializer(&mut self, node: Node, depth: u32) {
        for c in named_children(node) {
            if node.kind() == "initializer_pair" && Some(c) != node.child_by_field_name("value") {
                continue;
            }
            let shape = self.walk(c, depth);
            self.reference(&shape, c, true);
        }
    }

    /// A bare name used as a value (`&f`, `f` in a table or an argument): a
    /// candidate reference the resolver keeps only where it names a function.
    fn reference(&mut self, shape: &Shape, node: Node, escapes: bool) {
        // `c ? f : g`: both branches are values.
        if node.kind() == "conditional_expression" {
            for field in ["consequence", "alternative"] {
                if let Some(b) = node.child_by_field_name(field) {
                    if let Some(name) = self.value_name(b) {
                        self.reference(&Shape::Name(name), b, escapes);
                    }
                }
            }
            return;
        }
        let Shape::Name(name) = shape else {
            return;
        };
        if name == "this" {
            return;
        }
        // A local or parameter of that name is a variable, not a function.
        if self.owner.is_some()
            && self
                .binding_in_chain(name)
                .is_some_and(|b| !matches!(b.value, BindingValue::Decl(_)))
            && self.scope != 0
        {
            let local = {
                let mut s = Some(self.scope);
                let mut found = false;
                while let Some(sc) = s {
                    if sc == 0 {
                        break;
                    }
                    if self.latest.contains_key(&(sc, name.clone())) {
                        found = true;
                        break;
                    }
                    s = self.facts.scopes[sc as usize].parent;
                }
                found
            };
            if local {
                return;
            }
        }
        let anchor = find_identifier(node).unwrap_or(node);
        self.facts.refs.push(ValueRef {
            line: line_of(anchor),
            column: column_of(anchor),
            caller: self.owner,
            scope: self.scope,
            target: Callee::Name(name.clone()),
            wrote: name.clone(),
            escapes,
        });
    }

    /// The name an expression is, when it is one (`f`, `&f`, `(f)`).
    fn value_name(&self, node: Node) -> Option<String> {
        match node.kind() {
            "identifier" => Some(self.text(node).to_string()),
            "pointer_expression"
                if node
                    .child_by_field_name("operator")
                    .is_some_and(|o| self.text(o) == "&") =>
            {
                self.value_name(node.child_by_field_name("argument")?)
            }
            "parenthesized_expression" => self.value_name(named_children(node).next()?),
            _ => None,
        }
    }

    fn arguments(&mut self, list: Node, depth: u32) -> Vec<ArgShape> {
        let mut args = Vec::new();
        for k in named_children(list) {
            if k.kind() == "comment" {
                continue;
            }
            let shape = self.walk(k, depth);
            self.reference(&shape, k, true);
            args.push(shape.arg());
        }
        args
    }

    /// A call site: callee as structure, name token position, argument shapes.
    fn call(&mut self, node: Node, depth: u32) -> Shape {
        let Some(function) = node.child_by_field_name("function") else {
            self.walk_children(node, depth);
            return Shape::Unknown;
        };
        let args_node = node.child_by_field_name("arguments");
        let mut type_args = 0u32;
        let (callee, anchor) = match function.kind() {
            "identifier" => {
                let name = self.text(function).to_string();
                // A function-like macro's invocation is not a call; its arguments' are.
                if self.tree_wide.c_macros.is_function_like(&name) {
                    let saved = self.global_scope;
                    self.global_scope = self.tree_wide.c_macros.qualifies_globally(&name);
                    if let Some(a) = args_node {
                        self.arguments(a, depth);
                    }
                    self.global_scope = saved;
                    return Shape::Unknown;
                }
                if std::mem::take(&mut self.global_scope) {
                    // `FMT_POSIX_CALL(close(fd))` is `::close(fd)`.
                    (
                        Callee::Member {
                            receiver: Receiver::Scope(Vec::new()),
                            name,
                        },
                        function,
                    )
                } else {
                    (Callee::Name(name), function)
                }
            }
            "template_function" => {
                let Some(n) = function.child_by_field_name("name") else {
                    return Shape::Unknown;
                };
                // `static_cast<T>(x)` and its kin are conversions, never calls.
                if policy::is_cast_keyword(self.text(n)) {
                    if let Some(a) = args_node {
                        self.arguments(a, depth);
                    }
                    return Shape::Unknown;
                }
                type_args = function
                    .child_by_field_name("arguments")
                    .map(|a| a.named_child_count() as u32)
                    .unwrap_or(0);
                (Callee::Name(self.text(n).to_string()), n)
            }
            "qualified_identifier" => {
                let Some((scope, name, anchor, targs)) = self.qualified_callee(function) else {
                    if let Some(a) = args_node {
                        self.arguments(a, depth);
                    }
                    return Shape::Unknown;
                };
                type_args = targs;
                if name.starts_with('~') {
                    if let Some(a) = args_node {
                        self.arguments(a, depth);
                    }
                    return Shape::Unknown;
                }
                (
                    Callee::Member {
                        receiver: Receiver::Scope(scope),
                        name,
                    },
                    anchor,
                )
            }
            "field_expression" => {
                let receiver = function
                    .child_by_field_name("argument")
                    .map(|o| self.walk(o, depth))
                    .unwrap_or(Shape::Unknown);
                let Some(field) = function.child_by_field_name("field") else {
                    return Shape::Unknown;
                };
                let (name, anchor) = match field.kind() {
                    "template_method" => {
                        let n = field.child_by_field_name("name").unwrap_or(field);
                        type_args = field
                            .child_by_field_name("arguments")
                            .map(|a| a.named_child_count() as u32)
                            .unwrap_or(0);
                        (self.text(n).to_string(), n)
                    }
                    "qualified_identifier" => match self.qualified_callee(field) {
                        Some((_, n, a, _)) => (n, a),
                        None => return Shape::Unknown,
                    },
                    _ => (compact(self.text(field)), field),
                };
                if name.starts_with('~') {
                    if let Some(a) = args_node {
                        self.arguments(a, depth);
                    }
                    return Shape::Unknown;
                }
                (
                    Callee::Member {
                        receiver: receiver.receiver(),
                        name,
                    },
                    anchor,
                )
            }
            // `table[i](x)`: named by the table, at its column.
            "subscript_expression"
                if function
                    .child_by_field_name("argument")
                    .is_some_and(|a| a.kind() == "identifier") =>
            {
                let base = function.child_by_field_name("argument").unwrap();
                for c in named_children(function) {
                    if c != base {
                        self.walk(c, depth);
                    }
                }
                (
                    Callee::Subscript {
                        base: Receiver::Path(vec![self.text(base).to_string()]),
                        key: None,
                        key_name: None,
                    },
                    base,
                )
            }
            _ => {
                let inner = self.walk(function, depth);
                let callee = match inner {
                    Shape::Call(c) => Callee::Result(c),
                    _ => Callee::Dynamic,
                };
                (callee, function)
            }
        };
        let args = match args_node {
            Some(a) => self.arguments(a, depth),
            None => Vec::new(),
        };
        let wrote = self.wrote(function);
        let idx = self.push_call(anchor, callee, CallKind::Call, args, type_args, wrote);
        Shape::Call(idx)
    }

    /// `a::b::f<T>` → (["a", "b"], "f", the `f` token, type argument count).
    fn qualified_callee<'t>(&self, node: Node<'t>) -> Option<(Vec<String>, String, Node<'t>, u32)> {
        let mut scope = Vec::new();
        let mut cur = node;
        for _ in 0..16 {
            if let Some(s) = cur.child_by_field_name("scope") {
                scope.push(self.scope_segment(s));
            }
            let name = cur.child_by_field_name("name")?;
            match name.kind() {
                "qualified_identifier" => cur = name,
                "template_function" => {
                    let n = name.child_by_field_name("name")?;
                    let targs = name
                        .child_by_field_name("arguments")
                        .map(|a| a.named_child_count() as u32)
                        .unwrap_or(0);
                    return Some((scope, self.text(n).to_string(), n, targs));
                }
                "identifier" | "type_identifier" | "field_identifier" | "operator_name"
                | "destructor_name" => {
                    return Some((scope, compact(self.text(name)), name, 0));
                }
                _ => return None,
            }
        }
        None
    }

    /// `new T(…)`: a construction of T at the column of `T`.
    fn new_expression(&mut self, node: Node, depth: u32) -> Shape {
        if let Some(p) = node.child_by_field_name("placement") {
            self.walk(p, depth);
        }
        let Some(tn) = node.child_by_field_name("type") else {
            return Shape::Unknown;
        };
        let args = match node.child_by_field_name("arguments") {
            Some(a) => self.arguments(a, depth),
            None => Vec::new(),
        };
        let Some(ty) = self.type_ref(tn, 0) else {
            return Shape::Unknown;
        };
        // `new T[n]` and `new int` construct no class the tree can name.
        let is_array = node
            .child_by_field_name("declarator")
            .is_some_and(|d| d.kind() == "new_declarator");
        if self.constructs(&ty) && !is_array {
            let anchor = type_name_node(tn).unwrap_or(tn);
            self.construction_site(&ty, anchor, args);
        }
        Shape::Lang(CShape::Pointer(ty))
    }

    /// `T{…}` (C++) is a construction; C's `(T){…}` is not a call.
    fn compound_literal(&mut self, node: Node, depth: u32) -> Shape {
        let args = match node.child_by_field_name("value") {
            Some(v) => self.arguments(v, depth),
            None => Vec::new(),
        };
        let Some(tn) = node.child_by_field_name("type") else {
            return Shape::Unknown;
        };
        let Some(ty) = self.type_ref(tn, 0) else {
            return Shape::Unknown;
        };
        if self.cpp
            && self.constructs(&ty)
            && self
                .tree_wide
                .c_macros
                .is_class_name(ty.last().unwrap_or(""))
        {
            let anchor = type_name_node(tn).unwrap_or(tn);
            self.construction_site(&ty, anchor, args);
        }
        Shape::New(ty)
    }

    fn field_expression(&mut self, node: Node, depth: u32) -> Shape {
        let operand = node
            .child_by_field_name("argument")
            .map(|o| self.walk(o, depth));
        let Some(field) = node.child_by_field_name("field") else {
            return Shape::Unknown;
        };
        let field = self.text(field);
        operand.map_or(Shape::Unknown, |o| o.then(field))
    }

    /// `a == b`, `a + b`: a site only where the tree overloads the operator.
    fn binary(&mut self, node: Node, depth: u32) -> Shape {
        let left = node
            .child_by_field_name("left")
            .map(|l| self.walk(l, depth))
            .unwrap_or(Shape::Unknown);
        if let Some(r) = node.child_by_field_name("right") {
            self.walk(r, depth);
        }
        if let Some(op) = node.child_by_field_name("operator") {
            let spelling = format!("operator{}", self.text(op));
            self.operator_site(op, &spelling, left, 1);
        }
        Shape::Unknown
    }

    fn unary(&mut self, node: Node, depth: u32) -> Shape {
        let operand = node
            .child_by_field_name("argument")
            .map(|l| self.walk(l, depth))
            .unwrap_or(Shape::Unknown);
        if let Some(op) = node.child_by_field_name("operator") {
            let spelling = format!("operator{}", self.text(op));
            self.operator_site(op, &spelling, operand, 0);
        }
        Shape::Unknown
    }

    /// An operator used as syntax is a call of `operator<op>` on its left operand,
    /// recorded only where some class of the tree overloads that operator and the
    /// operand is a name, a path or a call (a literal never has a class type).
    fn operator_site(&mut self, anchor: Node, spelling: &str, operand: Shape, args: u32) {
        if !self.tree_wide.c_macros.overloads_operator(spelling) || self.is_plain_local(&operand) {
            return;
        }
        let receiver = match operand {
            s @ (Shape::Name(_) | Shape::Path(_) | Shape::Call(_) | Shape::CallThen(..)) => {
                s.receiver()
            }
            _ => return,
        };
        if matches!(&receiver, Receiver::Path(p) if p.len() == 1 && p[0] == "this") {
            return;
        }
        let args = (0..args).map(|_| ArgShape::Unknown).collect();
        self.push_call(
            anchor,
            Callee::Member {
                receiver,
                name: spelling.to_string(),
            },
            CallKind::Call,
            args,
            0,
            spelling.to_string(),
        );
    }

    /// A scoped name's segments: `a::b::C` → `["a", "b", "C"]`.
    fn scoped_path(&self, node: Node) -> Vec<String> {
        match self.declarator_path(node) {
            Some((mut q, n, _)) => {
                q.push(n);
                q
            }
            None => vec![self.text(node).to_string()],
        }
    }

    /// A type as written: `T`, `ns::T` (path), `T<A, B>` (arguments), pointers and
    /// references dropped (members are reached through either), `const` ignored.
    fn type_ref(&self, node: Node, depth: u32) -> Option<TypeRef> {
        if depth > MAX_TYPE_DEPTH {
            return None;
        }
        let d = depth + 1;
        match node.kind() {
            "type_identifier"
            | "primitive_type"
            | "sized_type_specifier"
            | "identifier"
            | "namespace_identifier"
            | "auto" => Some(TypeRef::simple(&compact(self.text(node)))),
            "placeholder_type_specifier" => Some(TypeRef::simple("auto")),
            "struct_specifier" | "class_specifier" | "union_specifier" | "enum_specifier" => {
                let n = node.child_by_field_name("name")?;
                self.type_ref(n, d)
            }
            "template_type" => {
                let name = node.child_by_field_name("name")?;
                let mut t = self.type_ref(name, d)?;
                if let Some(args) = node.child_by_field_name("arguments") {
                    for a in named_children(args) {
                        let inner = match a.kind() {
                            "type_descriptor" => a.child_by_field_name("type"),
                            _ => Some(a),
                        };
                        if let Some(at) = inner.and_then(|i| self.type_ref(i, d)) {
                            t.args.push(at);
                        }
                    }
                }
                Some(t)
            }
            "qualified_identifier" => {
                let scope = node.child_by_field_name("scope");
                let name = node.child_by_field_name("name")?;
                let mut inner = self.type_ref(name, d)?;
                let mut path = match scope {
                    Some(s) => self.type_ref(s, d)?.path,
                    None => Vec::new(),
                };
                path.extend(inner.path);
                inner.path = path;
                Some(inner)
            }
            "type_descriptor" => node
                .child_by_field_name("type")
                .and_then(|t| self.type_ref(t, d)),
            "dependent_type" => named_children(node)
                .next()
                .and_then(|t| self.type_ref(t, d)),
            _ => None,
        }
    }

    fn wrote(&self, node: Node) -> String {
        let text = self.text(node);
        let text = text.trim();
        tail_of(text, MAX_WROTE).to_string()
    }
}

/// `operator ==` → `operator==`, `~ T` → `~T`.
fn compact(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut last_alnum = false;
    let mut pending_space = false;
    for c in s.chars() {
        if c.is_whitespace() {
            pending_space = true;
            continue;
        }
        let alnum = c.is_alphanumeric() || c == '_';
        if pending_space && alnum && last_alnum {
            out.push(' ');
        }
        pending_space = false;
        out.push(c);
        last_alnum = alnum;
    }
    out
}

fn is_auto(t: &TypeRef) -> bool {
    t.path.len() == 1 && matches!(t.path[0].as_str(), "auto" | "decltype(auto)")
}

/// The type's own name token (`T` of `ns::T<int>`), for a construction's column.
fn type_name_node(node: Node) -> Option<Node> {
    match node.kind() {
        "type_identifier" => Some(node),
        "template_type" => node.child_by_field_name("name").and_then(type_name_node),
        "qualified_identifier" => node.child_by_field_name("name").and_then(type_name_node),
        _ => None,
    }
}

/// The identifier a declarator or expression names (for a position).
fn find_identifier(node: Node) -> Option<Node> {
    let mut cur = node;
    for _ in 0..16 {
        match cur.kind() {
            "identifier" | "field_identifier" => return Some(cur),
            _ => {
                cur = cur
                    .child_by_field_name("declarator")
                    .or_else(|| cur.child_by_field_name("argument"))
                    .or_else(|| named_children(cur).next())?;
            }
        }
    }
    None
}

/// A pointer, reference or array declarator: no construction, no class value.
fn is_indirect(node: Node) -> bool {
    let mut cur = node;
    for _ in 0..16 {
        match cur.kind() {
            "pointer_declarator" | "reference_declarator" | "array_declarator" => return true,
            "init_declarator" => match cur.child_by_field_name("declarator") {
                Some(d) => cur = d,
                None => return false,
            },
            _ => return false,
        }
    }
    false
}

/// `(*fp)(int)`: a pointer to a function.
fn contains_function_pointer(node: Node) -> bool {
    let mut cur = node;
    for _ in 0..16 {
        match cur.kind() {
            "function_declarator" => {
                return cur
                    .child_by_field_name("declarator")
                    .is_some_and(|d| d.kind() == "parenthesized_declarator");
            }
            "init_declarator"
            | "pointer_declarator"
            | "array_declarator"
            | "parenthesized_declarator"
            | "reference_declarator" => {
                match cur
                    .child_by_field_name("declarator")
                    .or_else(|| named_children(cur).next())
                {
                    Some(d) => cur = d,
                    None => return false,
                }
            }
            _ => return false,
        }
    }
    false
}

fn contains_function_declarator(node: Node) -> bool {
    contains_function_pointer(node)
}
