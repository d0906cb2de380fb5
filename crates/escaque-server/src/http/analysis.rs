//! Analysis of games (issue 27): requests on a bounded queue, their progress
//! and results, the annotated PGN, "Aprende de tus errores" and the
//! analysis board's lines. The protocol is docs/protocol.md, "Analysis".
//!
//! Who may see what: the analysis of a server's game is asked for and seen
//! by whoever may see the game — anybody with its link, except a class's
//! game (`games.class_id`), which only its players and its class's teachers
//! and pupils may see (anybody else is told there is no such game). The
//! analysis of an uploaded PGN is seen by whoever has its link.

use std::sync::Arc;

use axum::extract::rejection::{PathRejection, QueryRejection};
use axum::extract::{ConnectInfo, FromRequestParts, Path, Query, State};
use axum::http::request::Parts;
use axum::http::{header, StatusCode};
use axum::response::IntoResponse;
use axum::routing::{get, post};
use axum::{Json, Router};
use escaque::coord::to_uci_in;
use escaque::pgn::{Node, PgnGame, PgnStyle};
use escaque::pgn::{PgnReader, VariantKind};
use escaque::{CastlingMode, CastlingStyle, GameResult, Lang, Localized, Move, Position};
use escaque_analysis::judge::{self, Eval};
use escaque_analysis::openings::{classify, SEARCH_MAX_PLIES};
use escaque_analysis::{GameAnalysis, Progress};
use serde::Deserialize;
use serde_json::Value;

use super::games::LangQuery;
use super::{ApiError, ApiResult, AppJson, Identity, Limited};
use crate::analysis::{replay, Refusal};
use crate::classes::{self, Role};
use crate::proto::analysis as wire;
use crate::store::analysis::AnalysisRow;
use crate::store::GameRow;
use crate::Hub;

/// The most requests (a game, or an upload) an asker may have queued or
/// running at once.
pub const MAX_UNFINISHED: i64 = 2;
/// The largest PGN text accepted for analysis, bytes.
pub const MAX_PGN_BYTES: usize = 512 * 1024;
/// The most games in one upload.
pub const MAX_PGN_GAMES: usize = 20;
/// The most moves the analysis board replays.
pub const MAX_BOARD_MOVES: usize = 1000;
/// The most lines the analysis board shows.
pub const MAX_LINES: usize = 5;

/// The analysis routes.
pub fn routes() -> Router<Arc<Hub>> {
    Router::new()
        .route(
            "/api/games/{id}/analysis",
            get(game_analysis).post(request_game),
        )
        .route("/api/analysis", post(upload))
        .route("/api/analysis/position", post(position))
        .route("/api/analysis/{aid}", get(view))
        .route("/api/analysis/{aid}/pgn", get(annotated_pgn))
        .route("/api/analysis/{aid}/try", post(try_move))
}

// ---------------------------------------------------------------- refusals

fn no_game() -> ApiError {
    Refusal::NoGame.into()
}

fn no_analysis() -> ApiError {
    Refusal::NoAnalysis.into()
}

fn busy() -> ApiError {
    Refusal::Busy {
        max: MAX_UNFINISHED,
    }
    .into()
}

fn not_done() -> ApiError {
    Refusal::NotDone.into()
}

fn unprocessable(code: &'static str, es: String, en: String) -> ApiError {
    Refusal::unreadable(code, es, en).into()
}

// ---------------------------------------------------------------- visibility

/// Whether `me` may see game `row` (see the module documentation).
async fn may_see(hub: &Hub, me: &Identity, row: &GameRow) -> Result<bool, ApiError> {
    let Some(class_id) = &row.class_id else {
        return Ok(true);
    };
    let key = Some(me.key.as_str());
    if row.white_owner.as_deref() == key || row.black_owner.as_deref() == key {
        return Ok(true);
    }
    Ok(classes::role(&hub.store, me, class_id).await? != Role::Outsider)
}

/// The game `id` if it exists and `me` may see it, else `404 not_found`.
async fn visible_game(hub: &Hub, me: &Identity, id: &str) -> Result<GameRow, ApiError> {
    let row = hub.store.game(id).await?.ok_or_else(no_game)?;
    if may_see(hub, me, &row).await? {
        Ok(row)
    } else {
        Err(no_game())
    }
}

