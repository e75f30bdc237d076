//! The harness: scores any `callgraph-report/1` against any `callgraph-truth/1`
//! (protocol/2, docs/PROTOCOL.md), measures the engine on the proofs and on pinned
//! corpora, writes the MEASUREMENTS tables, and gates CI on regressions.
//!
//! Architecture invariant: the harness reads the engine's report, never its internals;
//! it does not depend on the engine crate.
//! Architecture invariant: every subprocess goes through `oracles::toolchain`.

pub mod atomic;
pub mod caller_pairs;
pub mod charts;
pub mod cli;
pub mod commands;
pub mod corpora;
pub mod crosscheck;
pub mod engine;
pub mod error;
pub mod families;
pub mod fetch;
pub mod fetch_command;
pub mod figures;
pub mod gate;
pub mod index_html;
pub mod manifest;
pub mod measure;
pub mod merge;
pub mod misses;
pub mod model;
pub mod name_pairs;
pub mod outputs;
pub mod pairing;
pub mod peer_code2flow;
pub mod peer_codegraph;
pub mod peer_names;
pub mod peer_scip;
pub mod peer_tokens;
pub mod peers;
pub mod pipeline;
pub mod prepare;
pub mod progress;
pub mod proof_runs;
pub mod proofs;
pub mod python_rows;
pub mod report;
pub mod reproduce;
pub mod row_view;
pub mod score;
pub mod svg;
pub mod tables;
pub mod tree_view;
pub mod truth_cache;

pub use error::{Error, Result};

#[cfg(test)]
mod pair_only_tests;
#[cfg(test)]
mod testkit;
#[cfg(test)]
mod verdict_tests;
