//! A player's page: `GET /api/players/{name}` (ratings per pool with their
//! history, the score, recent finished games) and
//! `GET /api/players/{name}/vs/{other}` (head-to-head).
//!
//! Only accounts have a page; a guest's name finds nothing. A managed
//! account (a pupil of a class) is private (kid mode): its page answers
//! `404 no_such_player` to anybody but the pupil itself, its class's
//! teachers and its classmates, exactly as a name that does not exist (so
//! nobody learns that it does). A head-to-head with a pupil is shown to
//! those who may see the pupil's page, and to the other player if the two
//! have played; a game against a pupil is left out of another player's list
//! for anybody else.

use std::sync::Arc;

use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::Json;
use serde_json::Value;
use std::collections::HashMap;

use super::{names, ApiError, ApiResult, Identity};
use crate::classes::kid;
use crate::proto::players as wire;
use crate::rating::PERFS;
use crate::store::{GameRow, PlayerRow, Score};
use crate::Hub;
use escaque_analysis::Opening;

/// The recent games a page lists.
const RECENT_GAMES: i64 = 50;

/// The games a head-to-head lists (its counts take every game).
const HEAD_TO_HEAD_GAMES: i64 = 100;

fn no_such_player() -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "no_such_player",
        "no existe ese jugador (o su página es privada)",
        "there is no such player (or their page is private)",
    )
}

/// The owner identity of an account.
fn owner_of(p: &PlayerRow) -> String {
    format!("u:{}", p.id)
}

/// The account named `name` (as typed: its skeleton, or the lower-cased
/// name of an account made before the names rule), if it exists.
async fn find(hub: &Hub, name: &str) -> Result<Option<PlayerRow>, ApiError> {
    // No account name is longer than 20 characters.
    if name.chars().count() > 40 {
        return Ok(None);
    }
    let by_skeleton = hub.store.player_by_key(&names::skeleton(name)).await?;
    if by_skeleton.is_some() {
        return Ok(by_skeleton);
    }
    Ok(hub.store.player_by_key(&name.to_lowercase()).await?)
}

/// A rating as a whole number: truncated, as lichess's `intRating` (and
/// `Glicko::int_rating`, which the game page shows) writes it.
fn whole(x: f64) -> i64 {
    x as i64
}

/// The pools with their history, in the page's order ([`PERFS`]: the
/// time classes from the fastest, then Chess960).
async fn pools_json(hub: &Hub, user: &str) -> Result<Vec<wire::Pool>, ApiError> {
    let rank = |perf: &str| PERFS.iter().position(|p| *p == perf).unwrap_or(PERFS.len());
    let mut ratings = hub.store.ratings_of(user).await?;
    ratings.sort_by_key(|(perf, _)| rank(perf));
    let mut out = Vec::with_capacity(ratings.len());
    let now = crate::store::now_ms();
    for (perf, r) in ratings {
        // As the next game would take it (and the lobby and the game page
        // show it): the deviation grown for the time without rated games.
        let g = r.glicko.aged(now - r.updated_ms);
        let history = hub.store.rating_history(user, &perf).await?;
        let points: Vec<wire::HistoryPoint> = history
            .iter()
            .map(|h| wire::HistoryPoint {
                at_ms: h.at_ms,
                rating: whole(h.rating),
                game: h.game.clone(),
            })
            .collect();
        out.push(wire::Pool {
            perf,
            rating: g.int_rating(),
            deviation: g.deviation.round() as i64,
            provisional: g.provisional(),
            games: r.games,
            history: points,
        });
    }
    Ok(out)
}

fn score_json(s: Score) -> wire::ScoreView {
    wire::ScoreView {
        games: s.wins + s.draws + s.losses,
        wins: s.wins,
        draws: s.draws,
        losses: s.losses,
    }
}

/// One finished game from `owner`'s side.
fn game_json(g: &GameRow, owner: &str, openings: &HashMap<String, Opening>) -> wire::PlayerGame {
    let white = g.white_owner.as_deref() == Some(owner);
    let (me, opp) = if white { (0, 1) } else { (1, 0) };
    let names = [&g.white_name, &g.black_name];
    let kinds = [&g.white_kind, &g.black_kind];
    let owners = [&g.white_owner, &g.black_owner];
    let level = kinds[opp]
        .strip_prefix("engine:")
        .and_then(|n| n.parse::<u32>().ok());
    let result = g.end.map(|e| e.result_pgn());
    let score = match (result, white) {
        (Some("1/2-1/2"), _) => Some("draw"),
        (Some("1-0"), true) | (Some("0-1"), false) => Some("win"),
        (Some("0-1"), true) | (Some("1-0"), false) => Some("loss"),
        _ => None,
    };
    wire::PlayerGame {
        game: g.id.clone(),
        created_ms: g.created_ms,
        color: if white { "white" } else { "black" },
        opponent: names[opp].clone(),
        opponent_kind: if level.is_some() { "engine" } else { "human" },
        opponent_level: level,
        opponent_account: owners[opp].as_deref().is_some_and(|o| o.starts_with("u:")),
        result,
        score,
        termination: g.end.map(|e| e.termination.id()),
        termination_side: g.end.and_then(|e| e.side_id()),
        time_control: g.time_control.clone(),
        rules: g.rules.id(),
        variant: if g.chess960 { "chess960" } else { "standard" },
        rated: g.rated,
        perf: g.perf.clone(),
        rating: g.ratings[me],
        opponent_rating: g.ratings[opp],
        rating_diff: g.rating_diffs[me],
        opening: openings.get(&g.id).cloned(),
        // Filled by the analysis issue; present so that clients read it.
        accuracy: Value::Null,
    }
}

