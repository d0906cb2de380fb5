//! The Dutch system against bbpPairings on tournaments from outside the
//! project (tests/data/real/README.md names each source and licence): every
//! round of every event is cut before it, as
//! `scripts/torneo_real_testdata.py` cuts it for bbpPairings, read as TRF
//! and paired; escaque must give bbpPairings' pairing on every round.

use std::path::Path;

use escaque_torneo::dutch::{pair, pairing_players};
use escaque_torneo::trf;

use crate::dutch_bbp::expected;

const POINTS: [(char, u32); 8] = [
    ('1', 2),
    ('+', 2),
    ('W', 2),
    ('U', 2),
    ('F', 2),
    ('=', 1),
    ('D', 1),
    ('H', 1),
];

/// A player line's round cells (10 characters each, from column 90).
fn cells(line: &[char]) -> Vec<Vec<char>> {
    let mut out = Vec::new();
    let mut col = 91;
    while col - 2 < line.len() {
        let mut c: Vec<char> = line[col - 2..(col + 8).min(line.len())].to_vec();
        c.resize(10, ' ');
        out.push(c);
        col += 10;
    }
    out
}

/// The event as it stood before round `r` (the script's `cut`).
fn cut(lines: &[String], r: usize) -> String {
    let mut out = String::new();
    for line in lines {
        if !line.starts_with("001") {
            out.push_str(line);
            out.push('\n');
            continue;
        }
        let chars: Vec<char> = line.chars().collect();
        let cs = cells(&chars);
        let keep = &cs[..(r - 1).min(cs.len())];
        let pts: u32 = keep
            .iter()
            .map(|c| POINTS.iter().find(|p| p.0 == c[9]).map_or(0, |p| p.1))
            .sum();
        let mut head: Vec<char> = chars[..80.min(chars.len())].to_vec();
        head.resize(80, ' ');
        let mut text: String = head.into_iter().collect();
        text.push_str(&format!(
            "{:>4}",
            format!("{}.{}", pts / 2, if pts % 2 == 1 { 5 } else { 0 })
        ));
        let mut rank: Vec<char> = chars.get(84..89.min(chars.len())).unwrap_or(&[]).to_vec();
        rank.resize(5, ' ');
        text.extend(rank);
        for c in keep {
            text.extend(c.iter());
        }
        if let Some(c) = cs.get(r - 1) {
            let opp: String = c[2..6].iter().collect::<String>();
            if matches!(opp.trim(), "0000" | "") && !matches!(c[9], 'U' | ' ') {
                text.extend(c.iter());
            }
        }
        out.push_str(text.trim_end());
        out.push('\n');
    }
    out
}

/// Pairs every round of every event in `tests/data/FOLDER` as cut before
/// it; returns the events, the rounds bbpPairings paired, and the rounds
/// where escaque differs.
fn agreement(folder: &str) -> (usize, usize, Vec<String>) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(folder);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "trf"))
        .collect();
    files.sort();
    let (mut events, mut rounds) = (0, 0);
    let mut report = Vec::new();
    for f in &files {
        let (text, _) = trf::decode(&std::fs::read(f).unwrap());
        let mut lines: Vec<String> = text
            .replace("\r\n", "\n")
            .replace('\r', "\n")
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(str::to_string)
            .collect();
        let full = trf::parse(&lines.join("\n")).unwrap();
        if !lines
            .iter()
            .any(|l| l.starts_with("XXR") || l.starts_with("142"))
        {
            lines.push(format!("XXR {}", full.total_rounds));
        }
        events += 1;
        let want_all = expected(&std::fs::read_to_string(f.with_extension("expected")).unwrap());
        for (r, want) in want_all {
            let Some(want) = want else {
                continue; // bbpPairings paired nothing (round 1 without a colour).
            };
            rounds += 1;
            let t = trf::parse(&cut(&lines, r as usize)).unwrap();
            let players = pairing_players(&t, r);
            let got: Vec<(u32, u32)> =
                pair(&players, r == t.total_rounds, t.total_rounds, t.first_white)
                    .unwrap_or_default()
                    .into_iter()
                    .map(|(w, b)| (w, b.unwrap_or(0)))
                    .collect();
            let (mut g, mut w) = (got.clone(), want.clone());
            g.sort();
            w.sort();
            if g != w {
                report.push(format!(
                    "{} round {r}: escaque {got:?} / bbpPairings {want:?}",
                    f.file_name().unwrap().to_string_lossy()
                ));
            }
        }
    }
    (events, rounds, report)
}

#[test]
fn real_events_pair_as_bbppairings_pairs_them() {
    let (events, rounds, report) = agreement("real");
    println!(
        "real events {events}, rounds {rounds}, different {}",
        report.len()
    );
    assert!(
        events >= 10 && rounds >= 68,
        "{events} events, {rounds} rounds"
    );
    assert!(report.is_empty(), "{}", report.join("\n"));
}

/// Files made for one fault each (tests/data/made/README.md): a file without
/// an initial colour whose round 2 pairs two players without colours (the
/// colour comes from round 1, as bbpPairings reads it), and rule E.5 with
/// a player absent (who keeps their pairing number), JaVaFo's `XXA`
/// accelerations and `XXP` forbidden pairs.
#[test]
fn made_files_pair_as_bbppairings_pairs_them() {
    let (events, rounds, report) = agreement("made");
    assert!(
        events >= 6 && rounds >= 8,
        "{events} events, {rounds} rounds"
    );
    assert!(report.is_empty(), "{}", report.join("\n"));
}
