//! Unusual results (FIDE's checklist VCL.13): a game played that ends ½-0,
//! 0-½ or 0-0. Each player scores their own points — in the standings, in
//! the Dutch pairing's score groups and in every tie-break — and TRF-2026
//! writes each player's own code (`=`/`0`, `0`/`=`, `0`/`0`). Worked by
//! hand on a four-player event; generated files with such results read
//! back, check clean and follow the configured rate; the TRF reader never
//! panics on a file with them mutated. (bbpPairings --dutch -c on generated
//! files with unusual results: BENCHMARKS.md.)

use escaque_torneo::check::{check, Problem};
use escaque_torneo::generate::{generate, Config, Rate};
use escaque_torneo::model::{Colour, Entry, GameResult, Outcome, Unusual};
use escaque_torneo::standings::{compute_after, TieBreak};
use escaque_torneo::{trf, Tournament};
use proptest::prelude::*;

const HEAD: &str = "012 Hand\n042 2026/03/10\n092 Swiss\nXXR 3\n";

/// Four players, three rounds:
/// round 1: 1–2 ½-0, 3–4 0-0; round 2: 4–1 0-1, 2–3 0-½;
/// round 3: 1–3 1-0, 4–2 ½-0. Own points: 1 2.5, 2 0, 3 ½, 4 ½.
const ROWS: &str = "\
001    1 m    Player 1                          2000 ESP                         2.5    1     2 w =     4 b 1     3 w 1
001    2 m    Player 2                          1800 ESP                         0.0    2     1 b 0     3 w 0     4 b 0
001    3 m    Player 3                          1600 ESP                         0.5    3     4 w 0     2 b =     1 b 0
001    4 m    Player 4                          1400 ESP                         0.5    4     3 b 0     1 w 0     2 w =
";

fn event() -> (Tournament, String) {
    let text = format!("{HEAD}{ROWS}");
    (trf::parse(&text).unwrap(), text)
}

fn column(t: &mut Tournament, tb: TieBreak) -> Vec<f64> {
    t.tiebreaks = vec![tb];
    let mut rows = compute_after(t, 3);
    rows.sort_by_key(|s| s.player);
    rows.into_iter().map(|s| s.tiebreaks[0]).collect()
}

#[test]
fn the_texts_read_and_write() {
    for u in Unusual::ALL {
        assert_eq!(Unusual::parse(u.text()), Some(u));
        let (w, b) = u.sides();
        assert_eq!(Unusual::from_sides(w, b), Some(u));
        // None of them is a standard result.
        assert_eq!(Outcome::from_sides(w, b), None);
    }
    assert_eq!(Unusual::parse("1/2-0"), Some(Unusual::HalfZero));
    assert_eq!(Unusual::parse("0 - 0.5"), Some(Unusual::ZeroHalf));
    assert_eq!(Unusual::parse("1-0"), None);
    assert_eq!(Unusual::parse("½-½"), None);
    assert_eq!(Unusual::from_sides(GameResult::Win, GameResult::Loss), None);
}

#[test]
fn each_player_scores_their_own_points() {
    let (t, _) = event();
    let g = &t.rounds[0].games[0];
    assert_eq!(
        (g.white, g.black, g.unusual),
        (1, 2, Some(Unusual::HalfZero))
    );
    assert_eq!(t.rounds[0].games[1].unusual, Some(Unusual::ZeroZero));
    // Round 2's games in White's start-number order: 2–3, then 4–1.
    let (a, b) = (&t.rounds[1].games[0], &t.rounds[1].games[1]);
    assert_eq!((a.white, a.unusual), (2, Some(Unusual::ZeroHalf)));
    assert_eq!(
        (b.white, b.unusual, b.outcome),
        (4, None, Outcome::BlackWins)
    );
    // Half points.
    let scores: Vec<u32> = (1..=4).map(|id| t.score(id)).collect();
    assert_eq!(scores, [5, 0, 1, 1]);
    assert_eq!(
        t.entry(2, 1),
        Entry::Game {
            opponent: 1,
            colour: Colour::Black,
            result: GameResult::Loss
        }
    );
    // Played games, for every rule that counts them.
    assert!(t.entry(3, 1).played() && t.entry(4, 1).played());
    let mut rows = compute_after(&t, 3);
    rows.sort_by_key(|s| s.player);
    let points: Vec<u32> = rows.iter().map(|s| s.points).collect();
    assert_eq!(points, [5, 0, 1, 1]);
}

