//! What a Python name, path or value holds, read from the structure the frontend
//! extracted: scopes and their bindings, imports, class bodies, written types.
//! Every answer carries the family of the evidence that produced it.

use crate::facts::*;
use crate::index::Eid;
use crate::lang::python::policy;
use crate::resolve::family::{Family, OutsideKind};
use crate::resolve::{Cx, Eval, Val};

/// Follow values through at most this many aliases, imports and attributes.
const MAX_HOPS: u32 = 12;

thread_local! {
    /// While `explain` asks: what each type read from a stub was (`None` otherwise,
    /// so the resolver pays nothing for it).
    static STUB_NOTES: std::cell::RefCell<Option<Vec<String>>> =
        const { std::cell::RefCell::new(None) };
}

/// Runs `f` and returns, beside its result, a sentence for every type the
/// evaluator read from a type stub meanwhile (for `explain`).
pub fn with_stub_notes<R>(f: impl FnOnce() -> R) -> (R, Vec<String>) {
    STUB_NOTES.with(|n| *n.borrow_mut() = Some(Vec::new()));
    let r = f();
    let notes = STUB_NOTES
        .with(|n| n.borrow_mut().take())
        .unwrap_or_default();
    (r, notes)
}

fn note_stub(sentence: impl FnOnce() -> String) {
    STUB_NOTES.with(|n| {
        if let Some(notes) = n.borrow_mut().as_mut() {
            let s = sentence();
            if !notes.contains(&s) {
                notes.push(s);
            }
        }
    });
}

/// Why an evaluation gave no value: the caller turns it into a typed reason.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Miss {
    /// A parameter whose value nothing writes.
    Parameter,
    /// A local whose value the engine cannot follow.
    Local,
    /// Several bindings disagree.
    Ambiguous,
    /// No binding, no built-in.
    Unbound,
    /// The tree claims it (its own module, its own class) and declares nothing by that name.
    Undeclared,
    /// An in-tree class (with every base in the tree) declares no such member.
    NoMember,
    /// A decorator that does not hand back what it decorates hides the value.
    Decorated,
    /// Anything else the engine does not follow.
    Unknown,
}

pub type Res = Result<Eval, Miss>;

/// Where a read happens: file, innermost scope, line.
#[derive(Debug, Clone, Copy)]
pub struct At {
    pub file: u32,
    pub scope: ScopeIdx,
    pub line: u32,
}

/// A literal table (`{...}` / `[...]`) and where it is written and read.
struct Table<'a> {
    literal: &'a ValueExpr,
    name: String,
    written: At,
    /// The read's line when it is in the table's own scope (writes after it do not
    /// count); `None` when read elsewhere (every later write counts).
    read: Option<u32>,
    /// A table nested in another's slot (`ls[0]` of `[[f]]`): its writes are the
    /// outer name's.
    inner: bool,
    /// A copy of part of the sequence (`ls[1:3]`): its first index and length.
    slice: Option<(i64, i64)>,
    /// An inner table's writes (`d["a"]["b"] = v`, seen on the outer slot), in order.
    inner_writes: InnerWrites<'a>,
}

/// Writes into a nested table (`d["a"]["b"] = v`): the inner key and the value.
type InnerWrites<'a> = Vec<(&'a Key, &'a ValueExpr)>;

impl<'a> Table<'a> {
    fn read_elsewhere(self) -> Table<'a> {
        Table { read: None, ..self }
    }

    /// The literal's position read by index `i` (negative from the end), through
    /// the slice the table is a copy of, if any.
    fn index(&self, len: usize, i: i64) -> Option<usize> {
        let (first, len) = self.slice.unwrap_or((0, len as i64));
        let i = if i < 0 { len + i } else { i };
        if !(0..len).contains(&i) {
            return None;
        }
        usize::try_from(first + i).ok()
    }

    fn same_as(&self, other: &Table<'a>) -> bool {
        std::ptr::eq(self.literal, other.literal)
    }
}

