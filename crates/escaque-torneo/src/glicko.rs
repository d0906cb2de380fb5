//! Glicko-2 ratings as lichess runs them.
//!
//! The algorithm is Glickman's ("Example of the Glicko-2 system", 2022,
//! <http://www.glicko.net/glicko/glicko2.pdf>): steps 2–8, the volatility
//! found by the Illinois algorithm of step 5. Lichess's parameters (lila's
//! `modules/rating/src/main/Glicko.scala`, scalachess's
//! `rating/src/main/scala/glicko`):
//!
//! - a new player starts at 1500, deviation (RD) 500, volatility 0.09; a
//!   managed account (a pupil of a class) at 800, RD 400;
//! - τ = 0.75;
//! - every game is its own rating period, computed at once (lichess's
//!   `computeGame(…, skipDeviationIncrease = true)`): the volatility does
//!   not widen the deviation within the game;
//! - the deviation grows with the time since the player's last rated game,
//!   at 0.21436 rating periods per day ("chosen so a typical player's RD
//!   goes from 60 to 110 in one year"): φ² + t·σ² ([`Glicko::aged`]);
//! - after a game the rating is kept at 400 or more, the deviation within
//!   45–500 and the volatility at most 0.1 ([`Glicko::capped`]);
//! - a rating is provisional while its deviation is 110 or more, shown
//!   with "?" ([`Glicko::display`]); its whole-number form is the rating
//!   truncated, as lichess's `intRating`.
//!
//! Lichess (lila pull request #18629, scalachess `ColorAdvantage`) also
//! counts White's first-move advantage in standard chess: White is
//! expected to score as if rated 11.782457 points more than Black (half
//! added to White, half taken from Black when computing the expectations);
//! Chess960 and positions set up by hand use none. escaque does the same
//! ([`ColorAdvantage::STANDARD`] for the time-class pools, zero for
//! Chess960). Lichess's `RatingRegulator`, which multiplies rating gains
//! by 1.005–1.015 per pool to counter deflation, is not part of Glicko-2
//! and escaque does not apply it.
//!
//! ```
//! use escaque_torneo::glicko::{rate_game, ColorAdvantage, Glicko};
//!
//! let [w, b] = rate_game(Glicko::DEFAULT, Glicko::DEFAULT, 1.0, ColorAdvantage::ZERO).unwrap();
//! assert_eq!((w.int_rating(), b.int_rating()), (1741, 1258));
//! assert!(w.provisional() && w.display().ends_with('?'));
//! ```

use core::fmt;

/// The Glicko-2 scale factor (400 / ln 10).
const SCALE: f64 = 173.7178;
/// The rating that maps to 0 on the Glicko-2 scale.
const CENTRE: f64 = 1500.0;
/// The convergence tolerance of step 5 (lichess's).
const EPSILON: f64 = 0.000001;
/// At most this many steps of the Illinois algorithm.
const MAX_ITERATIONS: u32 = 1000;
const MS_PER_DAY: f64 = 86_400_000.0;

/// τ, the system constant that limits how fast the volatility changes.
pub const TAU: f64 = 0.75;
/// Rating periods per day of inactivity (the deviation's growth).
pub const RATING_PERIODS_PER_DAY: f64 = 0.21436;
/// The smallest deviation.
pub const MIN_DEVIATION: f64 = 45.0;
/// The largest deviation (a new player's).
pub const MAX_DEVIATION: f64 = 500.0;
/// A rating is provisional while its deviation is at least this.
pub const PROVISIONAL_DEVIATION: f64 = 110.0;
/// A new player's volatility.
pub const DEFAULT_VOLATILITY: f64 = 0.09;
/// The largest volatility kept after a game.
pub const MAX_VOLATILITY: f64 = 0.1;
/// The lowest rating kept after a game.
pub const MIN_RATING: f64 = 400.0;

/// A player's rating, deviation and volatility.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Glicko {
    /// The rating (μ on the Glicko scale).
    pub rating: f64,
    /// The rating deviation (RD).
    pub deviation: f64,
    /// The volatility (σ).
    pub volatility: f64,
}

/// White's first-move advantage, in rating points.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct ColorAdvantage(pub f64);

