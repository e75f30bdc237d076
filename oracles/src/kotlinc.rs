//! The kotlinc oracle: the Kotlin compiler's own binding of every call, construction,
//! constructor delegation and callable reference of a Kotlin tree, read from its IR by
//! a compiler plugin (`oracles/kotlin/CallTruth.kt`) after FIR2IR and before any
//! lowering.
//!
//! The compiler is the pinned `kotlin-compiler` of `oracles/kotlin/package-lock.json`
//! (`npm ci` in oracles/kotlin, which `.ci/setup` does), or the one
//! `CALLGRAPH_KOTLINC` names (its `bin/kotlinc`). The plugin is embedded in this
//! crate and built once per (plugin text, compiler version) against that compiler's
//! own `lib/kotlin-compiler.jar`: the IR API is not stable between versions.
//!
//! What the truth says (docs/PROTOCOL.md §kotlinc):
//! - a site is named as the source writes it (`b` of `a.b()`, `T` of `T(…)` and of a
//!   companion `invoke` or factory function written `T(…)`, `this`/`super` of a
//!   constructor delegation, the superclass of `class A : B()`), at the line and UTF-8
//!   byte column of that name token, found from the compiler's offsets (UTF-16 units
//!   of the LF-normalised text) by reading the file's syntax tree;
//! - its targets are the declaration the compiler bound, by its name line (the real
//!   declaration a fake override stands for); a call bound to an `actual` also
//!   accepts the `expect` it was written against; outside the tree is `outside`;
//! - set apart as `implicit` (counted, never scored): property accessors, operators
//!   used as syntax, `for`-loop plumbing, destructuring `componentN`, enum entries'
//!   constructions, calls inside generated declarations (data-class members,
//!   delegated accessors), object literals' anonymous constructors, the super
//!   constructor call no source writes, the call inside a callable reference's
//!   generated body; `unjudged`: `invoke` on a function value (`function_value_invoke`),
//!   a site whose name token the tree does not give (`no_name_token`), an in-tree
//!   target whose name the tree does not give (`no_declaration_name`);
//! - callers are left to the engine's partner (no `caller`).

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;
use sha2::{Digest, Sha256};

use crate::kotlin_ir::{read_accesses, Access, AccessKind, Declaration};
use crate::kotlin_source::{SourceFile, Token};
use crate::oracle::{Oracle, OracleOptions};
use crate::toolchain::{Outcome, Tool};
use crate::truth::{OracleStamp, Truth, TruthSite, TruthTarget, TRUTH_SCHEMA};

/// The adapter's version, with the plugin's output format: bump it when what the truth
/// says changes.
pub const ADAPTER_VERSION: &str = "3+plugin1";

/// The plugin's source, embedded so the binary needs no checkout beside it.
pub const PLUGIN_SOURCE: &str = include_str!("../kotlin/CallTruth.kt");

/// The committed manifest pinning the compiler.
pub const PACKAGE_JSON: &str = include_str!("../kotlin/package.json");

/// The environment variable naming another `bin/kotlinc` of the same pin.
pub const KOTLINC_ENV: &str = "CALLGRAPH_KOTLINC";

const TOOL: &str = "kotlinc";

/// The registrar class the plugin's service file names.
const REGISTRAR: &str = "callgraph.calltruth.CallTruthRegistrar";

/// The compiler's JVM heap (KotlinPoet's 39 files with the plugin).
pub(crate) const HEAP: &str = "-J-Xmx3g";

/// The kotlinc oracle.
#[derive(Debug, Clone, Copy, Default)]
pub struct Kotlinc;

/// `oracle.options` of a kotlinc corpus.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KotlincOptions {
    /// `-api-version` (old corpora call stdlib functions deprecated at ERROR level).
    #[serde(default)]
    pub api_version: Option<String>,
    /// `-jvm-default=`.
    #[serde(default)]
    pub jvm_default: Option<String>,
    /// Directories (path components) whose files are the common sources of a
    /// multiplatform tree (`-Xmulti-platform -Xcommon-sources=…`).
    #[serde(default)]
    pub common_sources: Vec<String>,
    /// Jars of the compiler's own `lib/` on the classpath, by name without `.jar`.
    #[serde(default)]
    pub libraries: Vec<String>,
}

