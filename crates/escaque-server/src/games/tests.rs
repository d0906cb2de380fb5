//! The game builder, combination by combination.

use escaque::{CastlingStyle, Color, Odds, Position, RuleSet};
use proptest::prelude::*;
use serde_json::Value;

use super::*;

const FEN: &str = "4k3/8/8/8/8/8/4P3/4K2R w K - 0 1";
const CHOICES: [ColorChoice; 3] = [ColorChoice::White, ColorChoice::Black, ColorChoice::Random];

fn spec(variant: Variant, fen: Option<&str>, odds: Option<Odds>, color: ColorChoice) -> GameSpec {
    GameSpec {
        variant,
        fen: fen.map(str::to_string),
        odds,
        color,
    }
}

fn person(name: &str) -> Seat {
    Seat::Person {
        owner: format!("u:{name}"),
        name: name.into(),
    }
}

fn owner(s: &Seat) -> &str {
    match s {
        Seat::Person { owner, .. } => owner,
        Seat::Open => "open",
        Seat::Engine(_) => "engine",
    }
}

/// Each colour asked for, drawn 200 times: the colours it may give.
fn colours(s: &GameSpec) -> Vec<Color> {
    let mut seen = Vec::new();
    for _ in 0..200 {
        let c = s.start().unwrap().first;
        if !seen.contains(&c) {
            seen.push(c);
        }
    }
    seen.sort_by_key(|c| *c == Color::Black);
    seen
}

fn expected(choice: ColorChoice) -> Vec<Color> {
    match choice {
        ColorChoice::White => vec![Color::White],
        ColorChoice::Black => vec![Color::Black],
        ColorChoice::Random => vec![Color::White, Color::Black],
    }
}

#[test]
fn the_usual_position_with_each_colour() {
    for c in CHOICES {
        let s = GameSpec::standard(c);
        let start = s.start().unwrap();
        assert_eq!(start.position.to_fen(), Position::new().to_fen());
        assert!(!start.chess960);
        assert_eq!(colours(&s), expected(c), "{c:?}");
    }
}

#[test]
fn a_fen_with_each_colour() {
    for c in CHOICES {
        let s = spec(Variant::Standard, Some(FEN), None, c);
        let start = s.start().unwrap();
        assert_eq!(start.position.to_fen(), FEN);
        assert!(!start.chess960);
        assert_eq!(colours(&s), expected(c), "{c:?}");
    }
}

#[test]
fn a_fen_wins_over_odds_and_keeps_the_colour_asked() {
    for o in Odds::ALL {
        for c in CHOICES {
            let s = spec(Variant::Standard, Some(FEN), Some(o), c);
            assert_eq!(s.start().unwrap().position.to_fen(), FEN);
            assert_eq!(colours(&s), expected(c), "{o:?} {c:?}");
        }
    }
}

#[test]
fn odds_are_given_from_the_usual_side_whatever_colour_was_asked() {
    for o in Odds::ALL {
        for c in CHOICES {
            let start = spec(Variant::Standard, None, Some(o), c).start().unwrap();
            assert_eq!(start.first, o.usual_giver(), "{o:?} {c:?}");
            assert_eq!(
                start.position.to_fen(),
                o.position_for(o.usual_giver()).to_fen()
            );
            assert_ne!(start.position.to_fen(), Position::new().to_fen());
            assert!(!start.chess960);
        }
    }
}

#[test]
fn chess960_numbered_drawn_and_from_a_fen() {
    for n in [0u16, 518, 959] {
        for c in CHOICES {
            let s = spec(Variant::Chess960(Some(n)), None, None, c);
            let start = s.start().unwrap();
            assert_eq!(start.position.chess960_number(), Some(n));
            assert!(start.chess960);
            assert_eq!(colours(&s), expected(c), "{n} {c:?}");
        }
    }
    let drawn: std::collections::HashSet<u16> = (0..50)
        .map(|_| {
            let s = spec(Variant::Chess960(None), None, None, ColorChoice::White);
            s.start().unwrap().position.chess960_number().unwrap()
        })
        .collect();
    assert!(drawn.len() > 1, "one position drawn 50 times: {drawn:?}");
    // A FEN with Chess960 castling (Shredder), read as Chess960.
    let p7 = Position::chess960(7).unwrap();
    let shredder = p7.to_fen_with(CastlingStyle::Shredder);
    let start = spec(
        Variant::Chess960(None),
        Some(&shredder),
        None,
        ColorChoice::Black,
    )
    .start()
    .unwrap();
    assert!(start.chess960);
    assert_eq!(start.first, Color::Black);
    assert_eq!(
        start.position.to_fen_with(CastlingStyle::Shredder),
        shredder
    );
}

