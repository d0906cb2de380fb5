#!/usr/bin/env python3
"""Joins the CSV files of a puzzle run (issue 56) into one lichess-format
CSV: the header once, each PuzzleId once (first seen wins), in the order
read. With --recheck RESULTS.tsv (written by problemas-recheck.py --done)
only the puzzles Stockfish's re-check passed are kept, and --require-all
refuses to write when a puzzle has no verdict yet.

  python3 scripts/problemas-merge.py A.csv B.csv ... -o OUT.csv
      [--recheck RESULTS.tsv [--require-all]]
"""

import argparse
import sys

HEADER = "PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,OpeningTags"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("files", nargs="+")
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("--recheck", default="")
    ap.add_argument("--require-all", action="store_true")
    a = ap.parse_args()
    verdict = {}
    if a.recheck:
        with open(a.recheck) as f:
            for line in f:
                parts = line.rstrip("\n").split("\t")
                if len(parts) >= 2:
                    verdict[parts[0]] = parts[1] == "pass"
    seen = set()
    out = [HEADER]
    dropped = missing = 0
    for name in a.files:
        with open(name) as f:
            for n, line in enumerate(f.read().splitlines(), 1):
                if not line.strip() or line == HEADER:
                    continue
                pid = line.split(",", 1)[0]
                if pid in seen:
                    continue
                seen.add(pid)
                if a.recheck:
                    if pid not in verdict:
                        missing += 1
                        continue
                    if not verdict[pid]:
                        dropped += 1
                        continue
                out.append(line)
    if a.require_all and missing:
        sys.exit(f"{missing} puzzles have no re-check verdict")
    with open(a.output, "w") as f:
        f.write("\n".join(out) + "\n")
    print(
        f"{len(out) - 1} puzzles written to {a.output}"
        + (f" ({dropped} failed the re-check, {missing} not re-checked)" if a.recheck else "")
    )


if __name__ == "__main__":
    main()
