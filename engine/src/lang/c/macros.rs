//! The tree's macros, read once before any C/C++ file is parsed (a lexical
//! pre-pass over the preprocessor lines, the only place a macro's meaning is
//! written), and the masking pass that blanks visibility/attribute macros byte for
//! byte so the grammar sees the declaration the compiler sees and every position
//! still points where it did.
//!
//! The rule (lang/c/README.md has the measurements):
//! - a name is *masked* when every `#define NAME …` in the tree has an empty or
//!   attribute-like body: only `__attribute__((…))`, `__declspec(…)`, `[[…]]`,
//!   specifier keywords (`inline`, `constexpr`, `noexcept`, `static`, `extern`,
//!   `export`, …) or other masked names (`LEVELDB_EXPORT`, `FMT_API`,
//!   `FMT_CONSTEXPR`, `FMT_INLINE`); a function-like macro with such a body is
//!   masked with its parenthesised arguments;
//! - an all-caps identifier standing between `class`/`struct`/`union` and the
//!   type's name (`class LEVELDB_EXPORT DB`) is masked wherever it is defined.
//!
//! Function-like macro names are kept too: `FOO(x)` where the tree defines
//! `#define FOO(…)` is a macro invocation, never a call site.

use crate::fasthash::FastSet;

#[derive(Default, Debug)]
pub struct Macros {
    /// Object-like names every definition of which is empty or attribute-like.
    masked: FastSet<String>,
    /// Function-like macros with an attribute-like body: masked with their arguments.
    masked_calls: FastSet<String>,
    /// Every function-like macro the tree defines.
    function_like: FastSet<String>,
    /// All-caps object-like macro names (for `class NAME X`).
    all_caps_defined: FastSet<String>,
    /// Class, struct and union names the tree defines with a body (`class T {`,
    /// `struct T : B {`): `T x;` constructs only a class (lang/c/frontend.rs).
    class_names: FastSet<String>,
    /// Operator spellings some declaration of the tree overloads (`operator==`).
    operators: FastSet<String>,
    /// Namespace macros (`FMT_BEGIN_NAMESPACE` = `namespace fmt { inline namespace
    /// v9 {`, `FMT_END_NAMESPACE` = `} }`): written in place, in the bytes of the
    /// name, as their non-inline namespaces (inline namespaces are transparent to
    /// lookup), so the declarations between them keep their namespace.
    expansions: crate::fasthash::FastMap<String, String>,
    /// Function-like macros that write their one argument at global scope
    /// (`#define FMT_POSIX_CALL(call) ::call`): a call in the argument names a
    /// global function, never a member.
    global_scope: FastSet<String>,
    /// SFINAE macros written as a template parameter (`#define FMT_ENABLE_IF(...)
    /// enable_if_t<(__VA_ARGS__), int> = 0`): written in place as `int=0`.
    template_params: FastSet<String>,
    /// Masking turned off (`CALLGRAPH_NO_MASK`), to measure what it changes.
    disabled: bool,
}

/// Keywords an attribute-like body may hold: they only qualify a declaration.
const SPECIFIER_WORDS: &[&str] = &[
    "inline",
    "__inline",
    "__inline__",
    "__forceinline",
    "constexpr",
    "consteval",
    "constinit",
    "noexcept",
    "static",
    "extern",
    "export",
    "explicit",
    "thread_local",
    "__thread",
    "volatile",
    "__restrict",
    "__restrict__",
];

/// Attribute words whose parenthesised argument belongs to them.
const ATTRIBUTE_WORDS: &[&str] = &[
    "__pragma",
    "_Pragma",
    "__attribute__",
    "__attribute",
    "__declspec",
    "_declspec",
    "alignas",
    "__alignas",
    "noexcept",
];

struct Define {
    /// Defined in a header: seen by every file that includes it. A definition in a
    /// source file (`.c`, `.cc`) is seen by that file only, so it does not count
    /// against a header's definition of the same name.
    in_header: bool,
    name: String,
    function_like: bool,
    /// A function-like macro's parameter names.
    params: Vec<String>,
    body: String,
}

