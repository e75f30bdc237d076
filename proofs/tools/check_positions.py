#!/usr/bin/env python3
"""Check the positions and the form of every proof's expected.json.

usage: check_positions.py [-v] [PROOFS_DIR_OR_CASE...]   (default: the proofs/ beside tools/)

For every case (a directory holding expected.json):
  - the form: schema, corpus `proof:<language>/<case>`, the shape id matching the
    case's `Sxx-` prefix, at least one primary site, `expect` in {abstain, either},
    abstaining sites without targets, targets of kind in_tree/outside;
  - every site and reference: the `name` starts at the 1-based byte `column` of
    `line` in `file`, as a whole token (Python `__iter__`/`__next__` sites of a
    `for` loop: the column is the first token of the iterable);
  - every in_tree target: the file exists and `line` is the line of a declaration's
    name (Python `def`/`class`/`lambda`; Java a type, method or constructor
    declaration; Ada a subprogram's `procedure`/`function`/`entry` line), and that
    name is the site's name (Ada: without case), or for a construction the
    class's `__init__`/constructor, or for a lambda the `lambda` keyword. A target
    declared under another name (an alias, a table slot, a bound method) is
    accepted when the line is a declaration; py_trace.py / java_check.py check
    that it is the one really reached.
Prints every mismatch and a summary; exit 0 when there is none, 1 otherwise.
"""
import json
import os
import re
import sys

IDENT = re.compile(rb"[A-Za-z0-9_$]")
PY_DECL = re.compile(r"^\s*(?:async\s+)?(?:def|class)\s+([A-Za-z_]\w*)")
JAVA_TYPE = re.compile(r"\b(?:class|interface|enum|record)\s+([A-Za-z_$][\w$]*)")
JAVA_METHOD = re.compile(
    r"^\s*(?:@\w+\s+)*(?:(?:public|private|protected|static|final|abstract|default|synchronized|native)\s+)*"
    r"(?:<[^>]*>\s*)?(?P<ret>[\w$.]+(?:<[^()]*>)?(?:\[\])*\s+)?(?P<name>[A-Za-z_$][\w$]*)\s*\([^)]*\)"
    r"\s*(?:throws\s+[\w$., ]+)?\s*(?P<end>[{;])")
