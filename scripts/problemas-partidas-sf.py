#!/usr/bin/env python3
"""Games for the puzzle generator (issue 56) played here by Debian's
Stockfish 15.1 at human strengths: both sides with UCI_LimitStrength, each
side's UCI_Elo drawn from [MIN_ELO, MAX_ELO] (Stockfish 15.1 accepts 1350 at
the least), NODES nodes a move (the weakened choice is made at depth 1 + the
skill level, 1 to 5 here, well inside 20,000 nodes). Weakened Stockfish
blunders as club players do (a piece left hanging, a mate in two missed),
which is where puzzles come from; escaque's own engine at its gentle levels
blunders far less often (issue 56: 28 candidates in 100 games).

The games are written here, by this script, so the project may publish
them and the puzzles found in them. Stockfish's weakened choice draws from
its own clock-seeded generator, so a seed fixes the strengths and the
games' names, not every move: the PGN written is the record.

Usage:
  bash scripts/stockfish.sh; pip install chess
  python3 scripts/problemas-partidas-sf.py GAMES SEED [--min-elo 1350]
      [--max-elo 1800] [--nodes 20000] [--engine /usr/games/stockfish] > partidas.pgn

Each game is printed as soon as it ends (a long run can be stopped at any
time). python-chess is only the harness that speaks UCI and writes PGN.
"""

import argparse
import random
import sys

import chess
import chess.engine
import chess.pgn


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("games", type=int)
    ap.add_argument("seed", type=int)
    ap.add_argument("--min-elo", type=int, default=1350)
    ap.add_argument("--max-elo", type=int, default=1800)
    ap.add_argument("--nodes", type=int, default=20000)
    ap.add_argument("--max-plies", type=int, default=200)
    ap.add_argument("--adjudicate", type=int, default=0,
                    help="end a game once both sides' searches saw the same side this many "
                         "centipawns up for 6 plies running (0: never); a decided game "
                         "gives no more candidates (lichess's generator skips a side "
                         "already 300 up) and its positions cost scan time")
    ap.add_argument("--engine", default="/usr/games/stockfish")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    engines = [chess.engine.SimpleEngine.popen_uci(a.engine) for _ in range(2)]
    try:
        for g in range(a.games):
            elos = [rng.randrange(a.min_elo, a.max_elo + 1, 10) for _ in range(2)]
            for e, elo in zip(engines, elos):
                e.configure({"UCI_LimitStrength": True, "UCI_Elo": elo, "Threads": 1, "Hash": 16})
            board = chess.Board()
            limit = chess.engine.Limit(nodes=a.nodes)
            run = 0
            adjudicated = None
            while not board.is_game_over(claim_draw=True) and board.ply() < a.max_plies:
                side = 0 if board.turn == chess.WHITE else 1
                r = engines[side].play(board, limit, game=("g", a.seed, g),
                                       info=chess.engine.INFO_SCORE)
                score = r.info.get("score")
                board.push(r.move)
                if a.adjudicate and score is not None:
                    w = score.white().score(mate_score=100000)
                    run = run + 1 if abs(w) >= a.adjudicate and (run == 0 or (w > 0) == last_sign) else (1 if abs(w) >= a.adjudicate else 0)
                    last_sign = w > 0
                    if run >= 6:
                        adjudicated = "1-0" if w > 0 else "0-1"
                        break
            game = chess.pgn.Game.from_board(board)
            game.headers["Event"] = "Stockfish 15.1 a fuerza humana"
            game.headers["Site"] = f"escaque partidas-sf {a.seed}/{g}"
            game.headers["Date"] = "????.??.??"
            game.headers["Round"] = str(g + 1)
            game.headers["White"] = f"Stockfish {elos[0]}"
            game.headers["Black"] = f"Stockfish {elos[1]}"
            game.headers["WhiteElo"] = str(elos[0])
            game.headers["BlackElo"] = str(elos[1])
            res = adjudicated or board.result(claim_draw=True)
            if adjudicated:
                game.headers["Termination"] = "adjudication"
            game.headers["Result"] = res
            print(game, end="\n\n", flush=True)
    finally:
        for e in engines:
            e.quit()


if __name__ == "__main__":
    sys.exit(main())
