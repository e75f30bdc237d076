//! The call-graph engine: discover → parse + extract (parallel) → FileFacts →
//! TreeIndex → resolve (ordered rules, one funnel) → overload pass → Report.
//! See docs/ARCHITECTURE.md.

pub mod config;
pub mod discover;
pub mod error;
pub mod explain;
pub mod facts;
pub mod fasthash;
pub mod index;
pub mod lang;
pub mod limits;
pub mod output;
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
    /// What the build compiles (DESIGN §3); the default build by default.
    pub config: config::Configuration,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            languages: Language::ALL.to_vec(),
            limits: Limits::default(),
            threads: 0,
            config: config::Configuration::default(),
        }
    }
}

/// Everything the stages produced, for the report and for `explain`.
pub struct Analysis {
    pub facts: Vec<facts::FileFacts>,
    /// Each file's sha256 and size, in the order of `facts`.
    pub file_meta: Vec<(String, u64)>,
    /// The build files read (their bytes went to the frontends).
    pub build_files: Vec<BuildFileMeta>,
    pub skipped: Vec<discover::Skipped>,
}

/// A build file as the report lists it.
pub struct BuildFileMeta {
    pub path: String,
    pub language: Language,
    pub sha256: String,
    pub bytes: u64,
}

/// Discover, read and extract facts from every file (the syntax trees are gone
/// when this returns).
pub fn extract(root: &Path, options: &Options) -> Result<Analysis, EngineError> {
    let found = discover::discover(root, &options.languages, &options.limits)?;
    let tree_wide = lang::TreeWide::collect(
        &found.files,
        &found.build_files,
        &options.config,
        &parse::Budget::of(&options.limits),
    );
    let mut facts = parse::extract_all(&found.files, &tree_wide, &options.limits);
    let mut file_meta: Vec<(String, u64)> = found
        .files
        .iter()
        .map(|f| (f.sha256.clone(), f.bytes.len() as u64))
        .collect();
    let mut skipped = found.skipped;
    lang::typescript::project::apply(&mut facts, &tree_wide);
    drop_left_out(&mut facts, &mut file_meta, &mut skipped);
    lang::python::frontend::assign_module_names(&mut facts);
    lang::python::stubs::pair_stubs(&mut facts);
    lang::go::frontend::assign_package_paths(&mut facts, &tree_wide);
    lang::rust::frontend::assign_module_paths(&mut facts, &tree_wide);
    lang::c::frontend::resolve_includes(&mut facts);
    let build_files = found
        .build_files
        .iter()
        .map(|b| BuildFileMeta {
            path: b.path.clone(),
            language: b.language,
            sha256: b.sha256.clone(),
            bytes: b.bytes.len() as u64,
        })
        .collect();
    Ok(Analysis {
        facts,
        file_meta,
        build_files,
        skipped,
    })
}

/// Why a parsed file is left out of the program, if it is: the build configuration
/// leaves it out (`build_excluded`: its declarations never compete with the ones
/// built), or its parse ran past the budget (`parse_budget`).
fn left_out(f: &facts::FileFacts) -> Option<discover::SkipReason> {
    if f.over_parse_budget {
        Some(discover::SkipReason::ParseBudget)
    } else if f.build_excluded {
        Some(discover::SkipReason::BuildExcluded)
    } else {
        None
    }
}

/// Files left out after parsing become skipped files.
fn drop_left_out(
    facts: &mut Vec<facts::FileFacts>,
    file_meta: &mut Vec<(String, u64)>,
    skipped: &mut Vec<discover::Skipped>,
) {
    if !facts.iter().any(|f| left_out(f).is_some()) {
        return;
    }
    let mut kept_facts = Vec::with_capacity(facts.len());
    let mut kept_meta = Vec::with_capacity(facts.len());
    for (f, meta) in facts.drain(..).zip(file_meta.drain(..)) {
        if let Some(reason) = left_out(&f) {
            skipped.push(discover::Skipped {
                path: f.path,
                reason,
            });
        } else {
            kept_facts.push(f);
            kept_meta.push(meta);
        }
    }
    *facts = kept_facts;
    *file_meta = kept_meta;
    skipped.sort();
}

/// Analyse a tree and build its report.
pub fn analyze(root: &Path, options: &Options) -> Result<report::Report, EngineError> {
    with_pool(options.threads, || {
        let mut clock = StageClock::from_env();
        let analysis = extract(root, options)?;
        clock.lap("discover+parse+extract");
        refuse_a_report_past_its_bound(&analysis, &options.limits)?;
        let index = index::TreeIndex::build(&analysis.facts);
        clock.lap("index");
        let hierarchy = resolve::Hierarchy::build(&index);
        clock.lap("hierarchy");
        let resolved = resolve::resolve_all(&index, &hierarchy);
        clock.lap("resolve");
        let report = report::build(&index, &analysis, &options.config, &resolved);
        clock.lap("report");
        Ok(report)
    })
}

/// Analyse a tree and write its report as JSON, refusing one larger than the
/// report bound (`workload_too_large`, D13).
pub fn analyze_to_json(root: &Path, options: &Options) -> Result<Vec<u8>, EngineError> {
    let report = analyze(root, options)?;
    let bound = options.limits.report_bound(report.input_bytes());
    report::to_json_within(&report, bound)
}

/// The fewest bytes one entity or call takes in the report (the shortest pretty
/// JSON object of either is longer): enough to refuse a tree whose report must be
/// past its bound before resolving it, so memory stays bounded too.
const FEWEST_REPORT_BYTES_PER_ITEM: u64 = 128;

fn refuse_a_report_past_its_bound(analysis: &Analysis, limits: &Limits) -> Result<(), EngineError> {
    let items: u64 = analysis
        .facts
        .iter()
        .map(|f| (f.calls.len() + f.decls.len()) as u64)
        .sum();
    let input = analysis.input_bytes();
    let least = items.saturating_mul(FEWEST_REPORT_BYTES_PER_ITEM);
    let bound = limits.report_bound(input);
    if least > bound {
        return Err(EngineError::WorkloadTooLarge {
            what: "report bytes (at least)",
            actual: least,
            limit: bound,
        });
    }
    Ok(())
}

impl Analysis {
    /// The bytes of every file read: sources analysed and build files.
    pub fn input_bytes(&self) -> u64 {
        let sources: u64 = self.file_meta.iter().map(|(_, b)| b).sum();
        let build: u64 = self.build_files.iter().map(|b| b.bytes).sum();
        sources + build
    }
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
