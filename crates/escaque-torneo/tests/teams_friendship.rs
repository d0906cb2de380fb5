//! A real team Swiss replayed round by round (issue 59): the *ΔΙΑΣΥΛΛΟΓΙΚΟ
//! ΚΥΠΕΛΛΟ ΚΡΗΤΙΚΗΣ ΦΙΛΙΑΣ 2024* (inter-club Friendship Cup, Heraklion,
//! 23-24 November 2024: 15 teams, 6 boards, 7 rounds, 129 players).
//!
//! Its file, `tests/data/teams/replay/friendship_cup_2024.trf` (where it
//! comes from: README.md there), is a TRF16 as Swiss-Manager exports a team
//! event: `001` players and `013` teams (name, then the roster's start
//! numbers), no line-ups, no bye record. This file's own reader turns it
//! into escaque's [`TeamTournament`]:
//!
//! - a team's players of a round are its roster players with a game (an
//!   opponent named) or a board won because the opponent's board was
//!   empty (`0000 - +`), in roster order; `0000 - -` is a player not in
//!   the line-up; the boards of a match are the two line-ups side by side,
//!   a `0000 - +` player facing an empty board (so a team of five may leave
//!   board 3 empty and play boards 4-6), boards nobody sat at lost by both;
//! - the team with White on board 1 is the match's home team (boards
//!   alternate, which the reader checks on every board played);
//! - the one team a round without a match is the pairing-allocated bye
//!   (15 teams): the file gives its players `0000 - -`; the official
//!   standings count it a drawn match, 1 match point and 3 game points,
//!   escaque's default (C.04.6 1.4);
//! - the pairing numbers are the `013` records' order: round 1 is 1-8,
//!   2-9, …, 7-14 with 15's bye.
//!
//! Then every round is paired again by escaque's C.04.6 procedure from the
//! rounds before it, and the team tie-breaks are compared with the official
//! final standings and with Gacrux's.

use std::collections::{BTreeMap, BTreeSet};

use escaque_torneo::teams::standings::{self, TeamTieBreak};
use escaque_torneo::teams::swiss::{pair_round_without, starting_order, ColourType};
use escaque_torneo::teams::{
    Board, BoardResult, Match, Member, Team, TeamId, TeamRound, TeamSystem, TeamTournament,
};

// The round as compared (matches White team first, sorted; the bye) is
// teams_replay.rs's.
use crate::teams_replay::{pairing_of, unordered, Pairing};

const FILE: &str = "friendship_cup_2024.trf";
const BOARDS: usize = 6;
const ROUNDS: usize = 7;

/// One cell of a player's round: opponent's start number (0: none),
/// colour, result.
type Cell = (u32, char, char);

struct Player {
    name: String,
    rating: Option<u16>,
    /// The score column (81-84), half points.
    points: u32,
    cells: Vec<Cell>,
}

struct Trf16 {
    /// `013`: name and roster (start numbers), in the file's order.
    teams: Vec<(String, Vec<u32>)>,
    players: BTreeMap<u32, Player>,
}

fn cols(chars: &[char], from: usize, to: usize) -> String {
    chars
        .iter()
        .skip(from - 1)
        .take(to + 1 - from)
        .collect::<String>()
        .trim()
        .to_string()
}

fn half(s: &str) -> u32 {
    (s.parse::<f64>().unwrap() * 2.0).round() as u32
}

fn read_trf16(text: &str) -> Trf16 {
    let mut teams = Vec::new();
    let mut players = BTreeMap::new();
    for line in text.lines() {
        let chars: Vec<char> = line.chars().collect();
        match line.get(..3).unwrap_or("") {
            "001" => {
                let id: u32 = cols(&chars, 5, 8).parse().unwrap();
                let mut cells = Vec::new();
                let mut col = 92;
                while col + 7 <= chars.len() {
                    let opp = cols(&chars, col, col + 3);
                    cells.push((opp.parse().unwrap_or(0), chars[col + 4], chars[col + 6]));
                    col += 10;
                }
                let rating = cols(&chars, 49, 52).parse().ok().filter(|&r| r > 0);
                players.insert(
                    id,
                    Player {
                        name: cols(&chars, 15, 47),
                        rating,
                        points: half(&cols(&chars, 81, 84)),
                        cells,
                    },
                );
            }
            "013" => {
                let name = cols(&chars, 5, 36);
                let roster = cols(&chars, 37, chars.len())
                    .split_whitespace()
                    .map(|p| p.parse().unwrap())
                    .collect();
                teams.push((name, roster));
            }
            _ => {}
        }
    }
    Trf16 { teams, players }
}

