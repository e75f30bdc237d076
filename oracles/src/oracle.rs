//! The oracle registry: one adapter per real toolchain, each turning what it knows
//! about a corpus into a [`Truth`].
//!
//! The harness records `not_implemented` for a corpus whose oracle is not listed
//! here. Adding one means a module and a line in [`oracle_named`].

use std::path::Path;
use std::time::Duration;

use crate::toolchain::Outcome;
use crate::truth::Truth;

/// What an adapter is told about the corpus it runs on.
#[derive(Debug, Clone)]
pub struct OracleOptions<'a> {
    /// The corpus id of corpora.json (the truth's `corpus`).
    pub corpus_id: &'a str,
    pub language: &'a str,
    /// The corpus entry's `oracle.options`, as written.
    pub options: &'a serde_json::Value,
    /// The corpus entry's `build` configuration, as written (`{}` or null for the
    /// default build): the engine reads the same program, so an adapter whose build
    /// takes features, defines or tags reads them from here.
    pub build: &'a serde_json::Value,
    /// A scratch directory the adapter may write to (IR files, site lists); removed
    /// after the run.
    pub work_dir: &'a Path,
    /// The cache kept between runs (`.cache/`): helper builds, resolved classpaths.
    pub cache_dir: &'a Path,
    /// The bound on each toolchain run.
    pub timeout: Duration,
}

/// The default build, for an adapter run with no corpus entry (tests, proofs).
pub const DEFAULT_BUILD: &serde_json::Value = &serde_json::Value::Null;

/// An adapter from one toolchain to the truth format.
pub trait Oracle {
    /// The name corpora.json uses (`javac`, `pycg`).
    fn name(&self) -> &'static str;
    /// The adapter's own version: a truth is cached by (corpus pin, oracle name and
    /// version, adapter version), so changing what the adapter emits bumps it.
    fn version(&self) -> &'static str;
    /// The toolchain's version string (`javac 17.0.15`), via the subprocess door.
    fn toolchain_version(&self) -> Result<String, Outcome>;
    /// Runs the toolchain on the corpus rooted at `corpus_dir` and normalizes what it
    /// reports. A missing, failing or hanging toolchain is an `Outcome`, never a truth.
    fn run(&self, corpus_dir: &Path, options: &OracleOptions<'_>) -> Result<Truth, Outcome>;
}

/// The names of every implemented oracle.
pub fn oracle_names() -> &'static [&'static str] {
    &[
        "clang",
        "clang-ast",
        "gnat",
        "gnat-gimple",
        "go-callgraph",
        "gotypes",
        "javac",
        "javac-bytecode",
        "jstrace",
        "kotlinc",
        "kotlinc-bytecode",
        "mcs",
        "mcs-il",
        "pytrace",
        "rustc",
        "rustc-ir",
        "scip-python",
        "scip-typescript",
        "tsc",
    ]
}

/// The adapter named `name`, when one is implemented.
pub fn oracle_named(name: &str) -> Option<Box<dyn Oracle>> {
    // Adding an adapter is one line here.
    match name {
        "gnat" => Some(Box::new(crate::gnat::Gnat)),
        // The code generator's reading, GNAT's second reading (`harness crosscheck`).
        "gnat-gimple" => Some(Box::new(crate::gnat_gimple::GnatGimple)),
        "gotypes" => Some(Box::new(crate::gotypes::GoTypes)),
        // The SSA call graph, go/types' second reading (`harness crosscheck`).
        "go-callgraph" => Some(Box::new(crate::gocallgraph::GoCallgraph)),
        "javac" => Some(Box::new(crate::javac::Javac)),
        // The class files through javap, javac's second reading (`harness crosscheck`).
        "javac-bytecode" => Some(Box::new(crate::javac_bytecode::JavacBytecode)),
        "kotlinc" => Some(Box::new(crate::kotlinc::Kotlinc)),
        // The class files' reading, kotlinc's second reading (`harness crosscheck`).
        "kotlinc-bytecode" => Some(Box::new(crate::kotlinc_bytecode::KotlincBytecode)),
        "pytrace" => Some(Box::new(crate::pytrace::Pytrace)),
        "jstrace" => Some(Box::new(crate::jstrace::Jstrace)),
        // The tsc oracle's second reading (`harness crosscheck`).
        "scip-python" => Some(Box::new(crate::scip_python::ScipPython)),
        "scip-typescript" => Some(Box::new(crate::scip_typescript::ScipTypescript)),
        "tsc" => Some(Box::new(crate::tsc::Tsc)),
        "rustc" => Some(Box::new(crate::rustc_thir::RustcThir)),
        // The LLVM IR reading, rustc's second reading (`harness crosscheck`).
        "rustc-ir" => Some(Box::new(crate::rustc::Rustc)),
        "clang" => Some(Box::new(crate::clang::Clang)),
        "clang-ast" => Some(Box::new(crate::clang_ast::ClangAst)),
        "mcs" => Some(Box::new(crate::mcs::Mcs)),
        // The assemblies' own reading, mcs's second reading (`harness crosscheck`).
        "mcs-il" => Some(Box::new(crate::mcs_il::McsIl)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_oracle_is_constructible_and_named_as_listed() {
        for name in oracle_names() {
            let oracle = oracle_named(name).expect("listed oracles exist");
            assert_eq!(oracle.name(), *name);
        }
        assert!(oracle_named("javac-not-yet").is_none());
    }
}
