//! Results entered by the players from a QR code (issue 59).
//!
//! Every board of a round of an over-the-board tournament gets a secret
//! code ([`new_code`]: 20 letters and digits, 100 random bits), printed as
//! a QR code on the round's result slips and shown on the round's page to
//! the organisers. The code's link opens that board's form on a phone, no
//! account needed: one player enters the result for their side, the other
//! confirms it (the same result from the other side); when the two agree
//! the result reaches the standings. When they disagree the board is in
//! conflict and nothing reaches the standings until an organiser (the
//! arbiter) enters the result; an organiser may enter, override or clear
//! any board's result at any time, and every step is logged.
//!
//! The code holds nothing but its board: a code of an earlier round, a
//! code that names another tournament or board than the phone was shown,
//! a code nobody was given: refused with the reason, nothing changed.
//! A result that becomes final is written with the tournament's TRF in one
//! transaction (`Store::write_result_entry`), under both rows' versions.
//!
//! Unusual results (½-0, 0-½, 0-0: a game played in which the arbiter gave
//! one player ½ and the other 0, or both 0; FIDE's checklist VCL.13, issue
//! 58) are the arbiter's: an organiser enters and corrects them here as at
//! the desk, every list and log shows the board's own result (never the
//! `½-½` it is stored with), and a phone that sends one is refused with the
//! reason (`400 arbiter_only`): FIDE leaves such a result to the arbiter's
//! decision (the Laws of Chess, art. 12.9: the arbiter's penalties, among
//! them reducing a player's points or declaring a game lost and deciding
//! the opponent's score), never to the players' agreement.
//!
//! The decisions are the pure functions [`player_step`] and
//! [`arbiter_step`]; the rest reads and writes. Codes are per target kind:
//! `board` now; a team match's code (`match`) is the same table's other
//! kind.

use std::sync::Arc;

use escaque::{Lang, Localized};
use escaque_torneo::{trf, Game, Outcome, Unusual};
use rand::RngCore;

use crate::error::{ApiError, Kind};
use crate::identity::Identity;
use crate::proto::resultados as wire;
use crate::store::now_ms;
use crate::store::resultados::{CodeRow, EntryRow, LogRow};
use crate::tournament::{self as service, view::result_id, Entered, Loaded};
use crate::Hub;

/// Letters and digits of a code (no `0`/`o`, `1`/`l`/`i`: read aloud or
/// typed from a slip, they are not confused).
pub const CODE_ALPHABET: &[u8] = b"abcdefghjkmnpqrstuvwxyz23456789";
/// Characters in a code.
pub const CODE_LEN: usize = 20;
/// A board's code (a team match's later).
pub const KIND_BOARD: &str = "board";
/// How many times a write that lost a race is tried again.
const RETRIES: usize = 16;
/// A board with no result in the standings.
pub const NO_RESULT: Entered = Entered::Standard(Outcome::Pending);

/// The result a board of the tournament holds: its unusual result when it
/// has one (stored as a `½-½` outcome with the unusual mark), else its
/// outcome.
pub fn held(g: &Game) -> Entered {
    match g.unusual {
        Some(u) => Entered::Unusual(u),
        None => Entered::Standard(g.outcome),
    }
}

/// A new code: [`CODE_LEN`] characters of [`CODE_ALPHABET`], each drawn
/// without bias (over 98 bits).
pub fn new_code() -> String {
    let mut out = String::with_capacity(CODE_LEN);
    let n = CODE_ALPHABET.len() as u8;
    // The largest multiple of n under 256: bytes above it are drawn again.
    let limit = 256 - (256 % n as u16) as u8 as u16;
    let mut rng = rand::rng();
    while out.len() < CODE_LEN {
        let mut b = [0u8; 1];
        rng.fill_bytes(&mut b);
        if u16::from(b[0]) < limit {
            out.push(CODE_ALPHABET[(b[0] % n) as usize] as char);
        }
    }
    out
}

/// Whether `s` has a code's shape (the shape only: [`open`] looks it up).
pub fn code_shape(s: &str) -> bool {
    s.len() == CODE_LEN && s.bytes().all(|b| CODE_ALPHABET.contains(&b))
}

/// A side of the board.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Side {
    /// White's player.
    White,
    /// Black's player.
    Black,
}

