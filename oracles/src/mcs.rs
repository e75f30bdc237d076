//! The mcs oracle: Mono's C# compiler's binding of every call, construction and
//! method-group reference, read from the IL it emits with debug symbols.
//!
//! Roslyn is not reachable from any registry this project uses (research §2.1); Debian's
//! `mono-devel` ships mcs, Mono.Cecil and mcs as a library (`Mono.CSharp.dll`). The
//! adapter:
//! 1. compiles each unit of the corpus (`oracle.options.units`: an assembly, its source
//!    subtrees, references and pkg-config packages, the units it references) with
//!    `mcs -debug` and the build's defines (`build.defines`, the same `--define`s the
//!    engine gets, so both read one `#if` configuration);
//! 2. compiles its helper `oracles/csharp/CallTruth.cs` once per helper text and mcs
//!    version into the cache, against the GAC's Mono.Cecil 0.11 and Mono.CSharp;
//! 3. runs it: declarations from mcs's parser (parse only, the same defines), IL calls
//!    with their `.mdb` sequence points and bound methods from Cecil;
//! 4. normalises its lines into the truth ([`crate::mcs_truth`]).
//!
//! What the truth says is in docs/PROTOCOL.md §14 and DECISIONS D41.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;
use sha2::{Digest, Sha256};

use crate::mcs_text::SourceText;
use crate::mcs_truth::{truth_from_helper, VirtualRule};
use crate::oracle::{Oracle, OracleOptions};
use crate::toolchain::{Outcome, Tool};
use crate::truth::{OracleStamp, Truth};

/// The adapter's version: bump it when what the truth says changes (the helper's text
/// is pinned by a test, so changing it asks for a bump). Truths are cached by it.
pub const ADAPTER_VERSION: &str = "2";

/// The sha256 of [`HELPER_SOURCE`] this adapter version was written for.
#[cfg(test)]
const HELPER_SHA256: &str = "df7e259114ac71fb7d4841fb9ce1d2eceed7986c07d98178f7f1a13e2d3c65ca";

/// The helper's source, embedded so the binary needs no checkout beside it.
pub const HELPER_SOURCE: &str = include_str!("../csharp/CallTruth.cs");

const TOOL: &str = "mcs";

/// The Mono.Cecil the helper is built against: the 0.11 line in the GAC (the 0.9.5
/// there too has another API).
const CECIL_VERSION_PREFIX: &str = "0.11.";

/// The mcs oracle.
#[derive(Debug, Clone, Copy, Default)]
pub struct Mcs;

/// `oracle.options` of an mcs corpus.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct McsOptions {
    /// The assemblies the corpus builds, in build order.
    pub units: Vec<UnitOptions>,
    /// The .NET Framework the project files target (`TargetFrameworkVersion`, v2.0
    /// when absent): compiled against Mono's reference assemblies of it
    /// (`lib/mono/<framework>-api`, `mcs -sdk:<framework>-api`), so calls bind to the
    /// API that framework has, not to what Mono's own runtime adds (its 4.5 mscorlib
    /// has `string.StartsWith(char)`, which .NET 4.5 has not).
    pub framework: String,
    /// Whether a virtual call accepts every in-tree override of its slot (D41); off,
    /// only the declaration the IL names.
    #[serde(default = "yes")]
    pub override_chain: bool,
}

fn yes() -> bool {
    true
}

/// One assembly of the corpus, as its project file builds it.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitOptions {
    /// The assembly name (`Newtonsoft.Json`).
    pub name: String,
    /// `library`, `exe` or `winexe`.
    #[serde(default = "library")]
    pub target: String,
    /// Directories (every `.cs` below, sorted) or files, relative to the root.
    pub sources: Vec<String>,
    /// Files or directories under `sources` the project file does not compile (files
    /// needing assemblies Debian does not package), relative to the root. The engine
    /// still reads them; the truth has no site there (docs/PROTOCOL.md §14).
    #[serde(default)]
    pub exclude: Vec<String>,
    /// Framework assemblies by name (`System.Xml`), as `-r:`.
    #[serde(default)]
    pub references: Vec<String>,
    /// pkg-config packages (`nunit`), as `-pkg:`.
    #[serde(default)]
    pub packages: Vec<String>,
    /// Earlier units this one references.
    #[serde(default)]
    pub units: Vec<String>,
    /// `-unsafe`.
    #[serde(default, rename = "unsafe")]
    pub allow_unsafe: bool,
}

