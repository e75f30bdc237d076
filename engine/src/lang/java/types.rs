//! Java type names: what a written type names, in the order javac scopes a simple
//! name — type parameters, local classes, the enclosing types (their own names,
//! member types, inherited member types), the file's own types, single-type
//! imports, the package, on-demand imports, then `java.lang`. A name none of these
//! binds is read as outside only where an import of a package outside the tree
//! could supply it; otherwise it stays unknown (never guessed).

use crate::facts::{DeclIdx, ImportKind, ScopeIdx, TypeRef};
use crate::index::{Eid, TreeIndex};
use crate::lang::java::policy;
use crate::resolve::Hierarchy;

/// What the type resolver may read: the index, and the hierarchy once it is
/// built (inherited member types need it; computing the hierarchy itself cannot).
#[derive(Clone, Copy)]
pub struct TypeCx<'a> {
    pub index: &'a TreeIndex<'a>,
    pub hierarchy: Option<&'a Hierarchy>,
}

/// Where a type is written: the file, the innermost declaration around it, and
/// the scope and line (local classes are visible from their declaration on).
#[derive(Debug, Clone, Copy)]
pub struct Site {
    pub file: u32,
    pub decl: Option<DeclIdx>,
    pub scope: Option<ScopeIdx>,
    pub line: u32,
}

impl Site {
    /// A type written in a declaration's header (a parameter, return or field type,
    /// a base): seen from where the declaration itself is bound.
    pub fn of_decl(index: &TreeIndex, eid: Eid) -> Site {
        let decl = index.decl(eid);
        Site {
            file: eid.file,
            decl: Some(eid.decl),
            scope: Some(decl.scope),
            line: decl.line,
        }
    }
}

/// How an outside type's name was bound: it decides the family of an edge that
/// leaves the tree through it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Via {
    /// `java.lang`, visible everywhere without an import.
    JavaLang,
    /// A single-type import of a type outside the tree.
    Import,
    /// The only candidate: an on-demand import of a package outside the tree.
    OnDemand,
    /// Written fully qualified (`java.util.Objects`).
    Qualified,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Named {
    InTree(Eid),
    Outside {
        fqn: String,
        via: Via,
    },
    Primitive(&'static str),
    TypeParam,
    /// The tree claims the name (imports it from one of its own packages) and
    /// declares no such type.
    Unresolved,
    Unknown,
    Ambiguous,
}

/// A value's static type, as far as overloads and receivers need it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum JType {
    Prim(&'static str),
    Null,
    Class(Eid),
    /// A type the tree does not declare, by its (best known) qualified name.
    Foreign(String),
    Array(Box<JType>),
    TypeParam,
    /// A lambda or method reference: its type is the parameter's.
    Lambda,
    Unknown,
}

const PRIMITIVES: &[&str] = &[
    "boolean", "byte", "short", "char", "int", "long", "float", "double",
];

pub fn primitive(name: &str) -> Option<&'static str> {
    PRIMITIVES.iter().copied().find(|p| *p == name)
}

/// The static type a written type denotes at `site`.
pub fn jtype(cx: TypeCx, site: Site, ty: &TypeRef) -> JType {
    if let (true, [], [element]) = (ty.array, ty.path.as_slice(), ty.args.as_slice()) {
        // An array of arrays: the element is itself an array type.
        return JType::Array(Box::new(jtype(cx, site, element)));
    }
    let element = match resolve_type(cx, site, &ty.path) {
        Named::Primitive(p) => JType::Prim(p),
        Named::InTree(e) => JType::Class(e),
        Named::Outside { fqn, .. } => JType::Foreign(fqn),
        Named::TypeParam => JType::TypeParam,
        _ => JType::Unknown,
    };
    if ty.array {
        JType::Array(Box::new(element))
    } else {
        element
    }
}

