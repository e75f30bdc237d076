//! Writing the reports directory: every file rendered first, then each written
//! atomically, so a failure never leaves a partial table over a good one.

use std::path::{Path, PathBuf};

use crate::atomic::write_atomic;
use crate::charts::{coverage_precision, family_precision};
use crate::error::Result;
use crate::model::Measurements;
use crate::tables::{render_csv, render_markdown};

/// The files `harness measure` and `harness merge` write, relative to `--out`.
pub const OUTPUT_FILES: &[&str] = &[
    "MEASUREMENTS.md",
    "measurements.json",
    "measurements.csv",
    "charts/coverage-precision.svg",
    "charts/family-precision.svg",
];

/// Renders every output of `measurements` as (relative path, text).
pub fn render_all(measurements: &Measurements) -> Vec<(&'static str, String)> {
    vec![
        (OUTPUT_FILES[0], render_markdown(measurements)),
        (OUTPUT_FILES[1], measurements.to_json()),
        (OUTPUT_FILES[2], render_csv(measurements)),
        (OUTPUT_FILES[3], coverage_precision(measurements)),
        (OUTPUT_FILES[4], family_precision(measurements)),
    ]
}

/// Writes every output into `out_dir`; returns the paths written.
pub fn write_outputs(measurements: &Measurements, out_dir: &Path) -> Result<Vec<PathBuf>> {
    let rendered = render_all(measurements);
    let mut written = Vec::new();
    for (relative, text) in rendered {
        let path = out_dir.join(relative);
        write_atomic(&path, text.as_bytes())?;
        written.push(path);
    }
    Ok(written)
}
