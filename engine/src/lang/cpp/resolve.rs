//! C++ resolution: ordered rules mirroring what clang binds, each reading one
//! kind of evidence. Names are looked up as C++ does — the caller's class (and its
//! bases) first, then its namespaces from the innermost outwards, then the
//! namespaces a `using namespace` opens — and land on the *definition* (an
//! out-of-line `Box& Box::other()` is a member of `Box`, index.rs), except a
//! virtual member, which lands on the member the static type declares (what
//! clang's IR names for a virtual call). Receivers are typed by what the source
//! writes: declarations, parameters, fields, `new T`, `T(…)`, `auto x = T(…)`,
//! declared return types; smart pointers' `->` reaches the pointee.

use crate::facts::{
    BindingValue, Call, CallKind, Callee, Decl, DeclKind, ImportKind, Receiver, TypeRef, ValueExpr,
    ValueRef,
};
use crate::index::{Eid, TreeIndex};
use crate::lang::c::policy as cpolicy;
use crate::lang::c::resolve::{
    definitions_visible_from, includes, is_definition, local_binding, outside_by_name,
    resolve_ref_by_rules, Local, Visible,
};
use crate::lang::cpp::policy;
use crate::lang::Language;
use crate::resolve::family::{Family, OutsideKind, Reason};
use crate::resolve::{
    find_member, Cx, Decision, Eval, Hierarchy, LanguageResolver, MemberLookup, Placement, Rule,
    Target, Val,
};

pub struct CppResolver;

pub static CPP: CppResolver = CppResolver;

const RULES: &[Rule] = &[
    Rule {
        name: "a_construction",
        run: a_construction,
    },
    Rule {
        name: "a_parameter_or_local",
        run: a_parameter_or_local,
    },
    Rule {
        name: "a_member_of_the_own_class",
        run: a_member_of_the_own_class,
    },
    Rule {
        name: "a_scoped_name",
        run: a_scoped_name,
    },
    Rule {
        name: "a_member_of_the_receivers_type",
        run: a_member_of_the_receivers_type,
    },
    Rule {
        name: "outside_the_tree",
        run: outside_the_tree,
    },
];

impl LanguageResolver for CppResolver {
    fn rules(&self) -> &'static [Rule] {
        RULES
    }

    /// A construction evaluates to an instance of its class; a function or method
    /// to its declared return type.
    fn call_result(
        &self,
        cx: &Cx,
        _file: u32,
        _call: &Call,
        placement: &Placement,
    ) -> Option<Eval> {
        let Target::InTree(targets) = placement.target() else {
            return None;
        };
        let target = *targets.first()?;
        let decl = cx.index.decl(target);
        if decl.kind.is_type() {
            return Some(Eval::new(Val::Instance(target), Family::Construction));
        }
        if decl.kind == DeclKind::Constructor {
            let class = cx.index.c_owner_type(target)?;
            return Some(Eval::new(Val::Instance(class), Family::Construction));
        }
        let returns = decl.returns.as_ref()?;
        match resolve_type(cx.index, target.file, Some(target), returns) {
            Ty::InTree(t) => Some(Eval::new(Val::Instance(t), Family::ReturnType)),
            Ty::Foreign(s) => Some(Eval::new(Val::ForeignInstance(s), Family::ReturnType)),
            _ => None,
        }
    }

    fn resolve_ref(&self, cx: &Cx, file: u32, r: &ValueRef) -> Option<Placement> {
        resolve_ref_by_rules(cx, file, r, RULES)
    }

    fn bases(&self, index: &TreeIndex, ty: Eid) -> (Vec<Eid>, bool) {
        let mut out = Vec::new();
        let mut unknown = false;
        for b in &index.decl(ty).bases {
            match resolve_type(index, ty.file, Some(ty), b) {
                Ty::InTree(t) if t != ty => out.push(t),
                _ => unknown = true,
            }
        }
        (out, unknown)
    }

    /// Depth-first, left to right: the first base that declares the name.
    fn lookup_order(&self, hierarchy: &Hierarchy, ty: Eid) -> Vec<Eid> {
        hierarchy.depth_first(ty)
    }

    fn pick_overload(&self, cx: &Cx, _file: u32, call: &Call, candidates: &[Eid]) -> Option<Eid> {
        crate::lang::c::resolve::pick_definition(cx, call, candidates)
    }
}

// ----- types -------------------------------------------------------------------------------

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Ty {
    InTree(Eid),
    /// A type outside the tree (`std::string`), by its written path.
    Foreign(String),
    /// A number, a pointer to one, `void`.
    Plain,
    Unknown,
}

