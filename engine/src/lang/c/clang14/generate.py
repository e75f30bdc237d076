#!/usr/bin/env python3
"""Writes predefined.txt and queries.txt beside this script: what clang 14 on
x86_64 Linux predefines, and what it answers to `__has_include`, `__has_builtin`,
`__has_attribute`, `__has_cpp_attribute`, `__has_feature` and `__has_extension`
for a closed list of names, in every language standard it accepts
(engine/src/lang/c/clang14.rs reads both files; lang/c/README.md says why).

    python3 engine/src/lang/c/clang14/generate.py          # rewrite the tables
    python3 engine/src/lang/c/clang14/generate.py --check  # exit 1 when they differ

Needs `clang` and `clang++` 14 on PATH (the clang oracle's toolchain)."""

import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

C_MODES = ["c89", "gnu89", "c99", "gnu99", "c11", "gnu11", "c17", "gnu17", "c2x", "gnu2x"]
CPP_MODES = ["c++98", "gnu++98", "c++11", "gnu++11", "c++14", "gnu++14", "c++17",
             "gnu++17", "c++20", "gnu++20", "c++2b", "gnu++2b"]
MODES = C_MODES + CPP_MODES

HEADERS = """
assert.h complex.h ctype.h errno.h fenv.h float.h inttypes.h iso646.h limits.h locale.h
math.h setjmp.h signal.h stdalign.h stdarg.h stdatomic.h stdbool.h stddef.h stdint.h
stdio.h stdlib.h stdnoreturn.h string.h tgmath.h threads.h time.h uchar.h wchar.h wctype.h
unistd.h fcntl.h pthread.h sys/types.h sys/stat.h sys/time.h sys/socket.h sys/mman.h
sys/uio.h sys/resource.h sys/wait.h sys/select.h sys/ioctl.h sys/param.h sys/file.h
sys/un.h sys/syscall.h sys/prctl.h sys/epoll.h sys/eventfd.h sys/random.h sys/sysinfo.h
sys/utsname.h sys/event.h sys/endian.h netinet/in.h netinet/tcp.h arpa/inet.h netdb.h
poll.h dirent.h dlfcn.h sched.h semaphore.h strings.h syslog.h termios.h pwd.h grp.h
glob.h fnmatch.h libgen.h langinfo.h iconv.h regex.h spawn.h utime.h endian.h byteswap.h
execinfo.h features.h malloc.h alloca.h xlocale.h linux/futex.h cxxabi.h unwind.h
x86intrin.h immintrin.h emmintrin.h nmmintrin.h cpuid.h
algorithm any array atomic barrier bit bitset cassert ccomplex cctype cerrno cfenv cfloat
charconv chrono cinttypes ciso646 climits clocale cmath codecvt compare complex concepts
condition_variable coroutine csetjmp csignal cstdalign cstdarg cstdbool cstddef cstdint
cstdio cstdlib cstring ctgmath ctime cuchar cwchar cwctype deque exception execution
expected filesystem format forward_list fstream functional future initializer_list
iomanip ios iosfwd iostream istream iterator latch limits list locale map memory
memory_resource mutex new numbers numeric optional ostream print queue random ranges
ratio regex scoped_allocator semaphore set shared_mutex source_location span spanstream
sstream stack stacktrace stdexcept stop_token streambuf string string_view strstream
syncstream system_error thread tuple type_traits typeindex typeinfo unordered_map
unordered_set utility valarray variant vector version
experimental/string_view experimental/optional experimental/filesystem experimental/any
windows.h Windows.h winapifamily.h io.h direct.h tchar.h intrin.h winsock2.h ws2tcpip.h
TargetConditionals.h AvailabilityMacros.h mach/mach.h libkern/OSByteOrder.h
malloc/malloc.h CoreFoundation/CoreFoundation.h
""".split()

