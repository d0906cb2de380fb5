//! Team tournaments on the server (issue 59, teams): the routes over
//! [`crate::equipos`]. Every refusal is in docs/protocol.md, "Team
//! tournaments".
//!
//! * `POST /api/equipos`, `GET /api/equipos/{id}`: create, the view
//!   (teams, rounds with their boards, standings with the team
//!   tie-breaks).
//! * `POST /api/equipos/{id}/equipos|alineacion|emparejar|resultado|incomparecencia|prohibidos`:
//!   the organiser's desk.
//! * `GET /api/equipos/{id}/rondas/{round}/codigos`, `GET /api/equipos/{id}/registro`
//!   (organisers): the round's match codes, the log.
//! * `GET|POST /api/equipos/codigo/{code}`: a match as its code opens it,
//!   a phone's entry.
//! * Printouts in Spanish: `GET /api/equipos/{id}/rondas/{round}/emparejamientos.pdf`
//!   (organiser: by match and board, each match's QR code),
//!   `GET /api/equipos/{id}/clasificacion.pdf` (standings and crosstable by
//!   teams), `GET /api/equipos/{id}/tableros.pdf` (board by board), and the
//!   round's sheet as a page, `GET /equipos/{id}/rondas/{round}` (organiser).

use std::fmt::Write as _;
use std::sync::Arc;

use axum::extract::rejection::PathRejection;
use axum::extract::{FromRequestParts, Path, State};
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use escaque_torneo::html::escape;
use escaque_torneo::pdf::{self, MatchQr};

use super::class_cards::{origin, qr_of, qr_svg};
use super::{ApiError, ApiResult, AppJson, Identity, Limited};
use crate::equipos as domain;
use crate::proto::common::DONE;
use crate::proto::equipos as wire;
use crate::Hub;

/// This file's routes (merged into [`super::router`]).
pub(super) fn routes() -> Router<Arc<Hub>> {
    Router::new()
        .route("/api/equipos", post(create))
        .route("/api/equipos/{id}", get(view))
        .route("/api/equipos/{id}/equipos", post(add_team))
        .route("/api/equipos/{id}/alineacion", post(lineup))
        .route("/api/equipos/{id}/emparejar", post(pair))
        .route("/api/equipos/{id}/resultado", post(result))
        .route("/api/equipos/{id}/incomparecencia", post(forfeit))
        .route("/api/equipos/{id}/prohibidos", post(forbid))
        .route("/api/equipos/{id}/descansos", post(request_bye))
        .route("/api/equipos/{id}/rondas/{round}/codigos", get(codes))
        .route("/api/equipos/{id}/registro", get(log))
        .route(
            "/api/equipos/codigo/{code}",
            get(phone_open).post(phone_enter),
        )
        .route(
            "/api/equipos/{id}/rondas/{round}/emparejamientos.pdf",
            get(pairings_pdf),
        )
        .route("/api/equipos/{id}/clasificacion.pdf", get(standings_pdf))
        .route("/api/equipos/{id}/tableros.pdf", get(boards_pdf))
        .route("/equipos/{id}/rondas/{round}", get(round_page))
        .route("/equipos/resultado/{code}", get(phone_page))
        .route("/equipos_resultado.js", get(phone_script))
}

fn ok() -> ApiResult {
    Ok(Json(DONE).into_response())
}

/// The one `{id}` (or `{code}`) of a route's path: the handlers' common
/// prologue (`Result<Path<String>, PathRejection>` and `let Path(id) = p?`)
/// as an extractor; a path that does not read is refused as every route
/// refuses one.
pub(super) struct Id(pub(super) String);

impl<S: Send + Sync> FromRequestParts<S> for Id {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Id, ApiError> {
        let Path(id) = Path::<String>::from_request_parts(parts, state).await?;
        Ok(Id(id))
    }
}

async fn create(
    State(hub): State<Arc<Hub>>,
    _: Limited,
    me: Identity,
    body: AppJson<wire::NewTeamTournament>,
) -> ApiResult {
    if me.managed {
        return Err(crate::classes::kid_mode());
    }
    let req = body.read()?;
    let created = domain::create(&hub, &me, &req).await?;
    Ok((StatusCode::CREATED, Json(created)).into_response())
}

async fn view(State(hub): State<Arc<Hub>>, me: Identity, Id(id): Id) -> ApiResult {
    let l = domain::load(&hub, &id).await?;
    Ok(Json(domain::view(&l, Some(&me))).into_response())
}

