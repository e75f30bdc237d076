//! Ada facts (tree-sitter-ada 0.9.2): library units, packages, subprograms,
//! renamings, instances, objects, with/use clauses and call sites, written on the
//! shared core (`lang/core.rs`).
//!
//! Every name is lower-cased where it is read: Ada names compare without case, and
//! no later stage re-reads text. A file's `module` is `[unit, role]`: the library
//! unit's full name and `spec`, `body` or `subunit` (a subunit names its parent
//! unit, whose body it continues).
//!
//! Declarations carry what the resolver needs in `decorators` (one segment each):
//! `generic`, `body` (a package body or a subprogram body), `stub` (`is
//! separate`), `renames` and `instance` (the renamed or instantiated name is
//! `bases[0]`), `subunit` (the proper body of a stub, in its own file).

use tree_sitter::Node;

use super::names::SubprogramNames;
use crate::facts::{
    ArgShape, BindingValue, CallContext, CallIdx, Callee, Decl, DeclIdx, DeclKind, Decorator,
    FileFacts, Import, ImportKind, LiteralType, Param, Scope, ScopeIdx, ScopeKind, TypeRef,
};
use crate::lang::core::{push_call, CallSite, NoExtension, Shape};
use crate::lang::syntax::{children, line_of, named_children, ErrorCount};
use crate::lang::{Language, TreeWide};

/// Deeper than this the walk stops (counted as one parse error).
pub const MAX_DEPTH: u32 = 2_000;

/// The longest dotted name read (`a.b.c…`): a longer one is nothing to follow.
const MAX_SEGMENTS: usize = 64;

pub fn extract(
    path: &str,
    source: &[u8],
    tree: &tree_sitter::Tree,
    tree_wide: &TreeWide,
) -> FileFacts {
    let mut w = Walker {
        src: source,
        facts: FileFacts::new(path, Language::Ada),
        errors: ErrorCount::default(),
        names: &tree_wide.ada_subprograms,
        composite_types: Default::default(),
        call_at: Default::default(),
        private_part: false,
    };
    let root = tree.root_node();
    let at = Ctx {
        scope: 0,
        caller: None,
        parent: None,
    };
    w.walk(root, at, 0);
    if w.facts.module.is_empty() {
        w.facts.module = vec![String::new(), role(path, false).into()];
    }
    w.facts.parse_errors = w.errors.total(tree);
    w.facts.finish();
    w.facts
}

fn role(path: &str, subunit: bool) -> &'static str {
    match (subunit, path.ends_with(".ads")) {
        (true, _) => "subunit",
        (false, true) => "spec",
        (false, false) => "body",
    }
}

/// How deep a record definition is searched for its components (variant
/// parts nest component lists).
const MAX_COMPONENT_DEPTH: u32 = 8;

#[derive(Clone, Copy)]
struct Ctx {
    scope: ScopeIdx,
    /// The body the calls written here run in.
    caller: Option<DeclIdx>,
    /// The declaration new declarations belong to.
    parent: Option<DeclIdx>,
}

struct Walker<'s> {
    src: &'s [u8],
    facts: FileFacts,
    errors: ErrorCount,
    names: &'s SubprogramNames,
    /// Record and access types declared so far, by their region (the enclosing
    /// declaration) and name: what an array's component type is looked up in.
    composite_types: crate::fasthash::FastSet<(Option<DeclIdx>, String)>,
    /// The call each `function_call` node became, by node id: an argument that
    /// is a call is named by its index once the arguments have been walked.
    call_at: crate::fasthash::FastMap<usize, CallIdx>,
    /// Whether the walk is inside the private part of a package specification
    /// (after its `private`), where what is declared is invisible to clients.
    private_part: bool,
}

/// Where an argument sits in a call: the n-th positional one or the n-th named one.
#[derive(Clone, Copy)]
enum Slot {
    Positional(usize),
    Named(usize),
}

/// A name as the source writes it, lower-cased by segment.
fn lower(src: &[u8], node: Node) -> String {
    crate::lang::node_text(src, node).to_ascii_lowercase()
}

/// `a.b.c` as segments, when the node is an identifier or a selected component of
/// identifiers; `None` for anything else (a call, an attribute, `.all`).
pub(crate) fn dotted(src: &[u8], node: Node) -> Option<Vec<String>> {
    let mut out = Vec::new();
    let mut cur = node;
    loop {
        if out.len() >= MAX_SEGMENTS {
            return None;
        }
        match cur.kind() {
            "identifier" => {
                out.push(lower(src, cur));
                break;
            }
            "selected_component" => {
                let selector = cur.child_by_field_name("selector_name")?;
                if selector.kind() != "identifier" {
                    return None;
                }
                out.push(lower(src, selector));
                cur = cur.child_by_field_name("prefix")?;
            }
            _ => return None,
        }
    }
    out.reverse();
    Some(out)
}

/// The type a subtype indication names, its constraint set aside: `String (1
/// .. 4)` (parsed as a slice) and `Buffer (Size => 8)` (parsed as a call) are
/// objects of `String` and `Buffer`.
fn constrained_mark(src: &[u8], mark: Node) -> Option<Vec<String>> {
    match mark.kind() {
        "slice" => dotted(src, mark.child_by_field_name("prefix")?),
        "function_call" => dotted(src, mark.child_by_field_name("name")?),
        _ => dotted(src, mark),
    }
}

/// The node that names the declared entity: the selector of a dotted name.
fn name_token(node: Node) -> Node {
    match node.kind() {
        "selected_component" => node.child_by_field_name("selector_name").unwrap_or(node),
        _ => node,
    }
}

