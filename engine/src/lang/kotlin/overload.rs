//! Kotlin overloads (`pick_overload`, called by the shared overload pass): the
//! candidates the arguments can fill — arity is a range (defaults may be left
//! out, `vararg` takes any number, named arguments must name a parameter, a
//! trailing lambda is the last argument) — then the ones no argument type
//! contradicts. Kotlin converts no number implicitly, so a literal's type
//! contradicts every other primitive.

use crate::facts::{ArgShape, Call, Decl, DeclKind, LiteralType, TypeRef};
use crate::index::Eid;
use crate::lang::kotlin::policy;
use crate::lang::kotlin::resolve::{arg_recv, call_site, ty_of, Recv, Ty};
use crate::lang::kotlin::types::{has_modifier, is_hidden, is_unbounded_type_param, Site};
use crate::resolve::Cx;

/// The one candidate the call fits, or `None` when the arguments do not decide.
pub fn pick(cx: &Cx, file: u32, call: &Call, candidates: &[Eid]) -> Option<Eid> {
    let by_count = fitting(cx, call, candidates);
    if let [one] = by_count.as_slice() {
        return Some(*one);
    }
    let site = call_site(file, call);
    let typed: Vec<Eid> = by_count
        .iter()
        .copied()
        .filter(|&c| !contradicted(cx, site, call, c))
        .collect();
    match typed.as_slice() {
        [one] => Some(*one),
        [] => None,
        several => most_specific(cx, file, call, several),
    }
}

/// Kotlin's choice among candidates the call may fill (the specification's
/// "choosing the most specific candidate"): the one whose parameter type at
/// every argument is a subtype of each other candidate's there, while none of
/// theirs is of its; among candidates equally specific by type, the one that
/// takes no `vararg`, then the one that leaves fewer defaults out. Only the
/// candidates the arguments surely fill are ranked, and only when the others
/// surely are not filled; `None` whenever a comparison the answer rests on is
/// not certain.
pub fn most_specific(cx: &Cx, file: u32, call: &Call, candidates: &[Eid]) -> Option<Eid> {
    if call.has_splat || !call.keywords.is_empty() || candidates.len() > MAX_COMPARED {
        return None;
    }
    let rows: Vec<Vec<Slot>> = candidates
        .iter()
        .map(|&c| slots(cx, call, c))
        .collect::<Option<_>>()?;
    // Only the candidates the arguments surely fill are ranked; one the engine
    // cannot tell either way leaves the choice open.
    let site = call_site(file, call);
    let mut applicable = Vec::new();
    for (c, row) in candidates.iter().zip(rows) {
        match fills(cx, site, call, &row) {
            Sure::Yes => applicable.push((*c, row)),
            Sure::No => {}
            Sure::Unknown => return None,
        }
    }
    let (candidates, rows): (Vec<Eid>, Vec<Vec<Slot>>) = applicable.into_iter().unzip();
    if let [one] = candidates.as_slice() {
        return Some(*one);
    }
    let n = candidates.len();
    let mut tied: Vec<usize> = Vec::new();
    for i in 0..n {
        let mut ties = false;
        let mut beats_all = true;
        for j in (0..n).filter(|&j| j != i) {
            match (
                not_less_specific(cx, &rows[i], &rows[j]),
                not_less_specific(cx, &rows[j], &rows[i]),
            ) {
                (Sure::Yes, Sure::No) => {}
                (Sure::Yes, Sure::Yes) => ties = true,
                (Sure::No, _) => {
                    beats_all = false;
                    break;
                }
                _ => return None,
            }
        }
        if beats_all {
            if !ties {
                return Some(candidates[i]);
            }
            tied.push(i);
        }
    }
    // Equally specific by type: every member of `tied` ties with every other.
    let shapes: Vec<(bool, usize)> = tied
        .iter()
        .map(|&i| {
            let decl = cx.index.decl(candidates[i]);
            let vararg = decl.params.iter().any(|p| p.variadic);
            let defaults = decl
                .params
                .iter()
                .skip(call.args.len())
                .filter(|p| p.has_default)
                .count();
            (vararg, defaults)
        })
        .collect();
    let best = shapes.iter().min()?;
    match shapes.iter().filter(|s| *s == best).count() {
        1 => Some(candidates[tied[shapes.iter().position(|s| s == best)?]]),
        _ => None,
    }
}