async fn add_team(
    State(hub): State<Arc<Hub>>,
    me: Identity,
    Id(id): Id,
    body: AppJson<wire::NewTeam>,
) -> ApiResult {
    Ok(Json(domain::add_team(&hub, &id, &me, &body.read()?).await?).into_response())
}

async fn lineup(
    State(hub): State<Arc<Hub>>,
    me: Identity,
    Id(id): Id,
    body: AppJson<wire::Lineup>,
) -> ApiResult {
    domain::set_lineup(&hub, &id, &me, &body.read()?).await?;
    ok()
}

async fn pair(State(hub): State<Arc<Hub>>, me: Identity, Id(id): Id) -> ApiResult {
    Ok(Json(domain::pair(&hub, &id, &me).await?).into_response())
}

async fn result(
    State(hub): State<Arc<Hub>>,
    me: Identity,
    Id(id): Id,
    body: AppJson<wire::BoardResultBody>,
) -> ApiResult {
    domain::arbiter_result(&hub, &id, &me, &body.read()?).await?;
    ok()
}

async fn forfeit(
    State(hub): State<Arc<Hub>>,
    me: Identity,
    Id(id): Id,
    body: AppJson<wire::MatchForfeit>,
) -> ApiResult {
    domain::forfeit(&hub, &id, &me, &body.read()?).await?;
    ok()
}

async fn forbid(
    State(hub): State<Arc<Hub>>,
    me: Identity,
    Id(id): Id,
    body: AppJson<wire::ForbiddenPairing>,
) -> ApiResult {
    domain::forbid(&hub, &id, &me, &body.read()?).await?;
    ok()
}

async fn request_bye(
    State(hub): State<Arc<Hub>>,
    me: Identity,
    Id(id): Id,
    body: AppJson<wire::TeamByeRequest>,
) -> ApiResult {
    domain::request_bye(&hub, &id, &me, &body.read()?).await?;
    ok()
}

async fn codes(
    State(hub): State<Arc<Hub>>,
    me: Identity,
    headers: HeaderMap,
    p: Result<Path<(String, u32)>, PathRejection>,
) -> ApiResult {
    let Path((id, round)) = p?;
    let origin = origin(&headers)?;
    let (_, codes) = domain::codes(&hub, &id, &me, round, &origin).await?;
    Ok(Json(codes).into_response())
}

async fn log(State(hub): State<Arc<Hub>>, me: Identity, Id(id): Id) -> ApiResult {
    Ok(Json(domain::log_of(&hub, &id, &me).await?).into_response())
}

async fn phone_open(State(hub): State<Arc<Hub>>, Id(code): Id) -> ApiResult {
    let (l, round, table) = domain::open(&hub, &code).await?;
    Ok(Json(domain::phone_view(&l, round, table)?).into_response())
}

async fn phone_enter(
    State(hub): State<Arc<Hub>>,
    Id(code): Id,
    body: AppJson<wire::PhoneEntry>,
) -> ApiResult {
    Ok(Json(domain::phone_enter(&hub, &code, &body.read()?).await?).into_response())
}

// ---------------------------------------------------------------- printouts

fn pdf_reply(bytes: Vec<u8>, name: &str) -> ApiResult {
    Ok((
        [
            (header::CONTENT_TYPE, "application/pdf".to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("inline; filename=\"{name}\""),
            ),
            (header::CACHE_CONTROL, "no-store".to_string()),
        ],
        bytes,
    )
        .into_response())
}

/// The match codes of a round as the PDF draws them.
async fn match_qrs(
    hub: &Arc<Hub>,
    id: &str,
    me: &Identity,
    round: u32,
    origin: &str,
) -> Result<(domain::Loaded, Vec<MatchQr>), ApiError> {
    let (l, codes) = domain::codes(hub, id, me, round, origin).await?;
    let qrs = codes
        .matches
        .into_iter()
        .map(|c| {
            Ok(MatchQr {
                table: c.table,
                qr: qr_of(&c.link)?,
                link: c.link,
            })
        })
        .collect::<Result<Vec<_>, ApiError>>()?;
    Ok((l, qrs))
}

