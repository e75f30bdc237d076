//! The static type of what a call names as its receiver or passes as an
//! argument, from what the source writes: a variable's declared type, a field's
//! written type (walked one field at a time), a construction, a cast, a literal,
//! or a call's declared return type (from the previous chain round).

use crate::facts::{ArgShape, BindingValue, Call, LiteralType, Receiver, TypeRef, ValueExpr};
use crate::index::{Eid, TreeIndex};
use crate::lang::java::lookup::{field, field_type, own_type, tcx, variable, Var};
use crate::lang::java::resolve::JAVA;
use crate::lang::java::types::{jtype, resolve_type, type_prefix, JType, Named, Site, Via};
use crate::resolve::family::{Family, Reason};
use crate::resolve::{Cx, Eval, LanguageResolver, Resolution, Val};
use std::cell::RefCell;
use std::collections::HashMap;

/// Where a call is written.
pub fn call_site(file: u32, call: &Call) -> Site {
    Site {
        file,
        decl: call.caller,
        scope: Some(call.scope),
        line: call.line,
    }
}

/// A value's type and the family of the evidence that gave it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Typed {
    pub ty: JType,
    pub family: Family,
}

/// What a receiver expression is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Recv {
    /// An instance of a type the tree declares.
    Instance {
        ty: Eid,
        family: Family,
    },
    /// An instance of a type the tree does not declare.
    Foreign {
        fqn: String,
    },
    /// A type of the tree named as the receiver (`Type.m()`).
    Type {
        ty: Eid,
    },
    /// An outside type (or one of its static fields) named as the receiver
    /// (`Math.max`, `System.out.println`).
    OutsideType {
        fqn: String,
        via: Via,
    },
    Refuse(Reason),
}

impl Recv {
    fn of(index: &TreeIndex, t: Typed) -> Recv {
        match t.ty {
            JType::Class(ty) => Recv::Instance {
                ty,
                family: t.family,
            },
            JType::Foreign(fqn) => Recv::Foreign { fqn },
            JType::Array(element) => Recv::Foreign {
                fqn: format!("{}[]", type_text(index, &element)),
            },
            // No call can have a primitive receiver.
            JType::Prim(_) => Recv::Refuse(Reason::Refused),
            JType::TypeParam | JType::Lambda | JType::Null | JType::Unknown => {
                Recv::Refuse(Reason::ReceiverTypeUnknown)
            }
        }
    }
}

/// A type's name for an outside symbol (`int[]`, `Node[]`).
pub fn type_text(index: &TreeIndex, t: &JType) -> String {
    match t {
        JType::Prim(p) => p.to_string(),
        JType::Foreign(f) => f.clone(),
        JType::Class(e) => index.decl(*e).name.clone(),
        JType::Array(e) => format!("{}[]", type_text(index, e)),
        _ => "?".to_string(),
    }
}

pub fn literal_type(l: LiteralType) -> JType {
    match l {
        LiteralType::Int => JType::Prim("int"),
        LiteralType::Long => JType::Prim("long"),
        LiteralType::Float => JType::Prim("float"),
        LiteralType::Double => JType::Prim("double"),
        LiteralType::Char => JType::Prim("char"),
        LiteralType::Bool => JType::Prim("boolean"),
        LiteralType::Str => JType::Foreign("java.lang.String".into()),
        LiteralType::None => JType::Null,
        _ => JType::Unknown,
    }
}

/// The type a call's result has, from the previous chain round.
pub fn result_type(cx: &Cx, file: u32, call: u32) -> Option<JType> {
    match cx.results.get(file, call) {
        Some(eval) => instance_type(eval),
        None => chain_link_now(cx, file, call),
    }
}

fn instance_type(eval: &Eval) -> Option<JType> {
    match &eval.val {
        Val::Instance(t) => Some(JType::Class(*t)),
        Val::ForeignInstance(f) => Some(JType::Foreign(f.clone())),
        _ => None,
    }
}

/// How many links of a receiver chain one call may evaluate on the spot.
const CHAIN_DEPTH: u32 = 24;

