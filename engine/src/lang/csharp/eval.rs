//! The static type of what a call names as its receiver or passes as an
//! argument, from what the source writes: a variable's declared type, a field's or
//! property's written type (walked one member at a time, typed for the receiver's
//! type arguments), a construction, a cast, a literal, an element of a collection,
//! or a call's declared return type.
//!
//! A call's result is evaluated on the spot: the link is resolved with the same
//! rules (each link once per outermost evaluation, at most [`CHAIN_DEPTH`] deep),
//! so a result keeps its type arguments (`List<Node> Children()` →
//! `Children()[0].M()`), which the shared chain rounds' values cannot carry.

use std::cell::RefCell;

use crate::facts::{
    ArgShape, BindingValue, Call, CallKind, Callee, LiteralType, Receiver, TypeRef, ValueExpr,
};
use crate::fasthash::FastMap;
use crate::index::{Eid, TreeIndex};
use crate::lang::csharp::frontend::ELEMENT;
use crate::lang::csharp::lookup::{ancestry, field, own_instance, own_type, variable, Var};
use crate::lang::csharp::policy::{self, ForeignResult};
use crate::lang::csharp::types::{resolve_type, type_prefix, Named, Site, Via};
use crate::resolve::family::{Family, Reason};
use crate::resolve::{Cx, Resolution, Target};

/// A value's static type, as far as receivers and overloads need it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CsType {
    /// A type of the tree (canonical part) with its type arguments.
    Class(Eid, Vec<CsType>),
    /// A type the tree does not declare, by its best known full name.
    Foreign(String, Vec<CsType>),
    /// A value type written by its keyword (`int`, `bool`, `decimal`…).
    Prim(&'static str),
    /// An `int` constant (a literal): it also converts to a narrower integral
    /// type when its value fits, which the engine does not know.
    IntLiteral,
    Array(Box<CsType>),
    /// A type parameter of a type (canonical part) or a method.
    TypeParam(Eid, String),
    Null,
    /// A lambda or anonymous method: its type is the parameter's.
    Lambda,
    Dynamic,
    Unknown,
}

impl CsType {
    /// The type's full name for an outside symbol (`System.String`, `int[]`, `JToken`).
    pub fn text(&self, index: &TreeIndex) -> String {
        match self {
            CsType::Class(e, _) => index.decl(*e).name.clone(),
            CsType::Foreign(f, _) => f.clone(),
            CsType::Prim(p) => policy::fqn_of_keyword(p).unwrap_or(p).to_string(),
            CsType::IntLiteral => "System.Int32".to_string(),
            CsType::Array(e) => format!("{}[]", e.text(index)),
            _ => "?".to_string(),
        }
    }
}

/// Where a call is written.
pub fn call_site(file: u32, call: &Call) -> Site {
    Site {
        file,
        decl: call.caller,
        scope: Some(call.scope),
        line: call.line,
    }
}

/// The static type a written type denotes at `site`.
pub fn cstype(index: &TreeIndex, site: Site, ty: &TypeRef) -> CsType {
    cstype_bounded(index, site, ty, 0)
}

fn cstype_bounded(index: &TreeIndex, site: Site, ty: &TypeRef, depth: u32) -> CsType {
    if depth > 16 {
        return CsType::Unknown;
    }
    if ty.array {
        if let ([], [element]) = (ty.path.as_slice(), ty.args.as_slice()) {
            return CsType::Array(Box::new(cstype_bounded(index, site, element, depth + 1)));
        }
        let element = TypeRef {
            array: false,
            ..ty.clone()
        };
        return CsType::Array(Box::new(cstype_bounded(index, site, &element, depth + 1)));
    }
    let args = || {
        ty.args
            .iter()
            .map(|a| cstype_bounded(index, site, a, depth + 1))
            .collect::<Vec<_>>()
    };
    match resolve_type(index, site, &ty.path, ty.args.len()) {
        Named::InTree(e) => CsType::Class(e, args()),
        Named::Outside { fqn, .. } => foreign(fqn, args()),
        Named::Primitive(p) => CsType::Prim(p),
        Named::TypeParam { owner, name } => CsType::TypeParam(owner, name),
        Named::Dynamic => CsType::Dynamic,
        _ => CsType::Unknown,
    }
}

