//! TypeScript / JavaScript resolution: small ordered rules mirroring what tsc's
//! checker binds. A value is evaluated one step at a time — a name through the
//! nearest binding of its scope chain, an import through the module's export
//! table (re-exports, `export *` and CommonJS `module.exports` included), a
//! member through the class, interface, object literal or module it belongs to —
//! and every edge leaves through `Placement::in_tree` / `Placement::outside` with
//! the family of the evidence that decided it.

use crate::facts::{
    Binding, BindingValue, Call, CallKind, Callee, DeclKind, FileFacts, ImportKind, Key,
    ModuleTarget, Receiver, ScopeIdx, ScopeKind, TypeRef, ValueExpr, ValueRef,
};
use crate::index::{Eid, TreeIndex};
use crate::lang::typescript::frontend::{
    slot_name, AWAIT, DEFAULT, EXPORTS_SCOPE, EXPORT_EQUALS, FUNCTION_TYPE, INDEXED, OPAQUE,
    POISON_LINE, PROTOTYPE, STAR, TYPEOF,
};
use crate::lang::typescript::policy;
use crate::lang::Language;
use crate::resolve::family::{Family, OutsideKind, Reason};
use crate::resolve::{
    find_member, Cx, Decision, Eval, Hierarchy, LanguageResolver, MemberLookup, Placement, Rule,
    Target, Val,
};

pub struct TsResolver;

pub static TYPESCRIPT: TsResolver = TsResolver;

/// How many steps a value is followed (aliases, re-exports, fields) before abstaining.
const BUDGET: u32 = 24;

const RULES: &[Rule] = &[
    Rule {
        name: "super_constructor",
        run: super_constructor,
    },
    Rule {
        name: "bare_name",
        run: bare_name,
    },
    Rule {
        name: "member_call",
        run: member_call,
    },
    Rule {
        name: "computed_callee",
        run: computed_callee,
    },
];

fn is_ts_family(l: Language) -> bool {
    matches!(
        l,
        Language::TypeScript | Language::Tsx | Language::JavaScript
    )
}

impl LanguageResolver for TsResolver {
    fn rules(&self) -> &'static [Rule] {
        RULES
    }

    /// A call evaluates to what its target returns: a construction to an instance
    /// of the class, a function to its declared return type.
    fn call_result(&self, cx: &Cx, file: u32, call: &Call, placement: &Placement) -> Option<Eval> {
        let Target::InTree(targets) = placement.target() else {
            return None;
        };
        let target = placement.named().unwrap_or(*targets.first()?);
        let decl = cx.index.decl(target);
        if call.kind == CallKind::New {
            let class = if decl.kind == DeclKind::Constructor {
                cx.index.enclosing_type(target)?
            } else {
                target
            };
            return Some(Eval::new(Val::Instance(class), Family::ReturnType));
        }
        let _ = file;
        if decl.kind.is_type() {
            return None;
        }
        let returns = decl.returns.as_ref()?;
        let site = Site::of_decl(cx.index, target);
        match resolve_type(cx, &site, returns, BUDGET) {
            V::Instance(t) => Some(Eval::new(Val::Instance(t), Family::ReturnType)),
            V::Foreign(symbol) => Some(Eval::new(Val::ForeignInstance(symbol), Family::ReturnType)),
            _ => None,
        }
    }

    /// A function passed by name (`register(onStart)`): the function the name holds.
    fn resolve_ref(&self, cx: &Cx, file: u32, r: &ValueRef) -> Option<Placement> {
        let Callee::Name(name) = &r.target else {
            return None;
        };
        let site = Site {
            file,
            scope: r.scope,
            line: r.line,
            deferred: r.caller.is_some(),
        };
        let e = eval_name(cx, &site, name, BUDGET);
        match e.v {
            V::Func(f) => Some(Placement::in_tree(vec![f], e.family)),
            _ => None,
        }
    }

    /// `extends` and `implements` as written, resolved where the class is declared.
    fn bases(&self, index: &TreeIndex, ty: Eid) -> (Vec<Eid>, bool) {
        let decl = index.decl(ty);
        let mut out = Vec::new();
        let mut unknown = false;
        let results = crate::resolve::Results::default();
        let hierarchy = Hierarchy::default();
        let cx = Cx {
            index,
            hierarchy: &hierarchy,
            results: &results,
        };
        let site = Site::of_decl(index, ty);
        for base in &decl.bases {
            match resolve_type(&cx, &site, base, BUDGET) {
                V::Instance(b) if b != ty => out.push(b),
                _ => unknown = true,
            }
        }
        // A type alias of another type reads its members through it.
        if decl.kind == DeclKind::Interface {
            if let Some(aliased) = &decl.returns {
                match resolve_type(&cx, &site, aliased, BUDGET) {
                    V::Instance(b) if b != ty => out.push(b),
                    _ => unknown = true,
                }
            }
        }
        (out, unknown)
    }

    fn lookup_order(&self, hierarchy: &Hierarchy, ty: Eid) -> Vec<Eid> {
        hierarchy.depth_first(ty)
    }

    /// tsc names the overload signature the arguments select: the one signature
    /// the argument count fits, else the first signature (a declaration tsc
    /// accepts too). Redefinitions that share a qualified name (two object
    /// literals' `build`) are told apart by running the call's rules again.
    fn pick_overload(&self, cx: &Cx, file: u32, call: &Call, candidates: &[Eid]) -> Option<Eid> {
        let signatures: Vec<Eid> = candidates
            .iter()
            .copied()
            .filter(|&c| cx.index.decl(c).body.is_none() && cx.index.decl(c).kind.is_callable())
            .collect();
        if signatures.is_empty() {
            return match nested_rules(cx, file, call) {
                crate::resolve::Resolution::Placed(p) => match p.target() {
                    Target::InTree(t) if t.len() == 1 => Some(t[0]),
                    _ => None,
                },
                _ => None,
            };
        }
        let fits: Vec<Eid> = crate::resolve::overload::by_arity(cx, call, &signatures, |_| false)
            .into_iter()
            .filter(|&c| !a_literal_contradicts(cx.index.decl(c), call))
            .collect();
        match fits.as_slice() {
            [one] => Some(*one),
            // Several fit the count and the first signature asks a primitive where
            // the argument is no literal of it (`new Tuple(x)` against `(length:
            // number)` then `(...items)`): tsc takes the first whose types the
            // arguments satisfy, which the engine cannot read: left unnamed.
            [_, _, ..] if primitive_unproven(cx.index.decl(signatures[0]), call) => None,
            _ => signatures.first().copied(),
        }
    }
}

/// Whether some argument goes to a parameter written as a primitive type
/// (`number`, `string`, `boolean`, `bigint`) without being a literal of it: the
/// engine cannot tell whether the argument satisfies it.
fn primitive_unproven(decl: &crate::facts::Decl, call: &Call) -> bool {
    use crate::facts::ArgShape;
    call.args.iter().zip(&decl.params).any(|(arg, param)| {
        let Some(ty) = &param.ty else {
            return false;
        };
        let ([written], false, true) = (ty.path.as_slice(), ty.array, ty.args.is_empty()) else {
            return false;
        };
        let literal = match arg {
            ArgShape::Literal(lit) => literal_primitive(*lit),
            _ => None,
        };
        matches!(written.as_str(), "string" | "number" | "boolean" | "bigint")
            && literal != Some(written.as_str())
    })
}

