//! docs/protocol.md against the protocol's types (issue 53): every answer
//! and message the server sends or reads is a serde type in `src/proto.rs`
//! or `src/proto/*.rs`, and every one of their fields (by its name on the
//! wire: `rename` applied, `skip` and `flatten` left out) and every message
//! kind of a tagged enum (`"t"` of a message, `"event"` of an event, in
//! snake case) is named in docs/protocol.md — in backquotes, in double
//! quotes, in a `{…}` shape (`{name, system, rounds?}`) or in a fenced
//! block (an example or a shape). A field added to
//! a type and not documented fails here, naming the type and the field.
//!
//! The sources and the document are read when the test runs, so the check
//! sees the tree as it is.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// A name on the wire, and where it comes from (`Type.field` or
/// `Enum::Variant`).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct WireName {
    name: String,
    from: String,
}

fn snake(s: &str) -> String {
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if c.is_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.extend(c.to_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// The value of `key = "…"` in a `#[serde(…)]` attribute.
fn attr_value(attr: &str, key: &str) -> Option<String> {
    let at = attr.find(&format!("{key} = \""))? + key.len() + 4;
    let end = attr[at..].find('"')?;
    Some(attr[at..at + end].to_string())
}

/// The identifier at the start of `s` (letters, digits, `_`).
fn ident(s: &str) -> &str {
    let end = s
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(s.len());
    &s[..end]
}

/// The wire names of the serde types of one source file: the fields of
/// every `pub struct` with named fields, and the variants (and their
/// fields) of every enum tagged with `#[serde(tag = …)]`. `#[cfg(test)]`
/// code is left out.
fn wire_names(source: &str, file: &str) -> Vec<WireName> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut attrs: Vec<String> = Vec::new();
    // (kind, name, depth of its body, rename_all snake case)
    let mut item: Option<(&str, String, i32, bool)> = None;
    let mut variant: Option<(String, i32)> = None;
    let mut skip_test_until: Option<i32> = None;
    for raw in source.lines() {
        let line = raw.trim();
        if line.starts_with("//") {
            continue;
        }
        let opens = line.matches('{').count() as i32;
        let closes = line.matches('}').count() as i32;
        if let Some(d) = skip_test_until {
            depth += opens - closes;
            if depth <= d {
                skip_test_until = None;
            }
            continue;
        }
        if line.starts_with("#[cfg(test)]") {
            skip_test_until = Some(depth);
            // The attribute's item starts on the next line: skip until the
            // depth comes back after it opened.
            attrs.clear();
            continue;
        }
        if line.starts_with("#[") {
            attrs.push(line.to_string());
            depth += opens - closes;
            continue;
        }
        let serde_attrs: Vec<&String> = attrs.iter().filter(|a| a.contains("serde(")).collect();
        let skipped = serde_attrs
            .iter()
            .any(|a| a.contains("serde(skip)") || a.contains("flatten"));
        let renamed = serde_attrs.iter().find_map(|a| attr_value(a, "rename"));
        match &item {
            None => {
                for (kind, prefix) in [("struct", "pub struct "), ("enum", "pub enum ")] {
                    if let Some(rest) = line.strip_prefix(prefix) {
                        let tagged = serde_attrs.iter().any(|a| a.contains("tag = "));
                        let snake_all = serde_attrs
                            .iter()
                            .any(|a| a.contains("rename_all = \"snake_case\""));
                        if line.ends_with('{') && (kind == "struct" || tagged) {
                            item = Some((kind, ident(rest).to_string(), depth + 1, snake_all));
                        }
                    }
                }
            }
            Some((kind, name, body, snake_all)) => {
                if *kind == "struct" && depth == *body {
                    if let Some(rest) = line.strip_prefix("pub ") {
                        let field = ident(rest.trim_start_matches("r#"));
                        if !field.is_empty() && rest.contains(':') && !skipped {
                            out.push(WireName {
                                name: renamed.unwrap_or_else(|| field.to_string()),
                                from: format!("{file}: {name}.{field}"),
                            });
                        }
                    }
                } else if *kind == "enum" && depth == *body {
                    let v = ident(line);
                    if !v.is_empty() && v.chars().next().is_some_and(char::is_uppercase) {
                        let wire = renamed.clone().unwrap_or_else(|| {
                            if *snake_all {
                                snake(v)
                            } else {
                                v.to_string()
                            }
                        });
                        out.push(WireName {
                            name: wire,
                            from: format!("{file}: {name}::{v}"),
                        });
                        if line.ends_with('{') {
                            variant = Some((v.to_string(), depth + 1));
                        }
                    }
                } else if let Some((v, vdepth)) = &variant {
                    if depth == *vdepth {
                        let field = ident(line);
                        if !field.is_empty() && line[field.len()..].starts_with(':') && !skipped {
                            out.push(WireName {
                                name: renamed.unwrap_or_else(|| field.to_string()),
                                from: format!("{file}: {name}::{v}.{field}"),
                            });
                        }
                    }
                }
            }
        }
        depth += opens - closes;
        if let Some((v, vdepth)) = &variant {
            let _ = v;
            if depth < *vdepth {
                variant = None;
            }
        }
        if let Some((_, _, body, _)) = &item {
            if depth < *body {
                item = None;
                variant = None;
            }
        }
        attrs.clear();
    }
    out
}

/// Every name docs/protocol.md gives: words in backquotes, in double
/// quotes, in `{…}` shapes, and in fenced blocks (examples and shapes).
fn documented(doc: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    let words = |s: &str, names: &mut BTreeSet<String>| {
        for w in s.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
            if !w.is_empty() {
                names.insert(w.to_string());
            }
        }
    };
    let mut fenced = false;
    for line in doc.lines() {
        // A fenced block (an example, a shape) names everything in it.
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            words(line, &mut names);
            continue;
        }
        for (open, close) in [('`', '`'), ('"', '"'), ('{', '}')] {
            let mut rest = line;
            while let Some(a) = rest.find(open) {
                let after = &rest[a + open.len_utf8()..];
                let Some(b) = after.find(close) else { break };
                let inside = &after[..b];
                if open == '{' || !inside.contains(' ') || inside.len() < 60 {
                    words(inside, &mut names);
                }
                rest = &after[b + close.len_utf8()..];
            }
        }
    }
    names
}

