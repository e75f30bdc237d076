//! Reading C# source text at the positions mcs records: a sequence point's column in
//! UTF-16 code units (a tab is one) as a byte column, the identifier that starts there,
//! the type a `new` names, and the written calls, constructions and names of one
//! statement in order (for the points mcs puts at a statement's start: field
//! initialisers, method groups).
//!
//! This is the oracle's reading of the text the compiler pointed at, never the
//! engine's: the engine extracts structure from its own syntax tree.

/// How far a statement is followed from its sequence point: longer initialisers are
/// not written by people, and the bound keeps a broken file from being read to its end.
const MAX_STATEMENT_LINES: u32 = 64;

/// A byte-order mark, which the compiler's reader drops before counting columns.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// One source file as lines of bytes (without their terminators).
#[derive(Debug, Clone)]
pub struct SourceText {
    lines: Vec<Vec<u8>>,
}

/// A place in a source file: 1-based line, 0-based byte offset in the line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct At {
    pub line: u32,
    pub byte: usize,
}

impl At {
    /// The 1-based byte column the truth states.
    pub fn column(self) -> u32 {
        u32::try_from(self.byte + 1).unwrap_or(u32::MAX)
    }
}

/// What a statement writes, in order: the occurrences a site can be matched to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Written {
    /// `new T(…)`, `new A.B<C> {…}`: the type's last segment, at its position.
    New { name: String, at: At },
    /// `m(…)` or `m<T>(…)`: a name followed by its arguments.
    Call { name: String, at: At },
    /// A name not followed by arguments (a method group).
    Name { name: String, at: At },
}

impl SourceText {
    pub fn new(bytes: &[u8]) -> SourceText {
        let lines = bytes
            .split(|&b| b == b'\n')
            .map(|l| l.strip_suffix(b"\r").unwrap_or(l).to_vec())
            .collect();
        SourceText { lines }
    }

    /// The bytes of 1-based line `n`.
    pub fn line(&self, n: u32) -> Option<&[u8]> {
        self.lines
            .get(usize::try_from(n).ok()?.checked_sub(1)?)
            .map(Vec::as_slice)
    }

    /// The byte offset of a 1-based UTF-16 column on line `n`: every character counts
    /// its UTF-16 units (a tab is one, a character outside the BMP two), a byte that is
    /// not UTF-8 counts one (the reader replaced it by one U+FFFD). `None` past the end.
    pub fn byte_at(&self, n: u32, utf16_column: u32) -> Option<At> {
        let line = self.line(n)?;
        let mut byte = if n == 1 && line.starts_with(BOM) {
            BOM.len()
        } else {
            0
        };
        let mut units = 1u32;
        while units < utf16_column {
            let (len, width) = utf8_char(&line[byte..])?;
            byte += len;
            units += width;
        }
        (units == utf16_column && byte <= line.len()).then_some(At { line: n, byte })
    }

    /// The identifier that starts at `at` (a verbatim `@name` without its `@`).
    pub fn identifier_at(&self, at: At) -> Option<&str> {
        let line = self.line(at.line)?;
        let rest = line.get(at.byte..)?;
        let rest = rest.strip_prefix(b"@").unwrap_or(rest);
        let len = identifier_len(rest);
        (len > 0).then(|| std::str::from_utf8(&rest[..len]).ok())?
    }

    /// The last byte before `at` on its line that is not a space or tab is `byte`.
    pub fn preceded_by(&self, at: At, byte: u8) -> bool {
        self.line(at.line)
            .and_then(|l| l.get(..at.byte))
            .and_then(|before| before.iter().rev().find(|b| !matches!(b, b' ' | b'\t')))
            == Some(&byte)
    }

    /// The text at `at` begins with `prefix`.
    pub fn starts_with(&self, at: At, prefix: &[u8]) -> bool {
        self.line(at.line)
            .and_then(|l| l.get(at.byte..))
            .is_some_and(|r| r.starts_with(prefix))
    }

    /// What the statement that starts at `from` writes, in order, until its `;` (or the
    /// bracket that closes around it). Comments and literals are skipped; an
    /// interpolated string's holes are read.
    pub fn statement(&self, from: At) -> Vec<Written> {
        self.written_from(from, false)
    }

