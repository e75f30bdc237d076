//! Ada resolution: what GNAT's cross-references name, read from the visibility
//! rules a call site sees (RM 8.3, 8.4, 10.1.6), and from written types where
//! they tell overloads apart.
//!
//! A bare name is looked up in every place that makes a declaration visible
//! there: the enclosing declarative regions of the file (innermost first), the
//! unit's spec (for a body) and its parent body (for a subunit), the specs of the
//! unit's ancestors (a child sees its parents), the library subprograms it
//! `with`s, and the packages its `use` clauses name (those of its spec too). Ada
//! overloads instead of hiding, so every visible declaration of the name is a
//! candidate; the argument count and the named associations must fit; one
//! declaration left is the answer, several sharing a qualified name go to the
//! overload pass, several others abstain (`ambiguous`). A body and its spec, a
//! stub and its subunit, a declaration and its completion are one entity, named
//! by its first declaration (the one GNAT names).
//!
//! `P.F` reads `P` as a package (nested, renamed, instantiated, a library unit,
//! named relative to the unit's ancestors); a unit outside the tree makes the call
//! `outside`. A prefix that is an object (`Obj.Op`, `R.Field`) reaches the
//! operations of a protected or task type the object's written type is; a
//! tagged type's primitive in dot notation or a component: the engine abstains.
//!
//! Overloads are told apart by what the arguments certainly are (literals,
//! objects, calls and conversions, `X'Access`), by the call's place, and by
//! overriding (`decide`).

use crate::facts::{
    ArgShape, BindingValue, Call, CallContext, CallIdx, Callee, Decl, DeclKind, FileFacts,
    ImportKind, LiteralType, Param, Receiver, ScopeIdx, TypeRef, ValueRef,
};
use crate::index::{Eid, TreeIndex};
use crate::lang::ada::frontend::tagged;
use crate::lang::ada::policy;
use crate::resolve::family::{Family, OutsideKind, Reason};
use crate::resolve::{
    Cx, Decision, Eval, Hierarchy, LanguageResolver, MayReach, Placement, Rule, Target,
};

pub struct AdaResolver;

pub static ADA: AdaResolver = AdaResolver;

/// How many renamings and instances a package name is followed through.
const MAX_HOPS: u32 = 8;

const RULES: &[Rule] = &[
    Rule {
        name: "bare_name",
        run: bare_name,
    },
    Rule {
        name: "qualified_name",
        run: qualified_name,
    },
];

impl LanguageResolver for AdaResolver {
    fn rules(&self) -> &'static [Rule] {
        RULES
    }

    /// Chains are not followed: a call's result type is not read.
    fn call_result(
        &self,
        _cx: &Cx,
        _file: u32,
        _call: &Call,
        _placement: &Placement,
    ) -> Option<Eval> {
        None
    }

    fn resolve_ref(&self, _cx: &Cx, _file: u32, _r: &ValueRef) -> Option<Placement> {
        None
    }

    fn bases(&self, _index: &TreeIndex, _ty: Eid) -> (Vec<Eid>, bool) {
        (Vec::new(), false)
    }

    fn lookup_order(&self, _hierarchy: &Hierarchy, ty: Eid) -> Vec<Eid> {
        vec![ty]
    }

    /// The rules name the declaration themselves (`decide`): declarations sharing a
    /// qualified name are not one overload set in Ada (two overloaded bodies may
    /// each declare a nested `Impl`), so the pass is given nothing to pick.
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

/// A unit's role: `spec`, `body` or `subunit` (frontend's `module[1]`).
fn role(file: &FileFacts) -> &str {
    file.module.get(1).map(String::as_str).unwrap_or("")
}

fn unit(file: &FileFacts) -> &str {
    file.module.first().map(String::as_str).unwrap_or("")
}

/// `a.b.c` → `a.b`, `a`.
fn ancestors(unit: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut cur = unit;
    while let Some((parent, _)) = cur.rsplit_once('.') {
        out.push(parent);
        cur = parent;
    }
    out
}

/// The library unit declaration of a file of the given role.
fn unit_decl(index: &TreeIndex, unit_name: &str, wanted: &str) -> Option<Eid> {
    for &fi in index.package_files(unit_name) {
        let file = index.file(fi);
        if role(file) != wanted {
            continue;
        }
        let first = file.decls.iter().position(|d| d.parent.is_none())?;
        return Some(Eid {
            file: fi,
            decl: first as u32,
        });
    }
    None
}

/// The declaration that names a unit to callers: its spec, else its body (a
/// library subprogram without a spec).
fn unit_entity(index: &TreeIndex, unit_name: &str) -> Option<Eid> {
    unit_decl(index, unit_name, "spec").or_else(|| unit_decl(index, unit_name, "body"))
}

fn is_package(decl: &Decl) -> bool {
    decl.kind == DeclKind::Class
}

fn is_callable(decl: &Decl) -> bool {
    decl.kind == DeclKind::Function
}

/// The scopes around `scope`, innermost first.
fn scope_chain(file: &FileFacts, scope: ScopeIdx) -> Vec<ScopeIdx> {
    let mut out = Vec::new();
    let mut cur = Some(scope);
    while let Some(s) = cur {
        if out.len() > file.scopes.len() {
            break;
        }
        out.push(s);
        cur = file.scopes[s as usize].parent;
    }
    out
}

/// What a name is where it is written in a file's own regions.
enum Local {
    /// Subprograms the regions declare (all of them: overloads, outer ones).
    Callables(Vec<Eid>),
    /// A package (nested, renaming, instance) of the file.
    Package(Eid),
    /// An object, a parameter, a loop variable: a call through it is indexing,
    /// a conversion or an access value, never a subprogram of the tree.
    Object,
    Nothing,
}

fn local(index: &TreeIndex, fi: u32, scope: ScopeIdx, name: &str) -> Local {
    let file = index.file(fi);
    let mut callables = Vec::new();
    for s in scope_chain(file, scope) {
        let mut object = false;
        for b in file.scopes[s as usize].named(name) {
            match b.value {
                BindingValue::Decl(d) => {
                    let decl = &file.decls[d as usize];
                    let eid = Eid { file: fi, decl: d };
                    if is_package(decl) {
                        if callables.is_empty() {
                            return Local::Package(eid);
                        }
                    } else if is_callable(decl) {
                        callables.push(eid);
                    } else {
                        // A type: `T (X)` is a conversion.
                        object = true;
                    }
                }
                _ => object = true,
            }
        }
        if object && callables.is_empty() {
            return Local::Object;
        }
    }
    if callables.is_empty() {
        Local::Nothing
    } else {
        Local::Callables(callables)
    }
}

/// What a package name means.
#[derive(Debug, Clone)]
enum Pkg {
    /// A package declaration of the tree (a spec or a body's package).
    InTree(Eid),
    /// A unit the tree does not have (`Ada.Text_IO`): the joined name.
    Outside(String),
    /// An object or something the engine does not follow.
    Unknown,
}

/// A package declaration followed through renamings and instances to the package
/// whose declarations it shows.
fn follow(index: &TreeIndex, eid: Eid, hops: u32) -> Pkg {
    let decl = index.decl(eid);
    if hops > MAX_HOPS {
        return Pkg::Unknown;
    }
    if tagged(decl, "renames") || tagged(decl, "instance") {
        let Some(target) = decl.bases.first() else {
            return Pkg::Unknown;
        };
        let scope = decl.scope;
        let mut target_pkg = package_path(index, eid.file, scope, &target.path, false, hops + 1);
        if matches!(target_pkg, Pkg::Unknown) && hops <= 2 {
            // `package PUD is new Panels.User_Data (…)` where a `use` clause makes
            // `Panels` visible.
            target_pkg = package_path(index, eid.file, scope, &target.path, true, hops + 1);
        }
        return match target_pkg {
            Pkg::InTree(e) => follow(index, e, hops + 1),
            other => other,
        };
    }
    Pkg::InTree(eid)
}

/// Members named `name` of a package: what a call `P.name` may reach.
fn members(index: &TreeIndex, pkg: Eid, name: &str) -> Vec<Eid> {
    index
        .members(pkg, name)
        .iter()
        .copied()
        .filter(|&e| is_callable(index.decl(e)))
        .collect()
}