impl KotlincOptions {
    pub fn from_json(value: &serde_json::Value) -> Result<KotlincOptions, String> {
        if value.is_null() {
            return Ok(KotlincOptions::default());
        }
        serde_json::from_value(value.clone())
            .map_err(|e| format!("oracle options for kotlinc: {e}"))
    }
}

impl Oracle for Kotlinc {
    fn name(&self) -> &'static str {
        TOOL
    }

    fn version(&self) -> &'static str {
        ADAPTER_VERSION
    }

    /// `kotlinc-jvm 2.4.20 (JRE …)`, refused unless the installed compiler is the pin.
    fn toolchain_version(&self) -> Result<String, Outcome> {
        let kotlinc = kotlinc()?;
        let home = home_of(&kotlinc)?;
        let installed = std::fs::read_to_string(home.join("build.txt"))
            .map(|t| t.trim().to_string())
            .map_err(|e| failed(format!("no build.txt beside the compiler: {e}")))?;
        let pinned = pinned_version()
            .ok_or_else(|| failed("oracles/kotlin/package.json pins no kotlin-compiler".into()))?;
        if installed != pinned {
            return Err(failed(format!(
                "installed kotlinc {installed} is not the pinned {pinned}: run `npm ci` in oracles/kotlin"
            )));
        }
        let java = Tool::locate("java")?.version(&["-version"])?;
        Ok(format!("kotlinc-jvm {installed} ({java})"))
    }

    fn run(&self, corpus_dir: &Path, options: &OracleOptions<'_>) -> Result<Truth, Outcome> {
        let kotlin_options = KotlincOptions::from_json(options.options).map_err(failed)?;
        let version = self.toolchain_version()?;
        let kotlinc = kotlinc()?;
        let home = home_of(&kotlinc)?;
        let root = corpus_dir
            .canonicalize()
            .map_err(|e| failed(format!("cannot read the root: {e}")))?;
        let work = crate::toolchain::absolute_dir(TOOL, options.work_dir)?;
        let files =
            source_files(&root).map_err(|e| failed(format!("cannot list the tree: {e}")))?;
        if !files.iter().any(|f| f.ends_with(".kt")) {
            return Err(failed("no Kotlin file under the root".into()));
        }
        let plugin = build_plugin(
            &kotlinc,
            &home,
            &version,
            options.cache_dir,
            options.timeout,
        )?;
        let out = work.join("accesses.jsonl");
        let args = compile_args(&root, &home, &files, &kotlin_options);
        let finished = kotlinc
            .command(&root)
            .arg(HEAP)
            .arg(format!("-J-Dcalltruth.out={}", out.display()))
            .arg(format!("-Xplugin={}", plugin.display()))
            .arg("-nowarn")
            .arg("-d")
            .arg(work.join("classes"))
            .args(args)
            .timeout(options.timeout)
            .run()?;
        let text =
            std::fs::read_to_string(&out).map_err(|e| failed(finished.wrote_no(&out, &e)))?;
        let accesses = read_accesses(&text).map_err(failed)?;
        let stamp = OracleStamp::at_name(TOOL, version, ADAPTER_VERSION);
        truth_from_accesses(options.corpus_id, stamp, &root, &accesses).map_err(failed)
    }
}

/// The pinned compiler's `bin/kotlinc`: `CALLGRAPH_KOTLINC`, else the one `npm ci`
/// installs under oracles/kotlin of this checkout. Absent is `tool_missing`.
pub fn kotlinc() -> Result<Tool, Outcome> {
    let path = match std::env::var_os(KOTLINC_ENV) {
        Some(p) => PathBuf::from(p),
        None => Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("kotlin/node_modules/kotlin-compiler/bin/kotlinc"),
    };
    Tool::at(TOOL, &path).map_err(|_| Outcome::ToolMissing {
        tool: TOOL.into(),
        detail: format!(
            "no kotlinc at {}: run `npm ci` in oracles/kotlin (.ci/setup) or set {KOTLINC_ENV}",
            path.display()
        ),
    })
}

