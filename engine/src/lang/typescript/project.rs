//! The programs a tree's `tsconfig.json` / `jsconfig.json` files configure, read the
//! way tsc 5.9 reads them, and what that decides for every TypeScript / JavaScript
//! file: whether it is in a program, and where each of its module specifiers goes.
//!
//! - A project is every `tsconfig.json` and `jsconfig.json` of the tree (not under
//!   `node_modules`), and every config a project's `references` names. Its config is
//!   JSON with comments and trailing commas; `extends` (a path, or a package of the
//!   tree) is followed, options merged base first; `files`, `include`, `exclude` are
//!   inherited when the config writes none, relative to the config that wrote them;
//!   `${configDir}` is the project's own directory.
//! - A project's root files are `files` plus what `include` matches (default `**/*`
//!   when neither is written) minus `exclude` (default `outDir`, `declarationDir`),
//!   with tsc's wildcard rules (`*` and `**` skip dot-names, `**` skips
//!   `node_modules`, a `*` does not match `.min.js`, a directory names everything
//!   under it) and its extension rules (JavaScript only under `allowJs`; `a.ts` hides
//!   a wildcard-matched `a.d.ts`, `a.js`). Its program is those files and every file
//!   their imports reach, resolved with its options (modules.rs).
//! - A file no readable project holds (outside every project's directory, or a
//!   JavaScript file under a project without `allowJs`) is read as its own program
//!   with the defaults of a tree that has no config: `allowJs`, `bundler`
//!   resolution — the defaults the tsc oracle gives such files.
//! - The corpus's compiler options (`configuration.typescript`, the flag
//!   `--ts-compiler-options`) override every program's, paths relative to the root;
//!   they change how specifiers resolve, not which files a config includes.
//! - A file some project holds and no program reads is left out by the build: it is
//!   reported `build_excluded`, and nothing it declares is a target.
//! - Each file's specifiers are resolved with the options of the first program (in
//!   config path order, the default program last) that reads it.

use std::collections::{BTreeSet, HashMap, HashSet, VecDeque};

use super::jsonc::Json;
use super::modules::{self, Package, Paths, Resolver, Settings, Strategy, Tree};
use crate::facts::{FileFacts, ModuleRequest};
use crate::lang::{Language, TreeWide};

/// `extends` chains and `references` are followed at most this deep.
const MAX_CONFIG_DEPTH: u32 = 16;

/// Reads the tree's projects and marks what they decide on every TypeScript /
/// JavaScript file: `build_excluded`, and the target of each module request.
pub fn apply(facts: &mut [FileFacts], tree_wide: &TreeWide) {
    let ts: Vec<usize> = (0..facts.len())
        .filter(|&i| is_ts_family(facts[i].language))
        .collect();
    if ts.is_empty() {
        return;
    }
    let mut paths: Vec<String> = ts.iter().map(|&i| facts[i].path.clone()).collect();
    paths.sort();
    let tree = tree_of(&paths, tree_wide);
    let overrides = CompilerOptions::read(
        &Json::from_serde(&serde_json::Value::Object(
            tree_wide.config.typescript.compiler_options.clone(),
        )),
        "",
    );
    let programs = programs(tree_wide, &tree, &overrides, &paths);
    let by_path: HashMap<&str, usize> = ts.iter().map(|&i| (facts[i].path.as_str(), i)).collect();
    let assigned = read_programs(facts, &by_path, &tree, &programs);
    for &i in &ts {
        match &assigned[i] {
            Some(targets) => {
                let f = &mut facts[i];
                for (r, t) in f.module_requests.iter_mut().zip(targets) {
                    r.target = Some(t.clone());
                }
                f.module_requests.sort();
                f.module_requests.dedup();
            }
            None => facts[i].build_excluded = true,
        }
    }
}

/// Whether a file's language is one this frontend reads.
pub fn is_ts_family(language: Language) -> bool {
    matches!(
        language,
        Language::TypeScript | Language::Tsx | Language::JavaScript
    )
}

