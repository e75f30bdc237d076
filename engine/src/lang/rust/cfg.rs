//! Rust's conditional compilation: which code the build compiles (DESIGN §3,
//! "build configuration"; D32).
//!
//! rustc removes the code a `#[cfg(…)]` leaves out before it resolves a single
//! name. The frontend does the same while the syntax tree is alive: each gate's
//! predicate is read from the attribute's token tree as structure
//! ([`read_predicate`]), evaluated against the configuration ([`Env`]), and the
//! code it leaves out is walked as inactive: its declarations are listed and
//! marked, its names bind nothing, its calls are no sites.
//!
//! What a predicate reads:
//! - the target: the `x86_64-unknown-linux-gnu` of `rustc --print cfg` (rustc
//!   1.95), from `Configuration.rust` where it carries the value (`target_os`,
//!   `target_family`, `target_arch`, `target_pointer_width`, `target_endian`,
//!   `panic`, `debug_assertions`), else that target's constants ([`TARGET_ENV`],
//!   …);
//! - `feature = "x"`: the package's enabled features ([`Packages`]), read from its
//!   `Cargo.toml` the way Cargo resolves them, plus `--cfg feature="x"`;
//! - `test`: per build ([`Builds`]): a library is read as the build every other
//!   crate compiles (`test` off) and, when the run includes tests, as the build
//!   `cargo test` makes of it (`test` on); the test targets (`tests/`, `benches/`)
//!   are test builds only;
//! - any other name or key: a `--cfg` option, else false (`doc`, `docsrs`,
//!   `miri`, a crate's own `--cfg` names).

use std::collections::{BTreeMap, BTreeSet};

use tree_sitter::Node;

use crate::config::{Configuration, RustConfig};
use crate::lang::node_text;

/// Predicates nested deeper than this are not read ([`Predicate::Unreadable`]).
const MAX_PREDICATE_DEPTH: u32 = 32;

/// The constants of the target that `Configuration.rust` does not carry
/// (`rustc --print cfg` on x86_64-unknown-linux-gnu).
pub const TARGET_ENV: &str = "gnu";
pub const TARGET_VENDOR: &str = "unknown";
pub const TARGET_ABI: &str = "";
pub const TARGET_HAS_ATOMIC: &[&str] = &["8", "16", "32", "64", "ptr"];
pub const TARGET_FEATURES: &[&str] = &["fxsr", "sse", "sse2"];

/// A `cfg` predicate as the attribute writes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Predicate {
    All(Vec<Predicate>),
    Any(Vec<Predicate>),
    Not(Box<Predicate>),
    /// `unix`, `test`, `my_flag`.
    Name(String),
    /// `feature = "x"`, `target_os = "linux"`.
    Pair(String, String),
    /// `true` / `false` (stable since Rust 1.88).
    Literal(bool),
    /// Tokens that are no predicate (rustc rejects the crate): read as true, so
    /// the code stays read as it was before the engine evaluated any `cfg`.
    Unreadable,
}

impl Predicate {
    /// `cfg_attr(p, cfg(q))`: q gates only where p holds.
    pub fn implied_by(p: Predicate, q: Predicate) -> Predicate {
        Predicate::Any(vec![Predicate::Not(Box::new(p)), q])
    }
}

/// The predicate list of a token tree `( p, q, … )`: one predicate per
/// comma-separated segment (an empty segment, after a trailing comma, is none).
pub fn read_predicates(src: &[u8], tt: Node, depth: u32) -> Vec<Predicate> {
    segments(tt)
        .iter()
        .filter(|s| !s.is_empty())
        .map(|s| read_predicate(src, s, depth))
        .collect()
}

/// The tokens of a token tree without its delimiters, split at top-level commas.
pub fn segments(tt: Node) -> Vec<Vec<Node>> {
    let mut cursor = tt.walk();
    let mut tokens: Vec<Node> = tt.children(&mut cursor).collect();
    if tokens
        .first()
        .is_some_and(|t| matches!(t.kind(), "(" | "[" | "{"))
    {
        tokens.remove(0);
    }
    if tokens
        .last()
        .is_some_and(|t| matches!(t.kind(), ")" | "]" | "}"))
    {
        tokens.pop();
    }
    tokens
        .split(|t| t.kind() == ",")
        .map(<[Node]>::to_vec)
        .collect()
}

