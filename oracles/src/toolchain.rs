//! The one subprocess door. Every program the harness and the oracles run — the
//! engine, compilers, interpreters, oracle helpers — starts here.
//!
//! The door pins the working directory and the environment, bounds the run with a
//! timeout (killing the whole process group on expiry), captures stdout and stderr
//! through files (so a grandchild that keeps a pipe open cannot hang the reader), and
//! reports what went wrong as data: [`Outcome`] is what a table shows for a tool that
//! is missing, failed or timed out, never a row of wrong answers.
//!
//! Nothing the door starts outlives the harness (D8). Every tool runs in a process
//! group of its own, registered with a reaper: a small shell, started once, that
//! reads the live groups from a pipe and kills the ones still listed when the pipe
//! closes — whether the harness returned, panicked, or was killed by SIGINT, SIGTERM
//! or SIGKILL. The harness is also the child subreaper of what it starts (Linux), so
//! a child that left its group with `setsid` comes back to it when its parent dies,
//! and is killed with the group it left when the tool runs past its bound (D23).
//! Captured output is bounded while the tool runs, not only when it is read back: a
//! capture file past its cap keeps its first bytes and is emptied (D12).

use std::collections::{BTreeMap, BTreeSet};
use std::ffi::{OsStr, OsString};
use std::fmt;
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

/// Captured output above this many bytes per stream is cut (and says so).
pub const DEFAULT_OUTPUT_CAP: u64 = 16 * 1024 * 1024;

/// How long a `--version` probe may take, at most: [`set_tool_bound`] lowers it to
/// the run's `--tool-timeout` (D23).
const VERSION_PROBE_BOUND: Duration = Duration::from_secs(30);

/// The run's bound on one tool, in milliseconds (0: not set).
static TOOL_BOUND_MS: AtomicU64 = AtomicU64::new(0);

/// Tells the door the run's bound on one tool (`--tool-timeout`): no version probe
/// waits longer.
pub fn set_tool_bound(bound: Duration) {
    TOOL_BOUND_MS.store(bound.as_millis().max(1) as u64, Ordering::SeqCst);
}

fn version_probe_bound() -> Duration {
    match TOOL_BOUND_MS.load(Ordering::SeqCst) {
        0 => VERSION_PROBE_BOUND,
        ms => VERSION_PROBE_BOUND.min(Duration::from_millis(ms)),
    }
}

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
    // How the machine reaches the registries, which the clients read from their own
    // configuration (`cargo fetch`, `go mod download`): never chosen by the door.
    "CARGO_HOME",
    "RUSTUP_HOME",
    "GOPROXY",
    "GOSUMDB",
    "GOPRIVATE",
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
            .timeout(version_probe_bound())
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

