#!/usr/bin/env python3
"""The reference for escaque's opening classification, computed independently
with python-chess (pip package `chess`), not with escaque.

The sample: the first 1,000 standard-chess games (no FEN / SetUp tag, no
Variant other than Standard) of three files already in escaque's PGN corpus
(crates/escaque/tests/data/pgn-corpus, sources and licences in its README):

  shakmaty__lichess_db_1000k.pgn.gz   lichess's open database, May 2025 (CC0)
  pgn-parser__twic-01-232games.pgn    The Week in Chess, over-the-board games
  pychess__world_matches.pgn.gz       world championship matches (Jan van
                                      Reek's ChessBase files, kept by pychess)

The classification, as lichess does it (scalachess OpeningDb): the positions
after 1 .. 40 plies of the main line, each as python-chess's EPD (en passant
square only when an en passant capture is legal); the deepest one that is the
final position of a row of lichess's chess-openings (a..e.tsv, shipped in
crates/escaque-analysis/data/lichess) names the game.

Output (stdout, tab-separated, a header line first): sample index, file,
game index in the file (0-based, every game counted), White, Black, plies of
the main line, eco, name (English), ply of the named position; eco, name and
ply are "-" when no position is named.

Usage: python3 scripts/openings_reference.py > crates/escaque-analysis/tests/data/openings_sample_reference.tsv
"""
import gzip
import os
import sys

import chess
import chess.pgn

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "crates", "escaque", "tests", "data", "pgn-corpus")
LICHESS = os.path.join(ROOT, "crates", "escaque-analysis", "data", "lichess")
FILES = [
    "shakmaty__lichess_db_1000k.pgn.gz",
    "pgn-parser__twic-01-232games.pgn",
    "pychess__world_matches.pgn.gz",
]
SAMPLE = 1000
SEARCH_MAX_PLIES = 40


def opening_index():
    by_epd = {}
    for part in "abcde":
        with open(os.path.join(LICHESS, part + ".tsv"), encoding="utf-8") as f:
            for line in f.read().split("\n")[1:]:
                if not line:
                    continue
                eco, name, pgn = line.split("\t")
                board = chess.Board()
                for token in pgn.split():
                    if token.endswith("."):
                        continue
                    board.push_san(token)
                by_epd.setdefault(board.epd(), (eco, name))
    return by_epd


def open_text(path):
    if path.endswith(".gz"):
        return gzip.open(path, "rt", encoding="utf-8", errors="replace")
    return open(path, encoding="utf-8", errors="replace")


def main():
    by_epd = opening_index()
    out = sys.stdout
    out.write("index\tfile\tgame\twhite\tblack\tplies\teco\tname\tply\n")
    n = 0
    for name in FILES:
        with open_text(os.path.join(CORPUS, name)) as f:
            game_no = -1
            while n < SAMPLE:
                game = chess.pgn.read_game(f)
                if game is None:
                    break
                game_no += 1
                h = game.headers
                if "FEN" in h or "SetUp" in h:
                    continue
                if h.get("Variant", "Standard").lower() not in ("standard", "chess"):
                    continue
                if game.errors:
                    continue
                board = game.board()
                found = None
                moves = list(game.mainline_moves())
                for ply, mv in enumerate(moves[:SEARCH_MAX_PLIES], start=1):
                    board.push(mv)
                    hit = by_epd.get(board.epd())
                    if hit:
                        found = (hit[0], hit[1], ply)
                eco, oname, oply = found if found else ("-", "-", "-")
                out.write("\t".join(str(x) for x in (
                    n, name, game_no, h.get("White", "?"), h.get("Black", "?"),
                    len(moves), eco, oname, oply)) + "\n")
                n += 1
    if n < SAMPLE:
        sys.exit("only %d games" % n)


if __name__ == "__main__":
    main()