/// The compiler's home (`bin/..`), resolved.
pub(crate) fn home_of(kotlinc: &Tool) -> Result<PathBuf, Outcome> {
    let bin = kotlinc
        .path
        .canonicalize()
        .map_err(|e| failed(format!("cannot resolve {}: {e}", kotlinc.path.display())))?;
    bin.parent()
        .and_then(Path::parent)
        .map(Path::to_path_buf)
        .ok_or_else(|| failed("kotlinc is not in a bin/ directory".into()))
}

/// The exact kotlin-compiler version the committed package.json pins.
pub fn pinned_version() -> Option<String> {
    let value: serde_json::Value = serde_json::from_str(PACKAGE_JSON).ok()?;
    value
        .get("dependencies")?
        .get("kotlin-compiler")?
        .as_str()
        .map(str::to_string)
}

/// The compiler's arguments after the plugin's: options, classpath and the files
/// (relative to the root, which is the compiler's working directory).
pub(crate) fn compile_args(
    root: &Path,
    home: &Path,
    files: &[String],
    options: &KotlincOptions,
) -> Vec<String> {
    let mut args = Vec::new();
    if let Some(api) = &options.api_version {
        args.extend(["-api-version".to_string(), api.clone()]);
    }
    if let Some(jvm_default) = &options.jvm_default {
        args.push(format!("-jvm-default={jvm_default}"));
    }
    let common: Vec<String> = files
        .iter()
        .filter(|f| is_common(f, &options.common_sources))
        .map(|f| root.join(f).display().to_string())
        .collect();
    if !common.is_empty() {
        args.push("-Xmulti-platform".into());
        args.push(format!("-Xcommon-sources={}", common.join(",")));
    }
    if !options.libraries.is_empty() {
        let jars: Vec<String> = options
            .libraries
            .iter()
            .map(|l| {
                home.join("lib")
                    .join(format!("{l}.jar"))
                    .display()
                    .to_string()
            })
            .collect();
        args.extend(["-cp".to_string(), jars.join(":")]);
    }
    args.extend(files.iter().map(|f| root.join(f).display().to_string()));
    args
}

/// Whether the relative path `file` lies in one of the common-source directories.
fn is_common(file: &str, common: &[String]) -> bool {
    file.split('/').any(|part| common.iter().any(|c| c == part))
}