fn crate_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The protocol's sources: `src/proto.rs` and `src/proto/*.rs`.
fn proto_sources() -> Vec<(String, String)> {
    let src = crate_dir().join("src");
    let mut files = vec![src.join("proto.rs")];
    let mut more: Vec<PathBuf> = std::fs::read_dir(src.join("proto"))
        .expect("src/proto/")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "rs"))
        .collect();
    more.sort();
    files.extend(more);
    files
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).expect("a proto source");
            (rel(&p), text)
        })
        .collect()
}

fn rel(p: &Path) -> String {
    p.strip_prefix(crate_dir())
        .unwrap_or(p)
        .display()
        .to_string()
}

/// The wire names of `sources` that `doc` does not name.
fn undocumented(sources: &[(String, String)], doc: &str) -> Vec<WireName> {
    let known = documented(doc);
    sources
        .iter()
        .flat_map(|(file, text)| wire_names(text, file))
        .filter(|w| !known.contains(&w.name))
        .collect()
}

fn protocol_md() -> String {
    std::fs::read_to_string(crate_dir().join("../../docs/protocol.md")).expect("docs/protocol.md")
}

#[test]
fn every_field_of_the_protocol_is_documented() {
    let sources = proto_sources();
    let names: usize = sources.iter().map(|(f, t)| wire_names(t, f).len()).sum();
    // The reader finds the types (a reader that found nothing would pass).
    assert!(names > 300, "only {names} wire names found in src/proto*");
    let missing = undocumented(&sources, &protocol_md());
    assert!(
        missing.is_empty(),
        "docs/protocol.md does not name these fields or messages of the protocol's types:\n{}",
        missing
            .iter()
            .map(|w| format!("  \"{}\" ({})", w.name, w.from))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// The check itself: a field added to a type, a renamed field and a new
/// message kind are caught; a skipped or flattened field and test code are
/// not asked for.
#[test]
fn an_undocumented_field_is_caught() {
    let source = r#"
/// An answer.
#[derive(Serialize)]
pub struct Answer {
    /// Documented.
    pub game: String,
    /// Not documented.
    pub zorblax_count: u32,
    #[serde(rename = "quuxed")]
    pub renamed: bool,
    #[serde(skip)]
    pub hidden_thing: u8,
    #[serde(flatten)]
    pub inner_flat: Inner,
}

#[derive(Serialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum Msg {
    /// A documented message.
    State(StateMsg),
    /// A new one.
    WobbleNow {
        /// Its field.
        wobble_size: u32,
    },
}

#[cfg(test)]
mod tests {
    pub struct NotProtocol {
        pub test_only_field: u8,
    }
}
"#;
    let doc = "`game` and `state` and {\"t\": \"wobble_now\"}";
    let missing: BTreeSet<String> = undocumented(&[("x.rs".into(), source.into())], doc)
        .into_iter()
        .map(|w| w.name)
        .collect();
    let expected: BTreeSet<String> = ["zorblax_count", "quuxed", "wobble_size"]
        .into_iter()
        .map(String::from)
        .collect();
    assert_eq!(missing, expected);
}

/// `text` without its `#[cfg(test)]` items (the item after each such
/// attribute, to its closing brace or semicolon).
fn without_test_code(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..at]);
        let after = &rest[at..];
        let (brace, semi) = (after.find('{'), after.find(';'));
        let end = match (brace, semi) {
            (_, Some(s)) if brace.is_none_or(|b| s < b) => s + 1,
            (Some(b), _) => {
                let mut depth = 0;
                let mut end = after.len();
                for (i, c) in after[b..].char_indices() {
                    match c {
                        '{' => depth += 1,
                        '}' => {
                            depth -= 1;
                            if depth == 0 {
                                end = b + i + 1;
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                end
            }
            _ => after.len(),
        };
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).expect("a source folder").flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// No answer or message is built as a `json!` literal outside tests (issue
/// 53): each is a type in `proto`, which the test above holds to the
/// protocol's text.
#[test]
fn no_json_literals_outside_tests() {
    let mut files = Vec::new();
    rust_files(&crate_dir().join("src"), &mut files);
    files.sort();
    let mut found = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).expect("a source file");
        for line in without_test_code(&text).lines() {
            let code = line.split("//").next().unwrap_or("");
            if code.contains("json!(") {
                found.push(format!("  {}: {}", rel(f), line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "json! literals outside tests (make each a type in src/proto/):\n{}",
        found.join("\n")
    );
    // The reader of test code: a literal in a test module is not counted,
    // one outside it is.
    let sample = "fn a() { x(); }\n#[cfg(test)]\nmod tests { fn b() { json!({}); } }\nfn c() { json!(1); }\n";
    assert_eq!(without_test_code(sample).matches("json!(").count(), 1);
}

/// A path with every `{name}` written `{}`, without an optional tail
/// (`[?…]`, `?…`) or the sentence's last `.` or `:`.
fn route_shape(path: &str) -> String {
    let path = path.split(['[', '?']).next().unwrap_or("");
    let path = path.trim_end_matches(['.', ':']);
    let mut out = String::new();
    let mut in_param = false;
    for c in path.chars() {
        match c {
            '{' => {
                in_param = true;
                out.push_str("{}");
            }
            '}' => in_param = false,
            _ if in_param => {}
            _ => out.push(c),
        }
    }
    out
}

/// The protocol's routes: `/api/…`, `/ws/…` and `/interno/…` (the pages
/// are not the protocol).
fn is_protocol_route(path: &str) -> bool {
    ["/api", "/ws", "/interno"]
        .iter()
        .any(|p| path == *p || path.starts_with(&format!("{p}/")))
}

const METHODS: [&str; 5] = ["GET", "POST", "PUT", "DELETE", "PATCH"];

/// (method, route shape) of every `.route("…", get(…).post(…))` in
/// `source`.
fn served_routes(source: &str) -> BTreeSet<(String, String)> {
    let mut out = BTreeSet::new();
    let mut rest = source;
    while let Some(at) = rest.find(".route(") {
        let after = &rest[at + ".route(".len()..];
        // The path literal, then the method router up to the closing paren.
        let Some(q1) = after.find('"') else { break };
        let Some(q2) = after[q1 + 1..].find('"') else {
            break;
        };
        let path = &after[q1 + 1..q1 + 1 + q2];
        let body_start = q1 + 2 + q2;
        let mut depth = 1;
        let mut end = after.len();
        for (i, c) in after[body_start..].char_indices() {
            match c {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        end = body_start + i;
                        break;
                    }
                }
                _ => {}
            }
        }
        let body = &after[body_start..end];
        for m in METHODS {
            let call = format!("{}(", m.to_lowercase());
            let mut b = body;
            while let Some(k) = b.find(&call) {
                let before = b[..k].chars().next_back();
                if !before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                    out.insert((m.to_string(), route_shape(path)));
                }
                b = &b[k + call.len()..];
            }
        }
        rest = &after[body_start..];
    }
    out
}

/// (method, route shape) of every `GET /api/…` the document names; a path
/// ending in `…` names a family (returned with the `…`).
fn documented_routes(doc: &str) -> BTreeSet<(String, String)> {
    let mut out = BTreeSet::new();
    for line in doc.lines() {
        for m in METHODS {
            let mut rest = line;
            let pat = format!("{m} /");
            while let Some(at) = rest.find(&pat) {
                let before = rest[..at].chars().next_back();
                let path_start = at + m.len() + 1;
                let tail = &rest[path_start..];
                let end = tail
                    .find(|c: char| c.is_whitespace() || "`)]|,".contains(c))
                    .unwrap_or(tail.len());
                if !before.is_some_and(|c| c.is_alphanumeric()) {
                    out.insert((m.to_string(), route_shape(&tail[..end])));
                }
                rest = &tail[end..];
            }
        }
    }
    out
}

/// The server's own sources (its binaries' test servers left out).
fn server_sources() -> Vec<(String, String)> {
    let mut files = Vec::new();
    rust_files(&crate_dir().join("src"), &mut files);
    files.sort();
    files
        .into_iter()
        .filter(|p| !p.components().any(|c| c.as_os_str() == "bin"))
        .map(|p| (rel(&p), std::fs::read_to_string(&p).expect("a source file")))
        .collect()
}

/// The other direction (issue 53): every endpoint docs/protocol.md names
/// is served with that method, and every endpoint the server routes is
/// named there — an independent client written from the document finds
/// nothing missing and nothing extra.
#[test]
fn every_documented_endpoint_is_served_and_every_served_one_documented() {
    let mut served = BTreeSet::new();
    for (_, text) in server_sources() {
        served.extend(served_routes(&without_test_code(&text)));
    }
    let served: BTreeSet<_> = served
        .into_iter()
        .filter(|(_, p)| is_protocol_route(p))
        .collect();
    assert!(served.len() > 80, "only {} routes read", served.len());
    let documented: BTreeSet<_> = documented_routes(&protocol_md())
        .into_iter()
        .filter(|(_, p)| is_protocol_route(p))
        .collect();
    let missing_in_server: Vec<_> = documented
        .iter()
        .filter(|(m, p)| match p.strip_suffix('…') {
            // A family: some route of that method starts with it.
            Some(prefix) => !served
                .iter()
                .any(|(sm, sp)| sm == m && sp.starts_with(prefix)),
            None => !served.contains(&(m.clone(), p.clone())),
        })
        .collect();
    let missing_in_doc: Vec<_> = served.difference(&documented).collect();
    assert!(
        missing_in_server.is_empty() && missing_in_doc.is_empty(),
        "documented, not served: {missing_in_server:?}\nserved, not documented: {missing_in_doc:?}"
    );
}

/// Every message kind the document shows (`{"t":"…"}`, `"event":"…"`) is
/// one the protocol's types send or read: a variant of a tagged enum or a
/// message type's fixed `t`/`event`. The one exception is the document's
/// example of a kind the server does not know.
#[test]
fn every_documented_message_kind_is_a_type() {
    let doc = protocol_md();
    let mut kinds = BTreeSet::new();
    for key in ["\"t\"", "\"event\""] {
        let mut rest = doc.as_str();
        while let Some(at) = rest.find(key) {
            let after = rest[at + key.len()..].trim_start();
            if let Some(v) = after.strip_prefix(':') {
                let v = v.trim_start();
                if let Some(v) = v.strip_prefix('"') {
                    let name = ident(v);
                    if !name.is_empty() && v[name.len()..].starts_with('"') {
                        kinds.insert(name.to_string());
                    }
                }
            }
            rest = &rest[at + key.len()..];
        }
    }
    assert!(kinds.len() > 20, "only {} message kinds read", kinds.len());
    let mut known: BTreeSet<String> = proto_sources()
        .iter()
        .flat_map(|(f, t)| wire_names(t, f))
        .map(|w| w.name)
        .collect();
    // Message types with a fixed kind, set where they are built:
    // `t: "seeks"`, `event: "move"`.
    for (_, text) in server_sources() {
        let text = without_test_code(&text);
        for key in ["t: \"", "event: \""] {
            let mut rest = text.as_str();
            while let Some(at) = rest.find(key) {
                let v = &rest[at + key.len()..];
                known.insert(ident(v).to_string());
                rest = v;
            }
        }
    }
    let unknown: Vec<_> = kinds
        .iter()
        .filter(|k| !known.contains(*k) && k.as_str() != "castle_now")
        .collect();
    assert!(
        unknown.is_empty(),
        "docs/protocol.md shows message kinds no protocol type has: {unknown:?}"
    );
    // The example of an unknown kind is still refused as one.
    assert!(doc.contains("castle_now") && doc.contains("unknown_type"));
}

/// The route readers themselves: methods, parameters and optional tails.
#[test]
fn the_route_readers_read_what_they_should() {
    let src = r#"Router::new()
        .route("/api/x/{id}", get(a).post(b))
        .route(
            "/ws/y/{game}",
            get(ws),
        )
        .route("/clases", get(page))"#;
    let served = served_routes(src);
    let want: BTreeSet<(String, String)> = [
        ("GET", "/api/x/{}"),
        ("POST", "/api/x/{}"),
        ("GET", "/ws/y/{}"),
        ("GET", "/clases"),
    ]
    .into_iter()
    .map(|(m, p)| (m.to_string(), p.to_string()))
    .collect();
    assert_eq!(served, want);
    let doc = "`GET /api/x/{n}[?full=1]` and POST /api/x/{n}. Not XGET /api/z.";
    let documented = documented_routes(doc);
    assert!(documented.contains(&("GET".to_string(), "/api/x/{}".to_string())));
    assert!(documented.contains(&("POST".to_string(), "/api/x/{}".to_string())));
    assert_eq!(documented.len(), 2);
}
