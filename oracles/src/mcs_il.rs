//! `mcs-il`: the mcs oracle's second reading (`harness crosscheck`), from the compiled
//! assemblies and their `.mdb` symbol files read here, without Cecil or the mcs
//! oracle's helper (oracles/csharp/CallTruth.cs).
//!
//! The corpus is compiled exactly as the mcs oracle compiles it
//! ([`crate::mcs::compile_corpus`]). Then, per unit:
//! - [`crate::cli_metadata`] reads the assembly's metadata tables and every method
//!   body's `call`/`callvirt`/`newobj`/`ldftn`/`ldvirtftn` with its operand token;
//! - [`crate::mdb`] reads the symbol file: each method's line table, with columns;
//! - each instruction is placed at the last non-hidden entry at or before its offset
//!   (set apart when the nearest entry is hidden), its UTF-16 column turned into a
//!   byte column by walking the line;
//! - the callee is resolved from the token: a MethodDef is in the tree; a MemberRef
//!   whose parent is a type of another unit of the corpus is that unit's MethodDef of
//!   the same name and signature; anything else is outside; a MethodSpec is its method;
//! - an in-tree callee's declaration is found in the source's syntax tree
//!   ([`crate::mcs_il_source`], tree-sitter-c-sharp) by (type, name, arity, parameter
//!   count, then parameter types); a tie is left unjudged, not guessed;
//! - the site is named by what the syntax tree shows at the point (the method's name,
//!   the type after `new`, `base`/`this`); a call no source text writes is set apart
//!   with the mcs oracle's class names (docs/PROTOCOL.md §14, §18.4).

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;

use crate::cli_metadata::{
    split, Assembly, CallOp, MethodSig, MEMBER_REF, METHOD_DEF, METHOD_SPEC, TYPE_DEF, TYPE_REF,
    TYPE_SPEC,
};
use crate::mcs::{compile_corpus, mcs_version};
use crate::mcs_il_source::{
    collect, il_type_key, keyword_type, Declarations, Place, SourceFile, Written,
};
use crate::mdb::{entry_at, SymbolFile};
use crate::oracle::{Oracle, OracleOptions};
use crate::toolchain::Outcome;
use crate::truth::{OracleStamp, Position, Truth, TruthSite, TruthTarget, TRUTH_SCHEMA};

/// The adapter's version: bump it when what the reading says changes.
pub const ADAPTER_VERSION: &str = "1";

const TOOL: &str = "mcs-il";

/// MethodDef flags: `SpecialName`.
const SPECIAL_NAME: u16 = 0x0800;

/// The mcs oracle's second reading.
#[derive(Debug, Clone, Copy, Default)]
pub struct McsIl;

impl Oracle for McsIl {
    fn name(&self) -> &'static str {
        TOOL
    }

    fn version(&self) -> &'static str {
        ADAPTER_VERSION
    }

    fn toolchain_version(&self) -> Result<String, Outcome> {
        mcs_version()
    }

    fn run(&self, corpus_dir: &Path, options: &OracleOptions<'_>) -> Result<Truth, Outcome> {
        let compiled = compile_corpus(corpus_dir, options)?;
        let mut sources = BTreeMap::new();
        let mut declarations = Declarations::default();
        for file in &compiled.files {
            let bytes = std::fs::read(compiled.root.join(file))
                .map_err(|e| failed(format!("cannot read {file}: {e}")))?;
            let source = SourceFile::parse(&bytes, &compiled.defines)
                .ok_or_else(|| failed(format!("tree-sitter cannot parse {file}")))?;
            collect(file, &source, &mut declarations);
            sources.insert(file.clone(), source);
        }
        let mut units = Vec::new();
        for unit in &compiled.units {
            let bytes = std::fs::read(&unit.assembly)
                .map_err(|e| failed(format!("cannot read {}: {e}", unit.assembly.display())))?;
            let assembly = Assembly::read(bytes)
                .map_err(|e| failed(format!("{}: {e}", unit.assembly.display())))?;
            let mdb = unit.assembly.with_extension(format!(
                "{}.mdb",
                unit.assembly
                    .extension()
                    .map_or(String::new(), |e| e.to_string_lossy().into_owned())
            ));
            let bytes = std::fs::read(&mdb)
                .map_err(|e| failed(format!("cannot read {}: {e}", mdb.display())))?;
            let symbols =
                SymbolFile::read(&bytes).map_err(|e| failed(format!("{}: {e}", mdb.display())))?;
            units.push(Unit::new(
                unit.name.clone(),
                assembly,
                symbols,
                &compiled.root,
                &sources,
            ));
        }
        let reading = Reading::new(&units, &declarations, &sources);
        let (sites, references) = reading.sites().map_err(failed)?;
        let truth = Truth {
            schema: TRUTH_SCHEMA.into(),
            corpus: options.corpus_id.into(),
            oracle: OracleStamp::at_name(TOOL, compiled.version, ADAPTER_VERSION),
            shape: None,
            sites,
            references: Some(references),
            pairs: Vec::new(),
        };
        truth
            .validate("mcs-il reading")
            .map_err(|e| failed(e.to_string()))?;
        Ok(truth)
    }
}

