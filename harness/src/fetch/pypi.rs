//! PyPI sdists (`"registry": "pypi"`), downloaded with pip, the registry's ordinary
//! client: `python3 -m pip download --no-deps --no-binary NAME NAME==VER -d DIR`.
//! The archive is then checked against the pin and unpacked like every registry's
//! (fetch/mod.rs): a mismatch is `checksum_mismatch` naming both digests, and nothing
//! is unpacked.
//!
//! `--no-binary NAME` (rather than `:all:`) makes pip take the corpus's sdist while
//! the build backend pip runs to read the sdist's metadata still comes as a wheel:
//! the same archive, in 5 s instead of 80 s (building hatchling and its dependencies
//! from source).

use std::path::{Path, PathBuf};
use std::time::Duration;

use oracles::{Outcome, Tool};

use super::{fetch_verified, prepare_download, tool_failed, Download};
use crate::corpora::CorpusEntry;
use crate::pipeline::Fetcher;

const TOOL: &str = "fetch:pypi";

/// The PyPI fetcher.
#[derive(Debug, Clone, Copy, Default)]
pub struct Pypi;

impl Fetcher for Pypi {
    fn registry(&self) -> &'static str {
        "pypi"
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

fn failed(detail: String) -> Outcome {
    tool_failed(TOOL, detail)
}

/// The pinned sdist in the download cache, downloaded with pip when it is not there.
fn download(corpus: &CorpusEntry, cache_dir: &Path, bound: Duration) -> Result<PathBuf, Outcome> {
    let source = &corpus.source;
    if source.archive.is_empty() {
        return Err(failed(format!(
            "corpus {} names no `archive` (the sdist file pip saves)",
            corpus.id
        )));
    }
    let dir = match prepare_download(cache_dir, corpus, &source.archive, TOOL)? {
        Download::Cached(found) => return Ok(found),
        Download::Into(dir) => dir,
    };
    let _ = std::fs::remove_file(dir.join(&source.archive));
    Tool::locate("python3")?
        .command(&dir)
        .args([
            "-m",
            "pip",
            "download",
            "--quiet",
            "--no-deps",
            "--no-binary",
        ])
        .arg(&source.package)
        .arg(format!("{}=={}", source.package, source.version))
        .arg("-d")
        .arg(&dir)
        .timeout(bound)
        .run()?;
    let archive = dir.join(&source.archive);
    if archive.is_file() {
        Ok(archive)
    } else {
        Err(failed(format!(
            "pip saved no {} for {}=={}",
            source.archive, source.package, source.version
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fetch::{download_dir, sha256_file};

    /// A small sdist placed where pip would have saved it, so the test needs no
    /// network.
    fn sdist_in_download_cache(cache: &Path, corpus: &CorpusEntry) -> PathBuf {
        let src = cache.join("src");
        std::fs::create_dir_all(src.join("pkg-1.0/pkg")).unwrap();
        std::fs::write(src.join("pkg-1.0/pkg/__init__.py"), "def f(): pass\n").unwrap();
        let archive = download_dir(cache, corpus).join("pkg-1.0.tar.gz");
        std::fs::create_dir_all(archive.parent().unwrap()).unwrap();
        Tool::locate("tar")
            .unwrap()
            .command(&src)
            .args(["-czf"])
            .arg(&archive)
            .arg("pkg-1.0")
            .run()
            .unwrap();
        archive
    }

    fn corpus(sha: &str) -> CorpusEntry {
        serde_json::from_value(serde_json::json!({
            "id": "pkg", "language": "python",
            "source": {"registry": "local", "package": "pkg", "version": "1.0",
                       "archive": "pkg-1.0.tar.gz", "sha256": sha},
            "root": "pkg-1.0",
            "oracle": {"name": "pycg-micro"}}))
        .unwrap()
    }

    // The checksum refusal is the shared `verify_and_unpack`'s, tested in fetch/mod.rs.

    #[test]
    fn a_cached_sdist_with_the_pinned_digest_is_unpacked_without_pip() {
        let cache = tempfile::tempdir().unwrap();
        let probe = corpus(&"0".repeat(64));
        let archive = sdist_in_download_cache(cache.path(), &probe);
        let sha = sha256_file(&archive).unwrap();
        let root = Pypi
            .fetch(&corpus(&sha), cache.path(), Duration::from_secs(30))
            .unwrap();
        assert_eq!(
            std::fs::read_to_string(root.join("pkg-1.0/pkg/__init__.py")).unwrap(),
            "def f(): pass\n"
        );
    }
}
