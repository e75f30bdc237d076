//! One Kotlin file of the corpus as the kotlinc adapter reads it: its text, the map
//! from the compiler's offsets to bytes, and its syntax tree (tree-sitter-kotlin-ng,
//! the engine's grammar, linked here directly: the oracles crate does not link the
//! engine).
//!
//! The compiler's offsets count UTF-16 code units of the text with `\r\n` and a lone
//! `\r` read as one `\n`, after a leading byte-order mark. A call's name and a
//! declaration's name are found from those offsets by reading the tree — the node the
//! offsets span and its structure — never by scanning text.

use tree_sitter::{Node, Parser, Tree};

/// How many ancestors a lookup climbs from the node an offset range names before it
/// gives up (a declaration's name is a few levels above any node inside its header).
const MAX_CLIMB: usize = 8;

/// A name token of the tree: its text as the source writes the name (backticks
/// dropped), and its 1-based line and 1-based byte column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    pub text: String,
    pub line: u32,
    pub column: u32,
}

/// A parsed Kotlin file.
pub struct SourceFile {
    text: String,
    /// The byte offset of each UTF-16 unit of the compiler's text, and one past the end.
    byte_of_unit: Vec<u32>,
    /// The byte offset at which each line starts (lines end at `\n`, as the engine
    /// counts them).
    line_starts: Vec<usize>,
    tree: Tree,
}

impl SourceFile {
    /// Parses `text`; `None` when tree-sitter gives no tree (it always does for text).
    pub fn parse(text: String) -> Option<SourceFile> {
        let mut parser = Parser::new();
        parser
            .set_language(&tree_sitter_kotlin_ng::LANGUAGE.into())
            .ok()?;
        let tree = parser.parse(&text, None)?;
        let byte_of_unit = compiler_units(&text);
        let line_starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        Some(SourceFile {
            text,
            byte_of_unit,
            line_starts,
            tree,
        })
    }

    /// Whether the tree has syntax errors (the name lookups then fall back on the
    /// token at the offset).
    pub fn has_errors(&self) -> bool {
        self.tree.root_node().has_error()
    }

    /// The byte offset of the compiler's offset, when it lies in the text.
    pub fn byte(&self, offset: i64) -> Option<usize> {
        let unit = usize::try_from(offset).ok()?;
        self.byte_of_unit.get(unit).map(|b| *b as usize)
    }

    /// The 1-based line and byte column of a byte offset.
    pub fn line_column(&self, byte: usize) -> (u32, u32) {
        let line = self.line_starts.partition_point(|start| *start <= byte);
        let start = self.line_starts[line.saturating_sub(1)];
        (line as u32, (byte - start + 1) as u32)
    }

    /// The 1-based line of the compiler's offset.
    pub fn line_of(&self, offset: i64) -> Option<u32> {
        self.byte(offset).map(|b| self.line_column(b).0)
    }

    fn token(&self, node: Node<'_>) -> Token {
        let raw = &self.text[node.byte_range()];
        let (line, column) = self.line_column(node.start_byte());
        Token {
            text: raw.trim_matches('`').to_string(),
            line,
            column,
        }
    }