/// One compiled unit, read.
pub struct Unit {
    pub name: String,
    pub assembly: Assembly,
    pub symbols: SymbolFile,
    /// Symbol-file source index → the tree file it is (absent: not in the tree).
    files: HashMap<u32, String>,
    /// IL full name → TypeDef row.
    types: HashMap<String, u32>,
}

impl Unit {
    pub fn new(
        name: String,
        assembly: Assembly,
        symbols: SymbolFile,
        root: &Path,
        sources: &BTreeMap<String, SourceFile>,
    ) -> Unit {
        let files = symbols
            .sources
            .iter()
            .filter_map(|(&index, path)| {
                let p = Path::new(path);
                let relative = p.strip_prefix(root).unwrap_or(p);
                let relative = relative.to_string_lossy().replace('\\', "/");
                sources.contains_key(&relative).then_some((index, relative))
            })
            .collect();
        let types = (1..=assembly.type_defs.len() as u32)
            .map(|row| (assembly.type_def_name(row), row))
            .collect();
        Unit {
            name,
            assembly,
            symbols,
            files,
            types,
        }
    }
}

/// What an instruction's operand names.
#[derive(Debug, Clone)]
struct Callee {
    /// The IL name (`get_Item`, `.ctor`, `Ns.IFace.M`).
    name: String,
    /// The declaring type's IL full name.
    type_name: String,
    sig: Option<MethodSig>,
    /// The in-tree MethodDef: (unit, row).
    in_tree: Option<(usize, u32)>,
    /// A MemberRef into a unit of the corpus that names no MethodDef there.
    unresolved: bool,
    /// A method of an array type (`T[,]::Get`, its constructor).
    array: bool,
    /// The MethodDef's flags, when in the tree.
    flags: u16,
    semantics: u16,
    generated: bool,
    delegate_type: bool,
}

/// Why a site is not judged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Verdict {
    Judged,
    Implicit(&'static str),
    Unjudged(&'static str),
}

/// How a callee's declaration was found.
enum Declared {
    At(Vec<Place>),
    Ambiguous,
    NotFound,
}

struct Reading<'a> {
    units: &'a [Unit],
    by_name: HashMap<&'a str, usize>,
    declarations: &'a Declarations,
    sources: &'a BTreeMap<String, SourceFile>,
}

/// A site before the duplicates of one written place merge.
struct Placed {
    reference: bool,
    site: TruthSite,
}

impl<'a> Reading<'a> {
    fn new(
        units: &'a [Unit],
        declarations: &'a Declarations,
        sources: &'a BTreeMap<String, SourceFile>,
    ) -> Self {
        let by_name = units
            .iter()
            .enumerate()
            .map(|(i, u)| (u.name.as_str(), i))
            .collect();
        Reading {
            units,
            by_name,
            declarations,
            sources,
        }
    }

