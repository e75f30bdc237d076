//! The call sites the compiled classes hold, as a truth: the second reading of a JVM
//! oracle (javac, kotlinc) from the bytecode `javap` prints (`crate::javap`).
//!
//! Each invoke instruction of a class of the tree is a site, at the line its method's
//! LineNumberTable gives (bytecode has no column: sites carry none, and the
//! crosscheck pairs a line's calls of one name as multisets). The site is named as the
//! source writes the call: the method's name; for a construction (`new C` … `C.<init>`)
//! the class's simple name (an anonymous class's: its superclass's, else its
//! interface's); for a constructor's call of its own class's or its superclass's
//! constructor, `this` or `super`.
//!
//! The callee the instruction names (owner class, name, descriptor) is resolved as the
//! JVM resolves it, over the tree's classes: the owner's own methods, then its
//! superclasses', then its interfaces'. A bridge method or a synthetic accessor
//! (`access$000`, a private constructor's access constructor) stands for the method its
//! body calls; an accessor whose body calls nothing reads a field and is no call. The
//! declaration found is placed by [`Declarations`] (where the source declares each
//! class and method); a constructor or member the compiler generated is the class's
//! line. A callee whose resolution leaves the tree is `outside` with the class the
//! instruction names.
//!
//! Set apart as `implicit` (never compared): calls inside a bridge method (`bridge`)
//! and inside any other method or class the compiler synthesized, except a lambda's
//! body (`synthetic`); the construction of an enum's constants in its static
//! initializer (`enum_constant`); a call whose name the source does not write on its
//! line (`not_written`: the compiler's own calls — string concatenation's
//! `StringBuilder`, boxing's `valueOf`/`intValue`, the enhanced `for`'s `iterator`/
//! `hasNext`/`next`, `assert`'s `desiredAssertionStatus`, an implicit `super()`, an
//! enum switch's `ordinal`, `try`-with-resources' `close`). Not sites:
//! `invokedynamic` (a lambda's or method reference's creation, string concatenation:
//! no callee the source names at the instruction). A `finally` block's calls count
//! once per copy the handler holds, not once per way out of the `try`.

use std::collections::{BTreeMap, HashMap};

use crate::javap::{parameters, ClassFile, Instruction, Invoke, InvokeKind, Method};
use crate::truth::{OracleStamp, Truth, TruthSite, TruthTarget, TRUTH_SCHEMA};

/// How many synthetic methods (bridge → accessor → …) a resolution follows.
const MAX_FOLLOW: usize = 4;

/// How many superclasses and superinterfaces a resolution visits.
const MAX_SUPERS: usize = 256;

/// A method's overloads: (parameter descriptors, line of the name).
pub type Overloads = Vec<(Vec<String>, u32)>;

/// Where the source declares each class and method of the tree.
#[derive(Debug, Default, Clone)]
pub struct Declarations {
    /// Internal class name → (file, line of its name).
    pub classes: HashMap<String, (String, u32)>,
    /// (internal owner, method name or `<init>`) → (parameter descriptors, line).
    pub methods: HashMap<(String, String), Overloads>,
    /// (internal owner, name, descriptor) of methods the tree's declarations could not
    /// place (the kotlinc reading's): a call of one is not judged, rather than given
    /// another overload's line or the class's.
    pub unplaced: std::collections::HashSet<(String, String, String)>,
}

impl Declarations {
    pub fn add_class(&mut self, name: &str, file: &str, line: u32) {
        self.classes
            .insert(name.to_string(), (file.to_string(), line));
    }

    pub fn add_method(&mut self, owner: &str, name: &str, params: Vec<String>, line: u32) {
        self.methods
            .entry((owner.to_string(), name.to_string()))
            .or_default()
            .push((params, line));
    }

