//! `escaque aprender [ETAPA]` (alias `learn`): the course "Aprende a jugar"
//! of `escaque_play::aprender` in the terminal — full-screen on a terminal
//! (`tui::aprender`), and with `--texto` (or through a pipe) one line per
//! answer, as a script or a screen reader drives it. The stages follow one another
//! from the one named (the first without a name) until the course ends, the
//! input ends, or `salir`. `--lista` lists the stages; `--coordenadas` is the
//! coordinates trainer (name the marked square, from White's side or, with
//! `--negras`, from Black's).
//!
//! Every answer is judged by the course core (the rules library): this file
//! only prints the stage, the board with its stars, the options and the
//! verdicts.

use std::io::{self, BufRead, BufWriter, Write};

use clap::Args;
use escaque::{Color, File, Lang, Localized, Rank, Square};
use escaque_play::aprender::coords::{square_words, Mode, Trainer};
use escaque_play::aprender::{Course, Exercise, Goal, Input, Stage, Verdict};

use crate::error::CliError;
use crate::play::texto::board_text_marked;

#[derive(Args)]
pub struct AprenderArgs {
    /// Etapa por la que empezar: su nombre (torre, enroque…) o su número (1-21).
    pub stage: Option<String>,
    /// Modo texto: una línea por respuesta, sin pantalla completa.
    #[arg(long = "texto", alias = "text")]
    pub text: bool,
    /// Lista las etapas del curso y termina.
    #[arg(long = "lista", alias = "list")]
    pub list: bool,
    /// Entrenador de coordenadas: nombra la casilla marcada.
    #[arg(long = "coordenadas", alias = "coordinates")]
    pub coords: bool,
    /// Con --coordenadas: el tablero visto desde las negras.
    #[arg(long = "negras", alias = "black")]
    pub black: bool,
    /// Con --coordenadas: cuántas casillas preguntar.
    #[arg(long = "rondas", alias = "rounds", default_value_t = 10)]
    pub rounds: u32,
}

fn fail(msg: String) -> ! {
    eprintln!("escaque: {msg}");
    std::process::exit(2)
}

pub fn run(args: &AprenderArgs, lang: Lang) -> Result<(), CliError> {
    let course = Course::builtin().unwrap_or_else(|e| fail(e.message(lang)));
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let stdin = io::stdin();
    let mut lines = stdin.lock().lines().map_while(Result::ok);
    if args.list {
        for (i, s) in course.stages.iter().enumerate() {
            writeln!(
                out,
                "{:>2}. {:<12} {} ({} {}) — {}",
                i + 1,
                s.id,
                s.title.get(lang),
                s.exercises.len(),
                lang.pick("ejercicios", "exercises"),
                s.source.get(lang)
            )
            .map_err(CliError::Write)?;
        }
        return out.flush().map_err(CliError::Write);
    }
    if args.coords {
        let side = if args.black {
            Color::Black
        } else {
            Color::White
        };
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(55);
        coordinates(&mut lines, &mut out, lang, side, args.rounds, seed)
            .map_err(CliError::Write)?;
        return out.flush().map_err(CliError::Write);
    }
    let start = match &args.stage {
        None => 0,
        Some(name) => find_stage(&course, name).unwrap_or_else(|| {
            fail(format!(
                "{} «{name}» ({})",
                lang.pick("no hay ninguna etapa", "there is no stage"),
                lang.pick(
                    "escaque aprender --lista las muestra",
                    "escaque aprender --lista lists them"
                )
            ))
        }),
    };
    // Full-screen on a terminal; one line per answer with --texto, or when
    // the input or the output is not a terminal (a pipe, a script).
    use std::io::IsTerminal;
    if !args.text && io::stdin().is_terminal() && io::stdout().is_terminal() {
        drop(out);
        let ascii = !crate::play::terminal_has_figurines();
        return crate::tui::aprender::run(&course, start, lang, ascii).map_err(CliError::Write);
    }
    course_text(&course, start, &mut lines, &mut out, lang).map_err(CliError::Write)?;
    out.flush().map_err(CliError::Write)
}

/// The stage named `name` (its id, or its number from 1).
pub fn find_stage(course: &Course, name: &str) -> Option<usize> {
    if let Ok(n) = name.trim().parse::<usize>() {
        return (1..=course.stages.len()).contains(&n).then_some(n - 1);
    }
    course.stages.iter().position(|s| s.id == name.trim())
}

fn stars_text(n: u8) -> String {
    "★".repeat(n as usize) + &"☆".repeat(3usize.saturating_sub(n as usize))
}

