//! The crate's items as rustc's `-Zunpretty=hir-tree` prints them (one block per HIR
//! owner): for each local `DefId` its kind, name and the line of its name, and for
//! each `impl` its trait, its self type and its items. This is what maps a callee's
//! `DefId` in the THIR ([`crate::thir`]) to a declaration of the tree, and what picks
//! the impl a trait method called on a concrete type runs ([`crate::rust_types`]).
//!
//! A name's line is read from the compiler's spans, never searched for in the text:
//! an item's generic parameter list starts right after its name (rustc gives an
//! empty span there when no parameters are written), a variant's span starts at its
//! name. Code a macro generates keeps a span of another syntax context; a derive's
//! impl items are placed at the type they are derived for (the `#[derive]` writes
//! their bodies at that item, DECISIONS D20).

use std::collections::HashMap;

use crate::rustc_dump::{blocks, ident_name, parent_path, Def, DefId, Node, Span, Tree};

/// What a local definition is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ItemKind {
    Fn,
    Struct,
    Union,
    Enum,
    Variant,
    Trait,
    Impl,
    /// A function of an `impl` block.
    ImplFn,
    /// A function of a trait (`provided` tells whether it has a default body).
    TraitFn,
    Const,
    Static,
    Mod,
    Other,
}

/// One local definition.
#[derive(Debug, Clone)]
pub struct HirDef {
    pub id: DefId,
    /// Its path without the crate's name (`builder::arg::{impl#4}::get_id`).
    pub path: String,
    pub kind: ItemKind,
    pub ident: String,
    /// Where its name is: the file (relative to the package) and line, and whether a
    /// macro wrote it.
    pub name: Option<Span>,
    /// An impl item: the trait item it implements, by its path
    /// (`core::clone::Clone::clone`).
    pub trait_item: Option<String>,
    /// A trait function with a default body.
    pub provided: bool,
    /// An enum: its variants in order.
    pub variants: Vec<DefId>,
}

/// An `impl` block.
#[derive(Debug, Clone)]
pub struct HirImpl {
    pub id: DefId,
    /// The trait implemented and its written generic arguments (lifetimes left out).
    pub of_trait: Option<(DefId, Vec<HirTy>)>,
    pub self_ty: HirTy,
    /// The impl's type parameters, by name.
    pub params: Vec<String>,
    pub items: Vec<DefId>,
    /// A macro (a derive) wrote the impl.
    pub generated: bool,
}

/// A type as HIR writes it, as far as choosing an impl needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HirTy {
    /// A struct, enum or union, by its definition and path, with its written type
    /// arguments.
    Adt {
        def: DefId,
        path: String,
        args: Vec<HirTy>,
    },
    /// A type parameter of the impl.
    Param(String),
    /// `u32`, `str`, `bool` …
    Prim(String),
    Ref {
        mutable: bool,
        inner: Box<HirTy>,
    },
    Slice(Box<HirTy>),
    Array(Box<HirTy>),
    Tuple(Vec<HirTy>),
    /// Anything else (aliases, projections, `dyn`, function pointers): never
    /// compared.
    Unknown,
}

/// The crate's definitions and impls.
#[derive(Debug, Default)]
pub struct Hir {
    /// The crate's name as its paths begin.
    pub crate_name: String,
    defs: HashMap<DefId, HirDef>,
    pub impls: Vec<HirImpl>,
    impls_by_trait: HashMap<DefId, Vec<usize>>,
    impl_by_def: HashMap<DefId, usize>,
    by_path: HashMap<String, Vec<DefId>>,
    /// The traits the crate implements, by their paths (`core::clone::Clone`).
    traits_by_path: HashMap<String, DefId>,
}

impl Hir {
    /// Reads a `-Zunpretty=hir-tree` dump.
    pub fn parse(text: &str) -> Hir {
        let mut hir = Hir::default();
        for block in blocks(text) {
            let Some(owner) = Def::parse(block.header) else {
                continue;
            };
            if owner.id.krate != 0 {
                continue;
            }
            if hir.crate_name.is_empty() {
                hir.crate_name = owner.path.split("::").next().unwrap_or("").to_string();
            }
            // Only the owner's own node is read; its bodies (printed after it) are the
            // THIR's business.
            let node_part = block
                .body
                .split_once("\n    bodies: ")
                .map_or(block.body, |(n, _)| n);
            let tree = Tree::parse(node_part);
            let Some(node) = tree.root().field("node").and_then(|n| n.field("node")) else {
                continue;
            };
            hir.read_owner(&owner, node);
        }
        hir
    }

