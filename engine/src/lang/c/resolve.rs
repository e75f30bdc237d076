//! C resolution: an ordered list of small rules mirroring what the compiler and
//! the linker bind. A bare call reaches the function *definition* (what clang's
//! debug info names): in the caller's own file first, then the one non-static
//! definition of the tree (several: the one the caller's includes point at, else
//! abstain), a prototype with no definition is `unresolved`, and a name the tree
//! never declares leaves it. A call through a struct field, a parameter or a local
//! is a call through a function pointer: abstain with its reason. The helpers
//! marked `pub(crate)` are C++'s too.

use crate::facts::{BindingValue, Call, Callee, ImportKind, Receiver, ValueRef};
use crate::index::{Eid, TreeIndex};
use crate::lang::c::policy;
use crate::resolve::family::{Family, OutsideKind, Reason};
use crate::resolve::{Cx, Decision, Eval, Hierarchy, LanguageResolver, Placement, Rule};

pub struct CResolver;

pub static C: CResolver = CResolver;

const RULES: &[Rule] = &[
    Rule {
        name: "a_parameter_or_local",
        run: a_parameter_or_local,
    },
    Rule {
        name: "a_file_scope_variable",
        run: a_file_scope_variable,
    },
    Rule {
        name: "defined_in_this_file",
        run: defined_in_this_file,
    },
    Rule {
        name: "defined_elsewhere_in_the_tree",
        run: defined_elsewhere_in_the_tree,
    },
    Rule {
        name: "declared_but_never_defined",
        run: declared_but_never_defined,
    },
    Rule {
        name: "outside_the_tree",
        run: outside_the_tree,
    },
    Rule {
        name: "call_through_a_field",
        run: call_through_a_field,
    },
];

impl LanguageResolver for CResolver {
    fn rules(&self) -> &'static [Rule] {
        RULES
    }

    /// C has no receivers to chain through.
    fn call_result(&self, _cx: &Cx, _f: u32, _c: &Call, _p: &Placement) -> Option<Eval> {
        None
    }

    fn resolve_ref(&self, cx: &Cx, file: u32, r: &ValueRef) -> Option<Placement> {
        resolve_ref_by_rules(cx, file, r, RULES)
    }

    fn bases(&self, _index: &TreeIndex, _ty: Eid) -> (Vec<Eid>, bool) {
        (Vec::new(), false)
    }

    fn lookup_order(&self, _hierarchy: &Hierarchy, ty: Eid) -> Vec<Eid> {
        vec![ty]
    }

    /// Two definitions of one name in one file (alternatives under `#if`): the one
    /// whose parameters fit, when only one does.
    fn pick_overload(&self, cx: &Cx, _file: u32, call: &Call, candidates: &[Eid]) -> Option<Eid> {
        pick_definition(cx, call, candidates)
    }
}

/// A function used as a value resolves like a bare call of its name; only an
/// in-tree placement is kept.
pub(crate) fn resolve_ref_by_rules(
    cx: &Cx,
    file: u32,
    r: &ValueRef,
    rules: &[Rule],
) -> Option<Placement> {
    let Callee::Name(_) = &r.target else {
        return None;
    };
    let call = Call::of_ref(r, true);
    for rule in rules {
        match (rule.run)(cx, file, &call) {
            Decision::Place(p) if matches!(p.target(), crate::resolve::Target::InTree(_)) => {
                // Only functions are values; a class named here is a type.
                let crate::resolve::Target::InTree(t) = p.target() else {
                    return None;
                };
                if t.iter().all(|&e| cx.index.decl(e).kind.is_callable()) {
                    return Some(p);
                }
                return None;
            }
            Decision::Pass => continue,
            _ => return None,
        }
    }
    None
}

