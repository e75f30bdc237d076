//! `TreeIndex`: built once from every file's facts, read-only afterwards. Every
//! lookup the resolver makes is a hash hit here, never a scan over declarations.

use crate::fasthash::{FastMap as HashMap, FastSet};

use crate::facts::{Decl, DeclIdx, FileFacts};
use crate::lang::Language;

/// A declaration anywhere in the tree: its file and its index in that file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Eid {
    pub file: u32,
    pub decl: DeclIdx,
}

pub struct TreeIndex<'a> {
    pub files: &'a [FileFacts],
    /// Global entity id of each file's first declaration.
    offsets: Vec<u32>,
    qualified: Vec<Vec<String>>,
    by_qname: HashMap<String, Vec<Eid>>,
    by_name: HashMap<String, Vec<Eid>>,
    /// Python module name → files answering to it.
    modules: HashMap<String, Vec<u32>>,
    /// Java package → files in it.
    packages: HashMap<String, Vec<u32>>,
    /// Java and Kotlin fully qualified type name (`a.b.Outer.Inner`) → type declarations.
    java_types: HashMap<String, Vec<Eid>>,
    /// Members (methods, constructors, nested types) of a type, by name.
    members: HashMap<Eid, HashMap<String, Vec<Eid>>>,
    /// Declarations bound at a file's top level, by name.
    top_level: Vec<HashMap<String, Vec<DeclIdx>>>,
    /// Every path of the tree, for file lookups.
    by_path: HashMap<String, u32>,
    /// Python: package directories that have files (namespace packages included).
    package_dirs: HashMap<String, Vec<u32>>,
    /// Every name some file uses as a value (a callback, a table entry, an alias).
    value_names: FastSet<String>,
    /// Python: run-time replacements by attribute name (file, index in its patches).
    patches: HashMap<String, Vec<(u32, u32)>>,
    /// Go: top-level functions and types of a package (by package key), by name.
    go_package_names: HashMap<(String, String), Vec<Eid>>,
    /// Go: package-level variables (file, index in its file scope's bindings).
    go_package_vars: HashMap<(String, String), Vec<(u32, u32)>>,
    /// Kotlin: top-level declarations of a package (by package name), by name.
    kotlin_package_names: HashMap<(String, String), Vec<Eid>>,
    /// C and C++: declarations by scoped name (`ns::T::m`, `f`), across the tree.
    c_scoped: HashMap<String, Vec<Eid>>,
    /// C++: an out-of-line member definition (`void T::m() {}`) → its class.
    c_owner: HashMap<Eid, Eid>,
    /// C++: type aliases (`using A = ns::T;`, `typedef ns::T A;`) by alias name:
    /// the file that writes each and the path it names.
    c_aliases: HashMap<String, Vec<(u32, Vec<String>)>>,
    /// C#: type declarations by full name (`N.Outer.Inner`, `` N.List`1 `` with a
    /// type parameter count): every part of a partial type under one name.
    csharp_types: HashMap<String, Vec<Eid>>,
    /// C#: each type declaration's key in `csharp_types`, so the resolver finds a
    /// type's parts without rebuilding its full name at every lookup.
    csharp_key: HashMap<Eid, String>,
    /// This index's number among the indexes the process has built: a memo a
    /// resolver keeps beside the index (per thread) is valid for one index only.
    generation: u64,
}

/// The number the next index gets.
static GENERATIONS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

