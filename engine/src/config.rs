//! The build configuration (DESIGN §3, "build configuration"): what the default
//! build of each language compiles. Code the configuration leaves out declares
//! nothing a compiled call can reach. Each language's frontend evaluates its own
//! part (`lang/<language>/`); this module only holds the configuration, reads it
//! from the command line, and states it in the report (`"configuration"`).
//!
//! The defaults are the default build on the machine the corpora are measured on:
//! Linux on x86_64, 64-bit little-endian, Python 3.11, Go with cgo and no custom
//! tags, the crates' default features, the preprocessor's predefined macros only,
//! TypeScript as the tree's own tsconfig files configure it.

use serde::Serialize;

use crate::error::EngineError;

/// The whole configuration of one run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Configuration {
    pub rust: RustConfig,
    pub go: GoConfig,
    pub c: CConfig,
    pub python: PythonConfig,
    pub typescript: TypeScriptConfig,
    /// Whether test code is part of the program: Rust `cfg(test)` and test targets,
    /// Go `_test.go` files (the test build). On by default: a corpus is measured with
    /// its own tests, and its oracle compiles them.
    pub tests: bool,
}

/// Rust `cfg` options beyond what the target gives. `feature = "x"` options are
/// added to the crate's default features (`[features] default`, transitively).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RustConfig {
    /// `--cfg` options in the order given: `name` or `name = "value"`.
    pub cfg: Vec<CfgOption>,
    /// Whether the crate's `default` feature set is on (`--no-default-features` off).
    pub default_features: bool,
    pub target_os: &'static str,
    pub target_family: &'static str,
    pub target_arch: &'static str,
    pub target_pointer_width: &'static str,
    pub target_endian: &'static str,
    pub panic: &'static str,
    pub debug_assertions: bool,
}

/// One `--cfg` option: a bare name (`unix`, `my_flag`) or a key with a value
/// (`feature = "serde"`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct CfgOption {
    pub key: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
}

/// Go's build context: `GOOS`, `GOARCH`, cgo, and the tags given (`-tags`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GoConfig {
    pub goos: &'static str,
    pub goarch: &'static str,
    pub cgo: bool,
    pub tags: Vec<String>,
}

/// What the C/C++ preprocessor is given: the command-line macros (`-D`) of every
/// unit, in order, the language standards, C++'s exceptions and RTTI, and what
/// single units are given beyond the rest. The compiler's predefined macros
/// (`__linux__`, `__x86_64__`, `__GNUC__`, `__cplusplus` per standard) are the C
/// frontend's own (`lang/c/clang14.rs`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CConfig {
    pub defines: Vec<Define>,
    /// `-std=` of the C units (clang 14's default `gnu17`).
    pub c_std: String,
    /// `-std=` of the C++ units (clang 14's default `gnu++14`).
    pub cpp_std: String,
    /// C++ `-fexceptions` (on) or `-fno-exceptions`.
    pub cpp_exceptions: bool,
    /// C++ `-frtti` (on) or `-fno-rtti`.
    pub cpp_rtti: bool,
    /// A unit's own `-D`/`-U`, after `defines`, by root-relative path.
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub units: std::collections::BTreeMap<String, Vec<UnitMacro>>,
    /// Macros some units define and others do not (beyond `units`): unknown in
    /// every unit, so a conditional on one keeps its branches.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub varying: Vec<String>,
}

/// One unit's own `-DNAME[=VALUE]` or `-UNAME`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UnitMacro {
    Define(Define),
    Undefine(String),
}

impl Serialize for UnitMacro {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            UnitMacro::Define(d) => s.serialize_str(&format!("-D{}={}", d.name, d.value)),
            UnitMacro::Undefine(n) => s.serialize_str(&format!("-U{n}")),
        }
    }
}

/// `-D NAME` (value `1`) or `-D NAME=VALUE`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Define {
    pub name: String,
    pub value: String,
}

/// The interpreter the static guards are evaluated for: `sys.version_info`
/// comparisons and `sys.platform`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PythonConfig {
    pub version: PythonVersion,
    pub platform: &'static str,
}

/// TypeScript / JavaScript: compiler options on top of what the tree's
/// `tsconfig.json` / `jsconfig.json` say (and of the defaults of a file no config
/// holds), as a tsconfig writes them; path options are relative to the root.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct TypeScriptConfig {
    pub compiler_options: serde_json::Map<String, serde_json::Value>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct PythonVersion {
    pub major: u32,
    pub minor: u32,
}