/// One predicate from its tokens: `name`, `key = "value"`, `all(…)`, `any(…)`,
/// `not(p)`, `true`/`false`.
pub fn read_predicate(src: &[u8], tokens: &[Node], depth: u32) -> Predicate {
    if depth > MAX_PREDICATE_DEPTH {
        return Predicate::Unreadable;
    }
    match tokens {
        [t] if t.kind() == "boolean_literal" => Predicate::Literal(node_text(src, *t) == "true"),
        [t] if t.kind() == "identifier" => Predicate::Name(node_text(src, *t).to_string()),
        [key, eq, value] if key.kind() == "identifier" && eq.kind() == "=" => {
            match string_value(src, *value) {
                Some(v) => Predicate::Pair(node_text(src, *key).to_string(), v),
                None => Predicate::Unreadable,
            }
        }
        [op, tt] if op.kind() == "identifier" && tt.kind() == "token_tree" => {
            let inner = read_predicates(src, *tt, depth + 1);
            match node_text(src, *op) {
                "all" => Predicate::All(inner),
                "any" => Predicate::Any(inner),
                "not" => match <[Predicate; 1]>::try_from(inner) {
                    Ok([one]) => Predicate::Not(Box::new(one)),
                    Err(_) => Predicate::Unreadable,
                },
                _ => Predicate::Unreadable,
            }
        }
        _ => Predicate::Unreadable,
    }
}

/// The value of a string literal token: between its quotes (`"x"`, `r"x"`,
/// `r#"x"#`); escapes are kept as written (no cfg value needs one).
fn string_value(src: &[u8], node: Node) -> Option<String> {
    let text = node_text(src, node);
    match node.kind() {
        "string_literal" => text
            .strip_prefix('"')
            .and_then(|t| t.strip_suffix('"'))
            .map(str::to_string),
        "raw_string_literal" => {
            let t = text.strip_prefix('r')?;
            let hashes = t.len() - t.trim_start_matches('#').len();
            let t = &t[hashes..t.len().checked_sub(hashes)?];
            t.strip_prefix('"')
                .and_then(|t| t.strip_suffix('"'))
                .map(str::to_string)
        }
        _ => None,
    }
}

/// What a predicate is evaluated against: the configuration and the enabled
/// features of the file's package.
#[derive(Debug, Clone, Copy)]
pub struct Env<'a> {
    pub rust: &'a RustConfig,
    pub features: &'a BTreeSet<String>,
}

impl Env<'_> {
    /// Whether `p` holds in a build where `test` is on or off.
    pub fn holds(&self, p: &Predicate, test: bool) -> bool {
        match p {
            Predicate::All(ps) => ps.iter().all(|p| self.holds(p, test)),
            Predicate::Any(ps) => ps.iter().any(|p| self.holds(p, test)),
            Predicate::Not(p) => !self.holds(p, test),
            Predicate::Name(name) => self.name_holds(name, test),
            Predicate::Pair(key, value) => self.pair_holds(key, value),
            Predicate::Literal(b) => *b,
            Predicate::Unreadable => true,
        }
    }

    fn name_holds(&self, name: &str, test: bool) -> bool {
        match name {
            "test" => test,
            "unix" => self.rust.target_family == "unix",
            "windows" => self.rust.target_family == "windows",
            "debug_assertions" => self.rust.debug_assertions,
            // `doc`, `doctest`, `docsrs`, `miri`, `clippy` and every name the
            // build is not given: false.
            _ => self.given(name, None),
        }
    }

    fn pair_holds(&self, key: &str, value: &str) -> bool {
        let rust = self.rust;
        match key {
            "feature" => self.features.contains(value),
            "target_os" => value == rust.target_os,
            "target_family" => value == rust.target_family,
            "target_arch" => value == rust.target_arch,
            "target_pointer_width" => value == rust.target_pointer_width,
            "target_endian" => value == rust.target_endian,
            "panic" => value == rust.panic,
            "target_env" => value == TARGET_ENV,
            "target_vendor" => value == TARGET_VENDOR,
            "target_abi" => value == TARGET_ABI,
            "target_has_atomic" => TARGET_HAS_ATOMIC.contains(&value),
            "target_feature" => TARGET_FEATURES.contains(&value),
            _ => self.given(key, Some(value)),
        }
    }

    /// A `--cfg` option of the run.
    fn given(&self, key: &str, value: Option<&str>) -> bool {
        self.rust
            .cfg
            .iter()
            .any(|o| o.key == key && o.value.as_deref() == value)
    }
}

