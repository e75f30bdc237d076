//! Refusals of a whole run, each with a stable code (DESIGN §9).

use thiserror::Error;

#[derive(Debug, Error)]
pub enum EngineError {
    #[error("invalid_root: {path} is not a readable directory")]
    InvalidRoot { path: String },
    #[error("workload_too_large: {what} is {actual}, over the limit of {limit}")]
    WorkloadTooLarge {
        what: &'static str,
        actual: u64,
        limit: u64,
    },
    #[error("workload_too_large: the report is past its bound of {limit} bytes (--max-report-ratio times the input, plus 1 MiB)")]
    ReportTooLarge { limit: u64 },
    #[error("invalid_argument: {0}")]
    InvalidArgument(String),
    #[error("io_error: {path}: {source}")]
    Io {
        path: String,
        #[source]
        source: std::io::Error,
    },
}

impl EngineError {
    pub fn code(&self) -> &'static str {
        match self {
            EngineError::InvalidRoot { .. } => "invalid_root",
            EngineError::WorkloadTooLarge { .. } | EngineError::ReportTooLarge { .. } => {
                "workload_too_large"
            }
            EngineError::InvalidArgument(_) => "invalid_argument",
            EngineError::Io { .. } => "io_error",
        }
    }

    /// DESIGN §9: 2 when the invocation is wrong, 3 when the engine could not answer.
    pub fn exit_code(&self) -> i32 {
        match self {
            EngineError::InvalidRoot { .. } | EngineError::InvalidArgument(_) => 2,
            EngineError::WorkloadTooLarge { .. }
            | EngineError::ReportTooLarge { .. }
            | EngineError::Io { .. } => 3,
        }
    }
}