impl<'a> TreeIndex<'a> {
    pub fn build(files: &'a [FileFacts]) -> TreeIndex<'a> {
        let mut index = TreeIndex {
            files,
            offsets: Vec::with_capacity(files.len()),
            qualified: Vec::with_capacity(files.len()),
            by_qname: HashMap::default(),
            by_name: HashMap::default(),
            modules: HashMap::default(),
            packages: HashMap::default(),
            java_types: HashMap::default(),
            members: HashMap::default(),
            top_level: Vec::with_capacity(files.len()),
            by_path: HashMap::default(),
            package_dirs: HashMap::default(),
            value_names: Default::default(),
            patches: HashMap::default(),
            go_package_names: HashMap::default(),
            go_package_vars: HashMap::default(),
            kotlin_package_names: HashMap::default(),
            c_scoped: HashMap::default(),
            c_owner: HashMap::default(),
            c_aliases: HashMap::default(),
            csharp_types: HashMap::default(),
            csharp_key: HashMap::default(),
            generation: GENERATIONS.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
        };
        let mut next = 0u32;
        for (fi, file) in files.iter().enumerate() {
            let fi = fi as u32;
            index.offsets.push(next);
            next += file.decls.len() as u32;
            index.by_path.insert(file.path.clone(), fi);
            index.add_module_identity(fi, file);
            let qnames = qualified_names(file);
            let mut top = HashMap::default();
            for (di, decl) in file.decls.iter().enumerate() {
                // Code the build leaves out is listed, never a target.
                if decl.inactive {
                    continue;
                }
                let eid = Eid {
                    file: fi,
                    decl: di as DeclIdx,
                };
                index
                    .by_qname
                    .entry(qnames[di].clone())
                    .or_default()
                    .push(eid);
                index
                    .by_name
                    .entry(decl.name.clone())
                    .or_default()
                    .push(eid);
                if file.language == Language::Go
                    && decl.parent.is_none()
                    && decl.kind != crate::facts::DeclKind::Method
                {
                    let package = file.module.first().cloned().unwrap_or_default();
                    index
                        .go_package_names
                        .entry((package, decl.name.clone()))
                        .or_default()
                        .push(eid);
                }
                if file.language == Language::Kotlin && decl.parent.is_none() {
                    let package = file.module.first().cloned().unwrap_or_default();
                    index
                        .kotlin_package_names
                        .entry((package, decl.name.clone()))
                        .or_default()
                        .push(eid);
                }
                match decl.parent {
                    Some(p) if file.decls[p as usize].kind.is_type() => {
                        index
                            .members
                            .entry(Eid { file: fi, decl: p })
                            .or_default()
                            .entry(decl.name.clone())
                            .or_default()
                            .push(eid);
                    }
                    None => top
                        .entry(decl.name.clone())
                        .or_insert_with(Vec::new)
                        .push(di as DeclIdx),
                    _ => {}
                }
                if matches!(file.language, Language::Java | Language::Kotlin) && decl.kind.is_type()
                {
                    let fqn = java_type_name(file, di as DeclIdx);
                    index.java_types.entry(fqn).or_default().push(eid);
                }
                if file.language == Language::CSharp && decl.kind.is_type() {
                    let key = csharp_type_name(file, di as DeclIdx);
                    index.csharp_types.entry(key.clone()).or_default().push(eid);
                    index.csharp_key.insert(eid, key);
                }
            }
            index.top_level.push(top);
            for (pi, patch) in file.patches.iter().enumerate() {
                index
                    .patches
                    .entry(patch.attr.clone())
                    .or_default()
                    .push((fi, pi as u32));
            }
            for r in file.refs.iter().filter(|r| r.escapes) {
                let name = match &r.target {
                    crate::facts::Callee::Name(n) => n,
                    crate::facts::Callee::Member { name, .. } => name,
                    _ => continue,
                };
                index.value_names.insert(name.clone());
            }
            if file.language == Language::Cpp {
                for import in &file.imports {
                    if let crate::facts::ImportKind::CppUsing { path, alias } = &import.kind {
                        if path.last() != Some(alias) {
                            index
                                .c_aliases
                                .entry(alias.clone())
                                .or_default()
                                .push((fi, path.clone()));
                        }
                    }
                }
            }
            if matches!(file.language, Language::C | Language::Cpp) {
                for (di, key) in c_scoped_names(file).into_iter().enumerate() {
                    let eid = Eid {
                        file: fi,
                        decl: di as DeclIdx,
                    };
                    index.c_scoped.entry(key).or_default().push(eid);
                }
            }
            index.qualified.push(qnames);
        }
        index.add_go_methods();
        index.add_cpp_out_of_line_members();
        index
    }

    /// C++: a member defined outside its class (`void ns::T::m() {}`) becomes a
    /// member of the class its written path names, looked up from the innermost
    /// namespace outwards (`ns::T`, then `T`).
    fn add_cpp_out_of_line_members(&mut self) {
        let mut found = Vec::new();
        for (fi, file) in self.files.iter().enumerate() {
            if file.language != Language::Cpp {
                continue;
            }
            for (di, decl) in file.decls.iter().enumerate() {
                if decl.parent.is_some()
                    || decl.scope_path.is_empty()
                    || !matches!(
                        decl.kind,
                        crate::facts::DeclKind::Method | crate::facts::DeclKind::Constructor
                    )
                {
                    continue;
                }
                let path = &decl.scope_path;
                let owner = (0..path.len()).find_map(|skip| {
                    let key = path[skip..].join("::");
                    let types: Vec<Eid> = self
                        .c_scoped
                        .get(&key)
                        .into_iter()
                        .flatten()
                        .copied()
                        .filter(|&e| self.decl(e).kind.is_type())
                        .collect();
                    (!types.is_empty()).then_some(types)
                });
                let eid = Eid {
                    file: fi as u32,
                    decl: di as DeclIdx,
                };
                // Several classes of that name (one per test file, say): the one
                // in the definition's own file, else the only one.
                let owner = owner.unwrap_or_default();
                let same_file: Vec<Eid> = owner
                    .iter()
                    .copied()
                    .filter(|t| t.file == fi as u32)
                    .collect();
                let chosen = match (same_file.as_slice(), owner.as_slice()) {
                    ([one], _) => Some(*one),
                    ([], [one]) => Some(*one),
                    _ => None,
                };
                if let Some(ty) = chosen {
                    found.push((ty, eid, decl.name.clone()));
                }
            }
        }
        for (ty, eid, name) in found {
            self.c_owner.entry(eid).or_insert(ty);
            self.members
                .entry(ty)
                .or_default()
                .entry(name)
                .or_default()
                .push(eid);
        }
    }

    /// C++: the type aliases of this name anywhere in the tree (file, path named).
    pub fn c_aliases(&self, name: &str) -> &[(u32, Vec<String>)] {
        self.c_aliases.get(name).map(Vec::as_slice).unwrap_or(&[])
    }

    /// C and C++: declarations whose scoped name is `key` (`ns::T::m`, `f`).
    pub fn c_scoped(&self, key: &str) -> &[Eid] {
        self.c_scoped.get(key).map(Vec::as_slice).unwrap_or(&[])
    }

    /// C++: the class of a member, whether declared inside it or defined out of line.
    pub fn c_owner_type(&self, eid: Eid) -> Option<Eid> {
        self.c_owner
            .get(&eid)
            .copied()
            .or_else(|| self.enclosing_type(eid))
    }

    /// Go methods are declared at top level, in any file of the package: each
    /// becomes a member of its receiver's type (the same package's type of that name).
    fn add_go_methods(&mut self) {
        for (fi, file) in self.files.iter().enumerate() {
            if file.language != Language::Go {
                continue;
            }
            let package = file.module.first().cloned().unwrap_or_default();
            for (bi, b) in file.scopes[0].bindings.iter().enumerate() {
                if matches!(
                    b.value,
                    crate::facts::BindingValue::Value(_) | crate::facts::BindingValue::Typed { .. }
                ) {
                    self.go_package_vars
                        .entry((package.clone(), b.name.clone()))
                        .or_default()
                        .push((fi as u32, bi as u32));
                }
            }
            for (di, decl) in file.decls.iter().enumerate() {
                let Some(receiver) = go_receiver(decl) else {
                    continue;
                };
                let key = (package.clone(), receiver.to_string());
                let Some(ty) = self
                    .go_package_names
                    .get(&key)
                    .and_then(|v| v.iter().find(|&&e| self.decl(e).kind.is_type()))
                    .copied()
                else {
                    continue;
                };
                let eid = Eid {
                    file: fi as u32,
                    decl: di as DeclIdx,
                };
                self.members
                    .entry(ty)
                    .or_default()
                    .entry(decl.name.clone())
                    .or_default()
                    .push(eid);
            }
        }
    }

    /// Go: a package's top-level function or type of this name, by package key.
    pub fn go_package_name(&self, package: &str, name: &str) -> &[Eid] {
        self.go_package_names
            .get(&(package.to_string(), name.to_string()))
            .map(Vec::as_slice)
            .unwrap_or(&[])
    }

    /// Go: a package's package-level variables of this name, as (file, index in
    /// that file's file-scope bindings).
    pub fn go_package_var(&self, package: &str, name: &str) -> &[(u32, u32)] {
        self.go_package_vars
            .get(&(package.to_string(), name.to_string()))
            .map(Vec::as_slice)
            .unwrap_or(&[])
    }

    /// Kotlin: a package's top-level declarations of this name (functions,
    /// extensions, classes, objects), across its files.
    pub fn kotlin_package_name(&self, package: &str, name: &str) -> &[Eid] {
        self.kotlin_package_names
            .get(&(package.to_string(), name.to_string()))
            .map(Vec::as_slice)
            .unwrap_or(&[])
    }

    /// Files of a package (Java and Kotlin package name, Go package key).
    pub fn package_files(&self, package: &str) -> &[u32] {
        self.packages.get(package).map(Vec::as_slice).unwrap_or(&[])
    }

    fn add_module_identity(&mut self, fi: u32, file: &FileFacts) {
        match file.language {
            Language::Python => {
                for name in &file.module {
                    self.modules.entry(name.clone()).or_default().push(fi);
                }
                if let Some((dir, _)) = file.path.rsplit_once('/') {
                    self.package_dirs
                        .entry(dir.to_string())
                        .or_default()
                        .push(fi);
                }
            }
            // Ada: the library unit's name (its spec, body and subunits).
            Language::Java | Language::Go | Language::Rust | Language::Kotlin | Language::Ada => {
                let package = file.module.first().cloned().unwrap_or_default();
                self.packages.entry(package).or_default().push(fi);
            }
            // A C# file declares any number of namespaces; each, and each of its
            // enclosing namespaces, lists the file.
            Language::CSharp => {
                for namespace in &file.module {
                    let mut prefix = String::new();
                    for segment in namespace.split('.') {
                        if !prefix.is_empty() {
                            prefix.push('.');
                        }
                        prefix.push_str(segment);
                        let files = self.packages.entry(prefix.clone()).or_default();
                        if files.last() != Some(&fi) {
                            files.push(fi);
                        }
                    }
                }
            }
            // TypeScript and JavaScript modules are files, found by path.
            Language::TypeScript | Language::Tsx | Language::JavaScript => {}
            // C and C++ files are tied together by includes and scoped names.
            Language::C | Language::Cpp => {}
        }
    }

    pub fn file(&self, fi: u32) -> &'a FileFacts {
        &self.files[fi as usize]
    }

