//! Tournaments in a real browser (issue 24), with the WebDriver helpers of
//! `browser.rs`: an over-the-board Swiss of 22 players and 5 rounds run from
//! the organiser's desk (players entered one by one and pasted, a forbidden
//! pair, typed results, a correction, a withdrawal and a requested bye), each
//! round's pairing compared with the library's (`escaque_torneo`, the code of
//! `escaque torneo`) on the exported TRF, and the final standings of the
//! public page equal to the library's; names with markup shown as text.
//! Screenshots (desk, public page at desktop and phone size, printouts) go to
//! `target/screenshots/torneo-*.png`.

use std::path::Path;
use std::time::{Duration, Instant};

use escaque_torneo::{pairing, standings, trf, Outcome, Tournament};
use fantoccini::Client;
use serde_json::{json, Value};

use crate::browser::{
    browser, choose, click, click_move, fill, js, ready, runtime, shot, start_driver, start_server,
    until, wait_plies, R,
};

struct Env {
    base: String,
    org: Client,
    public: Client,
    /// The online players, each its own browser (cookies, identity).
    players: Vec<Client>,
}

/// One player as the organiser types them.
struct Entered {
    name: &'static str,
    club: &'static str,
    category: &'static str,
    birth: u16,
    rating: Option<u16>,
    fide: Option<u64>,
}

const fn p(
    name: &'static str,
    club: &'static str,
    category: &'static str,
    birth: u16,
    rating: Option<u16>,
    fide: Option<u64>,
) -> Entered {
    Entered {
        name,
        club,
        category,
        birth,
        rating,
        fide,
    }
}

/// Markup in a name: shown as text or the page is wrong.
const MARKUP: &str = "<img src=x onerror=pwned=1>Lucía";
const MARKUP2: &str = "<b>Mateo</b> & \"Hugo\"";

/// Entered one by one from the form (in no particular order of rating).
const ENTERED: [Entered; 20] = [
    p(
        "Ana Pérez",
        "Colegio San José",
        "Sub-12",
        2014,
        Some(1450),
        Some(2_212_345),
    ),
    p(
        "Bruno Gil",
        "Club Tucumán",
        "Sub-12",
        2014,
        Some(1712),
        None,
    ),
    p(MARKUP, "Colegio San José", "Sub-10", 2016, None, None),
    p(
        "Carla Ruiz",
        "Club Tucumán",
        "Sub-12",
        2013,
        Some(1630),
        None,
    ),
    p(
        "Diego Sosa",
        "Escuela Belgrano",
        "Sub-10",
        2016,
        Some(1210),
        None,
    ),
    p(
        "Elena Ríos",
        "Escuela Belgrano",
        "Sub-12",
        2013,
        Some(1555),
        None,
    ),
    p(
        "Facundo Ríos",
        "Escuela Belgrano",
        "Sub-10",
        2015,
        Some(1390),
        None,
    ),
    p(
        "Gabriela Luna",
        "Club Tucumán",
        "Sub-12",
        2013,
        Some(1801),
        Some(2_298_765),
    ),
    p(MARKUP2, "Colegio San José", "Sub-10", 2015, None, None),
    p(
        "Irene Paz",
        "Club Tucumán",
        "Sub-10",
        2016,
        Some(1333),
        None,
    ),
    p(
        "Joaquín Vera",
        "Colegio San José",
        "Sub-12",
        2014,
        Some(1520),
        None,
    ),
    p(
        "Karen Díaz",
        "Escuela Belgrano",
        "Sub-12",
        2013,
        Some(1688),
        None,
    ),
    p("Lautaro Sáenz", "Club Tucumán", "Sub-10", 2015, None, None),
    p(
        "Martina Costa",
        "Colegio San José",
        "Sub-12",
        2014,
        Some(1402),
        None,
    ),
    p(
        "Nicolás Ibáñez",
        "Escuela Belgrano",
        "Sub-10",
        2016,
        Some(1150),
        None,
    ),
    p(
        "Olivia Mena",
        "Club Tucumán",
        "Sub-12",
        2013,
        Some(1590),
        None,
    ),
    p(
        "Pablo Ortiz",
        "Colegio San José",
        "Sub-10",
        2015,
        Some(1275),
        None,
    ),
    p(
        "Renata Vidal",
        "Escuela Belgrano",
        "Sub-12",
        2014,
        Some(1477),
        None,
    ),
    p(
        "Santiago Blanco",
        "Club Tucumán",
        "Sub-10",
        2016,
        None,
        None,
    ),
    p(
        "Tomás Herrera",
        "Colegio San José",
        "Sub-12",
        2013,
        Some(1740),
        None,
    ),
];

/// Pasted as a list, one name a line.
const PASTED: [&str; 2] = ["Uriel Campos", "Valentina Sol"];

/// The two siblings who must not meet.
const SIBLINGS: [&str; 2] = ["Elena Ríos", "Facundo Ríos"];

/// The result typed on board `b` of round `r`.
fn typed_result(r: u32, b: u32) -> &'static str {
    if r == 2 && b == 4 {
        return "+-"; // Black did not come
    }
    match (b * 7 + r * 3) % 5 {
        0 => "½-½",
        1 | 3 => "1-0",
        _ => "0-1",
    }
}

