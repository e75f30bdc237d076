//! The call-graph engine: discover → parse + extract (parallel) → FileFacts →
//! TreeIndex → resolve (ordered rules, one funnel) → overload pass → Report.
//! See docs/ARCHITECTURE.md.

pub mod discover;
pub mod error;
pub mod explain;
pub mod facts;
pub mod fasthash;
pub mod index;
pub mod lang;
pub mod limits;
pub mod parse;
pub mod report;
pub mod resolve;

use std::path::Path;

use error::EngineError;
use lang::Language;
use limits::Limits;

/// What a run is asked to do.
#[derive(Debug, Clone)]
pub struct Options {
    pub languages: Vec<Language>,
    pub limits: Limits,
    /// Worker threads; 0 = one per core. The output does not depend on it.
    pub threads: usize,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            languages: Language::ALL.to_vec(),
            limits: Limits::from_env(),
            threads: 0,
        }
    }
}

/// Everything the stages produced, for the report and for `explain`.
pub struct Analysis {
    pub facts: Vec<facts::FileFacts>,
    pub file_meta: Vec<(String, u64)>,
    pub skipped: Vec<discover::Skipped>,
}

/// Discover, read and extract facts from every file (the syntax trees are gone
/// when this returns).
pub fn extract(root: &Path, options: &Options) -> Result<Analysis, EngineError> {
    let found = discover::discover(root, &options.languages, &options.limits)?;
    let file_meta: Vec<(String, u64)> = found
        .files
        .iter()
        .map(|f| (f.sha256.clone(), f.bytes.len() as u64))
        .collect();
    let mut facts = parse::extract_all(&found.files, &options.limits);
    lang::python::frontend::assign_module_names(&mut facts);
    lang::go::frontend::assign_package_paths(&mut facts, root);
    lang::rust::frontend::assign_module_paths(&mut facts, root);
    lang::c::frontend::resolve_includes(&mut facts);
    Ok(Analysis {
        facts,
        file_meta,
        skipped: found.skipped,
    })
}

/// Analyse a tree and build its report.
pub fn analyze(root: &Path, options: &Options) -> Result<report::Report, EngineError> {
    with_pool(options.threads, || {
        let mut clock = StageClock::from_env();
        let analysis = extract(root, options)?;
        clock.lap("discover+parse+extract");
        let index = index::TreeIndex::build(&analysis.facts);
        clock.lap("index");
        let hierarchy = resolve::Hierarchy::build(&index);
        clock.lap("hierarchy");
        let resolved = resolve::resolve_all(&index, &hierarchy);
        clock.lap("resolve");
        let report = report::build(&index, &analysis.file_meta, &analysis.skipped, &resolved);
        clock.lap("report");
        Ok(report)
    })
}

/// Run `f` on a pool with `threads` workers and stacks deep enough for the
/// frontends' bounded recursion.
pub fn with_pool<T: Send>(threads: usize, f: impl FnOnce() -> T + Send) -> T {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .stack_size(64 * 1024 * 1024)
        .build()
        .expect("thread pool");
    pool.install(f)
}

/// Stage timings on standard error when `CALLGRAPH_TIMINGS` is set (for
/// reports/PERFORMANCE.md); silent otherwise.
struct StageClock {
    last: Option<std::time::Instant>,
}

impl StageClock {
    fn from_env() -> StageClock {
        StageClock {
            last: std::env::var_os("CALLGRAPH_TIMINGS").map(|_| std::time::Instant::now()),
        }
    }

    fn lap(&mut self, stage: &str) {
        if let Some(last) = self.last {
            eprintln!("timing {stage}: {:.3} s", last.elapsed().as_secs_f64());
            self.last = Some(std::time::Instant::now());
        }
    }
}
