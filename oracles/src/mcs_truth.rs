//! The mcs helper's lines → truth sites: what the compiler bound at each IL call,
//! named and placed as the source writes it, and every call no source text writes set
//! apart by class (docs/PROTOCOL.md §14 lists what is judged).
//!
//! The helper (`oracles/csharp/CallTruth.cs`) reports, per `call`/`callvirt`/`newobj`
//! (and `ldftn`/`ldvirtftn`, a method used as a value), the sequence point that covers
//! it (line, UTF-16 column), its caller and the method bound, with that method's
//! declarations in the tree and the in-tree overrides of its virtual slot. Here:
//! - the column becomes a byte column, and the site is named by what is written there:
//!   the method's name; for a construction, the type after `new` (at the type's
//!   position, `new` itself being where mcs points); `base`/`this` for a constructor
//!   initialiser;
//! - a point mcs puts at a statement's start (a field initialiser's points are at the
//!   field's type, a method group's at its statement) is followed through the
//!   statement to the written call, construction or name, in order;
//! - what no source text writes is `implicit` with its class (accessors, foreach,
//!   delegate constructors, operators, closures, …); a call through a delegate is
//!   unjudged (`delegate_invoke`): what it reaches is what the delegate holds;
//! - a virtual call's acceptable targets are its slot's original declaration (what the
//!   IL names: C#'s member lookup leaves overrides out) and every in-tree override of
//!   that slot (what an engine reading the receiver's static type names; D41).

use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde::Deserialize;

use crate::mcs_text::{At, SourceText, Written};
use crate::truth::{OracleStamp, Position, Truth, TruthSite, TruthTarget, TRUTH_SCHEMA};

/// One line the helper writes.
#[derive(Debug, Clone, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum HelperLine {
    Call(Box<IlCall>),
    Attribute(AttributeUse),
}

/// An attribute the parser saw: its construction is in metadata, not in the IL.
#[derive(Debug, Clone, Deserialize)]
pub struct AttributeUse {
    pub file: String,
    pub line: u32,
    pub col: u32,
    pub name: String,
}

/// One IL instruction that calls, constructs or loads a method.
#[derive(Debug, Clone, Deserialize)]
pub struct IlCall {
    pub op: String,
    /// The method body it is in (its ordinal in the helper's walk).
    #[serde(default)]
    pub body: u32,
    pub file: Option<String>,
    pub line: Option<u32>,
    pub col: Option<u32>,
    pub caller: Option<Position>,
    #[serde(default)]
    pub caller_kind: String,
    /// The declaring type's IL name (`Ns.Outer`1/Inner`).
    #[serde(rename = "type")]
    pub declaring_type: String,
    /// The method's IL name (`get_Item`, `.ctor`, `Ns.IFace.M`).
    pub name: String,
    #[serde(default)]
    pub type_name: String,
    #[serde(default)]
    pub params: u32,
    /// `getter`, `setter`, `adder`, `remover`.
    pub semantics: Option<String>,
    /// The property or event an accessor belongs to.
    pub member: Option<String>,
    /// An explicit implementation's own name.
    pub basename: Option<String>,
    #[serde(default)]
    pub indexer: bool,
    #[serde(default)]
    pub special: bool,
    #[serde(default)]
    pub generated: bool,
    #[serde(default)]
    pub delegate: bool,
    #[serde(default)]
    pub anonymous_type: bool,
    #[serde(default)]
    pub array: bool,
    #[serde(default)]
    pub unresolved: bool,
    #[serde(default)]
    pub in_tree: bool,
    /// `member`, `type` (a member the compiler made in a declared type), `ambiguous`,
    /// `missing`, `generated`.
    pub target_of: Option<String>,
    #[serde(default)]
    pub targets: Vec<Position>,
    /// The declarations of the in-tree overrides of the slot a `callvirt` names.
    #[serde(default)]
    pub chain: Vec<Position>,
}

/// The greatest column mcs records (its `Location` packs a column into 8 bits); a
/// point at it may stand for any column after.
const MCS_LAST_COLUMN: u32 = 255;

/// How the truth reads a virtual call (D41).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VirtualRule {
    /// The slot's original declaration and every in-tree override of it.
    OverrideChain,
    /// Only the declaration the IL names.
    IlOnly,
}

