//! Java frontend: one syntax tree → FileFacts.

use crate::facts::{FileFacts, Scope, ScopeKind};
use crate::lang::Language;

pub fn extract(path: &str, _source: &[u8], tree: &tree_sitter::Tree) -> FileFacts {
    FileFacts {
        path: path.to_string(),
        language: Language::Java,
        module: Vec::new(),
        is_package_init: false,
        parse_errors: u32::from(tree.root_node().has_error()),
        decls: Vec::new(),
        scopes: vec![Scope::new(ScopeKind::Module, None, None)],
        imports: Vec::new(),
        calls: Vec::new(),
        refs: Vec::new(),
        all_names: None,
    }
}
