//! Why a move is refused, in the words of the rules: the rules library says
//! *what* is wrong ([`escaque::IllegalReason`]); this module looks at the
//! position to say *which* piece and *which* square ("tu rey quedaría en
//! jaque del alfil de b5", "no puedes enrocar: el rey pasaría por f1, atacada
//! por el alfil de c4").

use escaque::attacks::between;
use escaque::{Bitboard, CastlingSide, Color, IllegalReason, Move, Position, Role, Square};

use super::Text;

/// The name of a piece kind with its article: "la torre", "el alfil".
pub fn the(role: Role) -> Text {
    let es = match role {
        Role::Rook | Role::Queen => format!("la {}", role.name_es()),
        _ => format!("el {}", role.name_es()),
    };
    Text::new(es, format!("the {}", role.name_en()))
}

/// "el alfil de b5" / "the bishop on b5".
pub fn piece_on(role: Role, sq: Square) -> Text {
    let t = the(role);
    Text::new(format!("{} de {sq}", t.es), format!("{} on {sq}", t.en))
}

/// "del alfil de b5" / "de la torre de a1" (Spanish contraction), English "the
/// bishop on b5".
pub fn of_piece_on(role: Role, sq: Square) -> Text {
    let es = match role {
        Role::Rook | Role::Queen => format!("de la {} de {sq}", role.name_es()),
        _ => format!("del {} de {sq}", role.name_es()),
    };
    Text::new(es, format!("the {} on {sq}", role.name_en()))
}

fn color_es(c: Color) -> &'static str {
    match c {
        Color::White => "blancas",
        Color::Black => "negras",
    }
}

