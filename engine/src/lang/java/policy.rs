//! Java policy: the families this language places with (in rule order) and the
//! closed lists the rules read — `java.lang`'s types, the members every object
//! or enum inherits from outside the tree, well-known outside interfaces and the
//! few outside methods whose result type is known.

use crate::resolve::family::Family;

/// The families Java's rules place with, in the order the rules first use them
/// (printed by `callgraph languages`).
pub const FAMILIES: &[Family] = &[
    // constructor_chain: `this(…)` own constructor, `super(…)` the base's;
    // an outside superclass by how its name was bound.
    Family::OwnType,
    Family::Inheritance,
    Family::Builtin,
    Family::ExternalImport,
    Family::ForeignType,
    // construction: `new T()`.
    Family::Construction,
    // static_import: `import static a.B.m; m()`.
    Family::Import,
    // typed_receiver: locals, parameters, fields, `new T().m()`, casts.
    Family::WrittenType,
    // type_receiver: `Type.m()`.
    Family::QualifiedPath,
    // chained_receiver: `a.b().c()` through b's declared return type.
    Family::ReturnType,
];

/// Package prefixes of the Java platform: an outside type under one of them is
/// `stdlib`, any other outside type `external`.
pub const STDLIB_PREFIXES: &[&str] = &[
    "java.",
    "javax.",
    "jdk.",
    "sun.",
    "com.sun.",
    "org.w3c.dom.",
    "org.xml.sax.",
];

/// Every public top-level type of `java.lang` (Java 17): visible by simple name in
/// every file without an import.
pub const JAVA_LANG_TYPES: &[&str] = &[
    "AbstractMethodError",
    "Appendable",
    "ArithmeticException",
    "ArrayIndexOutOfBoundsException",
    "ArrayStoreException",
    "AssertionError",
    "AutoCloseable",
    "Boolean",
    "BootstrapMethodError",
    "Byte",
    "Character",
    "CharSequence",
    "Class",
    "ClassCastException",
    "ClassCircularityError",
    "ClassFormatError",
    "ClassLoader",
    "ClassNotFoundException",
    "ClassValue",
    "Cloneable",
    "CloneNotSupportedException",
    "Comparable",
    "Deprecated",
    "Double",
    "Enum",
    "EnumConstantNotPresentException",
    "Error",
    "Exception",
    "ExceptionInInitializerError",
    "Float",
    "FunctionalInterface",
    "IllegalAccessError",
    "IllegalAccessException",
    "IllegalArgumentException",
    "IllegalCallerException",
    "IllegalMonitorStateException",
    "IllegalStateException",
    "IllegalThreadStateException",
    "IncompatibleClassChangeError",
    "IndexOutOfBoundsException",
    "InheritableThreadLocal",
    "InstantiationError",
    "InstantiationException",
    "Integer",
    "InternalError",
    "InterruptedException",
    "Iterable",
    "LayerInstantiationException",
    "LinkageError",
    "Long",
    "Math",
    "Module",
    "ModuleLayer",
    "NegativeArraySizeException",
    "NoClassDefFoundError",
    "NoSuchFieldError",
    "NoSuchFieldException",
    "NoSuchMethodError",
    "NoSuchMethodException",
    "NullPointerException",
    "Number",
    "NumberFormatException",
    "Object",
    "OutOfMemoryError",
    "Override",
    "Package",
    "Process",
    "ProcessBuilder",
    "ProcessHandle",
    "Readable",
    "Record",
    "ReflectiveOperationException",
    "Runnable",
    "Runtime",
    "RuntimeException",
    "RuntimePermission",
    "SafeVarargs",
    "SecurityException",
    "SecurityManager",
    "Short",
    "StackOverflowError",
    "StackTraceElement",
    "StackWalker",
    "StrictMath",
    "String",
    "StringBuffer",
    "StringBuilder",
    "StringIndexOutOfBoundsException",
    "SuppressWarnings",
    "System",
    "Thread",
    "ThreadDeath",
    "ThreadGroup",
    "ThreadLocal",
    "Throwable",
    "TypeNotPresentException",
    "UnknownError",
    "UnsatisfiedLinkError",
    "UnsupportedClassVersionError",
    "UnsupportedOperationException",
    "VerifyError",
    "VirtualMachineError",
    "Void",
];