/// Pragmas whose arguments name entities (or are identifiers and literals the
/// pragma defines), never expressions to evaluate: `pragma Inline (F)` and
/// `pragma Import (C, F, "f")` call nothing. The pragmas not listed (`Assert`,
/// `Debug`, `Precondition`, `Priority`, …) take expressions, whose calls are calls.
const ENTITY_PRAGMAS: &[&str] = &[
    "ada_83",
    "ada_95",
    "ada_05",
    "ada_2005",
    "ada_12",
    "ada_2012",
    "ada_2022",
    "annotate",
    "asynchronous",
    "atomic",
    "atomic_components",
    "convention",
    "convention_identifier",
    "discard_names",
    "elaborate",
    "elaborate_all",
    "elaborate_body",
    "export",
    "import",
    "inline",
    "inline_always",
    "interface",
    "interrupt_handler",
    "linker_section",
    "no_elaboration_code_all",
    "no_inline",
    "no_return",
    "obsolescent",
    "optimize",
    "pack",
    "preelaborable_initialization",
    "preelaborate",
    "pure",
    "pure_function",
    "remote_call_interface",
    "remote_types",
    "restrictions",
    "shared_passive",
    "style_checks",
    "suppress",
    "unchecked_union",
    "unmodified",
    "unreferenced",
    "unsuppress",
    "unused",
    "volatile",
    "volatile_components",
    "warnings",
    "weak_external",
];

/// Whether a pragma is one of [`ENTITY_PRAGMAS`].
fn names_entities(src: &[u8], pragma: Node) -> bool {
    named_children(pragma)
        .find(|c| c.kind() == "identifier")
        .is_some_and(|name| ENTITY_PRAGMAS.contains(&lower(src, name).as_str()))
}

/// The class of a full type declaration's definition, by the definition's node
/// kind, as the declaration tag the resolver reads to know which literals a value
/// of the type can never be (`type_class:record` takes none,
/// `type_class:enumeration` no string or numeric literal). Derived types,
/// subtypes and private types get none: their class is another declaration's.
const TYPE_CLASSES: &[(&str, &[&str])] = &[
    ("record_type_definition", &["type_class:record"]),
    ("interface_type_definition", &["type_class:record"]),
    ("access_to_object_definition", &["type_class:access"]),
    // Its profile is the declaration's `params` and `returns` (an `X'Access`
    // of a subprogram of another profile is never its value, RM 3.10.2).
    (
        "access_to_subprogram_definition",
        &["type_class:access_subprogram"],
    ),
    ("signed_integer_type_definition", &["type_class:integer"]),
    ("modular_type_definition", &["type_class:integer"]),
    ("floating_point_definition", &["type_class:real"]),
    ("ordinary_fixed_point_definition", &["type_class:real"]),
    ("decimal_fixed_point_definition", &["type_class:real"]),
    ("enumeration_type_definition", &["type_class:enumeration"]),
    ("array_type_definition", &["type_class:array"]),
];

/// The [`TYPE_CLASSES`] tag of a type declaration (none but for full ones).
fn type_class(node: Node) -> &'static [&'static str] {
    if node.kind() != "full_type_declaration" {
        return &[];
    }
    named_children(node)
        .find_map(|c| TYPE_CLASSES.iter().find(|(k, _)| *k == c.kind()))
        .map_or(&[], |(_, tag)| *tag)
}

/// Whether a derived type or private extension names interfaces beside its
/// parent (`new P and I with …`): more than one `subtype_mark`.
fn progenitors(node: Node) -> bool {
    let definition = named_children(node)
        .find(|c| c.kind() == "derived_type_definition")
        .unwrap_or(node);
    let mut cursor = definition.walk();
    let marks = definition
        .children_by_field_name("subtype_mark", &mut cursor)
        .count();
    marks > 1
}

/// Whether a `name` node holds a tick (`Float'Image`, `X'Access`): an attribute.
/// What [`Walker::arguments`] reads: the positional arguments, the named ones,
/// and the slots of those that are exactly a call with the call's node id.
type ArgumentsRead = (Vec<ArgShape>, Vec<(String, ArgShape)>, Vec<(Slot, usize)>);

/// The one primary an argument expression is (expression → term → primary),
/// when it is nothing more.
fn only_primary(expression: Node) -> Option<Node> {
    let mut cur = expression;
    for _ in 0..2 {
        let mut kids = named_children(cur);
        cur = match (kids.next(), kids.next()) {
            (Some(only), None) => only,
            _ => return None,
        };
    }
    Some(cur)
}

fn has_tick(node: Node) -> bool {
    children(node).any(|c| c.kind() == "tick")
}

impl<'s> Walker<'s> {
    fn walk(&mut self, node: Node, cx: Ctx, depth: u32) {
        if self.errors.too_deep(depth, MAX_DEPTH) {
            return;
        }
        self.errors.note(node);
        match node.kind() {
            "comment" => {}
            "pragma_g" if names_entities(self.src, node) => {}
            "with_clause" => self.with_clause(node),
            "use_clause" => self.use_clause(node, cx),
            "subunit" => self.subunit(node, cx, depth),
            "package_declaration" => self.package(node, cx, depth, &[]),
            "generic_package_declaration" => self.generic_package(node, cx, depth),
            "package_body" => self.package(node, cx, depth, &["body"]),
            "subprogram_declaration"
            | "null_procedure_declaration"
            | "formal_concrete_subprogram_declaration"
            | "formal_abstract_subprogram_declaration"
            | "entry_declaration" => self.subprogram(node, cx, depth, &[]),
            "generic_subprogram_declaration" => self.subprogram(node, cx, depth, &["generic"]),
            "subprogram_body" => self.subprogram(node, cx, depth, &["body"]),
            "subprogram_body_stub" => self.subprogram(node, cx, depth, &["stub"]),
            "expression_function_declaration" => self.subprogram(node, cx, depth, &[]),
            "subprogram_renaming_declaration" => self.subprogram(node, cx, depth, &["renames"]),
            "generic_instantiation" => self.instance(node, cx),
            "package_renaming_declaration" => self.package_renaming(node, cx),
            "object_declaration" | "number_declaration" => self.object(node, cx, depth),
            "loop_parameter_specification"
            | "iterator_specification"
            | "choice_parameter_specification"
            | "extended_return_object_declaration" => self.opaque_names(node, cx, depth),
            "full_type_declaration"
            | "private_type_declaration"
            | "private_extension_declaration"
            | "subtype_declaration"
            | "incomplete_type_declaration"
            | "task_type_declaration"
            | "protected_type_declaration"
            | "single_task_declaration"
            | "single_protected_declaration"
            | "protected_body"
            | "task_body" => self.type_declaration(node, cx, depth),
            "block_statement" => {
                let scope = self.facts.scopes.len() as ScopeIdx;
                self.facts
                    .scopes
                    .push(Scope::new(ScopeKind::Block, Some(cx.scope), None));
                self.walk_children(node, Ctx { scope, ..cx }, depth);
            }
            "procedure_call_statement" | "function_call" => self.call(node, cx, depth),
            "term" | "factor_not" | "factor_abs" | "factor_power" => self.term(node, cx, depth),
            _ => self.walk_children(node, cx, depth),
        }
    }

