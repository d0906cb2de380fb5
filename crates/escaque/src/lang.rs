//! The language of what a person reads.

/// The language of messages for people. Spanish is the default.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum Lang {
    /// Español.
    #[default]
    Es,
    /// English.
    En,
}

impl Lang {
    /// Picks the language from a locale string such as `LANG` (`en_GB.UTF-8` is
    /// English); Spanish for anything else, or when there is none.
    pub fn from_locale(locale: Option<&str>) -> Lang {
        match locale {
            Some(l) if l.to_ascii_lowercase().starts_with("en") => Lang::En,
            _ => Lang::Es,
        }
    }

    /// The other language.
    pub const fn other(self) -> Lang {
        match self {
            Lang::Es => Lang::En,
            Lang::En => Lang::Es,
        }
    }

    /// Chooses between a Spanish and an English text.
    #[inline]
    pub fn pick<T>(self, es: T, en: T) -> T {
        match self {
            Lang::Es => es,
            Lang::En => en,
        }
    }
}

/// Something that can be told to a person in either language.
pub trait Localized {
    /// The message in `lang`.
    fn message(&self, lang: Lang) -> String;
}
