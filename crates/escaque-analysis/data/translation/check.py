#!/usr/bin/env python3
"""Verify ../openings.tsv against the lichess source and the rules in README.es.md.

Checks
  1. same rows, same order, same eco / name_en / pgn as ../lichess/{a..e}.tsv (3,807 rows)
  2. every row translated (name_es non-empty, differs from name_en)
  3. no English glossary term left in name_es (proper names excepted)
  4. capitalisation rule (Spanish sentence case):
     - name_es starts with a capital letter;
     - no other word that the glossary gives as a Spanish common word
       (variante, gambito, defensa, clásica, del, cambio ...) is capitalised;
     - every capitalised word after the first is a proper name, i.e. a word
       that is not a Spanish common word of the glossary;
  5. moves in names use Spanish piece letters (R D T A C), never K Q R B N
  6. structure kept: same number of ':' and of top-level ', ' separators
     as the English name (overrides may add a parenthesis, nothing else)
Python 3 standard library only.  Exit status 1 on any failure.
"""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.dirname(HERE)


def read_tsv(path):
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    return [l.split("\t") for l in lines[1:] if l]


def main():
    errors = []
    src = []
    for f in "abcde":
        src += read_tsv(os.path.join(DATA, "lichess", f + ".tsv"))
    out = read_tsv(os.path.join(DATA, "openings.tsv"))
    gl = read_tsv(os.path.join(HERE, "glossary.tsv"))
    fam = read_tsv(os.path.join(HERE, "families.tsv"))

    # 1. rows
    if len(src) != 3807:
        errors.append("source has %d rows, expected 3807" % len(src))
    if len(out) != len(src):
        errors.append("openings.tsv has %d rows, source %d" % (len(out), len(src)))
    for i, (s, o) in enumerate(zip(src, out)):
        if len(o) != 4:
            errors.append("row %d: %d fields" % (i + 2, len(o)))
            continue
        if (s[0], s[1], s[2]) != (o[0], o[1], o[3]):
            errors.append("row %d: eco/name/pgn differ from source" % (i + 2))

    # vocabularies
    names_ok = set()          # tokens of proper names kept or respelled
    spanish_common = set()    # Spanish common words produced by the glossary
    english_terms = set()     # English words that must not survive
    for en, es, kind, *_ in gl:
        if kind == "name":
            names_ok.update(re.split(r"[ \-]", es))
            continue
        if kind == "piece":
            continue
        for w in re.split(r"[ /\-]", es):
            if w and w[0].islower():
                spanish_common.add(w.lower())
        if kind in ("head.m", "head.f", "head.fp", "adj", "post", "mod", "phrase", "with"):
            for w in re.split(r"[ \-]", en):
                if w and w[0].isalpha():
                    english_terms.add(w)
    for en, es in fam:
        for w in es.split(" "):
            if w[:1].islower():
                spanish_common.add(w.lower())
    # an English word spelled the same in Spanish (Normal, Central, Fianchetto,
    # Stonewall ...) or used as a proper name in the output is not an error
    spanish_words_any_case = set()
    for en, es, *_ in gl + [r + ["", ""] for r in fam]:
        spanish_words_any_case.update(w.lower() for w in re.split(r"[ /\-(),:]", es) if w)
    english_terms = {w for w in english_terms
                     if w.lower() not in spanish_words_any_case and w not in names_ok}
    # proper names that happen to be English words (people, places, brands)
    english_terms -= {"Grand", "Short", "Torre", "Spike", "Hunt"}

    move_en = re.compile(r"(?<![A-Za-z])[KQRBN][a-h]?[1-8]?x?[a-h][1-8]")
    for i, o in enumerate(out):
        if len(o) != 4:
            continue
        en, es = o[1], o[2]
        where = "row %d (%s)" % (i + 2, en)
        # 2
        if not es.strip():
            errors.append(where + ": empty translation")
            continue
        if es == en:
            errors.append(where + ": not translated")
        # 3
        toks = [t for t in re.split(r"[ ,:()]+", es) if t]
        for t in toks:
            for part in t.split("-"):
                if part in english_terms:
                    errors.append(where + ": English term %r left in %r" % (part, es))
        # 4
        if not es[0].isupper():
            errors.append(where + ": does not start with a capital: %r" % es)
        for t in toks[1:]:
            for part in t.split("-"):
                if part[:1].isupper() and part.lower() in spanish_common and part not in names_ok:
                    errors.append(where + ": common word capitalised: %r in %r" % (part, es))
        # 5
        if move_en.search(es):
            errors.append(where + ": English piece letter in %r" % es)
        # 6
        if en.count(":") != es.count(":") or en.count(", ") != es.count(", "):
            errors.append(where + ": structure (':' / ', ') differs: %r" % es)

    for e in errors[:200]:
        print("FAIL", e)
    print("%d rows checked, %d problems" % (len(out), len(errors)))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