/// An outside type by name; `System.Int32` is `int`.
pub fn foreign(fqn: String, args: Vec<CsType>) -> CsType {
    match policy::keyword_of(&fqn) {
        Some(k) if policy::is_value_keyword(k) => CsType::Prim(k),
        _ => CsType::Foreign(fqn, args),
    }
}

/// Replace the type parameters `params` by `args` (a type's members seen through
/// an instantiation of it); a parameter with no argument becomes unknown.
pub fn substitute(ty: &CsType, params: &[(Eid, String)], args: &[CsType]) -> CsType {
    if params.is_empty() {
        return ty.clone();
    }
    match ty {
        CsType::TypeParam(owner, name) => {
            match params.iter().position(|(o, n)| o == owner && n == name) {
                Some(i) => args.get(i).cloned().unwrap_or(CsType::Unknown),
                None => ty.clone(),
            }
        }
        CsType::Class(e, a) => {
            CsType::Class(*e, a.iter().map(|t| substitute(t, params, args)).collect())
        }
        CsType::Foreign(f, a) => CsType::Foreign(
            f.clone(),
            a.iter().map(|t| substitute(t, params, args)).collect(),
        ),
        CsType::Array(e) => CsType::Array(Box::new(substitute(e, params, args))),
        other => other.clone(),
    }
}

/// The type parameters of a type of the tree and the arguments an instance of it
/// writes (for `substitute`).
pub fn instantiation(index: &TreeIndex, ty: &CsType) -> (Vec<(Eid, String)>, Vec<CsType>) {
    match ty {
        CsType::Class(e, args) => (
            index
                .decl(*e)
                .type_params
                .iter()
                .map(|p| (*e, p.clone()))
                .collect(),
            args.clone(),
        ),
        _ => (Vec::new(), Vec::new()),
    }
}

pub fn literal_type(l: LiteralType) -> CsType {
    match l {
        LiteralType::Int => CsType::IntLiteral,
        LiteralType::Long => CsType::Prim("long"),
        LiteralType::Float => CsType::Prim("float"),
        LiteralType::Double => CsType::Prim("double"),
        LiteralType::Char => CsType::Prim("char"),
        LiteralType::Bool => CsType::Prim("bool"),
        LiteralType::Str => CsType::Foreign("System.String".into(), Vec::new()),
        LiteralType::None => CsType::Null,
        _ => CsType::Unknown,
    }
}

/// A value's type and the family of the evidence that gave it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Typed {
    pub ty: CsType,
    pub family: Family,
}

fn written(ty: CsType) -> Option<Typed> {
    Some(Typed {
        ty,
        family: Family::WrittenType,
    })
}

/// What a receiver expression is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Recv {
    /// A value of a known static type.
    Value(Typed),
    /// A type of the tree named as the receiver (`Type.M()`).
    Type(Eid),
    /// An outside type named as the receiver (`Math.Max`, `Console.WriteLine`).
    OutsideType {
        fqn: String,
        via: Via,
    },
    Refuse(Reason),
}

/// How many nested values (a local holding a local holding a call…) one
/// evaluation follows.
const VALUE_DEPTH: u32 = 16;

/// The type a variable holds: its declared type, or what its initializer shows.
pub fn variable_type(cx: &Cx, site: Site, var: &Var, depth: u32) -> Option<Typed> {
    match var {
        Var::Local(BindingValue::Param { ty: Some(t), .. })
        | Var::Local(BindingValue::Typed { ty: t, .. }) => written(cstype(cx.index, site, t)),
        Var::Local(BindingValue::Value(v)) => value_type(cx, site, v, depth),
        Var::Local(_) => None,
        Var::Field(f) => f.ty(cx.index).and_then(written),
    }
}

/// The type of a value a local is bound to.
fn value_type(cx: &Cx, site: Site, v: &ValueExpr, depth: u32) -> Option<Typed> {
    if depth > VALUE_DEPTH {
        return None;
    }
    match v {
        ValueExpr::New(t) => written(cstype(cx.index, site, t)),
        ValueExpr::CallResult(i) => result_type(cx, site.file, *i).map(|ty| Typed {
            ty,
            family: Family::ReturnType,
        }),
        ValueExpr::Literal(l) => written(literal_type(*l)),
        ValueExpr::Lambda(_) => written(CsType::Lambda),
        ValueExpr::Name(n) => {
            let var = variable(cx, site, n)?;
            variable_type(cx, site, &var, depth + 1)
        }
        ValueExpr::Attribute { path } => match type_of_path(cx, site, path, depth + 1) {
            PathType::Value(t) => Some(t),
            _ => None,
        },
        ValueExpr::Element(inner) => {
            let t = value_type(cx, site, inner, depth + 1)?;
            let element = element_type(cx, &t.ty, false)?;
            Some(Typed {
                ty: element,
                family: t.family,
            })
        }
        _ => None,
    }
}

