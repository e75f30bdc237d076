//! C# policy: the families this language places with (in rule order) and the
//! closed lists the rules read — the predefined types, the members every object
//! has, the platform's namespaces and a few well-known types of the base class
//! library (their namespaces, supertypes, member lists and result types).

use crate::resolve::family::Family;

/// The families C#'s rules place with, in the order the rules first use them
/// (printed by `callgraph languages`).
pub const FAMILIES: &[Family] = &[
    // constructor_chain: `: this(…)` own constructors, `: base(…)` the base's;
    // an outside base class by how its name was bound.
    Family::OwnType,
    Family::Inheritance,
    Family::Builtin,
    Family::ExternalImport,
    Family::ForeignType,
    // construction: `new T()`.
    Family::Construction,
    // simple_name: a local function.
    Family::Lexical,
    // simple_name: `using static N.T;` then `M()`.
    Family::Import,
    // typed_receiver: locals, parameters, fields, properties, casts, literals.
    Family::WrittenType,
    // type_receiver: `Type.M()`.
    Family::QualifiedPath,
    // chained_receiver: `a.B().C()` through B's declared return type.
    Family::ReturnType,
];

/// The predefined type keywords and the types they name.
pub const PREDEFINED: &[(&str, &str)] = &[
    ("bool", "System.Boolean"),
    ("byte", "System.Byte"),
    ("sbyte", "System.SByte"),
    ("char", "System.Char"),
    ("decimal", "System.Decimal"),
    ("double", "System.Double"),
    ("float", "System.Single"),
    ("int", "System.Int32"),
    ("uint", "System.UInt32"),
    ("long", "System.Int64"),
    ("ulong", "System.UInt64"),
    ("short", "System.Int16"),
    ("ushort", "System.UInt16"),
    ("nint", "System.IntPtr"),
    ("nuint", "System.UIntPtr"),
    ("object", "System.Object"),
    ("string", "System.String"),
];

/// The keywords that name value types (every predefined type but `object` and
/// `string`).
pub fn is_value_keyword(keyword: &str) -> bool {
    !matches!(keyword, "object" | "string")
}

/// The keyword a `System` type is written with (`System.Int32` → `int`).
pub fn keyword_of(fqn: &str) -> Option<&'static str> {
    PREDEFINED.iter().find(|(_, f)| *f == fqn).map(|(k, _)| *k)
}

/// The full name of a predefined keyword's type.
pub fn fqn_of_keyword(keyword: &str) -> Option<&'static str> {
    PREDEFINED
        .iter()
        .find(|(k, _)| *k == keyword)
        .map(|(_, f)| *f)
}

/// What every type has from `System.Object` (and a struct from `System.ValueType`).
pub const OBJECT_METHODS: &[&str] = &[
    "Equals",
    "GetHashCode",
    "GetType",
    "ToString",
    "MemberwiseClone",
    "ReferenceEquals",
    "Finalize",
];

/// What an enum has from `System.Enum`.
pub const ENUM_METHODS: &[&str] = &[
    "HasFlag",
    "CompareTo",
    "GetTypeCode",
    "ToString",
    "Equals",
    "GetHashCode",
];

/// The roots of the platform's namespaces: a path starting with one of them that
/// the tree does not declare is outside.
const PLATFORM_ROOTS: &[&str] = &["System", "Microsoft", "Mono"];

pub fn is_platform_root(segment: &str) -> bool {
    PLATFORM_ROOTS.contains(&segment)
}

/// `System`, `System.Collections.Generic`, `Microsoft.Win32`…: a namespace of the
/// platform (the tree may add types to one, never own it).
pub fn is_platform_namespace(namespace: &str) -> bool {
    PLATFORM_ROOTS.iter().any(|root| {
        namespace == *root
            || namespace
                .strip_prefix(root)
                .is_some_and(|rest| rest.starts_with('.'))
    })
}

/// Outside symbols under the platform's namespaces are `stdlib`, others `external`.
pub fn is_stdlib(fqn: &str) -> bool {
    is_platform_namespace(fqn)
}