#[test]
fn tie_breaks_by_hand() {
    let (mut t, _) = event();
    // BH: the opponents' own scores. 1: 0 + ½ + ½; 2: 2½ + ½ + ½;
    // 3: ½ + 0 + 2½; 4: ½ + 2½ + 0.
    assert_eq!(column(&mut t, TieBreak::Buchholz), [1.0, 3.5, 3.0, 3.0]);
    // SB: each opponent's score times the player's own result against it.
    // 1: ½·0 + 1·½ + 1·½ = 1; 3 and 4 scored ½ only against 2 (0 points).
    assert_eq!(
        column(&mut t, TieBreak::SonnebornBerger),
        [1.0, 0.0, 0.0, 0.0]
    );
    // WIN and WON: only 1 won (rounds 2 and 3); a ½ in a ½-0 is no win.
    assert_eq!(column(&mut t, TieBreak::Wins), [2.0, 0.0, 0.0, 0.0]);
    assert_eq!(column(&mut t, TieBreak::GamesWon), [2.0, 0.0, 0.0, 0.0]);
    // PS: the running own scores. 1: ½ + 1½ + 2½; 3: 0 + ½ + ½; 4: 0 + 0 + ½.
    assert_eq!(column(&mut t, TieBreak::Progressive), [4.5, 0.0, 1.0, 0.5]);
    // BPG and BWG: 1 had Black in round 2 (and won); 2 in rounds 1 and 3,
    // 3 in rounds 2 and 3, 4 in round 1.
    assert_eq!(column(&mut t, TieBreak::BlackGames), [1.0, 2.0, 2.0, 1.0]);
    assert_eq!(column(&mut t, TieBreak::BlackWins), [1.0, 0.0, 0.0, 0.0]);
    // STD: the points by 1-½-0 are each player's own.
    assert_eq!(column(&mut t, TieBreak::Standard), [2.5, 0.0, 0.5, 0.5]);
    // DE: 3 and 4, tied on ½, met in round 1 and both lost (0-0): the
    // encounter separates nothing.
    assert_eq!(column(&mut t, TieBreak::DirectEncounter), [0.0; 4]);
    // Every game was played: no unplayed round for Article 16 to treat.
    assert_eq!(column(&mut t, TieBreak::ElectedToPlay), [3.0; 4]);
}

#[test]
fn the_file_writes_each_players_own_code_and_reads_back() {
    let (t, _) = event();
    let text = trf::write(&t);
    let again = trf::parse(&text).unwrap();
    assert_eq!(again.rounds, t.rounds);
    let line = |id: u32| {
        text.lines()
            .find(|l| l.starts_with(&format!("001 {id:>4}")))
            .unwrap()
            .to_string()
    };
    // Columns 81-84 the own points, 99/109/119 the own codes.
    let cell = |l: &str, col: usize| l.chars().nth(col - 1).unwrap();
    let two = line(2);
    assert_eq!(two[80..84].trim(), "0.0");
    assert_eq!(
        [cell(&two, 99), cell(&two, 109), cell(&two, 119)],
        ['0', '0', '0']
    );
    let three = line(3);
    assert_eq!(three[80..84].trim(), "0.5");
    assert_eq!(
        [cell(&three, 99), cell(&three, 109), cell(&three, 119)],
        ['0', '=', '0']
    );
    // The printed round shows the unusual result.
    let html = escaque_torneo::html::pairings(&t, 1);
    assert!(html.contains("½ - 0") && html.contains("0 - 0"), "{html}");
}

#[test]
fn codes_that_make_no_game_are_still_refused() {
    // Both players won their round-1 game: no result gives that.
    let text = format!("{HEAD}{ROWS}")
        .replacen("   2 w =", "   2 w 1", 1)
        .replacen("   1 b 0", "   1 b 1", 1);
    assert!(trf::parse(&text).is_err());
    // A forfeit against a game played.
    let text = format!("{HEAD}{ROWS}").replacen("   2 w =", "   2 w +", 1);
    assert!(trf::parse(&text).is_err());
}

