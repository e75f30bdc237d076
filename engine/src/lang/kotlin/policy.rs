//! Kotlin's closed lists: the rule families in rule order, the packages every file
//! imports by default, the standard library's types and top-level functions a
//! call may reach without an import, and how its scope functions bind `this` and
//! `it`.

use crate::resolve::family::Family;

/// The families the Kotlin rules place with, in rule order.
pub const FAMILIES: &[Family] = &[
    Family::Lexical,
    Family::OwnType,
    Family::Inheritance,
    Family::Construction,
    Family::Import,
    Family::QualifiedPath,
    Family::WrittenType,
    Family::ReturnType,
    Family::Builtin,
    Family::ExternalImport,
    Family::ForeignType,
    Family::NothingDeclaresIt,
];

/// The packages every Kotlin/JVM file imports by default (the language
/// specification's default imports plus the JVM platform's).
pub const DEFAULT_IMPORTS: &[&str] = &[
    "kotlin",
    "kotlin.annotation",
    "kotlin.collections",
    "kotlin.comparisons",
    "kotlin.io",
    "kotlin.ranges",
    "kotlin.sequences",
    "kotlin.text",
    "java.lang",
    "kotlin.jvm",
];

/// Types a Kotlin file names without an import, with their package: a closed
/// list of the default imports' public types the corpora and proofs write.
pub const DEFAULT_TYPES: &[(&str, &str)] = &[
    ("Any", "kotlin"),
    ("Nothing", "kotlin"),
    ("Unit", "kotlin"),
    ("String", "kotlin"),
    ("CharSequence", "kotlin"),
    ("Char", "kotlin"),
    ("Boolean", "kotlin"),
    ("Byte", "kotlin"),
    ("Short", "kotlin"),
    ("Int", "kotlin"),
    ("Long", "kotlin"),
    ("Float", "kotlin"),
    ("Double", "kotlin"),
    ("Number", "kotlin"),
    ("Comparable", "kotlin"),
    ("Array", "kotlin"),
    ("IntArray", "kotlin"),
    ("LongArray", "kotlin"),
    ("ByteArray", "kotlin"),
    ("CharArray", "kotlin"),
    ("BooleanArray", "kotlin"),
    ("DoubleArray", "kotlin"),
    ("FloatArray", "kotlin"),
    ("ShortArray", "kotlin"),
    ("Pair", "kotlin"),
    ("Triple", "kotlin"),
    ("Lazy", "kotlin"),
    ("Result", "kotlin"),
    ("Enum", "kotlin"),
    ("Throwable", "kotlin"),
    ("Exception", "kotlin"),
    ("RuntimeException", "kotlin"),
    ("Error", "kotlin"),
    ("IllegalArgumentException", "kotlin"),
    ("IllegalStateException", "kotlin"),
    ("IndexOutOfBoundsException", "kotlin"),
    ("UnsupportedOperationException", "kotlin"),
    ("NoSuchElementException", "kotlin"),
    ("NumberFormatException", "kotlin"),
    ("ClassCastException", "kotlin"),
    ("NullPointerException", "kotlin"),
    ("ArithmeticException", "kotlin"),
    ("AssertionError", "kotlin"),
    ("Function", "kotlin"),
    ("Annotation", "kotlin"),
    ("Deprecated", "kotlin"),
    ("Suppress", "kotlin"),
    ("Iterable", "kotlin.collections"),
    ("MutableIterable", "kotlin.collections"),
    ("Collection", "kotlin.collections"),
    ("MutableCollection", "kotlin.collections"),
    ("List", "kotlin.collections"),
    ("MutableList", "kotlin.collections"),
    ("Set", "kotlin.collections"),
    ("MutableSet", "kotlin.collections"),
    ("Map", "kotlin.collections"),
    ("MutableMap", "kotlin.collections"),
    ("Iterator", "kotlin.collections"),
    ("MutableIterator", "kotlin.collections"),
    ("ListIterator", "kotlin.collections"),
    ("ArrayList", "kotlin.collections"),
    ("HashMap", "kotlin.collections"),
    ("LinkedHashMap", "kotlin.collections"),
    ("HashSet", "kotlin.collections"),
    ("LinkedHashSet", "kotlin.collections"),
    ("ArrayDeque", "kotlin.collections"),
    ("Sequence", "kotlin.sequences"),
    ("IntRange", "kotlin.ranges"),
    ("LongRange", "kotlin.ranges"),
    ("CharRange", "kotlin.ranges"),
    ("ClosedRange", "kotlin.ranges"),
    ("Regex", "kotlin.text"),
    ("MatchResult", "kotlin.text"),
    ("StringBuilder", "kotlin.text"),
    ("Appendable", "kotlin.text"),
    ("Charsets", "kotlin.text"),
    ("Comparator", "kotlin"),
    ("Object", "java.lang"),
    ("System", "java.lang"),
    ("Math", "java.lang"),
    ("Thread", "java.lang"),
    ("Class", "java.lang"),
    ("Integer", "java.lang"),
    ("Character", "java.lang"),
    ("Runnable", "java.lang"),
    ("AutoCloseable", "java.lang"),
    ("Cloneable", "java.lang"),
    ("Process", "java.lang"),
    ("Runtime", "java.lang"),
    ("Volatile", "kotlin.jvm"),
    ("JvmStatic", "kotlin.jvm"),
    ("JvmField", "kotlin.jvm"),
    ("JvmName", "kotlin.jvm"),
    ("JvmOverloads", "kotlin.jvm"),
    ("Throws", "kotlin.jvm"),
    ("Synchronized", "kotlin.jvm"),
];