/// Counts the truth does not carry: how the virtual-call rule changed targets.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tally {
    /// Judged in-tree sites whose targets gained overrides.
    pub chain_sites: usize,
    /// The override declarations added over those sites.
    pub chain_targets: usize,
    /// Judged outside sites (a slot declared outside the tree) that in-tree types
    /// override: kept outside.
    pub outside_slots_overridden: usize,
    /// Helper lines whose file is not in the tree (dropped).
    pub outside_files: usize,
    /// IL calls with no sequence point and no caller to place them at (dropped).
    pub unplaced: usize,
}

/// What one IL call becomes.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Placed {
    reference: bool,
    site: TruthSite,
}

/// Reads the helper's lines into a truth; `sources` holds every tree file's text by
/// its root-relative path.
pub fn truth_from_helper(
    corpus: &str,
    oracle: OracleStamp,
    text: &str,
    sources: &BTreeMap<String, SourceText>,
    rule: VirtualRule,
) -> Result<(Truth, Tally), String> {
    let mut tally = Tally::default();
    let mut placer = Placer {
        sources,
        rule,
        used: HashMap::new(),
    };
    let mut placed: Vec<Placed> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let parsed: HelperLine = serde_json::from_str(line)
            .map_err(|e| format!("the helper's line {} is not understood: {e}", n + 1))?;
        match parsed {
            HelperLine::Attribute(a) => {
                if let Some(p) = placer.attribute(&a) {
                    placed.push(p);
                } else {
                    tally.outside_files += 1;
                }
            }
            HelperLine::Call(call) => {
                if let Some(p) = placer.call(&call, &mut tally) {
                    placed.push(p);
                }
            }
        }
    }
    let (sites, references) = deduplicated(placed);
    let truth = Truth {
        schema: TRUTH_SCHEMA.into(),
        corpus: corpus.into(),
        oracle,
        shape: None,
        sites,
        references: Some(references),
        pairs: Vec::new(),
    };
    truth
        .validate("mcs helper output")
        .map_err(|e| e.to_string())?;
    Ok((truth, tally))
}

/// One site per written place: a field initialiser runs in every constructor, and an
/// iterator's `finally` in MoveNext and Dispose; their copies merge, targets joined.
fn deduplicated(placed: Vec<Placed>) -> (Vec<TruthSite>, Vec<TruthSite>) {
    type Key = (bool, String, u32, Option<u32>, String);
    let mut merged: BTreeMap<Key, TruthSite> = BTreeMap::new();
    for p in placed {
        let key = (
            p.reference,
            p.site.file.clone(),
            p.site.line,
            p.site.column,
            p.site.name.clone(),
        );
        match merged.get_mut(&key) {
            Some(existing) => {
                let mut all: BTreeSet<TruthTarget> = existing.targets.drain(..).collect();
                all.extend(p.site.targets);
                existing.targets = all.into_iter().collect();
            }
            None => {
                merged.insert(key, p.site);
            }
        }
    }
    let mut sites = Vec::new();
    let mut references = Vec::new();
    for ((reference, ..), site) in merged {
        if reference {
            references.push(site);
        } else {
            sites.push(site);
        }
    }
    (sites, references)
}

/// The placing state: sources, the rule, and which written occurrences of each
/// statement earlier instructions of the same body already took.
struct Placer<'a> {
    sources: &'a BTreeMap<String, SourceText>,
    rule: VirtualRule,
    /// (body, file, point line, point column, occurrence key) → occurrences taken.
    used: HashMap<(u32, String, u32, u32, String), usize>,
}