impl Finished {
    /// Why a helper that ended on its own left no `file` behind, said once: its exit,
    /// the read's error, and the start of what it printed, so garbage output is named
    /// as such rather than as a missing file alone (D23).
    pub fn wrote_no(&self, file: &Path, error: &std::io::Error) -> String {
        let exit = match self.status {
            Some(code) => format!("exited {code}"),
            None => "was ended by a signal".to_string(),
        };
        let name = file
            .file_name()
            .unwrap_or(file.as_os_str())
            .to_string_lossy();
        let printed: String = self.stdout.trim().chars().take(120).collect();
        let printed = if printed.is_empty() {
            "printed nothing".to_string()
        } else {
            format!("printed {printed:?}")
        };
        format!("the helper {exit} and wrote no {name} ({error}); it {printed}")
    }
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
        let mut stdout = Capture::new(&capture.path().join("stdout"), self.output_cap)
            .map_err(|e| self.failed(format!("cannot capture output: {e}")))?;
        let mut stderr = Capture::new(&capture.path().join("stderr"), self.output_cap)
            .map_err(|e| self.failed(format!("cannot capture output: {e}")))?;
        let expression = duct::cmd(&self.program, &self.args)
            .dir(&self.cwd)
            .full_env(self.environment())
            .stdin_null()
            .stdout_file(stdout.writer().map_err(|e| self.failed(format!("{e}")))?)
            .stderr_file(stderr.writer().map_err(|e| self.failed(format!("{e}")))?)
            .unchecked();
        let expression = in_own_process_group(expression);
        let started = Instant::now();
        let handle = {
            let _spawning = Reaper::spawn_lock();
            let handle = expression.start().map_err(|e| self.start_failure(e))?;
            Reaper::register(&handle.pids());
            handle
        };
        let groups = handle.pids();
        let status = loop {
            match handle.try_wait() {
                Ok(Some(output)) => break output.status.code(),
                Ok(None) => {}
                Err(e) => {
                    Reaper::unregister(&groups);
                    return Err(self.failed(format!("could not wait: {e}")));
                }
            }
            stdout.bound();
            stderr.bound();
            if started.elapsed() >= self.timeout {
                kill_process_groups(&groups);
                let _ = handle.kill();
                Reaper::unregister(&groups);
                kill_orphans();
                return Err(Outcome::Timeout {
                    tool: self.tool.clone(),
                    seconds: self.timeout.as_secs(),
                });
            }
            std::thread::sleep(poll_interval(started.elapsed()));
        };
        Reaper::unregister(&groups);
        Ok(Finished {
            status,
            stdout: stdout.text(),
            stderr: stderr.text(),
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
    for &pid in pids {
        if let Some(pid) = rustix::process::Pid::from_raw(pid as i32) {
            let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
        }
    }
}

#[cfg(not(unix))]
fn kill_process_groups(_pids: &[u32]) {}

/// The shell that kills what is still registered when the harness's end of its pipe
/// closes (through `env kill`: dash's own `kill` takes no negative group id). It ignores the terminal's signals so that it outlives the harness; its
/// list holds only groups still running (each is unregistered when its run ends, so
/// a reused process id is never killed).
const REAPER_SCRIPT: &str = r#"trap '' INT TERM HUP
live=' '
while read -r op pg; do
  case "$op" in
    +) live="$live$pg " ;;
    -) rest=' '; for p in $live; do [ "$p" = "$pg" ] || rest="$rest$p "; done; live=$rest ;;
  esac
done
for p in $live; do env kill -KILL -- "-$p" 2>/dev/null; done
"#;

/// The door's record of the process groups it started, and the reaper's pipe.
struct Reaper {
    live: BTreeSet<u32>,
    pipe: Option<std::process::ChildStdin>,
    pid: Option<u32>,
}

static REAPER: OnceLock<Mutex<Reaper>> = OnceLock::new();
static SPAWNING: Mutex<()> = Mutex::new(());

impl Reaper {
    fn get() -> std::sync::MutexGuard<'static, Reaper> {
        REAPER
            .get_or_init(|| Mutex::new(Reaper::start()))
            .lock()
            .unwrap_or_else(|e| e.into_inner())
    }

    /// Starts the reaper (once) and makes this process the subreaper of its
    /// descendants. Without `sh` the door still works; only the guarantee on an
    /// abrupt exit is lost.
    fn start() -> Reaper {
        become_subreaper();
        let mut command = std::process::Command::new("sh");
        command
            .arg("-c")
            .arg(REAPER_SCRIPT)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null());
        let child = reaper_in_own_group(command).spawn();
        match child {
            Ok(mut child) => Reaper {
                live: BTreeSet::new(),
                pipe: child.stdin.take(),
                pid: Some(child.id()),
            },
            Err(_) => Reaper {
                live: BTreeSet::new(),
                pipe: None,
                pid: None,
            },
        }
    }

    /// Held while a tool starts and is registered, so an orphan scan never takes a
    /// tool just started for an orphan.
    fn spawn_lock() -> std::sync::MutexGuard<'static, ()> {
        drop(Reaper::get());
        SPAWNING.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn register(groups: &[u32]) {
        let mut reaper = Reaper::get();
        for &g in groups {
            reaper.live.insert(g);
            reaper.say(&format!("+ {g}\n"));
        }
    }

    fn unregister(groups: &[u32]) {
        let mut reaper = Reaper::get();
        for &g in groups {
            reaper.live.remove(&g);
            reaper.say(&format!("- {g}\n"));
        }
    }

    fn say(&mut self, line: &str) {
        if let Some(pipe) = self.pipe.as_mut() {
            if pipe.write_all(line.as_bytes()).is_err() {
                self.pipe = None;
            }
        }
    }
}

