//! What the Go build compiles: whether the build configuration leaves a whole file
//! out, decided the way the go command decides it (`go/build`'s `matchFile` and
//! `shouldBuild`, `cmd/go/internal/imports`) for the configuration's GOOS, GOARCH,
//! cgo, tags and test build.
//!
//! A file is left out when its name is one the go tool ignores (`_x.go`), when it is a
//! `_test.go` file outside the test build, when its name carries a GOOS/GOARCH
//! suffix the configuration does not match (`x_windows.go`), when its build
//! constraint is false (`//go:build`, or the legacy `// +build` lines where no
//! `//go:build` line is written), when it imports "C" with cgo off, and when its
//! package is `documentation`. A `//go:build` line that does not parse, or two of
//! them, make the go tool reject the file: the engine leaves it out too, so no call
//! is ever placed on it.
//!
//! The constraint is read from the syntax tree's leading comments: the `//` comment
//! lines before the package clause, each the first thing on its line (a line
//! inside a `/* */` comment is no constraint).

use tree_sitter::Node;

use crate::config::{Configuration, GoConfig};
use crate::lang::go::policy;
use crate::lang::node_text;
use crate::lang::syntax::{children, named_children};

/// Why the build leaves a file out (the report says `build_excluded` for each; the
/// tests tell the reasons apart).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exclusion {
    /// A name starting with `_` or `.`: the go tool ignores the file.
    IgnoredName,
    /// A `_test.go` file, and the run leaves tests out.
    TestFile,
    /// A `_GOOS`, `_GOARCH` or `_GOOS_GOARCH` name suffix the configuration does not match.
    FileNameSuffix,
    /// A `//go:build` expression, or a legacy `// +build` line, that is false.
    Constraint,
    /// A `//go:build` line that does not parse, or more than one: the go tool
    /// rejects the file.
    MalformedConstraint,
    /// The file imports "C" and cgo is off.
    Cgo,
    /// `package documentation`: the go tool ignores the file.
    Documentation,
}

/// Whether (and why) the configuration leaves the Go file at `path` out of the build.
pub fn exclusion(
    path: &str,
    source: &[u8],
    tree: &tree_sitter::Tree,
    config: &Configuration,
) -> Option<Exclusion> {
    let name = path.rsplit('/').next().unwrap_or(path);
    let tags = Tags { go: &config.go };
    if name.starts_with('_') || name.starts_with('.') {
        return Some(Exclusion::IgnoredName);
    }
    if !file_name_matches(name, &tags) {
        return Some(Exclusion::FileNameSuffix);
    }
    let root = tree.root_node();
    match constraint_holds(&read_header(root, source), &tags) {
        Err(Malformed) => return Some(Exclusion::MalformedConstraint),
        Ok(false) => return Some(Exclusion::Constraint),
        Ok(true) => {}
    }
    if is_test_file(name) && !config.tests {
        return Some(Exclusion::TestFile);
    }
    if package_name(root, source) == Some("documentation") {
        return Some(Exclusion::Documentation);
    }
    if !config.go.cgo && imports_c(root, source) {
        return Some(Exclusion::Cgo);
    }
    None
}

/// `x_test.go`: part of the test build only.
fn is_test_file(name: &str) -> bool {
    name.ends_with("_test.go")
}

/// The build tags a configuration satisfies (`go/build`'s `matchTag`).
struct Tags<'c> {
    go: &'c GoConfig,
}

impl Tags<'_> {
    fn satisfied(&self, tag: &str) -> bool {
        let go = self.go;
        let special = tag == go.goos
            || tag == go.goarch
            || tag == policy::COMPILER
            || (tag == "cgo" && go.cgo)
            || (tag == "unix" && policy::UNIX_OS.contains(&go.goos))
            || policy::implied_goos(go.goos) == Some(tag);
        if special {
            return true;
        }
        // `boringcrypto` is the old name of the experiment (go/build renames it).
        let tag = if tag == "boringcrypto" {
            "goexperiment.boringcrypto"
        } else {
            tag
        };
        go.tags.iter().any(|t| t == tag)
            || policy::tool_tags(go.goarch).contains(&tag)
            || is_release_tag(tag)
    }
}

