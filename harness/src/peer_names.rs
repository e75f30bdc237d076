//! Where a dotted Python name (`pkg.mod.Class.method`, the names JARVIS and PyCG
//! write) is declared in the analysed tree: read from the syntax tree of every file
//! (tree-sitter-python, the grammar the engine uses), never from the truth. A module's
//! name is its path under the tool's package root (`a/b.py` → `a.b`, `a/__init__.py`
//! → `a`); a class or function inside another is named under it, as those tools do.

use std::collections::BTreeMap;
use std::path::Path;

use crate::report::Entity;

/// Nesting deeper than this is not indexed (a bound on the walk, never reached by
/// real code).
const MAX_DEPTH: usize = 64;

/// A declaration of the tree by its dotted name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Declared {
    pub id: u64,
    pub file: String,
    /// The line of the name token.
    pub line: u32,
    pub kind: &'static str,
}

#[derive(Debug, Default)]
pub struct DottedIndex {
    declarations: BTreeMap<String, Declared>,
    modules: BTreeMap<String, String>,
}

impl DottedIndex {
    /// Reads every file (root-relative) of the tree.
    pub fn of_tree(root: &Path, files: &[String]) -> Result<DottedIndex, String> {
        let mut index = DottedIndex::default();
        for file in files {
            let source = std::fs::read(root.join(file)).map_err(|e| format!("{file}: {e}"))?;
            index.add_file(file, &source)?;
        }
        Ok(index)
    }

    /// Indexes one file's module and declarations.
    pub fn add_file(&mut self, file: &str, source: &[u8]) -> Result<(), String> {
        let Some(module) = module_name(file) else {
            return Ok(());
        };
        let mut parser = tree_sitter::Parser::new();
        parser
            .set_language(&tree_sitter_python::LANGUAGE.into())
            .map_err(|e| format!("the Python grammar: {e}"))?;
        let tree = parser
            .parse(source, None)
            .ok_or_else(|| format!("{file}: not parsed"))?;
        self.modules.insert(module.clone(), file.to_string());
        self.walk(tree.root_node(), &module, file, source, 0);
        Ok(())
    }

    fn walk(
        &mut self,
        node: tree_sitter::Node<'_>,
        scope: &str,
        file: &str,
        source: &[u8],
        depth: usize,
    ) {
        if depth > MAX_DEPTH {
            return;
        }
        let mut cursor = node.walk();
        for child in node.named_children(&mut cursor) {
            let kind = match child.kind() {
                "class_definition" => "class",
                "function_definition" => "function",
                _ => {
                    // Declarations under `if`, `try`, decorators and blocks keep the scope.
                    self.walk(child, scope, file, source, depth + 1);
                    continue;
                }
            };
            let Some(name) = child.child_by_field_name("name") else {
                continue;
            };
            let Ok(name_text) = name.utf8_text(source) else {
                continue;
            };
            let dotted = format!("{scope}.{name_text}");
            let id = self.declarations.len() as u64 + 1;
            self.declarations.entry(dotted.clone()).or_insert(Declared {
                id,
                file: file.to_string(),
                line: name.start_position().row as u32 + 1,
                kind,
            });
            if let Some(body) = child.child_by_field_name("body") {
                self.walk(body, &dotted, file, source, depth + 1);
            }
        }
    }

    pub fn declaration(&self, dotted: &str) -> Option<&Declared> {
        self.declarations.get(dotted)
    }

    /// The file of a module of the tree.
    pub fn module_file(&self, dotted: &str) -> Option<&str> {
        self.modules.get(dotted).map(String::as_str)
    }

    /// Every declaration as a report entity (the first of a redefined name).
    pub fn entities(&self) -> Vec<Entity> {
        let mut entities: Vec<Entity> = self
            .declarations
            .iter()
            .map(|(dotted, d)| Entity {
                id: d.id,
                qualified_name: dotted.clone(),
                kind: d.kind.into(),
                file: d.file.clone(),
                line: d.line,
                column: None,
                end_line: None,
                inactive: false,
            })
            .collect();
        entities.sort_by_key(|e| e.id);
        entities
    }
}

/// `a/b.py` → `a.b`; `a/__init__.py` → `a`; anything not a `.py` file: none.
pub fn module_name(file: &str) -> Option<String> {
    let stem = file.strip_suffix(".py")?;
    let stem = stem.strip_suffix("/__init__").unwrap_or(stem);
    Some(stem.replace('/', "."))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dotted_names_follow_the_nesting_and_name_lines() {
        let mut index = DottedIndex::default();
        let source = b"import x\n\nclass C:\n    @property\n    def m(self):\n        def inner():\n            pass\n\nif x:\n    def f():\n        pass\n";
        index.add_file("pkg/mod.py", source).unwrap();
        index.add_file("pkg/__init__.py", b"").unwrap();
        let line = |name: &str| index.declaration(name).map(|d| d.line);
        assert_eq!(line("pkg.mod.C"), Some(3));
        assert_eq!(line("pkg.mod.C.m"), Some(5));
        assert_eq!(line("pkg.mod.C.m.inner"), Some(6));
        assert_eq!(line("pkg.mod.f"), Some(10));
        assert_eq!(index.module_file("pkg"), Some("pkg/__init__.py"));
        assert_eq!(index.module_file("pkg.mod"), Some("pkg/mod.py"));
        assert_eq!(module_name("a/b.txt"), None);
    }
}
