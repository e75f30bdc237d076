//! The command line: one struct per subcommand; the `///` comments are the help.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::measure::Shard;

/// Scores call-graph reports against compiler truths, and gates on regressions.
///
/// Exit codes: 0 ok, 1 the answer is no (a gate or proof failed), 2 wrong
/// invocation or bad input file, 3 could not answer (a tool missing or failing).
#[derive(Debug, Parser)]
#[command(name = "harness", version)]
pub struct Cli {
    /// Refuse input files larger than this many bytes (default: $HARNESS_MAX_INPUT_BYTES, else 256 MiB).
    #[arg(long, global = true, value_name = "BYTES")]
    pub max_input_bytes: Option<u64>,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Measure the engine: every proof language by default, or named corpora; writes the reports directory.
    Measure(MeasureArgs),
    /// Score one report against one truth and print the figures.
    Score(ScoreArgs),
    /// Build and run every proof with its real toolchain, then judge the engine on it.
    Proofs(ProofsArgs),
    /// Compare measurements with a baseline; exit 1 on a regression.
    Gate(GateArgs),
    /// Re-measure one published row from its pins and print what differs.
    Reproduce(ReproduceArgs),
    /// Combine the measurements.json of several shards into one set of tables.
    Merge(MergeArgs),
    /// Group every declined, missed, overload-unnamed and wrong site by shape, with counts per corpus and examples.
    Misses(MissesArgs),
    /// Download corpora with their registries' clients, verify their sha256 and unpack them into the cache.
    Fetch(crate::fetch_command::FetchArgs),
    /// Compare a corpus's truth with a second reading of the same build; print the agreement and every disagreement.
    Crosscheck(crate::crosscheck::CrosscheckArgs),
}

impl Command {
    /// The subcommand's name, for error context.
    pub fn name(&self) -> &'static str {
        match self {
            Command::Measure(_) => "measure",
            Command::Score(_) => "score",
            Command::Proofs(_) => "proofs",
            Command::Gate(_) => "gate",
            Command::Reproduce(_) => "reproduce",
            Command::Merge(_) => "merge",
            Command::Misses(_) => "misses",
            Command::Fetch(_) => "fetch",
            Command::Crosscheck(_) => "crosscheck",
        }
    }
}

/// How to find and bound the engine.
#[derive(Debug, Clone, Args)]
pub struct EngineArgs {
    /// The `callgraph` binary (default: $CALLGRAPH_BIN, else `callgraph` next to this harness).
    #[arg(long, value_name = "PATH")]
    pub engine: Option<PathBuf>,
    /// Kill one engine analysis after this many seconds.
    #[arg(long, value_name = "SECS", default_value_t = 600)]
    pub engine_timeout: u64,
}

/// Where the corpora come from.
#[derive(Debug, Clone, Args)]
pub struct SourceArgs {
    /// The proofs directory (one subdirectory per language).
    #[arg(long, value_name = "DIR", default_value = "proofs")]
    pub proofs: PathBuf,
    /// The corpora list (schema corpora/1); a private file may be named here.
    #[arg(long, value_name = "PATH")]
    pub corpora: Option<PathBuf>,
    /// Where fetched corpora are cached.
    #[arg(long, value_name = "DIR", default_value = ".cache")]
    pub cache: PathBuf,
    /// Kill one oracle or fetch step after this many seconds.
    #[arg(long, value_name = "SECS", default_value_t = 3600)]
    pub tool_timeout: u64,
}

#[derive(Debug, Args)]
pub struct MeasureArgs {
    #[command(flatten)]
    pub engine: EngineArgs,
    #[command(flatten)]
    pub sources: SourceArgs,
    /// Measure this corpus (a corpora.json id, or `proofs-<language>`); repeatable.
    #[arg(long = "corpus", value_name = "ID", conflicts_with = "all")]
    pub corpora_ids: Vec<String>,
    /// Measure every proof language and every corpus of corpora.json.
    #[arg(long)]
    pub all: bool,
    /// Measure only the K-th of N slices of the sorted corpus list (a CI matrix).
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,
    /// The reports directory to write.
    #[arg(long, value_name = "DIR", default_value = "reports")]
    pub out: PathBuf,
    /// Also run the peer tools corpora.json lists (installed into the cache), timed
    /// beside the engine in the same run (the Peers tables).
    #[arg(long)]
    pub peers: bool,
}

