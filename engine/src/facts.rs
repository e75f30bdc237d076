//! Language-neutral facts a frontend extracts from one file while its syntax tree
//! is alive. Everything a later stage needs that has structure is stored here as
//! structure: a callee is a receiver path plus a name, an argument is a shape, a
//! type is a path of segments with arguments. No later stage re-parses text.

use crate::lang::Language;

/// Index of a declaration inside one file's `FileFacts::decls`.
pub type DeclIdx = u32;
/// Index of a scope inside one file's `FileFacts::scopes`.
pub type ScopeIdx = u32;
/// Index of a call inside one file's `FileFacts::calls`.
pub type CallIdx = u32;

/// Everything one file contributes to the tree.
#[derive(Debug, Clone)]
pub struct FileFacts {
    /// Path relative to the analysed root, `/`-separated.
    pub path: String,
    pub language: Language,
    /// Module identity: Python dotted module names this file answers to (the
    /// package-relative name first, then the root-relative one when different);
    /// Java: the package (`org.jsoup.nodes`, empty for the default package).
    /// Go: the package's key (its import path, `_test` appended for an external
    /// test package) then the file's directory. C#: every namespace the file
    /// declares (dotted, `N.M`), each once, in source order.
    pub module: Vec<String>,
    /// True for a Python package's `__init__.py`.
    pub is_package_init: bool,
    pub parse_errors: u32,
    pub decls: Vec<Decl>,
    /// Scope 0 is the file/module scope.
    pub scopes: Vec<Scope>,
    pub imports: Vec<Import>,
    pub calls: Vec<Call>,
    /// Functions used as values (callbacks, method references, table entries).
    pub refs: Vec<ValueRef>,
    /// Python: a literal `__all__` at module level, when written.
    pub all_names: Option<Vec<String>>,
    /// Rust: the `macro_rules!` this file defines, each with whether it forwards
    /// one expression (every rule takes one `$x:expr` and writes `$x` once).
    /// Empty elsewhere.
    pub macro_rules: Vec<(String, bool)>,
    /// Rust: the calls written in the argument of a macro of the tree
    /// (`ok!(self.verify_arg(id))`), kept aside by macro name, numbered from 0
    /// within each list, until the crate's forwarding macros are known. Empty elsewhere.
    pub macro_argument_calls: Vec<(String, Vec<Call>)>,
    /// Python: the attributes this file replaces at run time. Empty elsewhere.
    pub patches: Vec<Patch>,
    /// What the file is to its language's program (a module, or a type stub).
    pub role: FileRole,
    /// The build configuration leaves the whole file out (Go build constraints and
    /// file-name suffixes): it is reported in `skipped` as `build_excluded` and none
    /// of its declarations competes with the ones built.
    pub build_excluded: bool,
    /// The parse ran past its budget (time or tree size): the file is reported in
    /// `skipped` as `parse_budget` and declares nothing.
    pub over_parse_budget: bool,
    /// TypeScript/JavaScript: every module specifier the file writes (import and
    /// export declarations, `require`, `import()`), with how it loads it and, filled
    /// after extraction by the file's project (lang/typescript/project.rs), where it
    /// goes; sorted by specifier then. Empty elsewhere.
    pub module_requests: Vec<ModuleRequest>,
    /// Python: a module and its type stub beside it (`pkg/mod.py` and
    /// `pkg/mod.pyi`), set on both files once every path is known.
    pub stub_pair: Option<StubPair>,
    /// Python: imports written under `if TYPE_CHECKING:` (indices into `imports`,
    /// ascending). The names they bind serve annotations only: no call is placed
    /// through them.
    pub annotation_imports: Vec<u32>,
    /// Python: imports written in an `except ImportError:` handler whose `try`
    /// imports the same names (indices into `imports`, ascending): the fallback
    /// when the module the `try` imports is neither the tree's nor the standard
    /// library's.
    pub fallback_imports: Vec<u32>,
}

/// Python: the other file of a module/stub pair, and the declarations the two
/// write under one qualified name: `(this file's declaration, the other's)`, sorted
/// (an `@overload` stack of the stub pairs one implementation with several).
#[derive(Debug, Clone, Default)]
pub struct StubPair {
    pub other: String,
    pub decls: Vec<(DeclIdx, DeclIdx)>,
}

