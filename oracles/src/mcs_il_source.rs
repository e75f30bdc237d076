//! What the `mcs-il` reading takes from the source, through tree-sitter-c-sharp (not
//! mcs's parser, which the mcs oracle uses): where each type and method is declared,
//! under the key the metadata gives it (IL full name of the type, IL method name,
//! generic arity, parameters), and what is written at a sequence point (the name token
//! of a call, the type after `new`, `base`/`this`).

use std::collections::{BTreeSet, HashMap};

use tree_sitter::{Node, Parser, Point, Tree};

/// The deepest syntax nesting walked (a bound on the recursion).
const MAX_DEPTH: usize = 512;

/// A declaration's place: file and the line of its name.
pub type Place = (String, u32);

/// One method (or constructor, destructor, operator) declaration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MethodDecl {
    pub place: Place,
    /// The interface an explicit implementation names (`IFoo.M`): such a method's IL
    /// name is qualified.
    pub explicit: bool,
    pub generic_arity: u32,
    /// Each parameter's type key ([`type_key`] of the written type).
    pub params: Vec<String>,
    pub partial: bool,
}

/// Every declaration of the tree, by IL key.
#[derive(Debug, Default)]
pub struct Declarations {
    /// IL full name (`Ns.Outer`1/Inner`) → every declaration of it (a partial class
    /// has several).
    pub types: HashMap<String, Vec<Place>>,
    /// (type IL full name, IL method name) → declarations.
    pub methods: HashMap<(String, String), Vec<MethodDecl>>,
}

/// A parsed source file.
pub struct SourceFile {
    pub text: String,
    tree: Tree,
    line_starts: Vec<usize>,
}

impl SourceFile {
    /// Parses a file as the build compiles it: the `#if` regions the defines leave out
    /// and every directive line become spaces (lines and columns unchanged), so that a
    /// base list or member split by `#if` parses as the compiler sees it.
    pub fn parse(bytes: &[u8], defines: &[String]) -> Option<SourceFile> {
        let text = preprocessed(&String::from_utf8_lossy(bytes), defines);
        let mut parser = Parser::new();
        parser
            .set_language(&tree_sitter_c_sharp::LANGUAGE.into())
            .ok()?;
        let tree = parser.parse(&text, None)?;
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Some(SourceFile {
            text,
            tree,
            line_starts,
        })
    }

    /// The 1-based byte column of a 1-based UTF-16 column (a tab is one column, as
    /// mcs counts), or `None` past the line's end.
    pub fn byte_column(&self, line: u32, utf16_column: u32) -> Option<u32> {
        let start = *self.line_starts.get(line.checked_sub(1)? as usize)?;
        let end = self
            .line_starts
            .get(line as usize)
            .map_or(self.text.len(), |&e| e);
        let text = &self.text[start..end];
        let mut units = 0u32;
        for (i, c) in text.char_indices() {
            if units + 1 >= utf16_column {
                return Some(i as u32 + 1);
            }
            if c == '\n' {
                return None;
            }
            units += c.len_utf16() as u32;
        }
        None
    }

    /// What is written at a point (1-based line, 1-based byte column).
    pub fn written_at(&self, line: u32, column: u32) -> Written {
        let point = Point::new(line as usize - 1, column as usize - 1);
        let Some(node) = self
            .tree
            .root_node()
            .descendant_for_point_range(point, point)
        else {
            return Written::Other;
        };
        if node.start_position() != point {
            return Written::Other;
        }
        match node.kind() {
            "identifier" => Written::Name(self.text_of(node).to_string()),
            "base" | "this" => Written::Keyword(node.kind().to_string()),
            "new" => match node.parent() {
                Some(p) if p.kind() == "object_creation_expression" => p
                    .child_by_field_name("type")
                    .and_then(|t| self.last_name(t, 0))
                    .map_or(Written::Other, |(name, at)| Written::New {
                        name,
                        line: at.row as u32 + 1,
                        column: at.column as u32 + 1,
                    }),
                _ => Written::Other,
            },
            kind => Written::Token(kind.to_string()),
        }
    }