/// The analysis `aid` if it exists and `me` may see it (the game's rule
/// for a server's game), else `404 no_analysis`.
async fn visible_analysis(hub: &Hub, me: &Identity, aid: &str) -> Result<AnalysisRow, ApiError> {
    let row = hub.store.analysis(aid).await?.ok_or_else(no_analysis)?;
    if let Some(game) = &row.game_id {
        if let Some(g) = hub.store.game(game).await? {
            if !may_see(hub, me, &g).await? {
                return Err(no_analysis());
            }
        }
    }
    Ok(row)
}

// ---------------------------------------------------------------- the view

/// The opening of a game, as every route writes it (`null` when unknown).
/// (Chess960 games and games from another start have none: the board's
/// start is checked by `classify`.)
fn opening_of(start: &Position, moves: &[Move]) -> Option<escaque_analysis::Opening> {
    let n = moves.len().min(SEARCH_MAX_PLIES);
    classify(start, &moves[..n])
}

/// The view of an analysis (docs/protocol.md, "Analysis").
async fn view_json(hub: &Hub, row: &AnalysisRow) -> Result<wire::AnalysisView, ApiError> {
    let total = row.moves.len() + 1;
    let (queue, progress) = match row.status.as_str() {
        "queued" => (
            hub.store.analyses_ahead(row).await?,
            Progress { done: 0, total },
        ),
        "running" => (
            0,
            hub.analysis
                .queue()
                .progress(&row.id)
                // Running in another process: as it last stored it.
                .unwrap_or(Progress {
                    done: (row.progress.max(0) as usize).min(total),
                    total,
                }),
        ),
        "done" => (0, Progress { done: total, total }),
        _ => (0, Progress { done: 0, total }),
    };
    let analysis: Value = match &row.analysis {
        Some(text) => serde_json::from_str(text).unwrap_or_else(|e| {
            crate::store::log_unreadable(&format!("analysis {}", row.id), "analyses.analysis", e);
            Value::Null
        }),
        None => Value::Null,
    };
    let opening = crate::openings::of_moves(
        &row.start_fen,
        row.chess960,
        row.moves.iter().map(String::as_str),
    );
    Ok(wire::AnalysisView {
        id: row.id.clone(),
        status: row.status.clone(),
        queue,
        progress: wire::ProgressView {
            done: progress.done,
            total: progress.total,
        },
        game: row.game_id.clone(),
        white: row.white.clone(),
        black: row.black.clone(),
        result: row.result.clone(),
        start_fen: row.start_fen.clone(),
        chess960: row.chess960,
        opening,
        engine: row
            .engine
            .as_deref()
            .unwrap_or(hub.analysis.engine_name())
            .to_string(),
        error: row.error.clone(),
        analysis,
    })
}

/// What a request is answered with: the analysis, its status, its place.
async fn queued_json(hub: &Hub, row: &AnalysisRow) -> Result<wire::Queued, ApiError> {
    let queue = if row.status == "queued" {
        hub.store.analyses_ahead(row).await?
    } else {
        0
    };
    Ok(wire::Queued {
        analysis: row.id.clone(),
        status: row.status.clone(),
        queue,
    })
}

/// Refuses when `me` has [`MAX_UNFINISHED`] requests unfinished.
async fn check_busy(hub: &Hub, me: &Identity) -> Result<(), ApiError> {
    if hub.store.unfinished_analysis_requests(&me.key).await? >= MAX_UNFINISHED {
        Err(busy())
    } else {
        Ok(())
    }
}

/// The asking address (for the board's rate limit); unspecified when the
/// server was not started with addresses.
struct Addr(std::net::IpAddr);

impl<S: Send + Sync> FromRequestParts<S> for Addr {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Addr, ApiError> {
        Ok(Addr(
            parts
                .extensions
                .get::<ConnectInfo<std::net::SocketAddr>>()
                .map(|ConnectInfo(a)| a.ip())
                .unwrap_or(std::net::IpAddr::V4(std::net::Ipv4Addr::UNSPECIFIED)),
        ))
    }
}

fn path_id(p: Result<Path<String>, PathRejection>) -> Result<String, ApiError> {
    let Path(id) = p?;
    Ok(id)
}

// ---------------------------------------------------------------- routes

