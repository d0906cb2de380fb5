//! Printable HTML pages in Spanish: pairings with board numbers, standings
//! with tie-breaks, the cross-table, per-category rankings and the team
//! ranking. Every name is escaped. Each page is laid out for the paper
//! asked for ([`Paper`], A4 unless Letter is chosen: CSS `@page`), and
//! writes its numbers as [`crate::print`] does (`17,5`, `18,75`).

use std::fmt::Write;

use crate::model::{
    ByeKind, Colour, Entry, Game, GameResult, Outcome, System, Tournament, Unusual,
};
pub use crate::print::Paper;
use crate::print::{number, points};
use crate::standings::{self, Standing, TieBreak};

/// Escapes text for HTML element content and attribute values.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

fn page(t: &Tournament, title: &str, body: &str, paper: Paper) -> String {
    page_in(t, title, body, paper, false)
}

/// A page, turned sideways (`landscape`) when its table needs the width.
fn page_in(t: &Tournament, title: &str, body: &str, paper: Paper, landscape: bool) -> String {
    let mut place = String::new();
    if !t.city.is_empty() {
        place.push_str(&escape(&t.city));
    }
    if !t.start_date.is_empty() {
        if !place.is_empty() {
            place.push_str(", ");
        }
        place.push_str(&escape(&t.start_date));
    }
    format!(
        "<!DOCTYPE html>\n<html lang=\"es\">\n<head>\n<meta charset=\"utf-8\">\n\
<title>{name} — {title}</title>\n<style>\n\
@page {{ size: {paper}; margin: 12mm; }}\n\
body {{ font-family: sans-serif; margin: 1.5em; }}\n\
h1 {{ font-size: 1.4em; margin-bottom: 0; }}\n\
h2 {{ font-size: 1.15em; }}\n\
table {{ border-collapse: collapse; margin-bottom: 1.5em; }}\n\
th, td {{ border: 1px solid #444; padding: 0.2em 0.5em; }}\n\
th {{ background: #eee; }}\n\
td.n {{ text-align: right; }}\n\
td.c {{ text-align: center; }}\n\
@media screen {{ td.nm {{ white-space: nowrap; }} }}\n\
td.r2 {{ border-left-style: dotted; }}\n\
@media print {{ body {{ margin: 0; font-size: 9pt; }} th, td {{ padding: 0.1em 0.3em; }} h2 {{ page-break-after: avoid; }} table {{ page-break-inside: auto; }} tr {{ page-break-inside: avoid; }} }}\n\
</style>\n</head>\n<body>\n<h1>{name}</h1>\n<p>{place}</p>\n<p class=\"fide\">{fide}</p>\n<h2>{title}</h2>\n{body}</body>\n</html>\n",
        name = escape(&t.name),
        fide = escape(&crate::fide::mark(t, escaque::Lang::Es)),
        title = escape(title),
        paper = if landscape {
            format!("{} landscape", paper.css())
        } else {
            paper.css().to_string()
        },
    )
}

fn player_cell(t: &Tournament, id: u32) -> String {
    let p = &t.players[id as usize - 1];
    format!("{} ({id})", escape(&p.name))
}

/// A board's result as the printouts write it (`1 - 0`, `+ - −`, and the
/// unusual `½ - 0`, `0 - ½`, `0 - 0`).
pub(crate) fn result_text(g: &Game) -> &'static str {
    match g.unusual {
        Some(Unusual::HalfZero) => return "½ - 0",
        Some(Unusual::ZeroHalf) => return "0 - ½",
        Some(Unusual::ZeroZero) => return "0 - 0",
        None => {}
    }
    match g.outcome {
        Outcome::WhiteWins => "1 - 0",
        Outcome::BlackWins => "0 - 1",
        Outcome::Draw => "½ - ½",
        Outcome::WhiteForfeitWin => "+ - −",
        Outcome::BlackForfeitWin => "− - +",
        Outcome::DoubleForfeit => "− - −",
        Outcome::Pending => "",
    }
}

/// A bye as the printouts name it, with its points.
pub(crate) fn bye_text(k: ByeKind) -> &'static str {
    match k {
        ByeKind::PairingAllocated => "Exento (1 punto)",
        ByeKind::Half => "Descanso pedido (medio punto)",
        ByeKind::Full => "Descanso concedido (1 punto)",
        ByeKind::Zero => "No juega (0 puntos)",
    }
}

