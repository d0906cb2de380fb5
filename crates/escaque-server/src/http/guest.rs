//! The guest cookie (`escaque_invitado`): an id the server chose, signed by
//! the server, so that a client cannot pick its guest identity (issue 60).
//!
//! The cookie's value is `ID.MAC`: `ID` 128 random bits (32 hex digits), the
//! guest's identity `g:ID`; `MAC` the first 128 bits of HMAC-SHA256 (RFC 2104)
//! of `escaque-invitado:ID` under the secret the processes of one database
//! share (`meta.cluster_secret`, created by the first process and kept in the
//! database: a guest stays the same guest across a restart, on every process,
//! and in a backup). A value that does not verify — made up, altered, or an
//! unsigned cookie of a release before this one — is replaced by a fresh
//! signed id, as if there had been no cookie.

use sha2::{Digest, Sha256};

/// What the MAC covers before the id: the same secret signs nothing else
/// with this prefix.
const DOMAIN: &str = "escaque-invitado:";

/// HMAC-SHA256 of `msg` under `key` (RFC 2104, block size 64).
pub fn hmac_sha256(key: &[u8], msg: &[u8]) -> [u8; 32] {
    const BLOCK: usize = 64;
    let mut k = [0u8; BLOCK];
    if key.len() > BLOCK {
        k[..32].copy_from_slice(&Sha256::digest(key));
    } else {
        k[..key.len()].copy_from_slice(key);
    }
    let (mut ipad, mut opad) = ([0x36u8; BLOCK], [0x5cu8; BLOCK]);
    for i in 0..BLOCK {
        ipad[i] ^= k[i];
        opad[i] ^= k[i];
    }
    let inner = Sha256::new()
        .chain_update(ipad)
        .chain_update(msg)
        .finalize();
    Sha256::new()
        .chain_update(opad)
        .chain_update(inner)
        .finalize()
        .into()
}

fn mac(secret: &str, id: &str) -> String {
    let m = hmac_sha256(secret.as_bytes(), format!("{DOMAIN}{id}").as_bytes());
    m[..16].iter().map(|b| format!("{b:02x}")).collect()
}

fn is_id(s: &str) -> bool {
    s.len() == 32 && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// The cookie value for guest `id` (32 lower-case hex digits).
pub fn sign(secret: &str, id: &str) -> String {
    format!("{id}.{}", mac(secret, id))
}

/// The guest id a cookie value carries, if the server signed it.
pub fn verify<'a>(secret: &str, value: &'a str) -> Option<&'a str> {
    let (id, tag) = value.split_once('.')?;
    if !is_id(id) || tag.len() != 32 {
        return None;
    }
    let want = mac(secret, id);
    // Compared in full, whatever differs first.
    let diff = want
        .bytes()
        .zip(tag.bytes())
        .fold(0u8, |acc, (a, b)| acc | (a ^ b));
    (diff == 0).then_some(id)
}
