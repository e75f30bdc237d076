//! C++: its policy (closed lists, rule order) and the rules only C++ has. The
//! frontend and the macro masking pass are C's (`lang/c/frontend.rs`,
//! `lang/c/macros.rs`), read with the C++ grammar. See README.md.

pub mod policy;
pub mod resolve;
