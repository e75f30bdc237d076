//! Rust policy: the closed lists of prelude names, derivable traits and methods
//! that hand their receiver back, the markers the frontend writes into receiver
//! paths, and the families the resolver places with, in rule order.

use crate::resolve::family::Family;

/// The families the Rust resolver may place with, in rule order.
pub const FAMILIES: &[Family] = &[
    Family::Lexical,
    Family::Import,
    Family::QualifiedPath,
    Family::OwnType,
    Family::WrittenType,
    Family::ValueFlow,
    Family::ReturnType,
    Family::Inheritance,
    Family::Builtin,
    Family::ExternalImport,
    Family::ForeignType,
    Family::NothingDeclaresIt,
];

/// A receiver path that starts with this element was written with `::`
/// (`a::b::f()`, `T::new()`): it names modules and types, not a value. `::` is no
/// identifier, so the marker cannot clash with a name.
pub const SCOPED: &str = "::";
/// `x?` in a receiver path: the value inside an `Option`/`Result`.
pub const TRY: &str = "?";
/// The type `_`: what the source leaves to inference, unknown to the engine.
pub const INFERRED: &str = "_";
/// `Err(e)` in a pattern's path: the error a `Result` holds.
pub const ERR: &str = "!err";
/// `x[i]` in a receiver path: an element of x.
pub const INDEX: &str = "[]";
/// `*x` in a receiver path: x itself, unless x's type implements `Deref`.
pub const DEREF: &str = "*";
/// `x.await` in a receiver path: the future's output.
pub const AWAIT: &str = ".await";
/// A tuple type `(A, B)`: the path `["(,)"]` with the elements as arguments.
pub const TUPLE: &str = "(,)";
/// A parameter type written `impl Tr`: the path `["impl"]` with the trait as its
/// only argument (`impl` is a keyword, never a type name).
pub const IMPL_TRAIT: &str = "impl";

/// The parameter index the frontend gives `self` (`&self`, `self: Box<Self>`).
pub const RECEIVER_INDEX: u32 = u32::MAX;

/// Functions and tuple variants the prelude brings into every module: a bare call
/// to one leaves the tree (`builtin`) unless the tree binds the name.
pub const PRELUDE_FUNCTIONS: &[&str] = &["Some", "Ok", "Err", "drop", "Box", "panic"];

/// Types of the prelude and `std` a receiver's written type may name without a
/// `use`: their methods leave the tree (`foreign_type`).
pub const PRELUDE_TYPES: &[&str] = &[
    "Option", "Result", "Vec", "String", "Box", "str", "bool", "char", "u8", "u16", "u32", "u64",
    "u128", "usize", "i8", "i16", "i32", "i64", "i128", "isize", "f32", "f64",
];

/// Wrappers whose first type argument is what `unwrap`, `?`, iteration or
/// auto-deref reach (`Option<T>`, `Result<T, E>`, `Box<T>`, `Vec<T>`, `Rc<T>` …).
pub const WRAPPERS: &[&str] = &[
    "Option",
    "Result",
    "Box",
    "Rc",
    "Arc",
    "RefCell",
    "Cell",
    "Mutex",
    "RwLock",
    "Vec",
    "VecDeque",
    "Cow",
    "Ref",
    "RefMut",
    "MutexGuard",
    "Pin",
    "HashSet",
    "BTreeSet",
    "Iterator",
    "IntoIterator",
    "DoubleEndedIterator",
    "ExactSizeIterator",
    "Peekable",
];

/// Wrappers through which a method call reaches the inner value by auto-deref
/// (`Box<T>`, `Rc<T>`, `Arc<T>`): `b.m()` where T declares m is T's m.
pub const DEREF_WRAPPERS: &[&str] = &["Box", "Rc", "Arc", "Ref", "RefMut", "MutexGuard", "Pin"];

/// Methods of std that hand their receiver (or the value it wraps) back:
/// `x.unwrap().m()` calls m on what x wraps. Never applied where the tree
/// declares a method of that name on the receiver's own type.
pub const HANDS_BACK_INNER: &[&str] = &[
    "unwrap",
    "expect",
    "unwrap_or_default",
    "unwrap_or",
    "unwrap_or_else",
    "unwrap_unchecked",
    "borrow",
    "borrow_mut",
    "lock",
    "read",
    "write",
    "get_mut",
];

/// Methods that hand the receiver back as it is (`x.clone().m()`, `x.as_ref()`).
pub const HANDS_BACK_SAME: &[&str] = &[
    "clone",
    "as_ref",
    "as_mut",
    "iter",
    "iter_mut",
    "into_iter",
    "by_ref",
    "to_owned",
    "as_deref",
    "as_deref_mut",
    "rev",
    "skip",
    "take",
    "peekable",
    "cloned",
    "copied",
    "filter",
];

/// Traits `#[derive]` implements and the method each gives the type: calls to
/// them leave the tree (the compiler writes the body).
pub const DERIVED_METHODS: &[(&str, &[&str], &[&str])] = &[
    ("Clone", &["clone"], &["clone_from"]),
    ("PartialEq", &["eq"], &["ne"]),
    ("Eq", &[], &[]),
    ("PartialOrd", &["partial_cmp"], &["lt", "le", "gt", "ge"]),
    ("Ord", &["cmp"], &["max", "min", "clamp"]),
    ("Hash", &["hash"], &[]),
    ("Default", &["default"], &[]),
    ("Debug", &["fmt"], &[]),
];

