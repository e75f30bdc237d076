//! Java resolution: an ordered list of small rules, each reading one kind of
//! evidence. A variable shadows a type of the same name, so the rule for typed
//! receivers runs before the rule for `Type.m()`. Every edge leaves through
//! `Placement::in_tree` / `Placement::outside` with the family of its rule.

use crate::facts::{Call, CallKind, Callee, DeclKind, ImportKind, Receiver, ReturnValue, ValueRef};
use crate::index::{Eid, TreeIndex};
use crate::lang::classes::{self, BoundBy};
use crate::lang::java::eval::{self, call_site, eval_instance, Recv};
use crate::lang::java::lookup::{
    self, choose_method, constructors, enclosing_types, outside_bases, outside_bases_with,
    own_type, superclass, MethodChoice, OutsideBases, Superclass,
};
use crate::lang::java::overload;
use crate::lang::java::policy;
use crate::lang::java::types::{jtype, resolve_type, Named, Site, TypeCx, Via};
use crate::resolve::family::{Family, OutsideKind, Reason};
use crate::resolve::{
    Cx, Decision, Eval, Hierarchy, LanguageResolver, Placement, Rule, Target, Val,
};

pub struct JavaResolver;

pub static JAVA: JavaResolver = JavaResolver;

const RULES: &[Rule] = &[
    Rule {
        name: "constructor_chain",
        run: constructor_chain,
    },
    Rule {
        name: "construction",
        run: construction,
    },
    Rule {
        name: "implicit_this",
        run: implicit_this,
    },
    Rule {
        name: "static_import",
        run: static_import,
    },
    Rule {
        name: "this_receiver",
        run: this_receiver,
    },
    Rule {
        name: "super_receiver",
        run: super_receiver,
    },
    Rule {
        name: "typed_receiver",
        run: typed_receiver,
    },
    Rule {
        name: "type_receiver",
        run: type_receiver,
    },
    Rule {
        name: "chained_receiver",
        run: chained_receiver,
    },
];

impl LanguageResolver for JavaResolver {
    fn rules(&self) -> &'static [Rule] {
        RULES
    }

    fn call_result(&self, cx: &Cx, file: u32, call: &Call, placement: &Placement) -> Option<Eval> {
        if call.kind == CallKind::ConstructorChain {
            return None;
        }
        match placement.target() {
            Target::InTree(targets) => in_tree_result(cx, file, call, placement, targets),
            Target::Outside { .. } => outside_result(cx, file, call),
        }
    }

    fn resolve_ref(&self, cx: &Cx, file: u32, r: &ValueRef) -> Option<Placement> {
        method_reference(cx, file, r)
    }

    /// Direct bases as the tree resolves them; any base it cannot place in the tree
    /// (outside or unknown) raises the flag.
    fn bases(&self, index: &TreeIndex, ty: Eid) -> (Vec<Eid>, bool) {
        let tcx = TypeCx {
            index,
            hierarchy: None,
        };
        let site = Site::of_decl(index, ty);
        classes::direct_bases(index, ty, |base| {
            match resolve_type(tcx, site, &base.path) {
                Named::InTree(b) => Some(b),
                _ => None,
            }
        })
    }

    /// Superclass chain first, then interfaces: the frontend lists the superclass
    /// first, so depth-first order is exactly that.
    fn lookup_order(&self, hierarchy: &Hierarchy, ty: Eid) -> Vec<Eid> {
        hierarchy.depth_first(ty)
    }

    fn pick_overload(&self, cx: &Cx, file: u32, call: &Call, candidates: &[Eid]) -> Option<Eid> {
        overload::pick(cx, file, call, candidates)
    }
}

// ----- placing ---------------------------------------------------------------------------

/// An edge out of the tree through an outside type, by how its name was bound:
/// `java.lang` → builtin, an import → external_import, a qualified path → foreign_type.
fn outside_via(via: Via, fqn: &str, symbol: String) -> Decision {
    let how = match via {
        Via::JavaLang => BoundBy::Builtin,
        Via::Import | Via::OnDemand => BoundBy::Import,
        Via::Qualified => BoundBy::Qualified,
    };
    classes::outside_through(how, policy::is_stdlib(fqn), symbol)
}

fn foreign(symbol: String) -> Decision {
    Decision::Place(Placement::outside(
        OutsideKind::ForeignType,
        symbol,
        Family::ForeignType,
    ))
}