    /// What is written from `from` to the end of the statement around it: past the
    /// brackets that close around `from` (mcs points a method group passed after a
    /// multi-line argument at the argument's last line).
    pub fn rest_of_statement(&self, from: At) -> Vec<Written> {
        self.written_from(from, true)
    }

    fn written_from(&self, from: At, past_closers: bool) -> Vec<Written> {
        let mut tokens = Tokens::new(self, from);
        tokens.past_closers = past_closers;
        let tokens = tokens.collect::<Vec<_>>();
        let mut out = Vec::new();
        let mut i = 0;
        while i < tokens.len() {
            let Token::Word(word, at) = &tokens[i] else {
                i += 1;
                continue;
            };
            if word == "new" {
                if let Some((name, at, next)) = constructed_type(&tokens, i + 1) {
                    out.push(Written::New { name, at });
                    i = next;
                    continue;
                }
                i += 1;
                continue;
            }
            let after = skip_type_arguments(&tokens, i + 1);
            let called = matches!(tokens.get(after), Some(Token::Punct(b'(')));
            let member_access = i > 0 && matches!(tokens[i - 1], Token::Punct(b'.'));
            if called {
                out.push(Written::Call {
                    name: word.clone(),
                    at: *at,
                });
            } else if !is_keyword(word) || member_access {
                out.push(Written::Name {
                    name: word.clone(),
                    at: *at,
                });
            }
            i += 1;
        }
        out
    }

    /// Where `name` is written as a call (followed by `(` or `<`) on the line of `at`,
    /// at or after it. A plain scan of the line: it serves the points mcs clamped,
    /// which may stand inside a string literal.
    pub fn calls_named_from(&self, at: At, name: &str) -> Vec<At> {
        let Some(line) = self.line(at.line) else {
            return Vec::new();
        };
        let mut found = Vec::new();
        let mut byte = at.byte;
        while byte < line.len() {
            let len = identifier_len(&line[byte..]);
            if len == 0 {
                byte += 1;
                continue;
            }
            let starts_word = byte == 0 || identifier_len(&line[byte - 1..]) == 0;
            let after = line[byte + len..]
                .iter()
                .find(|b| !b.is_ascii_whitespace())
                .copied();
            if starts_word
                && &line[byte..byte + len] == name.as_bytes()
                && matches!(after, Some(b'(' | b'<'))
            {
                found.push(At {
                    line: at.line,
                    byte,
                });
            }
            byte += len;
        }
        found
    }

    /// The type a `new` at `at` constructs: its last segment and position.
    pub fn constructed_at(&self, at: At) -> Option<(String, At)> {
        let tokens = Tokens::new(self, at).take(256).collect::<Vec<_>>();
        match tokens.first() {
            Some(Token::Word(w, _)) if w == "new" => {
                constructed_type(&tokens, 1).map(|(n, a, _)| (n, a))
            }
            _ => None,
        }
    }
}

/// The length and UTF-16 width of the character that starts `bytes`.
fn utf8_char(bytes: &[u8]) -> Option<(usize, u32)> {
    let first = *bytes.first()?;
    let len = match first {
        0x00..=0x7F => 1,
        0xC2..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF4 => 4,
        _ => return Some((1, 1)),
    };
    match bytes.get(..len).map(std::str::from_utf8) {
        Some(Ok(s)) => {
            let c = s.chars().next().expect("one character");
            Some((len, u32::try_from(c.len_utf16()).unwrap_or(1)))
        }
        _ => Some((1, 1)),
    }
}

fn is_identifier_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_' || b >= 0x80
}

fn identifier_len(bytes: &[u8]) -> usize {
    match bytes.first() {
        Some(&b) if is_identifier_start(b) => bytes
            .iter()
            .take_while(|&&b| b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80)
            .count(),
        _ => 0,
    }
}

