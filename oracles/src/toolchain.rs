//! The one subprocess door. Every program the harness and the oracles run — the
//! engine, compilers, interpreters, oracle helpers — starts here.
//!
//! The door pins the working directory and the environment, bounds the run with a
//! timeout (killing the whole process group on expiry), captures stdout and stderr
//! through files (so a grandchild that keeps a pipe open cannot hang the reader), and
//! reports what went wrong as data: [`Outcome`] is what a table shows for a tool that
//! is missing, failed or timed out, never a row of wrong answers.

use std::collections::BTreeMap;
use std::ffi::{OsStr, OsString};
use std::fmt;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

/// Captured output above this many bytes per stream is cut (and says so).
pub const DEFAULT_OUTPUT_CAP: u64 = 16 * 1024 * 1024;

/// How long a `--version` probe may take.
const VERSION_PROBE_BOUND: Duration = Duration::from_secs(30);

/// Environment variables passed through from the harness's own environment. Anything
/// else is dropped, so a stray `JAVA_TOOL_OPTIONS` or `PYTHONPATH` cannot change what
/// a proof prints or what an oracle sees.
const PASSED_THROUGH: &[&str] = &[
    "PATH",
    "HOME",
    "USER",
    "LOGNAME",
    "TMPDIR",
    "TMP",
    "TEMP",
    "SYSTEMROOT",
    "JAVA_HOME",
];

/// Prefixes of variables passed through: the engine's own limits, and pyenv's shims
/// (which cannot find an interpreter without them).
const PASSED_THROUGH_PREFIXES: &[&str] = &["CALLGRAPH_", "PYENV_"];

/// Variables every run gets, whatever the caller's environment says, so output is the
/// same on every machine.
const PINNED: &[(&str, &str)] = &[
    ("LC_ALL", "C.UTF-8"),
    ("LANG", "C.UTF-8"),
    ("TZ", "UTC"),
    ("PYTHONHASHSEED", "0"),
    ("PYTHONDONTWRITEBYTECODE", "1"),
    ("PYTHONIOENCODING", "utf-8"),
    ("SOURCE_DATE_EPOCH", "0"),
];

/// `path` as a created, canonical directory; `tool` names the oracle in the failure.
pub fn absolute_dir(tool: &str, path: &Path) -> Result<PathBuf, Outcome> {
    std::fs::create_dir_all(path)
        .and_then(|()| path.canonicalize())
        .map_err(|e| Outcome::tool_failed(tool, format!("cannot use {}: {e}", path.display())))
}

/// The sha256 of `text` in lowercase hex (a helper's source checked against its pin).
#[cfg(test)]
pub(crate) fn sha256_hex(text: &str) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Why a tool gave no usable answer. Serialized with the snake_case tokens the tables
/// print (`tool_missing`, `tool_failed`, `timeout`, `not_implemented`).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum Outcome {
    /// The program is not installed (or not where it was said to be).
    ToolMissing { tool: String, detail: String },
    /// The program ran and failed: non-zero exit, a signal, or unusable output.
    ToolFailed { tool: String, detail: String },
    /// The program ran past its bound and was killed.
    Timeout { tool: String, seconds: u64 },
    /// No adapter exists yet for this oracle or registry.
    NotImplemented { tool: String, detail: String },
    /// A downloaded archive whose sha256 is not the pinned one; nothing was unpacked.
    ChecksumMismatch {
        tool: String,
        archive: String,
        expected: String,
        actual: String,
    },
}

impl Outcome {
    /// `tool` ran and failed, for `detail`.
    pub fn tool_failed(tool: &str, detail: String) -> Outcome {
        Outcome::ToolFailed {
            tool: tool.into(),
            detail,
        }
    }

    /// The stable token of this outcome.
    pub fn token(&self) -> &'static str {
        match self {
            Outcome::ToolMissing { .. } => "tool_missing",
            Outcome::ToolFailed { .. } => "tool_failed",
            Outcome::Timeout { .. } => "timeout",
            Outcome::NotImplemented { .. } => "not_implemented",
            Outcome::ChecksumMismatch { .. } => "checksum_mismatch",
        }
    }

    /// The tool the outcome is about.
    pub fn tool(&self) -> &str {
        match self {
            Outcome::ToolMissing { tool, .. }
            | Outcome::ToolFailed { tool, .. }
            | Outcome::Timeout { tool, .. }
            | Outcome::NotImplemented { tool, .. }
            | Outcome::ChecksumMismatch { tool, .. } => tool,
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::ToolMissing { tool, detail }
            | Outcome::ToolFailed { tool, detail }
            | Outcome::NotImplemented { tool, detail } => {
                write!(f, "{}: {tool}: {detail}", self.token())
            }
            Outcome::Timeout { tool, seconds } => {
                write!(f, "timeout: {tool}: killed after {seconds} s")
            }
            Outcome::ChecksumMismatch {
                tool,
                archive,
                expected,
                actual,
            } => write!(
                f,
                "checksum_mismatch: {tool}: {archive}: expected sha256 {expected}, got {actual}; nothing was unpacked"
            ),
        }
    }
}

