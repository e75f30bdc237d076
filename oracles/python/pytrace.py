"""Runtime call-site oracle for Python: runs a program (a corpus's own test suite)
under sys.setprofile and writes, for every call executed at a site inside ROOT, the
site and every callee it reached, in the site list of callgraph-truth/1.

usage: python pytrace.py --root ROOT --out OUT.json [--path DIR]... -- -m MODULE ARGS...
                                                                    | SCRIPT ARGS...

Written for the harness (oracles/src/pytrace.rs), which wraps the sites into a truth.

- A site is (file relative to ROOT, line, column of the start of the call expression,
  1-based UTF-8 bytes: code.co_positions() at the caller's instruction). Its name is
  what the source writes at the call, read from the `ast.Call` at that position: `f`
  in `f(x)`, `b` in `a.b()`, the table `ops` in `ops["k"]()`.
- A callee is in the tree when its code object's file is under ROOT: its target is the
  line of the def's NAME (co_firstlineno is the first decorator's line; the source is
  read with `ast` to find the name line). Otherwise it is outside, with its module.
- Calls the source does not write are classified and kept apart (`implicit`): import
  machinery, `__build_class__`, class bodies, comprehension bodies, Python functions
  called back from a builtin (`sorted(key=f)`, and `list(gen)`, `deque(it)`: a call
  of a builtin type, which the profiler does not report as a C call, that runs the
  tree's generators and callbacks), property getters and operator or
  protocol dunders (the caller's instruction is not a call). `for` loops keep their
  `__iter__`/`__next__` calls, named so, as the engine names them.
- A decorator written as a call (`@factory(x)`) is two sites at one span: the
  factory's call, named as written, and the application of its result to the
  function, named `()` (the source writes no name for it), told apart by which of
  the span's two call instructions ran.
- Sites in files outside ROOT are dropped.
"""

import argparse
import ast
import bisect
import dis
import json
import os
import runpy
import sys
import threading
import types

CO_OPTIMIZED = 0x0001
TPFLAGS_HEAPTYPE = 1 << 9  # a class written in Python (a type implemented in C lacks it)
CO_GENERATOR_LIKE = 0x20 | 0x80 | 0x200  # generator | coroutine | async generator
CALL_OPS = {"CALL", "CALL_FUNCTION_EX", "PRECALL", "CALL_FUNCTION", "CALL_METHOD",
            "CALL_FUNCTION_KW", "CALL_KW"}
ITER_OPS = {"GET_ITER": "__iter__", "FOR_ITER": "__next__",
            "GET_AITER": "__aiter__", "GET_ANEXT": "__anext__"}
COMPREHENSIONS = {"<listcomp>", "<dictcomp>", "<setcomp>", "<genexpr>"}


class Tracer:
    def __init__(self, root):
        self.root = os.path.realpath(root)
        self.prefix = self.root + os.sep
        self.inside_cache = {}
        # (caller code, lasti) -> {target key: target}
        self.sites = {}
        # id(frame) -> number of C calls under way in that frame
        self.in_c = {}
        # caller code -> the globals its frames read (to tell, afterwards, which
        # written names were bound to builtin types)
        self.globals_of = {}
        self.events = 0

    def relpath(self, code):
        """The path of a code object's file relative to ROOT, or None outside it."""
        try:
            return self.inside_cache[code.co_filename]
        except KeyError:
            name = code.co_filename
            rel = None
            if name and not name.startswith("<"):
                real = os.path.realpath(name)
                if real.startswith(self.prefix):
                    rel = os.path.relpath(real, self.root).replace(os.sep, "/")
            self.inside_cache[code.co_filename] = rel
            return rel

    def profile(self, frame, event, arg):
        if event == "call":
            caller = frame.f_back
            if caller is None:
                return
            ccode = caller.f_code
            if self.relpath(ccode) is None:
                return
            code = frame.f_code
            if code.co_flags & CO_GENERATOR_LIKE and frame.f_lasti > 0:
                return  # a generator resumed, not called
            self.events += 1
            if ccode not in self.globals_of:
                self.globals_of[ccode] = caller.f_globals
            via_c = self.in_c.get(id(caller), 0) > 0
            key = (ccode, caller.f_lasti)
            targets = self.sites.setdefault(key, {})
            targets.setdefault(("py", code, via_c), None)
            if code.co_name == "__init__" and code.co_argcount:
                # A construction: the class called is type(self), which may be an
                # in-tree class that inherits its __init__ (DESIGN §6: the class and
                # its __init__ are both acceptable).
                cls = type(frame.f_locals.get(code.co_varnames[0]))
                module = sys.modules.get(cls.__module__)
                path = getattr(module, "__file__", None) or ""
                targets.setdefault(("class", path, cls.__qualname__, via_c), None)
        elif event == "c_call":
            self.in_c[id(frame)] = self.in_c.get(id(frame), 0) + 1
            code = frame.f_code
            if self.relpath(code) is None:
                return
            self.events += 1
            key = (code, frame.f_lasti)
            targets = self.sites.setdefault(key, {})
            targets.setdefault(("c",) + describe_c(arg), None)
        elif event in ("c_return", "c_exception"):
            n = self.in_c.get(id(frame), 0)
            if n <= 1:
                self.in_c.pop(id(frame), None)
            else:
                self.in_c[id(frame)] = n - 1