/// Pairings of `round` with board numbers and each player's score before
/// it, on A4 ([`pairings_on`] for another paper).
pub fn pairings(t: &Tournament, round: u32) -> String {
    pairings_on(t, round, Paper::A4)
}

/// Pairings of `round` on `paper`.
pub fn pairings_on(t: &Tournament, round: u32, paper: Paper) -> String {
    let mut b = String::new();
    let Some(r) = round.checked_sub(1).and_then(|i| t.rounds.get(i as usize)) else {
        return page(
            t,
            &format!("Ronda {round}"),
            "<p>Ronda sin emparejar.</p>\n",
            paper,
        );
    };
    b.push_str("<table>\n<tr><th>Mesa</th><th>Pts</th><th>Blancas</th><th>Resultado</th><th>Negras</th><th>Pts</th></tr>\n");
    for (i, g) in r.games.iter().enumerate() {
        let _ = writeln!(
            b,
            "<tr><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"nm\">{}</td><td class=\"c\">{}</td><td class=\"nm\">{}</td><td class=\"n\">{}</td></tr>",
            i + 1,
            points(t.score_after(g.white, round - 1)),
            player_cell(t, g.white),
            result_text(g),
            player_cell(t, g.black),
            points(t.score_after(g.black, round - 1)),
        );
    }
    b.push_str("</table>\n");
    if !r.byes.is_empty() {
        b.push_str("<table>\n<tr><th>Sin rival</th><th></th></tr>\n");
        for &(p, k) in &r.byes {
            let _ = writeln!(
                b,
                "<tr><td class=\"nm\">{}</td><td>{}</td></tr>",
                player_cell(t, p),
                bye_text(k)
            );
        }
        b.push_str("</table>\n");
    }
    page(
        t,
        &format!("Emparejamientos de la ronda {round}"),
        &b,
        paper,
    )
}

/// A standings table. The category and rating columns are left out when
/// no one in it has one, so that names and clubs keep their line: on paper
/// a name or club wraps only when the page has no room left (the table's
/// automatic layout), on screen never.
fn standings_table(t: &Tournament, rows: &[Standing]) -> String {
    let player = |s: &Standing| &t.players[s.player as usize - 1];
    let categories = rows.iter().any(|s| !player(s).category.is_empty());
    let ratings = rows.iter().any(|s| player(s).rating.is_some());
    let mut b = String::from(
        "<table>\n<tr><th>Puesto</th><th>Nº</th><th>Nombre</th><th>Club / colegio</th>",
    );
    if categories {
        b.push_str("<th>Cat.</th>");
    }
    if ratings {
        b.push_str("<th>Elo</th>");
    }
    b.push_str("<th>Puntos</th>");
    for tb in &t.tiebreaks {
        let _ = write!(
            b,
            "<th title=\"{}\">{}</th>",
            escape(tb.name_es()),
            escape(tb.acronym())
        );
    }
    // A tie-break the regulations drop (ARO with unrated players) has no
    // value: a dash, never a 0 that reads as one.
    let dropped: Vec<TieBreak> = standings::dropped(t).into_iter().map(|d| d.0).collect();
    b.push_str("</tr>\n");
    for s in rows {
        let p = player(s);
        let _ = write!(
            b,
            "<tr><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"nm\">{}</td><td class=\"nm\">{}</td>",
            s.rank,
            s.player,
            escape(&p.name),
            escape(&p.club),
        );
        if categories {
            let _ = write!(b, "<td class=\"nm\">{}</td>", escape(&p.category));
        }
        if ratings {
            let rating = p.rating.map(|r| r.to_string()).unwrap_or_default();
            let _ = write!(b, "<td class=\"n\">{rating}</td>");
        }
        let _ = write!(b, "<td class=\"n\">{}</td>", points(s.points));
        for (v, tb) in s.tiebreaks.iter().zip(&t.tiebreaks) {
            let text = if dropped.contains(tb) {
                "—".to_string()
            } else {
                number(*v)
            };
            let _ = write!(b, "<td class=\"n\">{text}</td>");
        }
        b.push_str("</tr>\n");
    }
    b.push_str("</table>\n");
    b
}

