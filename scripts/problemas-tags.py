#!/usr/bin/env python3
"""Tag agreement between escaque's tagger and lichess's (issue 56).

lichess's tagger is lichess-puzzler's tagger/cook.py, fetched OUTSIDE the
project (git clone https://github.com/ornicar/lichess-puzzler
/work/ref/lichess-puzzler) and run here on the same puzzles with
python-chess. escaque's tags come from the example
`problemas_etiquetar` (every theme of cook.py, the same `cp` for both).

  python3 scripts/problemas-tags.py segments PGN OUT.csv [--n 400] [--seed 56]
      lines of real games in lichess's puzzle format: from a random
      position, the next 2, 4, 6 or 8 moves of the game (a broad test of
      the definitions, not puzzles)
  python3 scripts/problemas-tags.py compare ESCAQUE.csv [--puzzler DIR]
      cook.py on every puzzle of ESCAQUE.csv (cp = 1000 for both), compared
      with the Themes column: precision and recall over all tags, and per tag

Tags cook.py decides from cp (advantage, crushing, equality) are left out
of the comparison, as are those it does not make (the phase, zugzwang).
"""

import argparse
import collections
import csv
import random
import sys

import chess
import chess.pgn


def segments(a):
    rng = random.Random(a.seed)
    games = []
    with open(a.pgn) as f:
        while True:
            g = chess.pgn.read_game(f)
            if g is None:
                break
            moves = list(g.mainline_moves())
            if len(moves) >= 12:
                games.append((g.headers.get("Site", "?"), moves))
    rows = []
    seen = set()
    while len(rows) < a.n and games:
        site, moves = rng.choice(games)
        length = rng.choice([2, 4, 6, 8])
        if len(moves) < length + 2:
            continue
        start = rng.randrange(0, len(moves) - length)
        board = chess.Board()
        for m in moves[:start]:
            board.push(m)
        fen = board.fen()
        line = moves[start:start + length]
        b2 = board.copy()
        for m in line:
            b2.push(m)
        key = (fen, tuple(line))
        if key in seen:
            continue
        seen.add(key)
        pid = f"s{len(rows):04d}"
        rows.append([pid, fen, " ".join(m.uci() for m in line), 1500, 300, 0, 0, "", f"{site}#{start + 1}", ""])
    with open(a.out, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow("PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,OpeningTags".split(","))
        w.writerows(rows)
    print(f"{len(rows)} lines written to {a.out}")


SKIP = {"advantage", "crushing", "equality", "opening", "middlegame", "endgame", "zugzwang"}


def compare(a):
    sys.path.insert(0, f"{a.puzzler}/tagger")
    import cook  # noqa: E402
    from model import Puzzle  # noqa: E402
    from chess.pgn import Game  # noqa: E402

    tp = fp = fn = 0
    per = collections.defaultdict(lambda: [0, 0, 0])
    n = 0
    with open(a.csv, newline="") as f:
        for r in csv.DictReader(f):
            board = chess.Board(r["FEN"])
            node = Game.from_board(board)
            for u in r["Moves"].split():
                node = node.add_main_variation(chess.Move.from_uci(u))
            try:
                theirs = set(cook.cook(Puzzle(r["PuzzleId"], node.game(), 1000))) - SKIP
            except Exception as e:  # cook.py's own failures are counted apart
                print(f"{r['PuzzleId']}: cook.py failed: {e!r}", file=sys.stderr)
                continue
            ours = set(r["Themes"].split()) - SKIP
            n += 1
            for t in ours | theirs:
                if t in ours and t in theirs:
                    tp += 1
                    per[t][0] += 1
                elif t in ours:
                    fp += 1
                    per[t][1] += 1
                    if a.verbose:
                        print(f"{r['PuzzleId']}: escaque only {t}")
                else:
                    fn += 1
                    per[t][2] += 1
                    if a.verbose:
                        print(f"{r['PuzzleId']}: cook.py only {t}")
    prec = tp / (tp + fp) if tp + fp else 1.0
    rec = tp / (tp + fn) if tp + fn else 1.0
    print(f"{n} puzzles, {tp + fn} tags by cook.py, {tp + fp} by escaque: "
          f"precision {100 * prec:.1f} %, recall {100 * rec:.1f} %")
    for t, (a_, b_, c_) in sorted(per.items(), key=lambda x: -sum(x[1])):
        print(f"  {t:20s} both {a_:4d}  escaque only {b_:3d}  cook.py only {c_:3d}")


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("segments")
    s.add_argument("pgn")
    s.add_argument("out")
    s.add_argument("--n", type=int, default=400)
    s.add_argument("--seed", type=int, default=56)
    c = sub.add_parser("compare")
    c.add_argument("csv")
    c.add_argument("--puzzler", default="/work/ref/lichess-puzzler")
    c.add_argument("-v", "--verbose", action="store_true")
    a = ap.parse_args()
    segments(a) if a.cmd == "segments" else compare(a)


if __name__ == "__main__":
    main()
