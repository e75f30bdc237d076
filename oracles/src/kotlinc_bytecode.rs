//! `kotlinc-bytecode`: the kotlinc oracle's second reading (`harness crosscheck`), from
//! the class files the compiler writes rather than its IR (docs/PROTOCOL.md §18.3).
//!
//! The corpus is compiled as the kotlinc oracle compiles it (the same pinned compiler,
//! files and options) but without the plugin; `javap -c -l -p -v` prints every class
//! and [`crate::javap`] / [`crate::bytecode`] make its invoke instructions sites, as
//! for javac. Only the bytecode says which method each call reaches. Where a method is
//! written comes from the file's syntax tree, never from the plugin: the class file's
//! `SourceFile` and package name the file; a method with code is the innermost
//! function (secondary constructor, class for a primary constructor) of its name whose
//! lines hold the first line of its LineNumberTable; a method without code (abstract,
//! an interface's) is the only function of its name, else of its parameter count, in
//! the class its internal name nests.
//!
//! What bytecode cannot see: calls of `inline` functions (their bodies are copied into
//! the caller, at line numbers past the file's end, which no source line writes:
//! `not_written`), columns (sites carry none), property accessors and operators (their
//! JVM names are not written on the line: `not_written`), and calls into the tree's
//! Java classes (kotlinc writes no class file for them: `outside`).

use std::collections::HashMap;
use std::path::Path;

use crate::bytecode::{reading_truth, Declarations, SourceWords};
use crate::javac_bytecode::{class_files, javap_all};
use crate::javap::{parameters, ClassFile, Method};
use crate::kotlin_source::{Placed, PlacedKind, SourceFile};
use crate::kotlinc::{compile_args, home_of, kotlinc, source_files, Kotlinc, KotlincOptions, HEAP};
use crate::oracle::{Oracle, OracleOptions};
use crate::toolchain::Outcome;
use crate::truth::{ColumnUnit, OracleStamp, Truth};

/// The adapter's version: bump it when what the reading says changes.
pub const ADAPTER_VERSION: &str = "2";

const TOOL: &str = "kotlinc-bytecode";

/// The kotlinc oracle's second reading.
#[derive(Debug, Clone, Copy, Default)]
pub struct KotlincBytecode;

impl Oracle for KotlincBytecode {
    fn name(&self) -> &'static str {
        TOOL
    }

    fn version(&self) -> &'static str {
        ADAPTER_VERSION
    }

    fn toolchain_version(&self) -> Result<String, Outcome> {
        Kotlinc.toolchain_version()
    }

    fn run(&self, corpus_dir: &Path, options: &OracleOptions<'_>) -> Result<Truth, Outcome> {
        let kotlin_options = KotlincOptions::from_json(options.options).map_err(failed)?;
        let version = self.toolchain_version()?;
        let kotlinc = kotlinc()?;
        let home = home_of(&kotlinc)?;
        let root = corpus_dir
            .canonicalize()
            .map_err(|e| failed(format!("cannot read the root: {e}")))?;
        let work = crate::toolchain::absolute_dir(TOOL, options.work_dir)?;
        let files =
            source_files(&root).map_err(|e| failed(format!("cannot list the tree: {e}")))?;
        let classes_dir = work.join("classes");
        kotlinc
            .command(&root)
            .arg(HEAP)
            .arg("-nowarn")
            .arg("-d")
            .arg(&classes_dir)
            .args(compile_args(&root, &home, &files, &kotlin_options))
            .timeout(options.timeout)
            .run()?;
        let printed = javap_all(&class_files(&classes_dir)?, &work, options)?;
        let classes = crate::javap::read(&printed).map_err(failed)?;
        let mut tree = KotlinTree::default();
        let mut words = SourceWords::default();
        for file in files.iter().filter(|f| f.ends_with(".kt")) {
            let bytes = std::fs::read(root.join(file))
                .map_err(|e| failed(format!("cannot read {file}: {e}")))?;
            let text = String::from_utf8_lossy(&bytes).into_owned();
            words.add(file, &text);
            if let Some(parsed) = SourceFile::parse(text) {
                tree.add(file, &parsed);
            }
        }
        let declarations = tree.declarations(&classes);
        let stamp = OracleStamp {
            column: ColumnUnit::None,
            ..OracleStamp::at_name(TOOL, version, ADAPTER_VERSION)
        };
        reading_truth(
            options.corpus_id,
            stamp,
            &classes,
            &declarations,
            &words,
            "kotlinc-bytecode reading",
        )
        .map_err(failed)
    }
}

