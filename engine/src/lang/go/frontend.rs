//! Go frontend: one syntax tree → FileFacts, in one bounded walk while the tree is
//! alive.
//!
//! A method is a top-level declaration whose `bases` hold its receiver's type (the
//! index makes it a member of that type); struct fields are `fields`, embedded
//! fields are also `bases`; an interface's method specs are its member
//! declarations. `T{}`, `&T{}` and `new(T)` are values of type T; `x := f()` holds
//! the call's (first) result; range variables over a typed slice or map hold its
//! element type. Blocks open scopes so an inner `x :=` never leaks out.

use crate::lang::syntax::{column_of, line_of, named_children, tail_of, ErrorCount};
use tree_sitter::Node;

use crate::facts::{
    ArgShape, Binding, BindingValue, Callee, Decl, DeclIdx, DeclKind, Field, FileFacts, Import,
    ImportKind, Key, LiteralType, Param, Scope, ScopeIdx, ScopeKind, TypeRef, ValueExpr,
};
use crate::lang::core::{self, push_call, CallSite, LangShape, MAX_DEPTH};
use crate::lang::go::{build, policy};
use crate::lang::Language;

/// Type syntax nests far less than expressions.
const MAX_TYPE_DEPTH: u32 = 64;
const MAX_WROTE: usize = 120;

/// A file the build configuration leaves out (build.rs) is only marked so: it
/// declares, binds and calls nothing, and lib.rs drops it before packages are
/// formed, so its package clause makes no package exist.
pub fn extract(
    path: &str,
    source: &[u8],
    tree: &tree_sitter::Tree,
    tree_wide: &crate::lang::TreeWide,
) -> FileFacts {
    if build::exclusion(path, source, tree, &tree_wide.config).is_some() {
        let mut facts = FileFacts::new(path, Language::Go);
        facts.build_excluded = true;
        return facts;
    }
    let mut x = Extractor::new(path, source);
    x.walk(tree.root_node(), 0);
    let mut facts = x.facts;
    let dir = path.rsplit_once('/').map(|(d, _)| d).unwrap_or("");
    facts.module = vec![dir.to_string(), x.package];
    facts.parse_errors = x.errors.total(tree);
    facts
}

/// Give every Go file its package key: the import path of its directory (the
/// `module` line of the nearest `go.mod` at or above it, inside the root, plus the
/// directory below it; the directory itself where no go.mod is found), `_test`
/// appended for an external test package. `module` becomes `[key, dir]`.
pub fn assign_package_paths(facts: &mut [FileFacts], tree_wide: &crate::lang::TreeWide) {
    let mut module_of_dir: std::collections::HashMap<String, Option<(String, String)>> =
        Default::default();
    for f in facts.iter_mut().filter(|f| f.language == Language::Go) {
        let dir = f.module.first().cloned().unwrap_or_default();
        let package = f.module.get(1).cloned().unwrap_or_default();
        let import_path = match go_mod_above(tree_wide, &dir, &mut module_of_dir) {
            Some((mod_dir, module)) => {
                let below = dir
                    .strip_prefix(mod_dir.as_str())
                    .unwrap_or("")
                    .trim_start_matches('/');
                if below.is_empty() {
                    module
                } else {
                    format!("{module}/{below}")
                }
            }
            None => dir.clone(),
        };
        let key = if package.ends_with("_test") {
            format!("{import_path}_test")
        } else {
            import_path
        };
        f.module = vec![key, dir];
    }
}

/// The nearest go.mod at or above `dir` (root-relative): its directory and module path.
fn go_mod_above(
    tree_wide: &crate::lang::TreeWide,
    dir: &str,
    cache: &mut std::collections::HashMap<String, Option<(String, String)>>,
) -> Option<(String, String)> {
    if let Some(hit) = cache.get(dir) {
        return hit.clone();
    }
    let here = tree_wide
        .build_file(&join_dir(dir, "go.mod"))
        .and_then(module_line)
        .map(|m| (dir.to_string(), m));
    let found = match here {
        Some(h) => Some(h),
        None if dir.is_empty() => None,
        None => {
            let parent = dir.rsplit_once('/').map(|(p, _)| p).unwrap_or("");
            go_mod_above(tree_wide, parent, cache)
        }
    };
    cache.insert(dir.to_string(), found.clone());
    found
}

