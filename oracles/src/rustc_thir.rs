//! The rustc oracle (adapter 3): rustc's own resolution of every body, read from its
//! THIR and HIR dumps.
//!
//! The crate is copied under the cache (the analysed tree is never written to), given
//! the committed lock file `oracles/rust/<lock>/Cargo.lock` (`--locked`), and for each
//! cargo target of `oracle.options.targets` compiled twice, once per dump:
//!
//! `RUSTC_BOOTSTRAP=<that crate> cargo rustc --locked <target> [--features …]
//! -- -Zunpretty=thir-flat -o thir.txt` (and `hir-tree`)
//!
//! `RUSTC_BOOTSTRAP` names only the crate dumped, so its dependencies build as on a
//! stable compiler. The THIR holds every body's calls with the callee the type checker
//! chose — generic functions never instantiated, trait default methods and `dyn`
//! calls too, which the LLVM IR ([`crate::rustc`], now the second reading) never has;
//! the HIR maps each callee to its declaration's line ([`crate::thir_truth`] says how
//! a site is named, judged or set apart). A target other than the library (an
//! integration test) reaches the library through its `DefId`s: the library's HIR as
//! that target links it (the library built without `cfg(test)`) places them.
//!
//! The corpus's build configuration (`OracleOptions::build`) is the compiled one:
//! `feature="x"` in its `cfg` list becomes `--features x`, any other cfg a rustc
//! `--cfg`, `no_default_features` `--no-default-features`.
//!
//! The dumps are rustc's unstable debug output: the adapter reads the format of rustc
//! [`THIR_FORMAT_RUSTC`] and refuses another version (`tool_failed`) rather than
//! misread it.

use std::path::{Path, PathBuf};

use crate::oracle::{Oracle, OracleOptions};
use crate::rust_hir::Hir;
use crate::rustc::{
    absolute_dir, copy_tree, standalone_manifest, version_word, RustcOptions, LOCKS,
};
use crate::thir_truth::ThirSites;
use crate::toolchain::{Outcome, Tool};
use crate::truth::{OracleStamp, Truth, TRUTH_SCHEMA};

/// Bumped whenever what the adapter emits changes (truths are cached by it). Adapter 3
/// of the `rustc` oracle: the first read from the THIR (1 and 2 read the LLVM IR).
pub const ADAPTER_VERSION: &str = "3";

/// The rustc whose `-Zunpretty=thir-flat` and `hir-tree` output the readers parse.
pub const THIR_FORMAT_RUSTC: &str = "1.95.0";

const TOOL: &str = "rustc";

/// The rustc THIR oracle.
#[derive(Debug, Clone, Copy, Default)]
pub struct RustcThir;

impl Oracle for RustcThir {
    fn name(&self) -> &'static str {
        "rustc"
    }

    fn version(&self) -> &'static str {
        ADAPTER_VERSION
    }

    fn toolchain_version(&self) -> Result<String, Outcome> {
        Tool::locate("rustc")?.version(&["--version"])
    }

    fn run(&self, corpus_dir: &Path, options: &OracleOptions<'_>) -> Result<Truth, Outcome> {
        let rust_options = RustcOptions::from_json(options.options).map_err(failed)?;
        let build = BuildFlags::from_json(options.build).map_err(failed)?;
        let cargo = Tool::locate("cargo")?;
        let version = version_word(&self.toolchain_version()?);
        dump_format_known(&version)?;
        let root = corpus_dir
            .canonicalize()
            .map_err(|e| failed(format!("cannot read the root: {e}")))?;
        let cache = absolute_dir(
            &options
                .cache_dir
                .join("oracles")
                .join("rustc-thir")
                .join(options.corpus_id),
        )?;
        let work = absolute_dir(options.work_dir)?;
        let copy = cache.join("crate");
        let package = prepare_copy(&root, &copy, &rust_options)?;
        let cargo_build = Build {
            cargo: &cargo,
            copy: &copy,
            target_dir: cache.join("target"),
            work: &work,
            pinning: if rust_options.lock.is_some() {
                "--locked"
            } else {
                "--offline"
            },
            flags: &build,
            timeout: options.timeout,
        };

        let mut sites = ThirSites::new(&root);
        let mut library: Option<Hir> = None;
        for (n, target) in rust_options.targets.iter().enumerate() {
            let crate_name = target_crate(target, &package);
            let hir = Hir::parse(&cargo_build.dump(target, &crate_name, "hir-tree", n)?);
            let bodies =
                crate::thir::parse(&cargo_build.dump(target, &crate_name, "thir-flat", n)?);
            let is_library = target.first().map(String::as_str) == Some("--lib");
            if !is_library && library.is_none() && package.has_library {
                let lib = vec!["--lib".to_string()];
                let text = cargo_build.dump(&lib, &package.library, "hir-tree", usize::MAX)?;
                library = Some(Hir::parse(&text));
            }
            let others: Vec<&Hir> = match (&library, is_library) {
                (Some(lib), false) => vec![lib],
                _ => vec![],
            };
            sites.add(&hir, &others, &bodies);
        }
        let sites = sites.finish();
        if sites.is_empty() {
            return Err(failed("the THIR holds no call site in the tree".into()));
        }
        let truth = Truth {
            schema: TRUTH_SCHEMA.into(),
            corpus: options.corpus_id.into(),
            oracle: OracleStamp::at_name("rustc", version, ADAPTER_VERSION),
            shape: None,
            sites,
            references: None,
            pairs: Vec::new(),
        };
        truth
            .validate("rustc oracle")
            .map_err(|e| failed(e.to_string()))?;
        Ok(truth)
    }
}

