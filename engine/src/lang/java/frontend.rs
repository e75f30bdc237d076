//! Java frontend: one syntax tree → FileFacts, in one walk while the tree is alive.
//!
//! Every structure a later stage reads is extracted here: a callee is a receiver
//! (path of names, a call's result, `super`, a construction…) plus a name, an
//! argument is an [`ArgShape`], a type is a [`TypeRef`]. The walk is recursive
//! but bounded: past [`MAX_DEPTH`] levels it stops descending and counts a parse
//! error, so a 50 000-level expression cannot overflow the stack.

use crate::lang::syntax::{column_of, line_of, ErrorCount};
use tree_sitter::Node;

use crate::facts::{
    ArgShape, BindingValue, CallIdx, CallKind, Callee, Decl, DeclIdx, DeclKind, Decorator, Field,
    FileFacts, Import, ImportKind, LiteralType, Param, Receiver, ReturnValue, ScopeIdx, ScopeKind,
    TypeRef, ValueExpr, ValueRef,
};
use crate::lang::classes::{self, FactsWalk};
use crate::lang::core::{self, push_call, CallSite, LangShape, MAX_DEPTH};
use crate::lang::Language;

/// Type syntax nests far less than expressions; a bound keeps `type_ref` safe too.
const MAX_TYPE_DEPTH: u32 = 64;

pub fn extract(path: &str, source: &[u8], tree: &tree_sitter::Tree) -> FileFacts {
    let mut x = Extractor::new(path, source);
    x.walk(tree.root_node(), 0);
    let mut facts = x.facts;
    facts.parse_errors = x.errors.total(tree);
    facts
}

/// What only Java adds to the shared expression core ([`core::Shape`]).
#[derive(Debug, Clone)]
enum JavaShape {
    /// `new T() { … }` (the construction's call): an instance of the anonymous
    /// subclass of T.
    Anonymous(TypeRef, CallIdx),
    Cast(TypeRef),
    Lambda(Option<DeclIdx>),
    ClassLiteral,
    Super,
    QualifiedThis(String),
    /// `c ? a : b`: one of two values.
    Either(Box<Shape>, Box<Shape>),
}

impl LangShape for JavaShape {
    fn receiver(self) -> Receiver {
        match self {
            // The static type of `(T) x` is T: for member lookup it reads like `new T()`.
            JavaShape::Cast(t) => Receiver::New(t),
            JavaShape::Super => Receiver::Super,
            JavaShape::QualifiedThis(t) => Receiver::QualifiedThis(t),
            JavaShape::Anonymous(_, i) => Receiver::Call(i),
            // `X.class` is an instance of java.lang.Class (written in full so no
            // type of the tree named `Class` can capture it).
            JavaShape::ClassLiteral => Receiver::New(TypeRef {
                path: vec!["java".into(), "lang".into(), "Class".into()],
                args: Vec::new(),
                is_self: false,
                array: false,
            }),
            JavaShape::Lambda(_) | JavaShape::Either(..) => Receiver::Unknown,
        }
    }

    fn arg(self) -> ArgShape {
        match self {
            // An anonymous subclass of T is a T for overload selection.
            JavaShape::Anonymous(t, _) => ArgShape::New(t),
            JavaShape::Cast(t) => ArgShape::Cast(t),
            JavaShape::Lambda(_) => ArgShape::Lambda,
            JavaShape::ClassLiteral => ArgShape::ClassLiteral,
            JavaShape::Either(a, b) => ArgShape::Either(Box::new(a.arg()), Box::new(b.arg())),
            JavaShape::Super | JavaShape::QualifiedThis(_) => ArgShape::Unknown,
        }
    }

    fn value(self) -> ValueExpr {
        match self {
            JavaShape::Anonymous(_, i) => ValueExpr::CallResult(i),
            JavaShape::Lambda(Some(d)) => ValueExpr::Lambda(d),
            _ => ValueExpr::Unknown,
        }
    }
}

type Shape = core::Shape<JavaShape>;