    fn sites(&self) -> Result<(Vec<TruthSite>, Vec<TruthSite>), String> {
        let mut placed = Vec::new();
        for (u, unit) in self.units.iter().enumerate() {
            for (i, method) in unit.assembly.methods.iter().enumerate() {
                let row = i as u32 + 1;
                let calls = unit
                    .assembly
                    .calls(method)
                    .map_err(|e| format!("{}: {}: {e}", unit.name, method.name))?;
                if calls.is_empty() {
                    continue;
                }
                let token = (u32::from(METHOD_DEF) << 24) | row;
                let entries = unit
                    .symbols
                    .methods
                    .get(&token)
                    .map(Vec::as_slice)
                    .unwrap_or(&[]);
                let caller = self.caller(u, row);
                let body_kind = self.body_kind(u, row);
                for call in calls {
                    let callee = self.resolve(u, call.token, 0);
                    let point = entry_at(entries, call.offset);
                    if let Some(p) =
                        self.place(u, &callee, call.op, call.token, point, &caller, body_kind)
                    {
                        placed.push(p);
                    }
                }
            }
        }
        Ok(merged(placed))
    }

    /// One instruction as a site.
    fn place(
        &self,
        u: usize,
        callee: &Callee,
        op: CallOp,
        token: u32,
        point: Option<(&crate::mdb::LineEntry, bool)>,
        caller: &Option<Position>,
        body_kind: BodyKind,
    ) -> Option<Placed> {
        let reference = matches!(op, CallOp::Ldftn | CallOp::Ldvirtftn);
        let unit = &self.units[u];
        let Some((entry, nearest_hidden)) = point else {
            // Code with no sequence point (a default constructor's base call, an
            // anonymous type's Equals): at its caller, under its IL name.
            let at = caller.as_ref()?;
            return Some(Placed {
                reference,
                site: site(
                    &at.file,
                    at.line,
                    None,
                    caller,
                    callee.name.clone(),
                    Vec::new(),
                    Verdict::Implicit("no_sequence_point"),
                ),
            });
        };
        let file = unit.files.get(&entry.file)?;
        let source = self.sources.get(file)?;
        let line = u32::try_from(entry.line).ok().filter(|&l| l > 0)?;
        let column = entry
            .column
            .and_then(|c| u32::try_from(c).ok())
            .and_then(|c| source.byte_column(line, c));
        let written = column.map_or(Written::Other, |c| source.written_at(line, c));
        let plain = source_name(callee);
        if plain.is_empty() {
            return Some(Placed {
                reference,
                site: site(
                    file,
                    line,
                    column,
                    caller,
                    format!("token:{token:#010x}"),
                    Vec::new(),
                    Verdict::Unjudged("callee_unresolved"),
                ),
            });
        }
        let (name, at, verdict) = if nearest_hidden {
            (plain, None, Verdict::Implicit("hidden_sequence_point"))
        } else if body_kind == BodyKind::Generated {
            (plain, None, Verdict::Implicit("compiler_generated"))
        } else if column.is_none() {
            (plain, None, Verdict::Implicit("name_not_at_column"))
        } else {
            self.name_and_verdict(callee, op, &written)
        };
        let (line, column) = at.unwrap_or((line, column.unwrap_or(1)));
        let targets = match verdict {
            Verdict::Judged => self.targets(callee),
            _ => Ok(Vec::new()),
        };
        let verdict = match (&verdict, &targets) {
            (Verdict::Judged, Err(v)) => *v,
            _ => verdict,
        };
        Some(Placed {
            reference,
            site: site(
                file,
                line,
                Some(column),
                caller,
                name,
                targets.unwrap_or_default(),
                verdict,
            ),
        })
    }

