//! Spanish wording of errors that come from other crates in English: serde's
//! JSON errors and axum's body rejections. The English text stays as those
//! crates give it; the Spanish one is built here, keeping what a person needs
//! to find the fault (the field name, the position).

use axum::extract::rejection::JsonRejection;
use axum::http::StatusCode;

/// A serde JSON error in Spanish: what is wrong, with the field or value
/// named as serde names it, and where (line and column).
pub fn serde_error_es(e: &serde_json::Error) -> String {
    let full = e.to_string();
    // serde_json appends " at line L column C" to the message.
    let msg = match full.rfind(" at line ") {
        Some(i) => &full[..i],
        None => full.as_str(),
    };
    let what = message_es(msg).unwrap_or_else(|| {
        use serde_json::error::Category;
        match e.classify() {
            Category::Data => "los datos no tienen la forma esperada".to_string(),
            Category::Eof => "el texto termina antes de tiempo".to_string(),
            Category::Syntax | Category::Io => "la sintaxis JSON no es válida".to_string(),
        }
    });
    if e.line() == 0 {
        what
    } else {
        format!("{what} (línea {}, columna {})", e.line(), e.column())
    }
}

/// Spanish for a field path as serde_path_to_error writes it (`a.b[0]`);
/// `None` when there is no path.
fn path_es(path: &str) -> Option<String> {
    (!path.is_empty() && path != ".").then(|| format!("en «{path}»: "))
}

/// The Spanish wording of one serde message, if it is one serde writes.
fn message_es(msg: &str) -> Option<String> {
    let quoted = |s: &str| s.trim_matches('`').to_string();
    if let Some(rest) = msg.strip_prefix("missing field ") {
        return Some(format!("falta el campo «{}»", quoted(rest)));
    }
    if let Some(rest) = msg.strip_prefix("unknown field ") {
        let (field, expected) = split_expected(rest);
        return Some(format!(
            "campo desconocido «{}»{}",
            quoted(field),
            expected_es(expected)
        ));
    }
    if let Some(rest) = msg.strip_prefix("unknown variant ") {
        let (v, expected) = split_expected(rest);
        return Some(format!(
            "valor desconocido «{}»{}",
            quoted(v),
            expected_es(expected)
        ));
    }
    if let Some(rest) = msg.strip_prefix("duplicate field ") {
        return Some(format!("campo repetido «{}»", quoted(rest)));
    }
    if let Some(rest) = msg.strip_prefix("invalid type: ") {
        let (got, expected) = split_expected(rest);
        return Some(format!(
            "tipo no válido: {}{}",
            kind_es(got),
            expected_es(expected)
        ));
    }
    if let Some(rest) = msg.strip_prefix("invalid value: ") {
        let (got, expected) = split_expected(rest);
        return Some(format!(
            "valor no válido: {}{}",
            kind_es(got),
            expected_es(expected)
        ));
    }
    if let Some(rest) = msg.strip_prefix("invalid length ") {
        let (got, expected) = split_expected(rest);
        return Some(format!(
            "longitud no válida: {got}{}",
            expected_es(expected)
        ));
    }
    let fixed = [
        ("expected value", "se esperaba un valor"),
        ("expected ident", "palabra no reconocida"),
        ("expected `,` or `]`", "se esperaba «,» o «]»"),
        ("expected `,` or `}`", "se esperaba «,» o «}»"),
        ("expected `:`", "se esperaba «:»"),
        (
            "EOF while parsing a value",
            "el texto termina antes de un valor",
        ),
        (
            "EOF while parsing an object",
            "el texto termina dentro de un objeto",
        ),
        (
            "EOF while parsing a list",
            "el texto termina dentro de una lista",
        ),
        (
            "EOF while parsing a string",
            "el texto termina dentro de un texto",
        ),
        ("trailing characters", "sobran caracteres al final"),
        ("trailing comma", "sobra una coma al final"),
        ("key must be a string", "la clave debe ser un texto"),
        ("invalid escape", "secuencia de escape no válida"),
        ("invalid number", "número no válido"),
        ("number out of range", "número fuera de rango"),
        ("invalid unicode code point", "carácter Unicode no válido"),
        ("recursion limit exceeded", "anidamiento demasiado profundo"),
        (
            "control character (\\u0000-\\u001F) found while parsing a string",
            "carácter de control dentro de un texto",
        ),
        (
            "lone leading surrogate in hex escape",
            "carácter Unicode incompleto",
        ),
    ];
    fixed
        .iter()
        .find(|(en, _)| msg == *en)
        .map(|(_, es)| es.to_string())
}

/// Splits `"X, expected Y"` into `X` and `Some(Y)`.
fn split_expected(s: &str) -> (&str, Option<&str>) {
    match s.find(", expected ") {
        Some(i) => (&s[..i], Some(&s[i + ", expected ".len()..])),
        None => (s, None),
    }
}

fn expected_es(expected: Option<&str>) -> String {
    match expected {
        None => String::new(),
        Some(e) => {
            if let Some(list) = e.strip_prefix("one of ") {
                format!("; se esperaba uno de: {}", list.replace('`', ""))
            } else if e.starts_with('`') {
                // Names serde lists itself: "`a`" or "`a` or `b`".
                let names: Vec<String> = e
                    .split(" or ")
                    .map(|n| format!("«{}»", n.trim_matches('`')))
                    .collect();
                format!("; se esperaba {}", names.join(" o "))
            } else if e == "there are no fields" {
                "; no se admite ningún campo".to_string()
            } else {
                format!("; se esperaba {}", kind_es(e))
            }
        }
    }
}

