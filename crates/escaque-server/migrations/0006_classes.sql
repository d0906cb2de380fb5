-- Classes (issue 26): teachers, classes, managed pupils, the class board,
-- simultaneous exhibitions, and the class a game or a tournament belongs to.
--
-- users.teacher: 1 for an account the administrator marked as a teacher
-- (`escaque servir --docente NOMBRE`); with `--docentes-libres` any
-- account that is not a pupil may teach.
ALTER TABLE users ADD COLUMN teacher BIGINT NOT NULL DEFAULT 0;

-- A class: its name and description as the teacher wrote them, and the
-- short code its pupils log in with (kept in clear: the teacher prints it
-- on the login cards; a new one can be drawn at any time).
CREATE TABLE IF NOT EXISTS classes (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    description TEXT NOT NULL,
    login_code TEXT NOT NULL,
    created_by TEXT NOT NULL,
    created_ms BIGINT NOT NULL,
    archived BIGINT NOT NULL DEFAULT 0);

-- The teachers of a class (its creator and the co-teachers).
CREATE TABLE IF NOT EXISTS class_teachers (
    class_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    added_ms BIGINT NOT NULL,
    PRIMARY KEY (class_id, user_id));

CREATE INDEX IF NOT EXISTS class_teachers_user ON class_teachers (user_id);

-- The pupils of a class: managed accounts (users.managed = 1), each in one
-- class at a time; the real name is seen by the class's teachers only.
CREATE TABLE IF NOT EXISTS class_pupils (
    class_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    real_name TEXT NOT NULL,
    added_ms BIGINT NOT NULL,
    archived BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (class_id, user_id));

CREATE INDEX IF NOT EXISTS class_pupils_user ON class_pupils (user_id);

-- The class board: notices and homework written by the teachers.
CREATE TABLE IF NOT EXISTS class_news (
    id TEXT PRIMARY KEY,
    class_id TEXT NOT NULL,
    author_id TEXT NOT NULL,
    at_ms BIGINT NOT NULL,
    text TEXT NOT NULL,
    homework BIGINT NOT NULL DEFAULT 0);

CREATE INDEX IF NOT EXISTS class_news_class ON class_news (class_id, at_ms);

-- A simultaneous exhibition: a teacher against several pupils of a class.
CREATE TABLE IF NOT EXISTS simuls (
    id TEXT PRIMARY KEY,
    class_id TEXT NOT NULL,
    host_id TEXT NOT NULL,
    time_control TEXT,
    host_color TEXT NOT NULL,
    created_ms BIGINT NOT NULL);

-- A simul's boards: one pupil each; a board restarted after its game
-- ended gets a new game (the highest `attempt` is the current one).
CREATE TABLE IF NOT EXISTS simul_games (
    simul_id TEXT NOT NULL,
    board BIGINT NOT NULL,
    attempt BIGINT NOT NULL,
    pupil_id TEXT NOT NULL,
    game_id TEXT NOT NULL,
    PRIMARY KEY (simul_id, board, attempt));

-- The class a game was started in (by its teacher, a simul, a class
-- tournament), and the class a tournament belongs to (only its members
-- may enter). NULL: not a class's.
ALTER TABLE games ADD COLUMN class_id TEXT;

ALTER TABLE tournaments ADD COLUMN class_id TEXT;