/// C# keywords that are never a method group's name.
fn is_keyword(word: &str) -> bool {
    const KEYWORDS: &[&str] = &[
        "abstract",
        "as",
        "base",
        "bool",
        "break",
        "byte",
        "case",
        "catch",
        "char",
        "checked",
        "class",
        "const",
        "continue",
        "decimal",
        "default",
        "delegate",
        "do",
        "double",
        "else",
        "enum",
        "event",
        "explicit",
        "extern",
        "false",
        "finally",
        "fixed",
        "float",
        "for",
        "foreach",
        "goto",
        "if",
        "implicit",
        "in",
        "int",
        "interface",
        "internal",
        "is",
        "lock",
        "long",
        "namespace",
        "new",
        "null",
        "object",
        "operator",
        "out",
        "override",
        "params",
        "private",
        "protected",
        "public",
        "readonly",
        "ref",
        "return",
        "sbyte",
        "sealed",
        "short",
        "sizeof",
        "stackalloc",
        "static",
        "string",
        "struct",
        "switch",
        "this",
        "throw",
        "true",
        "try",
        "typeof",
        "uint",
        "ulong",
        "unchecked",
        "unsafe",
        "ushort",
        "using",
        "virtual",
        "void",
        "volatile",
        "while",
        "var",
    ];
    KEYWORDS.contains(&word)
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    Word(String, At),
    Punct(u8),
}

/// The type after `new` at `tokens[i..]`: `global::A.B<C>.D` gives `D`. Returns the
/// name, its position and the index after the type.
fn constructed_type(tokens: &[Token], mut i: usize) -> Option<(String, At, usize)> {
    let mut last = None;
    // Each turn moves past one segment: bounded by the tokens.
    while let Some(Token::Word(w, at)) = tokens.get(i) {
        last = Some((w.clone(), *at));
        i = skip_type_arguments(tokens, i + 1);
        match (tokens.get(i), tokens.get(i + 1)) {
            (Some(Token::Punct(b'.')), _) => i += 1,
            (Some(Token::Punct(b':')), Some(Token::Punct(b':'))) => i += 2,
            _ => break,
        }
    }
    last.map(|(name, at)| (name, at, i))
}

/// Past a `<…>` type-argument list at `tokens[i]`, when one is there and balanced
/// with only names, commas, dots, `?`, `[]` and nested lists inside.
fn skip_type_arguments(tokens: &[Token], i: usize) -> usize {
    if tokens.get(i) != Some(&Token::Punct(b'<')) {
        return i;
    }
    let mut depth = 0usize;
    for (j, t) in tokens.iter().enumerate().skip(i) {
        match t {
            Token::Punct(b'<') => depth += 1,
            Token::Punct(b'>') => {
                depth -= 1;
                if depth == 0 {
                    return j + 1;
                }
            }
            Token::Word(..) | Token::Punct(b',' | b'.' | b'?' | b'[' | b']' | b':') => {}
            _ => return i,
        }
    }
    i
}

/// The tokens of one statement from a position: words with their places and single
/// punctuation bytes; comments, literals and whitespace are skipped; the statement
/// ends at a `;` outside brackets or a bracket that closes one opened before it.
struct Tokens<'a> {
    text: &'a SourceText,
    at: At,
    first_line: u32,
    depth: i32,
    /// Brace depths at which an interpolated string resumes: `$"a{b}c"` reads `b`.
    holes: Vec<i32>,
    /// A bracket closing around the start does not end the statement: it is read on
    /// to its `;`.
    past_closers: bool,
    done: bool,
}

impl<'a> Tokens<'a> {
    fn new(text: &'a SourceText, at: At) -> Tokens<'a> {
        Tokens {
            text,
            at,
            first_line: at.line,
            depth: 0,
            holes: Vec::new(),
            past_closers: false,
            done: false,
        }
    }

    fn byte(&self, offset: usize) -> Option<u8> {
        self.text
            .line(self.at.line)
            .and_then(|l| l.get(self.at.byte + offset).copied())
    }

    fn next_line(&mut self) -> bool {
        if self.at.line >= self.first_line + MAX_STATEMENT_LINES
            || self.text.line(self.at.line + 1).is_none()
        {
            return false;
        }
        self.at = At {
            line: self.at.line + 1,
            byte: 0,
        };
        true
    }

    /// Skips a string's body from just after its opening quote; `verbatim` strings
    /// double their quotes, `interpolated` ones stop at a hole (`{` not doubled).
    fn skip_string(&mut self, verbatim: bool, interpolated: bool) {
        loop {
            let Some(b) = self.byte(0) else {
                if !verbatim || !self.next_line() {
                    return;
                }
                continue;
            };
            self.at.byte += 1;
            match b {
                b'\\' if !verbatim => self.at.byte += 1,
                b'"' if verbatim && self.byte(0) == Some(b'"') => self.at.byte += 1,
                b'"' => return,
                b'{' if interpolated && self.byte(0) == Some(b'{') => self.at.byte += 1,
                b'{' if interpolated => {
                    self.holes.push(self.depth);
                    self.depth += 1;
                    return;
                }
                _ => {}
            }
        }
    }

    fn skip_block_comment(&mut self) {
        loop {
            match (self.byte(0), self.byte(1)) {
                (Some(b'*'), Some(b'/')) => {
                    self.at.byte += 2;
                    return;
                }
                (Some(_), _) => self.at.byte += 1,
                (None, _) => {
                    if !self.next_line() {
                        return;
                    }
                }
            }
        }
    }
}

impl Iterator for Tokens<'_> {
    type Item = Token;