impl Serialize for PythonVersion {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&format!("{}.{}", self.major, self.minor))
    }
}

impl Default for Configuration {
    fn default() -> Configuration {
        Configuration {
            rust: RustConfig {
                cfg: Vec::new(),
                default_features: true,
                target_os: "linux",
                target_family: "unix",
                target_arch: "x86_64",
                target_pointer_width: "64",
                target_endian: "little",
                panic: "unwind",
                debug_assertions: true,
            },
            go: GoConfig {
                goos: "linux",
                goarch: "amd64",
                cgo: true,
                tags: Vec::new(),
            },
            c: CConfig {
                defines: Vec::new(),
                c_std: "gnu17".to_string(),
                cpp_std: "gnu++14".to_string(),
                cpp_exceptions: true,
                cpp_rtti: true,
                units: Default::default(),
                varying: Vec::new(),
            },
            python: PythonConfig {
                version: PythonVersion {
                    major: 3,
                    minor: 11,
                },
                platform: "linux",
            },
            typescript: TypeScriptConfig::default(),
            tests: true,
        }
    }
}

impl CfgOption {
    /// Reads `name` or `name="value"` (the form rustc's `--cfg` takes; spaces
    /// around `=` allowed).
    pub fn parse(text: &str) -> Result<CfgOption, EngineError> {
        let bad = || {
            EngineError::InvalidArgument(format!("--cfg {text:?}: expected NAME or NAME=\"VALUE\""))
        };
        let (key, value) = match text.split_once('=') {
            None => (text.trim(), None),
            Some((k, v)) => {
                let v = v.trim();
                let inner = v
                    .strip_prefix('"')
                    .and_then(|v| v.strip_suffix('"'))
                    .ok_or_else(bad)?;
                (k.trim(), Some(inner.to_string()))
            }
        };
        if key.is_empty() || !key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return Err(bad());
        }
        Ok(CfgOption {
            key: key.to_string(),
            value,
        })
    }
}

impl Define {
    /// Reads `NAME` (defined as `1`, as `-D NAME` does) or `NAME=VALUE`.
    pub fn parse(text: &str) -> Result<Define, EngineError> {
        let (name, value) = text.split_once('=').unwrap_or((text, "1"));
        let valid = !name.is_empty()
            && !name.starts_with(|c: char| c.is_ascii_digit())
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !valid {
            return Err(EngineError::InvalidArgument(format!(
                "--define {text:?}: expected NAME or NAME=VALUE"
            )));
        }
        Ok(Define {
            name: name.to_string(),
            value: value.to_string(),
        })
    }
}

impl CConfig {
    /// Sets the standard `-std=NAME` names: C's or C++'s, by its name (`c11`,
    /// `gnu++17`); clang 14's names and aliases.
    pub fn set_std(&mut self, name: &str) -> Result<(), EngineError> {
        let mode = crate::lang::c::clang14::Mode::named(name).ok_or_else(|| {
            EngineError::InvalidArgument(format!(
                "--std {name:?}: not a language standard clang 14 knows (c99, c11, gnu17, c++11, gnu++17, …)"
            ))
        })?;
        if mode.cpp() {
            self.cpp_std = mode.name().to_string();
        } else {
            self.c_std = mode.name().to_string();
        }
        Ok(())
    }
}

impl UnitMacro {
    /// Reads `PATH:-DNAME[=VALUE]` or `PATH:-UNAME`: the unit and its macro.
    pub fn parse(text: &str) -> Result<(String, UnitMacro), EngineError> {
        let bad = || {
            EngineError::InvalidArgument(format!(
                "--unit-macro {text:?}: expected PATH:-DNAME[=VALUE] or PATH:-UNAME"
            ))
        };
        let (path, flag) = text.split_once(":-").ok_or_else(bad)?;
        if path.is_empty() {
            return Err(bad());
        }
        let m = if let Some(d) = flag.strip_prefix('D') {
            UnitMacro::Define(Define::parse(d).map_err(|_| bad())?)
        } else if let Some(u) = flag.strip_prefix('U') {
            let name = Define::parse(u).map_err(|_| bad())?;
            if u.contains('=') {
                return Err(bad());
            }
            UnitMacro::Undefine(name.name)
        } else {
            return Err(bad());
        };
        Ok((path.to_string(), m))
    }
}