#[test]
fn chess960_takes_no_odds_nor_a_fen_with_a_number() {
    for o in Odds::ALL {
        for v in [Variant::Chess960(None), Variant::Chess960(Some(3))] {
            let r = spec(v, None, Some(o), ColorChoice::White).start();
            assert_eq!(r.unwrap_err(), Refusal::Chess960Mix);
        }
    }
    let r = spec(
        Variant::Chess960(Some(3)),
        Some(FEN),
        None,
        ColorChoice::White,
    )
    .start();
    assert_eq!(r.unwrap_err(), Refusal::Chess960Mix);
    assert_eq!(Refusal::Chess960Mix.code(), "bad_variant");
    // A seek is checked when posted, before anything is drawn.
    let s = spec(
        Variant::Chess960(None),
        None,
        Some(Odds::Rook),
        ColorChoice::Random,
    );
    assert_eq!(s.check(), Err(Refusal::Chess960Mix));
    assert_eq!(GameSpec::standard(ColorChoice::Random).check(), Ok(()));
}

#[test]
fn a_bad_fen_is_refused_with_its_reason() {
    for bad in [
        "",
        "no es un fen",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1",
        "4k3/8/8/8/8/8/8/4K2K w - - 0 1",
        "4k3/8/8/8/8/8/8/4K3 x - - 0 1",
    ] {
        let reason = Position::from_fen(bad).unwrap_err();
        for c in CHOICES {
            let r = spec(Variant::Standard, Some(bad), None, c)
                .start()
                .unwrap_err();
            assert_eq!(r, Refusal::BadFen(reason.clone()), "{bad:?}");
            assert_eq!(r.code(), "bad_fen");
            let (es, en) = r.text();
            assert_eq!(es, reason.message(Lang::Es));
            assert_eq!(en, reason.message(Lang::En));
            assert_ne!(es, en, "{bad:?}: Spanish and English texts");
        }
    }
}

#[test]
fn the_readers_refuse_with_the_text_sent() {
    assert_eq!(read_odds(None), Ok(None));
    assert_eq!(read_odds(Some("rook")), Ok(Some(Odds::Rook)));
    let r = read_odds(Some("alfil y medio")).unwrap_err();
    assert_eq!(r, Refusal::UnknownOdds("alfil y medio".into()));
    assert_eq!(r.code(), "bad_odds");
    assert!(r.text().0.contains("«alfil y medio»"), "{:?}", r.text());

    for (text, c) in [
        ("white", ColorChoice::White),
        ("blancas", ColorChoice::White),
        ("black", ColorChoice::Black),
        ("negras", ColorChoice::Black),
        ("random", ColorChoice::Random),
        ("azar", ColorChoice::Random),
    ] {
        assert_eq!(ColorChoice::read(Some(text), ColorChoice::White), Ok(c));
    }
    assert_eq!(
        ColorChoice::read(None, ColorChoice::Random),
        Ok(ColorChoice::Random)
    );
    assert_eq!(
        ColorChoice::read(None, ColorChoice::White),
        Ok(ColorChoice::White)
    );
    let r = ColorChoice::read(Some("verde"), ColorChoice::White).unwrap_err();
    assert_eq!(r.code(), "bad_color");
    assert!(r.text().1.contains("\"verde\""));
    for c in CHOICES {
        assert_eq!(ColorChoice::read(Some(c.id()), ColorChoice::White), Ok(c));
    }

    let r = Variant::read(None, Some(&Value::from(5))).unwrap_err();
    assert_eq!(r, Refusal::PositionWithoutChess960);
    assert_eq!(r.code(), "bad_position");
    let r = Variant::read(Some("chess960"), Some(&Value::from(960))).unwrap_err();
    assert_eq!(r, Refusal::PositionOutOfRange("960".into()));
    let r = Variant::read(Some("atómico"), None).unwrap_err();
    assert_eq!(r.code(), "bad_variant");
    assert_eq!(
        Variant::stored("chess960", Some(4)),
        Variant::Chess960(Some(4))
    );
    assert_eq!(Variant::stored("standard", Some(4)), Variant::Standard);
}