/// Whether `me` may see the account `p` (kid mode: a pupil is seen by
/// itself, its class's teachers and its classmates; anybody else by all).
async fn may_see(hub: &Hub, me: &Identity, p: &PlayerRow) -> Result<bool, ApiError> {
    if !p.managed {
        return Ok(true);
    }
    Ok(kid::may_see_pupil(&hub.store, me, &p.id).await?)
}

/// `games` without those against a pupil that `me` may not see (`me`
/// being neither `owner`, whose list it is, nor allowed to see that
/// pupil).
async fn seen_games(
    hub: &Hub,
    me: &Identity,
    owner: &str,
    games: Vec<GameRow>,
) -> Result<Vec<GameRow>, ApiError> {
    if me.key == owner {
        return Ok(games);
    }
    let mut seen: HashMap<String, bool> = HashMap::new();
    let mut out = Vec::with_capacity(games.len());
    for g in games {
        let opponent = if g.white_owner.as_deref() == Some(owner) {
            &g.black_owner
        } else {
            &g.white_owner
        };
        let shown = match opponent.as_deref() {
            Some(key) if key != me.key => match seen.get(key) {
                Some(s) => *s,
                None => {
                    let s = !kid::is_pupil(hub, key).await?
                        || kid::may_see_pupil(&hub.store, me, &key[2..]).await?;
                    seen.insert(key.to_string(), s);
                    s
                }
            },
            _ => true,
        };
        if shown {
            out.push(g);
        }
    }
    Ok(out)
}

/// `GET /api/players/{name}`.
pub(super) async fn player(
    State(hub): State<Arc<Hub>>,
    me: Identity,
    path: Result<Path<String>, PathRejection>,
) -> ApiResult {
    let Path(name) = path?;
    let p = find(&hub, &name).await?.ok_or_else(no_such_player)?;
    let owner = owner_of(&p);
    let yours = me.key == owner;
    if !may_see(&hub, &me, &p).await? {
        return Err(no_such_player());
    }
    let score = hub.store.score_of(&owner, None).await?;
    let games = hub.store.finished_games_of(&owner, RECENT_GAMES).await?;
    let games = seen_games(&hub, &me, &owner, games).await?;
    let openings = crate::openings::of_rows(&hub.store, &games).await?;
    Ok(Json(wire::PlayerPage {
        ratings: pools_json(&hub, &p.id).await?,
        name: p.name,
        you: yours,
        managed: p.managed,
        created_ms: p.created_ms,
        score: score_json(score),
        games: games
            .iter()
            .map(|g| game_json(g, &owner, &openings))
            .collect(),
    })
    .into_response())
}

/// `GET /api/players/{name}/vs/{other}`.
pub(super) async fn head_to_head(
    State(hub): State<Arc<Hub>>,
    me: Identity,
    path: Result<Path<(String, String)>, PathRejection>,
) -> ApiResult {
    let Path((name, other)) = path?;
    let p = find(&hub, &name).await?.ok_or_else(no_such_player)?;
    let q = find(&hub, &other).await?.ok_or_else(no_such_player)?;
    let (a, b) = (owner_of(&p), owner_of(&q));
    let one_of_them = me.key == a || me.key == b;
    let both_seen = may_see(&hub, &me, &p).await? && may_see(&hub, &me, &q).await?;
    if !both_seen && !one_of_them {
        return Err(no_such_player());
    }
    let score = if a == b {
        Score::default()
    } else {
        hub.store.score_of(&a, Some(&b)).await?
    };
    // One of the two, against a pupil it may not see: only if they played
    // (else the answer would tell that the pupil's name is an account).
    if !both_seen && score.wins + score.draws + score.losses == 0 {
        return Err(no_such_player());
    }
    let games = if a == b {
        Vec::new()
    } else {
        hub.store
            .finished_games_between(&a, &b, HEAD_TO_HEAD_GAMES)
            .await?
    };
    let openings = crate::openings::of_rows(&hub.store, &games).await?;
    Ok(Json(wire::HeadToHead {
        name: p.name,
        opponent: q.name,
        score: score_json(score),
        games: games.iter().map(|g| game_json(g, &a, &openings)).collect(),
    })
    .into_response())
}