    /// The name of the site, its position when not the point's, and its verdict.
    fn name_and_verdict(
        &self,
        callee: &Callee,
        op: CallOp,
        written: &Written,
    ) -> (String, Option<(u32, u32)>, Verdict) {
        let plain = source_name(callee);
        let bare = bare_name(&callee.name).to_string();
        if let Some(class) = set_apart_by_callee(callee, written, &bare) {
            return (plain, None, Verdict::Implicit(class));
        }
        if callee.delegate_type
            && matches!(callee.name.as_str(), "Invoke" | "BeginInvoke" | "EndInvoke")
        {
            let name = match written {
                Written::Name(n) => n.clone(),
                _ => "Invoke".into(),
            };
            return (name, None, Verdict::Unjudged("delegate_invoke"));
        }
        if callee.array {
            let class = if callee.name == ".ctor" {
                "anonymous_or_array_new"
            } else {
                "array_access"
            };
            return (plain, None, Verdict::Implicit(class));
        }
        if callee.unresolved {
            return (plain, None, Verdict::Unjudged("callee_unresolved"));
        }
        match op {
            CallOp::Ldftn | CallOp::Ldvirtftn => match written {
                Written::Name(n) if *n == bare => (bare, None, Verdict::Judged),
                _ => (bare, None, Verdict::Implicit("name_not_at_column")),
            },
            CallOp::Newobj => self.construction(callee, written),
            _ if callee.name == ".ctor" => match written {
                Written::Keyword(k) => (k.clone(), None, Verdict::Judged),
                Written::New { .. } => self.construction(callee, written),
                _ => (plain, None, Verdict::Implicit("implicit_base_ctor")),
            },
            _ => match written {
                Written::Name(n) if *n == bare => (bare, None, Verdict::Judged),
                _ => (
                    plain,
                    None,
                    Verdict::Implicit(set_apart_by_text(callee, written)),
                ),
            },
        }
    }

    /// `new T(…)`: named by T, at T.
    fn construction(
        &self,
        callee: &Callee,
        written: &Written,
    ) -> (String, Option<(u32, u32)>, Verdict) {
        let simple = simple_type_name(&callee.type_name);
        let nullable = callee.type_name.starts_with("System.Nullable`1");
        let is_delegate_ctor = callee
            .sig
            .as_ref()
            .is_some_and(|s| s.params == ["System.Object", "System.IntPtr"]);
        match written {
            Written::New { name, line, column } => {
                let at = Some((*line, *column));
                if *name == simple || keyword_type(name) == Some(simple.as_str()) {
                    (name.clone(), at, Verdict::Judged)
                } else if nullable {
                    (name.clone(), at, Verdict::Implicit("nullable_lifting"))
                } else {
                    (name.clone(), at, Verdict::Implicit("newobj_name_mismatch"))
                }
            }
            _ if is_delegate_ctor => (simple, None, Verdict::Implicit("delegate_ctor")),
            _ if nullable => (simple, None, Verdict::Implicit("nullable_lifting")),
            _ if callee.type_name == "System.Decimal" => {
                (simple, None, Verdict::Implicit("decimal_literal"))
            }
            Written::Token(t)
                if callee
                    .type_name
                    .starts_with("System.Collections.Generic.Dictionary`2")
                    && matches!(t.as_str(), "switch" | "{") =>
            {
                (simple, None, Verdict::Implicit("switch_on_string"))
            }
            _ => (simple, None, Verdict::Implicit("newobj_without_new")),
        }
    }

    /// The acceptable targets of a judged site, or why it cannot be judged after all.
    fn targets(&self, callee: &Callee) -> Result<Vec<TruthTarget>, Verdict> {
        let Some((u, row)) = callee.in_tree else {
            return Ok(vec![TruthTarget::Outside {
                symbol: outside_symbol(callee),
            }]);
        };
        match self.declared(u, row) {
            Declared::At(places) => {
                let set: BTreeSet<TruthTarget> = places
                    .into_iter()
                    .map(|(file, line)| TruthTarget::InTree { file, line })
                    .collect();
                Ok(set.into_iter().collect())
            }
            Declared::Ambiguous => Err(Verdict::Unjudged("declaration_ambiguous")),
            Declared::NotFound => Err(Verdict::Unjudged("declaration_not_found")),
        }
    }

