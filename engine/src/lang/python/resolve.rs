//! Python's ordered rules. Each reads one kind of evidence and answers Place,
//! Refuse or Pass; the evaluator (`eval.rs`) says what names and paths hold.

use crate::facts::*;
use crate::index::{Eid, TreeIndex};
use crate::lang::python::eval::{At, Found, Miss, Py, Res};
use crate::resolve::family::{Family, OutsideKind, Reason};
use crate::resolve::overload::by_arity;
use crate::resolve::{
    Cx, Decision, Eval, Hierarchy, LanguageResolver, MayReach, Placement, Results, Rule, Target,
    Val,
};

pub struct PythonResolver;

pub static PYTHON: PythonResolver = PythonResolver;

/// The order in which Python call sites meet the rules.
static RULES: &[Rule] = &[
    Rule {
        name: "patched",
        run: patched,
    },
    Rule {
        name: "dynamic_callee",
        run: dynamic_callee,
    },
    Rule {
        name: "call_result_callee",
        run: call_result_callee,
    },
    Rule {
        name: "dispatch_table",
        run: dispatch_table,
    },
    Rule {
        name: "lexical",
        run: lexical,
    },
    Rule {
        name: "import",
        run: import,
    },
    Rule {
        name: "value_flow",
        run: value_flow,
    },
    Rule {
        name: "parameter_filled_by_callers",
        run: parameter_filled_by_callers,
    },
    Rule {
        name: "builtin",
        run: builtin,
    },
    Rule {
        name: "super_call",
        run: super_call,
    },
    Rule {
        name: "receiver_member",
        run: receiver_member,
    },
    Rule {
        name: "nothing_declares_it",
        run: nothing_declares_it,
    },
];

fn at(file: u32, call: &Call) -> At {
    At {
        file,
        scope: call.scope,
        line: call.line,
    }
}

/// A name the tree replaces at run time (`monkeypatch.setattr(mod, "f", g)`,
/// `mock.patch("pkg.mod.f")`) may not be what the call reaches: `f()` read in
/// the patched module's namespace, or `recv.f()` on the patched module or class
/// (or a class above or below it), refuses.
fn patched(cx: &Cx, file: u32, call: &Call) -> Decision {
    let (name, receiver) = match &call.callee {
        Callee::Name(n) => (n, None),
        Callee::Member { receiver, name } => (name, Some(receiver)),
        _ => return Decision::Pass,
    };
    let patches = cx.index.patches_of(name);
    if patches.is_empty() {
        return Decision::Pass;
    }
    let py = Py::new(cx);
    let looked_up_in = match receiver {
        // A bare name that no enclosing function binds is read from the module.
        None => match py.lookup(at(file, call), name, 0) {
            Found::Binding(_, 0) | Found::Star(_) | Found::Builtin | Found::Unbound => {
                Some(Val::Module(file))
            }
            _ => None,
        },
        Some(r) => receiver_value(cx, &py, file, call, r).ok().map(|e| e.val),
    };
    let Some(looked_up_in) = looked_up_in else {
        return Decision::Pass;
    };
    let hit = patches.iter().any(|&(pf, pi)| {
        let patch = &cx.index.file(pf).patches[pi as usize];
        py.patch_target(pf, patch)
            .is_some_and(|target| same_object(cx, &looked_up_in, &target))
    });
    if hit {
        Decision::Refuse(Reason::Refused)
    } else {
        Decision::Pass
    }
}

/// Whether a patch of `target` changes what a lookup in `looked_up_in` finds: the
/// same module or outside object, or classes (or their instances) one of which
/// is below the other.
fn same_object(cx: &Cx, looked_up_in: &Val, target: &Val) -> bool {
    let class_of = |v: &Val| match v {
        Val::Instance(c) => Some(*c),
        Val::Entity(c) if cx.index.decl(*c).kind.is_type() => Some(*c),
        _ => None,
    };
    match (class_of(looked_up_in), class_of(target)) {
        (Some(a), Some(b)) => cx.hierarchy.is_subtype(a, b) || cx.hierarchy.is_subtype(b, a),
        _ => looked_up_in == target,
    }
}

/// `(f or g)()`, `f()()`: nothing names the callee.
fn dynamic_callee(_cx: &Cx, _file: u32, call: &Call) -> Decision {
    match call.callee {
        Callee::Dynamic => Decision::Refuse(Reason::DynamicCallee),
        _ => Decision::Pass,
    }
}

