//! The subprogram names the whole tree declares, read before any file's facts: an
//! Ada call to a parameterless function is written as a bare name (`C : Circle :=
//! Unit;`), so a name in an expression is a call site only when some subprogram of
//! the tree is called so. Each Ada file is parsed once more for it, within the
//! parse budget (Ada files parse fast: ncurses' 152 in a fraction of a second).

use std::collections::HashSet;

use rayon::prelude::*;

use tree_sitter::Node;

use crate::lang::syntax::named_children;

/// Lower-cased names of the tree's subprograms (declarations, bodies, renamings,
/// instances, entries).
#[derive(Debug, Default, Clone)]
pub struct SubprogramNames {
    names: HashSet<String>,
}

/// How deep the name walk goes (the frontend's bound).
const MAX_DEPTH: u32 = super::frontend::MAX_DEPTH;

impl SubprogramNames {
    /// Each file is parsed within the same budget as its own parse (parse.rs): a
    /// file past it gives no names here, and its own parse is past it too, so the
    /// file is `parse_budget` (a fuzz finding: 256 KB of garbled Ada took the
    /// unbounded pre-pass 9 s beside a 9 s main parse).
    pub fn collect<'a>(
        sources: impl Iterator<Item = &'a [u8]>,
        budget: &crate::parse::Budget,
    ) -> SubprogramNames {
        // One file's names per parse, on the worker threads like the main parse;
        // the union is a set, so the order files finish in does not show.
        let sources: Vec<&[u8]> = sources.collect();
        let per_file: Vec<SubprogramNames> = sources
            .par_iter()
            .map(|&source| {
                let mut names = SubprogramNames::default();
                if let crate::parse::Parsed::Tree(tree) =
                    crate::parse::parse_guarded(crate::lang::Language::Ada, source, budget)
                {
                    names.add_tree(source, tree.root_node());
                }
                names
            })
            .collect();
        let mut out = SubprogramNames::default();
        for names in per_file {
            out.names.extend(names.names);
        }
        out
    }

    pub fn contains(&self, name: &str) -> bool {
        self.names.contains(name)
    }

    /// Iterative: a stack of (node, depth), the bound cutting deeper subtrees.
    fn add_tree(&mut self, source: &[u8], root: Node) {
        let mut stack = vec![(root, 0u32)];
        while let Some((node, depth)) = stack.pop() {
            if depth > MAX_DEPTH {
                continue;
            }
            match node.kind() {
                "procedure_specification" | "function_specification" => {
                    self.add_name(source, node.child_by_field_name("name"));
                }
                "entry_declaration" => {
                    self.add_name(
                        source,
                        named_children(node).find(|c| c.kind() == "identifier"),
                    );
                }
                "generic_instantiation" => {
                    let package = crate::lang::syntax::children(node)
                        .any(|c| !c.is_named() && c.kind().eq_ignore_ascii_case("package"));
                    if !package {
                        self.add_name(source, node.child_by_field_name("name"));
                    }
                }
                _ => {}
            }
            for child in named_children(node) {
                stack.push((child, depth + 1));
            }
        }
    }

    fn add_name(&mut self, source: &[u8], name: Option<Node>) {
        let Some(name) = name else { return };
        let token = match name.kind() {
            "selected_component" => name.child_by_field_name("selector_name").unwrap_or(name),
            _ => name,
        };
        // An operator's designator keeps its quotes (`"&"`), as its declaration's
        // name does.
        if matches!(token.kind(), "identifier" | "string_literal") {
            self.names
                .insert(crate::lang::node_text(source, token).to_ascii_lowercase());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::Budget;
    use std::time::Duration;

    const UNIT: &[u8] =
        b"package P is\n   procedure Go;\n   function Unit return Integer;\n   function \"&\" (L, R : Integer) return Integer;\nend P;\n";

    #[test]
    fn the_names_of_a_file_within_its_budget_are_read() {
        let budget = Budget {
            time: Duration::from_secs(10),
            max_nodes: 1_000_000,
        };
        let names = SubprogramNames::collect([UNIT].into_iter(), &budget);
        assert!(names.contains("go") && names.contains("unit") && names.contains("\"&\""));
    }

    #[test]
    fn a_file_past_the_parse_budget_gives_no_names() {
        let budget = Budget {
            time: Duration::from_secs(10),
            max_nodes: 3,
        };
        let names = SubprogramNames::collect([UNIT].into_iter(), &budget);
        assert!(!names.contains("go") && !names.contains("unit"));
    }
}