fn library() -> String {
    "library".into()
}

impl McsOptions {
    /// Reads and checks the options of corpora.json.
    pub fn from_json(value: &serde_json::Value) -> Result<McsOptions, String> {
        let options: McsOptions = serde_json::from_value(value.clone())
            .map_err(|e| format!("oracle options for mcs: {e}"))?;
        if options.units.is_empty() {
            return Err("oracle options for mcs: no units".into());
        }
        let version = options.framework.split('.').collect::<Vec<_>>();
        if version.len() < 2
            || version
                .iter()
                .any(|p| p.is_empty() || !p.chars().all(|c| c.is_ascii_digit()))
        {
            return Err(format!(
                "oracle options for mcs: framework `{}` is not a version such as 4.5",
                options.framework
            ));
        }
        let mut seen: Vec<&str> = Vec::new();
        for unit in &options.units {
            let plain = |s: &str| {
                !s.is_empty()
                    && s.chars()
                        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))
            };
            if !plain(&unit.name) || seen.contains(&unit.name.as_str()) {
                return Err(format!(
                    "oracle options for mcs: bad unit name `{}`",
                    unit.name
                ));
            }
            if !matches!(unit.target.as_str(), "library" | "exe" | "winexe") {
                return Err(format!(
                    "oracle options for mcs: bad target `{}`",
                    unit.target
                ));
            }
            if let Some(bad) = unit
                .references
                .iter()
                .chain(&unit.packages)
                .find(|r| !plain(r))
            {
                return Err(format!("oracle options for mcs: bad reference `{bad}`"));
            }
            if let Some(bad) = unit.units.iter().find(|u| !seen.contains(&u.as_str())) {
                return Err(format!(
                    "oracle options for mcs: unit `{}` references `{bad}`, which is not built before it",
                    unit.name
                ));
            }
            if let Some(bad) = unit
                .sources
                .iter()
                .chain(&unit.exclude)
                .find(|s| !relative_inside(s))
            {
                return Err(format!(
                    "oracle options for mcs: source `{bad}` must be a relative path inside the root"
                ));
            }
            seen.push(&unit.name);
        }
        Ok(options)
    }
}

fn relative_inside(path: &str) -> bool {
    !path.is_empty()
        && Path::new(path)
            .components()
            .all(|c| matches!(c, std::path::Component::Normal(_)))
}

/// The conditional symbols of the build (`build.defines`): C# symbols have no values.
pub fn defines_of(build: &serde_json::Value) -> Result<Vec<String>, String> {
    let Some(list) = build.get("defines") else {
        return Ok(Vec::new());
    };
    let list = list
        .as_array()
        .ok_or("build.defines must be a list of symbols")?;
    let mut out = Vec::new();
    for d in list {
        let symbol = d.as_str().unwrap_or_default();
        let ok = symbol
            .chars()
            .next()
            .is_some_and(|c| c.is_alphabetic() || c == '_')
            && symbol.chars().all(|c| c.is_alphanumeric() || c == '_');
        if !ok {
            return Err(format!(
                "build.defines: `{d}` is not a C# conditional symbol (C# symbols take no value)"
            ));
        }
        out.push(symbol.to_string());
    }
    Ok(out)
}