fn legend(t: &Tournament) -> String {
    let items: Vec<String> = t
        .tiebreaks
        .iter()
        .map(|tb| format!("{}: {}", escape(tb.acronym()), escape(tb.name_es())))
        .collect();
    format!("<p>Desempates: {}.</p>\n", items.join("; "))
}

/// The version of FIDE C.07 the tie-breaks follow, as the terminal's
/// standings head them, and the tie-breaks the regulations drop.
fn rules_note(t: &Tournament) -> String {
    let mut b = format!(
        "<p class=\"reglamento\">{}.</p>\n",
        escape(&standings::Rules::of(t).heading(escaque::Lang::Es))
    );
    for (tb, _) in standings::dropped(t) {
        let _ = writeln!(
            b,
            "<p>{} no cuenta: hay jugadores sin Elo y las bases del torneo no fijan con qué Elo cuentan.</p>",
            escape(tb.acronym())
        );
    }
    b
}

/// The standings with the organiser's tie-breaks, on A4.
pub fn standings_page(t: &Tournament) -> String {
    standings_page_on(t, Paper::A4)
}

/// The standings on `paper`.
pub fn standings_page_on(t: &Tournament, paper: Paper) -> String {
    let table = standings::table(t);
    let title = format!("Clasificación tras la ronda {}", table.after_round);
    let mut body = String::new();
    if let Some(r) = table.in_progress {
        let _ = writeln!(
            body,
            "<p>Ronda {r} en juego: sus partidas aún no cuentan.</p>"
        );
    }
    body.push_str(&rules_note(t));
    body.push_str(&standings_table(t, &table.rows));
    body.push_str(&legend(t));
    page(t, &title, &body, paper)
}

/// One ranking per category, on A4.
pub fn categories_page(t: &Tournament) -> String {
    categories_page_on(t, Paper::A4)
}

/// One ranking per category on `paper`.
pub fn categories_page_on(t: &Tournament, paper: Paper) -> String {
    let mut b = rules_note(t);
    let mut any = false;
    for (cat, rows) in standings::by_category(t) {
        any = true;
        let _ = writeln!(b, "<h3>{}</h3>", escape(&cat));
        b.push_str(&standings_table(t, &rows));
    }
    if !any {
        b.push_str("<p>No hay categorías.</p>\n");
    }
    b.push_str(&legend(t));
    page(t, "Clasificación por categorías", &b, paper)
}

/// The team ranking by club or school, on A4.
pub fn teams_page(t: &Tournament) -> String {
    teams_page_on(t, Paper::A4)
}

/// The team ranking on `paper`.
pub fn teams_page_on(t: &Tournament, paper: Paper) -> String {
    let mut b = format!(
        "<p>Suma de los {} mejores jugadores de cada club o colegio.</p>\n<table>\n<tr><th>Puesto</th><th>Club / colegio</th><th>Puntos</th><th>Jugadores que puntúan</th></tr>\n",
        t.team_size
    );
    let mut scores = vec![0; t.players.len()];
    for s in standings::compute(t) {
        scores[s.player as usize - 1] = s.points;
    }
    for s in standings::teams(t) {
        let names: Vec<String> = s
            .counted
            .iter()
            .map(|&id| {
                format!(
                    "{} ({})",
                    escape(&t.players[id as usize - 1].name),
                    points(scores[id as usize - 1])
                )
            })
            .collect();
        let _ = writeln!(
            b,
            "<tr><td class=\"n\">{}</td><td class=\"nm\">{}</td><td class=\"n\">{}</td><td>{}</td></tr>",
            s.rank,
            escape(&s.club),
            points(s.points),
            names.join(", ")
        );
    }
    b.push_str("</table>\n");
    page(t, "Clasificación por equipos", &b, paper)
}

fn cell_text(e: Entry, rank_of: &[u32]) -> String {
    match e {
        Entry::Game {
            opponent,
            colour,
            result,
        } => {
            let c = if colour == Colour::White { "b" } else { "n" };
            let r = match result {
                GameResult::Win => "1",
                GameResult::Draw => "½",
                GameResult::Loss => "0",
                GameResult::ForfeitWin => "+",
                GameResult::ForfeitLoss => "−",
                GameResult::Pending => "",
            };
            format!("{}{c}{r}", rank_of[opponent as usize - 1])
        }
        Entry::Bye(ByeKind::PairingAllocated) => "exento".into(),
        Entry::Bye(ByeKind::Full) => "1 desc.".into(),
        Entry::Bye(ByeKind::Half) => "½ desc.".into(),
        Entry::Bye(ByeKind::Zero) | Entry::Absent => "—".into(),
    }
}