    /// The last simple name of a written type (`global::A.B<C>` → `B`) and where.
    fn last_name(&self, node: Node<'_>, depth: usize) -> Option<(String, Point)> {
        if depth > MAX_DEPTH {
            return None;
        }
        match node.kind() {
            "identifier" => Some((self.text_of(node).to_string(), node.start_position())),
            "predefined_type" => Some((self.text_of(node).to_string(), node.start_position())),
            "qualified_name" | "alias_qualified_name" => {
                self.last_name(node.child_by_field_name("name")?, depth + 1)
            }
            "generic_name" => {
                let mut cursor = node.walk();
                let id = node
                    .named_children(&mut cursor)
                    .find(|c| c.kind() == "identifier")?;
                self.last_name(id, depth + 1)
            }
            "nullable_type" => Some(("Nullable".into(), node.start_position())),
            _ => None,
        }
    }

    fn text_of(&self, node: Node<'_>) -> &str {
        &self.text[node.byte_range()]
    }
}

/// The deepest `#if` nesting and expression nesting evaluated.
const MAX_PREPROCESSOR_DEPTH: usize = 64;

/// The text with inactive `#if` regions and directive lines blanked.
pub fn preprocessed(text: &str, defines: &[String]) -> String {
    let mut symbols: BTreeSet<String> = defines.iter().cloned().collect();
    // Per open `#if`: (this branch active, some branch taken, enclosing active).
    let mut stack: Vec<(bool, bool, bool)> = Vec::new();
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_start();
        let active = stack.last().is_none_or(|&(a, _, _)| a);
        if let Some(directive) = trimmed.strip_prefix('#') {
            let directive = directive.trim_start();
            let word: String = directive
                .chars()
                .take_while(|c| c.is_ascii_alphabetic())
                .collect();
            let rest = directive[word.len()..]
                .split("//")
                .next()
                .unwrap_or("")
                .trim();
            match word.as_str() {
                "if" => {
                    let on = active && evaluate(rest, &symbols);
                    if stack.len() < MAX_PREPROCESSOR_DEPTH {
                        stack.push((on, on, active));
                    }
                }
                "elif" => {
                    if let Some(top) = stack.last_mut() {
                        let on = top.2 && !top.1 && evaluate(rest, &symbols);
                        *top = (on, top.1 || on, top.2);
                    }
                }
                "else" => {
                    if let Some(top) = stack.last_mut() {
                        let on = top.2 && !top.1;
                        *top = (on, true, top.2);
                    }
                }
                "endif" => {
                    stack.pop();
                }
                "define" if active => {
                    symbols.insert(rest.to_string());
                }
                "undef" if active => {
                    symbols.remove(rest);
                }
                _ => {}
            }
            out.push_str(&blank(line));
        } else if active {
            out.push_str(line);
        } else {
            out.push_str(&blank(line));
        }
    }
    out
}

/// A line as spaces of the same byte length, its line break kept.
fn blank(line: &str) -> String {
    line.bytes()
        .map(|b| {
            if b == b'\n' || b == b'\r' {
                b as char
            } else {
                ' '
            }
        })
        .collect()
}

/// A `#if` expression: symbols, `true`/`false`, `!`, `&&`, `||`, `==`, `!=`, parentheses.
fn evaluate(expression: &str, symbols: &BTreeSet<String>) -> bool {
    let mut tokens = Vec::new();
    let chars: Vec<char> = expression.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
        } else if c.is_alphanumeric() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            tokens.push(chars[start..i].iter().collect::<String>());
        } else {
            let two: String = chars[i..(i + 2).min(chars.len())].iter().collect();
            if matches!(two.as_str(), "&&" | "||" | "==" | "!=") {
                tokens.push(two);
                i += 2;
            } else {
                tokens.push(c.to_string());
                i += 1;
            }
        }
    }
    let mut parser = Condition {
        tokens: &tokens,
        at: 0,
        symbols,
    };
    parser.or(0)
}

