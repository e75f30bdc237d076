//! C# overload selection on the shared phases (`resolve::overload`, the pass Java
//! uses): candidates that take the argument count (optional parameters may be
//! left out, a `params` array takes any number), then applicability without
//! boxing, with it, and in the expanded `params` form, and the better function
//! member among the applicable ones. C#'s conversions: implicit numeric
//! conversions (an `int` constant also fits a narrower integral type when its
//! value does, which the engine does not know: it may fit), reference conversions
//! through the hierarchy the tree writes, boxing to `object` and the interfaces
//! a value type implements, and user-defined implicit conversions (a type of the
//! tree that declares one may take anything).

use crate::facts::{Call, Callee, DeclKind, ScopeIdx, TypeRef};
use crate::index::Eid;
use crate::lang::csharp::eval::{
    arg_type, bounds, call_site, cstype, receiver, CsType, Recv, Typed,
};
use crate::lang::csharp::lookup::{accessible_from, ancestry, is_method, members_named};
use crate::lang::csharp::policy;
use crate::lang::csharp::types::{canonical, Site};
use crate::resolve::overload::{
    any_possible_by_phases, fits_arity, select_by_phases, Candidate, Conversions, Fit,
};
use crate::resolve::Cx;

/// The overload pass: the one declaration among `candidates` (sharing a
/// qualified name) that the call fits, or `None`.
pub fn pick(cx: &Cx, file: u32, call: &Call, candidates: &[Eid]) -> Option<Eid> {
    let bound = receiver_fills_first(cx, file, call, candidates);
    let fitting: Vec<Eid> = candidates
        .iter()
        .copied()
        .filter(|&c| {
            !is_static_constructor(cx, c)
                && accessible_from(cx.index, file, call, c)
                && fits_count(cx, call, c, bound)
        })
        .collect();
    match fitting.as_slice() {
        [] => None,
        [one] => Some(*one),
        _ => select(cx, file, call, &fitting, bound),
    }
}

/// A static constructor shares its class's constructors' name and is never called.
fn is_static_constructor(cx: &Cx, c: Eid) -> bool {
    let d = cx.index.decl(c);
    d.kind == DeclKind::Constructor && d.is_static
}

/// Whether the call's receiver is an extension method's first argument: the
/// candidates extend a type and the receiver is a value, not their class.
pub fn receiver_fills_first(cx: &Cx, file: u32, call: &Call, candidates: &[Eid]) -> bool {
    let Some(&first) = candidates.first() else {
        return false;
    };
    if cx.index.decl(first).impl_of.is_none() {
        return false;
    }
    match &call.callee {
        Callee::Member { receiver: r, .. } => {
            !matches!(receiver(cx, call_site(file, call), r), Recv::Type(_))
        }
        _ => false,
    }
}

/// Whether the call's argument count (and its type-argument count, when it
/// writes type arguments) fits a declaration.
pub fn fits_count(cx: &Cx, call: &Call, c: Eid, first_bound: bool) -> bool {
    let decl = cx.index.decl(c);
    // A construction's type arguments are its type's, not the constructor's.
    if decl.kind != DeclKind::Constructor {
        if call.type_args > 0 && decl.type_params.len() != call.type_args as usize {
            return false;
        }
        if call.type_args == 0 && !type_parameters_inferable(decl) {
            return false;
        }
    }
    call.has_splat || fits_arity(decl, call.args.len() as u32, first_bound)
}

/// A generic method called without type arguments needs every type parameter
/// inferred from the arguments: one no parameter's type mentions cannot be
/// (`Children<T>()` is no candidate for `Children()`).
fn type_parameters_inferable(decl: &crate::facts::Decl) -> bool {
    decl.type_params.iter().all(|t| {
        decl.params
            .iter()
            .any(|p| p.ty.as_ref().is_some_and(|ty| mentions(ty, t, 0)))
    })
}

fn mentions(ty: &crate::facts::TypeRef, name: &str, depth: u32) -> bool {
    depth < 16
        && (ty.path.len() == 1 && ty.path[0] == name
            || ty.args.iter().any(|a| mentions(a, name, depth + 1)))
}

/// The arguments' types (the receiver first for an extension method called on it).
fn argument_types(cx: &Cx, file: u32, call: &Call, first_bound: bool) -> Vec<CsType> {
    let site = call_site(file, call);
    let mut args = Vec::with_capacity(call.args.len() + 1);
    if first_bound {
        if let Callee::Member { receiver: r, .. } = &call.callee {
            args.push(match receiver(cx, site, r) {
                Recv::Value(Typed { ty, .. }) => ty,
                _ => CsType::Unknown,
            });
        }
    }
    args.extend(call.args.iter().map(|a| arg_type(cx, site, a)));
    if !call.keywords.is_empty() {
        // Named arguments are matched by name, not position: their types say
        // nothing here.
        for a in args.iter_mut().rev().take(call.keywords.len()) {
            *a = CsType::Unknown;
        }
    }
    args
}

