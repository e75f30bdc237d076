//! Kotlin resolution: four ordered rules over what the frontend extracted.
//!
//! - `constructor_chain`: `this(…)` / `super(…)` of a secondary constructor;
//! - `supertype_construction`: a supertype's `Base(…)` in a class header;
//! - `bare_name`: `f(…)` — local functions, then every implicit receiver from the
//!   innermost out (a lambda's receiver, an extension's receiver, the enclosing
//!   classes and their companions; members, then extensions), then the file's
//!   package, explicit imports, star imports and the default imports; a class's
//!   name constructs it (its constructors, or a companion's `operator fun invoke`);
//! - `member_call`: `a.f(…)`, `a?.f(…)`, `a!!.f(…)`, `a f b` — the receiver's
//!   type (written, initialised, returned, smart cast, a scope function's `it`),
//!   then members, extensions, generated members, and outside types.
//!
//! Every edge leaves through `Placement::in_tree` / `Placement::outside` with the
//! family of the evidence.

use std::cell::Cell;

use crate::facts::{
    ArgShape, BindingValue, Call, CallKind, Callee, Decl, DeclIdx, DeclKind, FileFacts, ImportKind,
    LiteralType, Receiver, ReturnValue, ScopeKind, TypeRef, ValueExpr, ValueRef,
};
use crate::index::{Eid, TreeIndex};
use crate::lang::classes;
use crate::lang::kotlin::overload;
use crate::lang::kotlin::policy::{self, LambdaReceiver};
use crate::lang::kotlin::types::{
    enclosing_types, has_modifier, imports, package_in_tree, package_of, resolve_simple,
    resolve_type, written_bounds, Named, Site, TypeCx, Via,
};
use crate::resolve::family::{Family, OutsideKind, Reason};
use crate::resolve::{
    run_rules, Cx, Decision, Eval, Hierarchy, LanguageResolver, Placement, Resolution, Rule,
    Target, Val,
};

pub struct KotlinResolver;

pub static KOTLIN: KotlinResolver = KotlinResolver;

const RULES: &[Rule] = &[
    Rule {
        name: "constructor_chain",
        run: constructor_chain,
    },
    Rule {
        name: "supertype_construction",
        run: supertype_construction,
    },
    Rule {
        name: "bare_name",
        run: bare_name,
    },
    Rule {
        name: "member_call",
        run: member_call,
    },
];

/// How deep the resolver may go re-resolving the call a lambda is passed to
/// (each level is one enclosing lambda): past it, the receiver is unknown.
const MAX_NESTING: u32 = 12;

thread_local! {
    static NESTING: Cell<u32> = const { Cell::new(0) };
}

/// Runs `f` one nesting level deeper, or answers `None` past the bound.
fn nested<T>(f: impl FnOnce() -> T) -> Option<T> {
    let depth = NESTING.with(|n| n.get());
    if depth >= MAX_NESTING {
        return None;
    }
    NESTING.with(|n| n.set(depth + 1));
    let out = f();
    NESTING.with(|n| n.set(depth));
    Some(out)
}

impl LanguageResolver for KotlinResolver {
    fn rules(&self) -> &'static [Rule] {
        RULES
    }

    fn call_result(&self, cx: &Cx, file: u32, call: &Call, placement: &Placement) -> Option<Eval> {
        if call.kind == CallKind::ConstructorChain || call.kind == CallKind::New {
            return None;
        }
        match placement.target() {
            Target::InTree(targets) => in_tree_result(cx, file, call, placement, targets),
            Target::Outside { .. } => outside_result(cx, file, call),
        }
    }

    fn resolve_ref(&self, cx: &Cx, file: u32, r: &ValueRef) -> Option<Placement> {
        reference(cx, file, r)
    }

    fn bases(&self, index: &TreeIndex, ty: Eid) -> (Vec<Eid>, bool) {
        let tcx = TypeCx {
            index,
            hierarchy: None,
        };
        let site = Site::of_decl(index, ty);
        classes::direct_bases(index, ty, |base| {
            match resolve_type(tcx, site, &base.path) {
                Named::Type(b) => Some(b),
                _ => None,
            }
        })
    }

    /// The superclass (listed first: it is the base with a constructor call),
    /// then interfaces, depth first.
    fn lookup_order(&self, hierarchy: &Hierarchy, ty: Eid) -> Vec<Eid> {
        hierarchy.depth_first(ty)
    }

    fn pick_overload(&self, cx: &Cx, file: u32, call: &Call, candidates: &[Eid]) -> Option<Eid> {
        overload::pick(cx, file, call, candidates)
    }
}

// ----- types of values --------------------------------------------------------------------

/// A value's static type as far as the resolver follows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ty {
    Tree(Eid),
    /// A type outside the tree, with its type arguments.
    Outside {
        fqn: String,
        args: Vec<Ty>,
    },
    /// A value of some type outside the tree (a field of an outside object).
    Foreign,
    Unknown,
}

/// What a receiver (or a name) is.
#[derive(Debug, Clone)]
pub enum Recv {
    Value(Ty, Family),
    /// A type written as a receiver (`T.m()`): its object, companion or nested types.
    TypeName(Eid),
    OutsideType(String, Via),
    Unknown(Reason),
}

pub fn tcx<'a>(cx: &'a Cx<'a>) -> TypeCx<'a> {
    TypeCx {
        index: cx.index,
        hierarchy: Some(cx.hierarchy),
    }
}

pub fn call_site(file: u32, call: &Call) -> Site {
    Site {
        file,
        decl: call.caller,
        scope: call.scope,
        line: call.line,
    }
}

/// A written type as a value's type, read where it is written.
pub fn ty_of(cx: &Cx, site: Site, t: &TypeRef) -> Ty {
    ty_of_bounded(cx, site, t, 0)
}

fn ty_of_bounded(cx: &Cx, site: Site, t: &TypeRef, depth: u32) -> Ty {
    if depth > 3 {
        return Ty::Unknown;
    }
    if matches!(t.last(), Some("<fn>" | "<fn-receiver>")) {
        return Ty::Outside {
            fqn: "kotlin.Function".into(),
            args: Vec::new(),
        };
    }
    match resolve_type(tcx(cx), site, &t.path) {
        Named::Type(e) => Ty::Tree(e),
        Named::Outside { fqn, .. } => Ty::Outside {
            fqn,
            args: t
                .args
                .iter()
                .map(|a| ty_of_bounded(cx, site, a, depth + 1))
                .collect(),
        },
        _ => Ty::Unknown,
    }
}

fn literal_ty(l: LiteralType) -> Ty {
    let fqn = match l {
        LiteralType::Str => "kotlin.String",
        LiteralType::Int => "kotlin.Int",
        LiteralType::Long => "kotlin.Long",
        LiteralType::Float => "kotlin.Float",
        LiteralType::Double => "kotlin.Double",
        LiteralType::Bool => "kotlin.Boolean",
        LiteralType::Char => "kotlin.Char",
        _ => return Ty::Unknown,
    };
    Ty::Outside {
        fqn: fqn.into(),
        args: Vec::new(),
    }
}

fn val_ty(val: &Val) -> Ty {
    match val {
        Val::Instance(e) => Ty::Tree(*e),
        Val::ForeignInstance(fqn) => Ty::Outside {
            fqn: fqn.clone(),
            args: Vec::new(),
        },
        _ => Ty::Unknown,
    }
}

/// The lexical binding of a name at a site: the nearest scope that binds it, the
/// last write before the site (module and class scopes are order-free).
fn lexical_binding<'f>(
    file: &'f FileFacts,
    site: Site,
    name: &str,
) -> Option<(u32, &'f crate::facts::Binding)> {
    let mut scope = Some(site.scope);
    let mut steps = 0;
    while let Some(s) = scope {
        let sc = &file.scopes[s as usize];
        let order_free = matches!(sc.kind, ScopeKind::Module | ScopeKind::Class);
        let found = sc
            .named(name)
            .rev()
            .find(|b| order_free || b.line <= site.line);
        if let Some(b) = found {
            return Some((s, b));
        }
        scope = sc.parent;
        steps += 1;
        if steps > 4096 {
            break;
        }
    }
    None
}

/// What a name is at a site: `this`, a local, a parameter (a lambda's typed by
/// the call it is passed to), a property of an implicit receiver, a type.
pub fn eval_name(cx: &Cx, site: Site, name: &str) -> Recv {
    let file = cx.index.file(site.file);
    if name == "this" {
        return match implicit_receivers(cx, site).into_iter().next() {
            Some(r) => Recv::Value(r.ty, r.family),
            None => Recv::Unknown(Reason::ReceiverTypeUnknown),
        };
    }
    if let Some((scope, b)) = lexical_binding(file, site, name) {
        // `val source = source`: the initialiser reads the name the new one
        // shadows, from the scope around.
        let shadows = matches!(&b.value, BindingValue::Value(ValueExpr::Name(n)) if n == name);
        match file.scopes[scope as usize].parent {
            Some(outer) if shadows => {
                let around = Site {
                    scope: outer,
                    ..site
                };
                return nested(|| eval_name(cx, around, name))
                    .unwrap_or(Recv::Unknown(Reason::LocalValue));
            }
            _ if shadows => {}
            _ => {
                // Bounded: a chain of locals initialised from each other ends.
                return nested(|| binding_value(cx, site, scope, &b.value))
                    .unwrap_or(Recv::Unknown(Reason::LocalValue));
            }
        }
    }
    for r in implicit_receivers(cx, site) {
        if let Ty::Tree(t) = r.ty {
            if let Some(ty) = field_type(cx, t, name) {
                return Recv::Value(ty, r.family);
            }
        }
    }
    match resolve_simple(tcx(cx), site, name) {
        Named::Type(t) => Recv::TypeName(t),
        Named::Outside { fqn, via } => Recv::OutsideType(fqn, via),
        _ => Recv::Unknown(Reason::ReceiverTypeUnknown),
    }
}