/// What the derived types of a package inherit: the packages of their parent
/// types (whose subprograms named like the call may be primitives the derived
/// type inherits, and GNAT names the parent's declaration), and whether some
/// parent is a type the engine cannot follow (outside the tree, or named by a
/// bare name), so that an inherited subprogram of any name may be visible.
/// A type derived in the private part (the full view of a private type)
/// inherits there, and what it inherits is invisible to a `viewer` unit that
/// cannot see that private part.
fn inherited(
    index: &TreeIndex,
    viewer: &str,
    pkg: Eid,
    name: &str,
    out: &mut Vec<Eid>,
    hops: u32,
) -> bool {
    if hops > MAX_HOPS {
        return true;
    }
    let decl = index.decl(pkg);
    let mut unknown = false;
    for field in &decl.fields {
        let Some(parent) = &field.ty else { continue };
        if derived_privately(index, pkg, field) && !sees_private_part(index, viewer, pkg) {
            continue;
        }
        if parent.path.len() < 2 {
            // `type D is new T`: T is declared here (its primitives are this
            // package's, searched already), in an enclosing unit or an ancestor
            // (`new Result_Listener` in a child of the unit declaring it), or is
            // use-visible: followed to the package that declares it when the
            // engine finds it for certain.
            if index
                .members(pkg, &parent.path[0])
                .iter()
                .any(|&t| index.decl(t).kind == DeclKind::Record)
            {
                continue;
            }
            match type_sight(index, pkg.file, field.scope, parent) {
                Sight::Tree(types) => {
                    for p in declaring_packages(index, &types) {
                        if p != pkg && !out.contains(&p) {
                            out.push(p);
                            unknown |= inherited(index, viewer, p, name, out, hops + 1);
                        }
                    }
                }
                Sight::Outside if policy::is_standard_scalar(&parent.path[0]) => {}
                _ => unknown = true,
            }
            continue;
        }
        let package = &parent.path[..parent.path.len() - 1];
        match package_path(index, pkg.file, field.scope, package, true, hops + 1) {
            Pkg::InTree(p) => {
                if p != pkg && !out.contains(&p) {
                    out.push(p);
                    unknown |= inherited(index, viewer, p, name, out, hops + 1);
                }
            }
            // A language-defined package whose types' primitives the language
            // lists (`Ada.Finalization`: RM 7.6): only calls so named may reach
            // them; any other package outside may give its types any.
            Pkg::Outside(p) => match policy::outside_primitives(&p) {
                Some(names) => unknown |= names.contains(&name),
                None => unknown = true,
            },
            Pkg::Unknown => unknown = true,
        }
    }
    unknown
}

/// Whether the derived type a package's `field` notes is declared in the
/// package's private part (the frontend's `private_view`).
fn derived_privately(index: &TreeIndex, pkg: Eid, field: &crate::facts::Field) -> bool {
    index.members(pkg, &field.name).iter().any(|&t| {
        let d = index.decl(t);
        d.kind == DeclKind::Record && d.line == field.line && tagged(d, "private_view")
    })
}

/// Whether code of the library unit `viewer` may see the private part of a
/// package of the tree: the package's own unit and its descendants may (read
/// widely: a public child's visible part may not, and keeping a candidate too
/// many only makes the engine abstain).
fn sees_private_part(index: &TreeIndex, viewer: &str, pkg: Eid) -> bool {
    let owner = unit(index.file(pkg.file));
    viewer == owner
        || viewer
            .strip_prefix(owner)
            .is_some_and(|rest| rest.starts_with('.'))
}

/// The packages whose declarative regions hold these type declarations (a
/// type's primitives are declared beside it).
fn declaring_packages(index: &TreeIndex, types: &[Eid]) -> Vec<Eid> {
    let mut out: Vec<Eid> = Vec::new();
    for &t in types {
        let Some(p) = index.decl(t).parent else {
            continue;
        };
        let p = Eid {
            file: t.file,
            decl: p,
        };
        if is_package(index.decl(p)) && !out.contains(&p) {
            out.push(p);
        }
    }
    out
}

fn nested_package(index: &TreeIndex, pkg: Eid, name: &str) -> Option<Eid> {
    index
        .members(pkg, name)
        .iter()
        .copied()
        .find(|&e| is_package(index.decl(e)))
}

/// The package spec declarations a file sees without `use`: its unit's spec (and
/// body for a subunit), then its ancestors' specs.
fn enclosing_units(index: &TreeIndex, fi: u32) -> Vec<(Eid, Family)> {
    let file = index.file(fi);
    let me = unit(file);
    let mut out = Vec::new();
    if matches!(role(file), "body" | "subunit") {
        if let Some(spec) = unit_decl(index, me, "spec") {
            out.push((spec, Family::Lexical));
        }
    }
    if role(file) == "subunit" {
        if let Some(body) = unit_decl(index, me, "body") {
            out.push((body, Family::Lexical));
        }
    }
    for a in ancestors(me) {
        if let Some(spec) = unit_decl(index, a, "spec") {
            out.push((spec, Family::Lexical));
        }
    }
    out
}

/// The files whose context clauses a file's code sees: itself, its unit's spec
/// for a body, and the parent body and spec for a subunit.
fn context_files(index: &TreeIndex, fi: u32) -> Vec<u32> {
    let file = index.file(fi);
    let mut out = vec![fi];
    let me = unit(file);
    if matches!(role(file), "body" | "subunit") {
        out.extend(unit_decl(index, me, "spec").map(|e| e.file));
    }
    if role(file) == "subunit" {
        out.extend(unit_decl(index, me, "body").map(|e| e.file));
    }
    out
}

/// Resolves a package path written in file `fi` at `scope`. `with_uses` also
/// searches the nested packages of the `use`d packages.
fn package_path(
    index: &TreeIndex,
    fi: u32,
    scope: ScopeIdx,
    path: &[String],
    with_uses: bool,
    hops: u32,
) -> Pkg {
    let Some((first, rest)) = path.split_first() else {
        return Pkg::Unknown;
    };
    if hops > MAX_HOPS {
        return Pkg::Unknown;
    }
    let mut cur = match first_segment(index, fi, scope, first, with_uses, hops) {
        Some(p) => p,
        None => return Pkg::Unknown,
    };
    for seg in rest {
        cur = match cur {
            Pkg::InTree(e) => match nested_package(index, e, seg) {
                Some(n) => follow(index, n, hops + 1),
                // A nested package has no child units.
                None if index.decl(e).parent.is_some() => return Pkg::Unknown,
                None => {
                    // A child unit: `Ahven.Framework` from `ahven`.
                    let child = format!("{}.{}", unit(index.file(e.file)), seg);
                    match unit_entity(index, &child) {
                        Some(u) if index.decl(u).parent.is_none() && is_package(index.decl(u)) => {
                            follow(index, u, hops + 1)
                        }
                        _ => return Pkg::Unknown,
                    }
                }
            },
            Pkg::Outside(mut s) => {
                s.push('.');
                s.push_str(seg);
                Pkg::Outside(s)
            }
            Pkg::Unknown => return Pkg::Unknown,
        };
    }
    cur
}

