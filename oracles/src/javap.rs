//! A reader of `javap -c -l -p -v` text: per class, its internal name, superclass,
//! interfaces and flags; per method, its name, descriptor and flags, its object
//! creations and invoke instructions in order (offset, owner, name, descriptor), and
//! its LineNumberTable. Shared by the bytecode second readings of the javac and
//! kotlinc oracles (`crate::bytecode`).
//!
//! The reader takes only what javap prints on lines of fixed shape (the class header,
//! `this_class:`/`super_class:`, `flags:`, `descriptor:`, numbered instructions,
//! `line N: PC`); everything else (the constant pool, stack maps, local variable and
//! exception tables, annotations) is skipped.

/// One class file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ClassFile {
    /// The internal name (`a/b/C$D`).
    pub name: String,
    /// The superclass's internal name (`None` for `java/lang/Object` itself).
    pub super_name: Option<String>,
    /// The interfaces the header lists (internal names): an interface's are the ones it
    /// extends.
    pub interfaces: Vec<String>,
    pub is_interface: bool,
    pub synthetic: bool,
    /// `ACC_FINAL`: no class extends it.
    pub is_final: bool,
    pub methods: Vec<Method>,
    /// The SourceFile attribute javap prints before the header (`Compiled from
    /// "A.kt"`): a Kotlin class's file is found by it and its package.
    pub source_file: Option<String>,
}

/// One method of a class file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Method {
    /// `<init>` for a constructor, `<clinit>` for the static initializer.
    pub name: String,
    pub descriptor: String,
    pub flags: Flags,
    /// Object creations and invocations, in code order.
    pub code: Vec<Instruction>,
    /// (start pc, line), as the LineNumberTable lists them.
    pub lines: Vec<(u32, u32)>,
    /// The handler pcs of the exception table's catch-all (`any`) entries: a
    /// `finally` block's handler copy starts there.
    pub catch_all: Vec<u32>,
}

/// The method flags the readings use.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Flags {
    pub is_static: bool,
    pub synthetic: bool,
    pub bridge: bool,
    /// `ACC_FINAL`: no subclass overrides it.
    pub is_final: bool,
}

/// An instruction the readings use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Instruction {
    /// `new C`.
    New {
        offset: u32,
        class: String,
    },
    Invoke(Invoke),
    /// `athrow` (a `finally` handler's copy ends with one).
    Throw {
        offset: u32,
    },
}

/// How an invoke instruction dispatches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InvokeKind {
    Virtual,
    Static,
    Special,
    Interface,
    Dynamic,
}

/// An invoke instruction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invoke {
    pub offset: u32,
    pub kind: InvokeKind,
    /// The class the instruction names (the method's own class when javap omits it);
    /// empty for `invokedynamic`.
    pub owner: String,
    pub name: String,
    pub descriptor: String,
}

impl Method {
    /// The source line of the instruction at `offset`: the last LineNumberTable entry
    /// starting at or before it.
    pub fn line_at(&self, offset: u32) -> Option<u32> {
        self.lines
            .iter()
            .filter(|(pc, _)| *pc <= offset)
            .max_by_key(|(pc, _)| *pc)
            .map(|(_, line)| *line)
    }

    pub fn invokes(&self) -> impl Iterator<Item = &Invoke> {
        self.code.iter().filter_map(|i| match i {
            Instruction::Invoke(x) => Some(x),
            _ => None,
        })
    }
}

/// The parameter types of a method descriptor, each as the descriptor writes it
/// (`(I[JLa/B;)V` → `I`, `[J`, `La/B;`); `None` when it is not a descriptor.
pub fn parameters(descriptor: &str) -> Option<Vec<String>> {
    let inner = descriptor.strip_prefix('(')?;
    let close = inner.find(')')?;
    let bytes = &inner.as_bytes()[..close];
    let mut params = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let start = i;
        while bytes[i] == b'[' {
            i += 1;
            if i >= bytes.len() {
                return None;
            }
        }
        if bytes[i] == b'L' {
            i += inner[i..close].find(';')? + 1;
        } else {
            i += 1;
        }
        params.push(inner[start..i].to_string());
    }
    Some(params)
}