/// The tree's Kotlin files as the placing reads them.
#[derive(Debug, Default)]
pub struct KotlinTree {
    /// (dotted package, file name) → the relative paths declaring it.
    by_source: HashMap<(String, String), Vec<String>>,
    /// Relative path → (line count, declarations).
    files: HashMap<String, (u32, Vec<Placed>)>,
}

impl KotlinTree {
    pub fn add(&mut self, path: &str, file: &SourceFile) {
        let name = path.rsplit('/').next().unwrap_or(path).to_string();
        self.by_source
            .entry((file.package(), name))
            .or_default()
            .push(path.to_string());
        self.files.insert(
            path.to_string(),
            (file.line_count(), file.placed_declarations()),
        );
    }

    /// The file a class was compiled from: the file of its package with its
    /// `SourceFile` name; where several are (a multiplatform tree's `expect` and
    /// `actual` twins), the one whose declarations hold the most of the class's
    /// methods, when only one does.
    fn file_of(&self, class: &ClassFile) -> Option<&str> {
        let source = class.source_file.as_deref()?;
        let package = class
            .name
            .rsplit_once('/')
            .map_or(String::new(), |(p, _)| p.replace('/', "."));
        let candidates = self.by_source.get(&(package, source.to_string()))?;
        if let [one] = candidates.as_slice() {
            return Some(one.as_str());
        }
        let nesting = nesting(&class.name);
        let score = |file: &str| {
            let (count, placed) = &self.files[file];
            class
                .methods
                .iter()
                .filter(|m| !m.flags.synthetic && !m.lines.is_empty())
                .filter(|m| method_line(placed, *count, &nesting, m, 0).is_some())
                .count()
        };
        let scored: Vec<(usize, &str)> =
            candidates.iter().map(|f| (score(f), f.as_str())).collect();
        let best = scored.iter().map(|(n, _)| *n).max().filter(|n| *n > 0)?;
        match scored
            .iter()
            .filter(|(n, _)| *n == best)
            .collect::<Vec<_>>()
            .as_slice()
        {
            [(_, file)] => Some(file),
            _ => None,
        }
    }

    /// Where the tree writes each class and method the class files hold.
    pub fn declarations(&self, classes: &[ClassFile]) -> Declarations {
        let mut declarations = Declarations::default();
        for class in classes {
            let Some(file) = self.file_of(class) else {
                continue;
            };
            let (count, placed) = &self.files[file];
            let nesting = nesting(&class.name);
            let class_line = placed
                .iter()
                .find(|p| p.kind == PlacedKind::Class && is_at(p, &nesting))
                .map_or(1, |p| p.line);
            declarations.add_class(&class.name, file, class_line);
            for method in &class.methods {
                let Some(params) = parameters(&method.descriptor) else {
                    continue;
                };
                match method_line(placed, *count, &nesting, method, params.len()) {
                    Some(line) => declarations.add_method(&class.name, &method.name, params, line),
                    None => {
                        declarations.unplaced.insert((
                            class.name.clone(),
                            method.name.clone(),
                            method.descriptor.clone(),
                        ));
                    }
                }
            }
        }
        declarations
    }
}

/// The class names an internal name nests, after its package: `a/B$C` → `[B, C]`.
fn nesting(internal: &str) -> Vec<&str> {
    let simple = internal.rsplit('/').next().unwrap_or(internal);
    simple.split('$').collect()
}

/// Whether `placed` is the class `nesting` names (its path and its name).
fn is_at(placed: &Placed, nesting: &[&str]) -> bool {
    let Some(path) = &placed.path else {
        return false;
    };
    let (last, outer) = match nesting.split_last() {
        Some(split) => split,
        None => return false,
    };
    placed.name == *last && path.len() == outer.len() && path.iter().zip(outer).all(|(a, b)| a == b)
}

/// The name line of the declaration a class file's method is compiled from.
fn method_line(
    placed: &[Placed],
    line_count: u32,
    nesting: &[&str],
    method: &Method,
    arity: usize,
) -> Option<u32> {
    let first = method
        .lines
        .iter()
        .map(|(_, line)| *line)
        .filter(|line| *line <= line_count)
        .min();
    match first {
        Some(first) => innermost_holding(placed, nesting, &method.name, first),
        None => abstract_declaration(placed, nesting, &method.name, arity),
    }
}