BUILTINS = """
__builtin_expect __builtin_clz __builtin_clzl __builtin_clzll __builtin_ctz __builtin_ctzl
__builtin_ctzll __builtin_popcount __builtin_popcountl __builtin_popcountll
__builtin_bswap16 __builtin_bswap32 __builtin_bswap64 __builtin_unreachable
__builtin_assume __builtin_trap __builtin_debugtrap __builtin_addcll __builtin_addcl
__builtin_addc __builtin_ia32_addcarryx_u64 __builtin_ia32_addcarry_u64
__builtin_mul_overflow __builtin_add_overflow __builtin_sub_overflow
__builtin_umull_overflow __builtin_memcpy __builtin_memset __builtin_memmove
__builtin_memcmp __builtin_strlen __builtin_is_constant_evaluated __builtin_bit_cast
__builtin_offsetof __builtin_types_compatible_p __builtin_constant_p __builtin_prefetch
__builtin_frame_address __builtin_return_address __builtin_huge_val __builtin_inf
__builtin_nan __builtin_isnan __builtin_isinf __builtin_LINE __builtin_FILE
__builtin_FUNCTION __builtin_COLUMN __builtin_launder __builtin_addressof
__builtin_assume_aligned __builtin_operator_new __builtin_operator_delete
__builtin_shufflevector __builtin_convertvector __builtin_readcyclecounter
__builtin_alloca __builtin_choose_expr __builtin_classify_type __builtin_object_size
__builtin_dynamic_object_size __builtin_ffs __builtin_ffsll __builtin_parity
__builtin_rotateleft32 __builtin_rotateright64 __builtin_ia32_rdtsc
__builtin_cpu_supports __builtin_cpu_init __builtin_speculation_safe_value
__builtin_source_location __builtin_unpredictable __builtin_abs __builtin_labs
__builtin_va_start __builtin_va_end __builtin_va_copy __builtin_signbit
__builtin_copysign __builtin_fabs __builtin_sqrt __builtin_char_memchr
__builtin_wmemcmp __builtin_strcmp __builtin_strncmp __builtin_memchr
__is_trivially_copyable __is_same __is_enum __is_class __is_union __is_final
__is_aggregate __has_unique_object_representations __make_integer_seq
__type_pack_element __underlying_type __is_trivially_constructible
__is_trivially_destructible __is_convertible_to __is_base_of __is_pod __is_empty
__is_polymorphic __is_abstract __is_standard_layout __is_literal_type
""".split()

ATTRIBUTES = """
always_inline noinline noreturn unused used visibility deprecated format nonnull pure
const cold hot warn_unused_result aligned packed constructor destructor weak alias
section fallthrough no_sanitize no_sanitize_address no_sanitize_undefined
no_sanitize_thread no_sanitize_memory malloc alloc_size returns_nonnull sentinel cleanup
flatten artificial target optimize noipa no_instrument_function nothrow uninitialized
lifetimebound guarded_by pt_guarded_by exclusive_locks_required acquire_capability
release_capability capability scoped_lockable lockable no_thread_safety_analysis
warn_unused diagnose_if enable_if overloadable noescape trivial_abi ext_vector_type
vector_size mode transparent_union format_arg error warning access nonstring tls_model
ifunc naked may_alias minsize nodebug no_stack_protector retain leaf externally_visible
no_split_stack cpu_specific cpu_dispatch assume_aligned alloc_align musttail called_once
availability annotate enum_extensibility flag_enum consumable callable_when
preferred_name standalone_debug using_if_exists nomerge no_builtin noderef unavailable
objc_root_class ns_returns_retained cf_returns_retained swift_name cold hot
no_profile_instrument_function no_caller_saved_registers interrupt regcall vectorcall
fastcall stdcall thiscall cdecl ms_abi sysv_abi force_align_arg_pointer
require_constant_initialization no_destroy reinitializes weakref visibility
__format__ __noreturn__ __always_inline__ __unused__ __visibility__ __deprecated__
__warn_unused_result__ __nonnull__ __pure__ __const__ __cold__ __hot__ __aligned__
__packed__ __malloc__ __fallthrough__ __noinline__ __used__ __weak__ __section__
""".split()

