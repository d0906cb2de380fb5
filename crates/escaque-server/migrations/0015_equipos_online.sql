-- Online team tournaments (issue 59, online team play).
--
-- team_games: which server game is played on which board of which match of
-- which round of a team tournament played online (stored with the round's
-- pairing and the games themselves, in one transaction). A game's task
-- finds its board here (as tournament_games for an individual event) and
-- hands its result to the team tournament when it ends.
CREATE TABLE IF NOT EXISTS team_games (
    tournament TEXT NOT NULL,
    round BIGINT NOT NULL,
    table_no BIGINT NOT NULL,
    board BIGINT NOT NULL,
    game TEXT NOT NULL,
    PRIMARY KEY (tournament, round, table_no, board));

CREATE UNIQUE INDEX IF NOT EXISTS team_games_game ON team_games (game);

-- team_online: a team tournament played online and its games' settings
-- (set by the organiser before round 1; no row: played over the board).
CREATE TABLE IF NOT EXISTS team_online (
    tournament TEXT PRIMARY KEY,
    time_control TEXT NOT NULL,
    no_show_s BIGINT NOT NULL);
