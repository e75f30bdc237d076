//! Rust resolution: an ordered list of small rules, each reading one kind of
//! evidence the source writes. Names are looked up in the scopes of the call up
//! to the module's boundary (Rust items do not see outer modules without a
//! path), then through the module's glob imports, then the prelude. Paths walk
//! modules (`crate`, `self`, `super`, `mod` files, inline modules, `use`
//! re-exports) one segment at a time. A type's methods are the members of every
//! `impl` block whose self type resolves to it; a trait's default methods are
//! reached through the `impl Tr for T` blocks. Receivers are typed by what the
//! source writes: parameters, `let x: T`, `T::new()`'s declared return type,
//! struct fields, `for` over a typed collection, `?` / `unwrap` on `Option<T>` /
//! `Result<T, E>`. Every edge leaves through `Placement::in_tree` /
//! `Placement::outside` with its rule's family.

use crate::facts::{
    ArgShape, Binding, BindingValue, Call, Callee, DeclKind, ImportKind, Key, Receiver, ScopeIdx,
    ScopeKind, TypeRef, ValueExpr, ValueRef,
};
use crate::index::{Eid, TreeIndex};
use crate::lang::rust::policy;
use crate::resolve::family::{Family, OutsideKind, Reason};
use crate::resolve::Val;
use crate::resolve::{
    run_rules, Cx, Decision, Eval, Hierarchy, LanguageResolver, Placement, Resolution, Rule, Target,
};

pub struct RustResolver;

pub static RUST: RustResolver = RustResolver;

/// How far names, paths, `use`s and chains are followed before abstaining.
const BUDGET: u32 = 12;

const RULES: &[Rule] = &[
    Rule {
        name: "bare_name",
        run: bare_name,
    },
    Rule {
        name: "path_call",
        run: path_call,
    },
    Rule {
        name: "method_call",
        run: method_call,
    },
];

impl LanguageResolver for RustResolver {
    fn rules(&self) -> &'static [Rule] {
        RULES
    }

    /// Chains are typed on demand from the declared return types (a receiver's
    /// call is re-derived with its type arguments, which `Eval` cannot carry);
    /// an instance of a type of the tree also goes through the chain rounds, so
    /// a long builder chain is not cut by the depth bound of one round.
    fn call_result(&self, cx: &Cx, file: u32, call: &Call, p: &Placement) -> Option<Eval> {
        match value_of_placed(cx, file, call, p, BUDGET) {
            V::Inst(t, family) => Some(Eval::new(Val::Instance(t), family)),
            _ => None,
        }
    }

    fn resolve_ref(&self, _cx: &Cx, _file: u32, _r: &ValueRef) -> Option<Placement> {
        None
    }

    /// A trait's supertraits; an impl block's trait. Members are looked up by the
    /// Rust rules themselves, not through the shared hierarchy.
    fn bases(&self, index: &TreeIndex, ty: Eid) -> (Vec<Eid>, bool) {
        let decl = index.decl(ty);
        let mut out = Vec::new();
        let mut unknown = false;
        for b in &decl.bases {
            match resolve_type_path_only(index, b) {
                Some(t) if t != ty => out.push(t),
                _ => unknown = true,
            }
        }
        (out, unknown)
    }

    fn lookup_order(&self, hierarchy: &Hierarchy, ty: Eid) -> Vec<Eid> {
        hierarchy.depth_first(ty)
    }

    /// Several declarations share a qualified name where `#[cfg]` writes two
    /// bodies, or two trait impls of one type in one file declare the same
    /// method (`Display::fmt`, `Debug::fmt`): nothing in the call tells them apart.
    /// A type shares its name with its impl blocks; a call placed there is a
    /// derived method, which only the type's declaration can stand for.
    fn pick_overload(&self, cx: &Cx, _f: u32, _c: &Call, candidates: &[Eid]) -> Option<Eid> {
        the_decorated_type(cx.index, candidates)
    }
}

/// Among declarations sharing a qualified name, the one `struct`/`enum`/`union`
/// when all the others are its impl blocks: a derived method's target.
fn the_decorated_type(index: &TreeIndex, candidates: &[Eid]) -> Option<Eid> {
    let (types, rest): (Vec<Eid>, Vec<Eid>) = candidates.iter().partition(|&&e| {
        let d = index.decl(e);
        d.kind.is_type() && d.impl_of.is_none() && !d.is_module && d.kind != DeclKind::Interface
    });
    let all_impls = rest.iter().all(|&e| index.decl(e).impl_of.is_some());
    match types.as_slice() {
        [t] if all_impls => Some(*t),
        _ => None,
    }
}

// ----- sites, modules, names -------------------------------------------------------------------

/// Where something is written: the file, the innermost scope, and the line (a
/// `let` binding is visible after its statement).
#[derive(Debug, Clone, Copy)]
struct Site {
    file: u32,
    scope: ScopeIdx,
    line: u32,
    /// A declaration whose own type parameters are in scope (a bodiless trait
    /// method's).
    decl: Option<Eid>,
}

impl Site {
    fn of_call(call: &Call, file: u32) -> Site {
        Site {
            file,
            scope: call.scope,
            line: call.line,
            decl: None,
        }
    }

    /// Inside a declaration: its body scope when it has one, else the scope it
    /// is declared in.
    fn of_decl(index: &TreeIndex, eid: Eid) -> Site {
        let decl = index.decl(eid);
        Site {
            file: eid.file,
            scope: decl.body.unwrap_or(decl.scope),
            line: u32::MAX,
            decl: Some(eid),
        }
    }

    /// Where a declaration is declared (not inside it).
    fn around_decl(index: &TreeIndex, eid: Eid) -> Site {
        let decl = index.decl(eid);
        Site {
            file: eid.file,
            scope: decl.scope,
            line: u32::MAX,
            decl: None,
        }
    }
}

/// A module of the tree: a file's top level, or an inline `mod m { }`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Module {
    File(u32),
    Inline(Eid),
}

impl Module {
    /// The scope holding the module's items and `use`s.
    fn scope(self, index: &TreeIndex) -> Option<(u32, ScopeIdx)> {
        match self {
            Module::File(f) => Some((f, 0)),
            Module::Inline(e) => index.decl(e).body.map(|s| (e.file, s)),
        }
    }
}

/// The module whose scope encloses `scope`.
fn module_of(index: &TreeIndex, file: u32, scope: ScopeIdx) -> Module {
    let facts = index.file(file);
    let mut cur = Some(scope);
    while let Some(s) = cur {
        let sc = &facts.scopes[s as usize];
        if sc.kind == ScopeKind::Module {
            return match sc.owner {
                Some(d) if s != 0 => Module::Inline(Eid { file, decl: d }),
                _ => Module::File(file),
            };
        }
        cur = sc.parent;
    }
    Module::File(file)
}

/// The module key of a file: `[key, crate root, module path]` (see the frontend).
fn file_key<'a>(index: &TreeIndex<'a>, file: u32) -> (&'a str, &'a str, &'a str) {
    let m = &index.file(file).module;
    let get = |i: usize| m.get(i).map(String::as_str).unwrap_or("");
    (get(0), get(1), get(2))
}

/// The file of a module key.
fn file_of_key(index: &TreeIndex, key: &str) -> Option<u32> {
    index.package_files(key).first().copied()
}

/// The module key of `root` at the path `segments`.
pub fn module_key(root: &str, segments: &str) -> String {
    if segments.is_empty() {
        root.to_string()
    } else {
        format!("{root}::{segments}")
    }
}

/// The package's library root file when `name` is its crate name (and the file
/// is not in the library itself).
fn library_named(index: &TreeIndex, file: u32, name: &str) -> Option<u32> {
    let m = &index.file(file).module;
    let (Some(lib_name), Some(lib_root)) = (m.get(3), m.get(4)) else {
        return None;
    };
    if lib_name != name || m.get(1) == Some(lib_root) {
        return None;
    }
    index.file_by_path(lib_root)
}

fn crate_root(index: &TreeIndex, file: u32) -> Module {
    let (_, root, _) = file_key(index, file);
    file_of_key(index, root)
        .map(Module::File)
        .unwrap_or(Module::File(file))
}

fn parent_module(index: &TreeIndex, m: Module) -> Option<Module> {
    match m {
        Module::Inline(e) => match index.decl(e).parent {
            Some(p) => Some(Module::Inline(Eid {
                file: e.file,
                decl: p,
            })),
            None => Some(Module::File(e.file)),
        },
        Module::File(f) => {
            let (_, root, path) = file_key(index, f);
            if path.is_empty() {
                return None;
            }
            let up = path.rsplit_once("::").map(|(p, _)| p).unwrap_or("");
            file_of_key(index, &module_key(root, up)).map(Module::File)
        }
    }
}

/// Which namespace a name is looked up in: values (functions, locals,
/// parameters) or types (types, modules, traits).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ns {
    Value,
    Type,
}

fn in_namespace(index: &TreeIndex, file: u32, b: &Binding, ns: Ns) -> bool {
    match (&b.value, ns) {
        // `mod m;` names a module (type namespace); a `use` may bring either.
        (BindingValue::Import(i), Ns::Value) => !matches!(
            index.file(file).imports[*i as usize].kind,
            ImportKind::RustMod { .. }
        ),
        (BindingValue::Import(_), Ns::Type) => true,
        (BindingValue::Decl(d), Ns::Value) => {
            index.file(file).decls[*d as usize].kind.is_callable()
        }
        (BindingValue::Decl(d), Ns::Type) => index.file(file).decls[*d as usize].kind.is_type(),
        (BindingValue::Typed { value, .. }, Ns::Type) => {
            matches!(value, Some(ValueExpr::Sequence(_)))
        }
        (BindingValue::Typed { value, .. }, Ns::Value) => {
            !matches!(value, Some(ValueExpr::Sequence(_)))
        }
        (_, Ns::Value) => true,
        (_, Ns::Type) => false,
    }
}

