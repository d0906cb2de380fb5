//! Rule sets: which endings a [`Game`](crate::Game) applies, and odds presets.
//!
//! Two rule sets are offered:
//!
//! * [`RuleSet::fide_2023`] (the default): the FIDE Laws of Chess in force from
//!   1 January 2023 as the seed extract and the Laws state them.
//! * [`RuleSet::londres_1846`]: the rules adopted by the London Chess Club, as
//!   printed in the 1846 Spanish edition of Philidor's *Análisis del juego de
//!   ajedrez* (seed 003). Where that text is silent (repetition claims, dead
//!   positions, agreement, time) the FIDE rules are kept. The differences are:
//!   1. **Stalemate** (art. xvi): *"el juego es empate … En Francia y otras
//!      naciones, el empate son tablas"* — a draw; the same article notes that
//!      *"En Inglaterra gana el juego aquel cuyo Rey es empate"*: with
//!      [`StalemateRule::StalematedPlayerWins`] the stalemated player wins.
//!   2. **No automatic endings by repetition or length**: the fivefold
//!      repetition (FIDE 9.6.1) and the seventy-five-move rule (FIDE 9.6.2) do
//!      not exist; the game goes on.
//!   3. **Fifty moves** (art. xvii): there is no fifty-move claim. When the
//!      players agree that one side cannot force a difficult mate (*"el del
//!      caballo y del arfil contra el Rey…"*) they fix fifty moves for each side
//!      ([`Game::agree_fifty_move_count`](crate::Game::agree_fifty_move_count));
//!      if no mate comes within those fifty moves each, *"se reputará tablas"*.
//!      The text counts from the agreement and says nothing of captures or pawn
//!      moves resetting the count, so none do.
//!
//! Dead positions: the 1846 text has no rule for them (its art. xvii lets
//! the players agree on fifty moves when a mate is doubtful). escaque keeps
//! FIDE 5.2.2 under both London sets, with the full decision of
//! [`crate::dead`]: a position in which neither side can mate ends drawn. With
//! the "Inglaterra" custom, where a stalemate wins, this is a simplification
//! made knowingly: a position without a possible mate may still allow a
//! stalemate, and escaque draws it all the same (as it always has for bare
//! kings and lone minor pieces).
//!
//! Odds games (art. ii, *"El que da una pieza debe ser mano, á no convenirse lo
//! contrario"*: the player giving a piece has the first move) are offered as
//! [`Odds`] presets that produce a starting FEN.
//!
//! ```
//! use escaque::{Game, Odds, RuleSet};
//!
//! // Knight odds: White gives the b1 knight and, as the giver, moves first.
//! assert_eq!(Odds::Knight.fen(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R1BQKBNR w KQkq - 0 1");
//! // Pawn and move: Black gives the f7 pawn and the move.
//! assert_eq!(Odds::PawnAndMove.fen(), "rnbqkbnr/ppppp1pp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
//! let game = Game::from_fen(&Odds::Rook.fen()).unwrap().with_rules(RuleSet::londres_1846());
//! assert_eq!(game.rules().name(), "Londres 1846");
//! ```

use crate::{Color, Position};

/// What a stalemate means.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum StalemateRule {
    /// The game is drawn (FIDE 5.2.1; London art. xvi, "en Francia y otras
    /// naciones").
    Draw,
    /// The stalemated player wins (London art. xvi, "en Inglaterra").
    StalematedPlayerWins,
}

/// How the fifty-move rule applies.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum FiftyMoveRule {
    /// Claimed by the player to move after fifty moves each without capture or
    /// pawn move (FIDE 9.3).
    Claim,
    /// Only when the players agree on it for a difficult ending; then the game is
    /// drawn after fifty moves by each side counted from the agreement (London
    /// art. xvii).
    WhenAgreed,
}

/// Which of the two rule books a [`RuleSet`] follows.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum RuleBook {
    /// FIDE Laws of Chess, 2023.
    Fide2023,
    /// London Chess Club, 1846 (Philidor, trad. Algarra).
    Londres1846,
}

/// The rules a game is played under. Build one with [`RuleSet::fide_2023`] or
/// [`RuleSet::londres_1846`] and adjust the public fields if needed.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct RuleSet {
    /// The rule book this set comes from.
    pub book: RuleBook,
    /// What stalemate means.
    pub stalemate: StalemateRule,
    /// Fivefold repetition and the seventy-five-move rule end the game
    /// automatically (FIDE 9.6).
    pub automatic_repetition_and_75: bool,
    /// How the fifty-move rule applies.
    pub fifty_moves: FiftyMoveRule,
}

