//! C# type names: what a written type names, in the order the C# compiler scopes
//! a simple name (spec §7.6.5): type parameters, the enclosing types (their own
//! names, nested types, inherited nested types), then each enclosing namespace
//! from the innermost out — the namespace's own types (in any file), then the
//! using-aliases and the namespaces imported by the using directives of the
//! namespace declaration that encloses the name. A name none of these binds is
//! outside only where a using directive imports a namespace outside the tree;
//! otherwise it stays unknown (never guessed).
//!
//! A partial type is one type declared in several places: every part is indexed
//! under the type's full name (`TreeIndex::csharp_type`) and the first part in
//! tree order stands for the type (`canonical`).

use std::cell::RefCell;

use crate::facts::{DeclIdx, ImportKind, ScopeIdx, TypeRef};
use crate::fasthash::FastMap;
use crate::index::{csharp_type_name, Eid, TreeIndex};
use crate::lang::csharp::frontend::GLOBAL;
use crate::lang::csharp::policy;

/// Where a name is written: the file, the innermost declaration around it, and
/// the scope and line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Site {
    pub file: u32,
    pub decl: Option<DeclIdx>,
    pub scope: Option<ScopeIdx>,
    pub line: u32,
}

impl Site {
    /// Where a declaration's own types (parameters, bases, return type) are written.
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

/// How an outside type's name was bound: which family an edge through it gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Via {
    /// A predefined type keyword (`string`, `object`, `int`).
    Predefined,
    /// A using directive (namespace, alias or `using static`).
    Using,
    /// Written fully qualified (`System.IO.File`).
    Qualified,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Named {
    /// A type of the tree, by its canonical part.
    InTree(Eid),
    Outside {
        fqn: String,
        via: Via,
    },
    /// A value type written by its keyword (`int`, `bool`, `char`, `decimal`…).
    Primitive(&'static str),
    /// A type parameter of `owner` (a type's canonical part, or a method).
    TypeParam {
        owner: Eid,
        name: String,
    },
    Dynamic,
    /// A namespace (a path's prefix).
    Namespace(String),
    /// The tree claims the name (a namespace only the tree declares) and
    /// declares no such type.
    Unresolved,
    Ambiguous,
    Unknown,
}

/// The parts of a type declaration (the type itself when it is not partial).
pub fn parts(index: &TreeIndex, ty: Eid) -> Vec<Eid> {
    match parts_of(index, ty) {
        [] => vec![ty],
        found => found.to_vec(),
    }
}

/// The parts registered under a type's full name: the index's precomputed key for
/// a type declaration, else the name built from the declaration.
fn parts_of<'a>(index: &'a TreeIndex, ty: Eid) -> &'a [Eid] {
    match index.csharp_parts(ty) {
        Some(found) => found,
        None => index.csharp_type(&csharp_type_name(index.file(ty.file), ty.decl)),
    }
}

/// The part that stands for a type: the first in tree order.
pub fn canonical(index: &TreeIndex, ty: Eid) -> Eid {
    parts_of(index, ty).first().copied().unwrap_or(ty)
}

/// The namespace a declaration is written in (its top-level type's).
pub fn namespace_of(index: &TreeIndex, file: u32, decl: Option<DeclIdx>) -> Vec<String> {
    let facts = index.file(file);
    let mut cur = decl;
    let mut top = None;
    let mut guard = 0;
    while let Some(d) = cur {
        top = Some(d);
        cur = facts.decls[d as usize].parent;
        guard += 1;
        if guard > 256 {
            break;
        }
    }
    match top {
        Some(t) => facts.decls[t as usize].scope_path.clone(),
        None => Vec::new(),
    }
}

/// The namespace a site stands in: its declaration's, or for a site outside any
/// declaration the namespace whose usings enclose it.
fn site_namespace(index: &TreeIndex, site: Site) -> Vec<String> {
    if site.decl.is_some() {
        return namespace_of(index, site.file, site.decl);
    }
    Vec::new()
}