impl Oracle for Mcs {
    fn name(&self) -> &'static str {
        "mcs"
    }

    fn version(&self) -> &'static str {
        ADAPTER_VERSION
    }

    fn toolchain_version(&self) -> Result<String, Outcome> {
        mcs_version()
    }

    fn run(&self, corpus_dir: &Path, options: &OracleOptions<'_>) -> Result<Truth, Outcome> {
        let compiled = compile_corpus(corpus_dir, options)?;
        let Compiled {
            root,
            version,
            options: mcs_options,
            defines,
            units,
            files: all_files,
            ref_dirs,
            mono_lib,
        } = compiled;
        let mcs = Tool::locate("mcs")?;
        let mono = Tool::locate("mono")?;
        let cecil = cecil_in_gac(&mono_lib)?;
        let work = crate::toolchain::absolute_dir(TOOL, options.work_dir)?;
        let cache = crate::toolchain::absolute_dir(TOOL, &options.cache_dir.join("oracles"))?;
        let helper = build_helper(&mcs, &version, &cecil, &cache.join("mcs"), options.timeout)?;

        let out = work.join("calls.jsonl");
        let mut run = mono
            .command(&work)
            .arg(&helper)
            .arg("--root")
            .arg(&root)
            .arg("--defines")
            .arg(defines.join(";"))
            .arg("--out")
            .arg(&out)
            .timeout(options.timeout);
        for unit in &units {
            run = run
                .arg("--unit")
                .arg(&unit.name)
                .arg(&unit.assembly)
                .arg(&unit.list);
        }
        for dir in &ref_dirs {
            run = run.arg("--refdir").arg(dir);
        }
        run.run()?;

        let text = std::fs::read_to_string(&out)
            .map_err(|e| failed(format!("the helper wrote no sites: {e}")))?;
        let sources = read_sources(&root, &all_files)?;
        let rule = if mcs_options.override_chain {
            VirtualRule::OverrideChain
        } else {
            VirtualRule::IlOnly
        };
        let stamp = OracleStamp::at_name(TOOL, version, ADAPTER_VERSION);
        truth_from_helper(options.corpus_id, stamp, &text, &sources, rule)
            .map(|(truth, _)| truth)
            .map_err(failed)
    }
}

/// The installed mcs's version (`6.8.0.105`).
pub(crate) fn mcs_version() -> Result<String, Outcome> {
    // `Mono C# compiler version 6.8.0.105`
    let line = Tool::locate("mcs")?.version(&["--version"])?;
    Ok(line.rsplit(' ').next().unwrap_or(&line).to_string())
}

/// One compiled unit: its name, assembly (the `.mdb` beside it) and source list.
#[derive(Debug, Clone)]
pub(crate) struct CompiledUnit {
    pub name: String,
    pub assembly: PathBuf,
    pub list: PathBuf,
}

/// A corpus compiled as the mcs oracle compiles it, for both of its readings.
#[derive(Debug)]
pub(crate) struct Compiled {
    pub root: PathBuf,
    pub version: String,
    pub options: McsOptions,
    pub defines: Vec<String>,
    pub units: Vec<CompiledUnit>,
    /// Every compiled file, root-relative, in unit order.
    pub files: Vec<String>,
    /// The framework's and packages' assembly directories, sorted.
    pub ref_dirs: Vec<PathBuf>,
    pub mono_lib: PathBuf,
}

