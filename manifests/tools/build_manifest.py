#!/usr/bin/env python3
"""Writes manifests/<corpus>.json from instrumented runs (docs/PROTOCOL.md §13).

Each run is a program built with `-finstrument-functions` and linked with shim.c,
which records every distinct (call site, callee) pair it executes. The pairs are
resolved with llvm-symbolizer (the call's line and column, the callee's name and the
line of its name, DW_AT_decl_line) and kept where the oracle's truth lists an
unjudged site at that line. Only in-tree callees are listed; a site the runs reached
only through callees outside the tree (a driver's own callbacks) is left out.

usage: build_manifest.py SPEC.json TRUTH.json SRC_ROOT OUT.json
SPEC: {"corpus": .., "runs": [{"calls": .., "rundir": .., "command": .., "input": ..}],
       "reasons": [[file, line or null, reason], ..], "skip": [[file, line, why], ..]}
"""
import collections, json, os, subprocess, sys

def symbolize(obj, addrs):
    out = subprocess.run(["llvm-symbolizer", "--output-style=JSON", "--obj=" + obj]
                         + ["0x%x" % a for a in sorted(addrs)],
                         capture_output=True, text=True, check=True).stdout
    data = json.loads(out)
    nothing = [{"FileName": "", "Line": 0, "Column": 0, "FunctionName": "", "StartLine": 0}]
    # An object without debug information (libc, libevent) has no symbol: not the tree.
    return {int(d["Address"], 16): d.get("Symbol") or nothing
            for d in (data if isinstance(data, list) else [data])}

def observed_pairs(run, root):
    """(site file, line, column) -> {(callee name, file, line)} of one run, in-tree only."""
    rows = [l.split() for l in open(run["calls"])]
    by_obj = collections.defaultdict(set)
    for so, s, fo, f in rows:
        by_obj[so].add(int(s, 16) - 1)  # the return address's call instruction
        by_obj[fo].add(int(f, 16))
    sym = {o: symbolize(os.path.join(run["rundir"], o), a) for o, a in by_obj.items()}
    rel = lambda p: os.path.relpath(os.path.realpath(p), root) if p and os.path.realpath(p).startswith(root + "/") else None
    seen = collections.defaultdict(set)
    for so, s, fo, f in rows:
        site = sym[so][int(s, 16) - 1][0]  # innermost frame: the call's own position
        callee = sym[fo][int(f, 16)][0]
        site_file, callee_file = rel(site["FileName"]), rel(callee["FileName"])
        if site_file and callee_file:
            seen[(site_file, site["Line"])].add((callee["FunctionName"], callee_file, callee["StartLine"], site["Column"]))
    return seen

def args_paren_column(text, column):
    """The 1-based column of the `(` opening the argument list of the call whose
    truth column (clang's: the name, or the `(` of `(*f)`) is `column`: gcc's DWARF
    marks a call there."""
    i = column - 1
    if i >= len(text):
        return None
    if text[i] == "(":
        depth = 0
        for j in range(i, len(text)):
            depth += {"(": 1, ")": -1}.get(text[j], 0)
            if depth == 0:
                break
        else:
            return None
        i = j + 1
    else:
        while i < len(text) and (text[i].isalnum() or text[i] == "_"):
            i += 1
    while i < len(text) and text[i] == " ":
        i += 1
    return i + 1 if i < len(text) and text[i] == "(" else None

def at_site(callees, site, root, line_sites):
    """The callees a run saw at this truth site: the run records every call of the
    line, so only those at the site's own column (clang's, or gcc's: the argument
    list's parenthesis, or the `*` of `(*f)(…)`) are the site's; destructors are calls no source text writes, and
    a callee a judged site of the line names is that direct call's (gcc gives the
    argument calls of `(*f)(a.data())` the indirect call's column)."""
    with open(os.path.join(root, site["file"]), errors="replace") as f:
        text = f.read().split("\n")[site["line"] - 1]
    columns = {site["column"], args_paren_column(text, site["column"])}
    if text[site["column"] - 1:site["column"] + 1] == "(*":
        columns.add(site["column"] + 1)  # gcc marks `(*f)(…)` at its `*`
    judged = {(t["file"], t["line"]) for other in line_sites if other.get("unjudged") is None
              for t in other.get("targets", []) if t["kind"] == "in_tree"}
    return {c for c in callees
            if c[3] in columns and "::~" not in c[0] and (c[1], c[2]) not in judged}