/// At most this many candidates are compared pairwise.
const MAX_COMPARED: usize = 16;

/// A three-valued answer: the engine knows yes, knows no, or cannot tell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Sure {
    Yes,
    No,
    Unknown,
}

/// The parameter type one argument fills, as the comparison reads it.
#[derive(Debug, Clone)]
enum Slot {
    Type(Ty),
    /// A type parameter written with no bound: every type is a subtype of it.
    Free,
}

/// The parameter type each positional argument fills (a `vararg`'s element
/// type), or `None` when one is not written or not known.
fn slots(cx: &Cx, call: &Call, candidate: Eid) -> Option<Vec<Slot>> {
    let decl = cx.index.decl(candidate);
    if !fits_count(decl, call) {
        return None;
    }
    let at = Site::of_decl(cx.index, candidate);
    let vararg = decl.params.iter().position(|p| p.variadic);
    (0..call.args.len())
        .map(|i| {
            let param = match vararg {
                Some(v) if i >= v => &decl.params[v],
                _ => decl.params.get(i)?,
            };
            let pty = param.ty.as_ref()?;
            if let [name] = pty.path.as_slice() {
                if is_unbounded_type_param(cx.index, at, name) {
                    return Some(Slot::Free);
                }
            }
            match ty_of(cx, at, pty) {
                ty @ (Ty::Tree(_) | Ty::Outside { .. }) => Some(Slot::Type(ty)),
                Ty::Foreign | Ty::Unknown => None,
            }
        })
        .collect()
}

/// Whether the arguments fill a candidate's slots: yes when each argument's type
/// is known and a subtype of its slot's (an integer literal of an integer slot,
/// a lambda of a function type or a free type parameter), no when one surely is
/// not, else unknown.
fn fills(cx: &Cx, site: Site, call: &Call, row: &[Slot]) -> Sure {
    let mut answer = Sure::Yes;
    for (arg, slot) in call.args.iter().zip(row) {
        match fills_one(cx, site, arg, slot) {
            Sure::Yes => {}
            Sure::No => return Sure::No,
            Sure::Unknown => answer = Sure::Unknown,
        }
    }
    answer
}

fn fills_one(cx: &Cx, site: Site, arg: &ArgShape, slot: &Slot) -> Sure {
    if matches!(arg, ArgShape::Function(_) | ArgShape::Lambda) {
        return match slot {
            Slot::Free => Sure::Yes,
            Slot::Type(Ty::Outside { fqn, .. }) if fqn == "kotlin.Function" => Sure::Yes,
            Slot::Type(_) => Sure::Unknown,
        };
    }
    let Recv::Value(ty @ (Ty::Tree(_) | Ty::Outside { .. }), _) = arg_recv(cx, site, arg) else {
        return Sure::Unknown;
    };
    if let Slot::Type(Ty::Outside { fqn, .. }) = slot {
        if literal_widens(arg) && integer_fqn(fqn) {
            return Sure::Yes;
        }
    }
    match slot_subtype(cx, &Slot::Type(ty), slot) {
        // A name may be smart cast where the engine does not see it: only a value
        // of certain type is surely no fit.
        Sure::No if !is_certain(arg) && !matches!(arg, ArgShape::Call(_)) => Sure::Unknown,
        other => other,
    }
}

/// Whether a subtype by class stays one with its type arguments: only where the
/// general type's are not written or not known (a type parameter), or are the
/// specific one's (Kotlin's generics are invariant unless declared otherwise).
fn with_arguments(specific: &[Ty], general: &[Ty]) -> Sure {
    if specific == general || general.iter().all(|t| matches!(t, Ty::Unknown)) {
        Sure::Yes
    } else {
        Sure::Unknown
    }
}