/// The using directives that enclose a site, with the namespace declaration each
/// is written in: one of the site's scope ancestors (or the compilation unit).
pub fn usings_in_scope<'a>(index: &'a TreeIndex, site: Site) -> Vec<Using<'a>> {
    let facts = index.file(site.file);
    let ancestors = scope_ancestors(index, site);
    facts
        .imports
        .iter()
        .filter_map(|i| match &i.kind {
            ImportKind::CSharpUsing {
                path,
                alias,
                is_static,
                namespace,
                scope,
            } if *scope == 0 || ancestors.contains(scope) => Some(Using {
                path,
                alias: alias.as_deref(),
                is_static: *is_static,
                namespace,
            }),
            _ => None,
        })
        .collect()
}

/// A using directive in scope.
#[derive(Debug, Clone, Copy)]
pub struct Using<'a> {
    pub path: &'a [String],
    pub alias: Option<&'a str>,
    pub is_static: bool,
    /// The namespace declaration it is written in (empty: the compilation unit).
    pub namespace: &'a [String],
}

fn scope_ancestors(index: &TreeIndex, site: Site) -> Vec<ScopeIdx> {
    let facts = index.file(site.file);
    let mut out = Vec::new();
    let mut cur = site.scope;
    while let Some(s) = cur {
        if out.len() > 512 {
            break;
        }
        out.push(s);
        cur = facts.scopes[s as usize].parent;
    }
    out
}

/// The key of a type in a namespace (`N.T`, `` N.T`1 ``).
fn type_key(namespace: &str, name: &str, arity: usize) -> String {
    let mut key = String::with_capacity(namespace.len() + name.len() + 4);
    if !namespace.is_empty() {
        key.push_str(namespace);
        key.push('.');
    }
    key.push_str(name);
    if arity > 0 {
        key.push('`');
        key.push_str(&arity.to_string());
    }
    key
}

/// The type of that name and arity in a namespace, by its canonical part.
fn type_in_namespace(index: &TreeIndex, namespace: &str, name: &str, arity: usize) -> Option<Eid> {
    index
        .csharp_type(&type_key(namespace, name, arity))
        .first()
        .copied()
}

/// Whether the tree declares this namespace (or one inside it).
pub fn is_tree_namespace(index: &TreeIndex, namespace: &str) -> bool {
    !index.package_files(namespace).is_empty()
}

/// Whether a namespace may hold types the tree does not declare: one the tree
/// does not declare, or one of the platform's (a tree may add types to `System.*`).
pub fn may_hold_outside_types(index: &TreeIndex, namespace: &str) -> bool {
    !is_tree_namespace(index, namespace) || policy::is_platform_namespace(namespace)
}

/// Resolve a written type path with the type-argument count of its last segment.
pub fn resolve_type(index: &TreeIndex, site: Site, path: &[String], arity: usize) -> Named {
    let Some(first) = path.first() else {
        return Named::Unknown;
    };
    if first == GLOBAL {
        return resolve_from_namespace(index, String::new(), &path[1..], arity, true);
    }
    if path.len() == 1 {
        if let Some(named) = predefined(first) {
            return named;
        }
        if let Some(owner) = type_parameter_owner(index, site, first) {
            return Named::TypeParam {
                owner,
                name: first.clone(),
            };
        }
    }
    let head_arity = if path.len() == 1 { arity } else { 0 };
    match simple_name(index, site, first, head_arity) {
        Named::InTree(t) => member_path(index, t, &path[1..], arity),
        Named::Namespace(ns) => resolve_from_namespace(index, ns, &path[1..], arity, false),
        Named::Outside { fqn, via } => Named::Outside {
            fqn: join(&fqn, &path[1..]),
            via,
        },
        Named::Unknown if path.len() > 1 => {
            // A namespace path the tree does not declare: `System.IO.File`.
            if starts_upper(first) {
                Named::Outside {
                    fqn: path.join("."),
                    via: Via::Qualified,
                }
            } else {
                Named::Unknown
            }
        }
        other => other,
    }
}

/// The predefined type keywords.
fn predefined(name: &str) -> Option<Named> {
    if name == "dynamic" {
        return Some(Named::Dynamic);
    }
    let (keyword, fqn) = policy::PREDEFINED.iter().find(|(k, _)| *k == name)?;
    Some(if policy::is_value_keyword(keyword) {
        Named::Primitive(keyword)
    } else {
        Named::Outside {
            fqn: fqn.to_string(),
            via: Via::Predefined,
        }
    })
}