/// Compiles every unit of the corpus with `mcs -debug` into the work directory, in
/// build order: the one compile step both mcs readings share.
pub(crate) fn compile_corpus(
    corpus_dir: &Path,
    options: &OracleOptions<'_>,
) -> Result<Compiled, Outcome> {
    let mcs_options = McsOptions::from_json(options.options).map_err(failed)?;
    let defines = defines_of(options.build).map_err(failed)?;
    let mcs = Tool::locate("mcs")?;
    let mono = Tool::locate("mono")?;
    let version = mcs_version()?;
    let mono_lib = mono_lib_dir(&mono)?;
    let root = corpus_dir
        .canonicalize()
        .map_err(|e| failed(format!("cannot read the root: {e}")))?;
    let work = crate::toolchain::absolute_dir(TOOL, options.work_dir)?;
    let api = framework_dir(&mono_lib, &mcs_options.framework)?;
    let mut ref_dirs = vec![api.clone(), api.join("Facades")];
    let mut built: BTreeMap<String, PathBuf> = BTreeMap::new();
    let mut units = Vec::new();
    let mut all_files = Vec::new();
    for unit in &mcs_options.units {
        let files = unit_files(&root, &unit.sources, &unit.exclude)
            .map_err(|e| failed(format!("cannot list unit {}: {e}", unit.name)))?;
        if files.is_empty() {
            return Err(failed(format!("unit {} has no .cs file", unit.name)));
        }
        let list = work.join(format!("{}.sources", unit.name));
        std::fs::write(&list, files.join("\n") + "\n")
            .map_err(|e| failed(format!("cannot write the file list: {e}")))?;
        for package in &unit.packages {
            ref_dirs.extend(package_dirs(package, options.timeout)?);
        }
        let build = Build {
            framework: &mcs_options.framework,
            defines: &defines,
            built: &built,
        };
        let output = compile_unit(&mcs, unit, &root, &work, &list, &build, options)?;
        built.insert(unit.name.clone(), output.clone());
        units.push(CompiledUnit {
            name: unit.name.clone(),
            assembly: output,
            list,
        });
        all_files.extend(files);
    }
    ref_dirs.sort();
    ref_dirs.dedup();
    Ok(Compiled {
        root,
        version,
        options: mcs_options,
        defines,
        units,
        files: all_files,
        ref_dirs,
        mono_lib,
    })
}

/// `<prefix>/lib/mono`, from where the `mono` on PATH lives (`/usr/bin/mono`).
fn mono_lib_dir(mono: &Tool) -> Result<PathBuf, Outcome> {
    let real = mono
        .path
        .canonicalize()
        .map_err(|e| failed(format!("cannot resolve mono: {e}")))?;
    let prefix = real
        .parent()
        .and_then(Path::parent)
        .ok_or_else(|| failed("mono is not under a prefix".into()))?;
    let lib = prefix.join("lib").join("mono");
    if lib.join("4.5").is_dir() {
        Ok(lib)
    } else {
        Err(Outcome::ToolMissing {
            tool: TOOL.into(),
            detail: format!("no 4.5 framework under {}", lib.display()),
        })
    }
}

/// Mono's reference assemblies of a .NET Framework version (`lib/mono/4.5-api`).
fn framework_dir(mono_lib: &Path, framework: &str) -> Result<PathBuf, Outcome> {
    let dir = mono_lib.join(format!("{framework}-api"));
    if dir.join("mscorlib.dll").is_file() {
        Ok(dir)
    } else {
        Err(Outcome::ToolMissing {
            tool: TOOL.into(),
            detail: format!(
                "no reference assemblies of .NET {framework} in {} (Debian: mono-devel)",
                dir.display()
            ),
        })
    }
}

/// What every unit of one corpus is compiled with.
struct Build<'a> {
    framework: &'a str,
    defines: &'a [String],
    built: &'a BTreeMap<String, PathBuf>,
}

/// The GAC's Mono.Cecil of the 0.11 line (Debian's mono-devel ships it).
fn cecil_in_gac(mono_lib: &Path) -> Result<PathBuf, Outcome> {
    let dir = mono_lib.join("gac").join("Mono.Cecil");
    let mut found: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .filter(|e| {
                    e.file_name()
                        .to_string_lossy()
                        .starts_with(CECIL_VERSION_PREFIX)
                })
                .map(|e| e.path().join("Mono.Cecil.dll"))
                .filter(|p| p.is_file())
                .collect()
        })
        .unwrap_or_default();
    found.sort();
    found.pop().ok_or_else(|| Outcome::ToolMissing {
        tool: TOOL.into(),
        detail: format!(
            "no Mono.Cecil {CECIL_VERSION_PREFIX}x in {} (Debian: mono-devel)",
            dir.display()
        ),
    })
}

