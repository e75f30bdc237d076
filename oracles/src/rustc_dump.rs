//! The shape of the dumps rustc prints with `-Zunpretty=thir-flat` and
//! `-Zunpretty=hir-tree`: one top-level block per body or per HIR owner, each the
//! `{:#?}` pretty form of a compiler structure (one field or element per line, four
//! spaces deeper per level), whose leaves are the compiler's own one-line renderings
//! of spans, `DefId`s, types and symbols.
//!
//! Structure is read from the indentation, never from the characters of a leaf: a
//! leaf such as `DefId(0:7 ~ krate[fbb3]::a::{impl#0}::new)` or a type
//! `&'{erased} dyn [Binder { … }] + '{erased}` holds brackets and braces of its own,
//! so splitting on them would mis-nest; the line layout of the pretty printer is what
//! tells a field from its value. The format is rustc's unstable debug output; the
//! adapters that read it pin the rustc version ([`crate::rustc_thir::THIR_FORMAT_RUSTC`]).

use std::fmt;

/// The deepest nesting the tree keeps; a deeper line is attached at this depth (the
/// compiler's trees are far shallower; the bound keeps every walk finite).
const MAX_DEPTH: usize = 512;

/// One top-level block of a dump: its header line (`DefId(…):`,
/// `DefId(…) => OwnerNodes {`) and the lines that follow it up to the next header.
#[derive(Debug, Clone, Copy)]
pub struct Block<'a> {
    pub header: &'a str,
    pub body: &'a str,
}

/// The blocks of a dump, in order: a block starts at every line that begins with
/// `DefId(` at column 0.
pub fn blocks(text: &str) -> Vec<Block<'_>> {
    let mut starts = Vec::new();
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        if line.starts_with("DefId(") {
            starts.push(offset);
        }
        offset += line.len();
    }
    let mut out = Vec::with_capacity(starts.len());
    for (n, &start) in starts.iter().enumerate() {
        let end = starts.get(n + 1).copied().unwrap_or(text.len());
        let block = &text[start..end];
        let (header, body) = block.split_once('\n').unwrap_or((block, ""));
        out.push(Block {
            header: header.trim_end(),
            body,
        });
    }
    out
}

/// A block's lines as a tree by indentation. Node 0 is a virtual root whose children
/// are the block's top-level lines; closing lines (`}`, `),` …) are dropped.
#[derive(Debug, Default)]
pub struct Tree<'a> {
    nodes: Vec<RawNode<'a>>,
}

#[derive(Debug)]
struct RawNode<'a> {
    text: &'a str,
    children: Vec<u32>,
}

impl<'a> Tree<'a> {
    pub fn parse(body: &'a str) -> Tree<'a> {
        let mut nodes = vec![RawNode {
            text: "",
            children: Vec::new(),
        }];
        // (indent, node) of the open ancestors, the root first.
        let mut open: Vec<(usize, u32)> = vec![(0, 0)];
        for line in body.lines() {
            let content = line.trim_start_matches(' ');
            if content.is_empty() || is_closing(content) {
                continue;
            }
            let indent = line.len() - content.len();
            while open.len() > 1 && open.last().is_some_and(|&(i, _)| i >= indent) {
                open.pop();
            }
            let id = nodes.len() as u32;
            let parent = open.last().map_or(0, |&(_, p)| p);
            nodes.push(RawNode {
                text: content.trim_end(),
                children: Vec::new(),
            });
            nodes[parent as usize].children.push(id);
            if open.len() < MAX_DEPTH {
                open.push((indent, id));
            }
        }
        Tree { nodes }
    }

    pub fn root(&self) -> Node<'_, 'a> {
        Node { tree: self, id: 0 }
    }
}

/// A closing line of the pretty printer: only closers and a trailing comma.
fn is_closing(content: &str) -> bool {
    let c = content.trim_end().trim_end_matches(',');
    !c.is_empty() && c.chars().all(|ch| matches!(ch, '}' | ')' | ']'))
}

/// One line of a block and the lines nested under it.
#[derive(Clone, Copy)]
pub struct Node<'t, 'a> {
    tree: &'t Tree<'a>,
    id: u32,
}

impl fmt::Debug for Node<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Node({:?})", self.text())
    }
}

