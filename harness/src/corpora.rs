//! `corpora.json` (`corpora/1`, DESIGN §5): the pinned real corpora.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use oracles::{describe_json_error, read_capped};
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

pub const CORPORA_SCHEMA: &str = "corpora/1";

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CorporaFile {
    pub schema: String,
    #[serde(default)]
    pub corpora: Vec<CorpusEntry>,
}

/// One corpus: where it comes from (registry, name, exact version, archive sha256),
/// which part of it is analysed, and which oracle judges it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CorpusEntry {
    pub id: String,
    pub language: String,
    pub source: Source,
    #[serde(default)]
    pub root: String,
    #[serde(default)]
    pub include: Vec<String>,
    /// A documented step that turns the unpacked archive into the tree to analyse
    /// (harness/src/prepare.rs); `root` and `include` then apply to what it made.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prepare: Option<crate::prepare::Prepare>,
    pub oracle: OracleChoice,
    /// The build configuration the corpus is measured with: the engine is given it
    /// as flags (`callgraph analyze --cfg … --go-tags … --define … --python-version …`)
    /// and the oracle builds the same program. Empty: the default build.
    #[serde(default, skip_serializing_if = "BuildConfiguration::is_default")]
    pub build: BuildConfiguration,
    /// Other call-graph tools judged against the same truth, side by side with the
    /// engine: each is a row `<id>@<name>` (harness/src/python_rows.rs).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub peers: Vec<OracleChoice>,
    /// Other oracles judging the engine on the same tree: each is a row
    /// `<id>@<name>` beside the row of `oracle` (harness/src/python_rows.rs).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub other_oracles: Vec<OracleChoice>,
    #[serde(default)]
    pub published: serde_json::Value,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Source {
    pub registry: String,
    pub package: String,
    pub version: String,
    #[serde(default)]
    pub archive: String,
    pub sha256: String,
}

/// A corpus's build configuration, as `callgraph analyze` takes it (docs/REPORT.md,
/// "configuration"). Oracle adapters read the same fields where their build takes
/// them (Rust features, C defines, Go tags), so engine and oracle read one program.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BuildConfiguration {
    /// Rust cfg options beyond the target's: `feature="x"`, `name`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cfg: Vec<String>,
    /// Rust: the crate's `default` features off.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub no_default_features: bool,
    /// Go build tags.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub go_tags: Vec<String>,
    /// C/C++ command-line macros of every unit, `NAME` or `NAME=VALUE`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub defines: Vec<String>,
    /// C/C++ language standards (`-std=`), one per language: `["c11", "c++11"]`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub std: Vec<String>,
    /// C++ units are compiled with `-fno-exceptions`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub no_exceptions: bool,
    /// C++ units are compiled with `-fno-rtti`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub no_rtti: bool,
    /// C/C++: one unit's own `-DNAME[=VALUE]` / `-UNAME`, after `defines`, by path
    /// relative to the root.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub unit_macros: BTreeMap<String, Vec<String>>,
    /// C/C++: macros some units define and others do not (beyond `unit_macros`);
    /// the engine reads them as unknown.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub varying_defines: Vec<String>,
    /// Python: `MAJOR.MINOR` of the interpreter the guards are evaluated for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub python_version: Option<String>,
    /// TypeScript/JavaScript: compiler options over the tree's own tsconfig files
    /// (as a tsconfig's `compilerOptions` writes them, paths relative to the root).
    #[serde(default, skip_serializing_if = "serde_json::Map::is_empty")]
    pub compiler_options: serde_json::Map<String, serde_json::Value>,
}

impl BuildConfiguration {
    pub fn is_default(&self) -> bool {
        *self == BuildConfiguration::default()
    }

