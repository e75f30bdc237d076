//! C# resolution: an ordered list of small rules, each reading one kind of
//! evidence. Every edge leaves through `Placement::in_tree` /
//! `Placement::outside` with the family of its rule.
//!
//! The virtual-call rule (DECISIONS D40): C#'s member lookup leaves out members
//! declared `override` (spec §12.5), so a call through a receiver reaches the
//! virtual declaration that introduced the member — the method the compiler binds
//! and the IL names (`callvirt A::M` for `b.M()` where `B : A` overrides `M`), and
//! where that declaration is outside the tree (`ToString()` overridden in the
//! tree), the call leaves it. `base.M()` is a non-virtual call of the nearest
//! implementation above the caller's type, overrides included (`call B::M`).

use crate::facts::{Call, CallKind, Callee, DeclKind, Receiver, ValueRef};
use crate::index::{Eid, TreeIndex};
use crate::lang::classes::{self, BoundBy};
use crate::lang::csharp::eval::{self, call_site, cstype, CsType, Recv, Typed};
use crate::lang::csharp::lookup::{
    self, accessible_from, ancestry, constructors, enclosing_types, has_keyword, is_method,
    members_named, own_instance, own_type, Ancestry,
};
use crate::lang::csharp::overload::{self, applicability, fits_count};
use crate::lang::csharp::policy;
use crate::lang::csharp::types::{
    self, canonical, namespace_of, resolve_type, usings_in_scope, Named, Site, Via,
};
use crate::resolve::family::{Family, OutsideKind, Reason};
use crate::resolve::overload::Fit;
use crate::resolve::{Cx, Decision, Eval, Hierarchy, LanguageResolver, Placement, Rule, Target};

pub struct CSharpResolver;

