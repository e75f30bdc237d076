//! Java overload selection (JLS 15.12.2, as far as the source shows types):
//! candidates that take the argument count, then the three phases — strict and
//! loose invocation without boxing, then with boxing, then variable arity — and
//! the most specific among the applicable ones. An argument whose type is not
//! written can never contradict a parameter, so any doubt leaves the overload
//! unnamed: a candidate that *may* apply in a phase stops the selection.

use crate::facts::{Call, DeclKind};
use crate::index::Eid;
use crate::lang::java::eval::{arg_type, call_site};
use crate::lang::java::lookup::{order, outside_bases, tcx, OutsideBases};
use crate::lang::java::policy;
use crate::lang::java::types::{jtype, JType, Site};
use crate::resolve::overload::{
    any_possible_by_phases, by_arity, select_by_phases, Candidate, Conversions, Fit,
};
use crate::resolve::Cx;

/// The overload pass: the one declaration among `candidates` (sharing a qualified
/// name) that the call fits, or `None`.
pub fn pick(cx: &Cx, file: u32, call: &Call, candidates: &[Eid]) -> Option<Eid> {
    let fitting = by_arity(cx, call, candidates, |_| false);
    match fitting.as_slice() {
        [] => None,
        [one] => Some(*one),
        _ => select(cx, file, call, &fitting),
    }
}

/// Java's conversions for the shared phases (`resolve::overload`).
struct JavaConversions<'c, 'a> {
    cx: &'c Cx<'a>,
}

impl Conversions for JavaConversions<'_, '_> {
    type Ty = JType;

    fn compatible(&self, arg: &JType, param: &JType, boxing: bool) -> Fit {
        compatible(self.cx, arg, param, boxing)
    }

    fn array_of(&self, element: JType) -> JType {
        JType::Array(Box::new(element))
    }

    fn unknown(&self) -> JType {
        JType::Unknown
    }
}

/// Among candidates that all take the argument count: the one javac selects,
/// when the written types decide it.
pub fn select(cx: &Cx, file: u32, call: &Call, candidates: &[Eid]) -> Option<Eid> {
    let site = call_site(file, call);
    let args: Vec<JType> = call.args.iter().map(|a| arg_type(cx, site, a)).collect();
    let cands: Vec<Candidate<JType>> = candidates.iter().map(|&c| candidate(cx, c)).collect();
    select_by_phases(&JavaConversions { cx }, &args, &cands)
}

/// Whether the call's arguments leave any of `candidates` possible in some phase.
pub fn any_possible(cx: &Cx, file: u32, call: &Call, candidates: &[Eid]) -> bool {
    let site = call_site(file, call);
    let args: Vec<JType> = call.args.iter().map(|a| arg_type(cx, site, a)).collect();
    let cands: Vec<Candidate<JType>> = candidates.iter().map(|&c| candidate(cx, c)).collect();
    any_possible_by_phases(&JavaConversions { cx }, &args, &cands)
}

fn candidate(cx: &Cx, eid: Eid) -> Candidate<JType> {
    let decl = cx.index.decl(eid);
    let site = Site::of_decl(cx.index, eid);
    let params: Vec<JType> = decl
        .params
        .iter()
        .map(|p| {
            p.ty.as_ref()
                .map_or(JType::Unknown, |t| jtype(tcx(cx), site, t))
        })
        .collect();
    Candidate {
        eid,
        required: params.len(),
        params,
        variadic: decl.params.last().is_some_and(|p| p.variadic),
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

fn widens(from: &str, to: &str) -> bool {
    let wider: &[&str] = match from {
        "byte" => &["short", "int", "long", "float", "double"],
        "short" | "char" => &["int", "long", "float", "double"],
        "int" => &["long", "float", "double"],
        "long" => &["float", "double"],
        "float" => &["double"],
        _ => &[],
    };
    from == to || wider.contains(&to)
}

fn box_of(prim: &str) -> Option<&'static str> {
    policy::BOXES
        .iter()
        .find(|(p, _)| *p == prim)
        .map(|(_, b)| *b)
}

fn unbox(name: &str) -> Option<&'static str> {
    policy::BOXES
        .iter()
        .find(|(_, b)| *b == simple(name))
        .map(|(p, _)| *p)
}