fn binding_value(cx: &Cx, site: Site, scope: u32, value: &BindingValue) -> Recv {
    let file = cx.index.file(site.file);
    match value {
        BindingValue::Param { ty: Some(t), .. } => {
            let owner_site = match file.scopes[scope as usize].owner {
                Some(d) => Site::of_decl(
                    cx.index,
                    Eid {
                        file: site.file,
                        decl: d,
                    },
                ),
                None => site,
            };
            Recv::Value(ty_of(cx, owner_site, t), Family::WrittenType)
        }
        BindingValue::Param { index, ty: None } => {
            let owner = file.scopes[scope as usize].owner;
            match owner.filter(|&d| file.decls[d as usize].kind == DeclKind::Lambda) {
                Some(lambda) => match lambda_parameter(cx, site.file, lambda, *index) {
                    Some((ty, family)) => Recv::Value(ty, family),
                    None => Recv::Unknown(Reason::ParameterValue),
                },
                None => Recv::Unknown(Reason::ParameterValue),
            }
        }
        BindingValue::Typed { ty, .. } => Recv::Value(ty_of(cx, site, ty), Family::WrittenType),
        BindingValue::Value(v) => eval_value(cx, site, v),
        BindingValue::Decl(d) if file.decls[*d as usize].kind.is_type() => Recv::TypeName(Eid {
            file: site.file,
            decl: *d,
        }),
        _ => Recv::Unknown(Reason::LocalValue),
    }
}

pub fn eval_value(cx: &Cx, site: Site, v: &ValueExpr) -> Recv {
    match v {
        ValueExpr::Name(n) => eval_name(cx, site, n),
        ValueExpr::Attribute { path } => eval_path(cx, site, path),
        ValueExpr::CallResult(i) => match cx.results.get(site.file, *i) {
            Some(e) => Recv::Value(val_ty(&e.val), e.family),
            None => Recv::Unknown(Reason::ReceiverTypeUnknown),
        },
        ValueExpr::New(t) => Recv::Value(ty_of(cx, site, t), Family::WrittenType),
        ValueExpr::Literal(l) => Recv::Value(literal_ty(*l), Family::WrittenType),
        ValueExpr::Lambda(_) => Recv::Value(
            Ty::Outside {
                fqn: "kotlin.Function".into(),
                args: Vec::new(),
            },
            Family::WrittenType,
        ),
        _ => Recv::Unknown(Reason::LocalValue),
    }
}

/// `a.b.c` read one segment at a time; a path no name binds may be a type
/// written in full (`a.b.T`, `T.Nested`).
pub fn eval_path(cx: &Cx, site: Site, path: &[String]) -> Recv {
    let Some(first) = path.first() else {
        return Recv::Unknown(Reason::ReceiverTypeUnknown);
    };
    let mut recv = eval_name(cx, site, first);
    let mut rest = &path[1..];
    // A bound name is a value, never the head of a type path.
    let bound = lexical_binding(cx.index.file(site.file), site, first).is_some();
    if matches!(recv, Recv::Unknown(_)) && path.len() > 1 && !bound {
        for n in (2..=path.len()).rev() {
            match resolve_type(tcx(cx), site, &path[..n]) {
                Named::Type(t) => {
                    recv = Recv::TypeName(t);
                    rest = &path[n..];
                    break;
                }
                Named::Outside { fqn, via } if n == path.len() => {
                    recv = Recv::OutsideType(fqn, via);
                    rest = &[];
                    break;
                }
                _ => {}
            }
        }
    }
    for seg in rest {
        recv = step(cx, recv, seg);
    }
    recv
}

/// One member read: a property's type, a nested type, an enum entry.
fn step(cx: &Cx, recv: Recv, seg: &str) -> Recv {
    match recv {
        Recv::Value(Ty::Tree(t), family) => match field_type(cx, t, seg) {
            Some(ty) => Recv::Value(ty, family),
            None => Recv::Unknown(Reason::ReceiverTypeUnknown),
        },
        Recv::Value(Ty::Outside { .. } | Ty::Foreign, family) => Recv::Value(Ty::Foreign, family),
        Recv::TypeName(t) => {
            if let Some(n) = crate::lang::kotlin::types::member_type(tcx(cx), t, seg) {
                return Recv::TypeName(n);
            }
            for holder in std::iter::once(t).chain(companions(cx.index, t)) {
                if let Some(ty) = field_type(cx, holder, seg) {
                    return Recv::Value(ty, Family::QualifiedPath);
                }
            }
            Recv::Unknown(Reason::ReceiverTypeUnknown)
        }
        Recv::OutsideType(..) => Recv::Value(Ty::Foreign, Family::ForeignType),
        other => other,
    }
}

/// A property's type on a type of the tree (or a type above it): written, or
/// read from its initialiser in the class body.
fn field_type(cx: &Cx, ty: Eid, name: &str) -> Option<Ty> {
    for t in cx.hierarchy.depth_first(ty) {
        let decl = cx.index.decl(t);
        let Some(f) = decl.fields.iter().find(|f| f.name == name) else {
            continue;
        };
        let site = Site {
            file: t.file,
            decl: Some(t.decl),
            scope: f.scope,
            line: f.line,
        };
        if let Some(written) = &f.ty {
            return Some(ty_of(cx, site, written));
        }
        let value = f.value.as_ref()?;
        return Some(match nested(|| eval_value(cx, site, value))? {
            Recv::Value(ty, _) => ty,
            _ => Ty::Unknown,
        });
    }
    None
}

/// The companion objects a class declares (the frontend names each on its class
/// as the decorator `["companion", name]`).
fn companions(index: &TreeIndex, ty: Eid) -> Vec<Eid> {
    index
        .decl(ty)
        .decorators
        .iter()
        .filter(|d| d.path.len() == 2 && d.path[0] == "companion")
        .flat_map(|d| index.members(ty, &d.path[1]).to_vec())
        .filter(|&m| has_modifier(index.decl(m), "companion"))
        .collect()
}

// ----- implicit receivers and lambdas ---------------------------------------------------------

/// One implicit receiver at a site, innermost first.
#[derive(Debug, Clone)]
pub struct Implicit {
    pub ty: Ty,
    pub family: Family,
    /// A supertype's companion object: its members lose to the class's own, but
    /// compete with them when both fit the call.
    pub supertype_companion: bool,
}

/// Every implicit receiver at a site, innermost first: a lambda's receiver, an
/// extension function's receiver, each enclosing class and its companions.
pub fn implicit_receivers(cx: &Cx, site: Site) -> Vec<Implicit> {
    let file = cx.index.file(site.file);
    let mut out = Vec::new();
    let mut cur = site.decl;
    let mut steps = 0;
    while let Some(d) = cur {
        let decl = &file.decls[d as usize];
        let eid = Eid {
            file: site.file,
            decl: d,
        };
        match decl.kind {
            DeclKind::Lambda => match lambda_receiver(cx, site.file, d) {
                LambdaThis::None => {}
                LambdaThis::Some(ty, family) => out.push(Implicit {
                    ty,
                    family,
                    supertype_companion: false,
                }),
                LambdaThis::Unknown => out.push(Implicit {
                    ty: Ty::Unknown,
                    family: Family::ValueFlow,
                    supertype_companion: false,
                }),
            },
            DeclKind::Function | DeclKind::Method => {
                if let Some(r) = &decl.impl_of {
                    // `fun <A : Appendable> A.f()`: the receiver has its bound's
                    // members (and no others), as a value of the bound does.
                    let r = receiver_bound(decl, r).unwrap_or(r);
                    out.push(Implicit {
                        ty: ty_of(cx, Site::of_decl(cx.index, eid), r),
                        family: Family::WrittenType,
                        supertype_companion: false,
                    });
                }
            }
            k if k.is_type() => {
                out.push(Implicit {
                    ty: Ty::Tree(eid),
                    family: Family::OwnType,
                    supertype_companion: false,
                });
                for c in companions(cx.index, eid) {
                    out.push(Implicit {
                        ty: Ty::Tree(c),
                        family: Family::OwnType,
                        supertype_companion: false,
                    });
                }
                // A supertype's companion is in scope too (after the class's own).
                for sup in cx.hierarchy.depth_first(eid).into_iter().skip(1) {
                    for c in companions(cx.index, sup) {
                        out.push(Implicit {
                            ty: Ty::Tree(c),
                            family: Family::Inheritance,
                            supertype_companion: true,
                        });
                    }
                }
            }
            _ => {}
        }
        cur = decl.parent;
        steps += 1;
        if steps > 256 {
            break;
        }
    }
    out
}

/// The one bound of an extension's receiver written as a type parameter of the
/// extension (`fun <A : Appendable> A.f()`), if it has exactly one.
fn receiver_bound<'d>(decl: &'d Decl, receiver: &TypeRef) -> Option<&'d TypeRef> {
    let [name] = receiver.path.as_slice() else {
        return None;
    };
    if !decl.type_params.contains(name) {
        return None;
    }
    match written_bounds(decl, name) {
        [one] => Some(one),
        _ => None,
    }
}

/// A lambda's `this`.
#[derive(Debug, Clone)]
enum LambdaThis {
    None,
    Some(Ty, Family),
    Unknown,
}

/// The parameter a lambda argument fills, read from the declaration its call
/// reaches: `(A) -> R` or `R.(A) -> B` as written.
fn lambda_parameter_type(cx: &Cx, file: u32, lambda: DeclIdx) -> Option<(Eid, TypeRef)> {
    let facts = cx.index.file(file);
    let (call_idx, pos) = facts.decls[lambda as usize].argument_of?;
    let call = &facts.calls[call_idx as usize];
    let resolution = nested(|| run_rules(cx, file, call, None))?;
    let Resolution::Placed(p) = resolution else {
        return None;
    };
    let Target::InTree(targets) = p.target() else {
        return None;
    };
    let target = match targets.as_slice() {
        [one] if cx.index.same_qualified_name(*one).len() < 2 => *one,
        _ => overload::pick(cx, file, call, cx.index.same_qualified_name(targets[0]))?,
    };
    let decl = cx.index.decl(target);
    let param = if pos == u32::MAX {
        decl.params.last()?
    } else {
        let vararg = decl.params.iter().position(|p| p.variadic);
        match vararg {
            Some(v) if pos as usize >= v => &decl.params[v],
            _ => decl.params.get(pos as usize)?,
        }
    };
    Some((target, param.ty.clone()?))
}