/// The directories of a pkg-config package's assemblies (`-r:/usr/lib/cli/…/x.dll`),
/// where the helper resolves calls into them.
fn package_dirs(package: &str, bound: Duration) -> Result<Vec<PathBuf>, Outcome> {
    let pkg_config = Tool::locate("pkg-config")?;
    let finished = pkg_config
        .command(&std::env::temp_dir())
        .args(["--libs", package])
        .timeout(bound)
        .run()?;
    Ok(finished
        .stdout
        .split_whitespace()
        .filter_map(|w| w.strip_prefix("-r:"))
        .filter_map(|p| Path::new(p).parent().map(Path::to_path_buf))
        .collect())
}

/// Compiles one unit with debug symbols; returns the assembly.
fn compile_unit(
    mcs: &Tool,
    unit: &UnitOptions,
    root: &Path,
    work: &Path,
    list: &Path,
    build: &Build<'_>,
    options: &OracleOptions<'_>,
) -> Result<PathBuf, Outcome> {
    let Build {
        framework,
        defines,
        built,
    } = build;
    let extension = if unit.target == "library" {
        "dll"
    } else {
        "exe"
    };
    let output = work.join(format!("{}.{extension}", unit.name));
    let mut run = mcs
        .command(root)
        .arg(format!("-target:{}", unit.target))
        .arg("-debug")
        .arg(format!("-sdk:{framework}-api"))
        .arg("-warn:0")
        .arg(format!("-out:{}", output.display()))
        .timeout(options.timeout);
    if !defines.is_empty() {
        run = run.arg(format!("-define:{}", defines.join(";")));
    }
    if unit.allow_unsafe {
        run = run.arg("-unsafe");
    }
    for r in &unit.references {
        run = run.arg(format!("-r:{r}"));
    }
    for p in &unit.packages {
        run = run.arg(format!("-pkg:{p}"));
    }
    for u in &unit.units {
        run = run.arg(format!("-r:{}", built[u].display()));
    }
    run.arg(format!("@{}", list.display())).run()?;
    Ok(output)
}