/// The standard library's top-level functions a file calls without an import
/// (default imports): a closed list. A tree that declares a visible function of
/// the name wins over it, as an explicit or same-package declaration does.
pub const DEFAULT_FUNCTIONS: &[&str] = &[
    "println",
    "print",
    "readLine",
    "readln",
    "error",
    "require",
    "requireNotNull",
    "check",
    "checkNotNull",
    "assert",
    "TODO",
    "run",
    "with",
    "repeat",
    "lazy",
    "lazyOf",
    "synchronized",
    "runCatching",
    "maxOf",
    "minOf",
    "listOf",
    "listOfNotNull",
    "mutableListOf",
    "arrayListOf",
    "emptyList",
    "setOf",
    "mutableSetOf",
    "hashSetOf",
    "linkedSetOf",
    "sortedSetOf",
    "emptySet",
    "mapOf",
    "mutableMapOf",
    "hashMapOf",
    "linkedMapOf",
    "sortedMapOf",
    "emptyMap",
    "arrayOf",
    "arrayOfNulls",
    "emptyArray",
    "intArrayOf",
    "longArrayOf",
    "charArrayOf",
    "byteArrayOf",
    "booleanArrayOf",
    "doubleArrayOf",
    "floatArrayOf",
    "sequenceOf",
    "emptySequence",
    "generateSequence",
    "sequence",
    "iterator",
    "buildString",
    "buildList",
    "buildSet",
    "buildMap",
    "compareBy",
    "compareValues",
    "compareValuesBy",
    "naturalOrder",
    "reverseOrder",
    "Pair",
    "Triple",
    "Regex",
    "StringBuilder",
    "ArrayList",
    "HashMap",
    "LinkedHashMap",
    "HashSet",
    "LinkedHashSet",
    "ArrayDeque",
    "IllegalArgumentException",
    "IllegalStateException",
    "UnsupportedOperationException",
    "IndexOutOfBoundsException",
    "NoSuchElementException",
    "NumberFormatException",
    "RuntimeException",
    "Exception",
    "Error",
    "AssertionError",
    "Throwable",
    "NullPointerException",
    "ClassCastException",
    "ArithmeticException",
    "Any",
    "Object",
    "Thread",
    "Array",
    "IntArray",
    "CharArray",
    "ByteArray",
    "BooleanArray",
    "LongArray",
];

/// Extension functions of the standard library that every value has (they are
/// declared on a type parameter `T` or on `Any?`), and `Any`'s own members.
pub const ANY_MEMBERS: &[&str] = &[
    "let",
    "also",
    "apply",
    "run",
    "takeIf",
    "takeUnless",
    "to",
    "toString",
    "equals",
    "hashCode",
];

/// `Any`'s members that the standard library also declares as extensions on a
/// nullable receiver (`Any?.toString()`, `Any?.hashCode()`): on a nullable value
/// kotlinc binds the extension.
pub const NULLABLE_RECEIVER: &[&str] = &["toString", "hashCode"];

/// Scope functions whose lambda's receiver (`this`) is the call's receiver.
pub const RECEIVER_IS_THIS: &[&str] = &["apply", "run"];

