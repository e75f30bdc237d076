//! C++ policy: the families the resolver places with, in rule order, and the
//! closed lists it reads.

use crate::resolve::family::Family;

/// The families the C++ resolver may place with, in rule order.
pub const FAMILIES: &[Family] = &[
    Family::Lexical,
    Family::Import,
    Family::QualifiedPath,
    Family::OwnType,
    Family::WrittenType,
    Family::ReturnType,
    Family::Inheritance,
    Family::Construction,
    Family::UniqueName,
    Family::Builtin,
    Family::ExternalImport,
    Family::ForeignType,
    Family::NothingDeclaresIt,
];

/// Standard smart pointers: `p->m()` reaches the pointee's `m` (their first type
/// argument), `p.get()` is the pointer's own member.
pub const SMART_POINTERS: &[&str] = &["unique_ptr", "shared_ptr", "weak_ptr", "optional"];

/// The smart pointers' own members (a closed list).
pub const SMART_POINTER_MEMBERS: &[&str] = &[
    "get",
    "reset",
    "release",
    "swap",
    "use_count",
    "get_deleter",
    "unique",
    "lock",
    "expired",
    "value",
    "has_value",
    "value_or",
    "emplace",
    "owner_before",
];

/// The namespace of the standard library.
pub const STD: &str = "std";
