# Generates engine self-play games with python-chess and Stockfish 15.1 (Debian),
# exported by python-chess: clock and eval comments, NAGs, PV variations.
import random, chess, chess.pgn, chess.engine
random.seed(2026)
eng = chess.engine.SimpleEngine.popen_uci("/tmp/debs/sf/usr/games/stockfish")
games = []
for i in range(60):
    board = chess.Board()
    game = chess.pgn.Game()
    game.headers["Event"] = "escaque test data: Stockfish 15.1 self-play"
    game.headers["Site"] = "localhost"
    game.headers["Date"] = "2026.11.22"
    game.headers["Round"] = str(i + 1)
    game.headers["White"] = "Stockfish 15.1"
    game.headers["Black"] = "Stockfish 15.1"
    game.headers["TimeControl"] = "180+2"
    node = game
    clocks = [180.0, 180.0]
    for ply in range(400):
        if board.is_game_over(claim_draw=True):
            break
        if ply < 6:
            move = random.choice(list(board.legal_moves))
            info = None
        else:
            res = eng.play(board, chess.engine.Limit(nodes=3000), info=chess.engine.INFO_SCORE | chess.engine.INFO_PV)
            move, info = res.move, res.info
        side = 0 if board.turn == chess.WHITE else 1
        clocks[side] = max(0.0, clocks[side] - random.uniform(0.5, 9.0) + 2)
        if info and "pv" in info and len(info["pv"]) > 3 and random.random() < 0.08:
            # An alternative line from the same position: the engine's PV after a different move.
            alts = [m for m in board.legal_moves if m != move]
            if alts:
                alt = random.choice(alts)
                var = node.add_variation(alt)
                var.comment = "alternativa"
                b2 = board.copy(); b2.push(alt)
                for m in list(eng.play(b2, chess.engine.Limit(nodes=500), info=chess.engine.INFO_PV).info.get("pv", []))[:4]:
                    if m in b2.legal_moves:
                        var = var.add_main_variation(m); b2.push(m)
        node = node.add_main_variation(move)
        node.set_clock(round(clocks[side], 1) if random.random() < 0.2 else round(clocks[side]))
        if info and "score" in info:
            node.set_eval(info["score"])
        if random.random() < 0.05:
            node.nags.add(random.choice([1, 2, 3, 4, 5, 6, 14, 18]))
        if random.random() < 0.03:
            node.comment += " una jugada interesante"
        board.push(move)
    game.headers["Result"] = board.result(claim_draw=True)
    if board.result(claim_draw=True) == "*":
        game.headers["Result"] = "1/2-1/2"
    games.append(game)
eng.quit()
with open("stockfish_selfplay.pgn", "w") as f:
    for g in games:
        print(g, file=f, end="\n\n")
