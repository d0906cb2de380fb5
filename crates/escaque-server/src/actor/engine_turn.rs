//! The engine's turn: the request every front end makes
//! (`escaque_play::Budget::for_game`, `history_keys`) sent to the pool, and
//! its answer played unless the game moved on meanwhile.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use escaque::Move;
use escaque_play::{Budget, Player};

use super::{Actor, Phase};
use crate::engine::ThinkRequest;

impl Actor {
    /// Starts a search when the engine has the move and none runs.
    pub(super) fn maybe_think(&mut self) {
        if self.phase != Phase::Playing || self.engine_job.is_some() {
            return;
        }
        let turn = self.game.position().turn();
        let Player::Engine(level) = self.kinds[turn.index()] else {
            return;
        };
        let ply = self.game.moves().len();
        let req = ThinkRequest {
            pos: *self.game.position(),
            history: escaque_play::history_keys(&self.game),
            budget: Budget::for_game(&self.game, level, self.hub.config.engine_movetime),
        };
        let stop = Arc::new(AtomicBool::new(false));
        self.engine_job = Some((ply, Arc::clone(&stop)));
        let hub = Arc::clone(&self.hub);
        let tx = self.engine_tx.clone();
        tokio::spawn(async move {
            let m = hub.engines.think(req, stop).await;
            let _ = tx.send((ply, m)).await;
        });
    }

    /// The engine's move for `ply`; an answer to an abandoned search is
    /// dropped.
    pub(super) async fn engine_answer(&mut self, ply: usize, m: Option<Move>) {
        match &self.engine_job {
            Some((p, _)) if *p == ply => {}
            _ => return, // an abandoned search
        }
        self.engine_job = None;
        if self.phase != Phase::Playing || self.game.moves().len() != ply {
            self.maybe_think();
            return;
        }
        let Some(m) = m else {
            return;
        };
        if self.play(m, None).await.is_err() {
            // Storage failed: try again.
            self.maybe_think();
        }
    }
}