/// Every `.kt` and `.java` file under `root` (links not followed), relative,
/// `/`-separated, sorted. Java files are given to the compiler so that Kotlin calls
/// into them resolve; they hold no Kotlin site.
pub fn source_files(root: &Path) -> std::io::Result<Vec<String>> {
    let mut found = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir)? {
            let entry = entry?;
            let kind = entry.file_type()?;
            let path = entry.path();
            let wanted = path.extension().is_some_and(|e| e == "kt" || e == "java");
            if kind.is_dir() {
                stack.push(path);
            } else if kind.is_file() && wanted {
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
    found.sort();
    Ok(found)
}

/// Builds the plugin once per (plugin text, compiler version) into the cache: compiled
/// against the compiler's own jar, with the service file naming its registrar, packed
/// by the JDK's `jar`. Returns the jar.
fn build_plugin(
    kotlinc: &Tool,
    home: &Path,
    version: &str,
    cache: &Path,
    bound: Duration,
) -> Result<PathBuf, Outcome> {
    let mut hasher = Sha256::new();
    hasher.update(PLUGIN_SOURCE.as_bytes());
    hasher.update(version.as_bytes());
    let key: String = hasher.finalize()[..8]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let dir = crate::toolchain::absolute_dir(TOOL, &cache.join("oracles/kotlinc"))?;
    let jar = dir.join(format!("calltruth-{key}.jar"));
    if jar.is_file() {
        return Ok(jar);
    }
    let partial = dir.join(format!("calltruth-{key}.partial"));
    let _ = std::fs::remove_dir_all(&partial);
    let classes = partial.join("classes");
    let services = classes.join("META-INF/services");
    std::fs::create_dir_all(&services)
        .map_err(|e| failed(format!("cannot create {}: {e}", services.display())))?;
    let source = partial.join("CallTruth.kt");
    std::fs::write(&source, PLUGIN_SOURCE)
        .map_err(|e| failed(format!("cannot write the plugin: {e}")))?;
    kotlinc
        .command(&partial)
        .arg(HEAP)
        .arg("-nowarn")
        .arg("-cp")
        .arg(home.join("lib/kotlin-compiler.jar"))
        .arg("-opt-in=org.jetbrains.kotlin.compiler.plugin.ExperimentalCompilerApi")
        .arg("-opt-in=org.jetbrains.kotlin.ir.symbols.UnsafeDuringIrConstructionAPI")
        .arg("-d")
        .arg(&classes)
        .arg(&source)
        .timeout(bound)
        .run()?;
    std::fs::write(
        services.join("org.jetbrains.kotlin.compiler.plugin.CompilerPluginRegistrar"),
        format!("{REGISTRAR}\n"),
    )
    .map_err(|e| failed(format!("cannot write the service file: {e}")))?;
    let packed = partial.join("calltruth.jar");
    Tool::locate("jar")?
        .command(&classes)
        .arg("cf")
        .arg(&packed)
        .arg(".")
        .timeout(bound)
        .run()?;
    std::fs::rename(&packed, &jar)
        .map_err(|e| failed(format!("cannot move the plugin into place: {e}")))?;
    let _ = std::fs::remove_dir_all(&partial);
    Ok(jar)
}

/// Why an access is set apart (counted, never scored), when it is.
pub fn set_apart(access: &Access, file: &SourceFile) -> Option<&'static str> {
    if access.start < 0 {
        return Some("no_offset");
    }
    if access.in_reference {
        return Some("callable_reference_body");
    }
    if access.kind == AccessKind::EnumNew {
        return Some("enum_constant");
    }
    // The plugin names no declaration for a property reference (`::p`).
    if access.kind == AccessKind::PropertyReference {
        return Some("property_reference");
    }
    if access.context.iter().any(is_generated) {
        return Some("in_generated");
    }
    if access.kind == AccessKind::New && is_anonymous(access) {
        return Some("object_literal");
    }
    let origin = access.origin.as_deref().unwrap_or("");
    if origin.starts_with("COMPONENT_N") {
        return Some("destructuring");
    }
    if access.callee.property.is_some()
        || matches!(origin, "GET_PROPERTY" | "EQ" | "GET_LOCAL_PROPERTY")
    {
        return Some("property_accessor");
    }
    if origin.starts_with("FOR_LOOP")
        || (access.callee.name == "iterator" && file.is_for_iterable(access.start, access.end))
    {
        return Some("for_loop");
    }
    if is_operator(access, origin) {
        return Some("operator");
    }
    None
}

/// A declaration no source writes a body for: data-class members, delegated
/// accessors, class delegation's members, enum classes' `values`/`valueOf`.
fn is_generated(d: &Declaration) -> bool {
    let o = d.origin.as_str();
    o.starts_with("GENERATED")
        || o.contains("DELEGATED")
        || o.starts_with("SYNTHETIC")
        || o == "ENUM_CLASS_SPECIAL_MEMBER"
}

/// The constructor of an object literal's anonymous class.
fn is_anonymous(access: &Access) -> bool {
    access
        .callee
        .owner
        .as_ref()
        .is_some_and(|o| o.name.starts_with('<'))
}

/// An operator used as syntax: an origin other than `INVOKE` (`PLUS`, `EQEQ`, `IN`,
/// `GET_ARRAY_ELEMENT`, …), `!x` (K2 gives `Boolean.not` no origin) and the compiler's
/// own intrinsics.
fn is_operator(access: &Access, origin: &str) -> bool {
    let fq = access.callee.fq.as_str();
    (!origin.is_empty() && origin != "INVOKE")
        || (fq == "kotlin.Boolean.not" && access.origin.is_none())
        || fq.starts_with("kotlin.internal.ir.")
}

