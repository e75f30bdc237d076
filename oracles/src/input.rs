//! Reading input files under a size cap, and naming what is wrong with bad JSON.
//!
//! Every file the harness reads (reports, truths, measurements, corpora lists) goes
//! through [`read_capped`], so an oversized file is refused before it is parsed and a
//! truncated one is named as truncated rather than as a generic syntax error.

use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

/// The default cap on one input file: 256 MiB. A report of a large corpus stays far
/// below it; a file above it is more likely a mistake than a measurement.
pub const DEFAULT_INPUT_CAP: u64 = 256 * 1024 * 1024;

/// The environment variable that overrides [`DEFAULT_INPUT_CAP`] (a byte count).
pub const INPUT_CAP_ENV: &str = "HARNESS_MAX_INPUT_BYTES";

/// A file that could not be read, or was refused before parsing.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    /// The OS error is in the sentence and not also a `source`, so a chain
    /// printed with `{:#}` says it once (D23).
    #[error("unreadable: {path}: {error}")]
    Unreadable {
        path: PathBuf,
        error: std::io::Error,
    },
    #[error("too_large: {path}: the file is larger than the cap of {cap} bytes")]
    TooLarge { path: PathBuf, cap: u64 },
}

impl InputError {
    /// The stable code of this refusal.
    pub fn code(&self) -> &'static str {
        match self {
            InputError::Unreadable { .. } => "unreadable",
            InputError::TooLarge { .. } => "too_large",
        }
    }
}

/// The input cap in force: `HARNESS_MAX_INPUT_BYTES` when set to a number, else the default.
pub fn input_cap_from_env() -> u64 {
    std::env::var(INPUT_CAP_ENV)
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
        .unwrap_or(DEFAULT_INPUT_CAP)
}

/// Reads a whole file, refusing it when it holds more than `cap` bytes.
///
/// The length is checked before reading and again while reading, because a file can
/// grow between the two (an engine still writing its report).
pub fn read_capped(path: &Path, cap: u64) -> Result<Vec<u8>, InputError> {
    let unreadable = |error| InputError::Unreadable {
        path: path.to_path_buf(),
        error,
    };
    let file = File::open(path).map_err(unreadable)?;
    let declared = file.metadata().map_err(unreadable)?.len();
    if declared > cap {
        return Err(InputError::TooLarge {
            path: path.to_path_buf(),
            cap,
        });
    }
    let mut bytes = Vec::with_capacity(declared as usize);
    file.take(cap.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(unreadable)?;
    if bytes.len() as u64 > cap {
        return Err(InputError::TooLarge {
            path: path.to_path_buf(),
            cap,
        });
    }
    Ok(bytes)
}

/// Says in a few words what a serde_json error means for the person who fed the file:
/// truncated, not JSON at all, or JSON of the wrong shape.
pub fn describe_json_error(error: &serde_json::Error) -> String {
    use serde_json::error::Category;
    let at = format!("line {} column {}", error.line(), error.column());
    match error.classify() {
        Category::Eof => format!("truncated: the JSON ends early ({at})"),
        Category::Syntax => format!("not valid JSON: {} ({at})", strip_position(error)),
        Category::Data => format!("not the expected shape: {} ({at})", strip_position(error)),
        Category::Io => format!("read error: {error}"),
    }
}

/// serde_json appends " at line L column C" to its messages; the caller adds its own.
fn strip_position(error: &serde_json::Error) -> String {
    let text = error.to_string();
    match text.rfind(" at line ") {
        Some(cut) => text[..cut].to_string(),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_over_the_cap_is_refused_before_parsing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big.json");
        std::fs::write(&path, vec![b' '; 100]).unwrap();
        let err = read_capped(&path, 99).unwrap_err();
        assert_eq!(err.code(), "too_large");
        assert!(err.to_string().contains("big.json"), "{err}");
        assert_eq!(read_capped(&path, 100).unwrap().len(), 100);
    }

    #[test]
    fn truncated_json_is_named_truncated() {
        let err = serde_json::from_str::<serde_json::Value>("{\"a\": [1, 2").unwrap_err();
        assert!(describe_json_error(&err).starts_with("truncated"));
        let err = serde_json::from_str::<serde_json::Value>("{\"a\": ]").unwrap_err();
        assert!(describe_json_error(&err).starts_with("not valid JSON"));
    }
}
