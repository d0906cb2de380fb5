# Hand-written Spanish-notation games and, beside each, the same game in English
# SAN written by hand; python-chess replays the English to give the expected FEN.
import chess, chess.pgn, io
games = [
 # (tags, spanish movetext, english movetext)
 ('[Event "Partida de la Ópera"]\n[Site "París"]\n[Date "1858.??.??"]\n[White "Paul Morphy"]\n[Black "Duque de Brunswick y Conde Isouard"]\n[Result "1-0"]\n',
  '1.e4 e5 2.Cf3 d6 3.d4 Ag4 {Una jugada dudosa.} 4.dxe5 Axf3 5.Dxf3 dxe5 6.Ac4 Cf6 7.Db3 De7 8.Cc3 c6 9.Ag5 b5 10.Cxb5! cxb5 11.Axb5+ Cbd7 12.0-0-0 Td8 13.Txd7! Txd7 14.Td1 De6 15.Axd7+ Cxd7 16.Db8+!! Cxb8 17.Td8# 1-0',
  '1.e4 e5 2.Nf3 d6 3.d4 Bg4 4.dxe5 Bxf3 5.Qxf3 dxe5 6.Bc4 Nf6 7.Qb3 Qe7 8.Nc3 c6 9.Bg5 b5 10.Nxb5 cxb5 11.Bxb5+ Nbd7 12.O-O-O Rd8 13.Rxd7 Rxd7 14.Rd1 Qe6 15.Bxd7+ Nxd7 16.Qb8+ Nxb8 17.Rd8# 1-0'),
 ('[Event "Lección de notación: coronación"]\n[SetUp "1"]\n[FEN "8/5P1k/8/6K1/8/8/8/8 w - - 0 1"]\n[Result "*"]\n',
  '1.f8=T!! {Si 1.f8=D?? es ahogado.} (1.f8D?? ) Rg7 2.Tf1 *',
  '1.f8=R Kg7 2.Rf1 *'),
 ('[Event "Lección de notación: al paso"]\n[SetUp "1"]\n[FEN "4k3/5p2/8/4P3/8/8/8/4K3 b - - 0 1"]\n[Result "*"]\n',
  '1...f5 2.exf6 a.p. Rf7 *',
  '1...f5 2.exf6 Kf7 *'),
 ('[Event "Notación tolerante"]\n[White "Blancas"]\n[Black "Negras"]\n[Result "1/2-1/2"]\n',
  '1. e2-e4 e7-e5 2. Cg1-f3 Cb8-c6 3. Af1-b5 a6 4. Ab5:c6 d:c6 5. o-o f6 6. d4 exd4 7. C:d4 c5 8. Cb3 D:d1 9. T:d1 Ag4 10. f3 Ae6 11. Cc3 Ad6 12. Ae3 b6 13. a4 0-0-0 ½-½',
  '1.e4 e5 2.Nf3 Nc6 3.Bb5 a6 4.Bxc6 dxc6 5.O-O f6 6.d4 exd4 7.Nxd4 c5 8.Nb3 Qxd1 9.Rxd1 Bg4 10.f3 Be6 11.Nc3 Bd6 12.Be3 b6 13.a4 O-O-O 1/2-1/2'),
 ('[Event "Coronación y figuras"]\n[SetUp "1"]\n[FEN "8/P6k/8/8/8/8/1p5K/8 w - - 0 1"]\n[Result "*"]\n',
  '1. a8(D) b1D 2. ♕b7+ Rg6 3. Dxb1+ Rf6 4. Db2+ Re6 *',
  '1.a8=Q b1=Q 2.Qb7+ Kg6 3.Qxb1+ Kf6 4.Qb2+ Ke6 *'),
 ('[Event "Mate del pastor, con variantes"]\n[Result "1-0"]\n',
  '1. e4 e5 2. Ac4 (2. Dh5 Cc6 3. Ac4 g6) 2... Cc6 3. Dh5 Cf6?? {Pierde.} (3... g6! 4. Df3 Cf6) 4. Dxf7# 1-0',
  '1.e4 e5 2.Bc4 Nc6 3.Qh5 Nf6 4.Qxf7# 1-0'),
]
pgn = []
fens = []
for tags, es, en in games:
    pgn.append(tags + "\n" + es + "\n")
    g = chess.pgn.read_game(io.StringIO(tags + "\n" + en + "\n"))
    assert not g.errors, g.errors
    b = g.end().board()
    fens.append("%s\t%d" % (b.fen(en_passant="fen"), b.ply() - g.board().ply()))
open("espanol_manual.pgn", "w").write("\n".join(pgn))
open("espanol_manual.fen", "w").write("\n".join(fens) + "\n")
print("\n".join(fens))
