//! The annotated PGN: `[%eval …]` on every move, NAGs for the marks, a
//! comment in Spanish or English ("Error grave. Era mejor Cxe5.") and the
//! engine's line as a variation.
//!
//! The evaluation is written as lichess writes it, White's point of view:
//! pawns with two decimals (`[%eval 0.35]`, `[%eval -1.20]`) or a mate
//! (`[%eval #3]`, `[%eval #-2]`), at the start of the move's first comment.
//! A move that checkmates has no evaluation and gets none (nor a mark). A
//! mark that changed a mate says so as lichess does, between the mark and the
//! better move: "Error grave. El mate ya es inevitable. Era mejor Cf3." or
//! "Error. Se perdió un mate forzado. …". The movetext is
//! always English SAN (the PGN export format); the comment's SAN uses the
//! letters of the language asked for.
//!
//! ```
//! use escaque::Lang;
//! use escaque_analysis::annotate::{eval_command, judgement_comment};
//! use escaque_analysis::{Eval, Judgement};
//!
//! assert_eq!(eval_command(Eval::Cp(35)), "[%eval 0.35]");
//! assert_eq!(eval_command(Eval::Cp(-120)), "[%eval -1.20]");
//! assert_eq!(eval_command(Eval::Mate(-3)), "[%eval #-3]");
//! assert_eq!(
//!     judgement_comment(Judgement::Blunder, Some("Cxe5"), Lang::Es),
//!     "Error grave. Era mejor Cxe5."
//! );
//! ```

use escaque::coord::to_uci;
use escaque::pgn::{is_chess960_variant, write_game_string, Node, PgnGame, PgnStyle};
use escaque::read::{read_move, Notation};
use escaque::{Lang, Move, Position};

use crate::analyse::{GameAnalysis, PlyAnalysis};
use crate::judge::{Eval, Judgement};
use crate::openings::{classify, SEARCH_MAX_PLIES};

/// The most moves of an engine line written as a variation.
pub const MAX_VARIATION_PLIES: usize = 12;

/// The `[%eval …]` command of an evaluation (White's point of view).
pub fn eval_command(eval: Eval) -> String {
    match eval {
        Eval::Cp(cp) => {
            let sign = if cp < 0 { "-" } else { "" };
            let a = cp.unsigned_abs();
            format!("[%eval {sign}{}.{:02}]", a / 100, a % 100)
        }
        Eval::Mate(n) => format!("[%eval #{n}]"),
    }
}

/// The name of a mark as a comment starts with it.
pub fn judgement_text(j: Judgement, lang: Lang) -> &'static str {
    match j {
        Judgement::Inaccuracy => lang.pick("Imprecisión.", "Inaccuracy."),
        Judgement::Mistake => lang.pick("Error.", "Mistake."),
        Judgement::Blunder => lang.pick("Error grave.", "Blunder."),
    }
}

/// The comment of a marked move: `Error grave. Era mejor Cxe5.` /
/// `Blunder. Nxe5 was best.` (without the better move when there is none).
pub fn judgement_comment(j: Judgement, best_san: Option<&str>, lang: Lang) -> String {
    judgement_comment_with(j, None, best_san, lang)
}

/// [`judgement_comment`] with a note about mates between the mark and the
/// better move: `Error grave. El mate ya es inevitable. Era mejor Cf3.`
pub fn judgement_comment_with(
    j: Judgement,
    note: Option<MateNote>,
    best_san: Option<&str>,
    lang: Lang,
) -> String {
    let mark = match note {
        Some(n) => format!("{} {}", judgement_text(j, lang), n.text(lang)),
        None => judgement_text(j, lang).to_string(),
    };
    match best_san {
        Some(b) => match lang {
            Lang::Es => format!("{mark} Era mejor {b}."),
            Lang::En => format!("{mark} {b} was best."),
        },
        None => mark,
    }
}

/// What a mark says about mates, after its name (as lichess says it).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum MateNote {
    /// The move walked into a forced mate: "El mate ya es inevitable." /
    /// "Checkmate is now unavoidable."
    Unavoidable,
    /// The move let a forced mate go: "Se perdió un mate forzado." /
    /// "Lost forced checkmate sequence."
    Lost,
}

impl MateNote {
    /// The note of a move by `mover` from the evaluation `before` it to the
    /// one `after` it (White's point of view), if it changed a mate.
    pub fn of(before: Option<Eval>, after: Eval, mover: escaque::Color) -> Option<MateNote> {
        let mated = |e: Eval| e.for_side(mover).mate().is_some_and(|m| m < 0);
        let mating = |e: Eval| e.for_side(mover).mate().is_some_and(|m| m > 0);
        let before = before?;
        if mated(after) && !mated(before) {
            Some(MateNote::Unavoidable)
        } else if mating(before) && !mating(after) {
            Some(MateNote::Lost)
        } else {
            None
        }
    }

