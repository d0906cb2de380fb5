//! The rules course's progress of an account (issue 55; migration 0009):
//! the best stars per exercise. The stars come from the course's judge
//! replaying the pupil's tries (`escaque_play::aprender::progress::verify`,
//! asked by `crate::aprender`); storage keeps the best and reads it back.

use sqlx::Row;

use super::{Store, StoreError};

/// One exercise's best stars.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CourseStars {
    /// The stage's id.
    pub stage: String,
    /// The exercise, from 0.
    pub exercise: u32,
    /// 1 to 3.
    pub stars: u8,
}

impl Store {
    /// Keeps `stars` for the exercises of `results` (each `(stage,
    /// exercise, stars)`) of account `user_id` where they beat what it has;
    /// all of them or none (one transaction).
    pub async fn raise_course_stars(
        &self,
        user_id: &str,
        results: &[(String, u32, u8)],
        now_ms: i64,
    ) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        for (stage, exercise, stars) in results {
            sqlx::query(
                "INSERT INTO course_progress (user_id, stage, exercise, stars, updated_ms) \
                 VALUES ($1, $2, $3, $4, $5) \
                 ON CONFLICT (user_id, stage, exercise) DO UPDATE SET \
                 stars = excluded.stars, updated_ms = excluded.updated_ms \
                 WHERE excluded.stars > course_progress.stars",
            )
            .bind(user_id)
            .bind(stage.as_str())
            .bind(i64::from(*exercise))
            .bind(i64::from(*stars))
            .bind(now_ms)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// Every exercise account `user_id` has stars for, by stage and number.
    pub async fn course_stars(&self, user_id: &str) -> Result<Vec<CourseStars>, StoreError> {
        let rows = sqlx::query(
            "SELECT stage, exercise, stars FROM course_progress WHERE user_id = $1 \
             ORDER BY stage, exercise",
        )
        .bind(user_id)
        .fetch_all(&self.pool)
        .await?;
        let mut out = Vec::with_capacity(rows.len());
        for r in &rows {
            let exercise: i64 = r.try_get(1)?;
            let stars: i64 = r.try_get(2)?;
            let bad = |what: &'static str, v: i64| StoreError::Corrupt {
                what,
                value: v.to_string(),
            };
            out.push(CourseStars {
                stage: r.try_get(0)?,
                exercise: u32::try_from(exercise)
                    .map_err(|_| bad("course_progress.exercise", exercise))?,
                stars: u8::try_from(stars)
                    .ok()
                    .filter(|s| (1..=3).contains(s))
                    .ok_or_else(|| bad("course_progress.stars", stars))?,
            });
        }
        Ok(out)
    }
}
