//! Types as the THIR prints them in a callee's generic arguments, and the choice of
//! the impl a trait method runs when the receiver's type is concrete.
//!
//! Type check resolves `x.clone()` to `Clone::clone` with `Self = P`; which body
//! runs is decided later, by trait selection, which the dumps do not print. It is
//! redone here only as far as the crate's own impls decide it, and abstains
//! otherwise: an impl matches when its self type and its trait's written arguments
//! agree with the call's (an impl's type parameter matches anything; a generic
//! parameter of the calling code might be anything, so it matches `maybe`). Exactly
//! one matching impl (coherence allows no other) is the answer; none, for a trait of
//! another crate, means an impl of that crate (std's `impl<T: Display> ToString for
//! T`); anything less certain is left unjudged.

use crate::rust_hir::{Hir, HirImpl, HirTy};
use crate::rustc_dump::{last_segment, Def};

/// The deepest type the parser follows.
const MAX_DEPTH: usize = 48;

/// A type as printed in the THIR.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ty {
    /// A struct, enum or union by its printed path (`util::Sq`, the crate's own
    /// types without the crate name; `std::vec::Vec`), and its arguments.
    Adt {
        path: String,
        args: Vec<Ty>,
    },
    Prim(String),
    Ref {
        mutable: bool,
        inner: Box<Ty>,
    },
    Slice(Box<Ty>),
    Array(Box<Ty>),
    Tuple(Vec<Ty>),
    /// A generic parameter of the calling code (`T/#0`, `Self/#0`, `impl Tr/#1`).
    Param,
    /// A projection or an opaque type (`<T as Tr>::Out`, `impl Iterator`).
    Alias,
    Dyn,
    Closure(Def),
    FnDef(Def),
    FnPtr,
    Lifetime,
    Const,
    Never,
    Other,
}

impl Ty {
    /// Parses one printed type; what it cannot read is [`Ty::Other`].
    pub fn parse(text: &str) -> Ty {
        let mut parser = Parser {
            b: text.as_bytes(),
            text,
            i: 0,
        };
        parser.ty(0)
    }

    /// A type the calling code leaves open: the impl depends on who calls it.
    pub fn is_abstract(&self) -> bool {
        matches!(self, Ty::Param | Ty::Alias | Ty::Dyn)
    }

    /// The type behind any number of references.
    pub fn without_refs(&self) -> &Ty {
        let mut ty = self;
        for _ in 0..MAX_DEPTH {
            match ty {
                Ty::Ref { inner, .. } => ty = inner,
                _ => break,
            }
        }
        ty
    }
}

struct Parser<'a> {
    b: &'a [u8],
    text: &'a str,
    i: usize,
}

