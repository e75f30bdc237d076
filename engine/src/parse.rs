//! Parse + extract, in parallel, one tree-sitter parse per file. The frontend turns
//! the tree into FileFacts while it is alive; the tree is dropped right after.

use rayon::prelude::*;

use crate::discover::SourceFile;
use crate::facts::FileFacts;
use crate::lang::{Language, TreeWide};
use crate::limits::Limits;

/// `tree_wide` is what a frontend needs from the whole tree (the configuration,
/// the build files, C/C++ macros), read once before any file is parsed.
pub fn extract_all(files: &[SourceFile], tree_wide: &TreeWide, limits: &Limits) -> Vec<FileFacts> {
    files
        .par_iter()
        .map_init(tree_sitter::Parser::new, |parser, f| {
            extract_one(parser, f, tree_wide, limits)
        })
        .collect()
}

fn extract_one(
    parser: &mut tree_sitter::Parser,
    file: &SourceFile,
    tree_wide: &TreeWide,
    _limits: &Limits,
) -> FileFacts {
    // C/C++: the bytes with the branches the build leaves out blanked and
    // visibility macros masked (same length, same positions).
    let prepared = file.language.prepare(&file.path, &file.bytes, tree_wide);
    let bytes = prepared.as_deref().unwrap_or(&file.bytes);
    let tree = parse_only(parser, file.language, bytes);
    let mut facts = match tree {
        Some(tree) => file
            .language
            .extract_with(&file.path, bytes, &tree, tree_wide),
        None => empty_facts(&file.path, file.language),
    };
    facts.finish();
    facts
}

/// One parse, nothing else (the benchmark's baseline).
pub fn parse_only(
    parser: &mut tree_sitter::Parser,
    language: Language,
    bytes: &[u8],
) -> Option<tree_sitter::Tree> {
    parser.set_language(&language.tree_sitter_language()).ok()?;
    parser.parse(bytes, None)
}

/// The facts of a file the parser gave up on: no declarations, one parse error.
fn empty_facts(path: &str, language: Language) -> FileFacts {
    FileFacts {
        parse_errors: 1,
        ..FileFacts::new(path, language)
    }
}
