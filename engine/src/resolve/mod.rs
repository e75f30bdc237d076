//! Resolution: for each call site, an ordered list of rules (set per language).
//! A rule answers `Place`, `Refuse` or `Pass`; every placement goes through
//! [`Placement::new`], which requires the family, so no edge exists without the
//! rule that made it. A bounded chain pass re-runs the calls whose receiver is
//! another call's result; an overload pass then names declarations.

pub mod family;
pub mod hierarchy;
pub mod overload;
pub mod unique_name;

use rayon::prelude::*;

use crate::facts::{Call, CallIdx, ValueRef};
use crate::index::{Eid, TreeIndex};
use crate::lang::Language;
use family::{Family, OutsideKind, Reason};
pub use hierarchy::Hierarchy;

/// Where a placed call goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// Declarations sharing one qualified name (one, or an overload set).
    InTree(Vec<Eid>),
    Outside {
        kind: OutsideKind,
        symbol: String,
    },
}

/// A placed edge. The fields are private: the only way to make one is
/// [`Placement::new`], which takes the family.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placement {
    target: Target,
    family: Family,
    /// The declaration the overload pass named, when several share the name.
    named: Option<Eid>,
}

impl Placement {
    /// The funnel: every edge names the rule family that placed it.
    pub fn new(target: Target, family: Family) -> Placement {
        debug_assert_eq!(
            matches!(target, Target::Outside { .. }),
            family.places_outside(),
            "family {family:?} does not place this kind of target"
        );
        Placement {
            target,
            family,
            named: None,
        }
    }

    pub fn in_tree(mut targets: Vec<Eid>, family: Family) -> Placement {
        targets.sort();
        targets.dedup();
        Placement::new(Target::InTree(targets), family)
    }

    pub fn outside(kind: OutsideKind, symbol: impl Into<String>, family: Family) -> Placement {
        Placement::new(
            Target::Outside {
                kind,
                symbol: symbol.into(),
            },
            family,
        )
    }

    pub fn target(&self) -> &Target {
        &self.target
    }

    pub fn family(&self) -> Family {
        self.family
    }

    pub fn named(&self) -> Option<Eid> {
        self.named
    }

    /// The single declaration this placement stands for, if it is one.
    pub fn single(&self) -> Option<Eid> {
        match &self.target {
            Target::InTree(t) if t.len() == 1 => Some(t[0]),
            Target::InTree(_) => self.named,
            Target::Outside { .. } => None,
        }
    }

    pub(crate) fn name_declaration(&mut self, eid: Eid) {
        self.named = Some(eid);
    }
}

/// A call the engine cannot place on one declaration, but whose every possible
/// in-tree target it has found: the call, if it runs, reaches one of them (or
/// raises). The site stays undetermined (`ambiguous`); the set is published as
/// `may_reach` for call-graph consumers (D25). Every set names the family of the
/// evidence that closed it, as a placement does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MayReach {
    targets: Vec<Eid>,
    family: Family,
}

impl MayReach {
    /// Two or more distinct declarations; fewer is a placement or nothing, never a set.
    pub fn new(mut targets: Vec<Eid>, family: Family) -> Option<MayReach> {
        debug_assert!(!family.places_outside(), "a may-reach set is in the tree");
        targets.sort();
        targets.dedup();
        (targets.len() >= 2).then_some(MayReach { targets, family })
    }

    pub fn targets(&self) -> &[Eid] {
        &self.targets
    }

    pub fn family(&self) -> Family {
        self.family
    }
}

/// What one rule says about one call.
#[derive(Debug, Clone)]
pub enum Decision {
    Place(Placement),
    /// Stop: one of several in-tree declarations, every one of them known.
    MayReach(MayReach),
    /// Stop: the evidence says no later rule may guess.
    Refuse(Reason),
    /// Stop: the tree claims the name (imports it from one of its own modules, or
    /// declares the receiver's type) and nothing in the tree declares it.
    Unresolved,
    Pass,
}