/// `go1.1` … `go1.N` for the Go release the engine reads for
/// ([`policy::GO_RELEASE_MINOR`]).
fn is_release_tag(tag: &str) -> bool {
    tag.strip_prefix("go1.")
        .filter(|minor| !minor.starts_with('0') && minor.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|minor| minor.parse::<u32>().ok())
        .is_some_and(|minor| (1..=policy::GO_RELEASE_MINOR).contains(&minor))
}

/// The file-name constraint (`go/build`'s `goodOSArchFile`): after the first `_` of
/// the name before its first `.`, a last element (before an optional `_test`) that
/// is a known GOOS or GOARCH, or a known GOOS then a known GOARCH, must match the
/// configuration. A suffix that is no known value is no constraint, and a name with
/// nothing before the suffix (`linux.go`) has none.
fn file_name_matches(name: &str, tags: &Tags) -> bool {
    let stem = name.split('.').next().unwrap_or(name);
    let Some(first_underscore) = stem.find('_') else {
        return true;
    };
    let mut parts: Vec<&str> = stem[first_underscore..].split('_').collect();
    if parts.last() == Some(&"test") {
        parts.pop();
    }
    let known_os = |s: &str| policy::KNOWN_OS.contains(&s);
    let known_arch = |s: &str| policy::KNOWN_ARCH.contains(&s);
    match parts.as_slice() {
        [.., os, arch] if known_os(os) && known_arch(arch) => {
            tags.satisfied(os) && tags.satisfied(arch)
        }
        [.., last] if known_os(last) || known_arch(last) => tags.satisfied(last),
        _ => true,
    }
}

/// The constraint lines of a file's header, as the go tool finds them.
#[derive(Debug, Default, PartialEq)]
struct Header<'s> {
    /// Every `//go:build` line before the package clause (more than one is an error).
    go_build: Vec<&'s str>,
    /// The `// +build` lines of the leading run of `//` comments and blank lines,
    /// before its last blank line (a `+build` line must be followed by one, so a
    /// package's doc comment is never read as a constraint).
    plus_build: Vec<&'s str>,
}

/// One leading comment: its row, whether it is a `//` comment that starts its line,
/// and its text (trimmed).
struct LeadingComment<'s> {
    row: usize,
    line_comment: bool,
    text: &'s str,
}

/// Reads the constraint lines from the comments before the first code of the file.
fn read_header<'s>(root: Node, source: &'s [u8]) -> Header<'s> {
    let mut leading = Vec::new();
    let mut code_row = None;
    for child in children(root) {
        if child.kind() != "comment" {
            code_row = Some(child.start_position().row);
            break;
        }
        let text = node_text(source, child).trim();
        leading.push(LeadingComment {
            row: child.start_position().row,
            line_comment: text.starts_with("//") && starts_its_line(source, child.start_byte()),
            text,
        });
    }
    let go_build = leading
        .iter()
        .filter(|c| c.line_comment && is_go_build_line(c.text))
        .map(|c| c.text)
        .collect();
    // The `//` run ends at the first line that is neither blank nor a `//` comment:
    // a block comment, the package clause, or the end of the file.
    let run_end = leading
        .iter()
        .find(|c| !c.line_comment)
        .map(|c| c.row)
        .or(code_row)
        .unwrap_or_else(|| line_count(source));
    let run: Vec<&LeadingComment> = leading.iter().take_while(|c| c.line_comment).collect();
    let plus_build = match last_blank_row(&run, run_end) {
        Some(blank) => run
            .iter()
            .filter(|c| c.row < blank && plus_build_expression(c.text).is_some())
            .map(|c| c.text)
            .collect(),
        None => Vec::new(),
    };
    Header {
        go_build,
        plus_build,
    }
}

/// The last row before `end` that no comment of the run occupies (a blank line:
/// nothing but comments precedes the code, so a row without one is blank).
fn last_blank_row(run: &[&LeadingComment], end: usize) -> Option<usize> {
    // Each comment of the run has a row of its own, all before `end`: walk them
    // back from the end until a row holds none.
    let mut candidate = end.checked_sub(1)?;
    for c in run.iter().rev() {
        if c.row < candidate {
            return Some(candidate);
        }
        candidate = candidate.checked_sub(1)?;
    }
    Some(candidate)
}

