//! From the THIR's calls ([`crate::thir`]) and the crate's items ([`crate::rust_hir`])
//! to truth sites, for the rustc oracle.
//!
//! - **Site.** A call whose callee expression the source writes (syntax context 0,
//!   a file of the package — a macro's argument keeps context 0): named by the last
//!   segment of the callee expression as written (`b` of `a.b()`, `f` of `p::f::<T>()`,
//!   `cb` of `(self.cb)(x)`), at that token, its column converted from rustc's
//!   characters to bytes. A tuple struct's or a variant's construction written as a
//!   call (`Sq(2.0)`, `Shape::Dot(1)`, `Self(x)`, `Some(x)`) is a site named by what is
//!   written, with the struct or variant as its target (the engine reports such
//!   constructions as calls).
//! - **Target.** A function, inherent method or closure of the crate: its name line.
//!   A trait method whose `Self` the calling code leaves open (a type parameter, `dyn`,
//!   an opaque or projected type) is judged as the trait's declaration. A trait method
//!   on a concrete type is the crate's impl that applies ([`crate::rust_types`]): its
//!   method, or the trait's default body when the impl does not override it. A
//!   derive's methods are placed at the type they are derived for. Anything of another
//!   crate is `outside` with its definition path (`core::clone::Clone::clone`), std's
//!   impls for the crate's types included.
//! - **Set apart (implicit)**, at their own span or, for a macro of another crate,
//!   at the macro's call site: the calls an operator, an index or a deref makes
//!   (`operator`, `deref`; the source writes an operator, not a call, and the engine
//!   reports no site for one), and calls whose callee a macro expansion or a
//!   desugaring writes (`macro`, `question_mark`, `for_loop`, `await`).
//! - **Unjudged**: calls through a value (function pointers, `dyn Fn`, a closure
//!   parameter: `indirect_call`), a concrete `Self` for which the crate's impls do not
//!   decide (`impl_ambiguous`, `impl_not_found`), a callee written as a computation
//!   (`f()()`: `dynamic_callee`), a target with no position in the tree
//!   (`no_position`).

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;

use crate::rust_hir::{Hir, HirDef, HirImpl, HirTy, ItemKind};
use crate::rust_types::{select_impl, Selection, Ty};
use crate::rustc_dump::{parent_path, Def, DefId, LineCol, Span};
use crate::thir::{Callee, ThirAdt, ThirBody, ThirCall};
use crate::truth::{Position, TruthSite, TruthTarget};

/// The paths of the traits whose call is a call of a value (a closure, a function
/// pointer, `dyn Fn`).
const FN_TRAIT_METHODS: &[&str] = &[
    "core::ops::function::Fn::call",
    "core::ops::function::FnMut::call_mut",
    "core::ops::function::FnOnce::call_once",
    "core::ops::async_function::AsyncFn::async_call",
    "core::ops::async_function::AsyncFnMut::async_call_mut",
    "core::ops::async_function::AsyncFnOnce::async_call_once",
];

/// Desugarings by the callee they call: what the source writes instead of a call.
const DESUGARED: &[(&str, &str)] = &[
    ("core::ops::try_trait::Try::branch", "question_mark"),
    (
        "core::ops::try_trait::FromResidual::from_residual",
        "question_mark",
    ),
    (
        "core::iter::traits::collect::IntoIterator::into_iter",
        "for_loop",
    ),
    ("core::iter::traits::iterator::Iterator::next", "for_loop"),
    (
        "core::future::into_future::IntoFuture::into_future",
        "await",
    ),
    ("core::future::future::Future::poll", "await"),
];

/// What a truth says about one call.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Judgement {
    Targets(Vec<TruthTarget>),
    Unjudged(&'static str),
}

/// A source file of the tree, for names and byte columns.
struct SourceFile {
    text: String,
    /// Byte offset of each line's start.
    lines: Vec<usize>,
}

impl SourceFile {
    fn new(text: String) -> SourceFile {
        let mut lines = vec![0];
        lines.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        SourceFile { text, lines }
    }