/// Whether the first candidate is at least as specific as the second at every
/// argument.
fn not_less_specific(cx: &Cx, specific: &[Slot], general: &[Slot]) -> Sure {
    let mut answer = Sure::Yes;
    for (s, g) in specific.iter().zip(general) {
        match slot_subtype(cx, s, g) {
            Sure::Yes => {}
            Sure::No => return Sure::No,
            Sure::Unknown => answer = Sure::Unknown,
        }
    }
    answer
}

/// Whether the type of one slot is a subtype of the other's.
fn slot_subtype(cx: &Cx, specific: &Slot, general: &Slot) -> Sure {
    match (specific, general) {
        (_, Slot::Free) => Sure::Yes,
        // A type parameter bound by `Any?` is a subtype of no written type but
        // `Any?`, which the engine does not tell from `Any`.
        (Slot::Free, Slot::Type(Ty::Outside { fqn, .. })) if is_top_fqn(fqn) => Sure::Unknown,
        (Slot::Free, Slot::Type(_)) => Sure::No,
        (Slot::Type(a), Slot::Type(b)) => type_subtype(cx, a, b),
    }
}

/// Whether type `a` is a subtype of type `b`, as far as the engine knows both.
fn type_subtype(cx: &Cx, a: &Ty, b: &Ty) -> Sure {
    match (a, b) {
        (Ty::Tree(a), Ty::Tree(b)) => tree_below_tree(cx, *a, *b),
        (Ty::Tree(a), Ty::Outside { fqn, args }) => match tree_below_outside(cx, *a, fqn) {
            Sure::Yes => with_arguments(&[], args),
            other => other,
        },
        // No outside type extends one of the tree.
        (Ty::Outside { .. }, Ty::Tree(_)) => Sure::No,
        (Ty::Outside { fqn: a, args: aa }, Ty::Outside { fqn: b, args: ba }) => {
            let (a, b) = (policy::kotlin_name(a), policy::kotlin_name(b));
            if a == "kotlin.Function" || b == "kotlin.Function" {
                return Sure::Unknown;
            }
            let by_class = if a == b
                || b == "kotlin.Any"
                || policy::outside_supertypes(a).contains(&b)
                || policy::closed_supertypes(a).is_some_and(|above| above.contains(&b))
            {
                Sure::Yes
            } else if policy::closed_supertypes(a).is_some()
                || is_value_fqn(a)
                || policy::final_class_apart(a, b)
            {
                Sure::No
            } else {
                Sure::Unknown
            };
            match by_class {
                Sure::Yes => with_arguments(aa, ba),
                other => other,
            }
        }
        _ => Sure::Unknown,
    }
}

/// The candidates whose parameters the call's arguments can fill by count and by
/// name (all of them when a spread makes the count unknowable), hidden ones
/// left out.
pub fn fitting(cx: &Cx, call: &Call, candidates: &[Eid]) -> Vec<Eid> {
    candidates
        .iter()
        .copied()
        .filter(|&c| {
            let decl = cx.index.decl(c);
            !is_hidden(decl) && (call.has_splat || fits_count(decl, call))
        })
        .collect()
}

/// The candidates the arguments fit by count and by name, then those no
/// argument of certain type contradicts: a literal, `this`, a construction. A
/// name's type may be smart cast where the engine does not see it, so a name
/// never rules a candidate out here.
pub fn fitting_certain(cx: &Cx, file: u32, call: &Call, candidates: &[Eid]) -> Vec<Eid> {
    let site = call_site(file, call);
    fitting(cx, call, candidates)
        .into_iter()
        .filter(|&c| !contradicted_by(cx, site, call, c, is_certain))
        .collect()
}

/// The candidates no argument's known type contradicts, reading a class of the
/// tree as no subtype of a class of the tree its bases do not reach (even with an
/// outside base beside): used only to abstain, never to choose.
pub fn uncontradicted(cx: &Cx, file: u32, call: &Call, candidates: &[Eid]) -> Vec<Eid> {
    let site = call_site(file, call);
    candidates
        .iter()
        .copied()
        .filter(|&c| !contradicted(cx, site, call, c) && !tree_mismatch(cx, site, call, c))
        .collect()
}

