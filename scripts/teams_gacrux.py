#!/usr/bin/env python3
"""Team tie-break values from Gacrux (OttoMilvang/TieBreakServer, FIDE TEC's
tie-break checker, run outside the project) for the test
crates/escaque-torneo/tests/teams.rs (issue 59).

  teams_gacrux.py GACRUX_DIR OUT.txt FILE.trf...

runs Gacrux's tiebreakchecker on each TRF-2026 team file (written by
escaque's teams::trf::write) with the team tie-breaks

    MPTS GPTS EMGSB EMMSB BH BC

(`-p` pre-determined pairings for a round robin, `-s` for a Swiss; `-n` the
number of rounds in the file) and writes, per file:

    = FILE
    TEAM RANK MPTS GPTS EMGSB EMMSB BH BC

TEAM is the team's number, RANK Gacrux's rank with that list.
"""
import io
import os
import sys
from contextlib import redirect_stdout

TBS = ["MPTS", "GPTS", "EMGSB", "EMMSB", "BH", "BC"]


def rounds_of(text):
    for line in text.splitlines():
        if line.startswith("142 "):
            return int(line[4:].strip())
    return 0


def run(gacrux_dir, out, files):
    sys.path.insert(0, gacrux_dir)
    from tiebreakchecker import tiebreakchecker
    lines = []
    for path in files:
        text = open(path, encoding="utf-8").read()
        rr = "ROUNDROBIN" in text
        rounds = max(int(l[4:7]) for l in text.splitlines() if l.startswith("300 "))
        argv = ["tiebreakchecker", "-i", path, "-F", "TXT", "-n", str(rounds),
                "-p" if rr else "-s", "-t"] + TBS
        old = sys.argv
        sys.argv = argv
        buf = io.StringIO()
        try:
            with redirect_stdout(buf):
                code = tiebreakchecker().common_main()
        finally:
            sys.argv = old
        got = buf.getvalue().strip().split("\n")
        if code != 0 or not got or not got[0].startswith("StartNo"):
            raise RuntimeError(f"{path}: gacrux {code}: {buf.getvalue()[:500]}")
        lines.append(f"= {os.path.basename(path)}")
        for row in got[1:]:
            f = row.split("\t")
            vals = []
            for v in f[2:]:
                x = float(v)
                vals.append(f"{x:g}")
            lines.append(" ".join([f[0], f[1]] + vals))
    with open(out, "w") as fh:
        fh.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    run(sys.argv[1], sys.argv[2], sys.argv[3:])
