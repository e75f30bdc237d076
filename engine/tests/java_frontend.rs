//! The Java frontend's facts, read directly: declarations and their names,
//! scopes and bindings, call shapes, and the depth bound.

use engine::facts::{
    ArgShape, BindingValue, CallKind, Callee, DeclKind, FileFacts, ImportKind, LiteralType,
    Receiver,
};
use engine::lang::Language;
use engine::limits::Limits;
use engine::Options;

fn facts(source: &str) -> FileFacts {
    let mut parser = tree_sitter::Parser::new();
    let tree =
        engine::parse::parse_only(&mut parser, Language::Java, source.as_bytes()).expect("parses");
    Language::Java.extract("p/A.java", source.as_bytes(), &tree)
}

/// Run on a thread whose stack is as small as a default test thread's, to show
/// the bounded walk does not need the pool's large stacks.
fn facts_on_small_stack(source: String, stack: usize) -> FileFacts {
    std::thread::Builder::new()
        .stack_size(stack)
        .spawn(move || facts(&source))
        .unwrap()
        .join()
        .expect("the walk stays within the stack")
}

#[test]
fn package_imports_and_declarations() {
    let f = facts(
        "package a.b;\nimport java.util.List;\nimport java.util.*;\nimport static x.Y.z;\nimport static x.Y.*;\n\
         public class A<T> extends B implements C, D<T> {\n  private static int n;\n  String s, t[];\n\
         A(int... xs) {}\n  static <U> List<U> m(U u, String v) { return null; }\n  interface I {}\n}\n",
    );
    assert_eq!(f.module, vec!["a.b".to_string()]);
    let kinds: Vec<_> = f.imports.iter().map(|i| &i.kind).collect();
    assert!(
        matches!(kinds[0], ImportKind::JavaType { path } if path.join(".") == "java.util.List")
    );
    assert!(matches!(kinds[1], ImportKind::JavaOnDemand { path } if path.join(".") == "java.util"));
    assert!(matches!(kinds[2], ImportKind::JavaStatic { path } if path.join(".") == "x.Y.z"));
    assert!(matches!(kinds[3], ImportKind::JavaStaticOnDemand { path } if path.join(".") == "x.Y"));
    let a = &f.decls[0];
    assert_eq!(
        (a.name.as_str(), a.kind, a.line, a.column),
        ("A", DeclKind::Class, 6, 14)
    );
    let bases: Vec<String> = a.bases.iter().map(|b| b.path.join(".")).collect();
    assert_eq!(bases, ["B", "C", "D"], "superclass first, then interfaces");
    assert_eq!(a.bases[2].args[0].path, ["T"]);
    assert_eq!(a.type_params, ["T"]);
    let fields: Vec<(&str, bool, bool)> = a
        .fields
        .iter()
        .map(|f| (f.name.as_str(), f.is_static, f.ty.as_ref().unwrap().array))
        .collect();
    assert_eq!(
        fields,
        [("n", true, false), ("s", false, false), ("t", false, true)]
    );
    let ctor = &f.decls[1];
    assert_eq!(
        (ctor.name.as_str(), ctor.kind),
        ("A", DeclKind::Constructor)
    );
    assert!(ctor.params[0].variadic);
    assert_eq!(ctor.arity(), (0, None));
    let m = &f.decls[2];
    assert!(m.is_static);
    assert_eq!(m.type_params, ["U"]);
    assert_eq!(m.returns.as_ref().unwrap().path, ["List"]);
    assert_eq!(m.params[1].ty.as_ref().unwrap().path, ["String"]);
    assert_eq!(f.decls[3].kind, DeclKind::Interface);
    assert_eq!(f.decls[3].parent, Some(0));
}

