//! Members, fields and variables: what a name means inside a type's hierarchy or
//! at a point of a body. Every lookup is an index hit or a walk over one type's
//! own short lists (its fields, its bases) and its ancestors, never over the tree.

use std::collections::HashSet;

use crate::facts::{BindingValue, Call, DeclIdx, DeclKind, Field, ImportKind, ScopeKind, TypeRef};
use crate::index::{Eid, TreeIndex};
use crate::lang::java::policy;
use crate::lang::java::types::{resolve_type, Named, Site, TypeCx, Via};
use crate::resolve::overload::fits_arity;
use crate::resolve::Cx;

pub fn tcx<'a>(cx: &Cx<'a>) -> TypeCx<'a> {
    TypeCx {
        index: cx.index,
        hierarchy: Some(cx.hierarchy),
    }
}

/// The type a declaration belongs to: a type is its own; a method, constructor
/// or lambda belongs to the nearest enclosing type.
pub fn own_type(index: &TreeIndex, file: u32, decl: DeclIdx) -> Option<Eid> {
    let eid = Eid { file, decl };
    if index.decl(eid).kind.is_type() {
        Some(eid)
    } else {
        index.enclosing_type(eid)
    }
}

/// The types lexically around a declaration, innermost first.
pub fn enclosing_types(index: &TreeIndex, file: u32, decl: DeclIdx) -> Vec<Eid> {
    let facts = index.file(file);
    let mut out = Vec::new();
    let mut cur = Some(decl);
    while let Some(d) = cur {
        let decl = &facts.decls[d as usize];
        if decl.kind.is_type() {
            out.push(Eid { file, decl: d });
        }
        cur = decl.parent;
    }
    out
}

/// A type and its ancestors in Java's lookup order: the superclass chain first,
/// then interfaces (the frontend lists a class's superclass before its interfaces,
/// so a depth-first walk visits the whole class chain before any interface).
pub fn order(cx: &Cx, ty: Eid) -> Vec<Eid> {
    match cx.hierarchy.order(ty) {
        Some(o) => o.to_vec(),
        None => cx.hierarchy.depth_first(ty),
    }
}

pub fn methods_named(index: &TreeIndex, ty: Eid, name: &str) -> Vec<Eid> {
    index
        .members(ty, name)
        .iter()
        .copied()
        .filter(|&m| index.decl(m).kind == DeclKind::Method)
        .collect()
}

pub fn constructors(index: &TreeIndex, ty: Eid) -> Vec<Eid> {
    let name = &index.decl(ty).name;
    index
        .members(ty, name)
        .iter()
        .copied()
        .filter(|&m| index.decl(m).kind == DeclKind::Constructor)
        .collect()
}

/// The anonymous class a `new T(…) { … }` declares. The frontend declares it at
/// the construction's own name token, and a file's declarations are in source
/// order of their names, so a binary search finds it.
pub fn anonymous_class_at(index: &TreeIndex, file: u32, line: u32, column: u32) -> Option<Eid> {
    let decls = &index.file(file).decls;
    let start = decls.partition_point(|d| (d.line, d.column) < (line, column));
    decls[start..]
        .iter()
        .take_while(|d| (d.line, d.column) == (line, column))
        .position(|d| d.kind == DeclKind::Class && d.name.starts_with("<anonymous"))
        .map(|i| Eid {
            file,
            decl: (start + i) as DeclIdx,
        })
}

/// A field by name on a type or the first of its ancestors that declares it.
pub fn field<'a>(cx: &Cx<'a>, ty: Eid, name: &str) -> Option<(Eid, &'a Field)> {
    for t in order(cx, ty) {
        let decl = cx.index.decl(t);
        if let Some(f) = decl.fields.iter().find(|f| f.name == name) {
            return Some((t, f));
        }
    }
    None
}

/// The written type of a field, or the type its initializer constructs.
pub fn field_type(field: &Field) -> Option<&TypeRef> {
    match (&field.ty, &field.value) {
        (Some(t), _) => Some(t),
        (None, Some(crate::facts::ValueExpr::New(t))) => Some(t),
        _ => None,
    }
}

/// How a hierarchy leaves the tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OutsideBases {
    /// Every written base is a type of the tree.
    None,
    /// These written bases are outside the tree (qualified names, lookup order).
    Outside(Vec<String>),
    /// Some written base could not be resolved at all.
    Unsure,
}