/// The tree as resolution sees it: its TypeScript / JavaScript files, its
/// `package.json` files (not those under `node_modules`), and the workspace members
/// a `package.json`'s `workspaces` names, linked by name as npm and yarn link them.
fn tree_of(paths: &[String], tree_wide: &TreeWide) -> Tree {
    let mut tree = Tree {
        files: paths.iter().cloned().collect(),
        ..Tree::default()
    };
    for path in tree_wide.build_files.keys() {
        if file_name(path) != "package.json" || under_node_modules(path) {
            continue;
        }
        if let Some(package) = tree_wide.build_file(path).and_then(Package::read) {
            tree.add_package(modules::parent(path), package);
        }
    }
    let members: Vec<Glob> = tree
        .packages
        .iter()
        .flat_map(|(dir, p)| {
            p.workspaces
                .iter()
                .map(move |w| Glob::directories(&modules::join(dir, w)))
        })
        .collect();
    let mut dirs: Vec<String> = tree
        .packages
        .keys()
        .filter(|d| members.iter().any(|g| g.matches(d)))
        .cloned()
        .collect();
    dirs.sort();
    for dir in dirs {
        tree.link(&dir);
    }
    tree
}

/// One program: the options its specifiers resolve with, and its root files.
struct Program {
    settings: Settings,
    roots: Vec<String>,
}

/// Every project of the tree in config path order, then the default program of the
/// files no project holds.
fn programs(
    tree_wide: &TreeWide,
    tree: &Tree,
    overrides: &CompilerOptions,
    paths: &[String],
) -> Vec<Program> {
    let mut out = Vec::new();
    // Per project directory: whether a project there compiles JavaScript too.
    let mut holders: HashMap<String, bool> = HashMap::new();
    for config_path in project_configs(tree_wide, tree) {
        let Some(config) = load(tree_wide, tree, &config_path, 0) else {
            continue;
        };
        let dir = modules::parent(&config_path).to_string();
        let mut options = config.options.clone();
        if config.jsconfig {
            // tsserver's defaults for a jsconfig.json: JavaScript is the program.
            options = CompilerOptions {
                allow_js: Some(true),
                ..CompilerOptions::default()
            }
            .over(&options);
        }
        let allow_js_for_include = options.allow_js();
        let roots = root_files(&config, &dir, &options, allow_js_for_include, paths);
        let options = options.over(overrides);
        *holders.entry(dir.clone()).or_insert(false) |= allow_js_for_include;
        out.push(Program {
            settings: options.settings(&dir),
            roots,
        });
    }
    let unheld: Vec<String> = paths
        .iter()
        .filter(|p| !is_held(&holders, p))
        .cloned()
        .collect();
    out.push(Program {
        settings: CompilerOptions::no_config().over(overrides).settings(""),
        roots: unheld,
    });
    out
}

/// Whether a project could compile `path`: one in a directory above it, for
/// JavaScript one with `allowJs` (a walk up the file's directories, not over the
/// projects).
fn is_held(holders: &HashMap<String, bool>, path: &str) -> bool {
    let js = modules::is_js(path);
    let mut dir = modules::parent(path);
    loop {
        if let Some(&allow_js) = holders.get(dir) {
            if allow_js || !js {
                return true;
            }
        }
        if dir.is_empty() {
            return false;
        }
        dir = modules::parent(dir);
    }
}

/// Each program's files from its roots through the imports they resolve; a file's
/// targets are those of the first program that reads it (`None`: no program does).
fn read_programs(
    facts: &[FileFacts],
    by_path: &HashMap<&str, usize>,
    tree: &Tree,
    programs: &[Program],
) -> Vec<Option<Vec<crate::facts::ModuleTarget>>> {
    let mut assigned: Vec<Option<Vec<crate::facts::ModuleTarget>>> = vec![None; facts.len()];
    for program in programs {
        let resolver = Resolver::new(tree, &program.settings);
        let mut seen: HashSet<&str> = program.roots.iter().map(String::as_str).collect();
        let mut queue: VecDeque<&str> = program.roots.iter().map(String::as_str).collect();
        while let Some(path) = queue.pop_front() {
            let Some(&i) = by_path.get(path) else {
                continue;
            };
            let targets: Vec<crate::facts::ModuleTarget> = facts[i]
                .module_requests
                .iter()
                .map(|r| resolver.resolve(path, &r.specifier, r.syntax))
                .collect();
            for t in &targets {
                if let crate::facts::ModuleTarget::File(p) = t {
                    if let Some((&key, _)) = by_path.get_key_value(p.as_str()) {
                        if seen.insert(key) {
                            queue.push_back(key);
                        }
                    }
                }
            }
            if assigned[i].is_none() {
                assigned[i] = Some(targets);
            }
        }
    }
    assigned
}