    /// The byte offset of a rustc line and character column.
    fn offset(&self, at: LineCol) -> Option<usize> {
        let start = *self.lines.get(at.line.checked_sub(1)? as usize)?;
        let end = self
            .lines
            .get(at.line as usize)
            .copied()
            .unwrap_or(self.text.len());
        let line = &self.text[start..end];
        let chars = at.col.checked_sub(1)? as usize;
        let within = match line.char_indices().nth(chars) {
            Some((i, _)) => i,
            None if line.chars().count() == chars => line.len(),
            None => return None,
        };
        Some(start + within)
    }

    /// The 1-based line and byte column of a byte offset.
    fn line_col(&self, offset: usize) -> (u32, u32) {
        let line = self.lines.partition_point(|&s| s <= offset);
        let start = self.lines[line - 1];
        (line as u32, (offset - start) as u32 + 1)
    }

    fn slice(&self, span: &Span) -> Option<(usize, &str)> {
        let lo = self.offset(span.lo)?;
        let hi = self.offset(span.hi)?;
        (lo <= hi).then(|| (lo, &self.text[lo..hi]))
    }
}

/// A name written at a byte offset.
struct Written {
    name: String,
    line: u32,
    column: u32,
}

/// Builds the truth sites of one or more compilations of the tree.
pub struct ThirSites<'a> {
    root: &'a Path,
    files: HashMap<String, Option<SourceFile>>,
    sites: BTreeMap<(String, u32, u32, String), Merged>,
}