/// What outside function a lambda is passed to, by its name, when its call is
/// placed outside the tree.
fn outside_callee(cx: &Cx, file: u32, lambda: DeclIdx) -> Option<(&'static str, u32)> {
    let facts = cx.index.file(file);
    let (call_idx, _) = facts.decls[lambda as usize].argument_of?;
    let call = &facts.calls[call_idx as usize];
    let resolution = nested(|| run_rules(cx, file, call, None))?;
    let Resolution::Placed(p) = resolution else {
        return None;
    };
    if !matches!(p.target(), Target::Outside { .. }) {
        return None;
    }
    let name = call.name();
    let known = policy::DEFAULT_FUNCTIONS
        .iter()
        .chain(policy::ANY_MEMBERS)
        .chain(policy::ELEMENT_LAMBDAS)
        .chain(["with", "use", "forEachIndexed", "mapIndexed", "getOrPut"].iter())
        .find(|n| **n == name)?;
    Some((known, call_idx))
}

fn lambda_receiver(cx: &Cx, file: u32, lambda: DeclIdx) -> LambdaThis {
    let facts = cx.index.file(file);
    let Some((call_idx, _)) = facts.decls[lambda as usize].argument_of else {
        // A lambda stored or returned: its type is written elsewhere, and
        // lambdas with receivers are rare there.
        return LambdaThis::None;
    };
    if let Some((target, ty)) = lambda_parameter_type(cx, file, lambda) {
        return match ty.last() {
            Some("<fn-receiver>") => match ty.args.first() {
                Some(r) => match ty_of(cx, Site::of_decl(cx.index, target), r) {
                    Ty::Unknown => LambdaThis::Unknown,
                    t => LambdaThis::Some(t, Family::WrittenType),
                },
                None => LambdaThis::Unknown,
            },
            Some("<fn>") => LambdaThis::None,
            _ => LambdaThis::Unknown,
        };
    }
    let call = &facts.calls[call_idx as usize];
    let Some((name, _)) = outside_callee(cx, file, lambda) else {
        return LambdaThis::Unknown;
    };
    let site = call_site(file, call);
    match policy::outside_lambda_receiver(name) {
        Some(LambdaReceiver::CallReceiver) => match &call.callee {
            Callee::Member { receiver, .. } => match receiver_recv(cx, site, receiver) {
                Recv::Value(ty, family) => LambdaThis::Some(ty, family),
                _ => LambdaThis::Unknown,
            },
            // A bare `run { … }` has no receiver; a bare `apply { … }` is `this`'s.
            _ if name == "run" => LambdaThis::None,
            _ => match eval_name(cx, site, "this") {
                Recv::Value(ty, family) => LambdaThis::Some(ty, family),
                _ => LambdaThis::Unknown,
            },
        },
        Some(LambdaReceiver::FirstArgument) => match call.args.first() {
            Some(a) => match arg_recv(cx, site, a) {
                Recv::Value(ty, family) => LambdaThis::Some(ty, family),
                _ => LambdaThis::Unknown,
            },
            None => LambdaThis::Unknown,
        },
        Some(LambdaReceiver::Outside(fqn)) => LambdaThis::Some(
            Ty::Outside {
                fqn: fqn.to_string(),
                args: Vec::new(),
            },
            Family::WrittenType,
        ),
        Some(LambdaReceiver::None) => LambdaThis::None,
        None => LambdaThis::Unknown,
    }
}

/// A lambda parameter's type (`it` is parameter 0): the function type the
/// callee writes, or what a scope function or a collection function gives.
fn lambda_parameter(cx: &Cx, file: u32, lambda: DeclIdx, index: u32) -> Option<(Ty, Family)> {
    let facts = cx.index.file(file);
    if let Some((target, ty)) = lambda_parameter_type(cx, file, lambda) {
        let params: &[TypeRef] = match ty.last() {
            Some("<fn-receiver>") if ty.args.len() >= 2 => &ty.args[1..ty.args.len() - 1],
            Some("<fn>") if !ty.args.is_empty() => &ty.args[..ty.args.len() - 1],
            _ => return None,
        };
        let p = params.get(index as usize)?;
        return match ty_of(cx, Site::of_decl(cx.index, target), p) {
            Ty::Unknown => None,
            t => Some((t, Family::WrittenType)),
        };
    }
    let (name, call_idx) = outside_callee(cx, file, lambda)?;
    let call = &facts.calls[call_idx as usize];
    let Callee::Member { receiver, .. } = &call.callee else {
        return None;
    };
    if index != 0 {
        return None;
    }
    let site = call_site(file, call);
    let Recv::Value(ty, family) = receiver_recv(cx, site, receiver) else {
        return None;
    };
    if policy::RECEIVER_IS_IT.contains(&name) {
        return (ty != Ty::Unknown).then_some((ty, family));
    }
    if policy::ELEMENT_LAMBDAS.contains(&name) {
        if let Ty::Outside { fqn, args } = &ty {
            if policy::ELEMENT_CONTAINERS.contains(&fqn.as_str()) {
                return match args.first() {
                    Some(Ty::Unknown) | None => None,
                    Some(e) => Some((e.clone(), family)),
                };
            }
        }
    }
    None
}

// ----- receivers -----------------------------------------------------------------------------

pub fn receiver_recv(cx: &Cx, site: Site, receiver: &Receiver) -> Recv {
    match receiver {
        Receiver::Path(p) => eval_path(cx, site, p),
        Receiver::Call(i) => match cx.results.get(site.file, *i) {
            Some(e) => Recv::Value(val_ty(&e.val), e.family),
            None => Recv::Unknown(Reason::ReceiverTypeUnknown),
        },
        Receiver::CallThen { call, path } => {
            let mut recv = match cx.results.get(site.file, *call) {
                Some(e) => Recv::Value(val_ty(&e.val), e.family),
                None => return Recv::Unknown(Reason::ReceiverTypeUnknown),
            };
            for seg in path {
                recv = step(cx, recv, seg);
            }
            recv
        }
        Receiver::New(t) => Recv::Value(ty_of(cx, site, t), Family::WrittenType),
        Receiver::Literal(l) => Recv::Value(literal_ty(*l), Family::WrittenType),
        Receiver::QualifiedThis(label) => labeled_this(cx, site, label),
        _ => Recv::Unknown(Reason::ReceiverTypeUnknown),
    }
}

/// `this@Label`: the enclosing class of that name, or the receiver of the
/// enclosing extension function of that name.
fn labeled_this(cx: &Cx, site: Site, label: &str) -> Recv {
    let file = cx.index.file(site.file);
    let mut cur = site.decl;
    let mut steps = 0;
    while let Some(d) = cur {
        let decl = &file.decls[d as usize];
        if decl.name == label {
            let eid = Eid {
                file: site.file,
                decl: d,
            };
            if decl.kind.is_type() {
                return Recv::Value(Ty::Tree(eid), Family::OwnType);
            }
            if let Some(r) = &decl.impl_of {
                return Recv::Value(
                    ty_of(cx, Site::of_decl(cx.index, eid), r),
                    Family::WrittenType,
                );
            }
        }
        cur = decl.parent;
        steps += 1;
        if steps > 256 {
            break;
        }
    }
    Recv::Unknown(Reason::ReceiverTypeUnknown)
}

pub fn arg_recv(cx: &Cx, site: Site, arg: &ArgShape) -> Recv {
    match arg {
        ArgShape::Name(n) => eval_name(cx, site, n),
        ArgShape::Path(p) => eval_path(cx, site, p),
        ArgShape::Call(i) => match cx.results.get(site.file, *i) {
            Some(e) => Recv::Value(val_ty(&e.val), e.family),
            None => Recv::Unknown(Reason::ReceiverTypeUnknown),
        },
        ArgShape::New(t) | ArgShape::Cast(t) => {
            Recv::Value(ty_of(cx, site, t), Family::WrittenType)
        }
        ArgShape::Literal(l) => Recv::Value(literal_ty(*l), Family::WrittenType),
        ArgShape::ClassLiteral => Recv::Value(
            Ty::Outside {
                fqn: "kotlin.reflect.KClass".into(),
                args: Vec::new(),
            },
            Family::WrittenType,
        ),
        ArgShape::Function(_) | ArgShape::Lambda => Recv::Value(
            Ty::Outside {
                fqn: "kotlin.Function".into(),
                args: Vec::new(),
            },
            Family::WrittenType,
        ),
        _ => Recv::Unknown(Reason::ReceiverTypeUnknown),
    }
}

// ----- placing ---------------------------------------------------------------------------

fn outside_via(via: Via, fqn: &str, symbol: String) -> Decision {
    let kind = if policy::is_stdlib(fqn) {
        OutsideKind::Stdlib
    } else {
        OutsideKind::External
    };
    let placement = match via {
        Via::Default => Placement::outside(OutsideKind::Builtin, symbol, Family::Builtin),
        Via::Import => Placement::outside(kind, symbol, Family::ExternalImport),
        Via::Qualified => Placement::outside(kind, symbol, Family::ForeignType),
    };
    Decision::Place(placement)
}

fn foreign(symbol: String) -> Decision {
    Decision::Place(Placement::outside(
        OutsideKind::ForeignType,
        symbol,
        Family::ForeignType,
    ))
}

fn builtin(symbol: String) -> Decision {
    Decision::Place(Placement::outside(
        OutsideKind::Builtin,
        symbol,
        Family::Builtin,
    ))
}

/// Whether the tree declares a callable of this name anywhere: when it does not,
/// a call of that name whose receiver is not known still leaves the tree.
fn tree_declares_callable(index: &TreeIndex, name: &str) -> bool {
    index
        .by_name(name)
        .iter()
        .any(|&e| !index.decl(e).kind.is_type() || index.decl(e).name == name)
}

/// A receiver the engine cannot type: the call leaves the tree when no
/// declaration of the tree has the name.
fn untyped_receiver(cx: &Cx, name: &str, reason: Reason) -> Decision {
    if tree_declares_callable(cx.index, name) {
        return Decision::Refuse(reason);
    }
    Decision::Place(Placement::outside(
        OutsideKind::Undeclared,
        name.to_string(),
        Family::NothingDeclaresIt,
    ))
}