/// `tsconfig.json` / `jsconfig.json` of the tree (not under `node_modules`) and the
/// configs their `references` name, sorted.
fn project_configs(tree_wide: &TreeWide, tree: &Tree) -> Vec<String> {
    let mut found: BTreeSet<String> = tree_wide
        .build_files
        .keys()
        .filter(|p| matches!(file_name(p), "tsconfig.json" | "jsconfig.json"))
        .filter(|p| !under_node_modules(p))
        .cloned()
        .collect();
    let mut queue: Vec<(String, u32)> = found.iter().map(|p| (p.clone(), 0)).collect();
    while let Some((path, depth)) = queue.pop() {
        if depth >= MAX_CONFIG_DEPTH {
            continue;
        }
        let Some(config) = load(tree_wide, tree, &path, 0) else {
            continue;
        };
        for r in config.references {
            if tree_wide.build_files.contains_key(&r) && found.insert(r.clone()) {
                queue.push((r, depth + 1));
            }
        }
    }
    found.into_iter().collect()
}

/// A path a config writes, with the directory it is relative to (the config that
/// wrote it; `${configDir}` is the project's own directory).
#[derive(Debug, Clone, PartialEq)]
struct Written {
    text: String,
    base: String,
}

impl Written {
    fn resolve(&self, project_dir: &str) -> String {
        match self.text.strip_prefix("${configDir}") {
            Some(rest) => modules::join(project_dir, rest.trim_start_matches('/')),
            None => modules::join(&self.base, &self.text),
        }
    }
}

/// tsc's `module` (the kinds resolution defaults depend on).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ModuleKind {
    CommonJs,
    /// `es2015` … `esnext`.
    Es,
    /// `node16`, `node18`, `node20`.
    Node16,
    NodeNext,
    Preserve,
    /// `none`, `amd`, `umd`, `system`.
    Other,
}

/// `paths` as a config writes them: the patterns with their substitutions, and the
/// directory of the config that wrote them.
type WrittenPaths = (Vec<(String, Vec<String>)>, String);

/// The compiler options module resolution and file selection read; `None` where
/// the config writes nothing.
#[derive(Debug, Clone, Default, PartialEq)]
struct CompilerOptions {
    /// ES version number: 1 = ES5, 2 = ES2015, …, 99 = ESNext.
    target: Option<u32>,
    module: Option<ModuleKind>,
    module_resolution: Option<Strategy>,
    allow_js: Option<bool>,
    check_js: Option<bool>,
    base_url: Option<Written>,
    paths: Option<WrittenPaths>,
    root_dirs: Option<Vec<Written>>,
    exports: Option<bool>,
    imports: Option<bool>,
    custom_conditions: Option<Vec<String>>,
    module_suffixes: Option<Vec<String>>,
    out_dir: Option<Written>,
    declaration_dir: Option<Written>,
}

impl CompilerOptions {
    /// The options of a file no config holds: the tsc oracle's defaults.
    fn no_config() -> CompilerOptions {
        CompilerOptions {
            target: Some(9),
            module: Some(ModuleKind::Es),
            module_resolution: Some(Strategy::Bundler),
            allow_js: Some(true),
            ..CompilerOptions::default()
        }
    }

    /// `compilerOptions` of a config document in `dir` (or, for the command line's
    /// options, the object itself, relative to the root).
    fn read(json: &Json, dir: &str) -> CompilerOptions {
        let o = json.get("compilerOptions").unwrap_or(json);
        let written = |key: &str| {
            o.get(key).and_then(Json::as_str).map(|t| Written {
                text: t.to_string(),
                base: dir.to_string(),
            })
        };
        let word = |key: &str| {
            o.get(key)
                .and_then(Json::as_str)
                .map(str::to_ascii_lowercase)
        };
        CompilerOptions {
            target: word("target").and_then(|t| target_number(&t)),
            module: word("module").and_then(|m| module_kind(&m)),
            module_resolution: word("moduleResolution").and_then(|m| strategy(&m)),
            allow_js: o.get("allowJs").and_then(Json::as_bool),
            check_js: o.get("checkJs").and_then(Json::as_bool),
            base_url: written("baseUrl"),
            paths: o.get("paths").map(|p| {
                let patterns = p
                    .members()
                    .into_iter()
                    .map(|(k, v)| (k.to_string(), v.strings()))
                    .collect();
                (patterns, dir.to_string())
            }),
            root_dirs: o.get("rootDirs").map(|r| {
                r.strings()
                    .into_iter()
                    .map(|t| Written {
                        text: t,
                        base: dir.to_string(),
                    })
                    .collect()
            }),
            exports: o.get("resolvePackageJsonExports").and_then(Json::as_bool),
            imports: o.get("resolvePackageJsonImports").and_then(Json::as_bool),
            custom_conditions: o.get("customConditions").map(Json::strings),
            module_suffixes: o.get("moduleSuffixes").map(Json::strings),
            out_dir: written("outDir"),
            declaration_dir: written("declarationDir"),
        }
    }