/// One game's result from a side, as a cross table marks it.
fn mark(result: GameResult) -> &'static str {
    match result {
        GameResult::Win => "1",
        GameResult::Draw => "½",
        GameResult::Loss => "0",
        GameResult::ForfeitWin => "+",
        GameResult::ForfeitLoss => "−",
        GameResult::Pending => "·",
    }
}

/// The cross-table: for a round robin, player against player; for a Swiss,
/// round by round (opponent's place, colour b/n, result). In a double round
/// robin each opponent has two columns, one a cycle, so that the two
/// results of a pair (`1` and `0`) are never read as one number (`10`).
/// On A4.
pub fn crosstable_page(t: &Tournament) -> String {
    crosstable_page_on(t, Paper::A4)
}

/// The cross-table on `paper`.
pub fn crosstable_page_on(t: &Tournament, paper: Paper) -> String {
    let table = standings::table(t);
    let done = table.after_round;
    let rows = table.rows;
    let mut rank_of = vec![0u32; t.players.len()];
    for (i, s) in rows.iter().enumerate() {
        rank_of[s.player as usize - 1] = i as u32 + 1;
    }
    let mut b = String::from("<table>\n<tr><th>Puesto</th><th>Nombre</th>");
    let rr = matches!(t.system, System::RoundRobin { .. });
    let double = matches!(t.system, System::RoundRobin { double: true });
    // Rounds in one cycle: the first cycle's games go in the first column.
    let n = t.players.len() as u32;
    let cycle = (n.saturating_sub(1) + n % 2).max(1);
    if rr {
        for i in 1..=rows.len() {
            if double {
                let _ = write!(b, "<th colspan=\"2\">{i}</th>");
            } else {
                let _ = write!(b, "<th>{i}</th>");
            }
        }
    } else {
        for r in 1..=done {
            let _ = write!(b, "<th>R{r}</th>");
        }
    }
    b.push_str("<th>Puntos</th></tr>\n");
    for (i, s) in rows.iter().enumerate() {
        let _ = write!(
            b,
            "<tr><td class=\"n\">{}</td><td class=\"nm\">{}</td>",
            i + 1,
            escape(&t.players[s.player as usize - 1].name)
        );
        if rr {
            for other in &rows {
                if other.player == s.player {
                    let span = if double { " colspan=\"2\"" } else { "" };
                    let _ = write!(b, "<td class=\"c\"{span}>✕</td>");
                    continue;
                }
                // The result of each cycle against this opponent.
                let mut cells = [String::new(), String::new()];
                for r in 1..=done {
                    if let Entry::Game {
                        opponent, result, ..
                    } = t.entry(s.player, r)
                    {
                        if opponent == other.player {
                            let c = usize::from(double && r > cycle);
                            cells[c].push_str(mark(result));
                        }
                    }
                }
                if double {
                    let _ = write!(
                        b,
                        "<td class=\"c\">{}</td><td class=\"c r2\">{}</td>",
                        cells[0], cells[1]
                    );
                } else {
                    let _ = write!(b, "<td class=\"c\">{}</td>", cells[0]);
                }
            }
        } else {
            for r in 1..=done {
                let _ = write!(
                    b,
                    "<td class=\"c\">{}</td>",
                    cell_text(t.entry(s.player, r), &rank_of)
                );
            }
        }
        let _ = writeln!(b, "<td class=\"n\">{}</td></tr>", points(s.points));
    }
    b.push_str("</table>\n");
    // Wider than a page upright (more than 16 result columns, or 12 rounds
    // of a Swiss): printed sideways, so that nothing is cut.
    let columns = if rr {
        t.players.len() * if double { 2 } else { 1 }
    } else {
        done as usize * 2
    };
    let title = format!("Tabla cruzada tras la ronda {done}");
    page_in(t, &title, &b, paper, columns > 16)
}