#[test]
fn the_checker_counts_own_points() {
    let (t, text) = event();
    let points: Vec<_> = check(&t, &text)
        .problems
        .into_iter()
        .filter(|p| matches!(p, Problem::Points { .. }))
        .collect();
    assert!(points.is_empty(), "{points:?}");
    // Player 3 listed with 1.0 (as if the 0-½ were a draw for both).
    let wrong: String = text
        .lines()
        .map(|l| {
            if l.starts_with("001    3") {
                format!("{} 1.0{}\n", &l[..80], &l[84..])
            } else {
                format!("{l}\n")
            }
        })
        .collect();
    assert_ne!(wrong, text);
    let problems = check(&trf::parse(&wrong).unwrap(), &wrong).problems;
    assert!(problems.contains(&Problem::Points {
        player: 3,
        file: 2,
        computed: 1
    }));
}

#[test]
fn results_entered_replace_one_another() {
    let (mut t, _) = event();
    t.set_result_board(1, 1, Outcome::WhiteWins).unwrap();
    assert_eq!(t.rounds[0].games[0].unusual, None);
    assert_eq!(t.score(1), 6);
    t.set_unusual_board(1, 1, Unusual::ZeroHalf).unwrap();
    assert_eq!((t.score(1), t.score(2)), (4, 1));
    assert!(t.set_unusual_board(1, 9, Unusual::ZeroZero).is_err());
    assert!(t.set_unusual_board(7, 1, Unusual::ZeroZero).is_err());
}

#[test]
fn a_correction_says_what_the_board_held() {
    let (mut t, _) = event();
    // Board 1 of round 1 holds ½-0: replaced by a standard result, the
    // correction names ½-0, not the ½-½ it is stored with.
    let c = t.set_result_board(1, 1, Outcome::WhiteWins).unwrap();
    assert_eq!(c.previous_unusual, Some(Unusual::HalfZero));
    assert_eq!(c.previous_text(), Some("½-0"));
    assert_eq!(c.later_rounds_paired, [2, 3]);
    // A standard one replaced by an unusual one, and unusual by unusual.
    let c = t.set_unusual_board(1, 1, Unusual::ZeroZero).unwrap();
    assert_eq!((c.previous_unusual, c.previous_text()), (None, Some("1-0")));
    let c = t.set_unusual_board(1, 1, Unusual::ZeroHalf).unwrap();
    assert_eq!(c.previous_text(), Some("0-0"));
    let c = t.set_result_board(1, 1, Outcome::Draw).unwrap();
    assert_eq!(c.previous_text(), Some("0-½"));
    let c = t.set_result_board(1, 1, Outcome::Pending).unwrap();
    assert_eq!(c.previous_text(), Some("½-½"));
    // A board without a result: nothing before.
    let c = t.set_unusual_board(1, 1, Unusual::HalfZero).unwrap();
    assert_eq!(c.previous_text(), None);
    // The pair-based setter says the same.
    let c = t.set_result(1, 2, 1, Outcome::BlackWins).unwrap();
    assert_eq!(c.previous_text(), Some("½-0"));
}

fn with_unusual(rate: Rate) -> Config {
    Config {
        players: 30,
        rounds: 7,
        unusual: rate,
        forfeits: Rate::Probability(0.03),
        double_forfeits: Rate::Probability(0.01),
        ..Config::default()
    }
}

#[test]
fn generated_files_with_unusual_results_check_clean() {
    let c = with_unusual(Rate::Probability(0.1));
    let mut kinds = [0u32; 3];
    for seed in 0..6u64 {
        let g = generate(&c, seed, None).unwrap();
        assert!(g.text.contains("inusuales=0.1"));
        let t = trf::parse(&g.text).unwrap();
        assert_eq!(t.rounds, g.tournament.rounds, "seed {seed}");
        let report = check(&t, &g.text);
        assert!(report.ok(), "seed {seed}: {:?}", report.problems);
        for r in &t.rounds {
            for game in &r.games {
                if let Some(u) = game.unusual {
                    kinds[Unusual::ALL.iter().position(|&k| k == u).unwrap()] += 1;
                }
            }
        }
    }
    // ~0.1 of 6 files x 7 rounds x 15 boards: about 63, each kind a third.
    assert!(kinds.iter().all(|&k| k >= 8), "{kinds:?}");
    // The same seed gives the same bytes; without the key, the file of
    // before unusual results existed.
    assert_eq!(
        generate(&c, 3, None).unwrap().text,
        generate(&c, 3, None).unwrap().text
    );
    let plain = generate(&with_unusual(Rate::Probability(0.0)), 3, None)
        .unwrap()
        .text;
    assert!(!plain.contains("inusuales"));
}