impl<'a> ThirSites<'a> {
    /// Sites of the tree at `root` (whose files the compiler saw at the same relative
    /// paths).
    pub fn new(root: &'a Path) -> ThirSites<'a> {
        ThirSites {
            root,
            files: HashMap::new(),
            sites: BTreeMap::new(),
        }
    }

    /// Adds the sites of one compilation: its crate's HIR items, those of the other
    /// crates of the tree it links (a test crate's library), and its THIR bodies.
    pub fn add(&mut self, hir: &Hir, others: &[&Hir], bodies: &[ThirBody]) {
        let closures: HashMap<DefId, Span> = bodies
            .iter()
            .flat_map(|b| b.closures.iter().cloned())
            .collect();
        let context = Context {
            hir,
            others,
            closures: &closures,
        };
        for body in bodies {
            let caller = self.caller(&context, &body.owner);
            for call in &body.calls {
                if let Some(site) = self.call_site(&context, call, &caller) {
                    self.insert(site);
                }
            }
            for adt in &body.constructions {
                if let Some(site) = self.construction_site(&context, adt, &caller) {
                    self.insert(site);
                }
            }
        }
    }

    /// The sites, one per (file, line, column, name), sorted.
    pub fn finish(self) -> Vec<TruthSite> {
        self.sites.into_values().map(Merged::finish).collect()
    }

    fn insert(&mut self, site: TruthSite) {
        let key = (
            site.file.clone(),
            site.line,
            site.column.unwrap_or(0),
            site.name.clone(),
        );
        self.sites.entry(key).or_default().add(site);
    }

    fn source(&mut self, file: &str) -> Option<&SourceFile> {
        let root = self.root;
        self.files
            .entry(file.to_string())
            .or_insert_with(|| {
                let relative = Path::new(file);
                let plain = relative
                    .components()
                    .all(|c| matches!(c, std::path::Component::Normal(_)));
                if !plain {
                    return None;
                }
                let bytes = std::fs::read(root.join(relative)).ok()?;
                Some(SourceFile::new(
                    String::from_utf8_lossy(&bytes).into_owned(),
                ))
            })
            .as_ref()
    }

    /// The tree's position of a span's start line, when its file is in the tree.
    fn position(&mut self, span: &Span) -> Option<Position> {
        if !span.in_package() {
            return None;
        }
        self.source(&span.file)?;
        Some(Position {
            file: span.file.clone(),
            line: span.lo.line,
        })
    }

    /// The line of a definition's name in the tree (`hir` is its crate).
    fn def_position(&mut self, hir: &Hir, def: &HirDef) -> Option<Position> {
        let span = def.name.as_ref()?;
        if span.root {
            return self.position(span);
        }
        // A macro wrote the name. A derive's methods are placed at the type they are
        // derived for; another macro's items where its expansion puts them.
        if def.kind == ItemKind::ImplFn {
            let derived_for = hir.impl_of_item(def).and_then(|imp| match &imp.self_ty {
                HirTy::Adt { def: adt, .. } if adt.krate == 0 => hir.def(*adt),
                _ => None,
            });
            if let Some(ty) = derived_for {
                if let Some(ty_span) = ty.name.as_ref().filter(|s| s.root) {
                    return self.position(&ty_span.clone());
                }
            }
        }
        self.position(span)
    }

    fn target(&mut self, hir: &Hir, def: &HirDef) -> Judgement {
        match self.def_position(hir, def) {
            Some(p) => in_tree(p),
            None => Judgement::Unjudged("no_position"),
        }
    }

    fn closure_target(&mut self, cx: &Context<'_>, id: DefId) -> Judgement {
        let position = cx
            .closures
            .get(&id)
            .cloned()
            .and_then(|s| self.position(&s));
        match position {
            Some(p) => in_tree(p),
            None => Judgement::Unjudged("no_position"),
        }
    }

    /// The declaration containing a body: a closure's `|`, else the item's name.
    fn caller(&mut self, cx: &Context<'_>, owner: &Def) -> Option<Position> {
        if let Some(span) = cx.closures.get(&owner.id) {
            return self.position(span);
        }
        if let Some(def) = cx.hir.def(owner.id) {
            return self.def_position(cx.hir, def);
        }
        // An anonymous constant or another body without an item of its own: the item
        // around it.
        let mut path = cx.hir.local_path(&owner.path)?.to_string();
        for _ in 0..64 {
            path = parent_path(&path).to_string();
            if path.is_empty() {
                return None;
            }
            if let Some(def) = cx.hir.at_path(&path).next() {
                return self.def_position(cx.hir, def);
            }
        }
        None
    }

    fn call_site(
        &mut self,
        cx: &Context<'_>,
        call: &ThirCall,
        caller: &Option<Position>,
    ) -> Option<TruthSite> {
        let callee_path = match &call.callee {
            Callee::FnDef { def, .. } => def.path.as_str(),
            Callee::Value(_) => "",
        };
        if call.overloaded {
            let class = if callee_path.starts_with("core::ops::deref::") {
                "deref"
            } else {
                "operator"
            };
            let span = call.fn_span.as_ref().or(call.fun_span.as_ref());
            return self.implicit_site(span, call, caller, class);
        }
        let name_span = call.fun_span.as_ref().or(call.fn_span.as_ref())?;
        if !name_span.root {
            let class = DESUGARED
                .iter()
                .find(|(path, _)| *path == callee_path)
                .map_or("macro", |(_, class)| class);
            return self.implicit_site(Some(name_span), call, caller, class);
        }
        let file = name_span.file.clone();
        let written = self.written_callee(name_span);
        let judgement = match &written {
            Some(_) => self.judge_call(cx, &call.callee),
            None => Judgement::Unjudged("dynamic_callee"),
        };
        let written = match written {
            Some(w) => w,
            None => {
                let (line, column) = self.byte_position(name_span)?;
                Written {
                    name: "(call)".into(),
                    line,
                    column,
                }
            }
        };
        Some(site_of(file, written, caller.clone(), judgement))
    }

    /// An implicit site named by its callee, at `span` when the tree writes it, else
    /// at the call's anchor (a macro's call site).
    fn implicit_site(
        &mut self,
        span: Option<&Span>,
        call: &ThirCall,
        caller: &Option<Position>,
        class: &str,
    ) -> Option<TruthSite> {
        let at = span
            .filter(|s| s.in_package())
            .or(call.anchor.as_ref())?
            .clone();
        let (line, column) = self.byte_position(&at)?;
        // `helps#1`: a name a generated item shares, disambiguated.
        let name = match &call.callee {
            Callee::FnDef { def, .. } => def.name().split('#').next().unwrap_or("").to_string(),
            Callee::Value(_) => "(call)".to_string(),
        };
        Some(TruthSite {
            file: at.file.clone(),
            line,
            column: Some(column),
            caller: caller.clone(),
            name,
            targets: vec![],
            unjudged: None,
            implicit: Some(class.to_string()),
            expect: None,
            primary: false,
        })
    }

    fn byte_position(&mut self, span: &Span) -> Option<(u32, u32)> {
        let source = self.source(&span.file)?;
        let offset = source.offset(span.lo)?;
        Some(source.line_col(offset))
    }

    /// The callee's name as written in its span: the last path segment or member
    /// name, when nothing but a turbofish and closing parentheses follows it.
    fn written_callee(&mut self, span: &Span) -> Option<Written> {
        let source = self.source(&span.file)?;
        let (start, text) = source.slice(span)?;
        let (at, name) = last_name_in_callee(text)?;
        let (line, column) = source.line_col(start + at);
        Some(Written {
            name: name.to_string(),
            line,
            column,
        })
    }

    fn judge_call(&mut self, cx: &Context<'_>, callee: &Callee) -> Judgement {
        let Callee::FnDef { def, args } = callee else {
            return Judgement::Unjudged("indirect_call");
        };
        let args: Vec<Ty> = args.iter().map(|a| Ty::parse(a)).collect();
        if FN_TRAIT_METHODS.contains(&def.path.as_str()) {
            return self.judge_value_call(cx, &args);
        }
        if let Some((hir, tree_def)) = cx.tree_def(def) {
            if tree_def.kind == ItemKind::TraitFn {
                return self.judge_tree_trait_method(cx, def, hir, tree_def, &args);
            }
            return self.target(hir, tree_def);
        }
        if cx.in_tree_crate(def) {
            // A definition of the tree that neither dump places.
            return Judgement::Unjudged("no_position");
        }
        let trait_path = def.parent_path();
        if !cx.implements(trait_path) {
            return outside(&def.path);
        }
        match args.first() {
            Some(self_ty) if !self_ty.is_abstract() => {}
            _ => return outside(&def.path),
        }
        let selection = select_impl(&cx.crates(), trait_path, &args, false);
        // Not overridden, or no impl of the tree: a body of the trait's own crate.
        self.judge_selection(selection, &def.path, || outside(&def.path))
    }

    /// The method a selection runs: the chosen impl's, else `fallback` (the trait's
    /// default body, or what no impl of the tree means); where the selection is
    /// ambiguous, the answer every possibility agrees on, if there is one.
    fn judge_selection(
        &mut self,
        selection: Selection<'_>,
        item_path: &str,
        fallback: impl Fn() -> Judgement,
    ) -> Judgement {
        let of_impl =
            |this: &mut Self, hir: &Hir, imp: &HirImpl| match impl_item(hir, imp, item_path) {
                Some(item) => this.target(hir, item),
                None => fallback(),
            };
        match selection {
            Selection::Impl(hir, imp) => of_impl(self, hir, imp),
            Selection::NoLocalImpl => fallback(),
            Selection::Ambiguous {
                candidates,
                none_possible,
            } => {
                let mut answers: Vec<Judgement> = candidates
                    .iter()
                    .map(|(hir, imp)| of_impl(self, hir, imp))
                    .collect();
                if none_possible {
                    answers.push(fallback());
                }
                match answers.first() {
                    Some(one)
                        if answers.iter().all(|a| a == one)
                            && !matches!(one, Judgement::Unjudged(_)) =>
                    {
                        one.clone()
                    }
                    _ => Judgement::Unjudged("impl_ambiguous"),
                }
            }
        }
    }

    /// A method of a trait of the tree: the trait's declaration when `Self` is left
    /// open, else the method of the impl that applies (or the trait's default body).
    fn judge_tree_trait_method(
        &mut self,
        cx: &Context<'_>,
        def: &Def,
        hir: &Hir,
        declaration: &HirDef,
        args: &[Ty],
    ) -> Judgement {
        match args.first() {
            Some(self_ty) if !self_ty.is_abstract() => {}
            // Through a generic bound or `dyn`: the trait's declaration.
            _ => return self.target(hir, declaration),
        }
        let selection = select_impl(&cx.crates(), def.parent_path(), args, true);
        if matches!(selection, Selection::NoLocalImpl) {
            return Judgement::Unjudged("impl_not_found");
        }
        // Not overridden: the trait's default body.
        let default = self.target(hir, declaration);
        self.judge_selection(selection, &def.path, || default.clone())
    }

    /// `f(x)` where `f` is a value: a closure of the crate (its type says which), a
    /// function item, or something only a run can tell.
    fn judge_value_call(&mut self, cx: &Context<'_>, args: &[Ty]) -> Judgement {
        match args.first().map(Ty::without_refs) {
            Some(Ty::Closure(def)) if def.id.krate == 0 => self.closure_target(cx, def.id),
            Some(Ty::FnDef(def)) => match cx.tree_def(def) {
                Some((hir, d)) => self.target(hir, d),
                None if cx.in_tree_crate(def) => Judgement::Unjudged("no_position"),
                None => outside(&def.path),
            },
            _ => Judgement::Unjudged("indirect_call"),
        }
    }

    fn construction_site(
        &mut self,
        cx: &Context<'_>,
        adt: &ThirAdt,
        caller: &Option<Position>,
    ) -> Option<TruthSite> {
        if !adt.span.root || !adt.span.in_package() {
            return None;
        }
        let written = {
            let source = self.source(&adt.span.file)?;
            let (start, text) = source.slice(&adt.span)?;
            let (at, name) = constructor_called(text)?;
            let (line, column) = source.line_col(start + at);
            Written {
                name: name.to_string(),
                line,
                column,
            }
        };
        let judgement = match cx.tree_type(&adt.adt) {
            Some((hir, def)) if def.kind == ItemKind::Enum => {
                match def.variants.get(adt.variant).and_then(|v| hir.def(*v)) {
                    Some(variant) => self.target(hir, variant),
                    None => Judgement::Unjudged("no_position"),
                }
            }
            Some((hir, def)) => self.target(hir, def),
            // A type of another crate of the tree named by a path the dumps do not
            // map back.
            None if cx.other_crate(&adt.adt).is_some() => Judgement::Unjudged("no_position"),
            None => outside(&format!("{}::{}", adt.adt, written.name)),
        };
        Some(site_of(
            adt.span.file.clone(),
            written,
            caller.clone(),
            judgement,
        ))
    }
}

/// One compilation: its crate, the other crates of the tree it links, the closures
/// its bodies create.
struct Context<'c> {
    hir: &'c Hir,
    others: &'c [&'c Hir],
    closures: &'c HashMap<DefId, Span>,
}