/// Resolve a written type path at `site`.
pub fn resolve_type(cx: TypeCx, site: Site, path: &[String]) -> Named {
    let Some(first) = path.first() else {
        return Named::Unknown;
    };
    if path.len() == 1 {
        if let Some(p) = primitive(first) {
            return Named::Primitive(p);
        }
        if is_type_parameter(cx.index, site, first) {
            return Named::TypeParam;
        }
    }
    let head = simple_type(cx, site, first);
    match head {
        Named::InTree(t) => member_path(cx, t, &path[1..]),
        Named::Outside { fqn, via } if via != Via::OnDemand || path.len() == 1 => Named::Outside {
            fqn: join_fqn(&fqn, &path[1..]),
            via,
        },
        // `a.b.C` where `a` names no type: a package path. An on-demand guess for
        // the first segment is weaker than a package the tree declares.
        other if path.len() > 1 => match qualified(cx, path) {
            Named::Unknown => match other {
                Named::Outside { fqn, via } => Named::Outside {
                    fqn: join_fqn(&fqn, &path[1..]),
                    via,
                },
                o => o,
            },
            found => found,
        },
        other => other,
    }
}

/// The longest prefix of `path` that names a type, and how many segments it took
/// (`Outer.Inner.FIELD` → Inner, 2). Used for receivers, where what follows the
/// type is a static field.
pub fn type_prefix(cx: TypeCx, site: Site, path: &[String]) -> (Named, usize) {
    let Some(first) = path.first() else {
        return (Named::Unknown, 0);
    };
    if is_type_parameter(cx.index, site, first) {
        return (Named::TypeParam, 1);
    }
    let head = simple_type(cx, site, first);
    match head {
        Named::InTree(t) => {
            let (t, used) = member_types_prefix(cx, t, &path[1..]);
            (Named::InTree(t), 1 + used)
        }
        Named::Unknown
        | Named::Outside {
            via: Via::OnDemand, ..
        } if path.len() > 1 => {
            // A package path: the shortest prefix that is a type of the tree.
            for end in 2..=path.len() {
                match cx.index.java_type(&path[..end].join(".")) {
                    [] => continue,
                    [one] => {
                        let (t, used) = member_types_prefix(cx, *one, &path[end..]);
                        return (Named::InTree(t), end + used);
                    }
                    _ => return (Named::Ambiguous, end),
                }
            }
            if is_platform_path(path) {
                // `java.util.Objects.hash(…)`: the platform's packages are never the tree's.
                let end = path
                    .iter()
                    .position(|s| starts_upper(s))
                    .map_or(path.len(), |i| i + 1);
                return (
                    Named::Outside {
                        fqn: path[..end].join("."),
                        via: Via::Qualified,
                    },
                    end,
                );
            }
            match head {
                Named::Outside { .. } => (head, 1),
                _ => (Named::Unknown, 0),
            }
        }
        other => (other, 1),
    }
}

/// A path under one of the platform's packages (`java.util.List`).
fn is_platform_path(path: &[String]) -> bool {
    policy::is_stdlib(&format!("{}.", path.join(".")))
}

fn starts_upper(s: &str) -> bool {
    s.chars().next().is_some_and(char::is_uppercase)
}

fn join_fqn(fqn: &str, rest: &[String]) -> String {
    if rest.is_empty() {
        fqn.to_string()
    } else {
        format!("{fqn}.{}", rest.join("."))
    }
}

/// Type parameters of the declaration at the site and of every declaration
/// around it (a method's, its class's, outer classes').
fn is_type_parameter(index: &TreeIndex, site: Site, name: &str) -> bool {
    let file = index.file(site.file);
    let mut cur = site.decl;
    while let Some(d) = cur {
        let decl = &file.decls[d as usize];
        if decl.type_params.iter().any(|p| p == name) {
            return true;
        }
        cur = decl.parent;
    }
    false
}

