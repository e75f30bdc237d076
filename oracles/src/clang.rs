//! The clang oracle (C and C++): every translation unit of the corpus compiled to
//! LLVM IR with debug info and no optimisation, with the flags its own build gives
//! it, read by [`crate::llvm_ir`] and turned into a truth by [`crate::llvm_truth`].
//!
//! Where the units and their flags come from (`oracle.options.build`):
//! - `cmake`: the corpus's CMake configures an out-of-source build under the work
//!   directory with `CMAKE_EXPORT_COMPILE_COMMANDS=ON` and clang as the compiler
//!   (`cmake_args` add the corpus's switches, e.g. building its tests); each unit of
//!   `compile_commands.json` whose file lies in the tree is compiled again with its
//!   own command, its output and optimisation flags replaced;
//! - `files`: each file with one of `extensions` under the tree (minus `exclude`) is
//!   compiled from the root with `flags` (include directories, defines, standard),
//!   the way a plain Makefile does.
//!
//! The engine is not given these commands but the corpus's build configuration
//! (corpora.json `build`: defines, standards, exceptions, RTTI, one unit's own
//! macros, macros that vary): before compiling, every unit's `clang -dM -E` with its
//! own flags must equal the one with the flags the configuration gives it, or the
//! run is `tool_failed` naming the unit (DECISIONS D34).
//!
//! Every unit gets `-S -emit-llvm -g -O0 -fstandalone-debug` (full class types in
//! every unit, so a virtual call's class is known) and, for C++,
//! `-flto -fwhole-program-vtables`, which makes clang type-test the vtable pointer
//! before a virtual call — the reader resolves such a call to the declared method.
//! Headers are compiled as the language of the unit that includes them. All modules
//! are read together, so a call into another unit finds its definition.
//!
//! Coverage is observed: the truth holds the sites of the units that compiled (a
//! unit clang rejects is left out; more than a quarter rejected is `tool_failed`),
//! and a header's sites only where some unit instantiates or defines them.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::llvm_ir::{resolve_calls, Module};
use crate::llvm_truth::{callee_symbols, demangle_all, ir_truth, Flavor, SiteBuilder};
use crate::oracle::{Oracle, OracleOptions};
use crate::rustc::absolute_dir;
use crate::toolchain::{Outcome, Tool};
use crate::truth::{OracleStamp, Truth};

/// Bumped whenever what the adapter emits changes (truths are cached by it).
pub const ADAPTER_VERSION: &str = "4";

const TOOL: &str = "clang";

/// Flags every unit gets, after its own.
const IR_FLAGS: &[&str] = &["-S", "-emit-llvm", "-g", "-O0", "-fstandalone-debug", "-w"];
/// C++ units also get these: the vtable type tests that name a virtual call's class.
const CPP_FLAGS: &[&str] = &["-flto", "-fwhole-program-vtables"];

/// `oracle.options` of a clang corpus.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClangOptions {
    /// `cmake` or `files`.
    pub build: String,
    /// `cmake`: extra `-D…` switches of the configure step.
    #[serde(default)]
    pub cmake_args: Vec<String>,
    /// `files`: the extensions of the units (`c`, `cc`, `cpp`).
    #[serde(default)]
    pub extensions: Vec<String>,
    /// `files`: compile flags (`-I.`, `-std=c99`, `-DX`).
    #[serde(default)]
    pub flags: Vec<String>,
    /// Units left out, by path relative to the root or file name.
    #[serde(default)]
    pub exclude: Vec<String>,
    /// `cmake`: bundled dependency directories the archive ships empty, each given
    /// a committed stand-in CMakeLists.txt (one of [`CMAKE_STUBS`]) in a copy of the
    /// tree (`{"third_party/googletest": "googletest"}`).
    #[serde(default)]
    pub cmake_stubs: std::collections::BTreeMap<String, String>,
}

/// Stand-in CMakeLists.txt files for bundled dependencies a Debian orig leaves empty.
pub const CMAKE_STUBS: &[(&str, &str)] = &[
    ("googletest", include_str!("../clang/googletest.cmake")),
    ("benchmark", include_str!("../clang/benchmark.cmake")),
];