/// What a dotted path written at `site` is: a value (variable, `this`, a static
/// field, then members one at a time), a type of the tree, or an outside type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PathType {
    Value(Typed),
    Type(Eid),
    OutsideType { fqn: String, via: Via },
    Refuse(Reason),
}

pub fn type_of_path(cx: &Cx, site: Site, path: &[String], depth: u32) -> PathType {
    let Some(first) = path.first() else {
        return PathType::Refuse(Reason::ReceiverTypeUnknown);
    };
    if first == "this" {
        let Some(own) = site.decl.and_then(|d| own_type(cx.index, site.file, d)) else {
            return PathType::Refuse(Reason::ReceiverTypeUnknown);
        };
        return walk_members(
            cx,
            Typed {
                ty: own_instance(cx.index, own),
                family: Family::OwnType,
            },
            &path[1..],
        );
    }
    // A variable shadows a type of the same name.
    if let Some(var) = variable(cx, site, first) {
        return match variable_type(cx, site, &var, depth) {
            Some(t) => walk_members(cx, t, &path[1..]),
            None => PathType::Refuse(Reason::ReceiverTypeUnknown),
        };
    }
    match type_prefix(cx.index, site, path) {
        (Named::InTree(t), used) if used >= path.len() => PathType::Type(t),
        (Named::InTree(t), used) => {
            // `Type.Field…`: a static member, typed like any field.
            let anc = ancestry(cx, t, &[]);
            let Some(f) = field(cx, &anc, &path[used]) else {
                return PathType::Refuse(Reason::ReceiverTypeUnknown);
            };
            match f.ty(cx.index) {
                Some(ty) => walk_members(
                    cx,
                    Typed {
                        ty,
                        family: Family::WrittenType,
                    },
                    &path[used + 1..],
                ),
                None => PathType::Refuse(Reason::ReceiverTypeUnknown),
            }
        }
        (Named::Outside { fqn, via }, used) => {
            let rest = &path[used.min(path.len())..];
            if rest.is_empty() {
                return PathType::OutsideType { fqn, via };
            }
            // A static member of an outside type: its type is not known, except
            // where the policy knows it (`string.Empty`).
            match outside_static_member(&fqn, rest) {
                Some(ty) => walk_members(
                    cx,
                    Typed {
                        ty,
                        family: Family::WrittenType,
                    },
                    &rest[1..],
                ),
                None => PathType::OutsideType {
                    fqn: format!("{fqn}.{}", rest.join(".")),
                    via,
                },
            }
        }
        (Named::Primitive(p), 1) if path.len() == 1 => PathType::OutsideType {
            fqn: policy::fqn_of_keyword(p).unwrap_or(p).to_string(),
            via: Via::Predefined,
        },
        (Named::Primitive(p), _) => PathType::OutsideType {
            fqn: format!(
                "{}.{}",
                policy::fqn_of_keyword(p).unwrap_or(p),
                path[1..].join(".")
            ),
            via: Via::Predefined,
        },
        (Named::Unresolved, _) => PathType::Refuse(Reason::NoDeclaration),
        (Named::Ambiguous, _) => PathType::Refuse(Reason::Ambiguous),
        (Named::Dynamic, _) => PathType::Refuse(Reason::DynamicCallee),
        _ => PathType::Refuse(Reason::ReceiverTypeUnknown),
    }
}

/// `string.Empty` and the like: static fields of outside types whose type is known.
fn outside_static_member(fqn: &str, rest: &[String]) -> Option<CsType> {
    match (fqn, rest.first().map(String::as_str)) {
        ("System.String", Some("Empty")) => {
            Some(CsType::Foreign("System.String".into(), Vec::new()))
        }
        // The culture every `FormatWith(CultureInfo.InvariantCulture, …)` passes.
        (f, Some("InvariantCulture" | "CurrentCulture" | "CurrentUICulture"))
            if f.rsplit('.').next() == Some("CultureInfo") =>
        {
            Some(CsType::Foreign(
                "System.Globalization.CultureInfo".into(),
                Vec::new(),
            ))
        }
        _ => None,
    }
}