impl Macros {
    /// Read every `#define` of the tree's C/C++ files.
    pub fn collect<B: AsRef<[u8]>>(files: impl Iterator<Item = (B, bool)>) -> Macros {
        let mut defines: Vec<Define> = Vec::new();
        let mut class_names = FastSet::default();
        let mut operators = FastSet::default();
        for (bytes, in_header) in files {
            let bytes = bytes.as_ref();
            if let Ok(text) = std::str::from_utf8(bytes) {
                defines_of(text, in_header, &mut defines);
            }
            classes_and_operators(bytes, &mut class_names, &mut operators);
        }
        let header_defined: FastSet<String> = defines
            .iter()
            .filter(|d| d.in_header)
            .map(|d| d.name.clone())
            .collect();
        defines.retain(|d| d.in_header || !header_defined.contains(&d.name));
        let mut m = Macros {
            disabled: std::env::var_os("CALLGRAPH_NO_MASK").is_some(),
            class_names,
            operators,
            ..Macros::default()
        };
        for d in &defines {
            if d.function_like {
                m.function_like.insert(d.name.clone());
            }
        }
        // Names with at least one body that is not attribute-like are never masked;
        // the others are found by a fixpoint (a body may name another masked macro).
        let mut candidates: FastSet<String> = defines.iter().map(|d| d.name.clone()).collect();
        loop {
            let before = candidates.len();
            let mut bad = FastSet::default();
            for d in &defines {
                if !candidates.contains(&d.name) {
                    continue;
                }
                if !attribute_like(&d.body, &candidates) {
                    bad.insert(d.name.clone());
                }
            }
            candidates.retain(|n| !bad.contains(n));
            if candidates.len() == before {
                break;
            }
        }
        for d in &defines {
            if !candidates.contains(&d.name) {
                continue;
            }
            if d.function_like {
                m.masked_calls.insert(d.name.clone());
            } else {
                m.masked.insert(d.name.clone());
            }
        }
        // A name defined both ways is masked only as a call.
        let both: Vec<String> = m
            .masked
            .iter()
            .filter(|n| m.function_like.contains(*n))
            .cloned()
            .collect();
        for n in both {
            m.masked.remove(&n);
        }
        m.masked_calls.retain(|n| candidates.contains(n));
        m.expansions = namespace_expansions(&defines);
        m.global_scope = global_scope_macros(&defines);
        m.template_params = defines
            .iter()
            .filter(|d| d.function_like)
            .filter(|d| {
                let b: String = d.body.chars().filter(|c| !c.is_whitespace()).collect();
                b.contains("enable_if") && b.ends_with("=0")
            })
            .map(|d| d.name.clone())
            .collect();
        // Keep the defined-object names for the class-name rule.
        m.all_caps_defined = defines
            .iter()
            .filter(|d| !d.function_like && is_all_caps(&d.name))
            .map(|d| d.name.clone())
            .collect();
        m
    }

    /// Whether the tree defines `name` as a function-like macro.
    pub fn is_function_like(&self, name: &str) -> bool {
        self.function_like.contains(name)
    }

    /// Whether a function-like macro writes its argument at global scope (`::call`).
    pub fn qualifies_globally(&self, name: &str) -> bool {
        self.global_scope.contains(name)
    }

    /// Whether the tree defines a class, struct or union of this name with a body.
    pub fn is_class_name(&self, name: &str) -> bool {
        self.class_names.contains(name)
    }

    /// Whether some declaration of the tree overloads this operator (`operator==`).
    pub fn overloads_operator(&self, spelling: &str) -> bool {
        self.operators.contains(spelling)
    }

    /// The bytes with masked macros replaced by spaces, or `None` when nothing is masked.
    pub fn mask(&self, src: &[u8]) -> Option<Vec<u8>> {
        if self.disabled
            || (self.masked.is_empty()
                && self.masked_calls.is_empty()
                && self.all_caps_defined.is_empty()
                && self.expansions.is_empty()
                && self.template_params.is_empty()
                && self.function_like.is_empty())
        {
            return None;
        }
        let spans = self.spans_to_mask(src);
        if spans.is_empty() {
            return None;
        }
        let mut out = src.to_vec();
        for (a, b, text) in spans {
            for byte in &mut out[a..b] {
                if *byte != b'\n' {
                    *byte = b' ';
                }
            }
            if let Some(text) = text.filter(|t| t.len() <= b - a) {
                out[a..a + text.len()].copy_from_slice(text.as_bytes());
            }
        }
        Some(out)
    }

