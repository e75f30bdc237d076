//! TypeScript / JavaScript policy: the families the resolver places with, the
//! global names of the language and of Node, and Node's built-in modules.

use crate::resolve::family::Family;

/// The families the TypeScript resolver may place with, in rule order.
pub const FAMILIES: &[Family] = &[
    Family::Lexical,
    Family::Import,
    Family::QualifiedPath,
    Family::OwnType,
    Family::WrittenType,
    Family::ValueFlow,
    Family::ReturnType,
    Family::Inheritance,
    Family::Construction,
    Family::Builtin,
    Family::ExternalImport,
    Family::ForeignType,
];

/// Global functions and constructors of ECMAScript, the DOM/Node globals a
/// program calls bare, and CommonJS's `require`: a bare call of one of them
/// leaves the tree unless something in scope binds the name.
pub const GLOBAL_FUNCTIONS: &[&str] = &[
    "Array",
    "ArrayBuffer",
    "BigInt",
    "Boolean",
    "DataView",
    "Date",
    "Error",
    "EvalError",
    "Float32Array",
    "Float64Array",
    "Function",
    "Int8Array",
    "Int16Array",
    "Int32Array",
    "Map",
    "Number",
    "Object",
    "Promise",
    "Proxy",
    "RangeError",
    "ReferenceError",
    "RegExp",
    "Set",
    "String",
    "Symbol",
    "SyntaxError",
    "TypeError",
    "URIError",
    "Uint8Array",
    "Uint8ClampedArray",
    "Uint16Array",
    "Uint32Array",
    "WeakMap",
    "WeakRef",
    "WeakSet",
    "AbortController",
    "AbortSignal",
    "Blob",
    "Buffer",
    "FormData",
    "Headers",
    "Request",
    "Response",
    "TextDecoder",
    "TextEncoder",
    "URL",
    "URLSearchParams",
    "ReadableStream",
    "WritableStream",
    "TransformStream",
    "DOMException",
    "Event",
    "EventTarget",
    "decodeURI",
    "decodeURIComponent",
    "encodeURI",
    "encodeURIComponent",
    "escape",
    "unescape",
    "eval",
    "isFinite",
    "isNaN",
    "parseFloat",
    "parseInt",
    "queueMicrotask",
    "structuredClone",
    "setTimeout",
    "clearTimeout",
    "setInterval",
    "clearInterval",
    "setImmediate",
    "clearImmediate",
    "fetch",
    "require",
    "atob",
    "btoa",
];

/// Global objects whose members a program calls (`console.log`, `JSON.parse`,
/// `Math.max`, `process.exit`): a member call on one of them leaves the tree.
pub const GLOBAL_OBJECTS: &[&str] = &[
    "Array",
    "ArrayBuffer",
    "Atomics",
    "BigInt",
    "Buffer",
    "Date",
    "Error",
    "Intl",
    "JSON",
    "Math",
    "Number",
    "Object",
    "Promise",
    "Proxy",
    "Reflect",
    "String",
    "Symbol",
    "URL",
    "console",
    "globalThis",
    "process",
    "window",
    "document",
    "navigator",
    "localStorage",
    "sessionStorage",
    "crypto",
    "performance",
];

/// Node's built-in modules (`fs`, `node:fs`, `fs/promises`): imports of them are
/// `stdlib`; any other bare specifier is `external`.
pub const NODE_MODULES: &[&str] = &[
    "assert",
    "async_hooks",
    "buffer",
    "child_process",
    "cluster",
    "console",
    "constants",
    "crypto",
    "dgram",
    "diagnostics_channel",
    "dns",
    "domain",
    "events",
    "fs",
    "http",
    "http2",
    "https",
    "inspector",
    "module",
    "net",
    "os",
    "path",
    "perf_hooks",
    "process",
    "punycode",
    "querystring",
    "readline",
    "repl",
    "stream",
    "string_decoder",
    "sys",
    "test",
    "timers",
    "tls",
    "trace_events",
    "tty",
    "url",
    "util",
    "v8",
    "vm",
    "wasi",
    "worker_threads",
    "zlib",
];

pub fn is_global_function(name: &str) -> bool {
    GLOBAL_FUNCTIONS.contains(&name)
}

pub fn is_global_object(name: &str) -> bool {
    GLOBAL_OBJECTS.contains(&name)
}

/// A bare specifier names Node's standard library when its first segment (after
/// an optional `node:` scheme) is a built-in module.
pub fn is_node_builtin(specifier: &str) -> bool {
    if specifier.starts_with("node:") {
        return true;
    }
    let head = specifier.split('/').next().unwrap_or("");
    NODE_MODULES.contains(&head)
}

/// Types of the language's own library (`lib.*.d.ts`): a receiver of one of
/// them is an instance outside the tree (`foreign_type`) unless the tree
/// declares a type of that name.
pub const LIBRARY_TYPES: &[&str] = &[
    "string",
    "number",
    "boolean",
    "bigint",
    "symbol",
    "object",
    "String",
    "Number",
    "Boolean",
    "Array",
    "ReadonlyArray",
    "Map",
    "ReadonlyMap",
    "Set",
    "ReadonlySet",
    "WeakMap",
    "WeakSet",
    "Promise",
    "PromiseLike",
    "Date",
    "RegExp",
    "Error",
    "TypeError",
    "Function",
    "Uint8Array",
    "ArrayBuffer",
    "Buffer",
    "URL",
    "URLSearchParams",
    "Headers",
    "Request",
    "Response",
    "AbortController",
    "AbortSignal",
    "ReadableStream",
    "FormData",
    "Blob",
    "TextDecoder",
    "TextEncoder",
    "Iterable",
    "Iterator",
    "AsyncIterable",
    "Generator",
    "AsyncGenerator",
];

pub fn is_library_type(name: &str) -> bool {
    LIBRARY_TYPES.contains(&name)
}

/// The literal types' library names (for `"s".trim()` receivers).
pub fn literal_type_name(lit: crate::facts::LiteralType) -> &'static str {
    use crate::facts::LiteralType as L;
    match lit {
        L::Str => "String",
        L::Int | L::Long | L::Float | L::Double => "Number",
        L::Bool => "Boolean",
        L::List | L::Tuple => "Array",
        L::Dict => "Object",
        L::Set => "Set",
        _ => "Object",
    }
}
