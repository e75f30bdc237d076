//! Go resolution: an ordered list of small rules, each reading one kind of
//! evidence, mirroring what go/types binds. Go's package scope spans every file
//! of the package directory, so a bare name is looked up in the file's own
//! scopes first, then in the package's top-level declarations. Every edge leaves
//! through `Placement::in_tree` / `Placement::outside` with its rule's family.

use std::collections::HashSet;

use crate::facts::{
    Binding, BindingValue, Call, Callee, DeclKind, ImportKind, Receiver, ScopeIdx, TypeRef,
    ValueExpr, ValueRef,
};
use crate::index::{Eid, TreeIndex};
use crate::lang::go::policy;
use crate::lang::Language;
use crate::resolve::family::{Family, OutsideKind, Reason};
use crate::resolve::{
    find_member, Cx, Decision, Eval, Hierarchy, LanguageResolver, MemberLookup, Placement, Rule,
    Target, Val,
};

pub struct GoResolver;

pub static GO: GoResolver = GoResolver;

/// How far value flow follows names (`a := b; b := c; …`) before abstaining.
const MAX_FLOW: u32 = 8;

const RULES: &[Rule] = &[
    Rule {
        name: "bare_name",
        run: bare_name,
    },
    Rule {
        name: "member_call",
        run: member_call,
    },
];

impl LanguageResolver for GoResolver {
    fn rules(&self) -> &'static [Rule] {
        RULES
    }

    /// A call to a function or method evaluates to its first declared result.
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
        let returns = decl.returns.as_ref()?;
        let ctx = TypeSite::of_decl(cx.index, target);
        match resolve_type(cx.index, &ctx, returns) {
            Ty::InTree(t) => Some(Eval::new(Val::Instance(t), Family::ReturnType)),
            Ty::Outside { symbol, .. } => {
                Some(Eval::new(Val::ForeignInstance(symbol), Family::ReturnType))
            }
            Ty::Unknown => None,
        }
    }

    fn resolve_ref(&self, _cx: &Cx, _file: u32, _r: &ValueRef) -> Option<Placement> {
        None
    }

    /// Embedded fields (structs) and embedded interfaces; any that is not a type
    /// of the tree raises the flag.
    fn bases(&self, index: &TreeIndex, ty: Eid) -> (Vec<Eid>, bool) {
        let ctx = TypeSite::of_decl(index, ty);
        let mut out = Vec::new();
        let mut unknown = false;
        for base in &index.decl(ty).bases {
            match resolve_type(index, &ctx, base) {
                Ty::InTree(b) if b != ty => out.push(b),
                _ => unknown = true,
            }
        }
        (out, unknown)
    }

    /// Go promotes by depth: the shallowest embedded type that has the name wins,
    /// so members are searched breadth-first.
    fn lookup_order(&self, hierarchy: &Hierarchy, ty: Eid) -> Vec<Eid> {
        breadth_first(hierarchy, ty)
    }

    /// Go has no overloads.
    fn pick_overload(
        &self,
        _cx: &Cx,
        _file: u32,
        _call: &Call,
        _candidates: &[Eid],
    ) -> Option<Eid> {
        None
    }
}

fn breadth_first(hierarchy: &Hierarchy, ty: Eid) -> Vec<Eid> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let mut queue = std::collections::VecDeque::from([ty]);
    while let Some(t) = queue.pop_front() {
        if out.len() > 256 || !seen.insert(t) {
            continue;
        }
        out.push(t);
        queue.extend(hierarchy.bases(t).iter().copied());
    }
    out
}

// ----- types -------------------------------------------------------------------------------

/// Where a type is written: the file (for its imports and package) and the type
/// parameters in scope (which name no declared type).
struct TypeSite<'a> {
    file: u32,
    type_params: Vec<&'a str>,
}

