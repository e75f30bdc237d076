//! The tsc oracle: the TypeScript checker's own binding of every call, construction,
//! tagged template, decorator and JSX component element of a TypeScript or JavaScript
//! tree, through the compiler API.
//!
//! The helper `oracles/tsc/calls.js` is embedded in this crate and run by the
//! machine's `node` against the pinned checker installed in `oracles/tsc/node_modules`
//! (`npm ci` there, which `make setup` does; typescript and @types/node are pinned by
//! the committed package-lock.json). `CALLGRAPH_TSC_MODULES` names another
//! node_modules holding the same pins. The helper writes one JSON line per site in the
//! shape of a truth site; this adapter reads them, checks them, sorts them and stamps
//! the truth.
//!
//! What the truth says (the helper's header says the same):
//! - a site is named as the source writes it: `b` for `a.b()`, the class for
//!   `new ns.X()`, `super` for `super(...)`, the tag's last segment for a component
//!   element `<Foo.Bar/>` (lowercase intrinsic tags are not sites); its column is the
//!   UTF-8 byte column of that name token (`oracle.column` = `name`), converted from
//!   the checker's UTF-16 offsets; lines count `\n` only, as the engine does;
//! - its targets are the declaration of the signature the checker resolved (the
//!   overload chosen) and the declaration of the callee's symbol (aliases followed),
//!   both acceptable, by their name line: a function, method or class name; for
//!   `const f = () => …` the const's name; a construction reaches the constructor when
//!   the class declares one, else the class; an interface's method signature is a
//!   declaration too (as javac binds an interface method). When neither is in the tree,
//!   the site is `outside` (lib.*.d.ts, anything under node_modules or @types, or
//!   outside the root), its symbol informative (`lib.es5.d.ts:Array.map`);
//! - `unjudged`: `unresolved` (the checker binds nothing: an absent module, `any`),
//!   `no_declaration` (a symbol whose declaration is no function body, e.g. a variable
//!   holding a call's result), `indirect` (a call through a parameter, a property
//!   signature or a variable whose declaration is a function TYPE: the value passed
//!   is not known), `dynamic_callee` (no name token: `f()()`, `a[k]()`, named `()` at
//!   its `(`);
//! - the caller is the innermost enclosing function, method, constructor, accessor or
//!   lambda (a class member initializer's: the class); top-level code has none;
//! - the programs are the ones the engine reads (engine/src/lang/typescript/project.rs):
//!   each `tsconfig.json` / `jsconfig.json` of the tree (and each config their
//!   `references` name) with its own files and options, then one program of the files
//!   no config holds with the helper's defaults; the corpus's build configuration
//!   (`compiler_options`) over every program's options. A file is judged in the first
//!   program that reads it; a file some config holds and no program reads has no site.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::javac::truth_from_lines;
use crate::oracle::{Oracle, OracleOptions};
use crate::toolchain::{Outcome, Tool};
use crate::truth::{OracleStamp, Truth};

/// The adapter's version: bump it when what the truth says changes (the helper's text
/// is pinned by a test, so changing it asks for a bump). Truths are cached by it.
pub const ADAPTER_VERSION: &str = "2";

/// The sha256 of [`HELPER_SOURCE`] this adapter version was written for.
#[cfg(test)]
const HELPER_SHA256: &str = "f28827e3bc7eca93c43bbbbd792c2971001a866e08050e94c79711e8cb1931aa";

/// The helper's source, embedded so the binary needs no checkout beside it.
pub const HELPER_SOURCE: &str = include_str!("../tsc/calls.js");

/// The committed manifest pinning the checker (`npm ci` installs from its lock).
pub const PACKAGE_JSON: &str = include_str!("../tsc/package.json");

/// The environment variable naming the node_modules that holds the pinned checker.
pub const MODULES_ENV: &str = "CALLGRAPH_TSC_MODULES";

const TOOL: &str = "tsc";

/// The extensions the checker reads: TypeScript, TSX and JavaScript in every module
/// flavour.
pub const EXTENSIONS: &[&str] = &["ts", "tsx", "mts", "cts", "js", "jsx", "mjs", "cjs"];

/// The node heap the helper may use, in MiB (a whole-program check of a large tree).
const HEAP_MIB: u32 = 6144;

