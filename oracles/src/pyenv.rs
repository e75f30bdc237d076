//! Python virtual environments for the Python oracles and peer tools, under the
//! cache (`.cache/venvs/<name>-<digest>/`), with pinned packages from PyPI installed
//! by pip — the registry's ordinary client. A venv is keyed by its name, the
//! interpreter's version and the exact package list, so changing a pin builds a new
//! one; it is used only once a marker says the install finished.

use std::path::{Path, PathBuf};
use std::time::Duration;

use sha2::{Digest, Sha256};

use crate::toolchain::{Outcome, Tool};

/// The marker written last, when every package is installed.
const COMPLETE: &str = ".complete";

/// What to install: `pip install [flags] packages`, every package pinned `NAME==VER`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VenvSpec {
    /// A short name for the directory (`pycg`, `click-tests`).
    pub name: String,
    /// Pinned requirements (`pytest==8.3.4`).
    pub packages: Vec<String>,
    /// Extra pip flags (`--no-binary`, `pycg`; `--no-deps`).
    pub pip_flags: Vec<String>,
}

/// A ready environment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Venv {
    pub dir: PathBuf,
    pub python: Tool,
    /// `Python 3.11.7`.
    pub python_version: String,
}

/// The interpreter the venvs are made from: `python3` on PATH.
pub fn base_python() -> Result<(Tool, String), Outcome> {
    let python = Tool::locate("python3")?;
    let version = python.version(&["--version"])?;
    Ok((python, version))
}

/// Every package of the spec must be pinned with `==`; anything else would make the
/// environment depend on the day it was built.
pub fn check_pinned(spec: &VenvSpec) -> Result<(), Outcome> {
    for package in &spec.packages {
        let pinned = package
            .split_once("==")
            .is_some_and(|(n, v)| !n.trim().is_empty() && !v.trim().is_empty());
        if !pinned {
            return Err(Outcome::ToolFailed {
                tool: format!("venv:{}", spec.name),
                detail: format!("`{package}` is not pinned as NAME==VERSION"),
            });
        }
    }
    Ok(())
}

/// The directory of a spec's venv under `cache_dir`.
pub fn venv_dir(cache_dir: &Path, spec: &VenvSpec, python_version: &str) -> PathBuf {
    let key = format!(
        "{python_version}\n{}\n{}",
        spec.pip_flags.join(" "),
        spec.packages.join("\n")
    );
    let digest = Sha256::digest(key.as_bytes());
    let hex: String = digest.iter().take(8).map(|b| format!("{b:02x}")).collect();
    cache_dir.join("venvs").join(format!("{}-{hex}", spec.name))
}

/// The venv of `spec`, built when it is not in the cache yet (bounded by `bound` per
/// step). A failing pip is `tool_failed` with pip's last line; nothing half-built is
/// ever reused.
pub fn ensure_venv(cache_dir: &Path, spec: &VenvSpec, bound: Duration) -> Result<Venv, Outcome> {
    check_pinned(spec)?;
    let (base, python_version) = base_python()?;
    let dir = absolute(&venv_dir(cache_dir, spec, &python_version));
    let ready = |dir: &Path| -> Result<Venv, Outcome> {
        Ok(Venv {
            dir: dir.to_path_buf(),
            python: Tool::at(&format!("python ({})", spec.name), &dir.join("bin/python"))?,
            python_version: python_version.clone(),
        })
    };
    if dir.join(COMPLETE).is_file() {
        return ready(&dir);
    }
    let failed = |detail: String| Outcome::ToolFailed {
        tool: format!("venv:{}", spec.name),
        detail,
    };
    if dir.exists() {
        std::fs::remove_dir_all(&dir).map_err(|e| failed(format!("cannot clear {e}")))?;
    }
    let parent = dir.parent().expect("venvs/ is a parent");
    std::fs::create_dir_all(parent).map_err(|e| failed(format!("cannot create the cache: {e}")))?;
    base.command(parent)
        .args(["-m", "venv"])
        .arg(&dir)
        .timeout(bound)
        .run()?;
    let venv = ready(&dir)?;
    if !spec.packages.is_empty() {
        let pip = Tool {
            name: "pip".into(),
            path: venv.python.path.clone(),
        };
        pip.command(parent)
            .args([
                "-m",
                "pip",
                "install",
                "--quiet",
                "--disable-pip-version-check",
            ])
            .args(&spec.pip_flags)
            .args(&spec.packages)
            .timeout(bound)
            .run()?;
    }
    std::fs::write(dir.join(COMPLETE), spec.packages.join("\n"))
        .map_err(|e| failed(format!("cannot mark the venv complete: {e}")))?;
    Ok(venv)
}

fn absolute(path: &Path) -> PathBuf {
    if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir()
            .map(|d| d.join(path))
            .unwrap_or_else(|_| path.to_path_buf())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(packages: &[&str]) -> VenvSpec {
        VenvSpec {
            name: "t".into(),
            packages: packages.iter().map(|s| s.to_string()).collect(),
            pip_flags: vec![],
        }
    }

    #[test]
    fn unpinned_packages_are_refused() {
        assert!(check_pinned(&spec(&["pytest==8.3.4"])).is_ok());
        for bad in ["pytest", "pytest>=8", "==1", "pytest=="] {
            let err = check_pinned(&spec(&[bad])).unwrap_err();
            assert_eq!(err.token(), "tool_failed", "{bad}");
            assert!(err.to_string().contains(bad), "{err}");
        }
    }

    #[test]
    fn a_changed_pin_or_interpreter_is_another_venv() {
        let cache = Path::new("/c");
        let a = venv_dir(cache, &spec(&["pytest==8.3.4"]), "Python 3.11.7");
        assert_eq!(
            a,
            venv_dir(cache, &spec(&["pytest==8.3.4"]), "Python 3.11.7")
        );
        assert_ne!(
            a,
            venv_dir(cache, &spec(&["pytest==8.3.5"]), "Python 3.11.7")
        );
        assert_ne!(
            a,
            venv_dir(cache, &spec(&["pytest==8.3.4"]), "Python 3.12.1")
        );
        assert!(
            a.starts_with("/c/venvs") && a.file_name().unwrap().to_string_lossy().starts_with("t-")
        );
    }
}
