//! JSON text for every record: pretty-printed with two-space indents, as
//! serde_json's pretty printer does, except that an array whose first
//! element is a number, string, boolean or null is kept on one line
//! (`"core_load_ns": [3017000000, 3155000000]`), so that lists of numbers,
//! edges and timeline lanes take a line each instead of one per number.

use std::io::{self, Write};

use serde::Serialize;
use serde_json::ser::{CompactFormatter, Formatter};

use crate::Emitter;
use crate::records::Analysis;

/// The JSON text of `value`, ending in a newline.
pub fn to_json<T: Serialize>(value: &T) -> Vec<u8> {
    let mut out = Vec::new();
    let mut ser = serde_json::Serializer::with_formatter(&mut out, Layout::default());
    value.serialize(&mut ser).expect("records serialise to memory (no NaN or infinity is stored)");
    out.push(b'\n');
    out
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Frame {
    /// An object; whether it has entries yet.
    Object { empty: bool },
    /// An array whose first element has not come yet.
    Undecided,
    /// An array of scalars, on one line.
    Inline,
    /// An array of arrays or objects, one element per line.
    Block,
}

/// The formatter behind [`to_json`].
#[derive(Debug, Default)]
struct Layout {
    stack: Vec<Frame>,
    /// An array element is about to start: whether it is the first.
    pending: Option<bool>,
}

impl Layout {
    fn depth(&self) -> usize {
        self.stack.iter().filter(|f| matches!(f, Frame::Object { .. } | Frame::Block)).count()
    }

    fn newline<W: ?Sized + Write>(&self, w: &mut W, depth: usize) -> io::Result<()> {
        w.write_all(b"\n")?;
        for _ in 0..depth {
            w.write_all(b"  ")?;
        }
        Ok(())
    }

    /// A value starts: lays out the array element it may be.
    fn value<W: ?Sized + Write>(&mut self, w: &mut W, scalar: bool) -> io::Result<()> {
        let Some(first) = self.pending.take() else { return Ok(()) };
        let top = self.stack.last_mut().expect("an array element is inside an array");
        if *top == Frame::Undecided {
            *top = if scalar { Frame::Inline } else { Frame::Block };
        }
        if *top == Frame::Inline {
            if !first {
                w.write_all(b", ")?;
            }
            return Ok(());
        }
        if !first {
            w.write_all(b",")?;
        }
        self.newline(w, self.depth())
    }
}

impl Formatter for Layout {
    fn write_null<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.value(w, true)?;
        w.write_all(b"null")
    }

    fn write_bool<W: ?Sized + Write>(&mut self, w: &mut W, v: bool) -> io::Result<()> {
        self.value(w, true)?;
        w.write_all(if v { b"true" } else { b"false" })
    }

    fn write_i64<W: ?Sized + Write>(&mut self, w: &mut W, v: i64) -> io::Result<()> {
        self.value(w, true)?;
        write!(w, "{v}")
    }

    fn write_i32<W: ?Sized + Write>(&mut self, w: &mut W, v: i32) -> io::Result<()> {
        self.write_i64(w, i64::from(v))
    }

    fn write_u64<W: ?Sized + Write>(&mut self, w: &mut W, v: u64) -> io::Result<()> {
        self.value(w, true)?;
        write!(w, "{v}")
    }

    fn write_u32<W: ?Sized + Write>(&mut self, w: &mut W, v: u32) -> io::Result<()> {
        self.write_u64(w, u64::from(v))
    }

    fn write_u16<W: ?Sized + Write>(&mut self, w: &mut W, v: u16) -> io::Result<()> {
        self.write_u64(w, u64::from(v))
    }

    fn write_u8<W: ?Sized + Write>(&mut self, w: &mut W, v: u8) -> io::Result<()> {
        self.write_u64(w, u64::from(v))
    }

    fn write_i16<W: ?Sized + Write>(&mut self, w: &mut W, v: i16) -> io::Result<()> {
        self.write_i64(w, i64::from(v))
    }

    fn write_i8<W: ?Sized + Write>(&mut self, w: &mut W, v: i8) -> io::Result<()> {
        self.write_i64(w, i64::from(v))
    }

    fn write_f64<W: ?Sized + Write>(&mut self, w: &mut W, v: f64) -> io::Result<()> {
        self.value(w, true)?;
        CompactFormatter.write_f64(w, v)
    }

    fn write_f32<W: ?Sized + Write>(&mut self, w: &mut W, v: f32) -> io::Result<()> {
        self.write_f64(w, f64::from(v))
    }

    fn write_number_str<W: ?Sized + Write>(&mut self, w: &mut W, v: &str) -> io::Result<()> {
        self.value(w, true)?;
        w.write_all(v.as_bytes())
    }

    fn begin_string<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.value(w, true)?;
        w.write_all(b"\"")
    }

    fn begin_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.value(w, false)?;
        self.stack.push(Frame::Undecided);
        w.write_all(b"[")
    }

    fn end_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        if self.stack.pop() == Some(Frame::Block) {
            self.newline(w, self.depth())?;
        }
        w.write_all(b"]")
    }

    fn begin_array_value<W: ?Sized + Write>(&mut self, _w: &mut W, first: bool) -> io::Result<()> {
        self.pending = Some(first);
        Ok(())
    }

    fn end_array_value<W: ?Sized + Write>(&mut self, _w: &mut W) -> io::Result<()> {
        Ok(())
    }

    fn begin_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.value(w, false)?;
        self.stack.push(Frame::Object { empty: true });
        w.write_all(b"{")
    }

    fn end_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        if self.stack.pop() == Some(Frame::Object { empty: false }) {
            self.newline(w, self.depth())?;
        }
        w.write_all(b"}")
    }

    fn begin_object_key<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        if let Some(Frame::Object { empty }) = self.stack.last_mut() {
            *empty = false;
        }
        if !first {
            w.write_all(b",")?;
        }
        self.newline(w, self.depth())
    }

    fn begin_object_value<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        w.write_all(b": ")
    }

    fn end_object_value<W: ?Sized + Write>(&mut self, _w: &mut W) -> io::Result<()> {
        Ok(())
    }
}

