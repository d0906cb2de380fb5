//! The new-game menu: opponent, colour, time control, rule set, start
//! position. Each row is a list to step through with ←→; the clock and the
//! position also take a typed text.

use escaque::{Color, Lang, Odds, Position, RuleSet, TimeControl};
use escaque_play::{Config, Level, Player};

/// Index of the typed FEN in the position row.
const FEN_ENTRY: usize = Odds::ALL.len() + 1;

use crate::error::CliError;
use crate::i18n::{text, MenuRow, Msg};

/// The time controls offered; the last entry is the typed one.
pub const CLOCKS: &[&str] = &["", "1+0", "3+2", "5+3", "10+5", "15+10", "30+0", "90+30"];

/// The rows in order.
pub const ROWS: [MenuRow; 6] = [
    MenuRow::Opponent,
    MenuRow::Color,
    MenuRow::Clock,
    MenuRow::Rules,
    MenuRow::Position,
    MenuRow::Start,
];

/// The menu's state.
#[derive(Clone, Debug)]
pub struct Menu {
    /// The highlighted row.
    pub row: usize,
    /// 0: a person; 1–10: the engine at that level.
    pub opponent: u32,
    /// 0 White, 1 Black, 2 random.
    pub color: usize,
    /// Index in [`CLOCKS`]; `CLOCKS.len()` is the typed one.
    pub clock: usize,
    /// The typed time control.
    pub custom_clock: String,
    /// The rule set.
    pub rules: RuleSet,
    /// 0: standard; 1–4: an odds preset ([`Odds::ALL`]); 5: the typed FEN.
    pub position: usize,
    /// The typed FEN.
    pub custom_fen: String,
    /// The last error, shown under the rows.
    pub error: Option<String>,
}

impl Menu {
    /// A menu showing `config`, with "Empezar" highlighted.
    pub fn from_config(config: &Config) -> Menu {
        let (opponent, color) = match config.players {
            [Player::Human, Player::Engine(l)] => (l.number(), 0),
            [Player::Engine(l), Player::Human] => (l.number(), 1),
            _ => (0, 0),
        };
        let (clock, custom_clock) = match &config.clock {
            None => (0, String::new()),
            Some(c) => {
                let c = c.to_string();
                match CLOCKS.iter().position(|k| *k == c) {
                    Some(i) => (i, String::new()),
                    None => (CLOCKS.len(), c),
                }
            }
        };
        let fen = config.start.map(|p| p.to_fen());
        let (position, custom_fen) = match (&fen, config.odds) {
            (_, Some(o)) => (
                1 + Odds::ALL.iter().position(|x| *x == o).unwrap_or(0),
                String::new(),
            ),
            (None, None) => (0, String::new()),
            (Some(f), None) => (FEN_ENTRY, f.clone()),
        };
        Menu {
            row: ROWS.len() - 1,
            opponent,
            color,
            clock,
            custom_clock,
            rules: config.rules,
            position,
            custom_fen,
            error: None,
        }
    }

    /// The set-up the menu describes; `random` picks the colour when asked.
    /// A typed clock or FEN that cannot be read is an error.
    pub fn to_config(&self, random: impl FnOnce() -> bool) -> Result<Config, CliError> {
        let me = match self.color {
            0 => Color::White,
            1 => Color::Black,
            _ => Color::from_white(random()),
        };
        let other = match Level::from_number(self.opponent) {
            None => Player::Human,
            Some(l) => Player::Engine(l),
        };
        let players = match me {
            Color::White => [Player::Human, other],
            Color::Black => [other, Player::Human],
        };
        let clock_text = if self.clock == 0 {
            None
        } else if self.clock < CLOCKS.len() {
            Some(CLOCKS[self.clock])
        } else {
            Some(self.custom_clock.trim()).filter(|s| !s.is_empty())
        };
        let clock = match clock_text {
            Some(c) => Some(TimeControl::parse(c).map_err(CliError::Clock)?),
            None => None,
        };
        let fen = if self.position == FEN_ENTRY {
            Some(self.custom_fen.trim()).filter(|s| !s.is_empty())
        } else {
            None
        };
        let start = match fen {
            Some(f) => Some(Position::from_fen(f).map_err(CliError::Fen)?),
            None => None,
        };
        let odds = match self.position {
            0 => None,
            i if i < FEN_ENTRY => Some(Odds::ALL[i - 1]),
            _ => None,
        };
        Ok(Config {
            players,
            clock,
            rules: self.rules,
            start,
            odds,
            // The menu offers standard chess; Chess960 is `jugar --960`.
            chess960: None,
        })
    }

    /// Moves the highlight up or down.
    pub fn step_row(&mut self, down: bool) {
        let n = ROWS.len();
        self.row = if down {
            (self.row + 1) % n
        } else {
            (self.row + n - 1) % n
        };
    }