/// The primitive type a literal is a value of (`"x"`: `string`).
fn literal_primitive(literal: crate::facts::LiteralType) -> Option<&'static str> {
    use crate::facts::LiteralType;
    match literal {
        LiteralType::Str => Some("string"),
        LiteralType::Double | LiteralType::Int | LiteralType::Float | LiteralType::Long => {
            Some("number")
        }
        LiteralType::Bool => Some("boolean"),
        _ => None,
    }
}

/// A literal argument whose type a parameter's written primitive type excludes
/// (`fmt("x")` against `fmt(x: number)`).
fn a_literal_contradicts(decl: &crate::facts::Decl, call: &Call) -> bool {
    use crate::facts::ArgShape;
    call.args.iter().zip(&decl.params).any(|(arg, param)| {
        let (ArgShape::Literal(lit), Some(ty)) = (arg, &param.ty) else {
            return false;
        };
        let [written] = ty.path.as_slice() else {
            return false;
        };
        if ty.array || !ty.args.is_empty() {
            return false;
        }
        let Some(literal) = literal_primitive(*lit) else {
            return false;
        };
        matches!(written.as_str(), "string" | "number" | "boolean") && written != literal
    })
}

// ----- where a name is read ----------------------------------------------------------------

/// Where a name or a type is read: the file, the scope, the line, and whether the
/// read runs later than the module's top level (inside a function body).
#[derive(Debug, Clone, Copy)]
struct Site {
    file: u32,
    scope: ScopeIdx,
    line: u32,
    deferred: bool,
}

impl Site {
    fn of_call(call: &Call, file: u32) -> Site {
        Site {
            file,
            scope: call.scope,
            line: call.line,
            deferred: call.caller.is_some(),
        }
    }

    /// A declaration's own scope (for its parameter and return types).
    fn of_decl(index: &TreeIndex, eid: Eid) -> Site {
        let decl = index.decl(eid);
        Site {
            file: eid.file,
            scope: decl.body.unwrap_or(decl.scope),
            line: u32::MAX,
            deferred: true,
        }
    }

    /// The module's top level of a file, read after it ran (imports, exports).
    fn module(file: u32) -> Site {
        Site {
            file,
            scope: 0,
            line: u32::MAX,
            deferred: true,
        }
    }
}

/// The binding a name has at a site: the nearest write before the read in the
/// innermost scope that binds it; hoisted declarations (line 0) are seen
/// everywhere; a read inside a function sees a module-level name's only
/// declaration wherever it is written. Slots (`X.p = v`) are not bindings of X.
fn lookup<'a>(index: &'a TreeIndex, site: &Site, name: &str) -> Option<(ScopeIdx, &'a Binding)> {
    match lookup_binding(index, site, name) {
        Lookup::Found(s, b) => Some((s, b)),
        Lookup::Ambiguous | Lookup::Nothing => None,
    }
}

enum Lookup<'a> {
    Found(ScopeIdx, &'a Binding),
    /// A module-level name written more than once, read inside a function: which
    /// write it sees depends on when the function runs.
    Ambiguous,
    Nothing,
}

fn lookup_binding<'a>(index: &'a TreeIndex, site: &Site, name: &str) -> Lookup<'a> {
    let facts = index.file(site.file);
    let mut cur = Some(site.scope);
    let is_write = |b: &&Binding| !matches!(b.value, BindingValue::Slot { .. });
    while let Some(s) = cur {
        let Some(sc) = facts.scopes.get(s as usize) else {
            return Lookup::Nothing;
        };
        if sc.kind != ScopeKind::Class {
            // A write the frontend could not order makes every read unknown.
            if let Some(poison) = sc
                .named(name)
                .find(|b| b.line == POISON_LINE && matches!(b.value, BindingValue::Opaque))
            {
                return Lookup::Found(s, poison);
            }
            let mut writes = sc.named(name).filter(is_write);
            if let Some(first) = writes.next() {
                let several = writes.next().is_some();
                let all_decls = sc
                    .named(name)
                    .filter(is_write)
                    .all(|b| matches!(b.value, BindingValue::Decl(_)));
                if all_decls {
                    return Lookup::Found(s, first);
                }
                let later_read = site.deferred || sc.kind != ScopeKind::Module;
                if several && later_read && sc.kind == ScopeKind::Module {
                    return Lookup::Ambiguous;
                }
                let before = sc
                    .named(name)
                    .filter(is_write)
                    .rfind(|b| b.line == 0 || b.line <= site.line);
                return match before {
                    Some(b) => Lookup::Found(s, b),
                    None if later_read => Lookup::Found(s, first),
                    None => Lookup::Nothing,
                };
            }
        }
        cur = sc.parent;
    }
    Lookup::Nothing
}

/// Writes of `X.key = v` on the name X, in the scope that binds X.
fn slots<'a>(
    index: &'a TreeIndex,
    file: u32,
    scope: ScopeIdx,
    name: &str,
    key: &str,
) -> Vec<&'a ValueExpr> {
    let facts = index.file(file);
    let Some(sc) = facts.scopes.get(scope as usize) else {
        return Vec::new();
    };
    sc.named(&slot_name(name, &Key::Str(key.to_string())))
        .filter_map(|b| match &b.value {
            BindingValue::Slot {
                key: Some(Key::Str(k)),
                value,
            } if k == key => Some(value),
            _ => None,
        })
        .collect()
}

// ----- values ------------------------------------------------------------------------------

/// What an expression evaluates to.
#[derive(Debug, Clone)]
enum V<'a> {
    /// A function, arrow, method: callable.
    Func(Eid),
    /// A class, interface or enum as a value (its constructor and static members).
    Class(Eid),
    /// An instance of a type of the tree.
    Instance(Eid),
    /// An object made by `new F()` of a constructor function F (JavaScript): its
    /// members are the methods written onto `F.prototype`.
    Constructed(Eid),
    /// A module file of the tree (namespace import, `require`).
    Module(u32),
    /// An object literal: its entries, read in its file at its scope.
    Object {
        file: u32,
        scope: ScopeIdx,
        entries: &'a [(Key, ValueExpr)],
        /// The name bound to it, whose slot writes (`o.m = f`) add members.
        name: Option<String>,
    },
    /// Something outside the tree: a module, one of its members, a global.
    Outside(OutsideKind, String),
    /// An instance of a type outside the tree (`Array`, `Promise`, an imported type).
    Foreign(String),
    /// A value of a function type (a callback): calls of it are indirect.
    FnValue,
    Unknown(Reason),
}

/// A value with the family of the evidence that produced it.
#[derive(Debug, Clone)]
struct Ev<'a> {
    v: V<'a>,
    family: Family,
}

fn ev(v: V<'_>, family: Family) -> Ev<'_> {
    Ev { v, family }
}

fn unknown<'a>(r: Reason) -> Ev<'a> {
    ev(V::Unknown(r), Family::ValueFlow)
}

fn specifier_kind(spec: &str) -> OutsideKind {
    if policy::is_node_builtin(spec) {
        OutsideKind::Stdlib
    } else {
        OutsideKind::External
    }
}

/// A name read at a site: its binding, or a global of the language.
fn eval_name<'a>(cx: &Cx<'a>, site: &Site, name: &str, budget: u32) -> Ev<'a> {
    if budget == 0 {
        return unknown(Reason::LocalValue);
    }
    match lookup_binding(cx.index, site, name) {
        Lookup::Found(scope, b) => eval_binding(cx, site, scope, b, budget - 1),
        Lookup::Ambiguous => unknown(Reason::LocalValue),
        Lookup::Nothing if policy::is_global_object(name) || policy::is_global_function(name) => {
            ev(
                V::Outside(OutsideKind::Builtin, name.to_string()),
                Family::Builtin,
            )
        }
        Lookup::Nothing => unknown(Reason::NoDeclaration),
    }
}

