//! The javac oracle: javac's own binding of every method invocation, construction
//! and method reference, through the public Trees API (`com.sun.source`).
//!
//! The helper `oracles/java/CallTruth.java` is embedded in this crate, compiled by the
//! machine's javac at run time into the cache (once per helper text and javac
//! version), and run on the corpus with a classpath of pinned Maven coordinates
//! (`oracle.options.classpath` in corpora.json), resolved by `mvn` through
//! [`crate::maven`]. It writes one JSON line per site in the shape of a truth site;
//! this adapter reads them, checks them, sorts them and stamps the truth.
//!
//! What the truth says (docs/DECISIONS.md has the reasons):
//! - a site is named as the source writes it: `m` for `a.m()`, the type for
//!   `new a.T()`, `this`/`super` for explicit constructor calls, `new` for `T::new`;
//!   its column is the byte column of that name (`oracle.column` = `name`);
//! - a target is the declaration javac bound, by its name line; a constructor javac
//!   generated (the class declares none) is the class's name line; a member javac
//!   synthesized in an in-tree type (enum `values()`/`valueOf()`, record accessors) is
//!   that type's name line; an anonymous `new T() {…}` has two acceptable targets: the
//!   anonymous class (javac's binding, declared at the written `T`) and T's constructor
//!   that its `super(…)` binds (T itself when T is an interface or declares none);
//!   anything from the JDK or the classpath is `outside` with its class
//!   (`java.util.List.add`, `java.util.ArrayList` for a construction);
//! - the caller is the innermost enclosing declaration: method, constructor, lambda
//!   (its first line), class (field initializers, initializer blocks);
//! - `implicit`: the `super()` javac inserts (`implicit_super`) and the construction
//!   an enum constant performs (`enum_constant`);
//! - `unjudged`: the call did not compile: `erroneous_argument_type`,
//!   `erroneous_receiver_type`, `unresolved_symbol`, or `compile_error` when an error
//!   lies inside the call. javac's guess at such a site is not a truth.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;
use sha2::{Digest, Sha256};

use crate::maven::{resolve_classpath, Coordinates};
use crate::oracle::{Oracle, OracleOptions};
use crate::toolchain::{Outcome, Tool};
use crate::truth::{OracleStamp, Truth, TruthSite, TRUTH_SCHEMA};

/// The adapter's version: bump it when what the truth says changes (the helper's text
/// is pinned by a test, so changing it asks for a bump). Truths are cached by it.
pub const ADAPTER_VERSION: &str = "2";

/// The sha256 of [`HELPER_SOURCE`] this adapter version was written for.
#[cfg(test)]
const HELPER_SHA256: &str = "398da3ea2372798d9120735e57e1f22c8a225b74fbd93d24af0c79d587285906";

/// The helper's source, embedded so the binary needs no checkout beside it.
pub const HELPER_SOURCE: &str = include_str!("../java/CallTruth.java");

const HELPER_CLASS: &str = "CallTruth";

/// The javac oracle.
#[derive(Debug, Clone, Copy, Default)]
pub struct Javac;

/// `oracle.options` of a javac corpus.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JavacOptions {
    /// Maven coordinates (`group:artifact:version`) of the compile classpath; their
    /// transitive dependencies come along.
    #[serde(default)]
    pub classpath: Vec<String>,
    /// javac `--release N`: the JDK API the corpus was written against.
    #[serde(default)]
    pub release: Option<String>,
    /// Files not compiled, by file name or path relative to the root
    /// (`module-info.java`).
    #[serde(default)]
    pub exclude: Vec<String>,
}

impl JavacOptions {
    /// Reads the options of corpora.json; `null` is the defaults.
    pub fn from_json(value: &serde_json::Value) -> Result<JavacOptions, String> {
        if value.is_null() {
            return Ok(JavacOptions::default());
        }
        let options: JavacOptions = serde_json::from_value(value.clone())
            .map_err(|e| format!("oracle options for javac: {e}"))?;
        for c in &options.classpath {
            Coordinates::parse(c)?;
        }
        if let Some(r) = &options.release {
            if r.is_empty() || !r.chars().all(|c| c.is_ascii_digit()) {
                return Err(format!(
                    "oracle options for javac: release `{r}` is not a number"
                ));
            }
        }
        Ok(options)
    }
}

/// One line the helper writes: a truth site and whether it is a call or a reference.
#[derive(Debug, Deserialize)]
struct HelperLine {
    kind: String,
    #[serde(flatten)]
    site: TruthSite,
}

