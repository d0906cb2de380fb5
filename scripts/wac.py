#!/usr/bin/env python3
"""Win at Chess (WAC): how many of its 300 positions an engine solves at a
fixed time a move (issue 29: "WAC ≥ 295 of 300 at one second").

    python3 scripts/wac.py --engine "target/release/escaque uci" \\
        [--epd testing/wac/wac.epd] [--movetime 1000] [--concurrency 1] \\
        [--threads 1] [--hash 64] [--only 1-150] [--log wac.txt]
    python3 scripts/wac.py selftest [--epd testing/wac/wac.epd]

Each position is searched from a new game (`ucinewgame`, then `position fen`
and `go movetime T`, through python-chess's UCI client); it is solved when
the engine's `bestmove` is one of the position's `bm` moves (or, for a
position with `am`, none of them). `--concurrency N` runs N engines at once,
each on its own position; on this 2-core machine one engine a core with
`Threads 1` keeps every search on a core of its own. The result is the count,
the ids of the positions missed with the move played and the move wanted,
and the run's settings.

`selftest` checks the data alone: 300 positions WAC.001 … WAC.300 in order,
every one a legal position, every `bm`/`am` move legal in it (python-chess
reads the EPD and the SAN), no position without a move to find.
"""
import argparse
import concurrent.futures as cf
import os
import shlex
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_EPD = os.path.join(HERE, "..", "testing", "wac", "wac.epd")


def read_suite(chess, path):
    """[(id, board, bm moves, am moves)] in the file's order; raises
    ValueError naming the line of anything python-chess refuses."""
    suite = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            board = chess.Board()
            try:
                ops = board.set_epd(line)
            except ValueError as e:
                raise ValueError(f"{path}:{n}: {e}") from e
            ident = ops.get("id")
            bm, am = ops.get("bm", []), ops.get("am", [])
            if not ident or not (bm or am):
                raise ValueError(f"{path}:{n}: a position needs an id and bm or am")
            suite.append((ident, board, list(bm), list(am)))
    return suite


def solved(move, bm, am):
    if bm and move not in bm:
        return False
    return not (am and move in am)


def selected(suite, only):
    if not only:
        return suite
    lo, _, hi = only.partition("-")
    lo, hi = int(lo), int(hi or lo)
    return suite[lo - 1:hi]


def run(args):
    import chess
    import chess.engine

    suite = selected(read_suite(chess, args.epd), args.only)
    local = threading.local()
    engines, lock = [], threading.Lock()

    def engine():
        eng = getattr(local, "engine", None)
        if eng is None:
            eng = chess.engine.SimpleEngine.popen_uci(shlex.split(args.engine))
            options = {"Threads": args.threads, "Hash": args.hash}
            eng.configure({k: v for k, v in options.items() if k in eng.options})
            local.engine = eng
            with lock:
                engines.append(eng)
        return eng

    def one(item):
        ident, board, bm, am = item
        result = engine().play(board, chess.engine.Limit(time=args.movetime / 1000),
                               game=object(), info=chess.engine.INFO_BASIC)
        return ident, board, bm, am, result.move, result.info.get("depth")

    start = time.time()
    missed, depths = [], []
    with cf.ThreadPoolExecutor(max_workers=args.concurrency) as pool:
        for ident, board, bm, am, move, depth in pool.map(one, suite):
            if depth is not None:
                depths.append(depth)
            if not solved(move, bm, am):
                want = " ".join(board.san(m) for m in bm) or "not " + " ".join(
                    board.san(m) for m in am)
                missed.append((ident, board.san(move) if move else "(none)", want))
    for eng in engines:
        eng.quit()
    wall = time.time() - start
    lines = [f"{ident}: played {got}, wanted {want}" for ident, got, want in missed]
    depths.sort()
    median = depths[len(depths) // 2] if depths else "?"
    lines.append(f"engine: {args.engine}; {os.path.relpath(args.epd)}; movetime "
                 f"{args.movetime} ms, Threads {args.threads}, Hash {args.hash}, "
                 f"{args.concurrency} at once; median depth {median}; {wall:.0f} s")
    lines.append(f"solved {len(suite) - len(missed)} of {len(suite)}")
    text = "\n".join(lines)
    print(text)
    if args.log:
        with open(args.log, "w") as f:
            f.write(text + "\n")


def selftest(args):
    import chess

    suite = read_suite(chess, args.epd)
    assert len(suite) == 300, len(suite)
    for i, (ident, board, bm, am) in enumerate(suite, 1):
        assert ident == f"WAC.{i:03d}", (i, ident)
        assert board.is_valid(), ident
        for m in bm + am:
            assert board.is_legal(m), (ident, m)
    # The judge: a bm position wants one of its moves; an am one any other.
    a, b, c = (chess.Move.from_uci(u) for u in ("e2e4", "d2d4", "g1f3"))
    assert solved(a, [a, b], []) and not solved(c, [a, b], [])
    assert solved(c, [], [a]) and not solved(a, [], [a])
    assert len(selected(suite, "1-150")) == 150 and selected(suite, "7")[0][0] == "WAC.007"
    print(f"wac.py selftest: {len(suite)} positions, every move legal")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("command", nargs="?", choices=["run", "selftest"], default="run")
    p.add_argument("--engine", default="target/release/escaque uci")
    p.add_argument("--epd", default=DEFAULT_EPD)
    p.add_argument("--movetime", type=int, default=1000, help="milliseconds a position")
    p.add_argument("--concurrency", type=int, default=1)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--hash", type=int, default=64)
    p.add_argument("--only", help="positions FROM-TO (1-based), or one number")
    p.add_argument("--log", help="also write the result to this file")
    args = p.parse_args()
    if args.command == "selftest":
        selftest(args)
    else:
        run(args)


if __name__ == "__main__":
    sys.exit(main())