/// `java.lang.Object`'s methods: members of every class and interface.
pub const OBJECT_METHODS: &[&str] = &[
    "clone",
    "equals",
    "finalize",
    "getClass",
    "hashCode",
    "notify",
    "notifyAll",
    "toString",
    "wait",
];

/// Instance methods every enum inherits from `java.lang.Enum`.
pub const ENUM_METHODS: &[&str] = &[
    "compareTo",
    "describeConstable",
    "getDeclaringClass",
    "name",
    "ordinal",
];

/// Methods javac synthesises on every enum (`values()`, `valueOf(String)`): no
/// declaration in the tree and none outside it either.
pub const ENUM_SYNTHETIC: &[&str] = &["values", "valueOf"];

/// Outside interfaces whose whole member list is known: a class whose only outside
/// bases are these provably does not inherit another name from outside.
pub const KNOWN_INTERFACES: &[(&str, &[&str])] = &[
    ("java.lang.Runnable", &["run"]),
    ("java.lang.Cloneable", &[]),
    ("java.io.Serializable", &[]),
    ("java.lang.AutoCloseable", &["close"]),
    ("java.io.Closeable", &["close"]),
    ("java.io.Flushable", &["flush"]),
    ("java.lang.Comparable", &["compareTo"]),
    (
        "java.lang.Iterable",
        &["iterator", "forEach", "spliterator"],
    ),
    ("java.lang.reflect.Type", &["getTypeName"]),
    ("java.nio.channels.Channel", &["isOpen", "close"]),
    (
        "java.nio.channels.ReadableByteChannel",
        &["read", "isOpen", "close"],
    ),
    (
        "java.nio.channels.WritableByteChannel",
        &["write", "isOpen", "close"],
    ),
    (
        "java.nio.channels.ByteChannel",
        &["read", "write", "isOpen", "close"],
    ),
    (
        "java.lang.reflect.ParameterizedType",
        &[
            "getActualTypeArguments",
            "getRawType",
            "getOwnerType",
            "getTypeName",
        ],
    ),
    (
        "java.lang.reflect.GenericArrayType",
        &["getGenericComponentType", "getTypeName"],
    ),
    (
        "java.lang.reflect.WildcardType",
        &["getUpperBounds", "getLowerBounds", "getTypeName"],
    ),
    (
        "java.util.Iterator",
        &["hasNext", "next", "remove", "forEachRemaining"],
    ),
    (
        "java.lang.CharSequence",
        &[
            "length",
            "charAt",
            "subSequence",
            "toString",
            "chars",
            "codePoints",
            "isEmpty",
            "compare",
        ],
    ),
    ("java.lang.Appendable", &["append"]),
    ("java.lang.Readable", &["read"]),
    ("java.util.concurrent.Callable", &["call"]),
    ("java.util.function.Supplier", &["get"]),
    ("java.util.function.Consumer", &["accept", "andThen"]),
    ("java.util.function.BiConsumer", &["accept", "andThen"]),
    (
        "java.util.function.Function",
        &["apply", "andThen", "compose", "identity"],
    ),
    ("java.util.function.BiFunction", &["apply", "andThen"]),
    (
        "java.util.function.Predicate",
        &["test", "and", "or", "negate", "isEqual", "not"],
    ),
    (
        "java.util.function.UnaryOperator",
        &["apply", "andThen", "compose", "identity"],
    ),
    (
        "java.util.function.BinaryOperator",
        &["apply", "andThen", "minBy", "maxBy"],
    ),
    (
        "java.util.Comparator",
        &[
            "compare",
            "reversed",
            "thenComparing",
            "thenComparingInt",
            "thenComparingLong",
            "thenComparingDouble",
            "reverseOrder",
            "naturalOrder",
            "nullsFirst",
            "nullsLast",
            "comparing",
            "comparingInt",
            "comparingLong",
            "comparingDouble",
        ],
    ),
];