    /// These options with `top`'s written ones over them (an `extends` base under
    /// its config; a config under the command line's).
    fn over(&self, top: &CompilerOptions) -> CompilerOptions {
        CompilerOptions {
            target: top.target.or(self.target),
            module: top.module.or(self.module),
            module_resolution: top.module_resolution.or(self.module_resolution),
            allow_js: top.allow_js.or(self.allow_js),
            check_js: top.check_js.or(self.check_js),
            base_url: top.base_url.clone().or_else(|| self.base_url.clone()),
            paths: top.paths.clone().or_else(|| self.paths.clone()),
            root_dirs: top.root_dirs.clone().or_else(|| self.root_dirs.clone()),
            exports: top.exports.or(self.exports),
            imports: top.imports.or(self.imports),
            custom_conditions: top
                .custom_conditions
                .clone()
                .or_else(|| self.custom_conditions.clone()),
            module_suffixes: top
                .module_suffixes
                .clone()
                .or_else(|| self.module_suffixes.clone()),
            out_dir: top.out_dir.clone().or_else(|| self.out_dir.clone()),
            declaration_dir: top
                .declaration_dir
                .clone()
                .or_else(|| self.declaration_dir.clone()),
        }
    }

    /// tsc's computed `allowJs`: `checkJs` implies it.
    fn allow_js(&self) -> bool {
        self.allow_js.unwrap_or(self.check_js.unwrap_or(false))
    }

    /// tsc's computed `moduleResolution`: written, else by `module` (itself
    /// defaulted by `target`).
    fn strategy(&self) -> Strategy {
        if let Some(s) = self.module_resolution {
            return s;
        }
        let target = self.target.unwrap_or(match self.module {
            Some(ModuleKind::Node16) => 9,
            Some(ModuleKind::NodeNext) => 99,
            _ => 1,
        });
        let module = self.module.unwrap_or(if target >= 2 {
            ModuleKind::Es
        } else {
            ModuleKind::CommonJs
        });
        match module {
            ModuleKind::CommonJs => Strategy::Node10,
            ModuleKind::Node16 => Strategy::Node16,
            ModuleKind::NodeNext => Strategy::NodeNext,
            ModuleKind::Preserve => Strategy::Bundler,
            ModuleKind::Es | ModuleKind::Other => Strategy::Classic,
        }
    }

    /// What module resolution reads, paths made root-relative for a project in
    /// `project_dir`.
    fn settings(&self, project_dir: &str) -> Settings {
        let strategy = self.strategy();
        let modern = matches!(
            strategy,
            Strategy::Node16 | Strategy::NodeNext | Strategy::Bundler
        );
        let base_url = self.base_url.as_ref().map(|w| w.resolve(project_dir));
        let paths = self.paths.as_ref().map(|(patterns, written_in)| Paths {
            patterns: patterns
                .iter()
                .map(|(k, subs)| {
                    let subs = subs
                        .iter()
                        .map(|s| match s.strip_prefix("${configDir}") {
                            // A root-relative path: `join` keeps it as written.
                            Some(rest) => {
                                format!(
                                    "/{}",
                                    modules::join(project_dir, rest.trim_start_matches('/'))
                                )
                            }
                            None => s.clone(),
                        })
                        .collect();
                    (k.clone(), subs)
                })
                .collect(),
            base: base_url.clone().unwrap_or_else(|| written_in.clone()),
        });
        Settings {
            strategy,
            exports: modern && self.exports.unwrap_or(true),
            imports: modern && self.imports.unwrap_or(true),
            allow_js: self.allow_js(),
            base_url,
            paths,
            root_dirs: self
                .root_dirs
                .iter()
                .flatten()
                .map(|w| w.resolve(project_dir))
                .collect(),
            custom_conditions: self.custom_conditions.clone().unwrap_or_default(),
            module_suffixes: self.module_suffixes.clone().unwrap_or_default(),
        }
    }
}

fn target_number(word: &str) -> Option<u32> {
    Some(match word {
        "es3" => 0,
        "es5" => 1,
        "es6" | "es2015" => 2,
        "esnext" => 99,
        w => {
            let year: u32 = w.strip_prefix("es")?.parse().ok()?;
            (2015..2100).contains(&year).then(|| year - 2013)?
        }
    })
}