/// Scope functions whose lambda's `it` is the call's receiver.
pub const RECEIVER_IS_IT: &[&str] = &["let", "also", "takeIf", "takeUnless"];

/// How a lambda passed to an outside function of this name binds its implicit
/// receiver: `Some(true)` the call's receiver (or, for `with`, its first
/// argument), `Some(false)` no receiver at all; `None` the name is not known.
pub fn outside_lambda_receiver(name: &str) -> Option<LambdaReceiver> {
    if RECEIVER_IS_THIS.contains(&name) {
        return Some(LambdaReceiver::CallReceiver);
    }
    if name == "with" {
        return Some(LambdaReceiver::FirstArgument);
    }
    if let Some(&(_, fqn)) = RECEIVER_BUILDERS.iter().find(|(n, _)| *n == name) {
        return Some(LambdaReceiver::Outside(fqn));
    }
    NO_RECEIVER.contains(&name).then_some(LambdaReceiver::None)
}

/// What a lambda's `this` is when an outside function calls it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LambdaReceiver {
    /// The receiver of the call (`x.apply { … }`).
    CallReceiver,
    /// The call's first argument (`with(x) { … }`).
    FirstArgument,
    /// An outside type (`buildString { … }`: a StringBuilder).
    Outside(&'static str),
    /// No implicit receiver.
    None,
}

/// Builders whose lambda's receiver is an outside type.
const RECEIVER_BUILDERS: &[(&str, &str)] = &[
    ("buildString", "kotlin.text.StringBuilder"),
    ("buildList", "kotlin.collections.MutableList"),
    ("buildSet", "kotlin.collections.MutableSet"),
    ("buildMap", "kotlin.collections.MutableMap"),
];

/// Outside functions whose lambdas take no receiver (`it` or named parameters
/// only): the standard library's collection, string and control functions.
const NO_RECEIVER: &[&str] = &[
    "let",
    "also",
    "takeIf",
    "takeUnless",
    "repeat",
    "lazy",
    "synchronized",
    "runCatching",
    "use",
    "forEach",
    "forEachIndexed",
    "onEach",
    "map",
    "mapIndexed",
    "mapNotNull",
    "mapIndexedNotNull",
    "mapTo",
    "mapKeys",
    "mapValues",
    "flatMap",
    "filter",
    "filterNot",
    "filterIndexed",
    "filterKeys",
    "filterValues",
    "filterIsInstance",
    "any",
    "all",
    "none",
    "count",
    "first",
    "firstOrNull",
    "last",
    "lastOrNull",
    "find",
    "findLast",
    "single",
    "singleOrNull",
    "indexOfFirst",
    "indexOfLast",
    "sortedBy",
    "sortedByDescending",
    "sortedWith",
    "sortBy",
    "sortWith",
    "maxBy",
    "maxByOrNull",
    "minBy",
    "minByOrNull",
    "maxOf",
    "minOf",
    "sumOf",
    "groupBy",
    "associate",
    "associateBy",
    "associateWith",
    "partition",
    "zip",
    "fold",
    "foldIndexed",
    "reduce",
    "takeWhile",
    "dropWhile",
    "distinctBy",
    "joinToString",
    "joinTo",
    "getOrElse",
    "getOrPut",
    "compareBy",
    "thenBy",
    "thenByDescending",
    "compareByDescending",
    "removeAll",
    "retainAll",
    "removeIf",
    "computeIfAbsent",
    "compute",
    "replace",
    "split",
    "require",
    "check",
    "requireNotNull",
    "checkNotNull",
    "generateSequence",
    "Comparator",
    "thread",
    "measureTimeMillis",
    "measureNanoTime",
    "onFailure",
    "onSuccess",
    "getOrDefault",
    "ifEmpty",
    "ifBlank",
    "trimEnd",
    "trimStart",
    "trim",
    "withIndex",
    "chunked",
    "windowed",
    "lines",
];

/// Collection functions whose lambda's single parameter is an element of the
/// receiver (its first type argument).
pub const ELEMENT_LAMBDAS: &[&str] = &[
    "forEach",
    "onEach",
    "map",
    "mapNotNull",
    "flatMap",
    "filter",
    "filterNot",
    "any",
    "all",
    "none",
    "count",
    "first",
    "firstOrNull",
    "last",
    "lastOrNull",
    "find",
    "findLast",
    "single",
    "singleOrNull",
    "sortedBy",
    "sortedByDescending",
    "maxByOrNull",
    "minByOrNull",
    "sumOf",
    "groupBy",
    "associate",
    "associateBy",
    "associateWith",
    "partition",
    "takeWhile",
    "dropWhile",
    "distinctBy",
    "joinToString",
    "indexOfFirst",
    "indexOfLast",
];