impl StubPair {
    /// The other file's declarations written under this file's declaration's name.
    pub fn matching(&self, decl: DeclIdx) -> impl Iterator<Item = DeclIdx> + '_ {
        let start = self.decls.partition_point(|&(d, _)| d < decl);
        self.decls[start..]
            .iter()
            .take_while(move |&&(d, _)| d == decl)
            .map(|&(_, other)| other)
    }
}

/// A module a TypeScript/JavaScript file loads by specifier.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct ModuleRequest {
    pub specifier: String,
    pub syntax: ModuleSyntax,
    /// `None` until the tree's projects are read.
    pub target: Option<ModuleTarget>,
}

/// How a module is loaded where it is written: tsc picks `exports` conditions (and,
/// under `node16`, whether extensions may be left out) by it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ModuleSyntax {
    /// `import … from`, `export … from`, `import type`.
    Import,
    /// `require("m")`, `import x = require("m")`.
    Require,
    /// `import("m")`.
    DynamicImport,
}

/// Where a module specifier goes.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum ModuleTarget {
    /// A file of the tree that the program reads (root-relative path).
    File(String),
    /// The tree claims it (a relative path, a package of the tree, a `#` import) and
    /// no file of the program answers: a JavaScript file outside `allowJs`, a path
    /// with no file.
    Missing,
    /// Nothing in the tree: a package from outside (`react`, `node:fs`).
    Outside,
}

/// What a file is to its program.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FileRole {
    /// Code the program runs (the default).
    #[default]
    Source,
    /// Python: a `.pyi` type stub. It declares nothing a call can reach; it supplies
    /// types for the module beside it.
    Stub,
}

impl FileRole {
    /// The report's `role` token; `None` for a source (the field is left out).
    pub fn token(self) -> Option<&'static str> {
        match self {
            FileRole::Source => None,
            FileRole::Stub => Some("stub"),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DeclKind {
    Class,
    Interface,
    Enum,
    Record,
    Function,
    Method,
    Constructor,
    Lambda,
}

impl DeclKind {
    pub fn token(self) -> &'static str {
        match self {
            DeclKind::Class => "class",
            DeclKind::Interface => "interface",
            DeclKind::Enum => "enum",
            DeclKind::Record => "record",
            DeclKind::Function => "function",
            DeclKind::Method => "method",
            DeclKind::Constructor => "constructor",
            DeclKind::Lambda => "lambda",
        }
    }

    pub fn is_type(self) -> bool {
        matches!(
            self,
            DeclKind::Class | DeclKind::Interface | DeclKind::Enum | DeclKind::Record
        )
    }

    pub fn is_callable(self) -> bool {
        !self.is_type()
    }
}

/// A type as the source writes it: `pkg.Outer.Inner<A, B>` is the path
/// `["pkg", "Outer", "Inner"]` with two arguments. `Self`-like forms are flagged.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TypeRef {
    pub path: Vec<String>,
    pub args: Vec<TypeRef>,
    /// `-> Self`, `-> "C"` naming the enclosing class, Java `return this` typed.
    pub is_self: bool,
    /// Array / variadic element (Java `T[]`): members are the array's, not T's.
    pub array: bool,
}

impl TypeRef {
    pub fn simple(name: &str) -> TypeRef {
        TypeRef {
            path: vec![name.to_string()],
            args: Vec::new(),
            is_self: false,
            array: false,
        }
    }

    pub fn self_type() -> TypeRef {
        TypeRef {
            path: Vec::new(),
            args: Vec::new(),
            is_self: true,
            array: false,
        }
    }

    pub fn last(&self) -> Option<&str> {
        self.path.last().map(String::as_str)
    }
}

#[derive(Debug, Clone)]
pub struct Param {
    pub name: String,
    pub ty: Option<TypeRef>,
    /// Python `*args` / `**kwargs`, Java `T... xs`.
    pub variadic: bool,
    pub keyword_variadic: bool,
    pub has_default: bool,
    /// Python: the default value, evaluated where the function is defined.
    pub default: Option<ValueExpr>,
}