/// serde's names of JSON kinds (`a string`, `integer `7``, `struct X`) in
/// Spanish; a value written in backquotes is kept as it is.
fn kind_es(k: &str) -> String {
    let (word, value) = match k.find(" `") {
        Some(i) => (&k[..i], Some(k[i + 1..].trim_matches('`'))),
        None => (k, None),
    };
    let word = word.trim();
    let es = if word.starts_with("struct ") || word.starts_with("internally tagged enum") {
        "un objeto".to_string()
    } else if word.starts_with("enum ") || word.starts_with("variant identifier") {
        "un valor de la lista".to_string()
    } else {
        match word {
            "a string" | "string" => "un texto",
            "a borrowed string" => "un texto",
            "a character" | "char" => "un carácter",
            "integer" | "an integer" => "un número entero",
            "i64" | "i32" | "i16" | "i8" => "un número entero",
            "u64" | "u32" | "u16" | "u8" | "usize" => "un número entero no negativo",
            "floating point" | "f64" | "f32" => "un número decimal",
            "boolean" | "a boolean" => "verdadero o falso",
            "map" | "a map" => "un objeto",
            "sequence" | "a sequence" => "una lista",
            "null" | "unit" => "null",
            "unit value" => "null",
            "option" => "un valor o null",
            "field identifier" => "un nombre de campo",
            "a tuple" | "tuple" => "una lista",
            other => return keep_unknown(other, value),
        }
        .to_string()
    };
    match value {
        Some(v) => format!("{es} «{v}»"),
        None => es,
    }
}

/// A kind this table does not know: shown as a quoted name, so the text
/// around it stays Spanish.
fn keep_unknown(word: &str, value: Option<&str>) -> String {
    match value {
        Some(v) => format!("«{word}» «{v}»"),
        None => format!("«{word}»"),
    }
}

/// An axum JSON body rejection: status, Spanish and English text.
pub fn json_rejection(r: &JsonRejection) -> (StatusCode, String, String) {
    let en = format!("invalid JSON body: {}", r.body_text());
    let es = match r {
        JsonRejection::JsonDataError(_) | JsonRejection::JsonSyntaxError(_) => {
            match path_error(r) {
                Some((path, e)) => {
                    let what = serde_error_es(e);
                    // An unknown field's path is the field, already named.
                    let named = what.contains(&format!("«{path}»"));
                    let at = if named { None } else { path_es(&path) };
                    format!("cuerpo JSON no válido: {}{what}", at.unwrap_or_default())
                }
                None => "cuerpo JSON no válido".to_string(),
            }
        }
        JsonRejection::MissingJsonContentType(_) => {
            "el cuerpo debe ser JSON (Content-Type: application/json)".to_string()
        }
        JsonRejection::BytesRejection(_) => {
            if r.status() == StatusCode::PAYLOAD_TOO_LARGE {
                "el cuerpo de la petición es demasiado grande".to_string()
            } else {
                "no se pudo leer el cuerpo de la petición".to_string()
            }
        }
        _ => "cuerpo JSON no válido".to_string(),
    };
    // A body of the wrong shape is a bad request like one that does not
    // parse (axum would say 422); too large and not JSON keep 413 and 415.
    let status = match r {
        JsonRejection::JsonDataError(_) => StatusCode::BAD_REQUEST,
        _ => r.status(),
    };
    (status, es, en)
}

/// The serde error inside a JSON rejection, with its field path.
fn path_error(r: &JsonRejection) -> Option<(String, &serde_json::Error)> {
    let mut cause: Option<&(dyn std::error::Error + 'static)> = std::error::Error::source(r);
    while let Some(c) = cause {
        if let Some(p) = c.downcast_ref::<serde_path_to_error::Error<serde_json::Error>>() {
            return Some((p.path().to_string(), p.inner()));
        }
        if let Some(e) = c.downcast_ref::<serde_json::Error>() {
            return Some((String::new(), e));
        }
        cause = c.source();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn es(text: &str) -> String {
        #[derive(serde::Deserialize, Debug)]
        #[serde(deny_unknown_fields)]
        #[allow(dead_code)]
        struct T {
            name: String,
            n: u32,
        }
        serde_error_es(&serde_json::from_str::<T>(text).unwrap_err())
    }

    #[test]
    fn serde_errors_are_spanish_with_their_field_and_position() {
        let e = es(r#"{"name":"a","n":1,"extra":2}"#);
        assert!(
            e.starts_with("campo desconocido «extra»; se esperaba «name» o «n»"),
            "{e}"
        );
        assert!(e.contains("(línea 1, columna "), "{e}");
        assert!(es(r#"{"name":"a"}"#).starts_with("falta el campo «n»"));
        let e = es(r#"{"name":7,"n":1}"#);
        assert!(
            e.starts_with("tipo no válido: un número entero «7»; se esperaba un texto"),
            "{e}"
        );
        assert!(es("xyz").starts_with("se esperaba un valor"));
        assert!(es("not json").starts_with("palabra no reconocida"));
        assert!(es(r#"{"name":"#).starts_with("el texto termina antes de un valor"));
        let e = es(r#"{"name":"a","n":1} x"#);
        assert!(e.starts_with("sobran caracteres al final"), "{e}");
        for text in [
            "[1]",
            r#"{"n":-1,"name":"x"}"#,
            "",
            "{",
            r#"{"name":"a","name":"b"}"#,
        ] {
            let e = es(text);
            for english in ["expected", "field", "invalid", "missing", "unknown", "EOF"] {
                assert!(!e.contains(english), "{text}: {e}");
            }
        }
    }
}