/// The `analysis.json` emitter: the [`Analysis`] record itself.
#[derive(Clone, Copy, Debug, Default)]
pub struct Json;

impl Emitter for Json {
    fn name(&self) -> &'static str {
        "json"
    }

    fn file_name(&self) -> &'static str {
        "analysis.json"
    }

    fn emit(&self, analysis: &Analysis) -> Vec<u8> {
        to_json(analysis)
    }
}

#[cfg(test)]
mod tests {
    use serde::Serialize;

    use super::to_json;

    #[derive(Serialize)]
    struct Sample {
        name: &'static str,
        loads: Vec<u64>,
        empty: Vec<u64>,
        rows: Vec<Vec<u32>>,
        edges: Vec<(u32, u32, u64)>,
        nested: Vec<Inner>,
        none: Option<u8>,
        ratio: f64,
    }

    #[derive(Serialize)]
    struct Inner {
        a: u8,
    }

    #[test]
    fn arrays_of_scalars_stay_on_one_line_and_the_text_reads_back() {
        let sample = Sample {
            name: "x",
            loads: vec![3, 4],
            empty: vec![],
            rows: vec![vec![0, 1], vec![1, 0]],
            edges: vec![(0, 1, 5)],
            nested: vec![Inner { a: 1 }, Inner { a: 2 }],
            none: None,
            ratio: 0.25,
        };
        let text = String::from_utf8(to_json(&sample)).unwrap();
        assert_eq!(
            text,
            "{\n  \"name\": \"x\",\n  \"loads\": [3, 4],\n  \"empty\": [],\n  \"rows\": [\n    [0, 1],\n    [1, 0]\n  ],\n  \
             \"edges\": [\n    [0, 1, 5]\n  ],\n  \"nested\": [\n    {\n      \"a\": 1\n    },\n    {\n      \"a\": 2\n    }\n  ],\n  \
             \"none\": null,\n  \"ratio\": 0.25\n}\n"
        );
        let pretty: serde_json::Value = serde_json::from_str(&serde_json::to_string_pretty(&sample).unwrap()).unwrap();
        let ours: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(ours, pretty, "the same document as serde_json's pretty printer");
    }
}