    /// The line of `owner.name` with the bytecode's parameters `params`: the overload
    /// with those parameters; for a constructor, else the one whose parameters are a
    /// run of the bytecode's (the compiler adds the enclosing instance, an enum's name
    /// and ordinal, captured locals), the longest such when only one is that long; for
    /// a method, else the only overload.
    fn method_line(&self, owner: &str, name: &str, params: &[String]) -> Option<u32> {
        let overloads = self.methods.get(&(owner.to_string(), name.to_string()))?;
        if let Some((_, line)) = overloads.iter().find(|(p, _)| p == params) {
            return Some(*line);
        }
        let fitting: Vec<(usize, u32)> = overloads
            .iter()
            .filter(|(p, _)| name != "<init>" || is_run_of(p, params))
            .map(|(p, line)| (p.len(), *line))
            .collect();
        let longest = fitting.iter().map(|(n, _)| *n).max()?;
        match fitting
            .iter()
            .filter(|(n, _)| *n == longest)
            .collect::<Vec<_>>()
            .as_slice()
        {
            [(_, line)] => Some(*line),
            _ => None,
        }
    }
}

/// Whether `part` appears as a contiguous run of `whole`.
fn is_run_of(part: &[String], whole: &[String]) -> bool {
    part.is_empty() || whole.windows(part.len()).any(|w| w == part)
}

/// What an instruction's callee resolves to.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Resolved {
    /// A method of an in-tree class (the class, the method's name and descriptor).
    /// `also_outside`: found in an interface while a supertype outside the tree may
    /// declare the same method — the JVM's maximally specific methods are then
    /// several, and the outside one is as acceptable.
    InTree {
        class: String,
        name: String,
        descriptor: String,
        also_outside: bool,
    },
    /// An in-tree class declares no such method: the compiler generated it (a default
    /// constructor, an enum's `values`), or it lies in an outside supertype.
    Generated {
        class: String,
    },
    /// A field read or written through a synthetic accessor: not a call.
    FieldAccess,
    /// A call the class files do not bind for the source: a default-arguments stub's
    /// dispatched call (judged by neither declaration: `no_declaration`).
    Unplaced {
        name: String,
    },
    Outside,
}

/// The tree's classes by internal name.
pub struct Classes<'a> {
    by_name: HashMap<&'a str, &'a ClassFile>,
}

impl<'a> Classes<'a> {
    pub fn new(classes: &'a [ClassFile]) -> Self {
        Classes {
            by_name: classes.iter().map(|c| (c.name.as_str(), c)).collect(),
        }
    }

    fn get(&self, name: &str) -> Option<&'a ClassFile> {
        self.by_name.get(name).copied()
    }

    /// The class that declares `name descriptor` for a call naming `owner`: the owner,
    /// its superclasses, then the interfaces of them all (breadth first).
    fn declaring(
        &self,
        owner: &str,
        name: &str,
        descriptor: &str,
    ) -> Option<(&'a ClassFile, &'a Method, bool)> {
        let mut interfaces = Vec::new();
        let mut current = self.get(owner);
        let mut visited = 0;
        while let Some(class) = current {
            if let Some(m) = find(class, name, descriptor) {
                return Some((class, m, false));
            }
            interfaces.extend(class.interfaces.iter().map(String::as_str));
            visited += 1;
            if visited > MAX_SUPERS {
                return None;
            }
            current = class.super_name.as_deref().and_then(|s| self.get(s));
        }
        let mut k = 0;
        while k < interfaces.len() && k < MAX_SUPERS {
            if let Some(class) = self.get(interfaces[k]) {
                if let Some(m) = find(class, name, descriptor) {
                    return Some((class, m, true));
                }
                interfaces.extend(class.interfaces.iter().map(String::as_str));
            }
            k += 1;
        }
        None
    }

    /// Resolves an invoke's callee, following bridges and accessors to the method
    /// they stand for.
    fn resolve(&self, owner: &str, name: &str, descriptor: &str) -> Resolved {
        let (mut owner, mut name, mut descriptor) =
            (owner.to_string(), name.to_string(), descriptor.to_string());
        for _ in 0..MAX_FOLLOW {
            let Some(start) = self.get(&owner) else {
                return Resolved::Outside;
            };
            let Some((class, method, in_interface)) = self.declaring(&owner, &name, &descriptor)
            else {
                return match name == "<init>" || self.supers_in_tree(start) {
                    true => Resolved::Generated { class: owner },
                    false => Resolved::Outside,
                };
            };
            if !method.flags.synthetic || is_lambda_body(&method.name) {
                return Resolved::InTree {
                    class: class.name.clone(),
                    name: method.name.clone(),
                    descriptor: method.descriptor.clone(),
                    also_outside: in_interface && !self.supers_in_tree(start),
                };
            }
            let Some(next) = stands_for(&class.name, method) else {
                return Resolved::FieldAccess;
            };
            // A default-arguments stub is the class's that declares the defaults: its
            // dispatched call no longer knows the receiver's type the source wrote
            // (an override's class), unless nothing can override what it calls.
            if is_default_stub(method)
                && matches!(next.kind, InvokeKind::Virtual | InvokeKind::Interface)
                && !self.is_final_method(&next.owner, &next.name, &next.descriptor)
            {
                return Resolved::Unplaced {
                    name: next.name.clone(),
                };
            }
            (owner, name, descriptor) = (
                next.owner.clone(),
                next.name.clone(),
                next.descriptor.clone(),
            );
        }
        Resolved::Outside
    }

    /// Whether the method a call names can have no override: it is final, or its
    /// class is.
    fn is_final_method(&self, owner: &str, name: &str, descriptor: &str) -> bool {
        self.get(owner).is_some_and(|class| {
            class.is_final
                || self
                    .declaring(owner, name, descriptor)
                    .is_some_and(|(_, m, _)| m.flags.is_final)
        })
    }

    /// Whether every supertype of `class` — superclasses and interfaces, transitively
    /// — lies in the tree, `java/lang/Object` aside (so a method none declares is one
    /// the compiler generated, not an inherited outside one).
    fn supers_in_tree(&self, class: &ClassFile) -> bool {
        let mut pending: Vec<&ClassFile> = vec![class];
        let mut visited = 0;
        while let Some(c) = pending.pop() {
            visited += 1;
            if visited > MAX_SUPERS {
                return false;
            }
            let supers = c.super_name.iter().chain(&c.interfaces);
            for s in supers.filter(|s| *s != "java/lang/Object") {
                match self.get(s) {
                    Some(next) => pending.push(next),
                    None => return false,
                }
            }
        }
        true
    }
}

