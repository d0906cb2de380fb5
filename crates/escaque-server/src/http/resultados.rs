//! Results entered by the players from a QR code (issue 59): the routes
//! over [`crate::resultados`]. Every refusal is in docs/protocol.md,
//! "Results by the players".
//!
//! * `GET /resultado/{code}`: the board's form for a phone (no account):
//!   the players, who enters it (White or Black), the result; the answer
//!   says whether it waits for the other player, is confirmed, or is in
//!   conflict.
//! * `GET|POST /api/resultados/{code}`: the board as its code opens it;
//!   a phone's entry ([`wire::EnterResult`]).
//! * `GET /api/tournaments/{id}/resultados/{round}` (organisers): the
//!   round's boards with their codes, conflicts and missing results first;
//!   `POST /api/tournaments/{id}/resultados/{round}/{board}`: the arbiter
//!   enters, overrides or clears a result; `GET /api/tournaments/{id}/resultados`:
//!   the log.
//! * `GET /torneos/{id}/rondas/{round}/resultados` (organisers): that list
//!   as a page, each board's QR code drawn; `GET
//!   /api/tournaments/{id}/rounds/{round}/resultados.pdf` (organisers): the
//!   round's result slips, eight to an A4 page, one a board with its QR
//!   code, to cut and lay on the boards.

use std::fmt::Write as _;
use std::sync::Arc;