    /// Byte ranges to blank, each with the text written at its start, if any.
    fn spans_to_mask<'m>(&'m self, src: &[u8]) -> Vec<(usize, usize, Option<&'m str>)> {
        let mut spans = Vec::new();
        let mut i = 0;
        let n = src.len();
        let mut line_start = true;
        // The last two identifiers seen (for `class NAME X`).
        let mut prev_word: Option<(usize, usize)> = None;
        while i < n {
            let c = src[i];
            if c == b'\n' {
                line_start = true;
                i += 1;
                continue;
            }
            if c == b' ' || c == b'\t' || c == b'\r' {
                i += 1;
                continue;
            }
            if line_start && c == b'#' {
                if let Some(end) = declaration_fragment(src, i) {
                    spans.push((i, end, None));
                    i = end;
                    continue;
                }
                if let Some(blanks) = conditional_in_expression(src, i) {
                    // Keep the first branch's text; scanning goes on inside it.
                    let after_if = blanks[0].1;
                    spans.extend(blanks.into_iter().map(|(a, b)| (a, b, None)));
                    i = after_if;
                    continue;
                }
                i = skip_directive(src, i);
                line_start = true;
                prev_word = None;
                continue;
            }
            let first_on_line = line_start;
            line_start = false;
            if let Some(end) = skip_comment(src, i) {
                i = end;
                continue;
            }
            if c == b'"' || c == b'\'' {
                i = skip_quoted(src, i);
                prev_word = None;
                continue;
            }
            if is_ident_start(c) {
                let start = i;
                while i < n && is_ident_char(src[i]) {
                    i += 1;
                }
                let word = std::str::from_utf8(&src[start..i]).unwrap_or("");
                // Raw string literals (`R"(…)"`) are strings.
                if i < n && src[i] == b'"' && matches!(word, "R" | "u8R" | "LR" | "uR" | "UR") {
                    i = skip_raw_string(src, i);
                    prev_word = None;
                    continue;
                }
                if self.masked.contains(word) {
                    spans.push((start, i, None));
                    continue;
                }
                if let Some(text) = self.expansions.get(word) {
                    spans.push((start, i, Some(text.as_str())));
                    continue;
                }
                let call_end = || {
                    let mut j = i;
                    while j < n && matches!(src[j], b' ' | b'\t') {
                        j += 1;
                    }
                    (j < n && src[j] == b'(')
                        .then(|| matching_paren(src, j))
                        .flatten()
                };
                if self.masked_calls.contains(word) {
                    match call_end() {
                        Some(end) => {
                            spans.push((start, end, None));
                            i = end;
                        }
                        None => spans.push((start, i, None)),
                    }
                    continue;
                }
                // `FMT_ENABLE_IF(cond)` in a template parameter list: `int=0`.
                if self.template_params.contains(word) {
                    if let Some(end) = call_end() {
                        spans.push((start, end, Some("int=0")));
                        i = end;
                        continue;
                    }
                }
                // A bare macro line: `FMT_TYPE_CONSTANT(int, int_type);` alone on its
                // line — a declaration the grammar cannot read.
                // Only where its arguments hold no call (a call written in a macro's
                // argument is a site).
                if first_on_line && self.function_like.contains(word) {
                    if let Some(end) = call_end() {
                        let open = src[i..end]
                            .iter()
                            .position(|&b| b == b'(')
                            .map(|p| i + p + 1);
                        let no_call = open.is_some_and(|o| !src[o..end - 1].contains(&b'('));
                        if no_call && rest_of_line_is_empty(src, end) {
                            spans.push((start, end, None));
                            i = end;
                            continue;
                        }
                    }
                }
                // `class NAME X`: an all-caps macro between the keyword and the name.
                if let Some((ps, pe)) = prev_word {
                    let prev = std::str::from_utf8(&src[ps..pe]).unwrap_or("");
                    if matches!(prev, "class" | "struct" | "union") {
                        let mut j = i;
                        while j < n && matches!(src[j], b' ' | b'\t' | b'\n' | b'\r') {
                            j += 1;
                        }
                        let next_is_name = j < n && is_ident_start(src[j]);
                        if next_is_name && is_all_caps(word) && self.all_caps_defined.contains(word)
                        {
                            spans.push((start, i, None));
                            continue;
                        }
                    }
                }
                prev_word = Some((start, i));
                continue;
            }
            prev_word = None;
            i += 1;
        }
        spans
    }
}

