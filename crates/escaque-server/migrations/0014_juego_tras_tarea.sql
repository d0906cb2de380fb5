-- "Juego tras la tarea" (issue 57): a class's option, off until a teacher
-- turns it on. While it is on, a pupil of the class (kid mode) starts no
-- free game (against the engine, a seek, a challenge, a rematch) until its
-- homework still open is done (src/tareas/juego.rs says exactly which).
-- A class without a row has it off. changed_by: the teacher's account id.
CREATE TABLE IF NOT EXISTS class_play_after_homework (
    class_id TEXT PRIMARY KEY,
    play_after BIGINT NOT NULL DEFAULT 0,
    changed_by TEXT NOT NULL,
    changed_ms BIGINT NOT NULL);
