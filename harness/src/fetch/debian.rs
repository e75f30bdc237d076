//! Debian source packages: `apt-get source --download-only NAME=VERSION`.
//!
//! apt needs a `deb-src` line (which `make setup` adds, followed by `apt-get update`);
//! without one the fetch is `tool_missing` saying so. The mirror serves some packages'
//! `.debian.tar.*` as 404 while the orig archive downloads, and apt-get then exits 100:
//! the download is accepted whenever the orig archive is there and its sha256 matches
//! the pin, whatever the exit code. The Debian revision may leave the pool; the orig
//! archive's name and sha256 stay across revisions, so the sha256 is the pin.

use std::path::{Path, PathBuf};
use std::time::Duration;

use oracles::{Outcome, Tool};

use super::{already_downloaded, download_dir, fetch_verified};
use crate::corpora::CorpusEntry;
use crate::pipeline::Fetcher;

const TOOL: &str = "fetch:debian";

/// What to tell a person whose apt has no source lines.
pub const NEEDS_SETUP: &str = "apt has no deb-src line (in /etc/apt/sources.list or \
/etc/apt/sources.list.d/), so Debian source packages cannot be downloaded: run `make setup` \
(it adds one and runs apt-get update)";

/// The Debian source-package fetcher.
#[derive(Debug, Clone, Copy, Default)]
pub struct Debian;

impl Fetcher for Debian {
    fn registry(&self) -> &'static str {
        "debian"
    }

    fn fetch(
        &self,
        corpus: &CorpusEntry,
        cache_dir: &Path,
        bound: Duration,
    ) -> Result<PathBuf, Outcome> {
        fetch_verified(corpus, cache_dir, bound, TOOL, || {
            download(corpus, cache_dir, bound, Path::new("/etc/apt"))
        })
    }
}

fn download(
    corpus: &CorpusEntry,
    cache_dir: &Path,
    bound: Duration,
    apt_dir: &Path,
) -> Result<PathBuf, Outcome> {
    let source = &corpus.source;
    if source.archive.is_empty() {
        return Err(failed(format!(
            "corpus {} names no `archive` (the orig tarball's file name)",
            corpus.id
        )));
    }
    let dir = download_dir(cache_dir, corpus);
    if let Some(found) = already_downloaded(&dir, &source.archive, &source.sha256) {
        return Ok(found);
    }
    if !has_deb_src(apt_dir) {
        return Err(Outcome::ToolMissing {
            tool: TOOL.into(),
            detail: NEEDS_SETUP.into(),
        });
    }
    let apt_get = Tool::locate("apt-get")?;
    std::fs::create_dir_all(&dir)
        .map_err(|e| failed(format!("cannot create {}: {e}", dir.display())))?;
    let finished = apt_get
        .command(&dir)
        .args(["source", "--download-only"])
        .arg(format!("{}={}", source.package, source.version))
        .timeout(bound)
        .run_unchecked()?;
    let archive = dir.join(&source.archive);
    if archive.is_file() {
        return Ok(archive);
    }
    let said = format!("{}\n{}", finished.stdout, finished.stderr);
    if said.contains("deb-src") && said.contains("sources.list") {
        return Err(Outcome::ToolMissing {
            tool: TOOL.into(),
            detail: NEEDS_SETUP.into(),
        });
    }
    if said.contains("Unable to find a source package") {
        return Err(failed(format!(
            "apt knows no source package {}={}: run `apt-get update` after adding the deb-src \
             line (`make setup` does both); the revision may also have left the pool",
            source.package, source.version
        )));
    }
    let last = finished
        .stderr
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("no message");
    Err(failed(format!(
        "apt-get source {}={} left no {} (exit {:?}): {last}",
        source.package, source.version, source.archive, finished.status
    )))
}

