//! The printable login cards of a class, HTML and PDF with QR codes (issue
//! 26).
//!
//! One card per active pupil: the class's name, the pupil's real name in
//! small grey letters (the cards are the teacher's printout, handed out by
//! name), the account name, the class code, the login link written out and
//! the same link as a QR code. The link is
//! `{origin}/clase/{id}/entrar?alumno={name}`, where the origin is
//! `http://` and the request's `Host` header, as the teacher's browser
//! reached the server (the tablets reach it the same way).
//!
//! * `GET /api/classes/{id}/cards.pdf[?lang=en]`: eight cards on each A4
//!   page with dashed cut lines (`escaque_torneo::pdf::login_cards`).
//! * `GET /clases/{id}/tarjetas[?lang=en]`: the same cards as a page of its
//!   own (no script; the QR codes as inline SVG; print CSS puts eight on
//!   an A4 sheet).
//!
//! Both for the class's teachers only: `404 class_not_found` for a guest or
//! an outsider, `403 teachers_only` for a pupil. The cards are in the order
//! of the real names, as a teacher reads the class list (without case or
//! accents, `ñ` after `n`, numbers by their value).

use std::fmt::Write as _;
use std::sync::Arc;

use axum::extract::rejection::{PathRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap};
use axum::response::IntoResponse;
use axum::routing::get;
use axum::Router;
use escaque_torneo::html::escape;
use escaque_torneo::pdf::{self, Card, CardTexts, QrModules};
use qrcode::{Color, EcLevel, QrCode};
use serde::Deserialize;

use super::{ApiError, ApiResult, Identity};
use crate::classes;
use crate::store::classes::{ClassRow, PupilRow};
use crate::Hub;

/// This file's routes (merged into [`super::router`]).
pub(super) fn routes() -> Router<Arc<Hub>> {
    Router::new()
        .route("/api/classes/{id}/cards.pdf", get(cards_pdf))
        .route("/clases/{id}/tarjetas", get(cards_page))
}

/// `?lang=en`: English; anything else, Spanish.
#[derive(Deserialize)]
pub(super) struct CardsQuery {
    #[serde(default)]
    lang: Option<String>,
}

impl CardsQuery {
    fn english(&self) -> bool {
        self.lang.as_deref() == Some("en")
    }
}

/// The words of a card and of the page.
struct Words {
    lang: &'static str,
    texts: CardTexts,
    page_title: &'static str,
    print_help: &'static str,
    pdf: &'static str,
    other_lang: (&'static str, &'static str),
    qr_label: &'static str,
}

fn words(english: bool) -> Words {
    if english {
        Words {
            lang: "en",
            texts: CardTexts {
                user: "Your username".into(),
                code: "Class code".into(),
                hint: "Scan the QR code or open the link, tap your name and type the class code."
                    .into(),
                link: "Login link".into(),
                empty: "This class has no active pupils.".into(),
            },
            page_title: "Login cards",
            print_help: "Print this page (A4, eight cards a sheet) and cut along the dashed lines, or download the",
            pdf: "PDF",
            other_lang: ("es", "Español"),
            qr_label: "QR code of the login link",
        }
    } else {
        Words {
            lang: "es",
            texts: CardTexts {
                user: "Tu usuario".into(),
                code: "Código de la clase".into(),
                hint: "Escanea el código QR o abre el enlace, toca tu nombre y escribe el código de la clase."
                    .into(),
                link: "Enlace para entrar".into(),
                empty: "Esta clase no tiene alumnos activos.".into(),
            },
            page_title: "Tarjetas de acceso",
            print_help: "Imprime esta página (A4, ocho tarjetas por hoja) y recorta por las líneas de puntos, o descarga el",
            pdf: "PDF",
            other_lang: ("en", "English"),
            qr_label: "Código QR del enlace para entrar",
        }
    }
}

/// The origin the asker reached the server at: `http://` and the `Host`
/// header, which must be a plain host name or address with an optional
/// port (else `400 bad_host`: a link to somewhere else is never printed).
pub(super) fn origin(headers: &HeaderMap) -> Result<String, ApiError> {
    headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .filter(|h| {
            !h.is_empty()
                && h.len() <= 255
                && h.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b".-:[]".contains(&b))
        })
        .map(|h| format!("http://{h}"))
        .ok_or_else(|| {
            ApiError::bad(
                "bad_host",
                "la cabecera Host no es un nombre de servidor: no se puede escribir el enlace de las tarjetas",
                "the Host header is not a server name: the cards' link cannot be written",
            )
        })
}