/// The dumps are unstable output: only the format of rustc [`THIR_FORMAT_RUSTC`] is
/// read, another rustc is refused rather than misread.
fn dump_format_known(version: &str) -> Result<(), Outcome> {
    if version == THIR_FORMAT_RUSTC {
        return Ok(());
    }
    Err(failed(format!(
        "the THIR and HIR readers know the dumps of rustc {THIR_FORMAT_RUSTC}, not of rustc {version}"
    )))
}

/// What the copied package is called.
struct Package {
    /// The library's crate name (`[lib] name`, else the package's with `-` as `_`).
    library: String,
    has_library: bool,
}

/// Copies the tree into `copy` with the committed lock and the stand-in modules.
fn prepare_copy(root: &Path, copy: &Path, options: &RustcOptions) -> Result<Package, Outcome> {
    let _ = std::fs::remove_dir_all(copy);
    copy_tree(root, copy).map_err(|e| failed(format!("cannot copy the crate: {e}")))?;
    let _ = std::fs::remove_file(copy.join("Cargo.lock"));
    if let Some(wanted) = &options.lock {
        let text = LOCKS
            .iter()
            .find(|(name, _)| name == wanted)
            .map(|(_, text)| *text)
            .expect("checked by RustcOptions::from_json");
        std::fs::write(copy.join("Cargo.lock"), text)
            .map_err(|e| failed(format!("cannot write Cargo.lock: {e}")))?;
    }
    let package = standalone_manifest(&copy.join("Cargo.toml"))?;
    for module in &options.empty_modules {
        let path = copy.join(module);
        if !path.exists() {
            std::fs::write(&path, "").map_err(|e| failed(format!("cannot write {module}: {e}")))?;
        }
    }
    let manifest = std::fs::read_to_string(copy.join("Cargo.toml")).unwrap_or_default();
    let library = table_value(&manifest, "lib", "name")
        .map(|n| n.replace('-', "_"))
        .unwrap_or(package);
    let has_library =
        copy.join("src/lib.rs").exists() || table_value(&manifest, "lib", "path").is_some();
    Ok(Package {
        library,
        has_library,
    })
}

/// The crate a target selection compiles: the library's name, or the named target's
/// (`--test integration` → `integration`).
fn target_crate(target: &[String], package: &Package) -> String {
    match target.first().map(String::as_str) {
        Some("--lib") | None => package.library.clone(),
        Some(_) => target
            .get(1)
            .map_or_else(|| package.library.clone(), |n| n.replace('-', "_")),
    }
}

/// `key = "…"` of `[table]` in a manifest.
fn table_value(manifest: &str, table: &str, key: &str) -> Option<String> {
    let header = format!("[{table}]");
    let mut inside = false;
    for line in manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            inside = line == header;
            continue;
        }
        if !inside {
            continue;
        }
        let Some((k, v)) = line.split_once('=') else {
            continue;
        };
        if k.trim() == key {
            return Some(v.trim().trim_matches('"').to_string());
        }
    }
    None
}

/// The corpus's build configuration as cargo and rustc arguments.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BuildFlags {
    /// `--no-default-features`, `--features a,b`.
    pub cargo: Vec<String>,
    /// `--cfg name` for each cfg that is not a feature.
    pub rustc: Vec<String>,
}

