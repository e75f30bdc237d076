//! Writing the reports directory as a set: every file rendered, then every one
//! staged in a complete temporary file, and only then all renamed into place, so a
//! failure to write any of them (a read-only `charts/`) leaves the old set whole
//! rather than new tables beside old charts (D20).

use std::path::{Path, PathBuf};

use crate::atomic::stage;
use crate::charts::{coverage_error, family_heatmap, peers};
use crate::error::{Error, Result};
use crate::index_html::render_index;
use crate::model::Measurements;
use crate::tables::{render_csv, render_markdown};

/// The files `harness measure` and `harness merge` write, relative to `--out`.
pub const OUTPUT_FILES: &[&str] = &[
    "MEASUREMENTS.md",
    "measurements.json",
    "measurements.csv",
    "charts/coverage-error.svg",
    "charts/family-heatmap.svg",
    "charts/peers.svg",
    "index.html",
];

/// Renders every output of `measurements` as (relative path, text).
pub fn render_all(measurements: &Measurements) -> Vec<(&'static str, String)> {
    vec![
        (OUTPUT_FILES[0], render_markdown(measurements)),
        (OUTPUT_FILES[1], measurements.to_json()),
        (OUTPUT_FILES[2], render_csv(measurements)),
        (OUTPUT_FILES[3], coverage_error(measurements)),
        (OUTPUT_FILES[4], family_heatmap(measurements)),
        (OUTPUT_FILES[5], peers(measurements)),
        (OUTPUT_FILES[6], render_index(measurements)),
    ]
}

/// Writes every output into `out_dir`; returns the paths written.
pub fn write_outputs(measurements: &Measurements, out_dir: &Path) -> Result<Vec<PathBuf>> {
    if out_dir.exists() && !out_dir.is_dir() {
        return Err(Error::InvalidArgument(format!(
            "--out {} is a file; it names the reports directory to write",
            out_dir.display()
        )));
    }
    let rendered = render_all(measurements);
    let mut staged = Vec::new();
    let mut written = Vec::new();
    for (relative, text) in rendered {
        let path = out_dir.join(relative);
        staged.push(stage(&path, text.as_bytes())?);
        written.push(path);
    }
    for file in staged {
        file.commit()?;
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_set_that_cannot_be_written_whole_leaves_the_old_set() {
        // D20: `charts/` unwritable; before, the three tables were replaced anyway.
        // A file where the charts directory should be makes it unwritable even for
        // root.
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("MEASUREMENTS.md"), "old").unwrap();
        std::fs::write(dir.path().join("charts"), "not a directory").unwrap();
        let err = write_outputs(&Measurements::new(vec![]), dir.path()).unwrap_err();
        assert_eq!(err.code(), "io_error");
        assert_eq!(
            std::fs::read_to_string(dir.path().join("MEASUREMENTS.md")).unwrap(),
            "old"
        );
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 2, "a temporary file was left behind");
    }

    #[test]
    fn out_naming_a_file_is_a_wrong_invocation() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("reports");
        std::fs::write(&file, "x").unwrap();
        let err = write_outputs(&Measurements::new(vec![]), &file).unwrap_err();
        assert_eq!(err.exit_code(), 2);
        assert!(err.to_string().contains("is a file"), "{err}");
    }
}