fn cell_points(c: &Cell) -> u32 {
    match c.2 {
        '1' | '+' | 'W' => 2,
        '=' | 'D' => 1,
        _ => 0,
    }
}

/// Players whose score column is not the sum of their cells.
fn score_column_disagrees(f: &Trf16) -> Vec<u32> {
    f.players
        .iter()
        .filter(|(_, p)| p.points != p.cells.iter().map(cell_points).sum::<u32>())
        .map(|(&id, _)| id)
        .collect()
}

/// The file read as escaque's tournament: teams in the `013` order (their
/// pairing numbers), no ratings when `rated` is false (escaque's starting
/// order then keeps the order of entry), every round recorded.
fn tournament(f: &Trf16, kind: ColourType, rated: bool) -> TeamTournament {
    let mut t = TeamTournament::new(
        "Friendship Cup 2024",
        TeamSystem::Swiss,
        BOARDS as u32,
        ROUNDS as u32,
    );
    t.colour_preferences = kind;
    // Round 1: pairing number 1 had Black on board 1 (the colour drawn).
    t.first_white = false;
    for (name, roster) in &f.teams {
        let mut team = Team::new(
            name,
            roster
                .iter()
                .map(|p| Member {
                    rating: f.players[p].rating.filter(|_| rated),
                    ..Member::new(&f.players[p].name)
                })
                .collect(),
        );
        team.fixed_order = true;
        t.add_team(team).unwrap();
    }
    let team_of: BTreeMap<u32, (TeamId, usize)> = f
        .teams
        .iter()
        .enumerate()
        .flat_map(|(i, (_, r))| {
            r.iter()
                .enumerate()
                .map(move |(k, &p)| (p, (i as TeamId + 1, k)))
        })
        .collect();
    let cell = |p: u32, r: usize| f.players[&p].cells[r];
    let empty_win = |p: u32, r: usize| {
        let c = cell(p, r);
        c.0 == 0 && c.2 == '+'
    };
    for r in 0..ROUNDS {
        // Each team's line-up: its players with a game or an empty board won.
        let lineup: Vec<Vec<u32>> = f
            .teams
            .iter()
            .map(|(_, roster)| {
                roster
                    .iter()
                    .copied()
                    .filter(|&p| cell(p, r).0 != 0 || empty_win(p, r))
                    .collect()
            })
            .collect();
        let mut round = TeamRound::default();
        let mut done = BTreeSet::new();
        for a in 1..=f.teams.len() as TeamId {
            let la = &lineup[a as usize - 1];
            if done.contains(&a) {
                continue;
            }
            let Some(b) = la
                .iter()
                .find(|&&p| cell(p, r).0 != 0)
                .map(|&p| team_of[&cell(p, r).0].0)
            else {
                assert!(la.is_empty(), "round {}: team {a} has no opponent", r + 1);
                assert_eq!(
                    round.bye,
                    None,
                    "round {}: two teams without a match",
                    r + 1
                );
                round.bye = Some(a);
                continue;
            };
            done.insert(a);
            done.insert(b);
            let lb = &lineup[b as usize - 1];
            // The boards, (a's player, b's player), side by side.
            let (mut i, mut j) = (0, 0);
            let mut boards: Vec<(Option<u32>, Option<u32>)> = Vec::new();
            while boards.len() < BOARDS {
                let (pa, pb) = (la.get(i).copied(), lb.get(j).copied());
                if pa.is_some_and(|p| empty_win(p, r)) {
                    boards.push((pa, None));
                    i += 1;
                } else if pb.is_some_and(|p| empty_win(p, r)) {
                    boards.push((None, pb));
                    j += 1;
                } else if let (Some(x), Some(y)) = (pa, pb) {
                    assert_eq!(cell(x, r).0, y, "round {}: board {}", r + 1, boards.len());
                    assert_eq!(cell(y, r).0, x, "round {}: board {}", r + 1, boards.len());
                    boards.push((pa, pb));
                    i += 1;
                    j += 1;
                } else {
                    assert!(pa.is_none() && pb.is_none(), "round {}: {a}-{b}", r + 1);
                    boards.push((None, None));
                }
            }
            assert!(i == la.len() && j == lb.len(), "round {}: {a}-{b}", r + 1);
            // Home: White on board 1 (boards alternate).
            let (k, x) = boards
                .iter()
                .enumerate()
                .find_map(|(k, &(x, y))| y.and(x).map(|x| (k, x)))
                .expect("a game played");
            let a_home = (cell(x, r).1 == 'w') == (k % 2 == 0);
            let mut m = Match {
                home: if a_home { a } else { b },
                away: if a_home { b } else { a },
                boards: Vec::new(),
            };
            for (k, &(x, y)) in boards.iter().enumerate() {
                let (hp, ap) = if a_home { (x, y) } else { (y, x) };
                let home_white = k % 2 == 0;
                let result = match (hp, ap) {
                    (Some(h), Some(w)) => {
                        let (_, colour, res) = cell(h, r);
                        assert_eq!(colour == 'w', home_white, "round {}: player {h}", r + 1);
                        match (res, cell(w, r).2) {
                            ('1', '0') => BoardResult::HomeWins,
                            ('0', '1') => BoardResult::AwayWins,
                            ('=', '=') => BoardResult::Draw,
                            ('+', '-') => BoardResult::HomeForfeitWin,
                            ('-', '+') => BoardResult::AwayForfeitWin,
                            ('-', '-') => BoardResult::DoubleForfeit,
                            other => panic!("round {}: players {h}, {w}: {other:?}", r + 1),
                        }
                    }
                    (Some(_), None) => BoardResult::HomeForfeitWin,
                    (None, Some(_)) => BoardResult::AwayForfeitWin,
                    (None, None) => BoardResult::DoubleForfeit,
                };
                let place = |p: Option<u32>| p.map(|p| team_of[&p].1);
                m.boards.push(Board {
                    home_player: place(hp),
                    away_player: place(ap),
                    home_white,
                    result,
                });
            }
            round.matches.push(m);
        }
        assert!(round.bye.is_some(), "round {}: no bye", r + 1);
        t.record_round(round).unwrap();
    }
    t
}

