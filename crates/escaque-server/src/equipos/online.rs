//! Online team play (issue 59): a team tournament whose boards are games
//! on the server between the two boards' accounts.
//!
//! The games are made, started, ended and read by the individual online
//! Swiss's own pieces (`crate::tournament::online`): [`pair`] pairs the
//! round by the model and makes one game per board with
//! `online::board_game` (White the side the model gives the board: C.04.6
//! alternates the colours down a match), stores them with the round in
//! one transaction ([`crate::store::Store::save_team_round`]), starts them
//! and tells each player with `online::tell_seats`. A game's task knows
//! its board (`TournamentLink::team_table`), forfeits a player who never
//! moves (`no_show_s`, the individual event's rule) and hands its result
//! to [`game_ended`], which writes it on the board (the match and the
//! standings follow from the model) unless an organiser already set it.
//! An organiser's result on a board whose game is being played ends that
//! game with it ([`board_set`]); [`resume`] records, after a restart, the
//! games that ended while the server was down.
//!
//! A roster member without an account cannot take the seat and loses the
//! board by no-show, as a player entered without an identity does in the
//! individual event.

use std::sync::Arc;

use escaque::{Lang, Localized, RuleSet, TimeControl};
use escaque_torneo::Outcome;

use super::{Loaded, Step};
use crate::error::{ApiError, Kind};
use crate::identity::Identity;
use crate::proto::equipos as wire;
use crate::proto::equipos_online as owire;
use crate::proto::lobby::YourGame;
use crate::store::equipos_online::{TeamOnline, TeamRoundGame};
use crate::store::{self, now_ms, TournamentLink};
use crate::tournament::online as shared;
use crate::{Hub, Seat};

/// How many times a pairing that lost the version race is run again.
const RETRIES: usize = 16;
/// The no-show wait when the organiser does not say, seconds.
pub const DEFAULT_NO_SHOW_S: u32 = 120;
/// The shortest and longest no-show wait, seconds.
pub const NO_SHOW_RANGE: std::ops::RangeInclusive<u32> = 1..=3600;
/// `final_by` of a board whose game's result is in.
pub const FINAL_BY_GAME: &str = "game";

fn not_online() -> ApiError {
    ApiError::new(
        Kind::Conflict,
        "not_online",
        "este torneo por equipos se juega sobre el tablero, no en línea",
        "this team tournament is played over the board, not online",
    )
}

fn already_paired() -> ApiError {
    ApiError::new(
        Kind::Conflict,
        "started",
        "ya hay rondas emparejadas: el torneo no puede pasar a jugarse en línea",
        "rounds are already paired: the tournament cannot become an online one",
    )
}

fn no_board() -> ApiError {
    ApiError::new(
        Kind::NotFound,
        "no_board",
        "no juegas ningún tablero en la ronda en curso",
        "you play no board in the round being played",
    )
}

/// The online settings of team tournament `id`, refused `not_online`.
async fn settings(hub: &Arc<Hub>, id: &str) -> Result<TeamOnline, ApiError> {
    hub.store.team_online(id).await?.ok_or_else(not_online)
}

/// Whether team tournament `id` is played online.
pub async fn is_online(hub: &Arc<Hub>, id: &str) -> Result<bool, ApiError> {
    Ok(hub.store.team_online(id).await?.is_some())
}

/// `POST /api/equipos/{id}/en-linea`: the organiser makes the tournament an
/// online one (or changes its clock) before round 1 is paired.
pub async fn set_online(
    hub: &Arc<Hub>,
    id: &str,
    me: &Identity,
    req: &owire::OnlineOptions,
) -> Result<owire::OnlineOptions, ApiError> {
    let tc = TimeControl::parse(req.time_control.trim()).map_err(|e| {
        ApiError::bad(
            "bad_time_control",
            format!("«time_control»: {}", e.message(Lang::Es)),
            format!("\"time_control\": {}", e.message(Lang::En)),
        )
    })?;
    let no_show_s = req.no_show_s.unwrap_or(DEFAULT_NO_SHOW_S);
    if !NO_SHOW_RANGE.contains(&no_show_s) {
        return Err(ApiError::bad(
            "bad_no_show",
            format!(
                "«no_show_s» debe ir de {} a {} segundos",
                NO_SHOW_RANGE.start(),
                NO_SHOW_RANGE.end()
            ),
            format!(
                "\"no_show_s\" must be {} to {} seconds",
                NO_SHOW_RANGE.start(),
                NO_SHOW_RANGE.end()
            ),
        ));
    }
    let l = super::load(hub, id).await?;
    super::organised_by(&l, me)?;
    if !l.t.rounds.is_empty() {
        return Err(already_paired());
    }
    let o = TeamOnline {
        time_control: tc.to_string(),
        no_show_s,
    };
    hub.store.set_team_online(id, &o).await?;
    Ok(owire::OnlineOptions {
        time_control: o.time_control,
        no_show_s: Some(o.no_show_s),
    })
}