fn first_segment(
    index: &TreeIndex,
    fi: u32,
    scope: ScopeIdx,
    name: &str,
    with_uses: bool,
    hops: u32,
) -> Option<Pkg> {
    match local(index, fi, scope, name) {
        Local::Package(e) => return Some(follow(index, e, hops + 1)),
        Local::Object | Local::Callables(_) => return Some(Pkg::Unknown),
        Local::Nothing => {}
    }
    let file = index.file(fi);
    let me = unit(file).to_string();
    // The unit itself and its ancestors, by their last segment.
    let mut names: Vec<&str> = vec![me.as_str()];
    names.extend(ancestors(&me));
    for u in &names {
        if u.rsplit('.').next() == Some(name) {
            if let Some(e) = unit_entity(index, u) {
                if is_package(index.decl(e)) {
                    return Some(Pkg::InTree(e));
                }
            }
        }
    }
    // Packages declared in the unit's spec and its ancestors' specs.
    for (spec, _) in enclosing_units(index, fi) {
        if let Some(n) = nested_package(index, spec, name) {
            return Some(follow(index, n, hops + 1));
        }
    }
    // A root library unit the context `with`s (`with Text_IO;`) is directly
    // visible: in the tree, or outside it.
    if withed_root(index, fi, name) {
        return Some(match unit_entity(index, name) {
            Some(e) if is_package(index.decl(e)) => follow(index, e, hops + 1),
            Some(_) => Pkg::Unknown,
            None => Pkg::Outside(name.to_string()),
        });
    }
    if with_uses {
        for pkg in used_packages_within(index, fi, scope, hops + 1) {
            if let Pkg::InTree(p) = pkg {
                if let Some(n) = nested_package(index, p, name) {
                    return Some(follow(index, n, hops + 1));
                }
                // `use Ahven;` makes its (withed) child `Ahven.Framework`
                // nameable as `Framework`.
                if index.decl(p).parent.is_none() {
                    let child = format!("{}.{name}", unit(index.file(p.file)));
                    if !withed(index, fi, &child) {
                        continue;
                    }
                    if let Some(e) = unit_entity(index, &child) {
                        if is_package(index.decl(e)) {
                            return Some(follow(index, e, hops + 1));
                        }
                    }
                }
            }
        }
    }
    // Library units: children of the ancestors first (`XML_Runner` in an
    // `Ahven` child is `Ahven.XML_Runner`), then a root unit.
    for u in names.iter().skip(1).chain(std::iter::once(&me.as_str())) {
        let candidate = format!("{u}.{name}");
        if !withed(index, fi, &candidate) && !me.starts_with(&format!("{candidate}.")) {
            continue;
        }
        if let Some(e) = unit_entity(index, &candidate) {
            return is_package(index.decl(e)).then(|| follow(index, e, hops + 1));
        }
    }
    if let Some(e) = unit_entity(index, name) {
        return is_package(index.decl(e)).then(|| follow(index, e, hops + 1));
    }
    // A unit the file (or its spec) `with`s that the tree does not have.
    for cf in context_files(index, fi) {
        for import in &index.file(cf).imports {
            if let ImportKind::AdaWith { path } = &import.kind {
                if path.first().map(String::as_str) == Some(name) {
                    return Some(Pkg::Outside(name.to_string()));
                }
            }
        }
    }
    None
}

/// Whether the context of a file (its own, its spec's, its parent body's)
/// `with`s the unit of this full name (or a child of it, which `with`s it too).
fn withed(index: &TreeIndex, fi: u32, full: &str) -> bool {
    let segments: Vec<&str> = full.split('.').collect();
    context_files(index, fi).into_iter().any(|cf| {
        index.file(cf).imports.iter().any(|i| match &i.kind {
            ImportKind::AdaWith { path } => {
                path.len() >= segments.len() && path.iter().zip(&segments).all(|(a, b)| a == b)
            }
            _ => false,
        })
    })
}

/// Whether a `with` of the context names a unit whose first segment is `name`.
fn withed_root(index: &TreeIndex, fi: u32, name: &str) -> bool {
    withed(index, fi, name)
}

/// The packages the `use` clauses around a scope name (and the file's spec's and
/// parent body's file-level ones).
fn used_packages(index: &TreeIndex, fi: u32, scope: ScopeIdx) -> Vec<Pkg> {
    used_packages_within(index, fi, scope, 0)
}

/// [`used_packages`] `hops` resolutions deep: only the first level reads a used
/// package's name through the other `use` clauses, so the work stays the square
/// of a context's `use` clauses at most.
fn used_packages_within(index: &TreeIndex, fi: u32, scope: ScopeIdx, hops: u32) -> Vec<Pkg> {
    let file = index.file(fi);
    let chain = scope_chain(file, scope);
    let mut out = Vec::new();
    for cf in context_files(index, fi) {
        let cfile = index.file(cf);
        for import in &cfile.imports {
            let ImportKind::AdaUse {
                path,
                scope: at,
                all_type,
            } = &import.kind
            else {
                continue;
            };
            let applies = if cf == fi {
                chain.contains(at)
            } else {
                // The spec's context clause and its package's own region.
                *at == 0 || cfile.scopes[*at as usize].parent == Some(0)
            };
            if !applies {
                continue;
            }
            // `use all type P.T`: the package that declares T.
            let pkg_path = if *all_type {
                &path[..path.len().saturating_sub(1)]
            } else {
                &path[..]
            };
            if pkg_path.is_empty() {
                out.push(Pkg::Unknown);
                continue;
            }
            // `use Int_IO;` after `use Util;` that declares it: a package the
            // other `use` clauses make visible, one level deep.
            out.push(package_path(index, cf, *at, pkg_path, hops == 0, hops + 1));
        }
    }
    out
}

/// The first declaration of an entity: a body's spec declaration, a subunit's
/// stub (then the stub's spec), when the tree has them with the same profile.
fn canonical(index: &TreeIndex, eid: Eid) -> Eid {
    let decl = index.decl(eid);
    let file = index.file(eid.file);
    let mut cur = eid;
    if decl.parent.is_none() && tagged(decl, "subunit") {
        if let Some(body) = unit_decl(index, unit(file), "body") {
            if let Some(stub) = index
                .members(body, &decl.name)
                .iter()
                .copied()
                .find(|&s| tagged(index.decl(s), "stub") && same_profile(index.decl(s), decl))
            {
                cur = stub;
            }
        }
    }
    spec_of(index, cur).unwrap_or(cur)
}

/// The declaration in the unit's spec of a subprogram of its body's package
/// (nested packages followed by name).
fn spec_of(index: &TreeIndex, eid: Eid) -> Option<Eid> {
    let file = index.file(eid.file);
    if role(file) != "body" {
        return None;
    }
    let decl = index.decl(eid);
    let mut chain = Vec::new();
    let mut p = decl.parent?;
    loop {
        let pd = &file.decls[p as usize];
        if !is_package(pd) {
            return None;
        }
        match pd.parent {
            Some(pp) => {
                chain.push(pd.name.as_str());
                p = pp;
            }
            None => break,
        }
    }
    let mut cur = unit_decl(index, unit(file), "spec")?;
    for name in chain.iter().rev() {
        cur = nested_package(index, cur, name)?;
    }
    index
        .members(cur, &decl.name)
        .iter()
        .copied()
        .find(|&s| same_profile(index.decl(s), decl))
}

/// Two declarations of one subprogram: the same parameter names and types (by
/// their last segment) and result.
fn same_profile(a: &Decl, b: &Decl) -> bool {
    let last =
        |t: &Option<crate::facts::TypeRef>| t.as_ref().and_then(|t| t.last().map(str::to_string));
    a.name == b.name
        && a.params.len() == b.params.len()
        && a.params
            .iter()
            .zip(&b.params)
            .all(|(x, y)| x.name == y.name && last(&x.ty) == last(&y.ty))
        && last(&a.returns) == last(&b.returns)
}

/// Whether the call's positional and named arguments fit a declaration. An
/// instance's profile is its generic's, not read: it fits.
fn fits(decl: &Decl, call: &Call) -> bool {
    if tagged(decl, "instance") {
        return true;
    }
    let n = call.args.len();
    if n > decl.params.len() {
        return false;
    }
    let mut covered = vec![false; decl.params.len()];
    for c in covered.iter_mut().take(n) {
        *c = true;
    }
    for (name, _) in &call.keywords {
        match decl.params.iter().position(|p| &p.name == name) {
            Some(i) if !covered[i] => covered[i] = true,
            _ => return false,
        }
    }
    decl.params
        .iter()
        .zip(&covered)
        .all(|(p, c)| *c || p.has_default)
}

