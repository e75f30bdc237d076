//! JSON with comments and trailing commas, as tsc reads `tsconfig.json` (and as
//! `package.json` is plain JSON): a small reader that keeps an object's keys in the
//! order they are written, because `package.json` `exports` conditions are matched
//! in that order (the first key the resolver accepts wins).

/// A JSON value; objects keep their keys in written order.
#[derive(Debug, Clone, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    Number(f64),
    String(String),
    Array(Vec<Json>),
    Object(Vec<(String, Json)>),
}

/// Nesting deeper than this is refused (a config is a few levels deep).
const MAX_DEPTH: u32 = 64;

impl Json {
    /// Reads a document; `None` when it is not JSON (comments and trailing commas allowed).
    pub fn parse(text: &str) -> Option<Json> {
        let mut r = Reader {
            bytes: text.as_bytes(),
            at: 0,
        };
        // A UTF-8 byte order mark is not part of the document.
        if r.bytes.starts_with(&[0xEF, 0xBB, 0xBF]) {
            r.at = 3;
        }
        let value = r.value(0)?;
        r.skip_blank()?;
        (r.at == r.bytes.len()).then_some(value)
    }

    /// A member of an object (the last one written, as `JSON.parse` keeps).
    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(members) => members.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::String(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Json::Bool(b) => Some(*b),
            _ => None,
        }
    }

    pub fn as_array(&self) -> Option<&[Json]> {
        match self {
            Json::Array(items) => Some(items),
            _ => None,
        }
    }

    /// An object's members in written order, duplicates folded to the last one.
    pub fn members(&self) -> Vec<(&str, &Json)> {
        let Json::Object(members) = self else {
            return Vec::new();
        };
        let mut out: Vec<(&str, &Json)> = Vec::with_capacity(members.len());
        for (k, v) in members {
            match out.iter_mut().find(|(seen, _)| *seen == k.as_str()) {
                Some(slot) => slot.1 = v,
                None => out.push((k.as_str(), v)),
            }
        }
        out
    }

    /// A list of strings (`include`, `rootDirs`); a lone string is a list of one,
    /// anything else that is not a string is dropped.
    pub fn strings(&self) -> Vec<String> {
        match self {
            Json::String(s) => vec![s.clone()],
            Json::Array(items) => items
                .iter()
                .filter_map(|i| i.as_str().map(str::to_string))
                .collect(),
            _ => Vec::new(),
        }
    }

    /// Reads a serde value (the corpus's compiler options given on the command line).
    pub fn from_serde(value: &serde_json::Value) -> Json {
        Json::from_serde_at(value, 0)
    }

    fn from_serde_at(value: &serde_json::Value, depth: u32) -> Json {
        if depth > MAX_DEPTH {
            return Json::Null;
        }
        match value {
            serde_json::Value::Null => Json::Null,
            serde_json::Value::Bool(b) => Json::Bool(*b),
            serde_json::Value::Number(n) => Json::Number(n.as_f64().unwrap_or(0.0)),
            serde_json::Value::String(s) => Json::String(s.clone()),
            serde_json::Value::Array(items) => Json::Array(
                items
                    .iter()
                    .map(|i| Json::from_serde_at(i, depth + 1))
                    .collect(),
            ),
            serde_json::Value::Object(map) => Json::Object(
                map.iter()
                    .map(|(k, v)| (k.clone(), Json::from_serde_at(v, depth + 1)))
                    .collect(),
            ),
        }
    }
}

struct Reader<'t> {
    bytes: &'t [u8],
    at: usize,
}