    pub fn decl(&self, eid: Eid) -> &'a Decl {
        &self.files[eid.file as usize].decls[eid.decl as usize]
    }

    /// The report's entity id.
    pub fn entity_id(&self, eid: Eid) -> u32 {
        self.offsets[eid.file as usize] + eid.decl
    }

    pub fn entity_count(&self) -> usize {
        self.files.iter().map(|f| f.decls.len()).sum()
    }

    pub fn qualified_name(&self, eid: Eid) -> &str {
        &self.qualified[eid.file as usize][eid.decl as usize]
    }

    /// Every declaration sharing a qualified name (overloads, redefinitions).
    pub fn same_qualified_name(&self, eid: Eid) -> &[Eid] {
        self.by_qname
            .get(self.qualified_name(eid))
            .map(Vec::as_slice)
            .unwrap_or(&[])
    }

    /// Declarations anywhere in the tree with this simple name.
    pub fn by_name(&self, name: &str) -> &[Eid] {
        self.by_name.get(name).map(Vec::as_slice).unwrap_or(&[])
    }

    /// Whether some file lets `name` escape as a value (passes it as an argument,
    /// stores it in a container or a field): a function so used may be called from
    /// places no call site names. A plain alias (`h = f`) does not escape.
    pub fn used_as_value(&self, name: &str) -> bool {
        self.value_names.contains(name)
    }

    /// Python: the patches that replace an attribute named `attr`, anywhere in
    /// the tree (file, index in its patches).
    pub fn patches_of(&self, attr: &str) -> &[(u32, u32)] {
        self.patches.get(attr).map(Vec::as_slice).unwrap_or(&[])
    }

    pub fn declares_name(&self, name: &str) -> bool {
        self.by_name.contains_key(name)
    }

    /// Whether some file declares `name` at its top level (where a bare name, a
    /// star import or a module attribute can see it; methods cannot).
    pub fn declares_top_level(&self, name: &str) -> bool {
        self.by_name(name)
            .iter()
            .any(|&e| self.decl(e).parent.is_none())
    }

    pub fn python_module(&self, dotted: &str) -> &[u32] {
        self.modules.get(dotted).map(Vec::as_slice).unwrap_or(&[])
    }

    pub fn is_python_package_dir(&self, dir: &str) -> bool {
        self.package_dirs.contains_key(dir)
    }

    /// The Python files directly in a directory.
    pub fn python_dir_files(&self, dir: &str) -> &[u32] {
        self.package_dirs.get(dir).map(Vec::as_slice).unwrap_or(&[])
    }

    pub fn java_package(&self, package: &str) -> &[u32] {
        self.packages.get(package).map(Vec::as_slice).unwrap_or(&[])
    }

    pub fn java_type(&self, fqn: &str) -> &[Eid] {
        self.java_types.get(fqn).map(Vec::as_slice).unwrap_or(&[])
    }

    /// C#: the parts of the type of this full name (see [`csharp_type_name`]),
    /// in tree order; the first is the type's canonical declaration.
    pub fn csharp_type(&self, key: &str) -> &[Eid] {
        self.csharp_types.get(key).map(Vec::as_slice).unwrap_or(&[])
    }

    /// Which index this is, for memos kept beside it (see `generation`).
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// C#: the parts of the type this declaration is (see [`csharp_type_name`]);
    /// `None` when it is not a C# type declaration of the tree.
    pub fn csharp_parts(&self, ty: Eid) -> Option<&[Eid]> {
        self.csharp_key.get(&ty).map(|key| self.csharp_type(key))
    }

    /// Members declared directly on a type (not its bases).
    pub fn members(&self, ty: Eid, name: &str) -> &[Eid] {
        self.members
            .get(&ty)
            .and_then(|m| m.get(name))
            .map(Vec::as_slice)
            .unwrap_or(&[])
    }

    pub fn has_members(&self, ty: Eid) -> bool {
        self.members.contains_key(&ty)
    }

    /// Declarations bound at a file's top level with this name.
    pub fn top_level(&self, fi: u32, name: &str) -> Vec<Eid> {
        self.top_level[fi as usize]
            .get(name)
            .map(|v| v.iter().map(|&d| Eid { file: fi, decl: d }).collect())
            .unwrap_or_default()
    }

    pub fn file_by_path(&self, path: &str) -> Option<u32> {
        self.by_path.get(path).copied()
    }

    /// The type declaration that encloses a declaration (a method's class).
    pub fn enclosing_type(&self, eid: Eid) -> Option<Eid> {
        let file = self.file(eid.file);
        let mut cur = file.decls[eid.decl as usize].parent;
        while let Some(p) = cur {
            if file.decls[p as usize].kind.is_type() {
                return Some(Eid {
                    file: eid.file,
                    decl: p,
                });
            }
            cur = file.decls[p as usize].parent;
        }
        None
    }
}

