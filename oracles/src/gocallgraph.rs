//! go/types' second reading (`harness crosscheck`, oracle `go-callgraph`): the call
//! graph `golang.org/x/tools/cmd/callgraph -algo=static -test` builds from the SSA
//! form of the same packages, with the x/tools of the Go oracle's pinned helper
//! module (`oracles/go/go.mod`), built at run time under the cache.
//!
//! An SSA call graph is a reading independent of go/types' binding of the call
//! expression: it resolves each SSA call instruction's static callee after lowering
//! (method sets, embedding, generic instantiation). `-algo=static` gives only calls
//! whose callee is static — function and concrete method calls, not interface or
//! func-value calls — so the comparison covers those sites.
//!
//! Normalisation to the truth format:
//! - the command gives each call's `(` position; the site's column is the callee's
//!   name, `len(name)` bytes before it, when the source writes the name there (`f(`,
//!   `x.M(`); otherwise (`F[int](`, `(f)(`) the site has no column and is paired on
//!   its line;
//! - a callee declared under the root is in the tree at its name line; any other is
//!   `outside` with the SSA name (`strings.Index`, `(*pkg.T).M`);
//! - calls of function literals (SSA names `f$1`) are not sites: the source writes no
//!   name there, and go/types leaves such calls unjudged;
//! - one site seen in several instantiations or package variants (a package and its
//!   test variant) is one site with the union of its callees.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::gotypes::{
    build_go_program, go_env, go_version_word, run_goflags, GoProgram, HELPER_GO_MOD, HELPER_GO_SUM,
};
use crate::oracle::{Oracle, OracleOptions};
use crate::toolchain::{Outcome, Tool};
use crate::truth::{OracleStamp, Truth, TruthSite, TruthTarget, TRUTH_SCHEMA};

/// Bumped whenever what the adapter emits changes (truths are cached by it).
pub const ADAPTER_VERSION: &str = "1";

const NAME: &str = "go-callgraph";

/// The command's package in the pinned x/tools module.
const COMMAND: &str = "golang.org/x/tools/cmd/callgraph";

/// One tab-separated line per edge: site file, line, `(` column, callee file, callee
/// line, callee name, callee.
const FORMAT: &str = "{{.Filename}}\t{{.Line}}\t{{.Column}}\t{{(posn .Callee).Filename}}\t{{(posn .Callee).Line}}\t{{.Callee.Name}}\t{{.Callee}}";

/// The SSA call graph of `cmd/callgraph -algo=static`.
#[derive(Debug, Clone, Copy, Default)]
pub struct GoCallgraph;

impl Oracle for GoCallgraph {
    fn name(&self) -> &'static str {
        NAME
    }

    fn version(&self) -> &'static str {
        ADAPTER_VERSION
    }

    fn toolchain_version(&self) -> Result<String, Outcome> {
        Tool::locate("go")?.version(&["version"])
    }

    fn run(&self, corpus_dir: &Path, options: &OracleOptions<'_>) -> Result<Truth, Outcome> {
        let go = Tool::locate("go")?;
        let version = self.toolchain_version()?;
        let root = corpus_dir
            .canonicalize()
            .map_err(|e| failed(format!("cannot read the root: {e}")))?;
        // The Go oracle's cache: the same module cache, so the same dependencies.
        let cache = crate::toolchain::absolute_dir(
            NAME,
            &options.cache_dir.join("oracles").join("gotypes"),
        )?;
        let command = build_command(&go, &version, &cache, options.timeout)?;
        let finished = go_env(
            Tool::at(NAME, &command)?
                .command(&root)
                .args(["-algo=static", "-test"])
                .arg(format!("-format={FORMAT}"))
                .arg("./...")
                .timeout(options.timeout),
            &cache,
        )
        .env("GOFLAGS", run_goflags(options.build)?)
        .run()?;
        let sites = sites_of(&finished.stdout, &root, &|file| {
            std::fs::read_to_string(root.join(file)).ok()
        });
        if sites.is_empty() {
            return Err(failed("the call graph has no edge in the tree".into()));
        }
        Ok(Truth {
            schema: TRUTH_SCHEMA.into(),
            corpus: options.corpus_id.to_string(),
            oracle: OracleStamp::at_name(NAME, go_version_word(&version), ADAPTER_VERSION),
            shape: None,
            sites,
            references: None,
            pairs: vec![],
        })
    }
}

/// Builds the command once per (pinned module, toolchain) under the cache.
fn build_command(
    go: &Tool,
    version: &str,
    cache: &Path,
    bound: Duration,
) -> Result<PathBuf, Outcome> {
    build_go_program(
        &GoProgram {
            dir_prefix: "callgraph",
            binary: "callgraph",
            package: COMMAND,
            files: &[("go.mod", HELPER_GO_MOD), ("go.sum", HELPER_GO_SUM)],
            key: &[COMMAND, HELPER_GO_MOD, HELPER_GO_SUM, version],
            what: "command",
            failed,
        },
        go,
        cache,
        bound,
    )
}