impl<'t, 'a> Node<'t, 'a> {
    /// The line as printed, without indentation.
    pub fn text(&self) -> &'a str {
        self.tree.nodes[self.id as usize].text
    }

    pub fn children(&self) -> impl Iterator<Item = Node<'t, 'a>> + '_ {
        self.tree.nodes[self.id as usize]
            .children
            .iter()
            .map(|&id| Node {
                tree: self.tree,
                id,
            })
    }

    pub fn child(&self, n: usize) -> Option<Node<'t, 'a>> {
        self.children().nth(n)
    }

    /// The field name of a `name: value` line (struct fields, map keys).
    pub fn key(&self) -> Option<&'a str> {
        split_key(self.text()).map(|(k, _)| k)
    }

    /// The line without its field name and trailing comma.
    pub fn value(&self) -> &'a str {
        let text = self.text();
        let value = split_key(text).map_or(text, |(_, v)| v);
        value.strip_suffix(',').unwrap_or(value)
    }

    /// The value without the bracket that opens its nested lines: `Call {` → `Call`,
    /// `FnDef(` → `FnDef`, `[` → ``.
    pub fn head(&self) -> &'a str {
        let value = self.value();
        match value.strip_suffix(['{', '(', '[']) {
            Some(head) => head.trim_end(),
            None => value,
        }
    }

    /// The child line that is field `key`.
    pub fn field(&self, key: &str) -> Option<Node<'t, 'a>> {
        self.children().find(|c| c.key() == Some(key))
    }

    /// The value of field `key` when it is a one-line leaf.
    pub fn leaf(&self, key: &str) -> Option<&'a str> {
        self.field(key).map(|f| f.value())
    }

    /// The first child whose head is `head` (`Generics`, `Provided`).
    pub fn child_headed(&self, head: &str) -> Option<Node<'t, 'a>> {
        self.children()
            .find(|c| c.key().is_none() && c.head() == head)
    }

    /// The single value a wrapper line holds: `Some(` → its one child, `Item(` → the
    /// `Item {` under it.
    pub fn inner(&self) -> Option<Node<'t, 'a>> {
        self.child(0)
    }

    /// The node as one line, the way the compiler's one-line form writes it
    /// (`Closure(DefId(…), [i8, …])`), for leaves that the pretty printer happened
    /// to spread over lines (a type inside a generic-argument list).
    pub fn inline(&self) -> String {
        let mut out = String::new();
        self.write_inline(&mut out, 0);
        out
    }

    fn write_inline(&self, out: &mut String, depth: usize) {
        let value = self.value();
        let opener = value
            .chars()
            .last()
            .filter(|c| matches!(c, '{' | '(' | '['));
        let Some(opener) = opener else {
            out.push_str(value);
            return;
        };
        let head = value[..value.len() - 1].trim_end();
        out.push_str(head);
        let (open, close, sep) = match opener {
            '{' => (" { ", " }", ", "),
            '(' => ("(", ")", ", "),
            _ => ("[", "]", ", "),
        };
        out.push_str(if head.is_empty() && opener == '{' {
            "{ "
        } else {
            open
        });
        if depth < MAX_DEPTH {
            for (n, child) in self.children().enumerate() {
                if n > 0 {
                    out.push_str(sep);
                }
                if let Some(key) = child.key() {
                    out.push_str(key);
                    out.push_str(": ");
                }
                child.write_inline(out, depth + 1);
            }
        }
        out.push_str(close);
    }

    /// Every reference to a THIR arena entry (`e12`, `b3`, `s0`, `a1`) written as a
    /// whole value in this node's lines.
    pub fn references(&self) -> Vec<Ref> {
        let mut found = Vec::new();
        let mut stack = vec![*self];
        let mut steps = 0usize;
        while let Some(node) = stack.pop() {
            steps += 1;
            if steps > 1_000_000 {
                break;
            }
            if let Some(r) = Ref::parse(node.head()) {
                found.push(r);
            }
            stack.extend(node.children());
        }
        found
    }
}

/// `name: value` → (`name`, `value`) when `name` is a field name or map key.
fn split_key(text: &str) -> Option<(&str, &str)> {
    let (key, value) = text.split_once(": ")?;
    let word = !key.is_empty() && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    word.then_some((key, value))
}

/// An entry of a THIR body's arenas.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Ref {
    Expr(usize),
    Block(usize),
    Stmt(usize),
    Arm(usize),
}