fn builtin(symbol: String) -> Decision {
    Decision::Place(Placement::outside(
        OutsideKind::Builtin,
        symbol,
        Family::Builtin,
    ))
}

/// Place a method call on a type of the tree: the type's own declaration (the
/// rule's family) or one it inherits (`inheritance`); what no type of the tree
/// declares leaves through `java.lang.Object`/`Enum` or an outside base.
fn place_on_type(cx: &Cx, file: u32, call: &Call, ty: Eid, name: &str, family: Family) -> Decision {
    let order = lookup::order(cx, ty);
    match choose_method(cx, file, Some(call), &order, name) {
        MethodChoice::Found { on, decls } => {
            let family = if on == ty {
                family
            } else {
                Family::Inheritance
            };
            Decision::Place(Placement::in_tree(decls, family))
        }
        MethodChoice::Ambiguous => Decision::Refuse(Reason::Ambiguous),
        MethodChoice::NoFit => Decision::Refuse(Reason::Refused),
        MethodChoice::NotInTree => not_declared_in_tree(cx, ty, &order, name, family),
    }
}

/// A member no type of the hierarchy declares: a member of every object, an
/// enum's inherited or synthesised member, or one an outside base supplies.
fn not_declared_in_tree(cx: &Cx, ty: Eid, order: &[Eid], name: &str, family: Family) -> Decision {
    if let Some(d) = implicit_member(cx, ty, name, family) {
        return d;
    }
    if cx.hierarchy.order_was_cut(ty) {
        // The lookup stopped at the depth bound: a type further up may declare it (D18).
        return Decision::Refuse(Reason::Refused);
    }
    match outside_bases(cx, order) {
        OutsideBases::None => Decision::Unresolved,
        OutsideBases::Outside(bases) => match outside_bases_with(&bases, name).first() {
            Some(base) => foreign(format!("{base}.{name}")),
            None => Decision::Unresolved,
        },
        OutsideBases::Unsure => Decision::Refuse(Reason::ReceiverTypeUnknown),
    }
}

/// Members every type has without declaring them: `Object`'s methods and an
/// enum's `Enum` methods (outside the tree), and the members javac synthesises on
/// a type of the tree — an enum's `values()`/`valueOf()`, a record's accessors —
/// which reach that type (javac has no other declaration to point at).
fn implicit_member(cx: &Cx, ty: Eid, name: &str, family: Family) -> Option<Decision> {
    if policy::OBJECT_METHODS.contains(&name) {
        return Some(builtin(format!("java.lang.Object.{name}")));
    }
    let decl = cx.index.decl(ty);
    let synthetic = match decl.kind {
        DeclKind::Enum if policy::ENUM_METHODS.contains(&name) => {
            return Some(builtin(format!("java.lang.Enum.{name}")))
        }
        DeclKind::Enum => policy::ENUM_SYNTHETIC.contains(&name),
        DeclKind::Record => decl.fields.iter().any(|f| f.name == name),
        _ => false,
    };
    synthetic.then(|| Decision::Place(Placement::in_tree(vec![ty], family)))
}

/// Place a member call on a typed receiver.
fn place_on_receiver(cx: &Cx, file: u32, call: &Call, name: &str, recv: Recv) -> Decision {
    match recv {
        Recv::Instance { ty, family } => place_on_type(cx, file, call, ty, name, family),
        Recv::Type { ty } => place_on_type(cx, file, call, ty, name, Family::QualifiedPath),
        Recv::Foreign { fqn } => foreign(format!("{fqn}.{name}")),
        Recv::OutsideType { fqn, via } => outside_via(via, &fqn, format!("{fqn}.{name}")),
        Recv::Refuse(r) => Decision::Refuse(r),
    }
}

fn member_call(call: &Call) -> Option<(&Receiver, &str)> {
    match (&call.callee, call.kind) {
        (Callee::Member { receiver, name }, CallKind::Call) => Some((receiver, name.as_str())),
        _ => None,
    }
}

// ----- the rules -------------------------------------------------------------------------

