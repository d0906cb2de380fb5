//! The printouts as an organiser reads them (issue 64): laid out for A4
//! unless Letter is chosen, one number style with the decimal comma, a
//! double round robin's cross table with the two results of a pair apart,
//! names and clubs kept on one line.

use escaque_torneo::html::{self, Paper};
use escaque_torneo::model::{Outcome, Player, System, Tournament};
use escaque_torneo::pairing::pair_next_round;
use escaque_torneo::pdf;

/// A double round robin of four, every round played: 1 beats everyone in
/// the first cycle and loses to everyone in the second; the rest draw.
fn double_round_robin() -> Tournament {
    let mut t = Tournament::new("Doble <vuelta>", System::RoundRobin { double: true }, 6);
    t.city = "Tucumán".into();
    for (name, club) in [
        (
            "Fernández Ortiz, María Guadalupe",
            "Club de Ajedrez Sarmiento de Tucumán",
        ),
        ("Gómez, Luis", "Colegio Nacional"),
        ("Núñez, Íñigo", "Escuela 25"),
        ("Ruiz, Eva", "Club Tucumán"),
    ] {
        let mut p = Player::new(name);
        p.club = club.into();
        t.add_player(p).unwrap();
    }
    for round in 1..=6u32 {
        pair_next_round(&mut t).unwrap();
        let games = t.rounds[round as usize - 1].games.clone();
        for (i, g) in games.iter().enumerate() {
            let outcome = match (g.white == 1, g.black == 1, round <= 3) {
                (true, _, true) => Outcome::WhiteWins,
                (_, true, true) => Outcome::BlackWins,
                (true, _, false) => Outcome::BlackWins,
                (_, true, false) => Outcome::WhiteWins,
                _ => Outcome::Draw,
            };
            t.set_result_board(round, i as u32 + 1, outcome).unwrap();
        }
    }
    t
}

/// The text of table cells in `row` (the `<tr>` whose name cell is `name`).
fn row_cells(page: &str, name: &str) -> Vec<String> {
    let row = page
        .lines()
        .find(|l| l.starts_with("<tr>") && l.contains(name))
        .unwrap_or_else(|| panic!("no row for {name} in\n{page}"));
    row.split("<td")
        .skip(1)
        .map(|c| {
            let inner = c.split_once('>').unwrap().1;
            inner.split_once("</td>").unwrap().0.to_string()
        })
        .collect()
}

#[test]
fn a_double_round_robin_cross_table_keeps_the_two_results_apart() {
    let t = double_round_robin();
    let page = html::crosstable_page(&t);
    // Each opponent heads two columns, one a cycle.
    assert!(page.contains("<th colspan=\"2\">1</th>"), "{page}");
    // Player 1 beat 2 in the first cycle and lost in the second: two cells
    // "1" and "0", never one "10".
    let cells = row_cells(&page, "Fernández Ortiz");
    assert!(!cells.iter().any(|c| c == "10" || c == "01"), "{cells:?}");
    // Puesto, nombre, then 4 opponents × 2 (one of them the player, one cell
    // spanning two), then the points.
    assert_eq!(cells.len(), 2 + 2 * 3 + 1 + 1, "{cells:?}");
    let results: Vec<&str> = cells[2..cells.len() - 1]
        .iter()
        .map(String::as_str)
        .filter(|c| *c != "✕")
        .collect();
    assert_eq!(results, ["1", "0", "1", "0", "1", "0"], "{cells:?}");
    // 3 won, 3 lost: 3 points, written as every number is.
    assert_eq!(cells.last().unwrap(), "3");
    let other = row_cells(&page, "Gómez, Luis");
    assert!(other.contains(&"½".to_string()), "{other:?}");
    assert_eq!(other.last().unwrap(), "3", "{other:?}");
    // A single round robin keeps one column an opponent.
    let mut single = Tournament::new("Una vuelta", System::RoundRobin { double: false }, 3);
    for name in ["Ana", "Eva", "Luz", "Sol"] {
        single.add_player(Player::new(name)).unwrap();
    }
    pair_next_round(&mut single).unwrap();
    let page = html::crosstable_page(&single);
    assert!(
        page.contains("<th>1</th>") && !page.contains("colspan"),
        "{page}"
    );
    assert!(page.contains("@page { size: A4;"), "upright: {page}");
    // Sixteen players twice: 32 result columns do not fit upright, the page
    // is printed sideways.
    let mut wide = Tournament::new("Ancha", System::RoundRobin { double: true }, 30);
    for i in 0..16 {
        wide.add_player(Player::new(&format!("Jugador {i:02}")))
            .unwrap();
    }
    pair_next_round(&mut wide).unwrap();
    let page = html::crosstable_page_on(&wide, Paper::Letter);
    assert!(page.contains("@page { size: letter landscape;"), "{page}");
}

