//! Ratings: which pool a game counts in, who and what may be rated, the
//! change a finished rated game makes (Glicko-2 as lichess runs it:
//! [`escaque_torneo::glicko`]), applied once in one transaction
//! ([`Store::apply_rating`]) when the game ends, and again at start for
//! the games a stopped process left unapplied ([`sweep`]). The rules are
//! written out for people in `docs/ratings.md`.

use escaque::{RuleSet, TimeControl};
use escaque_torneo::glicko::{rate_game, ColorAdvantage, Glicko};

use crate::store::{account_of, GameRow, PendingGame, RatingUpdate, Store, StoreError};

/// The pool of every Chess960 game, whatever its clock.
pub const CHESS960: &str = "chess960";

/// Every pool: the four time classes, then Chess960.
pub const PERFS: [&str; 5] = ["bullet", "blitz", "rapid", "classical", CHESS960];

/// The pool a game counts in: `chess960` for a Chess960 game, else its
/// clock's time class ([`TimeControl::time_class`]); `None` without a
/// clock (such a game is never rated).
pub fn perf_of(chess960: bool, tc: Option<&TimeControl>) -> Option<&'static str> {
    let tc = tc?;
    Some(if chess960 {
        CHESS960
    } else {
        tc.time_class().id()
    })
}

/// White's first-move advantage in a pool: lichess's standard one for the
/// time classes (games from the initial position: rated games have no
/// other), none for Chess960.
pub fn advantage(perf: &str) -> ColorAdvantage {
    if perf == CHESS960 {
        ColorAdvantage::ZERO
    } else {
        ColorAdvantage::STANDARD
    }
}

/// Where a new account starts: 1500 (RD 500), or 800 (RD 400) for a
/// managed account.
pub fn start(managed: bool) -> Glicko {
    if managed {
        Glicko::MANAGED
    } else {
        Glicko::DEFAULT
    }
}

/// Why a game cannot be rated, or a seek's range refused.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum RatedRefusal {
    /// A guest: only accounts have ratings.
    NeedsAccount,
    /// No clock: no pool to count in.
    NeedsClock,
    /// Rules other than FIDE 2023.
    NeedsFideRules,
    /// Odds.
    Odds,
    /// A position set up by hand.
    Position,
    /// Against the engine.
    Engine,
    /// The taker's rating is outside the seek's range.
    OutOfRange,
    /// A range that is not `[min, max]` offsets within ±1000 with min ≤ max,
    /// or a range on a seek without a clock.
    BadRange,
}

impl RatedRefusal {
    /// The stable code.
    pub fn code(self) -> &'static str {
        match self {
            RatedRefusal::NeedsAccount => "rated_needs_account",
            RatedRefusal::NeedsClock => "rated_needs_clock",
            RatedRefusal::NeedsFideRules => "rated_needs_fide_rules",
            RatedRefusal::Odds => "rated_no_odds",
            RatedRefusal::Position => "rated_no_position",
            RatedRefusal::Engine => "rated_no_engine",
            RatedRefusal::OutOfRange => "out_of_range",
            RatedRefusal::BadRange => "bad_rating_range",
        }
    }

    /// Spanish and English text.
    pub fn text(self) -> (&'static str, &'static str) {
        match self {
            RatedRefusal::NeedsAccount => (
                "solo se puntúan las partidas entre cuentas: entra con tu cuenta",
                "only games between accounts are rated: log in",
            ),
            RatedRefusal::NeedsClock => (
                "una partida con puntuación necesita reloj",
                "a rated game needs a clock",
            ),
            RatedRefusal::NeedsFideRules => (
                "una partida con puntuación se juega con las reglas FIDE 2023",
                "a rated game is played under the FIDE 2023 rules",
            ),
            RatedRefusal::Odds => (
                "una partida con ventaja no se puntúa",
                "a game at odds is not rated",
            ),
            RatedRefusal::Position => (
                "una partida desde una posición preparada no se puntúa",
                "a game from a set-up position is not rated",
            ),
            RatedRefusal::Engine => (
                "las partidas contra el motor no se puntúan",
                "games against the engine are not rated",
            ),
            RatedRefusal::OutOfRange => (
                "tu puntuación está fuera del margen que pide la propuesta",
                "your rating is outside the range the seek asks for",
            ),
            RatedRefusal::BadRange => (
                "el margen de puntuación debe ser [mínimo, máximo], diferencias entre -1000 y 1000 con mínimo ≤ máximo, en una propuesta con reloj",
                "the rating range must be [min, max], offsets from -1000 to 1000 with min ≤ max, on a seek with a clock",
            ),
        }
    }
}