async fn exported(org: &Client, id: &str) -> R<Tournament> {
    let (status, text) =
        crate::browser::fetch(org, "GET", &format!("/api/tournaments/{id}/trf"), None).await?;
    if status != 200 {
        return Err(format!("GET trf: {status} {text}"));
    }
    trf::parse(&text).map_err(|e| format!("the exported TRF does not read back: {e:?}\n{text}"))
}

/// The desk's boards of the round shown: `(board, white, black, result)` and
/// the byes `(player, kind)`.
async fn desk_round(c: &Client) -> R<(Vec<(u32, u32, u32, String)>, Vec<(u32, String)>)> {
    let v = js(
        c,
        "return {
           boards: [...document.querySelectorAll('#desk-boards tr[data-board]')].map(r =>
             [Number(r.dataset.board), Number(r.dataset.white), Number(r.dataset.black), r.dataset.result]),
           byes: [...document.querySelectorAll('#desk-boards tr[data-bye]')].map(r => [Number(r.dataset.bye), r.dataset.kind]),
         }",
    )
    .await?;
    let boards = v["boards"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|x| {
                    (
                        x[0].as_u64().unwrap_or(0) as u32,
                        x[1].as_u64().unwrap_or(0) as u32,
                        x[2].as_u64().unwrap_or(0) as u32,
                        x[3].as_str().unwrap_or("").to_string(),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    let byes = v["byes"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|x| {
                    (
                        x[0].as_u64().unwrap_or(0) as u32,
                        x[1].as_str().unwrap_or("").to_string(),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    Ok((boards, byes))
}

/// The library pairs round `r` of the exported tournament (cut back to the
/// rounds before it) exactly as the desk shows it.
fn same_as_library(
    t: &Tournament,
    r: u32,
    page: &[(u32, u32, u32, String)],
    byes: &[(u32, String)],
) -> R {
    if t.rounds.len() as u32 != r {
        return Err(format!(
            "the TRF has {} rounds, the desk shows round {r}",
            t.rounds.len()
        ));
    }
    let mut before = t.clone();
    before.rounds.truncate(r as usize - 1);
    let lib = pairing::next_round(&before)
        .map_err(|e| format!("the library does not pair round {r}: {e:?}"))?;
    let lib_games: Vec<(u32, u32)> = lib.games.iter().map(|g| (g.white, g.black)).collect();
    let page_games: Vec<(u32, u32)> = page.iter().map(|b| (b.1, b.2)).collect();
    if lib_games != page_games {
        return Err(format!(
            "round {r}: the desk pairs {page_games:?}, the library {lib_games:?}"
        ));
    }
    let stored: Vec<(u32, u32)> = t.rounds[r as usize - 1]
        .games
        .iter()
        .map(|g| (g.white, g.black))
        .collect();
    if stored != page_games {
        return Err(format!(
            "round {r}: the desk shows {page_games:?}, the TRF holds {stored:?}"
        ));
    }
    let mut lib_byes: Vec<u32> = lib.byes.iter().map(|b| b.0).collect();
    let mut page_byes: Vec<u32> = byes.iter().map(|b| b.0).collect();
    lib_byes.sort_unstable();
    page_byes.sort_unstable();
    if lib_byes != page_byes {
        return Err(format!(
            "round {r}: byes on the desk {page_byes:?}, the library's {lib_byes:?}"
        ));
    }
    Ok(())
}

/// Types a result on the desk and waits until the server's view shows it.
async fn type_result(c: &Client, b: u32, result: &str) -> R {
    let sel = format!("#desk-boards tr[data-board='{b}'] select.result");
    choose(c, &sel, result).await?;
    until(
        c,
        &format!("board {b}: {result}"),
        &format!("(document.querySelector(\"#desk-boards tr[data-board='{b}']\") || {{dataset: {{}}}}).dataset.result === '{result}'"),
    )
    .await
    .map(|_| ())
}

async fn player_number(c: &Client, name: &str) -> R<u32> {
    let v = js(
        c,
        &format!(
            "const r = [...document.querySelectorAll('#desk-players-table tr[data-number]')].find(r => r.querySelector('td.name').textContent === {});
             return r ? Number(r.dataset.number) : 0",
            json!(name)
        ),
    )
    .await?;
    match v.as_u64() {
        Some(n) if n > 0 => Ok(n as u32),
        _ => Err(format!("{name} is not on the desk")),
    }
}

async fn otb_tournament(env: &Env) -> R {
    let c = &env.org;
    ready(c, &format!("{}/torneos", env.base)).await?;
    fill(c, "#tn-name", "Abierto escolar <i>Tucumán</i>").await?;
    choose(c, "#tn-system", "dutch").await?;
    fill(c, "#tn-rounds", "5").await?;
    choose(c, "#tn-mode", "otb").await?;
    fill(c, "#tn-tc", "30+10").await?;
    click(c, "#tn-create-go").await?;
    until(c, "the desk", "/^\\/torneos\\/[^/]+\\/organizar$/.test(location.pathname) && document.body.dataset.ready === '1' && document.querySelector('#add-player')").await?;
    let id = js(c, "return location.pathname.split('/')[2]").await?;
    let id = id.as_str().unwrap_or_default().to_string();
    shot(c, "torneo-desk-empty.png").await?;

    // Players, one by one.
    for (i, e) in ENTERED.iter().enumerate() {
        let last = i + 1 == ENTERED.len();
        if last {
            // The last one's answer is slow (held 1.5 s in the page): the
            // organiser starts typing the next name meanwhile, and the
            // answer must not wipe it.
            js(
                c,
                "const f = window.fetch;
                 window.fetch = async (url, opts) => {
                   const r = await f(url, opts);
                   if (opts && opts.method === 'POST' && String(url).endsWith('/players')) {
                     await new Promise((ok) => setTimeout(ok, 1500));
                   }
                   return r;
                 };",
            )
            .await?;
        }
        fill(c, "#p-name", e.name).await?;
        fill(c, "#p-club", e.club).await?;
        fill(c, "#p-category", e.category).await?;
        fill(c, "#p-birth", &e.birth.to_string()).await?;
        fill(
            c,
            "#p-rating",
            &e.rating.map(|r| r.to_string()).unwrap_or_default(),
        )
        .await?;
        fill(
            c,
            "#p-fide",
            &e.fide.map(|r| r.to_string()).unwrap_or_default(),
        )
        .await?;
        click(c, "#add-go").await?;
        if last {
            fill(c, "#p-name", "Siguiente").await?;
            until(
                c,
                "the slow answer",
                &format!(
                    "document.querySelector('#added').textContent.includes('{}')",
                    i + 1
                ),
            )
            .await?;
            let typed = js(c, "return document.querySelector('#p-name').value").await?;
            if typed != json!("Siguiente") {
                return Err(format!("the name typed meanwhile became {typed}"));
            }
            fill(c, "#p-name", "").await?;
        }
        until(
            c,
            &format!("player {} listed", i + 1),
            &format!(
                "document.querySelectorAll('#desk-players-table tr[data-number]').length === {}",
                i + 1
            ),
        )
        .await?;
    }
    // Two more, pasted.
    click(c, "#paste summary").await?;
    choose(c, "#paste-format", "list").await?;
    fill(c, "#paste-text", &PASTED.join("\n")).await?;
    click(c, "#paste-go").await?;
    let total = ENTERED.len() + PASTED.len();
    until(
        c,
        "the pasted players listed",
        &format!(
            "document.querySelectorAll('#desk-players-table tr[data-number]').length === {total}"
        ),
    )
    .await?;
    // The siblings must not meet.
    until(
        c,
        "every player in the forbidden-pair list",
        &format!("document.querySelectorAll('#forbid-form input.forbid').length === {total}"),
    )
    .await?;
    let script = format!(
        "const names = {};
         let n = 0;
         for (const l of document.querySelectorAll('#forbid-form label')) {{
           if (names.some(x => l.textContent.endsWith('. ' + x))) {{ l.querySelector('input').checked = true; n += 1; }}
         }}
         return n",
        json!(SIBLINGS)
    );
    if js(c, &script).await?.as_u64() != Some(2) {
        return Err("the siblings are not both in the forbidden-pair list".into());
    }
    click(c, "#forbid-go").await?;
    let t = {
        let t0 = Instant::now();
        loop {
            let t = exported(&env.org, &id).await?;
            if !t.forbidden.is_empty() || t0.elapsed() > Duration::from_secs(10) {
                break t;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    };
    if t.forbidden.len() != 1 || t.forbidden[0].players.len() != 2 {
        return Err(format!(
            "the forbidden pair is not stored: {:?}",
            t.forbidden
        ));
    }
    if t.players.len() != total {
        return Err(format!(
            "{} players stored, {total} entered",
            t.players.len()
        ));
    }
    for e in &ENTERED {
        let Some(s) = t.players.iter().find(|x| x.name == e.name) else {
            return Err(format!("{} is not in the TRF", e.name));
        };
        if s.rating != e.rating
            || s.club != e.club
            || s.category != e.category
            || s.birth_year != Some(e.birth)
            || s.fide_id != e.fide
        {
            return Err(format!("{} is stored as {s:?}", e.name));
        }
    }

    let public = &env.public;
    let mut corrected = None;
    for r in 1..=5u32 {
        if r == 4 {
            // A withdrawal before round 4 and a half-point bye asked for round 5.
            js(c, "window.confirm = () => true; return 1").await?;
            let gone = player_number(c, "Lautaro Sáenz").await?;
            click(
                c,
                &format!("#desk-players-table tr[data-number='{gone}'] button.withdraw"),
            )
            .await?;
            until(
                c,
                "the withdrawal shown",
                &format!("document.querySelector(\"#desk-players-table tr[data-number='{gone}']\").classList.contains('withdrawn')"),
            )
            .await?;
            let resting = player_number(c, "Irene Paz").await?;
            let row = format!("#desk-players-table tr[data-number='{resting}']");
            choose(c, &format!("{row} select.bye-round"), "5").await?;
            choose(c, &format!("{row} select.bye-kind"), "half").await?;
            click(c, &format!("{row} button.bye")).await?;
            let t0 = Instant::now();
            loop {
                let t = exported(&env.org, &id).await?;
                let p = &t.players[resting as usize - 1];
                if p.half_byes.contains(&5) {
                    break;
                }
                if t0.elapsed() > Duration::from_secs(10) {
                    return Err(format!("the bye for round 5 is not stored: {p:?}"));
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
        click(c, "#pair-next").await?;
        until(
            c,
            &format!("round {r} paired"),
            &format!(
                "document.body.dataset.tnRound === '{r}' && document.querySelector('#desk-boards')"
            ),
        )
        .await?;
        let (boards, byes) = desk_round(c).await?;
        let t = exported(&env.org, &id).await?;
        same_as_library(&t, r, &boards, &byes)?;
        for (b, w, k, _) in &boards {
            if t.forbidden_pairing(*w, *k, r) {
                return Err(format!(
                    "round {r} board {b}: the siblings {w} and {k} meet"
                ));
            }
        }
        if r == 1 {
            // The public page follows by itself (no reload) once open.
            ready(public, &format!("{}/torneos/{id}", env.base)).await?;
        }
        until(public, &format!("round {r} on the public page"), &format!("document.body.dataset.tnRound === '{r}' && document.querySelectorAll('#pairings tr[data-board]').length === {}", boards.len())).await?;
        if r == 1 {
            shot(c, "torneo-desk-round1.png").await?;
            shot(public, "torneo-public-pairings.png").await?;
        }
        for (b, ..) in &boards {
            type_result(c, *b, typed_result(r, *b)).await?;
        }
        until(
            c,
            "the round complete",
            "document.body.dataset.tnComplete === '1'",
        )
        .await?;
        if r == 3 {
            // A correction: round 2, board 1 was typed wrong.
            choose(c, "#desk-round-select", "2").await?;
            until(c, "round 2 shown", "document.querySelector('#desk-round-select').value === '2' && document.querySelector(\"#desk-boards tr[data-board='1']\")").await?;
            let old = typed_result(2, 1);
            let new = if old == "1-0" { "0-1" } else { "1-0" };
            type_result(c, 1, new).await?;
            let t = exported(&env.org, &id).await?;
            let g = &t.rounds[1].games[0];
            let want = Outcome::parse(new).map_err(|e| format!("{e:?}"))?;
            if g.outcome != want {
                return Err(format!("the correction is not stored: {:?}", g.outcome));
            }
            corrected = Some((g.white, g.black));
            choose(c, "#desk-round-select", "3").await?;
        }
    }
    if corrected.is_none() {
        return Err("no correction made".into());
    }
    until(
        c,
        "the tournament over",
        "document.querySelector('#pair-next') === null",
    )
    .await?;
    shot(c, "torneo-desk-final.png").await?;

    // Final standings on the public page equal the library's.
    let t = exported(&env.org, &id).await?;
    let lib = standings::compute(&t);
    click(public, "#tab-standings").await?;
    until(
        public,
        "the standings",
        "document.querySelectorAll('#standings tr[data-number]').length > 0",
    )
    .await?;
    let page = js(
        public,
        "return [...document.querySelectorAll('#standings tr[data-number]')].map(r => [Number(r.cells[0].textContent), Number(r.dataset.number), r.querySelector('td.pts').textContent])",
    )
    .await?;
    let page: Vec<(u32, u32, String)> = page
        .as_array()
        .map(|a| {
            a.iter()
                .map(|x| {
                    (
                        x[0].as_u64().unwrap_or(0) as u32,
                        x[1].as_u64().unwrap_or(0) as u32,
                        x[2].as_str().unwrap_or("").to_string(),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    let want: Vec<(u32, u32, String)> = lib
        .iter()
        .map(|s| (s.rank, s.player, escaque_torneo::format_points(s.points)))
        .collect();
    if page != want {
        return Err(format!(
            "standings: the page shows {page:?}, the library {want:?}"
        ));
    }
    let heading = crate::browser::text(public, "#standings-title").await?;
    if heading != "Clasificación tras la ronda 5" {
        return Err(format!("standings heading: {heading}"));
    }
    // Names with markup are text on every tab, and run nothing.
    for tab in [
        "pairings",
        "standings",
        "crosstable",
        "categories",
        "teams",
        "rating",
    ] {
        click(public, &format!("#tab-{tab}")).await?;
        let bad = js(
            public,
            "return !!document.querySelector('main img, main b, main i') || !!window.pwned",
        )
        .await?;
        if bad.as_bool() != Some(false) {
            return Err(format!("markup from a name was run on the tab {tab}"));
        }
        if tab == "crosstable" || tab == "standings" {
            let txt = crate::browser::text(public, "#tn-body").await?;
            if !txt.contains(MARKUP) || !txt.contains(MARKUP2) {
                return Err(format!(
                    "the names with markup are not shown as text on {tab}"
                ));
            }
        }
        shot(public, &format!("torneo-public-{tab}.png")).await?;
    }
    let title = crate::browser::text(public, "#tn-title").await?;
    if title != "Abierto escolar <i>Tucumán</i>" {
        return Err(format!("title shown as {title}"));
    }
    // Projector type, then a phone.
    click(public, "#tab-standings").await?;
    click(public, "#big").await?;
    shot(public, "torneo-public-projector.png").await?;
    click(public, "#big").await?;
    public
        .set_window_size(390, 844)
        .await
        .map_err(|e| e.to_string())?;
    click(public, "#tab-pairings").await?;
    shot(public, "torneo-phone-pairings.png").await?;
    click(public, "#tab-standings").await?;
    shot(public, "torneo-phone-standings.png").await?;
    let overflow = js(
        public,
        "return document.documentElement.scrollWidth - window.innerWidth",
    )
    .await?;
    public
        .set_window_size(1280, 900)
        .await
        .map_err(|e| e.to_string())?;
    if overflow.as_f64().unwrap_or(0.0) > 1.0 {
        return Err(format!("the phone page scrolls sideways by {overflow} px"));
    }
    // In English, by the language switch.
    ready(
        public,
        &format!("{}/torneos/{id}?ver=standings&lang=en", env.base),
    )
    .await?;
    until(
        public,
        "the English standings",
        "document.querySelector('#standings-title') && document.querySelector('#standings-title').textContent === 'Standings after round 5' && document.querySelector('#tab-crosstable').textContent === 'Cross-table'",
    )
    .await?;
    shot(public, "torneo-public-en.png").await?;
    ready(public, &format!("{}/torneos/{id}?lang=es", env.base)).await?;
    // Printouts, looked at.
    ready(c, &format!("{}/torneos/{id}/organizar", env.base)).await?;
    for (sel, name) in [
        ("#print-pairings", "torneo-print-pairings.png"),
        ("#print-standings", "torneo-print-standings.png"),
    ] {
        let href = js(
            c,
            &format!("return document.querySelector('{sel}').getAttribute('href')"),
        )
        .await?;
        let href = href.as_str().unwrap_or_default().to_string();
        c.goto(&format!("{}{href}", env.base))
            .await
            .map_err(|e| e.to_string())?;
        let body = js(c, "return document.body ? document.body.innerText : ''").await?;
        if !body.as_str().unwrap_or("").contains("Lucía") {
            return Err(format!("{href} does not name the players"));
        }
        shot(c, name).await?;
        ready(c, &format!("{}/torneos/{id}/organizar", env.base)).await?;
    }
    let pdf = js(
        c,
        "return document.querySelector('#pdf-pairings').getAttribute('href')",
    )
    .await?;
    let (status, body) =
        crate::browser::fetch(c, "GET", pdf.as_str().unwrap_or_default(), None).await?;
    if status != 200 || !body.starts_with("%PDF") || !body.contains("/MediaBox [0 0 595 842]") {
        return Err(format!(
            "the PDF pairings on A4: {status} {}",
            body.chars().take(80).collect::<String>()
        ));
    }
    // The organiser picks Letter: every printout's link asks for it, and
    // the PDF comes on Letter (issue 64).
    js(
        c,
        "const s = document.querySelector('#print-paper'); s.value = 'letter'; s.dispatchEvent(new Event('change')); return true;",
    )
    .await?;
    until(
        c,
        "the links on Letter",
        "[...document.querySelectorAll('#desk-print a[target]')].every((a) => a.getAttribute('href').endsWith('?paper=letter'))",
    )
    .await?;
    let pdf = js(
        c,
        "return document.querySelector('#pdf-standings').getAttribute('href')",
    )
    .await?;
    let (status, body) =
        crate::browser::fetch(c, "GET", pdf.as_str().unwrap_or_default(), None).await?;
    if status != 200 || !body.contains("/MediaBox [0 0 612 792]") {
        return Err(format!("the PDF standings on Letter: {status}"));
    }
    Ok(())
}

/// The public page of a tournament a stranger opens: no desk, and the desk
/// says so; a stranger's request to pair is refused.
async fn stranger(env: &Env, id: &str) -> R {
    let s = &env.public;
    ready(s, &format!("{}/torneos/{id}/organizar", env.base)).await?;
    until(s, "the refusal", "document.querySelector('#not-organiser')").await?;
    let (status, _) = crate::browser::fetch(
        s,
        "POST",
        &format!("/api/tournaments/{id}/rounds"),
        Some(json!({})),
    )
    .await?;
    if status != 403 {
        return Err(format!("a stranger pairing a round got {status}"));
    }
    Ok(())
}

// ------------------------------------------------------------------ online

/// The online players' guest names; the last joins late.
const ONLINE: [&str; 7] = [
    "Aitana",
    "Bautista",
    "<b>Pía</b>",
    "Dante",
    "Emma",
    "Fermín",
    "Gael (tarde)",
];
/// Who leaves after round 1.
const LEAVER: usize = 5;
/// Who joins after round 1 is paired.
const LATE: usize = 6;
/// Seconds a player may take for their first move. The boards of a round are
/// opened together (see [`open_all`]); the margin is for a slow machine (a CI
/// run once lost a first move to a 20 s wait).
const NO_SHOW_S: u64 = 30;

/// Where a player's browser is: their game's id and colour, once the page
/// took them there.
async fn at_game(c: &Client, round: u32, not: &[String]) -> R<(String, String)> {
    let not = json!(not);
    let v = until(
        c,
        &format!("taken to a game of round {round}"),
        &format!(
            "location.pathname.startsWith('/partida/') && !{not}.includes(location.pathname.split('/')[2]) && document.body.dataset.ready === '1' && window.escaqueBoard && document.body.dataset.connected === '1' && !document.querySelector('#move-form').hidden && [location.pathname.split('/')[2], window.escaqueBoard.state.orientation]"
        ),
    )
    .await?;
    Ok((
        v[0].as_str().unwrap_or_default().to_string(),
        v[1].as_str().unwrap_or_default().to_string(),
    ))
}

/// One game of a round as the players' browsers see it.
struct Board {
    game: String,
    white: usize,
    black: usize,
}

/// Each playing browser taken to its game; the games paired up by id.
async fn boards_of_round(
    env: &Env,
    round: u32,
    playing: &[usize],
    seen: &[String],
) -> R<Vec<Board>> {
    let mut at = Vec::new();
    for &i in playing {
        let (g, colour) = at_game(&env.players[i], round, seen).await?;
        at.push((i, g, colour));
    }
    let mut boards: Vec<Board> = Vec::new();
    for (i, g, colour) in &at {
        let b = match boards.iter_mut().find(|b| &b.game == g) {
            Some(b) => b,
            None => {
                boards.push(Board {
                    game: g.clone(),
                    white: usize::MAX,
                    black: usize::MAX,
                });
                boards.last_mut().expect("pushed")
            }
        };
        if colour == "white" {
            b.white = *i;
        } else {
            b.black = *i;
        }
    }
    for b in &boards {
        if b.white == usize::MAX || b.black == usize::MAX {
            return Err(format!(
                "round {round}: game {} has one player only",
                b.game
            ));
        }
    }
    Ok(boards)
}

/// Both sides' first moves (inside the no-show wait), by clicks on the board.
async fn open_game(env: &Env, b: &Board, black_first: &str) -> R {
    let (w, k) = (&env.players[b.white], &env.players[b.black]);
    click_move(w, "e2", "e4").await?;
    wait_plies(k, 1).await?;
    let (from, to) = black_first.split_at(2);
    click_move(k, from, to).await?;
    wait_plies(w, 2).await
}

/// Every board of a round opened at once, as the players in a hall would: the
/// no-show clock runs for all of them from the pairing, so opening them one
/// after the other would spend one board's margin on the others.
async fn open_all(env: &Env, boards: &[Board], black_first: &str) -> R {
    let results =
        futures_util::future::join_all(boards.iter().map(|b| open_game(env, b, black_first))).await;
    results.into_iter().collect()
}

const GAME_OVER: &str = "!document.querySelector('#end-message').hidden";

/// Finishes an opened game (1. e4 and Black's first move played) as `how`:
/// `mate` (1. e4 g5 2. d4 f6?? 3. Qh5#, 1-0), `resign` (Black resigns, 1-0)
/// or `draw` (agreed, ½-½).
async fn finish_game(env: &Env, b: &Board, how: &str) -> R {
    let (w, k) = (&env.players[b.white], &env.players[b.black]);
    match how {
        "mate" => {
            click_move(w, "d2", "d4").await?;
            wait_plies(k, 3).await?;
            click_move(k, "f7", "f6").await?;
            wait_plies(w, 4).await?;
            click_move(w, "d1", "h5").await?;
        }
        "resign" => {
            js(k, "window.confirm = () => true; return 1").await?;
            click(k, "#resign").await?;
        }
        _ => {
            click(w, "#offer-draw").await?;
            click(k, "#accept-draw").await?;
        }
    }
    until(w, "the game over (White)", GAME_OVER).await?;
    until(k, "the game over (Black)", GAME_OVER).await?;
    Ok(())
}

async fn online_swiss(env: &Env) -> R {
    let o = &env.org;
    ready(o, &format!("{}/torneos", env.base)).await?;
    fill(o, "#tn-name", "Suizo en línea del colegio").await?;
    fill(o, "#tn-rounds", "3").await?;
    choose(o, "#tn-mode", "online").await?;
    fill(o, "#tn-tc", "5+0").await?;
    fill(o, "#tn-delay", "3").await?;
    fill(o, "#tn-noshow", &NO_SHOW_S.to_string()).await?;
    fill(o, "#tn-regs", "2").await?;
    choose(o, "#tn-late", "half").await?;
    shot(o, "torneo-online-create.png").await?;
    click(o, "#tn-create-go").await?;
    until(o, "the desk", "/^\\/torneos\\/[^/]+\\/organizar$/.test(location.pathname) && document.body.dataset.ready === '1' && document.querySelector('#pair-next')").await?;
    let id = js(o, "return location.pathname.split('/')[2]").await?;
    let id = id.as_str().unwrap_or_default().to_string();
    let page = format!("{}/torneos/{id}", env.base);

    // Six join and answer the roll call; the seventh comes later.
    for (i, name) in ONLINE.iter().enumerate().take(LATE) {
        let c = &env.players[i];
        ready(c, &page).await?;
        fill(c, "#join-name", name).await?;
        click(c, "#join").await?;
        click(c, "#present").await?;
        until(c, "present", "document.querySelector('#is-present')").await?;
    }
    env.players[0]
        .set_window_size(390, 844)
        .await
        .map_err(|e| e.to_string())?;
    shot(&env.players[0], "torneo-online-phone-registered.png").await?;
    ready(o, &format!("{page}/organizar")).await?;
    until(
        o,
        "six players on the desk",
        "document.querySelectorAll('#desk-players-table tr[data-number]').length === 6",
    )
    .await?;
    shot(o, "torneo-online-desk.png").await?;

    // Round 1, paired by the organiser; everybody is taken to their game.
    click(o, "#pair-next").await?;
    let mut seen: Vec<String> = Vec::new();
    let r1 = boards_of_round(env, 1, &[0, 1, 2, 3, 4, 5], &seen).await?;
    if r1.len() != 3 {
        return Err(format!("round 1 has {} games", r1.len()));
    }
    shot(&env.players[0], "torneo-online-phone-game.png").await?;
    env.players[0]
        .set_window_size(1280, 900)
        .await
        .map_err(|e| e.to_string())?;
    open_all(env, &r1, "g7g5").await?;
    // The organiser's grid of boards.
    ready(o, &format!("{page}/tableros")).await?;
    until(
        o,
        "three boards in the grid",
        "document.querySelectorAll('#grid .board-cell').length === 3",
    )
    .await?;
    // Each small board follows its game live: 1. e4 is on every one.
    until(
        o,
        "every game's moves on the grid",
        "[...document.querySelectorAll('#grid .board-cell')].every(c => c.dataset.game && [...c.querySelectorAll('piece')].some(p => p.cgKey === 'e4'))",
    )
    .await?;
    // The organiser gives White a minute on the last board.
    let clock_s = "(() => { const t = document.querySelector(\"#grid .board-cell[data-board='3'] .mini-clock.white\").textContent.split(':'); return Number(t[0]) * 60 + Number(t[1]); })()";
    until(o, "the clock shown", &format!("{clock_s} > 0")).await?;
    click(o, "#grid .board-cell[data-board='3'] button.add-white").await?;
    until(o, "a minute more for White", &format!("{clock_s} > 300")).await?;
    // The leaver's game ends first; they leave; the late joiner joins.
    let leaver = r1
        .iter()
        .position(|b| b.white == LEAVER || b.black == LEAVER)
        .unwrap_or(0);
    let order: Vec<usize> = std::iter::once(leaver)
        .chain((0..3).filter(|&i| i != leaver))
        .collect();
    for (k, &bi) in order.iter().enumerate() {
        finish_game(env, &r1[bi], ["mate", "resign", "draw"][k]).await?;
        if k == 0 {
            shot(o, "torneo-online-grid.png").await?;
            let c = &env.players[LEAVER];
            ready(c, &page).await?;
            js(c, "window.confirm = () => true; return 1").await?;
            click(c, "#leave").await?;
            until(c, "withdrawn", "document.querySelector('#left')").await?;
            let late = &env.players[LATE];
            ready(late, &page).await?;
            fill(late, "#join-name", ONLINE[LATE]).await?;
            click(late, "#join").await?;
            until(late, "joined", "document.querySelector('#you-are')").await?;
        }
    }
    seen.extend(r1.iter().map(|b| b.game.clone()));

    // Round 2, paired by itself after the countdown; one player never moves.
    let playing: Vec<usize> = (0..ONLINE.len()).filter(|&i| i != LEAVER).collect();
    let r2 = boards_of_round(env, 2, &playing, &seen).await?;
    if r2.len() != 3 {
        return Err(format!("round 2 has {} games", r2.len()));
    }
    let absent = &r2[0];
    open_all(env, &r2[1..], "e7e5").await?;
    for (k, b) in r2[1..].iter().enumerate() {
        finish_game(env, b, ["resign", "draw"][k]).await?;
    }
    // White on the first board never moves: lost by forfeit after the wait.
    let t0 = Instant::now();
    until_long(
        &env.players[absent.black],
        "the no-show forfeit",
        GAME_OVER,
        Duration::from_secs(NO_SHOW_S + 20),
    )
    .await?;
    eprintln!("no-show forfeit after {:.1} s", t0.elapsed().as_secs_f64());
    seen.extend(r2.iter().map(|b| b.game.clone()));

    // Round 3, the same way, every game played.
    let r3 = boards_of_round(env, 3, &playing, &seen).await?;
    open_all(env, &r3, "g7g5").await?;
    for (k, b) in r3.iter().enumerate() {
        finish_game(env, b, ["mate", "draw", "resign"][k % 3]).await?;
    }

    // The final standings: the public page's equal the library's from the
    // exported TRF.
    let v = &env.players[0];
    ready(v, &format!("{page}?ver=standings")).await?;
    until(v, "the final standings", "document.querySelector('#standings-title') && document.querySelector('#standings-title').textContent === 'Clasificación tras la ronda 3'").await?;
    let t = exported(o, &id).await?;
    let lib = standings::compute(&t);
    let shown = js(v, "return [...document.querySelectorAll('#standings tr[data-number]')].map(r => [Number(r.cells[0].textContent), Number(r.dataset.number), r.querySelector('td.pts').textContent])").await?;
    let want: Vec<Value> = lib
        .iter()
        .map(|s| json!([s.rank, s.player, escaque_torneo::format_points(s.points)]))
        .collect();
    if shown != json!(want) {
        return Err(format!(
            "final standings: the page {shown}, the library {}",
            json!(want)
        ));
    }
    // The TRF holds what happened: the leaver withdrawn from round 2, the
    // late joiner's half-point bye in round 1, the no-show's forfeit.
    let num = |name: &str| {
        t.players
            .iter()
            .position(|p| p.name == name)
            .map(|i| i as u32 + 1)
    };
    let leaver_n = num(ONLINE[LEAVER]).ok_or("the leaver is not in the TRF")?;
    if t.players[leaver_n as usize - 1].withdrawn_from != Some(2) {
        return Err(format!(
            "the leaver: {:?}",
            t.players[leaver_n as usize - 1]
        ));
    }
    let late_n = num(ONLINE[LATE]).ok_or("the late joiner is not in the TRF")?;
    if !matches!(
        t.entry(late_n, 1),
        escaque_torneo::Entry::Bye(escaque_torneo::ByeKind::Half)
    ) {
        return Err(format!(
            "the late joiner's round 1: {:?}",
            t.entry(late_n, 1)
        ));
    }
    let forfeits = t.rounds[1]
        .games
        .iter()
        .filter(|g| g.outcome == Outcome::BlackForfeitWin)
        .count();
    if forfeits != 1 {
        return Err(format!(
            "round 2 has {forfeits} forfeits: {:?}",
            t.rounds[1].games
        ));
    }
    let markup = js(v, "return !document.querySelector('main b') && document.querySelector('#tn-body').textContent.includes('<b>Pía</b>')").await?;
    if markup.as_bool() != Some(true) {
        return Err("the name with markup is not shown as text".into());
    }
    shot(v, "torneo-online-final.png").await?;
    Ok(())
}

/// [`until`] with a longer wait (polled in its steps).
async fn until_long(c: &Client, what: &str, expr: &str, limit: Duration) -> R {
    let t0 = Instant::now();
    loop {
        match until(c, what, expr).await {
            Ok(_) => return Ok(()),
            Err(e) if t0.elapsed() > limit => return Err(e),
            Err(_) => {}
        }
    }
}

async fn timed(name: &str, limit: u64, fut: impl std::future::Future<Output = R>) -> R {
    let t0 = Instant::now();
    eprintln!("{name:<24} …");
    let r = tokio::time::timeout(Duration::from_secs(limit), fut)
        .await
        .unwrap_or_else(|_| Err(format!("took more than {limit} s")));
    eprintln!(
        "{name:<24} {} ({:.1} s)",
        if r.is_ok() { "ok" } else { "FAILED" },
        t0.elapsed().as_secs_f64()
    );
    r
}

#[test]
fn tournament_pages() {
    let (_driver, port) = start_driver();
    let rt = runtime();
    rt.block_on(async move {
        let (server, dir) = start_server("escaque-torneo-web", 5000.0).await;
        let base = format!("http://{}", server.addr);
        let downloads = dir.join("downloads");
        let org = browser(port, "es", &downloads.join("org")).await;
        let public = browser(port, "es", &downloads.join("public")).await;
        let mut players = Vec::new();
        for (i, _) in ONLINE.iter().enumerate() {
            players.push(browser(port, "es", &downloads.join(format!("p{i}"))).await);
        }
        let env = Env {
            base,
            org,
            public,
            players,
        };
        let mut failures = Vec::new();
        if let Err(e) = timed("otb_tournament", 420, otb_tournament(&env)).await {
            let _ = shot(&env.org, "failed-torneo-otb-org.png").await;
            let _ = shot(&env.public, "failed-torneo-otb-public.png").await;
            failures.push(format!("otb_tournament: {e}"));
        } else if let Ok(id) = js(&env.public, "return location.pathname.split('/')[2]").await {
            if let Err(e) = timed(
                "stranger",
                60,
                stranger(&env, id.as_str().unwrap_or_default()),
            )
            .await
            {
                failures.push(format!("stranger: {e}"));
            }
        }
        if let Err(e) = timed("online_swiss", 480, online_swiss(&env)).await {
            let _ = shot(&env.org, "failed-torneo-online-org.png").await;
            for (i, c) in env.players.iter().enumerate() {
                let _ = shot(c, &format!("failed-torneo-online-p{i}.png")).await;
            }
            failures.push(format!("online_swiss: {e}"));
        }
        for c in [env.org, env.public].into_iter().chain(env.players) {
            let _ = c.close().await;
        }
        let _ = std::fs::remove_dir_all(&dir);
        let _ = Path::new(&dir);
        assert!(
            failures.is_empty(),
            "tournament pages failed:\n{}",
            failures.join("\n")
        );
    });
}
