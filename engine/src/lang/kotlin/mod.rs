//! Kotlin: frontend (tree → FileFacts, on the shared core), policy (the default
//! imports, the standard library's scope functions, rule order) and the rules. See
//! README.md in this folder.

pub mod frontend;
pub mod overload;
pub mod policy;
pub mod resolve;
pub mod types;