/// `POST /api/games/{id}/analysis`.
async fn request_game(
    State(hub): State<Arc<Hub>>,
    _: Limited,
    me: Identity,
    id: Result<Path<String>, PathRejection>,
) -> ApiResult {
    let id = path_id(id)?;
    let game = visible_game(&hub, &me, &id).await?;
    let _admit = hub.analysis.admit.lock().await;
    if let Some(row) = hub.store.analysis_of_game(&id).await? {
        if row.status != "failed" {
            return Ok(Json(queued_json(&hub, &row).await?).into_response());
        }
        // A failed analysis asked for again is queued again.
        check_busy(&hub, &me).await?;
        hub.store.requeue_analysis(&row.id).await?;
        hub.analysis.wake();
        let row = hub.store.analysis(&row.id).await?.ok_or_else(no_analysis)?;
        return Ok((StatusCode::ACCEPTED, Json(queued_json(&hub, &row).await?)).into_response());
    }
    if game.status != "over" {
        return Err(Refusal::GameNotOver.into());
    }
    check_busy(&hub, &me).await?;
    let moves: Vec<String> = hub
        .store
        .moves(&id)
        .await?
        .into_iter()
        .map(|m| m.uci)
        .collect();
    let aid = crate::new_id();
    let g = GameToAnalyse {
        game_id: Some(id),
        white: game.white_name.clone(),
        black: game.black_name.clone(),
        result: game.end.map_or("*", |e| e.result_pgn()).to_string(),
        start_fen: game.start_fen.clone(),
        chess960: game.chess960,
        moves,
    };
    let row = g.queued(
        aid.clone(),
        &me.key,
        &aid,
        0,
        crate::store::analysis::queue_stamp(),
    );
    let stored = hub
        .analysis
        .queue()
        .enqueue(std::slice::from_ref(&row))
        .await?;
    let stored = stored.into_iter().next().ok_or_else(ApiError::internal)?;
    hub.analysis.wake();
    let status = if stored.id == aid {
        StatusCode::ACCEPTED
    } else {
        StatusCode::OK
    };
    Ok((status, Json(queued_json(&hub, &stored).await?)).into_response())
}