/// The final answer for a call.
#[derive(Debug, Clone)]
pub enum Resolution {
    Placed(Placement),
    /// The tree claims the name and nothing in it declares it.
    Unresolved(Reason),
    Undetermined(Reason),
    /// Undetermined (`ambiguous`), with the complete set of in-tree targets.
    MayReach(MayReach),
}

/// A value an expression evaluates to, with the family of the evidence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Val {
    /// A callable or a type, as a value (`h = f`, `C`).
    Entity(Eid),
    /// Several declarations sharing a qualified name (overloads).
    Entities(Vec<Eid>),
    /// An instance of a type the tree declares.
    Instance(Eid),
    /// A module of the tree (Python), by one of its files.
    Module(u32),
    /// A Python package directory with no `__init__.py` (namespace package).
    Namespace(String),
    /// Something outside the tree: a module, a function, a value.
    Outside { kind: OutsideKind, symbol: String },
    /// An instance of a type the tree does not declare.
    ForeignInstance(String),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Eval {
    pub val: Val,
    pub family: Family,
}

impl Eval {
    pub fn new(val: Val, family: Family) -> Eval {
        Eval { val, family }
    }
}

/// Results of the previous round: what each call evaluates to.
#[derive(Default)]
pub struct Results {
    pub per_file: Vec<Vec<Option<Eval>>>,
    /// Every call site placed on a declaration in the previous round, by target.
    pub callers: crate::fasthash::FastMap<Eid, Vec<(u32, CallIdx)>>,
}

impl Results {
    pub fn get(&self, file: u32, call: CallIdx) -> Option<&Eval> {
        READ_RESULTS.with(|r| r.set(true));
        self.per_file
            .get(file as usize)
            .and_then(|f| f.get(call as usize))
            .and_then(Option::as_ref)
    }
}

impl Results {
    /// The call sites the previous round placed on `target`.
    pub fn callers_of(&self, target: Eid) -> &[(u32, CallIdx)] {
        READ_RESULTS.with(|r| r.set(true));
        self.callers.get(&target).map(Vec::as_slice).unwrap_or(&[])
    }
}

thread_local! {
    /// Set when a rule reads the previous round's results: only such calls can
    /// change in a later chain round, so only they are resolved again.
    static READ_RESULTS: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Everything a rule may read.
pub struct Cx<'a> {
    pub index: &'a TreeIndex<'a>,
    pub hierarchy: &'a Hierarchy,
    pub results: &'a Results,
}

/// One named rule of a language's ordered list.
pub struct Rule {
    pub name: &'static str,
    pub run: fn(&Cx, u32, &Call) -> Decision,
}

/// A language's resolver: its ordered rules and the hooks the shared passes need.
pub trait LanguageResolver: Sync {
    fn rules(&self) -> &'static [Rule];
    /// What a placed call evaluates to (for chains and value flow).
    fn call_result(&self, cx: &Cx, file: u32, call: &Call, placement: &Placement) -> Option<Eval>;
    /// Resolve a function used as a value.
    fn resolve_ref(&self, cx: &Cx, file: u32, r: &ValueRef) -> Option<Placement>;
    /// Direct bases of a type declaration: in-tree bases, and whether any base is
    /// outside or unknown (then lookups that miss must not claim `outside`).
    fn bases(&self, index: &TreeIndex, ty: Eid) -> (Vec<Eid>, bool);
    /// Order in which a type's members are searched (the type first).
    fn lookup_order(&self, hierarchy: &Hierarchy, ty: Eid) -> Vec<Eid>;
    /// Overload pass: name the declaration a call fits among `candidates`
    /// (all sharing one qualified name), or `None` when undecidable.
    fn pick_overload(&self, cx: &Cx, file: u32, call: &Call, candidates: &[Eid]) -> Option<Eid>;
}

pub fn resolver_for(language: Language) -> &'static dyn LanguageResolver {
    match language {
        Language::Python => &crate::lang::python::resolve::PYTHON,
        Language::Java => &crate::lang::java::resolve::JAVA,
        Language::Go => &crate::lang::go::resolve::GO,
        Language::Rust => &crate::lang::rust::resolve::RUST,
        Language::TypeScript | Language::Tsx | Language::JavaScript => {
            &crate::lang::typescript::resolve::TYPESCRIPT
        }
        Language::C => &crate::lang::c::resolve::C,
        Language::Cpp => &crate::lang::cpp::resolve::CPP,
        Language::Kotlin => &crate::lang::kotlin::resolve::KOTLIN,
        Language::CSharp => &crate::lang::csharp::resolve::CSHARP,
        Language::Ada => &crate::lang::ada::resolve::ADA,
    }
}