/// Why a site is set apart, or left unjudged.
enum Verdict {
    Judged,
    Implicit(&'static str),
    Unjudged(&'static str),
}

impl Placer<'_> {
    fn attribute(&self, a: &AttributeUse) -> Option<Placed> {
        let text = self.sources.get(&a.file)?;
        let at = text.byte_at(a.line, a.col);
        Some(Placed {
            reference: false,
            site: site(
                &a.file,
                a.line,
                at.map(At::column),
                None,
                a.name.clone(),
                Vec::new(),
                Verdict::Implicit("attribute"),
            ),
        })
    }

    fn call(&mut self, call: &IlCall, tally: &mut Tally) -> Option<Placed> {
        let reference = matches!(call.op.as_str(), "ldftn" | "ldvirtftn");
        let (Some(file), Some(line), Some(col)) = (&call.file, call.line, call.col) else {
            return self.without_position(call, reference, tally);
        };
        let Some(text) = self.sources.get(file) else {
            tally.outside_files += 1;
            return None;
        };
        let point = text.byte_at(line, col);
        let (name, at, verdict) = match point {
            Some(point) => self.name_and_verdict(call, text, point),
            None => (
                source_name(call),
                None,
                Verdict::Implicit("name_not_at_column"),
            ),
        };
        let targets = match verdict {
            Verdict::Judged => self.targets(call, tally),
            _ => Vec::new(),
        };
        let (line, column) = match at {
            Some(at) => (at.line, Some(at.column())),
            None => (line, point.map(At::column)),
        };
        Some(Placed {
            reference,
            site: site(
                file,
                line,
                column,
                call.caller.clone(),
                name,
                targets,
                verdict,
            ),
        })
    }

    /// An instruction with no sequence point: code the compiler wrote (an anonymous
    /// type's Equals, a closure's constructor, a default constructor's base call). It
    /// is placed at its caller's declaration, named by its IL name so that it cannot
    /// pair with a written call there.
    fn without_position(
        &self,
        call: &IlCall,
        reference: bool,
        tally: &mut Tally,
    ) -> Option<Placed> {
        let Some(caller) = &call.caller else {
            tally.unplaced += 1;
            return None;
        };
        if !self.sources.contains_key(&caller.file) {
            tally.outside_files += 1;
            return None;
        }
        Some(Placed {
            reference,
            site: site(
                &caller.file,
                caller.line,
                None,
                Some(caller.clone()),
                call.name.clone(),
                Vec::new(),
                Verdict::Implicit("no_sequence_point"),
            ),
        })
    }

    /// What is written at the point, and whether the site is judged.
    fn name_and_verdict(
        &mut self,
        call: &IlCall,
        text: &SourceText,
        point: At,
    ) -> (String, Option<At>, Verdict) {
        let token = text.identifier_at(point).unwrap_or("");
        if let Some(class) = set_apart_by_callee(call) {
            return (source_name(call), Some(point), Verdict::Implicit(class));
        }
        if call.delegate && matches!(call.name.as_str(), "Invoke" | "BeginInvoke" | "EndInvoke") {
            // `d(x)` names the delegate, `d.Invoke(x)` the method; either way what runs
            // is whatever the delegate holds.
            let written = if token.is_empty() { "Invoke" } else { token };
            return (
                written.to_string(),
                Some(point),
                Verdict::Unjudged("delegate_invoke"),
            );
        }
        if call.array {
            // A multi-dimensional array's Get/Set/Address and constructor: methods the
            // runtime provides, written as `a[i, j]` and `new T[m, n]`.
            let class = if call.name == ".ctor" {
                "anonymous_or_array_new"
            } else {
                "array_access"
            };
            return (source_name(call), Some(point), Verdict::Implicit(class));
        }
        if call.unresolved {
            return (
                source_name(call),
                Some(point),
                Verdict::Unjudged("callee_unresolved"),
            );
        }
        match call.op.as_str() {
            "ldftn" | "ldvirtftn" => self.method_group(call, text, point),
            "newobj" => self.construction(call, text, point),
            _ if call.name == ".ctor" => self.constructor_call(call, text, point, token),
            _ => self.method_call(call, text, point, token),
        }
    }

    /// `d(x)`, `d.Invoke(x)`: the delegate's value decides; a method group converted
    /// to a delegate is a reference.
    fn method_group(
        &mut self,
        call: &IlCall,
        text: &SourceText,
        point: At,
    ) -> (String, Option<At>, Verdict) {
        let name = source_name(call);
        let pick = |w: &Written| match w {
            Written::Name { name: n, at } if *n == name => Some(*at),
            _ => None,
        };
        let at = if text.identifier_at(point) == Some(name.as_str()) {
            Some(point)
        } else {
            self.written(call, text, point, pick)
                .or_else(|| self.written_on(call, text, point, true, pick))
        };
        match at {
            Some(at) => (name, Some(at), self.judged_or_missing(call)),
            None => (name, Some(point), Verdict::Implicit("name_not_at_column")),
        }
    }

    /// `new T(…)`: named by T at T's position.
    fn construction(
        &mut self,
        call: &IlCall,
        text: &SourceText,
        point: At,
    ) -> (String, Option<At>, Verdict) {
        if call.delegate && !text.starts_with(point, b"new") {
            return (
                call.type_name.clone(),
                Some(point),
                Verdict::Implicit("delegate_ctor"),
            );
        }
        if call.array || call.anonymous_type {
            return (
                call.type_name.clone(),
                Some(point),
                Verdict::Implicit("anonymous_or_array_new"),
            );
        }
        let written = match text.constructed_at(point) {
            Some(found) => Some(found),
            // A field initialiser's point is at the field's type, a `dynamic`
            // expression's or a nested initialiser's at its statement: the written
            // `new` of that type is further on (IL constructs in the written order).
            None if call.op == "newobj" || call.caller_kind == "field_init" => {
                self.written(call, text, point, |w| match w {
                    Written::New { name, at } if constructs(name, &call.type_name) => {
                        Some((name.clone(), *at))
                    }
                    _ => None,
                })
            }
            None => None,
        };
        match written {
            Some((name, at)) if constructs(&name, &call.type_name) => {
                (name, Some(at), self.judged_or_missing(call))
            }
            Some((name, at)) if is_nullable(call) => {
                (name, Some(at), Verdict::Implicit("nullable_lifting"))
            }
            Some((name, at)) => (name, Some(at), Verdict::Implicit("newobj_name_mismatch")),
            // `(int?)x`, `x = 1` into a `T?`: the conversion builds the Nullable.
            None if is_nullable(call) => (
                call.type_name.clone(),
                Some(point),
                Verdict::Implicit("nullable_lifting"),
            ),
            // The table mcs builds for a `switch` on strings.
            None if call
                .declaring_type
                .starts_with("System.Collections.Generic.Dictionary`2")
                && (text.starts_with(point, b"{") || text.starts_with(point, b"switch")) =>
            {
                (
                    call.type_name.clone(),
                    Some(point),
                    Verdict::Implicit("switch_on_string"),
                )
            }
            // `3.99m`: a decimal literal is a constructor call in IL.
            None if call.declaring_type == "System.Decimal" => (
                call.type_name.clone(),
                Some(point),
                Verdict::Implicit("decimal_literal"),
            ),
            None => (
                call.type_name.clone(),
                Some(point),
                Verdict::Implicit("newobj_without_new"),
            ),
        }
    }

    /// A constructor called with `call`: `: base(…)`/`: this(…)`, the `: base()` the
    /// compiler inserts, or a struct built in place (`S s = new S(1)`).
    fn constructor_call(
        &mut self,
        call: &IlCall,
        text: &SourceText,
        point: At,
        token: &str,
    ) -> (String, Option<At>, Verdict) {
        match token {
            "base" | "this" => (token.to_string(), Some(point), self.judged_or_missing(call)),
            "new" => self.construction(call, text, point),
            _ if call.caller_kind == "field_init" => {
                let (name, at, verdict) = self.construction(call, text, point);
                match verdict {
                    // Not a struct field's `new S(…)`: the base constructor a
                    // constructor runs after the field initialisers.
                    Verdict::Implicit("newobj_without_new") => {
                        (name, at, Verdict::Implicit("implicit_base_ctor"))
                    }
                    other => (name, at, other),
                }
            }
            _ => (
                call.type_name.clone(),
                Some(point),
                Verdict::Implicit("implicit_base_ctor"),
            ),
        }
    }

    /// A method called by name, or by what the compiler made of some other syntax.
    fn method_call(
        &mut self,
        call: &IlCall,
        text: &SourceText,
        point: At,
        token: &str,
    ) -> (String, Option<At>, Verdict) {
        let name = source_name(call);
        if token == name {
            return (name, Some(point), self.judged_or_missing(call));
        }
        if let Some(class) = set_apart_by_text(call, token, text, point) {
            return (name, Some(point), Verdict::Implicit(class));
        }
        // A field initialiser's points are at the field's type, an interpolated
        // string's and an `await` statement's at their start: the written call is
        // further on. What an `await` is made of (GetAwaiter, …) is not written.
        let follow =
            call.caller_kind == "field_init" || text.starts_with(point, b"$") || token == "await";
        let found = if call.col.is_some_and(|c| c >= MCS_LAST_COLUMN) {
            // mcs keeps columns in 8 bits: a point past it is clamped to the last one;
            // the call is the one of that name further on the line, when only one is.
            match text.calls_named_from(point, &name).as_slice() {
                [one] => Some(*one),
                _ => None,
            }
        } else if follow {
            self.written(call, text, point, |w| match w {
                Written::Call { name: n, at } if *n == name => Some(*at),
                _ => None,
            })
        } else {
            None
        };
        match found {
            Some(at) => (name, Some(at), self.judged_or_missing(call)),
            None if token == "await" => (name, Some(point), Verdict::Implicit("await")),
            None => (name, Some(point), Verdict::Implicit("name_not_at_column")),
        }
    }

    /// The next written occurrence `pick` accepts in the statement at `point` that no
    /// earlier instruction of the same body took (IL order is the written order).
    fn written<T>(
        &mut self,
        call: &IlCall,
        text: &SourceText,
        point: At,
        pick: impl Fn(&Written) -> Option<T>,
    ) -> Option<T> {
        self.written_on(call, text, point, false, pick)
    }

    /// [`Self::written`], in the rest of the statement around `point` when `rest`.
    fn written_on<T>(
        &mut self,
        call: &IlCall,
        text: &SourceText,
        point: At,
        rest: bool,
        pick: impl Fn(&Written) -> Option<T>,
    ) -> Option<T> {
        let written = if rest {
            text.rest_of_statement(point)
        } else {
            text.statement(point)
        };
        let found: Vec<T> = written.iter().filter_map(pick).collect();
        let key = (
            call.body,
            call.file.clone().unwrap_or_default(),
            point.line,
            u32::try_from(point.byte).unwrap_or(u32::MAX),
            format!("{}:{}:{rest}", call.op, source_name(call)),
        );
        let taken = self.used.entry(key).or_insert(0);
        let next = found.into_iter().nth(*taken)?;
        *taken += 1;
        Some(next)
    }

    fn judged_or_missing(&self, call: &IlCall) -> Verdict {
        if !call.in_tree {
            return Verdict::Judged;
        }
        match call.target_of.as_deref() {
            Some("member" | "type") if !call.targets.is_empty() => Verdict::Judged,
            Some("ambiguous") => Verdict::Unjudged("declaration_ambiguous"),
            Some("generated") => Verdict::Implicit("compiler_generated"),
            _ => Verdict::Unjudged("declaration_not_found"),
        }
    }

    /// The acceptable targets of a judged site.
    fn targets(&self, call: &IlCall, tally: &mut Tally) -> Vec<TruthTarget> {
        if !call.in_tree {
            if !call.chain.is_empty() {
                tally.outside_slots_overridden += 1;
            }
            return vec![TruthTarget::Outside {
                symbol: outside_symbol(call),
            }];
        }
        let mut targets: BTreeSet<TruthTarget> = call.targets.iter().map(in_tree).collect();
        if self.rule == VirtualRule::OverrideChain && !call.chain.is_empty() {
            let before = targets.len();
            targets.extend(call.chain.iter().map(in_tree));
            if targets.len() > before {
                tally.chain_sites += 1;
                tally.chain_targets += targets.len() - before;
            }
        }
        targets.into_iter().collect()
    }
}

fn in_tree(p: &Position) -> TruthTarget {
    TruthTarget::InTree {
        file: p.file.clone(),
        line: p.line,
    }
}

fn site(
    file: &str,
    line: u32,
    column: Option<u32>,
    caller: Option<Position>,
    name: String,
    targets: Vec<TruthTarget>,
    verdict: Verdict,
) -> TruthSite {
    let (implicit, unjudged) = match verdict {
        Verdict::Judged => (None, None),
        Verdict::Implicit(c) => (Some(c.to_string()), None),
        Verdict::Unjudged(r) => (None, Some(r.to_string())),
    };
    TruthSite {
        file: file.to_string(),
        line,
        column,
        caller,
        name,
        targets,
        unjudged,
        implicit,
        expect: None,
        primary: false,
    }
}

/// Calls the bound method alone shows no source text writes: accessors, operators,
/// binder plumbing, what closures and state machines are made of.
fn set_apart_by_callee(call: &IlCall) -> Option<&'static str> {
    let t = call.declaring_type.as_str();
    match call.semantics.as_deref() {
        Some("getter" | "setter") if call.indexer => return Some("indexer"),
        Some("getter" | "setter") => return Some("property_accessor"),
        Some("adder" | "remover") => return Some("event_accessor"),
        _ => {}
    }
    if t.starts_with("Microsoft.CSharp.RuntimeBinder.")
        || t.starts_with("System.Runtime.CompilerServices.CallSite")
    {
        return Some("dynamic_binder");
    }
    if call.name == "GetTypeFromHandle" && t == "System.Type" {
        return Some("typeof");
    }
    if matches!(
        call.name.as_str(),
        "GetMethodFromHandle" | "GetFieldFromHandle"
    ) || t == "System.Runtime.CompilerServices.RuntimeHelpers"
        || t.starts_with("System.Runtime.CompilerServices.Async")
        || t.starts_with("System.Runtime.CompilerServices.TaskAwaiter")
        || t.starts_with("System.Runtime.CompilerServices.ConfiguredTaskAwaitable")
    {
        return Some("compiler_services");
    }
    if call.generated {
        return Some(match call.op.as_str() {
            "ldftn" | "ldvirtftn" => "lambda",
            "newobj" if call.anonymous_type => "anonymous_or_array_new",
            "newobj" => "closure_or_iterator_ctor",
            _ => "compiler_generated",
        });
    }
    if call.special && call.name.starts_with("op_") {
        return Some(
            if matches!(call.name.as_str(), "op_Implicit" | "op_Explicit") {
                "conversion"
            } else {
                "operator"
            },
        );
    }
    if t == "System.Array" && call.name == "Empty" {
        return Some("params_empty_array");
    }
    None
}

