//! Workload limits (DESIGN §9), overridable by flag and environment.

use crate::error::EngineError;

#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Files larger than this are skipped with reason `too_large`.
    pub max_file_bytes: u64,
    /// Over this many bytes in all, the run refuses (`workload_too_large`).
    pub max_total_bytes: u64,
    /// Over this many files, the run refuses (`workload_too_large`).
    pub max_files: u64,
    /// Deeper syntax than this is not walked (a 50 000-level expression must not
    /// overflow the stack); the file is reported with its parse errors.
    pub max_depth: u32,
    /// The parse budget in time, per file (milliseconds): tree-sitter is quadratic
    /// on some inputs (a run of comments in Python, runs of quotes in TypeScript),
    /// so a file whose parse takes longer is skipped as `parse_budget`.
    pub parse_time_ms: u64,
    /// The parse budget in syntax-tree size, per file (nodes): a larger tree is
    /// skipped as `parse_budget` before any frontend walks it.
    pub max_tree_nodes: u64,
    /// The report's bound: at most this many bytes of report per byte of input
    /// (plus [`REPORT_SLACK_BYTES`]); past it the run refuses with
    /// `workload_too_large` instead of exhausting memory.
    pub max_report_ratio: u64,
}

/// The report bound's allowance on top of the ratio, so a tiny tree (one line,
/// an empty directory) is never refused for its fixed overhead.
pub const REPORT_SLACK_BYTES: u64 = 1024 * 1024;

/// More worker threads than this is refused: each has a 64 MiB stack, and the
/// output does not depend on the count (`--threads`, D16).
pub const MAX_THREADS: usize = 256;

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_file_bytes: 2 * 1024 * 1024,
            max_total_bytes: 512 * 1024 * 1024,
            max_files: 50_000,
            max_depth: 2_000,
            parse_time_ms: 10_000,
            max_tree_nodes: 10_000_000,
            max_report_ratio: 64,
        }
    }
}

/// Where a limit lives in [`Limits`].
type Field = fn(&mut Limits) -> &mut u64;

/// The environment variables that override a limit, each with the field it sets.
const FROM_ENV: &[(&str, Field)] = &[
    ("CALLGRAPH_MAX_FILE_BYTES", |l| &mut l.max_file_bytes),
    ("CALLGRAPH_MAX_TOTAL_BYTES", |l| &mut l.max_total_bytes),
    ("CALLGRAPH_MAX_FILES", |l| &mut l.max_files),
    ("CALLGRAPH_PARSE_TIME_MS", |l| &mut l.parse_time_ms),
    ("CALLGRAPH_MAX_TREE_NODES", |l| &mut l.max_tree_nodes),
    ("CALLGRAPH_MAX_REPORT_RATIO", |l| &mut l.max_report_ratio),
];

impl Limits {
    /// Defaults overridden by the `CALLGRAPH_*` variables of [`FROM_ENV`]. A variable
    /// that is set but is not a non-negative whole number is a wrong invocation,
    /// never a silent fall-back to the default (D22).
    pub fn from_env() -> Result<Limits, EngineError> {
        Limits::from_lookup(|name| std::env::var_os(name))
    }

    /// [`Limits::from_env`] over any source of variables (tests pass a map).
    pub fn from_lookup(
        lookup: impl Fn(&str) -> Option<std::ffi::OsString>,
    ) -> Result<Limits, EngineError> {
        let mut limits = Limits::default();
        for (name, field) in FROM_ENV {
            let Some(value) = lookup(name) else {
                continue;
            };
            let text = value.to_string_lossy();
            let number = text.trim().parse::<u64>().map_err(|_| {
                EngineError::InvalidArgument(format!(
                    "environment variable {name}={text:?} is not a non-negative whole number"
                ))
            })?;
            *field(&mut limits) = number;
        }
        Ok(limits)
    }

    /// The most bytes a report of a tree of `input_bytes` may take.
    pub fn report_bound(&self, input_bytes: u64) -> u64 {
        input_bytes
            .saturating_mul(self.max_report_ratio)
            .saturating_add(REPORT_SLACK_BYTES)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(vars: &[(&str, &str)]) -> Result<Limits, EngineError> {
        let vars: Vec<(String, String)> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        Limits::from_lookup(move |name| vars.iter().find(|(k, _)| k == name).map(|(_, v)| v.into()))
    }

    #[test]
    fn a_limit_set_in_the_environment_replaces_the_default() {
        let limits = with(&[
            ("CALLGRAPH_MAX_FILES", " 12 "),
            ("CALLGRAPH_PARSE_TIME_MS", "5"),
        ])
        .unwrap();
        assert_eq!(limits.max_files, 12);
        assert_eq!(limits.parse_time_ms, 5);
        assert_eq!(limits.max_file_bytes, Limits::default().max_file_bytes);
    }

    #[test]
    fn a_typo_in_a_limit_is_refused_not_ignored() {
        for bad in ["abc", "-5", "", "1e3", "12MB"] {
            let err = with(&[("CALLGRAPH_MAX_FILES", bad)]).unwrap_err();
            assert_eq!(err.code(), "invalid_argument", "{bad}");
            assert!(err.to_string().contains("CALLGRAPH_MAX_FILES"), "{err}");
        }
    }
}