/// The declaration around the site that introduces a type parameter so named.
fn type_parameter_owner(index: &TreeIndex, site: Site, name: &str) -> Option<Eid> {
    let facts = index.file(site.file);
    let mut cur = site.decl;
    let mut guard = 0;
    while let Some(d) = cur {
        let decl = &facts.decls[d as usize];
        if decl.type_params.iter().any(|p| p == name) {
            let eid = Eid {
                file: site.file,
                decl: d,
            };
            return Some(if decl.kind.is_type() {
                canonical(index, eid)
            } else {
                eid
            });
        }
        cur = decl.parent;
        guard += 1;
        if guard > 256 {
            break;
        }
    }
    None
}

/// What a simple name binds where it is written: (file, innermost declaration,
/// scope, name, type-argument count) decide it, and one name is looked up again
/// and again from one place (a type's bases at every walk of its hierarchy, a
/// type a method names at each of its calls).
type NameMemo = FastMap<(u32, Option<DeclIdx>, Option<ScopeIdx>, usize, Box<str>), Named>;

thread_local! {
    /// The simple names this thread has bound, for the index of that generation.
    static SIMPLE_NAMES: RefCell<(u64, NameMemo)> = RefCell::new((u64::MAX, FastMap::default()));
}

/// One simple name at a site: a type of the tree, a namespace, an outside type
/// (memoised per index: the lookup walks namespaces and using directives).
pub fn simple_name(index: &TreeIndex, site: Site, name: &str, arity: usize) -> Named {
    let key = (
        site.file,
        site.decl,
        site.scope,
        arity,
        Box::<str>::from(name),
    );
    let known = SIMPLE_NAMES.with(|m| {
        let mut m = m.borrow_mut();
        if m.0 != index.generation() {
            *m = (index.generation(), FastMap::default());
        }
        m.1.get(&key).cloned()
    });
    if let Some(named) = known {
        return named;
    }
    let named = bind_simple_name(index, site, name, arity);
    SIMPLE_NAMES.with(|m| m.borrow_mut().1.insert(key, named.clone()));
    named
}

fn bind_simple_name(index: &TreeIndex, site: Site, name: &str, arity: usize) -> Named {
    match enclosing_type_named(index, site, name, arity) {
        Named::Unknown => {}
        found => return found,
    }
    let namespace = site_namespace(index, site);
    let usings = usings_in_scope(index, site);
    let mut outside_possible = false;
    for level in (0..=namespace.len()).rev() {
        let ns = namespace[..level].join(".");
        if let Some(t) = type_in_namespace(index, &ns, name, arity) {
            return Named::InTree(t);
        }
        let nested = join(&ns, std::slice::from_ref(&name.to_string()));
        if arity == 0 && is_tree_namespace(index, &nested) {
            return Named::Namespace(nested);
        }
        let here: Vec<&Using> = usings
            .iter()
            .filter(|u| u.namespace == &namespace[..level])
            .collect();
        if let Some(u) = here.iter().find(|u| u.alias == Some(name)) {
            return alias_target(index, u.path);
        }
        let mut found: Vec<Eid> = Vec::new();
        for u in here.iter().filter(|u| u.alias.is_none()) {
            let imported = u.path.join(".");
            let t = if u.is_static {
                // `using static N.T;` brings T's nested types in.
                match resolve_from_namespace(index, String::new(), u.path, 0, true) {
                    Named::InTree(owner) => nested_type(index, owner, name, arity),
                    _ => None,
                }
            } else {
                type_in_namespace(index, &imported, name, arity)
            };
            match t {
                Some(t) if !found.contains(&t) => found.push(t),
                Some(_) => {}
                None if !u.is_static && may_hold_outside_types(index, &imported) => {
                    outside_possible = true
                }
                None => {}
            }
        }
        match found.as_slice() {
            [one] => return Named::InTree(*one),
            [] => {}
            _ => return Named::Ambiguous,
        }
    }
    if is_tree_namespace(index, name) && arity == 0 {
        return Named::Namespace(name.to_string());
    }
    if outside_possible && starts_upper(name) {
        return Named::Outside {
            fqn: outside_name(&usings, name),
            via: Via::Using,
        };
    }
    Named::Unknown
}