/// The scope paths a name written inside `ctx` is looked up in, innermost first:
/// the enclosing classes and namespaces, then the global scope.
fn enclosing_paths(index: &TreeIndex, ctx: Option<Eid>) -> Vec<Vec<String>> {
    let mut full: Vec<String> = Vec::new();
    if let Some(e) = ctx {
        // The chain of parents up to the top-level declaration.
        let file = index.file(e.file);
        let mut chain = Vec::new();
        let mut cur = Some(e.decl);
        while let Some(d) = cur {
            chain.push(d);
            cur = file.decls[d as usize].parent;
        }
        chain.reverse();
        if let Some(&top) = chain.first() {
            full.extend(file.decls[top as usize].scope_path.iter().cloned());
        }
        // Classes and functions alike: a class local to a function is keyed
        // under the function (`ns::f::Local`).
        for &d in &chain {
            full.push(file.decls[d as usize].name.clone());
        }
    }
    (0..=full.len()).rev().map(|n| full[..n].to_vec()).collect()
}

/// The namespaces `using namespace` opens in a file and its aliases (`using a::f;`,
/// `using A = T;`, `typedef T A;`).
/// `using namespace` paths, and (alias, path) pairs.
type Usings = (Vec<Vec<String>>, Vec<(String, Vec<String>)>);

fn usings(index: &TreeIndex, file: u32) -> Usings {
    let mut dirs = Vec::new();
    let mut aliases = Vec::new();
    for i in &index.file(file).imports {
        match &i.kind {
            ImportKind::CppUsingNamespace { path } => dirs.push(path.clone()),
            ImportKind::CppUsing { path, alias } => aliases.push((alias.clone(), path.clone())),
            _ => {}
        }
    }
    (dirs, aliases)
}

/// A scoped name's declarations that `want` accepts (a type name skips the
/// constructors that share the class's name).
fn lookup_kind(
    index: &TreeIndex,
    file: u32,
    ctx: Option<Eid>,
    path: &[String],
    want: impl Fn(&crate::facts::Decl) -> bool,
) -> Vec<Eid> {
    lookup_where(index, file, ctx, path, |e| want(index.decl(e)))
}

/// Declarations a scoped name written in `ctx` (in `file`) may mean, C++ lookup
/// order: the innermost enclosing scope that has it, then `using` directives and
/// aliases. Empty when nothing in the tree has it.
/// Only the declarations `want` accepts count.
fn lookup_where(
    index: &TreeIndex,
    file: u32,
    ctx: Option<Eid>,
    path: &[String],
    want: impl Fn(Eid) -> bool,
) -> Vec<Eid> {
    if path.is_empty() {
        return Vec::new();
    }
    let hits = |key: &str| -> Vec<Eid> {
        index
            .c_scoped(key)
            .iter()
            .copied()
            .filter(|&e| want(e))
            .collect()
    };
    if path.is_empty() {
        return Vec::new();
    }
    let tail = path.join("::");
    for prefix in enclosing_paths(index, ctx) {
        let key = if prefix.is_empty() {
            tail.clone()
        } else {
            format!("{}::{tail}", prefix.join("::"))
        };
        let found = hits(&key);
        if !found.is_empty() {
            return found;
        }
    }
    let (dirs, aliases) = usings(index, file);
    for (alias, target) in &aliases {
        if alias == &path[0] {
            let mut p = target.clone();
            p.extend(path[1..].iter().cloned());
            if p != path {
                let found = hits(&p.join("::"));
                if !found.is_empty() {
                    return found;
                }
            }
        }
    }
    for d in dirs {
        let key = format!("{}::{tail}", d.join("::"));
        let found = hits(&key);
        if !found.is_empty() {
            return found;
        }
    }
    Vec::new()
}

/// A written type, resolved where it is written (`ctx`, the declaration it
/// appears in): its type parameters are unknown, numbers are plain, `std::` types
/// are foreign, a class of the tree is found by C++ lookup.
pub(crate) fn resolve_type(index: &TreeIndex, file: u32, ctx: Option<Eid>, ty: &TypeRef) -> Ty {
    let Some(last) = ty.last() else {
        return Ty::Unknown;
    };
    if ty.path.len() == 1 {
        if cpolicy::is_plain_type(last) {
            return Ty::Plain;
        }
        if is_type_param(index, ctx, last) {
            return Ty::Unknown;
        }
    }
    resolve_type_bounded(index, file, ctx, ty, 0)
}

