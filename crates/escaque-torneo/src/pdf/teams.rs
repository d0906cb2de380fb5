//! Printouts of a team tournament as PDF (issue 59, teams), in Spanish, on
//! A4: the pairing sheet of a round by match and board (each match with
//! its QR code for the players' results, when the caller gives them), the
//! standings with the crosstable by teams, and the board-by-board results.
//! The texts are those of [`crate::teams::print`]'s terminal printouts.

use super::cards::{draw_qr, QrModules};
use super::{text_width, Align, Column, Doc, Paper, LINE, MARGIN, SIZE};
use crate::format_points;
use crate::teams::model::TeamTournament;
use crate::teams::print::{crosstable_cell, member_rounds, player_name as player, result_text};
use crate::teams::standings::{self, value_text};

/// The QR code of one match: its table, the modules and the link written
/// out under it.
#[derive(Clone, Debug)]
pub struct MatchQr {
    /// The match's table, from 1.
    pub table: u32,
    /// The code's modules.
    pub qr: QrModules,
    /// The link it holds.
    pub link: String,
}

/// The side of a match's QR code, points.
const QR: f64 = 92.0;

fn heading(doc: &mut Doc, t: &TeamTournament, title: &str) {
    doc.line(&t.name, 15.0, true);
    if !t.city.is_empty() {
        doc.line(&t.city, 10.0, false);
    }
    doc.line(title, 12.0, true);
    doc.y -= 4.0;
}

/// The pairings of `round` match by match, board by board (White first,
/// the result White–Black), each match's QR code at its right when `qrs`
/// has one for its table. A round not paired gives a page that says so.
pub fn team_pairings(t: &TeamTournament, round: u32, qrs: &[MatchQr]) -> Vec<u8> {
    let mut doc = Doc::on(Paper::A4);
    heading(
        &mut doc,
        t,
        &format!("Ronda {round}: emparejamientos por encuentro"),
    );
    let Some(r) = round.checked_sub(1).and_then(|i| t.rounds.get(i as usize)) else {
        doc.line("Ronda sin emparejar.", SIZE, false);
        return doc.finish();
    };
    let cols = [
        Column {
            width: 50.0,
            align: Align::Right,
        },
        Column {
            width: 150.0,
            align: Align::Left,
        },
        Column {
            width: 44.0,
            align: Align::Centre,
        },
        Column {
            width: 150.0,
            align: Align::Left,
        },
    ];
    for (k, m) in r.matches.iter().enumerate() {
        let table = k as u32 + 1;
        let qr = qrs.iter().find(|q| q.table == table);
        let rows = m.boards.len() as f64 + 3.0;
        let height = (rows * LINE + 30.0).max(if qr.is_some() { QR + 30.0 } else { 0.0 });
        doc.need(height);
        let top = doc.y;
        let name = |id: u32| {
            t.teams
                .get(id as usize - 1)
                .map(|x| x.name.clone())
                .unwrap_or_default()
        };
        let (mph, gph) = t.scores_after(m.home, round - 1);
        let (mpa, gpa) = t.scores_after(m.away, round - 1);
        doc.line(
            &format!(
                "Encuentro {table}: {} ({mph} PE, {} PP) – {} ({mpa} PE, {} PP)",
                name(m.home),
                format_points(gph),
                name(m.away),
                format_points(gpa)
            ),
            10.5,
            true,
        );
        doc.row(
            &cols,
            &["Tablero", "Blancas", "Res.", "Negras"].map(String::from),
            true,
        );
        for (b, board) in m.boards.iter().enumerate() {
            let home = player(t, m.home, board.home_player);
            let away = player(t, m.away, board.away_player);
            let (white, black) = if board.home_white {
                (home, away)
            } else {
                (away, home)
            };
            doc.row(
                &cols,
                &[
                    (b + 1).to_string(),
                    white,
                    result_text(board.result, board.home_white).to_string(),
                    black,
                ],
                false,
            );
        }
        if m.complete() {
            let (x, y) = m.game_points();
            doc.line(
                &format!("Resultado: {} – {}", format_points(x), format_points(y)),
                SIZE,
                false,
            );
        }
        if let Some(q) = qr {
            let x = doc.w - MARGIN - QR;
            draw_qr(&mut doc, &q.qr, x, top, QR);
            let y = top - QR - 8.0;
            doc.text_xy(x, y, "Resultados por los capitanes:", 6.5, false);
            // The link ends at the right margin (it is wider than the code).
            let lx = (doc.w - MARGIN - text_width(&q.link, 5.0, false)).min(x);
            doc.text_xy(lx, y - 8.0, &q.link, 5.0, false);
            doc.y = doc.y.min(y - 14.0);
        }
        doc.y -= 10.0;
    }
    if let Some(bye) = r.bye {
        let name = t
            .teams
            .get(bye as usize - 1)
            .map(|x| x.name.clone())
            .unwrap_or_default();
        doc.line(
            &format!("Exento: {name} (bye asignado por el emparejamiento)"),
            SIZE,
            false,
        );
    }
    doc.finish()
}