fn find<'c>(class: &'c ClassFile, name: &str, descriptor: &str) -> Option<&'c Method> {
    class
        .methods
        .iter()
        .find(|m| m.name == name && m.descriptor == descriptor)
}

/// The call a synthetic method's body makes (a bridge's target, an accessor's
/// method), when it makes one. Kotlin's default-arguments stub (`f$default`, a
/// constructor ending in a `DefaultConstructorMarker`) first computes the omitted
/// arguments, whose calls come before the one it stands for: it stands for its last
/// call of `f` (of its own class's constructor).
fn stands_for<'m>(class: &str, method: &'m Method) -> Option<&'m Invoke> {
    if !is_default_stub(method) {
        return method.invokes().find(|i| i.kind != InvokeKind::Dynamic);
    }
    if let Some(base) = method.name.strip_suffix("$default") {
        return method.invokes().filter(|i| i.name == base).last();
    }
    method
        .invokes()
        .filter(|i| i.name == "<init>" && i.owner == class)
        .last()
}

/// Kotlin's default-arguments stub: a synthetic `f$default`, or a synthetic
/// constructor whose last parameter is a `DefaultConstructorMarker`.
fn is_default_stub(method: &Method) -> bool {
    method.flags.synthetic
        && (method.name.ends_with("$default")
            || (method.name == "<init>" && method.descriptor.contains(DEFAULT_MARKER)))
}

/// The last parameter of a Kotlin constructor's default-arguments stub.
const DEFAULT_MARKER: &str = "Lkotlin/jvm/internal/DefaultConstructorMarker;)";

/// A method the compiler made of a lambda's body, whose calls the source writes:
/// javac's `lambda$m$0`, kotlinc's `m$lambda$0`.
fn is_lambda_body(name: &str) -> bool {
    name.starts_with("lambda$") || name.contains("$lambda$")
}

/// The name the source writes for a call of `name`: a Kotlin default-arguments
/// stub's (`f$default`) is the function's.
fn written_method_name(name: &str) -> &str {
    name.strip_suffix("$default").unwrap_or(name)
}

/// The simple name of a class as the source writes it at a construction:
/// `a/B$C` → `C`, a local `a/B$1L` → `L`; an anonymous `a/B$1` → its superclass's,
/// else its first interface's simple name.
fn written_class_name(classes: &Classes<'_>, internal: &str) -> String {
    let simple = simple_name(internal);
    if !simple.is_empty() {
        return simple.to_string();
    }
    let Some(class) = classes.get(internal) else {
        return internal
            .rsplit(['/', '$'])
            .next()
            .unwrap_or(internal)
            .to_string();
    };
    let named = match class.super_name.as_deref() {
        Some("java/lang/Object") | None => class.interfaces.first().map(String::as_str),
        Some(s) => Some(s),
    };
    named.map_or_else(String::new, |n| simple_name(n).to_string())
}

