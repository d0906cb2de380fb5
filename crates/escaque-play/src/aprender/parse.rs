//! The stage file format: one stage a file, UTF-8 text, one `clave: valor`
//! a line. A text a pupil reads is written in Spanish, then ` | `, then in
//! English (both are required). Lines starting with `#` and empty lines are
//! skipped.
//!
//! ```text
//! # La torre
//! etapa: torre
//! titulo: La torre | The rook
//! fuente: Semilla 001, art. 3 | Seed 001, article 3
//! cita: La TORRE puede ser movida a cualquier casilla a lo largo de la fila o columna…
//! intro: La torre va en línea recta. | The rook moves in straight lines.
//!
//! ejercicio
//! tarea: Recoge las estrellas con la torre. | Collect the stars with the rook.
//! fen: 7k/8/8/8/8/8/8/R6K w - - 0 1
//! meta: estrellas a5 e5
//! nota: Por filas y columnas. | Along ranks and files.
//! ```
//!
//! The header (`etapa`, `titulo`, `fuente`, `cita`, `intro`) comes first;
//! each `ejercicio` line starts an exercise, with `tarea` and `meta`, and
//! optionally `fen`, `previas` (moves in coordinates played from `fen` before
//! the exercise), `opcion`/`correcta` (the options of a `pregunta`, right ones
//! marked `correcta`) and `nota`. The goals (`meta`):
//!
//! | meta | the pupil… | accepted, as the rules library computes it |
//! |---|---|---|
//! | `casilla e4` | touches a square | that square |
//! | `estrellas a5 e5` | collects stars, the opponent does not move | legal moves from which every star is still reachable |
//! | `capturar` | takes every piece but the king, the opponent does not move | the same, for the opponent's pieces |
//! | `mate` | mates in one | legal moves after which it is checkmate |
//! | `salir [captura\|rey\|cubrir]` | gets out of check | legal moves (of that way) |
//! | `enrocar [corto\|largo]` | castles | legal castlings (to that side) |
//! | `alpaso` | takes en passant | legal en passant captures |
//! | `coronar [D\|T\|A\|C]` | promotes | legal promotions (to that piece) that do not draw |
//! | `tablas` | draws | legal moves that end the game drawn or may be played with a claim |
//! | `leer Cxe5` | plays the move written | the move the notation reader reads |
//! | `escribir g1f3` | writes the move shown | texts the reader reads as that move, in Spanish, with `+`/`#` |
//! | `tocada g1` | moves the touched piece | its legal moves |
//! | `tomar d5` | captures the touched opponent piece | legal captures of it |
//! | `pregunta` | chooses an option | the options marked `correcta` |
//! | `estado` | says mate, stalemate, check or none | computed |
//! | `bandera blancas\|negras` | says who wins when that flag falls | FIDE 6.9, computed |
//! | `puede_enrocar corto\|largo` | says whether castling is legal now | computed |
//! | `color e4` | says the colour of a square | computed |
//! | `resultado fide\|londres\|inglaterra` | says the result of the position | computed |
//!
//! A bad file is refused with its name and the line: an unknown key, a FEN
//! the rules library does not accept, a move that is not legal, a goal that
//! cannot be reached, a question without a right option.

use escaque::{
    Bitboard, CastlingSide, Color, Game, Lang, Localized, Move, Notation, Position, Role, SanLang,
    Square,
};

use super::{judge, EscapeWay, Exercise, Goal, Question, Rules, Stage, Text};

/// A stage file that cannot be used, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadError {
    /// The file's name.
    pub file: String,
    /// The line (1-based).
    pub line: usize,
    /// What is wrong.
    pub message: Text,
}

impl Localized for LoadError {
    fn message(&self, lang: Lang) -> String {
        format!(
            "{}, {} {}: {}",
            self.file,
            lang.pick("línea", "line"),
            self.line,
            self.message.get(lang)
        )
    }
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message(Lang::Es))
    }
}

impl std::error::Error for LoadError {}

type Res<T> = Result<T, Text>;

fn err<T>(es: impl Into<String>, en: impl Into<String>) -> Res<T> {
    Err(Text::new(es, en))
}

