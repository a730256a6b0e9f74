//! One stream's packets, decoded as SEGGER's encoder (`SEGGER_SYSVIEW.c`)
//! writes them, without meaning: the decoder gives them that.
//!
//! Each packet is an event id; for ids below 24 a layout fixed by the id
//! follows (varint parameters, strings as a length byte and the bytes); for
//! the others a length (a 1-2 byte varint) and that many bytes of payload;
//! then the timestamp delta since the previous packet as a varint. Varints
//! are 7 bits a byte, least significant first, the high bit set on all but
//! the last. In ESP-IDF's `ESP_Extension` layout, bit 6 of the id's last
//! byte says which core wrote the packet.

/// The sync sequence that starts a stream.
pub(super) const SYNC: [u8; 10] = [0; 10];

/// The first id with a length-prefixed payload.
const FIRST_WITH_LENGTH: u32 = 24;

/// A packet, with what corera reads of its parameters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Packet {
    Nop,
    Overflow(u32),
    IsrEnter(u32),
    IsrExit,
    Exec(u32),
    StopExec,
    Ready(u32),
    StopReady(u32),
    /// `TASK_TERMINATE`: the task ended.
    Terminate(u32),
    Info {
        id: u32,
        priority: u32,
        name: String,
    },
    TraceStart,
    TraceStop,
    SysDesc(String),
    Idle,
    Init {
        frequency: u32,
    },
    Name(u32, String),
    /// An OS API call (ids 32 to 511) with its first two integer
    /// parameters (all the model reads: the object or task, and whether a
    /// send carries an item).
    Api {
        id: u32,
        params: [Option<u32>; 2],
    },
    /// Anything else corera does not use, by id.
    Other(u32),
}

/// A decoded packet: what it is, the core it names (`ESP_Extension`) and
/// its timestamp delta.
#[derive(Clone, Debug)]
pub(super) struct Decoded {
    pub(super) packet: Packet,
    pub(super) core: Option<u16>,
    pub(super) delta: u32,
}

/// A packet could not be decoded here (cut by the end of the input, or
/// bytes that are no packet).
#[derive(Debug)]
pub(super) struct Cut;

/// Reads packets from a byte slice.
pub(super) struct Cursor<'a> {
    pub(super) b: &'a [u8],
    pub(super) pos: usize,
    /// The `ESP_Extension` layout: a core bit in every id.
    pub(super) esp_extension: bool,
}

impl<'a> Cursor<'a> {
    pub(super) fn new(b: &'a [u8], esp_extension: bool) -> Cursor<'a> {
        Cursor { b, pos: 0, esp_extension }
    }

    fn byte(&mut self) -> Result<u8, Cut> {
        let b = *self.b.get(self.pos).ok_or(Cut)?;
        self.pos += 1;
        Ok(b)
    }

    fn varint(&mut self) -> Result<u32, Cut> {
        let mut value = 0u64;
        for shift in (0..35).step_by(7) {
            let b = self.byte()?;
            value |= u64::from(b & 0x7F) << shift;
            if b & 0x80 == 0 {
                return u32::try_from(value).map_err(|_| Cut);
            }
        }
        Err(Cut)
    }

    fn string(&mut self) -> Result<String, Cut> {
        let mut len = usize::from(self.byte()?);
        if len == 255 {
            len = usize::from(self.byte()?) | usize::from(self.byte()?) << 8;
        }
        let s = self.b.get(self.pos..self.pos + len).ok_or(Cut)?;
        self.pos += len;
        Ok(String::from_utf8_lossy(s).into_owned())
    }

    /// The core bit of `ESP_Extension`, taken out of an id byte.
    fn core_bit(&self, byte: u8, core: &mut Option<u16>) -> u8 {
        if !self.esp_extension {
            return byte;
        }
        *core = Some(u16::from(byte & 0x40 != 0));
        byte & !0x40
    }

    /// The next packet. On `Err`, the position is unspecified.
    pub(super) fn packet(&mut self) -> Result<Decoded, Cut> {
        let mut core = None;
        let first = self.byte()?;
        let id = if first & 0x80 != 0 {
            let high = self.byte()?;
            u32::from(first & 0x7F) | u32::from(self.core_bit(high, &mut core)) << 7
        } else {
            u32::from(self.core_bit(first, &mut core))
        };
        let packet = if id < FIRST_WITH_LENGTH {
            self.fixed(id)?
        } else {
            let mut len = usize::from(self.byte()?);
            if len & 0x80 != 0 {
                len = (len & 0x7F) | usize::from(self.byte()?) << 7;
            }
            let end = self.pos.checked_add(len).filter(|&e| e <= self.b.len()).ok_or(Cut)?;
            let packet = self.payload(id, end)?;
            if self.pos > end {
                return Err(Cut);
            }
            self.pos = end;
            packet
        };
        let delta = self.varint()?;
        Ok(Decoded { packet, core, delta })
    }

    /// A packet whose layout its id fixes (ids 0 to 23).
    fn fixed(&mut self, id: u32) -> Result<Packet, Cut> {
        Ok(match id {
            0 => Packet::Nop,
            1 => Packet::Overflow(self.varint()?),
            2 => Packet::IsrEnter(self.varint()?),
            3 | 18 => Packet::IsrExit,
            4 => Packet::Exec(self.varint()?),
            5 => Packet::StopExec,
            6 => Packet::Ready(self.varint()?),
            7 => {
                let t = self.varint()?;
                self.varint()?; // the cause
                Packet::StopReady(t)
            }
            8 | 12 | 15 | 16 | 19 => {
                self.varint()?; // TASK_CREATE, SYSTIME_CYCLES, MARK_START/STOP, TIMER_ENTER
                Packet::Other(id)
            }
            9 => {
                let (t, priority) = (self.varint()?, self.varint()?);
                Packet::Info { id: t, priority, name: self.string()? }
            }
            10 => Packet::TraceStart,
            11 => Packet::TraceStop,
            13 => {
                self.varint()?;
                self.varint()?;
                Packet::Other(id)
            }
            14 => Packet::SysDesc(self.string()?),
            17 => Packet::Idle,
            20 => Packet::Other(id),
            21 => {
                for _ in 0..4 {
                    self.varint()?;
                }
                Packet::Other(id)
            }
            22 => {
                self.varint()?;
                self.varint()?;
                self.string()?;
                Packet::Other(id)
            }
            // 23 is not an event SystemView defines.
            _ => return Err(Cut),
        })
    }

    /// A packet with a payload ending at `end`.
    fn payload(&mut self, id: u32, end: usize) -> Result<Packet, Cut> {
        Ok(match id {
            24 => Packet::Init { frequency: self.varint()? },
            25 => {
                let r = self.varint()?;
                Packet::Name(r, self.string()?)
            }
            29 => Packet::Terminate(self.varint()?),
            32..=511 => {
                // The first two parameters as varints, within the payload
                // (whose length delimits the packet, whatever follows).
                let mut params = [None; 2];
                for p in &mut params {
                    match self.varint() {
                        Ok(v) if self.pos <= end => *p = Some(v),
                        _ => break,
                    }
                }
                self.pos = self.pos.min(end);
                Packet::Api { id, params }
            }
            _ => Packet::Other(id),
        })
    }
}
