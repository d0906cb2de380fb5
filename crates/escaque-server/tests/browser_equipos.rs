//! The team tournament desk in a real browser (issue 59, teams): an
//! organiser creates a 3-round team Swiss (FIDE C.04.6, 4 boards, school
//! rules: two teams per school, one `F` player in every roster) on
//! `/equipos` and enters six teams with their rosters typed into the
//! roster field; a roster without its `F` player and a third team of a
//! full school are refused on the page. One click keeps the teams of each
//! school apart (forbidden pairs): no round pairs two of them.
//! Every round is paired with the button; in round 1 a line-up out of the
//! roster's order is refused on the page with the library's Spanish words
//! (nothing changed), and a line-up in order that leaves out the fourth
//! player is saved; every board's result is chosen in its select; in
//! round 2 one match is forfeited whole by the button; in round 3 two
//! phones (the match's QR code, `POST /api/equipos/codigo/{code}`) enter
//! one board in conflict and one confirmed: the desk lists the conflict
//! first, and the organiser decides it in that list. At the end the
//! standings on the page (rank, team, match and game points, every
//! tie-break) equal the API's, the school ranking is shown, the printouts'
//! links answer PDFs and the round's QR page opens. Screenshots
//! `target/screenshots/equipos-*.png` at 1280 × 800 and 390 × 844 (the
//! phone's must not scroll sideways). A second test: an online team
//! Swiss's round page links each board to its server game.

use fantoccini::{Client, Locator};
use serde_json::{json, Value};

use crate::browser::{choose, click, fetch, js, one_browser, phone, ready, shot, until, R};

/// A roster member: name, rating and category.
type Member = (&'static str, u16, &'static str);

/// Six teams of five (two per school), each roster with one `F` player.
/// Ratings decide the roster's order (none is fixed).
const TEAMS: [(&str, &str, [Member; 5]); 6] = [
    (
        "Colegio Norte A",
        "Colegio Norte",
        [
            ("Ana Ruiz", 1910, "F"),
            ("Luis Gil", 1850, ""),
            ("Pablo Díaz", 1790, ""),
            ("Iker Sanz", 1700, ""),
            ("Marta Cano", 1650, ""),
        ],
    ),
    (
        "Colegio Norte B",
        "Colegio Norte",
        [
            ("Sara Vega", 1600, "F"),
            ("Hugo Mora", 1580, ""),
            ("Leo Ramos", 1540, ""),
            ("Dani Peña", 1500, ""),
            ("Rita Soto", 1450, ""),
        ],
    ),
    (
        "Instituto Sur A",
        "Instituto Sur",
        [
            ("Eva Ortiz", 1880, "F"),
            ("Raúl Prieto", 1820, ""),
            ("Juan Lara", 1760, ""),
            ("Óscar Nieto", 1690, ""),
            ("Lola Ibáñez", 1620, ""),
        ],
    ),
    (
        "Instituto Sur B",
        "Instituto Sur",
        [
            ("Noa Rubio", 1560, "F"),
            ("Adrián Cruz", 1530, ""),
            ("Marc Pardo", 1490, ""),
            ("Íñigo Vidal", 1470, ""),
            ("Alba Marín", 1400, ""),
        ],
    ),
    (
        "Club Este A",
        "Club Este",
        [
            ("Carla Rey", 1860, "F"),
            ("Tomás León", 1800, ""),
            ("Álex Bravo", 1740, ""),
            ("Gael Pastor", 1680, ""),
            ("Irene Gallo", 1610, ""),
        ],
    ),
    (
        "Club Este B",
        "Club Este",
        [
            ("Vera Calvo", 1570, "F"),
            ("Bruno Núñez", 1520, ""),
            ("Jon Vargas", 1480, ""),
            ("Mario Rojas", 1460, ""),
            ("Nerea Sáez", 1390, ""),
        ],
    ),
];

