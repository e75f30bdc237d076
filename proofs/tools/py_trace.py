#!/usr/bin/env python3
"""Cross-check a Python proof's expected.json against the source and a runtime trace.

usage: py_trace.py [--draft] CASE_DIR...

For each case directory (proofs/python/<case>):
  1. static completeness: every call the source writes (ast.Call, and every
     decorator `@d`) must be a site of expected.json at the line/column of its own
     name token, and every site of expected.json must be such a call (or an
     `__iter__`/`__next__` site of a `for` loop, checked by the trace);
  2. runtime: the case is copied to a temporary directory and `main.py` is run
     under sys.setprofile; every call observed at a site is checked against the
     site's targets (an in-tree callee must be one of the in-tree targets, a callee
     outside the case must meet an outside target). Sites with `expect: abstain`
     are not checked against the trace (the runtime knows what the static rule
     must not guess).
With --draft, prints a draft expected.json (sites and observed targets) instead.

Names: `f` in `f()`, `m` in `a.m()`, `d` in `d["k"]()` (the subscripted name).
Exit status: 0 all consistent, 1 a mismatch, 2 bad usage.
"""
import ast
import json
import os
import runpy
import shutil
import sys
import tempfile


def name_token(func):
    """(line, col0, name) of the name token of a callee expression, or None."""
    if isinstance(func, ast.Name):
        return func.lineno, func.col_offset, func.id
    if isinstance(func, ast.Attribute):
        return func.end_lineno, func.end_col_offset - len(func.attr), func.attr
    if isinstance(func, ast.Subscript):
        return name_token(func.value)
    return None


def py_files(case):
    out = []
    for d, dirs, files in os.walk(case):
        dirs[:] = sorted(x for x in dirs if x != "__pycache__")
        for f in sorted(files):
            if f.endswith(".py"):
                out.append(os.path.relpath(os.path.join(d, f), case))
    return out


class Static:
    """Call sites, spans and declaration lines read from the case's source."""

    def __init__(self, case):
        self.sites = {}      # (file, line, col1, name) -> kind
        self.by_span = {}    # (file, span) -> [site keys]
        self.def_line = {}   # (file, code first line, code name) -> name line
        self.class_defs = set()   # (file, first line, name) of class statements
        self.class_name_lines = set()  # (file, name line) of classes
        self.problems = []
        for rel in py_files(case):
            with open(os.path.join(case, rel), "rb") as fh:
                tree = ast.parse(fh.read(), rel)
            for node in ast.walk(tree):
                if isinstance(node, ast.Call):
                    tok = name_token(node.func)
                    if tok is None:
                        self.problems.append(f"{rel}:{node.lineno}: call without a name token")
                        continue
                    key = (rel, tok[0], tok[1] + 1, tok[2])
                    self.sites[key] = "call"
                    span = (node.lineno, node.end_lineno, node.col_offset, node.end_col_offset)
                    self.by_span.setdefault((rel, span), []).append(key)
                    if isinstance(node.func, ast.Attribute) and tok[0] != node.lineno:
                        # a method call on a later line than its receiver: CPython
                        # locates it from the method name to the call's end
                        span = (tok[0], node.end_lineno, tok[1], node.end_col_offset)
                        self.by_span.setdefault((rel, span), []).append(key)
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    first = min([node.lineno] + [d.lineno for d in node.decorator_list])
                    self.def_line[(rel, first, node.name)] = node.lineno
                    if isinstance(node, ast.ClassDef):
                        self.class_defs.add((rel, first, node.name))
                        self.class_name_lines.add((rel, node.lineno))
                    for dec in node.decorator_list:
                        if isinstance(dec, ast.Call):
                            continue  # the factory call is an ast.Call, seen above
                        tok = name_token(dec)
                        key = (rel, tok[0], tok[1] + 1, tok[2])
                        self.sites[key] = "decorator"
                        span = (dec.lineno, dec.end_lineno, dec.col_offset, dec.end_col_offset)
                        self.by_span.setdefault((rel, span), []).append(key)
                if isinstance(node, ast.Lambda):
                    self.def_line[(rel, node.lineno, "<lambda>")] = node.lineno
                if isinstance(node, (ast.Import, ast.ImportFrom)):
                    span = (node.lineno, node.end_lineno, node.col_offset, node.end_col_offset)
                    self.by_span.setdefault((rel, span), []).append(("import",))
                if isinstance(node, (ast.For, ast.AsyncFor)):
                    span = (node.lineno, node.end_lineno, node.col_offset, node.end_col_offset)
                    it = node.iter
                    self.by_span.setdefault((rel, span), []).append(
                        ("for", rel, it.lineno, it.col_offset + 1))