/// The best known full name of an outside type imported by a using directive:
/// the well-known namespace the policy lists for it when that namespace is
/// imported, else the name alone.
fn outside_name(usings: &[Using], name: &str) -> String {
    if let Some(ns) = policy::well_known_namespace(name) {
        if usings
            .iter()
            .any(|u| u.alias.is_none() && !u.is_static && u.path.join(".") == ns)
        {
            return format!("{ns}.{name}");
        }
    }
    name.to_string()
}

/// What a using alias names: a type or a namespace, written from the global
/// namespace.
fn alias_target(index: &TreeIndex, path: &[String]) -> Named {
    if path.len() == 1 {
        if let Some(named) = predefined(&path[0]) {
            return named;
        }
    }
    let arity = 0;
    match resolve_from_namespace(index, String::new(), path, arity, true) {
        Named::Unknown => Named::Outside {
            fqn: path.join("."),
            via: Via::Using,
        },
        Named::Outside { fqn, .. } => Named::Outside {
            fqn,
            via: Via::Using,
        },
        other => other,
    }
}

/// The enclosing types, innermost first: their own names (with their type
/// parameter count), their nested types and the nested types they inherit.
fn enclosing_type_named(index: &TreeIndex, site: Site, name: &str, arity: usize) -> Named {
    let facts = index.file(site.file);
    let mut cur = site.decl;
    let mut guard = 0;
    while let Some(d) = cur {
        let decl = &facts.decls[d as usize];
        if decl.kind.is_type() {
            let t = canonical(
                index,
                Eid {
                    file: site.file,
                    decl: d,
                },
            );
            if let Some(n) = nested_type(index, t, name, arity) {
                return Named::InTree(n);
            }
            if decl.name == name && decl.type_params.len() == arity {
                return Named::InTree(t);
            }
        }
        cur = decl.parent;
        guard += 1;
        if guard > 256 {
            break;
        }
    }
    Named::Unknown
}

/// A nested type of `t` (any of its parts) so named, by its canonical part.
pub fn nested_type(index: &TreeIndex, t: Eid, name: &str, arity: usize) -> Option<Eid> {
    for part in parts(index, t) {
        for &m in index.members(part, name) {
            let decl = index.decl(m);
            if decl.kind.is_type() && decl.type_params.len() == arity {
                return Some(canonical(index, m));
            }
        }
    }
    None
}

/// Follow nested types along the rest of a path (the last segment with `arity`).
fn member_path(index: &TreeIndex, t: Eid, rest: &[String], arity: usize) -> Named {
    let mut cur = t;
    for (i, seg) in rest.iter().enumerate() {
        let a = if i + 1 == rest.len() { arity } else { 0 };
        match nested_type(index, cur, seg, a) {
            Some(next) => cur = next,
            None => return Named::Unknown,
        }
    }
    Named::InTree(cur)
}

/// A path read inside a namespace (`""` for the global one): namespaces as far
/// as they go, then a type and its nested types.
fn resolve_from_namespace(
    index: &TreeIndex,
    namespace: String,
    rest: &[String],
    arity: usize,
    from_global: bool,
) -> Named {
    let mut ns = namespace;
    for (i, seg) in rest.iter().enumerate() {
        let last = i + 1 == rest.len();
        let a = if last { arity } else { 0 };
        if let Some(t) = type_in_namespace(index, &ns, seg, a) {
            return member_path(index, t, &rest[i + 1..], arity);
        }
        let deeper = join(&ns, std::slice::from_ref(seg));
        if is_tree_namespace(index, &deeper) && !last {
            ns = deeper;
            continue;
        }
        if last && is_tree_namespace(index, &deeper) {
            return Named::Namespace(deeper);
        }
        // Neither a type nor a namespace of the tree.
        let full = join(&ns, &rest[i..]);
        if ns.is_empty() && !from_global {
            return Named::Unknown;
        }
        return if ns.is_empty() || may_hold_outside_types(index, &ns) {
            Named::Outside {
                fqn: full,
                via: Via::Qualified,
            }
        } else {
            Named::Unresolved
        };
    }
    if ns.is_empty() {
        Named::Unknown
    } else {
        Named::Namespace(ns)
    }
}