impl Side {
    /// `white` or `black`.
    pub fn id(self) -> &'static str {
        match self {
            Side::White => "white",
            Side::Black => "black",
        }
    }

    /// Reads `white` / `black` (`blancas` / `negras` too).
    pub fn parse(s: &str) -> Result<Side, ApiError> {
        match s {
            "white" | "blancas" => Ok(Side::White),
            "black" | "negras" => Ok(Side::Black),
            _ => Err(ApiError::bad(
                "bad_side",
                "side: di quién lo escribe, white (blancas) o black (negras)",
                "side: say who enters it, white or black",
            )),
        }
    }
}

/// Where a board stands.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum State {
    /// The sides disagree (the arbiter's list shows these first).
    Conflict,
    /// Nobody said anything.
    Missing,
    /// One side said it; the other has not confirmed.
    Entered,
    /// Both agreed: in the standings.
    Confirmed,
    /// An organiser entered it: in the standings.
    Arbiter,
}

impl State {
    /// The id in the API.
    pub fn id(self) -> &'static str {
        match self {
            State::Conflict => "conflict",
            State::Missing => "missing",
            State::Entered => "entered",
            State::Confirmed => "confirmed",
            State::Arbiter => "arbiter",
        }
    }
}

/// Where a board stands, from its entry and the result the tournament
/// holds (which is the standings' truth: a result the desk entered some
/// other way counts as the arbiter's).
pub fn state_of(e: &EntryRow, recorded: Entered) -> State {
    if recorded != NO_RESULT {
        return match e.final_by.as_deref() {
            Some("players") if e.final_result.as_deref() == recorded.id() => State::Confirmed,
            _ => State::Arbiter,
        };
    }
    match (&e.white_claim, &e.black_claim) {
        (None, None) => State::Missing,
        (Some(w), Some(b)) if w != b => State::Conflict,
        _ => State::Entered,
    }
}

/// The results a player's phone may give: the games' own and a forfeit
/// win (the opponent did not come); a double forfeit, clearing and the
/// unusual results (½-0, 0-½, 0-0: an arbiter's decision under FIDE's
/// Laws, never the players' agreement) are the arbiter's.
pub fn player_result(text: &str) -> Result<Outcome, ApiError> {
    if let Some(u) = Unusual::parse(text) {
        return Err(unusual_is_the_arbiters(u));
    }
    let o = parse_result(text)?;
    match o {
        Outcome::DoubleForfeit | Outcome::Pending => Err(ApiError::bad(
            "arbiter_only",
            "ese resultado (--, *) solo lo puede poner el árbitro",
            "that result (--, *) only the arbiter may enter",
        )),
        o => Ok(o),
    }
}

/// A result as a person types it (`escaque_torneo::Outcome::parse`),
/// refused as `400 bad_result` with the reader's own words.
pub fn parse_result(text: &str) -> Result<Outcome, ApiError> {
    Outcome::parse(text)
        .map_err(|e| ApiError::bad("bad_result", e.message(Lang::Es), e.message(Lang::En)))
}

/// A result as the arbiter sends it: any the desk takes
/// ([`Entered::parse`]: the standard ones, `*` to clear, and the unusual
/// `½-0`, `0-½`, `0-0` in their spellings), refused as `400 bad_result`
/// with the reader's own words.
pub fn arbiter_result(text: &str) -> Result<Entered, ApiError> {
    Entered::parse(text)
        .map_err(|e| ApiError::bad("bad_result", e.message(Lang::Es), e.message(Lang::En)))
}

/// What a write does to a board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The entry as it is to be stored.
    pub entry: EntryRow,
    /// The result to write into the tournament, when it changes there.
    pub record: Option<Entered>,
    /// The log's line (`None`: nothing changed, nothing written): the
    /// action and what the board held before (for an override).
    pub log: Option<(String, Option<String>)>,
    /// The result the step gives (the claim, or the arbiter's).
    pub said: Option<String>,
}

/// What the board held (the standings' result, an unusual one by its own
/// text, and each side's claim), `None` as nothing.
fn claims_text(e: &EntryRow, recorded: Entered) -> Option<String> {
    let mut parts = Vec::new();
    if let Some(r) = recorded.id() {
        parts.push(format!("clasificación {r}"));
    }
    if let Some(w) = &e.white_claim {
        parts.push(format!("blancas {w}"));
    }
    if let Some(b) = &e.black_claim {
        parts.push(format!("negras {b}"));
    }
    (!parts.is_empty()).then(|| parts.join(", "))
}