/// The account seated for roster player `member` of team `team`: its
/// identity key, or `""` (nobody can take that seat).
fn owner_of(l: &Loaded, team: u32, member: &str) -> String {
    l.settings
        .accounts
        .iter()
        .find(|a| a.team == team && a.name == member)
        .map(|a| format!("u:{}", a.user))
        .unwrap_or_default()
}

/// One game per board of round `round` that has both players (an empty
/// board's forfeit is already its result), White the side the model gives.
async fn games_for_round(
    hub: &Arc<Hub>,
    l: &Loaded,
    online: &TeamOnline,
    round: u32,
) -> Result<Vec<(TeamRoundGame, crate::Created)>, ApiError> {
    let tc = TimeControl::parse(&online.time_control).ok();
    let Some(r) = round
        .checked_sub(1)
        .and_then(|i| l.t.rounds.get(i as usize))
    else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for (ti, m) in r.matches.iter().enumerate() {
        for (bi, b) in m.boards.iter().enumerate() {
            let (Some(hp), Some(ap)) = (b.home_player, b.away_player) else {
                continue;
            };
            let seat = |team: u32, p: usize| {
                let name =
                    l.t.team(team)
                        .ok()
                        .and_then(|t| t.members.get(p))
                        .map(|m| m.name.clone())
                        .unwrap_or_default();
                Seat::Person {
                    owner: owner_of(l, team, &name),
                    name,
                }
            };
            let (home, away) = (seat(m.home, hp), seat(m.away, ap));
            let seats = if b.home_white {
                [home, away]
            } else {
                [away, home]
            };
            let (row, created) =
                shared::board_game(hub, RuleSet::default(), tc.clone(), seats, false, None).await?;
            out.push((
                TeamRoundGame {
                    round,
                    table: ti as u32 + 1,
                    board: bi as u32 + 1,
                    row,
                },
                created,
            ));
        }
    }
    Ok(out)
}

/// Pairs the next round of an online team tournament and stores it with
/// its boards' games in one transaction; then starts the games and takes
/// each player to theirs (`your_game` on the lobby's socket).
pub async fn pair(hub: &Arc<Hub>, id: &str, me: &Identity) -> Result<wire::Paired, ApiError> {
    let online = settings(hub, id).await?;
    for _ in 0..RETRIES {
        let mut l = super::load(hub, id).await?;
        super::organised_by(&l, me)?;
        let round = super::pair_round(&mut l)?;
        let games = games_for_round(hub, &l, &online, round).await?;
        let old = super::stamp(&mut l)?;
        let rows: Vec<TeamRoundGame> = games.iter().map(|g| g.0.clone()).collect();
        if !hub.store.save_team_round(&l.row, old, &rows).await? {
            continue;
        }
        for (g, created) in games {
            let board = g.board;
            let row = g.row.clone();
            hub.launch(g.row).await;
            shared::tell_seats(hub, &row, &created, None, |m| YourGame {
                tournament: Some(id.to_string()),
                round: Some(round),
                board: Some(board),
                ..m
            });
        }
        return Ok(wire::Paired { round });
    }
    Err(super::conflict())
}

/// The outcome on a board of the model, and whether an empty board forced
/// it; `None`: no such board.
fn board_outcome(l: &Loaded, round: u32, table: u32, board: u32) -> Option<Outcome> {
    let m =
        l.t.rounds
            .get(round.checked_sub(1)? as usize)?
            .matches
            .get(table.checked_sub(1)? as usize)?;
    let b = m.boards.get(board.checked_sub(1)? as usize)?;
    Some(b.result.outcome(b.home_white))
}

/// A team board's game ended: its result goes on the board (the match and
/// the standings follow), logged as the server's `game`. A result an
/// organiser already set on the board stands.
pub async fn game_ended(hub: &Arc<Hub>, link: &TournamentLink, outcome: Outcome) {
    let Some(table) = link.team_table else { return };
    let (round, board) = (link.round, link.board);
    let turn = hub.countdowns.results_turn(&link.tournament);
    let _turn = turn.lock().await;
    let r = super::change(hub, &link.tournament, None, |l| {
        if board_outcome(l, round, table, board) != Some(Outcome::Pending) {
            return Ok(());
        }
        l.t.set_result_by_colour(round, table, board, outcome)
            .map_err(super::refused)?;
        match l
            .settings
            .claims
            .iter_mut()
            .find(|c| c.round == round && c.table == table && c.board == board)
        {
            Some(c) => c.final_by = Some(FINAL_BY_GAME.into()),
            None => l.settings.claims.push(super::Claim {
                round,
                table,
                board,
                final_by: Some(FINAL_BY_GAME.into()),
                ..super::Claim::default()
            }),
        }
        l.settings.log.push(Step {
            at_ms: now_ms(),
            round,
            table,
            board,
            who: "server".into(),
            action: FINAL_BY_GAME.into(),
            result: Some(outcome.text().to_string()),
            previous: None,
        });
        Ok(())
    })
    .await;
    if let Err(e) = r {
        eprintln!(
            "escaque-server: equipos {} ronda {round} encuentro {table} tablero {board}: {} / {}",
            link.tournament, e.2, e.3
        );
    }
}