fn eval_binding<'a>(
    cx: &Cx<'a>,
    site: &Site,
    scope: ScopeIdx,
    b: &'a Binding,
    budget: u32,
) -> Ev<'a> {
    let file = site.file;
    let here = Site { scope, ..*site };
    match &b.value {
        BindingValue::Decl(d) => {
            let eid = Eid { file, decl: *d };
            if cx.index.decl(eid).kind.is_type() {
                ev(V::Class(eid), Family::Lexical)
            } else {
                ev(V::Func(eid), Family::Lexical)
            }
        }
        BindingValue::Param { ty: Some(ty), .. } => {
            let v = resolve_type(cx, &here, ty, budget);
            match v {
                V::FnValue | V::Unknown(_) => unknown(Reason::ParameterValue),
                v => ev(v, Family::WrittenType),
            }
        }
        BindingValue::Param { ty: None, .. } => unknown(Reason::ParameterValue),
        BindingValue::Import(i) => follow_import(cx, file, *i, budget),
        BindingValue::Typed { ty, value } => match resolve_type(cx, &here, ty, budget) {
            V::Unknown(_) | V::FnValue => match value {
                Some(v) => eval_value(cx, &here, v, budget),
                None => unknown(Reason::LocalValue),
            },
            v => ev(v, Family::WrittenType),
        },
        BindingValue::Value(v) => {
            let mut e = eval_value(cx, &here, v, budget);
            if let V::Object {
                name, scope: at, ..
            } = &mut e.v
            {
                if name.is_none() {
                    *name = Some(b.name.clone());
                    *at = scope;
                }
            }
            e
        }
        BindingValue::Opaque | BindingValue::Slot { .. } => unknown(Reason::LocalValue),
    }
}

fn eval_value<'a>(cx: &Cx<'a>, site: &Site, v: &'a ValueExpr, budget: u32) -> Ev<'a> {
    if budget == 0 {
        return unknown(Reason::LocalValue);
    }
    match v {
        ValueExpr::Name(n) => {
            let e = eval_name(cx, site, n, budget - 1);
            match e.v {
                V::Func(_) | V::Class(_) => ev(e.v, Family::ValueFlow),
                _ => e,
            }
        }
        ValueExpr::Attribute { path } => eval_path(cx, site, path, budget - 1),
        ValueExpr::New(ty) => match resolve_type(cx, site, ty, budget - 1) {
            // `new F()` of a constructor function (JavaScript).
            V::Unknown(r) => match whole_module(cx, eval_path(cx, site, &ty.path, budget - 1)).v {
                V::Func(f) => ev(V::Constructed(f), Family::WrittenType),
                _ => unknown(r),
            },
            v => ev(v, Family::WrittenType),
        },
        ValueExpr::Lambda(d) => {
            let eid = Eid {
                file: site.file,
                decl: *d,
            };
            if cx.index.decl(eid).kind.is_type() {
                ev(V::Class(eid), Family::ValueFlow)
            } else {
                ev(V::Func(eid), Family::ValueFlow)
            }
        }
        ValueExpr::Dict(entries) => ev(
            V::Object {
                file: site.file,
                scope: site.scope,
                entries: entries.as_slice(),
                name: None,
            },
            Family::ValueFlow,
        ),
        ValueExpr::CallResult(ci) => match a_call_result(cx, site.file, *ci) {
            Ev {
                v: V::Unknown(_), ..
            } => returned_value(cx, site.file, *ci, budget - 1),
            e => e,
        },
        // `await v`: what v's written `Promise<T>` resolves to.
        ValueExpr::Subscript {
            base,
            key: Key::Str(k),
        } if k == AWAIT => match base.as_ref() {
            ValueExpr::CallResult(ci) => awaited_call(cx, site.file, *ci),
            other => match written_type_of(cx, site, other, budget - 1) {
                Some((at, ty)) => {
                    let inner = match ty.last() {
                        Some("Promise" | "PromiseLike") if ty.path.len() == 1 => {
                            match ty.args.first() {
                                Some(t) => t.clone(),
                                None => return unknown(Reason::ReceiverTypeUnknown),
                            }
                        }
                        _ => ty,
                    };
                    match resolve_type(cx, &at, &inner, budget - 1) {
                        V::Unknown(r) => unknown(r),
                        V::FnValue => unknown(Reason::DynamicCallee),
                        v => ev(v, Family::WrittenType),
                    }
                }
                None => match eval_value(cx, site, other, budget - 1) {
                    // What a promise resolves to is its type argument, not kept here.
                    Ev {
                        v: V::Foreign(t), ..
                    } if t == "Promise" => unknown(Reason::ReceiverTypeUnknown),
                    e => e,
                },
            },
        },
        // `const { a } = v`: v's member a.
        ValueExpr::Subscript {
            base,
            key: Key::Str(k),
        } => {
            let b = eval_value(cx, site, base, budget - 1);
            match member_of(cx, b, k, budget - 1) {
                Ev {
                    v: V::Func(f),
                    family: Family::QualifiedPath,
                } => ev(V::Func(f), Family::ValueFlow),
                e => e,
            }
        }
        ValueExpr::Element(inner) => an_element_of(cx, site, inner, budget - 1),
        ValueExpr::Literal(l) => ev(
            V::Foreign(policy::literal_type_name(*l).to_string()),
            Family::ForeignType,
        ),
        _ => unknown(Reason::LocalValue),
    }
}

/// `a.b.c`: the root named, then one member at a time.
fn eval_path<'a>(cx: &Cx<'a>, site: &Site, path: &[String], budget: u32) -> Ev<'a> {
    let Some((root, rest)) = path.split_first() else {
        return unknown(Reason::ReceiverTypeUnknown);
    };
    let mut cur = eval_root(cx, site, root, budget);
    for m in rest {
        cur = member_of(cx, cur, m, budget);
    }
    cur
}

fn eval_root<'a>(cx: &Cx<'a>, site: &Site, root: &str, budget: u32) -> Ev<'a> {
    if root == "this" {
        return this_value(cx, site);
    }
    eval_name(cx, site, root, budget)
}

/// `this` in a method (arrows see their enclosing method's): an instance of the
/// enclosing class, or the class itself in a static method.
fn this_value<'a>(cx: &Cx<'a>, site: &Site) -> Ev<'a> {
    let facts = cx.index.file(site.file);
    let Some(owner) = owner_of_scope(cx.index, site.file, site.scope) else {
        return unknown(Reason::ReceiverTypeUnknown);
    };
    // A plain `function` has its own `this`: only methods and arrows inside them see the class.
    let mut cur = Some(owner);
    while let Some(d) = cur {
        let decl = &facts.decls[d as usize];
        if decl.kind.is_type() {
            return ev(
                V::Instance(Eid {
                    file: site.file,
                    decl: d,
                }),
                Family::OwnType,
            );
        }
        if matches!(decl.kind, DeclKind::Method | DeclKind::Constructor) {
            let class = cx.index.enclosing_type(Eid {
                file: site.file,
                decl: d,
            });
            return match class {
                Some(c) if decl.is_static => ev(V::Class(c), Family::OwnType),
                Some(c) => ev(V::Instance(c), Family::OwnType),
                None => unknown(Reason::ReceiverTypeUnknown),
            };
        }
        if decl.kind == DeclKind::Function && !is_arrow_like(decl) {
            // `X.m = function () {}` / `const X = { m() {} }`: `this` is X.
            if let Some(holder) = decl.bases.first() {
                let at = Site {
                    file: site.file,
                    scope: decl.scope,
                    line: u32::MAX,
                    deferred: true,
                };
                let e = eval_path(cx, &at, &holder.path, BUDGET);
                return match e.v {
                    V::Func(f) if holder.is_self => ev(V::Constructed(f), Family::OwnType),
                    V::Object { .. } | V::Func(_) | V::Class(_) if !holder.is_self => {
                        ev(e.v, Family::OwnType)
                    }
                    _ => unknown(Reason::ReceiverTypeUnknown),
                };
            }
            return unknown(Reason::ReceiverTypeUnknown);
        }
        cur = decl.parent;
    }
    unknown(Reason::ReceiverTypeUnknown)
}

