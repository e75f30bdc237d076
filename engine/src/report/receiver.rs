//! A call's `receiver` in the report (docs/REPORT.md): the structure of its callee
//! and the evidence the written name it starts from has in the file's scopes, for a
//! reader who groups declined and missed sites by shape (`harness misses`).
//!
//! It is read from the facts the frontends extracted — the callee's structure and
//! the scope binding its first name finds — and decides nothing: no rule reads it, so
//! it never changes an answer. The lookup is a plain lexical one (the nearest binding
//! of the name in the enclosing scopes, written before the call or hoisted); a
//! language's own resolver may see more (an import's target, a field through a base
//! type), which is why this field is a description, not evidence for an edge.

use serde::Serialize;

use crate::facts::{
    Binding, BindingValue, Call, CallKind, Callee, DeclIdx, DeclKind, FileFacts, Receiver,
    ScopeIdx, ScopeKind, TypeRef, ValueExpr,
};
use crate::fasthash::FastSet;
use crate::lang::Language;

/// How far the walks below go up the scope and declaration chains. Scopes nest as
/// deep as the source does, and the frontends cut trees at their depth bound; a
/// description may stop early where a resolver could not.
const MAX_HOPS: u32 = 256;

/// The report's `receiver` object of one call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ReceiverEntry {
    /// The callee's structure: `name` (`f()`), `path` (`a.b.m()`), `scope`
    /// (`a::b::f()`), `chain` (`f().m()`), `member` (another receiver: a literal,
    /// `super`, a construction), `subscript` (`d["k"]()`), `result` (`f()()`),
    /// `dynamic`, `construction` (`new T()`), `constructor_chain` (`super(…)` /
    /// `this(…)`), `decorator` (`@d`), `implicit` (a call no text writes: `for`,
    /// `with`, `raise`).
    pub callee: &'static str,
    /// What the name the callee starts from is (see [`Evidence`]).
    pub kind: &'static str,
    /// Member reads written after the name `kind` describes (`p.a.m()` is a
    /// parameter at depth 1); left out when 0.
    #[serde(skip_serializing_if = "is_zero")]
    pub depth: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// What a written name is at a call, as far as the file's scopes say.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Evidence {
    /// The receiver word or binding of the caller's own instance (`this`, `self`, a
    /// Go or Rust method receiver, Python's first parameter of a method).
    OwnSelf,
    /// The same, written inside a closure (a lambda or a nested function) within
    /// the method that binds it.
    ClosureSelf,
    /// A field of the caller's own instance: `self.a` / `this.a`, or a bare field
    /// name of an enclosing class.
    Field,
    Parameter,
    /// A parameter of a lambda or closure.
    LambdaParameter,
    /// A parameter or local whose written type is a type parameter of an enclosing
    /// declaration (or Rust's `impl Trait`), or that type parameter itself (`T::m()`).
    GenericParameter,
    /// A local holding a value the frontend reads (an initializer or an
    /// assignment: a call's result, a construction, a name).
    Local,
    /// A local with a written type (`T x = …;`, `let x: T;`).
    LocalTyped,
    /// A local whose value the frontend does not read: declared without an
    /// initializer and untyped, or given an expression no frontend models. (The
    /// facts do not tell these two apart, so neither does this.)
    LocalUnknown,
    /// A name whose value the frontend does not follow (a loop variable, a pattern).
    Opaque,
    /// A variable of the file's module scope.
    Global,
    /// A name an import binds.
    Import,
    /// A declared function or method.
    Function,
    /// A declared type.
    Type,
    /// A module or namespace (`crate::`, `self::`, an inline `mod`, C++ `::f()`).
    Module,
    /// Nothing in the file's scopes binds the name (a built-in, a package-level
    /// name of another file, a member reached without a written receiver).
    Unbound,
}

impl Evidence {
    fn token(self) -> &'static str {
        match self {
            Evidence::OwnSelf => "self",
            Evidence::ClosureSelf => "closure_self",
            Evidence::Field => "field",
            Evidence::Parameter => "parameter",
            Evidence::LambdaParameter => "lambda_parameter",
            Evidence::GenericParameter => "generic_parameter",
            Evidence::Local => "local",
            Evidence::LocalTyped => "local_typed",
            Evidence::LocalUnknown => "local_unknown",
            Evidence::Opaque => "opaque",
            Evidence::Global => "global",
            Evidence::Import => "import",
            Evidence::Function => "function",
            Evidence::Type => "type",
            Evidence::Module => "module",
            Evidence::Unbound => "unbound",
        }
    }
}