/// The binding of `name` visible at a site: the innermost scope that has one (a
/// `let` only after its statement), up to and including the module's scope.
fn lookup<'a>(index: &'a TreeIndex, site: &Site, name: &str, ns: Ns) -> Option<&'a Binding> {
    let facts = index.file(site.file);
    let mut cur = Some(site.scope);
    while let Some(s) = cur {
        let sc = &facts.scopes[s as usize];
        // An item and a `use` of one name cannot share a namespace of one
        // module, so where both match (`mod str_to_bool;` beside
        // `use self::str_to_bool::str_to_bool;`) the item is the one of this
        // namespace, and the `use` is not read as naming itself.
        let visible = |b: &&Binding| {
            in_namespace(index, site.file, b, ns) && (b.line == 0 || b.line < site.line)
        };
        let is_use = |b: &&Binding| {
            matches!(b.value, BindingValue::Import(i)
                if matches!(facts.imports[i as usize].kind, ImportKind::RustUse { .. }))
        };
        let found = sc
            .named(name)
            .rev()
            .filter(visible)
            .find(|b| !is_use(b))
            .or_else(|| sc.named(name).rev().filter(visible).find(is_use));
        if let Some(b) = found {
            return Some(b);
        }
        if sc.kind == ScopeKind::Module {
            return None;
        }
        cur = sc.parent;
    }
    None
}

/// The glob imports (`use m::*`) visible at a site, innermost first.
fn globs_at(index: &TreeIndex, site: &Site) -> Vec<(u32, ScopeIdx, u32)> {
    let facts = index.file(site.file);
    let mut out = Vec::new();
    let mut cur = Some(site.scope);
    while let Some(s) = cur {
        let sc = &facts.scopes[s as usize];
        for b in sc.named("*") {
            if let BindingValue::Import(i) = b.value {
                out.push((site.file, s, i));
            }
        }
        if sc.kind == ScopeKind::Module {
            break;
        }
        cur = sc.parent;
    }
    out
}

// ----- what names and paths denote --------------------------------------------------------------

/// What a name, a path or an expression denotes.
#[derive(Debug, Clone)]
enum V {
    /// An instance of a type of the tree (a struct, an enum, a trait object).
    Inst(Eid, Family),
    /// An instance of a type outside the tree, its written type arguments read
    /// at `site`.
    Foreign {
        name: String,
        args: Vec<TypeRef>,
        site: Site,
        family: Family,
    },
    /// A value whose type is a type parameter or `impl Tr`: the concrete type
    /// is chosen by each caller.
    Generic,
    Module(Module),
    /// A type of the tree named by a path (`T::new`).
    Type(Eid),
    /// A path that leaves the tree (`std::mem`, an external crate, `Vec`), by
    /// its segments.
    Outside(Vec<String>, OutsideKind, Family),
    /// Functions of the tree named by a path or a name.
    Fns(Vec<Eid>, Family),
    /// A closure bound to a name.
    Lambda(Eid),
    /// An enum variant or a tuple struct named as a callee: a construction.
    Variant,
    Refuse(Reason),
    /// The tree claims the name and nothing in it declares it.
    Unresolved,
    /// A type alias (`type Result<T> = std::result::Result<T, Error>;`): its
    /// written type and parameters, read where it is declared.
    Alias {
        target: TypeRef,
        params: Vec<ValueExpr>,
        site: Site,
    },
}

/// A name at a site, in a namespace: a binding, then a glob import, then the
/// prelude, then an external crate (a path's first segment only).
fn eval_name(cx: &Cx, site: &Site, name: &str, ns: Ns, budget: u32) -> V {
    if budget == 0 {
        return V::Refuse(Reason::Ambiguous);
    }
    if let Some(b) = lookup(cx.index, site, name, ns) {
        return eval_binding(cx, site, b, ns, budget - 1);
    }
    for (file, scope, i) in globs_at(cx.index, site) {
        let glob_site = Site {
            file,
            scope,
            line: u32::MAX,
            decl: None,
        };
        if let ImportKind::RustUse { path, .. } = &cx.index.file(file).imports[i as usize].kind {
            match eval_path(cx, &glob_site, path, budget - 1) {
                V::Module(m) => {
                    let found = module_item(cx, m, name, ns, budget - 1);
                    if !matches!(found, V::Unresolved | V::Refuse(_)) {
                        return relabel(found, Family::Import);
                    }
                }
                // `use E::*` brings an enum's variants.
                V::Type(t) if ns == Ns::Value && has_variant(cx.index, t, name) => {
                    return V::Variant;
                }
                V::Outside(mut p, kind, _) => {
                    p.push(name.to_string());
                    return V::Outside(p, kind, Family::ExternalImport);
                }
                _ => {}
            }
        }
    }
    if ns == Ns::Value && policy::is_prelude_function(name) {
        return V::Outside(
            vec![name.to_string()],
            OutsideKind::Builtin,
            Family::Builtin,
        );
    }
    if ns == Ns::Type && policy::is_prelude_type(name) {
        return V::Outside(
            vec![name.to_string()],
            OutsideKind::Builtin,
            Family::Builtin,
        );
    }
    V::Unresolved
}

fn eval_binding(cx: &Cx, site: &Site, b: &Binding, ns: Ns, budget: u32) -> V {
    let file = site.file;
    match &b.value {
        BindingValue::Decl(d) => {
            let eid = Eid { file, decl: *d };
            item(cx.index, eid, Family::Lexical)
        }
        BindingValue::Import(i) => {
            let imp_scope = declaring_scope(cx.index, file, site.scope, b);
            match &cx.index.file(file).imports[*i as usize].kind {
                ImportKind::RustUse { path, .. } => {
                    let use_site = Site {
                        file,
                        scope: imp_scope,
                        line: u32::MAX,
                        decl: None,
                    };
                    let v = match the_library_first(cx, &use_site, path) {
                        Some(lib) => {
                            walk_from(cx, V::Module(Module::File(lib)), &path[1..], ns, budget)
                        }
                        None => eval_use_path(cx, &use_site, path, ns, budget),
                    };
                    relabel(v, Family::Import)
                }
                ImportKind::RustMod { name, within, .. } => {
                    let (key, _, _) = file_key(cx.index, file);
                    let mut k = key.to_string();
                    for w in within.iter().chain(std::iter::once(name)) {
                        k = format!("{k}::{w}");
                    }
                    match file_of_key(cx.index, &k) {
                        Some(f) => V::Module(Module::File(f)),
                        None => V::Unresolved,
                    }
                }
                _ => V::Refuse(Reason::Refused),
            }
        }
        BindingValue::Param { index, ty } => {
            let family = if *index == policy::RECEIVER_INDEX {
                Family::OwnType
            } else {
                Family::WrittenType
            };
            match ty {
                Some(t) if ns == Ns::Value => instance_of(cx, site, t, family, budget),
                _ => V::Refuse(Reason::ParameterValue),
            }
        }
        BindingValue::Typed { ty, value } => match value {
            Some(ValueExpr::Sequence(params)) => V::Alias {
                target: ty.clone(),
                params: params.clone(),
                site: Site {
                    file,
                    scope: declaring_scope(cx.index, file, site.scope, b),
                    line: u32::MAX,
                    decl: None,
                },
            },
            _ => instance_of(cx, site, ty, Family::WrittenType, budget),
        },
        // A local holding a function (`let f = helper;`): reached by value flow.
        BindingValue::Value(v) => relabel(
            eval_value(cx, &written_at(cx, site, b), v, budget),
            Family::ValueFlow,
        ),
        BindingValue::Opaque | BindingValue::Slot { .. } => V::Refuse(Reason::LocalValue),
    }
}

/// Where a `let`'s value is read: its own statement, not the use (`let sc = &mut
/// cmd;` then `for cmd in cmds { sc.m() }` — the loop's `cmd` is not the one the
/// `let` took).
/// A pattern's binding (`if let Some(arg) = arg`, a `match` arm; line 0, seen
/// in its whole scope) takes its value from outside that scope: the scope above.
fn written_at(cx: &Cx, use_site: &Site, b: &Binding) -> Site {
    let declared = declaring_scope(cx.index, use_site.file, use_site.scope, b);
    if b.line == 0 {
        let parent = cx.index.file(use_site.file).scopes[declared as usize].parent;
        return Site {
            scope: parent.unwrap_or(declared),
            ..*use_site
        };
    }
    Site {
        scope: declared,
        line: b.line,
        ..*use_site
    }
}

/// `use regex::{bytes, regex, Regex};` in a test crate: the first segment of a
/// `use` path naming the package's library is that library, even where a `use`
/// brings a name spelled like it (`regex`, the crate's macro): a crate and a
/// local item of one name would make the path ambiguous, so a program that
/// compiles means the crate (a `use` does not name a path's first segment).
fn the_library_first(cx: &Cx, site: &Site, path: &[String]) -> Option<u32> {
    let (first, rest) = path.split_first()?;
    if rest.is_empty() {
        return None;
    }
    let lib = library_named(cx.index, site.file, first)?;
    let b = lookup(cx.index, site, first, Ns::Type)?;
    let facts = cx.index.file(site.file);
    match b.value {
        BindingValue::Import(i)
            if matches!(facts.imports[i as usize].kind, ImportKind::RustUse { .. }) =>
        {
            Some(lib)
        }
        _ => None,
    }
}

/// The rest of a path walked from a known first segment (the last in `ns`).
fn walk_from(cx: &Cx, mut v: V, rest: &[String], ns: Ns, budget: u32) -> V {
    let Some((last, head)) = rest.split_last() else {
        return v;
    };
    for seg in head {
        v = member_of_path(cx, v, seg, Ns::Type, budget);
    }
    member_of_path(cx, v, last, ns, budget)
}

/// The scope a binding stands in (the nearest enclosing scope holding it).
fn declaring_scope(index: &TreeIndex, file: u32, from: ScopeIdx, b: &Binding) -> ScopeIdx {
    let facts = index.file(file);
    let mut cur = Some(from);
    while let Some(s) = cur {
        let sc = &facts.scopes[s as usize];
        if sc.named(&b.name).any(|x| std::ptr::eq(x, b)) {
            return s;
        }
        cur = sc.parent;
    }
    from
}

fn relabel(v: V, family: Family) -> V {
    match v {
        V::Fns(f, _) => V::Fns(f, family),
        other => other,
    }
}

/// What a declaration denotes when named.
fn item(index: &TreeIndex, eid: Eid, family: Family) -> V {
    let decl = index.decl(eid);
    if decl.is_module {
        return V::Module(Module::Inline(eid));
    }
    match decl.kind {
        DeclKind::Function | DeclKind::Method | DeclKind::Constructor => V::Fns(vec![eid], family),
        DeclKind::Lambda => V::Lambda(eid),
        _ if decl.impl_of.is_some() => V::Refuse(Reason::Refused),
        _ => V::Type(eid),
    }
}

