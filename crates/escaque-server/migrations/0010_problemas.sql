-- Problemas: the puzzle trainer (issue 56).
--
-- puzzles: every puzzle the trainer can serve, as lichess's puzzle CSV
-- holds it (fen before the opponent's move, moves in UCI from that move,
-- themes and opening tags space-separated lichess keys), with its
-- Glicko-2 rating as the trainer changes it. source: `shipped` (the
-- generator's set embedded in the binary), `mates` (the children's mates
-- proved by the rules library, kid = 1) or `game` (found in a game of
-- this server when it was analysed: game_id and game_ply, the ply of the
-- opponent's move from 0). Loaded on start: a puzzle already here is
-- kept as it is (its rating and plays), a new one in a bigger set added.
CREATE TABLE IF NOT EXISTS puzzles (
    id TEXT PRIMARY KEY,
    fen TEXT NOT NULL,
    moves TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    plays BIGINT NOT NULL DEFAULT 0,
    themes TEXT NOT NULL,
    game_url TEXT NOT NULL,
    opening_tags TEXT NOT NULL,
    source TEXT NOT NULL,
    kid BIGINT NOT NULL DEFAULT 0,
    game_id TEXT,
    game_ply BIGINT);

CREATE INDEX IF NOT EXISTS puzzles_rating ON puzzles (kid, rating);

-- A solver's puzzle rating (identity key `u:ID` or `g:ID`), its streak
-- (current and best) and how many rated attempts changed it.
CREATE TABLE IF NOT EXISTS puzzle_players (
    owner TEXT PRIMARY KEY,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    rated BIGINT NOT NULL DEFAULT 0,
    streak BIGINT NOT NULL DEFAULT 0,
    best_streak BIGINT NOT NULL DEFAULT 0,
    updated_ms BIGINT NOT NULL);

-- Every puzzle served: one attempt. mode `rating`, `racha` (streak) or
-- `cola` (the player's own queue). Answered once: answered_ms set, the
-- moves played (UCI, space-separated), the time the player took, the
-- hints asked, whether the solution was shown, the result (1 solved,
-- 0 failed) and, when it was rated, the player's rating before and after.
CREATE TABLE IF NOT EXISTS puzzle_attempts (
    id TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    puzzle TEXT NOT NULL,
    mode TEXT NOT NULL,
    served_ms BIGINT NOT NULL,
    answered_ms BIGINT,
    moves TEXT NOT NULL DEFAULT '',
    time_ms BIGINT,
    hints BIGINT NOT NULL DEFAULT 0,
    solution_seen BIGINT NOT NULL DEFAULT 0,
    solved BIGINT,
    rating_before DOUBLE PRECISION,
    rating_after DOUBLE PRECISION);

CREATE INDEX IF NOT EXISTS puzzle_attempts_owner ON puzzle_attempts (owner, served_ms);

-- A player's own queue: puzzles from their analysed games and puzzles
-- they missed, each due at due_ms; step counts the returns (a miss comes
-- back after 1, 3, 7 and 21 days).
CREATE TABLE IF NOT EXISTS puzzle_queue (
    owner TEXT NOT NULL,
    puzzle TEXT NOT NULL,
    due_ms BIGINT NOT NULL,
    step BIGINT NOT NULL DEFAULT 0,
    added_ms BIGINT NOT NULL,
    PRIMARY KEY (owner, puzzle));

CREATE INDEX IF NOT EXISTS puzzle_queue_due ON puzzle_queue (owner, due_ms)