/// The standings with the tie-breaks, then the crosstable by teams (the
/// opponent's number, b/n the colour on board 1, the game points; `+`/`-`
/// a match won or lost by forfeit, `E` the bye).
pub fn team_standings(t: &TeamTournament) -> Vec<u8> {
    let mut doc = Doc::on(Paper::A4);
    heading(&mut doc, t, "Clasificación y cuadro cruzado por equipos");
    let rows = standings::compute(t);
    let mut cols = vec![
        Column {
            width: 30.0,
            align: Align::Right,
        },
        Column {
            width: 170.0,
            align: Align::Left,
        },
        Column {
            width: 32.0,
            align: Align::Right,
        },
        Column {
            width: 36.0,
            align: Align::Right,
        },
    ];
    let mut head: Vec<String> = ["Pos.", "Equipo", "PE", "PP"].map(String::from).to_vec();
    for tb in &t.tiebreaks {
        cols.push(Column {
            width: 48.0,
            align: Align::Right,
        });
        head.push(tb.code().to_string());
    }
    doc.row(&cols, &head, true);
    for r in &rows {
        let mut cells = vec![
            r.rank.to_string(),
            t.teams[r.team as usize - 1].name.clone(),
            r.match_points.to_string(),
            format_points(r.game_points),
        ];
        cells.extend(r.values.iter().map(|(tb, v)| value_text(*tb, *v)));
        doc.row(&cols, &cells, false);
    }
    doc.y -= 6.0;
    doc.line(
        &format!(
            "PE: puntos de encuentro ({}/{}/{}); PP: puntos de partida. Desempates: {}.",
            t.scoring.win,
            t.scoring.draw,
            t.scoring.loss,
            t.tiebreaks
                .iter()
                .map(|tb| format!("{} ({})", tb.code(), tb.name_es()))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        8.0,
        false,
    );
    doc.y -= 10.0;
    doc.line("Cuadro cruzado", 12.0, true);
    let n = t.rounds.len().max(1);
    let round_w = ((doc.w - 2.0 * MARGIN - 30.0 - 24.0 - 140.0 - 60.0) / n as f64).min(56.0);
    let mut cols = vec![
        Column {
            width: 30.0,
            align: Align::Right,
        },
        Column {
            width: 24.0,
            align: Align::Right,
        },
        Column {
            width: 140.0,
            align: Align::Left,
        },
    ];
    let mut head: Vec<String> = ["Pos.", "Nº", "Equipo"].map(String::from).to_vec();
    for r in 1..=t.rounds.len() {
        cols.push(Column {
            width: round_w,
            align: Align::Centre,
        });
        head.push(format!("R{r}"));
    }
    cols.push(Column {
        width: 28.0,
        align: Align::Right,
    });
    cols.push(Column {
        width: 32.0,
        align: Align::Right,
    });
    head.push("PE".into());
    head.push("PP".into());
    doc.row(&cols, &head, true);
    for row in &rows {
        let mut cells = vec![
            row.rank.to_string(),
            row.team.to_string(),
            t.teams[row.team as usize - 1].name.clone(),
        ];
        for r in 1..=t.rounds.len() as u32 {
            cells.push(crosstable_cell(t, row.team, r));
        }
        cells.push(row.match_points.to_string());
        cells.push(format_points(row.game_points));
        doc.row(&cols, &cells, false);
    }
    doc.finish()
}

/// The board-by-board results: each team, each player of the roster with
/// the board played and the result in every round (T2 ½), and the total.
pub fn team_boards(t: &TeamTournament) -> Vec<u8> {
    let mut doc = Doc::on(Paper::A4);
    heading(&mut doc, t, "Resultados por tablero");
    let n = t.rounds.len().max(1);
    let round_w = ((doc.w - 2.0 * MARGIN - 24.0 - 170.0 - 60.0) / n as f64).min(48.0);
    let mut cols = vec![
        Column {
            width: 24.0,
            align: Align::Right,
        },
        Column {
            width: 170.0,
            align: Align::Left,
        },
    ];
    let mut head: Vec<String> = ["Nº", "Jugador"].map(String::from).to_vec();
    for r in 1..=t.rounds.len() {
        cols.push(Column {
            width: round_w,
            align: Align::Centre,
        });
        head.push(format!("R{r}"));
    }
    cols.push(Column {
        width: 60.0,
        align: Align::Right,
    });
    head.push("Total".into());
    for (ti, team) in t.teams.iter().enumerate() {
        let id = ti as u32 + 1;
        doc.need(LINE * 3.0);
        doc.y -= 4.0;
        doc.line(&format!("{id}. {}", team.name), 10.5, true);
        doc.row(&cols, &head, true);
        for (pi, m) in team.members.iter().enumerate() {
            let (rounds, total, games) = member_rounds(t, id, pi);
            let mut cells = vec![
                (pi + 1).to_string(),
                format!(
                    "{}{}",
                    m.name,
                    if team.captain == Some(pi) { " (C)" } else { "" }
                ),
            ];
            cells.extend(rounds);
            cells.push(format!("{} de {games}", format_points(total)));
            doc.row(&cols, &cells, false);
        }
    }
    doc.finish()
}
