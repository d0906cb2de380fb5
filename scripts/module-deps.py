#!/usr/bin/env python3
"""Prints the dependencies between the top-level modules of a crate and
fails if two of them depend on each other (directly or through others).

    python3 scripts/module-deps.py crates/escaque/src [crates/escaque-torneo/src ...]

A module is a file `src/NAME.rs` or a directory `src/NAME/`. An edge
`a -> b` is a path `crate::b` (or `crate::Name` where the crate root
re-exports `Name` from `b`) written in the code of `a` (comments and doc
comments are left out, so a doc link is not a dependency), or `super::b` in
the top level of `a` (`src/a.rs` or `src/a/mod.rs`). Only the crate's own
modules count. Exit status: 0 without circles, 1 with at least one.
"""
import os
import re
import sys

PATH = re.compile(r"\b(crate|super)::(\{[^}]*\}|[A-Za-z_][A-Za-z0-9_]*)", re.S)


def code_of(text):
    """The text without comments (line comments, doc comments, block
    comments) and without the contents of string literals."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    # Character literals holding a quote, raw strings, then ordinary strings.
    text = text.replace("'\"'", "' '").replace("'\\\"'", "' '")
    text = re.sub(r'r(#*)".*?"\1', '""', text, flags=re.S)
    text = re.sub(r'"(?:\\.|[^"\\])*"', '""', text, flags=re.S)
    out = []
    for line in text.splitlines():
        # Strings containing "//" are rare in `use` lines; cut at the first
        # "//" that is not inside a string literal.
        in_str = False
        cut = len(line)
        i = 0
        while i < len(line) - 1:
            ch = line[i]
            if ch == '"' and (i == 0 or line[i - 1] != "\\"):
                in_str = not in_str
            elif not in_str and line[i : i + 2] == "//":
                cut = i
                break
            i += 1
        out.append(line[:cut])
    return "\n".join(out)


def modules(src):
    mods = {}
    for entry in sorted(os.listdir(src)):
        path = os.path.join(src, entry)
        if os.path.isdir(path):
            files = []
            for root, _, names in os.walk(path):
                files += [os.path.join(root, n) for n in names if n.endswith(".rs")]
            mods[entry] = sorted(files)
        elif entry.endswith(".rs") and entry not in ("lib.rs", "main.rs"):
            mods[entry[:-3]] = [path]
    return mods


def reexports(src, mods):
    """Names the crate root re-exports (`pub use position::Position;`), each
    mapped to the module that defines it, so that `crate::Position` counts as
    a dependency on `position`."""
    names = {}
    for root in ("lib.rs", "main.rs"):
        path = os.path.join(src, root)
        if not os.path.exists(path):
            continue
        text = code_of(open(path, encoding="utf-8").read())
        for m, body in re.findall(r"pub\s+use\s+([A-Za-z_][A-Za-z0-9_]*)::(\{[^}]*\}|[A-Za-z_][A-Za-z0-9_]*)\s*;", text, re.S):
            if m not in mods:
                continue
            for n in re.split(r"[,{}\s]+", body):
                if n and n != "self":
                    names[n] = m
    return names


def edges(src):
    mods = modules(src)
    names = reexports(src, mods)
    deps = {m: set() for m in mods}
    for m, files in mods.items():
        for f in files:
            top = f == os.path.join(src, m + ".rs") or f == os.path.join(src, m, "mod.rs")
            text = code_of(open(f, encoding="utf-8").read())
            for kind, target in PATH.findall(text):
                if kind == "super" and not top:
                    continue
                if target.startswith("{"):
                    found = [n.strip().split("::")[0] for n in target[1:-1].split(",")]
                else:
                    found = [target]
                for n in found:
                    n = n.strip()
                    n = n if n in mods else names.get(n, n)
                    if n in mods and n != m:
                        deps[m].add(n)
    return deps


def cycles(deps):
    """Strongly connected components with more than one module (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(deps[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(deps):
        if v not in index:
            visit(v)
    return out


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    bad = False
    for src in argv[1:]:
        deps = edges(src)
        print(f"{src}:")
        for m in sorted(deps):
            print(f"  {m} -> {', '.join(sorted(deps[m])) or '(none)'}")
        for comp in cycles(deps):
            bad = True
            print(f"  CIRCLE: {' <-> '.join(comp)}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
