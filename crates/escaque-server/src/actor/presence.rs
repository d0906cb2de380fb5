//! Who is at the board: connections joining and leaving, the second player
//! taking the free seat, a seat reclaimed with a new secret, and the grace
//! period after which a disconnected player's game may be claimed.

use std::sync::Arc;
use std::time::{Duration, Instant};

use escaque::Color;
use escaque_play::Player;
use tokio::sync::{mpsc, oneshot};

use super::{Actor, Out, Phase, Sub};
use crate::proto::{side, ErrorCode, GameEvent, ServerMsg};

impl Actor {
    /// A connection subscribes: the full state first, then its number.
    pub(super) fn join(
        &mut self,
        seat: Option<Color>,
        tx: mpsc::Sender<Out>,
        reply: oneshot::Sender<u64>,
    ) {
        let id = self.next_sub;
        self.next_sub += 1;
        let _ = tx.try_send(Arc::from(self.state_msg(seat, None).to_text()));
        self.subs.push(Sub { id, seat, tx });
        let _ = reply.send(id);
        if let Some(c) = seat {
            self.connected[c.index()] += 1;
            if self.connected[c.index()] == 1 {
                self.gone_since[c.index()] = None;
                // A first arrival changes nothing the others were shown: the
                // seat was not shown as gone.
                if std::mem::replace(&mut self.seen[c.index()], true) {
                    self.presence(c, true);
                }
            }
        }
    }

    /// The second player took the free seat (HTTP join): the game starts.
    pub(super) fn seated(&mut self, seat: Color, name: String, owner: String) {
        if self.phase != Phase::Waiting {
            return;
        }
        match seat {
            Color::White => {
                self.row.white_owner = Some(owner);
                self.row.white_name = name.clone();
            }
            Color::Black => {
                self.row.black_owner = Some(owner);
                self.row.black_name = name.clone();
            }
        }
        self.names[seat.index()] = name;
        self.phase = Phase::Playing;
        self.seen[seat.index()] = self.connected[seat.index()] > 0;
        self.gone_since[seat.index()] = Some(Instant::now());
        self.broadcast(GameEvent::Start {});
        self.maybe_think();
    }

    /// A connection closed (or was too slow to keep up).
    pub(super) fn drop_sub(&mut self, sub: u64) {
        if let Some(i) = self.subs.iter().position(|s| s.id == sub) {
            let s = self.subs.swap_remove(i);
            if let Some(c) = s.seat {
                self.connected[c.index()] = self.connected[c.index()].saturating_sub(1);
                if self.connected[c.index()] == 0 {
                    self.gone_since[c.index()] = Some(Instant::now());
                    self.adjourn_seat_left(c);
                    self.presence(c, false);
                }
            }
        }
    }

    /// The connections holding `seat` with its old secret: told why, then
    /// demoted to spectators (with a fresh state saying `"you": null`).
    pub(super) fn evict(&mut self, seat: Color) {
        let error: Out = Arc::from(ServerMsg::error(&ErrorCode::SeatReclaimed, None).to_text());
        let state: Out = Arc::from(self.state_msg(None, None).to_text());
        let mut evicted = 0;
        for s in self.subs.iter_mut().filter(|s| s.seat == Some(seat)) {
            s.seat = None;
            evicted += 1;
            let _ = s.tx.try_send(Arc::clone(&error));
            let _ = s.tx.try_send(Arc::clone(&state));
        }
        if evicted > 0 {
            self.connected[seat.index()] = 0;
            self.gone_since[seat.index()] = Some(Instant::now());
            self.adjourn_seat_left(seat);
            self.presence(seat, false);
        }
    }

    fn presence(&mut self, c: Color, connected: bool) {
        let (es, en) = match (c, connected) {
            (Color::White, true) => ("blancas: conectado", "White: connected"),
            (Color::Black, true) => ("negras: conectado", "Black: connected"),
            (Color::White, false) => ("blancas: desconectado", "White: disconnected"),
            (Color::Black, false) => ("negras: desconectado", "Black: disconnected"),
        };
        self.broadcast(GameEvent::Presence {
            seat: side(c),
            connected,
            es,
            en,
        });
    }

    /// How long a disconnected player's game waits before it may be claimed.
    pub(super) fn grace(&self) -> Duration {
        let cfg = &self.hub.config;
        let base = cfg.grace_base;
        let extra = match self.game.clock() {
            Some(c) => c.control().initial_time() / cfg.grace_divisor.max(1),
            None => cfg.grace_max,
        };
        (base + extra).min(cfg.grace_max)
    }

    /// The connected player who may claim the game because the other one
    /// has been gone longer than the grace period.
    pub(super) fn abandon_claimable_by(&self) -> Option<Color> {
        if self.phase != Phase::Playing {
            return None;
        }
        for c in [Color::White, Color::Black] {
            let o = c.other();
            if self.kinds[o.index()] == Player::Human
                && self.kinds[c.index()] == Player::Human
                && self.connected[o.index()] == 0
                && self.connected[c.index()] > 0
                && self.gone_since[o.index()].is_some_and(|t| t.elapsed() >= self.grace())
            {
                return Some(c);
            }
        }
        None
    }
}
