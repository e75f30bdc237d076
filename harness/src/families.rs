//! The closed set of `placed_by` families (DESIGN §4). A new family is a schema
//! change: it is added here and in the engine together.

/// Every family token, in the order DESIGN §4 lists them.
pub const FAMILIES: &[&str] = &[
    "lexical",
    "import",
    "qualified_path",
    "own_type",
    "written_type",
    "value_flow",
    "return_type",
    "inheritance",
    "construction",
    "unique_name",
    "builtin",
    "external_import",
    "foreign_type",
    "nothing_declares_it",
];

/// Whether `token` is a family of the closed set.
pub fn is_family(token: &str) -> bool {
    FAMILIES.contains(&token)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_unique_and_snake_case() {
        let mut seen = std::collections::BTreeSet::new();
        for family in FAMILIES {
            assert!(seen.insert(*family), "{family} twice");
            assert!(family.chars().all(|c| c.is_ascii_lowercase() || c == '_'));
        }
        assert!(is_family("unique_name") && !is_family("guess"));
    }
}
