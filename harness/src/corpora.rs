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