/// The constructors a call of a class's name reaches (private ones only from
/// inside the class), its companion's `operator fun invoke`, or the class itself
/// when it declares no constructor.
fn construct(cx: &Cx, site: Site, call: &Call, ty: Eid, family: Family) -> Decision {
    let index = cx.index;
    let decl = index.decl(ty);
    if decl.kind == DeclKind::Interface || has_modifier(decl, "object") {
        return Decision::Refuse(Reason::Refused);
    }
    let inside = enclosing_types(index, site.file, site.decl).contains(&ty);
    let all: Vec<Eid> = index
        .members(ty, &decl.name)
        .iter()
        .copied()
        .filter(|&c| index.decl(c).kind == DeclKind::Constructor)
        .collect();
    let visible: Vec<Eid> = all
        .iter()
        .copied()
        .filter(|&c| inside || !has_modifier(index.decl(c), "private"))
        .collect();
    let invokes: Vec<Eid> = companions(index, ty)
        .into_iter()
        .flat_map(|c| index.members(c, "invoke").to_vec())
        .filter(|&i| has_modifier(index.decl(i), "operator"))
        .collect();
    if all.is_empty() && invokes.is_empty() {
        return Decision::Place(Placement::in_tree(vec![ty], family));
    }
    if invokes.is_empty() {
        return match visible.as_slice() {
            [] => Decision::Refuse(Reason::Refused),
            _ => Decision::Place(Placement::in_tree(visible, family)),
        };
    }
    let ctors_fit = overload::fitting(cx, call, &visible);
    let invokes_fit = overload::fitting(cx, call, &invokes);
    match (ctors_fit.is_empty(), invokes_fit.is_empty()) {
        (true, false) => Decision::Place(Placement::in_tree(invokes_fit, Family::QualifiedPath)),
        (false, true) => Decision::Place(Placement::in_tree(visible, family)),
        _ => Decision::Refuse(Reason::Ambiguous),
    }
}

/// The members of a type (and the types above it) a call of `name` reaches:
/// member functions (the rule's family on the type itself, `inheritance` above
/// it) or a nested class's constructors.
fn members_named(
    cx: &Cx,
    site: Site,
    call: &Call,
    ty: Eid,
    name: &str,
    family: Family,
) -> Option<Decision> {
    let order = cx.hierarchy.depth_first(ty);
    for (k, &t) in order.iter().enumerate() {
        let found = cx.index.members(t, name);
        if found.is_empty() {
            continue;
        }
        let callables = callables_of(cx, found);
        if !callables.is_empty() {
            let family = if k == 0 { family } else { Family::Inheritance };
            return fitting_level(cx, site, call, callables, &order[k + 1..], name, family);
        }
        if let Some(&nested) = found.iter().find(|&&m| cx.index.decl(m).kind.is_type()) {
            return Some(construct(cx, site, call, nested, Family::Construction));
        }
    }
    None
}

fn callables_of(cx: &Cx, found: &[Eid]) -> Vec<Eid> {
    found
        .iter()
        .copied()
        .filter(|&m| matches!(cx.index.decl(m).kind, DeclKind::Method | DeclKind::Function))
        .collect()
}

/// The members of one name found first in the lookup order, weighed against the
/// overloads of the same name that types further up declare with other
/// parameter counts (kotlinc's candidate set holds inherited overloads too):
/// the found ones when only they fit, the inherited ones when only those fit,
/// an abstention when both do. When none fits the call (a member of an inner
/// implicit receiver that the arguments rule out), `None`: the lookup goes on
/// outward, as kotlinc skips inapplicable candidates.
fn fitting_level(
    cx: &Cx,
    site: Site,
    call: &Call,
    here: Vec<Eid>,
    above: &[Eid],
    name: &str,
    family: Family,
) -> Option<Decision> {
    if call.has_splat {
        return Some(Decision::Place(Placement::in_tree(here, family)));
    }
    if platform_overload_beside_actual(cx, call, &here) {
        return Some(Decision::Refuse(Reason::Ambiguous));
    }
    let counts: Vec<usize> = here
        .iter()
        .map(|&c| cx.index.decl(c).params.len())
        .collect();
    let inherited: Vec<Eid> = above
        .iter()
        .flat_map(|&t| callables_of(cx, cx.index.members(t, name)))
        .filter(|&c| !here.iter().any(|&h| same_signature(cx, h, c)))
        .collect();
    let mut fit_here = overload::fitting_certain(cx, site.file, call, &here);
    if fit_here.is_empty()
        && here
            .iter()
            .any(|&c| has_modifier(cx.index.decl(c), "override"))
    {
        // An override takes its default values from the declaration it overrides.
        let overridden: Vec<Eid> = above
            .iter()
            .flat_map(|&t| callables_of(cx, cx.index.members(t, name)))
            .filter(|&c| counts.contains(&cx.index.decl(c).params.len()))
            .collect();
        if !overload::fitting_certain(cx, site.file, call, &overridden).is_empty() {
            fit_here = here.clone();
        }
    }
    let fit_above = overload::fitting_certain(cx, site.file, call, &inherited);
    match (fit_here.is_empty(), fit_above.is_empty()) {
        (false, true) => Some(Decision::Place(Placement::in_tree(here, family))),
        (true, false) => Some(Decision::Place(Placement::in_tree(
            fit_above,
            Family::Inheritance,
        ))),
        (false, false) => Some(Decision::Refuse(Reason::Ambiguous)),
        (true, true) => None,
    }
}

/// Whether a platform-only overload (no `actual`) fits the call beside an
/// `actual` member that would fit with its `expect`'s default values: common
/// code sees only the `expect` (Okio's `createDirectory(dir)` in common code is
/// `createDirectory(dir, mustCreate = false)`, not the JVM's one-parameter
/// overload), platform code sees both; the engine does not tell them apart.
fn platform_overload_beside_actual(cx: &Cx, call: &Call, here: &[Eid]) -> bool {
    let given = call.args.len() + call.keywords.len();
    let (actual, platform): (Vec<Eid>, Vec<Eid>) = here
        .iter()
        .partition(|&&c| has_modifier(cx.index.decl(c), "actual"));
    !actual.is_empty()
        && !overload::fitting(cx, call, &platform).is_empty()
        && actual.iter().any(|&a| {
            let d = cx.index.decl(a);
            given < d.params.len() && !overload::fits_count(d, call)
        })
}

/// Whether two functions take the same parameter types (one overrides the
/// other): same count, and no parameter whose types are both known differs
/// (`metadataOrNull(Path)` beside an inherited `metadataOrNull(NioPath)` is an
/// overload, not an override).
fn same_signature(cx: &Cx, a: Eid, b: Eid) -> bool {
    let (da, db) = (cx.index.decl(a), cx.index.decl(b));
    if da.params.len() != db.params.len() {
        return false;
    }
    let (sa, sb) = (Site::of_decl(cx.index, a), Site::of_decl(cx.index, b));
    da.params.iter().zip(&db.params).all(|(pa, pb)| {
        let (Some(ta), Some(tb)) = (&pa.ty, &pb.ty) else {
            return true;
        };
        match (ty_of(cx, sa, ta), ty_of(cx, sb, tb)) {
            (x @ (Ty::Tree(_) | Ty::Outside { .. }), y @ (Ty::Tree(_) | Ty::Outside { .. })) => {
                same_type_name(&x, &y)
            }
            _ => true,
        }
    })
}

/// Two known types name the same class (type arguments aside: a generic
/// override writes its own type parameters).
fn same_type_name(a: &Ty, b: &Ty) -> bool {
    match (a, b) {
        (Ty::Tree(x), Ty::Tree(y)) => x == y,
        (Ty::Outside { fqn: x, .. }, Ty::Outside { fqn: y, .. }) => x == y,
        _ => false,
    }
}

/// A call of `name` on a value of a type of the tree: its members, a property
/// holding a function (invoked: no declaration to name), a visible extension, a
/// member kotlinc generates.
fn on_tree_type(
    cx: &Cx,
    site: Site,
    call: &Call,
    ty: Eid,
    name: &str,
    family: Family,
) -> Option<Decision> {
    if let Some(d) = members_named(cx, site, call, ty, name, family) {
        return Some(d);
    }
    if field_type(cx, ty, name).is_some() {
        return Some(Decision::Refuse(Reason::DynamicCallee));
    }
    if let Some(d) = extension_for(cx, site, call, &Ty::Tree(ty), name, family) {
        // A member inherited from an outside supertype wins over the extension.
        if outside_base_lists(cx, ty, name) {
            return Some(Decision::Refuse(Reason::Ambiguous));
        }
        return Some(d);
    }
    generated_member(cx, ty, name, family)
}

/// Members no text declares: a data class's `copy`, `componentN`, `equals`,
/// `hashCode`, `toString` (kotlinc points at the class), an enum's `values` and
/// `valueOf` (the enum) and `kotlin.Enum`'s members.
fn generated_member(cx: &Cx, ty: Eid, name: &str, family: Family) -> Option<Decision> {
    let decl = cx.index.decl(ty);
    let overridden = |n: &str| {
        cx.hierarchy
            .depth_first(ty)
            .iter()
            .any(|&t| !cx.index.members(t, n).is_empty())
    };
    if has_modifier(decl, "data")
        && (policy::DATA_CLASS_MEMBERS.contains(&name) || is_component(name))
        && !overridden(name)
    {
        return Some(Decision::Place(Placement::in_tree(vec![ty], family)));
    }
    if decl.kind == DeclKind::Enum {
        if policy::ENUM_GENERATED.contains(&name) {
            return Some(Decision::Place(Placement::in_tree(vec![ty], family)));
        }
        if policy::ENUM_MEMBERS.contains(&name) {
            return Some(builtin(format!("kotlin.Enum.{name}")));
        }
    }
    None
}