/// Every `.cs` file of a unit's sources (directories walked, links not followed) that
/// is not at or under an `exclude` entry, relative to the root, `/`-separated, sorted,
/// each once.
pub fn unit_files(
    root: &Path,
    sources: &[String],
    exclude: &[String],
) -> std::io::Result<Vec<String>> {
    let mut found = Vec::new();
    for source in sources {
        let start = root.join(source);
        let mut stack = vec![start];
        while let Some(path) = stack.pop() {
            let kind = std::fs::symlink_metadata(&path)?.file_type();
            if kind.is_dir() {
                for entry in std::fs::read_dir(&path)? {
                    stack.push(entry?.path());
                }
            } else if kind.is_file() && path.extension().is_some_and(|e| e == "cs") {
                let relative = path
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
    let excluded = |f: &String| {
        exclude.iter().any(|e| {
            let e = e.trim_end_matches('/');
            f == e || f.strip_prefix(e).is_some_and(|rest| rest.starts_with('/'))
        })
    };
    found.retain(|f| !excluded(f));
    found.sort();
    found.dedup();
    Ok(found)
}

pub(crate) fn read_sources(
    root: &Path,
    files: &[String],
) -> Result<BTreeMap<String, SourceText>, Outcome> {
    files
        .iter()
        .map(|f| {
            std::fs::read(root.join(f))
                .map(|bytes| (f.clone(), SourceText::new(&bytes)))
                .map_err(|e| failed(format!("cannot read {f}: {e}")))
        })
        .collect()
}

/// Compiles the helper once per (helper text, mcs version, Cecil) into `cache`;
/// returns the program.
fn build_helper(
    mcs: &Tool,
    version: &str,
    cecil: &Path,
    cache: &Path,
    bound: Duration,
) -> Result<PathBuf, Outcome> {
    let mut hasher = Sha256::new();
    hasher.update(HELPER_SOURCE.as_bytes());
    hasher.update(version.as_bytes());
    hasher.update(cecil.to_string_lossy().as_bytes());
    let key: String = hasher.finalize()[..8]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let dir = cache.join(format!("helper-{key}"));
    let program = dir.join("CallTruth.exe");
    if program.is_file() {
        return Ok(program);
    }
    let partial = cache.join(format!("helper-{key}.partial"));
    let _ = std::fs::remove_dir_all(&partial);
    std::fs::create_dir_all(&partial)
        .map_err(|e| failed(format!("cannot create {}: {e}", partial.display())))?;
    let source = partial.join("CallTruth.cs");
    std::fs::write(&source, HELPER_SOURCE)
        .map_err(|e| failed(format!("cannot write the helper: {e}")))?;
    // Not -r:Mono.CompilerServices.SymbolWriter: Mono.CSharp defines the same types
    // (CS0433).
    mcs.command(&partial)
        .arg(format!("-r:{}", cecil.display()))
        .arg("-r:Mono.CSharp")
        .arg("-warn:0")
        .arg("-out:CallTruth.exe")
        .arg("CallTruth.cs")
        .timeout(bound)
        .run()?;
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::rename(&partial, &dir)
        .map_err(|e| failed(format!("cannot move the helper into place: {e}")))?;
    Ok(program)
}

pub(crate) fn failed(detail: String) -> Outcome {
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
            "CallTruth.cs changed: bump ADAPTER_VERSION (cached truths are keyed by it) \
             and set HELPER_SHA256"
        );
    }

    #[test]
    fn options_are_checked() {
        let ok = serde_json::json!({"framework": "4.5", "units": [
            {"name": "Lib", "sources": ["Lib"], "references": ["System.Xml"]},
            {"name": "Lib.Tests", "sources": ["Tests"], "packages": ["nunit"], "units": ["Lib"]}]});
        let parsed = McsOptions::from_json(&ok).unwrap();
        assert_eq!(parsed.units[1].target, "library");
        assert!(parsed.override_chain);
        for bad in [
            serde_json::json!({"framework": "4.5", "units": []}),
            serde_json::json!({"framework": "4.5-api", "units": [{"name": "A", "sources": ["a"]}]}),
            serde_json::json!({"units": [{"name": "A", "sources": ["a"]}]}),
            serde_json::json!({"framework": "4.5", "units": [{"name": "A", "sources": ["../x"]}]}),
            serde_json::json!({"framework": "4.5", "units": [{"name": "A", "sources": ["a"], "units": ["B"]}]}),
            serde_json::json!({"framework": "4.5", "units": [{"name": "A;rm", "sources": ["a"]}]}),
            serde_json::json!({"framework": "4.5", "units": [{"name": "A", "sources": ["a"], "target": "module"}]}),
            serde_json::json!({"framework": "4.5", "units": [{"name": "A", "sources": ["a"], "refs": []}]}),
        ] {
            assert!(McsOptions::from_json(&bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn defines_are_csharp_symbols() {
        let build = serde_json::json!({"defines": ["TRACE", "DEBUG"]});
        assert_eq!(defines_of(&build).unwrap(), vec!["TRACE", "DEBUG"]);
        assert!(defines_of(&serde_json::Value::Null).unwrap().is_empty());
        assert!(defines_of(&serde_json::json!({"defines": ["N=1"]})).is_err());
    }

    #[test]
    fn a_units_files_are_every_cs_file_below_its_sources() {
        let dir = tempfile::tempdir().unwrap();
        for f in ["a/x.cs", "a/b/y.cs", "a/z.txt", "c.cs"] {
            let p = dir.path().join(f);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, "").unwrap();
        }
        let files = unit_files(dir.path(), &["a".into(), "c.cs".into()], &[]).unwrap();
        assert_eq!(files, vec!["a/b/y.cs", "a/x.cs", "c.cs"]);
        let files = unit_files(dir.path(), &["a".into()], &["a/b".into(), "a/x".into()]).unwrap();
        assert_eq!(
            files,
            vec!["a/x.cs"],
            "an exclude is a path, not a prefix of a name"
        );
    }
}