/// The fields every declaration of one file writes, built once per file so that a
/// bare field name is a hash hit per enclosing class, never a scan of its fields.
pub struct FileFields<'a> {
    fields: FastSet<(DeclIdx, &'a str)>,
}

impl<'a> FileFields<'a> {
    pub fn of(file: &'a FileFacts) -> FileFields<'a> {
        let mut fields = FastSet::default();
        for (di, decl) in file.decls.iter().enumerate() {
            for field in &decl.fields {
                fields.insert((di as DeclIdx, field.name.as_str()));
            }
        }
        FileFields { fields }
    }

    fn declares(&self, decl: DeclIdx, name: &str) -> bool {
        self.fields.contains(&(decl, name))
    }
}

/// The receiver entry of one call of `file`.
pub fn receiver_of(file: &FileFacts, fields: &FileFields<'_>, call: &Call) -> ReceiverEntry {
    let callee = match call.kind {
        CallKind::New => "construction",
        CallKind::ConstructorChain => "constructor_chain",
        CallKind::Decorator => "decorator",
        CallKind::Iter | CallKind::Next | CallKind::Enter | CallKind::Raise => "implicit",
        CallKind::Call => callee_form(&call.callee),
    };
    let Described(kind, depth) = Site { file, fields, call }.callee_evidence();
    ReceiverEntry {
        callee,
        kind,
        depth,
    }
}

/// The structure of a plain call's callee.
fn callee_form(callee: &Callee) -> &'static str {
    match callee {
        Callee::Name(_) => "name",
        Callee::Member {
            receiver: Receiver::Path(p),
            ..
        } if is_rust_scope_path(p) => "scope",
        Callee::Member {
            receiver: Receiver::Path(_),
            ..
        } => "path",
        Callee::Member {
            receiver: Receiver::Scope(_),
            ..
        } => "scope",
        Callee::Member {
            receiver: Receiver::Call(_) | Receiver::CallThen { .. },
            ..
        } => "chain",
        Callee::Member { .. } => "member",
        Callee::Subscript { .. } => "subscript",
        Callee::Result(_) => "result",
        Callee::Dynamic => "dynamic",
    }
}

/// Rust writes `a::b::f()` as a path led by its scope marker.
fn is_rust_scope_path(path: &[String]) -> bool {
    path.first()
        .is_some_and(|s| s == crate::lang::rust::policy::SCOPED)
}

/// A kind token and the member reads after the name it describes.
struct Described(&'static str, u32);

/// One call of one file, with what the description reads.
struct Site<'a> {
    file: &'a FileFacts,
    fields: &'a FileFields<'a>,
    call: &'a Call,
}