/// What one call site writes for a parameter, and where it is evaluated.
enum CallerArg<'a> {
    /// An argument, at the call site.
    Given(At, &'a ArgShape),
    /// Left to the default, evaluated where the function is defined.
    Default(At, &'a ValueExpr),
}

/// A binding found for a name, with the scope it lives in.
pub enum Found<'a> {
    Binding(&'a Binding, ScopeIdx),
    Ambiguous,
    /// Bound in the reading scope, but only after the read.
    Later,
    /// Found through `from m import *`.
    Star(Eval),
    Builtin,
    Unbound,
}

pub struct Py<'c, 'a> {
    pub cx: &'c Cx<'a>,
    /// Reading an annotation: the names `if TYPE_CHECKING:` imports bind are
    /// visible (a call never sees them).
    annotation: bool,
}

impl<'c, 'a> Py<'c, 'a> {
    pub fn new(cx: &'c Cx<'a>) -> Self {
        Py {
            cx,
            annotation: false,
        }
    }

    /// The same evaluator reading an annotation.
    fn reading_annotation(&self) -> Py<'c, 'a> {
        Py {
            cx: self.cx,
            annotation: true,
        }
    }

    /// Whether a read sees a binding: an import under `TYPE_CHECKING` binds for
    /// annotations only.
    fn sees(&self, file: &FileFacts, b: &Binding) -> bool {
        match b.value {
            BindingValue::Import(i) => self.annotation || !is_annotation_import(file, i),
            BindingValue::Slot { .. } => false,
            _ => true,
        }
    }

    /// Of the bindings of one name, those a read sees, with the losing side of a
    /// `try: import a / except ImportError: import b` left out: the fallback
    /// when the module the `try` imports is the tree's or the standard library's,
    /// the `try`'s import otherwise when the fallback's is.
    fn seen<'b>(&self, fi: u32, bindings: impl Iterator<Item = &'b Binding>) -> Vec<&'b Binding> {
        let file = self.file(fi);
        let all: Vec<&Binding> = bindings.filter(|b| self.sees(file, b)).collect();
        let is_fallback = |b: &Binding| matches!(b.value, BindingValue::Import(i) if file.fallback_imports.binary_search(&i).is_ok());
        if all.len() < 2 || !all.iter().any(|b| is_fallback(b)) {
            return all;
        }
        let exists = |b: &Binding| match b.value {
            BindingValue::Import(i) => self.import_exists(fi, i),
            _ => false,
        };
        let Some(first) = all
            .iter()
            .position(|b| matches!(b.value, BindingValue::Import(_)) && !is_fallback(b))
        else {
            return all;
        };
        if exists(all[first]) {
            return all.iter().copied().filter(|b| !is_fallback(b)).collect();
        }
        match all.iter().position(|b| is_fallback(b) && exists(b)) {
            Some(chosen) => all
                .iter()
                .enumerate()
                .filter(|&(i, b)| i == chosen || !matches!(b.value, BindingValue::Import(_)))
                .map(|(_, b)| *b)
                .collect(),
            None => all,
        }
    }

    /// Whether the module an import names is the tree's or the standard library's.
    fn import_exists(&self, fi: u32, i: u32) -> bool {
        let (level, module) = match &self.file(fi).imports[i as usize].kind {
            ImportKind::Module { path, .. } => (0, path.clone()),
            ImportKind::From { level, module, .. } => (*level, module.clone()),
            _ => return false,
        };
        let Some(base) = self.absolute(fi, level, &module) else {
            return false;
        };
        let in_tree = matches!(self.module(&base), Ok(Val::Module(_) | Val::Namespace(_)));
        in_tree || (level == 0 && base.first().is_some_and(|top| policy::is_stdlib(top)))
    }

    fn file(&self, fi: u32) -> &'a FileFacts {
        self.cx.index.file(fi)
    }

    // ---- names ------------------------------------------------------------

    /// Python's scoping: the reading scope (nearest earlier write), then enclosing
    /// function scopes (class bodies are skipped), then the module, then names a
    /// star import brings, then built-ins.
    pub fn lookup(&self, at: At, name: &str, hops: u32) -> Found<'a> {
        let file = self.file(at.file);
        let mut scope = Some(at.scope);
        let mut same_time = true;
        let mut first = true;
        while let Some(s) = scope {
            let sc = &file.scopes[s as usize];
            if first || sc.kind != ScopeKind::Class {
                let all = self.seen(at.file, sc.named(name));
                if !all.is_empty() {
                    return pick_binding(file, &all, s, at.line, same_time);
                }
            }
            // A comprehension runs where it stands; a function body runs later.
            same_time = same_time && sc.kind == ScopeKind::Block;
            first = false;
            scope = sc.parent;
        }
        if let Some(found) = self.through_star_imports(at.file, name, hops) {
            return Found::Star(found);
        }
        if policy::is_builtin(name) {
            return Found::Builtin;
        }
        Found::Unbound
    }

    /// What a bare name holds at a point.
    pub fn name(&self, at: At, name: &str, hops: u32) -> Res {
        if hops > MAX_HOPS {
            return Err(Miss::Unknown);
        }
        match self.lookup(at, name, hops) {
            Found::Binding(b, scope) => self.binding(
                At {
                    scope,
                    line: b.line,
                    ..at
                },
                b,
                hops + 1,
            ),
            Found::Ambiguous => Err(Miss::Ambiguous),
            Found::Later => Err(Miss::Local),
            Found::Star(e) => Ok(e),
            Found::Builtin => Ok(Eval::new(
                Val::Outside {
                    kind: OutsideKind::Builtin,
                    symbol: name.to_string(),
                },
                Family::Builtin,
            )),
            Found::Unbound => Err(Miss::Unbound),
        }
    }

    /// What one binding holds. `at` is the binding's own scope and line.
    pub fn binding(&self, at: At, b: &Binding, hops: u32) -> Res {
        match &b.value {
            BindingValue::Decl(d) => self.declared(
                Eid {
                    file: at.file,
                    decl: *d,
                },
                Family::Lexical,
                hops,
            ),
            BindingValue::Import(i) => self.import(at.file, *i, hops),
            BindingValue::Param { index, ty } => self.parameter(at, *index, ty.as_ref(), hops),
            BindingValue::Typed { ty, value } => self.typed(at, ty, value.as_ref(), hops),
            BindingValue::Value(v) => self.value(at, v, hops).map(as_value_flow),
            BindingValue::Opaque | BindingValue::Slot { .. } => Err(Miss::Local),
        }
    }

    /// What every call site of `function` (placed in the previous chain round)
    /// passes for parameter `index` — positionally, by keyword, or by leaving it to
    /// its default — when they all agree and none uses a splat. A function that
    /// escapes as a value (a callback) may be called from anywhere: then no answer.
    pub fn value_every_caller_passes(&self, function: Eid, index: u32, hops: u32) -> Option<Eval> {
        match self.values_callers_pass(function, index, hops)?.as_slice() {
            [one] => Some(Eval::new(one.clone(), Family::ValueFlow)),
            _ => None,
        }
    }

    /// Every distinct value the call sites of `function` pass for parameter
    /// `index`, in the order first met, when each one is known and none uses a
    /// splat; `None` when any is unknown or the function escapes as a value.
    pub fn values_callers_pass(&self, function: Eid, index: u32, hops: u32) -> Option<Vec<Val>> {
        if hops > MAX_HOPS {
            return None;
        }
        let mut values: Vec<Val> = Vec::new();
        for arg in self.caller_arguments(function, index)? {
            let val = match arg {
                CallerArg::Given(here, arg) => self.argument(here, arg, hops + 1)?.val,
                CallerArg::Default(defined, default) => {
                    self.value(defined, default, hops + 1).ok()?.val
                }
            };
            if !values.contains(&val) {
                values.push(val);
            }
        }
        Some(values)
    }

    /// What each call site of `function` (placed, or with it in a may-reach set,
    /// in the previous chain round) writes for parameter `index`: an argument, by
    /// position or keyword, or the default it leaves the parameter to. `None` when
    /// a site splats, leaves a parameter without default unfilled, or the function
    /// escapes as a value (a callback may be called from anywhere).
    fn caller_arguments(&self, function: Eid, index: u32) -> Option<Vec<CallerArg<'a>>> {
        const MAX_CALLERS: usize = 64;
        let decl = self.cx.index.decl(function);
        let param = decl.params.get(index as usize)?;
        if param.variadic || param.keyword_variadic {
            return None;
        }
        if self.cx.index.used_as_value(&decl.name) {
            return None;
        }
        let callers = self.cx.results.callers_of(function);
        if callers.is_empty() || callers.len() > MAX_CALLERS {
            return None;
        }
        // A method called through an instance (or `__init__` through its class)
        // has its first parameter bound.
        let first_bound = decl.kind == DeclKind::Method && !decl.is_static;
        let mut out = Vec::with_capacity(callers.len());
        for &(cf, ci) in callers {
            let c = &self.file(cf).calls[ci as usize];
            if c.has_splat {
                return None;
            }
            let bound = first_bound
                && (matches!(c.callee, Callee::Member { .. }) || decl.name == "__init__");
            let position = if bound { index.checked_sub(1)? } else { index };
            let arg = c
                .keywords
                .iter()
                .find(|(k, _)| *k == param.name)
                .map(|(_, a)| a)
                .or_else(|| c.args.get(position as usize));
            out.push(match (arg, &param.default) {
                (Some(arg), _) => CallerArg::Given(
                    At {
                        file: cf,
                        scope: c.scope,
                        line: c.line,
                    },
                    arg,
                ),
                // Left to the default, which was evaluated where the function is defined.
                (None, Some(default)) => CallerArg::Default(
                    At {
                        file: function.file,
                        scope: decl.scope,
                        line: decl.line,
                    },
                    default,
                ),
                (None, None) => return None,
            });
        }
        Some(out)
    }

    /// The literal keys a bare name may hold where it is read (`d[k]()`): a
    /// literal bound to it, through names and `from m import k`, or — for a
    /// parameter — every key its callers pass or leave to the default. Distinct,
    /// in the order met; `None` when any value is not a literal key.
    pub fn keys_of(&self, at: At, name: &str, hops: u32) -> Option<Vec<Key>> {
        if hops > MAX_HOPS {
            return None;
        }
        let Found::Binding(b, scope) = self.lookup(at, name, hops) else {
            return None;
        };
        let here = At {
            scope,
            line: b.line,
            ..at
        };
        match &b.value {
            BindingValue::Value(v) => self.keys_of_value(here, v, hops + 1),
            BindingValue::Param { index, ty: None } => {
                let owner = self.file(at.file).scopes[scope as usize].owner?;
                let function = Eid {
                    file: at.file,
                    decl: owner,
                };
                let mut keys = Vec::new();
                for arg in self.caller_arguments(function, *index)? {
                    let found = match arg {
                        CallerArg::Given(_, ArgShape::Key(k)) => vec![k.clone()],
                        CallerArg::Given(there, ArgShape::Name(n)) => {
                            self.keys_of(there, n, hops + 1)?
                        }
                        CallerArg::Given(..) => return None,
                        CallerArg::Default(defined, v) => {
                            self.keys_of_value(defined, v, hops + 1)?
                        }
                    };
                    for k in found {
                        if !keys.contains(&k) {
                            keys.push(k);
                        }
                    }
                }
                Some(keys)
            }
            BindingValue::Import(i) => self.imported_keys(at.file, *i, hops + 1),
            _ => None,
        }
    }

    fn keys_of_value(&self, at: At, v: &ValueExpr, hops: u32) -> Option<Vec<Key>> {
        match v {
            ValueExpr::Key(k) => Some(vec![k.clone()]),
            ValueExpr::Name(n) => self.keys_of(at, n, hops),
            _ => None,
        }
    }

    /// `from m import k`: the key `k` holds in module `m`, when m binds it once.
    fn imported_keys(&self, fi: u32, i: u32, hops: u32) -> Option<Vec<Key>> {
        let ImportKind::From {
            level,
            module,
            name,
            ..
        } = &self.file(fi).imports[i as usize].kind
        else {
            return None;
        };
        let path = self.absolute(fi, *level, module)?;
        let Ok(Val::Module(m)) = self.module(&path) else {
            return None;
        };
        let [b] = self.file(m).scopes[0].named(name).collect::<Vec<_>>()[..] else {
            return None;
        };
        let here = At {
            file: m,
            scope: 0,
            line: b.line,
        };
        match &b.value {
            BindingValue::Value(v) => self.keys_of_value(here, v, hops + 1),
            _ => None,
        }
    }

    /// What an argument shape holds at its call site.
    fn argument(&self, at: At, arg: &ArgShape, hops: u32) -> Option<Eval> {
        match arg {
            ArgShape::Name(n) => self.name(at, n, hops).ok(),
            ArgShape::Path(p) => self.path(at, p, hops).ok(),
            ArgShape::Call(c) => self.cx.results.get(at.file, *c).cloned(),
            ArgShape::Function(d) => Some(Eval::new(
                Val::Entity(Eid {
                    file: at.file,
                    decl: *d,
                }),
                Family::ValueFlow,
            )),
            _ => None,
        }
    }

    /// pytest fills a test's (or a fixture's) parameter with the fixture of that
    /// name: the test module's own `@pytest.fixture` first, then the nearest
    /// `conftest.py` up the directory tree. The parameter holds what that fixture
    /// returns.
    fn pytest_fixture_value(
        &self,
        at: At,
        owner: Option<DeclIdx>,
        index: u32,
        hops: u32,
    ) -> Option<Eval> {
        let file = self.file(at.file);
        let owner = &file.decls[owner? as usize];
        let is_fixture = |d: &Decl| {
            d.decorators
                .iter()
                .any(|x| x.path.last().is_some_and(|n| n == "fixture"))
        };
        let is_test = owner.name.starts_with("test") && owner.kind == DeclKind::Function;
        let in_test_class = owner.kind == DeclKind::Method
            && owner.name.starts_with("test")
            && owner
                .parent
                .is_some_and(|c| file.decls[c as usize].name.starts_with("Test"));
        if !(is_test || in_test_class || is_fixture(owner)) {
            return None;
        }
        let name = &owner.params.get(index as usize)?.name;
        for fi in self.fixture_files(at.file) {
            let found: Vec<Eid> = self
                .cx
                .index
                .top_level(fi, name)
                .into_iter()
                .filter(|&e| is_fixture(self.cx.index.decl(e)))
                .collect();
            if let [fixture] = found.as_slice() {
                let e = self.returned(*fixture, None, hops + 1)?;
                return Some(Eval::new(e.val, Family::ValueFlow));
            }
            if !found.is_empty() {
                return None;
            }
        }
        pytest_builtin_fixture(self.cx.index, name)
    }

    /// The test module itself, then `conftest.py` in its directory and each parent.
    fn fixture_files(&self, fi: u32) -> Vec<u32> {
        let mut out = vec![fi];
        let path = &self.file(fi).path;
        let mut dir = path.rsplit_once('/').map(|(d, _)| d.to_string());
        loop {
            let conftest = match &dir {
                Some(d) => format!("{d}/conftest.py"),
                None => "conftest.py".to_string(),
            };
            if let Some(c) = self.cx.index.file_by_path(&conftest).filter(|&c| c != fi) {
                out.push(c);
            }
            match dir.take() {
                Some(d) => dir = d.rsplit_once('/').map(|(p, _)| p.to_string()),
                None => break,
            }
        }
        out
    }

    /// `x: T = v`: the written type, except where the value is an alias (a class or
    /// function named by `v`, as in `context_class: Type[Context] = Context`) or the
    /// type says only "some function".
    fn typed(&self, at: At, ty: &TypeRef, value: Option<&ValueExpr>, hops: u32) -> Res {
        if let Some(v @ (ValueExpr::Name(_) | ValueExpr::Attribute { .. } | ValueExpr::Lambda(_))) =
            value
        {
            if let Ok(e) = self.value(at, v, hops + 1) {
                if matches!(e.val, Val::Entity(_) | Val::Entities(_)) {
                    return Ok(as_value_flow(e));
                }
            }
        }
        if is_callable_type(ty) {
            return Err(Miss::Local);
        }
        self.instance_of(at, ty, hops)
    }

    /// A parameter: `self`/`cls` of a method, a written annotation, or unknown.
    fn parameter(&self, at: At, index: u32, ty: Option<&TypeRef>, hops: u32) -> Res {
        let file = self.file(at.file);
        let owner = file.scopes[at.scope as usize].owner;
        if let (0, Some(owner)) = (index, owner) {
            let decl = &file.decls[owner as usize];
            if decl.kind == DeclKind::Method && !decl.is_static {
                if let Some(class) = decl.parent {
                    let class = Eid {
                        file: at.file,
                        decl: class,
                    };
                    let val = if decl.is_classmethod {
                        Val::Entity(class)
                    } else {
                        Val::Instance(class)
                    };
                    return Ok(Eval::new(val, Family::OwnType));
                }
            }
        }
        let stub = match (ty, owner) {
            (None, Some(function)) => self.stub_parameter_type(
                Eid {
                    file: at.file,
                    decl: function,
                },
                index,
            ),
            _ => None,
        };
        if let Some((stub_at, stub_ty)) = stub {
            return match stub_ty {
                t if is_callable_type(t) => Err(Miss::Parameter),
                t => self.instance_of(stub_at, t, hops),
            };
        }
        if ty.is_none() {
            if let Some(fixture) = self.pytest_fixture_value(at, owner, index, hops) {
                return Ok(fixture);
            }
            if let Some(function) = owner {
                let function = Eid {
                    file: at.file,
                    decl: function,
                };
                if let Some(agreed) = self.value_every_caller_passes(function, index, hops) {
                    return Ok(agreed);
                }
            }
        }
        match ty {
            // A parameter typed `Callable[...]` holds some function: which one is
            // the callers' business (`parameter_filled_by_callers`), not outside.
            Some(ty) if is_callable_type(ty) => Err(Miss::Parameter),
            Some(ty) => self.instance_of(at, ty, hops),
            None => Err(Miss::Parameter),
        }
    }

    // ---- values -----------------------------------------------------------

    pub fn value(&self, at: At, v: &ValueExpr, hops: u32) -> Res {
        if hops > MAX_HOPS {
            return Err(Miss::Unknown);
        }
        match v {
            ValueExpr::Name(n) => self.name(at, n, hops + 1),
            ValueExpr::Attribute { path } => self.path(at, path, hops + 1),
            ValueExpr::Element(iterable) => self.element_of(at, iterable, hops + 1),
            ValueExpr::CallResult(c) => {
                self.cx.results.get(at.file, *c).cloned().ok_or(Miss::Local)
            }
            ValueExpr::Lambda(d) => Ok(Eval::new(
                Val::Entity(Eid {
                    file: at.file,
                    decl: *d,
                }),
                Family::ValueFlow,
            )),
            ValueExpr::Literal(l) => Ok(Eval::new(
                Val::ForeignInstance(l.type_name(false).to_string()),
                Family::ForeignType,
            )),
            ValueExpr::Key(k) => Ok(Eval::new(
                Val::ForeignInstance(k.literal_type().type_name(false).to_string()),
                Family::ForeignType,
            )),
            ValueExpr::Subscript { base, key } => self.table_entry(at, base, key, hops + 1),
            ValueExpr::New(_)
            | ValueExpr::Slice { .. }
            | ValueExpr::SetInner { .. }
            | ValueExpr::Dict(_)
            | ValueExpr::Sequence(_)
            | ValueExpr::Unknown => Err(Miss::Local),
        }
    }

    /// An element of an iterable whose written type says what it holds
    /// (`items: List[Item]`, `def get() -> Iterator[Item]`, `self.items: list[Item]`).
    fn element_of(&self, at: At, iterable: &ValueExpr, hops: u32) -> Res {
        if let ValueExpr::CallResult(c) = iterable {
            if let Some(e) = self.generator_yield(at.file, *c, hops) {
                return Ok(e);
            }
        }
        if let Some((ty, written_at)) = self.written_type_of(at, iterable, hops) {
            let element = element_type(&ty).ok_or(Miss::Local)?;
            return self.instance_of(written_at, element, hops + 1);
        }
        self.iteration_protocol(at, iterable, hops)
            .ok_or(Miss::Local)
    }

    /// Iterating over an instance of a class the tree declares: what its
    /// `__iter__` returns, then what that iterator's `__next__` returns.
    fn iteration_protocol(&self, at: At, iterable: &ValueExpr, hops: u32) -> Option<Eval> {
        let Val::Instance(class) = self.value(at, iterable, hops + 1).ok()?.val else {
            return None;
        };
        let iterator = self.protocol_call(class, "__iter__", hops)?;
        let Val::Instance(it) = iterator.val else {
            return None;
        };
        self.protocol_call(it, "__next__", hops)
    }

    fn protocol_call(&self, class: Eid, method: &str, hops: u32) -> Option<Eval> {
        let instance = Eval::new(Val::Instance(class), Family::WrittenType);
        let Val::Entity(m) = self.attribute(&instance, method, hops + 1).ok()?.val else {
            return None;
        };
        self.returned(m, Some(class), hops + 1)
    }

    /// The type a value's declaration writes, and where it is written.
    fn written_type_of(&self, at: At, v: &ValueExpr, hops: u32) -> Option<(TypeRef, At)> {
        if hops > MAX_HOPS {
            return None;
        }
        match v {
            ValueExpr::Name(n) => {
                let Found::Binding(b, scope) = self.lookup(at, n, hops) else {
                    return None;
                };
                let here = At {
                    file: at.file,
                    scope,
                    line: b.line,
                };
                match &b.value {
                    BindingValue::Param { ty: Some(ty), .. } | BindingValue::Typed { ty, .. } => {
                        Some((ty.clone(), here))
                    }
                    BindingValue::Value(inner) => self.written_type_of(here, inner, hops + 1),
                    _ => None,
                }
            }
            ValueExpr::Attribute { path } => {
                let (attr, base) = path.split_last()?;
                let Val::Instance(class) = self.path(at, base, hops + 1).ok()?.val else {
                    return None;
                };
                let order = self
                    .cx
                    .hierarchy
                    .order(class)
                    .map(<[Eid]>::to_vec)
                    .unwrap_or_else(|| vec![class]);
                order.into_iter().find_map(|t| {
                    let decl = self.cx.index.decl(t);
                    let field = decl
                        .fields
                        .iter()
                        .find(|f| f.name == *attr && f.ty.is_some())?;
                    let here = At {
                        file: t.file,
                        scope: field.scope,
                        line: field.line,
                    };
                    Some((field.ty.clone()?, here))
                })
            }
            ValueExpr::CallResult(c) => {
                let f = self.callee_of_call(at.file, *c, hops)?;
                let decl = self.cx.index.decl(f);
                let here = At {
                    file: f.file,
                    scope: decl.scope,
                    line: decl.line,
                };
                Some((decl.returns.clone()?, here))
            }
            _ => None,
        }
    }

    /// The declaration the call at index `c` of a file names, read where it stands.
    fn callee_of_call(&self, file: u32, c: CallIdx, hops: u32) -> Option<Eid> {
        let call = &self.file(file).calls[c as usize];
        self.callee_of(
            At {
                file,
                scope: call.scope,
                line: call.line,
            },
            call,
            hops,
        )
    }

    /// The declaration a call's callee names (a bare name or a path), if one.
    fn callee_of(&self, at: At, call: &Call, hops: u32) -> Option<Eid> {
        let e = match &call.callee {
            Callee::Name(n) => self.name(at, n, hops + 1).ok()?,
            Callee::Member {
                receiver: Receiver::Path(p),
                name,
            } => {
                let base = self.path(at, p, hops + 1).ok()?;
                self.attribute(&base, name, hops + 1).ok()?
            }
            Callee::Member {
                receiver: Receiver::Call(c),
                name,
            } => {
                let base = self.cx.results.get(at.file, *c)?.clone();
                self.attribute(&base, name, hops + 1).ok()?
            }
            _ => return None,
        };
        match e.val {
            Val::Entity(f) if self.cx.index.decl(f).kind.is_callable() => Some(f),
            _ => None,
        }
    }

    /// `for x in gen():` where gen is an in-tree generator whose every `yield` hands
    /// out the same name: x is what that name holds at the end of gen's body, when
    /// it is a function (anything else is left to the other rules).
    fn generator_yield(&self, file: u32, c: CallIdx, hops: u32) -> Option<Eval> {
        let gen = self.callee_of_call(file, c, hops)?;
        let decl = self.cx.index.decl(gen);
        if !matches!(decl.kind, DeclKind::Function | DeclKind::Method) {
            return None;
        }
        let Some(ReturnValue::Name(n)) = &decl.yields_value else {
            return None;
        };
        let body = At {
            file: gen.file,
            scope: decl.body?,
            line: decl.end_line + 1,
        };
        let e = self.name(body, n, hops + 1).ok()?;
        match e.val {
            Val::Entity(f) if self.cx.index.decl(f).kind.is_callable() => {
                Some(Eval::new(Val::Entity(f), Family::ValueFlow))
            }
            _ => None,
        }
    }

    /// `d[k]()` with a computed key: the one function every slot of the table holds
    /// (any key reaches it, or raises); several different values refuse.
    pub fn every_table_entry(&self, at: At, name: &str, hops: u32) -> Res {
        let table = self.table_of(at, name, hops).ok_or(Miss::Local)?;
        let mut keys: Vec<Key> = match table.literal {
            ValueExpr::Dict(entries) => entries.iter().map(|(k, _)| k.clone()).collect(),
            ValueExpr::Sequence(items) => (0..items.len() as i64).map(Key::Int).collect(),
            _ => return Err(Miss::Local),
        };
        for w in self.later_writes(&table) {
            match &w.value {
                BindingValue::Slot { key: Some(k), .. } => keys.push(k.clone()),
                BindingValue::Slot { key: None, .. } => return Err(Miss::Local),
                _ => {}
            }
        }
        keys.extend(table.inner_writes.iter().map(|(k, _)| (*k).clone()));
        keys.sort();
        keys.dedup();
        let mut agreed: Option<Eval> = None;
        for k in &keys {
            let e = self.slot_value(&table, k, hops + 1)?;
            match &agreed {
                Some(a) if a.val != e.val => return Err(Miss::Ambiguous),
                Some(_) => {}
                None => agreed = Some(e),
            }
        }
        agreed.ok_or(Miss::Local)
    }

    /// `d["k"]` / `a[0]` where `d` holds a literal table: the entry, read at the
    /// nearest write of `d`.
    pub fn table_entry(&self, at: At, base: &ValueExpr, key: &Key, hops: u32) -> Res {
        let table = self.table_read(at, base, hops).ok_or(Miss::Local)?;
        self.slot_value(&table, key, hops + 1)
    }

    /// The literal table a read names: `d` itself, or `d["a"][0]` when each slot on
    /// the way holds a literal table written in place (a nested write or mutation
    /// makes the outer slot unknowable in the frontend, so none is missed here).
    fn table_read(&self, at: At, base: &ValueExpr, hops: u32) -> Option<Table<'a>> {
        if hops > MAX_HOPS {
            return None;
        }
        match base {
            ValueExpr::Name(name) => self.table_of(at, name, hops),
            ValueExpr::Subscript { base, key } => {
                let outer = self.table_read(at, base, hops + 1)?;
                if self.inner_table_named(&outer) {
                    return None;
                }
                let (literal, inner_writes) = self.slot_literal(&outer, key)?;
                Some(Table {
                    literal,
                    inner: true,
                    slice: None,
                    inner_writes,
                    ..outer
                })
            }
            _ => None,
        }
    }

    /// The literal table slot `key` holds, written in place (`[[f], g]`,
    /// `{"a": {"b": f}}`), after the writes `slot_value` would see; anything else
    /// (a name, an unknown write) is not followed.
    fn slot_literal(
        &self,
        table: &Table<'a>,
        key: &Key,
    ) -> Option<(&'a ValueExpr, InnerWrites<'a>)> {
        let mut entry = match (table.literal, key) {
            (ValueExpr::Dict(entries), k) => {
                entries.iter().rev().find(|(ek, _)| ek == k).map(|(_, v)| v)
            }
            (ValueExpr::Sequence(items), Key::Int(i)) => {
                table.index(items.len(), *i).and_then(|i| items.get(i))
            }
            _ => None,
        };
        let mut inner_writes = Vec::new();
        for w in self.later_writes(table) {
            if let BindingValue::Slot { key: k, value } = &w.value {
                match (k, value) {
                    // `d["a"]["b"] = v`: the inner table keeps its other slots.
                    (
                        Some(k),
                        ValueExpr::SetInner {
                            key: inner_key,
                            value: inner_value,
                        },
                    ) if k == key => inner_writes.push((inner_key, inner_value.as_ref())),
                    (Some(k), _) if k == key => {
                        entry = Some(value);
                        inner_writes.clear();
                    }
                    (Some(_), _) => {}
                    (None, _) => return None,
                }
            }
        }
        for (k, v) in &table.inner_writes {
            if *k == key {
                entry = Some(*v);
            }
        }
        entry
            .filter(|e| matches!(e, ValueExpr::Dict(_) | ValueExpr::Sequence(_)))
            .map(|e| (e, inner_writes))
    }

    /// What slot `key` of a table holds: the literal's entry, replaced (or added) by
    /// a later write before the read; a computed-key write or a mutating method in
    /// between makes it unknowable.
    fn slot_value(&self, table: &Table<'a>, key: &Key, hops: u32) -> Res {
        let mut entry = match (table.literal, key) {
            // A literal repeating a key keeps the last value, as Python does.
            (ValueExpr::Dict(entries), k) => {
                entries.iter().rev().find(|(ek, _)| ek == k).map(|(_, v)| v)
            }
            (ValueExpr::Sequence(items), Key::Int(i)) => {
                table.index(items.len(), *i).and_then(|i| items.get(i))
            }
            _ => None,
        };
        for w in self.later_writes(table) {
            if let BindingValue::Slot { key: k, value } = &w.value {
                match k {
                    Some(k) if k == key => entry = Some(value),
                    Some(_) => {}
                    None => return Err(Miss::Local),
                }
            }
        }
        for (k, v) in &table.inner_writes {
            if *k == key {
                entry = Some(*v);
            }
        }
        let entry = entry.ok_or(Miss::Local)?;
        self.value(table.written, entry, hops + 1)
            .map(as_value_flow)
    }

    /// Writes into a table's name after its literal: before the read when the read
    /// is in the table's own scope, every one otherwise.
    fn later_writes<'t>(&self, table: &'t Table<'a>) -> impl Iterator<Item = &'a Binding> + 't {
        let written = table.written;
        self.file(written.file).scopes[written.scope as usize]
            .named(&table.name)
            .filter(move |w| {
                // A nested table's writes were seen on its outer slot.
                !table.inner && w.line > written.line && table.read.is_none_or(|r| w.line < r)
            })
    }

    /// The literal table a name holds: directly, through an alias, as what a called
    /// function returns by name, or as what every caller passes for a parameter.
    fn table_of(&self, at: At, name: &str, hops: u32) -> Option<Table<'a>> {
        if hops > MAX_HOPS {
            return None;
        }
        let Found::Binding(b, scope) = self.lookup(at, name, hops) else {
            return None;
        };
        let here = At {
            file: at.file,
            scope,
            line: b.line,
        };
        let same_scope = scope == at.scope;
        let value = match &b.value {
            BindingValue::Value(v) | BindingValue::Typed { value: Some(v), .. } => v,
            BindingValue::Param { index, ty: None } => {
                return self.table_every_caller_passes(here, *index, hops)
            }
            _ => return None,
        };
        match value {
            ValueExpr::Dict(_) | ValueExpr::Sequence(_)
                if self.written_in_nested_scope(here.file, scope, name) =>
            {
                None
            }
            ValueExpr::Dict(_) | ValueExpr::Sequence(_) => Some(Table {
                literal: value,
                name: name.to_string(),
                written: here,
                read: same_scope.then_some(at.line),
                inner: false,
                slice: None,
                inner_writes: Vec::new(),
            }),
            ValueExpr::Slice { base, start, stop } => {
                self.sliced_table(here, name, base, *start, *stop, hops)
            }
            ValueExpr::Name(other) => self
                .table_of(here, other, hops + 1)
                .map(Table::read_elsewhere),
            ValueExpr::CallResult(c) => {
                let f = self.callee_of_call(at.file, *c, hops)?;
                let decl = self.cx.index.decl(f);
                let Some(ReturnValue::Name(returned)) = &decl.returns_value else {
                    return None;
                };
                let body = At {
                    file: f.file,
                    scope: decl.body?,
                    line: decl.end_line + 1,
                };
                self.table_of(body, returned, hops + 1)
                    .map(Table::read_elsewhere)
            }
            _ => None,
        }
    }

    /// `part = ls[1:3]`: a copy of part of the literal sequence `ls` holds, taken
    /// with every write of `ls` counted (the copy is not followed through a later
    /// write of its own).
    fn sliced_table(
        &self,
        here: At,
        name: &str,
        base: &ValueExpr,
        start: Option<i64>,
        stop: Option<i64>,
        hops: u32,
    ) -> Option<Table<'a>> {
        let ValueExpr::Name(source) = base else {
            return None;
        };
        let written_again = self.file(here.file).scopes[here.scope as usize]
            .named(name)
            .any(|w| w.line > here.line && matches!(w.value, BindingValue::Slot { .. }));
        if written_again {
            return None;
        }
        let table = self.table_of(here, source, hops + 1)?.read_elsewhere();
        let ValueExpr::Sequence(items) = table.literal else {
            return None;
        };
        if table.slice.is_some() || table.inner {
            return None;
        }
        let n = items.len() as i64;
        let bound = |b: Option<i64>, default: i64| {
            let b = b.unwrap_or(default);
            (if b < 0 { b + n } else { b }).clamp(0, n)
        };
        let first = bound(start, 0);
        let len = (bound(stop, n) - first).max(0);
        Some(Table {
            slice: Some((first, len)),
            ..table
        })
    }

    /// Whether some name holds a table nested in this one (`row = grid[0]`): writes
    /// through that name (`row[0] = g`) are not seen on the outer table, so its
    /// nested tables are not followed.
    fn inner_table_named(&self, table: &Table<'a>) -> bool {
        self.file(table.written.file)
            .scopes
            .iter()
            .flat_map(|s| &s.bindings)
            .any(|b| match &b.value {
                BindingValue::Value(ValueExpr::Subscript { base, .. })
                | BindingValue::Typed {
                    value: Some(ValueExpr::Subscript { base, .. }),
                    ..
                } => matches!(base.as_ref(), ValueExpr::Name(n) if *n == table.name),
                _ => false,
            })
    }

    /// Whether a function (or class body) nested in the table's scope writes into
    /// it (`def g(): d["a"] = h`, `d.pop(k)`): such a write happens whenever g runs,
    /// so no slot of the table is known at any read.
    fn written_in_nested_scope(&self, file: u32, table_scope: ScopeIdx, name: &str) -> bool {
        let scopes = &self.file(file).scopes;
        let binds_plainly = |s: &Scope| {
            s.named(name)
                .any(|b| !matches!(b.value, BindingValue::Slot { .. }))
        };
        scopes.iter().enumerate().any(|(i, s)| {
            if i as ScopeIdx == table_scope
                || !s
                    .named(name)
                    .any(|b| matches!(b.value, BindingValue::Slot { .. }))
            {
                return false;
            }
            // The write reaches the table when every scope between it and the
            // table's leaves the name unbound.
            let mut current = Some(i as ScopeIdx);
            while let Some(c) = current {
                if c == table_scope {
                    return true;
                }
                if binds_plainly(&scopes[c as usize]) {
                    return false;
                }
                current = scopes[c as usize].parent;
            }
            false
        })
    }

    /// A table parameter: every caller passes the same table by name.
    fn table_every_caller_passes(&self, param_at: At, index: u32, hops: u32) -> Option<Table<'a>> {
        let owner = self.file(param_at.file).scopes[param_at.scope as usize].owner?;
        let function = Eid {
            file: param_at.file,
            decl: owner,
        };
        let decl = self.cx.index.decl(function);
        if self.cx.index.used_as_value(&decl.name) || decl.kind != DeclKind::Function {
            return None;
        }
        let mut agreed: Option<Table<'a>> = None;
        for &(cf, ci) in self.cx.results.callers_of(function) {
            let c = &self.file(cf).calls[ci as usize];
            let Some(ArgShape::Name(n)) = c.args.get(index as usize) else {
                return None;
            };
            let table = self
                .table_of(
                    At {
                        file: cf,
                        scope: c.scope,
                        line: c.line,
                    },
                    n,
                    hops + 1,
                )?
                .read_elsewhere();
            match &agreed {
                Some(a) if !a.same_as(&table) => return None,
                Some(_) => {}
                None => agreed = Some(table),
            }
        }
        agreed
    }

    /// `a.b.c`: the first name, then one attribute at a time.
    pub fn path(&self, at: At, path: &[String], hops: u32) -> Res {
        let Some((first, rest)) = path.split_first() else {
            return Err(Miss::Unknown);
        };
        let mut cur = self.name(at, first, hops)?;
        for attr in rest {
            cur = self.attribute(&cur, attr, hops + 1)?;
        }
        Ok(cur)
    }

    /// `value.attr`.
    pub fn attribute(&self, base: &Eval, attr: &str, hops: u32) -> Res {
        if hops > MAX_HOPS {
            return Err(Miss::Unknown);
        }
        match &base.val {
            Val::Module(fi) => self.module_attribute(*fi, attr, hops),
            Val::Namespace(dir) => self.namespace_attribute(dir, attr),
            Val::Entity(e) if self.cx.index.decl(*e).kind.is_type() => {
                let fam = if base.family == Family::OwnType {
                    Family::OwnType
                } else {
                    Family::QualifiedPath
                };
                self.type_attribute(*e, attr, fam, false, hops)
            }
            Val::Instance(t) => {
                let fam = match base.family {
                    Family::OwnType | Family::ReturnType | Family::ValueFlow => base.family,
                    _ => Family::WrittenType,
                };
                self.type_attribute(*t, attr, fam, true, hops)
            }
            Val::Outside { kind, symbol } => Ok(Eval::new(
                Val::Outside {
                    kind: *kind,
                    symbol: format!("{symbol}.{attr}"),
                },
                base.family,
            )),
            Val::ForeignInstance(t) => Ok(Eval::new(
                Val::Outside {
                    kind: foreign_kind(t),
                    symbol: format!("{t}.{attr}"),
                },
                Family::ForeignType,
            )),
            _ => Err(Miss::Unknown),
        }
    }

    /// A member of a class (or its instance): instance fields first, then the
    /// class and its bases in C3 order (methods, nested classes, class-body values).
    fn type_attribute(
        &self,
        ty: Eid,
        attr: &str,
        family: Family,
        instance: bool,
        hops: u32,
    ) -> Res {
        let order = self
            .cx
            .hierarchy
            .order(ty)
            .map(<[Eid]>::to_vec)
            .unwrap_or_else(|| vec![ty]);
        for (i, &t) in order.iter().enumerate() {
            let found_family = if i == 0 { family } else { Family::Inheritance };
            if instance {
                if let Some(r) = self.field(t, attr, hops) {
                    return r.map(|e| match e.val {
                        Val::Entity(_) => as_value_flow(e),
                        _ => e,
                    });
                }
            }
            let members = self.cx.index.members(t, attr);
            if !members.is_empty() {
                // `self.m()` runs the override of whatever subclass `self` is. (A
                // receiver typed by annotation is not refused so: measured on click,
                // that lost 13 right answers for 1 wrong one; DECISIONS D16.)
                if family == Family::OwnType
                    && self.cx.hierarchy.overridden_below(self.cx.index, ty, attr)
                {
                    return Err(Miss::Ambiguous);
                }
                return self.member_value(members, found_family, instance, hops);
            }
            if let Some(r) = self.class_body_value(t, attr, hops) {
                return r.map(|e| Eval::new(e.val, found_family));
            }
        }
        if self.cx.hierarchy.has_unknown_base(ty) {
            Err(Miss::Unknown)
        } else {
            Err(Miss::NoMember)
        }
    }

    /// `self.m()` in a method of `ty`: what `m` is on an instance of `ty` and on
    /// an instance of each class the tree declares below it — the callable each
    /// could run. A class on which `m` is missing cannot run the call and adds
    /// nothing; any other miss (a base outside the tree, an unknown field) makes
    /// the set unknowable: `None`.
    pub fn own_type_dispatch(&self, ty: Eid, attr: &str, hops: u32) -> Option<Vec<Eid>> {
        const MAX_TYPES: usize = 64;
        let mut types = vec![ty];
        // Bounded walk: a class with thousands of subclasses is not listed per call (D14).
        types.extend(self.cx.hierarchy.below_at_most(ty, MAX_TYPES - 1)?);
        let mut out = Vec::new();
        for t in types {
            // Not `OwnType`: that family asks whether a subclass overrides, which
            // is the question this walk answers.
            match self.type_attribute(t, attr, Family::Inheritance, true, hops) {
                Ok(Eval {
                    val: Val::Entity(f),
                    ..
                }) if self.cx.index.decl(f).kind.is_callable() => out.push(f),
                Err(Miss::NoMember) => {}
                _ => return None,
            }
        }
        Some(out)
    }

    /// Methods and nested classes found on a type. A property read yields what the
    /// getter returns.
    fn member_value(&self, members: &[Eid], family: Family, instance: bool, hops: u32) -> Res {
        let last = *members.last().expect("non-empty");
        let decl = self.cx.index.decl(last);
        if instance && decl.is_property {
            return self.returned(last, None, hops).ok_or(Miss::Unknown);
        }
        if members.len() == 1 {
            self.declared(last, family, hops)
        } else {
            Ok(Eval::new(Val::Entities(members.to_vec()), family))
        }
    }

    /// `self.x` assigned or annotated in the class's methods (or its body); every
    /// write must agree.
    fn field(&self, ty: Eid, attr: &str, hops: u32) -> Option<Res> {
        let own = self.own_field(ty, attr, hops);
        if matches!(own, Some(Ok(_))) {
            return own;
        }
        match self.stub_field_type(ty, attr) {
            Some((at, written)) => Some(
                self.instance_of(at, written, hops + 1)
                    .map(|e| Eval::new(e.val, Family::WrittenType)),
            ),
            None => own,
        }
    }

    /// A field as the module's own code writes it (`self.x: T`, `self.x = v`).
    fn own_field(&self, ty: Eid, attr: &str, hops: u32) -> Option<Res> {
        let decl = self.cx.index.decl(ty);
        let fields: Vec<&Field> = decl.fields.iter().filter(|f| f.name == attr).collect();
        if fields.is_empty() {
            return None;
        }
        // A written type wins over values: it is what every write promises.
        if let Some(f) = fields.iter().find(|f| f.ty.is_some()) {
            let here = At {
                file: ty.file,
                scope: f.scope,
                line: f.line,
            };
            let written = f.ty.as_ref().expect("has a type");
            return Some(
                self.instance_of(here, written, hops + 1)
                    .map(|e| Eval::new(e.val, Family::WrittenType)),
            );
        }
        let mut agreed: Option<Eval> = None;
        for f in &fields {
            let Some(v) = &f.value else {
                return Some(Err(Miss::Unknown));
            };
            // Read where the write stands: `self.x = x` sees the method's parameter.
            let here = At {
                file: ty.file,
                scope: f.scope,
                line: f.line + 1,
            };
            let Ok(e) = self.value(here, v, hops + 1) else {
                return Some(Err(Miss::Unknown));
            };
            match &agreed {
                None => agreed = Some(e),
                Some(a) if a.val == e.val => {}
                Some(_) => return Some(Err(Miss::Ambiguous)),
            }
        }
        agreed.map(|e| {
            let fam = if matches!(e.val, Val::Instance(_)) {
                Family::WrittenType
            } else {
                e.family
            };
            Ok(Eval::new(e.val, fam))
        })
    }

    /// A non-declaration binding in a class body (`handler = f`, `__call__ = run`).
    fn class_body_value(&self, ty: Eid, attr: &str, hops: u32) -> Option<Res> {
        let decl = self.cx.index.decl(ty);
        let body = decl.body?;
        let scope = &self.file(ty.file).scopes[body as usize];
        let b = scope.named(attr).next_back()?;
        if matches!(b.value, BindingValue::Decl(_)) {
            return None;
        }
        Some(self.binding(
            At {
                file: ty.file,
                scope: body,
                line: b.line,
            },
            b,
            hops + 1,
        ))
    }

    /// What the name of a declaration holds once its decorators have run.
    fn declared(&self, eid: Eid, family: Family, hops: u32) -> Res {
        let eid = self.source_of(eid)?;
        if let Some(helper) = self.helper_of_outside_decorator(eid, hops) {
            return Ok(helper);
        }
        match self.decorated(eid, hops)? {
            (e, false) => Ok(Eval::new(Val::Entity(e), family)),
            (wrapper, true) => Ok(Eval::new(Val::Entity(wrapper), Family::ValueFlow)),
        }
    }

    /// `@contextlib.contextmanager` (outermost, uncalled) binds the name to the
    /// helper function the decorator returns: calling it runs the standard
    /// library's helper, which only builds the context manager (the `with`
    /// statement runs the body later).
    fn helper_of_outside_decorator(&self, eid: Eid, hops: u32) -> Option<Eval> {
        let decl = self.cx.index.decl(eid);
        let outermost = decl.decorators.first().filter(|d| !d.called)?;
        let at = At {
            file: eid.file,
            scope: decl.scope,
            line: decl.line,
        };
        match self.path(at, &outermost.path, hops + 1).ok()?.val {
            Val::Outside { kind, symbol }
                if policy::HELPER_DECORATORS.contains(&symbol.as_str()) =>
            {
                Some(Eval::new(
                    Val::Outside {
                        kind,
                        symbol: format!("{symbol}.<locals>.helper"),
                    },
                    Family::ExternalImport,
                ))
            }
            _ => None,
        }
    }

    /// Apply a declaration's decorators, innermost first: each either hands the
    /// value back (an outside decorator on the closed transparent list, or an
    /// in-tree one whose every `return` names its parameter), replaces it with a
    /// nested wrapper function it returns, or hides it (`Miss::Decorated`).
    /// Returns the declaration a call reaches and whether it is a wrapper.
    pub fn decorated(&self, eid: Eid, hops: u32) -> Result<(Eid, bool), Miss> {
        let decl = self.cx.index.decl(eid);
        let mut current = (eid, false);
        let at = At {
            file: eid.file,
            scope: decl.scope,
            line: decl.line,
        };
        for dec in decl.decorators.iter().rev() {
            let by_name = dec
                .path
                .last()
                .is_some_and(|n| policy::TRANSPARENT_DECORATORS.contains(&n.as_str()));
            let decorator = match self.path(at, &dec.path, hops + 1).map(|e| e.val) {
                Ok(Val::Entity(f)) if self.cx.index.decl(f).kind.is_callable() => f,
                _ if by_name => continue,
                _ => return Err(Miss::Decorated),
            };
            let decorator = if dec.called {
                // `@factory(args)`: the factory returns the decorator by name.
                match self.returned(decorator, None, hops + 1).map(|e| e.val) {
                    Some(Val::Entity(inner)) => inner,
                    _ => return Err(Miss::Decorated),
                }
            } else {
                decorator
            };
            match self.what_a_decorator_returns(decorator, hops)? {
                None => {}
                Some(wrapper) => current = (wrapper, true),
            }
        }
        Ok(current)
    }

    /// `None` when the decorator returns its parameter; the wrapper it returns
    /// when every `return` names one nested function.
    fn what_a_decorator_returns(&self, decorator: Eid, hops: u32) -> Result<Option<Eid>, Miss> {
        let decl = self.cx.index.decl(decorator);
        let Some(ReturnValue::Name(n)) = &decl.returns_value else {
            return Err(Miss::Decorated);
        };
        if decl.params.first().is_some_and(|p| &p.name == n) {
            return Ok(None);
        }
        let body = decl.body.ok_or(Miss::Decorated)?;
        let here = At {
            file: decorator.file,
            scope: body,
            line: decl.end_line + 1,
        };
        match self.lookup(here, n, hops + 1) {
            Found::Binding(b, _) => match b.value {
                BindingValue::Decl(w)
                    if self.file(decorator.file).decls[w as usize].parent
                        == Some(decorator.decl) =>
                {
                    Ok(Some(Eid {
                        file: decorator.file,
                        decl: w,
                    }))
                }
                _ => Err(Miss::Decorated),
            },
            _ => Err(Miss::Decorated),
        }
    }

    // ---- modules and imports ----------------------------------------------

    /// What a patch replaces an attribute of: the object its path names where
    /// the patch stands, or the module (and attributes) a dotted string names.
    pub fn patch_target(&self, file: u32, patch: &Patch) -> Option<Val> {
        match &patch.target {
            PatchTarget::Path(path) => {
                let at = At {
                    file,
                    scope: patch.scope,
                    line: patch.line,
                };
                self.path(at, path, 0).ok().map(|e| e.val)
            }
            PatchTarget::Dotted(path) => {
                // The longest prefix that is a module of the tree, then attributes;
                // a name no module of the tree starts is outside.
                for k in (1..=path.len()).rev() {
                    if let Ok(m) = self.module(&path[..k]) {
                        let mut cur = module_eval(m);
                        for attr in &path[k..] {
                            cur = self.attribute(&cur, attr, 0).ok()?;
                        }
                        return Some(cur.val);
                    }
                }
                Some(outside_module(path).val)
            }
        }
    }

    /// The module an import names, resolved against the importing file.
    pub fn import(&self, fi: u32, i: u32, hops: u32) -> Res {
        let file = self.file(fi);
        let import = &file.imports[i as usize];
        match &import.kind {
            ImportKind::Module { path, alias } => {
                // `import a.b.c` binds `a`; `import a.b as x` binds x to a.b.
                let bound = if alias.is_some() {
                    path.clone()
                } else {
                    path[..1].to_vec()
                };
                match self.module(&bound) {
                    Ok(m) => Ok(module_eval(m)),
                    Err(_) if self.claims_package(&bound) => Err(Miss::Undeclared),
                    Err(_) => Ok(outside_module(&bound)),
                }
            }
            ImportKind::From {
                level,
                module,
                name,
                ..
            } => {
                let base = self.absolute(fi, *level, module).ok_or(Miss::Undeclared)?;
                match self.module(&base) {
                    Ok(m) => {
                        let m = module_eval(m);
                        self.attribute(&m, name, hops + 1).map(as_import)
                    }
                    Err(_) if *level > 0 || self.claims_package(&base) => Err(Miss::Undeclared),
                    Err(_) => {
                        let mut symbol = base.clone();
                        symbol.push(name.clone());
                        Ok(outside_module(&symbol))
                    }
                }
            }
            _ => Err(Miss::Unknown),
        }
    }

    /// A dotted module under a top-level package the tree has is the tree's
    /// claim: when it is missing, the import is unresolved, not outside.
    fn claims_package(&self, path: &[String]) -> bool {
        path.len() > 1
            && matches!(
                self.module(&path[..1]),
                Ok(Val::Module(_) | Val::Namespace(_))
            )
    }

    /// `from ..a import b` in `pkg/sub/mod.py` → `pkg.a`.
    fn absolute(&self, fi: u32, level: u32, module: &[String]) -> Option<Vec<String>> {
        if level == 0 {
            return Some(module.to_vec());
        }
        let file = self.file(fi);
        let me = file.module.first()?;
        let mut parts: Vec<String> = me.split('.').map(str::to_string).collect();
        // A module's package is its name less the last part; a package is its own.
        let drop = if file.is_package_init {
            level - 1
        } else {
            level
        };
        for _ in 0..drop {
            parts.pop()?;
        }
        parts.extend(module.iter().cloned());
        Some(parts)
    }

    /// A module or package of the tree by dotted path. A type stub is no module:
    /// beside its module it is passed over, and a stub alone stands for a module
    /// whose code is outside the tree (external).
    pub fn module(&self, path: &[String]) -> Result<Val, Miss> {
        let dotted = path.join(".");
        let answering = self.cx.index.python_module(&dotted);
        let is_stub = |f: &u32| self.file(*f).role == FileRole::Stub;
        let sources: Vec<u32> = answering.iter().copied().filter(|f| !is_stub(f)).collect();
        if sources.is_empty() && !answering.is_empty() {
            // `pkg/__init__.pyi` beside `pkg/mod.py`: at run time `pkg` is a
            // namespace package of the tree's modules.
            let dir = path.join("/");
            let has_sources = self
                .cx
                .index
                .python_dir_files(&dir)
                .iter()
                .any(|f| !is_stub(f));
            if has_sources {
                return Ok(Val::Namespace(dir));
            }
            return Ok(Val::Outside {
                kind: OutsideKind::External,
                symbol: dotted,
            });
        }
        match sources.as_slice() {
            [one] => Ok(Val::Module(*one)),
            [] => {
                let dir = path.join("/");
                if self.cx.index.is_python_package_dir(&dir) {
                    Ok(Val::Namespace(dir))
                } else {
                    Err(Miss::Unbound)
                }
            }
            many => {
                // A package and a module of one name: the package (`__init__.py`) wins.
                let inits: Vec<u32> = many
                    .iter()
                    .copied()
                    .filter(|&f| self.file(f).is_package_init)
                    .collect();
                match inits.as_slice() {
                    [one] => Ok(Val::Module(*one)),
                    _ => Err(Miss::Ambiguous),
                }
            }
        }
    }

    /// `module.attr`: a name the module binds at its top level (its last binding),
    /// else a submodule of the package, else a name a star import brings.
    pub fn module_attribute(&self, fi: u32, attr: &str, hops: u32) -> Res {
        let file = self.file(fi);
        let bindings = self.seen(fi, file.scopes[0].named(attr));
        if let Some(b) = module_level_binding(file, &bindings) {
            return self
                .binding(
                    At {
                        file: fi,
                        scope: 0,
                        line: b.line,
                    },
                    b,
                    hops + 1,
                )
                .map(as_import);
        }
        if !bindings.is_empty() {
            return Err(Miss::Ambiguous);
        }
        if file.is_package_init {
            if let Some(me) = file.module.first() {
                let mut sub: Vec<String> = me.split('.').map(str::to_string).collect();
                sub.push(attr.to_string());
                if let Ok(m) = self.module(&sub) {
                    return Ok(module_eval(m));
                }
            }
        }
        if let Some(e) = self.through_star_imports(fi, attr, hops + 1) {
            return Ok(e);
        }
        Err(Miss::Undeclared)
    }

    fn namespace_attribute(&self, dir: &str, attr: &str) -> Res {
        let path: Vec<String> = dir
            .split('/')
            .map(str::to_string)
            .chain(std::iter::once(attr.to_string()))
            .collect();
        self.module(&path)
            .map(module_eval)
            .map_err(|_| Miss::Undeclared)
    }

    /// A name brought by `from m import *` at a file's top level: public names, or
    /// exactly those a literal `__all__` lists.
    fn through_star_imports(&self, fi: u32, name: &str, hops: u32) -> Option<Eval> {
        if hops > MAX_HOPS {
            return None;
        }
        let file = self.file(fi);
        for (i, import) in file.imports.iter().enumerate().rev() {
            let ImportKind::Star { level, module } = &import.kind else {
                continue;
            };
            if !self.annotation && is_annotation_import(file, i as u32) {
                continue;
            }
            let Some(base) = self.absolute(fi, *level, module) else {
                continue;
            };
            let Ok(Val::Module(m)) = self.module(&base) else {
                continue;
            };
            let target = self.file(m);
            let exported = match &target.all_names {
                Some(all) => all.iter().any(|n| n == name),
                None => !name.starts_with('_'),
            };
            if !exported {
                continue;
            }
            if let Ok(e) = self.module_attribute(m, name, hops + 1) {
                return Some(as_import(e));
            }
        }
        None
    }

    // ---- types ------------------------------------------------------------

    /// An instance of a written type, read where the annotation stands (where the
    /// names `if TYPE_CHECKING:` imports are visible).
    pub fn instance_of(&self, at: At, ty: &TypeRef, hops: u32) -> Res {
        if !self.annotation {
            return self.reading_annotation().instance_of(at, ty, hops);
        }
        if ty.is_self {
            let class = self.enclosing_class(at).ok_or(Miss::Unknown)?;
            return Ok(Eval::new(Val::Instance(class), Family::WrittenType));
        }
        let Some(last) = ty.last() else {
            return Err(Miss::Unknown);
        };
        // `Callable[...]` holds some function: which one the type does not say
        // (it may be the tree's own), so it is no foreign instance.
        if is_callable_type(ty) {
            return Err(Miss::Local);
        }
        // `Type[C]` / `type[C]` holds the class itself, not an instance.
        if matches!(last, "Type" | "type") && ty.args.len() == 1 {
            let e = self.path(at, &ty.args[0].path, hops + 1)?;
            return match e.val {
                Val::Entity(c) if self.cx.index.decl(c).kind.is_type() => {
                    Ok(Eval::new(Val::Entity(c), Family::WrittenType))
                }
                _ => Err(Miss::Unknown),
            };
        }
        if ty.path.len() == 1 {
            if let Some((_, builtin)) = policy::TYPING_ALIASES.iter().find(|(a, _)| *a == last) {
                return Ok(Eval::new(
                    Val::ForeignInstance(builtin.to_string()),
                    Family::ForeignType,
                ));
            }
        }
        let e = self.path(at, &ty.path, hops + 1)?;
        match e.val {
            Val::Entity(c) if self.cx.index.decl(c).kind.is_type() => {
                Ok(Eval::new(Val::Instance(c), Family::WrittenType))
            }
            // `x: object` promises no member beyond every value's: a call of any
            // other is made on a value narrowed at run time (`isinstance`), which
            // the annotation does not name. (`Any` stays a foreign type: measured
            // on click, its members are the standard library's, D36.)
            Val::Outside { symbol, .. } if says_nothing_of_members(&symbol) => Err(Miss::Unknown),
            Val::Outside {
                kind: OutsideKind::Builtin,
                symbol,
            } if policy::BUILTIN_TYPES.contains(&symbol.as_str()) => {
                Ok(Eval::new(Val::ForeignInstance(symbol), Family::ForeignType))
            }
            Val::Outside { symbol, .. } => {
                Ok(Eval::new(Val::ForeignInstance(symbol), Family::ForeignType))
            }
            _ => Err(Miss::Unknown),
        }
    }

    /// The class whose body (or method) a scope belongs to.
    pub fn enclosing_class(&self, at: At) -> Option<Eid> {
        let file = self.file(at.file);
        let mut scope = Some(at.scope);
        while let Some(s) = scope {
            let sc = &file.scopes[s as usize];
            if let Some(owner) = sc.owner {
                let decl = &file.decls[owner as usize];
                if decl.kind == DeclKind::Class {
                    return Some(Eid {
                        file: at.file,
                        decl: owner,
                    });
                }
                if let Some(p) = decl
                    .parent
                    .filter(|p| file.decls[*p as usize].kind == DeclKind::Class)
                {
                    return Some(Eid {
                        file: at.file,
                        decl: p,
                    });
                }
            }
            scope = sc.parent;
        }
        None
    }

    /// What calling a declaration yields: an instance for a class, the written
    /// return type, or the function every `return` names (a factory).
    pub fn returned(&self, callee: Eid, receiver_class: Option<Eid>, hops: u32) -> Option<Eval> {
        let decl = self.cx.index.decl(callee);
        if decl.kind.is_type() {
            return Some(Eval::new(Val::Instance(callee), Family::WrittenType));
        }
        let own_class = self.cx.index.enclosing_type(callee);
        // A declared `-> Callable[...]` says only "a function": the body's
        // `return` may say which (a factory), read below.
        if let Some(ty) = decl.returns.as_ref().filter(|t| !is_callable_type(t)) {
            if ty.is_self {
                return receiver_class
                    .or(own_class)
                    .map(|c| Eval::new(Val::Instance(c), Family::ReturnType));
            }
            let at = At {
                file: callee.file,
                scope: decl.scope,
                line: decl.line,
            };
            return self
                .instance_of(at, ty, hops + 1)
                .ok()
                .map(|e| Eval::new(e.val, Family::ReturnType));
        }
        self.returned_by_body(callee, receiver_class.or(own_class), hops)
            .or_else(|| self.stub_returned(callee, receiver_class.or(own_class), hops))
    }

    /// What calling a function yields by what its body's `return` statements say
    /// (`self`, a name, an attribute or lambda, a call's result).
    fn returned_by_body(&self, callee: Eid, self_class: Option<Eid>, hops: u32) -> Option<Eval> {
        let decl = self.cx.index.decl(callee);
        match &decl.returns_value {
            Some(ReturnValue::SelfValue) => {
                self_class.map(|c| Eval::new(Val::Instance(c), Family::ReturnType))
            }
            Some(ReturnValue::Value(v)) => {
                let scope = decl.body?;
                let at = At {
                    file: callee.file,
                    scope,
                    line: decl.end_line + 1,
                };
                let e = self.value(at, v, hops + 1).ok()?;
                match e.val {
                    Val::Entity(f) if self.cx.index.decl(f).kind.is_callable() => {
                        Some(Eval::new(Val::Entity(f), Family::ValueFlow))
                    }
                    Val::Instance(_) | Val::ForeignInstance(_) => {
                        Some(Eval::new(e.val, Family::ReturnType))
                    }
                    _ => None,
                }
            }
            Some(ReturnValue::CallResult(c)) => {
                let e = self.cx.results.get(callee.file, *c)?;
                match e.val {
                    Val::Instance(_) | Val::ForeignInstance(_) => {
                        Some(Eval::new(e.val.clone(), Family::ReturnType))
                    }
                    // `return make()` where make returns a function: a factory too.
                    Val::Entity(f) if self.cx.index.decl(f).kind.is_callable() => {
                        Some(Eval::new(Val::Entity(f), Family::ValueFlow))
                    }
                    _ => None,
                }
            }
            Some(ReturnValue::Name(n)) => {
                let scope = decl.body?;
                let at = At {
                    file: callee.file,
                    scope,
                    line: decl.end_line + 1,
                };
                let e = self.name(at, n, hops + 1).ok()?;
                match e.val {
                    Val::Entity(f) if self.cx.index.decl(f).kind.is_callable() => {
                        Some(Eval::new(Val::Entity(f), Family::ValueFlow))
                    }
                    // `x = C(); …; return x`: the instance the name holds.
                    Val::Instance(_) | Val::ForeignInstance(_) => {
                        Some(Eval::new(e.val, Family::ReturnType))
                    }
                    _ => None,
                }
            }
            None => None,
        }
    }

    /// What calling a declaration yields by the return type its stub writes (the
    /// module writes none, nor a `return` the engine follows).
    fn stub_returned(&self, callee: Eid, self_class: Option<Eid>, hops: u32) -> Option<Eval> {
        let (at, ty) = self.stub_return_type(callee)?;
        if ty.is_self {
            return self_class.map(|c| Eval::new(Val::Instance(c), Family::ReturnType));
        }
        if is_callable_type(ty) {
            return None;
        }
        self.instance_of(at, ty, hops + 1)
            .ok()
            .map(|e| Eval::new(e.val, Family::ReturnType))
    }

    // ---- type stubs -------------------------------------------------------

    /// The stub beside a module's declaration and the stub's declarations of that
    /// qualified name (several for an `@overload` stack).
    fn stub_of(&self, eid: Eid) -> Option<(u32, Vec<DeclIdx>)> {
        let file = self.file(eid.file);
        if file.role == FileRole::Stub {
            return None;
        }
        let pair = file.stub_pair.as_ref()?;
        let stub = self.cx.index.file_by_path(&pair.other)?;
        let decls: Vec<DeclIdx> = pair.matching(eid.decl).collect();
        (!decls.is_empty()).then_some((stub, decls))
    }

    /// A stub's declaration stands for the module's declaration of its qualified
    /// name; one the module does not write (a stub-only `Protocol`, an alias)
    /// stands for nothing the engine can follow.
    fn source_of(&self, eid: Eid) -> Result<Eid, Miss> {
        let file = self.file(eid.file);
        if file.role != FileRole::Stub {
            return Ok(eid);
        }
        let pair = file.stub_pair.as_ref().ok_or(Miss::Unknown)?;
        let source = self
            .cx
            .index
            .file_by_path(&pair.other)
            .ok_or(Miss::Unknown)?;
        let mut matching = pair.matching(eid.decl);
        match (matching.next(), matching.next()) {
            (Some(d), None) => Ok(Eid {
                file: source,
                decl: d,
            }),
            _ => Err(Miss::Unknown),
        }
    }

    /// The return type the stub writes for a declaration, where every declaration
    /// of its name in the stub (each `@overload`) writes the same one; with where
    /// to read it (the stub's scope).
    fn stub_return_type(&self, callee: Eid) -> Option<(At, &'a TypeRef)> {
        let (stub, decls) = self.stub_of(callee)?;
        let file = self.file(stub);
        let first = &file.decls[decls[0] as usize];
        let ty = first.returns.as_ref()?;
        if decls[1..]
            .iter()
            .any(|&d| file.decls[d as usize].returns.as_ref() != Some(ty))
        {
            return None;
        }
        note_stub(|| {
            format!(
                "the return type of {} is read from its stub {}:{}",
                self.cx.index.qualified_name(callee),
                file.path,
                first.line
            )
        });
        let at = At {
            file: stub,
            scope: first.scope,
            line: first.line,
        };
        Some((at, ty))
    }

    /// The type the stub writes for a function's parameter (by the parameter's
    /// name), where every declaration of the function in the stub agrees.
    fn stub_parameter_type(&self, function: Eid, index: u32) -> Option<(At, &'a TypeRef)> {
        let name = &self
            .cx
            .index
            .decl(function)
            .params
            .get(index as usize)?
            .name;
        let (stub, decls) = self.stub_of(function)?;
        let file = self.file(stub);
        let mut agreed: Option<(At, &'a TypeRef)> = None;
        for &d in &decls {
            let decl = &file.decls[d as usize];
            let ty = decl.params.iter().find(|p| &p.name == name)?.ty.as_ref()?;
            match agreed {
                None => {
                    let at = At {
                        file: stub,
                        scope: decl.body.unwrap_or(decl.scope),
                        line: decl.line,
                    };
                    agreed = Some((at, ty));
                }
                Some((_, t)) if t == ty => {}
                Some(_) => return None,
            }
        }
        note_stub(|| {
            format!(
                "the type of parameter `{name}` of {} is read from its stub {}",
                self.cx.index.qualified_name(function),
                file.path
            )
        });
        agreed
    }

    /// The type the stub's class writes for an attribute (`x: T` in its body).
    fn stub_field_type(&self, class: Eid, attr: &str) -> Option<(At, &'a TypeRef)> {
        // A member the module's class declares is what the attribute holds.
        if !self.cx.index.members(class, attr).is_empty() {
            return None;
        }
        let (stub, decls) = self.stub_of(class)?;
        let [d] = decls.as_slice() else {
            return None;
        };
        let file = self.file(stub);
        let field = file.decls[*d as usize]
            .fields
            .iter()
            .find(|f| f.name == attr && f.ty.is_some())?;
        note_stub(|| {
            format!(
                "the type of attribute `{attr}` of {} is read from its stub {}:{}",
                self.cx.index.qualified_name(class),
                file.path,
                field.line
            )
        });
        let at = At {
            file: stub,
            scope: field.scope,
            line: field.line,
        };
        Some((at, field.ty.as_ref()?))
    }
}