impl std::error::Error for Outcome {}

/// A program found on this machine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tool {
    /// The name tables and outcomes use (`javac`, `callgraph`).
    pub name: String,
    pub path: PathBuf,
}

impl Tool {
    /// Finds `name` on `PATH`; absent is `tool_missing`.
    pub fn locate(name: &str) -> Result<Tool, Outcome> {
        which::which(name)
            .map(|path| Tool {
                name: name.to_string(),
                path,
            })
            .map_err(|_| Outcome::ToolMissing {
                tool: name.to_string(),
                detail: "not found on PATH".into(),
            })
    }

    /// A tool at an explicit path; a path that is not a file is `tool_missing`.
    pub fn at(name: &str, path: &Path) -> Result<Tool, Outcome> {
        if path.is_file() {
            Ok(Tool {
                name: name.to_string(),
                path: path.to_path_buf(),
            })
        } else {
            Err(Outcome::ToolMissing {
                tool: name.to_string(),
                detail: format!("no file at {}", path.display()),
            })
        }
    }

    /// A run of this tool with `cwd` as its working directory.
    pub fn command(&self, cwd: &Path) -> Invocation {
        Invocation {
            tool: self.name.clone(),
            program: self.path.clone().into_os_string(),
            args: Vec::new(),
            cwd: cwd.to_path_buf(),
            env: BTreeMap::new(),
            timeout: Duration::from_secs(60),
            output_cap: DEFAULT_OUTPUT_CAP,
        }
    }

    /// The tool's version string: the first non-empty line it prints for `args`
    /// (`--version`; `-version` for javac, which prints it on stderr).
    pub fn version(&self, args: &[&str]) -> Result<String, Outcome> {
        let cwd = std::env::temp_dir();
        let finished = self
            .command(&cwd)
            .args(args)
            .timeout(VERSION_PROBE_BOUND)
            .run()?;
        first_line(&finished.stdout)
            .or_else(|| first_line(&finished.stderr))
            .ok_or_else(|| Outcome::ToolFailed {
                tool: self.name.clone(),
                detail: "printed no version".into(),
            })
    }
}

/// One bounded run of a tool, built up before it starts.
#[derive(Debug, Clone)]
pub struct Invocation {
    tool: String,
    program: OsString,
    args: Vec<OsString>,
    cwd: PathBuf,
    env: BTreeMap<OsString, OsString>,
    timeout: Duration,
    output_cap: u64,
}

/// A run that ended on its own.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finished {
    /// The exit code; `None` when a signal ended the process.
    pub status: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    pub elapsed: Duration,
}

impl Invocation {
    pub fn arg(mut self, arg: impl AsRef<OsStr>) -> Self {
        self.args.push(arg.as_ref().to_os_string());
        self
    }

    pub fn args<I, S>(mut self, args: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        self.args
            .extend(args.into_iter().map(|a| a.as_ref().to_os_string()));
        self
    }

    /// Sets one variable on top of the pinned environment.
    pub fn env(mut self, key: impl AsRef<OsStr>, value: impl AsRef<OsStr>) -> Self {
        self.env
            .insert(key.as_ref().to_os_string(), value.as_ref().to_os_string());
        self
    }

    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    pub fn output_cap(mut self, bytes: u64) -> Self {
        self.output_cap = bytes;
        self
    }

    /// Runs to completion; a non-zero exit or a signal is `tool_failed`.
    pub fn run(&self) -> Result<Finished, Outcome> {
        let finished = self.run_unchecked()?;
        if finished.status == Some(0) {
            return Ok(finished);
        }
        Err(Outcome::ToolFailed {
            tool: self.tool.clone(),
            detail: self.failure_detail(&finished),
        })
    }