impl Default for RuleSet {
    fn default() -> RuleSet {
        RuleSet::fide_2023()
    }
}

impl RuleSet {
    /// FIDE Laws of Chess, 2023: stalemate draws, fivefold repetition and 75
    /// moves end the game, threefold repetition and fifty moves on claim.
    pub const fn fide_2023() -> RuleSet {
        RuleSet {
            book: RuleBook::Fide2023,
            stalemate: StalemateRule::Draw,
            automatic_repetition_and_75: true,
            fifty_moves: FiftyMoveRule::Claim,
        }
    }

    /// London Chess Club, 1846: stalemate draws (art. xvi), no automatic
    /// fivefold/75-move endings, fifty moves only when agreed (art. xvii).
    pub const fn londres_1846() -> RuleSet {
        RuleSet {
            book: RuleBook::Londres1846,
            stalemate: StalemateRule::Draw,
            automatic_repetition_and_75: false,
            fifty_moves: FiftyMoveRule::WhenAgreed,
        }
    }

    /// London 1846 with the English custom of art. xvi: the stalemated player
    /// wins.
    pub const fn londres_1846_inglaterra() -> RuleSet {
        let mut r = RuleSet::londres_1846();
        r.stalemate = StalemateRule::StalematedPlayerWins;
        r
    }

    /// The name of the rule set in Spanish, as a player reads it.
    pub fn name(&self) -> &'static str {
        self.name_in(crate::Lang::Es)
    }

    /// The rule set's name in `lang` ("Londres 1846" is "London 1846" in English).
    pub fn name_in(&self, lang: crate::Lang) -> &'static str {
        if lang == crate::Lang::En {
            return match (self.book, self.stalemate) {
                (RuleBook::Fide2023, _) => "FIDE 2023",
                (RuleBook::Londres1846, StalemateRule::Draw) => "London 1846",
                (RuleBook::Londres1846, StalemateRule::StalematedPlayerWins) => {
                    "London 1846 (stalemate wins)"
                }
            };
        }
        match (self.book, self.stalemate) {
            (RuleBook::Fide2023, _) => "FIDE 2023",
            (RuleBook::Londres1846, StalemateRule::Draw) => "Londres 1846",
            (RuleBook::Londres1846, StalemateRule::StalematedPlayerWins) => {
                "Londres 1846 (ahogado gana)"
            }
        }
    }
}

impl RuleSet {
    /// The rule sets escaque offers, in the order a menu shows them: FIDE 2023,
    /// Londres 1846, Londres 1846 with the English custom (stalemate wins).
    pub const PRESETS: [RuleSet; 3] = [
        RuleSet::fide_2023(),
        RuleSet::londres_1846(),
        RuleSet::londres_1846_inglaterra(),
    ];

    /// The stable identifier, for files, databases and programs: `fide2023`,
    /// `london1846`, `london1846_english` (the English custom: stalemate
    /// wins). A set adjusted by hand is named by its book and stalemate rule.
    pub fn id(&self) -> &'static str {
        match (self.book, self.stalemate) {
            (RuleBook::Fide2023, _) => "fide2023",
            (RuleBook::Londres1846, StalemateRule::Draw) => "london1846",
            (RuleBook::Londres1846, StalemateRule::StalematedPlayerWins) => "london1846_english",
        }
    }

    /// The preset with identifier `id` ([`RuleSet::id`]), exactly. What people
    /// type (aliases, names in either language) is read by
    /// [`str::parse`]: see [`RuleSet::ALIASES`].
    pub fn from_id(id: &str) -> Option<RuleSet> {
        RuleSet::PRESETS.into_iter().find(|r| r.id() == id)
    }

    /// The other words people type for a preset, besides its identifier and
    /// its name in either language ([`RuleSet::name_in`]); compared ignoring
    /// case, spaces, hyphens, underscores and brackets. These are the words
    /// of the command line (`--reglas`) and of the server's `rules` field.
    pub const ALIASES: [(&'static str, RuleSet); 8] = [
        ("fide", RuleSet::fide_2023()),
        ("londres", RuleSet::londres_1846()),
        ("london", RuleSet::londres_1846()),
        ("londres1846", RuleSet::londres_1846()),
        ("londres-inglaterra", RuleSet::londres_1846_inglaterra()),
        ("londres1846-inglaterra", RuleSet::londres_1846_inglaterra()),
        ("london-english", RuleSet::londres_1846_inglaterra()),
        ("london1846-english", RuleSet::londres_1846_inglaterra()),
    ];
}

