-- Several server processes on one database (issue 28).
--
-- nodes: every `escaque servir` process that has run on this database,
-- by name (`--nodo`, or the host's name). addr is where the other
-- processes reach it (host:port of its HTTP listener); seen_ms its last
-- heartbeat (renewed with its leases); state `up`, `stopping` (handing
-- its games over) or `down` (stopped cleanly).
CREATE TABLE IF NOT EXISTS nodes (
    name TEXT PRIMARY KEY,
    addr TEXT NOT NULL,
    started_ms BIGINT NOT NULL,
    seen_ms BIGINT NOT NULL,
    state TEXT NOT NULL DEFAULT 'up'
);

-- One owner per game: owner_node runs the game's task until
-- lease_until_ms (wall clock, ms) unless it renews; lease_epoch grows by
-- one every time the game changes hands and is the fencing token every
-- game write checks. turn_started_ms: when the side to move began its
-- turn (wall clock), so that a process taking a game over charges the
-- mover only for the time some process owned the game.
ALTER TABLE games ADD COLUMN owner_node TEXT;
ALTER TABLE games ADD COLUMN lease_until_ms BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN lease_epoch BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN turn_started_ms BIGINT;
CREATE INDEX IF NOT EXISTS games_owner ON games (owner_node);

-- Open seeks, shared by every process: accepting one is a DELETE …
-- RETURNING that only one process can win. node: the process of the
-- poster's connection (its seeks go when it stops or dies). seek: the
-- seek as JSON (crate::lobby::Seek, the fields kept private included).
CREATE TABLE IF NOT EXISTS seeks (
    id TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    node TEXT NOT NULL,
    seek TEXT NOT NULL,
    created_ms BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS seeks_node ON seeks (node);

-- The process running an analysis (status `running`): a process starting
-- again queues again only its own running analyses and those of processes
-- that are gone.
ALTER TABLE analyses ADD COLUMN node TEXT;

-- The bus between processes (crate::cluster::bus): a signal too big for
-- a NOTIFY (PostgreSQL takes < 8000 bytes) is kept here and the
-- notification names its id; rows are swept after a few minutes.
CREATE TABLE IF NOT EXISTS bus_spill (
    id TEXT PRIMARY KEY,
    signal TEXT NOT NULL,
    created_ms BIGINT NOT NULL
);

-- The games in progress each process runs, as it last listed them
-- (crate::http::live): a process's part is JSON (the list of
-- crate::proto::LiveGame); every process lists the parts of the processes
-- that are up.
CREATE TABLE IF NOT EXISTS live_parts (
    node TEXT PRIMARY KEY,
    games TEXT NOT NULL,
    at_ms BIGINT NOT NULL
);
-- How far a running analysis has come (positions analysed, of its moves
-- plus one), written by the process running it at most once a second, so
-- that a client asking another process sees it too.
ALTER TABLE analyses ADD COLUMN progress BIGINT NOT NULL DEFAULT 0;
