//! The preprocessor's view of one file: its directive lines (found the way the
//! compiler's translation phases find them — spliced lines joined, comments
//! replaced by a space, nothing inside a comment or a string or a raw string taken
//! for a directive) and the preprocessing tokens of a directive's text.

use std::sync::Arc;

/// One preprocessing token of a directive's text.
#[derive(Debug, Clone, PartialEq)]
pub enum Tok {
    Ident(Arc<str>),
    /// A pp-number as spelled (`0x10u`, `201703L`, `1'000`).
    Number(Arc<str>),
    /// A character literal as spelled, prefix and quotes included (`'a'`, `L'\0'`).
    Char(Arc<str>),
    /// A string literal as spelled, quotes included.
    Str(Arc<str>),
    Punct(&'static str),
    /// Any other character (`@`, `\`, a stray quote).
    Other(char),
}

impl Tok {
    /// The token's spelling (what `#` stringifies and `##` pastes).
    pub fn spelling(&self) -> String {
        match self {
            Tok::Ident(s) | Tok::Number(s) | Tok::Char(s) | Tok::Str(s) => s.to_string(),
            Tok::Punct(p) => p.to_string(),
            Tok::Other(c) => c.to_string(),
        }
    }

    pub fn is_punct(&self, p: &str) -> bool {
        matches!(self, Tok::Punct(q) if *q == p)
    }
}

/// Longest first, so `<<=` is read before `<<` and `<`.
const PUNCTS: &[&str] = &[
    "%:%:", "...", "<<=", ">>=", "<=>", "->*", "##", "#@", "%:", "&&", "||", "==", "!=", "<=",
    ">=", "<<", ">>", "++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "->", "::", ".*",
    "#", "(", ")", ",", "?", ":", "+", "-", "*", "/", "%", "&", "|", "^", "~", "!", "<", ">", "=",
    "[", "]", "{", "}", ";", ".",
];

/// The tokens of a directive's logical text (comments already replaced by spaces).
pub fn tokens(text: &str) -> Vec<Tok> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if is_ident_start(c) {
            let s = i;
            while i < b.len() && is_ident_char(b[i]) {
                i += 1;
            }
            let word = &text[s..i];
            // `L'x'`, `u8"…"`: the prefix belongs to the literal.
            if i < b.len() && (b[i] == b'\'' || b[i] == b'"') && is_literal_prefix(word) {
                let end = quoted_end(b, i);
                let lit: Arc<str> = text[s..end].into();
                out.push(if b[i] == b'\'' {
                    Tok::Char(lit)
                } else {
                    Tok::Str(lit)
                });
                i = end;
                continue;
            }
            out.push(Tok::Ident(word.into()));
            continue;
        }
        if c.is_ascii_digit() || (c == b'.' && b.get(i + 1).is_some_and(u8::is_ascii_digit)) {
            let s = i;
            i = pp_number_end(b, i);
            out.push(Tok::Number(text[s..i].into()));
            continue;
        }
        if c == b'\'' || c == b'"' {
            let end = quoted_end(b, i);
            if end == i + 1 {
                out.push(Tok::Other(c as char));
                i += 1;
                continue;
            }
            let lit: Arc<str> = text[i..end].into();
            out.push(if c == b'\'' {
                Tok::Char(lit)
            } else {
                Tok::Str(lit)
            });
            i = end;
            continue;
        }
        match PUNCTS.iter().find(|p| b[i..].starts_with(p.as_bytes())) {
            Some(p) => {
                out.push(Tok::Punct(match *p {
                    "%:" => "#",
                    "%:%:" => "##",
                    p => p,
                }));
                i += p.len();
            }
            None => {
                let ch = text[i..].chars().next().unwrap_or('?');
                out.push(Tok::Other(ch));
                i += ch.len_utf8();
            }
        }
    }
    out
}

fn is_literal_prefix(word: &str) -> bool {
    matches!(word, "L" | "u" | "U" | "u8")
}

/// A pp-number: a digit (or `.digit`), then digits, letters, `_`, `.`, an exponent
/// sign after `e`/`E`/`p`/`P`, and `'` digit separators followed by a digit or letter.
fn pp_number_end(b: &[u8], mut i: usize) -> usize {
    i += 1;
    while i < b.len() {
        let c = b[i];
        let exponent_sign =
            (c == b'+' || c == b'-') && matches!(b[i - 1], b'e' | b'E' | b'p' | b'P');
        if is_ident_char(c) || c == b'.' || exponent_sign {
            i += 1;
        } else if c == b'\'' && b.get(i + 1).is_some_and(|n| n.is_ascii_alphanumeric()) {
            i += 2;
        } else {
            break;
        }
    }
    i
}