/// `f()()`: the function the inner call returns (a factory), from the previous round.
fn call_result_callee(cx: &Cx, file: u32, call: &Call) -> Decision {
    let Callee::Result(inner) = call.callee else {
        return Decision::Pass;
    };
    match cx.results.get(file, inner).cloned() {
        Some(
            e @ Eval {
                val: Val::Entity(_),
                ..
            },
        ) => place_value(cx, e, Family::ValueFlow),
        _ => Decision::Refuse(Reason::DynamicCallee),
    }
}

/// `d["k"]()` / `a[0]()` on a literal table, read at the nearest write.
fn dispatch_table(cx: &Cx, file: u32, call: &Call) -> Decision {
    let Callee::Subscript {
        base,
        key,
        key_name,
    } = &call.callee
    else {
        return Decision::Pass;
    };
    let py = Py::new(cx);
    if let (Receiver::Subscript(inner), Some(key)) = (base, key) {
        // `ls[0][1]()`: an entry of a literal table nested in a literal table.
        return match py.table_entry(at(file, call), inner, key, 0) {
            Ok(e) => place_value(cx, e, Family::ValueFlow),
            Err(_) => Decision::Refuse(Reason::DynamicCallee),
        };
    }
    let Receiver::Path(p) = base else {
        return Decision::Refuse(Reason::DynamicCallee);
    };
    let [name] = p.as_slice() else {
        return Decision::Refuse(Reason::DynamicCallee);
    };
    let keys = match (key, key_name) {
        (Some(key), _) => Some(vec![key.clone()]),
        (None, Some(k)) => py.keys_of(at(file, call), k, 0),
        (None, None) => None,
    };
    let table = ValueExpr::Name(name.clone());
    let entry = match keys.as_deref() {
        Some([key]) => py.table_entry(at(file, call), &table, key, 0),
        Some(several) if !several.is_empty() => {
            return entries_for_keys(cx, &py, at(file, call), &table, several);
        }
        _ => py.every_table_entry(at(file, call), name, 0),
    };
    match entry {
        Ok(e) => place_value(cx, e, Family::ValueFlow),
        Err(_) => Decision::Refuse(Reason::DynamicCallee),
    }
}

/// `d[k]()` where `k` may hold several literal keys: the function each key's
/// slot holds. One function for all is a placement; several are a may-reach set;
/// a slot that holds anything else (or nothing) refuses.
fn entries_for_keys(cx: &Cx, py: &Py, here: At, table: &ValueExpr, keys: &[Key]) -> Decision {
    let mut functions = Vec::with_capacity(keys.len());
    for key in keys {
        match py.table_entry(here, table, key, 0).map(|e| e.val) {
            Ok(Val::Entity(f)) if cx.index.decl(f).kind.is_callable() => functions.push(f),
            _ => return Decision::Refuse(Reason::DynamicCallee),
        }
    }
    functions.sort();
    functions.dedup();
    match functions.as_slice() {
        [one] => Decision::Place(Placement::in_tree(vec![*one], Family::ValueFlow)),
        _ => match MayReach::new(functions, Family::ValueFlow) {
            Some(set) => Decision::MayReach(set),
            None => Decision::Refuse(Reason::DynamicCallee),
        },
    }
}

/// The binding a bare callee name reads, when there is one.
fn bare_binding<'a>(cx: &'a Cx, file: u32, call: &Call) -> Option<Found<'a>> {
    let Callee::Name(name) = &call.callee else {
        return None;
    };
    Some(Py::new(cx).lookup(at(file, call), name, 0))
}

/// `f()` where f is a `def`/`class` of an enclosing scope of this file.
fn lexical(cx: &Cx, file: u32, call: &Call) -> Decision {
    match bare_binding(cx, file, call) {
        Some(Found::Binding(b, scope)) if matches!(b.value, BindingValue::Decl(_)) => {
            let py = Py::new(cx);
            let res = py.binding(
                At {
                    file,
                    scope,
                    line: b.line,
                },
                b,
                0,
            );
            decide(cx, res, Family::Lexical, Reason::LocalValue)
        }
        _ => Decision::Pass,
    }
}

