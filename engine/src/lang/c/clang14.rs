//! What the compiler itself says before the first line of a file: the macros clang
//! 14 predefines on x86_64 Linux in each language standard, its answers to the
//! `__has_*` queries, and the names it never defines on this target. The clang
//! oracle is clang 14 on x86_64 Linux, so the engine evaluates conditionals against
//! the compiler that judges it.
//!
//! `clang14/predefined.txt` and `clang14/queries.txt` are written by
//! `clang14/generate.py` from the toolchain itself (`--check` tells whether they
//! are current); this module only reads them.

use std::sync::OnceLock;

use crate::fasthash::FastMap;

/// The language standards clang 14 accepts, C then C++ (the tables' mode names).
pub const MODES: &[&str] = &[
    "c89", "gnu89", "c99", "gnu99", "c11", "gnu11", "c17", "gnu17", "c2x", "gnu2x", "c++98",
    "gnu++98", "c++11", "gnu++11", "c++14", "gnu++14", "c++17", "gnu++17", "c++20", "gnu++20",
    "c++2b", "gnu++2b",
];
const FIRST_CPP: usize = 10;

/// One language standard (`-std=`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Mode(u8);

impl Mode {
    /// The mode `-std=NAME` selects, aliases included (`c18`, `c++1z`, `gnu++0x`, …).
    pub fn named(name: &str) -> Option<Mode> {
        let canonical = match name {
            "c90" | "iso9899:1990" => "c89",
            "gnu90" => "gnu89",
            "c9x" | "iso9899:1999" | "iso9899:199x" => "c99",
            "gnu9x" => "gnu99",
            "c1x" | "iso9899:2011" => "c11",
            "gnu1x" => "gnu11",
            "c18" | "iso9899:2017" | "iso9899:2018" => "c17",
            "gnu18" => "gnu17",
            "c++03" => "c++98",
            "gnu++03" => "gnu++98",
            "c++0x" => "c++11",
            "gnu++0x" => "gnu++11",
            "c++1y" => "c++14",
            "gnu++1y" => "gnu++14",
            "c++1z" => "c++17",
            "gnu++1z" => "gnu++17",
            "c++2a" => "c++20",
            "gnu++2a" => "gnu++20",
            other => other,
        };
        MODES
            .iter()
            .position(|m| *m == canonical)
            .map(|i| Mode(i as u8))
    }

    /// clang 14's default: `gnu17` for C, `gnu++14` for C++.
    pub fn default_for(cpp: bool) -> Mode {
        Mode::named(if cpp { "gnu++14" } else { "gnu17" }).expect("a mode of the table")
    }

    pub fn cpp(self) -> bool {
        self.0 as usize >= FIRST_CPP
    }

    pub fn name(self) -> &'static str {
        MODES[self.0 as usize]
    }
}

/// The two tables, read once.
struct Tables {
    /// Per mode: every predefined macro as (name, body).
    predefined: Vec<Vec<(String, String)>>,
    /// Per mode: `QUERY(arg)` → value.
    queries: Vec<FastMap<String, i64>>,
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| Tables {
        predefined: per_mode(include_str!("clang14/predefined.txt"))
            .into_iter()
            .map(|lines| {
                lines
                    .into_iter()
                    .map(|l| match l.split_once(' ') {
                        Some((name, body)) => (name.to_string(), body.to_string()),
                        None => (l, String::new()),
                    })
                    .collect()
            })
            .collect(),
        queries: per_mode(include_str!("clang14/queries.txt"))
            .into_iter()
            .map(|lines| {
                lines
                    .into_iter()
                    .filter_map(|l| {
                        let (query, value) = l.rsplit_once(' ')?;
                        let value = super::preproc::expr::parse_number(value)?;
                        Some((query.to_string(), value.bits as i64))
                    })
                    .collect()
            })
            .collect(),
    })
}