/// Lambdas (anonymous arrows and function expressions) keep the enclosing `this`
/// only when they are arrows; the frontend does not tell them apart, so only
/// `<lambdaN>` declarations are treated as transparent.
fn is_arrow_like(decl: &crate::facts::Decl) -> bool {
    decl.kind == DeclKind::Lambda
}

/// The declaration owning a scope or its nearest enclosing one.
fn owner_of_scope(index: &TreeIndex, file: u32, scope: ScopeIdx) -> Option<u32> {
    let facts = index.file(file);
    let mut cur = Some(scope);
    while let Some(s) = cur {
        let sc = facts.scopes.get(s as usize)?;
        if let Some(o) = sc.owner {
            return Some(o);
        }
        cur = sc.parent;
    }
    None
}

/// An import: the export it names in a module of the tree, or outside.
fn follow_import<'a>(cx: &Cx<'a>, file: u32, i: u32, budget: u32) -> Ev<'a> {
    if budget == 0 {
        return unknown(Reason::LocalValue);
    }
    let facts = cx.index.file(file);
    let Some(import) = facts.imports.get(i as usize) else {
        return unknown(Reason::LocalValue);
    };
    let as_import = |e: Ev<'a>| match e.v {
        V::Outside(..) => e,
        v => ev(v, Family::Import),
    };
    match &import.kind {
        ImportKind::Module { path, .. } => {
            let spec = path.first().map(String::as_str).unwrap_or("");
            match module_file(cx.index, facts, spec) {
                Loaded::File(f) => ev(V::Module(f), Family::Import),
                Loaded::Missing => unknown(Reason::NoDeclaration),
                Loaded::Outside => ev(
                    V::Outside(specifier_kind(spec), spec.to_string()),
                    Family::ExternalImport,
                ),
            }
        }
        ImportKind::From { module, name, .. } => {
            let spec = module.first().map(String::as_str).unwrap_or("");
            match module_file(cx.index, facts, spec) {
                Loaded::File(f) => as_import(export_of(cx, f, name, budget - 1)),
                Loaded::Missing => unknown(Reason::NoDeclaration),
                Loaded::Outside => {
                    let symbol = if name == DEFAULT {
                        spec.to_string()
                    } else {
                        format!("{spec}.{name}")
                    };
                    ev(
                        V::Outside(specifier_kind(spec), symbol),
                        Family::ExternalImport,
                    )
                }
            }
        }
        _ => unknown(Reason::LocalValue),
    }
}

/// What a specifier the file writes loads, as its project resolved it (project.rs).
enum Loaded {
    /// A file of the program (its index).
    File(u32),
    /// The tree claims it and no file of the program answers.
    Missing,
    Outside,
}

/// The target recorded for `spec` in the file's module requests. Written twice with
/// targets that differ (an `import` and a `require` that conditions send apart), it
/// names neither.
fn module_file(index: &TreeIndex, facts: &FileFacts, spec: &str) -> Loaded {
    let requests = &facts.module_requests;
    let start = requests.partition_point(|r| r.specifier.as_str() < spec);
    let mut targets = requests[start..]
        .iter()
        .take_while(|r| r.specifier == spec)
        .map(|r| r.target.as_ref());
    let Some(Some(first)) = targets.next() else {
        return Loaded::Missing;
    };
    if targets.any(|t| t != Some(first)) {
        return Loaded::Missing;
    }
    match first {
        ModuleTarget::File(path) => match index.file_by_path(path) {
            Some(f) => Loaded::File(f),
            None => Loaded::Missing,
        },
        ModuleTarget::Missing => Loaded::Missing,
        ModuleTarget::Outside => Loaded::Outside,
    }
}

/// What a module exports under a name: its export table, then (CommonJS under
/// esModuleInterop) the whole `module.exports` for `default` or a member of it,
/// then each `export * from`.
fn export_of<'a>(cx: &Cx<'a>, file: u32, name: &str, budget: u32) -> Ev<'a> {
    if budget == 0 {
        return unknown(Reason::LocalValue);
    }
    let facts = cx.index.file(file);
    if !is_ts_family(facts.language) {
        return unknown(Reason::NoDeclaration);
    }
    let Some(exports) = facts.scopes.get(EXPORTS_SCOPE as usize) else {
        return unknown(Reason::NoDeclaration);
    };
    let site = Site::module(file);
    if let Some(b) = exports.named(name).last() {
        return exported(cx, &site, b, budget - 1);
    }
    if let Some(whole) = exports.named(EXPORT_EQUALS).last() {
        let whole = exported(cx, &site, whole, budget - 1);
        if name == DEFAULT {
            return whole;
        }
        return member_of(cx, whole, name, budget - 1);
    }
    if name != DEFAULT {
        for star in exports.named(STAR) {
            let BindingValue::Import(i) = star.value else {
                continue;
            };
            let e = match &facts.imports[i as usize].kind {
                ImportKind::Star { module, .. } => {
                    let spec = module.first().map(String::as_str).unwrap_or("");
                    match module_file(cx.index, facts, spec) {
                        Loaded::File(f) => export_of(cx, f, name, budget - 1),
                        _ => continue,
                    }
                }
                _ => continue,
            };
            if !matches!(e.v, V::Unknown(Reason::NoDeclaration)) {
                return e;
            }
        }
    }
    unknown(Reason::NoDeclaration)
}

fn exported<'a>(cx: &Cx<'a>, site: &Site, b: &'a Binding, budget: u32) -> Ev<'a> {
    match &b.value {
        BindingValue::Decl(d) => {
            let eid = Eid {
                file: site.file,
                decl: *d,
            };
            if cx.index.decl(eid).kind.is_type() {
                ev(V::Class(eid), Family::Import)
            } else {
                ev(V::Func(eid), Family::Import)
            }
        }
        BindingValue::Import(i) => follow_import(cx, site.file, *i, budget),
        BindingValue::Value(ValueExpr::Name(n)) => {
            let e = eval_name(cx, site, n, budget);
            match e.v {
                V::Func(_) | V::Class(_) | V::Module(_) | V::Object { .. } => {
                    ev(e.v, Family::Import)
                }
                _ => e,
            }
        }
        BindingValue::Value(v) => eval_value(cx, site, v, budget),
        _ => unknown(Reason::LocalValue),
    }
}

