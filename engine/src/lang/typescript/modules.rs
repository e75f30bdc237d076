//! Module specifiers to files of the tree, the way TypeScript's `Node10` /
//! `Bundler` resolution reads a relative specifier: the path itself, then with
//! each source extension, then as a directory's `index` file; a `.js` written in
//! a TypeScript import names the `.ts` file it is compiled from. Bare specifiers
//! (`react`, `node:fs`) are never files of the tree.

use crate::index::TreeIndex;

/// Extensions tried after a specifier that names no file as written, in
/// TypeScript's order (declarations after sources).
const EXTENSIONS: &[&str] = &["ts", "tsx", "d.ts", "mts", "cts", "js", "jsx", "mjs", "cjs"];

/// A relative (`./`, `../`) or root-absolute specifier; anything else is a package.
pub fn is_relative(specifier: &str) -> bool {
    specifier.starts_with("./")
        || specifier.starts_with("../")
        || specifier == "."
        || specifier == ".."
        || specifier.starts_with('/')
}

/// `dir` joined with `rel`, `.` and `..` folded; `None` when it climbs out of the root.
fn join(dir: &str, rel: &str) -> Option<String> {
    let mut parts: Vec<&str> = if rel.starts_with('/') {
        Vec::new()
    } else {
        dir.split('/').filter(|p| !p.is_empty()).collect()
    };
    for seg in rel.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            s => parts.push(s),
        }
    }
    Some(parts.join("/"))
}

/// The file of the tree a specifier written in `from` (a root-relative path) names.
pub fn resolve_specifier(index: &TreeIndex, from: &str, specifier: &str) -> Option<u32> {
    if !is_relative(specifier) {
        return workspace_package(index, specifier);
    }
    let dir = from.rsplit_once('/').map(|(d, _)| d).unwrap_or("");
    let base = join(dir, specifier)?;
    resolve_path(index, &base, specifier.ends_with('/'))
}

/// A bare specifier naming a package of the tree's own workspace: `@scope/name`
/// or `name` (and their subpaths) as `packages/<name>/src/…` or `packages/<name>/…`,
/// the monorepo layout tsconfig `paths` map such specifiers to. Anything else is a
/// package outside the tree.
pub fn workspace_package(index: &TreeIndex, specifier: &str) -> Option<u32> {
    let mut parts = specifier.split('/');
    let first = parts.next()?;
    let name = if first.starts_with('@') {
        parts.next()?
    } else {
        first
    };
    let sub: Vec<&str> = parts.collect();
    if name.is_empty() || name.starts_with('.') {
        return None;
    }
    for root in [format!("packages/{name}/src"), format!("packages/{name}")] {
        let base = if sub.is_empty() {
            root
        } else {
            format!("{root}/{}", sub.join("/"))
        };
        if let Some(f) = resolve_path(index, &base, false) {
            return Some(f);
        }
    }
    None
}

/// A root-relative path as a file, with an extension, or as a directory's index.
fn resolve_path(index: &TreeIndex, base: &str, directory_only: bool) -> Option<u32> {
    let base = base.to_string();
    let try_path = |p: &str| index.file_by_path(p);
    if !directory_only {
        if let Some(f) = try_path(&base) {
            return Some(f);
        }
        // `./a.js` written in TypeScript names `a.ts` (ESM-style imports).
        for (written, source) in [
            (".js", &["ts", "tsx", "d.ts"][..]),
            (".mjs", &["mts"][..]),
            (".cjs", &["cts"][..]),
            (".jsx", &["tsx"][..]),
        ] {
            if let Some(stem) = base.strip_suffix(written) {
                for ext in source {
                    if let Some(f) = try_path(&format!("{stem}.{ext}")) {
                        return Some(f);
                    }
                }
            }
        }
        for ext in EXTENSIONS {
            if let Some(f) = try_path(&format!("{base}.{ext}")) {
                return Some(f);
            }
        }
    }
    let dir = base.trim_end_matches('/');
    for ext in EXTENSIONS {
        let p = if dir.is_empty() {
            format!("index.{ext}")
        } else {
            format!("{dir}/index.{ext}")
        };
        if let Some(f) = try_path(&p) {
            return Some(f);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths_fold_dots_and_never_leave_the_root() {
        assert_eq!(join("src/a", "../b/c").as_deref(), Some("src/b/c"));
        assert_eq!(join("src", "./x").as_deref(), Some("src/x"));
        assert_eq!(join("", "../x"), None);
        assert!(is_relative("./a") && is_relative("../a") && !is_relative("react"));
    }
}