/// Follow members one at a time through their written types, each typed for the
/// instantiation of the type it is read from.
pub fn walk_members(cx: &Cx, start: Typed, segments: &[String]) -> PathType {
    let mut cur = start;
    for seg in segments {
        let next = if seg == ELEMENT {
            element_type(cx, &cur.ty, true)
        } else {
            member_type(cx, &cur.ty, seg)
        };
        let Some(ty) = next else {
            return PathType::Refuse(Reason::ReceiverTypeUnknown);
        };
        let family = if cur.family == Family::OwnType {
            Family::WrittenType
        } else {
            cur.family
        };
        cur = Typed { ty, family };
    }
    PathType::Value(cur)
}

/// The type of a field, property or event read from a value of type `ty`.
fn member_type(cx: &Cx, ty: &CsType, name: &str) -> Option<CsType> {
    match ty {
        CsType::Class(t, args) => {
            let anc = ancestry(cx, *t, args);
            if let Some(f) = field(cx, &anc, name) {
                return f.ty(cx.index);
            }
            // A property of an outside base, typed by one of its type arguments
            // where the policy knows it.
            anc.outside
                .iter()
                .find_map(|(fqn, fargs)| foreign_member(fqn, fargs, name))
        }
        CsType::Foreign(fqn, args) => foreign_member(fqn, args, name),
        CsType::TypeParam(owner, p) => bounds(cx.index, *owner, p)
            .iter()
            .find_map(|b| member_type(cx, b, name)),
        _ => None,
    }
}

fn foreign_member(fqn: &str, args: &[CsType], name: &str) -> Option<CsType> {
    match policy::foreign_result(fqn, name)? {
        ForeignResult::Type(t) => Some(foreign(t.to_string(), Vec::new())),
        ForeignResult::Argument(i) => args.get(i).cloned().filter(|t| *t != CsType::Unknown),
        _ => None,
    }
}

/// The element of a collection: what `foreach` gives (`indexer` false) or what
/// `a[i]` reads (`indexer` true): an array's element, a well-known collection's
/// type argument, or a tree type's indexer (or the collection interface it
/// implements).
pub fn element_type(cx: &Cx, ty: &CsType, indexer: bool) -> Option<CsType> {
    match ty {
        CsType::Array(e) => Some((**e).clone()),
        CsType::Foreign(fqn, args) => foreign_element(fqn, args, indexer),
        CsType::Class(t, args) => {
            let anc = ancestry(cx, *t, args);
            if indexer {
                if let Some(f) = field(cx, &anc, ELEMENT) {
                    return f.ty(cx.index);
                }
            }
            anc.outside
                .iter()
                .find_map(|(fqn, fargs)| foreign_element(fqn, fargs, indexer))
        }
        CsType::TypeParam(owner, p) => bounds(cx.index, *owner, p)
            .iter()
            .find_map(|b| element_type(cx, b, indexer)),
        _ => None,
    }
}

fn foreign_element(fqn: &str, args: &[CsType], indexer: bool) -> Option<CsType> {
    if fqn == "System.String" {
        return Some(CsType::Prim("char"));
    }
    let (each, index) = policy::element_argument(fqn)?;
    let position = if indexer { index } else { each };
    match position {
        Some(i) => args.get(i).cloned().filter(|t| *t != CsType::Unknown),
        // `foreach` over a dictionary gives its key-value pairs.
        None if !indexer && args.len() == 2 => Some(CsType::Foreign(
            "System.Collections.Generic.KeyValuePair".into(),
            args.to_vec(),
        )),
        None => None,
    }
}

/// The written constraints of a type parameter, as types (a type's parameter:
/// what any of its parts writes).
pub fn bounds(index: &TreeIndex, owner: Eid, name: &str) -> Vec<CsType> {
    let owners = if index.decl(owner).kind.is_type() {
        crate::lang::csharp::types::parts(index, owner)
    } else {
        vec![owner]
    };
    let mut out = Vec::new();
    for o in owners {
        let site = Site::of_decl(index, o);
        for (p, bs) in &index.decl(o).type_param_bounds {
            if p == name {
                out.extend(bs.iter().map(|b| cstype(index, site, b)));
            }
        }
    }
    out
}

