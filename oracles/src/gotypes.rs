//! The Go oracle: go/types' own binding of every call expression, read through
//! `golang.org/x/tools/go/packages` by a helper program (`oracles/go/main.go`, its
//! module pinned by the committed go.mod/go.sum) built at run time under the cache.
//!
//! Every call expression of every package under the root (tests included) is a
//! site named by the callee's identifier at its column; its target is the
//! declaration go/types binds (an interface method call → the interface's method
//! spec), in the tree by the name line, or outside as `pkgpath.F` / `pkgpath.T.M`.
//! Calls of predeclared functions are set apart (`"implicit": "builtin"`);
//! conversions are not calls and are not sites; a call of a func-valued variable
//! or of a computed expression is unjudged. The helper's module and the corpus's
//! dependencies come from the Go module proxy only, into the cache. The corpus's
//! build tags (corpora.json `build.go_tags`) are given to `go list` as `-tags`, so
//! the oracle loads the files the engine reads; cgo is off (`CGO_ENABLED=0`: the
//! helper does not run cgo), where the engine's default build has it on.

use std::path::{Path, PathBuf};
use std::time::Duration;

use sha2::{Digest, Sha256};

use crate::javac::truth_from_lines;
use crate::oracle::{Oracle, OracleOptions};
use crate::toolchain::{Invocation, Outcome, Tool};
use crate::truth::{OracleStamp, Truth};

/// Bumped whenever what the adapter emits changes (truths are cached by it).
pub const ADAPTER_VERSION: &str = "1";

/// The helper's sources, embedded so a checkout alone can build it.
pub const HELPER_MAIN: &str = include_str!("../go/main.go");
pub const HELPER_GO_MOD: &str = include_str!("../go/go.mod");
pub const HELPER_GO_SUM: &str = include_str!("../go/go.sum");

/// The sha256 of the helper's main.go this adapter version was written for.
#[cfg(test)]
const HELPER_SHA256: &str = "4c3aa170208179d77de38745a658ca9052e792b3a9cd57b1bc9f2dbaadf449e6";

const TOOL: &str = "go";

#[derive(Debug, Clone, Copy, Default)]
pub struct GoTypes;

impl Oracle for GoTypes {
    fn name(&self) -> &'static str {
        "gotypes"
    }

    fn version(&self) -> &'static str {
        ADAPTER_VERSION
    }

    fn toolchain_version(&self) -> Result<String, Outcome> {
        Tool::locate(TOOL)?.version(&["version"])
    }

    fn run(&self, corpus_dir: &Path, options: &OracleOptions<'_>) -> Result<Truth, Outcome> {
        let go = Tool::locate(TOOL)?;
        let version = self.toolchain_version()?;
        let root = corpus_dir
            .canonicalize()
            .map_err(|e| failed(format!("cannot read the root: {e}")))?;
        let cache = absolute_dir(&options.cache_dir.join("oracles").join("gotypes"))?;
        let work = absolute_dir(options.work_dir)?;
        let helper = build_helper(&go, &version, &cache, options.timeout)?;
        let out = work.join("sites.jsonl");
        let goflags = run_goflags(options.build)?;
        let finished = go_env(
            Tool::at("gotypes", &helper)?
                .command(&root)
                .arg(&root)
                .timeout(options.timeout),
            &cache,
        )
        .env("GOFLAGS", goflags)
        .run()?;
        std::fs::write(&out, &finished.stdout)
            .map_err(|e| failed(format!("cannot keep the helper's sites: {e}")))?;
        if finished.stdout.trim().is_empty() {
            return Err(failed("the helper found no call in the tree".into()));
        }
        let stamp = OracleStamp::at_name("gotypes", go_version_word(&version), ADAPTER_VERSION);
        truth_from_lines(options.corpus_id, stamp, &finished.stdout).map_err(failed)
    }
}

/// `go version go1.26.8 linux/amd64` → `go1.26.8`.
pub(crate) fn go_version_word(version: &str) -> String {
    version
        .split_whitespace()
        .find(|w| w.starts_with("go1") || w.starts_with("devel"))
        .unwrap_or(version)
        .to_string()
}