/// Whether the bytes before `at` on its line are blanks only.
fn starts_its_line(source: &[u8], at: usize) -> bool {
    source[..at]
        .iter()
        .rev()
        .take_while(|&&b| b != b'\n')
        .all(|b| b.is_ascii_whitespace())
}

/// The lines of the file as the go tool splits them (a last line without a newline
/// counts).
fn line_count(source: &[u8]) -> usize {
    let newlines = source.iter().filter(|&&b| b == b'\n').count();
    newlines + usize::from(source.last().is_some_and(|&b| b != b'\n'))
}

/// `//go:build` alone or followed by blanks (`//go:builds` is not one).
fn is_go_build_line(text: &str) -> bool {
    text.strip_prefix("//go:build")
        .is_some_and(|rest| rest.is_empty() || rest.starts_with(char::is_whitespace))
}

/// The expression of a `// +build` line (`//+build` too), when it is one.
fn plus_build_expression(text: &str) -> Option<&str> {
    let rest = text.strip_prefix("//")?.trim().strip_prefix("+build")?;
    (rest.is_empty() || rest.starts_with(char::is_whitespace)).then(|| rest.trim())
}

/// A `//go:build` line the go tool cannot use.
#[derive(Debug, PartialEq)]
struct Malformed;

/// Whether the file's constraint holds: its `//go:build` line when it writes one,
/// else every `// +build` line (a legacy line that does not parse is no constraint,
/// as in the go tool).
fn constraint_holds(header: &Header, tags: &Tags) -> Result<bool, Malformed> {
    match header.go_build.as_slice() {
        [] => Ok(header
            .plus_build
            .iter()
            .filter_map(|line| plus_build_expression(line))
            .filter_map(|text| parse_plus_build(text).ok())
            .all(|x| x.eval(tags))),
        [line] => {
            let text = line["//go:build".len()..].trim();
            Ok(parse_go_build(text)?.eval(tags))
        }
        _ => Err(Malformed),
    }
}

/// A build constraint expression (`go/build/constraint.Expr`).
#[derive(Debug, Clone, PartialEq)]
enum Expr {
    Tag(String),
    Not(Box<Expr>),
    And(Box<Expr>, Box<Expr>),
    Or(Box<Expr>, Box<Expr>),
}

impl Expr {
    /// Evaluated against the configuration's tags. The recursion is bounded by the
    /// parsers' size limits (1 000 operands for `//go:build`, 100 for `// +build`).
    fn eval(&self, tags: &Tags) -> bool {
        match self {
            Expr::Tag(t) => tags.satisfied(t),
            Expr::Not(x) => !x.eval(tags),
            Expr::And(x, y) => x.eval(tags) && y.eval(tags),
            Expr::Or(x, y) => x.eval(tags) || y.eval(tags),
        }
    }

    fn not(x: Expr) -> Expr {
        Expr::Not(Box::new(x))
    }

    fn and(x: Expr, y: Expr) -> Expr {
        Expr::And(Box::new(x), Box::new(y))
    }

    fn or(x: Expr, y: Expr) -> Expr {
        Expr::Or(Box::new(x), Box::new(y))
    }
}

/// `go/build/constraint`'s limit on a `//go:build` expression: it bounds the
/// parser's recursion and the evaluation's.
const MAX_GO_BUILD_SIZE: usize = 1_000;
/// The limit on the AND/OR operators of one `// +build` line.
const MAX_PLUS_BUILD_SIZE: usize = 100;

/// A tag: letters, digits, `_` and `.` (all digits are fine: `386`).
fn is_tag_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '.'
}

