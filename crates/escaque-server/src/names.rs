//! Account names: what is accepted and when two names are the same.
//!
//! A name is read in Unicode NFC (a decomposed `José` is the composed
//! `José`) and then must:
//! * have 3 to 20 characters, each a letter, a digit, `_` or `-`;
//! * have no compatibility forms (full-width `ａｄｍｉｎ`, ligatures, superscripts:
//!   what NFKC would change);
//! * write its letters in one script (Latin, Greek, Cyrillic, …; digits,
//!   `_` and `-` go with any), so `аdmin` with a Cyrillic `а` is refused;
//! * not look like a guest's name (`invitado-…`, `guest-…`).
//!
//! Two names are the same account name when their skeletons are equal: the
//! name with the Cyrillic and Greek letters that look like Latin ones
//! replaced by those, then lower-cased. `Admin`, `admin` and a wholly
//! Cyrillic look-alike collide. The skeleton is what storage keeps unique.

use unicode_normalization::UnicodeNormalization;

/// Why a name is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameError {
    /// Length or characters.
    Form,
    /// A compatibility form (full-width, ligature…).
    Compatibility,
    /// Letters of more than one script.
    MixedScripts,
    /// Looks like a guest's name.
    GuestLike,
}

impl NameError {
    /// Spanish and English text.
    pub fn texts(self) -> (&'static str, &'static str) {
        match self {
            NameError::Form => (
                "el nombre debe tener de 3 a 20 letras, cifras, «_» o «-»",
                "the name must have 3 to 20 letters, digits, '_' or '-'",
            ),
            NameError::Compatibility => (
                "el nombre no puede usar formas de compatibilidad (letras de ancho completo, ligaduras, superíndices)",
                "the name cannot use compatibility forms (full-width letters, ligatures, superscripts)",
            ),
            NameError::MixedScripts => (
                "el nombre debe escribir todas sus letras en un mismo alfabeto (no latinas junto a cirílicas o griegas)",
                "the name must write all its letters in one script (not Latin beside Cyrillic or Greek)",
            ),
            NameError::GuestLike => (
                "ese nombre parece de invitado («invitado-…», «guest-…»)",
                "that name looks like a guest's (\"invitado-…\", \"guest-…\")",
            ),
        }
    }
}

/// A name that passed: as stored and shown (NFC), and its skeleton.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AccountName {
    /// NFC form.
    pub name: String,
    /// The key that must be unique.
    pub skeleton: String,
}

/// Checks a name typed at sign-up.
pub fn check(raw: &str) -> Result<AccountName, NameError> {
    let name: String = raw.nfc().collect();
    let n = name.chars().count();
    if !(3..=20).contains(&n)
        || !name
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '-')
    {
        return Err(NameError::Form);
    }
    if name.nfkc().ne(name.chars()) {
        return Err(NameError::Compatibility);
    }
    let mut scripts = name.chars().filter_map(script);
    if let Some(first) = scripts.next() {
        if scripts.any(|s| s != first) {
            return Err(NameError::MixedScripts);
        }
    }
    let skeleton = skeleton(&name);
    let guest_like = ["invitado", "guest"].iter().any(|p| {
        skeleton
            .strip_prefix(p)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with(['-', '_']))
    });
    if guest_like {
        return Err(NameError::GuestLike);
    }
    Ok(AccountName { name, skeleton })
}

/// The skeleton of a name (see the module's text); also how a name typed
/// at login is looked up.
pub fn skeleton(name: &str) -> String {
    name.nfc()
        .map(latin_lookalike)
        .flat_map(char::to_lowercase)
        .collect()
}

/// The Latin letter a Cyrillic or Greek letter is drawn like, if any.
fn latin_lookalike(c: char) -> char {
    match c {
        // Cyrillic capitals and small letters.
        'А' | 'а' => 'a',
        'В' => 'b',
        'Е' | 'е' => 'e',
        'К' => 'k',
        'М' => 'm',
        'Н' | 'һ' => 'h',
        'О' | 'о' => 'o',
        'Р' | 'р' => 'p',
        'С' | 'с' => 'c',
        'Т' => 't',
        'Х' | 'х' => 'x',
        'У' | 'у' => 'y',
        'Ѕ' | 'ѕ' => 's',
        'І' | 'і' | 'Ӏ' | 'ӏ' => 'i',
        'Ј' | 'ј' => 'j',
        'ԁ' => 'd',
        'Ԛ' | 'ԛ' => 'q',
        'Ԝ' | 'ԝ' => 'w',
        // Greek capitals and small letters.
        'Α' | 'α' => 'a',
        'Β' => 'b',
        'Ε' => 'e',
        'Ζ' => 'z',
        'Η' => 'h',
        'Ι' | 'ι' => 'i',
        'Κ' | 'κ' => 'k',
        'Μ' => 'm',
        'Ν' | 'ν' => 'v',
        'Ο' | 'ο' => 'o',
        'Ρ' | 'ρ' => 'p',
        'Τ' => 't',
        'Υ' | 'υ' => 'u',
        'Χ' | 'χ' => 'x',
        other => other,
    }
}