    /// The smallest node spanning the compiler's range `[start, end)`.
    fn node_spanning(&self, start: i64, end: i64) -> Option<Node<'_>> {
        let (s, e) = (self.byte(start)?, self.byte(end)?);
        if e < s {
            return None;
        }
        self.tree.root_node().descendant_for_byte_range(s, e)
    }

    /// The name a call, construction or property access at `[start, end)` writes: `b`
    /// of `a.b(…)` and of `a?.b(…)`, `T` of `T(…)` and `p.T(…)`, the operator name of an
    /// infix call, `p` of a property read. When the tree does not give a call there
    /// (syntax errors), the identifier at `start` is taken if it is `expected`.
    pub fn called_name(&self, start: i64, end: i64, expected: &str) -> Option<Token> {
        let node = self.node_spanning(start, end)?;
        let (s, e) = (self.byte(start)?, self.byte(end)?);
        let within = |n: &Node<'_>| n.start_byte() >= s && n.end_byte() <= e;
        if let Some(name) = written_name(node).filter(within) {
            return Some(self.token(name));
        }
        let leaf = self.tree.root_node().descendant_for_byte_range(s, s)?;
        let is_expected = leaf.kind() == "identifier" && self.token(leaf).text == expected;
        is_expected.then(|| self.token(leaf))
    }

    /// The name of the superclass a class, object or object literal at `[start, end)`
    /// calls the constructor of (`B` of `class A : B(1)`), when it writes one.
    pub fn supertype_call(&self, start: i64, end: i64) -> Option<Token> {
        let node = self.node_spanning(start, end)?;
        let class = climb(node, |n| CLASS_KINDS.contains(&n.kind()))?;
        let specifiers = named_children(class).find(|c| c.kind() == "delegation_specifiers")?;
        let invocation = named_children(specifiers)
            .filter(|s| s.kind() == "delegation_specifier")
            .flat_map(named_children)
            .find(|c| c.kind() == "constructor_invocation")?;
        let user_type = named_children(invocation).find(|c| c.kind() == "user_type")?;
        last_identifier(user_type).map(|n| self.token(n))
    }

    /// `this` or `super` of the constructor delegation call `this(…)` / `super(…)` at
    /// `[start, end)`.
    pub fn delegation_keyword(&self, start: i64, end: i64) -> Option<Token> {
        let node = self.node_spanning(start, end)?;
        if node.kind() != "constructor_delegation_call" {
            return None;
        }
        let keyword = node
            .child(0)
            .filter(|k| matches!(k.kind(), "this" | "super"))?;
        Some(self.token(keyword))
    }

    /// Whether `[start, end)` is the iterated expression of a `for` loop (the calls the
    /// loop makes on it have that range).
    pub fn is_for_iterable(&self, start: i64, end: i64) -> bool {
        let Some(node) = self.node_spanning(start, end) else {
            return false;
        };
        let Some(parent) = node.parent() else {
            return false;
        };
        parent.kind() == "for_statement"
            && named_children(parent).last().map(|b| b.id()) != Some(node.id())
    }

    /// The name token of the declaration at `[start, end)`: a function's or class's
    /// name, a property's, `constructor` for a secondary constructor, the `object`
    /// keyword of an object literal or an unnamed companion, the first token of a
    /// lambda. `expected` (the compiler's name, when it has one) must be what the token
    /// says, else there is no answer.
    pub fn declaration_name(&self, start: i64, end: i64, expected: Option<&str>) -> Option<Token> {
        let node = self.node_spanning(start, end)?;
        let (s, e) = (self.byte(start)?, self.byte(end)?);
        // The range may take in a comment before the declaration: its node is then a
        // child of the node spanning the range.
        // The grammar may end a declaration after the compiler does (an expression
        // body's trailing tokens), so a child is taken by where it starts.
        let inside = named_children(node).find(|c| {
            DECLARATION_KINDS.contains(&c.kind()) && c.start_byte() >= s && c.start_byte() < e
        });
        let declaration =
            inside.or_else(|| climb(node, |n| DECLARATION_KINDS.contains(&n.kind())))?;
        let name = declaration_name_node(declaration)?;
        let token = self.token(name);
        match expected {
            Some(x) if NAMED_KINDS.contains(&declaration.kind()) && token.text != x => None,
            _ => Some(token),
        }
    }
}

/// A declaration written for one side of a multiplatform build: `expect` (its own
/// modifier, or any member of an `expect` class) or `actual` (its own modifier).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlatformDeclaration {
    /// What an `expect` shares with its `actual`, read from the tree: the package,
    /// the enclosing classes, the kind, the name, the extension receiver as written
    /// and the parameter count.
    pub key: String,
    pub expect: bool,
    /// The name token (a target's name line is read from it).
    pub token: Token,
}

/// How deep the walk for platform declarations goes through nested classes.
const MAX_CLASS_NESTING: usize = 32;

impl SourceFile {
    /// Every `expect` and `actual` declaration of the file at the top level or in a
    /// class body (local declarations cannot be either).
    pub fn platform_declarations(&self) -> Vec<PlatformDeclaration> {
        let root = self.tree.root_node();
        let package = self.package();
        let mut out = Vec::new();
        self.platform_members(root, &package, false, 0, &mut out);
        out
    }

