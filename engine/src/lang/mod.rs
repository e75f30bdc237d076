//! The language registry. Adding a language touches its own folder and one line in
//! [`Language::ALL`] plus its arm in the `match`es below.

pub mod ada;
pub mod c;
pub mod classes;
pub mod core;
pub mod cpp;
pub mod csharp;
pub mod go;
pub mod java;
pub mod kotlin;
pub mod python;
pub mod rust;
pub(crate) mod syntax;
pub mod typescript;

use std::collections::BTreeMap;

use crate::facts::FileFacts;
use crate::resolve::family::Family;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Language {
    Python,
    Java,
    Go,
    Rust,
    TypeScript,
    Tsx,
    JavaScript,
    C,
    Cpp,
    Kotlin,
    CSharp,
    Ada,
}

impl Language {
    pub const ALL: &'static [Language] = &[
        Language::Python,
        Language::Java,
        Language::Go,
        Language::Rust,
        Language::TypeScript,
        Language::Tsx,
        Language::JavaScript,
        Language::C,
        Language::Cpp,
        Language::Kotlin,
        Language::CSharp,
        Language::Ada,
    ];

    pub fn token(self) -> &'static str {
        match self {
            Language::Python => "python",
            Language::Java => "java",
            Language::Go => "go",
            Language::Rust => "rust",
            Language::TypeScript => "typescript",
            Language::Tsx => "tsx",
            Language::JavaScript => "javascript",
            Language::C => "c",
            Language::Cpp => "cpp",
            Language::Kotlin => "kotlin",
            Language::CSharp => "csharp",
            Language::Ada => "ada",
        }
    }

    pub fn from_token(token: &str) -> Option<Language> {
        Language::ALL.iter().copied().find(|l| l.token() == token)
    }

    pub fn extensions(self) -> &'static [&'static str] {
        match self {
            Language::Python => &["py", "pyi"],
            Language::Java => &["java"],
            Language::Go => &["go"],
            Language::Rust => &["rs"],
            // `.d.ts` files are read: they declare the types and functions the
            // resolver follows (lang/typescript/README.md).
            Language::TypeScript => &["ts", "mts", "cts"],
            Language::Tsx => &["tsx"],
            Language::JavaScript => &["js", "mjs", "cjs", "jsx"],
            // `.h` is C or C++ by its content and the tree's (discover.rs).
            Language::C => &["c"],
            Language::Cpp => &["cc", "cpp", "cxx", "hpp", "hh", "hxx"],
            // `.kts` scripts are read like sources; kotlinc compiles them as scripts.
            Language::Kotlin => &["kt", "kts"],
            Language::CSharp => &["cs"],
            Language::Ada => &["ads", "adb"],
        }
    }

    /// Whether a file that is not valid UTF-8 is still read. C#: the compiler
    /// reads such a file in the system code page (csc) or with replacement
    /// characters (mcs), and it compiles: its other bytes can only stand in
    /// comments and string literals, and the parse keeps every byte offset.
    pub fn reads_any_encoding(self) -> bool {
        self == Language::CSharp
    }

    /// Whether a path is a C/C++ header whose language its content decides (`.h`).
    pub fn is_ambiguous_header(path: &str) -> bool {
        path.rsplit_once('.').is_some_and(|(_, e)| e == "h")
    }

    pub fn for_path(path: &str) -> Option<Language> {
        let ext = path.rsplit_once('.').map(|(_, e)| e)?;
        Language::ALL
            .iter()
            .copied()
            .find(|l| l.extensions().contains(&ext))
    }

    /// The families this language's resolver may place with, in rule order.
    pub fn families(self) -> &'static [Family] {
        match self {
            Language::Python => python::policy::FAMILIES,
            Language::Java => java::policy::FAMILIES,
            Language::Go => go::policy::FAMILIES,
            Language::Rust => rust::policy::FAMILIES,
            Language::TypeScript | Language::Tsx | Language::JavaScript => {
                typescript::policy::FAMILIES
            }
            Language::C => c::policy::FAMILIES,
            Language::Cpp => cpp::policy::FAMILIES,
            Language::Kotlin => kotlin::policy::FAMILIES,
            Language::CSharp => csharp::policy::FAMILIES,
            Language::Ada => ada::policy::FAMILIES,
        }
    }

    pub fn tree_sitter_language(self) -> tree_sitter::Language {
        match self {
            Language::Python => tree_sitter_python::LANGUAGE.into(),
            Language::Java => tree_sitter_java::LANGUAGE.into(),
            Language::Go => tree_sitter_go::LANGUAGE.into(),
            Language::Rust => tree_sitter_rust::LANGUAGE.into(),
            Language::TypeScript => tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
            Language::Tsx => tree_sitter_typescript::LANGUAGE_TSX.into(),
            Language::JavaScript => tree_sitter_javascript::LANGUAGE.into(),
            Language::C => tree_sitter_c::LANGUAGE.into(),
            Language::Cpp => tree_sitter_cpp::LANGUAGE.into(),
            Language::Kotlin => tree_sitter_kotlin_ng::LANGUAGE.into(),
            Language::CSharp => tree_sitter_c_sharp::LANGUAGE.into(),
            Language::Ada => tree_sitter_ada::LANGUAGE.into(),
        }
    }

    /// Turns one parsed tree into facts, for a tree of this one file under the
    /// default configuration; the tree is dropped by the caller afterwards.
    pub fn extract(self, path: &str, source: &[u8], tree: &tree_sitter::Tree) -> FileFacts {
        self.extract_with(path, source, tree, &TreeWide::default())
    }

    /// [`Language::extract`] with what the whole tree says: the build configuration,
    /// the build files, and (C and C++) its macros.
    pub fn extract_with(
        self,
        path: &str,
        source: &[u8],
        tree: &tree_sitter::Tree,
        tree_wide: &TreeWide,
    ) -> FileFacts {
        match self {
            Language::Python => python::frontend::extract(path, source, tree, tree_wide),
            Language::Java => java::frontend::extract(path, source, tree),
            Language::Go => go::frontend::extract(path, source, tree, tree_wide),
            Language::Rust => rust::frontend::extract(path, source, tree, tree_wide),
            Language::TypeScript | Language::Tsx | Language::JavaScript => {
                typescript::frontend::extract(self, path, source, tree, tree_wide)
            }
            Language::C | Language::Cpp => {
                c::frontend::extract(self, path, source, tree, tree_wide)
            }
            Language::Kotlin => kotlin::frontend::extract(path, source, tree),
            Language::CSharp => csharp::frontend::extract(path, source, tree),
            Language::Ada => ada::frontend::extract(path, source, tree, tree_wide),
        }
    }

    /// The bytes to parse when they differ from the file's: C and C++ blank the
    /// branches the build does not compile (lang/c/preproc.rs), then mask
    /// visibility/attribute macros (lang/c/macros.rs); C# blanks its preprocessor
    /// directives and the `#if` branches the build leaves out
    /// (lang/csharp/preprocess.rs) — with spaces, byte for byte, so every position
    /// still points where it did.
    pub fn prepare(self, path: &str, source: &[u8], tree_wide: &TreeWide) -> Option<Vec<u8>> {
        match self {
            Language::C | Language::Cpp => match tree_wide.c_blanks.apply(path, source) {
                Some(blanked) => Some(tree_wide.c_macros.mask(&blanked).unwrap_or(blanked)),
                None => tree_wide.c_macros.mask(source),
            },
            Language::CSharp => csharp::preprocess::mask(source, &tree_wide.config.c.defines),
            _ => None,
        }
    }
}