fn resolve_type_bounded(
    index: &TreeIndex,
    file: u32,
    ctx: Option<Eid>,
    ty: &TypeRef,
    depth: u32,
) -> Ty {
    let Some(last) = ty.last() else {
        return Ty::Unknown;
    };
    let mut types: Vec<Eid> = lookup_kind(index, file, ctx, &ty.path, |d| d.kind.is_type());
    if types.is_empty() && depth > 0 {
        // An alias's target, written in a namespace the alias does not record:
        // the one type of the tree with that name.
        let named: Vec<Eid> = index
            .by_name(last)
            .iter()
            .copied()
            .filter(|&e| index.decl(e).kind.is_type())
            .collect();
        if named.len() == 1 {
            types = named;
        }
    }
    match pick_type(index, file, &types) {
        Some(t) => Ty::InTree(t),
        None if !types.is_empty() => Ty::Unknown,
        // A type alias some file of the tree writes (`using string_view =
        // basic_string_view<char>;`): what it names, when every alias of that
        // name agrees; never "outside" on the alias's name alone.
        None if !index.c_aliases(last).is_empty() => {
            if depth > 4 {
                return Ty::Unknown;
            }
            let mut answers = index.c_aliases(last).iter().map(|(f, path)| {
                let target = TypeRef {
                    path: path.clone(),
                    args: Vec::new(),
                    is_self: false,
                    array: false,
                };
                resolve_type_bounded(index, *f, None, &target, depth + 1)
            });
            let first = answers.next().unwrap_or(Ty::Unknown);
            if answers.all(|a| a == first) {
                first
            } else {
                Ty::Unknown
            }
        }
        None if ty.path.first().is_some_and(|p| p == policy::STD) => {
            Ty::Foreign(ty.path.join("::"))
        }
        // A name no type of the tree has (a typedef, a library type), written
        // outside any template (where it could name a dependent type).
        None if !index
            .by_name(last)
            .iter()
            .any(|&e| index.decl(e).kind.is_type())
            && !in_template(index, ctx) =>
        {
            Ty::Foreign(ty.path.join("::"))
        }
        None => Ty::Unknown,
    }
}

/// Among type declarations sharing a scoped name, the one this file sees: its
/// own, else one its includes reach, else the only one.
fn pick_type(index: &TreeIndex, file: u32, types: &[Eid]) -> Option<Eid> {
    match types {
        [] => None,
        // A class of one source file is never visible in another source file
        // (a test file's `State` for version_set.cc's function-local one).
        [one]
            if one.file != file
                && !crate::lang::c::is_header_path(&index.file(one.file).path)
                && !crate::lang::c::is_header_path(&index.file(file).path)
                && !includes(index, file, one.file) =>
        {
            None
        }
        [one] => Some(*one),
        _ => {
            if let Some(own) = types.iter().find(|e| e.file == file) {
                return Some(*own);
            }
            let inc: Vec<Eid> = types
                .iter()
                .copied()
                .filter(|e| includes(index, file, e.file))
                .collect();
            match inc.as_slice() {
                [one] => Some(*one),
                _ => None,
            }
        }
    }
}

/// Whether `name` is a template parameter of `ctx`, of a declaration around it
/// (a class or function it is nested in), or of an out-of-line member's class.
fn is_type_param(index: &TreeIndex, ctx: Option<Eid>, name: &str) -> bool {
    any_enclosing(index, ctx, |d| d.type_params.iter().any(|p| p == name))
}

/// Whether `ctx` is inside a template (its names may depend on its parameters).
fn in_template(index: &TreeIndex, ctx: Option<Eid>) -> bool {
    any_enclosing(index, ctx, |d| !d.type_params.is_empty())
}

/// Whether `ctx` or a declaration enclosing it (its parents, then an out-of-line
/// member's class) satisfies `test`; the walk is bounded at 17 steps.
fn any_enclosing(index: &TreeIndex, ctx: Option<Eid>, test: impl Fn(&Decl) -> bool) -> bool {
    let mut cur = ctx;
    let mut guard = 0;
    while let Some(e) = cur {
        let d = index.decl(e);
        if test(d) {
            return true;
        }
        cur = match d.parent {
            Some(p) => Some(Eid {
                file: e.file,
                decl: p,
            }),
            None => index.c_owner_type(e).filter(|&o| o != e),
        };
        guard += 1;
        if guard > 16 {
            break;
        }
    }
    false
}

/// The class a call's caller is a member of (declared inside it or out of line).
fn own_class(cx: &Cx, file: u32, call: &Call) -> Option<Eid> {
    let caller = Eid {
        file,
        decl: call.caller?,
    };
    let decl = cx.index.decl(caller);
    if decl.kind.is_type() {
        return Some(caller);
    }
    if decl.kind == DeclKind::Function && decl.parent.is_none() {
        // A test macro's body (`TEST_F(Fixture, Name)`, frontend): the fixture's.
        return match decl.bases.first() {
            Some(b) => match resolve_type(cx.index, file, Some(caller), b) {
                Ty::InTree(t) => Some(t),
                _ => None,
            },
            None => None,
        };
    }
    cx.index.c_owner_type(caller)
}

fn caller_eid(file: u32, call: &Call) -> Option<Eid> {
    call.caller.map(|decl| Eid { file, decl })
}

// ----- choosing among members ------------------------------------------------------------------

/// Whether a member is virtual where the class declares it.
fn is_virtual(index: &TreeIndex, e: Eid) -> bool {
    index.decl(e).decorators.iter().any(|d| {
        d.path
            .first()
            .is_some_and(|p| p == "virtual" || p == "override" || p == "final")
    })
}