    fn next(&mut self) -> Option<Token> {
        while !self.done {
            let Some(b) = self.byte(0) else {
                if !self.next_line() {
                    self.done = true;
                }
                continue;
            };
            let line = self.text.line(self.at.line).unwrap_or_default();
            let rest = &line[self.at.byte..];
            match b {
                b' ' | b'\t' | b'\x0c' => self.at.byte += 1,
                b'/' if rest.starts_with(b"//") => self.at.byte = line.len(),
                b'/' if rest.starts_with(b"/*") => {
                    self.at.byte += 2;
                    self.skip_block_comment();
                }
                b'#' if line[..self.at.byte].iter().all(|c| c.is_ascii_whitespace()) => {
                    self.at.byte = line.len();
                }
                b'"' => {
                    self.at.byte += 1;
                    self.skip_string(false, false);
                }
                b'@' | b'$' if rest.len() > 1 && matches!(rest[1], b'"' | b'@' | b'$') => {
                    let prefix = rest.iter().take_while(|c| matches!(c, b'@' | b'$')).count();
                    let verbatim = rest[..prefix].contains(&b'@');
                    let interpolated = rest[..prefix].contains(&b'$');
                    self.at.byte += prefix + 1;
                    self.skip_string(verbatim, interpolated);
                }
                b'\'' => {
                    self.at.byte += 1;
                    while let Some(c) = self.byte(0) {
                        self.at.byte += if c == b'\\' { 2 } else { 1 };
                        if c == b'\'' {
                            break;
                        }
                    }
                }
                b'0'..=b'9' => {
                    self.at.byte += rest
                        .iter()
                        .take_while(|c| c.is_ascii_alphanumeric() || **c == b'.' || **c == b'_')
                        .count();
                }
                _ if is_identifier_start(b) || b == b'@' => {
                    let skip = usize::from(b == b'@');
                    let len = identifier_len(&rest[skip..]);
                    if len == 0 {
                        self.at.byte += 1;
                        continue;
                    }
                    let at = self.at;
                    let word = String::from_utf8_lossy(&rest[skip..skip + len]).into_owned();
                    self.at.byte += skip + len;
                    return Some(Token::Word(word, at));
                }
                _ => {
                    self.at.byte += 1;
                    match b {
                        b'(' | b'[' | b'{' => self.depth += 1,
                        b')' | b']' | b'}' => {
                            self.depth -= 1;
                            if b == b'}' && self.holes.last() == Some(&self.depth) {
                                // Back inside the interpolated string.
                                self.holes.pop();
                                self.skip_string(false, true);
                                continue;
                            }
                            if self.depth < 0 && self.past_closers {
                                self.depth = 0;
                            } else if self.depth < 0 {
                                self.done = true;
                                return None;
                            }
                        }
                        b';' if self.depth == 0 => {
                            self.done = true;
                            return None;
                        }
                        _ => {}
                    }
                    return Some(Token::Punct(b));
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(s: &str) -> SourceText {
        SourceText::new(s.as_bytes())
    }

    #[test]
    fn a_utf16_column_becomes_a_byte_column() {
        let t = text("\t\tP();\n  \"é\".Q(); // x\n  \"😀\".R();");
        // A tab is one column.
        assert_eq!(t.byte_at(1, 3).unwrap().column(), 3);
        // é is one UTF-16 unit and two bytes.
        assert_eq!(t.byte_at(2, 7).unwrap().column(), 8);
        assert_eq!(t.identifier_at(t.byte_at(2, 7).unwrap()), Some("Q"));
        // An astral character is two UTF-16 units and four bytes.
        assert_eq!(t.identifier_at(t.byte_at(3, 8).unwrap()), Some("R"));
        assert!(t.byte_at(1, 40).is_none());
    }

    #[test]
    fn a_bom_is_not_counted_by_the_compiler() {
        let t = SourceText::new(b"\xEF\xBB\xBFF();");
        let at = t.byte_at(1, 1).unwrap();
        assert_eq!(at.column(), 4);
        assert_eq!(t.identifier_at(at), Some("F"));
    }

    #[test]
    fn a_byte_that_is_not_utf8_counts_one_column() {
        let t = SourceText::new(b"/*\x96*/ G();");
        assert_eq!(t.identifier_at(t.byte_at(1, 7).unwrap()), Some("G"));
    }

    #[test]
    fn a_clamped_point_finds_the_calls_of_its_name_further_on() {
        let t = text("x(\"{0} a long text\".FormatWith(1), FormatWith2(2), y.FormatWith (3));");
        let cols: Vec<u32> = t
            .calls_named_from(At { line: 1, byte: 5 }, "FormatWith")
            .iter()
            .map(|a| a.column())
            .collect();
        assert_eq!(cols, vec![21, 54]);
    }

    #[test]
    fn new_names_the_last_segment_of_its_type() {
        let t = text("x = new global::A.B<List<int>, C.D>.Inner(1);\ny = new\n   Foo { A = 1 };");
        let (name, at) = t.constructed_at(At { line: 1, byte: 4 }).unwrap();
        assert_eq!((name.as_str(), at.column()), ("Inner", 37));
        let (name, at) = t.constructed_at(At { line: 2, byte: 4 }).unwrap();
        assert_eq!((name.as_str(), at.line, at.column()), ("Foo", 3, 4));
    }

    #[test]
    fn a_statement_lists_what_it_writes_in_order() {
        let t = text(
            "private static readonly Store<T, Func<int>> S = new Store<T, Func<int>>(Create /* Make() */, \"Go()\");\nint z = 1;",
        );
        let w = t.statement(At { line: 1, byte: 0 });
        let kinds: Vec<String> = w
            .iter()
            .map(|w| match w {
                Written::New { name, .. } => format!("new {name}"),
                Written::Call { name, .. } => format!("call {name}"),
                Written::Name { name, .. } => format!("name {name}"),
            })
            .collect();
        assert!(kinds.contains(&"new Store".to_string()), "{kinds:?}");
        assert!(kinds.contains(&"name Create".to_string()), "{kinds:?}");
        assert!(!kinds.iter().any(|k| k.contains("Make") || k.contains("Go")));
        assert!(!kinds.iter().any(|k| k.contains('z')), "stops at the `;`");
    }

    #[test]
    fn the_rest_of_a_statement_reads_past_the_brackets_closing_around_its_start() {
        let t = text("Add(new T(new[] {\n  new P(1) },\n  Run));\nNext();");
        let at = At { line: 2, byte: 2 };
        let names = |w: Vec<Written>| -> Vec<String> {
            w.into_iter()
                .map(|w| match w {
                    Written::New { name, .. }
                    | Written::Call { name, .. }
                    | Written::Name { name, .. } => name,
                })
                .collect()
        };
        assert_eq!(names(t.statement(at)), vec!["P"]);
        assert_eq!(names(t.rest_of_statement(at)), vec!["P", "Run"]);
    }

    #[test]
    fn an_interpolated_strings_holes_are_read() {
        let t = text("s = $\"a {{b}} {x.M(1)} c {N()}\";");
        let calls: Vec<(String, u32)> = t
            .statement(At { line: 1, byte: 0 })
            .into_iter()
            .filter_map(|w| match w {
                Written::Call { name, at } => Some((name, at.column())),
                _ => None,
            })
            .collect();
        assert_eq!(calls, vec![("M".to_string(), 18), ("N".to_string(), 27)]);
    }
}
