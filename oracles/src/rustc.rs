//! The LLVM IR reading of a Rust crate (`rustc-ir`, the second reading of the rustc
//! oracle since adapter 3 reads the THIR: [`crate::rustc_thir`]): the LLVM IR rustc
//! emits for the corpus crate, with full debug info and no optimisation, read by
//! [`crate::llvm_ir`] and turned into a truth by [`crate::llvm_truth`]. `harness
//! crosscheck` compares the two on the sites both see.
//!
//! The crate is copied under the cache (its analysed tree is never written to), given
//! the committed lock file `oracles/rust/<lock>/Cargo.lock` (its dependencies come
//! from the crate registry through cargo, checked against the lock's checksums with
//! `--locked`), and built once per cargo target of `oracle.options.targets` with
//!
//! `cargo rustc --locked <target> -- --emit=llvm-ir -C debuginfo=2 -C opt-level=0
//! -C codegen-units=1 -C link-dead-code`
//!
//! (one `.ll` per target; `link-dead-code` keeps private functions nothing calls).
//! The corpus's build configuration (`OracleOptions::build`) becomes cargo's own
//! feature flags — `cfg` entries `feature="x"` → `--features x`,
//! `no_default_features` → `--no-default-features` — so the oracle compiles the
//! program the engine reads; the default build adds no flag.
//! All modules are read together, so a test crate's call of a non-generic library
//! function resolves to the library's definition. std and dependency callees lie
//! outside the tree; drops, panic/overflow checks and calls inside macro expansions
//! are set apart as implicit (llvm_truth.rs says which and why).

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::llvm_ir::{resolve_calls, Module};
use crate::llvm_truth::{callee_symbols, demangle_all, ir_truth, Flavor, SiteBuilder};
use crate::oracle::{Oracle, OracleOptions};
use crate::toolchain::{Outcome, Tool};
use crate::truth::{OracleStamp, Truth};

/// Bumped whenever what the adapter emits changes (truths are cached by it). 3: a
/// path starting with `crate::` is read as written (it was set apart).
pub const ADAPTER_VERSION: &str = "3";

/// The committed lock files, by the name `oracle.options.lock` gives.
pub const LOCKS: &[(&str, &str)] = &[
    (
        "clap_builder",
        include_str!("../rust/clap_builder/Cargo.lock"),
    ),
    ("regex", include_str!("../rust/regex/Cargo.lock")),
];

const TOOL: &str = "rustc";

/// The flags every target is compiled with (after the target's own).
pub const IR_FLAGS: &[&str] = &[
    "--emit=llvm-ir",
    "-C",
    "debuginfo=2",
    "-C",
    "opt-level=0",
    "-C",
    "codegen-units=1",
    "-C",
    "link-dead-code",
];

/// `oracle.options` of a rustc corpus.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RustcOptions {
    /// The lock file (one of [`LOCKS`]). Without one, cargo runs `--offline`, which
    /// only a crate without dependencies survives (the tests' fixture).
    #[serde(default)]
    pub lock: Option<String>,
    /// Cargo target selections, one build each (`["--lib"]`, `["--test", "integration"]`).
    #[serde(default = "default_targets")]
    pub targets: Vec<Vec<String>>,
    /// Module files the published crate leaves out but its code declares (regex's
    /// `tests/fuzz`), created empty in the build copy only — the analysed tree is
    /// not touched, and an empty module has no site.
    #[serde(default)]
    pub empty_modules: Vec<String>,
}

fn default_targets() -> Vec<Vec<String>> {
    vec![vec!["--lib".to_string()]]
}

