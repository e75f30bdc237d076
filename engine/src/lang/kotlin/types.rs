//! What a written Kotlin type name denotes where it is written: a type parameter,
//! a local class, a nested type of an enclosing class (or of its bases), a type of
//! the file, an explicit import (alias included), a type of the same package, a
//! star import, a default import (`kotlin.*`, `kotlin.collections.*`, …), or a
//! type outside the tree. Every step is an index lookup.

use crate::facts::{BindingValue, DeclIdx, FileFacts, ImportKind, ScopeIdx, TypeRef};
use crate::index::{Eid, TreeIndex};
use crate::lang::kotlin::policy;
use crate::resolve::Hierarchy;

/// Where a name is read: the file, the innermost declaration, the scope and line.
#[derive(Debug, Clone, Copy)]
pub struct Site {
    pub file: u32,
    pub decl: Option<DeclIdx>,
    pub scope: ScopeIdx,
    pub line: u32,
}

impl Site {
    /// Inside a declaration (its parameters and return type are read there).
    pub fn of_decl(index: &TreeIndex, eid: Eid) -> Site {
        let decl = index.decl(eid);
        Site {
            file: eid.file,
            decl: Some(eid.decl),
            scope: decl.body.unwrap_or(decl.scope),
            line: decl.line,
        }
    }
}

/// How an outside name was reached: it decides the family of an edge out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Via {
    /// A default import (`kotlin.String`).
    Default,
    /// An explicit or star import.
    Import,
    /// A fully qualified path.
    Qualified,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Named {
    Type(Eid),
    Outside {
        fqn: String,
        via: Via,
    },
    TypeParam,
    /// Several types of the tree answer.
    Ambiguous,
    Unknown,
}

/// The index and (once built) the hierarchy a name lookup reads.
#[derive(Clone, Copy)]
pub struct TypeCx<'a> {
    pub index: &'a TreeIndex<'a>,
    pub hierarchy: Option<&'a Hierarchy>,
}

pub fn package_of(file: &FileFacts) -> &str {
    file.module.first().map(String::as_str).unwrap_or("")
}

/// Whether the tree has a Kotlin (or Java) package of this dotted name.
pub fn package_in_tree(index: &TreeIndex, dotted: &str) -> bool {
    !index.java_package(dotted).is_empty()
}

/// The most segments a written type path may have for it to be looked up. Real
/// qualified names have a handful; a longer one (`a.a.a…` thousands deep, as a
/// damaged file can write) is an unknown type, not a lookup of every prefix, which
/// cost time quadratic in its length.
pub const MAX_TYPE_PATH_SEGMENTS: usize = 64;

/// The type a written path names at `site`.
pub fn resolve_type(tcx: TypeCx, site: Site, path: &[String]) -> Named {
    if path.len() > MAX_TYPE_PATH_SEGMENTS {
        return Named::Unknown;
    }
    let Some(first) = path.first() else {
        return Named::Unknown;
    };
    let head = resolve_simple(tcx, site, first);
    match (&head, path.len()) {
        (_, 1) => head,
        (Named::Type(t), _) => nested_path(tcx, *t, &path[1..]),
        (Named::Outside { fqn, via }, _) => Named::Outside {
            fqn: format!("{fqn}.{}", path[1..].join(".")),
            via: *via,
        },
        (Named::TypeParam, _) => Named::Unknown,
        _ => qualified(tcx, path),
    }
}

/// `Outer.Inner.Deeper` from `Outer`.
fn nested_path(tcx: TypeCx, mut ty: Eid, rest: &[String]) -> Named {
    for seg in rest {
        match member_type(tcx, ty, seg) {
            Some(t) => ty = t,
            None => return Named::Unknown,
        }
    }
    Named::Type(ty)
}

/// A type the path names in full (`a.b.C`, `a.b.C.D`), or outside when its
/// package is not the tree's.
fn qualified(tcx: TypeCx, path: &[String]) -> Named {
    // Every dotted prefix, written once: `ends[n - 1]` is where the first n end.
    let dotted = path.join(".");
    let ends: Vec<usize> = path
        .iter()
        .enumerate()
        .scan(0usize, |end, (i, seg)| {
            *end += seg.len() + usize::from(i > 0);
            Some(*end)
        })
        .collect();
    let prefix = |n: usize| &dotted[..ends[n - 1]];
    for n in (1..=path.len()).rev() {
        if let [t] = tcx.index.java_type(prefix(n)) {
            return nested_path(tcx, *t, &path[n..]);
        }
    }
    // A package prefix the tree has: the type should be there.
    let in_tree = (1..path.len()).any(|n| package_in_tree(tcx.index, prefix(n)));
    // An outside type written in full is a lowercase package then a capitalised
    // type (`java.util.UUID`); `value.property` is no type at all.
    let looks_qualified = path[0].chars().next().is_some_and(char::is_lowercase)
        && path
            .last()
            .and_then(|l| l.chars().next())
            .is_some_and(char::is_uppercase);
    if in_tree || !looks_qualified {
        return Named::Unknown;
    }
    Named::Outside {
        fqn: dotted,
        via: Via::Qualified,
    }
}

