//! Fetching corpora: each registry's ordinary client downloads the pinned archive,
//! the archive's sha256 is checked against corpora.json, and only then is it unpacked
//! into the cache. A mismatch is `checksum_mismatch` naming both digests, and nothing
//! is unpacked.
//!
//! Cache layout (under `--cache`, default `.cache/`):
//! - `downloads/<registry>/<package>_<version>/` — what the client downloaded;
//! - `corpora/<id>-<sha256 prefix>/` — the unpacked archive, renamed into place only
//!   once complete, so its presence means "verified and whole";
//! - `views/…` — the corpus's `include` subtrees ([`crate::tree_view`]).

pub mod crates;
pub mod debian;
pub mod local;
pub mod maven;
pub mod npm;
pub mod pypi;

use std::path::{Path, PathBuf};
use std::time::Duration;

use oracles::{Outcome, Tool};
use sha2::{Digest, Sha256};

use crate::corpora::CorpusEntry;

/// The directory a verified archive of `corpus` is unpacked into.
pub fn unpacked_dir(cache_dir: &Path, corpus: &CorpusEntry) -> PathBuf {
    cache_dir
        .join("corpora")
        .join(format!("{}-{}", corpus.id, short(&corpus.source.sha256)))
}

/// The download directory of one registry package.
pub fn download_dir(cache_dir: &Path, corpus: &CorpusEntry) -> PathBuf {
    let package = corpus.source.package.replace([':', '/'], "_");
    cache_dir
        .join("downloads")
        .join(&corpus.source.registry)
        .join(format!("{package}_{}", corpus.source.version))
}

/// The unpacked tree of `corpus`: reused when a verified unpack is already in the
/// cache; otherwise `download` brings the archive, which is verified and unpacked.
pub fn fetch_verified(
    corpus: &CorpusEntry,
    cache_dir: &Path,
    bound: Duration,
    tool: &str,
    download: impl FnOnce() -> Result<PathBuf, Outcome>,
) -> Result<PathBuf, Outcome> {
    let target = unpacked_dir(cache_dir, corpus);
    if target.is_dir() {
        return Ok(target);
    }
    if !is_sha256(&corpus.source.sha256) {
        return Err(Outcome::ToolFailed {
            tool: tool.into(),
            detail: format!(
                "corpora.json pins `{}` for {}, which is not a sha256 (64 hex digits)",
                corpus.source.sha256, corpus.id
            ),
        });
    }
    let archive = download()?;
    verify_and_unpack(&archive, &corpus.source.sha256, &target, bound, tool)?;
    Ok(target)
}

/// Checks `archive` against `expected` (hex sha256) and unpacks it into `target`,
/// which appears only once the unpack is complete. On a mismatch nothing is written.
pub fn verify_and_unpack(
    archive: &Path,
    expected: &str,
    target: &Path,
    bound: Duration,
    tool: &str,
) -> Result<(), Outcome> {
    let failed = |detail: String| Outcome::ToolFailed {
        tool: tool.into(),
        detail,
    };
    let actual = sha256_file(archive)
        .map_err(|e| failed(format!("cannot read {}: {e}", archive.display())))?;
    let expected = expected.to_ascii_lowercase();
    if actual != expected {
        return Err(Outcome::ChecksumMismatch {
            tool: tool.into(),
            archive: file_name(archive),
            expected,
            actual,
        });
    }
    let parent = target.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(parent)
        .map_err(|e| failed(format!("cannot create {}: {e}", parent.display())))?;
    let partial = target.with_extension("partial");
    let _ = std::fs::remove_dir_all(&partial);
    std::fs::create_dir_all(&partial)
        .map_err(|e| failed(format!("cannot create {}: {e}", partial.display())))?;
    let unpacked = unpack(archive, &partial, bound);
    if let Err(outcome) = unpacked {
        let _ = std::fs::remove_dir_all(&partial);
        return Err(outcome);
    }
    std::fs::rename(&partial, target)
        .map_err(|e| failed(format!("cannot move the unpacked tree into place: {e}")))?;
    Ok(())
}

/// Unpacks a tar (any compression GNU tar recognises) or a zip/jar into `into`.
fn unpack(archive: &Path, into: &Path, bound: Duration) -> Result<(), Outcome> {
    let archive = archive.canonicalize().map_err(|e| Outcome::ToolFailed {
        tool: "unpack".into(),
        detail: format!("cannot resolve {}: {e}", archive.display()),
    })?;
    let name = file_name(&archive);
    if name.ends_with(".jar") || name.ends_with(".zip") {
        // The JDK's `jar` reads both; every Maven corpus needs a JDK anyway.
        Tool::locate("jar")?
            .command(into)
            .arg("xf")
            .arg(&archive)
            .timeout(bound)
            .run()?;
    } else if [
        ".tar", ".tar.gz", ".tgz", ".tar.xz", ".txz", ".tar.bz2", ".tar.zst", ".crate",
    ]
    .iter()
    .any(|ext| name.ends_with(ext))
    {
        Tool::locate("tar")?
            .command(into)
            .args(["--no-same-owner", "--no-same-permissions", "-xf"])
            .arg(&archive)
            .timeout(bound)
            .run()?;
    } else {
        return Err(Outcome::ToolFailed {
            tool: "unpack".into(),
            detail: format!(
                "{name}: not an archive kind the harness unpacks (tar.*, crate, zip, jar)"
            ),
        });
    }
    Ok(())
}