impl RustcOptions {
    pub fn from_json(value: &serde_json::Value) -> Result<RustcOptions, String> {
        let options: RustcOptions = serde_json::from_value(value.clone())
            .map_err(|e| format!("oracle options for rustc: {e}"))?;
        if let Some(lock) = &options.lock {
            if !LOCKS.iter().any(|(name, _)| name == lock) {
                return Err(format!(
                    "oracle options for rustc: no committed lock file `{lock}`"
                ));
            }
        }
        for target in &options.targets {
            let known = matches!(
                target.first().map(String::as_str),
                Some("--lib" | "--test" | "--bin" | "--example" | "--bench")
            );
            let clean = target.iter().all(|a| {
                a.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_".contains(c))
            });
            if !known || !clean {
                return Err(format!(
                    "oracle options for rustc: `{}` is not a cargo target selection",
                    target.join(" ")
                ));
            }
        }
        for module in &options.empty_modules {
            let relative = Path::new(module);
            let plain = relative
                .components()
                .all(|c| matches!(c, std::path::Component::Normal(_)));
            if !plain || !module.ends_with(".rs") {
                return Err(format!(
                    "oracle options for rustc: `{module}` is not a relative .rs path"
                ));
            }
        }
        Ok(options)
    }
}

/// The rustc LLVM IR reading.
#[derive(Debug, Clone, Copy, Default)]
pub struct Rustc;

impl Oracle for Rustc {
    fn name(&self) -> &'static str {
        "rustc-ir"
    }

    fn version(&self) -> &'static str {
        ADAPTER_VERSION
    }

    fn toolchain_version(&self) -> Result<String, Outcome> {
        Tool::locate("rustc")?.version(&["--version"])
    }

    fn run(&self, corpus_dir: &Path, options: &OracleOptions<'_>) -> Result<Truth, Outcome> {
        let rust_options = RustcOptions::from_json(options.options).map_err(failed)?;
        let feature_flags = cargo_feature_flags(options.build).map_err(failed)?;
        let cargo = Tool::locate("cargo")?;
        let version = self.toolchain_version()?;
        let root = corpus_dir
            .canonicalize()
            .map_err(|e| failed(format!("cannot read the root: {e}")))?;
        let cache = absolute_dir(
            &options
                .cache_dir
                .join("oracles")
                .join("rustc")
                .join(options.corpus_id),
        )?;
        let work = absolute_dir(options.work_dir)?;
        let copy = cache.join("crate");
        let _ = std::fs::remove_dir_all(&copy);
        copy_tree(&root, &copy).map_err(|e| failed(format!("cannot copy the crate: {e}")))?;
        let lock = rust_options.lock.as_ref().map(|wanted| {
            LOCKS
                .iter()
                .find(|(name, _)| name == wanted)
                .map(|(_, text)| *text)
                .expect("checked by from_json")
        });
        let _ = std::fs::remove_file(copy.join("Cargo.lock"));
        if let Some(lock) = lock {
            std::fs::write(copy.join("Cargo.lock"), lock)
                .map_err(|e| failed(format!("cannot write Cargo.lock: {e}")))?;
        }
        let pinning = if lock.is_some() {
            "--locked"
        } else {
            "--offline"
        };
        let crate_name = standalone_manifest(&copy.join("Cargo.toml"))?;
        for module in &rust_options.empty_modules {
            let path = copy.join(module);
            if !path.exists() {
                std::fs::write(&path, "")
                    .map_err(|e| failed(format!("cannot write {module}: {e}")))?;
            }
        }
        let target_dir = cache.join("target");
        let deps = target_dir.join("debug").join("deps");

        let mut ll_files = Vec::new();
        for (n, target) in rust_options.targets.iter().enumerate() {
            remove_ll_files(&deps);
            cargo
                .command(&copy)
                .args(["rustc", pinning, "--quiet"])
                .args(target)
                .args(&feature_flags)
                .arg("--")
                .args(IR_FLAGS)
                .env("CARGO_TARGET_DIR", &target_dir)
                .env("CARGO_INCREMENTAL", "0")
                .env("CARGO_TERM_COLOR", "never")
                // Dependencies need no optimisation either (regex's dev profile asks
                // for opt-level 3, which only slows the build).
                .env("CARGO_PROFILE_DEV_OPT_LEVEL", "0")
                .env("CARGO_PROFILE_TEST_OPT_LEVEL", "0")
                .timeout(options.timeout)
                .run()?;
            let mut found = list_ll_files(&deps);
            if found.is_empty() {
                return Err(failed(format!(
                    "cargo rustc {} wrote no .ll file",
                    target.join(" ")
                )));
            }
            for (k, path) in found.drain(..).enumerate() {
                let kept = work.join(format!("target{n}-{k}.ll"));
                std::fs::rename(&path, &kept)
                    .or_else(|_| std::fs::copy(&path, &kept).map(|_| ()))
                    .map_err(|e| failed(format!("cannot keep {}: {e}", path.display())))?;
                ll_files.push(kept);
            }
        }
        let mut modules = Vec::new();
        for path in &ll_files {
            let text = std::fs::read_to_string(path)
                .map_err(|e| failed(format!("cannot read {}: {e}", path.display())))?;
            modules.push(Module::parse(&text));
        }
        let calls = resolve_calls(&modules);
        drop(modules);
        let demangled = demangle_all(callee_symbols(&calls), options.timeout)?;
        let flavor = Flavor::Rust {
            tree_crates: vec![crate_name],
        };
        let compiled = copy
            .canonicalize()
            .map_err(|e| failed(format!("cannot resolve the copy: {e}")))?;
        let sites = SiteBuilder::new(&root, &compiled, flavor, &demangled).sites(&calls);
        let oracle = OracleStamp::at_name("rustc-ir", version_word(&version), ADAPTER_VERSION);
        ir_truth(options.corpus_id, oracle, sites).map_err(failed)
    }
}

