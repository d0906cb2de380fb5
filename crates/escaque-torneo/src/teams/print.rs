//! Printouts of a team tournament in Spanish, as plain text for the
//! terminal and the printer: the pairings by match and board, the standings,
//! the crosstable by teams and the board-by-board results of each player.

use std::fmt::Write;

use crate::format_points;
use crate::teams::model::{BoardResult, RoundRecord, Side, TeamTournament};
use crate::teams::standings::{self, value_text};

/// A roster member's name with the rating in brackets, or "(vacío)" for an
/// empty board (or an index the roster does not have).
pub(crate) fn player_name(t: &TeamTournament, team: u32, idx: Option<usize>) -> String {
    match idx.and_then(|i| t.teams.get((team as usize).checked_sub(1)?)?.members.get(i)) {
        None => "(vacío)".to_string(),
        Some(m) => match m.rating {
            Some(r) => format!("{} ({r})", m.name),
            None => m.name.clone(),
        },
    }
}

/// A board's result as White-Black, empty while it is pending.
pub(crate) fn result_text(r: BoardResult, home_white: bool) -> &'static str {
    if r == BoardResult::Pending {
        return "";
    }
    r.outcome(home_white).text()
}

/// A team's cell of the crosstable in round `r`: the opponent's number with
/// the first board's colour (b/n) and the game points, `+`/`-` for a match
/// not played, `E` for the bye, `D` and its points for a bye the team
/// asked for, `·` for no match.
pub(crate) fn crosstable_cell(t: &TeamTournament, team: u32, r: u32) -> String {
    match t.record(team, r) {
        Some(RoundRecord::Match {
            opponent,
            side,
            own,
            played,
            other,
            ..
        }) => {
            let c = if side == Side::Home { 'b' } else { 'n' };
            if played {
                format!("{opponent}{c} {}", format_points(own))
            } else if own > other {
                format!("{opponent}{c} +")
            } else {
                format!("{opponent}{c} -")
            }
        }
        Some(RoundRecord::Bye { .. }) => "E".to_string(),
        // A requested bye: D (descanso) with its game points.
        Some(RoundRecord::Requested { game_points, .. }) => {
            format!("D {}", format_points(game_points))
        }
        _ => "·".to_string(),
    }
}

/// One roster member's rounds for the board-by-board results: a cell per
/// round ("T2 ½", "T1 +" for a forfeit won, "·" when not lined up), the
/// points and the number of games with a result.
pub(crate) fn member_rounds(
    t: &TeamTournament,
    team: u32,
    member: usize,
) -> (Vec<String>, crate::HalfPoints, u32) {
    let mut total = 0;
    let mut games = 0;
    let mut cells = Vec::new();
    for r in 1..=t.rounds.len() as u32 {
        let cell = t.match_of(r, team).and_then(|(_, mt)| {
            let side = mt.side_of(team)?;
            mt.boards.iter().enumerate().find_map(|(b, board)| {
                let me = match side {
                    Side::Home => board.home_player,
                    Side::Away => board.away_player,
                };
                (me == Some(member)).then(|| {
                    let (h, a) = board.result.points();
                    let p = if side == Side::Home { h } else { a };
                    if board.result != BoardResult::Pending {
                        total += p;
                        games += 1;
                    }
                    let res = match board.result {
                        BoardResult::Pending => "*".to_string(),
                        r if r.is_forfeit() => if p > 0 { "+" } else { "-" }.to_string(),
                        _ => format_points(p),
                    };
                    format!("T{} {res}", b + 1)
                })
            })
        });
        cells.push(cell.unwrap_or_else(|| "·".to_string()));
    }
    (cells, total, games)
}