/// The tsc oracle.
#[derive(Debug, Clone, Copy, Default)]
pub struct Tsc;

/// `oracle.options` of a tsc corpus. Compiler options are not among them: they are
/// the corpus's build configuration (`build.compiler_options`), which the engine is
/// given too, so that both read one program.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TscOptions {
    /// Files not given to the checker, by file name or path relative to the root.
    #[serde(default)]
    pub exclude: Vec<String>,
}

/// The compiler options of the corpus's build configuration (`compiler_options`,
/// as a tsconfig.json writes them: `"jsx": "react-jsx"`, `"module": "commonjs"`,
/// `"paths"` relative to the root), over every program's options; `{}` for the
/// default build.
pub fn build_compiler_options(build: &serde_json::Value) -> Result<serde_json::Value, String> {
    match build.get("compiler_options") {
        None | Some(serde_json::Value::Null) => Ok(serde_json::json!({})),
        Some(o @ serde_json::Value::Object(_)) => Ok(o.clone()),
        Some(other) => Err(format!(
            "build.compiler_options for tsc: expected an object, found {other}"
        )),
    }
}

impl TscOptions {
    /// Reads the options of corpora.json; `null` is the defaults.
    pub fn from_json(value: &serde_json::Value) -> Result<TscOptions, String> {
        if value.is_null() {
            return Ok(TscOptions::default());
        }
        serde_json::from_value(value.clone()).map_err(|e| format!("oracle options for tsc: {e}"))
    }
}

impl Oracle for Tsc {
    fn name(&self) -> &'static str {
        "tsc"
    }

    fn version(&self) -> &'static str {
        ADAPTER_VERSION
    }

    /// `typescript 5.9.3 (@types/node 20.19.25), node v20.20.2`: the installed checker,
    /// refused when it is not the pinned one.
    fn toolchain_version(&self) -> Result<String, Outcome> {
        let node = Tool::locate("node")?;
        let modules = modules_dir()?;
        let checker = checker_version(&modules)?;
        let node_version = node.version(&["--version"])?;
        Ok(format!("typescript {checker}, node {node_version}"))
    }

    fn run(&self, corpus_dir: &Path, options: &OracleOptions<'_>) -> Result<Truth, Outcome> {
        let tsc_options = TscOptions::from_json(options.options).map_err(failed)?;
        let node = Tool::locate("node")?;
        self.toolchain_version()?;
        let modules = modules_dir()?;
        let root = corpus_dir
            .canonicalize()
            .map_err(|e| failed(format!("cannot read the root: {e}")))?;
        let work = absolute_dir(options.work_dir)?;

        let files = source_files(&root, &tsc_options.exclude)
            .map_err(|e| failed(format!("cannot list the tree: {e}")))?;
        if files.is_empty() {
            return Err(failed(
                "no TypeScript or JavaScript file under the root".into(),
            ));
        }
        let list = work.join("files.txt");
        std::fs::write(&list, files.join("\n") + "\n")
            .map_err(|e| failed(format!("cannot write the file list: {e}")))?;
        let configs = config_files(&root)
            .map_err(|e| failed(format!("cannot list the tree's configs: {e}")))?;
        let config_list = work.join("configs.txt");
        std::fs::write(&config_list, configs.join("\n") + "\n")
            .map_err(|e| failed(format!("cannot write the config list: {e}")))?;
        let helper = work.join("calls.js");
        std::fs::write(&helper, HELPER_SOURCE)
            .map_err(|e| failed(format!("cannot write the helper: {e}")))?;
        let out = work.join("sites.jsonl");
        let compiler_options = build_compiler_options(options.build).map_err(failed)?;

        let finished = node
            .command(&work)
            .arg(format!("--max-old-space-size={HEAP_MIB}"))
            .arg(&helper)
            .arg("--modules")
            .arg(&modules)
            .arg("--root")
            .arg(&root)
            .arg("--files")
            .arg(&list)
            .arg("--out")
            .arg(&out)
            .arg("--options")
            .arg(compiler_options.to_string())
            .arg("--configs")
            .arg(&config_list)
            .timeout(options.timeout)
            .run()?;

        let text =
            std::fs::read_to_string(&out).map_err(|e| failed(finished.wrote_no(&out, &e)))?;
        if text.trim().is_empty() {
            return Err(failed("the checker found no call in the tree".into()));
        }
        let stamp = OracleStamp::at_name("tsc", checker_version(&modules)?, ADAPTER_VERSION);
        truth_from_lines(options.corpus_id, stamp, &text).map_err(failed)
    }
}

