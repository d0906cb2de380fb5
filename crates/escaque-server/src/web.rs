//! The browser pages: one HTML shell, the application script, its style, the
//! two text catalogues and the vendored board (chessground 9.2.1 with the
//! cburnett pieces), all embedded in the binary. No Node.js is needed to
//! build or run; `scripts/vendor-web.sh` refreshes the vendored files.
//!
//! Pages: `/` (Inicio), `/partida/{id}` (Partida), `/mis-partidas` and
//! `/mis-partidas/{id}` (finished games and their replay), and the
//! tournaments (`torneo.js`, loaded only there): `/torneos` (list and create
//! form), `/torneos/{id}` (the public page), `/torneos/{id}/organizar` (the
//! organiser's desk) and `/torneos/{id}/tableros` (the grid of live boards);
//! `/jugador/{name}`, a player's page (`jugador.js`, loaded only there). Static files live
//! under `/static/`; they are served gzip-compressed when the browser accepts
//! it (compressed once, on first use).
//!
//! One JSON endpoint of its own, `GET /web/api/games/{id}/positions`: the
//! position after every move (FEN) with SAN in both languages, for replaying
//! and reviewing a game without any chess rules in the browser.

use std::io::Write;
use std::sync::{Arc, OnceLock};

use crate::proto::games::{Replay, ReplayMove};
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use escaque::{san, Lang, Position};

use crate::error::ApiError;
use crate::Hub;

/// An embedded file.
struct Asset {
    path: &'static str,
    mime: &'static str,
    body: &'static [u8],
}

macro_rules! asset {
    ($path:literal, $mime:literal) => {
        Asset {
            path: $path,
            mime: $mime,
            body: include_bytes!(concat!("../web/", $path)),
        }
    };
}

static ASSETS: &[Asset] = &[
    asset!("app.js", "text/javascript; charset=utf-8"),
    asset!("torneo.js", "text/javascript; charset=utf-8"),
    asset!("jugador.js", "text/javascript; charset=utf-8"),
    asset!("problemas.js", "text/javascript; charset=utf-8"),
    asset!("clases.js", "text/javascript; charset=utf-8"),
    asset!("simul.js", "text/javascript; charset=utf-8"),
    asset!("progreso.js", "text/javascript; charset=utf-8"),
    asset!("analisis.js", "text/javascript; charset=utf-8"),
    asset!("aprender.js", "text/javascript; charset=utf-8"),
    asset!("tareas.js", "text/javascript; charset=utf-8"),
    asset!("equipos.js", "text/javascript; charset=utf-8"),
    asset!("speech.js", "text/javascript; charset=utf-8"),
    asset!("boardkeys.js", "text/javascript; charset=utf-8"),
    asset!("i18n/es.js", "text/javascript; charset=utf-8"),
    asset!("i18n/en.js", "text/javascript; charset=utf-8"),
    asset!("style.css", "text/css; charset=utf-8"),
    asset!(
        "vendor/chessground/chessground.min.js",
        "text/javascript; charset=utf-8"
    ),
    asset!(
        "vendor/chessground/chessground.base.css",
        "text/css; charset=utf-8"
    ),
    asset!(
        "vendor/chessground/chessground.cburnett.css",
        "text/css; charset=utf-8"
    ),
    asset!("vendor/chessground/LICENSE", "text/plain; charset=utf-8"),
    asset!("vendor/chessground/VERSION", "text/plain; charset=utf-8"),
    asset!("favicon.svg", "image/svg+xml"),
];

const SHELL: &str = include_str!("../web/index.html");

/// The gzip form of each asset, made once.
static GZIPPED: OnceLock<Vec<Vec<u8>>> = OnceLock::new();

fn gzipped(i: usize) -> &'static [u8] {
    let all = GZIPPED.get_or_init(|| ASSETS.iter().map(|a| gzip(a.body)).collect());
    &all[i]
}

/// Gzip at the best level (done once per file).
pub fn gzip(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    let _ = e.write_all(data);
    e.finish().unwrap_or_default()
}

fn accepts_gzip(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::ACCEPT_ENCODING)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|e| e.trim().split(';').next() == Some("gzip"))
}