/// Calls whose point shows the syntax the compiler expanded (`foreach`, `lock`, a
/// collection initialiser's element, `+=` on an event field, a query clause, …).
fn set_apart_by_text(
    call: &IlCall,
    token: &str,
    text: &SourceText,
    point: At,
) -> Option<&'static str> {
    let t = call.declaring_type.as_str();
    let name = call.name.as_str();
    if matches!(token, "foreach" | "using" | "in")
        || matches!(
            name,
            "GetEnumerator" | "MoveNext" | "Dispose" | "get_Current" | "Reset"
        )
    {
        return Some("foreach_or_using");
    }
    if token == "lock" || t == "System.Threading.Monitor" {
        return Some("lock");
    }
    if token == "switch" {
        return Some("switch_on_string");
    }
    if matches!(
        token,
        "from" | "where" | "select" | "group" | "orderby" | "join" | "let" | "into" | "by"
    ) || is_query_operator(call)
    {
        return Some("query_expression");
    }
    if name == "Finalize" && (text.starts_with(point, b"~") || text.preceded_by(point, b'~')) {
        // A destructor's `finally { base.Finalize(); }`.
        return Some("destructor_base_call");
    }
    if t == "System.Activator" && name == "CreateInstance" {
        // `new T()` on a type parameter (a written `Activator.CreateInstance` has its
        // name at the point).
        return Some("generic_new");
    }
    if t.starts_with("System.Nullable`1") {
        return Some("nullable_lifting");
    }
    if t == "System.String" && matches!(name, "Concat" | "Format") && !text.starts_with(point, b"$")
    {
        return Some("string_concat");
    }
    if t == "System.Delegate" && matches!(name, "Combine" | "Remove") {
        return Some("event_field");
    }
    if name == "Add" {
        return Some("collection_initializer");
    }
    if t.starts_with("System.Linq.Expressions.Expression") {
        return Some("expression_tree");
    }
    None
}