/// `GET /api/equipos/{id}/rondas/{round}/emparejamientos.pdf` (organiser):
/// the round's pairing sheet, match by match and board by board, each
/// match with its QR code.
async fn pairings_pdf(
    State(hub): State<Arc<Hub>>,
    me: Identity,
    headers: HeaderMap,
    p: Result<Path<(String, u32)>, PathRejection>,
) -> ApiResult {
    let Path((id, round)) = p?;
    let origin = origin(&headers)?;
    let (l, qrs) = match_qrs(&hub, &id, &me, round, &origin).await?;
    pdf_reply(
        pdf::team_pairings(&l.t, round, &qrs),
        &format!("emparejamientos-ronda-{round}.pdf"),
    )
}

/// `GET /api/equipos/{id}/clasificacion.pdf`: standings and crosstable.
async fn standings_pdf(State(hub): State<Arc<Hub>>, Id(id): Id) -> ApiResult {
    let l = domain::load(&hub, &id).await?;
    pdf_reply(pdf::team_standings(&l.t), "clasificacion-equipos.pdf")
}

/// `GET /api/equipos/{id}/tableros.pdf`: the board-by-board results.
async fn boards_pdf(State(hub): State<Arc<Hub>>, Id(id): Id) -> ApiResult {
    let l = domain::load(&hub, &id).await?;
    pdf_reply(pdf::team_boards(&l.t), "resultados-por-tablero.pdf")
}

const STYLE: &str = "\
*{box-sizing:border-box}\
body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;margin:0;padding:1rem;color:#111;background:#fff}\
main{max-width:60rem;margin:0 auto}\
h1{font-size:1.4rem;margin:.2rem 0}\
h2{font-size:1.1rem;margin:1.2rem 0 .3rem}\
table{border-collapse:collapse;width:100%;margin:.3rem 0}\
th,td{border:1px solid #888;padding:.2rem .4rem;text-align:left;font-size:.9rem}\
th{background:#eee}\
.match{display:grid;grid-template-columns:1fr 8rem;gap:.6rem;align-items:start;break-inside:avoid;page-break-inside:avoid;border-top:2px solid #333;padding-top:.4rem}\
.qr{width:8rem;height:8rem}\
.state-conflict{background:#fdd}.state-missing,.state-entered{background:#ffd}\
.hint{color:#555;font-size:.75rem;overflow-wrap:anywhere}\
@media (max-width:40rem){.match{grid-template-columns:1fr}.qr{width:7rem;height:7rem}}\
@media print{body{padding:0}a{color:#000;text-decoration:none}}";

fn html_page(status: StatusCode, title: &str, body: &str) -> Response {
    let html = format!(
        "<!doctype html>\n<html lang=\"es\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{title}</title><style>{STYLE}</style></head><body>{body}</body></html>\n",
        title = escape(title),
    );
    (
        status,
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-store"),
            (
                header::CONTENT_SECURITY_POLICY,
                "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
            ),
            (header::REFERRER_POLICY, "no-referrer"),
        ],
        html,
    )
        .into_response()
}

fn html_error(e: &ApiError) -> Response {
    html_page(
        e.status(),
        "Error",
        &format!(
            "<main><h1>Error</h1><p id=\"error\" data-code=\"{}\">{}</p></main>",
            e.code(),
            escape(&e.2)
        ),
    )
}

fn state_es(s: &str) -> &'static str {
    match s {
        "missing" => "Sin resultado",
        "entered" => "Sin confirmar",
        "conflict" => "En conflicto",
        "confirmed" => "Confirmado",
        "arbiter" => "Árbitro",
        "played" => "Jugada en línea",
        _ => "Incomparecencia",
    }
}