#[derive(Debug, Args)]
pub struct ScoreArgs {
    /// The engine's report (callgraph-report/1).
    #[arg(long, value_name = "FILE")]
    pub report: PathBuf,
    /// The truth (callgraph-truth/1).
    #[arg(long, value_name = "FILE")]
    pub truth: PathBuf,
    /// Read every other family's answers as declined.
    #[arg(long, value_name = "FAMILY")]
    pub only: Option<String>,
    /// Also print the pair figures (kept apart from the site figures).
    #[arg(long)]
    pub pairs: bool,
    /// The corpus language (Ada sites pair without case).
    #[arg(long, value_name = "LANGUAGE", default_value = "")]
    pub language: String,
    /// Also write the scored row, with every site's verdict, as JSON.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct ProofsArgs {
    #[command(flatten)]
    pub engine: EngineArgs,
    /// The proofs directory (one subdirectory per language).
    #[arg(long, value_name = "DIR", default_value = "proofs")]
    pub proofs: PathBuf,
    /// Only this language; repeatable.
    #[arg(long, value_name = "LANGUAGE")]
    pub language: Vec<String>,
    /// Kill a build or a run after this many seconds.
    #[arg(long, value_name = "SECS", default_value_t = 60)]
    pub timeout: u64,
    /// Only build and run the programs; do not judge the engine.
    #[arg(long)]
    pub no_engine: bool,
}

#[derive(Debug, Args)]
pub struct GateArgs {
    #[command(flatten)]
    pub engine: EngineArgs,
    #[command(flatten)]
    pub sources: SourceArgs,
    /// The measurements to compare against.
    #[arg(long, value_name = "FILE")]
    pub baseline: PathBuf,
    /// Current measurements (default: measure the baseline's rows now).
    #[arg(long, value_name = "FILE")]
    pub current: Option<PathBuf>,
    /// How far precision may fall before it is a regression (0.001 = 0.1 point).
    #[arg(long, value_name = "RATIO", default_value_t = crate::gate::DEFAULT_TOLERANCE)]
    pub tolerance: f64,
}

#[derive(Debug, Args)]
pub struct ReproduceArgs {
    #[command(flatten)]
    pub engine: EngineArgs,
    #[command(flatten)]
    pub sources: SourceArgs,
    /// The row id (`proofs-python`, a corpus id).
    pub row: String,
    /// The published measurements.
    #[arg(long, value_name = "FILE", default_value = "reports/measurements.json")]
    pub measurements: PathBuf,
}

#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The measurements.json files of the shards.
    #[arg(required = true, value_name = "FILE")]
    pub inputs: Vec<PathBuf>,
    /// The reports directory to write.
    #[arg(long, value_name = "DIR", default_value = "reports")]
    pub out: PathBuf,
}

#[derive(Debug, Args)]
pub struct MissesArgs {
    #[command(flatten)]
    pub engine: EngineArgs,
    #[command(flatten)]
    pub sources: SourceArgs,
    /// Read this corpus (a corpora.json id, or `proofs-<language>`); repeatable.
    /// Without `--corpus` or `--all`: every proof language.
    #[arg(long = "corpus", value_name = "ID", conflicts_with = "all")]
    pub corpora_ids: Vec<String>,
    /// Read every proof language and every corpus of corpora.json.
    #[arg(long)]
    pub all: bool,
    /// Only the corpora of this language (`tsx` corpora are read as `typescript`).
    #[arg(long, value_name = "LANGUAGE")]
    pub language: Option<String>,
    /// Print JSON (schema misses/1) instead of markdown.
    #[arg(long)]
    pub json: bool,
    /// Show this many examples of each shape (every site of the shape when it
    /// has no more).
    #[arg(long, value_name = "N", default_value_t = crate::misses::EXAMPLES_PER_SHAPE)]
    pub examples: usize,
}
