//! Ada policy: the families the resolver places with, in rule order.

use crate::resolve::family::Family;

/// The families the Ada resolver may place with.
pub const FAMILIES: &[Family] = &[
    Family::Lexical,
    Family::Import,
    Family::QualifiedPath,
    Family::ExternalImport,
];

/// The types of package `Standard` a derived type may name by a bare name: they
/// have no primitive subprogram called by name (only operators and attributes).
pub const STANDARD_TYPES: &[&str] = &[
    "boolean",
    "character",
    "wide_character",
    "wide_wide_character",
    "integer",
    "short_integer",
    "short_short_integer",
    "long_integer",
    "long_long_integer",
    "natural",
    "positive",
    "float",
    "short_float",
    "long_float",
    "long_long_float",
    "duration",
    "string",
    "wide_string",
    "wide_wide_string",
];

pub fn is_standard_scalar(name: &str) -> bool {
    STANDARD_TYPES.contains(&name)
}

/// Language-defined packages (lower-cased) and the subprograms they declare that
/// are primitive operations of their types (RM 7.6, B.2, B.3, 13.7, 13.7.1): what a
/// type derived from one of their types inherits by name.
pub const OUTSIDE_PRIMITIVES: &[(&str, &[&str])] = &[
    ("ada.finalization", &["initialize", "adjust", "finalize"]),
    ("interfaces.c", &["to_c", "to_ada"]),
    (
        "interfaces",
        &[
            "shift_left",
            "shift_right",
            "shift_right_arithmetic",
            "rotate_left",
            "rotate_right",
        ],
    ),
    ("system", &[]),
    ("system.storage_elements", &["to_address", "to_integer"]),
];

/// The inheritable subprogram names of an outside package's types, when the
/// language lists them.
pub fn outside_primitives(package: &str) -> Option<&'static [&'static str]> {
    OUTSIDE_PRIMITIVES
        .iter()
        .find(|(p, _)| *p == package)
        .map(|(_, names)| *names)
}
