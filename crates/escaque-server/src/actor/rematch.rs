//! Rematches: offered by one player and accepted by the other (against the
//! engine, at once); colours swap, and each player gets the new seat's
//! secret alone.

use escaque::{Color, Lang, Localized};

use super::{Actor, Out, Phase};
use crate::proto::{side, ErrorCode, GameEvent, ServerMsg};

impl Actor {
    /// `me` offers a rematch, or accepts the opponent's offer.
    pub(super) async fn rematch(&mut self, me: Color) -> Result<(), ErrorCode> {
        if self.phase != Phase::Over {
            return Err(ErrorCode::refused(&RematchNotYet));
        }
        if self.rematch_game.is_some() {
            return Ok(());
        }
        let opponent_engine = self.kinds[me.other().index()].is_engine();
        if !opponent_engine && self.rematch_offer != Some(me.other()) {
            self.rematch_offer = Some(me);
            self.broadcast(GameEvent::RematchOffer { by: side(me) });
            return Ok(());
        }
        // Juego tras la tarea (issue 57): a rematch is a free game.
        for owner in [&self.row.white_owner, &self.row.black_owner]
            .into_iter()
            .flatten()
        {
            match crate::tareas::juego::lock_of(&self.hub.store, owner).await {
                Ok(None) => {}
                Ok(Some(lock)) => {
                    let e = crate::tareas::juego::homework_first(&lock);
                    return Err(ErrorCode::Refused { es: e.2, en: e.3 });
                }
                Err(e) => return Err(ErrorCode::Refused { es: e.2, en: e.3 }),
            }
        }
        // Colours swap.
        let created = self.hub.create_rematch(&self.row, &self.fence).await;
        let created = self.stored(created)?;
        self.rematch_offer = None;
        self.rematch_game = Some(created.game.clone());
        self.broadcast(GameEvent::Rematch {
            game: created.game.clone(),
        });
        // Each player gets the secret of their new seat, privately.
        for s in &self.subs {
            if let Some(c) = s.seat {
                let new_seat = c.other();
                if let Some(secret) = created.secret(new_seat) {
                    let msg = ServerMsg::RematchSeat {
                        game: created.game.clone(),
                        seat: side(new_seat),
                        secret: secret.to_string(),
                    };
                    let _ = s.tx.try_send(Out::from(msg.to_text()));
                }
            }
        }
        Ok(())
    }
}

/// A rematch asked for before the game ended.
struct RematchNotYet;

impl Localized for RematchNotYet {
    fn message(&self, lang: Lang) -> String {
        lang.pick(
            "la revancha se pide cuando la partida terminó",
            "a rematch is asked for once the game is over",
        )
        .into()
    }
}
