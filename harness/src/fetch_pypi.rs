//! PyPI corpora (`"registry": "pypi"`): the sdist is downloaded with pip, the
//! registry's ordinary client —
//! `python3 -m pip download --no-deps --no-binary NAME NAME==VER -d DIR` — its sha256
//! is checked against corpora.json, and only then is it unpacked into the cache.
//! A mismatch is `checksum_mismatch` naming both digests, and nothing is unpacked.
//!
//! `--no-binary NAME` (rather than `:all:`) makes pip take the sdist of the corpus
//! while the build backend pip needs to read the sdist's metadata still comes as a
//! wheel: the same archive, in 5 s instead of 80 s (building hatchling and its
//! dependencies from source).
//!
//! Cache layout (under `--cache`): `downloads/pypi/<name>_<version>/<archive>` and
//! `corpora/<id>-<sha256 prefix>/`, which is renamed into place only once the unpack
//! is complete, so its presence means "verified and whole".

use std::path::{Path, PathBuf};
use std::time::Duration;

use oracles::{Outcome, Tool};
use sha2::{Digest, Sha256};

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
        let target = unpacked_dir(cache_dir, corpus);
        if target.is_dir() {
            return Ok(target);
        }
        let source = &corpus.source;
        if source.archive.is_empty() {
            return Err(failed(format!(
                "corpora.json names no `archive` for {} (the sdist file pip saves)",
                corpus.id
            )));
        }
        let downloads = cache_dir
            .join("downloads/pypi")
            .join(format!("{}_{}", source.package, source.version));
        let archive = downloads.join(&source.archive);
        let have_it = sha256_file(&archive).is_ok_and(|d| d == source.sha256.to_ascii_lowercase());
        if !have_it {
            download(&source.package, &source.version, &downloads, bound)?;
        }
        if !archive.is_file() {
            return Err(failed(format!(
                "pip saved no {} in {}",
                source.archive,
                downloads.display()
            )));
        }
        verify_and_unpack(&archive, &source.sha256, &target, bound)?;
        Ok(target)
    }
}

fn failed(detail: String) -> Outcome {
    Outcome::ToolFailed {
        tool: TOOL.into(),
        detail,
    }
}

/// Runs pip download for one pinned sdist.
fn download(package: &str, version: &str, into: &Path, bound: Duration) -> Result<(), Outcome> {
    std::fs::create_dir_all(into)
        .map_err(|e| failed(format!("cannot create {}: {e}", into.display())))?;
    let into = into
        .canonicalize()
        .map_err(|e| failed(format!("cannot resolve {}: {e}", into.display())))?;
    Tool::locate("python3")?
        .command(&into)
        .args([
            "-m",
            "pip",
            "download",
            "--quiet",
            "--no-deps",
            "--no-binary",
        ])
        .arg(package)
        .arg(format!("{package}=={version}"))
        .arg("-d")
        .arg(&into)
        .timeout(bound)
        .run()?;
    Ok(())
}

/// The directory a verified archive of `corpus` is unpacked into.
pub fn unpacked_dir(cache_dir: &Path, corpus: &CorpusEntry) -> PathBuf {
    let sha = corpus.source.sha256.to_ascii_lowercase();
    cache_dir
        .join("corpora")
        .join(format!("{}-{}", corpus.id, &sha[..sha.len().min(16)]))
}

