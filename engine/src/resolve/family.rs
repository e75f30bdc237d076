//! The closed set of `placed_by` families (DESIGN §4). A new family is a schema
//! change: it gets a token here, a paragraph in docs/REPORT.md, and a fixture.

use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Family {
    Lexical,
    Import,
    QualifiedPath,
    OwnType,
    WrittenType,
    ValueFlow,
    ReturnType,
    Inheritance,
    Construction,
    UniqueName,
    Builtin,
    ExternalImport,
    ForeignType,
    NothingDeclaresIt,
}

impl Family {
    pub const ALL: &'static [Family] = &[
        Family::Lexical,
        Family::Import,
        Family::QualifiedPath,
        Family::OwnType,
        Family::WrittenType,
        Family::ValueFlow,
        Family::ReturnType,
        Family::Inheritance,
        Family::Construction,
        Family::UniqueName,
        Family::Builtin,
        Family::ExternalImport,
        Family::ForeignType,
        Family::NothingDeclaresIt,
    ];

    pub fn token(self) -> &'static str {
        match self {
            Family::Lexical => "lexical",
            Family::Import => "import",
            Family::QualifiedPath => "qualified_path",
            Family::OwnType => "own_type",
            Family::WrittenType => "written_type",
            Family::ValueFlow => "value_flow",
            Family::ReturnType => "return_type",
            Family::Inheritance => "inheritance",
            Family::Construction => "construction",
            Family::UniqueName => "unique_name",
            Family::Builtin => "builtin",
            Family::ExternalImport => "external_import",
            Family::ForeignType => "foreign_type",
            Family::NothingDeclaresIt => "nothing_declares_it",
        }
    }

    /// Families whose answer is `outside` rather than a declaration in the tree.
    pub fn places_outside(self) -> bool {
        matches!(
            self,
            Family::Builtin
                | Family::ExternalImport
                | Family::ForeignType
                | Family::NothingDeclaresIt
        )
    }
}

/// Typed reasons for an abstention (DESIGN §4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Reason {
    ReceiverTypeUnknown,
    Ambiguous,
    DynamicCallee,
    ParameterValue,
    LocalValue,
    NoDeclaration,
    Refused,
    UnsupportedSyntax,
    ParseError,
}

impl Reason {
    pub const ALL: &'static [Reason] = &[
        Reason::ReceiverTypeUnknown,
        Reason::Ambiguous,
        Reason::DynamicCallee,
        Reason::ParameterValue,
        Reason::LocalValue,
        Reason::NoDeclaration,
        Reason::Refused,
        Reason::UnsupportedSyntax,
        Reason::ParseError,
    ];

    pub fn token(self) -> &'static str {
        match self {
            Reason::ReceiverTypeUnknown => "receiver_type_unknown",
            Reason::Ambiguous => "ambiguous",
            Reason::DynamicCallee => "dynamic_callee",
            Reason::ParameterValue => "parameter_value",
            Reason::LocalValue => "local_value",
            Reason::NoDeclaration => "no_declaration",
            Reason::Refused => "refused",
            Reason::UnsupportedSyntax => "unsupported_syntax",
            Reason::ParseError => "parse_error",
        }
    }
}

/// `outside.kind` (DESIGN §4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum OutsideKind {
    Builtin,
    Stdlib,
    External,
    ForeignType,
    Undeclared,
}
