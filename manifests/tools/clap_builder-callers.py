# The run that confirms manifests/clap_builder.json (DECISIONS D65):
#   a crate `drv` whose src/main.rs is manifests/tools/clap_builder-drive.rs and whose
#   only dependency is `clap_builder = { path = "<the corpus view>" }` (the dev
#   profile: debug assertions on, as in the oracle's `--profile test` build), then
#   cargo build --offline && gdb -batch -x clap_builder-callers.py ./target/debug/drv
# Records, for every stop at one of the callee breakpoints, the callee (name, its
# file and declaration line) and the file:line of the call that reached it: the
# first caller frame outside core's FnOnce/Fn shims (core/src/ops/function.rs).
import gdb
SPECS = [
    "drv::add_late", "drv::shout", "drv::grouped", "drv::renamed",
    "drv::len_of", "drv::parse_i32",
    "clap_builder::output::help_template::option_sort_key",
    "clap_builder::output::help_template::positional_sort_key",
    "alloc::string::String::into_boxed_str",
    "std::ffi::os_str::OsString::into_boxed_os_str",
    "std::path::PathBuf::into_boxed_path",
    "value_hint.rs:75",
    "debug_asserts.rs:98", "debug_asserts.rs:109", "debug_asserts.rs:124", "debug_asserts.rs:140",
]
seen = set()
class Callee(gdb.Breakpoint):
    def stop(self):
        f = gdb.newest_frame()
        o = f.older()
        # A call through a generic `F: FnOnce` goes through core's shims
        # (ops/function.rs): the written call is the first frame outside them.
        while o is not None and o.find_sal().symtab is not None and o.find_sal().symtab.filename.endswith("core/src/ops/function.rs"):
            o = o.older()
        if o is None:
            return False
        sal = o.find_sal()
        fn = f.function()
        callee = (f.name(), fn.symtab.filename if fn else "?", fn.line if fn else 0)
        caller = (sal.symtab.filename if sal.symtab else "?", sal.line)
        key = (callee, caller)
        if key not in seen:
            seen.add(key)
            print("CALL %s:%d -> %s (%s:%d)" % (caller[0], caller[1], callee[0], callee[1], callee[2]))
        return False
gdb.execute("set pagination off")
gdb.execute("set breakpoint pending on")
for s in SPECS:
    Callee(s)
gdb.execute("run")