/// The longest prefix of `path` that names a type, and how many segments it took
/// (`Outer.Inner.Field` → Inner, 2). Used for receivers, where what follows the
/// type is a static field. An outside type takes the segments up to its first
/// capitalised one after a namespace prefix (`System.IO.File.Exists` → File).
pub fn type_prefix(index: &TreeIndex, site: Site, path: &[String]) -> (Named, usize) {
    let Some(first) = path.first() else {
        return (Named::Unknown, 0);
    };
    let (head, mut used) = if first == GLOBAL {
        (Named::Namespace(String::new()), 1)
    } else if let Some(p) = predefined(first) {
        (p, 1)
    } else if let Some(owner) = type_parameter_owner(index, site, first) {
        (
            Named::TypeParam {
                owner,
                name: first.clone(),
            },
            1,
        )
    } else {
        match simple_name_any_arity(index, site, first) {
            // `System.IO.File`: a namespace of the platform, not a type a using
            // directive might bring in.
            Named::Outside {
                via: Via::Using, ..
            }
            | Named::Unknown
                if path.len() > 1 && policy::is_platform_root(first) =>
            {
                return outside_prefix(path, 0);
            }
            named => (named, 1),
        }
    };
    match head {
        Named::InTree(t) => {
            let (t, more) = nested_prefix(index, t, &path[used..]);
            (Named::InTree(t), used + more)
        }
        Named::Namespace(mut ns) => {
            while used < path.len() {
                let seg = &path[used];
                if let Some(t) = type_any_arity(index, &ns, seg) {
                    let (t, more) = nested_prefix(index, t, &path[used + 1..]);
                    return (Named::InTree(t), used + 1 + more);
                }
                let deeper = join(&ns, std::slice::from_ref(seg));
                if is_tree_namespace(index, &deeper) {
                    ns = deeper;
                    used += 1;
                    continue;
                }
                if ns.is_empty() {
                    return outside_prefix(path, used);
                }
                if may_hold_outside_types(index, &ns) && starts_upper(seg) {
                    return (
                        Named::Outside {
                            fqn: join(&ns, std::slice::from_ref(seg)),
                            via: Via::Qualified,
                        },
                        used + 1,
                    );
                }
                return (Named::Unresolved, used + 1);
            }
            (Named::Namespace(ns), used)
        }
        Named::Unknown
            if path.len() > 1 && starts_upper(first) && policy::is_platform_root(first) =>
        {
            outside_prefix(path, 0)
        }
        other => (other, used),
    }
}

/// `System.IO.File.Exists`: an outside path is a namespace up to its first
/// segment the policy does not know as a namespace, which is the type.
fn outside_prefix(path: &[String], from: usize) -> (Named, usize) {
    let mut end = from;
    while end + 1 < path.len() && policy::is_platform_namespace(&path[..=end].join(".")) {
        end += 1;
    }
    (
        Named::Outside {
            fqn: path[..=end].join("."),
            via: Via::Qualified,
        },
        end + 1,
    )
}

/// A simple name as a receiver, where no type argument count is written
/// (`Foo<int>.Bar()` reads `Foo`): the non-generic type first, then generic ones.
fn simple_name_any_arity(index: &TreeIndex, site: Site, name: &str) -> Named {
    let plain = simple_name(index, site, name, 0);
    if matches!(plain, Named::Unknown | Named::Outside { .. }) {
        for arity in 1..4 {
            if let found @ Named::InTree(_) = simple_name(index, site, name, arity) {
                return found;
            }
        }
    }
    plain
}

fn type_any_arity(index: &TreeIndex, namespace: &str, name: &str) -> Option<Eid> {
    (0..4).find_map(|a| type_in_namespace(index, namespace, name, a))
}

/// Follow nested types as far as the path names them.
fn nested_prefix(index: &TreeIndex, t: Eid, rest: &[String]) -> (Eid, usize) {
    let mut cur = t;
    let mut used = 0;
    for seg in rest {
        match (0..4).find_map(|a| nested_type(index, cur, seg, a)) {
            Some(next) => {
                cur = next;
                used += 1;
            }
            None => break,
        }
    }
    (cur, used)
}

fn join(prefix: &str, rest: &[String]) -> String {
    let mut out = prefix.to_string();
    for seg in rest {
        if !out.is_empty() {
            out.push('.');
        }
        out.push_str(seg);
    }
    out
}

pub fn starts_upper(s: &str) -> bool {
    s.chars().next().is_some_and(char::is_uppercase)
}

/// A written type's declared arity (`Dictionary<K, V>` → 2).
pub fn arity_of(t: &TypeRef) -> usize {
    t.args.len()
}
