//! The JavaScript runtime trace oracle (`jstrace`): the corpus's own test suite runs
//! under a tracer (oracles/jstrace/jstrace.js) that instruments every CommonJS
//! module at compile time with the pinned acorn and records, for every call executed
//! at a site of the tree, the site and every callee it reached.
//!
//! - The tracer (acorn) and each corpus's test dependencies are pinned by committed
//!   npm locks (`oracles/jstrace/package-lock.json`, `oracles/jstrace/<lock>/`),
//!   installed with `npm ci` into the cache on first use; the tests then run
//!   offline, the dependencies reached through `NODE_PATH`.
//! - A site's column is its name token (UTF-8 bytes), found from the position V8
//!   gives for the call in progress (`Error.prepareStackTrace` call sites) through a
//!   table built from the syntax tree: the property of `a.b()`, the `new` of
//!   `new T()` moved to `T`.
//! - A callee is its definition by the line of the name the engine indexes (the
//!   declaration's name, the variable, key or assigned property holding it; an
//!   anonymous function by its first line); a construction also accepts the class
//!   built (`new.target`). A function of a package (`node_modules`) is `outside`
//!   with its package (`node_modules:debug:createDebug`).
//! - What the tracer cannot see stays out of the truth: a callee that is native or
//!   node's own JavaScript (`Array.prototype.push`, `http.createServer`) runs no
//!   instrumented entry, so a site reaching only such callees is not a site of the
//!   truth; a function called back by a builtin (`forEach`, promise jobs, event
//!   emitters in node's code) is not attributed to the site that handed it over;
//!   `f.call(x)` / `f.apply(x, a)` (no frame for the builtin) are `implicit`.
//! - The trace sees only what ran: sites the tests never reach are not in the
//!   truth, and a run where some tests fail still traces what ran.
//!
//! Options (`oracle.options` in corpora.json):
//! `{"lock": "express", "runner": "mocha/bin/mocha.js", "args": ["test/"],
//!   "main": "lib/index.js"}`: the runner is a path under the lock's installed
//! `node_modules`, run from the tree; `main` is what `require` of the root loads.

use std::path::{Path, PathBuf};

use serde::Deserialize;
use sha2::{Digest, Sha256};

use crate::oracle::{Oracle, OracleOptions};
use crate::toolchain::{Outcome, Tool};
use crate::truth::{ColumnUnit, OracleStamp, Truth, TruthSite, TRUTH_SCHEMA};

/// The helper program, written into the scratch directory at run time.
pub const HELPER: &str = include_str!("../jstrace/jstrace.js");
/// The oracle's name in corpora.json.
pub const NAME: &str = "jstrace";
/// 2: the express and qs locks lost their `funding` metadata (sponsor URLs, no
/// host belongs in the repository); the packages they install are the same.
const ADAPTER_VERSION: &str = "2";

/// The helper's own pins (acorn).
const HELPER_LOCK: Lock = Lock {
    name: "helper",
    package_json: include_str!("../jstrace/package.json"),
    package_lock: include_str!("../jstrace/package-lock.json"),
};

/// The test dependencies of each corpus the oracle runs.
const CORPUS_LOCKS: &[Lock] = &[
    Lock {
        name: "express",
        package_json: include_str!("../jstrace/express/package.json"),
        package_lock: include_str!("../jstrace/express/package-lock.json"),
    },
    Lock {
        name: "qs",
        package_json: include_str!("../jstrace/qs/package.json"),
        package_lock: include_str!("../jstrace/qs/package-lock.json"),
    },
];

/// A committed npm manifest and its lock.
pub(crate) struct Lock {
    pub(crate) name: &'static str,
    pub(crate) package_json: &'static str,
    pub(crate) package_lock: &'static str,
}

/// The trace oracle.
#[derive(Debug, Clone, Copy, Default)]
pub struct Jstrace;

/// What corpora.json says about how to run the corpus's tests.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct TraceOptions {
    lock: String,
    runner: String,
    #[serde(default)]
    args: Vec<String>,
    /// What `require` of the tree's root loads (package.json `main`, which the
    /// analysed view does not hold), relative to the root.
    #[serde(default)]
    main: Option<String>,
}

/// What the helper writes.
#[derive(Debug, Deserialize)]
struct HelperOutput {
    node: String,
    sites: Vec<TruthSite>,
}

