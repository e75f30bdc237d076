//! The mcs adapter on a small C# tree written into a temporary directory: what mcs
//! binds, where the truth says each site is, and which sites it sets apart. Needs
//! Debian's `mono-devel` (`.ci/setup` installs it); without mcs the outcome is
//! `tool_missing`, which is asserted instead.

use std::path::Path;
use std::time::Duration;

use oracles::toolchain::Tool;
use oracles::{oracle_named, OracleOptions, Truth, TruthSite, TruthTarget};

// Line numbers matter below: they are asserted.
const LIB: &str = r#"namespace Lib
{
    public class Animal
    {
        public virtual string Speak() { return "..."; }
        public int Legs { get; set; }
        public Animal() { }
    }

    public class Dog : Animal
    {
        public override string Speak() { return "woof " + base.Speak(); }
    }

    public class Puppy : Dog
    {
        public override string Speak() { return "yip"; }
    }

    public static class Extensions
    {
        public static int Twice(this int x) { return x * 2; }
    }

    public partial class Part
    {
        partial void Hook();
        public void Run() { Hook(); }
    }

    public partial class Part
    {
        partial void Hook() { }
    }
}
"#;

const APP: &str = r#"using System;
using System.Collections.Generic;
using System.Linq;
using Lib;

namespace App
{
    class Program
    {
        static List<Dog> dogs = new List<Dog> { new Dog() };

        static IEnumerable<int> Numbers()
        {
            yield return 3.Twice();
        }

        static int Apply(Func<int, int> f, int x)
        {
            return f(x);
        }

        static void Main()
        {
            Dog d = new Dog();
            d.Legs = 4;
            Console.WriteLine(d.Speak());
#if EXTRA
            Extra();
#endif
            var total = Apply(x => x.Twice(), 1);
            foreach (var n in Numbers()) Console.WriteLine(n + total);
            new Part().Run();
		Animal a = d; a.Speak();
        }

        static void Extra() { }

        [Obsolete("x")]
        static async System.Threading.Tasks.Task<int> Later(Dog d)
        {
            await System.Threading.Tasks.Task.Delay(1);
            return d.Speak().Length;
        }
    }
}
"#;

fn site<'a>(truth: &'a Truth, file: &str, line: u32, name: &str) -> &'a TruthSite {
    let found: Vec<&TruthSite> = truth
        .sites
        .iter()
        .filter(|s| s.file == file && s.line == line && s.name == name)
        .collect();
    assert_eq!(
        found.len(),
        1,
        "one `{name}` site on {file}:{line}: {found:?}"
    );
    found[0]
}

fn in_tree(file: &str, line: u32) -> TruthTarget {
    TruthTarget::InTree {
        file: file.into(),
        line,
    }
}

fn run_mcs(
    root: &Path,
    cache: &Path,
    build: &serde_json::Value,
) -> Result<Truth, oracles::Outcome> {
    let oracle = oracle_named("mcs").expect("the mcs oracle is registered");
    let work = tempfile::tempdir().unwrap();
    let options = serde_json::json!({"framework": "4.5", "units": [
        {"name": "Lib", "sources": ["lib"]},
        {"name": "App", "target": "exe", "sources": ["app"], "units": ["Lib"],
         "references": ["System.Core"]}]});
    let options = OracleOptions {
        corpus_id: "tiny",
        language: "csharp",
        options: &options,
        build,
        work_dir: work.path(),
        cache_dir: cache,
        timeout: Duration::from_secs(300),
    };
    oracle.run(root, &options)
}

fn tree() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("tree");
    std::fs::create_dir_all(root.join("lib")).unwrap();
    std::fs::create_dir_all(root.join("app")).unwrap();
    std::fs::write(root.join("lib/Lib.cs"), LIB).unwrap();
    std::fs::write(root.join("app/Program.cs"), APP).unwrap();
    dir
}

/// The truth, or `None` after checking that a machine without mcs says so.
fn truth_or_missing(build: &serde_json::Value) -> Option<(tempfile::TempDir, Truth)> {
    let dir = tree();
    let root = dir.path().join("tree");
    let result = run_mcs(&root, &dir.path().join("cache"), build);
    if Tool::locate("mcs").is_err() {
        // FIXME(setup): without mono-devel the oracle can only say so.
        assert_eq!(result.unwrap_err().token(), "tool_missing");
        return None;
    }
    Some((dir, result.expect("mcs answers")))
}

const APP_CS: &str = "app/Program.cs";
const LIB_CS: &str = "lib/Lib.cs";