fn module_kind(word: &str) -> Option<ModuleKind> {
    Some(match word {
        "commonjs" => ModuleKind::CommonJs,
        "es6" | "es2015" | "es2020" | "es2022" | "esnext" => ModuleKind::Es,
        "node16" | "node18" | "node20" => ModuleKind::Node16,
        "nodenext" => ModuleKind::NodeNext,
        "preserve" => ModuleKind::Preserve,
        "none" | "amd" | "umd" | "system" => ModuleKind::Other,
        _ => return None,
    })
}

fn strategy(word: &str) -> Option<Strategy> {
    Some(match word {
        "classic" => Strategy::Classic,
        "node" | "node10" => Strategy::Node10,
        "node16" => Strategy::Node16,
        "nodenext" => Strategy::NodeNext,
        "bundler" => Strategy::Bundler,
        _ => return None,
    })
}

/// A config with its `extends` chain merged in.
#[derive(Debug, Clone)]
struct Config {
    jsconfig: bool,
    options: CompilerOptions,
    files: Option<Vec<Written>>,
    include: Option<Vec<Written>>,
    exclude: Option<Vec<Written>>,
    /// Root-relative paths of the configs `references` names.
    references: Vec<String>,
}

/// Reads a config and its bases; `None` when the tree has no such file or it is not
/// JSON (a base that cannot be read is left out, as tsc reports and goes on).
fn load(tree_wide: &TreeWide, tree: &Tree, path: &str, depth: u32) -> Option<Config> {
    if depth > MAX_CONFIG_DEPTH {
        return None;
    }
    let json = Json::parse(tree_wide.build_file(path)?)?;
    let dir = modules::parent(path);
    let written_list = |key: &str| {
        json.get(key).map(|v| {
            v.strings()
                .into_iter()
                .map(|text| Written {
                    text,
                    base: dir.to_string(),
                })
                .collect::<Vec<_>>()
        })
    };
    let mut merged = Config {
        jsconfig: file_name(path).starts_with("jsconfig"),
        options: CompilerOptions::default(),
        files: None,
        include: None,
        exclude: None,
        references: Vec::new(),
    };
    let bases = json.get("extends").map(Json::strings).unwrap_or_default();
    for base in bases {
        let Some(base_path) = extended_config(tree_wide, tree, dir, &base) else {
            continue;
        };
        let Some(b) = load(tree_wide, tree, &base_path, depth + 1) else {
            continue;
        };
        merged.options = merged.options.over(&b.options);
        merged.files = b.files.or(merged.files);
        merged.include = b.include.or(merged.include);
        merged.exclude = b.exclude.or(merged.exclude);
    }
    merged.options = merged.options.over(&CompilerOptions::read(&json, dir));
    merged.files = written_list("files").or(merged.files);
    merged.include = written_list("include").or(merged.include);
    merged.exclude = written_list("exclude").or(merged.exclude);
    merged.references = json
        .get("references")
        .and_then(Json::as_array)
        .unwrap_or_default()
        .iter()
        .filter_map(|r| r.get("path").and_then(Json::as_str))
        .map(|p| {
            let joined = modules::join(dir, p);
            if joined.ends_with(".json") {
                joined
            } else {
                modules::join(&joined, "tsconfig.json")
            }
        })
        .collect();
    Some(merged)
}

/// The config an `extends` entry names: a path (`.json` added when the file as
/// written is absent), or a package of the tree (`pkg/tsconfig.base.json`, `pkg`
/// for its `tsconfig.json`).
fn extended_config(tree_wide: &TreeWide, tree: &Tree, dir: &str, written: &str) -> Option<String> {
    let exists = |p: &str| tree_wide.build_files.contains_key(p).then(|| p.to_string());
    let with_json = |p: String| exists(&p).or_else(|| exists(&format!("{p}.json")));
    if modules::is_relative(written) {
        return with_json(modules::join(dir, written));
    }
    let (name, rest) = modules::package_name(written);
    let package_dir = tree.named.get(name)?.as_deref()?;
    if rest.is_empty() {
        return exists(&modules::join(package_dir, "tsconfig.json"));
    }
    with_json(modules::join(package_dir, rest))
}