/// Whether a positional argument of a type of the tree is passed where a type of
/// the tree its hierarchy does not reach is declared.
fn tree_mismatch(cx: &Cx, site: Site, call: &Call, candidate: Eid) -> bool {
    let decl = cx.index.decl(candidate);
    let at = Site::of_decl(cx.index, candidate);
    call.args.iter().zip(&decl.params).any(|(arg, param)| {
        if param.variadic {
            return false;
        }
        let Some(pty) = &param.ty else {
            return false;
        };
        match (arg_recv(cx, site, arg), ty_of(cx, at, pty)) {
            (Recv::Value(Ty::Tree(a), _), Ty::Tree(p)) => !cx.hierarchy.is_subtype(a, p),
            _ => false,
        }
    })
}

/// Whether the call surely fills this candidate: counts and names fit and every
/// positional argument has a known type that is its parameter's (or a subtype,
/// an integer literal for a `Long`, a lambda for a function type).
pub fn surely_applies(cx: &Cx, file: u32, call: &Call, candidate: Eid) -> bool {
    let decl = cx.index.decl(candidate);
    if call.has_splat || !call.keywords.is_empty() || is_hidden(decl) || !fits_count(decl, call) {
        return false;
    }
    let site = call_site(file, call);
    let at = Site::of_decl(cx.index, candidate);
    let vararg = decl.params.iter().position(|p| p.variadic);
    call.args.iter().enumerate().all(|(i, arg)| {
        let param = match vararg {
            Some(v) if i >= v => &decl.params[v],
            _ => &decl.params[i],
        };
        let Some(pty) = &param.ty else {
            return false;
        };
        if matches!(arg, ArgShape::Function(_) | ArgShape::Lambda) {
            return matches!(pty.last(), Some("<fn>" | "<fn-receiver>"));
        }
        let Recv::Value(aty, _) = arg_recv(cx, site, arg) else {
            return false;
        };
        match (&aty, &ty_of(cx, at, pty)) {
            (Ty::Tree(a), Ty::Tree(p)) => cx.hierarchy.is_subtype(*a, *p),
            (Ty::Outside { fqn: a, .. }, Ty::Outside { fqn: p, .. }) => {
                a == p
                    || crate::lang::kotlin::policy::outside_supertypes(a).contains(&p.as_str())
                    || (literal_widens(arg) && integer_fqn(p))
            }
            _ => false,
        }
    })
}

/// Whether an argument of final type rules the candidate out (a literal, or a
/// value of a number, character, boolean or string type: no smart cast makes it
/// another), or the arguments do not fill it.
pub fn surely_inapplicable(cx: &Cx, file: u32, call: &Call, candidate: Eid) -> bool {
    let decl = cx.index.decl(candidate);
    if is_hidden(decl) {
        return true;
    }
    if call.has_splat {
        return false;
    }
    if !fits_count(decl, call) {
        return true;
    }
    let site = call_site(file, call);
    contradicted_by(cx, site, call, candidate, |arg| {
        is_certain(arg)
            || matches!(arg_recv(cx, site, arg), Recv::Value(ty, _) if is_value_type(&ty))
    })
}

fn is_certain(arg: &ArgShape) -> bool {
    match arg {
        ArgShape::Literal(_) | ArgShape::New(_) | ArgShape::ClassLiteral => true,
        ArgShape::Name(n) => n == "this",
        _ => false,
    }
}

/// Whether the arguments fill the parameters: every named argument names one,
/// every parameter without a default is filled, and no more arguments are
/// given than parameters unless one is a `vararg`.
pub fn fits_count(decl: &Decl, call: &Call) -> bool {
    let params = &decl.params;
    for (name, _) in &call.keywords {
        if !params.iter().any(|p| &p.name == name) {
            return false;
        }
    }
    let given = call.args.len() + call.keywords.len();
    let required = params
        .iter()
        .filter(|p| !p.has_default && !p.variadic)
        .count();
    let vararg = params.iter().any(|p| p.variadic);
    given >= required && (vararg || given <= params.len())
}

