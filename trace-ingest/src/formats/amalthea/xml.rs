//! The model file as a tree of elements (bounded in depth), and the
//! quantities in it: times, sizes, frequencies, ticks.

use std::collections::BTreeMap;

use quick_xml::events::{BytesStart, Event as Xml};

use super::{Failure, expected, line_of};
use crate::error::ParseErrorKind;

/// One XML element: local name, attributes, children, line.
#[derive(Debug, Default)]
pub(super) struct Element {
    pub(super) name: String,
    pub(super) attrs: Vec<(String, String)>,
    pub(super) children: Vec<Element>,
    pub(super) line: u64,
}

impl Element {
    pub(super) fn attr(&self, key: &str) -> Option<&str> {
        self.attrs.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    pub(super) fn kids<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Element> + 'a {
        self.children.iter().filter(move |c| c.name == name)
    }

    pub(super) fn kid(&self, name: &str) -> Option<&Element> {
        self.children.iter().find(|c| c.name == name)
    }

    /// `xsi:type` without the `am:` prefix.
    pub(super) fn kind(&self) -> &str {
        self.attr("xsi:type").map_or("", |t| t.rsplit(':').next().unwrap_or(t))
    }

    pub(super) fn name_attr(&self) -> &str {
        self.attr("name").unwrap_or("")
    }

    /// `<tag>` on line N, for messages.
    pub(super) fn at(&self) -> String {
        let name = self.attr("name").map(|n| format!(" `{n}`")).unwrap_or_default();
        format!("<{}>{name}", self.name)
    }
}

/// How deep elements may nest. APP4MC's models nest about ten levels (the
/// WATERS 2019 model and democar 7, the feedback-loop tutorial 10); a
/// deeper file is not a model, and a tree a
/// hundred thousand levels deep would overflow the stack when it is
/// walked or dropped.
pub(super) const MAX_DEPTH: usize = 512;

/// The element tree of `text`; an element nested deeper than
/// [`MAX_DEPTH`] is an error at its line.
pub(super) fn tree(text: &str) -> Result<Element, Failure> {
    let mut reader = quick_xml::Reader::from_str(text);
    let line = |pos: u64| line_of(text.as_bytes(), pos as usize);
    let mut stack: Vec<Element> = vec![Element { name: "#document".into(), ..Element::default() }];
    loop {
        let at = reader.buffer_position();
        let event = reader.read_event().map_err(|e| {
            let pos = reader.error_position();
            (line(pos), ParseErrorKind::expected("well-formed XML", &e.to_string()))
        })?;
        match event {
            Xml::Start(e) => {
                if stack.len() > MAX_DEPTH {
                    let found = format!("<{}> nested {} elements deep", e.local_name().as_ref(), stack.len());
                    return Err(expected(line(at), format!("elements nested at most {MAX_DEPTH} deep"), &found));
                }
                stack.push(element(&e, line(at))?)
            }
            Xml::Empty(e) => {
                let el = element(&e, line(at))?;
                stack.last_mut().expect("document").children.push(el);
            }
            Xml::End(e) => {
                let name = e.local_name().as_ref().to_string();
                let el = stack.pop().expect("document");
                if stack.is_empty() || el.name != name {
                    return Err(expected(line(at), format!("</{}>", el.name), &format!("</{name}>")));
                }
                stack.last_mut().expect("document").children.push(el);
            }
            Xml::Eof => break,
            _ => {}
        }
    }
    if stack.len() != 1 {
        let open = stack.last().expect("element");
        return Err((
            line(text.len() as u64),
            ParseErrorKind::Missing {
                expected: format!("</{}> for {} opened on line {}", open.name, open.at(), open.line),
            },
        ));
    }
    let mut document = stack.pop().expect("document");
    match document.children.pop() {
        Some(root) if document.children.is_empty() => Ok(root),
        Some(_) => Err((1, ParseErrorKind::expected("one root element", "several"))),
        None => Err((1, ParseErrorKind::Empty { expected: "<am:Amalthea xmlns:am=...>" })),
    }
}

pub(super) fn element(e: &BytesStart, line: u64) -> Result<Element, Failure> {
    let name = e.local_name().as_ref().to_string();
    let mut attrs = Vec::new();
    for a in e.attributes() {
        let a = a.map_err(|err| (line, ParseErrorKind::expected("an attribute `key=\"value\"`", &err.to_string())))?;
        let key = a.key.as_ref().to_string();
        let value = a
            .normalized_value(quick_xml::XmlVersion::Explicit1_0)
            .map_err(|err| (line, ParseErrorKind::expected("an attribute value", &err.to_string())))?
            .into_owned();
        attrs.push((key, value));
    }
    Ok(Element { name, attrs, children: Vec::new(), line })
}