fn text() -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/teams/replay")
        .join(FILE);
    std::fs::read_to_string(path).unwrap()
}

/// The file as the official standings count it: player 41's round-7 cell
/// `74 w -` is `74 w +` (below).
fn corrected() -> Trf16 {
    let mut f = read_trf16(&text());
    let c = &mut f.players.get_mut(&41).unwrap().cells[6];
    assert_eq!(*c, (74, 'w', '-'));
    c.2 = '+';
    f
}

/// Each round: the file's pairing and escaque's from the rounds before.
fn replay(t: &TeamTournament) -> Vec<(Pairing, Pairing)> {
    (1..=ROUNDS)
        .map(|r| {
            let mut before = t.clone();
            before.rounds.truncate(r - 1);
            let paired =
                pair_round_without(&before, &[]).unwrap_or_else(|e| panic!("round {r}: {e:?}"));
            let (file, esc) = (pairing_of(&t.rounds[r - 1]), pairing_of(&paired));
            eprintln!(
                "round {r}:\n  file:    {:?} bye {:?}\n  escaque: {:?} bye {:?}",
                file.matches, file.bye, esc.matches, esc.bye
            );
            (file, esc)
        })
        .collect()
}

#[test]
fn friendship_cup_is_read_as_the_official_record() {
    let raw = read_trf16(&text());
    assert_eq!(raw.teams.len(), 15);
    assert_eq!(raw.players.len(), 129);
    assert!(raw.players.values().all(|p| p.cells.len() == ROUNDS));
    // One score column disagrees with its cells: player 41 (ΗΡΟΔΟΤΟΣ),
    // 1.0 with every cell lost, her round-7 game against 74 (ΚΥΔΩΝ) marked
    // `-` on both sides. The official standings give ΗΡΟΔΟΤΟΣ 14½ game
    // points, which only her forfeit win makes (13½ otherwise), and 74's
    // score column (3.0) counts his `-` as lost: 41 won by forfeit.
    assert_eq!(score_column_disagrees(&raw), vec![41]);
    let f = corrected();
    assert_eq!(score_column_disagrees(&f), Vec::<u32>::new());
    // The pairing numbers are the 013 order: round 1 pairs the top half
    // against the bottom half, 1-8 … 7-14, and gives 15 the bye.
    let t = tournament(&f, ColourType::A, false);
    assert_eq!(
        unordered(&pairing_of(&t.rounds[0])),
        (1..=7).map(|a| (a, a + 7)).collect()
    );
    assert_eq!(t.rounds[0].bye, Some(15));
    // The byes: 15, 13, 11, 14, 5, 2, 6, round by round.
    let byes: Vec<TeamId> = t.rounds.iter().map(|r| r.bye.unwrap()).collect();
    assert_eq!(byes, vec![15, 13, 11, 14, 5, 2, 6]);
    // escaque's own starting order (average rating of the first six of the
    // roster, unrated players not counted) is not the organiser's: the
    // ratings in the file do not give the 013 order by any average of
    // them (ΓΑΖΙ 3, 8th, has two rated players averaging 1899.5). C.04.6
    // leaves the pairing numbers to the organiser; the replay takes the
    // file's.
    let rated = tournament(&f, ColourType::A, true);
    assert_ne!(starting_order(&rated), (1..=15).collect::<Vec<TeamId>>());
    assert_eq!(starting_order(&t), (1..=15).collect::<Vec<TeamId>>());
}