/// The builds a piece of code is compiled in. A library (and a binary) is
/// compiled as every other crate sees it (`normal`, `test` off) and, when the
/// run includes tests, by `cargo test` as its own unit-test harness (`test`
/// on); an integration test or a bench is compiled only as a test build; an
/// example or a build script only normally.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Builds {
    pub normal: bool,
    pub test: bool,
}

impl Builds {
    /// Compiled by no build: inactive.
    pub const NONE: Builds = Builds {
        normal: false,
        test: false,
    };

    pub fn compiled(self) -> bool {
        self.normal || self.test
    }

    /// The builds of code under a gate: those of its surroundings in which the
    /// predicate holds.
    pub fn gated(self, env: &Env, p: &Predicate) -> Builds {
        Builds {
            normal: self.normal && env.holds(p, false),
            test: self.test && env.holds(p, true),
        }
    }

    /// Whether code under these builds, inside code compiled by `around`, is
    /// compiled only by the test build where its surroundings are also compiled
    /// normally (a `#[cfg(test)]` item of a library). Its names are bound for
    /// the test build only, which the engine's one scope per module cannot
    /// hold apart from the normal build's, so they are not bound (D32).
    pub fn only_for_tests_within(self, around: Builds) -> bool {
        self.compiled() && around.normal && !self.normal
    }

    /// The build whose attributes are read where a `cfg_attr` depends on the
    /// build: the normal one when the code has one.
    pub fn holds_in_first(self, env: &Env, p: &Predicate) -> bool {
        env.holds(p, !self.normal)
    }
}

/// The enabled features of every package of the tree, by the directory of its
/// `Cargo.toml` (root-relative, `""` for the root), evaluated once for the run.
#[derive(Debug, Clone, Default)]
pub struct Packages {
    by_dir: BTreeMap<String, BTreeSet<String>>,
    /// `--cfg feature="x"` alone: the features of a file no package holds.
    loose: BTreeSet<String>,
}

impl Packages {
    /// Reads every `Cargo.toml` that declares a `[package]`; a manifest TOML
    /// cannot read (Cargo would refuse it too) enables only the `--cfg` features.
    pub fn collect(build_files: &BTreeMap<String, Vec<u8>>, config: &Configuration) -> Packages {
        let loose: BTreeSet<String> = given_features(&config.rust).collect();
        let mut by_dir = BTreeMap::new();
        for (path, bytes) in build_files {
            let dir = match path.strip_suffix("Cargo.toml") {
                Some("") => "",
                Some(d) => match d.strip_suffix('/') {
                    Some(d) => d,
                    None => continue,
                },
                None => continue,
            };
            let Some(manifest) = std::str::from_utf8(bytes)
                .ok()
                .and_then(|t| t.parse::<toml::Table>().ok())
            else {
                continue;
            };
            if !manifest.contains_key("package") {
                continue;
            }
            by_dir.insert(dir.to_string(), enabled_features(&manifest, &config.rust));
        }
        Packages { by_dir, loose }
    }

    /// The package a file belongs to: the directory of the nearest `Cargo.toml`
    /// at or above it that declares a package, and its enabled features.
    pub fn of_file(&self, path: &str) -> (&str, &BTreeSet<String>) {
        let mut dir = path.rsplit_once('/').map(|(d, _)| d).unwrap_or("");
        loop {
            if let Some((d, features)) = self.by_dir.get_key_value(dir) {
                return (d.as_str(), features);
            }
            if dir.is_empty() {
                return ("", &self.loose);
            }
            dir = dir.rsplit_once('/').map(|(d, _)| d).unwrap_or("");
        }
    }
}

