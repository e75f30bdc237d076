//! The overload pass: where a placed target's qualified name carries several
//! declarations, name the one the call fits, or leave it unnamed. Never a guess:
//! the language's `pick_overload` returns a declaration only when exactly one fits.

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
    let first = targets[0];
    let candidates: Vec<Eid> = cx.index.same_qualified_name(first).to_vec();
    if candidates.len() < 2 {
        return;
    }
    if let Some(picked) = resolver.pick_overload(cx, file, call, &candidates) {
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