    fn walk_children(&mut self, node: Node, cx: Ctx, depth: u32) {
        for child in named_children(node) {
            self.walk(child, cx, depth + 1);
        }
    }

    fn with_clause(&mut self, node: Node) {
        for child in named_children(node) {
            if let Some(path) = dotted(self.src, child) {
                self.facts.imports.push(Import {
                    line: line_of(child),
                    kind: ImportKind::AdaWith { path },
                });
            }
        }
    }

    fn use_clause(&mut self, node: Node, cx: Ctx) {
        let words: Vec<&str> = children(node)
            .filter(|c| !c.is_named())
            .map(|c| c.kind())
            .collect();
        let has = |w: &str| words.iter().any(|k| k.eq_ignore_ascii_case(w));
        // `use type T` makes T's operators visible, and operators are no sites.
        if has("type") && !has("all") {
            return;
        }
        for child in named_children(node) {
            if let Some(path) = dotted(self.src, child) {
                self.facts.imports.push(Import {
                    line: line_of(child),
                    kind: ImportKind::AdaUse {
                        path,
                        scope: cx.scope,
                        all_type: has("type"),
                    },
                });
            }
        }
    }

    /// `separate (Parent) <body>`: the body continues Parent's.
    fn subunit(&mut self, node: Node, cx: Ctx, depth: u32) {
        if let Some(parent) = node
            .child_by_field_name("parent_unit_name")
            .and_then(|p| dotted(self.src, p))
        {
            self.facts.module = vec![parent.join("."), "subunit".into()];
        }
        for child in named_children(node) {
            if child.kind() == "subprogram_body" {
                self.subprogram(child, cx, depth + 1, &["body", "subunit"]);
            } else if child.kind() == "package_body" {
                self.package(child, cx, depth + 1, &["body", "subunit"]);
            }
        }
    }

    /// The library unit's name, once: the first unit a file declares.
    fn set_unit(&mut self, path: &[String]) {
        if self.facts.module.is_empty() {
            let r = role(&self.facts.path, false);
            self.facts.module = vec![path.join("."), r.into()];
        }
    }

    fn declare(
        &mut self,
        name_node: Node,
        kind: DeclKind,
        cx: Ctx,
        end: Node,
        tags: &[&str],
    ) -> DeclIdx {
        let token = name_token(name_node);
        let name = match token.kind() {
            // An operator designator keeps its quotes: `"+"`.
            "string_literal" => crate::lang::node_text(self.src, token).to_string(),
            _ => lower(self.src, token),
        };
        let mut decl = Decl::new(
            name.clone(),
            kind,
            cx.parent,
            cx.scope,
            (line_of(token), crate::lang::syntax::column_of(token)),
            end.end_position().row as u32 + 1,
        );
        if kind == DeclKind::Class {
            decl.is_module = true;
        }
        decl.decorators = tags
            .iter()
            .map(|t| Decorator {
                path: vec![(*t).to_string()],
                called: false,
            })
            .collect();
        let idx = self.facts.decls.len() as DeclIdx;
        self.facts.decls.push(decl);
        self.bind(cx.scope, name, line_of(token), BindingValue::Decl(idx));
        idx
    }

    fn bind(&mut self, scope: ScopeIdx, name: String, line: u32, value: BindingValue) {
        self.facts.scopes[scope as usize]
            .bindings
            .push(crate::facts::Binding { name, line, value });
    }

    fn open_scope(&mut self, kind: ScopeKind, parent: ScopeIdx, owner: DeclIdx) -> ScopeIdx {
        let idx = self.facts.scopes.len() as ScopeIdx;
        self.facts
            .scopes
            .push(Scope::new(kind, Some(parent), Some(owner)));
        self.facts.decls[owner as usize].body = Some(idx);
        idx
    }

    fn generic_package(&mut self, node: Node, cx: Ctx, depth: u32) {
        let Some(package) = named_children(node).find(|c| c.kind() == "package_declaration") else {
            return self.walk_children(node, cx, depth);
        };
        // The formals are declared inside the generic: its formal subprograms are
        // what calls in the generic's body name.
        let formals: Vec<Node> = named_children(node)
            .filter(|c| c.kind() == "generic_formal_part")
            .collect();
        self.package_with_formals(package, cx, depth + 1, &["generic"], &formals);
    }

    fn package(&mut self, node: Node, cx: Ctx, depth: u32, tags: &[&str]) {
        self.package_with_formals(node, cx, depth, tags, &[]);
    }