use axum::extract::rejection::{PathRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use escaque_torneo::html::escape;
use escaque_torneo::pdf::{self, Card, CardTexts};
use serde::Deserialize;

use super::class_cards::{origin, qr_of, qr_svg};
use super::extract::Organising;
use super::{ApiError, ApiResult, AppJson};
use crate::proto::resultados as wire;
use crate::resultados as domain;
use crate::Hub;

/// This file's routes (merged into [`super::router`]).
pub(super) fn routes() -> Router<Arc<Hub>> {
    Router::new()
        .route("/resultado/{code}", get(phone_page))
        .route("/resultados.js", get(script))
        .route("/api/resultados/{code}", get(board).post(enter))
        .route("/api/tournaments/{id}/resultados", get(log))
        .route("/api/tournaments/{id}/resultados/{round}", get(round_list))
        .route(
            "/api/tournaments/{id}/resultados/{round}/{board}",
            axum::routing::post(arbiter),
        )
        .route(
            "/api/tournaments/{id}/rounds/{round}/resultados.pdf",
            get(slips_pdf),
        )
        .route("/torneos/{id}/rondas/{round}/resultados", get(round_page))
}

/// `?lang=en`: English; anything else, Spanish.
#[derive(Deserialize)]
pub(super) struct LangQuery {
    #[serde(default)]
    lang: Option<String>,
}

fn english(q: Result<Query<LangQuery>, QueryRejection>) -> bool {
    q.ok().and_then(|Query(q)| q.lang).as_deref() == Some("en")
}

// ---------------------------------------------------------------- API

async fn board(State(hub): State<Arc<Hub>>, p: Result<Path<String>, PathRejection>) -> ApiResult {
    let Path(code) = p?;
    let (_, l, e) = domain::open(&hub, &code).await?;
    Ok(Json(domain::board_view(&l, &e)?).into_response())
}

async fn enter(
    State(hub): State<Arc<Hub>>,
    p: Result<Path<String>, PathRejection>,
    body: AppJson<wire::EnterResult>,
) -> ApiResult {
    let Path(code) = p?;
    let req = body.read()?;
    Ok(Json(domain::enter(&hub, &code, &req).await?).into_response())
}

// The organisers' routes open with the [`Organising`] guard: `404
// no_such_tournament` / `403 not_organiser` before the path's round or the
// body is read.

async fn log(State(hub): State<Arc<Hub>>, Organising { loaded, .. }: Organising) -> ApiResult {
    Ok(Json(domain::log(&hub, &loaded).await?).into_response())
}

async fn round_list(
    State(hub): State<Arc<Hub>>,
    Organising { loaded, .. }: Organising,
    p: Result<Path<(String, u32)>, PathRejection>,
) -> ApiResult {
    let Path((_, round)) = p?;
    Ok(Json(domain::round_list(&hub, &loaded, round).await?).into_response())
}

async fn arbiter(
    State(hub): State<Arc<Hub>>,
    Organising { me, loaded }: Organising,
    p: Result<Path<(String, u32, u32)>, PathRejection>,
    body: AppJson<wire::ArbiterResult>,
) -> ApiResult {
    let Path((_, round, board)) = p?;
    let req = body.read()?;
    // Any result the desk takes, the unusual ½-0, 0-½, 0-0 included.
    let result = domain::arbiter_result(&req.result)?;
    Ok(Json(domain::arbiter(&hub, &me, loaded, round, board, result).await?).into_response())
}

// ---------------------------------------------------------------- words

struct Words {
    lang: &'static str,
    round: &'static str,
    board: &'static str,
    white: &'static str,
    black: &'static str,
    who: &'static str,
    result: &'static str,
    send: &'static str,
    states: [(&'static str, &'static str); 5],
    hint: &'static str,
    slip_hint: &'static str,
    link: &'static str,
    qr_label: &'static str,
    list_title: &'static str,
    pdf: &'static str,
    code: &'static str,
    enter: &'static str,
    clear: &'static str,
    log: &'static str,
    other: (&'static str, &'static str),
    error_title: &'static str,
    no_boards: &'static str,
    /// The unusual results' group in the arbiter's select.
    unusual: &'static str,
    /// What each unusual result gives (the option's title).
    unusual_help: [(&'static str, &'static str); 3],
    /// "Mesa {board} corregida: antes {previous}" (the script fills it in).
    corrected: &'static str,
}

fn words(english: bool) -> Words {
    if english {
        Words {
            lang: "en",
            round: "Round",
            board: "Board",
            white: "White",
            black: "Black",
            who: "Who are you?",
            result: "Result",
            send: "Send",
            states: [
                ("missing", "No result yet."),
                ("entered", "Entered: waiting for the other player to confirm it."),
                ("conflict", "The two players said different results: the arbiter decides."),
                ("confirmed", "Confirmed by both players: it is in the standings."),
                ("arbiter", "Entered by the arbiter: it is in the standings."),
            ],
            hint: "One of you enters the result; the other opens the same code and confirms it.",
            slip_hint: "After the game, scan the QR code with a phone: one player enters the result, the other confirms it.",
            link: "Link",
            qr_label: "QR code of the board's result form",
            list_title: "Results of the round",
            pdf: "Result slips (PDF)",
            code: "Code",
            enter: "Enter",
            clear: "clear",
            log: "Log",
            other: ("es", "Español"),
            error_title: "This code opens no board",
            no_boards: "The round has no games.",
            unusual: "Unusual (each scores their own)",
            unusual_help: [
                ("½-0", "½ to White, 0 to Black"),
                ("0-½", "0 to White, ½ to Black"),
                ("0-0", "0 to both"),
            ],
            corrected: "Board {board} corrected: was {previous}",
        }
    } else {
        Words {
            lang: "es",
            round: "Ronda",
            board: "Mesa",
            white: "Blancas",
            black: "Negras",
            who: "¿Quién eres?",
            result: "Resultado",
            send: "Enviar",
            states: [
                ("missing", "Aún sin resultado."),
                ("entered", "Anotado: falta que el otro jugador lo confirme."),
                ("conflict", "Los dos jugadores dieron resultados distintos: decide el árbitro."),
                ("confirmed", "Confirmado por los dos jugadores: ya está en la clasificación."),
                ("arbiter", "Anotado por el árbitro: ya está en la clasificación."),
            ],
            hint: "Uno de los dos anota el resultado; el otro abre el mismo código y lo confirma.",
            slip_hint: "Al acabar, escanead el código QR con el móvil: un jugador anota el resultado y el otro lo confirma.",
            link: "Enlace",
            qr_label: "Código QR del resultado de la mesa",
            list_title: "Resultados de la ronda",
            pdf: "Hojas de resultado (PDF)",
            code: "Código",
            enter: "Anotar",
            clear: "borrar",
            log: "Registro",
            other: ("en", "English"),
            error_title: "Este código no abre ninguna mesa",
            no_boards: "La ronda no tiene partidas.",
            unusual: "Inusuales (cada uno sus puntos)",
            unusual_help: [
                ("½-0", "½ para blancas, 0 para negras"),
                ("0-½", "0 para blancas, ½ para negras"),
                ("0-0", "0 para los dos"),
            ],
            corrected: "Mesa {board} corregida: antes {previous}",
        }
    }
}

impl Words {
    fn state(&self, id: &str) -> &'static str {
        self.states
            .iter()
            .find(|(k, _)| *k == id)
            .map_or("", |(_, v)| v)
    }
}