def trace(case, static):
    """Run main.py in a temporary copy; return {site key: set(target)} observed."""
    tmp = tempfile.mkdtemp(prefix="proof-py-")
    copy = os.path.join(tmp, "case")
    shutil.copytree(case, copy, ignore=shutil.ignore_patterns("__pycache__", "expected.*"))
    copy = os.path.realpath(copy)
    observed = {}
    unmatched = []

    def rel_of(code):
        if not os.path.isabs(code.co_filename):
            return None  # <frozen posixpath>, <string>: never a file of the case
        path = os.path.realpath(code.co_filename)
        if path.startswith(copy + os.sep):
            return os.path.relpath(path, copy)
        return None

    def record(caller, event, callee_target, callee_name):
        rel = rel_of(caller.f_code)
        if rel is None:
            return
        positions = list(caller.f_code.co_positions())
        pos = positions[caller.f_lasti // 2]
        span = (pos[0], pos[1], pos[2], pos[3])
        keys = static.by_span.get((rel, span))
        if not keys:
            unmatched.append((rel, span, callee_name))
            return
        for key in keys:
            if key[0] == "import":
                continue  # the import machinery, not a written call
            if key[0] == "for":
                _, frel, line, col = key
                if callee_name in ("__iter__", "__next__"):
                    observed.setdefault((frel, line, col, callee_name), set()).add(callee_target)
                continue
            observed.setdefault(key, set()).add(callee_target)

    in_c = {}  # id(frame) -> how many C calls that frame is inside

    def profile(frame, event, arg):
        if event in ("c_return", "c_exception"):
            in_c[id(frame)] = in_c.get(id(frame), 1) - 1
            return
        if event == "call":
            code = frame.f_code
            caller = frame.f_back
            if caller is None or in_c.get(id(caller), 0) > 0:
                return  # called back by a C function (sorted's key, print's __str__): no written call
            crel = rel_of(code)
            if crel is not None:
                if code.co_name == "<module>" or \
                        (crel, code.co_firstlineno, code.co_name) in static.class_defs:
                    return  # a module body (import) or a class body (class statement)
                line = static.def_line.get((crel, code.co_firstlineno, code.co_name), code.co_firstlineno)
                target = ("in_tree", crel, line)
            else:
                target = ("outside", f"{frame.f_globals.get('__name__', '?')}.{code.co_qualname}")
            record(caller, event, target, code.co_name)
        elif event == "c_call":
            in_c[id(frame)] = in_c.get(id(frame), 0) + 1
            if getattr(arg, "__name__", None) == "__build_class__":
                return  # a class statement, not a written call
            owner = getattr(arg, "__self__", None)
            name = getattr(arg, "__name__", "?")
            if isinstance(owner, type(os)):
                symbol = name if owner.__name__ == "builtins" else f"{owner.__name__}.{name}"
            elif owner is not None:
                symbol = getattr(arg, "__qualname__", name)
            else:
                mod = getattr(arg, "__module__", None)
                symbol = name if mod in (None, "builtins") else f"{mod}.{name}"
            target = ("outside", symbol)
            record(frame, event, target, getattr(arg, "__name__", "?"))

    import io
    out = io.StringIO()
    old = (os.getcwd(), sys.path[:], sys.stdout, dict(sys.modules))
    os.chdir(copy)
    sys.path.insert(0, copy)
    sys.stdout = out
    try:
        sys.setprofile(profile)
        try:
            runpy.run_path(os.path.join(copy, "main.py"), run_name="__main__")
        finally:
            sys.setprofile(None)
    finally:
        os.chdir(old[0])
        sys.path[:] = old[1]
        sys.stdout = old[2]
        for m in list(sys.modules):
            if m not in old[3]:
                del sys.modules[m]
        shutil.rmtree(tmp, ignore_errors=True)
    return observed, unmatched, out.getvalue()


def load_expected(case):
    with open(os.path.join(case, "expected.json")) as fh:
        return json.load(fh)


def check(case, draft=False):
    static = Static(case)
    observed, unmatched, stdout = trace(case, static)
    problems = list(static.problems)
    if draft:
        sites = []
        keys = set(static.sites) | set(observed)
        for key in sorted(keys, key=lambda k: (k[0] != "main.py", k[0], k[1], k[2])):
            targets = []
            for t in sorted(observed.get(key, ()), key=str):
                targets.append({"kind": "in_tree", "file": t[1], "line": t[2]} if t[0] == "in_tree"
                               else {"kind": "outside", "symbol": t[1]})
            sites.append({"file": key[0], "line": key[1], "column": key[2], "name": key[3],
                          "targets": targets})
        print(json.dumps(sites, indent=1))
        return 0
    exp = load_expected(case)
    written = {}
    for s in exp["sites"]:
        key = (s["file"], s["line"], s["column"], s["name"])
        if key in written:
            problems.append(f"duplicate site {key}")
        written[key] = s
    for key in static.sites:
        if key not in written:
            problems.append(f"call written in the source is not a site: {key}")
    for key, s in written.items():
        if key not in static.sites and key[3] not in ("__iter__", "__next__"):
            problems.append(f"site is not a call in the source: {key}")
        if key[3] in ("__iter__", "__next__") and key not in observed:
            problems.append(f"iteration site never observed at runtime: {key}")
    for key, seen in observed.items():
        s = written.get(key)
        if s is None:
            continue
        if s.get("expect") == "abstain":
            continue
        in_tree = {(t["file"], t["line"]) for t in s["targets"] if t["kind"] == "in_tree"}
        outside = any(t["kind"] == "outside" for t in s["targets"])
        for t in seen:
            if t[0] == "in_tree" and (t[1], t[2]) not in in_tree:
                problems.append(f"site {key}: runtime reached {t[1]}:{t[2]}, not a target {sorted(in_tree)}")
            if t[0] == "outside" and not outside:
                problems.append(f"site {key}: runtime reached outside {t[1]}, targets are in-tree")
    for key, s in written.items():
        if s.get("expect") in (None, "either") and key not in observed:
            in_tree = [t for t in s["targets"] if t["kind"] == "in_tree"]
            # constructing a class without __init__ is silent in the trace
            if in_tree and not all((t["file"], t["line"]) in static.class_name_lines for t in in_tree):
                problems.append(f"site {key}: never reached at runtime")
    for u in unmatched:
        problems.append(f"runtime call at {u[0]} span {u[1]} ({u[2]}) matches no written call")
    with open(os.path.join(case, "expected.stdout")) as fh:
        if fh.read() != stdout:
            problems.append("stdout under the trace differs from expected.stdout")
    for p in problems:
        print(f"{case}: {p}")
    return 1 if problems else 0


def main(argv):
    draft = "--draft" in argv
    cases = [a for a in argv if a != "--draft"]
    if not cases:
        print(__doc__, file=sys.stderr)
        return 2
    rc = 0
    for case in cases:
        rc |= check(case.rstrip("/"), draft)
    if not draft:
        print(f"{len(cases)} checked, {'all consistent' if rc == 0 else 'mismatches above'}")
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