/// `f()` where f is bound by an import (or a star import).
fn import(cx: &Cx, file: u32, call: &Call) -> Decision {
    match bare_binding(cx, file, call) {
        Some(Found::Binding(b, scope)) if matches!(b.value, BindingValue::Import(_)) => {
            let py = Py::new(cx);
            let res = py.binding(
                At {
                    file,
                    scope,
                    line: b.line,
                },
                b,
                0,
            );
            decide(cx, res, Family::Import, Reason::NoDeclaration)
        }
        Some(Found::Star(e)) => place_value(cx, e, Family::Import),
        _ => Decision::Pass,
    }
}

/// `h()` where h is a local holding a function (an alias, a lambda, a factory's
/// result, a bound method), or a name with a written type.
fn value_flow(cx: &Cx, file: u32, call: &Call) -> Decision {
    match bare_binding(cx, file, call) {
        Some(Found::Binding(b, scope)) => match &b.value {
            BindingValue::Value(_) | BindingValue::Typed { .. } => {
                let res = Py::new(cx).binding(
                    At {
                        file,
                        scope,
                        line: b.line,
                    },
                    b,
                    0,
                );
                decide(cx, res, Family::ValueFlow, Reason::LocalValue)
            }
            BindingValue::Opaque => Decision::Refuse(Reason::LocalValue),
            _ => Decision::Pass,
        },
        Some(Found::Later) => Decision::Refuse(Reason::LocalValue),
        Some(Found::Ambiguous) => Decision::Refuse(Reason::Ambiguous),
        _ => Decision::Pass,
    }
}

/// A called parameter that every call of its function fills with the same
/// function; callers that fill it with several functions, each known, give the
/// set (`may_reach`); a caller passing something unknown refuses.
fn parameter_filled_by_callers(cx: &Cx, file: u32, call: &Call) -> Decision {
    let Some(Found::Binding(b, scope)) = bare_binding(cx, file, call) else {
        return Decision::Pass;
    };
    let BindingValue::Param { index, ty } = &b.value else {
        return Decision::Pass;
    };
    if ty.is_some() {
        let res = Py::new(cx).binding(
            At {
                file,
                scope,
                line: b.line,
            },
            b,
            0,
        );
        return decide(cx, res, Family::WrittenType, Reason::ParameterValue);
    }
    let facts = cx.index.file(file);
    let Some(owner) = facts.scopes[scope as usize].owner else {
        return Decision::Refuse(Reason::ParameterValue);
    };
    let function = Eid { file, decl: owner };
    match functions_callers_pass(cx, function, *index).as_deref() {
        Some([f]) => Decision::Place(Placement::in_tree(vec![*f], Family::ValueFlow)),
        Some(several) => match MayReach::new(several.to_vec(), Family::ValueFlow) {
            Some(set) => Decision::MayReach(set),
            None => Decision::Refuse(Reason::ParameterValue),
        },
        None => Decision::Refuse(Reason::ParameterValue),
    }
}

/// The functions the callers of `function` pass for parameter `index`, when every
/// caller passes a function the tree declares.
fn functions_callers_pass(cx: &Cx, function: Eid, index: u32) -> Option<Vec<Eid>> {
    let values = Py::new(cx).values_callers_pass(function, index, 0)?;
    values
        .into_iter()
        .map(|v| match v {
            Val::Entity(f) if cx.index.decl(f).kind.is_callable() => Some(f),
            _ => None,
        })
        .collect()
}

/// `len(x)`: a built-in, where nothing in scope binds the name and no module of
/// the tree declares that name at its top level (a module of the tree may be star-imported
/// or patched into `builtins`; the closed list proves only an undeclared name).
fn builtin(cx: &Cx, file: u32, call: &Call) -> Decision {
    let Callee::Name(n) = &call.callee else {
        return Decision::Pass;
    };
    match bare_binding(cx, file, call) {
        Some(Found::Builtin) if cx.index.declares_top_level(n) => {
            Decision::Refuse(Reason::Ambiguous)
        }
        Some(Found::Builtin) => Decision::Place(Placement::outside(
            OutsideKind::Builtin,
            n.clone(),
            Family::Builtin,
        )),
        Some(Found::Unbound) => Decision::Refuse(Reason::NoDeclaration),
        _ => Decision::Pass,
    }
}