#[test]
fn mcs_binds_every_call_the_tree_writes() {
    let Some((_dir, truth)) = truth_or_missing(oracles::DEFAULT_BUILD) else {
        return;
    };
    let oracle = oracle_named("mcs").unwrap();
    assert_eq!(truth.schema, "callgraph-truth/1");
    assert_eq!(truth.oracle.name, "mcs");
    assert_eq!(truth.oracle.adapter, oracle.version());
    assert_eq!(truth.oracle.column, oracles::ColumnUnit::Name);
    assert_eq!(truth.oracle.version, oracle.toolchain_version().unwrap());

    // A construction is named by its type, at the type; a class without a written
    // constructor is reached at its name line.
    let dog = site(&truth, APP_CS, 24, "Dog");
    assert_eq!(dog.column, Some(25));
    assert_eq!(dog.targets, vec![in_tree(LIB_CS, 10)]);
    assert_eq!(dog.caller.as_ref().unwrap().line, 22);
    // A partial class's parts are both its declaration.
    assert_eq!(
        site(&truth, APP_CS, 32, "Part").targets,
        vec![in_tree(LIB_CS, 25), in_tree(LIB_CS, 31)]
    );

    // The virtual-call rule (D41): the IL names the slot's original declaration
    // (Animal.Speak); every in-tree override of that slot is acceptable too.
    let speak = vec![in_tree(LIB_CS, 5), in_tree(LIB_CS, 12), in_tree(LIB_CS, 17)];
    assert_eq!(site(&truth, APP_CS, 26, "Speak").targets, speak);
    // A tab is one compiler column and one byte.
    let tabbed = site(&truth, APP_CS, 33, "Speak");
    assert_eq!((tabbed.column, &tabbed.targets), (Some(19), &speak));
    // `base.Speak()` is a non-virtual call of the base's declaration only.
    let base = site(&truth, LIB_CS, 12, "Speak");
    assert_eq!(base.column, Some(64));
    assert_eq!(base.targets, vec![in_tree(LIB_CS, 5)]);

    // An extension method called as an instance method, in an iterator and in a
    // lambda: placed at its name, the caller the iterator method and the lambda.
    let in_iterator = site(&truth, APP_CS, 14, "Twice");
    assert_eq!(in_iterator.targets, vec![in_tree(LIB_CS, 22)]);
    assert_eq!(in_iterator.caller.as_ref().unwrap().line, 12);
    let in_lambda = site(&truth, APP_CS, 30, "Twice");
    assert_eq!(in_lambda.column, Some(38));
    assert_eq!(in_lambda.targets, vec![in_tree(LIB_CS, 22)]);
    assert_eq!(in_lambda.caller.as_ref().unwrap().line, 30);
    // An async method's calls: the state machine's caller is the method.
    let awaited = site(&truth, APP_CS, 41, "Delay");
    assert_eq!(awaited.column, Some(47));
    assert!(awaited.is_judged());
    assert_eq!(
        site(&truth, APP_CS, 42, "Speak")
            .caller
            .as_ref()
            .unwrap()
            .line,
        39
    );
    assert_eq!(
        site(&truth, APP_CS, 41, "GetAwaiter").implicit.as_deref(),
        Some("await")
    );

    // Partial methods: both declarations.
    assert_eq!(
        site(&truth, LIB_CS, 28, "Hook").targets,
        vec![in_tree(LIB_CS, 27), in_tree(LIB_CS, 33)]
    );
    // Outside the tree: the framework's member.
    assert_eq!(
        site(&truth, APP_CS, 26, "WriteLine").targets,
        vec![TruthTarget::Outside {
            symbol: "System.Console.WriteLine".into()
        }]
    );

    // What no source text writes is set apart by class; a delegate call is unjudged.
    let class = |line, name| site(&truth, APP_CS, line, name).implicit.clone();
    assert_eq!(class(25, "Legs").as_deref(), Some("property_accessor"));
    assert_eq!(
        class(31, "GetEnumerator").as_deref(),
        Some("foreach_or_using")
    );
    assert_eq!(class(30, "Func").as_deref(), Some("delegate_ctor"));
    assert_eq!(class(10, "Add").as_deref(), Some("collection_initializer"));
    assert_eq!(class(38, "Obsolete").as_deref(), Some("attribute"));
    assert_eq!(
        site(&truth, APP_CS, 19, "f").unjudged.as_deref(),
        Some("delegate_invoke")
    );
    // A field initialiser's constructions, in order, at their types.
    assert_eq!(site(&truth, APP_CS, 10, "List").column, Some(37));
    assert_eq!(
        site(&truth, APP_CS, 10, "Dog").targets,
        vec![in_tree(LIB_CS, 10)]
    );
    // A lambda's body is a method the compiler made: its reference is set apart.
    let refs = truth.references.as_ref().unwrap();
    assert!(refs.iter().all(|r| r.implicit.as_deref() == Some("lambda")));
    // Code the build leaves out has no site.
    assert!(!truth.sites.iter().any(|s| s.name == "Extra"));
    assert!(truth.validate("test").is_ok());
}

#[test]
fn the_builds_defines_are_the_compilers() {
    let build = serde_json::json!({"defines": ["EXTRA"]});
    let Some((_dir, truth)) = truth_or_missing(&build) else {
        return;
    };
    let extra = site(&truth, APP_CS, 28, "Extra");
    assert_eq!(extra.targets, vec![in_tree(APP_CS, 36)]);
}