impl Oracle for Jstrace {
    fn name(&self) -> &'static str {
        NAME
    }

    fn version(&self) -> &'static str {
        ADAPTER_VERSION
    }

    fn toolchain_version(&self) -> Result<String, Outcome> {
        let node = Tool::locate("node")?.version(&["--version"])?;
        Ok(format!("node {node}, acorn {}", pinned_acorn()))
    }

    fn run(&self, corpus_dir: &Path, options: &OracleOptions<'_>) -> Result<Truth, Outcome> {
        let trace: TraceOptions = serde_json::from_value(options.options.clone())
            .map_err(|e| failed(format!("oracle.options: {e}")))?;
        let lock = CORPUS_LOCKS
            .iter()
            .find(|l| l.name == trace.lock)
            .ok_or_else(|| failed(format!("no committed lock named {}", trace.lock)))?;
        let node = Tool::locate("node")?;
        let helper_modules = ensure_installed(options, &HELPER_LOCK)?;
        let test_modules = ensure_installed(options, lock)?;
        let root = corpus_dir
            .canonicalize()
            .map_err(|e| failed(format!("cannot resolve the corpus: {e}")))?;
        let work = crate::toolchain::absolute_dir(NAME, options.work_dir)?;
        let helper = work.join("jstrace.js");
        std::fs::write(&helper, HELPER)
            .map_err(|e| failed(format!("cannot write the helper: {e}")))?;
        let out = work.join("trace.json");
        // Failing tests exit non-zero: what ran is still traced, so only a missing
        // trace is a failure.
        let mut command = node
            .command(&root)
            .env("NODE_PATH", &test_modules)
            .arg(&helper)
            .arg("--modules")
            .arg(&helper_modules)
            .arg("--root")
            .arg(&root)
            .arg("--out")
            .arg(&out);
        if let Some(main) = &trace.main {
            command = command.arg("--main").arg(main);
        }
        let finished = command
            .arg("--")
            .arg(test_modules.join(&trace.runner))
            .args(&trace.args)
            .timeout(options.timeout)
            .run_unchecked()?;
        let bytes = std::fs::read(&out).map_err(|e| failed(finished.wrote_no(&out, &e)))?;
        truth_from_helper(&bytes, options.corpus_id)
    }
}

/// The acorn version the helper's lock pins.
fn pinned_acorn() -> String {
    let lock: serde_json::Value =
        serde_json::from_str(HELPER_LOCK.package_lock).unwrap_or_default();
    lock["packages"]["node_modules/acorn"]["version"]
        .as_str()
        .unwrap_or("?")
        .to_string()
}

/// The `node_modules` of `lock`, installed by `npm ci` under the cache when absent
/// (keyed by the lock's digest; a half-done install is never reused).
pub(crate) fn ensure_installed(
    options: &OracleOptions<'_>,
    lock: &Lock,
) -> Result<PathBuf, Outcome> {
    let digest = Sha256::digest(format!("{}\n{}", lock.package_json, lock.package_lock));
    let hex: String = digest.iter().take(8).map(|b| format!("{b:02x}")).collect();
    let dir = crate::toolchain::absolute_dir(NAME, options.cache_dir)?
        .join("oracles")
        .join(NAME)
        .join(format!("{}-{hex}", lock.name));
    let complete = dir.join(".complete");
    if complete.is_file() {
        return Ok(dir.join("node_modules"));
    }
    if dir.exists() {
        std::fs::remove_dir_all(&dir).map_err(|e| failed(format!("cannot clear {e}")))?;
    }
    std::fs::create_dir_all(&dir).map_err(|e| failed(format!("cannot create {e}")))?;
    std::fs::write(dir.join("package.json"), lock.package_json)
        .and_then(|()| std::fs::write(dir.join("package-lock.json"), lock.package_lock))
        .map_err(|e| failed(format!("cannot write the lock: {e}")))?;
    Tool::locate("npm")?
        .command(&dir)
        .args([
            "ci",
            "--ignore-scripts",
            "--no-audit",
            "--no-fund",
            "--loglevel=error",
        ])
        .timeout(options.timeout)
        .run()?;
    std::fs::write(&complete, lock.name)
        .map_err(|e| failed(format!("cannot mark the install complete: {e}")))?;
    Ok(dir.join("node_modules"))
}

fn failed(detail: String) -> Outcome {
    Outcome::ToolFailed {
        tool: NAME.into(),
        detail,
    }
}