/// `invoke` of a function value (`f(2.0)` on a parameter of function type): what runs
/// is the value passed, which the compiler does not know either.
fn is_function_value_invoke(access: &Access) -> bool {
    access.origin.as_deref() == Some("INVOKE")
        && access.callee.owner.as_ref().is_some_and(|o| {
            o.fq.starts_with("kotlin.Function")
                || o.fq.starts_with("kotlin.jvm.functions.")
                || o.fq.starts_with("kotlin.reflect.")
                || o.fq.starts_with("kotlin.coroutines.SuspendFunction")
        })
}

/// The name the compiler expects the source to write for the access.
fn expected_name(access: &Access) -> &str {
    match (&access.callee.owner, access.callee.decl.as_str()) {
        (Some(owner), "constructor") => owner.name.as_str(),
        _ => access.callee.name.as_str(),
    }
}

/// Reads the files the accesses name, once each.
struct Files<'r> {
    root: &'r Path,
    parsed: HashMap<String, Option<SourceFile>>,
}

impl<'r> Files<'r> {
    /// The relative path of the compiler's file name, when it is under the root.
    fn relative(&self, name: &str) -> Option<String> {
        let path = Path::new(name);
        let relative = if path.is_absolute() {
            path.strip_prefix(self.root).ok()?
        } else {
            path
        };
        Some(
            relative
                .components()
                .map(|c| c.as_os_str().to_string_lossy())
                .collect::<Vec<_>>()
                .join("/"),
        )
    }

    fn get(&mut self, relative: &str) -> Option<&SourceFile> {
        if !self.parsed.contains_key(relative) {
            let text = std::fs::read(self.root.join(relative))
                .ok()
                .map(|b| String::from_utf8_lossy(&b).into_owned());
            self.parsed
                .insert(relative.to_string(), text.and_then(SourceFile::parse));
        }
        self.parsed.get(relative)?.as_ref()
    }

    /// The file and name token of the in-tree declaration `d`.
    fn target_token(
        &mut self,
        d: &Declaration,
        expected: Option<&str>,
    ) -> Result<Option<(String, Token)>, ()> {
        // A primary constructor's range is its parameter list; its name line is the
        // class's.
        let d = match (&d.parent_class, d.kind.as_str()) {
            (Some(class), "constructor") if d.primary => class.as_ref(),
            _ => d,
        };
        let Some((name, start, end)) = d.span() else {
            return Ok(None);
        };
        let Some(relative) = self.relative(name) else {
            return Ok(None);
        };
        let file = self.get(&relative).ok_or(())?;
        let token = file.declaration_name(start, end, expected).ok_or(())?;
        Ok(Some((relative, token)))
    }
}

/// The tree's `expect` declarations by the key their `actual` shares, and the
/// `actual` ones by their name token. kotlinc 2.4 actualizes before IR extensions
/// run, so the plugin never sees an `expect`; the source names it, and the tree
/// gives it (D61).
#[derive(Debug, Default)]
struct ExpectIndex {
    expects: HashMap<String, Vec<TruthTarget>>,
    actuals: HashMap<(String, u32, u32), String>,
}

impl ExpectIndex {
    /// Reads every Kotlin file of the tree once.
    fn build(files: &mut Files<'_>, kotlin_files: &[String]) -> ExpectIndex {
        let mut index = ExpectIndex::default();
        for relative in kotlin_files {
            let Some(file) = files.get(relative) else {
                continue;
            };
            for p in file.platform_declarations() {
                if p.expect {
                    index
                        .expects
                        .entry(p.key)
                        .or_default()
                        .push(TruthTarget::InTree {
                            file: relative.clone(),
                            line: p.token.line,
                        });
                } else {
                    index
                        .actuals
                        .insert((relative.clone(), p.token.line, p.token.column), p.key);
                }
            }
        }
        index
    }

    /// The `expect` declarations an `actual` at this name token was written for.
    fn expects_of(&self, file: &str, token: &Token) -> &[TruthTarget] {
        self.actuals
            .get(&(file.to_string(), token.line, token.column))
            .and_then(|key| self.expects.get(key))
            .map_or(&[], Vec::as_slice)
    }
}

