//! Python frontend: one syntax tree → FileFacts, while the tree is alive.
//!
//! The walk is recursive with an explicit depth bound: past `MAX_DEPTH` nested
//! nodes it stops descending and counts a parse error, so a 50 000-level nested
//! expression is a recorded outcome, not a stack overflow.

use tree_sitter::Node;

use crate::facts::*;
use crate::lang::core::{self, LangShape};
use crate::lang::python::guards::{Condition, Guards};
use crate::lang::python::stubs;
use crate::lang::python::types::{
    attribute_path, dotted_string, plain_string, with_expression_statement, TypeReader,
};
use crate::lang::syntax::head_of;
use crate::lang::Language;

/// Python's own bound, lower than `core::MAX_DEPTH`: its walk was written with it,
/// and moving it would change what a deep file reports (its parse-error count).
const MAX_DEPTH: u32 = 1_500;
/// Python's `wrote` keeps the head of a long callee (`core::wrote` keeps the tail).
const MAX_WROTE: usize = 200;

/// `tree_wide` carries the build configuration (the interpreter the static guards
/// are evaluated for) and the tree's build files.
pub fn extract(
    path: &str,
    source: &[u8],
    tree: &tree_sitter::Tree,
    tree_wide: &crate::lang::TreeWide,
) -> FileFacts {
    let mut x = Extractor {
        src: source,
        python: tree_wide.config.python.clone(),
        facts: FileFacts {
            is_package_init: path == "__init__.py" || path.ends_with("/__init__.py"),
            ..FileFacts::new(path, Language::Python)
        },
        lambdas: 0,
        returns: Vec::new(),
        yields: Vec::new(),
        globals: Vec::new(),
        evaluated: Vec::new(),
    };
    let root = tree.root_node();
    x.count_errors(root);
    let cx = Ctx {
        scope: 0,
        caller: None,
        depth: 0,
        class: None,
        self_name: None,
    };
    x.block(root, &cx);
    x.place_evaluated();
    if stubs::is_stub_path(path) {
        stubs::keep_only_descriptions(&mut x.facts);
    }
    x.facts
}

/// Where the walk is: the scope names bind in, the declaration calls belong to,
/// the class whose body or method we are in, and the name of `self` there.
#[derive(Clone)]
struct Ctx {
    scope: ScopeIdx,
    caller: Option<DeclIdx>,
    depth: u32,
    class: Option<DeclIdx>,
    self_name: Option<String>,
}

impl Ctx {
    fn deeper(&self) -> Ctx {
        Ctx {
            depth: self.depth + 1,
            ..self.clone()
        }
    }
}

/// What the configured interpreter does with one branch of an `if`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Taken, or the condition is not decided: read as code.
    MayRun,
    /// Never taken.
    NotTaken,
    /// Read only by a type checker (`if TYPE_CHECKING:`).
    CheckerOnly,
}

/// One branch of an `if`: its condition (none for `else`), body, what the
/// interpreter does with it, and whether its condition is evaluated at all.
struct Branch<'t> {
    condition: Option<Node<'t>>,
    body: Node<'t>,
    mode: Mode,
    reached: bool,
}

/// What only Python adds to the shared expression core ([`core::Shape`]): values
/// the dispatch tables, unpacking and `super()` calls are read from.
#[derive(Debug, Clone)]
enum PyShape {
    Super,
    /// A string or integer literal, by value.
    Key(Key),
    Lambda(DeclIdx),
    Dict(Vec<(Key, Ex)>),
    Seq(Vec<Ex>),
    Subscript(Box<Ex>, Key),
    Slice(Box<Ex>, Option<i64>, Option<i64>),
}

impl LangShape for PyShape {
    fn receiver(self) -> Receiver {
        match self {
            PyShape::Super => Receiver::Super,
            PyShape::Key(k) => Receiver::Literal(k.literal_type()),
            _ => Receiver::Unknown,
        }
    }

    fn arg(self) -> ArgShape {
        match self {
            PyShape::Key(k) => ArgShape::Key(k),
            PyShape::Lambda(d) => ArgShape::Function(d),
            _ => ArgShape::Unknown,
        }
    }

    fn value(self) -> ValueExpr {
        match self {
            PyShape::Lambda(d) => ValueExpr::Lambda(d),
            PyShape::Key(k) => ValueExpr::Key(k),
            PyShape::Dict(entries) => {
                ValueExpr::Dict(entries.into_iter().map(|(k, v)| (k, v.value())).collect())
            }
            PyShape::Seq(items) => ValueExpr::Sequence(items.into_iter().map(Ex::value).collect()),
            PyShape::Subscript(base, key) => ValueExpr::Subscript {
                base: Box::new(base.value()),
                key,
            },
            PyShape::Slice(base, start, stop) => ValueExpr::Slice {
                base: Box::new(base.value()),
                start,
                stop,
            },
            PyShape::Super => ValueExpr::Unknown,
        }
    }
}

/// An expression as structure: what a receiver, a value or an argument is.
type Ex = core::Shape<PyShape>;

struct Extractor<'s> {
    src: &'s [u8],
    /// The interpreter `sys.version_info` / `sys.platform` guards are read for.
    python: crate::config::PythonConfig,
    facts: FileFacts,
    lambdas: u32,
    /// Per open function: what each `return` returned.
    returns: Vec<(DeclIdx, Vec<Option<ReturnValue>>)>,
    /// Per open function: what each `yield` handed out (`None` for `yield from` or
    /// anything but a bare name).
    yields: Vec<Vec<Option<ReturnValue>>>,
    /// `eval("f()")` sites waiting for the whole file (see `evaluated_literal`).
    evaluated: Vec<(String, Call)>,
    /// Per open function: names declared `global`.
    globals: Vec<Vec<String>>,
}

