//! The expression core the frontends share (issue 15): what an expression is as far
//! as calls, receivers, arguments and values care ([`Shape`]), extended per
//! language by one variant ([`Shape::Lang`]) whose meaning the language gives
//! ([`LangShape`]); and the one way a call site is written into the facts
//! ([`CallSite`] and [`push_call`]).
//!
//! The five first frontends each grew a private copy of this core; the frontends
//! written since (C#, Kotlin, Ada) are written on it, and the older ones move onto
//! it with their reports byte-identical.

use tree_sitter::Node;

use crate::facts::{
    ArgShape, Call, CallIdx, CallKind, Callee, DeclIdx, FileFacts, LiteralType, Receiver, ScopeIdx,
    TypeRef, ValueExpr,
};
use crate::lang::syntax::{column_of, line_of, tail_of};

/// Deeper syntax than this is not walked: the frontend stops descending and counts
/// one parse error (`syntax::ErrorCount::too_deep`). It mirrors
/// `Limits::default().max_depth`; the frontends' entry points take no limits.
pub const MAX_DEPTH: u32 = 2_000;

/// `wrote` is for people: a long callee is cut to its last bytes.
pub const MAX_WROTE: usize = 120;

/// The source between two byte offsets as a callee is written for people:
/// whitespace collapsed (`a . b` reads `a.b`), a long text cut to its tail with
/// `…` before it. Only a bounded slice is read, so the cost stays linear however
/// long the receiver expression is.
pub fn wrote(src: &[u8], start: usize, end: usize) -> String {
    let from = start.max(end.saturating_sub(MAX_WROTE * 2));
    let raw = String::from_utf8_lossy(&src[from..end]);
    let mut text: String = raw.split_whitespace().collect::<Vec<_>>().join(" ");
    text = text.replace(" .", ".").replace(". ", ".");
    if from > start || text.len() > MAX_WROTE {
        text = format!("…{}", tail_of(&text, MAX_WROTE));
    }
    text
}

/// What an expression is, as far as calls, receivers, arguments and values care.
/// `X` is what one language adds (a lambda, a cast, `super`, a module value, …).
#[derive(Debug, Clone)]
pub enum Shape<X> {
    /// Nothing the resolver can follow.
    Unknown,
    /// A bare identifier.
    Name(String),
    /// A dotted path of names: `this.a.b`, `pkg.T`.
    Path(Vec<String>),
    /// The result of the call at this index of the file.
    Call(CallIdx),
    /// A path read after a call: `f().a.b`.
    CallThen(CallIdx, Vec<String>),
    /// A value of exactly the written type: a construction (`new T()`, `T{}`).
    New(TypeRef),
    Literal(LiteralType),
    /// What only this language writes.
    Lang(X),
}

/// What a language's own shapes mean as a receiver, an argument and a value. Each
/// method defaults to "nothing the resolver can follow".
pub trait LangShape: Sized {
    fn receiver(self) -> Receiver {
        Receiver::Unknown
    }

    fn arg(self) -> ArgShape {
        ArgShape::Unknown
    }

    fn value(self) -> ValueExpr {
        ValueExpr::Unknown
    }

    /// The value of `f().a.b`: unknown unless the language reads segments after a
    /// call (Rust's `?` and fields).
    fn call_then_value(_call: CallIdx, _path: Vec<String>) -> ValueExpr {
        ValueExpr::Unknown
    }
}

/// A language that adds nothing to the core.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoExtension {}

impl LangShape for NoExtension {}

impl<X: LangShape> Shape<X> {
    /// The shape as the receiver of a member call (`recv.m()`).
    pub fn receiver(self) -> Receiver {
        match self {
            Shape::Name(n) => Receiver::Path(vec![n]),
            Shape::Path(p) => Receiver::Path(p),
            Shape::Call(i) => Receiver::Call(i),
            Shape::CallThen(i, p) => Receiver::CallThen { call: i, path: p },
            Shape::New(t) => Receiver::New(t),
            Shape::Literal(l) => Receiver::Literal(l),
            Shape::Lang(x) => x.receiver(),
            Shape::Unknown => Receiver::Unknown,
        }
    }