/// Platform types whose supertypes are fixed by the JDK, with every supertype (by
/// simple name). An argument whose static type is one of these fits exactly the
/// parameter types listed (or its own); any other outside type is left unknown.
pub const JDK_TYPES: &[(&str, &[&str])] = &[
    ("java.lang.Object", &[]),
    ("java.lang.Cloneable", &["Object"]),
    ("java.io.Serializable", &["Object"]),
    ("java.lang.Runnable", &["Object"]),
    ("java.lang.Comparable", &["Object"]),
    ("java.lang.AutoCloseable", &["Object"]),
    ("java.io.Closeable", &["Object", "AutoCloseable"]),
    ("java.io.Flushable", &["Object"]),
    ("java.lang.Appendable", &["Object"]),
    ("java.lang.Readable", &["Object"]),
    (
        "java.lang.String",
        &[
            "Object",
            "CharSequence",
            "Comparable",
            "Serializable",
            "Constable",
            "ConstantDesc",
        ],
    ),
    (
        "java.lang.Integer",
        &[
            "Object",
            "Number",
            "Comparable",
            "Serializable",
            "Constable",
            "ConstantDesc",
        ],
    ),
    (
        "java.lang.Long",
        &[
            "Object",
            "Number",
            "Comparable",
            "Serializable",
            "Constable",
            "ConstantDesc",
        ],
    ),
    (
        "java.lang.Short",
        &[
            "Object",
            "Number",
            "Comparable",
            "Serializable",
            "Constable",
        ],
    ),
    (
        "java.lang.Byte",
        &[
            "Object",
            "Number",
            "Comparable",
            "Serializable",
            "Constable",
        ],
    ),
    (
        "java.lang.Double",
        &[
            "Object",
            "Number",
            "Comparable",
            "Serializable",
            "Constable",
            "ConstantDesc",
        ],
    ),
    (
        "java.lang.Float",
        &[
            "Object",
            "Number",
            "Comparable",
            "Serializable",
            "Constable",
            "ConstantDesc",
        ],
    ),
    (
        "java.lang.Character",
        &["Object", "Comparable", "Serializable", "Constable"],
    ),
    (
        "java.lang.Boolean",
        &["Object", "Comparable", "Serializable", "Constable"],
    ),
    ("java.lang.Number", &["Object", "Serializable"]),
    ("java.lang.CharSequence", &["Object"]),
    (
        "java.lang.StringBuilder",
        &[
            "Object",
            "AbstractStringBuilder",
            "CharSequence",
            "Appendable",
            "Serializable",
            "Comparable",
        ],
    ),
    (
        "java.lang.StringBuffer",
        &[
            "Object",
            "AbstractStringBuilder",
            "CharSequence",
            "Appendable",
            "Serializable",
            "Comparable",
        ],
    ),
    (
        "java.lang.Class",
        &[
            "Object",
            "Type",
            "GenericDeclaration",
            "AnnotatedElement",
            "Serializable",
            "TypeDescriptor",
            "OfField",
        ],
    ),
    ("java.lang.Throwable", &["Object", "Serializable"]),
    (
        "java.lang.Exception",
        &["Object", "Throwable", "Serializable"],
    ),
    (
        "java.lang.RuntimeException",
        &["Object", "Exception", "Throwable", "Serializable"],
    ),
    (
        "java.lang.IllegalArgumentException",
        &[
            "Object",
            "RuntimeException",
            "Exception",
            "Throwable",
            "Serializable",
        ],
    ),
    (
        "java.lang.IllegalStateException",
        &[
            "Object",
            "RuntimeException",
            "Exception",
            "Throwable",
            "Serializable",
        ],
    ),
    (
        "java.io.IOException",
        &["Object", "Exception", "Throwable", "Serializable"],
    ),
    ("java.io.File", &["Object", "Serializable", "Comparable"]),
    (
        "java.io.InputStream",
        &["Object", "Closeable", "AutoCloseable"],
    ),
    (
        "java.io.OutputStream",
        &["Object", "Closeable", "AutoCloseable", "Flushable"],
    ),
    (
        "java.io.Reader",
        &["Object", "Readable", "Closeable", "AutoCloseable"],
    ),
    (
        "java.io.Writer",
        &[
            "Object",
            "Appendable",
            "Closeable",
            "Flushable",
            "AutoCloseable",
        ],
    ),
    ("java.net.URL", &["Object", "Serializable"]),
    ("java.net.URI", &["Object", "Comparable", "Serializable"]),
    ("java.nio.charset.Charset", &["Object", "Comparable"]),
    (
        "java.nio.file.Path",
        &["Object", "Comparable", "Iterable", "Watchable"],
    ),
    ("java.util.regex.Pattern", &["Object", "Serializable"]),
    (
        "java.util.Date",
        &["Object", "Serializable", "Cloneable", "Comparable"],
    ),
    ("java.util.regex.Matcher", &["Object", "MatchResult"]),
    ("java.lang.reflect.Type", &["Object"]),
    ("java.lang.reflect.ParameterizedType", &["Object", "Type"]),
    ("java.lang.reflect.GenericArrayType", &["Object", "Type"]),
    ("java.lang.reflect.WildcardType", &["Object", "Type"]),
    (
        "java.lang.reflect.TypeVariable",
        &["Object", "Type", "AnnotatedElement"],
    ),
    (
        "java.lang.reflect.Field",
        &["Object", "AccessibleObject", "Member", "AnnotatedElement"],
    ),
    (
        "java.lang.reflect.Method",
        &[
            "Object",
            "Executable",
            "AccessibleObject",
            "Member",
            "GenericDeclaration",
            "AnnotatedElement",
        ],
    ),
    ("java.lang.Error", &["Object", "Throwable", "Serializable"]),
    (
        "java.lang.AssertionError",
        &["Object", "Error", "Throwable", "Serializable"],
    ),
    (
        "java.lang.NullPointerException",
        &[
            "Object",
            "RuntimeException",
            "Exception",
            "Throwable",
            "Serializable",
        ],
    ),
    (
        "java.lang.ClassCastException",
        &[
            "Object",
            "RuntimeException",
            "Exception",
            "Throwable",
            "Serializable",
        ],
    ),
    (
        "java.lang.ArithmeticException",
        &[
            "Object",
            "RuntimeException",
            "Exception",
            "Throwable",
            "Serializable",
        ],
    ),
    (
        "java.lang.UnsupportedOperationException",
        &[
            "Object",
            "RuntimeException",
            "Exception",
            "Throwable",
            "Serializable",
        ],
    ),
    (
        "java.lang.NumberFormatException",
        &[
            "Object",
            "IllegalArgumentException",
            "RuntimeException",
            "Exception",
            "Throwable",
            "Serializable",
        ],
    ),
    (
        "java.lang.IndexOutOfBoundsException",
        &[
            "Object",
            "RuntimeException",
            "Exception",
            "Throwable",
            "Serializable",
        ],
    ),
    (
        "java.lang.ClassNotFoundException",
        &[
            "Object",
            "ReflectiveOperationException",
            "Exception",
            "Throwable",
            "Serializable",
        ],
    ),
    (
        "java.lang.InterruptedException",
        &["Object", "Exception", "Throwable", "Serializable"],
    ),
    (
        "java.io.EOFException",
        &[
            "Object",
            "IOException",
            "Exception",
            "Throwable",
            "Serializable",
        ],
    ),
    (
        "java.io.UncheckedIOException",
        &[
            "Object",
            "RuntimeException",
            "Exception",
            "Throwable",
            "Serializable",
        ],
    ),
    (
        "java.net.MalformedURLException",
        &[
            "Object",
            "IOException",
            "Exception",
            "Throwable",
            "Serializable",
        ],
    ),
    (
        "java.io.StringReader",
        &["Object", "Reader", "Readable", "Closeable", "AutoCloseable"],
    ),
    (
        "java.io.BufferedReader",
        &["Object", "Reader", "Readable", "Closeable", "AutoCloseable"],
    ),
    (
        "java.io.InputStreamReader",
        &["Object", "Reader", "Readable", "Closeable", "AutoCloseable"],
    ),
    (
        "java.io.StringWriter",
        &[
            "Object",
            "Writer",
            "Appendable",
            "Closeable",
            "Flushable",
            "AutoCloseable",
        ],
    ),
    (
        "java.io.PrintWriter",
        &[
            "Object",
            "Writer",
            "Appendable",
            "Closeable",
            "Flushable",
            "AutoCloseable",
        ],
    ),
    (
        "java.io.BufferedWriter",
        &[
            "Object",
            "Writer",
            "Appendable",
            "Closeable",
            "Flushable",
            "AutoCloseable",
        ],
    ),
    (
        "java.io.OutputStreamWriter",
        &[
            "Object",
            "Writer",
            "Appendable",
            "Closeable",
            "Flushable",
            "AutoCloseable",
        ],
    ),
    (
        "java.io.ByteArrayInputStream",
        &["Object", "InputStream", "Closeable", "AutoCloseable"],
    ),
    (
        "java.io.FileInputStream",
        &["Object", "InputStream", "Closeable", "AutoCloseable"],
    ),
    (
        "java.io.ByteArrayOutputStream",
        &[
            "Object",
            "OutputStream",
            "Closeable",
            "Flushable",
            "AutoCloseable",
        ],
    ),
    (
        "java.io.FileOutputStream",
        &[
            "Object",
            "OutputStream",
            "Closeable",
            "Flushable",
            "AutoCloseable",
        ],
    ),
    (
        "java.io.PrintStream",
        &[
            "Object",
            "FilterOutputStream",
            "OutputStream",
            "Appendable",
            "Closeable",
            "Flushable",
            "AutoCloseable",
        ],
    ),
    (
        "java.math.BigInteger",
        &["Object", "Number", "Comparable", "Serializable"],
    ),
    (
        "java.math.BigDecimal",
        &["Object", "Number", "Comparable", "Serializable"],
    ),
    ("java.util.Collection", &["Object", "Iterable"]),
    ("java.util.List", &["Object", "Collection", "Iterable"]),
    ("java.util.Set", &["Object", "Collection", "Iterable"]),
    ("java.util.Map", &["Object"]),
    ("java.util.Iterator", &["Object"]),
    ("java.lang.Iterable", &["Object"]),
    (
        "java.util.ArrayList",
        &[
            "Object",
            "AbstractList",
            "AbstractCollection",
            "List",
            "Collection",
            "Iterable",
            "RandomAccess",
            "Cloneable",
            "Serializable",
        ],
    ),
    (
        "java.util.LinkedList",
        &[
            "Object",
            "AbstractSequentialList",
            "AbstractList",
            "AbstractCollection",
            "List",
            "Deque",
            "Queue",
            "Collection",
            "Iterable",
            "Cloneable",
            "Serializable",
        ],
    ),
    (
        "java.util.HashSet",
        &[
            "Object",
            "AbstractSet",
            "AbstractCollection",
            "Set",
            "Collection",
            "Iterable",
            "Cloneable",
            "Serializable",
        ],
    ),
    (
        "java.util.LinkedHashSet",
        &[
            "Object",
            "HashSet",
            "AbstractSet",
            "AbstractCollection",
            "Set",
            "Collection",
            "Iterable",
            "Cloneable",
            "Serializable",
        ],
    ),
    (
        "java.util.HashMap",
        &["Object", "AbstractMap", "Map", "Cloneable", "Serializable"],
    ),
    (
        "java.util.LinkedHashMap",
        &[
            "Object",
            "HashMap",
            "AbstractMap",
            "Map",
            "Cloneable",
            "Serializable",
        ],
    ),
];