enum Next {
    Done(u8),
    Skipped,
    Quit,
}

/// Runs the course from stage `start` on `lines`, writing to `out`.
pub fn course_text<I, W>(
    course: &Course,
    start: usize,
    lines: &mut I,
    out: &mut W,
    lang: Lang,
) -> io::Result<()>
where
    I: Iterator<Item = String>,
    W: Write,
{
    let total = course.stages.len();
    for (i, stage) in course.stages.iter().enumerate().skip(start) {
        writeln!(
            out,
            "\n== {} {}/{total}: {} ==",
            lang.pick("Etapa", "Stage"),
            i + 1,
            stage.title.get(lang)
        )?;
        writeln!(
            out,
            "{}: {}",
            lang.pick("Fuente", "Source"),
            stage.source.get(lang)
        )?;
        writeln!(out, "«{}»", stage.quote)?;
        writeln!(out, "{}", stage.intro.get(lang))?;
        let mut got = 0u32;
        for (n, ex) in stage.exercises.iter().enumerate() {
            match exercise_text(stage, n, ex, lines, out, lang)? {
                Next::Done(s) => got += s as u32,
                Next::Skipped => {}
                Next::Quit => {
                    writeln!(out, "{}", lang.pick("Hasta pronto.", "See you soon."))?;
                    return Ok(());
                }
            }
        }
        let max = 3 * stage.exercises.len() as u32;
        writeln!(
            out,
            "{} «{}» {}: {got} {} {max}.",
            lang.pick("Etapa", "Stage"),
            stage.title.get(lang),
            lang.pick("terminada", "finished"),
            lang.pick("estrellas de", "stars out of"),
        )?;
        out.flush()?;
    }
    writeln!(
        out,
        "{}",
        lang.pick("¡Curso terminado!", "Course finished!")
    )?;
    Ok(())
}

fn side_name(c: Color, lang: Lang) -> &'static str {
    match (c, lang) {
        (Color::White, Lang::Es) => "las blancas",
        (Color::Black, Lang::Es) => "las negras",
        (Color::White, Lang::En) => "White",
        (Color::Black, Lang::En) => "Black",
    }
}

fn exercise_text<I, W>(
    stage: &Stage,
    n: usize,
    ex: &Exercise,
    lines: &mut I,
    out: &mut W,
    lang: Lang,
) -> io::Result<Next>
where
    I: Iterator<Item = String>,
    W: Write,
{
    writeln!(
        out,
        "\n{} {}/{}: {}",
        lang.pick("Ejercicio", "Exercise"),
        n + 1,
        stage.exercises.len(),
        ex.task.get(lang)
    )?;
    let mut attempt = ex.start();
    let show_board = |a: &escaque_play::aprender::Attempt<'_>, out: &mut W| -> io::Result<()> {
        if let Some(pos) = a.position() {
            let marks = a.stars_left();
            write!(out, "{}", board_text_marked(pos, ex.side(), marks, lang))?;
            if let Goal::Write(m) = &ex.goal {
                writeln!(
                    out,
                    "{}: {} → {}",
                    lang.pick("Jugada marcada", "Marked move"),
                    m.from(),
                    m.to()
                )?;
            }
        }
        Ok(())
    };
    show_board(&attempt, out)?;
    let options = ex.options();
    if !options.is_empty() {
        for (i, o) in options.iter().enumerate() {
            writeln!(out, "  {}) {}", i + 1, o.get(lang))?;
        }
    }
    let prompt = match &ex.goal {
        Goal::Quiz { .. } | Goal::Ask(_) => lang.pick(
            "Escribe el número de tu respuesta.",
            "Type the number of your answer.",
        ),
        Goal::Square(_) => lang.pick(
            "Escribe la casilla (por ejemplo e4).",
            "Type the square (for example e4).",
        ),
        Goal::Write(_) => lang.pick(
            "Escribe la jugada en notación española.",
            "Type the move in Spanish notation.",
        ),
        _ => lang.pick(
            "Escribe una jugada (Ta5 o a1a5).",
            "Type a move (Ta5 or a1a5).",
        ),
    };
    if ex.position.is_some() && !ex.goal.is_question() && !matches!(ex.goal, Goal::Square(_)) {
        writeln!(
            out,
            "{} {}. {prompt}",
            lang.pick("Juegas con", "You play"),
            side_name(ex.side(), lang)
        )?;
    } else {
        writeln!(out, "{prompt}")?;
    }
    writeln!(
        out,
        "{}",
        lang.pick(
            "(«tablero» lo vuelve a mostrar, «saltar» pasa al siguiente, «salir» termina)",
            "(«tablero» shows it again, «saltar» skips, «salir» quits)"
        )
    )?;
    out.flush()?;
    loop {
        let Some(line) = lines.next() else {
            return Ok(Next::Quit);
        };
        let t = line.trim();
        match t {
            "" => continue,
            "salir" | "fin" | "quit" => return Ok(Next::Quit),
            "saltar" | "skip" => return Ok(Next::Skipped),
            "tablero" | "board" => {
                show_board(&attempt, out)?;
                continue;
            }
            _ => {}
        }
        let input = match &ex.goal {
            Goal::Square(_) => match Square::parse(&t.to_ascii_lowercase()) {
                Some(sq) => Input::Square(sq),
                None => Input::Text(t.to_string()),
            },
            _ => Input::Text(t.to_string()),
        };
        match attempt.try_input(&input) {
            Verdict::Refused(why) => writeln!(out, "✗ {}", why.get(lang))?,
            Verdict::Progress { san } => {
                writeln!(out, "✓ {}", san.get(lang))?;
                show_board(&attempt, out)?;
            }
            Verdict::Solved { san, stars } => {
                match san {
                    Some(s) => writeln!(
                        out,
                        "✓ {}. {} {}",
                        s.get(lang),
                        lang.pick("¡Conseguido!", "Done!"),
                        stars_text(stars)
                    )?,
                    None => writeln!(
                        out,
                        "✓ {} {}",
                        lang.pick("¡Conseguido!", "Done!"),
                        stars_text(stars)
                    )?,
                }
                if let Some(note) = &ex.note {
                    writeln!(out, "{}", note.get(lang))?;
                }
                out.flush()?;
                return Ok(Next::Done(stars));
            }
            Verdict::AlreadySolved => {}
        }
        out.flush()?;
    }
}

