//! Go policy: the closed lists of predeclared names and the families the resolver
//! places with, in rule order.

use crate::resolve::family::Family;

/// The families the Go resolver may place with, in rule order.
pub const FAMILIES: &[Family] = &[
    Family::Lexical,
    Family::Import,
    Family::QualifiedPath,
    Family::OwnType,
    Family::WrittenType,
    Family::ValueFlow,
    Family::ReturnType,
    Family::Inheritance,
    Family::Builtin,
    Family::ExternalImport,
    Family::ForeignType,
];

/// Go's predeclared functions (the universe block): calls to them leave the tree
/// as `builtin` unless the package declares the name.
pub const BUILTIN_FUNCTIONS: &[&str] = &[
    "append", "cap", "clear", "close", "complex", "copy", "delete", "imag", "len", "make", "max",
    "min", "new", "panic", "print", "println", "real", "recover",
];

/// Go's predeclared types: `T(x)` with one of them is a conversion, not a call.
pub const BUILTIN_TYPES: &[&str] = &[
    "any",
    "bool",
    "byte",
    "comparable",
    "complex64",
    "complex128",
    "error",
    "float32",
    "float64",
    "int",
    "int8",
    "int16",
    "int32",
    "int64",
    "rune",
    "string",
    "uint",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "uintptr",
];

pub fn is_builtin_function(name: &str) -> bool {
    BUILTIN_FUNCTIONS.contains(&name)
}

pub fn is_builtin_type(name: &str) -> bool {
    BUILTIN_TYPES.contains(&name)
}

/// The standard library's import paths have no dot in their first element
/// (`net/http`); a module path's first element is a domain (`github.com/...`).
pub fn is_stdlib_import(path: &str) -> bool {
    !path.split('/').next().unwrap_or("").contains('.')
}

/// The parameter index the frontend gives a method's receiver (`c` in
/// `func (c *Command) M()`): calls on it are the method's own type's members.
pub const RECEIVER_INDEX: u32 = u32::MAX;

/// The compiler the build context names (`runtime.Compiler`): the tag `gc` holds,
/// `gccgo` does not.
pub const COMPILER: &str = "gc";

/// The Go release the engine reads for: the release tags `go1.1` … `go1.26` hold
/// (the toolchain the corpora are measured with is go1.26). The engine spawns no
/// process, so it does not ask the installed toolchain.
pub const GO_RELEASE_MINOR: u32 = 26;

/// Every GOOS value the go tool knows (`internal/syslist.KnownOS`): a file-name
/// suffix that is none of them is no constraint.
pub const KNOWN_OS: &[&str] = &[
    "aix",
    "android",
    "darwin",
    "dragonfly",
    "freebsd",
    "hurd",
    "illumos",
    "ios",
    "js",
    "linux",
    "nacl",
    "netbsd",
    "openbsd",
    "plan9",
    "solaris",
    "wasip1",
    "windows",
    "zos",
];

/// The GOOS values the `unix` tag holds for (`internal/syslist.UnixOS`).
pub const UNIX_OS: &[&str] = &[
    "aix",
    "android",
    "darwin",
    "dragonfly",
    "freebsd",
    "hurd",
    "illumos",
    "ios",
    "linux",
    "netbsd",
    "openbsd",
    "solaris",
];

/// Every GOARCH value the go tool knows (`internal/syslist.KnownArch`).
pub const KNOWN_ARCH: &[&str] = &[
    "386",
    "amd64",
    "amd64p32",
    "arm",
    "armbe",
    "arm64",
    "arm64be",
    "loong64",
    "mips",
    "mipsle",
    "mips64",
    "mips64le",
    "mips64p32",
    "mips64p32le",
    "ppc",
    "ppc64",
    "ppc64le",
    "riscv",
    "riscv64",
    "s390",
    "s390x",
    "sparc",
    "sparc64",
    "wasm",
];

/// The GOOS whose files a GOOS also builds: `android` builds `linux` files,
/// `illumos` `solaris` files, `ios` `darwin` files.
pub fn implied_goos(goos: &str) -> Option<&'static str> {
    match goos {
        "android" => Some("linux"),
        "illumos" => Some("solaris"),
        "ios" => Some("darwin"),
        _ => None,
    }
}

/// The toolchain's own tags for a GOARCH (`go/build.Context.ToolTags`): the
/// default microarchitecture level (`GOAMD64=v1`) and the experiments go1.26
/// enables by default, as `go list -f '{{context.ToolTags}}'` prints them on
/// linux/amd64.
pub fn tool_tags(goarch: &str) -> &'static [&'static str] {
    match goarch {
        "amd64" => &[
            "goexperiment.regabiwrappers",
            "goexperiment.regabiargs",
            "goexperiment.dwarf5",
            "goexperiment.greenteagc",
            "goexperiment.randomizedheapbase64",
            "amd64.v1",
        ],
        _ => &[],
    }
}