struct Condition<'a> {
    tokens: &'a [String],
    at: usize,
    symbols: &'a BTreeSet<String>,
}

impl Condition<'_> {
    fn peek(&self) -> Option<&str> {
        self.tokens.get(self.at).map(String::as_str)
    }

    fn or(&mut self, depth: usize) -> bool {
        let mut value = self.and(depth);
        while self.peek() == Some("||") {
            self.at += 1;
            value |= self.and(depth);
        }
        value
    }

    fn and(&mut self, depth: usize) -> bool {
        let mut value = self.equality(depth);
        while self.peek() == Some("&&") {
            self.at += 1;
            value &= self.equality(depth);
        }
        value
    }

    fn equality(&mut self, depth: usize) -> bool {
        let mut value = self.unary(depth);
        while let Some(op) = self.peek().filter(|t| matches!(*t, "==" | "!=")) {
            let equal = op == "==";
            self.at += 1;
            let other = self.unary(depth);
            value = (value == other) == equal;
        }
        value
    }

    fn unary(&mut self, depth: usize) -> bool {
        if depth > MAX_PREPROCESSOR_DEPTH {
            return false;
        }
        match self.peek() {
            Some("!") => {
                self.at += 1;
                !self.unary(depth + 1)
            }
            Some("(") => {
                self.at += 1;
                let value = self.or(depth + 1);
                if self.peek() == Some(")") {
                    self.at += 1;
                }
                value
            }
            Some("true") => {
                self.at += 1;
                true
            }
            Some("false") => {
                self.at += 1;
                false
            }
            Some(symbol) => {
                let on = self.symbols.contains(symbol);
                self.at += 1;
                on
            }
            None => false,
        }
    }
}

/// What a sequence point shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Written {
    /// An identifier: a call's method name, a property, a delegate variable.
    Name(String),
    /// `base` or `this` (a constructor initialiser).
    Keyword(String),
    /// `new T(…)`: T's last simple name, at its position.
    New {
        name: String,
        line: u32,
        column: u32,
    },
    /// Another token (`foreach`, `$"`, `(`), by its kind.
    Token(String),
    Other,
}

/// A C# keyword type's System name.
pub fn keyword_type(keyword: &str) -> Option<&'static str> {
    Some(match keyword {
        "bool" => "Boolean",
        "byte" => "Byte",
        "sbyte" => "SByte",
        "char" => "Char",
        "decimal" => "Decimal",
        "double" => "Double",
        "float" => "Single",
        "int" => "Int32",
        "uint" => "UInt32",
        "long" => "Int64",
        "ulong" => "UInt64",
        "short" => "Int16",
        "ushort" => "UInt16",
        "object" | "dynamic" => "Object",
        "string" => "String",
        "void" => "Void",
        _ => return None,
    })
}

/// An IL type's key, comparable with [`SourceFile`]'s parameter keys: the simple name
/// without namespace, nesting or arity, `<n>` for n generic arguments, `!` for a type
/// parameter, `[]`/`*` suffixes and a `&` prefix kept.
pub fn il_type_key(il: &str) -> String {
    let (byref, rest) = match il.strip_prefix('&') {
        Some(r) => ("&", r),
        None => ("", il),
    };
    format!("{byref}{}", il_key(rest))
}

fn il_key(il: &str) -> String {
    if let Some(e) = il.strip_suffix("[]") {
        return format!("{}[]", il_key(e));
    }
    if let Some(e) = il.strip_suffix('*') {
        return format!("{}*", il_key(e));
    }
    if il.ends_with(']') {
        if let Some(open) = il.rfind('[') {
            return format!("{}{}", il_key(&il[..open]), &il[open..]);
        }
    }
    if il.starts_with('!') {
        return "!".into();
    }
    let (base, args) = match il.find('<') {
        Some(i) => (&il[..i], Some(&il[i + 1..il.len() - 1])),
        None => (il, None),
    };
    let simple = base.rsplit(['.', '/']).next().unwrap_or(base);
    let simple = simple.split('`').next().unwrap_or(simple);
    match args {
        Some(a) => format!("{simple}<{}>", top_level_commas(a) + 1),
        None => simple.to_string(),
    }
}

