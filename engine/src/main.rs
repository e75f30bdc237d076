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
    let mut options = Options {
        threads: common.threads,
        config: common.build.configuration()?,
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
    Ok(options)
}

fn run(cli: Cli) -> Result<(), EngineError> {
    match cli.command {
        Command::Analyze(args) => {
            let report = engine::analyze(&args.root, &options(&args.common)?)?;
            let mut json = serde_json::to_string_pretty(&report).expect("report serializes");
            json.push('\n');
            write_out(args.out.as_deref(), json.as_bytes())
        }
        Command::Explain(args) => {
            let site = engine::explain::Site::parse(&args.site)?;
            let text = engine::explain::explain(&args.root, &site, &options(&args.common)?)?;
            print!("{text}");
            Ok(())
        }
        Command::Languages => {
            for l in Language::ALL {
                let families: Vec<&str> = l.families().iter().map(|f| f.token()).collect();
                println!(
                    "{:<8} .{:<10} {}",
                    l.token(),
                    l.extensions().join(" ."),
                    families.join(", ")
                );
            }
            Ok(())
        }
    }
}

/// Write atomically: a temporary file beside the target, renamed when complete.
fn write_out(path: Option<&std::path::Path>, bytes: &[u8]) -> Result<(), EngineError> {
    let io = |p: &std::path::Path| {
        let p = p.display().to_string();
        move |source| EngineError::Io { path: p, source }
    };
    match path {
        None => std::io::stdout()
            .write_all(bytes)
            .map_err(io(std::path::Path::new("<stdout>"))),
        Some(p) => {
            let tmp = p.with_extension("tmp-callgraph");
            std::fs::write(&tmp, bytes).map_err(io(&tmp))?;
            std::fs::rename(&tmp, p).map_err(io(p))
        }
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