/// Types of the base class library by simple name and the namespace that holds
/// them: the full name of an outside type a using directive brings in.
const WELL_KNOWN: &[(&str, &str)] = &[
    ("Action", "System"),
    ("Activator", "System"),
    ("ArgumentException", "System"),
    ("ArgumentNullException", "System"),
    ("ArgumentOutOfRangeException", "System"),
    ("Array", "System"),
    ("Attribute", "System"),
    ("BitConverter", "System"),
    ("Buffer", "System"),
    ("Char", "System"),
    ("Console", "System"),
    ("Convert", "System"),
    ("DateTime", "System"),
    ("DateTimeOffset", "System"),
    ("Delegate", "System"),
    ("Enum", "System"),
    ("Environment", "System"),
    ("EventArgs", "System"),
    ("EventHandler", "System"),
    ("Func", "System"),
    ("Predicate", "System"),
    ("Comparison", "System"),
    ("Lazy", "System"),
    ("IntPtr", "System"),
    ("Exception", "System"),
    ("FormatException", "System"),
    ("GC", "System"),
    ("Guid", "System"),
    ("IDisposable", "System"),
    ("IComparable", "System"),
    ("IConvertible", "System"),
    ("IEquatable", "System"),
    ("IFormattable", "System"),
    ("IServiceProvider", "System"),
    ("InvalidCastException", "System"),
    ("InvalidOperationException", "System"),
    ("Math", "System"),
    ("NotImplementedException", "System"),
    ("NotSupportedException", "System"),
    ("Nullable", "System"),
    ("Object", "System"),
    ("ObjectDisposedException", "System"),
    ("OverflowException", "System"),
    ("Random", "System"),
    ("String", "System"),
    ("StringComparer", "System"),
    ("TimeSpan", "System"),
    ("Type", "System"),
    ("Uri", "System"),
    ("Version", "System"),
    ("ArrayList", "System.Collections"),
    ("Hashtable", "System.Collections"),
    ("ICollection", "System.Collections"),
    ("IDictionary", "System.Collections"),
    ("IEnumerable", "System.Collections"),
    ("IEnumerator", "System.Collections"),
    ("IList", "System.Collections"),
    ("Dictionary", "System.Collections.Generic"),
    ("HashSet", "System.Collections.Generic"),
    ("ICollection", "System.Collections.Generic"),
    ("IComparer", "System.Collections.Generic"),
    ("IDictionary", "System.Collections.Generic"),
    ("IEnumerable", "System.Collections.Generic"),
    ("IEnumerator", "System.Collections.Generic"),
    ("IEqualityComparer", "System.Collections.Generic"),
    ("IList", "System.Collections.Generic"),
    ("KeyValuePair", "System.Collections.Generic"),
    ("LinkedList", "System.Collections.Generic"),
    ("List", "System.Collections.Generic"),
    ("Queue", "System.Collections.Generic"),
    ("SortedDictionary", "System.Collections.Generic"),
    ("SortedList", "System.Collections.Generic"),
    ("Stack", "System.Collections.Generic"),
    ("Debug", "System.Diagnostics"),
    ("Stopwatch", "System.Diagnostics"),
    ("Trace", "System.Diagnostics"),
    ("CultureInfo", "System.Globalization"),
    ("File", "System.IO"),
    ("FileStream", "System.IO"),
    ("MemoryStream", "System.IO"),
    ("Path", "System.IO"),
    ("Stream", "System.IO"),
    ("StreamReader", "System.IO"),
    ("StreamWriter", "System.IO"),
    ("StringReader", "System.IO"),
    ("StringWriter", "System.IO"),
    ("TextReader", "System.IO"),
    ("TextWriter", "System.IO"),
    ("Enumerable", "System.Linq"),
    ("Expression", "System.Linq.Expressions"),
    ("BindingFlags", "System.Reflection"),
    ("MemberInfo", "System.Reflection"),
    ("MethodInfo", "System.Reflection"),
    ("PropertyInfo", "System.Reflection"),
    ("FieldInfo", "System.Reflection"),
    ("Encoding", "System.Text"),
    ("StringBuilder", "System.Text"),
    ("Regex", "System.Text.RegularExpressions"),
    ("Interlocked", "System.Threading"),
    ("Monitor", "System.Threading"),
    ("Thread", "System.Threading"),
    ("Task", "System.Threading.Tasks"),
    ("XmlDocument", "System.Xml"),
    ("XmlReader", "System.Xml"),
    ("XmlWriter", "System.Xml"),
    ("XElement", "System.Xml.Linq"),
    ("XDocument", "System.Xml.Linq"),
];

/// The namespace a well-known type of the platform is in (the first listed).
pub fn well_known_namespace(name: &str) -> Option<&'static str> {
    WELL_KNOWN
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, ns)| *ns)
}