fn top_level_commas(s: &str) -> usize {
    let mut depth = 0i32;
    let mut n = 0;
    for c in s.chars() {
        match c {
            '<' | '[' => depth += 1,
            '>' | ']' => depth -= 1,
            ',' if depth == 0 => n += 1,
            _ => {}
        }
    }
    n
}

/// Collects every declaration of one file.
pub fn collect(file: &str, source: &SourceFile, into: &mut Declarations) {
    let walker = Walker { file, source };
    walker.members(source.tree.root_node(), "", &[], &[], into, 0);
}

struct Walker<'a> {
    file: &'a str,
    source: &'a SourceFile,
}

/// A type declaration's node kinds.
fn is_type_declaration(kind: &str) -> bool {
    matches!(
        kind,
        "class_declaration"
            | "struct_declaration"
            | "interface_declaration"
            | "enum_declaration"
            | "record_declaration"
            | "delegate_declaration"
    )
}

impl Walker<'_> {
    /// Walks the members of a namespace, compilation unit or type body. `namespace` is
    /// the enclosing namespace, `outer` the enclosing types' IL names (innermost last),
    /// `type_params` every enclosing type's type parameter names.
    fn members(
        &self,
        node: Node<'_>,
        namespace: &str,
        outer: &[String],
        type_params: &[String],
        into: &mut Declarations,
        depth: usize,
    ) {
        if depth > MAX_DEPTH {
            return;
        }
        let mut cursor = node.walk();
        for child in node.named_children(&mut cursor) {
            let kind = child.kind();
            if kind == "namespace_declaration" {
                let name = self.dotted(child.child_by_field_name("name"));
                let inner = join(namespace, &name);
                if let Some(body) = child.child_by_field_name("body") {
                    self.members(body, &inner, outer, type_params, into, depth + 1);
                }
            } else if kind == "file_scoped_namespace_declaration" {
                // Its members are its following siblings in the compilation unit, or
                // its own children, depending on the grammar version: both walked.
                let name = self.dotted(child.child_by_field_name("name"));
                let inner = join(namespace, &name);
                self.members(child, &inner, outer, type_params, into, depth + 1);
            } else if is_type_declaration(kind) {
                self.type_declaration(child, namespace, outer, type_params, into, depth);
            } else if kind.starts_with("preproc") || kind == "declaration_list" {
                // `#if` regions: both branches are in the tree, and both walked.
                self.members(child, namespace, outer, type_params, into, depth + 1);
            } else if let Some(owner) = outer.last() {
                self.method(child, owner, type_params, into);
            }
        }
    }

    fn type_declaration(
        &self,
        node: Node<'_>,
        namespace: &str,
        outer: &[String],
        type_params: &[String],
        into: &mut Declarations,
        depth: usize,
    ) {
        let Some(name_node) = node.child_by_field_name("name") else {
            return;
        };
        let own = self.type_parameters(node);
        let mut name = self.source.text_of(name_node).to_string();
        if !own.is_empty() {
            name = format!("{name}`{}", own.len());
        }
        let full = match outer.last() {
            Some(o) => format!("{o}/{name}"),
            None => join(namespace, &name),
        };
        into.types
            .entry(full.clone())
            .or_default()
            .push(self.place(name_node));
        let mut inner_outer = outer.to_vec();
        inner_outer.push(full);
        let mut inner_params = type_params.to_vec();
        inner_params.extend(own);
        if let Some(body) = node.child_by_field_name("body") {
            self.members(
                body,
                namespace,
                &inner_outer,
                &inner_params,
                into,
                depth + 1,
            );
        }
    }

    fn type_parameters(&self, node: Node<'_>) -> Vec<String> {
        let mut cursor = node.walk();
        let list = node.child_by_field_name("type_parameters").or_else(|| {
            node.named_children(&mut cursor)
                .find(|c| c.kind() == "type_parameter_list")
        });
        let Some(list) = list else {
            return Vec::new();
        };
        let mut cursor = list.walk();
        list.named_children(&mut cursor)
            .filter(|c| c.kind() == "type_parameter")
            .filter_map(|c| {
                let mut k = c.walk();
                let id = c
                    .child_by_field_name("name")
                    .or_else(|| c.named_children(&mut k).find(|n| n.kind() == "identifier"));
                id.map(|n| self.source.text_of(n).to_string())
            })
            .collect()
    }

    /// A method-like member: its IL name, name position and parameters.
    fn method(&self, node: Node<'_>, owner: &str, type_params: &[String], into: &mut Declarations) {
        let modifiers = self.modifiers(node);
        let (il_name, at) = match node.kind() {
            "method_declaration" => {
                let Some(n) = node.child_by_field_name("name") else {
                    return;
                };
                (self.source.text_of(n).to_string(), n)
            }
            "constructor_declaration" => {
                let Some(n) = node.child_by_field_name("name") else {
                    return;
                };
                let name = if modifiers.iter().any(|m| m == "static") {
                    ".cctor"
                } else {
                    ".ctor"
                };
                (name.to_string(), n)
            }
            "destructor_declaration" => {
                let Some(n) = node.child_by_field_name("name") else {
                    return;
                };
                ("Finalize".to_string(), n)
            }
            "operator_declaration" => {
                let Some(op) = node.child_by_field_name("operator") else {
                    return;
                };
                let unary = self.parameters(node, type_params).len() == 1;
                let Some(name) = operator_il_name(op.kind(), unary) else {
                    return;
                };
                (name.to_string(), op)
            }
            "conversion_operator_declaration" => {
                let mut cursor = node.walk();
                let Some(kw) = node
                    .children(&mut cursor)
                    .find(|c| matches!(c.kind(), "implicit" | "explicit"))
                else {
                    return;
                };
                let name = if kw.kind() == "implicit" {
                    "op_Implicit"
                } else {
                    "op_Explicit"
                };
                (name.to_string(), kw)
            }
            _ => return,
        };
        let mut cursor = node.walk();
        let explicit = node
            .named_children(&mut cursor)
            .any(|c| c.kind() == "explicit_interface_specifier");
        let own = self.type_parameters(node);
        let mut in_scope = type_params.to_vec();
        in_scope.extend(own.iter().cloned());
        let decl = MethodDecl {
            place: self.place(at),
            explicit,
            generic_arity: own.len() as u32,
            params: self.parameters(node, &in_scope),
            partial: modifiers.iter().any(|m| m == "partial"),
        };
        into.methods
            .entry((owner.to_string(), il_name))
            .or_default()
            .push(decl);
    }

    fn modifiers(&self, node: Node<'_>) -> Vec<String> {
        let mut cursor = node.walk();
        node.named_children(&mut cursor)
            .filter(|c| c.kind() == "modifier")
            .map(|c| self.source.text_of(c).trim().to_string())
            .collect()
    }

    fn parameters(&self, node: Node<'_>, type_params: &[String]) -> Vec<String> {
        let Some(list) = node.child_by_field_name("parameters") else {
            return Vec::new();
        };
        let mut cursor = list.walk();
        let mut keys: Vec<String> = list
            .named_children(&mut cursor)
            .filter(|c| c.kind() == "parameter")
            .map(|p| {
                let mut k = p.walk();
                let byref = p.children(&mut k).any(|m| {
                    matches!(m.kind(), "modifier" | "parameter_modifier")
                        && matches!(self.source.text_of(m).trim(), "ref" | "out" | "in")
                });
                let key = p
                    .child_by_field_name("type")
                    .map_or("?".to_string(), |t| self.type_key(t, type_params, 0));
                if byref {
                    format!("&{key}")
                } else {
                    key
                }
            })
            .collect();
        // A `params T[] x` array is the list's own type and name fields, last.
        if list.child_by_field_name("name").is_some() {
            let key = list
                .child_by_field_name("type")
                .map_or("?".to_string(), |t| self.type_key(t, type_params, 0));
            keys.push(key);
        }
        keys
    }

    /// A written type's key (see [`il_type_key`]).
    fn type_key(&self, node: Node<'_>, type_params: &[String], depth: usize) -> String {
        if depth > MAX_DEPTH {
            return "?".into();
        }
        let text = self.source.text_of(node);
        match node.kind() {
            "predefined_type" => keyword_type(text.trim()).unwrap_or("?").to_string(),
            "identifier" if type_params.iter().any(|t| t == text) => "!".into(),
            "identifier" => text.to_string(),
            "qualified_name" | "alias_qualified_name" => node
                .child_by_field_name("name")
                .map_or("?".into(), |n| self.type_key(n, type_params, depth + 1)),
            "generic_name" => {
                let mut cursor = node.walk();
                let children: Vec<Node<'_>> = node.named_children(&mut cursor).collect();
                let name = children
                    .iter()
                    .find(|c| c.kind() == "identifier")
                    .map_or("?", |n| self.source.text_of(*n));
                let args = children
                    .iter()
                    .find(|c| c.kind() == "type_argument_list")
                    .map_or(0, |l| l.named_child_count());
                format!("{name}<{args}>")
            }
            "nullable_type" => "Nullable<1>".into(),
            "array_type" => {
                let element = node
                    .child_by_field_name("type")
                    .map_or("?".into(), |t| self.type_key(t, type_params, depth + 1));
                let rank = node
                    .child_by_field_name("rank")
                    .map_or(0, |r| self.source.text_of(r).matches(',').count());
                format!("{element}[{}]", ",".repeat(rank))
            }
            "pointer_type" => {
                let element = node
                    .child_by_field_name("type")
                    .map_or("?".into(), |t| self.type_key(t, type_params, depth + 1));
                format!("{element}*")
            }
            "tuple_type" => format!("ValueTuple<{}>", node.named_child_count()),
            _ => "?".into(),
        }
    }

    /// A namespace name's identifiers joined by dots.
    fn dotted(&self, node: Option<Node<'_>>) -> String {
        let Some(node) = node else {
            return String::new();
        };
        let mut parts = Vec::new();
        let mut stack = vec![node];
        while let Some(n) = stack.pop() {
            if n.kind() == "identifier" {
                parts.push((n.start_byte(), self.source.text_of(n).to_string()));
            } else {
                let mut cursor = n.walk();
                stack.extend(n.named_children(&mut cursor));
            }
        }
        parts.sort();
        parts
            .into_iter()
            .map(|(_, p)| p)
            .collect::<Vec<_>>()
            .join(".")
    }

    fn place(&self, node: Node<'_>) -> Place {
        (self.file.to_string(), node.start_position().row as u32 + 1)
    }
}