/// `super().m()`: m on the bases of the caller's class, in C3 order after it.
fn super_call(cx: &Cx, file: u32, call: &Call) -> Decision {
    let Callee::Member {
        receiver: Receiver::Super,
        name,
    } = &call.callee
    else {
        return Decision::Pass;
    };
    let py = Py::new(cx);
    let Some(class) = py.enclosing_class(at(file, call)) else {
        return Decision::Refuse(Reason::ReceiverTypeUnknown);
    };
    let order = cx
        .hierarchy
        .order(class)
        .map(<[Eid]>::to_vec)
        .unwrap_or_default();
    for &t in order.iter().skip(1) {
        let found = cx.index.members(t, name);
        if !found.is_empty() {
            return Decision::Place(Placement::in_tree(found.to_vec(), Family::Inheritance));
        }
    }
    Decision::Refuse(Reason::ReceiverTypeUnknown)
}

/// `recv.m()`: what the receiver holds, then its member.
fn receiver_member(cx: &Cx, file: u32, call: &Call) -> Decision {
    let Callee::Member { receiver, name } = &call.callee else {
        return Decision::Pass;
    };
    let py = Py::new(cx);
    let base = match receiver_value(cx, &py, file, call, receiver) {
        Ok(b) => b,
        Err(Miss::Unbound) => return Decision::Pass,
        Err(Miss::Ambiguous) => return Decision::Refuse(Reason::Ambiguous),
        Err(Miss::Undeclared) => return Decision::Unresolved,
        Err(_) => return Decision::Refuse(Reason::ReceiverTypeUnknown),
    };
    let res = py.attribute(&base, name, 0);
    if let (Err(Miss::Ambiguous | Miss::NoMember), Val::Instance(own), Family::OwnType) =
        (&res, &base.val, base.family)
    {
        if let Some(set) = self_dispatch(&py, *own, name) {
            return Decision::MayReach(set);
        }
    }
    let receiver_family = match base.val {
        Val::Module(_) | Val::Namespace(_) => Family::Import,
        _ => base.family,
    };
    decide(cx, res, receiver_family, Reason::ReceiverTypeUnknown)
}

/// `self.m()` where a subclass overrides `m`, or where only subclasses provide it:
/// every method an instance of the caller's class or of a class below it runs.
fn self_dispatch(py: &Py, own: Eid, name: &str) -> Option<MayReach> {
    MayReach::new(py.own_type_dispatch(own, name, 0)?, Family::Inheritance)
}

fn receiver_value(cx: &Cx, py: &Py, file: u32, call: &Call, receiver: &Receiver) -> Res {
    match receiver {
        Receiver::Path(p) => py.path(at(file, call), p, 0),
        Receiver::Call(c) => cx.results.get(file, *c).cloned().ok_or(Miss::Unknown),
        Receiver::CallThen { call: c, path } => {
            let mut cur = cx.results.get(file, *c).cloned().ok_or(Miss::Unknown)?;
            for attr in path {
                cur = py.attribute(&cur, attr, 0)?;
            }
            Ok(cur)
        }
        Receiver::Literal(l) => Ok(Eval::new(
            Val::ForeignInstance(l.type_name(false).to_string()),
            Family::ForeignType,
        )),
        _ => Err(Miss::Unknown),
    }
}

/// `x.m()` where neither x nor m is declared or bound anywhere in the tree.
fn nothing_declares_it(cx: &Cx, _file: u32, call: &Call) -> Decision {
    let Callee::Member {
        receiver: Receiver::Path(p),
        name,
    } = &call.callee
    else {
        return Decision::Refuse(Reason::ReceiverTypeUnknown);
    };
    let Some(first) = p.first() else {
        return Decision::Refuse(Reason::ReceiverTypeUnknown);
    };
    if cx.index.declares_name(first) || cx.index.declares_name(name) {
        return Decision::Refuse(Reason::ReceiverTypeUnknown);
    }
    let symbol = format!("{}.{}", p.join("."), name);
    Decision::Place(Placement::outside(
        OutsideKind::Undeclared,
        symbol,
        Family::NothingDeclaresIt,
    ))
}