impl Ref {
    pub fn parse(text: &str) -> Option<Ref> {
        let kind = text.chars().next()?;
        let digits = &text[1..];
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let n: usize = digits.parse().ok()?;
        match kind {
            'e' => Some(Ref::Expr(n)),
            'b' => Some(Ref::Block(n)),
            's' => Some(Ref::Stmt(n)),
            'a' => Some(Ref::Arm(n)),
            _ => None,
        }
    }
}

/// A line and column as rustc prints them: both 1-based, the column counted in
/// characters of the line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct LineCol {
    pub line: u32,
    pub col: u32,
}

/// A span as printed: `src/a.rs:3:9: 3:23 (#0)`. `root` is syntax context 0: text
/// the source writes (a macro's argument tokens keep it); a macro's own tokens and a
/// desugaring (`?`, `for`) carry another context.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Span {
    pub file: String,
    pub lo: LineCol,
    pub hi: LineCol,
    pub root: bool,
}

impl Span {
    pub fn parse(text: &str) -> Option<Span> {
        let (location, context) = text.trim().rsplit_once(" (#")?;
        let context = context.strip_suffix(')')?;
        let (left, right) = location.rsplit_once(": ")?;
        let hi = line_col(right)?;
        let (rest, col) = left.rsplit_once(':')?;
        let (file, line) = rest.rsplit_once(':')?;
        Some(Span {
            file: file.to_string(),
            lo: LineCol {
                line: line.parse().ok()?,
                col: col.parse().ok()?,
            },
            hi,
            root: context == "0",
        })
    }

    /// Whether the file lies in the compiled package (rustc prints the package's own
    /// files relative to it, std's and dependencies' as absolute paths).
    pub fn in_package(&self) -> bool {
        !self.file.starts_with('/') && !self.file.starts_with('<') && !self.file.is_empty()
    }
}

fn line_col(text: &str) -> Option<LineCol> {
    let (line, col) = text.split_once(':')?;
    Some(LineCol {
        line: line.parse().ok()?,
        col: col.parse().ok()?,
    })
}

/// A definition: `DefId(K:N ~ crate[hash]::path)`. `krate` 0 is the crate compiled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct DefId {
    pub krate: u32,
    pub index: u32,
}

/// A `DefId` and its definition path without crate disambiguators
/// (`clap_builder::builder::{impl#3}::new`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Def {
    pub id: DefId,
    pub path: String,
}

impl Def {
    /// The `DefId(…)` at the start of `text`.
    pub fn parse(text: &str) -> Option<Def> {
        let rest = text.trim().strip_prefix("DefId(")?;
        let (numbers, rest) = rest.split_once(" ~ ")?;
        let (krate, index) = numbers.split_once(':')?;
        let path = balanced_until_close(rest)?;
        Some(Def {
            id: DefId {
                krate: krate.parse().ok()?,
                index: index.parse().ok()?,
            },
            path: without_disambiguators(path),
        })
    }

    /// The path without its last segment (`a::Tr::m` → `a::Tr`).
    pub fn parent_path(&self) -> &str {
        parent_path(&self.path)
    }

    /// The last segment of the path.
    pub fn name(&self) -> &str {
        last_segment(&self.path)
    }
}

/// `a::{impl#0}::m` → `a::{impl#0}`.
pub fn parent_path(path: &str) -> &str {
    split_last_segment(path).0
}

/// `a::{impl#0}::m` → `m`.
pub fn last_segment(path: &str) -> &str {
    split_last_segment(path).1
}

/// Splits at the last `::` outside `{…}`, `<…>` and `[…]`.
fn split_last_segment(path: &str) -> (&str, &str) {
    let b = path.as_bytes();
    let mut depth = 0i32;
    let mut at = None;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'{' | b'<' | b'[' | b'(' => depth += 1,
            b'}' | b'>' | b']' | b')' => depth -= 1,
            b':' if depth == 0 && b.get(i + 1) == Some(&b':') => {
                at = Some(i);
                i += 1;
            }
            _ => {}
        }
        i += 1;
    }
    match at {
        Some(i) => (&path[..i], &path[i + 2..]),
        None => ("", path),
    }
}

/// The text up to the `)` that closes the `DefId(` already consumed.
fn balanced_until_close(text: &str) -> Option<&str> {
    let mut depth = 0i32;
    for (i, c) in text.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' if depth == 0 => return Some(&text[..i]),
            ')' | ']' | '}' => depth -= 1,
            _ => {}
        }
    }
    None
}