#[test]
fn numbers_are_written_one_way_with_the_decimal_comma() {
    let mut t = double_round_robin();
    // A half point for player 1 (round 1, board 1: 1-4): 2,5 points.
    t.set_result_board(1, 1, Outcome::Draw).unwrap();
    for page in [
        html::standings_page(&t),
        html::crosstable_page(&t),
        html::teams_page(&t),
        html::pairings(&t, 6),
    ] {
        // No score written with ½ (a game's ½ is a result sign, in the cross
        // table's cells only) and no decimal point.
        for line in page.lines().filter(|l| l.starts_with("<tr><td")) {
            for cell in line.split("<td class=\"n\">").skip(1) {
                let value = cell.split_once("</td>").unwrap().0;
                assert!(
                    !value.contains('½') && !value.contains('.'),
                    "{value:?} in {line}"
                );
            }
        }
    }
    let standings = html::standings_page(&t);
    assert!(standings.contains(",5</td>"), "{standings}");
    assert!(!standings.contains("Descanso pedido (½"));
}

#[test]
fn pages_ask_for_a4_unless_letter_is_chosen() {
    let t = double_round_robin();
    let pages = |paper| {
        [
            html::standings_page_on(&t, paper),
            html::crosstable_page_on(&t, paper),
            html::categories_page_on(&t, paper),
            html::teams_page_on(&t, paper),
            html::pairings_on(&t, 1, paper),
        ]
    };
    for page in pages(Paper::A4) {
        assert!(page.contains("@page { size: A4;"), "{page}");
    }
    for page in pages(Paper::Letter) {
        assert!(page.contains("@page { size: letter;"), "{page}");
    }
    assert_eq!(
        html::standings_page(&t),
        html::standings_page_on(&t, Paper::A4)
    );
    // Names and clubs stay on one line.
    let standings = html::standings_page(&t);
    assert!(standings.contains("@media screen { td.nm { white-space: nowrap; } }"));
    // No one has a category or a rating: no empty columns take the room.
    assert!(!standings.contains("<th>Cat.</th>") && !standings.contains("<th>Elo</th>"));
    let mut rated = t.clone();
    rated.players[2].rating = Some(1850);
    let standings = html::standings_page(&rated);
    assert!(!standings.contains("<th>Cat.</th>") && standings.contains("<th>Elo</th>"));
    assert!(standings.contains("<td class=\"n\">1850</td>"));
    assert!(standings.contains("<td class=\"nm\">Club de Ajedrez Sarmiento de Tucumán</td>"));
    // The PDF's page box is the paper's.
    let a4 = String::from_utf8_lossy(&pdf::standings(&t)).into_owned();
    assert!(a4.contains("/MediaBox [0 0 595 842]"));
    let letter = String::from_utf8_lossy(&pdf::pairings_on(&t, 1, Paper::Letter)).into_owned();
    assert!(letter.contains("/MediaBox [0 0 612 792]"));
}

/// The printed standings say which version of FIDE C.07 their tie-breaks
/// follow, as the terminal's do (issue 62); a tie-break the regulations drop
/// (ARO with unrated players and no rating set for them) is a dash, not 0;
/// the columns are headed by C.07's acronyms (`BH-C1`), with the Spanish
/// name in the legend.
#[test]
fn standings_printouts_name_the_version_and_leave_a_dropped_aro_blank() {
    use escaque_torneo::standings::Rules;
    use escaque_torneo::TieBreak;
    let mut t = double_round_robin();
    t.system = System::Swiss;
    t.tiebreaks = vec![
        TieBreak::BuchholzCut1,
        TieBreak::SonnebornBerger,
        TieBreak::AverageRatingOpponents,
    ];
    t.players[0].rating = Some(2010);
    t.players[1].rating = Some(1890);
    t.start_date = "2025/12/20".into();
    let page = html::standings_page(&t);
    assert!(
        page.contains("Desempates según FIDE C.07, versión 2024."),
        "{page}"
    );
    assert!(page.contains(">BH-C1</th>") && page.contains("BH-C1: Buchholz -1"));
    assert!(page.contains("ARO no cuenta"), "{page}");
    for name in ["Gómez, Luis", "Ruiz, Eva"] {
        let cells = row_cells(&page, name);
        assert_eq!(cells.last().unwrap(), "—", "{cells:?}");
    }
    let pdf = pdf::standings(&t);
    let has = |needle: &[u8]| pdf.windows(needle.len()).any(|w| w == needle);
    // The PDF writes WinAnsi: ú is 0xFA, ó 0xF3, — 0x97.
    assert!(has(b"Desempates seg\xfan FIDE C.07, versi\xf3n 2024."));
    assert!(has(b"(BH-C1)") && has(b"(\x97)"));
    assert!(has(b"ARO no cuenta"));
    // The organiser's choice wins over the date; a rating for the unrated
    // brings ARO back, with numbers.
    t.tiebreak_rules = Some(Rules::V2026);
    t.unrated_rating = Some(1400);
    let page = html::standings_page(&t);
    assert!(page.contains("versión 2026.") && !page.contains("ARO no cuenta"));
    let cells = row_cells(&page, "Ruiz, Eva");
    assert_ne!(cells.last().unwrap(), "—", "{cells:?}");
    let pdf = pdf::standings(&t);
    assert!(pdf
        .windows(b"versi\xf3n 2026.".len())
        .any(|w| w == b"versi\xf3n 2026."));
    assert!(!pdf.windows(2).any(|w| w == b"(\x97"));
    let cats = html::categories_page(&t);
    assert!(cats.contains("versión 2026."), "{cats}");
}