/// The environment of every go command the adapter runs: modules from the proxy the
/// machine configures (its `GOPROXY`, passed through the door; go's own default
/// when unset), checked against the go.sum files, caches under the oracle cache, the
/// installed toolchain only, no cgo.
pub(crate) fn go_env(invocation: Invocation, cache: &Path) -> Invocation {
    invocation
        .env("GOFLAGS", "-mod=mod")
        .env("GOSUMDB", "off")
        .env("GOTOOLCHAIN", "local")
        .env("GOENV", "off")
        .env("CGO_ENABLED", "0")
        .env("GOPATH", cache.join("gopath"))
        .env("GOMODCACHE", cache.join("gomodcache"))
        .env("GOCACHE", cache.join("gocache"))
}

/// GOFLAGS of the helper's run: `-mod=mod`, and the corpus's build tags
/// (corpora.json `build.go_tags`) as `-tags`, which `go list` under go/packages
/// reads from the environment, so the oracle loads the files the engine reads
/// (`callgraph --go-tags`). The default build writes no `-tags`: its truth is the
/// one this adapter version always gave.
pub(crate) fn run_goflags(build: &serde_json::Value) -> Result<String, Outcome> {
    let tags = build_tags(build)?;
    Ok(match tags.is_empty() {
        true => "-mod=mod".to_string(),
        false => format!("-mod=mod -tags={}", tags.join(",")),
    })
}

/// `build.go_tags`: build tags, each letters, digits, `_` or `.` (as the go tool
/// reads them; a space would split GOFLAGS).
fn build_tags(build: &serde_json::Value) -> Result<Vec<String>, Outcome> {
    let bad = |what: String| failed(format!("build.go_tags: {what}"));
    let items = match build.get("go_tags") {
        None | Some(serde_json::Value::Null) => return Ok(Vec::new()),
        Some(serde_json::Value::Array(items)) => items,
        Some(other) => return Err(bad(format!("expected a list of tags, found {other}"))),
    };
    items
        .iter()
        .map(|item| {
            let tag = item.as_str().unwrap_or("");
            let valid = !tag.is_empty()
                && tag
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.');
            valid
                .then(|| tag.to_string())
                .ok_or_else(|| bad(format!("{item} is not a build tag")))
        })
        .collect()
}

/// Builds the helper once per (sources, toolchain) under the cache.
fn build_helper(
    go: &Tool,
    version: &str,
    cache: &Path,
    bound: Duration,
) -> Result<PathBuf, Outcome> {
    build_go_program(
        &GoProgram {
            dir_prefix: "helper",
            binary: "gotypes",
            package: ".",
            files: &[
                ("main.go", HELPER_MAIN),
                ("go.mod", HELPER_GO_MOD),
                ("go.sum", HELPER_GO_SUM),
            ],
            key: &[HELPER_MAIN, HELPER_GO_MOD, HELPER_GO_SUM, version],
            what: "helper",
            failed,
        },
        go,
        cache,
        bound,
    )
}

/// A Go program built from the pinned module (this helper, or a command of
/// x/tools for a second reading).
pub(crate) struct GoProgram<'a> {
    /// The cache directory's name before its key.
    pub dir_prefix: &'a str,
    /// The binary's file name.
    pub binary: &'a str,
    /// What `go build` builds (`.`, or an import path of the module's requirements).
    pub package: &'a str,
    /// The files written into the build directory.
    pub files: &'a [(&'a str, &'a str)],
    /// What the cache key is the sha256 of (the sources, the toolchain version).
    pub key: &'a [&'a str],
    /// The program, as error messages name it.
    pub what: &'a str,
    /// The adapter's own failure outcome.
    pub failed: fn(String) -> Outcome,
}

