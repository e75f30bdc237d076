//! Discovery: walk the root (respecting the ignore files inside it), pick each
//! file's language by extension, refuse to read anything outside the root, and apply
//! the limits. Skipped files are listed with a typed reason, never silently dropped.
//! Every byte the engine reads comes through here: opened once, the opened file
//! checked against the root, read from that handle within the size limit.

use std::collections::HashSet;
use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

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
    /// A link whose target does not exist, or a loop of links: never read.
    LinkBroken,
    /// The build configuration leaves the file out (Go build constraints).
    BuildExcluded,
    /// The parse ran past its budget (time or syntax-tree size).
    ParseBudget,
    /// An ignore file inside the root (`.gitignore`, `.ignore`) leaves it out.
    Ignored,
    /// Its name, or a directory's above it, starts with a dot.
    Hidden,
    /// Its path is not UTF-8, so the report could not name it apart from another.
    NotUtf8Name,
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
            SkipReason::LinkBroken => "link_broken",
            SkipReason::BuildExcluded => "build_excluded",
            SkipReason::ParseBudget => "parse_budget",
            SkipReason::Ignored => "ignored",
            SkipReason::Hidden => "hidden",
            SkipReason::NotUtf8Name => "not_utf8_name",
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
    let Walked {
        candidates,
        mut skipped,
    } = walk(&root, languages);
    if candidates.len() as u64 > limits.max_files {
        return Err(EngineError::WorkloadTooLarge {
            what: "file count",
            actual: candidates.len() as u64,
            limit: limits.max_files,
        });
    }
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
    let too_large = |actual: u64| EngineError::WorkloadTooLarge {
        what: "total bytes",
        actual,
        limit: limits.max_total_bytes,
    };
    if total > limits.max_total_bytes {
        return Err(too_large(total));
    }
    // The sizes above are the walk's; the bytes read are the authority. A file that
    // grew since is counted as read, and reading stops once the total is past the
    // limit, so memory stays bounded whatever a concurrent writer does.
    let read_total = AtomicU64::new(0);
    let read: Vec<Result<Option<Read>, Skipped>> = to_read
        .into_par_iter()
        .map(|c| read_one(&root, c, limits, &read_total))
        .collect();
    let read_total = read_total.into_inner();
    if read_total > limits.max_total_bytes {
        return Err(too_large(read_total));
    }
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

/// Whether discovery would read a file at `rel`: a source of a wanted language (a
/// `.h` when C or C++ is wanted) or a build file of one.
fn is_wanted_file(rel: &str, languages: &[Language]) -> bool {
    build_file_language(rel, languages).is_some()
        || Language::for_path(rel).is_some_and(|l| languages.contains(&l))
        || Language::is_ambiguous_header(rel)
            && (languages.contains(&Language::C) || languages.contains(&Language::Cpp))
}

/// What the walk found: the files to admit, and those it left out with a reason.
struct Walked {
    candidates: Vec<Candidate>,
    skipped: Vec<Skipped>,
}

/// `path` relative to `root`, `/`-separated; `None` when a component is not UTF-8.
fn relative(root: &Path, path: &Path) -> Option<Result<String, String>> {
    let rel = path.strip_prefix(root).ok()?;
    let mut parts = Vec::new();
    let mut lossy = false;
    for c in rel.components() {
        let part = c.as_os_str();
        match part.to_str() {
            Some(p) => parts.push(p.to_string()),
            None => {
                lossy = true;
                parts.push(part.to_string_lossy().into_owned());
            }
        }
    }
    let joined = parts.join("/");
    Some(if lossy { Err(joined) } else { Ok(joined) })
}

/// The entries the ignore files inside the root and the hidden-file rule keep.
/// Only ignore files inside the root count (D7): not a parent's `.gitignore`, not the
/// enclosing repository's `.git/info/exclude`, not the user's global excludes, so the
/// report depends on the files under the root alone.
fn kept_by_the_filters(root: &Path) -> HashSet<PathBuf> {
    WalkBuilder::new(root)
        .follow_links(false)
        .require_git(false)
        .parents(false)
        .git_global(false)
        .git_exclude(false)
        .git_ignore(true)
        .ignore(true)
        .hidden(true)
        .build()
        .flatten()
        .map(|e| e.into_path())
        .collect()
}

/// Why the filters left `name` out: hidden when it starts with a dot, else an
/// ignore file.
fn left_out_reason(path: &Path) -> SkipReason {
    let hidden = path
        .file_name()
        .is_some_and(|n| n.as_encoded_bytes().first() == Some(&b'.'));
    if hidden {
        SkipReason::Hidden
    } else {
        SkipReason::Ignored
    }
}