/// A phone with the board's code says `result` for `side`: its claim is
/// stored; when the other side said the same, the result is final and
/// reaches the standings (`record`); when it said otherwise, the board is
/// in conflict. A board with a final result takes no more claims (the same
/// result again is answered as it is, nothing written).
pub fn player_step(
    e: &EntryRow,
    recorded: Entered,
    side: Side,
    result: Outcome,
    now: i64,
) -> Result<Step, ApiError> {
    let id = result_id(result).unwrap_or("*").to_string();
    if recorded != NO_RESULT {
        if recorded == Entered::Standard(result) {
            return Ok(Step {
                entry: e.clone(),
                record: None,
                log: None,
                said: None,
            });
        }
        return Err(ApiError(
            Kind::Conflict,
            "already_final",
            format!(
                "esta mesa ya tiene resultado en la clasificación ({}); si no es correcto, avisa al árbitro",
                recorded.id().unwrap_or("*")
            ),
            format!(
                "this board's result is already in the standings ({}); if it is wrong, tell the arbiter",
                recorded.id().unwrap_or("*")
            ),
        ));
    }
    let mut entry = e.clone();
    let (mine, other) = match side {
        Side::White => {
            entry.white_claim = Some(id.clone());
            entry.white_ms = Some(now);
            (&entry.white_claim, &entry.black_claim)
        }
        Side::Black => {
            entry.black_claim = Some(id.clone());
            entry.black_ms = Some(now);
            (&entry.black_claim, &entry.white_claim)
        }
    };
    let was = match side {
        Side::White => &e.white_claim,
        Side::Black => &e.black_claim,
    };
    let agreed = other.as_ref() == mine.as_ref();
    let (action, record) = match other {
        Some(_) if agreed => ("confirmed", Some(result)),
        Some(_) => ("conflict", None),
        None => ("entered", None),
    };
    if record.is_none() && was.as_deref() == Some(id.as_str()) {
        // The same claim again (a phone that sent twice): nothing new.
        return Ok(Step {
            entry: e.clone(),
            record: None,
            log: None,
            said: None,
        });
    }
    let record = record.map(Entered::Standard);
    if record.is_some() {
        entry.final_result = Some(id.clone());
        entry.final_by = Some("players".into());
        entry.final_ms = Some(now);
    }
    entry.version = e.version + 1;
    Ok(Step {
        entry,
        record,
        log: Some((action.to_string(), None)),
        said: Some(id),
    })
}

/// An organiser enters `result` on a board, a standard or an unusual one
/// ([`NO_RESULT`] clears it: the claims too, so that the players enter it
/// again). Logged as `arbiter`, as `override` when it replaces a claim or
/// a result that said otherwise (an unusual result by its own text: `½-0`
/// replaced by `½-½` is an override), as `cleared` for a clearing.
pub fn arbiter_step(e: &EntryRow, recorded: Entered, result: Entered, now: i64) -> Step {
    let previous = claims_text(e, recorded);
    let mut entry = e.clone();
    entry.version = e.version + 1;
    let id = result.id().map(str::to_string);
    if result == NO_RESULT {
        entry.white_claim = None;
        entry.white_ms = None;
        entry.black_claim = None;
        entry.black_ms = None;
        entry.final_result = None;
        entry.final_by = None;
        entry.final_ms = None;
        return Step {
            entry,
            record: Some(NO_RESULT),
            log: Some(("cleared".into(), previous)),
            said: None,
        };
    }
    let differs = |c: &Option<String>| c.is_some() && c.as_deref() != id.as_deref();
    let overrides = differs(&e.white_claim)
        || differs(&e.black_claim)
        || (recorded != NO_RESULT && recorded != result);
    entry.final_result = id.clone();
    entry.final_by = Some("arbiter".into());
    entry.final_ms = Some(now);
    Step {
        entry,
        record: Some(result),
        log: Some((
            if overrides { "override" } else { "arbiter" }.into(),
            previous.filter(|_| overrides),
        )),
        said: id,
    }
}

// ---------------------------------------------------------------- refusals

fn bad_code() -> ApiError {
    ApiError::bad(
        "bad_code",
        format!(
            "el código de la mesa no es válido: son {CODE_LEN} letras y cifras (escanea el QR de la hoja)"
        ),
        format!("the board's code is not valid: it is {CODE_LEN} letters and digits (scan the sheet's QR code)"),
    )
}