impl ClangOptions {
    pub fn from_json(value: &serde_json::Value) -> Result<ClangOptions, String> {
        let options: ClangOptions = serde_json::from_value(value.clone())
            .map_err(|e| format!("oracle options for clang: {e}"))?;
        match options.build.as_str() {
            "cmake" => {
                if let Some(bad) = options.cmake_args.iter().find(|a| !a.starts_with("-D")) {
                    return Err(format!(
                        "oracle options for clang: cmake argument `{bad}` is not a -D switch"
                    ));
                }
                for (dir, stub) in &options.cmake_stubs {
                    let plain = Path::new(dir)
                        .components()
                        .all(|c| matches!(c, std::path::Component::Normal(_)));
                    if !plain || !CMAKE_STUBS.iter().any(|(name, _)| name == stub) {
                        return Err(format!(
                            "oracle options for clang: stub `{dir}`: `{stub}` is not a committed stand-in for a relative directory"
                        ));
                    }
                }
            }
            "files" => {
                if options.extensions.is_empty() {
                    return Err("oracle options for clang: `files` needs extensions".into());
                }
                if let Some(bad) = options.flags.iter().find(|f| !safe_flag(f)) {
                    return Err(format!(
                        "oracle options for clang: flag `{bad}` is not an -I/-D/-std/-f flag"
                    ));
                }
            }
            other => {
                return Err(format!(
                    "oracle options for clang: build `{other}` is neither cmake nor files"
                ))
            }
        }
        Ok(options)
    }
}

/// Flags the `files` build accepts: include directories, defines, the standard.
fn safe_flag(flag: &str) -> bool {
    ["-I", "-D", "-U", "-std=", "-f", "-x"]
        .iter()
        .any(|p| flag.starts_with(p))
}

/// One unit to compile: its command (compiler first), working directory, language.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unit {
    pub file: PathBuf,
    pub directory: PathBuf,
    pub arguments: Vec<String>,
    pub cpp: bool,
}

/// The clang oracle.
#[derive(Debug, Clone, Copy, Default)]
pub struct Clang;

impl Oracle for Clang {
    fn name(&self) -> &'static str {
        "clang"
    }

    fn version(&self) -> &'static str {
        ADAPTER_VERSION
    }

    fn toolchain_version(&self) -> Result<String, Outcome> {
        Tool::locate("clang")?.version(&["--version"])
    }

    fn run(&self, corpus_dir: &Path, options: &OracleOptions<'_>) -> Result<Truth, Outcome> {
        let clang_options = ClangOptions::from_json(options.options).map_err(failed)?;
        let clang = Tool::locate("clang")?;
        let clangxx = Tool::locate("clang++")?;
        let version = self.toolchain_version()?;
        let root = corpus_dir
            .canonicalize()
            .map_err(|e| failed(format!("cannot read the root: {e}")))?;
        let work = absolute_dir(options.work_dir)?;
        // With stand-ins the build runs on a copy of the tree (the analysed tree is
        // never written to); sites are read back from the tree itself.
        let compiled = if clang_options.cmake_stubs.is_empty() {
            root.clone()
        } else {
            let copy = work.join("src");
            crate::rustc::copy_tree(&root, &copy)
                .map_err(|e| failed(format!("cannot copy the tree: {e}")))?;
            for (dir, stub) in &clang_options.cmake_stubs {
                let text = CMAKE_STUBS
                    .iter()
                    .find(|(name, _)| name == stub)
                    .map(|(_, text)| *text)
                    .expect("checked by from_json");
                std::fs::create_dir_all(copy.join(dir))
                    .and_then(|()| std::fs::write(copy.join(dir).join("CMakeLists.txt"), text))
                    .map_err(|e| failed(format!("cannot write the stand-in for {dir}: {e}")))?;
            }
            copy.canonicalize()
                .map_err(|e| failed(format!("cannot resolve the copy: {e}")))?
        };
        let units = match clang_options.build.as_str() {
            "cmake" => cmake_units(&compiled, &work, &clang_options, options)?,
            _ => file_units(&root, &clang_options)
                .map_err(|e| failed(format!("cannot list the tree: {e}")))?,
        };
        if units.is_empty() {
            return Err(failed("no translation unit in the tree".into()));
        }
        // The engine is told the corpus's build configuration, not these commands:
        // every unit must preprocess as that configuration says (DECISIONS D34).
        let base = if clang_options.build == "cmake" {
            &compiled
        } else {
            &root
        };
        let build = CBuild::from_json(options.build).map_err(failed)?;
        check_units_match_build(&units, base, &build, (&clang, &clangxx), options.timeout)?;
        let ll_dir = absolute_dir(&work.join("ll"))?;
        let mut modules = Vec::new();
        let mut rejected = Vec::new();
        for (n, unit) in units.iter().enumerate() {
            let out = ll_dir.join(format!("unit{n}.ll"));
            let compiler = if unit.cpp { &clangxx } else { &clang };
            let run = compiler
                .command(&unit.directory)
                .args(&unit.arguments[1..])
                .args(IR_FLAGS)
                .args(if unit.cpp { CPP_FLAGS } else { &[] })
                .arg("-o")
                .arg(&out)
                .timeout(options.timeout)
                .run();
            match run {
                Ok(_) => {
                    let text = std::fs::read_to_string(&out)
                        .map_err(|e| failed(format!("cannot read {}: {e}", out.display())))?;
                    modules.push(Module::parse(&text));
                    let _ = std::fs::remove_file(&out);
                }
                Err(Outcome::ToolFailed { detail, .. }) => {
                    rejected.push(format!("{}: {detail}", unit.file.display()))
                }
                Err(other) => return Err(other),
            }
        }
        if rejected.len() * 4 > units.len() {
            return Err(failed(format!(
                "clang rejected {} of {} units, first: {}",
                rejected.len(),
                units.len(),
                rejected[0]
            )));
        }
        let calls = resolve_calls(&modules);
        drop(modules);
        let demangled = demangle_all(callee_symbols(&calls), options.timeout)?;
        let flavor = if options.language == "c" {
            Flavor::C
        } else {
            Flavor::Cpp
        };
        let sites = SiteBuilder::new(&root, &compiled, flavor, &demangled).sites(&calls);
        let oracle = OracleStamp::at_name("clang", version_word(&version), ADAPTER_VERSION);
        ir_truth(options.corpus_id, oracle, sites).map_err(failed)
    }
}