/// Walk the whole root without filters, in path order, pruning what the filters
/// leave out: a left-out file of a wanted language, or a left-out directory (once,
/// as `dir/`, not descended), is listed with its reason instead of vanishing.
fn walk(root: &Path, languages: &[Language]) -> Walked {
    let kept = Arc::new(kept_by_the_filters(root));
    let left_out: Arc<Mutex<Vec<Skipped>>> = Arc::default();
    let walker = {
        let (kept, left_out, root) = (kept.clone(), left_out.clone(), root.to_path_buf());
        let languages = languages.to_vec();
        WalkBuilder::new(root.clone())
            .standard_filters(false)
            .follow_links(false)
            .sort_by_file_path(|a, b| a.cmp(b))
            .filter_entry(move |entry| {
                if entry.depth() == 0 || kept.contains(entry.path()) {
                    return true;
                }
                let is_dir = entry.file_type().is_some_and(|t| t.is_dir());
                let Some(rel) = relative(&root, entry.path()) else {
                    return false;
                };
                let rel = rel.unwrap_or_else(|lossy| lossy);
                if is_dir || is_wanted_file(&rel, &languages) {
                    let path = if is_dir { format!("{rel}/") } else { rel };
                    let reason = left_out_reason(entry.path());
                    left_out
                        .lock()
                        .expect("no panic while held")
                        .push(Skipped { path, reason });
                }
                false
            })
            .build()
    };
    let mut out = Vec::new();
    let mut skipped = Vec::new();
    let (mut c_sources, mut cpp_sources) = (0usize, 0usize);
    let want_c = languages.contains(&Language::C);
    let want_cpp = languages.contains(&Language::Cpp);
    for entry in walker.flatten() {
        let Some(ft) = entry.file_type() else {
            continue;
        };
        if ft.is_dir() {
            continue;
        }
        let abs = entry.path().to_path_buf();
        let rel = match relative(root, &abs) {
            Some(Ok(rel)) => rel,
            Some(Err(lossy)) => {
                // Two names that differ only in bytes that are not UTF-8 would get
                // one path in the report (D15): neither is analysed.
                if is_wanted_file(&lossy, languages) {
                    skipped.push(Skipped {
                        path: lossy,
                        reason: SkipReason::NotUtf8Name,
                    });
                }
                continue;
            }
            None => continue,
        };
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
    skipped.extend(left_out.lock().expect("no panic while held").drain(..));
    Walked {
        candidates: out,
        skipped,
    }
}

/// What a link is, without reading it: broken, leading out of the root, or a
/// second name of a file the walk reaches by its own path.
fn link_reason(root: &Path, abs: &Path) -> SkipReason {
    match abs.canonicalize() {
        // A dangling link or a loop of links leads nowhere, not outside (D19).
        Err(_) => SkipReason::LinkBroken,
        Ok(real) if !real.starts_with(root) => SkipReason::LinkOutsideRoot,
        Ok(_) => SkipReason::Link,
    }
}

/// The walk's size check before any byte is read; returns the file's size. Only
/// advisory: [`read_one`] checks the file it actually opened.
fn admit(root: &Path, c: &Candidate, limits: &Limits) -> Result<u64, SkipReason> {
    if c.is_link {
        return Err(link_reason(root, &c.abs));
    }
    let meta = std::fs::symlink_metadata(&c.abs).map_err(|_| SkipReason::Unreadable)?;
    if meta.file_type().is_symlink() {
        return Err(link_reason(root, &c.abs));
    }
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

/// Opens `abs` once and reads it through that handle (D6): the last component is
/// never followed (`O_NOFOLLOW`), a FIFO or device does not block the open
/// (`O_NONBLOCK`) and is refused by the handle's own metadata, the opened file's
/// canonical path must lie under `root` (a directory above it swapped for a link
/// since the walk is caught here), and at most `max_file_bytes + 1` bytes are read.
fn read_contained(root: &Path, abs: &Path, limits: &Limits) -> Result<Vec<u8>, SkipReason> {
    let file = open_no_follow(abs).map_err(|e| match e.raw_os_error() {
        // The file was swapped for a link after the walk.
        Some(code) if code == libc::ELOOP => link_reason(root, abs),
        _ => SkipReason::Unreadable,
    })?;
    let meta = file.metadata().map_err(|_| SkipReason::Unreadable)?;
    if !meta.is_file() {
        return Err(SkipReason::Unreadable);
    }
    if !opened_under(root, abs, &file, &meta) {
        return Err(SkipReason::LinkOutsideRoot);
    }
    if meta.len() > limits.max_file_bytes {
        return Err(SkipReason::TooLarge);
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(limits.max_file_bytes.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|_| SkipReason::Unreadable)?;
    if bytes.len() as u64 > limits.max_file_bytes {
        return Err(SkipReason::TooLarge);
    }
    Ok(bytes)
}

#[cfg(unix)]
fn open_no_follow(path: &Path) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)
}

#[cfg(not(unix))]
fn open_no_follow(path: &Path) -> std::io::Result<std::fs::File> {
    std::fs::File::open(path)
}

/// Whether the file behind the handle is under `root`: Linux names an open
/// descriptor's file in `/proc/self/fd`; elsewhere the path is canonicalised and
/// must name the same file (device and inode) as the handle.
fn opened_under(root: &Path, abs: &Path, file: &std::fs::File, meta: &std::fs::Metadata) -> bool {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        if let Ok(real) = std::fs::read_link(format!("/proc/self/fd/{}", file.as_raw_fd())) {
            return real.starts_with(root);
        }
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let _ = file;
        let Ok(real) = abs.canonicalize() else {
            return false;
        };
        let same =
            std::fs::metadata(&real).is_ok_and(|m| m.dev() == meta.dev() && m.ino() == meta.ino());
        real.starts_with(root) && same
    }
    #[cfg(not(unix))]
    {
        let _ = (file, meta);
        abs.canonicalize().is_ok_and(|real| real.starts_with(root))
    }
}