/// `value.name`: a module's export, a class's static member, a property
/// assigned onto a function, an object literal's entry, an instance's method or
/// field, a member of something outside.
fn member_of<'a>(cx: &Cx<'a>, e: Ev<'a>, name: &str, budget: u32) -> Ev<'a> {
    if budget == 0 {
        return unknown(Reason::ReceiverTypeUnknown);
    }
    let receiver_family = e.family;
    match e.v {
        V::Module(f) => export_of(cx, f, name, budget - 1),
        V::Class(c) => {
            if let Some(v) = slot_of(cx, c, name, budget) {
                return v;
            }
            match find_member(cx, cx.index.file(c.file).language, c, name) {
                MemberLookup::Found { decls, .. } => {
                    member_value(cx, decls[0], Family::QualifiedPath)
                }
                _ => unknown(Reason::ReceiverTypeUnknown),
            }
        }
        V::Func(f) => match slot_of(cx, f, name, budget) {
            Some(v) => v,
            // `f.call(..)`, `f.bind(..)`: methods every function has.
            None if matches!(name, "call" | "apply" | "bind") => ev(
                V::Outside(OutsideKind::ForeignType, format!("Function.{name}")),
                Family::ForeignType,
            ),
            None => unknown(Reason::ReceiverTypeUnknown),
        },
        V::Constructed(f) => {
            let key = format!("{PROTOTYPE}{name}");
            match slot_of(cx, f, &key, budget) {
                Some(v) => match v.v {
                    V::Func(_) => ev(v.v, receiver_family),
                    _ => v,
                },
                None => unknown(Reason::ReceiverTypeUnknown),
            }
        }
        V::Object {
            file,
            scope,
            entries,
            name: bound,
        } => {
            // A member written onto the object after its literal (`X.m = f`) is
            // what it holds (two writes leave it unknown); else the literal's own
            // entry (the frontend sorts an object literal's entries by key).
            let writes = match &bound {
                Some(bound) => slots(cx.index, file, scope, bound, name),
                None => Vec::new(),
            };
            if writes.len() > 1 {
                return unknown(Reason::LocalValue);
            }
            let key = Key::Str(name.to_string());
            let held = writes.last().copied().or_else(|| {
                entries
                    .binary_search_by(|(k, _)| k.cmp(&key))
                    .ok()
                    .map(|i| &entries[i].1)
            });
            let Some(v) = held else {
                return unknown(Reason::ReceiverTypeUnknown);
            };
            let site = Site {
                file,
                scope,
                line: u32::MAX,
                deferred: true,
            };
            let out = eval_value(cx, &site, v, budget - 1);
            let family = if receiver_family == Family::OwnType {
                Family::OwnType
            } else {
                Family::QualifiedPath
            };
            match out.v {
                V::Func(_) => ev(out.v, family),
                _ => out,
            }
        }
        V::Instance(t) => instance_member(cx, t, name, e.family, budget),
        V::Outside(kind, symbol) => ev(V::Outside(kind, format!("{symbol}.{name}")), e.family),
        V::Foreign(t) => ev(
            V::Outside(OutsideKind::ForeignType, format!("{t}.{name}")),
            Family::ForeignType,
        ),
        V::FnValue => unknown(Reason::DynamicCallee),
        V::Unknown(Reason::Refused) => unknown(Reason::Refused),
        V::Unknown(_) => unknown(Reason::ReceiverTypeUnknown),
    }
}

/// A method or a field's value on an instance: own members under the receiver's
/// family, inherited ones as `inheritance`; a field reads its written type.
fn instance_member<'a>(cx: &Cx<'a>, t: Eid, name: &str, family: Family, budget: u32) -> Ev<'a> {
    let language = cx.index.file(t.file).language;
    match find_member(cx, language, t, name) {
        MemberLookup::Found {
            decls, inherited, ..
        } => {
            let fam = if inherited {
                Family::Inheritance
            } else {
                family
            };
            return member_value(cx, decls[0], fam);
        }
        MemberLookup::MaybeOutside => {
            return match field_of(cx, t, name) {
                Some(v) => field_value(cx, v, budget),
                None => unknown(Reason::ReceiverTypeUnknown),
            };
        }
        MemberLookup::NotFound => {}
    }
    match field_of(cx, t, name) {
        Some(v) => field_value(cx, v, budget),
        None => {
            let decl = cx.index.decl(t);
            // A type of a TypeScript file declares every member it has; JavaScript
            // classes gain members at run time.
            if cx.index.file(t.file).language == Language::JavaScript || decl.kind == DeclKind::Enum
            {
                unknown(Reason::ReceiverTypeUnknown)
            } else {
                ev(V::Unknown(Reason::NoDeclaration), Family::WrittenType)
            }
        }
    }
}

/// A member declaration as a value: a method is callable, a nested type is a class.
fn member_value<'a>(cx: &Cx<'a>, d: Eid, family: Family) -> Ev<'a> {
    if cx.index.decl(d).kind.is_type() {
        ev(V::Class(d), family)
    } else {
        ev(V::Func(d), family)
    }
}

/// The field of that name on the type or a base, with the type declaring it.
fn field_of<'a>(cx: &Cx<'a>, t: Eid, name: &str) -> Option<(Eid, &'a crate::facts::Field)> {
    cx.hierarchy
        .depth_first(t)
        .into_iter()
        .chain(std::iter::once(t))
        .find_map(|ty| {
            cx.index
                .decl(ty)
                .fields
                .iter()
                .find(|f| f.name == name)
                .map(|f| (ty, f))
        })
}

fn field_value<'a>(
    cx: &Cx<'a>,
    (owner, field): (Eid, &'a crate::facts::Field),
    budget: u32,
) -> Ev<'a> {
    let site = Site {
        file: owner.file,
        scope: field.scope,
        line: u32::MAX,
        deferred: true,
    };
    if let Some(ty) = &field.ty {
        let type_site = Site::of_decl(cx.index, owner);
        return match resolve_type(cx, &type_site, ty, budget) {
            V::Unknown(r) => unknown(r),
            V::FnValue => unknown(Reason::DynamicCallee),
            v => ev(v, Family::WrittenType),
        };
    }
    // A field with no written type: a construction or a function written into it.
    let writes: Vec<&crate::facts::Field> = cx
        .index
        .decl(owner)
        .fields
        .iter()
        .filter(|f| f.name == field.name)
        .collect();
    if writes.len() != 1 {
        return unknown(Reason::ReceiverTypeUnknown);
    }
    match &field.value {
        Some(v @ (ValueExpr::New(_) | ValueExpr::CallResult(_) | ValueExpr::Lambda(_))) => {
            eval_value(cx, &site, v, budget)
        }
        _ => unknown(Reason::ReceiverTypeUnknown),
    }
}

/// `F.name = v` written onto a function or class in its own scope.
fn slot_of<'a>(cx: &Cx<'a>, f: Eid, name: &str, budget: u32) -> Option<Ev<'a>> {
    let decl = cx.index.decl(f);
    let writes = slots(cx.index, f.file, decl.scope, &decl.name, name);
    let v = *writes.last()?;
    if writes.len() > 1 {
        return Some(unknown(Reason::LocalValue));
    }
    let site = Site {
        file: f.file,
        scope: decl.scope,
        line: u32::MAX,
        deferred: true,
    };
    let e = eval_value(cx, &site, v, budget);
    Some(match e.v {
        V::Func(_) => ev(e.v, Family::QualifiedPath),
        _ => e,
    })
}

// ----- types -------------------------------------------------------------------------------

