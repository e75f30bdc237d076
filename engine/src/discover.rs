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

/// A build file (`go.mod`, `Cargo.toml`, `tsconfig.json`, `package.json`,
/// `pyproject.toml`): read through the same checks as a source, never parsed as
/// one; the frontends read the build configuration from it.
pub struct BuildFile {
    pub path: String,
    /// The language whose build it configures.
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
    /// The build configuration leaves the file out (Go build constraints).
    BuildExcluded,
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
            SkipReason::BuildExcluded => "build_excluded",
        }
    }
}

pub struct Discovered {
    pub files: Vec<SourceFile>,
    pub build_files: Vec<BuildFile>,
    pub skipped: Vec<Skipped>,
}

struct Candidate {
    rel: String,
    abs: PathBuf,
    language: Language,
    is_link: bool,
    /// A `.h` header: C or C++ is decided once its bytes are read.
    header: Option<HeaderRule>,
    /// A build file of `language`, not a source.
    build: bool,
}

/// How a `.h` file's language is decided (DESIGN §3, measured in lang/c/README.md):
/// C++ when the tree's C++ sources outnumber its C sources, else by its own content.
#[derive(Clone, Copy)]
struct HeaderRule {
    tree_is_cpp: bool,
    /// The languages asked for: a header decided into another one is not analysed.
    want_c: bool,
    want_cpp: bool,
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
    let read: Vec<Result<Option<Read>, Skipped>> = to_read
        .into_par_iter()
        .map(|c| read_one(c, limits))
        .collect();
    let mut files = Vec::new();
    let mut build_files = Vec::new();
    for r in read {
        match r {
            Ok(Some(Read::Source(f))) => files.push(f),
            Ok(Some(Read::Build(f))) => build_files.push(f),
            Ok(None) => {}
            Err(s) => skipped.push(s),
        }
    }
    skipped.sort();
    Ok(Discovered {
        files,
        build_files,
        skipped,
    })
}

/// The language whose build a file of this name configures, if it is a build file.
fn build_file_language(rel: &str, languages: &[Language]) -> Option<Language> {
    let name = rel.rsplit('/').next().unwrap_or(rel);
    let wanted = |l: &Language| languages.contains(l);
    match name {
        "go.mod" => Some(Language::Go).filter(wanted),
        "Cargo.toml" => Some(Language::Rust).filter(wanted),
        "pyproject.toml" => Some(Language::Python).filter(wanted),
        "tsconfig.json" | "jsconfig.json" | "package.json" => {
            [Language::TypeScript, Language::Tsx, Language::JavaScript]
                .into_iter()
                .find(|l| wanted(l))
        }
        // `tsconfig.base.json`, `tsconfig.app.json`: what `extends` and `references` name.
        n if is_named_ts_config(n) => [Language::TypeScript, Language::Tsx, Language::JavaScript]
            .into_iter()
            .find(|l| wanted(l)),
        _ => None,
    }
}

/// `tsconfig.<name>.json` / `jsconfig.<name>.json`.
fn is_named_ts_config(name: &str) -> bool {
    ["tsconfig.", "jsconfig."].iter().any(|p| {
        name.strip_prefix(p)
            .and_then(|rest| rest.strip_suffix(".json"))
            .is_some_and(|middle| !middle.is_empty())
    })
}

fn walk(root: &Path, languages: &[Language]) -> Vec<Candidate> {
    let mut out = Vec::new();
    let (mut c_sources, mut cpp_sources) = (0usize, 0usize);
    let want_c = languages.contains(&Language::C);
    let want_cpp = languages.contains(&Language::Cpp);
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
        if let Some(language) = build_file_language(&rel, languages) {
            out.push(Candidate {
                rel,
                abs,
                language,
                is_link: ft.is_symlink(),
                header: None,
                build: true,
            });
            continue;
        }
        let (language, header) = match Language::for_path(&rel) {
            Some(l) => (l, None),
            None if Language::is_ambiguous_header(&rel) && (want_c || want_cpp) => {
                let rule = HeaderRule {
                    tree_is_cpp: false,
                    want_c,
                    want_cpp,
                };
                (Language::C, Some(rule))
            }
            None => continue,
        };
        match language {
            Language::C if header.is_none() => c_sources += 1,
            Language::Cpp => cpp_sources += 1,
            _ => {}
        }
        if header.is_none() && !languages.contains(&language) {
            continue;
        }
        out.push(Candidate {
            rel,
            abs,
            language,
            is_link: ft.is_symlink(),
            header,
            build: false,
        });
    }
    let tree_is_cpp = cpp_sources > c_sources;
    for c in out.iter_mut() {
        if let Some(h) = c.header.as_mut() {
            h.tree_is_cpp = tree_is_cpp;
        }
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

/// What one read gave: a source to parse or a build file to hand to the frontends.
enum Read {
    Source(SourceFile),
    Build(BuildFile),
}

/// `Ok(None)`: a header whose content made it a language that was not asked for.
fn read_one(c: Candidate, limits: &Limits) -> Result<Option<Read>, Skipped> {
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
    if std::str::from_utf8(&bytes).is_err() && !c.language.reads_any_encoding() {
        return Err(skip(SkipReason::NotUtf8));
    }
    if c.build {
        let sha256 = hex(&Sha256::digest(&bytes));
        return Ok(Some(Read::Build(BuildFile {
            path: c.rel,
            language: c.language,
            bytes,
            sha256,
        })));
    }
    let language = match c.header {
        Some(rule) => {
            let cpp = rule.tree_is_cpp || crate::lang::c::header_says_cpp(&bytes);
            match cpp {
                true if rule.want_cpp => Language::Cpp,
                false if rule.want_c => Language::C,
                _ => return Ok(None),
            }
        }
        None => c.language,
    };
    let sha256 = hex(&Sha256::digest(&bytes));
    Ok(Some(Read::Source(SourceFile {
        path: c.rel,
        language,
        bytes,
        sha256,
    })))
}

pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