impl Reader<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    /// Skips whitespace and comments; `None` on an unterminated block comment.
    fn skip_blank(&mut self) -> Option<()> {
        loop {
            match self.peek() {
                Some(b' ' | b'\t' | b'\n' | b'\r') => self.at += 1,
                Some(b'/') if self.bytes.get(self.at + 1) == Some(&b'/') => {
                    while self.peek().is_some_and(|c| c != b'\n') {
                        self.at += 1;
                    }
                }
                Some(b'/') if self.bytes.get(self.at + 1) == Some(&b'*') => {
                    let rest = &self.bytes[self.at + 2..];
                    let end = rest.windows(2).position(|w| w == b"*/")?;
                    self.at += 2 + end + 2;
                }
                _ => return Some(()),
            }
        }
    }

    fn value(&mut self, depth: u32) -> Option<Json> {
        if depth > MAX_DEPTH {
            return None;
        }
        self.skip_blank()?;
        match self.peek()? {
            b'{' => self.object(depth),
            b'[' => self.array(depth),
            b'"' => self.string().map(Json::String),
            b't' => self.word("true", Json::Bool(true)),
            b'f' => self.word("false", Json::Bool(false)),
            b'n' => self.word("null", Json::Null),
            _ => self.number(),
        }
    }

    fn word(&mut self, word: &str, value: Json) -> Option<Json> {
        if self.bytes[self.at..].starts_with(word.as_bytes()) {
            self.at += word.len();
            Some(value)
        } else {
            None
        }
    }

    fn number(&mut self) -> Option<Json> {
        let start = self.at;
        while self
            .peek()
            .is_some_and(|c| c.is_ascii_digit() || matches!(c, b'-' | b'+' | b'.' | b'e' | b'E'))
        {
            self.at += 1;
        }
        let text = std::str::from_utf8(&self.bytes[start..self.at]).ok()?;
        text.parse::<f64>().ok().map(Json::Number)
    }

    /// The elements of `[ … ]`; a trailing comma is allowed.
    fn array(&mut self, depth: u32) -> Option<Json> {
        self.at += 1;
        let mut items = Vec::new();
        loop {
            self.skip_blank()?;
            if self.peek()? == b']' {
                self.at += 1;
                return Some(Json::Array(items));
            }
            items.push(self.value(depth + 1)?);
            self.skip_blank()?;
            match self.peek()? {
                b',' => self.at += 1,
                b']' => {}
                _ => return None,
            }
        }
    }

    /// The members of `{ … }`; a trailing comma is allowed.
    fn object(&mut self, depth: u32) -> Option<Json> {
        self.at += 1;
        let mut members = Vec::new();
        loop {
            self.skip_blank()?;
            match self.peek()? {
                b'}' => {
                    self.at += 1;
                    return Some(Json::Object(members));
                }
                b'"' => {}
                _ => return None,
            }
            let key = self.string()?;
            self.skip_blank()?;
            if self.peek()? != b':' {
                return None;
            }
            self.at += 1;
            let value = self.value(depth + 1)?;
            members.push((key, value));
            self.skip_blank()?;
            match self.peek()? {
                b',' => self.at += 1,
                b'}' => {}
                _ => return None,
            }
        }
    }

    fn string(&mut self) -> Option<String> {
        self.at += 1;
        let mut out: Vec<u8> = Vec::new();
        loop {
            let c = self.peek()?;
            self.at += 1;
            match c {
                b'"' => return String::from_utf8(out).ok(),
                b'\\' => {
                    let e = self.peek()?;
                    self.at += 1;
                    match e {
                        b'n' => out.push(b'\n'),
                        b't' => out.push(b'\t'),
                        b'r' => out.push(b'\r'),
                        b'b' => out.push(8),
                        b'f' => out.push(12),
                        b'u' => {
                            let hex = self.bytes.get(self.at..self.at + 4)?;
                            let code =
                                u32::from_str_radix(std::str::from_utf8(hex).ok()?, 16).ok()?;
                            self.at += 4;
                            // A lone surrogate cannot name a path character; keep a stand-in.
                            let ch = char::from_u32(code).unwrap_or('\u{FFFD}');
                            let mut buf = [0u8; 4];
                            out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                        }
                        other => out.push(other),
                    }
                }
                b'\n' => return None,
                other => out.push(other),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_and_trailing_commas_are_read_as_tsc_reads_them() {
        let text = "\u{feff}{\n  // a line comment\n  \"compilerOptions\": { /* block */ \"paths\": {\"@/*\": [\"src/*\",],}, },\n  \"include\": [\"src\"],\n}\n";
        let json = Json::parse(text).expect("jsonc");
        let paths = json.get("compilerOptions").and_then(|o| o.get("paths"));
        assert_eq!(
            paths.and_then(|p| p.get("@/*")).map(Json::strings),
            Some(vec!["src/*".to_string()])
        );
        assert_eq!(
            json.get("include").map(Json::strings),
            Some(vec!["src".into()])
        );
    }

    #[test]
    fn object_keys_keep_their_written_order() {
        let json = Json::parse(r#"{"types": "a", "import": "b", "default": "c", "types": "d"}"#)
            .expect("json");
        let keys: Vec<&str> = json.members().iter().map(|(k, _)| *k).collect();
        assert_eq!(keys, ["types", "import", "default"]);
        assert_eq!(json.get("types").and_then(Json::as_str), Some("d"));
    }

    #[test]
    fn what_is_not_json_is_refused() {
        assert_eq!(Json::parse("{\"a\": }"), None);
        assert_eq!(Json::parse("{\"a\": 1} x"), None);
        assert_eq!(Json::parse("/* open"), None);
        assert_eq!(Json::parse(&"[".repeat(200)), None);
        assert_eq!(
            Json::parse("\"\\u00e9\"")
                .and_then(|j| j.as_str().map(str::to_string))
                .as_deref(),
            Some("é")
        );
    }
}