def describe_c(obj):
    """(module, qualified name) of a builtin callable."""
    if isinstance(obj, types.MethodType):
        obj = obj.__func__
    qualname = getattr(obj, "__qualname__", None) or getattr(obj, "__name__", None) or type(obj).__name__
    module = getattr(obj, "__module__", None)
    if module is None:
        owner = getattr(obj, "__objclass__", None) or type(getattr(obj, "__self__", None))
        module = getattr(owner, "__module__", None) or "builtins"
    return (str(module), str(qualname))


class SourceIndex:
    """What `ast` says about one file: the def/class/lambda scopes and call positions."""

    def __init__(self, path):
        self.ok = False
        self.classes = {}
        self.name_line = {}  # (first line, name) -> name line
        self.scopes = []  # (first line, end line, name line, kind)
        self.calls = {}  # (line, col, end line, end col) -> ast.Call
        self.decorators = {}  # (line, col, end line, end col) -> decorator expression
        self.iterables = {}  # (line, col) of a for-loop iterable -> True
        try:
            with open(path, "rb") as fh:
                tree = ast.parse(fh.read())
        except (OSError, SyntaxError, ValueError):
            return
        self.ok = True
        self.classes = {}  # qualified name (A.B) -> name line
        self.collect_classes(tree, "")
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                first = min([node.lineno] + [d.lineno for d in node.decorator_list])
                self.name_line[(first, node.name)] = node.lineno
                self.scopes.append((first, node.end_lineno, node.lineno, "def"))
                for d in node.decorator_list:
                    self.decorators[span(d)] = d
            elif isinstance(node, ast.Lambda):
                self.name_line.setdefault((node.lineno, "<lambda>"), node.lineno)
                self.scopes.append((node.lineno, node.end_lineno, node.lineno, "lambda"))
            elif isinstance(node, ast.Call):
                self.calls.setdefault(span(node), node)
            elif isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)):
                self.iterables[(node.iter.lineno, node.iter.col_offset)] = True

    def collect_classes(self, node, prefix):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                name = prefix + child.name
                self.classes.setdefault(name, child.lineno)
                self.collect_classes(child, name + ".")
            elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self.collect_classes(child, prefix + child.name + ".<locals>.")
            else:
                self.collect_classes(child, prefix)

    def class_line(self, qualname):
        return self.classes.get(qualname) if self.ok else None

    def def_line(self, first_line, name):
        return self.name_line.get((first_line, name))

    def enclosing(self, line):
        """Name line of the innermost def or class around `line`, else 0 (module)."""
        best = None
        for first, end, name_line, kind in self.scopes:
            if kind == "def" and first <= line <= end:
                if best is None or first >= best[0]:
                    best = (first, name_line)
        return best[1] if best else 0


def span(node):
    return (node.lineno, node.col_offset, node.end_lineno, node.end_col_offset)


def written_name(func):
    """The name a call writes: `f`, `b` of `a.b`, the table of `ops["k"]`."""
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    if isinstance(func, ast.Subscript):
        return written_name(func.value)
    return None