/// `a/B$C` → `C`; `a/B$1L` → `L`; `a/B$1` → `` (anonymous).
fn simple_name(internal: &str) -> &str {
    let last = internal.rsplit('/').next().unwrap_or(internal);
    let last = last.rsplit('$').next().unwrap_or(last);
    last.trim_start_matches(|c: char| c.is_ascii_digit())
}

/// Why calls in `method` of `class` are set apart, when they are.
fn set_apart(class: &ClassFile, method: &Method) -> Option<&'static str> {
    if method.flags.bridge {
        Some("bridge")
    } else if (method.flags.synthetic && !is_lambda_body(&method.name)) || class.synthetic {
        Some("synthetic")
    } else {
        None
    }
}

/// A bytecode reading's truth: the sites the classes give (each placed by the
/// source's words), under the reading's stamp, validated as `origin`.
pub fn reading_truth(
    corpus: &str,
    oracle: OracleStamp,
    classes: &[ClassFile],
    declarations: &Declarations,
    words: &SourceWords,
    origin: &str,
) -> Result<Truth, String> {
    let truth = Truth {
        schema: TRUTH_SCHEMA.into(),
        corpus: corpus.into(),
        oracle,
        shape: None,
        sites: sites(classes, declarations, &|f, l, n| words.writes(f, l, n)),
        references: None,
        pairs: Vec::new(),
    };
    truth.validate(origin).map_err(|e| e.to_string())?;
    Ok(truth)
}

/// The truth sites of the tree's classes (those `declarations` places), sorted.
/// Instance initializers are copied into each constructor that calls `super(…)`: a
/// class's constructors contribute, per (line, name, targets), the most any one of
/// them holds, not their sum.
pub fn sites(
    classes: &[ClassFile],
    declarations: &Declarations,
    written: Written<'_>,
) -> Vec<TruthSite> {
    let index = Classes::new(classes);
    let mut sites = Vec::new();
    for class in classes {
        let Some((file, _)) = declarations.classes.get(&class.name) else {
            continue;
        };
        let mut in_constructors: BTreeMap<SiteKey, usize> = BTreeMap::new();
        for method in &class.methods {
            let found = method_sites(&index, declarations, written, class, method, file);
            if method.name != "<init>" {
                sites.extend(found);
                continue;
            }
            let mut counts: BTreeMap<SiteKey, usize> = BTreeMap::new();
            for site in found {
                *counts.entry(SiteKey::of(&site)).or_default() += 1;
            }
            for (key, n) in counts {
                let most = in_constructors.entry(key).or_default();
                *most = (*most).max(n);
            }
        }
        for (key, n) in in_constructors {
            sites.extend(std::iter::repeat_with(|| key.site(file)).take(n));
        }
    }
    sites.sort_by(|a, b| {
        (
            &a.file,
            a.line,
            &a.name,
            &a.targets,
            &a.implicit,
            &a.unjudged,
        )
            .cmp(&(
                &b.file,
                b.line,
                &b.name,
                &b.targets,
                &b.implicit,
                &b.unjudged,
            ))
    });
    sites
}

/// A site without its file, to count copies.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct SiteKey {
    line: u32,
    name: String,
    targets: Vec<TruthTarget>,
    implicit: Option<String>,
    unjudged: Option<String>,
}

impl SiteKey {
    fn of(site: &TruthSite) -> Self {
        SiteKey {
            line: site.line,
            name: site.name.clone(),
            targets: site.targets.clone(),
            implicit: site.implicit.clone(),
            unjudged: site.unjudged.clone(),
        }
    }

    fn site(&self, file: &str) -> TruthSite {
        TruthSite {
            file: file.to_string(),
            line: self.line,
            column: None,
            caller: None,
            name: self.name.clone(),
            targets: self.targets.clone(),
            unjudged: self.unjudged.clone(),
            implicit: self.implicit.clone(),
            expect: None,
            primary: false,
        }
    }
}