/// Cargo's flags for the corpus's build configuration (`{"cfg": ["feature=\"x\""],
/// "no_default_features": true}`): `--no-default-features`, then `--features x,y`.
/// A `cfg` option that is no feature is refused: cargo has no flag that gives it to
/// the library and to a test target alike, and a build that differs from the
/// engine's reading would score another program.
pub fn cargo_feature_flags(build: &serde_json::Value) -> Result<Vec<String>, String> {
    let mut flags = Vec::new();
    if build.is_null() {
        return Ok(flags);
    }
    if build
        .get("no_default_features")
        .and_then(|v| v.as_bool())
        .unwrap_or(false)
    {
        flags.push("--no-default-features".to_string());
    }
    let mut features = Vec::new();
    let options = build.get("cfg").and_then(|v| v.as_array());
    for option in options.into_iter().flatten() {
        let text = option.as_str().unwrap_or_default();
        let feature = text
            .split_once('=')
            .filter(|(key, _)| key.trim() == "feature")
            .and_then(|(_, value)| value.trim().strip_prefix('"'))
            .and_then(|value| value.strip_suffix('"'))
            .filter(|name| {
                !name.is_empty()
                    && name
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || "-_/".contains(c))
            });
        match feature {
            Some(name) => features.push(name.to_string()),
            None => {
                return Err(format!(
                    "build cfg `{text}`: the rustc oracle builds only `feature=\"x\"` options"
                ))
            }
        }
    }
    if !features.is_empty() {
        flags.push("--features".to_string());
        flags.push(features.join(","));
    }
    Ok(flags)
}

/// `rustc 1.95.0 (59807616e 2026-04-14)` → `1.95.0`.
pub(crate) fn version_word(version: &str) -> String {
    version
        .split_whitespace()
        .nth(1)
        .unwrap_or(version)
        .to_string()
}

/// Makes the copied manifest its own workspace (a cache inside a cargo workspace
/// would otherwise be taken for a member of it) and returns the library's crate name.
pub(crate) fn standalone_manifest(manifest: &Path) -> Result<String, Outcome> {
    let mut text = std::fs::read_to_string(manifest)
        .map_err(|e| failed(format!("the crate has no Cargo.toml: {e}")))?;
    let name = package_name(&text)
        .ok_or_else(|| failed("Cargo.toml names no package".into()))?
        .replace('-', "_");
    if !text.lines().any(|l| l.trim() == "[workspace]") {
        text.push_str("\n[workspace]\n");
        std::fs::write(manifest, text)
            .map_err(|e| failed(format!("cannot write Cargo.toml: {e}")))?;
    }
    Ok(name)
}

