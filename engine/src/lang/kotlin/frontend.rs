//! Kotlin frontend: one syntax tree (tree-sitter-kotlin-ng 1.1.0, vendored) →
//! FileFacts, in one walk while the tree is alive, written on the shared core
//! (`lang::core`: `Shape` + [`KExt`], `CallSite` + `push_call`).
//!
//! What the facts hold, in the words the resolver reads them:
//! - `module` = `[package]`; imports are `ImportKind::Kotlin` (path, alias, star).
//! - Declarations: classes, interfaces, enum classes, objects and companion objects
//!   (`Class` with the modifier `object` / `companion` in `decorators`), functions
//!   (top-level `Function`, members `Method`; an extension's receiver in
//!   `impl_of` and, at top level, `<Receiver>` in `scope_path`), constructors
//!   (the primary one at the class's name token, a secondary one at its
//!   `constructor` keyword), lambdas and anonymous functions (`Lambda`, with
//!   `argument_of`), object literals and enum entries with bodies (`Class`).
//!   Modifiers are one-segment decorators (`private`, `data`, `operator`, …);
//!   annotations are `["@", name…]`; `@Deprecated(level = HIDDEN)` adds the
//!   one-segment [`HIDDEN`] beside its annotation.
//! - Properties are fields of their class (constructor `val`/`var` parameters
//!   included) or bindings of their scope (top-level and local), typed by their
//!   annotation or their initialiser; a property read is never a call.
//! - Calls: `f()` is `Name`, `a.f()` / `a?.f()` / `a!!.f()` are `Member`, an
//!   infix call `a f b` is `Member` on `a`; `this(…)` / `super(…)` of a secondary
//!   constructor are `ConstructorChain`; a supertype's `Base(…)` is `New`. Operator
//!   conventions written as syntax (`a + b`, `a[i]`, `in`, `for`, `==`, `!!`,
//!   destructuring) and string templates write no call: kotlinc sets them apart.
//!   Callable references (`::f`, `A::f`, `a::f`) are references.

use tree_sitter::Node;

use crate::facts::{
    ArgShape, BindingValue, CallIdx, CallKind, Callee, Decl, DeclIdx, DeclKind, Decorator, Field,
    FileFacts, Import, ImportKind, LiteralType, Param, Receiver, ReturnValue, ScopeIdx, ScopeKind,
    TypeRef, ValueExpr, ValueRef,
};
use crate::lang::classes::{self, FactsWalk};
use crate::lang::core::{push_call, wrote, CallSite, LangShape, Shape, MAX_DEPTH};
use crate::lang::kotlin::types::HIDDEN;
use crate::lang::syntax::{children, column_of, line_of, named_children, ErrorCount};
use crate::lang::Language;

/// Type syntax nests far less than expressions; a bound keeps `type_ref` safe too.
const MAX_TYPE_DEPTH: u32 = 64;

pub fn extract(path: &str, source: &[u8], tree: &tree_sitter::Tree) -> FileFacts {
    let mut x = Extractor::new(path, source);
    x.walk(tree.root_node(), 0);
    let mut facts = x.facts;
    facts.parse_errors = x.errors.total(tree);
    set_expect_aside(&mut facts);
    facts
}

/// An `expect` declaration, and everything declared inside an `expect` class, is
/// listed but never a target (D61): the build binds its `actual` — kotlinc
/// actualizes before it generates code, and the compiled program holds only the
/// `actual` — so a call written against the `expect` reaches the `actual`, and a
/// type named in common code is the `actual` class. Declarations come parents
/// first, so one pass carries a class's mark to its members.
fn set_expect_aside(facts: &mut FileFacts) {
    for i in 0..facts.decls.len() {
        let decl = &facts.decls[i];
        let own = decl.decorators.iter().any(|d| d.path == ["expect"]);
        let inherited = decl
            .parent
            .is_some_and(|p| facts.decls[p as usize].inactive);
        if own || inherited {
            facts.decls[i].inactive = true;
        }
    }
}

/// What only Kotlin writes, as the core's extension.
#[derive(Debug, Clone)]
pub enum KExt {
    /// A lambda or anonymous function declared at this index.
    Lambda(DeclIdx),
    /// `super`, `super<T>`.
    Super,
    /// `this@Label`.
    LabeledThis(String),
    /// `x as T`: a value of type T.
    Cast(TypeRef),
    /// `T::class`, `x::class`: a value of type `KClass`.
    ClassLiteral,
}

impl LangShape for KExt {
    fn receiver(self) -> Receiver {
        match self {
            KExt::Super => Receiver::Super,
            KExt::LabeledThis(l) => Receiver::QualifiedThis(l),
            // The static type of `(x as T)` is T: member lookup reads it like a
            // value constructed as T.
            KExt::Cast(t) => Receiver::New(t),
            KExt::Lambda(_) | KExt::ClassLiteral => Receiver::Unknown,
        }
    }

    fn arg(self) -> ArgShape {
        match self {
            KExt::Lambda(d) => ArgShape::Function(d),
            KExt::Cast(t) => ArgShape::Cast(t),
            KExt::ClassLiteral => ArgShape::ClassLiteral,
            _ => ArgShape::Unknown,
        }
    }

    fn value(self) -> ValueExpr {
        match self {
            KExt::Lambda(d) => ValueExpr::Lambda(d),
            KExt::Cast(t) => ValueExpr::New(t),
            _ => ValueExpr::Unknown,
        }
    }
}

type KShape = Shape<KExt>;

/// A function, constructor or lambda being walked: counts its `return`s to learn
/// whether every one hands back `this`.
struct Frame {
    returns: u32,
    returns_this: u32,
}

struct Extractor<'s> {
    src: &'s [u8],
    facts: FileFacts,
    scope: ScopeIdx,
    /// The innermost declaration: the caller of the calls met now.
    owner: Option<DeclIdx>,
    frames: Vec<Frame>,
    lambdas: u32,
    anonymous: u32,
    errors: ErrorCount,
}

/// One argument of a call as the frontend reads it.
struct Arg {
    shape: ArgShape,
    /// `name = value`.
    name: Option<String>,
    spread: bool,
}