/// `this(…)` → the class's own constructors; `super(…)` → the superclass's
/// constructors, or the superclass itself where it declares none.
fn constructor_chain(cx: &Cx, file: u32, call: &Call) -> Decision {
    let (CallKind::ConstructorChain, Callee::Name(word)) = (call.kind, &call.callee) else {
        return Decision::Pass;
    };
    let Some(own) = call.caller.and_then(|c| own_type(cx.index, file, c)) else {
        return Decision::Refuse(Reason::ReceiverTypeUnknown);
    };
    if word == "this" {
        return match constructors(cx.index, own).as_slice() {
            [] => Decision::Unresolved,
            ctors => Decision::Place(Placement::in_tree(ctors.to_vec(), Family::OwnType)),
        };
    }
    match superclass(cx, own) {
        Superclass::InTree(s) => Decision::Place(Placement::in_tree(
            constructors_or_type(cx.index, s),
            Family::Inheritance,
        )),
        Superclass::Outside { fqn, via } => outside_via(via, &fqn, fqn.clone()),
        Superclass::Object => builtin("java.lang.Object".to_string()),
        Superclass::Unsure => Decision::Refuse(Reason::ReceiverTypeUnknown),
    }
}

/// A construction reaches the constructors (the overload pass names one) or, where
/// the class declares none, the class itself.
fn constructors_or_type(index: &TreeIndex, ty: Eid) -> Vec<Eid> {
    match constructors(index, ty) {
        ctors if !ctors.is_empty() => ctors,
        _ => vec![ty],
    }
}

/// `new T(…)`, `new a.b.T(…)`, `outer.new Inner(…)`.
fn construction(cx: &Cx, file: u32, call: &Call) -> Decision {
    if call.kind != CallKind::New {
        return Decision::Pass;
    }
    if let Some(anonymous) = lookup::anonymous_class_at(cx.index, file, call.line, call.column) {
        // javac binds `new T() { … }` to the anonymous class's own constructor.
        return Decision::Place(Placement::in_tree(vec![anonymous], Family::Construction));
    }
    let site = call_site(file, call);
    let named = match &call.callee {
        Callee::Name(t) => resolve_type(lookup::tcx(cx), site, std::slice::from_ref(t)),
        Callee::Member { receiver, name } => constructed_member_type(cx, site, receiver, name),
        _ => return Decision::Pass,
    };
    match named {
        Named::InTree(t) => Decision::Place(Placement::in_tree(
            constructors_or_type(cx.index, t),
            Family::Construction,
        )),
        Named::Outside { fqn, via } => outside_via(via, &fqn, fqn.clone()),
        Named::Unresolved => Decision::Unresolved,
        Named::Ambiguous => Decision::Refuse(Reason::Ambiguous),
        Named::TypeParam | Named::Primitive(_) => Decision::Refuse(Reason::Refused),
        Named::Unknown => Decision::Pass,
    }
}

/// `new a.b.T()` names a type by its path; `outer.new Inner()` names a member
/// type of the outer instance's type.
fn constructed_member_type(cx: &Cx, site: Site, receiver: &Receiver, name: &str) -> Named {
    if let Receiver::Path(p) = receiver {
        if !lookup::is_variable(cx, site, &p[0]) && p[0] != "this" {
            let mut path = p.clone();
            path.push(name.to_string());
            return resolve_type(lookup::tcx(cx), site, &path);
        }
    }
    match eval::receiver(cx, site, receiver) {
        Recv::Instance { ty, .. } => resolve_type(
            lookup::tcx(cx),
            Site::of_decl(cx.index, ty),
            &[cx.index.decl(ty).name.clone(), name.to_string()],
        ),
        Recv::Refuse(Reason::Ambiguous) => Named::Ambiguous,
        _ => Named::Unknown,
    }
}

/// `m(…)`: the innermost enclosing class that has a member named m (declared or
/// inherited) is the one searched, as javac does.
fn implicit_this(cx: &Cx, file: u32, call: &Call) -> Decision {
    let (CallKind::Call, Callee::Name(name), Some(caller)) = (call.kind, &call.callee, call.caller)
    else {
        return Decision::Pass;
    };
    let types = enclosing_types(cx.index, file, caller);
    for (i, &t) in types.iter().enumerate() {
        let order = lookup::order(cx, t);
        match choose_method(cx, file, Some(call), &order, name) {
            MethodChoice::Found { on, decls } => {
                let family = if on == t {
                    Family::OwnType
                } else {
                    Family::Inheritance
                };
                return Decision::Place(Placement::in_tree(decls, family));
            }
            MethodChoice::Ambiguous => return Decision::Refuse(Reason::Ambiguous),
            MethodChoice::NoFit => return Decision::Refuse(Reason::Refused),
            MethodChoice::NotInTree => {}
        }
        if let Some(d) = implicit_member(cx, t, name, Family::OwnType) {
            return d;
        }
        match outside_bases(cx, &order) {
            OutsideBases::None => continue,
            OutsideBases::Unsure => return Decision::Refuse(Reason::ReceiverTypeUnknown),
            OutsideBases::Outside(bases) => {
                let Some(base) = outside_bases_with(&bases, name).into_iter().next() else {
                    continue;
                };
                // An outside base may supply m; so may an outer class or a static
                // import. Only when nothing else could is the call outside.
                if something_else_supplies(cx, file, call, &types[i + 1..], name) {
                    return Decision::Refuse(Reason::Ambiguous);
                }
                return foreign(format!("{base}.{name}"));
            }
        }
    }
    Decision::Pass
}