/// The hex sha256 of a file.
pub fn sha256_file(path: &Path) -> std::io::Result<String> {
    let mut file = std::fs::File::open(path)?;
    let mut hasher = Sha256::new();
    std::io::copy(&mut file, &mut hasher)?;
    Ok(crate::proofs::hex(&hasher.finalize()))
}

fn is_sha256(text: &str) -> bool {
    text.len() == 64 && text.chars().all(|c| c.is_ascii_hexdigit())
}

fn short(sha: &str) -> &str {
    &sha[..sha.len().min(16)]
}

fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// A registry client's failure, `tool` naming the fetcher.
pub fn tool_failed(tool: &str, detail: String) -> Outcome {
    Outcome::ToolFailed {
        tool: tool.into(),
        detail,
    }
}

/// Where a registry client is to save `archive` of `corpus`.
pub enum Download {
    /// The pinned archive is already in the download folder: no client runs.
    Cached(PathBuf),
    /// The download folder, created and canonical, for the client to save into.
    Into(PathBuf),
}

/// The pinned `archive` when the download folder of `corpus` already holds it;
/// otherwise that folder, created and made canonical (`tool` names the fetcher in
/// the failure).
pub fn prepare_download(
    cache_dir: &Path,
    corpus: &CorpusEntry,
    archive: &str,
    tool: &str,
) -> Result<Download, Outcome> {
    let dir = download_dir(cache_dir, corpus);
    if let Some(found) = already_downloaded(&dir, archive, &corpus.source.sha256) {
        return Ok(Download::Cached(found));
    }
    std::fs::create_dir_all(&dir)
        .map_err(|e| tool_failed(tool, format!("cannot create {}: {e}", dir.display())))?;
    let dir = dir
        .canonicalize()
        .map_err(|e| tool_failed(tool, format!("cannot resolve {}: {e}", dir.display())))?;
    Ok(Download::Into(dir))
}

/// The archive named `archive` in `dir`, when it is there and matches the pin (so a
/// second fetch does not download again).
pub fn already_downloaded(dir: &Path, archive: &str, sha256: &str) -> Option<PathBuf> {
    let path = dir.join(archive);
    let actual = sha256_file(&path).ok()?;
    (actual == sha256.to_ascii_lowercase()).then_some(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tarball(dir: &Path) -> PathBuf {
        let src = dir.join("src");
        std::fs::create_dir_all(src.join("pkg-1.0/src")).unwrap();
        std::fs::write(src.join("pkg-1.0/src/A.java"), "class A {}\n").unwrap();
        let archive = dir.join("pkg-1.0.tar.gz");
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

    #[test]
    fn a_wrong_digest_is_refused_naming_both_digests_and_nothing_is_unpacked() {
        let dir = tempfile::tempdir().unwrap();
        let archive = tarball(dir.path());
        let actual = sha256_file(&archive).unwrap();
        let wrong = "0".repeat(64);
        let target = dir.path().join("cache/corpora/pkg-0000");
        let err = verify_and_unpack(
            &archive,
            &wrong,
            &target,
            Duration::from_secs(30),
            "fetch:local",
        )
        .unwrap_err();
        assert_eq!(err.token(), "checksum_mismatch");
        let text = err.to_string();
        assert!(text.contains(&wrong) && text.contains(&actual), "{text}");
        assert!(text.contains("pkg-1.0.tar.gz"), "{text}");
        assert!(!target.exists(), "a refused archive was unpacked");
        assert!(
            !dir.path().join("cache").exists(),
            "the refusal wrote into the cache"
        );
    }

    #[test]
    fn the_right_digest_unpacks_the_whole_tree() {
        let dir = tempfile::tempdir().unwrap();
        let archive = tarball(dir.path());
        let sha = sha256_file(&archive).unwrap();
        let target = dir.path().join("cache/corpora/pkg");
        verify_and_unpack(
            &archive,
            &sha.to_uppercase(),
            &target,
            Duration::from_secs(30),
            "fetch:local",
        )
        .unwrap();
        assert_eq!(
            std::fs::read_to_string(target.join("pkg-1.0/src/A.java")).unwrap(),
            "class A {}\n"
        );
        assert_eq!(
            already_downloaded(dir.path(), "pkg-1.0.tar.gz", &sha),
            Some(archive)
        );
        assert_eq!(
            already_downloaded(dir.path(), "pkg-1.0.tar.gz", &"1".repeat(64)),
            None
        );
    }
}