/// Longest line accepted (a FEN with a long history stays far below).
const MAX_LINE: usize = 2000;

#[derive(Default)]
struct Draft {
    line: usize,
    task: Option<Text>,
    fen: Option<(String, usize)>,
    history: Option<(String, usize)>,
    goal: Option<(String, usize)>,
    options: Vec<(Text, bool)>,
    note: Option<Text>,
}

/// Reads one stage file.
pub fn parse_stage(file: &str, text: &str) -> Result<Stage, LoadError> {
    let at = |line: usize, message: Text| LoadError {
        file: file.to_string(),
        line,
        message,
    };
    let mut id = None;
    let mut title = None;
    let mut source = None;
    let mut quote = None;
    let mut intro = None;
    let mut drafts: Vec<Draft> = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let line = n + 1;
        if raw.len() > MAX_LINE {
            return Err(at(
                line,
                Text::new(
                    format!("la línea es demasiado larga (más de {MAX_LINE} bytes)"),
                    format!("the line is too long (over {MAX_LINE} bytes)"),
                ),
            ));
        }
        let l = raw.trim();
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        if l == "ejercicio" {
            drafts.push(Draft {
                line,
                ..Draft::default()
            });
            continue;
        }
        let Some((key, value)) = l.split_once(':') else {
            return Err(at(
                line,
                Text::new(
                    format!(
                        "se esperaba «clave: valor» o «ejercicio», no «{}»",
                        short(l)
                    ),
                    format!("expected «key: value» or «ejercicio», not «{}»", short(l)),
                ),
            ));
        };
        let (key, value) = (key.trim(), value.trim());
        if value.is_empty() {
            return Err(at(
                line,
                Text::new(format!("«{key}» está vacío"), format!("«{key}» is empty")),
            ));
        }
        let both = || two(value).map_err(|m| at(line, m));
        match (drafts.last_mut(), key) {
            (None, "etapa") => {
                if !value
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
                {
                    return Err(at(
                        line,
                        Text::new(
                            "el id de la etapa solo lleva minúsculas sin tilde, cifras y guiones",
                            "a stage id has only lower-case ASCII letters, digits and hyphens",
                        ),
                    ));
                }
                set(&mut id, value.to_string(), key, line).map_err(|m| at(line, m))?
            }
            (None, "titulo") => set(&mut title, both()?, key, line).map_err(|m| at(line, m))?,
            (None, "fuente") => set(&mut source, both()?, key, line).map_err(|m| at(line, m))?,
            (None, "cita") => {
                set(&mut quote, value.to_string(), key, line).map_err(|m| at(line, m))?
            }
            (None, "intro") => set(&mut intro, both()?, key, line).map_err(|m| at(line, m))?,
            (Some(d), "tarea") => set(&mut d.task, both()?, key, line).map_err(|m| at(line, m))?,
            (Some(d), "fen") => {
                set(&mut d.fen, (value.to_string(), line), key, line).map_err(|m| at(line, m))?
            }
            (Some(d), "previas") => set(&mut d.history, (value.to_string(), line), key, line)
                .map_err(|m| at(line, m))?,
            (Some(d), "meta") => {
                set(&mut d.goal, (value.to_string(), line), key, line).map_err(|m| at(line, m))?
            }
            (Some(d), "opcion") => d.options.push((both()?, false)),
            (Some(d), "correcta") => d.options.push((both()?, true)),
            (Some(d), "nota") => set(&mut d.note, both()?, key, line).map_err(|m| at(line, m))?,
            (None, _) => {
                return Err(at(
                    line,
                    Text::new(
                        format!("clave desconocida en la cabecera: «{}» (etapa, titulo, fuente, cita, intro; o «ejercicio»)", short(key)),
                        format!("unknown header key: «{}» (etapa, titulo, fuente, cita, intro; or «ejercicio»)", short(key)),
                    ),
                ))
            }
            (Some(_), _) => {
                return Err(at(
                    line,
                    Text::new(
                        format!("clave desconocida en un ejercicio: «{}» (tarea, fen, previas, meta, opcion, correcta, nota)", short(key)),
                        format!("unknown exercise key: «{}» (tarea, fen, previas, meta, opcion, correcta, nota)", short(key)),
                    ),
                ))
            }
        }
    }
    let missing = |what: &str| {
        at(
            1,
            Text::new(
                format!("falta «{what}» en la cabecera"),
                format!("«{what}» is missing from the header"),
            ),
        )
    };
    let id = id.ok_or_else(|| missing("etapa"))?;
    let title = title.ok_or_else(|| missing("titulo"))?;
    let source = source.ok_or_else(|| missing("fuente"))?;
    let quote = quote.ok_or_else(|| missing("cita"))?;
    let intro = intro.ok_or_else(|| missing("intro"))?;
    if drafts.is_empty() {
        return Err(at(
            text.lines().count().max(1),
            Text::new(
                "la etapa no tiene ningún ejercicio",
                "the stage has no exercise",
            ),
        ));
    }
    let mut exercises = Vec::with_capacity(drafts.len());
    for d in drafts {
        exercises.push(build(d).map_err(|(line, m)| at(line, m))?);
    }
    Ok(Stage {
        id,
        file: file.to_string(),
        title,
        source,
        quote,
        intro,
        exercises,
    })
}

