//! Building and running proof programs with their real toolchains
//! (docs/PROOF-FORMAT.md): each in a fresh temporary copy outside the analysed tree,
//! each step under a time bound, the output checked against expected.stdout.

use std::path::{Path, PathBuf};
use std::time::Duration;

use oracles::{Outcome, Tool};

use crate::model::NameVersion;
use crate::proofs::ProofCase;

/// The bound on each build and each run.
pub const DEFAULT_PROOF_BOUND: Duration = Duration::from_secs(60);

/// How one step (build or run) of one case went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    Done,
    /// The language has no build step.
    NotNeeded,
    /// The toolchain is missing: reported, never counted as passed.
    Skipped(String),
    Failed(String),
}

impl Step {
    pub fn failed(&self) -> bool {
        matches!(self, Step::Failed(_))
    }

    pub fn skipped(&self) -> bool {
        matches!(self, Step::Skipped(_))
    }

    /// A short word for the per-case line.
    pub fn word(&self) -> &'static str {
        match self {
            Step::Done => "ok",
            Step::NotNeeded => "-",
            Step::Skipped(_) => "skipped",
            Step::Failed(_) => "FAILED",
        }
    }
}

/// The build and run of one case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaseRun {
    pub build: Step,
    pub run: Step,
}

/// The programs a language's proofs need, and how to ask the compiler its version.
struct Recipe {
    tools: &'static [&'static str],
    version_tool: &'static str,
    version_args: &'static [&'static str],
}

fn recipe(language: &str) -> Option<Recipe> {
    match language {
        "python" => Some(Recipe {
            tools: &["python3"],
            version_tool: "python3",
            version_args: &["--version"],
        }),
        "java" => Some(Recipe {
            tools: &["javac", "java"],
            version_tool: "javac",
            version_args: &["-version"],
        }),
        "go" => Some(Recipe {
            tools: &["go"],
            version_tool: "go",
            version_args: &["version"],
        }),
        "rust" => Some(Recipe {
            tools: &["rustc"],
            version_tool: "rustc",
            version_args: &["--version"],
        }),
        "c" => Some(Recipe {
            tools: &["cc"],
            version_tool: "cc",
            version_args: &["--version"],
        }),
        "cpp" => Some(Recipe {
            tools: &["c++"],
            version_tool: "c++",
            version_args: &["--version"],
        }),
        // C#: Mono's compiler and runtime (Debian `mono-devel`).
        "csharp" => Some(Recipe {
            tools: &["mcs", "mono"],
            version_tool: "mcs",
            version_args: &["--version"],
        }),
        "ada" => Some(Recipe {
            tools: &["gnatmake"],
            version_tool: "gnatmake",
            version_args: &["--version"],
        }),
        // TypeScript cases are compiled by the pinned tsc (oracles/tsc), found by
        // path in `build_and_run_typescript`; JavaScript cases only need node.
        "typescript" => Some(Recipe {
            tools: &["node"],
            version_tool: "node",
            version_args: &["--version"],
        }),
        // Kotlin cases are compiled by the pinned kotlinc (oracles/kotlin), found by
        // path in `build_and_run_kotlin`, and run on the JDK.
        "kotlin" => Some(Recipe {
            tools: &["java"],
            version_tool: "kotlinc",
            version_args: &["-version"],
        }),
        _ => None,
    }
}

/// The build configuration the proofs of a language are built with, as the engine
/// is told it: C++ cases are compiled `-std=c++17` (below); every other recipe is
/// its compiler's default, which the engine's defaults mirror.
pub fn engine_build(language: &str) -> crate::corpora::BuildConfiguration {
    let mut build = crate::corpora::BuildConfiguration::default();
    if language == "cpp" {
        build.std = vec!["c++17".to_string()];
    }
    build
}

/// The toolchain of a proof language, with its version as the door reports it (or
/// the outcome token when it cannot be asked).
pub fn toolchain_stamp(language: &str) -> NameVersion {
    let Some(recipe) = recipe(language) else {
        return NameVersion {
            name: "none".into(),
            version: "not_implemented".into(),
        };
    };
    let tool = match language {
        // The stamp is asked from the checkout the harness runs in.
        "kotlin" => pinned_kotlinc(&std::env::current_dir().unwrap_or_default()),
        _ => Tool::locate(recipe.version_tool),
    };
    let version = tool
        .and_then(|tool| tool.version(recipe.version_args))
        .unwrap_or_else(|outcome| outcome.token().to_string());
    NameVersion {
        name: recipe.version_tool.into(),
        version,
    }
}