/// `Debian clang version 14.0.6` → `14.0.6`.
pub(crate) fn version_word(version: &str) -> String {
    let words: Vec<&str> = version.split_whitespace().collect();
    words
        .iter()
        .position(|w| *w == "version")
        .and_then(|i| words.get(i + 1))
        .map_or(version.to_string(), |w| w.to_string())
}

/// Configures the corpus's CMake build with clang and reads its compile commands.
pub(crate) fn cmake_units(
    root: &Path,
    work: &Path,
    clang_options: &ClangOptions,
    options: &OracleOptions<'_>,
) -> Result<Vec<Unit>, Outcome> {
    let build = absolute_dir(&work.join("build"))?;
    Tool::locate("cmake")?
        .command(&build)
        .arg("-S")
        .arg(root)
        .arg("-B")
        .arg(&build)
        .args([
            "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON",
            "-DCMAKE_BUILD_TYPE=Debug",
            "-DCMAKE_C_COMPILER=clang",
            "-DCMAKE_CXX_COMPILER=clang++",
        ])
        .args(&clang_options.cmake_args)
        .timeout(options.timeout)
        .run()?;
    let text = std::fs::read_to_string(build.join("compile_commands.json"))
        .map_err(|e| failed(format!("cmake wrote no compile_commands.json: {e}")))?;
    units_from_compile_commands(&text, root, &clang_options.exclude).map_err(failed)
}

/// The units of a `compile_commands.json` whose file lies under `root`, each with
/// its command stripped of what the oracle sets itself (output, `-c`, optimisation,
/// debug level); duplicates (one file in two targets) kept once.
pub fn units_from_compile_commands(
    text: &str,
    root: &Path,
    exclude: &[String],
) -> Result<Vec<Unit>, String> {
    #[derive(Deserialize)]
    struct Entry {
        directory: PathBuf,
        file: PathBuf,
        #[serde(default)]
        command: Option<String>,
        #[serde(default)]
        arguments: Option<Vec<String>>,
    }
    let entries: Vec<Entry> =
        serde_json::from_str(text).map_err(|e| format!("compile_commands.json: {e}"))?;
    let mut units: Vec<Unit> = Vec::new();
    for entry in entries {
        let file = if entry.file.is_absolute() {
            entry.file.clone()
        } else {
            entry.directory.join(&entry.file)
        };
        let file = crate::llvm_ir::normalize(&file);
        let Ok(rel) = file.strip_prefix(root) else {
            continue;
        };
        let rel_text = rel.to_string_lossy().replace('\\', "/");
        let name = file
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if exclude.iter().any(|x| *x == rel_text || *x == name) {
            continue;
        }
        if units.iter().any(|u| u.file == file) {
            continue;
        }
        let words = match (entry.arguments, entry.command) {
            (Some(a), _) => a,
            (None, Some(c)) => shell_words(&c)?,
            (None, None) => return Err(format!("{}: no command", file.display())),
        };
        let cpp = is_cpp(&file);
        units.push(Unit {
            file,
            directory: entry.directory,
            arguments: strip_output_flags(&words),
            cpp,
        });
    }
    units.sort_by(|a, b| a.file.cmp(&b.file));
    Ok(units)
}