/// `core[c1f1]::fmt::rt::{impl#0}::new` → `core::fmt::rt::{impl#0}::new`.
pub fn without_disambiguators(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    let mut rest = path;
    while let Some(open) = rest.find('[') {
        let close = rest[open..].find(']').map(|c| open + c);
        match close {
            Some(close)
                if close > open + 1
                    && rest[open + 1..close].bytes().all(|b| b.is_ascii_hexdigit()) =>
            {
                out.push_str(&rest[..open]);
                rest = &rest[close + 1..];
            }
            _ => {
                out.push_str(&rest[..=open]);
                rest = &rest[open + 1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// The name of an identifier as HIR prints it: `new#0` → `new`, `r#match#0` →
/// `match`.
pub fn ident_name(text: &str) -> Option<&str> {
    let (name, context) = text.trim().rsplit_once('#')?;
    if context.is_empty() || !context.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let name = name.strip_prefix("r#").unwrap_or(name);
    let word = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '$' || c == '\'');
    word.then_some(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "DefId(0:8 ~ fixture[fbb3]::util::{impl#0}::bump):
Thir {
    exprs: [
        Expr {
            kind: Call {
                ty: FnDef(
                    DefId(0:20 ~ fixture[fbb3]::util::helper),
                    [
                        Closure(
                            DefId(0:28 ~ fixture[fbb3]::run::{closure#0}),
                            [
                                i8,
                            ],
                        ),
                    ],
                ),
                fun: e10,
                args: [
                    e15,
                ],
                from_hir_call: true,
                fn_span: src/util.rs:11:9: 11:23 (#0),
            },
            ty: u32,
        },
    ],
}

DefId(0:9 ~ fixture[fbb3]::util::other):
Thir {
}
";

    #[test]
    fn blocks_start_at_each_def_id_and_nest_by_indentation() {
        let blocks = blocks(SAMPLE);
        assert_eq!(blocks.len(), 2);
        assert_eq!(
            Def::parse(blocks[0].header).unwrap().path,
            "fixture::util::{impl#0}::bump"
        );
        let tree = Tree::parse(blocks[0].body);
        let thir = tree.root().child(0).unwrap();
        assert_eq!(thir.head(), "Thir");
        let expr = thir.field("exprs").unwrap().child(0).unwrap();
        let call = expr.field("kind").unwrap();
        assert_eq!(call.head(), "Call");
        assert_eq!(call.leaf("fun"), Some("e10"));
        assert_eq!(call.leaf("from_hir_call"), Some("true"));
        let span = Span::parse(call.leaf("fn_span").unwrap()).unwrap();
        assert_eq!((span.lo.line, span.lo.col, span.hi.col), (11, 9, 23));
        assert!(span.root && span.in_package());
        let args = call.field("args").unwrap();
        assert_eq!(args.references(), vec![Ref::Expr(15)]);
        let generic = call
            .field("ty")
            .unwrap()
            .child(1)
            .unwrap()
            .child(0)
            .unwrap();
        assert_eq!(
            generic.inline(),
            "Closure(DefId(0:28 ~ fixture[fbb3]::run::{closure#0}), [i8])"
        );
    }

    #[test]
    fn spans_and_paths_read_as_printed() {
        let span =
            Span::parse("/rustc/5980/library/alloc/src/macros.rs:113:9: 115:11 (#4)").unwrap();
        assert!(!span.root && !span.in_package());
        assert_eq!(span.hi, LineCol { line: 115, col: 11 });
        let def = Def::parse("DefId(2:36056 ~ core[c1f1]::num::{impl#8}::wrapping_mul)").unwrap();
        assert_eq!(
            def.id,
            DefId {
                krate: 2,
                index: 36056
            }
        );
        assert_eq!(def.path, "core::num::{impl#8}::wrapping_mul");
        assert_eq!(def.parent_path(), "core::num::{impl#8}");
        assert_eq!(def.name(), "wrapping_mul");
        assert_eq!(last_segment("a::<B as c::D>::f"), "f");
        assert_eq!(ident_name("new#0"), Some("new"));
        assert_eq!(ident_name("r#match#12"), Some("match"));
        assert_eq!(ident_name("Generics {"), None);
    }
}