/// A root-relative path below `dir` (`""` is the root).
fn join_dir(dir: &str, name: &str) -> String {
    if dir.is_empty() {
        name.to_string()
    } else {
        format!("{dir}/{name}")
    }
}

fn module_line(go_mod: &str) -> Option<String> {
    go_mod.lines().find_map(|l| {
        let rest = l.trim().strip_prefix("module")?;
        let m = rest.trim().trim_matches('"');
        (!m.is_empty() && rest.starts_with(char::is_whitespace)).then(|| m.to_string())
    })
}

/// The name an import binds when it writes no alias: the last path element, a
/// major-version element (`/v2`) skipped, a `.vN` suffix and `go-` prefix dropped
/// (`gopkg.in/yaml.v3` → `yaml`). An in-tree package's clause may differ; the
/// resolver checks the package it reaches.
pub fn default_import_name(path: &str) -> String {
    let mut parts = path.rsplit('/');
    let mut last = parts.next().unwrap_or(path);
    if is_major_version(last) {
        last = parts.next().unwrap_or(last);
    }
    let last = match last.rsplit_once(".v") {
        Some((head, v)) if v.chars().all(|c| c.is_ascii_digit()) && !v.is_empty() => head,
        _ => last,
    };
    let last = last.strip_prefix("go-").unwrap_or(last);
    let last = last.strip_suffix("-go").unwrap_or(last);
    last.replace(['-', '.'], "_")
}

fn is_major_version(s: &str) -> bool {
    s.len() > 1 && s.starts_with('v') && s[1..].chars().all(|c| c.is_ascii_digit())
}

/// What only Go adds to the shared expression core: a function literal, which as
/// an argument is a lambda and as a receiver or value nothing to follow.
#[derive(Debug, Clone)]
enum GoShape {
    Func,
}

impl LangShape for GoShape {
    fn arg(self) -> ArgShape {
        match self {
            GoShape::Func => ArgShape::Lambda,
        }
    }
}

type Shape = core::Shape<GoShape>;

struct Extractor<'s> {
    src: &'s [u8],
    facts: FileFacts,
    package: String,
    scope: ScopeIdx,
    owner: Option<DeclIdx>,
    errors: ErrorCount,
    /// The latest binding of each name in each scope (scope, name) → index in its
    /// bindings, so reads while walking are hash hits, not scans of a scope.
    latest: std::collections::HashMap<(ScopeIdx, String), usize>,
}

impl<'s> Extractor<'s> {
    fn new(path: &str, src: &'s [u8]) -> Extractor<'s> {
        Extractor {
            src,
            facts: FileFacts::new(path, Language::Go),
            package: String::new(),
            scope: 0,
            owner: None,
            errors: ErrorCount::default(),
            latest: Default::default(),
        }
    }

    /// The latest binding of `name` in the scope chain of the current function
    /// (up to the file scope when `to_file`).
    fn binding_in_chain(&self, name: &str, to_file: bool) -> Option<&Binding> {
        let mut scope = Some(self.scope);
        while let Some(s) = scope {
            let sc = &self.facts.scopes[s as usize];
            if let Some(&i) = self.latest.get(&(s, name.to_string())) {
                return Some(&sc.bindings[i]);
            }
            if !to_file && sc.kind == ScopeKind::Function {
                return None;
            }
            scope = sc.parent;
        }
        None
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
            "package_clause" => {
                if let Some(n) = named_children(node).next() {
                    self.package = self.text(n).to_string();
                }
                Shape::Unknown
            }
            "import_spec" => {
                self.import(node);
                Shape::Unknown
            }
            "function_declaration" | "method_declaration" => {
                self.function(node, d);
                Shape::Unknown
            }
            "type_spec" => {
                self.type_spec(node, d);
                Shape::Unknown
            }
            "func_literal" => {
                self.func_literal(node, d);
                Shape::Lang(GoShape::Func)
            }
            "block"
            | "if_statement"
            | "for_statement"
            | "expression_switch_statement"
            | "type_switch_statement"
            | "select_statement"
            | "communication_case"
            | "expression_case"
            | "type_case"
            | "default_case" => {
                self.in_block(|x| x.block_like(node, d));
                Shape::Unknown
            }
            "short_var_declaration" => {
                self.short_var(node, d);
                Shape::Unknown
            }
            "var_spec" => {
                self.var_spec(node, d);
                Shape::Unknown
            }
            "assignment_statement" => {
                self.assignment(node, d);
                Shape::Unknown
            }
            "call_expression" => self.call(node, d),
            "selector_expression" => self.selector(node, d),
            "composite_literal" => {
                if let Some(body) = node.child_by_field_name("body") {
                    self.walk(body, d);
                }
                match node
                    .child_by_field_name("type")
                    .and_then(|t| self.type_ref(t, 0))
                {
                    Some(t) => Shape::New(t),
                    None => Shape::Unknown,
                }
            }
            "unary_expression" => {
                let op = node.child_by_field_name("operator").map(|o| self.text(o));
                let shape = match node.child_by_field_name("operand") {
                    Some(o) => self.walk(o, d),
                    None => Shape::Unknown,
                };
                match (op, shape) {
                    (Some("&"), s @ Shape::New(_)) => s,
                    _ => Shape::Unknown,
                }
            }
            "parenthesized_expression" => match named_children(node).next() {
                Some(inner) => self.walk(inner, d),
                None => Shape::Unknown,
            },
            "identifier" => Shape::Name(self.text(node).to_string()),
            "interpreted_string_literal" | "raw_string_literal" => Shape::Literal(LiteralType::Str),
            "int_literal" => Shape::Literal(LiteralType::Int),
            "float_literal" => Shape::Literal(LiteralType::Float),
            "true" | "false" => Shape::Literal(LiteralType::Bool),
            _ => {
                self.children(node, d);
                Shape::Unknown
            }
        }
    }