/// A text that names no rule set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownRuleSet {
    /// The text as given.
    pub text: String,
}

/// Lower case without spaces, hyphens, underscores and brackets: how typed
/// names are compared.
fn squash(t: &str) -> String {
    t.chars()
        .filter(|c| !matches!(c, ' ' | '-' | '_' | '(' | ')'))
        .flat_map(char::to_lowercase)
        .collect()
}

impl core::str::FromStr for RuleSet {
    type Err = UnknownRuleSet;

    /// The one reader of a rule set that a person typed: its identifier
    /// ([`RuleSet::id`]), an alias ([`RuleSet::ALIASES`]) or its name in
    /// either language, ignoring case, spaces, hyphens, underscores and
    /// brackets: `fide2023`, `fide`, `FIDE 2023`, `london1846`, `londres`,
    /// `Londres 1846`, `london1846_english`, `londres1846-inglaterra`,
    /// `Londres 1846 (ahogado gana)`.
    fn from_str(s: &str) -> Result<RuleSet, UnknownRuleSet> {
        let want = squash(s);
        let named = RuleSet::PRESETS.into_iter().find(|r| {
            squash(r.id()) == want
                || [crate::Lang::Es, crate::Lang::En]
                    .into_iter()
                    .any(|l| squash(r.name_in(l)) == want)
        });
        named
            .or_else(|| {
                RuleSet::ALIASES
                    .into_iter()
                    .find(|(a, _)| squash(a) == want)
                    .map(|(_, r)| r)
            })
            .ok_or_else(|| UnknownRuleSet { text: s.into() })
    }
}

/// An odds preset (ventaja), London art. ii.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Odds {
    /// "Peón y salida": the stronger player takes Black, removes the f7 pawn
    /// and gives the first move too: White moves first.
    PawnAndMove,
    /// A knight: the giver removes the queen's knight (b1 for White).
    Knight,
    /// A rook: the giver removes the queen's rook (a1 for White) and with it that
    /// castling right.
    Rook,
    /// The queen (d1 for White).
    Queen,
}

impl Odds {
    /// All presets.
    pub const ALL: [Odds; 4] = [Odds::PawnAndMove, Odds::Knight, Odds::Rook, Odds::Queen];

