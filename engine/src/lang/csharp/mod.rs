//! C#: the preprocessor (what the build compiles), frontend (tree → FileFacts),
//! policy (closed lists, rule order) and the rules only C# has. See README.md in
//! this folder.

pub mod eval;
pub mod frontend;
pub mod lookup;
pub mod overload;
pub mod policy;
pub mod preprocess;
pub mod resolve;
pub mod types;
