#!/usr/bin/env python3
"""SPRT: is a changed engine stronger than the engine it changes? (issue 29)

    python3 scripts/sprt.py --new NEW_CMD --base BASE_CMD [--nodes N | --tc 10+0.1]
        [--elo0 0 --elo1 5 --alpha 0.05 --beta 0.05] [--concurrency 2]
        [--max-pairs 20000] [--seed 1] [--pgn FILE] [--log FILE --name NAME]
    python3 scripts/sprt.py selftest

Two UCI engines (command lines, e.g. "target/release/escaque uci") play game
pairs: one opening, each engine once with White, so a lopsided opening
scores nothing. After every pair the sequential probability ratio test is
updated, and the match stops as soon as it is decided:

  H0: the new engine is elo0 stronger (logistic Elo), H1: elo1 stronger;
  stop with H1 ("accepted") when LLR >= ln((1-beta)/alpha),
  with H0 ("rejected") when LLR <= ln(beta/(1-alpha)).

The LLR is the GSPRT approximation on the pentanomial distribution of pair
scores (0, 0.5, 1, 1.5, 2), as fishtest and fastchess compute it: with s0, s1
the expected game scores under H0 and H1, x̄ the mean game score and σ² the
variance of a pair's mean game score over the N pairs played,
LLR = N (s1−s0)(2x̄−s0−s1) / (2σ²). Pairs keep the colour advantage out of
the variance, which is why they are the unit.

Openings: lines of 6 to 16 plies from escaque's CC0 opening table
(crates/escaque-analysis/data/openings.tsv, lichess's chess-openings), drawn
with the seed, each played by both colours. Limits: --nodes N sends
`go nodes N` (fixed-node screening: fast, and the same for both engines
whatever the machine's load), --tc BASE+INC plays on a clock as
../shared/tools/match.py does. OwnBook is switched off, Hash 16, Threads 1.

Adjudication, so that short screening games are not spent on decided
positions (scores as both engines report them, White's view): a win when
both engines' last 4 scores a side say ≥ 1000 cp for the same side; a draw
after ply 80 when the last 8 scores are within ±10 cp. Everything else ends
by the rules (python-chess is the arbiter: mate, stalemate, insufficient
material, threefold repetition and the fifty-move rule, claimed at once).
An illegal move, a crash or (with --tc) a lost time is a loss for that
engine and is counted and printed.

The result is one line appended to --log (a Markdown table row) with the
games, W/D/L, the pentanomial counts, Elo ± 95 % and the LLR, so every change
judged leaves its evidence in the repository.
"""
import argparse
import concurrent.futures as cf
import csv
import io
import math
import os
import random
import shlex
import signal
import sys
import threading
import time

OPENINGS = os.path.join(
    os.path.dirname(__file__), "..", "crates", "escaque-analysis", "data", "openings.tsv"
)


# ---------------------------------------------------------------- statistics


def expected_score(elo):
    """Expected score of a side that is `elo` logistic Elo stronger."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def elo_of_score(s):
    s = min(max(s, 1e-6), 1 - 1e-6)
    return -400.0 * math.log10(1.0 / s - 1.0)


def penta_stats(penta):
    """Pairs, mean game score and the variance of a pair's mean game score."""
    n = sum(penta)
    if n == 0:
        return 0, 0.5, 0.0
    scores = [0.0, 0.25, 0.5, 0.75, 1.0]
    mean = sum(c * s for c, s in zip(penta, scores)) / n
    var = sum(c * (s - mean) ** 2 for c, s in zip(penta, scores)) / n
    return n, mean, var


def llr(penta, elo0, elo1):
    """GSPRT log-likelihood ratio of H1 (elo1) against H0 (elo0)."""
    n, mean, _ = penta_stats(penta)
    if n == 0:
        return 0.0
    # The variance is taken with half a pair of prior in every cell: a few
    # pairs that happen to be alike have almost no spread, and a variance near
    # zero would stop the test on them (the regularisation fishtest does with
    # its pseudo-counts; it fades as pairs accumulate).
    _, _, var = penta_stats([c + 0.5 for c in penta])
    s0, s1 = expected_score(elo0), expected_score(elo1)
    return n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)


def bounds(alpha, beta):
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def elo_interval(penta):
    """Logistic Elo and the half-width of its 95 % interval, from the pairs."""
    n, mean, var = penta_stats(penta)
    if n == 0:
        return 0.0, float("inf")
    elo = elo_of_score(mean)
    se = math.sqrt(var / n)
    lo, hi = elo_of_score(mean - 1.96 * se), elo_of_score(mean + 1.96 * se)
    return elo, (hi - lo) / 2


