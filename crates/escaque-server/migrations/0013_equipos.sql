-- Team tournaments on the server (issue 59, teams).
--
-- team_tournaments: one team tournament kept as its TRF-2026 team text
-- (escaque_torneo::teams::trf: teams, rosters, line-ups, matches, board
-- results) and the server's settings as JSON (the accounts linked to
-- roster players, what the phones said about each board of a match and
-- the log of every step). Every change reads the row, applies the model's
-- own method and writes both back under the `version` guard (UPDATE ...
-- WHERE version = old), so a result that becomes final and the claims
-- that made it final are written together or not at all.
--
-- A team match's secret code (the QR code on the pairing sheet) is a row
-- of result_codes (migration 0012) with kind 'match', number = the
-- match's table.
CREATE TABLE IF NOT EXISTS team_tournaments (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    owner TEXT NOT NULL,
    status TEXT NOT NULL,
    trf TEXT NOT NULL,
    settings TEXT NOT NULL,
    version BIGINT NOT NULL,
    created_ms BIGINT NOT NULL,
    updated_ms BIGINT NOT NULL);

CREATE INDEX IF NOT EXISTS team_tournaments_owner ON team_tournaments (owner, created_ms);