CPP_ATTRIBUTES = """
noreturn carries_dependency deprecated fallthrough maybe_unused nodiscard likely unlikely
no_unique_address assume optimize_for_synchronized gnu::unused gnu::always_inline
gnu::noinline gnu::visibility gnu::const gnu::pure gnu::cold gnu::hot gnu::format
gnu::deprecated gnu::fallthrough gnu::nonnull gnu::warn_unused_result gnu::aligned
gnu::packed gnu::noreturn gnu::used gnu::weak clang::fallthrough clang::lifetimebound
clang::reinitializes clang::trivial_abi clang::no_destroy
clang::require_constant_initialization clang::musttail clang::always_inline
clang::noinline clang::warn_unused_result clang::noescape clang::nodiscard
msvc::no_unique_address gsl::Owner gsl::Pointer gsl::suppress
""".split()

FEATURES = """
cxx_exceptions cxx_rtti cxx_strong_enums cxx_user_literals cxx_relaxed_constexpr
cxx_constexpr cxx_rvalue_references cxx_variadic_templates cxx_lambdas cxx_nullptr
cxx_static_assert cxx_decltype cxx_auto_type cxx_override_control cxx_noexcept
cxx_generic_lambdas cxx_return_type_deduction cxx_variable_templates cxx_init_captures
cxx_alias_templates cxx_alignas cxx_alignof cxx_attributes cxx_thread_local
cxx_inline_namespaces cxx_defaulted_functions cxx_deleted_functions
cxx_explicit_conversions cxx_range_for cxx_raw_string_literals cxx_unicode_literals
cxx_unrestricted_unions cxx_delegating_constructors cxx_inheriting_constructors
cxx_implicit_moves cxx_local_type_template_args cxx_nonstatic_member_init
cxx_reference_qualified_functions cxx_default_function_template_args
cxx_contextual_conversions cxx_binary_literals cxx_decltype_auto cxx_aggregate_nsdmi
cxx_atomic cxx_access_control_sfinae cxx_trailing_return cxx_decltype_incomplete_return_types
cxx_generalized_initializers cxx_init_lists c_atomic c_generic_selections
c_static_assert c_thread_local c_alignas c_alignof address_sanitizer thread_sanitizer
memory_sanitizer dataflow_sanitizer hwaddress_sanitizer safe_stack
undefined_behavior_sanitizer leak_sanitizer coverage_sanitizer modules objc_arc blocks
attribute_deprecated_with_message attribute_unavailable_with_message is_trivially_copyable
is_standard_layout has_trivial_constructor is_empty is_enum is_pod is_polymorphic
is_union is_final tls enumerator_attributes nullability nullability_on_arrays
attribute_availability attribute_overloadable cxx_fixed_enum
""".split()

QUERIES = (
    [("__has_include", "<%s>" % h) for h in HEADERS]
    + [("__has_builtin", b) for b in BUILTINS]
    + [("__has_attribute", a) for a in dict.fromkeys(ATTRIBUTES)]
    + [("__has_cpp_attribute", a) for a in CPP_ATTRIBUTES]
    + [("__has_feature", f) for f in FEATURES]
    + [("__has_extension", f) for f in FEATURES]
)


def run(cmd, text):
    return subprocess.run(cmd, input=text, capture_output=True, text=True, check=True).stdout


def driver(mode):
    return ["clang++", "-x", "c++"] if mode in CPP_MODES else ["clang", "-x", "c"]


def predefined(mode):
    out = run(driver(mode) + ["-std=" + mode, "-dM", "-E", "-"], "")
    defs = {}
    for line in out.splitlines():
        m = re.match(r"#define (\S+) ?(.*)$", line)
        defs[m.group(1)] = m.group(2)
    return defs


