//! The overload pass: where a placed target's qualified name carries several
//! declarations, name the one the call fits, or leave it unnamed. Never a guess:
//! the language's `pick_overload` returns a declaration only when its rules name
//! exactly one (the one the arguments fit, or the one the language's ranking of
//! applicable candidates puts first when every comparison is certain).

use crate::facts::{Call, Decl};
use crate::index::Eid;
use crate::resolve::{resolver_for, Cx, Placement, Resolution, Target};

pub fn name_declarations(cx: &Cx, file: u32, mut resolutions: Vec<Resolution>) -> Vec<Resolution> {
    let facts = cx.index.file(file);
    let resolver = resolver_for(facts.language);
    for (call, resolution) in facts.calls.iter().zip(resolutions.iter_mut()) {
        if let Resolution::Placed(p) = resolution {
            name_one(cx, file, call, p, resolver);
        }
    }
    resolutions
}

fn name_one(
    cx: &Cx,
    file: u32,
    call: &Call,
    placement: &mut Placement,
    resolver: &dyn crate::resolve::LanguageResolver,
) {
    let Target::InTree(targets) = placement.target() else {
        return;
    };
    // Every declaration sharing the qualified name is a candidate, even when a rule
    // placed on only one of them: the report names the declaration only here.
    // A type and a function sharing a qualified name (Kotlin's factory function
    // named like its class) are no overloads of each other: a construction is
    // named among types, a call among callables.
    let first = targets[0];
    let is_type = cx.index.decl(first).kind.is_type();
    let all = cx.index.same_qualified_name(first);
    if all.len() < 2 {
        return;
    }
    let candidates: Vec<Eid> = all
        .iter()
        .copied()
        .filter(|&c| cx.index.decl(c).kind.is_type() == is_type)
        .collect();
    let picked = match candidates.as_slice() {
        [one] => Some(*one),
        _ => resolver.pick_overload(cx, file, call, &candidates),
    };
    if let Some(picked) = picked {
        placement.name_declaration(picked);
    }
}

/// Whether `n` positional arguments fit a declaration's parameters, with the first
/// parameter already bound (a Python method called through an instance).
pub fn fits_arity(decl: &Decl, n: u32, first_bound: bool) -> bool {
    let (mut min, mut max) = decl.arity();
    if first_bound {
        min = min.saturating_sub(1);
        max = max.map(|m| m.saturating_sub(1));
    }
    n >= min && max.is_none_or(|m| n <= m)
}

/// The candidates whose arity fits the call (all of them when the count is unknowable).
pub fn by_arity(
    cx: &Cx,
    call: &Call,
    candidates: &[Eid],
    first_bound: impl Fn(Eid) -> bool,
) -> Vec<Eid> {
    if call.has_splat {
        return candidates.to_vec();
    }
    let n = call.args.len() as u32;
    candidates
        .iter()
        .copied()
        .filter(|&c| fits_arity(cx.index.decl(c), n, first_bound(c)))
        .collect()
}

/// Does an argument fit a parameter? `Maybe` when a type is not known.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fit {
    Yes,
    Maybe,
    No,
}

impl Fit {
    pub fn and(self, other: Fit) -> Fit {
        match (self, other) {
            (Fit::No, _) | (_, Fit::No) => Fit::No,
            (Fit::Maybe, _) | (_, Fit::Maybe) => Fit::Maybe,
            _ => Fit::Yes,
        }
    }

    pub fn from(b: bool) -> Fit {
        if b {
            Fit::Yes
        } else {
            Fit::No
        }
    }
}

/// The phases of overload selection (JLS 15.12.2; C# reads the same order: a
/// candidate applicable in its normal form is better than one applicable only in
/// its expanded `params` form).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Identity, widening primitive and reference conversions only.
    Strict,
    /// Boxing and unboxing too.
    Loose,
    /// Variable arity: trailing arguments against the element type.
    Varargs,
}

pub const PHASES: [Phase; 3] = [Phase::Strict, Phase::Loose, Phase::Varargs];

/// One declaration of an overload set, its parameter types as the language
/// reads them.
pub struct Candidate<T> {
    pub eid: Eid,
    pub params: Vec<T>,
    /// The last parameter takes any number of arguments (`T...`, `params T[]`).
    pub variadic: bool,
    /// How many parameters a call must fill (the others have defaults); equal to
    /// `params.len()` where the language has no defaults.
    pub required: usize,
}

/// What the shared selection needs from a language: its parameter types and
/// which argument types convert to which parameter types.
pub trait Conversions {
    type Ty: Clone;
    /// Whether an argument of type `arg` may be passed where `param` is declared;
    /// `boxing` in every phase but the strict one.
    fn compatible(&self, arg: &Self::Ty, param: &Self::Ty, boxing: bool) -> Fit;
    /// The array of an element type (a variadic parameter outside the
    /// variable-arity phase).
    fn array_of(&self, element: Self::Ty) -> Self::Ty;
    fn unknown(&self) -> Self::Ty;
}