    /// Where an in-tree MethodDef is declared.
    fn declared(&self, u: usize, row: u32) -> Declared {
        let assembly = &self.units[u].assembly;
        let Some(method) = assembly.methods.get(row as usize - 1) else {
            return Declared::NotFound;
        };
        let owner = assembly.type_def_name(method.owner);
        let Ok(sig) = assembly.method_sig(&method.signature) else {
            return Declared::NotFound;
        };
        let explicit = is_explicit(&method.name);
        let bare = bare_name(&method.name);
        let key = (owner.clone(), bare.to_string());
        let named = self.declarations.methods.get(&key);
        let candidates: Vec<_> = named
            .map(Vec::as_slice)
            .unwrap_or(&[])
            .iter()
            .filter(|d| {
                d.explicit == explicit
                    && d.generic_arity == sig.generic_params
                    && d.params.len() == sig.params.len()
            })
            .collect();
        let types = self.declarations.types.get(&owner);
        match candidates.as_slice() {
            // A member no source declares in a declared type (a constructor mcs
            // generated, what it made for a delegate or enum): the type. A name the
            // type does declare, under another signature, is not found.
            [] => match types {
                Some(places) if named.is_none() || method.name.starts_with('.') => {
                    Declared::At(places.clone())
                }
                _ => Declared::NotFound,
            },
            [one] => Declared::At(vec![one.place.clone()]),
            several => {
                let keys: Vec<String> = sig.params.iter().map(|p| il_type_key(p)).collect();
                let same: Vec<_> = several.iter().filter(|d| d.params == keys).collect();
                match same.as_slice() {
                    [one] => Declared::At(vec![one.place.clone()]),
                    [] => Declared::Ambiguous,
                    all if all.iter().all(|d| d.partial) => {
                        Declared::At(all.iter().map(|d| d.place.clone()).collect())
                    }
                    _ => Declared::Ambiguous,
                }
            }
        }
    }

    /// The caller of a body: its declaration, when the source declares it.
    fn caller(&self, u: usize, row: u32) -> Option<Position> {
        let method = self.units[u].assembly.methods.get(row as usize - 1)?;
        if method.name.starts_with('<') {
            return None;
        }
        match self.declared(u, row) {
            Declared::At(places) => places
                .into_iter()
                .next()
                .map(|(file, line)| Position { file, line }),
            _ => None,
        }
    }

    /// Whether a body is one the source writes (a method, or a lambda's, iterator's or
    /// async method's body mcs moved into a generated method) or only compiler-made.
    fn body_kind(&self, u: usize, row: u32) -> BodyKind {
        let assembly = &self.units[u].assembly;
        let Some(method) = assembly.methods.get(row as usize - 1) else {
            return BodyKind::Generated;
        };
        let type_name = assembly.type_def_name(method.owner);
        let in_generated_type = type_name
            .rsplit(['/', '.'])
            .next()
            .is_some_and(|t| t.starts_with('<'));
        let lambda = method.name.starts_with('<') && method.name.contains("m__");
        let written_body = type_name.contains("c__Iterator")
            || type_name.contains("c__async")
            || type_name.contains("c__AnonStorey")
            || type_name.ends_with("<>c");
        if lambda || (in_generated_type && written_body) {
            BodyKind::Source
        } else if in_generated_type || method.name.starts_with('<') {
            BodyKind::Generated
        } else {
            BodyKind::Source
        }
    }