/// What decides whether a new game may be rated.
#[derive(Copy, Clone, Debug)]
pub struct Ratable<'a> {
    /// The rule set.
    pub rules: RuleSet,
    /// The clock.
    pub time_control: Option<&'a TimeControl>,
    /// A Chess960 game (from a numbered or random start: not "set up").
    pub chess960: bool,
    /// Odds given.
    pub odds: bool,
    /// A start position set up by hand (a FEN).
    pub custom_position: bool,
    /// Against the engine.
    pub engine: bool,
    /// Whether the people seated (or to be seated) are accounts.
    pub accounts: bool,
}

/// The pool a rated game would count in, or why it cannot be rated.
pub fn check_rated(r: Ratable<'_>) -> Result<&'static str, RatedRefusal> {
    if r.engine {
        return Err(RatedRefusal::Engine);
    }
    if !r.accounts {
        return Err(RatedRefusal::NeedsAccount);
    }
    if r.rules.id() != RuleSet::fide_2023().id() {
        return Err(RatedRefusal::NeedsFideRules);
    }
    if r.odds {
        return Err(RatedRefusal::Odds);
    }
    if r.custom_position {
        return Err(RatedRefusal::Position);
    }
    perf_of(r.chess960, r.time_control).ok_or(RatedRefusal::NeedsClock)
}

/// A seek's range `[min_offset, max_offset]` checked.
pub fn check_range(range: [i64; 2]) -> Result<[i64; 2], RatedRefusal> {
    let [lo, hi] = range;
    if lo > hi || !(-1000..=1000).contains(&lo) || !(-1000..=1000).contains(&hi) {
        return Err(RatedRefusal::BadRange);
    }
    Ok(range)
}

/// An account's rating in a pool now: as stored, its deviation grown for
/// the time since its last rated game there; where it starts when it has
/// none.
pub async fn current(store: &Store, user: &str, perf: &str) -> Result<Glicko, StoreError> {
    Ok(match store.rating(user, perf).await? {
        Some(r) => r.glicko.aged(crate::store::now_ms() - r.updated_ms),
        None => start(store.is_managed(user).await?),
    })
}

/// The current rating of an owner identity in a pool (`None` for a guest).
pub async fn current_of(
    store: &Store,
    owner: Option<&str>,
    perf: &str,
) -> Result<Option<Glicko>, StoreError> {
    match account_of(owner) {
        Some(user) => Ok(Some(current(store, user, perf).await?)),
        None => Ok(None),
    }
}

/// Sets a new rated game's pool and the ratings of the accounts seated
/// (the row is not stored yet). A casual game is left as it is.
pub async fn fill_new_game(store: &Store, row: &mut GameRow) -> Result<(), StoreError> {
    if !row.rated {
        return Ok(());
    }
    let tc = row
        .time_control
        .as_deref()
        .and_then(|t| t.parse::<TimeControl>().ok());
    let Some(perf) = perf_of(row.chess960, tc.as_ref()) else {
        // No pool: the game cannot be rated (the callers check before).
        row.rated = false;
        return Ok(());
    };
    row.perf = Some(perf.to_string());
    for (i, owner) in [row.white_owner.clone(), row.black_owner.clone()]
        .iter()
        .enumerate()
    {
        row.ratings[i] = current_of(store, owner.as_deref(), perf)
            .await?
            .map(|g| g.int_rating());
    }
    Ok(())
}

/// The change a finished rated game makes, from what the transaction read
/// (`now_ms`: when it is applied): none for a game without a result
/// (aborted), with fewer than two half-moves played (as lichess: nobody
/// has really played), or not between two accounts.
pub fn compute(p: &PendingGame, now_ms: i64) -> Option<RatingUpdate> {
    let perf = p.row.perf.as_deref()?;
    let result = p.row.end?.result?;
    if !p.row.rated || p.plies < 2 || p.users.iter().any(Option::is_none) {
        return None;
    }
    let before = [0, 1].map(|i| match p.ratings[i] {
        Some(r) => r.glicko.aged(now_ms - r.updated_ms),
        None => start(p.managed[i]),
    });
    let white_score = match result {
        escaque::GameResult::WhiteWins => 1.0,
        escaque::GameResult::BlackWins => 0.0,
        escaque::GameResult::Draw => 0.5,
    };
    let after = rate_game(before[0], before[1], white_score, advantage(perf)).ok()?;
    Some(RatingUpdate {
        after,
        diffs: [0, 1].map(|i| after[i].int_rating() - before[i].int_rating()),
    })
}

/// Applies a finished rated game (once: see [`Store::apply_rating`]).
pub async fn apply(store: &Store, game: &str) -> Result<Option<RatingUpdate>, StoreError> {
    let now = crate::store::now_ms();
    store.apply_rating(game, |p| compute(p, now)).await
}

/// Applies every finished rated game a stopped process left unapplied
/// (run at start); how many were looked at.
pub async fn sweep(store: &Store) -> Result<usize, StoreError> {
    let games = store.unapplied_rated_games().await?;
    for g in &games {
        apply(store, g).await?;
    }
    Ok(games.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tc(t: &str) -> TimeControl {
        t.parse().unwrap()
    }

    #[test]
    fn pools() {
        assert_eq!(perf_of(false, None), None);
        assert_eq!(perf_of(true, None), None);
        assert_eq!(perf_of(false, Some(&tc("1+0"))), Some("bullet"));
        assert_eq!(perf_of(false, Some(&tc("5+3"))), Some("blitz"));
        assert_eq!(perf_of(false, Some(&tc("10+5"))), Some("rapid"));
        assert_eq!(perf_of(false, Some(&tc("30+20"))), Some("classical"));
        assert_eq!(perf_of(true, Some(&tc("1+0"))), Some("chess960"));
        for p in PERFS {
            assert!(p == CHESS960 || escaque::TimeClass::from_id(p).is_some());
        }
        assert_eq!(advantage("blitz"), ColorAdvantage::STANDARD);
        assert_eq!(advantage("chess960"), ColorAdvantage::ZERO);
    }

    #[test]
    fn who_and_what_is_rated() {
        let clock = tc("5+3");
        let ok = Ratable {
            rules: RuleSet::fide_2023(),
            time_control: Some(&clock),
            chess960: false,
            odds: false,
            custom_position: false,
            engine: false,
            accounts: true,
        };
        assert_eq!(check_rated(ok), Ok("blitz"));
        assert_eq!(
            check_rated(Ratable {
                chess960: true,
                ..ok
            }),
            Ok("chess960")
        );
        let refused = [
            (Ratable { engine: true, ..ok }, RatedRefusal::Engine),
            (
                Ratable {
                    accounts: false,
                    ..ok
                },
                RatedRefusal::NeedsAccount,
            ),
            (
                Ratable {
                    rules: RuleSet::londres_1846(),
                    ..ok
                },
                RatedRefusal::NeedsFideRules,
            ),
            (Ratable { odds: true, ..ok }, RatedRefusal::Odds),
            (
                Ratable {
                    custom_position: true,
                    ..ok
                },
                RatedRefusal::Position,
            ),
            (
                Ratable {
                    time_control: None,
                    ..ok
                },
                RatedRefusal::NeedsClock,
            ),
        ];
        for (r, why) in refused {
            assert_eq!(check_rated(r), Err(why));
        }
        assert_eq!(check_range([-200, 300]), Ok([-200, 300]));
        assert_eq!(check_range([0, 0]), Ok([0, 0]));
        assert_eq!(check_range([300, -200]), Err(RatedRefusal::BadRange));
        assert_eq!(check_range([-1001, 0]), Err(RatedRefusal::BadRange));
        assert_eq!(check_range([0, 5000]), Err(RatedRefusal::BadRange));
    }
}