/// `name = "…"` of the `[package]` table.
fn package_name(manifest: &str) -> Option<String> {
    let mut in_package = false;
    for line in manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            in_package = line == "[package]";
            continue;
        }
        if in_package {
            if let Some(value) = line.strip_prefix("name") {
                let value = value.trim_start().strip_prefix('=')?.trim();
                return Some(value.trim_matches('"').to_string());
            }
        }
    }
    None
}

fn list_ll_files(dir: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "ll"))
        .collect();
    found.sort();
    found
}

fn remove_ll_files(dir: &Path) {
    for path in list_ll_files(dir) {
        let _ = std::fs::remove_file(path);
    }
}

/// Copies a tree (files and directories; links are not followed).
pub fn copy_tree(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let kind = entry.file_type()?;
        let target = to.join(entry.file_name());
        if kind.is_dir() {
            copy_tree(&entry.path(), &target)?;
        } else if kind.is_file() {
            std::fs::copy(entry.path(), &target)?;
        }
    }
    Ok(())
}

pub(crate) fn absolute_dir(path: &Path) -> Result<PathBuf, Outcome> {
    crate::toolchain::absolute_dir(TOOL, path)
}

fn failed(detail: String) -> Outcome {
    Outcome::tool_failed(TOOL, detail)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_build_configuration_becomes_cargo_feature_flags() {
        assert!(cargo_feature_flags(&serde_json::Value::Null)
            .unwrap()
            .is_empty());
        assert!(cargo_feature_flags(&serde_json::json!({}))
            .unwrap()
            .is_empty());
        let build = serde_json::json!({
            "cfg": ["feature=\"string\"", "feature = \"wrap_help\""],
            "no_default_features": true
        });
        assert_eq!(
            cargo_feature_flags(&build).unwrap(),
            ["--no-default-features", "--features", "string,wrap_help"]
        );
        assert!(cargo_feature_flags(&serde_json::json!({"cfg": ["my_flag"]})).is_err());
        assert!(cargo_feature_flags(&serde_json::json!({"cfg": ["feature=\"a b\""]})).is_err());
    }

    #[test]
    fn options_are_checked() {
        let ok =
            serde_json::json!({"lock": "regex", "targets": [["--lib"], ["--test", "integration"]]});
        assert_eq!(RustcOptions::from_json(&ok).unwrap().targets.len(), 2);
        let default =
            RustcOptions::from_json(&serde_json::json!({"lock": "clap_builder"})).unwrap();
        assert_eq!(default.targets, vec![vec!["--lib".to_string()]]);
        for bad in [
            serde_json::json!({"lock": "nope"}),
            serde_json::json!({"lock": "regex", "targets": [[]]}),
            serde_json::json!({"lock": "regex", "targets": [["--lib; rm"]]}),
            serde_json::json!({"lock": "regex", "targets": [["--release"]]}),
            serde_json::json!({"lock": "regex", "extra": 1}),
            serde_json::json!({"lock": "regex", "empty_modules": ["../x.rs"]}),
        ] {
            assert!(RustcOptions::from_json(&bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn every_lock_pins_crates_io_checksums() {
        for (name, text) in LOCKS {
            assert!(text.contains("checksum = "), "{name}");
            assert!(text.contains(&format!("name = \"{name}\"")), "{name}");
        }
    }

    #[test]
    fn the_package_name_is_read_from_its_table() {
        let manifest =
            "[lib]\nname = \"x\"\n[package]\nedition = \"2021\"\nname = \"clap_builder\"\n";
        assert_eq!(package_name(manifest).as_deref(), Some("clap_builder"));
        assert_eq!(
            version_word("rustc 1.95.0 (59807616e 2026-04-14)"),
            "1.95.0"
        );
    }
}
