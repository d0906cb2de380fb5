-- Tournaments (issue 24). A tournament is kept as its TRF-2026 text (the
-- escaque_torneo model written by escaque_torneo::trf); every change reads
-- it, applies the model's own method and writes it back under the `version`
-- guard (optimistic: UPDATE ... WHERE version = old).
CREATE TABLE IF NOT EXISTS tournaments (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    owner TEXT NOT NULL,
    mode TEXT NOT NULL,
    status TEXT NOT NULL,
    trf TEXT NOT NULL,
    settings TEXT NOT NULL,
    version BIGINT NOT NULL,
    created_ms BIGINT NOT NULL,
    updated_ms BIGINT NOT NULL);

CREATE INDEX IF NOT EXISTS tournaments_created ON tournaments (created_ms);

-- Co-organisers named by the owner (the owner is implicit).
CREATE TABLE IF NOT EXISTS tournament_organisers (
    tournament TEXT NOT NULL,
    identity TEXT NOT NULL,
    PRIMARY KEY (tournament, identity));

-- The server's side of each TRF start number: the identity of an online
-- player and the roll call (present: 0 or 1).
CREATE TABLE IF NOT EXISTS tournament_players (
    tournament TEXT NOT NULL,
    number BIGINT NOT NULL,
    owner TEXT,
    present BIGINT NOT NULL,
    PRIMARY KEY (tournament, number));

CREATE INDEX IF NOT EXISTS tournament_players_owner ON tournament_players (owner);