classes::facts_walk!(Extractor<'_>);

impl<'s> Extractor<'s> {
    fn new(path: &str, src: &'s [u8]) -> Extractor<'s> {
        Extractor {
            src,
            facts: FileFacts::new(path, Language::Kotlin),
            scope: 0,
            owner: None,
            frames: Vec::new(),
            lambdas: 0,
            anonymous: 0,
            errors: ErrorCount::default(),
        }
    }

    fn text(&self, node: Node) -> &'s str {
        crate::lang::node_text(self.src, node)
    }

    /// The walk: visits every node once (up to the depth bound) and answers what
    /// an expression is.
    fn walk(&mut self, node: Node, depth: u32) -> KShape {
        if self.errors.too_deep(depth, MAX_DEPTH) {
            return Shape::Unknown;
        }
        self.errors.note(node);
        let d = depth + 1;
        match node.kind() {
            "line_comment" | "block_comment" | "shebang_line" | "file_annotation" => Shape::Unknown,
            "package_header" => {
                self.package(node);
                Shape::Unknown
            }
            "import" => {
                self.import(node);
                Shape::Unknown
            }
            "class_declaration" | "object_declaration" | "companion_object" => {
                self.type_declaration(node, d);
                Shape::Unknown
            }
            "function_declaration" => {
                self.function(node, d);
                Shape::Unknown
            }
            "secondary_constructor" => {
                self.secondary_constructor(node, d);
                Shape::Unknown
            }
            "property_declaration" => {
                self.property(node, d);
                Shape::Unknown
            }
            "type_alias" => Shape::Unknown,
            "block" | "control_structure_body" => {
                self.in_block_scope(|x| x.children(node, d));
                Shape::Unknown
            }
            "for_statement" => {
                self.for_statement(node, d);
                Shape::Unknown
            }
            "catch_block" => {
                self.catch_block(node, d);
                Shape::Unknown
            }
            "when_expression" => {
                self.when_expression(node, d);
                Shape::Unknown
            }
            "if_expression" => {
                self.if_expression(node, d);
                Shape::Unknown
            }
            "return_expression" => {
                self.return_expression(node, d);
                Shape::Unknown
            }
            "lambda_literal" | "anonymous_function" => self.lambda(node, d),
            "object_literal" => self.object_literal(node, d),
            "call_expression" => self.call(node, d),
            "navigation_expression" => self.navigation(node, d),
            "callable_reference" => self.callable_reference(node),
            "infix_expression" => self.infix(node, d),
            "parenthesized_expression" | "labeled_expression" | "annotated_expression" => {
                let mut shape = Shape::Unknown;
                for child in named_children(node) {
                    if !matches!(child.kind(), "label" | "annotation") {
                        shape = self.walk(child, d);
                    }
                }
                shape
            }
            "unary_expression" => self.unary(node, d),
            "as_expression" => self.cast(node, d),
            "binary_expression" => self.binary(node, d),
            "string_literal" | "multiline_string_literal" => {
                self.children(node, d);
                Shape::Literal(LiteralType::Str)
            }
            kind => match self.leaf(node, kind) {
                Some(shape) => shape,
                None => {
                    self.children(node, d);
                    Shape::Unknown
                }
            },
        }
    }

    /// Names, `this`, `super` and literals: what they are, without walking below.
    fn leaf(&self, node: Node, kind: &str) -> Option<KShape> {
        let shape = match kind {
            "identifier" => Shape::Name(self.text(node).to_string()),
            "this_expression" => match node.named_child(0) {
                Some(label) => Shape::Lang(KExt::LabeledThis(self.text(label).to_string())),
                None => Shape::Name("this".to_string()),
            },
            "super_expression" => Shape::Lang(KExt::Super),
            "number_literal" => Shape::Literal(integer_literal(self.text(node))),
            "float_literal" => Shape::Literal(float_literal(self.text(node))),
            "character_literal" => Shape::Literal(LiteralType::Char),
            "boolean_literal" => Shape::Literal(LiteralType::Bool),
            "null_literal" => Shape::Literal(LiteralType::None),
            _ => return None,
        };
        Some(shape)
    }

    fn children(&mut self, node: Node, depth: u32) {
        for child in named_children(node) {
            self.walk(child, depth);
        }
    }

    // ----- scopes, declarations, bindings -------------------------------------------------

    fn in_local_scope(&self) -> bool {
        matches!(
            self.facts.scopes[self.scope as usize].kind,
            ScopeKind::Function | ScopeKind::Lambda | ScopeKind::Block
        )
    }

    fn package(&mut self, node: Node) {
        if let Some(q) = named_children(node).find(|c| c.kind() == "qualified_identifier") {
            self.facts.module = vec![self.dotted(q).join(".")];
        }
    }

    fn import(&mut self, node: Node) {
        let mut path = Vec::new();
        let mut alias = None;
        let mut star = false;
        for child in children(node) {
            match child.kind() {
                "qualified_identifier" => path = self.dotted(child),
                "identifier" if !path.is_empty() => alias = Some(self.text(child).to_string()),
                "*" => star = true,
                _ => {}
            }
        }
        if path.is_empty() {
            return;
        }
        self.facts.imports.push(Import {
            line: line_of(node),
            kind: ImportKind::Kotlin { path, alias, star },
        });
    }

    /// `a.b.c` (a qualified_identifier) as its segments; backticks dropped.
    fn dotted(&self, node: Node) -> Vec<String> {
        named_children(node)
            .filter(|c| c.kind() == "identifier")
            .map(|c| unquote(self.text(c)).to_string())
            .collect()
    }

    /// Keyword modifiers as one-segment decorators, annotations as `["@", …]`.
    fn modifiers(&self, node: Node) -> Vec<Decorator> {
        let Some(mods) = named_children(node).find(|c| c.kind() == "modifiers") else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for m in named_children(mods) {
            if m.kind() == "annotation" {
                let mut path = vec!["@".to_string()];
                if let Some(name) = annotation_name(m) {
                    path.extend(
                        named_children(name)
                            .filter(|c| c.kind() == "identifier")
                            .map(|c| self.text(c).to_string()),
                    );
                }
                let deprecated = path.last().is_some_and(|n| n == "Deprecated");
                out.push(Decorator {
                    path,
                    called: false,
                });
                if deprecated && self.hides(m) {
                    out.push(Decorator {
                        path: vec![HIDDEN.to_string()],
                        called: false,
                    });
                }
            } else {
                out.push(Decorator {
                    path: vec![self.text(m).to_string()],
                    called: false,
                });
            }
        }
        out
    }

    /// Whether a `@Deprecated(…)` annotation's level is `HIDDEN` (named `level =`,
    /// or third by position after the message and `replaceWith`): such a
    /// declaration is invisible to resolution, though it stays in the tree.
    fn hides(&self, annotation: Node) -> bool {
        let Some(args) = named_children(annotation)
            .find(|c| c.kind() == "constructor_invocation")
            .and_then(|c| named_children(c).find(|a| a.kind() == "value_arguments"))
        else {
            return false;
        };
        let mut position = 0;
        for arg in named_children(args).filter(|a| a.kind() == "value_argument") {
            let parts: Vec<Node> = named_children(arg).collect();
            let named = children(arg).any(|c| c.kind() == "=");
            let (is_level, value) = match parts.as_slice() {
                [name, value] if named => (self.text(*name) == "level", *value),
                [value] if !named => {
                    position += 1;
                    (position == 3, *value)
                }
                _ => continue,
            };
            if is_level {
                return self.last_identifier(value) == Some("HIDDEN");
            }
        }
        false
    }

    /// The name a value ends with: `HIDDEN`, `DeprecationLevel.HIDDEN`.
    fn last_identifier(&self, value: Node) -> Option<&str> {
        match value.kind() {
            "identifier" => Some(self.text(value)),
            "navigation_expression" => named_children(value)
                .last()
                .filter(|n| n.kind() == "identifier")
                .map(|n| self.text(n)),
            _ => None,
        }
    }

    fn type_declaration(&mut self, node: Node, depth: u32) {
        let mut decorators = self.modifiers(node);
        let is_interface = children(node).any(|c| c.kind() == "interface");
        let kind = if is_interface {
            DeclKind::Interface
        } else if decorators.iter().any(|d| d.path == ["enum"]) {
            DeclKind::Enum
        } else {
            DeclKind::Class
        };
        match node.kind() {
            "object_declaration" => decorators.push(Decorator {
                path: vec!["object".into()],
                called: false,
            }),
            "companion_object" => {
                decorators.push(Decorator {
                    path: vec!["object".into()],
                    called: false,
                });
                decorators.push(Decorator {
                    path: vec!["companion".into()],
                    called: false,
                });
            }
            _ => {}
        }
        let name_node = node.child_by_field_name("name");
        let name = match name_node {
            Some(n) => unquote(self.text(n)).to_string(),
            None if node.kind() == "companion_object" => "Companion".to_string(),
            None => return self.children(node, depth),
        };
        // A companion without a name is declared at its `object` keyword.
        let anchor = name_node
            .or_else(|| children(node).find(|c| c.kind() == "object"))
            .unwrap_or(node);
        let mut decl = Decl::new(
            name.clone(),
            kind,
            self.owner,
            self.scope,
            position_of(anchor),
            end_line_of(node),
        );
        decl.is_static = node.kind() != "class_declaration";
        decl.decorators = decorators;
        decl.type_params = self.type_parameters(node);
        decl.type_param_bounds = self.type_parameter_bounds(node);
        let idx = self.push_decl(decl);
        if self.in_local_scope() {
            let line = self.facts.decls[idx as usize].line;
            self.bind(&name, line, BindingValue::Decl(idx));
        }
        if node.kind() == "companion_object" {
            // The class names its companion, so `C.f()` finds it by an index hit.
            if let Some(class) = self.current_type() {
                self.facts.decls[class as usize].decorators.push(Decorator {
                    path: vec!["companion".into(), name.clone()],
                    called: false,
                });
            }
        }
        let saved = (self.scope, self.owner);
        let scope = self.push_scope(ScopeKind::Class, Some(idx));
        self.facts.decls[idx as usize].body = Some(scope);
        self.scope = scope;
        self.owner = Some(idx);
        let primary = named_children(node).find(|c| c.kind() == "primary_constructor");
        let ctor = primary.map(|p| self.primary_constructor(idx, anchor, p, depth));
        let has_body =
            named_children(node).any(|c| matches!(c.kind(), "class_body" | "enum_class_body"));
        if let Some(specs) = named_children(node).find(|c| c.kind() == "delegation_specifiers") {
            let body = self.delegation_specifiers(idx, ctor, specs, !has_body, depth);
            if let Some(lambda) = body {
                self.lambda_as_class_body(lambda, depth);
            }
        }
        for child in named_children(node) {
            match child.kind() {
                "class_body" => self.children(child, depth),
                "enum_class_body" => self.enum_body(idx, child, depth),
                _ => {}
            }
        }
        (self.scope, self.owner) = saved;
    }

    /// The members of a class body the grammar read as a trailing lambda of the
    /// last delegate (`class J : Map<K, V> by map {` reads `map { … }` as a call):
    /// kotlinc reads them as the class's body, and so does the frontend.
    fn lambda_as_class_body(&mut self, lambda: Node, depth: u32) {
        for child in named_children(lambda) {
            match child.kind() {
                "statements" => self.children(child, depth),
                "lambda_parameters" => {}
                _ => {
                    self.walk(child, depth);
                }
            }
        }
    }

    /// The primary constructor: a declaration at the class's name token (kotlinc
    /// names the class line), its parameters, and a property for each `val`/`var`.
    fn primary_constructor(
        &mut self,
        class: DeclIdx,
        anchor: Node,
        node: Node,
        depth: u32,
    ) -> DeclIdx {
        let mut decl = Decl::new(
            self.facts.decls[class as usize].name.clone(),
            DeclKind::Constructor,
            Some(class),
            self.scope,
            position_of(anchor),
            end_line_of(node),
        );
        decl.decorators = self.modifiers(node);
        let ctor = self.push_decl(decl);
        let saved = (self.scope, self.owner);
        let scope = self.push_scope(ScopeKind::Function, Some(ctor));
        self.facts.decls[ctor as usize].body = Some(scope);
        self.scope = scope;
        self.owner = Some(ctor);
        let mut params = Vec::new();
        if let Some(list) = named_children(node).find(|c| c.kind() == "class_parameters") {
            for p in named_children(list).filter(|c| c.kind() == "class_parameter") {
                let (param, is_property) = self.class_parameter(p, depth);
                if is_property {
                    self.facts.decls[class as usize].fields.push(Field {
                        name: param.name.clone(),
                        ty: param.ty.clone(),
                        value: None,
                        line: line_of(p),
                        is_static: false,
                        scope: saved.0,
                    });
                }
                params.push(param);
            }
        }
        self.facts.decls[ctor as usize].params = params;
        self.bind_params(ctor);
        (self.scope, self.owner) = saved;
        ctor
    }

    /// `[modifiers] [val|var] name: T [= default]`; whether it declares a property.
    fn class_parameter(&mut self, node: Node, depth: u32) -> (Param, bool) {
        let mut param = untyped_param("");
        let mut is_property = false;
        let mut seen_type = false;
        for child in children(node) {
            match child.kind() {
                "val" | "var" => is_property = true,
                "modifiers" => {
                    param.variadic = named_children(child)
                        .any(|m| m.kind() == "parameter_modifier" && self.text(m) == "vararg");
                }
                "identifier" if param.name.is_empty() => {
                    param.name = unquote(self.text(child)).to_string()
                }
                _ if child.is_named() && is_type_kind(child.kind()) && !seen_type => {
                    seen_type = true;
                    param.ty = self.type_ref(child, 0);
                }
                _ if child.is_named() && seen_type => {
                    param.has_default = true;
                    self.walk(child, depth);
                }
                _ => {}
            }
        }
        (param, is_property)
    }

    /// `: Base(args), Iface, Other by d`: the bases (the class first, as it is the
    /// one with a constructor call) and the supertype constructor call, a site
    /// named by the type, made by the primary constructor when there is one.
    /// `body_missing`: the class has no body of its own, so a trailing lambda on
    /// the last delegate is that body (returned, not walked).
    fn delegation_specifiers<'t>(
        &mut self,
        class: DeclIdx,
        ctor: Option<DeclIdx>,
        node: Node<'t>,
        body_missing: bool,
        depth: u32,
    ) -> Option<Node<'t>> {
        let mut class_base = Vec::new();
        let mut others = Vec::new();
        let mut body = None;
        let specs: Vec<Node> = named_children(node)
            .filter(|c| c.kind() == "delegation_specifier")
            .collect();
        let last = specs.last().copied();
        for spec in specs {
            for part in named_children(spec) {
                match part.kind() {
                    "constructor_invocation" => {
                        let Some(ty_node) = named_children(part).find(|c| is_type_kind(c.kind()))
                        else {
                            continue;
                        };
                        let Some(ty) = self.type_ref(ty_node, 0) else {
                            continue;
                        };
                        let saved = self.owner;
                        self.owner = ctor.or(Some(class));
                        let args_node =
                            named_children(part).find(|c| c.kind() == "value_arguments");
                        let args = self.value_arguments(args_node, depth);
                        self.construction_call(ty_node, &ty, args);
                        self.owner = saved;
                        class_base.push(ty);
                    }
                    "explicit_delegation" => {
                        for c in named_children(part) {
                            if is_type_kind(c.kind()) {
                                others.extend(self.type_ref(c, 0));
                                continue;
                            }
                            match misread_body(c).filter(|_| body_missing && Some(spec) == last) {
                                Some((delegate, lambda)) => {
                                    self.walk(delegate, depth);
                                    body = Some(lambda);
                                }
                                None => {
                                    self.walk(c, depth);
                                }
                            }
                        }
                    }
                    k if is_type_kind(k) => others.extend(self.type_ref(part, 0)),
                    _ => {}
                }
            }
        }
        class_base.extend(others);
        self.facts.decls[class as usize].bases = class_base;
        body
    }

    /// A call that constructs a written type (`: Base(x)`), named by its last
    /// segment at that segment's token.
    fn construction_call(&mut self, ty_node: Node, ty: &TypeRef, args: Vec<Arg>) -> CallIdx {
        let name_token = last_identifier(ty_node).unwrap_or(ty_node);
        let last = ty.last().unwrap_or_default().to_string();
        let callee = if ty.path.len() > 1 {
            Callee::Member {
                receiver: Receiver::Path(ty.path[..ty.path.len() - 1].to_vec()),
                name: last,
            }
        } else {
            Callee::Name(last)
        };
        let wrote = wrote(self.src, ty_node.start_byte(), ty_node.end_byte());
        let mut site = CallSite::new(name_token, callee, wrote);
        site.kind = CallKind::New;
        self.finish_call(site, args)
    }

    /// Enum entries are static properties of the enum's type; an entry with a body
    /// is a subclass of the enum. kotlinc's entry constructions are set apart by
    /// the oracle (no text writes the call), so an entry writes no site.
    fn enum_body(&mut self, enum_idx: DeclIdx, node: Node, depth: u32) {
        let enum_name = self.facts.decls[enum_idx as usize].name.clone();
        for child in named_children(node) {
            if child.kind() != "enum_entry" {
                self.walk(child, depth);
                continue;
            }
            let name = named_children(child).find(|c| c.kind() == "identifier");
            if let Some(n) = name {
                let entry = unquote(self.text(n)).to_string();
                self.facts.decls[enum_idx as usize].fields.push(Field {
                    name: entry,
                    ty: Some(TypeRef::simple(&enum_name)),
                    value: None,
                    line: line_of(n),
                    is_static: true,
                    scope: self.scope,
                });
            }
            for part in named_children(child) {
                match part.kind() {
                    "value_arguments" => {
                        self.value_arguments(Some(part), depth);
                    }
                    "class_body" => {
                        let anchor = name.unwrap_or(child);
                        self.anonymous_class(
                            vec![TypeRef::simple(&enum_name)],
                            anchor,
                            part,
                            depth,
                        );
                    }
                    _ => {}
                }
            }
        }
    }

    /// `object : Base(…), I { … }` and an enum entry's body: a class of its own
    /// (`<anonymousN>`) declared at `anchor`.
    fn anonymous_class(
        &mut self,
        bases: Vec<TypeRef>,
        anchor: Node,
        body: Node,
        depth: u32,
    ) -> DeclIdx {
        let (idx, saved) = self.enter_anonymous_class(anchor, end_line_of(body));
        self.facts.decls[idx as usize].bases = bases;
        self.children(body, depth);
        (self.scope, self.owner) = saved;
        idx
    }

    /// Declares the next `<anonymousN>` class at `anchor` and enters its body's
    /// scope; returns it with the scope and owner to restore when the body is done.
    fn enter_anonymous_class(
        &mut self,
        anchor: Node,
        end_line: u32,
    ) -> (DeclIdx, (ScopeIdx, Option<DeclIdx>)) {
        self.anonymous += 1;
        let decl = Decl::new(
            format!("<anonymous{}>", self.anonymous),
            DeclKind::Class,
            self.owner,
            self.scope,
            position_of(anchor),
            end_line,
        );
        let idx = self.push_decl(decl);
        let saved = (self.scope, self.owner);
        let scope = self.push_scope(ScopeKind::Class, Some(idx));
        self.facts.decls[idx as usize].body = Some(scope);
        self.scope = scope;
        self.owner = Some(idx);
        (idx, saved)
    }

    fn object_literal(&mut self, node: Node, depth: u32) -> KShape {
        let anchor = children(node)
            .find(|c| c.kind() == "object")
            .unwrap_or(node);
        let body = named_children(node).find(|c| c.kind() == "class_body");
        let (idx, saved) = self.enter_anonymous_class(anchor, end_line_of(node));
        if let Some(specs) = named_children(node).find(|c| c.kind() == "delegation_specifiers") {
            self.delegation_specifiers(idx, None, specs, false, depth);
        }
        if let Some(b) = body {
            self.children(b, depth);
        }
        (self.scope, self.owner) = saved;
        let bases = self.facts.decls[idx as usize].bases.clone();
        match bases.as_slice() {
            [one] => Shape::New(one.clone()),
            _ => Shape::Unknown,
        }
    }

    fn type_parameters(&self, node: Node) -> Vec<String> {
        let Some(tp) = named_children(node).find(|c| c.kind() == "type_parameters") else {
            return Vec::new();
        };
        named_children(tp)
            .filter(|c| c.kind() == "type_parameter")
            .filter_map(|p| named_children(p).find(|c| c.kind() == "identifier"))
            .map(|n| self.text(n).to_string())
            .collect()
    }

    /// The bounds of the type parameters, written `<T : B>` or `where T : B`,
    /// each bounded parameter once with every bound.
    fn type_parameter_bounds(&self, node: Node) -> Vec<(String, Vec<TypeRef>)> {
        let mut out: Vec<(String, Vec<TypeRef>)> = Vec::new();
        let mut add = |name: Node, bound: Node| {
            let name = self.text(name).to_string();
            let Some(t) = self.type_ref(bound, 0) else {
                return;
            };
            match out.iter_mut().find(|(n, _)| *n == name) {
                Some((_, bounds)) => bounds.push(t),
                None => out.push((name, vec![t])),
            }
        };
        let written = named_children(node)
            .filter(|c| c.kind() == "type_parameters")
            .flat_map(named_children)
            .filter(|c| c.kind() == "type_parameter");
        let constraints = named_children(node)
            .filter(|c| c.kind() == "type_constraints")
            .flat_map(named_children)
            .filter(|c| c.kind() == "type_constraint");
        for p in written.chain(constraints) {
            let kids: Vec<Node> = named_children(p).collect();
            let Some(at) = kids.iter().position(|c| c.kind() == "identifier") else {
                continue;
            };
            if let Some(&bound) = kids[at + 1..].iter().find(|c| is_type_kind(c.kind())) {
                add(kids[at], bound);
            }
        }
        out
    }

    /// `fun [<T>] [R.]name(params)[: T] [= e | { … }]`.
    fn function(&mut self, node: Node, depth: u32) {
        let Some(name_node) = node.child_by_field_name("name") else {
            return self.children(node, depth);
        };
        let name = unquote(self.text(name_node)).to_string();
        let mut receiver = None;
        let mut returns = None;
        let mut params_node = None;
        let mut body = None;
        for child in named_children(node) {
            match child.kind() {
                "function_value_parameters" => params_node = Some(child),
                "function_body" => body = Some(child),
                k if is_type_kind(k) => {
                    if child.start_byte() < name_node.start_byte() {
                        receiver = self.type_ref(child, 0);
                    } else {
                        returns = self.type_ref(child, 0);
                    }
                }
                _ => {}
            }
        }
        let in_type = self.current_type().is_some();
        let kind = if in_type {
            DeclKind::Method
        } else {
            DeclKind::Function
        };
        let mut decl = Decl::new(
            name.clone(),
            kind,
            self.owner,
            self.scope,
            position_of(name_node),
            end_line_of(node),
        );
        decl.decorators = self.modifiers(node);
        decl.type_params = self.type_parameters(node);
        decl.type_param_bounds = self.type_parameter_bounds(node);
        decl.returns = returns;
        if let Some(r) = &receiver {
            if self.owner.is_none() {
                decl.scope_path = vec![format!("<{}>", r.path.join("."))];
            }
        }
        decl.impl_of = receiver;
        let idx = self.push_decl(decl);
        if self.in_local_scope() {
            self.bind(&name, line_of(name_node), BindingValue::Decl(idx));
        }
        let saved = (self.scope, self.owner);
        let scope = self.push_scope(ScopeKind::Function, Some(idx));
        self.facts.decls[idx as usize].body = Some(scope);
        self.scope = scope;
        self.owner = Some(idx);
        let params = match params_node {
            Some(p) => self.value_parameters(p, depth),
            None => Vec::new(),
        };
        self.facts.decls[idx as usize].params = params;
        self.bind_params(idx);
        self.function_body(idx, body, depth);
        (self.scope, self.owner) = saved;
    }

    /// A body `{ … }` or `= expr`; an expression body that is a call, or `this`,
    /// says what the function returns.
    fn function_body(&mut self, idx: DeclIdx, body: Option<Node>, depth: u32) {
        let Some(body) = body else {
            return;
        };
        self.frames.push(Frame {
            returns: 0,
            returns_this: 0,
        });
        let mut expression_value = None;
        for child in named_children(body) {
            if child.kind() == "block" {
                self.children(child, depth);
            } else {
                expression_value = Some(self.walk(child, depth));
            }
        }
        let frame = self.frames.pop();
        let returns_value = match expression_value {
            Some(Shape::Name(n)) if n == "this" => Some(ReturnValue::SelfValue),
            Some(Shape::Call(c)) => Some(ReturnValue::CallResult(c)),
            Some(_) => None,
            None => frame
                .filter(|f| f.returns > 0 && f.returns == f.returns_this)
                .map(|_| ReturnValue::SelfValue),
        };
        if returns_value.is_some() {
            self.facts.decls[idx as usize].returns_value = returns_value;
        }
    }

    /// `(a: Int = 1, vararg b: String, c: () -> Unit)`: defaults and modifiers are
    /// siblings of the `parameter` nodes they belong to.
    fn value_parameters(&mut self, node: Node, depth: u32) -> Vec<Param> {
        let mut out: Vec<Param> = Vec::new();
        let mut vararg = false;
        for child in named_children(node) {
            match child.kind() {
                "parameter_modifiers" => {
                    vararg = named_children(child)
                        .any(|m| m.kind() == "parameter_modifier" && self.text(m) == "vararg");
                }
                "parameter" => {
                    let mut p = untyped_param("");
                    for part in named_children(child) {
                        match part.kind() {
                            "identifier" if p.name.is_empty() => {
                                p.name = unquote(self.text(part)).to_string()
                            }
                            k if is_type_kind(k) => p.ty = self.type_ref(part, 0),
                            _ => {}
                        }
                    }
                    p.variadic = std::mem::take(&mut vararg);
                    out.push(p);
                }
                "line_comment" | "block_comment" => {}
                _ => {
                    // A default value: evaluated in the callee, for each call.
                    if let Some(last) = out.last_mut() {
                        last.has_default = true;
                    }
                    self.walk(child, depth);
                }
            }
        }
        out
    }

    fn bind_params(&mut self, idx: DeclIdx) {
        let line = self.facts.decls[idx as usize].line;
        let params = self.facts.decls[idx as usize].params.clone();
        for (i, p) in params.into_iter().enumerate() {
            // Inside the body a vararg parameter is an array of its type.
            let ty = if p.variadic {
                p.ty.map(|t| TypeRef {
                    path: vec!["Array".into()],
                    args: vec![t],
                    is_self: false,
                    array: false,
                })
            } else {
                p.ty
            };
            self.bind(
                &p.name,
                line,
                BindingValue::Param {
                    index: i as u32,
                    ty,
                },
            );
        }
    }

    /// `constructor(params) [: this(…) | super(…)] { … }`.
    fn secondary_constructor(&mut self, node: Node, depth: u32) {
        let Some(class) = self.current_type() else {
            return self.children(node, depth);
        };
        let anchor = children(node)
            .find(|c| c.kind() == "constructor")
            .unwrap_or(node);
        let mut decl = Decl::new(
            self.facts.decls[class as usize].name.clone(),
            DeclKind::Constructor,
            Some(class),
            self.scope,
            position_of(anchor),
            end_line_of(node),
        );
        decl.decorators = self.modifiers(node);
        let idx = self.push_decl(decl);
        let saved = (self.scope, self.owner);
        let scope = self.push_scope(ScopeKind::Function, Some(idx));
        self.facts.decls[idx as usize].body = Some(scope);
        self.scope = scope;
        self.owner = Some(idx);
        if let Some(p) = named_children(node).find(|c| c.kind() == "function_value_parameters") {
            let params = self.value_parameters(p, depth);
            self.facts.decls[idx as usize].params = params;
        }
        self.bind_params(idx);
        for child in named_children(node) {
            match child.kind() {
                "constructor_delegation_call" => self.delegation_call(child, depth),
                "block" => self.children(child, depth),
                _ => {}
            }
        }
        (self.scope, self.owner) = saved;
    }

    /// `: this(…)` / `: super(…)`: a site named by its keyword.
    fn delegation_call(&mut self, node: Node, depth: u32) {
        let Some(word) = children(node).find(|c| matches!(c.kind(), "this" | "super")) else {
            return self.children(node, depth);
        };
        let args_node = named_children(node).find(|c| c.kind() == "value_arguments");
        let args = self.value_arguments(args_node, depth);
        let text = self.text(word).to_string();
        let mut site = CallSite::new(word, Callee::Name(text.clone()), text);
        site.kind = CallKind::ConstructorChain;
        self.finish_call(site, args);
    }

    /// A property: a field of its class, or a binding of its scope; the
    /// initialiser, delegate and accessors are walked for their calls.
    fn property(&mut self, node: Node, depth: u32) {
        let mut ty = None;
        let mut names: Vec<(String, u32)> = Vec::new();
        let mut destructuring = false;
        let mut value = None;
        let mut receiver = false;
        for child in named_children(node) {
            match child.kind() {
                "variable_declaration" => {
                    for part in named_children(child) {
                        match part.kind() {
                            "identifier" => {
                                names.push((unquote(self.text(part)).to_string(), line_of(part)))
                            }
                            k if is_type_kind(k) => ty = self.type_ref(part, 0),
                            _ => {}
                        }
                    }
                }
                "multi_variable_declaration" => {
                    destructuring = true;
                    for v in named_children(child).filter(|c| c.kind() == "variable_declaration") {
                        if let Some(n) = named_children(v).find(|c| c.kind() == "identifier") {
                            names.push((unquote(self.text(n)).to_string(), line_of(n)));
                        }
                    }
                }
                // A type before the name is an extension property's receiver.
                k if is_type_kind(k) && names.is_empty() => receiver = true,
                "modifiers" | "type_parameters" | "type_constraints" => {}
                "getter" | "setter" | "property_delegate" => {
                    let saved = self.scope;
                    self.scope = self.push_scope(ScopeKind::Function, self.owner);
                    self.children(child, depth);
                    self.scope = saved;
                }
                _ => value = Some(self.walk(child, depth)),
            }
        }
        if destructuring || receiver {
            for (name, line) in names {
                if self.current_type().is_none() {
                    self.bind(&name, line, BindingValue::Opaque);
                }
            }
            return;
        }
        let Some((name, line)) = names.into_iter().next() else {
            return;
        };
        let (ty, value) = match (ty, value) {
            (Some(t), v) => (Some(t), v.map(Shape::value)),
            (None, Some(Shape::Lang(KExt::Cast(t)))) => (Some(t), None),
            (None, v) => (None, v.map(Shape::value)),
        };
        if let Some(class) = self.current_type() {
            let is_static = self.facts.decls[class as usize].is_static;
            self.facts.decls[class as usize].fields.push(Field {
                name,
                ty,
                value,
                line,
                is_static,
                scope: self.scope,
            });
            return;
        }
        let binding = match (ty, value) {
            (Some(ty), value) => BindingValue::Typed { ty, value },
            (None, Some(v)) => BindingValue::Value(v),
            (None, None) => BindingValue::Opaque,
        };
        self.bind(&name, line, binding);
    }

    fn for_statement(&mut self, node: Node, depth: u32) {
        let mut vars = Vec::new();
        for child in named_children(node) {
            match child.kind() {
                "variable_declaration" | "multi_variable_declaration" => vars.push(child),
                "block" | "control_structure_body" | "label" | "annotation" => {}
                _ => {
                    self.walk(child, depth);
                }
            }
        }
        self.in_block_scope(|x| {
            for v in vars {
                x.bind_declared_names(v, BindingValue::Opaque);
            }
            for child in named_children(node) {
                if matches!(child.kind(), "block" | "control_structure_body") {
                    x.children(child, depth);
                }
            }
        });
    }

    /// Every name a `variable_declaration` / `multi_variable_declaration` writes,
    /// bound to `value` (a typed single variable to its type).
    fn bind_declared_names(&mut self, node: Node, value: BindingValue) {
        if node.kind() == "multi_variable_declaration" {
            for v in named_children(node).filter(|c| c.kind() == "variable_declaration") {
                self.bind_declared_names(v, BindingValue::Opaque);
            }
            return;
        }
        let name = named_children(node).find(|c| c.kind() == "identifier");
        let ty = named_children(node)
            .find(|c| is_type_kind(c.kind()))
            .and_then(|t| self.type_ref(t, 0));
        if let Some(n) = name {
            let value = match ty {
                Some(ty) => BindingValue::Typed { ty, value: None },
                None => value,
            };
            let text = unquote(self.text(n)).to_string();
            self.bind(&text, line_of(n), value);
        }
    }

    fn catch_block(&mut self, node: Node, depth: u32) {
        self.in_block_scope(|x| {
            let name = named_children(node).find(|c| c.kind() == "identifier");
            let ty = named_children(node)
                .find(|c| is_type_kind(c.kind()))
                .and_then(|t| x.type_ref(t, 0));
            if let (Some(n), Some(ty)) = (name, ty) {
                let text = x.text(n).to_string();
                x.bind(&text, line_of(n), BindingValue::Typed { ty, value: None });
            }
            for child in named_children(node).filter(|c| c.kind() == "block") {
                x.children(child, depth);
            }
        });
    }

    /// `when (x) { is T -> x.m() … }`: inside an entry that tests `is T` on a
    /// subject written as a name, the name is a T (kotlinc's smart cast).
    fn when_expression(&mut self, node: Node, depth: u32) {
        let mut subject_name = None;
        for child in named_children(node) {
            match child.kind() {
                "when_subject" => {
                    for part in named_children(child) {
                        match part.kind() {
                            "variable_declaration" => {}
                            _ => {
                                if let Shape::Name(n) = self.walk(part, depth) {
                                    subject_name = Some(n);
                                }
                            }
                        }
                    }
                }
                "when_entry" => self.when_entry(child, subject_name.as_deref(), depth),
                _ => {
                    self.walk(child, depth);
                }
            }
        }
    }

    fn when_entry(&mut self, node: Node, subject: Option<&str>, depth: u32) {
        let mut cast = None;
        let mut tests = 0;
        for child in named_children(node) {
            if child.kind() == "type_test" {
                tests += 1;
                cast = named_children(child)
                    .find(|c| is_type_kind(c.kind()))
                    .and_then(|t| self.type_ref(t, 0));
            }
        }
        let negated = children(node)
            .filter(|c| c.kind() == "type_test")
            .any(|t| children(t).any(|c| c.kind() == "!is"));
        self.in_block_scope(|x| {
            if let (Some(name), Some(ty), 1, false) = (subject, cast, tests, negated) {
                x.bind(name, line_of(node), BindingValue::Typed { ty, value: None });
            }
            for child in named_children(node) {
                if child.kind() != "type_test" {
                    x.walk(child, depth);
                }
            }
        });
    }

    /// `if (x is T) x.m() else …`: in the branch the condition guards, a name
    /// tested with `is` (alone or on the left of `&&`) is a T.
    fn if_expression(&mut self, node: Node, depth: u32) {
        let condition = node.child_by_field_name("condition");
        let mut casts = Vec::new();
        if let Some(c) = condition {
            self.walk(c, depth);
            self.smart_casts(c, &mut casts, 0);
        }
        let mut first_branch = true;
        for child in named_children(node) {
            if Some(child) == condition {
                continue;
            }
            let casts_here = if first_branch {
                casts.clone()
            } else {
                Vec::new()
            };
            first_branch = false;
            self.in_block_scope(|x| {
                for (name, ty) in casts_here {
                    x.bind(
                        &name,
                        line_of(child),
                        BindingValue::Typed { ty, value: None },
                    );
                }
                x.walk(child, depth);
            });
        }
    }

    fn smart_casts(&self, node: Node, out: &mut Vec<(String, TypeRef)>, depth: u32) {
        if depth > 8 {
            return;
        }
        match node.kind() {
            "is_expression" => {
                let negated = children(node).any(|c| c.kind() == "!is");
                let mut kids = named_children(node);
                let (Some(left), Some(right)) = (kids.next(), kids.next()) else {
                    return;
                };
                if negated || left.kind() != "identifier" {
                    return;
                }
                if let Some(t) = self.type_ref(right, 0) {
                    out.push((self.text(left).to_string(), t));
                }
            }
            "binary_expression" => {
                let op = node.child_by_field_name("operator").map(|o| o.kind());
                if op == Some("&&") {
                    for side in ["left", "right"] {
                        if let Some(s) = node.child_by_field_name(side) {
                            self.smart_casts(s, out, depth + 1);
                        }
                    }
                }
            }
            "parenthesized_expression" => {
                if let Some(inner) = node.named_child(0) {
                    self.smart_casts(inner, out, depth + 1);
                }
            }
            _ => {}
        }
    }

    fn return_expression(&mut self, node: Node, depth: u32) {
        let value = named_children(node)
            .find(|c| c.kind() != "label")
            .map(|v| self.walk(v, depth));
        // A labelled return leaves a lambda, not the function.
        if node.child_by_field_name("label").is_some() {
            return;
        }
        if let Some(frame) = self.frames.last_mut() {
            frame.returns += 1;
            if matches!(value, Some(Shape::Name(ref n)) if n == "this") {
                frame.returns_this += 1;
            }
        }
    }

    /// `{ a, b -> … }`, `{ … }` (with the implicit `it`), `fun(x: Int) { … }`.
    fn lambda(&mut self, node: Node, depth: u32) -> KShape {
        self.lambdas += 1;
        let mut decl = Decl::new(
            format!("<lambda{}>", self.lambdas),
            DeclKind::Lambda,
            self.owner,
            self.scope,
            position_of(node),
            end_line_of(node),
        );
        let anonymous_function = node.kind() == "anonymous_function";
        let mut params = Vec::new();
        for child in named_children(node) {
            match child.kind() {
                "lambda_parameters" => {
                    for p in named_children(child) {
                        let name = named_children(p)
                            .find(|c| c.kind() == "identifier")
                            .map(|n| self.text(n).to_string())
                            .unwrap_or_else(|| "_".to_string());
                        let mut param = untyped_param(&name);
                        param.ty = named_children(p)
                            .find(|c| is_type_kind(c.kind()))
                            .and_then(|t| self.type_ref(t, 0));
                        params.push(param);
                    }
                }
                "function_value_parameters" => params = self.value_parameters(child, depth),
                _ => {}
            }
        }
        let implicit_it = params.is_empty() && !anonymous_function;
        decl.params = params;
        let idx = self.push_decl(decl);
        let saved = (self.scope, self.owner);
        let scope = self.push_scope(ScopeKind::Lambda, Some(idx));
        self.facts.decls[idx as usize].body = Some(scope);
        self.scope = scope;
        self.owner = Some(idx);
        self.bind_params(idx);
        if implicit_it {
            let line = line_of(node);
            self.bind("it", line, BindingValue::Param { index: 0, ty: None });
        }
        for child in named_children(node) {
            match child.kind() {
                "lambda_parameters" | "function_value_parameters" => {}
                "function_body" => self.function_body(idx, Some(child), depth),
                k if is_type_kind(k) => {
                    let t = self.type_ref(child, 0);
                    self.facts.decls[idx as usize].returns = t;
                }
                _ => {
                    self.walk(child, depth);
                }
            }
        }
        (self.scope, self.owner) = saved;
        Shape::Lang(KExt::Lambda(idx))
    }

    // ----- calls -------------------------------------------------------------------------

    /// `f(…)`, `a.f(…)`, `f(…) { … }`, `f { … }`, `f<T>()`, `f()()`.
    fn call(&mut self, node: Node, depth: u32) -> KShape {
        let kids: Vec<Node> = named_children(node).collect();
        let Some(&callee_node) = kids.first() else {
            return Shape::Unknown;
        };
        let suffixes = &kids[1..];
        let lambda_only = suffixes.iter().all(|s| s.kind() == "annotated_lambda");
        // `f(a) { … }` parses as a call of `f(a)` with a trailing lambda: one call.
        if callee_node.kind() == "call_expression" && lambda_only {
            let inner: Vec<Node> = named_children(callee_node).collect();
            let inner_has_lambda = inner.iter().any(|c| c.kind() == "annotated_lambda");
            if !inner_has_lambda && inner.len() >= 2 {
                let mut all = inner.clone();
                all.extend(suffixes.iter().copied());
                return self.call_parts(callee_node, &all, depth);
            }
        }
        self.call_parts(node, &kids, depth)
    }

    /// One call from its callee node and its suffixes (type arguments, value
    /// arguments, trailing lambdas).
    fn call_parts(&mut self, node: Node, kids: &[Node], depth: u32) -> KShape {
        let callee_node = kids[0];
        let mut type_args = 0;
        for s in &kids[1..] {
            if s.kind() == "type_arguments" {
                type_args = named_children(*s).count() as u32;
            }
        }
        let (callee, name_token, wrote_end) = match callee_node.kind() {
            "identifier" => (
                Callee::Name(unquote(self.text(callee_node)).to_string()),
                callee_node,
                callee_node.end_byte(),
            ),
            "navigation_expression" if navigation_operator(callee_node) != Some("::") => {
                let (receiver, name) = self.navigation_parts(callee_node, depth);
                match name {
                    Some(name) => (
                        Callee::Member {
                            receiver: receiver.receiver(),
                            name: unquote(self.text(name)).to_string(),
                        },
                        name,
                        name.end_byte(),
                    ),
                    None => (Callee::Dynamic, callee_node, callee_node.end_byte()),
                }
            }
            _ => {
                let inner = self.walk(callee_node, depth);
                let callee = match inner {
                    Shape::Call(i) => Callee::Result(i),
                    _ => Callee::Dynamic,
                };
                (callee, callee_node, callee_node.end_byte())
            }
        };
        let mut args = Vec::new();
        for s in &kids[1..] {
            match s.kind() {
                "value_arguments" => args.extend(self.value_arguments(Some(*s), depth)),
                "annotated_lambda" => {
                    if let Some(l) = named_children(*s).find(|c| c.kind() == "lambda_literal") {
                        let shape = self.walk(l, depth);
                        args.push(Arg {
                            shape: shape.arg(),
                            name: Some(TRAILING.to_string()),
                            spread: false,
                        });
                    }
                }
                _ => {}
            }
        }
        let mut site = CallSite::new(
            name_token,
            callee,
            wrote(self.src, node.start_byte(), wrote_end),
        );
        site.type_args = type_args;
        Shape::Call(self.finish_call(site, args))
    }

    /// Writes a call with its arguments: positional ones (and a trailing lambda,
    /// last) as `args`, named ones as keywords; a lambda argument learns the call
    /// and position it fills.
    fn finish_call(&mut self, mut site: CallSite, args: Vec<Arg>) -> CallIdx {
        let mut lambdas = Vec::new();
        let mut keywords = Vec::new();
        for a in args {
            site.has_splat |= a.spread;
            match a.name {
                Some(n) if n == TRAILING => {
                    if let ArgShape::Function(d) = a.shape {
                        lambdas.push((d, u32::MAX));
                    }
                    site.args.push(a.shape);
                }
                Some(n) => keywords.push((n, a.shape)),
                None => {
                    if let ArgShape::Function(d) = a.shape {
                        lambdas.push((d, site.args.len() as u32));
                    }
                    site.args.push(a.shape);
                }
            }
        }
        let idx = push_call(&mut self.facts, self.owner, self.scope, site);
        let call = &mut self.facts.calls[idx as usize];
        call.keyword_args = keywords.len() as u32;
        call.keywords = keywords;
        for (d, pos) in lambdas {
            self.facts.decls[d as usize].argument_of = Some((idx, pos));
        }
        idx
    }

    fn value_arguments(&mut self, node: Option<Node>, depth: u32) -> Vec<Arg> {
        let Some(node) = node else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for arg in named_children(node).filter(|c| c.kind() == "value_argument") {
            let named = children(arg).any(|c| c.kind() == "=");
            let spread = children(arg).any(|c| c.kind() == "*");
            let mut name = None;
            let mut shape = ArgShape::Unknown;
            for (i, part) in named_children(arg).enumerate() {
                if named && i == 0 && part.kind() == "identifier" {
                    name = Some(unquote(self.text(part)).to_string());
                    continue;
                }
                shape = self.walk(part, depth).arg();
            }
            out.push(Arg {
                shape,
                name,
                spread,
            });
        }
        out
    }

    /// `a.b`, `a?.b`: the receiver's shape and the member's name token.
    fn navigation_parts<'t>(&mut self, node: Node<'t>, depth: u32) -> (KShape, Option<Node<'t>>) {
        let kids: Vec<Node> = named_children(node).collect();
        let name = kids.last().copied().filter(|n| n.kind() == "identifier");
        let receiver = match kids.first() {
            Some(&r) if kids.len() >= 2 => match prefix_operand(r) {
                // The grammar reads `!x.f()` as `(!x).f()`; Kotlin's postfix
                // binds tighter, so the receiver is `x` (the `!` applies to the
                // call's result, an operator kotlinc sets apart).
                // The operator itself writes no call: walking the operand walks
                // everything below `r`.
                Some(operand) => self.walk(operand, depth),
                None => self.walk(r, depth),
            },
            _ => Shape::Unknown,
        };
        (receiver, name)
    }

    /// A member read (`a.b`), which is not a call; `A::b` is a reference.
    fn navigation(&mut self, node: Node, depth: u32) -> KShape {
        if navigation_operator(node) == Some("::") {
            let (receiver, name) = self.navigation_parts(node, depth);
            let Some(name) = name else {
                return Shape::Unknown;
            };
            self.reference(node, receiver.receiver(), name);
            return match self.text(name) {
                "class" => Shape::Lang(KExt::ClassLiteral),
                _ => Shape::Unknown,
            };
        }
        let (receiver, name) = self.navigation_parts(node, depth);
        match name {
            Some(n) => receiver.then(unquote(self.text(n))),
            None => Shape::Unknown,
        }
    }

    /// `::f`, `::Type`: a function used as a value.
    fn callable_reference(&mut self, node: Node) -> KShape {
        let kids: Vec<Node> = named_children(node).collect();
        let Some(&name) = kids.last().filter(|n| n.kind() == "identifier") else {
            return Shape::Unknown;
        };
        let receiver = match kids.len() {
            1 => None,
            _ => self.type_ref(kids[0], 0).map(|t| Receiver::Path(t.path)),
        };
        match receiver {
            Some(r) => self.reference(node, r, name),
            None => {
                let wrote = wrote(self.src, node.start_byte(), name.end_byte());
                self.facts.refs.push(ValueRef {
                    line: line_of(name),
                    column: column_of(name),
                    caller: self.owner,
                    scope: self.scope,
                    target: Callee::Name(unquote(self.text(name)).to_string()),
                    wrote,
                    escapes: true,
                });
            }
        }
        Shape::Unknown
    }

    fn reference(&mut self, node: Node, receiver: Receiver, name: Node) {
        let wrote = wrote(self.src, node.start_byte(), name.end_byte());
        self.facts.refs.push(ValueRef {
            line: line_of(name),
            column: column_of(name),
            caller: self.owner,
            scope: self.scope,
            target: Callee::Member {
                receiver,
                name: unquote(self.text(name)).to_string(),
            },
            wrote,
            escapes: true,
        });
    }

    /// `a f b`: the infix call of `f` on `a` with `b`.
    fn infix(&mut self, node: Node, depth: u32) -> KShape {
        let kids: Vec<Node> = named_children(node).collect();
        let [left, op, right] = kids.as_slice() else {
            self.children(node, depth);
            return Shape::Unknown;
        };
        let receiver = self.walk(*left, depth);
        let arg = self.walk(*right, depth);
        let name = unquote(self.text(*op)).to_string();
        let site = CallSite::new(
            *op,
            Callee::Member {
                receiver: receiver.receiver(),
                name: name.clone(),
            },
            name,
        );
        let args = vec![Arg {
            shape: arg.arg(),
            name: None,
            spread: false,
        }];
        Shape::Call(self.finish_call(site, args))
    }

    fn unary(&mut self, node: Node, depth: u32) -> KShape {
        let operand = node
            .child_by_field_name("argument")
            .map(|o| self.walk(o, depth));
        let op = node
            .child_by_field_name("operator")
            .map(|o| o.kind())
            .unwrap_or("");
        match (op, operand) {
            // `x!!` is x (its null check is an operator kotlinc sets apart).
            ("!!", Some(s)) => s,
            ("!", _) => Shape::Literal(LiteralType::Bool),
            ("-" | "+", Some(Shape::Literal(l))) => Shape::Literal(l),
            _ => Shape::Unknown,
        }
    }

    fn cast(&mut self, node: Node, depth: u32) -> KShape {
        if let Some(v) = node.child_by_field_name("left") {
            self.walk(v, depth);
        }
        // `as?` may give null, and a nullable T is still a T for member lookup.
        match node
            .child_by_field_name("right")
            .and_then(|t| self.type_ref(t, 0))
        {
            Some(t) => Shape::Lang(KExt::Cast(t)),
            None => Shape::Unknown,
        }
    }

    /// Comparisons and logic are booleans; `"…" + x` is a String.
    fn binary(&mut self, node: Node, depth: u32) -> KShape {
        let left = node
            .child_by_field_name("left")
            .map(|l| self.walk(l, depth));
        if let Some(r) = node.child_by_field_name("right") {
            self.walk(r, depth);
        }
        let op = node
            .child_by_field_name("operator")
            .map(|o| o.kind())
            .unwrap_or("");
        let is_str = |s: &Option<KShape>| matches!(s, Some(Shape::Literal(LiteralType::Str)));
        if misread_type_arguments(node, op) {
            return Shape::Unknown;
        }
        match op {
            "==" | "!=" | "===" | "!==" | "<" | "<=" | ">" | ">=" | "&&" | "||" => {
                Shape::Literal(LiteralType::Bool)
            }
            "+" if is_str(&left) => Shape::Literal(LiteralType::Str),
            _ => Shape::Unknown,
        }
    }

    // ----- types ---------------------------------------------------------------------------

    /// A written type as structure: `a.b.C<D>` → path and arguments; `T?` is T;
    /// a function type `(A) -> R` is the path `<fn>` with its parameters then its
    /// result as arguments, and `R.(A) -> B` is `<fn-receiver>` with R first.
    pub(crate) fn type_ref(&self, node: Node, depth: u32) -> Option<TypeRef> {
        if depth > MAX_TYPE_DEPTH {
            return None;
        }
        let d = depth + 1;
        match node.kind() {
            "user_type" => {
                let mut path = Vec::new();
                let mut args = Vec::new();
                for child in named_children(node) {
                    match child.kind() {
                        "identifier" => path.push(unquote(self.text(child)).to_string()),
                        "type_arguments" => {
                            args = named_children(child)
                                .filter_map(|a| self.type_ref(a, d))
                                .collect();
                        }
                        _ => {}
                    }
                }
                (!path.is_empty()).then_some(TypeRef {
                    path,
                    args,
                    is_self: false,
                    array: false,
                })
            }
            "nullable_type" | "non_nullable_type" | "parenthesized_type" | "type_projection" => {
                match named_children(node).find(|c| is_type_kind(c.kind())) {
                    Some(inner) => self.type_ref(inner, d),
                    // `*`: any type.
                    None => Some(TypeRef::simple("?")),
                }
            }
            "function_type" => {
                let mut receiver = None;
                let mut params = Vec::new();
                let mut result = None;
                for child in named_children(node) {
                    match child.kind() {
                        "function_type_parameters" => {
                            for p in named_children(child) {
                                let t = if p.kind() == "parameter" {
                                    named_children(p)
                                        .find(|c| is_type_kind(c.kind()))
                                        .and_then(|t| self.type_ref(t, d))
                                } else {
                                    self.type_ref(p, d)
                                };
                                params.push(t.unwrap_or_else(|| TypeRef::simple("?")));
                            }
                        }
                        k if is_type_kind(k) => {
                            let t = self.type_ref(child, d);
                            if seen_parameters(node, child) {
                                result = t;
                            } else {
                                receiver = t;
                            }
                        }
                        _ => {}
                    }
                }
                let mut args = Vec::new();
                let path = match receiver {
                    Some(r) => {
                        args.push(r);
                        "<fn-receiver>"
                    }
                    None => "<fn>",
                };
                args.extend(params);
                args.push(result.unwrap_or_else(|| TypeRef::simple("?")));
                Some(TypeRef {
                    path: vec![path.to_string()],
                    args,
                    is_self: false,
                    array: false,
                })
            }
            _ => None,
        }
    }
}

