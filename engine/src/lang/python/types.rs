//! Written annotations as structure (`TypeRef`). A string annotation
//! (`"t.Callable[[Context], R]"`, a forward reference) is parsed by tree-sitter
//! as the expression it spells and read like an unquoted one, never split as text.

use tree_sitter::Node;

use crate::facts::TypeRef;
use crate::lang::node_text;
use crate::lang::syntax::named_children;

/// String annotations nested deeper than this (a string inside a string …) are
/// unknown types.
const MAX_QUOTE_DEPTH: u32 = 2;

/// A string annotation longer than this is not parsed (an unknown type).
const MAX_QUOTED_BYTES: usize = 1024;

/// Annotations nested deeper than this (`A[A[…]]`, `A | A | …`, which the grammar
/// nests one level per operator) are cut: the part below is an unknown type and
/// the cut is counted as a parse error. No written annotation comes near it; the
/// bound is what keeps a hostile one from overflowing the worker's stack.
pub const MAX_TYPE_DEPTH: u32 = 256;

thread_local! {
    /// One parser per thread for string annotations: the frontend runs per file,
    /// in parallel, and a parser is cheap to reuse but not to make.
    static PARSER: std::cell::RefCell<Option<tree_sitter::Parser>> =
        const { std::cell::RefCell::new(None) };
}

/// Reads annotation nodes of one source: the file's own, or a string
/// annotation's parsed content.
pub struct TypeReader<'s> {
    src: &'s [u8],
    /// The class whose body the annotation is written in: `"C"` inside class C's
    /// methods is that class (`Self`).
    enclosing: Option<&'s str>,
    /// How many string annotations this source sits inside.
    quote_depth: u32,
    /// Subtrees cut at `MAX_TYPE_DEPTH` so far (the caller counts them as parse errors).
    cuts: std::cell::Cell<u32>,
}

impl<'s> TypeReader<'s> {
    pub fn new(src: &'s [u8], enclosing: Option<&'s str>) -> Self {
        TypeReader {
            src,
            enclosing,
            quote_depth: 0,
            cuts: std::cell::Cell::new(0),
        }
    }

    /// How many subtrees the reads so far cut at the depth bound.
    pub fn cuts(&self) -> u32 {
        self.cuts.get()
    }

    fn text(&self, node: Node) -> &'s str {
        node_text(self.src, node)
    }

    /// A written annotation as structure: `a.B[C]` → path [a, B] with one
    /// argument; `"C"` → what the string spells (the enclosing class's own name →
    /// self type); `Self` → self type; `T | None` / `Optional[T]` → T.
    pub fn read(&self, node: Node) -> TypeRef {
        self.read_at(node, 0)
    }

    /// `read` at `depth` levels below the annotation's top.
    fn read_at(&self, node: Node, depth: u32) -> TypeRef {
        if depth > MAX_TYPE_DEPTH {
            self.cuts.set(self.cuts.get() + 1);
            return TypeRef::simple("?");
        }
        let node = if node.kind() == "type" {
            node.named_child(0).unwrap_or(node)
        } else {
            node
        };
        match node.kind() {
            "identifier" => {
                let t = self.text(node);
                let forward_self = self.quote_depth > 0 && Some(t) == self.enclosing;
                if t == "Self" || forward_self {
                    TypeRef::self_type()
                } else {
                    TypeRef::simple(t)
                }
            }
            "attribute" => {
                let path = self.attribute_path(node).unwrap_or_default();
                if path.last().map(String::as_str) == Some("Self") {
                    return TypeRef::self_type();
                }
                TypeRef {
                    path,
                    args: Vec::new(),
                    is_self: false,
                    array: false,
                }
            }
            "string" => self.quoted(node, depth),
            "generic_type" | "subscript" => self.generic(node, depth),
            "binary_operator" | "union_type" => {
                let sides: Vec<TypeRef> = named_children(node)
                    .map(|s| self.read_at(s, depth + 1))
                    .filter(|t| t.last() != Some("None"))
                    .collect();
                match sides.as_slice() {
                    [one] => one.clone(),
                    _ => TypeRef::simple("?"),
                }
            }
            "none" => TypeRef::simple("None"),
            _ => TypeRef::simple("?"),
        }
    }

    /// `B[C, D]` → B with its arguments; `Optional[T]` → T.
    fn generic(&self, node: Node, depth: u32) -> TypeRef {
        let base = node
            .child_by_field_name("value")
            .or_else(|| node.named_child(0));
        let mut t = base
            .map(|b| self.read_at(b, depth + 1))
            .unwrap_or_else(|| TypeRef::simple("?"));
        let mut args = Vec::new();
        for a in named_children(node).skip(1) {
            if a.kind() == "type_parameter" {
                args.extend(named_children(a).map(|x| self.read_at(x, depth + 1)));
            } else {
                args.push(self.read_at(a, depth + 1));
            }
        }
        if t.last() == Some("Optional") && args.len() == 1 {
            return args.remove(0);
        }
        t.args = args;
        t
    }

    /// A string annotation: its content parsed as one expression and read as
    /// written; anything else (an f-string, several statements, a parse error)
    /// is an unknown type.
    fn quoted(&self, node: Node, depth: u32) -> TypeRef {
        let unknown = || TypeRef::simple("?");
        let Some(content) = plain_string(self.src, node) else {
            return unknown();
        };
        if self.quote_depth >= MAX_QUOTE_DEPTH || content.len() > MAX_QUOTED_BYTES {
            return unknown();
        }
        with_expression_statement(content.as_bytes(), |statement| {
            let inner = TypeReader {
                src: content.as_bytes(),
                enclosing: self.enclosing,
                quote_depth: self.quote_depth + 1,
                cuts: std::cell::Cell::new(0),
            };
            let read = inner.read_at(statement.named_child(0)?, depth + 1);
            self.cuts.set(self.cuts.get() + inner.cuts());
            Some(read)
        })
        .unwrap_or_else(unknown)
    }

    fn attribute_path(&self, node: Node) -> Option<Vec<String>> {
        attribute_path(self.src, node)
    }
}