    /// The package the file's header names (`` for none), dotted.
    pub fn package(&self) -> String {
        let root = self.tree.root_node();
        named_children(root)
            .find(|c| c.kind() == "package_header")
            .and_then(|h| named_children(h).find(|c| c.kind() == "qualified_identifier"))
            .map(|q| {
                named_children(q)
                    .filter(|c| c.kind() == "identifier")
                    .map(|c| self.token(c).text)
                    .collect::<Vec<_>>()
                    .join(".")
            })
            .unwrap_or_default()
    }

    /// The platform declarations among the members of `holder` (a file, a class body);
    /// `owner` is the key prefix of the enclosing declarations.
    fn platform_members(
        &self,
        holder: Node<'_>,
        owner: &str,
        in_expect: bool,
        depth: usize,
        out: &mut Vec<PlatformDeclaration>,
    ) {
        if depth > MAX_CLASS_NESTING {
            return;
        }
        for member in member_declarations(holder) {
            let Some(name) = declaration_name_node(member) else {
                continue;
            };
            let token = self.token(name);
            let modifier = |word: &str| {
                named_children(member)
                    .filter(|c| c.kind() == "modifiers")
                    .flat_map(named_children)
                    .any(|m| m.kind() == "platform_modifier" && self.text_of(m) == word)
            };
            let expect = in_expect || modifier("expect");
            let key = format!("{owner}/{}:{}", self.shape_of(member), token.text);
            if expect || modifier("actual") {
                out.push(PlatformDeclaration {
                    key: key.clone(),
                    expect,
                    token,
                });
            }
            for body in named_children(member)
                .filter(|c| matches!(c.kind(), "class_body" | "enum_class_body"))
            {
                self.platform_members(body, &key, expect, depth + 1, out);
            }
        }
    }

    /// A declaration's kind with what tells overloads apart: a function's extension
    /// receiver as written and its parameter count, a constructor's parameter count.
    fn shape_of(&self, declaration: Node<'_>) -> String {
        let parameters = |d: Node<'_>| {
            named_children(d)
                .find(|c| c.kind() == "function_value_parameters")
                .map_or(0, |p| {
                    named_children(p)
                        .filter(|c| c.kind() == "parameter")
                        .count()
                })
        };
        match declaration.kind() {
            "function_declaration" => {
                let name_start = declaration
                    .child_by_field_name("name")
                    .map_or(0, |n| n.start_byte());
                let receiver: String = named_children(declaration)
                    .find(|c| c.end_byte() <= name_start && is_type_node(c.kind()))
                    .map(|r| self.text_of(r).split_whitespace().collect())
                    .unwrap_or_default();
                format!("fun({receiver})/{}", parameters(declaration))
            }
            "secondary_constructor" => format!("constructor/{}", parameters(declaration)),
            "property_declaration" => "property".into(),
            _ => "class".into(),
        }
    }

    fn text_of(&self, node: Node<'_>) -> &str {
        &self.text[node.byte_range()]
    }
}

/// What a declaration is, for placing a class file's method at it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlacedKind {
    Function,
    /// A secondary constructor (`constructor(…)`).
    Constructor,
    /// A class, interface, object or companion (its primary constructor too).
    Class,
}

/// A function, constructor or class of the file: where its name is written, the
/// lines it spans, and where it sits among the file's classes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placed {
    pub kind: PlacedKind,
    /// As the class file names it: a function's or class's name, `Companion` for an
    /// unnamed companion, `<init>` for a secondary constructor.
    pub name: String,
    /// The line of the name token (`constructor` for a secondary constructor).
    pub line: u32,
    /// The first and last line the declaration spans.
    pub first: u32,
    pub last: u32,
    /// Value parameters, an extension receiver counted as one.
    pub parameters: usize,
    /// The enclosing classes' names from the file's top level (empty for a
    /// top-level declaration); `None` inside a function body or an object literal.
    pub path: Option<Vec<String>>,
}