/// Whether the function type's parameter list comes before `child` (then a type
/// child is the result, not the receiver).
fn seen_parameters(function_type: Node, child: Node) -> bool {
    named_children(function_type)
        .any(|c| c.kind() == "function_type_parameters" && c.start_byte() < child.start_byte())
}

/// A prefix `unary_expression` (`!x`, `-x`, `++x`): its operand.
fn prefix_operand(node: Node) -> Option<Node> {
    if node.kind() != "unary_expression" {
        return None;
    }
    let op = node.child_by_field_name("operator")?;
    let arg = node.child_by_field_name("argument")?;
    (op.start_byte() < arg.start_byte()).then_some(arg)
}

/// `map { … }` as a delegate: the delegate expression and the lambda the grammar
/// took from the class body, when the call is exactly a callee and one trailing
/// lambda.
fn misread_body(expr: Node) -> Option<(Node, Node)> {
    if expr.kind() != "call_expression" {
        return None;
    }
    let kids: Vec<Node> = named_children(expr).collect();
    let [delegate, annotated] = kids.as_slice() else {
        return None;
    };
    if annotated.kind() != "annotated_lambda" {
        return None;
    }
    let lambda = named_children(*annotated).find(|c| c.kind() == "lambda_literal")?;
    Some((*delegate, lambda))
}

