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