/// The name a declaration's name token says, when the compiler's name is one the
/// source writes (a constructor is named by its class; a primary one by the class
/// line).
fn declaration_expected<'a>(d: &'a Declaration, access: &'a Access) -> Option<&'a str> {
    match d.kind.as_str() {
        "constructor" if d.primary => access.callee.owner.as_ref().map(|o| o.name.as_str()),
        "constructor" => None,
        _ => d.name.as_deref().filter(|n| !n.starts_with('<')),
    }
}

/// The truth of the plugin's accesses: sites and references, each sorted, a site
/// written once (the compiler may list one call twice, e.g. a safe call's receiver
/// check beside it).
pub fn truth_from_accesses(
    corpus: &str,
    oracle: OracleStamp,
    root: &Path,
    accesses: &[Access],
) -> Result<Truth, String> {
    let mut files = Files {
        root,
        parsed: HashMap::new(),
    };
    let kotlin_files: Vec<String> = source_files(root)
        .map_err(|e| format!("listing {}: {e}", root.display()))?
        .into_iter()
        .filter(|f| f.ends_with(".kt"))
        .collect();
    let expects = ExpectIndex::build(&mut files, &kotlin_files);
    let mut sites: BTreeMap<(String, u32, u32, String), TruthSite> = BTreeMap::new();
    let mut references: BTreeMap<(String, u32, u32, String), TruthSite> = BTreeMap::new();
    for access in accesses {
        let Some(site) = site_of(&mut files, &expects, access) else {
            continue;
        };
        let key = (
            site.file.clone(),
            site.line,
            site.column.unwrap_or(0),
            site.name.clone(),
        );
        let into = match access.kind {
            AccessKind::Reference | AccessKind::PropertyReference => &mut references,
            _ => &mut sites,
        };
        merge(into, key, site);
    }
    let truth = Truth {
        schema: TRUTH_SCHEMA.into(),
        corpus: corpus.into(),
        oracle,
        shape: None,
        sites: sites.into_values().collect(),
        references: Some(references.into_values().collect()),
        pairs: Vec::new(),
    };
    truth
        .validate("kotlinc plugin output")
        .map_err(|e| e.to_string())?;
    Ok(truth)
}

/// Keeps one site per position and name: a judged one over one set apart, targets
/// of two judged ones together.
fn merge(
    into: &mut BTreeMap<(String, u32, u32, String), TruthSite>,
    key: (String, u32, u32, String),
    site: TruthSite,
) {
    match into.get_mut(&key) {
        None => {
            into.insert(key, site);
        }
        Some(old) if !old.is_judged() && site.is_judged() => *old = site,
        Some(old) if old.is_judged() && site.is_judged() => {
            for t in site.targets {
                if !old.targets.contains(&t) {
                    old.targets.push(t);
                }
            }
            old.targets.sort();
        }
        Some(_) => {}
    }
}

/// One access as a truth site; `None` for one outside the tree's Kotlin files or one
/// with no position in the source at all.
fn site_of(files: &mut Files<'_>, expects: &ExpectIndex, access: &Access) -> Option<TruthSite> {
    let relative = files.relative(&access.file)?;
    let file = files.get(&relative)?;
    let mut site = TruthSite {
        file: relative,
        line: 0,
        column: None,
        caller: None,
        name: expected_name(access).to_string(),
        targets: Vec::new(),
        unjudged: None,
        implicit: None,
        expect: None,
        primary: false,
    };
    if let Some(reason) = set_apart(access, file) {
        // Set apart at the compiler's own line; the expression's start is the column.
        let byte = file.byte(access.start.max(0))?;
        let (line, column) = file.line_column(byte);
        site.line = line;
        site.column = Some(column);
        site.implicit = Some(reason.into());
        if let Some(property) = &access.callee.property {
            site.name = property.clone();
        }
        return Some(site);
    }
    let token = match access.kind {
        AccessKind::Delegating => file
            .delegation_keyword(access.start, access.end)
            .or_else(|| file.supertype_call(access.start, access.end)),
        _ => file.called_name(access.start, access.end, expected_name(access)),
    };
    let Some(token) = token else {
        let byte = file.byte(access.start)?;
        let (line, column) = file.line_column(byte);
        site.line = line;
        site.column = Some(column);
        if access.kind == AccessKind::Delegating {
            site.implicit = Some("implicit_super_constructor".into());
        } else {
            site.unjudged = Some("no_name_token".into());
        }
        return Some(site);
    };
    site.line = token.line;
    site.column = Some(token.column);
    site.name = token.text;
    if is_function_value_invoke(access) {
        site.unjudged = Some("function_value_invoke".into());
        return Some(site);
    }
    match targets_of(files, expects, access) {
        Ok(targets) => site.targets = targets,
        Err(()) => site.unjudged = Some("no_declaration_name".into()),
    }
    Some(site)
}