#[test]
fn anonymous_classes_and_lambdas_are_numbered_in_source_order() {
    let f = facts(
        "class A {\n  Runnable r = () -> {};\n  void f() {\n    new Thread(new Runnable() { public void run() { g(x -> x); } }) {};\n  }\n}\n",
    );
    let names: Vec<(&str, DeclKind, Option<u32>)> = f
        .decls
        .iter()
        .map(|d| (d.name.as_str(), d.kind, d.parent))
        .collect();
    assert_eq!(
        names,
        [
            ("A", DeclKind::Class, None),
            ("<lambda1>", DeclKind::Lambda, Some(0)),
            ("f", DeclKind::Method, Some(0)),
            ("<anonymous1>", DeclKind::Class, Some(2)),
            ("run", DeclKind::Method, Some(3)),
            ("<lambda2>", DeclKind::Lambda, Some(4)),
            ("<anonymous2>", DeclKind::Class, Some(2)),
        ]
    );
    assert_eq!(f.decls[3].bases[0].path, ["Runnable"]);
    assert_eq!(f.decls[6].bases[0].path, ["Thread"]);
    // `g(…)`'s caller is the anonymous class's method; the constructions' caller is f.
    let g = f.calls.iter().find(|c| c.name() == "g").unwrap();
    assert_eq!(g.caller, Some(4));
    assert!(matches!(g.args[0], ArgShape::Lambda));
    for c in f.calls.iter().filter(|c| c.kind == CallKind::New) {
        assert_eq!(c.caller, Some(2));
    }
}

#[test]
fn call_shapes_and_positions() {
    let src = "class A {\n  void f(B b) {\n    b.c.d().e(1, \"s\", 2L, 'c', null, x, this.y, new T(), X.class, (U) z, -3);\n    \
               super.g();\n    Outer.this.h();\n    new java.util.ArrayList<>();\n    \"x\".trim();\n    (new T()).k();\n  }\n  \
               A() { this(1); }\n}\n";
    let f = facts(src);
    let e = f.calls.iter().find(|c| c.name() == "e").unwrap();
    assert_eq!((e.line, e.column), (3, 13));
    let d = f.calls.iter().position(|c| c.name() == "d").unwrap() as u32;
    assert!(matches!(&e.callee, Callee::Member { receiver: Receiver::Call(i), .. } if *i == d));
    let dc = &f.calls[d as usize];
    assert!(
        matches!(&dc.callee, Callee::Member { receiver: Receiver::Path(p), .. } if p == &["b", "c"])
    );
    let shapes: Vec<String> = e.args.iter().map(|a| format!("{a:?}")).collect();
    assert_eq!(
        shapes,
        [
            "Literal(Int)",
            "Literal(Str)",
            "Literal(Long)",
            "Literal(Char)",
            "Literal(None)",
            "Name(\"x\")",
            "Path([\"this\", \"y\"])",
            "New(TypeRef { path: [\"T\"], args: [], is_self: false, array: false })",
            "ClassLiteral",
            "Cast(TypeRef { path: [\"U\"], args: [], is_self: false, array: false })",
            "Literal(Int)",
        ]
    );
    let g = f.calls.iter().find(|c| c.name() == "g").unwrap();
    assert!(matches!(
        &g.callee,
        Callee::Member {
            receiver: Receiver::Super,
            ..
        }
    ));
    let h = f.calls.iter().find(|c| c.name() == "h").unwrap();
    assert!(
        matches!(&h.callee, Callee::Member { receiver: Receiver::QualifiedThis(t), .. } if t == "Outer")
    );
    let list = f.calls.iter().find(|c| c.name() == "ArrayList").unwrap();
    assert_eq!(list.kind, CallKind::New);
    assert_eq!(
        (list.line, list.column),
        (6, 19),
        "the column of the type's own name"
    );
    assert!(
        matches!(&list.callee, Callee::Member { receiver: Receiver::Path(p), .. } if p == &["java", "util"])
    );
    let trim = f.calls.iter().find(|c| c.name() == "trim").unwrap();
    assert!(matches!(
        &trim.callee,
        Callee::Member {
            receiver: Receiver::Literal(LiteralType::Str),
            ..
        }
    ));
    let k = f.calls.iter().find(|c| c.name() == "k").unwrap();
    assert!(
        matches!(&k.callee, Callee::Member { receiver: Receiver::New(t), .. } if t.path == ["T"])
    );
    let chain = f
        .calls
        .iter()
        .find(|c| c.kind == CallKind::ConstructorChain)
        .unwrap();
    assert!(matches!(&chain.callee, Callee::Name(n) if n == "this"));
    assert_eq!(
        chain.caller,
        Some(
            f.decls
                .iter()
                .position(|d| d.kind == DeclKind::Constructor)
                .unwrap() as u32
        )
    );
}