/// Function-like macros of one parameter every definition of which is `::P`
/// (`::_##P` pastes a prefix, still at global scope) or another such macro of P.
fn global_scope_macros(defines: &[Define]) -> FastSet<String> {
    let mut by_name: crate::fasthash::FastMap<&str, Vec<&Define>> = Default::default();
    for d in defines.iter().filter(|d| d.function_like) {
        by_name.entry(d.name.as_str()).or_default().push(d);
    }
    let mut out: FastSet<String> = FastSet::default();
    loop {
        let before = out.len();
        for (name, ds) in &by_name {
            if out.contains(*name) {
                continue;
            }
            let all = ds.iter().all(|d| {
                let [p] = d.params.as_slice() else {
                    return false;
                };
                let body: String = d.body.chars().filter(|c| !c.is_whitespace()).collect();
                // `::P`, `::_##P`, `ns::P`: the argument written qualified.
                let direct = body.strip_suffix(p.as_str()).is_some_and(|pre| {
                    let pre = pre.strip_suffix("##").map(|x| {
                        x.trim_end_matches(|c: char| c.is_ascii_alphanumeric() || c == '_')
                    });
                    let pre = pre.unwrap_or(pre_plain(body.as_str(), p));
                    pre.ends_with("::")
                        && pre[..pre.len() - 2]
                            .chars()
                            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':')
                });
                let through = body
                    .strip_suffix(&format!("({p})"))
                    .is_some_and(|m| out.contains(m));
                direct || through
            });
            if all {
                out.insert(name.to_string());
            }
        }
        if out.len() == before {
            break;
        }
    }
    out
}

/// The body before a parameter written last (`::call` → `::`).
fn pre_plain<'a>(body: &'a str, p: &str) -> &'a str {
    &body[..body.len() - p.len()]
}

/// Namespace macros and the text each is written as (see `Macros::expansions`):
/// an opening macro's body is only `[inline] namespace NAME {` repeated; a closing
/// macro's only `}`s, paired with the openings of as many braces (when those agree
/// on how many are inline). Only expansions that fit in the macro's name are kept.
fn namespace_expansions(defines: &[Define]) -> crate::fasthash::FastMap<String, String> {
    let mut bodies: crate::fasthash::FastMap<&str, Vec<&str>> = Default::default();
    for d in defines.iter().filter(|d| !d.function_like) {
        bodies
            .entry(d.name.as_str())
            .or_default()
            .push(d.body.as_str());
    }
    let mut openings: Vec<(&str, String, usize, usize)> = Vec::new();
    let mut closings: Vec<(&str, usize)> = Vec::new();
    for (name, bs) in &bodies {
        let first = bs[0];
        if bs.iter().any(|b| *b != first) {
            continue;
        }
        let toks: Vec<&str> = first
            .split(|c: char| c.is_whitespace() || c == '{')
            .filter(|t| !t.is_empty())
            .collect();
        let braces = first.matches('{').count();
        if !first.is_empty() && first.chars().all(|c| c == '}' || c.is_whitespace()) {
            closings.push((name, first.matches('}').count()));
            continue;
        }
        if braces == 0 || first.contains('}') {
            continue;
        }
        let mut text = String::new();
        let mut inline = 0;
        let mut k = 0;
        let mut ok = true;
        let mut seen = 0;
        while k < toks.len() {
            let is_inline = toks[k] == "inline";
            if is_inline {
                k += 1;
            }
            if toks.get(k) != Some(&"namespace") || k + 1 >= toks.len() {
                ok = false;
                break;
            }
            let ns = toks[k + 1];
            if !ns.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
                ok = false;
                break;
            }
            if is_inline {
                inline += 1;
            } else {
                text.push_str("namespace ");
                text.push_str(ns);
                text.push('{');
            }
            seen += 1;
            k += 2;
        }
        if ok && seen == braces && text.len() <= name.len() {
            openings.push((name, text, braces, inline));
        }
    }
    let mut out: crate::fasthash::FastMap<String, String> = Default::default();
    for (name, text, _, _) in &openings {
        out.insert(name.to_string(), text.clone());
    }
    for (name, braces) in closings {
        let inlines: Vec<usize> = openings
            .iter()
            .filter(|o| o.2 == braces)
            .map(|o| o.3)
            .collect();
        if let Some(&i) = inlines.first() {
            if inlines.iter().all(|&x| x == i) && braces - i <= name.len() {
                out.insert(name.to_string(), "}".repeat(braces - i));
            }
        }
    }
    out
}