/// `Ok(None)`: a header whose content made it a language that was not asked for.
fn read_one(
    root: &Path,
    c: Candidate,
    limits: &Limits,
    read_total: &AtomicU64,
) -> Result<Option<Read>, Skipped> {
    let skip = |reason| Skipped {
        path: c.rel.clone(),
        reason,
    };
    if read_total.load(Ordering::Relaxed) > limits.max_total_bytes {
        // The run is refused once every read is in; nothing more is held.
        return Ok(None);
    }
    let bytes = read_contained(root, &c.abs, limits).map_err(skip)?;
    read_total.fetch_add(bytes.len() as u64, Ordering::Relaxed);
    if bytes.contains(&0) {
        return Err(skip(SkipReason::Binary));
    }
    if std::str::from_utf8(&bytes).is_err() && !c.language.reads_any_encoding() {
        return Err(skip(SkipReason::NotUtf8));
    }
    let sha256 = hex(&Sha256::digest(&bytes));
    if c.build {
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
    // The hash is of the bytes on disk; every stage after reads lone CRs as line
    // ends (the same length, so every position is a position in the file).
    let bytes = crate::parse::lone_cr_as_lf(&bytes).unwrap_or(bytes);
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

#[cfg(test)]
mod tests {
    use super::*;

    fn setup() -> (tempfile::TempDir, PathBuf, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("root");
        let outside = dir.path().join("outside");
        std::fs::create_dir_all(root.join("pkg")).unwrap();
        std::fs::create_dir_all(&outside).unwrap();
        std::fs::write(root.join("pkg/a.py"), "x = 1\n").unwrap();
        std::fs::write(outside.join("a.py"), "SECRET_MARKER = 1\n").unwrap();
        let root = root.canonicalize().unwrap();
        (dir, root, outside)
    }

    /// D6: the walk saw `root/pkg/a.py` as a file; before the read, it is swapped
    /// for a link to a file outside. The read never follows it.
    #[test]
    fn a_file_swapped_for_a_link_after_the_walk_is_not_read() {
        let (_dir, root, outside) = setup();
        let path = root.join("pkg/a.py");
        std::fs::remove_file(&path).unwrap();
        std::os::unix::fs::symlink(outside.join("a.py"), &path).unwrap();
        let read = read_contained(&root, &path, &Limits::default());
        assert_eq!(read, Err(SkipReason::LinkOutsideRoot));
    }

    /// D6: a directory above the file swapped for a link out of the root: the
    /// last component is not a link, so `O_NOFOLLOW` opens it, and the opened
    /// file's own path is what is refused.
    #[test]
    fn a_directory_swapped_for_a_link_after_the_walk_is_not_read() {
        let (_dir, root, outside) = setup();
        std::fs::remove_dir_all(root.join("pkg")).unwrap();
        std::os::unix::fs::symlink(&outside, root.join("pkg")).unwrap();
        let read = read_contained(&root, &root.join("pkg/a.py"), &Limits::default());
        assert_eq!(read, Err(SkipReason::LinkOutsideRoot));
    }

    /// D6: a file that grew past the limit after the walk is cut at the limit's
    /// read, not read whole.
    #[test]
    fn the_read_is_bounded_by_the_limit_whatever_the_walk_saw() {
        let (_dir, root, _outside) = setup();
        let limits = Limits {
            max_file_bytes: 3,
            ..Limits::default()
        };
        let read = read_contained(&root, &root.join("pkg/a.py"), &limits);
        assert_eq!(read, Err(SkipReason::TooLarge));
        let fifo = root.join("pkg/f.py");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        // Opening a FIFO for reading would block until a writer came.
        assert_eq!(
            read_contained(&root, &fifo, &Limits::default()),
            Err(SkipReason::Unreadable)
        );
    }
}
