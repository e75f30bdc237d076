//! The name tokens of a tree's files, read from their syntax trees (the grammars the
//! engine uses), so a peer's call position can be moved to the called name's token —
//! the unit every report and truth of the project names a site by (docs/REPORT.md).
//!
//! A peer such as colby's codegraph gives the start of the call expression (`a` of
//! `a.b()`, `@` of `@d`, `new` of `new T()`); the site is the first identifier leaf
//! spelled as the called name at or after that position, within a few lines (an
//! argument list or a chain may wrap). Only identifier leaves count: a word inside
//! a string or a comment is no token of the tree.

use std::collections::BTreeMap;
use std::path::Path;

/// How many lines after the tool's position the name may sit on (a call chain or a
/// construction wrapped over lines).
const MAX_LINES_ON: u32 = 4;

/// One identifier leaf: 1-based line, 1-based byte column, its text.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Token {
    column: u32,
    text: String,
    /// The `name` field of its parent: a declaration's own name (not the
    /// `value` of a decorator `@value.setter` written before it).
    declares: bool,
}

/// The identifier tokens of one file, by line.
#[derive(Debug, Default)]
pub struct FileTokens {
    lines: BTreeMap<u32, Vec<Token>>,
}

/// The grammar of a file of a corpus of `language` (a `.h` header follows the
/// corpus: C or C++); `None` for a file no grammar here reads.
pub fn grammar(file: &str, language: &str) -> Option<tree_sitter::Language> {
    let extension = file.rsplit_once('.').map_or("", |(_, e)| e);
    Some(match extension {
        "py" | "pyi" => tree_sitter_python::LANGUAGE.into(),
        "java" => tree_sitter_java::LANGUAGE.into(),
        "go" => tree_sitter_go::LANGUAGE.into(),
        "rs" => tree_sitter_rust::LANGUAGE.into(),
        "c" => tree_sitter_c::LANGUAGE.into(),
        "h" if language == "c" => tree_sitter_c::LANGUAGE.into(),
        "h" | "cc" | "cpp" | "cxx" | "hpp" | "hh" | "hxx" => tree_sitter_cpp::LANGUAGE.into(),
        "js" | "mjs" | "cjs" | "jsx" => tree_sitter_javascript::LANGUAGE.into(),
        "ts" | "mts" | "cts" => tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
        "tsx" => tree_sitter_typescript::LANGUAGE_TSX.into(),
        "cs" => tree_sitter_c_sharp::LANGUAGE.into(),
        "kt" | "kts" => tree_sitter_kotlin_ng::LANGUAGE.into(),
        _ => return None,
    })
}

/// Whether a leaf is a name a call can be written with (not a literal, a comment
/// or punctuation).
fn is_name_leaf(node: &tree_sitter::Node<'_>) -> bool {
    if !node.is_named() {
        // `this`, `super` and keywords are anonymous in some grammars: no callee name.
        return false;
    }
    let kind = node.kind();
    ![
        "string", "comment", "literal", "number", "escape", "content", "char",
    ]
    .iter()
    .any(|k| kind.contains(k))
}

impl FileTokens {
    /// Parses `source` with `grammar` and keeps every identifier leaf.
    pub fn read(source: &[u8], grammar: &tree_sitter::Language) -> Result<FileTokens, String> {
        let mut parser = tree_sitter::Parser::new();
        parser
            .set_language(grammar)
            .map_err(|e| format!("grammar: {e}"))?;
        let tree = parser
            .parse(source, None)
            .ok_or("the parser gave no tree")?;
        let mut tokens = FileTokens::default();
        let mut cursor = tree.walk();
        // An iterative walk: depth is bounded by the tree, not by the call stack.
        loop {
            let node = cursor.node();
            if node.child_count() == 0 && is_name_leaf(&node) {
                if let Ok(text) = node.utf8_text(source) {
                    let start = node.start_position();
                    tokens
                        .lines
                        .entry(start.row as u32 + 1)
                        .or_default()
                        .push(Token {
                            column: start.column as u32 + 1,
                            text: text.to_string(),
                            declares: cursor.field_name() == Some("name"),
                        });
                }
            }
            if cursor.goto_first_child() || cursor.goto_next_sibling() {
                continue;
            }
            loop {
                if !cursor.goto_parent() {
                    return Ok(tokens);
                }
                if cursor.goto_next_sibling() {
                    break;
                }
            }
        }
    }