fn something_else_supplies(cx: &Cx, file: u32, call: &Call, outer: &[Eid], name: &str) -> bool {
    let in_outer = outer.iter().any(|&t| {
        let order = lookup::order(cx, t);
        matches!(
            choose_method(cx, file, Some(call), &order, name),
            MethodChoice::Found { .. }
        )
    });
    in_outer || !matches!(static_import(cx, file, call), Decision::Pass)
}

/// `import static a.B.m;` / `import static a.B.*;` then `m(…)`.
fn static_import(cx: &Cx, file: u32, call: &Call) -> Decision {
    let (CallKind::Call, Callee::Name(name)) = (call.kind, &call.callee) else {
        return Decision::Pass;
    };
    let index = cx.index;
    let imports = &index.file(file).imports;
    // A single-static-import shadows every on-demand one.
    let single: Vec<&Vec<String>> = imports
        .iter()
        .filter_map(|i| match &i.kind {
            ImportKind::JavaStatic { path } if path.last() == Some(name) && path.len() > 1 => {
                Some(path)
            }
            _ => None,
        })
        .collect();
    if !single.is_empty() {
        return from_static_owners(
            cx,
            file,
            call,
            name,
            single.iter().map(|p| &p[..p.len() - 1]).collect(),
        );
    }
    let on_demand: Vec<&[String]> = imports
        .iter()
        .filter_map(|i| match &i.kind {
            ImportKind::JavaStaticOnDemand { path } => Some(path.as_slice()),
            _ => None,
        })
        .collect();
    if on_demand.is_empty() {
        return Decision::Pass;
    }
    from_static_owners(cx, file, call, name, on_demand)
}

/// The method `name` statically imported from one of `owners`: one owner of the
/// tree that declares it, or else an owner outside the tree.
fn from_static_owners(
    cx: &Cx,
    file: u32,
    call: &Call,
    name: &str,
    owners: Vec<&[String]>,
) -> Decision {
    let index = cx.index;
    let mut found: Vec<Vec<Eid>> = Vec::new();
    let mut outside: Vec<String> = Vec::new();
    let mut unresolved = false;
    for owner in owners {
        let dotted = owner.join(".");
        match index.java_type(&dotted) {
            [t] => match choose_method(cx, file, Some(call), &lookup::order(cx, *t), name) {
                MethodChoice::Found { decls, .. } => found.push(decls),
                MethodChoice::Ambiguous => return Decision::Refuse(Reason::Ambiguous),
                MethodChoice::NoFit | MethodChoice::NotInTree => {}
            },
            [] if owner.len() > 1
                && !index
                    .java_package(&owner[..owner.len() - 1].join("."))
                    .is_empty() =>
            {
                unresolved = true
            }
            [] => outside.push(dotted),
            _ => return Decision::Refuse(Reason::Ambiguous),
        }
    }
    found.dedup();
    match (found.as_slice(), outside.as_slice()) {
        ([one], []) => Decision::Place(Placement::in_tree(one.clone(), Family::Import)),
        ([], [owner, ..]) => outside_via(Via::Import, owner, format!("{owner}.{name}")),
        ([], []) if unresolved => Decision::Unresolved,
        ([], []) => Decision::Pass,
        _ => Decision::Refuse(Reason::Ambiguous),
    }
}

