#!/usr/bin/env python3
"""The analysis reference (issue 27): escaque's marks against Stockfish's.

Two steps, independent of escaque's code (python-chess is the PGN reader and
the UCI client; the judgement below is written here from lichess's published
method, not taken from escaque):

  evals GAMES.pgn OUT.jsonl [NODES] [ENGINE] [--from-end] [--games [A-]B]
      Evaluates every position of every game (the start and after each move)
      with a UCI engine at a fixed node budget (Stockfish at 1,000,000 nodes
      by default, Hash 64, Threads 1) and appends one JSON line per game:
      {"game": i, "evals": [[cp, mate, best_uci], ...]}, White's point of view
      (cp null when mate is set; a checkmate on the board is [null, 0, null],
      a draw on the board [0, null, null]). Resumable: games already in OUT
      are skipped, so a long run can be stopped and started again. The
      engine's hash is kept from one position to the next; with --from-end
      each game's positions are searched from its last back to its first
      (the rows still in the game's order); with --games N only the first N
      games are evaluated, with --games A-B games A to B − 1 (numbered from
      0), so that two runs can share the work.

  agree GAMES.pgn A.jsonl B.jsonl [K]
      Two `evals` runs of the same games against each other: A's marks as
      the truth, B's as the prediction, printed as `compare` prints them.
      How far the reference agrees with another, equally good run of itself
      (the same engine and nodes, the other order) bounds how far any other
      evaluator can be expected to agree with it.

  compare GAMES.pgn REF.jsonl ANNOTATED.pgn [K]
      Marks every move from the reference evaluations with lichess's method
      (winning chances 2/(1+exp(-K·cp))-1 with cp clamped to ±1000, K =
      0.00368208 by default; a move is ?! / ? / ?? when the mover loses
      ≥ 0.1 / 0.2 / 0.3 of them; mate-aware as lila's Advice: walking into a
      mate is ?? unless already lost by 7/10 pawns, losing a mate likewise,
      a slower mate never marked), reads escaque's marks from the NAGs of
      ANNOTATED.pgn (`escaque analizar GAMES.pgn -o ANNOTATED.pgn`; $6 ?!,
      $2 ?, $4 ??), and prints precision and recall of each mark with
      escaque's as the prediction and the reference's as the truth. Only
      games present in REF.jsonl are compared; a last line gives `??`
      within one grade (escaque's `??` the reference marks `?` or `??`, the
      reference's `??` escaque marks `?` or `??`). With SHOW=1 in the
      environment it first lists every move that either marks `?` or `??`,
      with both engines' evaluations (White's view, pawns) around it.
"""
import json
import math
import os
import sys

import chess
import chess.engine
import chess.pgn

NAG_OF = {"inaccuracy": 6, "mistake": 2, "blunder": 4}
MARK_OF_NAG = {v: k for k, v in NAG_OF.items()}
ORDER = ["inaccuracy", "mistake", "blunder"]