impl<'s> Extractor<'s> {
    fn text(&self, n: Node) -> &'s str {
        crate::lang::node_text(self.src, n)
    }

    fn count_errors(&mut self, root: Node) {
        // Iterative: the tree may be deeper than any stack.
        let mut cursor = root.walk();
        let mut count = 0u32;
        'outer: loop {
            let n = cursor.node();
            if n.is_error() || n.is_missing() {
                count += 1;
            }
            if n.has_error() && cursor.goto_first_child() {
                continue;
            }
            loop {
                if cursor.goto_next_sibling() {
                    continue 'outer;
                }
                if !cursor.goto_parent() {
                    break 'outer;
                }
            }
        }
        self.facts.parse_errors = count;
    }

    fn too_deep(&mut self, cx: &Ctx) -> bool {
        if cx.depth > MAX_DEPTH {
            self.facts.parse_errors += 1;
            return true;
        }
        false
    }

    fn new_scope(&mut self, kind: ScopeKind, parent: ScopeIdx, owner: Option<DeclIdx>) -> ScopeIdx {
        self.facts
            .scopes
            .push(Scope::new(kind, Some(parent), owner));
        (self.facts.scopes.len() - 1) as ScopeIdx
    }

    fn bind(&mut self, cx: &Ctx, name: &str, line: u32, value: BindingValue) {
        let scope = if self
            .globals
            .last()
            .is_some_and(|g| g.iter().any(|n| n == name))
        {
            0
        } else {
            cx.scope
        };
        self.facts.scopes[scope as usize].bindings.push(Binding {
            name: name.to_string(),
            line,
            value,
        });
    }

    // ---- statements -------------------------------------------------------

    /// A block, or a compound statement whose children are statements (their
    /// conditions are visited as expressions by `statement`'s fallback).
    fn block(&mut self, node: Node, cx: &Ctx) {
        if self.too_deep(cx) {
            return;
        }
        let mut cursor = node.walk();
        for child in node.named_children(&mut cursor) {
            self.statement(child, &cx.deeper());
        }
    }

    fn statement(&mut self, node: Node, cx: &Ctx) {
        if self.too_deep(cx) {
            return;
        }
        match node.kind() {
            "function_definition" => self.function(node, cx, &[]),
            "class_definition" => self.class(node, cx, &[]),
            "decorated_definition" => self.decorated(node, cx),
            "import_statement" => self.import(node, cx),
            "import_from_statement" => self.import_from(node, cx),
            "future_import_statement" => {}
            "expression_statement" => {
                let mut c = node.walk();
                for child in node.named_children(&mut c) {
                    self.expression_statement(child, cx);
                }
            }
            "return_statement" => self.return_statement(node, cx),
            "raise_statement" => self.raise_statement(node, cx),
            "for_statement" => self.for_statement(node, cx),
            "global_statement" => {
                let names: Vec<String> = named_children(node)
                    .iter()
                    .map(|n| self.text(*n).to_string())
                    .collect();
                if let Some(g) = self.globals.last_mut() {
                    g.extend(names);
                }
            }
            "with_statement" => self.with_statement(node, cx),
            "delete_statement" => {
                // `del d["k"]` / `del a[0][1]`: the table's slots move or vanish.
                for target in named_children(node) {
                    let targets = match target.kind() {
                        "expression_list" => named_children(target),
                        _ => vec![target],
                    };
                    for t in targets {
                        self.expr(t, cx);
                        if t.kind() == "subscript" {
                            self.table_deleted(t, cx);
                        }
                    }
                }
            }
            "if_statement" => self.if_statement(node, cx),
            "try_statement" => self.try_statement(node, cx),
            "while_statement"
            | "elif_clause"
            | "else_clause"
            | "finally_clause"
            | "block"
            | "match_statement"
            | "case_clause"
            | "except_group_clause" => self.block(node, cx),
            "except_clause" => self.except_clause(node, cx),
            _ => {
                self.expr(node, cx);
            }
        }
    }

    // ---- static guards (guards.rs) ---------------------------------------

    /// An `if` whose conditions the configured interpreter decides: the branches
    /// it does not take declare and bind nothing and hold no call sites; a
    /// `TYPE_CHECKING` branch binds its imports for annotations only. With no
    /// condition decided, every branch is read as code that may run.
    fn if_statement(&mut self, node: Node, cx: &Ctx) {
        let branches = self.branches(node);
        if branches.iter().all(|b| b.mode == Mode::MayRun) {
            self.block(node, cx);
            return;
        }
        for b in branches {
            if let Some(condition) = b.condition.filter(|_| b.reached) {
                self.expr(condition, &cx.deeper());
            }
            match b.mode {
                Mode::MayRun => self.block(b.body, &cx.deeper()),
                Mode::NotTaken => self.inactive_block(b.body, &cx.deeper(), false),
                Mode::CheckerOnly => self.inactive_block(b.body, &cx.deeper(), true),
            }
        }
    }

    /// The branches of an `if` (its `elif`s and `else`) and what the configured
    /// interpreter does with each.
    fn branches<'t>(&self, node: Node<'t>) -> Vec<Branch<'t>> {
        let guards = Guards::new(self.src, &self.python);
        let mut written: Vec<(Option<Node<'t>>, Node<'t>)> = Vec::new();
        if let Some(body) = node.child_by_field_name("consequence") {
            written.push((node.child_by_field_name("condition"), body));
        }
        for alt in node.children_by_field_name("alternative", &mut node.walk()) {
            let body = match alt.kind() {
                "elif_clause" => alt.child_by_field_name("consequence"),
                _ => alt.child_by_field_name("body"),
            };
            if let Some(body) = body {
                written.push((alt.child_by_field_name("condition"), body));
            }
        }
        // After a branch the interpreter surely takes, none is reached; after
        // `not TYPE_CHECKING`, the rest is what a type checker reads.
        let mut after: Option<Mode> = None;
        let mut out = Vec::with_capacity(written.len());
        for (condition, body) in written {
            let c = condition.map_or(Condition::Known(true), |n| guards.condition(n));
            let mode = match (after, c) {
                (Some(m), _) => m,
                (None, Condition::TypeChecking) => Mode::CheckerOnly,
                (None, Condition::Known(false)) => Mode::NotTaken,
                _ => Mode::MayRun,
            };
            out.push(Branch {
                condition,
                body,
                mode,
                reached: after.is_none(),
            });
            if after.is_none() {
                after = match c {
                    Condition::Known(true) => Some(Mode::NotTaken),
                    Condition::NotTypeChecking => Some(Mode::CheckerOnly),
                    _ => None,
                };
            }
        }
        out
    }

    /// Code that does not run: its definitions are listed as inactive entities;
    /// nothing binds and no call is a site, except that under `TYPE_CHECKING`
    /// (`checker_only`) imports bind names for annotations.
    fn inactive_block(&mut self, node: Node, cx: &Ctx, checker_only: bool) {
        if self.too_deep(cx) {
            return;
        }
        for child in named_children(node) {
            let inner = &cx.deeper();
            match child.kind() {
                "import_statement" | "import_from_statement" if checker_only => {
                    let first = self.facts.imports.len() as u32;
                    if child.kind() == "import_statement" {
                        self.import(child, inner);
                    } else {
                        self.import_from(child, inner);
                    }
                    let last = self.facts.imports.len() as u32;
                    self.facts.annotation_imports.extend(first..last);
                }
                "function_definition" | "class_definition" | "decorated_definition" => {
                    self.inactive_definition(child, inner)
                }
                "if_statement" => {
                    for b in self.branches(child) {
                        let keeps = checker_only && b.mode != Mode::NotTaken;
                        self.inactive_block(b.body, &inner.deeper(), keeps);
                    }
                }
                "block"
                | "try_statement"
                | "except_clause"
                | "except_group_clause"
                | "else_clause"
                | "finally_clause"
                | "with_statement"
                | "for_statement"
                | "while_statement" => self.inactive_block(child, inner, checker_only),
                _ => {}
            }
        }
    }

    /// A `def` or `class` the program never runs: listed, marked inactive, and
    /// bound nowhere; the definitions inside it likewise.
    fn inactive_definition(&mut self, node: Node, cx: &Ctx) {
        let def = match node.kind() {
            "decorated_definition" => match node.child_by_field_name("definition") {
                Some(d) => d,
                None => return,
            },
            _ => node,
        };
        let Some(name_node) = def.child_by_field_name("name") else {
            return;
        };
        let is_class = def.kind() == "class_definition";
        let parent_is_class = cx
            .caller
            .is_some_and(|p| self.facts.decls[p as usize].kind == DeclKind::Class);
        let kind = match (is_class, parent_is_class) {
            (true, _) => DeclKind::Class,
            (false, true) => DeclKind::Method,
            (false, false) => DeclKind::Function,
        };
        let mut decl = Decl::new(
            self.text(name_node).to_string(),
            kind,
            cx.caller,
            cx.scope,
            pos(name_node),
            def.end_position().row as u32 + 1,
        );
        decl.inactive = true;
        let idx = self.push_decl(decl);
        if let Some(body) = def.child_by_field_name("body") {
            let inner = Ctx {
                caller: Some(idx),
                class: if is_class { Some(idx) } else { cx.class },
                depth: cx.depth + 1,
                ..cx.clone()
            };
            self.inactive_block(body, &inner, false);
        }
    }

    /// `try: import a / except ImportError: import b`: the handler's imports of
    /// the names the `try` imports are fallbacks (`FileFacts::fallback_imports`),
    /// bound beside the first; the resolver keeps the one whose module exists.
    fn try_statement(&mut self, node: Node, cx: &Ctx) {
        let imported = self.names_a_try_imports(node);
        for child in named_children(node) {
            let inner = &cx.deeper();
            match child.kind() {
                "except_clause" if !imported.is_empty() && self.catches_import_error(child) => {
                    let first = self.facts.imports.len();
                    self.except_clause(child, inner);
                    let bound: Vec<u32> = (first..self.facts.imports.len())
                        .map(|i| i as u32)
                        .filter(|&i| imported.contains(&self.bound_name(i)))
                        .collect();
                    self.facts.fallback_imports.extend(bound);
                }
                _ => self.statement(child, inner),
            }
        }
    }

    /// The names a `try` body binds when it is nothing but imports.
    fn names_a_try_imports(&self, node: Node) -> Vec<String> {
        let Some(body) = node.child_by_field_name("body") else {
            return Vec::new();
        };
        let mut names = Vec::new();
        for statement in named_children(body) {
            match statement.kind() {
                "import_statement" | "import_from_statement" => {
                    for name in statement.children_by_field_name("name", &mut statement.walk()) {
                        let bound = match name.kind() {
                            "aliased_import" => name.child_by_field_name("alias"),
                            _ => Some(name),
                        };
                        let Some(bound) = bound else { continue };
                        let text = match (statement.kind(), bound.kind()) {
                            // `import a.b` binds `a`.
                            ("import_statement", "dotted_name") => bound
                                .named_child(0)
                                .map(|n| self.text(n))
                                .unwrap_or_default(),
                            _ => self.text(bound),
                        };
                        names.push(text.to_string());
                    }
                }
                "pass_statement" | "comment" => {}
                _ => return Vec::new(),
            }
        }
        names
    }

    /// `except ImportError:`, `except ModuleNotFoundError as e:`, or a tuple
    /// holding one of them.
    fn catches_import_error(&self, clause: Node) -> bool {
        let Some(caught) = clause.named_child(0) else {
            return false;
        };
        let caught = match caught.kind() {
            "as_pattern" => match caught.named_child(0) {
                Some(c) => c,
                None => return false,
            },
            _ => caught,
        };
        let is_import_error = |n: Node| {
            attribute_path(self.src, n).is_some_and(|p| {
                p.last()
                    .is_some_and(|l| l == "ImportError" || l == "ModuleNotFoundError")
            })
        };
        match caught.kind() {
            "tuple" | "parenthesized_expression" => {
                named_children(caught).into_iter().any(is_import_error)
            }
            _ => is_import_error(caught),
        }
    }

    /// The name an import binds.
    fn bound_name(&self, import: u32) -> String {
        match &self.facts.imports[import as usize].kind {
            ImportKind::Module { path, alias } => alias
                .clone()
                .or_else(|| path.first().cloned())
                .unwrap_or_default(),
            ImportKind::From { name, alias, .. } => alias.clone().unwrap_or_else(|| name.clone()),
            _ => String::new(),
        }
    }

    fn expression_statement(&mut self, node: Node, cx: &Ctx) {
        match node.kind() {
            "assignment" => self.assignment(node, cx),
            "augmented_assignment" => {
                if let Some(right) = node.child_by_field_name("right") {
                    self.expr(right, cx);
                }
                if let Some(left) = node.child_by_field_name("left") {
                    self.bind_target(left, None, cx, true);
                }
            }
            _ => {
                self.expr(node, cx);
            }
        }
    }

    fn except_clause(&mut self, node: Node, cx: &Ctx) {
        let mut cursor = node.walk();
        for child in node.named_children(&mut cursor) {
            match child.kind() {
                "block" => self.block(child, &cx.deeper()),
                "as_pattern" => self.except_as(child, cx),
                _ => {
                    self.expr(child, cx);
                }
            }
        }
    }

    /// `except E as e:` binds e to an instance of E, written as a type: a name
    /// or dotted path; a tuple of types (or anything else) leaves e opaque.
    fn except_as(&mut self, node: Node, cx: &Ctx) {
        let Some(caught) = node.named_child(0) else {
            return;
        };
        self.expr(caught, cx);
        let alias = node.child_by_field_name("alias");
        let target = alias.and_then(|a| match a.kind() {
            "as_pattern_target" => a.named_child(0),
            _ => Some(a),
        });
        match target {
            Some(t)
                if t.kind() == "identifier"
                    && matches!(caught.kind(), "identifier" | "attribute") =>
            {
                let ty = self.type_ref(caught, cx);
                let name = self.text(t).to_string();
                self.bind(cx, &name, pos(t).0, BindingValue::Typed { ty, value: None });
            }
            _ => {
                if let Some(a) = alias {
                    self.bind_target(a, None, cx, true);
                }
            }
        }
    }

    fn with_statement(&mut self, node: Node, cx: &Ctx) {
        let mut cursor = node.walk();
        for child in node.named_children(&mut cursor) {
            if child.kind() == "block" {
                self.block(child, &cx.deeper());
                continue;
            }
            // with_clause → with_item → value (possibly an as_pattern)
            let mut stack = vec![child];
            while let Some(n) = stack.pop() {
                match n.kind() {
                    "with_clause" | "with_item" => {
                        stack.extend(named_children(n).into_iter().rev())
                    }
                    "as_pattern" => self.with_as(n, cx),
                    _ => {
                        self.expr(n, cx);
                    }
                }
            }
        }
    }

    /// `with cm as x:` binds x to what `cm.__enter__()` returns (an implicit call
    /// on the context expression's first token; reported where it reaches the tree).
    fn with_as(&mut self, node: Node, cx: &Ctx) {
        let Some(value) = node.named_child(0) else {
            return;
        };
        let cm = self.expr(value, cx);
        let receiver = receiver_of(&cm);
        let alias = node.child_by_field_name("alias");
        let target = alias.and_then(|a| {
            if a.kind() == "as_pattern_target" {
                a.named_child(0)
            } else {
                Some(a)
            }
        });
        match (receiver, target) {
            (Receiver::Unknown | Receiver::Literal(_), _) | (_, None) => {
                if let Some(a) = alias {
                    self.bind_target(a, None, cx, true);
                }
            }
            (receiver, Some(t)) if t.kind() == "identifier" => {
                let wrote = self.wrote(value);
                let enter =
                    self.implicit_call(value, receiver, "__enter__", CallKind::Enter, &wrote, cx);
                let name = self.text(t).to_string();
                self.bind(
                    cx,
                    &name,
                    pos(t).0,
                    BindingValue::Value(ValueExpr::CallResult(enter)),
                );
            }
            _ => {
                if let Some(a) = alias {
                    self.bind_target(a, None, cx, true);
                }
            }
        }
    }

    fn return_statement(&mut self, node: Node, cx: &Ctx) {
        let value = node.named_child(0);
        let returned = value.map(|v| self.expr(v, cx));
        let rv = match (&returned, value) {
            (Some(Ex::Name(n)), _) if Some(n.as_str()) == cx.self_name.as_deref() => {
                Some(ReturnValue::SelfValue)
            }
            (Some(Ex::Name(n)), _) => Some(ReturnValue::Name(n.clone())),
            (Some(Ex::Call(c)), _) => Some(ReturnValue::CallResult(*c)),
            (Some(e @ (Ex::Path(_) | Ex::Lang(PyShape::Lambda(_)))), _) => {
                Some(ReturnValue::Value(value_of(e)))
            }
            _ => None,
        };
        if let Some((_, list)) = self.returns.last_mut() {
            list.push(rv);
        }
    }

    /// `yield f` records the bare name handed out; `yield from g`, `yield` and any
    /// other value record an unknown, so the generator's element is not followed.
    fn yield_expression(&mut self, node: Node, cx: &Ctx) {
        let delegates = (0..node.child_count())
            .filter_map(|i| node.child(i))
            .any(|c| c.kind() == "from");
        let handed = node.named_child(0).map(|v| self.expr(v, cx));
        let rv = match handed {
            Some(Ex::Name(n)) if !delegates => Some(ReturnValue::Name(n)),
            _ => None,
        };
        if let Some(list) = self.yields.last_mut() {
            list.push(rv);
        }
    }

    fn for_statement(&mut self, node: Node, cx: &Ctx) {
        let iterable = node.child_by_field_name("right").map(|right| {
            let iterable = self.expr(right, cx);
            self.implicit_iteration(right, iterable.clone(), cx);
            iterable
        });
        if let Some(left) = node.child_by_field_name("left") {
            self.bind_loop_target(left, iterable.as_ref(), cx);
        }
        if let Some(body) = node.child_by_field_name("body") {
            self.block(body, &cx.deeper());
        }
        if let Some(alt) = node.child_by_field_name("alternative") {
            self.statement(alt, &cx.deeper());
        }
    }

    /// `for x in items:` binds x to an element of items (its written element type
    /// types it); unpacking targets stay opaque.
    fn bind_loop_target(&mut self, target: Node, iterable: Option<&Ex>, cx: &Ctx) {
        match (target.kind(), iterable) {
            ("identifier", Some(it)) => {
                let name = self.text(target).to_string();
                let value = BindingValue::Value(ValueExpr::Element(Box::new(value_of(it))));
                self.bind(cx, &name, pos(target).0, value);
            }
            _ => self.bind_target(target, None, cx, true),
        }
    }

    /// `for x in it:` calls `it.__iter__()` and then `__next__` on what it returned;
    /// both sites sit on the iterable's first token.
    fn implicit_iteration(&mut self, iterable_node: Node, iterable: Ex, cx: &Ctx) {
        let receiver = receiver_of(&iterable);
        if matches!(receiver, Receiver::Unknown | Receiver::Literal(_)) {
            return;
        }
        let wrote = self.wrote(iterable_node);
        let iter = self.implicit_call(
            iterable_node,
            receiver,
            "__iter__",
            CallKind::Iter,
            &wrote,
            cx,
        );
        self.implicit_call(
            iterable_node,
            Receiver::Call(iter),
            "__next__",
            CallKind::Next,
            &wrote,
            cx,
        );
    }

    /// A call the syntax makes without writing it, placed on `at`'s first token.
    fn implicit_call(
        &mut self,
        at: Node,
        receiver: Receiver,
        name: &str,
        kind: CallKind,
        wrote: &str,
        cx: &Ctx,
    ) -> CallIdx {
        let (line, column) = pos(at);
        self.push_call(Call {
            line,
            column,
            caller: cx.caller,
            scope: cx.scope,
            callee: Callee::Member {
                receiver,
                name: name.to_string(),
            },
            kind,
            args: Vec::new(),
            keyword_args: 0,
            keywords: Vec::new(),
            has_splat: false,
            type_args: 0,
            wrote: format!("{wrote}.{name}"),
            context: crate::facts::CallContext::Unread,
        })
    }

    fn assignment(&mut self, node: Node, cx: &Ctx) {
        // `a = b = f` nests: assignment(left=a, right=assignment(left=b, right=f)).
        let mut targets = Vec::new();
        let mut cur = node;
        let mut ty = None;
        loop {
            if let Some(left) = cur.child_by_field_name("left") {
                targets.push(left);
            }
            if ty.is_none() {
                ty = cur.child_by_field_name("type");
            }
            match cur.child_by_field_name("right") {
                Some(r) if r.kind() == "assignment" => cur = r,
                other => {
                    let value_node = other;
                    let value = value_node.map(|v| self.expr(v, cx));
                    if let (Some(vn), Some(v)) = (value_node, value.as_ref()) {
                        self.reference_if_name(vn, v, cx, false);
                    }
                    let written = ty.map(|t| self.type_ref(t, cx));
                    for t in targets {
                        self.assign_to(t, value_node, value.clone(), written.clone(), cx);
                    }
                    return;
                }
            }
        }
    }

    fn assign_to(
        &mut self,
        target: Node,
        value_node: Option<Node>,
        value: Option<Ex>,
        ty: Option<TypeRef>,
        cx: &Ctx,
    ) {
        let line = pos(target).0;
        match target.kind() {
            "identifier" => {
                let name = self.text(target).to_string();
                if cx.scope == 0 && name == "__all__" {
                    self.facts.all_names = value_node.and_then(|v| self.literal_strings(v));
                }
                let b = match (ty, value) {
                    (Some(ty), v) => BindingValue::Typed {
                        ty,
                        value: v.as_ref().map(value_of),
                    },
                    (None, Some(v)) => BindingValue::Value(value_of(&v)),
                    (None, None) => BindingValue::Opaque,
                };
                self.bind(cx, &name, line, b);
            }
            "attribute" => self.assign_attribute(target, value, ty, cx),
            "pattern_list" | "tuple_pattern" | "list_pattern" => {
                let elements = named_children(target);
                let values = match (&value, value_node) {
                    (Some(Ex::Lang(PyShape::Seq(items))), Some(vn)) => {
                        Some((items.clone(), sequence_nodes(vn)))
                    }
                    _ => None,
                };
                let starred = elements
                    .iter()
                    .position(|e| e.kind() == "list_splat_pattern");
                for (i, el) in elements.iter().enumerate() {
                    let picked = values.as_ref().and_then(|(items, nodes)| {
                        element_for(i, elements.len(), starred, items.len())
                            .map(|j| (items[j].clone(), nodes.get(j).copied()))
                    });
                    match picked {
                        Some((v, n)) if el.kind() != "list_splat_pattern" => {
                            self.assign_to(*el, n, Some(v), None, cx)
                        }
                        _ => match (el.kind(), values.as_ref(), el.named_child(0)) {
                            // `a, *b, c = f, g, h, i`: b is the list [g, h].
                            ("list_splat_pattern", Some((items, _)), Some(name))
                                if name.kind() == "identifier"
                                    && items.len() + 1 >= elements.len() =>
                            {
                                let rest = items.len() + 1 - elements.len();
                                let slice = items[i..i + rest].to_vec();
                                let n = self.text(name).to_string();
                                let value = BindingValue::Value(ValueExpr::Sequence(
                                    slice.iter().map(value_of).collect(),
                                ));
                                self.bind(cx, &n, pos(name).0, value);
                            }
                            _ => self.bind_target(*el, None, cx, true),
                        },
                    }
                }
            }
            "subscript" => self.assign_slot(target, value, cx),
            _ => self.bind_target(target, None, cx, true),
        }
    }

    /// `d["k"] = v`: a write into the table `d` (the key `None` when computed).
    fn assign_slot(&mut self, target: Node, value: Option<Ex>, cx: &Ctx) {
        self.expr(target, cx);
        let base = target.child_by_field_name("value");
        let Some(base) = base.filter(|b| b.kind() == "identifier") else {
            // `d["a"]["b"] = v`: the inner table changes.
            if !self.assign_inner_slot(target, value.as_ref(), cx) {
                self.inner_table_changed(target, cx);
            }
            return;
        };
        let subs: Vec<Node> = target
            .children_by_field_name("subscript", &mut target.walk())
            .collect();
        let key = match subs.as_slice() {
            [one] => self.literal_key(*one),
            _ => None,
        };
        let value = value.as_ref().map(value_of).unwrap_or(ValueExpr::Unknown);
        let name = self.text(base).to_string();
        self.bind(cx, &name, pos(target).0, BindingValue::Slot { key, value });
    }

    /// `d["a"]["b"] = v` with literal keys: a write of `d`'s slot `"a"` that sets
    /// the inner table's `"b"`. False (nothing bound) for any other shape.
    fn assign_inner_slot(&mut self, target: Node, value: Option<&Ex>, cx: &Ctx) -> bool {
        let Some(outer) = target
            .child_by_field_name("value")
            .filter(|o| o.kind() == "subscript")
        else {
            return false;
        };
        let Some(root) = outer
            .child_by_field_name("value")
            .filter(|r| r.kind() == "identifier")
        else {
            return false;
        };
        let single_key = |n: Node| -> Option<Key> {
            let subs: Vec<Node> = n
                .children_by_field_name("subscript", &mut n.walk())
                .collect();
            match subs.as_slice() {
                [one] => self.literal_key(*one),
                _ => None,
            }
        };
        let (Some(outer_key), Some(inner_key)) = (single_key(outer), single_key(target)) else {
            return false;
        };
        let value = value.map(value_of).unwrap_or(ValueExpr::Unknown);
        let name = self.text(root).to_string();
        self.bind(
            cx,
            &name,
            pos(target).0,
            BindingValue::Slot {
                key: Some(outer_key),
                value: ValueExpr::SetInner {
                    key: inner_key,
                    value: Box::new(value),
                },
            },
        );
        true
    }

    /// `d["a"]["b"] = v`, `del d["a"][0]`, `d["a"].append(v)`: the table nested in
    /// `d["a"]` changes, so the outermost name's slot `"a"` becomes unknowable (every
    /// slot when the first key is computed). Nested tables are read through that slot.
    fn inner_table_changed(&mut self, node: Node, cx: &Ctx) {
        let mut key = None;
        let mut current = node;
        loop {
            match current.kind() {
                "subscript" => {
                    let subs: Vec<Node> = current
                        .children_by_field_name("subscript", &mut current.walk())
                        .collect();
                    key = match subs.as_slice() {
                        [one] => self.literal_key(*one),
                        _ => None,
                    };
                }
                "attribute" => key = None,
                "identifier" => break,
                _ => return,
            }
            let next = match current.kind() {
                "attribute" => current.child_by_field_name("object"),
                _ => current.child_by_field_name("value"),
            };
            let Some(next) = next else { return };
            current = next;
        }
        let name = self.text(current).to_string();
        self.bind(
            cx,
            &name,
            pos(node).0,
            BindingValue::Slot {
                key,
                value: ValueExpr::Unknown,
            },
        );
    }

    /// `self.x = v` / `self.x: T = v` inside a method: a field of the class.
    fn assign_attribute(&mut self, target: Node, value: Option<Ex>, ty: Option<TypeRef>, cx: &Ctx) {
        let object = target.child_by_field_name("object");
        let attr = target.child_by_field_name("attribute");
        let (Some(object), Some(attr), Some(class)) = (object, attr, cx.class) else {
            if let Some(o) = object {
                self.expr(o, cx);
            }
            return;
        };
        if object.kind() == "identifier" && Some(self.text(object)) == cx.self_name.as_deref() {
            let field = Field {
                name: self.text(attr).to_string(),
                ty,
                value: value.as_ref().map(value_of),
                line: pos(attr).0,
                is_static: false,
                scope: cx.scope,
            };
            self.facts.decls[class as usize].fields.push(field);
        } else {
            self.expr(object, cx);
        }
    }

    /// Bind every name in a target pattern to an opaque value (or `value`).
    fn bind_target(&mut self, target: Node, value: Option<ValueExpr>, cx: &Ctx, opaque: bool) {
        match target.kind() {
            "identifier" => {
                let name = self.text(target).to_string();
                let v = match value {
                    Some(v) if !opaque => BindingValue::Value(v),
                    _ => BindingValue::Opaque,
                };
                self.bind(cx, &name, pos(target).0, v);
            }
            "pattern_list"
            | "tuple_pattern"
            | "list_pattern"
            | "list_splat_pattern"
            | "parenthesized_expression" => {
                for el in named_children(target) {
                    self.bind_target(el, None, cx, true);
                }
            }
            "attribute" | "subscript" => {
                self.expr(target, cx);
            }
            _ => {}
        }
    }

    fn literal_strings(&self, node: Node) -> Option<Vec<String>> {
        if !matches!(node.kind(), "list" | "tuple") {
            return None;
        }
        named_children(node)
            .into_iter()
            .map(|n| self.string_content(n))
            .collect()
    }

    fn string_content(&self, node: Node) -> Option<String> {
        if node.kind() != "string" {
            return None;
        }
        plain_string(self.src, node)
    }

    // ---- imports ----------------------------------------------------------

    fn import(&mut self, node: Node, cx: &Ctx) {
        let line = pos(node).0;
        let mut cursor = node.walk();
        for name in node.children_by_field_name("name", &mut cursor) {
            let (path_node, alias) = match name.kind() {
                "aliased_import" => (
                    name.child_by_field_name("name"),
                    name.child_by_field_name("alias"),
                ),
                _ => (Some(name), None),
            };
            let Some(path_node) = path_node else { continue };
            let path = self.dotted(path_node);
            let alias = alias.map(|a| self.text(a).to_string());
            let bound = alias.clone().or_else(|| path.first().cloned());
            let idx = self.facts.imports.len() as u32;
            self.facts.imports.push(Import {
                line,
                kind: ImportKind::Module { path, alias },
            });
            if let Some(b) = bound {
                self.bind(cx, &b, line, BindingValue::Import(idx));
            }
        }
    }

    fn import_from(&mut self, node: Node, cx: &Ctx) {
        let line = pos(node).0;
        let Some(module_node) = node.child_by_field_name("module_name") else {
            return;
        };
        let (level, module) = match module_node.kind() {
            "relative_import" => {
                let mut level = 0;
                let mut module = Vec::new();
                for c in named_children(module_node) {
                    match c.kind() {
                        "import_prefix" => {
                            level = self.text(c).chars().filter(|&ch| ch == '.').count() as u32
                        }
                        "dotted_name" => module = self.dotted(c),
                        _ => {}
                    }
                }
                (level, module)
            }
            _ => (0, self.dotted(module_node)),
        };
        let mut cursor = node.walk();
        let has_wildcard = node
            .named_children(&mut cursor)
            .any(|c| c.kind() == "wildcard_import");
        if has_wildcard {
            self.facts.imports.push(Import {
                line,
                kind: ImportKind::Star { level, module },
            });
            return;
        }
        let mut cursor = node.walk();
        for name in node.children_by_field_name("name", &mut cursor) {
            let (name_node, alias) = match name.kind() {
                "aliased_import" => (
                    name.child_by_field_name("name"),
                    name.child_by_field_name("alias"),
                ),
                _ => (Some(name), None),
            };
            let Some(name_node) = name_node else { continue };
            let imported = self.text(name_node).to_string();
            let alias = alias.map(|a| self.text(a).to_string());
            let bound = alias.clone().unwrap_or_else(|| imported.clone());
            let idx = self.facts.imports.len() as u32;
            self.facts.imports.push(Import {
                line,
                kind: ImportKind::From {
                    level,
                    module: module.clone(),
                    name: imported,
                    alias,
                },
            });
            self.bind(cx, &bound, line, BindingValue::Import(idx));
        }
    }

    fn dotted(&self, node: Node) -> Vec<String> {
        match node.kind() {
            "dotted_name" => named_children(node)
                .iter()
                .map(|n| self.text(*n).to_string())
                .collect(),
            _ => vec![self.text(node).to_string()],
        }
    }

    // ---- declarations -----------------------------------------------------

    fn decorated(&mut self, node: Node, cx: &Ctx) {
        let mut decorators = Vec::new();
        for c in named_children(node) {
            if c.kind() == "decorator" {
                if let Some(e) = c.named_child(0) {
                    decorators.push(e);
                }
            }
        }
        // Decorators are calls made where the definition stands, by its enclosing code.
        let mut flags = Vec::new();
        let mut paths = Vec::new();
        let mut decorator_calls = Vec::new();
        for d in &decorators {
            flags.push(self.text(*d).to_string());
            let target = if d.kind() == "call" {
                d.child_by_field_name("function").unwrap_or(*d)
            } else {
                *d
            };
            paths.push(Decorator {
                path: self.attribute_path(target).unwrap_or_default(),
                called: d.kind() == "call",
            });
            decorator_calls.push(self.decorator_call(*d, cx));
        }
        let first_new = self.facts.decls.len();
        if let Some(def) = node.child_by_field_name("definition") {
            match def.kind() {
                "function_definition" => self.function(def, cx, &flags),
                "class_definition" => self.class(def, cx, &flags),
                _ => {}
            }
        }
        if let Some(decl) = self.facts.decls.get_mut(first_new) {
            decl.decorators = paths;
            // The innermost bare decorator is called with the definition itself,
            // each outer one with what the decorator under it returned.
            let mut passed = ArgShape::Function(first_new as DeclIdx);
            for call in decorator_calls.iter().rev() {
                let Some(call) = *call else { break };
                self.facts.calls[call as usize].args = vec![passed];
                passed = ArgShape::Call(call);
            }
        }
    }

    /// `@d` calls d; `@d(args)` calls d(args) (and then its result, which no one names).
    /// Returns the call that applies the decorator to what it decorates: `d` itself
    /// for `@d`, the unnamed call of `d(args)`'s result for `@d(args)`.
    fn decorator_call(&mut self, expr: Node, cx: &Ctx) -> Option<CallIdx> {
        match expr.kind() {
            "identifier" | "attribute" => {
                self.unwritten_call(expr, CallKind::Decorator, vec![ArgShape::Unknown], cx)
            }
            _ => match self.expr(expr, cx) {
                Ex::Call(factory) => {
                    let (line, column) = pos(expr);
                    let wrote = self.wrote(expr);
                    Some(self.push_call(Call {
                        line,
                        column,
                        caller: cx.caller,
                        scope: cx.scope,
                        callee: Callee::Result(factory),
                        kind: CallKind::Decorator,
                        args: vec![ArgShape::Unknown],
                        keyword_args: 0,
                        keywords: Vec::new(),
                        has_splat: false,
                        type_args: 0,
                        wrote,
                        context: crate::facts::CallContext::Unread,
                    }))
                }
                _ => None,
            },
        }
    }

    /// A call the syntax makes of a written name or path without call parentheses
    /// (`@d`, `raise E`), placed on the name.
    fn unwritten_call(
        &mut self,
        expr: Node,
        kind: CallKind,
        args: Vec<ArgShape>,
        cx: &Ctx,
    ) -> Option<CallIdx> {
        let callee = match self.expr(expr, cx) {
            Ex::Name(n) => Callee::Name(n),
            Ex::Path(mut p) => {
                let name = p.pop().unwrap_or_default();
                Callee::Member {
                    receiver: Receiver::Path(p),
                    name,
                }
            }
            _ => return None,
        };
        let name_node = match expr.kind() {
            "attribute" => expr.child_by_field_name("attribute").unwrap_or(expr),
            _ => expr,
        };
        let (line, column) = pos(name_node);
        let wrote = self.wrote(expr);
        Some(self.push_call(Call {
            line,
            column,
            caller: cx.caller,
            scope: cx.scope,
            callee,
            kind,
            args,
            keyword_args: 0,
            keywords: Vec::new(),
            has_splat: false,
            type_args: 0,
            wrote,
            context: crate::facts::CallContext::Unread,
        }))
    }

    /// `raise E` constructs E; `raise E(...)` is an ordinary call.
    fn raise_statement(&mut self, node: Node, cx: &Ctx) {
        for child in named_children(node) {
            match child.kind() {
                "identifier" | "attribute" => {
                    self.unwritten_call(child, CallKind::Raise, Vec::new(), cx);
                }
                _ => {
                    self.expr(child, cx);
                }
            }
        }
    }

    fn push_decl(&mut self, decl: Decl) -> DeclIdx {
        self.facts.decls.push(decl);
        (self.facts.decls.len() - 1) as DeclIdx
    }

    fn function(&mut self, node: Node, cx: &Ctx, decorators: &[String]) {
        let Some(name_node) = node.child_by_field_name("name") else {
            return;
        };
        let name = self.text(name_node).to_string();
        let (line, column) = pos(name_node);
        let in_class =
            cx.class.is_some() && self.facts.scopes[cx.scope as usize].kind == ScopeKind::Class;
        let has = |d: &str| decorators.iter().any(|x| x == d);
        let is_static = in_class && has("staticmethod");
        let is_classmethod = in_class && has("classmethod");
        let is_property = in_class
            && (has("property") || has("cached_property") || has("functools.cached_property"));
        let returns = node
            .child_by_field_name("return_type")
            .map(|t| self.type_ref(t, cx));
        let mut decl = Decl::new(
            name.clone(),
            if in_class {
                DeclKind::Method
            } else {
                DeclKind::Function
            },
            cx.caller,
            cx.scope,
            (line, column),
            node.end_position().row as u32 + 1,
        );
        decl.is_static = is_static;
        decl.is_classmethod = is_classmethod;
        decl.is_property = is_property;
        decl.returns = returns;
        let idx = self.push_decl(decl);
        self.bind(cx, &name, line, BindingValue::Decl(idx));
        let body_scope = self.new_scope(ScopeKind::Function, cx.scope, Some(idx));
        self.facts.decls[idx as usize].body = Some(body_scope);
        let inner = Ctx {
            scope: body_scope,
            caller: Some(idx),
            depth: cx.depth + 1,
            class: cx.class,
            self_name: None,
        };
        let params = node
            .child_by_field_name("parameters")
            .map(|p| self.parameters(p, &inner, cx))
            .unwrap_or_default();
        let self_name = if in_class && !is_static {
            params.first().map(|p| p.name.clone())
        } else {
            None
        };
        self.facts.decls[idx as usize].params = params;
        // A nested function keeps the enclosing method's `self` for closures.
        let inner = Ctx {
            self_name: if in_class {
                self_name
            } else {
                cx.self_name.clone()
            },
            ..inner
        };
        self.returns.push((idx, Vec::new()));
        self.yields.push(Vec::new());
        self.globals.push(Vec::new());
        if let Some(body) = node.child_by_field_name("body") {
            self.block(body, &inner);
        }
        self.globals.pop();
        let (_, rets) = self.returns.pop().unwrap_or((idx, Vec::new()));
        let yields = self.yields.pop().unwrap_or_default();
        let decl = &mut self.facts.decls[idx as usize];
        if yields.is_empty() {
            decl.returns_value = agreed_return(rets);
        } else {
            // A generator: calling it gives a generator, never what `return` names;
            // iterating it gives what every `yield` agrees on.
            decl.yields_value = agreed_return(yields);
        }
    }

    /// Parameters bind in the function's scope; defaults and annotations are read in
    /// the enclosing one.
    fn parameters(&mut self, node: Node, inner: &Ctx, outer: &Ctx) -> Vec<Param> {
        let mut out = Vec::new();
        for p in named_children(node) {
            let (name_node, ty_node, default, variadic, kw) = match p.kind() {
                "identifier" => (Some(p), None, None, false, false),
                "typed_parameter" => {
                    let inner_name = p.named_child(0);
                    let (n, v, k) = match inner_name.map(|n| n.kind()) {
                        Some("list_splat_pattern") => {
                            (inner_name.and_then(|n| n.named_child(0)), true, false)
                        }
                        Some("dictionary_splat_pattern") => {
                            (inner_name.and_then(|n| n.named_child(0)), false, true)
                        }
                        _ => (inner_name, false, false),
                    };
                    (n, p.child_by_field_name("type"), None, v, k)
                }
                "default_parameter" => (
                    p.child_by_field_name("name"),
                    None,
                    p.child_by_field_name("value"),
                    false,
                    false,
                ),
                "typed_default_parameter" => (
                    p.child_by_field_name("name"),
                    p.child_by_field_name("type"),
                    p.child_by_field_name("value"),
                    false,
                    false,
                ),
                "list_splat_pattern" => (p.named_child(0), None, None, true, false),
                "dictionary_splat_pattern" => (p.named_child(0), None, None, false, true),
                _ => continue,
            };
            let default_value = default.map(|d| self.expr(d, outer)).map(|e| value_of(&e));
            let Some(name_node) = name_node else { continue };
            let name = self.text(name_node).to_string();
            let ty = ty_node.map(|t| self.type_ref(t, outer));
            let index = out.len() as u32;
            self.bind(
                inner,
                &name,
                pos(name_node).0,
                BindingValue::Param {
                    index,
                    ty: ty.clone(),
                },
            );
            out.push(Param {
                name,
                ty,
                variadic,
                keyword_variadic: kw,
                has_default: default.is_some(),
                default: default_value,
            });
        }
        out
    }

    fn class(&mut self, node: Node, cx: &Ctx, _decorators: &[String]) {
        let Some(name_node) = node.child_by_field_name("name") else {
            return;
        };
        let name = self.text(name_node).to_string();
        let (line, column) = pos(name_node);
        let mut bases = Vec::new();
        if let Some(sup) = node.child_by_field_name("superclasses") {
            for b in named_children(sup) {
                match b.kind() {
                    // `metaclass=M` and friends are not bases.
                    "keyword_argument" => {
                        if let Some(v) = b.child_by_field_name("value") {
                            self.expr(v, cx);
                        }
                    }
                    _ => {
                        self.expr(b, cx);
                        bases.push(self.type_ref(b, cx));
                    }
                }
            }
        }
        let mut decl = Decl::new(
            name.clone(),
            DeclKind::Class,
            cx.caller,
            cx.scope,
            (line, column),
            node.end_position().row as u32 + 1,
        );
        decl.bases = bases;
        let idx = self.push_decl(decl);
        self.bind(cx, &name, line, BindingValue::Decl(idx));
        let body_scope = self.new_scope(ScopeKind::Class, cx.scope, Some(idx));
        self.facts.decls[idx as usize].body = Some(body_scope);
        let inner = Ctx {
            scope: body_scope,
            caller: Some(idx),
            depth: cx.depth + 1,
            class: Some(idx),
            self_name: None,
        };
        if let Some(body) = node.child_by_field_name("body") {
            self.block(body, &inner);
        }
        // Class-level annotated names are fields too (dataclasses, typed attributes).
        let class_fields: Vec<Field> = self.facts.scopes[body_scope as usize]
            .bindings
            .iter()
            .filter_map(|b| match &b.value {
                BindingValue::Typed { ty, value } => Some(Field {
                    name: b.name.clone(),
                    ty: Some(ty.clone()),
                    value: value.clone(),
                    line: b.line,
                    is_static: true,
                    scope: body_scope,
                }),
                _ => None,
            })
            .collect();
        self.facts.decls[idx as usize].fields.extend(class_fields);
    }

    // ---- types ------------------------------------------------------------

    /// A written annotation as structure (`types.rs`), read in the class whose
    /// body it is written in. A subtree cut at the reader's depth bound counts as
    /// a parse error of the file.
    fn type_ref(&mut self, node: Node, cx: &Ctx) -> TypeRef {
        let enclosing = cx.class.map(|c| self.facts.decls[c as usize].name.as_str());
        let reader = TypeReader::new(self.src, enclosing);
        let ty = reader.read(node);
        let cuts = reader.cuts();
        self.facts.parse_errors += cuts;
        ty
    }

    fn attribute_path(&self, node: Node) -> Option<Vec<String>> {
        attribute_path(self.src, node)
    }

    // ---- expressions ------------------------------------------------------

    fn wrote(&self, node: Node) -> String {
        let t = self.text(node);
        if t.len() <= MAX_WROTE {
            return t.to_string();
        }
        format!("{}…", head_of(t, MAX_WROTE))
    }

    /// Written here, not through `core::push_call`: a Python call carries its
    /// keyword arguments, which the core's `CallSite` does not.
    fn push_call(&mut self, call: Call) -> CallIdx {
        self.facts.calls.push(call);
        (self.facts.calls.len() - 1) as CallIdx
    }

    /// Visit an expression: register every call and lambda in it, and return what
    /// it is as structure.
    fn expr(&mut self, node: Node, cx: &Ctx) -> Ex {
        if self.too_deep(cx) {
            return Ex::Unknown;
        }
        let cx = &cx.deeper();
        match node.kind() {
            "identifier" => Ex::Name(self.text(node).to_string()),
            "attribute" => {
                let object = node.child_by_field_name("object");
                let attr = node
                    .child_by_field_name("attribute")
                    .map(|a| self.text(a).to_string());
                let (Some(object), Some(attr)) = (object, attr) else {
                    return Ex::Unknown;
                };
                self.expr(object, cx).then(&attr)
            }
            "call" => self.call(node, cx),
            "string" | "concatenated_string" => {
                self.visit_children(node, cx);
                if self.text(node).starts_with(['b', 'B']) {
                    Ex::Literal(LiteralType::Bytes)
                } else {
                    match self.literal_key(node) {
                        Some(k) => Ex::Lang(PyShape::Key(k)),
                        None => Ex::Literal(LiteralType::Str),
                    }
                }
            }
            "integer" => match self.literal_key(node) {
                Some(k) => Ex::Lang(PyShape::Key(k)),
                None => Ex::Literal(LiteralType::Int),
            },
            "float" => Ex::Literal(LiteralType::Float),
            "true" | "false" => Ex::Literal(LiteralType::Bool),
            "none" => Ex::Literal(LiteralType::None),
            "lambda" => self.lambda(node, cx),
            "dictionary" => self.dictionary(node, cx),
            "list" | "tuple" | "expression_list" => {
                let items: Vec<Ex> = named_children(node)
                    .into_iter()
                    .map(|c| self.expr(c, cx))
                    .collect();
                for (c, item) in named_children(node).into_iter().zip(&items) {
                    self.reference_if_name(c, item, cx, true);
                }
                if node.kind() == "list" && items.is_empty() {
                    return Ex::Literal(LiteralType::List);
                }
                Ex::Lang(PyShape::Seq(items))
            }
            "set" => {
                self.visit_children(node, cx);
                Ex::Literal(LiteralType::Set)
            }
            "subscript" => {
                let value = node
                    .child_by_field_name("value")
                    .map(|v| self.expr(v, cx))
                    .unwrap_or(Ex::Unknown);
                let subs = node
                    .children_by_field_name("subscript", &mut node.walk())
                    .collect::<Vec<_>>();
                let mut key = None;
                for s in &subs {
                    key = self.literal_key(*s);
                    self.expr(*s, cx);
                }
                match (key, subs.as_slice()) {
                    (Some(k), [_]) => Ex::Lang(PyShape::Subscript(Box::new(value), k)),
                    (None, [s]) if s.kind() == "slice" => match self.literal_bounds(*s) {
                        Some((start, stop)) => {
                            Ex::Lang(PyShape::Slice(Box::new(value), start, stop))
                        }
                        None => Ex::Unknown,
                    },
                    _ => Ex::Unknown,
                }
            }
            "parenthesized_expression" => match node.named_child(0) {
                Some(inner) => self.expr(inner, cx),
                None => Ex::Unknown,
            },
            "await" => {
                self.visit_children(node, cx);
                Ex::Unknown
            }
            "yield" => {
                self.yield_expression(node, cx);
                Ex::Unknown
            }
            "named_expression" => {
                let value = node.child_by_field_name("value").map(|v| self.expr(v, cx));
                if let (Some(name), Some(v)) = (node.child_by_field_name("name"), value.clone()) {
                    let n = self.text(name).to_string();
                    self.bind(cx, &n, pos(name).0, BindingValue::Value(value_of(&v)));
                }
                value.unwrap_or(Ex::Unknown)
            }
            "list_comprehension"
            | "set_comprehension"
            | "dictionary_comprehension"
            | "generator_expression" => {
                self.comprehension(node, cx);
                Ex::Unknown
            }
            "keyword_argument" => {
                if let Some(v) = node.child_by_field_name("value") {
                    let e = self.expr(v, cx);
                    self.reference_if_name(v, &e, cx, true);
                }
                Ex::Unknown
            }
            _ => {
                self.visit_children(node, cx);
                Ex::Unknown
            }
        }
    }

    fn visit_children(&mut self, node: Node, cx: &Ctx) {
        let mut cursor = node.walk();
        let children: Vec<Node> = node.named_children(&mut cursor).collect();
        for c in children {
            self.expr(c, cx);
        }
    }

    /// `a[1:3]`, `a[:-1]`, `a[2:]`: bounds that are integer literals (possibly
    /// negated), no step; anything else is not a slice the engine follows.
    fn literal_bounds(&self, slice: Node) -> Option<(Option<i64>, Option<i64>)> {
        let mut bounds = [None, None];
        let mut at = 0;
        for i in 0..slice.child_count() {
            let c = slice.child(i)?;
            match c.kind() {
                ":" => {
                    at += 1;
                    if at > 1 {
                        return None; // a step
                    }
                }
                "integer" => bounds[at] = Some(self.text(c).parse::<i64>().ok()?),
                "unary_operator" if self.text(c).starts_with('-') => {
                    let n = c.named_child(0).filter(|n| n.kind() == "integer")?;
                    bounds[at] = Some(-self.text(n).parse::<i64>().ok()?);
                }
                "comment" => {}
                _ => return None,
            }
        }
        (at == 1).then_some((bounds[0], bounds[1]))
    }

    fn literal_key(&self, node: Node) -> Option<Key> {
        match node.kind() {
            "string" => self.string_content(node).map(Key::Str),
            "integer" => self.text(node).parse().ok().map(Key::Int),
            _ => None,
        }
    }

    fn dictionary(&mut self, node: Node, cx: &Ctx) -> Ex {
        let mut entries = Vec::new();
        let mut all_literal = true;
        for pair in named_children(node) {
            if pair.kind() != "pair" {
                all_literal = false;
                self.expr(pair, cx);
                continue;
            }
            let key = pair.child_by_field_name("key");
            let value = pair.child_by_field_name("value");
            if let Some(k) = key {
                self.expr(k, cx);
            }
            let v = value.map(|v| self.expr(v, cx)).unwrap_or(Ex::Unknown);
            if let Some(vn) = value {
                self.reference_if_name(vn, &v, cx, true);
            }
            match key.and_then(|k| self.literal_key(k)) {
                Some(k) => entries.push((k, v)),
                None => all_literal = false,
            }
        }
        if all_literal {
            Ex::Lang(PyShape::Dict(entries))
        } else {
            Ex::Literal(LiteralType::Dict)
        }
    }

    fn comprehension(&mut self, node: Node, cx: &Ctx) {
        let scope = self.new_scope(ScopeKind::Block, cx.scope, None);
        let inner = Ctx {
            scope,
            ..cx.clone()
        };
        // The first iterable is evaluated in the enclosing scope; the rest inside.
        let mut first = true;
        let mut deferred = Vec::new();
        for c in named_children(node) {
            match c.kind() {
                "for_in_clause" => {
                    let iterable = c
                        .child_by_field_name("right")
                        .map(|right| self.expr(right, if first { cx } else { &inner }));
                    first = false;
                    let mut cursor = c.walk();
                    let lefts: Vec<Node> = c.children_by_field_name("left", &mut cursor).collect();
                    for left in lefts {
                        self.bind_loop_target(left, iterable.as_ref(), &inner);
                    }
                }
                _ => deferred.push(c),
            }
        }
        for c in deferred {
            self.expr(c, &inner);
        }
    }

    fn lambda(&mut self, node: Node, cx: &Ctx) -> Ex {
        self.lambdas += 1;
        let (line, column) = pos(node);
        let idx = self.push_decl(Decl::new(
            format!("<lambda{}>", self.lambdas),
            DeclKind::Lambda,
            cx.caller,
            cx.scope,
            (line, column),
            node.end_position().row as u32 + 1,
        ));
        let scope = self.new_scope(ScopeKind::Lambda, cx.scope, Some(idx));
        self.facts.decls[idx as usize].body = Some(scope);
        let inner = Ctx {
            scope,
            caller: Some(idx),
            ..cx.clone()
        };
        if let Some(p) = node.child_by_field_name("parameters") {
            let params = self.parameters(p, &inner, cx);
            self.facts.decls[idx as usize].params = params;
        }
        if let Some(body) = node.child_by_field_name("body") {
            let returned = self.expr(body, &inner);
            if let Ex::Name(n) = returned {
                self.facts.decls[idx as usize].returns_value = Some(ReturnValue::Name(n));
            }
        }
        Ex::Lang(PyShape::Lambda(idx))
    }

    fn call(&mut self, node: Node, cx: &Ctx) -> Ex {
        let Some(function) = node.child_by_field_name("function") else {
            return Ex::Unknown;
        };
        let fx = self.expr(function, cx);
        let (callee, name_node) = match (&fx, function.kind()) {
            (Ex::Name(n), _) => (Callee::Name(n.clone()), function),
            (Ex::Path(p), _) => {
                let mut p = p.clone();
                let name = p.pop().unwrap_or_default();
                (
                    Callee::Member {
                        receiver: Receiver::Path(p),
                        name,
                    },
                    attr_name_node(function),
                )
            }
            (Ex::CallThen(c, p), _) => {
                let mut p = p.clone();
                let name = p.pop().unwrap_or_default();
                let receiver = if p.is_empty() {
                    Receiver::Call(*c)
                } else {
                    Receiver::CallThen { call: *c, path: p }
                };
                (Callee::Member { receiver, name }, attr_name_node(function))
            }
            (Ex::Call(inner), _) => (Callee::Result(*inner), function),
            (Ex::Lang(PyShape::Subscript(base, key)), _) => (
                Callee::Subscript {
                    // `ls[0][1]()`: the inner read keeps its structure.
                    base: match base.as_ref() {
                        Ex::Lang(PyShape::Subscript(..)) => {
                            Receiver::Subscript(Box::new(value_of(base)))
                        }
                        _ => receiver_of(base),
                    },
                    key: Some(key.clone()),
                    key_name: None,
                },
                function,
            ),
            (_, "subscript") => {
                // `d[k]()` with a computed key: named by the table; a key that is a
                // bare name is kept, for the resolver to read what it holds.
                let base = function.child_by_field_name("value");
                let receiver = match base.filter(|b| b.kind() == "identifier") {
                    Some(b) => Receiver::Path(vec![self.text(b).to_string()]),
                    None => Receiver::Unknown,
                };
                let subs: Vec<Node> = function
                    .children_by_field_name("subscript", &mut function.walk())
                    .collect();
                let key_name = match subs.as_slice() {
                    [k] if k.kind() == "identifier" => Some(self.text(*k).to_string()),
                    _ => None,
                };
                (
                    Callee::Subscript {
                        base: receiver,
                        key: None,
                        key_name,
                    },
                    function,
                )
            }
            (_, "attribute") => {
                // `(expr).m()` / `super().m()` / `"x".join()`
                let object = function.child_by_field_name("object");
                let name = function
                    .child_by_field_name("attribute")
                    .map(|a| self.text(a).to_string())
                    .unwrap_or_default();
                let receiver = object
                    .map(|o| self.receiver_for_object(o))
                    .unwrap_or(Receiver::Unknown);
                (Callee::Member { receiver, name }, attr_name_node(function))
            }
            _ => (Callee::Dynamic, function),
        };
        let mut args = Vec::new();
        let mut first_arg: Option<Ex> = None;
        let mut keyword_args = 0;
        let mut keywords = Vec::new();
        let mut has_splat = false;
        if let Some(arguments) = node.child_by_field_name("arguments") {
            for a in named_children(arguments) {
                match a.kind() {
                    "keyword_argument" => {
                        keyword_args += 1;
                        let value = a.child_by_field_name("value");
                        let name = a
                            .child_by_field_name("name")
                            .map(|n| self.text(n).to_string());
                        let e = value.map(|v| self.expr(v, cx)).unwrap_or(Ex::Unknown);
                        if let Some(v) = value {
                            self.reference_if_name(v, &e, cx, true);
                        }
                        if let Some(name) = name {
                            keywords.push((name, arg_shape(&e)));
                        }
                    }
                    "list_splat" | "dictionary_splat" => {
                        has_splat = true;
                        self.expr(a, cx);
                    }
                    "comment" => {}
                    _ => {
                        let e = self.expr(a, cx);
                        self.reference_if_name(a, &e, cx, true);
                        args.push(arg_shape(&e));
                        if first_arg.is_none() {
                            first_arg = Some(e);
                        }
                    }
                }
            }
        }
        self.table_mutation(&callee, first_arg.as_ref(), pos(node).0, cx);
        self.nested_table_mutation(function, &callee, cx);
        self.evaluated_literal(node, &callee, cx);
        self.patch(node, &callee, cx);
        let (line, column) = pos(name_node);
        let is_super = matches!(&callee, Callee::Name(n) if n == "super");
        let idx = self.push_call(Call {
            line,
            column,
            caller: cx.caller,
            scope: cx.scope,
            callee,
            kind: CallKind::Call,
            args,
            keyword_args,
            keywords,
            has_splat,
            type_args: 0,
            wrote: self.wrote(function),
            context: crate::facts::CallContext::Unread,
        });
        if is_super {
            Ex::Lang(PyShape::Super)
        } else {
            Ex::Call(idx)
        }
    }

    /// A run-time replacement of an attribute: `setattr(obj, "name", v)` (the
    /// built-in or pytest's `monkeypatch.setattr`), `monkeypatch.setattr("pkg.mod.f",
    /// v)`, `mock.patch("pkg.mod.f")` and `patch.object(obj, "name")`.
    fn patch(&mut self, node: Node, callee: &Callee, cx: &Ctx) {
        let (name, receiver_last) = match callee {
            Callee::Name(n) => (n.as_str(), None),
            Callee::Member {
                receiver: Receiver::Path(p),
                name,
            } => (name.as_str(), p.last().map(String::as_str)),
            _ => return,
        };
        let by_object = name == "setattr" || (name == "object" && receiver_last == Some("patch"));
        let by_string = name == "setattr" || name == "patch";
        if !by_object && !by_string {
            return;
        }
        let Some(arguments) = node.child_by_field_name("arguments") else {
            return;
        };
        let positional: Vec<Node> = named_children(arguments)
            .into_iter()
            .filter(|a| !matches!(a.kind(), "keyword_argument" | "comment"))
            .collect();
        let written = match positional.as_slice() {
            [object, attr, ..] if by_object && attr.kind() == "string" => {
                let path = self.attribute_path(*object);
                let attr = self.string_content(*attr).filter(|a| !a.is_empty());
                path.zip(attr).map(|(p, a)| (PatchTarget::Path(p), a))
            }
            [dotted, ..] if by_string && dotted.kind() == "string" => {
                dotted_string(self.src, *dotted).and_then(|mut path| {
                    let attr = path.pop()?;
                    (!path.is_empty()).then_some((PatchTarget::Dotted(path), attr))
                })
            }
            _ => None,
        };
        if let Some((target, attr)) = written {
            self.facts.patches.push(Patch {
                scope: cx.scope,
                line: pos(node).0,
                target,
                attr,
            });
        }
    }

    /// `eval("f()")` / `exec("f()")` with one literal string argument whose text
    /// parses as a single call of a bare name without arguments: that call is a
    /// site of its own, placed on the string. Kept pending until the file is read:
    /// it counts only when nothing in the file binds `eval`/`exec` (the built-in
    /// runs it) and no star import could.
    fn evaluated_literal(&mut self, node: Node, callee: &Callee, cx: &Ctx) {
        let Callee::Name(runner) = callee else {
            return;
        };
        if runner != "eval" && runner != "exec" {
            return;
        }
        let Some(arguments) = node.child_by_field_name("arguments") else {
            return;
        };
        let [string] = named_children(arguments)[..] else {
            return;
        };
        let Some(code) = self.string_content(string) else {
            return;
        };
        // A single call of a bare name with no arguments, and nothing else.
        let called = with_expression_statement(code.as_bytes(), |statement| {
            let [call] = named_children(statement)[..] else {
                return None;
            };
            let function = call.child_by_field_name("function")?;
            let arguments = call.child_by_field_name("arguments")?;
            let bare = call.kind() == "call"
                && function.kind() == "identifier"
                && arguments.named_child_count() == 0;
            bare.then(|| crate::lang::node_text(code.as_bytes(), function).to_string())
        });
        let Some(name) = called else {
            return;
        };
        let (line, column) = pos(string);
        self.evaluated.push((
            runner.clone(),
            Call {
                line,
                column,
                caller: cx.caller,
                scope: cx.scope,
                callee: Callee::Name(name.clone()),
                kind: CallKind::Call,
                args: Vec::new(),
                keyword_args: 0,
                keywords: Vec::new(),
                has_splat: false,
                type_args: 0,
                wrote: name,
                context: crate::facts::CallContext::Unread,
            },
        ));
    }

    /// The pending `eval("f()")` sites whose runner is the built-in.
    fn place_evaluated(&mut self) {
        if self.evaluated.is_empty() {
            return;
        }
        let star = self
            .facts
            .imports
            .iter()
            .any(|i| matches!(i.kind, ImportKind::Star { .. }));
        // One pass over the file's bindings (the name indexes are built later).
        let bound: Vec<&str> = self
            .facts
            .scopes
            .iter()
            .flat_map(|s| &s.bindings)
            .map(|b| b.name.as_str())
            .filter(|n| *n == "eval" || *n == "exec")
            .collect();
        let runners_bound = |runner: &str| bound.contains(&runner);
        let placed: Vec<Call> = std::mem::take(&mut self.evaluated)
            .into_iter()
            .filter(|(runner, _)| !star && !runners_bound(runner))
            .map(|(_, call)| call)
            .collect();
        for call in placed {
            self.push_call(call);
        }
    }

    /// `d.update({"k": g})` writes the literal's slots into the table `d`; any other
    /// mutating method (`setdefault`, `pop`, `append`, …) makes its slots unknowable.
    fn table_mutation(&mut self, callee: &Callee, first_arg: Option<&Ex>, line: u32, cx: &Ctx) {
        let Callee::Member {
            receiver: Receiver::Path(p),
            name,
        } = callee
        else {
            return;
        };
        let ([table], true) = (p.as_slice(), TABLE_MUTATORS.contains(&name.as_str())) else {
            return;
        };
        match (name.as_str(), first_arg) {
            ("update", Some(Ex::Lang(PyShape::Dict(entries)))) => {
                for (k, v) in entries {
                    let value = value_of(v);
                    self.bind(
                        cx,
                        table,
                        line,
                        BindingValue::Slot {
                            key: Some(k.clone()),
                            value,
                        },
                    );
                }
            }
            _ => self.bind(
                cx,
                table,
                line,
                BindingValue::Slot {
                    key: None,
                    value: ValueExpr::Unknown,
                },
            ),
        }
    }

    /// `d["a"].append(v)` / `d["a"].update(…)`: a mutating method on a nested table.
    fn nested_table_mutation(&mut self, function: Node, callee: &Callee, cx: &Ctx) {
        let Callee::Member { name, .. } = callee else {
            return;
        };
        let object = function
            .child_by_field_name("object")
            .filter(|o| function.kind() == "attribute" && o.kind() == "subscript");
        if let (Some(object), true) = (object, TABLE_MUTATORS.contains(&name.as_str())) {
            self.inner_table_changed(object, cx);
        }
    }

    /// `del d["k"]`: every slot of the outermost table becomes unknowable (list
    /// indices shift).
    fn table_deleted(&mut self, target: Node, cx: &Ctx) {
        let mut root = target;
        while root.kind() == "subscript" {
            match root.child_by_field_name("value") {
                Some(v) => root = v,
                None => return,
            }
        }
        if root.kind() == "identifier" {
            let name = self.text(root).to_string();
            self.bind(
                cx,
                &name,
                pos(target).0,
                BindingValue::Slot {
                    key: None,
                    value: ValueExpr::Unknown,
                },
            );
        }
    }

    /// The receiver of `(object).m()` when the object is not a plain path: the
    /// object was already visited by `expr(function)`, so only its shape is read here.
    fn receiver_for_object(&self, object: Node) -> Receiver {
        match object.kind() {
            "string" | "concatenated_string" => Receiver::Literal(LiteralType::Str),
            "integer" => Receiver::Literal(LiteralType::Int),
            "float" => Receiver::Literal(LiteralType::Float),
            "list" | "list_comprehension" => Receiver::Literal(LiteralType::List),
            "dictionary" | "dictionary_comprehension" => Receiver::Literal(LiteralType::Dict),
            "set" | "set_comprehension" => Receiver::Literal(LiteralType::Set),
            "tuple" => Receiver::Literal(LiteralType::Tuple),
            "call" => {
                // `super().m()`: the call was pushed last among the object's calls.
                let is_super = object
                    .child_by_field_name("function")
                    .is_some_and(|f| f.kind() == "identifier" && self.text(f) == "super");
                if is_super {
                    Receiver::Super
                } else {
                    Receiver::Unknown
                }
            }
            _ => Receiver::Unknown,
        }
    }

    /// A bare name or a dotted path used as a value might be a function passed
    /// along; the resolver keeps it only when it names a callable.
    fn reference_if_name(&mut self, node: Node, ex: &Ex, cx: &Ctx, escapes: bool) {
        let target = match ex {
            Ex::Name(n) => Callee::Name(n.clone()),
            Ex::Path(p) if p.len() >= 2 => {
                let mut p = p.clone();
                let name = p.pop().unwrap_or_default();
                Callee::Member {
                    receiver: Receiver::Path(p),
                    name,
                }
            }
            _ => return,
        };
        let name_node = if node.kind() == "attribute" {
            attr_name_node(node)
        } else {
            node
        };
        let (line, column) = pos(name_node);
        let wrote = self.wrote(node);
        self.facts.refs.push(ValueRef {
            line,
            column,
            caller: cx.caller,
            scope: cx.scope,
            target,
            wrote,
            escapes,
        });
    }
}