/// Whether some positional argument's type cannot be its parameter's.
fn contradicted(cx: &Cx, site: Site, call: &Call, candidate: Eid) -> bool {
    contradicted_by(cx, site, call, candidate, |_| true)
}

/// `contradicted`, reading only the arguments `considered` accepts.
fn contradicted_by(
    cx: &Cx,
    site: Site,
    call: &Call,
    candidate: Eid,
    considered: impl Fn(&ArgShape) -> bool,
) -> bool {
    let decl = cx.index.decl(candidate);
    let at = Site::of_decl(cx.index, candidate);
    let vararg = decl.params.iter().position(|p| p.variadic);
    for (i, arg) in call.args.iter().enumerate() {
        if !considered(arg) {
            continue;
        }
        let param = match vararg {
            Some(v) if i >= v => &decl.params[v],
            _ => match decl.params.get(i) {
                Some(p) => p,
                None => continue,
            },
        };
        let Some(pty) = &param.ty else {
            continue;
        };
        if !may_fit(cx, site, arg, at, pty) {
            return true;
        }
    }
    false
}

/// Whether an argument may be passed where `param` is declared (unknown types
/// never contradict).
fn may_fit(cx: &Cx, site: Site, arg: &ArgShape, at: Site, param: &TypeRef) -> bool {
    let function_param = matches!(param.last(), Some("<fn>" | "<fn-receiver>"));
    if matches!(arg, ArgShape::Function(_) | ArgShape::Lambda) {
        // A lambda fills a function type, or a `fun interface` the resolver does
        // not tell apart; never a primitive or a String.
        return function_param || !is_value_type(&ty_of(cx, at, param));
    }
    if let ArgShape::Literal(LiteralType::None) = arg {
        return true;
    }
    let pty = ty_of(cx, at, param);
    let Recv::Value(aty, _) = arg_recv(cx, site, arg) else {
        return true;
    };
    if function_param {
        return !is_value_type(&aty);
    }
    match (&aty, &pty) {
        (_, Ty::Unknown) | (Ty::Unknown | Ty::Foreign, _) => true,
        (Ty::Tree(a), Ty::Tree(p)) => tree_below_tree(cx, *a, *p) != Sure::No,
        (Ty::Outside { fqn: a, .. }, Ty::Outside { fqn: p, .. }) => {
            a == p
                || p == "kotlin.Any"
                || policy::outside_supertypes(a).contains(&p.as_str())
                || !(is_value_fqn(a)
                    || is_value_fqn(p)
                    || policy::unrelated_outside_classes(a, p)
                    || policy::final_class_apart(a, p))
                || (literal_widens(arg) && integer_fqn(p))
        }
        // String and the primitives are final: no class of the tree is one, an
        // outside base or not. A type of the tree whose bases are all placed and
        // whose outside bases are all listed is a subtype of them, of their
        // supertypes and of no other outside type (`Any` when it has none).
        (Ty::Tree(a), Ty::Outside { fqn: p, .. }) => {
            !is_value_fqn(p) && (is_top_fqn(p) || tree_below_outside(cx, *a, p) != Sure::No)
        }
        // Nor is a value of an outside type other than `Any` one of such a type,
        // smart cast or not, unless the tree type is a subtype of it.
        (Ty::Outside { fqn: a, .. }, Ty::Tree(p)) => {
            !is_value_fqn(a) && (is_top_fqn(a) || tree_below_outside(cx, *p, a) != Sure::No)
        }
        (_, Ty::Foreign) => true,
    }
}

/// An enum (`Enum`, `Comparable`, `Serializable`) and an annotation class
/// (`Annotation`) have outside supertypes they do not write.
fn has_implicit_supertypes(decl: &Decl) -> bool {
    decl.kind == DeclKind::Enum || has_modifier(decl, "annotation")
}

