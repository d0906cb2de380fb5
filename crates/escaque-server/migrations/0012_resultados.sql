-- Results entered by the players from a QR code (issue 59).
--
-- result_codes: the secret code of one board of one round (a team match's
-- code later: kind 'match', number the match's); printed as a QR code on
-- the round's result slips and shown on the round's page to the
-- organisers only. Whoever holds the code may enter that board's result,
-- nothing else.
CREATE TABLE IF NOT EXISTS result_codes (
    code TEXT PRIMARY KEY,
    tournament_id TEXT NOT NULL,
    round BIGINT NOT NULL,
    kind TEXT NOT NULL,
    number BIGINT NOT NULL,
    created_ms BIGINT NOT NULL);

CREATE UNIQUE INDEX IF NOT EXISTS result_codes_target
    ON result_codes (tournament_id, round, kind, number);

-- What the players said about a board (each side's claim, by result id)
-- and the result that reached the standings from here: final_by
-- 'players' (both claims agreed) or 'arbiter'. Written in the same
-- transaction as the tournament's TRF when a result becomes final.
CREATE TABLE IF NOT EXISTS result_entries (
    tournament_id TEXT NOT NULL,
    round BIGINT NOT NULL,
    board BIGINT NOT NULL,
    white_claim TEXT,
    white_ms BIGINT,
    black_claim TEXT,
    black_ms BIGINT,
    final_result TEXT,
    final_by TEXT,
    final_ms BIGINT,
    version BIGINT NOT NULL,
    PRIMARY KEY (tournament_id, round, board));

-- Every step on a board, for the arbiter: entered, confirmed, conflict,
-- arbiter, override (the arbiter replaced a claim or a final result that
-- said otherwise), cleared. who: 'white', 'black' (a phone with the code)
-- or the organiser's identity key.
CREATE TABLE IF NOT EXISTS result_log (
    id TEXT PRIMARY KEY,
    tournament_id TEXT NOT NULL,
    round BIGINT NOT NULL,
    board BIGINT NOT NULL,
    at_ms BIGINT NOT NULL,
    who TEXT NOT NULL,
    action TEXT NOT NULL,
    result TEXT,
    previous TEXT);

CREATE INDEX IF NOT EXISTS result_log_tournament ON result_log (tournament_id, at_ms);
