//! Maven Central: the corpus's `sources` jar, `mvn dependency:copy` of
//! `PACKAGE:VERSION:jar:sources` (package = `group:artifact`), with the
//! maven-dependency-plugin named by version (`oracles::maven`).

use std::path::{Path, PathBuf};
use std::time::Duration;

use oracles::maven::{copy_artifact, Coordinates};
use oracles::Outcome;

use super::{already_downloaded, download_dir, fetch_verified};
use crate::corpora::CorpusEntry;
use crate::pipeline::Fetcher;

const TOOL: &str = "fetch:maven";

/// The Maven Central fetcher.
#[derive(Debug, Clone, Copy, Default)]
pub struct Maven;

impl Fetcher for Maven {
    fn registry(&self) -> &'static str {
        "maven"
    }

    fn fetch(
        &self,
        corpus: &CorpusEntry,
        cache_dir: &Path,
        bound: Duration,
    ) -> Result<PathBuf, Outcome> {
        fetch_verified(corpus, cache_dir, bound, TOOL, || {
            download(corpus, cache_dir, bound)
        })
    }
}

/// The coordinates of a corpus's sources jar.
pub fn sources_jar(corpus: &CorpusEntry) -> Result<Coordinates, Outcome> {
    let text = format!(
        "{}:{}:jar:sources",
        corpus.source.package, corpus.source.version
    );
    Coordinates::parse(&text).map_err(|detail| Outcome::ToolFailed {
        tool: TOOL.into(),
        detail: format!(
            "corpus {}: package must be group:artifact: {detail}",
            corpus.id
        ),
    })
}

fn download(corpus: &CorpusEntry, cache_dir: &Path, bound: Duration) -> Result<PathBuf, Outcome> {
    let coordinates = sources_jar(corpus)?;
    let archive = if corpus.source.archive.is_empty() {
        coordinates.file_name()
    } else {
        corpus.source.archive.clone()
    };
    if archive != coordinates.file_name() {
        return Err(Outcome::ToolFailed {
            tool: TOOL.into(),
            detail: format!(
                "corpus {}: archive `{archive}` is not the sources jar `{}`",
                corpus.id,
                coordinates.file_name()
            ),
        });
    }
    let dir = download_dir(cache_dir, corpus);
    if let Some(found) = already_downloaded(&dir, &archive, &corpus.source.sha256) {
        return Ok(found);
    }
    copy_artifact(&coordinates, &dir, bound)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sources_jar_is_named_from_package_and_version() {
        let corpus: CorpusEntry = serde_json::from_value(serde_json::json!({
            "id": "gson", "language": "java",
            "source": {"registry": "maven", "package": "com.google.code.gson:gson",
                       "version": "2.10.1", "sha256": "0".repeat(64)},
            "oracle": {"name": "javac"}}))
        .unwrap();
        let c = sources_jar(&corpus).unwrap();
        assert_eq!(
            c.artifact_arg(),
            "com.google.code.gson:gson:2.10.1:jar:sources"
        );
        assert_eq!(c.file_name(), "gson-2.10.1-sources.jar");
    }
}