/// The node_modules holding the pinned checker: `CALLGRAPH_TSC_MODULES`, else
/// `oracles/tsc/node_modules` of this checkout. Absent is `tool_missing`.
pub fn modules_dir() -> Result<PathBuf, Outcome> {
    let dir = match std::env::var_os(MODULES_ENV) {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("tsc/node_modules"),
    };
    modules_dir_at(&dir)
}

/// `dir` when it holds typescript, resolved; else `tool_missing`.
pub fn modules_dir_at(dir: &Path) -> Result<PathBuf, Outcome> {
    if !dir.join("typescript/package.json").is_file() {
        return Err(Outcome::ToolMissing {
            tool: TOOL.into(),
            detail: format!(
                "no typescript under {}: run `npm ci` in oracles/tsc (make setup) or set {MODULES_ENV}",
                dir.display()
            ),
        });
    }
    dir.canonicalize()
        .map_err(|e| failed(format!("cannot resolve {}: {e}", dir.display())))
}

/// `5.9.3 (@types/node 20.19.25)`: the pinned checker as installed under `modules`.
fn checker_version(modules: &Path) -> Result<String, Outcome> {
    let typescript = installed_version(modules, "typescript")?;
    let types_node = installed_version(modules, "@types/node")?;
    Ok(format!("{typescript} (@types/node {types_node})"))
}

/// The version of `package` installed under `modules`, refused unless it is the one
/// oracles/tsc/package.json pins.
fn installed_version(modules: &Path, package: &str) -> Result<String, Outcome> {
    let manifest = modules.join(package).join("package.json");
    let installed = package_version(&manifest).ok_or_else(|| Outcome::ToolMissing {
        tool: TOOL.into(),
        detail: format!(
            "{package} is not installed under {}: run `npm ci` in oracles/tsc",
            modules.display()
        ),
    })?;
    let pinned = pinned_version(package)
        .ok_or_else(|| failed(format!("oracles/tsc/package.json pins no {package}")))?;
    if installed != pinned {
        return Err(failed(format!(
            "installed {package} {installed} is not the pinned {pinned}: run `npm ci` in oracles/tsc"
        )));
    }
    Ok(installed)
}

fn package_version(manifest: &Path) -> Option<String> {
    let text = std::fs::read_to_string(manifest).ok()?;
    let value: serde_json::Value = serde_json::from_str(&text).ok()?;
    value.get("version")?.as_str().map(str::to_string)
}

/// The exact version the committed package.json pins for `package`.
pub fn pinned_version(package: &str) -> Option<String> {
    let value: serde_json::Value = serde_json::from_str(PACKAGE_JSON).ok()?;
    value
        .get("dependencies")?
        .get(package)?
        .as_str()
        .map(str::to_string)
}

/// Every TypeScript / JavaScript file under `root` (links not followed, node_modules
/// skipped), relative, `/`-separated, sorted, without those `exclude` names by file
/// name or relative path.
pub fn source_files(root: &Path, exclude: &[String]) -> std::io::Result<Vec<String>> {
    let mut found = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir)? {
            let entry = entry?;
            let kind = entry.file_type()?;
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            if kind.is_dir() {
                if name != "node_modules" {
                    stack.push(path);
                }
                continue;
            }
            let wanted = path
                .extension()
                .is_some_and(|e| EXTENSIONS.iter().any(|x| e == *x));
            if !kind.is_file() || !wanted {
                continue;
            }
            let relative = path
                .strip_prefix(root)
                .expect("walked under the root")
                .components()
                .map(|c| c.as_os_str().to_string_lossy())
                .collect::<Vec<_>>()
                .join("/");
            if !exclude.iter().any(|x| *x == name || *x == relative) {
                found.push(relative);
            }
        }
    }
    found.sort();
    Ok(found)
}