/// A nested type (class, object, companion) declared in `ty` or a type above it.
pub fn member_type(tcx: TypeCx, ty: Eid, name: &str) -> Option<Eid> {
    let order: Vec<Eid> = match tcx.hierarchy {
        Some(h) => h.depth_first(ty),
        None => vec![ty],
    };
    order.into_iter().find_map(|t| {
        tcx.index
            .members(t, name)
            .iter()
            .copied()
            .find(|&m| tcx.index.decl(m).kind.is_type())
    })
}

/// One name, looked up from the innermost scope out.
pub fn resolve_simple(tcx: TypeCx, site: Site, name: &str) -> Named {
    let index = tcx.index;
    let file = index.file(site.file);
    if is_type_param(index, site, name) {
        return Named::TypeParam;
    }
    if let Some(t) = local_type(index, site, name) {
        return Named::Type(t);
    }
    for t in enclosing_types(index, site.file, site.decl) {
        if index.decl(t).name == name && index.decl(t).parent.is_some() {
            return Named::Type(t);
        }
        if let Some(m) = member_type(tcx, t, name) {
            return Named::Type(m);
        }
    }
    let own: Vec<Eid> = index
        .top_level(site.file, name)
        .into_iter()
        .filter(|&e| index.decl(e).kind.is_type())
        .collect();
    if let [t] = own.as_slice() {
        return Named::Type(*t);
    }
    if let Some(found) = explicit_import(tcx, file, name) {
        return found;
    }
    let package = package_of(file);
    if let Some(found) = in_package(index, package, name) {
        return found;
    }
    let mut outside_stars = Vec::new();
    let mut found = Vec::new();
    for (path, star) in imports(file) {
        if !star {
            continue;
        }
        let dotted = path.join(".");
        if package_in_tree(index, &dotted) {
            if let Some(Named::Type(t)) = in_package(index, &dotted, name) {
                found.push(t);
            }
        } else if let [t] = index.java_type(&dotted) {
            // `import a.B.*`: B's nested types.
            if let Some(m) = member_type(tcx, *t, name) {
                found.push(m);
            }
        } else {
            outside_stars.push(dotted);
        }
    }
    found.dedup();
    match found.as_slice() {
        [t] => return Named::Type(*t),
        [_, ..] => return Named::Ambiguous,
        [] => {}
    }
    if let Some(package) = policy::default_type(name) {
        return Named::Outside {
            fqn: format!("{package}.{name}"),
            via: Via::Default,
        };
    }
    let upper = name.chars().next().is_some_and(char::is_uppercase);
    match outside_stars.as_slice() {
        [one] if upper => Named::Outside {
            fqn: format!("{one}.{name}"),
            via: Via::Import,
        },
        _ => Named::Unknown,
    }
}

/// A type of a package of the tree, by its simple name.
fn in_package(index: &TreeIndex, package: &str, name: &str) -> Option<Named> {
    let dotted = if package.is_empty() {
        name.to_string()
    } else {
        format!("{package}.{name}")
    };
    match index.java_type(&dotted) {
        [] => None,
        [t] => Some(Named::Type(*t)),
        _ => Some(Named::Ambiguous),
    }
}

/// `import a.b.C` / `import a.b.C as D` naming `name`.
fn explicit_import(tcx: TypeCx, file: &FileFacts, name: &str) -> Option<Named> {
    for import in &file.imports {
        let ImportKind::Kotlin {
            path,
            alias,
            star: false,
        } = &import.kind
        else {
            continue;
        };
        let bound = alias.as_deref().or(path.last().map(String::as_str));
        if bound != Some(name) {
            continue;
        }
        if path.len() > MAX_TYPE_PATH_SEGMENTS {
            // It binds the name, to nothing a lookup of its prefixes should pay for.
            return Some(Named::Unknown);
        }
        let dotted = path.join(".");
        match tcx.index.java_type(&dotted) {
            [t] => return Some(Named::Type(*t)),
            [_, ..] => return Some(Named::Ambiguous),
            [] => {}
        }
        // `import a.Outer.Inner` where Outer is the tree's.
        if path.len() > 1 {
            if let [outer] = tcx.index.java_type(&path[..path.len() - 1].join(".")) {
                if let Some(m) = member_type(tcx, *outer, &path[path.len() - 1]) {
                    return Some(Named::Type(m));
                }
            }
        }
        let package_known =
            (1..path.len()).any(|n| package_in_tree(tcx.index, &path[..n].join(".")));
        if package_known {
            // The import names a function or property of the tree, not a type.
            continue;
        }
        return Some(Named::Outside {
            fqn: dotted,
            via: Via::Import,
        });
    }
    None
}