/// Which of a scope's bindings a read sees: the nearest earlier write when the
/// read runs with the scope; otherwise the scope's only value (every binding
/// agreeing), since the read runs after the scope was filled.
fn pick_binding<'a>(
    file: &FileFacts,
    all: &[&'a Binding],
    scope: ScopeIdx,
    line: u32,
    same_time: bool,
) -> Found<'a> {
    // A comprehension's variables are bound before its element is read, on the
    // same line, and so are a function's parameters (`lambda f: f()`); elsewhere a
    // write on the read's own line comes after the read.
    let comprehension = file.scopes[scope as usize].kind == ScopeKind::Block;
    let bound_first = |b: &Binding| comprehension || matches!(b.value, BindingValue::Param { .. });
    if same_time {
        return match all
            .iter()
            .rev()
            .find(|b| b.line < line || (b.line == line && bound_first(b)))
        {
            Some(b) => Found::Binding(b, scope),
            None => Found::Later,
        };
    }
    match module_level_binding(file, all) {
        Some(b) => Found::Binding(b, scope),
        None => Found::Ambiguous,
    }
}

/// The binding a later reader of a filled scope sees: the only one, or one of
/// several that are all the same declaration.
fn module_level_binding<'a>(file: &FileFacts, all: &[&'a Binding]) -> Option<&'a Binding> {
    let is_stub = |b: &Binding| matches!(b.value, BindingValue::Decl(d) if file.decls[d as usize].is_overload_stub());
    match all {
        [] => None,
        [one] => Some(one),
        // `@overload` signatures followed by the one definition: the definition.
        many if many[..many.len() - 1].iter().all(|b| is_stub(b)) => Some(many[many.len() - 1]),
        many => {
            let last = many[many.len() - 1];
            // `try: from x import f / except ImportError: def f(): …` and
            // `def f` … `f = wrap(f)` disagree: refuse rather than pick.
            // `import a.b` and `import a.c` both bind `a` to the same package.
            let top = |b: &Binding| match b.value {
                BindingValue::Import(i) => match &file.imports[i as usize].kind {
                    ImportKind::Module { path, alias: None } => path.first().cloned(),
                    _ => None,
                },
                _ => None,
            };
            let first_top = top(many[0]);
            if first_top.is_some() && many.iter().all(|b| top(b) == first_top) {
                return Some(last);
            }
            many.iter().all(|b| same_binding(b, last)).then_some(last)
        }
    }
}