/// Node kinds whose body's members are not members of a class the file names.
const LOCAL_SCOPES: &[&str] = &[
    "function_declaration",
    "secondary_constructor",
    "object_literal",
    "lambda_literal",
    "anonymous_function",
    "getter",
    "setter",
    "anonymous_initializer",
    "property_declaration",
];

impl SourceFile {
    /// Every function, secondary constructor and class of the file, local ones
    /// included (their `path` is `None`), in tree order. Iterative: bounded by the
    /// tree's size, not its depth.
    pub fn placed_declarations(&self) -> Vec<Placed> {
        let mut out = Vec::new();
        let mut pending: Vec<(Node<'_>, Option<Vec<String>>)> =
            vec![(self.tree.root_node(), Some(Vec::new()))];
        while let Some((node, path)) = pending.pop() {
            let placed = self.placed(node, &path);
            let inner = match (&placed, &path) {
                (Some(p), Some(outer)) if p.kind == PlacedKind::Class => {
                    Some(outer.iter().cloned().chain([p.name.clone()]).collect())
                }
                _ if LOCAL_SCOPES.contains(&node.kind()) => None,
                _ => path.clone(),
            };
            out.extend(placed);
            let mut kids: Vec<Node<'_>> = named_children(node).collect();
            kids.reverse();
            pending.extend(kids.into_iter().map(|k| (k, inner.clone())));
        }
        out
    }

    /// `node` as a placed declaration, when it is one.
    fn placed(&self, node: Node<'_>, path: &Option<Vec<String>>) -> Option<Placed> {
        let kind = match node.kind() {
            "function_declaration" => PlacedKind::Function,
            "secondary_constructor" => PlacedKind::Constructor,
            "class_declaration" | "object_declaration" | "companion_object" => PlacedKind::Class,
            _ => return None,
        };
        let name_node = declaration_name_node(node)?;
        let token = self.token(name_node);
        let name = match (kind, node.kind()) {
            (PlacedKind::Constructor, _) => "<init>".to_string(),
            (_, "companion_object") if node.child_by_field_name("name").is_none() => {
                "Companion".to_string()
            }
            _ => token.text.clone(),
        };
        let parameters = named_children(node)
            .find(|c| c.kind() == "function_value_parameters")
            .map_or(0, |p| {
                named_children(p)
                    .filter(|c| c.kind() == "parameter")
                    .count()
            });
        let receiver = kind == PlacedKind::Function && {
            let name_start = name_node.start_byte();
            named_children(node).any(|c| c.end_byte() <= name_start && is_type_node(c.kind()))
        };
        Some(Placed {
            kind,
            name,
            line: token.line,
            first: node.start_position().row as u32 + 1,
            last: node.end_position().row as u32 + 1,
            parameters: parameters + usize::from(receiver),
            path: path.clone(),
        })
    }

    /// How many lines the text has (a line number past it is an inlined body's).
    pub fn line_count(&self) -> u32 {
        self.line_starts.len() as u32
    }
}

/// The declarations directly in a file or a class body (the grammar wraps a class
/// member in `class_member_declaration`, a top-level one in `statement`).
fn member_declarations<'t>(holder: Node<'t>) -> Vec<Node<'t>> {
    let mut found = Vec::new();
    for child in named_children(holder) {
        let unwrapped = match child.kind() {
            "class_member_declaration" | "statement" | "declaration" => {
                named_children(child).next().unwrap_or(child)
            }
            _ => child,
        };
        if PLATFORM_KINDS.contains(&unwrapped.kind()) {
            found.push(unwrapped);
        }
    }
    found
}

/// Declarations that can be `expect` or `actual`.
const PLATFORM_KINDS: &[&str] = &[
    "function_declaration",
    "class_declaration",
    "object_declaration",
    "companion_object",
    "secondary_constructor",
    "property_declaration",
];

/// Node kinds that write a type (an extension function's receiver).
fn is_type_node(kind: &str) -> bool {
    matches!(
        kind,
        "user_type" | "nullable_type" | "parenthesized_type" | "function_type" | "type"
    )
}

