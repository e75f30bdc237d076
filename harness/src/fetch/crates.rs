//! Crates of Rust's package registry (`"registry": "crates"`), fetched with cargo,
//! its ordinary client, as the machine configures it (DESIGN §5): a throwaway
//! manifest pinning `NAME = "=VERSION"`, `cargo fetch`, and the `.crate` archive
//! taken from cargo's own cache (`$CARGO_HOME/registry/cache/*/NAME-VERSION.crate`)
//! and checked against the pin (the registry's sha256, the `checksum` cargo writes
//! in a Cargo.lock) before it is unpacked like every registry's (fetch/mod.rs): a
//! mismatch is `checksum_mismatch` naming both digests, and nothing is unpacked. A
//! `.crate` is a gzip tarball holding `NAME-VERSION/`.

use std::path::{Path, PathBuf};
use std::time::Duration;

use oracles::{Outcome, Tool};

use super::{fetch_verified, prepare_download, tool_failed, Download};
use crate::corpora::CorpusEntry;
use crate::pipeline::Fetcher;

const TOOL: &str = "fetch:crates";

/// The crates fetcher.
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

/// Whether a crate name or version is safe to put in a manifest and a file name.
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
    let work = tempfile::tempdir_in(&dir)
        .map_err(|e| failed(format!("cannot create a temporary directory: {e}")))?;
    std::fs::create_dir_all(work.path().join("src"))
        .and_then(|()| std::fs::write(work.path().join("src/lib.rs"), ""))
        .and_then(|()| {
            std::fs::write(
                work.path().join("Cargo.toml"),
                throwaway_manifest(&source.package, &source.version),
            )
        })
        .map_err(|e| failed(format!("cannot write the throwaway manifest: {e}")))?;
    Tool::locate("cargo")?
        .command(work.path())
        .args(["fetch", "--quiet", "--manifest-path"])
        .arg(work.path().join("Cargo.toml"))
        .timeout(bound)
        .run()?;
    let found = archive_in_cargo_cache(&cargo_home()?, &name, &source.sha256).ok_or_else(|| {
        failed(format!(
            "cargo fetched {}={} but its cache holds no {name} with the pinned sha256 {}",
            source.package, source.version, source.sha256
        ))
    })?;
    let archive = dir.join(&name);
    let partial = work.path().join(&name);
    std::fs::copy(&found, &partial)
        .and_then(|_| std::fs::rename(&partial, &archive))
        .map_err(|e| failed(format!("cannot keep {name}: {e}")))?;
    Ok(archive)
}

/// A manifest whose one dependency is the pinned crate, so `cargo fetch` downloads
/// exactly that version (and what it depends on, which is not used).
pub fn throwaway_manifest(package: &str, version: &str) -> String {
    format!(
        "[package]\nname = \"callgraph-corpus-fetch\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\
         publish = false\n\n[dependencies]\n{package} = \"={version}\"\n"
    )
}

/// Where cargo keeps its downloads: `$CARGO_HOME`, else `$HOME/.cargo`.
fn cargo_home() -> Result<PathBuf, Outcome> {
    if let Some(home) = std::env::var_os("CARGO_HOME").filter(|h| !h.is_empty()) {
        return Ok(PathBuf::from(home));
    }
    std::env::var_os("HOME")
        .map(|h| PathBuf::from(h).join(".cargo"))
        .ok_or_else(|| failed("neither CARGO_HOME nor HOME is set".into()))
}

/// The archive `name` in cargo's cache (one folder per registry index) whose sha256
/// is the pin; another registry's archive of the same name is not it.
pub fn archive_in_cargo_cache(cargo_home: &Path, name: &str, sha256: &str) -> Option<PathBuf> {
    let mut indexes: Vec<PathBuf> = std::fs::read_dir(cargo_home.join("registry/cache"))
        .ok()?
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .collect();
    indexes.sort();
    indexes
        .into_iter()
        .map(|index| index.join(name))
        .find(|path| {
            super::sha256_file(path).is_ok_and(|actual| actual == sha256.to_ascii_lowercase())
        })
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
    fn the_archive_is_taken_from_cargos_cache_only_with_the_pinned_digest() {
        let home = tempfile::tempdir().unwrap();
        let index = home.path().join("registry/cache/an-index-0123");
        std::fs::create_dir_all(&index).unwrap();
        std::fs::write(index.join("pkg-1.0.0.crate"), b"bytes").unwrap();
        let sha = sha256_file(&index.join("pkg-1.0.0.crate")).unwrap();
        assert_eq!(
            archive_in_cargo_cache(home.path(), "pkg-1.0.0.crate", &sha),
            Some(index.join("pkg-1.0.0.crate"))
        );
        assert_eq!(
            archive_in_cargo_cache(home.path(), "pkg-1.0.0.crate", &"0".repeat(64)),
            None
        );
        let manifest = throwaway_manifest("pkg", "1.0.0");
        assert!(
            manifest.contains("\n[dependencies]\npkg = \"=1.0.0\"\n"),
            "{manifest}"
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