/// What a frontend needs to know about the whole tree before it parses one file:
/// the build configuration, the tree's build files (`go.mod`, `Cargo.toml`,
/// `tsconfig.json`, `package.json`, `pyproject.toml`, read by discovery like
/// sources), and the C and C++ macros, defined in one file and used in others.
#[derive(Default)]
pub struct TreeWide {
    pub config: crate::config::Configuration,
    /// Build files by root-relative path.
    pub build_files: BTreeMap<String, Vec<u8>>,
    pub c_macros: c::macros::Macros,
    /// C and C++: the branches no unit of the build compiles, per file.
    pub c_blanks: c::preproc::Blanks,
    /// Rust: each package's enabled features, read from its `Cargo.toml` once.
    pub rust_packages: rust::cfg::Packages,
    /// Ada: the subprogram names the tree declares (a bare name naming one is a
    /// parameterless call).
    pub ada_subprograms: ada::names::SubprogramNames,
}

impl TreeWide {
    pub fn collect(
        files: &[crate::discover::SourceFile],
        build_files: &[crate::discover::BuildFile],
        config: &crate::config::Configuration,
        budget: &crate::parse::Budget,
    ) -> TreeWide {
        let c_files: Vec<&crate::discover::SourceFile> = files
            .iter()
            .filter(|f| matches!(f.language, Language::C | Language::Cpp))
            .collect();
        let c_blanks = c::preproc::Blanks::collect(
            &c_files
                .iter()
                .map(|f| c::preproc::Input {
                    path: &f.path,
                    bytes: &f.bytes,
                    cpp: f.language == Language::Cpp,
                })
                .collect::<Vec<_>>(),
            &config.c,
        );
        // Macros are read from what the build compiles: a `#define` in a blanked
        // branch defines nothing.
        let c_macros = c::macros::Macros::collect(c_files.iter().map(|f| {
            let bytes = match c_blanks.apply(&f.path, &f.bytes) {
                Some(b) => std::borrow::Cow::Owned(b),
                None => std::borrow::Cow::Borrowed(f.bytes.as_slice()),
            };
            (bytes, c::is_header_path(&f.path))
        }));
        let build_files: BTreeMap<String, Vec<u8>> = build_files
            .iter()
            .map(|b| (b.path.clone(), b.bytes.clone()))
            .collect();
        TreeWide {
            config: config.clone(),
            rust_packages: rust::cfg::Packages::collect(&build_files, config),
            build_files,
            c_macros,
            c_blanks,
            ada_subprograms: ada::names::SubprogramNames::collect(
                files
                    .iter()
                    .filter(|f| f.language == Language::Ada)
                    .map(|f| f.bytes.as_slice()),
                budget,
            ),
        }
    }

    /// The bytes of the build file at a root-relative path, when the tree has one.
    pub fn build_file(&self, path: &str) -> Option<&str> {
        self.build_files
            .get(path)
            .and_then(|b| std::str::from_utf8(b).ok())
    }
}

/// A node's source text (empty where the bytes are not UTF-8; discovery already
/// skips files that are not, so this only guards a cut inside a character).
pub fn node_text<'s>(src: &'s [u8], node: tree_sitter::Node) -> &'s str {
    std::str::from_utf8(&src[node.byte_range()]).unwrap_or("")
}