/// Parses a `//go:build` expression: `||` over `&&` over `!`, parentheses, tags.
fn parse_go_build(text: &str) -> Result<Expr, Malformed> {
    let mut p = GoBuildParser {
        text,
        at: 0,
        token: Token::End,
        size: 0,
    };
    let x = p.or()?;
    match p.token {
        Token::End => Ok(x),
        _ => Err(Malformed),
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Token<'s> {
    End,
    Open,
    Close,
    Not,
    And,
    Or,
    Tag(&'s str),
}

/// The recursive-descent parser of `go/build/constraint`, token by token.
struct GoBuildParser<'s> {
    text: &'s str,
    at: usize,
    /// The token read last.
    token: Token<'s>,
    /// Operands read so far (bounded by [`MAX_GO_BUILD_SIZE`]).
    size: usize,
}

impl<'s> GoBuildParser<'s> {
    fn or(&mut self) -> Result<Expr, Malformed> {
        let mut x = self.and()?;
        while self.token == Token::Or {
            x = Expr::or(x, self.and()?);
        }
        Ok(x)
    }

    fn and(&mut self) -> Result<Expr, Malformed> {
        let mut x = self.not()?;
        while self.token == Token::And {
            x = Expr::and(x, self.not()?);
        }
        Ok(x)
    }

    fn not(&mut self) -> Result<Expr, Malformed> {
        self.size += 1;
        if self.size > MAX_GO_BUILD_SIZE {
            return Err(Malformed);
        }
        self.lex()?;
        if self.token != Token::Not {
            return self.atom();
        }
        self.lex()?;
        if self.token == Token::Not {
            // `!!x`: double negation is not allowed.
            return Err(Malformed);
        }
        Ok(Expr::not(self.atom()?))
    }

    /// A tag or a parenthesised expression; its first token is already read.
    fn atom(&mut self) -> Result<Expr, Malformed> {
        match self.token {
            Token::Open => {
                let x = self.or()?;
                if self.token != Token::Close {
                    return Err(Malformed);
                }
                self.lex()?;
                Ok(x)
            }
            Token::Tag(tag) => {
                self.lex()?;
                Ok(Expr::Tag(tag.to_string()))
            }
            _ => Err(Malformed),
        }
    }

    fn lex(&mut self) -> Result<(), Malformed> {
        let rest = &self.text[self.at..];
        let skipped = rest.len() - rest.trim_start_matches([' ', '\t']).len();
        self.at += skipped;
        let rest = &self.text[self.at..];
        let (token, len) = match rest.as_bytes().first() {
            None => (Token::End, 0),
            Some(b'(') => (Token::Open, 1),
            Some(b')') => (Token::Close, 1),
            Some(b'!') => (Token::Not, 1),
            Some(b'&') if rest.starts_with("&&") => (Token::And, 2),
            Some(b'|') if rest.starts_with("||") => (Token::Or, 2),
            Some(_) => {
                let len = rest.find(|c| !is_tag_char(c)).unwrap_or(rest.len());
                if len == 0 {
                    return Err(Malformed);
                }
                (Token::Tag(&rest[..len]), len)
            }
        };
        self.token = token;
        self.at += len;
        Ok(())
    }
}

/// Parses a legacy `// +build` expression: space-separated options are ORed,
/// comma-separated terms ANDed, `!` negates one term; a term that is no valid tag
/// (or `!!x`, or `!` alone) is the tag `ignore`, as in the go tool.
fn parse_plus_build(text: &str) -> Result<Expr, Malformed> {
    let mut size = 0;
    let mut options: Option<Expr> = None;
    for option in text.split_whitespace() {
        let mut terms: Option<Expr> = None;
        for term in option.split(',') {
            let x = plus_build_term(term);
            terms = Some(match terms {
                None => x,
                Some(y) => {
                    size += 1;
                    if size > MAX_PLUS_BUILD_SIZE {
                        return Err(Malformed);
                    }
                    Expr::and(y, x)
                }
            });
        }
        let Some(x) = terms else { continue };
        options = Some(match options {
            None => x,
            Some(y) => {
                size += 1;
                if size > MAX_PLUS_BUILD_SIZE {
                    return Err(Malformed);
                }
                Expr::or(y, x)
            }
        });
    }
    Ok(options.unwrap_or_else(|| Expr::Tag("ignore".to_string())))
}

fn plus_build_term(term: &str) -> Expr {
    let ignore = || Expr::Tag("ignore".to_string());
    if term.starts_with("!!") || term == "!" {
        return ignore();
    }
    let (negated, tag) = match term.strip_prefix('!') {
        Some(t) => (true, t),
        None => (false, term),
    };
    let x = if !tag.is_empty() && tag.chars().all(is_tag_char) {
        Expr::Tag(tag.to_string())
    } else {
        ignore()
    };
    if negated {
        Expr::not(x)
    } else {
        x
    }
}

/// The name the package clause declares.
fn package_name<'s>(root: Node, source: &'s [u8]) -> Option<&'s str> {
    let clause = named_children(root).find(|c| c.kind() == "package_clause")?;
    let name = named_children(clause).next()?;
    Some(node_text(source, name))
}