fn attr_name_node(attribute: Node) -> Node {
    attribute
        .child_by_field_name("attribute")
        .unwrap_or(attribute)
}

fn named_children(node: Node) -> Vec<Node> {
    let mut cursor = node.walk();
    node.named_children(&mut cursor)
        .filter(|c| c.kind() != "comment")
        .collect()
}

/// The element nodes of a sequence expression (a tuple, list or bare `a, b`).
fn sequence_nodes(node: Node) -> Vec<Node> {
    match node.kind() {
        "tuple" | "list" | "expression_list" => named_children(node),
        "parenthesized_expression" => node.named_child(0).map(sequence_nodes).unwrap_or_default(),
        _ => Vec::new(),
    }
}

/// Which value element a target at position `i` of `n` receives, given a starred
/// target at `star`; `None` when the shapes do not line up.
fn element_for(i: usize, n: usize, star: Option<usize>, values: usize) -> Option<usize> {
    match star {
        None if n == values => Some(i),
        None => None,
        Some(s) if values + 1 >= n => {
            if i < s {
                Some(i)
            } else if i > s {
                Some(values - (n - i))
            } else {
                None
            }
        }
        Some(_) => None,
    }
}

fn pos(node: Node) -> (u32, u32) {
    let p = node.start_position();
    (p.row as u32 + 1, p.column as u32 + 1)
}

