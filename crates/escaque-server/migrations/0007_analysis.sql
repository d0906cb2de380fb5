-- Analysis of games (issue 27): the queue of analyses and their results.
--
-- One row per analysis: of a game played on the server (game_id set; at
-- most one per game) or of a game from an uploaded PGN (game_id NULL).
-- The row is the queue: `status` is `queued`, `running`, `done` or
-- `failed`; a worker claims the oldest queued row (turning it `running`),
-- and a server that starts again queues its `running` rows again.
--
-- owner: the identity that asked (`u:ID` or `g:ID`); batch: the request
-- the row came from (an upload of several games is one request: the
-- per-asker limit counts requests, not games). start_fen and moves (UCI,
-- separated by spaces; Chess960 castling as the king taking its rook) are
-- what is analysed; white, black and result are shown with it.
-- analysis: the result as JSON (escaque_analysis::GameAnalysis) once
-- done; error: why it failed.
CREATE TABLE IF NOT EXISTS analyses (
    id TEXT PRIMARY KEY,
    game_id TEXT,
    owner TEXT NOT NULL,
    batch TEXT NOT NULL,
    seq BIGINT NOT NULL,
    white TEXT NOT NULL,
    black TEXT NOT NULL,
    result TEXT NOT NULL,
    start_fen TEXT NOT NULL,
    chess960 BIGINT NOT NULL DEFAULT 0,
    moves TEXT NOT NULL,
    status TEXT NOT NULL,
    engine TEXT,
    error TEXT,
    analysis TEXT,
    created_ms BIGINT NOT NULL,
    updated_ms BIGINT NOT NULL);

CREATE UNIQUE INDEX IF NOT EXISTS analyses_game ON analyses (game_id);

CREATE INDEX IF NOT EXISTS analyses_status ON analyses (status, created_ms, seq);

CREATE INDEX IF NOT EXISTS analyses_owner ON analyses (owner, status);
