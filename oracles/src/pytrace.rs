//! The Python runtime trace oracle (`pytrace`): the corpus's own test suite runs
//! under a tracer (oracles/python/pytrace.py, `sys.setprofile`) that records, for
//! every call executed at a site of the corpus, the site and every callee it reached.
//!
//! - Test dependencies come from PyPI, pinned in corpora.json
//!   (`oracle.options.test_requirements`), into a venv under the cache.
//! - A site's column is the start of the call expression (`expression_start`), so the
//!   scorer pairs by name and uses the column only to order a line's calls.
//! - A callee's line is its def's NAME line: `co_firstlineno` of a decorated function
//!   is its first decorator's line, and the helper reads the source with `ast` to move
//!   it to the name.
//! - Calls the source does not write (import machinery, `__build_class__`, class and
//!   comprehension bodies, functions called back by builtins or run by a call of a
//!   builtin type such as `list(gen)`, property getters, operator dunders) are
//!   `implicit`, counted and never scored.
//! - The trace sees only what ran: sites the tests never reach are not in the truth
//!   (their engine answers are unjudged), and a run that fails some tests still
//!   traces what ran.
//!
//! Options (`oracle.options` in corpora.json):
//! `{"test_requirements": ["pytest==8.3.4", ...], "python_path": ["src"],
//!   "command": ["-m", "pytest", "-q", "tests"]}`.

use std::path::Path;

use serde::Deserialize;

use crate::oracle::{Oracle, OracleOptions};
use crate::pyenv::{base_python, ensure_venv, VenvSpec};
use crate::toolchain::Outcome;
use crate::truth::{ColumnUnit, OracleStamp, Truth, TruthSite, TRUTH_SCHEMA};

/// The helper program, written into the scratch directory at run time.
pub const HELPER: &str = include_str!("../python/pytrace.py");
/// The oracle's name in corpora.json.
pub const NAME: &str = "pytrace";

/// The adapter's version, the truth's stamp and the cache's key.
// 2: what a call of a builtin type (`list(gen)`, `deque(it)`) runs of the
// tree is set apart as `via_builtin`, like a builtin function's callbacks.
// 3: so is a function other than `__iter__`/`__next__` that a `for` loop's
// builtin iterator runs (`for c in iter(partial(take, n), [])`).
// 4: a decorator written as a call (`@factory(x)`) is two sites, the
// factory's call and the application of its result, named `()` (D48).
// The helper's text is pinned per version by tests/helper_digests.rs.
pub const ADAPTER_VERSION: &str = "4";

/// The trace oracle.
#[derive(Debug, Clone, Copy, Default)]
pub struct Pytrace;

/// What corpora.json says about how to run the corpus's tests.
#[derive(Debug, Clone, Default, Deserialize)]
struct TraceOptions {
    #[serde(default)]
    test_requirements: Vec<String>,
    #[serde(default)]
    python_path: Vec<String>,
    #[serde(default)]
    command: Vec<String>,
}

/// What the helper writes.
#[derive(Debug, Deserialize)]
struct HelperOutput {
    python: String,
    sites: Vec<TruthSite>,
}

impl Oracle for Pytrace {
    fn name(&self) -> &'static str {
        NAME
    }

    fn version(&self) -> &'static str {
        ADAPTER_VERSION
    }

    fn toolchain_version(&self) -> Result<String, Outcome> {
        Ok(base_python()?.1)
    }

    fn run(&self, corpus_dir: &Path, options: &OracleOptions<'_>) -> Result<Truth, Outcome> {
        let failed = |detail: String| Outcome::ToolFailed {
            tool: NAME.into(),
            detail,
        };
        let trace: TraceOptions = serde_json::from_value(options.options.clone())
            .map_err(|e| failed(format!("oracle.options: {e}")))?;
        if trace.command.is_empty() {
            return Err(failed(
                "oracle.options.command names no test command".into(),
            ));
        }
        let spec = VenvSpec {
            name: format!("{}-tests", options.corpus_id),
            packages: trace.test_requirements.clone(),
            pip_flags: vec!["--no-deps".into()],
        };
        let venv = ensure_venv(options.cache_dir, &spec, options.timeout)?;
        let corpus_dir = corpus_dir
            .canonicalize()
            .map_err(|e| failed(format!("cannot resolve the corpus: {e}")))?;
        let helper = options.work_dir.join("pytrace.py");
        std::fs::write(&helper, HELPER)
            .map_err(|e| failed(format!("cannot write the helper: {e}")))?;
        let out = options.work_dir.join("trace.json");
        let mut command = venv
            .python
            .command(&corpus_dir)
            .arg(&helper)
            .arg("--root")
            .arg(&corpus_dir)
            .arg("--out")
            .arg(&out);
        for dir in &trace.python_path {
            command = command.arg("--path").arg(corpus_dir.join(dir));
        }
        command
            .arg("--")
            .args(&trace.command)
            .timeout(options.timeout)
            .run()
            .map_err(|outcome| match outcome {
                Outcome::ToolFailed { detail, .. } => failed(detail),
                other => other,
            })?;
        let bytes = std::fs::read(&out).map_err(|e| failed(format!("wrote no trace: {e}")))?;
        truth_from_helper(&bytes, options.corpus_id, &venv.python_version)
    }
}

