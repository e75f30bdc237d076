//! The javac adapter on a small Java tree written into a temporary directory: what
//! javac binds, where the truth says each site is, and which sites it sets apart.
//! Needs a JDK (`make setup` installs one); no classpath, so no Maven.

use std::path::Path;
use std::time::Duration;

use oracles::{oracle_named, OracleOptions, Truth, TruthSite, TruthTarget};

const LIB: &str = r#"package p;

import java.util.ArrayList;
import java.util.List;

public class Lib {
    public void log(String s) { }

    public void log(int i) { }

    public List<String> names() {
        List<String> xs = new ArrayList<>();
        xs.add("a");
        return xs;
    }
}
"#;

// Line numbers matter below: they are asserted.
const APP: &str = r#"package p;

class Plain {
    void go() { }
}

class Base {
    Base(int x) { }
}

enum Mode {
    FAST, SLOW;
}

public class App extends Base {
    App() {
        super(1);
    }

    App(int n) {
        this();
    }

    static class Child extends Plain {
        Child() {
            go();
        }
    }

    void run(Lib lib) {
        lib.log("x");
        lib.log(2);
        new Plain().go();
        /* é */ lib.names();
        Runnable r = () -> lib.log(3);
        lib.log(missing);
        Base b = new Base(4) { };
        java.util.function.Supplier<Plain> s = Plain::new;
        Mode m = Mode.valueOf("FAST");
    }
}
"#;

fn site<'a>(truth: &'a Truth, line: u32, name: &str) -> &'a TruthSite {
    let found: Vec<&TruthSite> = truth
        .sites
        .iter()
        .filter(|s| s.file == "src/p/App.java" && s.line == line && s.name == name)
        .collect();
    assert_eq!(
        found.len(),
        1,
        "one `{name}` site on App.java:{line}: {found:?}"
    );
    found[0]
}

fn in_tree(file: &str, line: u32) -> TruthTarget {
    TruthTarget::InTree {
        file: file.into(),
        line,
    }
}

fn run_javac(root: &Path, cache: &Path) -> Truth {
    let oracle = oracle_named("javac").expect("the javac oracle is registered");
    let work = tempfile::tempdir().unwrap();
    let options = serde_json::json!({"release": "11"});
    let options = OracleOptions {
        corpus_id: "tiny",
        language: "java",
        options: &options,
        build: oracles::DEFAULT_BUILD,
        work_dir: work.path(),
        cache_dir: cache,
        timeout: Duration::from_secs(300),
    };
    oracle.run(root, &options).expect("javac answers")
}