/// `Name?type=Type` (URL-encoded) to `Name`.
pub(super) fn reference(text: &str) -> String {
    let name = text.split('?').next().unwrap_or(text);
    let mut out = Vec::with_capacity(name.len());
    let b = name.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%'
            && let Some(hex) = name.get(i + 1..i + 3)
            && let Ok(v) = u8::from_str_radix(hex, 16)
        {
            out.push(v);
            i += 3;
            continue;
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

pub(super) fn references(text: &str) -> Vec<String> {
    text.split_whitespace().map(reference).collect()
}

/// `value` × the scale of `unit` (default `default`) among `units`.
pub(super) fn quantity(e: &Element, units: &[(&str, f64)], default: &str, what: &str) -> Result<f64, Failure> {
    let text = e.attr("value").unwrap_or("0");
    let value: f64 = text.trim().parse().map_err(|_| expected(e.line, "a number in `value`", text))?;
    let unit = e.attr("unit").unwrap_or(default);
    let scale = units.iter().find(|(u, _)| *u == unit).map(|(_, s)| *s);
    scale.map(|s| value * s).ok_or_else(|| expected(e.line, what, unit))
}

/// A time (`value`, `unit`) in ns.
pub(super) fn time_ns(e: &Element) -> Result<u64, Failure> {
    const UNITS: [(&str, f64); 6] = [("s", 1e9), ("ms", 1e6), ("us", 1e3), ("µs", 1e3), ("ns", 1.0), ("ps", 1e-3)];
    let ns = quantity(e, &UNITS, "ns", "a time unit (s, ms, us, ns, ps)")?;
    Ok(ns.round().max(0.0) as u64)
}

/// A data size in bytes.
pub(super) fn size_bytes(e: &Element) -> Result<u64, Failure> {
    const UNITS: [(&str, f64); 13] = [
        ("bit", 0.125),
        ("kbit", 125.0),
        ("Mbit", 125e3),
        ("Gbit", 125e6),
        ("Kibit", 128.0),
        ("Mibit", 131_072.0),
        ("B", 1.0),
        ("kB", 1e3),
        ("MB", 1e6),
        ("GB", 1e9),
        ("KiB", 1024.0),
        ("MiB", 1_048_576.0),
        ("GiB", 1_073_741_824.0),
    ];
    let bytes = quantity(e, &UNITS, "B", "a data-size unit (bit, B, kB, MB, KiB, MiB, ...)")?;
    Ok(bytes.round().max(0.0) as u64)
}

pub(super) fn frequency_hz(e: &Element) -> Result<f64, Failure> {
    const UNITS: [(&str, f64); 4] = [("Hz", 1.0), ("kHz", 1e3), ("MHz", 1e6), ("GHz", 1e9)];
    quantity(e, &UNITS, "Hz", "a frequency unit (Hz, kHz, MHz, GHz)")
}

/// Ticks of one definition (or the default): lower, upper, average.
#[derive(Clone, Copy, Debug)]
pub(super) struct TickValue {
    pub(super) upper: f64,
    pub(super) avg: f64,
}

pub(super) fn tick_value(e: &Element) -> Result<TickValue, Failure> {
    let num = |k: &str| -> Result<Option<f64>, Failure> {
        match e.attr(k) {
            None => Ok(None),
            Some(v) => v.trim().parse().map(Some).map_err(|_| expected(e.line, format!("a number in `{k}`"), v)),
        }
    };
    if let Some(v) = num("value")? {
        return Ok(TickValue { upper: v, avg: v });
    }
    let (lower, upper) = (num("lowerBound")?, num("upperBound")?);
    let avg = num("average")?.or(num("mean")?);
    match (lower, upper, avg) {
        (_, Some(u), Some(a)) => Ok(TickValue { upper: u, avg: a }),
        (Some(l), Some(u), None) => Ok(TickValue { upper: u, avg: (l + u) / 2.0 }),
        (_, None, Some(a)) => Ok(TickValue { upper: a, avg: a }),
        _ => Err(expected(e.line, "ticks: `value`, or `lowerBound`/`upperBound`/`average`", &e.at())),
    }
}

/// Ticks of a `Ticks` item: the default and per definition.
#[derive(Clone, Debug, Default)]
pub(super) struct Ticks {
    pub(super) default: Option<TickValue>,
    pub(super) extended: BTreeMap<String, TickValue>,
}

impl Ticks {
    pub(super) fn of(e: &Element) -> Result<Ticks, Failure> {
        let mut t = Ticks::default();
        if let Some(d) = e.kid("default") {
            t.default = Some(tick_value(d)?);
        }
        for x in e.kids("extended") {
            let key = reference(x.attr("key").unwrap_or(""));
            let value = x.kid("value").ok_or_else(|| expected(x.line, "a <value> in <extended>", &x.at()))?;
            t.extended.insert(key, tick_value(value)?);
        }
        Ok(t)
    }

    pub(super) fn on(&self, definition: &str) -> Option<TickValue> {
        self.extended.get(definition).copied().or(self.default)
    }
}