def selftest():
    """Checks of the statistics against values worked out by hand."""
    assert abs(expected_score(0) - 0.5) < 1e-12
    assert abs(elo_of_score(expected_score(35.0)) - 35.0) < 1e-9
    lo, hi = bounds(0.05, 0.05)
    assert abs(lo + 2.944438979) < 1e-6 and abs(hi - 2.944438979) < 1e-6
    # Equal engines: the mean is 0.5, so the LLR leans to H0 when elo1 > elo0.
    assert llr([10, 20, 40, 20, 10], 0, 5) < 0
    # A clearly better engine leans to H1, and more pairs lean further.
    a = llr([5, 15, 40, 25, 15], 0, 5)
    b = llr([50, 150, 400, 250, 150], 0, 5)
    assert 0 < a < b and 9 * a < b < 11 * a
    # By hand: penta [0,0,1,1,0] → mean game score 0.625; the variance with
    # half a pair of prior per cell: cells 0.5, 0.5, 1.5, 1.5, 0.5 (4.5 pairs),
    # their mean (0.125 + 0.75 + 1.125 + 0.5) / 4.5 = 5/9, variance
    # Σ c (x − 5/9)² / 4.5; s0 = 0.5, s1 = expected_score(5).
    m = 5 / 9
    xs, cs = [0, 0.25, 0.5, 0.75, 1], [0.5, 0.5, 1.5, 1.5, 0.5]
    var = sum(c * (x - m) ** 2 for c, x in zip(cs, xs)) / 4.5
    s1 = expected_score(5)
    want = 2 * (s1 - 0.5) * (1.25 - 0.5 - s1) / (2 * var)
    assert abs(llr([0, 0, 1, 1, 0], 0, 5) - want) < 1e-12
    # 100 pairs scoring 63.75 % a game: +98 Elo, and an interval of ±20–60.
    elo, err = elo_interval([5, 10, 30, 35, 20])
    assert abs(elo - 400 * math.log10(0.6375 / 0.3625)) < 1e-9 and 20 < err < 60, (elo, err)
    # A simulated match between engines 20 Elo apart is accepted at [0, 5]
    # and one between equal engines is rejected, most of the time.
    rng = random.Random(7)

    def simulate(elo):
        p_win = expected_score(elo) - 0.2  # draws 40 %, mean as given
        penta = [0] * 5
        while True:
            pair = 0
            for _ in range(2):
                r = rng.random()
                pair += 2 if r < p_win else 1 if r < p_win + 0.4 else 0
            penta[pair] += 1
            v = llr(penta, 0, 5)
            if v >= hi:
                return True
            if v <= lo:
                return False

    accepted = sum(simulate(20) for _ in range(40))
    rejected = sum(not simulate(0) for _ in range(40))
    assert accepted >= 36 and rejected >= 36, (accepted, rejected)
    print("sprt.py selftest: ok (%d/40 accepted at +20, %d/40 rejected at 0)" % (accepted, rejected))


# ---------------------------------------------------------------- openings


def read_openings(chess, seed, count):
    lines = []
    with open(OPENINGS, encoding="utf-8") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            board = chess.Board()
            moves = []
            try:
                for tok in row["pgn"].split():
                    if tok.endswith("."):
                        continue
                    mv = board.parse_san(tok)
                    moves.append(mv)
                    board.push(mv)
            except ValueError:
                continue
            if 6 <= len(moves) <= 16 and not board.is_game_over():
                lines.append((row["eco"] + " " + row["name_en"], moves))
    random.Random(seed).shuffle(lines)
    return lines[:count] if count else lines


# ---------------------------------------------------------------- games


class Player:
    """One engine process, kept for many games."""

    def __init__(self, chess, cmd, name, options=None, xboard=False):
        self.chess = chess
        self.cmd = cmd
        self.name = name
        self.options = options or {}
        self.xboard = xboard
        self.eng = None
        self.start()

    def start(self):
        se = self.chess.engine.SimpleEngine
        popen = se.popen_xboard if self.xboard else se.popen_uci
        eng = popen(shlex.split(self.cmd))
        opts = {}
        for k, v in (("OwnBook", False), ("Hash", 16), ("Threads", 1)):
            if k in eng.options:
                opts[k] = v
        opts.update(self.options)
        eng.configure(opts)
        self.eng = eng

    def restart(self):
        try:
            self.eng.quit()
        except Exception:
            try:
                self.eng.close()
            except Exception:
                pass
        self.start()

    def quit(self):
        try:
            self.eng.quit()
        except Exception:
            pass