/// The receiver of a member call, typed. `base` is the base rule's own.
pub fn receiver(cx: &Cx, site: Site, receiver: &Receiver) -> Recv {
    match receiver {
        Receiver::Path(p) => match type_of_path(cx, site, p, 0) {
            PathType::Value(t) => Recv::Value(t),
            PathType::Type(ty) => Recv::Type(ty),
            PathType::OutsideType { fqn, via } => Recv::OutsideType { fqn, via },
            PathType::Refuse(r) => Recv::Refuse(r),
        },
        Receiver::Call(i) => match result_type(cx, site.file, *i) {
            Some(ty) => Recv::Value(Typed {
                ty,
                family: Family::ReturnType,
            }),
            None => Recv::Refuse(Reason::ReceiverTypeUnknown),
        },
        Receiver::CallThen { call, path } => match result_type(cx, site.file, *call) {
            Some(ty) => match walk_members(
                cx,
                Typed {
                    ty,
                    family: Family::ReturnType,
                },
                path,
            ) {
                PathType::Value(t) => Recv::Value(t),
                PathType::Refuse(r) => Recv::Refuse(r),
                _ => Recv::Refuse(Reason::ReceiverTypeUnknown),
            },
            None => Recv::Refuse(Reason::ReceiverTypeUnknown),
        },
        Receiver::New(t) => Recv::Value(Typed {
            ty: cstype(cx.index, site, t),
            family: Family::WrittenType,
        }),
        Receiver::Literal(l) => Recv::Value(Typed {
            ty: literal_type(*l),
            family: Family::WrittenType,
        }),
        Receiver::Super
        | Receiver::Unknown
        | Receiver::Subscript(_)
        | Receiver::QualifiedThis(_)
        | Receiver::Scope(_) => Recv::Refuse(Reason::ReceiverTypeUnknown),
    }
}

/// An argument's static type, where what the source writes shows it.
pub fn arg_type(cx: &Cx, site: Site, arg: &ArgShape) -> CsType {
    match arg {
        ArgShape::Literal(l) => literal_type(*l),
        ArgShape::Key(k) => literal_type(k.literal_type()),
        ArgShape::Name(n) => variable(cx, site, n)
            .and_then(|v| variable_type(cx, site, &v, 0))
            .map_or(CsType::Unknown, |t| t.ty),
        ArgShape::Path(p) => match type_of_path(cx, site, p, 0) {
            PathType::Value(t) => t.ty,
            _ => CsType::Unknown,
        },
        ArgShape::New(t) | ArgShape::Cast(t) => cstype(cx.index, site, t),
        ArgShape::Call(i) => result_type(cx, site.file, *i).unwrap_or(CsType::Unknown),
        ArgShape::Lambda | ArgShape::Function(_) => CsType::Lambda,
        ArgShape::Either(a, b) => match (arg_type(cx, site, a), arg_type(cx, site, b)) {
            (CsType::Null, CsType::Prim(_)) | (CsType::Prim(_), CsType::Null) => CsType::Unknown,
            (CsType::Null, t) | (t, CsType::Null) => t,
            (x, y) if x == y => x,
            _ => CsType::Unknown,
        },
        ArgShape::ClassLiteral | ArgShape::Access(_) | ArgShape::Unknown => CsType::Unknown,
    }
}

/// How many links of a receiver chain one call may evaluate on the spot.
pub const CHAIN_DEPTH: u32 = 24;

type ChainMemo = FastMap<(u32, u32), Option<CsType>>;

thread_local! {
    /// How deep the on-the-spot evaluation is, and the links it has evaluated
    /// (a link being evaluated is `None`, which breaks a cycle).
    static CHAIN: RefCell<(u32, ChainMemo)> = RefCell::new((0, FastMap::default()));
}

/// The type a call's result has: the call is resolved now with the same rules
/// (bounded and memoised), and its target's declared return type read for the
/// receiver's instantiation.
pub fn result_type(cx: &Cx, file: u32, call: u32) -> Option<CsType> {
    let (depth, known) = CHAIN.with(|c| {
        let c = c.borrow();
        (c.0, c.1.get(&(file, call)).cloned())
    });
    if let Some(known) = known {
        return known;
    }
    if depth >= CHAIN_DEPTH {
        return None;
    }
    CHAIN.with(|c| {
        let mut c = c.borrow_mut();
        c.0 += 1;
        c.1.insert((file, call), None);
    });
    let facts = cx.index.file(file);
    let link = &facts.calls[call as usize];
    let result = match crate::resolve::run_rules(cx, file, link, None) {
        Resolution::Placed(p) => match p.target() {
            Target::InTree(targets) => in_tree_result(cx, file, link, targets),
            Target::Outside { .. } => outside_result(cx, file, link),
        },
        _ => None,
    };
    CHAIN.with(|c| {
        let mut c = c.borrow_mut();
        c.0 -= 1;
        if c.0 == 0 {
            // The outermost evaluation is done: nothing carries over to the next call.
            c.1.clear();
        } else {
            c.1.insert((file, call), result.clone());
        }
    });
    result
}