/// A project's root files: `files`, then what `include` matches and `exclude` does
/// not, with tsc's extension priorities among the matched ones.
fn root_files(
    config: &Config,
    dir: &str,
    options: &CompilerOptions,
    allow_js: bool,
    paths: &[String],
) -> Vec<String> {
    let resolve_all = |list: &Option<Vec<Written>>| {
        list.as_ref()
            .map(|l| l.iter().map(|w| w.resolve(dir)).collect::<Vec<_>>())
    };
    let files = resolve_all(&config.files);
    let include = resolve_all(&config.include).unwrap_or_else(|| {
        if files.is_some() {
            Vec::new()
        } else {
            vec![modules::join(dir, "**/*")]
        }
    });
    let exclude = resolve_all(&config.exclude).unwrap_or_else(|| {
        [&options.out_dir, &options.declaration_dir]
            .into_iter()
            .flatten()
            .map(|w| w.resolve(dir))
            .collect()
    });
    let include: Vec<Glob> = include
        .iter()
        .map(|p| Glob::new(p, Usage::Include))
        .collect();
    let exclude: Vec<Glob> = exclude
        .iter()
        .map(|p| Glob::new(p, Usage::Exclude))
        .collect();
    let supported = |p: &str| allow_js || !modules::is_js(p);
    let literal: Vec<String> = files
        .unwrap_or_default()
        .into_iter()
        .filter(|f| paths.binary_search(f).is_ok() && supported(f))
        .collect();
    let mut matched: BTreeSet<&String> = BTreeSet::new();
    for g in &include {
        for p in g.candidates(paths) {
            if supported(p) && g.matches(p) && !exclude.iter().any(|x| x.matches(p)) {
                matched.insert(p);
            }
        }
    }
    let present: HashSet<&str> = literal
        .iter()
        .map(String::as_str)
        .chain(matched.iter().map(|p| p.as_str()))
        .collect();
    let mut roots = literal.clone();
    roots.extend(
        matched
            .into_iter()
            .filter(|p| !has_higher_priority_sibling(p, &present))
            .filter(|p| !literal.contains(p))
            .cloned(),
    );
    roots
}

/// Extension groups in tsc's priority order (`allSupportedExtensions`).
const EXTENSION_GROUPS: &[&[&str]] = &[
    &[".ts", ".tsx", ".d.ts", ".js", ".jsx"],
    &[".cts", ".d.cts", ".cjs"],
    &[".mts", ".d.mts", ".mjs"],
];

/// tsc's `hasFileWithHigherPriorityExtension`: `a.ts` hides `a.tsx`, `a.d.ts`,
/// `a.js`; a declaration does not hide the JavaScript it describes.
fn has_higher_priority_sibling(path: &str, present: &HashSet<&str>) -> bool {
    let Some(ext) = [".d.ts", ".d.cts", ".d.mts"]
        .into_iter()
        .find(|e| path.ends_with(e))
        .or_else(|| path.rfind('.').map(|i| &path[i..]))
    else {
        return false;
    };
    let Some(group) = EXTENSION_GROUPS.iter().find(|g| g.contains(&ext)) else {
        return false;
    };
    let stem = &path[..path.len() - ext.len()];
    let is_js = modules::is_js(path);
    group
        .iter()
        .take_while(|e| **e != ext)
        .filter(|e| !(is_js && **e == ".d.ts"))
        .any(|e| present.contains(format!("{stem}{e}").as_str()))
}

/// What a wildcard pattern is matched for: files to include, or paths to exclude
/// (an excluded directory excludes everything under it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Usage {
    Include,
    Exclude,
}

#[derive(Debug, Clone, PartialEq)]
enum Segment {
    Literal(String),
    Wild(String),
    /// `**`: any number of directories.
    Any,
}

/// An `include` / `exclude` pattern, root-relative, one matcher per path segment.
#[derive(Debug, Clone)]
struct Glob {
    segments: Vec<Segment>,
    usage: Usage,
}

impl Glob {
    fn new(pattern: &str, usage: Usage) -> Glob {
        let mut segments = segments_of(pattern);
        if usage == Usage::Include {
            // `src` in `include` is `src/**/*`: a last segment with no wildcard and no
            // extension names a directory (tsc's implicit glob); a trailing `**`
            // names nothing (tsc refuses it).
            match segments.last() {
                Some(Segment::Any) => segments.clear(),
                Some(Segment::Literal(s)) if s.contains('.') => {}
                Some(Segment::Wild(_)) => {}
                _ => segments.extend([Segment::Any, Segment::Wild("*".into())]),
            }
        }
        Glob { segments, usage }
    }