fn join(namespace: &str, name: &str) -> String {
    if namespace.is_empty() {
        name.to_string()
    } else if name.is_empty() {
        namespace.to_string()
    } else {
        format!("{namespace}.{name}")
    }
}

/// An operator declaration's IL name (II.10.3).
fn operator_il_name(token: &str, unary: bool) -> Option<&'static str> {
    Some(match (token, unary) {
        ("+", true) => "op_UnaryPlus",
        ("-", true) => "op_UnaryNegation",
        ("+", false) => "op_Addition",
        ("-", false) => "op_Subtraction",
        ("*", _) => "op_Multiply",
        ("/", _) => "op_Division",
        ("%", _) => "op_Modulus",
        ("&", _) => "op_BitwiseAnd",
        ("|", _) => "op_BitwiseOr",
        ("^", _) => "op_ExclusiveOr",
        ("<<", _) => "op_LeftShift",
        (">>", _) => "op_RightShift",
        ("==", _) => "op_Equality",
        ("!=", _) => "op_Inequality",
        (">", _) => "op_GreaterThan",
        ("<", _) => "op_LessThan",
        (">=", _) => "op_GreaterThanOrEqual",
        ("<=", _) => "op_LessThanOrEqual",
        ("!", _) => "op_LogicalNot",
        ("~", _) => "op_OnesComplement",
        ("++", _) => "op_Increment",
        ("--", _) => "op_Decrement",
        ("true", _) => "op_True",
        ("false", _) => "op_False",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "namespace A.B {\n  class C<T> {\n    class D { D(int x) {} }\n    void M(ref int a, T b, System.Collections.Generic.List<string>[] c, params object[] d) {}\n    static C() {}\n    public static C<T> operator -(C<T> x) => x;\n  }\n}\n";

    #[test]
    fn inactive_regions_and_directives_become_spaces() {
        let text = "class A : B\n#if !(X || Y)\n  , C\n#elif X\n  , D\n#else\n  , E\n#endif\n{}\n";
        let out = preprocessed(text, &["X".to_string()]);
        assert_eq!(out.len(), text.len());
        assert_eq!(
            out.lines()
                .filter(|l| !l.trim().is_empty())
                .collect::<Vec<_>>(),
            vec!["class A : B", "  , D", "{}"]
        );
        let none = preprocessed(text, &[]);
        assert!(none.contains(", C") && !none.contains(", D") && !none.contains(", E"));
        assert!(evaluate("A == false", &BTreeSet::new()));
    }

    #[test]
    fn declarations_are_keyed_as_the_metadata_names_them() {
        let source = SourceFile::parse(TEXT.as_bytes(), &[]).unwrap();
        let mut d = Declarations::default();
        collect("a.cs", &source, &mut d);
        assert_eq!(d.types["A.B.C`1"], vec![("a.cs".to_string(), 2)]);
        assert_eq!(d.types["A.B.C`1/D"], vec![("a.cs".to_string(), 3)]);
        let m = &d.methods[&("A.B.C`1".to_string(), "M".to_string())][0];
        assert_eq!(m.params, vec!["&Int32", "!", "List<1>[]", "Object[]"]);
        assert_eq!(m.place.1, 4);
        assert!(d
            .methods
            .contains_key(&("A.B.C`1".to_string(), ".cctor".to_string())));
        assert!(d
            .methods
            .contains_key(&("A.B.C`1/D".to_string(), ".ctor".to_string())));
        assert!(d
            .methods
            .contains_key(&("A.B.C`1".to_string(), "op_UnaryNegation".to_string())));
        assert_eq!(
            il_type_key("System.Collections.Generic.List`1<System.String>[]"),
            "List<1>[]"
        );
        assert_eq!(il_type_key("&System.Int32"), "&Int32");
        assert_eq!(il_type_key("!!0"), "!");
        assert_eq!(
            il_type_key("!0[]"),
            "![]",
            "an array of a type parameter is an array"
        );
    }

    #[test]
    fn utf16_columns_become_byte_columns_and_points_show_what_is_written() {
        let source = SourceFile::parse(
            "class é { void M() {\n\t\tx.Foo(new global::N.Bar<int>()); } }".as_bytes(),
            &[],
        )
        .unwrap();
        // `é` is one UTF-16 unit and two bytes.
        assert_eq!(source.byte_column(1, 7), Some(7));
        assert_eq!(source.byte_column(1, 8), Some(9));
        assert_eq!(source.byte_column(2, 5), Some(5));
        assert_eq!(source.written_at(2, 5), Written::Name("Foo".into()));
        assert_eq!(
            source.written_at(2, 9),
            Written::New {
                name: "Bar".into(),
                line: 2,
                column: 23
            }
        );
    }
}