/// The tokens of one file that matter to the class-name and operator lists:
/// identifiers and punctuation, comments, strings and directives skipped.
fn tokens(src: &[u8]) -> Vec<&[u8]> {
    let mut out = Vec::new();
    let n = src.len();
    let mut i = 0;
    let mut line_start = true;
    while i < n {
        let c = src[i];
        if c == b'\n' {
            line_start = true;
            i += 1;
            continue;
        }
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if line_start && c == b'#' {
            i = skip_directive(src, i);
            continue;
        }
        line_start = false;
        if let Some(end) = skip_comment(src, i) {
            i = end;
            continue;
        }
        if c == b'"' || c == b'\'' {
            i = skip_quoted(src, i);
            continue;
        }
        let s = i;
        if is_ident_start(c) {
            while i < n && is_ident_char(src[i]) {
                i += 1;
            }
        } else if c == b':' && i + 1 < n && src[i + 1] == b':' {
            i += 2;
        } else {
            i += 1;
        }
        out.push(&src[s..i]);
    }
    out
}

/// `class|struct|union [attrs] NAME [final] {|:` → NAME; `operator <symbols>` → its spelling.
fn classes_and_operators(src: &[u8], classes: &mut FastSet<String>, ops: &mut FastSet<String>) {
    let toks = tokens(src);
    for (k, t) in toks.iter().enumerate() {
        match *t {
            b"class" | b"struct" | b"union" => {
                let mut name: Option<&[u8]> = None;
                for u in toks.iter().skip(k + 1).take(6) {
                    match *u {
                        b"{" | b":" => {
                            if let Some(nm) = name {
                                if let Ok(s) = std::str::from_utf8(nm) {
                                    classes.insert(s.to_string());
                                }
                            }
                            break;
                        }
                        b"final" => {}
                        w if is_ident_start(w[0]) => name = Some(w),
                        _ => break,
                    }
                }
            }
            b"operator" => {
                let next = |d: usize| toks.get(k + d).copied().unwrap_or(b"");
                let spelling = match (next(1), next(2)) {
                    (b"(", b")") => "operator()".to_string(),
                    (b"[", b"]") => "operator[]".to_string(),
                    _ => {
                        let mut s = String::from("operator");
                        for d in 1..=3 {
                            let u = next(d);
                            if u.len() == 1 && b"+-*/%^&|~!=<>".contains(&u[0]) {
                                s.push(u[0] as char);
                            } else {
                                break;
                            }
                        }
                        s
                    }
                };
                if spelling.len() > "operator".len() {
                    ops.insert(spelling);
                }
            }
            _ => {}
        }
    }
}