    /// Runs to completion and returns whatever exit status the tool gave; only a
    /// missing program, a failure to start, or the timeout are outcomes.
    pub fn run_unchecked(&self) -> Result<Finished, Outcome> {
        let capture = tempfile::tempdir().map_err(|e| self.failed(format!("no temp dir: {e}")))?;
        let stdout_path = capture.path().join("stdout");
        let stderr_path = capture.path().join("stderr");
        let expression = duct::cmd(&self.program, &self.args)
            .dir(&self.cwd)
            .full_env(self.environment())
            .stdin_null()
            .stdout_path(&stdout_path)
            .stderr_path(&stderr_path)
            .unchecked();
        let expression = in_own_process_group(expression);
        let started = Instant::now();
        let handle = expression.start().map_err(|e| self.start_failure(e))?;
        let status = loop {
            match handle.try_wait() {
                Ok(Some(output)) => break output.status.code(),
                Ok(None) => {}
                Err(e) => return Err(self.failed(format!("could not wait: {e}"))),
            }
            if started.elapsed() >= self.timeout {
                kill_process_groups(&handle.pids());
                let _ = handle.kill();
                return Err(Outcome::Timeout {
                    tool: self.tool.clone(),
                    seconds: self.timeout.as_secs(),
                });
            }
            std::thread::sleep(poll_interval(started.elapsed()));
        };
        Ok(Finished {
            status,
            stdout: read_captured(&stdout_path, self.output_cap),
            stderr: read_captured(&stderr_path, self.output_cap),
            elapsed: started.elapsed(),
        })
    }

    /// The environment the tool sees: the pass-through list, the pinned values, then
    /// what the caller set.
    fn environment(&self) -> BTreeMap<OsString, OsString> {
        let mut env: BTreeMap<OsString, OsString> = std::env::vars_os()
            .filter(|(k, _)| is_passed_through(k))
            .collect();
        for (k, v) in PINNED {
            env.insert(k.into(), v.into());
        }
        env.extend(self.env.clone());
        env
    }

    fn start_failure(&self, error: std::io::Error) -> Outcome {
        if error.kind() == std::io::ErrorKind::NotFound {
            Outcome::ToolMissing {
                tool: self.tool.clone(),
                detail: format!("cannot start {}", Path::new(&self.program).display()),
            }
        } else {
            self.failed(format!("cannot start: {error}"))
        }
    }

    fn failed(&self, detail: String) -> Outcome {
        Outcome::ToolFailed {
            tool: self.tool.clone(),
            detail,
        }
    }

    /// "exit status 3: <last stderr line>", with the working directory elided so the
    /// detail is the same on every machine (it lands in measurements.json).
    fn failure_detail(&self, finished: &Finished) -> String {
        let status = match finished.status {
            Some(code) => format!("exit status {code}"),
            None => "killed by a signal".to_string(),
        };
        let last = finished
            .stderr
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .map(|l| l.trim().replace(&*self.cwd.to_string_lossy(), "<cwd>"));
        match last {
            Some(line) => format!("{status}: {line}"),
            None => status,
        }
    }
}

fn is_passed_through(key: &OsStr) -> bool {
    let Some(key) = key.to_str() else {
        return false;
    };
    PASSED_THROUGH.contains(&key) || PASSED_THROUGH_PREFIXES.iter().any(|p| key.starts_with(p))
}

/// Short polls first so quick tools return quickly, then 50 ms so a long compile does
/// not spin.
fn poll_interval(elapsed: Duration) -> Duration {
    if elapsed < Duration::from_millis(100) {
        Duration::from_millis(2)
    } else {
        Duration::from_millis(50)
    }
}

/// Starts the tool in a process group of its own, so a timeout can kill what it
/// spawned too (a shell's `sleep`, a build tool's compiler), not just the direct child.
#[cfg(unix)]
fn in_own_process_group(expression: duct::Expression) -> duct::Expression {
    use std::os::unix::process::CommandExt;
    expression.before_spawn(|command| {
        command.process_group(0);
        Ok(())
    })
}

#[cfg(not(unix))]
fn in_own_process_group(expression: duct::Expression) -> duct::Expression {
    expression
}

/// Kills each process group the door started. The group id is the child's pid because
/// the child was made its group's leader.
#[cfg(unix)]
fn kill_process_groups(pids: &[u32]) {
    for pid in pids {
        // This helper run is part of the door itself; it is bounded by `kill`'s nature.
        let _ = duct::cmd("kill", ["-KILL", "--", &format!("-{pid}")])
            .stdin_null()
            .stdout_null()
            .stderr_null()
            .unchecked()
            .run();
    }
}

#[cfg(not(unix))]
fn kill_process_groups(_pids: &[u32]) {}