    /// The stable identifier, for files, databases and programs:
    /// `pawn_and_move`, `knight`, `rook`, `queen`.
    pub fn id(&self) -> &'static str {
        match self {
            Odds::PawnAndMove => "pawn_and_move",
            Odds::Knight => "knight",
            Odds::Rook => "rook",
            Odds::Queen => "queen",
        }
    }

    /// The preset with identifier `id` ([`Odds::id`]), exactly. What people
    /// type is read by [`str::parse`]: see [`Odds::ALIASES`].
    pub fn from_id(id: &str) -> Option<Odds> {
        Odds::ALL.into_iter().find(|o| o.id() == id)
    }

    /// The other words people type for a preset, besides its identifier and
    /// its name in either language; compared ignoring case, spaces, hyphens
    /// and underscores. These are the words of the command line
    /// (`--ventaja`) and of the server's `odds` field.
    pub const ALIASES: [(&'static str, Odds); 8] = [
        ("peón y salida", Odds::PawnAndMove),
        ("peon y salida", Odds::PawnAndMove),
        ("peón", Odds::PawnAndMove),
        ("peon", Odds::PawnAndMove),
        ("pawn", Odds::PawnAndMove),
        ("caballo", Odds::Knight),
        ("torre", Odds::Rook),
        ("dama", Odds::Queen),
    ];

    /// The Spanish name of the preset.
    pub fn name_es(self) -> &'static str {
        match self {
            Odds::PawnAndMove => "peón y salida",
            Odds::Knight => "ventaja de caballo",
            Odds::Rook => "ventaja de torre",
            Odds::Queen => "ventaja de dama",
        }
    }

    /// The English name of the preset.
    pub fn name_en(self) -> &'static str {
        match self {
            Odds::PawnAndMove => "pawn and move",
            Odds::Knight => "knight odds",
            Odds::Rook => "rook odds",
            Odds::Queen => "queen odds",
        }
    }

    /// The colour of the player giving the odds in the usual arrangement: Black
    /// for pawn and move (the move is part of what is given), White otherwise.
    pub fn usual_giver(self) -> Color {
        match self {
            Odds::PawnAndMove => Color::Black,
            _ => Color::White,
        }
    }

    /// The starting FEN with the usual giver ([`Odds::usual_giver`]).
    pub fn fen(self) -> String {
        self.fen_for(self.usual_giver())
    }

    /// The starting FEN when `giver` gives the odds. Art. ii: who gives a piece
    /// moves first ("debe ser mano"), so for a knight, rook or queen the giver
    /// moves first whatever its colour; for pawn and move the receiver does.
    pub fn fen_for(self, giver: Color) -> String {
        let mut ranks: Vec<String> = crate::STARTING_FEN
            .split(' ')
            .next()
            .unwrap_or("")
            .split('/')
            .map(str::to_string)
            .collect();
        // FEN lists rank 8 first.
        let (rank_idx, file) = match self {
            Odds::PawnAndMove => (giver.fold(6, 1), 5),
            Odds::Knight => (giver.fold(7, 0), 1),
            Odds::Rook => (giver.fold(7, 0), 0),
            Odds::Queen => (giver.fold(7, 0), 3),
        };
        let mut squares: Vec<char> = expand(&ranks[rank_idx]);
        squares[file] = '1';
        ranks[rank_idx] = compress(&squares);
        let first = match self {
            Odds::PawnAndMove => giver.other(),
            _ => giver,
        };
        let castling = match (self, giver) {
            (Odds::Rook, Color::White) => "Kkq",
            (Odds::Rook, Color::Black) => "KQk",
            _ => "KQkq",
        };
        format!(
            "{} {} {} - 0 1",
            ranks.join("/"),
            first.fen_char(),
            castling
        )
    }

    /// The starting position with the usual giver.
    pub fn position(self) -> Position {
        self.position_for(self.usual_giver())
    }

    /// The starting position when `giver` gives the odds ([`Odds::fen_for`]).
    pub fn position_for(self, giver: Color) -> Position {
        // The presets are valid FENs (checked by the tests).
        Position::from_fen(&self.fen_for(giver)).unwrap_or_default()
    }
}

/// A text that names no odds preset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownOdds {
    /// The text as given.
    pub text: String,
}

impl core::str::FromStr for Odds {
    type Err = UnknownOdds;

    /// The one reader of an odds preset that a person typed: its identifier
    /// ([`Odds::id`]), an alias ([`Odds::ALIASES`]: `caballo`, `peón`,
    /// `torre`, `dama`…) or its name in either language (`ventaja de
    /// caballo`, `knight odds`), ignoring case, spaces, hyphens and
    /// underscores.
    fn from_str(text: &str) -> Result<Odds, UnknownOdds> {
        let want = squash(text);
        Odds::ALL
            .into_iter()
            .find(|o| {
                squash(o.id()) == want || squash(o.name_es()) == want || squash(o.name_en()) == want
            })
            .or_else(|| {
                Odds::ALIASES
                    .into_iter()
                    .find(|(a, _)| squash(a) == want)
                    .map(|(_, o)| o)
            })
            .ok_or_else(|| UnknownOdds { text: text.into() })
    }
}

fn expand(rank: &str) -> Vec<char> {
    let mut out = Vec::with_capacity(8);
    for c in rank.chars() {
        match c.to_digit(10) {
            Some(n) => out.extend(std::iter::repeat_n('1', n as usize)),
            None => out.push(c),
        }
    }
    out
}