#[derive(Debug, Clone)]
pub struct Decl {
    pub name: String,
    pub kind: DeclKind,
    /// The enclosing declaration (the class of a method, the function of a nested def).
    pub parent: Option<DeclIdx>,
    /// The scope the name is bound in.
    pub scope: ScopeIdx,
    /// The scope the declaration opens (its body).
    pub body: Option<ScopeIdx>,
    pub line: u32,
    pub column: u32,
    pub end_line: u32,
    pub params: Vec<Param>,
    /// Java `static`, Python `@staticmethod`.
    pub is_static: bool,
    /// Python `@classmethod`.
    pub is_classmethod: bool,
    /// Python `@property`: reading the attribute calls it, so `x.p.m()` walks its return type.
    pub is_property: bool,
    /// C++ `= delete`: declared, and never callable.
    pub is_deleted: bool,
    pub returns: Option<TypeRef>,
    /// Base classes and implemented interfaces as written; Go: a struct's embedded
    /// fields and an interface's embedded interfaces, and for a method the
    /// receiver's type (the type it is a member of).
    pub bases: Vec<TypeRef>,
    /// Fields with a written type (`self.x: T`, `private T x;`, class-level `x: T`).
    pub fields: Vec<Field>,
    /// What the body returns when it is knowable from structure: a function named
    /// by every `return` (a factory), or `this`/`self`.
    pub returns_value: Option<ReturnValue>,
    /// Type parameters the declaration introduces.
    pub type_params: Vec<String>,
    /// C#: the types a type parameter is constrained to (`where T : IFoo, new()`
    /// is `("T", [IFoo])`), for each constrained parameter. Kotlin: the bounds
    /// written `<T : B>` or `where T : B`. Empty elsewhere.
    pub type_param_bounds: Vec<(String, Vec<TypeRef>)>,
    /// Decorators / annotations, outermost first. C++: the specifiers `virtual`,
    /// `override` and `final` of a member function. C#: the attributes, then the
    /// modifiers member lookup reads (`override`, `virtual`, `abstract`, `new`,
    /// `sealed`, `partial`, `extern`), each a one-segment path spelled as the keyword.
    pub decorators: Vec<Decorator>,
    /// Rust: an `impl T` / `impl Tr for T` block is a declaration (named by T's
    /// last segment) whose members are T's methods; this is T as written.
    /// Kotlin: an extension function's receiver type as written (`fun A.f()`).
    /// C#: an extension method's `this` parameter type (the type it extends).
    pub impl_of: Option<TypeRef>,
    /// Rust: an inline `mod m { … }` (a namespace, not a type).
    pub is_module: bool,
    /// C and C++: the scope path the name is qualified by beyond its parent
    /// declaration: the enclosing namespaces (`ns::inner`) and, for an out-of-line
    /// member definition (`void ns::T::m() {}`), the written class path too.
    /// Kotlin: a top-level extension's receiver as written, in angle brackets
    /// (`fun A.f()` is `file.kt::<A>::f`), so extensions of one name on several
    /// types are no overloads of each other.
    /// C#: a top-level declaration's namespace (`N.M` is `["N", "M"]`).
    /// Empty for every other language.
    pub scope_path: Vec<String>,
    /// C and C++: the declaration is visible only in its own file (and, for a
    /// header, in the files that include it): `static` at file scope or a member of
    /// an anonymous namespace.
    pub file_local: bool,
    /// Python: a generator (a body with `yield`) whose every `yield` hands out the
    /// same bare name (`yield f`); `None` for everything else. Iterating the
    /// generator's result gives that value.
    pub yields_value: Option<ReturnValue>,
    /// Written in code the build configuration leaves out (Rust `#[cfg]` off,
    /// Python's `if TYPE_CHECKING:` or a version branch not taken): listed as an
    /// entity, marked so, and never a target: the index does not hold it.
    pub inactive: bool,
    /// Kotlin: a lambda written as an argument of the call at this index of the
    /// same file, at this position of its arguments (`u32::MAX`: the trailing
    /// lambda, which fills the last parameter). Its implicit receiver and `it` are
    /// what that parameter gives. `None` everywhere else.
    pub argument_of: Option<(CallIdx, u32)>,
}