/// `path::Outer::inner` for every declaration of a file; lambdas are `<lambdaN>`
/// numbered in source order within the file.
fn qualified_names(file: &FileFacts) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(file.decls.len());
    for decl in &file.decls {
        // Parents precede children in `decls`, so the parent's name is ready.
        let prefix = match (decl.parent, go_receiver(decl)) {
            (Some(p), _) => out[p as usize].clone(),
            (None, Some(receiver)) if file.language == Language::Go => {
                format!("{}::{receiver}", file.path)
            }
            (None, _) if !decl.scope_path.is_empty() => {
                format!("{}::{}", file.path, decl.scope_path.join("::"))
            }
            (None, _) => file.path.clone(),
        };
        out.push(format!("{prefix}::{}", decl.name));
    }
    out
}

/// C/C++: each declaration's scoped name, the namespaces and classes around it
/// (`ns::T::m`), without the file.
fn c_scoped_names(file: &FileFacts) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(file.decls.len());
    for decl in &file.decls {
        let key = match decl.parent {
            Some(p) => format!("{}::{}", out[p as usize], decl.name),
            None if decl.scope_path.is_empty() => decl.name.clone(),
            None => format!("{}::{}", decl.scope_path.join("::"), decl.name),
        };
        out.push(key);
    }
    out
}