/// `GET /api/games/{id}/analysis`.
async fn game_analysis(
    State(hub): State<Arc<Hub>>,
    me: Identity,
    id: Result<Path<String>, PathRejection>,
) -> ApiResult {
    let id = path_id(id)?;
    visible_game(&hub, &me, &id).await?;
    let row = hub
        .store
        .analysis_of_game(&id)
        .await?
        .ok_or_else(no_analysis)?;
    Ok(Json(view_json(&hub, &row).await?).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Upload {
    pgn: String,
}

/// `POST /api/analysis`: the games of a PGN text.
async fn upload(
    State(hub): State<Arc<Hub>>,
    _: Limited,
    me: Identity,
    body: AppJson<Upload>,
) -> ApiResult {
    let req = body.read()?;
    if req.pgn.len() > MAX_PGN_BYTES {
        return Err(Refusal::TooLarge {
            max_kib: MAX_PGN_BYTES / 1024,
        }
        .into());
    }
    let games = read_games(&req.pgn)?;
    let _admit = hub.analysis.admit.lock().await;
    check_busy(&hub, &me).await?;
    let now = crate::store::analysis::queue_stamp();
    let batch = crate::new_id();
    let rows: Vec<AnalysisRow> = games
        .into_iter()
        .enumerate()
        .map(|(i, g)| g.queued(crate::new_id(), &me.key, &batch, i as i64, now))
        .collect();
    let stored = hub.analysis.queue().enqueue(&rows).await?;
    hub.analysis.wake();
    let analyses: Vec<wire::Uploaded> = stored
        .iter()
        .map(|r| wire::Uploaded {
            analysis: r.id.clone(),
            white: r.white.clone(),
            black: r.black.clone(),
            status: r.status.clone(),
        })
        .collect();
    Ok((StatusCode::ACCEPTED, Json(wire::UploadedList { analyses })).into_response())
}

/// One game to analyse (the server's own or one of an upload), ready to
/// queue.
struct GameToAnalyse {
    /// The server's game, if it is one.
    game_id: Option<String>,
    white: String,
    black: String,
    result: String,
    start_fen: String,
    chess960: bool,
    moves: Vec<String>,
}

impl GameToAnalyse {
    /// Its analysis row `id`, queued by `owner` at `now`: the `seq`-th of
    /// `batch`.
    fn queued(self, id: String, owner: &str, batch: &str, seq: i64, now: i64) -> AnalysisRow {
        AnalysisRow {
            id,
            game_id: self.game_id,
            owner: owner.to_string(),
            batch: batch.to_string(),
            seq,
            white: self.white,
            black: self.black,
            result: self.result,
            start_fen: self.start_fen,
            chess960: self.chess960,
            moves: self.moves,
            status: "queued".into(),
            engine: None,
            error: None,
            analysis: None,
            created_ms: now,
            updated_ms: now,
            node: None,
            progress: 0,
        }
    }
}

/// Reads every game of `text`: the first that fails refuses the whole
/// upload, saying where.
fn read_games(text: &str) -> Result<Vec<GameToAnalyse>, ApiError> {
    let mut reader = PgnReader::new(text.as_bytes());
    let mut out = Vec::new();
    while let Some(next) = reader.next_game() {
        let g = next
            .map_err(|e| unprocessable("pgn_invalid", e.message(Lang::Es), e.message(Lang::En)))?;
        if out.len() == MAX_PGN_GAMES {
            return Err(unprocessable(
                "too_many_games",
                format!("el PGN tiene más de {MAX_PGN_GAMES} partidas; envía como mucho {MAX_PGN_GAMES} a la vez"),
                format!("the PGN has more than {MAX_PGN_GAMES} games; send at most {MAX_PGN_GAMES} at once"),
            ));
        }
        let chess960 = g
            .tag("Variant")
            .is_some_and(|v| escaque::pgn::variant_kind(v) == VariantKind::Chess960);
        let mut pos = g.start;
        let mut moves = Vec::new();
        for m in g.mainline() {
            moves.push(to_uci_in(&pos, m, chess960));
            pos.play_unchecked(m);
        }
        let tag = |name: &str| {
            g.tag(name)
                .filter(|v| !v.trim().is_empty())
                .unwrap_or("?")
                .to_string()
        };
        out.push(GameToAnalyse {
            game_id: None,
            white: tag("White"),
            black: tag("Black"),
            result: g.result_text().to_string(),
            start_fen: if chess960 {
                g.start.to_fen_with(CastlingStyle::Shredder)
            } else {
                g.start.to_fen()
            },
            chess960,
            moves,
        });
    }
    if out.is_empty() {
        return Err(unprocessable(
            "pgn_invalid",
            "el texto no tiene ninguna partida en PGN".into(),
            "the text holds no PGN game".into(),
        ));
    }
    Ok(out)
}

/// `GET /api/analysis/{aid}`.
async fn view(
    State(hub): State<Arc<Hub>>,
    me: Identity,
    aid: Result<Path<String>, PathRejection>,
) -> ApiResult {
    let aid = path_id(aid)?;
    let row = visible_analysis(&hub, &me, &aid).await?;
    Ok(Json(view_json(&hub, &row).await?).into_response())
}

/// A finished analysis, read back.
fn done_analysis(row: &AnalysisRow) -> Result<GameAnalysis, ApiError> {
    if row.status != "done" {
        return Err(not_done());
    }
    let text = row.analysis.as_deref().unwrap_or("");
    serde_json::from_str(text).map_err(|e| {
        crate::store::log_unreadable(&format!("analysis {}", row.id), "analyses.analysis", e);
        ApiError::internal()
    })
}

/// `GET /api/analysis/{aid}/pgn?lang=es|en`.
async fn annotated_pgn(
    State(hub): State<Arc<Hub>>,
    me: Identity,
    aid: Result<Path<String>, PathRejection>,
    q: Result<Query<LangQuery>, QueryRejection>,
) -> ApiResult {
    let aid = path_id(aid)?;
    let Query(q) = q?;
    let lang = q.lang();
    let row = visible_analysis(&hub, &me, &aid).await?;
    let analysis = done_analysis(&row)?;
    let (start, moves) =
        replay(&row.start_fen, row.chess960, &row.moves).map_err(|_| ApiError::internal())?;
    let mut game = PgnGame {
        start,
        moves: moves.iter().map(|m| Node::new(*m)).collect(),
        result: Some(GameResult::from_pgn(&row.result)),
        ..PgnGame::default()
    };
    for (name, value) in [
        ("Event", "escaque"),
        ("Site", row.game_id.as_deref().unwrap_or("?")),
        ("White", &row.white),
        ("Black", &row.black),
        ("Result", &row.result),
        ("Annotator", &analysis.engine),
    ] {
        game.set_tag(name, value);
    }
    if row.chess960 {
        game.set_tag("Variant", "Chess960");
    }
    if start != Position::new() || row.chess960 {
        game.set_tag("SetUp", "1");
        game.set_tag("FEN", &row.start_fen);
    }
    escaque_analysis::annotate::annotate(&mut game, &analysis, lang);
    let text = escaque::pgn::write_game_string(&game, PgnStyle::export());
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "text/plain; charset=utf-8".to_string(),
            ),
            (
                header::CONTENT_DISPOSITION,
                format!(
                    "attachment; filename=\"analisis-{}-{}.pgn\"",
                    row.id,
                    lang.pick("es", "en")
                ),
            ),
        ],
        text,
    )
        .into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Try {
    ply: usize,
    uci: String,
}

