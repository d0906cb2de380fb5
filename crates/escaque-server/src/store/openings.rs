//! What naming the openings of a list of games reads: the first moves of
//! each game, in one query for the whole list.

use std::collections::HashMap;

use sqlx::Row;

use super::{Store, StoreError};

impl Store {
    /// The first `plies` moves (UCI, in order) of each game of `ids`; a
    /// game with no moves is absent from the answer.
    pub async fn first_moves(
        &self,
        ids: &[&str],
        plies: usize,
    ) -> Result<HashMap<String, Vec<String>>, StoreError> {
        let mut out: HashMap<String, Vec<String>> = HashMap::new();
        // A few hundred ids at most per list; chunks keep every statement
        // well under any database's limit of bound parameters.
        for chunk in ids.chunks(200) {
            let marks: Vec<String> = (0..chunk.len()).map(|i| format!("${}", i + 2)).collect();
            let sql = format!(
                "SELECT game_id, uci FROM moves WHERE ply < $1 AND game_id IN ({}) \
                 ORDER BY game_id, ply",
                marks.join(",")
            );
            let mut q = sqlx::query(&sql).bind(i64::try_from(plies).unwrap_or(i64::MAX));
            for id in chunk {
                q = q.bind(*id);
            }
            for row in q.fetch_all(&self.pool).await? {
                let game: String = row.try_get(0)?;
                out.entry(game).or_default().push(row.try_get(1)?);
            }
        }
        Ok(out)
    }
}