/// The answer for a set of candidates: one entity placed and named, several a
/// may-reach set (every one of them visible and fitting), none an abstention.
fn decide(cx: &Cx, caller: u32, call: &Call, candidates: Vec<Eid>, family: Family) -> Decision {
    let index = cx.index;
    let mut canon: Vec<Eid> = candidates
        .into_iter()
        .map(|e| canonical(index, e))
        .collect();
    canon.sort();
    canon.dedup();
    let fitting: Vec<Eid> = canon
        .iter()
        .copied()
        .filter(|&e| fits(index.decl(e), call))
        .collect();
    // A declaration and its completion in one region (`procedure P;` then its
    // body) are one entity, named by the first.
    let mut entities: Vec<Eid> = Vec::new();
    for e in fitting {
        let decl = index.decl(e);
        let twin = entities.iter().position(|&k| {
            let kd = index.decl(k);
            k.file == e.file && kd.scope == decl.scope && same_profile(kd, decl)
        });
        match twin {
            Some(i) if index.decl(entities[i]).line > decl.line => entities[i] = e,
            Some(_) => {}
            None => entities.push(e),
        }
    }
    if entities.len() > 1 {
        // Overloads a literal argument tells apart (`Add (Ch => ' ')` with `Ch :
        // Character` against `Ch : Attributed_Character`, a record).
        entities.retain(|&e| !literal_cannot_pass(index, e, call));
    }
    if entities.len() > 1 {
        // Overloads an argument's written type tells apart (`Test_Count (Suite)`
        // with `Suite : Test_Suite` against `T : Test_Case`).
        entities.retain(|&e| !object_cannot_pass(index, caller, e, call));
    }
    if entities.len() > 1 {
        // Overloads the call's place tells apart (`c := Getchar;` against the
        // procedure `Getchar;`, `S : Test_Suite := Create_Suite ("All")`).
        entities.retain(|&e| !context_refuses(index, caller, e, call));
    }
    if entities.len() > 1 {
        // Overloads an `X'Access` argument tells apart (`Add_Test_Routine (T,
        // Test_Assert'Access, …)` against an access type of another profile).
        entities.retain(|&e| !access_cannot_pass(index, caller, e, call));
    }
    if entities.len() > 1 {
        // Overloads an argument that is a call or a conversion tells apart
        // (`Add (Ch => ACS_Map (C))` with `ACS_Map` returning
        // `Attributed_Character`, `Run (Test'Class (T))`).
        entities.retain(|&e| !nested_cannot_pass(cx, caller, e, call));
    }
    if entities.len() > 1 {
        // An inherited subprogram the argument's own type overrides (`Draw (C)`
        // with `C : Circle` names `Draw (C : Circle)`, not `Draw (S : Shape)`).
        let all = entities.clone();
        entities.retain(|&e| !all.iter().any(|&o| overrides(index, caller, call, o, e)));
    }
    match entities.as_slice() {
        [] => Decision::Refuse(Reason::Ambiguous),
        [one] => {
            let mut placement = Placement::in_tree(vec![*one], family);
            placement.name_declaration(*one);
            Decision::Place(placement)
        }
        _ => match MayReach::new(entities, family) {
            Some(m) => Decision::MayReach(m),
            None => Decision::Refuse(Reason::Ambiguous),
        },
    }
}

/// Each argument of the call with the parameter it is passed to: positional
/// ones in order, named ones (`X => 1`) by name.
fn passed<'a>(decl: &'a Decl, call: &'a Call) -> impl Iterator<Item = (&'a ArgShape, &'a Param)> {
    let positional = call.args.iter().zip(&decl.params);
    let named = call
        .keywords
        .iter()
        .filter_map(|(name, arg)| Some((arg, decl.params.iter().find(|p| &p.name == name)?)));
    positional.chain(named)
}

/// Whether some literal argument of the call can never be a value of the
/// parameter it is passed to (by position or by name): only what the RM makes
/// certain counts (a string literal is no record, access, scalar or Character
/// value); a type the engine cannot class keeps the candidate.
fn literal_cannot_pass(index: &TreeIndex, callee: Eid, call: &Call) -> bool {
    let decl = index.decl(callee);
    passed(decl, call).any(|(arg, param)| match (arg, &param.ty) {
        (ArgShape::Literal(literal), Some(ty)) => type_refuses(index, callee, ty, *literal),
        _ => false,
    })
}

/// Whether some argument that is an object or parameter of the caller (`Suite`)
/// has a written type that is never the type of the parameter it is passed to.
/// Ada has no implicit conversion between named types (RM 8.6): an object of
/// type `A` passes to a parameter of type `P` only when `A` is `P`, a subtype
/// of it, or a type derived from it (which inherits the subprogram, RM 3.4,
/// and GNAT names the parent's declaration). So the candidate is dropped only
/// when the two names differ, one of them is certainly a full type of the tree
/// (no subtype, no formal of a generic the callee sits in), the other a full
/// type of the tree or certainly a type outside it (`Standard`'s, a unit's
/// outside the tree), and `A`'s derivation chain certainly never reaches `P`;
/// a class-wide parameter `T'Class` is read as `T` (it takes `T` and what
/// derives from it); anonymous-access or unresolved types keep the candidate.
fn object_cannot_pass(index: &TreeIndex, caller: u32, callee: Eid, call: &Call) -> bool {
    let decl = index.decl(callee);
    if in_generic(index, callee) {
        return false;
    }
    passed(decl, call).any(|(arg, param)| {
        let (Some(param_ty), Some((file, scope, arg_ty))) =
            (&param.ty, written_type(index, caller, call.scope, arg))
        else {
            return false;
        };
        never_derives(
            index,
            (file, scope, &arg_ty),
            (callee.file, decl.scope, param_ty),
        )
    })
}

/// The written type of an argument that is an object (`X`) or a record
/// component (`X.C`), with the file and scope it is written in.
fn written_type(
    index: &TreeIndex,
    fi: u32,
    scope: ScopeIdx,
    arg: &ArgShape,
) -> Option<(u32, ScopeIdx, TypeRef)> {
    match arg {
        ArgShape::Name(object) => object_type(index, fi, scope, object),
        ArgShape::Path(path) => component_type(index, fi, scope, path),
        _ => None,
    }
}

/// The written type of `X.C` when `X` is an object whose written type is a
/// record type of the tree declaring a component `C` (every declaration of the
/// type that has components agrees), with the file and scope the component's
/// type is written in. None for a package's object (`X` no object), a private
/// view, or a component the engine does not find.
fn component_type(
    index: &TreeIndex,
    fi: u32,
    scope: ScopeIdx,
    path: &[String],
) -> Option<(u32, ScopeIdx, TypeRef)> {
    let [object, component] = path else {
        return None;
    };
    let (file, at, ty) = object_type(index, fi, scope, object)?;
    let Sight::Tree(types) = type_sight(index, file, at, &ty) else {
        return None;
    };
    let mut found: Option<(u32, ScopeIdx, TypeRef)> = None;
    for t in types {
        let decl = index.decl(t);
        if decl.fields.is_empty() {
            continue;
        }
        let field = decl.fields.iter().find(|f| &f.name == component)?;
        let written = (t.file, field.scope, field.ty.clone()?);
        match &found {
            Some(prev) if prev.2.path != written.2.path => return None,
            Some(_) => {}
            None => found = Some(written),
        }
    }
    found
}

/// The innermost generic unit that encloses a declaration.
fn enclosing_generic(index: &TreeIndex, eid: Eid) -> Option<Eid> {
    let file = index.file(eid.file);
    let mut cur = Some(eid.decl);
    for _ in 0..=file.decls.len() {
        let d = cur?;
        if tagged(&file.decls[d as usize], "generic") {
            return Some(Eid {
                file: eid.file,
                decl: d,
            });
        }
        cur = file.decls[d as usize].parent;
    }
    None
}

/// Whether a parameter type written in a subprogram of generic `g` is certainly a
/// type `g` itself declares (`Cursor` of a generic list): such a type is no
/// formal (a formal and a declaration of one region cannot share a name) and no
/// type of an enclosing unit the formal would hide, so it is read as any type of
/// the tree. A formal type (declared nowhere the engine reads) is not.
fn declared_by_generic(index: &TreeIndex, callee: Eid, g: Eid, param_ty: &TypeRef) -> bool {
    match type_sight(index, callee.file, index.decl(callee).scope, param_ty) {
        Sight::Tree(types) => types
            .iter()
            .all(|&t| enclosing_generic(index, t) == Some(g)),
        _ => false,
    }
}

/// A type name as written: the file and scope it is written in, and the name.
type Written<'a> = (u32, ScopeIdx, &'a TypeRef);

/// Whether the type written `a` is certainly neither the type written `p` nor
/// derived from it: the names differ, `a` is a full type of the tree (then `p`
/// is one of the tree's or certainly outside) or certainly outside (then `p` is
/// one of the tree's), and `a`'s derivation chain certainly ends without
/// reaching `p`.
fn never_derives(index: &TreeIndex, a: Written, p: Written) -> bool {
    let (Some(a_name), Some(p_name)) = (a.2.last(), p.2.last()) else {
        return false;
    };
    if a_name == p_name {
        return false;
    }
    let a_sight = type_sight(index, a.0, a.1, a.2);
    let p_sight = type_sight(index, p.0, p.1, p.2);
    match (a_sight, p_sight) {
        (Sight::Tree(types), Sight::Tree(_)) => {
            derives_from(index, &types, p_name, true, 0) == Some(false)
        }
        (Sight::Tree(types), Sight::Outside) => {
            derives_from(index, &types, p_name, false, 0) == Some(false)
        }
        // A type outside the tree derives from none of the tree's.
        (Sight::Outside, Sight::Tree(_)) => true,
        (Sight::Outside, Sight::Outside) => {
            match (outside_type(index, a), outside_type(index, p)) {
                (Some(a), Some(p)) => a != p,
                _ => false,
            }
        }
        _ => false,
    }
}

