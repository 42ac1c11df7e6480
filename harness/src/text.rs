//! Small text helpers that every layer writes with (reports, checks, errors, digests): a leaf
//! that uses nothing of the crate, so no module has to reach up for them.

use sha2::{Digest, Sha256};

/// A number as reports print it: up to 6 significant decimals, no trailing zeros.
pub fn number(x: f64) -> String {
    if x.is_nan() {
        return "NaN".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf".into() } else { "-inf".into() };
    }
    if x != 0.0 && (x.abs() < 1e-4 || x.abs() >= 1e7) {
        return format!("{x:.3e}");
    }
    let s = format!("{x:.6}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".into() } else { s.to_owned() }
}

/// An I/O error's text without its ` (os error N)` suffix.
pub fn os_error(e: &std::io::Error) -> String {
    let s = e.to_string();
    match s.rfind(" (os error ") {
        Some(i) if s.ends_with(')') => s[..i].to_owned(),
        _ => s,
    }
}

/// Lowercase hex sha256 of `bytes` (digests everywhere in the harness are written this way).
pub fn sha256_hex(bytes: &[u8]) -> String {
    format!("{:x}", Sha256::digest(bytes))
}

/// Whether `s` is a sha256 as bundles write it: 64 lowercase hex digits.
pub fn is_sha256_hex(s: &str) -> bool {
    s.len() == 64
        && s.bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_print_short_and_stable() {
        assert_eq!(number(0.0), "0");
        assert_eq!(number(1.5), "1.5");
        assert_eq!(number(0.0123456789), "0.012346");
        assert_eq!(number(2e-6), "2.000e-6");
        assert_eq!(number(-0.0), "0");
        assert_eq!(number(f64::INFINITY), "inf");
        assert_eq!(number(f64::NAN), "NaN");
        assert_eq!(number(12345.0), "12345");
    }

    #[test]
    fn sha256_of_known_inputs() {
        // FIPS 180-2 test vectors.
        assert_eq!(
            sha256_hex(b""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert!(is_sha256_hex(&sha256_hex(b"abc")));
        assert!(!is_sha256_hex(&sha256_hex(b"abc").to_uppercase()));
        assert!(!is_sha256_hex("abc"));
    }
}
