//! Ada policy: the families the resolver places with, in rule order.

use crate::facts::LiteralType;
use crate::resolve::family::Family;

/// The families the Ada resolver may place with.
pub const FAMILIES: &[Family] = &[
    Family::Lexical,
    Family::Import,
    Family::QualifiedPath,
    Family::WrittenType,
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

/// A language-defined type and the subtypes of it that are named (`Natural`).
pub type DistinctType = (&'static str, &'static [&'static str]);

/// Language-defined types that are each a type of their own (RM 3.5.4, 3.5.7,
/// 3.6.3, A.1, A.4.4, A.4.5, 9.6, A.10.1), by the package that declares them
/// (`standard` for `Standard`'s), each with the subtypes that name it
/// (`Natural` is `Integer`). No type here derives from another, so two of them
/// that differ are never the type of one parameter: a `Bounded_String`
/// argument never passes for `String`. A type written `Name` whose package is
/// not listed here is not known to be distinct from any.
pub const OUTSIDE_TYPES: &[(&str, &[DistinctType])] = &[
    (
        "standard",
        &[
            ("boolean", &[]),
            ("integer", &["natural", "positive"]),
            ("float", &[]),
            ("character", &[]),
            ("wide_character", &[]),
            ("wide_wide_character", &[]),
            ("string", &[]),
            ("wide_string", &[]),
            ("wide_wide_string", &[]),
            ("duration", &[]),
        ],
    ),
    (
        "ada.strings.bounded.generic_bounded_length",
        &[("bounded_string", &[])],
    ),
    ("ada.strings.unbounded", &[("unbounded_string", &[])]),
    ("ada.calendar", &[("time", &[])]),
    ("ada.text_io", &[("file_type", &[]), ("file_mode", &[])]),
];

/// The distinct language-defined type a package's declaration of `name` (a type
/// or a subtype of one) denotes: `Some(Some(type))` when listed, `Some(None)`
/// when the package is listed and declares no type so named, `None` when the
/// package is not listed (it may declare any).
pub fn outside_type(package: &str, name: &str) -> Option<Option<&'static str>> {
    let (_, types) = OUTSIDE_TYPES.iter().find(|(p, _)| *p == package)?;
    Some(
        types
            .iter()
            .find(|(t, subtypes)| *t == name || subtypes.contains(&name))
            .map(|(t, _)| *t),
    )
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

/// Language-defined packages (and generic packages) a corpus `use`s, with every
/// subprogram each declares in its visible part (RM Annex A, B): a name none of
/// them declares cannot be made visible by their `use`, so it does not compete
/// with the tree's declarations of it. A `use`d package outside the tree that is
/// not listed here may declare any name.
pub const OUTSIDE_SUBPROGRAMS: &[(&str, &[&str])] = &[
    ("ada", &[]),
    ("ada.characters", &[]),
    ("ada.characters.latin_1", &[]),
    (
        "ada.characters.handling",
        &[
            "is_control",
            "is_graphic",
            "is_letter",
            "is_lower",
            "is_upper",
            "is_basic",
            "is_digit",
            "is_decimal_digit",
            "is_hexadecimal_digit",
            "is_alphanumeric",
            "is_special",
            "is_line_terminator",
            "is_mark",
            "is_other_format",
            "is_punctuation_connector",
            "is_space",
            "is_nfkc",
            "to_lower",
            "to_upper",
            "to_basic",
            "is_iso_646",
            "to_iso_646",
            "is_character",
            "is_string",
            "to_character",
            "to_string",
            "to_wide_character",
            "to_wide_string",
        ],
    ),
    (
        "ada.command_line",
        &[
            "argument_count",
            "argument",
            "command_name",
            "set_exit_status",
        ],
    ),
    (
        "ada.exceptions",
        &[
            "exception_name",
            "wide_exception_name",
            "wide_wide_exception_name",
            "exception_message",
            "exception_information",
            "exception_identity",
            "raise_exception",
            "reraise_occurrence",
            "save_occurrence",
        ],
    ),
    (
        "ada.calendar",
        &[
            "clock", "year", "month", "day", "seconds", "split", "time_of",
        ],
    ),
    ("ada.numerics", &[]),
    // RM G.1.1: the instance `Ada.Numerics.Complex_Types` of
    // `Generic_Complex_Types` (its operators are no sites).
    (
        "ada.numerics.complex_types",
        &[
            "re",
            "im",
            "set_re",
            "set_im",
            "compose_from_cartesian",
            "modulus",
            "argument",
            "compose_from_polar",
            "conjugate",
        ],
    ),
    (
        "ada.numerics.float_random",
        &["random", "reset", "save", "image", "value"],
    ),
    (
        "ada.numerics.discrete_random",
        &["random", "reset", "save", "image", "value"],
    ),
    // RM 13.13.1: the stream type's primitives (GNAT's spec adds the `_SEA`
    // variants; listed, so a tree's homonym is refused rather than taken).
    ("ada.streams", &["read", "write", "read_sea", "write_sea"]),
    // RM A.12.1.
    (
        "ada.streams.stream_io",
        &[
            "create",
            "open",
            "close",
            "delete",
            "reset",
            "mode",
            "name",
            "form",
            "is_open",
            "end_of_file",
            "stream",
            "read",
            "write",
            "set_index",
            "index",
            "size",
            "set_mode",
            "flush",
        ],
    ),
    ("ada.strings", &[]),
    (
        "ada.strings.bounded.generic_bounded_length",
        &[
            "length",
            "to_bounded_string",
            "to_string",
            "set_bounded_string",
            "append",
            "element",
            "replace_element",
            "slice",
            "bounded_slice",
            "set_bounded_slice",
            "index",
            "index_non_blank",
            "count",
            "find_token",
            "translate",
            "replace_slice",
            "insert",
            "overwrite",
            "delete",
            "trim",
            "head",
            "tail",
            "replicate",
        ],
    ),
    (
        "ada.strings.fixed",
        &[
            "move",
            "index",
            "index_non_blank",
            "count",
            "find_token",
            "translate",
            "replace_slice",
            "insert",
            "overwrite",
            "delete",
            "trim",
            "head",
            "tail",
        ],
    ),
    (
        "ada.strings.maps",
        &[
            "to_set",
            "is_in",
            "is_subset",
            "to_sequence",
            "to_domain",
            "to_range",
            "to_mapping",
            "value",
            "to_ranges",
        ],
    ),
    // RM A.4.6: constants only.
    ("ada.strings.maps.constants", &[]),
    (
        "ada.strings.unbounded",
        &[
            "length",
            "to_string",
            "to_unbounded_string",
            "append",
            "element",
            "replace_element",
            "slice",
            "unbounded_slice",
            "set_unbounded_string",
            "index",
            "index_non_blank",
            "count",
            "find_token",
            "translate",
            "replace_slice",
            "insert",
            "overwrite",
            "delete",
            "trim",
            "head",
            "tail",
            "free",
        ],
    ),
    (
        "ada.text_io",
        &[
            "create",
            "open",
            "close",
            "delete",
            "reset",
            "mode",
            "name",
            "form",
            "is_open",
            "set_input",
            "set_output",
            "set_error",
            "standard_input",
            "standard_output",
            "standard_error",
            "current_input",
            "current_output",
            "current_error",
            "flush",
            "set_line_length",
            "set_page_length",
            "line_length",
            "page_length",
            "new_line",
            "skip_line",
            "end_of_line",
            "new_page",
            "skip_page",
            "end_of_page",
            "end_of_file",
            "set_col",
            "set_line",
            "col",
            "line",
            "page",
            "get",
            "put",
            "look_ahead",
            "get_immediate",
            "get_line",
            "put_line",
        ],
    ),
    ("ada.text_io.integer_io", &["get", "put"]),
    ("ada.text_io.modular_io", &["get", "put"]),
    ("ada.text_io.float_io", &["get", "put"]),
    ("ada.text_io.fixed_io", &["get", "put"]),
    ("ada.text_io.decimal_io", &["get", "put"]),
    ("ada.text_io.enumeration_io", &["get", "put"]),
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
    ("interfaces.c", &["to_c", "to_ada", "is_nul_terminated"]),
    (
        "interfaces.c.strings",
        &[
            "to_chars_ptr",
            "new_char_array",
            "new_string",
            "free",
            "value",
            "strlen",
            "update",
        ],
    ),
    // RM B.3.2: a generic; its operators are no sites.
    (
        "interfaces.c.pointers",
        &[
            "value",
            "virtual_length",
            "copy_terminated_array",
            "copy_array",
            "increment",
            "decrement",
        ],
    ),
    ("system", &[]),
    ("system.storage_elements", &["to_address", "to_integer"]),
    // RM 13.7.2.
    (
        "system.address_to_access_conversions",
        &["to_pointer", "to_address"],
    ),
];

/// Language-defined functions (by the symbol the engine places a call of them
/// at) whose every overload returns one type of [`OUTSIDE_TYPES`] (RM A.4.4,
/// A.4.5, A.4.3, 9.6, A.15): what a call of one passes as an argument
/// (`Set_Name (Info, To_Bounded_String (Name))`), as (package, type).
pub const OUTSIDE_RESULTS: &[(&str, (&str, &str))] = &[
    (
        "ada.strings.bounded.generic_bounded_length.to_bounded_string",
        (
            "ada.strings.bounded.generic_bounded_length",
            "bounded_string",
        ),
    ),
    (
        "ada.strings.bounded.generic_bounded_length.to_string",
        ("standard", "string"),
    ),
    (
        "ada.strings.bounded.generic_bounded_length.length",
        ("standard", "integer"),
    ),
    (
        "ada.strings.unbounded.to_unbounded_string",
        ("ada.strings.unbounded", "unbounded_string"),
    ),
    ("ada.strings.unbounded.to_string", ("standard", "string")),
    ("ada.strings.unbounded.length", ("standard", "integer")),
    ("ada.strings.fixed.trim", ("standard", "string")),
    ("ada.strings.fixed.head", ("standard", "string")),
    ("ada.strings.fixed.tail", ("standard", "string")),
    ("ada.calendar.clock", ("ada.calendar", "time")),
    ("ada.command_line.argument", ("standard", "string")),
    ("ada.command_line.argument_count", ("standard", "integer")),
    ("ada.command_line.command_name", ("standard", "string")),
];

/// The language-defined type a call placed at an outside symbol returns, when
/// listed in [`OUTSIDE_RESULTS`].
pub fn outside_result(symbol: &str) -> Option<(&'static str, &'static str)> {
    OUTSIDE_RESULTS
        .iter()
        .find(|(s, _)| *s == symbol)
        .map(|(_, t)| *t)
}

/// Language-defined packages whose every subprogram takes parameters of
/// language-defined types only, none class-wide and none a generic formal
/// (RM A.4.3, A.4.4, A.4.5, A.10.1, 9.6, A.15, A.3.2): a value of a type
/// the tree declares passes to none of them, so their `use` hides no call
/// with such an argument.
pub const CLOSED_PROFILES: &[&str] = &[
    "ada.strings.fixed",
    "ada.strings.bounded.generic_bounded_length",
    "ada.strings.unbounded",
    "ada.text_io",
    "ada.calendar",
    "ada.command_line",
    "ada.characters.handling",
];

/// Whether a language-defined package's subprograms take language-defined types
/// only ([`CLOSED_PROFILES`]).
pub fn closed_profiles(package: &str) -> bool {
    CLOSED_PROFILES.contains(&package)
}

/// The listed subprogram names of a language-defined package, when it is listed.
fn listed(package: &str) -> Option<&'static [&'static str]> {
    // `Text_IO` is the Ada 83 name of `Ada.Text_IO` (RM J.1).
    let package = match package {
        "text_io" => "ada.text_io",
        other => other,
    };
    OUTSIDE_SUBPROGRAMS
        .iter()
        .find(|(p, _)| *p == package)
        .map(|(_, names)| *names)
}

/// Language-defined packages with every object and named number their visible
/// part declares (RM Annex A): a `use` of one of them makes no other object
/// visible, so an object of the tree so named is the one a bare name denotes.
/// A package not listed here may declare any object (`Ada.Characters.Latin_1`'s
/// constants, `Interfaces.C`'s and `System`'s named numbers are not listed).
pub const OUTSIDE_OBJECTS: &[(&str, &[&str])] = &[
    ("ada", &[]),
    ("ada.calendar", &[]),
    ("ada.command_line", &[]),
    ("ada.exceptions", &[]),
    ("ada.finalization", &[]),
    ("ada.streams", &[]),
    ("ada.streams.stream_io", &[]),
    // RM A.4.1.
    ("ada.strings", &["space", "wide_space", "wide_wide_space"]),
    ("ada.strings.fixed", &[]),
    // RM A.4.4, A.4.5.
    (
        "ada.strings.bounded.generic_bounded_length",
        &["max_length", "null_bounded_string"],
    ),
    ("ada.strings.unbounded", &["null_unbounded_string"]),
    // RM A.10.1: the files are functions (`Standard_Output`), not objects.
    ("ada.text_io", &[]),
    ("ada.text_io.integer_io", &["default_width", "default_base"]),
    ("ada.text_io.modular_io", &["default_width", "default_base"]),
    (
        "ada.text_io.float_io",
        &["default_fore", "default_aft", "default_exp"],
    ),
    (
        "ada.text_io.fixed_io",
        &["default_fore", "default_aft", "default_exp"],
    ),
    (
        "ada.text_io.decimal_io",
        &["default_fore", "default_aft", "default_exp"],
    ),
    (
        "ada.text_io.enumeration_io",
        &["default_width", "default_setting"],
    ),
];

/// Whether a `use`d package outside the tree may declare an object so named:
/// unlisted packages may.
pub fn outside_may_declare_object(package: &str, name: &str) -> bool {
    let package = match package {
        "text_io" => "ada.text_io",
        other => other,
    };
    OUTSIDE_OBJECTS
        .iter()
        .find(|(p, _)| *p == package)
        .is_none_or(|(_, names)| names.contains(&name))
}

/// Whether a `use`d package outside the tree may declare a subprogram so named:
/// unknown packages may.
pub fn outside_may_declare(package: &str, name: &str) -> bool {
    listed(package).is_none_or(|names| names.contains(&name))
}

/// Whether a `use`d package outside the tree is known to declare a subprogram so
/// named.
pub fn outside_declares(package: &str, name: &str) -> bool {
    listed(package).is_some_and(|names| names.contains(&name))
}

/// The literals a value of each class of type (the frontend's `type_class:` tags)
/// can never be (RM 2.4, 2.5, 2.6, 4.2): a string literal is a value of a
/// one-dimensional array of a character type only, a character literal of an
/// enumeration type only, a numeric literal of a numeric type only.
pub const TYPE_CLASS_REFUSES: &[(&str, &[LiteralType])] = &[
    (
        "type_class:record",
        &[LiteralType::Str, LiteralType::Char, LiteralType::Int],
    ),
    (
        "type_class:access",
        &[LiteralType::Str, LiteralType::Char, LiteralType::Int],
    ),
    (
        "type_class:access_subprogram",
        &[LiteralType::Str, LiteralType::Char, LiteralType::Int],
    ),
    ("type_class:integer", &[LiteralType::Str, LiteralType::Char]),
    ("type_class:real", &[LiteralType::Str, LiteralType::Char]),
    (
        "type_class:enumeration",
        &[LiteralType::Str, LiteralType::Int],
    ),
    ("type_class:array", &[LiteralType::Char, LiteralType::Int]),
    (
        "type_class:composite_array",
        &[LiteralType::Str, LiteralType::Char, LiteralType::Int],
    ),
];

/// The same for the types of package `Standard` (lower-cased), when the tree
/// declares no type so named.
pub fn standard_refuses(name: &str, literal: LiteralType) -> bool {
    let refused: &[LiteralType] = match name {
        "string" | "wide_string" | "wide_wide_string" => &[LiteralType::Char, LiteralType::Int],
        "character" | "wide_character" | "wide_wide_character" => {
            &[LiteralType::Str, LiteralType::Int]
        }
        "integer"
        | "natural"
        | "positive"
        | "short_integer"
        | "short_short_integer"
        | "long_integer"
        | "long_long_integer"
        | "float"
        | "short_float"
        | "long_float"
        | "long_long_float"
        | "duration" => &[LiteralType::Str, LiteralType::Char],
        "boolean" => &[LiteralType::Str, LiteralType::Char, LiteralType::Int],
        _ => &[],
    };
    refused.contains(&literal)
}