/// Every `#define` of one file (continuation lines joined, comments dropped).
fn defines_of(text: &str, in_header: bool, out: &mut Vec<Define>) {
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        let t = line.trim_start();
        let Some(rest) = t.strip_prefix('#') else {
            continue;
        };
        let rest = rest.trim_start();
        let Some(rest) = rest.strip_prefix("define") else {
            continue;
        };
        if !rest.starts_with([' ', '\t']) {
            continue;
        }
        let mut full = rest.to_string();
        while full.ends_with('\\') {
            full.pop();
            match lines.next() {
                Some(l) => {
                    full.push(' ');
                    full.push_str(l);
                }
                None => break,
            }
        }
        let full = strip_comments(&full);
        let body = full.trim_start();
        let name_len = body.bytes().take_while(|&b| is_ident_char(b)).count();
        if name_len == 0 || !is_ident_start(body.as_bytes()[0]) {
            continue;
        }
        let name = body[..name_len].to_string();
        let after = &body[name_len..];
        let mut params = Vec::new();
        let (function_like, value) = if after.starts_with('(') {
            match after.find(')') {
                Some(close) => {
                    params = after[1..close]
                        .split(',')
                        .map(|p| p.trim().to_string())
                        .filter(|p| !p.is_empty())
                        .collect();
                    (true, after[close + 1..].trim().to_string())
                }
                None => continue,
            }
        } else {
            (false, after.trim().to_string())
        };
        out.push(Define {
            in_header,
            name,
            function_like,
            params,
            body: value,
        });
    }
}

fn strip_comments(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'/' && i + 1 < b.len() && b[i + 1] == b'/' {
            break;
        }
        if b[i] == b'/' && i + 1 < b.len() && b[i + 1] == b'*' {
            match s[i + 2..].find("*/") {
                Some(e) => {
                    i = i + 2 + e + 2;
                    out.push(' ');
                    continue;
                }
                None => break,
            }
        }
        out.push(b[i] as char);
        i += 1;
    }
    out
}

/// Whether a macro body only qualifies a declaration (see the module comment).
fn attribute_like(body: &str, masked: &FastSet<String>) -> bool {
    let b = body.as_bytes();
    let mut i = 0;
    let mut last_attr_word = false;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if c == b'(' {
            // Only the argument of an attribute word (or of a masked call).
            if !last_attr_word {
                return false;
            }
            match matching_paren(b, i) {
                Some(e) => i = e,
                None => return false,
            }
            last_attr_word = false;
            continue;
        }
        if c == b'[' && i + 1 < b.len() && b[i + 1] == b'[' {
            match body[i..].find("]]") {
                Some(e) => i += e + 2,
                None => return false,
            }
            last_attr_word = false;
            continue;
        }
        if is_ident_start(c) {
            let s = i;
            while i < b.len() && is_ident_char(b[i]) {
                i += 1;
            }
            let w = &body[s..i];
            if ATTRIBUTE_WORDS.contains(&w) {
                last_attr_word = true;
                continue;
            }
            if SPECIFIER_WORDS.contains(&w) || masked.contains(w) {
                last_attr_word = masked.contains(w);
                continue;
            }
            return false;
        }
        return false;
    }
    true
}

fn is_all_caps(word: &str) -> bool {
    word.len() >= 2
        && word.bytes().any(|b| b.is_ascii_uppercase())
        && word
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
}

fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_'
}

fn is_ident_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// `#if …` / `#endif` with no `#else` around lines that only continue a
/// declaration (a base-class clause `: public B<T>`, an initializer `x_(1),`):
/// the grammar cannot read a declaration split by a directive, so the fragment is
/// read as absent (the end of the `#endif` line when it is one).
fn declaration_fragment(src: &[u8], hash: usize) -> Option<usize> {
    let line_end = |from: usize| {
        src[from..]
            .iter()
            .position(|&b| b == b'\n')
            .map(|p| from + p)
            .unwrap_or(src.len())
    };
    let first = std::str::from_utf8(&src[hash..line_end(hash)]).ok()?;
    let directive = first.trim_start_matches('#').trim_start();
    if !(directive.starts_with("if")) {
        return None;
    }
    let mut at = line_end(hash) + 1;
    let mut body_lines = 0;
    while at < src.len() {
        let end = line_end(at);
        let line = std::str::from_utf8(&src[at..end]).ok()?.trim();
        if let Some(d) = line.strip_prefix('#') {
            let d = d.trim_start();
            return (d.starts_with("endif") && body_lines > 0).then_some(end);
        }
        let continues = line.starts_with(':') || line.starts_with(',') || line.ends_with(',');
        if !(line.is_empty() || line.starts_with("//") || continues) {
            return None;
        }
        if continues {
            body_lines += 1;
        }
        if body_lines > 8 {
            return None;
        }
        at = end + 1;
    }
    None
}