/// Rounds 1, 3 and 7 are escaque's, matches, bye and board-1 colours;
/// rounds 2, 4, 5 and 6 are not. The file is a Dutch pairing (C.04.3
/// applied to the teams, as Swiss-Manager pairs a team Swiss: an odd
/// scoregroup sends its lowest team *down*, the bye is what is left at the
/// bottom); escaque pairs by the current C.04.6 (in force from 1 February
/// 2026): the bye first (3.4: lowest score, most matches played, largest
/// pairing number), an odd scoregroup completed with *upfloaters* from
/// below (3.5), each bracket by the smallest identifier (3.6). README.md
/// there says round by round which article decides. Type A colour
/// preferences (escaque's default: the file does not say).
#[test]
fn friendship_cup_replayed_round_by_round() {
    let t = tournament(&corrected(), ColourType::A, false);
    let c = replay(&t);
    assert_eq!(c.len(), ROUNDS);
    for r in [1, 3, 7] {
        assert_eq!(c[r - 1].0, c[r - 1].1, "round {r}");
    }
    let p = |matches: &[(TeamId, TeamId)], bye: TeamId| Pairing {
        matches: matches.to_vec(),
        bye: Some(bye),
    };
    // What the file has where escaque differs, and escaque's pairing.
    let differ = [
        (
            2,
            p(
                &[(1, 12), (15, 2), (3, 6), (7, 4), (5, 14), (9, 8), (11, 10)],
                13,
            ),
            p(
                &[(1, 6), (15, 2), (3, 7), (12, 4), (5, 11), (9, 8), (13, 10)],
                14,
            ),
        ),
        (
            4,
            p(
                &[(1, 11), (8, 2), (3, 4), (5, 6), (13, 7), (10, 9), (15, 12)],
                14,
            ),
            p(
                &[(1, 6), (8, 2), (3, 15), (4, 12), (5, 11), (13, 7), (10, 9)],
                14,
            ),
        ),
        (
            5,
            p(
                &[(2, 1), (3, 15), (4, 12), (6, 8), (7, 10), (9, 13), (14, 11)],
                5,
            ),
            p(
                &[(9, 1), (2, 13), (7, 3), (4, 12), (6, 8), (10, 15), (14, 11)],
                5,
            ),
        ),
        (
            6,
            p(
                &[(1, 6), (7, 3), (15, 4), (11, 5), (10, 8), (12, 9), (13, 14)],
                2,
            ),
            p(
                &[(1, 9), (12, 2), (7, 3), (15, 4), (11, 5), (10, 8), (13, 14)],
                6,
            ),
        ),
    ];
    for (r, file, escaque) in &differ {
        assert_eq!(&c[r - 1].0, file, "round {r}: the file");
        assert_eq!(&c[r - 1].1, escaque, "round {r}: escaque");
    }
    // Matches both have in those four rounds, colours included: 13 of 28.
    let same: usize = differ
        .iter()
        .map(|(_, f, e)| f.matches.iter().filter(|m| e.matches.contains(m)).count())
        .sum();
    assert_eq!(same, 13);
}

