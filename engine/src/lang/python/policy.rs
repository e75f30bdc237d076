//! Python policy: closed lists (built-ins, standard-library modules) and the
//! families Python places with, in rule order.

use crate::resolve::family::Family;

pub const FAMILIES: &[Family] = &[
    Family::Lexical,
    Family::Import,
    Family::ValueFlow,
    Family::Construction,
    Family::OwnType,
    Family::QualifiedPath,
    Family::WrittenType,
    Family::ReturnType,
    Family::Inheritance,
    Family::Builtin,
    Family::ExternalImport,
    Family::ForeignType,
    Family::NothingDeclaresIt,
];

/// Names the interpreter provides without an import (functions, types,
/// exceptions). A call to one is `outside`/`builtin` only where the tree binds no
/// such name in scope.
pub const BUILTINS: &[&str] = &[
    "abs", "aiter", "all", "anext", "any", "ascii", "bin", "bool", "breakpoint", "bytearray", "bytes",
    "callable", "chr", "classmethod", "compile", "complex", "delattr", "dict", "dir", "divmod",
    "enumerate", "eval", "exec", "filter", "float", "format", "frozenset", "getattr", "globals",
    "hasattr", "hash", "help", "hex", "id", "input", "int", "isinstance", "issubclass", "iter", "len",
    "list", "locals", "map", "max", "memoryview", "min", "next", "object", "oct", "open", "ord", "pow",
    "print", "property", "range", "repr", "reversed", "round", "set", "setattr", "slice", "sorted",
    "staticmethod", "str", "sum", "super", "tuple", "type", "vars", "zip", "__import__",
    "BaseException", "BaseExceptionGroup", "Exception", "ExceptionGroup", "ArithmeticError",
    "AssertionError", "AttributeError", "BlockingIOError", "BrokenPipeError", "BufferError",
    "BytesWarning", "ChildProcessError", "ConnectionAbortedError", "ConnectionError",
    "ConnectionRefusedError", "ConnectionResetError", "DeprecationWarning", "EOFError",
    "EncodingWarning", "EnvironmentError", "FileExistsError", "FileNotFoundError",
    "FloatingPointError", "FutureWarning", "GeneratorExit", "IOError", "ImportError",
    "ImportWarning", "IndentationError", "IndexError", "InterruptedError", "IsADirectoryError",
    "KeyError", "KeyboardInterrupt", "LookupError", "MemoryError", "ModuleNotFoundError",
    "NameError", "NotADirectoryError", "NotImplementedError", "OSError", "OverflowError",
    "PendingDeprecationWarning", "PermissionError", "ProcessLookupError", "RecursionError",
    "ReferenceError", "ResourceWarning", "RuntimeError", "RuntimeWarning", "StopAsyncIteration",
    "StopIteration", "SyntaxError", "SyntaxWarning", "SystemError", "SystemExit", "TabError",
    "TimeoutError", "TypeError", "UnboundLocalError", "UnicodeDecodeError", "UnicodeEncodeError",
    "UnicodeError", "UnicodeTranslateError", "UnicodeWarning", "UserWarning", "ValueError",
    "Warning", "ZeroDivisionError",
];

/// Built-in type names: an instance of one is outside the tree.
pub const BUILTIN_TYPES: &[&str] = &[
    "str", "int", "float", "bool", "bytes", "bytearray", "list", "dict", "set", "frozenset", "tuple",
    "complex", "object", "type", "range", "memoryview", "NoneType",
];

/// `typing` containers that stand for a built-in type.
pub const TYPING_ALIASES: &[(&str, &str)] = &[
    ("List", "list"),
    ("Dict", "dict"),
    ("Set", "set"),
    ("FrozenSet", "frozenset"),
    ("Tuple", "tuple"),
    ("Text", "str"),
    ("AnyStr", "str"),
];

/// Top-level modules of the Python 3.11 standard library (closed list); an import
/// of one that the tree does not declare is `outside`/`stdlib`, any other is
/// `outside`/`external`.
pub const STDLIB: &[&str] = &[
    "__future__", "_thread", "abc", "aifc", "argparse", "array", "ast", "asynchat", "asyncio",
    "asyncore", "atexit", "audioop", "base64", "bdb", "binascii", "bisect", "builtins", "bz2",
    "cProfile", "calendar", "cgi", "cgitb", "chunk", "cmath", "cmd", "code", "codecs", "codeop",
    "collections", "colorsys", "compileall", "concurrent", "configparser", "contextlib",
    "contextvars", "copy", "copyreg", "crypt", "csv", "ctypes", "curses", "dataclasses", "datetime",
    "dbm", "decimal", "difflib", "dis", "distutils", "doctest", "email", "encodings", "ensurepip",
    "enum", "errno", "faulthandler", "fcntl", "filecmp", "fileinput", "fnmatch", "fractions",
    "ftplib", "functools", "gc", "getopt", "getpass", "gettext", "glob", "graphlib", "grp", "gzip",
    "hashlib", "heapq", "hmac", "html", "http", "imaplib", "imghdr", "imp", "importlib", "inspect",
    "io", "ipaddress", "itertools", "json", "keyword", "lib2to3", "linecache", "locale", "logging",
    "lzma", "mailbox", "mailcap", "marshal", "math", "mimetypes", "mmap", "modulefinder",
    "msvcrt", "multiprocessing", "netrc", "nis", "nntplib", "numbers", "operator", "optparse",
    "os", "ossaudiodev", "pathlib", "pdb", "pickle", "pickletools", "pipes", "pkgutil", "platform",
    "plistlib", "poplib", "posix", "posixpath", "pprint", "profile", "pstats", "pty", "pwd",
    "py_compile", "pyclbr", "pydoc", "queue", "quopri", "random", "re", "readline", "reprlib",
    "resource", "rlcompleter", "runpy", "sched", "secrets", "select", "selectors", "shelve",
    "shlex", "shutil", "signal", "site", "smtpd", "smtplib", "sndhdr", "socket", "socketserver",
    "spwd", "sqlite3", "ssl", "stat", "statistics", "string", "stringprep", "struct", "subprocess",
    "sunau", "symtable", "sys", "sysconfig", "syslog", "tabnanny", "tarfile", "telnetlib",
    "tempfile", "termios", "textwrap", "threading", "time", "timeit", "tkinter", "token",
    "tokenize", "tomllib", "trace", "traceback", "tracemalloc", "tty", "turtle", "types",
    "typing", "unicodedata", "unittest", "urllib", "uu", "uuid", "venv", "warnings",
    "wave", "weakref", "webbrowser", "winreg", "winsound", "wsgiref", "xdrlib", "xml", "xmlrpc",
    "zipapp", "zipfile", "zipimport", "zlib", "zoneinfo", "ntpath", "nturl2path", "opcode", "sre_compile",
    "sre_constants", "sre_parse", "genericpath",
];

pub fn is_builtin(name: &str) -> bool {
    BUILTINS.contains(&name)
}

pub fn is_stdlib(top: &str) -> bool {
    STDLIB.contains(&top)
}

/// Decorators from outside the tree that hand back the function they decorate (or
/// call it from C at the same site), so a call of the name still reaches the `def`.
/// Any other outside decorator hides what the name holds.
pub const TRANSPARENT_DECORATORS: &[&str] = &[
    "staticmethod", "classmethod", "property", "setter", "getter", "deleter", "cached_property",
    "overload", "abstractmethod", "final", "override", "wraps", "lru_cache", "cache",
    "dataclass", "total_ordering", "runtime_checkable", "unique", "no_type_check",
];