/// The tree's `tsconfig.json` and `jsconfig.json` (relative, sorted), as the engine's
/// discovery finds them: not under `node_modules`, not under a hidden directory.
pub fn config_files(root: &Path) -> std::io::Result<Vec<String>> {
    let mut found = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir)? {
            let entry = entry?;
            let kind = entry.file_type()?;
            let name = entry.file_name().to_string_lossy().into_owned();
            if kind.is_dir() {
                if name != "node_modules" && !name.starts_with('.') {
                    stack.push(entry.path());
                }
                continue;
            }
            if kind.is_file() && (name == "tsconfig.json" || name == "jsconfig.json") {
                let relative = entry
                    .path()
                    .strip_prefix(root)
                    .expect("walked under the root")
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy())
                    .collect::<Vec<_>>()
                    .join("/");
                found.push(relative);
            }
        }
    }
    found.sort();
    Ok(found)
}

fn absolute_dir(path: &Path) -> Result<PathBuf, Outcome> {
    crate::toolchain::absolute_dir(TOOL, path)
}

fn failed(detail: String) -> Outcome {
    Outcome::tool_failed(TOOL, detail)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_changed_helper_asks_for_a_new_adapter_version() {
        let actual = crate::toolchain::sha256_hex(HELPER_SOURCE);
        assert_eq!(
            actual, HELPER_SHA256,
            "oracles/tsc/calls.js changed: bump ADAPTER_VERSION (cached truths are keyed by it) \
             and set HELPER_SHA256"
        );
    }

    #[test]
    fn the_checker_is_pinned_exactly() {
        assert_eq!(pinned_version("typescript").as_deref(), Some("5.9.3"));
        assert_eq!(pinned_version("@types/node").as_deref(), Some("20.19.25"));
        assert_eq!(pinned_version("react"), None);
    }

    #[test]
    fn options_are_checked() {
        let ok = serde_json::json!({"exclude": ["vendor.js"]});
        let parsed = TscOptions::from_json(&ok).unwrap();
        assert_eq!(parsed.exclude, vec!["vendor.js".to_string()]);
        assert_eq!(
            TscOptions::from_json(&serde_json::Value::Null).unwrap(),
            TscOptions::default()
        );
        // Compiler options are the build configuration's, never the oracle's alone.
        for bad in [
            serde_json::json!({"compileroptions": {}}),
            serde_json::json!({"compilerOptions": {"jsx": "react-jsx"}}),
        ] {
            assert!(TscOptions::from_json(&bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn compiler_options_come_from_the_build_configuration() {
        let build = serde_json::json!({"compiler_options": {"module": "commonjs"}});
        assert_eq!(
            build_compiler_options(&build).unwrap(),
            serde_json::json!({"module": "commonjs"})
        );
        assert_eq!(
            build_compiler_options(&serde_json::Value::Null).unwrap(),
            serde_json::json!({})
        );
        assert!(build_compiler_options(&serde_json::json!({"compiler_options": []})).is_err());
    }

    #[test]
    fn configs_are_listed_as_discovery_finds_them() {
        let dir = tempfile::tempdir().unwrap();
        for f in [
            "tsconfig.json",
            "packages/a/tsconfig.json",
            "web/jsconfig.json",
            "tsconfig.base.json",
            "node_modules/x/tsconfig.json",
            ".hidden/tsconfig.json",
        ] {
            let path = dir.path().join(f);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, "{}").unwrap();
        }
        assert_eq!(
            config_files(dir.path()).unwrap(),
            [
                "packages/a/tsconfig.json",
                "tsconfig.json",
                "web/jsconfig.json"
            ]
        );
    }

    #[test]
    fn the_tree_is_listed_by_extension_without_node_modules() {
        let dir = tempfile::tempdir().unwrap();
        for f in [
            "src/a.ts",
            "src/b.tsx",
            "lib/c.js",
            "lib/d.cjs",
            "lib/e.d.ts",
            "node_modules/x/index.js",
            "README.md",
            "skip.js",
        ] {
            let path = dir.path().join(f);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, "").unwrap();
        }
        let files = source_files(dir.path(), &["skip.js".into()]).unwrap();
        assert_eq!(
            files,
            [
                "lib/c.js",
                "lib/d.cjs",
                "lib/e.d.ts",
                "src/a.ts",
                "src/b.tsx"
            ]
        );
    }
}
