#!/usr/bin/env python3
"""Reference data for escaque's Polyglot book reader, made with python-chess.

Reads a Polyglot book (by default Debian's public-domain gnuchess book,
/usr/share/games/gnuchess/book.bin, package gnuchess-book) with python-chess
and writes, for a fixed set of positions, what python-chess finds there:

    FEN <tab> key (16 hex digits) <tab> entries

where entries is a space-separated list of `raw:weight:learn:move`, in the
book's order: `raw` the 16-bit move as stored (4 hex digits), `move`
python-chess's reading of it in that position (UCI, castling as the king's
move e1g1) or `-` when python-chess finds it illegal there (its `find_all`
skips those). Every entry of the key is listed, weight 0 included.

The positions (deterministic: a fixed random seed):
  * every position of 300 random walks through the book from the start
    (a move chosen uniformly among the book's legal moves, until the book
    has none or 30 plies);
  * every position of the first 20 games of
    crates/escaque/benches/data/stockfish_1000.pgn (mostly out of book: the
    keys still have to agree);
  * a few hand-made positions for the en passant rule of the key (a pawn
    beside the double-stepped pawn, even a pinned one, puts the en passant
    file in the key; a pawn elsewhere does not) and for castling rights.

Usage: python3 scripts/polyglot_reference.py [BOOK] > \
    crates/escaque-engine/tests/data/gnuchess_book_reference.tsv
"""
import random
import sys

import chess
import chess.pgn
import chess.polyglot

BOOK = sys.argv[1] if len(sys.argv) > 1 else "/usr/share/games/gnuchess/book.bin"
GAMES = "crates/escaque/benches/data/stockfish_1000.pgn"

HAND = [
    # Black's d-pawn stepped; White's e5 pawn beside it: the file counts.
    "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2",
    # A double step with no pawn beside it: the file does not count.
    "rnbqkbnr/pppp1ppp/8/8/4p3/8/PPPPPPPP/RNBQKBNR w KQkq - 0 2",
    "rnbqkbnr/ppp1pppp/8/3p4/8/8/PPPPPPPP/RNBQKBNR w KQkq d6 0 2",
    # The capturing pawn is pinned (the capture is illegal): still counts.
    "8/8/8/2k5/3Pp3/8/8/4KQ2 b - d3 0 1",
    "4k3/8/8/8/3pP3/8/8/4KR2 b - e3 0 1",
    "8/8/8/KPp4r/8/8/8/4k3 w - c6 0 1",
    # Castling rights one by one.
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R w Kq - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R b Qk - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R b - - 0 1",
]


def entries(reader, board):
    out = []
    key = chess.polyglot.zobrist_hash(board)
    legal = {
        (e.raw_move, e.weight, e.learn): e.move
        for e in reader.find_all(board, minimum_weight=0)
    }
    for e in reader.find_all(key, minimum_weight=0):
        mv = legal.get((e.raw_move, e.weight, e.learn))
        out.append(f"{e.raw_move:04x}:{e.weight}:{e.learn}:{mv.uci() if mv else '-'}")
    return key, out


def main():
    rng = random.Random(27)
    seen = {}
    order = []

    def record(board):
        fen = board.fen()
        if fen not in seen:
            seen[fen] = True
            order.append(fen)

    with chess.polyglot.open_reader(BOOK) as reader:
        for _ in range(300):
            board = chess.Board()
            for _ply in range(30):
                record(board)
                moves = [e.move for e in reader.find_all(board)]
                if not moves:
                    break
                board.push(rng.choice(moves))
            record(board)
        with open(GAMES) as f:
            for _ in range(20):
                game = chess.pgn.read_game(f)
                if game is None:
                    break
                board = game.board()
                record(board)
                for mv in game.mainline_moves():
                    board.push(mv)
                    record(board)
        for fen in HAND:
            record(chess.Board(fen))
        print(f"# made by scripts/polyglot_reference.py with python-chess {chess.__version__} "
              f"from {BOOK}; {len(order)} positions")
        for fen in order:
            key, es = entries(reader, chess.Board(fen))
            print(f"{fen}\t{key:016x}\t{' '.join(es)}")


if __name__ == "__main__":
    main()