/// C#'s conversions for the shared phases.
pub struct CsConversions<'c, 'a> {
    pub cx: &'c Cx<'a>,
}

impl Conversions for CsConversions<'_, '_> {
    type Ty = CsType;

    fn compatible(&self, arg: &CsType, param: &CsType, boxing: bool) -> Fit {
        compatible(self.cx, arg, param, boxing, 0)
    }

    fn array_of(&self, element: CsType) -> CsType {
        CsType::Array(Box::new(element))
    }

    fn unknown(&self) -> CsType {
        CsType::Unknown
    }
}

pub fn candidate(cx: &Cx, eid: Eid) -> Candidate<CsType> {
    let decl = cx.index.decl(eid);
    let site = Site::of_decl(cx.index, eid);
    let params: Vec<CsType> = decl
        .params
        .iter()
        .map(|p| {
            p.ty.as_ref()
                .map_or(CsType::Unknown, |t| cstype(cx.index, site, t))
        })
        .collect();
    let required = decl
        .params
        .iter()
        .filter(|p| !p.has_default && !p.variadic)
        .count();
    Candidate {
        eid,
        required,
        params,
        variadic: decl.params.last().is_some_and(|p| p.variadic),
    }
}

/// Among candidates that all take the argument count: the one the compiler
/// selects, when the written types decide it.
pub fn select(
    cx: &Cx,
    file: u32,
    call: &Call,
    candidates: &[Eid],
    first_bound: bool,
) -> Option<Eid> {
    let args = argument_types(cx, file, call, first_bound);
    let cands: Vec<Candidate<CsType>> = candidates.iter().map(|&c| candidate(cx, c)).collect();
    if let Some(exact) = only_exact_match(cx, &args, &cands) {
        return Some(exact);
    }
    let cands = without_unsigned_twins(cx, &args, cands);
    select_by_phases(&CsConversions { cx }, &args, &cands)
}

/// An `int` constant may convert to `ulong` or `uint` (when it is not negative,
/// which the engine does not read), but where another candidate, alike in every
/// other parameter, takes the signed type the spec prefers there (§12.6.4.7:
/// `long` over `ulong`, `int` over `uint` and `ulong`), the unsigned candidate
/// can never be the better one: it is no candidate (`new JValue(1)` is
/// `JValue(long)`, not a maybe-`JValue(ulong)`).
fn without_unsigned_twins(
    cx: &Cx,
    args: &[CsType],
    cands: Vec<Candidate<CsType>>,
) -> Vec<Candidate<CsType>> {
    let prefers = |signed: &CsType, unsigned: &CsType| {
        matches!(
            (signed, unsigned),
            (CsType::Prim("long"), CsType::Prim("ulong"))
                | (CsType::Prim("int"), CsType::Prim("uint" | "ulong"))
        )
    };
    let dominated = |c: &Candidate<CsType>| {
        cands.iter().any(|d| {
            d.eid != c.eid
                && d.params.len() == c.params.len()
                && d.variadic == c.variadic
                && d.required == c.required
                && args.iter().enumerate().any(|(i, a)| {
                    matches!(a, CsType::IntLiteral)
                        && i < c.params.len()
                        && prefers(&d.params[i], &c.params[i])
                        && (0..c.params.len())
                            .all(|j| j == i || identical(cx, &d.params[j], &c.params[j], 0))
                })
        })
    };
    let keep: Vec<bool> = cands.iter().map(|c| !dominated(c)).collect();
    cands
        .into_iter()
        .zip(keep)
        .filter(|(_, k)| *k)
        .map(|(c, _)| c)
        .collect()
}

/// The one candidate whose every parameter is exactly its argument's type, every
/// parameter filled: an identity conversion is better than any other conversion
/// (spec §12.6.4.5), so it beats every other applicable candidate, also one whose
/// conversion the engine cannot judge (`new AceFont(true)`: `(bool)` over
/// `(Font)`, which an outside conversion might accept). A second exact candidate,
/// or a type parameter, leaves it to the phases.
fn only_exact_match(cx: &Cx, args: &[CsType], cands: &[Candidate<CsType>]) -> Option<Eid> {
    let mut exact = cands.iter().filter(|c| {
        c.params.len() == args.len()
            && args
                .iter()
                .zip(&c.params)
                .all(|(a, p)| identical(cx, a, p, 0))
    });
    let first = exact.next()?;
    exact.next().is_none().then_some(first.eid)
}