/// The supertypes of a platform type whose hierarchy the policy knows; `None`
/// for any other outside type (its supertypes are not known).
fn known_supertypes(fqn: &str) -> Option<&'static [&'static str]> {
    policy::jdk_supertypes(fqn)
}

fn is_object(name: &str) -> bool {
    simple(name) == "Object"
}

/// An instance of a type of the tree passed where an outside type is declared:
/// only through the outside bases its hierarchy writes.
fn class_to_outside(cx: &Cx, a: Eid, p: &str) -> Fit {
    if is_object(p) {
        return Fit::Yes;
    }
    match outside_bases(cx, &order(cx, a)) {
        OutsideBases::None => Fit::No,
        OutsideBases::Unsure => Fit::Maybe,
        OutsideBases::Outside(bases) => {
            let reaches = |b: &String| {
                same_outside(b, p) || known_supertypes(b).is_some_and(|s| s.contains(&simple(p)))
            };
            if bases.iter().any(reaches) {
                Fit::Yes
            } else if bases.iter().all(|b| known_supertypes(b).is_some()) {
                Fit::No
            } else {
                Fit::Maybe
            }
        }
    }
}

/// Whether an argument of type `arg` may be passed where `param` is declared.
fn compatible(cx: &Cx, arg: &JType, param: &JType, boxing: bool) -> Fit {
    use JType::*;
    match (arg, param) {
        (Unknown, _) | (_, Unknown) | (TypeParam, _) => Fit::Maybe,
        (Prim(_), TypeParam) => {
            if boxing {
                Fit::Maybe
            } else {
                Fit::No
            }
        }
        (_, TypeParam) => Fit::Maybe,
        (Null, Prim(_)) => Fit::No,
        (Null, _) => Fit::Yes,
        (Lambda, Class(e)) if cx.index.decl(*e).kind == DeclKind::Interface => Fit::Maybe,
        (Lambda, Foreign(f)) if !policy::NOT_FUNCTIONAL.contains(&simple(f)) => Fit::Maybe,
        (Lambda, _) => Fit::No,
        (Prim(a), Prim(p)) => Fit::from(widens(a, p)),
        (Prim(a), Foreign(p)) if boxing => match box_of(a) {
            Some(b) => Fit::from(
                simple(p) == b
                    || known_supertypes(&format!("java.lang.{b}"))
                        .is_some_and(|s| s.contains(&simple(p))),
            ),
            None => Fit::No,
        },
        (Foreign(a), Prim(p)) if boxing => Fit::from(unbox(a).is_some_and(|u| widens(u, p))),
        (Prim(_), _) | (_, Prim(_)) => Fit::No,
        (Class(a), Class(p)) => {
            if cx.hierarchy.is_subtype(*a, *p) {
                Fit::Yes
            } else if outside_bases(cx, &order(cx, *a)) == OutsideBases::Unsure {
                // A base the tree could not resolve may still lead to p (an outside
                // base never leads back into the tree).
                Fit::Maybe
            } else {
                Fit::No
            }
        }
        (Class(a), Foreign(p)) => class_to_outside(cx, *a, p),
        // No type outside the tree extends one of the tree's.
        (Foreign(_), Class(_)) => Fit::No,
        (Foreign(a), Foreign(p)) => {
            if same_outside(a, p) || is_object(p) {
                Fit::Yes
            } else {
                match known_supertypes(a) {
                    Some(supers) => Fit::from(supers.contains(&simple(p))),
                    None => Fit::Maybe,
                }
            }
        }
        (Array(x), Array(y)) => match (x.as_ref(), y.as_ref()) {
            (Prim(a), Prim(b)) => Fit::from(a == b),
            (Prim(_), _) | (_, Prim(_)) => Fit::No,
            (x, y) => compatible(cx, x, y, false),
        },
        (Array(_), Foreign(p)) => {
            Fit::from(matches!(simple(p), "Object" | "Cloneable" | "Serializable"))
        }
        (Array(_), _) | (_, Array(_)) => Fit::No,
        // A parameter is never typed by a lambda or `null`.
        (_, Lambda) | (_, Null) => Fit::Maybe,
    }
}
