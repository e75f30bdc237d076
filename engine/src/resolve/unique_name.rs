//! `unique_name`: the only declaration of a bare name in the whole tree. The
//! weakest evidence, tried after every stronger rule and kept in its own family
//! so it can be filtered. Only languages that make such a name visible without an
//! import (C across files) list it; Python and Java do not (SHAPES S05).

use crate::facts::{Call, Callee};
use crate::resolve::family::Family;
use crate::resolve::{Cx, Decision, Placement};

/// Place a bare call on the one callable the tree declares with that name.
pub fn the_only_declaration_of_that_name(cx: &Cx, _file: u32, call: &Call) -> Decision {
    let Callee::Name(name) = &call.callee else {
        return Decision::Pass;
    };
    let found: Vec<_> = cx
        .index
        .by_name(name)
        .iter()
        .copied()
        .filter(|&e| cx.index.decl(e).kind.is_callable())
        .collect();
    match found.as_slice() {
        [one] => Decision::Place(Placement::in_tree(vec![*one], Family::UniqueName)),
        _ => Decision::Pass,
    }
}
