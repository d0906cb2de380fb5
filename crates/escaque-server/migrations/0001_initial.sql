-- The schema of the first release (schema_version 1 in `meta`). Every
-- statement is IF NOT EXISTS: on a database that release wrote, this
-- migration changes nothing and is only recorded.
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

CREATE TABLE IF NOT EXISTS users (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL UNIQUE,
    pass_hash TEXT NOT NULL,
    created_ms BIGINT NOT NULL);

CREATE TABLE IF NOT EXISTS sessions (
    token_hash TEXT PRIMARY KEY,
    user_id TEXT NOT NULL,
    created_ms BIGINT NOT NULL);

CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    rules TEXT NOT NULL,
    start_fen TEXT NOT NULL,
    time_control TEXT,
    white_kind TEXT NOT NULL,
    black_kind TEXT NOT NULL,
    white_owner TEXT,
    black_owner TEXT,
    white_secret TEXT,
    black_secret TEXT,
    white_name TEXT NOT NULL,
    black_name TEXT NOT NULL,
    status TEXT NOT NULL,
    result TEXT,
    termination TEXT,
    clock_white_ms BIGINT,
    clock_black_ms BIGINT,
    created_ms BIGINT NOT NULL,
    updated_ms BIGINT NOT NULL);

CREATE INDEX IF NOT EXISTS games_white_owner ON games (white_owner);

CREATE INDEX IF NOT EXISTS games_black_owner ON games (black_owner);

CREATE INDEX IF NOT EXISTS games_status ON games (status);

CREATE TABLE IF NOT EXISTS moves (
    game_id TEXT NOT NULL,
    ply BIGINT NOT NULL,
    uci TEXT NOT NULL,
    clock_ms BIGINT,
    at_ms BIGINT NOT NULL,
    PRIMARY KEY (game_id, ply));