/// Declarations a name line is taken from.
const DECLARATION_KINDS: &[&str] = &[
    "function_declaration",
    "class_declaration",
    "object_declaration",
    "companion_object",
    "secondary_constructor",
    "property_declaration",
    "class_parameter",
    "enum_entry",
    "object_literal",
    "lambda_literal",
    "anonymous_function",
    "getter",
    "setter",
];

/// Declarations whose name token is the compiler's name for them.
const NAMED_KINDS: &[&str] = &[
    "function_declaration",
    "class_declaration",
    "object_declaration",
    "property_declaration",
    "class_parameter",
    "enum_entry",
];

/// Declarations that can call a superclass's constructor.
const CLASS_KINDS: &[&str] = &[
    "class_declaration",
    "object_declaration",
    "companion_object",
    "object_literal",
    "enum_entry",
];

fn named_children<'t>(node: Node<'t>) -> impl Iterator<Item = Node<'t>> {
    (0..node.named_child_count()).filter_map(move |i| node.named_child(i))
}

fn children<'t>(node: Node<'t>) -> impl Iterator<Item = Node<'t>> {
    (0..node.child_count()).filter_map(move |i| node.child(i))
}

/// `node` or the nearest of its ancestors that `wanted` accepts, at most
/// [`MAX_CLIMB`] levels up.
fn climb<'t>(node: Node<'t>, wanted: impl Fn(&Node<'t>) -> bool) -> Option<Node<'t>> {
    let mut current = Some(node);
    for _ in 0..=MAX_CLIMB {
        let n = current?;
        if wanted(&n) {
            return Some(n);
        }
        current = n.parent();
    }
    None
}

fn last_identifier(node: Node<'_>) -> Option<Node<'_>> {
    named_children(node)
        .filter(|c| c.kind() == "identifier")
        .last()
}

/// The token a call-like node names its callee by.
fn written_name(node: Node<'_>) -> Option<Node<'_>> {
    match node.kind() {
        "call_expression" => callee_name(node.named_child(0)?),
        "navigation_expression" => named_children(node)
            .last()
            .filter(|n| n.kind() == "identifier"),
        "infix_expression" => node.named_child(1).filter(|n| n.kind() == "identifier"),
        "identifier" => Some(node),
        "callable_reference" => last_identifier(node).or_else(|| {
            let user_type = named_children(node).find(|c| c.kind() == "user_type")?;
            last_identifier(user_type)
        }),
        _ => None,
    }
}

/// The name token of a call's callee expression: `f` of `f`, `b` of `a.b`; none for a
/// computed callee (`f()()`, `(g)()`).
fn callee_name(callee: Node<'_>) -> Option<Node<'_>> {
    match callee.kind() {
        "identifier" => Some(callee),
        "navigation_expression" => named_children(callee)
            .last()
            .filter(|n| n.kind() == "identifier"),
        _ => None,
    }
}

/// The token a declaration's name line is read from.
fn declaration_name_node(declaration: Node<'_>) -> Option<Node<'_>> {
    match declaration.kind() {
        "function_declaration" | "class_declaration" | "object_declaration" => {
            declaration.child_by_field_name("name")
        }
        "companion_object" => declaration
            .child_by_field_name("name")
            .or_else(|| children(declaration).find(|c| c.kind() == "object")),
        "secondary_constructor" => children(declaration).find(|c| c.kind() == "constructor"),
        "property_declaration" => {
            let variable = named_children(declaration).find(|c| {
                matches!(
                    c.kind(),
                    "variable_declaration" | "multi_variable_declaration"
                )
            })?;
            climb_down_to_identifier(variable)
        }
        "class_parameter" | "enum_entry" => {
            named_children(declaration).find(|c| c.kind() == "identifier")
        }
        "object_literal" => children(declaration).find(|c| c.kind() == "object"),
        "getter" | "setter" => declaration_name_node(declaration.parent()?),
        // A lambda or an anonymous function: its first token.
        _ => declaration.child(0),
    }
}

/// The first identifier of a variable declaration (`x` of `x: Int`, `a` of `(a, b)`).
fn climb_down_to_identifier(node: Node<'_>) -> Option<Node<'_>> {
    if node.kind() == "identifier" {
        return Some(node);
    }
    named_children(node).find_map(|c| {
        if c.kind() == "identifier" {
            Some(c)
        } else if c.kind() == "variable_declaration" {
            named_children(c).find(|g| g.kind() == "identifier")
        } else {
            None
        }
    })
}

/// The byte offset of every UTF-16 unit of the compiler's reading of `text`, and one
/// past the end: a leading byte-order mark is not read; `\r\n` and a lone `\r` are one
/// `\n` (unit at the `\r`); a character beyond the Basic Multilingual Plane is two
/// units at its first byte.
fn compiler_units(text: &str) -> Vec<u32> {
    let mut units = Vec::with_capacity(text.len() + 1);
    let body = text.strip_prefix('\u{feff}').unwrap_or(text);
    let skipped = text.len() - body.len();
    let mut chars = body.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let byte = (skipped + i) as u32;
        if c == '\r' {
            if let Some((_, '\n')) = chars.peek() {
                chars.next();
            }
            units.push(byte);
            continue;
        }
        for _ in 0..c.len_utf16() {
            units.push(byte);
        }
    }
    units.push(text.len() as u32);
    units
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(text: &str) -> SourceFile {
        SourceFile::parse(text.to_string()).unwrap()
    }

    /// The compiler's offset of the `n`th occurrence of `needle` (0-based) in the
    /// LF-normalised text.
    fn offset(text: &str, needle: &str, n: usize) -> i64 {
        let lf = text.replace("\r\n", "\n");
        let byte = lf.match_indices(needle).nth(n).unwrap().0;
        lf[..byte].encode_utf16().count() as i64
    }

    #[test]
    fn offsets_count_utf16_units_of_lf_text() {
        let text = "\u{feff}val a = \"é𝄞\"\r\nfun f() = g()\r\n";
        let f = file(text);
        // `f` of `fun f`: line 2 in both readings; the BOM, the CR and the wide
        // characters shift bytes, not the compiler's units.
        let at = offset(text.trim_start_matches('\u{feff}'), "f()", 0);
        let byte = f.byte(at).unwrap();
        assert_eq!(&text[byte..byte + 3], "f()");
        assert_eq!(f.line_column(byte), (2, 5));
        assert_eq!(f.line_of(at), Some(2));
        assert_eq!(f.byte(10_000), None);
        assert_eq!(f.byte(-1), None);
    }

    #[test]
    fn a_call_is_named_by_its_callee_token() {
        let text = "fun m() {\n    c.area()\n    listOf(1).map { it }\n    1 plusOne 2\n    Outer.Inner(3)\n}\n";
        let f = file(text);
        let at = |needle: &str| offset(text, needle, 0);
        // The compiler's range of a qualified call starts at the name.
        let area = f
            .called_name(at("area()"), at("area()") + 6, "area")
            .unwrap();
        assert_eq!((area.text.as_str(), area.line, area.column), ("area", 2, 7));
        let map = f.called_name(at("map"), at("map") + 12, "map").unwrap();
        assert_eq!((map.line, map.column), (3, 15));
        let infix = f
            .called_name(at("1 plusOne"), at("1 plusOne") + 11, "plusOne")
            .unwrap();
        assert_eq!((infix.text.as_str(), infix.column), ("plusOne", 7));
        let inner = f
            .called_name(at("Inner"), at("Inner") + 8, "Inner")
            .unwrap();
        assert_eq!((inner.text.as_str(), inner.column), ("Inner", 11));
        // An operator is no call the source names.
        let text = "fun m(a: Int) = a + 1\n";
        let g = file(text);
        assert_eq!(
            g.called_name(
                offset(text, "a + 1", 0),
                offset(text, "a + 1", 0) + 5,
                "plus"
            ),
            None
        );
    }

    #[test]
    fn a_supertype_call_and_constructor_delegation_are_found() {
        let text = "open class B(x: Int)\nclass A : B(1) {\n  constructor(s: String) : this()\n  constructor() : super(2)\n}\n";
        let f = file(text);
        let class_start = offset(text, "class A", 0);
        let class_end = text.len() as i64 - 1;
        let b = f.supertype_call(class_start, class_end).unwrap();
        assert_eq!((b.text.as_str(), b.line, b.column), ("B", 2, 11));
        let this = f
            .delegation_keyword(offset(text, "this()", 0), offset(text, "this()", 0) + 6)
            .unwrap();
        assert_eq!((this.text.as_str(), this.line), ("this", 3));
        let sup = f
            .delegation_keyword(offset(text, "super(2)", 0), offset(text, "super(2)", 0) + 8)
            .unwrap();
        assert_eq!(sup.text, "super");
        assert_eq!(f.supertype_call(0, offset(text, "\nclass A", 0)), None);
    }

    #[test]
    fn declarations_are_named_by_their_name_token() {
        let text = "/** doc */\n@Deprecated(\"x\")\nfun <T> T.shout(): T = this\nclass C {\n  companion object {\n    val k = 1\n  }\n  constructor()\n}\n";
        let f = file(text);
        let fun_start = offset(text, "@Deprecated", 0);
        let fun_end = offset(text, "\nclass C", 0);
        let name = f
            .declaration_name(fun_start, fun_end, Some("shout"))
            .unwrap();
        assert_eq!(
            (name.text.as_str(), name.line, name.column),
            ("shout", 3, 11)
        );
        // A range that takes in the comment before the declaration.
        assert_eq!(
            f.declaration_name(0, fun_end, Some("shout")).unwrap().line,
            3
        );
        assert_eq!(f.declaration_name(fun_start, fun_end, Some("other")), None);
        let companion = f
            .declaration_name(
                offset(text, "companion", 0),
                offset(text, "  }\n  constructor", 0) + 3,
                Some("Companion"),
            )
            .unwrap();
        assert_eq!((companion.text.as_str(), companion.line), ("object", 5));
        let k = f
            .declaration_name(
                offset(text, "val k", 0),
                offset(text, "val k", 0) + 9,
                Some("k"),
            )
            .unwrap();
        assert_eq!((k.line, k.column), (6, 9));
        let ctor = f
            .declaration_name(
                offset(text, "constructor()", 0),
                offset(text, "constructor()", 0) + 13,
                None,
            )
            .unwrap();
        assert_eq!((ctor.text.as_str(), ctor.line), ("constructor", 8));
    }

    #[test]
    fn a_for_loops_iterable_is_recognised() {
        let text = "fun m() { for (c in \"abc\") println(c) }\n";
        let f = file(text);
        let at = offset(text, "\"abc\"", 0);
        assert!(f.is_for_iterable(at, at + 5));
        let call = offset(text, "println", 0);
        assert!(!f.is_for_iterable(call, call + 10));
    }

    #[test]
    fn expect_and_actual_declarations_share_a_key() {
        let common = file(
            "package a.b\n\nexpect fun String.cp(i: Int): Int\nexpect fun cp(i: Int): Int\n\
             expect class Buf() {\n  fun size(): Long\n}\nfun plain() = 1\n",
        );
        let jvm = file(
            "package a.b\n\nactual fun String.cp(i: Int): Int = 1\n\
             actual fun cp(i: Int): Int = 2\nactual class Buf {\n  actual fun size(): Long = 0\n}\n",
        );
        let e = common.platform_declarations();
        let a = jvm.platform_declarations();
        let keys = |v: &[PlatformDeclaration]| v.iter().map(|p| p.key.clone()).collect::<Vec<_>>();
        assert!(e.iter().all(|p| p.expect) && a.iter().all(|p| !p.expect));
        assert_eq!(keys(&e), keys(&a));
        assert_eq!(
            keys(&e),
            [
                "a.b/fun(String)/1:cp",
                "a.b/fun()/1:cp",
                "a.b/class:Buf",
                "a.b/class:Buf/fun()/0:size"
            ]
        );
        // `size` inside the expect class is expect without writing it; `plain` is
        // neither.
        assert_eq!((e[3].token.text.as_str(), e[3].token.line), ("size", 6));
        assert_eq!((a[3].token.text.as_str(), a[3].token.line), ("size", 6));
    }
}