impl ColorAdvantage {
    /// None: Chess960, positions set up by hand, Glickman's example.
    pub const ZERO: ColorAdvantage = ColorAdvantage(0.0);
    /// Standard chess from the initial position (lichess's
    /// `ColorAdvantage.standard`).
    pub const STANDARD: ColorAdvantage = ColorAdvantage(11.782457);
}

/// Why a rating could not be computed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GlickoError {
    /// A rating, deviation, volatility or score is not a usable number
    /// (not finite, a deviation or volatility not positive, a score
    /// outside 0–1).
    BadInput,
    /// The volatility's iteration did not converge.
    NoConvergence,
}

impl fmt::Display for GlickoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            GlickoError::BadInput => {
                "puntuación Glicko-2 con datos inválidos / Glicko-2 rating with unusable input"
            }
            GlickoError::NoConvergence => {
                "la volatilidad Glicko-2 no converge / the Glicko-2 volatility does not converge"
            }
        })
    }
}

impl std::error::Error for GlickoError {}

impl Glicko {
    /// A new player: 1500, RD 500, volatility 0.09.
    pub const DEFAULT: Glicko = Glicko {
        rating: 1500.0,
        deviation: MAX_DEVIATION,
        volatility: DEFAULT_VOLATILITY,
    };

    /// A new managed account (a pupil of a class): 800, RD 400, volatility
    /// 0.09 (lichess's `defaultManaged`).
    pub const MANAGED: Glicko = Glicko {
        rating: 800.0,
        deviation: 400.0,
        volatility: DEFAULT_VOLATILITY,
    };

    /// The rating as a whole number: truncated, as lichess shows it.
    pub fn int_rating(&self) -> i64 {
        self.rating as i64
    }

    /// Provisional while the deviation is 110 or more.
    pub fn provisional(&self) -> bool {
        self.deviation >= PROVISIONAL_DEVIATION
    }

    /// The rating as shown: `1500?` while provisional, `1623` after.
    pub fn display(&self) -> String {
        format!(
            "{}{}",
            self.int_rating(),
            if self.provisional() { "?" } else { "" }
        )
    }

    /// The deviation after `elapsed_ms` milliseconds without a rated game
    /// (step 6 for the rating periods that passed, at
    /// [`RATING_PERIODS_PER_DAY`]), kept within 45–500. A negative time
    /// counts as none.
    pub fn aged(self, elapsed_ms: i64) -> Glicko {
        let periods = elapsed_ms.max(0) as f64 / MS_PER_DAY * RATING_PERIODS_PER_DAY;
        let phi = self.deviation / SCALE;
        let grown = (phi * phi + periods * self.volatility * self.volatility).sqrt() * SCALE;
        Glicko {
            deviation: grown.clamp(MIN_DEVIATION, MAX_DEVIATION),
            ..self
        }
    }

    /// Kept within lichess's bounds: rating at least 400, deviation within
    /// 45–500, volatility at most 0.1.
    pub fn capped(self) -> Glicko {
        Glicko {
            rating: self.rating.max(MIN_RATING),
            deviation: self.deviation.clamp(MIN_DEVIATION, MAX_DEVIATION),
            volatility: self.volatility.min(MAX_VOLATILITY),
        }
    }

    fn usable(&self) -> bool {
        self.rating.is_finite()
            && self.deviation.is_finite()
            && self.volatility.is_finite()
            && self.deviation > 0.0
            && self.volatility > 0.0
    }
}

/// One game of a rating period, from the player's side.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Opponent {
    /// The opponent's rating before the period.
    pub glicko: Glicko,
    /// The player's score: 1 a win, ½ a draw, 0 a loss.
    pub score: f64,
    /// The player's advantage in this game, in rating points (half
    /// White's first-move advantage: positive for White, negative for
    /// Black; zero without one).
    pub advantage: f64,
}

/// g(φ), step 3.
fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (core::f64::consts::PI * core::f64::consts::PI)).sqrt()
}

/// E(μ, μj, φj), step 3.
fn expected(mu: f64, mu_j: f64, phi_j: f64) -> f64 {
    1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp())
}

