//! Site identity and pairing (protocol/2 §1).
//!
//! Engine sites and truth sites are grouped by (file, line). Within a group they pair
//! by name as written (without case for Ada), then — where both sides give columns in
//! comparable units — by smallest column distance, then in order. An unpaired truth
//! site is missed; an unpaired engine site is unjudged.

use std::collections::{BTreeMap, HashSet};

use oracles::{ColumnUnit, TruthSite};

use crate::report::Call;

/// How names are compared when pairing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct NameRule {
    /// Ada names are case-insensitive, so its sites pair without case.
    pub fold_case: bool,
}

impl NameRule {
    /// The name rule of a language.
    pub fn for_language(language: &str) -> NameRule {
        NameRule {
            fold_case: language.eq_ignore_ascii_case("ada"),
        }
    }

    fn key(self, name: &str) -> String {
        if self.fold_case {
            name.to_lowercase()
        } else {
            name.to_string()
        }
    }
}

/// Which engine site each truth site paired with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pairing {
    /// For each truth site (by index), the index of its engine partner.
    pub truth_to_engine: Vec<Option<usize>>,
    /// For each engine site (by index), whether a truth site took it.
    pub engine_paired: Vec<bool>,
}

/// Pairs engine sites with truth sites. `unit` says what the truth's columns mean;
/// only `name` columns are compared with the engine's, which point at the name token.
pub fn pair_sites(
    engine: &[Call],
    truth: &[TruthSite],
    unit: ColumnUnit,
    names: NameRule,
) -> Pairing {
    let mut pairing = Pairing {
        truth_to_engine: vec![None; truth.len()],
        engine_paired: vec![false; engine.len()],
    };
    for bucket in buckets(engine, truth, names).into_values() {
        for (t, e) in pair_bucket(&bucket, engine, truth, unit) {
            pairing.truth_to_engine[t] = Some(e);
            pairing.engine_paired[e] = true;
        }
    }
    pairing
}

/// The sites of one (file, line, name) on both sides, by index, in input order.
#[derive(Debug, Default)]
struct Bucket {
    truth: Vec<usize>,
    engine: Vec<usize>,
}

type BucketKey<'a> = (&'a str, u32, String);

fn buckets<'a>(
    engine: &'a [Call],
    truth: &'a [TruthSite],
    names: NameRule,
) -> BTreeMap<BucketKey<'a>, Bucket> {
    let mut buckets: BTreeMap<BucketKey<'a>, Bucket> = BTreeMap::new();
    for (i, site) in truth.iter().enumerate() {
        let key = (site.file.as_str(), site.line, names.key(&site.name));
        buckets.entry(key).or_default().truth.push(i);
    }
    for (i, call) in engine.iter().enumerate() {
        let key = (call.file.as_str(), call.line, names.key(&call.name));
        buckets.entry(key).or_default().engine.push(i);
    }
    buckets
}

/// Pairs within one bucket: comparable columns first (closest wins), the rest in
/// order of their columns (then of input order).
fn pair_bucket(
    bucket: &Bucket,
    engine: &[Call],
    truth: &[TruthSite],
    unit: ColumnUnit,
) -> Vec<(usize, usize)> {
    let mut pairs = Vec::new();
    let mut truth_left = bucket.truth.clone();
    let mut engine_left = bucket.engine.clone();
    if unit == ColumnUnit::Name {
        pairs = pair_by_column_distance(&truth_left, &engine_left, engine, truth);
        let (paired_truth, paired_engine): (HashSet<usize>, HashSet<usize>) =
            pairs.iter().copied().unzip();
        truth_left.retain(|t| !paired_truth.contains(t));
        engine_left.retain(|e| !paired_engine.contains(e));
    }
    // Columns in other units still order the sites of one line the same way the
    // name columns would (the `(` and the expression start move with the name).
    truth_left.sort_by_key(|&t| (truth[t].column.unwrap_or(u32::MAX), t));
    engine_left.sort_by_key(|&e| (engine[e].column.unwrap_or(u32::MAX), e));
    pairs.extend(truth_left.into_iter().zip(engine_left));
    pairs
}

/// Greedy matching on the smallest column distance, ties broken by position, so two
/// calls of one name on one line (`f(f(x))`) pair with their own counterparts.
fn pair_by_column_distance(
    truth_ids: &[usize],
    engine_ids: &[usize],
    engine: &[Call],
    truth: &[TruthSite],
) -> Vec<(usize, usize)> {
    let mut candidates = Vec::new();
    for &t in truth_ids {
        let Some(tc) = truth[t].column else { continue };
        for &e in engine_ids {
            let Some(ec) = engine[e].column else { continue };
            candidates.push((tc.abs_diff(ec), tc, ec, t, e));
        }
    }
    candidates.sort_unstable();
    let mut truth_taken = HashSet::new();
    let mut engine_taken = HashSet::new();
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    for (_, _, _, t, e) in candidates {
        if !truth_taken.contains(&t) && !engine_taken.contains(&e) {
            truth_taken.insert(t);
            engine_taken.insert(e);
            pairs.push((t, e));
        }
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::call;

    fn site(line: u32, column: Option<u32>, name: &str) -> TruthSite {
        TruthSite {
            file: "a.py".into(),
            line,
            column,
            caller: None,
            name: name.into(),
            targets: vec![],
            unjudged: None,
            implicit: None,
            expect: Some(oracles::Expect::Abstain),
            primary: false,
        }
    }

    #[test]
    fn two_calls_of_one_name_on_one_line_pair_by_column() {
        // f(f(x)): truth lists the inner call first, the engine the outer first.
        let truth = [site(3, Some(3), "f"), site(3, Some(1), "f")];
        let engine = [call(3, Some(1), "f"), call(3, Some(3), "f")];
        let p = pair_sites(&engine, &truth, ColumnUnit::Name, NameRule::default());
        assert_eq!(p.truth_to_engine, vec![Some(1), Some(0)]);
    }

    #[test]
    fn columns_in_other_units_pair_in_order() {
        // Open-paren columns 2 and 4 are not comparable with name columns 1 and 3,
        // but they order the two calls the same way.
        let truth = [site(3, Some(4), "f"), site(3, Some(2), "f")];
        let engine = [call(3, Some(3), "f"), call(3, Some(1), "f")];
        let p = pair_sites(&engine, &truth, ColumnUnit::OpenParen, NameRule::default());
        assert_eq!(p.truth_to_engine, vec![Some(0), Some(1)]);
    }

    #[test]
    fn a_truth_with_columns_against_a_report_without_pairs_in_order() {
        let truth = [
            site(3, Some(1), "f"),
            site(3, Some(3), "f"),
            site(3, Some(9), "g"),
        ];
        let engine = [call(3, None, "f"), call(3, None, "f")];
        let p = pair_sites(&engine, &truth, ColumnUnit::Name, NameRule::default());
        assert_eq!(p.truth_to_engine, vec![Some(0), Some(1), None]);
        assert_eq!(p.engine_paired, vec![true, true]);
    }

    #[test]
    fn names_and_lines_must_agree_and_ada_ignores_case() {
        let truth = [site(3, Some(1), "Put_Line"), site(4, Some(1), "g")];
        let engine = [call(3, Some(1), "put_line"), call(5, Some(1), "g")];
        let p = pair_sites(&engine, &truth, ColumnUnit::Name, NameRule::default());
        assert_eq!(p.truth_to_engine, vec![None, None]);
        let p = pair_sites(
            &engine,
            &truth,
            ColumnUnit::Name,
            NameRule::for_language("ada"),
        );
        assert_eq!(p.truth_to_engine, vec![Some(0), None]);
    }
}