/// The truth of the helper's output.
pub fn truth_from_helper(bytes: &[u8], corpus: &str) -> Result<Truth, Outcome> {
    let output: HelperOutput = serde_json::from_slice(bytes).map_err(|e| {
        failed(format!(
            "unreadable trace: {}",
            crate::describe_json_error(&e)
        ))
    })?;
    let truth = Truth {
        schema: TRUTH_SCHEMA.into(),
        corpus: corpus.into(),
        oracle: OracleStamp {
            name: NAME.into(),
            version: format!("node {}, acorn {}", output.node, pinned_acorn()),
            adapter: ADAPTER_VERSION.into(),
            column: ColumnUnit::Name,
        },
        shape: None,
        sites: output.sites,
        references: None,
        pairs: vec![],
    };
    truth
        .validate("the trace")
        .map_err(|e| failed(e.to_string()))?;
    Ok(truth)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::truth::TruthTarget;

    /// Runs the helper with the machine's node on a small tree, with the pinned
    /// acorn installed under a scratch cache.
    fn trace(files: &[(&str, &str)], script: &str) -> Truth {
        let dir = tempfile::tempdir().unwrap();
        for (path, text) in files {
            let p = dir.path().join("tree").join(path);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, text).unwrap();
        }
        let cache = shared_test_cache();
        let work = dir.path().join("work");
        std::fs::create_dir_all(&work).unwrap();
        let options = OracleOptions {
            corpus_id: "t",
            language: "javascript",
            options: &serde_json::Value::Null,
            build: crate::DEFAULT_BUILD,
            work_dir: &work,
            cache_dir: &cache,
            timeout: std::time::Duration::from_secs(300),
        };
        let modules = ensure_installed(&options, &HELPER_LOCK).unwrap();
        let root = dir.path().join("tree").canonicalize().unwrap();
        let helper = work.join("jstrace.js");
        std::fs::write(&helper, HELPER).unwrap();
        let out = work.join("out.json");
        Tool::locate("node")
            .expect("node runs the trace oracle")
            .command(&root)
            .arg(&helper)
            .arg("--modules")
            .arg(&modules)
            .arg("--root")
            .arg(&root)
            .arg("--out")
            .arg(&out)
            .arg("--")
            .arg(root.join(script))
            .run()
            .unwrap();
        truth_from_helper(&std::fs::read(out).unwrap(), "t").unwrap()
    }

    /// The install of the helper's lock, kept across test runs under the target dir.
    fn shared_test_cache() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/jstrace-test-cache")
    }

    fn site<'a>(truth: &'a Truth, line: u32, name: &str) -> &'a TruthSite {
        truth
            .sites
            .iter()
            .find(|s| s.line == line && s.name == name)
            .unwrap_or_else(|| panic!("no site {name} on line {line}: {:#?}", truth.sites))
    }

    fn at(file: &str, line: u32) -> TruthTarget {
        TruthTarget::InTree {
            file: file.into(),
            line,
        }
    }

    /// The sha256 of the helper this adapter version was written for.
    const HELPER_SHA256: &str = "70ac3aead166d293c4c822d15cee9de96b8e80ba0eba2bf90682fab6cd1eaaf9";

    #[test]
    fn a_changed_helper_asks_for_a_new_adapter_version() {
        assert_eq!(
            crate::toolchain::sha256_hex(HELPER),
            HELPER_SHA256,
            "oracles/jstrace/jstrace.js changed: bump ADAPTER_VERSION (cached truths are keyed by it) and set HELPER_SHA256"
        );
    }

    #[test]
    fn sites_are_named_by_their_token_and_callees_by_their_name_line() {
        let main = "\
'use strict';
const lib = require('./lib');
function f(x) { return x; }
const a = { b: f, c: { d: function () { return 1; } } };
class T { constructor() { f(1); } m() { return 2; } }
class U extends T { constructor() { super(); } }
f(1);
  a.b(2); a.c.d();
a['b'](3);
new T().m();
new U();
f.call(null);
[1].forEach(f);
lib.hello('\u{e9}', lib.hello('x'));
const arrow = (y) => y * 2;
arrow(3);
";
        let lib = "\
exports.hello =
  function hello(s) {
    \"use strict\";
    return s;
  };
";
        let truth = trace(&[("main.js", main), ("lib.js", lib)], "main.js");
        assert_eq!(truth.oracle.column, ColumnUnit::Name);
        assert_eq!(site(&truth, 7, "f").targets, vec![at("main.js", 3)]);
        // Two calls on one line, after an insertion on it: each at its own token.
        assert_eq!(site(&truth, 8, "b").column, Some(5));
        assert_eq!(site(&truth, 8, "d").column, Some(15));
        assert_eq!(site(&truth, 8, "d").targets, vec![at("main.js", 4)]);
        assert_eq!(site(&truth, 9, "b").column, Some(3));
        // `new T()` is judged at `T`; the constructor and the class are on line 5.
        assert_eq!(site(&truth, 10, "T").column, Some(5));
        assert_eq!(site(&truth, 10, "T").targets, vec![at("main.js", 5)]);
        assert_eq!(site(&truth, 6, "super").targets, vec![at("main.js", 5)]);
        // The caller of the call in T's constructor is the constructor.
        assert_eq!(
            site(&truth, 5, "f").caller.as_ref().map(|c| c.line),
            Some(5)
        );
        assert_eq!(
            site(&truth, 12, "call").implicit.as_deref(),
            Some("via_call_apply")
        );
        // forEach calls f back from a builtin frame: not a site of line 13.
        assert!(truth.sites.iter().all(|s| s.line != 13));
        // The assigned property's line names the function (line 1), and its own name
        // (line 2) is acceptable too; the column is in UTF-8 bytes after the é.
        let outer = site(&truth, 14, "hello");
        assert_eq!(outer.targets, vec![at("lib.js", 1), at("lib.js", 2)]);
        assert!(truth
            .sites
            .iter()
            .any(|s| s.line == 14 && s.name == "hello" && s.column == Some(21)));
        assert_eq!(site(&truth, 16, "arrow").targets, vec![at("main.js", 15)]);
    }
}