/// Whether an argument's static type is exactly a parameter's type.
fn identical(cx: &Cx, a: &CsType, p: &CsType, depth: u32) -> bool {
    use CsType::*;
    let all = |x: &[CsType], y: &[CsType]| {
        x.len() == y.len() && x.iter().zip(y).all(|(a, b)| identical(cx, a, b, depth + 1))
    };
    depth < 8
        && match (a, p) {
            (Prim(x), Prim(y)) => x == y,
            (IntLiteral, Prim(y)) => *y == "int",
            (Prim(k), Foreign(f, fargs)) | (Foreign(f, fargs), Prim(k)) => {
                fargs.is_empty() && policy::fqn_of_keyword(k).is_some_and(|q| same_outside(q, f))
            }
            (Foreign(x, xargs), Foreign(y, yargs)) => same_outside(x, y) && all(xargs, yargs),
            (Class(x, xargs), Class(y, yargs)) => {
                canonical(cx.index, *x) == canonical(cx.index, *y) && all(xargs, yargs)
            }
            (Array(x), Array(y)) => identical(cx, x, y, depth + 1),
            _ => false,
        }
}

/// How the call's arguments meet a set of candidates: one of them surely
/// applies, one may, or none can.
pub fn applicability(
    cx: &Cx,
    file: u32,
    call: &Call,
    candidates: &[Eid],
    first_bound: bool,
) -> Fit {
    let args = argument_types(cx, file, call, first_bound);
    let conv = CsConversions { cx };
    let cands: Vec<Candidate<CsType>> = candidates.iter().map(|&c| candidate(cx, c)).collect();
    if !any_possible_by_phases(&conv, &args, &cands) {
        return Fit::No;
    }
    let sure = cands.iter().any(|c| {
        crate::resolve::overload::PHASES
            .iter()
            .any(|&phase| crate::resolve::overload::applicable(&conv, &args, c, phase) == Fit::Yes)
    });
    if sure {
        Fit::Yes
    } else {
        Fit::Maybe
    }
}

fn simple(fqn: &str) -> &str {
    fqn.rsplit('.').next().unwrap_or(fqn)
}

/// Two outside types are the same when their names are (fully qualified when
/// both are, else by simple name).
fn same_outside(a: &str, b: &str) -> bool {
    if a.contains('.') && b.contains('.') {
        a == b
    } else {
        simple(a) == simple(b)
    }
}

fn is_object(name: &str) -> bool {
    matches!(name, "System.Object" | "Object" | "object")
}

/// C#'s implicit numeric conversions (spec §10.2.3), and identity.
fn widens(from: &str, to: &str) -> bool {
    let wider: &[&str] = match from {
        "sbyte" => &["short", "int", "long", "float", "double", "decimal"],
        "byte" => &[
            "short", "ushort", "int", "uint", "long", "ulong", "float", "double", "decimal",
        ],
        "short" => &["int", "long", "float", "double", "decimal"],
        "ushort" => &["int", "uint", "long", "ulong", "float", "double", "decimal"],
        "int" => &["long", "float", "double", "decimal"],
        "uint" => &["long", "ulong", "float", "double", "decimal"],
        "long" | "ulong" => &["float", "double", "decimal"],
        "char" => &[
            "ushort", "int", "uint", "long", "ulong", "float", "double", "decimal",
        ],
        "float" => &["double"],
        _ => &[],
    };
    from == to || wider.contains(&to)
}

/// What a boxed value type converts to.
fn boxes_to(param: &str) -> bool {
    matches!(
        simple(param),
        "Object" | "ValueType" | "IComparable" | "IConvertible" | "IFormattable" | "IEquatable"
    )
}

/// Whether a type of the tree (or an ancestor) declares a user-defined implicit
/// conversion: an argument of another type may then still fit.
fn declares_implicit_conversion(cx: &Cx, ty: Eid) -> bool {
    ancestry(cx, ty, &[])
        .types
        .iter()
        .any(|(t, _)| !implicit_operators(cx, *t).is_empty())
}

/// The `implicit operator`s a type of the tree declares (its parts').
fn implicit_operators(cx: &Cx, ty: Eid) -> Vec<Eid> {
    members_named(cx.index, ty, "operator implicit")
        .into_iter()
        .filter(|&m| cx.index.decl(m).kind == DeclKind::Method)
        .collect()
}