fn is_cpp(file: &Path) -> bool {
    matches!(
        file.extension().and_then(|e| e.to_str()),
        Some("cc" | "cpp" | "cxx" | "C" | "c++")
    )
}

/// A compile command without `-o X`, `-c`, `-O*`, `-g*` and dependency-file flags.
fn strip_output_flags(words: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut skip_next = false;
    for (i, w) in words.iter().enumerate() {
        if skip_next {
            skip_next = false;
            continue;
        }
        if i == 0 {
            out.push(w.clone());
            continue;
        }
        match w.as_str() {
            "-o" | "-MF" | "-MT" | "-MQ" => skip_next = true,
            "-c" | "-MD" | "-MMD" | "-MP" => {}
            _ if w.starts_with("-O") || w.starts_with("-g") => {}
            _ => out.push(w.clone()),
        }
    }
    out
}

/// Splits a POSIX shell command line into words (quotes and backslashes; no
/// expansions, which CMake does not write).
pub fn shell_words(text: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut has_word = false;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' | '\n' => {
                if has_word {
                    words.push(std::mem::take(&mut word));
                    has_word = false;
                }
            }
            '\\' => {
                word.push(chars.next().ok_or("a command ends in a backslash")?);
                has_word = true;
            }
            '\'' => {
                has_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(ch) => word.push(ch),
                        None => return Err("an unclosed ' in a command".into()),
                    }
                }
            }
            '"' => {
                has_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(ch @ ('"' | '\\' | '$' | '`')) => word.push(ch),
                            Some(ch) => {
                                word.push('\\');
                                word.push(ch);
                            }
                            None => return Err("an unclosed \" in a command".into()),
                        },
                        Some(ch) => word.push(ch),
                        None => return Err("an unclosed \" in a command".into()),
                    }
                }
            }
            _ => {
                word.push(c);
                has_word = true;
            }
        }
    }
    if has_word {
        words.push(word);
    }
    Ok(words)
}

/// The `files` build: each unit compiled from the root with the corpus's flags.
pub(crate) fn file_units(root: &Path, options: &ClangOptions) -> std::io::Result<Vec<Unit>> {
    let mut found = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir)? {
            let entry = entry?;
            let kind = entry.file_type()?;
            let path = entry.path();
            if kind.is_dir() {
                stack.push(path);
                continue;
            }
            let ext = path
                .extension()
                .map(|e| e.to_string_lossy().into_owned())
                .unwrap_or_default();
            if !kind.is_file() || !options.extensions.contains(&ext) {
                continue;
            }
            let rel = path
                .strip_prefix(root)
                .expect("walked under the root")
                .to_string_lossy()
                .replace('\\', "/");
            let name = entry.file_name().to_string_lossy().into_owned();
            if options.exclude.iter().any(|x| *x == rel || *x == name) {
                continue;
            }
            let cpp = is_cpp(&path);
            let mut arguments = vec![if cpp { "clang++" } else { "clang" }.to_string()];
            arguments.extend(options.flags.iter().cloned());
            arguments.push(rel);
            found.push(Unit {
                file: path,
                directory: root.to_path_buf(),
                arguments,
                cpp,
            });
        }
    }
    found.sort_by(|a, b| a.file.cmp(&b.file));
    Ok(found)
}

/// The C/C++ part of the corpus's `build` configuration (corpora.json; the other
/// languages' fields are not read here): what the engine is told.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
pub struct CBuild {
    #[serde(default)]
    pub defines: Vec<String>,
    #[serde(default)]
    pub std: Vec<String>,
    #[serde(default)]
    pub no_exceptions: bool,
    #[serde(default)]
    pub no_rtti: bool,
    #[serde(default)]
    pub unit_macros: std::collections::BTreeMap<String, Vec<String>>,
    #[serde(default)]
    pub varying_defines: Vec<String>,
}