impl Oracle for Javac {
    fn name(&self) -> &'static str {
        "javac"
    }

    fn version(&self) -> &'static str {
        ADAPTER_VERSION
    }

    fn toolchain_version(&self) -> Result<String, Outcome> {
        Tool::locate("javac")?.version(&["-version"])
    }

    fn run(&self, corpus_dir: &Path, options: &OracleOptions<'_>) -> Result<Truth, Outcome> {
        let javac_options =
            JavacOptions::from_json(options.options).map_err(|detail| failed("javac", detail))?;
        let javac = Tool::locate("javac")?;
        let java = Tool::locate("java")?;
        let version = self.toolchain_version()?;
        let root = corpus_dir
            .canonicalize()
            .map_err(|e| failed("javac", format!("cannot read the root: {e}")))?;
        let cache = absolute_dir(&options.cache_dir.join("oracles"))?;
        let work = absolute_dir(options.work_dir)?;

        let helper = build_helper(
            &javac,
            &version,
            &cache.join("javac"),
            (HELPER_SOURCE, HELPER_CLASS),
            options.timeout,
        )?;
        let coordinates: Vec<Coordinates> = javac_options
            .classpath
            .iter()
            .map(|c| Coordinates::parse(c).map_err(|d| failed("javac", d)))
            .collect::<Result<_, _>>()?;
        let jars = resolve_classpath(&coordinates, &cache.join("maven"), options.timeout)?;

        let files = java_files(&root, &javac_options.exclude)
            .map_err(|e| failed("javac", format!("cannot list the tree: {e}")))?;
        if files.is_empty() {
            return Err(failed("javac", "no .java file under the root".into()));
        }
        let list = work.join("files.txt");
        std::fs::write(&list, files.join("\n") + "\n")
            .map_err(|e| failed("javac", format!("cannot write the file list: {e}")))?;
        let out = work.join("sites.jsonl");
        let classpath = std::env::join_paths(&jars)
            .map_err(|e| failed("javac", format!("unusable classpath: {e}")))?;

        let mut run = java
            .command(&work)
            .args(["-Xss16m", "-cp"])
            .arg(&helper)
            .arg(HELPER_CLASS)
            .arg("--root")
            .arg(&root)
            .arg("--files")
            .arg(&list)
            .arg("--out")
            .arg(&out)
            .arg("--classpath")
            .arg(&classpath)
            .timeout(options.timeout);
        if let Some(release) = &javac_options.release {
            run = run.arg("--release").arg(release);
        }
        let finished = run.run()?;

        let text = std::fs::read_to_string(&out)
            .map_err(|e| failed("javac", finished.wrote_no(&out, &e)))?;
        let stamp = OracleStamp::at_name(
            "javac",
            version.trim_start_matches("javac ").to_string(),
            ADAPTER_VERSION,
        );
        truth_from_lines(options.corpus_id, stamp, &text).map_err(|d| failed("javac", d))
    }
}

/// Builds the truth from the helper's lines: calls and references apart, each sorted.
pub fn truth_from_lines(corpus: &str, oracle: OracleStamp, text: &str) -> Result<Truth, String> {
    let mut sites = Vec::new();
    let mut references = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let parsed: HelperLine = serde_json::from_str(line)
            .map_err(|e| format!("the helper's line {} is not a site: {e}", n + 1))?;
        match parsed.kind.as_str() {
            "site" => sites.push(parsed.site),
            "reference" => references.push(parsed.site),
            other => {
                return Err(format!(
                    "the helper's line {}: unknown kind `{other}`",
                    n + 1
                ))
            }
        }
    }
    let order = |a: &TruthSite, b: &TruthSite| {
        (&a.file, a.line, a.column, &a.name).cmp(&(&b.file, b.line, b.column, &b.name))
    };
    sites.sort_by(order);
    references.sort_by(order);
    let truth = Truth {
        schema: TRUTH_SCHEMA.into(),
        corpus: corpus.into(),
        oracle,
        shape: None,
        sites,
        references: Some(references),
        pairs: Vec::new(),
    };
    truth
        .validate("javac helper output")
        .map_err(|e| e.to_string())?;
    Ok(truth)
}

