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
      --correction FILE:KIND: escaque's evaluations corrected by a fit of
      `fit` (KIND `phase` or `linear`) before they are marked.

  fit GAMES.pgn JUDGE.jsonl OUT.json OURS.jsonl[@FIRST] ...
      Two analysis-only corrections of escaque's evaluation fitted to the
      judge's winning chances (TUNING set only), each position without a
      mate score weighing the same: `phase`, one scale of escaque's
      centipawns for each band of non-pawn material (a logistic fit of
      escaque's score to Stockfish's winning chances by game phase), and
      `linear`, escaque's winning chances plus linear terms (material
      differences, bishop pair, winning chances times phase). OURS are runs
      of the example `judged_set` (@FIRST: the game number its first line is
      in GAMES, 0 by default). Prints each fitted on one half of the games
      and marked on the other (and the reverse), then fits on all of them
      and writes OUT.json for `remark --correction`.
"""
import importlib.util
import json
import math
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
           opening_scale=1.0, verdict=None, correction=None):
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
        facts = position_facts(g) if correction is not None else None
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
                if correction is not None:
                    row[0] = corrected(row[0], facts[j], *correction)
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


# ------------------------------------------------------------ corrections

KL = 0.00368208  # lichess's constant, Stockfish's centipawns
KE = 1.5765 / 400  # escaque's judge::WIN_CHANCE_K
# Bands of non-pawn material (knight and bishop 3, rook 5, queen 9, both
# sides: 62 at the start) for the `phase` correction.
PHASE_BANDS = ((0, 14), (15, 30), (31, 46), (47, 62))
LINEAR_TERMS = ("pawns", "knights", "bishops", "rooks", "queens", "bishop pair",
                "wc x phase", "wc x (1 - phase)", "wc x |wc|")


def position_facts(g):
    """(non-pawn material, [the linear terms' material differences]) of
    every position of game `g`, the start first; differences White's."""
    values = {chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9}
    board = g.board()
    out = []
    moves = list(g.mainline_moves())
    for j in range(len(moves) + 1):
        phase = sum(len(board.pieces(p, c)) * v for p, v in values.items()
                    for c in (chess.WHITE, chess.BLACK))
        diff = [(len(board.pieces(p, chess.WHITE)) - len(board.pieces(p, chess.BLACK))) / 4
                for p in (chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN)]
        pair = ((len(board.pieces(chess.BISHOP, chess.WHITE)) >= 2)
                - (len(board.pieces(chess.BISHOP, chess.BLACK)) >= 2))
        out.append((phase, diff + [pair]))
        if j < len(moves):
            board.push(moves[j])
    return out


def band_of(phase):
    for b, (lo, hi) in enumerate(PHASE_BANDS):
        if lo <= phase <= hi:
            return b
    return len(PHASE_BANDS) - 1


def linear_terms(w, facts):
    phase = min(facts[0], 62) / 62
    return facts[1] + [w * phase, w * (1 - phase), w * abs(w)]


def inverse_wc(w, k):
    w = max(-0.995, min(0.995, w))
    return math.log((1 + w) / (1 - w)) / k


def corrected(cp, facts, corr, kind):
    """escaque's centipawns (its scale, White's view) corrected by a fit of
    `fit`, still on escaque's scale."""
    if kind == "phase":
        return cp * corr["phase"][band_of(facts[0])]
    w = ref.winning_chances(cp, KE)
    w += sum(a * x for a, x in zip(corr["linear"], linear_terms(w, facts)))
    return inverse_wc(w, KE)


def load_runs(pgn, judge, runs):
    """[(game, judge rows, escaque's judged rows, position facts)] for the
    games both the judge and the runs hold; runs are `PATH[@FIRST]`."""
    reference = ref.read_reference(judge)
    mine = {}
    for r in runs:
        path, _, first = r.partition("@")
        with open(path) as f:
            for line in f:
                if line.strip():
                    rec = json.loads(line)
                    mine[rec["game"] + int(first or 0)] = rec["judged"]
    out = []
    for i, g in enumerate(ref.read_games(pgn)):
        if i in reference and i in mine:
            out.append((g, reference[i], mine[i], position_facts(g)))
    return out


def mark_runs(games, corr=None, kind=None):
    """The judge's and escaque's marks over the moves without a mate score
    in the judge's rows, escaque's evaluations corrected when asked."""
    truth, pred = [], []
    for g, rows, judged, facts in games:
        evals = []
        for j, r in enumerate(judged):
            cp = r[0]
            if cp is not None and r[1] is None and corr is not None:
                cp = corrected(cp, facts[j], corr, kind)
            evals.append([cp, r[1], None])
        theirs = ref.reference_marks(g, rows, KL)
        ours = ref.reference_marks(g, evals, KE)
        for ply in range(len(theirs)):
            if rows[ply][1] is None and rows[ply + 1][1] is None:
                truth.append(theirs[ply])
                pred.append(ours[ply])
    return truth, pred


def summary(truth, pred):
    tb = sum(1 for x in truth if x == "blunder")
    pb = sum(1 for y in pred if y == "blunder")
    both = sum(1 for x, y in zip(truth, pred) if x == y == "blunder")
    grades = {None: 0, "inaccuracy": 1, "mistake": 2, "blunder": 3}
    near = sum(1 for x, y in zip(truth, pred) if abs(grades[x] - grades[y]) <= 1)
    return (f"?? precision {both}/{pb} = {both / pb if pb else float('nan'):.3f}, "
            f"recall {both}/{tb} = {both / tb if tb else float('nan'):.3f}, within one "
            f"grade {100 * near / len(truth) if truth else float('nan'):.1f} % of {len(truth)}")


def fit_corrections(games):
    """Both corrections fitted by least squares on winning chances over the
    positions without a mate score on either side."""
    samples = []
    for g, rows, judged, facts in games:
        for j, r in enumerate(judged):
            if r[0] is not None and r[1] is None and rows[j][1] is None:
                samples.append((r[0], ref.winning_chances(rows[j][0], KL), facts[j]))
    grid = [x / 100 for x in range(50, 201)]

    def best_scale(sub):
        return min(grid, key=lambda s: sum((ref.winning_chances(cp * s, KE) - t) ** 2
                                           for cp, t, _ in sub))
    overall = best_scale(samples)
    phase = []
    for b in range(len(PHASE_BANDS)):
        sub = [x for x in samples if band_of(x[2][0]) == b]
        phase.append(best_scale(sub) if len(sub) >= 30 else overall)
    a, y = [], []
    for cp, t, facts in samples:
        w = ref.winning_chances(cp, KE)
        a.append(linear_terms(w, facts))
        y.append(t - w)
    return {"phase": phase, "phase_bands": PHASE_BANDS, "linear": ridge(a, y),
            "linear_terms": LINEAR_TERMS, "positions": len(samples)}


def ridge(a, y, lam=1e-3):
    """Least squares with a small ridge (Gauss-Jordan on the normal equations)."""
    n = len(a[0]) if a else 0
    m = [[sum(r[i] * r[j] for r in a) + (lam * len(a) if i == j else 0) for j in range(n)]
         for i in range(n)]
    v = [sum(r[i] * t for r, t in zip(a, y)) for i in range(n)]
    for c in range(n):
        piv = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[piv], v[c], v[piv] = m[piv], m[c], v[piv], v[c]
        for r in range(n):
            if r != c and m[c][c]:
                f = m[r][c] / m[c][c]
                m[r] = [x - f * z for x, z in zip(m[r], m[c])]
                v[r] -= f * v[c]
    return [v[i] / m[i][i] if m[i][i] else 0.0 for i in range(n)]


def fit(pgn, judge, out, runs):
    games = load_runs(pgn, judge, runs)
    half = len(games) // 2
    parts = (games[:half], games[half:])
    print(f"{len(games)} games; two-fold: the first {half} and the other {len(games) - half}")
    for h in (0, 1):
        train, test = parts[h], parts[1 - h]
        corr = fit_corrections(train)
        print(f"fitted on part {h}: phase {corr['phase']}, linear "
              + " ".join(f"{x:+.3f}" for x in corr["linear"]))
        print(f"  part {1 - h}, as run:  {summary(*mark_runs(test))}")
        for kind in ("phase", "linear"):
            print(f"  part {1 - h}, {kind:<7} {summary(*mark_runs(test, corr, kind))}")
    corr = fit_corrections(games)
    print(f"fitted on all: phase {corr['phase']}, linear "
          + " ".join(f"{x:+.3f}" for x in corr["linear"]))
    print(f"  all, as run:  {summary(*mark_runs(games))}")
    for kind in ("phase", "linear"):
        print(f"  all, {kind:<7} {summary(*mark_runs(games, corr, kind))}")
    with open(out, "w") as f:
        json.dump(corr, f, indent=1)


def read_correction(spec):
    """`FILE:KIND` of `remark --correction`: (the fit, `phase` or `linear`)."""
    path, _, kind = spec.rpartition(":")
    if kind not in ("phase", "linear") or not path:
        sys.exit(f"--correction {spec}: FILE:phase or FILE:linear")
    with open(path) as f:
        return json.load(f), kind


def main():
    args = sys.argv[1:]
    flags = {}
    for name in ("--deeper-mean",):
        if name in args:
            flags[name] = True
            args.remove(name)
    opts = {}
    for name in ("--seed", "--engine", "--depth", "--scale", "--opening-scale", "--verdict",
                 "--correction"):
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
               if "--verdict" in opts else None,
               read_correction(opts["--correction"]) if "--correction" in opts else None)
    elif len(args) >= 5 and args[0] == "fit":
        fit(args[1], args[2], args[3], args[4:])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