#[test]
fn the_rate_of_unusual_results_follows_the_configuration() {
    // A share of the games: within 2 points of 8 % over 40 files.
    let c = with_unusual(Rate::Probability(0.08));
    let (mut games, mut unusual) = (0u32, 0u32);
    for seed in 100..140u64 {
        let g = generate(&c, seed, None).unwrap();
        for r in &g.tournament.rounds {
            games += r.games.len() as u32;
            unusual += r.games.iter().filter(|g| g.unusual.is_some()).count() as u32;
        }
    }
    let share = unusual as f64 / games as f64;
    assert!((share - 0.08).abs() < 0.02, "{unusual} of {games}: {share}");
    // So many a round: exactly that many each round.
    let c = with_unusual(Rate::PerRound(2));
    let g = generate(&c, 7, None).unwrap();
    for r in &g.tournament.rounds {
        assert_eq!(r.games.iter().filter(|g| g.unusual.is_some()).count(), 2);
    }
    // The configuration reads back with the key in either language.
    let read = Config::default().read("inusuales = 2/ronda").unwrap();
    assert_eq!(read.unusual, Rate::PerRound(2));
    let read = Config::default().read("unusual = 5%").unwrap();
    assert_eq!(read.unusual, Rate::Probability(0.05));
    // A model tournament gives its share back.
    let model = Config::from_model(&g.tournament);
    let Rate::Probability(p) = model.unusual else {
        panic!("a probability")
    };
    assert!(p > 0.0);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: crate::fuzz_cases::cases(256), ..ProptestConfig::default() })]

    /// A file with unusual results, with characters replaced, inserted or
    /// removed anywhere: the reader answers (a tournament or an error with
    /// its line), never panics; what it reads is written and read again.
    #[test]
    fn the_reader_never_panics_on_a_mutated_file(
        edits in prop::collection::vec((any::<prop::sample::Index>(), 0u8..3, prop::sample::select(vec!['=', '0', '1', '+', '-', 'D', 'L', 'W', 'H', 'U', ' ', 'w', 'b', '9', '½', '\n'])), 1..6),
    ) {
        let mut chars: Vec<char> = format!("{HEAD}{ROWS}").chars().collect();
        for (at, op, c) in edits {
            let i = at.index(chars.len().max(1));
            match op {
                0 if i < chars.len() => chars[i] = c,
                1 => chars.insert(i.min(chars.len()), c),
                _ if i < chars.len() => {
                    chars.remove(i);
                }
                _ => {}
            }
        }
        let text: String = chars.into_iter().collect();
        if let Ok(t) = trf::parse(&text) {
            let again = trf::parse(&trf::write(&t));
            prop_assert!(again.is_ok(), "{text}");
            let _ = check(&t, &text);
        }
    }
}

/// The tournaments of tests/data/unusual (README there): bbpPairings
/// --dutch -c, which scores each player by their own codes, found nothing
/// wrong in the eleven files and a wrong round in each of their eleven
/// swapped mutations; escaque's checker, re-pairing every round with each
/// player's own score, says the same on all 22.
#[test]
fn files_bbppairings_checked_check_the_same() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/unusual");
    let read = |sub: &str| -> Vec<(String, String)> {
        let mut files: Vec<_> = std::fs::read_dir(dir.join(sub))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "trf"))
            .collect();
        files.sort();
        files
            .into_iter()
            .map(|p| {
                (
                    p.display().to_string(),
                    std::fs::read_to_string(&p).unwrap(),
                )
            })
            .collect()
    };
    let (files, swapped) = (read("."), read("swapped"));
    assert_eq!((files.len(), swapped.len()), (11, 11));
    let mut unusual = 0;
    for (name, text) in &files {
        let t = trf::parse(text).unwrap();
        unusual += t
            .rounds
            .iter()
            .flat_map(|r| &r.games)
            .filter(|g| g.unusual.is_some())
            .count();
        let report = check(&t, text);
        assert!(report.ok(), "{name}: {:?}", report.problems);
    }
    assert_eq!(unusual, 86);
    for (name, text) in &swapped {
        let report = check(&trf::parse(text).unwrap(), text);
        assert!(
            report.problems.iter().any(|p| matches!(
                p,
                Problem::PairingDiffers { .. } | Problem::Breach { .. } | Problem::NoPairing { .. }
            )),
            "{name}: {:?}",
            report.problems
        );
    }
}
