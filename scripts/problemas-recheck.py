#!/usr/bin/env python3
"""Re-checks escaque's puzzles with Debian's Stockfish and lichess-puzzler's
criteria (issue 56): for each puzzle of a lichess-format CSV, at every
solver move Stockfish analyses the position with two lines (multipv 2) at
NODES nodes and the puzzle passes when

  * Stockfish's best move is the solution's move (or, on the last move,
    any move that mates, as lichess accepts), and
  * that move is the only good one: its winning chances beat the second
    line's by more than 0.7 (lichess's margin, with lichess's constant
    0.00368208 for Stockfish's centipawns), or it is a mate in one with no
    non-mating move above 0.6, or it is the only legal move;
  * and at the end the solver is at least +200 or mates.

Usage:
  bash scripts/stockfish.sh; pip install chess
  python3 scripts/problemas-recheck.py PUZZLES.csv [--nodes 10000000]
      [--sample N] [--seed 56] [--threads 1] [--engine /usr/games/stockfish]
      [--done RESULTS.tsv]

With --done, each verdict is appended to RESULTS.tsv (id, pass/fail, why)
as it is reached and puzzles already there are not analysed again, so a
long re-check can run alongside the generator and be resumed; the share
printed is over every puzzle of the (sampled) CSV that has a verdict.

Each puzzle is a new game for Stockfish (ucinewgame, an empty hash): with
the hash of the puzzles before, a second line's score depended on the order
(a mate in one's rival once scored +756 where a fresh search finds #-12).
Prints one line per failing puzzle and the share that passed. python-chess
is only the test harness here, as for the other reference scripts.
"""

import argparse
import csv
import math
import random
import sys

import chess
import chess.engine

K = 0.00368208


def wc(score):
    mate = score.mate()
    if mate is not None:
        return 1.0 if mate > 0 else -1.0
    cp = score.score()
    return 2 / (1 + math.exp(-K * cp)) - 1


def check(engine, fen, moves, nodes, game=None):
    board = chess.Board(fen)
    board.push_uci(moves[0])
    solver = board.turn
    limit = chess.engine.Limit(nodes=nodes)
    for i in range(1, len(moves), 2):
        expected = chess.Move.from_uci(moves[i])
        legal = list(board.legal_moves)
        if len(legal) == 1:
            if legal[0] != expected:
                return f"move {i}: only move is {legal[0]}"
        else:
            info = engine.analyse(board, limit, multipv=2, game=game)
            best = info[0]["pv"][0]
            bs = info[0]["score"].pov(solver)
            last = i == len(moves) - 1
            ok_move = best == expected
            if not ok_move and last:
                b2 = board.copy()
                b2.push(best)
                ok_move = b2.is_checkmate()
            if not ok_move:
                return f"move {i}: Stockfish plays {best} ({bs}), the solution {expected}"
            if len(info) > 1:
                ss = info[1]["score"].pov(solver)
                unique = wc(bs) > wc(ss) + 0.7
                if not unique and bs == chess.engine.Mate(1):
                    if ss == chess.engine.Mate(1):
                        # Several mates in one: the best non-mating move.
                        mates = 0
                        for m in legal:
                            board.push(m)
                            mates += board.is_checkmate()
                            board.pop()
                        more = engine.analyse(board, limit, multipv=mates + 1, game=game)
                        s = more[-1]["score"].pov(solver)
                        unique = (s < chess.engine.Mate(1)) and wc(s) <= 0.6
                    else:
                        unique = wc(ss) <= 0.6
                if not unique:
                    return f"move {i}: {best} ({bs}) not unique, second {info[1]['pv'][0]} ({ss})"
            if last and not board.gives_check(expected) and bs < chess.engine.Cp(200):
                return f"move {i}: ends at {bs}, under +200"
        board.push(expected)
        if i + 1 < len(moves):
            board.push_uci(moves[i + 1])
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("csv")
    ap.add_argument("--nodes", type=int, default=10_000_000)
    ap.add_argument("--sample", type=int, default=0)
    ap.add_argument("--seed", type=int, default=56)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--engine", default="/usr/games/stockfish")
    ap.add_argument("--done", default="")
    a = ap.parse_args()
    done = {}
    if a.done:
        try:
            with open(a.done) as f:
                for line in f:
                    parts = line.rstrip("\n").split("\t")
                    if len(parts) >= 2:
                        done[parts[0]] = None if parts[1] == "pass" else parts[2:]
        except FileNotFoundError:
            pass
    with open(a.csv, newline="") as f:
        rows = [r for r in csv.DictReader(f)]
    if a.sample and a.sample < len(rows):
        random.Random(a.seed).shuffle(rows)
        rows = rows[: a.sample]
    engine = chess.engine.SimpleEngine.popen_uci(a.engine, timeout=600)
    engine.configure({"Threads": a.threads, "Hash": 64})
    passed = 0
    for n, r in enumerate(rows, 1):
        if r["PuzzleId"] in done:
            why = done[r["PuzzleId"]]
            why = None if why is None else " ".join(why)
        else:
            # A new game for each puzzle (ucinewgame: an empty hash), so that
            # a verdict does not depend on the puzzles checked before it.
            why = check(engine, r["FEN"], r["Moves"].split(), a.nodes, game=r["PuzzleId"])
            if a.done:
                with open(a.done, "a") as f:
                    verdict = "pass" if why is None else "fail"
                    f.write(f"{r['PuzzleId']}\t{verdict}\t{why or ''}\n")
        if why is None:
            passed += 1
        else:
            print(f"{r['PuzzleId']}: {why}", flush=True)
        print(f"[{n}/{len(rows)}] passed {passed}", file=sys.stderr, flush=True)
    engine.quit()
    share = 100.0 * passed / len(rows) if rows else 0.0
    print(f"{passed} of {len(rows)} puzzles pass at {a.nodes} nodes ({share:.1f} %)")


if __name__ == "__main__":
    main()
