//! The report's `receiver` (docs/REPORT.md): each call's callee structure and what
//! its first written name is, in every language that writes the shape. The
//! expectation is the rendered `line wrote -> callee kind[+depth]` text of each file.

use std::fmt::Write;
use std::path::Path;

use engine::Options;

/// Every call of `file` in the report of `root`, one line each.
fn rendered(root: &Path, file: &str) -> String {
    let report = engine::analyze(root, &Options::default()).unwrap();
    let mut text = String::new();
    for call in report.calls.iter().filter(|c| c.file == file) {
        let r = call.receiver.as_ref().expect("every call has a receiver");
        let depth = if r.depth > 0 {
            format!("+{}", r.depth)
        } else {
            String::new()
        };
        let _ = writeln!(
            text,
            "{} {} -> {} {}{depth}",
            call.line, call.wrote, r.callee, r.kind
        );
    }
    text
}

fn tree(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (path, text) in files {
        std::fs::write(dir.path().join(path), text).unwrap();
    }
    dir
}

fn assert_lines(actual: &str, expected: &str) {
    let expected: String = expected
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(actual, expected, "actual:\n{actual}");
}

const PYTHON: &str = "import os

def helper(cb, x: int):
    cb()
    x.bit_length()
    os.path.join('a')
    y = make()
    y.go()
    f = lambda q: q.run()

class C:
    def m(self):
        self.n()
        self.a.b()
        def inner():
            self.n()
        helper(lambda: self.n(), 1)
";

#[test]
fn python_receivers() {
    let dir = tree(&[("a.py", PYTHON)]);
    assert_lines(
        &rendered(dir.path(), "a.py"),
        "4 cb -> name parameter
         5 x.bit_length -> path parameter
         6 os.path.join -> path import+1
         7 make -> name unbound
         8 y.go -> path local
         9 q.run -> path lambda_parameter
         13 self.n -> path self
         14 self.a.b -> path field
         16 self.n -> path closure_self
         17 helper -> name function
         17 self.n -> path closure_self",
    );
}

const JAVA: &str = "class A<T> {
  B field;
  void m(T t, B b) {
    B local = null;
    t.go();
    b.go();
    field.go();
    this.field.go();
    local.go();
    new B().go();
    b.get().go();
    Runnable r = () -> this.m(null, null);
    java.util.List<B> xs = null;
    xs.forEach(x -> x.go());
  }
}
class B { void go() {} B get() { return this; } }
";

#[test]
fn java_receivers() {
    let dir = tree(&[("A.java", JAVA)]);
    assert_lines(
        &rendered(dir.path(), "A.java"),
        "5 t.go -> path generic_parameter
         6 b.go -> path parameter
         7 field.go -> path field
         8 this.field.go -> path field
         9 local.go -> path local_typed
         10 new B -> construction unbound
         10 new B().go -> member construction
         11 b.get -> path parameter
         11 b.get().go -> chain call
         12 this.m -> path closure_self
         14 xs.forEach -> path local_typed
         14 x.go -> path lambda_parameter",
    );
}

const TYPESCRIPT: &str = "class K {
  x: K;
  m(p: K) {
    this.x.m(p);
    p.m(p);
    const f = function () { this.m(p); };
    let u;
    u.m(p);
  }
}
function id<T extends K>(v: T) { v.m(v); }
";

#[test]
fn typescript_receivers() {
    let dir = tree(&[("t.ts", TYPESCRIPT)]);
    assert_lines(
        &rendered(dir.path(), "t.ts"),
        "4 this.x.m -> path field
         5 p.m -> path parameter
         6 this.m -> path closure_self
         8 u.m -> path local_unknown
         11 v.m -> path generic_parameter",
    );
}

const RUST: &str = "struct S;
impl S {
    fn m(&self, o: &S) {
        self.n();
        o.n();
        S::new();
        Self::new();
        crate::f();
        let c = |z: &S| z.n();
    }
    fn n(&self) {}
    fn new() -> S { S }
}
fn f() {}
fn g<T: Clone>(t: T, i: impl Clone) { t.clone(); i.clone(); T::default(); }
";

#[test]
fn rust_receivers() {
    let dir = tree(&[("lib.rs", RUST)]);
    assert_lines(
        &rendered(dir.path(), "lib.rs"),
        "4 self.n -> path self
         5 o.n -> path parameter
         6 S::new -> scope type
         7 Self::new -> scope type
         8 crate::f -> scope module
         9 z.n -> path lambda_parameter
         15 t.clone -> path generic_parameter
         15 i.clone -> path generic_parameter
         15 T::default -> scope generic_parameter",
    );
}

const GO: &str = "package p

type S struct{ next *S }

func (s *S) M(o *S) {
	s.N()
	s.next.N()
	o.N()
	func() { s.N() }()
}

func (s *S) N() {}
";

#[test]
fn go_receivers() {
    let dir = tree(&[
        ("go.mod", "module example.com/p\n\ngo 1.22\n"),
        ("p.go", GO),
    ]);
    assert_lines(
        &rendered(dir.path(), "p.go"),
        "6 s.N -> path self
         7 s.next.N -> path field
         8 o.N -> path parameter
         9 func() { s.N() } -> dynamic unknown
         9 s.N -> path closure_self",
    );
}
