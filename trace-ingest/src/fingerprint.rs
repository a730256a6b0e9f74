//! A fingerprint of the input bytes, for provenance in outputs.

use std::io::{BufRead, Read};

use serde::{Deserialize, Serialize};

/// Size and a 64-bit hash of an input, as read: enough to tell whether two
/// outputs came from the same trace (not a cryptographic digest).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fingerprint {
    /// Bytes read.
    pub bytes: u64,
    /// The hash of those bytes, as 16 hex digits (see [`Fingerprint::of`]).
    #[serde(serialize_with = "hex", deserialize_with = "unhex")]
    pub hash: u64,
    /// Bytes not yet hashed (fewer than 8), little-endian in the low bits.
    #[serde(skip)]
    tail: u64,
}

fn hex<S: serde::Serializer>(v: &u64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&format!("{v:016x}"))
}

fn unhex<'de, D: serde::Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
    let text = String::deserialize(d)?;
    u64::from_str_radix(&text, 16)
        .map_err(|_| serde::de::Error::custom(format!("`{text}` is not a hash of 16 hex digits")))
}

const SEED: u64 = 0xcbf2_9ce4_8422_2325;
const MULTIPLIER: u64 = 0x9E37_79B9_7F4A_7C15;

impl Fingerprint {
    /// The fingerprint of a byte slice: the bytes are taken as
    /// little-endian 64-bit words (the last one zero-padded) and mixed with
    /// `h = (h ^ w).wrapping_mul(0x9E3779B97F4A7C15).rotate_left(29)`, then
    /// the length is mixed in. Word-wise, so hashing keeps up with parsing;
    /// independent of how the input is split into reads.
    pub fn of(data: &[u8]) -> Fingerprint {
        let mut f = Fingerprint::new();
        f.update(data);
        f.finish()
    }

    fn new() -> Fingerprint {
        Fingerprint { bytes: 0, hash: SEED, tail: 0 }
    }

    fn mix(h: u64, w: u64) -> u64 {
        (h ^ w).wrapping_mul(MULTIPLIER).rotate_left(29)
    }

    fn update(&mut self, mut data: &[u8]) {
        let mut pending = (self.bytes % 8) as usize;
        self.bytes += data.len() as u64;
        // Complete a partial word first.
        while pending != 0 && !data.is_empty() {
            self.tail |= u64::from(data[0]) << (8 * pending);
            data = &data[1..];
            pending = (pending + 1) % 8;
            if pending == 0 {
                self.hash = Fingerprint::mix(self.hash, self.tail);
                self.tail = 0;
            }
        }
        let mut words = data.chunks_exact(8);
        for w in &mut words {
            self.hash = Fingerprint::mix(self.hash, u64::from_le_bytes(w.try_into().expect("8 bytes")));
        }
        for (i, &b) in words.remainder().iter().enumerate() {
            self.tail |= u64::from(b) << (8 * i);
        }
    }

    /// The final hash value, including a partial last word and the length.
    fn finish(mut self) -> Fingerprint {
        if !self.bytes.is_multiple_of(8) {
            self.hash = Fingerprint::mix(self.hash, self.tail);
        }
        self.hash = Fingerprint::mix(self.hash, self.bytes);
        self.tail = 0;
        self
    }
}

/// A [`BufRead`] adapter that fingerprints every byte its reader consumes.
pub(crate) struct Fingerprinting<'a> {
    inner: &'a mut dyn BufRead,
    fingerprint: Fingerprint,
}

impl<'a> Fingerprinting<'a> {
    pub(crate) fn new(inner: &'a mut dyn BufRead) -> Fingerprinting<'a> {
        Fingerprinting { inner, fingerprint: Fingerprint::new() }
    }

    /// The fingerprint of everything consumed so far.
    pub(crate) fn fingerprint(&self) -> Fingerprint {
        self.fingerprint.finish()
    }
}

impl Read for Fingerprinting<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.fingerprint.update(&buf[..n]);
        Ok(n)
    }
}

impl BufRead for Fingerprinting<'_> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        self.inner.fill_buf()
    }

    fn consume(&mut self, amt: usize) {
        if let Ok(buf) = self.inner.fill_buf() {
            let take = amt.min(buf.len());
            self.fingerprint.update(&buf[..take]);
        }
        self.inner.consume(amt);
    }
}