/// The innermost declaration named as the method whose lines hold `line`: for a
/// constructor, a secondary constructor, else the class itself (the primary one's
/// code is the class header's and its initializers').
fn innermost_holding(placed: &[Placed], nesting: &[&str], name: &str, line: u32) -> Option<u32> {
    let holding = |p: &&Placed| p.first <= line && line <= p.last;
    let innermost = |kind: PlacedKind, named: &str| {
        placed
            .iter()
            .filter(|p| p.kind == kind && p.name == named)
            .filter(holding)
            .min_by_key(|p| p.last - p.first)
            .map(|p| p.line)
    };
    if name != "<init>" {
        return innermost(PlacedKind::Function, name);
    }
    let simple = nesting.last()?;
    innermost(PlacedKind::Constructor, "<init>").or_else(|| innermost(PlacedKind::Class, simple))
}

/// A method without code: the only function of its name directly in the class its
/// internal name nests, else the only one of those with its parameter count.
fn abstract_declaration(
    placed: &[Placed],
    nesting: &[&str],
    name: &str,
    arity: usize,
) -> Option<u32> {
    let members: Vec<&Placed> = placed
        .iter()
        .filter(|p| p.kind == PlacedKind::Function && p.name == name)
        .filter(|p| {
            p.path
                .as_deref()
                .is_some_and(|path| same_path(path, nesting))
        })
        .collect();
    let only = |found: Vec<&Placed>| match found.as_slice() {
        [one] => Some(one.line),
        _ => None,
    };
    match members.len() {
        1 => only(members),
        _ => only(
            members
                .into_iter()
                .filter(|p| p.parameters == arity)
                .collect(),
        ),
    }
}

fn same_path(path: &[String], nesting: &[&str]) -> bool {
    path.len() == nesting.len() && path.iter().zip(nesting).all(|(a, b)| a == b)
}