#[cfg(unix)]
fn reaper_in_own_group(mut command: std::process::Command) -> std::process::Command {
    use std::os::unix::process::CommandExt;
    command.process_group(0);
    command
}

#[cfg(not(unix))]
fn reaper_in_own_group(command: std::process::Command) -> std::process::Command {
    command
}

#[cfg(target_os = "linux")]
fn become_subreaper() {
    let _ = rustix::process::set_child_subreaper(Some(rustix::process::getpid()));
}

#[cfg(not(target_os = "linux"))]
fn become_subreaper() {}

/// Kills this process's children that the door did not start: what a tool killed
/// at its bound left behind outside its group (a `setsid` child, reparented here
/// because this process is their subreaper), and reaps them.
#[cfg(target_os = "linux")]
fn kill_orphans() {
    let _spawning = SPAWNING.lock().unwrap_or_else(|e| e.into_inner());
    let (known, reaper) = {
        let r = Reaper::get();
        (r.live.clone(), r.pid)
    };
    let me = std::process::id();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return;
    };
    for entry in entries.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<u32>().ok())
        else {
            continue;
        };
        if known.contains(&pid) || Some(pid) == reaper || parent_of(pid) != Some(me) {
            continue;
        }
        if let Some(p) = rustix::process::Pid::from_raw(pid as i32) {
            let _ = rustix::process::kill_process(p, rustix::process::Signal::KILL);
            let _ = rustix::process::waitpid(Some(p), rustix::process::WaitOptions::empty());
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn kill_orphans() {}

/// The parent process id in `/proc/PID/stat` (the field after the command name,
/// which may itself hold spaces and parentheses).
#[cfg(target_os = "linux")]
fn parent_of(pid: u32) -> Option<u32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let after = &stat[stat.rfind(')')? + 1..];
    after.split_whitespace().nth(1)?.parse().ok()
}

/// One captured stream: a file the tool appends to, kept under its cap while the
/// tool runs. Past the cap the first `cap` bytes are kept in memory and the file is
/// emptied (the tool writes in append mode, so it goes on at the file's new end):
/// the disk holds at most what the tool writes between two polls.
struct Capture {
    file: std::fs::File,
    cap: u64,
    head: Option<Vec<u8>>,
}

impl Capture {
    fn new(path: &Path, cap: u64) -> std::io::Result<Capture> {
        let file = std::fs::OpenOptions::new()
            .create_new(true)
            .read(true)
            .append(true)
            .open(path)?;
        Ok(Capture {
            file,
            cap,
            head: None,
        })
    }

    /// The handle the tool writes through (the same open file, in append mode).
    fn writer(&self) -> std::io::Result<std::fs::File> {
        self.file.try_clone()
    }

    /// Keeps the file under its cap (called at every poll).
    fn bound(&mut self) {
        let len = self.file.metadata().map_or(0, |m| m.len());
        if len <= self.cap {
            return;
        }
        if self.head.is_none() {
            self.head = Some(self.read_head());
        }
        let _ = self.file.set_len(0);
    }

    fn read_head(&mut self) -> Vec<u8> {
        let mut bytes = Vec::new();
        if self.file.seek(std::io::SeekFrom::Start(0)).is_ok() {
            let _ = (&self.file).take(self.cap).read_to_end(&mut bytes);
        }
        bytes
    }

