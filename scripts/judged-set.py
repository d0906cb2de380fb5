#!/usr/bin/env python3
"""The judged set of issue 54: games between two human-strength players,
judged by Stockfish, and escaque's marks compared with the judge's.

python-chess (`bash scripts/python-chess.sh`) and Debian's Stockfish
(`bash scripts/stockfish.sh`, /usr/games/stockfish) are all it needs.

  play OUT.pgn N [--seed S] [--engine PATH]
      N games between two Stockfish with UCI_LimitStrength, UCI_Elo 1350 and
      1500 (which one has White alternates), each game opened by two to four
      uniformly random legal plies, then 20 ms a move (Threads 1, Hash 16),
      to mate, a draw on the board (fifty moves, threefold repetition,
      insufficient material, stalemate) or 300 plies. Random from S (0 by
      default), so the same S makes the same openings; the engines' 20 ms
      moves depend on the machine's speed, so a second run is a new set.

  judge GAMES.pgn OUT.jsonl [NODES]
      scripts/analysis-reference.py's `evals` at 100,000 nodes by default:
      one line per game, every position's evaluation (White's view).

  compare GAMES.pgn JUDGE.jsonl ANNOTATED.pgn
      scripts/analysis-reference.py's `compare`: the judge's marks by
      lichess's winning-chance method (wc(cp) = 2/(1+exp(-0.00368208 cp)) - 1
      from the mover's side, a drop >= 0.3 `??`, >= 0.2 `?`, >= 0.1 `?!`;
      moves with a mate score on either side by lila's mate rules) against
      the NAGs of ANNOTATED.pgn (`escaque analizar GAMES.pgn -o
      ANNOTATED.pgn`), and then the same without any move whose position
      before or after has a mate score (the moves "set apart").

  remark GAMES.pgn JUDGE.jsonl OURS.jsonl [--depth D] [--deeper-mean]
         [--scale S] [--opening-scale S] [--verdict LOW:HIGH]
      What-if marks for studying the TUNING set (never the held-out ones):
      the JSON lines of the example `judged_set` (its per-depth evaluations)
      marked again with escaque's winning-chance constant and compared with
      the judge over the moves without a mate score (`??` precision and
      recall, marks within one grade). Without options, the evaluations
      escaque judged on. --depth D: every position's first-look evaluation
      at depth D instead (a run at depth >= D, e.g. `16+0`); --deeper-mean:
      a position looked at again takes the mean of that look's last two
      depths; --scale S: every centipawn times S; --opening-scale S: those
      of the first 10 plies times S; --verdict LOW:HIGH: a third look only
      for the moves whose loss after the second look lies in [LOW, HIGH],
      from a run whose third look had a band at least as wide (the
      example's fifth argument VDEPTH:LOW:HIGH).
"""
import importlib.util
import json
import os
import random
import sys

import chess
import chess.engine
import chess.pgn

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location(
    "analysis_reference", os.path.join(HERE, "analysis-reference.py"))
ref = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ref)

ELOS = (1350, 1500)
MOVE_TIME = 0.020
MAX_PLIES = 300


def limited(path, elo):
    eng = chess.engine.SimpleEngine.popen_uci(path)
    eng.configure({"Threads": 1, "Hash": 16, "UCI_LimitStrength": True, "UCI_Elo": elo})
    return eng


def play(out, n, seed=0, engine="/usr/games/stockfish"):
    rng = random.Random(seed)
    players = {elo: limited(engine, elo) for elo in ELOS}
    with open(out, "w", encoding="utf-8") as f:
        for i in range(n):
            white, black = (ELOS if i % 2 == 0 else ELOS[::-1])
            board = chess.Board()
            for _ in range(rng.randint(2, 4)):
                board.push(rng.choice(list(board.legal_moves)))
            while not board.is_game_over(claim_draw=True) and board.ply() < MAX_PLIES:
                eng = players[white if board.turn == chess.WHITE else black]
                board.push(eng.play(board, chess.engine.Limit(time=MOVE_TIME)).move)
            g = chess.pgn.Game.from_board(board)
            g.headers["Event"] = "judged set (issue 54)"
            g.headers["Site"] = "?"
            g.headers["Round"] = str(i + 1)
            g.headers["White"] = f"Stockfish UCI_Elo {white}"
            g.headers["Black"] = f"Stockfish UCI_Elo {black}"
            g.headers["Result"] = board.result(claim_draw=True) \
                if board.is_game_over(claim_draw=True) else "*"
            print(g, file=f, end="\n\n")
            print("game", i, board.ply(), g.headers["Result"], flush=True)
    for eng in players.values():
        eng.quit()


def compare(pgn, judge, annotated):
    ref.compare(pgn, judge, annotated)
    # The same without the moves that have a mate score before or after.
    reference = ref.read_reference(judge)
    games = list(ref.read_games(pgn))
    ours = list(ref.read_games(annotated))
    truth, pred = [], []
    for i, (g, a) in enumerate(zip(games, ours)):
        if i not in reference:
            continue
        rows = reference[i]
        marks = ref.reference_marks(g, rows, 0.00368208)
        nodes = list(a.mainline())
        for ply in range(len(marks)):
            if rows[ply][1] is not None or rows[ply + 1][1] is not None:
                continue
            truth.append(marks[ply])
            nags = nodes[ply].nags if ply < len(nodes) else set()
            got = [ref.MARK_OF_NAG[x] for x in nags if x in ref.MARK_OF_NAG]
            pred.append(got[0] if got else None)
    print(f"\nwithout the moves with a mate score: {len(truth)} moves")
    ref.report(truth, pred, "escaque")
    grades = {None: 0, "inaccuracy": 1, "mistake": 2, "blunder": 3}
    near = sum(1 for x, y in zip(truth, pred) if abs(grades[x] - grades[y]) <= 1)
    print(f"every mark within one grade: {near}/{len(truth)} = "
          f"{100 * near / len(truth) if truth else float('nan'):.1f} %")


