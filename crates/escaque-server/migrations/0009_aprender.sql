-- Aprende a jugar (issue 55): the stars an account earned in the rules
-- course, one row per exercise (its best). Written only after the server
-- replayed the pupil's tries through the course's judge
-- (escaque_play::aprender::progress::verify): the stars are recomputed,
-- never taken from the client. stage: the stage's id (`torre`);
-- exercise: its number from 0; stars: 1 to 3; updated_ms: when the best
-- was last raised (wall, ms).
CREATE TABLE IF NOT EXISTS course_progress (
    user_id TEXT NOT NULL,
    stage TEXT NOT NULL,
    exercise BIGINT NOT NULL,
    stars BIGINT NOT NULL,
    updated_ms BIGINT NOT NULL,
    PRIMARY KEY (user_id, stage, exercise));
