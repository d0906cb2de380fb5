//! The Dutch engine answers "no pairing" when none exists, without trying
//! every way down the score groups first (issue 58: a team Swiss without a
//! possible pairing took over a minute). An even field in which three
//! players may meet only one another (the organiser forbade each of them
//! every other player) has no pairing: the three cannot all be paired.
//! The time it takes is measured by running this test, not asserted.

use escaque_torneo::model::{Player, System, Tournament};
use escaque_torneo::{pairing, TorneoError};

fn field(n: u32, rounds: u32) -> Tournament {
    let mut t = Tournament::new("Sin emparejamiento", System::Swiss, rounds);
    for i in 0..n {
        let mut p = Player::new(&format!("Jugador {i:02}"));
        p.rating = Some(2200 - 10 * i as u16);
        t.add_player(p).unwrap();
    }
    t.sort_pairing_numbers();
    t
}

#[test]
fn three_players_who_may_meet_only_each_other_leave_no_pairing() {
    for n in [8, 20, 40] {
        let mut t = field(n, 5);
        for a in 1..=3 {
            for b in 4..=n {
                t.forbid(&[a, b], 1, 5).unwrap();
            }
        }
        assert_eq!(
            pairing::next_round(&t).unwrap_err(),
            TorneoError::NoPairing { round: 1 },
            "{n} players"
        );
        // Player 3 allowed to meet player 4: a pairing exists again.
        t.forbidden.retain(|f| f.players != vec![3, 4]);
        let r = pairing::next_round(&t).unwrap();
        assert_eq!(r.games.len() as u32, n / 2, "{n} players");
    }
}

#[test]
fn no_pairing_in_a_later_round_when_everyone_has_met() {
    // Six players, five rounds: a round robin's worth; a sixth round of
    // the Swiss has no pairing (everyone met everyone).
    let mut t = field(6, 6);
    for _ in 0..5 {
        match pairing::next_round(&t) {
            Ok(r) => {
                t.record_round(r).unwrap();
                let round = t.rounds.len() as u32;
                for b in 1..=3 {
                    t.set_result_board(round, b, escaque_torneo::Outcome::Draw)
                        .unwrap();
                }
            }
            Err(TorneoError::NoPairing { .. }) => return,
            Err(e) => panic!("{e:?}"),
        }
    }
    assert_eq!(
        pairing::next_round(&t).unwrap_err(),
        TorneoError::NoPairing { round: 6 }
    );
}