/// The pairings of `round`, match by match and board by board: each board
/// with White first and the result as White-Black.
pub fn pairings(t: &TeamTournament, round: u32) -> Option<String> {
    let r = t.rounds.get(round.checked_sub(1)? as usize)?;
    let mut s = String::new();
    let _ = writeln!(s, "{} — Ronda {round}: emparejamientos", t.name);
    for (k, m) in r.matches.iter().enumerate() {
        let (h, a) = (&t.teams[m.home as usize - 1], &t.teams[m.away as usize - 1]);
        let (mph, gph) = t.scores_after(m.home, round - 1);
        let (mpa, gpa) = t.scores_after(m.away, round - 1);
        let _ = writeln!(
            s,
            "\nEncuentro {}: {} ({} PE, {} PP) – {} ({} PE, {} PP)",
            k + 1,
            h.name,
            mph,
            format_points(gph),
            a.name,
            mpa,
            format_points(gpa)
        );
        for (b, board) in m.boards.iter().enumerate() {
            let home = player_name(t, m.home, board.home_player);
            let away = player_name(t, m.away, board.away_player);
            let (white, black) = if board.home_white {
                (home, away)
            } else {
                (away, home)
            };
            let _ = writeln!(
                s,
                "  Tablero {:>2}: {:<32} – {:<32} {}",
                b + 1,
                white,
                black,
                result_text(board.result, board.home_white)
            );
        }
        if m.complete() {
            let (x, y) = m.game_points();
            let _ = writeln!(
                s,
                "  Resultado: {} – {}",
                format_points(x),
                format_points(y)
            );
        }
    }
    if let Some(bye) = r.bye {
        let _ = writeln!(
            s,
            "\nExento: {} (bye asignado por el emparejamiento)",
            t.teams[bye as usize - 1].name
        );
    }
    for &(_, team, kind) in t.requested_byes.iter().filter(|b| b.0 == round) {
        let (mp, gp) = t.scoring.requested_bye(kind, t.boards);
        let _ = writeln!(
            s,
            "Descansa a petición propia: {} ({mp} puntos de encuentro, {} de partida)",
            t.teams[team as usize - 1].name,
            format_points(gp)
        );
    }
    Some(s)
}

/// The standings with the tie-breaks.
pub fn standings_text(t: &TeamTournament) -> String {
    let rows = standings::compute(t);
    let mut s = String::new();
    let _ = writeln!(s, "{} — Clasificación por equipos", t.name);
    let _ = write!(
        s,
        "\n{:>4}  {:<30} {:>4} {:>6}",
        "Pos.", "Equipo", "PE", "PP"
    );
    for tb in &t.tiebreaks {
        let _ = write!(s, " {:>7}", tb.code());
    }
    s.push('\n');
    for r in &rows {
        let _ = write!(
            s,
            "{:>4}  {:<30} {:>4} {:>6}",
            r.rank,
            t.teams[r.team as usize - 1].name,
            r.match_points,
            format_points(r.game_points)
        );
        for (tb, v) in &r.values {
            let _ = write!(s, " {:>7}", value_text(*tb, *v));
        }
        s.push('\n');
    }
    let _ = writeln!(
        s,
        "\nPE: puntos de encuentro ({}/{}/{}); PP: puntos de partida. Desempates: {}.",
        t.scoring.win,
        t.scoring.draw,
        t.scoring.loss,
        t.tiebreaks
            .iter()
            .map(|tb| format!("{} ({})", tb.code(), tb.name_es()))
            .collect::<Vec<_>>()
            .join(", ")
    );
    s
}

/// The crosstable by teams: for each team (in standings order) and round,
/// the opponent's number, the colour on board 1 (b/n) and the game points
/// scored; `+`/`-` a match won or lost by forfeit, `E` the bye.
pub fn crosstable(t: &TeamTournament) -> String {
    let rows = standings::compute(t);
    let mut s = String::new();
    let _ = writeln!(s, "{} — Cuadro cruzado por equipos", t.name);
    let _ = write!(s, "\n{:>4} {:>3}  {:<26}", "Pos.", "Nº", "Equipo");
    for r in 1..=t.rounds.len() {
        let _ = write!(s, " {:>9}", format!("R{r}"));
    }
    let _ = writeln!(s, " {:>4} {:>6}", "PE", "PP");
    for row in &rows {
        let _ = write!(
            s,
            "{:>4} {:>3}  {:<26}",
            row.rank,
            row.team,
            t.teams[row.team as usize - 1].name
        );
        for r in 1..=t.rounds.len() as u32 {
            let cell = crosstable_cell(t, row.team, r);
            let _ = write!(s, " {cell:>9}");
        }
        let _ = writeln!(
            s,
            " {:>4} {:>6}",
            row.match_points,
            format_points(row.game_points)
        );
    }
    s
}

/// The board-by-board results: for each team, each player of the roster
/// with the board played and the result in every round, and the total.
pub fn board_results(t: &TeamTournament) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "{} — Resultados por tablero", t.name);
    for (ti, team) in t.teams.iter().enumerate() {
        let id = ti as u32 + 1;
        let _ = writeln!(s, "\n{id}. {}", team.name);
        for (pi, m) in team.members.iter().enumerate() {
            let (cells, total, games) = member_rounds(t, id, pi);
            let captain = if team.captain == Some(pi) { " (C)" } else { "" };
            let _ = write!(s, "  {:>2}. {:<30}", pi + 1, format!("{}{captain}", m.name));
            for c in cells {
                let _ = write!(s, " {c:>7}");
            }
            let _ = writeln!(s, "   {} de {games}", format_points(total));
        }
    }
    s
}