    /// The shape as a call's argument (for the overload pass and value flow).
    pub fn arg(self) -> ArgShape {
        match self {
            Shape::Name(n) => ArgShape::Name(n),
            Shape::Path(p) => ArgShape::Path(p),
            Shape::Call(i) => ArgShape::Call(i),
            Shape::New(t) => ArgShape::New(t),
            Shape::Literal(l) => ArgShape::Literal(l),
            Shape::Lang(x) => x.arg(),
            Shape::Unknown | Shape::CallThen(..) => ArgShape::Unknown,
        }
    }

    /// The shape as what a name is bound to (`h = f`, `x = T()`).
    pub fn value(self) -> ValueExpr {
        match self {
            Shape::Name(n) => ValueExpr::Name(n),
            Shape::Path(p) => ValueExpr::Attribute { path: p },
            Shape::Call(i) => ValueExpr::CallResult(i),
            Shape::CallThen(i, p) => X::call_then_value(i, p),
            Shape::New(t) => ValueExpr::New(t),
            Shape::Literal(l) => ValueExpr::Literal(l),
            Shape::Lang(x) => x.value(),
            Shape::Unknown => ValueExpr::Unknown,
        }
    }

    /// The shape extended by one member segment (`a` → `a.b`, `f()` → `f().b`);
    /// a segment after anything else is nothing the resolver can follow.
    pub fn then(self, segment: &str) -> Shape<X> {
        match self {
            Shape::Name(n) => Shape::Path(vec![n, segment.to_string()]),
            Shape::Path(mut p) => {
                p.push(segment.to_string());
                Shape::Path(p)
            }
            Shape::Call(c) => Shape::CallThen(c, vec![segment.to_string()]),
            Shape::CallThen(c, mut p) => {
                p.push(segment.to_string());
                Shape::CallThen(c, p)
            }
            _ => Shape::Unknown,
        }
    }
}

/// One call site as a frontend reads it, before it is written into the facts.
pub struct CallSite<'t> {
    /// The called name's token: the site's position (`b` in `a.b()`, `T` in `new T()`).
    pub name: Node<'t>,
    pub callee: Callee,
    pub kind: CallKind,
    pub args: Vec<ArgShape>,
    /// A spread or splat argument makes the count unknowable.
    pub has_splat: bool,
    pub type_args: u32,
    /// The callee as written, for people.
    pub wrote: String,
    /// Where the call stands (read by Ada's overload choice).
    pub context: crate::facts::CallContext,
}