/// Builds and runs one case in a temporary copy, under `bound` per step.
pub fn build_and_run(case: &ProofCase, bound: Duration) -> CaseRun {
    let skipped = |why: String| CaseRun {
        build: Step::Skipped(why.clone()),
        run: Step::Skipped(why),
    };
    let Some(recipe) = recipe(&case.language) else {
        return skipped(format!(
            "not_implemented: no build recipe for {}",
            case.language
        ));
    };
    let mut tools = Vec::new();
    for name in recipe.tools {
        match Tool::locate(name) {
            Ok(tool) => tools.push(tool),
            Err(outcome) => return skipped(outcome.to_string()),
        }
    }
    let scratch = match tempfile::tempdir() {
        Ok(dir) => dir,
        Err(e) => return failed_both(format!("no temporary directory: {e}")),
    };
    let copy = scratch.path().join("src");
    if let Err(e) = copy_tree(&case.dir, &copy) {
        return failed_both(format!("cannot copy the case: {e}"));
    }
    let (build, finished) = match case.language.as_str() {
        "java" => build_and_run_java(&tools[0], &tools[1], &copy, scratch.path(), bound),
        "csharp" => build_and_run_csharp(&tools[0], &tools[1], &copy, scratch.path(), bound),
        "rust" => build_and_run_rust(&tools[0], &copy, scratch.path(), bound),
        "c" | "cpp" => {
            build_and_run_native(&tools[0], &case.language, &copy, scratch.path(), bound)
        }
        "typescript" => build_and_run_typescript(&tools[0], case, &copy, scratch.path(), bound),
        "kotlin" => build_and_run_kotlin(&tools[0], case, &copy, scratch.path(), bound),
        "ada" => build_and_run_ada(&tools[0], &copy, scratch.path(), bound),
        "go" => (
            Step::NotNeeded,
            go_run(&tools[0], &copy, scratch.path())
                .timeout(bound)
                .run(),
        ),
        _ => (
            Step::NotNeeded,
            tools[0].command(&copy).arg("main.py").timeout(bound).run(),
        ),
    };
    let run = match (build.failed(), finished) {
        (true, _) => Step::Skipped("the build failed".into()),
        (false, _) if build.skipped() => Step::Skipped("the build was skipped".into()),
        (false, Ok(done)) => compare_output(&case.dir, &done.stdout),
        (false, Err(outcome)) => Step::Failed(outcome.to_string()),
    };
    CaseRun { build, run }
}

fn failed_both(why: String) -> CaseRun {
    CaseRun {
        build: Step::Failed(why.clone()),
        run: Step::Failed(why),
    }
}

/// `javac -d <tmp>/classes` every `*.java` of the copy, then `java -cp <tmp>/classes Main`.
fn build_and_run_java(
    javac: &Tool,
    java: &Tool,
    copy: &Path,
    scratch: &Path,
    bound: Duration,
) -> (Step, Result<oracles::Finished, Outcome>) {
    let classes = scratch.join("classes");
    let mut sources = Vec::new();
    if let Err(e) = java_sources(copy, copy, &mut sources) {
        return (
            Step::Failed(format!("cannot list sources: {e}")),
            Err(not_run()),
        );
    }
    sources.sort();
    let built = javac
        .command(copy)
        .arg("-d")
        .arg(&classes)
        .args(&sources)
        .timeout(bound)
        .run();
    if let Err(outcome) = built {
        return (Step::Failed(outcome.to_string()), Err(not_run()));
    }
    let ran = java
        .command(copy)
        .arg("-cp")
        .arg(&classes)
        .arg("Main")
        .timeout(bound)
        .run();
    (Step::Done, ran)
}