    /// The local definition `id`.
    pub fn def(&self, id: DefId) -> Option<&HirDef> {
        self.defs.get(&id)
    }

    /// The local definitions at a crate-relative path (`util::Sq`).
    pub fn at_path(&self, path: &str) -> impl Iterator<Item = &HirDef> {
        self.by_path
            .get(path)
            .into_iter()
            .flatten()
            .filter_map(|id| self.defs.get(id))
    }

    /// The crate's impl blocks of the trait at `path` (as a `DefId` prints it:
    /// `core::clone::Clone`, `regex::Replacer`).
    pub fn impls_of(&self, path: &str) -> impl Iterator<Item = &HirImpl> {
        self.traits_by_path
            .get(path)
            .and_then(|id| self.impls_by_trait.get(id))
            .into_iter()
            .flatten()
            .map(|&n| &self.impls[n])
    }

    /// The local definition at index `id.index` when it is the definition `def` of
    /// this crate as another compilation sees it (same index and path).
    pub fn same_def(&self, def: &Def) -> Option<&HirDef> {
        let local = self.local_path(&def.path)?;
        let found = self.defs.get(&DefId {
            krate: 0,
            index: def.id.index,
        })?;
        (found.path == local).then_some(found)
    }

    /// The impl block a local impl item belongs to.
    pub fn impl_of_item(&self, item: &HirDef) -> Option<&HirImpl> {
        let parent = parent_path(&item.path);
        self.at_path(parent)
            .find(|d| d.kind == ItemKind::Impl)
            .and_then(|d| self.impl_by_def.get(&d.id))
            .map(|&n| &self.impls[n])
    }