/// The distinct language-defined type ([`policy::OUTSIDE_TYPES`]) a type name
/// written outside the tree denotes, as (package, type), when certain: a prefix
/// names the package (through renamings and instances of the tree: `AStrings.
/// Bounded_String` of `package AStrings is new Generic_Bounded_Length`); a bare
/// name is `Standard`'s or the one listed `use`d package's that declares it,
/// when every package a `use` clause names there is listed (an unlisted one may
/// declare a type so named) and exactly one of them or `Standard` has it.
fn outside_type(index: &TreeIndex, ty: Written) -> Option<(String, &'static str)> {
    let (fi, scope, ty) = ty;
    let (name, prefix) = ty.path.split_last()?;
    if !prefix.is_empty() {
        let Pkg::Outside(unit) = package_path(index, fi, scope, prefix, true, 0) else {
            return None;
        };
        let found = policy::outside_type(&unit, name)??;
        return Some((unit, found));
    }
    let mut found = policy::outside_type("standard", name)
        .flatten()
        .map(|t| ("standard".to_string(), t));
    for pkg in used_packages(index, fi, scope) {
        let Pkg::Outside(unit) = pkg else {
            // An in-tree package declares no type so named (the name is
            // outside), but an unfollowed one might.
            if matches!(pkg, Pkg::Unknown) {
                return None;
            }
            continue;
        };
        if let Some(t) = policy::outside_type(&unit, name)? {
            if found.is_some() {
                return None;
            }
            found = Some((unit, t));
        }
    }
    found
}

/// Whether the call's place rules the candidate out (RM 6.4, 8.6): a call
/// statement names a procedure, a call in an expression a function; a function
/// whose value initialises or is assigned to an object of a certain type must
/// return that type, one it derives from (an inherited function returns the
/// derived type, and GNAT names the parent's declaration) or one derived from it
/// (a class-wide object takes it).
fn context_refuses(index: &TreeIndex, caller: u32, callee: Eid, call: &Call) -> bool {
    let decl = index.decl(callee);
    let expected = match &call.context {
        CallContext::Unread => return false,
        CallContext::Statement => return tagged(decl, "function"),
        CallContext::Value => return tagged(decl, "procedure"),
        CallContext::Initializes(ty) => Some((caller, call.scope, ty.clone())),
        CallContext::AssignedTo(object) => object_type(index, caller, call.scope, object),
    };
    if tagged(decl, "procedure") {
        return true;
    }
    let (Some((file, scope, expected)), Some(result)) = (expected, decl.returns.as_ref()) else {
        return false;
    };
    if in_generic(index, callee) {
        return false;
    }
    let here = (file, scope, &expected);
    let there = (callee.file, decl.scope, result);
    never_derives(index, here, there) && never_derives(index, there, here)
}

/// Whether `over` overrides `inherited` for this call (RM 8.3(9-13)): some
/// positional argument is an object whose written type is one full type `A` of
/// the tree, `over`'s parameter there is of type `A`, `inherited`'s of another
/// type that `A` derives from (in a generic, a type the generic declares), and
/// the two profiles are otherwise the same (names and written types of every
/// other parameter, and the result, the parent type read as `A` in the
/// inherited profile). The
/// inherited subprogram of `A` is then hidden by `over`, so a value of type `A`
/// reaches `over` only.
fn overrides(index: &TreeIndex, caller: u32, call: &Call, over: Eid, inherited: Eid) -> bool {
    if over == inherited || in_generic(index, over) {
        return false;
    }
    let generic = enclosing_generic(index, inherited);
    let (o, i) = (index.decl(over), index.decl(inherited));
    if o.params.len() != i.params.len() {
        return false;
    }
    call.args.iter().enumerate().any(|(n, arg)| {
        let ArgShape::Name(object) = arg else {
            return false;
        };
        let Some((file, scope, ty)) = object_type(index, caller, call.scope, object) else {
            return false;
        };
        let Sight::Tree(own) = type_sight(index, file, scope, &ty) else {
            return false;
        };
        let (Some(op), Some(ip)) = (o.params.get(n), i.params.get(n)) else {
            return false;
        };
        let (Some(o_ty), Some(i_ty)) = (&op.ty, &ip.ty) else {
            return false;
        };
        // RM 3.4(18-19): the inherited profile names the derived type wherever the
        // parent's names the parent type (`Next (Position : Cursor) return Cursor`
        // inherited by `type C is new L.Cursor` is `Next (Position : C) return C`).
        let (parent, derived) = (i_ty.last(), ty.last());
        let substituted = |a: Option<&TypeRef>, b: Option<&TypeRef>| {
            let (a, b) = (a.and_then(|t| t.last()), b.and_then(|t| t.last()));
            a == b || (b.is_some() && b == parent && a == derived)
        };
        let others_same = o
            .params
            .iter()
            .zip(&i.params)
            .enumerate()
            .all(|(k, (a, b))| {
                k == n || (a.name == b.name && substituted(a.ty.as_ref(), b.ty.as_ref()))
            })
            && substituted(o.returns.as_ref(), i.returns.as_ref());
        let is_own = match type_sight(index, over.file, o.scope, o_ty) {
            Sight::Tree(types) => types.iter().any(|t| own.contains(t)),
            _ => false,
        };
        // A parent's operation in a generic (a cursor type derived from a generic
        // list's `Cursor`) is read when its parameter type is one the generic
        // declares.
        if generic.is_some_and(|g| !declared_by_generic(index, inherited, g, i_ty)) {
            return false;
        }
        let parent_name = i_ty.last();
        let from_parent = parent_name.is_some_and(|p| {
            Some(p) != ty.last() && derives_from(index, &own, p, true, 0) == Some(true)
        });
        others_same && is_own && from_parent
    })
}

/// How deep arguments that are calls are read for their result types (`F (G (H
/// (X)))`): each level resolves the inner call again.
const MAX_NESTED: u32 = 3;

