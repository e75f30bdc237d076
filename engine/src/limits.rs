//! Workload limits (DESIGN §9), overridable by flag and environment.

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
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_file_bytes: 2 * 1024 * 1024,
            max_total_bytes: 512 * 1024 * 1024,
            max_files: 50_000,
            max_depth: 2_000,
        }
    }
}

impl Limits {
    /// Defaults overridden by `CALLGRAPH_MAX_FILE_BYTES`, `CALLGRAPH_MAX_TOTAL_BYTES`
    /// and `CALLGRAPH_MAX_FILES` where set to a number.
    pub fn from_env() -> Limits {
        let mut limits = Limits::default();
        let read = |name: &str| {
            std::env::var(name)
                .ok()
                .and_then(|v| v.trim().parse::<u64>().ok())
        };
        if let Some(v) = read("CALLGRAPH_MAX_FILE_BYTES") {
            limits.max_file_bytes = v;
        }
        if let Some(v) = read("CALLGRAPH_MAX_TOTAL_BYTES") {
            limits.max_total_bytes = v;
        }
        if let Some(v) = read("CALLGRAPH_MAX_FILES") {
            limits.max_files = v;
        }
        limits
    }
}