#[test]
fn bindings_carry_written_types() {
    let src = "class A {\n  void f(Foo p) {\n    Bar b = p.get();\n    var v = new Baz();\n    var w = p.get();\n    \
               for (Item it : items) {}\n    try (Res r = open()) {} catch (IOException ex) {} catch (A | B ab) {}\n    \
               if (o instanceof Qux q) {}\n  }\n}\n";
    let f = facts(src);
    let all: Vec<(&str, String)> = f
        .scopes
        .iter()
        .flat_map(|s| s.bindings.iter())
        .map(|b| {
            let v = match &b.value {
                BindingValue::Param { ty, .. } => {
                    format!("param {}", ty.as_ref().unwrap().path.join("."))
                }
                BindingValue::Typed { ty, .. } => format!("typed {}", ty.path.join(".")),
                BindingValue::Value(v) => format!("value {v:?}"),
                other => format!("{other:?}"),
            };
            (b.name.as_str(), v)
        })
        .collect();
    let get = |n: &str| {
        all.iter()
            .find(|(name, _)| *name == n)
            .map(|(_, v)| v.clone())
            .unwrap()
    };
    assert_eq!(get("p"), "param Foo");
    assert_eq!(get("b"), "typed Bar");
    assert!(get("v").starts_with("value New(TypeRef { path: [\"Baz\"]"));
    assert!(get("w").starts_with("value CallResult("));
    assert_eq!(get("it"), "typed Item");
    assert_eq!(get("r"), "typed Res");
    assert_eq!(get("ex"), "typed IOException");
    assert_eq!(get("ab"), "Opaque");
    assert_eq!(get("q"), "typed Qux");
}

#[test]
fn arrays_of_arrays_keep_their_element_type() {
    let f = facts("class A {\n  byte[][] s;\n  int x[][], y;\n  void f(String[]... a) {}\n}\n");
    let s = f.decls[0].fields[0].ty.as_ref().unwrap();
    assert!(
        s.array && s.path.is_empty(),
        "an array whose element is an array"
    );
    assert_eq!(
        (s.args[0].path.as_slice(), s.args[0].array),
        (&["byte".to_string()][..], true)
    );
    let x = f.decls[0].fields[1].ty.as_ref().unwrap();
    assert!(x.array && x.path.is_empty() && x.args[0].array);
    assert!(
        !f.decls[0].fields[2].ty.as_ref().unwrap().array,
        "`y` has no dimensions of its own"
    );
    let a = &f.decls[1].params[0];
    assert!(
        a.variadic && a.ty.as_ref().unwrap().array,
        "each argument is a String[]"
    );
}

#[test]
fn return_this_is_recorded() {
    let f = facts(
        "class A {\n  A a() { return this; }\n  A b() { if (x) return this; return other; }\n}\n",
    );
    assert!(matches!(
        f.decls[1].returns_value,
        Some(engine::facts::ReturnValue::SelfValue)
    ));
    assert!(f.decls[2].returns_value.is_none());
}

fn deep_sources(n: usize) -> Vec<(&'static str, String)> {
    vec![
        (
            "Paren.java",
            format!(
                "class Paren {{ void f() {{ int x = {}1{}; }} }}\n",
                "(".repeat(n),
                ")".repeat(n)
            ),
        ),
        (
            "Plus.java",
            format!(
                "class Plus {{ void f() {{ int x = {}; }} }}\n",
                vec!["1"; n].join("+")
            ),
        ),
        (
            "Chain.java",
            format!(
                "class Chain {{ Chain b() {{ return this; }} void f() {{ this{}; }} }}\n",
                ".b()".repeat(n)
            ),
        ),
        (
            "Lambdas.java",
            format!(
                "class Lambdas {{ Object o = {}null; }}\n",
                "() -> ".repeat(n)
            ),
        ),
    ]
}

/// A 50 000-level expression neither overflows the stack nor aborts the run:
/// the walk stops at the bound and the file counts a parse error.
#[test]
fn deep_nesting_is_bounded() {
    for (name, source) in deep_sources(50_000) {
        let f = facts_on_small_stack(source, 8 * 1024 * 1024);
        assert!(f.parse_errors >= 1, "{name}: the cut is reported");
        assert!(
            f.calls.len() <= 2_001,
            "{name}: nothing below the bound is walked"
        );
    }
}