/// A written type: an instance of a type of the tree, of the library, or unknown.
fn resolve_type<'a>(cx: &Cx<'a>, site: &Site, ty: &TypeRef, budget: u32) -> V<'a> {
    if budget == 0 {
        return V::Unknown(Reason::ReceiverTypeUnknown);
    }
    if ty.array {
        return V::Foreign("Array".into());
    }
    if ty.is_self {
        return match this_value(cx, site).v {
            V::Instance(t) => V::Instance(t),
            _ => V::Unknown(Reason::ReceiverTypeUnknown),
        };
    }
    let Some(head) = ty.path.first() else {
        return V::Unknown(Reason::ReceiverTypeUnknown);
    };
    match head.as_str() {
        FUNCTION_TYPE => return V::FnValue,
        OPAQUE => return V::Unknown(Reason::ReceiverTypeUnknown),
        // Utility types keep the members of the type they wrap.
        "Partial" | "Required" | "Readonly" | "NonNullable" | "Pick" | "Omit" | "Awaited"
            if ty.path.len() == 1 && !ty.args.is_empty() && !cx.index.declares_name(head) =>
        {
            let inner = &ty.args[0];
            let inner = match (head.as_str(), inner.last()) {
                ("Awaited", Some("Promise" | "PromiseLike")) if inner.path.len() == 1 => {
                    match inner.args.first() {
                        Some(t) => t,
                        None => return V::Unknown(Reason::ReceiverTypeUnknown),
                    }
                }
                _ => inner,
            };
            return match resolve_type(cx, site, inner, budget - 1) {
                v @ V::Instance(_) => v,
                _ => V::Unknown(Reason::ReceiverTypeUnknown),
            };
        }
        TYPEOF => {
            return match eval_path(cx, site, &ty.path[1..], budget - 1).v {
                v @ (V::Class(_) | V::Module(_) | V::Object { .. } | V::Instance(_)) => v,
                V::Func(_) => V::FnValue,
                _ => V::Unknown(Reason::ReceiverTypeUnknown),
            };
        }
        INDEXED => {
            let (Some(object), Some(key)) =
                (ty.args.first(), ty.args.get(1).and_then(|k| k.last()))
            else {
                return V::Unknown(Reason::ReceiverTypeUnknown);
            };
            // `A["m"]`: the member's declaration (a method or function-typed
            // property is what a call through such a value binds), or its type.
            return match resolve_type(cx, site, object, budget - 1) {
                V::Instance(t) => instance_member(cx, t, key, Family::WrittenType, budget - 1).v,
                _ => V::Unknown(Reason::ReceiverTypeUnknown),
            };
        }
        _ => {}
    }
    if let [name] = ty.path.as_slice() {
        if type_param_in_scope(cx.index, site, name) {
            return V::Unknown(Reason::ReceiverTypeUnknown);
        }
        match lookup(cx.index, site, name) {
            Some((_, b)) => {
                return match &b.value {
                    BindingValue::Decl(d) => named_type(
                        cx,
                        Eid {
                            file: site.file,
                            decl: *d,
                        },
                        ty,
                        budget,
                    ),
                    BindingValue::Import(i) => match follow_import(cx, site.file, *i, budget - 1).v
                    {
                        V::Class(c) => named_type(cx, c, ty, budget),
                        V::Outside(_, symbol) => V::Foreign(symbol),
                        _ => V::Unknown(Reason::ReceiverTypeUnknown),
                    },
                    _ => V::Unknown(Reason::ReceiverTypeUnknown),
                };
            }
            None => {
                return match name.as_str() {
                    // Types with no members of their own to bind a call to.
                    "any" | "unknown" | "never" | "object" | "void" | "undefined" | "null" => {
                        V::Unknown(Reason::ReceiverTypeUnknown)
                    }
                    "string" => V::Foreign("String".into()),
                    "number" => V::Foreign("Number".into()),
                    "boolean" => V::Foreign("Boolean".into()),
                    "Promise" | "PromiseLike" => V::Foreign("Promise".into()),
                    n if policy::is_library_type(n) => V::Foreign(n.to_string()),
                    // A global type no file of the tree declares (`.d.ts` files
                    // are read) comes from the language's or an ambient library.
                    // (A generic one — `ReturnType<typeof f>` — may wrap a type of
                    // the tree: unknown.)
                    n if !cx.index.declares_name(n) && ty.args.is_empty() => {
                        V::Foreign(n.to_string())
                    }
                    _ => V::Unknown(Reason::ReceiverTypeUnknown),
                };
            }
        }
    }
    // `ns.T`: the namespace's export.
    let (first, rest) = ty.path.split_first().expect("non-empty");
    let mut cur = eval_name(cx, site, first, budget - 1);
    for seg in rest {
        cur = member_of(cx, cur, seg, budget - 1);
    }
    match cur.v {
        V::Class(c) => named_type(cx, c, ty, budget),
        V::Outside(_, symbol) => V::Foreign(symbol),
        _ => V::Unknown(Reason::ReceiverTypeUnknown),
    }
}

/// A type declaration named by a type: a class or interface's instance; a type
/// alias reads what it aliases (an object-type alias is its own members).
fn named_type<'a>(cx: &Cx<'a>, t: Eid, _written: &TypeRef, budget: u32) -> V<'a> {
    let decl = cx.index.decl(t);
    if decl.kind == DeclKind::Interface {
        if let Some(aliased) = &decl.returns {
            return resolve_type(
                cx,
                &Site::of_decl(cx.index, t),
                aliased,
                budget.saturating_sub(1),
            );
        }
    }
    if decl.kind.is_type() {
        V::Instance(t)
    } else {
        V::Unknown(Reason::ReceiverTypeUnknown)
    }
}

/// Whether a type name is a type parameter of an enclosing declaration.
fn type_param_in_scope(index: &TreeIndex, site: &Site, name: &str) -> bool {
    let facts = index.file(site.file);
    let Some(mut cur) = owner_of_scope(index, site.file, site.scope) else {
        return false;
    };
    for _ in 0..64 {
        let decl = &facts.decls[cur as usize];
        if decl.type_params.iter().any(|p| p == name) {
            return true;
        }
        match decl.parent {
            Some(p) => cur = p,
            None => return false,
        }
    }
    false
}

/// What the previous round says a call returns.
fn a_call_result<'a>(cx: &Cx<'a>, file: u32, ci: u32) -> Ev<'a> {
    match cx.results.get(file, ci) {
        Some(Eval {
            val: Val::Instance(t),
            ..
        }) => ev(V::Instance(*t), Family::ReturnType),
        Some(Eval {
            val: Val::ForeignInstance(symbol),
            ..
        }) => ev(V::Foreign(symbol.clone()), Family::ForeignType),
        _ => unknown(Reason::ReceiverTypeUnknown),
    }
}

thread_local! {
    /// How deeply rules run inside rules (an awaited call, a returned value, an
    /// overload told apart by its rules) on this thread.
    static NESTED: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// At most this many rule runs inside one another: a function whose returned
/// value reads another call's result (recursion included) stops here.
const MAX_NESTED: u32 = 6;

/// Run a call's rules from inside a rule, bounded by [`MAX_NESTED`].
fn nested_rules(cx: &Cx, file: u32, call: &Call) -> crate::resolve::Resolution {
    let depth = NESTED.with(|n| n.get());
    if depth >= MAX_NESTED {
        return crate::resolve::Resolution::Undetermined(Reason::LocalValue);
    }
    NESTED.with(|n| n.set(depth + 1));
    let out = crate::resolve::run_rules(cx, file, call, None);
    NESTED.with(|n| n.set(depth));
    out
}

/// A call of a function with no written return type whose one `return` writes an
/// object literal, a name or a function: that value, read in the function's body.
fn returned_value<'a>(cx: &Cx<'a>, file: u32, ci: u32, budget: u32) -> Ev<'a> {
    if budget == 0 {
        return unknown(Reason::LocalValue);
    }
    let inner = &cx.index.file(file).calls[ci as usize];
    let crate::resolve::Resolution::Placed(p) = nested_rules(cx, file, inner) else {
        return unknown(Reason::LocalValue);
    };
    let Some(target) = p.single() else {
        return unknown(Reason::LocalValue);
    };
    let decl = cx.index.decl(target);
    // A written return type is what tsc binds a call of the result to.
    if decl.returns.is_some() {
        return unknown(Reason::LocalValue);
    }
    let Some(crate::facts::ReturnValue::Value(v)) = &decl.returns_value else {
        return unknown(Reason::LocalValue);
    };
    eval_value(cx, &Site::of_decl(cx.index, target), v, budget - 1)
}