fn compress(squares: &[char]) -> String {
    let mut out = String::new();
    let mut empty = 0;
    for &c in squares {
        if c == '1' {
            empty += 1;
        } else {
            if empty > 0 {
                out.push(char::from(b'0' + empty));
                empty = 0;
            }
            out.push(c);
        }
    }
    if empty > 0 {
        out.push(char::from(b'0' + empty));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Role, Square};

    #[test]
    fn odds_presets_are_legal_and_remove_the_right_piece() {
        let cases = [
            (Odds::PawnAndMove, Square::F7, Color::White),
            (Odds::Knight, Square::B1, Color::White),
            (Odds::Rook, Square::A1, Color::White),
            (Odds::Queen, Square::D1, Color::White),
        ];
        let start = Position::new();
        for (odds, missing, first) in cases {
            let pos = Position::from_fen(&odds.fen()).expect("preset FEN must be valid");
            assert_eq!(pos.role_at(missing), None, "{odds:?}");
            assert!(start.role_at(missing).is_some());
            assert_eq!(pos.turn(), first, "{odds:?}");
            assert_eq!(pos.occupied().count(), 31, "{odds:?}");
        }
        let rook = Position::from_fen(&Odds::Rook.fen()).unwrap();
        assert_eq!(rook.castling_rights().to_fen(), "Kkq");
        assert_eq!(rook.pieces(Color::White, Role::Rook).count(), 1);
    }

    #[test]
    fn black_giver_moves_first_for_pieces() {
        for odds in [Odds::Knight, Odds::Rook, Odds::Queen] {
            let pos = Position::from_fen(&odds.fen_for(Color::Black)).unwrap();
            assert_eq!(pos.turn(), Color::Black);
            assert_eq!(pos.by_color(Color::Black).count(), 15);
            assert_eq!(pos.by_color(Color::White).count(), 16);
        }
        let pm = Position::from_fen(&Odds::PawnAndMove.fen_for(Color::White)).unwrap();
        assert_eq!(pm.role_at(Square::F2), None);
        assert_eq!(pm.turn(), Color::Black);
    }

    #[test]
    fn rule_sets_differ_as_documented() {
        let f = RuleSet::default();
        assert_eq!(f, RuleSet::fide_2023());
        let l = RuleSet::londres_1846();
        assert_eq!(l.stalemate, StalemateRule::Draw);
        assert!(!l.automatic_repetition_and_75);
        assert_eq!(l.fifty_moves, FiftyMoveRule::WhenAgreed);
        assert_eq!(
            RuleSet::londres_1846_inglaterra().stalemate,
            StalemateRule::StalematedPlayerWins
        );
    }
}

#[cfg(test)]
mod name_tests {
    use super::*;

    #[test]
    fn rule_sets_from_their_names() {
        for r in RuleSet::PRESETS {
            assert_eq!(RuleSet::from_id(r.id()), Some(r));
            assert_eq!(r.id().parse::<RuleSet>(), Ok(r));
            for l in [crate::Lang::Es, crate::Lang::En] {
                assert_eq!(r.name_in(l).parse::<RuleSet>(), Ok(r));
            }
        }
        for (alias, r) in RuleSet::ALIASES {
            assert_eq!(alias.parse::<RuleSet>(), Ok(r), "{alias}");
            // An alias is no identifier.
            assert_eq!(RuleSet::from_id(alias), None, "{alias}");
        }
        assert_eq!("londres1846".parse(), Ok(RuleSet::londres_1846()));
        assert_eq!(
            "London 1846 (stalemate wins)".parse(),
            Ok(RuleSet::londres_1846_inglaterra())
        );
        assert_eq!("FIDE2023".parse(), Ok(RuleSet::fide_2023()));
        assert_eq!("Londres".parse(), Ok(RuleSet::londres_1846()));
        assert!("ajedrez chino".parse::<RuleSet>().is_err());
    }
}

#[cfg(test)]
mod odds_name_tests {
    use super::*;

    #[test]
    fn odds_from_their_ids_aliases_and_names() {
        for o in Odds::ALL {
            assert_eq!(Odds::from_id(o.id()), Some(o));
            assert_eq!(o.id().parse::<Odds>(), Ok(o));
            assert_eq!(o.name_es().parse::<Odds>(), Ok(o));
            assert_eq!(o.name_en().parse::<Odds>(), Ok(o));
        }
        for (alias, o) in Odds::ALIASES {
            assert_eq!(alias.parse::<Odds>(), Ok(o), "{alias}");
            assert_eq!(Odds::from_id(alias), None, "{alias}");
        }
        assert_eq!("Caballo".parse::<Odds>(), Ok(Odds::Knight));
        assert_eq!("peon_y_salida".parse::<Odds>(), Ok(Odds::PawnAndMove));
        assert!("alfil".parse::<Odds>().is_err());
        assert_eq!(Odds::from_id("caballo"), None);
    }
}