/// Whether a user-defined implicit conversion may take a value to the tree's
/// type `target`. The operators C# considers are those of the target's hierarchy
/// and of the source's (when it is a type of the tree; an outside type cannot
/// name the tree's types), and only one whose result is encompassed by the
/// target (spec §10.5.4: the target itself or a type derived from it) applies:
/// JToken's `implicit operator JToken(long)` takes no `long` to a `JValue`
/// parameter. A result the engine cannot type may apply.
fn may_convert_to(cx: &Cx, source: Option<Eid>, target: Eid) -> bool {
    let target = canonical(cx.index, target);
    let mut owners: Vec<Eid> = ancestry(cx, target, &[])
        .types
        .iter()
        .map(|(t, _)| *t)
        .collect();
    if let Some(s) = source {
        owners.extend(ancestry(cx, s, &[]).types.iter().map(|(t, _)| *t));
    }
    // A type declares its operators by the dozen, nearly all with one result
    // type (JToken's forty from each primitive): each result type written in one
    // declaration scope is read once, since reading it walks the hierarchy.
    let mut read: Vec<(u32, ScopeIdx, &TypeRef)> = Vec::new();
    owners.iter().any(|&owner| {
        implicit_operators(cx, owner).into_iter().any(|op| {
            let decl = cx.index.decl(op);
            let Some(written) = &decl.returns else {
                return true;
            };
            let key = (op.file, decl.scope, written);
            if read.contains(&key) {
                return false;
            }
            read.push(key);
            result_encompassed_by(cx, op, written, target)
        })
    })
}

/// Whether an implicit operator's written result type is `target` or derives
/// from it.
fn result_encompassed_by(cx: &Cx, op: Eid, written: &TypeRef, target: Eid) -> bool {
    match cstype(cx.index, Site::of_decl(cx.index, op), written) {
        CsType::Class(r, rargs) => {
            canonical(cx.index, r) == target
                || ancestry(cx, r, &rargs)
                    .types
                    .iter()
                    .any(|(t, _)| *t == target)
        }
        // An outside type or a value type derives from no type of the tree.
        CsType::Foreign(..) | CsType::Prim(_) | CsType::Array(_) => false,
        _ => true,
    }
}

fn is_delegate(cx: &Cx, ty: Eid) -> bool {
    crate::lang::csharp::lookup::has_keyword(cx.index, ty, "delegate")
}

/// An instance of a type of the tree passed where an outside type is declared:
/// only through the outside bases its hierarchy writes.
fn class_to_outside(cx: &Cx, a: Eid, args: &[CsType], p: &str) -> Fit {
    if is_object(p) {
        return Fit::Yes;
    }
    let anc = ancestry(cx, a, args);
    if anc.unknown {
        return Fit::Maybe;
    }
    let reaches = |b: &String| {
        same_outside(b, p) || policy::known_supertypes(b).is_some_and(|s| s.contains(&simple(p)))
    };
    if anc.outside.iter().any(|(b, _)| reaches(b)) {
        Fit::Yes
    } else if declares_implicit_conversion(cx, a) {
        Fit::Maybe
    } else if anc
        .outside
        .iter()
        .all(|(b, _)| policy::known_supertypes(b).is_some())
    {
        Fit::No
    } else {
        Fit::Maybe
    }
}