thread_local! {
    /// How many argument calls are being read for their result type on this thread.
    static NESTED: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// Whether some argument that is a call (`ACS_Map (C)`) or a conversion
/// (`T'Class (X)`, `Cell (X)`) has a type that is certainly never the type of
/// the parameter it is passed to, by the rule of [`object_cannot_pass`]: a call's
/// type is the written result type of every function it may reach (all of them
/// must refuse), a conversion's the type it names.
fn nested_cannot_pass(cx: &Cx, caller: u32, callee: Eid, call: &Call) -> bool {
    let index = cx.index;
    let decl = index.decl(callee);
    if in_generic(index, callee) {
        return false;
    }
    passed(decl, call).any(|(arg, param)| {
        let Some(param_ty) = &param.ty else {
            return false;
        };
        let there = (callee.file, decl.scope, param_ty);
        match arg {
            ArgShape::Cast(ty) => never_derives(index, (caller, call.scope, ty), there),
            ArgShape::Call(inner) => match argument_types(cx, caller, *inner) {
                Some(types) => {
                    !types.is_empty() && types.iter().all(|t| never_passes(index, t, there))
                }
                None => false,
            },
            _ => false,
        }
    })
}

/// The type of an argument that is a call.
enum ArgType {
    /// A type name as written (a tree function's result, a conversion's type).
    Written(u32, ScopeIdx, TypeRef),
    /// A language-defined type ([`policy::OUTSIDE_TYPES`]) as (package, type):
    /// what a listed language-defined function returns.
    Language(&'static str, &'static str),
}

/// Whether a value of an argument's type is certainly never one of the
/// parameter type `there`: [`never_derives`] for a written type; a
/// language-defined type is no type of the tree, and differs from another
/// language-defined type.
fn never_passes(index: &TreeIndex, arg: &ArgType, there: Written) -> bool {
    match arg {
        ArgType::Written(f, s, t) => never_derives(index, (*f, *s, t), there),
        ArgType::Language(package, ty) => match type_sight(index, there.0, there.1, there.2) {
            Sight::Tree(_) => true,
            Sight::Outside => {
                outside_type(index, there).is_some_and(|(p, t)| p != *package || t != *ty)
            }
            Sight::Unknown => false,
        },
    }
}

/// The types an argument that is a call may have: the result types of the
/// functions the call may reach (with the file and scope each is written in),
/// the type a listed language-defined function returns, or the type a
/// conversion names (a call that reaches nothing, written with one positional
/// argument, whose name is a full type of the tree or a scalar type of
/// `Standard`); None when the engine cannot say (an unlisted outside or a
/// refused callee, a procedure, too deep).
fn argument_types(cx: &Cx, fi: u32, inner: CallIdx) -> Option<Vec<ArgType>> {
    let index = cx.index;
    let call = index.file(fi).calls.get(inner as usize)?;
    let depth = NESTED.with(|n| n.get());
    if depth >= MAX_NESTED {
        return None;
    }
    NESTED.with(|n| n.set(depth + 1));
    let decision = match &call.callee {
        Callee::Name(_) => bare_name(cx, fi, call),
        Callee::Member { .. } => qualified_name(cx, fi, call),
        _ => Decision::Pass,
    };
    NESTED.with(|n| n.set(depth));
    let reached: Vec<Eid> = match &decision {
        Decision::Place(placement) => match placement.target() {
            Target::Outside { symbol, .. } => {
                let (package, ty) = policy::outside_result(symbol)?;
                return Some(vec![ArgType::Language(package, ty)]);
            }
            Target::InTree(_) => vec![placement.single()?],
        },
        Decision::MayReach(m) => m.targets().to_vec(),
        _ => {
            return conversion_type(index, fi, call)
                .map(|(f, s, t)| vec![ArgType::Written(f, s, t)])
        }
    };
    reached
        .into_iter()
        .map(|e| {
            let decl = index.decl(e);
            let result = decl.returns.as_ref().filter(|_| tagged(decl, "function"))?;
            Some(ArgType::Written(e.file, decl.scope, result.clone()))
        })
        .collect()
}

/// The type a call written as a conversion names (`Cell (X)`, `Screen.Cell
/// (X)`, `Integer (X)`): one positional argument and a name that is a full type
/// of the tree where it is written, or a scalar type of `Standard` nothing hides.
fn conversion_type(index: &TreeIndex, fi: u32, call: &Call) -> Option<(u32, ScopeIdx, TypeRef)> {
    if call.args.len() != 1 || !call.keywords.is_empty() {
        return None;
    }
    let path = match &call.callee {
        Callee::Name(name) => vec![name.clone()],
        Callee::Member {
            receiver: Receiver::Path(path),
            name,
        } => path.iter().cloned().chain([name.clone()]).collect(),
        _ => return None,
    };
    let standard = matches!(path.as_slice(), [name] if policy::is_standard_scalar(name));
    let ty = TypeRef {
        path,
        args: Vec::new(),
        is_self: false,
        array: false,
    };
    match type_sight(index, fi, call.scope, &ty) {
        Sight::Tree(_) => Some((fi, call.scope, ty)),
        // `Integer (X)` where nothing of the tree hides `Standard.Integer`.
        Sight::Outside if standard => Some((fi, call.scope, ty)),
        _ => None,
    }
}

/// Whether some `X'Access` argument, X a subprogram, can never be a value of
/// the parameter's type: an access-to-subprogram type's designated profile must
/// conform (RM 3.10.2(32): as many parameters, a function for a function), and
/// no other type's value is a subprogram's access. Only certain readings count:
/// the parameter's type a full type of the tree outside any generic, and X a
/// name every visible declaration of which the engine sees (in the writer's
/// regions or its unit's and ancestors' specs) with none of another kind.
fn access_cannot_pass(index: &TreeIndex, caller: u32, callee: Eid, call: &Call) -> bool {
    let decl = index.decl(callee);
    if in_generic(index, callee) {
        return false;
    }
    passed(decl, call).any(|(arg, param)| match (arg, &param.ty) {
        (ArgShape::Access(path), Some(param_ty)) => {
            let [name] = path.as_slice() else {
                return false;
            };
            let Some(designated) = visible_subprograms(index, caller, call.scope, name) else {
                return false;
            };
            let Sight::Tree(types) = type_sight(index, callee.file, decl.scope, param_ty) else {
                return false;
            };
            types.iter().all(|&t| {
                let ty = index.decl(t);
                if tagged(ty, "type_class:access_subprogram") {
                    !designated.iter().any(|&s| conforms(index.decl(s), ty))
                } else {
                    // A record, an access-to-object type, a scalar: never a
                    // subprogram's access. A private view has no class: kept.
                    ty.decorators
                        .iter()
                        .any(|d| d.path.len() == 1 && d.path[0].starts_with("type_class:"))
                }
            })
        }
        _ => false,
    })
}

/// Whether a subprogram's profile has the shape of an access-to-subprogram
/// type's: as many parameters, and a result exactly when the type has one.
fn conforms(subprogram: &Decl, access: &Decl) -> bool {
    subprogram.params.len() == access.params.len()
        && subprogram.returns.is_some() == access.returns.is_some()
}

/// The subprograms a bare name denotes where it is written, when the engine is
/// certain it sees them all: declared in the writer's regions or its unit's and
/// ancestors' specs, none hidden behind an object, and no `use` clause in the
/// file that could add another (a used package's declarations overload them).
fn visible_subprograms(
    index: &TreeIndex,
    fi: u32,
    scope: ScopeIdx,
    name: &str,
) -> Option<Vec<Eid>> {
    let mut found = match local(index, fi, scope, name) {
        Local::Callables(c) => c,
        Local::Nothing => Vec::new(),
        Local::Object | Local::Package(_) => return None,
    };
    for (spec, _) in enclosing_units(index, fi) {
        found.extend(members(index, spec, name));
    }
    // A library subprogram the file's context `with`s (`with Run;`) is visible too.
    if !withed_named(index, fi, name).is_empty() {
        return None;
    }
    let used = used_packages(index, fi, scope);
    let used_may_add = used.iter().any(|p| match p {
        Pkg::InTree(p) => !members(index, *p, name).is_empty(),
        Pkg::Outside(s) => policy::outside_may_declare(s, name),
        Pkg::Unknown => true,
    });
    (!found.is_empty() && !used_may_add).then_some(found)
}

/// What a written type name denotes, as far as the engine can be certain.
enum Sight {
    /// Full type declarations of the tree (never a subtype).
    Tree(Vec<Eid>),
    /// A type outside the tree: `Standard`'s (not hidden), or a unit's the tree
    /// does not have.
    Outside,
    Unknown,
}

/// Whether one of these type declarations is derived, directly or through
/// parents, from a type named `target`: `Some(false)` only when every chain
/// certainly ends — at a root type, at `Standard`'s, or (when the target is a
/// type of the tree, `target_in_tree`) at any parent outside the tree, which
/// derives from nothing of the tree; `None` when a link is not read (an
/// interface list, a parent the engine cannot resolve, a subtype).
fn derives_from(
    index: &TreeIndex,
    types: &[Eid],
    target: &str,
    target_in_tree: bool,
    hops: u32,
) -> Option<bool> {
    if hops > MAX_HOPS {
        return None;
    }
    let mut answer = Some(false);
    for &t in types {
        let decl = index.decl(t);
        if !tagged(decl, "derived") {
            continue;
        }
        if tagged(decl, "progenitors") {
            return None;
        }
        let parent = decl
            .parent
            .map(|p| {
                index.decl(Eid {
                    file: t.file,
                    decl: p,
                })
            })
            .filter(|p| p.kind == DeclKind::Class)
            .and_then(|p| p.fields.iter().find(|f| f.name == decl.name))
            .and_then(|f| f.ty.clone())?;
        let parent_name = parent.last()?;
        if parent_name == target {
            return Some(true);
        }
        match type_sight(index, t.file, decl.scope, &parent) {
            Sight::Tree(parents) => {
                match derives_from(index, &parents, target, target_in_tree, hops + 1) {
                    Some(true) => return Some(true),
                    Some(false) => {}
                    None => answer = None,
                }
            }
            Sight::Outside if target_in_tree => {}
            // `Standard`'s types derive from nothing.
            Sight::Outside if parent.path.len() == 1 && policy::is_standard_scalar(parent_name) => {
            }
            _ => answer = None,
        }
    }
    answer
}

/// Whether a declaration is, or sits inside, a generic unit: its parameter
/// types may be formal types, which every actual type matches.
fn in_generic(index: &TreeIndex, eid: Eid) -> bool {
    let file = index.file(eid.file);
    let mut cur = Some(eid.decl);
    let mut guard = 0;
    while let Some(d) = cur {
        let decl = &file.decls[d as usize];
        if tagged(decl, "generic") {
            return true;
        }
        cur = decl.parent;
        guard += 1;
        if guard > file.decls.len() {
            return true;
        }
    }
    false
}

/// The written type of the object or parameter a name denotes where it is
/// written, with the file and scope the type is written in: the innermost
/// binding of the writer's regions; else an object a package spec declares that
/// is visible there for certain — the unit's or an ancestor's spec (directly
/// visible), or the one in-tree `use`d package that declares the name when no
/// `use`d package outside the tree could declare one too (a language-defined
/// package whose objects the policy lists cannot). None when that is no
/// typed object.
fn object_type(
    index: &TreeIndex,
    fi: u32,
    scope: ScopeIdx,
    name: &str,
) -> Option<(u32, ScopeIdx, TypeRef)> {
    let file = index.file(fi);
    for s in scope_chain(file, scope) {
        if file.scopes[s as usize].named(name).next().is_some() {
            return typed_binding(index, fi, s, name);
        }
    }
    for (spec, _) in enclosing_units(index, fi) {
        if let Some(found) = package_object(index, spec, name) {
            return found;
        }
    }
    let mut found = None;
    for pkg in used_packages(index, fi, scope) {
        let pkg = match pkg {
            Pkg::InTree(pkg) => pkg,
            // A language-defined package that declares no object so named.
            Pkg::Outside(unit) if !policy::outside_may_declare_object(&unit, name) => continue,
            _ => return None,
        };
        if let Some(typed) = package_object(index, pkg, name) {
            if found.is_some() {
                return None;
            }
            found = Some(typed);
        }
    }
    found.flatten()
}

/// What a package's own region binds to a name: `None` when it binds nothing,
/// `Some(typed)` when it does (the object's written type, when it is one typed
/// object).
#[allow(clippy::option_option)]
fn package_object(
    index: &TreeIndex,
    pkg: Eid,
    name: &str,
) -> Option<Option<(u32, ScopeIdx, TypeRef)>> {
    let scope = index.decl(pkg).body?;
    index.file(pkg.file).scopes[scope as usize]
        .named(name)
        .next()
        .map(|_| typed_binding(index, pkg.file, scope, name))
}

/// The written type of the one typed object or parameter a scope binds to a
/// name.
fn typed_binding(
    index: &TreeIndex,
    fi: u32,
    scope: ScopeIdx,
    name: &str,
) -> Option<(u32, ScopeIdx, TypeRef)> {
    let mut bindings = index.file(fi).scopes[scope as usize].named(name);
    let first = bindings.next()?;
    if bindings.next().is_some() {
        return None;
    }
    let ty = match &first.value {
        BindingValue::Typed { ty, .. } => Some(ty.clone()),
        BindingValue::Param { ty, .. } => ty.clone(),
        _ => None,
    }?;
    Some((fi, scope, ty))
}

/// What a type name written in file `fi` at `scope` denotes: full type
/// declarations of the tree found in the file's own regions, its unit's and
/// ancestors' specs, the package a prefix names, or the in-tree packages its
/// `use` clauses name (a subtype among them: unknown); `Standard`'s type when
/// nothing encloses a declaration so named (`Standard` hides what a `use`
/// shows); outside when a prefix names a unit outside the tree, or when no Ada
/// type of the tree is so named and no generic encloses the scope (a formal
/// type is declared nowhere the engine reads).
fn type_sight(index: &TreeIndex, fi: u32, scope: ScopeIdx, ty: &TypeRef) -> Sight {
    let Some((name, prefix)) = ty.path.split_last() else {
        return Sight::Unknown;
    };
    let types = |pkg: Eid| -> Vec<Eid> {
        index
            .members(pkg, name)
            .iter()
            .copied()
            .filter(|&m| index.decl(m).kind == DeclKind::Record)
            .collect()
    };
    let full = |found: Vec<Eid>| -> Sight {
        if !found.is_empty() && found.iter().all(|&t| !tagged(index.decl(t), "subtype")) {
            Sight::Tree(found)
        } else {
            Sight::Unknown
        }
    };
    if !prefix.is_empty() {
        return match package_path(index, fi, scope, prefix, true, 0) {
            Pkg::InTree(p) => full(types(p)),
            Pkg::Outside(_) => Sight::Outside,
            Pkg::Unknown => Sight::Unknown,
        };
    }
    let file = index.file(fi);
    for s in scope_chain(file, scope) {
        let mut found = Vec::new();
        for b in file.scopes[s as usize].named(name) {
            match b.value {
                BindingValue::Decl(d) if file.decls[d as usize].kind == DeclKind::Record => {
                    found.push(Eid { file: fi, decl: d })
                }
                _ => return Sight::Unknown,
            }
        }
        if !found.is_empty() {
            return full(found);
        }
    }
    for (spec, _) in enclosing_units(index, fi) {
        let found = types(spec);
        if !found.is_empty() {
            return full(found);
        }
    }
    if policy::is_standard_scalar(name) {
        return Sight::Outside;
    }
    let found: Vec<Eid> = used_packages(index, fi, scope)
        .into_iter()
        .filter_map(|p| match p {
            Pkg::InTree(p) => Some(types(p)),
            _ => None,
        })
        .flatten()
        .collect();
    if !found.is_empty() {
        return full(found);
    }
    let tree_has_type = index.by_name(name).iter().any(|&e| {
        index.file(e.file).language == crate::lang::Language::Ada
            && index.decl(e).kind == DeclKind::Record
    });
    if tree_has_type || scope_in_generic(index, fi, scope) {
        Sight::Unknown
    } else {
        Sight::Outside
    }
}

/// Whether a generic unit encloses a scope: a region of the file is a generic
/// declaration, or the body of one (its declaration, in the same region, is so
/// tagged), or the file's unit is a generic's body.
fn scope_in_generic(index: &TreeIndex, fi: u32, scope: ScopeIdx) -> bool {
    let file = index.file(fi);
    let generic_named = |s: ScopeIdx, name: &str| {
        file.scopes[s as usize].named(name).any(
            |b| matches!(b.value, BindingValue::Decl(d) if tagged(&file.decls[d as usize], "generic")),
        )
    };
    for s in scope_chain(file, scope) {
        let Some(owner) = file.scopes[s as usize].owner else {
            continue;
        };
        let decl = &file.decls[owner as usize];
        if tagged(decl, "generic") || generic_named(decl.scope, &decl.name) {
            return true;
        }
    }
    enclosing_units(index, fi)
        .iter()
        .any(|(spec, _)| tagged(index.decl(*spec), "generic"))
}

/// Whether a literal of this kind is never a value of the parameter type `ty`
/// written in `callee`'s declaration. The type is read where the name means it
/// for certain: a type the enclosing packages of the callee declare (the
/// innermost hides what a `use` shows), else one of `Standard`'s that no type
/// of the tree is named like.
fn type_refuses(index: &TreeIndex, callee: Eid, ty: &TypeRef, literal: LiteralType) -> bool {
    let [name] = ty.path.as_slice() else {
        return false;
    };
    let mut cur = index.decl(callee).parent;
    let mut guard = 0;
    while let Some(d) = cur {
        let pkg = Eid {
            file: callee.file,
            decl: d,
        };
        let types: Vec<&Decl> = index
            .members(pkg, name)
            .iter()
            .map(|&m| index.decl(m))
            .filter(|m| m.kind == DeclKind::Record)
            .collect();
        if !types.is_empty() {
            return types.iter().all(|t| {
                policy::TYPE_CLASS_REFUSES
                    .iter()
                    .any(|(tag, refused)| tagged(t, tag) && refused.contains(&literal))
            });
        }
        cur = index.decl(pkg).parent;
        guard += 1;
        if guard > MAX_HOPS * 8 {
            return false;
        }
    }
    let tree_has_type = index.by_name(name).iter().any(|&e| {
        index.file(e.file).language == crate::lang::Language::Ada
            && index.decl(e).kind == DeclKind::Record
    });
    !tree_has_type && policy::standard_refuses(name, literal)
}

/// `F (…)`, `F;` and a bare `F` in an expression.
fn bare_name(cx: &Cx, fi: u32, call: &Call) -> Decision {
    let Callee::Name(name) = &call.callee else {
        return Decision::Pass;
    };
    let index = cx.index;
    let mut candidates = Vec::new();
    let mut family = Family::Lexical;
    match local(index, fi, call.scope, name) {
        Local::Object => return Decision::Refuse(Reason::LocalValue),
        Local::Package(_) => return Decision::Refuse(Reason::UnsupportedSyntax),
        Local::Callables(c) => candidates.extend(c),
        Local::Nothing => {}
    }
    for (spec, _) in enclosing_units(index, fi) {
        candidates.extend(members(index, spec, name));
    }
    // A library subprogram the file `with`s (`with Run_Tests; … Run_Tests;`).
    for path in withed_named(index, fi, name) {
        if let Some(e) = unit_entity(index, &path.join(".")) {
            if is_callable(index.decl(e)) {
                candidates.push(e);
            }
        }
    }
    let mut outside_declarer = None;
    let mut unknown_use = false;
    // A `use`d package outside the tree that may declare this name.
    let mut outside_homonym = false;
    let before = candidates.len();
    let used = used_packages(index, fi, call.scope);
    // Read only when a `use`d package is outside the tree (most calls have none).
    let mut tree_typed: Option<bool> = None;
    for pkg in used.iter().cloned() {
        match pkg {
            Pkg::InTree(p) => candidates.extend(members(index, p, name)),
            Pkg::Outside(s) => {
                // A package whose subprograms take language-defined types only
                // declares nothing a value of the tree's types passes to.
                let closed = policy::closed_profiles(&s)
                    && *tree_typed.get_or_insert_with(|| has_tree_typed_argument(index, fi, call));
                outside_homonym |= !closed && policy::outside_may_declare(&s, name);
                if policy::outside_declares(&s, name) {
                    outside_declarer = outside_declarer.or(Some(s));
                }
            }
            Pkg::Unknown => unknown_use = true,
        }
    }
    if before == 0 && candidates.len() > before {
        family = Family::Import;
    }
    // Primitive subprograms the derived types of every searched package inherit.
    let mut searched: Vec<Eid> = own_packages(index, fi, call.scope);
    searched.extend(enclosing_units(index, fi).into_iter().map(|(e, _)| e));
    searched.extend(used.iter().filter_map(|p| match p {
        Pkg::InTree(e) => Some(*e),
        _ => None,
    }));
    let mut parents = Vec::new();
    let mut unknown_parent = false;
    for p in searched {
        unknown_parent |= inherited(index, unit(index.file(fi)), p, name, &mut parents, 0);
    }
    for p in parents {
        candidates.extend(members(index, p, name));
    }
    if !candidates.is_empty() && (outside_homonym || unknown_use) {
        // Only `use` (or inheritance) makes the tree's declarations visible here,
        // and a `use`d package the engine cannot read may declare the same name
        // with another profile (`Length` of a bounded string): types decide.
        return Decision::Refuse(Reason::Refused);
    }
    if unknown_parent && !candidates.is_empty() {
        // A type derived from one the engine cannot read may inherit a
        // subprogram of this name, as visible as the ones found.
        return Decision::Refuse(Reason::Refused);
    }
    if !candidates.is_empty() {
        return decide(cx, fi, call, candidates, family);
    }
    // Nothing of the tree is visible under this name: a `use`d language-defined
    // unit that declares a subprogram so named has it, when the tree declares no
    // subprogram so named at all (else a type conversion or an object of the
    // tree, `Amount (X)`, would be taken for the unit's).
    match outside_declarer {
        Some(pkg) if !unknown_use && !declares_subprogram(index, name) => {
            Decision::Place(Placement::outside(
                OutsideKind::External,
                format!("{pkg}.{name}"),
                Family::ExternalImport,
            ))
        }
        _ => Decision::Refuse(Reason::NoDeclaration),
    }
}

/// Whether some argument is an object or a record component whose written type
/// is a full type of the tree (no subtype): a value no language-defined
/// subprogram with a closed profile takes.
fn has_tree_typed_argument(index: &TreeIndex, fi: u32, call: &Call) -> bool {
    call.args
        .iter()
        .chain(call.keywords.iter().map(|(_, a)| a))
        .any(|arg| {
            written_type(index, fi, call.scope, arg).is_some_and(|(file, scope, ty)| {
                matches!(type_sight(index, file, scope, &ty), Sight::Tree(_))
            })
        })
}

/// The library units the `with` clauses of a file's context name whose last
/// segment is `name` (`with Ahven.Run;` for `Run`), as written.
fn withed_named<'i>(index: &'i TreeIndex, fi: u32, name: &str) -> Vec<&'i [String]> {
    let mut out = Vec::new();
    for cf in context_files(index, fi) {
        for import in &index.file(cf).imports {
            if let ImportKind::AdaWith { path } = &import.kind {
                if path.last().map(String::as_str) == Some(name) {
                    out.push(path.as_slice());
                }
            }
        }
    }
    out
}