// ---------------------------------------------------------------- pages

const STYLE: &str = "\
*{box-sizing:border-box}\
body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;margin:0;padding:1rem;color:#111;background:#f4f4f0;font-size:1.05rem}\
main{max-width:40rem;margin:0 auto}\
h1{font-size:1.25rem;margin:.2rem 0 .6rem}\
.sub{color:#555;margin:0 0 1rem}\
.players{display:grid;gap:.5rem;margin:0 0 1rem}\
fieldset{border:1px solid #bbb;border-radius:.5rem;margin:0 0 1rem;padding:.6rem}\
legend{font-weight:700;padding:0 .3rem}\
label.opt{display:flex;align-items:center;gap:.6rem;padding:.7rem;border:1px solid #ccc;border-radius:.5rem;margin:.35rem 0;background:#fff;min-height:3rem}\
label.opt input{width:1.3rem;height:1.3rem}\
.results{display:grid;grid-template-columns:repeat(3,1fr);gap:.5rem}\
.results label.opt{justify-content:center;gap:.35rem;padding:.6rem .3rem;font-size:1.2rem;font-weight:700;white-space:nowrap}\
button{font:inherit;font-weight:700;padding:.8rem 1.2rem;border-radius:.5rem;border:0;background:#1d5c3a;color:#fff;min-height:3rem}\
button.small{padding:.3rem .6rem;min-height:0;font-size:.9rem}\
#send{width:100%}\
.state{padding:.7rem;border-radius:.5rem;background:#fff;border-left:.4rem solid #999;margin:0 0 1rem}\
.state[data-state=confirmed],.state[data-state=arbiter]{border-color:#1d5c3a}\
.state[data-state=conflict]{border-color:#b3261e;background:#fdecea}\
.state[data-state=entered]{border-color:#c28a00}\
.error{color:#b3261e;font-weight:700}\
.hint{color:#555;font-size:.9rem}\
table{border-collapse:collapse;width:100%;background:#fff}\
th,td{border-bottom:1px solid #ddd;padding:.35rem;text-align:left;vertical-align:middle}\
tr[data-state=conflict] td{background:#fdecea}\
tr[data-state=missing] td,tr[data-state=entered] td{background:#fff8e1}\
.qr{width:6rem;height:6rem}\
.wide{max-width:70rem}\
select{font:inherit;padding:.3rem}\
#correction{font-weight:700;color:#1d5c3a}\
#correction:empty{display:none}\
@media (max-width:40rem){\
#arbiter table,#arbiter tbody,#arbiter tr,#arbiter td{display:block;width:100%}\
#arbiter thead{display:none}\
#arbiter tr{border:1px solid #ccc;border-radius:.5rem;margin:0 0 .7rem;padding:.3rem;background:#fff}\
#arbiter td{border:0;padding:.25rem .3rem}\
#arbiter td[data-label]::before{content:attr(data-label) ': ';color:#555}\
#arbiter td.pick{display:flex;gap:.5rem;align-items:center}\
#arbiter select{flex:1;min-width:0;min-height:3rem;font-size:1.1rem}\
#arbiter button.small{min-height:3rem;padding:.5rem 1rem;font-size:1rem}\
#arbiter .qr{width:5rem;height:5rem}}";

