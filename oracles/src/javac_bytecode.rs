//! `javac-bytecode`: the javac oracle's second reading (`harness crosscheck`), from the
//! class files rather than the Trees API.
//!
//! The helper `oracles/java/Declarations.java` compiles the corpus as the javac oracle
//! does (same files, classpath and `--release`) with `-g` into a classes directory and
//! writes where the source declares each class, method and constructor (internal
//! name, name, erased parameter descriptor → name line). `javap -c -l -p -v` then
//! prints every class; [`crate::javap`] reads its invoke instructions and line tables
//! and [`crate::bytecode`] makes them sites. Only the bytecode says which declaration
//! each call reaches; the helper's list says where a declaration is written, so both
//! readings place a declaration at the same line (the name's) by construction, and
//! what they are compared on is the binding.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::bytecode::{reading_truth, Declarations, SourceWords};
use crate::javac::{absolute_dir, build_helper, java_files, JavacOptions};
use crate::maven::{resolve_classpath, Coordinates};
use crate::oracle::{Oracle, OracleOptions};
use crate::toolchain::{Outcome, Tool};
use crate::truth::{OracleStamp, Truth};

/// The adapter's version: bump it when what the reading says changes (the helper's
/// text is pinned in oracles/tests/helper_digests.rs).
pub const ADAPTER_VERSION: &str = "3";

/// The helper's source, embedded so the binary needs no checkout beside it.
pub const HELPER_SOURCE: &str = include_str!("../java/Declarations.java");

const HELPER_CLASS: &str = "Declarations";

const TOOL: &str = "javac-bytecode";

/// The most bytes one javap run may print (every class of a large corpus, verbose).
const JAVAP_CAP: u64 = 1 << 30;

/// Class files per javap run.
const JAVAP_BATCH: usize = 400;

/// The javac oracle's second reading.
#[derive(Debug, Clone, Copy, Default)]
pub struct JavacBytecode;

impl Oracle for JavacBytecode {
    fn name(&self) -> &'static str {
        TOOL
    }

    fn version(&self) -> &'static str {
        ADAPTER_VERSION
    }

    fn toolchain_version(&self) -> Result<String, Outcome> {
        Tool::locate("javac")?.version(&["-version"])
    }

    fn run(&self, corpus_dir: &Path, options: &OracleOptions<'_>) -> Result<Truth, Outcome> {
        let javac_options = JavacOptions::from_json(options.options).map_err(failed)?;
        let javac = Tool::locate("javac")?;
        let java = Tool::locate("java")?;
        let version = self.toolchain_version()?;
        let root = corpus_dir
            .canonicalize()
            .map_err(|e| failed(format!("cannot read the root: {e}")))?;
        let cache = absolute_dir(&options.cache_dir.join("oracles"))?;
        let work = absolute_dir(options.work_dir)?;
        let helper = build_helper(
            &javac,
            &version,
            &cache.join(TOOL),
            (HELPER_SOURCE, HELPER_CLASS),
            options.timeout,
        )?;
        let coordinates: Vec<Coordinates> = javac_options
            .classpath
            .iter()
            .map(|c| Coordinates::parse(c).map_err(failed))
            .collect::<Result<_, _>>()?;
        let jars = resolve_classpath(&coordinates, &cache.join("maven"), options.timeout)?;
        let files = java_files(&root, &javac_options.exclude)
            .map_err(|e| failed(format!("cannot list the tree: {e}")))?;
        if files.is_empty() {
            return Err(failed("no .java file under the root".into()));
        }
        let list = work.join("files.txt");
        std::fs::write(&list, files.join("\n") + "\n")
            .map_err(|e| failed(format!("cannot write the file list: {e}")))?;
        let out = work.join("declarations.jsonl");
        let classes = work.join("classes");
        let classpath =
            std::env::join_paths(&jars).map_err(|e| failed(format!("unusable classpath: {e}")))?;
        let mut run = java
            .command(&work)
            .arg("-cp")
            .arg(&helper)
            .arg(HELPER_CLASS)
            .args(["--root".as_ref(), root.as_os_str()])
            .args(["--files".as_ref(), list.as_os_str()])
            .args(["--out".as_ref(), out.as_os_str()])
            .args(["--classes".as_ref(), classes.as_os_str()])
            .arg("--classpath")
            .arg(&classpath)
            .timeout(options.timeout);
        if let Some(release) = &javac_options.release {
            run = run.arg("--release").arg(release);
        }
        // Exit 1 is a tree with compile errors: the classes javac still wrote are read.
        let finished = run.run_unchecked()?;
        if !matches!(finished.status, Some(0 | 1)) {
            return Err(failed(format!(
                "the helper failed ({:?}): {}",
                finished.status,
                finished.stderr.trim()
            )));
        }
        let text =
            std::fs::read_to_string(&out).map_err(|e| failed(finished.wrote_no(&out, &e)))?;
        let declarations = read_declarations(&text).map_err(failed)?;
        let printed = javap_all(&class_files(&classes)?, &work, options)?;
        let classes = crate::javap::read(&printed).map_err(failed)?;
        let mut words = SourceWords::default();
        for file in &files {
            let text = std::fs::read(root.join(file))
                .map_err(|e| failed(format!("cannot read {file}: {e}")))?;
            words.add(file, &String::from_utf8_lossy(&text));
        }
        let stamp = OracleStamp {
            column: crate::truth::ColumnUnit::None,
            ..OracleStamp::at_name(
                TOOL,
                version.trim_start_matches("javac ").to_string(),
                ADAPTER_VERSION,
            )
        };
        reading_truth(
            options.corpus_id,
            stamp,
            &classes,
            &declarations,
            &words,
            "javac-bytecode reading",
        )
        .map_err(failed)
    }
}