/// The coordinates trainer in text: the board with one square marked `*`,
/// the pupil names it; the score at the end.
pub fn coordinates<I, W>(
    lines: &mut I,
    out: &mut W,
    lang: Lang,
    side: Color,
    rounds: u32,
    seed: u64,
) -> io::Result<()>
where
    I: Iterator<Item = String>,
    W: Write,
{
    let mut t = Trainer::new(Mode::Name, side, seed);
    let started = std::time::Instant::now();
    writeln!(
        out,
        "{} ({}): {} {}",
        lang.pick("Coordenadas", "Coordinates"),
        side_name(side, lang),
        lang.pick(
            "escribe el nombre de la casilla marcada con *; abajo a la izquierda está",
            "type the name of the square marked *; bottom left is"
        ),
        if side == Color::White { "a1" } else { "h8" }
    )?;
    while t.right() < rounds {
        let sq = t.current();
        write!(out, "{}", blank_board(side, sq))?;
        out.flush()?;
        let Some(line) = lines.next() else { break };
        let line = line.trim().to_string();
        if line == "salir" || line == "quit" {
            break;
        }
        if t.answer_name(&line) {
            writeln!(out, "✓ {}", square_words(sq, lang))?;
        } else {
            writeln!(
                out,
                "✗ {}",
                lang.pick("No es esa: inténtalo otra vez.", "Not that one: try again.")
            )?;
        }
    }
    writeln!(
        out,
        "{}: {} {} {}, {} {}.",
        lang.pick("Resultado", "Score"),
        t.right(),
        lang.pick("aciertos", "right"),
        lang.pick("y", "and"),
        t.wrong(),
        lang.pick("fallos", "wrong"),
    )?;
    writeln!(
        out,
        "{}: {} s",
        lang.pick("Tiempo", "Time"),
        started.elapsed().as_secs()
    )?;
    Ok(())
}

fn blank_board(side: Color, mark: Square) -> String {
    let files: Vec<File> = match side {
        Color::White => File::ALL.to_vec(),
        Color::Black => File::ALL.iter().rev().copied().collect(),
    };
    let ranks: Vec<Rank> = match side {
        Color::White => Rank::ALL.iter().rev().copied().collect(),
        Color::Black => Rank::ALL.to_vec(),
    };
    let mut s = String::new();
    for r in &ranks {
        for f in &files {
            s.push(' ');
            s.push(if Square::from_coords(*f, *r) == mark {
                '*'
            } else {
                '.'
            });
        }
        s.push('\n');
    }
    s
}
