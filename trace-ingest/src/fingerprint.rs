//! A fingerprint of the input bytes, for provenance in outputs.

use std::io::{BufRead, Read};

use serde::Serialize;

/// Size and FNV-1a 64-bit hash of an input, as read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Fingerprint {
    /// Bytes read.
    pub bytes: u64,
    /// FNV-1a 64 hash of those bytes, as 16 hex digits.
    #[serde(serialize_with = "hex")]
    pub fnv1a64: u64,
}

fn hex<S: serde::Serializer>(v: &u64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&format!("{v:016x}"))
}

const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const PRIME: u64 = 0x0000_0100_0000_01b3;

impl Fingerprint {
    /// The fingerprint of a byte slice.
    pub fn of(data: &[u8]) -> Fingerprint {
        let mut f = Fingerprint { bytes: 0, fnv1a64: OFFSET };
        f.update(data);
        f
    }

    fn update(&mut self, data: &[u8]) {
        self.bytes += data.len() as u64;
        for &b in data {
            self.fnv1a64 = (self.fnv1a64 ^ u64::from(b)).wrapping_mul(PRIME);
        }
    }
}

/// A [`BufRead`] adapter that fingerprints every byte its reader consumes.
pub(crate) struct Fingerprinting<'a> {
    inner: &'a mut dyn BufRead,
    pub(crate) fingerprint: Fingerprint,
}

impl<'a> Fingerprinting<'a> {
    pub(crate) fn new(inner: &'a mut dyn BufRead) -> Fingerprinting<'a> {
        Fingerprinting { inner, fingerprint: Fingerprint { bytes: 0, fnv1a64: OFFSET } }
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
            let mut f = self.fingerprint;
            f.update(&buf[..take]);
            self.fingerprint = f;
        }
        self.inner.consume(amt);
    }
}