class Normalizer:
    def __init__(self, tracer):
        self.tracer = tracer
        self.indexes = {}
        self.positions = {}
        self.offsets = {}
        self.span_calls = {}

    def index(self, code):
        return self.indexes_for(code.co_filename)

    def indexes_for(self, filename):
        path = os.path.realpath(filename)
        if path not in self.indexes:
            self.indexes[path] = SourceIndex(path)
        return self.indexes[path]

    def position(self, code, lasti):
        pos = self.positions.get(code)
        if pos is None:
            pos = self.positions[code] = list(code.co_positions())
        i = lasti // 2
        return pos[i] if 0 <= i < len(pos) else (None, None, None, None)

    def instruction(self, code, lasti):
        """(offset, opname) of the instruction at `lasti`, skipping the inline CACHE
        entries a frame's f_lasti can point into while a call is under way (3.11+)."""
        offsets = self.offsets.get(code)
        if offsets is None:
            offsets = self.offsets[code] = [(i.offset, i.opname) for i in dis.get_instructions(code)]
        i = bisect.bisect_right(offsets, (lasti, "\uffff")) - 1
        return offsets[i] if i >= 0 else (-1, "?")

    def opname(self, code, lasti):
        return self.instruction(code, lasti)[1]

    def decorator_role(self, code, lasti, index, span):
        """At a decorator written as a call (`@factory(x)`), which of the two calls
        its span holds ran: the factory's (the span's first call instruction) or the
        application of its result to the function (the last, after the def is
        made). None elsewhere. The two are two calls and are judged apart."""
        deco = index.decorators.get(span)
        if not isinstance(deco, ast.Call):
            return None
        key = (code, span)
        calls = self.span_calls.get(key)
        if calls is None:
            calls = self.span_calls[key] = [
                i.offset for i in dis.get_instructions(code)
                if i.opname in CALL_OPS and i.opname != "PRECALL" and i.positions is not None
                and (i.positions.lineno, i.positions.col_offset,
                     i.positions.end_lineno, i.positions.end_col_offset) == span]
        if len(calls) < 2:
            return None
        return "application" if self.instruction(code, lasti)[0] >= calls[-1] else "factory"

    def code_line(self, code):
        """(name line, kind) of a code object in the tree: kind is def, lambda,
        module, class_body or comprehension."""
        name = code.co_name
        index = self.index(code)
        if name == "<module>":
            return 0, "module"
        if name in COMPREHENSIONS:
            return index.enclosing(code.co_firstlineno), "comprehension"
        line = index.def_line(code.co_firstlineno, name)
        if line is None and name == "<lambda>":
            line = code.co_firstlineno
        if line is None:
            line = code.co_firstlineno
        if not code.co_flags & CO_OPTIMIZED:
            return line, "class_body"
        return line, "lambda" if name == "<lambda>" else "def"

    def caller_of(self, code):
        line, kind = self.code_line(code)
        return line

    def sites(self):
        # One call expression can be reached at two instruction offsets (a builtin's
        # c_call and a Python callee's call event of the same CALL), so sites are
        # grouped by their source span, and their callees merged.
        groups = {}
        for (ccode, lasti), targets in self.tracer.sites.items():
            file = self.tracer.relpath(ccode)
            lineno, end_lineno, col, end_col = self.position(ccode, lasti)
            if lineno is None:
                continue
            op = self.opname(ccode, lasti)
            role = self.decorator_role(ccode, lasti, self.index(ccode), (lineno, col, end_lineno, end_col))
            key = (file, lineno, col, end_lineno, end_col, op in ITER_OPS and ITER_OPS[op], role)
            group = groups.setdefault(key, {"code": ccode, "ops": set(), "explicit": [], "implicit": []})
            group["ops"].add(op)
            for target in targets:
                kind, why, t = self.target(target, op)
                group["implicit" if why else "explicit"].append((t, why, kind))
        out = []
        for (file, lineno, col, end_lineno, end_col, _, role), group in groups.items():
            ccode = group["code"]
            index = self.index(ccode)
            op = sorted(group["ops"])[0]
            explicit, implicit = group["explicit"], group["implicit"]
            caller = {"file": file, "line": self.caller_of(ccode)}
            name, unjudged = self.site_name(index, op, lineno, col, end_lineno, end_col)
            if role == "application":
                # The call of what `factory(x)` returned, with the function: the
                # source writes no name for it, as for `f(x)(y)`'s outer call.
                name = "()"
            if unjudged == "no_call_expression":
                # A call no source text writes: a with-statement's __exit__, code a
                # test runner rewrote (pytest's assertion rewriting).
                why = "with_exit" if any(callee_name(k) in ("__exit__", "__aexit__") for _, _, k in explicit) else unjudged
                implicit = implicit + [(t, why, k) for t, _, k in explicit]
                explicit = []
            if explicit and self.calls_a_builtin_type(ccode, index, lineno, col, end_lineno, end_col):
                # `list(gen)`, `tuple(it)`, `deque(xs)`: the call written runs a
                # builtin type, whose construction is no profiler C call; what it
                # runs of the tree (a generator, a callback) it calls itself.
                implicit = implicit + [(t, "via_builtin", k) for t, _, k in explicit if k[0] != "c"]
                explicit = [e for e in explicit if e[2][0] == "c"]
            if name and explicit:
                # A builtin or type that calls a dunder of its argument (`str(x)` runs
                # x.__str__, `zip(a, b)` runs __iter__): the call written is the
                # builtin's; the dunder is implicit.
                dunders = [(t, "dunder", k) for t, w, k in explicit if is_implicit_dunder(k, name)]
                if dunders:
                    implicit = implicit + dunders
                    explicit = [e for e in explicit if not is_implicit_dunder(e[2], name)]
            base = {"file": file, "line": lineno, "column": (col or 0) + 1, "caller": caller}
            if explicit:
                keys = sorted({json.dumps(t, sort_keys=True) for t, _, _ in explicit})
                site = dict(base, name=name or callee_name(explicit[0][2]),
                            targets=[json.loads(k) for k in keys])
                if unjudged:
                    site["unjudged"] = unjudged
                out.append(site)
            for why in sorted({w for _, w, _ in implicit}):
                names = sorted({callee_name(k) for _, w, k in implicit if w == why})
                out.append(dict(base, name=names[0], targets=[], implicit=why))
        out.sort(key=lambda s: (s["file"], s["line"], s["column"], s["name"], s.get("implicit", "")))
        return out

    def calls_a_builtin_type(self, ccode, index, line, col, end_line, end_col):
        """Whether the call at this span writes a bare name that the caller's module
        binds (or the builtins bind) to a type implemented in C, and no local of
        the caller shadows it."""
        call = index.calls.get((line, col, end_line, end_col))
        if call is None or not isinstance(call.func, ast.Name):
            return False
        name = call.func.id
        if name in ccode.co_varnames or name in ccode.co_cellvars or name in ccode.co_freevars:
            return False
        if not ccode.co_flags & CO_OPTIMIZED and ccode.co_name != "<module>":
            return False  # a class body: its names are its own locals
        namespace = self.tracer.globals_of.get(ccode) or {}
        if name in namespace:
            obj = namespace[name]
        else:
            builtins = namespace.get("__builtins__", __builtins__)
            if isinstance(builtins, types.ModuleType):
                builtins = vars(builtins)
            obj = builtins.get(name)
        return isinstance(obj, type) and not obj.__flags__ & TPFLAGS_HEAPTYPE

    def site_name(self, index, op, line, col, end_line, end_col):
        """(name as written, why unjudged or None)."""
        if op in ITER_OPS:
            return ITER_OPS[op], None
        call = index.calls.get((line, col, end_line, end_col))
        if call is not None:
            name = written_name(call.func)
            if name is None:
                return None, "computed_callee"
            return name, None
        deco = index.decorators.get((line, col, end_line, end_col))
        if deco is not None:
            name = written_name(deco.func if isinstance(deco, ast.Call) else deco)
            return name, None if name else "computed_callee"
        return None, "no_call_expression"

    def target(self, target, op):
        """(callee descriptor, implicit reason or None, truth target)."""
        if target[0] == "class":
            _, path, qualname, via_c = target
            rel = None
            if path and not via_c and op in CALL_OPS:
                rel = self.tracer.relpath(types.SimpleNamespace(co_filename=path))
            line = self.indexes_for(path).class_line(qualname) if rel else None
            if line is None:
                return target, "constructed_class", None
            return target, None, {"kind": "in_tree", "file": rel, "line": line}
        if target[0] == "c":
            _, module, qualname = target
            if qualname == "__build_class__":
                return target, "build_class", None
            if op not in CALL_OPS:
                return target, "implicit_" + op.lower(), None
            return target, None, {"kind": "outside", "symbol": module + "." + qualname}
        _, code, via_c = target
        if op in ITER_OPS and code.co_name != ITER_OPS[op] and not code.co_flags & CO_GENERATOR_LIKE:
            # A `for` over a builtin iterator that calls the tree back
            # (`iter(partial(take, n), [])`): the loop's `__next__` is the
            # builtin's, and what it runs is no call the loop writes.
            return target, "via_builtin", None
        rel = self.tracer.relpath(code)
        if rel is None:
            symbol = code.co_qualname if hasattr(code, "co_qualname") else code.co_name
            if "importlib" in code.co_filename:
                return target, "import", None
            if via_c:
                return target, "via_builtin", None
            if op not in CALL_OPS and op not in ITER_OPS:
                return target, "implicit_" + op.lower(), None
            return target, None, {"kind": "outside", "symbol": module_of_file(code.co_filename) + "." + symbol}
        line, kind = self.code_line(code)
        if kind == "module":
            return target, "import", None
        if kind == "class_body":
            return target, "class_body", None
        if kind == "comprehension":
            return target, "comprehension", None
        if via_c:
            return target, "via_builtin", None
        if op not in CALL_OPS and op not in ITER_OPS:
            return target, "implicit_" + op.lower(), None
        return target, None, {"kind": "in_tree", "file": rel, "line": line}


