//! The part of CTF 1.8's metadata language (TSDL) that describes a trace
//! such as Zephyr's tracing writes: integer type aliases, structs of
//! byte-aligned integers and fixed arrays (an array of ASCII bytes is a
//! string), the byte order, the stream's event header and the events.
//! Other blocks (`env`, `clock`, `callsite`) are skipped.

use rustc_hash::FxHashMap as HashMap;

/// A field's type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Type {
    /// An integer of `bytes` bytes; `ascii` for a character.
    Int { bytes: usize, signed: bool, ascii: bool },
    /// A fixed array of `len` elements.
    Array(Box<Type>, usize),
}

/// A struct field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Field {
    pub(crate) name: String,
    pub(crate) ty: Type,
}

/// An event class.
#[derive(Clone, Debug)]
pub(crate) struct EventClass {
    pub(crate) name: String,
    pub(crate) fields: Vec<Field>,
}

/// What the metadata says.
#[derive(Clone, Debug)]
pub(crate) struct Metadata {
    pub(crate) little_endian: bool,
    pub(crate) header: Vec<Field>,
    pub(crate) events: HashMap<u64, EventClass>,
}

/// A metadata error: the line and what was expected.
pub(crate) type Error = (usize, String);

#[derive(Clone, Debug, PartialEq, Eq)]
enum Tok {
    Word(String),
    Num(u64),
    Punct(&'static str),
}

fn tokens(text: &str) -> Result<Vec<(usize, Tok)>, Error> {
    let b = text.as_bytes();
    let (mut i, mut line) = (0, 1);
    let mut out = Vec::new();
    while i < b.len() {
        let c = b[i];
        match c {
            b'\n' => {
                line += 1;
                i += 1;
            }
            _ if c.is_ascii_whitespace() => i += 1,
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let end =
                    text[i + 2..].find("*/").map(|e| i + 2 + e + 2).ok_or((line, "a closing `*/`".to_string()))?;
                line += text[i..end].matches('\n').count();
                i = end;
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'"' => {
                let end = text[i + 1..].find('"').map(|e| i + 1 + e + 1).ok_or((line, "a closing `\"`".to_string()))?;
                out.push((line, Tok::Word(text[i + 1..end - 1].to_string())));
                i = end;
            }
            b':' if b.get(i + 1) == Some(&b'=') => {
                out.push((line, Tok::Punct(":=")));
                i += 2;
            }
            b'{' | b'}' | b'[' | b']' | b';' | b'=' | b',' | b'<' | b'>' | b':' => {
                let p = ["{", "}", "[", "]", ";", "=", ",", "<", ">", ":"]
                    [b"{}[];=,<>:".iter().position(|&x| x == c).expect("listed")];
                out.push((line, Tok::Punct(p)));
                i += 1;
            }
            _ if c.is_ascii_digit() => {
                let start = i;
                while i < b.len() && (b[i].is_ascii_alphanumeric()) {
                    i += 1;
                }
                let s = &text[start..i];
                let n = match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
                    Some(h) => u64::from_str_radix(h, 16),
                    None => s.trim_end_matches(['u', 'U', 'l', 'L']).parse(),
                }
                .map_err(|_| (line, format!("a number, found `{s}`")))?;
                out.push((line, Tok::Num(n)));
            }
            _ if c.is_ascii_alphabetic() || c == b'_' || c == b'-' => {
                let start = i;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'.') {
                    i += 1;
                }
                if c == b'-' && i == start {
                    i += 1;
                }
                out.push((line, Tok::Word(text[start..i].to_string())));
            }
            _ => return Err((line, format!("TSDL text, found `{}`", c as char))),
        }
    }
    Ok(out)
}

/// What a type specifier declares: a field type, or a struct's fields.
enum Decl {
    Type(Type),
    Struct(Vec<Field>),
}

struct Parser {
    toks: Vec<(usize, Tok)>,
    pos: usize,
    aliases: HashMap<String, Type>,
    structs: HashMap<String, Vec<Field>>,
}