/// Outside container methods that hand back one of the receiver's type
/// arguments: (type, method, index of the type argument). Read only where the
/// receiver's type is written with its arguments (`List<Node> xs; xs.get(0)`).
pub const ELEMENT_RESULTS: &[(&str, &str, usize)] = &[
    ("java.util.List", "get", 0),
    ("java.util.ArrayList", "get", 0),
    ("java.util.LinkedList", "get", 0),
    ("java.util.List", "set", 0),
    ("java.util.ArrayList", "set", 0),
    ("java.util.LinkedList", "getFirst", 0),
    ("java.util.LinkedList", "getLast", 0),
    ("java.util.LinkedList", "removeFirst", 0),
    ("java.util.LinkedList", "removeLast", 0),
    ("java.util.LinkedList", "peek", 0),
    ("java.util.LinkedList", "poll", 0),
    ("java.util.LinkedList", "pop", 0),
    ("java.util.Stack", "peek", 0),
    ("java.util.Stack", "pop", 0),
    ("java.util.Stack", "get", 0),
    ("java.util.Deque", "peek", 0),
    ("java.util.Deque", "pop", 0),
    ("java.util.Deque", "poll", 0),
    ("java.util.Deque", "peekFirst", 0),
    ("java.util.Deque", "peekLast", 0),
    ("java.util.Deque", "pollFirst", 0),
    ("java.util.Deque", "pollLast", 0),
    ("java.util.Deque", "getFirst", 0),
    ("java.util.Deque", "getLast", 0),
    ("java.util.ArrayDeque", "peek", 0),
    ("java.util.ArrayDeque", "pop", 0),
    ("java.util.ArrayDeque", "poll", 0),
    ("java.util.ArrayDeque", "peekFirst", 0),
    ("java.util.ArrayDeque", "peekLast", 0),
    ("java.util.ArrayDeque", "getFirst", 0),
    ("java.util.ArrayDeque", "getLast", 0),
    ("java.util.Queue", "peek", 0),
    ("java.util.Queue", "poll", 0),
    ("java.util.Queue", "element", 0),
    ("java.util.Iterator", "next", 0),
    ("java.util.ListIterator", "next", 0),
    ("java.util.ListIterator", "previous", 0),
    ("java.util.Map", "get", 1),
    ("java.util.HashMap", "get", 1),
    ("java.util.LinkedHashMap", "get", 1),
    ("java.util.TreeMap", "get", 1),
    ("java.util.Map", "getOrDefault", 1),
    ("java.util.HashMap", "getOrDefault", 1),
    ("java.util.Map", "computeIfAbsent", 1),
    ("java.util.HashMap", "computeIfAbsent", 1),
    ("java.util.Map.Entry", "getKey", 0),
    ("java.util.Map.Entry", "getValue", 1),
    ("java.util.Optional", "get", 0),
    ("java.util.Optional", "orElse", 0),
    ("java.util.Optional", "orElseThrow", 0),
    ("java.util.Optional", "orElseGet", 0),
    ("java.lang.ThreadLocal", "get", 0),
    ("java.lang.ref.WeakReference", "get", 0),
    ("java.lang.ref.SoftReference", "get", 0),
    ("java.util.concurrent.atomic.AtomicReference", "get", 0),
    ("java.util.function.Supplier", "get", 0),
];

