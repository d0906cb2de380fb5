//! Rating changes under FIDE's Rating Regulations (effective 1 March 2024):
//! the expected-score table (8.1.2, a difference of more than 400 points
//! counted as 400) and the development coefficient K (8.3.3).
//!
//! Only games played over the board between two rated players count
//! (forfeits, byes and unplayed games do not, 7.1). The regulations' K = 40
//! for a player's first 30 rated games cannot be known from a tournament
//! file, which holds no game count: here K is 40 for a player up to the end
//! of the year of their 18th birthday while rated below 2300, 20 below 2400,
//! and 10 from 2400; and K × n is kept at most 700 (8.3.3.1).

use crate::model::{Entry, GameResult, PlayerId, Tournament};

/// FIDE's table 8.1.2: the upper bound of each rating difference band and
/// the higher-rated player's expected score in hundredths (0.50 … 0.99;
/// beyond the last band 1.00, never reached since differences are capped
/// at 400).
const TABLE: [(u16, u8); 50] = [
    (3, 50),
    (10, 51),
    (17, 52),
    (25, 53),
    (32, 54),
    (39, 55),
    (46, 56),
    (53, 57),
    (61, 58),
    (68, 59),
    (76, 60),
    (83, 61),
    (91, 62),
    (98, 63),
    (106, 64),
    (113, 65),
    (121, 66),
    (129, 67),
    (137, 68),
    (145, 69),
    (153, 70),
    (162, 71),
    (170, 72),
    (179, 73),
    (188, 74),
    (197, 75),
    (206, 76),
    (215, 77),
    (225, 78),
    (235, 79),
    (245, 80),
    (256, 81),
    (267, 82),
    (278, 83),
    (290, 84),
    (302, 85),
    (315, 86),
    (328, 87),
    (344, 88),
    (357, 89),
    (374, 90),
    (391, 91),
    (411, 92),
    (432, 93),
    (456, 94),
    (484, 95),
    (517, 96),
    (559, 97),
    (619, 98),
    (735, 99),
];

/// The difference at which the table is read for larger differences.
pub const MAX_DIFFERENCE: u16 = 400;

/// The expected score of a player rated `own` against one rated
/// `opponent`, from FIDE's table (in hundredths: 50 = 0.50).
pub fn expected_hundredths(own: u16, opponent: u16) -> u8 {
    let d = own.abs_diff(opponent).min(MAX_DIFFERENCE);
    let higher = TABLE
        .iter()
        .find(|(upper, _)| d <= *upper)
        .map_or(100, |(_, p)| *p);
    if own >= opponent {
        higher
    } else {
        100 - higher
    }
}

/// The expected score in hundredths as tie-breaks read FIDE's table
/// (C.07's PTP and APPO): the difference is not capped at 400 but at 800,
/// the table's last band (735) giving 0.99 and any larger difference 1.00.
pub fn expected_hundredths_uncapped(own: i32, opponent: i32) -> u8 {
    let d = own.abs_diff(opponent).min(800);
    let higher = TABLE
        .iter()
        .find(|(upper, _)| d <= u32::from(*upper))
        .map_or(100, |(_, p)| *p);
    if own >= opponent {
        higher
    } else {
        100 - higher
    }
}

/// FIDE's table 8.1.1 (B.02): the rating difference dp for each percentage
/// score p = 0 %, 1 %, …, 100 % (TPR = ARO + dp; C.07's TPR and APRO).
pub const SCORE_TO_DP: [i16; 101] = [
    -800, -677, -589, -538, -501, -470, -444, -422, -401, -383, -366, -351, -336, -322, -309, -296,
    -284, -273, -262, -251, -240, -230, -220, -211, -202, -193, -184, -175, -166, -158, -149, -141,
    -133, -125, -117, -110, -102, -95, -87, -80, -72, -65, -57, -50, -43, -36, -29, -21, -14, -7,
    0, 7, 14, 21, 29, 36, 43, 50, 57, 65, 72, 80, 87, 95, 102, 110, 117, 125, 133, 141, 149, 158,
    166, 175, 184, 193, 202, 211, 220, 230, 240, 251, 262, 273, 284, 296, 309, 322, 336, 351, 366,
    383, 401, 422, 444, 470, 501, 538, 589, 677, 800,
];