/// Chain links evaluated on the spot, by (file, call), for the chain being
/// resolved now.
type ChainMemo = HashMap<(u32, u32), Option<JType>>;

thread_local! {
    /// How deep the on-the-spot evaluation is, and the links it has evaluated:
    /// each link once, never deeper than `CHAIN_DEPTH`.
    static CHAIN: RefCell<(u32, ChainMemo)> = RefCell::new((0, HashMap::new()));
}

/// A link of a receiver chain the previous round has no result for (a fluent
/// chain longer than the shared chain rounds): resolve it now, bounded and
/// memoised, with the same rules the round would use.
fn chain_link_now(cx: &Cx, file: u32, call: u32) -> Option<JType> {
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
    CHAIN.with(|c| c.borrow_mut().0 += 1);
    let facts = cx.index.file(file);
    let link = &facts.calls[call as usize];
    let result = match crate::resolve::run_rules(cx, file, link, None) {
        Resolution::Placed(p) => JAVA
            .call_result(cx, file, link, &p)
            .as_ref()
            .and_then(instance_type),
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

/// The type a variable holds: its declared type, or what its initializer shows.
pub fn variable_type(cx: &Cx, site: Site, var: Var) -> Option<Typed> {
    let written = |ty| {
        Some(Typed {
            ty,
            family: Family::WrittenType,
        })
    };
    match var {
        Var::Local(BindingValue::Param { ty: Some(t), .. })
        | Var::Local(BindingValue::Typed { ty: t, .. }) => written(jtype(tcx(cx), site, t)),
        Var::Local(BindingValue::Value(v)) => match v {
            ValueExpr::New(t) => written(jtype(tcx(cx), site, t)),
            ValueExpr::CallResult(i) => result_type(cx, site.file, *i).map(|ty| Typed {
                ty,
                family: Family::ReturnType,
            }),
            ValueExpr::Literal(l) => written(literal_type(*l)),
            ValueExpr::Lambda(_) => written(JType::Lambda),
            _ => None,
        },
        Var::Local(_) => None,
        Var::Field { owner, field } => field_type(field)
            .and_then(|t| written(jtype(tcx(cx), Site::of_decl(cx.index, owner), t))),
    }
}

/// What a dotted path written at `site` is: a value (variable, `this`, static
/// field, then fields one at a time), a type of the tree, or an outside type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PathType {
    Value(Typed),
    Type(Eid),
    OutsideType { fqn: String, via: Via },
    Refuse(Reason),
}

pub fn type_of_path(cx: &Cx, site: Site, path: &[String]) -> PathType {
    let Some(first) = path.first() else {
        return PathType::Refuse(Reason::ReceiverTypeUnknown);
    };
    if first == "this" {
        let Some(own) = site.decl.and_then(|d| own_type(cx.index, site.file, d)) else {
            return PathType::Refuse(Reason::ReceiverTypeUnknown);
        };
        return walk_fields(
            cx,
            Typed {
                ty: JType::Class(own),
                family: Family::OwnType,
            },
            &path[1..],
        );
    }
    // A variable shadows a type of the same name.
    if let Some(var) = variable(cx, site, first) {
        return match variable_type(cx, site, var) {
            Some(t) => walk_fields(cx, t, &path[1..]),
            None => PathType::Refuse(Reason::ReceiverTypeUnknown),
        };
    }
    match type_prefix(tcx(cx), site, path) {
        (Named::InTree(t), used) if used >= path.len() => PathType::Type(t),
        (Named::InTree(t), used) => walk_fields(
            cx,
            Typed {
                ty: JType::Class(t),
                family: Family::WrittenType,
            },
            &path[used..],
        ),
        // A static field of an outside type is itself outside (static fields cannot
        // be typed by the class's type parameters).
        (Named::Outside { fqn, via }, used) => {
            let rest = &path[used.min(path.len())..];
            let fqn = if rest.is_empty() {
                fqn
            } else {
                format!("{fqn}.{}", rest.join("."))
            };
            PathType::OutsideType { fqn, via }
        }
        (Named::Unresolved, _) => PathType::Refuse(Reason::NoDeclaration),
        (Named::Ambiguous, _) => PathType::Refuse(Reason::Ambiguous),
        _ => PathType::Refuse(Reason::ReceiverTypeUnknown),
    }
}

/// The path segment the frontend writes for an array element (`a[i]` is the path
/// `a`, `[]`).
pub const ELEMENT: &str = "[]";

/// Follow fields one at a time through their written types.
pub fn walk_fields(cx: &Cx, start: Typed, segments: &[String]) -> PathType {
    let mut cur = start;
    for seg in segments {
        if seg == ELEMENT {
            // `a[i]`: the array's element type.
            let JType::Array(element) = cur.ty else {
                return PathType::Refuse(Reason::ReceiverTypeUnknown);
            };
            cur = Typed {
                ty: *element,
                family: cur.family,
            };
            continue;
        }
        let JType::Class(t) = cur.ty else {
            // A field of an outside type may be typed by one of its type arguments,
            // which can be a type of the tree: no answer.
            return PathType::Refuse(Reason::ReceiverTypeUnknown);
        };
        let Some((owner, f)) = field(cx, t, seg) else {
            return PathType::Refuse(Reason::ReceiverTypeUnknown);
        };
        let Some(ty) = field_type(f) else {
            return PathType::Refuse(Reason::ReceiverTypeUnknown);
        };
        let family = if cur.family == Family::OwnType {
            Family::WrittenType
        } else {
            cur.family
        };
        cur = Typed {
            ty: jtype(tcx(cx), Site::of_decl(cx.index, owner), ty),
            family,
        };
    }
    PathType::Value(cur)
}

/// The type a receiver's declaration writes, with its type arguments, and where
/// it is written: a variable or a field path (`this.a.b`, `xs`). Only written
/// types carry arguments (`List<Node>`); a call's result does not.
pub fn written_receiver_type<'a>(
    cx: &Cx<'a>,
    site: Site,
    receiver: &Receiver,
) -> Option<(&'a TypeRef, Site)> {
    let Receiver::Path(path) = receiver else {
        return None;
    };
    let (first, rest) = path.split_first()?;
    let mut cur: (&TypeRef, Site) = if first == "this" {
        let own = own_type(cx.index, site.file, site.decl?)?;
        let (seg, rest2) = rest.split_first()?;
        let (owner, f) = field(cx, own, seg)?;
        return walk_written(cx, (field_type(f)?, Site::of_decl(cx.index, owner)), rest2);
    } else {
        match variable(cx, site, first)? {
            Var::Local(BindingValue::Param { ty: Some(t), .. })
            | Var::Local(BindingValue::Typed { ty: t, .. }) => (t, site),
            Var::Local(_) => return None,
            Var::Field { owner, field } => (field_type(field)?, Site::of_decl(cx.index, owner)),
        }
    };
    cur = walk_written(cx, cur, rest)?;
    Some(cur)
}