/// A player's rating after one rating period with these games; `periods`
/// rating periods are counted as elapsed in step 6 (Glickman's example: 1;
/// lichess's games: 0). With no games only the deviation grows (step 6
/// alone). `tau` is the system constant ([`TAU`] for lichess's; the paper
/// uses 0.5). Nothing is capped here: see [`Glicko::capped`].
pub fn rate(
    player: Glicko,
    games: &[Opponent],
    periods: f64,
    tau: f64,
) -> Result<Glicko, GlickoError> {
    let inputs_ok = player.usable()
        && periods.is_finite()
        && periods >= 0.0
        && tau.is_finite()
        && tau > 0.0
        && games.iter().all(|o| {
            o.glicko.usable() && (0.0..=1.0).contains(&o.score) && o.advantage.is_finite()
        });
    if !inputs_ok {
        return Err(GlickoError::BadInput);
    }
    // Step 2: to the Glicko-2 scale.
    let mu = (player.rating - CENTRE) / SCALE;
    let phi = player.deviation / SCALE;
    let sigma = player.volatility;
    if games.is_empty() {
        let phi_star = (phi * phi + periods * sigma * sigma).sqrt();
        return Ok(Glicko {
            deviation: phi_star * SCALE,
            ..player
        });
    }
    // Steps 3 and 4: the estimated variance v and improvement Δ.
    let mut v_inv = 0.0;
    let mut outcome = 0.0;
    for o in games {
        let mu_a = (player.rating + o.advantage - CENTRE) / SCALE;
        let mu_j = (o.glicko.rating - o.advantage - CENTRE) / SCALE;
        let phi_j = o.glicko.deviation / SCALE;
        let e = expected(mu_a, mu_j, phi_j);
        let gj = g(phi_j);
        v_inv += gj * gj * e * (1.0 - e);
        outcome += gj * (o.score - e);
    }
    let v = 1.0 / v_inv;
    let delta = v * outcome;
    // Step 5: the new volatility (Illinois algorithm).
    let a = (sigma * sigma).ln();
    let f = |x: f64| {
        let ex = x.exp();
        let d = phi * phi + v + ex;
        ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau)
    };
    let mut big_a = a;
    let mut big_b = if delta * delta > phi * phi + v {
        (delta * delta - phi * phi - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * tau) < 0.0 {
            k += 1.0;
            if k > f64::from(MAX_ITERATIONS) {
                return Err(GlickoError::NoConvergence);
            }
        }
        a - k * tau
    };
    let mut f_a = f(big_a);
    let mut f_b = f(big_b);
    let mut iterations = 0;
    while (big_b - big_a).abs() > EPSILON {
        iterations += 1;
        if iterations >= MAX_ITERATIONS {
            return Err(GlickoError::NoConvergence);
        }
        let c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
        let f_c = f(c);
        if f_c * f_b <= 0.0 {
            big_a = big_b;
            f_a = f_b;
        } else {
            f_a /= 2.0;
        }
        big_b = c;
        f_b = f_c;
    }
    let sigma_new = (big_a / 2.0).exp();
    // Step 6: the pre-period deviation.
    let phi_star = (phi * phi + periods * sigma_new * sigma_new).sqrt();
    // Step 7: the new deviation and rating.
    let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
    let mu_new = mu + phi_new * phi_new * outcome;
    // Step 8: back to the Glicko scale.
    let out = Glicko {
        rating: mu_new * SCALE + CENTRE,
        deviation: phi_new * SCALE,
        volatility: sigma_new,
    };
    if out.usable() {
        Ok(out)
    } else {
        Err(GlickoError::BadInput)
    }
}

/// One game between `white` and `black`, as lichess rates it: each side's
/// own rating period with this one game, no period counted as elapsed,
/// τ = 0.75, White's `advantage` split between the sides; then capped.
/// `white_score` is 1, ½ or 0. The ratings given should already be aged to
/// the game ([`Glicko::aged`]).
pub fn rate_game(
    white: Glicko,
    black: Glicko,
    white_score: f64,
    advantage: ColorAdvantage,
) -> Result<[Glicko; 2], GlickoError> {
    let half = advantage.0 / 2.0;
    let w = rate(
        white,
        &[Opponent {
            glicko: black,
            score: white_score,
            advantage: half,
        }],
        0.0,
        TAU,
    )?;
    let b = rate(
        black,
        &[Opponent {
            glicko: white,
            score: 1.0 - white_score,
            advantage: -half,
        }],
        0.0,
        TAU,
    )?;
    Ok([w.capped(), b.capped()])
}