/// A generated table's lines, distributed to the modes their `[section]` names.
fn per_mode(text: &str) -> Vec<Vec<String>> {
    let mut out: Vec<Vec<String>> = vec![Vec::new(); MODES.len()];
    let mut holders: Vec<usize> = Vec::new();
    for line in text.lines() {
        if line.starts_with('#') || line.is_empty() {
            continue;
        }
        if let Some(set) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            holders = match set {
                "all" => (0..MODES.len()).collect(),
                "c" => (0..FIRST_CPP).collect(),
                "c++" => (FIRST_CPP..MODES.len()).collect(),
                names => names
                    .split(' ')
                    .filter_map(|n| Mode::named(n).map(|m| m.0 as usize))
                    .collect(),
            };
            continue;
        }
        for &m in &holders {
            out[m].push(line.to_string());
        }
    }
    out
}

/// The macros clang predefines in this mode, `-fno-exceptions` / `-fno-rtti`
/// taking theirs away (generate.py checks that these are all they take).
pub fn predefined(mode: Mode, exceptions: bool, rtti: bool) -> Vec<(&'static str, &'static str)> {
    tables().predefined[mode.0 as usize]
        .iter()
        .filter(|(name, _)| {
            let gone = (!exceptions
                && matches!(name.as_str(), "__EXCEPTIONS" | "__cpp_exceptions"))
                || (!rtti && matches!(name.as_str(), "__GXX_RTTI" | "__cpp_rtti"));
            !gone
        })
        .map(|(n, b)| (n.as_str(), b.as_str()))
        .collect()
}

/// clang's answer to `function(argument)` in this mode, where the table has one
/// (`__has_include(<fcntl.h>)`, `__has_builtin(__builtin_clz)`, `__has_feature(x)`).
pub fn query(
    mode: Mode,
    exceptions: bool,
    rtti: bool,
    function: &str,
    argument: &str,
) -> Option<i64> {
    if matches!(function, "__has_feature" | "__has_extension") {
        match argument {
            "cxx_exceptions" if !exceptions => return Some(0),
            "cxx_rtti" if !rtti => return Some(0),
            _ => {}
        }
    }
    let key = format!("{function}({argument})");
    tables().queries[mode.0 as usize].get(&key).copied()
}

/// Names clang defines with a meaning of their own in this mode: `defined` says 1,
/// and the `__has_*` among them are the queries above.
pub fn builtin_macros(mode: Mode) -> impl Iterator<Item = &'static str> {
    const BOTH: &[&str] = &[
        "__has_include",
        "__has_include_next",
        "__has_builtin",
        "__has_attribute",
        "__has_declspec_attribute",
        "__has_feature",
        "__has_extension",
        "__has_warning",
        "__is_identifier",
        "__building_module",
        "__is_target_arch",
        "__is_target_vendor",
        "__is_target_os",
        "__is_target_environment",
        "__FILE__",
        "__LINE__",
        "__DATE__",
        "__TIME__",
        "__TIMESTAMP__",
        "__COUNTER__",
        "__INCLUDE_LEVEL__",
        "__BASE_FILE__",
        "__FILE_NAME__",
        "_Pragma",
    ];
    let own: &[&str] = if mode.cpp() {
        &["__has_cpp_attribute"]
    } else {
        &["__has_c_attribute"]
    };
    BOTH.iter().chain(own).copied()
}

