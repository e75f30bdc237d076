//! C#'s preprocessor, evaluated before the file is parsed: the build's symbols
//! (`--define`, `Configuration.c.defines`; a C# symbol has no value) and the
//! file's own `#define`/`#undef` decide which `#if`/`#elif`/`#else` branch is
//! compiled. Every directive line and every line of a branch the build leaves out
//! is blanked byte for byte (spaces, newlines kept), so the grammar reads the
//! program the compiler reads and every position still points where it did.
//!
//! tree-sitter-c-sharp parses both branches of an `#if` as one text; 5.5 % of
//! Newtonsoft.Json's files then hold error nodes, and the `#if NET20` copy of
//! `Enumerable` (LinqBridge) would declare extension methods the built assembly
//! does not have. `#region`, `#pragma`, `#nullable`, `#line`, `#warning` and
//! `#error` lines are blanked too: they say nothing about calls and sit where
//! the grammar does not expect them.
//!
//! Directives are found the way the C# lexer finds them: `#` first on a line
//! (after white space and a byte-order mark) outside a comment and outside a
//! verbatim string. Inside a branch the build leaves out, only directives are
//! read (the compiler does not lex skipped text either).

use crate::fasthash::FastSet;

/// Nesting deeper than this is not followed: the rest of the file is kept as it
/// is (the grammar then reports what it cannot read).
const MAX_NESTING: usize = 256;