impl<'c> Context<'c> {
    /// Every crate of the tree this compilation sees, the compiled one first.
    fn crates(&self) -> Vec<(&'c Hir, bool)> {
        let mut all = vec![(self.hir, true)];
        all.extend(self.others.iter().map(|h| (*h, false)));
        all
    }

    /// The crate of the tree a path of another crate belongs to.
    fn other_crate(&self, path: &str) -> Option<&'c Hir> {
        let first = path.split("::").next()?;
        self.others.iter().copied().find(|h| h.crate_name == first)
    }

    /// Whether a definition belongs to one of the tree's crates, the compiled one
    /// included.
    fn in_tree_crate(&self, def: &Def) -> bool {
        def.id.krate == 0 || self.other_crate(&def.path).is_some()
    }

    /// The definition of the tree a callee's `DefId` names.
    fn tree_def(&self, def: &Def) -> Option<(&'c Hir, &'c HirDef)> {
        if def.id.krate == 0 {
            return self.hir.def(def.id).map(|d| (self.hir, d));
        }
        let hir = self.other_crate(&def.path)?;
        hir.same_def(def).map(|d| (hir, d))
    }

    /// A struct, enum or union of the tree by the path the THIR prints for it (the
    /// compiled crate's without its name; another crate's by its path there).
    fn tree_type(&self, printed: &str) -> Option<(&'c Hir, &'c HirDef)> {
        let is_type =
            |d: &&HirDef| matches!(d.kind, ItemKind::Struct | ItemKind::Enum | ItemKind::Union);
        if let Some(d) = self.hir.at_path(printed).find(is_type) {
            return Some((self.hir, d));
        }
        let hir = self.other_crate(printed)?;
        let rest = hir.local_path(printed)?;
        hir.at_path(rest).find(is_type).map(|d| (hir, d))
    }

    /// Whether any crate of the tree implements the trait at `path`.
    fn implements(&self, path: &str) -> bool {
        self.crates()
            .iter()
            .any(|(h, _)| h.impls_of(path).next().is_some())
    }
}