/// Names clang 14 on x86_64 Linux never defines and no header of this system does:
/// other operating systems, compilers and architectures, libc++ (the system's C++
/// library is libstdc++), optimisation and instruction-set macros the build's flags
/// would have to ask for (the clang oracle checks the units' flags), `NDEBUG`,
/// which only the command line sets, and the compiler's own families (`__cpp_*`
/// language features — not `__cpp_lib_*`, which library headers define —
/// `__clang_*`, `__GNUC_*`, `__SIZEOF_*`) beyond what the mode predefines. Each is
/// undefined wherever the tree does not define it itself.
pub fn never_defined(name: &str) -> bool {
    let compiler_family = (name.starts_with("__cpp_") && !name.starts_with("__cpp_lib_"))
        || name.starts_with("__clang_")
        || name.starts_with("__GNUC_")
        || name.starts_with("__SIZEOF_");
    if compiler_family {
        return true;
    }
    const NAMES: &[&str] = &[
        // Windows and its compilers.
        "_WIN32",
        "_WIN64",
        "WIN32",
        "_WINDOWS",
        "__WINDOWS__",
        "_WIN32_WCE",
        "WINAPI_FAMILY",
        "_MSC_VER",
        "_MSC_FULL_VER",
        "_MSC_BUILD",
        "_MSVC_LANG",
        "_MSVC_TRADITIONAL",
        "_MSC_EXTENSIONS",
        "_M_IX86",
        "_M_X64",
        "_M_AMD64",
        "_M_ARM",
        "_M_ARM64",
        "_M_IA64",
        "_M_PPC",
        "__MINGW32__",
        "__MINGW64__",
        "__CYGWIN__",
        "__CYGWIN32__",
        "_UCRT",
        "_HAS_EXCEPTIONS",
        "_CPPUNWIND",
        "_CPPRTTI",
        "_DEBUG",
        "_DLL",
        "_MT",
        "_SECURE_SCL",
        "_HAS_ITERATOR_DEBUGGING",
        "_ITERATOR_DEBUG_LEVEL",
        // Apple, the BSDs, other systems.
        "__APPLE__",
        "__MACH__",
        "__APPLE_CC__",
        "__apple_build_version__",
        "__OSX__",
        "TARGET_OS_IPHONE",
        "TARGET_OS_MAC",
        "TARGET_OS_OSX",
        "TARGET_OS_IOS",
        "__FreeBSD__",
        "__FreeBSD_kernel__",
        "__NetBSD__",
        "__OpenBSD__",
        "__DragonFly__",
        "__bsdi__",
        "__sun",
        "__sun__",
        "__SVR4",
        "__svr4__",
        "_AIX",
        "__hpux",
        "__HAIKU__",
        "__Fuchsia__",
        "__QNX__",
        "__QNXNTO__",
        "__ANDROID__",
        "__ANDROID_API__",
        "__BIONIC__",
        "__EMSCRIPTEN__",
        "__wasm__",
        "__wasm32__",
        "__wasm64__",
        "__MVS__",
        "__OS400__",
        "__VMS",
        "__GNU__",
        "__gnu_hurd__",
        "__minix",
        "__CloudABI__",
        "__OS2__",
        "__SYMBIAN32__",
        // Other compilers and tools.
        "__INTEL_COMPILER",
        "__INTEL_LLVM_COMPILER",
        "__ICC",
        "__ICL",
        "__ECC",
        "__NVCC__",
        "__CUDACC__",
        "__CUDA_ARCH__",
        "__NVCOMPILER",
        "__PGI",
        "__PGIC__",
        "__SUNPRO_C",
        "__SUNPRO_CC",
        "__IBMC__",
        "__IBMCPP__",
        "__ibmxl__",
        "__xlC__",
        "__xlc__",
        "__EDG__",
        "__EDG_VERSION__",
        "__COMO__",
        "__DMC__",
        "__BORLANDC__",
        "__CODEGEARC__",
        "__WATCOMC__",
        "__TINYC__",
        "__LCC__",
        "__MWERKS__",
        "__HP_aCC",
        "__HP_cc",
        "__DECC",
        "__DECCXX",
        "__KCC",
        "__PATHCC__",
        "__OPEN64__",
        "__CC_ARM",
        "__ARMCC_VERSION",
        "__TI_COMPILER_VERSION__",
        "__IAR_SYSTEMS_ICC__",
        "__SDCC",
        "__COVERITY__",
        "__INTELLISENSE__",
        "__RESHARPER__",
        "__clang_analyzer__",
        // Other architectures and data models.
        "__aarch64__",
        "__arm__",
        "__arm64__",
        "__ARM_ARCH",
        "__thumb__",
        "__i386__",
        "__i386",
        "i386",
        "__i686__",
        "_X86_",
        "__powerpc__",
        "__powerpc64__",
        "__ppc__",
        "__ppc64__",
        "__PPC__",
        "__PPC64__",
        "__POWERPC__",
        "__s390__",
        "__s390x__",
        "__mips__",
        "__mips",
        "__sparc__",
        "__sparc",
        "__riscv",
        "__riscv_xlen",
        "__loongarch__",
        "__alpha__",
        "__hppa__",
        "__ia64__",
        "__m68k__",
        "__sh__",
        "__xtensa__",
        "__AVR__",
        "__BIG_ENDIAN__",
        "__ARMEB__",
        "__MIPSEB__",
        "__ILP32__",
        "_ILP32",
        "__LP32__",
        // Other C++ libraries.
        "_LIBCPP_VERSION",
        "_LIBCPP_ABI_VERSION",
        "_STLPORT_VERSION",
        "__GLIBCPP__",
        // Flags the build would have to give (the oracle checks it gives none).
        "NDEBUG",
        "__OPTIMIZE__",
        "__OPTIMIZE_SIZE__",
        "__FAST_MATH__",
        "__SANITIZE_ADDRESS__",
        "__SANITIZE_THREAD__",
        "__SSE3__",
        "__SSSE3__",
        "__SSE4_1__",
        "__SSE4_2__",
        "__AVX__",
        "__AVX2__",
        "__AVX512F__",
        "__BMI__",
        "__BMI2__",
        "__POPCNT__",
        "__LZCNT__",
        "__PCLMUL__",
        "__AES__",
        "__FMA__",
        "__F16C__",
        "__RDRND__",
        "__SHA__",
        "__ADX__",
        "__CHAR_UNSIGNED__",
        "_REENTRANT",
    ];
    static SET: OnceLock<crate::fasthash::FastSet<&'static str>> = OnceLock::new();
    SET.get_or_init(|| NAMES.iter().copied().collect())
        .contains(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(mode: &str, name: &str) -> Option<&'static str> {
        let m = Mode::named(mode).unwrap();
        predefined(m, true, true)
            .into_iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v)
    }

    #[test]
    fn predefined_macros_follow_the_standard_and_the_language() {
        assert_eq!(value("gnu++14", "__cplusplus"), Some("201402L"));
        assert_eq!(value("c++17", "__cplusplus"), Some("201703L"));
        assert_eq!(value("c++1z", "__cplusplus"), Some("201703L"));
        assert_eq!(value("c99", "__STDC_VERSION__"), Some("199901L"));
        assert_eq!(value("gnu17", "__cplusplus"), None);
        assert_eq!(value("gnu17", "__GNUC__"), Some("4"));
        assert_eq!(value("c11", "__x86_64__"), Some("1"));
        assert_eq!(value("gnu11", "__linux__"), Some("1"));
        assert_eq!(value("c11", "linux"), None);
        assert_eq!(value("gnu++11", "_GNU_SOURCE"), Some("1"));
        assert!(value("c++17", "__clang__").is_some());
        assert_eq!(value("c17", "__SIZEOF_POINTER__"), Some("8"));
        assert_eq!(
            value("c17", "__BYTE_ORDER__"),
            Some("__ORDER_LITTLE_ENDIAN__")
        );
        let cpp = Mode::default_for(true);
        assert_eq!(cpp.name(), "gnu++14");
        assert!(predefined(cpp, false, true)
            .iter()
            .all(|(n, _)| *n != "__cpp_exceptions"));
        assert!(Mode::named("c++42").is_none());
    }

    #[test]
    fn queries_answer_what_clang_answers() {
        let c = Mode::default_for(false);
        let cpp = Mode::named("c++11").unwrap();
        assert_eq!(query(c, true, true, "__has_include", "<fcntl.h>"), Some(1));
        assert_eq!(
            query(c, true, true, "__has_include", "<windows.h>"),
            Some(0)
        );
        assert_eq!(
            query(c, true, true, "__has_include", "<string_view>"),
            Some(0)
        );
        assert_eq!(
            query(cpp, true, true, "__has_include", "<string_view>"),
            Some(1)
        );
        assert_eq!(
            query(cpp, true, true, "__has_builtin", "__builtin_clz"),
            Some(1)
        );
        assert_eq!(
            query(cpp, true, true, "__has_cpp_attribute", "nodiscard"),
            Some(201907)
        );
        assert_eq!(
            query(cpp, true, true, "__has_feature", "cxx_exceptions"),
            Some(1)
        );
        assert_eq!(
            query(cpp, false, true, "__has_feature", "cxx_exceptions"),
            Some(0)
        );
        assert_eq!(
            query(cpp, true, true, "__has_feature", "no_such_thing_listed"),
            None
        );
        assert!(never_defined("_WIN32") && never_defined("NDEBUG"));
        assert!(!never_defined("__GLIBC__"));
        assert!(never_defined("__cpp_char8_t") && !never_defined("__cpp_lib_ranges"));
    }
}
