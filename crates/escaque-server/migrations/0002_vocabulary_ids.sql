-- The library's identifiers replace the first release's stored names.
--
-- games.rules held RuleSet::name() (a Spanish display name): now RuleSet::id().
UPDATE games SET rules = 'fide2023' WHERE rules = 'FIDE 2023';

UPDATE games SET rules = 'london1846' WHERE rules = 'Londres 1846';

UPDATE games SET rules = 'london1846_english' WHERE rules = 'Londres 1846 (ahogado gana)';

-- games.termination held the colour glued to the ending (`time:white`,
-- `resignation:black`, `abandoned:white`, `abandoned_draw:black`): the
-- colour moves to its own column, the ending becomes Termination::id().
ALTER TABLE games ADD COLUMN termination_side TEXT;

UPDATE games SET termination_side = 'white' WHERE termination LIKE '%:white';

UPDATE games SET termination_side = 'black' WHERE termination LIKE '%:black';

UPDATE games SET termination = 'time_forfeit' WHERE termination LIKE 'time:%';

UPDATE games SET termination = 'resignation' WHERE termination LIKE 'resignation:%';

-- An abandonment claimed as a draw is told by its result (1/2-1/2).
UPDATE games SET termination = 'abandoned'
    WHERE termination LIKE 'abandoned:%' OR termination LIKE 'abandoned_draw:%';
