//! Go: frontend (tree → FileFacts), policy (closed lists, rule order) and the
//! rules only Go has. See README.md in this folder.

pub mod build;
pub mod frontend;
pub mod policy;
pub mod resolve;