#[test]
fn javac_binds_every_call_the_tree_writes() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("tree");
    std::fs::create_dir_all(root.join("src/p")).unwrap();
    std::fs::write(root.join("src/p/Lib.java"), LIB).unwrap();
    std::fs::write(root.join("src/p/App.java"), APP).unwrap();
    let cache = dir.path().join("cache");
    let truth = run_javac(&root, &cache);

    let oracle = oracle_named("javac").unwrap();
    assert_eq!(truth.schema, "callgraph-truth/1");
    assert_eq!(truth.corpus, "tiny");
    assert_eq!(truth.oracle.name, "javac");
    assert_eq!(truth.oracle.adapter, oracle.version());
    assert_eq!(truth.oracle.column, oracles::ColumnUnit::Name);
    let toolchain = oracle.toolchain_version().unwrap();
    assert!(toolchain.starts_with("javac "), "{toolchain}");
    assert_eq!(format!("javac {}", truth.oracle.version), toolchain);

    // Overloads: each call names the declaration its argument selects.
    let log_string = site(&truth, 31, "log");
    assert_eq!(log_string.column, Some(13));
    assert_eq!(log_string.targets, vec![in_tree("src/p/Lib.java", 7)]);
    assert_eq!(log_string.caller.as_ref().unwrap().line, 30);
    assert!(log_string.is_judged());
    assert_eq!(
        site(&truth, 32, "log").targets,
        vec![in_tree("src/p/Lib.java", 9)]
    );

    // A class that declares no constructor: the construction reaches the class's name line.
    let plain = site(&truth, 33, "Plain");
    assert_eq!(plain.column, Some(13));
    assert_eq!(plain.targets, vec![in_tree("src/p/App.java", 3)]);
    assert_eq!(
        site(&truth, 33, "go").targets,
        vec![in_tree("src/p/App.java", 4)]
    );

    // Columns are UTF-8 byte columns of the name (`é` is two bytes).
    assert_eq!(site(&truth, 34, "names").column, Some(22));

    // A call into java.util is outside, with its class.
    let add: Vec<&TruthSite> = truth
        .sites
        .iter()
        .filter(|s| s.file == "src/p/Lib.java" && s.name == "add")
        .collect();
    assert_eq!(add.len(), 1);
    assert_eq!(
        add[0].targets,
        vec![TruthTarget::Outside {
            symbol: "java.util.List.add".into()
        }]
    );
    let array_list = truth
        .sites
        .iter()
        .find(|s| s.name == "ArrayList")
        .expect("new ArrayList<>() is a site named by its type");
    assert!(array_list.has_outside_target() && array_list.is_judged());

    // Explicit constructor calls are named `this` / `super`, at the keyword.
    let sup = site(&truth, 17, "super");
    assert_eq!(sup.column, Some(9));
    assert_eq!(sup.targets, vec![in_tree("src/p/App.java", 8)]);
    assert!(sup.is_judged());
    assert_eq!(
        site(&truth, 21, "this").targets,
        vec![in_tree("src/p/App.java", 16)]
    );

    // The super() javac inserts into Child() is implicit, not judged; so is the one
    // in the default constructor of Plain, and an enum constant's construction.
    let implicit = site(&truth, 25, "super");
    assert_eq!(implicit.implicit.as_deref(), Some("implicit_super"));
    assert!(!implicit.is_judged());
    assert_eq!(
        site(&truth, 26, "go").targets,
        vec![in_tree("src/p/App.java", 4)]
    );
    assert!(truth
        .sites
        .iter()
        .any(|s| s.line == 3 && s.implicit.as_deref() == Some("implicit_super")));
    let constants: Vec<&TruthSite> = truth
        .sites
        .iter()
        .filter(|s| s.implicit.as_deref() == Some("enum_constant"))
        .collect();
    assert_eq!(constants.len(), 2, "{constants:?}");
    assert!(constants.iter().all(|s| s.line == 12 && s.name == "Mode"));

    // A call in a lambda: the lambda is the caller.
    let in_lambda = site(&truth, 35, "log");
    assert_eq!(in_lambda.targets, vec![in_tree("src/p/Lib.java", 9)]);
    assert_eq!(in_lambda.caller.as_ref().unwrap().line, 35);

    // An argument that did not compile: javac's guess is not a truth.
    let erroneous = site(&truth, 36, "log");
    assert_eq!(
        erroneous.unjudged.as_deref(),
        Some("erroneous_argument_type")
    );
    assert!(!erroneous.is_judged());

    // An anonymous subclass: its own class (javac's binding, declared at `Base`) or the
    // constructor its super(…) binds.
    assert_eq!(
        site(&truth, 37, "Base").targets,
        vec![in_tree("src/p/App.java", 37), in_tree("src/p/App.java", 8)]
    );

    // A constructor reference is a reference named `new`.
    let refs = truth.references.as_ref().expect("javac judges references");
    assert_eq!(refs.len(), 1, "{refs:?}");
    assert_eq!((refs[0].line, refs[0].name.as_str()), (38, "new"));
    assert_eq!(refs[0].targets, vec![in_tree("src/p/App.java", 3)]);

    // Enum valueOf() is javac's own member: the enum declares it implicitly.
    let value_of = site(&truth, 39, "valueOf");
    assert!(value_of.is_judged());
    assert_eq!(value_of.targets, vec![in_tree("src/p/App.java", 11)]);

    // Sorted and byte-identical on a second run (the helper is reused from the cache).
    let again = run_javac(&root, &cache);
    assert_eq!(
        serde_json::to_string(&truth).unwrap(),
        serde_json::to_string(&again).unwrap()
    );
    let mut sorted = truth.sites.clone();
    sorted.sort_by(|a, b| (&a.file, a.line, a.column).cmp(&(&b.file, b.line, b.column)));
    assert_eq!(sorted, truth.sites);
}

#[test]
fn a_tree_without_java_is_tool_failed_not_an_empty_truth() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("tree");
    std::fs::create_dir_all(&root).unwrap();
    std::fs::write(root.join("README"), "no java here\n").unwrap();
    let oracle = oracle_named("javac").unwrap();
    let options = serde_json::Value::Null;
    let err = oracle
        .run(
            &root,
            &OracleOptions {
                corpus_id: "empty",
                language: "java",
                options: &options,
                build: oracles::DEFAULT_BUILD,
                work_dir: dir.path(),
                cache_dir: &dir.path().join("cache"),
                timeout: Duration::from_secs(120),
            },
        )
        .unwrap_err();
    assert_eq!(err.token(), "tool_failed");
    assert!(err.to_string().contains("no .java file"), "{err}");
}
