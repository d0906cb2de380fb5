//! The random tournament generator (`escaque torneo generar`) and the
//! checker (`escaque torneo comprobar`) on its files: the same seed gives
//! the same bytes; the frequencies of draws, forfeits, retirements and byes
//! follow the configuration; every file reads back and the checker, which
//! pairs each round again from the file, finds nothing wrong; a pairing
//! swapped or a result changed in a file is caught. (The figures over 1,000
//! files and against bbpPairings are in scripts/torneo_generar_bbp.py and
//! BENCHMARKS.md.)

use escaque_torneo::check::{check, Problem};
use escaque_torneo::generate::{generate, Config, Rate};
use escaque_torneo::model::{ByeKind, Entry, Outcome};
use escaque_torneo::trf;

fn busy() -> Config {
    Config {
        players: 24,
        rounds: 7,
        draws: 0.35,
        forfeits: Rate::Probability(0.04),
        double_forfeits: Rate::Probability(0.01),
        retirements: Rate::Probability(0.02),
        half_byes: Rate::Probability(0.05),
        full_byes: Rate::Probability(0.01),
        zero_byes: Rate::Probability(0.02),
        late_entries: 0.05,
        ..Config::default()
    }
}

#[test]
fn the_same_seed_gives_the_same_bytes() {
    let c = busy();
    let a = generate(&c, 42, None).unwrap().text;
    let b = generate(&c, 42, None).unwrap().text;
    assert_eq!(a, b);
    assert!(a.starts_with("### escaque torneo generar: semilla 42\n"));
    assert_ne!(a, generate(&c, 43, None).unwrap().text);
    // The configuration written in the file gives the same file again.
    let line = a.lines().nth(1).unwrap().trim_start_matches("### ");
    let again = Config::default().read(&line.replace(' ', "\n")).unwrap();
    assert_eq!(generate(&again, 42, None).unwrap().text, a);
}

#[test]
fn generated_files_read_back_and_check_clean() {
    let mut checked = 0;
    for seed in 0..24u64 {
        let mut c = busy();
        c.players = 8 + (seed as u32 * 7) % 60;
        c.rounds = 5 + (seed as u32) % 5;
        c.baku = seed % 3 == 0;
        let Ok(g) = generate(&c, seed, None) else {
            continue; // No legal pairing for a late round: no file.
        };
        let t = trf::parse(&g.text).unwrap();
        assert_eq!(t.rounds.len() as u32, c.rounds, "seed {seed}");
        assert_eq!(t.tiebreaks, c.tiebreaks);
        if c.baku {
            assert!(g.text.contains("\n192 FIDE_DUTCH_2025_BAKU\n"));
            assert!(!t.accelerations.is_empty(), "seed {seed}");
        }
        let report = check(&t, &g.text);
        assert!(report.ok(), "seed {seed}: {:?}", report.problems);
        assert!(report.standings_checked);
        assert_eq!(report.rounds_checked, c.rounds);
        checked += 1;
    }
    assert!(checked >= 20, "only {checked} files generated");
}

/// Counts over many files: (draws, games played), (forfeits, games),
/// (double forfeits, games), and per player-round (retirements, half,
/// full and zero byes, slots).
#[derive(Default, Debug)]
struct Counts {
    games: u64,
    played: u64,
    draws: u64,
    forfeits: u64,
    doubles: u64,
    slots: u64,
    retired: u64,
    half: u64,
    full: u64,
    zero: u64,
    score_white: f64,
    expected_white: f64,
}

fn count(c: &Config, seeds: std::ops::Range<u64>) -> Counts {
    let mut n = Counts::default();
    for seed in seeds {
        let g = generate(c, seed, None).unwrap();
        let t = &g.tournament;
        for (ri, r) in t.rounds.iter().enumerate() {
            for game in &r.games {
                n.games += 1;
                match game.outcome {
                    Outcome::Draw | Outcome::WhiteWins | Outcome::BlackWins => {
                        n.played += 1;
                        n.draws += (game.outcome == Outcome::Draw) as u64;
                        let rating =
                            |id: u32| t.players[id as usize - 1].rating.unwrap_or(c.lowest_rating);
                        n.expected_white += escaque_torneo::rating::expected_score(
                            rating(game.white),
                            rating(game.black),
                        );
                        n.score_white += match game.outcome {
                            Outcome::WhiteWins => 1.0,
                            Outcome::Draw => 0.5,
                            _ => 0.0,
                        };
                    }
                    Outcome::WhiteForfeitWin | Outcome::BlackForfeitWin => n.forfeits += 1,
                    Outcome::DoubleForfeit => n.doubles += 1,
                    Outcome::Pending => panic!("a game without result"),
                }
            }
            let round = ri as u32 + 1;
            for (i, p) in t.players.iter().enumerate() {
                // Player-rounds where the draw was made: entered, not yet
                // withdrawn (retirements are drawn from round 2 on).
                if round < p.entry_round || p.withdrawn_from.is_some_and(|w| round > w) {
                    continue;
                }
                if p.withdrawn_from == Some(round) {
                    n.retired += 1;
                    n.slots += 1;
                    continue;
                }
                n.slots += 1;
                match t.entry(i as u32 + 1, round) {
                    Entry::Bye(ByeKind::Half) => n.half += 1,
                    Entry::Bye(ByeKind::Full) => n.full += 1,
                    Entry::Bye(ByeKind::Zero) => n.zero += 1,
                    _ => {}
                }
            }
        }
    }
    n
}