/// `a.b.c` as its segments; `None` for anything but a name or attribute chain.
/// A loop, not a recursion: the grammar nests one level per dot, and a chain is as
/// long as the file lets it be.
pub fn attribute_path(src: &[u8], node: Node) -> Option<Vec<String>> {
    let mut reversed = Vec::new();
    let mut at = node;
    while at.kind() == "attribute" {
        reversed.push(node_text(src, at.child_by_field_name("attribute")?).to_string());
        at = at.child_by_field_name("object")?;
    }
    if at.kind() != "identifier" {
        return None;
    }
    reversed.push(node_text(src, at).to_string());
    reversed.reverse();
    Some(reversed)
}

/// A dotted name written in a string (`"pkg.mod.f"`), parsed as the expression
/// it spells: its segments, or `None` for anything but a name or attribute chain.
pub fn dotted_string(src: &[u8], node: Node) -> Option<Vec<String>> {
    let content = plain_string(src, node).filter(|c| c.len() <= MAX_QUOTED_BYTES)?;
    with_expression_statement(content.as_bytes(), |statement| {
        attribute_path(content.as_bytes(), statement.named_child(0)?)
    })
}

/// Code written in a string (an annotation, a dotted name, `eval`'s argument)
/// parsed as Python: `f` reads its one statement, when the code parses without
/// error as exactly one expression statement.
pub fn with_expression_statement<R>(code: &[u8], f: impl FnOnce(Node) -> Option<R>) -> Option<R> {
    let tree = parse(code)?;
    let root = tree.root_node();
    if root.has_error() {
        return None;
    }
    let statements: Vec<Node> = named_children(root).collect();
    match statements[..] {
        [statement] if statement.kind() == "expression_statement" => f(statement),
        _ => None,
    }
}

/// A string literal's content when it has no interpolation or escape.
pub fn plain_string(src: &[u8], node: Node) -> Option<String> {
    let mut out = String::new();
    for c in named_children(node) {
        match c.kind() {
            "string_content" => out.push_str(node_text(src, c)),
            "string_start" | "string_end" => {}
            _ => return None,
        }
    }
    Some(out)
}

fn parse(code: &[u8]) -> Option<tree_sitter::Tree> {
    PARSER.with(|slot| {
        let mut slot = slot.borrow_mut();
        if slot.is_none() {
            let mut parser = tree_sitter::Parser::new();
            parser
                .set_language(&tree_sitter_python::LANGUAGE.into())
                .ok()?;
            *slot = Some(parser);
        }
        slot.as_mut()?.parse(code, None)
    })
}