/// Turn an evaluation into a decision: place what it names, or refuse with the
/// reason its miss stands for.
fn decide(cx: &Cx, res: Res, family: Family, unknown: Reason) -> Decision {
    match res {
        Ok(e) => {
            let fam = if e.family == Family::Lexical {
                family
            } else {
                e.family
            };
            place_value(cx, e, fam)
        }
        Err(Miss::Parameter) => Decision::Refuse(Reason::ParameterValue),
        Err(Miss::Local) => Decision::Refuse(Reason::LocalValue),
        Err(Miss::Ambiguous) => Decision::Refuse(Reason::Ambiguous),
        Err(Miss::Undeclared) => Decision::Unresolved,
        Err(Miss::NoMember) => Decision::Refuse(Reason::NoDeclaration),
        Err(Miss::Decorated) => Decision::Refuse(Reason::Refused),
        Err(Miss::Unbound) => Decision::Refuse(Reason::NoDeclaration),
        Err(Miss::Unknown) => Decision::Refuse(unknown),
    }
}

/// Place a call on what its callee evaluated to.
fn place_value(cx: &Cx, e: Eval, family: Family) -> Decision {
    match e.val {
        Val::Entity(c) if cx.index.decl(c).kind.is_type() => construction(cx, c),
        Val::Entity(f) => Decision::Place(Placement::in_tree(
            vec![f],
            in_tree_family(family, e.family),
        )),
        Val::Entities(fs) => {
            Decision::Place(Placement::in_tree(fs, in_tree_family(family, e.family)))
        }
        Val::Outside { kind, symbol } => Decision::Place(Placement::outside(
            kind,
            symbol,
            outside_family(e.family, kind),
        )),
        // Calling None raises: a call that runs reads a value written elsewhere
        // (a subclass's `cls = C` over the base's `cls = None`).
        Val::ForeignInstance(t) if t == "NoneType" => Decision::Refuse(Reason::Refused),
        Val::ForeignInstance(t) => Decision::Place(Placement::outside(
            OutsideKind::ForeignType,
            format!("{t}.__call__"),
            Family::ForeignType,
        )),
        Val::Instance(c) => {
            // Calling an instance calls its class's `__call__`.
            let py = Py::new(cx);
            match py.attribute(&Eval::new(Val::Instance(c), e.family), "__call__", 0) {
                Ok(m) => place_value(cx, m, family),
                Err(_) => Decision::Refuse(Reason::Refused),
            }
        }
        Val::Module(_) | Val::Namespace(_) => Decision::Refuse(Reason::Refused),
    }
}

fn in_tree_family(rule: Family, evidence: Family) -> Family {
    if evidence.places_outside() || evidence == Family::Construction {
        rule
    } else {
        evidence
    }
}

fn outside_family(evidence: Family, kind: OutsideKind) -> Family {
    if evidence.places_outside() {
        return evidence;
    }
    match kind {
        OutsideKind::Builtin => Family::Builtin,
        OutsideKind::ForeignType => Family::ForeignType,
        OutsideKind::Undeclared => Family::NothingDeclaresIt,
        OutsideKind::Stdlib | OutsideKind::External => Family::ExternalImport,
    }
}

/// `C()` reaches C's `__init__` (its own, or the first in C3 order), or the class
/// itself where the tree declares none.
fn construction(cx: &Cx, class: Eid) -> Decision {
    let order = cx
        .hierarchy
        .order(class)
        .map(<[Eid]>::to_vec)
        .unwrap_or_else(|| vec![class]);
    for &t in &order {
        let init = cx.index.members(t, "__init__");
        if !init.is_empty() {
            return Decision::Place(Placement::in_tree(init.to_vec(), Family::Construction));
        }
    }
    Decision::Place(Placement::in_tree(vec![class], Family::Construction))
}

/// What a call's callee expression evaluates to (a bare name or `recv.name`).
fn callee_value(cx: &Cx, py: &Py, file: u32, call: &Call) -> Option<Eval> {
    match &call.callee {
        Callee::Name(n) => py.name(at(file, call), n, 0).ok(),
        Callee::Member { receiver, name } => {
            let base = receiver_value(cx, py, file, call, receiver).ok()?;
            py.attribute(&base, name, 0).ok()
        }
        _ => None,
    }
}