/// Whether an argument of type `arg` may be passed where `param` is declared.
pub fn compatible(cx: &Cx, arg: &CsType, param: &CsType, boxing: bool, depth: u32) -> Fit {
    use CsType::*;
    if depth > 8 {
        return Fit::Maybe;
    }
    match (arg, param) {
        (Unknown, _) | (_, Unknown) | (Dynamic, _) | (_, Dynamic) => Fit::Maybe,
        // A method's own unconstrained type parameter takes anything it is given
        // (it is inferred); a constrained one what fits its bounds.
        (_, TypeParam(owner, name)) => {
            if cx.index.decl(*owner).kind.is_type() {
                return Fit::Maybe;
            }
            let bs = bounds(cx.index, *owner, name);
            if matches!(arg, Null | Lambda) {
                return Fit::Maybe;
            }
            bs.iter().fold(Fit::Yes, |acc, b| {
                acc.and(compatible(cx, arg, b, boxing, depth + 1))
            })
        }
        (TypeParam(owner, name), _) => {
            let bs = bounds(cx.index, *owner, name);
            if bs
                .iter()
                .any(|b| compatible(cx, b, param, boxing, depth + 1) == Fit::Yes)
            {
                Fit::Yes
            } else {
                Fit::Maybe
            }
        }
        (Null, Prim(_)) => Fit::No,
        (Null, Foreign(f, _)) if simple(f) == "Nullable" => Fit::Yes,
        (Null, _) => Fit::Yes,
        (Lambda, Class(e, _)) if is_delegate(cx, *e) => Fit::Maybe,
        (Lambda, Foreign(f, _)) if !is_plain_type(f) => Fit::Maybe,
        (Lambda, _) => Fit::No,
        (IntLiteral, Prim(p)) => match *p {
            "int" | "long" | "float" | "double" | "decimal" => Fit::Yes,
            "sbyte" | "byte" | "short" | "ushort" | "uint" | "ulong" => Fit::Maybe,
            _ => Fit::No,
        },
        (IntLiteral, other) => compatible(cx, &Prim("int"), other, boxing, depth + 1),
        (Prim(a), Prim(p)) => Fit::from(widens(a, p)),
        (Prim(a), Foreign(p, pargs)) => {
            if simple(p) == "Nullable" {
                return match pargs.first() {
                    Some(Prim(inner)) if boxing => Fit::from(widens(a, inner)),
                    Some(Prim(_)) => Fit::No,
                    _ => Fit::Maybe,
                };
            }
            if boxes_to(p) {
                Fit::from(boxing)
            } else if is_plain_type(p) || simple(p) == "DateTimeOffset" {
                // DateTimeOffset converts implicitly from DateTime only.
                Fit::No
            } else {
                // An outside type may declare a conversion from it.
                Fit::Maybe
            }
        }
        (Prim(_), Class(e, _)) => {
            if may_convert_to(cx, None, *e) {
                Fit::Maybe
            } else {
                Fit::No
            }
        }
        (Foreign(_, _), Prim(_)) => Fit::No,
        (Class(a, aargs), Class(p, _)) => {
            let anc = ancestry(cx, *a, aargs);
            if canonical(cx.index, *a) == canonical(cx.index, *p)
                || anc.types.iter().any(|(t, _)| *t == *p)
            {
                Fit::Yes
            } else if anc.unknown || may_convert_to(cx, Some(*a), *p) {
                Fit::Maybe
            } else {
                Fit::No
            }
        }
        (Class(a, aargs), Foreign(p, _)) => class_to_outside(cx, *a, aargs, p),
        (Class(a, _), Prim(_)) => {
            if declares_implicit_conversion(cx, *a) {
                Fit::Maybe
            } else {
                Fit::No
            }
        }
        (Foreign(_, _), Class(p, _)) => {
            if may_convert_to(cx, None, *p) {
                Fit::Maybe
            } else {
                Fit::No
            }
        }
        (Foreign(a, _), Foreign(p, _)) => {
            if same_outside(a, p) || is_object(p) {
                Fit::Yes
            } else {
                match policy::known_supertypes(a) {
                    Some(supers) => Fit::from(supers.contains(&simple(p))),
                    None => Fit::Maybe,
                }
            }
        }
        (Array(x), Array(y)) => match (x.as_ref(), y.as_ref()) {
            (Prim(a), Prim(b)) => Fit::from(a == b),
            // `T[]` takes a `char[]` where `T` is (or may be) `char`.
            (x, y @ TypeParam(..)) => compatible(cx, x, y, false, depth + 1),
            (Prim(_), _) | (_, Prim(_)) => Fit::No,
            (x, y) => compatible(cx, x, y, false, depth + 1),
        },
        (Array(_), Foreign(p, _)) => Fit::from(matches!(
            simple(p),
            "Object"
                | "Array"
                | "ICloneable"
                | "IEnumerable"
                | "ICollection"
                | "IList"
                | "IReadOnlyList"
                | "IReadOnlyCollection"
        )),
        (Array(_), _) | (_, Array(_)) => Fit::No,
        // A parameter is never typed by a lambda, `null` or a constant.
        (_, Lambda) | (_, Null) | (_, IntLiteral) => Fit::Maybe,
    }
}

/// Well-known outside types that are neither delegates nor expression trees nor
/// types with conversions from other types.
fn is_plain_type(fqn: &str) -> bool {
    matches!(
        simple(fqn),
        "String"
            | "Object"
            | "StringBuilder"
            | "Type"
            | "Exception"
            | "DateTime"
            | "TimeSpan"
            | "Guid"
            | "Uri"
            | "Version"
    ) || policy::element_argument(fqn).is_some()
}

/// The methods named `name` a type of the tree declares (for tests and `explain`).
#[allow(dead_code)]
pub fn methods_named(cx: &Cx, ty: Eid, name: &str) -> Vec<Eid> {
    members_named(cx.index, ty, name)
        .into_iter()
        .filter(|&m| is_method(cx.index, m))
        .collect()
}