/// A LINQ operator not written at its point: a query clause's (`orderby p.Title` is
/// pointed at `p`).
fn is_query_operator(call: &IlCall) -> bool {
    matches!(
        call.declaring_type.as_str(),
        "System.Linq.Enumerable" | "System.Linq.Queryable"
    ) && matches!(
        call.name.as_str(),
        "Select"
            | "SelectMany"
            | "Where"
            | "OrderBy"
            | "OrderByDescending"
            | "ThenBy"
            | "ThenByDescending"
            | "GroupBy"
            | "Join"
            | "GroupJoin"
            | "Cast"
    )
}

/// A written construction names the type it builds (`string` is System.String).
fn constructs(written: &str, type_name: &str) -> bool {
    written == type_name || keyword_type(written) == Some(type_name)
}

fn is_nullable(call: &IlCall) -> bool {
    call.declaring_type.starts_with("System.Nullable`1")
}

fn keyword_type(keyword: &str) -> Option<&'static str> {
    Some(match keyword {
        "bool" => "Boolean",
        "byte" => "Byte",
        "sbyte" => "SByte",
        "char" => "Char",
        "decimal" => "Decimal",
        "double" => "Double",
        "float" => "Single",
        "int" => "Int32",
        "uint" => "UInt32",
        "long" => "Int64",
        "ulong" => "UInt64",
        "short" => "Int16",
        "ushort" => "UInt16",
        "object" => "Object",
        "string" => "String",
        _ => return None,
    })
}