/// `this.m()` and `Outer.this.m()`: a member of the caller's own (or the named
/// enclosing) type.
fn this_receiver(cx: &Cx, file: u32, call: &Call) -> Decision {
    let Some((receiver, name)) = member_call(call) else {
        return Decision::Pass;
    };
    match receiver {
        Receiver::Path(p) if p.len() == 1 && p[0] == "this" => {
            match call.caller.and_then(|c| own_type(cx.index, file, c)) {
                Some(own) => place_on_type(cx, file, call, own, name, Family::OwnType),
                None => Decision::Refuse(Reason::ReceiverTypeUnknown),
            }
        }
        Receiver::QualifiedThis(_) => place_on_receiver(
            cx,
            file,
            call,
            name,
            eval::receiver(cx, call_site(file, call), receiver),
        ),
        _ => Decision::Pass,
    }
}

/// `super.m()`: looked up from the superclass; every answer is `inheritance`
/// (or leaves the tree through an outside superclass).
fn super_receiver(cx: &Cx, file: u32, call: &Call) -> Decision {
    let Some((Receiver::Super, name)) = member_call(call) else {
        return Decision::Pass;
    };
    let Some(own) = call.caller.and_then(|c| own_type(cx.index, file, c)) else {
        return Decision::Refuse(Reason::ReceiverTypeUnknown);
    };
    match superclass(cx, own) {
        Superclass::InTree(s) => place_on_type(cx, file, call, s, name, Family::Inheritance),
        Superclass::Outside { fqn, via } => outside_via(via, &fqn, format!("{fqn}.{name}")),
        Superclass::Object if policy::OBJECT_METHODS.contains(&name) => {
            builtin(format!("java.lang.Object.{name}"))
        }
        Superclass::Object => Decision::Unresolved,
        Superclass::Unsure => Decision::Refuse(Reason::ReceiverTypeUnknown),
    }
}

/// A receiver whose type is written: a local, a parameter, a field (walked one
/// field at a time, `this.a.b.m()`), a construction, a cast or a literal.
fn typed_receiver(cx: &Cx, file: u32, call: &Call) -> Decision {
    let Some((receiver, name)) = member_call(call) else {
        return Decision::Pass;
    };
    let site = call_site(file, call);
    let written = match receiver {
        Receiver::Path(p) => {
            (p[0] == "this" && p.len() > 1) || lookup::is_variable(cx, site, &p[0])
        }
        Receiver::New(_) | Receiver::Literal(_) => true,
        _ => false,
    };
    if !written {
        return Decision::Pass;
    }
    place_on_receiver(cx, file, call, name, eval::receiver(cx, site, receiver))
}

/// `Type.m()`, `pkg.Type.m()`, `Type.FIELD.m()`, `Math.max()`, `System.out.println()`.
fn type_receiver(cx: &Cx, file: u32, call: &Call) -> Decision {
    let Some((receiver @ Receiver::Path(_), name)) = member_call(call) else {
        return Decision::Pass;
    };
    place_on_receiver(
        cx,
        file,
        call,
        name,
        eval::receiver(cx, call_site(file, call), receiver),
    )
}

/// `a.b().c()` and `a.b().f.c()`: through b's declared return type (previous round).
fn chained_receiver(cx: &Cx, file: u32, call: &Call) -> Decision {
    let Some((receiver @ (Receiver::Call(_) | Receiver::CallThen { .. }), name)) =
        member_call(call)
    else {
        return Decision::Pass;
    };
    place_on_receiver(
        cx,
        file,
        call,
        name,
        eval::receiver(cx, call_site(file, call), receiver),
    )
}

// ----- what a placed call yields ---------------------------------------------------------

fn in_tree_result(
    cx: &Cx,
    file: u32,
    call: &Call,
    placement: &Placement,
    targets: &[Eid],
) -> Option<Eval> {
    if let Some(named) = placement.named() {
        return declaration_result(cx, file, call, named);
    }
    let results: Vec<Option<Eval>> = targets
        .iter()
        .map(|&t| declaration_result(cx, file, call, t))
        .collect();
    if results.windows(2).all(|w| w[0] == w[1]) {
        return results.into_iter().next().flatten();
    }
    // Overloads with different return types: only the one the call fits says.
    let picked = overload::pick(cx, file, call, cx.index.same_qualified_name(targets[0]))?;
    declaration_result(cx, file, call, picked)
}

