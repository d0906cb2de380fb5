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
            variant: self.variant_id(),
            chess960_position: self.game.chess960_number(),
            opening: crate::openings::of_game(&self.game),
            owners: [self.row.white_owner.clone(), self.row.black_owner.clone()],
            class_id: self.row.class_id.clone(),
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
                for u in self.board_ucis(&pos, *m) {
                    let (from, to) = (u[0..2].to_string(), u[2..4].to_string());
                    let e = legal.entry(from).or_default();
                    if !e.contains(&to) {
                        e.push(to);
                    }
                    if !legal_uci.contains(&u) {
                        legal_uci.push(u);
                    }
                }
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
                        uci: coord::to_uci_in(&pos, m, self.game.is_chess960()),
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
        let (adjourn_offer, sealing, sealed_by, resume_ready) = self.adjourn_view();
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
                Phase::Adjourned => "adjourned",
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
            variant: self.variant_id(),
            chess960_position: self.game.chess960_number(),
            opening: crate::openings::of_game(&self.game),
            adjourn_offer,
            sealing,
            sealed_by,
            resume_ready,
        }
    }

    /// `standard` or `chess960`.
    fn variant_id(&self) -> &'static str {
        if self.game.is_chess960() {
            "chess960"
        } else {
            "standard"
        }
    }

    /// The forms a board may send for legal move `m` of `pos`: its UCI;
    /// in Chess960, castling as the king onto its own rook, and also onto
    /// its castling square when the king moves (a normal king move to that
    /// square, if there is one, keeps the two-square form: the library
    /// reads it as the normal move).
    fn board_ucis(&self, pos: &escaque::Position, m: escaque::Move) -> Vec<String> {
        if !(self.game.is_chess960() && m.is_castle()) {
            return vec![coord::to_uci(m)];
        }
        let mut forms = vec![coord::to_uci_in(pos, m, true)];
        if m.from() != m.to() {
            forms.push(coord::to_uci(m));
        }
        forms
    }

    /// Move `i` of the game.
    pub(super) fn move_view(&self, i: usize) -> MoveView {
        let rec = &self.game.moves()[i];
        MoveView {
            ply: i,
            uci: self.stored_uci(i),
            san: rec.san.clone(),
            san_es: self.game.move_san(i, Lang::Es),
            clock_ms: self.clk.get(i).copied().flatten(),
        }
    }
}

impl Actor {
    /// Move `i` in UCI as it is stored: castling in a Chess960 game as the
    /// king taking its own rook (the rook's square is read from the
    /// position before the move, replayed from the start).
    pub(super) fn stored_uci(&self, i: usize) -> String {
        let m = self.game.moves()[i].mv;
        if !(self.game.is_chess960() && m.is_castle()) {
            return coord::to_uci(m);
        }
        let mut pos = *self.game.start_position();
        for rec in &self.game.moves()[..i] {
            pos.play_unchecked(rec.mv);
        }
        coord::to_uci_in(&pos, m, true)
    }
}
