"""What python-chess 1.11.2 reads in each file of pgn-corpus/: one line per
game it yields, tab-separated (or `CRASH` and the exception's type where
read_game raised one, which ends that file): the Variant tag (or -), the Result tag (or -),
the half-moves of the main line, the final FEN (en passant square after every
double step, as escaque writes it), `ok` or `errors` (python-chess keeps
going after an error and records it in game.errors), the moves of the main
line in UCI with castling written as the king taking its own rook (`e1h1`,
so that chess and Chess960 read alike; `0000` for a null move), then one
column per tag, `Name=value`, in python-chess's order (in a value, a
backslash, a tab and a line end are written as two characters each: a
backslash, then a backslash, `t` or `n`).

Run from crates/escaque/tests/data:  python3 generate/corpus_python_chess.py
It writes pgn-corpus/python-chess/NAME.tsv for every pgn-corpus/NAME.pgn,
and NAME.tsv.gz for every NAME.pgn.gz (the larger files are kept gzipped, and
read as the file they hold).
"""
import glob
import gzip
import io
import os

import chess
import chess.pgn

def esc(v):
    return v.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")


for path in sorted(glob.glob("pgn-corpus/*.pgn") + glob.glob("pgn-corpus/*.pgn.gz")):
    raw = open(path, "rb").read()
    if path.endswith(".gz"):
        raw = gzip.decompress(raw)
    data = raw.decode("utf-8", errors="replace")
    if data.startswith("\ufeff"):
        data = data[1:]
    f = io.StringIO(data)
    out = []
    while True:
        try:
            g = chess.pgn.read_game(f)
        except Exception as e:  # python-chess itself fails: the rest is not read
            out.append("CRASH\t%s" % type(e).__name__)
            break
        if g is None:
            break
        try:
            b = g.end().board()
            fen = b.fen(en_passant="fen")
            plies = b.ply() - g.board().ply()
            board = g.board()
            uci = []
            for m in g.mainline_moves():
                if not m:
                    uci.append("0000")
                elif board.is_castling(m):
                    uci.append(board._to_chess960(m).uci())
                else:
                    uci.append(m.uci())
                board.push(m)
        except Exception as e:  # a variant board python-chess cannot replay
            fen, plies, uci = "-", 0, []
        out.append("\t".join([
            g.headers.get("Variant", "-") or "-",
            g.headers.get("Result", "-") or "-",
            str(plies),
            fen,
            "errors" if g.errors else "ok",
            " ".join(uci),
        ] + ["%s=%s" % (k, esc(v)) for k, v in g.headers.items()]))
    name = os.path.basename(path).split(".pgn")[0]
    text = "".join(l + "\n" for l in out).encode("utf-8")
    if path.endswith(".gz"):  # a large file's table is kept gzipped as well
        with open("pgn-corpus/python-chess/%s.tsv.gz" % name, "wb") as o:
            o.write(gzip.compress(text, 9, mtime=0))
    else:
        with open("pgn-corpus/python-chess/%s.tsv" % name, "wb") as o:
            o.write(text)
    print(path, len(out))