/// `mcs -out:<tmp>/main.exe` every `*.cs` of the copy (sorted), then
/// `mono <tmp>/main.exe` in the copy.
fn build_and_run_csharp(
    mcs: &Tool,
    mono: &Tool,
    copy: &Path,
    scratch: &Path,
    bound: Duration,
) -> (Step, Result<oracles::Finished, Outcome>) {
    let mut sources = Vec::new();
    if let Err(e) = sources_with(copy, copy, &["cs"], &mut sources) {
        return (
            Step::Failed(format!("cannot list sources: {e}")),
            Err(not_run()),
        );
    }
    sources.sort();
    let program = scratch.join("main.exe");
    let mut out = std::ffi::OsString::from("-out:");
    out.push(&program);
    let built = mcs
        .command(copy)
        .arg(out)
        .args(&sources)
        .timeout(bound)
        .run();
    if let Err(outcome) = built {
        return (Step::Failed(outcome.to_string()), Err(not_run()));
    }
    let ran = mono.command(copy).arg(&program).timeout(bound).run();
    (Step::Done, ran)
}

/// `rustc --edition 2021 -C opt-level=0 -o <tmp>/main main.rs` in the copy (other
/// modules come in through `mod x;` in main.rs), then the binary. A case with a
/// `Cargo.toml` (its `[features]` are part of what it proves) is built by
/// `cargo build --offline` instead, its binary `main` (`[[bin]] path = "main.rs"`).
fn build_and_run_rust(
    rustc: &Tool,
    copy: &Path,
    scratch: &Path,
    bound: Duration,
) -> (Step, Result<oracles::Finished, Outcome>) {
    let built = if copy.join("Cargo.toml").is_file() {
        cargo_build(copy, scratch, bound)
    } else {
        let binary = scratch.join("main");
        rustc
            .command(copy)
            .args(["--edition", "2021", "-C", "opt-level=0", "-o"])
            .arg(&binary)
            .arg("main.rs")
            .timeout(bound)
            .run()
            .map(|_| binary)
    };
    let binary = match built {
        Ok(binary) => binary,
        Err(outcome) => return (Step::Failed(outcome.to_string()), Err(not_run())),
    };
    let ran = match Tool::at("main", &binary) {
        Ok(program) => program.command(copy).timeout(bound).run(),
        Err(outcome) => Err(outcome),
    };
    (Step::Done, ran)
}

/// `gnatmake main.adb` (the units it needs found beside it), objects and the
/// binary in the scratch directory, then the binary.
fn build_and_run_ada(
    gnatmake: &Tool,
    copy: &Path,
    scratch: &Path,
    bound: Duration,
) -> (Step, Result<oracles::Finished, Outcome>) {
    let objects = scratch.join("obj");
    if let Err(e) = std::fs::create_dir_all(&objects) {
        return (
            Step::Failed(format!("cannot create {}: {e}", objects.display())),
            Err(not_run()),
        );
    }
    let binary = scratch.join("main");
    let built = gnatmake
        .command(copy)
        .args(["-q", "-gnatws", "-D"])
        .arg(&objects)
        .arg("main.adb")
        .arg("-o")
        .arg(&binary)
        .timeout(bound)
        .run();
    if let Err(outcome) = built {
        return (Step::Failed(outcome.to_string()), Err(not_run()));
    }
    let ran = match Tool::at("main", &binary) {
        Ok(program) => program.command(copy).timeout(bound).run(),
        Err(outcome) => Err(outcome),
    };
    (Step::Done, ran)
}

/// `cargo build --offline` of a case's own manifest (no dependencies), its target
/// directory in the scratch directory; the path of the binary `main`.
fn cargo_build(copy: &Path, scratch: &Path, bound: Duration) -> Result<PathBuf, Outcome> {
    let cargo = Tool::locate("cargo")?;
    let target = scratch.join("target");
    cargo
        .command(copy)
        .args(["build", "--offline", "--quiet"])
        .env("CARGO_TARGET_DIR", &target)
        .env("CARGO_TERM_COLOR", "never")
        .timeout(bound)
        .run()?;
    Ok(target.join("debug").join("main"))
}