/// Outside types a lambda or method reference can never target.
pub const NOT_FUNCTIONAL: &[&str] = &[
    "Object",
    "String",
    "Integer",
    "Long",
    "Short",
    "Byte",
    "Double",
    "Float",
    "Character",
    "Boolean",
    "Number",
    "CharSequence",
    "Class",
    "StringBuilder",
    "StringBuffer",
];

/// Outside instance methods that hand back a value of a known outside type:
/// (receiver type, method, result type). `toString()` on anything is a String.
pub const HANDS_BACK: &[(&str, &str, &str)] = &[
    (
        "java.lang.StringBuilder",
        "append",
        "java.lang.StringBuilder",
    ),
    (
        "java.lang.StringBuilder",
        "insert",
        "java.lang.StringBuilder",
    ),
    (
        "java.lang.StringBuilder",
        "reverse",
        "java.lang.StringBuilder",
    ),
    (
        "java.lang.StringBuilder",
        "delete",
        "java.lang.StringBuilder",
    ),
    (
        "java.lang.StringBuilder",
        "deleteCharAt",
        "java.lang.StringBuilder",
    ),
    (
        "java.lang.StringBuilder",
        "replace",
        "java.lang.StringBuilder",
    ),
    ("java.lang.StringBuilder", "substring", "java.lang.String"),
    ("java.lang.StringBuffer", "append", "java.lang.StringBuffer"),
    ("java.lang.StringBuffer", "insert", "java.lang.StringBuffer"),
    (
        "java.lang.StringBuffer",
        "reverse",
        "java.lang.StringBuffer",
    ),
    ("java.lang.StringBuffer", "substring", "java.lang.String"),
    ("java.lang.String", "trim", "java.lang.String"),
    ("java.lang.String", "strip", "java.lang.String"),
    ("java.lang.String", "stripLeading", "java.lang.String"),
    ("java.lang.String", "stripTrailing", "java.lang.String"),
    ("java.lang.String", "toLowerCase", "java.lang.String"),
    ("java.lang.String", "toUpperCase", "java.lang.String"),
    ("java.lang.String", "substring", "java.lang.String"),
    ("java.lang.String", "replace", "java.lang.String"),
    ("java.lang.String", "replaceAll", "java.lang.String"),
    ("java.lang.String", "replaceFirst", "java.lang.String"),
    ("java.lang.String", "concat", "java.lang.String"),
    ("java.lang.String", "intern", "java.lang.String"),
    ("java.lang.String", "repeat", "java.lang.String"),
    ("java.lang.String", "formatted", "java.lang.String"),
    ("java.lang.Appendable", "append", "java.lang.Appendable"),
    (
        "java.util.regex.Pattern",
        "matcher",
        "java.util.regex.Matcher",
    ),
    ("java.util.regex.Matcher", "group", "java.lang.String"),
    ("java.nio.charset.Charset", "name", "java.lang.String"),
    (
        "java.nio.charset.Charset",
        "displayName",
        "java.lang.String",
    ),
    ("java.lang.Class", "getName", "java.lang.String"),
    ("java.lang.Class", "getSimpleName", "java.lang.String"),
    ("java.net.URL", "toExternalForm", "java.lang.String"),
];