const PRIMITIVES: &[&str] = &[
    "bool", "char", "str", "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64",
    "i128", "isize", "f16", "f32", "f64", "f128",
];

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn rest(&self) -> &str {
        &self.text[self.i.min(self.text.len())..]
    }

    fn eat(&mut self, s: &str) -> bool {
        if self.rest().starts_with(s) {
            self.i += s.len();
            true
        } else {
            false
        }
    }

    fn spaces(&mut self) {
        while self.peek() == Some(b' ') {
            self.i += 1;
        }
    }

    /// Skips to the end of the current item: the next `,`, `)`, `]` or `>` outside
    /// brackets (`->` is an arrow, not a bracket).
    fn skip_item(&mut self) {
        let mut depth = 0i32;
        while let Some(c) = self.peek() {
            match c {
                b'-' if self.b.get(self.i + 1) == Some(&b'>') => self.i += 1,
                b'(' | b'[' | b'{' | b'<' => depth += 1,
                b')' | b']' | b'}' | b'>' if depth > 0 => depth -= 1,
                b',' | b')' | b']' | b'>' if depth == 0 => return,
                _ => {}
            }
            self.i += 1;
        }
    }

    fn ty(&mut self, depth: usize) -> Ty {
        self.spaces();
        if depth > MAX_DEPTH {
            self.skip_item();
            return Ty::Other;
        }
        let Some(c) = self.peek() else {
            return Ty::Other;
        };
        match c {
            b'&' => {
                self.i += 1;
                if self.peek() == Some(b'\'') {
                    self.lifetime();
                }
                self.spaces();
                let mutable = self.eat("mut ");
                let inner = self.ty(depth + 1);
                Ty::Ref {
                    mutable,
                    inner: Box::new(inner),
                }
            }
            b'*' => {
                // Raw pointers: no impl of the crate is chosen through one.
                self.skip_item();
                Ty::Other
            }
            b'(' => {
                self.i += 1;
                let items = self.items(b')', depth);
                Ty::Tuple(items)
            }
            b'[' => {
                self.i += 1;
                let inner = self.ty(depth + 1);
                self.spaces();
                if self.peek() == Some(b';') {
                    self.skip_item();
                    self.eat("]");
                    Ty::Array(Box::new(inner))
                } else {
                    self.eat("]");
                    Ty::Slice(Box::new(inner))
                }
            }
            b'\'' => {
                self.lifetime();
                Ty::Lifetime
            }
            b'!' => {
                self.i += 1;
                Ty::Never
            }
            b'<' => {
                self.skip_item_after_angles();
                Ty::Alias
            }
            b'0'..=b'9' | b'-' => {
                self.skip_item();
                Ty::Const
            }
            _ => self.named(depth),
        }
    }

    fn lifetime(&mut self) {
        // `'{erased}`, `'static`, `'^c_0`, `'a`.
        self.i += 1;
        if self.peek() == Some(b'{') {
            while let Some(c) = self.peek() {
                self.i += 1;
                if c == b'}' {
                    break;
                }
            }
        } else {
            while let Some(c) = self.peek() {
                if c.is_ascii_alphanumeric() || c == b'_' || c == b'^' {
                    self.i += 1;
                } else {
                    break;
                }
            }
        }
    }

    fn skip_item_after_angles(&mut self) {
        let mut depth = 0i32;
        while let Some(c) = self.peek() {
            match c {
                b'-' if self.b.get(self.i + 1) == Some(&b'>') => self.i += 1,
                b'<' | b'(' | b'[' | b'{' => depth += 1,
                b'>' | b')' | b']' | b'}' => {
                    depth -= 1;
                    if depth == 0 && c == b'>' {
                        self.i += 1;
                        break;
                    }
                }
                _ => {}
            }
            self.i += 1;
        }
        self.skip_item();
    }

    /// `a, b, c)` up to and past `close`.
    fn items(&mut self, close: u8, depth: usize) -> Vec<Ty> {
        let mut items = Vec::new();
        for _ in 0..4096 {
            self.spaces();
            match self.peek() {
                None => break,
                Some(c) if c == close => {
                    self.i += 1;
                    break;
                }
                Some(b',') => {
                    self.i += 1;
                    continue;
                }
                _ => {}
            }
            let before = self.i;
            items.push(self.ty(depth + 1));
            if self.i == before {
                self.i += 1;
            }
        }
        items
    }

    fn named(&mut self, depth: usize) -> Ty {
        // `impl Into<Id>/#0` is an argument-position `impl Trait`: a parameter.
        for (prefix, ty) in [
            ("dyn ", Ty::Dyn),
            ("impl ", Ty::Param),
            ("Alias(", Ty::Alias),
        ] {
            if self.rest().starts_with(prefix) {
                self.skip_item();
                return ty;
            }
        }
        for prefix in ["fn(", "unsafe ", "extern ", "Binder {", "for<"] {
            if self.rest().starts_with(prefix) {
                self.skip_item();
                return Ty::FnPtr;
            }
        }
        for (prefix, closure) in [("Closure(", true), ("FnDef(", false)] {
            if self.rest().starts_with(prefix) {
                let def = Def::parse(&self.rest()[prefix.len()..]);
                self.skip_item();
                return match (def, closure) {
                    (Some(d), true) => Ty::Closure(d),
                    (Some(d), false) => Ty::FnDef(d),
                    _ => Ty::Other,
                };
            }
        }
        let start = self.i;
        let mut args = Vec::new();
        loop {
            while let Some(c) = self.peek() {
                if c.is_ascii_alphanumeric() || c == b'_' {
                    self.i += 1;
                } else {
                    break;
                }
            }
            if self.i == start {
                self.skip_item();
                return Ty::Other;
            }
            if self.eat("::") {
                continue;
            }
            break;
        }
        let path = self.text[start..self.i].to_string();
        if self.peek() == Some(b'<') {
            self.i += 1;
            args = self.items(b'>', depth);
        }
        if self.eat("/#") {
            while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                self.i += 1;
            }
            return Ty::Param;
        }
        if self.peek() == Some(b'(') || self.peek() == Some(b'{') {
            // `Foreign(…)`, `Coroutine(…)`, `Placeholder { … }`: nothing an impl names.
            self.skip_item();
            return Ty::Other;
        }
        if args.is_empty() && PRIMITIVES.contains(&path.as_str()) {
            return Ty::Prim(path);
        }
        Ty::Adt { path, args }
    }
}

/// How well an impl fits a call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Fit {
    No,
    Maybe,
    Yes,
}

impl Fit {
    fn and(self, other: Fit) -> Fit {
        self.min(other)
    }
}