/// A `use` path: its first segment is a name in the `use`'s scope (an item or a
/// module of the tree, or a crate), `crate`, `self` or `super`.
fn eval_use_path(cx: &Cx, site: &Site, path: &[String], ns: Ns, budget: u32) -> V {
    if path.len() == 1 {
        return eval_name(cx, site, &path[0], ns, budget);
    }
    let (last, head) = path.split_last().expect("non-empty");
    let base = eval_path(cx, site, head, budget);
    member_of_path(cx, base, last, ns, budget)
}

/// A path of modules and types (`crate::a::B`, `super::m`, `Self`, `Vec`).
fn eval_path(cx: &Cx, site: &Site, path: &[String], budget: u32) -> V {
    if budget == 0 {
        return V::Refuse(Reason::Ambiguous);
    }
    let Some((first, rest)) = path.split_first() else {
        return V::Refuse(Reason::UnsupportedSyntax);
    };
    let here = module_of(cx.index, site.file, site.scope);
    let mut v = match first.as_str() {
        "crate" => V::Module(crate_root(cx.index, site.file)),
        "self" => V::Module(here),
        "super" => match parent_module(cx.index, here) {
            Some(m) => V::Module(m),
            None => V::Unresolved,
        },
        "Self" => match self_type(cx, site, budget - 1) {
            Some(t) => V::Type(t),
            None => V::Refuse(Reason::ReceiverTypeUnknown),
        },
        // `P::value_parser()` with `P: ValueParserFactory`: each caller's P.
        name if rest.is_empty() && is_type_param(cx.index, site, name) => V::Generic,
        name => match eval_name(cx, site, name, Ns::Type, budget - 1) {
            V::Unresolved if policy::is_std_crate(name) => V::Outside(
                vec![name.to_string()],
                OutsideKind::Stdlib,
                Family::ExternalImport,
            ),
            // The package's library named by its crate name (`use regex::Regex`
            // in `tests/`).
            V::Unresolved if library_named(cx.index, site.file, name).is_some() => {
                match library_named(cx.index, site.file, name) {
                    Some(lib) => V::Module(Module::File(lib)),
                    None => V::Unresolved,
                }
            }
            // A path's first segment nothing in scope names is an external crate.
            V::Unresolved if lookup(cx.index, site, name, Ns::Value).is_none() => V::Outside(
                vec![name.to_string()],
                OutsideKind::External,
                Family::ExternalImport,
            ),
            v => v,
        },
    };
    for seg in rest {
        v = member_of_path(cx, v, seg, Ns::Type, budget - 1);
    }
    v
}

/// `base::name`: an item of a module, an associated function of a type, a
/// variant of an enum, or a path outside the tree.
fn member_of_path(cx: &Cx, base: V, name: &str, ns: Ns, budget: u32) -> V {
    match base {
        V::Module(m) => {
            if name == "super" {
                return parent_module(cx.index, m)
                    .map(V::Module)
                    .unwrap_or(V::Unresolved);
            }
            module_item(cx, m, name, ns, budget)
        }
        V::Type(t) => {
            if has_variant(cx.index, t, name) {
                return V::Variant;
            }
            if ns == Ns::Type {
                // `Self::Item`: the associated type the type's impls bind (one
                // answer only); on a trait it is bound per implementor.
                return associated_type(cx, t, name, None, budget)
                    .unwrap_or(V::Refuse(Reason::ReceiverTypeUnknown));
            }
            match methods_of(cx, t, name, budget) {
                Found::Decls(d, _) if !one_body_runs(cx, t, &d, name, budget) => {
                    V::Refuse(Reason::ReceiverTypeUnknown)
                }
                Found::Decls(d, inherited) => V::Fns(
                    d,
                    if inherited {
                        Family::Inheritance
                    } else {
                        Family::QualifiedPath
                    },
                ),
                Found::Ambiguous => V::Refuse(Reason::Ambiguous),
                // The derive's method is compiled at the item it decorates.
                Found::Derived => derived_method(t, Family::QualifiedPath),
                Found::Provided(tr) => provided_by_std(tr, name),
                Found::Unknown => V::Refuse(Reason::ReceiverTypeUnknown),
                Found::Nothing => missing_method(cx, t, name),
            }
        }
        V::Outside(mut p, kind, family) => {
            p.push(name.to_string());
            V::Outside(p, kind, family)
        }
        V::Alias {
            target,
            params,
            site,
        } => match resolve_type(cx, &site, &substitute(&target, &params, &[]), budget) {
            Ty::InTree(t) if budget > 0 => member_of_path(cx, V::Type(t), name, ns, budget - 1),
            Ty::Foreign(n, _) => V::Outside(
                vec![n, name.to_string()],
                OutsideKind::External,
                Family::ExternalImport,
            ),
            _ => V::Refuse(Reason::ReceiverTypeUnknown),
        },
        V::Generic => V::Refuse(Reason::ReceiverTypeUnknown),
        other @ (V::Refuse(_) | V::Unresolved) => other,
        _ => V::Refuse(Reason::UnsupportedSyntax),
    }
}

/// An item of a module by name: its declarations and `use`s (re-exports), its
/// `mod name;` files, then its glob imports.
fn module_item(cx: &Cx, m: Module, name: &str, ns: Ns, budget: u32) -> V {
    if budget == 0 {
        return V::Refuse(Reason::Ambiguous);
    }
    let Some((file, scope)) = m.scope(cx.index) else {
        return V::Unresolved;
    };
    let site = Site {
        file,
        scope,
        line: u32::MAX,
        decl: None,
    };
    let v = eval_name(cx, &site, name, ns, budget - 1);
    match v {
        // Names of the prelude are not items of the module.
        V::Outside(_, OutsideKind::Builtin, Family::Builtin) => V::Unresolved,
        v => v,
    }
}

fn has_variant(index: &TreeIndex, t: Eid, name: &str) -> bool {
    let decl = index.decl(t);
    decl.kind == DeclKind::Enum && decl.fields.iter().any(|f| f.name == name)
}

// ----- types ------------------------------------------------------------------------------------

#[derive(Debug, Clone)]
enum Ty {
    InTree(Eid),
    /// A type outside the tree, by its last path segment, with its arguments.
    Foreign(String, Vec<TypeRef>),
    Generic,
    Unknown,
}

/// The type parameters in scope at a site: every enclosing declaration's.
fn is_type_param(index: &TreeIndex, site: &Site, name: &str) -> bool {
    if let Some(d) = site.decl {
        if index.decl(d).type_params.iter().any(|p| p == name) {
            return true;
        }
    }
    let facts = index.file(site.file);
    let mut cur = Some(site.scope);
    while let Some(s) = cur {
        let sc = &facts.scopes[s as usize];
        if let Some(o) = sc.owner {
            if facts.decls[o as usize]
                .type_params
                .iter()
                .any(|p| p == name)
            {
                return true;
            }
        }
        cur = sc.parent;
    }
    false
}

/// `Self` at a site: the type of the enclosing `impl` (a trait's `Self` is the
/// trait: its methods are what the tree declares for it).
fn self_type(cx: &Cx, site: &Site, budget: u32) -> Option<Eid> {
    // `Self` in a struct's or an enum's own fields (`children: Vec<Self>`).
    if let Some(d) = site.decl {
        let decl = cx.index.decl(d);
        if decl.kind.is_type() && decl.impl_of.is_none() && !decl.is_module {
            return Some(d);
        }
    }
    let facts = cx.index.file(site.file);
    let mut cur = Some(site.scope);
    while let Some(s) = cur {
        let sc = &facts.scopes[s as usize];
        if let Some(o) = sc.owner {
            let eid = Eid {
                file: site.file,
                decl: o,
            };
            let decl = cx.index.decl(eid);
            if let Some(of) = &decl.impl_of {
                if of.is_self {
                    return None;
                }
                let around = Site::around_decl(cx.index, eid);
                let inner = Site {
                    decl: Some(eid),
                    ..around
                };
                return match resolve_type(cx, &inner, of, budget) {
                    Ty::InTree(t) => Some(t),
                    _ => None,
                };
            }
            if decl.kind == DeclKind::Interface {
                return Some(eid);
            }
        }
        cur = sc.parent;
    }
    None
}

/// `Self` in `impl Tr for String`: the foreign type the impl is written for.
fn foreign_self_type(cx: &Cx, site: &Site, budget: u32) -> Ty {
    let facts = cx.index.file(site.file);
    let mut cur = Some(site.scope);
    while let Some(s) = cur {
        let sc = &facts.scopes[s as usize];
        if let Some(o) = sc.owner {
            let eid = Eid {
                file: site.file,
                decl: o,
            };
            if let Some(of) = &cx.index.decl(eid).impl_of {
                if of.is_self || budget == 0 {
                    return Ty::Unknown;
                }
                let around = Site {
                    decl: Some(eid),
                    ..Site::around_decl(cx.index, eid)
                };
                return match resolve_type(cx, &around, of, budget - 1) {
                    t @ Ty::Foreign(..) => t,
                    _ => Ty::Unknown,
                };
            }
        }
        cur = sc.parent;
    }
    Ty::Unknown
}

fn resolve_type(cx: &Cx, site: &Site, ty: &TypeRef, budget: u32) -> Ty {
    if budget == 0 {
        return Ty::Unknown;
    }
    if ty.array {
        return Ty::Foreign(
            "slice".to_string(),
            vec![TypeRef {
                array: false,
                ..ty.clone()
            }],
        );
    }
    if ty.is_self {
        return match self_type(cx, site, budget - 1) {
            Some(t) => Ty::InTree(t),
            None => foreign_self_type(cx, site, budget - 1),
        };
    }
    if ty.path.len() == 1 {
        let name = ty.path[0].as_str();
        if name == policy::INFERRED {
            return Ty::Unknown;
        }
        if name == policy::IMPL_TRAIT || name == policy::TUPLE {
            return Ty::Foreign(name.to_string(), ty.args.clone());
        }
        if is_type_param(cx.index, site, name) {
            return Ty::Generic;
        }
    }
    match eval_path(cx, site, &ty.path, budget - 1) {
        V::Type(t) => Ty::InTree(t),
        // A type alias: its written type, the alias's parameters replaced.
        V::Alias {
            target,
            params,
            site: at,
        } => resolve_type(cx, &at, &substitute(&target, &params, &ty.args), budget - 1),
        // Named by the path's last segment (`StdResult` imported as
        // `std::result::Result as StdResult` is a `Result`).
        V::Outside(segments, ..) => Ty::Foreign(
            segments.last().cloned().unwrap_or_default(),
            ty.args.clone(),
        ),
        _ => Ty::Unknown,
    }
}