/// Outside types that hand out their elements by the first type argument.
pub const ELEMENT_CONTAINERS: &[&str] = &[
    "kotlin.collections.Iterable",
    "kotlin.collections.MutableIterable",
    "kotlin.collections.Collection",
    "kotlin.collections.MutableCollection",
    "kotlin.collections.List",
    "kotlin.collections.MutableList",
    "kotlin.collections.Set",
    "kotlin.collections.MutableSet",
    "kotlin.collections.ArrayList",
    "kotlin.collections.HashSet",
    "kotlin.collections.LinkedHashSet",
    "kotlin.sequences.Sequence",
    "kotlin.Array",
];

/// Members of outside types known in full: a name that is not among them is not
/// a member, so a call inside a lambda with that receiver looks further out.
pub fn known_members(fqn: &str) -> Option<&'static [&'static str]> {
    let members: &[&str] = match fqn {
        "kotlin.Any" => &["equals", "hashCode", "toString"],
        "kotlin.text.StringBuilder" => &[
            "append",
            "appendLine",
            "appendln",
            "insert",
            "setLength",
            "toString",
            "length",
            "get",
            "reverse",
            "delete",
            "deleteCharAt",
            "replace",
            "indexOf",
            "lastIndexOf",
            "substring",
            "setCharAt",
            "clear",
            "isEmpty",
            "isNotEmpty",
            "equals",
            "hashCode",
            "capacity",
            "ensureCapacity",
            "trimToSize",
            "subSequence",
            "chars",
            "codePointAt",
            // java.lang.StringBuilder's own (kotlin.text.StringBuilder is its alias).
            "appendCodePoint",
            "codePointBefore",
            "codePointCount",
            "offsetByCodePoints",
            "getChars",
            "charAt",
            "compareTo",
            "codePoints",
        ],
        "kotlin.collections.MutableList" | "kotlin.collections.MutableSet" => &[
            "add",
            "addAll",
            "remove",
            "removeAll",
            "removeAt",
            "retainAll",
            "clear",
            "contains",
            "containsAll",
            "isEmpty",
            "iterator",
            "size",
            "get",
            "set",
            "indexOf",
            "lastIndexOf",
            "listIterator",
            "subList",
            "equals",
            "hashCode",
            "toString",
        ],
        "kotlin.Throwable"
        | "kotlin.Exception"
        | "kotlin.RuntimeException"
        | "kotlin.Error"
        | "kotlin.IllegalStateException"
        | "kotlin.IllegalArgumentException"
        | "kotlin.UnsupportedOperationException" => &[
            "message",
            "cause",
            "localizedMessage",
            "stackTrace",
            "suppressed",
            "getMessage",
            "getCause",
            "getLocalizedMessage",
            "getStackTrace",
            "setStackTrace",
            "getSuppressed",
            "addSuppressed",
            "printStackTrace",
            "fillInStackTrace",
            "initCause",
            "toString",
            "equals",
            "hashCode",
        ],
        "kotlin.Comparable" => &["compareTo", "equals", "hashCode", "toString"],
        "kotlin.collections.MutableMap" => &[
            "put",
            "putAll",
            "remove",
            "clear",
            "get",
            "containsKey",
            "containsValue",
            "isEmpty",
            "size",
            "keys",
            "values",
            "entries",
            "equals",
            "hashCode",
            "toString",
        ],
        _ => return None,
    };
    Some(members)
}

/// A member list with `java.lang.Object`'s members after the type's own (a
/// Java class has them all, `clone` and `finalize` protected).
macro_rules! with_object_members {
    ($($own:literal),* $(,)?) => {
        &[
            $($own,)*
            "equals", "hashCode", "toString", "getClass", "notify", "notifyAll", "wait",
            "clone", "finalize",
        ]
    };
}