/// One step of the trail `explain` prints.
#[derive(Debug, Clone)]
pub struct Step {
    pub rule: &'static str,
    pub said: Decision,
}

/// Run a call through its language's rules in order; stop at the first
/// placement or refusal.
pub fn run_rules(cx: &Cx, file: u32, call: &Call, trail: Option<&mut Vec<Step>>) -> Resolution {
    let language = cx.index.file(file).language;
    let resolver = resolver_for(language);
    let mut trail = trail;
    for rule in resolver.rules() {
        let said = (rule.run)(cx, file, call);
        if let Some(t) = trail.as_deref_mut() {
            t.push(Step {
                rule: rule.name,
                said: said.clone(),
            });
        }
        match said {
            Decision::Place(p) => return Resolution::Placed(p),
            Decision::Unresolved => return Resolution::Unresolved(Reason::NoDeclaration),
            Decision::Refuse(r) => return Resolution::Undetermined(r),
            Decision::MayReach(m) => return Resolution::MayReach(m),
            Decision::Pass => {}
        }
    }
    Resolution::Undetermined(default_reason(call))
}

/// The reason for a call no rule could speak to.
fn default_reason(call: &Call) -> Reason {
    use crate::facts::Callee;
    match &call.callee {
        Callee::Dynamic | Callee::Subscript { .. } | Callee::Result(_) => Reason::DynamicCallee,
        Callee::Member { .. } => Reason::ReceiverTypeUnknown,
        Callee::Name(_) => Reason::NoDeclaration,
    }
}

/// Per file, per call: the final resolution.
pub struct Resolved {
    pub calls: Vec<Vec<Resolution>>,
    pub refs: Vec<Vec<Option<Placement>>>,
    /// What each call evaluates to after the last chain round.
    pub results: Results,
}

/// At most this many rounds of the chain pass (DESIGN §3).
pub const CHAIN_ROUNDS: usize = 4;

/// Resolve every call of the tree: a first pass, then chain rounds until nothing
/// changes, then the overload pass. Parallel per file, deterministic.
pub fn resolve_all(index: &TreeIndex, hierarchy: &Hierarchy) -> Resolved {
    let files = index.files;
    let mut results = Results {
        per_file: files.iter().map(|f| vec![None; f.calls.len()]).collect(),
        callers: Default::default(),
    };
    let mut previous: Option<Vec<FileRound>> = None;
    for round in 0..=CHAIN_ROUNDS {
        let cx = Cx {
            index,
            hierarchy,
            results: &results,
        };
        let done: Vec<FileRound> = (0..files.len() as u32)
            .into_par_iter()
            .map(|fi| resolve_file(&cx, fi, previous.as_ref().map(|p| &p[fi as usize])))
            .collect();
        let mut done = done;
        let new_results: Vec<Vec<Option<Eval>>> = done
            .iter_mut()
            .map(|f| std::mem::take(&mut f.evals))
            .collect();
        let callers = callers_by_target(done.iter().map(|f| f.resolutions.as_slice()));
        if std::env::var_os("CALLGRAPH_TIMINGS").is_some() {
            let redone: usize = done
                .iter()
                .map(|f| f.dependent.iter().filter(|d| **d).count())
                .sum();
            eprintln!("timing chain round {round}: {redone} calls read the previous round");
        }
        let changed = new_results != results.per_file || callers != results.callers;
        results = Results {
            per_file: new_results,
            callers,
        };
        previous = Some(done);
        if !changed {
            break;
        }
    }
    let calls: Vec<Vec<Resolution>> = previous
        .unwrap_or_default()
        .into_iter()
        .map(|f| f.resolutions)
        .collect();
    let cx = Cx {
        index,
        hierarchy,
        results: &results,
    };
    let calls: Vec<Vec<Resolution>> = calls
        .into_par_iter()
        .enumerate()
        .map(|(fi, resolutions)| overload::name_declarations(&cx, fi as u32, resolutions))
        .collect();
    let refs = (0..files.len() as u32)
        .into_par_iter()
        .map(|fi| {
            let resolver = resolver_for(index.file(fi).language);
            index
                .file(fi)
                .refs
                .iter()
                .map(|r| resolver.resolve_ref(&cx, fi, r))
                .collect()
        })
        .collect();
    Resolved {
        calls,
        refs,
        results,
    }
}