/// Reads the text of one or more `javap -c -l -p -v` runs.
pub fn read(text: &str) -> Result<Vec<ClassFile>, String> {
    let mut reader = Reader::default();
    for (n, line) in text.lines().enumerate() {
        reader
            .line(line)
            .map_err(|e| format!("javap line {}: {e}: {line:?}", n + 1))?;
    }
    reader.finish();
    Ok(reader.classes)
}

#[derive(Debug, Default)]
struct Reader {
    classes: Vec<ClassFile>,
    class: Option<ClassFile>,
    /// The dotted name javap prints in the class's constructor declarations.
    dotted: String,
    method: Option<Method>,
    /// Inside the members' braces.
    in_members: bool,
    /// The class header line is still to come.
    expect_header: bool,
    /// The last member line was a field (its descriptor does not start with `(`).
    in_field: bool,
}

impl Reader {
    fn line(&mut self, line: &str) -> Result<(), String> {
        if line.starts_with("Classfile ") {
            self.finish();
            self.class = Some(ClassFile::default());
            self.expect_header = true;
            return Ok(());
        }
        let Some(class) = self.class.as_mut() else {
            return Ok(());
        };
        if let Some(rest) = line.strip_prefix("  Compiled from \"") {
            if self.expect_header {
                class.source_file = rest.strip_suffix('"').map(str::to_string);
                return Ok(());
            }
        }
        if self.expect_header && !line.starts_with(' ') && !line.is_empty() {
            self.expect_header = false;
            read_header(line, class);
            return Ok(());
        }
        if !self.in_members {
            if line == "{" {
                self.in_members = true;
            } else if let Some(rest) = line.strip_prefix("  this_class: ") {
                // javap quotes a name that is no Java identifier (Kotlin's
                // `@file:JvmName("-Util")` facades): `// "okio/-Util"`.
                class.name = unquote(comment(rest).ok_or("no class name")?).to_string();
                self.dotted = class.name.replace('/', ".");
            } else if let Some(rest) = line.strip_prefix("  super_class: ") {
                let name = unquote(comment(rest).ok_or("no superclass name")?);
                class.super_name = Some(name.to_string());
            } else if let Some(rest) = line.strip_prefix("  flags: ") {
                class.synthetic = rest.contains("ACC_SYNTHETIC");
                class.is_final = rest.contains("ACC_FINAL");
                class.is_interface = rest.contains("ACC_INTERFACE");
            }
            return Ok(());
        }
        if line == "}" {
            self.end_method();
            self.in_members = false;
            return Ok(());
        }
        if is_member_line(line) {
            self.end_method();
            self.in_field = false;
            self.method = Some(Method {
                name: member_name(line.trim(), &self.dotted),
                ..Method::default()
            });
            return Ok(());
        }
        let trimmed = line.trim_start();
        if let Some(descriptor) = trimmed.strip_prefix("descriptor: ") {
            if !descriptor.starts_with('(') {
                self.in_field = true;
                self.method = None;
            } else if let Some(m) = self.method.as_mut() {
                m.descriptor = descriptor.to_string();
            }
            return Ok(());
        }
        if self.in_field {
            return Ok(());
        }
        let Some(method) = self.method.as_mut() else {
            return Ok(());
        };
        if let Some(flags) = trimmed.strip_prefix("flags: ") {
            if line.starts_with("    flags: ") {
                method.flags = Flags {
                    is_static: flags.contains("ACC_STATIC"),
                    synthetic: flags.contains("ACC_SYNTHETIC"),
                    bridge: flags.contains("ACC_BRIDGE"),
                    is_final: flags.contains("ACC_FINAL"),
                };
            }
        } else if let Some(entry) = trimmed.strip_prefix("line ") {
            let (line_no, pc) = entry.split_once(": ").ok_or("a line entry without pc")?;
            let line_no = line_no.trim().parse().map_err(|_| "a bad line number")?;
            let pc = pc.trim().parse().map_err(|_| "a bad pc")?;
            method.lines.push((pc, line_no));
        } else if let Some(handler) = catch_all_handler(trimmed) {
            method.catch_all.push(handler);
        } else if let Some(instruction) = instruction(trimmed, &class.name)? {
            method.code.push(instruction);
        }
        Ok(())
    }

