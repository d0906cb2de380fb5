//! Adjournment and the sealed move (FIDE Laws, Guidelines I; the terminal's
//! `aplazar`): a player offers to adjourn, the opponent accepts, the side to
//! move writes its sealed move while its clock runs; the move is stored,
//! never shown, and the clocks stop. The game resumes when both players are
//! back and each has said so: the envelope is opened by the library
//! ([`escaque::sealed::Adjourned::open`], the terminal's own judgement) and
//! the move played, or the game judged (a loss for the sealer, or a draw when
//! the opponent could not mate).

use escaque::sealed::{Adjourned, Opening, SealedMove};
use escaque::{coord, Color, Lang, Localized, TimeSource};
use escaque_play::Player;

use super::finish::End;
use super::{Actor, Phase};
use crate::proto::{side, ClientMsg, ErrorCode, GameEvent, NoAdjourn};
use crate::store::{GameRow, MoveRow, Sealed};

/// The longest sealed text accepted (a move is a few characters; the text
/// is kept as written, so it is bounded).
const MAX_SEALED_CHARS: usize = 32;

/// Where an adjournment stands.
#[derive(Clone, Debug, Default)]
pub(super) struct Adjournment {
    /// Who offers to adjourn.
    offer: Option<Color>,
    /// Who is writing the sealed move (adjourning was agreed).
    sealing: Option<Color>,
    /// The envelope of an adjourned game.
    sealed: Option<Sealed>,
    /// In an adjourned game: who said they are back.
    ready: [bool; 2],
}

impl Adjournment {
    /// As a stored game brings it: its envelope, if adjourned.
    pub(super) fn loaded(row: &GameRow) -> Adjournment {
        Adjournment {
            sealed: row.sealed.clone().filter(|_| row.status == "adjourned"),
            ..Adjournment::default()
        }
    }
}

impl Actor {
    /// Refuses what cannot be done while a move is being sealed: only the
    /// sealed move itself, resigning and the claim of an abandoned game (the
    /// sealer gone) are taken.
    pub(super) fn sealing_gate(&self, msg: &ClientMsg) -> Result<(), ErrorCode> {
        if self.adj.sealing.is_none() {
            return Ok(());
        }
        match msg {
            ClientMsg::Seal { .. }
            | ClientMsg::Resign { .. }
            | ClientMsg::ClaimAbandoned { .. } => Ok(()),
            _ => Err(ErrorCode::Sealing),
        }
    }

    /// A seat's last connection closed: its "ready to resume" is void.
    pub(super) fn adjourn_seat_left(&mut self, c: Color) {
        self.adj.ready[c.index()] = false;
    }

    /// The state's adjournment fields: `adjourn_offer`, `sealing`,
    /// `sealed_by`, `resume_ready`.
    pub(super) fn adjourn_view(
        &self,
    ) -> (
        Option<&'static str>,
        Option<&'static str>,
        Option<&'static str>,
        Vec<&'static str>,
    ) {
        let playing = self.phase == Phase::Playing;
        let adjourned = self.phase == Phase::Adjourned;
        let ready = [Color::White, Color::Black]
            .into_iter()
            .filter(|c| adjourned && self.adj.ready[c.index()])
            .map(side)
            .collect();
        (
            self.adj.offer.filter(|_| playing).map(side),
            self.adj.sealing.filter(|_| playing).map(side),
            self.adj
                .sealed
                .as_ref()
                .filter(|_| adjourned)
                .map(|s| side(s.by)),
            ready,
        )
    }

    fn may_adjourn(&self) -> Result<(), ErrorCode> {
        if self.kinds.iter().any(|k| *k != Player::Human) {
            return Err(ErrorCode::CannotAdjourn(NoAdjourn::Engine));
        }
        if self.link.is_some() {
            return Err(ErrorCode::CannotAdjourn(NoAdjourn::Tournament));
        }
        if self.game.moves().len() < 2 {
            return Err(ErrorCode::CannotAdjourn(NoAdjourn::Opening));
        }
        Ok(())
    }

    /// Offers to adjourn, or accepts the opponent's pending offer.
    pub(super) async fn offer_adjourn(&mut self, me: Color) -> Result<(), ErrorCode> {
        self.may_adjourn()?;
        if self.adj.offer == Some(me.other()) {
            return self.accept_adjourn(me).await;
        }
        if self.adj.offer != Some(me) {
            self.adj.offer = Some(me);
            self.broadcast(GameEvent::AdjournOffer { by: side(me) });
        }
        Ok(())
    }

    /// Accepts the opponent's offer: the side to move seals now (its clock
    /// runs on while it writes).
    pub(super) async fn accept_adjourn(&mut self, me: Color) -> Result<(), ErrorCode> {
        if self.adj.offer != Some(me.other()) {
            return Err(ErrorCode::NothingPending);
        }
        self.adj.offer = None;
        let by = self.game.position().turn();
        self.adj.sealing = Some(by);
        self.takeback_offer = None;
        self.broadcast(GameEvent::Sealing { by: side(by) });
        Ok(())
    }

    pub(super) async fn decline_adjourn(&mut self, me: Color) -> Result<(), ErrorCode> {
        if self.adj.offer != Some(me.other()) {
            return Err(ErrorCode::NothingPending);
        }
        self.adj.offer = None;
        self.broadcast(GameEvent::AdjournDeclined { by: side(me) });
        Ok(())
    }