fn no_such_code() -> ApiError {
    ApiError::new(
        Kind::NotFound,
        "no_such_code",
        "ese código no es de ninguna mesa: escanea el QR de la hoja de emparejamientos de esta ronda",
        "that code is no board's: scan the QR code on this round's pairing sheet",
    )
}

fn past_round(round: u32, current: u32) -> ApiError {
    ApiError(
        Kind::Gone,
        "past_round",
        format!("ese código es de la ronda {round}, que ya terminó; ahora se juega la ronda {current}: escanea la hoja nueva"),
        format!("that code is round {round}'s, which is over; round {current} is being played: scan the new sheet"),
    )
}

fn online_tournament() -> ApiError {
    ApiError::new(
        Kind::Conflict,
        "online_tournament",
        "en un torneo en línea el resultado lo da la partida: no hay códigos de mesa",
        "in an online tournament the game gives the result: there are no board codes",
    )
}

/// `400 arbiter_only`: a phone sent an unusual result.
fn unusual_is_the_arbiters(u: Unusual) -> ApiError {
    ApiError::bad(
        "arbiter_only",
        format!(
            "un resultado inusual como {} (cada jugador sus puntos) lo decide y lo anota el árbitro, \
             no los jugadores (FIDE: es decisión arbitral, no un acuerdo): avisa al árbitro; \
             desde el móvil se anotan 1-0, ½-½, 0-1, +- y -+",
            u.text()
        ),
        format!(
            "an unusual result such as {} (each player their own points) is the arbiter's decision \
             and only the arbiter enters it, not the players (FIDE: an arbiter's ruling, not an \
             agreement): tell the arbiter; a phone enters 1-0, ½-½, 0-1, +- and -+",
            u.text()
        ),
    )
}

fn no_such_board(round: u32, board: u32) -> ApiError {
    ApiError(
        Kind::NotFound,
        "no_such_board",
        format!("la ronda {round} no tiene mesa {board}"),
        format!("round {round} has no board {board}"),
    )
}

// ---------------------------------------------------------------- service

fn current_round(l: &Loaded) -> u32 {
    l.t.rounds.len() as u32
}

/// The players and result (an unusual one as such) of a board of `l`.
fn board_of(l: &Loaded, round: u32, board: u32) -> Result<(u32, u32, Entered), ApiError> {
    let g = round
        .checked_sub(1)
        .and_then(|r| l.t.rounds.get(r as usize))
        .and_then(|r| board.checked_sub(1).and_then(|b| r.games.get(b as usize)))
        .ok_or_else(|| no_such_board(round, board))?;
    Ok((g.white, g.black, held(g)))
}

fn player_name(l: &Loaded, n: u32) -> String {
    n.checked_sub(1)
        .and_then(|i| l.t.players.get(i as usize))
        .map(|p| p.name.clone())
        .unwrap_or_default()
}

/// A board as its code opens it.
pub fn board_view(l: &Loaded, e: &EntryRow) -> Result<wire::BoardResult, ApiError> {
    let (white, black, outcome) = board_of(l, e.round, e.board)?;
    let state = state_of(e, outcome);
    Ok(wire::BoardResult {
        tournament: l.row.id.clone(),
        tournament_name: l.t.name.clone(),
        round: e.round,
        board: e.board,
        white: wire::BoardPlayer {
            number: white,
            name: player_name(l, white),
        },
        black: wire::BoardPlayer {
            number: black,
            name: player_name(l, black),
        },
        state: state.id(),
        white_claim: e.white_claim.clone(),
        black_claim: e.black_claim.clone(),
        result: outcome.id().map(str::to_string),
        open: outcome == NO_RESULT && e.round == current_round(l),
    })
}

fn empty_entry(tournament: &str, round: u32, board: u32) -> EntryRow {
    EntryRow {
        tournament_id: tournament.to_string(),
        round,
        board,
        ..EntryRow::default()
    }
}

/// The codes of round `round`'s boards, drawn for the boards that have
/// none yet (an organiser of the tournament only; over-the-board events
/// only).
pub async fn round_codes(
    hub: &Arc<Hub>,
    l: &Loaded,
    round: u32,
) -> Result<Vec<(u32, String)>, ApiError> {
    if l.row.mode == "online" {
        return Err(online_tournament());
    }
    let games = round
        .checked_sub(1)
        .and_then(|r| l.t.rounds.get(r as usize))
        .map(|r| r.games.len() as u32)
        .ok_or_else(|| service::refused(escaque_torneo::TorneoError::NoSuchRound(round)))?;
    let have = hub.store.result_codes(&l.row.id, round, KIND_BOARD).await?;
    if have.len() as u32 >= games {
        return Ok(have);
    }
    let new: Vec<(u32, String)> = (1..=games)
        .filter(|b| !have.iter().any(|(n, _)| n == b))
        .map(|b| (b, new_code()))
        .collect();
    hub.store
        .insert_result_codes(&l.row.id, round, KIND_BOARD, &new, now_ms())
        .await?;
    Ok(hub.store.result_codes(&l.row.id, round, KIND_BOARD).await?)
}