/// An organiser set the result of boards of match `table` of `round`
/// (`board` 0: every board, a whole-match forfeit): each of their games
/// still being played ends with the result the board now holds (its task
/// hands it back, and it stands).
pub async fn board_set(hub: &Arc<Hub>, id: &str, round: u32, table: u32, board: u32) {
    let Ok(Some(_)) = hub.store.team_online(id).await else {
        return;
    };
    let (Ok(l), Ok(games)) = (super::load(hub, id).await, hub.store.team_games(id).await) else {
        return;
    };
    for g in games
        .iter()
        .filter(|g| g.round == round && g.table == table && (board == 0 || g.board == board))
    {
        let Some(o) = board_outcome(&l, round, table, g.board) else {
            continue;
        };
        if let Err(e) = shared::end_running_game(hub, &g.game, o).await {
            eprintln!(
                "escaque-server: equipos {id}: partida {}: {} / {}",
                g.game, e.2, e.3
            );
        }
    }
}

/// On start: the results of team games that ended while the server went
/// down are written on their boards.
pub async fn resume(hub: &Arc<Hub>) {
    let ids = match hub.store.running_online_team_tournaments().await {
        Ok(ids) => ids,
        Err(e) => {
            store::log_failure(&e);
            return;
        }
    };
    for id in ids {
        let (Ok(l), Ok(games)) = (super::load(hub, &id).await, hub.store.team_games(&id).await)
        else {
            continue;
        };
        let round = l.t.rounds.len() as u32;
        for g in games.iter().filter(|g| g.round == round) {
            if board_outcome(&l, g.round, g.table, g.board) != Some(Outcome::Pending) {
                continue;
            }
            if let Some(outcome) = shared::finished_outcome(hub, &g.game).await {
                let link = TournamentLink {
                    tournament: id.clone(),
                    round: g.round,
                    board: g.board,
                    no_show: std::time::Duration::ZERO,
                    team_table: Some(g.table),
                };
                game_ended(hub, &link, outcome).await;
            }
        }
    }
}

// ---------------------------------------------------------------- views

/// Every board's game, by round, table and board.
pub async fn games(hub: &Arc<Hub>, id: &str) -> Result<(Loaded, owire::TeamGames), ApiError> {
    let online = settings(hub, id).await?;
    let l = super::load(hub, id).await?;
    let mut out = Vec::new();
    for g in hub.store.team_games(id).await? {
        let Some(row) = hub.store.game(&g.game).await? else {
            continue;
        };
        let team_name = |white: bool| {
            let m =
                l.t.rounds
                    .get(g.round as usize - 1)
                    .and_then(|r| r.matches.get(g.table as usize - 1))?;
            let b = m.boards.get(g.board as usize - 1)?;
            let team = if b.home_white == white {
                m.home
            } else {
                m.away
            };
            l.t.team(team).ok().map(|t| t.name.clone())
        };
        let result = board_outcome(&l, g.round, g.table, g.board)
            .filter(|o| *o != Outcome::Pending)
            .map(|o| o.text().to_string());
        out.push(owire::TeamGame {
            round: g.round,
            table: g.table,
            board: g.board,
            watch: format!("/partida/{}", g.game),
            game: g.game,
            white: row.white_name,
            black: row.black_name,
            white_team: team_name(true).unwrap_or_default(),
            black_team: team_name(false).unwrap_or_default(),
            result,
            playing: row.status != "over",
        });
    }
    Ok((
        l,
        owire::TeamGames {
            time_control: online.time_control,
            games: out,
        },
    ))
}

/// The asking account's board of the round being played (its seat: the
/// secret comes from `POST /api/games/{game}/seat`).
pub async fn my_board(hub: &Arc<Hub>, id: &str, me: &Identity) -> Result<owire::MyBoard, ApiError> {
    let (l, all) = games(hub, id).await?;
    let round = l.t.rounds.len() as u32;
    for g in all.games.into_iter().filter(|g| g.round == round) {
        let Some(row) = hub.store.game(&g.game).await? else {
            continue;
        };
        let color = if row.white_owner.as_deref() == Some(me.key.as_str()) {
            "white"
        } else if row.black_owner.as_deref() == Some(me.key.as_str()) {
            "black"
        } else {
            continue;
        };
        let team = if color == "white" {
            g.white_team.clone()
        } else {
            g.black_team.clone()
        };
        return Ok(owire::MyBoard {
            my_game: g,
            color: color.to_string(),
            team,
        });
    }
    Err(no_board())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_no_show_range_holds_the_default() {
        assert!(NO_SHOW_RANGE.contains(&DEFAULT_NO_SHOW_S));
        assert!(!NO_SHOW_RANGE.contains(&0));
    }
}
