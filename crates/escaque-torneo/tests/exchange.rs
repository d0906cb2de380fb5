//! TRF files written by escaque and read by the reference programs (issues
//! 62 and 64): ten Swiss events run through the `escaque` binary as an
//! organiser would (byes of every kind, a withdrawal, `+/-`, `-/+`, `-/-`),
//! exported with `escaque torneo exportar`, then read by bbpPairings
//! (`--dutch FILE -c`: the pairings checked, no complaint) and by Gacrux
//! (its check mode: the tie-break list of the `202`/`212` lines, the points
//! and the rank column escaque wrote, recomputed). How the files were made:
//! `tests/data/exchange/README.md`.

use std::path::PathBuf;

use escaque_torneo::model::{Entry, GameResult};
use escaque_torneo::{standings, trf, ByeKind, Tournament};

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/exchange")
}

fn events() -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir())
        .unwrap()
        .filter_map(|e| {
            let name = e.unwrap().file_name().into_string().unwrap();
            let stem = name.strip_suffix(".trf")?;
            (stem.len() == 3 && stem.starts_with('e')).then(|| stem.to_string())
        })
        .collect();
    v.sort();
    v
}

fn read(name: &str) -> String {
    std::fs::read_to_string(dir().join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn parse(name: &str) -> Tournament {
    trf::parse(&read(name)).unwrap_or_else(|e| panic!("{name}: {e:?}"))
}

#[test]
fn there_are_ten_events_with_every_kind_of_unplayed_round() {
    let events = events();
    assert_eq!(events.len(), 10, "{events:?}");
    let (mut byes, mut forfeits, mut double, mut withdrawn) = (Vec::new(), 0, 0, 0);
    for e in &events {
        let t = parse(&format!("{e}.escaque.trf"));
        withdrawn += t
            .players
            .iter()
            .filter(|p| p.withdrawn_from.is_some())
            .count();
        for id in 1..=t.players.len() as u32 {
            for r in 1..=t.rounds.len() as u32 {
                match t.entry(id, r) {
                    Entry::Bye(k) => byes.push(k),
                    Entry::Game {
                        opponent, result, ..
                    } => {
                        let other = t.entry(opponent, r);
                        if result == GameResult::ForfeitWin {
                            forfeits += 1;
                        }
                        if result == GameResult::ForfeitLoss
                            && matches!(
                                other,
                                Entry::Game {
                                    result: GameResult::ForfeitLoss,
                                    ..
                                }
                            )
                        {
                            double += 1;
                        }
                    }
                    Entry::Absent => {}
                }
            }
        }
    }
    for k in [
        ByeKind::PairingAllocated,
        ByeKind::Half,
        ByeKind::Full,
        ByeKind::Zero,
    ] {
        assert!(byes.contains(&k), "no {k:?} bye in the set");
    }
    assert!(forfeits >= 20, "{forfeits} forfeit wins");
    assert!(double >= 20, "{double} sides of double forfeits");
    assert!(withdrawn >= 5, "{withdrawn} withdrawals");
    // Both `+/-` and `-/+`: a forfeit won by White and one won by Black.
    let mut by_colour = [false, false];
    for e in &events {
        for line in read(&format!("{e}.trf"))
            .lines()
            .filter(|l| l.starts_with("001"))
        {
            let chars: Vec<char> = line.chars().collect();
            for c in (91..chars.len()).step_by(10) {
                let colour = chars.get(c + 5).copied();
                if chars.get(c + 7) == Some(&'+') {
                    by_colour[usize::from(colour == Some('b'))] = true;
                }
            }
        }
    }
    assert_eq!(
        by_colour,
        [true, true],
        "forfeits won by White and by Black"
    );
}

/// Read back by escaque, the exported TRF gives the standings of the
/// tournament file it came from, and its points and rank columns are
/// those standings.
#[test]
fn exported_files_read_back_to_identical_standings() {
    for e in events() {
        let own = parse(&format!("{e}.escaque.trf"));
        let text = read(&format!("{e}.trf"));
        let back = trf::parse(&text).unwrap();
        assert!(
            !text.contains("\nXZ"),
            "{e}: escaque's own lines are not exported"
        );
        assert_eq!(back.tiebreaks, own.tiebreaks, "{e}");
        let a = standings::compute(&own);
        let b = standings::compute(&back);
        assert_eq!(a, b, "{e}");
        let ranks = standings::ranks(&back);
        for line in text.lines().filter(|l| l.starts_with("001")) {
            let chars: Vec<char> = line.chars().collect();
            let field = |from: usize, to: usize| -> String {
                chars[from - 1..to]
                    .iter()
                    .collect::<String>()
                    .trim()
                    .to_string()
            };
            let id: usize = field(5, 8).parse().unwrap();
            let points = field(81, 84);
            assert_eq!(
                points,
                escaque_torneo::format_points_dot(back.score(id as u32)),
                "{e} player {id}"
            );
            assert_eq!(field(86, 89), ranks[id - 1].to_string(), "{e} player {id}");
        }
    }
}

/// bbpPairings 6.0.0 checks every round of every file (`-c`) and complains
/// about nothing: it reads the byes, the forfeits, the withdrawal and the
/// dates as escaque writes them, and its pairings are escaque's.
///
/// `-c` prints `FILE: Round #N` for each round it checks and, under it, the
/// pairings where its own differ from the file's; it exits 0 either way, so
/// the test reads what it printed: one line a round and nothing else.
#[test]
fn bbppairings_reads_every_exported_file_without_complaint() {
    for e in events() {
        let t = parse(&format!("{e}.trf"));
        let out = read(&format!("{e}.bbp"));
        let want: String = (1..=t.rounds.len())
            .map(|r| format!("{e}: Round #{r}\n"))
            .chain(["\nexit 0\n".to_string()])
            .collect();
        assert_eq!(out, want, "{e}: bbpPairings said\n{out}");
    }
}

/// Gacrux 1.9.57 reads the tie-break list (`202`/`212`, `BH/C1`) and the
/// start date (`042`, which decides the version of C.07 for it as for
/// escaque), computes the ranks and finds escaque's rank column right
/// (`Check: True`); every value it computes is escaque's.
#[test]
fn gacrux_reads_the_tiebreaks_and_ranks_back_unchanged() {
    let mut values = 0;
    for e in events() {
        let t = parse(&format!("{e}.trf"));
        let out = read(&format!("{e}.gacrux"));
        assert!(out.trim_end().ends_with("Check: True"), "{e}:\n{out}");
        let mut lines = out.lines();
        let head: Vec<&str> = lines.next().unwrap().split_whitespace().collect();
        assert_eq!(&head[..3], &["StartNo", "Rank", "PTS"], "{e}");
        let codes: Vec<String> = t
            .tiebreaks
            .iter()
            .map(|&tb| trf::tiebreak_code(tb))
            .collect();
        assert_eq!(
            head[3..],
            codes.iter().map(String::as_str).collect::<Vec<_>>()[..],
            "{e}"
        );
        let mine = standings::compute(&t);
        for line in lines.filter(|l| !l.starts_with("Check")) {
            let cells: Vec<&str> = line.split_whitespace().collect();
            let id: u32 = cells[0].parse().unwrap();
            let s = mine.iter().find(|s| s.player == id).unwrap();
            assert_eq!(cells[1], s.rank.to_string(), "{e} player {id} rank");
            let pts: f64 = cells[2].parse().unwrap();
            assert_eq!(pts, f64::from(s.points) / 2.0, "{e} player {id} points");
            for ((code, cell), v) in codes.iter().zip(&cells[3..]).zip(&s.tiebreaks) {
                if code == "DE" {
                    continue; // a place among the tied, not a value: the ranks say it
                }
                let theirs: f64 = cell.parse().unwrap();
                assert!(
                    (theirs - v).abs() < 0.005,
                    "{e} player {id} {code}: Gacrux {theirs}, escaque {v}"
                );
                values += 1;
            }
        }
    }
    assert!(values > 500, "{values} values compared");
}
