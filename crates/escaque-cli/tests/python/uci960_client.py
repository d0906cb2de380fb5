#!/usr/bin/env python3
"""Plays Chess960 games against `escaque uci` through python-chess's UCI
client (chess.engine), as a GUI would: python-chess sets UCI_Chess960, sends
X-FEN positions with the moves played, reads castling as king-takes-rook and
refuses any illegal move the engine sends (chess.engine.EngineError). Then
one search after a null move on python-chess's board (python-chess 1.11.2
does not send `0000` in the move list: it logs "Not transmitting history with
null moves" and sends the position's FEN; escaque's own UCI tests send
`0000`).

Usage: uci960_client.py PATH_TO_ESCAQUE [GAMES] [SEED]
Prints one line of JSON with what was played; exits non-zero on a failure.
"""
import json
import random
import sys

import chess
import chess.engine


def main() -> int:
    binary = sys.argv[1]
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 6
    rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 960)
    engine = chess.engine.SimpleEngine.popen_uci([binary, "uci"])
    if "UCI_Chess960" not in engine.options:
        print("escaque does not offer UCI_Chess960", file=sys.stderr)
        return 1
    plies = castles = 0
    numbers = []
    try:
        for _ in range(games):
            n = rng.randrange(960)
            numbers.append(n)
            board = chess.Board.from_chess960_pos(n)
            while not board.is_game_over(claim_draw=True) and board.ply() < 60:
                result = engine.play(board, chess.engine.Limit(depth=3))
                move = result.move
                if move is None or move not in board.legal_moves:
                    print(f"illegal or no move {move} in {board.fen()}", file=sys.stderr)
                    return 1
                castles += board.is_castling(move)
                board.push(move)
                plies += 1
            # The game's final position, as both sides see it.
            if not board.is_valid():
                print(f"invalid board {board.fen()}", file=sys.stderr)
                return 1
        # A null move on the client's board (sent as a FEN, see above).
        board = chess.Board.from_chess960_pos(numbers[0])
        board.push(next(iter(board.legal_moves)))
        board.push(chess.Move.null())
        result = engine.play(board, chess.engine.Limit(depth=2))
        if result.move not in board.legal_moves:
            print(f"after a null move: {result.move} in {board.fen()}", file=sys.stderr)
            return 1
    finally:
        engine.quit()
    print(json.dumps({"games": games, "numbers": numbers, "plies": plies, "castles": castles}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
