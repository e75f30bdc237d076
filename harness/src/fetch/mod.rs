//! Fetching corpora: each registry's ordinary client downloads the pinned archive,
//! the archive's sha256 is checked against corpora.json, and only then is it unpacked
//! into the cache. A mismatch is `checksum_mismatch` naming both digests, and nothing
//! is unpacked.
//!
//! Cache layout (under `--cache`, default `.cache/`):
//! - `downloads/<registry>/<package>_<version>/` — what the client downloaded;
//! - `corpora/<id>-<sha256>/` — the unpacked archive, keyed by the whole pin. It is
//!   unpacked into a temporary directory of its own and renamed into place only once
//!   complete; `corpora/<id>-<sha256>.complete` then records the pin and the file
//!   count, and every later use checks the archive against the pin again and the
//!   tree against the record (D3);
//! - `corpora/<id>-<sha256>.lock` — held (an advisory lock) while one process
//!   verifies or unpacks that entry, so a second fetch waits instead of sharing or
//!   deleting the first one's half-unpacked tree (D2);
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

/// The directory a verified archive of `corpus` is unpacked into: keyed by the
/// whole pin, so a pin that differs in any digit is another entry (D3).
pub fn unpacked_dir(cache_dir: &Path, corpus: &CorpusEntry) -> PathBuf {
    cache_dir.join("corpora").join(format!(
        "{}-{}",
        corpus.id,
        corpus.source.sha256.to_ascii_lowercase()
    ))
}

/// What a complete unpack recorded beside its tree.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
struct Completion {
    sha256: String,
    files: u64,
}

fn completion_path(target: &Path) -> PathBuf {
    let mut name = target.file_name().unwrap_or_default().to_os_string();
    name.push(".complete");
    target.with_file_name(name)
}

/// An advisory lock on one cache entry, held until dropped; other processes taking
/// it wait (a fetch of another corpus does not).
pub struct EntryLock(#[allow(dead_code)] std::fs::File);

/// Takes the lock of `target` (`<target>.lock`), waiting for another holder.
pub fn lock_entry(target: &Path, tool: &str) -> Result<EntryLock, Outcome> {
    let mut name = target.file_name().unwrap_or_default().to_os_string();
    name.push(".lock");
    let path = target.with_file_name(name);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)
            .map_err(|e| tool_failed(tool, format!("cannot create {}: {e}", parent.display())))?;
    }
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(|e| tool_failed(tool, format!("cannot open {}: {e}", path.display())))?;
    file.lock()
        .map_err(|e| tool_failed(tool, format!("cannot lock {}: {e}", path.display())))?;
    Ok(EntryLock(file))
}

/// Whether the tree at `target` is the complete unpack of an archive with this pin.
fn is_complete(target: &Path, sha256: &str) -> bool {
    let Ok(text) = std::fs::read_to_string(completion_path(target)) else {
        return false;
    };
    let Ok(done) = serde_json::from_str::<Completion>(&text) else {
        return false;
    };
    done.sha256 == sha256.to_ascii_lowercase()
        && target.is_dir()
        && count_files(target) == done.files
}

/// Regular files under `dir`, links not followed.
pub fn count_files(dir: &Path) -> u64 {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    entries
        .filter_map(|e| e.ok())
        .map(|e| match e.file_type() {
            Ok(t) if t.is_dir() => count_files(&e.path()),
            Ok(t) if t.is_file() => 1,
            _ => 0,
        })
        .sum()
}

/// Builds a directory at `target` by `build` into a temporary directory of its own
/// beside it, renamed into place once `build` succeeded: `target` is either absent
/// or complete, and two processes never share a half-built one (D2). When another
/// process put a complete `target` in place first, theirs is kept.
pub fn build_into_place<T>(
    target: &Path,
    tool: &str,
    build: impl FnOnce(&Path) -> Result<T, Outcome>,
) -> Result<T, Outcome> {
    let parent = target.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(parent)
        .map_err(|e| tool_failed(tool, format!("cannot create {}: {e}", parent.display())))?;
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let temp = tempfile::Builder::new()
        .prefix(&format!(".{name}-"))
        .suffix(".partial")
        .tempdir_in(parent)
        .map_err(|e| tool_failed(tool, format!("cannot create a temporary directory: {e}")))?;
    let built = build(temp.path())?;
    match std::fs::rename(temp.path(), target) {
        Ok(()) => {
            let _ = temp.keep();
            Ok(built)
        }
        // Another process renamed its complete tree into place first.
        Err(_) if target.is_dir() => Ok(built),
        Err(e) => Err(tool_failed(
            tool,
            format!(
                "cannot move the tree into place at {}: {e}",
                target.display()
            ),
        )),
    }
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
    if !is_sha256(&corpus.source.sha256) {
        return Err(Outcome::ToolFailed {
            tool: tool.into(),
            detail: format!(
                "corpora.json pins `{}` for {}, which is not a sha256 (64 hex digits)",
                corpus.source.sha256, corpus.id
            ),
        });
    }
    let target = unpacked_dir(cache_dir, corpus);
    let _lock = lock_entry(&target, tool)?;
    // The archive is checked against the pin on every use, not only the first: a
    // cached download is hashed again without the network (`already_downloaded`).
    let archive = download()?;
    verify(&archive, &corpus.source.sha256, tool)?;
    if is_complete(&target, &corpus.source.sha256) {
        return Ok(target);
    }
    // A tree without its record is what an interrupted run left: not ours to trust.
    if target.exists() {
        std::fs::remove_dir_all(&target)
            .map_err(|e| tool_failed(tool, format!("cannot clear {}: {e}", target.display())))?;
    }
    let _ = std::fs::remove_file(completion_path(&target));
    verify_and_unpack(&archive, &corpus.source.sha256, &target, bound, tool)?;
    let done = Completion {
        sha256: corpus.source.sha256.to_ascii_lowercase(),
        files: count_files(&target),
    };
    let text = serde_json::to_string(&done).expect("a completion serializes");
    crate::atomic::write_atomic(&completion_path(&target), text.as_bytes())
        .map_err(|e| tool_failed(tool, format!("cannot record the unpack: {e}")))?;
    Ok(target)
}

