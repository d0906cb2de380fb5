-- Rated play, Chess960 and the sealed move online (issue 25).
--
-- games.variant: `standard` or `chess960` (a Chess960 game from any start
-- position, its moves stored in UCI with castling as the king taking its
-- rook, as the UCI_Chess960 option writes them).
ALTER TABLE games ADD COLUMN variant TEXT NOT NULL DEFAULT 'standard';

-- games.rated: 1 for a rated game. games.perf: the rating pool it counts
-- in (a time class id — bullet, blitz, rapid, classical — or chess960),
-- NULL for a casual game.
ALTER TABLE games ADD COLUMN rated BIGINT NOT NULL DEFAULT 0;

ALTER TABLE games ADD COLUMN perf TEXT;

-- Each side's rating when the game began (rounded), and what the game
-- changed it by once applied (NULL until then).
ALTER TABLE games ADD COLUMN white_rating BIGINT;

ALTER TABLE games ADD COLUMN black_rating BIGINT;

ALTER TABLE games ADD COLUMN white_rating_diff BIGINT;

ALTER TABLE games ADD COLUMN black_rating_diff BIGINT;

-- 1 once a finished rated game has changed its players' ratings (set in
-- the transaction that changes them: a process that dies before that
-- leaves 0, and the game is applied on the next start).
ALTER TABLE games ADD COLUMN rating_applied BIGINT NOT NULL DEFAULT 0;

-- The sealed move of an adjourned game (status `adjourned`): who sealed
-- (`white`/`black`) and the text as written, kept hidden until resumption.
ALTER TABLE games ADD COLUMN sealed_by TEXT;

ALTER TABLE games ADD COLUMN sealed_move TEXT;

-- A managed account (a pupil of a class): rated from a lower start, its
-- page private.
ALTER TABLE users ADD COLUMN managed BIGINT NOT NULL DEFAULT 0;

-- One Glicko-2 rating per account and pool.
CREATE TABLE IF NOT EXISTS ratings (
    user_id TEXT NOT NULL,
    perf TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games BIGINT NOT NULL,
    updated_ms BIGINT NOT NULL,
    PRIMARY KEY (user_id, perf));

-- The rating after every rated game.
CREATE TABLE IF NOT EXISTS rating_history (
    user_id TEXT NOT NULL,
    perf TEXT NOT NULL,
    game TEXT NOT NULL,
    at_ms BIGINT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (user_id, perf, game));

CREATE INDEX IF NOT EXISTS rating_history_time ON rating_history (user_id, perf, at_ms);

CREATE INDEX IF NOT EXISTS games_pending_rating ON games (status, rated, rating_applied);
