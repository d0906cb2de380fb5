//! lichess's puzzle CSV, read and written exactly:
//!
//! ```text
//! PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,OpeningTags
//! 00sHx,q3k1nr/1pp1nQpp/3p4/1P2p3/4P3/B1PP1b2/B5PP/5K2 b k - 0 17,e8d7 a2e6 d7d8 f7f8,1760,80,83,72,mate mateIn2 middlegame short,https://lichess.org/yyznGmXs/black#34,Italian_Game Italian_Game_Classical_Variation
//! ```
//!
//! The FEN is the position before the opponent's move; `Moves` starts with
//! that move. Themes and opening tags are space-separated. The header line
//! is written, and read when present. A field may be quoted as RFC 4180
//! says (lichess never needs to). A line that cannot be a puzzle — wrong
//! number of fields, an illegal FEN or move, a number that is not one — is
//! reported with its line number and skipped; the rest are read.

use std::io::{BufRead, Write};

use escaque::{Lang, Localized, Position};

use super::{read_line, valid_id, Puzzle, PuzzleError};

/// The header lichess writes.
pub const HEADER: &str =
    "PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,OpeningTags";

/// Longest line read (a puzzle line is well under 1 KiB).
pub const MAX_LINE: usize = 16 * 1024;

/// What is wrong with one line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CsvErrorKind {
    /// Not 10 fields (9 is accepted: lichess's older files lack OpeningTags).
    Fields(usize),
    /// A quoted field that never closes.
    Quote,
    /// A number field that is not a number.
    Number(&'static str, String),
    /// The puzzle itself (FEN, moves, identifier).
    Puzzle(PuzzleError),
    /// The line is too long or not UTF-8.
    Unreadable,
}

/// A line that was skipped, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CsvError {
    /// The line number, from 1.
    pub line: usize,
    /// What was wrong.
    pub kind: CsvErrorKind,
}

impl Localized for CsvError {
    fn message(&self, lang: Lang) -> String {
        let what = match (&self.kind, lang) {
            (CsvErrorKind::Fields(n), Lang::Es) => {
                format!("tiene {n} campos y hacen falta 10 ({HEADER})")
            }
            (CsvErrorKind::Fields(n), Lang::En) => {
                format!("has {n} fields and 10 are needed ({HEADER})")
            }
            (CsvErrorKind::Quote, Lang::Es) => "unas comillas no se cierran".into(),
            (CsvErrorKind::Quote, Lang::En) => "a quote is never closed".into(),
            (CsvErrorKind::Number(field, v), Lang::Es) => {
                format!("{field} no es un número: «{v}»")
            }
            (CsvErrorKind::Number(field, v), Lang::En) => {
                format!("{field} is not a number: \"{v}\"")
            }
            (CsvErrorKind::Puzzle(e), l) => e.message(l),
            (CsvErrorKind::Unreadable, Lang::Es) => {
                "no se puede leer (no es UTF-8 o es demasiado larga)".into()
            }
            (CsvErrorKind::Unreadable, Lang::En) => "unreadable (not UTF-8 or too long)".into(),
        };
        match lang {
            Lang::Es => format!("línea {}: {what}", self.line),
            Lang::En => format!("line {}: {what}", self.line),
        }
    }
}

/// What a read found: the puzzles and the lines skipped.
#[derive(Clone, Debug, Default)]
pub struct CsvReport {
    /// The puzzles read, in order.
    pub puzzles: Vec<Puzzle>,
    /// The lines skipped.
    pub errors: Vec<CsvError>,
}

/// Splits one CSV line into fields (RFC 4180 quoting).
pub fn split_fields(line: &str) -> Result<Vec<String>, CsvErrorKind> {
    let mut fields = Vec::new();
    let mut cur = String::new();
    let mut chars = line.chars().peekable();
    let mut quoted = false;
    let mut at_start = true;
    while let Some(c) = chars.next() {
        if quoted {
            if c == '"' {
                if chars.peek() == Some(&'"') {
                    chars.next();
                    cur.push('"');
                } else {
                    quoted = false;
                }
            } else {
                cur.push(c);
            }
        } else if c == '"' && at_start {
            quoted = true;
            at_start = false;
        } else if c == ',' {
            fields.push(std::mem::take(&mut cur));
            at_start = true;
        } else {
            cur.push(c);
            at_start = false;
        }
    }
    if quoted {
        return Err(CsvErrorKind::Quote);
    }
    fields.push(cur);
    Ok(fields)
}

fn number<T: std::str::FromStr>(field: &'static str, text: &str) -> Result<T, CsvErrorKind> {
    let t = text.trim();
    t.parse()
        .map_err(|_| CsvErrorKind::Number(field, t.chars().take(40).collect()))
}

/// Reads one data line (not the header) as a puzzle.
pub fn parse_line(line: &str) -> Result<Puzzle, CsvErrorKind> {
    let f = split_fields(line)?;
    if f.len() != 10 && f.len() != 9 {
        return Err(CsvErrorKind::Fields(f.len()));
    }
    let id = f[0].trim().to_string();
    if !valid_id(&id) {
        return Err(CsvErrorKind::Puzzle(PuzzleError::BadId(
            id.chars().take(40).collect(),
        )));
    }
    let start = Position::from_fen(f[1].trim())
        .map_err(|e| CsvErrorKind::Puzzle(PuzzleError::Fen(e.message(Lang::En))))?;
    let texts: Vec<&str> = f[2].split_whitespace().collect();
    if texts.len() < 2 {
        return Err(CsvErrorKind::Puzzle(PuzzleError::TooShort));
    }
    let moves = read_line(&start, &texts).map_err(CsvErrorKind::Puzzle)?;
    let rating: i32 = number("Rating", &f[3])?;
    let mut p = Puzzle::new(id, start, moves, rating).map_err(CsvErrorKind::Puzzle)?;
    p.rating_deviation = number("RatingDeviation", &f[4])?;
    p.popularity = number("Popularity", &f[5])?;
    p.plays = number("NbPlays", &f[6])?;
    p.themes = f[7].split_whitespace().map(str::to_string).collect();
    p.game_url = f[8].trim().to_string();
    p.opening_tags = f
        .get(9)
        .map(|t| t.split_whitespace().map(str::to_string).collect())
        .unwrap_or_default();
    Ok(p)
}

