//! Members, fields and variables: what a name means inside a type's hierarchy or
//! at a point of a body. A type's members are its parts' members (a partial type
//! is one type); a type's ancestry carries the type arguments each base is
//! instantiated with (`class JArray : JContainer, IList<JToken>`), so a member
//! declared in a generic base is typed for the receiver. Every lookup is an index
//! hit or a walk over one type's parts, bases and ancestors (bounded), never over
//! the tree.

use crate::facts::{BindingValue, Call, DeclIdx, DeclKind, Field, ScopeKind};
use crate::fasthash::FastSet;
use crate::index::{Eid, TreeIndex};
use crate::lang::core::MAX_DEPTH;
use crate::lang::csharp::eval::{cstype, substitute, CsType};
use crate::lang::csharp::types::{canonical, parts, Site};
use crate::resolve::Cx;

/// Ancestors deeper than this are not followed (a cycle the source may write).
const MAX_ANCESTRY: usize = 64;

/// The type a declaration belongs to (canonical): a type is its own; a method,
/// accessor or lambda belongs to the nearest enclosing type.
pub fn own_type(index: &TreeIndex, file: u32, decl: DeclIdx) -> Option<Eid> {
    let eid = Eid { file, decl };
    let t = if index.decl(eid).kind.is_type() {
        Some(eid)
    } else {
        index.enclosing_type(eid)
    };
    t.map(|t| canonical(index, t))
}

/// The types lexically around a declaration, innermost first (canonical).
pub fn enclosing_types(index: &TreeIndex, file: u32, decl: DeclIdx) -> Vec<Eid> {
    let facts = index.file(file);
    let mut out = Vec::new();
    let mut cur = Some(decl);
    while let Some(d) = cur {
        let decl = &facts.decls[d as usize];
        if decl.kind.is_type() {
            out.push(canonical(index, Eid { file, decl: d }));
        }
        cur = decl.parent;
        if out.len() > 64 {
            break;
        }
    }
    out
}

/// A type seen from inside: instantiated with its own type parameters.
pub fn own_instance(index: &TreeIndex, ty: Eid) -> CsType {
    let args = index
        .decl(ty)
        .type_params
        .iter()
        .map(|p| CsType::TypeParam(ty, p.clone()))
        .collect();
    CsType::Class(ty, args)
}

/// A type and its ancestors in C#'s lookup order (the base class chain first,
/// then interfaces), each with the type arguments it is instantiated with, and
/// the outside bases met on the way.
#[derive(Debug, Clone, Default)]
pub struct Ancestry {
    pub types: Vec<(Eid, Vec<CsType>)>,
    /// Outside bases (their full names as written and their type arguments).
    pub outside: Vec<(String, Vec<CsType>)>,
    /// Some base could not be resolved at all.
    pub unknown: bool,
}

impl Ancestry {
    /// Whether every base the hierarchy writes is a type of the tree.
    pub fn closed(&self) -> bool {
        self.outside.is_empty() && !self.unknown
    }
}

pub fn ancestry(cx: &Cx, ty: Eid, args: &[CsType]) -> Ancestry {
    let mut out = Ancestry::default();
    let mut seen = FastSet::default();
    visit(
        cx.index,
        canonical(cx.index, ty),
        args.to_vec(),
        &mut seen,
        &mut out,
        0,
    );
    out
}

fn visit(
    index: &TreeIndex,
    ty: Eid,
    args: Vec<CsType>,
    seen: &mut FastSet<Eid>,
    out: &mut Ancestry,
    depth: usize,
) {
    if depth > MAX_ANCESTRY || !seen.insert(ty) {
        return;
    }
    let params: Vec<(Eid, String)> = index
        .decl(ty)
        .type_params
        .iter()
        .map(|p| (ty, p.clone()))
        .collect();
    out.types.push((ty, args.clone()));
    let mut bases = Vec::new();
    for part in parts(index, ty) {
        let site = Site::of_decl(index, part);
        for written in &index.decl(part).bases {
            bases.push(substitute(&cstype(index, site, written), &params, &args));
        }
    }
    for base in bases {
        match base {
            CsType::Class(b, bargs) if b != ty => visit(index, b, bargs, seen, out, depth + 1),
            CsType::Class(..) => {}
            CsType::Foreign(fqn, fargs) => out.outside.push((fqn, fargs)),
            _ => out.unknown = true,
        }
    }
}

/// The declarations named `name` on a type's parts.
pub fn members_named(index: &TreeIndex, ty: Eid, name: &str) -> Vec<Eid> {
    let mut out = Vec::new();
    for part in parts(index, ty) {
        out.extend_from_slice(index.members(part, name));
    }
    out
}

/// Whether a declaration is a method a call can name (not a property, accessor,
/// nested type or constructor).
pub fn is_method(index: &TreeIndex, m: Eid) -> bool {
    let decl = index.decl(m);
    decl.kind == DeclKind::Method && !decl.is_property
}

pub fn has_keyword(index: &TreeIndex, m: Eid, word: &str) -> bool {
    index
        .decl(m)
        .decorators
        .iter()
        .any(|d| d.path.len() == 1 && d.path[0] == word)
}