impl BuildFlags {
    /// Reads `{"cfg": [...], "no_default_features": bool}` (null or `{}`: the
    /// default build); the other languages' keys are not Rust's business.
    pub fn from_json(build: &serde_json::Value) -> Result<BuildFlags, String> {
        let mut flags = BuildFlags::default();
        if build.is_null() {
            return Ok(flags);
        }
        let object = build
            .as_object()
            .ok_or("the build configuration is not an object")?;
        if object.get("no_default_features").and_then(|v| v.as_bool()) == Some(true) {
            flags.cargo.push("--no-default-features".into());
        }
        let mut features = Vec::new();
        for cfg in object
            .get("cfg")
            .and_then(|v| v.as_array())
            .into_iter()
            .flatten()
        {
            let cfg = cfg.as_str().ok_or("a cfg option is not a string")?;
            let plain = cfg
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "_-=\"/".contains(c));
            if !plain {
                return Err(format!("`{cfg}` is not a cfg option"));
            }
            match cfg
                .strip_prefix("feature=\"")
                .and_then(|f| f.strip_suffix('"'))
            {
                Some(feature) => features.push(feature.to_string()),
                None => flags.rustc.extend(["--cfg".to_string(), cfg.to_string()]),
            }
        }
        if !features.is_empty() {
            flags
                .cargo
                .extend(["--features".to_string(), features.join(",")]);
        }
        Ok(flags)
    }
}

/// The cargo build the dumps come from.
struct Build<'b> {
    cargo: &'b Tool,
    copy: &'b Path,
    target_dir: PathBuf,
    work: &'b Path,
    pinning: &'static str,
    flags: &'b BuildFlags,
    timeout: std::time::Duration,
}

impl Build<'_> {
    /// Compiles `target` with `-Zunpretty=<mode>` and returns the dump.
    fn dump(
        &self,
        target: &[String],
        crate_name: &str,
        mode: &str,
        n: usize,
    ) -> Result<String, Outcome> {
        let out = self.work.join(format!("{mode}-{n}.txt"));
        let _ = std::fs::remove_file(&out);
        self.cargo
            .command(self.copy)
            .args(["rustc", self.pinning, "--quiet"])
            .args(target)
            .args(&self.flags.cargo)
            .arg("--")
            .arg(format!("-Zunpretty={mode}"))
            .arg("-o")
            .arg(&out)
            .args(&self.flags.rustc)
            .env("RUSTC_BOOTSTRAP", crate_name)
            .env("CARGO_TARGET_DIR", &self.target_dir)
            .env("CARGO_INCREMENTAL", "0")
            .env("CARGO_TERM_COLOR", "never")
            .env("CARGO_PROFILE_DEV_OPT_LEVEL", "0")
            .env("CARGO_PROFILE_TEST_OPT_LEVEL", "0")
            .timeout(self.timeout)
            .run()?;
        let text = std::fs::read_to_string(&out).map_err(|e| {
            failed(format!(
                "cargo rustc {} -Zunpretty={mode} wrote no dump: {e}",
                target.join(" ")
            ))
        })?;
        let _ = std::fs::remove_file(&out);
        Ok(text)
    }
}

fn failed(detail: String) -> Outcome {
    Outcome::tool_failed(TOOL, detail)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_build_configuration_becomes_features_and_cfgs() {
        let build = serde_json::json!({"cfg": ["feature=\"unicode\"", "feature=\"env\"", "docsrs"],
                                       "no_default_features": true});
        let flags = BuildFlags::from_json(&build).unwrap();
        assert_eq!(
            flags.cargo,
            ["--no-default-features", "--features", "unicode,env"]
        );
        assert_eq!(flags.rustc, ["--cfg", "docsrs"]);
        assert_eq!(
            BuildFlags::from_json(&serde_json::Value::Null).unwrap(),
            BuildFlags::default()
        );
        assert!(BuildFlags::from_json(&serde_json::json!({"cfg": ["a b"]})).is_err());
    }

    #[test]
    fn only_the_pinned_rustc_is_read() {
        assert!(dump_format_known("1.95.0").is_ok());
        let refused = dump_format_known("1.96.0").unwrap_err();
        assert_eq!(refused.token(), "tool_failed");
    }

    #[test]
    fn a_target_names_its_crate() {
        let package = Package {
            library: "clap_builder".into(),
            has_library: true,
        };
        let lib = ["--lib".to_string(), "--profile".into(), "test".into()];
        assert_eq!(target_crate(&lib, &package), "clap_builder");
        let test = ["--test".to_string(), "suite-a".into()];
        assert_eq!(target_crate(&test, &package), "suite_a");
        let manifest = "[package]\nname = \"x\"\n[lib]\nname = \"y-z\"\npath = \"src/l.rs\"\n";
        assert_eq!(table_value(manifest, "lib", "name").as_deref(), Some("y-z"));
        assert_eq!(table_value(manifest, "package", "path"), None);
    }
}