impl Parser {
    fn line(&self) -> usize {
        self.toks.get(self.pos).or(self.toks.last()).map_or(1, |t| t.0)
    }

    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos).map(|t| &t.1)
    }

    fn next(&mut self) -> Result<Tok, Error> {
        let t = self.toks.get(self.pos).map(|t| t.1.clone()).ok_or((self.line(), "more metadata".to_string()))?;
        self.pos += 1;
        Ok(t)
    }

    fn expect(&mut self, p: &'static str) -> Result<(), Error> {
        match self.next()? {
            Tok::Punct(q) if q == p => Ok(()),
            other => Err((self.line(), format!("`{p}`, found {other:?}"))),
        }
    }

    fn eat(&mut self, p: &'static str) -> bool {
        if self.peek() == Some(&Tok::Punct(p)) {
            self.pos += 1;
            return true;
        }
        false
    }

    fn word(&mut self) -> Result<String, Error> {
        match self.next()? {
            Tok::Word(w) => Ok(w),
            other => Err((self.line(), format!("a name, found {other:?}"))),
        }
    }

    /// `{ key = value; ... }`, values as text.
    fn attributes(&mut self) -> Result<Vec<(String, String)>, Error> {
        self.expect("{")?;
        let mut out = Vec::new();
        while !self.eat("}") {
            let key = self.word()?;
            if self.eat(":=") {
                // A nested declaration (`event.header := struct x;`).
                let mut value = Vec::new();
                while !self.eat(";") {
                    match self.next()? {
                        Tok::Word(w) => value.push(w),
                        Tok::Num(n) => value.push(n.to_string()),
                        Tok::Punct(p) => value.push(p.to_string()),
                    }
                }
                out.push((key, value.join(" ")));
                continue;
            }
            self.expect("=")?;
            let value = match self.next()? {
                Tok::Word(w) => w,
                Tok::Num(n) => n.to_string(),
                Tok::Punct(p) => return Err((self.line(), format!("a value for `{key}`, found `{p}`"))),
            };
            self.expect(";")?;
            out.push((key, value));
        }
        Ok(out)
    }

    /// Skips tokens to the `;` that ends a declaration, over any `{ ... }`
    /// inside it.
    fn skip_declaration(&mut self) -> Result<(), Error> {
        let mut depth = 0u32;
        loop {
            match self.next()? {
                Tok::Punct("{") => depth += 1,
                Tok::Punct("}") => depth = depth.saturating_sub(1),
                Tok::Punct(";") if depth == 0 => return Ok(()),
                _ => {}
            }
        }
    }

    /// Skips a `{ ... }` block.
    fn skip_block(&mut self) -> Result<(), Error> {
        self.expect("{")?;
        let mut depth = 1;
        while depth > 0 {
            match self.next()? {
                Tok::Punct("{") => depth += 1,
                Tok::Punct("}") => depth -= 1,
                _ => {}
            }
        }
        Ok(())
    }

    fn integer(&mut self) -> Result<Type, Error> {
        let line = self.line();
        let attrs = self.attributes()?;
        let get = |k: &str| attrs.iter().find(|(a, _)| a == k).map(|(_, v)| v.as_str());
        let size: usize =
            get("size").and_then(|s| s.parse().ok()).ok_or((line, "an integer with a `size`".to_string()))?;
        let align: usize = get("align").and_then(|s| s.parse().ok()).unwrap_or(8);
        if !size.is_multiple_of(8) || size == 0 || size > 64 || !align.is_multiple_of(8) {
            return Err((line, format!("a byte-aligned integer of 8 to 64 bits, found size {size}, align {align}")));
        }
        Ok(Type::Int {
            bytes: size / 8,
            signed: matches!(get("signed"), Some("true" | "1")),
            ascii: matches!(get("encoding"), Some("ASCII" | "UTF8")),
        })
    }

    /// A type: an alias, `integer { ... }`, or `struct NAME`.
    fn ty(&mut self) -> Result<Decl, Error> {
        let word = self.word()?;
        match word.as_str() {
            "integer" => Ok(Decl::Type(self.integer()?)),
            "struct" => {
                if self.peek() == Some(&Tok::Punct("{")) {
                    return Ok(Decl::Struct(self.fields()?));
                }
                let name = self.word()?;
                let fields = self
                    .structs
                    .get(&name)
                    .cloned()
                    .ok_or((self.line(), format!("a declared struct, found `{name}`")))?;
                Ok(Decl::Struct(fields))
            }
            _ => {
                // Multi-word C names (`unsigned int`) are not used by the
                // traces read here.
                let ty = self
                    .aliases
                    .get(&word)
                    .cloned()
                    .ok_or((self.line(), format!("a declared type, found `{word}`")))?;
                Ok(Decl::Type(ty))
            }
        }
    }

    /// `{ TYPE NAME[N]?; ... }`.
    fn fields(&mut self) -> Result<Vec<Field>, Error> {
        self.expect("{")?;
        let mut fields = Vec::new();
        while !self.eat("}") {
            // Refused before it is read: reading a nested struct would
            // recurse once per level, and a file nesting them a hundred
            // thousand deep would overflow the stack.
            if self.peek() == Some(&Tok::Word("struct".into())) {
                return Err((self.line(), "a field of integers or arrays (nested structs are not read)".into()));
            }
            let Decl::Type(ty) = self.ty()? else { unreachable!("a struct field starts with `struct`") };
            let name = self.word()?;
            let ty = if self.eat("[") {
                let n = match self.next()? {
                    Tok::Num(n) => n as usize,
                    other => return Err((self.line(), format!("a fixed array length, found {other:?}"))),
                };
                self.expect("]")?;
                Type::Array(Box::new(ty), n)
            } else {
                ty
            };
            self.expect(";")?;
            fields.push(Field { name, ty });
        }
        Ok(fields)
    }
}