/// A Go method's receiver type name (`T` of `func (t *T) m()`).
fn go_receiver(decl: &Decl) -> Option<&str> {
    if decl.kind != crate::facts::DeclKind::Method || decl.parent.is_some() {
        return None;
    }
    decl.bases.first().and_then(|t| t.last())
}

/// A C# type's full name as the index keys it: its namespace, the enclosing
/// types and its own name, `.`-separated, its own type parameter count after a
/// backquote (`` N.Outer.Inner`2 ``; C# tells `T` and `T<U>` apart by it).
pub fn csharp_type_name(file: &FileFacts, decl: DeclIdx) -> String {
    let mut parts: Vec<&str> = Vec::new();
    let mut cur = Some(decl);
    let mut top = decl;
    while let Some(d) = cur {
        parts.push(file.decls[d as usize].name.as_str());
        top = d;
        cur = file.decls[d as usize].parent;
    }
    parts.reverse();
    let mut key = String::new();
    for segment in &file.decls[top as usize].scope_path {
        key.push_str(segment);
        key.push('.');
    }
    key.push_str(&parts.join("."));
    let arity = file.decls[decl as usize].type_params.len();
    if arity > 0 {
        key.push('`');
        key.push_str(&arity.to_string());
    }
    key
}

/// `package.Outer.Inner` for a Java type declaration.
fn java_type_name(file: &FileFacts, decl: DeclIdx) -> String {
    let mut parts = Vec::new();
    let mut cur = Some(decl);
    while let Some(d) = cur {
        let decl = &file.decls[d as usize];
        parts.push(decl.name.as_str());
        cur = decl.parent;
    }
    parts.reverse();
    let package = file.module.first().map(String::as_str).unwrap_or("");
    if package.is_empty() {
        parts.join(".")
    } else {
        format!("{package}.{}", parts.join("."))
    }
}