/// Static outside methods with a known outside result: (type, method, result).
pub const STATIC_RETURNS: &[(&str, &str, &str)] = &[
    ("java.lang.String", "valueOf", "java.lang.String"),
    ("java.lang.String", "format", "java.lang.String"),
    ("java.lang.String", "join", "java.lang.String"),
    ("java.lang.String", "copyValueOf", "java.lang.String"),
    (
        "java.util.regex.Pattern",
        "compile",
        "java.util.regex.Pattern",
    ),
    (
        "java.nio.charset.Charset",
        "forName",
        "java.nio.charset.Charset",
    ),
    ("java.lang.Integer", "toString", "java.lang.String"),
    ("java.lang.Integer", "toHexString", "java.lang.String"),
    ("java.lang.Long", "toString", "java.lang.String"),
];

/// The supertypes (simple names) of a platform type the policy knows.
pub fn jdk_supertypes(fqn: &str) -> Option<&'static [&'static str]> {
    JDK_TYPES.iter().find(|(t, _)| *t == fqn).map(|(_, s)| *s)
}

/// Which type argument an outside container method hands back.
pub fn element_result(receiver: &str, method: &str) -> Option<usize> {
    ELEMENT_RESULTS
        .iter()
        .find(|(r, m, _)| *r == receiver && *m == method)
        .map(|(_, _, i)| *i)
}