/// Compiles a helper (its source and class name) once per (helper text, javac
/// version) into `cache`; returns the classes directory.
pub(crate) fn build_helper(
    javac: &Tool,
    version: &str,
    cache: &Path,
    (helper_source, helper_class): (&str, &str),
    bound: Duration,
) -> Result<PathBuf, Outcome> {
    let mut hasher = Sha256::new();
    hasher.update(helper_source.as_bytes());
    hasher.update(version.as_bytes());
    let key: String = hasher.finalize()[..8]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let dir = cache.join(format!("helper-{key}"));
    if dir.join(format!("{helper_class}.class")).is_file() {
        return Ok(dir);
    }
    let partial = cache.join(format!("helper-{key}.partial"));
    let _ = std::fs::remove_dir_all(&partial);
    std::fs::create_dir_all(&partial)
        .map_err(|e| failed("javac", format!("cannot create {}: {e}", partial.display())))?;
    let source = partial.join(format!("{helper_class}.java"));
    std::fs::write(&source, helper_source)
        .map_err(|e| failed("javac", format!("cannot write the helper: {e}")))?;
    javac
        .command(&partial)
        .args(["-encoding", "UTF-8", "-nowarn", "-d"])
        .arg(&partial)
        .arg(&source)
        .timeout(bound)
        .run()?;
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::rename(&partial, &dir)
        .map_err(|e| failed("javac", format!("cannot move the helper into place: {e}")))?;
    Ok(dir)
}

/// Every `.java` file under `root` (links not followed), relative, `/`-separated,
/// sorted, without those `exclude` names by file name or relative path.
pub fn java_files(root: &Path, exclude: &[String]) -> std::io::Result<Vec<String>> {
    let mut found = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir)? {
            let entry = entry?;
            let kind = entry.file_type()?;
            let path = entry.path();
            if kind.is_dir() {
                stack.push(path);
            } else if kind.is_file() && path.extension().is_some_and(|e| e == "java") {
                let relative = path
                    .strip_prefix(root)
                    .expect("walked under the root")
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy())
                    .collect::<Vec<_>>()
                    .join("/");
                let name = entry.file_name().to_string_lossy().into_owned();
                if !exclude.iter().any(|x| *x == name || *x == relative) {
                    found.push(relative);
                }
            }
        }
    }
    found.sort();
    Ok(found)
}

pub(crate) fn absolute_dir(path: &Path) -> Result<PathBuf, Outcome> {
    crate::toolchain::absolute_dir("javac", path)
}

fn failed(tool: &str, detail: String) -> Outcome {
    Outcome::tool_failed(tool, detail)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_changed_helper_asks_for_a_new_adapter_version() {
        let actual = crate::toolchain::sha256_hex(HELPER_SOURCE);
        assert_eq!(
            actual, HELPER_SHA256,
            "CallTruth.java changed: bump ADAPTER_VERSION (cached truths are keyed by it) \
             and set HELPER_SHA256"
        );
    }

    #[test]
    fn options_are_checked() {
        let ok = serde_json::json!({"classpath": ["junit:junit:4.11"], "release": "8",
                                    "exclude": ["module-info.java"]});
        let parsed = JavacOptions::from_json(&ok).unwrap();
        assert_eq!(parsed.release.as_deref(), Some("8"));
        assert_eq!(
            JavacOptions::from_json(&serde_json::Value::Null).unwrap(),
            JavacOptions::default()
        );
        for bad in [
            serde_json::json!({"classpath": ["junit"]}),
            serde_json::json!({"release": "8; echo"}),
            serde_json::json!({"clas_path": []}),
        ] {
            assert!(JavacOptions::from_json(&bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn helper_lines_become_a_sorted_truth_with_references_apart() {
        let lines = r#"{"kind":"site","file":"b/B.java","line":3,"column":9,"name":"g","targets":[{"kind":"outside","symbol":"java.util.List.add"}]}
{"kind":"reference","file":"a/A.java","line":4,"column":5,"name":"f","caller":{"file":"a/A.java","line":2},"targets":[{"kind":"in_tree","file":"a/A.java","line":9}]}
{"kind":"site","file":"a/A.java","line":7,"name":"super","targets":[],"implicit":"implicit_super"}
{"kind":"site","file":"a/A.java","line":5,"column":2,"name":"h","targets":[],"unjudged":"unresolved_symbol"}
"#;
        let stamp = OracleStamp::at_name("javac", "17".into(), ADAPTER_VERSION);
        let truth = truth_from_lines("c", stamp.clone(), lines).unwrap();
        let order: Vec<_> = truth
            .sites
            .iter()
            .map(|s| (s.file.as_str(), s.line))
            .collect();
        assert_eq!(
            order,
            vec![("a/A.java", 5), ("a/A.java", 7), ("b/B.java", 3)]
        );
        assert_eq!(truth.references.as_ref().unwrap().len(), 1);
        let bad = r#"{"kind":"site","file":"a","line":1,"name":"x","targets":[]}"#;
        let err = truth_from_lines("c", stamp, bad).unwrap_err();
        assert!(err.contains("not marked unjudged"), "{err}");
    }
}