/// `#if` inside an expression (after `= {`, `,`, `(` or `=`: an initializer list
/// whose entries differ by platform): the grammar cannot read alternatives inside
/// an expression, so the first branch is kept and the directive lines and the
/// other branches are blanked. Returns the byte ranges to blank, the `#if` line
/// first.
fn conditional_in_expression(src: &[u8], hash: usize) -> Option<Vec<(usize, usize)>> {
    let mut back = src[..hash]
        .iter()
        .rev()
        .filter(|b| !b.is_ascii_whitespace())
        .copied();
    let before = back.next()?;
    // `{` opens an initializer only after `=` or `[]` (`T x[] = {`), not a block.
    let opens_initializer = before == b'{' && matches!(back.next(), Some(b'=' | b']'));
    if !(opens_initializer || matches!(before, b',' | b'(' | b'=')) {
        return None;
    }
    let line_end = |from: usize| {
        let mut j = from;
        while j < src.len() && src[j] != b'\n' {
            j += 1;
        }
        j
    };
    let directive = |at: usize| -> Option<&str> {
        let line = std::str::from_utf8(&src[at..line_end(at)]).ok()?;
        let t = line.trim_start();
        t.strip_prefix('#').map(|d| d.trim_start())
    };
    if !directive(hash)?.starts_with("if") {
        return None;
    }
    let mut blanks = vec![(hash, line_end(hash))];
    let mut depth = 0u32;
    let mut in_other = None;
    let mut at = line_end(hash) + 1;
    let mut lines = 0;
    while at < src.len() && lines < 2000 {
        lines += 1;
        let end = line_end(at);
        if let Some(d) = directive(at) {
            if d.starts_with("if") {
                depth += 1;
            } else if d.starts_with("endif") {
                if depth == 0 {
                    let from = in_other.unwrap_or(at);
                    blanks.push((from, end));
                    return Some(blanks);
                }
                depth -= 1;
            } else if depth == 0
                && (d.starts_with("else") || d.starts_with("elif"))
                && in_other.is_none()
            {
                in_other = Some(at);
            }
        }
        at = end + 1;
    }
    None
}

/// Whether only blanks or a `//` comment follow `at` on its line.
fn rest_of_line_is_empty(src: &[u8], at: usize) -> bool {
    let mut j = at;
    if j < src.len() && src[j] == b';' {
        j += 1;
    }
    while j < src.len() && matches!(src[j], b' ' | b'\t' | b'\r') {
        j += 1;
    }
    j >= src.len() || src[j] == b'\n' || src[j..].starts_with(b"//")
}