/// The member names an outside type may have, as a superset: a name not listed is
/// certainly no member, so an extension of the tree of that name is what kotlinc
/// calls; a listed one is a member that wins over any extension whenever it
/// applies. `None`: the type's members are not known (an extension on it may be
/// shadowed by a member the engine does not see).
pub fn outside_member_names(fqn: &str) -> Option<&'static [&'static str]> {
    if let Some(known) = known_members(fqn) {
        return Some(known);
    }
    let members: &[&str] = match fqn {
        "kotlin.Int" | "kotlin.Long" => INTEGER_MEMBERS,
        "kotlin.Short" | "kotlin.Byte" | "kotlin.Double" | "kotlin.Float" => NUMBER_MEMBERS,
        "kotlin.Char" => CHAR_MEMBERS,
        "kotlin.Boolean" => &[
            "not",
            "and",
            "or",
            "xor",
            "compareTo",
            "equals",
            "hashCode",
            "toString",
        ],
        "kotlin.String" => STRING_MEMBERS,
        "java.io.Closeable" | "java.lang.AutoCloseable" | "kotlin.AutoCloseable" => {
            &["close", "equals", "hashCode", "toString"]
        }
        "java.io.Flushable" => &["flush", "equals", "hashCode", "toString"],
        "kotlin.collections.Iterator" => &["hasNext", "next", "equals", "hashCode", "toString"],
        "kotlin.collections.MutableIterator" => &[
            "hasNext", "next", "remove", "equals", "hashCode", "toString",
        ],
        // The abstract java.io classes: their member functions on the JDK the
        // oracle runs and later ones, and `Object`'s (a superset).
        "java.io.Reader" => with_object_members!(
            "read",
            "skip",
            "ready",
            "markSupported",
            "mark",
            "reset",
            "close",
            "transferTo",
            "nullReader",
            "of",
        ),
        "java.io.Writer" => with_object_members!("write", "append", "flush", "close", "nullWriter"),
        "java.io.InputStream" => with_object_members!(
            "read",
            "readAllBytes",
            "readNBytes",
            "skip",
            "skipNBytes",
            "available",
            "close",
            "mark",
            "reset",
            "markSupported",
            "transferTo",
            "nullInputStream",
        ),
        "java.io.OutputStream" => {
            with_object_members!("write", "flush", "close", "nullOutputStream")
        }
        "java.lang.Cloneable" | "kotlin.Cloneable" => &["clone", "equals", "hashCode", "toString"],
        "java.io.Serializable" | "java.util.RandomAccess" | "kotlin.collections.RandomAccess" => {
            &["equals", "hashCode", "toString"]
        }
        "java.nio.channels.Channel"
        | "java.nio.channels.ByteChannel"
        | "java.nio.channels.ReadableByteChannel"
        | "java.nio.channels.WritableByteChannel" => &[
            "read", "write", "isOpen", "close", "equals", "hashCode", "toString",
        ],
        "kotlin.CharSequence" => &[
            "length",
            "get",
            "subSequence",
            "chars",
            "codePoints",
            "isEmpty",
            "charAt",
            "equals",
            "hashCode",
            "toString",
        ],
        "kotlin.collections.Iterable"
        | "kotlin.collections.MutableIterable"
        | "kotlin.collections.Collection"
        | "kotlin.collections.MutableCollection"
        | "kotlin.collections.List"
        | "kotlin.collections.Set" => COLLECTION_MEMBERS,
        "kotlin.collections.Map" => MAP_MEMBERS,
        "kotlin.ByteArray"
        | "kotlin.CharArray"
        | "kotlin.IntArray"
        | "kotlin.LongArray"
        | "kotlin.ShortArray"
        | "kotlin.BooleanArray"
        | "kotlin.DoubleArray"
        | "kotlin.FloatArray"
        | "kotlin.Array" => &[
            "get", "set", "iterator", "clone", "size", "equals", "hashCode", "toString",
        ],
        _ => return None,
    };
    Some(members)
}

/// The members of Kotlin's collection interfaces with the JDK's (`stream`,
/// `removeIf`, `replaceAll`, … are visible on the mapped types), mutable ones
/// included: a superset.
const COLLECTION_MEMBERS: &[&str] = &[
    "iterator",
    "forEach",
    "spliterator",
    "size",
    "isEmpty",
    "contains",
    "containsAll",
    "stream",
    "parallelStream",
    "toArray",
    "removeIf",
    "add",
    "addAll",
    "remove",
    "removeAll",
    "retainAll",
    "clear",
    "get",
    "set",
    "indexOf",
    "lastIndexOf",
    "listIterator",
    "subList",
    "removeAt",
    "replaceAll",
    "sort",
    "addFirst",
    "addLast",
    "removeFirst",
    "removeLast",
    "getFirst",
    "getLast",
    "reversed",
    "equals",
    "hashCode",
    "toString",
];