/// Primitive type names and their boxes.
pub const BOXES: &[(&str, &str)] = &[
    ("boolean", "Boolean"),
    ("byte", "Byte"),
    ("short", "Short"),
    ("char", "Character"),
    ("int", "Integer"),
    ("long", "Long"),
    ("float", "Float"),
    ("double", "Double"),
];

pub fn is_java_lang_type(name: &str) -> bool {
    JAVA_LANG_TYPES.contains(&name)
}

pub fn is_stdlib(fqn: &str) -> bool {
    STDLIB_PREFIXES.iter().any(|p| fqn.starts_with(p))
}

/// The members of a well-known outside interface, when it is one.
pub fn known_interface(fqn: &str) -> Option<&'static [&'static str]> {
    KNOWN_INTERFACES
        .iter()
        .find(|(f, _)| *f == fqn)
        .map(|(_, m)| *m)
}

/// The outside result type of an outside method call, when the policy knows it.
pub fn foreign_result(receiver: &str, method: &str, args: usize) -> Option<&'static str> {
    if method == "toString" && args == 0 {
        return Some("java.lang.String");
    }
    HANDS_BACK
        .iter()
        .find(|(r, m, _)| *r == receiver && *m == method)
        .map(|(_, _, t)| *t)
}

pub fn static_result(ty: &str, method: &str) -> Option<&'static str> {
    STATIC_RETURNS
        .iter()
        .find(|(r, m, _)| *r == ty && *m == method)
        .map(|(_, _, t)| *t)
}