    fn children(&mut self, node: Node, depth: u32) {
        let mut cursor = node.walk();
        let kids: Vec<Node> = node.named_children(&mut cursor).collect();
        for child in kids {
            self.walk(child, depth);
        }
    }

    /// A statement that opens a scope: its header's bindings (`if x := f(); …`)
    /// and a range clause's variables live inside it.
    fn block_like(&mut self, node: Node, depth: u32) {
        let mut cursor = node.walk();
        let kids: Vec<Node> = node.named_children(&mut cursor).collect();
        for child in kids {
            if child.kind() == "range_clause" {
                self.range_clause(child, depth);
            } else if child.kind() == "type_switch_header"
                || node.kind() == "type_switch_statement" && child.kind() == "identifier"
            {
                // `switch v := x.(type)`: v's type changes per case; nothing is known.
                self.bind_opaque_names(child);
                self.children(child, depth);
            } else {
                self.walk(child, depth);
            }
        }
    }

    fn bind_opaque_names(&mut self, node: Node) {
        if node.kind() == "identifier" {
            let name = self.text(node).to_string();
            self.bind(&name, line_of(node), BindingValue::Opaque);
            return;
        }
        if let Some(alias) = node.child_by_field_name("alias") {
            let mut cursor = alias.walk();
            let names: Vec<Node> = alias.named_children(&mut cursor).collect();
            for n in names.into_iter().chain(std::iter::once(alias)) {
                if n.kind() == "identifier" {
                    let name = self.text(n).to_string();
                    self.bind(&name, line_of(n), BindingValue::Opaque);
                }
            }
        }
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
        if name == "_" || name.is_empty() {
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

    fn import(&mut self, node: Node) {
        let Some(path_node) = node.child_by_field_name("path") else {
            return;
        };
        let path = self.text(path_node).trim_matches(['"', '`']).to_string();
        let name = match node.child_by_field_name("name") {
            Some(n) if n.kind() == "package_identifier" => Some(self.text(n).to_string()),
            Some(_) => None,
            None => Some(default_import_name(&path)),
        };
        let index = self.facts.imports.len() as u32;
        self.facts.imports.push(Import {
            line: line_of(node),
            kind: ImportKind::GoPackage {
                path,
                name: name.clone(),
            },
        });
        if let Some(name) = name {
            self.bind(&name, line_of(node), BindingValue::Import(index));
        }
    }

    fn push_decl(&mut self, decl: Decl) -> DeclIdx {
        self.facts.decls.push(decl);
        (self.facts.decls.len() - 1) as DeclIdx
    }

    fn new_decl(&self, name: &str, kind: DeclKind, node: Node, name_node: Node) -> Decl {
        let at = (line_of(name_node), column_of(name_node));
        Decl::new(
            name.to_string(),
            kind,
            None,
            self.scope,
            at,
            node.end_position().row as u32 + 1,
        )
    }

    /// `func f(…)` and `func (r *T) m(…)`: the declaration, its parameters bound in
    /// its body, the receiver bound as the method's own-type receiver.
    fn function(&mut self, node: Node, depth: u32) {
        let Some(name_node) = node.child_by_field_name("name") else {
            return self.children(node, depth);
        };
        let name = self.text(name_node).to_string();
        let receiver = node
            .child_by_field_name("receiver")
            .map(|r| self.parameters(r))
            .and_then(|mut ps| (!ps.is_empty()).then(|| ps.remove(0)));
        let kind = if receiver.is_some() {
            DeclKind::Method
        } else {
            DeclKind::Function
        };
        let mut decl = self.new_decl(&name, kind, node, name_node);
        decl.params = node
            .child_by_field_name("parameters")
            .map(|p| self.parameters(p))
            .unwrap_or_default();
        decl.returns = node
            .child_by_field_name("result")
            .and_then(|r| self.result_type(r));
        decl.type_params = node
            .child_by_field_name("type_parameters")
            .map(|t| self.type_param_names(t))
            .unwrap_or_default();
        if let Some(r) = &receiver {
            decl.bases = r.ty.iter().cloned().collect();
        }
        let params = decl.params.clone();
        let idx = self.push_decl(decl);
        if receiver.is_none() {
            self.bind(&name, line_of(name_node), BindingValue::Decl(idx));
        }
        let Some(body) = node.child_by_field_name("body") else {
            return;
        };
        let saved = (self.scope, self.owner);
        let scope = self.push_scope(ScopeKind::Function, Some(idx));
        self.facts.decls[idx as usize].body = Some(scope);
        self.scope = scope;
        self.owner = Some(idx);
        if let Some(r) = receiver {
            self.bind(
                &r.name,
                line_of(node),
                BindingValue::Param {
                    index: policy::RECEIVER_INDEX,
                    ty: r.ty,
                },
            );
        }
        self.bind_params(&params, line_of(node));
        self.walk(body, depth);
        (self.scope, self.owner) = saved;
    }

    fn bind_params(&mut self, params: &[Param], line: u32) {
        for (i, p) in params.iter().enumerate() {
            self.bind(
                &p.name,
                line,
                BindingValue::Param {
                    index: i as u32,
                    ty: p.ty.clone(),
                },
            );
        }
    }

    /// A function literal: its parameters shadow outer names; its calls belong to
    /// the enclosing declaration.
    fn func_literal(&mut self, node: Node, depth: u32) {
        let params = node
            .child_by_field_name("parameters")
            .map(|p| self.parameters(p))
            .unwrap_or_default();
        let saved = self.scope;
        self.scope = self.push_scope(ScopeKind::Lambda, None);
        self.bind_params(&params, line_of(node));
        if let Some(body) = node.child_by_field_name("body") {
            self.walk(body, depth);
        }
        self.scope = saved;
    }

    /// `(a, b string, c ...int)` → one Param per name; an unnamed parameter is `_`.
    fn parameters(&self, list: Node) -> Vec<Param> {
        let mut out = Vec::new();
        let mut cursor = list.walk();
        for p in list.named_children(&mut cursor) {
            let variadic = p.kind() == "variadic_parameter_declaration";
            if !variadic && p.kind() != "parameter_declaration" {
                continue;
            }
            let mut ty = p
                .child_by_field_name("type")
                .and_then(|t| self.type_ref(t, 0));
            if variadic {
                if let Some(t) = ty.as_mut() {
                    t.array = true;
                }
            }
            let mut c2 = p.walk();
            let names: Vec<String> = p
                .children_by_field_name("name", &mut c2)
                .map(|n| self.text(n).to_string())
                .collect();
            let names = if names.is_empty() {
                vec!["_".to_string()]
            } else {
                names
            };
            for name in names {
                out.push(Param {
                    name,
                    ty: ty.clone(),
                    variadic,
                    keyword_variadic: false,
                    has_default: false,
                    default: None,
                });
            }
        }
        out
    }

    /// The first result's type (what `x := f()` holds).
    fn result_type(&self, result: Node) -> Option<TypeRef> {
        if result.kind() != "parameter_list" {
            return self.type_ref(result, 0);
        }
        let mut cursor = result.walk();
        let first = result
            .named_children(&mut cursor)
            .find(|c| c.kind() == "parameter_declaration")?;
        first
            .child_by_field_name("type")
            .and_then(|t| self.type_ref(t, 0))
    }

    fn type_param_names(&self, list: Node) -> Vec<String> {
        let mut out = Vec::new();
        let mut cursor = list.walk();
        for decl in list.named_children(&mut cursor) {
            let mut c2 = decl.walk();
            for n in decl.children_by_field_name("name", &mut c2) {
                out.push(self.text(n).to_string());
            }
        }
        out
    }

    /// A type as written: `T`, `pkg.T`, `*T` (as T), `G[A]`, `[]T` (array flag),
    /// `map[K]V` (path `map`, arguments K and V). Other type syntax is `None`.
    fn type_ref(&self, node: Node, depth: u32) -> Option<TypeRef> {
        if depth > MAX_TYPE_DEPTH {
            return None;
        }
        let d = depth + 1;
        match node.kind() {
            "type_identifier" | "identifier" => Some(TypeRef::simple(self.text(node))),
            "qualified_type" => {
                let pkg = node.child_by_field_name("package")?;
                let name = node.child_by_field_name("name")?;
                Some(TypeRef {
                    path: vec![self.text(pkg).to_string(), self.text(name).to_string()],
                    args: Vec::new(),
                    is_self: false,
                    array: false,
                })
            }
            "pointer_type" | "parenthesized_type" | "type_elem" => {
                self.type_ref(named_children(node).next()?, d)
            }
            "generic_type" => {
                let mut t = self.type_ref(node.child_by_field_name("type")?, d)?;
                if let Some(args) = node.child_by_field_name("type_arguments") {
                    let mut cursor = args.walk();
                    t.args = args
                        .named_children(&mut cursor)
                        .filter_map(|a| self.type_ref(a, d))
                        .collect();
                }
                Some(t)
            }
            "slice_type" | "array_type" | "implicit_length_array_type" => {
                let mut t = self.type_ref(node.child_by_field_name("element")?, d)?;
                if t.array {
                    return None;
                }
                t.array = true;
                Some(t)
            }
            "map_type" => {
                let k = self.type_ref(node.child_by_field_name("key")?, d);
                let v = self.type_ref(node.child_by_field_name("value")?, d);
                Some(TypeRef {
                    path: vec!["map".to_string()],
                    args: match (k, v) {
                        (Some(k), Some(v)) => vec![k, v],
                        _ => Vec::new(),
                    },
                    is_self: false,
                    array: false,
                })
            }
            _ => None,
        }
    }

    /// `type T struct{…}` / `interface{…}` / any other defined type.
    fn type_spec(&mut self, node: Node, depth: u32) {
        let (Some(name_node), Some(ty)) = (
            node.child_by_field_name("name"),
            node.child_by_field_name("type"),
        ) else {
            return;
        };
        let name = self.text(name_node).to_string();
        let kind = if ty.kind() == "interface_type" {
            DeclKind::Interface
        } else {
            DeclKind::Class
        };
        let mut decl = self.new_decl(&name, kind, node, name_node);
        decl.type_params = node
            .child_by_field_name("type_parameters")
            .map(|t| self.type_param_names(t))
            .unwrap_or_default();
        let idx = self.push_decl(decl);
        self.bind(&name, line_of(name_node), BindingValue::Decl(idx));
        match ty.kind() {
            "struct_type" => self.struct_fields(idx, ty),
            "interface_type" => self.interface_elements(idx, ty),
            _ => self.walk_expressions_in_type(ty, depth),
        }
    }

    fn walk_expressions_in_type(&mut self, _ty: Node, _depth: u32) {}

    fn struct_fields(&mut self, idx: DeclIdx, ty: Node) {
        let Some(list) = named_children(ty).find(|c| c.kind() == "field_declaration_list") else {
            return;
        };
        let mut cursor = list.walk();
        for f in list.named_children(&mut cursor) {
            if f.kind() != "field_declaration" {
                continue;
            }
            let written = f
                .child_by_field_name("type")
                .and_then(|t| self.type_ref(t, 0));
            let mut c2 = f.walk();
            let names: Vec<Node> = f.children_by_field_name("name", &mut c2).collect();
            if names.is_empty() {
                // An embedded field: its methods and fields are promoted, and it is
                // also a field named by its type.
                if let Some(t) = written {
                    let decl = &mut self.facts.decls[idx as usize];
                    decl.fields.push(Field {
                        name: t.last().unwrap_or("").to_string(),
                        ty: Some(t.clone()),
                        value: None,
                        line: line_of(f),
                        is_static: false,
                        scope: 0,
                    });
                    decl.bases.push(t);
                }
                continue;
            }
            for n in names {
                let name = self.text(n).to_string();
                self.facts.decls[idx as usize].fields.push(Field {
                    name,
                    ty: written.clone(),
                    value: None,
                    line: line_of(n),
                    is_static: false,
                    scope: 0,
                });
            }
        }
    }

    /// Method specs are the interface's member declarations; embedded
    /// interfaces are its bases.
    fn interface_elements(&mut self, idx: DeclIdx, ty: Node) {
        let mut cursor = ty.walk();
        let kids: Vec<Node> = ty.named_children(&mut cursor).collect();
        for e in kids {
            match e.kind() {
                "method_elem" => {
                    let Some(name_node) = e.child_by_field_name("name") else {
                        continue;
                    };
                    let name = self.text(name_node).to_string();
                    let mut decl = self.new_decl(&name, DeclKind::Method, e, name_node);
                    decl.parent = Some(idx);
                    decl.params = e
                        .child_by_field_name("parameters")
                        .map(|p| self.parameters(p))
                        .unwrap_or_default();
                    decl.returns = e
                        .child_by_field_name("result")
                        .and_then(|r| self.result_type(r));
                    self.push_decl(decl);
                }
                "type_elem" => {
                    if let Some(t) = self.type_ref(e, 0) {
                        self.facts.decls[idx as usize].bases.push(t);
                    }
                }
                _ => {}
            }
        }
    }

    /// `a, b := x, f()`: each name holds its value; `a, err := f()` holds the
    /// call's first result in a, nothing known in the others.
    fn short_var(&mut self, node: Node, depth: u32) {
        let values = node
            .child_by_field_name("right")
            .map(|r| self.expression_list(r, depth))
            .unwrap_or_default();
        let names = node
            .child_by_field_name("left")
            .map(|l| self.identifiers(l))
            .unwrap_or_default();
        self.bind_values(&names, values, None);
    }

    fn var_spec(&mut self, node: Node, depth: u32) {
        let values = node
            .child_by_field_name("value")
            .map(|r| self.expression_list(r, depth))
            .unwrap_or_default();
        let ty = node
            .child_by_field_name("type")
            .and_then(|t| self.type_ref(t, 0));
        let mut cursor = node.walk();
        let names: Vec<(String, u32)> = node
            .children_by_field_name("name", &mut cursor)
            .map(|n| (self.text(n).to_string(), line_of(n)))
            .collect();
        self.bind_values(&names, values, ty);
    }

    fn assignment(&mut self, node: Node, depth: u32) {
        let values = node
            .child_by_field_name("right")
            .map(|r| self.expression_list(r, depth))
            .unwrap_or_default();
        let Some(left) = node.child_by_field_name("left") else {
            return;
        };
        let plain = node
            .child_by_field_name("operator")
            .is_some_and(|o| self.text(o) == "=");
        let mut cursor = left.walk();
        let targets: Vec<Node> = left.named_children(&mut cursor).collect();
        if !plain {
            for t in targets {
                self.walk(t, depth);
            }
            return;
        }
        let mut names = Vec::new();
        for t in targets {
            if t.kind() == "identifier" {
                names.push((self.text(t).to_string(), line_of(t)));
            } else {
                // `s.f = v`, `m[k] = v`: the write is not followed; its calls are.
                self.walk(t, depth);
                names.push(("_".to_string(), line_of(t)));
            }
        }
        // `x = v` changes x's value, never its type (Go is statically typed): the
        // write is recorded as an unknown value, so a call of x abstains while a
        // call on x still reads the type of x's declaration.
        drop(values);
        for (name, line) in names {
            self.bind(&name, line, BindingValue::Value(ValueExpr::Unknown));
        }
    }

    fn bind_values(&mut self, names: &[(String, u32)], values: Vec<Shape>, ty: Option<TypeRef>) {
        let single_call = names.len() > 1 && values.len() == 1;
        for (i, (name, line)) in names.iter().enumerate() {
            let value = if single_call {
                match (&values[0], i) {
                    (Shape::Call(c), 0) => Some(ValueExpr::CallResult(*c)),
                    _ => None,
                }
            } else {
                values.get(i).cloned().map(Shape::value)
            };
            let binding = match (&ty, value) {
                (Some(t), v) => BindingValue::Typed {
                    ty: t.clone(),
                    value: v,
                },
                (None, Some(ValueExpr::Unknown) | None) => BindingValue::Opaque,
                (None, Some(v)) => BindingValue::Value(v),
            };
            self.bind(name, *line, binding);
        }
    }

    fn expression_list(&mut self, list: Node, depth: u32) -> Vec<Shape> {
        let mut cursor = list.walk();
        let kids: Vec<Node> = list.named_children(&mut cursor).collect();
        kids.into_iter()
            .filter(|k| k.kind() != "comment")
            .map(|k| self.walk(k, depth))
            .collect()
    }

    fn identifiers(&self, list: Node) -> Vec<(String, u32)> {
        let mut cursor = list.walk();
        list.named_children(&mut cursor)
            .map(|n| {
                let name = if n.kind() == "identifier" {
                    self.text(n).to_string()
                } else {
                    "_".to_string()
                };
                (name, line_of(n))
            })
            .collect()
    }

    /// `for k, v := range xs`: over a typed slice v holds the element type, over a
    /// typed map k and v hold the key and value types; over a field or a call's
    /// result v holds an element of it (typed by the resolver); else opaque.
    fn range_clause(&mut self, node: Node, depth: u32) {
        let over = node
            .child_by_field_name("right")
            .map(|r| self.walk(r, depth));
        let Some(left) = node.child_by_field_name("left") else {
            return;
        };
        let names = self.identifiers(left);
        let written = match &over {
            Some(Shape::Name(n)) => self.written_type_of(n),
            _ => None,
        };
        let (first, second) = match written {
            Some(t) if t.array => (None, Some(TypeRef { array: false, ..t })),
            Some(t) if t.path == ["map"] && t.args.len() == 2 => {
                (Some(t.args[0].clone()), Some(t.args[1].clone()))
            }
            _ => (None, None),
        };
        // Over a field or a call's result the element type is read by the resolver:
        // the value variable holds "an element of" that value (`base[0]`).
        let base = match &over {
            Some(o @ (Shape::Path(_) | Shape::Call(_))) => Some(o.clone().value()),
            // `cs := c.Commands(); for _, x := range cs`: what the local holds.
            Some(Shape::Name(n)) => self.followable_value_of(n),
            _ => None,
        };
        let element_of = base
            .filter(|_| names.len() == 2)
            .map(|b| ValueExpr::Subscript {
                base: Box::new(b),
                key: Key::Int(0),
            });
        for (i, (name, line)) in names.iter().enumerate() {
            let ty = if i == 0 {
                first.clone()
            } else {
                second.clone()
            };
            let binding = match (ty, &element_of) {
                (Some(ty), _) => BindingValue::Typed { ty, value: None },
                (None, Some(e)) if i == 1 => BindingValue::Value(e.clone()),
                (None, _) => BindingValue::Opaque,
            };
            self.bind(name, *line, binding);
        }
    }

    /// The written type of a name bound in an enclosing scope of this function
    /// (a parameter, a `var x T`, a composite literal), read while walking.
    fn written_type_of(&self, name: &str) -> Option<TypeRef> {
        match &self.binding_in_chain(name, false)?.value {
            BindingValue::Param { ty, .. } => ty.clone(),
            BindingValue::Typed { ty, .. } => Some(ty.clone()),
            // A composite literal writes its type: `m := map[K]V{}`.
            BindingValue::Value(ValueExpr::New(ty)) => Some(ty.clone()),
            _ => None,
        }
    }

    fn selector(&mut self, node: Node, depth: u32) -> Shape {
        let operand = node
            .child_by_field_name("operand")
            .map(|o| self.walk(o, depth));
        let Some(field) = node.child_by_field_name("field") else {
            return Shape::Unknown;
        };
        let field = self.text(field).to_string();
        operand.map_or(Shape::Unknown, |o| o.then(&field))
    }

    /// A call site: its callee as structure, its name token's position, its
    /// arguments' shapes. `string(x)` and other conversions to predeclared types
    /// are not calls; `new(T)` is a call (of a builtin) whose value is a T.
    fn call(&mut self, node: Node, depth: u32) -> Shape {
        let Some(function) = node.child_by_field_name("function") else {
            self.children(node, depth);
            return Shape::Unknown;
        };
        let args_node = node.child_by_field_name("arguments");
        let (callee, anchor) = match function.kind() {
            "identifier" => {
                let name = self.text(function).to_string();
                if policy::is_builtin_type(&name) && !self.bound_here(&name) {
                    if let Some(a) = args_node {
                        self.walk(a, depth);
                    }
                    return Shape::Unknown;
                }
                (Callee::Name(name), function)
            }
            "selector_expression" => {
                let operand = function
                    .child_by_field_name("operand")
                    .map(|o| self.walk(o, depth))
                    .unwrap_or(Shape::Unknown);
                let Some(field) = function.child_by_field_name("field") else {
                    return Shape::Unknown;
                };
                (
                    Callee::Member {
                        receiver: operand.receiver(),
                        name: self.text(field).to_string(),
                    },
                    field,
                )
            }
            "parenthesized_expression"
            | "func_literal"
            | "call_expression"
            | "index_expression"
            | "generic_type"
            | "type_instantiation_expression" => {
                let inner = self.walk(function, depth);
                let callee = match inner {
                    Shape::Call(c) => Callee::Result(c),
                    _ => Callee::Dynamic,
                };
                (callee, function)
            }
            _ => {
                // Conversions to composite types (`[]byte(s)`, `(*T)(p)`) are not calls.
                if let Some(a) = args_node {
                    self.walk(a, depth);
                }
                return Shape::Unknown;
            }
        };
        let mut new_of: Option<TypeRef> = None;
        let mut args = Vec::new();
        let mut has_splat = false;
        if let Some(a) = args_node {
            let mut cursor = a.walk();
            let kids: Vec<Node> = a.named_children(&mut cursor).collect();
            for k in kids {
                if k.kind() == "comment" {
                    continue;
                }
                if k.kind() == "variadic_argument" {
                    has_splat = true;
                }
                if matches!(&callee, Callee::Name(n) if n == "new" || n == "make")
                    && args.is_empty()
                {
                    if let Some(t) = self.type_ref(k, 0) {
                        if matches!(&callee, Callee::Name(n) if n == "new") {
                            new_of = Some(t);
                        }
                        args.push(ArgShape::Unknown);
                        continue;
                    }
                }
                let shape = self.walk(k, depth);
                args.push(shape.arg());
            }
        }
        let type_args = node
            .child_by_field_name("type_arguments")
            .map(|t| t.named_child_count() as u32)
            .unwrap_or(0);
        let wrote = self.wrote(function);
        let site = CallSite {
            args,
            has_splat,
            type_args,
            ..CallSite::new(anchor, callee, wrote)
        };
        let idx = push_call(&mut self.facts, self.owner, self.scope, site);
        match new_of {
            Some(t) => Shape::New(t),
            None => Shape::Call(idx),
        }
    }

    /// Whether a name is bound in an enclosing scope of this file (a local or
    /// package-level declaration shadowing a predeclared name).
    /// A local holding a field or a call's result (whose element type the
    /// resolver can read).
    fn followable_value_of(&self, name: &str) -> Option<ValueExpr> {
        match &self.binding_in_chain(name, false)?.value {
            BindingValue::Value(v @ (ValueExpr::CallResult(_) | ValueExpr::Attribute { .. })) => {
                Some(v.clone())
            }
            _ => None,
        }
    }

    fn bound_here(&self, name: &str) -> bool {
        self.binding_in_chain(name, true).is_some()
    }

    fn wrote(&self, node: Node) -> String {
        let text = self.text(node);
        tail_of(text, MAX_WROTE).to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_import_names_follow_go_conventions() {
        assert_eq!(default_import_name("fmt"), "fmt");
        assert_eq!(default_import_name("net/http"), "http");
        assert_eq!(default_import_name("gopkg.in/yaml.v3"), "yaml");
        assert_eq!(
            default_import_name("github.com/cpuguy83/go-md2man/v2/md2man"),
            "md2man"
        );
        assert_eq!(default_import_name("github.com/a/go-b/v2"), "b");
    }

    #[test]
    fn module_line_reads_the_module_path() {
        assert_eq!(
            module_line("// x\nmodule github.com/spf13/cobra\n\ngo 1.15\n").as_deref(),
            Some("github.com/spf13/cobra")
        );
        assert_eq!(module_line("modules x\n"), None);
    }
}