/// C: `cc -O0 -o <tmp>/main` every `*.c` of the copy; C++: `c++ -std=c++17 -O0`
/// every `*.cpp`/`*.cc`; then `<tmp>/main` in the copy.
fn build_and_run_native(
    compiler: &Tool,
    language: &str,
    copy: &Path,
    scratch: &Path,
    bound: Duration,
) -> (Step, Result<oracles::Finished, Outcome>) {
    let extensions: &[&str] = if language == "c" {
        &["c"]
    } else {
        &["cpp", "cc"]
    };
    let mut sources = Vec::new();
    if let Err(e) = sources_with(copy, copy, extensions, &mut sources) {
        return (
            Step::Failed(format!("cannot list sources: {e}")),
            Err(not_run()),
        );
    }
    sources.sort();
    let binary = scratch.join("main");
    let mut build = compiler.command(copy);
    if language == "cpp" {
        // What `engine_build` tells the engine.
        build = build.arg("-std=c++17");
    }
    let built = build
        .arg("-O0")
        .arg("-o")
        .arg(&binary)
        .args(&sources)
        .timeout(bound)
        .run();
    if let Err(outcome) = built {
        return (Step::Failed(outcome.to_string()), Err(not_run()));
    }
    let program = match Tool::at("main", &binary) {
        Ok(t) => t,
        Err(outcome) => return (Step::Failed(outcome.to_string()), Err(not_run())),
    };
    (Step::Done, program.command(copy).timeout(bound).run())
}

/// The pinned TypeScript compiler: `CALLGRAPH_TSC` when set, else
/// `oracles/tsc/node_modules/.bin/tsc` of the checkout the proofs directory is in
/// (installed by `npm ci --prefix oracles/tsc`).
fn pinned_tsc(case_dir: &Path) -> Result<Tool, Outcome> {
    if let Some(path) = std::env::var_os("CALLGRAPH_TSC") {
        return Tool::at("tsc", Path::new(&path));
    }
    let case_dir = std::fs::canonicalize(case_dir).unwrap_or_else(|_| case_dir.to_path_buf());
    // <root>/proofs/typescript/<case>
    let root = case_dir
        .ancestors()
        .nth(3)
        .map(Path::to_path_buf)
        .unwrap_or_default();
    Tool::at("tsc", &root.join("oracles/tsc/node_modules/.bin/tsc"))
}

/// A `main.js` case runs as it is (`node main.js`); a `main.ts` case is compiled
/// first with the pinned tsc (`--outDir <tmp>/out --module commonjs --target
/// es2020`, Node's types from the same install), then `node <tmp>/out/main.js`.
/// A case that writes a `tsconfig.json` is built as that project (`tsc -p`, its own
/// options and files; output in the copy's `out/`, so that its `package.json`
/// `exports` and self-references resolve for node too), then `node out/main.js`.
/// A missing tsc skips the case (`tool_missing`), never fails it.
fn build_and_run_typescript(
    node: &Tool,
    case: &ProofCase,
    copy: &Path,
    scratch: &Path,
    bound: Duration,
) -> (Step, Result<oracles::Finished, Outcome>) {
    if !copy.join("main.ts").is_file() {
        return (
            Step::NotNeeded,
            node.command(copy).arg("main.js").timeout(bound).run(),
        );
    }
    let tsc = match pinned_tsc(&case.dir) {
        Ok(tsc) => tsc,
        Err(outcome) => return (Step::Skipped(outcome.to_string()), Err(outcome)),
    };
    let mut sources = Vec::new();
    if let Err(e) = sources_with(copy, copy, &["ts"], &mut sources) {
        return (
            Step::Failed(format!("cannot list sources: {e}")),
            Err(not_run()),
        );
    }
    sources.sort();
    let out = scratch.join("out");
    let types = tsc
        .path
        .parent()
        .and_then(Path::parent)
        .map(|modules| modules.join("@types"))
        .unwrap_or_default();
    if copy.join("tsconfig.json").is_file() {
        return build_and_run_typescript_project(node, &tsc, copy, &types, bound);
    }
    let built = tsc
        .command(copy)
        .arg("--outDir")
        .arg(&out)
        .arg("--rootDir")
        .arg(copy)
        .args(["--module", "commonjs", "--target", "es2020", "--strict"])
        .args(["--esModuleInterop", "--skipLibCheck", "--types", "node"])
        .arg("--typeRoots")
        .arg(&types)
        .args(&sources)
        .timeout(bound)
        .run();
    if let Err(outcome) = built {
        return (Step::Failed(outcome.to_string()), Err(not_run()));
    }
    let ran = node
        .command(copy)
        .arg(out.join("main.js"))
        .timeout(bound)
        .run();
    (Step::Done, ran)
}