/// One simple type name at a site.
fn simple_type(cx: TypeCx, site: Site, name: &str) -> Named {
    let index = cx.index;
    if let Some(local) = local_class(index, site, name) {
        return Named::InTree(local);
    }
    match enclosing_member_type(cx, site, name) {
        Named::Unknown => {}
        found => return found,
    }
    let own: Vec<Eid> = index
        .top_level(site.file, name)
        .into_iter()
        .filter(|&e| index.decl(e).kind.is_type())
        .collect();
    if let [one] = own.as_slice() {
        return Named::InTree(*one);
    }
    match single_type_import(index, site.file, name) {
        Named::Unknown => {}
        found => return found,
    }
    let file = index.file(site.file);
    let package = file.module.first().map(String::as_str).unwrap_or("");
    let in_package = if package.is_empty() {
        name.to_string()
    } else {
        format!("{package}.{name}")
    };
    match index.java_type(&in_package) {
        [] => {}
        [one] => return Named::InTree(*one),
        _ => return Named::Ambiguous,
    }
    match on_demand_import(index, site.file, name) {
        Named::Unknown => {}
        found => return found,
    }
    match index.java_type(&format!("java.lang.{name}")) {
        [] => {}
        [one] => return Named::InTree(*one),
        _ => return Named::Ambiguous,
    }
    if policy::is_java_lang_type(name) {
        return Named::Outside {
            fqn: format!("java.lang.{name}"),
            via: Via::JavaLang,
        };
    }
    outside_on_demand(index, site.file, name)
}

/// A class declared in an enclosing block (bound there by the frontend).
fn local_class(index: &TreeIndex, site: Site, name: &str) -> Option<Eid> {
    let file = index.file(site.file);
    let mut cur = site.scope;
    while let Some(s) = cur {
        let scope = &file.scopes[s as usize];
        for b in scope.named(name).rev() {
            if b.line <= site.line {
                if let crate::facts::BindingValue::Decl(d) = b.value {
                    if file.decls[d as usize].kind.is_type() {
                        return Some(Eid {
                            file: site.file,
                            decl: d,
                        });
                    }
                }
            }
        }
        cur = scope.parent;
    }
    None
}

/// The enclosing types, innermost first: their own names, their member types and
/// (once the hierarchy exists) the member types they inherit.
fn enclosing_member_type(cx: TypeCx, site: Site, name: &str) -> Named {
    let index = cx.index;
    let file = index.file(site.file);
    let mut cur = site.decl;
    while let Some(d) = cur {
        let decl = &file.decls[d as usize];
        if decl.kind.is_type() {
            let t = Eid {
                file: site.file,
                decl: d,
            };
            if decl.name == name {
                return Named::InTree(t);
            }
            match member_type(cx, t, name) {
                Named::Unknown => {}
                found => return found,
            }
        }
        cur = decl.parent;
    }
    Named::Unknown
}

/// A member type of `t` named `name`, declared on it or inherited.
fn member_type(cx: TypeCx, t: Eid, name: &str) -> Named {
    let own = member_types(cx.index, t, name);
    match own.as_slice() {
        [one] => return Named::InTree(*one),
        [] => {}
        _ => return Named::Ambiguous,
    }
    if let Some(h) = cx.hierarchy {
        for &base in h.order(t).unwrap_or(&[]).iter().skip(1) {
            match member_types(cx.index, base, name).as_slice() {
                [] => {}
                [one] => return Named::InTree(*one),
                _ => return Named::Ambiguous,
            }
        }
    }
    Named::Unknown
}

fn member_types(index: &TreeIndex, t: Eid, name: &str) -> Vec<Eid> {
    index
        .members(t, name)
        .iter()
        .copied()
        .filter(|&m| index.decl(m).kind.is_type())
        .collect()
}

fn member_path(cx: TypeCx, t: Eid, rest: &[String]) -> Named {
    let mut cur = t;
    for seg in rest {
        match member_type(cx, cur, seg) {
            Named::InTree(next) => cur = next,
            other => return other,
        }
    }
    Named::InTree(cur)
}

/// Follow member types as far as the path names them.
fn member_types_prefix(cx: TypeCx, t: Eid, rest: &[String]) -> (Eid, usize) {
    let mut cur = t;
    let mut used = 0;
    for seg in rest {
        match member_type(cx, cur, seg) {
            Named::InTree(next) => {
                cur = next;
                used += 1;
            }
            _ => break,
        }
    }
    (cur, used)
}