/// A trait named in a supertrait list or an `impl Tr for` without the full
/// evaluator (for `bases`, where no `Cx` exists yet): the only trait of the
/// tree with that name. The Rust rules resolve traits themselves; this only
/// feeds the shared hierarchy.
fn resolve_type_path_only(index: &TreeIndex, ty: &TypeRef) -> Option<Eid> {
    let name = ty.last()?;
    let found: Vec<Eid> = index
        .by_name(name)
        .iter()
        .copied()
        .filter(|&e| {
            let d = index.decl(e);
            d.kind == DeclKind::Interface && d.impl_of.is_none()
        })
        .collect();
    match found.as_slice() {
        [one] => Some(*one),
        _ => None,
    }
}

/// `Result<T> = std::result::Result<T, Error>` used as `Result<Foo>`.
fn substitute(target: &TypeRef, params: &[ValueExpr], args: &[TypeRef]) -> TypeRef {
    if let [name] = target.path.as_slice() {
        if let Some(i) = params
            .iter()
            .position(|p| matches!(p, ValueExpr::Name(n) if n == name))
        {
            // A parameter the use leaves to its default (`type Result<T, E =
            // Error>` used as `Result<T>`): the default is not read, so `_`.
            return args
                .get(i)
                .cloned()
                .unwrap_or_else(|| TypeRef::simple(policy::INFERRED));
        }
    }
    TypeRef {
        args: target
            .args
            .iter()
            .map(|a| substitute(a, params, args))
            .collect(),
        ..target.clone()
    }
}

/// A value of a written type. `Self` inside a trait is the implementor, whose
/// methods only a body no impl overrides answers: it is typed like `self`
/// (`own_type`), not like a `dyn` receiver.
fn instance_of(cx: &Cx, site: &Site, ty: &TypeRef, family: Family, budget: u32) -> V {
    match resolve_type(cx, site, ty, budget) {
        Ty::InTree(t) if ty.is_self && cx.index.decl(t).kind == DeclKind::Interface => {
            V::Inst(t, Family::OwnType)
        }
        Ty::InTree(t) => V::Inst(t, family),
        Ty::Foreign(name, args) => V::Foreign {
            name,
            args,
            site: *site,
            family,
        },
        Ty::Generic => V::Generic,
        Ty::Unknown => V::Refuse(Reason::ReceiverTypeUnknown),
    }
}

// ----- values -----------------------------------------------------------------------------------

fn eval_value(cx: &Cx, site: &Site, v: &ValueExpr, budget: u32) -> V {
    if budget == 0 {
        return V::Refuse(Reason::LocalValue);
    }
    match v {
        ValueExpr::Name(n) => value_named(cx, site, n, budget - 1),
        ValueExpr::Attribute { path } => eval_receiver_path(cx, site, path, budget - 1),
        ValueExpr::CallResult(ci) => call_type(cx, site.file, *ci, budget - 1),
        ValueExpr::New(ty) => instance_of(cx, site, ty, Family::WrittenType, budget - 1),
        ValueExpr::Lambda(d) => V::Lambda(Eid {
            file: site.file,
            decl: *d,
        }),
        ValueExpr::Literal(l) => literal(*l, site),
        ValueExpr::Element(inner) => {
            let of = eval_value(cx, site, inner, budget - 1);
            element_of(cx, of, budget - 1)
        }
        ValueExpr::Subscript {
            base,
            key: Key::Str(seg),
        } => {
            let b = eval_value(cx, site, base, budget - 1);
            through(cx, b, seg, budget - 1)
        }
        _ => V::Refuse(Reason::LocalValue),
    }
}

fn literal(l: crate::facts::LiteralType, site: &Site) -> V {
    use crate::facts::LiteralType as L;
    let name = match l {
        L::Str => "str",
        L::Int => "i32",
        L::Float => "f64",
        L::Bool => "bool",
        L::Char => "char",
        _ => return V::Refuse(Reason::ReceiverTypeUnknown),
    };
    V::Foreign {
        name: name.to_string(),
        args: Vec::new(),
        site: *site,
        family: Family::WrittenType,
    }
}

/// A name used as a value: a binding of the value namespace, else a unit
/// struct (`let d = Dog;`) whose name is its only value.
fn value_named(cx: &Cx, site: &Site, name: &str, budget: u32) -> V {
    match eval_name(cx, site, name, Ns::Value, budget) {
        V::Unresolved => match eval_name(cx, site, name, Ns::Type, budget) {
            V::Type(t) if matches!(cx.index.decl(t).kind, DeclKind::Class) => {
                V::Inst(t, Family::WrittenType)
            }
            _ => V::Refuse(Reason::ReceiverTypeUnknown),
        },
        v => v,
    }
}

/// A receiver path `a.b.c` (with `?`, `[]`, `.await` segments).
fn eval_receiver_path(cx: &Cx, site: &Site, path: &[String], budget: u32) -> V {
    let Some((root, rest)) = path.split_first() else {
        return V::Refuse(Reason::ReceiverTypeUnknown);
    };
    let mut v = value_named(cx, site, root, budget);
    for seg in rest {
        v = through(cx, v, seg, budget);
    }
    v
}

/// One segment after a value: a field, `?`, `[]`, `.await`.
fn through(cx: &Cx, v: V, seg: &str, budget: u32) -> V {
    match seg {
        policy::TRY => unwrap_inner(settle(cx, v, budget)),
        policy::ERR => error_inner(settle(cx, v, budget)),
        policy::INDEX => match settle(cx, v, budget) {
            V::Inst(t, family) => indexed(cx, t, family, budget),
            v => element_of(cx, v, budget),
        },
        policy::AWAIT => V::Refuse(Reason::ReceiverTypeUnknown),
        policy::DEREF => dereferenced(cx, v, budget),
        field => field_of(cx, v, field, budget),
    }
}

/// `*x`: the engine does not count references, so `*x` is x — unless x's type
/// implements `Deref`, where `*x` may be its target (`(**self).as_ref()` in
/// `impl AsRef<OsStr> for Str` calls `str`'s, not Str's own): unknown then.
fn dereferenced(cx: &Cx, v: V, budget: u32) -> V {
    match settle(cx, v, budget) {
        V::Inst(t, _) if implements_deref(cx, t, budget) => V::Refuse(Reason::ReceiverTypeUnknown),
        v => v,
    }
}

fn implements_deref(cx: &Cx, t: Eid, budget: u32) -> bool {
    impls_of(cx, t, budget).iter().any(|&imp| {
        cx.index
            .decl(imp)
            .bases
            .first()
            .and_then(|b| b.last())
            .is_some_and(|n| n == "Deref" || n == "DerefMut")
    })
}

/// `keymap[&key]` on a type of the tree: the `Output` its one `impl Index`
/// binds (`impl Index<&KeyType> for MKeyMap { type Output = Arg; }`); several
/// impls (two key types) leave it unknown.
fn indexed(cx: &Cx, t: Eid, family: Family, budget: u32) -> V {
    associated_instance(cx, t, "Output", &["Index", "IndexMut"], family, budget)
}

/// An instance of the associated type `name` that `t`'s one impl of `traits`
/// binds (`type Output = Arg;`, `type Item = Part;`), else unknown.
fn associated_instance(
    cx: &Cx,
    t: Eid,
    name: &str,
    traits: &[&str],
    family: Family,
    budget: u32,
) -> V {
    match associated_type(cx, t, name, Some(traits), budget) {
        Some(V::Alias {
            target,
            params,
            site,
        }) => instance_of(
            cx,
            &site,
            &substitute(&target, &params, &[]),
            family,
            budget,
        ),
        _ => V::Refuse(Reason::ReceiverTypeUnknown),
    }
}

/// `x?` / `x.unwrap()` on `Option<T>` / `Result<T, E>` (and the other wrappers
/// of the policy): T.
fn unwrap_inner(v: V) -> V {
    match v {
        V::Foreign {
            name,
            args,
            site,
            family,
        } if policy::is_wrapper(&name) => match args.first() {
            Some(t) => V::Foreign {
                name: String::new(),
                args: vec![t.clone()],
                site,
                family,
            },
            None => V::Refuse(Reason::ReceiverTypeUnknown),
        },
        V::Refuse(r) => V::Refuse(r),
        _ => V::Refuse(Reason::ReceiverTypeUnknown),
    }
}

/// `Err(e)` matched against a `Result<T, E>`: E.
fn error_inner(v: V) -> V {
    match v {
        V::Foreign {
            name,
            args,
            site,
            family,
        } if name == "Result" && args.len() == 2 => V::Foreign {
            name: String::new(),
            args: vec![args[1].clone()],
            site,
            family,
        },
        V::Refuse(r) => V::Refuse(r),
        _ => V::Refuse(Reason::ReceiverTypeUnknown),
    }
}

/// An element of a collection: `Vec<T>`, `[T]`, `HashSet<T>`, `Option<T>`,
/// `impl Iterator<Item = T>` → T.
fn element_of(cx: &Cx, v: V, budget: u32) -> V {
    let v = settle(cx, v, budget);
    match v {
        // A type of the tree that implements `Iterator` / `IntoIterator`: its `Item`.
        V::Inst(t, family) => {
            associated_instance(cx, t, "Item", &["Iterator", "IntoIterator"], family, budget)
        }
        V::Foreign {
            name,
            args,
            site,
            family,
        } => {
            let elem = if name == policy::IMPL_TRAIT {
                args.first().and_then(|tr| tr.args.first()).cloned()
            } else if name == "slice" || policy::is_wrapper(&name) {
                args.first().cloned()
            } else {
                None
            };
            match elem {
                Some(t) => V::Foreign {
                    name: String::new(),
                    args: vec![t],
                    site,
                    family,
                },
                None => V::Refuse(Reason::ReceiverTypeUnknown),
            }
        }
        V::Refuse(r) => V::Refuse(r),
        _ => V::Refuse(Reason::ReceiverTypeUnknown),
    }
}

/// `Option` of an element of a std collection or iterator (`v.pop()`).
fn option_of_element(v: V) -> V {
    let V::Foreign {
        name,
        args,
        site,
        family,
    } = v
    else {
        return V::Refuse(Reason::ReceiverTypeUnknown);
    };
    let elem = if name == policy::IMPL_TRAIT {
        args.first().and_then(|tr| tr.args.first()).cloned()
    } else if name == "slice" || (policy::is_wrapper(&name) && name != "Option") {
        args.first().cloned()
    } else {
        None
    };
    match elem {
        Some(t) => V::Foreign {
            name: "Option".to_string(),
            args: vec![t],
            site,
            family,
        },
        None => V::Refuse(Reason::ReceiverTypeUnknown),
    }
}