/// The official final standings (the event's, as heltour's test quotes
/// them): team, wins, draws, losses, match points, game points (half
/// points), EGGSB (quarter points), Buchholz on match points.
/// One line of the official standings.
type Line = (&'static str, u32, u32, u32, u32, u32, i64, i64);

const OFFICIAL: [Line; 15] = [
    ("ΟΑΑΗ", 4, 3, 0, 11, 49, 2191, 56),
    ("ΟΑΧ", 5, 0, 2, 10, 47, 1944, 53),
    ("ΣΟΗ", 3, 3, 1, 9, 51, 2146, 58),
    ("ΓΑΖΙ 1", 4, 1, 2, 9, 50, 1798, 39),
    ("ΟΦΗ 1", 4, 1, 2, 9, 49, 2055, 53),
    ("ΟΦΗ 2", 3, 2, 2, 8, 44, 1821, 51),
    ("ΣΑΧ", 3, 1, 2, 8, 40, 1812, 58),
    ("ΛΕΩΝ ΚΑΝΤΙΑ 2", 3, 1, 3, 7, 46, 2043, 55),
    ("Σ.A.ΧΕΡΣΟΝΗΣΟΥ", 2, 1, 3, 6, 44, 1636, 39),
    ("ΓΑΖΙ 3", 2, 2, 3, 6, 37, 1537, 50),
    ("ΛΕΩΝ ΚΑΝΤΙΑ 1", 2, 0, 4, 5, 38, 1439, 48),
    ("Α.Π.Ο. ΜΙΚΗΣ ΘΕΟΔΩΡΑΚΗΣ", 1, 2, 3, 5, 37, 1509, 47),
    ("ΓΑΖΙ 2", 2, 0, 4, 5, 31, 1169, 48),
    ("ΚΥΔΩΝ", 1, 1, 4, 4, 36, 1309, 36),
    ("Α.Σ.ΗΡΟΔΟΤΟΣ", 1, 0, 5, 3, 29, 1233, 44),
];

/// EGGSB (C.07's extended Sonneborn-Berger on game points, which escaque's
/// standings do not offer): for each round, the opponent's final game
/// points times the game points scored against it; the bye counts the
/// team itself as its opponent (C.07 16.4's dummy), times the bye's game
/// points. Quarter points. Worked out here from escaque's round records.
fn eggsb(t: &TeamTournament, team: TeamId) -> i64 {
    use escaque_torneo::teams::model::RoundRecord;
    let gp = |id: TeamId| t.scores_after(id, ROUNDS as u32).1 as i64;
    (1..=ROUNDS as u32)
        .map(|r| match t.record(team, r) {
            Some(RoundRecord::Match { opponent, own, .. }) => gp(opponent) * own as i64,
            Some(RoundRecord::Bye { game_points, .. }) => gp(team) * game_points as i64,
            other => panic!("team {team} round {r}: {other:?}"),
        })
        .sum()
}

/// escaque's team standings of the event against the official ones: the
/// same order; wins, draws, losses, match points and game points of every
/// team; Buchholz of 14 of the 15 teams and EGGSB of 14 (each difference
/// explained below).
#[test]
fn friendship_cup_standings_are_the_official_ones() {
    let mut t = tournament(&corrected(), ColourType::A, false);
    t.tiebreaks = vec![TeamTieBreak::GamePoints, TeamTieBreak::Buchholz];
    let rows = standings::compute(&t);
    let names: Vec<&str> = rows
        .iter()
        .map(|r| t.teams[r.team as usize - 1].name.as_str())
        .collect();
    assert_eq!(names, OFFICIAL.map(|o| o.0).to_vec());
    let mut bh_differ = Vec::new();
    let mut eggsb_differ = Vec::new();
    for (row, o) in rows.iter().zip(OFFICIAL) {
        let id = row.team;
        let (mut w, mut d, mut l) = (0, 0, 0);
        for (_, m) in (1..=ROUNDS as u32).filter_map(|r| t.match_of(r, id)) {
            let (h, a) = m.match_points(&t.scoring).unwrap();
            let own = if m.home == id { h } else { a };
            match own {
                2 => w += 1,
                1 => d += 1,
                _ => l += 1,
            }
        }
        assert_eq!((w, d, l), (o.1, o.2, o.3), "{}", o.0);
        assert_eq!((row.match_points, row.game_points), (o.4, o.5), "{}", o.0);
        let bh = row.values[1].1;
        if bh != o.7 {
            bh_differ.push((o.0, bh, o.7));
        }
        let e = eggsb(&t, id);
        if e != o.6 {
            eggsb_differ.push((o.0, e, o.6));
        }
    }
    // ΣΑΧ had the bye in round 1 and ends with 8 match points. The official
    // Buchholz counts the bye's dummy opponent with ΣΑΧ's own 8 (C.07
    // 16.4, the text of 2023 in force in 2024); escaque follows the 2026
    // text, whose 16.4.2 caps a bye's dummy at a draw each round, 7.
    assert_eq!(bh_differ, vec![("ΣΑΧ", 57, 58)]);
    // ΗΡΟΔΟΤΟΣ: 304.25 from the file's games, as heltour computes it
    // (its test expects 304.25 with "TODO: this should be 308.25"); the
    // official 308.25 is 4 more, which no reading of the file found here
    // gives (README.md).
    assert_eq!(eggsb_differ, vec![("Α.Σ.ΗΡΟΔΟΤΟΣ", 1217, 1233)]);
}

/// Gacrux (FIDE TEC's tie-break checker, run outside the project on the
/// event as escaque writes it, TRF-2026 with its bye record `320`:
/// README.md there) computes escaque's values for every team: match and
/// game points, the Olympiad Sonneborn-Berger (EMGSB), EMMSB, Buchholz and
/// board count; and the EGGSB worked out above for 14 of the 15.
#[test]
fn friendship_cup_gacrux_computes_the_same() {
    use escaque_torneo::teams::trf;
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/teams/replay");
    let mut t = tournament(&corrected(), ColourType::A, false);
    // Gacrux stops (a KeyError in tiebreak.py's prepare_teamgames) on a
    // board nobody sat at: round 6, ΗΡΟΔΟΤΟΣ (13) against ΧΕΡΣΟΝΗΣΟΥ (14),
    // five players each. The file given to it names the two sixth players
    // of the rosters, both absent that round, on board 6, lost by both:
    // the same points, and the same values in escaque's standings.
    let mut g = t.clone();
    let m = g.rounds[5]
        .matches
        .iter_mut()
        .find(|m| m.home.min(m.away) == 13 && m.home.max(m.away) == 14)
        .unwrap();
    let b = &mut m.boards[5];
    assert_eq!(
        (b.home_player, b.away_player, b.result),
        (None, None, BoardResult::DoubleForfeit)
    );
    (b.home_player, b.away_player) = (Some(5), Some(5));
    let path = dir.join("friendship_cup_2024.escaque.trf");
    if std::env::var_os("ESCAQUE_WRITE_TEAM_DATA").is_some() {
        std::fs::write(&path, trf::write(&g)).unwrap();
    }
    assert_eq!(std::fs::read_to_string(&path).unwrap(), trf::write(&g));
    t.tiebreaks = vec![
        TeamTieBreak::GamePoints,
        TeamTieBreak::OlympiadSb,
        TeamTieBreak::MatchSb,
        TeamTieBreak::Buchholz,
        TeamTieBreak::BoardCount,
    ];
    g.tiebreaks = t.tiebreaks.clone();
    let rows = standings::compute(&t);
    assert_eq!(standings::compute(&g), rows);
    let gacrux = std::fs::read_to_string(dir.join("friendship_cup_2024.gacrux.txt")).unwrap();
    let mut differ = Vec::new();
    let mut compared = 0;
    for line in gacrux.lines().skip(1) {
        let f: Vec<f64> = line
            .split_whitespace()
            .map(|x| x.parse().unwrap())
            .collect();
        let team = f[0] as TeamId;
        let row = rows.iter().find(|r| r.team == team).unwrap();
        let v: Vec<i64> = row.values.iter().map(|v| v.1).collect();
        let ours = [
            ("MPTS", row.match_points as f64),
            ("GPTS", row.game_points as f64 / 2.0),
            ("EMGSB", v[1] as f64 / 2.0),
            ("EMMSB", v[2] as f64),
            ("BH", v[3] as f64),
            ("BC", v[4] as f64 / 2.0),
            ("EGGSB", eggsb(&t, team) as f64 / 4.0),
        ];
        for (k, (name, x)) in ours.iter().enumerate() {
            if *x != f[k + 2] {
                differ.push((team, *name, *x, f[k + 2]));
            }
        }
        compared += 1;
    }
    assert_eq!(compared, 15);
    // One value differs, and it is not one of escaque's tie-breaks: the
    // EGGSB worked out above for Σ.A.ΧΕΡΣΟΝΗΣΟΥ (409, the official value),
    // 406 for Gacrux. Its round-4 bye counts the team itself as opponent:
    // 22 game points times 3 as the 2023 text has it, at most a draw's game
    // points a round (3 × 7 = 21) as the 2026 text's 16.4.2 caps it in
    // Gacrux; the cap escaque's Buchholz applies to ΣΑΧ (above).
    assert_eq!(differ, vec![(14, "EGGSB", 409.0, 406.0)]);
}