    fn package_with_formals(
        &mut self,
        node: Node,
        cx: Ctx,
        depth: u32,
        tags: &[&str],
        formals: &[Node],
    ) {
        let Some(name) = node.child_by_field_name("name") else {
            return self.walk_children(node, cx, depth);
        };
        if cx.parent.is_none() && !tags.contains(&"subunit") {
            if let Some(path) = dotted(self.src, name) {
                self.set_unit(&path);
            }
        }
        let decl = self.declare(name, DeclKind::Class, cx, node, tags);
        let scope = self.open_scope(ScopeKind::Class, cx.scope, decl);
        let body = tags.contains(&"body");
        let inner = Ctx {
            scope,
            // Calls in a package body's declarations and statements run in its
            // elaboration (GNAT's `b`…`t` span); a spec's have no caller.
            caller: if body { Some(decl) } else { cx.caller },
            parent: Some(decl),
        };
        for f in formals {
            self.walk(*f, inner, depth + 1);
        }
        let outer_private = self.private_part;
        for child in children(node) {
            if !child.is_named() {
                // A specification's `private` starts its private part (a body
                // has none; the keyword of `private package` precedes the node).
                self.private_part |= !body && child.kind().eq_ignore_ascii_case("private");
                continue;
            }
            if child.id() == name.id()
                || child.kind() == "identifier"
                || child.kind() == "selected_component"
            {
                continue;
            }
            self.walk(child, inner, depth + 1);
        }
        self.private_part = outer_private;
    }

    fn tag(&mut self, decl: DeclIdx, tag: &str) {
        self.facts.decls[decl as usize].decorators.push(Decorator {
            path: vec![tag.to_string()],
            called: false,
        });
    }