/// The item of `imp` that implements the trait item at `path`.
fn impl_item<'h>(hir: &'h Hir, imp: &HirImpl, path: &str) -> Option<&'h HirDef> {
    imp.items
        .iter()
        .filter_map(|i| hir.def(*i))
        .find(|d| d.trait_item.as_deref() == Some(path))
}

fn in_tree(p: Position) -> Judgement {
    Judgement::Targets(vec![TruthTarget::InTree {
        file: p.file,
        line: p.line,
    }])
}

fn outside(symbol: &str) -> Judgement {
    Judgement::Targets(vec![TruthTarget::Outside {
        symbol: symbol.to_string(),
    }])
}

fn site_of(file: String, w: Written, caller: Option<Position>, j: Judgement) -> TruthSite {
    let (targets, unjudged) = match j {
        Judgement::Targets(t) => (t, None),
        Judgement::Unjudged(reason) => (vec![], Some(reason.to_string())),
    };
    TruthSite {
        file,
        line: w.line,
        column: Some(w.column),
        caller,
        name: w.name,
        targets,
        unjudged,
        implicit: None,
        expect: None,
        primary: false,
    }
}

fn is_ident_start(c: char) -> bool {
    c.is_alphabetic() || c == '_'
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The byte offset just past the `<…>` that starts at `at` (which holds `<`).
fn past_angles(text: &str, at: usize) -> Option<usize> {
    let b = text.as_bytes();
    let mut depth = 0i32;
    let mut i = at;
    while i < b.len() {
        match b[i] {
            b'-' if b.get(i + 1) == Some(&b'>') => i += 1,
            b'<' => depth += 1,
            b'>' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// The last name of a callee expression as written (`a::b::<T>` → `b`,
/// `(self.cb)` → `cb`, `<T as Tr>::f` → `f`), with its byte offset; `None` when
/// the callee is a computation (`f()`, `xs[0]`, a closure written in place).
fn last_name_in_callee(text: &str) -> Option<(usize, &str)> {
    let mut last: Option<(usize, usize)> = None;
    let mut i = 0;
    while i < text.len() {
        let c = text[i..].chars().next()?;
        if c == '<' && (i == 0 || text[..i].trim_end().ends_with("::")) {
            i = past_angles(text, i)?;
            continue;
        }
        if is_ident_start(c) {
            let (start, end) = identifier_at(text, i);
            last = Some((start, end));
            i = end;
            continue;
        }
        if !(matches!(c, ':' | '.' | '(' | ')' | '&' | '*') || c.is_whitespace()) {
            return None;
        }
        i += c.len_utf8();
    }
    let (start, end) = last?;
    let mut tail = text[end..].trim_start();
    if let Some(rest) = tail.strip_prefix("::") {
        let rest = rest.trim_start();
        if rest.starts_with('<') {
            let at = text.len() - rest.len();
            tail = text[past_angles(text, at)?..].trim_start();
        }
    }
    let only_closing = tail.chars().all(|c| c == ')' || c.is_whitespace());
    only_closing.then(|| (start, &text[start..end]))
}

/// The identifier starting at byte `at` (`r#type` is the name `type`): its byte range.
fn identifier_at(text: &str, at: usize) -> (usize, usize) {
    let end_of = |from: usize| {
        text[from..]
            .char_indices()
            .find(|(_, ch)| !is_ident(*ch))
            .map_or(text.len(), |(k, _)| from + k)
    };
    let end = end_of(at);
    if &text[at..end] == "r" && text[end..].starts_with('#') {
        return (end + 1, end_of(end + 1));
    }
    (at, end)
}

/// A construction written as a call (`Sq(2.0)`, `Shape::Dot(1)`, `Self(x)`): the
/// last segment of the path before the `(`, with its byte offset. A struct literal
/// (`P { a }`), a unit value (`None`) or a path with a qualified self is not one.
fn constructor_called(text: &str) -> Option<(usize, &str)> {
    let b = text.as_bytes();
    let mut i = 0;
    let mut last;
    loop {
        let c = text[i..].chars().next()?;
        if !is_ident_start(c) {
            return None;
        }
        let start = i;
        while i < text.len() {
            let ch = text[i..].chars().next()?;
            if !is_ident(ch) {
                break;
            }
            i += ch.len_utf8();
        }
        last = Some((start, &text[start..i]));
        let mut j = i;
        while b.get(j) == Some(&b' ') {
            j += 1;
        }
        if text[j..].starts_with("::<") {
            j = past_angles(text, j + 2)?;
            while b.get(j) == Some(&b' ') {
                j += 1;
            }
        }
        if text[j..].starts_with("::") {
            i = j + 2;
            while b.get(i) == Some(&b' ') {
                i += 1;
            }
            continue;
        }
        if b.get(j) == Some(&b'(') {
            return last;
        }
        return None;
    }
}

#[derive(Default)]
struct Merged {
    site: Option<TruthSite>,
    targets: BTreeSet<TruthTarget>,
    judged: bool,
    unjudged: Option<String>,
    implicit: Option<String>,
}

impl Merged {
    fn add(&mut self, site: TruthSite) {
        if site.unjudged.is_some() && self.unjudged.is_none() {
            self.unjudged = site.unjudged.clone();
        }
        if site.implicit.is_some() && self.implicit.is_none() {
            self.implicit = site.implicit.clone();
        }
        if site.is_judged() {
            self.judged = true;
            self.targets.extend(site.targets.iter().cloned());
        }
        if self.site.is_none() {
            self.site = Some(site);
        }
    }

    /// One site per key: an unjudged record makes it unjudged (a compilation could
    /// not say), else judged records win over implicit ones, and the targets of
    /// every compilation are acceptable.
    fn finish(self) -> TruthSite {
        let mut site = self.site.expect("a merged site has one record");
        site.unjudged = self.unjudged;
        site.targets = self.targets.into_iter().collect();
        site.implicit = if self.judged || site.unjudged.is_some() {
            None
        } else {
            self.implicit
        };
        if site.unjudged.is_some() {
            site.targets.clear();
        }
        site
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_callee_is_named_by_its_last_segment() {
        assert_eq!(last_name_in_callee("area"), Some((0, "area")));
        assert_eq!(last_name_in_callee("Counter::new"), Some((9, "new")));
        assert_eq!(
            last_name_in_callee("util::generic::<Sq>"),
            Some((6, "generic"))
        );
        assert_eq!(last_name_in_callee("<T as Tr>::f"), Some((11, "f")));
        assert_eq!(last_name_in_callee("(self.cb)"), Some((6, "cb")));
        assert_eq!(last_name_in_callee("crate::a::f"), Some((10, "f")));
        assert_eq!(last_name_in_callee("f()"), None);
        assert_eq!(last_name_in_callee("xs[0]"), None);
    }

    #[test]
    fn a_construction_is_named_by_what_is_called() {
        assert_eq!(constructor_called("Sq(2.0)"), Some((0, "Sq")));
        assert_eq!(constructor_called("Shape::Dot(1)"), Some((7, "Dot")));
        assert_eq!(constructor_called("Self(x)"), Some((0, "Self")));
        assert_eq!(constructor_called("Wrap::<u8>(1)"), Some((0, "Wrap")));
        assert_eq!(constructor_called("P { a }"), None);
        assert_eq!(constructor_called("None"), None);
    }

    #[test]
    fn columns_are_bytes() {
        let file = SourceFile::new("fn é() {}\nlet x = «é».len();\n".into());
        let at = file.offset(LineCol { line: 2, col: 13 }).unwrap();
        assert_eq!(&file.text[at..at + 3], "len");
        assert_eq!(file.line_col(at), (2, 16));
    }
}