/// A method, constructor or lambda being walked: counts its `return`s to learn
/// whether every one hands back `this`.
struct Frame {
    decl: DeclIdx,
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

classes::facts_walk!(Extractor<'_>);

impl<'s> Extractor<'s> {
    fn new(path: &str, src: &'s [u8]) -> Extractor<'s> {
        Extractor {
            src,
            facts: FileFacts::new(path, Language::Java),
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
    fn walk(&mut self, node: Node, depth: u32) -> Shape {
        // Too deep to walk safely: the rest of this subtree is not analysed, and
        // the file says so (once).
        if self.errors.too_deep(depth, MAX_DEPTH) {
            return Shape::Unknown;
        }
        self.errors.note(node);
        let d = depth + 1;
        match node.kind() {
            "line_comment" | "block_comment" => Shape::Unknown,
            "package_declaration" => {
                self.package(node);
                Shape::Unknown
            }
            "import_declaration" => {
                self.import(node);
                Shape::Unknown
            }
            "class_declaration"
            | "interface_declaration"
            | "enum_declaration"
            | "record_declaration"
            | "annotation_type_declaration" => {
                self.type_declaration(node, d);
                Shape::Unknown
            }
            "method_declaration"
            | "constructor_declaration"
            | "compact_constructor_declaration"
            | "annotation_type_element_declaration" => {
                self.callable(node, d);
                Shape::Unknown
            }
            "field_declaration" | "constant_declaration" => {
                self.field_declaration(node, d);
                Shape::Unknown
            }
            "enum_constant" => {
                self.enum_constant(node, d);
                Shape::Unknown
            }
            "local_variable_declaration" => {
                self.local_declaration(node, d);
                Shape::Unknown
            }
            "block" | "switch_block" | "for_statement" => {
                self.in_block_scope(|x| x.children(node, d));
                Shape::Unknown
            }
            "enhanced_for_statement" => {
                self.enhanced_for(node, d);
                Shape::Unknown
            }
            "catch_clause" => {
                self.catch_clause(node, d);
                Shape::Unknown
            }
            "try_with_resources_statement" => {
                self.in_block_scope(|x| x.children(node, d));
                Shape::Unknown
            }
            "resource" => {
                self.resource(node, d);
                Shape::Unknown
            }
            "return_statement" => {
                self.return_statement(node, d);
                Shape::Unknown
            }
            "type_pattern" => {
                self.type_pattern(node);
                Shape::Unknown
            }
            "lambda_expression" => self.lambda(node, d),
            "method_invocation" => self.invocation(node, d),
            "object_creation_expression" => self.creation(node, d),
            "explicit_constructor_invocation" => self.constructor_chain(node, d),
            "method_reference" => self.method_reference(node, d),
            "field_access" => self.field_access(node, d),
            "array_access" => self.array_access(node, d),
            "parenthesized_expression" => match node.named_child(0) {
                Some(inner) => self.walk(inner, d),
                None => Shape::Unknown,
            },
            "cast_expression" => self.cast(node, d),
            "ternary_expression" => self.ternary(node, d),
            "binary_expression" => self.binary(node, d),
            "unary_expression" => self.unary(node, d),
            "instanceof_expression" => self.instanceof(node, d),
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
    #[inline(never)]
    fn leaf(&self, node: Node, kind: &str) -> Option<Shape> {
        let shape = match kind {
            "identifier" => Shape::Name(self.text(node).to_string()),
            "this" => Shape::Path(vec!["this".to_string()]),
            "super" => Shape::Lang(JavaShape::Super),
            "class_literal" => Shape::Lang(JavaShape::ClassLiteral),
            "decimal_integer_literal"
            | "hex_integer_literal"
            | "octal_integer_literal"
            | "binary_integer_literal" => Shape::Literal(integer_literal(self.text(node))),
            "decimal_floating_point_literal" | "hex_floating_point_literal" => {
                Shape::Literal(float_literal(self.text(node)))
            }
            "character_literal" => Shape::Literal(LiteralType::Char),
            "string_literal" => Shape::Literal(LiteralType::Str),
            "true" | "false" => Shape::Literal(LiteralType::Bool),
            "null_literal" => Shape::Literal(LiteralType::None),
            _ => return None,
        };
        Some(shape)
    }

    #[inline(never)]
    fn cast(&mut self, node: Node, depth: u32) -> Shape {
        if let Some(v) = node.child_by_field_name("value") {
            self.walk(v, depth);
        }
        match node
            .child_by_field_name("type")
            .and_then(|t| self.type_ref(t, 0))
        {
            Some(t) => Shape::Lang(JavaShape::Cast(t)),
            None => Shape::Unknown,
        }
    }

    /// `c ? a : b`: the condition is walked for its calls; the value is one of
    /// the two branches.
    #[inline(never)]
    fn ternary(&mut self, node: Node, depth: u32) -> Shape {
        let field = |name| node.child_by_field_name(name);
        let (Some(condition), Some(a), Some(b)) = (
            field("condition"),
            field("consequence"),
            field("alternative"),
        ) else {
            self.children(node, depth);
            return Shape::Unknown;
        };
        self.walk(condition, depth);
        let a = self.walk(a, depth);
        let b = self.walk(b, depth);
        Shape::Lang(JavaShape::Either(Box::new(a), Box::new(b)))
    }

    fn children(&mut self, node: Node, depth: u32) {
        let mut cursor = node.walk();
        let kids: Vec<Node> = node.named_children(&mut cursor).collect();
        for child in kids {
            self.walk(child, depth);
        }
    }

    // ----- scopes, declarations, bindings -------------------------------------------------

    fn package(&mut self, node: Node) {
        let mut cursor = node.walk();
        for child in node.named_children(&mut cursor) {
            if matches!(child.kind(), "identifier" | "scoped_identifier") {
                self.facts.module = vec![self.dotted(child).join(".")];
            }
        }
    }

    fn import(&mut self, node: Node) {
        let mut is_static = false;
        let mut on_demand = false;
        let mut path = Vec::new();
        let mut cursor = node.walk();
        for child in node.children(&mut cursor) {
            match child.kind() {
                "static" => is_static = true,
                "asterisk" => on_demand = true,
                "identifier" | "scoped_identifier" => path = self.dotted(child),
                _ => {}
            }
        }
        if path.is_empty() {
            return;
        }
        let kind = match (is_static, on_demand) {
            (false, false) => ImportKind::JavaType { path },
            (false, true) => ImportKind::JavaOnDemand { path },
            (true, false) => ImportKind::JavaStatic { path },
            (true, true) => ImportKind::JavaStaticOnDemand { path },
        };
        let line = line_of(node);
        self.facts.imports.push(Import { line, kind });
    }

    /// `a.b.c` (a scoped_identifier) as its segments, walked iteratively.
    fn dotted(&self, node: Node) -> Vec<String> {
        let mut out = Vec::new();
        let mut cur = Some(node);
        while let Some(n) = cur {
            match n.kind() {
                "scoped_identifier" => {
                    if let Some(name) = n.child_by_field_name("name") {
                        out.push(self.text(name).to_string());
                    }
                    cur = n.child_by_field_name("scope");
                }
                _ => {
                    out.push(self.text(n).to_string());
                    cur = None;
                }
            }
        }
        out.reverse();
        out
    }

    fn type_declaration(&mut self, node: Node, depth: u32) {
        let kind = match node.kind() {
            "class_declaration" => DeclKind::Class,
            "enum_declaration" => DeclKind::Enum,
            "record_declaration" => DeclKind::Record,
            _ => DeclKind::Interface,
        };
        let Some(name_node) = node.child_by_field_name("name") else {
            return self.children(node, depth);
        };
        let name = self.text(name_node).to_string();
        let bases = self.written_bases(node);
        let type_params = self.type_parameters(node);
        let record_params = match node.child_by_field_name("parameters") {
            Some(p) if kind == DeclKind::Record => self.formal_parameters(p),
            _ => Vec::new(),
        };
        let fields = record_params
            .iter()
            .map(|p| Field {
                name: p.name.clone(),
                ty: p.ty.clone(),
                value: None,
                line: line_of(node),
                is_static: false,
                scope: self.scope,
            })
            .collect();
        let mut decl = Decl::new(
            name.clone(),
            kind,
            self.owner,
            self.scope,
            position_of(name_node),
            end_line_of(node),
        );
        decl.params = record_params;
        decl.is_static = has_modifier(node, "static");
        decl.bases = bases;
        decl.fields = fields;
        decl.type_params = type_params;
        decl.decorators = self.annotations(node);
        let idx = self.push_decl(decl);
        self.bind_if_local(&name, idx);
        if let Some(body) = node.child_by_field_name("body") {
            self.type_body(idx, body, depth);
        }
    }

    /// A local class is visible by name in its block, so it gets a binding there;
    /// member types are found through the index instead.
    fn bind_if_local(&mut self, name: &str, idx: DeclIdx) {
        let kind = self.facts.scopes[self.scope as usize].kind;
        if matches!(
            kind,
            ScopeKind::Function | ScopeKind::Lambda | ScopeKind::Block
        ) {
            let line = self.facts.decls[idx as usize].line;
            self.bind(name, line, BindingValue::Decl(idx));
        }
    }

    fn type_body(&mut self, idx: DeclIdx, body: Node, depth: u32) {
        let saved = (self.scope, self.owner);
        let scope = self.push_scope(ScopeKind::Class, Some(idx));
        self.facts.decls[idx as usize].body = Some(scope);
        self.scope = scope;
        self.owner = Some(idx);
        self.children(body, depth);
        (self.scope, self.owner) = saved;
    }

    /// Superclass first, then interfaces (`implements` or an interface's `extends`).
    fn written_bases(&self, node: Node) -> Vec<TypeRef> {
        let mut bases = Vec::new();
        if let Some(sc) = node.child_by_field_name("superclass") {
            bases.extend(self.types_in(sc));
        }
        if let Some(si) = node.child_by_field_name("interfaces") {
            bases.extend(self.types_in(si));
        }
        let mut cursor = node.walk();
        for child in node.named_children(&mut cursor) {
            if child.kind() == "extends_interfaces" {
                bases.extend(self.types_in(child));
            }
        }
        bases
    }

    /// The types listed under a `superclass` / `super_interfaces` / `type_list` node.
    fn types_in(&self, node: Node) -> Vec<TypeRef> {
        let mut out = Vec::new();
        let mut cursor = node.walk();
        for child in node.named_children(&mut cursor) {
            if child.kind() == "type_list" {
                out.extend(self.types_in(child));
            } else if let Some(t) = self.type_ref(child, 0) {
                out.push(t);
            }
        }
        out
    }

    /// `@A` / `@a.B(…)` on a declaration, in source order.
    fn annotations(&self, node: Node) -> Vec<Decorator> {
        let mut cursor = node.walk();
        let Some(modifiers) = node.children(&mut cursor).find(|c| c.kind() == "modifiers") else {
            return Vec::new();
        };
        let mut c2 = modifiers.walk();
        let out = modifiers
            .named_children(&mut c2)
            .filter(|a| matches!(a.kind(), "annotation" | "marker_annotation"))
            .filter_map(|a| {
                let name = a.child_by_field_name("name")?;
                Some(Decorator {
                    path: self.dotted(name),
                    called: a.child_by_field_name("arguments").is_some(),
                })
            })
            .collect();
        out
    }

    fn type_parameters(&self, node: Node) -> Vec<String> {
        let Some(tp) = node.child_by_field_name("type_parameters") else {
            return Vec::new();
        };
        let mut out = Vec::new();
        let mut cursor = tp.walk();
        for param in tp.named_children(&mut cursor) {
            let mut c2 = param.walk();
            let name = param
                .named_children(&mut c2)
                .find(|c| c.kind() == "type_identifier");
            if let Some(n) = name {
                out.push(self.text(n).to_string());
            }
        }
        out
    }

    fn formal_parameters(&self, node: Node) -> Vec<Param> {
        let mut out = Vec::new();
        let mut cursor = node.walk();
        for p in node.named_children(&mut cursor) {
            match p.kind() {
                "formal_parameter" => {
                    let name = p
                        .child_by_field_name("name")
                        .map(|n| self.text(n).to_string())
                        .unwrap_or_default();
                    let mut ty = p
                        .child_by_field_name("type")
                        .and_then(|t| self.type_ref(t, 0));
                    if let Some(dims) = p.child_by_field_name("dimensions") {
                        ty = ty.map(|t| array_of(t, dimension_count(dims)));
                    }
                    out.push(Param {
                        name,
                        ty,
                        variadic: false,
                        keyword_variadic: false,
                        has_default: false,
                        default: None,
                    });
                }
                "spread_parameter" => {
                    let mut ty = None;
                    let mut name = String::new();
                    let mut c2 = p.walk();
                    for part in p.named_children(&mut c2) {
                        match part.kind() {
                            "variable_declarator" => {
                                if let Some(n) = part.child_by_field_name("name") {
                                    name = self.text(n).to_string();
                                }
                            }
                            "modifiers" | "annotation" | "marker_annotation" => {}
                            _ => ty = ty.or_else(|| self.type_ref(part, 0)),
                        }
                    }
                    // The element type: `T... xs` accepts T arguments one by one.
                    out.push(Param {
                        name,
                        ty,
                        variadic: true,
                        keyword_variadic: false,
                        has_default: false,
                        default: None,
                    });
                }
                _ => {}
            }
        }
        out
    }

    /// A method, constructor, compact constructor or annotation element.
    fn callable(&mut self, node: Node, depth: u32) {
        let Some(name_node) = node.child_by_field_name("name") else {
            return self.children(node, depth);
        };
        let kind = match node.kind() {
            "constructor_declaration" | "compact_constructor_declaration" => DeclKind::Constructor,
            _ => DeclKind::Method,
        };
        let params = match node.child_by_field_name("parameters") {
            Some(p) => self.formal_parameters(p),
            // A compact constructor takes the record's components.
            None if kind == DeclKind::Constructor => self
                .current_type()
                .map(|t| self.facts.decls[t as usize].params.clone())
                .unwrap_or_default(),
            None => Vec::new(),
        };
        let returns = match kind {
            DeclKind::Method => node
                .child_by_field_name("type")
                .and_then(|t| self.type_ref(t, 0)),
            _ => None,
        };
        let name = self.text(name_node).to_string();
        let mut decl = Decl::new(
            name,
            kind,
            self.owner,
            self.scope,
            position_of(name_node),
            end_line_of(node),
        );
        decl.params = params;
        decl.is_static = has_modifier(node, "static");
        decl.returns = returns;
        decl.type_params = self.type_parameters(node);
        decl.decorators = self.annotations(node);
        let idx = self.push_decl(decl);
        let Some(body) = node.child_by_field_name("body") else {
            return;
        };
        let saved = (self.scope, self.owner);
        self.scope = self.push_scope(ScopeKind::Function, Some(idx));
        self.facts.decls[idx as usize].body = Some(self.scope);
        self.owner = Some(idx);
        self.bind_params(idx);
        self.frames.push(Frame {
            decl: idx,
            returns: 0,
            returns_this: 0,
        });
        // The body block is the function scope itself, not a nested block.
        self.children(body, depth);
        if let Some(frame) = self.frames.pop() {
            if frame.returns > 0 && frame.returns == frame.returns_this {
                self.facts.decls[frame.decl as usize].returns_value = Some(ReturnValue::SelfValue);
            }
        }
        (self.scope, self.owner) = saved;
    }

    fn bind_params(&mut self, idx: DeclIdx) {
        let line = self.facts.decls[idx as usize].line;
        let params = self.facts.decls[idx as usize].params.clone();
        for (i, p) in params.into_iter().enumerate() {
            // Inside the body a variadic parameter is an array.
            let ty = if p.variadic { p.ty.map(as_array) } else { p.ty };
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

    fn field_declaration(&mut self, node: Node, depth: u32) {
        let ty = node
            .child_by_field_name("type")
            .and_then(|t| self.type_ref(t, 0));
        let owner = self.current_type();
        let is_static = has_modifier(node, "static")
            || node.kind() == "constant_declaration"
            || owner.is_some_and(|t| self.facts.decls[t as usize].kind == DeclKind::Interface);
        let mut cursor = node.walk();
        let declarators: Vec<Node> = node
            .children_by_field_name("declarator", &mut cursor)
            .collect();
        for d in declarators {
            let Some(name) = d.child_by_field_name("name") else {
                continue;
            };
            let value = d.child_by_field_name("value").map(|v| self.walk(v, depth));
            let field_ty = with_dimensions(ty.clone(), d);
            let value = match value {
                Some(Shape::New(t)) => Some(ValueExpr::New(t)),
                _ => None,
            };
            if let Some(t) = owner {
                let field = Field {
                    name: self.text(name).to_string(),
                    ty: field_ty,
                    value,
                    line: line_of(name),
                    is_static,
                    scope: self.scope,
                };
                self.facts.decls[t as usize].fields.push(field);
            }
        }
        // Annotations and other children carry no calls worth walking twice.
    }

    /// `A(1) { … }`: a static field of the enum's own type, a construction when
    /// arguments are written, and an anonymous subclass when a body is.
    fn enum_constant(&mut self, node: Node, depth: u32) {
        let Some(owner) = self.current_type() else {
            return self.children(node, depth);
        };
        let enum_name = self.facts.decls[owner as usize].name.clone();
        if let Some(name) = node.child_by_field_name("name") {
            let field = Field {
                name: self.text(name).to_string(),
                ty: Some(TypeRef::simple(&enum_name)),
                value: None,
                line: line_of(name),
                is_static: true,
                scope: self.scope,
            };
            self.facts.decls[owner as usize].fields.push(field);
        }
        let anchor = node.child_by_field_name("name").unwrap_or(node);
        if let Some(args) = node.child_by_field_name("arguments") {
            // `A(1)` writes a call of the enum's constructor (named, like every
            // construction, by the type it builds); a bare `A` writes none.
            let args = self.arguments(Some(args), depth);
            let wrote = self.text(anchor).to_string();
            self.push_call(
                anchor,
                Callee::Name(enum_name.clone()),
                CallKind::New,
                args,
                0,
                wrote,
            );
        }
        if let Some(body) = node.child_by_field_name("body") {
            self.anonymous_class(TypeRef::simple(&enum_name), anchor, body, depth);
        }
    }

    fn local_declaration(&mut self, node: Node, depth: u32) {
        let type_node = node.child_by_field_name("type");
        let ty = type_node.and_then(|t| self.type_ref(t, 0));
        let mut cursor = node.walk();
        let declarators: Vec<Node> = node
            .children_by_field_name("declarator", &mut cursor)
            .collect();
        for d in declarators {
            let Some(name) = d.child_by_field_name("name") else {
                continue;
            };
            let value = d.child_by_field_name("value").map(|v| self.walk(v, depth));
            let ty = with_dimensions(ty.clone(), d);
            let binding = local_binding(ty, value);
            let name_text = self.text(name).to_string();
            self.bind(&name_text, line_of(name), binding);
        }
    }

    fn enhanced_for(&mut self, node: Node, depth: u32) {
        if let Some(v) = node.child_by_field_name("value") {
            self.walk(v, depth);
        }
        self.in_block_scope(|x| {
            let ty = node
                .child_by_field_name("type")
                .and_then(|t| x.type_ref(t, 0));
            if let Some(name) = node.child_by_field_name("name") {
                let ty = with_dimensions(ty, node);
                let value = match ty {
                    // `for (var x : xs)`: the element type is not written.
                    Some(t) if !is_var(&t) => BindingValue::Typed { ty: t, value: None },
                    _ => BindingValue::Opaque,
                };
                let n = x.text(name).to_string();
                x.bind(&n, line_of(name), value);
            }
            if let Some(body) = node.child_by_field_name("body") {
                x.walk(body, depth);
            }
        });
    }

    fn catch_clause(&mut self, node: Node, depth: u32) {
        self.in_block_scope(|x| {
            let mut cursor = node.walk();
            let kids: Vec<Node> = node.named_children(&mut cursor).collect();
            for child in kids {
                if child.kind() == "catch_formal_parameter" {
                    x.catch_parameter(child);
                } else {
                    x.walk(child, depth);
                }
            }
        });
    }

    /// `catch (T e)` types e; a multi-catch `A | B e` has no single written type.
    fn catch_parameter(&mut self, node: Node) {
        let Some(name) = node.child_by_field_name("name") else {
            return;
        };
        let mut types = Vec::new();
        let mut cursor = node.walk();
        for child in node.named_children(&mut cursor) {
            if child.kind() == "catch_type" {
                let mut c2 = child.walk();
                for t in child.named_children(&mut c2) {
                    if let Some(t) = self.type_ref(t, 0) {
                        types.push(t);
                    }
                }
            }
        }
        let value = match <[TypeRef; 1]>::try_from(types) {
            Ok([t]) => BindingValue::Typed { ty: t, value: None },
            Err(_) => BindingValue::Opaque,
        };
        let n = self.text(name).to_string();
        self.bind(&n, line_of(name), value);
    }

    /// A try-with-resources resource: `T r = expr` binds like a local.
    fn resource(&mut self, node: Node, depth: u32) {
        let value = node
            .child_by_field_name("value")
            .map(|v| self.walk(v, depth));
        match node.child_by_field_name("name") {
            Some(name) => {
                let ty = node
                    .child_by_field_name("type")
                    .and_then(|t| self.type_ref(t, 0));
                let binding = local_binding(ty, value);
                let n = self.text(name).to_string();
                self.bind(&n, line_of(name), binding);
            }
            None => self.children(node, depth),
        }
    }

    fn type_pattern(&mut self, node: Node) {
        let mut ty = None;
        let mut name = None;
        let mut cursor = node.walk();
        for child in node.named_children(&mut cursor) {
            if child.kind() == "identifier" {
                name = Some(child);
            } else if ty.is_none() {
                ty = self.type_ref(child, 0);
            }
        }
        if let (Some(t), Some(n)) = (ty, name) {
            let text = self.text(n).to_string();
            self.bind(
                &text,
                line_of(n),
                BindingValue::Typed { ty: t, value: None },
            );
        }
    }

    fn instanceof(&mut self, node: Node, depth: u32) -> Shape {
        if let Some(left) = node.child_by_field_name("left") {
            self.walk(left, depth);
        }
        if let Some(pattern) = node.child_by_field_name("pattern") {
            self.walk(pattern, depth);
        }
        let ty = node
            .child_by_field_name("right")
            .and_then(|t| self.type_ref(t, 0));
        if let (Some(t), Some(n)) = (ty, node.child_by_field_name("name")) {
            let text = self.text(n).to_string();
            self.bind(
                &text,
                line_of(n),
                BindingValue::Typed { ty: t, value: None },
            );
        }
        Shape::Literal(LiteralType::Bool)
    }

    fn return_statement(&mut self, node: Node, depth: u32) {
        let shape = node.named_child(0).map(|e| self.walk(e, depth));
        let returns_this = matches!(&shape, Some(Shape::Path(p)) if p.len() == 1 && p[0] == "this");
        if let Some(frame) = self.frames.last_mut() {
            frame.returns += 1;
            frame.returns_this += u32::from(returns_this);
        }
    }

    fn lambda(&mut self, node: Node, depth: u32) -> Shape {
        self.lambdas += 1;
        let params = match node.child_by_field_name("parameters") {
            Some(p) if p.kind() == "formal_parameters" => self.formal_parameters(p),
            Some(p) if p.kind() == "identifier" => vec![untyped_param(self.text(p))],
            Some(p) => {
                let mut cursor = p.walk();
                let names: Vec<&str> = p
                    .named_children(&mut cursor)
                    .map(|n| self.text(n))
                    .collect();
                names.into_iter().map(untyped_param).collect()
            }
            None => Vec::new(),
        };
        let name = format!("<lambda{}>", self.lambdas);
        let mut decl = Decl::new(
            name,
            DeclKind::Lambda,
            self.owner,
            self.scope,
            position_of(node),
            end_line_of(node),
        );
        decl.params = params;
        let idx = self.push_decl(decl);
        let saved = (self.scope, self.owner);
        self.scope = self.push_scope(ScopeKind::Lambda, Some(idx));
        self.facts.decls[idx as usize].body = Some(self.scope);
        self.owner = Some(idx);
        self.bind_params(idx);
        self.frames.push(Frame {
            decl: idx,
            returns: 0,
            returns_this: 0,
        });
        if let Some(body) = node.child_by_field_name("body") {
            if body.kind() == "block" {
                self.children(body, depth);
            } else {
                self.walk(body, depth);
            }
        }
        self.frames.pop();
        (self.scope, self.owner) = saved;
        Shape::Lang(JavaShape::Lambda(Some(idx)))
    }

    fn anonymous_class(&mut self, base: TypeRef, anchor: Node, body: Node, depth: u32) {
        self.anonymous += 1;
        let name = format!("<anonymous{}>", self.anonymous);
        let mut decl = Decl::new(
            name,
            DeclKind::Class,
            self.owner,
            self.scope,
            position_of(anchor),
            end_line_of(body),
        );
        decl.bases = vec![base];
        let idx = self.push_decl(decl);
        self.type_body(idx, body, depth);
    }

    // ----- calls ---------------------------------------------------------------------------

    fn arguments(&mut self, node: Option<Node>, depth: u32) -> Vec<ArgShape> {
        let Some(node) = node else { return Vec::new() };
        let mut cursor = node.walk();
        let kids: Vec<Node> = node.named_children(&mut cursor).collect();
        kids.into_iter()
            .filter(|k| !k.is_extra())
            .map(|k| self.walk(k, depth).arg())
            .collect()
    }

    /// A call written at `name` with nothing spread: Java has no splat.
    fn push_call(
        &mut self,
        name: Node,
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
            ..CallSite::new(name, callee, wrote)
        };
        push_call(&mut self.facts, self.owner, self.scope, site)
    }

    /// `m(…)`, `recv.m(…)`, `super.m(…)`.
    fn invocation(&mut self, node: Node, depth: u32) -> Shape {
        let Some(name) = node.child_by_field_name("name") else {
            self.children(node, depth);
            return Shape::Unknown;
        };
        let object = node.child_by_field_name("object");
        let mut receiver = object.map(|o| self.walk(o, depth).receiver());
        // `X.super.m()` calls an interface's default method: not the superclass's.
        let mut cursor = node.walk();
        let qualified_super = object.is_some_and(|o| o.kind() != "super")
            && node.children(&mut cursor).any(|c| c.kind() == "super");
        if qualified_super {
            receiver = Some(Receiver::Unknown);
        }
        let type_args = count_named(node.child_by_field_name("type_arguments"));
        let args = self.arguments(node.child_by_field_name("arguments"), depth);
        let m = self.text(name).to_string();
        let callee = match receiver {
            None => Callee::Name(m),
            Some(receiver) => Callee::Member { receiver, name: m },
        };
        let wrote = self.wrote(node.start_byte(), name.end_byte());
        Shape::Call(self.push_call(name, callee, CallKind::Call, args, type_args, wrote))
    }

    /// `new T(…)`, `new a.b.T(…)`, `outer.new Inner(…)`, `new T(…) { … }`.
    fn creation(&mut self, node: Node, depth: u32) -> Shape {
        let Some(type_node) = node.child_by_field_name("type") else {
            self.children(node, depth);
            return Shape::Unknown;
        };
        let Some(ty) = self.type_ref(type_node, 0) else {
            self.children(node, depth);
            return Shape::Unknown;
        };
        let args_node = node.child_by_field_name("arguments");
        let mut outer = None;
        let mut body = None;
        let mut cursor = node.walk();
        for child in node.named_children(&mut cursor) {
            if child.id() == type_node.id() || Some(child.id()) == args_node.map(|a| a.id()) {
                continue;
            }
            match child.kind() {
                "class_body" => body = Some(child),
                "type_arguments" | "annotation" | "marker_annotation" | "line_comment"
                | "block_comment" => {}
                _ => outer = outer.or(Some(child)),
            }
        }
        let outer_receiver = outer.map(|o| self.walk(o, depth).receiver());
        let args = self.arguments(args_node, depth);
        let last = ty.last().unwrap_or_default().to_string();
        let callee = match outer_receiver {
            Some(receiver) => Callee::Member {
                receiver,
                name: last,
            },
            None if ty.path.len() > 1 => Callee::Member {
                receiver: Receiver::Path(ty.path[..ty.path.len() - 1].to_vec()),
                name: last,
            },
            None => Callee::Name(last),
        };
        let name_token = type_name_token(type_node);
        let wrote = format!(
            "new {}",
            self.wrote(type_node.start_byte(), type_node.end_byte())
        );
        let type_args = count_named(node.child_by_field_name("type_arguments"));
        let idx = self.push_call(name_token, callee, CallKind::New, args, type_args, wrote);
        match body {
            Some(b) => {
                // Declared at the construction's own name token: the resolver finds
                // the class the construction reaches by that position.
                self.anonymous_class(ty.clone(), name_token, b, depth);
                Shape::Lang(JavaShape::Anonymous(ty, idx))
            }
            None => Shape::New(ty),
        }
    }

    /// `super(…)` / `this(…)` / `outer.super(…)` at the start of a constructor.
    fn constructor_chain(&mut self, node: Node, depth: u32) -> Shape {
        let Some(ctor) = node.child_by_field_name("constructor") else {
            self.children(node, depth);
            return Shape::Unknown;
        };
        if let Some(object) = node.child_by_field_name("object") {
            self.walk(object, depth);
        }
        let args = self.arguments(node.child_by_field_name("arguments"), depth);
        let word = self.text(ctor).to_string();
        let type_args = count_named(node.child_by_field_name("type_arguments"));
        self.push_call(
            ctor,
            Callee::Name(word.clone()),
            CallKind::ConstructorChain,
            args,
            type_args,
            word,
        );
        Shape::Unknown
    }

    /// `Type::m`, `this::m`, `expr::m`, `Type::new`: a function used as a value.
    fn method_reference(&mut self, node: Node, depth: u32) -> Shape {
        let mut cursor = node.walk();
        let kids: Vec<Node> = node.children(&mut cursor).collect();
        let Some(sep) = kids.iter().position(|k| k.kind() == "::") else {
            self.children(node, depth);
            return Shape::Lang(JavaShape::Lambda(None));
        };
        let Some(&name) = kids[sep + 1..]
            .iter()
            .find(|k| k.kind() == "identifier" || k.kind() == "new")
        else {
            return Shape::Lang(JavaShape::Lambda(None));
        };
        let receiver = match kids[..sep].iter().find(|k| k.is_named() && !k.is_extra()) {
            Some(&r) => match r.kind() {
                "identifier"
                | "field_access"
                | "this"
                | "super"
                | "method_invocation"
                | "parenthesized_expression"
                | "object_creation_expression" => self.walk(r, depth).receiver(),
                // A written type (`List<String>::size`, `int[]::clone`).
                _ => match self.type_ref(r, 0) {
                    Some(t) if !t.array => Receiver::Path(t.path),
                    _ => Receiver::Unknown,
                },
            },
            None => Receiver::Unknown,
        };
        let wrote = self.wrote(node.start_byte(), name.end_byte());
        self.facts.refs.push(ValueRef {
            line: line_of(name),
            column: column_of(name),
            caller: self.owner,
            scope: self.scope,
            target: Callee::Member {
                receiver,
                name: self.text(name).to_string(),
            },
            wrote,
            escapes: true,
        });
        Shape::Lang(JavaShape::Lambda(None))
    }

    fn field_access(&mut self, node: Node, depth: u32) -> Shape {
        let base = match node.child_by_field_name("object") {
            Some(o) => self.walk(o, depth),
            None => Shape::Unknown,
        };
        let Some(field) = node.child_by_field_name("field") else {
            return Shape::Unknown;
        };
        if field.kind() == "this" {
            // `Outer.this`: the enclosing instance of the named class.
            return match base {
                Shape::Name(n) => Shape::Lang(JavaShape::QualifiedThis(n)),
                Shape::Path(p) if p.first().is_some_and(|f| f != "this") => Shape::Lang(
                    JavaShape::QualifiedThis(p.last().cloned().unwrap_or_default()),
                ),
                _ => Shape::Unknown,
            };
        }
        let f = self.text(field).to_string();
        base.then(&f)
    }

    /// `a[i]`: the path `a`, `[]` (the element), so a receiver or argument
    /// `a[i]` is typed by a's element type.
    fn array_access(&mut self, node: Node, depth: u32) -> Shape {
        let base = match node.child_by_field_name("array") {
            Some(a) => self.walk(a, depth),
            None => Shape::Unknown,
        };
        if let Some(index) = node.child_by_field_name("index") {
            self.walk(index, depth);
        }
        base.then("[]")
    }

    /// Comparisons and logic are boolean; `"…" + x` is a String; arithmetic is
    /// left unknown (its type depends on both operands).
    fn binary(&mut self, node: Node, depth: u32) -> Shape {
        let left = node
            .child_by_field_name("left")
            .map(|l| self.walk(l, depth));
        let right = node
            .child_by_field_name("right")
            .map(|r| self.walk(r, depth));
        let op = node
            .child_by_field_name("operator")
            .map(|o| o.kind())
            .unwrap_or("");
        let is_str = |s: &Option<Shape>| matches!(s, Some(Shape::Literal(LiteralType::Str)));
        match op {
            "==" | "!=" | "<" | "<=" | ">" | ">=" | "&&" | "||" => {
                Shape::Literal(LiteralType::Bool)
            }
            "+" if is_str(&left) || is_str(&right) => Shape::Literal(LiteralType::Str),
            _ => Shape::Unknown,
        }
    }

    fn unary(&mut self, node: Node, depth: u32) -> Shape {
        let operand = node
            .child_by_field_name("operand")
            .map(|o| self.walk(o, depth));
        let op = node
            .child_by_field_name("operator")
            .map(|o| o.kind())
            .unwrap_or("");
        match (op, operand) {
            ("!", _) => Shape::Literal(LiteralType::Bool),
            ("-" | "+", Some(Shape::Literal(l))) => Shape::Literal(l),
            _ => Shape::Unknown,
        }
    }

    /// The callee as written, for people: whitespace collapsed, long text cut to
    /// its tail (reading only a bounded slice keeps the cost linear).
    fn wrote(&self, start: usize, end: usize) -> String {
        core::wrote(self.src, start, end)
    }

    // ----- types ---------------------------------------------------------------------------

    /// A written type as structure: `a.b.C<D, E>[]` → path, args, array flag.
    /// `void` is no type.
    fn type_ref(&self, node: Node, depth: u32) -> Option<TypeRef> {
        if depth > MAX_TYPE_DEPTH {
            return None;
        }
        let d = depth + 1;
        match node.kind() {
            "type_identifier"
            | "identifier"
            | "integral_type"
            | "floating_point_type"
            | "boolean_type" => Some(TypeRef::simple(self.text(node))),
            "scoped_type_identifier" | "scoped_identifier" => {
                let mut path = Vec::new();
                let mut args = Vec::new();
                let mut cursor = node.walk();
                for child in node.named_children(&mut cursor) {
                    if matches!(child.kind(), "annotation" | "marker_annotation") {
                        continue;
                    }
                    let t = self.type_ref(child, d)?;
                    path.extend(t.path);
                    args = t.args;
                }
                Some(TypeRef {
                    path,
                    args,
                    is_self: false,
                    array: false,
                })
            }
            "generic_type" => {
                let mut base: Option<TypeRef> = None;
                let mut args = Vec::new();
                let mut cursor = node.walk();
                for child in node.named_children(&mut cursor) {
                    if child.kind() == "type_arguments" {
                        let mut c2 = child.walk();
                        for a in child.named_children(&mut c2) {
                            if let Some(t) = self.type_argument(a, d) {
                                args.push(t);
                            }
                        }
                    } else if base.is_none() {
                        base = self.type_ref(child, d);
                    }
                }
                base.map(|b| TypeRef { args, ..b })
            }
            "array_type" => {
                let dims = node
                    .child_by_field_name("dimensions")
                    .map_or(1, dimension_count);
                node.child_by_field_name("element")
                    .and_then(|e| self.type_ref(e, d))
                    .map(|t| array_of(t, dims))
            }
            "annotated_type" => {
                let mut cursor = node.walk();
                let inner = node
                    .named_children(&mut cursor)
                    .find(|c| !matches!(c.kind(), "annotation" | "marker_annotation"));
                inner.and_then(|i| self.type_ref(i, d))
            }
            _ => None,
        }
    }

    /// A type argument; a wildcard `? extends T` stands for its bound, `?` for itself.
    fn type_argument(&self, node: Node, depth: u32) -> Option<TypeRef> {
        if node.kind() != "wildcard" {
            return self.type_ref(node, depth);
        }
        let mut cursor = node.walk();
        let bound = node
            .named_children(&mut cursor)
            .find(|c| !matches!(c.kind(), "annotation" | "marker_annotation" | "super"));
        let is_super = {
            let mut c2 = node.walk();
            let found = node.children(&mut c2).any(|c| c.kind() == "super");
            found
        };
        match bound {
            Some(b) if !is_super => self.type_ref(b, depth),
            _ => Some(TypeRef::simple("?")),
        }
    }
}

/// What a local declaration binds: the written type, or for `var` what the
/// initializer shows (a construction, a call's result, a cast).
fn local_binding(ty: Option<TypeRef>, value: Option<Shape>) -> BindingValue {
    match ty {
        Some(t) if is_var(&t) => match value {
            Some(Shape::Lang(JavaShape::Cast(t))) => BindingValue::Typed { ty: t, value: None },
            Some(Shape::New(t)) => BindingValue::Value(ValueExpr::New(t)),
            Some(v) => BindingValue::Value(v.value()),
            None => BindingValue::Opaque,
        },
        Some(t) => BindingValue::Typed {
            ty: t,
            value: value.map(Shape::value),
        },
        None => BindingValue::Opaque,
    }
}

fn is_var(t: &TypeRef) -> bool {
    t.path.len() == 1 && t.path[0] == "var" && t.args.is_empty() && !t.array
}

/// `T[]`. An array of arrays has one `array` flag to spend, so `T[][]` is an
/// array (empty path) whose single type argument is its element type `T[]`.
fn as_array(mut t: TypeRef) -> TypeRef {
    if t.array {
        return TypeRef {
            path: Vec::new(),
            args: vec![t],
            is_self: false,
            array: true,
        };
    }
    t.array = true;
    t
}

fn array_of(mut t: TypeRef, dims: usize) -> TypeRef {
    for _ in 0..dims {
        t = as_array(t);
    }
    t
}

/// How many `[]` a `dimensions` node writes.
fn dimension_count(dims: Node) -> usize {
    let mut cursor = dims.walk();
    let n = dims
        .children(&mut cursor)
        .filter(|c| c.kind() == "[")
        .count();
    n.max(1)
}

/// A declarator's own `[]` (`int x[]`) added to the declared type.
fn with_dimensions(ty: Option<TypeRef>, declarator: Node) -> Option<TypeRef> {
    match declarator.child_by_field_name("dimensions") {
        Some(dims) => ty.map(|t| array_of(t, dimension_count(dims))),
        None => ty,
    }
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

fn integer_literal(text: &str) -> LiteralType {
    if text.ends_with(['l', 'L']) {
        LiteralType::Long
    } else {
        LiteralType::Int
    }
}

fn float_literal(text: &str) -> LiteralType {
    if text.ends_with(['f', 'F']) {
        LiteralType::Float
    } else {
        LiteralType::Double
    }
}

fn has_modifier(node: Node, word: &str) -> bool {
    let mut cursor = node.walk();
    let modifiers = node.children(&mut cursor).find(|c| c.kind() == "modifiers");
    modifiers.is_some_and(|m| {
        let mut c2 = m.walk();
        let found = m.children(&mut c2).any(|c| c.kind() == word);
        found
    })
}

fn count_named(node: Option<Node>) -> u32 {
    node.map(|n| n.named_child_count() as u32).unwrap_or(0)
}

/// The token that names the constructed type: `ArrayList` in
/// `new java.util.ArrayList<>()`.
fn type_name_token(node: Node) -> Node {
    let mut cur = node;
    for _ in 0..MAX_TYPE_DEPTH {
        let next = match cur.kind() {
            "generic_type" | "annotated_type" => {
                cur.named_child(0).filter(|c| c.kind() != "type_arguments")
            }
            "scoped_type_identifier" => {
                let n = cur.named_child_count();
                (0..n)
                    .rev()
                    .filter_map(|i| cur.named_child(i))
                    .find(|c| c.kind() == "type_identifier")
            }
            _ => None,
        };
        match next {
            Some(n) => cur = n,
            None => break,
        }
    }
    cur
}

fn end_line_of(node: Node) -> u32 {
    node.end_position().row as u32 + 1
}

/// (line, column) of a node's first byte, 1-based.
fn position_of(node: Node) -> (u32, u32) {
    (line_of(node), column_of(node))
}
