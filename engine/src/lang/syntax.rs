//! Positions and children of tree-sitter nodes, as the frontends read them.

use tree_sitter::Node;

/// The 1-based line a node starts on.
pub(crate) fn line_of(node: Node) -> u32 {
    node.start_position().row as u32 + 1
}

/// The 1-based byte column a node starts at.
pub(crate) fn column_of(node: Node) -> u32 {
    node.start_position().column as u32 + 1
}

/// A node's named children, collected first (the cursor is not kept).
pub(crate) fn named_children(node: Node) -> impl Iterator<Item = Node> {
    let mut cursor = node.walk();
    let kids: Vec<Node> = node.named_children(&mut cursor).collect();
    kids.into_iter()
}

/// A node's children, named or not, collected first.
pub(crate) fn children(node: Node) -> impl Iterator<Item = Node> {
    let mut cursor = node.walk();
    let kids: Vec<Node> = node.children(&mut cursor).collect();
    kids.into_iter()
}

/// The parse errors a frontend counts while it walks the tree: error and missing
/// nodes, and one for the walk's depth bound, however many subtrees it cuts.
#[derive(Default)]
pub(crate) struct ErrorCount {
    count: u32,
    /// Whether some subtree was cut at the depth bound.
    cut: bool,
}

impl ErrorCount {
    /// Whether the walk must stop at `depth` (past `max`): the subtree is cut, not
    /// walked, so deep nesting cannot overflow the stack.
    pub(crate) fn too_deep(&mut self, depth: u32, max: u32) -> bool {
        if depth <= max {
            return false;
        }
        if !self.cut {
            self.cut = true;
            self.count += 1;
        }
        true
    }

    /// An error or missing node counts one.
    pub(crate) fn note(&mut self, node: Node) {
        if node.is_error() || node.is_missing() {
            self.count += 1;
        }
    }

    /// The file's figure: what the walk counted, and at least one when the tree
    /// has an error node the bounded walk did not reach.
    pub(crate) fn total(&self, tree: &tree_sitter::Tree) -> u32 {
        if self.count == 0 && tree.root_node().has_error() {
            return 1;
        }
        self.count
    }
}

/// The last `max` bytes of `text`, the cut moved forward to a character boundary:
/// a long callee as written keeps its end, where the called name is.
pub(crate) fn tail_of(text: &str, max: usize) -> &str {
    let mut start = text.len().saturating_sub(max);
    while !text.is_char_boundary(start) {
        start += 1;
    }
    &text[start..]
}

/// The first `max` bytes of `text`, the cut moved back to a character boundary.
pub(crate) fn head_of(text: &str, max: usize) -> &str {
    if text.len() <= max {
        return text;
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuts_stay_on_character_boundaries() {
        assert_eq!(tail_of("abc", 5), "abc");
        assert_eq!(tail_of("abcdef", 3), "def");
        // "é" is two bytes: a cut inside it moves past it.
        assert_eq!(tail_of("aébc", 3), "bc");
        assert_eq!(head_of("abc", 5), "abc");
        assert_eq!(head_of("abcdef", 3), "abc");
        assert_eq!(head_of("abéc", 3), "ab");
    }
}