/// A type's constructors (instance ones; a static constructor is never called).
pub fn constructors(index: &TreeIndex, ty: Eid) -> Vec<Eid> {
    let name = &index.decl(ty).name;
    members_named(index, ty, name)
        .into_iter()
        .filter(|&m| {
            let d = index.decl(m);
            d.kind == DeclKind::Constructor && !d.is_static
        })
        .collect()
}

/// A field, property or event by name on a type or the first of its ancestors
/// that declares it: the part that declares it, the field, and the ancestor's
/// instantiation (to type a field written with the ancestor's type parameters).
pub struct FoundField<'a> {
    pub owner: Eid,
    pub field: &'a Field,
    pub params: Vec<(Eid, String)>,
    pub args: Vec<CsType>,
}

impl FoundField<'_> {
    /// The field's type for the receiver the ancestry was built from.
    pub fn ty(&self, index: &TreeIndex) -> Option<CsType> {
        let written = field_type(self.field)?;
        let t = cstype(index, Site::of_decl(index, self.owner), written);
        Some(substitute(&t, &self.params, &self.args))
    }
}

pub fn field<'a>(cx: &Cx<'a>, ancestry: &Ancestry, name: &str) -> Option<FoundField<'a>> {
    for (t, args) in &ancestry.types {
        for part in parts(cx.index, *t) {
            let decl = cx.index.decl(part);
            if let Some(f) = decl.fields.iter().find(|f| f.name == name) {
                let params = cx
                    .index
                    .decl(*t)
                    .type_params
                    .iter()
                    .map(|p| (*t, p.clone()))
                    .collect();
                return Some(FoundField {
                    owner: part,
                    field: f,
                    params,
                    args: args.clone(),
                });
            }
        }
    }
    None
}

/// The written type of a field, or the type its initializer constructs.
pub fn field_type(field: &Field) -> Option<&crate::facts::TypeRef> {
    match (&field.ty, &field.value) {
        (Some(t), _) => Some(t),
        (None, Some(crate::facts::ValueExpr::New(t))) => Some(t),
        _ => None,
    }
}

/// What a simple name means as a value at a point of a body.
pub enum Var<'a> {
    /// A parameter or local (its binding).
    Local(&'a BindingValue),
    /// A field, property or event of an enclosing type (or of an ancestor).
    Field(FoundField<'a>),
}

/// Walk the scopes out from `site`: locals and parameters (the nearest write
/// before the line), then at each type body the fields and properties of that
/// type and its ancestors.
pub fn variable<'a>(cx: &Cx<'a>, site: Site, name: &str) -> Option<Var<'a>> {
    let index = cx.index;
    let facts = index.file(site.file);
    let mut cur = site.scope;
    let mut guard = 0;
    while let Some(s) = cur {
        let scope = &facts.scopes[s as usize];
        match scope.kind {
            ScopeKind::Class => {
                if let Some(owner) = scope.owner {
                    let own = canonical(
                        index,
                        Eid {
                            file: site.file,
                            decl: owner,
                        },
                    );
                    let CsType::Class(t, args) = own_instance(index, own) else {
                        unreachable!("own_instance is a class")
                    };
                    if let Some(f) = field(cx, &ancestry(cx, t, &args), name) {
                        return Some(Var::Field(f));
                    }
                }
            }
            _ => {
                let found = scope
                    .named(name)
                    .rev()
                    .find(|b| b.line <= site.line && !matches!(b.value, BindingValue::Decl(_)));
                if let Some(b) = found {
                    return Some(Var::Local(&b.value));
                }
            }
        }
        cur = scope.parent;
        guard += 1;
        if guard > 512 {
            break;
        }
    }
    None
}

/// A local function (or a type) bound by name in a scope around the site.
pub fn local_function(index: &TreeIndex, site: Site, name: &str) -> Option<Eid> {
    let facts = index.file(site.file);
    let mut cur = site.scope;
    let mut guard = 0;
    while let Some(s) = cur {
        let scope = &facts.scopes[s as usize];
        if scope.kind == ScopeKind::Class {
            return None;
        }
        for b in scope.named(name).rev() {
            if let BindingValue::Decl(d) = b.value {
                if facts.decls[d as usize].kind.is_callable() {
                    return Some(Eid {
                        file: site.file,
                        decl: d,
                    });
                }
            }
        }
        cur = scope.parent;
        guard += 1;
        if guard > 512 {
            break;
        }
    }
    None
}

/// A `private` member is a candidate only inside the type that declares it or
/// a type nested in it (spec §7.5.3: inaccessible members are no candidates).
pub fn accessible_from(index: &TreeIndex, file: u32, call: &Call, m: Eid) -> bool {
    if !has_keyword(index, m, "private") {
        return true;
    }
    let (Some(owner), Some(caller)) = (index.enclosing_type(m), call.caller) else {
        return true;
    };
    let owner = canonical(index, owner);
    let mut cur = Some(Eid { file, decl: caller });
    for _ in 0..MAX_DEPTH {
        let Some(c) = cur else { break };
        let decl = index.decl(c);
        if decl.kind.is_type() && canonical(index, c) == owner {
            return true;
        }
        cur = index.enclosing_type(c);
    }
    false
}