/// `observed` successes in `trials` are within four standard deviations of
/// probability `p` (the test's files are fixed by their seeds; this says
/// the generator draws at the configured rate, not that a lucky run did).
fn near(what: &str, observed: u64, trials: u64, p: f64) {
    let rate = observed as f64 / trials as f64;
    let sd = (p * (1.0 - p) / trials as f64).sqrt();
    println!(
        "{what}: {rate:.4} over {trials} (configured {p}; {:+.2} %)",
        100.0 * (rate - p) / p
    );
    assert!(
        (rate - p).abs() <= 4.0 * sd,
        "{what}: {rate:.4} over {trials}, configured {p}"
    );
}

#[test]
fn frequencies_follow_the_configured_rates() {
    let c = Config {
        players: 40,
        rounds: 9,
        draws: 0.3,
        forfeits: Rate::Probability(0.05),
        double_forfeits: Rate::Probability(0.02),
        retirements: Rate::Probability(0.02),
        half_byes: Rate::Probability(0.06),
        full_byes: Rate::Probability(0.02),
        zero_byes: Rate::Probability(0.03),
        ..Config::default()
    };
    let n = count(&c, 0..100);
    // Draws among the games not forfeited; forfeits among all games.
    near("tablas", n.draws, n.played, 0.3);
    near("incomparecencias", n.forfeits, n.games, 0.05);
    near("dobles incomparecencias", n.doubles, n.games, 0.02);
    // Byes among the player-rounds of players still in (not retiring).
    let staying = n.slots - n.retired;
    near("medio punto", n.half, staying, 0.06 * (1.0 - 0.02));
    near("punto completo", n.full, staying, 0.02 * (1.0 - 0.02));
    near("cero puntos", n.zero, staying, 0.03 * (1.0 - 0.02));
    // White's score over the games played is FIDE's expectation.
    let diff = (n.score_white - n.expected_white) / n.played as f64;
    println!("White's score minus FIDE's expectation, a game: {diff:+.4}");
    assert!(diff.abs() < 0.01, "{diff}");
}

#[test]
fn fixed_counts_per_round_are_exact() {
    let c = Config {
        players: 30,
        rounds: 6,
        half_byes: Rate::PerRound(2),
        forfeits: Rate::PerRound(1),
        retirements: Rate::Probability(0.0),
        zero_byes: Rate::Probability(0.0),
        ..Config::default()
    };
    for seed in 0..10 {
        let g = generate(&c, seed, None).unwrap();
        for r in &g.tournament.rounds {
            let half = r.byes.iter().filter(|b| b.1 == ByeKind::Half).count();
            let forfeits = r
                .games
                .iter()
                .filter(|g| {
                    matches!(
                        g.outcome,
                        Outcome::WhiteForfeitWin | Outcome::BlackForfeitWin
                    )
                })
                .count();
            assert_eq!((half, forfeits), (2, 1), "seed {seed}");
        }
    }
}

#[test]
fn a_model_gives_its_players_and_rates() {
    let model = generate(&busy(), 7, None).unwrap().tournament;
    let c = Config::from_model(&model);
    assert_eq!(c.players, model.players.len() as u32);
    assert_eq!(c.rounds, model.total_rounds);
    let g = generate(&c, 1, Some(&model)).unwrap();
    let names = |t: &escaque_torneo::Tournament| {
        let mut v: Vec<String> = t.players.iter().map(|p| p.name.clone()).collect();
        v.sort();
        v
    };
    assert_eq!(names(&g.tournament), names(&model));
}

/// A generated file with one change: `swap` exchanges the opponents of two
/// boards of a round (or the colours of a board), otherwise one game's
/// result is changed in the text (win to loss), the points and places left
/// as they were.
fn mutate(text: &str, seed: u64, swap: bool) -> Option<String> {
    let mut t = trf::parse(text).ok()?;
    let r = (seed as usize * 7) % t.rounds.len();
    if swap {
        let games = &mut t.rounds[r].games;
        if games.len() >= 2 {
            let i = (seed as usize) % games.len();
            let j = (i + 1) % games.len();
            let b = games[i].black;
            games[i].black = games[j].black;
            games[j].black = b;
        } else {
            let g = &mut games[0];
            std::mem::swap(&mut g.white, &mut g.black);
        }
        Some(trf::write(&t))
    } else {
        // A decisive game of round r+1, its two cells' codes swapped.
        let game = t.rounds[r]
            .games
            .iter()
            .find(|g| matches!(g.outcome, Outcome::WhiteWins | Outcome::BlackWins))?
            .clone();
        let mut lines: Vec<String> = text.lines().map(String::from).collect();
        for id in [game.white, game.black] {
            let line = lines
                .iter_mut()
                .find(|l| l.starts_with("001") && l[4..8].trim() == id.to_string())?;
            let col = 89 + 10 * r + 9; // 0-based: the result code of round r+1
            let mut chars: Vec<char> = line.chars().collect();
            chars[col] = match chars[col] {
                '1' => '0',
                '0' => '1',
                other => other,
            };
            *line = chars.into_iter().collect();
        }
        Some(lines.join("\n") + "\n")
    }
}