/// `Map`'s members with the JDK's, mutable ones included: a superset.
const MAP_MEMBERS: &[&str] = &[
    "size",
    "isEmpty",
    "containsKey",
    "containsValue",
    "get",
    "keys",
    "values",
    "entries",
    "getOrDefault",
    "forEach",
    "put",
    "putAll",
    "remove",
    "clear",
    "putIfAbsent",
    "replace",
    "replaceAll",
    "compute",
    "computeIfAbsent",
    "computeIfPresent",
    "merge",
    "equals",
    "hashCode",
    "toString",
];

/// The numbers' members: arithmetic, comparison, ranges, conversions.
const NUMBER_MEMBERS: &[&str] = &[
    "plus",
    "minus",
    "times",
    "div",
    "rem",
    "inc",
    "dec",
    "unaryPlus",
    "unaryMinus",
    "rangeTo",
    "rangeUntil",
    "compareTo",
    "toByte",
    "toChar",
    "toShort",
    "toInt",
    "toLong",
    "toFloat",
    "toDouble",
    "equals",
    "hashCode",
    "toString",
];

/// `Int`'s and `Long`'s members: the numbers' and the bitwise infix operations.
const INTEGER_MEMBERS: &[&str] = &[
    "plus",
    "minus",
    "times",
    "div",
    "rem",
    "inc",
    "dec",
    "unaryPlus",
    "unaryMinus",
    "rangeTo",
    "rangeUntil",
    "compareTo",
    "toByte",
    "toChar",
    "toShort",
    "toInt",
    "toLong",
    "toFloat",
    "toDouble",
    "equals",
    "hashCode",
    "toString",
    "and",
    "or",
    "xor",
    "inv",
    "shl",
    "shr",
    "ushr",
];

const CHAR_MEMBERS: &[&str] = &[
    "plus",
    "minus",
    "inc",
    "dec",
    "rangeTo",
    "rangeUntil",
    "compareTo",
    "toByte",
    "toChar",
    "toShort",
    "toInt",
    "toLong",
    "toFloat",
    "toDouble",
    "equals",
    "hashCode",
    "toString",
];

/// kotlin.String's members. The JDK's `java.lang.String` methods are hidden on the
/// mapped type (kotlinc binds KotlinPoet's `String.codePointAt` extension, not
/// `java.lang.String.codePointAt`).
const STRING_MEMBERS: &[&str] = &[
    "length",
    "get",
    "subSequence",
    "compareTo",
    "plus",
    "equals",
    "hashCode",
    "toString",
];

/// What a standard-library conversion `x.toT()` returns.
pub fn conversion_result(name: &str) -> Option<&'static str> {
    Some(match name {
        "toByte" => "kotlin.Byte",
        "toShort" => "kotlin.Short",
        "toInt" => "kotlin.Int",
        "toLong" => "kotlin.Long",
        "toFloat" => "kotlin.Float",
        "toDouble" => "kotlin.Double",
        "toChar" => "kotlin.Char",
        _ => return None,
    })
}

/// The type the standard library's copy of a collection into another returns
/// (`toMutableList` on an `Iterable`, a `Collection` or a `List` is a
/// `MutableList`), read only on a receiver of a `kotlin.collections` type.
pub fn collection_copy_result(name: &str) -> Option<&'static str> {
    Some(match name {
        "toList" => "kotlin.collections.List",
        "toMutableList" => "kotlin.collections.MutableList",
        "toSet" => "kotlin.collections.Set",
        "toMutableSet" => "kotlin.collections.MutableSet",
        "toMap" => "kotlin.collections.Map",
        "toMutableMap" => "kotlin.collections.MutableMap",
        _ => return None,
    })
}

/// The parameter type of an integer's bitwise infix member (`Int.and(Int)`,
/// `Long.shl(Int)`): the one member of the name, so an argument of known type
/// decides whether it applies.
pub fn integer_operand(fqn: &str, name: &str) -> Option<&'static str> {
    let own = match fqn {
        "kotlin.Int" => "kotlin.Int",
        "kotlin.Long" => "kotlin.Long",
        _ => return None,
    };
    match name {
        "and" | "or" | "xor" => Some(own),
        "shl" | "shr" | "ushr" => Some("kotlin.Int"),
        _ => None,
    }
}