    /// Changes the highlighted row's value.
    pub fn step_value(&mut self, right: bool) {
        let step = |v: usize, n: usize| if right { (v + 1) % n } else { (v + n - 1) % n };
        match ROWS[self.row] {
            MenuRow::Opponent => self.opponent = step(self.opponent as usize, 11) as u32,
            MenuRow::Color => self.color = step(self.color, 3),
            MenuRow::Clock => self.clock = step(self.clock, CLOCKS.len() + 1),
            MenuRow::Rules => {
                let all = RuleSet::PRESETS;
                let i = all.iter().position(|r| *r == self.rules).unwrap_or(0);
                self.rules = all[step(i, all.len())];
            }
            MenuRow::Position => self.position = step(self.position, FEN_ENTRY + 1),
            MenuRow::Start => {}
        }
    }

    /// A typed character: edits the custom clock or FEN on those rows
    /// (selecting the custom entry). False when the row takes no text.
    pub fn type_char(&mut self, c: char) -> bool {
        match ROWS[self.row] {
            MenuRow::Clock => {
                self.clock = CLOCKS.len();
                self.custom_clock.push(c);
                true
            }
            MenuRow::Position => {
                self.position = FEN_ENTRY;
                self.custom_fen.push(c);
                true
            }
            _ => false,
        }
    }

    /// Backspace on a text row.
    pub fn backspace(&mut self) {
        match ROWS[self.row] {
            MenuRow::Clock => {
                self.custom_clock.pop();
            }
            MenuRow::Position => {
                self.custom_fen.pop();
            }
            _ => {}
        }
    }

    /// The rows as (label, value) pairs in `lang`.
    pub fn lines(&self, lang: Lang) -> Vec<(String, String)> {
        ROWS.iter()
            .map(|r| {
                let label = text(lang, &Msg::MenuRow(*r));
                let value = match r {
                    MenuRow::Opponent if self.opponent == 0 => {
                        text(lang, &Msg::Player(Player::Human))
                    }
                    MenuRow::Opponent => match Level::from_number(self.opponent) {
                        Some(l) => text(lang, &Msg::Player(Player::Engine(l))),
                        None => text(lang, &Msg::Player(Player::Human)),
                    },
                    MenuRow::Color => match self.color {
                        0 => text(lang, &Msg::Side(Color::White)),
                        1 => text(lang, &Msg::Side(Color::Black)),
                        _ => text(lang, &Msg::RandomColor),
                    },
                    MenuRow::Clock if self.clock == 0 => text(lang, &Msg::ClockLabel(None)),
                    MenuRow::Clock if self.clock < CLOCKS.len() => CLOCKS[self.clock].into(),
                    MenuRow::Clock => format!("{} {}", text(lang, &Msg::Custom), self.custom_clock),
                    MenuRow::Rules => self.rules.name_in(lang).into(),
                    MenuRow::Position if self.position == 0 => text(lang, &Msg::StartPosition),
                    MenuRow::Position if self.position < FEN_ENTRY => {
                        let o = Odds::ALL[self.position - 1];
                        lang.pick(o.name_es(), o.name_en()).to_string()
                    }
                    MenuRow::Position => format!("FEN: {}", self.custom_fen),
                    MenuRow::Start => String::new(),
                };
                (label, value)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_menu_gives_default_config_and_edits_change_it() {
        let c = Config::default();
        let mut m = Menu::from_config(&c);
        assert_eq!(m.to_config(|| true).unwrap(), c);
        m.row = 0;
        m.step_value(false); // level 5 -> 4
        m.row = 1;
        m.step_value(true); // Black
        m.row = 2;
        for ch in "2+1".chars() {
            assert!(m.type_char(ch));
        }
        m.row = 3;
        m.step_value(true);
        m.row = 4;
        m.step_value(true);
        m.step_value(true); // knight odds
        let c2 = m.to_config(|| true).unwrap();
        let four = Level::from_number(4).unwrap();
        assert_eq!(c2.players, [Player::Engine(four), Player::Human]);
        assert_eq!(c2.clock.map(|c| c.to_string()).as_deref(), Some("2+1"));
        assert_eq!(c2.rules, RuleSet::londres_1846());
        assert_eq!(c2.odds, Some(Odds::Knight));
        assert_eq!(m.lines(Lang::Es)[4].1, "ventaja de caballo");
        // Typing on the position row selects the typed FEN; a FEN that
        // cannot be read is an error, a good one the start position.
        assert!(m.type_char('8'));
        assert!(matches!(m.to_config(|| true), Err(CliError::Fen(_))));
        m.custom_fen.clear();
        for ch in "4k3/8/8/8/8/8/8/4K3 w - - 0 1".chars() {
            assert!(m.type_char(ch));
        }
        let c3 = m.to_config(|| true).unwrap();
        assert_eq!(c3.odds, None);
        assert_eq!(
            c3.start.map(|p| p.to_fen()).as_deref(),
            Some("4k3/8/8/8/8/8/8/4K3 w - - 0 1")
        );
    }
}
