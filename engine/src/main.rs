//! `callgraph`: analyse a tree, explain one call site, list languages.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use engine::error::EngineError;
use engine::lang::Language;
use engine::Options;

/// A static call-graph engine: every declaration, every call site, what each call
/// reaches, and which rule placed it.
#[derive(Parser)]
#[command(name = "callgraph", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Analyse ROOT and write a `callgraph-report/1` document.
    Analyze(AnalyzeArgs),
    /// Print every rule one call site went through and what each said.
    Explain(ExplainArgs),
    /// List the languages, their extensions and the families each uses.
    Languages,
}

#[derive(clap::Args)]
struct Common {
    /// Only these languages (repeatable); all by default.
    #[arg(long = "language")]
    languages: Vec<String>,
    /// Worker threads (0 = one per core); the output does not depend on it.
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Skip files larger than this many bytes (default 2 MiB; env CALLGRAPH_MAX_FILE_BYTES).
    #[arg(long)]
    max_file_bytes: Option<u64>,
    /// Refuse trees larger than this many bytes (default 512 MiB; env CALLGRAPH_MAX_TOTAL_BYTES).
    #[arg(long)]
    max_total_bytes: Option<u64>,
    /// Refuse trees with more files than this (default 50 000; env CALLGRAPH_MAX_FILES).
    #[arg(long)]
    max_files: Option<u64>,
    /// Per-file parse budget in milliseconds; a file over it is skipped as
    /// `parse_budget` (default 10 000; env CALLGRAPH_PARSE_TIME_MS).
    #[arg(long, value_name = "MS")]
    parse_time_ms: Option<u64>,
    /// Per-file syntax-tree budget in nodes; a larger tree is skipped as
    /// `parse_budget` (default 10 000 000; env CALLGRAPH_MAX_TREE_NODES).
    #[arg(long, value_name = "NODES")]
    max_tree_nodes: Option<u64>,
    /// Refuse to write a report larger than this many bytes per byte of input, plus
    /// 1 MiB (default 64; env CALLGRAPH_MAX_REPORT_RATIO).
    #[arg(long, value_name = "RATIO")]
    max_report_ratio: Option<u64>,
    #[command(flatten)]
    build: BuildArgs,
}

/// The build configuration (docs/REPORT.md, "configuration"); the default build
/// when none is given.
#[derive(clap::Args)]
struct BuildArgs {
    /// Rust: a cfg option on top of the target's, `NAME` or `NAME="VALUE"`
    /// (`feature="serde"` adds a feature to the crate's defaults); repeatable.
    #[arg(long = "cfg", value_name = "OPTION")]
    cfg: Vec<String>,
    /// Rust: leave the crates' `default` features off.
    #[arg(long)]
    no_default_features: bool,
    /// Go: build tags, comma-separated (as `go build -tags`).
    #[arg(long, value_name = "TAGS")]
    go_tags: Option<String>,
    /// C/C++: a command-line macro, `NAME` or `NAME=VALUE` (as `-D`); repeatable.
    #[arg(long = "define", value_name = "NAME[=VALUE]")]
    defines: Vec<String>,
    /// C/C++: the language standard (as `-std=`), C's or C++'s by its name (`c11`,
    /// `gnu++17`); repeatable, one per language. Default clang 14's: gnu17, gnu++14.
    #[arg(long = "std", value_name = "STD")]
    std: Vec<String>,
    /// C++: compiled without exceptions (as `-fno-exceptions`).
    #[arg(long)]
    fno_exceptions: bool,
    /// C++: compiled without RTTI (as `-fno-rtti`).
    #[arg(long)]
    fno_rtti: bool,
    /// C/C++: one unit's own `-D`/`-U`, after the `--define`s:
    /// `PATH:-DNAME[=VALUE]` or `PATH:-UNAME` (PATH relative to ROOT); repeatable.
    #[arg(long = "unit-macro", value_name = "PATH:-DNAME")]
    unit_macros: Vec<String>,
    /// C/C++: a macro some units define and others do not; read as unknown
    /// everywhere, so conditionals on it keep their branches; repeatable.
    #[arg(long = "define-varies", value_name = "NAME")]
    define_varies: Vec<String>,
    /// Python: the interpreter version static guards are evaluated for (default 3.11).
    #[arg(long, value_name = "MAJOR.MINOR")]
    python_version: Option<String>,
    /// TypeScript/JavaScript: compiler options on top of the tree's tsconfig files, as
    /// a JSON object (`{"paths": {"@app/*": ["src/*"]}, "baseUrl": "."}`; paths
    /// relative to the root).
    #[arg(long, value_name = "JSON")]
    ts_compiler_options: Option<String>,
}