    /// What a token names, from unit `u`.
    fn resolve(&self, u: usize, token: u32, depth: usize) -> Callee {
        let assembly = &self.units[u].assembly;
        let (table, row) = split(token);
        let mut callee = Callee {
            name: String::new(),
            type_name: String::new(),
            sig: None,
            in_tree: None,
            unresolved: false,
            array: false,
            flags: 0,
            semantics: 0,
            generated: false,
            delegate_type: false,
        };
        match table {
            METHOD_DEF => return self.method_def(u, row),
            METHOD_SPEC if depth == 0 => {
                if let Some(&method) = assembly.method_specs.get(row as usize - 1) {
                    return self.resolve(u, method, 1);
                }
            }
            MEMBER_REF => {
                let Some(member) = assembly.member_refs.get(row as usize - 1) else {
                    callee.unresolved = true;
                    return callee;
                };
                callee.name = member.name.clone();
                callee.sig = assembly.method_sig(&member.signature).ok();
                let parent = member.parent;
                let (ptable, prow) = split(parent);
                callee.type_name = assembly.type_name(parent);
                if ptable == TYPE_SPEC && assembly.is_array_spec(parent) {
                    callee.array = true;
                    return callee;
                }
                if ptable == METHOD_DEF {
                    return self.method_def(u, prow);
                }
                let definition = assembly.generic_definition(parent);
                let (dtable, drow) = split(definition);
                let target = match dtable {
                    TYPE_DEF => Some((u, drow)),
                    TYPE_REF => {
                        let (name, scope) = assembly.type_ref_name(drow);
                        callee.type_name = name.clone();
                        let other = scope.and_then(|s| self.by_name.get(s.as_str()).copied());
                        match other {
                            Some(o) => match self.units[o].types.get(&name) {
                                Some(&t) => Some((o, t)),
                                None => {
                                    callee.unresolved = true;
                                    return callee;
                                }
                            },
                            None => {
                                callee.delegate_type = is_framework_delegate(&name);
                                return callee;
                            }
                        }
                    }
                    _ => return callee,
                };
                if let Some((o, t)) = target {
                    match self.find_method(o, t, &member.name, callee.sig.as_ref()) {
                        Some(m) => return self.method_def(o, m),
                        None => callee.unresolved = true,
                    }
                }
            }
            _ => callee.unresolved = true,
        }
        callee
    }

    /// The MethodDef of type `t` in unit `o` with this name and signature.
    fn find_method(&self, o: usize, t: u32, name: &str, sig: Option<&MethodSig>) -> Option<u32> {
        let assembly = &self.units[o].assembly;
        let ty = assembly.type_defs.get(t as usize - 1)?;
        let sig = sig?;
        ty.methods.clone().find(|&m| {
            assembly.methods.get(m as usize - 1).is_some_and(|d| {
                d.name == name && assembly.method_sig(&d.signature).ok().as_ref() == Some(sig)
            })
        })
    }

