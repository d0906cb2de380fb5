//! What bounds a search: the limits the caller sets (UCI's `go`), and the
//! deepest ply any search reaches. Below the search, the move picker and the
//! time manager, which all read them.

use escaque::Move;

/// Deepest ply the search goes to.
pub const MAX_PLY: usize = 120;

/// What the caller asks the search to respect. Times are in milliseconds.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Maximum depth in plies.
    pub depth: Option<u32>,
    /// Maximum nodes (all threads together).
    pub nodes: Option<u64>,
    /// Exact time to spend.
    pub movetime: Option<u64>,
    /// White's remaining time.
    pub wtime: Option<u64>,
    /// Black's remaining time.
    pub btime: Option<u64>,
    /// White's increment.
    pub winc: Option<u64>,
    /// Black's increment.
    pub binc: Option<u64>,
    /// Moves until the next time control.
    pub movestogo: Option<u32>,
    /// Look for a mate in this many moves.
    pub mate: Option<u32>,
    /// Search until stopped.
    pub infinite: bool,
    /// Only these root moves (empty: all).
    pub searchmoves: Vec<Move>,
}