/// Every method of a few well-known outside interfaces (by simple name): an
/// outside base listed here cannot supply a method it does not list.
/// Well-known outside collection classes: a derived type of the tree that
/// declares one of these names may still meet the base's member in overload
/// resolution.
pub fn known_class_members(simple: &str) -> Option<&'static [&'static str]> {
    match simple {
        "Collection" | "KeyedCollection" | "ObservableCollection" | "List" | "BindingList" => {
            known_interface_members("IList")
        }
        "Dictionary" | "SortedDictionary" => known_interface_members("IDictionary"),
        _ => None,
    }
}

pub fn known_interface_members(simple: &str) -> Option<&'static [&'static str]> {
    let members: &[&str] = match simple {
        "IDisposable" => &["Dispose"],
        "IEnumerable" => &["GetEnumerator"],
        "IEnumerator" => &["MoveNext", "Reset", "Dispose"],
        "ICollection" => &[
            "Add",
            "Clear",
            "Contains",
            "CopyTo",
            "Remove",
            "GetEnumerator",
        ],
        "IList" => &[
            "Add",
            "Clear",
            "Contains",
            "CopyTo",
            "Remove",
            "IndexOf",
            "Insert",
            "RemoveAt",
            "GetEnumerator",
        ],
        "IDictionary" => &[
            "Add",
            "Clear",
            "Contains",
            "ContainsKey",
            "CopyTo",
            "Remove",
            "TryGetValue",
            "GetEnumerator",
        ],
        "IComparable" => &["CompareTo"],
        "IComparer" => &["Compare"],
        "IEqualityComparer" => &["Equals", "GetHashCode"],
        "IEquatable" => &["Equals"],
        "ICloneable" => &["Clone"],
        "IFormattable" => &["ToString"],
        "IServiceProvider" => &["GetService"],
        "ISerializable" => &["GetObjectData"],
        "INotifyPropertyChanged" | "INotifyPropertyChanging" | "INotifyCollectionChanged" => &[],
        "IDynamicMetaObjectProvider" => &["GetMetaObject"],
        "IXmlSerializable" => &["GetSchema", "ReadXml", "WriteXml"],
        "IConvertible" => &[
            "GetTypeCode",
            "ToBoolean",
            "ToByte",
            "ToChar",
            "ToDateTime",
            "ToDecimal",
            "ToDouble",
            "ToInt16",
            "ToInt32",
            "ToInt64",
            "ToSByte",
            "ToSingle",
            "ToString",
            "ToType",
            "ToUInt16",
            "ToUInt32",
            "ToUInt64",
        ],
        "ICustomTypeDescriptor" => &[
            "GetAttributes",
            "GetClassName",
            "GetComponentName",
            "GetConverter",
            "GetDefaultEvent",
            "GetDefaultProperty",
            "GetEditor",
            "GetEvents",
            "GetProperties",
            "GetPropertyOwner",
        ],
        "ITypedList" => &["GetItemProperties", "GetListName"],
        "IBindingList" => &[
            "AddIndex",
            "AddNew",
            "ApplySort",
            "Find",
            "RemoveIndex",
            "RemoveSort",
        ],
        _ => return None,
    };
    Some(members)
}

/// The interfaces (and base classes) a well-known outside type implements, by
/// simple name: what an argument or a receiver of that type converts to.
pub fn known_supertypes(fqn: &str) -> Option<&'static [&'static str]> {
    let simple = fqn.rsplit('.').next().unwrap_or(fqn);
    let supers: &[&str] = match simple {
        "String" => &[
            "Object",
            "IEnumerable",
            "IComparable",
            "ICloneable",
            "IConvertible",
            "IEquatable",
        ],
        "Object" => &[],
        "List" | "Collection" | "ReadOnlyCollection" | "ObservableCollection" => &[
            "Object",
            "IList",
            "ICollection",
            "IEnumerable",
            "IReadOnlyList",
            "IReadOnlyCollection",
        ],
        "Dictionary" | "SortedDictionary" | "SortedList" | "ConcurrentDictionary" => &[
            "Object",
            "IDictionary",
            "ICollection",
            "IEnumerable",
            "IReadOnlyDictionary",
            "IReadOnlyCollection",
            "ISerializable",
        ],
        "HashSet" | "SortedSet" => &["Object", "ISet", "ICollection", "IEnumerable"],
        "Queue" | "Stack" | "LinkedList" => &["Object", "ICollection", "IEnumerable"],
        "ArrayList" => &[
            "Object",
            "IList",
            "ICollection",
            "IEnumerable",
            "ICloneable",
        ],
        "Hashtable" => &[
            "Object",
            "IDictionary",
            "ICollection",
            "IEnumerable",
            "ICloneable",
        ],
        "StringBuilder" => &["Object", "ISerializable"],
        // Its conversions to other types are all explicit.
        "BigInteger" => &[
            "Object",
            "ValueType",
            "IComparable",
            "IFormattable",
            "IEquatable",
        ],
        "CultureInfo" => &["Object", "IFormatProvider", "ICloneable"],
        "MemoryStream" | "FileStream" => &["Object", "Stream", "IDisposable"],
        "Exception" => &["Object", "ISerializable"],
        "Type" => &["Object", "MemberInfo"],
        _ => return None,
    };
    Some(supers)
}