/// The builds that compile a file, by its place in its package (Cargo's target
/// layout): `tests/` and `benches/` are test targets, `examples/` and
/// `build.rs` are compiled normally only, anything else (the library, the
/// binaries) both ways. `None`: no build compiles it (a test target when the
/// run leaves tests out).
pub fn file_builds(path: &str, package_dir: &str, config: &Configuration) -> Option<Builds> {
    let relative = if package_dir.is_empty() {
        path
    } else {
        path.strip_prefix(package_dir)
            .and_then(|p| p.strip_prefix('/'))
            .unwrap_or(path)
    };
    let first = relative.split('/').next().unwrap_or("");
    let is_target_dir = relative.contains('/');
    match first {
        "tests" | "benches" if is_target_dir => config.tests.then_some(Builds {
            normal: false,
            test: true,
        }),
        "examples" if is_target_dir => Some(Builds {
            normal: true,
            test: false,
        }),
        "build.rs" => Some(Builds {
            normal: true,
            test: false,
        }),
        _ => Some(Builds {
            normal: true,
            test: config.tests,
        }),
    }
}

/// `--cfg feature="x"` options.
fn given_features(rust: &RustConfig) -> impl Iterator<Item = String> + '_ {
    rust.cfg
        .iter()
        .filter(|o| o.key == "feature")
        .filter_map(|o| o.value.clone())
}

/// The features Cargo enables for a package: `default` (unless
/// `--no-default-features`) and the `--cfg` features, then, transitively, what
/// each enabled feature lists: a plain name enables that feature; `"dep:x"`
/// enables the dependency only; `"x/f"` enables dependency x's feature f and,
/// when x is optional, x's own feature of the package where one exists;
/// `"x?/f"` enables nothing of the package. An optional dependency is an
/// implicit feature of its name unless some `"dep:x"` entry names it.
pub fn enabled_features(manifest: &toml::Table, rust: &RustConfig) -> BTreeSet<String> {
    let mut table: BTreeMap<String, Vec<String>> = BTreeMap::new();
    if let Some(features) = manifest.get("features").and_then(|f| f.as_table()) {
        for (name, entries) in features {
            let entries = entries
                .as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|e| e.as_str().map(str::to_string))
                        .collect()
                })
                .unwrap_or_default();
            table.insert(name.clone(), entries);
        }
    }
    let optional = optional_dependencies(manifest);
    let hidden: BTreeSet<&str> = table
        .values()
        .flatten()
        .filter_map(|e| e.strip_prefix("dep:"))
        .collect();
    let implicit: Vec<String> = optional
        .iter()
        .filter(|d| !hidden.contains(d.as_str()) && !table.contains_key(*d))
        .cloned()
        .collect();
    for dep in implicit {
        let entry = format!("dep:{dep}");
        table.insert(dep, vec![entry]);
    }
    let mut todo: Vec<String> = given_features(rust).collect();
    if rust.default_features && table.contains_key("default") {
        todo.push("default".to_string());
    }
    let mut on = BTreeSet::new();
    while let Some(feature) = todo.pop() {
        if !on.insert(feature.clone()) {
            continue;
        }
        for entry in table.get(&feature).into_iter().flatten() {
            if let Some(next) = feature_an_entry_enables(entry, &optional, &table) {
                todo.push(next);
            }
        }
    }
    on
}

/// The feature of this package a `[features]` entry enables, if any.
fn feature_an_entry_enables(
    entry: &str,
    optional: &BTreeSet<String>,
    table: &BTreeMap<String, Vec<String>>,
) -> Option<String> {
    if entry.starts_with("dep:") {
        return None;
    }
    match entry.split_once('/') {
        // `x?/f` is weak: it enables nothing the package would not have anyway.
        Some((dep, _)) if dep.ends_with('?') => None,
        Some((dep, _)) => {
            (optional.contains(dep) && table.contains_key(dep)).then(|| dep.to_string())
        }
        None => Some(entry.to_string()),
    }
}

