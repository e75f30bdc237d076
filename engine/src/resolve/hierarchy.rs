//! The type hierarchy the tree writes: direct bases of every type declaration,
//! resolved once, and each type's member lookup order (Python C3, Java
//! class-then-interfaces). Built after the index, read-only afterwards.

use crate::fasthash::{FastMap as HashMap, FastSet as HashSet};

use rayon::prelude::*;

use crate::index::{Eid, TreeIndex};
use crate::resolve::resolver_for;

#[derive(Default)]
pub struct Hierarchy {
    bases: HashMap<Eid, Vec<Eid>>,
    /// Types with a base outside the tree or one the engine could not resolve.
    unknown_base: HashSet<Eid>,
    order: HashMap<Eid, Vec<Eid>>,
    /// Direct in-tree subtypes of each type.
    subtypes: HashMap<Eid, Vec<Eid>>,
}

impl Hierarchy {
    pub fn build(index: &TreeIndex) -> Hierarchy {
        let types: Vec<Eid> = (0..index.files.len() as u32)
            .flat_map(|fi| {
                index
                    .file(fi)
                    .decls
                    .iter()
                    .enumerate()
                    .filter(|(_, d)| d.kind.is_type())
                    .map(move |(di, _)| Eid {
                        file: fi,
                        decl: di as u32,
                    })
            })
            .collect();
        let direct: Vec<(Eid, Vec<Eid>, bool)> = types
            .par_iter()
            .map(|&t| {
                let (bases, unknown) = resolver_for(index.file(t.file).language).bases(index, t);
                (t, bases, unknown)
            })
            .collect();
        let mut h = Hierarchy::default();
        for (t, bases, unknown) in direct {
            if unknown {
                h.unknown_base.insert(t);
            }
            for &b in &bases {
                h.subtypes.entry(b).or_default().push(t);
            }
            h.bases.insert(t, bases);
        }
        for subs in h.subtypes.values_mut() {
            subs.sort();
            subs.dedup();
        }
        // An unknown base anywhere above a type makes its lookups inconclusive too.
        let mut inherited_unknown = Vec::new();
        for &t in &types {
            if h.ancestors(t).iter().any(|a| h.unknown_base.contains(a)) {
                inherited_unknown.push(t);
            }
        }
        h.unknown_base.extend(inherited_unknown);
        let orders: Vec<(Eid, Vec<Eid>)> = types
            .par_iter()
            .map(|&t| {
                let lang = index.file(t.file).language;
                (t, resolver_for(lang).lookup_order(&h, t))
            })
            .collect();
        h.order = orders.into_iter().collect();
        h
    }

    pub fn bases(&self, ty: Eid) -> &[Eid] {
        self.bases.get(&ty).map(Vec::as_slice).unwrap_or(&[])
    }

    pub fn has_unknown_base(&self, ty: Eid) -> bool {
        self.unknown_base.contains(&ty)
    }

    /// The precomputed lookup order, when built.
    pub fn order(&self, ty: Eid) -> Option<&[Eid]> {
        self.order.get(&ty).map(Vec::as_slice)
    }

    /// Every type above `ty` (bounded against cycles the source may write).
    pub fn ancestors(&self, ty: Eid) -> Vec<Eid> {
        let mut seen = HashSet::default();
        let mut out = Vec::new();
        let mut stack: Vec<Eid> = self.bases(ty).to_vec();
        while let Some(t) = stack.pop() {
            if t == ty || !seen.insert(t) {
                continue;
            }
            out.push(t);
            stack.extend(self.bases(t).iter().copied());
        }
        out
    }

    /// Whether a type the tree declares below `ty` declares `name` itself: a call
    /// through `self` may then run that override instead.
    pub fn overridden_below(&self, index: &crate::index::TreeIndex, ty: Eid, name: &str) -> bool {
        let mut seen = HashSet::default();
        let mut stack: Vec<Eid> = self.subtypes.get(&ty).cloned().unwrap_or_default();
        while let Some(t) = stack.pop() {
            if !seen.insert(t) {
                continue;
            }
            if !index.members(t, name).is_empty() {
                return true;
            }
            if let Some(subs) = self.subtypes.get(&t) {
                stack.extend(subs.iter().copied());
            }
        }
        false
    }

    /// Every type the tree declares below `ty`, each once, in declaration order.
    pub fn below(&self, ty: Eid) -> Vec<Eid> {
        let mut seen = HashSet::default();
        let mut stack: Vec<Eid> = self.subtypes.get(&ty).cloned().unwrap_or_default();
        while let Some(t) = stack.pop() {
            if seen.insert(t) {
                if let Some(subs) = self.subtypes.get(&t) {
                    stack.extend(subs.iter().copied());
                }
            }
        }
        let mut out: Vec<Eid> = seen.into_iter().collect();
        out.sort();
        out
    }

    pub fn is_subtype(&self, sub: Eid, sup: Eid) -> bool {
        sub == sup || self.ancestors(sub).contains(&sup)
    }

    /// Depth-first, left-to-right, each type once (Java: superclass before interfaces
    /// as the frontend lists them).
    pub fn depth_first(&self, ty: Eid) -> Vec<Eid> {
        let mut seen = HashSet::default();
        let mut out = Vec::new();
        self.walk(ty, &mut seen, &mut out, 0);
        out
    }

    fn walk(&self, ty: Eid, seen: &mut HashSet<Eid>, out: &mut Vec<Eid>, depth: usize) {
        if depth > 64 || !seen.insert(ty) {
            return;
        }
        out.push(ty);
        for &b in self.bases(ty) {
            self.walk(b, seen, out, depth + 1);
        }
    }

    /// Python's C3 linearization; `None` when the bases admit none (the class
    /// statement would raise TypeError) or a cycle is written.
    pub fn c3(&self, ty: Eid) -> Option<Vec<Eid>> {
        self.c3_bounded(ty, 0)
    }

    fn c3_bounded(&self, ty: Eid, depth: usize) -> Option<Vec<Eid>> {
        if depth > 64 {
            return None;
        }
        let bases = self.bases(ty);
        let mut seqs: Vec<Vec<Eid>> = Vec::with_capacity(bases.len() + 1);
        for &b in bases {
            if b == ty {
                return None;
            }
            seqs.push(self.c3_bounded(b, depth + 1)?);
        }
        seqs.push(bases.to_vec());
        let mut out = vec![ty];
        loop {
            seqs.retain(|s| !s.is_empty());
            if seqs.is_empty() {
                return Some(out);
            }
            let head = seqs
                .iter()
                .map(|s| s[0])
                .find(|h| !seqs.iter().any(|s| s[1..].contains(h)))?;
            out.push(head);
            for s in seqs.iter_mut() {
                if s[0] == head {
                    s.remove(0);
                }
            }
        }
    }
}