    /// The sentence, in `lang`.
    pub fn text(self, lang: Lang) -> &'static str {
        match self {
            MateNote::Unavoidable => {
                lang.pick("El mate ya es inevitable.", "Checkmate is now unavoidable.")
            }
            MateNote::Lost => lang.pick(
                "Se perdió un mate forzado.",
                "Lost forced checkmate sequence.",
            ),
        }
    }
}

const MATE_NOTES: [&str; 4] = [
    "El mate ya es inevitable.",
    "Checkmate is now unavoidable.",
    "Se perdió un mate forzado.",
    "Lost forced checkmate sequence.",
];

/// Annotates the main line of `game` with `analysis` (made of the same
/// moves, from the same start): on each move its evaluation, the NAG and
/// comment of its mark and, for a marked move, the engine's line as a
/// variation. Annotating stops at the first move where the game and the
/// analysis disagree; a game annotated again gets its `[%eval …]` replaced,
/// not repeated. Sets the `Annotator` tag to the engine's name, and the
/// `ECO` and `Opening` tags by [`set_opening_tags`].
pub fn annotate(game: &mut PgnGame, analysis: &GameAnalysis, lang: Lang) {
    let mut pos = game.start;
    let mut eval_before = analysis.start_eval;
    for (node, ply) in game.moves.iter_mut().zip(&analysis.plies) {
        let m = node.mv;
        if m.is_null() || to_uci(m) != ply.uci {
            break;
        }
        annotate_move(node, &pos, eval_before, ply, lang);
        eval_before = ply.eval;
        if !pos.play_recorded(m) {
            break;
        }
    }
    if !analysis.engine.is_empty() {
        game.set_tag("Annotator", &analysis.engine);
    }
    set_opening_tags(game, lang);
}

/// Sets the `ECO` and `Opening` tags of a game that reaches a named
/// position, by the one classification the web pages use
/// ([`classify`]: the deepest named position of the first
/// [`SEARCH_MAX_PLIES`] moves), the name in `lang` (the Spanish name the web
/// page shows, or lichess's English one). Tags already there are replaced,
/// so a game annotated again in the other language reads in it throughout.
/// A game from a set-up position, a Chess960 game (its `Variant` tag), or
/// one that names no position keeps the tags it has.
pub fn set_opening_tags(game: &mut PgnGame, lang: Lang) {
    if game.tag("Variant").is_some_and(is_chess960_variant) {
        return;
    }
    let moves: Vec<Move> = game
        .moves
        .iter()
        .take(SEARCH_MAX_PLIES)
        .map(|n| n.mv)
        .collect();
    if let Some(opening) = classify(&game.start, &moves) {
        game.set_tag("ECO", &opening.eco);
        game.set_tag("Opening", opening.name(lang));
    }
}

fn annotate_move(
    node: &mut Node,
    before: &Position,
    eval_before: Option<Eval>,
    ply: &PlyAnalysis,
    lang: Lang,
) {
    strip_evals(node);
    let mut text = String::new();
    if let Some(e) = ply.eval {
        text.push_str(&eval_command(e));
    }
    // A move that checkmates (no evaluation) is never marked.
    if let (Some(j), Some(after)) = (ply.judgement, ply.eval) {
        let best = best_san(before, ply, lang);
        let note = MateNote::of(eval_before, after, before.turn());
        if !text.is_empty() {
            text.push(' ');
        }
        text.push_str(&judgement_comment_with(j, note, best.as_deref(), lang));
        // The mark replaces any other move assessment ($1–$6).
        node.nags.retain(|n| !(1..=6).contains(n));
        node.nags.insert(0, j.nag());
        let line = engine_line(before, &ply.line);
        if !line.is_empty()
            && line.first() != Some(&node.mv)
            && !node
                .variations
                .iter()
                .any(|v| v.iter().map(|n| n.mv).eq(line.iter().copied()))
        {
            node.variations
                .push(line.into_iter().map(Node::new).collect());
        }
    }
    if text.is_empty() {
        return;
    }
    let eval_len = ply.eval.map_or(0, |e| eval_command(e).len());
    match node.comments.first_mut() {
        Some(first) if !first.trim().is_empty() => {
            let old = std::mem::take(first);
            *first = format!("{text} {old}");
            if node.clock_ms.is_some() {
                node.clock_at = if node.clock_at > 0 {
                    node.clock_at + text.len() + 1
                } else {
                    eval_len
                };
            }
        }
        Some(first) => {
            *first = text;
            if node.clock_ms.is_some() {
                node.clock_at = eval_len;
            }
        }
        None => {
            node.comments.push(text);
            // The clock after the evaluation, as lichess writes them.
            if node.clock_ms.is_some() {
                node.clock_at = eval_len;
            }
        }
    }
}

/// The better move in SAN of `lang`: from the analysis, or else from its
/// coordinates in the position.
fn best_san(before: &Position, ply: &PlyAnalysis, lang: Lang) -> Option<String> {
    let stored = match lang {
        Lang::Es => ply.best_san_es.clone(),
        Lang::En => ply.best_san.clone(),
    };
    stored.or_else(|| {
        let m = read_move(before, ply.best.as_deref()?, Notation::Uci).ok()?;
        Some(escaque::san::san(before, m, lang))
    })
}

