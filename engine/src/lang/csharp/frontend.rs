//! C# frontend: one syntax tree (of the bytes the preprocessor left, see
//! `preprocess.rs`) → FileFacts, in one walk while the tree is alive, on the shared
//! expression core (`lang/core.rs`).
//!
//! Every structure a later stage reads is extracted here: a callee is a receiver
//! (a path of names, a call's result, `base`, a construction, a cast…) plus a name,
//! an argument is an [`ArgShape`], a type is a [`TypeRef`] (a nullable value type
//! `T?` is `System.Nullable<T>`, an array sets `array`). The walk is recursive but
//! bounded: past [`MAX_DEPTH`] levels it stops descending and counts a parse error.
//!
//! What is declared: namespaces (`module`, and each top-level type's
//! `scope_path`), types (class, struct, interface, enum, record, delegate) with
//! their type parameters, constraints and bases; methods, constructors, local
//! functions, destructors, operators (`operator+`) and conversions (`operator
//! implicit`); properties, indexers (`this[]`) and events with accessors, as
//! methods marked `is_property` (they are callers, never the target of a call
//! site); an explicit interface implementation is named `IFoo.M`, so a simple
//! name never finds it; lambdas and anonymous methods (`<lambdaN>`).

use tree_sitter::Node;

use crate::facts::{
    ArgShape, BindingValue, CallKind, Callee, Decl, DeclIdx, DeclKind, Decorator, Field, FileFacts,
    Import, ImportKind, LiteralType, Param, Receiver, ReturnValue, ScopeIdx, ScopeKind, TypeRef,
    ValueExpr, ValueRef,
};
use crate::lang::classes::{self, FactsWalk};
use crate::lang::core::{self, push_call, CallSite, LangShape, MAX_DEPTH};
use crate::lang::syntax::{children, column_of, line_of, named_children, ErrorCount};
use crate::lang::Language;

/// Type syntax nests far less than expressions; a bound keeps `type_ref` safe too.
const MAX_TYPE_DEPTH: u32 = 64;

/// The path segment of an element read (`a[i]`): the element of a's type.
pub const ELEMENT: &str = "[]";

/// The first segment of a path written from the global namespace (`global::N.T`).
pub const GLOBAL: &str = "global::";

/// The modifiers member lookup reads, kept as one-segment decorators.
const LOOKUP_MODIFIERS: &[&str] = &[
    "override", "virtual", "abstract", "new", "sealed", "partial", "extern", "private",
];

pub fn extract(path: &str, source: &[u8], tree: &tree_sitter::Tree) -> FileFacts {
    let mut x = Extractor::new(path, source);
    x.walk(tree.root_node(), 0);
    let mut facts = x.facts;
    facts.parse_errors = x.errors.total(tree);
    facts
}

/// What only C# writes, on top of the core's shapes.
#[derive(Debug, Clone)]
pub enum Ext {
    /// A lambda or anonymous method declared at this index.
    Lambda(DeclIdx),
    /// `(T) x`, `x as T`: a value of static type T.
    Cast(TypeRef),
    /// `base`.
    Base,
    /// `c ? a : b`, `a ?? b`: one of two values.
    Either(Box<CsShape>, Box<CsShape>),
}

type CsShape = core::Shape<Ext>;
use core::Shape;

impl LangShape for Ext {
    fn receiver(self) -> Receiver {
        match self {
            // The static type of `(T) x` is T: for member lookup it reads like `new T()`.
            Ext::Cast(t) => Receiver::New(t),
            Ext::Base => Receiver::Super,
            Ext::Lambda(_) | Ext::Either(..) => Receiver::Unknown,
        }
    }

    fn arg(self) -> ArgShape {
        match self {
            Ext::Lambda(d) => ArgShape::Function(d),
            Ext::Cast(t) => ArgShape::Cast(t),
            Ext::Either(a, b) => ArgShape::Either(Box::new(a.arg()), Box::new(b.arg())),
            Ext::Base => ArgShape::Unknown,
        }
    }

    fn value(self) -> ValueExpr {
        match self {
            Ext::Lambda(d) => ValueExpr::Lambda(d),
            _ => ValueExpr::Unknown,
        }
    }
}

/// A method, accessor or lambda being walked: counts its `return`s to learn
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
    /// The namespace being walked (`N.M` is `["N", "M"]`).
    namespace: Vec<String>,
    frames: Vec<Frame>,
    lambdas: u32,
    errors: ErrorCount,
}

