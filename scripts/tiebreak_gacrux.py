#!/usr/bin/env python3
"""Tie-break values from Gacrux (OttoMilvang/TieBreakServer, FIDE TEC's
tie-break checker, run outside the project) for the differential test
crates/escaque-torneo/tests/gacrux.rs.

  tiebreak_gacrux.py generate OUT.trf [COUNT] [SEED] [UNUSUAL PREFIX]
      writes COUNT (default 1000) random tournaments, one after another, each
      headed by a line `### NAME`: Swiss events with every kind of bye
      (pairing-allocated U, half-point H, full-point F, zero-point Z, absent
      blank), forfeits (+/-, -/-), withdrawals and unrated players; single
      and double round robins, odd ones with rests (Z), with forfeits and a
      withdrawal (the rest of the withdrawn player's games forfeited).
      With UNUSUAL (a probability, issue 58's VCL.13), that share of the
      games played end ½-0, 0-½ or 0-0 (a third each), written with each
      player's own code (`=`/`0`, `0`/`=`, `0`/`0`); the tournaments are
      named PREFIX0001… (default `g`). UNUSUAL 0 (the default) draws nothing
      more: the same seed gives the same file as before.
  tiebreak_gacrux.py run GACRUX_DIR OUT.txt FILE_OR_BUNDLE...
      runs Gacrux's tiebreakchecker on every tournament (a .trf file, or
      every `### NAME` part of a bundle), under both rule versions (each
      Buchholz and Sonneborn-Berger tie-break given Gacrux's `/V2024` or
      `/V2026` modifier), and writes OUT.txt:

        = NAME SYSTEM ROUNDS RULES UNRATED
        PLAYER RANK_A RANK_B BH BH-C1 BH-M1 SB WIN WON BPG ARO PS KS

      SYSTEM `swiss` or `rr` (Gacrux told `-s` or `-p`); ROUNDS the rounds
      compared (`-n`: the last round with a game); RULES 2024 or 2026;
      UNRATED the rating given to unrated players (`-u`) or `-`. RANK_A is
      Gacrux's rank with PTS BH/C1 BH SB BH/M1 WIN WON BPG ARO PS KS (Swiss)
      or PTS SB WIN KS ... (round robin); RANK_B with PTS DE SB WIN (direct
      encounter first). `-` stands for a value Gacrux leaves undefined.
  tiebreak_gacrux.py run-more GACRUX_DIR OUT.txt FILE_OR_BUNDLE...
      the same for the other tie-breaks of C.07 (issue 58), one list
      PTS BH/C2 BH/M2 AOB SB/C1 SB/C2 BWG REP KS/L-1 KS/L+1 ARO/C1 ARO/M1
      TPR PTP APRO APPO STD TPN RTNG FB (the Buchholz family left out of round
      robins, written `x`), each Buchholz, FB, AOB and Sonneborn-Berger
      given `/V2024` or `/V2026`:
        = NAME SYSTEM ROUNDS RULES UNRATED
        PLAYER RANK VALUES...
"""
import io
import os
import random
import sys
from contextlib import redirect_stdout

LIST_SWISS = ["BH/C1", "BH", "SB", "BH/M1", "WIN", "WON", "BPG", "ARO", "PS", "KS"]
LIST_RR = ["SB", "WIN", "KS", "BH", "BH/C1", "BH/M1", "WON", "BPG", "ARO", "PS"]
LIST_DE = ["DE", "SB", "WIN"]
COLUMNS = ["BH", "BH/C1", "BH/M1", "SB", "WIN", "WON", "BPG", "ARO", "PS", "KS"]
# The rest of C.07's individual tie-breaks (issue 58), `run-more`: the
# Buchholz family (first four) on Swiss events only.
# FB is last: Gacrux's FB changes each player's "last round not absent"
# (lna) in place, and every Buchholz or Sonneborn-Berger computed after it
# in the same run reads the changed one.
MORE = ["BH/C2", "BH/M2", "AOB", "SB/C1", "SB/C2", "BWG", "REP", "KS/L-1", "KS/L+1",
        "ARO/C1", "ARO/M1", "TPR", "PTP", "APRO", "APPO", "STD", "TPN", "RTNG", "FB"]
BUCHHOLZ_FAMILY = ("BH", "FB", "AOB")


# ---------------------------------------------------------------- generate