/// `@a.b` (path ["a", "b"]) or `@a.b(args)` (the same path, `called`).
#[derive(Debug, Clone)]
pub struct Decorator {
    pub path: Vec<String>,
    pub called: bool,
}

impl Decl {
    /// A typing `@overload` stub: a signature only, replaced by the last definition.
    pub fn is_overload_stub(&self) -> bool {
        self.decorators
            .iter()
            .any(|d| d.path.last().is_some_and(|n| n == "overload"))
    }
}

impl Decl {
    /// A declaration at a position with nothing else known yet; the frontend fills
    /// parameters, types, bases and flags as it reads them.
    pub fn new(
        name: String,
        kind: DeclKind,
        parent: Option<DeclIdx>,
        scope: ScopeIdx,
        at: (u32, u32),
        end_line: u32,
    ) -> Decl {
        Decl {
            name,
            kind,
            parent,
            scope,
            body: None,
            line: at.0,
            column: at.1,
            end_line,
            params: Vec::new(),
            is_static: false,
            is_deleted: false,
            is_classmethod: false,
            is_property: false,
            returns: None,
            bases: Vec::new(),
            fields: Vec::new(),
            returns_value: None,
            type_params: Vec::new(),
            type_param_bounds: Vec::new(),
            decorators: Vec::new(),
            impl_of: None,
            is_module: false,
            scope_path: Vec::new(),
            file_local: false,
            yields_value: None,
            inactive: false,
            argument_of: None,
        }
    }

    /// (min, max) positional arity a call may give; `None` max = unbounded.
    pub fn arity(&self) -> (u32, Option<u32>) {
        let mut min = 0u32;
        let mut max = Some(0u32);
        for p in &self.params {
            if p.keyword_variadic {
                continue;
            }
            if p.variadic {
                max = None;
                continue;
            }
            if !p.has_default {
                min += 1;
            }
            if let Some(m) = max.as_mut() {
                *m += 1;
            }
        }
        (min, max)
    }
}

#[derive(Debug, Clone)]
pub enum ReturnValue {
    /// Every `return` names the same function (or class) by a bare name.
    Name(String),
    /// `return self` / `return this`.
    SelfValue,
    /// The function's only `return` returns what the call at this index yields
    /// (`return C()`, `return make()`).
    CallResult(CallIdx),
    /// The function's only `return` returns an attribute or a lambda
    /// (`return self.handler`, `return lambda x: x`), read in its body.
    Value(ValueExpr),
}

/// Python: a run-time replacement of an attribute (`monkeypatch.setattr(mod, "f",
/// g)`, `setattr(C, "m", g)`, `mock.patch("pkg.mod.f")`, `patch.object(C, "m")`):
/// a call that reaches `target.attr` may reach the replacement instead.
#[derive(Debug, Clone)]
pub struct Patch {
    /// Where the patch is written: its target's names are read there.
    pub scope: ScopeIdx,
    pub line: u32,
    pub target: PatchTarget,
    pub attr: String,
}

#[derive(Debug, Clone)]
pub enum PatchTarget {
    /// An object written as a name or a dotted path (`click.termui`).
    Path(Vec<String>),
    /// An absolute dotted name written in a string (`"pkg.mod.Class"`).
    Dotted(Vec<String>),
}

#[derive(Debug, Clone)]
pub struct Field {
    pub name: String,
    pub ty: Option<TypeRef>,
    /// Python: `self.x = C()` etc. when no annotation is written.
    pub value: Option<ValueExpr>,
    pub line: u32,
    pub is_static: bool,
    /// The scope the write stands in (the method body for `self.x = v`), where
    /// its value is read.
    pub scope: ScopeIdx,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScopeKind {
    Module,
    Class,
    Function,
    Lambda,
    Block,
}

#[derive(Debug, Clone)]
pub struct Scope {
    pub kind: ScopeKind,
    pub parent: Option<ScopeIdx>,
    /// The declaration whose body this is.
    pub owner: Option<DeclIdx>,
    /// Bindings in source order.
    pub bindings: Vec<Binding>,
    /// Positions in `bindings` by name, in source order; filled by [`FileFacts::finish`]
    /// so a lookup is a hash hit, not a scan of a scope with 26 000 names.
    pub by_name: crate::fasthash::FastMap<String, Vec<u32>>,
}

impl Scope {
    pub fn new(kind: ScopeKind, parent: Option<ScopeIdx>, owner: Option<DeclIdx>) -> Scope {
        Scope {
            kind,
            parent,
            owner,
            bindings: Vec::new(),
            by_name: Default::default(),
        }
    }