/// Whether a type of the tree is a subtype of the outside type `fqn` (by its
/// class, type arguments aside): unknown unless its outside supertypes are all
/// known.
fn tree_below_outside(cx: &Cx, ty: Eid, fqn: &str) -> Sure {
    match supertypes_above(cx, ty) {
        Above::Known(outside) if outside.contains(&policy::kotlin_name(fqn)) => Sure::Yes,
        Above::Known(_) => Sure::No,
        Above::OutsideUnlisted | Above::Unplaced => Sure::Unknown,
    }
}

/// Whether a type of the tree is a subtype of another: yes when the hierarchy
/// says so, unknown when a base up its chain is not placed (it may be that
/// type), else no (a base placed outside the tree extends no type of it).
fn tree_below_tree(cx: &Cx, ty: Eid, of: Eid) -> Sure {
    if cx.hierarchy.is_subtype(ty, of) {
        Sure::Yes
    } else if matches!(supertypes_above(cx, ty), Above::Unplaced) {
        Sure::Unknown
    } else {
        Sure::No
    }
}

/// What is known of the supertypes of a type of the tree.
enum Above {
    /// Every base up the chain is placed, and every outside one is listed
    /// (`policy::closed_supertypes`): these are all its outside supertypes, by
    /// Kotlin's name, `Any` among them.
    Known(Vec<&'static str>),
    /// Every base is placed, some outside base is not listed (or the language
    /// gives the type supertypes it does not write: an enum, an annotation class).
    OutsideUnlisted,
    /// Some base is not placed, or the chain is longer than the walk follows.
    Unplaced,
}

/// At most this many types of the tree are walked for one type's supertypes.
const MAX_SUPERTYPE_WALK: usize = 64;

/// The bases a type of the tree and its bases in the tree write, walked once
/// each.
fn supertypes_above(cx: &Cx, ty: Eid) -> Above {
    let mut outside = vec!["kotlin.Any"];
    let mut unlisted = false;
    let mut seen = vec![ty];
    let mut pending = vec![ty];
    while let Some(t) = pending.pop() {
        if cx.hierarchy.order_was_cut(t) {
            return Above::Unplaced;
        }
        unlisted |= has_implicit_supertypes(cx.index.decl(t));
        let site = Site::of_decl(cx.index, t);
        for base in &cx.index.decl(t).bases {
            match ty_of(cx, site, base) {
                Ty::Tree(b) if !seen.contains(&b) => {
                    if seen.len() == MAX_SUPERTYPE_WALK {
                        return Above::Unplaced;
                    }
                    seen.push(b);
                    pending.push(b);
                }
                Ty::Tree(_) => {}
                Ty::Outside { fqn, .. } => {
                    match policy::closed_supertypes(policy::kotlin_name(&fqn)) {
                        Some(listed) => outside.extend_from_slice(listed),
                        None => unlisted = true,
                    }
                }
                Ty::Foreign | Ty::Unknown => return Above::Unplaced,
            }
        }
    }
    if unlisted {
        Above::OutsideUnlisted
    } else {
        Above::Known(outside)
    }
}

/// The type every class is a subtype of.
fn is_top_fqn(fqn: &str) -> bool {
    matches!(fqn, "kotlin.Any" | "java.lang.Object")
}

/// An integer literal takes the expected integer type (`val x: Long = 1`).
fn literal_widens(arg: &ArgShape) -> bool {
    matches!(arg, ArgShape::Literal(LiteralType::Int))
}

fn integer_fqn(fqn: &str) -> bool {
    matches!(
        fqn,
        "kotlin.Long" | "kotlin.Short" | "kotlin.Byte" | "kotlin.Int"
    )
}

/// Primitives and String: final types no other type is a subtype of.
fn is_value_fqn(fqn: &str) -> bool {
    matches!(
        fqn,
        "kotlin.String"
            | "kotlin.Int"
            | "kotlin.Long"
            | "kotlin.Short"
            | "kotlin.Byte"
            | "kotlin.Double"
            | "kotlin.Float"
            | "kotlin.Boolean"
            | "kotlin.Char"
    )
}

fn is_value_type(ty: &Ty) -> bool {
    matches!(ty, Ty::Outside { fqn, .. } if is_value_fqn(fqn))
}
