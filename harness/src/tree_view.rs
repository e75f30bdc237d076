//! The analysed tree of a corpus: its `root` inside the unpacked archive and, when
//! corpora.json gives an `include` list, only those subtrees. Both the oracle and the
//! engine see the same tree, so a declaration outside `include` is outside for both.
//!
//! The subtrees are hard-linked (copied where links are refused) into
//! `views/<id>-<pin>-<include digest>/` under the cache, at the same relative paths, so
//! every path in a report or a truth is the path in the corpus. A view appears only
//! once complete. Links inside the archive are not carried over.

use std::path::{Component, Path, PathBuf};

use oracles::Outcome;
use sha2::{Digest, Sha256};

use crate::corpora::CorpusEntry;

const TOOL: &str = "include";

/// The directory to analyse: `unpacked/root`, or a view holding its `include` subtrees.
pub fn analysed_root(
    unpacked: &Path,
    corpus: &CorpusEntry,
    cache_dir: &Path,
) -> Result<PathBuf, Outcome> {
    // A corpus with a preparation step (source maps → sources) is analysed in what the
    // step made; `root` and `include` apply there.
    let prepared = crate::prepare::prepared_tree(unpacked, corpus, cache_dir)?;
    let unpacked = prepared.as_path();
    let root = if corpus.root.is_empty() {
        unpacked.to_path_buf()
    } else {
        unpacked.join(checked_relative(&corpus.root, "root")?)
    };
    if !root.is_dir() {
        return Err(failed(format!(
            "corpus {}: root `{}` is not a directory of the archive",
            corpus.id, corpus.root
        )));
    }
    if corpus.include.is_empty() {
        return Ok(root);
    }
    let mut includes = Vec::new();
    for include in &corpus.include {
        let relative = checked_relative(include, "include")?;
        if !root.join(&relative).exists() {
            return Err(failed(format!(
                "corpus {}: include `{include}` is not in the archive under `{}`",
                corpus.id, corpus.root
            )));
        }
        includes.push(relative);
    }
    let view = cache_dir.join("views").join(view_name(corpus));
    if view.is_dir() {
        return Ok(view);
    }
    // Laid out in a directory of its own, renamed into place once whole (D2).
    crate::fetch::build_into_place(&view, TOOL, |partial| {
        for relative in &includes {
            link_tree(&root.join(relative), &partial.join(relative))
                .map_err(|e| failed(format!("cannot lay out `{}`: {e}", relative.display())))?;
        }
        Ok(())
    })?;
    Ok(view)
}

/// `<id>-<pin>-<digest of root and include list>`, the whole pin (D3).
fn view_name(corpus: &CorpusEntry) -> String {
    let mut hasher = Sha256::new();
    hasher.update(corpus.root.as_bytes());
    for include in &corpus.include {
        hasher.update(b"\0");
        hasher.update(include.as_bytes());
    }
    if let Some(step) = &corpus.prepare {
        hasher.update(b"\0prepare\0");
        hasher.update(
            serde_json::to_string(step)
                .expect("steps serialize")
                .as_bytes(),
        );
    }
    let digest = crate::proofs::hex(&hasher.finalize());
    let pin = corpus.source.sha256.to_ascii_lowercase();
    format!("{}-{pin}-{}", corpus.id, &digest[..12])
}

/// A relative path without `..`, `.` tricks or a root: it cannot leave the archive.
fn checked_relative(text: &str, what: &str) -> Result<PathBuf, Outcome> {
    let path = Path::new(text);
    let clean = path
        .components()
        .all(|c| matches!(c, Component::Normal(_) | Component::CurDir));
    if text.is_empty() || !clean {
        return Err(failed(format!(
            "{what} `{text}` must be a relative path inside the archive"
        )));
    }
    Ok(path.to_path_buf())
}

/// Mirrors the regular files under `from` into `to`, hard-linking where it can.
fn link_tree(from: &Path, to: &Path) -> std::io::Result<()> {
    let kind = std::fs::symlink_metadata(from)?.file_type();
    if kind.is_symlink() {
        return Ok(());
    }
    if kind.is_file() {
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent)?;
        }
        if std::fs::hard_link(from, to).is_err() {
            std::fs::copy(from, to)?;
        }
        return Ok(());
    }
    std::fs::create_dir_all(to)?;
    let mut entries: Vec<_> = std::fs::read_dir(from)?.collect::<Result<_, _>>()?;
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        link_tree(&entry.path(), &to.join(entry.file_name()))?;
    }
    Ok(())
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

    fn corpus(root: &str, include: &[&str]) -> CorpusEntry {
        serde_json::from_value(serde_json::json!({
            "id": "c", "language": "java",
            "source": {"registry": "local", "package": "c", "version": "1",
                       "sha256": "ab".repeat(32)},
            "root": root, "include": include,
            "oracle": {"name": "javac"}}))
        .unwrap()
    }

    #[test]
    fn only_the_included_subtrees_are_in_the_view_at_their_own_paths() {
        let dir = tempfile::tempdir().unwrap();
        let unpacked = dir.path().join("unpacked");
        for f in [
            "p-1/src/main/java/A.java",
            "p-1/src/test/java/T.java",
            "p-1/bench/B.java",
        ] {
            let path = unpacked.join(f);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, "class X {}\n").unwrap();
        }
        let cache = dir.path().join("cache");
        let c = corpus("p-1", &["src/main/java", "src/test/java"]);
        let view = analysed_root(&unpacked, &c, &cache).unwrap();
        assert!(view.join("src/main/java/A.java").is_file());
        assert!(view.join("src/test/java/T.java").is_file());
        assert!(!view.join("bench").exists());
        assert_eq!(analysed_root(&unpacked, &c, &cache).unwrap(), view);
        let whole = analysed_root(&unpacked, &corpus("p-1", &[]), &cache).unwrap();
        assert_eq!(whole, unpacked.join("p-1"));
    }

    #[test]
    fn paths_that_leave_the_archive_or_are_absent_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("p/src")).unwrap();
        for bad in [
            corpus("p", &["../x"]),
            corpus("p", &["/etc"]),
            corpus("../p", &[]),
        ] {
            let err = analysed_root(dir.path(), &bad, dir.path()).unwrap_err();
            assert!(err.to_string().contains("relative path"), "{err}");
        }
        let err = analysed_root(dir.path(), &corpus("p", &["nope"]), dir.path()).unwrap_err();
        assert!(err.to_string().contains("not in the archive"), "{err}");
    }
}