    /// The bindings of one name, in source order.
    pub fn named<'a>(&'a self, name: &str) -> impl DoubleEndedIterator<Item = &'a Binding> + 'a {
        self.by_name
            .get(name)
            .into_iter()
            .flatten()
            .map(|&i| &self.bindings[i as usize])
    }
}

impl FileFacts {
    /// The facts of a file before extraction: scope 0, the module scope, and
    /// nothing else. Every frontend starts here, so a field added for one language
    /// has its empty value written once.
    pub fn new(path: &str, language: Language) -> FileFacts {
        FileFacts {
            path: path.to_string(),
            language,
            module: Vec::new(),
            is_package_init: false,
            parse_errors: 0,
            decls: Vec::new(),
            scopes: vec![Scope::new(ScopeKind::Module, None, None)],
            imports: Vec::new(),
            calls: Vec::new(),
            refs: Vec::new(),
            all_names: None,
            macro_rules: Vec::new(),
            macro_argument_calls: Vec::new(),
            patches: Vec::new(),
            role: FileRole::Source,
            build_excluded: false,
            over_parse_budget: false,
            module_requests: Vec::new(),
            stub_pair: None,
            annotation_imports: Vec::new(),
            fallback_imports: Vec::new(),
        }
    }

    /// Build the per-scope name indexes once extraction is complete.
    pub fn finish(&mut self) {
        for scope in &mut self.scopes {
            scope.by_name.clear();
            for (i, b) in scope.bindings.iter().enumerate() {
                scope
                    .by_name
                    .entry(b.name.clone())
                    .or_default()
                    .push(i as u32);
            }
        }
    }
}

#[derive(Debug, Clone)]
pub struct Binding {
    pub name: String,
    /// Line of the write; reads pick the nearest write before them.
    pub line: u32,
    pub value: BindingValue,
}

#[derive(Debug, Clone)]
pub enum BindingValue {
    /// `def f` / `class C` / a Java member.
    Decl(DeclIdx),
    /// A parameter of the scope's function: position and written type.
    Param { index: u32, ty: Option<TypeRef> },
    /// An import binding (index into `FileFacts::imports`).
    Import(u32),
    /// A local (or module-level) variable with a written type and possibly a value.
    Typed {
        ty: TypeRef,
        value: Option<ValueExpr>,
    },
    /// A local assigned a value.
    Value(ValueExpr),
    /// A name whose value the engine cannot follow (loop variable, `with … as`).
    Opaque,
    /// `d["k"] = v` (key `None` when computed): a write into the table `d` holds.
    /// Plain reads of `d` skip it; reads of `d["k"]` see the nearest such write.
    Slot { key: Option<Key>, value: ValueExpr },
}