impl Site<'_> {
    /// What the callee starts from.
    fn callee_evidence(&self) -> Described {
        match &self.call.callee {
            Callee::Name(name) => self.path_evidence(std::slice::from_ref(name)),
            Callee::Member { receiver, .. } => self.receiver_evidence(receiver),
            Callee::Subscript { base, .. } => self.receiver_evidence(base),
            Callee::Result(_) => Described("call", 0),
            Callee::Dynamic => Described("unknown", 0),
        }
    }

    fn receiver_evidence(&self, receiver: &Receiver) -> Described {
        match receiver {
            Receiver::Path(p) if is_rust_scope_path(p) => self.scope_evidence(&p[1..]),
            Receiver::Path(p) => self.path_evidence(p),
            Receiver::Scope(p) => self.scope_evidence(p),
            Receiver::Call(_) => Described("call", 0),
            Receiver::CallThen { path, .. } => Described("call", path.len() as u32),
            Receiver::Super => Described("super", 0),
            Receiver::New(_) => Described("construction", 0),
            Receiver::Literal(_) => Described("literal", 0),
            Receiver::QualifiedThis(_) => Described(Evidence::OwnSelf.token(), 0),
            Receiver::Subscript(_) => Described("subscript", 0),
            Receiver::Unknown => Described("unknown", 0),
        }
    }

    /// `a::b::f()`: the scope path's first name; the global scope and Rust's module
    /// words are modules.
    fn scope_evidence(&self, path: &[String]) -> Described {
        let Some(first) = path.first() else {
            return Described(Evidence::Module.token(), 0);
        };
        let depth = path.len() as u32 - 1;
        if self.file.language == Language::Rust && matches!(first.as_str(), "crate" | "super") {
            return Described(Evidence::Module.token(), depth);
        }
        if self.file.language == Language::Rust && first == "self" {
            return Described(Evidence::Module.token(), depth);
        }
        if first == "Self" {
            return Described(Evidence::Type.token(), depth);
        }
        Described(self.name_evidence(first).token(), depth)
    }

    /// A path of names: its first name's evidence, and a self-rooted path read as
    /// a field.
    fn path_evidence(&self, path: &[String]) -> Described {
        let Some(first) = path.first() else {
            return Described("unknown", 0);
        };
        let depth = path.len() as u32 - 1;
        match self.name_evidence(first) {
            Evidence::OwnSelf | Evidence::ClosureSelf if depth > 0 => {
                Described(Evidence::Field.token(), depth - 1)
            }
            evidence => Described(evidence.token(), depth),
        }
    }

    /// What one written name is at the call.
    fn name_evidence(&self, name: &str) -> Evidence {
        if self.is_an_enclosing_type_parameter(name) {
            return Evidence::GenericParameter;
        }
        if name == "this" && self.file.language != Language::Python {
            return self.this_evidence();
        }
        match self.nearest_binding(name) {
            Found::Binding(scope, binding) => self.binding_evidence(scope, binding),
            Found::Field => Evidence::Field,
            Found::Nothing => Evidence::Unbound,
        }
    }

    /// `this` in Java, C++ and TypeScript is a word, not a binding: it is the
    /// caller's own instance, or — written inside a closure or a nested function
    /// within a method or class body — a captured (or, in JavaScript, rebound) one.
    /// A plain function's `this` outside any class is its own.
    fn this_evidence(&self) -> Evidence {
        let mut crossed_closure = false;
        let mut cur = Some(self.call.scope);
        for _ in 0..MAX_HOPS {
            let Some(s) = cur else { break };
            let scope = &self.file.scopes[s as usize];
            if scope.kind == ScopeKind::Class || self.is_method_body(s) {
                return if crossed_closure {
                    Evidence::ClosureSelf
                } else {
                    Evidence::OwnSelf
                };
            }
            crossed_closure |= self.is_closure_body(s) || self.is_function_body(s);
            cur = scope.parent;
        }
        Evidence::OwnSelf
    }

    fn binding_evidence(&self, scope: ScopeIdx, binding: &Binding) -> Evidence {
        let module_scope = self.file.scopes[scope as usize].parent.is_none();
        match &binding.value {
            BindingValue::Param { index, ty } => {
                if self.is_receiver_parameter(scope, *index) {
                    return self.self_or_closure_self(scope);
                }
                if ty.as_ref().is_some_and(|t| self.is_a_type_parameter(t)) {
                    Evidence::GenericParameter
                } else if self.is_closure_body(scope) {
                    Evidence::LambdaParameter
                } else {
                    Evidence::Parameter
                }
            }
            BindingValue::Typed { ty, .. } if self.is_a_type_parameter(ty) => {
                Evidence::GenericParameter
            }
            _ if module_scope && is_a_variable(&binding.value) => Evidence::Global,
            BindingValue::Typed { .. } => Evidence::LocalTyped,
            BindingValue::Value(ValueExpr::Unknown) => Evidence::LocalUnknown,
            BindingValue::Value(_) => Evidence::Local,
            BindingValue::Opaque => Evidence::Opaque,
            BindingValue::Slot { .. } => Evidence::Local,
            BindingValue::Import(_) => Evidence::Import,
            BindingValue::Decl(d) => {
                let decl = &self.file.decls[*d as usize];
                if decl.is_module {
                    Evidence::Module
                } else if decl.kind.is_type() {
                    Evidence::Type
                } else {
                    Evidence::Function
                }
            }
        }
    }

    /// The instance a method runs on: the receiver index Go and Rust give it, or
    /// Python's first parameter of a method that is not static.
    fn is_receiver_parameter(&self, scope: ScopeIdx, index: u32) -> bool {
        match self.file.language {
            Language::Go => index == crate::lang::go::policy::RECEIVER_INDEX,
            Language::Rust => index == crate::lang::rust::policy::RECEIVER_INDEX,
            Language::Python => {
                index == 0
                    && self.file.scopes[scope as usize].owner.is_some_and(|d| {
                        let decl = &self.file.decls[d as usize];
                        decl.kind == DeclKind::Method && !decl.is_static
                    })
            }
            _ => false,
        }
    }

    /// A receiver bound in `bound`, read from the call's scope: a closure between
    /// the two makes it a captured one.
    fn self_or_closure_self(&self, bound: ScopeIdx) -> Evidence {
        let mut cur = Some(self.call.scope);
        for _ in 0..MAX_HOPS {
            let Some(s) = cur.filter(|&s| s != bound) else {
                break;
            };
            if self.is_closure_body(s) || self.is_function_body(s) {
                return Evidence::ClosureSelf;
            }
            cur = self.file.scopes[s as usize].parent;
        }
        Evidence::OwnSelf
    }

    /// The nearest binding of `name` visible at the call: in each enclosing scope the
    /// last binding written at or before the call's line (or hoisted, line 0), else,
    /// in a module or class scope, its first; a class scope also answers with its
    /// fields. Python's class bodies are not scopes of their methods.
    fn nearest_binding(&self, name: &str) -> Found<'_> {
        let mut cur = Some(self.call.scope);
        for _ in 0..MAX_HOPS {
            let Some(s) = cur else { break };
            let scope = &self.file.scopes[s as usize];
            let class = scope.kind == ScopeKind::Class;
            if class && scope.owner.is_some_and(|o| self.fields.declares(o, name)) {
                return Found::Field;
            }
            if !(class && self.file.language == Language::Python) {
                let writes = || {
                    scope
                        .named(name)
                        .filter(|b| !matches!(b.value, BindingValue::Slot { .. }))
                };
                let before = writes().rfind(|b| b.line == 0 || b.line <= self.call.line);
                let hoisted = || (class || scope.parent.is_none()).then(|| writes().next());
                if let Some(b) = before.or_else(|| hoisted().flatten()) {
                    return Found::Binding(s, b);
                }
            }
            cur = scope.parent;
        }
        Found::Nothing
    }

    /// `T` is a type parameter of the caller or of a declaration around it.
    fn is_an_enclosing_type_parameter(&self, name: &str) -> bool {
        let mut cur = self.call.caller;
        for _ in 0..MAX_HOPS {
            let Some(d) = cur else { break };
            let decl = &self.file.decls[d as usize];
            if decl.type_params.iter().any(|t| t == name) {
                return true;
            }
            cur = decl.parent;
        }
        false
    }

    /// A written type that names a type parameter in scope (or Rust's `impl Tr`,
    /// an anonymous one).
    fn is_a_type_parameter(&self, ty: &TypeRef) -> bool {
        if self.file.language == Language::Rust
            && ty.path.first().map(String::as_str) == Some(crate::lang::rust::policy::IMPL_TRAIT)
        {
            return true;
        }
        match ty.path.as_slice() {
            [only] => self.is_an_enclosing_type_parameter(only),
            _ => false,
        }
    }

    /// A scope that is the body of a lambda or closure.
    fn is_closure_body(&self, s: ScopeIdx) -> bool {
        let scope = &self.file.scopes[s as usize];
        scope.kind == ScopeKind::Lambda
            || (scope.kind == ScopeKind::Function && self.owner_kind(s) == Some(DeclKind::Lambda))
    }

    /// A scope that is the body of a named function (not a method).
    fn is_function_body(&self, s: ScopeIdx) -> bool {
        self.file.scopes[s as usize].kind == ScopeKind::Function
            && self.owner_kind(s) == Some(DeclKind::Function)
    }

    fn is_method_body(&self, s: ScopeIdx) -> bool {
        self.file.scopes[s as usize].kind == ScopeKind::Function
            && matches!(
                self.owner_kind(s),
                Some(DeclKind::Method | DeclKind::Constructor)
            )
    }

    fn owner_kind(&self, s: ScopeIdx) -> Option<DeclKind> {
        self.file.scopes[s as usize]
            .owner
            .map(|d| self.file.decls[d as usize].kind)
    }
}

/// What a name lookup found.
enum Found<'a> {
    Binding(ScopeIdx, &'a Binding),
    /// A field of an enclosing class, named without a receiver.
    Field,
    Nothing,
}

fn is_a_variable(value: &BindingValue) -> bool {
    matches!(
        value,
        BindingValue::Typed { .. }
            | BindingValue::Value(_)
            | BindingValue::Opaque
            | BindingValue::Slot { .. }
    )
}