/// Checks `archive` against `expected` (hex sha256) and unpacks it (a tar of any
/// compression GNU tar reads) into `target`, which appears only once the unpack is
/// complete. On a mismatch nothing is written.
pub fn verify_and_unpack(
    archive: &Path,
    expected: &str,
    target: &Path,
    bound: Duration,
) -> Result<(), Outcome> {
    let actual = sha256_file(archive)
        .map_err(|e| failed(format!("cannot read {}: {e}", archive.display())))?;
    let expected = expected.to_ascii_lowercase();
    if actual != expected {
        return Err(Outcome::ToolFailed {
            tool: TOOL.into(),
            detail: format!(
                "checksum_mismatch: {}: expected sha256 {expected}, got {actual}; nothing was unpacked",
                archive.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned())
            ),
        });
    }
    let parent = target.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(parent)
        .map_err(|e| failed(format!("cannot create {}: {e}", parent.display())))?;
    let partial = target.with_extension("partial");
    let _ = std::fs::remove_dir_all(&partial);
    std::fs::create_dir_all(&partial)
        .map_err(|e| failed(format!("cannot create {}: {e}", partial.display())))?;
    let archive = archive
        .canonicalize()
        .map_err(|e| failed(format!("cannot resolve {}: {e}", archive.display())))?;
    let unpacked = Tool::locate("tar").and_then(|tar| {
        tar.command(&partial)
            .args(["--no-same-owner", "--no-same-permissions", "-xf"])
            .arg(&archive)
            .timeout(bound)
            .run()
    });
    if let Err(outcome) = unpacked {
        let _ = std::fs::remove_dir_all(&partial);
        return Err(outcome);
    }
    std::fs::rename(&partial, target)
        .map_err(|e| failed(format!("cannot move the unpacked tree into place: {e}")))?;
    Ok(())
}

/// The hex sha256 of a file.
pub fn sha256_file(path: &Path) -> std::io::Result<String> {
    let mut file = std::fs::File::open(path)?;
    let mut hasher = Sha256::new();
    std::io::copy(&mut file, &mut hasher)?;
    Ok(hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sdist(dir: &Path) -> PathBuf {
        let src = dir.join("src");
        std::fs::create_dir_all(src.join("pkg-1.0/pkg")).unwrap();
        std::fs::write(src.join("pkg-1.0/pkg/__init__.py"), "def f(): pass\n").unwrap();
        let archive = dir.join("downloads/pypi/pkg_1.0/pkg-1.0.tar.gz");
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
            "source": {"registry": "pypi", "package": "pkg", "version": "1.0",
                       "archive": "pkg-1.0.tar.gz", "sha256": sha},
            "root": "pkg-1.0",
            "oracle": {"name": "pycg-micro"}}))
        .unwrap()
    }

    #[test]
    fn a_checksum_mismatch_refuses_naming_both_digests_and_unpacks_nothing() {
        let cache = tempfile::tempdir().unwrap();
        let archive = sdist(cache.path());
        let actual = sha256_file(&archive).unwrap();
        let wrong = "ab".repeat(32);
        // The archive is already in the download cache with another digest than the
        // pin, so the fetcher downloads again: pip finds no such package offline and
        // fails, or (on a machine with the network) saves the same bytes. Either way
        // it must refuse; test the check itself without the network.
        let target = unpacked_dir(cache.path(), &corpus(&wrong));
        let err =
            verify_and_unpack(&archive, &wrong, &target, Duration::from_secs(30)).unwrap_err();
        let text = err.to_string();
        assert!(text.contains("checksum_mismatch"), "{text}");
        assert!(text.contains(&wrong) && text.contains(&actual), "{text}");
        assert!(text.contains("pkg-1.0.tar.gz"), "{text}");
        assert!(!target.exists(), "a refused archive was unpacked");
        assert!(!target.with_extension("partial").exists());
        assert!(
            !cache.path().join("corpora").exists(),
            "the refusal wrote into the cache"
        );
    }

    #[test]
    fn a_cached_archive_with_the_pinned_digest_is_unpacked_without_pip() {
        let cache = tempfile::tempdir().unwrap();
        let archive = sdist(cache.path());
        let sha = sha256_file(&archive).unwrap();
        let root = Pypi
            .fetch(
                &corpus(&sha.to_uppercase()),
                cache.path(),
                Duration::from_secs(30),
            )
            .unwrap();
        assert_eq!(
            root,
            unpacked_dir(cache.path(), &corpus(&sha.to_uppercase()))
        );
        assert_eq!(
            std::fs::read_to_string(root.join("pkg-1.0/pkg/__init__.py")).unwrap(),
            "def f(): pass\n"
        );
        // A second fetch reuses the verified tree.
        assert_eq!(
            Pypi.fetch(&corpus(&sha), cache.path(), Duration::from_secs(30))
                .ok()
                .map(|p| p.exists()),
            Some(true)
        );
    }
}