/// The packages of the file whose regions enclose a scope (their owners).
fn own_packages(index: &TreeIndex, fi: u32, scope: ScopeIdx) -> Vec<Eid> {
    let file = index.file(fi);
    scope_chain(file, scope)
        .into_iter()
        .filter_map(|s| file.scopes[s as usize].owner)
        .filter(|&d| is_package(&file.decls[d as usize]))
        .map(|d| Eid { file: fi, decl: d })
        .collect()
}

fn declares_subprogram(index: &TreeIndex, name: &str) -> bool {
    index.by_name(name).iter().any(|&e| {
        index.file(e.file).language == crate::lang::Language::Ada && is_callable(index.decl(e))
    })
}

/// `P.F (…)`, `P.Q.F;`: a package's declaration, or a unit outside the tree.
fn qualified_name(cx: &Cx, fi: u32, call: &Call) -> Decision {
    let Callee::Member { receiver, name } = &call.callee else {
        return Decision::Pass;
    };
    let Receiver::Path(path) = receiver else {
        return Decision::Refuse(Reason::ReceiverTypeUnknown);
    };
    let index = cx.index;
    match package_path(index, fi, call.scope, path, true, 0) {
        Pkg::InTree(p) => {
            let mut found = members(index, p, name);
            // Inside the package's own body, its body-only subprograms too.
            if let Some(body) = own_body(index, fi, p) {
                found.extend(members(index, body, name));
            }
            if found.is_empty() {
                // `Dummy_Tests.Run`: a type the package derives inherits `Run`,
                // implicitly declared in the package beside it.
                let mut parents = Vec::new();
                if inherited(index, unit(index.file(fi)), p, name, &mut parents, 0) {
                    return Decision::Refuse(Reason::Refused);
                }
                found = parents
                    .iter()
                    .flat_map(|&q| members(index, q, name))
                    .collect();
            }
            if found.is_empty() {
                // The package declares no subprogram so named: a type conversion,
                // an object's component, an enumeration literal.
                return Decision::Unresolved;
            }
            decide(cx, fi, call, found, Family::QualifiedPath)
        }
        Pkg::Outside(unit) => Decision::Place(Placement::outside(
            OutsideKind::External,
            format!("{unit}.{name}"),
            Family::ExternalImport,
        )),
        Pkg::Unknown => match own_operations(index, fi, call, path, name) {
            Some(found) => decide(cx, fi, call, found, Family::WrittenType),
            None => Decision::Refuse(Reason::ReceiverTypeUnknown),
        },
    }
}