# Kotlin: `fun [<T>] [Recv.]name(`, a class/interface/object (a companion without a
# name is `Companion`), a secondary `constructor(`.
KT_FUN = re.compile(r"\bfun\s+(?:<[^>]*>\s*)?(?:[\w.<>?, ]+\.)?`?([A-Za-z_]\w*)`?\s*[(<]")
KT_TYPE = re.compile(r"\b(?:class|interface|object)\s+([A-Za-z_]\w*)")
KT_COMPANION = re.compile(r"\bcompanion\s+object\b(?!\s+[A-Za-z_])")
KT_CONSTRUCTOR = re.compile(r"\bconstructor\s*\(")
GO_FUNC = re.compile(r"^func\s+(?:\([^)]*\)\s*)?([A-Za-z_]\w*)\s*[\[(]")
# C/C++: a function or member definition/declaration `T name(` / `T Class::name(`,
# a constructor `Name(` / `Class::Name(`, a class/struct/union.
C_FUNC = re.compile(r"(?:^|[\s*&])(?:[A-Za-z_]\w*::)*(~?[A-Za-z_]\w*|operator\s*[^\s(]+)\s*\(")
C_TYPE = re.compile(r"\b(?:class|struct|union)\s+([A-Za-z_]\w*)")
C_NOT_DECL = {"return", "if", "while", "for", "switch", "sizeof", "printf", "static_cast"}
GO_TYPE = re.compile(r"^\s*(?:type\s+)?([A-Za-z_]\w*)\s+(?:struct|interface)\b")
GO_METHOD_SPEC = re.compile(r"^\s+([A-Za-z_]\w*)\s*\([^)]*\)")
RUST_FN = re.compile(r'^\s*(?:pub(?:\([^)]*\))?\s+)?(?:(?:const|async|unsafe|default)\s+|extern\s+"[^"]*"\s+)*fn\s+([A-Za-z_]\w*)')
RUST_CLOSURE = re.compile(r"=\s*(?:move\s+)?\|[^|]*\|")
TS_DECL = [
    re.compile(r"^\s*(?:export\s+)?(?:default\s+)?(?:async\s+)?function\*?\s+([A-Za-z_$][\w$]*)"),
    re.compile(r"^\s*(?:export\s+)?(?:default\s+)?(?:abstract\s+)?(?:class|interface)\s+([A-Za-z_$][\w$]*)"),
    re.compile(r"^\s*(?:export\s+)?(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=]*)?="),
    re.compile(r"^\s*(?:(?:public|private|protected|static|async|abstract|readonly|override)\s+)*(#?[A-Za-z_$][\w$]*)\s*(?:<[^>]*>)?\("),
    re.compile(r"^\s*([A-Za-z_$][\w$]*)\s*:\s*(?:async\s+)?(?:function\b|\()"),
    re.compile(r"^\s*(?:module\.)?exports\.([A-Za-z_$][\w$]*)\s*="),
    re.compile(r"^\s*[A-Za-z_$][\w$]*(?:\.prototype)?\.([A-Za-z_$][\w$]*)\s*=\s*(?:async\s+)?(?:function\b|\()"),
]
# Ada (names compare without case): a subprogram's declaration, body, renaming or
# instance (`procedure P`, `function F`, `overriding function F`), an entry.
ADA_DECL = re.compile(r"^\s*(?:overriding\s+|not\s+overriding\s+)?(?:procedure|function|entry)\s+([A-Za-z]\w*)", re.I)
# a struct/enum/union: the target of the methods a `#[derive]` on it writes (D20)
RUST_TYPE = re.compile(r"^\s*(?:pub(?:\([^)]*\))?\s+)?(?:struct|enum|union)\s+([A-Za-z_]\w*)")
JAVA_NOT_DECL = {"return", "new", "if", "while", "for", "switch", "catch", "throw", "else", "super", "this"}
# C#: a type (class, struct, interface, enum, record, delegate), and a method,
# constructor or local function `[modifiers] [Type] Name[<T>](` (an explicit
# interface implementation `Type IFoo.Name(` declares `Name`).
CS_TYPE = re.compile(r"\b(?:class|struct|interface|enum|record|delegate\s+[\w.<>\[\],?]+)\s+([A-Za-z_]\w*)")
CS_METHOD = re.compile(
    r"^\s*(?:\[[^\]]*\]\s*)*(?:(?:public|private|protected|internal|static|virtual|override|abstract|sealed|new|extern|partial|async|unsafe|readonly)\s+)*"
    r"(?P<ret>[\w.]+(?:<[^()]*>)?(?:\[\])*\??\s+)?(?:[A-Za-z_]\w*\.)?(?P<name>[A-Za-z_]\w*)\s*(?:<[^()]*>)?\s*\(")
CS_NOT_DECL = {"return", "new", "if", "while", "for", "foreach", "switch", "catch", "throw", "else", "base", "this", "using", "lock", "nameof", "typeof"}


