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
"""
import importlib.util
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


def main():
    args = sys.argv[1:]
    opts = {}
    for name in ("--seed", "--engine"):
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
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