    /// The local definition whose path is `path` without the crate's name, when
    /// `path` is a path of this crate (`clap_builder::a::b` → `a::b`).
    pub fn local_path<'p>(&self, path: &'p str) -> Option<&'p str> {
        let rest = path.strip_prefix(self.crate_name.as_str())?;
        if rest.is_empty() {
            return Some("");
        }
        rest.strip_prefix("::")
    }

    fn add(&mut self, def: HirDef) {
        self.by_path
            .entry(def.path.clone())
            .or_default()
            .push(def.id);
        self.defs.insert(def.id, def);
    }

    fn relative(&self, owner: &Def) -> String {
        self.local_path(&owner.path)
            .unwrap_or(&owner.path)
            .to_string()
    }

    fn read_owner(&mut self, owner: &Def, node: Node<'_, '_>) {
        let inner = match node.inner() {
            Some(inner) => inner,
            None => return,
        };
        let path = self.relative(owner);
        match node.head() {
            "Item" => self.read_item(owner, path, inner),
            "ImplItem" => self.read_assoc(owner, path, inner, ItemKind::ImplFn),
            "TraitItem" => self.read_assoc(owner, path, inner, ItemKind::TraitFn),
            _ => {}
        }
    }

    fn read_item(&mut self, owner: &Def, path: String, item: Node<'_, '_>) {
        let Some(kind) = item.field("kind") else {
            return;
        };
        let span = item.leaf("span").and_then(Span::parse);
        let kind_name = kind.head();
        let ident = item_ident(kind).unwrap_or_default();
        let name = item_generics(kind)
            .and_then(|g| g.leaf("span"))
            .and_then(Span::parse)
            .or(span.clone());
        let item_kind = match kind_name {
            "Fn" => ItemKind::Fn,
            "Struct" => ItemKind::Struct,
            "Union" => ItemKind::Union,
            "Enum" => ItemKind::Enum,
            "Trait" => ItemKind::Trait,
            "Impl" => ItemKind::Impl,
            "Const" => ItemKind::Const,
            "Static" => ItemKind::Static,
            "Mod" => ItemKind::Mod,
            _ => ItemKind::Other,
        };
        let mut def = HirDef {
            id: owner.id,
            path: path.clone(),
            kind: item_kind,
            ident,
            name,
            trait_item: None,
            provided: false,
            variants: Vec::new(),
        };
        if item_kind == ItemKind::Enum {
            def.variants = self.read_variants(&path, kind);
        }
        if item_kind == ItemKind::Impl {
            if let Some(imp) = kind.inner() {
                let generated = span.as_ref().is_some_and(|s| !s.root);
                self.read_impl(owner.id, imp, generated);
            }
        }
        self.add(def);
    }

    fn read_variants(&mut self, enum_path: &str, kind: Node<'_, '_>) -> Vec<DefId> {
        let Some(list) = kind
            .child_headed("EnumDef")
            .and_then(|e| e.field("variants"))
        else {
            return Vec::new();
        };
        let mut ids = Vec::new();
        for variant in list.children() {
            let Some(def) = variant.leaf("def_id").and_then(Def::parse) else {
                continue;
            };
            let ident = variant
                .leaf("ident")
                .and_then(ident_name)
                .unwrap_or_default()
                .to_string();
            ids.push(def.id);
            self.add(HirDef {
                id: def.id,
                path: format!("{enum_path}::{ident}"),
                kind: ItemKind::Variant,
                ident,
                name: variant.leaf("span").and_then(Span::parse),
                trait_item: None,
                provided: false,
                variants: Vec::new(),
            });
        }
        ids
    }

    fn read_impl(&mut self, id: DefId, imp: Node<'_, '_>, generated: bool) {
        let params = imp
            .field("generics")
            .map(type_parameters)
            .unwrap_or_default();
        let self_ty = imp
            .field("self_ty")
            .map(|t| hir_ty(t, &params, None, 0))
            .unwrap_or(HirTy::Unknown);
        let of_trait = imp
            .field("of_trait")
            .and_then(|t| t.inner())
            .and_then(|header| header.field("trait_ref"))
            .and_then(|r| r.field("path"))
            .and_then(|path| {
                let trait_def = path.field("res").and_then(res_def)?.1;
                let args = last_segment_args(path, &params, Some(&self_ty));
                Some((trait_def, args))
            });
        let items = imp
            .field("items")
            .map(|list| {
                list.children()
                    .filter_map(|i| i.leaf("owner_id").and_then(Def::parse))
                    .map(|d| d.id)
                    .collect()
            })
            .unwrap_or_default();
        let n = self.impls.len();
        let of_trait = of_trait.map(|(def, args): (Def, Vec<HirTy>)| {
            self.impls_by_trait.entry(def.id).or_default().push(n);
            self.traits_by_path.insert(def.path, def.id);
            (def.id, args)
        });
        self.impl_by_def.insert(id, n);
        self.impls.push(HirImpl {
            id,
            of_trait,
            self_ty,
            params,
            items,
            generated,
        });
    }

    fn read_assoc(&mut self, owner: &Def, path: String, item: Node<'_, '_>, fn_kind: ItemKind) {
        let ident = item
            .leaf("ident")
            .and_then(ident_name)
            .unwrap_or_default()
            .to_string();
        let kind = item.field("kind");
        let is_fn = kind.is_some_and(|k| k.head() == "Fn");
        let provided = kind.is_some_and(|k| k.child_headed("Provided").is_some());
        let name = item
            .field("generics")
            .and_then(|g| g.leaf("span"))
            .and_then(Span::parse)
            .or_else(|| item.leaf("span").and_then(Span::parse));
        let trait_item = item
            .field("impl_kind")
            .and_then(|k| k.field("trait_item_def_id"))
            .and_then(|t| t.inner())
            .and_then(|d| Def::parse(d.value()))
            .map(|d| d.path);
        self.add(HirDef {
            id: owner.id,
            path,
            kind: if is_fn { fn_kind } else { ItemKind::Other },
            ident,
            name,
            trait_item,
            provided,
            variants: Vec::new(),
        });
    }
}

/// An item's name: its `ident` field, or the first child of its kind that is an
/// identifier (`Struct(Counter#0, Generics {…}, …)`).
fn item_ident(kind: Node<'_, '_>) -> Option<String> {
    if let Some(ident) = kind.leaf("ident").and_then(ident_name) {
        return Some(ident.to_string());
    }
    kind.children()
        .filter(|c| c.key().is_none())
        .find_map(|c| ident_name(c.value()))
        .map(str::to_string)
}

fn item_generics<'t, 'a>(kind: Node<'t, 'a>) -> Option<Node<'t, 'a>> {
    kind.field("generics")
        .or_else(|| kind.child_headed("Generics"))
}