/// A deferred type (`Foreign` with an empty name holds a written type not yet
/// resolved, read at its site): resolve it.
fn settle(cx: &Cx, v: V, budget: u32) -> V {
    match v {
        V::Foreign {
            name,
            args,
            site,
            family,
        } if name.is_empty() => match args.first() {
            Some(t) => instance_of(cx, &site, t, family, budget),
            None => V::Refuse(Reason::ReceiverTypeUnknown),
        },
        other => other,
    }
}

/// `x.f` where x is an instance of a struct of the tree: the field's written type.
fn field_of(cx: &Cx, v: V, field: &str, budget: u32) -> V {
    let v = settle(cx, v, budget);
    let V::Inst(t, _) = v else {
        return match v {
            V::Refuse(r) => V::Refuse(r),
            // `t.0` on a tuple `(A, B)`: A, read where the tuple type is written.
            V::Foreign {
                ref name,
                ref args,
                site,
                family,
            } if name == policy::TUPLE => {
                match field.parse::<usize>().ok().and_then(|i| args.get(i)) {
                    Some(t) => V::Foreign {
                        name: String::new(),
                        args: vec![t.clone()],
                        site,
                        family,
                    },
                    None => V::Refuse(Reason::ReceiverTypeUnknown),
                }
            }
            // `b.f` on `Box<T>` / `Rc<T>` reads T's field (auto-deref).
            V::Foreign { ref name, .. } if policy::is_deref_wrapper(name) && budget > 0 => {
                field_of(cx, unwrap_inner(v), field, budget - 1)
            }
            _ => V::Refuse(Reason::ReceiverTypeUnknown),
        };
    };
    let decl = cx.index.decl(t);
    match decl.fields.iter().find(|f| f.name == field) {
        Some(f) => match &f.ty {
            Some(ty) => instance_of(
                cx,
                &Site::of_decl(cx.index, t),
                ty,
                Family::WrittenType,
                budget,
            ),
            None => V::Refuse(Reason::ReceiverTypeUnknown),
        },
        None => V::Refuse(Reason::ReceiverTypeUnknown),
    }
}

/// What the call at `ci` evaluates to: its target's declared return type (read
/// where the target is declared), or, for a method of std that hands its
/// receiver back, the receiver (or what it wraps).
fn call_type(cx: &Cx, file: u32, ci: u32, budget: u32) -> V {
    if budget == 0 {
        return V::Refuse(Reason::ReceiverTypeUnknown);
    }
    // The previous chain round's answer: an instance of a type of the tree.
    if let Some(Eval {
        val: Val::Instance(t),
        family,
    }) = cx.results.get(file, ci)
    {
        return V::Inst(*t, *family);
    }
    let call = &cx.index.file(file).calls[ci as usize];
    let resolution = resolve_with_budget(cx, file, call, budget - 1);
    let Resolution::Placed(p) = resolution else {
        return declared_by_the_trait_bound(cx, file, call, budget - 1);
    };
    value_of_placed(cx, file, call, &p, budget)
}

enum Extension {
    /// `impl Tr for String { fn m }` in the tree: its m.
    Found(Vec<Eid>),
    /// A blanket impl (`impl<T: X> Tr for T { fn m }`) or several impls may give it.
    Maybe,
    None,
}

/// A method the tree adds to a type outside it (SHAPES S66): an impl block of
/// the tree whose self type is that foreign type and that declares the method;
/// a blanket impl of the tree declaring it makes the answer unknowable.
fn impls_on_a_foreign_type(cx: &Cx, ty_name: &str, name: &str, budget: u32) -> Extension {
    let mut found = Vec::new();
    for &imp in cx.index.by_name(ty_name) {
        let decl = cx.index.decl(imp);
        let Some(of) = &decl.impl_of else {
            continue;
        };
        let members = cx.index.members(imp, name);
        if members.is_empty() {
            continue;
        }
        let site = Site {
            decl: Some(imp),
            ..Site::around_decl(cx.index, imp)
        };
        if let Ty::Foreign(n, _) = resolve_type(cx, &site, of, budget) {
            if n == ty_name {
                found.extend_from_slice(members);
            }
        }
    }
    let blanket = cx.index.by_name(name).iter().any(|&m| {
        cx.index.enclosing_type(m).is_some_and(|imp| {
            let d = cx.index.decl(imp);
            d.impl_of
                .as_ref()
                .is_some_and(|of| matches!(of.path.as_slice(), [p] if d.type_params.contains(p)))
        })
    });
    if blanket {
        return Extension::Maybe;
    }
    match found.as_slice() {
        [] => Extension::None,
        [first, ..]
            if found
                .iter()
                .all(|&e| cx.index.qualified_name(e) == cx.index.qualified_name(*first)) =>
        {
            Extension::Found(found)
        }
        _ => Extension::Maybe,
    }
}

/// `Tr::m(…)` / `Self::m(…)` in a trait, left unplaced (the implementor picks the
/// body): every body returns what the trait's declaration writes, `Self` being the
/// implementor (typed like `self` in the trait, see [`instance_of`]), so
/// `Self::value_variants().iter()` goes on.
fn declared_by_the_trait_path(
    cx: &Cx,
    file: u32,
    call: &Call,
    path: &[String],
    name: &str,
    budget: u32,
) -> V {
    let site = Site::of_call(call, file);
    let V::Type(tr) = eval_path(cx, &site, path, budget) else {
        return V::Refuse(Reason::ReceiverTypeUnknown);
    };
    declared_by_the_trait(cx, tr, name, budget)
}

/// What a trait of the tree declares its method `name` returns (`Self` being
/// the implementor).
fn declared_by_the_trait(cx: &Cx, tr: Eid, name: &str, budget: u32) -> V {
    let unknown = V::Refuse(Reason::ReceiverTypeUnknown);
    if cx.index.decl(tr).kind != DeclKind::Interface {
        return unknown;
    }
    let Found::Decls(decls, _) = trait_method(cx, tr, name, budget, false) else {
        return unknown;
    };
    let Some(returns) = cx.index.decl(decls[0]).returns.as_ref() else {
        return unknown;
    };
    let mut at = Site::of_decl(cx.index, decls[0]);
    at.scope = cx.index.decl(decls[0]).scope;
    match instance_of(cx, &at, returns, Family::ReturnType, budget) {
        v @ (V::Inst(..) | V::Foreign { .. }) => v,
        _ => unknown,
    }
}

/// `x.m()` where x is `impl Tr` (Tr of the tree): which impl runs is each
/// caller's, but every impl returns what the trait's declaration of m writes
/// (`fn into_resettable(self) -> Resettable<T>`), unless that names `Self` or an
/// associated type.
fn declared_by_the_trait_bound(cx: &Cx, file: u32, call: &Call, budget: u32) -> V {
    let unknown = V::Refuse(Reason::ReceiverTypeUnknown);
    // Only on a receiver a path names: evaluating a call receiver again here
    // would make every failed link of a chain cost twice the one before.
    let Callee::Member {
        name,
        receiver: Receiver::Path(path),
    } = &call.callee
    else {
        return unknown;
    };
    if path.first().is_some_and(|s| s == policy::SCOPED) {
        return declared_by_the_trait_path(cx, file, call, &path[1..], name, budget);
    }
    let recv = receiver_value(cx, file, call, budget);
    if let V::Inst(tr, _) = recv {
        // A `Self` of a trait whose method the implementor picks.
        return declared_by_the_trait(cx, tr, name, budget);
    }
    let V::Foreign {
        name: ty_name,
        args,
        site,
        ..
    } = recv
    else {
        return unknown;
    };
    if ty_name != policy::IMPL_TRAIT {
        return unknown;
    }
    let Some(Ty::InTree(tr)) = args.first().map(|t| resolve_type(cx, &site, t, budget)) else {
        return unknown;
    };
    let Found::Decls(decls, _) = trait_method(cx, tr, name, budget, false) else {
        return unknown;
    };
    let Some(returns) = cx.index.decl(decls[0]).returns.as_ref() else {
        return unknown;
    };
    if returns.is_self || returns.path.first().is_some_and(|s| s == "Self") {
        return unknown;
    }
    let mut at = Site::of_decl(cx.index, decls[0]);
    at.scope = cx.index.decl(decls[0]).scope;
    match instance_of(cx, &at, returns, Family::ReturnType, budget) {
        v @ (V::Inst(..) | V::Foreign { .. }) => v,
        _ => unknown,
    }
}

/// What a placed call evaluates to (see [`call_type`]).
fn value_of_placed(cx: &Cx, file: u32, call: &Call, p: &Placement, budget: u32) -> V {
    if budget == 0 {
        return V::Refuse(Reason::ReceiverTypeUnknown);
    }
    match p.target() {
        Target::InTree(targets) => {
            let Some(&target) = targets.first() else {
                return V::Refuse(Reason::ReceiverTypeUnknown);
            };
            let decl = cx.index.decl(target);
            if decl.kind.is_type() {
                return derived_result(target, call);
            }
            let Some(returns) = &decl.returns else {
                return V::Refuse(Reason::ReceiverTypeUnknown);
            };
            if decl.kind == DeclKind::Lambda {
                return V::Refuse(Reason::ReceiverTypeUnknown);
            }
            // Every declaration of the set must agree on what it returns.
            if targets
                .iter()
                .any(|&t| cx.index.decl(t).returns.as_ref() != Some(returns))
            {
                return V::Refuse(Reason::Ambiguous);
            }
            if let Some(v) =
                through_the_receivers_arguments(cx, file, call, target, returns, budget)
            {
                return v;
            }
            let mut site = Site::of_decl(cx.index, target);
            site.scope = decl.scope;
            let v = instance_of(cx, &site, returns, Family::ReturnType, budget - 1);
            // `-> Self` in a trait's method on a known receiver: the receiver's type.
            match v {
                V::Inst(t, _)
                    if returns.is_self && cx.index.decl(t).kind == DeclKind::Interface =>
                {
                    match receiver_value(cx, file, call, budget - 1) {
                        r @ V::Inst(..) => r,
                        _ => V::Refuse(Reason::ReceiverTypeUnknown),
                    }
                }
                V::Inst(t, _) => V::Inst(t, Family::ReturnType),
                other => other,
            }
        }
        Target::Outside { .. } => {
            let site = Site::of_call(call, file);
            let name = match &call.callee {
                Callee::Member {
                    receiver: Receiver::Path(path),
                    name,
                } if path.first().is_some_and(|s| s == policy::SCOPED) => {
                    return constructed_by_path(cx, &site, &path[1..], name, budget - 1);
                }
                Callee::Member { name, .. } => name,
                Callee::Name(n) => {
                    return match policy::PRELUDE_CONSTRUCTS.iter().find(|(c, _)| c == n) {
                        Some((_, ty)) => V::Foreign {
                            name: ty.to_string(),
                            args: Vec::new(),
                            site,
                            family: Family::ReturnType,
                        },
                        None => V::Refuse(Reason::ReceiverTypeUnknown),
                    };
                }
                _ => return V::Refuse(Reason::ReceiverTypeUnknown),
            };
            if policy::HANDS_BACK_SAME.contains(&name.as_str()) {
                return receiver_value(cx, file, call, budget - 1);
            }
            if policy::OPTION_OF_ELEMENT.contains(&name.as_str()) {
                let r = receiver_value(cx, file, call, budget - 1);
                return option_of_element(r);
            }
            if policy::HANDS_BACK_INNER.contains(&name.as_str()) {
                let r = receiver_value(cx, file, call, budget - 1);
                return match r {
                    // `x.borrow()` on a struct of the tree hands x back.
                    V::Inst(..) => r,
                    other => unwrap_inner(other),
                };
            }
            V::Refuse(Reason::ReceiverTypeUnknown)
        }
    }
}