/// Whether the file imports "C" (a cgo file).
fn imports_c(root: Node, source: &[u8]) -> bool {
    named_children(root)
        .filter(|c| c.kind() == "import_declaration")
        .flat_map(|decl| {
            named_children(decl).flat_map(|c| match c.kind() {
                "import_spec_list" => named_children(c).collect::<Vec<_>>(),
                _ => vec![c],
            })
        })
        .filter(|spec| spec.kind() == "import_spec")
        .filter_map(|spec| spec.child_by_field_name("path"))
        .any(|path| node_text(source, path).trim_matches(['"', '`']) == "C")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tags_of(go: &GoConfig) -> Tags<'_> {
        Tags { go }
    }

    fn default_go() -> GoConfig {
        Configuration::default().go
    }

    fn eval_go_build(text: &str, go: &GoConfig) -> Result<bool, Malformed> {
        Ok(parse_go_build(text)?.eval(&tags_of(go)))
    }

    #[test]
    fn go_build_expressions_evaluate_like_the_go_tool() {
        let go = default_go();
        let holds = |t: &str| eval_go_build(t, &go).unwrap();
        assert!(holds("linux"));
        assert!(holds("linux && amd64"));
        assert!(holds("unix && cgo && gc"));
        assert!(holds("go1.1 && go1.18 && go1.26"));
        assert!(!holds("go1.27"));
        assert!(!holds("go1.026"));
        assert!(!holds("windows || darwin"));
        assert!(holds("!windows"));
        assert!(holds("!(windows || js) && (amd64 || arm64)"));
        assert!(!holds("purego"));
        assert!(!holds("ignore"));
        assert!(!holds("gccgo"));
        assert!(holds("amd64.v1"));
        assert!(!holds("amd64.v3"));
        assert!(holds("goexperiment.greenteagc"));
        assert!(!holds("goexperiment.boringcrypto || boringcrypto"));
        // `&&` binds tighter than `||`.
        assert!(holds("windows && arm64 || linux"));
        assert!(!holds("windows && (arm64 || linux)"));
    }

    #[test]
    fn malformed_go_build_expressions_are_errors() {
        let go = default_go();
        for bad in [
            "",
            "linux &&",
            "linux & amd64",
            "linux | amd64",
            "(linux",
            "linux)",
            "!!linux",
            "linux amd64",
            "linux,amd64",
            "&& linux",
            "linux && -x",
        ] {
            assert_eq!(eval_go_build(bad, &go), Err(Malformed), "{bad:?}");
        }
        assert_eq!(eval_go_build("!(!linux)", &go), Ok(true));
        let deep = format!("{}linux{}", "(".repeat(2_000), ")".repeat(2_000));
        assert_eq!(eval_go_build(&deep, &go), Err(Malformed));
        let wide = vec!["a"; 1_001].join(" || ");
        assert_eq!(eval_go_build(&wide, &go), Err(Malformed));
    }

    #[test]
    fn tags_given_to_the_run_are_satisfied() {
        let mut go = default_go();
        go.tags = vec!["purego".into(), "ignore".into()];
        assert_eq!(eval_go_build("purego && ignore", &go), Ok(true));
        go.cgo = false;
        assert_eq!(eval_go_build("cgo", &go), Ok(false));
    }

    #[test]
    fn plus_build_lines_or_spaces_and_commas() {
        let go = default_go();
        let holds = |t: &str| parse_plus_build(t).unwrap().eval(&tags_of(&go));
        assert!(holds("linux darwin"));
        assert!(holds("linux,amd64"));
        assert!(!holds("linux,!amd64"));
        assert!(holds("windows linux,cgo"));
        assert!(!holds("ignore"));
        assert!(!holds(""));
        // Terms the go tool reads as `ignore`.
        assert!(!holds("!!linux"));
        assert!(!holds("!"));
        assert!(!holds("a-b"));
        assert!(holds("!a-b"));
        let complex = vec!["a"; 102].join(" ");
        assert_eq!(parse_plus_build(&complex), Err(Malformed));
    }

    #[test]
    fn file_names_constrain_by_known_values_only() {
        let go = default_go();
        let tags = tags_of(&go);
        let matches = |n: &str| file_name_matches(n, &tags);
        assert!(matches("a.go"));
        assert!(matches("a_linux.go"));
        assert!(matches("a_amd64.go"));
        assert!(matches("a_linux_amd64.go"));
        assert!(matches("a_linux_test.go"));
        assert!(!matches("a_windows.go"));
        assert!(!matches("a_arm64.go"));
        assert!(!matches("a_linux_arm64.go"));
        assert!(!matches("a_windows_amd64.go"));
        assert!(!matches("a_windows_test.go"));
        assert!(!matches("a_darwin_amd64_test.go"));
        // No prefix before the suffix: no constraint (Go 1.4 on).
        assert!(matches("windows.go"));
        assert!(matches("windows_test.go"));
        // Not a known GOOS or GOARCH: no constraint.
        assert!(matches("a_win.go"));
        assert!(matches("command_notwin.go"));
        assert!(matches("a_unix.go"));
        // The stem ends at the first dot.
        assert!(!matches("a_windows.pb.go"));
        // Only the last element (or the last two) count.
        assert!(matches("a_windows_x.go"));
        assert!(!matches("a_test_windows.go"));
    }

    #[test]
    fn release_tags_go_up_to_the_release_read_for() {
        assert!(is_release_tag("go1.1"));
        assert!(is_release_tag(&format!("go1.{}", policy::GO_RELEASE_MINOR)));
        assert!(!is_release_tag(&format!(
            "go1.{}",
            policy::GO_RELEASE_MINOR + 1
        )));
        assert!(!is_release_tag("go1.0"));
        assert!(!is_release_tag("go1"));
        assert!(!is_release_tag("go2.1"));
        assert!(!is_release_tag("go1.x"));
    }

    fn header_of(source: &str) -> (Vec<String>, Vec<String>) {
        let mut parser = tree_sitter::Parser::new();
        parser
            .set_language(&tree_sitter_go::LANGUAGE.into())
            .unwrap();
        let tree = parser.parse(source, None).unwrap();
        let h = read_header(tree.root_node(), source.as_bytes());
        let own = |v: Vec<&str>| v.into_iter().map(str::to_string).collect();
        (own(h.go_build), own(h.plus_build))
    }

    #[test]
    fn go_build_lines_are_read_before_the_package_clause_only() {
        let (go_build, _) = header_of("// Copyright\n\n//go:build linux\n\npackage a\n");
        assert_eq!(go_build, ["//go:build linux"]);
        // No blank line needed after a //go:build line.
        let (go_build, _) = header_of("//go:build linux\npackage a\n");
        assert_eq!(go_build, ["//go:build linux"]);
        // After a block comment, still before the code.
        let (go_build, _) = header_of("/* c */\n//go:build linux\n\npackage a\n");
        assert_eq!(go_build, ["//go:build linux"]);
        // Inside a block comment, after code, or not first on its line: none.
        let (go_build, _) = header_of("/*\n//go:build linux\n*/\npackage a\n");
        assert!(go_build.is_empty());
        let (go_build, _) = header_of("package a\n\n//go:build linux\n");
        assert!(go_build.is_empty());
        let (go_build, _) = header_of("/* c */ //go:build linux\n\npackage a\n");
        assert!(go_build.is_empty());
        let (go_build, _) = header_of("//go:buildlinux\n\npackage a\n");
        assert!(go_build.is_empty());
        let (go_build, _) = header_of("//go:build a\n//go:build b\n\npackage a\n");
        assert_eq!(go_build.len(), 2);
    }

    #[test]
    fn plus_build_lines_must_be_followed_by_a_blank_line() {
        let (_, plus) = header_of("// +build linux\n\npackage a\n");
        assert_eq!(plus, ["// +build linux"]);
        let (_, plus) = header_of("// +build linux\n// +build amd64\n\n// doc\npackage a\n");
        assert_eq!(plus, ["// +build linux", "// +build amd64"]);
        let (_, plus) = header_of("\n//+build linux\n\npackage a\n");
        assert_eq!(plus, ["//+build linux"]);
        // Part of the package's doc comment: no blank line before the clause.
        let (_, plus) = header_of("// +build windows\npackage a\n");
        assert!(plus.is_empty());
        let (_, plus) = header_of("// doc\n\n// +build windows\npackage a\n");
        assert!(plus.is_empty());
        // After a block comment: outside the leading run of `//` lines.
        let (_, plus) = header_of("/* c */\n\n// +build windows\n\npackage a\n");
        assert!(plus.is_empty());
        let (_, plus) = header_of("// +builds windows\n\npackage a\n");
        assert!(plus.is_empty());
    }

    #[test]
    fn each_rule_names_its_exclusion() {
        let mut parser = tree_sitter::Parser::new();
        parser
            .set_language(&tree_sitter_go::LANGUAGE.into())
            .unwrap();
        let default = Configuration::default();
        let no_tests_no_cgo = Configuration {
            tests: false,
            go: GoConfig {
                cgo: false,
                ..default.go.clone()
            },
            ..default.clone()
        };
        let mut why = |path: &str, source: &str, config: &Configuration| {
            let tree = parser.parse(source, None).unwrap();
            exclusion(path, source.as_bytes(), &tree, config)
        };
        let plain = "package a\n";
        let cgo = "package a\n\nimport \"C\"\n";
        assert_eq!(why("p/a.go", plain, &default), None);
        assert_eq!(why("p/a_test.go", plain, &default), None);
        assert_eq!(why("p/a.go", cgo, &default), None);
        assert_eq!(
            why("p/_a.go", plain, &default),
            Some(Exclusion::IgnoredName)
        );
        assert_eq!(
            why("p/a_windows.go", plain, &default),
            Some(Exclusion::FileNameSuffix)
        );
        assert_eq!(
            why("p/a.go", "//go:build purego\n\npackage a\n", &default),
            Some(Exclusion::Constraint)
        );
        assert_eq!(
            why("p/a.go", "// +build ignore\n\npackage a\n", &default),
            Some(Exclusion::Constraint)
        );
        assert_eq!(
            why("p/a.go", "//go:build (linux\n\npackage a\n", &default),
            Some(Exclusion::MalformedConstraint)
        );
        assert_eq!(
            why("p/a.go", "package documentation\n", &default),
            Some(Exclusion::Documentation)
        );
        assert_eq!(
            why("p/a_test.go", plain, &no_tests_no_cgo),
            Some(Exclusion::TestFile)
        );
        assert_eq!(why("p/a.go", cgo, &no_tests_no_cgo), Some(Exclusion::Cgo));
    }

    #[test]
    fn cgo_files_and_documentation_packages_are_found_in_the_tree() {
        let mut parser = tree_sitter::Parser::new();
        parser
            .set_language(&tree_sitter_go::LANGUAGE.into())
            .unwrap();
        let cgo = "package a\n\n// #include <stdio.h>\nimport \"C\"\n";
        let grouped = "package a\n\nimport (\n\t\"fmt\"\n\t\"C\"\n)\n";
        let plain = "package documentation\n\nimport \"fmt\"\n";
        let mut read = |s: &str| {
            let tree = parser.parse(s, None).unwrap();
            let root = tree.root_node();
            (
                imports_c(root, s.as_bytes()),
                package_name(root, s.as_bytes()).map(str::to_string),
            )
        };
        assert_eq!(read(cgo), (true, Some("a".into())));
        assert!(read(grouped).0);
        assert_eq!(read(plain), (false, Some("documentation".into())));
    }
}