fn is_component(name: &str) -> bool {
    name.strip_prefix("component")
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// The visible extension functions named `name` whose receiver type fits `ty`;
/// the most specific when several fit.
fn extension_for(
    cx: &Cx,
    site: Site,
    call: &Call,
    ty: &Ty,
    name: &str,
    family: Family,
) -> Option<Decision> {
    let mut fits: Vec<(Eid, u32)> = Vec::new();
    for &e in cx.index.by_name(name) {
        let decl = cx.index.decl(e);
        let Some(receiver) = &decl.impl_of else {
            continue;
        };
        if cx.index.file(e.file).language != crate::lang::Language::Kotlin
            || !extension_visible(cx.index, site, e)
        {
            continue;
        }
        let at = Site::of_decl(cx.index, e);
        let distance = match resolve_type(tcx(cx), at, &receiver.path) {
            Named::Type(r) => match ty {
                Ty::Tree(t) => tree_distance(cx.hierarchy, *t, r),
                _ => None,
            },
            Named::Outside { fqn, .. } => outside_fits(cx, ty, &fqn),
            // `fun <T> T.f()`: any receiver.
            Named::TypeParam => Some(100),
            _ => None,
        };
        if let Some(dist) = distance {
            fits.push((e, dist));
        }
    }
    // Extensions the arguments cannot fill are no candidates (kotlinc skips them).
    let fillable: Vec<Eid> = overload::fitting_certain(
        cx,
        site.file,
        call,
        &fits.iter().map(|(e, _)| *e).collect::<Vec<_>>(),
    );
    fits.retain(|(e, _)| fillable.contains(e));
    let best = fits.iter().map(|(_, d)| *d).min()?;
    if more_general_fits_instead(cx, site, call, &fits, best) {
        return Some(Decision::Refuse(Reason::Ambiguous));
    }
    let chosen: Vec<Eid> = fits
        .iter()
        .filter(|(_, d)| *d == best)
        .map(|(e, _)| *e)
        .collect();
    let qname = cx.index.qualified_name(chosen[0]);
    if chosen.iter().any(|&e| cx.index.qualified_name(e) != qname) {
        return Some(Decision::Refuse(Reason::Ambiguous));
    }
    Some(Decision::Place(Placement::in_tree(chosen, family)))
}

/// Whether the most specific extensions are contradicted by an argument's
/// written type while a more general one is not: kotlinc would take the general
/// one (`BufferedSource.commonSelect(TypedOptions)` over
/// `Buffer.commonSelect(Options)`), but a name's type may be smart cast where the
/// engine does not see it, so neither is claimed.
fn more_general_fits_instead(
    cx: &Cx,
    site: Site,
    call: &Call,
    fits: &[(Eid, u32)],
    best: u32,
) -> bool {
    let (nearest, further): (Vec<Eid>, Vec<Eid>) =
        fits.iter()
            .fold((Vec::new(), Vec::new()), |(mut n, mut f), &(e, d)| {
                if d == best {
                    n.push(e)
                } else {
                    f.push(e)
                }
                (n, f)
            });
    !further.is_empty()
        && overload::uncontradicted(cx, site.file, call, &nearest).is_empty()
        && !overload::uncontradicted(cx, site.file, call, &further).is_empty()
}

/// What an outside type's own members say about a call of `name` on it: kotlinc
/// takes a member that applies before any extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum OutsideMember {
    /// No member of the name: an extension of the tree is the answer.
    Absent,
    /// The member applies: the argument's type is its parameter's.
    Applies,
    /// A member of the name may apply.
    Maybe,
    /// The type's members are not known: the extension stands (D70).
    Unknown,
}

fn outside_member(cx: &Cx, site: Site, call: &Call, fqn: &str, name: &str) -> OutsideMember {
    let Some(names) = policy::outside_member_names(fqn) else {
        return OutsideMember::Unknown;
    };
    if !names.contains(&name) {
        return OutsideMember::Absent;
    }
    let Some(operand) = policy::integer_operand(fqn, name) else {
        return OutsideMember::Maybe;
    };
    let ([arg], true) = (call.args.as_slice(), call.keywords.is_empty()) else {
        return OutsideMember::Maybe;
    };
    // An integer literal takes a `Long` parameter too.
    let widens = matches!(arg, ArgShape::Literal(LiteralType::Int)) && operand == "kotlin.Long";
    match final_value_type(cx, site, arg) {
        Some(t) if t == operand || widens => OutsideMember::Applies,
        Some(_) => OutsideMember::Absent,
        None => OutsideMember::Maybe,
    }
}

/// An argument's type when it is a number, a character or a boolean: a literal,
/// or a value written with such a type (final types: no smart cast makes it
/// another).
fn final_value_type(cx: &Cx, site: Site, arg: &ArgShape) -> Option<String> {
    const FINAL: &[&str] = &[
        "kotlin.Int",
        "kotlin.Long",
        "kotlin.Short",
        "kotlin.Byte",
        "kotlin.Char",
        "kotlin.Boolean",
        "kotlin.Double",
        "kotlin.Float",
    ];
    match arg_recv(cx, site, arg) {
        Recv::Value(Ty::Outside { fqn, .. }, _) if FINAL.contains(&fqn.as_str()) => Some(fqn),
        _ => None,
    }
}

/// A call on a value of an outside type: the type's member when it applies, a
/// visible extension of the tree when no member of the name may, an abstention
/// when both might; `None` when no extension of the tree fits.
fn outside_or_extension(
    cx: &Cx,
    site: Site,
    call: &Call,
    ty: &Ty,
    name: &str,
    family: Family,
) -> Option<Decision> {
    let Ty::Outside { fqn, .. } = ty else {
        return extension_for(cx, site, call, ty, name, family);
    };
    let member = outside_member(cx, site, call, fqn, name);
    if member == OutsideMember::Applies {
        return Some(foreign(format!("{fqn}.{name}")));
    }
    let d = extension_for(cx, site, call, ty, name, family)?;
    match member {
        OutsideMember::Absent | OutsideMember::Unknown => Some(d),
        _ if is_refusal(&d) => Some(d),
        _ => Some(Decision::Refuse(Reason::Ambiguous)),
    }
}

fn is_refusal(d: &Decision) -> bool {
    matches!(d, Decision::Refuse(_))
}

/// Whether any Kotlin extension function of the tree has this name.
fn tree_has_extension(index: &TreeIndex, name: &str) -> bool {
    index.by_name(name).iter().any(|&e| {
        index.decl(e).impl_of.is_some()
            && index.file(e.file).language == crate::lang::Language::Kotlin
    })
}

/// How many steps up the hierarchy `sup` is from `sub` (0: the type itself).
fn tree_distance(h: &Hierarchy, sub: Eid, sup: Eid) -> Option<u32> {
    if sub == sup {
        return Some(0);
    }
    h.depth_first(sub)
        .iter()
        .position(|&t| t == sup)
        .map(|p| p as u32)
}

/// Whether an extension declared on the outside type `fqn` applies to `ty`.
fn outside_fits(cx: &Cx, ty: &Ty, fqn: &str) -> Option<u32> {
    if fqn == "kotlin.Any" {
        return Some(50);
    }
    match ty {
        Ty::Outside { fqn: have, .. } if have == fqn => Some(0),
        Ty::Outside { fqn: have, .. } => {
            policy::outside_supertypes(have).contains(&fqn).then_some(1)
        }
        Ty::Tree(t) => {
            // A type of the tree reaches an outside type through its written bases.
            for s in cx.hierarchy.depth_first(*t) {
                let site = Site::of_decl(cx.index, s);
                for b in &cx.index.decl(s).bases {
                    if let Named::Outside { fqn: base, .. } = resolve_type(tcx(cx), site, &b.path) {
                        if base == fqn || policy::outside_supertypes(&base).contains(&fqn) {
                            return Some(2);
                        }
                    }
                }
            }
            None
        }
        _ => None,
    }
}

/// Whether a file sees an extension: its own package's, imported by name or by a
/// star import; a member or local extension only inside the declaration around it.
fn extension_visible(index: &TreeIndex, site: Site, ext: Eid) -> bool {
    let decl = index.decl(ext);
    if let Some(parent) = decl.parent {
        if ext.file != site.file {
            return false;
        }
        // A companion's member extension is in scope in its class too.
        let holder = match index.file(ext.file).decls[parent as usize].parent {
            Some(class)
                if has_modifier(&index.file(ext.file).decls[parent as usize], "companion") =>
            {
                class
            }
            _ => parent,
        };
        let mut cur = site.decl;
        let mut steps = 0;
        while let Some(d) = cur {
            if d == parent || d == holder {
                return true;
            }
            cur = index.file(site.file).decls[d as usize].parent;
            steps += 1;
            if steps > 256 {
                break;
            }
        }
        return false;
    }
    let here = index.file(site.file);
    let there = package_of(index.file(ext.file));
    if package_of(here) == there {
        return true;
    }
    imports(here).any(|(path, star)| {
        let dotted = path.join(".");
        if star {
            dotted == there
        } else {
            path.last() == Some(&decl.name) && path[..path.len() - 1].join(".") == there
        }
    })
}

/// A call on a receiver as the resolver reads it.
fn on_recv(cx: &Cx, site: Site, call: &Call, name: &str, recv: Recv) -> Decision {
    match recv {
        Recv::Value(Ty::Tree(t), family) => {
            if let Some(d) = on_tree_type(cx, site, call, t, name, family) {
                if family == Family::WrittenType
                    && policy::NULLABLE_RECEIVER.contains(&name)
                    && matches!(&d, Decision::Place(p) if matches!(p.target(), Target::InTree(_)))
                {
                    // `x.toString()` on a value written `T?` is the standard
                    // library's `Any?.toString()`, not T's override; the engine
                    // does not read `?` (FIXME: nullability of written types).
                    return Decision::Refuse(Reason::Ambiguous);
                }
                return d;
            }
            not_on_tree_type(cx, site, t, name)
        }
        Recv::Value(ty @ Ty::Outside { .. }, family) => {
            if let Some(d) = outside_or_extension(cx, site, call, &ty, name, family) {
                return d;
            }
            // An extension of the tree the engine does not see from here (a
            // member extension of a companion, one imported through an object)
            // might be the one kotlinc calls: no claim that the call leaves.
            if tree_has_extension(cx.index, name) {
                return Decision::Refuse(Reason::Ambiguous);
            }
            let Ty::Outside { fqn, .. } = ty else {
                unreachable!()
            };
            // A value typed `Any` calling anything but Any's members was smart cast.
            if fqn == "kotlin.Any" && !policy::ANY_MEMBERS.contains(&name) {
                return untyped_receiver(cx, name, Reason::ReceiverTypeUnknown);
            }
            foreign(format!("{fqn}.{name}"))
        }
        Recv::Value(Ty::Foreign, _) => untyped_receiver(cx, name, Reason::ReceiverTypeUnknown),
        Recv::Value(Ty::Unknown, _) => untyped_receiver(cx, name, Reason::ReceiverTypeUnknown),
        Recv::TypeName(t) => on_type_name(cx, site, call, t, name),
        Recv::OutsideType(fqn, via) => outside_via(via, &fqn, format!("{fqn}.{name}")),
        Recv::Unknown(reason) => untyped_receiver(cx, name, reason),
    }
}