/// The written bases of the types of `order` that are not in the tree.
pub fn outside_bases(cx: &Cx, order: &[Eid]) -> OutsideBases {
    let mut outside = Vec::new();
    for &t in order {
        let site = Site::of_decl(cx.index, t);
        for base in &cx.index.decl(t).bases {
            match resolve_type(tcx(cx), site, &base.path) {
                Named::InTree(b) if order.contains(&b) => {}
                // A base that only the finished hierarchy names (a member type
                // inherited by an enclosing class) was not linked when the
                // hierarchy was built, so the walk of `order` never looked in
                // it: it may declare the name.
                Named::InTree(_) => return OutsideBases::Unsure,
                Named::Outside { fqn, .. } => outside.push(fqn),
                _ => return OutsideBases::Unsure,
            }
        }
    }
    if outside.is_empty() {
        OutsideBases::None
    } else {
        OutsideBases::Outside(outside)
    }
}

/// The outside bases that could declare `name`: all but the well-known interfaces
/// whose member lists do not have it.
pub fn outside_bases_with(bases: &[String], name: &str) -> Vec<String> {
    bases
        .iter()
        .filter(|b| policy::known_interface(b).is_none_or(|members| members.contains(&name)))
        .cloned()
        .collect()
}

/// A type's superclass, as far as the tree tells.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Superclass {
    InTree(Eid),
    Outside {
        fqn: String,
        via: Via,
    },
    /// No superclass written (or only interfaces): `java.lang.Object`.
    Object,
    Unsure,
}

/// The superclass of a class (an anonymous class's is the type it instantiates,
/// unless that is an interface). Only the first written base can be a superclass.
pub fn superclass(cx: &Cx, ty: Eid) -> Superclass {
    let decl = cx.index.decl(ty);
    match decl.kind {
        DeclKind::Class => {}
        DeclKind::Enum => {
            return Superclass::Outside {
                fqn: "java.lang.Enum".into(),
                via: Via::JavaLang,
            }
        }
        DeclKind::Record => {
            return Superclass::Outside {
                fqn: "java.lang.Record".into(),
                via: Via::JavaLang,
            }
        }
        _ => return Superclass::Object,
    }
    let Some(first) = decl.bases.first() else {
        return Superclass::Object;
    };
    match resolve_type(tcx(cx), Site::of_decl(cx.index, ty), &first.path) {
        Named::InTree(b) if cx.index.decl(b).kind == DeclKind::Class => Superclass::InTree(b),
        Named::InTree(_) => Superclass::Object,
        Named::Outside { fqn, .. } if policy::known_interface(&fqn).is_some() => Superclass::Object,
        // An outside first base may be a class or an interface; either way the
        // superclass is outside the tree.
        Named::Outside { fqn, via } => Superclass::Outside { fqn, via },
        _ => Superclass::Unsure,
    }
}

/// What a method name means on a type, given a call's arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MethodChoice {
    /// The declarations of that name on `on` (an overload set the overload pass names).
    Found {
        on: Eid,
        decls: Vec<Eid>,
    },
    /// No method of that name takes these arguments anywhere in the tree's part of
    /// the hierarchy.
    NotInTree,
    /// The name is declared, but no declaration takes this many arguments.
    NoFit,
    Ambiguous,
}

/// Find the method a call names on the types of `order` (the receiver's type
/// first). Overloads inherited from several types are told apart by the Java
/// overload rules; an overridden declaration gives way to the overriding one.
/// Without a call (a method reference) the first type declaring the name wins.
pub fn choose_method(
    cx: &Cx,
    file: u32,
    call: Option<&Call>,
    order: &[Eid],
    name: &str,
) -> MethodChoice {
    let index = cx.index;
    let groups: Vec<(Eid, Vec<Eid>)> = order
        .iter()
        .map(|&t| (t, methods_named(index, t, name)))
        .filter(|(_, ms)| !ms.is_empty())
        .collect();
    let Some((first_on, first_decls)) = groups.first() else {
        return MethodChoice::NotInTree;
    };
    let Some(call) = call else {
        return MethodChoice::Found {
            on: *first_on,
            decls: first_decls.clone(),
        };
    };
    let n = call.args.len() as u32;
    let fitting: Vec<(Eid, Eid)> = groups
        .iter()
        .flat_map(|(t, ms)| ms.iter().map(move |&m| (*t, m)))
        .filter(|&(_, m)| fits_arity(index.decl(m), n, false))
        .collect();
    if fitting.is_empty() {
        return if cx.hierarchy.has_unknown_base(order[0]) {
            MethodChoice::NotInTree
        } else {
            MethodChoice::NoFit
        };
    }
    // An override hides the declaration it overrides: keep the most derived.
    let mut seen = HashSet::new();
    let live: Vec<(Eid, Eid)> = fitting
        .into_iter()
        .filter(|&(_, m)| seen.insert(signature(index, m)))
        .collect();
    if cx.hierarchy.has_unknown_base(order[0]) {
        // The arguments contradict every declaration the tree has: the method is
        // one an outside base declares (`sink.write(byteBuffer)` on a type that
        // also extends `WritableByteChannel`).
        let methods: Vec<Eid> = live.iter().map(|&(_, m)| m).collect();
        if !crate::lang::java::overload::any_possible(cx, file, call, &methods) {
            let outside_may_declare = match outside_bases(cx, order) {
                OutsideBases::Outside(bases) => !outside_bases_with(&bases, name).is_empty(),
                OutsideBases::Unsure => true,
                OutsideBases::None => false,
            };
            if outside_may_declare {
                return MethodChoice::NotInTree;
            }
        }
    }
    let on_types: HashSet<Eid> = live.iter().map(|&(t, _)| t).collect();
    let chosen = if on_types.len() == 1 {
        live[0].0
    } else {
        let methods: Vec<Eid> = live.iter().map(|&(_, m)| m).collect();
        match crate::lang::java::overload::select(cx, file, call, &methods) {
            Some(m) => live
                .iter()
                .find(|&&(_, x)| x == m)
                .map(|&(t, _)| t)
                .unwrap_or(live[0].0),
            None => return MethodChoice::Ambiguous,
        }
    };
    if chosen != order[0] && inherited_past_unknown_class(cx, order[0], chosen) {
        return MethodChoice::Ambiguous;
    }
    MethodChoice::Found {
        on: chosen,
        decls: methods_named(index, chosen, name),
    }
}