/// What a derived method placed on its type returns: `clone` and `default`
/// give the type back; the others (`eq`, `cmp`, `hash`, `fmt`) give std values.
fn derived_result(t: Eid, call: &Call) -> V {
    if policy::DERIVED_SELF_METHODS.contains(&call.name()) {
        V::Inst(t, Family::ReturnType)
    } else {
        V::Refuse(Reason::ReceiverTypeUnknown)
    }
}

/// A method of a generic type of the tree whose declared return type names the
/// impl's type parameters through std wrappers only (`fn get(&self, k: &K) ->
/// Option<&V>` in `impl<K, V> FlatMap<K, V>`), on a receiver whose written type
/// gives the arguments (`args: FlatMap<Id, MatchedArg>`): the return type with
/// the arguments put in, read where the receiver's type is written. Other shapes
/// of return type would be read at a site that may name other types: `None`.
fn through_the_receivers_arguments(
    cx: &Cx,
    file: u32,
    call: &Call,
    target: Eid,
    returns: &TypeRef,
    budget: u32,
) -> Option<V> {
    let imp = cx.index.enclosing_type(target)?;
    let imp_decl = cx.index.decl(imp);
    let self_ty = imp_decl.impl_of.as_ref()?;
    if imp_decl.type_params.is_empty() || !names_any(returns, &imp_decl.type_params) {
        return None;
    }
    // The impl's self type must write its parameters as its arguments, in order.
    let positions: Vec<ValueExpr> = self_ty
        .args
        .iter()
        .map(|a| match a.path.as_slice() {
            [p] if a.args.is_empty() && imp_decl.type_params.contains(p) => {
                Some(ValueExpr::Name(p.clone()))
            }
            _ => None,
        })
        .collect::<Option<_>>()?;
    if !only_params_and_wrappers(returns, &imp_decl.type_params, 0) {
        return None;
    }
    let (written, at) = receiver_written_type(cx, file, call, budget)?;
    if written.args.len() != positions.len() {
        return None;
    }
    let substituted = substitute(returns, &positions, &written.args);
    Some(instance_of(
        cx,
        &at,
        &substituted,
        Family::ReturnType,
        budget.saturating_sub(1),
    ))
}

/// Whether a written type names one of `params`.
fn names_any(ty: &TypeRef, params: &[String]) -> bool {
    matches!(ty.path.as_slice(), [p] if params.contains(p))
        || ty.args.iter().any(|a| names_any(a, params))
}

/// A type made of the parameters and std wrappers (`Option<&V>`, `Vec<V>`, `(K, V)`).
fn only_params_and_wrappers(ty: &TypeRef, params: &[String], depth: u32) -> bool {
    if depth > 8 {
        return false;
    }
    let head_ok = match ty.path.as_slice() {
        [p] => params.contains(p) || policy::is_wrapper(p) || p == policy::TUPLE,
        _ => false,
    };
    head_ok
        && ty
            .args
            .iter()
            .all(|a| only_params_and_wrappers(a, params, depth + 1))
}

/// The written type of a member call's receiver and where it is written: a
/// parameter's or a `let`'s annotation, or the last field's declared type.
fn receiver_written_type(cx: &Cx, file: u32, call: &Call, budget: u32) -> Option<(TypeRef, Site)> {
    let path = match &call.callee {
        Callee::Member {
            receiver: Receiver::Path(path),
            ..
        } => path,
        Callee::Member {
            receiver: Receiver::Call(ci),
            ..
        } => return written_return_type(cx, file, *ci, budget),
        _ => return None,
    };
    let site = Site::of_call(call, file);
    match path.as_slice() {
        [root] if root != policy::SCOPED => {
            match &lookup(cx.index, &site, root, Ns::Value)?.value {
                BindingValue::Param { ty: Some(ty), .. } | BindingValue::Typed { ty, .. } => {
                    Some((ty.clone(), site))
                }
                _ => None,
            }
        }
        [first, .., field] if first != policy::SCOPED => {
            let owner = eval_receiver_path(cx, &site, &path[..path.len() - 1], budget);
            let V::Inst(t, _) = settle(cx, owner, budget) else {
                return None;
            };
            let f = cx.index.decl(t).fields.iter().find(|f| &f.name == field)?;
            Some((f.ty.clone()?, Site::of_decl(cx.index, t)))
        }
        _ => None,
    }
}

/// The return type a call's declaration writes with its type arguments, where
/// they name no type parameter of the declaration or its impl
/// (`fn entry(&mut self, arg: Id) -> Entry<'_, Id, MatchedArg>`, so
/// `self.entry(id).or_insert(ma)` is a `MatchedArg`), read at the declaration.
fn written_return_type(cx: &Cx, file: u32, ci: u32, budget: u32) -> Option<(TypeRef, Site)> {
    if budget == 0 {
        return None;
    }
    let call = &cx.index.file(file).calls[ci as usize];
    let Resolution::Placed(p) = resolve_with_budget(cx, file, call, budget - 1) else {
        return None;
    };
    let Target::InTree(targets) = p.target() else {
        return None;
    };
    let &target = targets.first()?;
    let decl = cx.index.decl(target);
    let returns = decl.returns.as_ref()?;
    if returns.args.is_empty()
        || returns.is_self
        || targets
            .iter()
            .any(|&t| cx.index.decl(t).returns.as_ref() != Some(returns))
    {
        return None;
    }
    let mut params = decl.type_params.clone();
    if let Some(imp) = cx.index.enclosing_type(target) {
        params.extend(cx.index.decl(imp).type_params.iter().cloned());
    }
    if names_any(returns, &params) || returns.path.first().is_some_and(|s| s == "Self") {
        return None;
    }
    let mut at = Site::of_decl(cx.index, target);
    at.scope = decl.scope;
    Some((returns.clone(), at))
}

/// `String::from(…)`, `Vec::new()`, `T::default()` (derived): a value of the
/// type the path names (policy: `CONSTRUCTOR_FUNCTIONS`).
fn constructed_by_path(cx: &Cx, site: &Site, path: &[String], name: &str, budget: u32) -> V {
    if !policy::CONSTRUCTOR_FUNCTIONS.contains(&name) {
        return V::Refuse(Reason::ReceiverTypeUnknown);
    }
    match eval_path(cx, site, path, budget) {
        V::Type(t) if !cx.index.decl(t).is_module => V::Inst(t, Family::ReturnType),
        V::Outside(..) => V::Foreign {
            name: path.last().cloned().unwrap_or_default(),
            args: Vec::new(),
            site: *site,
            family: Family::ReturnType,
        },
        _ => V::Refuse(Reason::ReceiverTypeUnknown),
    }
}

/// Run a call's rules with a reduced budget (an inner call of a chain).
fn resolve_with_budget(cx: &Cx, file: u32, call: &Call, budget: u32) -> Resolution {
    if budget < 2 {
        return Resolution::Undetermined(Reason::ReceiverTypeUnknown);
    }
    DEPTH.with(|d| {
        let depth = d.get();
        if depth > 8 {
            return Resolution::Undetermined(Reason::ReceiverTypeUnknown);
        }
        d.set(depth + 1);
        let r = run_rules(cx, file, call, None);
        d.set(depth);
        r
    })
}

