#!/usr/bin/env python3
"""Translate lichess opening names (chess-openings @ 51b8862) into Spanish.

Inputs (in this folder unless said):
  ../lichess/{a,b,c,d,e}.tsv  the lichess source files (eco, name, pgn)
  families.tsv         english family (text before ':') -> spanish
  glossary.tsv         english term -> spanish, with its kind (head, adj, post,
                       mod, name, phrase, with, piece)
  overrides.tsv        english full name -> spanish full name (wins over rules)
Output:
  ../openings.tsv      eco, name_en, name_es, pgn  (same rows, same order)

Python 3 standard library only.  Usage: python3 translate.py [--components]
"""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.dirname(HERE)
SRC = [os.path.join(DATA, "lichess", f + ".tsv") for f in "abcde"]


def read_tsv(path, header=True):
    rows = []
    with open(path, encoding="utf-8") as f:
        for i, line in enumerate(f):
            line = line.rstrip("\n")
            if (header and i == 0) or not line or line.startswith("#"):
                continue
            rows.append(line.split("\t"))
    return rows


FAMILIES = {r[0]: r[1] for r in read_tsv(os.path.join(HERE, "families.tsv"))}
OVERRIDES = {}
if os.path.exists(os.path.join(HERE, "overrides.tsv")):
    OVERRIDES = {r[0]: r[1] for r in read_tsv(os.path.join(HERE, "overrides.tsv"))}

HEAD, POST, ADJ, MOD, NAME, PHRASE, WITH, PIECE = ({} for _ in range(8))
for r in read_tsv(os.path.join(HERE, "glossary.tsv")):
    en, es, kind = r[0], r[1], r[2]
    if kind.startswith("head."):
        HEAD[en] = (es, kind.split(".")[1])
    elif kind == "post":
        POST[en] = es.split("/")
    elif kind == "adj":
        ADJ[en] = es.split("/")
    elif kind == "mod":
        MOD[en] = es
    elif kind == "name":
        NAME[en] = es
    elif kind == "phrase":
        PHRASE[en] = es
    elif kind == "with":
        WITH[en] = es
    elif kind == "piece":
        PIECE[en] = es

MOVE_RE = re.compile(r"^(\.\.)?([KQRBN]?[a-h]?[1-8]?x?[a-h][1-8](=[QRBN])?|O-O(-O)?)[+#]?$")


def is_move(tok):
    return bool(MOVE_RE.match(tok))


def move_es(tok):
    """SAN move with English piece letters -> Spanish letters (R D T A C)."""
    if tok and tok[0] in PIECE:
        tok = PIECE[tok[0]] + tok[1:]
    tok = re.sub(r"=([QRBN])", lambda m: "=" + PIECE[m.group(1)], tok)
    return tok


def moves_es(toks):
    out = []
    black = False
    for t in toks:
        if t == "..":
            black = True
            continue
        if t in WITH:
            out.append(WITH[t])
            continue
        m = move_es(t)
        if black:
            m = "..." + m
            black = False
        out.append(m)
    return " ".join(out)


def agree(forms, gender):
    if len(forms) == 1:
        return forms[0]
    word = forms[1] if gender.startswith("f") else forms[0]
    if gender.endswith("p"):
        word = " ".join(w + ("es" if w[-1] not in "aeiouáéó" else "s") for w in word.split(" ")) \
            if not word.startswith("de ") else word
    return word


def component(c):
    """Translate one comma-separated component of a name."""
    if c in PHRASE:
        return PHRASE[c]
    toks = c.split(" ")
    if toks[0] == "with":
        return moves_es(toks)
    if all(is_move(t) or t == ".." for t in toks):
        return moves_es(toks)
    posts = []
    # 'Reversed X' is written after in Spanish: 'X invertida'
    while toks and toks[0] in POST and len(toks) > 1:
        posts.append(toks.pop(0))
    while toks and toks[-1] in POST and len(toks) > 1:
        posts.insert(0, toks.pop())
    head = None
    if len(toks) >= 2 and toks[-2:] == ["Move", "Order"]:
        toks = toks[:-2]
        head_es, gender = "orden de jugadas", "m"
        head = "Move Order"
    elif toks and toks[-1] in HEAD:
        head = toks.pop()
        head_es, gender = HEAD[head]
    names, adjs, mods = [], [], []
    i = 0
    while i < len(toks):
        for L in (4, 3, 2, 1):
            key = " ".join(toks[i:i + L])
            if L > len(toks) - i:
                continue
            if key in MOD:
                mods.append(MOD[key]); break
            if key in NAME:
                names.append(NAME[key]); break
            if key in ADJ:
                adjs.append(ADJ[key]); break
            if L == 1:
                t = toks[i]
                if is_move(t):
                    names.append(move_es(t))
                elif t.endswith("'s") or t.endswith("s'"):
                    # possessive surname: Spanish drops it ("Greco's Attack" -> "ataque Greco")
                    base = t[:-2] if t.endswith("'s") else t[:-1]
                    names.append(NAME.get(base, base))
                else:
                    names.append(prefixed(t))
                break
        i += L
    if head is None:
        if len(adjs) >= 2 and not names and not mods:
            # "Old Sicilian" -> "siciliana antigua": last adjective used as a feminine noun
            head_es, gender = adjs.pop()[1], "f"
        elif posts and adjs and not names and not mods:
            # "Reversed Sicilian" -> "siciliana invertida"
            head_es, gender = adjs.pop()[1], "f"
        elif not names:
            # only adjectives / noun modifiers: supply "variante"
            head_es, gender = "variante", "f"
        else:
            head_es, gender = None, "f"
    parts = []
    if head_es:
        parts.append(head_es)
    parts += names
    parts += [agree(a, gender) for a in reversed(adjs)]
    parts += mods
    parts += [agree(POST[p], gender) for p in posts]
    return " ".join(parts)


PREFIXES = ("Anti-", "Pseudo-", "Semi-", "Neo-", "Ultra-", "Hyper-")


def prefixed(t):
    """Anti-Grünfeld -> anti-Grünfeld; Nimzo-English -> Nimzo-inglesa (as a name)."""
    for p in PREFIXES:
        if t.startswith(p):
            rest = t[len(p):]
            return p.lower() + prefixed(rest)
    if t in NAME:
        return NAME[t]
    if "-" in t:
        a, _, b = t.rpartition("-")
        if b in ADJ and a not in ADJ:
            return a + "-" + ADJ[b][1]
    return t


def translate(name):
    if name in OVERRIDES:
        return OVERRIDES[name]
    fam, _, rest = name.partition(": ")
    fam_es = FAMILIES[fam]
    if not rest:
        return fam_es
    comps = rest.split(", ")
    return fam_es + ": " + ", ".join(component(c) for c in comps)


def source_rows():
    rows = []
    for p in SRC:
        rows += read_tsv(p)
    return rows


def main():
    rows = source_rows()
    if "--components" in sys.argv:
        seen = {}
        for eco, name, pgn in rows:
            fam, _, rest = name.partition(": ")
            if rest:
                for c in rest.split(", "):
                    seen.setdefault(c, component(c))
        for c, t in seen.items():
            print(c + "\t" + t)
        return
    with open(os.path.join(DATA, "openings.tsv"), "w", encoding="utf-8") as f:
        f.write("eco\tname_en\tname_es\tpgn\n")
        for eco, name, pgn in rows:
            f.write("\t".join([eco, name, translate(name), pgn]) + "\n")
    print(len(rows), "rows written to openings.tsv", file=sys.stderr)


if __name__ == "__main__":
    main()