fn agreed_return(returns: Vec<Option<ReturnValue>>) -> Option<ReturnValue> {
    let mut it = returns.into_iter();
    let first = it.next()??;
    for r in it {
        match (&first, r?) {
            (ReturnValue::SelfValue, ReturnValue::SelfValue) => {}
            (ReturnValue::Name(a), ReturnValue::Name(b)) if *a == b => {}
            // Two calls may yield different things; only one is followed.
            _ => return None,
        }
    }
    Some(first)
}

/// Methods that change a table's slots.
const TABLE_MUTATORS: &[&str] = &[
    "update",
    "setdefault",
    "pop",
    "popitem",
    "clear",
    "append",
    "extend",
    "insert",
    "remove",
    "__setitem__",
    "__delitem__",
    "sort",
    "reverse",
];

fn receiver_of(ex: &Ex) -> Receiver {
    ex.clone().receiver()
}

fn value_of(ex: &Ex) -> ValueExpr {
    ex.clone().value()
}

fn arg_shape(ex: &Ex) -> ArgShape {
    ex.clone().arg()
}

/// Python module names for every file, once all paths are known: the dotted name
/// under the outermost directory chain of packages (`src/click/core.py` →
/// `click.core` when `src/click/__init__.py` exists), then the root-relative name
/// when it differs (namespace packages).
pub fn assign_module_names(facts: &mut [FileFacts]) {
    let paths: std::collections::HashSet<String> = facts
        .iter()
        .filter(|f| f.language == Language::Python)
        .map(|f| f.path.clone())
        .collect();
    for f in facts.iter_mut().filter(|f| f.language == Language::Python) {
        f.module = module_names(&f.path, &paths);
    }
}

fn module_names(path: &str, paths: &std::collections::HashSet<String>) -> Vec<String> {
    let stem = path
        .strip_suffix(".py")
        .or_else(|| path.strip_suffix(".pyi"))
        .unwrap_or(path);
    let mut parts: Vec<&str> = stem.split('/').collect();
    if parts.last() == Some(&"__init__") {
        parts.pop();
    }
    if parts.is_empty() {
        return Vec::new();
    }
    // Walk up while the directory holding the current part is a package.
    let dirs: Vec<&str> = path.split('/').collect();
    let dir_count = dirs.len() - 1;
    let mut start = dir_count;
    while start > 0 {
        let init = format!("{}/__init__.py", dirs[..start].join("/"));
        if paths.contains(&init) {
            start -= 1;
        } else {
            break;
        }
    }
    let package_relative = parts[start.min(parts.len())..].join(".");
    let root_relative = parts.join(".");
    let mut out = Vec::new();
    if !package_relative.is_empty() {
        out.push(package_relative.clone());
    }
    if root_relative != package_relative {
        out.push(root_relative);
    }
    out
}