/// `await f()`: what the promise f's declared return type holds (`Promise<T>` → T).
fn awaited_call<'a>(cx: &Cx<'a>, file: u32, ci: u32) -> Ev<'a> {
    let inner = &cx.index.file(file).calls[ci as usize];
    let crate::resolve::Resolution::Placed(p) = nested_rules(cx, file, inner) else {
        return unknown(Reason::ReceiverTypeUnknown);
    };
    let Some(target) = p.named().or_else(|| p.single()) else {
        return unknown(Reason::ReceiverTypeUnknown);
    };
    let decl = cx.index.decl(target);
    let Some(returns) = decl.returns.as_ref() else {
        return unknown(Reason::ReceiverTypeUnknown);
    };
    let inner_ty = match returns.last() {
        Some("Promise" | "PromiseLike") if returns.path.len() == 1 => match returns.args.first() {
            Some(t) => t,
            None => return unknown(Reason::ReceiverTypeUnknown),
        },
        _ => returns,
    };
    match resolve_type(cx, &Site::of_decl(cx.index, target), inner_ty, BUDGET) {
        V::Unknown(r) => unknown(r),
        v => ev(v, Family::ReturnType),
    }
}

/// `for (const x of xs)`: the element type of xs's written type (`T[]`,
/// `Array<T>`, `ReadonlyArray<T>`, `Set<T>`, `Iterable<T>` → T).
fn an_element_of<'a>(cx: &Cx<'a>, site: &Site, v: &'a ValueExpr, budget: u32) -> Ev<'a> {
    let Some((at, ty)) = written_type_of(cx, site, v, budget) else {
        return unknown(Reason::LocalValue);
    };
    let element = if ty.array {
        TypeRef {
            array: false,
            ..ty.clone()
        }
    } else {
        match (ty.path.as_slice(), ty.args.as_slice()) {
            ([c], [t])
                if matches!(
                    c.as_str(),
                    "Array"
                        | "ReadonlyArray"
                        | "Set"
                        | "ReadonlySet"
                        | "Iterable"
                        | "IterableIterator"
                ) =>
            {
                t.clone()
            }
            _ => return unknown(Reason::LocalValue),
        }
    };
    match resolve_type(cx, &at, &element, budget) {
        V::Unknown(_) | V::FnValue => unknown(Reason::LocalValue),
        v => ev(v, Family::WrittenType),
    }
}

/// The type a value's declaration writes: a typed parameter or local, a field
/// with a written type, a call's declared return type; with the site it is read at.
fn written_type_of(cx: &Cx, site: &Site, v: &ValueExpr, budget: u32) -> Option<(Site, TypeRef)> {
    if budget == 0 {
        return None;
    }
    match v {
        ValueExpr::Name(n) => {
            let (scope, b) = lookup(cx.index, site, n)?;
            let at = Site { scope, ..*site };
            match &b.value {
                BindingValue::Param { ty: Some(t), .. } | BindingValue::Typed { ty: t, .. } => {
                    Some((at, t.clone()))
                }
                BindingValue::Value(inner) => written_type_of(cx, &at, inner, budget - 1),
                _ => None,
            }
        }
        ValueExpr::Attribute { path } => {
            let (field, receiver) = path.split_last()?;
            let V::Instance(t) = eval_path(cx, site, receiver, budget).v else {
                return None;
            };
            let (owner, f) = field_of(cx, t, field)?;
            Some((Site::of_decl(cx.index, owner), f.ty.clone()?))
        }
        ValueExpr::CallResult(ci) => {
            let inner = &cx.index.file(site.file).calls[*ci as usize];
            let crate::resolve::Resolution::Placed(p) = nested_rules(cx, site.file, inner) else {
                return None;
            };
            let target = p.named().or_else(|| p.single())?;
            let returns = cx.index.decl(target).returns.clone()?;
            Some((Site::of_decl(cx.index, target), returns))
        }
        _ => None,
    }
}

// ----- placing -----------------------------------------------------------------------------

/// A callable reached: every declaration sharing its qualified name when some
/// of them are overload signatures (the overload pass names one), else itself.
fn place_function<'a>(cx: &Cx<'a>, f: Eid, family: Family) -> Decision {
    let group = cx.index.same_qualified_name(f);
    let has_signatures = group.len() > 1 && group.iter().any(|&g| cx.index.decl(g).body.is_none());
    let targets = if has_signatures {
        group.to_vec()
    } else {
        vec![f]
    };
    Decision::Place(Placement::in_tree(targets, family))
}

/// `new C()`: C's constructor when it declares one, else the class.
fn place_construction<'a>(cx: &Cx<'a>, c: Eid) -> Decision {
    let ctors = cx.index.members(c, "constructor");
    match ctors.first() {
        Some(&ctor) => place_function(cx, ctor, Family::Construction),
        None => Decision::Place(Placement::in_tree(vec![c], Family::Construction)),
    }
}

fn place_value<'a>(cx: &Cx<'a>, call: &Call, e: Ev<'a>) -> Decision {
    match e.v {
        // A module called or constructed: its `module.exports` / `export =`.
        V::Module(_) => {
            let whole = whole_module(cx, e);
            match whole.v {
                V::Module(_) | V::Unknown(_) => Decision::Refuse(Reason::DynamicCallee),
                _ => place_value(cx, call, whole),
            }
        }
        V::Func(f) if call.kind == CallKind::New => {
            // `new F()` on a function constructor (JavaScript).
            Decision::Place(Placement::in_tree(vec![f], Family::Construction))
        }
        V::Func(f) => place_function(cx, f, e.family),
        V::Class(c) if call.kind == CallKind::New => place_construction(cx, c),
        // A JSX component class, a decorator class: the class itself.
        V::Class(c) => Decision::Place(Placement::in_tree(vec![c], e.family)),
        V::Outside(kind, symbol) => {
            let family = match e.family {
                Family::Builtin | Family::ExternalImport | Family::ForeignType => e.family,
                _ => Family::ExternalImport,
            };
            let kind = if family == Family::Builtin {
                OutsideKind::Builtin
            } else if family == Family::ForeignType {
                OutsideKind::ForeignType
            } else {
                kind
            };
            Decision::Place(Placement::outside(kind, symbol, family))
        }
        V::Foreign(_) | V::Instance(_) | V::Constructed(_) | V::Object { .. } | V::FnValue => {
            Decision::Refuse(Reason::DynamicCallee)
        }
        V::Unknown(Reason::NoDeclaration) if e.family == Family::WrittenType => {
            Decision::Unresolved
        }
        V::Unknown(r) => Decision::Refuse(r),
    }
}