    fn method_def(&self, u: usize, row: u32) -> Callee {
        let assembly = &self.units[u].assembly;
        let Some(method) = assembly.methods.get(row as usize - 1) else {
            return Callee {
                name: String::new(),
                type_name: String::new(),
                sig: None,
                in_tree: None,
                unresolved: true,
                array: false,
                flags: 0,
                semantics: 0,
                generated: false,
                delegate_type: false,
            };
        };
        let type_name = assembly.type_def_name(method.owner);
        let generated =
            method.name.starts_with('<') || type_name.split(['/', '.']).any(|p| p.starts_with('<'));
        let delegate_type = assembly
            .type_defs
            .get(method.owner as usize - 1)
            .is_some_and(|t| assembly.type_name(t.extends) == "System.MulticastDelegate");
        Callee {
            name: method.name.clone(),
            type_name,
            sig: assembly.method_sig(&method.signature).ok(),
            in_tree: Some((u, row)),
            unresolved: false,
            array: false,
            flags: method.flags,
            semantics: assembly.semantics.get(&row).copied().unwrap_or(0),
            generated,
            delegate_type,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum BodyKind {
    Source,
    Generated,
}

/// One site per written place: a field initialiser runs in every constructor, an
/// iterator's `finally` in MoveNext and Dispose; their copies merge, targets joined.
fn merged(placed: Vec<Placed>) -> (Vec<TruthSite>, Vec<TruthSite>) {
    type Key = (bool, String, u32, Option<u32>, String);
    let mut all: BTreeMap<Key, TruthSite> = BTreeMap::new();
    for p in placed {
        let key = (
            p.reference,
            p.site.file.clone(),
            p.site.line,
            p.site.column,
            p.site.name.clone(),
        );
        match all.get_mut(&key) {
            Some(existing) => {
                let mut targets: BTreeSet<TruthTarget> = existing.targets.drain(..).collect();
                targets.extend(p.site.targets);
                existing.targets = targets.into_iter().collect();
                if existing.targets.is_empty() && existing.is_judged() {
                    existing.unjudged = Some("declaration_not_found".into());
                }
            }
            None => {
                all.insert(key, p.site);
            }
        }
    }
    let mut sites = Vec::new();
    let mut references = Vec::new();
    for ((reference, ..), site) in all {
        if reference {
            references.push(site);
        } else {
            sites.push(site);
        }
    }
    (sites, references)
}

fn site(
    file: &str,
    line: u32,
    column: Option<u32>,
    caller: &Option<Position>,
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
        caller: caller.clone(),
        name,
        targets,
        unjudged,
        implicit,
        expect: None,
        primary: false,
    }
}

/// Whether an IL method name is an explicit interface implementation's (`Ns.I.M`).
fn is_explicit(name: &str) -> bool {
    !name.starts_with('.') && name.contains('.')
}

/// An IL method name without its explicit-interface qualifier.
fn bare_name(name: &str) -> &str {
    if is_explicit(name) {
        name.rsplit('.').next().unwrap_or(name)
    } else {
        name
    }
}

/// A type's simple name: no namespace, nesting, arity or arguments.
fn simple_type_name(il: &str) -> String {
    let base = il.split('<').next().unwrap_or(il);
    let last = base.rsplit(['.', '/']).next().unwrap_or(base);
    last.split('`').next().unwrap_or(last).to_string()
}

/// The name the source uses for a callee: an accessor's member, a constructor's type.
fn source_name(callee: &Callee) -> String {
    let name = bare_name(&callee.name);
    if name == ".ctor" || name == ".cctor" {
        return simple_type_name(&callee.type_name);
    }
    for prefix in ["get_", "set_", "add_", "remove_"] {
        if let Some(member) = name.strip_prefix(prefix) {
            if accessor_class(callee, name).is_some() {
                return member.to_string();
            }
        }
    }
    name.to_string()
}

/// `Ns.Outer.Inner.Method`: the declaring type without arity or arguments.
fn outside_symbol(callee: &Callee) -> String {
    let base = callee
        .type_name
        .split('<')
        .next()
        .unwrap_or(&callee.type_name);
    let clean: Vec<&str> = base
        .split(['.', '/'])
        .map(|p| p.split('`').next().unwrap_or(p))
        .collect();
    format!("{}.{}", clean.join("."), source_name(callee))
}

/// The framework's delegate types, whose Invoke is a call through a delegate.
fn is_framework_delegate(type_name: &str) -> bool {
    let simple = simple_type_name(type_name);
    type_name.starts_with("System.")
        && (matches!(
            simple.as_str(),
            "Func"
                | "Action"
                | "Predicate"
                | "Comparison"
                | "Converter"
                | "EventHandler"
                | "AsyncCallback"
        ) || simple.ends_with("EventHandler")
            || simple.ends_with("Callback"))
}

/// An accessor's class: by its MethodSemantics in the tree, by its name outside.
fn accessor_class(callee: &Callee, name: &str) -> Option<&'static str> {
    let by_semantics = callee.in_tree.is_some();
    let (getter_setter, event) = if by_semantics {
        (callee.semantics & 0x3 != 0, callee.semantics & 0x18 != 0)
    } else {
        (
            name.starts_with("get_") || name.starts_with("set_"),
            name.starts_with("add_") || name.starts_with("remove_"),
        )
    };
    if getter_setter {
        Some(if matches!(name, "get_Item" | "set_Item") {
            "indexer"
        } else {
            "property_accessor"
        })
    } else if event {
        Some("event_accessor")
    } else {
        None
    }
}

/// Calls the callee alone shows no source text writes (the mcs oracle's classes).
fn set_apart_by_callee(callee: &Callee, written: &Written, bare: &str) -> Option<&'static str> {
    let t = callee.type_name.as_str();
    let written_as_named = matches!(written, Written::Name(n) if n == bare);
    if let Some(class) = accessor_class(callee, bare) {
        // Outside the tree only the name says so: a written `get_X()` is a call.
        if callee.in_tree.is_some() || !written_as_named {
            return Some(class);
        }
    }
    if t.starts_with("Microsoft.CSharp.RuntimeBinder.")
        || t.starts_with("System.Runtime.CompilerServices.CallSite")
    {
        return Some("dynamic_binder");
    }
    if bare == "GetTypeFromHandle" && t == "System.Type" {
        return Some("typeof");
    }
    if matches!(bare, "GetMethodFromHandle" | "GetFieldFromHandle")
        || t == "System.Runtime.CompilerServices.RuntimeHelpers"
        || t.starts_with("System.Runtime.CompilerServices.Async")
        || t.starts_with("System.Runtime.CompilerServices.TaskAwaiter")
        || t.starts_with("System.Runtime.CompilerServices.ConfiguredTaskAwaitable")
    {
        return Some("compiler_services");
    }
    if callee.generated {
        return Some(match callee.name.as_str() {
            ".ctor" if t.contains("AnonType") => "anonymous_or_array_new",
            ".ctor" => "closure_or_iterator_ctor",
            _ if !matches!(written, Written::Name(_)) => "lambda",
            _ => "compiler_generated",
        });
    }
    let special = callee.in_tree.is_none() || callee.flags & SPECIAL_NAME != 0;
    if special && bare.starts_with("op_") {
        return Some(if matches!(bare, "op_Implicit" | "op_Explicit") {
            "conversion"
        } else {
            "operator"
        });
    }
    if t == "System.Array" && bare == "Empty" {
        return Some("params_empty_array");
    }
    None
}