def cell(opp, colour, code):
    return f"{opp:4d} {colour} {code}" if opp else f"0000 - {code}"


def player_line(sno, name, rating, points, cells):
    head = f"001 {sno:4d} m    {name:<33} {rating if rating else '':>4} ESP {'':>11} {'':10} {points:4.1f} {sno:4d}"
    return (head + "".join("  " + c for c in cells)).rstrip()


UNUSUAL = 0.0


def result_pair(rng, forfeit_rate):
    if UNUSUAL > 0 and rng.random() < UNUSUAL:
        return rng.choice([("=", "0"), ("0", "="), ("0", "0")])
    x = rng.random()
    if x < forfeit_rate * 0.8:
        return ("+", "-")
    if x < forfeit_rate:
        return ("-", "-") if rng.random() < 0.3 else ("-", "+")
    y = rng.random()
    return ("1", "0") if y < 0.42 else ("=", "=") if y < 0.70 else ("0", "1")


def points_of(code):
    return {"1": 1.0, "+": 1.0, "U": 1.0, "F": 1.0, "=": 0.5, "H": 0.5}.get(code, 0.0)


def match(players, met):
    """Pairs `players` in order, each with the first one not met before
    (C.04: no rematches), backtracking; None if there is no such pairing."""
    if not players:
        return []
    a, rest = players[0], players[1:]
    for i, b in enumerate(rest):
        if (a, b) in met:
            continue
        tail = match(rest[:i] + rest[i + 1:], met)
        if tail is not None:
            return [(a, b)] + tail
    return None


def swiss(rng, name):
    n = rng.randint(5, 14)
    rounds = rng.randint(3, min(9, n - 1))
    forfeit_rate = rng.choice([0.0, 0.04, 0.1])
    byes = rng.choice([0.0, 0.05, 0.12])
    withdraw = {}
    for p in range(1, n + 1):
        if rng.random() < 0.12:
            withdraw[p] = rng.randint(2, rounds)
    late = {p: rng.randint(2, rounds) for p in range(1, n + 1) if rng.random() < 0.05}
    cells = {p: [] for p in range(1, n + 1)}
    score = {p: 0.0 for p in range(1, n + 1)}
    met = set()
    coldiff = {p: 0 for p in range(1, n + 1)}
    for r in range(1, rounds + 1):
        avail = []
        for p in range(1, n + 1):
            if p in withdraw and r >= withdraw[p]:
                cells[p].append("0000 - Z")
            elif p in late and r < late[p]:
                cells[p].append("0000 - Z")
            elif rng.random() < byes:
                cells[p].append("0000 - " + rng.choice("HHZF"))
            else:
                avail.append(p)
        avail.sort(key=lambda p: (-score[p], rng.random()))
        if len(avail) % 2:
            u = avail.pop()
            cells[u].append("0000 - U")
        pairs = match(avail, met)
        if pairs is None:  # No pairing without a rematch: the event ends here.
            for p in range(1, n + 1):
                del cells[p][r - 1:]
            rounds = r - 1
            break
        for a, b in pairs:
            met.add((a, b))
            met.add((b, a))
            # White to the one who had fewer whites (Gacrux reads colour
            # differences up to 4 only).
            da, db = coldiff[a], coldiff[b]
            w, bl = (a, b) if da < db or (da == db and rng.random() < 0.5) else (b, a)
            rw, rb = result_pair(rng, forfeit_rate)
            if (rw, rb) != ("-", "-") and rw not in "+-":
                coldiff[w] += 1
                coldiff[bl] -= 1
            cells[w].append(cell(bl, "w", rw))
            cells[bl].append(cell(w, "b", rb))
        for p in range(1, n + 1):
            score[p] += points_of(cells[p][-1].strip()[-1:] if cells[p][-1].strip() else "")
    return n, rounds, "swiss", cells