    /// The first token spelled `name` at or after (line, column) — 1-based, the
    /// column in bytes — within [`MAX_LINES_ON`] lines: (line, column).
    pub fn find_from(&self, line: u32, column: u32, name: &str) -> Option<(u32, u32)> {
        self.lines
            .range(line..=line.saturating_add(MAX_LINES_ON))
            .flat_map(|(l, tokens)| tokens.iter().map(move |t| (*l, t)))
            .find(|(l, t)| (*l > line || t.column >= column) && t.text == name)
            .map(|(l, t)| (l, t.column))
    }

    /// The first token spelled `name` from `line` through `last_line` (a
    /// declaration's own name inside its span: past annotations, modifiers and
    /// return types written before it).
    /// A token that is its declaration's `name` field wins over an earlier one
    /// spelled the same (a decorator, an annotation argument, a return type).
    pub fn find_within(&self, line: u32, last_line: u32, name: &str) -> Option<(u32, u32)> {
        let spelled = || {
            self.lines
                .range(line..=last_line.max(line))
                .flat_map(|(l, tokens)| tokens.iter().map(move |t| (*l, t)))
                .filter(|(_, t)| t.text == name)
        };
        spelled()
            .find(|(_, t)| t.declares)
            .or_else(|| spelled().next())
            .map(|(l, t)| (l, t.column))
    }
}

/// The tokens of the files of one tree, read once each on first use.
pub struct TreeTokens<'a> {
    root: &'a Path,
    language: &'a str,
    files: BTreeMap<String, Option<FileTokens>>,
}

impl<'a> TreeTokens<'a> {
    pub fn new(root: &'a Path, language: &'a str) -> TreeTokens<'a> {
        TreeTokens {
            root,
            language,
            files: BTreeMap::new(),
        }
    }

    /// The tokens of a root-relative file; `None` when it cannot be read or parsed.
    pub fn file(&mut self, file: &str) -> Option<&FileTokens> {
        let (root, language) = (self.root, self.language);
        self.files
            .entry(file.to_string())
            .or_insert_with(|| {
                let grammar = grammar(file, language)?;
                let source = std::fs::read(root.join(file)).ok()?;
                FileTokens::read(&source, &grammar).ok()
            })
            .as_ref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_call_position_moves_to_its_name_token_past_strings_and_comments() {
        let source = b"x = a.b(\"run\")  # run\nobj.\n    run()\n";
        let tokens = FileTokens::read(source, &grammar("m.py", "python").unwrap()).unwrap();
        // `a.b(...)` starts at column 5; `b` is at column 7.
        assert_eq!(tokens.find_from(1, 5, "b"), Some((1, 7)));
        // The word in the string and in the comment is no token: the call is on line 3.
        assert_eq!(tokens.find_from(1, 5, "run"), Some((3, 5)));
        assert_eq!(tokens.find_from(1, 5, "missing"), None);
    }

    #[test]
    fn a_declaration_name_is_found_past_its_annotations() {
        let source = b"class A {\n  @Override\n  public String toString() { return \"\"; }\n}\n";
        let tokens = FileTokens::read(source, &grammar("A.java", "java").unwrap()).unwrap();
        assert_eq!(tokens.find_within(2, 3, "toString"), Some((3, 17)));
        // A property's setter: the decorator names it first, the `def` declares it.
        let source = b"class C:\n    @value.setter\n    def value(self, v):\n        pass\n";
        let tokens = FileTokens::read(source, &grammar("c.py", "python").unwrap()).unwrap();
        assert_eq!(tokens.find_within(2, 4, "value"), Some((3, 9)));
        assert_eq!(
            grammar("a.h", "c").is_some(),
            grammar("a.h", "cpp").is_some()
        );
        assert!(grammar("a.adb", "ada").is_none());
    }
}