/// The page routes and `/static/…`.
pub fn router(hub: Arc<Hub>) -> Router {
    Router::new()
        .route("/", get(shell))
        .route("/partida/{id}", get(shell))
        .route("/mis-partidas", get(shell))
        .route("/mis-partidas/{id}", get(shell))
        .route("/torneos", get(shell))
        .route("/torneos/{id}", get(shell))
        .route("/torneos/{id}/organizar", get(shell))
        .route("/torneos/{id}/tableros", get(shell))
        .route("/jugador/{name}", get(shell))
        // Classes (issue 26).
        .route("/clases", get(shell))
        .route("/clases/{id}", get(shell))
        .route("/clases/{id}/simultanea", get(shell))
        .route("/clases/{id}/torneo", get(shell))
        .route("/clases/{id}/progreso", get(shell))
        .route("/clase/{id}/entrar", get(shell))
        .route("/simul/{id}", get(shell))
        .route("/problemas", get(shell))
        .route("/analisis", get(shell))
        .route("/analisis/{id}", get(shell))
        // Aprende a jugar (issue 55).
        .route("/aprender", get(shell))
        .route("/aprender/{stage}", get(shell))
        // Tareas (issue 57).
        .route("/clases/{id}/tareas", get(shell))
        .route("/clases/{id}/tareas/{hw}", get(shell))
        .route("/clases/{id}/tareas/{hw}/{n}", get(shell))
        .route("/familia/{token}", get(shell))
        // Team tournaments: the create form and the organiser's desk (issue 59).
        .route("/equipos", get(shell))
        .route("/equipos/{id}", get(shell))
        .route("/static/{*path}", get(static_file))
        .route("/favicon.ico", get(favicon))
        .route("/web/api/games/{id}/positions", get(positions))
        .with_state(hub)
}

async fn shell() -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
            (
                header::HeaderName::from_static("content-security-policy"),
                "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; connect-src 'self'; frame-ancestors 'none'",
            ),
            (header::HeaderName::from_static("x-content-type-options"), "nosniff"),
        ],
        SHELL,
    )
        .into_response()
}

async fn favicon(headers: HeaderMap) -> Response {
    serve("favicon.svg", &headers)
}

async fn static_file(Path(path): Path<String>, headers: HeaderMap) -> Response {
    serve(&path, &headers)
}

fn serve(path: &str, headers: &HeaderMap) -> Response {
    let Some(i) = ASSETS.iter().position(|a| a.path == path) else {
        return ApiError::no_route().into_response();
    };
    let a = &ASSETS[i];
    let gz = accepts_gzip(headers);
    let body: &'static [u8] = if gz { gzipped(i) } else { a.body };
    let mut resp = body.into_response();
    let h = resp.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(a.mime));
    // Files change only with the binary; a short cache plus revalidation on
    // reload keeps a school's slow network from fetching them twice a lesson.
    h.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("public, max-age=3600"),
    );
    h.insert(
        header::HeaderName::from_static("x-content-type-options"),
        HeaderValue::from_static("nosniff"),
    );
    h.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    if gz {
        h.insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
    }
    resp
}

/// Every position of a game, for replay: `{start_fen, opening, moves: [{ply,
/// uci, san, san_es, fen, clock_ms}]}`.
async fn positions(State(hub): State<Arc<Hub>>, Path(id): Path<String>) -> Response {
    // The HTTP API's one error shape.
    let row = match hub.store.game(&id).await {
        Ok(Some(r)) => r,
        Ok(None) => return ApiError::not_found().into_response(),
        Err(e) => return ApiError::from(e).into_response(),
    };
    let moves = hub.store.moves(&id).await.unwrap_or_default();
    let mode = if row.chess960 {
        escaque::CastlingMode::Chess960
    } else {
        escaque::CastlingMode::Standard
    };
    let start = Position::from_fen_with(&row.start_fen, mode).unwrap_or_default();
    let mut pos = start;
    let mut out: Vec<ReplayMove> = Vec::with_capacity(moves.len());
    for (ply, m) in moves.iter().enumerate() {
        let Ok(mv) = escaque::read_move(&pos, &m.uci, escaque::Notation::Uci) else {
            break;
        };
        let san_en = san::san(&pos, mv, Lang::En);
        let san_es = san::san(&pos, mv, Lang::Es);
        pos.play_unchecked(mv);
        out.push(ReplayMove {
            ply,
            uci: m.uci.clone(),
            san: san_en,
            san_es,
            fen: pos.to_fen(),
            check: pos.is_check(),
            clock_ms: m.clock_ms,
        });
    }
    Json(Replay {
        opening: crate::openings::of_row(&row, moves.iter().map(|m| m.uci.as_str())),
        result: row.end.map(|e| e.result_pgn()),
        termination: row.end.map(|e| e.termination.id()),
        termination_side: row.end.and_then(|e| e.side_id()),
        rules: row.rules.id(),
        variant: if row.chess960 { "chess960" } else { "standard" },
        game: row.id,
        start_fen: row.start_fen,
        white: row.white_name,
        black: row.black_name,
        time_control: row.time_control,
        moves: out,
    })
    .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_asset_is_embedded_and_gzips() {
        for (i, a) in ASSETS.iter().enumerate() {
            assert!(!a.body.is_empty(), "{} is empty", a.path);
            let z = gzipped(i);
            assert_eq!(&z[..2], &[0x1f, 0x8b], "{} is not gzip", a.path);
        }
        assert!(SHELL.contains("/static/app.js"));
    }

    /// Issue 12: the first load is at most 300 KB compressed. Everything
    /// embedded is loaded by the home and game pages (but `torneo.js`, which
    /// only the tournament pages import), so the sum of all of it (plus the
    /// HTML shell) bounds the first load.
    #[test]
    fn first_load_is_under_300_kb_gzipped() {
        let mut total = gzip(SHELL.as_bytes()).len();
        for (i, a) in ASSETS.iter().enumerate() {
            if a.mime.starts_with("text/plain") {
                continue; // LICENSE and VERSION are not loaded by the pages
            }
            if matches!(
                a.path,
                "torneo.js"
                    | "jugador.js"
                    | "clases.js"
                    | "simul.js"
                    | "progreso.js"
                    | "analisis.js"
                    | "problemas.js"
            ) {
                continue; // imported by their own pages only
            }
            total += gzipped(i).len();
        }
        eprintln!("first load: {total} bytes gzipped");
        assert!(total <= 300 * 1024, "first load is {total} bytes gzipped");
        assert!(total > 20 * 1024, "suspiciously small first load: {total}");
    }

    #[test]
    fn reads_accept_encoding() {
        let mut h = HeaderMap::new();
        assert!(!accepts_gzip(&h));
        h.insert(
            header::ACCEPT_ENCODING,
            HeaderValue::from_static("br, gzip;q=0.8"),
        );
        assert!(accepts_gzip(&h));
        h.insert(header::ACCEPT_ENCODING, HeaderValue::from_static("gzipx"));
        assert!(!accepts_gzip(&h));
    }
}