fn page(status: StatusCode, w: &Words, title: &str, body: &str) -> Response {
    let html = format!(
        "<!doctype html>\n<html lang=\"{lang}\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{title}</title><style>{STYLE}</style></head><body>{body}\
         <script src=\"/resultados.js\"></script></body></html>\n",
        lang = w.lang,
        title = escape(title),
    );
    (
        status,
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-store"),
            (
                header::CONTENT_SECURITY_POLICY,
                "default-src 'none'; style-src 'unsafe-inline'; script-src 'self'; \
                 connect-src 'self'; frame-ancestors 'none'",
            ),
            (header::REFERRER_POLICY, "no-referrer"),
        ],
        html,
    )
        .into_response()
}

fn error_page(w: &Words, e: &ApiError) -> Response {
    let text = if w.lang == "en" { &e.3 } else { &e.2 };
    page(
        e.status(),
        w,
        w.error_title,
        &format!(
            "<main><h1>{}</h1><p class=\"error\" id=\"error\" data-code=\"{}\">{}</p></main>",
            escape(w.error_title),
            e.code(),
            escape(text)
        ),
    )
}

/// `GET /resultado/{code}`: the phone's form.
async fn phone_page(
    State(hub): State<Arc<Hub>>,
    p: Result<Path<String>, PathRejection>,
    q: Result<Query<LangQuery>, QueryRejection>,
) -> Response {
    let w = words(english(q));
    let Ok(Path(code)) = p else {
        return error_page(&w, &ApiError::no_route());
    };
    let b = match domain::open(&hub, &code).await {
        Ok((_, l, e)) => match domain::board_view(&l, &e) {
            Ok(b) => b,
            Err(e) => return error_page(&w, &e),
        },
        Err(e) => return error_page(&w, &e),
    };
    let mut body = String::new();
    let _ = write!(
        body,
        "<main id=\"board\" data-code=\"{code}\" data-tournament=\"{t}\" data-round=\"{round}\" \
         data-board=\"{board}\" data-lang=\"{lang}\">\
         <h1>{name}</h1><p class=\"sub\">{wr} {round} · {wb} {board}</p>\
         <p class=\"state\" id=\"state\" data-state=\"{state}\">{state_text}{result}</p>",
        code = escape(&code),
        t = escape(&b.tournament),
        round = b.round,
        board = b.board,
        lang = w.lang,
        name = escape(&b.tournament_name),
        wr = w.round,
        wb = w.board,
        state = b.state,
        state_text = w.state(b.state),
        result = b
            .result
            .as_deref()
            .map(|r| format!(" <strong>{}</strong>", escape(r)))
            .unwrap_or_default(),
    );
    // The texts the script shows after a send.
    for (k, v) in w.states {
        let _ = write!(body, "<template data-state-text=\"{k}\">{v}</template>");
    }
    if b.open {
        let _ = write!(
            body,
            "<form id=\"entry\"><fieldset><legend>{who}</legend>\
             <label class=\"opt\"><input type=\"radio\" name=\"side\" value=\"white\" required> \
             {wl}: <strong>{white}</strong>{wc}</label>\
             <label class=\"opt\"><input type=\"radio\" name=\"side\" value=\"black\" required> \
             {bl}: <strong>{black}</strong>{bc}</label></fieldset>\
             <fieldset><legend>{res}</legend><div class=\"results\">",
            who = w.who,
            wl = w.white,
            bl = w.black,
            white = escape(&b.white.name),
            black = escape(&b.black.name),
            wc = b
                .white_claim
                .as_deref()
                .map(|c| format!(" <span class=\"claim\">({c})</span>"))
                .unwrap_or_default(),
            bc = b
                .black_claim
                .as_deref()
                .map(|c| format!(" <span class=\"claim\">({c})</span>"))
                .unwrap_or_default(),
            res = w.result,
        );
        for r in ["1-0", "½-½", "0-1"] {
            let _ = write!(
                body,
                "<label class=\"opt\"><input type=\"radio\" name=\"result\" value=\"{r}\" required> {r}</label>"
            );
        }
        let _ = write!(
            body,
            "</div></fieldset><button id=\"send\" type=\"submit\">{send}</button>\
             <p class=\"error\" id=\"error\" role=\"alert\"></p><p class=\"hint\">{hint}</p></form>",
            send = w.send,
            hint = w.hint,
        );
    } else {
        let _ = write!(
            body,
            "<p>{wl}: <strong>{white}</strong><br>{bl}: <strong>{black}</strong></p>",
            wl = w.white,
            bl = w.black,
            white = escape(&b.white.name),
            black = escape(&b.black.name),
        );
    }
    let other = if w.lang == "en" { "" } else { "?lang=en" };
    let _ = write!(
        body,
        "<p class=\"hint\"><a lang=\"{}\" href=\"/resultado/{}{other}\">{}</a></p></main>",
        w.other.0,
        escape(&code),
        w.other.1
    );
    page(
        StatusCode::OK,
        &w,
        &format!("{} {} · {}", w.board, b.board, b.tournament_name),
        &body,
    )
}

