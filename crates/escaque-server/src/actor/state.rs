//! What every `state` and `event` carries: the game as the browser draws it
//! (legal destinations, clock, offers, claims, ending), built from the
//! library's answers.

use escaque::{coord, Color, DrawClaim, Lang};
use escaque_play::Player;
use serde_json::Value;

use super::{Actor, Phase};
use crate::proto::{
    side, ClaimMoveView, ClockView, EndText, LiveClock, LiveGame, MoveView, PlayerView, ServerMsg,
    StateMsg, StateView, TournamentBoard,
};

/// A claim as the protocol names it: the library's id.
fn claim_name(c: DrawClaim) -> &'static str {
    c.id()
}

impl Actor {
    /// `state` for a connection holding `seat`, answering request `id`.
    pub(super) fn state_msg(&self, seat: Option<Color>, id: Option<u64>) -> ServerMsg {
        ServerMsg::State(StateMsg {
            you: seat.map(side),
            id,
            state: self.state(true),
        })
    }

    /// The state as the HTTP API gives it (no `t`).
    pub(super) fn snapshot(&self) -> Value {
        serde_json::to_value(self.state(true)).unwrap_or(Value::Null)
    }

    /// The clock as the protocol shows it (running only while playing).
    fn clock_view(&self) -> Option<ClockView> {
        let playing = self.phase == Phase::Playing;
        self.game.clock().map(|c| {
            let r = c.peek();
            ClockView {
                white_ms: r.white.as_millis() as u64,
                black_ms: r.black.as_millis() as u64,
                running: r.running.filter(|_| playing).map(side),
                delay_ms: r.delay_left.as_millis() as u64,
                control: c.control().to_string(),
            }
        })
    }

    /// The game in the list of games in progress (`None` unless played
    /// now): names, rules, plies and clock only — none of the state's legal
    /// moves, claims or move list, which the list does not show.
    pub(super) fn live(&self) -> Option<LiveGame> {
        (self.phase == Phase::Playing).then(|| LiveGame {
            game: self.row.id.clone(),
            white: self.names[0].clone(),
            black: self.names[1].clone(),
            rules: self.game.rules().id(),
            plies: self.game.moves().len(),
            clock: self.clock_view().map(|c| LiveClock {
                white_ms: c.white_ms,
                black_ms: c.black_ms,
                running: c.running,
                control: c.control,
            }),
            watch: format!("/partida/{}", self.row.id),
        })
    }

    /// The state, with the move list or without.
    pub(super) fn state(&self, with_moves: bool) -> StateView {
        let pos = *self.game.position();
        let playing = self.phase == Phase::Playing;
        let mut legal = std::collections::BTreeMap::<String, Vec<String>>::new();
        let mut legal_uci = Vec::new();
        if playing {
            for m in pos.legal_moves().iter() {
                let u = coord::to_uci(*m);
                let (from, to) = (u[0..2].to_string(), u[2..4].to_string());
                let e = legal.entry(from).or_default();
                if !e.contains(&to) {
                    e.push(to);
                }
                legal_uci.push(u);
            }
        }
        let clock = self.clock_view();
        let (claimable, claim_moves) = if playing {
            (
                self.game.claimable().into_iter().map(claim_name).collect(),
                self.game
                    .claimable_moves()
                    .into_iter()
                    .map(|(m, c)| ClaimMoveView {
                        uci: coord::to_uci(m),
                        san: escaque::san::san(&pos, m, Lang::En),
                        san_es: escaque::san::san(&pos, m, Lang::Es),
                        claim: claim_name(c),
                    })
                    .collect(),
            )
        } else {
            (Vec::new(), Vec::new())
        };
        let player = |c: Color| {
            let i = c.index();
            PlayerView {
                name: self.names[i].clone(),
                kind: match self.kinds[i] {
                    Player::Human => "human",
                    Player::Engine(_) => "engine",
                },
                level: match self.kinds[i] {
                    Player::Engine(n) => Some(n.number()),
                    Player::Human => None,
                },
                connected: self.connected[i] > 0 || self.kinds[i] != Player::Human || !self.seen[i],
                rating: self.row.ratings[i].filter(|_| self.row.rated),
                provisional: self.row.rated && self.provisional[i],
                rating_diff: self.row.rating_diffs[i].filter(|_| self.row.rated),
            }
        };
        let plies = self.game.moves().len();
        StateView {
            game: self.row.id.clone(),
            rules: self.game.rules().id(),
            start_fen: self.row.start_fen.clone(),
            fen: pos.to_fen(),
            plies,
            white: player(Color::White),
            black: player(Color::Black),
            status: match self.phase {
                Phase::Waiting => "waiting",
                Phase::Playing => "playing",
                Phase::Over => "over",
            },
            turn: side(pos.turn()),
            move_number: pos.fullmove_number(),
            in_check: pos.is_check(),
            legal,
            legal_uci,
            clock,
            draw_offer: self.game.draw_offer().filter(|_| playing).map(side),
            takeback_offer: self.takeback_offer.map(side),
            rematch_offer: self.rematch_offer.map(side),
            rematch_game: self.rematch_game.clone(),
            claimable,
            claim_moves,
            // A tournament game is not aborted: a side that does not move loses
            // by forfeit (its no-show wait).
            can_abort: playing && plies < 2 && self.link.is_none(),
            grace_ms: self.grace().as_millis() as u64,
            abandon_claimable_by: self.abandon_claimable_by().map(side),
            result: self.end.as_ref().map(|e| e.ending.result_pgn()),
            termination: self.end.as_ref().map(|e| e.ending.termination.id()),
            termination_side: self.end.as_ref().and_then(|e| e.ending.side_id()),
            end_text: self.end.as_ref().map(|e| EndText {
                es: e.es.clone(),
                en: e.en.clone(),
            }),
            last_move: plies.checked_sub(1).map(|i| self.move_view(i)),
            moves: with_moves.then(|| (0..plies).map(|i| self.move_view(i)).collect()),
            tournament: self.link.as_ref().map(|l| TournamentBoard {
                id: l.tournament.clone(),
                round: l.round,
                board: l.board,
            }),
            rated: self.row.rated,
            perf: self
                .row
                .perf
                .as_deref()
                .and_then(|p| crate::rating::PERFS.into_iter().find(|q| *q == p))
                .filter(|_| self.row.rated),
        }
    }

    /// Move `i` of the game.
    pub(super) fn move_view(&self, i: usize) -> MoveView {
        let rec = &self.game.moves()[i];
        MoveView {
            ply: i,
            uci: coord::to_uci(rec.mv),
            san: rec.san.clone(),
            san_es: self.game.move_san(i, Lang::Es),
            clock_ms: self.clk.get(i).copied().flatten(),
        }
    }
}