/// The engine's line as moves from `before`, cut at its first move that is
/// not legal and at [`MAX_VARIATION_PLIES`].
fn engine_line(before: &Position, line: &[String]) -> Vec<Move> {
    let mut pos = *before;
    let mut out = Vec::new();
    for text in line.iter().take(MAX_VARIATION_PLIES) {
        let Ok(m) = read_move(&pos, text, Notation::Uci) else {
            break;
        };
        pos.play_unchecked(m);
        out.push(m);
    }
    out
}

/// Removes `[%eval …]` commands from a move's comments (dropping a comment
/// left empty), keeping the clock's place; and the mark's words that an
/// earlier annotation wrote after its evaluation.
fn strip_evals(node: &mut Node) {
    let mut i = 0;
    while i < node.comments.len() {
        let ours = i == 0 && node.comments[0].trim_start().starts_with("[%eval");
        let (mut text, mut removed_before_clock) = without_evals(&node.comments[i], node.clock_at);
        if ours {
            let (t, n) = without_mark(&text, node.clock_at.saturating_sub(removed_before_clock));
            text = t;
            removed_before_clock += n;
        }
        if i == 0 && node.clock_ms.is_some() {
            node.clock_at = node.clock_at.saturating_sub(removed_before_clock);
        }
        if text.trim().is_empty() && text != node.comments[i] {
            node.comments.remove(i);
            if i == 0 {
                node.clock_at = 0;
            }
            continue;
        }
        node.comments[i] = text;
        i += 1;
    }
}

/// `text` without the mark an annotation starts it with (`Error grave. Era
/// mejor Cxe5.`, `Blunder. Nxe5 was best.`, either language), and how many
/// bytes were taken out before byte `at`.
fn without_mark(text: &str, at: usize) -> (String, usize) {
    let lead = text.len() - text.trim_start().len();
    let body = &text[lead..];
    let marks = [
        "Error grave.",
        "Imprecisión.",
        "Error.",
        "Inaccuracy.",
        "Mistake.",
        "Blunder.",
    ];
    let Some(mark) = marks.iter().find(|m| body.starts_with(*m)) else {
        return (text.to_string(), 0);
    };
    let mut cut = lead + mark.len();
    let after_mark = &text[cut..];
    let spaces = after_mark.len() - after_mark.trim_start().len();
    if let Some(note) = MATE_NOTES
        .iter()
        .find(|n| after_mark[spaces..].starts_with(*n))
    {
        cut += spaces + note.len();
    }
    let rest = &text[cut..];
    let words: Vec<&str> = rest.split_whitespace().take(3).collect();
    let better = match words.as_slice() {
        ["Era", "mejor", san, ..] if san.ends_with('.') => true,
        [san, "was", "best.", ..] if !san.is_empty() => true,
        _ => false,
    };
    if better {
        let best_end = rest.find(words[2]).map_or(0, |p| p + words[2].len());
        cut += best_end;
    }
    // The space after it goes with it.
    if text[cut..].starts_with(' ') {
        cut += 1;
    }
    let removed_before = cut.min(at);
    (text[cut..].to_string(), removed_before)
}

/// `text` without its `[%eval …]` commands, and how many bytes were taken
/// out before byte `at`.
fn without_evals(text: &str, at: usize) -> (String, usize) {
    let mut out = String::with_capacity(text.len());
    let mut removed_before = 0;
    let mut rest = text;
    let mut offset = 0;
    while let Some(start) = rest.find("[%eval") {
        let Some(len) = rest[start..].find(']') else {
            break;
        };
        let mut end = start + len + 1;
        // One space after the command goes with it.
        if rest[end..].starts_with(' ') {
            end += 1;
        }
        out.push_str(&rest[..start]);
        if offset + start < at {
            removed_before += (end - start).min(at - (offset + start));
        }
        offset += end;
        rest = &rest[end..];
    }
    out.push_str(rest);
    (out, removed_before)
}

/// The annotated PGN (export format) of the game `moves` from `start` with
/// `tags` (the Seven Tag Roster filled with `?` where missing; the result
/// from the `Result` tag).
pub fn annotated_pgn(
    start: &Position,
    moves: &[Move],
    tags: &[(String, String)],
    analysis: &GameAnalysis,
    lang: Lang,
) -> String {
    let mut game = PgnGame {
        tags: tags.to_vec(),
        start: *start,
        moves: moves.iter().copied().map(Node::new).collect(),
        ..PgnGame::default()
    };
    if *start != Position::new() && game.tag("FEN").is_none() {
        game.set_tag("SetUp", "1");
        game.set_tag("FEN", &start.to_fen());
    }
    annotate(&mut game, analysis, lang);
    write_game_string(&game, PgnStyle::export())
}