impl PythonVersion {
    /// Reads `3.11` (a major and a minor version).
    pub fn parse(text: &str) -> Result<PythonVersion, EngineError> {
        let bad = || {
            EngineError::InvalidArgument(format!(
                "--python-version {text:?}: expected MAJOR.MINOR, e.g. 3.11"
            ))
        };
        let (major, minor) = text.trim().split_once('.').ok_or_else(bad)?;
        Ok(PythonVersion {
            major: major.parse().map_err(|_| bad())?,
            minor: minor.parse().map_err(|_| bad())?,
        })
    }
}

/// TypeScript compiler options as a tsconfig's `compilerOptions` writes them: a
/// JSON object.
pub fn parse_compiler_options(
    text: &str,
) -> Result<serde_json::Map<String, serde_json::Value>, EngineError> {
    match serde_json::from_str::<serde_json::Value>(text) {
        Ok(serde_json::Value::Object(map)) => Ok(map),
        _ => Err(EngineError::InvalidArgument(format!(
            "--ts-compiler-options {text:?}: expected a JSON object of compiler options"
        ))),
    }
}

/// Go build tags as `-tags` writes them: comma- or space-separated.
pub fn parse_go_tags(text: &str) -> Result<Vec<String>, EngineError> {
    let tags: Vec<String> = text
        .split([',', ' '])
        .filter(|t| !t.is_empty())
        .map(str::to_string)
        .collect();
    match tags.iter().find(|t| {
        !t.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
    }) {
        Some(t) => Err(EngineError::InvalidArgument(format!(
            "--go-tags: {t:?} is not a build tag"
        ))),
        None => Ok(tags),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cfg_options_read_rustc_forms() {
        assert_eq!(
            CfgOption::parse("feature=\"serde\"").unwrap(),
            CfgOption {
                key: "feature".into(),
                value: Some("serde".into())
            }
        );
        assert_eq!(CfgOption::parse("my_flag").unwrap().value, None);
        assert_eq!(
            CfgOption::parse("feature = \"a-b\"")
                .unwrap()
                .value
                .as_deref(),
            Some("a-b")
        );
        assert!(CfgOption::parse("feature=serde").is_err());
        assert!(CfgOption::parse("").is_err());
        assert!(CfgOption::parse("a b").is_err());
    }

    #[test]
    fn defines_default_to_one() {
        assert_eq!(Define::parse("NDEBUG").unwrap().value, "1");
        assert_eq!(Define::parse("X=2").unwrap().value, "2");
        assert!(Define::parse("1X").is_err());
        assert!(Define::parse("=3").is_err());
    }

    #[test]
    fn standards_and_unit_macros() {
        let mut c = Configuration::default().c;
        c.set_std("c++1z").unwrap();
        c.set_std("c99").unwrap();
        assert_eq!((c.c_std.as_str(), c.cpp_std.as_str()), ("c99", "c++17"));
        assert!(c.set_std("c++42").is_err());
        assert_eq!(
            UnitMacro::parse("db/a.cc:-DX=2").unwrap(),
            (
                "db/a.cc".to_string(),
                UnitMacro::Define(Define {
                    name: "X".into(),
                    value: "2".into()
                })
            )
        );
        assert_eq!(
            UnitMacro::parse("a.c:-UY").unwrap().1,
            UnitMacro::Undefine("Y".into())
        );
        for bad in ["a.c:-XY", ":-DX", "a.c-DX", "a.c:-UY=1"] {
            assert!(UnitMacro::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn python_versions_and_go_tags() {
        assert_eq!(
            PythonVersion::parse("3.12").unwrap(),
            PythonVersion {
                major: 3,
                minor: 12
            }
        );
        assert!(PythonVersion::parse("3").is_err());
        assert_eq!(parse_go_tags("purego,netgo").unwrap(), ["purego", "netgo"]);
        assert!(parse_go_tags("a;b").is_err());
        assert_eq!(
            parse_compiler_options(r#"{"baseUrl": "."}"#).unwrap()["baseUrl"],
            "."
        );
        assert!(parse_compiler_options("[]").is_err());
    }
}