def is_implicit_dunder(target, written):
    """A Python callee `__x__` reached at a call that writes another name, other than
    the constructor and call protocol a call expression runs itself."""
    if target[0] != "py":
        return False
    name = target[1].co_name
    return (name.startswith("__") and name.endswith("__") and name != written
            and name not in ("__init__", "__call__", "__new__"))


def callee_name(target):
    if target[0] == "class":
        return target[2].rsplit(".", 1)[-1]
    if target[0] == "c":
        return target[2].rsplit(".", 1)[-1]
    return target[1].co_name


def module_of_file(path):
    for entry in sorted(sys.path, key=len, reverse=True):
        if entry and path.startswith(os.path.join(entry, "")):
            rel = os.path.relpath(path, entry)
            return rel[:-3].replace(os.sep, ".").removesuffix(".__init__") if rel.endswith(".py") else rel
    return os.path.basename(path)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--path", action="append", default=[])
    parser.add_argument("program", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    program = args.program[1:] if args.program[:1] == ["--"] else args.program
    if not program:
        parser.error("no program to run")
    for p in reversed(args.path):
        sys.path.insert(0, os.path.realpath(p))
    tracer = Tracer(args.root)
    status = 0
    if program[0] == "-m":
        sys.argv = [program[1]] + program[2:]
        run = lambda: runpy.run_module(program[1], run_name="__main__", alter_sys=True)
    else:
        sys.argv = program
        sys.path.insert(0, os.path.dirname(os.path.realpath(program[0])))
        run = lambda: runpy.run_path(program[0], run_name="__main__")
    threading.setprofile(tracer.profile)
    sys.setprofile(tracer.profile)
    try:
        run()
    except SystemExit as e:
        status = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    finally:
        sys.setprofile(None)
        threading.setprofile(None)
    sites = Normalizer(tracer).sites()
    result = {"python": sys.version.split()[0], "exit_status": status,
              "events": tracer.events, "sites": sites}
    with open(args.out, "w", encoding="utf-8") as fh:
        json.dump(result, fh, sort_keys=True)
        fh.write("\n")
    # pytest: 0 all passed, 1 some failed; the trace of a run that failed some tests
    # is still a trace of what ran. Anything else is a failed run.
    sys.stdout.flush()
    os._exit(0 if status in (0, 1) else 3)


if __name__ == "__main__":
    main()
