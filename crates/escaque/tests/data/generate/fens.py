import chess.pgn, sys
for name in sys.argv[1:]:
    f=open(name, encoding="utf-8-sig")
    out=[]
    while True:
        g=chess.pgn.read_game(f)
        if g is None: break
        assert not g.errors, (name, g.errors)
        b=g.end().board()
        out.append("%s\t%d" % (b.fen(en_passant="fen"), b.ply() - g.board().ply()))
    open(name.replace(".pgn",".fen"),"w").write("\n".join(out)+"\n")
    print(name, len(out))
