#!/usr/bin/env python3
"""Gauntlet: escaque's engine against rated engines, and its rating on their
scale (issue 29, item 1).

    python3 scripts/gauntlet.py --engine "target/release/escaque uci" \\
        --opponent "sf2100=/usr/games/stockfish;UCI_LimitStrength=true;UCI_Elo=2100" \\
        --anchor sf2100=2100 \\
        --opponent "toga2=/usr/games/toga2" \\
        --opponent "phalanx=xboard:/usr/games/phalanx" \\
        [--pairs 50] [--tc 60+0.6] [--concurrency 2] [--seed 1] \\
        [--pgn gauntlet.pgn] [--ordo /path/to/ordo]
    python3 scripts/gauntlet.py selftest

Every opponent plays --pairs game pairs against the engine (one opening of
escaque's CC0 opening table, each side once with White), on a clock, with
the arbiter, adjudication and forfeits of scripts/sprt.py (the same code).
Opponents are `NAME=COMMAND[;OPTION=VALUE…]`; `xboard:` before the command
speaks CECP instead of UCI.

The anchors. Stockfish documents its UCI_Elo as "calibrated at a time control
of 60s+0.6s and anchored to CCRL 40/4" (README of Stockfish 15.1, the version
Debian ships): a Stockfish limited to UCI_Elo = X is an opponent of rating X on
CCRL's 40/4 scale (CCRL Blitz's former name), so the default clock here is
that calibration's, 60+0.6. An engine with a published CCRL rating can be an
anchor too (`--anchor NAME=RATING`); opponents without an anchor are played
and reported, and rated by Ordo as free players.

The rating. Printed twice:
  * by maximum likelihood here: the engine's rating R maximises the logistic
    likelihood of its game scores against the anchored opponents at their
    fixed ratings; ± is 1.96 standard errors from the observed information,
    with the pair (not the game) as the independent unit;
  * by Ordo (github.com/michiguel/Ordo, built outside the project) when
    --ordo is given, on the whole PGN with the anchors as `-m` multi-anchors
    and 1,000 simulations for the errors.
"""
import argparse
import concurrent.futures as cf
import importlib.util
import math
import os
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def load_sprt():
    spec = importlib.util.spec_from_file_location("sprt", os.path.join(HERE, "sprt.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


# The games, the arbiter and the logistic model are scripts/sprt.py's.
sprt = load_sprt()


def parse_opponent(text):
    """`NAME=COMMAND[;OPTION=VALUE…]` → (name, command, options, xboard)."""
    name, sep, rest = text.partition("=")
    if not sep or not name or not rest:
        raise ValueError("an opponent is NAME=COMMAND[;OPTION=VALUE...]: %r" % text)
    parts = rest.split(";")
    cmd = parts[0].strip()
    xboard = cmd.startswith("xboard:")
    if xboard:
        cmd = cmd[len("xboard:"):]
    options = {}
    for p in parts[1:]:
        k, sep, v = p.partition("=")
        if not sep or not k.strip():
            raise ValueError("an option is OPTION=VALUE: %r in %r" % (p, text))
        v = v.strip()
        low = v.lower()
        if low in ("true", "false"):
            options[k.strip()] = low == "true"
        else:
            try:
                options[k.strip()] = int(v)
            except ValueError:
                options[k.strip()] = v
    return name.strip(), cmd, options, xboard


def expected(r, opp):
    """Expected score of rating `r` against rating `opp`."""
    return sprt.expected_score(r - opp)


def anchored_rating(pairs):
    """Maximum-likelihood rating from pair scores against fixed ratings.

    `pairs` is a list of (opponent_rating, pair_points in half-points,
    0..4, as scripts/sprt.py's `score_of` counts two games). The pair's
    mean game score is modelled as the logistic expectation; R solves
    Σ (s_i − E_i(R)) = 0 by Newton's method, and its standard error comes
    from the pairs' own scatter (the sandwich estimate), so draws and
    correlated colours within a pair do not make it too narrow (under 20
    pairs, never below the model's variance of two draw-free games a pair).
    Returns (R, ±95 %) or None without games.
    """
    if not pairs:
        return None
    mean_opp = sum(o for o, _ in pairs) / len(pairs)
    total = sum(p for _, p in pairs) / 4.0
    n = len(pairs)
    if total <= 0.0 or total >= n:
        return None  # all lost or all won: no finite estimate
    r = mean_opp
    c = math.log(10.0) / 400.0
    for _ in range(100):
        g = sum(p / 4.0 - expected(r, o) for o, p in pairs)
        h = sum(c * expected(r, o) * (1.0 - expected(r, o)) for o, _ in pairs)
        step = g / h
        r += max(-400.0, min(400.0, step))
        if abs(step) < 1e-7:
            break
    info = sum(c * expected(r, o) * (1.0 - expected(r, o)) for o, _ in pairs)
    scatter = sum((p / 4.0 - expected(r, o)) ** 2 for o, p in pairs)
    # With few pairs (under 20) the scatter says too little: the model's own
    # variance of a pair's mean (two draw-free games) is then the floor.
    if n < 20:
        scatter = max(scatter, sum(expected(r, o) * (1.0 - expected(r, o)) / 2.0 for o, _ in pairs))
    se = math.sqrt(scatter) / info if info > 0 else float("inf")
    return r, 1.96 * se


def selftest():
    ok = True
    # Against one opponent the estimate is the logistic inverse of the score.
    pairs = [(2000.0, 4)] * 30 + [(2000.0, 2)] * 40 + [(2000.0, 0)] * 30
    r, _ = anchored_rating(pairs)
    if abs(r - 2000.0) > 1e-6:
        print("selftest: an even score against 2000 is %f" % r)
        ok = False
    pairs = [(2000.0, 4)] * 3 + [(2000.0, 2)] * 1
    r, _ = anchored_rating(pairs)
    want = 2000.0 + 400.0 * math.log10(0.875 / 0.125)
    if abs(r - want) > 1e-6:
        print("selftest: 87.5 %% against 2000 is %f, not %f" % (r, want))
        ok = False
    # Simulated gauntlets: a 2200 player against 1900/2100/2300/2500 anchors,
    # 200 pairs each; the true rating inside ± in at least 90 of 100 runs.
    import random

    rng = random.Random(7)
    inside = 0
    for _ in range(100):
        pairs = []
        for opp in (1900.0, 2100.0, 2300.0, 2500.0):
            e = expected(2200.0, opp)
            for _ in range(200):
                pts = 0
                for _ in range(2):
                    u = rng.random()
                    # draws a third of the time, the rest split to keep e
                    d = min(0.33, 2 * min(e, 1 - e))
                    w = e - d / 2
                    pts += 2 if u < w else (1 if u < w + d else 0)  # half-points
                pairs.append((opp, pts))
        r, err = anchored_rating(pairs)
        inside += abs(r - 2200.0) <= err
    if inside < 90:
        print("selftest: the 95 %% interval held the truth in %d of 100 runs" % inside)
        ok = False
    if anchored_rating([(2000.0, 4)] * 5) is not None:
        print("selftest: all wins gave a finite rating")
        ok = False
    try:
        name, cmd, opts, xb = parse_opponent("sf=/usr/games/stockfish;UCI_LimitStrength=true;UCI_Elo=2100")
        assert (name, cmd, opts, xb) == (
            "sf",
            "/usr/games/stockfish",
            {"UCI_LimitStrength": True, "UCI_Elo": 2100},
            False,
        )
        assert parse_opponent("ph=xboard:/usr/games/phalanx")[3] is True
    except (AssertionError, ValueError) as e:
        print("selftest: opponent parsing: %r" % e)
        ok = False
    for bad in ("noequals", "x=", "x=cmd;novalue"):
        try:
            parse_opponent(bad)
            print("selftest: %r was accepted" % bad)
            ok = False
        except ValueError:
            pass
    print("gauntlet.py selftest: %s (estimate, interval coverage %d/100, parsing)" % ("ok" if ok else "FAILED", inside))
    return 0 if ok else 1


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "selftest":
        return selftest()
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", required=True, help="escaque's command line")
    ap.add_argument("--name", default="escaque", help="the engine's name in the PGN")
    ap.add_argument("--opponent", action="append", default=[], help="NAME=COMMAND[;OPTION=VALUE...]")
    ap.add_argument("--anchor", action="append", default=[], help="NAME=RATING")
    ap.add_argument("--pairs", type=int, default=50, help="game pairs per opponent")
    ap.add_argument("--tc", default="60+0.6", help="BASE+INC seconds")
    ap.add_argument("--concurrency", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--pgn", help="PGN file the games are appended to")
    ap.add_argument("--ordo", help="Ordo's binary, to rate the PGN with the anchors")
    args = ap.parse_args()
    if not args.opponent:
        ap.error("name at least one --opponent")
    try:
        opponents = [parse_opponent(o) for o in args.opponent]
    except ValueError as e:
        ap.error(str(e))
    anchors = {}
    for a in args.anchor:
        k, sep, v = a.partition("=")
        try:
            anchors[k.strip()] = float(v)
        except ValueError:
            ap.error("an anchor is NAME=RATING: %r" % a)
        if not sep:
            ap.error("an anchor is NAME=RATING: %r" % a)
    names = {o[0] for o in opponents}
    for k in anchors:
        if k not in names:
            ap.error("anchor %r is not an opponent" % k)
    tc_base, _, inc = args.tc.partition("+")
    args.tc_base, args.inc, args.nodes = float(tc_base), float(inc or 0), None

    import chess
    import chess.engine
    import chess.pgn

    openings = sprt.read_openings(chess, args.seed, 0)
    # Interleaved, so that a run stopped early has played every opponent alike.
    jobs = [(o, k) for k in range(args.pairs) for o in opponents]
    lock = threading.Lock()
    tally = {o[0]: {"pairs": [], "w": 0, "d": 0, "l": 0, "problems": []} for o in opponents}
    pgn = open(args.pgn, "a", encoding="utf-8") if args.pgn else None
    started = time.monotonic()
    state = {"next": 0}

    def worker():
        players = {}
        me = sprt.Player(chess, args.engine, args.name)
        try:
            while True:
                with lock:
                    if state["next"] >= len(jobs):
                        return
                    (oname, cmd, opts, xb), k = jobs[state["next"]]
                    state["next"] += 1
                if oname not in players:
                    players[oname] = sprt.Player(chess, cmd, oname, opts, xb)
                them = players[oname]
                opening_name, opening = openings[k % len(openings)]
                pts = 0
                for me_white in (True, False):
                    w, b = (me, them) if me_white else (them, me)
                    result, reason, board = sprt.play_game(chess, w, b, opening, args)
                    s = sprt.score_of(result, me_white)
                    pts += s
                    with lock:
                        t = tally[oname]
                        t["wdl"[{2: 0, 1: 1, 0: 2}[s]]] += 1
                        if sprt.is_problem(reason):
                            t["problems"].append(reason)
                        if pgn:
                            pgn.write(sprt.pgn_text(chess, board, opening_name, w.name, b.name, result, reason, k + 1))
                            pgn.flush()
                with lock:
                    tally[oname]["pairs"].append(pts)
                    t = tally[oname]
                    print(
                        "%-10s pairs %3d  +%d =%d -%d  %.0f s"
                        % (oname, len(t["pairs"]), t["w"], t["d"], t["l"], time.monotonic() - started),
                        flush=True,
                    )
        finally:
            me.quit()
            for p in players.values():
                p.quit()

    with cf.ThreadPoolExecutor(args.concurrency) as ex:
        for f in [ex.submit(worker) for _ in range(args.concurrency)]:
            f.result()
    if pgn:
        pgn.close()

    print("\n| opponent | anchor | W | D | L | score | Elo difference (95 %) | problems |")
    print("|---|---|---|---|---|---|---|---|")
    for oname, _, _, _ in opponents:
        t = tally[oname]
        n = t["w"] + t["d"] + t["l"]
        score = (t["w"] + 0.5 * t["d"]) / n if n else float("nan")
        diff = anchored_rating([(0.0, p) for p in t["pairs"]])
        diff_s = "%+.0f ± %.0f" % diff if diff else "(no bound)"
        print(
            "| %s | %s | %d | %d | %d | %.3f | %s | %s |"
            % (oname, "%g" % anchors[oname] if oname in anchors else "—", t["w"], t["d"], t["l"], score, diff_s, "; ".join(t["problems"]) or "—")
        )
    pairs = [(anchors[o], p) for o in anchors for p in tally[o]["pairs"]]
    est = anchored_rating(pairs)
    if est:
        print("\n%s ≈ %.0f ± %.0f on the anchors' scale (maximum likelihood, %d games against anchored opponents)" % (args.name, est[0], est[1], 2 * len(pairs)))
    else:
        print("\nno anchored rating: no games against anchored opponents, or all won or all lost")
    if args.ordo and args.pgn and anchors:
        with tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False) as f:
            for k, v in anchors.items():
                f.write('"%s",%g\n' % (k, v))
            mfile = f.name
        out = subprocess.run(
            [args.ordo, "-p", args.pgn, "-m", mfile, "-W", "-D", "-s", "1000", "-q", "-G"],
            capture_output=True,
            text=True,
        )
        os.unlink(mfile)
        print("\nOrdo (%s -p %s -m ANCHORS -W -D -s 1000):\n%s%s" % (args.ordo, args.pgn, out.stdout, out.stderr))
    return 0


if __name__ == "__main__":
    sys.exit(main())