def play_game(chess, white, black, opening, args):
    """One game; returns (result "1-0"/"0-1"/"1/2-1/2", reason, board)."""
    board = chess.Board()
    for mv in opening:
        board.push(mv)
    players = {chess.WHITE: white, chess.BLACK: black}
    clock = {chess.WHITE: args.tc_base, chess.BLACK: args.tc_base}
    scores = []  # White's view, cp (mates as ±100000)
    game_id = object()  # a new game object: python-chess sends ucinewgame
    while True:
        outcome = board.outcome(claim_draw=True)
        if outcome is not None:
            return outcome.result(), outcome.termination.name.lower(), board
        side = board.turn
        p = players[side]
        if args.nodes:
            limit = chess.engine.Limit(nodes=args.nodes)
        else:
            limit = chess.engine.Limit(
                white_clock=clock[chess.WHITE],
                black_clock=clock[chess.BLACK],
                white_inc=args.inc,
                black_inc=args.inc,
            )
        t0 = time.monotonic()
        try:
            res = p.eng.play(board, limit, info=chess.engine.INFO_SCORE, game=game_id)
        except (chess.engine.EngineError, chess.engine.EngineTerminatedError) as e:
            p.restart()
            return ("0-1" if side else "1-0"), "crash or illegal move by %s: %s" % (p.name, e), board
        if not args.nodes:
            clock[side] -= time.monotonic() - t0
            if clock[side] < 0:
                return ("0-1" if side else "1-0"), "time forfeit by %s" % p.name, board
            clock[side] += args.inc
        if res.move is None or res.move not in board.legal_moves:
            return ("0-1" if side else "1-0"), "no legal move from %s" % p.name, board
        sc = res.info.get("score")
        if sc is not None:
            scores.append(sc.white().score(mate_score=100000))
        else:
            scores.append(None)
        board.push(res.move)
        last = scores[-8:]
        if len(last) >= 8 and None not in last:
            if all(s >= 1000 for s in last):
                return "1-0", "adjudicated win", board
            if all(s <= -1000 for s in last):
                return "0-1", "adjudicated win", board
            if board.ply() >= 80 and all(abs(s) <= 10 for s in last):
                return "1/2-1/2", "adjudicated draw", board


def is_problem(reason):
    """Whether a game's end is an engine's fault (a crash, an illegal or
    missing move, a lost time), to be counted and printed."""
    return "crash" in reason or "forfeit" in reason or "no legal" in reason


def score_of(result, new_is_white):
    if result == "1/2-1/2":
        return 1
    white_won = result == "1-0"
    return 2 if white_won == new_is_white else 0


