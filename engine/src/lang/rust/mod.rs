//! Rust: frontend (tree → FileFacts), policy (closed lists, rule order) and the
//! rules only Rust has. See README.md in this folder.

pub mod cfg;
pub mod frontend;
pub mod policy;
pub mod resolve;