/// Members the compiler generates on a data class: reached on the class itself
/// (no text declares them; kotlinc's IR points at the class).
pub const DATA_CLASS_MEMBERS: &[&str] = &["copy", "equals", "hashCode", "toString"];

/// Members every enum has: `values()`/`valueOf()` are generated on the enum,
/// the others come from `kotlin.Enum`.
pub const ENUM_GENERATED: &[&str] = &["values", "valueOf"];
pub const ENUM_MEMBERS: &[&str] = &[
    "name",
    "ordinal",
    "compareTo",
    "equals",
    "hashCode",
    "toString",
];

/// The package a default-imported type lives in.
pub fn default_type(name: &str) -> Option<&'static str> {
    DEFAULT_TYPES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, p)| *p)
}

/// Whether a dotted name is in the JDK or the Kotlin standard library.
pub fn is_stdlib(fqn: &str) -> bool {
    ["kotlin.", "java.", "javax.", "jdk.", "sun."]
        .iter()
        .any(|p| fqn.starts_with(p))
        || fqn == "kotlin"
}

/// The outside supertypes of an outside type the corpora use, so an extension
/// declared on `CharSequence` applies to a `String`.
pub fn outside_supertypes(fqn: &str) -> &'static [&'static str] {
    match fqn {
        "kotlin.String" => &["kotlin.CharSequence", "kotlin.Comparable", "kotlin.Any"],
        "kotlin.text.StringBuilder" => &[
            "kotlin.CharSequence",
            "kotlin.text.Appendable",
            "kotlin.Any",
        ],
        "kotlin.Int" | "kotlin.Long" | "kotlin.Double" | "kotlin.Float" | "kotlin.Short"
        | "kotlin.Byte" => &["kotlin.Number", "kotlin.Comparable", "kotlin.Any"],
        "kotlin.collections.MutableList" | "kotlin.collections.ArrayList" => &[
            "kotlin.collections.List",
            "kotlin.collections.MutableCollection",
            "kotlin.collections.Collection",
            "kotlin.collections.MutableIterable",
            "kotlin.collections.Iterable",
            "kotlin.Any",
        ],
        "kotlin.collections.List" | "kotlin.collections.Set" => &[
            "kotlin.collections.Collection",
            "kotlin.collections.Iterable",
            "kotlin.Any",
        ],
        "kotlin.collections.MutableSet"
        | "kotlin.collections.HashSet"
        | "kotlin.collections.LinkedHashSet" => &[
            "kotlin.collections.Set",
            "kotlin.collections.MutableCollection",
            "kotlin.collections.Collection",
            "kotlin.collections.MutableIterable",
            "kotlin.collections.Iterable",
            "kotlin.Any",
        ],
        "kotlin.collections.Collection" => &["kotlin.collections.Iterable", "kotlin.Any"],
        "kotlin.collections.MutableMap"
        | "kotlin.collections.HashMap"
        | "kotlin.collections.LinkedHashMap" => &["kotlin.collections.Map", "kotlin.Any"],
        _ => &["kotlin.Any"],
    }
}

/// Outside classes (not interfaces) the corpora pass, each with the classes it
/// extends, itself first: a class has one superclass, so a value of one of them
/// is a value of another only when one's chain holds the other, smart cast or
/// not (Kotlin refuses `is` between unrelated classes).
pub fn outside_class_chain(fqn: &str) -> Option<&'static [&'static str]> {
    Some(match fqn {
        "java.io.Reader" => &["java.io.Reader"],
        "java.io.InputStream" => &["java.io.InputStream"],
        "java.io.Writer" => &["java.io.Writer"],
        "java.io.OutputStream" => &["java.io.OutputStream"],
        "java.io.File" => &["java.io.File"],
        "java.io.StringReader" => &["java.io.StringReader", "java.io.Reader"],
        "java.io.InputStreamReader" => &["java.io.InputStreamReader", "java.io.Reader"],
        "java.io.FileReader" => &[
            "java.io.FileReader",
            "java.io.InputStreamReader",
            "java.io.Reader",
        ],
        "java.io.FileInputStream" => &["java.io.FileInputStream", "java.io.InputStream"],
        "kotlin.text.StringBuilder" | "java.lang.StringBuilder" => &["kotlin.text.StringBuilder"],
        _ => return None,
    })
}

