//! What the class-based frontends (Java, C#, Kotlin) write the same way: the
//! walk's bookkeeping of scopes, bindings and declarations ([`FactsWalk`]), a
//! type's direct bases as the tree places them ([`direct_bases`]), and an edge
//! out of the tree by how the outside type's name was bound ([`outside_through`]).
//! One piece of code each, so the three languages cannot drift apart on them.

use crate::facts::{
    Binding, BindingValue, Decl, DeclIdx, FileFacts, Scope, ScopeIdx, ScopeKind, TypeRef,
};
use crate::index::{Eid, TreeIndex};
use crate::resolve::family::{Family, OutsideKind};
use crate::resolve::{Decision, Placement};

/// A frontend's walk that writes scopes, bindings and declarations into one
/// file's facts while it knows the current scope and the innermost declaration.
/// The walk gives access to those three; the bookkeeping is written here once.
pub trait FactsWalk {
    fn facts(&self) -> &FileFacts;
    fn facts_mut(&mut self) -> &mut FileFacts;
    /// The scope names bind in now.
    fn scope(&self) -> ScopeIdx;
    fn set_scope(&mut self, scope: ScopeIdx);
    /// The innermost declaration: the caller of the calls met now.
    fn owner(&self) -> Option<DeclIdx>;

    /// A new scope inside the current one.
    fn push_scope(&mut self, kind: ScopeKind, owner: Option<DeclIdx>) -> ScopeIdx {
        let parent = self.scope();
        let scopes = &mut self.facts_mut().scopes;
        scopes.push(Scope::new(kind, Some(parent), owner));
        (scopes.len() - 1) as ScopeIdx
    }

    /// Runs `f` inside a new block scope of the current owner, then returns to the
    /// scope it started in.
    fn in_block_scope(&mut self, f: impl FnOnce(&mut Self))
    where
        Self: Sized,
    {
        let saved = self.scope();
        let block = self.push_scope(ScopeKind::Block, self.owner());
        self.set_scope(block);
        f(self);
        self.set_scope(saved);
    }

    /// Binds `name` in the current scope from `line` on.
    fn bind(&mut self, name: &str, line: u32, value: BindingValue) {
        let scope = self.scope() as usize;
        self.facts_mut().scopes[scope].bindings.push(Binding {
            name: name.to_string(),
            line,
            value,
        });
    }

    fn push_decl(&mut self, decl: Decl) -> DeclIdx {
        let decls = &mut self.facts_mut().decls;
        decls.push(decl);
        (decls.len() - 1) as DeclIdx
    }

    /// The type declaration whose body is being walked (members attach to it).
    fn current_type(&self) -> Option<DeclIdx> {
        self.owner()
            .filter(|&o| self.facts().decls[o as usize].kind.is_type())
    }
}

/// [`FactsWalk`] for a walk whose struct holds the three as fields named `facts`
/// (`FileFacts`), `scope` (`ScopeIdx`) and `owner` (`Option<DeclIdx>`).
macro_rules! facts_walk {
    ($walk:ty) => {
        impl $crate::lang::classes::FactsWalk for $walk {
            fn facts(&self) -> &$crate::facts::FileFacts {
                &self.facts
            }

            fn facts_mut(&mut self) -> &mut $crate::facts::FileFacts {
                &mut self.facts
            }

            fn scope(&self) -> $crate::facts::ScopeIdx {
                self.scope
            }

            fn set_scope(&mut self, scope: $crate::facts::ScopeIdx) {
                self.scope = scope;
            }

            fn owner(&self) -> Option<$crate::facts::DeclIdx> {
                self.owner
            }
        }
    };
}
pub(crate) use facts_walk;

/// The direct bases of `ty` that `place` finds in the tree, in written order, and
/// whether any base was left unplaced (outside the tree, unknown, or `ty` itself):
/// the resolver then knows the hierarchy above `ty` is incomplete.
pub fn direct_bases(
    index: &TreeIndex,
    ty: Eid,
    place: impl Fn(&TypeRef) -> Option<Eid>,
) -> (Vec<Eid>, bool) {
    let mut out = Vec::new();
    let mut unknown = false;
    for base in &index.decl(ty).bases {
        match place(base) {
            Some(b) if b != ty => out.push(b),
            _ => unknown = true,
        }
    }
    (out, unknown)
}

/// How an outside type's name was bound where the call names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoundBy {
    /// The language's own names (`java.lang`, C#'s predefined keywords).
    Builtin,
    /// An import or using directive.
    Import,
    /// Written qualified in full.
    Qualified,
}

/// An edge out of the tree through an outside type: a builtin name is a builtin;
/// otherwise the standard library or an external one (`stdlib`), in the family of
/// how the name was bound.
pub fn outside_through(how: BoundBy, stdlib: bool, symbol: String) -> Decision {
    let kind = if stdlib {
        OutsideKind::Stdlib
    } else {
        OutsideKind::External
    };
    let placement = match how {
        BoundBy::Builtin => Placement::outside(OutsideKind::Builtin, symbol, Family::Builtin),
        BoundBy::Import => Placement::outside(kind, symbol, Family::ExternalImport),
        BoundBy::Qualified => Placement::outside(kind, symbol, Family::ForeignType),
    };
    Decision::Place(placement)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::facts::DeclKind;
    use crate::lang::Language;

    struct Walk {
        facts: FileFacts,
        scope: ScopeIdx,
        owner: Option<DeclIdx>,
    }

    facts_walk!(Walk);

    fn walk() -> Walk {
        // A file's facts start with its module scope, 0.
        Walk {
            facts: FileFacts::new("A.java", Language::Java),
            scope: 0,
            owner: None,
        }
    }

    #[test]
    fn a_block_scope_binds_inside_and_the_walk_returns_to_where_it_was() {
        let mut w = walk();
        w.in_block_scope(|w| {
            assert_eq!(w.scope, 1);
            w.bind("x", 3, BindingValue::Opaque);
        });
        assert_eq!(w.scope, 0);
        assert_eq!(w.facts.scopes[1].parent, Some(0));
        assert_eq!(w.facts.scopes[1].bindings[0].name, "x");
        assert!(w.facts.scopes[0].bindings.is_empty());
    }

    #[test]
    fn the_current_type_is_the_owner_only_when_it_is_a_type() {
        let mut w = walk();
        assert_eq!(w.current_type(), None);
        let class = w.push_decl(Decl::new("C".into(), DeclKind::Class, None, 0, (1, 0), 9));
        w.owner = Some(class);
        assert_eq!(w.current_type(), Some(class));
        let method = w.push_decl(Decl::new(
            "m".into(),
            DeclKind::Method,
            Some(class),
            0,
            (2, 0),
            3,
        ));
        w.owner = Some(method);
        assert_eq!(w.current_type(), None);
    }

    #[test]
    fn an_outside_edge_takes_the_family_of_how_its_name_was_bound() {
        let family = |how, stdlib| match outside_through(how, stdlib, "T.m".into()) {
            Decision::Place(p) => (p.family(), p.target().clone()),
            other => panic!("{other:?}"),
        };
        assert_eq!(family(BoundBy::Builtin, false).0, Family::Builtin);
        assert_eq!(family(BoundBy::Import, true).0, Family::ExternalImport);
        assert_eq!(family(BoundBy::Qualified, false).0, Family::ForeignType);
        assert_ne!(
            family(BoundBy::Import, true).1,
            family(BoundBy::Import, false).1
        );
    }
}
