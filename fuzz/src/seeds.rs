//! Seeds: the proofs (one tree per case) and the engine's annotated fixtures (split
//! on their `#- path` / `//- path` headers), for the frontends; reports the engine
//! writes on the proofs and the proofs' truths, for the readers.

use std::path::{Path, PathBuf};

/// A small tree: root-relative paths and their bytes.
#[derive(Debug, Clone, Default)]
pub struct Tree {
    pub files: Vec<(String, Vec<u8>)>,
}

/// The frontends fuzzed: a target per language, each with its extension and the
/// proof and fixture folders its seeds come from.
pub const LANGUAGE_TARGETS: &[(&str, &str, &str)] = &[
    ("python", "py", "python"),
    ("java", "java", "java"),
    ("go", "go", "go"),
    ("rust", "rs", "rust"),
    ("c", "c", "c"),
    ("cpp", "cpp", "cpp"),
    ("typescript", "ts", "typescript"),
    ("tsx", "tsx", "typescript"),
    ("javascript", "js", "typescript"),
    ("csharp", "cs", "csharp"),
    ("kotlin", "kt", "kotlin"),
    ("ada", "adb", "ada"),
];

pub fn extension_of(target: &str) -> Option<&'static str> {
    LANGUAGE_TARGETS
        .iter()
        .find(|(t, _, _)| *t == target)
        .map(|(_, ext, _)| *ext)
}

fn source_folder(target: &str) -> Option<&'static str> {
    LANGUAGE_TARGETS
        .iter()
        .find(|(t, _, _)| *t == target)
        .map(|(_, _, folder)| *folder)
}

fn sorted_entries(dir: &Path) -> Vec<PathBuf> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| rd.filter_map(|e| e.ok()).map(|e| e.path()).collect())
        .unwrap_or_default();
    entries.sort();
    entries
}

/// Every file of a proof case but its expectations.
fn proof_tree(case: &Path) -> Tree {
    let mut files = Vec::new();
    collect_files(case, case, &mut files);
    files.retain(|(p, _)| p != "expected.json" && p != "expected.stdout");
    Tree { files }
}

fn collect_files(root: &Path, dir: &Path, out: &mut Vec<(String, Vec<u8>)>) {
    for path in sorted_entries(dir) {
        if path.is_dir() {
            collect_files(root, &path, out);
        } else if let (Ok(rel), Ok(bytes)) = (path.strip_prefix(root), std::fs::read(&path)) {
            out.push((rel.to_string_lossy().replace('\\', "/"), bytes));
        }
    }
}

/// A fixture text split on its file headers (`#- path`, `//- path`).
pub fn split_fixture(text: &str) -> Tree {
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    for line in text.split_inclusive('\n') {
        let header = line
            .strip_prefix("#- ")
            .or_else(|| line.strip_prefix("//- "))
            .map(str::trim);
        match (header, files.last_mut()) {
            (Some(path), _) if !path.is_empty() && !path.contains("..") => {
                files.push((path.to_string(), Vec::new()))
            }
            (_, Some((_, bytes))) => bytes.extend_from_slice(line.as_bytes()),
            _ => {}
        }
    }
    Tree { files }
}

/// The seed trees of a language target, each holding at least one file of its
/// extension: TSX and JavaScript take the TypeScript seeds with their `.ts` files
/// renamed, so every grammar reads every shape.
pub fn language_seeds(repo: &Path, target: &str) -> Vec<Tree> {
    let (Some(ext), Some(folder)) = (extension_of(target), source_folder(target)) else {
        return Vec::new();
    };
    let mut trees = Vec::new();
    for case in sorted_entries(&repo.join("proofs").join(folder)) {
        if case.is_dir() {
            trees.push(proof_tree(&case));
        }
    }
    for fixture in sorted_entries(&repo.join("engine/tests/fixtures").join(folder)) {
        if let Ok(text) = std::fs::read_to_string(&fixture) {
            if fixture.extension().is_some_and(|e| e == "txt") {
                trees.push(split_fixture(&text));
            }
        }
    }
    for tree in &mut trees {
        if folder == "typescript" && ext != "ts" {
            for (path, _) in &mut tree.files {
                if let Some(stem) = path.strip_suffix(".ts") {
                    *path = format!("{stem}.{ext}");
                }
            }
        }
    }
    trees.retain(|t| t.files.iter().any(|(p, _)| p.ends_with(&format!(".{ext}"))));
    trees
}

/// Every seed file of every language, to splice foreign text in.
pub fn donors(repo: &Path) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for (target, _, _) in LANGUAGE_TARGETS.iter().step_by(1) {
        for tree in language_seeds(repo, target) {
            out.extend(tree.files.into_iter().map(|(_, b)| b));
        }
    }
    out
}

/// A report of the engine and the truth of one proof case.
pub struct ReaderSeed {
    pub report: Vec<u8>,
    pub truth: Vec<u8>,
    pub language: String,
}

/// The first `per_language` proof cases of every language: the engine's report of
/// each (written in-process) beside its `expected.json`.
pub fn reader_seeds(repo: &Path, per_language: usize) -> Vec<ReaderSeed> {
    let mut out = Vec::new();
    for language in sorted_entries(&repo.join("proofs")) {
        if !language.is_dir() {
            continue;
        }
        let name = language
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        for case in sorted_entries(&language)
            .into_iter()
            .filter(|c| c.join("expected.json").is_file())
            .take(per_language)
        {
            let options = engine::Options {
                threads: 1,
                ..engine::Options::default()
            };
            let (Ok(report), Ok(truth)) = (
                engine::analyze_to_json(&case, &options),
                std::fs::read(case.join("expected.json")),
            ) else {
                continue;
            };
            out.push(ReaderSeed {
                report,
                truth,
                language: name.clone(),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fixture_splits_on_both_header_styles() {
        let tree = split_fixture("#- a.py\nx = 1\n#- b/c.py\ny()\n");
        assert_eq!(tree.files.len(), 2);
        assert_eq!(tree.files[1].0, "b/c.py");
        assert_eq!(tree.files[1].1, b"y()\n");
        let tree = split_fixture("//- go.mod\nmodule m\n//- main.go\npackage main\n");
        assert_eq!(
            tree.files[0],
            ("go.mod".to_string(), b"module m\n".to_vec())
        );
    }

    #[test]
    fn every_language_target_has_seeds() {
        let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        for (target, _, _) in LANGUAGE_TARGETS {
            assert!(language_seeds(&repo, target).len() >= 5, "{target}");
        }
    }
}