/// `POST /api/analysis/{aid}/try`: "Aprende de tus errores".
async fn try_move(
    State(hub): State<Arc<Hub>>,
    Addr(addr): Addr,
    me: Identity,
    aid: Result<Path<String>, PathRejection>,
    body: AppJson<Try>,
) -> ApiResult {
    let aid = path_id(aid)?;
    let req = body.read()?;
    let row = visible_analysis(&hub, &me, &aid).await?;
    let analysis = done_analysis(&row)?;
    let Some(ply) = analysis.plies.get(req.ply) else {
        return Err(unprocessable(
            "bad_ply",
            format!(
                "no hay jugada {} (la partida tiene {})",
                req.ply,
                analysis.plies.len()
            ),
            format!(
                "there is no ply {} (the game has {})",
                req.ply,
                analysis.plies.len()
            ),
        ));
    };
    let (start, moves) =
        replay(&row.start_fen, row.chess960, &row.moves).map_err(|_| ApiError::internal())?;
    let mut before = start;
    let mut history = Vec::with_capacity(req.ply + 1);
    for m in moves.iter().take(req.ply) {
        history.push(before.zobrist());
        before.play_unchecked(*m);
    }
    let tried = read_uci(&before, &req.uci, req.ply)?;
    let tried_uci = to_uci_in(&before, tried, row.chess960);
    let san = escaque::san::san(&before, tried, Lang::En);
    let san_es = escaque::san::san(&before, tried, Lang::Es);
    let best = ply.best.clone().unwrap_or_else(|| ply.uci.clone());
    let (best_san, best_san_es) = match (&ply.best_san, &ply.best_san_es) {
        (Some(a), Some(b)) => (a.clone(), b.clone()),
        _ => (ply.san.clone(), ply.san_es.clone()),
    };
    let best_move = crate::proto::read_move(&before, &best).ok();
    let verdict = if Some(tried) == best_move || tried_uci == best {
        "best"
    } else {
        // The evaluation of the best move is the position's before the
        // ply; the try's is the game's when it is the move played, the
        // engine's otherwise.
        let best_eval = if req.ply == 0 {
            analysis.start_eval
        } else {
            analysis.plies[req.ply - 1].eval
        };
        let after = if tried_uci == ply.uci {
            ply.eval
        } else {
            let mut next = before;
            next.play_unchecked(tried);
            eval_position(&hub, addr, next, history.clone(), &before).await?
        };
        match best_eval {
            Some(b) if judge::judge(b, after, before.turn()).is_some() => "not_yet",
            _ => "good",
        }
    };
    Ok(Json(wire::TryVerdict {
        verdict,
        san,
        san_es,
        best_san,
        best_san_es,
    })
    .into_response())
}

/// A move given in UCI (or any notation the library reads) legal in `pos`,
/// or `422 illegal_move`.
fn read_uci(pos: &Position, text: &str, index: usize) -> Result<Move, ApiError> {
    crate::proto::read_move(pos, text).map_err(|e| {
        unprocessable(
            "illegal_move",
            format!("jugada {} «{text}»: {}", index + 1, e.text(Lang::Es)),
            format!("move {} \"{text}\": {}", index + 1, e.text(Lang::En)),
        )
    })
}

