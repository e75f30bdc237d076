//! `harness gate`: compares current measurements with a baseline, row by row and
//! family by family. A row that lost right answers, gained wrong ones, or fell in
//! precision beyond the tolerance is a regression; a baseline row that cannot be
//! measured now means the gate could not answer.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

use crate::error::{EXIT_CANNOT_ANSWER, EXIT_NO, EXIT_OK};
use crate::model::{Measurements, Row};
use crate::score::{SiteKind, SiteRecord};
use crate::tables::percent;

/// The default precision tolerance: a fall of more than 0.1 point is a regression.
pub const DEFAULT_TOLERANCE: f64 = 0.001;

/// One family's counts on one corpus, before and after.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FamilyChange {
    pub family: String,
    pub corpus: String,
    pub right: (u64, u64),
    pub wrong: (u64, u64),
}

/// Something that got worse.
#[derive(Debug, Clone, PartialEq)]
pub enum Regression {
    /// A site that was right is no longer right.
    LostRight {
        row: String,
        site: String,
        before: String,
        now: String,
    },
    /// A site is wrong now that was not (or was wrong by another family).
    GainedWrong {
        row: String,
        site: String,
        before: String,
        now: String,
    },
    PrecisionFell {
        row: String,
        before: f64,
        now: f64,
    },
}

/// The gate's answer.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GateVerdict {
    pub changes: Vec<FamilyChange>,
    pub regressions: Vec<Regression>,
    /// Baseline rows that could not be compared: missing now, or now an outcome.
    pub unanswerable: Vec<String>,
    pub notes: Vec<String>,
}

impl GateVerdict {
    /// 1 on any regression (a definite no), else 3 when a row could not be
    /// compared, else 0.
    pub fn exit_code(&self) -> u8 {
        if !self.regressions.is_empty() {
            EXIT_NO
        } else if !self.unanswerable.is_empty() {
            EXIT_CANNOT_ANSWER
        } else {
            EXIT_OK
        }
    }
}

/// Compares every baseline row with its current counterpart.
pub fn compare(baseline: &Measurements, current: &Measurements, tolerance: f64) -> GateVerdict {
    let mut verdict = GateVerdict::default();
    for before in &baseline.rows {
        let Some(after) = current.row(&before.id) else {
            verdict
                .unanswerable
                .push(format!("{}: missing now", before.id));
            continue;
        };
        if !before.is_scored() {
            verdict.notes.push(format!(
                "{}: the baseline has no figures; not compared",
                before.id
            ));
            continue;
        }
        if let Some(outcome) = &after.outcome {
            verdict
                .unanswerable
                .push(format!("{}: {outcome}", before.id));
            continue;
        }
        compare_row(before, after, tolerance, &mut verdict);
    }
    for row in &current.rows {
        if baseline.row(&row.id).is_none() {
            verdict.notes.push(format!(
                "{}: new, not in the baseline; not compared",
                row.id
            ));
        }
    }
    verdict
}

fn describe(record: Option<&SiteRecord>) -> String {
    match record {
        None => "absent".to_string(),
        Some(r) => match &r.family {
            Some(family) => format!("{} ({family})", r.verdict.token()),
            None => r.verdict.token().to_string(),
        },
    }
}

fn compare_row(before: &Row, after: &Row, tolerance: f64, verdict: &mut GateVerdict) {
    let (old, new) = (sites_by_identity(before), sites_by_identity(after));
    for (identity, was) in &old {
        let now = new.get(identity).copied();
        if was.verdict.is_right() && !now.is_some_and(|n| n.verdict.is_right()) {
            verdict.regressions.push(Regression::LostRight {
                row: before.id.clone(),
                site: was.label(),
                before: describe(Some(was)),
                now: describe(now),
            });
        }
    }
    for (identity, now) in &new {
        let was = old.get(identity).copied();
        // A site that was right is already named as a lost answer above.
        let newly_wrong = now.verdict.is_wrong()
            && !was.is_some_and(|w| w.verdict.is_right())
            && !was.is_some_and(|w| w.verdict.is_wrong() && w.family == now.family);
        if newly_wrong {
            verdict.regressions.push(Regression::GainedWrong {
                row: before.id.clone(),
                site: now.label(),
                before: describe(was),
                now: describe(Some(now)),
            });
        }
    }
    let precision = |row: &Row| {
        let pairs = || row.name_pairs.as_ref().and_then(|p| p.precision);
        row.figures
            .as_ref()
            .and_then(|f| f.precision)
            .or_else(pairs)
    };
    if let (Some(was), Some(now)) = (precision(before), precision(after)) {
        if now < was - tolerance {
            verdict.regressions.push(Regression::PrecisionFell {
                row: before.id.clone(),
                before: was,
                now,
            });
        }
    }
    family_changes(before, after, &mut verdict.changes);
}