    fn end_method(&mut self) {
        if let (Some(m), Some(c)) = (self.method.take(), self.class.as_mut()) {
            if m.descriptor.starts_with('(') {
                c.methods.push(m);
            }
        }
    }

    fn finish(&mut self) {
        self.end_method();
        self.in_members = false;
        self.in_field = false;
        if let Some(c) = self.class.take() {
            if !c.name.is_empty() {
                self.classes.push(c);
            }
        }
    }
}

/// A member declaration: two spaces of indent, then text ending in `;`.
fn is_member_line(line: &str) -> bool {
    line.starts_with("  ") && !line.starts_with("   ") && line.ends_with(';')
}

/// A method's name from its declaration line (`public int f(int);`, `a.B(int);` for a
/// constructor, `static {};`).
fn member_name(line: &str, dotted: &str) -> String {
    if line == "static {};" {
        return "<clinit>".into();
    }
    let head = line.split('(').next().unwrap_or(line);
    let token = head.rsplit(' ').next().unwrap_or(head);
    if token == dotted {
        "<init>".into()
    } else {
        token.to_string()
    }
}

/// The text after `// ` on a `this_class:` or instruction line.
fn comment(rest: &str) -> Option<&str> {
    rest.split_once("// ").map(|(_, c)| c.trim())
}

/// The class header (`public final class a.B extends a.C<T> implements a.I, a.J<K>`):
/// the interfaces are read from it (the superclass comes from `super_class:`).
fn read_header(line: &str, class: &mut ClassFile) {
    let plain = without_type_arguments(line);
    let listed = |keyword: &str| -> Vec<String> {
        plain
            .split_once(keyword)
            .map(|(_, rest)| {
                let rest = rest.split(" implements ").next().unwrap_or(rest);
                rest.split(',')
                    .map(|s| s.trim().replace('.', "/"))
                    .filter(|s| !s.is_empty())
                    .collect()
            })
            .unwrap_or_default()
    };
    class.interfaces = if plain.contains("interface ") {
        listed(" extends ")
    } else {
        listed(" implements ")
    };
}

/// The text with every `<…>` (nested) removed.
fn without_type_arguments(text: &str) -> String {
    let mut depth = 0usize;
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '<' => depth += 1,
            '>' => depth = depth.saturating_sub(1),
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}

/// The handler pc of an exception table row `from to target any`.
fn catch_all_handler(trimmed: &str) -> Option<u32> {
    let fields: Vec<&str> = trimmed.split_whitespace().collect();
    match fields.as_slice() {
        [from, to, target, "any"] if from.parse::<u32>().is_ok() && to.parse::<u32>().is_ok() => {
            target.parse().ok()
        }
        _ => None,
    }
}

/// A numbered instruction the readings use (`12: invokevirtual #7 // Method a/B.f:()V`,
/// `3: new #2 // class a/B`); `None` for every other line.
fn instruction(trimmed: &str, this_class: &str) -> Result<Option<Instruction>, String> {
    let Some((number, rest)) = trimmed.split_once(": ") else {
        return Ok(None);
    };
    let Ok(offset) = number.parse::<u32>() else {
        return Ok(None);
    };
    let opcode = rest.split_whitespace().next().unwrap_or("");
    let kind = match opcode {
        "invokevirtual" => InvokeKind::Virtual,
        "invokestatic" => InvokeKind::Static,
        "invokespecial" => InvokeKind::Special,
        "invokeinterface" => InvokeKind::Interface,
        "invokedynamic" => InvokeKind::Dynamic,
        "athrow" => return Ok(Some(Instruction::Throw { offset })),
        "new" => {
            let class = comment(rest).and_then(|c| c.strip_prefix("class "));
            let class = class.ok_or("a `new` without its class")?;
            return Ok(Some(Instruction::New {
                offset,
                class: unquote(class).to_string(),
            }));
        }
        _ => return Ok(None),
    };
    let reference = comment(rest).ok_or("an invoke without its method")?;
    if kind == InvokeKind::Dynamic {
        // `InvokeDynamic #0:run:(LA;)Ljava/lang/Runnable;`: no class, the bootstrap's name.
        let mut parts = reference.splitn(3, ':');
        let _ = parts.next();
        let name = parts.next().ok_or("an invokedynamic without a name")?;
        let descriptor = parts.next().unwrap_or("");
        return Ok(Some(Instruction::Invoke(Invoke {
            offset,
            kind,
            owner: String::new(),
            name: name.to_string(),
            descriptor: descriptor.to_string(),
        })));
    }
    let reference = reference
        .strip_prefix("InterfaceMethod ")
        .or_else(|| reference.strip_prefix("Method "))
        .ok_or("an invoke of something not a method")?;
    let (target, descriptor) = reference
        .rsplit_once(':')
        .ok_or("an invoke without a descriptor")?;
    let (owner, name) = split_owner(target);
    Ok(Some(Instruction::Invoke(Invoke {
        offset,
        kind,
        owner: owner.map_or(this_class, unquote).to_string(),
        name: unquote(name).to_string(),
        descriptor: descriptor.to_string(),
    })))
}