/// What an assignment's right-hand side is, as structure.
#[derive(Debug, Clone)]
pub enum ValueExpr {
    /// A bare name: `h = f`.
    Name(String),
    /// `a.b.c` (attribute read): the receiver path and the last member.
    Attribute {
        path: Vec<String>,
    },
    /// The result of the call at this index of the same file.
    CallResult(CallIdx),
    /// `C()` in Python is a call; Java `new T()` is this.
    New(TypeRef),
    /// `{"k": f, …}` with literal keys.
    Dict(Vec<(Key, ValueExpr)>),
    /// `[f, g]` / `(f, g)`.
    Sequence(Vec<ValueExpr>),
    /// `d["k"]` / `a[0]`: a subscript of a name by a literal key.
    Subscript {
        base: Box<ValueExpr>,
        key: Key,
    },
    /// Python `a[1:3]` / `a[:-1]`: a copy of part of a sequence, by literal bounds
    /// (no step).
    Slice {
        base: Box<ValueExpr>,
        start: Option<i64>,
        stop: Option<i64>,
    },
    /// Python `d["a"]["b"] = v`, recorded as a write of `d`'s slot `"a"`: the table
    /// that slot held, with its key `"b"` set to v.
    SetInner {
        key: Key,
        value: Box<ValueExpr>,
    },
    /// A lambda declared at this index.
    Lambda(DeclIdx),
    /// One element of what the inner value iterates over (`for x in items:`).
    Element(Box<ValueExpr>),
    Literal(LiteralType),
    /// A string or integer literal, by value: what can key a table (`k = "a"`).
    Key(Key),
    /// Starred element of an unpacking, or anything else.
    Unknown,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Key {
    Str(String),
    Int(i64),
}

impl Key {
    /// The type of the literal that writes this key.
    pub fn literal_type(&self) -> LiteralType {
        match self {
            Key::Str(_) => LiteralType::Str,
            Key::Int(_) => LiteralType::Int,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LiteralType {
    Str,
    Int,
    Long,
    Float,
    Double,
    Bool,
    Char,
    None,
    Bytes,
    List,
    Dict,
    Set,
    Tuple,
}

impl LiteralType {
    /// The type name the language gives the literal (Java primitives, Python builtins).
    pub fn type_name(self, java: bool) -> &'static str {
        match (self, java) {
            (LiteralType::Str, true) => "String",
            (LiteralType::Str, false) => "str",
            (LiteralType::Int, true) => "int",
            (LiteralType::Int, false) => "int",
            (LiteralType::Long, _) => "long",
            (LiteralType::Float, true) => "float",
            (LiteralType::Float, false) => "float",
            (LiteralType::Double, _) => "double",
            (LiteralType::Bool, true) => "boolean",
            (LiteralType::Bool, false) => "bool",
            (LiteralType::Char, _) => "char",
            (LiteralType::None, true) => "null",
            (LiteralType::None, false) => "NoneType",
            (LiteralType::Bytes, _) => "bytes",
            (LiteralType::List, _) => "list",
            (LiteralType::Dict, _) => "dict",
            (LiteralType::Set, _) => "set",
            (LiteralType::Tuple, _) => "tuple",
        }
    }
}

#[derive(Debug, Clone)]
pub struct Import {
    pub line: u32,
    pub kind: ImportKind,
}

#[derive(Debug, Clone)]
pub enum ImportKind {
    /// Python `import a.b.c` (binds `a`) or `import a.b as x` (binds x to a.b).
    Module {
        path: Vec<String>,
        alias: Option<String>,
    },
    /// Python `from (level dots)m import name as alias`.
    From {
        level: u32,
        module: Vec<String>,
        name: String,
        alias: Option<String>,
    },
    /// Python `from m import *`.
    Star { level: u32, module: Vec<String> },
    /// Java `import a.b.C;` (single type) — binds C.
    JavaType { path: Vec<String> },
    /// Java `import a.b.*;` (on demand).
    JavaOnDemand { path: Vec<String> },
    /// Java `import static a.b.C.m;`.
    JavaStatic { path: Vec<String> },
    /// Java `import static a.b.C.*;`.
    JavaStaticOnDemand { path: Vec<String> },
    /// Go `import alias "a/b/c"`: the import path and the name it is bound to
    /// (`None` for `_` and `.` imports, which bind no name).
    GoPackage { path: String, name: Option<String> },
    /// Rust `use a::b::c;` / `use a::b as x;` / `use a::b::*;` (one entry per leaf
    /// of a use tree, the tree's prefix joined in): the path as written
    /// (`crate`, `self`, `super` kept as segments); `glob` for `*`.
    RustUse { path: Vec<String>, glob: bool },
    /// Rust `mod name;` (a module in its own file), inside the inline modules
    /// `within` of the file; `inactive` when the build leaves the `mod` out (it
    /// binds nothing, and a file only such a `mod` reaches is inactive).
    RustMod {
        name: String,
        within: Vec<String>,
        inactive: bool,
    },
    /// C/C++ `#include "a/b.h"` (`system` for `<a/b.h>`); `resolved` is the
    /// tree-relative path of the file it names, when the tree has it (filled after
    /// extraction, when every path of the tree is known).
    CInclude {
        path: String,
        system: bool,
        resolved: Option<String>,
    },
    /// C++ `using namespace a::b;` (a directive: every name of a::b becomes visible).
    CppUsingNamespace { path: Vec<String> },
    /// Kotlin `import a.b.C` / `import a.b.f as g` / `import a.b.*`: the path as
    /// written, the alias, and whether it is a star import. A name may import a
    /// class, an object, a function or a property.
    Kotlin {
        path: Vec<String>,
        alias: Option<String>,
        star: bool,
    },
    /// C++ `using a::b::f;` (a declaration: binds f to a::b::f) and
    /// `using Alias = a::T;` / `typedef a::T Alias;` (alias then names the type).
    CppUsing { path: Vec<String>, alias: String },
    /// C# `using N.M;` (a namespace's types), `using A = N.M.T;` (`alias`) and
    /// `using static N.T;` (`is_static`: T's static members and nested types),
    /// written in the namespace declaration `namespace` (empty for the compilation
    /// unit) whose body is `scope` (0 for the compilation unit).
    CSharpUsing {
        path: Vec<String>,
        alias: Option<String>,
        is_static: bool,
        namespace: Vec<String>,
        scope: ScopeIdx,
    },
    /// Ada `with a.b;` (names lower-cased): the library unit becomes nameable.
    AdaWith { path: Vec<String> },
    /// Ada `use a.b;` inside `scope` (names lower-cased); `all_type` for
    /// `use all type a.T` (the package declaring T is searched, as for `use a`).
    /// `use type` makes only operators visible, which are no sites: not recorded.
    AdaUse {
        path: Vec<String>,
        scope: ScopeIdx,
        all_type: bool,
    },
}

/// How a call site names what it calls.
#[derive(Debug, Clone)]
pub enum Callee {
    /// `f()`.
    Name(String),
    /// `recv.name()`.
    Member { receiver: Receiver, name: String },
    /// `d["k"]()` / `a[0]()`; `d[k]()` has no literal key, and names `k` where
    /// the key is a bare name (Python).
    Subscript {
        base: Receiver,
        key: Option<Key>,
        key_name: Option<String>,
    },
    /// The result of the call at this index called in turn: `f()()`.
    Result(CallIdx),
    /// Anything computed: `(f or g)()`, `getattr(o, n)()`.
    Dynamic,
}

/// The receiver of a member call, as structure.
#[derive(Debug, Clone)]
pub enum Receiver {
    /// A dotted path of names: `self.a.b` is `["self", "a", "b"]`.
    Path(Vec<String>),
    /// The result of the call at this index of the same file (`a.b().c()`).
    Call(CallIdx),
    /// Python `super()` / `super(C, self)`, Java `super`.
    Super,
    /// Java `(new T(...)).m()`.
    New(TypeRef),
    /// A literal: `"abc".upper()`.
    Literal(LiteralType),
    /// A path read after a call: `f().a.b` → call index then the field path.
    CallThen {
        call: CallIdx,
        path: Vec<String>,
    },
    /// Java `Outer.this`.
    QualifiedThis(String),
    /// Python: a subscript of a table by literal keys (`ls[0]` in `ls[0][0]()`).
    Subscript(Box<ValueExpr>),
    /// C++ `a::b::f()`: the scope path written before the last `::` (`["a", "b"]`);
    /// empty for the global scope (`::f()`).
    Scope(Vec<String>),
    Unknown,
}

/// What kind of call the syntax makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CallKind {
    Call,
    /// Java `new T()`.
    New,
    /// Python `@d` above a definition.
    Decorator,
    /// Python `for x in it:` — the implicit `__iter__` call on `it`.
    Iter,
    /// Python `for x in it:` — the implicit `__next__` call on the iterator.
    Next,
    /// Java `super(...)` / `this(...)` explicit constructor invocation.
    ConstructorChain,
    /// Python `raise E`: the class is constructed without call syntax.
    Raise,
    /// Python `with cm as x:` — the implicit `__enter__` call whose result x holds.
    Enter,
}

/// An argument's shape, enough for the overload pass and value flow.
#[derive(Debug, Clone)]
pub enum ArgShape {
    Literal(LiteralType),
    /// A string or integer literal, by value (Python: a key a callee may read).
    Key(Key),
    Name(String),
    /// A dotted path (`this.x`, `a.b`).
    Path(Vec<String>),
    New(TypeRef),
    Call(CallIdx),
    Lambda,
    /// A lambda (or nested function) the frontend declared at this index.
    Function(DeclIdx),
    /// Java `X.class`.
    ClassLiteral,
    /// Java `(T) x`.
    Cast(TypeRef),
    /// Java `c ? a : b`.
    Either(Box<ArgShape>, Box<ArgShape>),
    /// Ada `X'Access` (`'Unchecked_Access`, `'Unrestricted_Access`): an access
    /// value designating what the path names, a subprogram or an object.
    Access(Vec<String>),
    Unknown,
}

#[derive(Debug, Clone)]
pub struct Call {
    pub line: u32,
    pub column: u32,
    /// The declaration whose body contains the call (None at module level).
    pub caller: Option<DeclIdx>,
    /// The innermost scope containing the call.
    pub scope: ScopeIdx,
    pub callee: Callee,
    pub kind: CallKind,
    pub args: Vec<ArgShape>,
    /// Python keyword arguments count too, for arity; kept apart.
    pub keyword_args: u32,
    /// Python keyword arguments by name (`f(key=g)`), for value flow into parameters.
    pub keywords: Vec<(String, ArgShape)>,
    /// `*args` / `**kw` splats make the count unknowable.
    pub has_splat: bool,
    pub type_args: u32,
    /// The callee as written, for people (`self.cart.total`).
    pub wrote: String,
    /// Where the call stands, for languages whose overloads it tells apart.
    pub context: CallContext,
}

/// Where a call stands in its statement (Ada reads it: a call statement names a
/// procedure, a call in an expression a function, RM 6.4; the expected type
/// tells overloaded functions apart, RM 8.6). Other frontends leave it unread.
#[derive(Debug, Clone, Default)]
pub enum CallContext {
    #[default]
    Unread,
    /// A call statement (`P (X);`, `P;`).
    Statement,
    /// A value in an expression whose expected type is not read.
    Value,
    /// The whole initial value of an object declared of this type.
    Initializes(TypeRef),
    /// The whole right side of an assignment to this object (`C := F;`).
    AssignedTo(String),
}

impl Call {
    /// A function used as a value, as a call without arguments at the same
    /// place, for the lookups that read a call's position, scope and caller;
    /// `any_arity` when a call through the value may pass any arguments.
    pub fn of_ref(r: &ValueRef, any_arity: bool) -> Call {
        Call {
            line: r.line,
            column: r.column,
            caller: r.caller,
            scope: r.scope,
            callee: r.target.clone(),
            kind: CallKind::Call,
            args: Vec::new(),
            keyword_args: 0,
            keywords: Vec::new(),
            has_splat: any_arity,
            type_args: 0,
            wrote: r.wrote.clone(),
            context: CallContext::Unread,
        }
    }

    pub fn name(&self) -> &str {
        match &self.callee {
            Callee::Name(n) => n,
            Callee::Member { name, .. } => name,
            // A table call is named by the table: `ops` in `ops["add"]()`.
            Callee::Subscript {
                base: Receiver::Path(p),
                ..
            } => p.last().map(String::as_str).unwrap_or("[]"),
            Callee::Subscript { .. } => "[]",
            Callee::Result(_) => "()",
            Callee::Dynamic => "",
        }
    }
}

/// A function used as a value: passed, stored, or a method reference.
#[derive(Debug, Clone)]
pub struct ValueRef {
    pub line: u32,
    pub column: u32,
    pub caller: Option<DeclIdx>,
    pub scope: ScopeIdx,
    /// The referenced function as a callee shape: `f` → Name, `Type::m` → Member.
    pub target: Callee,
    pub wrote: String,
    /// Where the value goes: a plain alias (`h = f`) keeps every later call
    /// visible; an argument or a container entry may be called from anywhere.
    pub escapes: bool,
}