/// The name of an annotation (`@A`, `@a.B(…)`, `@file:A`): its user type.
fn annotation_name(annotation: Node) -> Option<Node> {
    for child in named_children(annotation) {
        match child.kind() {
            "user_type" => return Some(child),
            "constructor_invocation" => {
                return named_children(child).find(|c| c.kind() == "user_type")
            }
            _ => {}
        }
    }
    None
}

/// The argument name that marks a trailing lambda inside the frontend.
const TRAILING: &str = "\u{0}trailing";

fn is_type_kind(kind: &str) -> bool {
    matches!(
        kind,
        "user_type"
            | "nullable_type"
            | "non_nullable_type"
            | "parenthesized_type"
            | "function_type"
            | "dynamic"
    )
}

/// The operator token of a navigation: `.`, `?.` or `::`.
fn navigation_operator(node: Node) -> Option<&'static str> {
    children(node).find_map(|c| match c.kind() {
        "." => Some("."),
        "?." => Some("?."),
        "::" => Some("::"),
        _ => None,
    })
}

/// The last identifier of a written type: the token that names it.
fn last_identifier(node: Node) -> Option<Node> {
    let mut cur = node;
    for _ in 0..MAX_TYPE_DEPTH {
        match cur.kind() {
            "user_type" => {
                return named_children(cur)
                    .filter(|c| c.kind() == "identifier")
                    .last()
            }
            _ => cur = named_children(cur).find(|c| is_type_kind(c.kind()))?,
        }
    }
    None
}