/// `GET /torneos/{id}/rondas/{round}/resultados`: the arbiter's list as a
/// page, conflicts and missing results first, each board's QR code drawn.
async fn round_page(
    State(hub): State<Arc<Hub>>,
    organising: Result<Organising, ApiError>,
    headers: HeaderMap,
    p: Result<Path<(String, u32)>, PathRejection>,
    q: Result<Query<LangQuery>, QueryRejection>,
) -> Response {
    let w = words(english(q));
    let Ok(Path((id, round))) = p else {
        return error_page(&w, &ApiError::no_route());
    };
    // The guard's refusal as a page (a page answers in HTML).
    let l = match organising {
        Ok(Organising { loaded, .. }) => loaded,
        Err(e) => return error_page(&w, &e),
    };
    let (list, origin) = match (domain::round_list(&hub, &l, round).await, origin(&headers)) {
        (Ok(l), Ok(o)) => (l, o),
        (Err(e), _) | (_, Err(e)) => return error_page(&w, &e),
    };
    let mut body = String::new();
    let c = &list.counts;
    let _ = write!(
        body,
        "<main class=\"wide\" id=\"arbiter\" data-tournament=\"{id}\" data-round=\"{round}\" \
         data-corrected=\"{corrected}\">\
         <h1>{title} {round} · {name}</h1>\
         <p class=\"sub\" id=\"counts\">{conflict_t}: <strong>{}</strong> · {missing_t}: <strong>{}</strong> · \
         {entered_t}: <strong>{}</strong> · {confirmed_t}: <strong>{}</strong> · {arbiter_t}: <strong>{}</strong></p>\
         <p><a id=\"slips\" href=\"/api/tournaments/{id}/rounds/{round}/resultados.pdf{lang_q}\">{pdf}</a> · \
         <a href=\"/torneos/{id}/organizar\">{name}</a></p>",
        c.conflict,
        c.missing,
        c.entered,
        c.confirmed,
        c.arbiter,
        id = escape(&id),
        title = w.list_title,
        name = escape(&l.t.name),
        conflict_t = state_word(&w, "conflict"),
        missing_t = state_word(&w, "missing"),
        entered_t = state_word(&w, "entered"),
        confirmed_t = state_word(&w, "confirmed"),
        arbiter_t = state_word(&w, "arbiter"),
        lang_q = if w.lang == "en" { "?lang=en" } else { "" },
        pdf = w.pdf,
        corrected = w.corrected,
    );
    // Filled in by the script after a correction (what the board held).
    body.push_str("<p id=\"correction\" role=\"status\"></p>");
    if list.boards.is_empty() {
        let _ = write!(body, "<p>{}</p>", w.no_boards);
    } else {
        let _ = write!(
            body,
            "<table><thead><tr><th>{board}</th><th>{white}</th><th>{black}</th><th>{state}</th>\
             <th>{enter}</th><th>QR</th></tr></thead><tbody>",
            board = w.board,
            white = w.white,
            black = w.black,
            state = w.result,
            enter = w.enter,
        );
        for b in &list.boards {
            let link = format!("{origin}{}", b.url);
            let svg = match qr_of(&link) {
                Ok(qr) => qr_svg(&qr, w.qr_label),
                Err(e) => return error_page(&w, &e),
            };
            let claims = format!(
                "{}{}",
                b.board
                    .white_claim
                    .as_deref()
                    .map(|c| format!("<br>{} {c}", w.white))
                    .unwrap_or_default(),
                b.board
                    .black_claim
                    .as_deref()
                    .map(|c| format!("<br>{} {c}", w.black))
                    .unwrap_or_default(),
            );
            // The board's own result: an unusual one as such (`½-0`), never
            // the `½-½` it is stored with; the select starts on it.
            let held = b.board.result.as_deref().unwrap_or("");
            let _ = write!(
                body,
                "<tr data-board=\"{n}\" data-state=\"{st}\" data-result=\"{res}\">\
                 <td data-label=\"{board_w}\">{n}</td><td data-label=\"{white_w}\">{white}</td>\
                 <td data-label=\"{black_w}\">{black}</td>\
                 <td data-label=\"{res_label}\"><strong>{stw}</strong> <span class=\"res\">{res}</span>\
                 <span class=\"hint\">{claims}</span></td>\
                 <td class=\"pick\"><select aria-label=\"{res_label} {n}\">",
                n = b.board.board,
                st = b.board.state,
                board_w = w.board,
                white_w = w.white,
                black_w = w.black,
                white = escape(&b.board.white.name),
                black = escape(&b.board.black.name),
                stw = state_word(&w, b.board.state),
                res = escape(held),
                res_label = w.result,
            );
            let selected = |r: &str| if r == held { " selected" } else { "" };
            for r in ["1-0", "½-½", "0-1", "+-", "-+", "--"] {
                let _ = write!(body, "<option value=\"{r}\"{}>{r}</option>", selected(r));
            }
            let _ = write!(body, "<optgroup label=\"{}\">", w.unusual);
            for (r, help) in w.unusual_help {
                let _ = write!(
                    body,
                    "<option value=\"{r}\" title=\"{help}\"{}>{r}</option>",
                    selected(r)
                );
            }
            let _ = write!(
                body,
                "</optgroup><option value=\"*\">* ({clear})</option></select> \
                 <button class=\"small\" type=\"button\" data-enter=\"{n}\">{enter}</button></td>\
                 <td><a href=\"{url}\" title=\"{code_w}: {code}\">{svg}</a></td></tr>",
                clear = w.clear,
                n = b.board.board,
                enter = w.enter,
                url = escape(&b.url),
                code_w = w.code,
                code = escape(&b.code),
            );
        }
        body.push_str("</tbody></table><p class=\"error\" id=\"error\" role=\"alert\"></p>");
    }
    match domain::log(&hub, &l).await {
        Ok(log) if !log.lines.is_empty() => {
            let _ = write!(body, "<h2>{}</h2><ol id=\"log\">", w.log);
            for line in log.lines.iter().rev().take(50) {
                let _ = write!(
                    body,
                    "<li>{} {} · {} {} · {} · {} {}{}</li>",
                    w.round,
                    line.round,
                    w.board,
                    line.board,
                    escape(match line.who.as_str() {
                        "white" => w.white,
                        "black" => w.black,
                        who => who,
                    }),
                    action_word(&w, &line.action),
                    escape(line.result.as_deref().unwrap_or("")),
                    line.previous
                        .as_deref()
                        .map(|p| format!(" ({})", escape(p)))
                        .unwrap_or_default(),
                );
            }
            body.push_str("</ol>");
        }
        Ok(_) => {}
        Err(e) => return error_page(&w, &e),
    }
    body.push_str("</main>");
    page(
        StatusCode::OK,
        &w,
        &format!("{} {round} · {}", w.list_title, l.t.name),
        &body,
    )
}