/// [`expected_hundredths`] as a fraction.
pub fn expected_score(own: u16, opponent: u16) -> f64 {
    f64::from(expected_hundredths(own, opponent)) / 100.0
}

/// The development coefficient of a player rated `rating`, born in
/// `birth_year` (if known), in an event held in `year`.
pub fn k_factor(rating: u16, birth_year: Option<u16>, year: i32) -> u32 {
    let junior = birth_year.is_some_and(|b| year <= i32::from(b) + 18);
    if junior && rating < 2300 {
        40
    } else if rating < 2400 {
        20
    } else {
        10
    }
}

/// One rated player's change over the tournament's results so far.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingChange {
    pub player: PlayerId,
    /// Rated games played over the board.
    pub games: u32,
    /// Sum of the expected scores of those games.
    pub expected: f64,
    /// Points scored in them.
    pub score: f64,
    /// The K used (after the K × n ≤ 700 limit).
    pub k: f64,
    /// K × (score − expected), to one decimal.
    pub change: f64,
}

/// The rating change of every rated player with at least one rated game
/// played, in start-number order; `year` is the event's year (for the
/// juniors' K).
pub fn changes(t: &Tournament, year: i32) -> Vec<RatingChange> {
    let mut out = Vec::new();
    for (i, p) in t.players.iter().enumerate() {
        let id = i as PlayerId + 1;
        let Some(own) = p.rating.filter(|r| *r > 0) else {
            continue;
        };
        let (mut games, mut expected, mut score) = (0u32, 0u32, 0u32);
        for r in 1..=t.rounds.len() as u32 {
            let Entry::Game {
                opponent, result, ..
            } = t.entry(id, r)
            else {
                continue;
            };
            if !result.played() {
                continue;
            }
            let Some(opp) = t
                .player(opponent)
                .ok()
                .and_then(|o| o.rating)
                .filter(|r| *r > 0)
            else {
                continue;
            };
            games += 1;
            expected += u32::from(expected_hundredths(own, opp));
            score += match result {
                GameResult::Win => 100,
                GameResult::Draw => 50,
                _ => 0,
            };
        }
        if games == 0 {
            continue;
        }
        let mut k = f64::from(k_factor(own, p.birth_year, year));
        if k * f64::from(games) > 700.0 {
            k = 700.0 / f64::from(games);
        }
        let diff = (f64::from(score) - f64::from(expected)) / 100.0;
        out.push(RatingChange {
            player: id,
            games,
            expected: f64::from(expected) / 100.0,
            score: f64::from(score) / 100.0,
            k,
            change: (k * diff * 10.0).round() / 10.0,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Game, Outcome, Player, Round, System};

    #[test]
    fn the_expected_score_is_fides_table() {
        // Band edges of FIDE's table 8.1.2 (Rating Regulations 2024).
        for (d, p) in [
            (0, 50),
            (3, 50),
            (4, 51),
            (10, 51),
            (11, 52),
            (25, 53),
            (26, 54),
            (99, 64),
            (100, 64),
            (106, 64),
            (107, 65),
            (200, 76),
            (206, 76),
            (207, 77),
            (300, 85),
            (344, 88),
            (345, 89),
            (391, 91),
            (392, 92),
            (400, 92),
        ] {
            assert_eq!(expected_hundredths(2000 + d, 2000), p, "D = {d}");
            assert_eq!(expected_hundredths(2000, 2000 + d), 100 - p, "D = -{d}");
        }
        // More than 400 counts as 400.
        assert_eq!(expected_hundredths(2500, 1800), 92);
        assert_eq!(expected_hundredths(1800, 2500), 8);
        assert_eq!(expected_score(1500, 1500), 0.5);
    }

    #[test]
    fn k_follows_age_and_rating() {
        assert_eq!(k_factor(1500, Some(2012), 2026), 40);
        assert_eq!(k_factor(1500, Some(2008), 2026), 40); // 18 this year
        assert_eq!(k_factor(1500, Some(2007), 2026), 20);
        assert_eq!(k_factor(2350, Some(2012), 2026), 20);
        assert_eq!(k_factor(2399, None, 2026), 20);
        assert_eq!(k_factor(2400, None, 2026), 10);
    }

    #[test]
    fn a_tournament_changes_only_rated_played_games() {
        let mut t = Tournament::new("R", System::Swiss, 2);
        for (name, rating) in [
            ("A", Some(2000)),
            ("B", Some(1800)),
            ("C", None),
            ("D", Some(1900)),
        ] {
            let mut p = Player::new(name);
            p.rating = rating;
            p.birth_year = Some(1990);
            t.add_player(p).unwrap();
        }
        t.record_round(Round {
            games: vec![
                Game {
                    white: 1,
                    black: 2,
                    outcome: Outcome::Draw,
                    unusual: None,
                },
                Game {
                    white: 3,
                    black: 4,
                    outcome: Outcome::WhiteWins,
                    unusual: None,
                },
            ],
            byes: vec![],
        })
        .unwrap();
        t.record_round(Round {
            games: vec![
                Game {
                    white: 4,
                    black: 1,
                    outcome: Outcome::BlackWins,
                    unusual: None,
                },
                Game {
                    white: 2,
                    black: 3,
                    outcome: Outcome::WhiteForfeitWin,
                    unusual: None,
                },
            ],
            byes: vec![],
        })
        .unwrap();
        let c = changes(&t, 2026);
        // A: draw v 1800 (D=200: 0.76), win v 1900 (D=100: 0.64).
        assert_eq!(c[0].player, 1);
        assert_eq!(c[0].games, 2);
        assert!((c[0].expected - 1.40).abs() < 1e-9);
        assert!((c[0].score - 1.5).abs() < 1e-9);
        assert_eq!(c[0].k, 20.0);
        assert!((c[0].change - 2.0).abs() < 1e-9);
        // B: one game (the forfeit does not count): 0.5 − 0.24 = 0.26 → 5.2.
        assert_eq!(c[1].player, 2);
        assert_eq!(c[1].games, 1);
        assert!((c[1].change - 5.2).abs() < 1e-9);
        // C unrated: none; D lost to A only (the game with C is unrated).
        assert_eq!(c[2].player, 4);
        assert_eq!(c[2].games, 1);
        assert!((c[2].change - (-7.2)).abs() < 1e-9);
        assert_eq!(c.len(), 3);
    }

    #[test]
    fn k_times_games_is_at_most_700() {
        let mut t = Tournament::new("R", System::RoundRobin { double: false }, 0);
        for i in 0..20 {
            let mut p = Player::new(&format!("P{i}"));
            p.rating = Some(1500);
            p.birth_year = Some(2015);
            t.add_player(p).unwrap();
        }
        t.total_rounds = 19;
        for r in 1..=19 {
            let pairs = crate::berger::table_round(20, r);
            t.record_round(Round {
                games: pairs
                    .into_iter()
                    .map(|(w, b)| Game {
                        white: w,
                        black: b,
                        outcome: Outcome::Draw,
                        unusual: None,
                    })
                    .collect(),
                byes: vec![],
            })
            .unwrap();
        }
        let c = changes(&t, 2026);
        assert_eq!(c[0].games, 19);
        assert!((c[0].k - 700.0 / 19.0).abs() < 1e-9);
        assert_eq!(c[0].change, 0.0);
    }
}
