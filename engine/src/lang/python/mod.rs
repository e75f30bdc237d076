//! Python: frontend (tree → FileFacts), policy (closed lists, rule order), the
//! evaluator of what names hold, the rules only Python has, and how a type stub
//! (`.pyi`) serves the module beside it. See README.md.

pub mod eval;
pub mod frontend;
pub mod guards;
pub mod policy;
pub mod resolve;
pub mod stubs;
pub mod types;
