//! The harness's refusals: each has a stable code and maps to an exit code.

use oracles::{InputError, Outcome, TruthError};

/// Exit code: the answer is yes (or the work was done).
pub const EXIT_OK: u8 = 0;
/// Exit code: the answer is no (a gate or verification failed).
pub const EXIT_NO: u8 = 1;
/// Exit code: the invocation is wrong (flags, or input files that are not what they
/// should be).
pub const EXIT_USAGE: u8 = 2;
/// Exit code: the question could not be answered (a tool missing, failing, hanging).
pub const EXIT_CANNOT_ANSWER: u8 = 3;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("invalid_report: {path}: {detail}")]
    InvalidReport { path: String, detail: String },
    #[error(transparent)]
    Truth(#[from] TruthError),
    #[error(transparent)]
    Input(#[from] InputError),
    #[error("invalid_measurements: {path}: {detail}")]
    InvalidMeasurements { path: String, detail: String },
    #[error("invalid_corpora: {path}: {detail}")]
    InvalidCorpora { path: String, detail: String },
    #[error("invalid_proof: {path}: {detail}")]
    InvalidProof { path: String, detail: String },
    #[error("unknown_row: {path} has no row `{id}`")]
    UnknownRow { id: String, path: String },
    #[error("unknown_corpus: `{id}` is neither a proof language under {proofs} nor a corpus in {corpora}")]
    UnknownCorpus {
        id: String,
        proofs: String,
        corpora: String,
    },
    #[error("duplicate_row: row `{id}` appears in more than one input ({detail})")]
    DuplicateRow { id: String, detail: String },
    #[error("invalid_argument: {0}")]
    InvalidArgument(String),
    #[error("{0}")]
    Outcome(#[from] Outcome),
    #[error("missing_row: {0}")]
    MissingRow(String),
    /// The OS error is part of the sentence and not a `source` as well, so
    /// `{:#}` does not print it twice (D23).
    #[error("io_error: {path}: {error}")]
    Io { path: String, error: std::io::Error },
}

impl Error {
    /// The stable code of this refusal.
    pub fn code(&self) -> &'static str {
        match self {
            Error::InvalidReport { .. } => "invalid_report",
            Error::Truth(e) => e.code(),
            Error::Input(e) => e.code(),
            Error::InvalidMeasurements { .. } => "invalid_measurements",
            Error::InvalidCorpora { .. } => "invalid_corpora",
            Error::InvalidProof { .. } => "invalid_proof",
            Error::UnknownRow { .. } => "unknown_row",
            Error::UnknownCorpus { .. } => "unknown_corpus",
            Error::DuplicateRow { .. } => "duplicate_row",
            Error::InvalidArgument(_) => "invalid_argument",
            Error::Outcome(o) => o.token(),
            Error::MissingRow(_) => "missing_row",
            Error::Io { .. } => "io_error",
        }
    }

    /// Bad input the user named is a wrong invocation (2); a tool that could not
    /// answer, a row that cannot be measured, or a failing disk is "could not
    /// answer" (3).
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::Outcome(_) | Error::MissingRow(_) | Error::Io { .. } => EXIT_CANNOT_ANSWER,
            _ => EXIT_USAGE,
        }
    }

    pub(crate) fn io(path: &std::path::Path, source: std::io::Error) -> Error {
        Error::Io {
            path: path.display().to_string(),
            error: source,
        }
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;
