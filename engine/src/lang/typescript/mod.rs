//! TypeScript, TSX and JavaScript (ES modules and CommonJS): one frontend for the
//! three grammars (TSX adds JSX; JavaScript writes no types), one resolver. See
//! README.md in this folder.

pub mod frontend;
pub mod jsonc;
pub mod modules;
pub mod policy;
pub mod project;
pub mod resolve;