def name_token(text, column):
    """The engine's position of the call whose clang column is `column` (docs/PROTOCOL.md
    §17): `(call)` at the `(` of a parenthesised callee `(*f)(…)`; otherwise the last
    name of the member chain `r->fn->createString` before the argument list, at its
    own column. A macro call (`_EL_ADD_WRITE(ac)`) is its own name."""
    i = column - 1
    if text[i:i + 1] == "(":
        return column, "(call)"
    last, j = None, i
    while j < len(text):
        if text[j].isalnum() or text[j] == "_":
            start = j
            while j < len(text) and (text[j].isalnum() or text[j] == "_"):
                j += 1
            last = (start + 1, text[start:j])
        elif text.startswith("->", j):
            j += 2
        elif text[j] == ".":
            j += 1
        else:
            break
    if last is None or text[j:j + 1] != "(":
        return None
    return last

def short(name):
    """A symbol without its parameter lists: `ns::Version::Get::State::Match`."""
    out, depth = [], 0
    for ch in name.replace("(anonymous namespace)", "{anonymous}"):
        depth += ch == "("
        if depth == 0:
            out.append(ch)
        depth -= ch == ")"
    return "".join(out).replace(" const", "")

def main():
    spec_path, truth_path, root, out_path = sys.argv[1:5]
    spec = json.load(open(spec_path))
    root = os.path.realpath(root)
    truth = json.load(open(truth_path))
    runs = [(run, observed_pairs(run, root)) for run in spec["runs"]]
    skip = {(f, l) for f, l, _ in spec.get("skip", [])}
    reasons = {(f, l): r for f, l, r in spec["reasons"]}
    by_line = collections.defaultdict(list)
    for s in truth["sites"]:
        by_line[(s["file"], s["line"])].append(s)
    sites = []
    for s in truth["sites"]:
        key = (s["file"], s["line"])
        if not s.get("unjudged") or key in skip:
            continue
        shown = [(run, at_site(seen.get(key, set()), s, root, by_line[key]))
                 for run, seen in runs]
        shown = [(run, callees) for run, callees in shown if callees]
        if not shown:
            continue
        callees = sorted({(short(n), f, l) for _, cs in shown for (n, f, l, _) in cs}, key=lambda c: (c[1], c[2]))
        reason = reasons.get(key) or reasons.get((s["file"], None))
        if not reason:
            sys.exit(f"no reason for {key}")
        with open(os.path.join(root, s["file"]), errors="replace") as f:
            text = f.read().split("\n")[s["line"] - 1]
        override = spec.get("positions", {}).get(f"{s['file']}:{s['line']}")
        position = tuple(override) if override else name_token(text, s["column"])
        if position is None:
            print(f"skip {key}: no call name at column {s['column']}", file=sys.stderr)
            continue
        column, name = position
        where = f"{s['file']}:{s['line']}:{column}"
        sites.append({
            "file": s["file"], "line": s["line"], "column": column, "name": name,
            **({"caller": s["caller"]} if s.get("caller") else {}),
            "targets": [{"kind": "in_tree", "file": f, "line": l} for _, f, l in callees],
            "evidence": {
                "command": "; ".join(run["command"] for run, _ in shown),
                "input": "; ".join(run["input"] for run, _ in shown),
                "observed": f"{where} called " + ", ".join(f"{n} ({f}:{l})" for n, f, l in callees),
            },
            "reason": reason,
        })
    manifest = {
        "schema": "callgraph-truth/1", "corpus": spec["corpus"], "source": "manifest",
        "oracle": {"name": "manifest", "version": "1", "adapter": "review", "column": "name"},
        "sites": sites,
    }
    with open(out_path, "w") as f:
        json.dump(manifest, f, indent=1)
        f.write("\n")
    print(f"{len(sites)} sites", file=sys.stderr)

main()