/// The names (as the manifest writes them) of the package's optional
/// dependencies, in `[dependencies]`, `[build-dependencies]` and their
/// `[target.*]` forms.
fn optional_dependencies(manifest: &toml::Table) -> BTreeSet<String> {
    let mut tables: Vec<&toml::Table> = Vec::new();
    let kinds = ["dependencies", "build-dependencies", "build_dependencies"];
    for kind in kinds {
        tables.extend(manifest.get(kind).and_then(|t| t.as_table()));
    }
    if let Some(targets) = manifest.get("target").and_then(|t| t.as_table()) {
        for target in targets.values().filter_map(|t| t.as_table()) {
            for kind in kinds {
                tables.extend(target.get(kind).and_then(|t| t.as_table()));
            }
        }
    }
    tables
        .into_iter()
        .flat_map(|t| t.iter())
        .filter(|(_, spec)| {
            spec.get("optional")
                .and_then(|o| o.as_bool())
                .unwrap_or(false)
        })
        .map(|(name, _)| name.clone())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::CfgOption;

    fn parse(text: &str) -> Predicate {
        let source = format!("#[cfg({text})]\nfn f() {{}}\n");
        let mut parser = tree_sitter::Parser::new();
        parser
            .set_language(&tree_sitter_rust::LANGUAGE.into())
            .unwrap();
        let tree = parser.parse(&source, None).unwrap();
        let attr = tree
            .root_node()
            .named_child(0)
            .and_then(|a| a.named_child(0))
            .unwrap();
        let tt = attr.child_by_field_name("arguments").unwrap();
        let mut ps = read_predicates(source.as_bytes(), tt, 0);
        assert_eq!(ps.len(), 1, "{text}");
        ps.remove(0)
    }

    fn holds(text: &str, features: &[&str], test: bool) -> bool {
        let config = Configuration::default();
        let features = features.iter().map(|f| f.to_string()).collect();
        let env = Env {
            rust: &config.rust,
            features: &features,
        };
        env.holds(&parse(text), test)
    }

    #[test]
    fn predicates_are_read_as_structure() {
        assert_eq!(
            parse("all(unix, not(feature = \"x\"))"),
            Predicate::All(vec![
                Predicate::Name("unix".into()),
                Predicate::Not(Box::new(Predicate::Pair("feature".into(), "x".into())))
            ])
        );
        assert_eq!(parse("any()"), Predicate::Any(vec![]));
        assert_eq!(parse("not(a, b)"), Predicate::Unreadable);
        assert_eq!(
            parse("feature = r#\"y\"#"),
            Predicate::Pair("feature".into(), "y".into())
        );
        assert_eq!(parse("false"), Predicate::Literal(false));
    }

    #[test]
    fn the_default_target_is_linux_x86_64() {
        for yes in [
            "unix",
            "target_os = \"linux\"",
            "target_family = \"unix\"",
            "target_arch = \"x86_64\"",
            "target_pointer_width = \"64\"",
            "target_endian = \"little\"",
            "target_env = \"gnu\"",
            "target_vendor = \"unknown\"",
            "target_has_atomic = \"ptr\"",
            "target_has_atomic = \"64\"",
            "target_feature = \"sse2\"",
            "debug_assertions",
            "panic = \"unwind\"",
            "all()",
            "true",
        ] {
            assert!(holds(yes, &[], false), "{yes}");
        }
        for no in [
            "windows",
            "target_os = \"macos\"",
            "target_pointer_width = \"32\"",
            "target_has_atomic = \"128\"",
            "target_feature = \"avx2\"",
            "panic = \"abort\"",
            "doc",
            "docsrs",
            "miri",
            "some_unknown_key",
            "unknown_key = \"v\"",
            "any()",
        ] {
            assert!(!holds(no, &[], false), "{no}");
        }
    }

    #[test]
    fn test_and_features_depend_on_the_build() {
        assert!(holds("test", &[], true));
        assert!(!holds("test", &[], false));
        assert!(holds(
            "all(any(not(test), feature = \"a\"), unix)",
            &["a"],
            true
        ));
        assert!(!holds(
            "all(any(not(test), feature = \"a\"), unix)",
            &[],
            true
        ));
    }

    #[test]
    fn cfg_options_are_given_names() {
        let mut config = Configuration::default();
        config.rust.cfg.push(CfgOption::parse("my_flag").unwrap());
        config
            .rust
            .cfg
            .push(CfgOption::parse("level=\"2\"").unwrap());
        let none = BTreeSet::new();
        let env = Env {
            rust: &config.rust,
            features: &none,
        };
        assert!(env.holds(&parse("my_flag"), false));
        assert!(env.holds(&parse("level = \"2\""), false));
        assert!(!env.holds(&parse("level = \"3\""), false));
    }

    fn features_of(manifest: &str, rust: &RustConfig) -> Vec<String> {
        enabled_features(&manifest.parse().unwrap(), rust)
            .into_iter()
            .collect()
    }

    #[test]
    fn features_follow_cargo() {
        let manifest = r#"
[package]
name = "p"
[features]
default = [
    "std",
    "color",
    "serde/derive",
]
std = ["anstyle/std", "memchr?/std"]
color = ["dep:anstream"]
fancy = ["unicode"]
unicode = []
[dependencies]
anstream = { version = "1", optional = true }
serde = { version = "1", optional = true }
memchr = { version = "2", optional = true }
anstyle = "1"
[target.'cfg(unix)'.dependencies.libc]
version = "0.2"
optional = true
"#;
        let config = Configuration::default();
        // serde is enabled by `serde/derive` and is an implicit feature;
        // anstream is hidden by `dep:`; memchr is only weakly named.
        assert_eq!(
            features_of(manifest, &config.rust),
            ["color", "default", "serde", "std"]
        );
        let mut off = Configuration::default();
        off.rust.default_features = false;
        off.rust
            .cfg
            .push(CfgOption::parse("feature=\"fancy\"").unwrap());
        assert_eq!(features_of(manifest, &off.rust), ["fancy", "unicode"]);
        off.rust
            .cfg
            .push(CfgOption::parse("feature=\"libc\"").unwrap());
        assert_eq!(
            features_of(manifest, &off.rust),
            ["fancy", "libc", "unicode"]
        );
    }

    #[test]
    fn a_file_belongs_to_the_nearest_package() {
        let mut files = BTreeMap::new();
        files.insert(
            "Cargo.toml".to_string(),
            b"[workspace]\nmembers = [\"a\"]\n".to_vec(),
        );
        files.insert(
            "a/Cargo.toml".to_string(),
            b"[package]\nname = \"a\"\n[features]\ndefault = [\"x\"]\nx = []\n".to_vec(),
        );
        files.insert("b/Cargo.toml".to_string(), b"not toml [".to_vec());
        let config = Configuration::default();
        let packages = Packages::collect(&files, &config);
        let (dir, features) = packages.of_file("a/src/deep/m.rs");
        assert_eq!(dir, "a");
        assert!(features.contains("x") && features.contains("default"));
        assert_eq!(packages.of_file("b/src/lib.rs").0, "");
        assert!(packages.of_file("src/lib.rs").1.is_empty());
    }

    #[test]
    fn targets_decide_the_builds() {
        let config = Configuration::default();
        let both = Builds {
            normal: true,
            test: true,
        };
        assert_eq!(file_builds("a/src/lib.rs", "a", &config), Some(both));
        assert_eq!(
            file_builds("a/tests/it.rs", "a", &config),
            Some(Builds {
                normal: false,
                test: true
            })
        );
        assert_eq!(
            file_builds("examples/demo.rs", "", &config).map(|b| b.test),
            Some(false)
        );
        assert_eq!(file_builds("src/tests.rs", "", &config), Some(both));
        let no_tests = Configuration {
            tests: false,
            ..Configuration::default()
        };
        assert_eq!(file_builds("benches/b.rs", "", &no_tests), None);
        assert_eq!(
            file_builds("src/lib.rs", "", &no_tests),
            Some(Builds {
                normal: true,
                test: false
            })
        );
    }
}
