//! Base64url without padding (RFC 4648 §5): the model's bytes, safe in a URL as they are.

use crate::core::i18n::keys::edits;
use crate::core::i18n::Msg;

const BASE64URL: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// Base64url without padding (RFC 4648 §5): safe in a URL's fragment as it is.
pub fn base64url(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | (b as u32) << (16 - 8 * i));
        for i in 0..=chunk.len() {
            out.push(BASE64URL[(n >> (18 - 6 * i) & 63) as usize] as char);
        }
    }
    out
}

/// Reads [`base64url`] (padding tolerated); the error names the first bad character.
pub fn from_base64url(text: &str) -> Result<Vec<u8>, Msg> {
    let text = text.trim_end_matches('=');
    if text.len() % 4 == 1 {
        return Err(edits::cut_short.into());
    }
    let mut out = Vec::with_capacity(text.len() / 4 * 3 + 2);
    for chunk in text.as_bytes().chunks(4) {
        let mut n = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            let v = match c {
                b'A'..=b'Z' => c - b'A',
                b'a'..=b'z' => c - b'a' + 26,
                b'0'..=b'9' => c - b'0' + 52,
                b'-' => 62,
                b'_' => 63,
                _ => return Err(edits::not_base64url(char::from(c).escape_default())),
            };
            n |= (v as u32) << (18 - 6 * i);
        }
        out.extend((0..chunk.len() - 1).map(|i| (n >> (16 - 8 * i)) as u8));
    }
    Ok(out)
}
