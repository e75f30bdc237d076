//! Truths are cached by what determines them: the corpus pin (archive sha256, root,
//! include list), the oracle's name and adapter version, the toolchain's version and
//! the oracle options. A second measurement of an unchanged corpus reads the truth
//! instead of compiling the corpus again; changing any of these computes a new one.
//! Outcomes (a missing or failing toolchain) are never cached.

use std::path::{Path, PathBuf};

use oracles::{input_cap_from_env, Oracle, Outcome, Truth};
use sha2::{Digest, Sha256};

use crate::corpora::CorpusEntry;

/// The cache file of the truth of `corpus` by `oracle` under `toolchain`.
pub fn truth_path(
    cache_dir: &Path,
    corpus: &CorpusEntry,
    oracle: &dyn Oracle,
    toolchain: &str,
) -> PathBuf {
    let mut key = serde_json::json!({
        "corpus": corpus.id,
        "sha256": corpus.source.sha256.to_ascii_lowercase(),
        "root": corpus.root,
        "include": corpus.include,
        "oracle": oracle.name(),
        "adapter": oracle.version(),
        "toolchain": toolchain,
        "options": corpus.oracle.options,
    });
    // Only corpora with a preparation step or a build configuration carry them, so
    // every other key is unchanged.
    if let Some(step) = &corpus.prepare {
        key["prepare"] = serde_json::json!(step);
    }
    if !corpus.build.is_default() {
        key["build"] = serde_json::json!(corpus.build);
    }
    let digest = crate::proofs::hex(&Sha256::digest(key.to_string().as_bytes()));
    cache_dir.join("truths").join(format!(
        "{}-{}-{}.json",
        corpus.id,
        oracle.name(),
        &digest[..16]
    ))
}

/// The cached truth when there is a usable one, else `compute()`'s, which is then
/// cached. Returns whether it came from the cache.
pub fn cached_truth(
    cache_dir: &Path,
    corpus: &CorpusEntry,
    oracle: &dyn Oracle,
    toolchain: &str,
    compute: impl FnOnce() -> Result<Truth, Outcome>,
) -> Result<(Truth, bool), Outcome> {
    let path = truth_path(cache_dir, corpus, oracle, toolchain);
    if let Ok(truth) = Truth::load(&path, input_cap_from_env()) {
        if truth.corpus == corpus.id && truth.oracle.adapter == oracle.version() {
            return Ok((truth, true));
        }
    }
    let truth = compute()?;
    let mut text = serde_json::to_string(&truth).expect("truths serialize");
    text.push('\n');
    // A cache that cannot be written costs a recomputation next time, not this answer.
    let _ = crate::atomic::write_atomic(&path, text.as_bytes());
    Ok((truth, false))
}

#[cfg(test)]
mod tests {
    use super::*;
    use oracles::{ColumnUnit, OracleOptions, OracleStamp, TRUTH_SCHEMA};

    struct Counting(std::cell::Cell<u32>);

    impl Oracle for Counting {
        fn name(&self) -> &'static str {
            "fake"
        }
        fn version(&self) -> &'static str {
            "3"
        }
        fn toolchain_version(&self) -> Result<String, Outcome> {
            Ok("fake 1".into())
        }
        fn run(&self, _: &Path, _: &OracleOptions<'_>) -> Result<Truth, Outcome> {
            self.0.set(self.0.get() + 1);
            Ok(Truth {
                schema: TRUTH_SCHEMA.into(),
                corpus: "c".into(),
                oracle: OracleStamp {
                    name: "fake".into(),
                    version: "1".into(),
                    adapter: "3".into(),
                    column: ColumnUnit::Name,
                },
                shape: None,
                sites: vec![],
                references: None,
                pairs: vec![],
            })
        }
    }

    fn corpus(sha: &str) -> CorpusEntry {
        serde_json::from_value(serde_json::json!({
            "id": "c", "language": "java",
            "source": {"registry": "local", "package": "c", "version": "1", "sha256": sha},
            "oracle": {"name": "fake", "options": {"release": "8"}}}))
        .unwrap()
    }

    #[test]
    fn a_truth_is_computed_once_per_pin_adapter_and_toolchain() {
        let cache = tempfile::tempdir().unwrap();
        let oracle = Counting(std::cell::Cell::new(0));
        let dir = Path::new("/nonexistent");
        let options = serde_json::Value::Null;
        let run = |c: &CorpusEntry, toolchain: &str| {
            cached_truth(cache.path(), c, &oracle, toolchain, || {
                oracle.run(
                    dir,
                    &OracleOptions {
                        corpus_id: &c.id,
                        language: "java",
                        options: &options,
                        build: oracles::DEFAULT_BUILD,
                        work_dir: dir,
                        cache_dir: dir,
                        timeout: std::time::Duration::from_secs(1),
                    },
                )
            })
            .unwrap()
            .1
        };
        let a = corpus(&"a".repeat(64));
        assert!(!run(&a, "fake 1"));
        assert!(run(&a, "fake 1"));
        assert_eq!(oracle.0.get(), 1);
        assert!(
            !run(&a, "fake 2"),
            "another toolchain version is another truth"
        );
        assert!(
            !run(&corpus(&"b".repeat(64)), "fake 1"),
            "another pin is another truth"
        );
        assert_eq!(oracle.0.get(), 3);
    }
}
