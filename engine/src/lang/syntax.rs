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