classes::facts_walk!(Extractor<'_>);

impl<'s> Extractor<'s> {
    fn new(path: &str, src: &'s [u8]) -> Extractor<'s> {
        Extractor {
            src,
            facts: FileFacts::new(path, Language::CSharp),
            scope: 0,
            owner: None,
            namespace: Vec::new(),
            frames: Vec::new(),
            lambdas: 0,
            errors: ErrorCount::default(),
        }
    }

    fn text(&self, node: Node) -> &'s str {
        crate::lang::node_text(self.src, node)
    }

    /// The walk: visits every node once (up to the depth bound) and answers what
    /// an expression is.
    fn walk(&mut self, node: Node, depth: u32) -> CsShape {
        if self.errors.too_deep(depth, MAX_DEPTH) {
            return Shape::Unknown;
        }
        self.errors.note(node);
        let d = depth + 1;
        match node.kind() {
            "comment" | "attribute_list" | "global_attribute" | "extern_alias_directive" => {
                Shape::Unknown
            }
            "compilation_unit" => {
                self.compilation_unit(node, d);
                Shape::Unknown
            }
            "using_directive" => {
                self.using(node);
                Shape::Unknown
            }
            "namespace_declaration" => {
                self.namespace(node, d);
                Shape::Unknown
            }
            "class_declaration"
            | "struct_declaration"
            | "interface_declaration"
            | "enum_declaration"
            | "record_declaration"
            | "delegate_declaration" => {
                self.type_declaration(node, d);
                Shape::Unknown
            }
            "method_declaration"
            | "constructor_declaration"
            | "destructor_declaration"
            | "operator_declaration"
            | "conversion_operator_declaration"
            | "local_function_statement" => {
                self.callable(node, d);
                Shape::Unknown
            }
            "property_declaration" | "indexer_declaration" | "event_declaration" => {
                self.property(node, d);
                Shape::Unknown
            }
            "field_declaration" | "event_field_declaration" => {
                self.field_declaration(node, d);
                Shape::Unknown
            }
            "enum_member_declaration" => {
                self.enum_member(node, d);
                Shape::Unknown
            }
            "local_declaration_statement" => {
                for v in named_children(node).filter(|c| c.kind() == "variable_declaration") {
                    self.variable_declaration(v, d);
                }
                Shape::Unknown
            }
            "block" | "switch_section" | "for_statement" | "using_statement"
            | "fixed_statement" => {
                self.in_block_scope(|x| x.statement_children(node, d));
                Shape::Unknown
            }
            "foreach_statement" => {
                self.foreach(node, d);
                Shape::Unknown
            }
            "catch_clause" => {
                self.in_block_scope(|x| x.statement_children(node, d));
                Shape::Unknown
            }
            "catch_declaration" => {
                self.catch_declaration(node);
                Shape::Unknown
            }
            "variable_declaration" => {
                self.variable_declaration(node, d);
                Shape::Unknown
            }
            "declaration_expression" | "declaration_pattern" => {
                self.declaration_pattern(node);
                Shape::Unknown
            }
            "query_expression" => {
                self.in_block_scope(|x| x.query(node, d));
                Shape::Unknown
            }
            "return_statement" => {
                self.return_statement(node, d);
                Shape::Unknown
            }
            "arrow_expression_clause" => match expression_child(node) {
                Some(e) => self.walk(e, d),
                None => Shape::Unknown,
            },
            "lambda_expression" | "anonymous_method_expression" => self.lambda(node, d),
            "invocation_expression" => self.invocation(node, d),
            "object_creation_expression" => self.creation(node, d),
            "constructor_initializer" => {
                self.constructor_chain(node, d);
                Shape::Unknown
            }
            "member_access_expression" => self.member_access(node, d),
            "conditional_access_expression" => self.conditional_access(node, d),
            "element_access_expression" => self.element_access(node, d),
            "parenthesized_expression" => match expression_child(node) {
                Some(inner) => self.walk(inner, d),
                None => Shape::Unknown,
            },
            "cast_expression" => self.cast(node, "value", "type", d),
            "as_expression" => self.cast(node, "left", "right", d),
            "is_expression" | "is_pattern_expression" => {
                self.all_children(node, d);
                Shape::Literal(LiteralType::Bool)
            }
            "conditional_expression" => self.conditional(node, d),
            "binary_expression" => self.binary(node, d),
            "prefix_unary_expression" | "unary_expression" => self.unary(node, d),
            "assignment_expression" => {
                // The value first: a call on the right runs before the store.
                if let Some(r) = node.child_by_field_name("right") {
                    self.value(r, d);
                }
                if let Some(l) = node.child_by_field_name("left") {
                    self.walk(l, d);
                }
                Shape::Unknown
            }
            "initializer_expression" => {
                self.initializer(node, d);
                Shape::Unknown
            }
            "interpolated_string_expression" => {
                self.all_children(node, d);
                Shape::Literal(LiteralType::Str)
            }
            "typeof_expression" => Shape::New(system_type("Type")),
            "sizeof_expression" | "default_expression" => Shape::Unknown,
            kind => match self.leaf(node, kind) {
                Some(shape) => shape,
                None => {
                    self.all_children(node, d);
                    Shape::Unknown
                }
            },
        }
    }

    /// Names, `this` and literals: what they are, without walking below.
    #[inline(never)]
    fn leaf(&self, node: Node, kind: &str) -> Option<CsShape> {
        let shape = match kind {
            "identifier" => Shape::Name(self.text(node).to_string()),
            // `string.Format`, `int.Parse`: the keyword names the type.
            "predefined_type" => Shape::Name(self.text(node).to_string()),
            "generic_name" => Shape::Name(first_identifier_text(self, node)?),
            "alias_qualified_name" => {
                let name = node.child_by_field_name("name")?;
                let alias = node.child_by_field_name("alias")?;
                if self.text(alias) != "global" {
                    return Some(Shape::Unknown);
                }
                Shape::Path(vec![GLOBAL.to_string(), self.type_name_text(name)])
            }
            "this" => Shape::Path(vec!["this".to_string()]),
            "base" => Shape::Lang(Ext::Base),
            "integer_literal" => match integer_literal(self.text(node)) {
                Some(l) => Shape::Literal(l),
                None => Shape::Unknown,
            },
            "real_literal" => match real_literal(self.text(node)) {
                Some(l) => Shape::Literal(l),
                None => Shape::Unknown,
            },
            "character_literal" => Shape::Literal(LiteralType::Char),
            "string_literal" | "verbatim_string_literal" | "raw_string_literal" => {
                Shape::Literal(LiteralType::Str)
            }
            "boolean_literal" => Shape::Literal(LiteralType::Bool),
            "null_literal" => Shape::Literal(LiteralType::None),
            _ => return None,
        };
        Some(shape)
    }

    fn type_name_text(&self, node: Node) -> String {
        match node.kind() {
            "generic_name" => first_identifier_text(self, node).unwrap_or_default(),
            _ => self.text(node).to_string(),
        }
    }

    /// Every named child, in order.
    fn all_children(&mut self, node: Node, depth: u32) {
        for child in named_children(node) {
            self.walk(child, depth);
        }
    }

    /// A statement's parts: named children, and `this`/`base` tokens a value may be.
    fn statement_children(&mut self, node: Node, depth: u32) {
        self.all_children(node, depth);
    }

    // ----- scopes, declarations, bindings -------------------------------------------------

    /// A file-scoped namespace (`namespace N;`) holds every declaration after it.
    fn compilation_unit(&mut self, node: Node, depth: u32) {
        for child in named_children(node) {
            if child.kind() == "file_scoped_namespace_declaration" {
                if let Some(name) = child.child_by_field_name("name") {
                    let segments = self.dotted(name);
                    self.enter_namespace(segments);
                }
                continue;
            }
            self.walk(child, depth);
        }
    }

    /// Opens the body scope of a namespace declaration and records the namespace;
    /// returns what to restore when the body is done.
    fn enter_namespace(&mut self, segments: Vec<String>) -> (ScopeIdx, usize) {
        let saved = (self.scope, self.namespace.len());
        self.namespace.extend(segments);
        let dotted = self.namespace.join(".");
        if !self.facts.module.contains(&dotted) {
            self.facts.module.push(dotted);
        }
        self.scope = self.push_scope(ScopeKind::Block, None);
        saved
    }

    fn namespace(&mut self, node: Node, depth: u32) {
        let segments = node
            .child_by_field_name("name")
            .map(|n| self.dotted(n))
            .unwrap_or_default();
        let saved = self.enter_namespace(segments);
        if let Some(body) = node.child_by_field_name("body") {
            self.all_children(body, depth);
        }
        self.scope = saved.0;
        self.namespace.truncate(saved.1);
    }

    /// `using N.M;`, `using A = N.M.T;`, `using static N.T;`.
    fn using(&mut self, node: Node) {
        let is_static = children(node).any(|c| c.kind() == "static");
        let alias = node
            .child_by_field_name("name")
            .map(|n| self.text(n).to_string());
        let target = named_children(node)
            .filter(|c| Some(c.id()) != node.child_by_field_name("name").map(|n| n.id()))
            .find(|c| c.kind() != "comment");
        let Some(target) = target else { return };
        let path = match self.type_ref(target, 0) {
            Some(t) if !t.array => t.path,
            _ => return,
        };
        if path.is_empty() {
            return;
        }
        self.facts.imports.push(Import {
            line: line_of(node),
            kind: ImportKind::CSharpUsing {
                path,
                alias,
                is_static,
                namespace: self.namespace.clone(),
                scope: self.scope,
            },
        });
    }

    /// `a.b.c` (a qualified_name or identifier) as its segments, walked iteratively.
    fn dotted(&self, node: Node) -> Vec<String> {
        let mut out = Vec::new();
        let mut cur = Some(node);
        for _ in 0..MAX_TYPE_DEPTH {
            let Some(n) = cur else { break };
            match n.kind() {
                "qualified_name" => {
                    if let Some(name) = n.child_by_field_name("name") {
                        out.push(self.type_name_text(name));
                    }
                    cur = n.child_by_field_name("qualifier");
                }
                _ => {
                    out.push(self.type_name_text(n));
                    cur = None;
                }
            }
        }
        out.reverse();
        out
    }

    fn type_declaration(&mut self, node: Node, depth: u32) {
        let kind = match node.kind() {
            "interface_declaration" => DeclKind::Interface,
            "enum_declaration" => DeclKind::Enum,
            "record_declaration" => DeclKind::Record,
            _ => DeclKind::Class,
        };
        let Some(name_node) = node.child_by_field_name("name") else {
            return self.all_children(node, depth);
        };
        let name = self.text(name_node).to_string();
        let mut decl = Decl::new(
            name.clone(),
            kind,
            self.owner,
            self.scope,
            position_of(name_node),
            end_line_of(node),
        );
        if self.owner.is_none() {
            decl.scope_path = self.namespace.clone();
        }
        decl.bases = self.written_bases(node);
        decl.type_params = self.type_parameters(node);
        decl.type_param_bounds = self.constraints(node);
        decl.is_static = has_modifier(node, "static");
        decl.decorators = self.decorators(node);
        match node.kind() {
            "struct_declaration" => decl.decorators.push(keyword("struct")),
            "delegate_declaration" => {
                decl.decorators.push(keyword("delegate"));
                decl.params = node
                    .child_by_field_name("parameters")
                    .map(|p| self.parameters(p))
                    .unwrap_or_default();
                decl.returns = node
                    .child_by_field_name("type")
                    .and_then(|t| self.type_ref(t, 0));
            }
            _ => {}
        }
        let idx = self.push_decl(decl);
        self.bind_if_local(&name, idx);
        if let Some(body) = node.child_by_field_name("body") {
            self.type_body(idx, body, depth);
        }
    }

    /// A local function is visible by name in its block.
    fn bind_if_local(&mut self, name: &str, idx: DeclIdx) {
        let kind = self.facts.scopes[self.scope as usize].kind;
        if matches!(
            kind,
            ScopeKind::Function | ScopeKind::Lambda | ScopeKind::Block
        ) && self.owner.is_some()
        {
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
        self.all_children(body, depth);
        (self.scope, self.owner) = saved;
    }

    /// The base list as written: a class's base class first when it has one
    /// (C# requires it first), then interfaces.
    fn written_bases(&self, node: Node) -> Vec<TypeRef> {
        let Some(list) = named_children(node).find(|c| c.kind() == "base_list") else {
            return Vec::new();
        };
        named_children(list)
            .filter_map(|b| match b.kind() {
                // A record's `: Base(args)`.
                "primary_constructor_base_type" => b
                    .child_by_field_name("type")
                    .and_then(|t| self.type_ref(t, 0)),
                _ => self.type_ref(b, 0),
            })
            .collect()
    }

    fn type_parameters(&self, node: Node) -> Vec<String> {
        let Some(list) = node
            .child_by_field_name("type_parameters")
            .or_else(|| named_children(node).find(|c| c.kind() == "type_parameter_list"))
        else {
            return Vec::new();
        };
        named_children(list)
            .filter(|p| p.kind() == "type_parameter")
            .filter_map(|p| p.child_by_field_name("name"))
            .map(|n| self.text(n).to_string())
            .collect()
    }

    /// `where T : IFoo, Base, new()`: the types each constrained parameter is bound to.
    fn constraints(&self, node: Node) -> Vec<(String, Vec<TypeRef>)> {
        named_children(node)
            .filter(|c| c.kind() == "type_parameter_constraints_clause")
            .filter_map(|clause| {
                let mut kids = named_children(clause);
                let name = kids.find(|c| c.kind() == "identifier")?;
                let bounds: Vec<TypeRef> = named_children(clause)
                    .filter(|c| c.kind() == "type_parameter_constraint")
                    .filter_map(|c| c.child_by_field_name("type"))
                    .filter_map(|t| self.type_ref(t, 0))
                    .collect();
                Some((self.text(name).to_string(), bounds))
            })
            .filter(|(_, b)| !b.is_empty())
            .collect()
    }

    /// Attributes (`[Obsolete]`, `[a.B(…)]`) then the modifiers member lookup reads.
    fn decorators(&self, node: Node) -> Vec<Decorator> {
        let mut out = Vec::new();
        for child in named_children(node) {
            match child.kind() {
                "attribute_list" => {
                    for a in named_children(child).filter(|a| a.kind() == "attribute") {
                        let Some(name) = a.child_by_field_name("name") else {
                            continue;
                        };
                        out.push(Decorator {
                            path: self.dotted(name),
                            called: named_children(a)
                                .any(|c| c.kind() == "attribute_argument_list"),
                        });
                    }
                }
                "modifier" => {
                    let word = self.text(child);
                    if LOOKUP_MODIFIERS.contains(&word) {
                        out.push(keyword(word));
                    }
                }
                _ => {}
            }
        }
        out
    }

    /// A parameter list: `(T a, ref T b, this T c, T d = 1, params T[] e)`; the
    /// grammar writes a `params` parameter's parts straight into the list.
    fn parameters(&self, list: Node) -> Vec<Param> {
        let mut out = Vec::new();
        let mut params_pending = false;
        let mut pending_type: Option<TypeRef> = None;
        for (i, child) in children(list).enumerate() {
            let field = list.field_name_for_child(i as u32);
            match (child.kind(), field) {
                ("parameter", _) => out.push(self.parameter(child)),
                ("params", _) => params_pending = true,
                (_, Some("type")) if params_pending => pending_type = self.type_ref(child, 0),
                (_, Some("name")) if params_pending => {
                    out.push(Param {
                        name: self.text(child).to_string(),
                        // The element type: `params T[] xs` accepts T arguments one by one.
                        ty: pending_type.take().map(element_of),
                        variadic: true,
                        keyword_variadic: false,
                        has_default: false,
                        default: None,
                    });
                    params_pending = false;
                }
                _ => {}
            }
        }
        out
    }

    fn parameter(&self, p: Node) -> Param {
        let name = p
            .child_by_field_name("name")
            .map(|n| self.text(n).to_string())
            .unwrap_or_default();
        let ty = p
            .child_by_field_name("type")
            .and_then(|t| self.type_ref(t, 0));
        let has_default = children(p).any(|c| c.kind() == "=");
        Param {
            name,
            ty,
            variadic: false,
            keyword_variadic: false,
            has_default,
            default: None,
        }
    }

    /// The type a first parameter written `this T x` extends, when it is one.
    fn extended_type(&self, list: Node) -> Option<TypeRef> {
        let first = named_children(list).next()?;
        if first.kind() != "parameter" {
            return None;
        }
        let is_this =
            named_children(first).any(|c| c.kind() == "modifier" && self.text(c) == "this");
        if !is_this {
            return None;
        }
        first
            .child_by_field_name("type")
            .and_then(|t| self.type_ref(t, 0))
    }

    /// What a callable declaration is named: a method by its name (`IFoo.M` for an
    /// explicit implementation), a constructor by its class, an operator by
    /// `operator` and its token, a conversion by `operator implicit`/`explicit`.
    fn callable_name<'t>(&self, node: Node<'t>) -> Option<(String, Node<'t>)> {
        match node.kind() {
            "operator_declaration" => {
                let op = node.child_by_field_name("operator")?;
                Some((format!("operator{}", self.text(op)), op))
            }
            "conversion_operator_declaration" => {
                let word = children(node).find(|c| matches!(c.kind(), "implicit" | "explicit"))?;
                Some((format!("operator {}", self.text(word)), word))
            }
            "destructor_declaration" => {
                let name = node.child_by_field_name("name")?;
                Some((format!("~{}", self.text(name)), name))
            }
            _ => {
                let name = node.child_by_field_name("name")?;
                let text = self.text(name).to_string();
                match named_children(node).find(|c| c.kind() == "explicit_interface_specifier") {
                    Some(spec) => Some((format!("{}.{text}", self.interface_of(spec)), name)),
                    None => Some((text, name)),
                }
            }
        }
    }

    /// The interface an explicit implementation names (its last identifier).
    fn interface_of(&self, spec: Node) -> String {
        let Some(t) = named_children(spec).next() else {
            return String::new();
        };
        self.dotted(t).pop().unwrap_or_default()
    }

    /// A method, constructor, destructor, operator, conversion or local function.
    fn callable(&mut self, node: Node, depth: u32) {
        let Some((name, name_node)) = self.callable_name(node) else {
            return self.all_children(node, depth);
        };
        let kind = match node.kind() {
            "constructor_declaration" => DeclKind::Constructor,
            "local_function_statement" => DeclKind::Function,
            _ => DeclKind::Method,
        };
        let params_node = node.child_by_field_name("parameters");
        let params = params_node.map(|p| self.parameters(p)).unwrap_or_default();
        let returns = match node.kind() {
            "method_declaration" => node.child_by_field_name("returns"),
            "constructor_declaration" | "destructor_declaration" => None,
            _ => node.child_by_field_name("type"),
        }
        .and_then(|t| self.type_ref(t, 0));
        let mut decl = Decl::new(
            name.clone(),
            kind,
            self.owner,
            self.scope,
            position_of(name_node),
            end_line_of(node),
        );
        decl.params = params;
        decl.is_static = has_modifier(node, "static")
            || matches!(
                node.kind(),
                "operator_declaration" | "conversion_operator_declaration"
            );
        decl.returns = returns;
        decl.type_params = self.type_parameters(node);
        decl.type_param_bounds = self.constraints(node);
        decl.decorators = self.decorators(node);
        if decl.is_static {
            decl.impl_of = params_node.and_then(|p| self.extended_type(p));
        }
        let idx = self.push_decl(decl);
        if kind == DeclKind::Function {
            self.bind_if_local(&name, idx);
        }
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
        // `: base(…)` / `: this(…)` runs inside the constructor, before its body.
        if let Some(init) = named_children(node).find(|c| c.kind() == "constructor_initializer") {
            self.walk(init, depth);
        }
        if let Some(body) = node.child_by_field_name("body") {
            self.body(body, depth);
        }
        self.finish_frame();
        (self.scope, self.owner) = saved;
    }

    /// A body in the function scope itself: a block's statements, or an
    /// expression body (`=> expr`), which returns its value.
    fn body(&mut self, body: Node, depth: u32) {
        match body.kind() {
            "block" => self.all_children(body, depth),
            "arrow_expression_clause" => {
                let shape = self.walk(body, depth);
                self.count_return(&shape);
            }
            _ => {
                let shape = self.walk(body, depth);
                self.count_return(&shape);
            }
        }
    }

    fn finish_frame(&mut self) {
        if let Some(frame) = self.frames.pop() {
            if frame.returns > 0 && frame.returns == frame.returns_this {
                self.facts.decls[frame.decl as usize].returns_value = Some(ReturnValue::SelfValue);
            }
        }
    }

    fn bind_params(&mut self, idx: DeclIdx) {
        let line = self.facts.decls[idx as usize].line;
        let params = self.facts.decls[idx as usize].params.clone();
        for (i, p) in params.into_iter().enumerate() {
            // Inside the body a `params` parameter is an array.
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

    /// A property, indexer or event: a declaration whose accessors are its body
    /// (a caller, never a call's target), and a field of its type on the type.
    fn property(&mut self, node: Node, depth: u32) {
        let ty = node
            .child_by_field_name("type")
            .and_then(|t| self.type_ref(t, 0));
        let explicit = named_children(node).find(|c| c.kind() == "explicit_interface_specifier");
        let (name, name_node) = match node.kind() {
            "indexer_declaration" => {
                let token = children(node).find(|c| c.kind() == "this").unwrap_or(node);
                ("this[]".to_string(), token)
            }
            _ => match node.child_by_field_name("name") {
                Some(n) => (self.text(n).to_string(), n),
                None => return self.all_children(node, depth),
            },
        };
        let name = match explicit {
            Some(spec) => format!("{}.{name}", self.interface_of(spec)),
            None => name,
        };
        let is_static = has_modifier(node, "static");
        if let (Some(owner), None) = (self.current_type(), explicit) {
            let field_name = if node.kind() == "indexer_declaration" {
                ELEMENT.to_string()
            } else {
                name.clone()
            };
            let field = Field {
                name: field_name,
                ty: ty.clone(),
                value: None,
                line: line_of(name_node),
                is_static,
                scope: self.scope,
            };
            self.facts.decls[owner as usize].fields.push(field);
        }
        let mut decl = Decl::new(
            name,
            DeclKind::Method,
            self.owner,
            self.scope,
            position_of(name_node),
            end_line_of(node),
        );
        decl.is_property = true;
        decl.is_static = is_static;
        decl.returns = ty;
        decl.decorators = self.decorators(node);
        if let Some(p) = node.child_by_field_name("parameters") {
            decl.params = self.parameters(p);
        }
        let idx = self.push_decl(decl);
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
        if let Some(accessors) = node.child_by_field_name("accessors") {
            for accessor in named_children(accessors).filter(|a| a.kind() == "accessor_declaration")
            {
                if let Some(body) = accessor.child_by_field_name("body") {
                    self.in_block_scope(|x| x.body(body, depth));
                }
            }
        }
        // An expression body (`=> expr`) or an initializer (`= expr`).
        if let Some(value) = node.child_by_field_name("value") {
            self.body(value, depth);
        }
        self.finish_frame();
        (self.scope, self.owner) = saved;
    }

    fn field_declaration(&mut self, node: Node, depth: u32) {
        let Some(declaration) = named_children(node).find(|c| c.kind() == "variable_declaration")
        else {
            return;
        };
        let ty = declaration
            .child_by_field_name("type")
            .and_then(|t| self.type_ref(t, 0));
        let owner = self.current_type();
        let is_static = has_modifier(node, "static") || has_modifier(node, "const");
        for d in named_children(declaration).filter(|c| c.kind() == "variable_declarator") {
            let Some(name) = d.child_by_field_name("name") else {
                continue;
            };
            let value = declarator_value(d).map(|v| self.value(v, depth));
            let value = match value {
                Some(Shape::New(t)) => Some(ValueExpr::New(t)),
                _ => None,
            };
            if let Some(t) = owner {
                let field = Field {
                    name: self.text(name).to_string(),
                    ty: ty.clone(),
                    value,
                    line: line_of(name),
                    is_static,
                    scope: self.scope,
                };
                self.facts.decls[t as usize].fields.push(field);
            }
        }
    }

    /// `A = 1`: a static field of the enum's own type.
    fn enum_member(&mut self, node: Node, depth: u32) {
        let Some(owner) = self.current_type() else {
            return self.all_children(node, depth);
        };
        if let Some(value) = node.child_by_field_name("value") {
            self.walk(value, depth);
        }
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
    }

    /// `T x = v, y;` / `var x = v;`: locals (and `for`/`using` resources).
    fn variable_declaration(&mut self, node: Node, depth: u32) {
        let ty = node
            .child_by_field_name("type")
            .and_then(|t| self.type_ref(t, 0));
        for d in named_children(node).filter(|c| c.kind() == "variable_declarator") {
            let Some(name) = d.child_by_field_name("name") else {
                continue;
            };
            let value = declarator_value(d).map(|v| self.value(v, depth));
            let binding = local_binding(ty.clone(), value);
            let text = self.text(name).to_string();
            self.bind(&text, line_of(name), binding);
        }
    }

    /// `foreach (T x in xs)`: x is a T; `foreach (var x in xs)` one element of xs.
    fn foreach(&mut self, node: Node, depth: u32) {
        let collection = node
            .child_by_field_name("right")
            .map(|r| self.walk(r, depth));
        self.in_block_scope(|x| {
            let ty = node
                .child_by_field_name("type")
                .and_then(|t| x.type_ref(t, 0));
            if let Some(left) = node
                .child_by_field_name("left")
                .filter(|l| l.kind() == "identifier")
            {
                let value = match ty {
                    Some(t) if !is_var(&t) => BindingValue::Typed { ty: t, value: None },
                    _ => match collection {
                        Some(c) => BindingValue::Value(ValueExpr::Element(Box::new(c.value()))),
                        None => BindingValue::Opaque,
                    },
                };
                let n = x.text(left).to_string();
                x.bind(&n, line_of(left), value);
            }
            if let Some(body) = node.child_by_field_name("body") {
                x.walk(body, depth);
            }
        });
    }

    /// `catch (T e)`.
    fn catch_declaration(&mut self, node: Node) {
        let (Some(name), Some(ty)) = (
            node.child_by_field_name("name"),
            node.child_by_field_name("type")
                .and_then(|t| self.type_ref(t, 0)),
        ) else {
            return;
        };
        let n = self.text(name).to_string();
        self.bind(&n, line_of(name), BindingValue::Typed { ty, value: None });
    }

    /// `out var x`, `out T x`, `is T x`, `case T x:`.
    fn declaration_pattern(&mut self, node: Node) {
        let Some(name) = node
            .child_by_field_name("name")
            .filter(|n| n.kind() == "identifier")
        else {
            return;
        };
        let ty = node
            .child_by_field_name("type")
            .and_then(|t| self.type_ref(t, 0));
        let value = match ty {
            Some(t) if !is_var(&t) => BindingValue::Typed { ty: t, value: None },
            _ => BindingValue::Opaque,
        };
        let n = self.text(name).to_string();
        self.bind(&n, line_of(name), value);
    }

    /// `from x in xs where … select …`: the range variables are typed only when
    /// written (`from T x in xs`); the clauses' calls are sites.
    fn query(&mut self, node: Node, depth: u32) {
        for clause in named_children(node) {
            if matches!(clause.kind(), "from_clause" | "join_clause" | "let_clause") {
                let ty = clause
                    .child_by_field_name("type")
                    .and_then(|t| self.type_ref(t, 0));
                let name = clause
                    .child_by_field_name("name")
                    .or_else(|| named_children(clause).find(|c| c.kind() == "identifier"));
                for part in named_children(clause) {
                    if Some(part.id()) != name.map(|n| n.id())
                        && Some(part.id()) != clause.child_by_field_name("type").map(|t| t.id())
                    {
                        self.walk(part, depth);
                    }
                }
                if let Some(name) = name {
                    let value = match ty {
                        Some(t) => BindingValue::Typed { ty: t, value: None },
                        None => BindingValue::Opaque,
                    };
                    let n = self.text(name).to_string();
                    self.bind(&n, line_of(name), value);
                }
            } else {
                self.walk(clause, depth);
            }
        }
    }

    fn return_statement(&mut self, node: Node, depth: u32) {
        let shape = expression_child(node).map(|e| self.value(e, depth));
        match shape {
            Some(s) => self.count_return(&s),
            None => {
                if let Some(frame) = self.frames.last_mut() {
                    frame.returns += 1;
                }
            }
        }
    }

    fn count_return(&mut self, shape: &CsShape) {
        let returns_this = matches!(shape, Shape::Path(p) if p.len() == 1 && p[0] == "this");
        if let Some(frame) = self.frames.last_mut() {
            frame.returns += 1;
            frame.returns_this += u32::from(returns_this);
        }
    }

    /// `x => …`, `(T x, U y) => …`, `delegate (T x) { … }`.
    fn lambda(&mut self, node: Node, depth: u32) -> CsShape {
        self.lambdas += 1;
        let params = match node.child_by_field_name("parameters") {
            Some(p) if p.kind() == "parameter_list" => self.parameters(p),
            Some(p) if p.kind() == "implicit_parameter" || p.kind() == "identifier" => {
                vec![untyped_param(self.text(p))]
            }
            Some(p) => named_children(p)
                .map(|n| untyped_param(self.text(n)))
                .collect(),
            None => named_children(node)
                .find(|c| c.kind() == "parameter_list")
                .map(|p| self.parameters(p))
                .unwrap_or_default(),
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
        let body = node
            .child_by_field_name("body")
            .or_else(|| named_children(node).find(|c| c.kind() == "block"));
        if let Some(body) = body {
            self.body(body, depth);
        }
        self.frames.pop();
        (self.scope, self.owner) = saved;
        Shape::Lang(Ext::Lambda(idx))
    }

    // ----- calls ---------------------------------------------------------------------------

    /// An expression in a place that takes a value (an argument, the right of an
    /// assignment, an initializer, a `return`): a bare name or a member read
    /// there may be a method group converted to a delegate (`+= OnClick`,
    /// `new EventHandler(this.OnClick)`, `list.ForEach(Print)`), so it is kept as
    /// a reference; the resolver keeps only those that name a method.
    fn value(&mut self, node: Node, depth: u32) -> CsShape {
        let shape = self.walk(node, depth);
        let name = match node.kind() {
            "identifier" => Some(node),
            "member_access_expression" => node
                .child_by_field_name("name")
                .filter(|n| n.kind() == "identifier"),
            _ => None,
        };
        if let Some(name) = name {
            self.method_group(node, name, &shape);
        }
        shape
    }

    /// A possible method group `M` or `recv.M`, at the name's token.
    fn method_group(&mut self, node: Node, name: Node, shape: &CsShape) {
        let target = match shape {
            Shape::Name(n) => Callee::Name(n.clone()),
            Shape::Path(p) if p.len() > 1 => Callee::Member {
                receiver: Receiver::Path(p[..p.len() - 1].to_vec()),
                name: p[p.len() - 1].clone(),
            },
            Shape::CallThen(c, p) if !p.is_empty() => Callee::Member {
                receiver: match p.len() {
                    1 => Receiver::Call(*c),
                    n => Receiver::CallThen {
                        call: *c,
                        path: p[..n - 1].to_vec(),
                    },
                },
                name: p[p.len() - 1].clone(),
            },
            _ => return,
        };
        let wrote = core::wrote(self.src, node.start_byte(), name.end_byte());
        self.facts.refs.push(ValueRef {
            line: line_of(name),
            column: column_of(name),
            caller: self.owner,
            scope: self.scope,
            target,
            wrote,
            escapes: true,
        });
    }

    /// The arguments of a call, positional and named (named ones also by name).
    fn arguments(
        &mut self,
        node: Option<Node>,
        depth: u32,
    ) -> (Vec<ArgShape>, Vec<(String, ArgShape)>) {
        let Some(node) = node else {
            return (Vec::new(), Vec::new());
        };
        let mut positional = Vec::new();
        let mut named = Vec::new();
        for arg in named_children(node).filter(|a| a.kind() == "argument") {
            let shape = match expression_child_except(arg, arg.child_by_field_name("name")) {
                Some(e) => self.value(e, depth).arg(),
                None => ArgShape::Unknown,
            };
            if let Some(n) = arg.child_by_field_name("name") {
                named.push((self.text(n).to_string(), shape.clone()));
            }
            positional.push(shape);
        }
        (positional, named)
    }

    fn push(&mut self, site: CallSite, keywords: Vec<(String, ArgShape)>) -> u32 {
        let idx = push_call(&mut self.facts, self.owner, self.scope, site);
        if !keywords.is_empty() {
            self.facts.calls[idx as usize].keywords = keywords;
        }
        idx
    }

    /// `M(…)`, `M<T>(…)`, `recv.M(…)`, `recv?.M(…)`, `base.M(…)`; `nameof(x)` is
    /// no call; anything else called (`f()()`, `a[0]()`, `(x)()`) is computed.
    fn invocation(&mut self, node: Node, depth: u32) -> CsShape {
        let Some(function) = node.child_by_field_name("function") else {
            self.all_children(node, depth);
            return Shape::Unknown;
        };
        if function.kind() == "identifier" && self.text(function) == "nameof" {
            return Shape::Literal(LiteralType::Str);
        }
        let callee = match function.kind() {
            "identifier" => Some((function, None, 0)),
            "generic_name" => {
                first_identifier(function).map(|n| (n, None, type_arg_count(function)))
            }
            "member_access_expression" => function.child_by_field_name("name").and_then(|name| {
                let (token, targs) = name_token(name)?;
                let receiver = function
                    .child_by_field_name("expression")
                    .map(|e| self.walk(e, depth).receiver())
                    .unwrap_or(Receiver::Unknown);
                Some((token, Some(receiver), targs))
            }),
            "conditional_access_expression" => {
                let binding =
                    named_children(function).find(|c| c.kind() == "member_binding_expression");
                binding
                    .and_then(|b| b.child_by_field_name("name"))
                    .and_then(name_token)
                    .map(|(token, targs)| {
                        let receiver = function
                            .child_by_field_name("condition")
                            .map(|c| self.walk(c, depth).receiver())
                            .unwrap_or(Receiver::Unknown);
                        (token, Some(receiver), targs)
                    })
            }
            _ => None,
        };
        let Some((name, receiver, type_args)) = callee else {
            // A computed callee: the function expression's own calls are sites.
            let f = self.walk(function, depth);
            let (args, keywords) = self.arguments(node.child_by_field_name("arguments"), depth);
            let callee = match f {
                Shape::Call(i) => Callee::Result(i),
                _ => Callee::Dynamic,
            };
            let wrote = core::wrote(self.src, function.start_byte(), function.end_byte());
            let mut site = CallSite::new(function, callee, wrote);
            site.args = args;
            return Shape::Call(self.push(site, keywords));
        };
        let (args, keywords) = self.arguments(node.child_by_field_name("arguments"), depth);
        let m = self.text(name).to_string();
        let callee = match receiver {
            None => Callee::Name(m),
            Some(receiver) => Callee::Member { receiver, name: m },
        };
        let wrote = core::wrote(self.src, function.start_byte(), name.end_byte());
        let mut site = CallSite::new(name, callee, wrote);
        site.args = args;
        site.type_args = type_args;
        Shape::Call(self.push(site, keywords))
    }

    /// `new T(…)`, `new N.T<A>(…) { … }`: a construction named by its type, at the
    /// type's last identifier.
    fn creation(&mut self, node: Node, depth: u32) -> CsShape {
        let type_node = node.child_by_field_name("type");
        let ty = type_node.and_then(|t| self.type_ref(t, 0));
        let (Some(type_node), Some(ty)) = (type_node, ty) else {
            self.all_children(node, depth);
            return Shape::Unknown;
        };
        let (args, keywords) = self.arguments(node.child_by_field_name("arguments"), depth);
        let last = ty.last().unwrap_or_default().to_string();
        let callee = if ty.path.len() > 1 {
            Callee::Member {
                receiver: Receiver::Path(ty.path[..ty.path.len() - 1].to_vec()),
                name: last,
            }
        } else {
            Callee::Name(last)
        };
        let token = type_name_token(type_node);
        let wrote = format!(
            "new {}",
            core::wrote(self.src, type_node.start_byte(), type_node.end_byte())
        );
        let mut site = CallSite::new(token, callee, wrote);
        site.kind = CallKind::New;
        site.args = args;
        site.type_args = ty.args.len() as u32;
        self.push(site, keywords);
        if let Some(init) = node.child_by_field_name("initializer") {
            self.initializer(init, depth);
        }
        Shape::New(ty)
    }

    /// An object or collection initializer: `{ A = f(), B = { … }, [k] = v }`,
    /// `{ x, y }`, `{ { k, v } }`. A member named on the left is no value.
    fn initializer(&mut self, node: Node, depth: u32) {
        for child in named_children(node) {
            if child.kind() == "assignment_expression" {
                let left = child.child_by_field_name("left");
                if let Some(r) = child.child_by_field_name("right") {
                    self.value(r, depth);
                }
                if let Some(l) = left.filter(|l| l.kind() != "identifier") {
                    self.walk(l, depth);
                }
            } else {
                self.value(child, depth);
            }
        }
    }

    /// `: base(…)` / `: this(…)`: a constructor call named by its keyword, at it.
    fn constructor_chain(&mut self, node: Node, depth: u32) {
        let Some(word) = children(node).find(|c| matches!(c.kind(), "base" | "this")) else {
            return self.all_children(node, depth);
        };
        let list = named_children(node).find(|c| c.kind() == "argument_list");
        let (args, keywords) = self.arguments(list, depth);
        let text = self.text(word).to_string();
        let mut site = CallSite::new(word, Callee::Name(text.clone()), text);
        site.kind = CallKind::ConstructorChain;
        site.args = args;
        self.push(site, keywords);
    }

    fn member_access(&mut self, node: Node, depth: u32) -> CsShape {
        let base = match node.child_by_field_name("expression") {
            Some(e) => self.walk(e, depth),
            None => Shape::Unknown,
        };
        let Some(name) = node.child_by_field_name("name") else {
            return Shape::Unknown;
        };
        let segment = self.type_name_text(name);
        base.then(&segment)
    }

    /// `a?.b` (not called): a's member b.
    fn conditional_access(&mut self, node: Node, depth: u32) -> CsShape {
        let base = match node.child_by_field_name("condition") {
            Some(c) => self.walk(c, depth),
            None => Shape::Unknown,
        };
        let binding = named_children(node).find(|c| {
            c.kind() != "comment"
                && Some(c.id()) != node.child_by_field_name("condition").map(|n| n.id())
        });
        match binding {
            Some(b) if b.kind() == "member_binding_expression" => {
                match b.child_by_field_name("name") {
                    Some(name) => {
                        let segment = self.type_name_text(name);
                        base.then(&segment)
                    }
                    None => Shape::Unknown,
                }
            }
            Some(b) => {
                self.walk(b, depth);
                Shape::Unknown
            }
            None => Shape::Unknown,
        }
    }

    /// `a[i]`: the element of a's type (the path `a`, `[]`).
    fn element_access(&mut self, node: Node, depth: u32) -> CsShape {
        let base = match node.child_by_field_name("expression") {
            Some(e) => self.walk(e, depth),
            None => Shape::Unknown,
        };
        if let Some(subscript) = node.child_by_field_name("subscript") {
            self.arguments(Some(subscript), depth);
        }
        base.then(ELEMENT)
    }

    /// `(T)v` and `v as T`: the value is walked, the expression is a `T` (the
    /// grammar names the value and the type by other fields in each).
    fn cast(&mut self, node: Node, value: &str, ty: &str, depth: u32) -> CsShape {
        if let Some(v) = node.child_by_field_name(value) {
            self.walk(v, depth);
        }
        match node
            .child_by_field_name(ty)
            .and_then(|t| self.type_ref(t, 0))
        {
            Some(t) => Shape::Lang(Ext::Cast(t)),
            None => Shape::Unknown,
        }
    }

    fn conditional(&mut self, node: Node, depth: u32) -> CsShape {
        let field = |name| node.child_by_field_name(name);
        let (Some(condition), Some(a), Some(b)) = (
            field("condition"),
            field("consequence"),
            field("alternative"),
        ) else {
            self.all_children(node, depth);
            return Shape::Unknown;
        };
        self.walk(condition, depth);
        let a = self.walk(a, depth);
        let b = self.walk(b, depth);
        Shape::Lang(Ext::Either(Box::new(a), Box::new(b)))
    }

    /// Comparisons and logic are boolean; `"…" + x` is a string; `a ?? b` one of
    /// the two; arithmetic is left unknown (its type depends on both operands).
    fn binary(&mut self, node: Node, depth: u32) -> CsShape {
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
        let is_str = |s: &Option<CsShape>| matches!(s, Some(Shape::Literal(LiteralType::Str)));
        match op {
            "==" | "!=" | "<" | "<=" | ">" | ">=" | "&&" | "||" => {
                Shape::Literal(LiteralType::Bool)
            }
            "+" if is_str(&left) || is_str(&right) => Shape::Literal(LiteralType::Str),
            "??" => match (left, right) {
                (Some(l), Some(r)) => Shape::Lang(Ext::Either(Box::new(l), Box::new(r))),
                _ => Shape::Unknown,
            },
            _ => Shape::Unknown,
        }
    }

    fn unary(&mut self, node: Node, depth: u32) -> CsShape {
        let operand = node
            .child_by_field_name("argument")
            .or_else(|| expression_child(node))
            .map(|o| self.walk(o, depth));
        let op = children(node)
            .find(|c| !c.is_named())
            .map(|o| o.kind())
            .unwrap_or("");
        match (op, operand) {
            ("!", _) => Shape::Literal(LiteralType::Bool),
            ("-" | "+", Some(Shape::Literal(l))) => Shape::Literal(l),
            _ => Shape::Unknown,
        }
    }

    // ----- types ---------------------------------------------------------------------------

    /// A written type as structure: `N.C<D, E>[]` → path, args, array flag; `T?`
    /// is `System.Nullable<T>`; `void`, pointers and tuples are no type.
    fn type_ref(&self, node: Node, depth: u32) -> Option<TypeRef> {
        if depth > MAX_TYPE_DEPTH {
            return None;
        }
        let d = depth + 1;
        match node.kind() {
            "identifier" => Some(TypeRef::simple(self.text(node))),
            "predefined_type" => match self.text(node) {
                "void" => None,
                t => Some(TypeRef::simple(t)),
            },
            "implicit_type" => Some(TypeRef::simple("var")),
            "generic_name" => {
                let name = first_identifier(node)?;
                let args = named_children(node)
                    .find(|c| c.kind() == "type_argument_list")
                    .map(|list| {
                        named_children(list)
                            .map(|a| self.type_ref(a, d).unwrap_or_else(|| TypeRef::simple("?")))
                            .collect()
                    })
                    .unwrap_or_default();
                Some(TypeRef {
                    path: vec![self.text(name).to_string()],
                    args,
                    is_self: false,
                    array: false,
                })
            }
            "qualified_name" => {
                let qualifier = self.type_ref(node.child_by_field_name("qualifier")?, d)?;
                let name = self.type_ref(node.child_by_field_name("name")?, d)?;
                let mut path = qualifier.path;
                path.extend(name.path);
                Some(TypeRef {
                    path,
                    args: name.args,
                    is_self: false,
                    array: false,
                })
            }
            "alias_qualified_name" => {
                let alias = node.child_by_field_name("alias")?;
                if self.text(alias) != "global" {
                    return None;
                }
                let name = self.type_ref(node.child_by_field_name("name")?, d)?;
                let mut path = vec![GLOBAL.to_string()];
                path.extend(name.path);
                Some(TypeRef { path, ..name })
            }
            "array_type" => {
                let element = self.type_ref(node.child_by_field_name("type")?, d)?;
                Some(as_array(element))
            }
            "nullable_type" => {
                let inner = self.type_ref(node.child_by_field_name("type")?, d)?;
                let mut t = system_type("Nullable");
                t.args = vec![inner];
                Some(t)
            }
            "ref_type" | "scoped_type" => self.type_ref(node.child_by_field_name("type")?, d),
            _ => None,
        }
    }
}

/// `System.T` written from the global namespace, so no type of the tree named
/// like a namespace segment can capture it.
pub fn system_type(name: &str) -> TypeRef {
    TypeRef {
        path: vec![GLOBAL.to_string(), "System".to_string(), name.to_string()],
        args: Vec::new(),
        is_self: false,
        array: false,
    }
}

fn keyword(word: &str) -> Decorator {
    Decorator {
        path: vec![word.to_string()],
        called: false,
    }
}

/// What a local declaration binds: the written type, or for `var` what the
/// initializer shows (a construction, a call's result, a cast).
fn local_binding(ty: Option<TypeRef>, value: Option<CsShape>) -> BindingValue {
    match ty {
        Some(t) if is_var(&t) => match value {
            Some(Shape::Lang(Ext::Cast(t))) => BindingValue::Typed { ty: t, value: None },
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
pub fn as_array(mut t: TypeRef) -> TypeRef {
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

/// The element type of an array type (`T[]` → T, `T[][]` → `T[]`).
pub fn element_of(t: TypeRef) -> TypeRef {
    if !t.array {
        return t;
    }
    if t.path.is_empty() {
        if let Some(inner) = t.args.into_iter().next() {
            return inner;
        }
        return TypeRef::simple("?");
    }
    TypeRef { array: false, ..t }
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

/// `1`, `1L`, `0x10`: int or long; `1u`, `1UL` have no literal type of their own.
fn integer_literal(text: &str) -> Option<LiteralType> {
    let lower = text.to_ascii_lowercase();
    if lower.ends_with("ul") || lower.ends_with("lu") || lower.ends_with('u') {
        return None;
    }
    if lower.ends_with('l') {
        return Some(LiteralType::Long);
    }
    Some(LiteralType::Int)
}

/// `1.0`, `1d`: double; `1f`: float; `1m` (decimal) has none of its own.
fn real_literal(text: &str) -> Option<LiteralType> {
    match text.chars().last().map(|c| c.to_ascii_lowercase()) {
        Some('f') => Some(LiteralType::Float),
        Some('m') => None,
        _ => Some(LiteralType::Double),
    }
}

fn has_modifier(node: Node, word: &str) -> bool {
    named_children(node).any(|c| c.kind() == "modifier" && children(c).any(|k| k.kind() == word))
}

/// The first identifier of a generic name (`M` in `M<T>`).
fn first_identifier(node: Node) -> Option<Node> {
    named_children(node).find(|c| c.kind() == "identifier")
}

fn first_identifier_text(x: &Extractor, node: Node) -> Option<String> {
    first_identifier(node).map(|n| x.text(n).to_string())
}

fn type_arg_count(generic: Node) -> u32 {
    named_children(generic)
        .find(|c| c.kind() == "type_argument_list")
        .map_or(0, |l| l.named_child_count() as u32)
}

/// The called name's token and its type-argument count (`M` in `a.M<T>`).
fn name_token(name: Node) -> Option<(Node, u32)> {
    match name.kind() {
        "identifier" => Some((name, 0)),
        "generic_name" => first_identifier(name).map(|n| (n, type_arg_count(name))),
        _ => None,
    }
}

/// The token that names the constructed type: `List` in `new System.Collections.Generic.List<int>()`.
fn type_name_token(node: Node) -> Node {
    let mut cur = node;
    for _ in 0..MAX_TYPE_DEPTH {
        let next = match cur.kind() {
            "generic_name" => first_identifier(cur),
            "qualified_name" | "alias_qualified_name" => cur.child_by_field_name("name"),
            "nullable_type" => cur.child_by_field_name("type"),
            _ => None,
        };
        match next {
            Some(n) => cur = n,
            None => break,
        }
    }
    cur
}

/// A node's value expression: the last child that is named (not a comment) or
/// a `this`/`base` token (the grammar leaves those anonymous).
fn expression_child(node: Node) -> Option<Node> {
    expression_child_except(node, None)
}

fn expression_child_except<'t>(node: Node<'t>, except: Option<Node<'t>>) -> Option<Node<'t>> {
    children(node)
        .filter(|c| Some(c.id()) != except.map(|e| e.id()))
        .filter(|c| {
            (c.is_named() && c.kind() != "comment" && c.kind() != "modifier")
                || matches!(c.kind(), "this" | "base")
        })
        .last()
}

/// A declarator's initializer: what follows its `=`.
fn declarator_value(d: Node) -> Option<Node> {
    let mut after_equals = false;
    for c in children(d) {
        if c.kind() == "=" {
            after_equals = true;
            continue;
        }
        if after_equals
            && ((c.is_named() && c.kind() != "comment") || matches!(c.kind(), "this" | "base"))
        {
            return Some(c);
        }
    }
    None
}

fn end_line_of(node: Node) -> u32 {
    node.end_position().row as u32 + 1
}

/// (line, column) of a node's first byte, 1-based.
fn position_of(node: Node) -> (u32, u32) {
    (line_of(node), column_of(node))
}