/// The evaluation of `pos` (reached from `before`), White's view: `None`
/// when the side to move is mated, `Cp(0)` when it is stalemated; else the
/// engine's (one search of the board, rate-limited per address).
async fn eval_position(
    hub: &Hub,
    addr: std::net::IpAddr,
    pos: Position,
    mut history: Vec<u64>,
    before: &Position,
) -> Result<Option<Eval>, ApiError> {
    if pos.is_checkmate() {
        return Ok(None);
    }
    if pos.legal_moves().is_empty() || pos.is_insufficient_material() {
        return Ok(Some(Eval::Cp(0)));
    }
    if !hub.analysis_limit.take(addr) {
        return Err(ApiError::limited());
    }
    history.push(before.zobrist());
    let lines = hub
        .analysis
        .lines(pos, history, 1)
        .await
        .map_err(engine_error)?;
    Ok(lines.first().map(|l| l.eval))
}

fn engine_error(e: escaque_analysis::AnalysisError) -> ApiError {
    eprintln!("escaque-server: analysis board: {e}");
    Refusal::EngineUnavailable.into()
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Board {
    #[serde(default)]
    fen: Option<String>,
    #[serde(default)]
    moves: Vec<String>,
    #[serde(default = "one")]
    lines: usize,
    #[serde(default)]
    chess960: bool,
}

fn one() -> usize {
    1
}

/// `POST /api/analysis/position`: the analysis board.
async fn position(
    State(hub): State<Arc<Hub>>,
    Addr(addr): Addr,
    body: AppJson<Board>,
) -> ApiResult {
    let req = body.read()?;
    if req.lines > MAX_LINES {
        return Err(ApiError::bad(
            "malformed",
            format!("«lines» va de 0 a {MAX_LINES}"),
            format!("\"lines\" goes from 0 to {MAX_LINES}"),
        ));
    }
    if req.moves.len() > MAX_BOARD_MOVES {
        return Err(unprocessable(
            "illegal_move",
            format!("demasiadas jugadas (como mucho {MAX_BOARD_MOVES})"),
            format!("too many moves (at most {MAX_BOARD_MOVES})"),
        ));
    }
    let mode = if req.chess960 {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    let start = match &req.fen {
        None => Position::new(),
        Some(f) => Position::from_fen_with(f.trim(), mode)
            .map_err(|e| unprocessable("fen_invalid", e.message(Lang::Es), e.message(Lang::En)))?,
    };
    let mut game = escaque::Game::from_position(start).with_chess960(req.chess960);
    let mut history = Vec::with_capacity(req.moves.len());
    let mut played = Vec::with_capacity(req.moves.len());
    let mut last = None;
    for (i, text) in req.moves.iter().enumerate() {
        let pos = *game.position();
        if game.outcome().is_some() {
            return Err(unprocessable(
                "illegal_move",
                format!("jugada {} «{text}»: la partida ya terminó", i + 1),
                format!("move {} \"{text}\": the game is already over", i + 1),
            ));
        }
        let m = read_uci(&pos, text, i)?;
        history.push(pos.zobrist());
        last = Some(wire::LastMove {
            uci: to_uci_in(&pos, m, req.chess960),
            san: escaque::san::san(&pos, m, Lang::En),
            san_es: escaque::san::san(&pos, m, Lang::Es),
        });
        game.play(m).map_err(|e| {
            unprocessable(
                "illegal_move",
                format!("jugada {} «{text}»: {}", i + 1, e.message(Lang::Es)),
                format!("move {} \"{text}\": {}", i + 1, e.message(Lang::En)),
            )
        })?;
        played.push(m);
    }
    let pos = *game.position();
    let over = game.termination().map(|t| t.id());
    let mut legal: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    if over.is_none() {
        for m in pos.legal_moves() {
            let uci = to_uci_in(&pos, m, req.chess960);
            let (from, to) = (uci[0..2].to_string(), uci[2..4].to_string());
            let list = legal.entry(from).or_default();
            if !list.contains(&to) {
                list.push(to);
            }
        }
    }
    let lines = if req.lines > 0 && over.is_none() {
        if !hub.analysis_limit.take(addr) {
            return Err(ApiError::limited());
        }
        let found = hub
            .analysis
            .lines(pos, history, req.lines)
            .await
            .map_err(engine_error)?;
        escaque_analysis::analyse::view_lines(&pos, &found)
    } else {
        Vec::new()
    };
    let fen = if req.chess960 {
        pos.to_fen_with(CastlingStyle::Shredder)
    } else {
        pos.to_fen()
    };
    Ok(Json(wire::BoardView {
        fen,
        turn: pos.turn().fold("white", "black"),
        legal,
        last,
        over,
        lines,
        opening: if req.chess960 {
            None
        } else {
            opening_of(&start, &played)
        },
    })
    .into_response())
}