fn same_binding(a: &Binding, b: &Binding) -> bool {
    matches!((&a.value, &b.value), (BindingValue::Decl(x), BindingValue::Decl(y)) if x == y)
}

/// What iterating over a value of this written type yields: the first type
/// argument of a homogeneous container or iterator (a mapping's keys).
fn element_type(ty: &TypeRef) -> Option<&TypeRef> {
    const ITERABLES: &[&str] = &[
        "List",
        "list",
        "Sequence",
        "MutableSequence",
        "Iterable",
        "Iterator",
        "Set",
        "set",
        "FrozenSet",
        "frozenset",
        "AbstractSet",
        "MutableSet",
        "Collection",
        "Deque",
        "deque",
        "Generator",
        "AsyncIterator",
        "AsyncIterable",
        "AsyncGenerator",
        "Reversible",
        "Dict",
        "dict",
        "Mapping",
        "MutableMapping",
        "OrderedDict",
        "DefaultDict",
        "defaultdict",
        "KeysView",
        "ValuesView",
    ];
    let last = ty.last()?;
    if !ITERABLES.contains(&last) {
        return None;
    }
    ty.args.first()
}

/// `Callable[...]` (typing or collections.abc): some function, which the type does not name.
fn is_callable_type(ty: &TypeRef) -> bool {
    ty.last() == Some("Callable")
}

