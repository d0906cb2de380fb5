//! Printable HTML pages in Spanish: pairings with board numbers, standings
//! with tie-breaks, the cross-table, per-category rankings and the team
//! ranking. Every name is escaped.

use std::fmt::Write;

use crate::model::{ByeKind, Colour, Entry, GameResult, Outcome, System, Tournament};
use crate::standings::{self, Standing};
use crate::{format_points, HalfPoints};

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

fn page(t: &Tournament, title: &str, body: &str) -> String {
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
body {{ font-family: sans-serif; margin: 1.5em; }}\n\
h1 {{ font-size: 1.4em; margin-bottom: 0; }}\n\
h2 {{ font-size: 1.15em; }}\n\
table {{ border-collapse: collapse; margin-bottom: 1.5em; }}\n\
th, td {{ border: 1px solid #444; padding: 0.2em 0.5em; }}\n\
th {{ background: #eee; }}\n\
td.n {{ text-align: right; }}\n\
td.c {{ text-align: center; }}\n\
@media print {{ body {{ margin: 0; }} h2 {{ page-break-after: avoid; }} table {{ page-break-inside: auto; }} tr {{ page-break-inside: avoid; }} }}\n\
</style>\n</head>\n<body>\n<h1>{name}</h1>\n<p>{place}</p>\n<h2>{title}</h2>\n{body}</body>\n</html>\n",
        name = escape(&t.name),
        title = escape(title),
    )
}

fn player_cell(t: &Tournament, id: u32) -> String {
    let p = &t.players[id as usize - 1];
    format!("{} ({id})", escape(&p.name))
}

/// A board's result as the printouts write it (`1 - 0`, `+ - −`).
pub(crate) fn result_text(o: Outcome) -> &'static str {
    match o {
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
        ByeKind::Half => "Descanso pedido (½ punto)",
        ByeKind::Full => "Descanso concedido (1 punto)",
        ByeKind::Zero => "No juega (0 puntos)",
    }
}

/// Pairings of `round` with board numbers and each player's score before it.
pub fn pairings(t: &Tournament, round: u32) -> String {
    let mut b = String::new();
    let Some(r) = t.rounds.get(round as usize - 1) else {
        return page(
            t,
            &format!("Ronda {round}"),
            "<p>Ronda sin emparejar.</p>\n",
        );
    };
    b.push_str("<table>\n<tr><th>Mesa</th><th>Pts</th><th>Blancas</th><th>Resultado</th><th>Negras</th><th>Pts</th></tr>\n");
    for (i, g) in r.games.iter().enumerate() {
        let _ = writeln!(
            b,
            "<tr><td class=\"n\">{}</td><td class=\"n\">{}</td><td>{}</td><td class=\"c\">{}</td><td>{}</td><td class=\"n\">{}</td></tr>",
            i + 1,
            format_points(t.score_after(g.white, round - 1)),
            player_cell(t, g.white),
            result_text(g.outcome),
            player_cell(t, g.black),
            format_points(t.score_after(g.black, round - 1)),
        );
    }
    b.push_str("</table>\n");
    if !r.byes.is_empty() {
        b.push_str("<table>\n<tr><th>Sin rival</th><th></th></tr>\n");
        for &(p, k) in &r.byes {
            let _ = writeln!(
                b,
                "<tr><td>{}</td><td>{}</td></tr>",
                player_cell(t, p),
                bye_text(k)
            );
        }
        b.push_str("</table>\n");
    }
    page(t, &format!("Emparejamientos de la ronda {round}"), &b)
}

fn tb_value(v: f64) -> String {
    if v.fract() == 0.0 {
        format!("{v:.0}")
    } else if (v * 2.0).fract() == 0.0 {
        format_points((v * 2.0) as HalfPoints)
    } else {
        format!("{v:.2}").replace('.', ",")
    }
}

fn standings_table(t: &Tournament, rows: &[Standing]) -> String {
    let mut b = String::from(
        "<table>\n<tr><th>Puesto</th><th>Nº</th><th>Nombre</th><th>Club / colegio</th><th>Cat.</th><th>Elo</th><th>Puntos</th>",
    );
    for tb in &t.tiebreaks {
        let _ = write!(
            b,
            "<th title=\"{}\">{}</th>",
            escape(tb.name_es()),
            escape(tb.id())
        );
    }
    b.push_str("</tr>\n");
    for s in rows {
        let p = &t.players[s.player as usize - 1];
        let _ = write!(
            b,
            "<tr><td class=\"n\">{}</td><td class=\"n\">{}</td><td>{}</td><td>{}</td><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>",
            s.rank,
            s.player,
            escape(&p.name),
            escape(&p.club),
            escape(&p.category),
            p.rating.map(|r| r.to_string()).unwrap_or_default(),
            format_points(s.points),
        );
        for v in &s.tiebreaks {
            let _ = write!(b, "<td class=\"n\">{}</td>", tb_value(*v));
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
        .map(|tb| format!("{}: {}", escape(tb.id()), escape(tb.name_es())))
        .collect();
    format!("<p>Desempates: {}.</p>\n", items.join("; "))
}

/// The standings with the organiser's tie-breaks.
pub fn standings_page(t: &Tournament) -> String {
    let table = standings::table(t);
    let title = format!("Clasificación tras la ronda {}", table.after_round);
    let mut body = String::new();
    if let Some(r) = table.in_progress {
        let _ = writeln!(
            body,
            "<p>Ronda {r} en juego: sus partidas aún no cuentan.</p>"
        );
    }
    body.push_str(&standings_table(t, &table.rows));
    body.push_str(&legend(t));
    page(t, &title, &body)
}

/// One ranking per category.
pub fn categories_page(t: &Tournament) -> String {
    let mut b = String::new();
    for (cat, rows) in standings::by_category(t) {
        let _ = writeln!(b, "<h3>{}</h3>", escape(&cat));
        b.push_str(&standings_table(t, &rows));
    }
    if b.is_empty() {
        b.push_str("<p>No hay categorías.</p>\n");
    }
    b.push_str(&legend(t));
    page(t, "Clasificación por categorías", &b)
}

/// The team ranking by club or school.
pub fn teams_page(t: &Tournament) -> String {
    let mut b = format!(
        "<p>Suma de los {} mejores jugadores de cada club o colegio.</p>\n<table>\n<tr><th>Puesto</th><th>Club / colegio</th><th>Puntos</th><th>Jugadores que puntúan</th></tr>\n",
        t.team_size
    );
    let mut points = vec![0; t.players.len()];
    for s in standings::compute(t) {
        points[s.player as usize - 1] = s.points;
    }
    for s in standings::teams(t) {
        let names: Vec<String> = s
            .counted
            .iter()
            .map(|&id| {
                format!(
                    "{} ({})",
                    escape(&t.players[id as usize - 1].name),
                    format_points(points[id as usize - 1])
                )
            })
            .collect();
        let _ = writeln!(
            b,
            "<tr><td class=\"n\">{}</td><td>{}</td><td class=\"n\">{}</td><td>{}</td></tr>",
            s.rank,
            escape(&s.club),
            format_points(s.points),
            names.join(", ")
        );
    }
    b.push_str("</table>\n");
    page(t, "Clasificación por equipos", &b)
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

/// The cross-table: for a round robin, player against player; for a Swiss,
/// round by round (opponent's place, colour b/n, result).
pub fn crosstable_page(t: &Tournament) -> String {
    let table = standings::table(t);
    let done = table.after_round;
    let rows = table.rows;
    let mut rank_of = vec![0u32; t.players.len()];
    for (i, s) in rows.iter().enumerate() {
        rank_of[s.player as usize - 1] = i as u32 + 1;
    }
    let mut b = String::from("<table>\n<tr><th>Puesto</th><th>Nombre</th>");
    let rr = matches!(t.system, System::RoundRobin { .. });
    if rr {
        for i in 1..=rows.len() {
            let _ = write!(b, "<th>{i}</th>");
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
            "<tr><td class=\"n\">{}</td><td>{}</td>",
            i + 1,
            escape(&t.players[s.player as usize - 1].name)
        );
        if rr {
            for other in &rows {
                if other.player == s.player {
                    b.push_str("<td class=\"c\">✕</td>");
                    continue;
                }
                let mut cell = String::new();
                for r in 1..=done {
                    if let Entry::Game {
                        opponent, result, ..
                    } = t.entry(s.player, r)
                    {
                        if opponent == other.player {
                            cell.push_str(match result {
                                GameResult::Win => "1",
                                GameResult::Draw => "½",
                                GameResult::Loss => "0",
                                GameResult::ForfeitWin => "+",
                                GameResult::ForfeitLoss => "−",
                                GameResult::Pending => "·",
                            });
                        }
                    }
                }
                let _ = write!(b, "<td class=\"c\">{cell}</td>");
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
        let _ = writeln!(b, "<td class=\"n\">{}</td></tr>", format_points(s.points));
    }
    b.push_str("</table>\n");
    page(t, &format!("Tabla cruzada tras la ronda {done}"), &b)
}