/// The declarations a call of a member found on one class lands on: a virtual
/// member's in-class declaration (what clang names for a virtual call), else the
/// definitions (out of line or inline), narrowed by argument count; `None` when
/// nothing defines it or definitions in several files remain.
fn choose_member(cx: &Cx, call: &Call, decls: &[Eid], exact: bool) -> Option<Vec<Eid>> {
    let callables: Vec<Eid> = decls
        .iter()
        .copied()
        .filter(|&e| cx.index.decl(e).kind.is_callable())
        .collect();
    let virtual_decls: Vec<Eid> = callables
        .iter()
        .copied()
        .filter(|&e| cx.index.decl(e).parent.is_some() && is_virtual(cx.index, e))
        .collect();
    let definitions: Vec<Eid> = callables
        .iter()
        .copied()
        .filter(|&e| is_definition(cx.index, e))
        .collect();
    // Through a pointer or reference a virtual member is dispatched: clang names
    // the member the static type declares. On an object whose type is known
    // exactly the call is direct: the definition.
    let pool = if !virtual_decls.is_empty() && (!exact || definitions.is_empty()) {
        virtual_decls
    } else {
        definitions
    };
    one_file(cx, call, pool)
}

/// Candidates narrowed by argument count, kept only when they share one file
/// (and so one qualified name, for the overload pass).
fn one_file(cx: &Cx, call: &Call, pool: Vec<Eid>) -> Option<Vec<Eid>> {
    if pool.is_empty() {
        return None;
    }
    let fitting = crate::resolve::overload::by_arity(cx, call, &pool, |_| false);
    let pool = if fitting.is_empty() { pool } else { fitting };
    let first = cx.index.qualified_name(pool[0]);
    if pool.iter().all(|&e| cx.index.qualified_name(e) == first) {
        Some(pool)
    } else {
        None
    }
}

/// A construction of class `ty`: its constructor definitions the argument count
/// fits, or the class where it declares none.
fn construct(cx: &Cx, call: &Call, ty: Eid, family: Family) -> Decision {
    let name = &cx.index.decl(ty).name;
    let ctors: Vec<Eid> = cx
        .index
        .members(ty, name)
        .iter()
        .copied()
        .filter(|&e| cx.index.decl(e).kind == DeclKind::Constructor)
        .collect();
    if ctors.is_empty() {
        return Decision::Place(Placement::in_tree(vec![ty], family));
    }
    let defs: Vec<Eid> = ctors
        .iter()
        .copied()
        .filter(|&e| is_definition(cx.index, e))
        .collect();
    match one_file(cx, call, defs) {
        Some(t) => Decision::Place(Placement::in_tree(t, family)),
        // Declared, defined nowhere in the tree (or in several files).
        None => Decision::Refuse(Reason::Ambiguous),
    }
}

/// A member call on a class of the tree: found on it or a base, or not at all.
fn call_member_of(
    cx: &Cx,
    call: &Call,
    ty: Eid,
    name: &str,
    family: Family,
    exact: bool,
) -> Decision {
    match find_member(cx, Language::Cpp, ty, name) {
        MemberLookup::Found {
            decls,
            inherited,
            on,
        } => {
            if decls.iter().all(|&e| cx.index.decl(e).kind.is_type()) {
                // `T::Nested(…)`: a construction of a nested class.
                return construct(cx, call, decls[0], Family::Construction);
            }
            if decls
                .iter()
                .all(|&e| cx.index.decl(e).kind == DeclKind::Constructor)
            {
                // `T(…)` inside T's own members: a construction.
                return construct(cx, call, on, Family::Construction);
            }
            // None of the class's own overloads takes that many arguments: a
            // base's (`using Base::append;` brings them in).
            if !call.has_splat
                && crate::resolve::overload::by_arity(cx, call, &decls, |_| false).is_empty()
            {
                if let Some(t) = a_base_overload_that_fits(cx, call, on, name) {
                    return Decision::Place(Placement::in_tree(t, Family::Inheritance));
                }
            }
            match choose_member(cx, call, &decls, exact) {
                Some(t) => {
                    let family = if inherited {
                        Family::Inheritance
                    } else {
                        family
                    };
                    Decision::Place(Placement::in_tree(t, family))
                }
                None if decls.iter().any(|&e| is_definition(cx.index, e)) => {
                    Decision::Refuse(Reason::Ambiguous)
                }
                None => Decision::Unresolved,
            }
        }
        MemberLookup::MaybeOutside => {
            if cx
                .index
                .by_name(name)
                .iter()
                .any(|&e| cx.index.decl(e).kind.is_callable())
            {
                Decision::Refuse(Reason::ReceiverTypeUnknown)
            } else {
                Decision::Place(Placement::outside(
                    OutsideKind::ForeignType,
                    name.to_string(),
                    Family::ForeignType,
                ))
            }
        }
        MemberLookup::NotFound if name.starts_with("operator") => free_operator(cx, call, ty, name),
        MemberLookup::NotFound => {
            if has_field(cx, ty, name) {
                // A field holding a function pointer or a functor.
                Decision::Refuse(Reason::DynamicCallee)
            } else {
                Decision::Unresolved
            }
        }
    }
}