async fn json_of(c: &Client, method: &str, url: &str, body: Option<Value>) -> R<Value> {
    let (status, text) = fetch(c, method, url, body).await?;
    if !(200..300).contains(&status) {
        return Err(format!("{method} {url}: {status} {text}"));
    }
    serde_json::from_str(&text).map_err(|e| format!("{url}: {e}: {text}"))
}

/// Types `text` into the field `css` by keys (cleared first).
async fn type_in(c: &Client, css: &str, text: &str) -> R {
    let el = c
        .find(Locator::Css(css))
        .await
        .map_err(|e| format!("no {css}: {e}"))?;
    el.clear().await.map_err(|e| e.to_string())?;
    el.send_keys(text).await.map_err(|e| e.to_string())
}

async fn error_text(c: &Client) -> R<String> {
    Ok(js(
        c,
        "const e = document.querySelector('#error'); return e ? e.textContent : ''",
    )
    .await?
    .as_str()
    .unwrap_or("")
    .to_string())
}

/// The team's roster as the roster field takes it: `name, rating[, cat]`.
fn roster_text(players: &[(&str, u16, &str); 5]) -> String {
    players
        .iter()
        .map(|(n, r, c)| {
            if c.is_empty() {
                format!("{n}, {r}")
            } else {
                format!("{n}, {r}, {c}")
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

async fn add_team(c: &Client, name: &str, school: &str, roster: &str) -> R {
    type_in(c, "#eq-team-name", name).await?;
    type_in(c, "#eq-team-school", school).await?;
    type_in(c, "#eq-team-roster", roster).await?;
    click(c, "#eq-add-go").await
}

/// The result of board `b` of match `t` chosen in its select (White–Black),
/// then waited for on the redrawn page.
async fn result_by_click(c: &Client, t: u64, b: u64, result: &str) -> R {
    choose(
        c,
        &format!("#eq-match-{t} select.eq-result[data-board=\"{b}\"]"),
        result,
    )
    .await?;
    until(
        c,
        &format!("table {t} board {b} = {result}"),
        &format!(
            "document.querySelector('#eq-match-{t} tr[data-board=\"{b}\"]') && \
             document.querySelector('#eq-match-{t} tr[data-board=\"{b}\"]').dataset.result !== ''"
        ),
    )
    .await?;
    Ok(())
}

/// A result for every board still open in `round`, chosen on the page:
/// the pattern is fixed by table and board so that the standings have
/// ties, wins, draws and losses.
async fn enter_round(c: &Client, id: &str, round: u64) -> R {
    let view = json_of(c, "GET", &format!("/api/equipos/{id}"), None).await?;
    let matches = view["rounds"][round as usize - 1]["matches"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    for m in matches {
        let t = m["table"].as_u64().unwrap_or(0);
        for b in m["boards"].as_array().cloned().unwrap_or_default() {
            if !b["result"].is_null() {
                continue;
            }
            let n = b["board"].as_u64().unwrap_or(0);
            let r = match (round + t + n) % 4 {
                0 => "1-0",
                1 => "½-½",
                2 => "0-1",
                _ => "1-0",
            };
            result_by_click(c, t, n, r).await?;
        }
    }
    Ok(())
}

/// Submits the filled create form and waits for the new tournament's desk
/// (ready, and `also` true on it): its id and its view from the API.
async fn create_by_form(c: &Client, also: &str) -> R<(String, Value)> {
    click(c, "#eq-create-go").await?;
    let desk = format!(
        "/^\\/equipos\\/[A-Za-z0-9_-]+$/.test(location.pathname) && document.body.dataset.ready === '1' && {also}"
    );
    until(c, "the new desk", &desk).await?;
    let id = js(c, "return location.pathname.split('/')[2]")
        .await?
        .as_str()
        .unwrap_or_default()
        .to_string();
    let view = json_of(c, "GET", &format!("/api/equipos/{id}"), None).await?;
    Ok((id, view))
}

async fn desk_runs_a_team_swiss(base: &str, c: &Client) -> R {
    // From the tournaments page, by its link; then create, by the form.
    ready(c, &format!("{base}/torneos")).await?;
    click(c, "#tn-teams-link").await?;
    until(
        c,
        "the create form",
        "location.pathname === '/equipos' && document.querySelector('#eq-create')",
    )
    .await?;
    type_in(c, "#eq-name", "Liga Escolar de Otoño").await?;
    choose(c, "#eq-system", "suizo").await?;
    type_in(c, "#eq-rounds", "3").await?;
    type_in(c, "#eq-boards", "4").await?;
    click(c, "#eq-school summary").await?;
    type_in(c, "#eq-school-max", "2").await?;
    type_in(c, "#eq-school-cats", "F:1").await?;
    type_in(c, "#eq-school-counted", "2").await?;
    shot(c, "equipos-crear.png").await?;
    let (id, view) = create_by_form(c, "document.querySelector('#eq-add-team')").await?;
    if view["system"] != "suizo" || view["total_rounds"] != 3 || view["boards"] != 4 {
        return Err(format!("created as {view}"));
    }
    if view["school"]
        != json!({"max_teams": 2, "categories": [{"category": "F", "players": 1}], "counted": 2})
    {
        return Err(format!("school rules: {}", view["school"]));
    }

    // A roster without its F player is refused with the rule's words.
    add_team(
        c,
        "Sin chicas",
        "Club Oeste",
        "Pedro Gómez, 1500\nJavier Luna, 1400",
    )
    .await?;
    until(
        c,
        "the category refusal",
        "document.querySelector('#error').textContent.includes('categoría F')",
    )
    .await?;
    // The six teams, typed.
    for (i, (name, school, players)) in TEAMS.iter().enumerate() {
        add_team(c, name, school, &roster_text(players)).await?;
        until(
            c,
            &format!("team {}", i + 1),
            &format!(
                "document.querySelector('#eq-teams details[data-team=\"{}\"]')",
                i + 1
            ),
        )
        .await?;
    }
    // A third team of a school with two: refused, nothing added.
    add_team(
        c,
        "Colegio Norte C",
        "Colegio Norte",
        "Nora Blanco, 1500, F",
    )
    .await?;
    until(
        c,
        "the school refusal",
        "document.querySelector('#error').textContent.includes('ya tiene 2 equipos')",
    )
    .await?;
    let view = json_of(c, "GET", &format!("/api/equipos/{id}"), None).await?;
    if view["teams"].as_array().map(Vec::len) != Some(6) {
        return Err(format!("teams after the refusals: {}", view["teams"]));
    }
    // The roster is in rating order, as typed (highest first).
    let first: Vec<String> = view["teams"][0]["members"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|m| m["name"].as_str().unwrap_or("").to_string())
                .collect()
        })
        .unwrap_or_default();
    if first
        != [
            "Ana Ruiz",
            "Luis Gil",
            "Pablo Díaz",
            "Iker Sanz",
            "Marta Cano",
        ]
    {
        return Err(format!("roster 1: {first:?}"));
    }

    // The teams of one school never meet: declared with one click.
    click(c, "#eq-forbid-school").await?;
    until(
        c,
        "the forbidden pairs",
        "document.querySelectorAll('#eq-forbidden li').length === 3",
    )
    .await?;
    let view = json_of(c, "GET", &format!("/api/equipos/{id}"), None).await?;
    if view["forbidden"] != json!([[1, 2], [3, 4], [5, 6]]) {
        return Err(format!("forbidden: {}", view["forbidden"]));
    }

    for round in 1..=3u64 {
        click(c, "#eq-pair").await?;
        until(
            c,
            &format!("round {round} paired"),
            &format!(
                "document.querySelectorAll('#eq-round .eq-match-box').length === 3 && \
                 document.querySelector('#eq-round h2').textContent === 'Ronda {round}'"
            ),
        )
        .await?;
        let view = json_of(c, "GET", &format!("/api/equipos/{id}"), None).await?;
        for m in view["rounds"][round as usize - 1]["matches"]
            .as_array()
            .into_iter()
            .flatten()
        {
            let (a, b) = (
                m["home"].as_u64().unwrap_or(0),
                m["away"].as_u64().unwrap_or(0),
            );
            if a.div_ceil(2) == b.div_ceil(2) {
                return Err(format!(
                    "round {round}: teams {a} and {b} of one school meet"
                ));
            }
        }
        let m1 = &view["rounds"][round as usize - 1]["matches"][0];
        let home = m1["home"].as_u64().unwrap_or(0);
        if round == 1 {
            // Out of the roster's order: board 1 the second player, board
            // 2 the first. Refused with the library's words, nothing changed.
            let form = "#eq-lineup-1-home";
            choose(c, &format!("{form} select[data-board=\"1\"]"), "2").await?;
            choose(c, &format!("{form} select[data-board=\"2\"]"), "1").await?;
            click(c, &format!("{form} .eq-lineup-go")).await?;
            until(
                c,
                "the line-up refusal",
                "document.querySelector('#error').textContent.includes('no puede jugar por debajo de')",
            )
            .await?;
            let msg = error_text(c).await?;
            if !msg.contains("tablero 2") {
                return Err(format!("refusal: {msg}"));
            }
            // Said beside the form too, where the organiser is looking.
            let here = js(
                c,
                &format!("return document.querySelector('{form} .eq-form-error').textContent"),
            )
            .await?;
            if !here
                .as_str()
                .unwrap_or("")
                .contains("no puede jugar por debajo de")
            {
                return Err(format!("the form's refusal: {here}"));
            }
            let after = json_of(c, "GET", &format!("/api/equipos/{id}"), None).await?;
            if after["rounds"][0]["matches"][0] != *m1 {
                return Err("a refused line-up changed the match".into());
            }
            shot(c, "equipos-alineacion-rechazada.png").await?;
            // In order, leaving out the fourth player: saved.
            choose(c, &format!("{form} select[data-board=\"1\"]"), "1").await?;
            choose(c, &format!("{form} select[data-board=\"2\"]"), "2").await?;
            choose(c, &format!("{form} select[data-board=\"3\"]"), "3").await?;
            choose(c, &format!("{form} select[data-board=\"4\"]"), "5").await?;
            click(c, &format!("{form} .eq-lineup-go")).await?;
            until(
                c,
                "the line-up saved",
                "document.querySelector('#eq-note').textContent.startsWith('Alineación de')",
            )
            .await?;
            let after = json_of(c, "GET", &format!("/api/equipos/{id}"), None).await?;
            let fifth = &TEAMS[home as usize - 1].2[4].0;
            if after["rounds"][0]["matches"][0]["boards"][3]["home_player"] != json!(fifth) {
                return Err(format!(
                    "board 4 after the line-up: {}",
                    after["rounds"][0]["matches"][0]["boards"][3]
                ));
            }
        }
        if round == 2 {
            // Match 3 forfeited whole by its second team.
            click(c, "article[data-table=\"3\"] .eq-forfeit[data-by=\"away\"]").await?;
            until(
                c,
                "the forfeit",
                "[...document.querySelectorAll('#eq-match-3 tbody tr')].every((tr) => tr.dataset.state === 'forfeit' || tr.dataset.result !== '')",
            )
            .await?;
        }
        if round == 3 {
            // Phones: table 1 board 1 in conflict, board 2 confirmed.
            let codes = json_of(
                c,
                "GET",
                &format!("/api/equipos/{id}/rondas/3/codigos"),
                None,
            )
            .await?;
            let code = codes["matches"][0]["code"]
                .as_str()
                .unwrap_or_default()
                .to_string();
            let phone_says = |board: u32, side: &'static str, result: &'static str| json!({"tournament": id, "round": 3, "table": 1, "board": board, "side": side, "result": result});
            for body in [
                phone_says(1, "home", "1-0"),
                phone_says(1, "away", "0-1"),
                phone_says(2, "home", "½-½"),
                phone_says(2, "away", "½-½"),
                phone_says(3, "home", "0-1"),
            ] {
                json_of(
                    c,
                    "POST",
                    &format!("/api/equipos/codigo/{code}"),
                    Some(body),
                )
                .await?;
            }
            ready(c, &format!("{base}/equipos/{id}")).await?;
            let states = js(
                c,
                "return [...document.querySelectorAll('#eq-attention li')].map((li) => li.dataset.state)",
            )
            .await?;
            let states: Vec<&str> = states
                .as_array()
                .map(|a| a.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            // Conflict first, then the unconfirmed board; the boards
            // without any result counted (twelve boards less those 3).
            if states != ["conflict", "entered"] {
                return Err(format!("attention list: {states:?}"));
            }
            let missing = js(
                c,
                "return document.querySelector('#eq-missing-count').dataset.missing",
            )
            .await?;
            if missing != "9" {
                return Err(format!("boards without a result: {missing}"));
            }
            let claims = js(
                c,
                "return document.querySelector('#eq-attention li[data-state=\"conflict\"] .eq-claims').textContent",
            )
            .await?;
            if !claims.as_str().unwrap_or("").contains("1-0")
                || !claims.as_str().unwrap_or("").contains("0-1")
            {
                return Err(format!("the conflict's claims: {claims}"));
            }
            // The confirmed board is in; the others wait.
            let b2 = js(
                c,
                "return document.querySelector('#eq-match-1 tr[data-board=\"2\"]').dataset.state",
            )
            .await?;
            if b2 != "confirmed" {
                return Err(format!("board 2 after both phones: {b2}"));
            }
            shot(c, "equipos-conflicto.png").await?;
            // The organiser decides the conflict in the list.
            choose(
                c,
                "#eq-attention li[data-state=\"conflict\"] select.eq-result",
                "½-½",
            )
            .await?;
            until(
                c,
                "the override",
                "document.querySelector('#eq-match-1 tr[data-board=\"1\"]').dataset.state === 'arbiter'",
            )
            .await?;
            let log = json_of(c, "GET", &format!("/api/equipos/{id}/registro"), None).await?;
            if !log["entries"].as_array().is_some_and(|e| {
                e.iter()
                    .any(|x| x["action"] == "override" && x["board"] == 1)
            }) {
                return Err(format!("the override is not logged: {log}"));
            }
        }
        enter_round(c, &id, round).await?;
        until(
            c,
            &format!("round {round} complete"),
            "document.querySelector('#eq-attention') && document.querySelector('#eq-attention').tagName === 'P'",
        )
        .await?;
        let view = json_of(c, "GET", &format!("/api/equipos/{id}"), None).await?;
        let open: Vec<String> = view["rounds"][round as usize - 1]["matches"]
            .as_array()
            .into_iter()
            .flatten()
            .flat_map(|m| m["boards"].as_array().cloned().unwrap_or_default())
            .filter(|b| b["result"].is_null())
            .map(|b| b.to_string())
            .collect();
        if !open.is_empty() {
            return Err(format!("round {round} left open: {open:?}"));
        }
        // The selects show the view's results.
        let shown = js(c, "return [...document.querySelectorAll('#eq-round .eq-match tbody tr')].map((tr) => tr.dataset.result)").await?;
        let want: Vec<String> = view["rounds"][round as usize - 1]["matches"]
            .as_array()
            .into_iter()
            .flatten()
            .flat_map(|m| m["boards"].as_array().cloned().unwrap_or_default())
            .map(|b| b["result"].as_str().unwrap_or("").to_string())
            .collect();
        if shown != json!(want) {
            return Err(format!("round {round} on the page {shown} vs {want:?}"));
        }
    }
    until(
        c,
        "every round paired",
        "document.querySelector('#eq-pair-state')",
    )
    .await?;

    // The standings on the page equal the API's.
    let view = json_of(c, "GET", &format!("/api/equipos/{id}"), None).await?;
    let page = js(
        c,
        "return [...document.querySelectorAll('#eq-standings-table tbody tr')].map((tr) => [...tr.children].map((td) => td.textContent))",
    )
    .await?;
    let api: Vec<Vec<String>> = view["standings"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|s| {
            // Game points are the GPTS column; decimals with a comma.
            let mut row = vec![
                s["rank"].to_string(),
                s["name"].as_str().unwrap_or("").to_string(),
                s["match_points"].to_string(),
            ];
            row.extend(
                s["tiebreaks"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|t| t["value"].as_str().unwrap_or("").replace('.', ",")),
            );
            row
        })
        .collect();
    if page != json!(api) || api.len() != 6 {
        return Err(format!("standings: page {page} vs API {api:?}"));
    }
    let heads = js(c, "return [...document.querySelectorAll('#eq-standings-table thead th')].map((th) => th.textContent)").await?;
    if heads != json!(["Puesto", "Equipo", "PE", "GPTS", "EMGSB", "DE"]) {
        return Err(format!("standings heads: {heads}"));
    }
    // The school ranking: three schools, two teams counted each.
    let schools = js(c, "return [...document.querySelectorAll('#eq-schools-table tbody tr')].map((tr) => tr.children[1].textContent)").await?;
    let want: Vec<&str> = view["schools"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|s| s["school"].as_str())
        .collect();
    if schools != json!(want) || want.len() != 3 {
        return Err(format!("school ranking: page {schools} vs {want:?}"));
    }
    shot(c, "equipos-mesa.png").await?;
    c.set_window_size(1280, 800)
        .await
        .map_err(|e| e.to_string())?;
    js(
        c,
        "document.querySelector('#eq-round').scrollIntoView(); return true",
    )
    .await?;
    shot(c, "equipos-mesa-1280.png").await?;
    phone(c, "equipos-mesa-movil.png").await?;

    // The printouts' links answer PDFs; the round's page opens with its QR codes.
    for css in ["#eq-standings-pdf", "#eq-boards-pdf", "#eq-round-pdf"] {
        let href = js(
            c,
            &format!("return document.querySelector('{css}').getAttribute('href')"),
        )
        .await?;
        let href = href.as_str().unwrap_or_default().to_string();
        let ok = c
            .execute_async(
                "const [url, done] = arguments;
                 fetch(url).then(async (r) => done(r.status === 200 && r.headers.get('content-type') === 'application/pdf' && (await r.text()).startsWith('%PDF'))).catch(() => done(false));",
                vec![json!(href)],
            )
            .await
            .map_err(|e| e.to_string())?;
        if ok != json!(true) {
            return Err(format!("{css} ({href}) is not a PDF"));
        }
    }
    click(c, "#eq-round-page").await?;
    until(
        c,
        "the round's QR page",
        "document.querySelector('main#ronda') && document.querySelectorAll('section.match svg').length === 3",
    )
    .await?;
    if js(
        c,
        "return document.querySelector('main#ronda').dataset.round",
    )
    .await?
        != "3"
    {
        return Err("the round page is not round 3's".into());
    }
    // Played over the board: no board links to a server game.
    if js(
        c,
        "return document.querySelectorAll('a.partida, a#en-linea').length",
    )
    .await?
        != 0
    {
        return Err("an over-the-board round page links to online games".into());
    }
    Ok(())
}

/// An online team Swiss (4 teams × 2 boards, made by the API from the
/// organiser's browser): round 1's page links each board to its server
/// game, the same game `GET /api/equipos/{id}/partidas` names for that
/// table and board, and the link opens the game's page.
async fn round_page_links_online_games(base: &str, c: &Client) -> R {
    ready(c, &format!("{base}/equipos")).await?;
    let v = json_of(
        c,
        "POST",
        "/api/equipos",
        Some(json!({"name": "Liga en línea", "system": "suizo", "rounds": 2, "boards": 2})),
    )
    .await?;
    let id = v["id"].as_str().unwrap_or_default().to_string();
    json_of(
        c,
        "POST",
        &format!("/api/equipos/{id}/en-linea"),
        Some(json!({"time_control": "5+0", "no_show_s": 600})),
    )
    .await?;
    enter_teams(c, &id, &["Alfa", "Beta", "Gamma", "Delta"], 3).await?;
    json_of(
        c,
        "POST",
        &format!("/api/equipos/{id}/emparejar"),
        Some(json!({})),
    )
    .await?;
    let games = json_of(c, "GET", &format!("/api/equipos/{id}/partidas"), None).await?;
    let mut want = Vec::new();
    for g in games["games"].as_array().cloned().unwrap_or_default() {
        if g["round"] == 1 {
            want.push(format!(
                "{}.{}={}",
                g["table"],
                g["board"],
                g["game"].as_str().unwrap_or("")
            ));
        }
    }
    want.sort();
    if want.len() != 4 {
        return Err(format!("round 1 has {} online games: {games}", want.len()));
    }
    c.goto(&format!("{base}/equipos/{id}/rondas/1"))
        .await
        .map_err(|e| e.to_string())?;
    until(
        c,
        "the round page's game links",
        "document.querySelector('main#ronda') && document.querySelectorAll('a.partida').length === 4",
    )
    .await?;
    let shown = js(
        c,
        "return [...document.querySelectorAll('section.match tr[data-board]')].map(tr => {
           const a = tr.querySelector('a.partida');
           const t = tr.closest('section.match').dataset.table;
           return t + '.' + tr.dataset.board + '=' + (a ? a.dataset.game : '')
             + (a && a.getAttribute('href') === '/partida/' + a.dataset.game ? '' : ' (bad href)');
         }).sort()",
    )
    .await?;
    let shown: Vec<String> = shown
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .map(|x| x.as_str().unwrap_or("").to_string())
        .collect();
    if shown != want {
        return Err(format!("the page links {shown:?}, the API names {want:?}"));
    }
    if js(
        c,
        "return document.querySelector('a#en-linea').getAttribute('href')",
    )
    .await?
        != format!("/equipos/{id}/partidas")
    {
        return Err("no link to the round's online games page".into());
    }
    shot(c, "equipos-ronda-en-linea.png").await?;
    let first = want[0].split('=').nth(1).unwrap_or_default().to_string();
    click(c, &format!("a.partida[data-game='{first}']")).await?;
    until(
        c,
        "the game's page",
        &format!("location.pathname === '/partida/{first}'"),
    )
    .await?;
    Ok(())
}

#[test]
fn the_round_page_links_each_board_to_its_online_game() {
    one_browser(
        "escaque-equipos-ronda",
        "equipos-ronda-en-linea",
        |base, c, _dir| async move { round_page_links_online_games(&base, &c).await },
    );
}

#[test]
fn an_organiser_runs_a_team_swiss_at_the_desk() {
    one_browser(
        "escaque-equipos-web",
        "equipos",
        |base, c, _dir| async move { desk_runs_a_team_swiss(&base, &c).await },
    );
}

/// A requested bye entered at the desk by its form (a team Swiss of three
/// teams made by the API from the organiser's browser): team 3 asks for a
/// half bye in round 1, the desk lists it, and round 1, paired by its
/// button, is one match between the other two with no pairing-allocated
/// bye.
/// Enters `teams` in tournament `id` through the API, `size` players each
/// ("Alfa 1", … rated 1900 less 100 a team and 10 a board).
async fn enter_teams(c: &Client, id: &str, teams: &[&str], size: usize) -> R {
    for (t, team) in teams.iter().enumerate() {
        let members: Vec<Value> = (0..size)
            .map(
                |j| json!({"name": format!("{team} {}", j + 1), "rating": 1900 - 100 * t - 10 * j}),
            )
            .collect();
        json_of(
            c,
            "POST",
            &format!("/api/equipos/{id}/equipos"),
            Some(json!({"name": team, "members": members})),
        )
        .await?;
    }
    Ok(())
}

async fn team_bye_at_the_desk(base: &str, c: &Client) -> R {
    ready(c, &format!("{base}/equipos")).await?;
    let v = json_of(
        c,
        "POST",
        "/api/equipos",
        Some(json!({"name": "Liga con descansos", "system": "suizo", "rounds": 2, "boards": 2})),
    )
    .await?;
    let id = v["id"].as_str().unwrap_or_default().to_string();
    enter_teams(c, &id, &["Alfa", "Beta", "Gamma"], 2).await?;
    ready(c, &format!("{base}/equipos/{id}")).await?;
    until(c, "the bye form", "document.querySelector('#eq-bye-go')").await?;
    choose(c, "#eq-bye-team", "3").await?;
    choose(c, "#eq-bye-kind", "medio").await?;
    click(c, "#eq-bye-go").await?;
    until(
        c,
        "the bye listed",
        "document.querySelector('#eq-byes li[data-bye=\"1-3\"][data-kind=\"medio\"]')",
    )
    .await?;
    let view = json_of(c, "GET", &format!("/api/equipos/{id}"), None).await?;
    if view["requested_byes"] != json!([{"round": 1, "team": 3, "kind": "medio"}]) {
        return Err(format!("requested byes: {}", view["requested_byes"]));
    }
    shot(c, "equipos-descanso-pedido.png").await?;
    click(c, "#eq-pair").await?;
    until(
        c,
        "round 1 paired",
        "document.querySelectorAll('#eq-round .eq-match-box').length === 1",
    )
    .await?;
    let view = json_of(c, "GET", &format!("/api/equipos/{id}"), None).await?;
    let r1 = &view["rounds"][0];
    let m = &r1["matches"][0];
    let teams = [m["home"].as_u64(), m["away"].as_u64()];
    if r1["matches"].as_array().map(Vec::len) != Some(1)
        || !r1["bye"].is_null()
        || teams.contains(&Some(3))
    {
        return Err(format!("round 1 with team 3's bye: {r1}"));
    }
    // The create form's Baku tick: shown for a Swiss only, sent as `baku`,
    // and said in the desk's summary.
    ready(c, &format!("{base}/equipos")).await?;
    until(c, "the create form", "document.querySelector('#eq-create')").await?;
    choose(c, "#eq-system", "liguilla").await?;
    until(
        c,
        "no Baku for a round robin",
        "document.querySelector('#eq-baku-label').hidden",
    )
    .await?;
    choose(c, "#eq-system", "suizo").await?;
    until(
        c,
        "Baku for a Swiss",
        "!document.querySelector('#eq-baku-label').hidden",
    )
    .await?;
    type_in(c, "#eq-name", "Liga Bakú").await?;
    type_in(c, "#eq-rounds", "5").await?;
    click(c, "#eq-baku").await?;
    shot(c, "equipos-crear-baku.png").await?;
    let (_, view) =
        create_by_form(c, "document.body.innerText.includes('aceleración Bakú')").await?;
    if view["baku"] != true || view["name"] != "Liga Bakú" {
        return Err(format!("created as {view}"));
    }
    Ok(())
}

#[test]
fn an_organiser_enters_a_requested_team_bye_at_the_desk() {
    one_browser(
        "escaque-equipos-descanso",
        "equipos-descanso",
        |base, c, _dir| async move { team_bye_at_the_desk(&base, &c).await },
    );
}
