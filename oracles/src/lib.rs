//! Oracles: what real toolchains know about a corpus, normalized into the truth
//! format `callgraph-truth/1`, and the one door through which every subprocess runs.
//!
//! Architecture invariant: nothing in this crate or the harness starts a process
//! except through [`toolchain::Invocation`].

pub mod ali;
pub mod bytecode;
pub mod clang;
pub mod clang_ast;
pub mod cli_metadata;
pub mod gnat;
pub mod gnat_gimple;
pub mod gocallgraph;
pub mod gotypes;
pub mod input;
pub mod javac;
pub mod javac_bytecode;
pub mod javap;
pub mod jstrace;
pub mod kotlin_ir;
pub mod kotlin_source;
pub mod kotlinc;
pub mod kotlinc_bytecode;
pub mod llvm_ir;
pub mod llvm_truth;
pub mod maven;
pub mod mcs;
pub mod mcs_il;
pub mod mcs_il_source;
pub mod mcs_text;
pub mod mcs_truth;
pub mod mdb;
pub mod oracle;
pub mod pairs;
pub mod pycg;
pub mod pycg_micro;
pub mod pyenv;
pub mod pytrace;
pub mod rust_hir;
pub mod rust_types;
pub mod rustc;
pub mod rustc_dump;
pub mod rustc_thir;
pub mod scip;
pub mod scip_python;
pub mod scip_typescript;
pub mod thir;
pub mod thir_truth;
pub mod toolchain;
pub mod truth;
pub mod tsc;

pub use input::{
    describe_json_error, input_cap_from_env, read_capped, InputError, DEFAULT_INPUT_CAP,
};
pub use oracle::{oracle_named, oracle_names, Oracle, OracleOptions, DEFAULT_BUILD};
pub use toolchain::{Finished, Invocation, Outcome, Tool};
pub use truth::{
    ColumnUnit, Expect, OracleStamp, Position, Truth, TruthError, TruthPair, TruthSite,
    TruthTarget, TRUTH_SCHEMA,
};