fn walk_written<'a>(
    cx: &Cx<'a>,
    start: (&'a TypeRef, Site),
    rest: &[String],
) -> Option<(&'a TypeRef, Site)> {
    let mut cur = start;
    for seg in rest {
        if seg == ELEMENT {
            return None;
        }
        let JType::Class(t) = jtype(tcx(cx), cur.1, cur.0) else {
            return None;
        };
        let (owner, f) = field(cx, t, seg)?;
        cur = (field_type(f)?, Site::of_decl(cx.index, owner));
    }
    Some(cur)
}

/// The receiver of a member call, typed. `super` is the super rule's own.
pub fn receiver(cx: &Cx, site: Site, receiver: &Receiver) -> Recv {
    match receiver {
        Receiver::Path(p) => match type_of_path(cx, site, p) {
            PathType::Value(t) => Recv::of(cx.index, t),
            PathType::Type(ty) => Recv::Type { ty },
            PathType::OutsideType { fqn, via } => Recv::OutsideType { fqn, via },
            PathType::Refuse(r) => Recv::Refuse(r),
        },
        Receiver::Call(i) => match result_type(cx, site.file, *i) {
            Some(ty) => Recv::of(
                cx.index,
                Typed {
                    ty,
                    family: Family::ReturnType,
                },
            ),
            None => Recv::Refuse(Reason::ReceiverTypeUnknown),
        },
        Receiver::CallThen { call, path } => match result_type(cx, site.file, *call) {
            Some(ty) => match walk_fields(
                cx,
                Typed {
                    ty,
                    family: Family::ReturnType,
                },
                path,
            ) {
                PathType::Value(t) => Recv::of(cx.index, t),
                PathType::Refuse(r) => Recv::Refuse(r),
                _ => Recv::Refuse(Reason::ReceiverTypeUnknown),
            },
            None => Recv::Refuse(Reason::ReceiverTypeUnknown),
        },
        Receiver::New(t) => Recv::of(
            cx.index,
            Typed {
                ty: jtype(tcx(cx), site, t),
                family: Family::WrittenType,
            },
        ),
        Receiver::Literal(l) => Recv::of(
            cx.index,
            Typed {
                ty: literal_type(*l),
                family: Family::WrittenType,
            },
        ),
        Receiver::QualifiedThis(name) => {
            match resolve_type(tcx(cx), site, std::slice::from_ref(name)) {
                Named::InTree(ty) => Recv::Instance {
                    ty,
                    family: Family::OwnType,
                },
                Named::Ambiguous => Recv::Refuse(Reason::Ambiguous),
                _ => Recv::Refuse(Reason::ReceiverTypeUnknown),
            }
        }
        // C++ only.
        Receiver::Scope(_) => Recv::Refuse(Reason::UnsupportedSyntax),
        Receiver::Super | Receiver::Unknown | Receiver::Subscript(_) => {
            Recv::Refuse(Reason::ReceiverTypeUnknown)
        }
    }
}