/// The acceptable targets of a judged access: the bound declaration (the real one
/// behind a fake override) and the `expect` declarations of an `actual`, in the tree
/// by name line, else `outside` with the compiler's qualified name.
fn targets_of(
    files: &mut Files<'_>,
    expects: &ExpectIndex,
    access: &Access,
) -> Result<Vec<TruthTarget>, ()> {
    let mut targets = Vec::new();
    let mut add = |t: TruthTarget| {
        if !targets.contains(&t) {
            targets.push(t);
        }
    };
    for d in access
        .callee
        .declarations
        .iter()
        .chain(&access.callee.expects)
    {
        if let Some((file, token)) = files.target_token(d, declaration_expected(d, access))? {
            for e in expects.expects_of(&file, &token) {
                add(e.clone());
            }
            add(TruthTarget::InTree {
                file,
                line: token.line,
            });
        }
    }
    if targets.is_empty() {
        targets.push(TruthTarget::Outside {
            symbol: access.callee.fq.clone(),
        });
    }
    targets.sort();
    Ok(targets)
}

fn failed(detail: String) -> Outcome {
    Outcome::tool_failed(TOOL, detail)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kotlin_ir::PLUGIN_FORMAT;

    #[test]
    fn the_compiler_is_pinned_exactly() {
        assert_eq!(pinned_version().as_deref(), Some("2.4.20"));
        assert!(ADAPTER_VERSION.ends_with(&format!("plugin{PLUGIN_FORMAT}")));
        assert!(PLUGIN_SOURCE.contains(&format!("const val PLUGIN_VERSION = \"{PLUGIN_FORMAT}\"")));
    }

    #[test]
    fn options_are_checked() {
        let o = KotlincOptions::from_json(
            &serde_json::json!({"api_version": "2.0", "libraries": ["kotlin-reflect"]}),
        )
        .unwrap();
        assert_eq!(o.api_version.as_deref(), Some("2.0"));
        assert!(KotlincOptions::from_json(&serde_json::json!({"nope": 1})).is_err());
        assert_eq!(
            KotlincOptions::from_json(&serde_json::Value::Null).unwrap(),
            KotlincOptions::default()
        );
    }

    #[test]
    fn common_sources_are_named_by_directory() {
        let common = vec!["commonMain".to_string()];
        assert!(is_common(
            "commonMain/com/squareup/kotlinpoet/CodePoint.kt",
            &common
        ));
        assert!(!is_common(
            "jvmMain/com/squareup/kotlinpoet/notcommonMain.kt",
            &common
        ));
        let args = compile_args(
            Path::new("/r"),
            Path::new("/k"),
            &["commonMain/A.kt".into(), "jvmMain/B.kt".into()],
            &KotlincOptions {
                common_sources: common,
                libraries: vec!["kotlin-reflect".into()],
                ..KotlincOptions::default()
            },
        );
        assert_eq!(
            args,
            [
                "-Xmulti-platform",
                "-Xcommon-sources=/r/commonMain/A.kt",
                "-cp",
                "/k/lib/kotlin-reflect.jar",
                "/r/commonMain/A.kt",
                "/r/jvmMain/B.kt"
            ]
        );
    }
}