#[test]
fn a_swapped_pairing_or_a_changed_result_is_caught() {
    let (mut tried, mut caught) = (0, 0);
    for seed in 0..40u64 {
        let c = busy();
        let text = generate(&c, 1000 + seed, None).unwrap().text;
        for swap in [true, false] {
            let Some(m) = mutate(&text, seed, swap) else {
                continue;
            };
            let t = trf::parse(&m).unwrap();
            let report = check(&t, &m);
            tried += 1;
            let expected = report.problems.iter().any(|p| {
                if swap {
                    matches!(p, Problem::PairingDiffers { .. } | Problem::Breach { .. })
                } else {
                    matches!(p, Problem::Points { .. })
                }
            });
            assert!(expected, "seed {seed}, swap {swap}: {:?}", report.problems);
            caught += 1;
        }
    }
    assert!(tried >= 70, "{tried}");
    println!("{caught} of {tried} mutations caught");
}

/// The committed sample (tests/data/generated, README there): each file is
/// what its seed and configuration give today, and the checker's verdict on
/// its pairings is bbpPairings'.
#[test]
fn the_sample_regenerates_and_agrees_with_bbppairings() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/generated");
    let config = std::fs::read_to_string(dir.join("config-a.txt")).unwrap();
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "trf"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 12);
    let without_version = |s: &str| -> String {
        s.lines()
            .filter(|l| !l.starts_with("182 "))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let (mut regenerated, mut wrong) = (0, 0);
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let name = f.file_stem().unwrap().to_string_lossy().into_owned();
        if !name.contains("cambiada") {
            // The seed and the configuration as the file states them.
            let seed: u64 = text.lines().next().unwrap()
                ["### escaque torneo generar: semilla ".len()..]
                .parse()
                .unwrap();
            let line = text.lines().nth(1).unwrap().trim_start_matches("### ");
            let c = Config::default().read(&line.replace(' ', "\n")).unwrap();
            // The rates of config-a.txt, as the README says.
            let a = Config::default().read(&config).unwrap();
            assert_eq!(
                (c.draws, c.forfeits, c.half_byes, c.late_entries),
                (a.draws, a.forfeits, a.half_byes, a.late_entries),
                "{name}"
            );
            let again = generate(&c, seed, None).unwrap().text;
            assert_eq!(without_version(&again), without_version(&text), "{name}");
            regenerated += 1;
        }
        let bbp = std::fs::read_to_string(f.with_extension("bbp")).unwrap();
        assert!(bbp.trim_end().ends_with("exit 0"), "{name}");
        let bbp_wrong = bbp
            .lines()
            .any(|l| !l.trim().is_empty() && !l.contains("Round #") && !l.starts_with("exit"));
        let t = trf::parse(&text).unwrap();
        let report = check(&t, &text);
        let ours_wrong = report
            .problems
            .iter()
            .any(|p| !matches!(p, Problem::Points { .. } | Problem::Rank { .. }));
        assert_eq!(ours_wrong, bbp_wrong, "{name}: {:?}", report.problems);
        wrong += ours_wrong as u32;
    }
    assert_eq!((regenerated, wrong), (8, 4));
}

#[test]
fn accelerations_written_as_xxa_read_back_the_same() {
    let c = Config {
        players: 30,
        rounds: 9,
        baku: true,
        ..busy()
    };
    let with_250 = generate(&c, 5, None).unwrap();
    let xxa = generate(&Config { xxa: true, ..c }, 5, None).unwrap();
    assert!(!xxa.text.contains("\n250"));
    // One line for each player of group A: 1.0 in rounds 1-3, 0.5 in 4-5.
    let lines: Vec<&str> = xxa.text.lines().filter(|l| l.starts_with("XXA")).collect();
    assert_eq!(lines.len(), 16, "{lines:?}");
    assert_eq!(lines[0], "XXA    1  1.0  1.0  1.0  0.5  0.5");
    let a = trf::parse(&with_250.text).unwrap();
    let b = trf::parse(&xxa.text).unwrap();
    for id in 1..=30 {
        for r in 1..=9 {
            assert_eq!(a.acceleration(id, r), b.acceleration(id, r), "{id} {r}");
        }
    }
    // The same pairings (the seed draws the same), and they check clean.
    assert_eq!(a.rounds, b.rounds);
    assert!(check(&b, &xxa.text).ok());
}