/// What an in-tree target yields: a construction an instance of its type (with
/// the type arguments written), a method its declared return type read for the
/// receiver's instantiation, or the receiver's type where every `return` hands
/// back `this`.
fn in_tree_result(cx: &Cx, file: u32, call: &Call, targets: &[Eid]) -> Option<CsType> {
    let target = match targets {
        [one] => *one,
        _ => {
            let results: Vec<Option<&TypeRef>> = targets
                .iter()
                .map(|&t| cx.index.decl(t).returns.as_ref())
                .collect();
            if results.windows(2).all(|w| w[0] == w[1]) && same_owner(cx.index, targets) {
                targets[0]
            } else {
                crate::lang::csharp::overload::pick(cx, file, call, targets)?
            }
        }
    };
    let decl = cx.index.decl(target);
    if call.kind == CallKind::New {
        let ty = match &call.callee {
            Callee::Name(_) | Callee::Member { .. } => constructed_type(cx, file, call),
            _ => None,
        };
        return ty.or_else(|| {
            let t = if decl.kind.is_type() {
                target
            } else {
                cx.index.enclosing_type(target)?
            };
            Some(CsType::Class(
                crate::lang::csharp::types::canonical(cx.index, t),
                Vec::new(),
            ))
        });
    }
    if decl.kind.is_type() || decl.kind == crate::facts::DeclKind::Constructor {
        return None;
    }
    let recv = receiver_type(cx, file, call);
    if matches!(
        decl.returns_value,
        Some(crate::facts::ReturnValue::SelfValue)
    ) {
        if let Some(r) = recv.clone() {
            return Some(r);
        }
    }
    let returns = decl.returns.as_ref()?;
    let site = Site::of_decl(cx.index, target);
    let declared = cstype(cx.index, site, returns);
    if let Some(k) = identity_parameter(decl, returns) {
        // `T M<T>(T x)`: the result has the argument's type.
        let argument = call.args.get(k)?;
        let t = arg_type(cx, call_site(file, call), argument);
        return known(t);
    }
    let declared = match recv {
        Some(r) => for_receiver(cx, &declared, &r, target),
        None => declared,
    };
    known(declared)
}

fn known(t: CsType) -> Option<CsType> {
    match t {
        CsType::Unknown | CsType::Null | CsType::Lambda => None,
        CsType::IntLiteral => Some(CsType::Prim("int")),
        t => Some(t),
    }
}

fn same_owner(index: &TreeIndex, targets: &[Eid]) -> bool {
    let owners: Vec<Option<Eid>> = targets.iter().map(|&t| index.enclosing_type(t)).collect();
    owners.windows(2).all(|w| w[0] == w[1])
}

/// A member's declared type seen through the receiver: the type parameters of
/// the type that declares it replaced by the receiver's instantiation of that type.
pub fn for_receiver(cx: &Cx, declared: &CsType, recv: &CsType, member: Eid) -> CsType {
    let Some(owner) = cx.index.enclosing_type(member) else {
        return declared.clone();
    };
    let owner = crate::lang::csharp::types::canonical(cx.index, owner);
    let (start, args) = match recv {
        CsType::Class(t, args) => (*t, args.clone()),
        _ => return declared.clone(),
    };
    let anc = ancestry(cx, start, &args);
    let Some((_, oargs)) = anc.types.iter().find(|(t, _)| *t == owner) else {
        return declared.clone();
    };
    let params: Vec<(Eid, String)> = cx
        .index
        .decl(owner)
        .type_params
        .iter()
        .map(|p| (owner, p.clone()))
        .collect();
    substitute(declared, &params, oargs)
}