/// A case that is a tsc project: `tsc -p tsconfig.json --outDir out` in the copy
/// (Node's types from the pinned install), then `node out/main.js`.
fn build_and_run_typescript_project(
    node: &Tool,
    tsc: &Tool,
    copy: &Path,
    types: &Path,
    bound: Duration,
) -> (Step, Result<oracles::Finished, Outcome>) {
    let built = tsc
        .command(copy)
        .args(["-p", "tsconfig.json", "--outDir", "out"])
        .args(["--skipLibCheck", "--types", "node"])
        .arg("--typeRoots")
        .arg(types)
        .timeout(bound)
        .run();
    if let Err(outcome) = built {
        return (Step::Failed(outcome.to_string()), Err(not_run()));
    }
    let ran = node
        .command(copy)
        .arg(copy.join("out/main.js"))
        .timeout(bound)
        .run();
    (Step::Done, ran)
}

/// The pinned Kotlin compiler: `CALLGRAPH_KOTLINC` when set, else
/// `oracles/kotlin/node_modules/kotlin-compiler/bin/kotlinc` of the checkout `root`
/// (installed by `npm ci --prefix oracles/kotlin`).
fn pinned_kotlinc(root: &Path) -> Result<Tool, Outcome> {
    if let Some(path) = std::env::var_os("CALLGRAPH_KOTLINC") {
        return Tool::at("kotlinc", Path::new(&path));
    }
    Tool::at(
        "kotlinc",
        &root.join("oracles/kotlin/node_modules/kotlin-compiler/bin/kotlinc"),
    )
}

/// `kotlinc -d <tmp>/classes` every `*.kt` of the copy (one compiler start per
/// case: the cases share file and class names, so one invocation cannot hold
/// two of them), then `java -cp <tmp>/classes:<kotlin-stdlib.jar> MainKt` (the
/// class of `Main.kt`'s top-level `main`). The standard library is the pinned
/// compiler's own `lib/kotlin-stdlib.jar`. A missing kotlinc skips the case
/// (`tool_missing`), never fails it.
fn build_and_run_kotlin(
    java: &Tool,
    case: &ProofCase,
    copy: &Path,
    scratch: &Path,
    bound: Duration,
) -> (Step, Result<oracles::Finished, Outcome>) {
    let case_dir = std::fs::canonicalize(&case.dir).unwrap_or_else(|_| case.dir.clone());
    // <root>/proofs/kotlin/<case>
    let root = case_dir.ancestors().nth(3).unwrap_or(Path::new(""));
    let kotlinc = match pinned_kotlinc(root) {
        Ok(k) => k,
        Err(outcome) => return (Step::Skipped(outcome.to_string()), Err(outcome)),
    };
    let mut sources = Vec::new();
    if let Err(e) = sources_with(copy, copy, &["kt"], &mut sources) {
        return (
            Step::Failed(format!("cannot list sources: {e}")),
            Err(not_run()),
        );
    }
    sources.sort();
    let classes = scratch.join("classes");
    let built = kotlinc
        .command(copy)
        .arg("-d")
        .arg(&classes)
        .arg("-nowarn")
        .args(&sources)
        .timeout(bound)
        .run();
    if let Err(outcome) = built {
        return (Step::Failed(outcome.to_string()), Err(not_run()));
    }
    let stdlib = kotlinc
        .path
        .parent()
        .and_then(Path::parent)
        .map(|home| home.join("lib/kotlin-stdlib.jar"))
        .unwrap_or_default();
    let mut classpath = std::ffi::OsString::from(classes.as_os_str());
    classpath.push(":");
    classpath.push(stdlib.as_os_str());
    let ran = java
        .command(copy)
        .arg("-cp")
        .arg(classpath)
        .arg("MainKt")
        .timeout(bound)
        .run();
    (Step::Done, ran)
}

/// `go run .` in the copy: modules on, the module cache in the scratch directory,
/// the build cache shared by every case under the system temporary directory (Go's
/// cache is content-addressed and safe for concurrent use; a cache per case
/// recompiles `fmt` each time, about ten seconds), no network (a proof imports
/// nothing outside its module), and the installed toolchain only.
fn go_run(go: &Tool, copy: &Path, scratch: &Path) -> oracles::Invocation {
    go.command(copy)
        .arg("run")
        .arg(".")
        .env("GOFLAGS", "-mod=mod")
        .env(
            "GOCACHE",
            std::env::temp_dir().join("callgraph-proofs-gocache"),
        )
        .env("GOPATH", scratch.join("gopath"))
        .env("GOPROXY", "off")
        .env("GOTOOLCHAIN", "local")
        .env("GOENV", "off")
        .env("CGO_ENABLED", "0")
}