#[test]
fn the_first_seat_sits_on_its_colour() {
    for c in [ColorChoice::White, ColorChoice::Black] {
        let settings = Settings {
            rules: RuleSet::londres_1846(),
            time_control: Some("5+3".parse().unwrap()),
            rated: true,
            class_id: Some("k".into()),
        };
        let (g, first) =
            build(&GameSpec::standard(c), person("ana"), Seat::Open, settings).unwrap();
        assert_eq!(first, c.draw());
        let (mine, other) = first.fold((&g.white, &g.black), (&g.black, &g.white));
        assert_eq!(owner(mine), "u:ana");
        assert_eq!(owner(other), "open");
        assert_eq!(g.rules, RuleSet::londres_1846());
        assert_eq!(
            g.time_control.map(|t| t.to_string()).as_deref(),
            Some("5+3")
        );
        assert!(g.rated);
        assert_eq!(g.class_id.as_deref(), Some("k"));
    }
    // Odds: the first seat sits on the giver's colour.
    let (g, first) = build(
        &spec(
            Variant::Standard,
            None,
            Some(Odds::Queen),
            ColorChoice::Black,
        ),
        person("ana"),
        person("bea"),
        Settings::casual(None, None),
    )
    .unwrap();
    assert_eq!(first, Odds::Queen.usual_giver());
    assert_eq!(owner(first.fold(&g.white, &g.black)), "u:ana");
    assert_eq!(owner(first.other().fold(&g.white, &g.black)), "u:bea");
    assert!(!g.rated && g.class_id.is_none() && !g.chess960);
    assert_eq!(g.rules, RuleSet::fide_2023());
}

fn any_position() -> impl Strategy<Value = Option<Value>> {
    prop_oneof![
        Just(None),
        Just(Some(Value::Null)),
        any::<i64>().prop_map(|n| Some(Value::from(n))),
        (0u16..960).prop_map(|n| Some(Value::from(n))),
        any::<f64>().prop_map(|f| Some(Value::from(f))),
        ".{0,8}".prop_map(|s| Some(Value::from(s))),
        Just(Some(Value::from("random"))),
    ]
}

fn maybe(words: &'static [&'static str]) -> impl Strategy<Value = Option<String>> {
    prop_oneof![
        Just(None),
        prop::sample::select(words).prop_map(|w| Some(w.to_string())),
        ".{0,12}".prop_map(Some),
    ]
}

fn any_fen() -> impl Strategy<Value = Option<String>> {
    prop_oneof![
        Just(None),
        Just(Some(FEN.to_string())),
        "[rnbqkpRNBQKP1-8/]{0,40} [wb] [KQkqA-Ha-h-]{1,4} [a-h1-8-]{1,2} [0-9]{1,3} [0-9]{1,3}"
            .prop_map(Some),
        ".{0,60}".prop_map(Some),
    ]
}

proptest! {
    /// Random FEN, odds, colour, variant and position texts: read and
    /// built without a panic, and a game built is what was asked.
    #[test]
    fn the_builder_never_panics(
        fen in any_fen(),
        odds in maybe(&["rook", "torre", "knight", "queen", "pawn_and_move", "dama"]),
        color in maybe(&["white", "black", "random", "azar", "negras"]),
        variant in maybe(&["standard", "chess960", "960", "estándar"]),
        position in any_position(),
    ) {
        let read = (|| {
            let odds = read_odds(odds.as_deref())?;
            let color = ColorChoice::read(color.as_deref(), ColorChoice::Random)?;
            let variant = Variant::read(variant.as_deref(), position.as_ref())?;
            Ok::<_, Refusal>(GameSpec { variant, fen: fen.clone(), odds, color })
        })();
        let Ok(s) = read else {
            let r = read.unwrap_err();
            prop_assert!(!r.code().is_empty() && !r.text().0.is_empty());
            return Ok(());
        };
        match build(&s, person("ana"), Seat::Open, Settings::casual(None, None)) {
            Ok((g, first)) => {
                prop_assert_eq!(g.chess960, s.variant.is_chess960());
                prop_assert_eq!(owner(first.fold(&g.white, &g.black)), "u:ana");
                if let (None, Some(o), false) = (&s.fen, s.odds, g.chess960) {
                    prop_assert_eq!(first, o.usual_giver());
                }
                if let (None, Some(n)) = (&s.fen, s.variant.number()) {
                    prop_assert_eq!(g.start.chess960_number(), Some(n));
                }
            }
            Err(r) => {
                let (es, en) = r.text();
                prop_assert!(!es.is_empty() && !en.is_empty());
                prop_assert!(
                    matches!(r, Refusal::BadFen(_) | Refusal::Chess960Mix),
                    "{r:?}"
                );
            }
        }
    }
}
