# 1,000 Stockfish 15.1 self-play games (Debian package), exported by python-chess,
# for the PGN reading benchmark. Seeded; 8 random opening plies for variety.
import random, chess, chess.pgn, chess.engine
random.seed(1000)
eng = chess.engine.SimpleEngine.popen_uci("/tmp/debs/sf/usr/games/stockfish")
eng.configure({"Threads": 1, "Hash": 16})
with open("stockfish_1000.pgn", "w") as f:
    for i in range(1000):
        board = chess.Board()
        game = chess.pgn.Game()
        game.headers["Event"] = "escaque bench: Stockfish 15.1 self-play"
        game.headers["Site"] = "localhost"
        game.headers["Date"] = "2026.11.22"
        game.headers["Round"] = str(i + 1)
        game.headers["White"] = "Stockfish 15.1"
        game.headers["Black"] = "Stockfish 15.1"
        node = game
        for ply in range(300):
            if board.is_game_over(claim_draw=True):
                break
            if ply < 8:
                move = random.choice(list(board.legal_moves))
            else:
                move = eng.play(board, chess.engine.Limit(nodes=200)).move
            node = node.add_main_variation(move)
            board.push(move)
        r = board.result(claim_draw=True)
        game.headers["Result"] = r if r != "*" else "1/2-1/2"
        print(game.accept(chess.pgn.StringExporter(columns=80)), file=f, end="\n\n")
eng.quit()