    fn text(mut self) -> String {
        let len = self.file.metadata().map_or(0, |m| m.len());
        let cut = self.head.is_some() || len > self.cap;
        let bytes = match self.head.take() {
            Some(head) => head,
            None => self.read_head(),
        };
        let mut text = String::from_utf8_lossy(&bytes).into_owned();
        if cut {
            text.push_str("\n[output cut at the capture cap]\n");
        }
        text
    }
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

    #[test]
    fn output_past_the_cap_does_not_fill_the_disk() {
        // D12: a proof looping on writes filled 4.4 GB of temporary disk in 3 s.
        let dir = tempfile::tempdir().unwrap();
        let started = Instant::now();
        let err = sh()
            .command(dir.path())
            .args([
                "-c",
                "echo first; yes 0123456789012345678901234567890123456789",
            ])
            .output_cap(1 << 20)
            .timeout(Duration::from_secs(3))
            .run()
            .unwrap_err();
        assert!(matches!(err, Outcome::Timeout { .. }), "{err}");
        assert!(started.elapsed() < Duration::from_secs(10));
        // The bound holds while the tool runs: check it on a run that ends by itself.
        let done = sh()
            .command(dir.path())
            .args([
                "-c",
                "head -c 50000000 /dev/zero | tr '\\0' x; echo; echo tail >&2",
            ])
            .output_cap(1 << 20)
            .run()
            .unwrap();
        assert!(done.stdout.len() <= (1 << 20) + 64, "{}", done.stdout.len());
        assert!(done.stdout.ends_with("[output cut at the capture cap]\n"));
        assert_eq!(done.stderr, "tail\n");
    }

    #[test]
    fn a_child_that_left_its_group_is_killed_with_it() {
        // D23: a proof child started with `setsid` survived the kill at the bound.
        let dir = tempfile::tempdir().unwrap();
        let marker = dir.path().join("survived");
        let script = format!(
            "setsid sh -c 'sleep 2; touch {}' & sleep 30",
            marker.display()
        );
        let err = sh()
            .command(dir.path())
            .args(["-c", &script])
            .timeout(Duration::from_millis(500))
            .run()
            .unwrap_err();
        assert!(matches!(err, Outcome::Timeout { .. }), "{err}");
        std::thread::sleep(Duration::from_millis(2500));
        assert!(!marker.exists(), "the setsid child outlived the bound");
    }

    #[test]
    fn a_helper_that_printed_garbage_and_wrote_no_file_is_named_as_such() {
        // D23: "the helper wrote no sites: No such file or directory" for a helper
        // that printed garbage and exited 0.
        let finished = Finished {
            status: Some(0),
            stdout: "garbage\n".into(),
            stderr: String::new(),
            elapsed: Duration::from_millis(5),
        };
        let missing = std::io::Error::from(std::io::ErrorKind::NotFound);
        let text = finished.wrote_no(Path::new("/w/sites.jsonl"), &missing);
        assert!(
            text.starts_with("the helper exited 0 and wrote no sites.jsonl ("),
            "{text}"
        );
        assert!(text.ends_with("; it printed \"garbage\""), "{text}");
        let silent = Finished {
            stdout: String::new(),
            ..finished
        };
        assert!(silent
            .wrote_no(Path::new("sites.jsonl"), &missing)
            .ends_with("it printed nothing"));
    }

    #[test]
    fn the_version_probe_waits_no_longer_than_the_tool_bound() {
        set_tool_bound(Duration::from_millis(300));
        let started = Instant::now();
        let err = sh().version(&["-c", "sleep 20"]).unwrap_err();
        assert!(matches!(err, Outcome::Timeout { .. }), "{err}");
        assert!(started.elapsed() < Duration::from_secs(5));
        set_tool_bound(Duration::from_secs(3600));
    }

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