/// `javap -c -l -p -v` of every class file, in batches, concatenated.
pub(crate) fn javap_all(
    files: &[PathBuf],
    cwd: &Path,
    options: &OracleOptions<'_>,
) -> Result<String, Outcome> {
    let javap = Tool::locate("javap")?;
    let mut text = String::new();
    for batch in files.chunks(JAVAP_BATCH) {
        let finished = javap
            .command(cwd)
            .args(["-c", "-l", "-p", "-v"])
            .args(batch)
            .output_cap(JAVAP_CAP)
            .timeout(options.timeout)
            .run()?;
        text.push_str(&finished.stdout);
    }
    Ok(text)
}

/// Every `.class` file under `dir`, sorted.
pub(crate) fn class_files(dir: &Path) -> Result<Vec<PathBuf>, Outcome> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let entries = std::fs::read_dir(&d)
            .map_err(|e| failed(format!("cannot read {}: {e}", d.display())))?;
        for entry in entries.flatten() {
            let path = entry.path();
            match entry.file_type() {
                Ok(t) if t.is_dir() => stack.push(path),
                Ok(t) if t.is_file() && path.extension().is_some_and(|e| e == "class") => {
                    found.push(path)
                }
                _ => {}
            }
        }
    }
    found.sort();
    Ok(found)
}

/// One line of the helper's output.
#[derive(Debug, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum DeclarationLine {
    Class {
        binary: String,
        file: String,
        line: u32,
    },
    Method {
        owner: String,
        name: String,
        params: String,
        line: u32,
    },
}

/// Reads the helper's declarations.
pub fn read_declarations(text: &str) -> Result<Declarations, String> {
    let mut declarations = Declarations::default();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let parsed: DeclarationLine = serde_json::from_str(line)
            .map_err(|e| format!("the helper's line {} is not a declaration: {e}", n + 1))?;
        match parsed {
            DeclarationLine::Class { binary, file, line } => {
                declarations.add_class(&binary, &file, line)
            }
            DeclarationLine::Method {
                owner,
                name,
                params,
                line,
            } => {
                let descriptor = format!("{params}V");
                let params = crate::javap::parameters(&descriptor).ok_or_else(|| {
                    format!("the helper's line {}: bad parameters {params}", n + 1)
                })?;
                declarations.add_method(&owner, &name, params, line)
            }
        }
    }
    Ok(declarations)
}

fn failed(detail: String) -> Outcome {
    Outcome::tool_failed(TOOL, detail)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declarations_are_read() {
        let text = r#"{"kind":"class","binary":"a/B$C","file":"src/a/B.java","line":7}
{"kind":"method","owner":"a/B$C","name":"m","params":"(ILjava/lang/String;)","file":"src/a/B.java","line":9}
"#;
        let d = read_declarations(text).unwrap();
        assert_eq!(d.classes["a/B$C"], ("src/a/B.java".to_string(), 7));
        assert_eq!(
            d.methods[&("a/B$C".to_string(), "m".to_string())],
            vec![(vec!["I".to_string(), "Ljava/lang/String;".to_string()], 9)]
        );
        assert!(read_declarations(r#"{"kind":"field"}"#).is_err());
    }
}
