//! The Baku acceleration (FIDE C.04.5.1) as TRF-2026 `250` records.
//!
//! Before round 1 the players are split into two groups: GA, the first
//! half of the players rounded up to an even number (2 × ⌈n/4⌉: 82 of
//! 161), and GB, the rest. The accelerated rounds are the first half of
//! the tournament (rounded up); in the first half of those (rounded up) the
//! players of GA carry one virtual point, in the rest half a point. Players
//! of GB never carry any, nor does anyone after the last accelerated round.
//!
//! Late entries (C.04.5.1, "Late entries"): they take their place in the
//! pairing list by C.04.2, and the last GA player stays the same player,
//! so a late entry placed above that player is in GA (GA may then hold an
//! odd number of players). [`acceleration`] gives the records for the
//! players as numbered now, taking "the last GA player" from the players
//! of round 1 — so it is to be computed again after late entries have
//! taken their numbers ([`crate::model::Tournament::sort_pairing_numbers`]).

use crate::model::{Acceleration, System, Tournament};

/// The number of players in GA for a field of `n` players: the first half
/// rounded up to an even number.
pub fn group_a_size(n: u32) -> u32 {
    (2 * n.div_ceil(4)).min(n)
}

/// The accelerated rounds of an event of `rounds` rounds: `(full, half)`,
/// rounds `1..=full` with one virtual point and `full+1..=half` with half
/// a point.
pub fn accelerated_rounds(rounds: u32) -> (u32, u32) {
    let accelerated = rounds.div_ceil(2);
    (accelerated.div_ceil(2), accelerated)
}

/// The pairing number of the last GA player: among the players who take
/// part from round 1 (in pairing-number order), the `group_a_size`-th; late
/// entries numbered above that player are in GA too.
pub fn last_group_a_player(t: &Tournament) -> Option<u32> {
    let first: Vec<u32> = t
        .players
        .iter()
        .enumerate()
        .filter(|(_, p)| p.entry_round <= 1)
        .map(|(i, _)| i as u32 + 1)
        .collect();
    let k = group_a_size(first.len() as u32);
    (k > 0).then(|| first[k as usize - 1])
}

/// The Baku acceleration of a Swiss tournament as `250` records (points in
/// half points): nothing for a round robin, a field under 2 players or an
/// event of one round.
pub fn acceleration(t: &Tournament) -> Vec<Acceleration> {
    if !matches!(t.system, System::Swiss) || t.players.len() < 2 || t.total_rounds < 2 {
        return Vec::new();
    }
    let Some(last) = last_group_a_player(t) else {
        return Vec::new();
    };
    let (full, half) = accelerated_rounds(t.total_rounds);
    let mut out = vec![Acceleration {
        points: 2,
        first_round: 1,
        last_round: full,
        first_player: 1,
        last_player: last,
    }];
    if half > full {
        out.push(Acceleration {
            points: 1,
            first_round: full + 1,
            last_round: half,
            first_player: 1,
            last_player: last,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Player;

    fn swiss(n: u32, rounds: u32) -> Tournament {
        let mut t = Tournament::new("t", System::Swiss, rounds);
        for i in 0..n {
            t.add_player(Player::new(&format!("P{i}"))).unwrap();
        }
        t
    }

    #[test]
    fn group_a_is_the_first_half_rounded_up_to_an_even_number() {
        // C.04.5.1's own example: 161 players, GA 82.
        assert_eq!(group_a_size(161), 82);
        assert_eq!(group_a_size(160), 80);
        assert_eq!(group_a_size(22), 12);
        assert_eq!(group_a_size(23), 12);
        assert_eq!(group_a_size(3), 2);
    }

    #[test]
    fn nine_rounds_accelerate_five_three_with_a_point() {
        // C.04.5.1's example: nine rounds, five accelerated, one virtual
        // point in the first three and half a point in rounds 4 and 5.
        assert_eq!(accelerated_rounds(9), (3, 5));
        assert_eq!(accelerated_rounds(5), (2, 3));
        assert_eq!(accelerated_rounds(2), (1, 1));
        let mut t = swiss(161, 9);
        let a = acceleration(&t);
        t.accelerations = a.clone();
        assert_eq!(a.len(), 2);
        assert_eq!((a[0].points, a[0].last_round, a[0].last_player), (2, 3, 82));
        assert_eq!((a[1].points, a[1].first_round, a[1].last_round), (1, 4, 5));
        assert_eq!(t.acceleration(82, 1), 2);
        assert_eq!(t.acceleration(83, 1), 0);
    }

    #[test]
    fn a_late_entry_above_the_last_ga_player_is_in_ga() {
        let mut t = swiss(8, 7);
        for (i, p) in t.players.iter_mut().enumerate() {
            p.rating = Some(2000 - 10 * i as u16);
        }
        t.sort_pairing_numbers();
        // GA is players 1-4 (the fourth rated 1970).
        assert_eq!(last_group_a_player(&t), Some(4));
        let mut late = Player::new("Tardío");
        late.rating = Some(1995);
        late.entry_round = 2;
        t.add_player(late).unwrap();
        t.sort_pairing_numbers();
        // The late entry takes number 2; the last GA player (1970) is now 5.
        assert_eq!(t.players[1].name, "Tardío");
        assert_eq!(last_group_a_player(&t), Some(5));
        assert_eq!(acceleration(&t)[0].last_player, 5);
    }
}