/// The file's imports as (path, star).
pub fn imports(file: &FileFacts) -> impl Iterator<Item = (&Vec<String>, bool)> {
    file.imports.iter().filter_map(|i| match &i.kind {
        ImportKind::Kotlin { path, star, .. } => Some((path, *star)),
        _ => None,
    })
}

/// Whether `name` is a type parameter of the site's declaration or one around it.
fn is_type_param(index: &TreeIndex, site: Site, name: &str) -> bool {
    type_param_owner(index, site, name).is_some()
}

/// Whether `name` is a type parameter, of the site's declaration or one around
/// it, that is written with no bound (its bound is `Any?`).
pub fn is_unbounded_type_param(index: &TreeIndex, site: Site, name: &str) -> bool {
    type_param_owner(index, site, name).is_some_and(|decl| written_bounds(decl, name).is_empty())
}

/// The bounds a declaration writes for its type parameter `name` (none when it
/// writes none).
pub fn written_bounds<'d>(decl: &'d crate::facts::Decl, name: &str) -> &'d [TypeRef] {
    decl.type_param_bounds
        .iter()
        .find(|(n, _)| n == name)
        .map_or(&[], |(_, bounds)| bounds.as_slice())
}

/// The declaration, the site's or one around it, that introduces the type
/// parameter `name`.
fn type_param_owner<'i>(
    index: &'i TreeIndex,
    site: Site,
    name: &str,
) -> Option<&'i crate::facts::Decl> {
    let file = index.file(site.file);
    let mut cur = site.decl;
    let mut steps = 0;
    while let Some(d) = cur {
        let decl = &file.decls[d as usize];
        if decl.type_params.iter().any(|t| t == name) {
            return Some(decl);
        }
        cur = decl.parent;
        steps += 1;
        if steps > 256 {
            break;
        }
    }
    None
}

/// A class declared in a block around the site.
fn local_type(index: &TreeIndex, site: Site, name: &str) -> Option<Eid> {
    let file = index.file(site.file);
    let mut scope = Some(site.scope);
    let mut steps = 0;
    while let Some(s) = scope {
        let sc = &file.scopes[s as usize];
        for b in sc.named(name).rev() {
            if let BindingValue::Decl(d) = b.value {
                if file.decls[d as usize].kind.is_type() {
                    return Some(Eid {
                        file: site.file,
                        decl: d,
                    });
                }
            }
        }
        scope = sc.parent;
        steps += 1;
        if steps > 4096 {
            break;
        }
    }
    None
}

/// The type declarations around a declaration, innermost first.
pub fn enclosing_types(index: &TreeIndex, file: u32, decl: Option<DeclIdx>) -> Vec<Eid> {
    let facts = index.file(file);
    let mut out = Vec::new();
    let mut cur = decl;
    while let Some(d) = cur {
        if facts.decls[d as usize].kind.is_type() {
            out.push(Eid { file, decl: d });
        }
        cur = facts.decls[d as usize].parent;
        if out.len() > 256 {
            break;
        }
    }
    out
}

/// The decorator the frontend adds to a declaration `@Deprecated(level = HIDDEN)`:
/// no keyword, so no modifier is spelled so.
pub const HIDDEN: &str = "<hidden>";

/// Whether a declaration is deprecated with level `HIDDEN`: kotlinc resolves no
/// call to it (it stays in the binary for old callers), so it is no candidate.
pub fn is_hidden(decl: &crate::facts::Decl) -> bool {
    has_modifier(decl, HIDDEN)
}

/// Whether a declaration carries a keyword modifier (`private`, `companion`, …).
pub fn has_modifier(decl: &crate::facts::Decl, word: &str) -> bool {
    decl.decorators
        .iter()
        .any(|d| d.path.len() == 1 && d.path[0] == word)
}

/// A written type's first type argument as a type reference (`List<T>` → T).
pub fn first_arg(t: &TypeRef) -> Option<&TypeRef> {
    t.args.first()
}
