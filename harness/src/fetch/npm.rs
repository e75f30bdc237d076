//! npm packages (`"registry": "npm"`): `npm pack NAME@VERSION`, the registry's
//! ordinary client, saves the published tarball (`ky-2.1.0.tgz`; a scoped
//! `@scope/name` is saved as `scope-name-VERSION.tgz`) without running any of the
//! package's scripts. The tarball is then checked against the pin and unpacked like
//! every registry's (fetch/mod.rs): a mismatch is `checksum_mismatch` naming both
//! digests, and nothing is unpacked. Published tarballs are immutable per version, so
//! their sha256 is a stable pin.

use std::path::{Path, PathBuf};
use std::time::Duration;

use oracles::{Outcome, Tool};

use super::{fetch_verified, prepare_download, tool_failed, Download};
use crate::corpora::CorpusEntry;
use crate::pipeline::Fetcher;

const TOOL: &str = "fetch:npm";

/// The npm registry fetcher.
#[derive(Debug, Clone, Copy, Default)]
pub struct Npm;

impl Fetcher for Npm {
    fn registry(&self) -> &'static str {
        "npm"
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

/// The file name `npm pack` gives a package's tarball: `ky-2.1.0.tgz`,
/// `excalidraw-excalidraw-0.18.1.tgz` for `@excalidraw/excalidraw`.
pub fn tarball_name(package: &str, version: &str) -> String {
    let flat = package.trim_start_matches('@').replace('/', "-");
    format!("{flat}-{version}.tgz")
}

/// A package name npm accepts: lowercase letters, digits and `-._~`, optionally
/// scoped `@scope/name`; nothing a shell or a path could misread.
fn is_package_name(name: &str) -> bool {
    let plain = |s: &str| {
        !s.is_empty()
            && !s.starts_with('.')
            && s.chars().all(|c| {
                c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '-' | '.' | '_' | '~')
            })
    };
    match name.strip_prefix('@') {
        Some(scoped) => {
            matches!(scoped.split_once('/'), Some((scope, rest)) if plain(scope) && plain(rest))
        }
        None => plain(name),
    }
}

/// The pinned tarball in the download cache, saved by `npm pack` when it is not there.
fn download(corpus: &CorpusEntry, cache_dir: &Path, bound: Duration) -> Result<PathBuf, Outcome> {
    let source = &corpus.source;
    if !is_package_name(&source.package) {
        return Err(failed(format!(
            "corpus {}: `{}` is not an npm package name",
            corpus.id, source.package
        )));
    }
    let expected = tarball_name(&source.package, &source.version);
    let archive = if source.archive.is_empty() {
        expected.clone()
    } else {
        source.archive.clone()
    };
    if archive != expected {
        return Err(failed(format!(
            "corpus {}: archive `{archive}` is not the tarball npm saves, `{expected}`",
            corpus.id
        )));
    }
    let dir = match prepare_download(cache_dir, corpus, &archive, TOOL)? {
        Download::Cached(found) => return Ok(found),
        Download::Into(dir) => dir,
    };
    let _ = std::fs::remove_file(dir.join(&archive));
    Tool::locate("npm")?
        .command(&dir)
        .args(["pack", "--silent", "--ignore-scripts", "--pack-destination"])
        .arg(&dir)
        .arg(format!("{}@{}", source.package, source.version))
        .timeout(bound)
        .run()?;
    let saved = dir.join(&archive);
    if saved.is_file() {
        Ok(saved)
    } else {
        Err(failed(format!(
            "npm pack saved no {archive} for {}@{}",
            source.package, source.version
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fetch::{download_dir, sha256_file};

    fn corpus(package: &str, archive: &str, sha: &str) -> CorpusEntry {
        serde_json::from_value(serde_json::json!({
            "id": "pkg", "language": "typescript",
            "source": {"registry": "npm", "package": package, "version": "1.0.0",
                       "archive": archive, "sha256": sha},
            "oracle": {"name": "tsc"}}))
        .unwrap()
    }

    #[test]
    fn tarballs_are_named_as_npm_pack_names_them() {
        assert_eq!(tarball_name("ky", "2.1.0"), "ky-2.1.0.tgz");
        assert_eq!(
            tarball_name("@excalidraw/excalidraw", "0.18.1"),
            "excalidraw-excalidraw-0.18.1.tgz"
        );
    }

    #[test]
    fn only_package_names_reach_npm() {
        for good in ["ky", "@excalidraw/excalidraw", "lodash.throttle", "a_b-c"] {
            assert!(is_package_name(good), "{good}");
        }
        for bad in [
            "", "Ky", "../x", "@scope", "@a/b/c", "x;rm", ".hidden", "a b",
        ] {
            assert!(!is_package_name(bad), "{bad}");
        }
        let cache = tempfile::tempdir().unwrap();
        let err = Npm
            .fetch(
                &corpus("pkg", "other.tgz", &"0".repeat(64)),
                cache.path(),
                Duration::from_secs(5),
            )
            .unwrap_err();
        assert!(err.to_string().contains("pkg-1.0.0.tgz"), "{err}");
    }

    #[test]
    fn a_cached_tarball_with_the_pinned_digest_is_unpacked_without_npm() {
        let cache = tempfile::tempdir().unwrap();
        let probe = corpus("pkg", "pkg-1.0.0.tgz", &"0".repeat(64));
        let src = cache.path().join("src");
        std::fs::create_dir_all(src.join("package")).unwrap();
        std::fs::write(src.join("package/index.js"), "module.exports = 1;\n").unwrap();
        let archive = download_dir(cache.path(), &probe).join("pkg-1.0.0.tgz");
        std::fs::create_dir_all(archive.parent().unwrap()).unwrap();
        Tool::locate("tar")
            .unwrap()
            .command(&src)
            .args(["-czf"])
            .arg(&archive)
            .arg("package")
            .run()
            .unwrap();
        let sha = sha256_file(&archive).unwrap();
        let root = Npm
            .fetch(
                &corpus("pkg", "pkg-1.0.0.tgz", &sha),
                cache.path(),
                Duration::from_secs(30),
            )
            .unwrap();
        assert_eq!(
            std::fs::read_to_string(root.join("package/index.js")).unwrap(),
            "module.exports = 1;\n"
        );
    }
}