/// How a derived trait gives a method: the derive writes its body (compiled at
/// the decorated item), or the trait provides it (its default body, in std).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DerivedMethod {
    Generated,
    Provided(&'static str),
}

pub fn is_prelude_function(name: &str) -> bool {
    PRELUDE_FUNCTIONS.contains(&name)
}

pub fn is_prelude_type(name: &str) -> bool {
    PRELUDE_TYPES.contains(&name)
}

pub fn is_wrapper(name: &str) -> bool {
    WRAPPERS.contains(&name)
}

pub fn is_deref_wrapper(name: &str) -> bool {
    DEREF_WRAPPERS.contains(&name)
}

/// Derived methods that return `Self` (`a.clone()`, `T::default()`).
pub const DERIVED_SELF_METHODS: &[&str] = &["clone", "default"];

/// How `derives` give `method`, if one of them does: `clone`, `eq`, `cmp` are
/// written by the derive; `ne`, `max`, `clone_from` are the trait's own defaults.
pub fn derived_method<'a>(
    derives: impl Iterator<Item = &'a str>,
    method: &str,
) -> Option<DerivedMethod> {
    let derives: Vec<&str> = derives.collect();
    DERIVED_METHODS
        .iter()
        .filter(|(t, _, _)| derives.contains(t))
        .find_map(|(t, generated, provided)| {
            if generated.contains(&method) {
                Some(DerivedMethod::Generated)
            } else if provided.contains(&method) {
                Some(DerivedMethod::Provided(t))
            } else {
                None
            }
        })
}

/// The first path element of a crate outside the tree that every build can
/// name: `std`, `core`, `alloc`.
pub fn is_std_crate(name: &str) -> bool {
    matches!(name, "std" | "core" | "alloc" | "proc_macro" | "test")
}

/// Methods of `Iterator` and `Option` whose closure argument receives an element
/// of the receiver (`v.iter().filter(|x| …)`, `opt.map(|x| …)`): the closure's
/// first parameter, when its type is not written, holds such an element.
pub const ELEMENT_CLOSURE_METHODS: &[&str] = &[
    "map",
    "filter",
    "any",
    "all",
    "find",
    "for_each",
    "filter_map",
    "position",
    "flat_map",
    "take_while",
    "skip_while",
    "inspect",
    "map_or",
    "map_or_else",
    "and_then",
    "is_some_and",
    "find_map",
    "max_by_key",
    "min_by_key",
];

/// Associated functions of std types (and derived `default`/`clone`) that
/// return the type they are called on: `String::from(…)`, `Vec::new()`,
/// `T::default()` give a value of that type.
pub const CONSTRUCTOR_FUNCTIONS: &[&str] = &[
    "new",
    "from",
    "with_capacity",
    "default",
    "from_iter",
    "new_in",
    "clone",
];

/// Prelude constructors and the type of the value they make.
pub const PRELUDE_CONSTRUCTS: &[(&str, &str)] =
    &[("Some", "Option"), ("Ok", "Result"), ("Err", "Result")];

/// Methods of std collections and iterators that return `Option` of an element
/// of the receiver (`v.pop()`, `it.next()`, `v.first()`, `it.find(…)`).
pub const OPTION_OF_ELEMENT: &[&str] = &[
    "next",
    "pop",
    "first",
    "last",
    "get",
    "first_mut",
    "last_mut",
    "find",
    "nth",
    "peek",
    "min_by_key",
    "max_by_key",
    "next_back",
    "pop_front",
    "pop_back",
    "front",
    "back",
];

/// Macros whose value is a std type the source names by the macro:
/// `vec![…]` is a `Vec`, `format!(…)` a `String`.
pub const VALUE_MACROS: &[(&str, &str)] = &[("vec", "Vec"), ("format", "String")];

/// Macros of std whose arguments are expressions evaluated where the macro is
/// written: the calls their token trees write are read as calls (a macro the
/// tree or a crate defines may do anything with its tokens, so its arguments
/// are not read).
/// Which argument of an `ELEMENT_CLOSURE_METHODS` call is the closure receiving
/// the element: the second for `map_or(default, |x| …)` and `map_or_else(|e| …,
/// |x| …)` (on a `Result` the first closure receives the error), else the first.
pub fn element_closure_argument(method: &str) -> usize {
    match method {
        "map_or" | "map_or_else" => 1,
        _ => 0,
    }
}

/// std macros whose first argument only is an expression (`matches!(x.kind(),
/// Kind::A | Kind::B)`: the rest is a pattern).
pub const FIRST_ARGUMENT_MACROS: &[&str] = &["matches"];

pub const ARGUMENT_MACROS: &[&str] = &[
    "println",
    "print",
    "eprintln",
    "eprint",
    "format",
    "write",
    "writeln",
    "panic",
    "assert",
    "assert_eq",
    "assert_ne",
    "debug_assert",
    "debug_assert_eq",
    "debug_assert_ne",
    "vec",
    "format_args",
    "unreachable",
    "todo",
    "unimplemented",
    "dbg",
];