/// Whether the source writes a name on a line: `written(file, line, name)`.
pub type Written<'a> = &'a dyn Fn(&str, u32, &str) -> bool;

/// The identifiers each line of the tree's files holds (comments and literals
/// included: a word there keeps a call judged, it never sets one apart).
#[derive(Debug, Default)]
pub struct SourceWords {
    files: HashMap<String, Vec<std::collections::HashSet<String>>>,
}

impl SourceWords {
    pub fn add(&mut self, file: &str, text: &str) {
        let lines = text
            .split('\n')
            .map(|line| {
                line.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
                    .filter(|w| !w.is_empty())
                    .map(str::to_string)
                    .collect()
            })
            .collect();
        self.files.insert(file.to_string(), lines);
    }

    /// Whether `file`'s 1-based `line` writes the identifier `name` (an unread file
    /// writes everything: nothing is set apart for want of its text).
    pub fn writes(&self, file: &str, line: u32, name: &str) -> bool {
        match self.files.get(file) {
            None => true,
            Some(lines) => line
                .checked_sub(1)
                .and_then(|i| lines.get(i as usize))
                .is_some_and(|words| words.contains(name)),
        }
    }
}

/// The sites of one method's code. A `finally` block's code is copied on each way
/// out of its `try`: a call the handler's copy holds (from a catch-all handler to its
/// `athrow`) counts as many times as that copy holds it.
fn method_sites(
    index: &Classes<'_>,
    declarations: &Declarations,
    written: Written<'_>,
    class: &ClassFile,
    method: &Method,
    file: &str,
) -> Vec<TruthSite> {
    let apart = set_apart(class, method);
    let mut pending_new: Vec<(&str, u32)> = Vec::new();
    let mut found: Vec<(u32, TruthSite)> = Vec::new();
    for instruction in &method.code {
        let invoke = match instruction {
            Instruction::New { class, offset } => {
                pending_new.push((class, *offset));
                continue;
            }
            Instruction::Invoke(i) if i.kind != InvokeKind::Dynamic => i,
            _ => continue,
        };
        let created = match pending_new.last() {
            Some((c, at)) if invoke.name == "<init>" && *c == invoke.owner => Some(*at),
            _ => None,
        };
        if created.is_some() {
            pending_new.pop();
        }
        // A construction is placed at its `new`: the constructor's invoke follows
        // the arguments, which may lie on later lines.
        let Some(line) = method.line_at(created.unwrap_or(invoke.offset)) else {
            continue;
        };
        let resolved = index.resolve(&invoke.owner, &invoke.name, &invoke.descriptor);
        let Some((name, targets)) = target(declarations, invoke, &resolved) else {
            continue;
        };
        let name = match (invoke.name.as_str(), created.is_some()) {
            ("<init>", true) => written_class_name(index, &invoke.owner),
            ("<init>", false) if invoke.owner == class.name => "this".into(),
            ("<init>", false) => "super".into(),
            _ => name,
        };
        let implicit = apart
            .or_else(|| {
                (created.is_some() && is_enum_constant(index, class, method, &invoke.owner))
                    .then_some("enum_constant")
            })
            .or_else(|| (!written(file, line, &name)).then_some("not_written"));
        let judged = targets.is_some();
        found.push((
            invoke.offset,
            TruthSite {
                file: file.to_string(),
                line,
                column: None,
                caller: None,
                name,
                targets: targets.unwrap_or_default(),
                unjudged: (!judged && implicit.is_none()).then(|| "no_declaration".to_string()),
                implicit: implicit.map(str::to_string),
                expect: None,
                primary: false,
            },
        ));
    }
    without_finally_copies(method, found)
}

/// A construction of an enum's constant (the enum or its constant's body class) in
/// the enum's static initializer: no source text writes it.
fn is_enum_constant(
    index: &Classes<'_>,
    class: &ClassFile,
    method: &Method,
    created: &str,
) -> bool {
    let is_enum = class.super_name.as_deref() == Some("java/lang/Enum");
    let of_enum = created == class.name
        || index
            .get(created)
            .is_some_and(|c| c.super_name.as_deref() == Some(class.name.as_str()));
    method.name == "<clinit>" && is_enum && of_enum
}