fn color_en(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// The nearest occupied square between `from` and `to` (exclusive), seen from
/// `from`.
fn first_blocker(pos: &Position, from: Square, to: Square) -> Option<Square> {
    (between(from, to) & pos.occupied()).min_by_key(|s| s.distance(from))
}

/// The attacker of `sq` by `by` to name (the nearest), with `occupied`.
fn an_attacker(pos: &Position, sq: Square, by: Color, occupied: Bitboard) -> Option<Square> {
    pos.attackers_to(sq, by, occupied)
        .min_by_key(|s| s.distance(sq))
}

fn piece_name(pos: &Position, sq: Square) -> Text {
    match pos.role_at(sq) {
        Some(r) => piece_on(r, sq),
        None => Text::new(format!("la casilla {sq}"), format!("the square {sq}")),
    }
}

fn of_piece_name(pos: &Position, sq: Square) -> Text {
    match pos.role_at(sq) {
        Some(r) => of_piece_on(r, sq),
        None => Text::new(format!("de {sq}"), format!("{sq}")),
    }
}

/// Why `m` is illegal in `pos`, said with the pieces and squares involved.
pub fn illegal(pos: &Position, m: Move, reason: IllegalReason) -> Text {
    let us = pos.turn();
    let (from, to) = (m.from(), m.to());
    match reason {
        IllegalReason::NoPiece => Text::new(
            format!("no hay ninguna pieza en {from}"),
            format!("there is no piece on {from}"),
        ),
        IllegalReason::OpponentPiece => Text::new(
            format!(
                "{} es de las {}: juegas con las {}",
                piece_name(pos, from).es,
                color_es(us.other()),
                color_es(us)
            ),
            format!(
                "{} is {}'s: you play {}",
                piece_name(pos, from).en,
                color_en(us.other()),
                color_en(us)
            ),
        ),
        IllegalReason::OwnPieceOnTarget => {
            let p = piece_name(pos, to);
            Text::new(
                format!("en {to} está {}, que es tuya: ninguna pieza puede ir a una casilla ocupada por otra de su mismo color", p.es),
                format!("{} on {to} is yours: no piece may move to a square occupied by a piece of its own colour", strip_on(&p.en)),
            )
        }
        IllegalReason::CannotReach(role) => cannot_reach(pos, role, from, to),
        IllegalReason::PromotionRequired => Text::new(
            "el peón que llega a la última fila tiene que coronarse: dama, torre, alfil o caballo",
            "a pawn reaching the last rank must be promoted: queen, rook, bishop or knight",
        ),
        IllegalReason::InvalidPromotion => Text::new(
            "solo corona un peón que llega a la última fila, y solo en dama, torre, alfil o caballo",
            "only a pawn reaching the last rank is promoted, and only to a queen, rook, bishop or knight",
        ),
        IllegalReason::CastlingRightLost => castling_lost(pos, to),
        IllegalReason::CastlingBlocked => {
            let side = CastlingSide::from_king_to(to);
            let rook = pos
                .castling_rights()
                .rook(us, side)
                .unwrap_or(side.rook_from(us));
            let path = (between(from, to).with(to) | between(rook, side.rook_to(us)).with(side.rook_to(us)))
                & pos.occupied();
            let path = path.without(from).without(rook);
            match path.min_by_key(|s| s.distance(from)) {
                Some(sq) => {
                    let p = piece_name(pos, sq);
                    Text::new(
                        format!("no puedes enrocar: {} está entre el rey y la torre", p.es),
                        format!("you cannot castle: {} stands between the king and the rook", p.en),
                    )
                }
                None => Text::new(
                    "no puedes enrocar: hay una pieza entre el rey y la torre",
                    "you cannot castle: a piece stands between the king and the rook",
                ),
            }
        }
        IllegalReason::CastlingInCheck => {
            let by = pos.checkers().first();
            match by {
                Some(sq) => Text::new(
                    format!("no puedes enrocar estando en jaque: tu rey está en jaque {}", of_piece_name(pos, sq).es),
                    format!("you cannot castle out of check: your king is in check from {}", of_piece_name(pos, sq).en),
                ),
                None => Text::new("no puedes enrocar estando en jaque", "you cannot castle out of check"),
            }
        }
        IllegalReason::CastlingThroughCheck => {
            let occ = pos.occupied().without(from);
            let path: Vec<Square> = {
                let mut v: Vec<Square> = between(from, to).with(to).collect();
                v.sort_by_key(|s| s.distance(from));
                v
            };
            for sq in path {
                if let Some(a) = an_attacker(pos, sq, us.other(), occ) {
                    let by = piece_on(pos.role_at(a).unwrap_or(Role::Pawn), a);
                    return if sq == to {
                        Text::new(
                            format!("no puedes enrocar: el rey quedaría en {sq}, atacada por {}", by.es),
                            format!("you cannot castle: the king would land on {sq}, attacked by {}", by.en),
                        )
                    } else {
                        Text::new(
                            format!("no puedes enrocar: el rey pasaría por {sq}, atacada por {}", by.es),
                            format!("you cannot castle: the king would pass through {sq}, attacked by {}", by.en),
                        )
                    };
                }
            }
            Text::new(
                "no puedes enrocar: el rey pasaría por una casilla atacada",
                "you cannot castle: the king would cross an attacked square",
            )
        }
        IllegalReason::EnPassantNotAvailable => Text::new(
            "la captura al paso solo se puede hacer justo después de que el peón contrario avance dos casillas y quede a tu lado",
            "en passant is possible only right after the opponent's pawn advances two squares and stands beside yours",
        ),
        IllegalReason::DoesNotAnswerCheck | IllegalReason::LeavesKingInCheck => {
            king_in_check(pos, m, reason)
        }
    }
}

/// "the bishop on b5" → "the bishop" for sentences that name the square apart.
fn strip_on(en: &str) -> String {
    match en.split_once(" on ") {
        Some((a, _)) => a.to_string(),
        None => en.to_string(),
    }
}

fn castling_lost(pos: &Position, to: Square) -> Text {
    let us = pos.turn();
    let rights = pos.castling_rights();
    if pos.king(us) != escaque::king_home(us) || !rights.has_color(us) {
        return Text::new(
            "no puedes enrocar: el rey ya se ha movido en esta partida, y el enroque tiene que ser el primer movimiento del rey",
            "you cannot castle: the king has already moved in this game, and castling must be the king's first move",
        );
    }
    let side = CastlingSide::from_king_to(to);
    let rook = side.rook_from(us);
    Text::new(
        format!("no puedes enrocar por ese lado: la torre de {rook} ya se ha movido (o no está), y el enroque tiene que ser su primer movimiento"),
        format!("you cannot castle on that side: the rook on {rook} has already moved (or is gone), and castling must be its first move"),
    )
}

fn king_in_check(pos: &Position, m: Move, reason: IllegalReason) -> Text {
    let us = pos.turn();
    let mut after = *pos;
    after.play_unchecked(m);
    let king = after.king(us);
    let attacker = an_attacker(&after, king, us.other(), after.occupied());
    let by = attacker.map(|a| of_piece_on(after.role_at(a).unwrap_or(Role::Pawn), a));
    let mover = pos.role_at(m.from());
    if mover == Some(Role::King) {
        let by = attacker.map(|a| piece_on(after.role_at(a).unwrap_or(Role::Pawn), a));
        return match by {
            Some(b) => Text::new(
                format!(
                    "el rey no puede ir a {}: esa casilla está atacada por {}",
                    m.to(),
                    b.es
                ),
                format!(
                    "the king cannot go to {}: that square is attacked by {}",
                    m.to(),
                    b.en
                ),
            ),
            None => Text::new(
                format!("el rey no puede ir a {}: quedaría en jaque", m.to()),
                format!("the king cannot go to {}: it would be in check", m.to()),
            ),
        };
    }
    let Some(by) = by else {
        return Text::new("tu rey quedaría en jaque", "your king would be in check");
    };
    if reason == IllegalReason::DoesNotAnswerCheck {
        return Text::new(
            format!("estás en jaque y esa jugada no lo resuelve: tu rey seguiría en jaque {}", by.es),
            format!("you are in check and that move does not answer it: your king would still be in check from {}", by.en),
        );
    }
    let mv = mover.map(|r| piece_on(r, m.from())).unwrap_or_default();
    let pinned_es = match mover {
        Some(Role::Rook | Role::Queen) => "clavada",
        _ => "clavado",
    };
    Text::new(
        format!(
            "{} está {pinned_es}: si se mueve, tu rey quedaría en jaque {}",
            capital(&mv.es),
            by.es
        ),
        format!(
            "{} is pinned: if it moves, your king would be in check from {}",
            capital(&mv.en),
            by.en
        ),
    )
}

/// The first letter in upper case.
pub fn capital(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

fn cannot_reach(pos: &Position, role: Role, from: Square, to: Square) -> Text {
    let blocked = |what_es: &str, what_en: &str| -> Option<Text> {
        first_blocker(pos, from, to).map(|b| {
            let p = piece_name(pos, b);
            Text::new(
                format!(
                    "{what_es} no salta por encima de las piezas: {} está en medio",
                    p.es
                ),
                format!("{what_en} cannot jump over pieces: {} is in the way", p.en),
            )
        })
    };
    let same_line = from.file() == to.file() || from.rank() == to.rank();
    let df = (from.file().index() as i32 - to.file().index() as i32).abs();
    let dr = (from.rank().index() as i32 - to.rank().index() as i32).abs();
    let diagonal = df == dr && df > 0;
    match role {
        Role::Rook => {
            if same_line {
                if let Some(t) = blocked("la torre", "the rook") {
                    return t;
                }
            }
            Text::new(
                "la torre se mueve por filas y columnas, en línea recta",
                "the rook moves along ranks and files, in a straight line",
            )
        }
        Role::Bishop => {
            if diagonal {
                if let Some(t) = blocked("el alfil", "the bishop") {
                    return t;
                }
            }
            if from.is_light() != to.is_light() {
                let c = |s: Square| if s.is_light() { ("blanca", "light") } else { ("negra", "dark") };
                return Text::new(
                    format!("el alfil se mueve en diagonal y va siempre por casillas del mismo color: {from} es {} y {to} es {}", c(from).0, c(to).0),
                    format!("the bishop moves diagonally and always stays on one colour: {from} is {} and {to} is {}", c(from).1, c(to).1),
                );
            }
            Text::new(
                "el alfil se mueve en diagonal",
                "the bishop moves diagonally",
            )
        }
        Role::Queen => {
            if same_line || diagonal {
                if let Some(t) = blocked("la dama", "the queen") {
                    return t;
                }
            }
            Text::new(
                "la dama se mueve por filas, columnas y diagonales, en línea recta (como la torre y el alfil juntos)",
                "the queen moves along ranks, files and diagonals, in a straight line (the rook and the bishop together)",
            )
        }
        Role::Knight => Text::new(
            "el caballo salta en L: dos casillas en una dirección y una a un lado",
            "the knight jumps in an L: two squares one way and one to the side",
        ),
        Role::King => Text::new(
            "el rey se mueve solo una casilla en cualquier dirección (salvo al enrocar: dos casillas hacia la torre)",
            "the king moves only one square in any direction (except when castling: two squares towards the rook)",
        ),
        Role::Pawn => pawn(pos, from, to),
    }
}

fn pawn(pos: &Position, from: Square, to: Square) -> Text {
    let us = pos.turn();
    let dir: i32 = if us == Color::White { 1 } else { -1 };
    let forward = (to.rank().index() as i32 - from.rank().index() as i32) * dir;
    let df = (to.file().index() as i32 - from.file().index() as i32).abs();
    if forward <= 0 {
        return Text::new(
            "el peón no puede retroceder ni moverse de lado: solo avanza",
            "a pawn cannot move back or sideways: it only advances",
        );
    }
    if df == 0 {
        if forward == 1 || forward == 2 {
            if let Some(b) = first_blocker(pos, from, to).or(pos.piece_at(to).map(|_| to)) {
                let p = piece_name(pos, b);
                return Text::new(
                    format!(
                        "el peón no captura de frente ni salta: {} le cierra el paso",
                        p.es
                    ),
                    format!(
                        "a pawn neither captures straight ahead nor jumps: {} blocks it",
                        p.en
                    ),
                );
            }
        }
        let second = escaque::Rank::SECOND.relative_to(us);
        if forward == 2 && from.rank() != second {
            return Text::new(
                "el peón solo puede avanzar dos casillas en su primer movimiento",
                "a pawn may advance two squares only on its first move",
            );
        }
        return Text::new(
            "el peón avanza una casilla (dos en su primer movimiento)",
            "a pawn advances one square (two on its first move)",
        );
    }
    if df == 1 && forward == 1 && pos.piece_at(to).is_none() {
        return Text::new(
            format!(
                "el peón solo va en diagonal para capturar, y en {to} no hay nada que capturar"
            ),
            format!(
                "a pawn goes diagonally only to capture, and there is nothing to capture on {to}"
            ),
        );
    }
    Text::new(
        "el peón avanza por su columna y captura una casilla en diagonal hacia delante",
        "a pawn advances along its file and captures one square diagonally forward",
    )
}