/// The name the source uses for the bound member: a property's or event's name for its
/// accessors, an operator's spelling, a constructor's type, an explicit
/// implementation's own name.
fn source_name(call: &IlCall) -> String {
    if let Some(member) = &call.member {
        return member.clone();
    }
    if call.name == ".ctor" || call.name == ".cctor" {
        return call.type_name.clone();
    }
    if call.special {
        if let Some(op) = operator_spelling(&call.name) {
            return format!("operator{op}");
        }
    }
    if let Some(base) = &call.basename {
        return base.clone();
    }
    call.name.clone()
}

fn operator_spelling(il: &str) -> Option<&'static str> {
    Some(match il {
        "op_Addition" | "op_UnaryPlus" => "+",
        "op_Subtraction" | "op_UnaryNegation" => "-",
        "op_Multiply" => "*",
        "op_Division" => "/",
        "op_Modulus" => "%",
        "op_BitwiseAnd" => "&",
        "op_BitwiseOr" => "|",
        "op_ExclusiveOr" => "^",
        "op_LeftShift" => "<<",
        "op_RightShift" => ">>",
        "op_Equality" => "==",
        "op_Inequality" => "!=",
        "op_GreaterThan" => ">",
        "op_LessThan" => "<",
        "op_GreaterThanOrEqual" => ">=",
        "op_LessThanOrEqual" => "<=",
        "op_LogicalNot" => "!",
        "op_OnesComplement" => "~",
        "op_Increment" => "++",
        "op_Decrement" => "--",
        "op_True" => " true",
        "op_False" => " false",
        "op_Implicit" => " implicit",
        "op_Explicit" => " explicit",
        _ => return None,
    })
}