thread_local! {
    /// How deep chains are being re-resolved on this thread (bounds the work a
    /// long chain can cost).
    static DEPTH: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// What a member call's receiver evaluates to.
fn receiver_value(cx: &Cx, file: u32, call: &Call, budget: u32) -> V {
    let Callee::Member { receiver, .. } = &call.callee else {
        return V::Refuse(Reason::ReceiverTypeUnknown);
    };
    let site = Site::of_call(call, file);
    let v = match receiver {
        Receiver::Path(p) if p.first().is_some_and(|s| s == policy::SCOPED) => {
            return V::Refuse(Reason::ReceiverTypeUnknown)
        }
        Receiver::Path(p) => eval_receiver_path(cx, &site, p, budget),
        Receiver::Call(ci) => call_type(cx, file, *ci, budget),
        Receiver::CallThen { call: ci, path } => {
            let mut v = call_type(cx, file, *ci, budget);
            for seg in path {
                v = through(cx, v, seg, budget);
            }
            v
        }
        Receiver::New(ty) => instance_of(cx, &site, ty, Family::WrittenType, budget),
        Receiver::Literal(l) => literal(*l, &site),
        _ => V::Refuse(Reason::ReceiverTypeUnknown),
    };
    settle(cx, v, budget)
}

// ----- methods of a type ------------------------------------------------------------------------

enum Found {
    /// Declarations sharing one qualified name; `true` when found on a trait
    /// (a default method) rather than in an impl of the type.
    Decls(Vec<Eid>, bool),
    /// Several impls declare the name (two traits' methods of one name).
    Ambiguous,
    /// A method `#[derive]` gives the type: rustc compiles its body at the
    /// item the attribute decorates (D20), so the type's declaration is the target.
    Derived,
    /// A default method of a derived trait (`ne`, `max`): std's body.
    Provided(&'static str),
    /// The type may have the method from somewhere the tree does not show
    /// (a blanket impl, `Deref`).
    Unknown,
    Nothing,
}

/// The impl blocks of a type: every impl declaration named like it whose self
/// type resolves to it.
fn impls_of(cx: &Cx, t: Eid, budget: u32) -> Vec<Eid> {
    let name = &cx.index.decl(t).name;
    cx.index
        .by_name(name)
        .iter()
        .copied()
        .filter(|&e| {
            let d = cx.index.decl(e);
            let Some(of) = &d.impl_of else {
                return false;
            };
            let site = Site {
                decl: Some(e),
                ..Site::around_decl(cx.index, e)
            };
            matches!(resolve_type(cx, &site, of, budget), Ty::InTree(x) if x == t)
        })
        .collect()
}

/// `type Name = T;` in the impls of a type (of the traits `only` names, when
/// given): the one written type, as an alias read in its impl.
fn associated_type(cx: &Cx, t: Eid, name: &str, only: Option<&[&str]>, budget: u32) -> Option<V> {
    if cx.index.decl(t).kind == DeclKind::Interface {
        return None;
    }
    let mut found = Vec::new();
    for imp in impls_of(cx, t, budget) {
        let decl = cx.index.decl(imp);
        if let Some(only) = only {
            let trait_name = decl.bases.first().and_then(|b| b.last());
            if !trait_name.is_some_and(|n| only.contains(&n)) {
                continue;
            }
        }
        let Some(scope) = decl.body else {
            continue;
        };
        for b in cx.index.file(imp.file).scopes[scope as usize].named(name) {
            if let BindingValue::Typed {
                ty,
                value: Some(ValueExpr::Sequence(params)),
            } = &b.value
            {
                found.push(V::Alias {
                    target: ty.clone(),
                    params: params.clone(),
                    site: Site {
                        file: imp.file,
                        scope,
                        line: u32::MAX,
                        decl: Some(imp),
                    },
                });
            }
        }
    }
    match found.len() {
        1 => found.pop(),
        _ => None,
    }
}

/// The traits an impl block implements (resolved at the impl).
fn trait_of_impl(cx: &Cx, imp: Eid, budget: u32) -> Option<Eid> {
    let d = cx.index.decl(imp);
    let tr = d.bases.first()?;
    let site = Site {
        decl: Some(imp),
        ..Site::around_decl(cx.index, imp)
    };
    match resolve_type(cx, &site, tr, budget) {
        Ty::InTree(t) if cx.index.decl(t).kind == DeclKind::Interface => Some(t),
        _ => None,
    }
}

/// A method of a type: inherent impls first (Rust prefers them), then trait
/// impls, then the default methods of the traits it implements, then a derived
/// trait's method. A trait (as a `dyn` receiver or a path) answers its own
/// declarations and its supertraits'.
fn methods_of(cx: &Cx, t: Eid, name: &str, budget: u32) -> Found {
    let decl = cx.index.decl(t);
    if decl.kind == DeclKind::Interface {
        return trait_method(cx, t, name, budget, false);
    }
    let impls = impls_of(cx, t, budget);
    let mut inherent = Vec::new();
    let mut in_traits = Vec::new();
    for &imp in &impls {
        let found = cx.index.members(imp, name);
        if found.is_empty() {
            continue;
        }
        if cx.index.decl(imp).bases.is_empty() {
            inherent.extend_from_slice(found);
        } else {
            in_traits.extend_from_slice(found);
        }
    }
    for set in [inherent, in_traits] {
        if set.is_empty() {
            continue;
        }
        let first = cx.index.qualified_name(set[0]);
        if set.iter().all(|&e| cx.index.qualified_name(e) == first) {
            return Found::Decls(set, false);
        }
        return Found::Ambiguous;
    }
    let mut defaults = Vec::new();
    for &imp in &impls {
        if let Some(tr) = trait_of_impl(cx, imp, budget) {
            if let Found::Decls(d, _) = trait_method(cx, tr, name, budget, true) {
                defaults.push(d);
            }
        }
    }
    match defaults.len() {
        0 => {}
        1 => return Found::Decls(defaults.remove(0), true),
        _ => return Found::Ambiguous,
    }
    let derives = decl
        .decorators
        .iter()
        .filter(|d| d.path.len() == 2 && d.path[0] == "derive")
        .map(|d| d.path[1].as_str());
    match policy::derived_method(derives, name) {
        Some(policy::DerivedMethod::Generated) => return Found::Derived,
        Some(policy::DerivedMethod::Provided(tr)) => return Found::Provided(tr),
        None => {}
    }
    // A type that derefs to another reaches that type's methods too.
    let derefs = impls.iter().any(|&imp| {
        cx.index
            .decl(imp)
            .bases
            .first()
            .and_then(|b| b.last())
            .is_some_and(|n| n == "Deref" || n == "DerefMut")
    });
    if derefs {
        return Found::Unknown;
    }
    Found::Nothing
}

/// `a.clone()` on a type of the tree that `#[derive(Clone)]`s: the method the
/// derive writes has no declaration of its own; rustc compiles it at the
/// decorated `struct`/`enum`, so the call goes to that item, placed by what
/// typed the receiver (`a: &Arg` → `written_type`).
fn derived_method(t: Eid, family: Family) -> V {
    V::Fns(vec![t], family)
}

/// `Tr::m(x, …)` or `Self::m(…)` inside a trait: the implementor of x (of
/// `Self`) picks the body, so a trait's declaration is the answer only where it
/// is the one body that can run (a default no impl of the tree overrides).
/// On a type (not a trait) the declarations found are that type's own.
fn one_body_runs(cx: &Cx, t: Eid, decls: &[Eid], name: &str, budget: u32) -> bool {
    if cx.index.decl(t).kind != DeclKind::Interface {
        return true;
    }
    decls.len() == 1 && the_only_body(cx, decls[0], name, budget)
}

/// `a.ne(&b)`, `x.max(y)` on a type deriving the trait: the trait's default
/// body in std runs.
fn provided_by_std(tr: &str, name: &str) -> V {
    V::Outside(
        vec![tr.to_string(), name.to_string()],
        OutsideKind::Builtin,
        Family::Builtin,
    )
}

/// A trait's own declaration of `name`, else its supertraits'.
fn trait_method(cx: &Cx, tr: Eid, name: &str, budget: u32, inherited: bool) -> Found {
    let own = cx.index.members(tr, name);
    if !own.is_empty() {
        return Found::Decls(own.to_vec(), inherited);
    }
    if budget == 0 {
        return Found::Unknown;
    }
    let site = Site {
        decl: Some(tr),
        ..Site::around_decl(cx.index, tr)
    };
    let mut found = Vec::new();
    for b in &cx.index.decl(tr).bases {
        if let Ty::InTree(sup) = resolve_type(cx, &site, b, budget - 1) {
            if sup != tr && cx.index.decl(sup).kind == DeclKind::Interface {
                if let Found::Decls(d, _) = trait_method(cx, sup, name, budget - 1, true) {
                    found.push(d);
                }
            }
        }
    }
    match found.len() {
        0 => Found::Nothing,
        1 => Found::Decls(found.remove(0), true),
        _ => Found::Ambiguous,
    }
}

/// A method a type of the tree does not declare: where the tree declares no
/// method of that name in any trait (only inherent methods of other types, or
/// nothing), it comes from std (a blanket impl, an auto trait) and leaves the
/// tree; where a trait of the tree declares it, a blanket impl may give it.
fn missing_method(cx: &Cx, t: Eid, name: &str) -> V {
    let in_a_trait = declared_by_a_trait(cx, name);
    // Two types of that name (`#[cfg]`-selected twins): the other may declare it.
    let twins = cx
        .index
        .by_name(&cx.index.decl(t).name)
        .iter()
        .filter(|&&e| {
            let d = cx.index.decl(e);
            d.kind.is_type() && d.impl_of.is_none() && !d.is_module
        })
        .count();
    if in_a_trait || twins > 1 {
        return V::Refuse(Reason::Refused);
    }
    V::Outside(
        vec![cx.index.decl(t).name.clone(), name.to_string()],
        OutsideKind::Undeclared,
        Family::NothingDeclaresIt,
    )
}

/// A trait method with a default body that no impl of the trait in the tree
/// overrides (its implementors outside the tree could, but the tree calls its
/// own): the body every `self.m()` of the trait reaches.
fn the_only_body(cx: &Cx, method: Eid, name: &str, budget: u32) -> bool {
    if cx.index.decl(method).body.is_none() {
        return false;
    }
    let Some(tr) = cx.index.enclosing_type(method) else {
        return false;
    };
    !cx.index.by_name(name).iter().any(|&e| {
        e != method
            && cx.index.enclosing_type(e).is_some_and(|imp| {
                cx.index.decl(imp).impl_of.is_some() && trait_of_impl(cx, imp, budget) == Some(tr)
            })
    })
}

/// `x.m()` where x is `impl Tr`: a trait of the tree → abstain (each caller
/// picks the implementor); a trait outside the tree whose method name no trait
/// of the tree declares → outside `foreign_type` (`Iterator::find`).
fn method_of_impl_trait(cx: &Cx, args: &[TypeRef], site: &Site, name: &str, budget: u32) -> V {
    let Some(tr) = args.first() else {
        return V::Refuse(Reason::ReceiverTypeUnknown);
    };
    match resolve_type(cx, site, tr, budget) {
        Ty::Foreign(trait_name, _) if !declared_by_a_trait(cx, name) => V::Outside(
            vec![trait_name, name.to_string()],
            OutsideKind::ForeignType,
            Family::ForeignType,
        ),
        _ => V::Refuse(Reason::ReceiverTypeUnknown),
    }
}

/// Whether a trait of the tree (its declaration or an impl of it) declares a
/// method of this name: a blanket impl could then give it to any type.
fn declared_by_a_trait(cx: &Cx, name: &str) -> bool {
    cx.index.by_name(name).iter().any(|&e| {
        let d = cx.index.decl(e);
        d.kind.is_callable()
            && d.parent.is_some_and(|p| {
                let owner = cx.index.decl(Eid {
                    file: e.file,
                    decl: p,
                });
                owner.kind == DeclKind::Interface
                    || (owner.impl_of.is_some() && !owner.bases.is_empty())
            })
    })
}

// ----- placing ----------------------------------------------------------------------------------

fn place(v: V) -> Decision {
    match v {
        V::Fns(decls, family) => Decision::Place(Placement::in_tree(decls, family)),
        V::Lambda(e) => Decision::Place(Placement::in_tree(vec![e], Family::ValueFlow)),
        V::Outside(symbol, kind, family) => {
            let family = if family.places_outside() {
                family
            } else {
                Family::ExternalImport
            };
            Decision::Place(Placement::outside(kind, symbol.join("::"), family))
        }
        V::Variant | V::Type(_) | V::Module(_) | V::Alias { .. } => {
            Decision::Refuse(Reason::Refused)
        }
        V::Unresolved => Decision::Unresolved,
        V::Refuse(r) => Decision::Refuse(r),
        V::Generic => Decision::Refuse(Reason::ReceiverTypeUnknown),
        V::Inst(..) | V::Foreign { .. } => Decision::Refuse(Reason::LocalValue),
    }
}

// ----- the rules --------------------------------------------------------------------------------

/// `f()`: a function the scopes of the call bind (`lexical`), one a `use`
/// brings (`import`), a closure a `let` holds (`value_flow`); a parameter or an
/// opaque local abstains; a tuple struct or an enum variant is a construction,
/// not a call (refused); `Some`, `Ok`, `Err`, `drop` → outside `builtin`.
fn bare_name(cx: &Cx, file: u32, call: &Call) -> Decision {
    let Callee::Name(name) = &call.callee else {
        return Decision::Pass;
    };
    if name == "Self" {
        // `Self(x)`: the tuple struct of the impl constructed, not a call.
        return Decision::Refuse(Reason::Refused);
    }
    let site = Site::of_call(call, file);
    let v = eval_name(cx, &site, name, Ns::Value, BUDGET);
    match v {
        V::Foreign { .. } | V::Inst(..) => Decision::Refuse(Reason::LocalValue),
        V::Refuse(Reason::ParameterValue) => Decision::Refuse(Reason::ParameterValue),
        V::Unresolved => {
            // A tuple struct named as a callee lives in the type namespace too.
            match eval_name(cx, &site, name, Ns::Type, BUDGET) {
                V::Type(_) => Decision::Refuse(Reason::Refused),
                _ => Decision::Unresolved,
            }
        }
        v => place(v),
    }
}

/// `a::b::f()`, `T::new()`, `Self::f()`, `Tr::m(x)`, `Vec::new()`: the path
/// walked one segment at a time (`qualified_path`; through a `use`: `import`).
fn path_call(cx: &Cx, file: u32, call: &Call) -> Decision {
    let Callee::Member {
        receiver: Receiver::Path(path),
        name,
    } = &call.callee
    else {
        return Decision::Pass;
    };
    if path.first().map(String::as_str) != Some(policy::SCOPED) {
        return Decision::Pass;
    }
    let site = Site::of_call(call, file);
    let base = eval_path(cx, &site, &path[1..], BUDGET);
    if let Some(v) = trait_method_on_first_argument(cx, file, call, &base, name) {
        return place(v);
    }
    if the_tree_may_give_it(cx, file, call, &base, name) {
        return Decision::Refuse(Reason::Refused);
    }
    let v = member_of_path(cx, base, name, Ns::Value, BUDGET);
    let v = match v {
        V::Fns(d, Family::Lexical) => V::Fns(d, Family::QualifiedPath),
        other => other,
    };
    place(v)
}

/// `Tr::m(x, …)` where Tr is a trait of the tree and m takes `self`: x is the
/// receiver, so where x's type is a type of the tree its impl of Tr (or Tr's
/// default body, when that impl does not override m) runs (`qualified_path`).
/// `None` when x's type is not known: the caller then treats the path alone.
fn trait_method_on_first_argument(
    cx: &Cx,
    file: u32,
    call: &Call,
    base: &V,
    name: &str,
) -> Option<V> {
    let V::Type(tr) = *base else {
        return None;
    };
    if cx.index.decl(tr).kind != DeclKind::Interface {
        return None;
    }
    let Found::Decls(decls, _) = trait_method(cx, tr, name, BUDGET, false) else {
        return None;
    };
    if decls.iter().any(|&d| cx.index.decl(d).is_static) {
        return None;
    }
    let site = Site::of_call(call, file);
    let first = match call.args.first()? {
        ArgShape::Name(n) => eval_receiver_path(cx, &site, std::slice::from_ref(n), BUDGET),
        ArgShape::Path(p) => eval_receiver_path(cx, &site, p, BUDGET),
        ArgShape::Call(ci) => call_type(cx, file, *ci, BUDGET),
        ArgShape::New(ty) => instance_of(cx, &site, ty, Family::WrittenType, BUDGET),
        _ => return None,
    };
    let V::Inst(t, _) = settle(cx, first, BUDGET) else {
        return None;
    };
    if cx.index.decl(t).kind == DeclKind::Interface {
        return None;
    }
    for imp in impls_of(cx, t, BUDGET) {
        if trait_of_impl(cx, imp, BUDGET) == Some(tr) {
            let found = cx.index.members(imp, name);
            if !found.is_empty() {
                return Some(V::Fns(found.to_vec(), Family::QualifiedPath));
            }
            if decls.len() == 1 && cx.index.decl(decls[0]).body.is_some() {
                return Some(V::Fns(decls, Family::Inheritance));
            }
        }
    }
    None
}

/// `String::from(x)`, `Default::default()`, `PartialEq::eq(a, b)`: a std type's or
/// a std trait's method named by path, where the tree adds a body of that name
/// (`impl From<Str> for String`, `impl Default for Command`, `#[derive(PartialEq)]`):
/// the argument's or the expected type picks the impl, so std's is no answer.
/// A first argument of a std type the tree does not extend keeps std's body
/// (`PartialEq::eq(a.as_str(), b)`).
fn the_tree_may_give_it(cx: &Cx, file: u32, call: &Call, base: &V, name: &str) -> bool {
    let V::Outside(path, ..) = base else {
        return false;
    };
    let Some(last) = path.last() else {
        return false;
    };
    if !matches!(
        impls_on_a_foreign_type(cx, last, name, BUDGET),
        Extension::None
    ) {
        return true;
    }
    let derived = policy::derived_method(std::iter::once(last.as_str()), name)
        == Some(policy::DerivedMethod::Generated);
    let implemented = derived
        || cx.index.by_name(name).iter().any(|&m| {
            cx.index.enclosing_type(m).is_some_and(|imp| {
                let d = cx.index.decl(imp);
                d.impl_of.is_some() && d.bases.first().and_then(|b| b.last()) == Some(last)
            })
        });
    if !implemented {
        return false;
    }
    let site = Site::of_call(call, file);
    let first = match call.args.first() {
        Some(ArgShape::Name(n)) => eval_receiver_path(cx, &site, std::slice::from_ref(n), BUDGET),
        Some(ArgShape::Path(p)) => eval_receiver_path(cx, &site, p, BUDGET),
        Some(ArgShape::Call(ci)) => call_type(cx, file, *ci, BUDGET),
        Some(ArgShape::Literal(l)) => literal(*l, &site),
        _ => return true,
    };
    match settle(cx, first, BUDGET) {
        V::Foreign { name: ty, .. } => !matches!(
            impls_on_a_foreign_type(cx, &ty, name, BUDGET),
            Extension::None
        ),
        _ => true,
    }
}

/// `x.m()`: the receiver's type from what the source writes, then the method
/// on it (`own_type` for `self`, `written_type`, `return_type`, `inheritance`
/// for a trait's default method). On a type outside the tree → `foreign_type`;
/// on `Box<T>`/`Rc<T>` whose T declares m → T's m (auto-deref).
fn method_call(cx: &Cx, file: u32, call: &Call) -> Decision {
    let Callee::Member { name, .. } = &call.callee else {
        return Decision::Pass;
    };
    let recv = match receiver_value(cx, file, call, BUDGET) {
        // An untyped parameter (a closure's `|x|`) as a receiver: its type is unknown.
        V::Refuse(Reason::ParameterValue) => V::Refuse(Reason::ReceiverTypeUnknown),
        v => v,
    };
    place(method_on(cx, recv, name, BUDGET))
}

fn method_on(cx: &Cx, recv: V, name: &str, budget: u32) -> V {
    match recv {
        // `self.m()` inside a trait's default method: the implementor's m runs.
        // Only a default body no impl of the tree overrides is the one answer.
        V::Inst(t, Family::OwnType) if cx.index.decl(t).kind == DeclKind::Interface => {
            match methods_of(cx, t, name, budget) {
                Found::Decls(d, inherited)
                    if d.len() == 1 && the_only_body(cx, d[0], name, budget) =>
                {
                    V::Fns(
                        d,
                        if inherited {
                            Family::Inheritance
                        } else {
                            Family::OwnType
                        },
                    )
                }
                _ => V::Refuse(Reason::ReceiverTypeUnknown),
            }
        }
        V::Inst(t, family) => match methods_of(cx, t, name, budget) {
            Found::Decls(d, inherited) => V::Fns(
                d,
                if inherited {
                    Family::Inheritance
                } else {
                    family
                },
            ),
            Found::Ambiguous => V::Refuse(Reason::Ambiguous),
            Found::Derived => derived_method(t, family),
            Found::Provided(tr) => provided_by_std(tr, name),
            Found::Unknown => V::Refuse(Reason::ReceiverTypeUnknown),
            Found::Nothing => missing_method(cx, t, name),
        },
        V::Foreign {
            name: ty_name,
            args,
            site,
            family,
        } => {
            if ty_name == policy::IMPL_TRAIT {
                return method_of_impl_trait(cx, &args, &site, name, budget);
            }
            // Auto-deref: `Box<T>` reaches T's methods first.
            if policy::is_deref_wrapper(&ty_name) && budget > 0 {
                if let Some(inner) = args.first() {
                    if let V::Inst(t, _) = instance_of(cx, &site, inner, family, budget - 1) {
                        if let Found::Decls(d, inh) = methods_of(cx, t, name, budget - 1) {
                            return V::Fns(d, if inh { Family::Inheritance } else { family });
                        }
                    }
                }
            }
            match impls_on_a_foreign_type(cx, &ty_name, name, budget) {
                Extension::Found(d) => V::Fns(d, family),
                Extension::Maybe => V::Refuse(Reason::Refused),
                Extension::None => V::Outside(
                    vec![ty_name, name.to_string()],
                    OutsideKind::ForeignType,
                    Family::ForeignType,
                ),
            }
        }
        V::Generic => V::Refuse(Reason::ReceiverTypeUnknown),
        V::Lambda(_) | V::Fns(..) => V::Refuse(Reason::ReceiverTypeUnknown),
        V::Refuse(r) => V::Refuse(r),
        V::Unresolved => V::Refuse(Reason::ReceiverTypeUnknown),
        _ => V::Refuse(Reason::ReceiverTypeUnknown),
    }
}
