//! Texel tuning (filled in below).