/// An interface method reached from a type whose hierarchy leaves the tree: an
/// outside superclass may declare the same method, and javac would bind that one.
fn inherited_past_unknown_class(cx: &Cx, receiver: Eid, on: Eid) -> bool {
    cx.index.decl(on).kind == DeclKind::Interface && cx.hierarchy.has_unknown_base(receiver)
}

/// Parameter types as written (erased to their last segment): two declarations
/// with the same signature on a type and its ancestor are an override.
fn signature(index: &TreeIndex, m: Eid) -> Vec<(String, bool)> {
    index
        .decl(m)
        .params
        .iter()
        .map(|p| {
            let name =
                p.ty.as_ref()
                    .and_then(|t| t.last())
                    .unwrap_or("?")
                    .to_string();
            (name, p.variadic || p.ty.as_ref().is_some_and(|t| t.array))
        })
        .collect()
}

/// What a simple name means as a variable at a point of a body.
#[derive(Debug, Clone, Copy)]
pub enum Var<'a> {
    /// A parameter or local (its binding).
    Local(&'a BindingValue),
    /// A field of an enclosing type (or a statically imported one).
    Field { owner: Eid, field: &'a Field },
}

/// Walk the scopes out from `site`: locals and parameters (the nearest write
/// before the line), then at each class body the fields of that class and its
/// ancestors, then statically imported fields.
pub fn variable<'a>(cx: &Cx<'a>, site: Site, name: &str) -> Option<Var<'a>> {
    let index = cx.index;
    let facts = index.file(site.file);
    let mut cur = site.scope;
    while let Some(s) = cur {
        let scope = &facts.scopes[s as usize];
        match scope.kind {
            ScopeKind::Class => {
                if let Some(owner) = scope.owner {
                    if let Some((o, f)) = field(
                        cx,
                        Eid {
                            file: site.file,
                            decl: owner,
                        },
                        name,
                    ) {
                        return Some(Var::Field { owner: o, field: f });
                    }
                }
            }
            _ => {
                let found = scope.bindings.iter().rev().find(|b| {
                    b.name == name
                        && b.line <= site.line
                        && !matches!(b.value, BindingValue::Decl(_))
                });
                if let Some(b) = found {
                    return Some(Var::Local(&b.value));
                }
            }
        }
        cur = scope.parent;
    }
    static_imported_field(cx, site.file, name)
}

fn static_imported_field<'a>(cx: &Cx<'a>, file: u32, name: &str) -> Option<Var<'a>> {
    let index = cx.index;
    for import in &index.file(file).imports {
        let owner_path = match &import.kind {
            ImportKind::JavaStatic { path } if path.last().map(String::as_str) == Some(name) => {
                &path[..path.len() - 1]
            }
            ImportKind::JavaStaticOnDemand { path } => &path[..],
            _ => continue,
        };
        if let [owner] = index.java_type(&owner_path.join(".")) {
            if let Some((o, f)) = field(cx, *owner, name) {
                return Some(Var::Field { owner: o, field: f });
            }
        }
    }
    None
}

/// Whether a name is a variable at the site (it then shadows any type so named).
pub fn is_variable(cx: &Cx, site: Site, name: &str) -> bool {
    variable(cx, site, name).is_some()
}