/// Constructors and classes yield an instance of the class; a method its declared
/// return type (resolved where it is declared), or the receiver's type when every
/// `return` hands back `this`; a type parameter yields nothing.
fn declaration_result(cx: &Cx, file: u32, call: &Call, target: Eid) -> Option<Eval> {
    let decl = cx.index.decl(target);
    if decl.kind.is_type() && call.kind == CallKind::Call {
        return synthetic_member_result(cx, call, target);
    }
    if decl.kind.is_type() {
        return Some(Eval::new(Val::Instance(target), Family::Construction));
    }
    match decl.kind {
        DeclKind::Constructor => cx
            .index
            .enclosing_type(target)
            .map(|t| Eval::new(Val::Instance(t), Family::Construction)),
        DeclKind::Method => {
            if matches!(decl.returns_value, Some(ReturnValue::SelfValue)) {
                if let Some(t) =
                    receiver_type(cx, file, call).or_else(|| cx.index.enclosing_type(target))
                {
                    return Some(Eval::new(Val::Instance(t), Family::ReturnType));
                }
            }
            let returns = decl.returns.as_ref()?;
            if let Some(k) = identity_parameter(decl, returns) {
                // `<T> T notNull(T x)`: javac infers T from the argument.
                let argument = call.args.get(k)?;
                return eval_instance(
                    &eval::arg_type(cx, call_site(file, call), argument),
                    Family::ReturnType,
                );
            }
            eval_instance(
                &jtype(lookup::tcx(cx), Site::of_decl(cx.index, target), returns),
                Family::ReturnType,
            )
        }
        _ => None,
    }
}

/// The one parameter typed by the method's own type parameter that the method
/// returns (`<T> T notNull(T x, String m)`): the result has the argument's type.
fn identity_parameter(decl: &crate::facts::Decl, returns: &crate::facts::TypeRef) -> Option<usize> {
    let [t] = returns.path.as_slice() else {
        return None;
    };
    if returns.array || !returns.args.is_empty() || !decl.type_params.contains(t) {
        return None;
    }
    let typed_t = |p: &crate::facts::Param| {
        !p.variadic
            && p.ty
                .as_ref()
                .is_some_and(|ty| ty.path == returns.path && !ty.array && ty.args.is_empty())
    };
    let positions: Vec<usize> = decl
        .params
        .iter()
        .enumerate()
        .filter(|(_, p)| typed_t(p))
        .map(|(i, _)| i)
        .collect();
    match positions.as_slice() {
        [k] => Some(*k),
        _ => None,
    }
}

/// What a member javac synthesises yields: `E.valueOf(…)` an E, a record
/// accessor its component's type; `values()` an array (nothing to follow).
fn synthetic_member_result(cx: &Cx, call: &Call, ty: Eid) -> Option<Eval> {
    let decl = cx.index.decl(ty);
    match decl.kind {
        DeclKind::Enum if call.name() == "valueOf" => {
            Some(Eval::new(Val::Instance(ty), Family::ReturnType))
        }
        DeclKind::Record => {
            let field = decl.fields.iter().find(|f| f.name == call.name())?;
            let written = jtype(
                lookup::tcx(cx),
                Site::of_decl(cx.index, ty),
                field.ty.as_ref()?,
            );
            eval_instance(&written, Family::ReturnType)
        }
        _ => None,
    }
}

/// The in-tree type of a call's receiver (the caller's own type for `m()`).
fn receiver_type(cx: &Cx, file: u32, call: &Call) -> Option<Eid> {
    match &call.callee {
        Callee::Name(_) => call.caller.and_then(|c| own_type(cx.index, file, c)),
        Callee::Member {
            receiver: Receiver::Super,
            ..
        } => None,
        Callee::Member { receiver, .. } => {
            match eval::receiver(cx, call_site(file, call), receiver) {
                Recv::Instance { ty, .. } => Some(ty),
                _ => None,
            }
        }
        _ => None,
    }
}