/// A parameter or local of the caller named like the callee: the call goes
/// through whatever function pointer it holds.
fn a_parameter_or_local(cx: &Cx, file: u32, call: &Call) -> Decision {
    let Callee::Name(name) = &call.callee else {
        return Decision::Pass;
    };
    match local_binding(cx, file, call, name) {
        Some(Local::Param) => Decision::Refuse(Reason::ParameterValue),
        Some(Local::Variable) => Decision::Refuse(Reason::LocalValue),
        None => Decision::Pass,
    }
}

pub(crate) enum Local {
    Param,
    Variable,
}

/// The nearest binding of `name` in the scopes enclosing the call, below the file.
pub(crate) fn local_binding(cx: &Cx, file: u32, call: &Call, name: &str) -> Option<Local> {
    let facts = cx.index.file(file);
    let mut scope = Some(call.scope);
    while let Some(s) = scope {
        if s == 0 {
            return None;
        }
        let sc = &facts.scopes[s as usize];
        // A declaration's scope starts where it is written.
        if let Some(b) = sc.named(name).rfind(|b| b.line <= call.line) {
            return Some(match b.value {
                BindingValue::Param { .. } => Local::Param,
                _ => Local::Variable,
            });
        }
        scope = sc.parent;
    }
    None
}

/// A file-scope variable (a global function pointer) named like the callee.
fn a_file_scope_variable(cx: &Cx, file: u32, call: &Call) -> Decision {
    let Callee::Name(name) = &call.callee else {
        return Decision::Pass;
    };
    if cx.index.file(file).scopes[0].named(name).next().is_some() {
        return Decision::Refuse(Reason::DynamicCallee);
    }
    Decision::Pass
}

/// The caller's own file defines the function (static or not): the translation
/// unit's own definition wins.
fn defined_in_this_file(cx: &Cx, file: u32, call: &Call) -> Decision {
    let Callee::Name(name) = &call.callee else {
        return Decision::Pass;
    };
    let defs: Vec<Eid> = cx
        .index
        .top_level(file, name)
        .into_iter()
        .filter(|&e| is_definition(cx.index, e) && cx.index.decl(e).kind.is_callable())
        .collect();
    if defs.is_empty() {
        return Decision::Pass;
    }
    Decision::Place(Placement::in_tree(defs, Family::Lexical))
}

/// One definition of the name elsewhere in the tree that the linker could bind
/// (not `static` in another file; a `static inline` in a header the caller
/// includes is visible). Several: the one the caller's includes point at.
fn defined_elsewhere_in_the_tree(cx: &Cx, file: u32, call: &Call) -> Decision {
    let Callee::Name(name) = &call.callee else {
        return Decision::Pass;
    };
    match definitions_visible_from(cx, file, cx.index.c_scoped(name)) {
        Visible::None => Decision::Pass,
        Visible::One(defs, family) => Decision::Place(Placement::in_tree(defs, family)),
        Visible::Ambiguous => Decision::Refuse(Reason::Ambiguous),
    }
}

pub(crate) enum Visible {
    None,
    /// Definitions sharing one file (and qualified name), with the evidence.
    One(Vec<Eid>, Family),
    Ambiguous,
}

