-- Tareas (issue 57): homework a class's teacher sets, the pupils'
-- attempts, and the read-only links for parents.
--
-- A homework: a title, a due time, whether a second try counts, and for
-- whom: the whole class (whole = 1) or the pupils in homework_pupils.
CREATE TABLE IF NOT EXISTS homework (
    id TEXT PRIMARY KEY,
    class_id TEXT NOT NULL,
    title TEXT NOT NULL,
    due_ms BIGINT NOT NULL,
    retry BIGINT NOT NULL DEFAULT 0,
    whole BIGINT NOT NULL DEFAULT 1,
    created_by TEXT NOT NULL,
    created_ms BIGINT NOT NULL);

CREATE INDEX IF NOT EXISTS homework_class ON homework (class_id, created_ms);

-- The chosen pupils of a homework that is not for the whole class.
CREATE TABLE IF NOT EXISTS homework_pupils (
    homework_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    PRIMARY KEY (homework_id, user_id));

-- The items of a homework, in the teacher's order (idx from 0); spec is
-- the item as JSON (src/tareas/mod.rs, `Item`), drawn puzzles resolved.
CREATE TABLE IF NOT EXISTS homework_items (
    homework_id TEXT NOT NULL,
    idx BIGINT NOT NULL,
    kind TEXT NOT NULL,
    spec TEXT NOT NULL,
    PRIMARY KEY (homework_id, idx));

-- Each attempt of a pupil at an item, as judged when it came: what was
-- done (JSON: moves, tries, answers or a game), the time and hints the
-- pupil's page counted, and the outcome (solved 1/0, clean 1/0: solved
-- without a mistake or a hint).
CREATE TABLE IF NOT EXISTS homework_attempts (
    id TEXT PRIMARY KEY,
    homework_id TEXT NOT NULL,
    idx BIGINT NOT NULL,
    user_id TEXT NOT NULL,
    at_ms BIGINT NOT NULL,
    work TEXT NOT NULL,
    time_ms BIGINT NOT NULL,
    hints BIGINT NOT NULL,
    solved BIGINT NOT NULL,
    clean BIGINT NOT NULL,
    detail TEXT NOT NULL);

CREATE INDEX IF NOT EXISTS homework_attempts_hw ON homework_attempts (homework_id, user_id, idx, at_ms);

-- A parent's read-only link to one pupil: a long random token, revocable
-- at once (revoked_ms set).
CREATE TABLE IF NOT EXISTS parent_links (
    token TEXT PRIMARY KEY,
    class_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    created_ms BIGINT NOT NULL,
    revoked_ms BIGINT);

CREATE INDEX IF NOT EXISTS parent_links_pupil ON parent_links (class_id, user_id);