fn not_run() -> Outcome {
    Outcome::ToolFailed {
        tool: "java".into(),
        detail: "not run".into(),
    }
}

fn java_sources(root: &Path, dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    sources_with(root, dir, &["java"], out)
}

/// Every file under `dir` with the extension, relative to `root`.
fn sources_with(
    root: &Path,
    dir: &Path,
    extensions: &[&str],
    out: &mut Vec<PathBuf>,
) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let path = entry.path();
        if entry.file_type()?.is_dir() {
            sources_with(root, &path, extensions, out)?;
        } else if path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| extensions.contains(&e))
        {
            out.push(path.strip_prefix(root).expect("under root").to_path_buf());
        }
    }
    Ok(())
}

/// Copies regular files and directories; links are not followed out of the case.
fn copy_tree(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let kind = entry.file_type()?;
        let target = to.join(entry.file_name());
        if kind.is_dir() {
            copy_tree(&entry.path(), &target)?;
        } else if kind.is_file() {
            std::fs::copy(entry.path(), &target)?;
        }
    }
    Ok(())
}

/// The run passes when it printed exactly expected.stdout.
fn compare_output(case_dir: &Path, stdout: &str) -> Step {
    let expected_path = case_dir.join("expected.stdout");
    let Ok(expected) = std::fs::read_to_string(&expected_path) else {
        return Step::Failed("no expected.stdout".into());
    };
    if expected == stdout {
        return Step::Done;
    }
    Step::Failed(first_difference(&expected, stdout))
}

fn first_difference(expected: &str, actual: &str) -> String {
    let mut expected_lines = expected.lines();
    let mut actual_lines = actual.lines();
    for number in 1.. {
        match (expected_lines.next(), actual_lines.next()) {
            (Some(e), Some(a)) if e == a => continue,
            (None, None) => return "output differs in line endings or a final newline".into(),
            (e, a) => {
                return format!(
                    "output differs at line {number}: expected {:?}, printed {:?}",
                    e.unwrap_or("<end>"),
                    a.unwrap_or("<end>")
                )
            }
        }
    }
    unreachable!("the loop returns")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_proofs_run_with_the_go_toolchain() {
        let go = recipe("go").expect("go has a recipe");
        assert_eq!(go.tools, &["go"]);
        assert_eq!((go.version_tool, go.version_args), ("go", &["version"][..]));
        assert!(recipe("cobol").is_none());
        assert_eq!(recipe("c").expect("c").tools, &["cc"]);
        assert_eq!(recipe("cpp").expect("cpp").tools, &["c++"]);
    }

    #[test]
    fn csharp_proofs_build_with_mcs_and_run_with_mono() {
        let cs = recipe("csharp").expect("csharp has a recipe");
        assert_eq!(cs.tools, &["mcs", "mono"]);
        assert_eq!(
            (cs.version_tool, cs.version_args),
            ("mcs", &["--version"][..])
        );
    }

    #[test]
    fn typescript_proofs_run_with_node() {
        let ts = recipe("typescript").expect("typescript has a recipe");
        assert_eq!(ts.tools, &["node"]);
        assert_eq!(ts.version_tool, "node");
    }

    #[test]
    fn kotlin_proofs_run_on_the_jdk_with_the_pinned_kotlinc() {
        let kt = recipe("kotlin").expect("kotlin has a recipe");
        assert_eq!(kt.tools, &["java"]);
        assert_eq!(kt.version_tool, "kotlinc");
    }

    #[test]
    fn the_first_difference_is_named() {
        assert_eq!(
            first_difference("a\nb\n", "a\nc\n"),
            "output differs at line 2: expected \"b\", printed \"c\""
        );
        assert_eq!(
            first_difference("a\n", "a\nb\n"),
            "output differs at line 2: expected \"<end>\", printed \"b\""
        );
        assert_eq!(
            first_difference("a\n", "a"),
            "output differs in line endings or a final newline"
        );
    }
}