/// Reads a whole CSV file: every good line a puzzle, every bad one an
/// error with its line number. Blank lines and the header are skipped.
pub fn read_csv<R: BufRead>(mut input: R) -> CsvReport {
    let mut report = CsvReport::default();
    let mut buf = Vec::new();
    let mut line_no = 0;
    loop {
        buf.clear();
        match input.read_until(b'\n', &mut buf) {
            Ok(0) => break,
            Ok(_) => {}
            Err(_) => {
                line_no += 1;
                report.errors.push(CsvError {
                    line: line_no,
                    kind: CsvErrorKind::Unreadable,
                });
                break;
            }
        }
        line_no += 1;
        let text = match std::str::from_utf8(&buf) {
            Ok(t) if buf.len() <= MAX_LINE => t.trim_end_matches(['\n', '\r']),
            _ => {
                report.errors.push(CsvError {
                    line: line_no,
                    kind: CsvErrorKind::Unreadable,
                });
                continue;
            }
        };
        let text = text.trim_start_matches('\u{feff}');
        if text.trim().is_empty() || text.starts_with("PuzzleId,") {
            continue;
        }
        match parse_line(text) {
            Ok(p) => report.puzzles.push(p),
            Err(kind) => report.errors.push(CsvError {
                line: line_no,
                kind,
            }),
        }
    }
    report
}

/// One field as CSV needs it: quoted only when it holds a comma, a quote
/// or a line break.
fn field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// One puzzle as a CSV line (without the line break).
pub fn format_line(p: &Puzzle) -> String {
    [
        field(&p.id),
        field(&p.start.to_fen()),
        p.moves_uci(),
        p.rating.to_string(),
        p.rating_deviation.to_string(),
        p.popularity.to_string(),
        p.plays.to_string(),
        field(&p.themes.join(" ")),
        field(&p.game_url),
        field(&p.opening_tags.join(" ")),
    ]
    .join(",")
}

/// Writes the header and every puzzle.
pub fn write_csv<W: Write>(mut out: W, puzzles: &[Puzzle]) -> std::io::Result<()> {
    writeln!(out, "{HEADER}")?;
    for p in puzzles {
        writeln!(out, "{}", format_line(p))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const LICHESS: &str = "PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,OpeningTags
00sHx,q3k1nr/1pp1nQpp/3p4/1P2p3/4P3/B1PP1b2/B5PP/5K2 b k - 0 17,e8d7 a2e6 d7d8 f7f8,1760,80,83,72,mate mateIn2 middlegame short,https://lichess.org/yyznGmXs/black#34,Italian_Game Italian_Game_Classical_Variation
00sJ9,r3r1k1/p4ppp/2p2n2/1p6/3P1qb1/2NQR3/PPB2PP1/R1B3K1 w - - 5 18,e3g3 e8e1 g1h2 e1c1 a1c1 f4h6 h2g1 h6c1,2671,105,87,325,advantage attraction fork middlegame sacrifice veryLong,https://lichess.org/gyFeQsOE#35,French_Defense French_Defense_Exchange_Variation
";

    #[test]
    fn reads_lichess_lines_and_writes_them_back_byte_for_byte() {
        let report = read_csv(LICHESS.as_bytes());
        assert!(report.errors.is_empty(), "{:?}", report.errors);
        assert_eq!(report.puzzles.len(), 2);
        let p = &report.puzzles[0];
        assert_eq!(p.id, "00sHx");
        assert_eq!(p.rating, 1760);
        assert_eq!(p.themes, ["mate", "mateIn2", "middlegame", "short"]);
        assert_eq!(p.solution().count(), 2);
        let mut out = Vec::new();
        write_csv(&mut out, &report.puzzles).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), LICHESS);
    }

    #[test]
    fn bad_lines_are_reported_with_their_number_and_skipped() {
        let text = format!(
            "{LICHESS}bad1,8/8/8/8 w - - 0 1,e2e4 e7e5,1500,80,0,0,,,\n\
             bad2,rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1,e2e5 e7e5,1500,80,0,0,,,\n\
             too,few\n\
             bad3,rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1,e2e4 e7e5,mil,80,0,0,,,\n"
        );
        let report = read_csv(text.as_bytes());
        assert_eq!(report.puzzles.len(), 2);
        let lines: Vec<usize> = report.errors.iter().map(|e| e.line).collect();
        assert_eq!(lines, [4, 5, 6, 7]);
        assert!(report.errors[1]
            .message(Lang::Es)
            .starts_with("línea 5: la jugada 1"));
        assert!(report.errors[3].message(Lang::En).contains("Rating"));
    }

    #[test]
    fn quoted_fields_are_read() {
        assert_eq!(
            split_fields("a,\"b,c\",\"d\"\"e\"").unwrap(),
            ["a", "b,c", "d\"e"]
        );
        assert_eq!(split_fields("\"abc"), Err(CsvErrorKind::Quote));
    }
}
