//! Ada: frontend (facts from tree-sitter-ada), the tree-wide subprogram names, and
//! the resolver. See README.md.

pub mod frontend;
pub mod names;
pub mod policy;
pub mod resolve;
