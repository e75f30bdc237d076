//! Running the engine: the harness reads the report the `callgraph` binary writes,
//! never the engine's internals, so two engine builds can be compared by pointing
//! `--engine` at each.

use std::path::{Path, PathBuf};
use std::time::Duration;

use oracles::{Outcome, Tool};

use crate::corpora::BuildConfiguration;
use crate::report::Report;

/// The environment variable naming the engine binary.
pub const ENGINE_ENV: &str = "CALLGRAPH_BIN";

/// The engine's default bound on one analysis.
pub const DEFAULT_ENGINE_BOUND: Duration = Duration::from_secs(600);

/// Something that turns a source tree into a report. The engine binary in
/// production; canned reports in tests.
pub trait Analyzer {
    /// Analyses the tree at `root` under a build configuration. A missing, failing or
    /// hanging engine, or a report that does not parse, is an outcome.
    fn analyze_with(&self, root: &Path, build: &BuildConfiguration) -> Result<Report, Outcome>;

    /// [`Analyzer::analyze_with`] for the default build (the proofs).
    /// The engine's executable, when it is one (so a run can be timed as a peer's).
    fn binary(&self) -> Option<&Path> {
        None
    }

    fn analyze(&self, root: &Path) -> Result<Report, Outcome> {
        self.analyze_with(root, &BuildConfiguration::default())
    }
}

/// The `callgraph` binary, run through the subprocess door.
#[derive(Debug, Clone)]
pub struct EngineBinary {
    tool: Tool,
    bound: Duration,
    input_cap: u64,
}

impl EngineBinary {
    /// Finds the engine: `--engine PATH`, else `$CALLGRAPH_BIN`, else a `callgraph`
    /// next to the harness's own executable (both land in target/<profile>/).
    pub fn locate(
        explicit: Option<&Path>,
        bound: Duration,
        input_cap: u64,
    ) -> Result<EngineBinary, Outcome> {
        let path = match explicit {
            Some(path) => path.to_path_buf(),
            None => default_engine_path()?,
        };
        Ok(EngineBinary {
            tool: Tool::at("callgraph", &path)?,
            bound,
            input_cap,
        })
    }

    pub fn path(&self) -> &Path {
        &self.tool.path
    }
}

fn default_engine_path() -> Result<PathBuf, Outcome> {
    if let Some(path) = std::env::var_os(ENGINE_ENV).filter(|p| !p.is_empty()) {
        return Ok(PathBuf::from(path));
    }
    let exe = std::env::current_exe().map_err(|e| Outcome::ToolMissing {
        tool: "callgraph".into(),
        detail: format!("cannot find the harness's own directory: {e}"),
    })?;
    let dir = exe.parent().unwrap_or(Path::new("."));
    Ok(dir.join(format!("callgraph{}", std::env::consts::EXE_SUFFIX)))
}

impl Analyzer for EngineBinary {
    fn binary(&self) -> Option<&Path> {
        Some(self.path())
    }

    fn analyze_with(&self, root: &Path, build: &BuildConfiguration) -> Result<Report, Outcome> {
        let failed = |detail: String| Outcome::ToolFailed {
            tool: "callgraph".into(),
            detail,
        };
        let root = root
            .canonicalize()
            .map_err(|e| failed(format!("cannot read the root {}: {e}", root.display())))?;
        let scratch =
            tempfile::tempdir().map_err(|e| failed(format!("no temporary directory: {e}")))?;
        let out = scratch.path().join("report.json");
        self.tool
            .command(scratch.path())
            .arg("analyze")
            .arg(&root)
            .arg("--out")
            .arg(&out)
            .args(build.engine_args())
            .timeout(self.bound)
            .run()?;
        // The report's path is a temporary one; the detail keeps only what is wrong.
        Report::load(&out, self.input_cap).map_err(|e| {
            failed(format!(
                "unusable report: {}",
                strip_path(&e.to_string(), &out)
            ))
        })
    }
}

fn strip_path(message: &str, path: &Path) -> String {
    message.replace(&*path.to_string_lossy(), "<report>")
}