/// `s` with every byte outside the URL's unreserved set percent-encoded.
fn percent(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(b as char);
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

/// The login link on a pupil's card.
pub fn login_link(origin: &str, class_id: &str, name: &str) -> String {
    format!(
        "{origin}/clase/{}/entrar?alumno={}",
        percent(class_id),
        percent(name)
    )
}

/// `text` as a QR code (error correction M: a quarter of a worn card may
/// be lost).
pub(super) fn qr_of(text: &str) -> Result<QrModules, ApiError> {
    let code = QrCode::with_error_correction_level(text.as_bytes(), EcLevel::M).map_err(|e| {
        eprintln!("escaque-server: código QR / QR code: {e}");
        ApiError::internal()
    })?;
    Ok(QrModules {
        size: code.width(),
        dark: code
            .to_colors()
            .into_iter()
            .map(|c| c == Color::Dark)
            .collect(),
    })
}

/// The class (its teachers only) and its active pupils in the order of
/// their real names.
async fn class_and_pupils(
    hub: &Hub,
    me: &Identity,
    id: &str,
) -> Result<(ClassRow, Vec<PupilRow>), ApiError> {
    let class = classes::teaching(hub, me, id).await?;
    let mut pupils = hub.store.class_pupils(&class.id, false).await?;
    pupils.sort_by(|a, b| {
        crate::names::natural_key(&a.real_name)
            .cmp(&crate::names::natural_key(&b.real_name))
            .then_with(|| a.name.cmp(&b.name))
    });
    Ok((class, pupils))
}

/// The cards of `pupils`.
fn cards(class: &ClassRow, pupils: &[PupilRow], origin: &str) -> Result<Vec<Card>, ApiError> {
    pupils
        .iter()
        .map(|p| {
            let link = login_link(origin, &class.id, &p.name);
            Ok(Card {
                title: class.name.clone(),
                note: p.real_name.clone(),
                name: p.name.clone(),
                code: class.login_code.clone(),
                qr: qr_of(&link)?,
                link,
            })
        })
        .collect()
}

/// What both printouts start from: the class (its teacher asking), whether
/// the English words are wanted, those words and the pupils' cards.
async fn printout(
    hub: &Hub,
    me: &Identity,
    headers: &HeaderMap,
    p: Result<Path<String>, PathRejection>,
    q: Result<Query<CardsQuery>, QueryRejection>,
) -> Result<(ClassRow, bool, Words, Vec<Card>), ApiError> {
    let Path(id) = p?;
    let Query(q) = q?;
    let (class, pupils) = class_and_pupils(hub, me, &id).await?;
    let english = q.english();
    let cards = cards(&class, &pupils, &origin(headers)?)?;
    Ok((class, english, words(english), cards))
}

/// `GET /api/classes/{id}/cards.pdf`.
async fn cards_pdf(
    State(hub): State<Arc<Hub>>,
    me: Identity,
    headers: HeaderMap,
    p: Result<Path<String>, PathRejection>,
    q: Result<Query<CardsQuery>, QueryRejection>,
) -> ApiResult {
    let (_, english, w, cards) = printout(&hub, &me, &headers, p, q).await?;
    let bytes = pdf::login_cards(&cards, &w.texts);
    let file = if english { "cards" } else { "tarjetas" };
    Ok((
        [
            (header::CONTENT_TYPE, "application/pdf".to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("inline; filename=\"{file}.pdf\""),
            ),
            (header::CACHE_CONTROL, "no-store".to_string()),
        ],
        bytes,
    )
        .into_response())
}

/// A QR code as an SVG: one unit a module, a quiet zone of four, one path
/// of a rectangle per run of dark modules in a row.
pub fn qr_svg(qr: &QrModules, label: &str) -> String {
    let side = qr.size + 8;
    let mut d = String::new();
    for row in 0..qr.size {
        let mut col = 0;
        while col < qr.size {
            let dark = |c: usize| qr.dark.get(row * qr.size + c) == Some(&true);
            if !dark(col) {
                col += 1;
                continue;
            }
            let start = col;
            while col < qr.size && dark(col) {
                col += 1;
            }
            let _ = write!(
                d,
                "M{} {}h{}v1h-{}z",
                start + 4,
                row + 4,
                col - start,
                col - start
            );
        }
    }
    format!(
        "<svg class=\"qr\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {side} {side}\" \
         role=\"img\" aria-label=\"{}\" shape-rendering=\"crispEdges\">\
         <rect width=\"{side}\" height=\"{side}\" fill=\"#fff\"/>\
         <path fill=\"#000\" d=\"{d}\"/></svg>",
        escape(label)
    )
}

const PAGE_STYLE: &str = "\
*{box-sizing:border-box}\
body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;margin:0;padding:1rem;color:#111;background:#f4f4f0}\
header{max-width:60rem;margin:0 auto 1rem}\
h1{font-size:1.4rem;margin:.2rem 0}\
#cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(19rem,1fr));gap:.8rem;max-width:60rem;margin:0 auto}\
.card{background:#fff;border:1px dashed #888;padding:.7rem;display:grid;grid-template-columns:1fr 7.5rem;gap:.2rem .6rem;break-inside:avoid;page-break-inside:avoid}\
.card p{margin:0}\
.title{font-weight:700;font-size:.95rem}\
.note{color:#666;font-size:.75rem}\
.label{color:#555;font-size:.7rem;margin-top:.5rem!important}\
.name{font-weight:700;font-size:1rem;overflow-wrap:anywhere}\
.code{font-weight:700;font-size:1.7rem;letter-spacing:.12em}\
.hint{color:#555;font-size:.7rem;margin-top:.4rem!important}\
.qr{width:7.5rem;height:7.5rem;grid-column:2;grid-row:1 / span 2}\
.link{grid-column:1 / span 2;font-size:.72rem;word-break:break-all}\
.link a{color:#111}\
@media (max-width:26rem){.card{grid-template-columns:1fr 6.5rem}.qr{width:6.5rem;height:6.5rem}}\
@page{size:A4;margin:8mm}\
@media print{body{background:#fff;padding:0}.no-print{display:none}\
#cards{grid-template-columns:1fr 1fr;gap:0;max-width:none}\
.card{height:69mm;border-color:#999;overflow:hidden;grid-template-columns:1fr 36mm}.qr{width:36mm;height:36mm}}";

/// `GET /clases/{id}/tarjetas`.
async fn cards_page(
    State(hub): State<Arc<Hub>>,
    me: Identity,
    headers: HeaderMap,
    p: Result<Path<String>, PathRejection>,
    q: Result<Query<CardsQuery>, QueryRejection>,
) -> ApiResult {
    let (class, english, w, cards) = printout(&hub, &me, &headers, p, q).await?;
    let mut body = String::new();
    for c in &cards {
        let _ = writeln!(
            body,
            "<section class=\"card\" data-pupil=\"{name}\"><div class=\"txt\">\
             <p class=\"title\">{title}</p><p class=\"note\">{note}</p>\
             <p class=\"label\">{user}</p><p class=\"name\">{name}</p>\
             <p class=\"label\">{code_label}</p><p class=\"code\">{code}</p>\
             <p class=\"hint\">{hint}</p></div>{svg}\
             <p class=\"link\"><span class=\"label\">{link_label}:</span> \
             <a href=\"{link}\">{link}</a></p></section>",
            name = escape(&c.name),
            title = escape(&c.title),
            note = escape(&c.note),
            user = escape(&w.texts.user),
            code_label = escape(&w.texts.code),
            code = escape(&c.code),
            hint = escape(&w.texts.hint),
            svg = qr_svg(&c.qr, w.qr_label),
            link_label = escape(&w.texts.link),
            link = escape(&c.link),
        );
    }
    if cards.is_empty() {
        let _ = write!(body, "<p class=\"empty\">{}</p>", escape(&w.texts.empty));
    }
    let id = percent(&class.id);
    let lang_q = if english { "?lang=en" } else { "" };
    let other = if english { "" } else { "?lang=en" };
    let page = format!(
        "<!doctype html>\n<html lang=\"{lang}\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{title} · {class}</title><style>{PAGE_STYLE}</style></head><body>\
         <header class=\"no-print\"><h1>{title} · {class}</h1>\
         <p>{help} <a id=\"cards-pdf\" href=\"/api/classes/{id}/cards.pdf{lang_q}\">{pdf}</a>. \
         <a href=\"/clases/{id}\">← {back}</a> · \
         <a lang=\"{other_code}\" href=\"/clases/{id}/tarjetas{other}\">{other_name}</a></p>\
         </header><main id=\"cards\">\n{body}</main></body></html>\n",
        lang = w.lang,
        title = w.page_title,
        class = escape(&class.name),
        help = w.print_help,
        pdf = w.pdf,
        back = escape(&class.name),
        other_code = w.other_lang.0,
        other_name = w.other_lang.1,
    );
    Ok((
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-store"),
            // The server's own printout: no script runs in it.
            (
                header::CONTENT_SECURITY_POLICY,
                "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
            ),
        ],
        page,
    )
        .into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_are_percent_encoded() {
        assert_eq!(
            login_link("http://10.0.0.2:8080", "AbC123", "TortugaValiente47"),
            "http://10.0.0.2:8080/clase/AbC123/entrar?alumno=TortugaValiente47"
        );
        assert_eq!(
            login_link("http://h", "x", "Ñu&a b"),
            "http://h/clase/x/entrar?alumno=%C3%91u%26a%20b"
        );
    }

    #[test]
    fn real_names_sort_as_a_class_list() {
        let mut v = vec![
            "Alumno 10",
            "alumno 2",
            "Álvaro",
            "Alumno 1",
            "Beatriz",
            "alumno",
            "Obdulio",
            "Núñez",
            "Nuria",
            "Nuñez Ana",
        ];
        v.sort_by_key(|s| crate::names::natural_key(s));
        assert_eq!(
            v,
            [
                "alumno",
                "Alumno 1",
                "alumno 2",
                "Alumno 10",
                "Álvaro",
                "Beatriz",
                "Núñez",
                "Nuñez Ana",
                "Nuria",
                "Obdulio"
            ]
        );
    }

    #[test]
    fn the_svg_has_one_run_per_path_piece() {
        let qr = QrModules {
            size: 3,
            dark: vec![true, true, false, false, false, false, true, false, true],
        };
        let svg = qr_svg(&qr, "a \"b\"");
        assert!(
            svg.contains("d=\"M4 4h2v1h-2zM4 6h1v1h-1zM6 6h1v1h-1z\""),
            "{svg}"
        );
        assert!(svg.contains("viewBox=\"0 0 11 11\""));
        assert!(svg.contains("aria-label=\"a &quot;b&quot;\""));
    }
}