/// `a == b` where the class declares no `operator==`: a free operator function
/// in the class's namespace whose first parameter's written type is the class
/// (what argument-dependent lookup finds); else the operator is not the tree's.
fn free_operator(cx: &Cx, call: &Call, ty: Eid, name: &str) -> Decision {
    let mut scope = cx.index.decl(ty).scope_path.clone();
    let mut found = Vec::new();
    loop {
        let key = if scope.is_empty() {
            name.to_string()
        } else {
            format!("{}::{name}", scope.join("::"))
        };
        found.extend(cx.index.c_scoped(&key).iter().copied().filter(|&e| {
            let d = cx.index.decl(e);
            d.parent.is_none()
                && is_definition(cx.index, e)
                && d.params
                    .first()
                    .and_then(|p| p.ty.as_ref())
                    .is_some_and(|t| resolve_type(cx.index, e.file, Some(e), t) == Ty::InTree(ty))
        }));
        if !found.is_empty() || scope.pop().is_none() {
            break;
        }
    }
    match one_file(cx, call, found) {
        Some(t) => Decision::Place(Placement::in_tree(t, Family::WrittenType)),
        None => Decision::Refuse(Reason::Refused),
    }
}

/// The definitions of `name` on the first base of `ty` (in lookup order) whose
/// argument count fits the call, when they share one qualified name.
fn a_base_overload_that_fits(cx: &Cx, call: &Call, ty: Eid, name: &str) -> Option<Vec<Eid>> {
    for base in cx.hierarchy.depth_first(ty).into_iter().skip(1) {
        let members = cx.index.members(base, name);
        let fitting: Vec<Eid> = crate::resolve::overload::by_arity(cx, call, members, |_| false)
            .into_iter()
            .filter(|&e| is_definition(cx.index, e) && cx.index.decl(e).kind.is_callable())
            .collect();
        if !fitting.is_empty() {
            let first = cx.index.qualified_name(fitting[0]);
            return fitting
                .iter()
                .all(|&e| cx.index.qualified_name(e) == first)
                .then_some(fitting);
        }
    }
    None
}

fn has_field(cx: &Cx, ty: Eid, name: &str) -> bool {
    let mut order = vec![ty];
    order.extend(cx.hierarchy.ancestors(ty));
    order
        .iter()
        .any(|&t| cx.index.decl(t).fields.iter().any(|f| f.name == name))
}

/// A field's written type, on the class or a base, and whether the field is a
/// member object (its type exact) rather than a pointer or reference.
fn field_type(cx: &Cx, ty: Eid, name: &str) -> Option<(Eid, TypeRef, bool)> {
    let mut order = vec![ty];
    order.extend(cx.hierarchy.ancestors(ty));
    for t in order {
        if let Some(f) = cx.index.decl(t).fields.iter().find(|f| f.name == name) {
            let exact = matches!(f.value, Some(ValueExpr::New(_)));
            return f.ty.clone().map(|ty| (t, ty, exact));
        }
    }
    None
}

// ----- rules -----------------------------------------------------------------------------------

/// `T x(…)`, `T x;`, `new T(…)`, `T{…}`: the constructor of the written type, or
/// the class where it declares none; a type outside the tree leaves it.
fn a_construction(cx: &Cx, file: u32, call: &Call) -> Decision {
    if call.kind != CallKind::New {
        return Decision::Pass;
    }
    let path = match &call.callee {
        Callee::Name(n) => vec![n.clone()],
        Callee::Member {
            receiver: Receiver::Scope(s),
            name,
        } => {
            let mut p = s.clone();
            p.push(name.clone());
            p
        }
        _ => return Decision::Pass,
    };
    let ty = TypeRef {
        path,
        args: Vec::new(),
        is_self: false,
        array: false,
    };
    match resolve_type(cx.index, file, caller_eid(file, call), &ty) {
        Ty::InTree(t) => construct(cx, call, t, Family::Construction),
        Ty::Foreign(s) => Decision::Place(Placement::outside(
            OutsideKind::ForeignType,
            s,
            Family::ForeignType,
        )),
        Ty::Plain => Decision::Refuse(Reason::Refused),
        Ty::Unknown => Decision::Refuse(Reason::Ambiguous),
    }
}

/// A parameter or local named like the callee: a call through what it holds
/// (a function pointer, a functor, a lambda).
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

/// A bare call inside a member function: a member of its class or of a base
/// (class scope is searched before namespace scope).
fn a_member_of_the_own_class(cx: &Cx, file: u32, call: &Call) -> Decision {
    let Callee::Name(name) = &call.callee else {
        return Decision::Pass;
    };
    let Some(own) = own_class(cx, file, call) else {
        return Decision::Pass;
    };
    match find_member(cx, Language::Cpp, own, name) {
        MemberLookup::Found { .. } => call_member_of(cx, call, own, name, Family::OwnType, false),
        // A field holding a function pointer or a functor.
        _ if has_field(cx, own, name) => Decision::Refuse(Reason::DynamicCallee),
        _ => Decision::Pass,
    }
}