def pgn_text(chess, board, opening_name, white, black, result, reason, rnd):
    game = chess.pgn.Game.from_board(board)
    game.headers["Event"] = "sprt.py"
    game.headers["Round"] = str(rnd)
    game.headers["White"] = white
    game.headers["Black"] = black
    game.headers["Result"] = result
    game.headers["Opening"] = opening_name
    game.headers["Termination"] = reason
    return str(game) + "\n\n"


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "selftest":
        selftest()
        return 0
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--new", required=True, help="the changed engine's command line")
    ap.add_argument("--base", required=True, help="the engine it is compared with")
    ap.add_argument("--nodes", type=int, help="go nodes N for every move")
    ap.add_argument("--tc", default="10+0.1", help="BASE+INC seconds (without --nodes)")
    ap.add_argument("--elo0", type=float, default=0.0)
    ap.add_argument("--elo1", type=float, default=5.0)
    ap.add_argument("--alpha", type=float, default=0.05)
    ap.add_argument("--beta", type=float, default=0.05)
    ap.add_argument("--concurrency", type=int, default=2)
    ap.add_argument("--max-pairs", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--pgn")
    ap.add_argument("--log", help="Markdown file the result row is appended to")
    ap.add_argument("--name", default="", help="what the change is, for the log")
    ap.add_argument(
        "--resume",
        help="the pentanomial counts of the same test stopped earlier (five numbers, as its "
        "log row gives them): the test goes on from there (use another --seed for new openings)",
    )
    args = ap.parse_args()
    tc_base, _, inc = args.tc.partition("+")
    args.tc_base, args.inc = float(tc_base), float(inc or 0)

    import chess
    import chess.engine
    import chess.pgn

    openings = read_openings(chess, args.seed, 0)
    lo, hi = bounds(args.alpha, args.beta)
    penta = [0] * 5
    if args.resume:
        penta = [int(x) for x in args.resume.replace(",", " ").split()]
        if len(penta) != 5 or min(penta) < 0:
            ap.error("--resume takes five counts of pairs, e.g. \"141 484 811 549 160\"")
    wdl = [0, 0, 0]
    problems = []
    lock = threading.Lock()
    state = {"next": 0, "done": None}
    pgn = open(args.pgn, "a", encoding="utf-8") if args.pgn else None
    started = time.monotonic()

    def worker(wid):
        new = Player(chess, args.new, "new")
        old = Player(chess, args.base, "base")
        try:
            while True:
                with lock:
                    if state["done"] or state["next"] >= args.max_pairs:
                        return
                    k = state["next"]
                    state["next"] += 1
                name, opening = openings[k % len(openings)]
                pair = 0
                for new_white in (True, False):
                    w, b = (new, old) if new_white else (old, new)
                    result, reason, board = play_game(chess, w, b, opening, args)
                    s = score_of(result, new_white)
                    pair += s
                    with lock:
                        wdl[{2: 0, 1: 1, 0: 2}[s]] += 1
                        if is_problem(reason):
                            problems.append(reason)
                        if pgn:
                            pgn.write(pgn_text(chess, board, name, w.name, b.name, result, reason, k + 1))
                with lock:
                    penta[pair] += 1
                    v = llr(penta, args.elo0, args.elo1)
                    n = sum(penta)
                    if n % 20 == 0 or v >= hi or v <= lo:
                        elo, err = elo_interval(penta)
                        print(
                            "pairs %d  W %d D %d L %d  penta %s  Elo %+.1f ± %.1f  LLR %.2f [%.2f, %.2f]  %.0f s"
                            % (n, *wdl, penta, elo, err, v, lo, hi, time.monotonic() - started),
                            flush=True,
                        )
                    if state["done"] is None:
                        if v >= hi:
                            state["done"] = "H1 accepted"
                        elif v <= lo:
                            state["done"] = "H0 accepted (rejected)"
        finally:
            new.quit()
            old.quit()

    def stop_by_hand(signum, frame):
        # SIGTERM or Ctrl-C: finish the pairs being played, then write the
        # row as undecided, so a test stopped for time still leaves its line.
        with lock:
            if state["done"] is None:
                state["done"] = "stopped by hand after %d pairs, undecided" % sum(penta)

    signal.signal(signal.SIGTERM, stop_by_hand)
    signal.signal(signal.SIGINT, stop_by_hand)
    with cf.ThreadPoolExecutor(args.concurrency) as ex:
        for f in [ex.submit(worker, i) for i in range(args.concurrency)]:
            f.result()
    if pgn:
        pgn.close()
    verdict = state["done"] or "undecided after %d pairs" % sum(penta)
    if args.resume:
        verdict += " (resumed from pentanomial %s; W-D-L are the resumed games only)" % args.resume
    elo, err = elo_interval(penta)
    v = llr(penta, args.elo0, args.elo1)
    games = 2 * sum(penta)
    limit = "%d nodes" % args.nodes if args.nodes else args.tc
    print(
        "%s: %d games, W %d D %d L %d, penta %s, Elo %+.1f ± %.1f, LLR %.2f (%.2f, %.2f), %s"
        % (verdict, games, *wdl, penta, elo, err, v, lo, hi, "problems: %s" % problems if problems else "no problems")
    )
    if args.log:
        new_file = not os.path.exists(args.log)
        with open(args.log, "a", encoding="utf-8") as f:
            if new_file:
                f.write(
                    "| date | change | limit | bounds | games | W-D-L | pentanomial | Elo ± 95 % | LLR | verdict |\n"
                    "|---|---|---|---|---|---|---|---|---|---|\n"
                )
            f.write(
                "| %s | %s | %s | [%g, %g] α=β=%g | %d | %d-%d-%d | %s | %+.1f ± %.1f | %.2f | %s |\n"
                % (
                    time.strftime("%Y-%m-%d", time.gmtime()),
                    args.name,
                    limit,
                    args.elo0,
                    args.elo1,
                    args.alpha,
                    games,
                    *wdl,
                    " ".join(map(str, penta)),
                    elo,
                    err,
                    v,
                    verdict,
                )
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