impl<'a> TypeSite<'a> {
    /// A declaration's own type parameters, and a method's receiver's (`List[T]`).
    fn of_decl(index: &'a TreeIndex, eid: Eid) -> TypeSite<'a> {
        let decl = index.decl(eid);
        let mut type_params: Vec<&str> = decl.type_params.iter().map(String::as_str).collect();
        if decl.kind == DeclKind::Method {
            for b in &decl.bases {
                type_params.extend(b.args.iter().filter_map(|a| a.last()));
            }
        }
        if let Some(p) = decl.parent {
            let parent = &index.file(eid.file).decls[p as usize];
            type_params.extend(parent.type_params.iter().map(String::as_str));
        }
        TypeSite {
            file: eid.file,
            type_params,
        }
    }

    fn of_call(index: &'a TreeIndex, file: u32, call: &Call) -> TypeSite<'a> {
        match call.caller {
            Some(d) => TypeSite::of_decl(index, Eid { file, decl: d }),
            None => TypeSite {
                file,
                type_params: Vec::new(),
            },
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Ty {
    InTree(Eid),
    Outside { symbol: String, kind: OutsideKind },
    Unknown,
}

fn package_of<'a>(index: &TreeIndex<'a>, file: u32) -> &'a str {
    index
        .file(file)
        .module
        .first()
        .map(String::as_str)
        .unwrap_or("")
}

/// A named type as go/types would bind it: a type parameter is unknown, a name of
/// the package is its declaration, a predeclared type is a builtin, `pkg.T`
/// follows the file's import. Slices and maps have no methods: unknown.
fn resolve_type(index: &TreeIndex, site: &TypeSite, ty: &TypeRef) -> Ty {
    if ty.array || ty.path.first().is_some_and(|p| p == "map") {
        return Ty::Unknown;
    }
    match ty.path.as_slice() {
        [name] => {
            if site.type_params.contains(&name.as_str()) {
                return Ty::Unknown;
            }
            if let Some(t) = a_type_of_the_package(index, package_of(index, site.file), name) {
                return Ty::InTree(t);
            }
            if policy::is_builtin_type(name) {
                return Ty::Outside {
                    symbol: name.clone(),
                    kind: OutsideKind::Builtin,
                };
            }
            Ty::Unknown
        }
        [pkg, name] => match import_path_bound_to(index, site.file, pkg) {
            Some(path) if !index.package_files(&path).is_empty() => {
                match a_type_of_the_package(index, &path, name) {
                    Some(t) => Ty::InTree(t),
                    None => Ty::Unknown,
                }
            }
            Some(path) => Ty::Outside {
                symbol: format!("{path}.{name}"),
                kind: import_kind(&path),
            },
            None => Ty::Unknown,
        },
        _ => Ty::Unknown,
    }
}

fn a_type_of_the_package(index: &TreeIndex, package: &str, name: &str) -> Option<Eid> {
    let found: Vec<Eid> = index
        .go_package_name(package, name)
        .iter()
        .copied()
        .filter(|&e| index.decl(e).kind.is_type())
        .collect();
    match found.as_slice() {
        [one] => Some(*one),
        _ => None,
    }
}

fn import_kind(path: &str) -> OutsideKind {
    if policy::is_stdlib_import(path) {
        OutsideKind::Stdlib
    } else {
        OutsideKind::External
    }
}

/// The import path a file binds to `name` (its package-name binding).
fn import_path_bound_to(index: &TreeIndex, file: u32, name: &str) -> Option<String> {
    let facts = index.file(file);
    facts.scopes[0]
        .named(name)
        .rev()
        .find_map(|b| match b.value {
            BindingValue::Import(i) => match &facts.imports[i as usize].kind {
                ImportKind::GoPackage { path, .. } => Some(path.clone()),
                _ => None,
            },
            _ => None,
        })
}

// ----- names ---------------------------------------------------------------------------------

/// What a name at a call denotes: a binding of this file (nearest write before the
/// call in the innermost scope that has one), or the package's top-level declarations.
enum Named<'a> {
    Binding(&'a Binding),
    Package(Vec<Eid>),
    Nothing,
}

fn lookup_name<'a>(
    index: &'a TreeIndex,
    file: u32,
    scope: ScopeIdx,
    name: &str,
    line: u32,
    through_writes: bool,
) -> Named<'a> {
    let facts = index.file(file);
    let mut cur = Some(scope);
    while let Some(s) = cur {
        let sc = &facts.scopes[s as usize];
        let module = sc.parent.is_none();
        if let Some(b) = sc
            .named(name)
            .rev()
            .filter(|b| !(through_writes && is_a_write(b)))
            .find(|b| module || b.line <= line)
        {
            return Named::Binding(b);
        }
        cur = sc.parent;
    }
    let package = index.go_package_name(package_of(index, file), name);
    if package.is_empty() {
        Named::Nothing
    } else {
        Named::Package(package.to_vec())
    }
}

/// `x = v` (not a declaration): x's value is unknown from here, its type is its
/// declaration's.
fn is_a_write(b: &Binding) -> bool {
    matches!(b.value, BindingValue::Value(ValueExpr::Unknown))
}

// ----- receivers -----------------------------------------------------------------------------

/// What a receiver evaluates to.
enum Recv {
    Instance(Eid, Family),
    Foreign(String, OutsideKind),
    /// An imported package, by import path.
    Package(String),
    /// A type name (`T.M` method expression).
    TypeName(Eid),
    Refuse(Reason),
}

fn of_type(ty: Ty, family: Family) -> Recv {
    match ty {
        Ty::InTree(t) => Recv::Instance(t, family),
        Ty::Outside { symbol, kind } => Recv::Foreign(symbol, kind),
        Ty::Unknown => Recv::Refuse(Reason::ReceiverTypeUnknown),
    }
}

/// A receiver path `a.b.c`: its root named, then one field at a time.
fn eval_path(cx: &Cx, file: u32, call: &Call, path: &[String], budget: u32) -> Recv {
    let Some((root, rest)) = path.split_first() else {
        return Recv::Refuse(Reason::ReceiverTypeUnknown);
    };
    let mut recv = eval_root(cx, file, call, root, budget);
    for field in rest {
        recv = through_field(cx, recv, field);
    }
    recv
}

fn eval_root(cx: &Cx, file: u32, call: &Call, root: &str, budget: u32) -> Recv {
    if budget == 0 {
        return Recv::Refuse(Reason::ReceiverTypeUnknown);
    }
    match lookup_name(cx.index, file, call.scope, root, call.line, true) {
        Named::Binding(b) => eval_binding(cx, file, call, b, budget - 1),
        Named::Package(decls) => match decls.as_slice() {
            [t] if cx.index.decl(*t).kind.is_type() => Recv::TypeName(*t),
            _ => Recv::Refuse(Reason::ReceiverTypeUnknown),
        },
        Named::Nothing => a_package_variable(cx, file, call, root, budget - 1),
    }
}

/// A package-level variable declared in another file of the package: its
/// declaration is read in that file (its imports, its calls), as if at the end of
/// its file scope. Go's static typing makes the declaration's type the variable's.
fn a_package_variable(cx: &Cx, file: u32, call: &Call, name: &str, budget: u32) -> Recv {
    let package = package_of(cx.index, file);
    let [(vfile, index)] = cx.index.go_package_var(package, name) else {
        return Recv::Refuse(Reason::ReceiverTypeUnknown);
    };
    let binding = &cx.index.file(*vfile).scopes[0].bindings[*index as usize];
    let there = Call {
        scope: 0,
        line: u32::MAX,
        caller: None,
        ..call.clone()
    };
    eval_binding(cx, *vfile, &there, binding, budget)
}

fn eval_binding(cx: &Cx, file: u32, call: &Call, b: &Binding, budget: u32) -> Recv {
    let site = TypeSite::of_call(cx.index, file, call);
    match &b.value {
        BindingValue::Param {
            index,
            ty: Some(ty),
        } => {
            let family = if *index == policy::RECEIVER_INDEX {
                Family::OwnType
            } else {
                Family::WrittenType
            };
            of_type(resolve_type(cx.index, &site, ty), family)
        }
        BindingValue::Typed { ty, .. } => {
            of_type(resolve_type(cx.index, &site, ty), Family::WrittenType)
        }
        BindingValue::Value(v) => eval_value(cx, file, call, v, budget),
        BindingValue::Import(i) => match &cx.index.file(file).imports[*i as usize].kind {
            ImportKind::GoPackage { path, .. } => Recv::Package(path.clone()),
            _ => Recv::Refuse(Reason::ReceiverTypeUnknown),
        },
        BindingValue::Decl(d) if cx.index.file(file).decls[*d as usize].kind.is_type() => {
            Recv::TypeName(Eid { file, decl: *d })
        }
        _ => Recv::Refuse(Reason::ReceiverTypeUnknown),
    }
}

fn eval_value(cx: &Cx, file: u32, call: &Call, v: &ValueExpr, budget: u32) -> Recv {
    let site = TypeSite::of_call(cx.index, file, call);
    match v {
        ValueExpr::New(ty) => of_type(resolve_type(cx.index, &site, ty), Family::WrittenType),
        ValueExpr::CallResult(ci) => a_call_result(cx, file, *ci),
        ValueExpr::Name(n) => eval_root(cx, file, call, n, budget),
        ValueExpr::Attribute { path } => eval_path(cx, file, call, path, budget),
        ValueExpr::Subscript { base, .. } => an_element_of(cx, file, call, base, budget),
        _ => Recv::Refuse(Reason::ReceiverTypeUnknown),
    }
}

/// A range variable over a field or a call's result: the element type of the
/// field's written type, or of the called function's declared result (`[]*T` → T,
/// `map[K]V` → V).
fn an_element_of(cx: &Cx, file: u32, call: &Call, base: &ValueExpr, budget: u32) -> Recv {
    let written = match base {
        ValueExpr::Attribute { path } => a_field_type(cx, file, call, path, budget),
        ValueExpr::CallResult(ci) => a_declared_result(cx, file, *ci),
        _ => None,
    };
    let Some((site, ty, family)) = written else {
        return Recv::Refuse(Reason::ReceiverTypeUnknown);
    };
    match element_type(ty) {
        Some(elem) => of_type(
            resolve_type(cx.index, &TypeSite::of_decl(cx.index, site), &elem),
            family,
        ),
        None => Recv::Refuse(Reason::ReceiverTypeUnknown),
    }
}

/// `[]T` → T, `map[K]V` → V.
fn element_type(ty: TypeRef) -> Option<TypeRef> {
    if ty.array {
        return Some(TypeRef { array: false, ..ty });
    }
    (ty.path == ["map"] && ty.args.len() == 2).then(|| ty.args[1].clone())
}

/// The written type of the field `a.b.f` (and the type declaring it).
fn a_field_type(
    cx: &Cx,
    file: u32,
    call: &Call,
    path: &[String],
    budget: u32,
) -> Option<(Eid, TypeRef, Family)> {
    let (field, receiver) = path.split_last()?;
    let Recv::Instance(ty, _) = eval_path(cx, file, call, receiver, budget) else {
        return None;
    };
    let (owner, written) = a_field_of(cx, ty, field)?;
    Some((owner, written?, Family::WrittenType))
}

/// The declared first result of the function the call at `ci` reaches (its rules
/// run again here: the chain pass keeps evaluated instances, not written types).
fn a_declared_result(cx: &Cx, file: u32, ci: u32) -> Option<(Eid, TypeRef, Family)> {
    let inner = &cx.index.file(file).calls[ci as usize];
    let crate::resolve::Resolution::Placed(p) = crate::resolve::run_rules(cx, file, inner, None)
    else {
        return None;
    };
    let target = p.single()?;
    let returns = cx.index.decl(target).returns.clone()?;
    Some((target, returns, Family::ReturnType))
}

/// What the previous round says a call returns.
fn a_call_result(cx: &Cx, file: u32, ci: u32) -> Recv {
    match cx.results.get(file, ci) {
        Some(Eval {
            val: Val::Instance(t),
            ..
        }) => Recv::Instance(*t, Family::ReturnType),
        Some(Eval {
            val: Val::ForeignInstance(symbol),
            ..
        }) => Recv::Foreign(symbol.clone(), OutsideKind::ForeignType),
        _ => Recv::Refuse(Reason::ReceiverTypeUnknown),
    }
}

/// `x.f` where x is an instance of a type of the tree: the field's written type,
/// found on the type or promoted from an embedded one.
fn through_field(cx: &Cx, recv: Recv, field: &str) -> Recv {
    let Recv::Instance(ty, _) = recv else {
        return match recv {
            r @ Recv::Refuse(_) => r,
            _ => Recv::Refuse(Reason::ReceiverTypeUnknown),
        };
    };
    match a_field_of(cx, ty, field) {
        Some((owner, Some(written))) => {
            let site = TypeSite::of_decl(cx.index, owner);
            of_type(resolve_type(cx.index, &site, &written), Family::WrittenType)
        }
        _ => Recv::Refuse(Reason::ReceiverTypeUnknown),
    }
}

/// The field of that name on the type or the shallowest embedded type.
fn a_field_of(cx: &Cx, ty: Eid, name: &str) -> Option<(Eid, Option<TypeRef>)> {
    breadth_first(cx.hierarchy, ty).into_iter().find_map(|t| {
        cx.index
            .decl(t)
            .fields
            .iter()
            .find(|f| f.name == name)
            .map(|f| (t, f.ty.clone()))
    })
}

// ----- placing -------------------------------------------------------------------------------

fn place_member(cx: &Cx, recv: Recv, name: &str) -> Decision {
    match recv {
        Recv::Instance(ty, family) => place_on_type(cx, ty, name, family),
        Recv::TypeName(ty) => match find_member(cx, Language::Go, ty, name) {
            MemberLookup::Found { decls, .. } => {
                Decision::Place(Placement::in_tree(decls, Family::QualifiedPath))
            }
            _ => Decision::Refuse(Reason::ReceiverTypeUnknown),
        },
        Recv::Foreign(symbol, OutsideKind::Builtin) => Decision::Place(Placement::outside(
            OutsideKind::Builtin,
            format!("{symbol}.{name}"),
            Family::Builtin,
        )),
        Recv::Foreign(symbol, _) => Decision::Place(Placement::outside(
            OutsideKind::ForeignType,
            format!("{symbol}.{name}"),
            Family::ForeignType,
        )),
        Recv::Package(path) => package_member(cx, &path, name),
        Recv::Refuse(r) => Decision::Refuse(r),
    }
}

/// A method on a type of the tree: declared on it (the rule's family) or promoted
/// from an embedded type (`inheritance`). A function-valued field is called
/// through a value nothing names; a miss behind an outside embedded type abstains.
fn place_on_type(cx: &Cx, ty: Eid, name: &str, family: Family) -> Decision {
    match find_member(cx, Language::Go, ty, name) {
        MemberLookup::Found {
            decls, inherited, ..
        } => {
            let family = if inherited {
                Family::Inheritance
            } else {
                family
            };
            Decision::Place(Placement::in_tree(decls, family))
        }
        _ if a_field_of(cx, ty, name).is_some() => Decision::Refuse(Reason::DynamicCallee),
        MemberLookup::MaybeOutside => Decision::Refuse(Reason::ReceiverTypeUnknown),
        MemberLookup::NotFound => Decision::Unresolved,
    }
}

/// `pkg.F()`: a package of the tree → its function (`import`); a package outside
/// → `external_import`, stdlib or external by the import path.
fn package_member(cx: &Cx, path: &str, name: &str) -> Decision {
    if cx.index.package_files(path).is_empty() {
        return Decision::Place(Placement::outside(
            import_kind(path),
            format!("{path}.{name}"),
            Family::ExternalImport,
        ));
    }
    let found = cx.index.go_package_name(path, name);
    match found {
        [] => Decision::Unresolved,
        [one] if cx.index.decl(*one).kind.is_type() => Decision::Refuse(Reason::Refused),
        decls => Decision::Place(Placement::in_tree(decls.to_vec(), Family::Import)),
    }
}

// ----- the rules -----------------------------------------------------------------------------

/// `f()`: a local or a declaration of this file (`lexical`), else one of the
/// package's other files (`lexical`: Go's package scope spans them), else a
/// predeclared function (`builtin`). A name that is a type is a conversion; a
/// parameter or an opaque local abstains; a local holding a function or a method
/// value is followed (`value_flow`).
fn bare_name(cx: &Cx, file: u32, call: &Call) -> Decision {
    let Callee::Name(name) = &call.callee else {
        return Decision::Pass;
    };
    callee_named(cx, file, call, name, MAX_FLOW, Family::Lexical)
}

fn callee_named(
    cx: &Cx,
    file: u32,
    call: &Call,
    name: &str,
    budget: u32,
    family: Family,
) -> Decision {
    if budget == 0 {
        return Decision::Refuse(Reason::LocalValue);
    }
    match lookup_name(cx.index, file, call.scope, name, call.line, false) {
        Named::Binding(b) => match &b.value {
            BindingValue::Decl(d) => {
                let eid = Eid { file, decl: *d };
                a_declaration_called(cx, vec![eid], family)
            }
            BindingValue::Param { .. } => Decision::Refuse(Reason::ParameterValue),
            BindingValue::Value(ValueExpr::Name(other)) => {
                callee_named(cx, file, call, other, budget - 1, Family::ValueFlow)
            }
            BindingValue::Value(ValueExpr::Attribute { path }) => {
                method_value(cx, file, call, path, budget - 1)
            }
            BindingValue::Import(_) => Decision::Refuse(Reason::Refused),
            _ => Decision::Refuse(Reason::LocalValue),
        },
        Named::Package(decls) => a_declaration_called(cx, decls, family),
        Named::Nothing if policy::is_builtin_function(name) => Decision::Place(Placement::outside(
            OutsideKind::Builtin,
            name,
            Family::Builtin,
        )),
        Named::Nothing => Decision::Unresolved,
    }
}

/// A function is called; a type named as a callee is a conversion, not a call.
fn a_declaration_called(cx: &Cx, decls: Vec<Eid>, family: Family) -> Decision {
    if decls.iter().any(|&d| cx.index.decl(d).kind.is_type()) {
        return Decision::Refuse(Reason::Refused);
    }
    Decision::Place(Placement::in_tree(decls, family))
}

/// `f := x.M; f()` or `f := pkg.F; f()`: the method value's method.
fn method_value(cx: &Cx, file: u32, call: &Call, path: &[String], budget: u32) -> Decision {
    let Some((name, receiver)) = path.split_last() else {
        return Decision::Refuse(Reason::LocalValue);
    };
    let recv = eval_path(cx, file, call, receiver, budget);
    match place_member(cx, recv, name) {
        Decision::Place(p) => Decision::Place(as_value_flow(p)),
        Decision::Refuse(_) | Decision::Unresolved | Decision::MayReach(_) | Decision::Pass => {
            Decision::Refuse(Reason::LocalValue)
        }
    }
}

/// Re-label an in-tree placement reached through a stored value.
fn as_value_flow(p: Placement) -> Placement {
    match p.target() {
        Target::InTree(t) => Placement::in_tree(t.clone(), Family::ValueFlow),
        Target::Outside { .. } => p,
    }
}

/// `x.M()`, `x.y.M()`, `pkg.F()`, `T.M()`, `f().M()`, `T{}.M()`.
fn member_call(cx: &Cx, file: u32, call: &Call) -> Decision {
    let Callee::Member { receiver, name } = &call.callee else {
        return Decision::Pass;
    };
    let recv = match receiver {
        Receiver::Path(path) => eval_path(cx, file, call, path, MAX_FLOW),
        Receiver::Call(ci) => a_call_result(cx, file, *ci),
        Receiver::CallThen { call: ci, path } => {
            let mut recv = a_call_result(cx, file, *ci);
            for f in path {
                recv = through_field(cx, recv, f);
            }
            recv
        }
        Receiver::New(ty) => {
            let site = TypeSite::of_call(cx.index, file, call);
            of_type(resolve_type(cx.index, &site, ty), Family::WrittenType)
        }
        Receiver::Literal(_) | Receiver::Unknown | Receiver::Subscript(_) => {
            Recv::Refuse(Reason::ReceiverTypeUnknown)
        }
        Receiver::Super | Receiver::QualifiedThis(_) | Receiver::Scope(_) => {
            Recv::Refuse(Reason::UnsupportedSyntax)
        }
    };
    place_member(cx, recv, name)
}