/// The names of the type parameters a `Generics {…}` declares.
fn type_parameters(generics: Node<'_, '_>) -> Vec<String> {
    let Some(params) = generics.field("params") else {
        return Vec::new();
    };
    params
        .children()
        .filter(|p| p.field("kind").is_some_and(|k| k.head() == "Type"))
        .filter_map(|p| {
            let name = p.field("name")?;
            // `name: Plain(T#0)` (the pretty printer may keep it on one line).
            let text = if name.head() == "Plain" {
                name.inner()?.value().to_string()
            } else {
                name.value()
                    .strip_prefix("Plain(")?
                    .strip_suffix(')')?
                    .to_string()
            };
            ident_name(&text).map(str::to_string)
        })
        .collect()
}

/// `res: Def(Struct, DefId(…))` → (`Struct`, the definition).
fn res_def(res: Node<'_, '_>) -> Option<(String, Def)> {
    if res.head() != "Def" {
        return None;
    }
    let kind = res.child(0)?.value().to_string();
    let def = Def::parse(res.child(1)?.value())?;
    Some((kind, def))
}

/// The type arguments written on the last segment of a `Path {…}`.
fn last_segment_args(path: Node<'_, '_>, params: &[String], self_ty: Option<&HirTy>) -> Vec<HirTy> {
    let Some(segment) = path.field("segments").and_then(|s| s.children().last()) else {
        return Vec::new();
    };
    let Some(args) = segment
        .field("args")
        .and_then(|a| a.inner())
        .and_then(|g| g.field("args"))
    else {
        return Vec::new();
    };
    args.children()
        .filter(|a| a.head() == "Type")
        .filter_map(|a| a.inner())
        .map(|t| hir_ty(t, params, self_ty, 0))
        .collect()
}

/// A `Ty {…}` node as a [`HirTy`]; `self_ty` is what `Self` names (in a trait's
/// arguments).
fn hir_ty(ty: Node<'_, '_>, params: &[String], self_ty: Option<&HirTy>, depth: usize) -> HirTy {
    if depth > 32 {
        return HirTy::Unknown;
    }
    let Some(kind) = ty.field("kind") else {
        return HirTy::Unknown;
    };
    let deeper = |n: Node<'_, '_>| hir_ty(n, params, self_ty, depth + 1);
    match kind.head() {
        "Path" => {
            let Some(resolved) = kind.inner().filter(|r| r.head() == "Resolved") else {
                return HirTy::Unknown;
            };
            if resolved.child(0).map(|q| q.value()) != Some("None") {
                return HirTy::Unknown;
            }
            let Some(path) = resolved.child(1) else {
                return HirTy::Unknown;
            };
            let Some(res) = path.field("res") else {
                return HirTy::Unknown;
            };
            match res.head() {
                "PrimTy" => HirTy::Prim(primitive_name(res)),
                "SelfTyAlias" => self_ty.cloned().unwrap_or(HirTy::Unknown),
                "Def" => match res_def(res) {
                    Some((kind, def)) if matches!(kind.as_str(), "Struct" | "Enum" | "Union") => {
                        HirTy::Adt {
                            def: def.id,
                            path: def.path,
                            args: last_segment_args(path, params, self_ty),
                        }
                    }
                    Some((kind, def)) if kind == "TyParam" => {
                        let name = def.name().to_string();
                        if params.contains(&name) {
                            HirTy::Param(name)
                        } else {
                            HirTy::Unknown
                        }
                    }
                    _ => HirTy::Unknown,
                },
                _ => HirTy::Unknown,
            }
        }
        "Ref" => {
            let Some(mut_ty) = kind.child_headed("MutTy") else {
                return HirTy::Unknown;
            };
            let inner = mut_ty.field("ty").map(deeper).unwrap_or(HirTy::Unknown);
            HirTy::Ref {
                mutable: mut_ty.leaf("mutbl") == Some("Mut"),
                inner: Box::new(inner),
            }
        }
        "Slice" => HirTy::Slice(Box::new(kind.inner().map(deeper).unwrap_or(HirTy::Unknown))),
        "Array" => HirTy::Array(Box::new(kind.inner().map(deeper).unwrap_or(HirTy::Unknown))),
        "Tup" => {
            let elements = kind
                .inner()
                .map(|list| list.children().map(deeper).collect())
                .unwrap_or_default();
            HirTy::Tuple(elements)
        }
        _ => HirTy::Unknown,
    }
}

/// `PrimTy(Uint(u32))` → `u32`, `PrimTy(Str)` → `str`.
fn primitive_name(res: Node<'_, '_>) -> String {
    let mut node = res;
    for _ in 0..4 {
        match node.inner() {
            Some(inner) => node = inner,
            None => break,
        }
    }
    node.value().to_ascii_lowercase()
}
