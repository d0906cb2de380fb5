#!/usr/bin/env python3
"""Perft counts of the 960 Chess960 starting positions, by number.

The numbering and the FEN come from python-chess (chess.Board.from_chess960_pos,
Scharnagl's numbering); the counts from Stockfish (`go perft`, UCI_Chess960).
Output lines: number, Shredder-FEN, perft 1..DEPTH.
"""
import subprocess, sys
import chess

DEPTH = int(sys.argv[1]) if len(sys.argv) > 1 else 4
sf = subprocess.Popen(["/usr/games/stockfish"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
def send(s): sf.stdin.write(s + "\n")
send("uci"); send("setoption name UCI_Chess960 value true"); send("isready")
while sf.stdout.readline().strip() != "readyok": pass
ver = None
print(f"# Chess960 starting positions 0-959: number, Shredder-FEN, perft 1..{DEPTH}")
for n in range(960):
    b = chess.Board.from_chess960_pos(n)
    fen = b.shredder_fen()
    counts = []
    for d in range(1, DEPTH + 1):
        send(f"position fen {fen}"); send(f"go perft {d}")
        while True:
            line = sf.stdout.readline().strip()
            if line.startswith("Nodes searched:"):
                counts.append(int(line.split(":")[1])); break
    print(n, fen, *counts, sep=";")
send("quit")