def declared_names(lang, text):
    """The names a source line declares (empty when it declares none)."""
    names = set()
    if lang == "python":
        m = PY_DECL.match(text)
        if m:
            names.add(m.group(1))
        if re.search(r"\blambda\b", text):
            names.add("lambda")
        return names
    if lang == "rust":
        # a fn (free, method, trait method with or without a body), a closure bound by `let`
        m = RUST_FN.match(text)
        if m:
            names.add(m.group(1))
        if RUST_CLOSURE.search(text):
            names.add("lambda")
        m = RUST_TYPE.match(text)
        if m:
            names.add(m.group(1))
        return names
    if lang == "typescript":
        # a function, class, interface, const/let/var, method, object-literal or
        # exports property, a function written onto an object or a prototype
        for pattern in TS_DECL:
            m = pattern.match(text)
            if m and m.group(1) not in JAVA_NOT_DECL:
                names.add(m.group(1))
        return names
    if lang in ("c", "cpp"):
        names.update(C_TYPE.findall(text))
        m = C_FUNC.search(text)
        if m and m.group(1) not in C_NOT_DECL and not text.lstrip().startswith("return"):
            names.add(re.sub(r"\s+", "", m.group(1)))
        return names
    if lang == "kotlin":
        m = KT_FUN.search(text)
        if m:
            names.add(m.group(1))
        names.update(KT_TYPE.findall(text))
        if KT_COMPANION.search(text):
            names.add("Companion")
        if KT_CONSTRUCTOR.search(text):
            names.add("constructor")
        if re.search(r"\{\s*(?:[\w, ]+->)?", text) and "{" in text and "fun " not in text and "class " not in text:
            names.add("lambda")
        return names
    if lang == "csharp":
        names.update(CS_TYPE.findall(text))
        m = CS_METHOD.match(text)
        ret = (m.group("ret") or "").strip() if m else ""
        if m and m.group("name") not in CS_NOT_DECL and ret not in CS_NOT_DECL \
                and "=" not in text.split("(")[0] and (ret or not text.rstrip().endswith(";")):
            names.add(m.group("name"))
        return names
    if lang == "ada":
        m = ADA_DECL.match(text)
        if m:
            names.add(m.group(1))
        return names
    if lang == "go":
        # a func or method declaration, a struct/interface type, an interface's method spec
        for pattern in (GO_FUNC, GO_TYPE, GO_METHOD_SPEC):
            m = pattern.match(text)
            if m:
                names.add(m.group(1))
        return names
    names.update(JAVA_TYPE.findall(text))
    m = JAVA_METHOD.match(text)
    if m and m.group("name") not in JAVA_NOT_DECL:
        ret = (m.group("ret") or "").strip()
        if ret and ret not in JAVA_NOT_DECL:
            names.add(m.group("name"))
        elif not ret and m.group("end") == "{":  # a constructor
            names.add(m.group("name"))
    return names


class Case:
    def __init__(self, path, lang):
        self.path, self.lang = path, lang
        self.lines = {}

    def line(self, rel, n):
        if rel not in self.lines:
            p = os.path.join(self.path, rel)
            if not os.path.isfile(p):
                return None
            with open(p, "rb") as fh:
                self.lines[rel] = fh.read().split(b"\n")
        ls = self.lines[rel]
        return ls[n - 1] if 1 <= n <= len(ls) else None