/// Builds a Go program once per key under the cache: in a partial directory that
/// is moved into place only when `go build` succeeded, so a half-done build is
/// never reused.
pub(crate) fn build_go_program(
    program: &GoProgram<'_>,
    go: &Tool,
    cache: &Path,
    bound: Duration,
) -> Result<PathBuf, Outcome> {
    let failed = program.failed;
    let mut hasher = Sha256::new();
    for part in program.key {
        hasher.update(part.as_bytes());
        hasher.update(b"\0");
    }
    let key: String = hasher.finalize()[..8]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let dir = cache.join(format!("{}-{key}", program.dir_prefix));
    let binary = dir.join(program.binary);
    if binary.is_file() {
        return Ok(binary);
    }
    let partial = cache.join(format!("{}-{key}.partial", program.dir_prefix));
    let _ = std::fs::remove_dir_all(&partial);
    std::fs::create_dir_all(&partial)
        .map_err(|e| failed(format!("cannot create {}: {e}", partial.display())))?;
    for (name, text) in program.files {
        std::fs::write(partial.join(name), text)
            .map_err(|e| failed(format!("cannot write the {}'s {name}: {e}", program.what)))?;
    }
    go_env(
        go.command(&partial)
            .args(["build", "-o", program.binary, program.package])
            .timeout(bound),
        cache,
    )
    .run()?;
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::rename(&partial, &dir)
        .map_err(|e| failed(format!("cannot move the {} into place: {e}", program.what)))?;
    Ok(binary)
}

fn absolute_dir(path: &Path) -> Result<PathBuf, Outcome> {
    crate::toolchain::absolute_dir(TOOL, path)
}

fn failed(detail: String) -> Outcome {
    Outcome::tool_failed(TOOL, detail)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_changed_helper_asks_for_a_new_adapter_version() {
        let actual = crate::toolchain::sha256_hex(HELPER_MAIN);
        assert_eq!(
            actual, HELPER_SHA256,
            "oracles/go/main.go changed: bump ADAPTER_VERSION and set HELPER_SHA256"
        );
    }

    #[test]
    fn the_helper_module_is_pinned() {
        assert!(HELPER_GO_MOD.contains("golang.org/x/tools v"));
        assert!(HELPER_GO_SUM.contains("golang.org/x/tools"));
    }

    #[test]
    fn the_corpus_build_tags_reach_go_list() {
        assert_eq!(run_goflags(crate::DEFAULT_BUILD).unwrap(), "-mod=mod");
        assert_eq!(
            run_goflags(&serde_json::json!({})).unwrap(),
            "-mod=mod",
            "a build entry without tags is the default build"
        );
        assert_eq!(
            run_goflags(&serde_json::json!({"go_tags": ["purego", "netgo"]})).unwrap(),
            "-mod=mod -tags=purego,netgo"
        );
        for bad in [
            serde_json::json!({"go_tags": ["a b"]}),
            serde_json::json!({"go_tags": [""]}),
            serde_json::json!({"go_tags": [3]}),
            serde_json::json!({"go_tags": "purego"}),
        ] {
            assert_eq!(
                run_goflags(&bad).unwrap_err().token(),
                "tool_failed",
                "{bad}"
            );
        }
    }

    #[test]
    fn the_version_word_is_the_release() {
        assert_eq!(
            go_version_word("go version go1.26.8 linux/amd64"),
            "go1.26.8"
        );
    }

    #[test]
    fn helper_lines_keep_builtins_apart_and_dynamic_calls_unjudged() {
        let lines = r#"{"kind":"site","file":"a.go","line":5,"column":2,"name":"len","targets":[],"implicit":"builtin"}
{"kind":"site","file":"a.go","line":4,"column":2,"caller":{"file":"a.go","line":3},"name":"f","targets":[],"unjudged":"dynamic_value"}
{"kind":"site","file":"a.go","line":6,"column":6,"name":"Println","targets":[{"kind":"outside","symbol":"fmt.Println"}]}
"#;
        let stamp = OracleStamp::at_name("gotypes", "go1.26.8".into(), ADAPTER_VERSION);
        let truth = truth_from_lines("t", stamp, lines).unwrap();
        let names: Vec<&str> = truth.sites.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["f", "len", "Println"]);
        assert_eq!(truth.sites[1].implicit.as_deref(), Some("builtin"));
        assert_eq!(truth.sites[0].unjudged.as_deref(), Some("dynamic_value"));
    }
}