/// Whether the impl's written type `h` fits the call's type `t`; `hir` is the crate
/// of the impl, `same_crate` whether it is the crate of the call (whose own types
/// print by their path in the crate; any other crate's by a visible path, compared
/// by its last segment).
pub fn fits(h: &HirTy, t: &Ty, hir: &Hir, same_crate: bool, depth: usize) -> Fit {
    if depth > MAX_DEPTH {
        return Fit::Maybe;
    }
    match (h, t) {
        (HirTy::Param(_), _) => Fit::Yes,
        (HirTy::Unknown, _) => Fit::Maybe,
        (_, Ty::Param | Ty::Alias | Ty::Other) => Fit::Maybe,
        (
            HirTy::Adt { def, path, args },
            Ty::Adt {
                path: printed,
                args: targs,
            },
        ) => {
            let same = if def.krate == 0 && same_crate {
                hir.local_path(path) == Some(printed.as_str())
            } else {
                last_segment(path) == last_segment(printed)
            };
            if !same {
                return Fit::No;
            }
            let targs: Vec<&Ty> = targs.iter().filter(|a| **a != Ty::Lifetime).collect();
            args.iter().zip(targs).fold(Fit::Yes, |fit, (a, b)| {
                fit.and(fits(a, b, hir, same_crate, depth + 1))
            })
        }
        (HirTy::Prim(a), Ty::Prim(b)) => {
            if a == b {
                Fit::Yes
            } else {
                Fit::No
            }
        }
        (
            HirTy::Ref { mutable, inner },
            Ty::Ref {
                mutable: m2,
                inner: i2,
            },
        ) => {
            if mutable != m2 {
                Fit::No
            } else {
                fits(inner, i2, hir, same_crate, depth + 1)
            }
        }
        (HirTy::Slice(a), Ty::Slice(b)) | (HirTy::Array(a), Ty::Array(b)) => {
            fits(a, b, hir, same_crate, depth + 1)
        }
        (HirTy::Tuple(a), Ty::Tuple(b)) => {
            if a.len() != b.len() {
                return Fit::No;
            }
            a.iter().zip(b).fold(Fit::Yes, |fit, (x, y)| {
                fit.and(fits(x, y, hir, same_crate, depth + 1))
            })
        }
        _ => Fit::No,
    }
}

/// The std traits whose one parameter defaults to `Self` (`impl PartialEq for Id`
/// is `PartialEq<Id>`). Another trait's omitted parameters are not compared: the
/// dumps do not say how many parameters a trait of another crate has.
const SELF_DEFAULTED: &[&str] = &[
    "core::cmp::PartialEq",
    "core::cmp::PartialOrd",
    "core::ops::arith::Add",
    "core::ops::arith::Sub",
    "core::ops::arith::Mul",
    "core::ops::arith::Div",
    "core::ops::arith::Rem",
    "core::ops::arith::AddAssign",
    "core::ops::arith::SubAssign",
    "core::ops::arith::MulAssign",
    "core::ops::arith::DivAssign",
    "core::ops::arith::RemAssign",
    "core::ops::bit::BitAnd",
    "core::ops::bit::BitOr",
    "core::ops::bit::BitXor",
    "core::ops::bit::Shl",
    "core::ops::bit::Shr",
    "core::ops::bit::BitAndAssign",
    "core::ops::bit::BitOrAssign",
    "core::ops::bit::BitXorAssign",
    "core::ops::bit::ShlAssign",
    "core::ops::bit::ShrAssign",
];

/// What the tree's impls say about a trait method called with these generic
/// arguments (`Self` first, then the trait's).
#[derive(Debug)]
pub enum Selection<'h> {
    /// The one impl of the tree that applies, and the crate it is in.
    Impl(&'h Hir, &'h HirImpl),
    /// No impl of the tree can apply.
    NoLocalImpl,
    /// Several might (or, when `none_possible`, perhaps none): the dumps do not say
    /// which. The call is judged only where every possibility gives one answer.
    Ambiguous {
        candidates: Vec<(&'h Hir, &'h HirImpl)>,
        none_possible: bool,
    },
}