/// The archive's sha256 against the pin: `checksum_mismatch` naming both digests.
fn verify(archive: &Path, expected: &str, tool: &str) -> Result<(), Outcome> {
    let actual = sha256_file(archive)
        .map_err(|e| tool_failed(tool, format!("cannot read {}: {e}", archive.display())))?;
    let expected = expected.to_ascii_lowercase();
    if actual != expected {
        return Err(Outcome::ChecksumMismatch {
            tool: tool.into(),
            archive: file_name(archive),
            expected,
            actual,
        });
    }
    Ok(())
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
    verify(archive, expected, tool)?;
    build_into_place(target, tool, |partial| unpack(archive, partial, bound))
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

    fn local_corpus(archive: &Path, sha: &str) -> CorpusEntry {
        serde_json::from_value(serde_json::json!({
            "id": "pkg", "language": "java",
            "source": {"registry": "local", "package": "pkg", "version": "1.0",
                       "archive": archive.display().to_string(), "sha256": sha},
            "oracle": {"name": "javac"}}))
        .unwrap()
    }

    fn fetch_local(corpus: &CorpusEntry, cache: &Path) -> Result<PathBuf, Outcome> {
        use crate::pipeline::Fetcher;
        local::Local.fetch(corpus, cache, Duration::from_secs(60))
    }

    fn big_tarball(dir: &Path, files: usize) -> PathBuf {
        let src = dir.join("big");
        for i in 0..files {
            let path = src.join(format!("pkg-1.0/d{}/F{i}.java", i % 50));
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, format!("class F{i} {{}}\n")).unwrap();
        }
        let archive = dir.join("big.tar.gz");
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
    fn a_pin_wrong_past_its_sixteenth_digit_is_a_mismatch_even_when_cached() {
        // D3: the cache was keyed by 16 hex digits and a present tree never checked
        // again, so this printed `verified`.
        let dir = tempfile::tempdir().unwrap();
        let archive = tarball(dir.path());
        let sha = sha256_file(&archive).unwrap();
        let cache = dir.path().join("cache");
        let tree = fetch_local(&local_corpus(&archive, &sha), &cache).unwrap();
        assert!(tree.join("pkg-1.0/src/A.java").is_file());
        let mut wrong = sha.clone().into_bytes();
        wrong[40] = if wrong[40] == b'0' { b'1' } else { b'0' };
        let wrong = String::from_utf8(wrong).unwrap();
        let err = fetch_local(&local_corpus(&archive, &wrong), &cache).unwrap_err();
        assert_eq!(err.token(), "checksum_mismatch", "{err}");
        // Reused when right, and checked each time.
        assert_eq!(
            fetch_local(&local_corpus(&archive, &sha), &cache).unwrap(),
            tree
        );
    }

    #[test]
    fn a_tree_missing_files_since_its_unpack_is_unpacked_again() {
        let dir = tempfile::tempdir().unwrap();
        let archive = tarball(dir.path());
        let sha = sha256_file(&archive).unwrap();
        let cache = dir.path().join("cache");
        let tree = fetch_local(&local_corpus(&archive, &sha), &cache).unwrap();
        std::fs::remove_file(tree.join("pkg-1.0/src/A.java")).unwrap();
        let again = fetch_local(&local_corpus(&archive, &sha), &cache).unwrap();
        assert!(again.join("pkg-1.0/src/A.java").is_file());
    }

    #[test]
    fn two_fetches_at_once_both_get_the_whole_tree() {
        // D2: the second fetch deleted or shared the first one's `.partial` and an
        // incomplete tree (28 800 of 30 000 files) was installed as verified.
        let dir = tempfile::tempdir().unwrap();
        let archive = big_tarball(dir.path(), 3_000);
        let sha = sha256_file(&archive).unwrap();
        let cache = dir.path().join("cache");
        let corpus = local_corpus(&archive, &sha);
        let runs: Vec<_> = (0..2)
            .map(|_| {
                let (corpus, cache) = (corpus.clone(), cache.clone());
                std::thread::spawn(move || fetch_local(&corpus, &cache))
            })
            .collect();
        for run in runs {
            let tree = run.join().unwrap().unwrap();
            assert_eq!(count_files(&tree), 3_000);
        }
        let leftovers: Vec<_> = std::fs::read_dir(cache.join("corpora"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.contains("partial"))
            .collect();
        assert!(leftovers.is_empty(), "{leftovers:?}");
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