/// The script of a letter (or of a non-ASCII digit), by Unicode block;
/// `None` for ASCII digits, `_` and `-`, which go with any script. Blocks
/// this table does not name count each as a script of its own.
fn script(c: char) -> Option<u32> {
    const LATIN: u32 = 1;
    const GREEK: u32 = 2;
    const CYRILLIC: u32 = 3;
    const CJK: u32 = 4;
    if c.is_ascii_digit() || c == '_' || c == '-' {
        return None;
    }
    let u = c as u32;
    Some(match u {
        0x41..=0x5A | 0x61..=0x7A | 0xAA | 0xBA | 0xC0..=0x24F | 0x1E00..=0x1EFF => LATIN,
        0x2C60..=0x2C7F | 0xA720..=0xA7FF | 0xAB30..=0xAB6F => LATIN,
        0x370..=0x3FF | 0x1F00..=0x1FFF => GREEK,
        0x400..=0x52F | 0x1C80..=0x1C8F | 0x2DE0..=0x2DFF | 0xA640..=0xA69F => CYRILLIC,
        // Han, hiragana and katakana are written together.
        0x3040..=0x30FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF => CJK,
        // Any other block: its own script (100 + block number).
        _ => 100 + (u >> 7),
    })
}

/// A name as a Spanish class list orders it: without case or accents, `ñ`
/// after `n`, and each run of digits as its number ("Grupo 2" before
/// "Grupo 10").
pub fn natural_key(s: &str) -> Vec<(Vec<u32>, u64)> {
    let mut key = Vec::new();
    let mut text = Vec::new();
    let mut chars = s.chars().flat_map(char::to_lowercase).peekable();
    while let Some(c) = chars.next() {
        if let Some(d) = c.to_digit(10) {
            let mut n = u64::from(d);
            while let Some(d) = chars.peek().and_then(|c| c.to_digit(10)) {
                n = n.saturating_mul(10).saturating_add(u64::from(d));
                chars.next();
            }
            key.push((std::mem::take(&mut text), n));
            continue;
        }
        // Every letter weighs twice its code, so that ñ fits between n
        // and o.
        let weight = match c {
            'á' | 'à' | 'â' | 'ä' => u32::from('a') * 2,
            'é' | 'è' | 'ê' | 'ë' => u32::from('e') * 2,
            'í' | 'ì' | 'î' | 'ï' => u32::from('i') * 2,
            'ó' | 'ò' | 'ô' | 'ö' => u32::from('o') * 2,
            'ú' | 'ù' | 'û' | 'ü' => u32::from('u') * 2,
            'ç' => u32::from('c') * 2,
            'ñ' => u32::from('n') * 2 + 1,
            c => u32::from(c).saturating_mul(2),
        };
        text.push(weight);
    }
    key.push((text, 0));
    key
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_class_list_orders_numbers_by_value_and_n_tilde_after_n() {
        let mut v = vec![
            "Alumno 10",
            "alumno 2",
            "Álvaro",
            "Ñuño",
            "Nuria",
            "Oscar",
            "Alumno 1",
        ];
        v.sort_by_key(|s| natural_key(s));
        assert_eq!(
            v,
            [
                "Alumno 1",
                "alumno 2",
                "Alumno 10",
                "Álvaro",
                "Nuria",
                "Ñuño",
                "Oscar"
            ]
        );
    }

    #[test]
    fn names_that_impersonate_are_refused() {
        assert_eq!(check("invitado-287faa"), Err(NameError::GuestLike));
        assert_eq!(check("Guest_1"), Err(NameError::GuestLike));
        assert_eq!(check("\u{0430}dmin"), Err(NameError::MixedScripts));
        assert_eq!(check("ａｄｍｉｎ"), Err(NameError::Compatibility));
        assert_eq!(check("ﬁlo"), Err(NameError::Compatibility));
        assert_eq!(check("<script>"), Err(NameError::Form));
        assert_eq!(check("invitador").unwrap().name, "invitador");
    }

    #[test]
    fn nfc_and_skeletons() {
        let composed = check("Jos\u{e9}").unwrap();
        let decomposed = check("Jose\u{301}").unwrap();
        assert_eq!(composed, decomposed);
        assert_eq!(composed.name, "José");
        assert_eq!(skeleton("Admin"), skeleton("admin"));
        // Wholly Cyrillic look-alike of Latin "cop".
        let cyr = check("\u{0441}\u{043E}\u{0440}").unwrap();
        assert_eq!(cyr.skeleton, check("cop").unwrap().skeleton);
        assert!(check("Ζεύς").is_ok());
        assert!(check("Иван").is_ok());
        assert!(check("李小龍").is_ok());
    }
}