pub static CSHARP: CSharpResolver = CSharpResolver;

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
        name: "simple_name",
        run: simple_name,
    },
    Rule {
        name: "this_receiver",
        run: this_receiver,
    },
    Rule {
        name: "base_receiver",
        run: base_receiver,
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

impl LanguageResolver for CSharpResolver {
    fn rules(&self) -> &'static [Rule] {
        RULES
    }

    /// C# reads a call's result on the spot (`eval::result_type`, with its type
    /// arguments), never from the shared chain rounds.
    fn call_result(&self, _cx: &Cx, _file: u32, _call: &Call, _p: &Placement) -> Option<Eval> {
        None
    }

    fn resolve_ref(&self, cx: &Cx, file: u32, r: &ValueRef) -> Option<Placement> {
        method_group(cx, file, r)
    }

    /// Direct bases as the tree resolves them, the bases of every part of a
    /// partial type together; any base it cannot place in the tree raises the flag.
    fn bases(&self, index: &TreeIndex, ty: Eid) -> (Vec<Eid>, bool) {
        let own = canonical(index, ty);
        let mut out = Vec::new();
        let mut unknown = false;
        for part in types::parts(index, ty) {
            let site = Site::of_decl(index, part);
            for base in &index.decl(part).bases {
                match resolve_type(index, site, &base.path, base.args.len()) {
                    Named::InTree(b) if b != own => {
                        if !out.contains(&b) {
                            out.push(b)
                        }
                    }
                    Named::InTree(_) => {}
                    _ => unknown = true,
                }
            }
        }
        (out, unknown)
    }

    /// The base class chain first, then interfaces: C# writes the base class
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
/// a predefined keyword → builtin, a using directive → external_import, a
/// qualified path → foreign_type.
fn outside_via(via: Via, fqn: &str, symbol: String) -> Decision {
    let how = match via {
        Via::Predefined => BoundBy::Builtin,
        Via::Using => BoundBy::Import,
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

/// Which members a lookup may find.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Access {
    /// Through an instance: instance members, `override`s left out (the
    /// virtual-call rule).
    Virtual,
    /// `base.M()`: the nearest implementation, overrides included.
    NonVirtual,
    /// `Type.M()`: static members.
    Static,
    /// `M()` inside a type: any member, `override`s left out.
    Implicit,
}

/// What a method name means on a type, given a call's arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
enum MethodChoice {
    /// The declarations of that name on `on` sharing one qualified name (an
    /// overload set the overload pass names), or the one the arguments select.
    Found {
        on: Eid,
        decls: Vec<Eid>,
    },
    /// A field, property or event of that name comes first: the call invokes a
    /// delegate value.
    NotMethod,
    /// The name is declared, but no declaration takes these arguments.
    NoFit,
    /// No method of that name anywhere in the tree's part of the hierarchy.
    NotInTree,
    Ambiguous,
}

fn access_allows(index: &TreeIndex, m: Eid, access: Access) -> bool {
    let decl = index.decl(m);
    match access {
        Access::Virtual => !decl.is_static && !has_keyword(index, m, "override"),
        Access::Implicit => !has_keyword(index, m, "override"),
        Access::NonVirtual => !decl.is_static && !has_keyword(index, m, "abstract"),
        Access::Static => decl.is_static,
    }
}

/// Find the method a call names on the types of an ancestry, most derived first
/// (C# spec §12.6.4.1: a method of a base type is a candidate only where no
/// method of a more derived type applies). A derived group whose declarations
/// only *may* apply stops the search when a base group may apply too: which one
/// the compiler takes depends on types the source does not write.
fn choose_method(
    cx: &Cx,
    file: u32,
    call: &Call,
    anc: &Ancestry,
    name: &str,
    access: Access,
) -> MethodChoice {
    let index = cx.index;
    let mut groups: Vec<(Eid, Vec<Eid>)> = Vec::new();
    for (t, _) in &anc.types {
        let members = members_named(index, *t, name);
        let methods: Vec<Eid> = members
            .iter()
            .copied()
            .filter(|&m| {
                is_method(index, m)
                    && access_allows(index, m, access)
                    && accessible_from(index, file, call, m)
            })
            .collect();
        if methods.is_empty() {
            let value = lookup::field(
                cx,
                &Ancestry {
                    types: vec![(*t, Vec::new())],
                    ..Ancestry::default()
                },
                name,
            );
            if value.is_some() && groups.is_empty() {
                return MethodChoice::NotMethod;
            }
            continue;
        }
        groups.push((*t, methods));
    }
    if groups.is_empty() {
        return MethodChoice::NotInTree;
    }
    let mut declared_but_unfit = false;
    for (i, (on, methods)) in groups.iter().enumerate() {
        let fitting: Vec<Eid> = methods
            .iter()
            .copied()
            .filter(|&m| fits_count(cx, call, m, false))
            .collect();
        if fitting.is_empty() {
            declared_but_unfit = true;
            continue;
        }
        match applicability(cx, file, call, &fitting, false) {
            Fit::No => {
                declared_but_unfit = true;
                continue;
            }
            Fit::Maybe if outside_may_answer(anc, name, call.args.len()) => {
                // Only a more derived group that surely applies hides the
                // outside base's or `System.Object`'s member of that name
                // (`v1.Equals(token)` may be `object.Equals`).
                return MethodChoice::Ambiguous;
            }
            Fit::Maybe => {
                let later_may_apply = groups[i + 1..].iter().any(|(_, ms)| {
                    let f: Vec<Eid> = ms
                        .iter()
                        .copied()
                        .filter(|&m| fits_count(cx, call, m, false))
                        .collect();
                    !f.is_empty() && applicability(cx, file, call, &f, false) != Fit::No
                });
                if later_may_apply {
                    return MethodChoice::Ambiguous;
                }
            }
            Fit::Yes => {}
        }
        return one_qualified_name(cx, file, call, *on, methods, &fitting);
    }
    if declared_but_unfit && anc.closed() {
        MethodChoice::NoFit
    } else {
        MethodChoice::NotInTree
    }
}

/// Whether a member of that name surely comes from outside the tree's part of
/// the hierarchy too: an outside base class known to declare it (an outside
/// interface's member is implemented in the tree, so it joins no lookup on a
/// class), or `System.Object`'s
/// `Equals(object)` (its other instance methods take no argument, so a call
/// whose arguments only may fit is not theirs).
fn outside_may_answer(anc: &Ancestry, name: &str, args: usize) -> bool {
    (name == "Equals" && args == 1)
        || anc.outside.iter().any(|(b, _)| {
            let simple = b.rsplit('.').next().unwrap_or(b);
            policy::known_class_members(simple).is_some_and(|m| m.contains(&name))
        })
}

/// The set a placement names: declarations sharing one qualified name (a partial
/// type's parts are in several files), or the one the arguments select.
fn one_qualified_name(
    cx: &Cx,
    file: u32,
    call: &Call,
    on: Eid,
    methods: &[Eid],
    fitting: &[Eid],
) -> MethodChoice {
    let index = cx.index;
    let first = index.qualified_name(fitting[0]);
    if fitting.iter().all(|&m| index.qualified_name(m) == first) {
        let decls: Vec<Eid> = methods
            .iter()
            .copied()
            .filter(|&m| index.qualified_name(m) == first)
            .collect();
        return MethodChoice::Found { on, decls };
    }
    match overload::select(cx, file, call, fitting, false) {
        Some(m) => MethodChoice::Found { on, decls: vec![m] },
        None => MethodChoice::Ambiguous,
    }
}

/// Place a method call on a type of the tree: the type's own declaration (the
/// rule's family) or one it inherits (`inheritance`); what no type of the tree
/// declares leaves through `System.Object`, an outside base or an extension
/// method.
fn place_on_class(
    cx: &Cx,
    file: u32,
    call: &Call,
    ty: Eid,
    args: &[CsType],
    name: &str,
    family: Family,
    access: Access,
) -> Decision {
    let own = canonical(cx.index, ty);
    let anc = ancestry(cx, own, args);
    let choice = choose_method(cx, file, call, &anc, name, access);
    match choice {
        MethodChoice::Found { on, decls } => {
            let family = if on == own {
                family
            } else {
                Family::Inheritance
            };
            Decision::Place(Placement::in_tree(decls, family))
        }
        MethodChoice::NotMethod => Decision::Refuse(Reason::DynamicCallee),
        MethodChoice::Ambiguous => Decision::Refuse(Reason::Ambiguous),
        MethodChoice::NoFit | MethodChoice::NotInTree => {
            if matches!(access, Access::Virtual) {
                let recv = CsType::Class(own, args.to_vec());
                if anc.closed() || outside_bases_cannot_declare(&anc, name) {
                    if let Some(d) = extension(cx, file, call, name, &recv, family) {
                        return d;
                    }
                } else if extension(cx, file, call, name, &recv, family).is_some() {
                    // An outside base may declare the member (it then wins) or
                    // not (the tree's extension method answers).
                    return Decision::Refuse(Reason::Ambiguous);
                }
            }
            if choice == MethodChoice::NoFit {
                return Decision::Refuse(Reason::Refused);
            }
            not_declared_in_tree(cx, file, call, own, &anc, name, access)
        }
    }
}

/// The outside bases of an ancestry are all well-known interfaces whose member
/// lists do not have the name.
fn outside_bases_cannot_declare(anc: &Ancestry, name: &str) -> bool {
    !anc.unknown
        && anc.outside.iter().all(|(b, _)| {
            let simple = b.rsplit('.').next().unwrap_or(b);
            policy::known_interface_members(simple).is_some_and(|m| !m.contains(&name))
        })
}

/// The outside bases that could declare `name`: all but the well-known
/// interfaces whose member lists do not have it.
fn outside_bases_with(anc: &Ancestry, name: &str) -> Vec<String> {
    anc.outside
        .iter()
        .map(|(b, _)| b)
        .filter(|b| {
            let simple = b.rsplit('.').next().unwrap_or(b);
            policy::known_interface_members(simple).is_none_or(|m| m.contains(&name))
        })
        .cloned()
        .collect()
}

/// A member no type of the hierarchy declares: a member of every object, one an
/// outside base supplies, or an extension method of a namespace outside the tree.
fn not_declared_in_tree(
    cx: &Cx,
    file: u32,
    call: &Call,
    own: Eid,
    anc: &Ancestry,
    name: &str,
    access: Access,
) -> Decision {
    if anc.unknown {
        return Decision::Refuse(Reason::ReceiverTypeUnknown);
    }
    if let Some(base) = outside_bases_with(anc, name).first() {
        return foreign(format!("{base}.{name}"));
    }
    if policy::OBJECT_METHODS.contains(&name) {
        return builtin(format!("System.Object.{name}"));
    }
    if cx.index.decl(own).kind == DeclKind::Enum && policy::ENUM_METHODS.contains(&name) {
        return builtin(format!("System.Enum.{name}"));
    }
    if matches!(access, Access::Virtual) && imports_outside_namespace(cx, file, call) {
        // The call compiles: an extension method of a namespace a using
        // directive brings in from outside the tree.
        return Decision::Place(Placement::outside(
            OutsideKind::External,
            name.to_string(),
            Family::ExternalImport,
        ));
    }
    Decision::Unresolved
}

/// Whether a using directive around the call imports a namespace outside the tree.
fn imports_outside_namespace(cx: &Cx, file: u32, call: &Call) -> bool {
    usings_in_scope(cx.index, call_site(file, call))
        .iter()
        .any(|u| {
            u.alias.is_none()
                && !u.is_static
                && types::may_hold_outside_types(cx.index, &u.path.join("."))
        })
}

/// Place a member call on a value of a known static type.
fn place_on_value(cx: &Cx, file: u32, call: &Call, name: &str, t: Typed) -> Decision {
    match &t.ty {
        CsType::Class(c, args) => {
            if has_keyword(cx.index, *c, "delegate") {
                // `d.Invoke()` on a delegate type of the tree: what it holds.
                return Decision::Refuse(Reason::DynamicCallee);
            }
            place_on_class(cx, file, call, *c, args, name, t.family, Access::Virtual)
        }
        CsType::TypeParam(owner, p) => {
            let (owner, p) = (*owner, p.clone());
            place_on_bounds(cx, file, call, owner, &p, name, t)
        }
        CsType::Foreign(..) | CsType::Prim(_) | CsType::IntLiteral | CsType::Array(_) => {
            on_outside_value(cx, file, call, name, &t)
        }
        CsType::Dynamic => Decision::Refuse(Reason::DynamicCallee),
        CsType::Null | CsType::Lambda | CsType::Unknown => {
            Decision::Refuse(Reason::ReceiverTypeUnknown)
        }
    }
}

/// A receiver typed by a type parameter reaches what its constraints declare
/// (`T where T : IFoo` → IFoo's member), or `System.Object`'s members.
fn place_on_bounds(
    cx: &Cx,
    file: u32,
    call: &Call,
    owner: Eid,
    p: &str,
    name: &str,
    t: Typed,
) -> Decision {
    for bound in eval::bounds(cx.index, owner, p) {
        if let CsType::Class(c, args) = &bound {
            let anc = ancestry(cx, *c, args);
            if let MethodChoice::Found { decls, .. } =
                choose_method(cx, file, call, &anc, name, Access::Virtual)
            {
                return Decision::Place(Placement::in_tree(decls, t.family));
            }
        }
    }
    if let Some(d) = extension(cx, file, call, name, &t.ty, t.family) {
        return d;
    }
    if policy::OBJECT_METHODS.contains(&name) {
        return builtin(format!("System.Object.{name}"));
    }
    Decision::Refuse(Reason::ReceiverTypeUnknown)
}

/// A value of an outside type: an extension method of the tree that takes it,
/// else the outside type's member.
fn on_outside_value(cx: &Cx, file: u32, call: &Call, name: &str, t: &Typed) -> Decision {
    if !policy::OBJECT_METHODS.contains(&name) {
        if let Some(d) = extension(cx, file, call, name, &t.ty, t.family) {
            return d;
        }
    }
    let owner = match &t.ty {
        CsType::Array(_) => "System.Array".to_string(),
        other => other.text(cx.index),
    };
    foreign(format!("{owner}.{name}"))
}

/// An extension method of the tree the call may invoke on `recv`: a static method
/// whose first parameter is written `this T`, in a namespace the call sees (an
/// enclosing one, or one a using directive imports), whose `T` takes the receiver
/// and whose parameters take the arguments. Namespaces are searched from the
/// innermost out (spec §12.8.10.3); the first level with an applicable one
/// decides.
fn extension(
    cx: &Cx,
    file: u32,
    call: &Call,
    name: &str,
    recv: &CsType,
    family: Family,
) -> Option<Decision> {
    let index = cx.index;
    let candidates: Vec<Eid> = index
        .by_name(name)
        .iter()
        .copied()
        .filter(|&e| {
            let d = index.decl(e);
            d.impl_of.is_some()
                && d.is_static
                && d.kind == DeclKind::Method
                && !d.is_property
                && accessible_from(index, file, call, e)
        })
        .collect();
    if candidates.is_empty() {
        return None;
    }
    let site = call_site(file, call);
    let namespace = namespace_of(index, file, call.caller);
    let usings = usings_in_scope(index, site);
    for level in (0..=namespace.len()).rev() {
        let here = &namespace[..level];
        let visible: Vec<Eid> = candidates
            .iter()
            .copied()
            .filter(|&c| {
                let cns = namespace_of(index, c.file, Some(c.decl));
                cns.as_slice() == here
                    || usings.iter().any(|u| {
                        u.namespace == here
                            && u.alias.is_none()
                            && !u.is_static
                            && u.path == cns.as_slice()
                    })
                    || usings.iter().any(|u| {
                        u.namespace == here
                            && u.is_static
                            && index.enclosing_type(c).is_some_and(|t| {
                                matches!(
                                    resolve_type(index, Site::of_decl(index, t), u.path, 0),
                                    Named::InTree(x) if x == canonical(index, t)
                                )
                            })
                    })
            })
            .collect();
        if visible.is_empty() {
            continue;
        }
        let mut yes = Vec::new();
        let mut maybe = false;
        let mut outside_may_declare = false;
        for &c in &visible {
            if !fits_count(cx, call, c, true) {
                continue;
            }
            let decl = index.decl(c);
            let this_type = decl
                .impl_of
                .as_ref()
                .map(|t| cstype(index, Site::of_decl(index, c), t))
                .unwrap_or(CsType::Unknown);
            let receiver_fit = overload::compatible(cx, recv, &this_type, true, 0);
            let args_fit = applicability(cx, file, call, &[c], true);
            match receiver_fit.and(args_fit) {
                Fit::Yes => {
                    outside_may_declare |= outside_instance_may_hide(cx, recv, &this_type, name);
                    yes.push(c)
                }
                Fit::Maybe => maybe = true,
                Fit::No => {}
            }
        }
        if maybe {
            return Some(Decision::Refuse(Reason::Ambiguous));
        }
        if yes.is_empty() {
            continue;
        }
        if outside_may_declare {
            return Some(Decision::Refuse(Reason::Ambiguous));
        }
        let first = index.qualified_name(yes[0]);
        if yes.iter().all(|&m| index.qualified_name(m) == first) {
            return Some(Decision::Place(Placement::in_tree(yes, family)));
        }
        return Some(match overload::select(cx, file, call, &yes, true) {
            Some(m) => Decision::Place(Placement::in_tree(vec![m], family)),
            None => Decision::Refuse(Reason::Ambiguous),
        });
    }
    None
}

/// An outside receiver's own instance method of that name would hide the
/// extension method, and the tree cannot see its members. An extension written
/// for exactly the receiver's type is taken: one an instance method of that type
/// hides could never be called as an extension, so it is not written that way.
/// One written for a base or an interface of it (`AddRange(this IList<T>)` on a
/// `List<T>`) is not, unless the receiver is a well-known interface whose member
/// list lacks the name.
fn outside_instance_may_hide(cx: &Cx, recv: &CsType, this_type: &CsType, name: &str) -> bool {
    let CsType::Foreign(r, _) = recv else {
        return false;
    };
    let simple = r.rsplit('.').next().unwrap_or(r);
    if policy::known_interface_members(simple).is_some_and(|m| !m.contains(&name)) {
        return false;
    }
    match this_type {
        CsType::Foreign(t, _) => t.rsplit('.').next().unwrap_or(t) != simple,
        other => other.text(cx.index) != recv.text(cx.index),
    }
}

fn member_call(call: &Call) -> Option<(&Receiver, &str)> {
    match (&call.callee, call.kind) {
        (Callee::Member { receiver, name }, CallKind::Call) => Some((receiver, name.as_str())),
        _ => None,
    }
}

/// Place a member call on whatever its receiver evaluated to.
fn place_on_receiver(cx: &Cx, file: u32, call: &Call, name: &str, recv: Recv) -> Decision {
    match recv {
        Recv::Value(t) => place_on_value(cx, file, call, name, t),
        Recv::Type(ty) => place_on_class(
            cx,
            file,
            call,
            ty,
            &[],
            name,
            Family::QualifiedPath,
            Access::Static,
        ),
        Recv::OutsideType { fqn, via } => outside_via(via, &fqn, format!("{fqn}.{name}")),
        // A path into a namespace only the tree declares, naming no type of it.
        Recv::Refuse(Reason::NoDeclaration) => Decision::Unresolved,
        Recv::Refuse(r) => Decision::Refuse(r),
    }
}

// ----- the rules -------------------------------------------------------------------------

/// `: this(…)` → the class's own constructors; `: base(…)` → the base class's
/// constructors, or the base class itself where it declares none.
fn constructor_chain(cx: &Cx, file: u32, call: &Call) -> Decision {
    let (CallKind::ConstructorChain, Callee::Name(word)) = (call.kind, &call.callee) else {
        return Decision::Pass;
    };
    let Some(own) = call.caller.and_then(|c| own_type(cx.index, file, c)) else {
        return Decision::Refuse(Reason::ReceiverTypeUnknown);
    };
    if word == "this" {
        return place_constructors(cx, file, call, own, Family::OwnType);
    }
    match base_class(cx, own) {
        BaseClass::InTree(b, _) => place_constructors(cx, file, call, b, Family::Inheritance),
        BaseClass::Outside { fqn, via } => outside_via(via, &fqn, fqn.clone()),
        BaseClass::Object => builtin("System.Object".to_string()),
        BaseClass::Unsure => Decision::Refuse(Reason::ReceiverTypeUnknown),
    }
}

/// A construction reaches the constructors (the overload pass names one) or,
/// where the type declares none, the type itself.
fn place_constructors(cx: &Cx, file: u32, call: &Call, ty: Eid, family: Family) -> Decision {
    let ctors = constructors(cx.index, ty);
    if ctors.is_empty() {
        return Decision::Place(Placement::in_tree(vec![ty], family));
    }
    let fitting: Vec<Eid> = ctors
        .iter()
        .copied()
        .filter(|&c| fits_count(cx, call, c, false))
        .collect();
    if fitting.is_empty() {
        // A struct's `new S()` with no constructor that takes nothing: the type.
        if call.args.is_empty() && has_keyword(cx.index, ty, "struct") {
            return Decision::Place(Placement::in_tree(vec![ty], family));
        }
        return Decision::Refuse(Reason::Refused);
    }
    match one_qualified_name(cx, file, call, ty, &ctors, &fitting) {
        MethodChoice::Found { decls, .. } => Decision::Place(Placement::in_tree(decls, family)),
        _ => Decision::Refuse(Reason::Ambiguous),
    }
}

/// A type's base class, as far as the tree tells.
enum BaseClass {
    InTree(Eid, Vec<CsType>),
    Outside {
        fqn: String,
        via: Via,
    },
    /// No base class written (or only interfaces): `System.Object`.
    Object,
    Unsure,
}

/// The base class: the first written base of any part, when it is a class
/// (C# writes the base class first). An outside first base that looks like an
/// interface (`IFoo`) is not taken for one.
fn base_class(cx: &Cx, ty: Eid) -> BaseClass {
    let index = cx.index;
    if index.decl(ty).kind != DeclKind::Class || has_keyword(index, ty, "struct") {
        return BaseClass::Object;
    }
    for part in types::parts(index, ty) {
        let Some(first) = index.decl(part).bases.first() else {
            continue;
        };
        let site = Site::of_decl(index, part);
        match cstype(index, site, first) {
            CsType::Class(b, args) if index.decl(b).kind == DeclKind::Class => {
                return BaseClass::InTree(b, args)
            }
            CsType::Class(..) => continue,
            CsType::Foreign(fqn, _) => {
                let simple = fqn.rsplit('.').next().unwrap_or(&fqn);
                if looks_like_interface(simple) {
                    continue;
                }
                let via = match resolve_type(index, site, &first.path, first.args.len()) {
                    Named::Outside { via, .. } => via,
                    _ => Via::Qualified,
                };
                return BaseClass::Outside { fqn, via };
            }
            _ => return BaseClass::Unsure,
        }
    }
    BaseClass::Object
}

/// `IFoo`: the .NET naming convention for an interface.
fn looks_like_interface(simple: &str) -> bool {
    let mut chars = simple.chars();
    chars.next() == Some('I') && chars.next().is_some_and(char::is_uppercase)
}

/// `new T(…)`, `new N.T(…)`.
fn construction(cx: &Cx, file: u32, call: &Call) -> Decision {
    if call.kind != CallKind::New {
        return Decision::Pass;
    }
    let site = call_site(file, call);
    let path = match &call.callee {
        Callee::Name(t) => vec![t.clone()],
        Callee::Member {
            receiver: Receiver::Path(p),
            name,
        } => {
            let mut path = p.clone();
            path.push(name.clone());
            path
        }
        _ => return Decision::Pass,
    };
    match resolve_type(cx.index, site, &path, call.type_args as usize) {
        Named::InTree(t) if has_keyword(cx.index, t, "delegate") => {
            Decision::Place(Placement::in_tree(vec![t], Family::Construction))
        }
        Named::InTree(t) => place_constructors(cx, file, call, t, Family::Construction),
        Named::Outside { fqn, via } => outside_via(via, &fqn, fqn.clone()),
        Named::Primitive(p) => builtin(policy::fqn_of_keyword(p).unwrap_or(p).to_string()),
        Named::Unresolved => Decision::Unresolved,
        Named::Ambiguous => Decision::Refuse(Reason::Ambiguous),
        Named::TypeParam { .. } | Named::Dynamic | Named::Namespace(_) => {
            Decision::Refuse(Reason::Refused)
        }
        Named::Unknown => Decision::Pass,
    }
}

/// `M(…)`: a local function; a local or parameter (a delegate value); then the
/// innermost enclosing type that has a member named M (declared or inherited);
/// then `using static` imports.
fn simple_name(cx: &Cx, file: u32, call: &Call) -> Decision {
    let (CallKind::Call, Callee::Name(name)) = (call.kind, &call.callee) else {
        return Decision::Pass;
    };
    let site = call_site(file, call);
    if let Some(f) = lookup::local_function(cx.index, site, name) {
        return Decision::Place(Placement::in_tree(vec![f], Family::Lexical));
    }
    if let Some(reason) = delegate_local(cx, site, name) {
        return Decision::Refuse(reason);
    }
    let Some(caller) = call.caller else {
        return Decision::Pass;
    };
    let types = enclosing_types(cx.index, file, caller);
    for (i, &t) in types.iter().enumerate() {
        let CsType::Class(_, args) = own_instance(cx.index, t) else {
            continue;
        };
        let anc = ancestry(cx, t, &args);
        match choose_method(cx, file, call, &anc, name, Access::Implicit) {
            MethodChoice::Found { on, decls } => {
                let family = if on == t {
                    Family::OwnType
                } else {
                    Family::Inheritance
                };
                return Decision::Place(Placement::in_tree(decls, family));
            }
            MethodChoice::NotMethod => return Decision::Refuse(Reason::DynamicCallee),
            MethodChoice::Ambiguous => return Decision::Refuse(Reason::Ambiguous),
            MethodChoice::NoFit => return Decision::Refuse(Reason::Refused),
            MethodChoice::NotInTree => {}
        }
        if policy::OBJECT_METHODS.contains(&name.as_str()) && anc.closed() {
            return builtin(format!("System.Object.{name}"));
        }
        if anc.unknown {
            return Decision::Refuse(Reason::ReceiverTypeUnknown);
        }
        if let Some(base) = outside_bases_with(&anc, name).first() {
            // An outside base may supply M; so may an outer type or a static
            // import. Only when nothing else could is the call outside.
            let outer_supplies = types[i + 1..].iter().any(|&o| {
                let CsType::Class(_, a) = own_instance(cx.index, o) else {
                    return false;
                };
                matches!(
                    choose_method(cx, file, call, &ancestry(cx, o, &a), name, Access::Implicit),
                    MethodChoice::Found { .. }
                )
            });
            if outer_supplies || !matches!(static_import(cx, file, call, name), Decision::Pass) {
                return Decision::Refuse(Reason::Ambiguous);
            }
            return foreign(format!("{base}.{name}"));
        }
    }
    static_import(cx, file, call, name)
}

/// A local or parameter named like the called name: the call invokes the
/// delegate it holds, which the engine does not follow.
fn delegate_local(cx: &Cx, site: Site, name: &str) -> Option<Reason> {
    let facts = cx.index.file(site.file);
    let mut cur = site.scope;
    let mut guard = 0;
    while let Some(s) = cur {
        let scope = &facts.scopes[s as usize];
        if scope.kind == crate::facts::ScopeKind::Class {
            return None;
        }
        if let Some(b) = scope.named(name).rev().find(|b| {
            b.line <= site.line && !matches!(b.value, crate::facts::BindingValue::Decl(_))
        }) {
            return Some(match b.value {
                crate::facts::BindingValue::Param { .. } => Reason::ParameterValue,
                _ => Reason::LocalValue,
            });
        }
        cur = scope.parent;
        guard += 1;
        if guard > 512 {
            break;
        }
    }
    None
}

/// `using static N.T;` then `M()`: T's static method.
fn static_import(cx: &Cx, file: u32, call: &Call, name: &str) -> Decision {
    let site = call_site(file, call);
    let mut found: Vec<Vec<Eid>> = Vec::new();
    let mut outside: Vec<String> = Vec::new();
    for u in usings_in_scope(cx.index, site)
        .iter()
        .filter(|u| u.is_static)
    {
        match resolve_type(cx.index, site, u.path, 0) {
            Named::InTree(t) => {
                let anc = ancestry(cx, t, &[]);
                if let MethodChoice::Found { decls, .. } =
                    choose_method(cx, file, call, &anc, name, Access::Static)
                {
                    found.push(decls);
                }
            }
            Named::Outside { fqn, .. } => outside.push(fqn),
            _ => {}
        }
    }
    found.dedup();
    match (found.as_slice(), outside.as_slice()) {
        ([one], _) => Decision::Place(Placement::in_tree(one.clone(), Family::Import)),
        ([], [owner]) => outside_via(Via::Using, owner, format!("{owner}.{name}")),
        ([], []) => Decision::Pass,
        _ => Decision::Refuse(Reason::Ambiguous),
    }
}

/// `this.M()`: a member of the caller's own type.
fn this_receiver(cx: &Cx, file: u32, call: &Call) -> Decision {
    let Some((Receiver::Path(p), name)) = member_call(call) else {
        return Decision::Pass;
    };
    if !(p.len() == 1 && p[0] == "this") {
        return Decision::Pass;
    }
    match call.caller.and_then(|c| own_type(cx.index, file, c)) {
        Some(own) => {
            let CsType::Class(_, args) = own_instance(cx.index, own) else {
                return Decision::Refuse(Reason::ReceiverTypeUnknown);
            };
            place_on_class(
                cx,
                file,
                call,
                own,
                &args,
                name,
                Family::OwnType,
                Access::Virtual,
            )
        }
        None => Decision::Refuse(Reason::ReceiverTypeUnknown),
    }
}

/// `base.M()`: looked up from the base class, the nearest implementation (a
/// non-virtual call); every answer is `inheritance` or leaves the tree through an
/// outside base class.
fn base_receiver(cx: &Cx, file: u32, call: &Call) -> Decision {
    let Some((Receiver::Super, name)) = member_call(call) else {
        return Decision::Pass;
    };
    let Some(own) = call.caller.and_then(|c| own_type(cx.index, file, c)) else {
        return Decision::Refuse(Reason::ReceiverTypeUnknown);
    };
    match base_class(cx, own) {
        BaseClass::InTree(b, args) => place_on_class(
            cx,
            file,
            call,
            b,
            &args,
            name,
            Family::Inheritance,
            Access::NonVirtual,
        ),
        BaseClass::Outside { fqn, via } => outside_via(via, &fqn, format!("{fqn}.{name}")),
        BaseClass::Object if policy::OBJECT_METHODS.contains(&name) => {
            builtin(format!("System.Object.{name}"))
        }
        BaseClass::Object => Decision::Unresolved,
        BaseClass::Unsure => Decision::Refuse(Reason::ReceiverTypeUnknown),
    }
}

/// A receiver whose type is written: a local, a parameter, a field or property
/// (walked one member at a time, `this.a.b.M()`), a construction, a cast, a
/// literal, `typeof(T)`.
fn typed_receiver(cx: &Cx, file: u32, call: &Call) -> Decision {
    let Some((receiver, name)) = member_call(call) else {
        return Decision::Pass;
    };
    let site = call_site(file, call);
    let written = match receiver {
        Receiver::Path(p) => {
            (p[0] == "this" && p.len() > 1) || lookup::variable(cx, site, &p[0]).is_some()
        }
        Receiver::New(_) | Receiver::Literal(_) => true,
        _ => false,
    };
    if !written {
        return Decision::Pass;
    }
    let recv = eval::receiver(cx, site, receiver);
    if let Some(d) = color_color_static(cx, file, call, receiver, name, &recv) {
        return d;
    }
    place_on_receiver(cx, file, call, name, recv)
}

/// C#'s "Color Color" rule (spec §12.8.7.2): in `E.M()`, a simple name `E` that
/// is a property, field or local whose type is named `E` too may also mean the
/// type, so a static `M` of that type is the call (KeePass's
/// `CommandLineArgs.SafeSerialize(…)` on the property `CommandLineArgs`). Only
/// a static member of the tree answers here; otherwise the value's lookup goes on.
fn color_color_static(
    cx: &Cx,
    file: u32,
    call: &Call,
    receiver: &Receiver,
    name: &str,
    recv: &Recv,
) -> Option<Decision> {
    let (Receiver::Path(p), Recv::Value(t)) = (receiver, recv) else {
        return None;
    };
    let CsType::Class(c, args) = &t.ty else {
        return None;
    };
    if p.len() != 1 || cx.index.decl(*c).name != p[0] {
        return None;
    }
    let d = place_on_class(
        cx,
        file,
        call,
        *c,
        args,
        name,
        Family::QualifiedPath,
        Access::Static,
    );
    match &d {
        Decision::Place(pl) if matches!(pl.target(), Target::InTree(_)) => Some(d),
        _ => None,
    }
}

/// `Type.M()`, `N.Type.M()`, `Type.Field.M()`, `Console.WriteLine()`, `string.Format()`.
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

/// `a.B().C()` and `a.B().f.C()`: through B's declared return type.
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

// ----- method groups ---------------------------------------------------------------------

/// A name or member read in a value position (`+= OnClick`,
/// `new EventHandler(this.OnClick)`, `ForEach(Print)`) that denotes a method group
/// converted to a delegate: the one method of that name the lookup sees. The
/// delegate's signature would pick among overloads and the engine does not read
/// it, so a group of several declarations, one the tree does not see whole
/// (an outside base), or a name that is a value (a local, a field, a property,
/// an event) is no reference.
fn method_group(cx: &Cx, file: u32, r: &ValueRef) -> Option<Placement> {
    let call = Call::of_ref(r, false);
    let site = call_site(file, &call);
    let (ty, name, family, access) = match &r.target {
        Callee::Name(name) => {
            if let Some(f) = lookup::local_function(cx.index, site, name) {
                return Some(Placement::in_tree(vec![f], Family::Lexical));
            }
            if lookup::variable(cx, site, name).is_some() {
                return None;
            }
            return simple_method_group(cx, file, &call, name);
        }
        Callee::Member {
            receiver: Receiver::Path(p),
            name,
        } if p.len() == 1 && p[0] == "this" => {
            let own = r.caller.and_then(|c| own_type(cx.index, file, c))?;
            (own, name, Family::OwnType, Access::Virtual)
        }
        Callee::Member { receiver, name } => match eval::receiver(cx, site, receiver) {
            Recv::Value(Typed {
                ty: CsType::Class(c, _),
                family,
            }) => (c, name, family, Access::Virtual),
            Recv::Type(t) => (t, name, Family::QualifiedPath, Access::Static),
            _ => return None,
        },
        _ => return None,
    };
    let own = canonical(cx.index, ty);
    let anc = ancestry(cx, own, &[]);
    let (on, m) = only_method_of_group(cx, file, &call, &anc, name, access)?;
    let family = if on == own {
        family
    } else {
        Family::Inheritance
    };
    Some(named_placement(cx, m, family))
}

/// `M` inside a type: the innermost enclosing type whose hierarchy has a member
/// named M decides (spec §12.8.4); one whose outside base may declare it ends
/// the search unanswered.
fn simple_method_group(cx: &Cx, file: u32, call: &Call, name: &str) -> Option<Placement> {
    let caller = call.caller?;
    for t in enclosing_types(cx.index, file, caller) {
        let anc = ancestry(cx, t, &[]);
        if let Some((on, m)) = only_method_of_group(cx, file, call, &anc, name, Access::Implicit) {
            let family = if on == t {
                Family::OwnType
            } else {
                Family::Inheritance
            };
            return Some(named_placement(cx, m, family));
        }
        let declared = anc
            .types
            .iter()
            .any(|(ty, _)| !members_named(cx.index, *ty, name).is_empty());
        if declared || !anc.closed() {
            return None;
        }
    }
    None
}

/// The one method a group of that name holds on an ancestry (a class's own
/// and its base classes' methods; an interface's and its bases'), when the
/// first type that declares the name declares methods only. Interfaces a class
/// implements add no candidates: the class declares what it implements.
fn only_method_of_group(
    cx: &Cx,
    file: u32,
    call: &Call,
    anc: &Ancestry,
    name: &str,
    access: Access,
) -> Option<(Eid, Eid)> {
    let index = cx.index;
    let start = anc.types.first()?.0;
    let on_interface = index.decl(start).kind == DeclKind::Interface;
    let mut found: Vec<(Eid, Eid)> = Vec::new();
    for (t, _) in &anc.types {
        if (index.decl(*t).kind == DeclKind::Interface) != on_interface {
            continue;
        }
        let members = members_named(index, *t, name);
        if found.is_empty() && members.iter().any(|&m| !is_method(index, m)) {
            return None;
        }
        if found.is_empty()
            && lookup::field(
                cx,
                &Ancestry {
                    types: vec![(*t, Vec::new())],
                    ..Ancestry::default()
                },
                name,
            )
            .is_some()
        {
            return None;
        }
        found.extend(
            members
                .into_iter()
                .filter(|&m| {
                    is_method(index, m)
                        && access_allows(index, m, access)
                        && accessible_from(index, file, call, m)
                })
                .map(|m| (*t, m)),
        );
    }
    match found.as_slice() {
        [one] => Some(*one),
        _ => None,
    }
}

/// A placement on one declaration, named when its qualified name has overloads.
fn named_placement(cx: &Cx, m: Eid, family: Family) -> Placement {
    let mut p = Placement::in_tree(vec![m], family);
    if cx.index.same_qualified_name(m).len() > 1 {
        p.name_declaration(m);
    }
    p
}