/// A test's parameter named as one of pytest's own fixtures, which the tree
/// neither declares as a fixture nor ships pytest itself: an instance of the
/// fixture's type, outside the tree.
fn pytest_builtin_fixture(index: &crate::index::TreeIndex, name: &str) -> Option<Eval> {
    let (_, ty) = policy::PYTEST_BUILTIN_FIXTURES
        .iter()
        .find(|(fixture, _)| *fixture == name)?;
    let ships_pytest =
        !index.python_module("pytest").is_empty() || !index.python_module("_pytest").is_empty();
    (!ships_pytest).then(|| Eval::new(Val::ForeignInstance(ty.to_string()), Family::ForeignType))
}

/// A value read through an alias is value flow, whatever placed the aliased name.
fn as_value_flow(e: Eval) -> Eval {
    match e.val {
        Val::Entity(_) | Val::Entities(_) => Eval::new(e.val, Family::ValueFlow),
        _ => e,
    }
}

/// A name reached through an import keeps the outside families; in the tree it is `import`.
fn as_import(e: Eval) -> Eval {
    match e.family {
        Family::ExternalImport | Family::Builtin | Family::ForeignType => e,
        _ => Eval::new(e.val, Family::Import),
    }
}

/// An import written under `if TYPE_CHECKING:`.
fn is_annotation_import(file: &FileFacts, i: u32) -> bool {
    file.annotation_imports.binary_search(&i).is_ok()
}

/// A written type that says nothing of a value's members.
fn says_nothing_of_members(symbol: &str) -> bool {
    symbol == "object"
}

/// A module value found by import: the tree's own, or one a stub stands for
/// (outside, its code not in the tree).
fn module_eval(m: Val) -> Eval {
    let family = match m {
        Val::Outside { .. } => Family::ExternalImport,
        _ => Family::Import,
    };
    Eval::new(m, family)
}

/// A module the tree does not have: standard library or external.
fn outside_module(path: &[String]) -> Eval {
    let top = path.first().map(String::as_str).unwrap_or("");
    let kind = if policy::is_stdlib(top) {
        OutsideKind::Stdlib
    } else {
        OutsideKind::External
    };
    Eval::new(
        Val::Outside {
            kind,
            symbol: path.join("."),
        },
        Family::ExternalImport,
    )
}

fn foreign_kind(type_name: &str) -> OutsideKind {
    if policy::BUILTIN_TYPES.contains(&type_name) {
        OutsideKind::Builtin
    } else {
        OutsideKind::ForeignType
    }
}