/// The bytes to parse, or `None` when the file writes no directive.
pub fn mask(src: &[u8], defines: &[crate::config::Define]) -> Option<Vec<u8>> {
    if !src.contains(&b'#') {
        return None;
    }
    let mut symbols: FastSet<String> = defines.iter().map(|d| d.name.clone()).collect();
    let mut out = src.to_vec();
    let mut stack: Vec<Branch> = Vec::new();
    let mut lexer = Lexer::default();
    let mut changed = false;
    let mut start = 0;
    while start < src.len() {
        let end = src[start..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(src.len(), |p| start + p);
        let line = &src[start..end];
        let active = stack.iter().all(|b| b.taking);
        match lexer.directive(line, start == 0) {
            Some(directive) if stack.len() < MAX_NESTING => {
                apply(directive, &mut stack, &mut symbols, active);
                blank(&mut out[start..end]);
                changed = true;
            }
            _ if !active => {
                blank(&mut out[start..end]);
                changed = true;
            }
            _ => lexer.read(line),
        }
        start = end + 1;
    }
    changed.then_some(out)
}

/// Spaces over everything but line ends.
fn blank(bytes: &mut [u8]) {
    for b in bytes {
        if *b != b'\n' {
            *b = b' ';
        }
    }
}

/// One open `#if` group.
struct Branch {
    /// The branch being read now is compiled (and every enclosing one is).
    taking: bool,
    /// Some earlier branch of this group was taken: later `#elif`/`#else` are not.
    taken: bool,
    /// The group itself sits in compiled code.
    outer_active: bool,
}

#[derive(Debug, PartialEq, Eq)]
enum Directive<'l> {
    If(&'l [u8]),
    Elif(&'l [u8]),
    Else,
    Endif,
    Define(&'l [u8]),
    Undef(&'l [u8]),
    /// `#region`, `#pragma`, `#line`, … : blanked, nothing else.
    Other,
}

fn apply(d: Directive, stack: &mut Vec<Branch>, symbols: &mut FastSet<String>, active: bool) {
    match d {
        Directive::If(expr) => {
            let holds = active && evaluate(expr, symbols);
            stack.push(Branch {
                taking: holds,
                taken: holds,
                outer_active: active,
            });
        }
        Directive::Elif(expr) => {
            if let Some(b) = stack.last_mut() {
                let holds = b.outer_active && !b.taken && evaluate(expr, symbols);
                b.taking = holds;
                b.taken |= holds;
            }
        }
        Directive::Else => {
            if let Some(b) = stack.last_mut() {
                b.taking = b.outer_active && !b.taken;
                b.taken = true;
            }
        }
        Directive::Endif => {
            stack.pop();
        }
        Directive::Define(name) if active => {
            symbols.insert(String::from_utf8_lossy(name).into_owned());
        }
        Directive::Undef(name) if active => {
            symbols.remove(String::from_utf8_lossy(name).as_ref());
        }
        Directive::Define(_) | Directive::Undef(_) | Directive::Other => {}
    }
}

/// What the lexer carries from one line to the next: an open `/* … */` comment
/// or an open verbatim string (`@"…"`, which may span lines).
#[derive(Default)]
struct Lexer {
    in_comment: bool,
    in_verbatim: bool,
}

impl Lexer {
    /// The directive this line writes, if it is one.
    fn directive<'l>(&self, line: &'l [u8], first_line: bool) -> Option<Directive<'l>> {
        if self.in_comment || self.in_verbatim {
            return None;
        }
        let mut rest = line;
        if first_line {
            rest = rest.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(rest);
        }
        let rest = trim_start(rest);
        let rest = rest.strip_prefix(b"#")?;
        let rest = trim_start(rest);
        let word_end = rest
            .iter()
            .position(|b| !b.is_ascii_alphabetic())
            .unwrap_or(rest.len());
        let (word, args) = rest.split_at(word_end);
        let args = strip_comment(args);
        Some(match word {
            b"if" => Directive::If(args),
            b"elif" => Directive::Elif(args),
            b"else" => Directive::Else,
            b"endif" => Directive::Endif,
            b"define" => Directive::Define(trim(args)),
            b"undef" => Directive::Undef(trim(args)),
            _ => Directive::Other,
        })
    }

    /// Follow one line of compiled code: comments and verbatim strings that stay
    /// open past its end.
    fn read(&mut self, line: &[u8]) {
        let n = line.len();
        let mut i = 0;
        while i < n {
            if self.in_comment {
                match find(&line[i..], b"*/") {
                    Some(p) => {
                        self.in_comment = false;
                        i += p + 2;
                    }
                    None => return,
                }
                continue;
            }
            if self.in_verbatim {
                match verbatim_end(&line[i..]) {
                    Some(p) => {
                        self.in_verbatim = false;
                        i += p;
                    }
                    None => return,
                }
                continue;
            }
            match line[i] {
                b'/' if line.get(i + 1) == Some(&b'/') => return,
                b'/' if line.get(i + 1) == Some(&b'*') => {
                    self.in_comment = true;
                    i += 2;
                }
                b'@' | b'$' if verbatim_opens(&line[i..]) => {
                    // `@"`, `$@"`, `@$"`: to the closing quote, `""` escapes.
                    i += line[i..].iter().position(|&b| b == b'"').unwrap_or(0) + 1;
                    self.in_verbatim = true;
                }
                b'"' => i = skip_regular_string(line, i),
                b'\'' => i = skip_char_literal(line, i),
                _ => i += 1,
            }
        }
    }
}

fn verbatim_opens(s: &[u8]) -> bool {
    s.starts_with(b"@\"") || s.starts_with(b"$@\"") || s.starts_with(b"@$\"")
}

/// The offset just past the quote that closes a verbatim string (`""` is a quote
/// inside it), or `None` when it stays open.
fn verbatim_end(s: &[u8]) -> Option<usize> {
    let mut i = 0;
    while i < s.len() {
        if s[i] == b'"' {
            if s.get(i + 1) == Some(&b'"') {
                i += 2;
                continue;
            }
            return Some(i + 1);
        }
        i += 1;
    }
    None
}

/// Past a `"…"` string (escapes honoured); a regular string ends with its line.
fn skip_regular_string(line: &[u8], open: usize) -> usize {
    let mut i = open + 1;
    while i < line.len() {
        match line[i] {
            b'\\' => i += 2,
            b'"' => return i + 1,
            _ => i += 1,
        }
    }
    line.len()
}

fn skip_char_literal(line: &[u8], open: usize) -> usize {
    let mut i = open + 1;
    while i < line.len() {
        match line[i] {
            b'\\' => i += 2,
            b'\'' => return i + 1,
            _ => i += 1,
        }
    }
    line.len()
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

fn trim_start(s: &[u8]) -> &[u8] {
    let start = s
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(s.len());
    &s[start..]
}

fn trim(s: &[u8]) -> &[u8] {
    let s = trim_start(s);
    let end = s
        .iter()
        .rposition(|b| !b.is_ascii_whitespace())
        .map_or(0, |p| p + 1);
    &s[..end]
}

/// A directive's arguments end at a `//` comment.
fn strip_comment(s: &[u8]) -> &[u8] {
    match find(s, b"//") {
        Some(p) => &s[..p],
        None => s,
    }
}

/// A preprocessing expression: symbols, `true`, `false`, `!`, `&&`, `||`, `==`,
/// `!=` and parentheses (C# spec §6.5.5). What does not parse is false.
pub fn evaluate(expr: &[u8], symbols: &FastSet<String>) -> bool {
    let tokens = tokenize(expr);
    let mut p = Parser {
        tokens: &tokens,
        pos: 0,
        symbols,
        depth: 0,
    };
    match p.or() {
        Some(v) if p.pos == tokens.len() => v,
        _ => false,
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    Word(String),
    Not,
    And,
    Or,
    Eq,
    Ne,
    Open,
    Close,
    Bad,
}

fn tokenize(s: &[u8]) -> Vec<Token> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < s.len() {
        let c = s[i];
        let two = s.get(i..i + 2);
        match c {
            _ if c.is_ascii_whitespace() => i += 1,
            b'(' => {
                out.push(Token::Open);
                i += 1;
            }
            b')' => {
                out.push(Token::Close);
                i += 1;
            }
            _ if two == Some(b"&&") => {
                out.push(Token::And);
                i += 2;
            }
            _ if two == Some(b"||") => {
                out.push(Token::Or);
                i += 2;
            }
            _ if two == Some(b"==") => {
                out.push(Token::Eq);
                i += 2;
            }
            _ if two == Some(b"!=") => {
                out.push(Token::Ne);
                i += 2;
            }
            b'!' => {
                out.push(Token::Not);
                i += 1;
            }
            _ if c == b'_' || c.is_ascii_alphanumeric() || c >= 0x80 => {
                let start = i;
                while i < s.len() && (s[i] == b'_' || s[i].is_ascii_alphanumeric() || s[i] >= 0x80)
                {
                    i += 1;
                }
                out.push(Token::Word(
                    String::from_utf8_lossy(&s[start..i]).into_owned(),
                ));
            }
            _ => {
                out.push(Token::Bad);
                i += 1;
            }
        }
    }
    out
}

/// Recursive descent over the tokens, bounded in depth.
struct Parser<'t> {
    tokens: &'t [Token],
    pos: usize,
    symbols: &'t FastSet<String>,
    depth: u32,
}

impl Parser<'_> {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.pos)
    }

    fn eat(&mut self, t: &Token) -> bool {
        if self.peek() == Some(t) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn or(&mut self) -> Option<bool> {
        let mut v = self.and()?;
        while self.eat(&Token::Or) {
            let r = self.and()?;
            v = v || r;
        }
        Some(v)
    }

    fn and(&mut self) -> Option<bool> {
        let mut v = self.equality()?;
        while self.eat(&Token::And) {
            let r = self.equality()?;
            v = v && r;
        }
        Some(v)
    }

    fn equality(&mut self) -> Option<bool> {
        let mut v = self.unary()?;
        loop {
            if self.eat(&Token::Eq) {
                v = v == self.unary()?;
            } else if self.eat(&Token::Ne) {
                v = v != self.unary()?;
            } else {
                return Some(v);
            }
        }
    }

    fn unary(&mut self) -> Option<bool> {
        self.depth += 1;
        if self.depth > 64 {
            return None;
        }
        let v = if self.eat(&Token::Not) {
            self.unary().map(|v| !v)
        } else {
            self.primary()
        };
        self.depth -= 1;
        v
    }

    fn primary(&mut self) -> Option<bool> {
        if self.eat(&Token::Open) {
            let v = self.or()?;
            return self.eat(&Token::Close).then_some(v);
        }
        match self.peek()?.clone() {
            Token::Word(w) => {
                self.pos += 1;
                Some(match w.as_str() {
                    "true" => true,
                    "false" => false,
                    _ => self.symbols.contains(&w),
                })
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Define;

    fn defines(names: &[&str]) -> Vec<Define> {
        names
            .iter()
            .map(|n| Define {
                name: n.to_string(),
                value: "1".into(),
            })
            .collect()
    }

    fn masked(src: &str, names: &[&str]) -> String {
        let out = mask(src.as_bytes(), &defines(names)).unwrap_or_else(|| src.as_bytes().to_vec());
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn expressions_follow_the_symbols() {
        let s: FastSet<String> = ["DEBUG", "TRACE"].iter().map(|s| s.to_string()).collect();
        assert!(evaluate(b"DEBUG", &s));
        assert!(!evaluate(b"NET20", &s));
        assert!(evaluate(b"!(NET20 || NET35) && DEBUG", &s));
        assert!(evaluate(b"DEBUG == TRACE", &s));
        assert!(evaluate(b"NET20 != TRACE", &s));
        assert!(evaluate(b"true", &s));
        assert!(!evaluate(b"(DEBUG", &s), "what does not parse is false");
    }

    #[test]
    fn the_branch_the_build_takes_is_kept_and_the_rest_blanked_byte_for_byte() {
        let src = "a\n#if NET20\nclass Old {}\n#elif DEBUG\nclass Debug {}\n#else\nclass Other {}\n#endif\nb\n";
        let out = masked(src, &["DEBUG"]);
        assert_eq!(out.len(), src.len());
        assert_eq!(out.lines().count(), src.lines().count());
        assert!(out.contains("class Debug {}"));
        assert!(!out.contains("Old") && !out.contains("Other") && !out.contains('#'));
        assert!(out.starts_with("a\n") && out.ends_with("b\n"));
    }

    #[test]
    fn nested_groups_inside_a_branch_not_taken_stay_out() {
        let src = "#if A\n#if B\nx\n#else\ny\n#endif\n#else\nz\n#endif\n";
        let out = masked(src, &["B"]);
        assert!(!out.contains('x') && !out.contains('y') && out.contains('z'));
    }

    #[test]
    fn the_files_own_defines_count_from_where_they_are_written() {
        let src =
            "#define LOCAL\n#if LOCAL\nkept\n#endif\n#undef LOCAL\n#if LOCAL\ndropped\n#endif\n";
        let out = masked(src, &[]);
        assert!(out.contains("kept") && !out.contains("dropped"));
    }

    #[test]
    fn regions_and_pragmas_are_blanked_and_a_bom_does_not_hide_a_directive() {
        let src = "\u{feff}#region R\nx\n  #pragma warning disable 1591\n#endregion\n";
        let out = masked(src, &[]);
        assert!(!out.contains('#') && out.contains('x'));
    }

    #[test]
    fn a_hash_inside_a_comment_or_a_verbatim_string_is_no_directive() {
        let src = "/*\n#if NOPE\n*/\nvar s = @\"\n#if NOPE\n\";\nkept\n";
        assert_eq!(masked(src, &[]), src);
        assert!(mask(b"class C {}", &[]).is_none());
    }
}