#[test]
fn deep_nesting_through_the_whole_engine() {
    let dir = tempfile::tempdir().unwrap();
    for (name, source) in deep_sources(50_000) {
        std::fs::write(dir.path().join(name), source).unwrap();
    }
    let options = Options {
        languages: vec![Language::Java],
        limits: Limits::default(),
        threads: 2,
        ..Options::default()
    };
    let report = engine::analyze(dir.path(), &options).expect("the run completes");
    assert_eq!(report.files.len(), 4);
    assert!(report.files.iter().all(|f| f.parse_errors >= 1));
}

/// Many declarations in one file stay linear: 26 000 methods each calling the next.
#[test]
fn many_methods_in_one_file() {
    let n = 26_000;
    let mut src = String::from("class Big {\n");
    for i in 0..n {
        src.push_str(&format!(
            "  void m{i}() {{ m{}(); this.m{}(); }}\n",
            (i + 1) % n,
            (i + 2) % n
        ));
    }
    src.push_str("}\n");
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("Big.java"), src).unwrap();
    let options = Options {
        languages: vec![Language::Java],
        limits: Limits::default(),
        threads: 2,
        ..Options::default()
    };
    let start = std::time::Instant::now();
    let report = engine::analyze(dir.path(), &options).unwrap();
    assert_eq!(report.summary.calls, 2 * n);
    assert_eq!(report.summary.by_family.get("own_type"), Some(&(2 * n)));
    assert!(start.elapsed().as_secs() < 60, "took {:?}", start.elapsed());
}

/// The same tree gives byte-identical reports whatever the thread count.
#[test]
fn reports_are_deterministic() {
    let dir = tempfile::tempdir().unwrap();
    for i in 0..20 {
        let src = format!(
            "package p;\nclass C{i} extends C{} {{\n  C{i} self() {{ return this; }}\n  void f(C{} o) {{ o.self().f(null); g{i}(); new C{i}(); }}\n  void g{i}() {{}}\n}}\n",
            (i + 1) % 20,
            (i + 3) % 20
        );
        std::fs::write(dir.path().join(format!("C{i}.java")), src).unwrap();
    }
    let run = |threads| {
        let options = Options {
            languages: vec![Language::Java],
            limits: Limits::default(),
            threads,
            ..Options::default()
        };
        serde_json::to_string(&engine::analyze(dir.path(), &options).unwrap()).unwrap()
    };
    assert_eq!(run(1), run(4));
}

/// The resolver finds an anonymous class by its construction's position with a
/// binary search: a file's declarations must be in source order of their names.
#[test]
fn declarations_are_in_source_order() {
    let src = "package p;\n@Ann(x = 1)\nclass A<T extends B> extends C {\n  Runnable r = () -> new D() { void e() {} };\n  \
               @Override public <U> U f(U u) {\n    class L { void g() { new H() {}; } }\n    return h(v -> new I() {\n      \
               void j() { Runnable k = () -> {}; }\n    });\n  }\n  enum E { X { void m() {} }, Y; E() {} }\n  record R(int a) { R {} }\n}\n\
               interface K { default void n() { new Object() {}; } }\n";
    let f = facts(src);
    assert!(f.decls.len() > 12);
    for pair in f.decls.windows(2) {
        assert!(
            (pair[0].line, pair[0].column) < (pair[1].line, pair[1].column),
            "{} at {}:{} before {} at {}:{}",
            pair[0].name,
            pair[0].line,
            pair[0].column,
            pair[1].name,
            pair[1].line,
            pair[1].column
        );
    }
    // Every anonymous class sits at its construction's name token.
    for d in f.decls.iter().filter(|d| d.name.starts_with("<anonymous")) {
        let at_construction = f
            .calls
            .iter()
            .any(|c| c.kind == CallKind::New && (c.line, c.column) == (d.line, d.column));
        let enum_constant = d.bases.first().is_some_and(|b| b.path == ["E"]);
        assert!(
            at_construction || enum_constant,
            "{} at {}:{}",
            d.name,
            d.line,
            d.column
        );
    }
}