/// `GET /equipos/{id}/rondas/{round}` (organiser): the round's sheet in
/// Spanish — each match with its boards (White first), their results and
/// states (conflicts and missing results marked), and the match's QR code
/// linking to its result form; links to the PDFs. When the tournament is
/// played online, each board links to its server game (`a.partida`) and
/// the page to `/equipos/{id}/partidas`.
async fn round_page(
    State(hub): State<Arc<Hub>>,
    me: Identity,
    headers: HeaderMap,
    p: Result<Path<(String, u32)>, PathRejection>,
) -> Response {
    let Ok(Path((id, round))) = p else {
        return html_error(&ApiError::no_route());
    };
    let origin = match origin(&headers) {
        Ok(o) => o,
        Err(e) => return html_error(&e),
    };
    let (l, codes) = match domain::codes(&hub, &id, &me, round, &origin).await {
        Ok(x) => x,
        Err(e) => return html_error(&e),
    };
    let attention = domain::round_attention(&l, round);
    // An online tournament: each board's server game, by (table, board).
    let online = match domain::online::is_online(&hub, &id).await {
        Ok(true) => match domain::online::games(&hub, &id).await {
            Ok((_, all)) => Some(
                all.games
                    .into_iter()
                    .filter(|g| g.round == round)
                    .map(|g| ((g.table, g.board), g.game))
                    .collect::<std::collections::HashMap<_, _>>(),
            ),
            Err(e) => return html_error(&e),
        },
        Ok(false) => None,
        Err(e) => return html_error(&e),
    };
    let mut body = String::new();
    let _ = write!(
        body,
        "<main id=\"ronda\" data-tournament=\"{id}\" data-round=\"{round}\"><h1>{name}</h1>\
         <p>Ronda {round} · emparejamientos por encuentro y tablero</p>\
         <p id=\"pendientes\">Tableros por mirar: <strong>{n}</strong> \
         (en conflicto: <strong>{c}</strong>)</p>\
         <p><a id=\"pdf\" href=\"/api/equipos/{id}/rondas/{round}/emparejamientos.pdf\">Hoja de emparejamientos (PDF)</a> · \
         <a href=\"/api/equipos/{id}/clasificacion.pdf\">Clasificación y cuadro cruzado (PDF)</a> · \
         <a href=\"/api/equipos/{id}/tableros.pdf\">Resultados por tablero (PDF)</a></p>",
        id = escape(&id),
        name = escape(&l.t.name),
        n = attention.len(),
        c = attention.iter().filter(|a| a.2 == "conflict").count(),
    );
    if online.is_some() {
        let _ = write!(
            body,
            "<p><a id=\"en-linea\" href=\"/equipos/{id}/partidas\">Partidas en línea de la ronda \
             (tableros, relojes y posiciones)</a></p>",
            id = escape(&id),
        );
    }
    for c in &codes.matches {
        let m = match domain::match_view(&l, round, c.table) {
            Ok(m) => m,
            Err(e) => return html_error(&e),
        };
        let svg = match qr_of(&c.link) {
            Ok(qr) => qr_svg(&qr, &format!("Encuentro {}", c.table)),
            Err(e) => return html_error(&e),
        };
        let _ = write!(
            body,
            "<section class=\"match\" data-table=\"{t}\"><div><h2>Encuentro {t}: {h} – {a} \
             <span>{hp} – {ap}</span></h2><table><thead><tr><th>Tablero</th><th>Blancas</th>\
             <th>Resultado</th><th>Negras</th><th>Estado</th>{game_th}</tr></thead><tbody>",
            t = c.table,
            h = escape(&m.home_name),
            a = escape(&m.away_name),
            hp = escape(&m.home_points),
            ap = escape(&m.away_points),
            game_th = if online.is_some() {
                "<th>Partida</th>"
            } else {
                ""
            },
        );
        for b in &m.boards {
            let home = b.home_player.as_deref().unwrap_or("(vacío)");
            let away = b.away_player.as_deref().unwrap_or("(vacío)");
            let (white, black) = if b.white == "home" {
                (home, away)
            } else {
                (away, home)
            };
            let _ = write!(
                body,
                "<tr class=\"state-{st}\" data-board=\"{n}\" data-state=\"{st}\"><td>{n}</td>\
                 <td>{white}</td><td>{res}</td><td>{black}</td><td>{stw}</td>{game}</tr>",
                n = b.board,
                st = b.state,
                white = escape(white),
                black = escape(black),
                res = escape(b.result.as_deref().unwrap_or("")),
                stw = state_es(&b.state),
                game = match online.as_ref().map(|g| g.get(&(c.table, b.board))) {
                    None => String::new(),
                    Some(None) => "<td>—</td>".to_string(),
                    Some(Some(gid)) => format!(
                        "<td><a class=\"partida\" data-game=\"{g}\" href=\"/partida/{g}\">Ver partida</a></td>",
                        g = escape(gid)
                    ),
                },
            );
        }
        let _ = write!(
            body,
            "</tbody></table></div><div><a href=\"{link}\">{svg}</a>\
             <p class=\"hint\">Resultados por los capitanes: {link_text}</p></div></section>",
            link = escape(&c.link),
            link_text = escape(&c.link),
        );
    }
    body.push_str("</main>");
    html_page(
        StatusCode::OK,
        &format!("Ronda {round} · {}", l.t.name),
        &body,
    )
}