/// Whether apt's sources under `apt_dir` (`/etc/apt`) list a deb-src entry: a
/// `deb-src` line in a one-line-style file, or a deb822 stanza whose `Types:` holds
/// `deb-src` and that is not `Enabled: no`.
pub fn has_deb_src(apt_dir: &Path) -> bool {
    let mut files = vec![apt_dir.join("sources.list")];
    if let Ok(entries) = std::fs::read_dir(apt_dir.join("sources.list.d")) {
        let mut more: Vec<PathBuf> = entries.filter_map(|e| e.ok()).map(|e| e.path()).collect();
        more.sort();
        files.extend(more);
    }
    files.iter().any(|path| {
        let Ok(text) = std::fs::read_to_string(path) else {
            return false;
        };
        match path.extension().and_then(|e| e.to_str()) {
            Some("sources") => deb822_has_deb_src(&text),
            _ if path.file_name().is_some_and(|n| n == "sources.list")
                || path.extension().is_some_and(|e| e == "list") =>
            {
                text.lines().any(|l| l.trim_start().starts_with("deb-src"))
            }
            _ => false,
        }
    })
}

fn deb822_has_deb_src(text: &str) -> bool {
    text.split("\n\n").any(|stanza| {
        let field = |name: &str| {
            stanza.lines().find_map(|l| {
                let (key, value) = l.split_once(':')?;
                key.trim()
                    .eq_ignore_ascii_case(name)
                    .then(|| value.trim().to_string())
            })
        };
        let types = field("Types").unwrap_or_default();
        let enabled = !matches!(field("Enabled"), Some(v) if v.eq_ignore_ascii_case("no"));
        enabled && types.split_whitespace().any(|t| t == "deb-src")
    })
}

fn failed(detail: String) -> Outcome {
    Outcome::ToolFailed {
        tool: TOOL.into(),
        detail,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn apt(files: &[(&str, &str)]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("sources.list.d")).unwrap();
        for (name, text) in files {
            std::fs::write(dir.path().join(name), text).unwrap();
        }
        dir
    }

    #[test]
    fn deb_src_is_found_in_both_source_formats() {
        // A placeholder mirror: no registry host is named in the repository.
        let deb822 = "Types: deb\nURIs: http://mirror.invalid/debian\nSuites: bookworm\n\n\
                      Types: deb deb-src\nURIs: http://mirror.invalid/debian\nSuites: bookworm\n";
        assert!(has_deb_src(
            apt(&[("sources.list.d/debian.sources", deb822)]).path()
        ));
        let binary_only = "Types: deb\nURIs: http://mirror.invalid/debian\n";
        assert!(!has_deb_src(
            apt(&[("sources.list.d/debian.sources", binary_only)]).path()
        ));
        let disabled = "Types: deb deb-src\nEnabled: no\nURIs: http://x\n";
        assert!(!has_deb_src(
            apt(&[("sources.list.d/a.sources", disabled)]).path()
        ));
        let one_line = "deb http://x bookworm main\n# deb-src http://x bookworm main\n";
        assert!(!has_deb_src(apt(&[("sources.list", one_line)]).path()));
        let one_line = "deb http://x bookworm main\ndeb-src http://x bookworm main\n";
        assert!(has_deb_src(
            apt(&[("sources.list.d/src.list", one_line)]).path()
        ));
        assert!(!has_deb_src(apt(&[]).path()));
    }

    #[test]
    fn without_deb_src_the_fetch_is_tool_missing_naming_make_setup() {
        let apt_dir = apt(&[("sources.list", "deb http://x bookworm main\n")]);
        let cache = tempfile::tempdir().unwrap();
        let corpus: CorpusEntry = serde_json::from_value(serde_json::json!({
            "id": "jsoup", "language": "java",
            "source": {"registry": "debian", "package": "jsoup", "version": "1.15.3-1",
                       "archive": "jsoup_1.15.3.orig.tar.xz", "sha256": "0".repeat(64)},
            "oracle": {"name": "javac"}}))
        .unwrap();
        let err = download(
            &corpus,
            cache.path(),
            Duration::from_secs(5),
            apt_dir.path(),
        )
        .unwrap_err();
        assert_eq!(err.token(), "tool_missing");
        assert!(err.to_string().contains("make setup"), "{err}");
    }
}