def remark(pgn, judge, ours, depth=None, deeper_mean=False, scale=1.0,
           opening_scale=1.0, verdict=None):
    k = 1.5765 / 400  # escaque's judge::WIN_CHANCE_K
    reference = ref.read_reference(judge)
    mine = {}
    with open(ours) as f:
        for line in f:
            if line.strip():
                r = json.loads(line)
                mine[r["game"]] = r
    truth, pred = [], []
    looks = cpu = count = 0
    for i, g in enumerate(ref.read_games(pgn)):
        if i not in reference or i not in mine:
            continue
        rows, rec = reference[i], mine[i]
        if verdict is not None:
            sim = verdict_marks(rec, verdict, k)
            looks += sim[1]
            cpu += rec.get("verdict_cpu", 0.0)
            count += rec.get("verdicts", 0)
        evals = []
        for j, row in enumerate(rec["judged"]):
            row = [row[0], row[1], None]
            by_first = {d: (c, m) for d, c, m in (rec["first_depths"][j] or [])}
            by_deeper = [(d, c, m) for d, c, m in (rec["deeper_depths"][j] or [])]
            if verdict is not None:
                row = [sim[0][j][0], sim[0][j][1], None]
            elif depth is not None and depth in by_first:
                row = [by_first[depth][0], by_first[depth][1], None]
            elif (deeper_mean and row[1] is None and len(by_deeper) >= 2
                  and by_deeper[-1][2] is None and by_deeper[-2][2] is None):
                row = [(by_deeper[-1][1] + by_deeper[-2][1]) / 2, None, None]
            if row[0] is not None:
                row[0] *= scale * (opening_scale if j < 10 else 1.0)
            evals.append(row)
        theirs = ref.reference_marks(g, rows, 0.00368208)
        ours_marks = ref.reference_marks(g, evals, k)
        for ply in range(len(theirs)):
            if rows[ply][1] is not None or rows[ply + 1][1] is not None:
                continue
            truth.append(theirs[ply])
            pred.append(ours_marks[ply])
    print(f"{len(truth)} moves without a mate score")
    if verdict is not None:
        per = cpu / count if count else float("nan")
        print(f"third looks: {looks} positions in the band {verdict} "
              f"(the run made {count}, {per:.2f} CPU s each)")
    ref.report(truth, pred, "escaque")
    grades = {None: 0, "inaccuracy": 1, "mistake": 2, "blunder": 3}
    near = sum(1 for x, y in zip(truth, pred) if abs(grades[x] - grades[y]) <= 1)
    print(f"every mark within one grade: {near}/{len(truth)} = "
          f"{100 * near / len(truth) if truth else float('nan'):.1f} %")


def verdict_marks(rec, band, k):
    """The evaluations a third look in `band` (low, high) would judge on:
    each position's evaluation before the third look (its second look's,
    else its first) and, at both positions of every move whose loss of
    winning chances lies in the band (no mate on either side), the run's
    third-look evaluation. Returns (rows, positions looked at)."""
    import math

    def wc(cp):
        return 2 / (1 + math.exp(-k * cp)) - 1

    def pick(r):
        return None if r is None else [r[0], r[1]]

    pre = []
    for j, first in enumerate(rec["evals"]):
        d = rec.get("deeper_evals", [None] * len(rec["evals"]))[j]
        pre.append(pick(d) if d is not None else [first[0], first[1]])
    # Positions with no legal move keep what the run judged them.
    for j, r in enumerate(rec["judged"]):
        if r[0] is None or rec["evals"][j][2] is None:
            pre[j] = [r[0], r[1]]
    looked = set()
    for i in range(1, len(pre)):
        b, a = pre[i - 1], pre[i]
        if b[0] is None or a[0] is None:
            continue
        lost = wc(b[0]) - wc(a[0])
        if i % 2 == 0:  # Black moved (the start is White to move in these sets)
            lost = -lost
        if band[0] <= lost <= band[1]:
            looked.update((i - 1, i))
    out = []
    for j, p in enumerate(pre):
        v = rec.get("verdict_evals", [None] * len(pre))[j]
        out.append(pick(v) if j in looked and v is not None else p)
    return out, len(looked)


def main():
    args = sys.argv[1:]
    flags = {}
    for name in ("--deeper-mean",):
        if name in args:
            flags[name] = True
            args.remove(name)
    opts = {}
    for name in ("--seed", "--engine", "--depth", "--scale", "--opening-scale", "--verdict"):
        if name in args:
            at = args.index(name)
            opts[name] = args[at + 1]
            del args[at:at + 2]
    if len(args) == 3 and args[0] == "play":
        play(args[1], int(args[2]), int(opts.get("--seed", 0)),
             opts.get("--engine", "/usr/games/stockfish"))
    elif len(args) in (3, 4) and args[0] == "judge":
        ref.evals(args[1], args[2], int(args[3]) if len(args) > 3 else 100_000)
    elif len(args) == 4 and args[0] == "compare":
        compare(args[1], args[2], args[3])
    elif len(args) == 4 and args[0] == "remark":
        remark(args[1], args[2], args[3],
               int(opts["--depth"]) if "--depth" in opts else None,
               flags.get("--deeper-mean", False),
               float(opts.get("--scale", 1.0)), float(opts.get("--opening-scale", 1.0)),
               tuple(float(x) for x in opts["--verdict"].split(":"))
               if "--verdict" in opts else None)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
