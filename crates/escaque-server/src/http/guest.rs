//! The guest cookie (`escaque_invitado`): an id the server chose, signed by
//! the server, so that a client cannot pick its guest identity (issue 60).
//!
//! The cookie's value is `ID.MAC`: `ID` 128 random bits (32 hex digits), the
//! guest's identity `g:ID`; `MAC` the first 128 bits of HMAC-SHA256 (RFC 2104, the `hmac` crate)
//! of `escaque-invitado:ID` under the secret the processes of one database
//! share (`meta.cluster_secret`, created by the first process and kept in the
//! database: a guest stays the same guest across a restart, on every process,
//! and in a backup). A value that does not verify — made up, altered, or an
//! unsigned cookie of a release before this one — is replaced by a fresh
//! signed id, as if there had been no cookie.

use hmac::{Hmac, Mac};
use sha2::Sha256;

/// What the MAC covers before the id: the same secret signs nothing else
/// with this prefix.
const DOMAIN: &str = "escaque-invitado:";

/// HMAC-SHA256 (the `hmac` crate, RFC 2104) of the id under the secret.
fn keyed(secret: &str, id: &str) -> Hmac<Sha256> {
    let mut m =
        Hmac::<Sha256>::new_from_slice(secret.as_bytes()).expect("HMAC takes a key of any length");
    m.update(DOMAIN.as_bytes());
    m.update(id.as_bytes());
    m
}

fn mac(secret: &str, id: &str) -> String {
    let m = keyed(secret, id).finalize().into_bytes();
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
    if !is_id(id) || !is_id(tag) {
        return None;
    }
    let tag: Vec<u8> = (0..16)
        .map(|i| u8::from_str_radix(tag.get(2 * i..2 * i + 2)?, 16).ok())
        .collect::<Option<_>>()?;
    // The first 128 bits, compared in constant time by the crate.
    keyed(secret, id).verify_truncated_left(&tag).ok()?;
    Some(id)
}

#[cfg(test)]
mod tests {
    use super::*;

    const ID: &str = "0123456789abcdef0123456789abcdef";

    #[test]
    fn the_mac_is_hmac_sha256_as_python_computes_it() {
        // python3: hmac.new(b'secreto', b'escaque-invitado:' + ID,
        //                   hashlib.sha256).hexdigest()[:32]
        assert_eq!(
            sign("secreto", ID),
            format!("{ID}.6f72263713df4e8e366d46afd18172cf")
        );
    }

    #[test]
    fn only_a_value_the_server_signed_verifies() {
        let good = sign("secreto", ID);
        assert_eq!(verify("secreto", &good), Some(ID));
        assert_eq!(verify("otro", &good), None);
        let mut altered = good.clone().into_bytes();
        let last = altered.len() - 1;
        altered[last] = if altered[last] == b'0' { b'1' } else { b'0' };
        assert_eq!(
            verify("secreto", std::str::from_utf8(&altered).unwrap()),
            None
        );
        for bad in [ID, "", ".", &good.to_uppercase(), &format!("{ID}.zz")] {
            assert_eq!(verify("secreto", bad), None, "{bad}");
        }
    }
}
