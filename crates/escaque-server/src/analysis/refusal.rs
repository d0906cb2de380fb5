//! What the analysis refuses (issue 53): one enum, its stable codes and its
//! Spanish and English text; `crate::http::error` gives each its HTTP
//! status, so nothing here knows one.

/// A refusal of the analysis (requests, the annotated PGN, the board).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// `not_found`: no such game (or the asker may not see it).
    NoGame,
    /// `no_analysis`: no such analysis (or the asker may not see it).
    NoAnalysis,
    /// `analysis_busy`: the asker has `max` requests queued or running.
    Busy {
        /// The most requests an asker may have unfinished.
        max: i64,
    },
    /// `analysis_not_done`: the analysis has not finished yet.
    NotDone,
    /// `game_not_over`: a game is analysed once it ends.
    GameNotOver,
    /// `too_large`: a PGN over `max_kib` KiB.
    TooLarge {
        /// The largest PGN accepted, KiB.
        max_kib: usize,
    },
    /// `engine_unavailable`: the analysis engine did not answer.
    EngineUnavailable,
    /// Well formed but unusable: a PGN that does not read (`pgn_invalid`,
    /// `too_many_games`), a FEN (`fen_invalid`), a move (`illegal_move`);
    /// the text says where.
    Unreadable {
        /// The stable code.
        code: &'static str,
        /// Spanish.
        es: String,
        /// English.
        en: String,
    },
}

impl Refusal {
    /// An unreadable text with code `code`.
    pub fn unreadable(code: &'static str, es: String, en: String) -> Refusal {
        Refusal::Unreadable { code, es, en }
    }

    /// The stable code.
    pub fn code(&self) -> &'static str {
        use Refusal::*;
        match self {
            NoGame => "not_found",
            NoAnalysis => "no_analysis",
            Busy { .. } => "analysis_busy",
            NotDone => "analysis_not_done",
            GameNotOver => "game_not_over",
            TooLarge { .. } => "too_large",
            EngineUnavailable => "engine_unavailable",
            Unreadable { code, .. } => code,
        }
    }

    /// The Spanish and English text.
    pub fn text(self) -> (String, String) {
        use Refusal::*;
        let (es, en) = match self {
            NoGame => ("no existe esa partida", "there is no such game"),
            NoAnalysis => ("no existe ese análisis", "there is no such analysis"),
            Busy { max } => {
                return (
                    format!(
                        "ya tienes {max} análisis en espera o en curso; espera a que termine uno"
                    ),
                    format!(
                        "you already have {max} analyses queued or running; wait until one ends"
                    ),
                )
            }
            NotDone => (
                "el análisis aún no ha terminado",
                "the analysis has not finished yet",
            ),
            GameNotOver => (
                "la partida no ha terminado: se analiza al terminar",
                "the game is not over: it is analysed once it ends",
            ),
            TooLarge { max_kib } => {
                return (
                    format!("el PGN es demasiado grande (máximo {max_kib} KiB)"),
                    format!("the PGN is too large (at most {max_kib} KiB)"),
                )
            }
            EngineUnavailable => (
                "el motor de análisis no respondió; inténtalo de nuevo",
                "the analysis engine did not answer; try again",
            ),
            Unreadable { es, en, .. } => return (es, en),
        };
        (es.to_string(), en.to_string())
    }
}