/// A step of the log in words.
fn action_word(w: &Words, id: &str) -> &'static str {
    let es = w.lang == "es";
    match id {
        "entered" if es => "anotó",
        "entered" => "entered",
        "confirmed" if es => "confirmó",
        "confirmed" => "confirmed",
        "conflict" if es => "dijo otro resultado (conflicto)",
        "conflict" => "said another result (conflict)",
        "arbiter" if es => "anotó (árbitro)",
        "arbiter" => "entered (arbiter)",
        "override" if es => "sustituyó lo anotado (árbitro)",
        "override" => "overrode (arbiter)",
        "cleared" if es => "borró (árbitro)",
        "cleared" => "cleared (arbiter)",
        _ => "?",
    }
}

/// A state in one word or two (the list's column).
fn state_word(w: &Words, id: &str) -> &'static str {
    let es = w.lang == "es";
    match id {
        "conflict" if es => "En conflicto",
        "conflict" => "In conflict",
        "missing" if es => "Sin resultado",
        "missing" => "Missing",
        "entered" if es => "Sin confirmar",
        "entered" => "Unconfirmed",
        "confirmed" if es => "Confirmado",
        "confirmed" => "Confirmed",
        _ if es => "Árbitro",
        _ => "Arbiter",
    }
}

/// `GET /api/tournaments/{id}/rounds/{round}/resultados.pdf`: the round's
/// result slips, one a board with its QR code, eight to an A4 page.
async fn slips_pdf(
    State(hub): State<Arc<Hub>>,
    Organising { loaded: l, .. }: Organising,
    headers: HeaderMap,
    p: Result<Path<(String, u32)>, PathRejection>,
    q: Result<Query<LangQuery>, QueryRejection>,
) -> ApiResult {
    let Path((_, round)) = p?;
    let w = words(english(q));
    let origin = origin(&headers)?;
    let list = domain::round_list(&hub, &l, round).await?;
    let mut boards: Vec<&wire::ArbiterBoard> = list.boards.iter().collect();
    boards.sort_by_key(|b| b.board.board);
    let cards = boards
        .iter()
        .map(|b| {
            let link = format!("{origin}{}", b.url);
            Ok(Card {
                title: l.t.name.clone(),
                note: format!(
                    "{} {round} · {} {} · {}: {} · {}: {}",
                    w.round,
                    w.board,
                    b.board.board,
                    w.white,
                    b.board.white.name,
                    w.black,
                    b.board.black.name
                ),
                name: format!("{} – {}", b.board.white.name, b.board.black.name),
                code: b.board.board.to_string(),
                qr: qr_of(&link)?,
                link,
            })
        })
        .collect::<Result<Vec<_>, ApiError>>()?;
    let texts = CardTexts {
        user: format!("{} – {}", w.white, w.black),
        code: format!("{} · {} {round}", w.board, w.round),
        hint: w.slip_hint.to_string(),
        link: w.link.to_string(),
        empty: w.no_boards.to_string(),
    };
    let bytes = pdf::login_cards(&cards, &texts);
    Ok((
        [
            (header::CONTENT_TYPE, "application/pdf".to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("inline; filename=\"resultados-ronda-{round}.pdf\""),
            ),
            (header::CACHE_CONTROL, "no-store".to_string()),
        ],
        bytes,
    )
        .into_response())
}

/// `GET /resultados.js`: the pages' one script.
async fn script() -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/javascript; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        include_str!("../../web/resultados.js"),
    )
        .into_response()
}