/// `GET /equipos/resultado/{code}`: what a team match's QR code opens on a
/// phone (no account): the match's boards, their states and results; the
/// phone says for which team it speaks and enters or confirms a board.
async fn phone_page(
    State(hub): State<Arc<Hub>>,
    p: Result<Path<String>, PathRejection>,
) -> Response {
    let Ok(Path(code)) = p else {
        return html_error(&ApiError::no_route());
    };
    let (l, round, table) = match domain::open(&hub, &code).await {
        Ok(x) => x,
        Err(e) => return html_error(&e),
    };
    let m = match domain::match_view(&l, round, table) {
        Ok(m) => m,
        Err(e) => return html_error(&e),
    };
    let mut body = String::new();
    let _ = write!(
        body,
        "<main id=\"encuentro\" data-code=\"{code}\" data-tournament=\"{id}\" data-round=\"{round}\" \
         data-table=\"{table}\" data-pick-side=\"Elige primero tu equipo.\">\
         <h1>{name}</h1><p>Ronda {round} · encuentro {table}: <strong>{h}</strong> – <strong>{a}</strong> \
         ({hp} – {ap})</p><fieldset><legend>Mi equipo</legend>\
         <label><input type=\"radio\" name=\"side\" value=\"home\"> {h}</label><br>\
         <label><input type=\"radio\" name=\"side\" value=\"away\"> {a}</label></fieldset>\
         <p class=\"hint\">Un equipo anota el resultado de cada tablero y el otro lo confirma anotando el mismo; \
         si no coinciden, decide el árbitro.</p><table><thead><tr><th>Tablero</th><th>Blancas</th>\
         <th>Negras</th><th>Resultado</th></tr></thead><tbody>",
        code = escape(&code),
        id = escape(&l.row.id),
        name = escape(&l.t.name),
        h = escape(&m.home_name),
        a = escape(&m.away_name),
        hp = escape(&m.home_points),
        ap = escape(&m.away_points),
    );
    for b in &m.boards {
        let home = b.home_player.as_deref().unwrap_or("(vacío)");
        let away = b.away_player.as_deref().unwrap_or("(vacío)");
        let (white, black) = if b.white == "home" {
            (home, away)
        } else {
            (away, home)
        };
        let _ = write!(
            body,
            "<tr class=\"state-{st}\" data-board=\"{n}\" data-state=\"{st}\"><td>{n}</td><td>{w}</td><td>{bl}</td><td>",
            n = b.board,
            st = b.state,
            w = escape(white),
            bl = escape(black),
        );
        if b.result.is_some() || b.state == "forfeit" {
            let _ = write!(
                body,
                "<strong>{}</strong> ({})",
                escape(b.result.as_deref().unwrap_or("")),
                state_es(&b.state)
            );
        } else {
            let _ = write!(
                body,
                "<select id=\"res-{n}\" aria-label=\"Resultado del tablero {n}\">",
                n = b.board
            );
            for r in ["1-0", "½-½", "0-1", "+-", "-+"] {
                let _ = write!(body, "<option value=\"{r}\">{r}</option>");
            }
            let claims = [("primero", &b.home_claim), ("segundo", &b.away_claim)]
                .iter()
                .filter_map(|(who, c)| c.as_deref().map(|c| format!("{who}: {}", escape(c))))
                .collect::<Vec<_>>()
                .join(", ");
            let _ = write!(
                body,
                "</select> <button type=\"button\" data-board=\"{n}\">Enviar</button> \
                 <span class=\"hint\">{st}{sep}{claims}</span>",
                n = b.board,
                st = state_es(&b.state),
                sep = if claims.is_empty() { "" } else { " · " },
            );
        }
        body.push_str("</td></tr>");
    }
    body.push_str(
        "</tbody></table><p id=\"error\" role=\"alert\"></p></main>\
         <script src=\"/equipos_resultado.js\"></script>",
    );
    let mut r = html_page(
        StatusCode::OK,
        &format!("Encuentro {table} · {}", l.t.name),
        &body,
    );
    r.headers_mut().insert(
        header::CONTENT_SECURITY_POLICY,
        header::HeaderValue::from_static(
            "default-src 'none'; style-src 'unsafe-inline'; script-src 'self'; \
             connect-src 'self'; frame-ancestors 'none'",
        ),
    );
    r
}

/// `GET /equipos_resultado.js`: the phone page's script.
async fn phone_script() -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/javascript; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        include_str!("../../web/equipos_resultado.js"),
    )
        .into_response()
}