/// `a/B.f` → (a/B, f); `"[I".clone` → ([I, clone); `f` → (None, f); `"<init>"` and
/// `a/B."<init>"` alike.
fn split_owner(target: &str) -> (Option<&str>, &str) {
    if let Some(name) = target.strip_suffix("\"<init>\"") {
        return (name.strip_suffix('.'), "<init>");
    }
    match target.rsplit_once('.') {
        Some((owner, name)) => (Some(owner), name),
        None => (None, target),
    }
}

fn unquote(text: &str) -> &str {
    text.strip_prefix('"')
        .and_then(|t| t.strip_suffix('"'))
        .unwrap_or(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two classes as `javap -c -l -p -v` prints them (constant pools shortened).
    const TEXT: &str = r#"Classfile /tmp/out/a/A.class
  Last modified Dec 2, 2026; size 1990 bytes
  SHA-256 checksum 0f5b
  Compiled from "A.java"
public class a.A<T extends java.lang.Comparable<T>> extends a.Base<T> implements java.lang.Comparable<a.A<T>>, a.I
  minor version: 0
  major version: 52
  flags: (0x0021) ACC_PUBLIC, ACC_SUPER
  this_class: #8                          // a/A
  super_class: #2                         // a/Base
  interfaces: 2, fields: 1, methods: 4, attributes: 3
Constant pool:
   #1 = Methodref          #2.#3          // a/Base."<init>":()V
   #7 = Fieldref           #8.#9          // a/A.v:Ljava/lang/Comparable;
{
  T v;
    descriptor: Ljava/lang/Comparable;
    flags: (0x0000)
    Signature: #71                          // TT;

  a.A(T);
    descriptor: (Ljava/lang/Comparable;)V
    flags: (0x0000)
    Code:
      stack=2, locals=2, args_size=2
         0: aload_0
         1: invokespecial #1                  // Method a/Base."<init>":()V
         4: aload_0
         5: aload_1
         6: putfield      #7                  // Field v:Ljava/lang/Comparable;
         9: return
      LineNumberTable:
        line 7: 0
        line 8: 4
      LocalVariableTable:
        Start  Length  Slot  Name   Signature
            0      10     1     v   TT;

  void f(int);
    descriptor: (I)V
    flags: (0x0000)
    Code:
      stack=4, locals=4, args_size=2
         0: aload_0
         1: invokevirtual #19                 // Method g:()V
         4: new           #37                 // class a/A$Inner
         7: dup
         8: aload_0
         9: iconst_1
        10: invokespecial #39                 // Method a/A$Inner."<init>":(La/A;I)V
        13: invokedynamic #22,  0             // InvokeDynamic #0:run:(La/A;)Ljava/lang/Runnable;
        18: astore_2
        19: aload_2
        20: invokeinterface #26,  1           // InterfaceMethod java/lang/Runnable.run:()V
        25: tableswitch   { // 1 to 2
                       1: 28
                 default: 29
            }
        28: athrow
      Exception table:
         from    to  target type
             0     4    19   any
             0     4    25   Class java/lang/Exception
      LineNumberTable:
        line 9: 0
        line 10: 4
        line 12: 19
      StackMapTable: number_of_entries = 1
        frame_type = 252 /* append */

  public int compareTo(java.lang.Object);
    descriptor: (Ljava/lang/Object;)I
    flags: (0x1041) ACC_PUBLIC, ACC_BRIDGE, ACC_SYNTHETIC
    Code:
      stack=2, locals=2, args_size=2
         0: aload_0
         1: aload_1
         2: checkcast     #8                  // class a/A
         5: invokevirtual #63                 // Method compareTo:(La/A;)I
         8: ireturn
      LineNumberTable:
        line 3: 0

  static {};
    descriptor: ()V
    flags: (0x0008) ACC_STATIC
    Code:
         0: invokestatic  #5                  // Method "[I".clone:()Ljava/lang/Object;
         3: return
}
Signature: #105                         // <T::Ljava/lang/Comparable<TT;>;>La/Base<TT;>;
SourceFile: "A.java"
Classfile /tmp/out/a/I.class
  Compiled from "I.java"
public interface a.I extends a.J<java.lang.String>, a.K
  flags: (0x0601) ACC_PUBLIC, ACC_INTERFACE, ACC_ABSTRACT
  this_class: #1                          // a/I
  super_class: #3                         // java/lang/Object
{
  public abstract void h(java.util.List<java.lang.String>);
    descriptor: (Ljava/util/List;)V
    flags: (0x0401) ACC_PUBLIC, ACC_ABSTRACT
}
SourceFile: "I.java"
"#;

    #[test]
    fn classes_methods_invokes_and_lines_are_read() {
        let classes = read(TEXT).unwrap();
        assert_eq!(classes.len(), 2);
        let a = &classes[0];
        assert_eq!(a.name, "a/A");
        assert_eq!(a.super_name.as_deref(), Some("a/Base"));
        assert_eq!(a.interfaces, vec!["java/lang/Comparable", "a/I"]);
        assert!(!a.is_interface && !a.synthetic);
        let names: Vec<_> = a.methods.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(names, vec!["<init>", "f", "compareTo", "<clinit>"]);
        let init = &a.methods[0];
        assert_eq!(init.descriptor, "(Ljava/lang/Comparable;)V");
        assert_eq!(init.lines, vec![(0, 7), (4, 8)]);
        let f = &a.methods[1];
        assert_eq!(f.code.len(), 6, "{:?}", f.code);
        assert_eq!(f.code[5], Instruction::Throw { offset: 28 });
        assert_eq!(f.catch_all, vec![19]);
        assert_eq!(
            f.code[1],
            Instruction::New {
                offset: 4,
                class: "a/A$Inner".into()
            }
        );
        let invokes: Vec<_> = f
            .invokes()
            .map(|i| {
                (
                    i.kind,
                    i.owner.as_str(),
                    i.name.as_str(),
                    f.line_at(i.offset),
                )
            })
            .collect();
        assert_eq!(
            invokes,
            vec![
                (InvokeKind::Virtual, "a/A", "g", Some(9)),
                (InvokeKind::Special, "a/A$Inner", "<init>", Some(10)),
                (InvokeKind::Dynamic, "", "run", Some(10)),
                (InvokeKind::Interface, "java/lang/Runnable", "run", Some(12)),
            ]
        );
        let bridge = &a.methods[2];
        assert!(bridge.flags.bridge && bridge.flags.synthetic);
        let clinit = &a.methods[3];
        assert!(clinit.flags.is_static);
        assert_eq!(clinit.invokes().next().unwrap().owner, "[I");
        assert_eq!(clinit.line_at(0), None);
        let i = &classes[1];
        assert!(i.is_interface);
        assert_eq!(i.interfaces, vec!["a/J", "a/K"]);
        assert_eq!(i.methods[0].name, "h");
        assert!(i.methods[0].code.is_empty());
    }

    #[test]
    fn descriptors_split_into_parameters() {
        assert_eq!(
            parameters("(I[JLa/B;[[La/C$D;Z)V").unwrap(),
            vec!["I", "[J", "La/B;", "[[La/C$D;", "Z"]
        );
        assert_eq!(parameters("()V").unwrap(), Vec::<String>::new());
        assert!(parameters("I").is_none());
        assert!(parameters("(La/B").is_none());
    }
}