fn read_captured(path: &Path, cap: u64) -> String {
    let mut bytes = Vec::new();
    if let Ok(file) = std::fs::File::open(path) {
        let _ = file.take(cap).read_to_end(&mut bytes);
    }
    let mut text = String::from_utf8_lossy(&bytes).into_owned();
    let full = std::fs::metadata(path).map_or(0, |m| m.len());
    if full > cap {
        text.push_str("\n[output cut at the capture cap]\n");
    }
    text
}

fn first_line(text: &str) -> Option<String> {
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh() -> Tool {
        Tool::locate("sh").expect("sh is on every unix machine")
    }

    #[test]
    fn captures_output_and_status() {
        let dir = tempfile::tempdir().unwrap();
        let done = sh()
            .command(dir.path())
            .args(["-c", "echo out; echo err >&2; pwd"])
            .run()
            .unwrap();
        assert_eq!(done.status, Some(0));
        assert!(done.stdout.starts_with("out\n"));
        assert_eq!(done.stderr, "err\n");
        let cwd = done.stdout.lines().nth(1).unwrap();
        assert_eq!(
            Path::new(cwd).canonicalize().unwrap(),
            dir.path().canonicalize().unwrap()
        );
    }

    #[test]
    fn the_environment_is_pinned() {
        std::env::set_var("PYTHONPATH", "/somewhere");
        let done = sh()
            .command(&std::env::temp_dir())
            .args([
                "-c",
                "echo \"$TZ|$PYTHONHASHSEED|${PYTHONPATH:-unset}|$EXTRA\"",
            ])
            .env("EXTRA", "x")
            .run()
            .unwrap();
        assert_eq!(done.stdout.trim(), "UTC|0|unset|x");
    }

    #[test]
    fn a_non_zero_exit_is_tool_failed_with_the_last_stderr_line() {
        let err = sh()
            .command(&std::env::temp_dir())
            .args(["-c", "echo first >&2; echo boom >&2; exit 3"])
            .run()
            .unwrap_err();
        assert_eq!(err.token(), "tool_failed");
        assert_eq!(err.to_string(), "tool_failed: sh: exit status 3: boom");
    }

    #[test]
    fn a_missing_program_is_tool_missing() {
        assert_eq!(
            Tool::locate("no-such-tool-anywhere-1234")
                .unwrap_err()
                .token(),
            "tool_missing"
        );
        let err = Tool::at("callgraph", Path::new("/nonexistent/callgraph")).unwrap_err();
        assert_eq!(err.token(), "tool_missing");
    }

    #[test]
    fn a_hanging_program_is_killed_at_its_bound_with_its_children() {
        let dir = tempfile::tempdir().unwrap();
        let marker = dir.path().join("survived");
        let script = format!("(sleep 2; touch {}) & sleep 30", marker.display());
        let started = Instant::now();
        let err = sh()
            .command(dir.path())
            .args(["-c", &script])
            .timeout(Duration::from_millis(300))
            .run()
            .unwrap_err();
        assert!(matches!(err, Outcome::Timeout { .. }), "{err}");
        assert!(started.elapsed() < Duration::from_secs(5));
        // The background child was in the same process group, so it died too.
        std::thread::sleep(Duration::from_millis(2500));
        assert!(!marker.exists(), "a grandchild outlived the timeout");
    }

    #[test]
    fn outcomes_serialize_with_their_tokens() {
        let json = serde_json::to_string(&Outcome::Timeout {
            tool: "python3".into(),
            seconds: 60,
        })
        .unwrap();
        assert_eq!(
            json,
            r#"{"outcome":"timeout","tool":"python3","seconds":60}"#
        );
        let back: Outcome = serde_json::from_str(
            r#"{"outcome":"not_implemented","tool":"oracle:javac","detail":"d"}"#,
        )
        .unwrap();
        assert_eq!(back.token(), "not_implemented");
    }

    #[test]
    fn the_version_is_the_first_non_empty_line_printed() {
        let version = sh()
            .version(&["-c", "echo '' >&2; echo 'tool 1.2.3' >&2; echo 'more' >&2"])
            .unwrap();
        assert_eq!(version, "tool 1.2.3");
        let version = sh()
            .version(&["-c", "echo 'out 2'; echo 'err 1' >&2"])
            .unwrap();
        assert_eq!(version, "out 2");
        let err = sh().version(&["-c", "true"]).unwrap_err();
        assert_eq!(err.token(), "tool_failed");
    }
}