/// The sites, each call a `finally` handler's copy holds kept as often as that copy
/// holds it.
fn without_finally_copies(method: &Method, found: Vec<(u32, TruthSite)>) -> Vec<TruthSite> {
    let mut limits: BTreeMap<SiteKey, usize> = BTreeMap::new();
    for &handler in &method.catch_all {
        let end = method
            .code
            .iter()
            .find_map(|i| match i {
                Instruction::Throw { offset } if *offset >= handler => Some(*offset),
                _ => None,
            })
            .unwrap_or(u32::MAX);
        let mut in_copy: BTreeMap<SiteKey, usize> = BTreeMap::new();
        for (offset, site) in &found {
            if (handler..end).contains(offset) {
                *in_copy.entry(SiteKey::of(site)).or_default() += 1;
            }
        }
        for (key, n) in in_copy {
            let limit = limits.entry(key).or_default();
            *limit = (*limit).max(n);
        }
    }
    let mut kept: BTreeMap<SiteKey, usize> = BTreeMap::new();
    let mut sites = Vec::new();
    for (_, site) in found {
        let key = SiteKey::of(&site);
        if let Some(limit) = limits.get(&key) {
            let n = kept.entry(key).or_default();
            if *n >= *limit {
                continue;
            }
            *n += 1;
        }
        sites.push(site);
    }
    sites
}

/// The site's name (the resolved method's, so an accessor's call is named as the
/// source writes it) and targets (`None`: in the tree, but no declaration places it);
/// `None` altogether for a field accessor.
fn target(
    declarations: &Declarations,
    invoke: &Invoke,
    resolved: &Resolved,
) -> Option<(String, Option<Vec<TruthTarget>>)> {
    let class_line = |class: &str| {
        declarations
            .classes
            .get(class)
            .map(|(file, line)| TruthTarget::InTree {
                file: file.clone(),
                line: *line,
            })
    };
    Some(match resolved {
        Resolved::FieldAccess => return None,
        Resolved::Unplaced { name } => (name.clone(), None),
        Resolved::Outside => {
            let symbol = match invoke.name.as_str() {
                "<init>" => invoke.owner.replace('/', "."),
                n => format!("{}.{n}", invoke.owner.replace('/', ".")),
            };
            (
                written_method_name(&invoke.name).to_string(),
                Some(vec![TruthTarget::Outside { symbol }]),
            )
        }
        Resolved::Generated { class } => (invoke.name.clone(), class_line(class).map(|t| vec![t])),
        Resolved::InTree {
            class,
            name,
            descriptor,
            also_outside,
        } => {
            let params = parameters(descriptor).unwrap_or_default();
            let unplaced =
                declarations
                    .unplaced
                    .contains(&(class.clone(), name.clone(), descriptor.clone()));
            let line = match unplaced {
                true => None,
                false => declarations.method_line(class, name, &params),
            };
            let placed = match (line, declarations.classes.get(class)) {
                (Some(line), Some((file, _))) => Some(TruthTarget::InTree {
                    file: file.clone(),
                    line,
                }),
                // A constructor or member the class does not write (a default
                // constructor, an enum's `values`): the class stands for it.
                (None, Some(_)) if !unplaced && !declares_any(declarations, class, name) => {
                    class_line(class)
                }
                _ => None,
            };
            let outside = also_outside.then(|| TruthTarget::Outside {
                symbol: format!("{}.{name}", invoke.owner.replace('/', ".")),
            });
            (
                name.clone(),
                placed.map(|t| std::iter::once(t).chain(outside).collect()),
            )
        }
    })
}