/// The class of a call whose point does not show its name: the syntax mcs expanded.
fn set_apart_by_text(callee: &Callee, written: &Written) -> &'static str {
    let t = callee.type_name.as_str();
    let name = bare_name(&callee.name);
    let token = match written {
        Written::Token(k) => k.as_str(),
        _ => "",
    };
    if matches!(token, "foreach" | "using" | "in")
        || matches!(
            name,
            "GetEnumerator" | "MoveNext" | "Dispose" | "get_Current" | "Reset"
        )
    {
        return "foreach_or_using";
    }
    if token == "lock" || t == "System.Threading.Monitor" {
        return "lock";
    }
    if token == "switch" {
        return "switch_on_string";
    }
    let query = matches!(
        token,
        "from" | "where" | "select" | "group" | "orderby" | "join" | "let" | "into" | "by"
    ) || (matches!(t, "System.Linq.Enumerable" | "System.Linq.Queryable")
        && matches!(
            name,
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
        ));
    if query {
        return "query_expression";
    }
    if name == "Finalize" {
        return "destructor_base_call";
    }
    if t == "System.Activator" && name == "CreateInstance" {
        return "generic_new";
    }
    if t.starts_with("System.Nullable`1") {
        return "nullable_lifting";
    }
    if t == "System.String" && matches!(name, "Concat" | "Format") {
        return "string_concat";
    }
    if t == "System.Delegate" && matches!(name, "Combine" | "Remove") {
        return "event_field";
    }
    if name == "Add" {
        return "collection_initializer";
    }
    if t.starts_with("System.Linq.Expressions.Expression") {
        return "expression_tree";
    }
    if token == "await" {
        return "await";
    }
    "name_not_at_column"
}

fn failed(detail: String) -> Outcome {
    Outcome::tool_failed(TOOL, detail)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_without_qualifiers_and_arity() {
        assert_eq!(bare_name("Ns.IFace.M"), "M");
        assert_eq!(bare_name(".ctor"), ".ctor");
        assert_eq!(
            simple_type_name("Ns.Outer`1/Inner`2<!0,System.Int32>"),
            "Inner"
        );
        let callee = Callee {
            name: "get_Count".into(),
            type_name: "System.Collections.Generic.List`1<!0>".into(),
            sig: None,
            in_tree: None,
            unresolved: false,
            array: false,
            flags: 0,
            semantics: 0,
            generated: false,
            delegate_type: false,
        };
        assert_eq!(source_name(&callee), "Count");
        assert_eq!(
            outside_symbol(&callee),
            "System.Collections.Generic.List.Count"
        );
    }
}