/// A member no type of the tree's hierarchy declares.
fn not_on_tree_type(cx: &Cx, site: Site, ty: Eid, name: &str) -> Decision {
    if policy::ANY_MEMBERS.contains(&name) {
        return builtin(format!("kotlin.{name}"));
    }
    if cx.hierarchy.has_unknown_base(ty) {
        // An extension of the tree the engine does not see from here (a member
        // extension imported through a companion) may be what kotlinc calls.
        if tree_has_extension(cx.index, name) {
            return Decision::Refuse(Reason::Ambiguous);
        }
        return foreign(format!("{}.{name}", cx.index.decl(ty).name));
    }
    if let Some(d) = imported_outside(cx, site, name) {
        return d;
    }
    Decision::Unresolved
}

/// `import a.b.name` of a package the tree does not have (an outside extension).
fn imported_outside(cx: &Cx, site: Site, name: &str) -> Option<Decision> {
    let file = cx.index.file(site.file);
    for import in &file.imports {
        let ImportKind::Kotlin {
            path,
            alias,
            star: false,
        } = &import.kind
        else {
            continue;
        };
        let bound = alias.as_deref().or(path.last().map(String::as_str));
        if bound != Some(name) {
            continue;
        }
        let package = path[..path.len() - 1].join(".");
        if package_in_tree(cx.index, &package) || !cx.index.java_type(&package).is_empty() {
            return None;
        }
        let dotted = path.join(".");
        return Some(outside_via(Via::Import, &dotted, dotted.clone()));
    }
    None
}

/// `T.m()`: an object's member, a companion's member, a nested class's
/// constructor, an enum's generated member, an extension on the companion.
fn on_type_name(cx: &Cx, site: Site, call: &Call, ty: Eid, name: &str) -> Decision {
    let decl = cx.index.decl(ty);
    if has_modifier(decl, "object") {
        if let Some(d) = on_tree_type(cx, site, call, ty, name, Family::QualifiedPath) {
            return d;
        }
    } else {
        if let Some(n) = crate::lang::kotlin::types::member_type(tcx(cx), ty, name) {
            return construct(cx, site, call, n, Family::Construction);
        }
        for c in companions(cx.index, ty) {
            if let Some(d) = on_tree_type(cx, site, call, c, name, Family::QualifiedPath) {
                return d;
            }
        }
        if decl.kind == DeclKind::Enum && policy::ENUM_GENERATED.contains(&name) {
            return Decision::Place(Placement::in_tree(vec![ty], Family::QualifiedPath));
        }
    }
    if cx.hierarchy.has_unknown_base(ty) {
        return foreign(format!("{}.{name}", decl.name));
    }
    Decision::Unresolved
}

// ----- the rules -------------------------------------------------------------------------

/// `this(…)` → the class's own constructors; `super(…)` → the superclass's.
fn constructor_chain(cx: &Cx, file: u32, call: &Call) -> Decision {
    let (CallKind::ConstructorChain, Callee::Name(word)) = (call.kind, &call.callee) else {
        return Decision::Pass;
    };
    let site = call_site(file, call);
    let Some(&own) = enclosing_types(cx.index, file, call.caller).first() else {
        return Decision::Refuse(Reason::ReceiverTypeUnknown);
    };
    let own_name = &cx.index.decl(own).name;
    if word == "this" {
        let ctors: Vec<Eid> = cx
            .index
            .members(own, own_name)
            .iter()
            .copied()
            .filter(|&c| cx.index.decl(c).kind == DeclKind::Constructor)
            .collect();
        return match ctors.as_slice() {
            [] => Decision::Unresolved,
            _ => Decision::Place(Placement::in_tree(ctors, Family::OwnType)),
        };
    }
    let Some(base) = cx.index.decl(own).bases.first() else {
        return builtin("kotlin.Any".into());
    };
    match resolve_type(tcx(cx), Site::of_decl(cx.index, own), &base.path) {
        Named::Type(t) => match construct(cx, site, call, t, Family::Inheritance) {
            Decision::Place(p) => match p.target() {
                Target::InTree(ts) => {
                    Decision::Place(Placement::in_tree(ts.clone(), Family::Inheritance))
                }
                Target::Outside { .. } => Decision::Place(p),
            },
            other => other,
        },
        Named::Outside { fqn, via } => outside_via(via, &fqn, fqn.clone()),
        _ => Decision::Refuse(Reason::ReceiverTypeUnknown),
    }
}

/// `class A : Base(x)`: the construction of the written supertype.
fn supertype_construction(cx: &Cx, file: u32, call: &Call) -> Decision {
    if call.kind != CallKind::New {
        return Decision::Pass;
    }
    let path: Vec<String> = match &call.callee {
        Callee::Name(n) => vec![n.clone()],
        Callee::Member {
            receiver: Receiver::Path(p),
            name,
        } => p.iter().cloned().chain([name.clone()]).collect(),
        _ => return Decision::Pass,
    };
    let site = call_site(file, call);
    match resolve_type(tcx(cx), site, &path) {
        Named::Type(t) => construct(cx, site, call, t, Family::Construction),
        Named::Outside { fqn, via } => outside_via(via, &fqn, fqn.clone()),
        Named::Ambiguous => Decision::Refuse(Reason::Ambiguous),
        _ => Decision::Refuse(Reason::ReceiverTypeUnknown),
    }
}

/// `f(…)`: local declarations, then the implicit receivers from the innermost
/// out, then the file's package and imports.
fn bare_name(cx: &Cx, file: u32, call: &Call) -> Decision {
    let (CallKind::Call, Callee::Name(name)) = (call.kind, &call.callee) else {
        return Decision::Pass;
    };
    let site = call_site(file, call);
    let facts = cx.index.file(file);
    if let Some((scope, b)) = lexical_binding(facts, site, name) {
        let kind = facts.scopes[scope as usize].kind;
        if !matches!(kind, ScopeKind::Module | ScopeKind::Class) {
            return match &b.value {
                BindingValue::Decl(d) => {
                    let eid = Eid { file, decl: *d };
                    if cx.index.decl(eid).kind.is_type() {
                        construct(cx, site, call, eid, Family::Construction)
                    } else {
                        Decision::Place(Placement::in_tree(vec![eid], Family::Lexical))
                    }
                }
                BindingValue::Param { .. } => Decision::Refuse(Reason::ParameterValue),
                _ => Decision::Refuse(Reason::LocalValue),
            };
        }
        if !matches!(b.value, BindingValue::Decl(_)) && kind == ScopeKind::Module {
            // A top-level property holding a function: invoked, nothing to name.
            return Decision::Refuse(Reason::LocalValue);
        }
    }
    let receivers = implicit_receivers(cx, site);
    through_receivers(cx, site, call, name, &receivers)
}

/// The implicit receivers in order; what none of them has is a top-level name.
fn through_receivers(
    cx: &Cx,
    site: Site,
    call: &Call,
    name: &str,
    receivers: &[Implicit],
) -> Decision {
    for (i, r) in receivers.iter().enumerate() {
        let outer = &receivers[i + 1..];
        match &r.ty {
            Ty::Tree(t) => {
                if let Some(d) = on_tree_type(cx, site, call, *t, name, r.family) {
                    if competes_with_supertype_companion(cx, site, call, name, outer, &d) {
                        return Decision::Refuse(Reason::Ambiguous);
                    }
                    return d;
                }
                if outside_base_may_declare(cx, *t, name) {
                    return behind_outside_base(cx, site, call, name, outer, *t);
                }
            }
            Ty::Outside { fqn, .. } => {
                if let Some(d) = outside_or_extension(cx, site, call, &r.ty, name, r.family) {
                    return d;
                }
                match policy::known_members(fqn) {
                    Some(members) if members.contains(&name) => {
                        return foreign(format!("{fqn}.{name}"))
                    }
                    Some(_) => {}
                    None => {
                        return unless_found_further(
                            cx,
                            site,
                            call,
                            name,
                            outer,
                            foreign(format!("{fqn}.{name}")),
                            Reason::Ambiguous,
                        )
                    }
                }
            }
            Ty::Foreign | Ty::Unknown => {
                if tree_declares_member(cx.index, name) {
                    return Decision::Refuse(Reason::ReceiverTypeUnknown);
                }
            }
        }
    }
    top_level(cx, site, call, name)
}

/// Whether a supertype's companion further out declares a member of the name
/// that fits the call as well as the in-tree answer found here does: kotlinc
/// chooses between them by argument types the engine may not know.
fn competes_with_supertype_companion(
    cx: &Cx,
    site: Site,
    call: &Call,
    name: &str,
    outer: &[Implicit],
    found: &Decision,
) -> bool {
    let Decision::Place(p) = found else {
        return false;
    };
    if !matches!(p.target(), Target::InTree(_)) {
        return false;
    }
    outer
        .iter()
        .filter(|r| r.supertype_companion)
        .any(|r| match r.ty {
            Ty::Tree(c) => {
                let theirs = callables_of(cx, cx.index.members(c, name));
                !overload::fitting_certain(cx, site.file, call, &theirs).is_empty()
            }
            _ => false,
        })
}

/// Whether a base outside the tree (or one the engine cannot name) may declare a
/// member of this name: an implicit receiver's member shadows every top-level
/// function, so a call the tree's types do not answer may still be the base's.
/// An outside base whose members are known in full answers for itself.
fn outside_base_may_declare(cx: &Cx, ty: Eid, name: &str) -> bool {
    if !cx.hierarchy.has_unknown_base(ty) {
        return false;
    }
    for s in cx.hierarchy.depth_first(ty) {
        let site = Site::of_decl(cx.index, s);
        for b in &cx.index.decl(s).bases {
            match resolve_type(tcx(cx), site, &b.path) {
                Named::Type(_) => {}
                Named::Outside { fqn, .. } if fqn == "kotlin.Any" => {}
                Named::Outside { fqn, .. } => match policy::outside_member_names(&fqn) {
                    Some(members) if !members.contains(&name) => {}
                    _ => return true,
                },
                _ => return true,
            }
        }
    }
    false
}