/// The truth of the helper's output.
pub fn truth_from_helper(bytes: &[u8], corpus: &str, python: &str) -> Result<Truth, Outcome> {
    let failed = |detail: String| Outcome::ToolFailed {
        tool: NAME.into(),
        detail,
    };
    let output: HelperOutput = serde_json::from_slice(bytes).map_err(|e| {
        failed(format!(
            "unreadable trace: {}",
            crate::describe_json_error(&e)
        ))
    })?;
    let version = if python.is_empty() {
        format!("Python {}", output.python)
    } else {
        python.to_string()
    };
    let truth = Truth {
        schema: TRUTH_SCHEMA.into(),
        corpus: corpus.into(),
        oracle: OracleStamp {
            name: NAME.into(),
            version,
            // The version the cache compares (it was "1" whatever the version,
            // so a cached trace was never reused).
            adapter: ADAPTER_VERSION.into(),
            column: ColumnUnit::ExpressionStart,
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
    use crate::toolchain::Tool;
    use crate::truth::TruthTarget;

    /// Runs the helper with the machine's python3 on a small tree.
    fn trace(files: &[(&str, &str)], script: &str) -> Truth {
        let dir = tempfile::tempdir().unwrap();
        for (path, text) in files {
            let p = dir.path().join(path);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, text).unwrap();
        }
        let helper = dir.path().join("pytrace.py");
        std::fs::write(&helper, HELPER).unwrap();
        let out = dir.path().join("out.json");
        let root = dir.path().join("tree").canonicalize().unwrap();
        Tool::locate("python3")
            .expect("python3 runs the trace oracle")
            .command(&root)
            .arg(&helper)
            .arg("--root")
            .arg(&root)
            .arg("--out")
            .arg(&out)
            .arg("--")
            .arg(root.join(script))
            .run()
            .unwrap();
        truth_from_helper(&std::fs::read(out).unwrap(), "t", "").unwrap()
    }

    fn site<'a>(truth: &'a Truth, line: u32, name: &str) -> &'a TruthSite {
        truth
            .sites
            .iter()
            .find(|s| s.line == line && s.name == name)
            .unwrap_or_else(|| panic!("no site {name} on line {line}: {:#?}", truth.sites))
    }

    #[test]
    fn a_decorated_callee_is_named_by_its_def_line_not_its_decorator() {
        let main = "\
def deco(f):
    return f

@deco
@deco
def helper(x):
    return x

class C:
    @staticmethod
    def m():
        return helper(1)

helper(2)
C.m()
";
        let truth = trace(&[("tree/main.py", main)], "main.py");
        assert_eq!(truth.oracle.column, ColumnUnit::ExpressionStart);
        let call = site(&truth, 14, "helper");
        assert_eq!(
            call.targets,
            vec![TruthTarget::InTree {
                file: "main.py".into(),
                line: 6
            }]
        );
        // The caller of the call inside the static method is the method's name line.
        let inner = site(&truth, 12, "helper");
        assert_eq!(inner.caller.as_ref().map(|c| c.line), Some(11));
        assert_eq!(site(&truth, 15, "m").targets.len(), 1);
        // Applying a decorator is a call written at the decorator.
        assert_eq!(site(&truth, 4, "deco").column, Some(2));
        // The class body ran from the module: implicit, not a site to judge.
        assert!(truth
            .sites
            .iter()
            .any(|s| s.line == 9 && s.implicit.as_deref() == Some("class_body")));
    }

    #[test]
    fn a_decorator_factory_call_and_the_application_of_its_result_are_two_sites() {
        let main = "\
def factory(x):
    def decorator(f):
        return f
    return decorator

@factory(1)
def g():
    pass

g()
";
        let truth = trace(&[("tree/main.py", main)], "main.py");
        assert_eq!(
            truth.oracle.adapter, ADAPTER_VERSION,
            "the stamp the cache compares"
        );
        let at = |line| TruthTarget::InTree {
            file: "main.py".into(),
            line,
        };
        // The factory's call reaches the factory only; the application, named as
        // the engine names it, reaches what the factory returned.
        let made = site(&truth, 6, "factory");
        assert_eq!(made.targets, vec![at(1)]);
        let applied = site(&truth, 6, "()");
        assert_eq!(applied.targets, vec![at(2)]);
        assert_eq!((made.column, applied.column), (Some(2), Some(2)));
    }

    #[test]
    fn a_construction_accepts_the_class_called_and_the_init_it_ran() {
        let lib = "\
class Base:
    def __init__(self):
        pass

class Kid(Base):
    pass
";
        let main = "\
from lib import Kid, Base
Kid()
Base()
";
        let truth = trace(&[("tree/lib.py", lib), ("tree/main.py", main)], "main.py");
        let kid = |line: u32| TruthTarget::InTree {
            file: "lib.py".into(),
            line,
        };
        // Kid inherits Base.__init__: the class called (line 5) and the __init__
        // that ran (line 2) are both acceptable.
        assert_eq!(site(&truth, 2, "Kid").targets, vec![kid(2), kid(5)]);
        assert_eq!(site(&truth, 3, "Base").targets, vec![kid(1), kid(2)]);
    }

    #[test]
    fn a_site_keeps_every_callee_it_reached_and_builtins_are_outside() {
        let main = "\
def a(x):
    return x

def b(x):
    return x

def apply(f, v):
    return f(v)

apply(a, 1)
apply(b, 2)
print(len([1]))
";
        let truth = trace(&[("tree/main.py", main)], "main.py");
        let call = site(&truth, 8, "f");
        assert_eq!(call.targets.len(), 2, "{call:?}");
        assert_eq!(site(&truth, 12, "len").targets.len(), 1);
        assert!(site(&truth, 12, "print").has_outside_target());
        assert_eq!(site(&truth, 12, "print").column, Some(1));
        assert_eq!(site(&truth, 12, "len").column, Some(7));
    }
}
