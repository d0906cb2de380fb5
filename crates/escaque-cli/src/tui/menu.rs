//! The new-game menu: opponent, colour, time control, rule set, start
//! position. Each row is a list to step through with ←→; the clock and the
//! position also take a typed text.

use escaque::{Color, Lang, Odds};

/// Index of the typed FEN in the position row.
const FEN_ENTRY: usize = Odds::ALL.len() + 1;

use crate::i18n::{text, MenuRow, Msg, PlayerKind};
use crate::play::backend::RuleChoice;
use crate::play::session::Config;

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
    pub rules: RuleChoice,
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
            [PlayerKind::Human, PlayerKind::Engine(n)] => (n, 0),
            [PlayerKind::Engine(n), PlayerKind::Human] => (n, 1),
            _ => (0, 0),
        };
        let (clock, custom_clock) = match &config.clock {
            None => (0, String::new()),
            Some(c) => match CLOCKS.iter().position(|k| k == c) {
                Some(i) => (i, String::new()),
                None => (CLOCKS.len(), c.clone()),
            },
        };
        let (position, custom_fen) = match (&config.fen, config.odds) {
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
    pub fn to_config(&self, random: impl FnOnce() -> bool) -> Config {
        let me = match self.color {
            0 => Color::White,
            1 => Color::Black,
            _ => Color::from_white(random()),
        };
        let other = if self.opponent == 0 {
            PlayerKind::Human
        } else {
            PlayerKind::Engine(self.opponent)
        };
        let players = match me {
            Color::White => [PlayerKind::Human, other],
            Color::Black => [other, PlayerKind::Human],
        };
        let clock = if self.clock == 0 {
            None
        } else if self.clock < CLOCKS.len() {
            Some(CLOCKS[self.clock].to_string())
        } else {
            Some(self.custom_clock.trim().to_string()).filter(|s| !s.is_empty())
        };
        let fen = if self.position == FEN_ENTRY {
            Some(self.custom_fen.trim().to_string()).filter(|s| !s.is_empty())
        } else {
            None
        };
        let odds = match self.position {
            0 => None,
            i if i < FEN_ENTRY => Some(Odds::ALL[i - 1]),
            _ => None,
        };
        Config {
            players,
            clock,
            rules: self.rules,
            fen,
            odds,
        }
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
                let all = RuleChoice::ALL;
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
                        text(lang, &Msg::Player(PlayerKind::Human))
                    }
                    MenuRow::Opponent => {
                        text(lang, &Msg::Player(PlayerKind::Engine(self.opponent)))
                    }
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
        assert_eq!(m.to_config(|| true), c);
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
        let c2 = m.to_config(|| true);
        assert_eq!(c2.players, [PlayerKind::Engine(4), PlayerKind::Human]);
        assert_eq!(c2.clock.as_deref(), Some("2+1"));
        assert_eq!(c2.rules, RuleChoice::London1846);
        assert_eq!(c2.odds, Some(Odds::Knight));
        assert_eq!(m.lines(Lang::Es)[4].1, "ventaja de caballo");
        // Typing on the position row selects the typed FEN.
        assert!(m.type_char('8'));
        assert_eq!(m.to_config(|| true).fen.as_deref(), Some("8"));
        assert_eq!(m.to_config(|| true).odds, None);
    }
}