def round_robin(rng, name):
    n = rng.randint(3, 10)
    double = rng.random() < 0.3
    m = n + (n % 2)
    ids = list(range(1, m + 1))
    cycle = []
    for r in range(m - 1):
        pairs = []
        for i in range(m // 2):
            a, b = ids[i], ids[m - 1 - i]
            if i == 0 and r % 2 == 1:
                a, b = b, a
            pairs.append((a, b))
        cycle.append(pairs)
        ids = [ids[0]] + [ids[-1]] + ids[1:-1]
    schedule = cycle + ([[(b, a) for a, b in rnd] for rnd in cycle] if double else [])
    rounds = len(schedule)
    forfeit_rate = rng.choice([0.0, 0.0, 0.05])
    withdraw = rng.randint(1, n) if rng.random() < 0.3 else None
    wround = rng.randint(2, rounds) if withdraw else None
    cells = {p: [] for p in range(1, n + 1)}
    for r, pairs in enumerate(schedule, 1):
        for a, b in pairs:
            if a > n or b > n:
                rest = b if a > n else a
                cells[rest].append("0000 - Z")
                continue
            if withdraw in (a, b) and r >= wround:
                ra, rb = ("-", "+") if a == withdraw else ("+", "-")
            else:
                ra, rb = result_pair(rng, forfeit_rate)
            cells[a].append(cell(b, "w", ra))
            cells[b].append(cell(a, "b", rb))
    return n, rounds, "rr", cells


def generate(out, count, seed, prefix="g"):
    rng = random.Random(seed)
    parts = []
    for k in range(1, count + 1):
        name = f"{prefix}{k:04d}"
        kind = "rr" if rng.random() < 0.3 else "swiss"
        n, rounds, system, cells = (round_robin if kind == "rr" else swiss)(rng, name)
        unrated = rng.random() < 0.25
        year = rng.choice([2024, 2025, 2026])
        lines = [f"### {name}", f"012 Generated {name}",
                 f"042 {year}/{rng.randint(1, 12):02d}/{rng.randint(1, 28):02d}",
                 f"092 {'Round robin' if system == 'rr' else 'Swiss'}",
                 f"XXR {rounds}", "XXC white1"]
        if system == "rr":
            lines.append("XZS rr")
        for p in range(1, n + 1):
            rating = 0 if unrated and rng.random() < 0.3 else rng.randint(1000, 2400)
            pts = sum(points_of(c.strip()[-1:] if c.strip() else "") for c in cells[p])
            lines.append(player_line(p, f"Player {p}", rating, pts, cells[p]))
        parts.append("\n".join(lines) + "\n")
    with open(out, "w") as f:
        f.write("".join(parts))


# ---------------------------------------------------------------- run

def tournaments(path):
    text = open(path, encoding="latin-1").read().replace("\r\n", "\n").replace("\r", "\n")
    if not text.startswith("### "):
        # Named by its folder and file: `real/bbp_issue_7`.
        folder = os.path.basename(os.path.dirname(os.path.abspath(path)))
        yield folder + "/" + os.path.splitext(os.path.basename(path))[0], text
        return
    for part in text.split("### ")[1:]:
        name, _, body = part.partition("\n")
        yield name.strip(), body


def last_game_round(text):
    last = 0
    for line in text.split("\n"):
        if not line.startswith("001"):
            continue
        col, r = 91, 0
        while col - 2 < len(line):
            r += 1
            opp = line[col:col + 4].strip()
            if opp.isdigit() and int(opp) > 0:
                last = max(last, r)
            col += 10
    return last


def is_rr(text):
    return any(l.startswith("XZS") and l[4:].strip() in ("rr", "drr") for l in text.split("\n"))


def has_unrated(text):
    for line in text.split("\n"):
        if line.startswith("001"):
            r = line[48:52].strip()
            if not r.isdigit() or int(r) == 0:
                return True
    return False


def gacrux(tbc_class, path, system, rounds, tbs, unrated):
    argv = ["tiebreakchecker", "-i", path, "-F", "TXT", "-n", str(rounds),
            "-s" if system == "swiss" else "-p", "-t", "PTS"] + tbs
    if unrated is not None:
        argv += ["-u", str(unrated)]
    old = sys.argv
    sys.argv = argv
    buf = io.StringIO()
    try:
        with redirect_stdout(buf):
            code = tbc_class().common_main()
    finally:
        sys.argv = old
    out = buf.getvalue().strip().split("\n")
    if code != 0 or not out or not out[0].startswith("StartNo"):
        raise RuntimeError(f"{path}: gacrux {code}: {buf.getvalue()[:300]}")
    rows = {}
    for line in out[1:]:
        f = line.split("\t")
        rows[int(f[0])] = (int(f[1]), f[3:])
    return rows


def fmt(v):
    if v in ("-0", "None", ""):
        return "-"
    x = float(v)
    return f"{x:g}"


def run(gacrux_dir, out, inputs):
    sys.path.insert(0, gacrux_dir)
    from tiebreakchecker import tiebreakchecker
    import tempfile
    lines = []
    tmp = tempfile.NamedTemporaryFile("w", suffix=".trf", delete=False, encoding="latin-1")
    tmp.close()
    for inp in inputs:
        for name, text in tournaments(inp):
            with open(tmp.name, "w", encoding="latin-1") as f:
                f.write(text)
            system = "rr" if is_rr(text) else "swiss"
            rounds = last_game_round(text)
            if rounds == 0:
                continue
            unrated = None
            generated = len(name) == 5 and name[0] == "g" and name[1:].isdigit()
            if has_unrated(text) and generated and int(name[1:]) % 2 == 0:
                unrated = 1400
            for rules in ("2024", "2026"):
                v = "/V" + rules
                base = LIST_SWISS if system == "swiss" else LIST_RR
                tbs = [t + v if t.startswith(("BH", "SB")) else t for t in base]
                de = [t + v if t.startswith(("BH", "SB")) else t for t in LIST_DE]
                try:
                    a = gacrux(tiebreakchecker, tmp.name, system, rounds, tbs, unrated)
                    b = gacrux(tiebreakchecker, tmp.name, system, rounds, de, unrated)
                except Exception as e:  # Gacrux refused or failed: reported, left out.
                    print(f"skipped {inp} {name} {rules}: {str(e).splitlines()[0][:200]}", file=sys.stderr)
                    continue
                lines.append(f"= {name} {system} {rounds} {rules} {unrated if unrated else '-'}")
                for p in sorted(a):
                    vals = dict(zip(base, a[p][1]))
                    row = [str(p), str(a[p][0]), str(b[p][0])] + [fmt(vals[c]) for c in COLUMNS]
                    lines.append(" ".join(row))
    os.unlink(tmp.name)
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")


def versioned(tb, rules):
    return tb + "/V" + rules if tb.startswith(BUCHHOLZ_FAMILY + ("SB",)) else tb


def run_more(gacrux_dir, out, inputs):
    sys.path.insert(0, gacrux_dir)
    from tiebreakchecker import tiebreakchecker
    import tempfile
    lines = []
    tmp = tempfile.NamedTemporaryFile("w", suffix=".trf", delete=False, encoding="latin-1")
    tmp.close()
    for inp in inputs:
        for name, text in tournaments(inp):
            with open(tmp.name, "w", encoding="latin-1") as f:
                f.write(text)
            system = "rr" if is_rr(text) else "swiss"
            rounds = last_game_round(text)
            if rounds == 0:
                continue
            unrated = None
            generated = len(name) == 5 and name[0] == "g" and name[1:].isdigit()
            if has_unrated(text) and generated and int(name[1:]) % 2 == 0:
                unrated = 1400
            base = [t for t in MORE if system == "swiss" or not t.startswith(BUCHHOLZ_FAMILY)]
            for rules in ("2024", "2026"):
                tbs = [versioned(t, rules) for t in base]
                try:
                    a = gacrux(tiebreakchecker, tmp.name, system, rounds, tbs, unrated)
                except Exception as e:  # Gacrux refused or failed: reported, left out.
                    print(f"skipped {inp} {name} {rules}: {str(e).splitlines()[0][:200]}", file=sys.stderr)
                    continue
                lines.append(f"= {name} {system} {rounds} {rules} {unrated if unrated else '-'}")
                for p in sorted(a):
                    vals = dict(zip(base, a[p][1]))
                    row = [str(p), str(a[p][0])] + [fmt(vals[c]) if c in vals else "x" for c in MORE]
                    lines.append(" ".join(row))
    os.unlink(tmp.name)
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "generate":
        if len(sys.argv) > 5:
            UNUSUAL = float(sys.argv[5])
        generate(sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 1000,
                 int(sys.argv[4]) if len(sys.argv) > 4 else 62,
                 sys.argv[6] if len(sys.argv) > 6 else "g")
    elif len(sys.argv) >= 5 and sys.argv[1] == "run":
        run(sys.argv[2], sys.argv[3], sys.argv[4:])
    elif len(sys.argv) >= 5 and sys.argv[1] == "run-more":
        run_more(sys.argv[2], sys.argv[3], sys.argv[4:])
    else:
        sys.exit(__doc__)