/// Chooses among the impls of the trait at `trait_path` in `crates` (each with
/// whether it is the calling crate) for a call whose generic arguments are `args`;
/// `trait_is_local` says whether every impl of the trait is in these crates.
pub fn select_impl<'h>(
    crates: &[(&'h Hir, bool)],
    trait_path: &str,
    args: &[Ty],
    trait_is_local: bool,
) -> Selection<'h> {
    let Some(self_ty) = args.first() else {
        return Selection::Ambiguous {
            candidates: vec![],
            none_possible: true,
        };
    };
    let trait_args: Vec<&Ty> = args[1..]
        .iter()
        .filter(|a| !matches!(a, Ty::Lifetime | Ty::Const))
        .collect();
    let mut specific: Vec<(Fit, &Hir, &HirImpl)> = Vec::new();
    let mut blanket: Vec<(Fit, &Hir, &HirImpl)> = Vec::new();
    for &(hir, same_crate) in crates {
        for imp in hir.impls_of(trait_path) {
            let Some((_, written)) = &imp.of_trait else {
                continue;
            };
            let defaulted;
            let written = if written.is_empty() && SELF_DEFAULTED.contains(&trait_path) {
                defaulted = [imp.self_ty.clone()];
                &defaulted[..]
            } else {
                &written[..]
            };
            let mut fit = fits(&imp.self_ty, self_ty, hir, same_crate, 0);
            for (h, t) in written.iter().zip(trait_args.iter()) {
                fit = fit.and(fits(h, t, hir, same_crate, 0));
            }
            if fit == Fit::No {
                continue;
            }
            if matches!(imp.self_ty, HirTy::Param(_)) {
                blanket.push((fit, hir, imp));
            } else {
                specific.push((fit, hir, imp));
            }
        }
    }
    let ambiguous =
        |found: &[(Fit, &'h Hir, &'h HirImpl)], more_possible: bool| Selection::Ambiguous {
            candidates: found.iter().map(|&(_, h, i)| (h, i)).collect(),
            none_possible: more_possible || !found.iter().any(|(f, _, _)| *f == Fit::Yes),
        };
    match specific[..] {
        [(Fit::Yes, hir, imp)] => return Selection::Impl(hir, imp),
        [] => {}
        _ => return ambiguous(&specific, false),
    }
    match blanket[..] {
        [] => Selection::NoLocalImpl,
        [(Fit::Yes, hir, imp)] if trait_is_local => Selection::Impl(hir, imp),
        // A blanket impl of another crate's trait may yield to that crate's own.
        _ => ambiguous(&blanket, !trait_is_local),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn adt(path: &str, args: Vec<Ty>) -> Ty {
        Ty::Adt {
            path: path.into(),
            args,
        }
    }

    #[test]
    fn printed_types_are_read() {
        assert_eq!(
            Ty::parse("std::vec::Vec<util::id::Id, std::alloc::Global>"),
            adt(
                "std::vec::Vec",
                vec![
                    adt("util::id::Id", vec![]),
                    adt("std::alloc::Global", vec![])
                ]
            )
        );
        assert_eq!(
            Ty::parse("&'{erased} mut util::Counter"),
            Ty::Ref {
                mutable: true,
                inner: Box::new(adt("util::Counter", vec![]))
            }
        );
        assert_eq!(
            Ty::parse("&'{erased} str").without_refs(),
            &Ty::Prim("str".into())
        );
        assert_eq!(Ty::parse("T/#0"), Ty::Param);
        assert_eq!(Ty::parse("impl Into<Id>/#0"), Ty::Param);
        assert_eq!(
            Ty::parse("dyn [Binder { value: Trait(util::Shape), bound_vars: [] }] + '{erased}"),
            Ty::Dyn
        );
        assert_eq!(
            Ty::parse("Alias(Opaque, AliasTy { args: ['{erased}], def_id: DefId(0:2 ~ k[1]::f::{opaque#0}), .. })"),
            Ty::Alias
        );
        assert_eq!(
            Ty::parse("(builder::str::Str, bool)"),
            Ty::Tuple(vec![
                adt("builder::str::Str", vec![]),
                Ty::Prim("bool".into())
            ])
        );
        assert_eq!(
            Ty::parse("[&'{erased} str; 2_usize]"),
            Ty::Array(Box::new(Ty::Ref {
                mutable: false,
                inner: Box::new(Ty::Prim("str".into()))
            }))
        );
        let Ty::Closure(def) = Ty::parse(
            "Closure(DefId(0:28 ~ fixture[fbb3]::run::{closure#0}), [i8, Binder { value: extern \"RustCall\" fn((u32,)) -> u32, bound_vars: [] }, ()])",
        ) else {
            panic!("a closure");
        };
        assert_eq!(def.path, "fixture::run::{closure#0}");
        assert_eq!(
            Ty::parse("std::iter::Map<std::slice::Iter<'{erased}, u8>, Binder { value: fn(&'^0.Named(x) u8) -> u8, bound_vars: [] }>"),
            adt(
                "std::iter::Map",
                vec![
                    adt("std::slice::Iter", vec![Ty::Lifetime, Ty::Prim("u8".into())]),
                    Ty::FnPtr
                ]
            )
        );
    }
}