#[cfg(test)]
mod catalogue_tests {
    use escaque::{DrawClaim, Odds, RuleSet, Termination};

    const CATALOGUES: [(&str, &str); 2] = [
        ("es.js", include_str!("../web/i18n/es.js")),
        ("en.js", include_str!("../web/i18n/en.js")),
    ];

    /// The keys of the object literal `name: { … }` of a catalogue, with
    /// a non-empty text each.
    fn section(text: &str, name: &str) -> Vec<(String, String)> {
        let open = format!("\n  {name}: {{");
        let start = text
            .find(&open)
            .unwrap_or_else(|| panic!("no section {name}"))
            + open.len();
        let body = &text[start..];
        let body = &body[..body.find("\n  },").expect("section closed")];
        let mut out = Vec::new();
        let mut rest = body;
        // `key: 'text',` pairs; the texts hold no quote.
        while let Some(colon) = rest.find(": '") {
            let key = rest[..colon]
                .rsplit(|c: char| c == ',' || c.is_whitespace() || c == '{')
                .next()
                .unwrap_or("")
                .to_string();
            let after = &rest[colon + 3..];
            let end = after.find('\'').expect("text closed");
            out.push((key, after[..end].to_string()));
            rest = &after[end + 1..];
        }
        out
    }

    fn has(entries: &[(String, String)], id: &str) -> bool {
        entries.iter().any(|(k, v)| k == id && !v.trim().is_empty())
    }

    /// Every id the server sends (`termination`, `rules`, `claimable`,
    /// odds) has a Spanish and an English text in the browser's catalogues.
    #[test]
    fn browser_catalogues_name_every_id_the_server_sends() {
        for (file, text) in CATALOGUES {
            let terminations = section(text, "terminations");
            for t in Termination::ALL {
                assert!(
                    has(&terminations, t.id()),
                    "{file}: terminations.{}",
                    t.id()
                );
            }
            let rules = section(text, "rule_sets");
            for r in RuleSet::PRESETS {
                assert!(has(&rules, r.id()), "{file}: rule_sets.{}", r.id());
            }
            let perfs = section(text, "perfs");
            for p in crate::rating::PERFS {
                assert!(has(&perfs, p), "{file}: perfs.{p}");
            }
            let claims = section(text, "claims");
            for c in DrawClaim::ALL {
                assert!(has(&claims, c.id()), "{file}: claims.{}", c.id());
            }
            for o in Odds::ALL {
                let key = format!("odds_{}: '", o.id());
                assert!(text.contains(&key), "{file}: {key}");
            }
            // Every variant a state or a seek names (Chess960, issue 25).
            let variants = &text[text.find("\n  variant: ").expect("variants")..];
            let variants = &variants[..variants.find('}').expect("closed")];
            for v in ["standard", "chess960"] {
                assert!(
                    variants.contains(&format!(" {v}: '")),
                    "{file}: variants.{v}"
                );
            }
            // Every tie-break the create form offers (escaque-torneo's ids).
            let tn = &text[text.find("\n  tn: {").expect("tn section")..];
            let tiebreaks = &tn[tn.find("\n    tiebreaks: {").expect("tn.tiebreaks")..];
            let tiebreaks = &tiebreaks[..tiebreaks.find("\n    },").expect("closed")];
            for tb in escaque_torneo::TieBreak::ALL {
                let quoted = format!("'{}': '", tb.id());
                let bare = format!(" {}: '", tb.id());
                assert!(
                    tiebreaks.contains(&quoted) || tiebreaks.contains(&bare),
                    "{file}: tn.tiebreaks.{}",
                    tb.id()
                );
            }
            // Nothing left over from the first release's glued names.
            for stale in ["abandoned_draw", "flag", "time"] {
                assert!(
                    !has(&terminations, stale),
                    "{file}: stale terminations.{stale}"
                );
            }
        }
    }
}
