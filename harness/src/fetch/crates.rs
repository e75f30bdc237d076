//! crates.io crates (`"registry": "crates"`): the `.crate` archive of
//! `https://static.crates.io/crates/NAME/NAME-VERSION.crate`, downloaded with curl,
//! checked against the pin (crates.io's sha256, the `checksum` cargo writes in a
//! Cargo.lock) and unpacked like every registry's (fetch/mod.rs): a mismatch is
//! `checksum_mismatch` naming both digests, and nothing is unpacked. A `.crate` is a
//! gzip tarball holding `NAME-VERSION/`.

use std::path::{Path, PathBuf};
use std::time::Duration;

use oracles::{Outcome, Tool};

use super::{fetch_verified, prepare_download, tool_failed, Download};
use crate::corpora::CorpusEntry;
use crate::pipeline::Fetcher;

const TOOL: &str = "fetch:crates";

/// Where crates.io serves crate archives.
pub const STATIC_CRATES: &str = "https://static.crates.io/crates";

/// The crates.io fetcher.
#[derive(Debug, Clone, Copy, Default)]
pub struct Crates;

impl Fetcher for Crates {
    fn registry(&self) -> &'static str {
        "crates"
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

/// The archive's file name: `NAME-VERSION.crate`.
pub fn archive_name(corpus: &CorpusEntry) -> String {
    format!("{}-{}.crate", corpus.source.package, corpus.source.version)
}

/// Whether a crate name or version is safe to put in a URL and a file name.
fn plain(text: &str) -> bool {
    !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.+".contains(c))
}

fn download(corpus: &CorpusEntry, cache_dir: &Path, bound: Duration) -> Result<PathBuf, Outcome> {
    let source = &corpus.source;
    if !plain(&source.package) || !plain(&source.version) {
        return Err(failed(format!(
            "corpus {}: `{}` `{}` is not a crate name and version",
            corpus.id, source.package, source.version
        )));
    }
    let name = archive_name(corpus);
    if !source.archive.is_empty() && source.archive != name {
        return Err(failed(format!(
            "corpus {}: a crate archive is named {name}, not {}",
            corpus.id, source.archive
        )));
    }
    let dir = match prepare_download(cache_dir, corpus, &name, TOOL)? {
        Download::Cached(found) => return Ok(found),
        Download::Into(dir) => dir,
    };
    let url = format!("{STATIC_CRATES}/{}/{name}", source.package);
    let partial = dir.join(format!("{name}.partial"));
    Tool::locate("curl")?
        .command(&dir)
        .args([
            "--silent",
            "--show-error",
            "--fail",
            "--location",
            "--output",
        ])
        .arg(&partial)
        .arg(&url)
        .timeout(bound)
        .run()?;
    let archive = dir.join(&name);
    std::fs::rename(&partial, &archive).map_err(|e| failed(format!("cannot keep {name}: {e}")))?;
    Ok(archive)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fetch::{download_dir, sha256_file};

    fn corpus(sha: &str) -> CorpusEntry {
        serde_json::from_value(serde_json::json!({
            "id": "pkg", "language": "rust",
            "source": {"registry": "crates", "package": "pkg", "version": "1.0.0",
                       "archive": "pkg-1.0.0.crate", "sha256": sha},
            "root": "pkg-1.0.0",
            "oracle": {"name": "rustc", "options": {"lock": "regex"}}}))
        .unwrap()
    }

    /// A crate archive placed where the download would have saved it, so the test
    /// needs no network.
    fn crate_in_download_cache(cache: &Path, corpus: &CorpusEntry) -> PathBuf {
        let src = cache.join("src");
        std::fs::create_dir_all(src.join("pkg-1.0.0/src")).unwrap();
        std::fs::write(src.join("pkg-1.0.0/src/lib.rs"), "pub fn f() {}\n").unwrap();
        let archive = download_dir(cache, corpus).join("pkg-1.0.0.crate");
        std::fs::create_dir_all(archive.parent().unwrap()).unwrap();
        Tool::locate("tar")
            .unwrap()
            .command(&src)
            .args(["-czf"])
            .arg(&archive)
            .arg("pkg-1.0.0")
            .run()
            .unwrap();
        archive
    }

    #[test]
    fn a_cached_crate_with_the_pinned_digest_is_unpacked_without_download() {
        let cache = tempfile::tempdir().unwrap();
        let archive = crate_in_download_cache(cache.path(), &corpus(&"0".repeat(64)));
        let sha = sha256_file(&archive).unwrap();
        let root = Crates
            .fetch(&corpus(&sha), cache.path(), Duration::from_secs(30))
            .unwrap();
        assert_eq!(
            std::fs::read_to_string(root.join("pkg-1.0.0/src/lib.rs")).unwrap(),
            "pub fn f() {}\n"
        );
    }

    #[test]
    fn names_that_do_not_fit_a_url_are_refused() {
        let mut bad = corpus(&"0".repeat(64));
        bad.source.package = "../x".into();
        let cache = tempfile::tempdir().unwrap();
        let err = Crates
            .fetch(&bad, cache.path(), Duration::from_secs(5))
            .unwrap_err();
        assert_eq!(err.token(), "tool_failed");
        assert!(err.to_string().contains("not a crate name"), "{err}");
    }
}
