//! Type stubs (`.pyi`, PEP 484/561). A stub describes a module; it is not one.
//!
//! - A stub declares nothing a call can reach: its declarations are listed as
//!   inactive entities, it has no call sites, and no module lookup lands in it
//!   while a source module of its name exists.
//! - A stub beside its module (`pkg/mod.pyi` and `pkg/mod.py`, `__init__.pyi` and
//!   `__init__.py`) supplies types: the declarations the two files write under one
//!   qualified name are paired (`FileFacts::stub_pair`), and the resolver reads the
//!   stub's annotation, in the stub's own scopes, where the module writes none.
//! - A stub with no module beside it (a C extension's stub, a stub-only package)
//!   is a module whose code is outside the tree.

use crate::facts::*;
use crate::fasthash::FastMap;
use crate::lang::Language;

/// Whether a Python path is a type stub.
pub fn is_stub_path(path: &str) -> bool {
    path.ends_with(".pyi")
}

/// A stub's facts once extracted: what the stub writes as code (calls, values,
/// patches, function-as-value references) is no part of the program. Only its
/// declarations, imports, written types and class attribute types are kept.
pub fn keep_only_descriptions(facts: &mut FileFacts) {
    facts.role = FileRole::Stub;
    facts.calls.clear();
    facts.refs.clear();
    facts.patches.clear();
    for scope in &mut facts.scopes {
        for b in &mut scope.bindings {
            b.value = match std::mem::replace(&mut b.value, BindingValue::Opaque) {
                keep @ (BindingValue::Decl(_)
                | BindingValue::Import(_)
                | BindingValue::Param { .. }) => keep,
                BindingValue::Typed { ty, .. } => BindingValue::Typed { ty, value: None },
                _ => BindingValue::Opaque,
            };
        }
    }
    for decl in &mut facts.decls {
        decl.returns_value = None;
        decl.yields_value = None;
        for p in &mut decl.params {
            p.default = None;
        }
        for f in &mut decl.fields {
            f.value = None;
        }
    }
}

/// Once every path is known: pair each stub with the module beside it, match their
/// declarations by qualified name, and make every stub declaration inactive (never
/// a target; the index does not hold it).
pub fn pair_stubs(facts: &mut [FileFacts]) {
    let by_path: FastMap<String, usize> = facts
        .iter()
        .enumerate()
        .filter(|(_, f)| f.language == Language::Python)
        .map(|(i, f)| (f.path.clone(), i))
        .collect();
    for si in 0..facts.len() {
        if facts[si].role != FileRole::Stub {
            continue;
        }
        let source = facts[si].path.strip_suffix('i').map(str::to_string);
        if let Some(&pi) = source.and_then(|p| by_path.get(&p)) {
            pair(facts, pi, si);
        }
        for decl in &mut facts[si].decls {
            decl.inactive = true;
        }
    }
}

/// Pairs a module (`pi`) and its stub (`si`): declarations active in each file
/// that share a qualified name.
fn pair(facts: &mut [FileFacts], pi: usize, si: usize) {
    let stub_names = names_in_file(&facts[si]);
    let mut stub_by_name: FastMap<&str, Vec<DeclIdx>> = FastMap::default();
    for (d, name) in stub_names.iter().enumerate() {
        if let Some(name) = name {
            stub_by_name.entry(name).or_default().push(d as DeclIdx);
        }
    }
    let mut source_side = Vec::new();
    for (d, name) in names_in_file(&facts[pi]).iter().enumerate() {
        let Some(matched) = name.as_deref().and_then(|n| stub_by_name.get(n)) else {
            continue;
        };
        for &s in matched {
            source_side.push((d as DeclIdx, s));
        }
    }
    let mut stub_side: Vec<(DeclIdx, DeclIdx)> = source_side.iter().map(|&(p, s)| (s, p)).collect();
    stub_side.sort_unstable();
    source_side.sort_unstable();
    facts[si].stub_pair = Some(StubPair {
        other: facts[pi].path.clone(),
        decls: stub_side,
    });
    facts[pi].stub_pair = Some(StubPair {
        other: facts[si].path.clone(),
        decls: source_side,
    });
}

/// Each declaration's qualified name inside its file (`Outer.Inner.m`), or `None`
/// for one the build leaves out (a version branch not taken) and anything inside it.
fn names_in_file(file: &FileFacts) -> Vec<Option<String>> {
    let mut out: Vec<Option<String>> = Vec::with_capacity(file.decls.len());
    for decl in &file.decls {
        // Parents precede children in `decls`, so the parent's name is ready.
        let name = match decl.parent {
            _ if decl.inactive || decl.kind == DeclKind::Lambda => None,
            Some(p) => out[p as usize]
                .as_ref()
                .map(|parent| format!("{parent}.{}", decl.name)),
            None => Some(decl.name.clone()),
        };
        out.push(name);
    }
    out
}