/// A bare or `::`-qualified name found by C++ lookup: a function (its visible
/// definition), a class (a temporary `T(…)`), or a member of a named class
/// (`T::m()`, `Base::m()`).
fn a_scoped_name(cx: &Cx, file: u32, call: &Call) -> Decision {
    let (path, qualified) = match &call.callee {
        Callee::Name(n) => (vec![n.clone()], false),
        Callee::Member {
            receiver: Receiver::Scope(s),
            name,
        } => {
            let mut p = s.clone();
            p.push(name.clone());
            (p, true)
        }
        _ => return Decision::Pass,
    };
    let ctx = caller_eid(file, call);
    let name = path.last().cloned().unwrap_or_default();
    // `::f()`: the global scope only.
    let global =
        matches!(&call.callee, Callee::Member { receiver: Receiver::Scope(s), .. } if s.is_empty());
    // Members found by a scoped name are members of the class the path means:
    // the caller's class and its bases for a bare name (another class of the
    // same name elsewhere in the tree is not it).
    let own = own_class(cx, file, call);
    let allowed_owner = |o: Eid| -> bool {
        if qualified {
            return true;
        }
        match own {
            Some(c) => c == o || cx.hierarchy.ancestors(c).contains(&o),
            None => false,
        }
    };
    let found = if global {
        cx.index
            .c_scoped(&name)
            .iter()
            .copied()
            .filter(|&e| cx.index.decl(e).parent.is_none())
            .collect()
    } else {
        lookup_where(cx.index, file, ctx, &path, |e| {
            let d = cx.index.decl(e);
            if !d.kind.is_callable() {
                return true;
            }
            match cx.index.c_owner_type(e) {
                Some(o) => allowed_owner(o),
                None => true,
            }
        })
    };
    if found.is_empty() {
        if qualified {
            // `T::m()` where T is a class: m may be inherited.
            let scope = TypeRef {
                path: path[..path.len() - 1].to_vec(),
                args: Vec::new(),
                is_self: false,
                array: false,
            };
            if let Ty::InTree(t) = resolve_type(cx.index, file, ctx, &scope) {
                // A qualified call is never dispatched virtually.
                return call_member_of(cx, call, t, &name, Family::QualifiedPath, true);
            }
        }
        return Decision::Pass;
    }
    let types: Vec<Eid> = found
        .iter()
        .copied()
        .filter(|&e| cx.index.decl(e).kind.is_type())
        .collect();
    if !types.is_empty() {
        return match pick_type(cx.index, file, &types) {
            Some(t) => construct(cx, call, t, Family::Construction),
            None => Decision::Refuse(Reason::Ambiguous),
        };
    }
    // A class template's specialisations share their scoped name: members found
    // on several classes of that name (`formatter<int>::format`) are not told apart.
    let mut owners: Vec<Eid> = found
        .iter()
        .filter_map(|&e| cx.index.c_owner_type(e))
        .collect();
    owners.sort();
    owners.dedup();
    if owners.len() > 1 {
        return Decision::Refuse(Reason::Ambiguous);
    }
    // Members of a class named by the path (`T::m`) are members, not functions.
    if let Some(&first) = found.first() {
        if cx.index.decl(first).parent.is_some() || cx.index.c_owner_type(first).is_some() {
            if let Some(owner) = cx.index.c_owner_type(first) {
                let family = if qualified {
                    Family::QualifiedPath
                } else {
                    Family::OwnType
                };
                return call_member_of(cx, call, owner, &name, family, qualified);
            }
        }
    }
    // A function none of whose declarations takes the call's argument count is
    // not what the call runs (argument-dependent lookup may find another in a
    // namespace the arguments' types bring): no guess among them.
    let narrowed = crate::resolve::overload::by_arity(cx, call, &found, |_| false);
    if narrowed.is_empty() {
        return Decision::Refuse(Reason::Refused);
    }
    match definitions_visible_from(cx, file, &narrowed) {
        // C++ needs a declaration before a call: a definition no file the caller
        // includes declares (a header calling into a test file) is not the target.
        Visible::One(_, Family::UniqueName)
            if !found
                .iter()
                .any(|&e| e.file == file || includes(cx.index, file, e.file)) =>
        {
            Decision::Refuse(Reason::NoDeclaration)
        }
        // A non-template prototype the caller sees is defined by a non-template
        // function: a template of that name elsewhere is another overload, and the
        // prototype's definition is outside what the tree parsed.
        Visible::One(defs, _) if defines_no_visible_prototype(cx, file, &narrowed, &defs) => {
            Decision::Refuse(Reason::Ambiguous)
        }
        Visible::One(defs, family) => {
            let family = if qualified {
                Family::QualifiedPath
            } else {
                family
            };
            Decision::Place(Placement::in_tree(defs, family))
        }
        Visible::Ambiguous => Decision::Refuse(Reason::Ambiguous),
        Visible::None => {
            if found.iter().any(|&e| cx.index.decl(e).kind.is_callable()) {
                Decision::Unresolved
            } else {
                Decision::Pass
            }
        }
    }
}