    fn spec_of<'t>(&self, node: Node<'t>) -> Option<Node<'t>> {
        if matches!(
            node.kind(),
            "procedure_specification" | "function_specification"
        ) {
            return Some(node);
        }
        named_children(node).find(|c| {
            matches!(
                c.kind(),
                "procedure_specification" | "function_specification"
            )
        })
    }

    fn subprogram(&mut self, node: Node, cx: Ctx, depth: u32, tags: &[&str]) {
        // An entry declares its name directly (`entry E (…)`).
        let spec = self.spec_of(node);
        let name = match spec {
            Some(s) => s.child_by_field_name("name"),
            None => named_children(node).find(|c| c.kind() == "identifier"),
        };
        let Some(name) = name else {
            return self.walk_children(node, cx, depth);
        };
        if cx.parent.is_none() && !tags.contains(&"subunit") {
            if let Some(path) = dotted(self.src, name) {
                self.set_unit(&path);
            }
        }
        let decl = self.declare(name, DeclKind::Function, cx, node, tags);
        // Which of the two a call's place may name (an entry is called as a
        // procedure is).
        let callable = match spec.map(|s| s.kind()) {
            Some("function_specification") => Some("function"),
            Some("procedure_specification") | None => Some("procedure"),
            _ => None,
        };
        if let Some(callable) = callable {
            self.tag(decl, callable);
        }
        if tags.contains(&"renames") {
            if let Some(path) = node
                .child_by_field_name("callable_entity_name")
                .and_then(|n| dotted(self.src, n))
            {
                self.facts.decls[decl as usize].bases.push(TypeRef {
                    path,
                    args: Vec::new(),
                    is_self: false,
                    array: false,
                });
            }
        }
        let scope = self.open_scope(ScopeKind::Function, cx.scope, decl);
        let body = tags.contains(&"body");
        let expression_function = node.kind() == "expression_function_declaration";
        let inner = Ctx {
            scope,
            // An expression function has no `t` in GNAT's spans: no caller.
            caller: if body {
                Some(decl)
            } else if expression_function {
                None
            } else {
                cx.caller
            },
            parent: Some(decl),
        };
        if let Some(spec) = spec {
            self.profile(spec, decl, scope);
            self.default_expressions(spec, cx, depth + 1);
        }
        if node.kind() == "generic_subprogram_declaration" {
            for formals in named_children(node).filter(|c| c.kind() == "generic_formal_part") {
                self.walk(formals, inner, depth + 1);
            }
        }
        if body || expression_function {
            for child in named_children(node) {
                if Some(child.id()) == spec.map(|s| s.id()) || child.kind() == "identifier" {
                    continue;
                }
                self.walk(child, inner, depth + 1);
            }
        }
    }

    /// The calls in the parameters' default expressions (`Win : Window :=
    /// Standard_Window`): they run where the subprogram is declared, so they are
    /// read in the declaration's region with its caller.
    fn default_expressions(&mut self, spec: Node, cx: Ctx, depth: u32) {
        for part in named_children(spec).filter(|c| c.kind() == "formal_part") {
            for p in named_children(part).filter(|c| c.kind() == "parameter_specification") {
                for e in named_children(p).filter(|c| c.kind() == "expression") {
                    self.walk(e, cx, depth + 1);
                }
            }
        }
    }

    /// Parameters (one per name, with the written type and whether a default is
    /// given) and the result type; parameters are bound in the body's scope.
    fn profile(&mut self, spec: Node, decl: DeclIdx, scope: ScopeIdx) {
        let mut params = Vec::new();
        for part in named_children(spec).filter(|c| c.kind() == "formal_part") {
            for p in named_children(part).filter(|c| c.kind() == "parameter_specification") {
                let ty = p
                    .child_by_field_name("subtype_mark")
                    .and_then(|t| dotted(self.src, t))
                    .map(type_ref);
                let has_default = named_children(p).any(|c| c.kind() == "expression");
                for id in defining_names(p) {
                    let name = lower(self.src, id);
                    self.bind(
                        scope,
                        name.clone(),
                        line_of(id),
                        BindingValue::Param {
                            index: params.len() as u32,
                            ty: ty.clone(),
                        },
                    );
                    params.push(Param {
                        name,
                        ty: ty.clone(),
                        variadic: false,
                        keyword_variadic: false,
                        has_default,
                        default: None,
                    });
                }
            }
        }
        let returns = named_children(spec)
            .find(|c| c.kind() == "result_profile")
            .and_then(|r| r.child_by_field_name("subtype_mark"))
            .and_then(|t| dotted(self.src, t))
            .map(type_ref);
        let d = &mut self.facts.decls[decl as usize];
        d.params = params;
        d.returns = returns;
    }

    /// `package P is new G (…)` / `procedure P is new G (…)`: the instance is a
    /// declaration naming its generic; the actuals are types, objects and
    /// subprograms given to the generic, not calls, and are not read.
    fn instance(&mut self, node: Node, cx: Ctx) {
        let Some(name) = node.child_by_field_name("name") else {
            return;
        };
        let package =
            children(node).any(|c| !c.is_named() && c.kind().eq_ignore_ascii_case("package"));
        let generic = node
            .child_by_field_name("generic_name")
            .and_then(|g| match g.kind() {
                "function_call" => g
                    .child_by_field_name("name")
                    .and_then(|n| dotted(self.src, n)),
                _ => dotted(self.src, g),
            });
        if cx.parent.is_none() {
            if let Some(path) = dotted(self.src, name) {
                self.set_unit(&path);
            }
        }
        let kind = if package {
            DeclKind::Class
        } else {
            DeclKind::Function
        };
        let decl = self.declare(name, kind, cx, node, &["instance"]);
        for callable in ["function", "procedure"] {
            if children(node).any(|c| !c.is_named() && c.kind().eq_ignore_ascii_case(callable)) {
                self.tag(decl, callable);
            }
        }
        if let Some(path) = generic {
            self.facts.decls[decl as usize].bases.push(type_ref(path));
        }
    }

    fn package_renaming(&mut self, node: Node, cx: Ctx) {
        let Some(name) = node.child_by_field_name("name") else {
            return;
        };
        let renamed = node
            .child_by_field_name("package_name")
            .and_then(|n| dotted(self.src, n));
        let decl = self.declare(name, DeclKind::Class, cx, node, &["renames"]);
        if let Some(path) = renamed {
            self.facts.decls[decl as usize].bases.push(type_ref(path));
        }
    }

    /// A type (or a task or protected unit): a declaration that is no call's
    /// target, so a conversion `T (X)` written like a call names no subprogram.
    /// A derived type declared in a package is noted on the package (`fields`: the
    /// type and its parent as written): it inherits its parent's primitive
    /// subprograms, declared there implicitly. A task's or protected unit's
    /// operations are its own members, not the package's.
    fn type_declaration(&mut self, node: Node, cx: Ctx, depth: u32) {
        let inner = named_children(node).find(|c| {
            matches!(
                c.kind(),
                "protected_type_declaration" | "task_type_declaration"
            )
        });
        if let Some(inner) = inner {
            return self.type_declaration(inner, cx, depth + 1);
        }
        let Some(name) = defining_names(node).into_iter().next() else {
            return self.walk_children(node, cx, depth);
        };
        let parent = named_children(node)
            .find(|c| c.kind() == "derived_type_definition")
            .or_else(|| (node.kind() == "private_extension_declaration").then_some(node))
            .and_then(|d| d.child_by_field_name("subtype_mark"))
            .and_then(|t| dotted(self.src, t));
        let body = matches!(node.kind(), "protected_body" | "task_body");
        let mut tags: Vec<&str> = if body {
            vec!["body"]
        } else if self.is_array_of_composites(node, cx) {
            vec!["type_class:composite_array"]
        } else if node.kind() == "subtype_declaration" {
            // Not a type of its own: its values are its base type's.
            vec!["subtype"]
        } else {
            type_class(node).to_vec()
        };
        if parent.is_some() {
            tags.push("derived");
            if progenitors(node) {
                // `new P and I with …`: it inherits the interfaces' operations too.
                tags.push("progenitors");
            }
        }
        let decl = self.declare(name, DeclKind::Record, cx, node, &tags);
        if self.private_part && parent.is_some() {
            // A full view derived in the private part: what it inherits is
            // visible only where the private part is (RM 7.3.1(3)).
            self.tag(decl, "private_view");
        }
        if matches!(
            tags.as_slice(),
            ["type_class:record"] | ["type_class:access"] | ["type_class:access_subprogram"]
        ) {
            let type_name = self.facts.decls[decl as usize].name.clone();
            self.composite_types.insert((cx.parent, type_name));
        }
        if let (Some(parent), Some(package)) = (parent, cx.parent) {
            if self.facts.decls[package as usize].kind == DeclKind::Class {
                let field = crate::facts::Field {
                    name: lower(self.src, name),
                    ty: Some(type_ref(parent)),
                    value: None,
                    line: line_of(name),
                    is_static: false,
                    scope: cx.scope,
                };
                self.facts.decls[package as usize].fields.push(field);
            }
        }
        self.record_components(node, decl, cx.scope);
        let scope = self.open_scope(ScopeKind::Class, cx.scope, decl);
        if let Some(definition) =
            named_children(node).find(|c| c.kind() == "access_to_subprogram_definition")
        {
            // The profile's parameter names are bound in the type's own scope.
            self.profile(definition, decl, scope);
        }
        let inner = Ctx {
            scope,
            caller: cx.caller,
            parent: Some(decl),
        };
        for child in named_children(node) {
            if child.id() != name.id() {
                self.walk(child, inner, depth + 1);
            }
        }
    }

    /// A record type's (or record extension's) components with their written
    /// types, noted as the type's `fields` (`Name : AStrings.Bounded_String`):
    /// what `X.Name` is when `X`'s type is this one. Type names are read in the
    /// region the type is declared in (`scope`). Anonymous access components
    /// name no type and are left out.
    fn record_components(&mut self, node: Node, decl: DeclIdx, scope: ScopeIdx) {
        let Some(definition) = named_children(node).find(|c| {
            matches!(
                c.kind(),
                "record_type_definition" | "derived_type_definition"
            )
        }) else {
            return;
        };
        let mut stack = vec![(definition, 0u32)];
        while let Some((n, depth)) = stack.pop() {
            if n.kind() == "component_declaration" {
                self.component(n, decl, scope);
                continue;
            }
            if depth < MAX_COMPONENT_DEPTH {
                stack.extend(named_children(n).map(|c| (c, depth + 1)));
            }
        }
        // The stack pops in reverse: keep the written order.
        self.facts.decls[decl as usize]
            .fields
            .sort_by_key(|f| f.line);
    }

    fn component(&mut self, node: Node, decl: DeclIdx, scope: ScopeIdx) {
        let Some(definition) = named_children(node).find(|c| c.kind() == "component_definition")
        else {
            return;
        };
        if named_children(definition).any(|c| c.kind() == "access_definition") {
            return;
        }
        let Some(ty) = definition
            .child_by_field_name("subtype_mark")
            .and_then(|t| dotted(self.src, t))
        else {
            return;
        };
        for name in named_children(node).filter(|c| c.kind() == "identifier") {
            let field = crate::facts::Field {
                name: lower(self.src, name),
                ty: Some(type_ref(ty.clone())),
                value: None,
                line: line_of(name),
                is_static: false,
                scope,
            };
            self.facts.decls[decl as usize].fields.push(field);
        }
    }

    /// Whether a full type declaration is an array whose component type is a
    /// record or access type declared before it in the same region (`type
    /// Attributed_String is array (…) of Attributed_Character`): no string
    /// literal is its value, as its component is no character type.
    fn is_array_of_composites(&self, node: Node, cx: Ctx) -> bool {
        let Some(component) = named_children(node)
            .find(|c| c.kind() == "array_type_definition")
            .and_then(|a| named_children(a).find(|c| c.kind() == "component_definition"))
            .and_then(|c| named_children(c).find(|n| n.kind() == "identifier"))
        else {
            return false;
        };
        self.composite_types
            .contains(&(cx.parent, lower(self.src, component)))
    }

    /// `X, Y : T := E;`: each name is an object (never a call's target); the
    /// initializer's calls are sites.
    fn object(&mut self, node: Node, cx: Ctx, depth: u32) {
        let ty = node
            .child_by_field_name("subtype_mark")
            .and_then(|t| constrained_mark(self.src, t))
            .map(type_ref);
        let mut names = Vec::new();
        let mut cursor = node.walk();
        for (i, child) in node.children(&mut cursor).enumerate() {
            if node.field_name_for_child(i as u32) == Some("name") && child.kind() == "identifier" {
                names.push(child);
            }
        }
        for id in &names {
            let value = match &ty {
                Some(t) => BindingValue::Typed {
                    ty: t.clone(),
                    value: None,
                },
                None => BindingValue::Opaque,
            };
            let name = lower(self.src, *id);
            self.bind(cx.scope, name, line_of(*id), value);
        }
        for child in named_children(node) {
            if names.iter().any(|n| n.id() == child.id())
                || child.kind() == "identifier"
                    && node
                        .child_by_field_name("subtype_mark")
                        .is_some_and(|t| t.id() == child.id())
            {
                continue;
            }
            if child.kind() == "expression" || child.kind() == "function_call" {
                self.walk(child, cx, depth + 1);
            }
        }
    }

    /// Loop and iterator parameters, exception occurrences, extended-return
    /// objects: names whose values the engine does not follow.
    fn opaque_names(&mut self, node: Node, cx: Ctx, depth: u32) {
        for child in named_children(node) {
            if child.kind() == "identifier" && self.first_identifier(node) == Some(child.id()) {
                let name = lower(self.src, child);
                self.bind(cx.scope, name, line_of(child), BindingValue::Opaque);
            } else {
                self.walk(child, cx, depth + 1);
            }
        }
    }

    fn first_identifier(&self, node: Node) -> Option<usize> {
        named_children(node)
            .find(|c| c.kind() == "identifier")
            .map(|c| c.id())
    }

    /// `P (…)`, `A.B.P (…)`, `P;` and `F (…)`: a call site unless the name is an
    /// attribute (`Float'Image (…)`) or an operator written as a name.
    fn call(&mut self, node: Node, cx: Ctx, depth: u32) {
        let Some(name) = node.child_by_field_name("name") else {
            return self.walk_children(node, cx, depth);
        };
        let args_node = named_children(node).find(|c| c.kind() == "actual_parameter_part");
        let attribute = has_tick(node);
        let callee = (!attribute).then(|| self.callee(name)).flatten();
        match callee {
            Some((token, callee)) => {
                let (args, keywords, nested) = match args_node {
                    Some(a) => self.arguments(a),
                    None => (Vec::new(), Vec::new(), Vec::new()),
                };
                let mut site = CallSite::new(
                    token,
                    callee,
                    crate::lang::node_text(self.src, name).to_string(),
                );
                site.args = args;
                site.context = if node.kind() == "procedure_call_statement" {
                    CallContext::Statement
                } else {
                    self.value_context(node)
                };
                let idx = push_call(&mut self.facts, cx.caller, cx.scope, site);
                self.call_at.insert(node.id(), idx);
                let call = &mut self.facts.calls[idx as usize];
                call.keyword_args = keywords.len() as u32;
                call.keywords = keywords;
                if let Some(a) = args_node {
                    self.walk(a, cx, depth + 1);
                }
                self.name_nested_calls(idx, &nested);
                return;
            }
            None => {
                // The prefix of an attribute or of `.all` may hold calls.
                for child in named_children(node).filter(|c| c.kind() != "actual_parameter_part") {
                    if child.kind() == "selected_component" || child.kind() == "function_call" {
                        self.walk(child, cx, depth + 1);
                    }
                }
            }
        }
        if let Some(a) = args_node {
            self.walk(a, cx, depth + 1);
        }
    }

    /// The called name's token and the callee it makes.
    fn callee<'t>(&self, name: Node<'t>) -> Option<(Node<'t>, Callee)> {
        let path = dotted(self.src, name)?;
        let token = name_token(name);
        let mut path = path;
        let last = path.pop()?;
        let callee = if path.is_empty() {
            Callee::Name(last)
        } else {
            Callee::Member {
                receiver: Shape::<NoExtension>::Path(path).receiver(),
                name: last,
            }
        };
        Some((token, callee))
    }

    /// Positional arguments in order, named ones (`X => 1`) by parameter name,
    /// and the arguments that are exactly a call, by slot and node id (named by
    /// their call's index once walked, [`Self::name_nested_calls`]).
    fn arguments(&self, node: Node) -> ArgumentsRead {
        let mut args = Vec::new();
        let mut keywords = Vec::new();
        let mut nested = Vec::new();
        for assoc in named_children(node).filter(|c| c.kind() == "parameter_association") {
            let expression = named_children(assoc).find(|c| c.kind() == "expression");
            let value = expression
                .map(|e| self.arg_shape(e))
                .unwrap_or(ArgShape::Unknown);
            let call = expression.and_then(|e| self.only_call(e));
            let slot = match named_children(assoc).find(|c| c.kind() == "component_choice_list") {
                Some(choice) => {
                    let name = named_children(choice)
                        .find(|c| c.kind() == "identifier")
                        .map(|c| lower(self.src, c))
                        .unwrap_or_default();
                    keywords.push((name, value));
                    Slot::Named(keywords.len() - 1)
                }
                None => {
                    args.push(value);
                    Slot::Positional(args.len() - 1)
                }
            };
            if let Some(call) = call {
                nested.push((slot, call.id()));
            }
        }
        (args, keywords, nested)
    }

    /// The argument expression's one primary when it is a call written with a
    /// name and no attribute (`F (X)`, `P.F (X)`, also a conversion `T (X)`).
    fn only_call<'t>(&self, expression: Node<'t>) -> Option<Node<'t>> {
        let primary = only_primary(expression)?;
        (primary.kind() == "function_call" && !has_tick(primary)).then_some(primary)
    }

    /// Each argument that is a call becomes `ArgShape::Call` of the call its node
    /// made (an attribute's or operator's node made none: it stays as read).
    fn name_nested_calls(&mut self, outer: CallIdx, nested: &[(Slot, usize)]) {
        for &(slot, node) in nested {
            let Some(&inner) = self.call_at.get(&node) else {
                continue;
            };
            let call = &mut self.facts.calls[outer as usize];
            match slot {
                Slot::Positional(i) => call.args[i] = ArgShape::Call(inner),
                Slot::Named(i) => call.keywords[i].1 = ArgShape::Call(inner),
            }
        }
    }

    /// A literal, a bare name or `X'Access`; anything else is unknown.
    fn arg_shape(&self, expression: Node) -> ArgShape {
        if self.string_concatenation(expression) {
            return ArgShape::Literal(LiteralType::Str);
        }
        let mut cur = expression;
        // expression → term → the one primary.
        for _ in 0..2 {
            if cur.kind() == "term" {
                if let Some(access) = self.access_attribute(cur) {
                    return access;
                }
            }
            if named_children(cur).count() != 1 {
                return ArgShape::Unknown;
            }
            cur = match named_children(cur).next() {
                Some(c) => c,
                None => return ArgShape::Unknown,
            };
        }
        match cur.kind() {
            "numeric_literal" => ArgShape::Literal(LiteralType::Int),
            "string_literal" => ArgShape::Literal(LiteralType::Str),
            "character_literal" => ArgShape::Literal(LiteralType::Char),
            "identifier" => ArgShape::Name(lower(self.src, cur)),
            // `X.C`: an object's component, or an object or literal of a package.
            "selected_component" => dotted(self.src, cur)
                .filter(|path| path.len() == 2)
                .map_or(ArgShape::Unknown, ArgShape::Path),
            "function_call" => self.class_wide_conversion(cur).unwrap_or(ArgShape::Unknown),
            _ => ArgShape::Unknown,
        }
    }

    /// `T'Class (X)`: a value of the class-wide type of `T`, read as `T` (as a
    /// class-wide parameter is).
    fn class_wide_conversion(&self, call: Node) -> Option<ArgShape> {
        if !has_tick(call) || !named_children(call).any(|c| c.kind() == "actual_parameter_part") {
            return None;
        }
        let designator = named_children(call).find(|c| c.kind() == "attribute_designator")?;
        if !crate::lang::node_text(self.src, designator).eq_ignore_ascii_case("class") {
            return None;
        }
        let name = call.child_by_field_name("name")?;
        if !matches!(name.kind(), "identifier" | "selected_component") {
            return None;
        }
        dotted(self.src, name).map(|path| ArgShape::Cast(type_ref(path)))
    }

    /// Whether an expression is a concatenation (`"Y = " & S & …`) with a string
    /// literal among its operands while the tree declares no `"&"`: then it is a
    /// value of a one-dimensional array of a character type, as the literal is —
    /// the predefined `"&"` of a type whose component is a record takes no string
    /// literal, and an outside unit's `"&"` returns no type of the tree — so it
    /// refuses the parameter types a string literal refuses.
    fn string_concatenation(&self, expression: Node) -> bool {
        let kids: Vec<Node> = named_children(expression).collect();
        if kids.len() < 3 || self.names.contains("\"&\"") {
            return false;
        }
        let operators_are_concatenation = kids.iter().skip(1).step_by(2).all(|op| {
            op.kind() == "binary_adding_operator"
                && crate::lang::node_text(self.src, *op).trim() == "&"
        });
        let operands_are_terms = kids.iter().step_by(2).all(|t| t.kind() == "term");
        let a_literal = kids.iter().step_by(2).any(|t| {
            let mut inner = named_children(*t);
            matches!((inner.next(), inner.next()), (Some(l), None) if l.kind() == "string_literal")
        });
        kids.len() % 2 == 1 && operators_are_concatenation && operands_are_terms && a_literal
    }

    /// A term that is exactly `Name'Access` (or `'Unchecked_Access`,
    /// `'Unrestricted_Access`): the access value of what the name denotes.
    fn access_attribute(&self, term: Node) -> Option<ArgShape> {
        let kids: Vec<Node> = named_children(term).collect();
        let [prefix, tick, designator] = kids.as_slice() else {
            return None;
        };
        if tick.kind() != "tick" || designator.kind() != "attribute_designator" {
            return None;
        }
        let attribute = crate::lang::node_text(self.src, *designator).to_ascii_lowercase();
        if !matches!(
            attribute.as_str(),
            "access" | "unchecked_access" | "unrestricted_access"
        ) || !matches!(prefix.kind(), "identifier" | "selected_component")
        {
            return None;
        }
        dotted(self.src, *prefix).map(ArgShape::Access)
    }

    /// A name read as a value: a call when it names a subprogram some file of the
    /// tree declares (a parameterless function, `C : Circle := Unit;`); the
    /// resolver refuses the ones a local object or parameter holds.
    fn term(&mut self, node: Node, cx: Ctx, depth: u32) {
        let mut cursor = node.walk();
        let kids: Vec<(Node, bool)> = node
            .children(&mut cursor)
            .enumerate()
            .map(|(i, c)| (c, node.field_name_for_child(i as u32) == Some("name")))
            .collect();
        for (i, &(child, is_name)) in kids.iter().enumerate() {
            // `X'Length`: the prefix of an attribute is no call.
            let attribute_prefix = kids.get(i + 1).is_some_and(|(n, _)| n.kind() == "tick");
            let plain = matches!(child.kind(), "identifier" | "selected_component");
            if is_name && plain && !attribute_prefix {
                self.bare_name(child, cx, depth + 1);
            } else if child.is_named() && !(plain && is_name) {
                self.walk(child, cx, depth + 1);
            }
        }
    }

    /// One name of a term: a parameterless call when it names a subprogram of the
    /// tree. A selected component whose prefix is no name (`Data (P).Ptr`,
    /// `F (X).all`) is a component of a value: its prefix holds the calls.
    fn bare_name(&mut self, name: Node, cx: Ctx, depth: u32) {
        if name.kind() == "selected_component" && dotted(self.src, name).is_none() {
            if let Some(prefix) = name.child_by_field_name("prefix") {
                self.walk(prefix, cx, depth);
            }
            return;
        }
        let last = name_token(name);
        if last.kind() != "identifier" || !self.names.contains(&lower(self.src, last)) {
            return;
        }
        if let Some((token, callee)) = self.callee(name) {
            let mut site = CallSite::new(
                token,
                callee,
                crate::lang::node_text(self.src, name).to_string(),
            );
            site.context = self.value_context(name);
            push_call(&mut self.facts, cx.caller, cx.scope, site);
        }
    }

    /// Where a call written in an expression stands: the whole initial value of
    /// an object declared with a type (`S : Test_Suite := Create_Suite (…)`), the
    /// whole right side of an assignment to a name (`C := Getchar;`), or some
    /// other value.
    fn value_context(&self, value: Node) -> CallContext {
        let whole =
            |node: Node, kind: &str| node.kind() == kind && named_children(node).count() == 1;
        let Some(term) = value.parent().filter(|t| whole(*t, "term")) else {
            return CallContext::Value;
        };
        let Some(expression) = term.parent().filter(|e| whole(*e, "expression")) else {
            return CallContext::Value;
        };
        let Some(holder) = expression.parent() else {
            return CallContext::Value;
        };
        match holder.kind() {
            "object_declaration" => holder
                .child_by_field_name("subtype_mark")
                .and_then(|t| constrained_mark(self.src, t))
                .map_or(CallContext::Value, |t| {
                    CallContext::Initializes(type_ref(t))
                }),
            "assignment_statement" => holder
                .child_by_field_name("variable_name")
                .filter(|v| v.kind() == "identifier")
                .map_or(CallContext::Value, |v| {
                    CallContext::AssignedTo(lower(self.src, v))
                }),
            _ => CallContext::Value,
        }
    }
}

/// The identifiers a specification declares: its children that fill no field (the
/// written type is `subtype_mark`, a default is an `expression`).
fn defining_names(node: Node) -> Vec<Node> {
    let mut out = Vec::new();
    let mut cursor = node.walk();
    for (i, child) in node.children(&mut cursor).enumerate() {
        if child.kind() == "identifier" && node.field_name_for_child(i as u32).is_none() {
            out.push(child);
        }
    }
    out
}

fn type_ref(path: Vec<String>) -> TypeRef {
    TypeRef {
        path,
        args: Vec::new(),
        is_self: false,
        array: false,
    }
}

/// Whether a declaration carries one of the frontend's tags.
pub fn tagged(decl: &Decl, tag: &str) -> bool {
    decl.decorators
        .iter()
        .any(|d| d.path.len() == 1 && d.path[0] == tag)
}