/// Past the closing quote of the literal opening at `open`, or `open + 1` when the
/// line has none (a lone quote, as in `#error don't`).
fn quoted_end(b: &[u8], open: usize) -> usize {
    let q = b[open];
    let mut i = open + 1;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'\n' => return open + 1,
            c if c == q => return i + 1,
            _ => i += 1,
        }
    }
    open + 1
}

pub fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_' || c == b'$'
}

pub fn is_ident_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'$'
}

/// One directive line as found in the file.
#[derive(Debug, Clone)]
pub struct Line {
    /// Byte offset of the line's start (the indentation before `#` included).
    pub start: usize,
    /// Byte offset of the newline that ends the logical line (spliced lines and
    /// comments that run past a newline included), or the file's length.
    pub end: usize,
    /// The text after `#`, spliced lines joined and comments replaced by a space.
    pub text: String,
}

/// Every directive line of a file, in order. `cpp` turns on raw string literals
/// (`R"x(…)x"`), which C does not have.
pub fn directive_lines(src: &[u8], cpp: bool) -> Vec<Line> {
    let mut lines = Vec::new();
    let n = src.len();
    let mut i = 0;
    let mut at_line_start = true;
    while i < n {
        let c = src[i];
        if c == b'\n' {
            at_line_start = true;
            i += 1;
            continue;
        }
        if at_line_start && matches!(c, b' ' | b'\t' | b'\x0c' | b'\x0b' | b'\r') {
            i += 1;
            continue;
        }
        if let Some(next) = splice(src, i) {
            i = next;
            continue;
        }
        if at_line_start && c == b'#' {
            let start = line_start(src, i);
            let (end, text) = logical_directive(src, i + 1);
            lines.push(Line { start, end, text });
            i = end;
            continue;
        }
        // A block comment is one space: a `#` after it still opens a directive.
        if c == b'/' && src.get(i + 1) == Some(&b'*') {
            i = block_comment_end(src, i);
            continue;
        }
        at_line_start = false;
        i = skip_code_token(src, i, cpp);
    }
    lines
}

/// `\` followed by a newline (or `\r\n`): the two lines are one.
fn splice(src: &[u8], i: usize) -> Option<usize> {
    if src[i] != b'\\' {
        return None;
    }
    match (src.get(i + 1), src.get(i + 2)) {
        (Some(b'\n'), _) => Some(i + 2),
        (Some(b'\r'), Some(b'\n')) => Some(i + 3),
        _ => None,
    }
}

fn line_start(src: &[u8], i: usize) -> usize {
    src[..i]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |p| p + 1)
}

/// The logical text of a directive starting after its `#`, and where it ends.
fn logical_directive(src: &[u8], mut i: usize) -> (usize, String) {
    let n = src.len();
    let mut text: Vec<u8> = Vec::new();
    while i < n {
        if let Some(next) = splice(src, i) {
            i = next;
            continue;
        }
        let c = src[i];
        if c == b'\n' {
            break;
        }
        if c == b'/' && src.get(i + 1) == Some(&b'*') {
            i = block_comment_end(src, i);
            text.push(b' ');
            continue;
        }
        if c == b'/' && src.get(i + 1) == Some(&b'/') {
            // A line comment runs to the newline (a splice continues it).
            while i < n && src[i] != b'\n' {
                i = splice(src, i).unwrap_or(i + 1);
            }
            break;
        }
        if c == b'"' || c == b'\'' {
            let end = literal_end_in_line(src, i);
            text.extend_from_slice(&src[i..end]);
            i = end;
            continue;
        }
        text.push(c);
        i += 1;
    }
    (i.min(n), String::from_utf8_lossy(&text).into_owned())
}

/// Past the `*/` of the block comment opening at `i` (the file's end when unclosed).
fn block_comment_end(src: &[u8], i: usize) -> usize {
    let mut j = i + 2;
    while j + 1 < src.len() {
        if src[j] == b'*' && src[j + 1] == b'/' {
            return j + 2;
        }
        j += 1;
    }
    src.len()
}