/// `System.Collections.Generic.List.Add`: the declaring type without arity or
/// arguments, then the member.
fn outside_symbol(call: &IlCall) -> String {
    let t = call.declaring_type.as_str();
    let t = t.split('<').next().unwrap_or(t);
    let mut clean = String::with_capacity(t.len());
    let mut skip = false;
    for c in t.chars() {
        match c {
            '`' => skip = true,
            '/' | '.' => {
                skip = false;
                clean.push('.');
            }
            _ if !skip => clean.push(c),
            _ => {}
        }
    }
    format!("{clean}.{}", source_name(call))
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = "A.cs";

    fn sources(text: &str) -> BTreeMap<String, SourceText> {
        BTreeMap::from([(FILE.to_string(), SourceText::new(text.as_bytes()))])
    }

    fn truth(text: &str, lines: &[serde_json::Value]) -> (Truth, Tally) {
        let raw: String = lines.iter().map(|l| l.to_string() + "\n").collect();
        let stamp = OracleStamp::at_name("mcs", "6.8.0.105".into(), "1");
        truth_from_helper("c", stamp, &raw, &sources(text), VirtualRule::OverrideChain).unwrap()
    }

    fn call(line: u32, col: u32, fields: serde_json::Value) -> serde_json::Value {
        let mut base = serde_json::json!({"kind": "call", "op": "call", "file": FILE,
            "line": line, "col": col, "caller": {"file": FILE, "line": 1},
            "caller_kind": "member", "type": "N.C", "name": "M", "type_name": "C",
            "params": 0});
        for (k, v) in fields.as_object().unwrap() {
            base[k] = v.clone();
        }
        base
    }

    fn brief(t: &Truth) -> Vec<String> {
        t.sites
            .iter()
            .map(|s| {
                let what = s
                    .implicit
                    .clone()
                    .or(s.unjudged.clone())
                    .unwrap_or_else(|| format!("{} targets", s.targets.len()));
                format!("{}:{:?} {} {what}", s.line, s.column, s.name)
            })
            .collect()
    }

    #[test]
    fn a_construction_is_named_by_its_type_at_the_type() {
        let text = "class C {\n  void M() {\n    var x = new Ns.C(1);\n  }\n}";
        let (t, _) = truth(
            text,
            &[call(
                3,
                13,
                serde_json::json!({"op": "newobj", "name": ".ctor", "in_tree": true,
                    "target_of": "type", "targets": [{"file": FILE, "line": 1}]}),
            )],
        );
        assert_eq!(brief(&t), vec!["3:Some(20) C 1 targets"]);
    }

    #[test]
    fn a_tab_is_one_compiler_column_and_a_virtual_call_accepts_the_override_chain() {
        let text = "\t\tb.M();";
        let (t, tally) = truth(
            text,
            &[call(
                1,
                5,
                serde_json::json!({"op": "callvirt", "in_tree": true, "target_of": "member",
                    "targets": [{"file": FILE, "line": 11}],
                    "chain": [{"file": FILE, "line": 19}]}),
            )],
        );
        assert_eq!(brief(&t), vec!["1:Some(5) M 2 targets"]);
        assert_eq!((tally.chain_sites, tally.chain_targets), (1, 1));
    }

    #[test]
    fn accessors_foreach_and_delegate_calls_are_set_apart_or_unjudged() {
        let text = "x.P = 1;\nforeach (var a in b) {}\nd(1);";
        let (t, _) = truth(
            text,
            &[
                call(
                    1,
                    3,
                    serde_json::json!({"name": "set_P", "semantics": "setter", "member": "P"}),
                ),
                call(
                    2,
                    1,
                    serde_json::json!({"op": "callvirt", "type": "System.Collections.IEnumerable",
                        "name": "GetEnumerator"}),
                ),
                call(
                    3,
                    1,
                    serde_json::json!({"op": "callvirt", "type": "N.D", "name": "Invoke",
                        "delegate": true}),
                ),
            ],
        );
        assert_eq!(
            brief(&t),
            vec![
                "1:Some(3) P property_accessor",
                "2:Some(1) GetEnumerator foreach_or_using",
                "3:Some(1) d delegate_invoke",
            ]
        );
    }

    #[test]
    fn field_initialisers_are_followed_to_the_written_constructions_in_order() {
        let text = "  private List<Foo> f = new List<Foo> { new Foo(1), new Foo(2) };";
        let at_type = |name: &str| {
            call(
                1,
                11,
                serde_json::json!({"op": "newobj", "name": ".ctor", "type_name": name,
                    "type": format!("N.{name}"), "caller_kind": "field_init"}),
            )
        };
        let (t, _) = truth(text, &[at_type("List"), at_type("Foo"), at_type("Foo")]);
        assert_eq!(
            brief(&t),
            vec![
                "1:Some(29) List 1 targets",
                "1:Some(45) Foo 1 targets",
                "1:Some(57) Foo 1 targets",
            ]
        );
    }

    #[test]
    fn base_this_and_the_implicit_base_constructor_call() {
        let text = "  public C(int a) : base(a) {}\n  public C() {}";
        let (t, _) = truth(
            text,
            &[
                call(
                    1,
                    21,
                    serde_json::json!({"name": ".ctor", "type": "N.B", "type_name": "B"}),
                ),
                call(
                    2,
                    10,
                    serde_json::json!({"name": ".ctor", "type": "System.Object",
                    "type_name": "Object"}),
                ),
            ],
        );
        assert_eq!(
            brief(&t),
            vec![
                "1:Some(21) base 1 targets",
                "2:Some(10) Object implicit_base_ctor"
            ]
        );
    }

    #[test]
    fn a_method_group_is_a_reference_found_in_its_statement() {
        let text = "    var s = items.Where(Keep).ToList();";
        let (t, _) = truth(
            text,
            &[call(
                1,
                13,
                serde_json::json!({"op": "ldftn", "name": "Keep", "in_tree": true,
                    "target_of": "member", "targets": [{"file": FILE, "line": 9}]}),
            )],
        );
        let r = &t.references.as_ref().unwrap()[0];
        assert_eq!((r.name.as_str(), r.column), ("Keep", Some(25)));
        assert!(r.is_judged());
    }

    #[test]
    fn a_site_without_a_sequence_point_stays_at_its_caller_under_its_il_name() {
        let mut line = call(1, 1, serde_json::json!({"name": "Equals"}));
        for k in ["file", "line", "col"] {
            line.as_object_mut().unwrap().remove(k);
        }
        let (t, _) = truth("class C {}", &[line]);
        assert_eq!(brief(&t), vec!["1:None Equals no_sequence_point"]);
    }

    #[test]
    fn copies_of_one_written_site_merge() {
        let text = "  int f = Make();";
        let at = call(
            1,
            3,
            serde_json::json!({"name": "Make", "caller_kind": "field_init", "in_tree": true,
                "target_of": "member", "targets": [{"file": FILE, "line": 5}]}),
        );
        let mut second = at.clone();
        second["body"] = serde_json::json!(2);
        let (t, _) = truth(text, &[at, second]);
        assert_eq!(brief(&t), vec!["1:Some(11) Make 1 targets"]);
    }
}
