//! A local archive (`"registry": "local"`, `"archive": PATH`, relative to the working
//! directory): no download, the same checksum and unpack as every registry. For
//! private corpora and for tests that must not need the network.

use std::path::{Path, PathBuf};
use std::time::Duration;

use oracles::Outcome;

use super::fetch_verified;
use crate::corpora::CorpusEntry;
use crate::pipeline::Fetcher;

const TOOL: &str = "fetch:local";

/// The local-archive fetcher.
#[derive(Debug, Clone, Copy, Default)]
pub struct Local;

impl Fetcher for Local {
    fn registry(&self) -> &'static str {
        "local"
    }

    fn fetch(
        &self,
        corpus: &CorpusEntry,
        cache_dir: &Path,
        bound: Duration,
    ) -> Result<PathBuf, Outcome> {
        fetch_verified(corpus, cache_dir, bound, TOOL, || {
            let path = PathBuf::from(&corpus.source.archive);
            if path.is_file() {
                Ok(path)
            } else {
                Err(Outcome::ToolMissing {
                    tool: TOOL.into(),
                    detail: format!("no archive at `{}`", corpus.source.archive),
                })
            }
        })
    }
}