fn declares_any(declarations: &Declarations, class: &str, name: &str) -> bool {
    declarations
        .methods
        .contains_key(&(class.to_string(), name.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn class(name: &str, super_name: &str, methods: Vec<Method>) -> ClassFile {
        ClassFile {
            name: name.into(),
            super_name: Some(super_name.into()),
            methods,
            ..ClassFile::default()
        }
    }

    fn method(name: &str, descriptor: &str, code: Vec<Instruction>) -> Method {
        Method {
            name: name.into(),
            descriptor: descriptor.into(),
            code,
            lines: vec![(0, 10), (5, 11)],
            ..Method::default()
        }
    }

    fn invoke(offset: u32, kind: InvokeKind, owner: &str, name: &str, d: &str) -> Instruction {
        Instruction::Invoke(Invoke {
            offset,
            kind,
            owner: owner.into(),
            name: name.into(),
            descriptor: d.into(),
        })
    }

    fn at(line: u32) -> TruthTarget {
        TruthTarget::InTree {
            file: "a/A.java".into(),
            line,
        }
    }

    #[test]
    fn calls_resolve_through_supers_accessors_and_bridges() {
        let mut accessor = method(
            "access$000",
            "(La/A;)V",
            vec![invoke(1, InvokeKind::Special, "a/A", "secret", "()V")],
        );
        accessor.flags.synthetic = true;
        accessor.flags.is_static = true;
        let mut field_accessor = method("access$100", "(La/A;)I", vec![]);
        field_accessor.flags.synthetic = true;
        let a = class(
            "a/A",
            "a/Base",
            vec![
                method("secret", "()V", vec![]),
                accessor,
                field_accessor,
                method(
                    "<init>",
                    "()V",
                    vec![
                        invoke(1, InvokeKind::Special, "a/Base", "<init>", "()V"),
                        invoke(6, InvokeKind::Virtual, "java/util/List", "size", "()I"),
                    ],
                ),
                method(
                    "<init>",
                    "(I)V",
                    vec![
                        invoke(1, InvokeKind::Special, "a/A", "<init>", "()V"),
                        Instruction::New {
                            offset: 2,
                            class: "a/A$1".into(),
                        },
                        invoke(3, InvokeKind::Special, "a/A$1", "<init>", "(La/A;)V"),
                    ],
                ),
            ],
        );
        let base = class(
            "a/Base",
            "java/lang/Object",
            vec![method("inherited", "()V", vec![])],
        );
        let mut anonymous = class("a/A$1", "java/lang/Object", vec![]);
        anonymous.interfaces = vec!["a/I".into()];
        let inner = class(
            "a/A$In",
            "java/lang/Object",
            vec![method(
                "run",
                "()V",
                vec![
                    invoke(0, InvokeKind::Static, "a/A", "access$000", "(La/A;)V"),
                    invoke(1, InvokeKind::Static, "a/A", "access$100", "(La/A;)I"),
                    invoke(5, InvokeKind::Virtual, "a/A", "inherited", "()V"),
                    invoke(6, InvokeKind::Dynamic, "", "run", "()V"),
                ],
            )],
        );
        let classes = vec![a, base, anonymous, inner];
        let mut d = Declarations::default();
        d.add_class("a/A", "a/A.java", 1);
        d.add_class("a/Base", "a/A.java", 30);
        d.add_class("a/A$1", "a/A.java", 11);
        d.add_class("a/A$In", "a/A.java", 20);
        d.add_method("a/A", "secret", vec![], 3);
        d.add_method("a/A", "<init>", vec!["I".into()], 5);
        d.add_method("a/A", "<init>", vec![], 2);
        d.add_method("a/Base", "inherited", vec![], 31);
        let found = sites(&classes, &d, &|_, _, name| name != "size");
        let shown: Vec<_> = found
            .iter()
            .map(|s| {
                (
                    s.line,
                    s.name.as_str(),
                    s.targets.clone(),
                    s.implicit.clone(),
                )
            })
            .collect();
        let outside = TruthTarget::Outside {
            symbol: "java.util.List.size".into(),
        };
        assert_eq!(
            shown,
            vec![
                (10, "I", vec![at(11)], None),
                (10, "secret", vec![at(3)], None),
                (10, "secret", vec![at(3)], Some("synthetic".to_string())),
                (10, "super", vec![at(30)], None),
                (10, "this", vec![at(2)], None),
                (11, "inherited", vec![at(31)], None),
                (11, "size", vec![outside], Some("not_written".to_string())),
            ]
        );
    }

    #[test]
    fn a_finally_block_counts_once_and_unwritten_calls_are_set_apart() {
        // try { g(); } finally { f(); }: f is copied on the normal exit (pc 3) and in
        // the catch-all handler (pc 10 … athrow at 14).
        let mut m = method(
            "run",
            "()V",
            vec![
                invoke(1, InvokeKind::Virtual, "a/A", "g", "()V"),
                invoke(3, InvokeKind::Virtual, "a/A", "f", "()V"),
                invoke(11, InvokeKind::Virtual, "a/A", "f", "()V"),
                Instruction::Throw { offset: 14 },
                invoke(
                    15,
                    InvokeKind::Virtual,
                    "java/lang/StringBuilder",
                    "append",
                    "()V",
                ),
            ],
        );
        m.lines = vec![(0, 5)];
        m.catch_all = vec![10];
        let a = class(
            "a/A",
            "java/lang/Object",
            vec![m, method("f", "()V", vec![]), method("g", "()V", vec![])],
        );
        let mut d = Declarations::default();
        d.add_class("a/A", "a/A.java", 1);
        d.add_method("a/A", "f", vec![], 8);
        d.add_method("a/A", "g", vec![], 9);
        let mut words = SourceWords::default();
        words.add(
            "a/A.java",
            "class A {\n\n\n\n  void run() { try { g(); } finally { f(); } }\n",
        );
        let found = sites(&[a], &d, &|f, l, n| words.writes(f, l, n));
        let shown: Vec<_> = found
            .iter()
            .map(|s| (s.name.as_str(), s.implicit.as_deref()))
            .collect();
        assert_eq!(
            shown,
            vec![("append", Some("not_written")), ("f", None), ("g", None)]
        );
        assert!(words.writes("b/Unread.java", 3, "x"));
        assert!(!words.writes("a/A.java", 99, "f"));
    }

    #[test]
    fn an_interface_method_an_outside_supertype_may_declare_is_both() {
        // interface BufferedSink extends Sink, java.nio.channels.WritableByteChannel;
        // class Iter implements java.lang.Iterable (spliterator is Iterable's).
        let mut buffered = class("a/BufferedSink", "java/lang/Object", vec![]);
        buffered.interfaces = vec![
            "a/Sink".into(),
            "java/nio/channels/WritableByteChannel".into(),
        ];
        let sink = class(
            "a/Sink",
            "java/lang/Object",
            vec![method("close", "()V", vec![])],
        );
        let mut iter = class("a/Iter", "java/lang/Object", vec![]);
        iter.interfaces = vec!["java/lang/Iterable".into()];
        let user = class(
            "a/User",
            "java/lang/Object",
            vec![method(
                "run",
                "()V",
                vec![
                    invoke(0, InvokeKind::Interface, "a/BufferedSink", "close", "()V"),
                    invoke(1, InvokeKind::Virtual, "a/Iter", "spliterator", "()V"),
                ],
            )],
        );
        let mut d = Declarations::default();
        for (c, line) in [
            ("a/BufferedSink", 1),
            ("a/Sink", 2),
            ("a/Iter", 3),
            ("a/User", 4),
        ] {
            d.add_class(c, "a/A.java", line);
        }
        d.add_method("a/Sink", "close", vec![], 5);
        let found = sites(&[buffered, sink, iter, user], &d, &|_, _, _| true);
        let targets: Vec<_> = found
            .iter()
            .map(|s| (s.name.as_str(), s.targets.clone()))
            .collect();
        let outside = |symbol: &str| TruthTarget::Outside {
            symbol: symbol.into(),
        };
        assert_eq!(
            targets,
            vec![
                ("close", vec![at(5), outside("a.BufferedSink.close")]),
                ("spliterator", vec![outside("a.Iter.spliterator")]),
            ]
        );
    }

    #[test]
    fn constructors_match_by_a_run_of_their_parameters() {
        let mut d = Declarations::default();
        d.add_method("a/E", "<init>", vec!["I".into()], 4);
        d.add_method("a/E", "<init>", vec![], 6);
        let p = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            d.method_line("a/E", "<init>", &p(&["Ljava/lang/String;", "I", "I"])),
            Some(4)
        );
        assert_eq!(d.method_line("a/E", "<init>", &p(&[])), Some(6));
        assert_eq!(
            d.method_line("a/E", "<init>", &p(&["J"])),
            Some(6),
            "an empty run fits"
        );
        assert_eq!(d.method_line("a/F", "<init>", &p(&[])), None);
        d.add_method("a/F", "<init>", vec!["I".into()], 8);
        assert_eq!(d.method_line("a/F", "<init>", &p(&["J"])), None);
        assert_eq!(simple_name("a/B$1L"), "L");
        assert_eq!(simple_name("a/B$1"), "");
        assert_eq!(simple_name("a/B$C"), "C");
    }
}