fn failed(detail: String) -> Outcome {
    Outcome::tool_failed(TOOL, detail)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bytecode::sites;
    use crate::javap::read;

    const SOURCE: &str = "package a.b

interface Shape {
    fun area(): Double
}

class Square(val side: Double) : Shape {
    constructor(n: Int) : this(n.toDouble())

    override fun area(): Double =
        side * side

    companion object {
        fun unit() = Square(1.0)
    }
}

fun total(shapes: List<Shape>): Double {
    return shapes.sumOf { it.area() }
}
";

    fn tree() -> KotlinTree {
        let mut tree = KotlinTree::default();
        tree.add(
            "src/Shapes.kt",
            &SourceFile::parse(SOURCE.to_string()).unwrap(),
        );
        tree
    }

    fn class(name: &str, methods: Vec<Method>) -> ClassFile {
        ClassFile {
            name: name.into(),
            source_file: Some("Shapes.kt".into()),
            methods,
            ..ClassFile::default()
        }
    }

    fn method(name: &str, descriptor: &str, lines: &[u32]) -> Method {
        Method {
            name: name.into(),
            descriptor: descriptor.into(),
            lines: lines
                .iter()
                .enumerate()
                .map(|(k, l)| (k as u32 * 4, *l))
                .collect(),
            ..Method::default()
        }
    }

    #[test]
    fn methods_are_placed_at_the_declarations_that_hold_their_lines() {
        let classes = vec![
            class("a/b/Shape", vec![method("area", "()D", &[])]),
            class(
                "a/b/Square",
                vec![
                    method("<init>", "(D)V", &[7]),
                    method("<init>", "(I)V", &[8]),
                    method("area", "()D", &[11]),
                ],
            ),
            class(
                "a/b/Square$Companion",
                vec![method("unit", "()La/b/Square;", &[14])],
            ),
            // An inlined body's lines lie past the file's end.
            class(
                "a/b/ShapesKt",
                vec![method("total", "(Ljava/util/List;)D", &[19, 99])],
            ),
        ];
        let d = tree().declarations(&classes);
        let line =
            |owner: &str, name: &str| d.methods[&(owner.to_string(), name.to_string())].clone();
        assert_eq!(line("a/b/Shape", "area"), vec![(vec![], 4)]);
        assert_eq!(
            line("a/b/Square", "<init>"),
            vec![(vec!["D".to_string()], 7), (vec!["I".to_string()], 8)]
        );
        assert_eq!(line("a/b/Square", "area"), vec![(vec![], 10)]);
        assert_eq!(line("a/b/Square$Companion", "unit"), vec![(vec![], 14)]);
        assert_eq!(line("a/b/ShapesKt", "total")[0].1, 18);
        assert_eq!(d.classes["a/b/Square"], ("src/Shapes.kt".to_string(), 7));
        assert_eq!(d.classes["a/b/Square$Companion"].1, 13);
        assert_eq!(
            d.classes["a/b/ShapesKt"].1, 1,
            "a file facade is the file's"
        );
    }

    #[test]
    fn abstract_overloads_of_one_arity_are_left_unplaced() {
        let source = "package a\n\ninterface P {\n    fun p(a: String)\n    fun p(b: Int)\n    fun q(a: Int, b: Int)\n}\n";
        let mut tree = KotlinTree::default();
        tree.add("P.kt", &SourceFile::parse(source.to_string()).unwrap());
        let mut p = class(
            "a/P",
            vec![
                method("p", "(Ljava/lang/String;)V", &[]),
                method("q", "(II)V", &[]),
            ],
        );
        p.source_file = Some("P.kt".into());
        let d = tree.declarations(&[p]);
        assert!(d
            .unplaced
            .contains(&("a/P".into(), "p".into(), "(Ljava/lang/String;)V".into())));
        assert_eq!(d.methods[&("a/P".to_string(), "q".to_string())][0].1, 6);
    }

    #[test]
    fn a_facade_named_no_java_identifier_is_read_and_twins_are_told_apart() {
        let text = r#"Classfile /x/okio/-Util.class
  Compiled from "Util.kt"
public final class okio.-Util
  this_class: #2                          // "okio/-Util"
  super_class: #4                         // java/lang/Object
  flags: (0x0031) ACC_PUBLIC, ACC_FINAL, ACC_SUPER
{
  public static final int f();
    descriptor: ()I
    flags: (0x0019) ACC_PUBLIC, ACC_STATIC, ACC_FINAL
    Code:
         0: iconst_1
         1: ireturn
      LineNumberTable:
        line 4: 0
}
"#;
        let classes = read(text).unwrap();
        assert_eq!(classes[0].name, "okio/-Util");
        let mut tree = KotlinTree::default();
        let common = "package okio\n\nexpect fun f(): Int\n";
        let jvm = "@file:JvmName(\"-Util\")\npackage okio\n\nactual fun f(): Int = 1\n";
        tree.add(
            "common/okio/Util.kt",
            &SourceFile::parse(common.into()).unwrap(),
        );
        tree.add("jvm/okio/Util.kt", &SourceFile::parse(jvm.into()).unwrap());
        let d = tree.declarations(&classes);
        assert_eq!(d.classes["okio/-Util"].0, "jvm/okio/Util.kt");
        assert_eq!(
            d.methods[&("okio/-Util".to_string(), "f".to_string())][0].1,
            4
        );
    }

    /// A class `a/NAME` with a method `h(I)V` (open or final), its stub and a caller.
    fn dispatched(name: &str, final_flag: &str) -> String {
        format!(
            r#"Classfile /x/a/{name}.class
  Compiled from "{name}.kt"
public class a.{name}
  this_class: #1                          // a/{name}
  super_class: #2                         // java/lang/Object
  flags: (0x0021) ACC_PUBLIC, ACC_SUPER
{{
  public {final_flag}void h(int);
    descriptor: (I)V
    flags: (0x0001) ACC_PUBLIC{final_flag_flag}
    Code:
         0: return
      LineNumberTable:
        line 4: 0

  public static void h$default(a.{name}, int, int, java.lang.Object);
    descriptor: (La/{name};IILjava/lang/Object;)V
    flags: (0x1009) ACC_PUBLIC, ACC_STATIC, ACC_SYNTHETIC
    Code:
         0: invokevirtual #9                  // Method h:(I)V
         3: return
      LineNumberTable:
        line 4: 0

  public final void main();
    descriptor: ()V
    flags: (0x0011) ACC_PUBLIC, ACC_FINAL
    Code:
         0: invokestatic  #14                 // Method h$default:(La/{name};IILjava/lang/Object;)V
         3: return
      LineNumberTable:
        line 6: 0
}}
"#,
            final_flag_flag = if final_flag.is_empty() {
                ""
            } else {
                ", ACC_FINAL"
            }
        )
    }

    #[test]
    fn a_dispatched_default_stub_is_judged_only_when_nothing_overrides_its_call() {
        let source = "package a\n\nopen class C {\n    open fun h(x: Int = 1) {}\n\n    fun main() = h()\n}\n";
        for (final_flag, expected) in [("", None), ("final ", Some(4))] {
            let classes = read(&dispatched("C", final_flag)).unwrap();
            let mut tree = KotlinTree::default();
            tree.add("C.kt", &SourceFile::parse(source.to_string()).unwrap());
            let d = tree.declarations(&classes);
            let found = sites(&classes, &d, &|_, _, _| true);
            let call = found.iter().find(|s| s.line == 6).unwrap();
            assert_eq!(call.name, "h");
            let line = match call.targets.as_slice() {
                [crate::truth::TruthTarget::InTree { line, .. }] => Some(*line),
                _ => None,
            };
            assert_eq!(line, expected, "{final_flag:?}: {call:?}");
        }
    }

    #[test]
    fn a_class_of_another_package_or_file_is_not_placed() {
        let mut other = class("a/c/Square", vec![method("area", "()D", &[11])]);
        let d = tree().declarations(std::slice::from_ref(&other));
        assert!(d.classes.is_empty());
        other.name = "a/b/Square".into();
        other.source_file = Some("Other.kt".into());
        assert!(tree().declarations(&[other]).classes.is_empty());
    }

    #[test]
    fn a_default_arguments_stub_stands_for_its_function() {
        let text = r#"Classfile /x/a/b/FKt.class
  Compiled from "F.kt"
public final class a.b.FKt
  this_class: #1                          // a/b/FKt
  super_class: #2                         // java/lang/Object
  flags: (0x0031) ACC_PUBLIC, ACC_FINAL, ACC_SUPER
{
  public static final int f(int, int);
    descriptor: (II)I
    flags: (0x0019) ACC_PUBLIC, ACC_STATIC, ACC_FINAL
    Code:
         0: iload_0
         1: ireturn
      LineNumberTable:
        line 3: 0

  public static int f$default(int, int, int, java.lang.Object);
    descriptor: (IIILjava/lang/Object;)I
    flags: (0x1009) ACC_PUBLIC, ACC_STATIC, ACC_SYNTHETIC
    Code:
         0: invokestatic  #10                 // Method g:()I
         3: invokestatic  #12                 // Method f:(II)I
         6: ireturn
      LineNumberTable:
        line 3: 0

  public static final int g();
    descriptor: ()I
    flags: (0x0019) ACC_PUBLIC, ACC_STATIC, ACC_FINAL
    Code:
         0: iconst_1
         1: ireturn
      LineNumberTable:
        line 5: 0

  public static final void main();
    descriptor: ()V
    flags: (0x0019) ACC_PUBLIC, ACC_STATIC, ACC_FINAL
    Code:
         0: invokestatic  #14                 // Method f$default:(IIILjava/lang/Object;)I
         3: pop
         4: invokestatic  #15                 // Method main$lambda$0:()V
         7: return
      LineNumberTable:
        line 7: 0
        line 8: 4

  private static final void main$lambda$0();
    descriptor: ()V
    flags: (0x101a) ACC_PRIVATE, ACC_STATIC, ACC_FINAL, ACC_SYNTHETIC
    Code:
         0: invokestatic  #10                 // Method g:()I
         3: return
      LineNumberTable:
        line 8: 0
}
SourceFile: "F.kt"
"#;
        let source = "package a.b\n\nfun f(a: Int, b: Int = g()) = a\n\nfun g() = 1\n\nfun main() { f(1)\n  run { g() } }\n";
        let classes = read(text).unwrap();
        assert_eq!(classes[0].source_file.as_deref(), Some("F.kt"));
        let mut tree = KotlinTree::default();
        tree.add("F.kt", &SourceFile::parse(source.to_string()).unwrap());
        let d = tree.declarations(&classes);
        let mut words = SourceWords::default();
        words.add("F.kt", source);
        let found = sites(&classes, &d, &|f, l, n| words.writes(f, l, n));
        let judged: Vec<(u32, &str, u32)> = found
            .iter()
            .filter(|s| s.implicit.is_none())
            .map(|s| match &s.targets[..] {
                [crate::truth::TruthTarget::InTree { line, .. }] => {
                    (s.line, s.name.as_str(), *line)
                }
                other => panic!("{other:?}"),
            })
            .collect();
        // `f(1)` is `f`'s call, not the default value's `g()`; the lambda's body is read.
        assert_eq!(judged, vec![(7, "f", 3), (8, "g", 5)], "{found:?}");
        assert!(found
            .iter()
            .any(|s| s.line == 3 && s.implicit.as_deref() == Some("synthetic")));
    }
}
