//! Python: frontend (tree → FileFacts), policy (closed lists, rule order), the
//! evaluator of what names hold, and the rules only Python has. See README.md.

pub mod eval;
pub mod frontend;
pub mod policy;
pub mod resolve;
pub mod types;