/// `Obj.Op (…)` where `Obj` is an object or parameter whose written type is a
/// protected or task type of the tree (`R : in out Test_Results; … R.Set_Status
/// (S)`): the operations and entries that type declares in itself, which only
/// those types do (a tagged type's primitives are declared beside it, in its
/// package). None when the object's type is not certain or declares none so named.
fn own_operations(
    index: &TreeIndex,
    fi: u32,
    call: &Call,
    path: &[String],
    name: &str,
) -> Option<Vec<Eid>> {
    let [object] = path else {
        return None;
    };
    let (file, scope, ty) = object_type(index, fi, call.scope, object)?;
    let Sight::Tree(types) = type_sight(index, file, scope, &ty) else {
        return None;
    };
    // The type's declaration, not its `protected body` / `task body`.
    let found: Vec<Eid> = types
        .iter()
        .filter(|&&t| !tagged(index.decl(t), "body"))
        .flat_map(|&t| members(index, t, name))
        .collect();
    (!found.is_empty()).then_some(found)
}

/// The body's package declaration when `fi` is (or continues) the body of the
/// library package `pkg`.
fn own_body(index: &TreeIndex, fi: u32, pkg: Eid) -> Option<Eid> {
    let decl = index.decl(pkg);
    if decl.parent.is_some() {
        return None;
    }
    let u = unit(index.file(pkg.file));
    let file = index.file(fi);
    if unit(file) != u || role(file) == "spec" {
        return None;
    }
    unit_decl(index, u, "body")
}