    /// A `workspaces` glob: directories, matched whole (`packages/*`, `apps/**`).
    fn directories(pattern: &str) -> Glob {
        let segments = segments_of(pattern);
        Glob {
            segments,
            usage: Usage::Include,
        }
    }

    /// The sorted paths this pattern may match: those under its leading literal
    /// directories (a binary search, so a project costs what its pattern names).
    fn candidates<'p>(&self, paths: &'p [String]) -> &'p [String] {
        let dirs: Vec<&str> = self.segments[..self.segments.len().saturating_sub(1)]
            .iter()
            .map_while(|s| match s {
                Segment::Literal(l) => Some(l.as_str()),
                _ => None,
            })
            .collect();
        if dirs.is_empty() {
            return paths;
        }
        let prefix = format!("{}/", dirs.join("/"));
        let start = paths.partition_point(|p| p.as_str() < prefix.as_str());
        let len = paths[start..].partition_point(|p| p.starts_with(&prefix));
        &paths[start..start + len]
    }

    /// Whether a root-relative path matches: every segment, or (exclude) a leading
    /// run of segments. A table over (pattern segment, path segment), so several
    /// `**` cost no backtracking.
    fn matches(&self, path: &str) -> bool {
        let parts: Vec<&str> = path.split('/').collect();
        let (p, n) = (self.segments.len(), parts.len());
        if p == 0 {
            return false;
        }
        // done[i][j]: segments[i..] match parts[j..].
        let mut done = vec![vec![false; n + 1]; p + 1];
        for (j, cell) in done[p].iter_mut().enumerate() {
            *cell = j == n || (self.usage == Usage::Exclude && j > 0);
        }
        for i in (0..p).rev() {
            for j in (0..=n).rev() {
                done[i][j] = match &self.segments[i] {
                    Segment::Any => {
                        done[i + 1][j] || (j < n && self.any_may_cross(parts[j]) && done[i][j + 1])
                    }
                    seg => {
                        j < n
                            && self.segment_matches(seg, parts[j], j + 1 == n)
                            && done[i + 1][j + 1]
                    }
                };
            }
        }
        done[0][0]
    }

    /// A directory `**` may cross when including: not a dot-name, not a package folder.
    fn any_may_cross(&self, dir: &str) -> bool {
        self.usage == Usage::Exclude
            || !(dir.starts_with('.')
                || matches!(dir, "node_modules" | "bower_components" | "jspm_packages"))
    }

    fn segment_matches(&self, seg: &Segment, part: &str, last: bool) -> bool {
        match seg {
            Segment::Literal(l) => l == part,
            Segment::Wild(w) => {
                if self.usage == Usage::Include {
                    // A leading `*` never matches a dot-name; `*` never swallows `.min.js`.
                    if w.starts_with('*') && part.starts_with('.') {
                        return false;
                    }
                    if last && part.ends_with(".min.js") && !w.ends_with(".min.js") {
                        return false;
                    }
                }
                wildcard(w.as_bytes(), part.as_bytes())
            }
            Segment::Any => true,
        }
    }
}

fn segments_of(pattern: &str) -> Vec<Segment> {
    pattern
        .split('/')
        .filter(|s| !s.is_empty())
        .map(|s| match s {
            "**" => Segment::Any,
            s if s.contains(['*', '?']) => Segment::Wild(s.to_string()),
            s => Segment::Literal(s.to_string()),
        })
        .collect()
}

/// `*` (any run) and `?` (one character) within one path segment.
fn wildcard(pattern: &[u8], text: &[u8]) -> bool {
    let (mut p, mut t) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while t < text.len() {
        match pattern.get(p) {
            Some(b'*') => {
                star = Some((p, t));
                p += 1;
            }
            Some(&c) if c == b'?' || c == text[t] => {
                p += 1;
                t += 1;
            }
            _ => match star {
                Some((sp, st)) => {
                    p = sp + 1;
                    t = st + 1;
                    star = Some((sp, st + 1));
                }
                None => return false,
            },
        }
    }
    pattern[p..].iter().all(|&c| c == b'*')
}

fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

fn under_node_modules(path: &str) -> bool {
    path.split('/').any(|p| p == "node_modules")
}