impl<'t> CallSite<'t> {
    /// A plain call with nothing but its callee known yet.
    pub fn new(name: Node<'t>, callee: Callee, wrote: String) -> CallSite<'t> {
        CallSite {
            name,
            callee,
            kind: CallKind::Call,
            args: Vec::new(),
            has_splat: false,
            type_args: 0,
            wrote,
            context: crate::facts::CallContext::Unread,
        }
    }
}

/// Writes a call site into the facts, inside `caller`'s body and `scope`; returns
/// its index, which a [`Shape::Call`] of the call's result names.
pub fn push_call(
    facts: &mut FileFacts,
    caller: Option<DeclIdx>,
    scope: ScopeIdx,
    site: CallSite,
) -> CallIdx {
    let idx = facts.calls.len() as CallIdx;
    facts.calls.push(Call {
        line: line_of(site.name),
        column: column_of(site.name),
        caller,
        scope,
        callee: site.callee,
        kind: site.kind,
        args: site.args,
        keyword_args: 0,
        keywords: Vec::new(),
        has_splat: site.has_splat,
        type_args: site.type_args,
        wrote: site.wrote,
        context: site.context,
    });
    idx
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Clone)]
    enum Extra {
        Lambda(DeclIdx),
    }

    impl LangShape for Extra {
        fn arg(self) -> ArgShape {
            match self {
                Extra::Lambda(d) => ArgShape::Function(d),
            }
        }
    }

    #[test]
    fn segments_extend_names_paths_and_call_results() {
        let s: Shape<NoExtension> = Shape::Name("a".into());
        assert!(matches!(s.then("b"), Shape::Path(p) if p == ["a", "b"]));
        let s: Shape<NoExtension> = Shape::Call(3);
        match s.then("x").then("y") {
            Shape::CallThen(3, p) => assert_eq!(p, ["x", "y"]),
            other => panic!("{other:?}"),
        }
        let s: Shape<NoExtension> = Shape::Literal(LiteralType::Int);
        assert!(matches!(s.then("x"), Shape::Unknown));
    }

    #[test]
    fn the_core_reads_receivers_arguments_and_values_the_same_way_everywhere() {
        let s: Shape<NoExtension> = Shape::Name("x".into());
        assert!(matches!(s.receiver(), Receiver::Path(p) if p == ["x"]));
        let s: Shape<NoExtension> = Shape::CallThen(1, vec!["f".into()]);
        assert!(matches!(s.clone().arg(), ArgShape::Unknown));
        assert!(matches!(s.value(), ValueExpr::Unknown));
        let s: Shape<NoExtension> = Shape::New(TypeRef::simple("T"));
        assert!(matches!(s.value(), ValueExpr::New(t) if t.last() == Some("T")));
    }

    #[test]
    fn a_language_extension_speaks_for_its_own_variant_only() {
        let s: Shape<Extra> = Shape::Lang(Extra::Lambda(4));
        assert!(matches!(s.clone().arg(), ArgShape::Function(4)));
        // Not overridden: the default, nothing to follow.
        assert!(matches!(s.clone().receiver(), Receiver::Unknown));
        assert!(matches!(s.value(), ValueExpr::Unknown));
    }

    #[test]
    fn the_depth_bound_is_the_limits_default() {
        assert_eq!(MAX_DEPTH, crate::limits::Limits::default().max_depth);
    }

    #[test]
    fn a_callee_is_written_collapsed_and_cut_to_its_tail() {
        let src = b"a .\n   b(x)";
        assert_eq!(wrote(src, 0, 8), "a.b");
        let long = format!("{}.m", "x".repeat(400));
        let w = wrote(long.as_bytes(), 0, long.len());
        assert!(w.starts_with('…') && w.ends_with("x.m"));
        assert!(w.len() <= MAX_WROTE + '…'.len_utf8());
    }

    #[test]
    fn a_call_site_lands_at_its_name_token() {
        let mut parser = tree_sitter::Parser::new();
        parser
            .set_language(&tree_sitter_go::LANGUAGE.into())
            .unwrap();
        let src = "package p\nfunc f() { a.b() }\n";
        let tree = parser.parse(src, None).unwrap();
        let mut name = None;
        let mut stack = vec![tree.root_node()];
        while let Some(n) = stack.pop() {
            if n.kind() == "field_identifier" {
                name = Some(n);
            }
            stack.extend(crate::lang::syntax::named_children(n));
        }
        let mut facts = FileFacts::new("p.go", crate::lang::Language::Go);
        let site = CallSite::new(
            name.unwrap(),
            Callee::Member {
                receiver: Receiver::Path(vec!["a".into()]),
                name: "b".into(),
            },
            "a.b".into(),
        );
        let idx = push_call(&mut facts, None, 0, site);
        assert_eq!(idx, 0);
        let call = &facts.calls[0];
        assert_eq!((call.line, call.column), (2, 14));
        assert_eq!(call.name(), "b");
        assert_eq!(call.kind, CallKind::Call);
    }
}