/// Whether the caller sees non-template prototypes of the name the call fits,
/// none of which the chosen definitions define: every definition is a template,
/// or its written parameter types differ from each prototype's (`vprint(wstring_view,
/// …)` is not the definition of `vprint(string_view, …)`).
fn defines_no_visible_prototype(cx: &Cx, file: u32, found: &[Eid], defs: &[Eid]) -> bool {
    let signature = |e: Eid| -> Vec<Option<String>> {
        cx.index
            .decl(e)
            .params
            .iter()
            .map(|p| p.ty.as_ref().and_then(|t| t.last().map(str::to_string)))
            .collect()
    };
    let prototypes: Vec<Eid> = found
        .iter()
        .copied()
        .filter(|&e| {
            let d = cx.index.decl(e);
            d.body.is_none()
                && d.kind.is_callable()
                && d.type_params.is_empty()
                && (e.file == file || includes(cx.index, file, e.file))
        })
        .collect();
    if prototypes.is_empty() {
        return false;
    }
    let all_templates = defs
        .iter()
        .all(|&e| !cx.index.decl(e).type_params.is_empty());
    // A parameter whose type is not written as a name (a function pointer)
    // matches any.
    let same = |a: &[Option<String>], b: &[Option<String>]| {
        a.len() == b.len()
            && a.iter().zip(b).all(|(x, y)| match (x, y) {
                (Some(x), Some(y)) => x == y,
                _ => true,
            })
    };
    let defines_one = defs.iter().any(|&d| {
        let sig = signature(d);
        prototypes.iter().any(|&p| same(&signature(p), &sig))
    });
    all_templates || !defines_one
}

/// `obj.m()`, `ptr->m()`, `this->m()`, `f().m()`: the member of the receiver's
/// written type (and its bases); a type outside the tree leaves it.
fn a_member_of_the_receivers_type(cx: &Cx, file: u32, call: &Call) -> Decision {
    let Callee::Member { receiver, name } = &call.callee else {
        return Decision::Pass;
    };
    if matches!(receiver, Receiver::Scope(_)) {
        return Decision::Pass;
    }
    let Some((ty, family, exact)) = receiver_type(cx, file, call, receiver, name) else {
        return Decision::Pass;
    };
    match ty {
        Ty::InTree(t) => call_member_of(cx, call, t, name, family, exact),
        Ty::Foreign(s) => Decision::Place(Placement::outside(
            OutsideKind::ForeignType,
            format!("{s}::{name}"),
            Family::ForeignType,
        )),
        // An operator on a number is no call; a method on one cannot be written.
        Ty::Plain => Decision::Refuse(Reason::Refused),
        Ty::Unknown => Decision::Refuse(Reason::ReceiverTypeUnknown),
    }
}

/// The type a receiver has, the family of the evidence, and whether it is the
/// object's exact type (a local object, `new T`, a construction) rather than the
/// static type of a pointer or reference.
fn receiver_type(
    cx: &Cx,
    file: u32,
    call: &Call,
    receiver: &Receiver,
    method: &str,
) -> Option<(Ty, Family, bool)> {
    let ctx = caller_eid(file, call);
    let (mut ty, mut family, mut exact, rest): (Ty, Family, bool, &[String]) = match receiver {
        Receiver::Path(p) => {
            let (first, rest) = p.split_first()?;
            let (t, f, x) = name_type(cx, file, call, first, method, rest.is_empty())?;
            (t, f, x, rest)
        }
        Receiver::Call(i) => {
            let (t, x) = eval_type(cx, file, *i)?;
            (t, Family::ReturnType, x, &[])
        }
        Receiver::CallThen { call: i, path } => {
            let (t, _) = eval_type(cx, file, *i)?;
            (t, Family::ReturnType, false, path.as_slice())
        }
        Receiver::New(t) => (
            resolve_type(cx.index, file, ctx, t),
            Family::WrittenType,
            true,
            &[],
        ),
        _ => return None,
    };
    for (i, seg) in rest.iter().enumerate() {
        let Ty::InTree(t) = ty else {
            return Some((Ty::Unknown, family, false));
        };
        let (owner, fty, member_object) = field_type(cx, t, seg)?;
        let last = i + 1 == rest.len();
        ty = typed(cx.index, owner.file, Some(owner), &fty, method, last);
        family = Family::WrittenType;
        exact = member_object && !is_smart_pointer(&fty);
    }
    Some((ty, family, exact))
}