    /// The engine's flags for this configuration, in a fixed order.
    pub fn engine_args(&self) -> Vec<String> {
        let mut args = Vec::new();
        for cfg in &self.cfg {
            args.extend(["--cfg".to_string(), cfg.clone()]);
        }
        if self.no_default_features {
            args.push("--no-default-features".to_string());
        }
        if !self.go_tags.is_empty() {
            args.extend(["--go-tags".to_string(), self.go_tags.join(",")]);
        }
        for define in &self.defines {
            args.extend(["--define".to_string(), define.clone()]);
        }
        for std in &self.std {
            args.extend(["--std".to_string(), std.clone()]);
        }
        if self.no_exceptions {
            args.push("--fno-exceptions".to_string());
        }
        if self.no_rtti {
            args.push("--fno-rtti".to_string());
        }
        for (unit, flags) in &self.unit_macros {
            for flag in flags {
                args.extend(["--unit-macro".to_string(), format!("{unit}:{flag}")]);
            }
        }
        for name in &self.varying_defines {
            args.extend(["--define-varies".to_string(), name.clone()]);
        }
        if let Some(v) = &self.python_version {
            args.extend(["--python-version".to_string(), v.clone()]);
        }
        if !self.compiler_options.is_empty() {
            let options = serde_json::Value::Object(self.compiler_options.clone());
            args.extend(["--ts-compiler-options".to_string(), options.to_string()]);
        }
        args
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OracleChoice {
    pub name: String,
    #[serde(default)]
    pub options: serde_json::Value,
}

/// The languages a corpus may be measured in (DESIGN §6).
pub const LANGUAGES: &[&str] = &[
    "python",
    "java",
    "go",
    "rust",
    "c",
    "cpp",
    "typescript",
    "tsx",
    "javascript",
    "kotlin",
    "csharp",
    "ada",
];

/// An id: a letter or digit, then letters, digits, `.`, `_`, `-`; never `..`. Ids
/// are joined into cache paths (`corpora/`, `views/`, `truths/`), so `../../x`
/// would write outside the cache (D10).
fn is_plain_id(text: &str) -> bool {
    text.starts_with(|c: char| c.is_ascii_alphanumeric())
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "._-".contains(c))
        && !text.contains("..")
}

/// A registry name or version as registries spell them (`@scope/name`,
/// `group:artifact`, `4.18.2+~4.17.14-1`, `1:2.0-1`): no `..`, no leading `.` or
/// `/`, no other separator, no space.
fn is_plain_name(text: &str, extra: &str) -> bool {
    !text.is_empty()
        && !text.starts_with(['.', '/'])
        && !text.contains("..")
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "._-+~:".contains(c) || extra.contains(c))
}

impl CorpusEntry {
    /// What must hold before any name is joined into a path.
    fn check_names(&self) -> std::result::Result<(), String> {
        if !is_plain_id(&self.id) {
            return Err(format!(
                "corpus id `{}` is not a plain name (letters, digits, `.`, `_`, `-`; no `..`)",
                self.id
            ));
        }
        if !LANGUAGES.contains(&self.language.as_str()) {
            return Err(format!(
                "corpus `{}`: language `{}` is not one of {}",
                self.id,
                self.language,
                LANGUAGES.join(", ")
            ));
        }
        if !is_plain_name(&self.source.registry, "") || self.source.registry.contains(':') {
            return Err(format!(
                "corpus `{}`: registry `{}` is not a plain name",
                self.id, self.source.registry
            ));
        }
        if !is_plain_name(&self.source.package, "@/") {
            return Err(format!(
                "corpus `{}`: package `{}` is not a registry name",
                self.id, self.source.package
            ));
        }
        if !is_plain_name(&self.source.version, "") {
            return Err(format!(
                "corpus `{}`: version `{}` is not a registry version",
                self.id, self.source.version
            ));
        }
        Ok(())
    }
}

impl CorporaFile {
    /// Reads and validates a corpora file.
    pub fn load(path: &Path, cap: u64) -> Result<CorporaFile> {
        let bytes = read_capped(path, cap)?;
        let origin = path.display().to_string();
        let invalid = |detail: String| Error::InvalidCorpora {
            path: origin.clone(),
            detail,
        };
        let file: CorporaFile =
            serde_json::from_slice(&bytes).map_err(|e| invalid(describe_json_error(&e)))?;
        if file.schema != CORPORA_SCHEMA {
            return Err(invalid(format!(
                "schema is `{}`, expected `{CORPORA_SCHEMA}`",
                file.schema
            )));
        }
        let mut ids = BTreeSet::new();
        for corpus in &file.corpora {
            if !ids.insert(corpus.id.as_str()) {
                return Err(invalid(format!("corpus `{}` appears twice", corpus.id)));
            }
            // Proof rows own this prefix; a corpus named so would shadow one.
            if corpus.id.starts_with("proofs-") || corpus.id.is_empty() {
                return Err(invalid(format!(
                    "corpus id `{}` is reserved or empty",
                    corpus.id
                )));
            }
            corpus.check_names().map_err(invalid)?;
        }
        Ok(file)
    }

