//! `harness reproduce`: which figures of a re-measured row differ from the published
//! one. Figures, verdict counts, family counts and shape cells are compared; pins and
//! versions are reported as notes (a different engine version explains a difference,
//! it is not one).

use std::collections::BTreeMap;

use serde_json::Value;

use crate::model::Row;

/// What differs between a published row and the same row measured now.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RowDifferences {
    /// `name: before → now` for each figure that differs.
    pub figures: Vec<String>,
    /// Pins and versions that differ.
    pub notes: Vec<String>,
}

/// Compares two measurements of one row.
pub fn differences(published: &Row, now: &Row) -> RowDifferences {
    let mut result = RowDifferences::default();
    let stamps = [
        ("pin", &published.corpus.pin, &now.corpus.pin),
        (
            "oracle version",
            &published.oracle.version,
            &now.oracle.version,
        ),
        (
            "toolchain version",
            &published.toolchain.version,
            &now.toolchain.version,
        ),
        (
            "engine version",
            &published.engine.version,
            &now.engine.version,
        ),
    ];
    for (name, before, after) in stamps {
        if before != after {
            result.notes.push(format!("{name}: {before} → {after}"));
        }
    }
    let before = comparable(published);
    let after = comparable(now);
    let keys: std::collections::BTreeSet<&String> = before.keys().chain(after.keys()).collect();
    for key in keys {
        let (b, a) = (before.get(key), after.get(key));
        if b != a {
            result
                .figures
                .push(format!("{key}: {} → {}", show(b), show(a)));
        }
    }
    result
}

fn show(value: Option<&Value>) -> String {
    match value {
        None => "absent".to_string(),
        Some(Value::Null) => "—".to_string(),
        Some(Value::String(s)) => s.clone(),
        Some(v) => v.to_string(),
    }
}

/// The row's figures flattened to `path → value` (`pairs.recall`, `families.import.right`).
pub fn comparable(row: &Row) -> BTreeMap<String, Value> {
    let mut flat = BTreeMap::new();
    let parts = [
        (
            "outcome",
            serde_json::to_value(row.outcome.as_ref().map(|o| o.token())),
        ),
        ("", serde_json::to_value(&row.figures)),
        ("verdicts", serde_json::to_value(&row.verdicts)),
        ("families", serde_json::to_value(&row.families)),
        ("shapes", serde_json::to_value(&row.shapes)),
        ("name_pairs", serde_json::to_value(&row.name_pairs)),
        // The manifest's sha256 with its figures: an edited manifest is a difference.
        ("manifest", serde_json::to_value(&row.manifest)),
    ];
    for (prefix, value) in parts {
        flatten(prefix, &value.expect("rows serialize"), &mut flat);
    }
    flat
}

fn flatten(prefix: &str, value: &Value, out: &mut BTreeMap<String, Value>) {
    match value {
        Value::Object(map) => {
            for (key, inner) in map {
                let path = if prefix.is_empty() {
                    key.clone()
                } else {
                    format!("{prefix}.{key}")
                };
                flatten(&path, inner, out);
            }
        }
        other => {
            out.insert(prefix.to_string(), other.clone());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::figures::Figures;

    #[test]
    fn figures_that_differ_are_named_and_versions_are_notes() {
        let published = Row {
            id: "r".into(),
            figures: Some(Figures {
                right: 3,
                coverage: Some(0.75),
                ..Figures::default()
            }),
            ..Row::default()
        };
        let mut now = published.clone();
        assert_eq!(differences(&published, &now), RowDifferences::default());
        now.engine.version = "0.2.0".into();
        now.figures.as_mut().unwrap().coverage = Some(0.5);
        now.shapes.insert("S10".into(), "MISS".into());
        let d = differences(&published, &now);
        assert_eq!(d.notes, vec!["engine version:  → 0.2.0"]);
        assert_eq!(
            d.figures,
            vec!["coverage: 0.75 → 0.5", "shapes.S10: absent → MISS"]
        );
    }
}