/// What a call's result is, from the previous round (exact for a construction).
fn eval_type(cx: &Cx, file: u32, call: u32) -> Option<(Ty, bool)> {
    let eval = cx.results.get(file, call)?;
    let exact = eval.family == Family::Construction;
    match &eval.val {
        Val::Instance(t) => Some((Ty::InTree(*t), exact)),
        Val::ForeignInstance(s) => Some((Ty::Foreign(s.clone()), false)),
        _ => None,
    }
}

/// Whether a written type is a standard smart pointer (its pointee's type is not exact).
fn is_smart_pointer(ty: &TypeRef) -> bool {
    ty.last()
        .is_some_and(|n| policy::SMART_POINTERS.contains(&n))
}

/// A written type as a receiver: a smart pointer reached through `->` is its
/// pointee (its first type argument), unless the member is the pointer's own.
fn typed(
    index: &TreeIndex,
    file: u32,
    ctx: Option<Eid>,
    ty: &TypeRef,
    method: &str,
    last: bool,
) -> Ty {
    if let (Some(name), Some(arg)) = (ty.last(), ty.args.first()) {
        let std_or_bare = ty.path.len() == 1 || ty.path[0] == policy::STD;
        if std_or_bare
            && policy::SMART_POINTERS.contains(&name)
            && !(last && policy::SMART_POINTER_MEMBERS.contains(&method))
        {
            return resolve_type(index, file, ctx, arg);
        }
    }
    resolve_type(index, file, ctx, ty)
}

/// The type of the first name of a receiver path: `this`, a parameter or local, a
/// field of the caller's class (implicit `this`), a file-scope variable.
fn name_type(
    cx: &Cx,
    file: u32,
    call: &Call,
    name: &str,
    method: &str,
    last: bool,
) -> Option<(Ty, Family, bool)> {
    let ctx = caller_eid(file, call);
    if name == "this" {
        return Some((
            Ty::InTree(own_class(cx, file, call)?),
            Family::OwnType,
            false,
        ));
    }
    let facts = cx.index.file(file);
    let mut scope = Some(call.scope);
    while let Some(s) = scope {
        let sc = &facts.scopes[s as usize];
        if let Some(b) = sc.named(name).rfind(|b| b.line <= call.line) {
            return binding_type(cx, file, ctx, &b.value, method, last);
        }
        if s == 0 {
            break;
        }
        // Class scope sits between the function and the file: fields are read below.
        scope = sc.parent;
        if scope == Some(0) {
            if let Some(own) = own_class(cx, file, call) {
                if let Some((owner, fty, member_object)) = field_type(cx, own, name) {
                    return Some((
                        typed(cx.index, owner.file, Some(owner), &fty, method, last),
                        Family::WrittenType,
                        member_object && !is_smart_pointer(&fty),
                    ));
                }
            }
        }
    }
    None
}

fn binding_type(
    cx: &Cx,
    file: u32,
    ctx: Option<Eid>,
    value: &BindingValue,
    method: &str,
    last: bool,
) -> Option<(Ty, Family, bool)> {
    match value {
        // A local object constructed where it is declared: its exact type.
        BindingValue::Typed {
            ty: t,
            value: Some(ValueExpr::New(_)),
        } => Some((
            typed(cx.index, file, ctx, t, method, last),
            Family::WrittenType,
            true,
        )),
        BindingValue::Param { ty: Some(t), .. } | BindingValue::Typed { ty: t, .. } => Some((
            typed(cx.index, file, ctx, t, method, last),
            Family::WrittenType,
            false,
        )),
        BindingValue::Value(ValueExpr::New(t)) => Some((
            typed(cx.index, file, ctx, t, method, last),
            Family::WrittenType,
            true,
        )),
        BindingValue::Value(ValueExpr::CallResult(i)) => {
            let (t, exact) = eval_type(cx, file, *i)?;
            Some((t, Family::ReturnType, exact))
        }
        _ => None,
    }
}

/// Nothing in the tree: `std::…` and names no file declares leave it.
fn outside_the_tree(cx: &Cx, file: u32, call: &Call) -> Decision {
    match &call.callee {
        Callee::Name(n) => outside_by_name(cx, file, n, n),
        Callee::Member {
            receiver: Receiver::Scope(s),
            name,
        } => {
            let symbol = format!("{}::{name}", s.join("::"));
            if s.is_empty() {
                // `::f()` with no global f in the tree: the C library or another.
                let kind = if cpolicy::is_stdlib_function(name) {
                    OutsideKind::Stdlib
                } else {
                    OutsideKind::External
                };
                return Decision::Place(Placement::outside(
                    kind,
                    name.clone(),
                    Family::ExternalImport,
                ));
            }
            if s.first().is_some_and(|p| p == policy::STD) {
                return Decision::Place(Placement::outside(
                    OutsideKind::Stdlib,
                    symbol,
                    Family::ExternalImport,
                ));
            }
            if cx.index.by_name(name).is_empty()
                && s.last().is_none_or(|l| cx.index.by_name(l).is_empty())
            {
                return outside_by_name(cx, file, name, &symbol);
            }
            Decision::Pass
        }
        _ => Decision::Pass,
    }
}