def check_case(path):
    lang = os.path.basename(os.path.dirname(path))
    case = os.path.basename(path)
    c = Case(path, lang)
    problems = []
    try:
        with open(os.path.join(path, "expected.json")) as fh:
            exp = json.load(fh)
    except (OSError, ValueError) as e:
        return [f"expected.json unreadable: {e}"], 0, []
    if exp.get("schema") != "callgraph-truth/1":
        problems.append("schema is not callgraph-truth/1")
    if exp.get("corpus") != f"proof:{lang}/{case}":
        problems.append(f"corpus is {exp.get('corpus')!r}, not 'proof:{lang}/{case}'")
    if exp.get("oracle") != {"name": "proof", "version": "1", "adapter": "1", "column": "name"}:
        problems.append("oracle is not the proof oracle")
    if exp.get("shape") != case.split("-")[0]:
        problems.append(f"shape {exp.get('shape')!r} does not match the case name")
    if not os.path.isfile(os.path.join(path, "expected.stdout")):
        problems.append("expected.stdout missing")
    entry = {"python": "main.py", "go": "main.go", "rust": "main.rs", "c": "main.c", "cpp": "main.cpp",
             "kotlin": "Main.kt", "csharp": "Main.cs", "ada": "main.adb"}.get(lang, "Main.java")
    if lang == "typescript":
        entry = "main.ts" if os.path.isfile(os.path.join(path, "main.ts")) else "main.js"
    if not os.path.isfile(os.path.join(path, entry)):
        problems.append(f"{entry} missing")
    sites = exp.get("sites", [])
    if not any(s.get("primary") for s in sites + exp.get("references", [])):
        problems.append("no primary site")
    n = 0
    indirect = []
    for kind, listed in (("site", sites), ("reference", exp.get("references", []))):
        for s in listed:
            n += 1
            where = f"{kind} {s.get('file')}:{s.get('line')}:{s.get('column')} {s.get('name')}"
            extra = set(s) - {"file", "line", "column", "name", "targets", "expect", "primary", "caller"}
            if extra:
                problems.append(f"{where}: unknown fields {sorted(extra)}")
            if s.get("expect") not in (None, "abstain", "either"):
                problems.append(f"{where}: expect {s.get('expect')!r}")
            if "primary" in s and s["primary"] is not True:
                problems.append(f"{where}: primary must be true or absent")
            if s.get("expect") == "abstain" and s.get("targets"):
                problems.append(f"{where}: an abstaining site lists targets")
            if s.get("expect") != "abstain" and not s.get("targets"):
                problems.append(f"{where}: no targets")
            text = c.line(s["file"], s["line"])
            if text is None:
                problems.append(f"{where}: no such file or line")
                continue
            name = s["name"].encode()
            col = s["column"] - 1
            if lang == "python" and s["name"] in ("__iter__", "__next__"):
                # a for loop's implicit protocol calls sit at the iterable's first token
                if not re.search(rb"\bfor\b.*\bin\s+$", text[:col]) or not IDENT.match(text[col:col + 1]):
                    problems.append(f"{where}: the column is not the start of a for loop's iterable")
            elif lang == "cpp" and s["name"].startswith("operator") and len(name) > 8:
                # an operator used as syntax sits on its symbol
                if text[col:col + len(name) - 8] != name[8:]:
                    problems.append(f"{where}: the operator is not at that column")
            elif lang == "cpp" and re.search(rb"(?<![A-Za-z0-9_])" + re.escape(name) + rb"[\s<>:,\w]*?\s[*&]?$", text[:col]) \
                    and IDENT.match(text[col:col + 1]):
                # a construction `T x(…)` / `T x;` sits on the variable (clang's debug location)
                pass
            elif lang == "ada" and text[col:col + len(name)].lower() == name.lower() \
                    and not (col > 0 and IDENT.match(text[col - 1:col])) \
                    and not IDENT.match(text[col + len(name):col + len(name) + 1]):
                pass  # Ada names compare without case
            elif text[col:col + len(name)] != name or (col > 0 and IDENT.match(text[col - 1:col])) \
                    or IDENT.match(text[col + len(name):col + len(name) + 1]):
                at = text.find(name)
                problems.append(f"{where}: the name is not at that column"
                                + (f" (first found at column {at + 1})" if at >= 0 else " (not on the line)"))
            for t in s.get("targets", []):
                if t.get("kind") == "outside":
                    if not t.get("symbol"):
                        problems.append(f"{where}: outside target without a symbol")
                    continue
                if t.get("kind") != "in_tree":
                    problems.append(f"{where}: target kind {t.get('kind')!r}")
                    continue
                tl = c.line(t["file"], t["line"])
                if tl is None:
                    problems.append(f"{where}: target {t['file']}:{t['line']} does not exist")
                    continue
                names = declared_names(lang, tl.decode())
                if not names:
                    problems.append(f"{where}: target {t['file']}:{t['line']} is not a declaration: {tl.decode().strip()!r}")
                elif lang == "ada" and s["name"].lower() in {n.lower() for n in names}:
                    pass
                elif not names & {s["name"], "__init__", "lambda"}:
                    indirect.append(f"{where} -> {t['file']}:{t['line']} declares {sorted(names)}")
    return problems, n, indirect


def cases_under(paths):
    out = []
    for p in paths:
        if os.path.isfile(os.path.join(p, "expected.json")):
            out.append(os.path.abspath(p))
            continue
        for d, dirs, files in os.walk(p):
            dirs.sort()
            if "expected.json" in files:
                out.append(os.path.abspath(d))
    return sorted(out)


def main(argv):
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    verbose = "-v" in argv
    argv = [a for a in argv if a != "-v"]
    cases = cases_under(argv or [os.path.join(here, lang) for lang in ("python", "java", "go", "rust", "c", "cpp", "typescript", "kotlin", "csharp", "ada")
                                 if os.path.isdir(os.path.join(here, lang))])
    bad = 0
    total = 0
    indirect_total = 0
    for case in cases:
        problems, n, indirect = check_case(case)
        total += n
        indirect_total += len(indirect)
        for p in problems:
            print(f"{os.path.relpath(case)}: {p}")
        if verbose:
            for i in indirect:
                print(f"{os.path.relpath(case)}: (by value) {i}")
        bad += bool(problems)
    print(f"{len(cases)} cases, {total} sites and references "
          f"({indirect_total} targets declared under another name; -v lists them), {bad} with mismatches")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
