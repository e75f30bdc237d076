//! The vendored Kotlin grammar (vendor/tree-sitter-kotlin-ng, 1.1.0 + one scanner
//! patch): the shapes the patch fixes parse with no ERROR, and end-of-input after
//! an annotation returns (the unpatched scanner loops forever there).

use std::sync::mpsc;
use std::thread;
use std::time::Duration;

fn parse(src: &str) -> tree_sitter::Tree {
    let mut parser = tree_sitter::Parser::new();
    parser
        .set_language(&tree_sitter_kotlin_ng::LANGUAGE.into())
        .unwrap();
    parser.parse(src, None).unwrap()
}

/// Parses on a thread and fails if the parse does not return within 10 s.
fn parse_in_time(src: &'static str) -> String {
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        let tree = parse(src);
        let _ = tx.send(tree.root_node().to_sexp());
    });
    rx.recv_timeout(Duration::from_secs(10))
        .unwrap_or_else(|_| panic!("the parse of {src:?} did not return within 10 s"))
}

fn has_error(tree: &tree_sitter::Tree) -> bool {
    tree.root_node().has_error()
}

#[test]
fn a_nested_class_keeps_its_primary_constructor_on_the_next_line() {
    let src =
        "class O {\n  public class A\n  internal constructor(val x: Int) { fun f() = a.g(1) }\n}\n";
    let tree = parse(src);
    assert!(!has_error(&tree), "{}", tree.root_node().to_sexp());
    let sexp = tree.root_node().to_sexp();
    // A's primary constructor, and A's body holds `f` (not O's).
    assert!(sexp.contains("primary_constructor"), "{sexp}");
    assert!(!sexp.contains("secondary_constructor"), "{sexp}");
    let outer = tree.root_node().named_child(0).unwrap();
    let body = outer
        .named_children(&mut outer.walk())
        .find(|c| c.kind() == "class_body")
        .unwrap();
    let members: Vec<&str> = body
        .named_children(&mut body.walk())
        .map(|c| c.kind())
        .collect();
    assert_eq!(members, ["class_declaration"]);
}

#[test]
fn the_kotlinpoet_builder_shape_parses() {
    let src = "public class FileSpec private constructor() {\n  public class Builder\n  internal constructor(\n    public val packageName: String,\n  ) {\n    public fun build(): FileSpec = FileSpec()\n  }\n}\n";
    let tree = parse(src);
    assert!(!has_error(&tree), "{}", tree.root_node().to_sexp());
}

#[test]
fn a_secondary_constructor_after_a_member_is_still_one() {
    let src = "class O {\n  val x = 1\n  constructor(a: Int) : this()\n  private constructor(a: Int, b: Int) : this()\n}\n";
    let tree = parse(src);
    assert!(!has_error(&tree), "{}", tree.root_node().to_sexp());
    let sexp = tree.root_node().to_sexp();
    assert_eq!(sexp.matches("secondary_constructor").count(), 2, "{sexp}");
}

#[test]
fn a_top_level_class_and_a_one_line_header_are_unchanged() {
    for src in [
        "class A\nprivate constructor(val x: Int)\n",
        "class O { public class A internal constructor(val x: Int) }\n",
        "class A @Inject constructor(val x: Int)\n",
    ] {
        let tree = parse(src);
        assert!(!has_error(&tree), "{src}: {}", tree.root_node().to_sexp());
        assert!(tree.root_node().to_sexp().contains("primary_constructor"));
    }
}

#[test]
fn end_of_input_after_an_annotation_returns() {
    parse_in_time("class A\n@Foo");
    parse_in_time("class A {\n  val x: Int\n    @Foo");
}

#[test]
fn a_member_ending_on_the_line_of_the_closing_brace_needs_no_terminator() {
    for src in [
        "class A { fun f() = 1 }\n",
        "class O { class A(val x: Int) }\n",
        "object C { fun f() {} }\n",
        "enum class E { X, Y; fun f() = 1 }\n",
        "fun main() { run { println(1) } }\n",
    ] {
        let tree = parse(src);
        assert!(!has_error(&tree), "{src}: {}", tree.root_node().to_sexp());
    }
}