/// Among `decls` (one scoped name), the callable definitions a call in `file`
/// links to: its own file's, else one other file's (`import` where an included
/// file declares or defines the name, `unique_name` otherwise), else the one the
/// includes single out; several left → ambiguous.
pub(crate) fn definitions_visible_from(cx: &Cx, file: u32, decls: &[Eid]) -> Visible {
    let defs: Vec<Eid> = decls
        .iter()
        .copied()
        .filter(|&e| is_definition(cx.index, e) && cx.index.decl(e).kind.is_callable())
        .filter(|&e| {
            let d = cx.index.decl(e);
            !d.file_local || e.file == file || includes(cx.index, file, e.file)
        })
        .collect();
    if defs.is_empty() {
        return Visible::None;
    }
    let own: Vec<Eid> = defs.iter().copied().filter(|e| e.file == file).collect();
    if !own.is_empty() {
        return Visible::One(own, Family::Lexical);
    }
    let mut files: Vec<u32> = defs.iter().map(|e| e.file).collect();
    files.sort();
    files.dedup();
    let declared_in_includes = decls
        .iter()
        .any(|&e| e.file != file && includes(cx.index, file, e.file));
    if files.len() == 1 {
        let family = if declared_in_includes {
            Family::Import
        } else {
            Family::UniqueName
        };
        return Visible::One(defs, family);
    }
    // Several files define it: a header the caller includes defines it (inline),
    // or exactly one defining file is the twin of a header the caller includes
    // that declares it (`util.h` ↔ `util.c`).
    let included: Vec<u32> = files
        .iter()
        .copied()
        .filter(|&f| includes(cx.index, file, f))
        .collect();
    if included.len() == 1 {
        return Visible::One(
            defs.into_iter().filter(|e| e.file == included[0]).collect(),
            Family::Import,
        );
    }
    let declaring_stems: Vec<&str> = decls
        .iter()
        .filter(|&&e| !is_definition(cx.index, e) && includes(cx.index, file, e.file))
        .map(|&e| stem(&cx.index.file(e.file).path))
        .collect();
    let twins: Vec<u32> = files
        .iter()
        .copied()
        .filter(|&f| declaring_stems.contains(&stem(&cx.index.file(f).path)))
        .collect();
    if twins.len() == 1 {
        return Visible::One(
            defs.into_iter().filter(|e| e.file == twins[0]).collect(),
            Family::Import,
        );
    }
    Visible::Ambiguous
}

/// `src/util.c` → `src/util`.
fn stem(path: &str) -> &str {
    path.rsplit_once('.').map(|(s, _)| s).unwrap_or(path)
}

/// A declaration with a body (a function definition, a class with members).
pub(crate) fn is_definition(index: &TreeIndex, e: Eid) -> bool {
    index.decl(e).body.is_some()
}

/// Whether `from` includes `to`, directly or through other files of the tree.
pub(crate) fn includes(index: &TreeIndex, from: u32, to: u32) -> bool {
    if from == to {
        return true;
    }
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![from];
    while let Some(f) = stack.pop() {
        if !seen.insert(f) || seen.len() > 1024 {
            continue;
        }
        for imp in &index.file(f).imports {
            if let ImportKind::CInclude {
                resolved: Some(p), ..
            } = &imp.kind
            {
                if let Some(next) = index.file_by_path(p) {
                    if next == to {
                        return true;
                    }
                    stack.push(next);
                }
            }
        }
    }
    false
}

/// A prototype in the tree and no definition anywhere: the tree claims the name.
fn declared_but_never_defined(cx: &Cx, file: u32, call: &Call) -> Decision {
    let Callee::Name(name) = &call.callee else {
        return Decision::Pass;
    };
    if visible_claims(cx, file, name) {
        return Decision::Unresolved;
    }
    Decision::Pass
}

/// Whether a callable of that name is declared where `file` can see it: a
/// `static` function of another file (not included) is no claim on the name.
fn visible_claims(cx: &Cx, file: u32, name: &str) -> bool {
    cx.index.c_scoped(name).iter().any(|&e| {
        let d = cx.index.decl(e);
        d.kind.is_callable()
            && (!d.file_local || e.file == file || includes(cx.index, file, e.file))
    })
}

/// Nothing in the tree declares the name: a compiler built-in, the standard
/// library (a closed list), a library the file includes (`<…>`), or undeclared.
fn outside_the_tree(cx: &Cx, file: u32, call: &Call) -> Decision {
    let Callee::Name(name) = &call.callee else {
        return Decision::Pass;
    };
    outside_by_name(cx, file, name, name)
}