/// The board behind `code`, its tournament, and its entry: a code of the
/// wrong shape, one nobody was given, or one of an earlier round is
/// refused.
pub async fn open(hub: &Arc<Hub>, code: &str) -> Result<(CodeRow, Loaded, EntryRow), ApiError> {
    if !code_shape(code) {
        return Err(bad_code());
    }
    let c = hub
        .store
        .result_code(code)
        .await?
        .filter(|c| c.kind == KIND_BOARD)
        .ok_or_else(no_such_code)?;
    let l = service::load(hub, &c.tournament_id).await?;
    if l.row.mode == "online" {
        return Err(online_tournament());
    }
    if c.round != current_round(&l) {
        return Err(past_round(c.round, current_round(&l)));
    }
    let e = hub
        .store
        .result_entry(&c.tournament_id, c.round, c.number)
        .await?
        .unwrap_or_else(|| empty_entry(&c.tournament_id, c.round, c.number));
    Ok((c, l, e))
}

/// Writes `step` (entry, log, and the tournament when its result changes)
/// in one transaction; false when the entry or the tournament changed
/// since they were read.
async fn write(
    hub: &Arc<Hub>,
    l: &mut Loaded,
    e: &EntryRow,
    step: &Step,
    who: &str,
) -> Result<bool, ApiError> {
    let Some((action, previous)) = &step.log else {
        return Ok(true);
    };
    let now = now_ms();
    let mut row = None;
    if let Some(entered) = step.record {
        match entered {
            Entered::Standard(o) => l.t.set_result_board(e.round, e.board, o),
            Entered::Unusual(u) => l.t.set_unusual_board(e.round, e.board, u),
        }
        .map_err(service::refused)?;
        let old = l.row.version;
        l.row.trf = trf::write_checked(&l.t).map_err(service::refused)?;
        l.row.status = service::status_of(&l.t).to_string();
        l.row.version = old + 1;
        l.row.updated_ms = now;
        row = Some(old);
    }
    let log = LogRow {
        tournament_id: e.tournament_id.clone(),
        round: e.round,
        board: e.board,
        at_ms: now,
        who: who.to_string(),
        action: action.clone(),
        result: step.said.clone(),
        previous: previous.clone(),
    };
    let saved = hub
        .store
        .write_result_entry(
            &step.entry,
            e.version,
            row.map(|old| (&l.row, old)),
            std::slice::from_ref(&log),
        )
        .await?;
    if saved && row.is_some() {
        service::notify(hub, l);
    }
    Ok(saved)
}

/// A phone enters (or confirms) the result of the board of `code`. The
/// request names the tournament, round and board the phone was shown: a
/// code of another tournament or board is refused, nothing changed.
pub async fn enter(
    hub: &Arc<Hub>,
    code: &str,
    req: &wire::EnterResult,
) -> Result<wire::BoardResult, ApiError> {
    let side = Side::parse(&req.side)?;
    let result = player_result(&req.result)?;
    for _ in 0..RETRIES {
        let (c, mut l, e) = open(hub, code).await?;
        if req.tournament != c.tournament_id {
            return Err(ApiError(
                Kind::Conflict,
                "other_tournament",
                format!(
                    "el código es de una mesa del torneo «{}», no del torneo que pides ({}): nada cambió",
                    l.t.name, req.tournament
                ),
                format!(
                    "the code is a board of the tournament «{}», not of the one asked for ({}): nothing changed",
                    l.t.name, req.tournament
                ),
            ));
        }
        if req.round != c.round || req.board != c.number {
            return Err(ApiError(
                Kind::Conflict,
                "wrong_board",
                format!(
                    "el código es de la ronda {} mesa {}, no de la ronda {} mesa {}: nada cambió",
                    c.round, c.number, req.round, req.board
                ),
                format!(
                    "the code is round {} board {}, not round {} board {}: nothing changed",
                    c.round, c.number, req.round, req.board
                ),
            ));
        }
        let (_, _, recorded) = board_of(&l, c.round, c.number)?;
        let step = player_step(&e, recorded, side, result, now_ms())?;
        if write(hub, &mut l, &e, &step, side.id()).await? {
            return board_view(&l, &step.entry);
        }
    }
    Err(service::conflict())
}

