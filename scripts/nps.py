#!/usr/bin/env python3
"""Speed of UCI engines on `escaque bench`'s positions, side by side (issue 29).

    python3 scripts/nps.py [--depth 11] [--rounds 5] ENGINE_CMD...

Each engine searches the twelve positions of `escaque bench`
(crates/escaque-cli/src/bench_cmd.rs, read from the source so the two stay
one list) to a fixed depth, one position after another on one thread, Hash
16, after `ucinewgame`; the engines take turns, round after round, so a
change in the machine's load falls on all of them alike. Printed: each
round's nodes and nodes a second, then each engine's median and its ratio to
the first engine's.

A change meant only to be faster must search the same tree: the script says
so when the engines' node counts differ (they then are not comparable by
nodes a second alone). Run it on an otherwise idle machine.
"""
import argparse
import os
import re
import shlex
import subprocess
import sys
import time

BENCH = os.path.join(os.path.dirname(__file__), "..", "crates", "escaque-cli", "src", "bench_cmd.rs")


def bench_fens():
    fens = []
    with open(BENCH, encoding="utf-8") as f:
        for line in f:
            m = re.match(r'\s*"([^"]+/[^"]+)",\s*$', line)
            if m:
                fens.append(m.group(1))
    if not fens:
        sys.exit(f"no positions found in {BENCH}")
    return fens


def run(cmd, fens, depth):
    p = subprocess.Popen(shlex.split(cmd), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(s):
        p.stdin.write(s + "\n")
        p.stdin.flush()

    def wait_for(word):
        while True:
            line = p.stdout.readline()
            if not line:
                sys.exit(f"{cmd}: the engine stopped before '{word}'")
            if line.startswith(word):
                return line

    send("uci")
    wait_for("uciok")
    send("setoption name Hash value 16")
    send("setoption name Threads value 1")
    total, seconds = 0, 0.0
    for fen in fens:
        send("ucinewgame")
        send("position fen " + fen)
        send("isready")
        wait_for("readyok")
        start = time.perf_counter()
        send(f"go depth {depth}")
        nodes = 0
        while True:
            line = p.stdout.readline()
            if not line:
                sys.exit(f"{cmd}: the engine stopped during a search")
            m = re.search(r"\bnodes (\d+)", line)
            if m:
                nodes = int(m.group(1))
            if line.startswith("bestmove"):
                break
        seconds += time.perf_counter() - start
        total += nodes
    send("quit")
    p.wait()
    return total, seconds


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--depth", type=int, default=11)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("engines", nargs="+")
    a = ap.parse_args()
    fens = bench_fens()
    speeds = {e: [] for e in a.engines}
    nodes = {}
    for r in range(a.rounds):
        for e in a.engines:
            n, s = run(e, fens, a.depth)
            nodes.setdefault(e, n)
            speeds[e].append(n / s)
            print(f"round {r + 1}  {e}: {n} nodes, {n / s:,.0f} nodes/s", flush=True)
    first = None
    for e in a.engines:
        v = sorted(speeds[e])
        med = v[len(v) // 2]
        first = first or med
        print(f"{e}: median {med:,.0f} nodes/s (×{med / first:.3f}), {nodes[e]} nodes")
    if len(set(nodes.values())) > 1:
        print("the node counts differ: the engines do not search the same tree")


if __name__ == "__main__":
    main()