/// Whether an outside supertype of a type of the tree is known to have a member
/// of this name (`class Text : CharSequence` and `length()`): that member shadows
/// any extension of the tree. Outside bases whose members are not known are not
/// read as declaring it (D70).
fn outside_base_lists(cx: &Cx, ty: Eid, name: &str) -> bool {
    if !cx.hierarchy.has_unknown_base(ty) {
        return false;
    }
    cx.hierarchy.depth_first(ty).into_iter().any(|s| {
        let site = Site::of_decl(cx.index, s);
        cx.index
            .decl(s)
            .bases
            .iter()
            .any(|b| match resolve_type(tcx(cx), site, &b.path) {
                Named::Outside { fqn, .. } => std::iter::once(fqn.as_str())
                    .chain(policy::outside_supertypes(&fqn).iter().copied())
                    .filter(|f| *f != "kotlin.Any")
                    .any(|f| policy::outside_member_names(f).is_some_and(|m| m.contains(&name))),
                _ => false,
            })
    })
}

/// A bare call inside a class with an outside base the tree does not answer: the
/// base's member, unless something further out answers. An in-tree answer
/// further out competes with the base (abstain); an outside one is outside
/// either way.
fn behind_outside_base(
    cx: &Cx,
    site: Site,
    call: &Call,
    name: &str,
    outer: &[Implicit],
    ty: Eid,
) -> Decision {
    match through_receivers(cx, site, call, name, outer) {
        Decision::Place(p) if matches!(p.target(), Target::InTree(_)) => {
            Decision::Refuse(Reason::Ambiguous)
        }
        d @ Decision::Place(_) => d,
        // Something further out might answer: no claim that the base does.
        d @ Decision::Refuse(_) => d,
        _ if top_level_declares(cx, site, name) => Decision::Refuse(Reason::Ambiguous),
        _ => foreign(format!("{}.{name}", cx.index.decl(ty).name)),
    }
}

/// Whether the caller's package declares a top-level function or class of the name.
fn top_level_declares(cx: &Cx, site: Site, name: &str) -> bool {
    let package = package_of(cx.index.file(site.file));
    !top_level_named(cx.index, package, name).is_empty()
}

/// Whether some class of the tree declares a member function of this name (a
/// receiver of unknown type might be that class).
fn tree_declares_member(index: &TreeIndex, name: &str) -> bool {
    index.by_name(name).iter().any(|&e| {
        let d = index.decl(e);
        d.kind == DeclKind::Method || d.impl_of.is_some()
    })
}

/// An outside implicit receiver whose members are not known: its member is the
/// answer, unless the tree answers further out (then the two compete).
fn unless_found_further(
    cx: &Cx,
    site: Site,
    call: &Call,
    name: &str,
    outer: &[Implicit],
    here: Decision,
    reason: Reason,
) -> Decision {
    match through_receivers(cx, site, call, name, outer) {
        Decision::Place(p) if matches!(p.target(), Target::InTree(_)) => Decision::Refuse(reason),
        // Further out, something of the tree may answer (an abstention there).
        Decision::Refuse(_) => Decision::Refuse(reason),
        _ => here,
    }
}

/// A top-level name: an explicit import, the file's package, a star import, the
/// default imports, an outside star import.
fn top_level(cx: &Cx, site: Site, call: &Call, name: &str) -> Decision {
    let index = cx.index;
    let file = index.file(site.file);
    for import in &file.imports {
        let ImportKind::Kotlin {
            path,
            alias,
            star: false,
        } = &import.kind
        else {
            continue;
        };
        let bound = alias.as_deref().or(path.last().map(String::as_str));
        if bound != Some(name) || path.len() < 2 {
            continue;
        }
        let last = &path[path.len() - 1];
        let package = path[..path.len() - 1].join(".");
        let found = top_level_named(index, &package, last);
        if !found.is_empty() {
            if let Some(d) = before_default(cx, site, call, name, found, Family::Import) {
                return d;
            }
            break;
        }
        // `import a.Obj.f`: a member of an object of the tree.
        if let [holder] = index.java_type(&package) {
            if let Some(d) = on_tree_type(cx, site, call, *holder, last, Family::Import) {
                return d;
            }
        }
        if package_in_tree(index, &package) {
            return Decision::Unresolved;
        }
        let dotted = path.join(".");
        return outside_via(Via::Import, &dotted, dotted.clone());
    }
    if let Some(d) = own_package_or_stars(cx, site, call, name) {
        return d;
    }
    top_level_default(cx, site, name)
}

/// The caller's package, then the tree's star imports (what kotlinc reads
/// before the default imports).
fn own_package_or_stars(cx: &Cx, site: Site, call: &Call, name: &str) -> Option<Decision> {
    let index = cx.index;
    let file = index.file(site.file);
    let own = top_level_named(index, package_of(file), name);
    if !own.is_empty() {
        if let Some(d) = before_default(cx, site, call, name, own, Family::Lexical) {
            return Some(d);
        }
    }
    for (path, star) in imports(file) {
        if !star {
            continue;
        }
        let found = top_level_named(index, &path.join("."), name);
        if !found.is_empty() {
            if let Some(d) = before_default(cx, site, call, name, found, Family::Import) {
                return Some(d);
            }
        }
    }
    None
}

/// Top-level functions of the tree found before the default imports: when the
/// standard library has a default-imported function of the name, kotlinc goes
/// on to it if none of the tree's applies (Okio's `minOf(Long, Int)` beside
/// `kotlin.comparisons.minOf(Long, Long)`), so the tree's answer needs a
/// candidate the arguments surely fill; `None` when final argument types rule
/// every one out (the lookup goes on).
fn before_default(
    cx: &Cx,
    site: Site,
    call: &Call,
    name: &str,
    found: Vec<Eid>,
    family: Family,
) -> Option<Decision> {
    let shadows_default = policy::DEFAULT_FUNCTIONS.contains(&name)
        && found.iter().all(|&e| !cx.index.decl(e).kind.is_type());
    if !shadows_default {
        return Some(functions_or_construction(cx, site, call, found, family));
    }
    if found
        .iter()
        .all(|&f| overload::surely_inapplicable(cx, site.file, call, f))
    {
        return None;
    }
    if found
        .iter()
        .any(|&f| overload::surely_applies(cx, site.file, call, f))
    {
        return Some(functions_or_construction(cx, site, call, found, family));
    }
    Some(Decision::Refuse(Reason::Ambiguous))
}

/// After the tree's packages: the standard library's default imports, then an
/// outside star import.
fn top_level_default(cx: &Cx, site: Site, name: &str) -> Decision {
    let index = cx.index;
    let file = index.file(site.file);
    let mut outside_stars = Vec::new();
    for (path, star) in imports(file) {
        if !star {
            continue;
        }
        let dotted = path.join(".");
        if !package_in_tree(index, &dotted) && index.java_type(&dotted).is_empty() {
            outside_stars.push(dotted);
        }
    }
    if policy::ANY_MEMBERS.contains(&name) && !receivers_empty(cx, site) {
        // `apply { … }` written bare is `this.apply { … }`: the standard library's
        // extension on every type (or `Any`'s own member).
        return builtin(format!("kotlin.{name}"));
    }
    if policy::DEFAULT_FUNCTIONS.contains(&name) {
        let symbol = match policy::default_type(name) {
            Some(p) => format!("{p}.{name}"),
            None => format!("kotlin.{name}"),
        };
        return builtin(symbol);
    }
    match outside_stars.as_slice() {
        [one] => outside_via(Via::Import, one, format!("{one}.{name}")),
        [_, ..] => Decision::Place(Placement::outside(
            OutsideKind::External,
            name.to_string(),
            Family::ExternalImport,
        )),
        [] => Decision::Pass,
    }
}

/// Whether no implicit receiver is in scope (a top-level function's body).
fn receivers_empty(cx: &Cx, site: Site) -> bool {
    implicit_receivers(cx, site).is_empty()
}

/// A package's top-level declarations of a name that a bare call can reach
/// (not extensions: those need a receiver).
fn top_level_named(index: &TreeIndex, package: &str, name: &str) -> Vec<Eid> {
    index
        .kotlin_package_name(package, name)
        .iter()
        .copied()
        .filter(|&e| index.decl(e).impl_of.is_none())
        .collect()
}

/// Functions and classes of one name at one level: functions are placed; a class
/// is constructed; both at once compete by the arguments (a factory function
/// named like its class).
fn functions_or_construction(
    cx: &Cx,
    site: Site,
    call: &Call,
    found: Vec<Eid>,
    family: Family,
) -> Decision {
    let (types, functions): (Vec<Eid>, Vec<Eid>) = found
        .into_iter()
        .partition(|&e| cx.index.decl(e).kind.is_type());
    match (types.as_slice(), functions.is_empty()) {
        ([], false) => Decision::Place(Placement::in_tree(functions, family)),
        ([t], true) => construct(cx, site, call, *t, Family::Construction),
        ([t], false) => {
            let fns = overload::fitting(cx, call, &functions);
            match construct(cx, site, call, *t, Family::Construction) {
                Decision::Place(p) => {
                    let ctors: Vec<Eid> = p_targets(&p)
                        .iter()
                        .copied()
                        .filter(|&c| cx.index.decl(c).kind == DeclKind::Constructor)
                        .collect();
                    let ctors_fit = match p.target() {
                        Target::InTree(_) => {
                            ctors.is_empty() && call.args.is_empty()
                                || !overload::fitting(cx, call, &ctors).is_empty()
                        }
                        Target::Outside { .. } => true,
                    };
                    match (ctors_fit, fns.is_empty()) {
                        (true, true) => Decision::Place(p),
                        (false, false) => Decision::Place(Placement::in_tree(fns, family)),
                        (true, false)
                            if only_by_vararg(cx, &fns) && !only_by_vararg(cx, p_targets(&p)) =>
                        {
                            Decision::Place(p)
                        }
                        (true, false) if !ctors.is_empty() => {
                            function_or_constructor(cx, site, call, fns, ctors, family)
                        }
                        _ => Decision::Refuse(Reason::Ambiguous),
                    }
                }
                _ if !fns.is_empty() => Decision::Place(Placement::in_tree(fns, family)),
                other => other,
            }
        }
        _ => Decision::Refuse(Reason::Ambiguous),
    }
}

/// Functions and a class's constructors that the arguments may both fill are one
/// candidate set to kotlinc: the one its ranking puts first (`overload::pick`),
/// or an abstention.
fn function_or_constructor(
    cx: &Cx,
    site: Site,
    call: &Call,
    functions: Vec<Eid>,
    ctors: Vec<Eid>,
    family: Family,
) -> Decision {
    let mut candidates = functions;
    candidates.extend(ctors);
    match overload::pick(cx, site.file, call, &candidates) {
        Some(c) if cx.index.decl(c).kind == DeclKind::Constructor => {
            Decision::Place(Placement::in_tree(vec![c], Family::Construction))
        }
        Some(f) => Decision::Place(Placement::in_tree(vec![f], family)),
        None => Decision::Refuse(Reason::Ambiguous),
    }
}