fn sites_by_identity(row: &Row) -> BTreeMap<(SiteKind, &str, u32, &str, u32), &SiteRecord> {
    row.sites.iter().map(|s| (s.identity(), s)).collect()
}

fn family_changes(before: &Row, after: &Row, changes: &mut Vec<FamilyChange>) {
    let families: BTreeSet<&String> = before
        .families
        .keys()
        .chain(after.families.keys())
        .collect();
    for family in families {
        let counts = |row: &Row| {
            row.families
                .get(family)
                .map_or((0, 0), |f| (f.right, f.wrong))
        };
        let (right_before, wrong_before) = counts(before);
        let (right_after, wrong_after) = counts(after);
        if (right_before, wrong_before) != (right_after, wrong_after) {
            changes.push(FamilyChange {
                family: family.clone(),
                corpus: before.id.clone(),
                right: (right_before, right_after),
                wrong: (wrong_before, wrong_after),
            });
        }
    }
}

/// The gate's printout: the changes-by-family table, then what regressed and what
/// could not be compared, then the answer.
pub fn render(verdict: &GateVerdict, tolerance: f64) -> String {
    let mut text = String::from(
        "changes by family\n\n| family | corpus | right | wrong |\n|---|---|---|---|\n",
    );
    for c in &verdict.changes {
        let _ = writeln!(
            text,
            "| {} | {} | {} → {} | {} → {} |",
            c.family, c.corpus, c.right.0, c.right.1, c.wrong.0, c.wrong.1
        );
    }
    if verdict.changes.is_empty() {
        text.push_str("| (none) | | | |\n");
    }
    text.push('\n');
    if !verdict.regressions.is_empty() {
        let _ = writeln!(text, "regressions ({}):", verdict.regressions.len());
        for r in &verdict.regressions {
            let line = match r {
                Regression::LostRight {
                    row,
                    site,
                    before,
                    now,
                } => {
                    format!("{row}: lost a right answer at {site}: {before} → {now}")
                }
                Regression::GainedWrong {
                    row,
                    site,
                    before,
                    now,
                } => {
                    format!("{row}: gained a wrong answer at {site}: {before} → {now}")
                }
                Regression::PrecisionFell { row, before, now } => format!(
                    "{row}: precision fell {} → {} (tolerance {})",
                    percent(Some(*before)),
                    percent(Some(*now)),
                    percent(Some(tolerance))
                ),
            };
            let _ = writeln!(text, "  {line}");
        }
        text.push('\n');
    }
    if !verdict.unanswerable.is_empty() {
        text.push_str("could not compare:\n");
        for line in &verdict.unanswerable {
            let _ = writeln!(text, "  {line}");
        }
        text.push('\n');
    }
    for note in &verdict.notes {
        let _ = writeln!(text, "note: {note}");
    }
    let answer = match verdict.exit_code() {
        EXIT_OK => "gate: no regression".to_string(),
        EXIT_NO => format!("gate: {} regression(s)", verdict.regressions.len()),
        _ => "gate: could not answer".to_string(),
    };
    let _ = writeln!(text, "{answer}");
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::figures::{FamilyFigures, Figures};
    use crate::score::{Answer, SiteKind, TruthCategory, Verdict};

    fn site(line: u32, verdict: Verdict, family: Option<&str>) -> SiteRecord {
        SiteRecord {
            kind: SiteKind::Call,
            file: "m.py".into(),
            line,
            column: Some(1),
            name: "f".into(),
            nth: 0,
            truth: TruthCategory::InTree,
            answer: Answer::InTree,
            verdict,
            family: family.map(str::to_string),
            primary: false,
        }
    }

    fn row(id: &str, sites: Vec<SiteRecord>, precision: f64) -> Row {
        let mut families: BTreeMap<String, FamilyFigures> = BTreeMap::new();
        for s in &sites {
            if let Some(f) = &s.family {
                let e = families.entry(f.clone()).or_default();
                e.right += u64::from(s.verdict.is_right());
                e.wrong += u64::from(s.verdict.is_wrong());
            }
        }
        Row {
            id: id.into(),
            figures: Some(Figures {
                precision: Some(precision),
                ..Figures::default()
            }),
            families,
            sites,
            ..Row::default()
        }
    }

    #[test]
    fn a_wrong_answer_that_moves_family_is_a_gained_wrong() {
        let before = Measurements::new(vec![row(
            "r",
            vec![site(1, Verdict::Wrong, Some("import"))],
            0.5,
        )]);
        let after = Measurements::new(vec![row(
            "r",
            vec![site(1, Verdict::Wrong, Some("unique_name"))],
            0.5,
        )]);
        let v = compare(&before, &after, DEFAULT_TOLERANCE);
        assert!(
            matches!(&v.regressions[..], [Regression::GainedWrong { .. }]),
            "{v:?}"
        );
        assert_eq!(v.changes.len(), 2);
        assert_eq!(v.exit_code(), EXIT_NO);
        // The same wrong answer by the same family is no news.
        assert_eq!(
            compare(&before, &before, DEFAULT_TOLERANCE).exit_code(),
            EXIT_OK
        );
    }

    #[test]
    fn a_right_answer_lost_to_a_wrong_one_is_named_once() {
        let before = Measurements::new(vec![row(
            "r",
            vec![site(1, Verdict::Right, Some("import"))],
            1.0,
        )]);
        let after = Measurements::new(vec![row(
            "r",
            vec![site(1, Verdict::Wrong, Some("import"))],
            1.0,
        )]);
        let v = compare(&before, &after, DEFAULT_TOLERANCE);
        assert_eq!(v.regressions.len(), 1, "{v:?}");
        let text = render(&v, DEFAULT_TOLERANCE);
        assert!(
            text.contains("r: lost a right answer at m.py:1 f: right (import) → wrong (import)"),
            "{text}"
        );
        assert!(text.contains("| import | r | 1 → 0 | 0 → 1 |"), "{text}");
    }

    #[test]
    fn precision_falls_are_measured_against_the_tolerance() {
        let before = Measurements::new(vec![row("r", vec![], 0.9)]);
        let slightly = Measurements::new(vec![row("r", vec![], 0.8995)]);
        let clearly = Measurements::new(vec![row("r", vec![], 0.85)]);
        assert_eq!(
            compare(&before, &slightly, DEFAULT_TOLERANCE).exit_code(),
            EXIT_OK
        );
        assert_eq!(
            compare(&before, &clearly, DEFAULT_TOLERANCE).exit_code(),
            EXIT_NO
        );
        assert_eq!(compare(&before, &clearly, 0.1).exit_code(), EXIT_OK);
    }

    #[test]
    fn rows_that_cannot_be_compared_make_the_gate_unable_to_answer() {
        let before = Measurements::new(vec![row("a", vec![], 1.0), row("b", vec![], 1.0)]);
        let mut outcome_row = row("b", vec![], 1.0);
        outcome_row.outcome = Some(oracles::Outcome::ToolMissing {
            tool: "javac".into(),
            detail: "not found on PATH".into(),
        });
        let after = Measurements::new(vec![outcome_row]);
        let v = compare(&before, &after, DEFAULT_TOLERANCE);
        assert_eq!(
            v.unanswerable,
            vec![
                "a: missing now",
                "b: tool_missing: javac: not found on PATH"
            ]
        );
        assert_eq!(v.exit_code(), EXIT_CANNOT_ANSWER);
    }
}