/// One edge of the command's output.
struct Edge<'a> {
    file: &'a str,
    line: u32,
    paren: u32,
    callee_file: &'a str,
    callee_line: u32,
    callee_name: &'a str,
    callee: &'a str,
}

fn edge_of(line: &str) -> Option<Edge<'_>> {
    let mut f = line.split('\t');
    let edge = Edge {
        file: f.next()?,
        line: f.next()?.parse().ok()?,
        paren: f.next()?.parse().ok()?,
        callee_file: f.next()?,
        callee_line: f.next()?.parse().unwrap_or(0),
        callee_name: f.next()?,
        callee: f.next()?,
    };
    f.next().is_none().then_some(edge)
}

/// `path` relative to the root, when it lies under it.
fn under_root<'a>(path: &'a str, root: &Path) -> Option<&'a str> {
    Path::new(path).strip_prefix(root).ok()?.to_str()
}

/// The name the source writes for a callee: `F` of an instantiation `F[int]`.
fn written_name(callee_name: &str) -> &str {
    callee_name.split('[').next().unwrap_or(callee_name)
}

/// The name's column: `len(name)` bytes before the `(`, when the source writes the
/// name there.
fn name_column(text: Option<&str>, line: u32, paren: u32, name: &str) -> Option<u32> {
    let source = text?.lines().nth(line.checked_sub(1)? as usize)?;
    let end = (paren as usize).checked_sub(1)?;
    let start = end.checked_sub(name.len())?;
    (source.get(start..end)? == name).then_some(start as u32 + 1)
}

/// The sites of the command's output: edges in the tree, one site per position
/// with the union of its callees, sorted.
pub(crate) fn sites_of(
    output: &str,
    root: &Path,
    read: &dyn Fn(&str) -> Option<String>,
) -> Vec<TruthSite> {
    let mut texts: BTreeMap<String, Option<String>> = BTreeMap::new();
    let mut sites: BTreeMap<(String, u32, Option<u32>, String), Vec<TruthTarget>> = BTreeMap::new();
    for edge in output.lines().filter_map(edge_of) {
        let Some(file) = under_root(edge.file, root) else {
            continue;
        };
        if edge.callee_name.contains('$') {
            continue;
        }
        let name = written_name(edge.callee_name);
        let text = texts
            .entry(file.to_string())
            .or_insert_with(|| read(file))
            .as_deref();
        let column = name_column(text, edge.line, edge.paren, name);
        let target = match under_root(edge.callee_file, root) {
            Some(callee_file) if edge.callee_line > 0 => TruthTarget::InTree {
                file: callee_file.to_string(),
                line: edge.callee_line,
            },
            _ => TruthTarget::Outside {
                symbol: edge.callee.to_string(),
            },
        };
        let targets = sites
            .entry((file.to_string(), edge.line, column, name.to_string()))
            .or_default();
        if !targets.contains(&target) {
            targets.push(target);
        }
    }
    sites
        .into_iter()
        .map(|((file, line, column, name), targets)| TruthSite {
            file,
            line,
            column,
            caller: None,
            name,
            targets,
            unjudged: None,
            implicit: None,
            expect: None,
            primary: false,
        })
        .collect()
}

fn failed(detail: String) -> Outcome {
    Outcome::tool_failed(NAME, detail)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edges_become_sites_at_the_callee_name() {
        let root = Path::new("/r");
        let output = "/r/a.go\t3\t20\t/go/src/strings/strings.go\t1265\tIndex\tstrings.Index\n\
/r/a.go\t4\t8\t/r/b.go\t9\tName\t(*m.C).Name\n\
/r/a.go\t4\t8\t/r/b.go\t9\tName\t(*m.C).Name\n\
/r/a.go\t5\t10\t/r/b.go\t20\tMap[int]\tm.Map[int]\n\
/r/a.go\t5\t10\t/r/b.go\t20\tMap[string]\tm.Map[string]\n\
/r/a.go\t6\t9\t/r/a.go\t6\tf$1\tm.f$1\n\
/dep/x.go\t1\t1\t/r/b.go\t9\tName\t(*m.C).Name\n";
        let text =
            "l1\nl2\n\ti := strings.Index(s)\n\tc.Name()\n\tMap[int](x)\n\tdefer func(){}()\n";
        let read = |file: &str| (file == "a.go").then(|| text.to_string());
        let sites = sites_of(output, root, &read);
        let shown: Vec<(u32, Option<u32>, &str, usize)> = sites
            .iter()
            .map(|s| (s.line, s.column, s.name.as_str(), s.targets.len()))
            .collect();
        assert_eq!(
            shown,
            [
                (3, Some(15), "Index", 1),
                (4, Some(4), "Name", 1),
                (5, None, "Map", 1),
            ],
            "{sites:?}"
        );
        assert_eq!(
            sites[0].targets,
            [TruthTarget::Outside {
                symbol: "strings.Index".into()
            }]
        );
        assert_eq!(
            sites[1].targets,
            [TruthTarget::InTree {
                file: "b.go".into(),
                line: 9
            }]
        );
    }
}