/// An argument's static type, where what the source writes shows it.
pub fn arg_type(cx: &Cx, site: Site, arg: &ArgShape) -> JType {
    match arg {
        ArgShape::Literal(l) => literal_type(*l),
        ArgShape::Key(k) => literal_type(k.literal_type()),
        ArgShape::Name(n) => variable(cx, site, n)
            .and_then(|v| variable_type(cx, site, v))
            .map_or(JType::Unknown, |t| t.ty),
        ArgShape::Path(p) => match type_of_path(cx, site, p) {
            PathType::Value(t) => t.ty,
            _ => JType::Unknown,
        },
        ArgShape::New(t) | ArgShape::Cast(t) => jtype(tcx(cx), site, t),
        ArgShape::Call(i) => result_type(cx, site.file, *i).unwrap_or(JType::Unknown),
        ArgShape::Lambda | ArgShape::Function(_) => JType::Lambda,
        ArgShape::ClassLiteral => JType::Foreign("java.lang.Class".into()),
        // `c ? a : b`: null takes the other branch's reference type (a primitive
        // would be boxed); two types agree or the result is unknown (no least
        // upper bound is computed).
        ArgShape::Either(a, b) => match (arg_type(cx, site, a), arg_type(cx, site, b)) {
            (JType::Null, JType::Prim(_)) | (JType::Prim(_), JType::Null) => JType::Unknown,
            (JType::Null, t) | (t, JType::Null) => t,
            (x, y) if x == y => x,
            _ => JType::Unknown,
        },
        ArgShape::Access(_) | ArgShape::Unknown => JType::Unknown,
    }
}

/// The value a call to `decl` yields, for the next chain round.
pub fn eval_instance(ty: &JType, family: Family) -> Option<Eval> {
    match ty {
        JType::Class(t) => Some(Eval::new(Val::Instance(*t), family)),
        JType::Foreign(f) => Some(Eval::new(Val::ForeignInstance(f.clone()), family)),
        // An array result is not carried to the next round: a foreign instance
        // named `Node[]` would read as a plain outside type, and an argument of
        // that type would contradict a `Node...` parameter it fits.
        _ => None,
    }
}
