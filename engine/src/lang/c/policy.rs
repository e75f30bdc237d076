//! C policy: the families the resolver places with, in rule order, and the closed
//! lists it reads (the C standard library and POSIX names a call leaves the tree
//! for, the typedef names of numbers that never construct anything).

use crate::resolve::family::Family;

/// The families the C resolver may place with, in rule order.
pub const FAMILIES: &[Family] = &[
    Family::Lexical,
    Family::Import,
    Family::UniqueName,
    Family::Builtin,
    Family::ExternalImport,
    Family::NothingDeclaresIt,
];

/// Functions of the C standard library and POSIX (a closed list): a call of one
/// the tree does not define leaves it for the standard library.
pub const STDLIB_FUNCTIONS: &[&str] = &[
    "abort", "abs", "accept", "access", "atexit", "atof", "atoi", "atol", "atoll", "bind",
    "bsearch", "calloc", "ceil", "chdir", "chmod", "clock", "clock_gettime", "close", "closedir",
    "connect", "cos", "ctime", "dup", "dup2", "errno", "execv", "execvp", "exit", "_exit", "exp",
    "fabs", "fclose", "fcntl", "fdopen", "feof", "ferror", "fflush", "fgetc", "fgets", "fileno",
    "floor", "fmod", "fopen", "fork", "fprintf", "fputc", "fputs", "fread", "free", "freeaddrinfo",
    "freopen", "fscanf", "fseek", "fstat", "fsync", "ftell", "ftruncate", "fwrite", "gai_strerror",
    "getaddrinfo", "getc", "getchar", "getcwd", "getenv", "gethostbyname", "gethostname",
    "getpid", "getsockopt", "gettimeofday", "gmtime", "htonl", "htons", "inet_ntop", "inet_pton",
    "ioctl", "isalnum", "isalpha", "isdigit", "islower", "isprint", "isspace", "isupper",
    "isxdigit", "kill", "labs", "listen", "localtime", "log", "log10", "longjmp", "lseek",
    "lstat", "malloc", "memchr", "memcmp", "memcpy", "memmove", "memset", "mkdir", "mktime",
    "mmap", "munmap", "nanosleep", "ntohl", "ntohs", "open", "opendir", "perror", "pipe", "poll",
    "pow", "pread", "printf", "pthread_create", "pthread_join", "pthread_mutex_destroy",
    "pthread_mutex_init", "pthread_mutex_lock", "pthread_mutex_unlock", "pthread_self",
    "pthread_cond_broadcast", "pthread_cond_destroy", "pthread_cond_init", "pthread_cond_signal",
    "pthread_cond_wait", "pthread_once", "putc", "putchar", "puts", "pwrite", "qsort", "raise",
    "rand", "read", "readdir", "realloc", "recv", "recvfrom", "remove", "rename", "rewind",
    "rmdir", "round", "scanf", "select", "send", "sendto", "setenv", "setjmp", "setsockopt",
    "setvbuf", "shutdown", "sigaction", "signal", "sin", "sleep", "snprintf", "socket",
    "sprintf", "sqrt", "srand", "sscanf", "stat", "strcasecmp", "strcat", "strchr", "strcmp",
    "strcpy", "strcspn", "strdup", "strerror", "strerror_r", "strftime", "strlen", "strncasecmp",
    "strncat", "strncmp", "strncpy", "strndup", "strpbrk", "strrchr", "strspn", "strstr",
    "strtod", "strtof", "strtok", "strtol", "strtoll", "strtoul", "strtoull", "sysconf", "system",
    "time", "tolower", "toupper", "truncate", "unlink", "usleep", "va_arg", "va_copy", "va_end",
    "va_start", "vfprintf", "vprintf", "vsnprintf", "vsprintf", "waitpid", "write", "writev",
    "assert",
];

pub fn is_stdlib_function(name: &str) -> bool {
    STDLIB_FUNCTIONS.contains(&name)
}

/// Compiler built-ins: `__builtin_expect`, `__sync_fetch_and_add`, `__atomic_load_n`.
pub fn is_compiler_builtin(name: &str) -> bool {
    name.starts_with("__builtin_") || name.starts_with("__sync_") || name.starts_with("__atomic_")
}

/// Names of number, character and C library types (a closed list): a variable of
/// one of them is never a construction.
pub const PLAIN_TYPES: &[&str] = &[
    "void", "bool", "char", "short", "int", "long", "float", "double", "signed", "unsigned",
    "size_t", "ssize_t", "ptrdiff_t", "intptr_t", "uintptr_t", "int8_t", "int16_t", "int32_t",
    "int64_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t", "intmax_t", "uintmax_t", "off_t",
    "time_t", "pid_t", "mode_t", "socklen_t", "wchar_t", "char8_t", "char16_t", "char32_t",
    "FILE", "va_list", "nullptr_t", "auto", "decltype(auto)", "uint", "ulong", "byte",
];

pub fn is_plain_type(name: &str) -> bool {
    PLAIN_TYPES.contains(&name)
        || name.starts_with("unsigned ")
        || name.starts_with("signed ")
        || name.starts_with("long ")
        || name.starts_with("short ")
}

/// Standard containers whose range-for element is their first type argument.
pub const SEQUENCE_CONTAINERS: &[&str] = &[
    "vector", "list", "deque", "set", "multiset", "unordered_set", "array", "span",
    "initializer_list", "forward_list",
];

/// C++ casts written like calls: conversions, never calls.
pub fn is_cast_keyword(name: &str) -> bool {
    matches!(
        name,
        "static_cast" | "dynamic_cast" | "reinterpret_cast" | "const_cast" | "bit_cast"
    )
}