/// For a method returning `Self` (or `self`), the class of the receiver it was
/// called on: `Child().chain()` is a Child even where Base declares `chain`.
fn self_receiver(cx: &Cx, py: &Py, file: u32, call: &Call, target: Eid) -> Option<Eid> {
    let decl = cx.index.decl(target);
    let self_like = decl.returns.as_ref().is_some_and(|t| t.is_self)
        || matches!(decl.returns_value, Some(ReturnValue::SelfValue));
    let Callee::Member { receiver, .. } = &call.callee else {
        return None;
    };
    if !self_like {
        return None;
    }
    match receiver_value(cx, py, file, call, receiver).ok()?.val {
        Val::Instance(c) => Some(c),
        _ => None,
    }
}

impl LanguageResolver for PythonResolver {
    fn rules(&self) -> &'static [Rule] {
        RULES
    }

    fn call_result(&self, cx: &Cx, file: u32, call: &Call, p: &Placement) -> Option<Eval> {
        let target = p.single().or_else(|| match p.target() {
            Target::InTree(t) => t.last().copied(),
            Target::Outside { .. } => None,
        })?;
        let py = Py::new(cx);
        if p.family() == Family::Construction {
            // The instance is of the class called, not of the base whose
            // `__init__` runs: `C()` with `C(A, B)` inheriting A's `__init__` is a C.
            let called = match callee_value(cx, &py, file, call).map(|e| e.val) {
                Some(Val::Entity(c)) if cx.index.decl(c).kind.is_type() => Some(c),
                _ => None,
            };
            let decl = cx.index.decl(target);
            let class = match called {
                Some(c) => c,
                None if decl.kind.is_type() => target,
                None => cx.index.enclosing_type(target)?,
            };
            return Some(Eval::new(Val::Instance(class), Family::WrittenType));
        }
        py.returned(target, self_receiver(cx, &py, file, call, target), 0)
    }

    fn resolve_ref(&self, cx: &Cx, file: u32, r: &ValueRef) -> Option<Placement> {
        let py = Py::new(cx);
        let here = At {
            file,
            scope: r.scope,
            line: r.line,
        };
        let e = match &r.target {
            Callee::Name(n) => py.name(here, n, 0).ok()?,
            Callee::Member {
                receiver: Receiver::Path(p),
                name,
            } => {
                let base = py.path(here, p, 0).ok()?;
                py.attribute(&base, name, 0).ok()?
            }
            _ => return None,
        };
        let Val::Entity(f) = e.val else { return None };
        if !cx.index.decl(f).kind.is_callable() {
            return None;
        }
        let family = if e.family.places_outside() {
            Family::ValueFlow
        } else {
            e.family
        };
        Some(Placement::in_tree(vec![f], family))
    }

    fn bases(&self, index: &TreeIndex, ty: Eid) -> (Vec<Eid>, bool) {
        let hierarchy = Hierarchy::default();
        let results = Results::default();
        let cx = Cx {
            index,
            hierarchy: &hierarchy,
            results: &results,
        };
        let py = Py::new(&cx);
        let decl = index.decl(ty);
        let at = At {
            file: ty.file,
            scope: decl.scope,
            line: decl.line,
        };
        let mut out = Vec::new();
        let mut unknown = false;
        for base in &decl.bases {
            if base.path == ["object"] {
                continue;
            }
            match py.path(at, &base.path, 0).map(|e| e.val) {
                Ok(Val::Entity(b)) if index.decl(b).kind.is_type() && b != ty => out.push(b),
                _ => unknown = true,
            }
        }
        (out, unknown)
    }

    fn lookup_order(&self, hierarchy: &Hierarchy, ty: Eid) -> Vec<Eid> {
        hierarchy.c3(ty).unwrap_or_else(|| vec![ty])
    }

    fn pick_overload(&self, cx: &Cx, _file: u32, call: &Call, candidates: &[Eid]) -> Option<Eid> {
        // `@overload` signatures never run: the one definition they announce does.
        let definitions: Vec<Eid> = candidates
            .iter()
            .copied()
            .filter(|&c| !cx.index.decl(c).is_overload_stub())
            .collect();
        if let ([one], true) = (definitions.as_slice(), definitions.len() < candidates.len()) {
            return Some(*one);
        }
        let through_instance = matches!(call.callee, Callee::Member { .. });
        let fits = by_arity(cx, call, candidates, |c| {
            let d = cx.index.decl(c);
            through_instance && d.kind == DeclKind::Method && !d.is_static
        });
        match fits.as_slice() {
            [one] => Some(*one),
            _ => None,
        }
    }
}