/// Which call sites may reach each declaration (for a parameter every caller
/// fills): placed sites, and sites with a may-reach set, since each of those may
/// fill the parameters of every declaration in its set.
fn callers_by_target<'r>(
    calls: impl Iterator<Item = &'r [Resolution]>,
) -> crate::fasthash::FastMap<Eid, Vec<(u32, CallIdx)>> {
    let mut out: crate::fasthash::FastMap<Eid, Vec<(u32, CallIdx)>> = Default::default();
    for (fi, file) in calls.enumerate() {
        for (ci, r) in file.iter().enumerate() {
            let targets = match r {
                Resolution::Placed(p) => match p.target() {
                    Target::InTree(targets) => targets.as_slice(),
                    Target::Outside { .. } => continue,
                },
                Resolution::MayReach(m) => m.targets(),
                _ => continue,
            };
            for &t in targets {
                out.entry(t).or_default().push((fi as u32, ci as CallIdx));
            }
        }
    }
    out
}

/// One file's answers in one round, and which calls read the previous round.
struct FileRound {
    resolutions: Vec<Resolution>,
    evals: Vec<Option<Eval>>,
    dependent: Vec<bool>,
}

/// Resolve a file's calls; in later rounds only the calls that read the previous
/// round's results are run again, the others keep their answer.
fn resolve_file(cx: &Cx, fi: u32, previous: Option<&FileRound>) -> FileRound {
    let file = cx.index.file(fi);
    let resolver = resolver_for(file.language);
    let n = file.calls.len();
    let mut out = FileRound {
        resolutions: Vec::with_capacity(n),
        evals: Vec::with_capacity(n),
        dependent: Vec::with_capacity(n),
    };
    for (ci, call) in file.calls.iter().enumerate() {
        if let Some(p) = previous.filter(|p| !p.dependent[ci]) {
            // Its value is last round's, read without marking the call dependent.
            out.resolutions.push(p.resolutions[ci].clone());
            out.evals.push(cx.results.per_file[fi as usize][ci].clone());
            out.dependent.push(false);
            continue;
        }
        READ_RESULTS.with(|r| r.set(false));
        let resolution = run_rules(cx, fi, call, None);
        let eval = match &resolution {
            Resolution::Placed(p) => resolver.call_result(cx, fi, call, p),
            _ => None,
        };
        out.dependent.push(READ_RESULTS.with(|r| r.get()));
        out.resolutions.push(resolution);
        out.evals.push(eval);
    }
    out
}

/// Find a member by name in a type and its bases, in the language's lookup order.
/// Returns the declarations found on the first type that has the name, and whether
/// that type is the receiver's own.
pub fn find_member(cx: &Cx, language: Language, ty: Eid, name: &str) -> MemberLookup {
    let resolver = resolver_for(language);
    for (i, t) in resolver
        .lookup_order(cx.hierarchy, ty)
        .into_iter()
        .enumerate()
    {
        let found = cx.index.members(t, name);
        if !found.is_empty() {
            return MemberLookup::Found {
                on: t,
                decls: found.to_vec(),
                inherited: i > 0,
            };
        }
    }
    if cx.hierarchy.has_unknown_base(ty) {
        MemberLookup::MaybeOutside
    } else {
        MemberLookup::NotFound
    }
}

#[derive(Debug, Clone)]
pub enum MemberLookup {
    Found {
        on: Eid,
        decls: Vec<Eid>,
        inherited: bool,
    },
    /// Not in the tree's part of the hierarchy, and some base is outside the tree.
    MaybeOutside,
    NotFound,
}
