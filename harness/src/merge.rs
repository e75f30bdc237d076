//! `harness merge`: the measurements of several shards combined into the tables a
//! single run would have written. Rows are sorted by id and tables are pure functions
//! of the rows, so the result is byte-identical to an unsharded run.

use std::collections::BTreeMap;

use crate::error::{Error, Result};
use crate::model::Measurements;

/// Combines shards; a row id present in two inputs is refused (overlapping shards
/// would otherwise hide which run a row came from).
pub fn merge(parts: Vec<(String, Measurements)>) -> Result<Measurements> {
    let mut origin: BTreeMap<String, String> = BTreeMap::new();
    let mut rows = Vec::new();
    let mut crosschecks = Vec::new();
    for (name, part) in parts {
        crosschecks.extend(part.crosschecks);
        for row in part.rows {
            if let Some(first) = origin.get(&row.id) {
                return Err(Error::DuplicateRow {
                    id: row.id.clone(),
                    detail: format!("{first} and {name}"),
                });
            }
            origin.insert(row.id.clone(), name.clone());
            rows.push(row);
        }
    }
    Ok(Measurements::new(rows).with_crosschecks(crosschecks))
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use oracles::Outcome;

    use super::*;
    use crate::engine::Analyzer;
    use crate::measure::{measure_units, plan, take_shard, Selection, Shard, Sources};
    use crate::outputs::render_all;
    use crate::pipeline::CorpusSetup;
    use crate::progress::Progress;
    use crate::report::Report;

    fn fixtures() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
    }

    /// Reads `reports/<language>/<case>.json` for the case at `root`.
    struct Canned;

    impl Analyzer for Canned {
        fn analyze_with(
            &self,
            root: &Path,
            _build: &crate::corpora::BuildConfiguration,
        ) -> Result<Report, Outcome> {
            let case = root.file_name().unwrap().to_string_lossy();
            let language = root
                .parent()
                .unwrap()
                .file_name()
                .unwrap()
                .to_string_lossy();
            let path = fixtures()
                .join("reports")
                .join(&*language)
                .join(format!("{case}.json"));
            Report::load(&path, u64::MAX).map_err(|e| Outcome::ToolFailed {
                tool: "canned".into(),
                detail: e.to_string(),
            })
        }
    }

    fn measure(shard: Option<Shard>) -> Measurements {
        let sources = Sources {
            proofs_dir: fixtures().join("proofs"),
            corpora_path: "corpora.json".into(),
            corpora_explicit: false,
            input_cap: u64::MAX,
        };
        let setup = CorpusSetup {
            cache_dir: ".cache".into(),
            bound: std::time::Duration::from_secs(1),
            manifests_dir: "manifests".into(),
            peers: false,
        };
        let mut units = plan(&sources, &Selection::Default).unwrap();
        if let Some(shard) = shard {
            units = take_shard(units, shard);
        }
        let m = measure_units(&units, &sources, &setup, &Canned, &Progress::quiet()).unwrap();
        // Through the file format, as shards travel between machines.
        Measurements::from_slice(m.to_json().as_bytes(), "shard").unwrap()
    }

    #[test]
    fn a_merge_of_shards_renders_exactly_as_a_single_run() {
        let single = measure(None);
        assert_eq!(single.rows.len(), 2);
        let first = measure(Some(Shard { index: 1, count: 2 }));
        let second = measure(Some(Shard { index: 2, count: 2 }));
        assert_eq!(first.rows.len() + second.rows.len(), 2);
        let merged = merge(vec![("b".into(), second), ("a".into(), first)]).unwrap();
        assert_eq!(render_all(&merged), render_all(&single));
    }

    #[test]
    fn a_row_in_two_shards_is_refused() {
        let single = measure(None);
        let err = merge(vec![("a".into(), single.clone()), ("b".into(), single)]).unwrap_err();
        assert_eq!(err.code(), "duplicate_row");
        assert!(err.to_string().contains("a and b"), "{err}");
    }
}