    /// A move leaves an offer to adjourn unanswered: it lapses.
    pub(super) fn adjourn_offer_lapses(&mut self) {
        self.adj.offer = None;
    }

    /// The sealed move: kept as written (read only when the envelope is
    /// opened, as over the board), the clock stopped with the time used
    /// charged to the sealer, stored, then told (without the move).
    pub(super) async fn seal(&mut self, me: Color, text: &str) -> Result<(), ErrorCode> {
        match self.adj.sealing {
            None => return Err(ErrorCode::NotSealing),
            Some(c) if c != me => return Err(ErrorCode::NotYourTurn),
            Some(_) => {}
        }
        let text = text.trim();
        if text.is_empty() || text.chars().count() > MAX_SEALED_CHARS {
            return Err(ErrorCode::malformed(
                format!("la jugada secreta debe tener de 1 a {MAX_SEALED_CHARS} caracteres"),
                format!("the sealed move must be 1 to {MAX_SEALED_CHARS} characters long"),
            ));
        }
        let before = self.game.clone();
        self.game
            .adjourn_sealed(text)
            .map_err(|e| self.lib_err(e))?;
        let sealed = Sealed {
            by: me,
            text: text.to_string(),
        };
        let stored = self
            .hub
            .store
            .adjourn_game(&self.fence, &self.row.id, self.clocks_now(), &sealed)
            .await;
        if !matches!(self.stored(stored), Ok(true)) {
            self.game = before;
            return Err(ErrorCode::Storage);
        }
        if let Some([w, b]) = self.clocks_now() {
            self.row.clock_white_ms = Some(w);
            self.row.clock_black_ms = Some(b);
        }
        self.row.status = "adjourned".into();
        self.phase = Phase::Adjourned;
        self.adj = Adjournment {
            sealed: Some(sealed),
            ..Adjournment::default()
        };
        self.broadcast(GameEvent::Adjourned { by: side(me) });
        Ok(())
    }

    /// A player of an adjourned game is back and ready: when both are (and
    /// both connected), the envelope is opened.
    pub(super) async fn resume(&mut self, me: Color) -> Result<(), ErrorCode> {
        match self.phase {
            Phase::Adjourned => {}
            Phase::Over => return Err(ErrorCode::GameOver),
            _ => return Err(ErrorCode::NotAdjourned),
        }
        self.adj.ready[me.index()] = true;
        let both = [Color::White, Color::Black]
            .iter()
            .all(|c| self.adj.ready[c.index()] && self.connected[c.index()] > 0);
        if both {
            self.open_envelope().await
        } else {
            self.broadcast(GameEvent::ResumeReady { by: side(me) });
            Ok(())
        }
    }

    /// Opens the envelope with the library: the move played (the
    /// opponent's clock starts) or the game judged; stored, then told.
    async fn open_envelope(&mut self) -> Result<(), ErrorCode> {
        let sealed = self.adj.sealed.clone();
        let envelope = Adjourned {
            game: self.game.clone(),
            sealed: sealed
                .as_ref()
                .map(|s| SealedMove::new(s.by, s.text.clone())),
        };
        let pos = *self.game.position();
        let ply = self.game.moves().len();
        let (mut game, opening) = envelope.open();
        let (mv_row, end) = match &opening {
            Opening::NoEnvelope => {
                // An adjourned game stored without its envelope: play goes on.
                game.start_clock();
                (None, None)
            }
            Opening::Played { mv, outcome } => {
                let clock_ms = game.moves()[ply].clock.map(|d| d.as_millis() as i64);
                let row = MoveRow {
                    ply: ply as i64,
                    uci: coord::to_uci_in(&pos, *mv, game.is_chess960()),
                    clock_ms,
                };
                (Some(row), outcome.map(End::from_outcome))
            }
            Opening::Forfeit { outcome, .. } => (None, Some(End::from_outcome(*outcome))),
        };
        let clocks = game.clock().map(|c| {
            let r = c.peek();
            [r.white.as_millis() as i64, r.black.as_millis() as i64]
        });
        let r = self
            .hub
            .store
            .open_envelope(
                &self.fence,
                &self.row.id,
                mv_row.as_ref(),
                clocks,
                end.as_ref().map(|e| e.ending),
            )
            .await;
        self.stored(r)?;
        self.game = game;
        self.row.status = "playing".into();
        self.phase = Phase::Playing;
        self.adj = Adjournment::default();
        if let Some([w, b]) = clocks {
            self.row.clock_white_ms = Some(w);
            self.row.clock_black_ms = Some(b);
        }
        if let Some(m) = &mv_row {
            self.clk.truncate(ply);
            self.clk.push(m.clock_ms);
        }
        self.turn_start = self.time.now();
        if let Some(e) = end {
            self.concluded(e).await;
        }
        if let Some(s) = sealed {
            let (played, why) = match &opening {
                Opening::Forfeit { error, .. } => (
                    false,
                    Some((error.message(Lang::Es), error.message(Lang::En))),
                ),
                _ => (true, None),
            };
            let (es, en) = why.unzip();
            self.broadcast(GameEvent::EnvelopeOpened {
                by: side(s.by),
                sealed_move: s.text,
                played,
                es,
                en,
            });
        }
        if mv_row.is_some() {
            self.broadcast(GameEvent::Move(self.move_view(ply)));
        }
        if self.phase == Phase::Over {
            self.broadcast(GameEvent::End {});
        }
        Ok(())
    }
}
