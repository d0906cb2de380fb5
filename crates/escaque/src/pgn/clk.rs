//! `[%clk]` clock times inside comments.

/// Reads `[%clk 1:02:03.4]` out of a comment: the time in milliseconds and
/// the comment without it.
pub fn extract_clock(comment: &str) -> Option<(u64, String)> {
    extract_clock_at(comment).map(|(ms, rest, _)| (ms, rest))
}

/// [`extract_clock`], with where the clock command stood in what is left: a
/// byte offset into the returned comment (0 when it came first), so that a
/// writer can put it back in its place (`[%eval 0.2] [%clk 0:03:00]`).
pub fn extract_clock_at(comment: &str) -> Option<(u64, String, usize)> {
    let start = comment.find("[%clk")?;
    let end = start + comment[start..].find(']')?;
    let value = comment[start + 5..end].trim();
    let mut parts = value.split(':');
    let (h, m, s) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() {
        return None;
    }
    let h: u64 = h.parse().ok()?;
    let m: u64 = m.parse().ok()?;
    let (sec, frac) = s.split_once('.').unwrap_or((s, ""));
    let sec: u64 = sec.parse().ok()?;
    if m >= 60 || sec >= 60 || frac.len() > 3 || !frac.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let ms_frac: u64 = if frac.is_empty() {
        0
    } else {
        frac.parse::<u64>().ok()? * 10u64.pow(3 - frac.len() as u32)
    };
    let ms = h
        .checked_mul(3_600_000)?
        .checked_add(m * 60_000 + sec * 1000 + ms_frac)?;
    let before = comment[..start].trim();
    let rest = format!("{} {}", before, comment[end + 1..].trim());
    Some((ms, rest.trim().to_string(), before.len()))
}