/// A request as the frontend records it (its target filled by [`apply`]).
pub fn request(specifier: &str, syntax: crate::facts::ModuleSyntax) -> ModuleRequest {
    ModuleRequest {
        specifier: specifier.to_string(),
        syntax,
        target: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn include_patterns_follow_tsc_wildcards() {
        let g = Glob::new("src", Usage::Include);
        assert!(g.matches("src/a.ts") && g.matches("src/deep/b.ts"));
        assert!(!g.matches("src/.hidden/b.ts") && !g.matches("src/node_modules/x/i.ts"));
        assert!(!g.matches("lib/a.ts"));
        let g = Glob::new("src/**/*.spec.ts", Usage::Include);
        assert!(
            g.matches("src/a.spec.ts") && g.matches("src/x/y/a.spec.ts") && !g.matches("src/a.ts")
        );
        let g = Glob::new("*.js", Usage::Include);
        assert!(g.matches("a.js") && !g.matches("a.min.js") && !g.matches("dir/a.js"));
        let g = Glob::new("a?.ts", Usage::Include);
        assert!(g.matches("ab.ts") && !g.matches("abc.ts"));
    }

    #[test]
    fn a_pattern_only_reads_the_paths_under_its_literal_directories() {
        let paths: Vec<String> = ["a/x.ts", "src/a.ts", "src/deep/b.ts", "srcx/c.ts", "z.ts"]
            .iter()
            .map(|p| p.to_string())
            .collect();
        assert_eq!(
            Glob::new("src", Usage::Include).candidates(&paths),
            &paths[1..3]
        );
        assert_eq!(
            Glob::new("**/*.ts", Usage::Include)
                .candidates(&paths)
                .len(),
            5
        );
        assert_eq!(
            Glob::new("z.ts", Usage::Include).candidates(&paths).len(),
            5
        );
        assert!(Glob::new("../out", Usage::Include)
            .candidates(&paths)
            .is_empty());
    }

    #[test]
    fn a_file_is_held_by_a_project_above_it() {
        let holders: HashMap<String, bool> =
            [("app".to_string(), false), ("web".to_string(), true)]
                .into_iter()
                .collect();
        assert!(is_held(&holders, "app/src/a.ts"));
        assert!(
            !is_held(&holders, "app/src/a.js"),
            "no allowJs: JavaScript is not held"
        );
        assert!(is_held(&holders, "web/a.js"));
        assert!(!is_held(&holders, "apps/a.ts") && !is_held(&holders, "a.ts"));
    }

    #[test]
    fn workspace_globs_name_member_directories() {
        let g = Glob::directories("packages/*");
        assert!(g.matches("packages/a") && !g.matches("packages/a/b") && !g.matches("packages/.x"));
        assert!(Glob::directories("apps/**").matches("apps/web/site"));
    }

    #[test]
    fn an_excluded_directory_excludes_what_is_under_it() {
        let g = Glob::new("src/legacy", Usage::Exclude);
        assert!(
            g.matches("src/legacy/a.ts") && g.matches("src/legacy") && !g.matches("src/legacyx.ts")
        );
        let g = Glob::new("**/*.test.ts", Usage::Exclude);
        assert!(g.matches("a/.b/c.test.ts") && !g.matches("a/c.ts"));
    }

    #[test]
    fn a_typescript_file_hides_its_wildcard_matched_siblings() {
        let present: HashSet<&str> = ["a.ts", "a.d.ts", "a.js", "b.d.ts", "b.js", "c.tsx", "c.ts"]
            .into_iter()
            .collect();
        assert!(has_higher_priority_sibling("a.d.ts", &present));
        assert!(has_higher_priority_sibling("a.js", &present));
        assert!(!has_higher_priority_sibling("a.ts", &present));
        assert!(
            !has_higher_priority_sibling("b.js", &present),
            "a declaration does not hide its JavaScript"
        );
        assert!(has_higher_priority_sibling("c.tsx", &present));
    }

    #[test]
    fn resolution_defaults_follow_module_and_target() {
        let with = |module: Option<ModuleKind>, target: Option<u32>| CompilerOptions {
            module,
            target,
            ..CompilerOptions::default()
        };
        assert_eq!(with(None, None).strategy(), Strategy::Node10);
        assert_eq!(with(None, Some(9)).strategy(), Strategy::Classic);
        assert_eq!(
            with(Some(ModuleKind::NodeNext), None).strategy(),
            Strategy::NodeNext
        );
        assert_eq!(
            with(Some(ModuleKind::Preserve), None).strategy(),
            Strategy::Bundler
        );
        assert_eq!(target_number("es2022"), Some(9));
        assert!(CompilerOptions {
            check_js: Some(true),
            ..CompilerOptions::default()
        }
        .allow_js());
    }
}