/// Collections whose element type is one of their type arguments: what `foreach`
/// over them and their indexer give (`List<T>` → T, `Dictionary<K, V>`'s indexer
/// → V). `(foreach argument, indexer argument)`.
pub fn element_argument(fqn: &str) -> Option<(Option<usize>, Option<usize>)> {
    let simple = fqn.rsplit('.').next().unwrap_or(fqn);
    Some(match simple {
        "List"
        | "IList"
        | "IReadOnlyList"
        | "Collection"
        | "ReadOnlyCollection"
        | "ObservableCollection" => (Some(0), Some(0)),
        "IEnumerable"
        | "ICollection"
        | "IReadOnlyCollection"
        | "HashSet"
        | "ISet"
        | "SortedSet"
        | "Queue"
        | "Stack"
        | "LinkedList"
        | "IQueryable"
        | "IOrderedEnumerable"
        | "IGrouping" => (Some(0), None),
        "Dictionary"
        | "IDictionary"
        | "IReadOnlyDictionary"
        | "SortedDictionary"
        | "SortedList"
        | "ConcurrentDictionary" => (None, Some(1)),
        _ => return None,
    })
}

/// What a member of a well-known outside type yields, as far as the policy knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ForeignResult {
    /// A value of this outside type (`System.String`).
    Type(&'static str),
    /// The receiver's own type (`StringBuilder.Append`).
    Receiver,
    /// One of the receiver's type arguments (`KeyValuePair<K, V>.Value` → 1).
    Argument(usize),
    /// The element type of the receiver, a collection (LINQ's `First()`).
    Element,
}

/// LINQ's element queries (`First()`, `Last()`, `ElementAt(i)`…): on a collection
/// they hand back one of its elements.
pub fn is_element_query(name: &str) -> bool {
    matches!(
        name,
        "First"
            | "FirstOrDefault"
            | "Last"
            | "LastOrDefault"
            | "Single"
            | "SingleOrDefault"
            | "ElementAt"
            | "ElementAtOrDefault"
    )
}

/// A method or property of an outside type whose result the policy knows.
pub fn foreign_result(fqn: &str, name: &str) -> Option<ForeignResult> {
    let simple = fqn.rsplit('.').next().unwrap_or(fqn);
    use ForeignResult::*;
    let result = match (simple, name) {
        (_, "ToString") => Type("System.String"),
        (_, "GetType") => Type("System.Type"),
        (
            "String",
            "Trim" | "TrimStart" | "TrimEnd" | "Substring" | "ToLower" | "ToUpper"
            | "ToLowerInvariant" | "ToUpperInvariant" | "Replace" | "Insert" | "Remove" | "PadLeft"
            | "PadRight" | "Format" | "Concat" | "Join" | "Normalize",
        ) => Type("System.String"),
        (
            "StringBuilder",
            "Append" | "AppendLine" | "AppendFormat" | "Insert" | "Remove" | "Replace" | "Clear",
        ) => Receiver,
        ("KeyValuePair", "Key") => Argument(0),
        ("KeyValuePair", "Value") => Argument(1),
        ("Nullable", "Value" | "GetValueOrDefault") => Argument(0),
        ("Lazy", "Value") => Argument(0),
        ("IEnumerator", "Current") => Argument(0),
        (
            "List" | "IList" | "Collection" | "IEnumerable" | "ICollection" | "HashSet" | "Queue"
            | "Stack" | "IReadOnlyList" | "ReadOnlyCollection" | "LinkedList",
            "First" | "FirstOrDefault" | "Last" | "LastOrDefault" | "Single" | "SingleOrDefault"
            | "ElementAt" | "ElementAtOrDefault" | "Dequeue" | "Peek" | "Pop",
        ) => Element,
        ("Type", "GetMethod") => Type("System.Reflection.MethodInfo"),
        ("Type", "GetProperty") => Type("System.Reflection.PropertyInfo"),
        ("Type", "GetField") => Type("System.Reflection.FieldInfo"),
        _ => return None,
    };
    Some(result)
}