impl CBuild {
    pub fn from_json(value: &serde_json::Value) -> Result<CBuild, String> {
        if value.is_null() {
            return Ok(CBuild::default());
        }
        serde_json::from_value(value.clone()).map_err(|e| format!("build configuration: {e}"))
    }

    /// The flags that give a unit of this file and language the configuration's
    /// preprocessor: its standard, C++'s exceptions and RTTI, the `-D`s, the unit's own.
    pub fn flags_for(&self, rel: &str, cpp: bool) -> Vec<String> {
        let mut flags: Vec<String> = self
            .std
            .iter()
            .filter(|s| s.contains("++") == cpp)
            .map(|s| format!("-std={s}"))
            .collect();
        if cpp && self.no_exceptions {
            flags.push("-fno-exceptions".into());
        }
        if cpp && self.no_rtti {
            flags.push("-fno-rtti".into());
        }
        flags.extend(self.defines.iter().map(|d| format!("-D{d}")));
        flags.extend(self.unit_macros.get(rel).into_iter().flatten().cloned());
        flags
    }
}

/// A unit's own flags that can change what the preprocessor predefines: its
/// command without the compiler, the source file, `-c`, the language and the
/// include directories (which change where headers are found, not the macros).
fn macro_flags(unit: &Unit) -> Vec<String> {
    let mut out = Vec::new();
    let mut words = unit.arguments.iter().skip(1);
    while let Some(w) = words.next() {
        match w.as_str() {
            "-I" | "-isystem" | "-iquote" | "-idirafter" | "-x" => {
                words.next();
            }
            "-c" => {}
            _ if w.starts_with("-I") || w.starts_with("-isystem") || w.starts_with("-iquote") => {}
            _ if !w.starts_with('-') && unit.directory.join(w) == unit.file => {}
            _ if !w.starts_with('-') && Path::new(w) == unit.file => {}
            _ => out.push(w.clone()),
        }
    }
    out
}

/// Every unit's predefined macros (`clang -dM -E` with its flags) are those of the
/// corpus's build configuration (the same, with the configuration's flags), but for
/// the macros it lists as varying between units. A unit that differs is a
/// `tool_failed` naming it: engine and oracle would read two programs.
fn check_units_match_build(
    units: &[Unit],
    base: &Path,
    build: &CBuild,
    compilers: (&Tool, &Tool),
    timeout: std::time::Duration,
) -> Result<(), Outcome> {
    let mut dumps: std::collections::HashMap<(bool, PathBuf, Vec<String>), Vec<String>> =
        Default::default();
    let mut dump = |cpp: bool, dir: &Path, flags: Vec<String>| -> Result<Vec<String>, Outcome> {
        let key = (cpp, dir.to_path_buf(), flags);
        if let Some(d) = dumps.get(&key) {
            return Ok(d.clone());
        }
        let compiler = if cpp { compilers.1 } else { compilers.0 };
        let out = compiler
            .command(dir)
            .args(&key.2)
            .args([
                "-x",
                if cpp { "c++" } else { "c" },
                "-dM",
                "-E",
                "/dev/null",
            ])
            .timeout(timeout)
            .run()?;
        let lines: Vec<String> = out
            .stdout
            .lines()
            .filter(|l| {
                let name = l.split_whitespace().nth(1).unwrap_or("");
                !build.varying_defines.iter().any(|v| v == name)
            })
            .map(str::to_string)
            .collect();
        let mut sorted = lines;
        sorted.sort();
        dumps.insert(key, sorted.clone());
        Ok(sorted)
    };
    for unit in units {
        let rel = unit
            .file
            .strip_prefix(base)
            .map(|r| r.to_string_lossy().replace('\\', "/"))
            .unwrap_or_default();
        let actual = dump(unit.cpp, &unit.directory, macro_flags(unit))?;
        let expected = dump(unit.cpp, &unit.directory, build.flags_for(&rel, unit.cpp))?;
        if actual != expected {
            let extra: Vec<&String> = actual.iter().filter(|l| !expected.contains(l)).collect();
            let missing: Vec<&String> = expected.iter().filter(|l| !actual.contains(l)).collect();
            let show = |v: &[&String]| {
                v.iter()
                    .take(4)
                    .map(|l| format!("`{l}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            return Err(failed(format!(
                "corpora.json's build configuration does not describe unit {rel}: the unit has {}, the configuration {} (give the corpus's \"build\" its defines, std, no_exceptions, no_rtti, unit_macros or varying_defines)",
                if extra.is_empty() { "nothing more".to_string() } else { show(&extra) },
                if missing.is_empty() { "nothing more".to_string() } else { show(&missing) },
            )));
        }
    }
    Ok(())
}

