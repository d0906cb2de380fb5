-- The games of online tournaments: which game is played on which board of
-- which round (stored with the round's pairing, in one transaction).
CREATE TABLE tournament_games (
    tournament TEXT NOT NULL,
    round BIGINT NOT NULL,
    board BIGINT NOT NULL,
    game TEXT NOT NULL,
    PRIMARY KEY (tournament, round, board)
);

CREATE UNIQUE INDEX tournament_games_game ON tournament_games (game);