def answers(mode):
    """One probe line per query, each guarded by whether the query's macro exists in
    this mode (`__has_cpp_attribute` does not in C), as `?` when it does not."""
    lines = []
    for i, (fn, arg) in enumerate(QUERIES):
        if fn == "__has_include":  # only inside a directive
            probe = "#if %s(%s)\nq%d 1\n#else\nq%d 0\n#endif" % (fn, arg, i, i)
        else:
            probe = "q%d %s(%s)" % (i, fn, arg)
        lines.append("#if defined(%s)\n%s\n#else\nq%d ?\n#endif" % (fn, probe, i))
    out = run(driver(mode) + ["-std=" + mode, "-E", "-P", "-"], "\n".join(lines) + "\n")
    got = {}
    for line in out.splitlines():
        m = re.match(r"q(\d+) (.*)$", line.strip())
        if m:
            got[int(m.group(1))] = m.group(2).strip()
    return {"%s(%s)" % QUERIES[i]: v for i, v in got.items() if v != "?"}


def mode_set_name(modes):
    modes = [m for m in MODES if m in modes]
    if modes == MODES:
        return "all"
    if modes == C_MODES:
        return "c"
    if modes == CPP_MODES:
        return "c++"
    return " ".join(modes)


def sections(per_mode, line_of):
    """Groups (key, value) pairs by the exact set of modes that hold them."""
    holders = {}
    for mode in MODES:
        for key, value in per_mode[mode].items():
            holders.setdefault((key, value), []).append(mode)
    by_set = {}
    for (key, value), modes in holders.items():
        by_set.setdefault(mode_set_name(modes), []).append(line_of(key, value))
    order = sorted(by_set, key=lambda s: (s not in ("all", "c", "c++"), ["all", "c", "c++"].index(s) if s in ("all", "c", "c++") else 0, s))
    text = []
    for name in order:
        text.append("[%s]" % name)
        text.extend(sorted(by_set[name]))
    return "\n".join(text) + "\n"


def flags_delta():
    """What -fno-exceptions and -fno-rtti take away (clang14.rs hard-codes it)."""
    base = predefined("gnu++14")
    for flag, names in (("-fno-exceptions", {"__EXCEPTIONS", "__cpp_exceptions"}),
                        ("-fno-rtti", {"__GXX_RTTI", "__cpp_rtti"})):
        out = run(["clang++", "-x", "c++", flag, "-dM", "-E", "-"], "")
        got = {re.match(r"#define (\S+)", l).group(1) for l in out.splitlines()}
        gone = set(base) - got
        if gone != names or got - set(base):
            sys.exit("%s changes %s, clang14.rs expects %s" % (flag, sorted(gone), sorted(names)))


def main():
    version = run(["clang", "--version"], "").splitlines()[0]
    if " 14." not in version:
        sys.exit("needs clang 14, found: " + version)
    flags_delta()
    head = "# %s, x86_64-pc-linux-gnu (generated by generate.py; do not edit)\n"
    pre = head % version + "# `clang -x c|c++ -std=MODE -dM -E -`: [the modes a line holds in] NAME VALUE\n"
    pre += sections({m: predefined(m) for m in MODES}, lambda k, v: ("%s %s" % (k, v)).rstrip())
    qry = head % version + "# `QUERY VALUE` as clang answers it in #if, per mode; a query not listed is unknown\n"
    qry += sections({m: answers(m) for m in MODES}, lambda k, v: "%s %s" % (k, v))
    outputs = {"predefined.txt": pre, "queries.txt": qry}
    check = "--check" in sys.argv
    stale = []
    for name, text in outputs.items():
        path = os.path.join(HERE, name)
        if check:
            with open(path) as f:
                if f.read() != text:
                    stale.append(name)
        else:
            with open(path, "w") as f:
                f.write(text)
    if stale:
        sys.exit("stale: " + ", ".join(stale))


if __name__ == "__main__":
    main()