    /// An empty list, for a checkout without corpora.json.
    pub fn empty() -> CorporaFile {
        CorporaFile {
            schema: CORPORA_SCHEMA.to_string(),
            corpora: vec![],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file_with(edit: impl FnOnce(&mut serde_json::Value)) -> tempfile::NamedTempFile {
        let mut corpus = serde_json::json!({
            "id": "ky", "language": "typescript",
            "source": {"registry": "npm", "package": "ky", "version": "2.1.0",
                       "sha256": "ab".repeat(32)},
            "oracle": {"name": "tsc"}});
        edit(&mut corpus);
        let text = serde_json::json!({"schema": CORPORA_SCHEMA, "corpora": [corpus]});
        let file = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(file.path(), text.to_string()).unwrap();
        file
    }

    #[test]
    fn ids_and_names_that_could_leave_the_cache_are_refused() {
        // D10: id `../../escaped` wrote `escaped-*` two levels above --cache.
        for (field, bad) in [
            ("id", "../../escaped"),
            ("id", "a/b"),
            ("id", ".hidden"),
            ("id", "proofs-python"),
            ("language", "cobol"),
            ("version", "../1"),
            ("version", "1/2"),
            ("registry", "../npm"),
            ("package", "../x"),
        ] {
            let file = file_with(|c| match field {
                "id" | "language" => c[field] = bad.into(),
                _ => c["source"][field] = bad.into(),
            });
            let err = CorporaFile::load(file.path(), 1 << 20).unwrap_err();
            assert_eq!(err.code(), "invalid_corpora", "{field} {bad}");
        }
        for (field, good) in [
            ("id", "clap_builder"),
            ("id", "ky.local"),
            ("package", "@excalidraw/excalidraw"),
            ("package", "com.google.code.gson:gson"),
            ("version", "4.18.2+~4.17.14-1"),
            ("version", "1:2.0-1"),
        ] {
            let file = file_with(|c| match field {
                "id" => c[field] = good.into(),
                _ => c["source"][field] = good.into(),
            });
            CorporaFile::load(file.path(), 1 << 20).unwrap_or_else(|e| panic!("{good}: {e}"));
        }
    }

    #[test]
    fn the_committed_corpora_file_is_valid() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpora.json");
        CorporaFile::load(&path, 1 << 24).unwrap();
    }

    #[test]
    fn a_build_configuration_becomes_the_engines_flags() {
        let build: BuildConfiguration = serde_json::from_value(serde_json::json!({
            "go_tags": ["purego"],
            "compiler_options": {"module": "commonjs"}
        }))
        .expect("a build configuration");
        assert_eq!(
            build.engine_args(),
            [
                "--go-tags",
                "purego",
                "--ts-compiler-options",
                r#"{"module":"commonjs"}"#
            ]
        );
        assert!(BuildConfiguration::default().engine_args().is_empty());
        assert!(BuildConfiguration::default().is_default());
    }

    #[test]
    fn a_c_build_becomes_the_engines_flags() {
        let build: BuildConfiguration = serde_json::from_value(serde_json::json!({
            "defines": ["P=1"], "std": ["c11", "c++11"], "no_exceptions": true,
            "no_rtti": true, "unit_macros": {"db/u.cc": ["-UP", "-DQ"]},
            "varying_defines": ["LIB"]
        }))
        .unwrap();
        assert_eq!(
            build.engine_args(),
            [
                "--define",
                "P=1",
                "--std",
                "c11",
                "--std",
                "c++11",
                "--fno-exceptions",
                "--fno-rtti",
                "--unit-macro",
                "db/u.cc:-UP",
                "--unit-macro",
                "db/u.cc:-DQ",
                "--define-varies",
                "LIB"
            ]
        );
        assert!(!build.is_default());
    }
}