pub(crate) fn failed(detail: String) -> Outcome {
    Outcome::tool_failed(TOOL, detail)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_are_checked() {
        let ok = serde_json::json!({"build": "files", "extensions": ["c"], "flags": ["-I.", "-std=c99"]});
        assert!(ClangOptions::from_json(&ok).is_ok());
        let ok = serde_json::json!({"build": "cmake", "cmake_args": ["-DLEVELDB_BUILD_TESTS=ON"]});
        assert!(ClangOptions::from_json(&ok).is_ok());
        for bad in [
            serde_json::json!({"build": "make"}),
            serde_json::json!({"build": "files", "extensions": []}),
            serde_json::json!({"build": "files", "extensions": ["c"], "flags": ["-o/etc/x"]}),
            serde_json::json!({"build": "cmake", "cmake_args": ["--trace"]}),
            serde_json::json!({"build": "cmake", "cmake_stubs": {"../x": "googletest"}}),
            serde_json::json!({"build": "cmake", "cmake_stubs": {"third_party/x": "nope"}}),
        ] {
            assert!(ClangOptions::from_json(&bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn commands_are_split_like_a_shell_and_lose_their_output_flags() {
        let words =
            shell_words(r#"/usr/bin/clang++ -DX=\"a\ b\" -I"/p q" -O2 -g -o out.o -c /r/a.cc"#)
                .unwrap();
        assert_eq!(
            strip_output_flags(&words),
            ["/usr/bin/clang++", "-DX=\"a b\"", "-I/p q", "/r/a.cc"]
        );
    }

    #[test]
    fn a_build_configuration_gives_each_unit_its_flags() {
        let build = CBuild::from_json(&serde_json::json!({
            "defines": ["P=1"], "std": ["c11", "c++11"], "no_exceptions": true,
            "unit_macros": {"db/u.cc": ["-UP"]}, "cfg": ["ignored"]
        }))
        .unwrap();
        assert_eq!(
            build.flags_for("db/u.cc", true),
            ["-std=c++11", "-fno-exceptions", "-DP=1", "-UP"]
        );
        assert_eq!(build.flags_for("db/c.c", false), ["-std=c11", "-DP=1"]);
        assert_eq!(
            CBuild::from_json(&serde_json::Value::Null).unwrap(),
            CBuild::default()
        );
        let unit = Unit {
            file: PathBuf::from("/r/db/a.cc"),
            directory: PathBuf::from("/b"),
            arguments: [
                "clang++",
                "-DX",
                "-I/r/include",
                "-isystem",
                "/s",
                "-std=c++11",
                "-c",
                "/r/db/a.cc",
            ]
            .map(String::from)
            .to_vec(),
            cpp: true,
        };
        assert_eq!(macro_flags(&unit), ["-DX", "-std=c++11"]);
    }

    #[test]
    fn compile_commands_keep_units_in_the_tree_once() {
        let text = r#"[
 {"directory": "/b", "command": "clang++ -I/r/include -o x.o -c /r/db/a.cc", "file": "/r/db/a.cc"},
 {"directory": "/b", "command": "clang++ -o y.o -c /r/db/a.cc", "file": "/r/db/a.cc"},
 {"directory": "/b", "arguments": ["clang", "-c", "gen.c"], "file": "gen.c"},
 {"directory": "/b", "arguments": ["clang", "-c", "/r/util/skip.c"], "file": "/r/util/skip.c"}]"#;
        let units = units_from_compile_commands(text, Path::new("/r"), &["skip.c".into()]).unwrap();
        assert_eq!(units.len(), 1);
        assert!(units[0].cpp);
        assert_eq!(
            units[0].arguments,
            ["clang++", "-I/r/include", "/r/db/a.cc"]
        );
        assert_eq!(version_word("Debian clang version 14.0.6"), "14.0.6");
    }
}
