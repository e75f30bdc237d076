#!/usr/bin/env python3
"""Cross-check a Java proof's expected.json against what javac binds.

usage: java_check.py [--draft] CASE_DIR...

JavacSites.java (beside this file) is compiled once into a temporary directory and
run on each case: it lists every call and method reference the source writes, with
the declaration javac binds. Every javac site must be an expected site (same file,
line, column, name) whose targets contain javac's binding (in-tree: the same name
line; library: an outside target); every expected site must be a javac site. The
same holds for references. Sites with `expect: abstain` are not checked against
javac's binding. With --draft, prints javac's sites as a draft instead.
Exit status: 0 all consistent, 1 a mismatch, 2 bad usage.
"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CLASSES = os.path.join(tempfile.gettempdir(), "proofs-tools-javac-sites")


def build():
    src = os.path.join(HERE, "JavacSites.java")
    cls = os.path.join(CLASSES, "JavacSites.class")
    if not os.path.exists(cls) or os.path.getmtime(cls) < os.path.getmtime(src):
        os.makedirs(CLASSES, exist_ok=True)
        subprocess.run(["javac", "-d", CLASSES, src], check=True)


def javac_sites(case):
    out = subprocess.run(["java", "-cp", CLASSES, "JavacSites", case], check=True,
                         capture_output=True, text=True).stdout
    return [json.loads(l) for l in out.splitlines() if l.strip()]


def check(case, draft):
    found = javac_sites(case)
    if draft:
        print(json.dumps(found, indent=1))
        return 0
    with open(os.path.join(case, "expected.json")) as fh:
        exp = json.load(fh)
    problems = []
    for kind, listed in (("site", exp["sites"]), ("ref", exp.get("references", []))):
        written = {(s["file"], s["line"], s["column"], s["name"]): s for s in listed}
        if len(written) != len(listed):
            problems.append(f"duplicate {kind}s")
        seen = set()
        for j in (f for f in found if f["kind"] == kind):
            key = (j["file"], j["line"], j["column"], j["name"])
            seen.add(key)
            s = written.get(key)
            if s is None:
                problems.append(f"javac {kind} missing from expected.json: {key} -> {j['target']}")
                continue
            if s.get("expect") == "abstain":
                continue
            t = j["target"]
            if t is None:
                problems.append(f"{kind} {key}: javac binds nothing")
            elif t["kind"] == "in_tree":
                ok = any(x["kind"] == "in_tree" and x["file"] == t["file"] and x["line"] == t["line"]
                         for x in s["targets"])
                if not ok:
                    problems.append(f"{kind} {key}: javac binds {t['file']}:{t['line']}, not a target")
            elif not any(x["kind"] == "outside" for x in s["targets"]):
                problems.append(f"{kind} {key}: javac binds outside {t['symbol']}, targets are in-tree")
        for key in written:
            if key not in seen:
                problems.append(f"expected {kind} is not a call javac sees: {key}")
    for p in problems:
        print(f"{case}: {p}")
    return 1 if problems else 0


def main(argv):
    draft = "--draft" in argv
    cases = [a for a in argv if a != "--draft"]
    if not cases:
        print(__doc__, file=sys.stderr)
        return 2
    build()
    rc = 0
    for case in cases:
        rc |= check(os.path.abspath(case.rstrip("/")), draft)
    if not draft:
        print(f"{len(cases)} checked, {'all consistent' if rc == 0 else 'mismatches above'}")
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