impl BuildArgs {
    fn configuration(&self) -> Result<engine::config::Configuration, EngineError> {
        use engine::config::{
            parse_compiler_options, parse_go_tags, CfgOption, Define, PythonVersion,
        };
        let mut c = engine::config::Configuration::default();
        c.rust.cfg = self
            .cfg
            .iter()
            .map(|o| CfgOption::parse(o))
            .collect::<Result<_, _>>()?;
        c.rust.default_features = !self.no_default_features;
        if let Some(tags) = &self.go_tags {
            c.go.tags = parse_go_tags(tags)?;
        }
        c.c.defines = self
            .defines
            .iter()
            .map(|d| Define::parse(d))
            .collect::<Result<_, _>>()?;
        for std in &self.std {
            c.c.set_std(std)?;
        }
        c.c.cpp_exceptions = !self.fno_exceptions;
        c.c.cpp_rtti = !self.fno_rtti;
        for text in &self.unit_macros {
            let (path, m) = engine::config::UnitMacro::parse(text)?;
            c.c.units.entry(path).or_default().push(m);
        }
        for name in &self.define_varies {
            if name.contains('=') {
                return Err(EngineError::InvalidArgument(format!(
                    "--define-varies {name:?}: expected a macro name"
                )));
            }
            c.c.varying.push(Define::parse(name)?.name);
        }
        if let Some(v) = &self.python_version {
            c.python.version = PythonVersion::parse(v)?;
        }
        if let Some(o) = &self.ts_compiler_options {
            c.typescript.compiler_options = parse_compiler_options(o)?;
        }
        Ok(c)
    }
}

#[derive(clap::Args)]
struct AnalyzeArgs {
    /// The tree to analyse.
    root: PathBuf,
    /// Write the report here instead of standard output.
    #[arg(long)]
    out: Option<PathBuf>,
    #[command(flatten)]
    common: Common,
}

#[derive(clap::Args)]
struct ExplainArgs {
    /// The tree the site belongs to.
    root: PathBuf,
    /// FILE:LINE[:COL], FILE relative to ROOT.
    site: String,
    #[command(flatten)]
    common: Common,
}

fn options(common: &Common) -> Result<Options, EngineError> {
    if common.threads > engine::limits::MAX_THREADS {
        return Err(EngineError::InvalidArgument(format!(
            "--threads {} is over the limit of {} (the output does not depend on the count)",
            common.threads,
            engine::limits::MAX_THREADS
        )));
    }
    let mut options = Options {
        threads: common.threads,
        config: common.build.configuration()?,
        limits: engine::limits::Limits::from_env()?,
        ..Options::default()
    };
    if !common.languages.is_empty() {
        options.languages = common
            .languages
            .iter()
            .map(|l| {
                Language::from_token(l)
                    .ok_or_else(|| EngineError::InvalidArgument(format!("unknown language {l:?}")))
            })
            .collect::<Result<_, _>>()?;
    }
    if let Some(v) = common.max_file_bytes {
        options.limits.max_file_bytes = v;
    }
    if let Some(v) = common.max_total_bytes {
        options.limits.max_total_bytes = v;
    }
    if let Some(v) = common.max_files {
        options.limits.max_files = v;
    }
    if let Some(v) = common.parse_time_ms {
        options.limits.parse_time_ms = v;
    }
    if let Some(v) = common.max_tree_nodes {
        options.limits.max_tree_nodes = v;
    }
    if let Some(v) = common.max_report_ratio {
        options.limits.max_report_ratio = v;
    }
    Ok(options)
}

fn run(cli: Cli) -> Result<(), EngineError> {
    match cli.command {
        Command::Analyze(args) => {
            let json = engine::analyze_to_json(&args.root, &options(&args.common)?)?;
            write_out(args.out.as_deref(), &json)
        }
        Command::Explain(args) => {
            let site = engine::explain::Site::parse(&args.site)?;
            let text = engine::explain::explain(&args.root, &site, &options(&args.common)?)?;
            print!("{text}");
            Ok(())
        }
        Command::Languages => {
            print!("{}", languages_table());
            Ok(())
        }
    }
}

/// One line per language: its token, its extensions and its families, in columns
/// as wide as their widest entry.
fn languages_table() -> String {
    let rows: Vec<(&str, String, String)> = Language::ALL
        .iter()
        .map(|l| {
            let families: Vec<&str> = l.families().iter().map(|f| f.token()).collect();
            (
                l.token(),
                format!(".{}", l.extensions().join(" .")),
                families.join(", "),
            )
        })
        .collect();
    let token_width = rows.iter().map(|r| r.0.len()).max().unwrap_or(0);
    let ext_width = rows.iter().map(|r| r.1.len()).max().unwrap_or(0);
    rows.iter()
        .map(|(token, ext, families)| {
            format!("{token:<token_width$} {ext:<ext_width$} {families}\n")
        })
        .collect()
}

/// Write the report to standard output, or to `path`.
fn write_out(path: Option<&std::path::Path>, bytes: &[u8]) -> Result<(), EngineError> {
    match path {
        None => std::io::stdout()
            .write_all(bytes)
            .map_err(|source| EngineError::Io {
                path: "<stdout>".into(),
                source,
            }),
        Some(p) => engine::output::write_report(p, bytes),
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("callgraph: {e}");
            ExitCode::from(e.exit_code() as u8)
        }
    }
}