/// A module used as a value that is called or constructed: its `module.exports`
/// / `export =`, through modules that forward another's (`module.exports =
/// require('./impl')`). Anything else is itself.
fn whole_module<'a>(cx: &Cx<'a>, mut e: Ev<'a>) -> Ev<'a> {
    for _ in 0..8 {
        let V::Module(f) = e.v else { return e };
        e = export_of(cx, f, EXPORT_EQUALS, BUDGET);
    }
    e
}

// ----- the rules ---------------------------------------------------------------------------

/// `super(...)` in a constructor: the base class's constructor (or the base).
fn super_constructor<'a>(cx: &Cx<'a>, file: u32, call: &Call) -> Decision {
    if call.kind != CallKind::ConstructorChain {
        return Decision::Pass;
    }
    let site = Site::of_call(call, file);
    let Some(class) = enclosing_class(cx, &site) else {
        return Decision::Refuse(Reason::ReceiverTypeUnknown);
    };
    // A base that declares no constructor still has one, implicit: it runs the
    // base's field initialisers before handing on up the chain. The call reaches
    // the base class itself, as `new Base()` names the class line (tsc's symbol
    // declaration), even where the chain later leaves the tree (`extends Error`).
    match base_class(cx, class) {
        Some(Ok(base)) if cx.index.members(base, "constructor").is_empty() => {
            Decision::Place(Placement::in_tree(vec![base], Family::Inheritance))
        }
        Some(Ok(base)) => match place_construction(cx, base) {
            Decision::Place(p) => Decision::Place(relabel(p, Family::Inheritance)),
            d => d,
        },
        Some(Err(symbol)) => Decision::Place(Placement::outside(
            OutsideKind::ForeignType,
            format!("{symbol}.constructor"),
            Family::ForeignType,
        )),
        None => Decision::Refuse(Reason::ReceiverTypeUnknown),
    }
}

fn relabel(p: Placement, family: Family) -> Placement {
    match p.target() {
        Target::InTree(t) => Placement::in_tree(t.clone(), family),
        Target::Outside { .. } => p,
    }
}

fn enclosing_class(cx: &Cx, site: &Site) -> Option<Eid> {
    let owner = owner_of_scope(cx.index, site.file, site.scope)?;
    let eid = Eid {
        file: site.file,
        decl: owner,
    };
    if cx.index.decl(eid).kind.is_type() {
        return Some(eid);
    }
    cx.index.enclosing_type(eid)
}

/// The class a class extends: in the tree, or outside by symbol.
fn base_class(cx: &Cx, class: Eid) -> Option<Result<Eid, String>> {
    let decl = cx.index.decl(class);
    let extends = decl.bases.first()?;
    let site = Site::of_decl(cx.index, class);
    match resolve_type(cx, &site, extends, BUDGET) {
        V::Instance(b) if cx.index.decl(b).kind == DeclKind::Class => Some(Ok(b)),
        V::Foreign(symbol) => Some(Err(symbol)),
        _ => None,
    }
}

/// `f()`, `new C()`, `<Comp/>`, `@dec`: the name's binding in scope, followed
/// through aliases and imports; a global of the language leaves the tree.
fn bare_name<'a>(cx: &Cx<'a>, file: u32, call: &Call) -> Decision {
    let Callee::Name(name) = &call.callee else {
        return Decision::Pass;
    };
    let site = Site::of_call(call, file);
    let held = match lookup_binding(cx.index, &site, name) {
        Lookup::Found(_, b) => match b.value {
            BindingValue::Param { .. } => Some(Reason::ParameterValue),
            BindingValue::Value(_) | BindingValue::Typed { .. } | BindingValue::Opaque => {
                Some(Reason::LocalValue)
            }
            _ => None,
        },
        _ => None,
    };
    let e = eval_name(cx, &site, name, BUDGET);
    match (&e.v, held) {
        (V::Unknown(Reason::NoDeclaration), None) => Decision::Refuse(Reason::NoDeclaration),
        // A parameter or a local holding a value the engine cannot name as a function.
        (V::Func(_) | V::Class(_) | V::Outside(..) | V::Module(_), _) | (_, None) => {
            place_value(cx, call, e)
        }
        (_, Some(reason)) => Decision::Refuse(reason),
    }
}

/// `r.m()`, `new ns.C()`, `<ns.Comp/>`: the receiver evaluated, then its member.
fn member_call<'a>(cx: &Cx<'a>, file: u32, call: &Call) -> Decision {
    let Callee::Member { receiver, name } = &call.callee else {
        return Decision::Pass;
    };
    let site = Site::of_call(call, file);
    let recv = match receiver {
        Receiver::Path(path) => {
            if let Some(d) = mutated_import(cx, &site, path, name) {
                return d;
            }
            eval_path(cx, &site, path, BUDGET)
        }
        Receiver::Super => {
            let Some(class) = enclosing_class(cx, &site) else {
                return Decision::Refuse(Reason::ReceiverTypeUnknown);
            };
            match base_class(cx, class) {
                Some(Ok(base)) => {
                    return match find_member(cx, cx.index.file(base.file).language, base, name) {
                        MemberLookup::Found { decls, .. } => {
                            place_function(cx, decls[0], Family::Inheritance)
                        }
                        MemberLookup::MaybeOutside => Decision::Refuse(Reason::ReceiverTypeUnknown),
                        MemberLookup::NotFound => Decision::Unresolved,
                    }
                }
                Some(Err(symbol)) => ev(V::Foreign(symbol), Family::ForeignType),
                None => return Decision::Refuse(Reason::ReceiverTypeUnknown),
            }
        }
        Receiver::Call(ci) => a_call_result(cx, file, *ci),
        Receiver::CallThen { call: ci, path } => {
            let (mut cur, rest) = match path.split_first() {
                Some((first, rest)) if first == AWAIT => (awaited_call(cx, file, *ci), rest),
                _ => (a_call_result(cx, file, *ci), &path[..]),
            };
            for seg in rest {
                cur = member_of(cx, cur, seg, BUDGET);
            }
            cur
        }
        Receiver::New(ty) => match resolve_type(cx, &site, ty, BUDGET) {
            V::Unknown(r) => unknown(r),
            v => ev(v, Family::WrittenType),
        },
        Receiver::Literal(l) => ev(
            V::Foreign(policy::literal_type_name(*l).to_string()),
            Family::ForeignType,
        ),
        Receiver::Unknown
        | Receiver::QualifiedThis(_)
        | Receiver::Scope(_)
        | Receiver::Subscript(_) => unknown(Reason::ReceiverTypeUnknown),
    };
    let member = member_of(cx, recv, name, BUDGET);
    place_value(cx, call, member)
}

/// `obj.m()` where this file writes `obj.m = …` on an imported object: the
/// import's declaration no longer says what runs, so the call abstains.
fn mutated_import(cx: &Cx, site: &Site, path: &[String], name: &str) -> Option<Decision> {
    let [root] = path else {
        return None;
    };
    let (scope, b) = lookup(cx.index, site, root)?;
    if !matches!(b.value, BindingValue::Import(_)) {
        return None;
    }
    let written = !slots(cx.index, site.file, scope, root, name).is_empty();
    written.then_some(Decision::Refuse(Reason::Refused))
}

/// `f()()`, `(cond ? a : b)()`, `table[k]()`: computed callees.
fn computed_callee<'a>(_cx: &Cx<'a>, _file: u32, call: &Call) -> Decision {
    match &call.callee {
        Callee::Result(_) | Callee::Dynamic | Callee::Subscript { .. } => {
            Decision::Refuse(Reason::DynamicCallee)
        }
        _ => Decision::Pass,
    }
}