/// Among candidates that all take the argument count: the one the compiler
/// selects, when the written types decide it. An argument whose type is not
/// written can never contradict a parameter, so a candidate that *may* apply in a
/// phase stops the selection — unless it is the only candidate no phase
/// contradicts (the call compiles, so it is that one).
pub fn select_by_phases<L: Conversions>(
    lang: &L,
    args: &[L::Ty],
    cands: &[Candidate<L::Ty>],
) -> Option<Eid> {
    let by_phase: Vec<Vec<Fit>> = PHASES
        .iter()
        .map(|&phase| {
            cands
                .iter()
                .map(|c| applicable(lang, args, c, phase))
                .collect()
        })
        .collect();
    if let Some(only) = the_only_possible(cands, &by_phase) {
        return Some(only);
    }
    for (fits, &phase) in by_phase.iter().zip(&PHASES) {
        if fits.iter().all(|f| *f == Fit::No) {
            continue;
        }
        if fits.contains(&Fit::Maybe) {
            // A candidate that may apply could be the more specific one.
            return None;
        }
        let yes: Vec<&Candidate<L::Ty>> = cands
            .iter()
            .zip(fits)
            .filter(|(_, f)| **f == Fit::Yes)
            .map(|(c, _)| c)
            .collect();
        return most_specific(lang, &yes, args.len(), phase);
    }
    None
}

/// Whether the arguments leave any candidate possible in some phase.
pub fn any_possible_by_phases<L: Conversions>(
    lang: &L,
    args: &[L::Ty],
    cands: &[Candidate<L::Ty>],
) -> bool {
    cands.iter().any(|c| {
        PHASES
            .iter()
            .any(|&phase| applicable(lang, args, c, phase) != Fit::No)
    })
}

/// Every other candidate is contradicted in every phase: the one that is not is
/// the declaration the call (which compiles) reaches, whatever its unknowns.
fn the_only_possible<T>(cands: &[Candidate<T>], by_phase: &[Vec<Fit>]) -> Option<Eid> {
    let possible: Vec<Eid> = cands
        .iter()
        .enumerate()
        .filter(|(i, _)| by_phase.iter().any(|fits| fits[*i] != Fit::No))
        .map(|(_, c)| c.eid)
        .collect();
    match possible.as_slice() {
        [one] => Some(*one),
        _ => None,
    }
}

/// The parameter type argument `i` meets in a phase (variadic: the element type
/// past the fixed parameters in the variable-arity phase, the array before it).
fn param_at<L: Conversions>(lang: &L, c: &Candidate<L::Ty>, i: usize, phase: Phase) -> L::Ty {
    let last = c.params.len().saturating_sub(1);
    if c.variadic && i >= last {
        let element = c.params[last].clone();
        return if phase == Phase::Varargs {
            element
        } else {
            lang.array_of(element)
        };
    }
    c.params.get(i).cloned().unwrap_or_else(|| lang.unknown())
}

/// Whether a candidate applies to the arguments in a phase: the count (defaults
/// may be left out; the variable-arity phase takes any number past the fixed
/// parameters), then every argument against its parameter.
pub fn applicable<L: Conversions>(
    lang: &L,
    args: &[L::Ty],
    c: &Candidate<L::Ty>,
    phase: Phase,
) -> Fit {
    let count_fits = match phase {
        Phase::Varargs => c.variadic && args.len() + 1 >= c.params.len(),
        _ => args.len() <= c.params.len() && args.len() >= c.required.min(c.params.len()),
    };
    if !count_fits {
        return Fit::No;
    }
    let boxing = phase != Phase::Strict;
    args.iter().enumerate().fold(Fit::Yes, |acc, (i, a)| {
        acc.and(lang.compatible(a, &param_at(lang, c, i, phase), boxing))
    })
}

/// The one applicable candidate more specific than every other (each parameter a
/// subtype of the other's), or `None`. Where several are equally specific, the
/// one whose every parameter the call fills (no default left out) wins, as C#
/// reads it; a language without defaults never has such a tie.
fn most_specific<L: Conversions>(
    lang: &L,
    yes: &[&Candidate<L::Ty>],
    n: usize,
    phase: Phase,
) -> Option<Eid> {
    if let [one] = yes {
        return Some(one.eid);
    }
    let more_specific = |m: &Candidate<L::Ty>, o: &Candidate<L::Ty>| {
        (0..n).all(|i| {
            lang.compatible(
                &param_at(lang, m, i, phase),
                &param_at(lang, o, i, phase),
                false,
            ) == Fit::Yes
        })
    };
    let best: Vec<&Candidate<L::Ty>> = yes
        .iter()
        .copied()
        .filter(|m| yes.iter().all(|o| o.eid == m.eid || more_specific(m, o)))
        .collect();
    match best.as_slice() {
        [one] => Some(one.eid),
        [] => None,
        several => {
            let full: Vec<Eid> = several
                .iter()
                .filter(|c| c.params.len() == n && !c.variadic)
                .map(|c| c.eid)
                .collect();
            match (
                full.as_slice(),
                several.iter().all(|c| c.required == c.params.len()),
            ) {
                // Without defaults nothing breaks the tie.
                (_, true) => None,
                ([one], false) => Some(*one),
                _ => None,
            }
        }
    }
}
