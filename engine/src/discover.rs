//! Discovery: walk the root (respecting .gitignore), pick each file's language by
//! extension, refuse to read anything outside the root, and apply the limits.
//! Skipped files are listed with a typed reason, never silently dropped.

use std::path::{Path, PathBuf};

use ignore::WalkBuilder;
use rayon::prelude::*;
use sha2::{Digest, Sha256};

use crate::error::EngineError;
use crate::lang::Language;
use crate::limits::Limits;

/// A file read and ready to parse.
pub struct SourceFile {
    pub path: String,
    pub language: Language,
    pub bytes: Vec<u8>,
    pub sha256: String,
}

/// A file that will not be analysed, and why.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Skipped {
    pub path: String,
    pub reason: SkipReason,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum SkipReason {
    TooLarge,
    NotUtf8,
    Binary,
    Unreadable,
    LinkOutsideRoot,
    Link,
}

impl SkipReason {
    pub fn token(self) -> &'static str {
        match self {
            SkipReason::TooLarge => "too_large",
            SkipReason::NotUtf8 => "not_utf8",
            SkipReason::Binary => "binary",
            SkipReason::Unreadable => "unreadable",
            SkipReason::LinkOutsideRoot => "link_outside_root",
            SkipReason::Link => "link",
        }
    }
}

pub struct Discovered {
    pub files: Vec<SourceFile>,
    pub skipped: Vec<Skipped>,
}

struct Candidate {
    rel: String,
    abs: PathBuf,
    language: Language,
    is_link: bool,
}

/// Walk `root` and read every file of the wanted languages, in path order.
pub fn discover(
    root: &Path,
    languages: &[Language],
    limits: &Limits,
) -> Result<Discovered, EngineError> {
    let root = root
        .canonicalize()
        .ok()
        .filter(|p| p.is_dir())
        .ok_or_else(|| EngineError::InvalidRoot {
            path: root.display().to_string(),
        })?;
    let candidates = walk(&root, languages);
    if candidates.len() as u64 > limits.max_files {
        return Err(EngineError::WorkloadTooLarge {
            what: "file count",
            actual: candidates.len() as u64,
            limit: limits.max_files,
        });
    }
    let mut skipped = Vec::new();
    let mut to_read = Vec::new();
    let mut total: u64 = 0;
    for c in candidates {
        match admit(&root, &c, limits) {
            Ok(size) => {
                total += size;
                to_read.push(c);
            }
            Err(reason) => skipped.push(Skipped {
                path: c.rel,
                reason,
            }),
        }
    }
    if total > limits.max_total_bytes {
        return Err(EngineError::WorkloadTooLarge {
            what: "total bytes",
            actual: total,
            limit: limits.max_total_bytes,
        });
    }
    let read: Vec<Result<SourceFile, Skipped>> = to_read
        .into_par_iter()
        .map(|c| read_one(c, limits))
        .collect();
    let mut files = Vec::new();
    for r in read {
        match r {
            Ok(f) => files.push(f),
            Err(s) => skipped.push(s),
        }
    }
    skipped.sort();
    Ok(Discovered { files, skipped })
}

fn walk(root: &Path, languages: &[Language]) -> Vec<Candidate> {
    let mut out = Vec::new();
    let walker = WalkBuilder::new(root)
        .follow_links(false)
        .require_git(false)
        .sort_by_file_path(|a, b| a.cmp(b))
        .build();
    for entry in walker.flatten() {
        let Some(ft) = entry.file_type() else {
            continue;
        };
        if ft.is_dir() {
            continue;
        }
        let abs = entry.path().to_path_buf();
        let Ok(rel) = abs.strip_prefix(root) else {
            continue;
        };
        let rel = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy())
            .collect::<Vec<_>>()
            .join("/");
        let Some(language) = Language::for_path(&rel) else {
            continue;
        };
        if !languages.contains(&language) {
            continue;
        }
        out.push(Candidate {
            rel,
            abs,
            language,
            is_link: ft.is_symlink(),
        });
    }
    out.sort_by(|a, b| a.rel.cmp(&b.rel));
    out
}

/// Check containment and size before reading; returns the file's size.
fn admit(root: &Path, c: &Candidate, limits: &Limits) -> Result<u64, SkipReason> {
    // Canonicalise and re-check against the root: a link, or a directory swapped for
    // one during the walk, must not lead outside.
    let real = c.abs.canonicalize().map_err(|_| {
        if c.is_link {
            SkipReason::LinkOutsideRoot
        } else {
            SkipReason::Unreadable
        }
    })?;
    if !real.starts_with(root) {
        return Err(SkipReason::LinkOutsideRoot);
    }
    if c.is_link {
        // A link inside the root names a file the walk reaches by its own path.
        return Err(SkipReason::Link);
    }
    let meta = std::fs::metadata(&real).map_err(|_| SkipReason::Unreadable)?;
    if !meta.is_file() {
        return Err(SkipReason::Unreadable);
    }
    if meta.len() > limits.max_file_bytes {
        return Err(SkipReason::TooLarge);
    }
    Ok(meta.len())
}

fn read_one(c: Candidate, limits: &Limits) -> Result<SourceFile, Skipped> {
    let skip = |reason| Skipped {
        path: c.rel.clone(),
        reason,
    };
    let bytes = std::fs::read(&c.abs).map_err(|_| skip(SkipReason::Unreadable))?;
    if bytes.len() as u64 > limits.max_file_bytes {
        return Err(skip(SkipReason::TooLarge));
    }
    if bytes.contains(&0) {
        return Err(skip(SkipReason::Binary));
    }
    if std::str::from_utf8(&bytes).is_err() {
        return Err(skip(SkipReason::NotUtf8));
    }
    let sha256 = hex(&Sha256::digest(&bytes));
    Ok(SourceFile {
        path: c.rel,
        language: c.language,
        bytes,
        sha256,
    })
}

pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