/// Whether two listed outside classes are unrelated: neither extends the other.
pub fn unrelated_outside_classes(a: &str, b: &str) -> bool {
    match (outside_class_chain(a), outside_class_chain(b)) {
        (Some(ca), Some(cb)) => !ca.contains(&cb[0]) && !cb.contains(&ca[0]),
        _ => false,
    }
}

/// A listed outside interface by Kotlin's name, itself first, then every
/// supertype it has on the JVM (`Any` left out): a class whose outside bases are
/// all listed is a subtype of these and of no other outside type. Only
/// interfaces whose supertypes are known in full are listed; a class of the tree
/// extending anything else may be a subtype of any outside type.
pub fn closed_supertypes(fqn: &str) -> Option<&'static [&'static str]> {
    const ITERABLE: &str = "kotlin.collections.Iterable";
    const COLLECTION: &str = "kotlin.collections.Collection";
    Some(match fqn {
        "kotlin.Any" => &["kotlin.Any"],
        "kotlin.Comparable" => &["kotlin.Comparable"],
        "kotlin.CharSequence" => &["kotlin.CharSequence"],
        "kotlin.Annotation" => &["kotlin.Annotation"],
        "kotlin.Cloneable" => &["kotlin.Cloneable"],
        "kotlin.AutoCloseable" => &["kotlin.AutoCloseable"],
        "kotlin.text.Appendable" => &["kotlin.text.Appendable"],
        "java.io.Serializable" => &["java.io.Serializable"],
        "java.io.Flushable" => &["java.io.Flushable"],
        "java.io.Closeable" => &["java.io.Closeable", "kotlin.AutoCloseable"],
        "kotlin.collections.Iterable" => &[ITERABLE],
        "kotlin.collections.Collection" => &[COLLECTION, ITERABLE],
        "kotlin.collections.List" => &["kotlin.collections.List", COLLECTION, ITERABLE],
        "kotlin.collections.Set" => &["kotlin.collections.Set", COLLECTION, ITERABLE],
        "kotlin.collections.Map" => &["kotlin.collections.Map"],
        _ => return None,
    })
}

/// Kotlin's name for a Java type it maps to its own (`java.lang.Comparable` is
/// `kotlin.Comparable`), so that two spellings of one type compare equal.
pub fn kotlin_name(fqn: &str) -> &str {
    match fqn {
        "java.lang.Object" => "kotlin.Any",
        "java.lang.Comparable" => "kotlin.Comparable",
        "java.lang.CharSequence" => "kotlin.CharSequence",
        "java.lang.annotation.Annotation" => "kotlin.Annotation",
        "java.lang.Cloneable" => "kotlin.Cloneable",
        "java.lang.AutoCloseable" => "kotlin.AutoCloseable",
        "java.lang.Appendable" => "kotlin.text.Appendable",
        "java.lang.Iterable" => "kotlin.collections.Iterable",
        "java.util.Collection" => "kotlin.collections.Collection",
        "java.util.List" => "kotlin.collections.List",
        "java.util.Set" => "kotlin.collections.Set",
        "java.util.Map" => "kotlin.collections.Map",
        other => other,
    }
}

/// A listed final outside class by Kotlin's name, with every supertype it has on
/// the JDK the oracle runs (`Any` left out): no other class extends it.
fn final_class_supertypes(fqn: &str) -> Option<&'static [&'static str]> {
    Some(match fqn {
        "java.lang.Class" => &[
            "java.io.Serializable",
            "java.lang.reflect.GenericDeclaration",
            "java.lang.reflect.AnnotatedElement",
            "java.lang.reflect.Type",
            "java.lang.invoke.TypeDescriptor",
            "java.lang.invoke.TypeDescriptor.OfField",
            "java.lang.constant.Constable",
        ],
        _ => return None,
    })
}

/// Whether no value of outside type `a` is one of outside type `b`, smart cast
/// or not, because one of them is a listed final class the other neither is nor
/// is a supertype of: a `KClass` is no `Class`.
pub fn final_class_apart(a: &str, b: &str) -> bool {
    let (a, b) = (kotlin_name(a), kotlin_name(b));
    let apart = |fin: &str, other: &str| {
        final_class_supertypes(fin)
            .is_some_and(|above| fin != other && other != "kotlin.Any" && !above.contains(&other))
    };
    apart(a, b) || apart(b, a)
}
