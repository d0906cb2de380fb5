//! Generated names, passwords and class codes for children: Spanish words
//! without accents or `ñ` (typed on any tablet's keyboard), and nothing
//! that reads two ways: no `0`/`O`, `1`/`l`/`I`, `5`/`S`, `8`/`B` in
//! codes, no `0` or `1` in names and passwords, passwords in lower case.

use rand::seq::IndexedRandom;
use rand::Rng;

/// Animals (the first half of an account name).
pub const ANIMALS: &[&str] = &[
    "Gato", "Lobo", "Oso", "Zorro", "Tigre", "Puma", "Koala", "Panda", "Tortuga", "Ardilla",
    "Conejo", "Caballo", "Pulpo", "Cebra", "Jirafa", "Foca", "Pato", "Gallo", "Loro", "Mono",
    "Erizo", "Castor", "Nutria", "Ciervo", "Burro", "Grillo", "Cisne", "Tiburon", "Canguro",
    "Hormiga", "Gorrion", "Paloma", "Rana", "Ballena", "Vaca", "Cabra", "Oveja", "Topo", "Mapache",
    "Perro",
];

/// Adjectives that do not change with gender (the second half).
pub const ADJECTIVES: &[&str] = &[
    "Azul",
    "Verde",
    "Feliz",
    "Veloz",
    "Alegre",
    "Fuerte",
    "Valiente",
    "Audaz",
    "Gentil",
    "Brillante",
    "Amable",
    "Tenaz",
    "Libre",
    "Noble",
    "Gris",
    "Rosa",
    "Lila",
    "Celeste",
    "Capaz",
    "Grande",
    "Cortes",
    "Sonriente",
    "Paciente",
    "Curioso",
];

/// Short nouns for passwords (lower case, no `l` next to a digit).
pub const NOUNS: &[&str] = &[
    "sol", "mar", "pan", "luna", "nube", "mesa", "casa", "rio", "flor", "pera", "uva", "lima",
    "taza", "silla", "barco", "tren", "coche", "libro", "papel", "queso", "miel", "fresa", "mango",
    "kiwi", "coco", "nido", "hoja", "rama", "roca", "playa", "isla", "campo", "monte", "lago",
    "nieve", "lluvia", "viento", "fuego", "tierra", "cielo", "torre", "rey", "dama", "peon",
    "alfil", "caballo", "tablero", "reloj", "jaque", "gol", "pelota", "cometa", "globo", "tambor",
    "flauta", "guitarra", "piano", "lapiz", "goma", "mochila", "regla", "tiza", "pizarra", "patio",
];

/// Digits that cannot be read as letters.
const DIGITS: &[u8] = b"23456789";

/// A class code's letters and digits: none that reads two ways.
const CODE_ALPHABET: &[u8] = b"ACDEFGHJKMNPQRTUVWXY34679";

/// Length of a class code.
pub const CODE_LEN: usize = 6;

/// An account name: an animal, an adjective and two digits
/// (`TortugaValiente47`), at most 20 characters.
pub fn account_name(rng: &mut impl Rng) -> String {
    loop {
        let a = ANIMALS.choose(rng).copied().unwrap_or("Gato");
        let b = ADJECTIVES.choose(rng).copied().unwrap_or("Azul");
        let d1 = DIGITS[rng.random_range(0..DIGITS.len())] as char;
        let d2 = DIGITS[rng.random_range(0..DIGITS.len())] as char;
        let name = format!("{a}{b}{d1}{d2}");
        if name.chars().count() <= 20 {
            return name;
        }
    }
}

/// A password: two nouns and three digits (`nube-torre-473`), lower
/// case, at least 8 characters.
pub fn password(rng: &mut impl Rng) -> String {
    let a = NOUNS.choose(rng).copied().unwrap_or("sol");
    let mut b = NOUNS.choose(rng).copied().unwrap_or("mar");
    while b == a {
        b = NOUNS.choose(rng).copied().unwrap_or("mar");
    }
    let digits: String = (0..3)
        .map(|_| DIGITS[rng.random_range(0..DIGITS.len())] as char)
        .collect();
    format!("{a}-{b}-{digits}")
}

/// A class code: six characters from [`CODE_ALPHABET`] (`K7PXM4`).
pub fn class_code(rng: &mut impl Rng) -> String {
    (0..CODE_LEN)
        .map(|_| CODE_ALPHABET[rng.random_range(0..CODE_ALPHABET.len())] as char)
        .collect()
}

/// A typed class code as compared: upper case, spaces and dashes left out.
pub fn normalise_code(typed: &str) -> String {
    typed
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '-')
        .flat_map(char::to_uppercase)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_names_pass_the_names_rule_and_read_one_way() {
        let mut rng = rand::rng();
        for _ in 0..2000 {
            let n = account_name(&mut rng);
            assert!(crate::names::check(&n).is_ok(), "{n}");
            assert!(!n.contains(['0', '1']), "{n}");
            let p = password(&mut rng);
            assert!(p.chars().count() >= 8, "{p}");
            assert!(p
                .chars()
                .all(|c| c.is_ascii_lowercase() || c == '-' || c.is_ascii_digit()));
            assert!(!p.contains(['0', '1']), "{p}");
            let c = class_code(&mut rng);
            assert_eq!(c.len(), CODE_LEN);
            assert!(
                !c.contains(['0', 'O', '1', 'I', 'L', '5', 'S', '8', 'B']),
                "{c}"
            );
            assert_eq!(
                normalise_code(&format!(" {}-{} ", &c[..3], c[3..].to_lowercase())),
                c
            );
        }
        for w in ANIMALS.iter().chain(ADJECTIVES).chain(NOUNS) {
            assert!(w.is_ascii(), "{w}: no accents or ñ");
        }
    }
}