fn short(s: &str) -> String {
    let mut out: String = s.chars().take(40).collect();
    if s.chars().count() > 40 {
        out.push('…');
    }
    out
}

fn set<T>(slot: &mut Option<T>, value: T, key: &str, _line: usize) -> Res<()> {
    if slot.is_some() {
        return err(
            format!("«{key}» aparece dos veces"),
            format!("«{key}» appears twice"),
        );
    }
    *slot = Some(value);
    Ok(())
}

/// `español | English`, both required.
fn two(value: &str) -> Res<Text> {
    let Some((es, en)) = value.split_once(" | ") else {
        return err(
            "falta el texto en inglés: «español | English»",
            "the English text is missing: «español | English»",
        );
    };
    let (es, en) = (es.trim(), en.trim());
    if es.is_empty() || en.is_empty() || en.contains(" | ") {
        return err(
            "se esperan dos textos no vacíos: «español | English»",
            "two non-empty texts are expected: «español | English»",
        );
    }
    Ok(Text::new(es, en))
}

fn square(word: &str) -> Res<Square> {
    Square::parse(word).ok_or_else(|| {
        Text::new(
            format!("«{}» no es una casilla (a1…h8)", short(word)),
            format!("«{}» is not a square (a1…h8)", short(word)),
        )
    })
}

fn build(d: Draft) -> Result<Exercise, (usize, Text)> {
    let start = d.line;
    let task = d.task.ok_or_else(|| {
        (
            start,
            Text::new(
                "al ejercicio le falta «tarea»",
                "the exercise has no «tarea»",
            ),
        )
    })?;
    let (goal_text, goal_line) = d.goal.ok_or_else(|| {
        (
            start,
            Text::new("al ejercicio le falta «meta»", "the exercise has no «meta»"),
        )
    })?;
    // The position, then the moves before the exercise.
    let mut position = None;
    let mut history = Vec::new();
    if let Some((fen, line)) = &d.fen {
        let pos = Position::from_fen(fen).map_err(|e| {
            (
                *line,
                Text::new(
                    format!("FEN no válido: {}", e.message(Lang::Es)),
                    format!("invalid FEN: {}", e.message(Lang::En)),
                ),
            )
        })?;
        position = Some(pos);
    }
    if let Some((moves, line)) = &d.history {
        let Some(pos) = position else {
            return Err((
                *line,
                Text::new("«previas» necesita un «fen»", "«previas» needs a «fen»"),
            ));
        };
        let mut game = Game::from_position(pos);
        for word in moves.split_whitespace() {
            let p = *game.position();
            let m = escaque::read_move(&p, word, Notation::Uci).map_err(|e| {
                (
                    *line,
                    Text::new(
                        format!("en «previas», «{}»: {}", short(word), e.message(Lang::Es)),
                        format!("in «previas», «{}»: {}", short(word), e.message(Lang::En)),
                    ),
                )
            })?;
            game.play(m).map_err(|e| {
                (
                    *line,
                    Text::new(
                        format!("en «previas», «{}»: {}", short(word), e.message(Lang::Es)),
                        format!("in «previas», «{}»: {}", short(word), e.message(Lang::En)),
                    ),
                )
            })?;
            history.push(m);
        }
        position = Some(*game.position());
    }
    let goal = goal(&goal_text, position.as_ref(), &d.options).map_err(|m| (goal_line, m))?;
    if !d.options.is_empty() && !matches!(goal, Goal::Quiz { .. }) {
        return Err((
            goal_line,
            Text::new(
                "«opcion»/«correcta» solo van con «meta: pregunta»",
                "«opcion»/«correcta» go only with «meta: pregunta»",
            ),
        ));
    }
    let mut ex = Exercise {
        line: start,
        task,
        fen: d.fen.map(|(f, _)| f),
        history,
        position,
        goal,
        note: d.note,
        min_moves: 1,
    };
    ex.min_moves = judge::validate(&ex).map_err(|m| (goal_line, m))?;
    Ok(ex)
}