/// An organiser enters, overrides or clears ([`NO_RESULT`]) the result of
/// `board` of `round` of `l`, a standard or an unusual one (loaded by the
/// caller, which checked `me`'s right: the HTTP route's `Organising`
/// guard). A retry reloads the tournament and checks the right again
/// ([`service::organised_by`]). Answers the board and what it held in the
/// standings before (as the desk's result endpoint does).
pub async fn arbiter(
    hub: &Arc<Hub>,
    me: &Identity,
    l: Loaded,
    round: u32,
    board: u32,
    result: Entered,
) -> Result<wire::ArbiterSet, ApiError> {
    let id = l.row.id.clone();
    let id = id.as_str();
    let mut first = Some(l);
    for _ in 0..RETRIES {
        let mut l = match first.take() {
            Some(l) => l,
            None => {
                let l = service::load(hub, id).await?;
                service::organised_by(&l, me)?;
                l
            }
        };
        if l.row.mode == "online" {
            return Err(online_tournament());
        }
        let (_, _, recorded) = board_of(&l, round, board)?;
        let e = hub
            .store
            .result_entry(id, round, board)
            .await?
            .unwrap_or_else(|| empty_entry(id, round, board));
        let step = arbiter_step(&e, recorded, result, now_ms());
        if write(hub, &mut l, &e, &step, &me.name).await? {
            return Ok(wire::ArbiterSet {
                board: board_view(&l, &step.entry)?,
                previous: recorded.id(),
            });
        }
    }
    Err(service::conflict())
}

/// A round's boards for an organiser: each with its code and state,
/// conflicts first, then the missing and the half-entered, then those in
/// the standings. `l` is loaded by the caller, which checked the asker's
/// right (the HTTP routes' `Organising` guard).
pub async fn round_list(
    hub: &Arc<Hub>,
    l: &Loaded,
    round: u32,
) -> Result<wire::RoundResults, ApiError> {
    let id = l.row.id.as_str();
    let codes = round_codes(hub, l, round).await?;
    let entries = hub.store.result_entries(id, round).await?;
    let mut boards = Vec::new();
    let mut counts = wire::StateCounts::default();
    for (board, code) in codes {
        let e = entries
            .iter()
            .find(|e| e.board == board)
            .cloned()
            .unwrap_or_else(|| empty_entry(id, round, board));
        let (_, _, outcome) = board_of(l, round, board)?;
        let state = state_of(&e, outcome);
        match state {
            State::Conflict => counts.conflict += 1,
            State::Missing => counts.missing += 1,
            State::Entered => counts.entered += 1,
            State::Confirmed => counts.confirmed += 1,
            State::Arbiter => counts.arbiter += 1,
        }
        // Missing and entered are one group: neither is in the standings.
        let group = match state {
            State::Conflict => 0,
            State::Missing | State::Entered => 1,
            State::Confirmed | State::Arbiter => 2,
        };
        boards.push((
            group,
            board,
            wire::ArbiterBoard {
                board: board_view(l, &e)?,
                url: format!("/resultado/{code}"),
                code,
            },
        ));
    }
    boards.sort_by_key(|b| (b.0, b.1));
    Ok(wire::RoundResults {
        tournament: id.to_string(),
        round,
        current_round: current_round(l),
        counts,
        boards: boards.into_iter().map(|b| b.2).collect(),
    })
}

/// The log of `l`, for an organiser (the caller checked the right: the
/// HTTP route's `Organising` guard).
pub async fn log(hub: &Arc<Hub>, l: &Loaded) -> Result<wire::ResultLog, ApiError> {
    let id = l.row.id.as_str();
    let lines = hub
        .store
        .result_log(id)
        .await?
        .into_iter()
        .map(|r| wire::LogLine {
            round: r.round,
            board: r.board,
            at_ms: r.at_ms,
            who: r.who,
            action: r.action,
            result: r.result,
            previous: r.previous,
        })
        .collect();
    Ok(wire::ResultLog {
        tournament: id.to_string(),
        lines,
    })
}

#[cfg(test)]
mod tests;