/// The few outside calls whose result type the policy knows (a StringBuilder's
/// `append`, `String.valueOf`, any `toString()`) and outside constructions.
fn outside_result(cx: &Cx, file: u32, call: &Call) -> Option<Eval> {
    let site = call_site(file, call);
    if call.kind == CallKind::Call && call.args.is_empty() {
        // Object's methods with a known result, whatever the receiver.
        let known = match call.name() {
            "toString" => Some("java.lang.String"),
            "getClass" => Some("java.lang.Class"),
            _ => None,
        };
        if let Some(fqn) = known {
            return Some(Eval::new(
                Val::ForeignInstance(fqn.into()),
                Family::ReturnType,
            ));
        }
    }
    let fqn = match (&call.callee, call.kind) {
        (Callee::Name(t), CallKind::New) => {
            match resolve_type(lookup::tcx(cx), site, std::slice::from_ref(t)) {
                Named::Outside { fqn, .. } => fqn,
                _ => return None,
            }
        }
        (Callee::Member { receiver, name }, CallKind::Call) => {
            match eval::receiver(cx, site, receiver) {
                Recv::Foreign { fqn } => {
                    match policy::foreign_result(&fqn, name, call.args.len()) {
                        Some(result) => result.to_string(),
                        None => return element_result(cx, site, receiver, &fqn, name),
                    }
                }
                Recv::OutsideType { fqn, .. } => policy::static_result(&fqn, name)?.to_string(),
                Recv::Instance { ty, .. } => return inherited_element_result(cx, ty, name),
                _ => return None,
            }
        }
        (Callee::Name(name), CallKind::Call) => {
            let own = call.caller.and_then(|c| own_type(cx.index, file, c))?;
            return inherited_element_result(cx, own, name);
        }
        _ => return None,
    };
    Some(Eval::new(Val::ForeignInstance(fqn), Family::ReturnType))
}

/// `xs.get(i)` where `xs` is declared `List<Node>`: the type argument the
/// container method hands back (S43), resolved where the declaration writes it.
fn element_result(cx: &Cx, site: Site, receiver: &Receiver, fqn: &str, name: &str) -> Option<Eval> {
    let index = policy::element_result(fqn, name)?;
    let (written, at) = eval::written_receiver_type(cx, site, receiver)?;
    let argument = written.args.get(index)?;
    eval_instance(&jtype(lookup::tcx(cx), at, argument), Family::ReturnType)
}

/// `elements.get(i)` where `class Elements extends ArrayList<Element>`: an
/// outside container method reached through an outside base hands back the type
/// argument the tree writes on that base.
fn inherited_element_result(cx: &Cx, ty: Eid, name: &str) -> Option<Eval> {
    for t in lookup::order(cx, ty) {
        let site = Site::of_decl(cx.index, t);
        for base in &cx.index.decl(t).bases {
            let Named::Outside { fqn, .. } = resolve_type(lookup::tcx(cx), site, &base.path) else {
                continue;
            };
            if let Some(index) = policy::element_result(&fqn, name) {
                let argument = base.args.get(index)?;
                return eval_instance(&jtype(lookup::tcx(cx), site, argument), Family::ReturnType);
            }
        }
    }
    None
}

// ----- method references -----------------------------------------------------------------

/// `Type::m`, `this::m`, `super::m`, `expr::m`, `Type::new`: in-tree targets only
/// (a reference is reported only where it reaches a declaration of the tree).
fn method_reference(cx: &Cx, file: u32, r: &ValueRef) -> Option<Placement> {
    let Callee::Member { receiver, name } = &r.target else {
        return None;
    };
    let site = Site {
        file,
        decl: r.caller,
        scope: Some(r.scope),
        line: r.line,
    };
    if name == "new" {
        let Receiver::Path(p) = receiver else {
            return None;
        };
        return match resolve_type(lookup::tcx(cx), site, p) {
            Named::InTree(t) => Some(Placement::in_tree(
                constructors_or_type(cx.index, t),
                Family::Construction,
            )),
            _ => None,
        };
    }
    let (ty, family) = match receiver {
        Receiver::Super => {
            match superclass(cx, r.caller.and_then(|c| own_type(cx.index, file, c))?) {
                Superclass::InTree(s) => (s, Family::Inheritance),
                _ => return None,
            }
        }
        Receiver::Path(p) if p.len() == 1 && p[0] == "this" => (
            r.caller.and_then(|c| own_type(cx.index, file, c))?,
            Family::OwnType,
        ),
        _ => match eval::receiver(cx, site, receiver) {
            Recv::Instance { ty, family } => (ty, family),
            Recv::Type { ty } => (ty, Family::QualifiedPath),
            _ => return None,
        },
    };
    match choose_method(cx, file, None, &lookup::order(cx, ty), name) {
        MethodChoice::Found { on, decls } => Some(Placement::in_tree(
            decls,
            if on == ty {
                family
            } else {
                Family::Inheritance
            },
        )),
        _ => None,
    }
}
