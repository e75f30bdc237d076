//! The type hierarchy the tree writes: direct bases of every type declaration,
//! resolved once, and each type's member lookup order (Python C3, Java
//! class-then-interfaces). Built after the index, read-only afterwards.
//!
//! Every pass over the whole hierarchy is linear in its types and base edges (D14):
//! the "an ancestor has an unknown base" flag flows down the subtype edges once, and
//! chain heights are computed once per type.

use std::collections::VecDeque;
use std::sync::Mutex;

use crate::fasthash::{FastMap as HashMap, FastSet as HashSet};

use rayon::prelude::*;

use crate::index::{Eid, TreeIndex};
use crate::resolve::resolver_for;

/// How deep the lookup orders go (depth-first and C3): an inheritance chain longer
/// than this leaves the order cut, and a lookup that misses on such a type is
/// inconclusive, never "nothing declares it" (D18).
pub const MAX_ORDER_DEPTH: usize = 64;

#[derive(Default)]
pub struct Hierarchy {
    bases: HashMap<Eid, Vec<Eid>>,
    /// Types whose lookups are inconclusive: a base outside the tree or one the
    /// engine could not resolve, here or above, or a chain of bases past
    /// [`MAX_ORDER_DEPTH`].
    unknown_base: HashSet<Eid>,
    /// Types whose chain of bases is longer than [`MAX_ORDER_DEPTH`].
    cut: HashSet<Eid>,
    order: HashMap<Eid, Vec<Eid>>,
    /// Direct in-tree subtypes of each type.
    subtypes: HashMap<Eid, Vec<Eid>>,
    /// `overridden_below` answers, by (type, name): a class whose methods call
    /// `self.m()` twenty thousand times asks the same question each time.
    overridden: Mutex<HashMap<(Eid, String), bool>>,
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
        h.cut = h.past_the_order_depth(&types);
        let cut: Vec<Eid> = h.cut.iter().copied().collect();
        h.unknown_base.extend(cut);
        h.unknown_base = h.with_every_subtype(&h.unknown_base);
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

    /// Whether `ty`'s lookup order was cut at [`MAX_ORDER_DEPTH`]: a member missing
    /// from it may still be declared further up.
    pub fn order_was_cut(&self, ty: Eid) -> bool {
        self.cut.contains(&ty)
    }

    /// `from` and every type below one of them: an unknown base anywhere above a
    /// type makes its lookups inconclusive too. One breadth-first pass down the
    /// subtype edges, each type entered once.
    fn with_every_subtype(&self, from: &HashSet<Eid>) -> HashSet<Eid> {
        let mut out = from.clone();
        let mut queue: VecDeque<Eid> = from.iter().copied().collect();
        while let Some(t) = queue.pop_front() {
            for &s in self.subtypes.get(&t).map(Vec::as_slice).unwrap_or(&[]) {
                if out.insert(s) {
                    queue.push_back(s);
                }
            }
        }
        out
    }

    /// The types with a chain of bases longer than [`MAX_ORDER_DEPTH`]: each type's
    /// height (the longest chain above it) computed once, bases first, with an
    /// explicit stack (a 20 000-deep chain must not recurse). A base met again while
    /// its own height is being computed closes a cycle the source wrote; that edge
    /// adds nothing, so a cycle alone is never "too deep".
    fn past_the_order_depth(&self, types: &[Eid]) -> HashSet<Eid> {
        let mut height: HashMap<Eid, usize> = HashMap::default();
        let mut in_progress: HashSet<Eid> = HashSet::default();
        for &start in types {
            if height.contains_key(&start) {
                continue;
            }
            let mut stack = vec![(start, false)];
            while let Some((t, bases_done)) = stack.pop() {
                if bases_done {
                    let above = self
                        .bases(t)
                        .iter()
                        .filter_map(|b| height.get(b))
                        .max()
                        .map_or(0, |h| h + 1);
                    in_progress.remove(&t);
                    height.insert(t, above);
                    continue;
                }
                if height.contains_key(&t) || !in_progress.insert(t) {
                    continue;
                }
                stack.push((t, true));
                for &b in self.bases(t) {
                    if !height.contains_key(&b) && !in_progress.contains(&b) {
                        stack.push((b, false));
                    }
                }
            }
        }
        height
            .into_iter()
            .filter(|&(_, h)| h > MAX_ORDER_DEPTH)
            .map(|(t, _)| t)
            .collect()
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
    /// through `self` may then run that override instead. Answered once per (type,
    /// name); repeated questions are a lookup.
    pub fn overridden_below(&self, index: &crate::index::TreeIndex, ty: Eid, name: &str) -> bool {
        let key = (ty, name.to_string());
        if let Some(&known) = self.overridden.lock().expect("not poisoned").get(&key) {
            return known;
        }
        let answer = self.walk_below_for(index, ty, name);
        self.overridden
            .lock()
            .expect("not poisoned")
            .insert(key, answer);
        answer
    }

    fn walk_below_for(&self, index: &crate::index::TreeIndex, ty: Eid, name: &str) -> bool {
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

    /// [`Hierarchy::below`] when there are at most `limit` such types, else `None`;
    /// the walk stops at the first type past the limit, so asking it once per call
    /// of a class with twenty thousand subclasses stays linear (D14).
    pub fn below_at_most(&self, ty: Eid, limit: usize) -> Option<Vec<Eid>> {
        let mut seen = HashSet::default();
        let mut stack: Vec<Eid> = self.subtypes.get(&ty).cloned().unwrap_or_default();
        while let Some(t) = stack.pop() {
            if seen.insert(t) {
                if seen.len() > limit {
                    return None;
                }
                if let Some(subs) = self.subtypes.get(&t) {
                    stack.extend(subs.iter().copied());
                }
            }
        }
        let mut out: Vec<Eid> = seen.into_iter().collect();
        out.sort();
        Some(out)
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
        if depth > MAX_ORDER_DEPTH || !seen.insert(ty) {
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
        if depth > MAX_ORDER_DEPTH {
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