fn goal(text: &str, pos: Option<&Position>, options: &[(Text, bool)]) -> Res<Goal> {
    let mut words = text.split_whitespace();
    let head = words.next().unwrap_or("");
    let rest: Vec<&str> = words.collect();
    let arity = |n: std::ops::RangeInclusive<usize>| -> Res<()> {
        if n.contains(&rest.len()) {
            Ok(())
        } else {
            err(
                format!("«meta: {head}» lleva {} palabra(s) detrás", describe(&n)),
                format!("«meta: {head}» takes {} word(s) after it", describe(&n)),
            )
        }
    };
    let needs_position = |g: Goal| -> Res<Goal> {
        if pos.is_none()
            && !matches!(
                g,
                Goal::Square(_) | Goal::Quiz { .. } | Goal::Ask(Question::SquareColor(_))
            )
        {
            return err(
                format!("«meta: {head}» necesita un «fen»"),
                format!("«meta: {head}» needs a «fen»"),
            );
        }
        Ok(g)
    };
    let g = match head {
        "casilla" => {
            arity(1..=1)?;
            Goal::Square(square(rest[0])?)
        }
        "estrellas" => {
            arity(1..=12)?;
            let mut stars = Bitboard::EMPTY;
            for w in &rest {
                let sq = square(w)?;
                if stars.contains(sq) {
                    return err(
                        format!("la estrella de {sq} aparece dos veces"),
                        format!("the star on {sq} appears twice"),
                    );
                }
                stars = stars.with(sq);
            }
            Goal::Stars(stars)
        }
        "capturar" => {
            arity(0..=0)?;
            Goal::CaptureAll
        }
        "mate" => {
            arity(0..=0)?;
            Goal::Mate
        }
        "salir" => {
            arity(0..=1)?;
            Goal::Escape(match rest.first() {
                None => None,
                Some(&"captura") => Some(EscapeWay::Capture),
                Some(&"rey") => Some(EscapeWay::King),
                Some(&"cubrir") => Some(EscapeWay::Block),
                Some(w) => {
                    return err(
                        format!("«{}»: se espera captura, rey o cubrir", short(w)),
                        format!("«{}»: expected captura, rey or cubrir", short(w)),
                    )
                }
            })
        }
        "enrocar" | "puede_enrocar" => {
            if head == "enrocar" {
                arity(0..=1)?;
            } else {
                arity(1..=1)?;
            }
            let side = match rest.first() {
                None => None,
                Some(&"corto") => Some(CastlingSide::KingSide),
                Some(&"largo") => Some(CastlingSide::QueenSide),
                Some(w) => {
                    return err(
                        format!("«{}»: se espera corto o largo", short(w)),
                        format!("«{}»: expected corto or largo", short(w)),
                    )
                }
            };
            match (head, side) {
                ("enrocar", s) => Goal::Castle(s),
                (_, Some(s)) => Goal::Ask(Question::CanCastle(s)),
                _ => unreachable_side()?,
            }
        }
        "alpaso" => {
            arity(0..=0)?;
            Goal::EnPassant
        }
        "coronar" => {
            arity(0..=1)?;
            Goal::Promote(match rest.first() {
                None => None,
                Some(w) => {
                    let mut cs = w.chars();
                    match (cs.next().and_then(Role::from_char_es), cs.next()) {
                        (
                            Some(r @ (Role::Queen | Role::Rook | Role::Bishop | Role::Knight)),
                            None,
                        ) => Some(r),
                        _ => {
                            return err(
                                format!("«{}»: se corona en D, T, A o C", short(w)),
                                format!("«{}»: a pawn promotes to D, T, A or C", short(w)),
                            )
                        }
                    }
                }
            })
        }
        "tablas" => {
            arity(0..=0)?;
            Goal::Draw
        }
        "leer" => {
            arity(1..=3)?;
            let text = rest.join(" ");
            if let Some(p) = pos {
                escaque::read_move(p, &text, Notation::Any(SanLang::Es)).map_err(|e| {
                    Text::new(
                        format!(
                            "«{}» no es una jugada legal aquí: {}",
                            short(&text),
                            e.message(Lang::Es)
                        ),
                        format!(
                            "«{}» is not a legal move here: {}",
                            short(&text),
                            e.message(Lang::En)
                        ),
                    )
                })?;
            }
            Goal::Read(text)
        }
        "escribir" => {
            arity(1..=1)?;
            let Some(p) = pos else {
                return err(
                    "«meta: escribir» necesita un «fen»",
                    "«meta: escribir» needs a «fen»",
                );
            };
            let m = escaque::read_move(p, rest[0], Notation::Uci).map_err(|e| {
                Text::new(
                    format!(
                        "«{}» no es una jugada legal aquí: {}",
                        short(rest[0]),
                        e.message(Lang::Es)
                    ),
                    format!(
                        "«{}» is not a legal move here: {}",
                        short(rest[0]),
                        e.message(Lang::En)
                    ),
                )
            })?;
            Goal::Write(m)
        }
        "tocada" => {
            arity(1..=1)?;
            Goal::Touched(square(rest[0])?)
        }
        "tomar" => {
            arity(1..=1)?;
            Goal::TouchedOpponent(square(rest[0])?)
        }
        "pregunta" => {
            arity(0..=0)?;
            Goal::Quiz {
                options: options.iter().map(|(t, _)| t.clone()).collect(),
                answers: options
                    .iter()
                    .enumerate()
                    .filter(|(_, (_, right))| *right)
                    .map(|(i, _)| i)
                    .collect(),
            }
        }
        "estado" => {
            arity(0..=0)?;
            Goal::Ask(Question::State)
        }
        "bandera" => {
            arity(1..=1)?;
            Goal::Ask(Question::Flag(match rest[0] {
                "blancas" => Color::White,
                "negras" => Color::Black,
                w => {
                    return err(
                        format!("«{}»: se espera blancas o negras", short(w)),
                        format!("«{}»: expected blancas or negras", short(w)),
                    )
                }
            }))
        }
        "color" => {
            arity(1..=1)?;
            Goal::Ask(Question::SquareColor(square(rest[0])?))
        }
        "resultado" => {
            arity(1..=1)?;
            Goal::Ask(Question::Result(match rest[0] {
                "fide" => Rules::Fide,
                "londres" => Rules::Londres,
                "inglaterra" => Rules::Inglaterra,
                w => {
                    return err(
                        format!("«{}»: se espera fide, londres o inglaterra", short(w)),
                        format!("«{}»: expected fide, londres or inglaterra", short(w)),
                    )
                }
            }))
        }
        "" => return err("«meta» está vacía", "«meta» is empty"),
        other => {
            return err(
                format!("meta desconocida: «{}»", short(other)),
                format!("unknown goal: «{}»", short(other)),
            )
        }
    };
    needs_position(g)
}

fn unreachable_side() -> Res<Goal> {
    err(
        "«puede_enrocar» lleva corto o largo",
        "«puede_enrocar» takes corto or largo",
    )
}

fn describe(n: &std::ops::RangeInclusive<usize>) -> String {
    if n.start() == n.end() {
        n.start().to_string()
    } else {
        format!("{}–{}", n.start(), n.end())
    }
}

/// The coordinates of a move (for the stage files and the network: `e2e4`,
/// `e1g1`, `e7e8q`).
pub fn move_text(m: Move) -> String {
    escaque::coord::to_uci(m)
}
