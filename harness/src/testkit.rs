//! Builders for hand-made reports and truths in unit tests.

use oracles::{
    ColumnUnit, Expect, OracleStamp, Position, Truth, TruthSite, TruthTarget, TRUTH_SCHEMA,
};

use crate::report::{Call, Entity, OutsideRef, Report, Resolution, Target, REPORT_SCHEMA};

pub fn entity(id: u64, qualified_name: &str, file: &str, line: u32) -> Entity {
    Entity {
        id,
        qualified_name: qualified_name.into(),
        kind: "function".into(),
        file: file.into(),
        line,
        column: Some(1),
        end_line: Some(line + 1),
        inactive: false,
    }
}

pub fn report(entities: Vec<Entity>, calls: Vec<Call>) -> Report {
    Report {
        schema: REPORT_SCHEMA.into(),
        engine: crate::report::EngineStamp {
            version: "test".into(),
        },
        entities,
        calls,
        references: vec![],
    }
}

/// An engine site with no answer yet (undetermined) at a.py:`line`:`column`.
pub fn call(line: u32, column: Option<u32>, name: &str) -> Call {
    Call {
        file: "a.py".into(),
        line,
        column,
        caller: None,
        wrote: name.into(),
        name: name.into(),
        args: None,
        resolution: Resolution::Undetermined,
        placed_by: None,
        target: None,
        declaration_line: None,
        outside: None,
        reason: Some("receiver_type_unknown".into()),
        may_reach: None,
        receiver: None,
        site: true,
    }
}

pub trait CallExt {
    fn to(self, family: &str, qualified_name: &str, file: &str, line: u32) -> Call;
    fn declaring(self, line: u32) -> Call;
    fn outside(self, family: &str) -> Call;
    fn unresolved(self) -> Call;
    fn called_by(self, id: u64) -> Call;
    fn may_reach(self, family: &str, targets: &[(&str, &str, u32)]) -> Call;
}

impl CallExt for Call {
    /// Answers in_tree with `family`.
    fn to(mut self, family: &str, qualified_name: &str, file: &str, line: u32) -> Call {
        self.resolution = Resolution::InTree;
        self.placed_by = Some(family.into());
        self.reason = None;
        self.target = Some(Target {
            entity: None,
            qualified_name: qualified_name.into(),
            file: file.into(),
            line,
        });
        self
    }

    fn declaring(mut self, line: u32) -> Call {
        self.declaration_line = Some(line);
        self
    }

    fn outside(mut self, family: &str) -> Call {
        self.resolution = Resolution::Outside;
        self.placed_by = Some(family.into());
        self.reason = None;
        self.outside = Some(OutsideRef {
            kind: "builtin".into(),
            symbol: self.name.clone(),
        });
        self
    }

    fn unresolved(mut self) -> Call {
        self.resolution = Resolution::Unresolved;
        self.reason = Some("no_declaration".into());
        self
    }

    fn called_by(mut self, id: u64) -> Call {
        self.caller = Some(id);
        self
    }

    /// Undetermined (`ambiguous`), with a may-reach set of (qualified name, file, line).
    fn may_reach(mut self, family: &str, targets: &[(&str, &str, u32)]) -> Call {
        self.resolution = Resolution::Undetermined;
        self.reason = Some("ambiguous".into());
        self.may_reach = Some(crate::report::MayReach {
            placed_by: family.into(),
            targets: targets
                .iter()
                .map(|(qualified_name, file, line)| Target {
                    entity: None,
                    qualified_name: qualified_name.to_string(),
                    file: file.to_string(),
                    line: *line,
                })
                .collect(),
        });
        self
    }
}

/// A truth site at a.py:`line`:`column` reaching the in-tree `targets`.
pub fn site(line: u32, column: Option<u32>, name: &str, targets: &[(&str, u32)]) -> TruthSite {
    TruthSite {
        file: "a.py".into(),
        line,
        column,
        caller: None,
        name: name.into(),
        targets: targets
            .iter()
            .map(|(file, line)| TruthTarget::InTree {
                file: file.to_string(),
                line: *line,
            })
            .collect(),
        unjudged: None,
        implicit: None,
        expect: None,
        primary: false,
    }
}

pub fn outside_site(line: u32, column: Option<u32>, name: &str) -> TruthSite {
    let mut s = site(line, column, name, &[]);
    s.targets = vec![TruthTarget::Outside {
        symbol: name.into(),
    }];
    s
}

pub trait SiteExt {
    fn expecting(self, expect: Expect) -> TruthSite;
    fn unjudged(self, why: &str) -> TruthSite;
    fn implicit(self, why: &str) -> TruthSite;
    fn called_from(self, file: &str, line: u32) -> TruthSite;
}

impl SiteExt for TruthSite {
    fn expecting(mut self, expect: Expect) -> TruthSite {
        self.expect = Some(expect);
        self
    }

    fn unjudged(mut self, why: &str) -> TruthSite {
        self.unjudged = Some(why.into());
        self
    }

    fn implicit(mut self, why: &str) -> TruthSite {
        self.implicit = Some(why.into());
        self
    }

    fn called_from(mut self, file: &str, line: u32) -> TruthSite {
        self.caller = Some(Position {
            file: file.into(),
            line,
        });
        self
    }
}

pub fn truth(sites: Vec<TruthSite>) -> Truth {
    truth_with_unit(sites, ColumnUnit::Name)
}

pub fn truth_with_unit(sites: Vec<TruthSite>, column: ColumnUnit) -> Truth {
    Truth {
        schema: TRUTH_SCHEMA.into(),
        corpus: "test".into(),
        oracle: OracleStamp {
            name: "test".into(),
            version: "1".into(),
            adapter: "1".into(),
            column,
        },
        shape: None,
        sites,
        references: None,
        pairs: vec![],
    }
}