/// The index just past the `)` matching the `(` at `open`.
fn matching_paren(src: &[u8], open: usize) -> Option<usize> {
    let mut depth = 0i32;
    let mut i = open;
    while i < src.len() {
        match src[i] {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            b'"' | b'\'' => {
                i = skip_quoted(src, i);
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// Where the `//` or `/* … */` comment starting at `i` ends (a line comment at its
/// newline, an unclosed block comment at the end), or `None` when none starts there.
fn skip_comment(src: &[u8], i: usize) -> Option<usize> {
    let n = src.len();
    if src[i] != b'/' || i + 1 >= n {
        return None;
    }
    match src[i + 1] {
        b'/' => {
            let mut i = i;
            while i < n && src[i] != b'\n' {
                i += 1;
            }
            Some(i)
        }
        b'*' => {
            let mut i = i + 2;
            while i + 1 < n && !(src[i] == b'*' && src[i + 1] == b'/') {
                i += 1;
            }
            Some((i + 2).min(n))
        }
        _ => None,
    }
}

fn skip_quoted(src: &[u8], start: usize) -> usize {
    let q = src[start];
    let mut i = start + 1;
    while i < src.len() {
        match src[i] {
            b'\\' => i += 2,
            b'\n' => return i,
            c if c == q => return i + 1,
            _ => i += 1,
        }
    }
    src.len()
}

/// `R"delim(…)delim"` starting at the quote.
fn skip_raw_string(src: &[u8], quote: usize) -> usize {
    let Some(open) = src[quote..]
        .iter()
        .position(|&b| b == b'(')
        .map(|p| quote + p)
    else {
        return src.len();
    };
    let delim = &src[quote + 1..open];
    let mut close = Vec::with_capacity(delim.len() + 2);
    close.push(b')');
    close.extend_from_slice(delim);
    close.push(b'"');
    src[open..]
        .windows(close.len())
        .position(|w| w == close.as_slice())
        .map(|p| open + p + close.len())
        .unwrap_or(src.len())
}

/// A preprocessor directive with its continuation lines.
fn skip_directive(src: &[u8], start: usize) -> usize {
    let mut i = start;
    while i < src.len() {
        if src[i] == b'\n' {
            if i > 0 && src[i - 1] == b'\\' || (i > 1 && src[i - 1] == b'\r' && src[i - 2] == b'\\')
            {
                i += 1;
                continue;
            }
            return i;
        }
        i += 1;
    }
    src.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn macros(text: &str) -> Macros {
        let mut m = Macros::collect(std::iter::once((text.as_bytes(), true)));
        m.disabled = false;
        m
    }

    #[test]
    fn visibility_macros_are_masked_byte_for_byte() {
        let m = macros(
            "#define LEVELDB_EXPORT __attribute__((visibility(\"default\")))\n#define FMT_API\n#define FMT_INLINE inline FMT_API\n#define N 3\n#define TWICE(x) add((x),(x))\n",
        );
        let src = b"class LEVELDB_EXPORT DB {};\nFMT_INLINE int f() { return N + TWICE(2); }\n";
        let out = m.mask(src).expect("masked");
        assert_eq!(out.len(), src.len());
        assert_eq!(
            std::str::from_utf8(&out).unwrap(),
            "class                DB {};\n           int f() { return N + TWICE(2); }\n"
        );
        assert!(m.is_function_like("TWICE"));
        assert!(!m.is_function_like("N"));
    }

    #[test]
    fn namespace_macros_are_written_as_their_namespaces() {
        let m = macros(
            "#define FMT_BEGIN_NAMESPACE \\\n  namespace fmt { \\\n  inline namespace v9 {\n#define FMT_END_NAMESPACE \\\n  } \\\n  }\n",
        );
        let src = b"FMT_BEGIN_NAMESPACE\nint f();\nFMT_END_NAMESPACE\n";
        let out = m.mask(src).expect("expanded");
        assert_eq!(
            std::str::from_utf8(&out).unwrap(),
            "namespace fmt{     \nint f();\n}                \n"
        );
    }

    #[test]
    fn bare_macro_lines_and_sfinae_parameters_are_read_as_the_compiler_does() {
        let m = macros(
            "#define CONST(T, c) template <> struct k<T> {};\n#define FMT_ENABLE_IF(...) enable_if_t<(__VA_ARGS__), int> = 0\n#define CHECK(x) assert(x)\n",
        );
        let src = b"CONST(int, int_type)\ntemplate <typename T, FMT_ENABLE_IF(is_x<T>::value)> void f();\nCHECK(g(1))\n";
        let out = String::from_utf8(m.mask(src).expect("masked")).unwrap();
        assert_eq!(
            out,
            "                    \ntemplate <typename T, int=0                        > void f();\nCHECK(g(1))\n"
        );
    }

    #[test]
    fn conditionals_inside_an_initializer_keep_their_first_branch() {
        let m = macros("#define X\n");
        let src = b"int t[] = {\n#if A\n  1,\n#else\n  2,\n#endif\n};\nvoid f() {\n#if B\n  g();\n#else\n  h();\n#endif\n}\n";
        let out = String::from_utf8(m.mask(src).expect("masked")).unwrap();
        assert_eq!(
            out,
            "int t[] = {\n     \n  1,\n     \n    \n      \n};\nvoid f() {\n#if B\n  g();\n#else\n  h();\n#endif\n}\n"
        );
    }

    #[test]
    fn a_name_with_a_real_body_somewhere_is_not_masked() {
        let m = macros("#ifdef A\n#define X\n#else\n#define X 1\n#endif\n");
        assert_eq!(m.mask(b"int y = X;\n"), None);
    }
}