/// The one parameter typed by the method's own type parameter that the method
/// returns (`T M<T>(T x)`).
fn identity_parameter(decl: &crate::facts::Decl, returns: &TypeRef) -> Option<usize> {
    let [t] = returns.path.as_slice() else {
        return None;
    };
    if returns.array || !returns.args.is_empty() || !decl.type_params.contains(t) {
        return None;
    }
    let positions: Vec<usize> = decl
        .params
        .iter()
        .enumerate()
        .filter(|(_, p)| {
            !p.variadic
                && p.ty
                    .as_ref()
                    .is_some_and(|ty| ty.path == returns.path && !ty.array && ty.args.is_empty())
        })
        .map(|(i, _)| i)
        .collect();
    match positions.as_slice() {
        [k] => Some(*k),
        _ => None,
    }
}

/// The type `new T<A>(…)` writes, resolved at the call.
fn constructed_type(cx: &Cx, file: u32, call: &Call) -> Option<CsType> {
    let site = call_site(file, call);
    let path = match &call.callee {
        Callee::Name(n) => vec![n.clone()],
        Callee::Member {
            receiver: Receiver::Path(p),
            name,
        } => {
            let mut path = p.clone();
            path.push(name.clone());
            path
        }
        _ => return None,
    };
    match resolve_type(cx.index, site, &path, call.type_args as usize) {
        Named::InTree(e) => Some(CsType::Class(e, Vec::new())),
        _ => None,
    }
}

/// The static type of a call's receiver (the caller's own type for `M()`).
pub fn receiver_type(cx: &Cx, file: u32, call: &Call) -> Option<CsType> {
    match &call.callee {
        Callee::Name(_) => call
            .caller
            .and_then(|c| own_type(cx.index, file, c))
            .map(|t| own_instance(cx.index, t)),
        Callee::Member {
            receiver: Receiver::Super,
            ..
        } => None,
        Callee::Member { receiver, .. } => {
            match self::receiver(cx, call_site(file, call), receiver) {
                Recv::Value(t) => Some(t.ty),
                _ => None,
            }
        }
        _ => None,
    }
}

/// The few outside calls whose result the policy knows.
fn outside_result(cx: &Cx, file: u32, call: &Call) -> Option<CsType> {
    let name = call.name();
    if call.kind == CallKind::New {
        let site = call_site(file, call);
        let path = match &call.callee {
            Callee::Name(n) => vec![n.clone()],
            Callee::Member {
                receiver: Receiver::Path(p),
                name,
            } => {
                let mut path = p.clone();
                path.push(name.clone());
                path
            }
            _ => return None,
        };
        return match resolve_type(cx.index, site, &path, call.type_args as usize) {
            Named::Outside { fqn, .. } => Some(foreign(fqn, Vec::new())),
            _ => None,
        };
    }
    let recv = match &call.callee {
        Callee::Member { receiver, .. } => self::receiver(cx, call_site(file, call), receiver),
        _ => return None,
    };
    let (fqn, args, recv_ty) = match recv {
        Recv::Value(Typed {
            ty: ty @ CsType::Foreign(..),
            ..
        }) => {
            let CsType::Foreign(f, a) = &ty else {
                unreachable!()
            };
            (f.clone(), a.clone(), ty.clone())
        }
        Recv::Value(Typed {
            ty: ty @ CsType::Prim(_),
            ..
        }) => (ty.text(cx.index), Vec::new(), ty.clone()),
        Recv::Value(Typed {
            ty: ty @ CsType::Class(..),
            ..
        }) => {
            // An outside member reached through an outside base (LINQ's `First()`
            // on a collection of the tree).
            if policy::is_element_query(name) {
                return element_type(cx, &ty, false);
            }
            return match name {
                "ToString" => Some(CsType::Foreign("System.String".into(), Vec::new())),
                _ => None,
            };
        }
        Recv::Value(Typed {
            ty: ty @ CsType::Array(_),
            ..
        }) => {
            if policy::is_element_query(name) {
                return element_type(cx, &ty, false);
            }
            return None;
        }
        Recv::OutsideType { fqn, .. } => {
            return match policy::foreign_result(&fqn, name)? {
                ForeignResult::Type(t) => Some(foreign(t.to_string(), Vec::new())),
                _ => None,
            }
        }
        _ => return None,
    };
    match policy::foreign_result(&fqn, name)? {
        ForeignResult::Type(t) => Some(foreign(t.to_string(), Vec::new())),
        ForeignResult::Receiver => Some(recv_ty),
        ForeignResult::Argument(i) => args.get(i).cloned(),
        ForeignResult::Element => element_type(cx, &recv_ty, false),
    }
}
