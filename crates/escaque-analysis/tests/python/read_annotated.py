"""Reads annotated PGN on standard input with python-chess's PGN reader and
prints, per game, one JSON object: the main line's moves in UCI, and per move
its evaluation (`node.eval()`, White's point of view: "+35", "#-3" or null),
its NAGs, its comment and its variations (UCI moves). Any error the reader
records makes the script fail."""

import json
import sys

import chess.pgn


def line(node):
    out = []
    while node.variations:
        node = node.variations[0]
        out.append(node.move.uci())
    return out


def main():
    games = []
    while True:
        game = chess.pgn.read_game(sys.stdin)
        if game is None:
            break
        if game.errors:
            print("errors: %r" % game.errors, file=sys.stderr)
            sys.exit(1)
        moves = []
        node = game
        while node.variations:
            parent = node
            node = node.variations[0]
            score = node.eval()
            moves.append({
                "uci": node.move.uci(),
                "eval": None if score is None else str(score.white()),
                "nags": sorted(node.nags),
                "comment": node.comment,
                "variations": [[v.move.uci()] + line(v) for v in parent.variations[1:]],
            })
        games.append({"headers": dict(game.headers), "moves": moves})
    print(json.dumps(games))


if __name__ == "__main__":
    main()
