//! Pair-level call graphs keyed by dotted names: PyCG's own format
//! (`{"main.func": ["to_import.func", "<builtin>.print"]}`), used both as a truth (the
//! PyCG micro-benchmark's `callgraph.json` files) and as the answer of a tool under
//! test (PyCG itself, or the engine's report converted to PyCG's names).
//!
//! A graph is split into cases (one micro-benchmark snippet each; one case named `""`
//! for a whole tree), because a case is judged on its own: *complete* when the tool
//! names no pair the case does not expect, *sound* when it names every expected one.
//!
//! Expectations no tree can be judged on are kept apart, with the reason, and
//! counted: a callee (or caller) under `<builtin>` or PyCG's `<**PyStr**>`-style type
//! names, and a name in a module the case does not contain (`ext.Cls.fun` where the
//! snippet imports a module that is not there).

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use crate::truth::OracleStamp;

/// The schema string of a pair-level truth or graph file.
pub const PAIRS_SCHEMA: &str = "callgraph-pairs/1";

/// Why an expectation (or a tool's pair) is not judged.
pub const SET_APART_BUILTIN: &str = "builtin";
pub const SET_APART_ABSENT_MODULE: &str = "absent_module";

/// A pair-level call graph of a corpus: a truth (the oracle stamp says which) or a
/// tool's answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairGraph {
    pub schema: String,
    pub corpus: String,
    /// Who produced the graph: the oracle for a truth, the tool for an answer.
    pub oracle: OracleStamp,
    pub cases: Vec<PairCase>,
}

/// One case: the dotted names of its modules and its caller → callee pairs.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairCase {
    /// The case's directory relative to the corpus root (`args/call`); `""` for a
    /// whole tree.
    pub case: String,
    /// Every module the case contains, dotted (`main`, `nested.mod`, `nested`).
    #[serde(default)]
    pub modules: Vec<String>,
    /// The judged pairs, sorted and unique.
    pub pairs: Vec<NamePair>,
    /// Pairs kept apart, with the reason; counted, never judged.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub set_apart: Vec<SetApart>,
}

/// A caller → callee pair by dotted names (`main` is the module's own code).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct NamePair {
    pub caller: String,
    pub callee: String,
}

/// A pair that is not judged, and why.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct SetApart {
    pub caller: String,
    pub callee: String,
    pub why: String,
}

impl PairCase {
    /// Builds a case from raw pairs: sorts them, removes duplicates, and sets apart
    /// the builtin ones and those naming a module the case does not contain.
    pub fn from_raw(case: &str, modules: &BTreeSet<String>, raw: &[(String, String)]) -> PairCase {
        let mut pairs = BTreeSet::new();
        let mut apart = BTreeSet::new();
        for (caller, callee) in raw {
            match why_set_apart(modules, caller, callee) {
                Some(why) => {
                    apart.insert(SetApart {
                        caller: caller.clone(),
                        callee: callee.clone(),
                        why: why.to_string(),
                    });
                }
                None => {
                    pairs.insert(NamePair {
                        caller: caller.clone(),
                        callee: callee.clone(),
                    });
                }
            }
        }
        PairCase {
            case: case.to_string(),
            modules: modules.iter().cloned().collect(),
            pairs: pairs.into_iter().collect(),
            set_apart: apart.into_iter().collect(),
        }
    }

    /// How many pairs were set apart for each reason.
    pub fn set_apart_counts(&self) -> BTreeMap<String, u64> {
        let mut counts = BTreeMap::new();
        for pair in &self.set_apart {
            *counts.entry(pair.why.clone()).or_default() += 1;
        }
        counts
    }
}

/// Why a pair cannot be judged on this case, if it cannot.
pub fn why_set_apart(
    modules: &BTreeSet<String>,
    caller: &str,
    callee: &str,
) -> Option<&'static str> {
    if is_builtin_name(caller) || is_builtin_name(callee) {
        return Some(SET_APART_BUILTIN);
    }
    if !in_modules(modules, caller) || !in_modules(modules, callee) {
        return Some(SET_APART_ABSENT_MODULE);
    }
    None
}

/// PyCG's names for what the interpreter provides: `<builtin>.len`, `<**PyStr**>.join`.
pub fn is_builtin_name(name: &str) -> bool {
    name.starts_with("<builtin>") || name.starts_with("<**")
}

/// Whether `name` is one of `modules` or lies inside one (`main.A.f` in `main`).
pub fn in_modules(modules: &BTreeSet<String>, name: &str) -> bool {
    // The name itself and each of its dotted prefixes, longest first.
    let mut candidate = name;
    loop {
        if modules.contains(candidate) {
            return true;
        }
        match candidate.rfind('.') {
            Some(cut) => candidate = &candidate[..cut],
            None => return false,
        }
    }
}

/// The dotted module name of a Python file path relative to a case root:
/// `nested/mod.py` → `nested.mod`, `nested/__init__.py` → `nested`,
/// `__init__.py` → `""` (the root package itself, which PyCG does not name).
pub fn module_of_path(path: &str) -> Option<String> {
    let stem = path.strip_suffix(".py")?;
    let stem = stem.strip_suffix("__init__").unwrap_or(stem);
    let stem = stem.strip_suffix('/').unwrap_or(stem);
    Some(stem.replace('/', "."))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn modules(names: &[&str]) -> BTreeSet<String> {
        names.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn module_names_follow_the_path() {
        assert_eq!(module_of_path("main.py").as_deref(), Some("main"));
        assert_eq!(
            module_of_path("nested/mod.py").as_deref(),
            Some("nested.mod")
        );
        assert_eq!(
            module_of_path("nested/__init__.py").as_deref(),
            Some("nested")
        );
        assert_eq!(module_of_path("__init__.py").as_deref(), Some(""));
        assert_eq!(module_of_path("README.md"), None);
    }

    #[test]
    fn builtins_and_absent_modules_are_set_apart_and_counted() {
        let m = modules(&["main", "nested", "nested.mod"]);
        let raw: Vec<(String, String)> = [
            ("main", "nested.mod.func2"),
            ("main", "<builtin>.print"),
            ("main", "<**PyStr**>.join"),
            ("main", "ext.Cls.fun"),
            ("main", "nested.mod.func2"),
            ("main.A.fn", "main.nested_not_a_module"),
        ]
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
        let case = PairCase::from_raw("imports/x", &m, &raw);
        assert_eq!(
            case.pairs,
            vec![
                NamePair {
                    caller: "main".into(),
                    callee: "nested.mod.func2".into()
                },
                NamePair {
                    caller: "main.A.fn".into(),
                    callee: "main.nested_not_a_module".into()
                }
            ]
        );
        let counts = case.set_apart_counts();
        assert_eq!(counts.get("builtin"), Some(&2));
        assert_eq!(counts.get("absent_module"), Some(&1));
    }

    #[test]
    fn a_prefix_of_a_module_name_is_not_the_module() {
        let m = modules(&["main"]);
        assert!(in_modules(&m, "main.f"));
        assert!(!in_modules(&m, "mainly.f"));
        assert!(!in_modules(&m, "ext"));
    }
}