def read_games(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        while True:
            g = chess.pgn.read_game(f)
            if g is None:
                return
            yield g


def evals(pgn, out, nodes=1_000_000, engine="/usr/games/stockfish", from_end=False,
          games=None):
    done = set()
    if os.path.exists(out):
        with open(out) as f:
            done = {json.loads(line)["game"] for line in f if line.strip()}
    eng = chess.engine.SimpleEngine.popen_uci(engine)
    eng.configure({"Hash": 64, "Threads": 1})
    for i, g in enumerate(read_games(pgn)):
        if games is not None and i >= games[1]:
            break
        if i in done or (games is not None and i < games[0]):
            continue
        board = g.board()
        boards = [board.copy()]
        for m in g.mainline_moves():
            board.push(m)
            boards.append(board.copy())

        def one(b):
            if b.is_checkmate():
                return [None, 0, None]
            if b.is_game_over(claim_draw=False):
                return [0, None, None]
            r = eng.analyse(b, chess.engine.Limit(nodes=nodes))
            s = r["score"].white()
            pv = r.get("pv") or [None]
            return [s.score(), s.mate(), pv[0].uci() if pv[0] else None]

        # The engine's hash is kept from one position to the next, so the
        # order is part of the run: the game's order by default, or from its
        # last position back to the first (as `escaque analizar` and lichess
        # go), the rows written in the game's order either way.
        order = range(len(boards) - 1, -1, -1) if from_end else range(len(boards))
        rows = [None] * len(boards)
        for j in order:
            rows[j] = one(boards[j])
        with open(out, "a") as f:
            f.write(json.dumps({"game": i, "evals": rows}) + "\n")
        print("game", i, len(rows), flush=True)
    eng.quit()


def winning_chances(cp, k):
    cp = max(-1000, min(1000, cp))
    return 2 / (1 + math.exp(-k * cp)) - 1


def mark(before, after, white_moved, k):
    """lila's Advice from the mover's point of view; before/after are
    [cp, mate, best] rows, White's view."""
    sign = 1 if white_moved else -1
    b_cp, b_mate = before[0], before[1]
    a_cp, a_mate = after[0], after[1]
    if a_mate == 0:  # the move mated
        return None
    b_cp = None if b_cp is None else sign * b_cp
    a_cp = None if a_cp is None else sign * a_cp
    b_mate = None if b_mate is None else sign * b_mate
    a_mate = None if a_mate is None else sign * a_mate
    if b_cp is not None and a_cp is not None:
        delta = winning_chances(b_cp, k) - winning_chances(a_cp, k)
        for threshold, m in ((0.3, "blunder"), (0.2, "mistake"), (0.1, "inaccuracy")):
            if delta >= threshold:
                return m
        return None
    prev_cp = b_cp if b_cp is not None else 0
    next_cp = a_cp if a_cp is not None else 0
    if b_mate is None and a_mate is not None and a_mate < 0:  # mate created
        if prev_cp < -999:
            return "inaccuracy"
        if prev_cp < -700:
            return "mistake"
        return "blunder"
    if b_mate is not None and b_mate > 0 and (a_mate is None or a_mate < 0):  # mate lost
        if next_cp > 999:
            return "inaccuracy"
        if next_cp > 700:
            return "mistake"
        return "blunder"
    return None


def pawns(row):
    """A reference row as text: pawns or mate, White's view."""
    if row[1] is not None:
        return f"#{row[1]}"
    return f"{row[0] / 100:+.2f}"


def shown(score):
    """An [%eval] read by python-chess as text, White's view."""
    if score is None:
        return "?"
    w = score.white()
    return f"#{w.mate()}" if w.is_mate() else f"{w.score() / 100:+.2f}"


def read_reference(path):
    """{game number: rows} from an `evals` file."""
    reference = {}
    with open(path) as f:
        for line in f:
            if line.strip():
                r = json.loads(line)
                reference[r["game"]] = r["evals"]
    return reference


def reference_marks(g, rows, k):
    """The marks of every move of game `g` from its evaluation rows."""
    board = g.board()
    out = []
    for ply, m in enumerate(g.mainline_moves()):
        out.append(mark(rows[ply], rows[ply + 1], board.turn == chess.WHITE, k))
        board.push(m)
    return out


def agree(pgn, ref_a, ref_b, k=0.00368208):
    """Two evaluation runs of the same games against each other: the marks
    of A taken as the truth, B's as the prediction (how far the reference
    agrees with another run of itself). Only games both files hold."""
    a, b = read_reference(ref_a), read_reference(ref_b)
    truth, pred = [], []
    for i, g in enumerate(read_games(pgn)):
        if i in a and i in b:
            truth += reference_marks(g, a[i], k)
            pred += reference_marks(g, b[i], k)
    print(f"{len(set(a) & set(b))} games, {len(truth)} moves compared")
    report(truth, pred, "B")


def compare(pgn, ref, annotated, k=0.00368208):
    reference = read_reference(ref)
    games = list(read_games(pgn))
    ours = list(read_games(annotated))
    if len(ours) != len(games):
        sys.exit(f"{annotated}: {len(ours)} games, {pgn}: {len(games)}")
    show = os.environ.get("SHOW") == "1"
    truth, pred = [], []
    for i, (g, a) in enumerate(zip(games, ours)):
        if i not in reference:
            continue
        rows = reference[i]
        board = g.board()
        nodes = list(a.mainline())
        marks = reference_marks(g, rows, k)
        for ply, m in enumerate(g.mainline_moves()):
            truth.append(marks[ply])
            nags = nodes[ply].nags if ply < len(nodes) else set()
            got = [MARK_OF_NAG[n] for n in nags if n in MARK_OF_NAG]
            pred.append(got[0] if got else None)
            if show and {truth[-1], pred[-1]} & {"mistake", "blunder"}:
                print(f"game {i} ply {ply} {board.san(m)}: reference {truth[-1]} "
                      f"{pawns(rows[ply])} -> {pawns(rows[ply + 1])}, escaque {pred[-1]} "
                      f"{shown(nodes[ply - 1].eval() if ply > 0 else None)} -> "
                      f"{shown(nodes[ply].eval() if ply < len(nodes) else None)}")
            board.push(m)
    print(f"{len(reference)} games, {len(truth)} moves compared")
    report(truth, pred, "escaque")


def report(truth, pred, name):
    """Precision and recall of each mark, `pred` against `truth`."""
    print(f"mark        reference  {name:>7}  both  precision  recall")
    for m in ORDER + ["any"]:
        def is_m(x):
            return x is not None if m == "any" else x == m
        t = sum(1 for x in truth if is_m(x))
        p = sum(1 for x in pred if is_m(x))
        both = sum(1 for x, y in zip(truth, pred) if is_m(x) and is_m(y))
        prec = both / p if p else float("nan")
        rec = both / t if t else float("nan")
        print(f"{m:<11} {t:>9} {p:>8} {both:>5} {prec:>10.3f} {rec:>7.3f}")
    # Within one grade: a `??` of one side that the other marks `?` (a loss
    # of 0.2 to 0.3 winning chances against 0.3 or more) is a near miss,
    # not a disagreement about the move. Precision: escaque's `??` the
    # reference marks `?` or `??`; recall: the reference's `??` escaque
    # marks `?` or `??`.
    near = {"mistake", "blunder"}
    p_b = sum(1 for y in pred if y == "blunder")
    t_b = sum(1 for x in truth if x == "blunder")
    p_ok = sum(1 for x, y in zip(truth, pred) if y == "blunder" and x in near)
    t_ok = sum(1 for x, y in zip(truth, pred) if x == "blunder" and y in near)
    print(f"blunder, within one grade: precision {p_ok}/{p_b} = "
          f"{p_ok / p_b if p_b else float('nan'):.3f}, recall {t_ok}/{t_b} = "
          f"{t_ok / t_b if t_b else float('nan'):.3f}")


def main():
    args = sys.argv[1:]
    from_end = "--from-end" in args
    games = None
    if "--games" in args:
        at = args.index("--games")
        lo, _, hi = args[at + 1].rpartition("-")
        games = (int(lo or 0), int(hi))
        del args[at:at + 2]
    args = [a for a in args if a != "--from-end"]
    if len(args) >= 3 and args[0] == "evals":
        evals(args[1], args[2], *([int(args[3])] if len(args) > 3 else []),
              *args[4:5], from_end=from_end, games=games)
    elif len(args) >= 4 and args[0] == "agree":
        agree(args[1], args[2], args[3], *([float(args[4])] if len(args) > 4 else []))
    elif len(args) >= 4 and args[0] == "compare":
        compare(args[1], args[2], args[3], *([float(args[4])] if len(args) > 4 else []))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