/// `` `fun` `` names its identifier without backticks.
fn unquote(text: &str) -> &str {
    text.strip_prefix('`')
        .and_then(|t| t.strip_suffix('`'))
        .unwrap_or(text)
}

fn untyped_param(name: &str) -> Param {
    Param {
        name: name.to_string(),
        ty: None,
        variadic: false,
        keyword_variadic: false,
        has_default: false,
        default: None,
    }
}

/// `x.tag<Annotation>(a)` where the grammar reads `(x.tag < Annotation) > (a)`:
/// a `>` whose left operand is a `<` comparison is a call with type arguments
/// (Kotlin has no chained comparisons), so the value is not a Boolean.
fn misread_type_arguments(node: Node, op: &str) -> bool {
    if op != ">" {
        return false;
    }
    let Some(left) = node.child_by_field_name("left") else {
        return false;
    };
    left.kind() == node.kind()
        && left
            .child_by_field_name("operator")
            .is_some_and(|o| o.kind() == "<")
}

/// An integer literal's type: `L` makes it a `Long`, and so does a value past
/// `Int`'s range (`0xFFFFFFFF` is a `Long` in Kotlin).
fn integer_literal(text: &str) -> LiteralType {
    if text.ends_with(['l', 'L']) || !fits_int(text) {
        LiteralType::Long
    } else {
        LiteralType::Int
    }
}

/// Whether an unsigned integer literal's value is at most `Int.MAX_VALUE` (an
/// unreadable one is taken to fit, as most do).
fn fits_int(text: &str) -> bool {
    let digits: String = text.chars().filter(|&c| c != '_').collect();
    let lower = digits.to_ascii_lowercase();
    let (radix, body) = if let Some(h) = lower.strip_prefix("0x") {
        (16, h)
    } else if let Some(b) = lower.strip_prefix("0b") {
        (2, b)
    } else {
        (10, lower.as_str())
    };
    match u64::from_str_radix(body.trim_end_matches('u'), radix) {
        Ok(v) => v <= i32::MAX as u64,
        Err(_) => true,
    }
}

fn float_literal(text: &str) -> LiteralType {
    if text.ends_with(['f', 'F']) {
        LiteralType::Float
    } else {
        LiteralType::Double
    }
}

fn end_line_of(node: Node) -> u32 {
    node.end_position().row as u32 + 1
}

/// (line, column) of a node's first byte, 1-based.
fn position_of(node: Node) -> (u32, u32) {
    (line_of(node), column_of(node))
}