/// Past the closing quote on this line, or one byte when the line has none.
fn literal_end_in_line(src: &[u8], open: usize) -> usize {
    let q = src[open];
    let mut j = open + 1;
    while j < src.len() {
        if let Some(next) = splice(src, j) {
            j = next;
            continue;
        }
        match src[j] {
            b'\\' => j += 2,
            b'\n' => return open + 1,
            c if c == q => return j + 1,
            _ => j += 1,
        }
    }
    open + 1
}

/// Past one token of ordinary code: a comment, a literal, a raw string, a word or
/// number, or one byte.
fn skip_code_token(src: &[u8], i: usize, cpp: bool) -> usize {
    let c = src[i];
    if c == b'/' && src.get(i + 1) == Some(&b'*') {
        return block_comment_end(src, i);
    }
    if c == b'/' && src.get(i + 1) == Some(&b'/') {
        let mut j = i;
        while j < src.len() && src[j] != b'\n' {
            j = splice(src, j).unwrap_or(j + 1);
        }
        return j;
    }
    if c == b'"' || c == b'\'' {
        return literal_end_in_line(src, i);
    }
    if c.is_ascii_digit() {
        return pp_number_end(src, i);
    }
    if is_ident_start(c) {
        let mut j = i;
        while j < src.len() && is_ident_char(src[j]) {
            j += 1;
        }
        let word = &src[i..j];
        if cpp && src.get(j) == Some(&b'"') && matches!(word, b"R" | b"u8R" | b"LR" | b"uR" | b"UR")
        {
            return raw_string_end(src, j);
        }
        return j;
    }
    i + 1
}

/// `R"delim(…)delim"` from its opening quote; a malformed one is one byte.
fn raw_string_end(src: &[u8], quote: usize) -> usize {
    let Some(open) = src[quote..]
        .iter()
        .take(18)
        .position(|&b| b == b'(')
        .map(|p| quote + p)
    else {
        return quote + 1;
    };
    let mut close = Vec::with_capacity(open - quote + 1);
    close.push(b')');
    close.extend_from_slice(&src[quote + 1..open]);
    close.push(b'"');
    src[open..]
        .windows(close.len())
        .position(|w| w == close.as_slice())
        .map_or(src.len(), |p| open + p + close.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(src: &str, cpp: bool) -> Vec<String> {
        directive_lines(src.as_bytes(), cpp)
            .into_iter()
            .map(|l| l.text.trim().to_string())
            .collect()
    }

    #[test]
    fn directives_are_found_the_way_translation_phases_find_them() {
        let src = "#if A /* x\n y */ && B\nint x; /*\n#define NO\n*/\n  # define Y \\\n  2 // c\nconst char *s = \"\\\n#not\";\n#endif\n";
        assert_eq!(texts(src, false), ["if A   && B", "define Y   2", "endif"]);
        let lines = directive_lines(src.as_bytes(), false);
        assert_eq!(&src[lines[0].start..lines[0].end], "#if A /* x\n y */ && B");
        assert_eq!(
            &src[lines[1].start..lines[1].end],
            "  # define Y \\\n  2 // c"
        );
    }

    #[test]
    fn raw_strings_hide_directives_in_cpp_only() {
        let src = "auto s = R\"(\n#define IN_STRING\n)\";\n#define OUT\n";
        assert_eq!(texts(src, true), ["define OUT"]);
        assert_eq!(texts(src, false).len(), 2);
    }

    #[test]
    fn a_lone_quote_does_not_swallow_the_file() {
        let src = "#error don't\n#define X 1\nint c = 1'000;\n#endif\n";
        assert_eq!(texts(src, true), ["error don't", "define X 1", "endif"]);
    }

    #[test]
    fn tokens_read_numbers_literals_and_punctuators() {
        let t = tokens("defined(X) && 0x1Fu >= 1'000 || L'a' != '\\n' %: ##");
        assert_eq!(
            t,
            [
                Tok::Ident("defined".into()),
                Tok::Punct("("),
                Tok::Ident("X".into()),
                Tok::Punct(")"),
                Tok::Punct("&&"),
                Tok::Number("0x1Fu".into()),
                Tok::Punct(">="),
                Tok::Number("1'000".into()),
                Tok::Punct("||"),
                Tok::Char("L'a'".into()),
                Tok::Punct("!="),
                Tok::Char("'\\n'".into()),
                Tok::Punct("#"),
                Tok::Punct("##"),
            ]
        );
    }
}