/// Parses a metadata text.
pub(crate) fn parse(text: &str) -> Result<Metadata, Error> {
    let mut p = Parser { toks: tokens(text)?, pos: 0, aliases: HashMap::default(), structs: HashMap::default() };
    let mut meta = Metadata { little_endian: true, header: Vec::new(), events: HashMap::default() };
    let mut header = None;
    while p.peek().is_some() {
        let line = p.line();
        let word = p.word()?;
        match word.as_str() {
            "typealias" => {
                let ty = match p.ty()? {
                    Decl::Type(t) => t,
                    Decl::Struct(_) => return Err((line, "a typealias of an integer".into())),
                };
                p.expect(":=")?;
                let mut name = p.word()?;
                while let Some(Tok::Word(w)) = p.peek().cloned() {
                    name = w;
                    p.pos += 1;
                }
                p.expect(";")?;
                p.aliases.insert(name, ty);
            }
            "struct" => {
                let name = p.word()?;
                let fields = p.fields()?;
                p.eat(";");
                p.structs.insert(name, fields);
            }
            "trace" => {
                let attrs = p.attributes()?;
                p.eat(";");
                if let Some((_, order)) = attrs.iter().find(|(k, _)| k == "byte_order") {
                    meta.little_endian = order != "be" && order != "network";
                }
            }
            "stream" => {
                // `stream { event.header := struct NAME | struct { ... }; id = N; ... }`
                p.expect("{")?;
                while !p.eat("}") {
                    let key = p.word()?;
                    if key == "event.header" && p.eat(":=") {
                        match p.ty()? {
                            Decl::Struct(fields) => header = Some((line, fields)),
                            Decl::Type(_) => return Err((p.line(), "`event.header := struct ...`".into())),
                        }
                        p.expect(";")?;
                        continue;
                    }
                    // Anything else (`packet.context := struct { ... }`,
                    // `id = 0`) is not read: skipped to its `;`.
                    p.skip_declaration()?;
                }
                p.eat(";");
            }
            "event" => {
                p.expect("{")?;
                let (mut name, mut id, mut fields) = (None, None, Vec::new());
                while !p.eat("}") {
                    let key = p.word()?;
                    if p.eat(":=") {
                        match p.ty()? {
                            Decl::Struct(f) => fields = f,
                            Decl::Type(_) => return Err((p.line(), "`fields := struct { ... }`".into())),
                        }
                        p.expect(";")?;
                        continue;
                    }
                    p.expect("=")?;
                    match (key.as_str(), p.next()?) {
                        ("name", Tok::Word(w)) => name = Some(w),
                        ("id", Tok::Num(n)) => id = Some(n),
                        _ => {}
                    }
                    p.expect(";")?;
                }
                p.eat(";");
                let (Some(name), Some(id)) = (name, id) else {
                    return Err((line, "an event with a `name` and an `id`".into()));
                };
                meta.events.insert(id, EventClass { name, fields });
            }
            _ => {
                // env, clock, callsite and the like.
                if p.peek() != Some(&Tok::Punct("{")) {
                    p.word()?;
                }
                p.skip_block()?;
                p.eat(";");
            }
        }
    }
    let (line, fields) = header.ok_or((1, "a `stream { event.header := struct ...; }`".to_string()))?;
    meta.header = fields;
    for needed in ["id", "timestamp"] {
        if !meta.header.iter().any(|f| f.name == needed) {
            return Err((
                line,
                format!("an event header with an `{needed}` field (Zephyr: CONFIG_TRACING_CTF_TIMESTAMP)"),
            ));
        }
    }
    Ok(meta)
}