/// `import a.b.C;` (and `import static a.b.C.D;` of a member type).
fn single_type_import(index: &TreeIndex, file: u32, name: &str) -> Named {
    for import in &index.file(file).imports {
        let (ImportKind::JavaType { path } | ImportKind::JavaStatic { path }) = &import.kind else {
            continue;
        };
        if path.last().map(String::as_str) != Some(name) {
            continue;
        }
        let fqn = path.join(".");
        match index.java_type(&fqn) {
            [one] => return Named::InTree(*one),
            [_, _, ..] => return Named::Ambiguous,
            [] => {}
        }
        if matches!(import.kind, ImportKind::JavaStatic { .. }) {
            // A static import of a method or field, not a type.
            continue;
        }
        if in_tree_prefix(index, &path[..path.len() - 1]) {
            return Named::Unresolved;
        }
        return Named::Outside {
            fqn,
            via: Via::Import,
        };
    }
    Named::Unknown
}

/// `import a.b.*;` / `import static a.b.C.*;` where the tree declares `a.b.name`.
fn on_demand_import(index: &TreeIndex, file: u32, name: &str) -> Named {
    let mut found: Option<Eid> = None;
    for import in &index.file(file).imports {
        let (ImportKind::JavaOnDemand { path } | ImportKind::JavaStaticOnDemand { path }) =
            &import.kind
        else {
            continue;
        };
        match index.java_type(&format!("{}.{name}", path.join("."))) {
            [] => {}
            [one] if found.is_none() || found == Some(*one) => found = Some(*one),
            _ => return Named::Ambiguous,
        }
    }
    found.map_or(Named::Unknown, Named::InTree)
}

/// The tree does not declare the name anywhere it could come from; an on-demand
/// import of a package outside the tree is then where it comes from.
fn outside_on_demand(index: &TreeIndex, file: u32, name: &str) -> Named {
    if !starts_upper(name) {
        // A lower-case name is a variable the tree does not show (an inherited
        // field of an outside base), not a type: never guessed outside.
        return Named::Unknown;
    }
    let outside: Vec<&Vec<String>> = index
        .file(file)
        .imports
        .iter()
        .filter_map(|i| match &i.kind {
            ImportKind::JavaOnDemand { path } if !in_tree_prefix(index, path) => Some(path),
            _ => None,
        })
        .collect();
    match outside.as_slice() {
        [] => Named::Unknown,
        [one] => Named::Outside {
            fqn: format!("{}.{name}", one.join(".")),
            via: Via::OnDemand,
        },
        _ => Named::Outside {
            fqn: name.to_string(),
            via: Via::OnDemand,
        },
    }
}

/// A fully qualified path: the shortest prefix that is a type of the tree, then
/// member types; the platform's packages are outside.
fn qualified(cx: TypeCx, path: &[String]) -> Named {
    let index = cx.index;
    for end in 2..=path.len() {
        match index.java_type(&path[..end].join(".")) {
            [] => continue,
            [one] => return member_path(cx, *one, &path[end..]),
            _ => return Named::Ambiguous,
        }
    }
    if is_platform_path(path) {
        return Named::Outside {
            fqn: path.join("."),
            via: Via::Qualified,
        };
    }
    for end in (1..path.len()).rev() {
        if !index.java_package(&path[..end].join(".")).is_empty() {
            return Named::Unresolved;
        }
    }
    if !starts_upper(&path[0]) && path.iter().any(|s| starts_upper(s)) {
        // A written type `org.lib.Widget` whose package the tree does not have.
        return Named::Outside {
            fqn: path.join("."),
            via: Via::Qualified,
        };
    }
    Named::Unknown
}

/// Whether a dotted path is a package or a type of the tree.
fn in_tree_prefix(index: &TreeIndex, path: &[String]) -> bool {
    if path.is_empty() {
        return false;
    }
    let dotted = path.join(".");
    !index.java_package(&dotted).is_empty() || !index.java_type(&dotted).is_empty()
}