/// Whether every candidate takes a `vararg`: Kotlin prefers a candidate that
/// needs no vararg expansion (`fun JsonArray(vararg a: Any) = JsonArray(list)`
/// calls the class's constructor, not itself).
fn only_by_vararg(cx: &Cx, candidates: &[Eid]) -> bool {
    !candidates.is_empty()
        && candidates
            .iter()
            .all(|&c| cx.index.decl(c).params.iter().any(|p| p.variadic))
}

fn p_targets(p: &Placement) -> &[Eid] {
    match p.target() {
        Target::InTree(ts) => ts,
        Target::Outside { .. } => &[],
    }
}

/// `a.f(…)` and `a f b`.
fn member_call(cx: &Cx, file: u32, call: &Call) -> Decision {
    let (CallKind::Call, Callee::Member { receiver, name }) = (call.kind, &call.callee) else {
        return Decision::Pass;
    };
    let site = call_site(file, call);
    match receiver {
        Receiver::Super => super_call(cx, site, call, name),
        Receiver::Path(p) if p.len() == 1 && p[0] == "this" => {
            match implicit_receivers(cx, site).into_iter().next() {
                Some(r) => on_recv(cx, site, call, name, Recv::Value(r.ty, r.family)),
                None => Decision::Refuse(Reason::ReceiverTypeUnknown),
            }
        }
        _ => {
            let recv = receiver_recv(cx, site, receiver);
            if let (Recv::Unknown(_), Receiver::Path(p)) = (&recv, receiver) {
                if let Some(d) = package_qualified(cx, site, call, p, name) {
                    return d;
                }
            }
            match on_recv(cx, site, call, name, recv) {
                Decision::Unresolved if function_typed_local(cx, site, name) => {
                    Decision::Refuse(Reason::DynamicCallee)
                }
                d => d,
            }
        }
    }
}

/// Whether `name` is a parameter or local of function type in scope
/// (`fun html(build: Html.() -> Unit) { h.build() }` invokes it on `h`).
fn function_typed_local(cx: &Cx, site: Site, name: &str) -> bool {
    let file = cx.index.file(site.file);
    let Some((_, b)) = lexical_binding(file, site, name) else {
        return false;
    };
    let ty = match &b.value {
        BindingValue::Param { ty: Some(t), .. } | BindingValue::Typed { ty: t, .. } => t,
        _ => return false,
    };
    matches!(ty.last(), Some("<fn>" | "<fn-receiver>"))
}

/// `a.b.f()` where `a.b` is a package of the tree (and no value is named `a`):
/// the package's top-level function or class `f`.
fn package_qualified(
    cx: &Cx,
    site: Site,
    call: &Call,
    path: &[String],
    name: &str,
) -> Option<Decision> {
    let package = path.join(".");
    let file = cx.index.file(site.file);
    // A value named like the package's first segment shadows the package.
    if !package_in_tree(cx.index, &package) || lexical_binding(file, site, &path[0]).is_some() {
        return None;
    }
    let found = top_level_named(cx.index, &package, name);
    if found.is_empty() {
        return Some(Decision::Unresolved);
    }
    Some(functions_or_construction(
        cx,
        site,
        call,
        found,
        Family::QualifiedPath,
    ))
}

/// `super.m()`: the member as the class's bases declare it.
fn super_call(cx: &Cx, site: Site, call: &Call, name: &str) -> Decision {
    let Some(&own) = enclosing_types(cx.index, site.file, site.decl).first() else {
        return Decision::Refuse(Reason::ReceiverTypeUnknown);
    };
    for &b in cx.hierarchy.bases(own) {
        if let Some(d) = members_named(cx, site, call, b, name, Family::Inheritance) {
            return d;
        }
    }
    if cx.hierarchy.has_unknown_base(own) {
        return foreign(format!("{}.{name}", cx.index.decl(own).name));
    }
    if policy::ANY_MEMBERS.contains(&name) {
        return builtin(format!("kotlin.Any.{name}"));
    }
    Decision::Unresolved
}

// ----- what a placed call yields ---------------------------------------------------------

fn in_tree_result(
    cx: &Cx,
    file: u32,
    call: &Call,
    placement: &Placement,
    targets: &[Eid],
) -> Option<Eval> {
    if let Some(named) = placement.named() {
        return declaration_result(cx, file, call, named);
    }
    let results: Vec<Option<Eval>> = targets
        .iter()
        .map(|&t| declaration_result(cx, file, call, t))
        .collect();
    if results.windows(2).all(|w| w[0] == w[1]) {
        return results.into_iter().next().flatten();
    }
    let picked = overload::pick(cx, file, call, cx.index.same_qualified_name(targets[0]))?;
    declaration_result(cx, file, call, picked)
}

fn declaration_result(cx: &Cx, file: u32, call: &Call, target: Eid) -> Option<Eval> {
    let decl = cx.index.decl(target);
    let instance = |t: Eid| Some(Eval::new(Val::Instance(t), Family::Construction));
    if decl.kind.is_type() {
        // A class constructed, a data class's `copy`, an enum's `valueOf`.
        return match call.name() {
            "values" | "hashCode" | "equals" | "toString" => None,
            n if is_component(n) => None,
            _ => instance(target),
        };
    }
    match decl.kind {
        DeclKind::Constructor => cx.index.enclosing_type(target).and_then(instance),
        DeclKind::Method | DeclKind::Function => {
            if let Some(written) = &decl.returns {
                return match ty_of(cx, Site::of_decl(cx.index, target), written) {
                    Ty::Tree(t) => Some(Eval::new(Val::Instance(t), Family::ReturnType)),
                    Ty::Outside { fqn, .. } => {
                        Some(Eval::new(Val::ForeignInstance(fqn), Family::ReturnType))
                    }
                    _ => None,
                };
            }
            match &decl.returns_value {
                Some(ReturnValue::SelfValue) => {
                    let receiver_ty = match &call.callee {
                        Callee::Member { receiver, .. } => {
                            match receiver_recv(cx, call_site(file, call), receiver) {
                                Recv::Value(Ty::Tree(t), _) => Some(t),
                                _ => None,
                            }
                        }
                        _ => cx.index.enclosing_type(target),
                    };
                    receiver_ty.map(|t| Eval::new(Val::Instance(t), Family::ReturnType))
                }
                Some(ReturnValue::CallResult(i)) => cx
                    .results
                    .get(target.file, *i)
                    .map(|e| Eval::new(e.val.clone(), Family::ReturnType)),
                _ => None,
            }
        }
        _ => None,
    }
}

/// The outside calls whose result the resolver follows: `apply`/`also`/`takeIf`
/// hand back their receiver; a construction of an outside class is an instance of
/// it; `toString()` is a String.
fn outside_result(cx: &Cx, file: u32, call: &Call) -> Option<Eval> {
    let site = call_site(file, call);
    let name = call.name();
    match &call.callee {
        Callee::Member { receiver, .. }
            if matches!(name, "apply" | "also" | "takeIf" | "takeUnless") =>
        {
            match receiver_recv(cx, site, receiver) {
                Recv::Value(Ty::Tree(t), _) => {
                    Some(Eval::new(Val::Instance(t), Family::ReturnType))
                }
                Recv::Value(Ty::Outside { fqn, .. }, _) => {
                    Some(Eval::new(Val::ForeignInstance(fqn), Family::ReturnType))
                }
                _ => None,
            }
        }
        Callee::Name(n) if matches!(n.as_str(), "apply" | "also") => {
            match implicit_receivers(cx, site).into_iter().next() {
                Some(Implicit {
                    ty: Ty::Tree(t), ..
                }) => Some(Eval::new(Val::Instance(t), Family::ReturnType)),
                _ => None,
            }
        }
        _ if name == "toString" => Some(Eval::new(
            Val::ForeignInstance("kotlin.String".into()),
            Family::ReturnType,
        )),
        Callee::Member { receiver, .. } if policy::collection_copy_result(name).is_some() => {
            match receiver_recv(cx, site, receiver) {
                Recv::Value(Ty::Outside { fqn, .. }, _)
                    if fqn.starts_with("kotlin.collections.") =>
                {
                    Some(Eval::new(
                        Val::ForeignInstance(policy::collection_copy_result(name)?.into()),
                        Family::ReturnType,
                    ))
                }
                _ => None,
            }
        }
        // The standard library's conversions (members of the numbers and `Char`,
        // extensions on `String`) all return the type they name.
        Callee::Member { .. } if policy::conversion_result(name).is_some() => Some(Eval::new(
            Val::ForeignInstance(policy::conversion_result(name)?.into()),
            Family::ReturnType,
        )),
        Callee::Name(n) if n.chars().next().is_some_and(char::is_uppercase) => {
            match resolve_simple(tcx(cx), site, n) {
                Named::Outside { fqn, .. } => {
                    Some(Eval::new(Val::ForeignInstance(fqn), Family::ReturnType))
                }
                _ => None,
            }
        }
        _ => None,
    }
}

// ----- references ------------------------------------------------------------------------

/// `::f`, `A::f`, `a::f`: in-tree targets only.
fn reference(cx: &Cx, file: u32, r: &ValueRef) -> Option<Placement> {
    let site = Site {
        file,
        decl: r.caller,
        scope: r.scope,
        line: r.line,
    };
    let probe = Call::of_ref(r, true);
    let decision = match &r.target {
        Callee::Name(name) => {
            let receivers = implicit_receivers(cx, site);
            through_receivers(cx, site, &probe, name, &receivers)
        }
        Callee::Member {
            receiver: Receiver::Path(p),
            name,
        } => {
            let recv = match eval_path(cx, site, p) {
                // `Type::f` names an unbound member of Type.
                Recv::TypeName(t) if !has_modifier(cx.index.decl(t), "object") => {
                    Recv::Value(Ty::Tree(t), Family::QualifiedPath)
                }
                other => other,
            };
            on_recv(cx, site, &probe, name, recv)
        }
        _ => return None,
    };
    match decision {
        Decision::Place(p) if matches!(p.target(), Target::InTree(_)) => Some(p),
        _ => None,
    }
}
