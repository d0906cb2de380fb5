//! Kid mode (issue 26): the one write it needs besides what games do.

use super::{Store, StoreError};

impl Store {
    /// Marks game `game` as belonging to class `class_id` unless it already
    /// belongs to one (a pupil took the open seat of a teacher's
    /// challenge: the game is the class's).
    pub async fn set_game_class(&self, game: &str, class_id: &str) -> Result<(), StoreError> {
        sqlx::query("UPDATE games SET class_id = $1 WHERE id = $2 AND class_id IS NULL")
            .bind(class_id)
            .bind(game)
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}