pub(crate) fn outside_by_name(cx: &Cx, file: u32, name: &str, symbol: &str) -> Decision {
    // C sees only top-level functions (a C++ method of that name elsewhere in the
    // tree is no claim on a C call); C++ is kept conservative: any callable.
    let c = cx.index.file(file).language == crate::lang::Language::C;
    let claimed = if c {
        visible_claims(cx, file, name)
    } else {
        cx.index
            .by_name(name)
            .iter()
            .any(|&e| cx.index.decl(e).kind.is_callable())
    };
    if claimed {
        return Decision::Pass;
    }
    if policy::is_compiler_builtin(name) {
        return Decision::Place(Placement::outside(
            OutsideKind::Builtin,
            symbol,
            Family::Builtin,
        ));
    }
    if policy::is_stdlib_function(name) {
        return Decision::Place(Placement::outside(
            OutsideKind::Stdlib,
            symbol,
            Family::ExternalImport,
        ));
    }
    let system_include = cx.index.file(file).imports.iter().any(|i| {
        matches!(
            &i.kind,
            ImportKind::CInclude { system: true, .. } | ImportKind::CInclude { resolved: None, .. }
        )
    });
    if system_include {
        return Decision::Place(Placement::outside(
            OutsideKind::External,
            symbol,
            Family::ExternalImport,
        ));
    }
    Decision::Place(Placement::outside(
        OutsideKind::Undeclared,
        symbol,
        Family::NothingDeclaresIt,
    ))
}

/// C has no methods: `s->fn(x)` / `s.fn(x)` calls whatever function pointer the
/// field holds.
fn call_through_a_field(_cx: &Cx, _file: u32, call: &Call) -> Decision {
    match &call.callee {
        Callee::Member {
            receiver: Receiver::Scope(_),
            ..
        } => Decision::Pass,
        Callee::Member { .. } => Decision::Refuse(Reason::DynamicCallee),
        _ => Decision::Pass,
    }
}

/// Among declarations sharing one qualified name, the one a call names. A
/// prototype or in-class declaration shares its definition's qualified name when
/// both are in one file: where every candidate writes the same parameter types
/// they are one function, and its definition is preferred; then the one whose
/// parameters fit the argument count, when only one does (C and C++ alike).
/// Overloads (parameter types differ) are told apart by the argument count
/// alone: several fitting functions leave the declaration unnamed, since a
/// definition of one overload says nothing about a call of another. Deleted
/// functions are never candidates.
pub(crate) fn pick_definition(cx: &Cx, call: &Call, candidates: &[Eid]) -> Option<Eid> {
    // A deleted function (`T(const T&) = delete;`) is never what a call runs.
    let callable: Vec<Eid> = candidates
        .iter()
        .copied()
        .filter(|&e| !cx.index.decl(e).is_deleted)
        .collect();
    let candidates = callable.as_slice();
    if candidates.is_empty() {
        return None;
    }
    let signature = |e: Eid| -> Vec<Option<&crate::facts::TypeRef>> {
        cx.index
            .decl(e)
            .params
            .iter()
            .map(|p| p.ty.as_ref())
            .collect()
    };
    let one_signature = |set: &[Eid]| {
        let first = signature(set[0]);
        set.iter().all(|&e| signature(e) == first)
    };
    if one_signature(candidates) {
        return one_function_definition(cx, call, candidates);
    }
    let fits = crate::resolve::overload::by_arity(cx, call, candidates, |_| false);
    if fits.is_empty() || !one_signature(&fits) {
        return None;
    }
    one_function_definition(cx, call, &fits)
}

/// Declarations of one function (one signature): its definition, else the
/// declaration the argument count fits when only one does.
fn one_function_definition(cx: &Cx, call: &Call, candidates: &[Eid]) -> Option<Eid> {
    let definitions: Vec<Eid> = candidates
        .iter()
        .copied()
        .filter(|&e| cx.index.decl(e).body.is_some())
        .collect();
    let pool = if definitions.is_empty() {
        candidates
    } else {
        &definitions
    };
    match crate::resolve::overload::by_arity(cx, call, pool, |_| false).as_slice() {
        [one] => Some(*one),
        _ => None,
    }
}
