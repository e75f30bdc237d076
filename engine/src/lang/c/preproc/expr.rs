//! `#if` expressions: macro expansion (object-like and function-like macros, `#`,
//! `##`, `__VA_ARGS__`, with the hide sets of the C standard's rescanning rule),
//! `defined`, the `__has_*` queries, and integer evaluation in the preprocessor's
//! `intmax_t`/`uintmax_t` arithmetic.
//!
//! Every value is three-valued: known, or unknown (a macro whose definition the
//! engine cannot know, a query it has no answer for, an expression it cannot read).
//! `&&`, `||` and `?:` decide on what is known (`0 && unknown` is 0), everything
//! else that touches an unknown is unknown, and a condition that is unknown keeps
//! both branches.

use std::collections::VecDeque;
use std::sync::Arc;

use super::lex::{tokens, Tok};

/// A macro definition as `#define` writes it.
#[derive(Debug, Clone, PartialEq)]
pub struct MacroDef {
    pub function_like: bool,
    pub params: Vec<Arc<str>>,
    /// `...` (or GNU `name...`) closes the parameter list.
    pub variadic: bool,
    pub body: Vec<Tok>,
}

impl MacroDef {
    /// An object-like macro of the given body text (`-D NAME=VALUE`, a predefined macro).
    pub fn object(body: &str) -> MacroDef {
        MacroDef {
            function_like: false,
            params: Vec::new(),
            variadic: false,
            body: tokens(body),
        }
    }
}

/// Reads `NAME body` or `NAME(params) body` (the text after `define`); `None` when
/// it names nothing.
pub fn parse_define(text: &str) -> Option<(Arc<str>, MacroDef)> {
    let t = text.trim_start();
    let b = t.as_bytes();
    if b.is_empty() || !super::lex::is_ident_start(b[0]) {
        return None;
    }
    let name_len = b
        .iter()
        .take_while(|c| super::lex::is_ident_char(**c))
        .count();
    let name: Arc<str> = t[..name_len].into();
    let rest = &t[name_len..];
    // Function-like only when `(` follows the name with no space between.
    if let Some(after_open) = rest.strip_prefix('(') {
        let close = after_open.find(')')?;
        let mut params = Vec::new();
        let mut variadic = false;
        for p in after_open[..close].split(',') {
            let p = p.trim();
            if p == "..." {
                variadic = true;
                params.push("__VA_ARGS__".into());
            } else if let Some(named) = p.strip_suffix("...") {
                variadic = true;
                params.push(named.trim().into());
            } else if !p.is_empty() {
                params.push(p.into());
            }
        }
        return Some((
            name,
            MacroDef {
                function_like: true,
                params,
                variadic,
                body: tokens(&after_open[close + 1..]),
            },
        ));
    }
    Some((name, MacroDef::object(rest)))
}

/// What a name is where an expression is evaluated.
pub enum MacroState {
    Def(Arc<MacroDef>),
    /// Defined by the compiler with a meaning of its own (`__has_include`,
    /// `__LINE__`): `defined` says 1; its value is not a macro body.
    Builtin,
    Undefined,
    /// The engine cannot know whether or how it is defined.
    Unknown,
}

/// What the evaluation needs from the preprocessor's state.
pub trait Env {
    fn macro_state(&self, name: &str) -> MacroState;
    /// `__has_include(<name>)` (`angled`) or `("name")`: `None` when unknown.
    fn has_include(&self, name: &str, angled: bool) -> Option<bool>;
    /// `__has_builtin(x)`, `__has_attribute(x)`, …: `None` when unknown.
    fn query(&self, function: &str, argument: &str) -> Option<i64>;
    fn cpp(&self) -> bool;
}

/// An integer of the preprocessor: `intmax_t` or `uintmax_t`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Num {
    pub bits: u64,
    pub unsigned: bool,
}

impl Num {
    pub fn signed(v: i64) -> Num {
        Num {
            bits: v as u64,
            unsigned: false,
        }
    }

    fn is_true(self) -> bool {
        self.bits != 0
    }
}

/// A known number, or unknown.
pub type Val = Option<Num>;

/// The answer of a condition.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tri {
    True,
    False,
    Unknown,
}

/// Bound on the tokens one expansion may produce (a macro that grows without end).
const EXPANSION_BUDGET: u32 = 20_000;
/// Bound on expansions nested in macro arguments (`F(F(F(…)))`).
const MAX_EXPANSION_DEPTH: u32 = 64;
/// Bound on the nesting of an expression.
const MAX_NESTING: u32 = 256;

/// Evaluates the tokens of an `#if`/`#elif`.
pub fn evaluate(toks: &[Tok], env: &dyn Env) -> Tri {
    let mut budget = Budget {
        tokens: EXPANSION_BUDGET,
        depth: MAX_EXPANSION_DEPTH,
    };
    let input: Vec<PTok> = toks
        .iter()
        .map(|t| PTok {
            tok: X::T(t.clone()),
            hide: Arc::default(),
        })
        .collect();
    let Some(expanded) = expand(input, env, &mut budget) else {
        return Tri::Unknown;
    };
    let Some(items) = to_items(&expanded, env) else {
        return Tri::Unknown;
    };
    let mut p = Parser {
        items: &items,
        at: 0,
    };
    let v = p.conditional(0);
    match v {
        Ok(v) if p.at == items.len() => match v {
            Some(n) if n.is_true() => Tri::True,
            Some(_) => Tri::False,
            None => Tri::Unknown,
        },
        _ => Tri::Unknown,
    }
}

/// `defined NAME` as a condition (`#ifdef`).
pub fn defined(name: &str, env: &dyn Env) -> Tri {
    match env.macro_state(name) {
        MacroState::Def(_) | MacroState::Builtin => Tri::True,
        MacroState::Undefined => Tri::False,
        MacroState::Unknown => Tri::Unknown,
    }
}

/// What one expansion may still spend: tokens produced, arguments nested.
struct Budget {
    tokens: u32,
    depth: u32,
}

type Hide = Arc<Vec<Arc<str>>>;

#[derive(Debug, Clone)]
enum X {
    T(Tok),
    V(Val),
    /// An empty argument next to `##`.
    Placemarker,
}

#[derive(Debug, Clone)]
struct PTok {
    tok: X,
    hide: Hide,
}

fn with_name(hide: &Hide, name: &Arc<str>) -> Hide {
    if hide.contains(name) {
        return hide.clone();
    }
    let mut v: Vec<Arc<str>> = hide.as_ref().clone();
    v.push(name.clone());
    Arc::new(v)
}

fn union(a: &Hide, b: &Hide) -> Hide {
    if b.is_empty() {
        return a.clone();
    }
    let mut v: Vec<Arc<str>> = a.as_ref().clone();
    for n in b.iter() {
        if !v.contains(n) {
            v.push(n.clone());
        }
    }
    Arc::new(v)
}

/// Expands every macro of the input, the C standard's way (each token carries the
/// names it may no longer expand), and turns `defined` and the `__has_*` queries
/// into values. `None`: the expansion is malformed or over budget.
fn expand(input: Vec<PTok>, env: &dyn Env, budget: &mut Budget) -> Option<Vec<PTok>> {
    budget.depth = budget.depth.checked_sub(1)?;
    let out = expand_at_depth(input, env, budget);
    budget.depth += 1;
    out
}

fn expand_at_depth(input: Vec<PTok>, env: &dyn Env, budget: &mut Budget) -> Option<Vec<PTok>> {
    let mut input: VecDeque<PTok> = input.into();
    let mut out = Vec::new();
    while let Some(t) = input.pop_front() {
        budget.tokens = budget.tokens.checked_sub(1)?;
        let X::T(Tok::Ident(name)) = &t.tok else {
            out.push(t);
            continue;
        };
        let name = name.clone();
        if &*name == "defined" {
            let operand = defined_operand(&mut input)?;
            let v = match defined(&operand, env) {
                Tri::True => Some(Num::signed(1)),
                Tri::False => Some(Num::signed(0)),
                Tri::Unknown => None,
            };
            out.push(PTok {
                tok: X::V(v),
                hide: t.hide,
            });
            continue;
        }
        if let Some(v) = query_call(&name, &mut input, env, budget) {
            out.push(PTok {
                tok: X::V(v?),
                hide: t.hide,
            });
            continue;
        }
        if t.hide.contains(&name) {
            out.push(t);
            continue;
        }
        match env.macro_state(&name) {
            MacroState::Def(def) if !def.function_like => {
                let hide = with_name(&t.hide, &name);
                let body = paste_all(fresh(&def.body, &hide))?;
                for b in body.into_iter().rev() {
                    input.push_front(b);
                }
            }
            MacroState::Def(def) => {
                if !next_is_open_paren(&input) {
                    out.push(t);
                    continue;
                }
                let args = arguments(&mut input, &def)?;
                let hide = with_name(&t.hide, &name);
                let body = substitute(&def, args, &hide, env, budget)?;
                for b in body.into_iter().rev() {
                    input.push_front(b);
                }
            }
            // A name the engine cannot know stays a name: it is unknown where it is
            // evaluated, and a name where a query reads it (`__has_cpp_attribute(x)`).
            MacroState::Unknown | MacroState::Builtin | MacroState::Undefined => out.push(t),
        }
    }
    Some(out)
}

fn fresh(body: &[Tok], hide: &Hide) -> Vec<PTok> {
    body.iter()
        .map(|t| PTok {
            tok: X::T(t.clone()),
            hide: hide.clone(),
        })
        .collect()
}

/// `defined X` or `defined ( X )`: the name, unexpanded.
fn defined_operand(input: &mut VecDeque<PTok>) -> Option<Arc<str>> {
    let ident = |t: &PTok| match &t.tok {
        X::T(Tok::Ident(n)) => Some(n.clone()),
        _ => None,
    };
    let first = input.pop_front()?;
    if let Some(n) = ident(&first) {
        return Some(n);
    }
    if !matches!(&first.tok, X::T(t) if t.is_punct("(")) {
        return None;
    }
    let n = ident(&input.pop_front()?)?;
    let close = input.pop_front()?;
    matches!(&close.tok, X::T(t) if t.is_punct(")")).then_some(n)
}

/// The compiler's own queries: `__has_include(…)`, `__has_builtin(x)`,
/// `__has_attribute(x)`, `__has_cpp_attribute(x)`, `__has_feature(x)`,
/// `__has_extension(x)`, … — `None` when `name` is not one; `Some(None)` when its
/// call is malformed; `Some(Some(v))` otherwise (`v` unknown where the engine has no answer).
fn query_call(
    name: &str,
    input: &mut VecDeque<PTok>,
    env: &dyn Env,
    budget: &mut Budget,
) -> Option<Option<Val>> {
    let known = matches!(
        name,
        "__has_include"
            | "__has_include_next"
            | "__has_builtin"
            | "__has_attribute"
            | "__has_cpp_attribute"
            | "__has_c_attribute"
            | "__has_declspec_attribute"
            | "__has_feature"
            | "__has_extension"
            | "__has_warning"
            | "__is_identifier"
            | "__building_module"
    );
    if !known || !matches!(env.macro_state(name), MacroState::Builtin) {
        return None;
    }
    let Some(inner) = parenthesised(input) else {
        return Some(None);
    };
    let spell = |toks: &[PTok]| -> String {
        toks.iter()
            .map(|t| match &t.tok {
                X::T(t) => t.spelling(),
                _ => String::new(),
            })
            .collect()
    };
    let value = match name {
        "__has_include" => {
            // The header name is not expanded when written as `<…>` or `"…"`.
            let written = spell(&inner);
            let answer = if let Some(h) =
                written.strip_prefix('<').and_then(|w| w.strip_suffix('>'))
            {
                env.has_include(h, true)
            } else if let Some(h) = written.strip_prefix('"').and_then(|w| w.strip_suffix('"')) {
                env.has_include(h, false)
            } else {
                None
            };
            answer.map(|b| Num::signed(i64::from(b)))
        }
        "__has_include_next" | "__has_warning" | "__building_module" => None,
        // clang reads these names as written, unexpanded.
        "__has_feature" | "__has_extension" | "__has_builtin" | "__is_identifier" => {
            env.query(name, &spell(&inner)).map(Num::signed)
        }
        _ => {
            let Some(expanded) = expand(inner, env, budget) else {
                return Some(None);
            };
            if expanded.iter().any(|t| !matches!(t.tok, X::T(_))) {
                return Some(Some(None));
            }
            env.query(name, &spell(&expanded)).map(Num::signed)
        }
    };
    Some(Some(value))
}

/// The tokens between a `(` that must come next and its matching `)`.
fn parenthesised(input: &mut VecDeque<PTok>) -> Option<Vec<PTok>> {
    let open = input.pop_front()?;
    if !matches!(&open.tok, X::T(t) if t.is_punct("(")) {
        return None;
    }
    let mut depth = 0u32;
    let mut inner = Vec::new();
    loop {
        let t = input.pop_front()?;
        match &t.tok {
            X::T(p) if p.is_punct("(") => depth += 1,
            X::T(p) if p.is_punct(")") => {
                if depth == 0 {
                    return Some(inner);
                }
                depth -= 1;
            }
            _ => {}
        }
        inner.push(t);
    }
}

fn next_is_open_paren(input: &VecDeque<PTok>) -> bool {
    matches!(input.front(), Some(PTok { tok: X::T(t), .. }) if t.is_punct("("))
}

/// A function-like macro's arguments, unexpanded, split at top-level commas (the
/// variadic one keeps its commas).
fn arguments(input: &mut VecDeque<PTok>, def: &MacroDef) -> Option<Vec<Vec<PTok>>> {
    let inner = parenthesised(input)?;
    let mut args: Vec<Vec<PTok>> = vec![Vec::new()];
    let mut depth = 0u32;
    for t in inner {
        if let X::T(p) = &t.tok {
            if p.is_punct("(") {
                depth += 1;
            } else if p.is_punct(")") {
                depth = depth.saturating_sub(1);
            } else if p.is_punct(",") && depth == 0 {
                let in_variadic = def.variadic && args.len() >= def.params.len();
                if !in_variadic {
                    args.push(Vec::new());
                    continue;
                }
            }
        }
        args.last_mut().expect("one argument at least").push(t);
    }
    let wanted = def.params.len();
    // `F()` of a one-parameter macro passes one empty argument; `F()` of none, zero.
    if wanted == 0 && args.len() == 1 && args[0].is_empty() {
        args.clear();
    }
    if def.variadic && args.len() + 1 == wanted {
        args.push(Vec::new());
    }
    (args.len() == wanted).then_some(args)
}

/// The body of a function-like macro with its arguments in place: expanded, or as
/// written next to `#` and `##`; then `##` pasted.
fn substitute(
    def: &MacroDef,
    args: Vec<Vec<PTok>>,
    hide: &Hide,
    env: &dyn Env,
    budget: &mut Budget,
) -> Option<Vec<PTok>> {
    let param = |t: &Tok| match t {
        Tok::Ident(n) => def.params.iter().position(|p| p == n),
        _ => None,
    };
    let body = &def.body;
    let mut out: Vec<PTok> = Vec::new();
    let mut k = 0;
    while k < body.len() {
        let t = &body[k];
        if t.is_punct("#") {
            let i = body.get(k + 1).and_then(param)?;
            out.push(PTok {
                tok: X::T(Tok::Str(stringify(&args[i]).into())),
                hide: hide.clone(),
            });
            k += 2;
            continue;
        }
        if let Tok::Ident(n) = t {
            if &**n == "__VA_OPT__" {
                return None;
            }
        }
        match param(t) {
            Some(i) => {
                let pasted = (k > 0 && body[k - 1].is_punct("##"))
                    || body.get(k + 1).is_some_and(|n| n.is_punct("##"));
                let arg: Vec<PTok> = if pasted {
                    if args[i].is_empty() {
                        vec![PTok {
                            tok: X::Placemarker,
                            hide: hide.clone(),
                        }]
                    } else {
                        args[i].clone()
                    }
                } else {
                    expand(args[i].clone(), env, budget)?
                };
                out.extend(arg.into_iter().map(|a| PTok {
                    hide: union(&a.hide, hide),
                    tok: a.tok,
                }));
            }
            None => out.push(PTok {
                tok: X::T(t.clone()),
                hide: hide.clone(),
            }),
        }
        k += 1;
    }
    paste_all(out)
}

/// `#x`: the argument's spelling, one space between tokens.
fn stringify(arg: &[PTok]) -> String {
    let words: Vec<String> = arg
        .iter()
        .filter_map(|t| match &t.tok {
            X::T(t) => Some(t.spelling()),
            _ => None,
        })
        .collect();
    let inner = words.join(" ").replace('\\', "\\\\").replace('"', "\\\"");
    format!("\"{inner}\"")
}

/// Applies every `##`: the two neighbours become the one token their spellings
/// make (a placemarker pastes to the other side; GNU's `, ## __VA_ARGS__` drops the
/// comma when the arguments are empty). `None` when a paste makes no single token.
fn paste_all(toks: Vec<PTok>) -> Option<Vec<PTok>> {
    if !toks
        .iter()
        .any(|t| matches!(&t.tok, X::T(p) if p.is_punct("##")))
    {
        return Some(
            toks.into_iter()
                .filter(|t| !matches!(t.tok, X::Placemarker))
                .collect(),
        );
    }
    let mut out: Vec<PTok> = Vec::new();
    let mut it = toks.into_iter().peekable();
    while let Some(t) = it.next() {
        if !matches!(&t.tok, X::T(p) if p.is_punct("##")) {
            out.push(t);
            continue;
        }
        let left = out.pop()?;
        let right = it.next()?;
        let merged = match (&left.tok, &right.tok) {
            (X::Placemarker, _) => right,
            (_, X::Placemarker) if matches!(&left.tok, X::T(p) if p.is_punct(",")) => continue,
            (_, X::Placemarker) => left,
            (X::T(a), X::T(b)) => {
                let text = a.spelling() + &b.spelling();
                let mut one = tokens(&text);
                if one.len() != 1 {
                    return None;
                }
                PTok {
                    tok: X::T(one.pop().expect("one token")),
                    hide: left.hide,
                }
            }
            _ => return None,
        };
        out.push(merged);
    }
    Some(
        out.into_iter()
            .filter(|t| !matches!(t.tok, X::Placemarker))
            .collect(),
    )
}

/// What the parser reads: values and operators.
#[derive(Debug, Clone, Copy)]
enum Item {
    V(Val),
    Op(&'static str),
}

/// The expanded tokens as values and operators; `None` when one is neither (a
/// string, a floating number, a stray character).
fn to_items(toks: &[PTok], env: &dyn Env) -> Option<Vec<Item>> {
    let mut items = Vec::with_capacity(toks.len());
    for t in toks {
        let item = match &t.tok {
            X::V(v) => Item::V(*v),
            X::Placemarker => continue,
            X::T(Tok::Number(s)) => Item::V(Some(parse_number(s)?)),
            X::T(Tok::Char(s)) => Item::V(Some(parse_char(s)?)),
            X::T(Tok::Ident(n)) => ident_item(n, env),
            X::T(Tok::Punct(p)) => Item::Op(p),
            X::T(Tok::Str(_) | Tok::Other(_)) => return None,
        };
        items.push(item);
    }
    Some(items)
}

/// An identifier left after expansion: C++'s `true`/`false` and alternative
/// operator spellings, else 0 (a macro name here is one that did not expand: a
/// function-like macro without arguments, or one its own expansion named) — unless
/// the engine cannot know the name is undefined.
fn ident_item(name: &str, env: &dyn Env) -> Item {
    if env.cpp() {
        match name {
            "true" => return Item::V(Some(Num::signed(1))),
            "false" => return Item::V(Some(Num::signed(0))),
            "and" => return Item::Op("&&"),
            "or" => return Item::Op("||"),
            "not" => return Item::Op("!"),
            "bitand" => return Item::Op("&"),
            "bitor" => return Item::Op("|"),
            "xor" => return Item::Op("^"),
            "compl" => return Item::Op("~"),
            "not_eq" => return Item::Op("!="),
            _ => {}
        }
    }
    match env.macro_state(name) {
        MacroState::Unknown => Item::V(None),
        _ => Item::V(Some(Num::signed(0))),
    }
}

/// An integer literal: decimal, octal, hex or binary, `'` separators, `u`/`l`/`ll`
/// suffixes; one too large for `intmax_t` is unsigned, as clang reads it.
pub fn parse_number(spelling: &str) -> Option<Num> {
    let s: String = spelling.chars().filter(|&c| c != '\'').collect();
    let lower = s.to_ascii_lowercase();
    // No digit of any radix is `u`, `l` or `z`: the first of them starts the suffix.
    let digits_end = lower.find(['u', 'l', 'z']).unwrap_or(lower.len());
    let (digits, suffix) = lower.split_at(digits_end);
    let suffix_unsigned = match suffix {
        "" | "l" | "ll" | "z" => false,
        "u" | "ul" | "lu" | "ull" | "llu" | "uz" | "zu" => true,
        _ => return None,
    };
    let (radix, body) = if let Some(h) = digits.strip_prefix("0x") {
        (16, h)
    } else if let Some(b) = digits.strip_prefix("0b") {
        (2, b)
    } else if digits.len() > 1 && digits.starts_with('0') {
        (8, &digits[1..])
    } else {
        (10, digits)
    };
    if body.is_empty() {
        return None;
    }
    let bits = u64::from_str_radix(body, radix).ok()?;
    Some(Num {
        bits,
        unsigned: suffix_unsigned || bits > i64::MAX as u64,
    })
}

/// A character literal's value: plain `'x'` is a (signed, on x86-64) `char`
/// promoted to `int`; a multi-character one packs its bytes as clang does; `L`,
/// `u`, `U` and `u8` literals are their code point.
pub fn parse_char(spelling: &str) -> Option<Num> {
    let open = spelling.find('\'')?;
    let prefix = &spelling[..open];
    let inner = spelling[open + 1..].strip_suffix('\'')?;
    let mut units: Vec<u32> = Vec::new();
    let mut chars = inner.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            units.push(c as u32);
            continue;
        }
        let e = chars.next()?;
        let v = match e {
            'n' => 10,
            't' => 9,
            'r' => 13,
            'a' => 7,
            'b' => 8,
            'f' => 12,
            'v' => 11,
            'e' => 27,
            '\\' | '\'' | '"' | '?' => e as u32,
            'x' => {
                let mut v: u32 = 0;
                let mut any = false;
                while let Some(d) = chars.peek().and_then(|c| c.to_digit(16)) {
                    v = v.checked_mul(16)?.checked_add(d)?;
                    chars.next();
                    any = true;
                }
                if !any {
                    return None;
                }
                v
            }
            '0'..='7' => {
                let mut v = e.to_digit(8)?;
                for _ in 0..2 {
                    match chars.peek().and_then(|c| c.to_digit(8)) {
                        Some(d) => {
                            v = v * 8 + d;
                            chars.next();
                        }
                        None => break,
                    }
                }
                v
            }
            _ => return None,
        };
        units.push(v);
    }
    match (prefix, units.as_slice()) {
        (_, []) => None,
        ("", [one]) if *one < 0x80 => Some(Num::signed(i64::from(*one))),
        ("", [one]) if *one <= 0xff => Some(Num::signed(i64::from(*one as u8 as i8))),
        ("", many) if many.iter().all(|u| *u <= 0xff) => {
            let mut v: u32 = 0;
            for u in many {
                v = (v << 8) | u;
            }
            Some(Num::signed(i64::from(v as i32)))
        }
        ("L" | "u" | "U" | "u8", [one]) => Some(Num::signed(i64::from(*one))),
        _ => None,
    }
}

struct Parser<'a> {
    items: &'a [Item],
    at: usize,
}

type Parsed = Result<Val, ()>;

impl Parser<'_> {
    fn peek_op(&self) -> Option<&'static str> {
        match self.items.get(self.at) {
            Some(Item::Op(o)) => Some(o),
            _ => None,
        }
    }

    fn eat(&mut self, op: &str) -> bool {
        if self.peek_op() == Some(op) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    /// `a ? b : c` (and the comma operator below it).
    fn conditional(&mut self, depth: u32) -> Parsed {
        if depth > MAX_NESTING {
            return Err(());
        }
        let c = self.binary(0, depth)?;
        if !self.eat("?") {
            if self.eat(",") {
                // The comma operator: the right operand is the value.
                return self.conditional(depth + 1);
            }
            return Ok(c);
        }
        let a = self.conditional(depth + 1)?;
        if !self.eat(":") {
            return Err(());
        }
        let b = self.conditional(depth + 1)?;
        Ok(match c {
            Some(c) if c.is_true() => a.map(|a| common(a, b)),
            Some(_) => b.map(|b| common(b, a)),
            None => match (a, b) {
                (Some(a), Some(b)) if a.bits == b.bits && a.unsigned == b.unsigned => Some(a),
                _ => None,
            },
        })
    }

    /// Binary operators by precedence (0 = `||` … 9 = `*`).
    fn binary(&mut self, level: usize, depth: u32) -> Parsed {
        const LEVELS: &[&[&str]] = &[
            &["||"],
            &["&&"],
            &["|"],
            &["^"],
            &["&"],
            &["==", "!="],
            &["<", ">", "<=", ">="],
            &["<<", ">>"],
            &["+", "-"],
            &["*", "/", "%"],
        ];
        if level == LEVELS.len() {
            return self.unary(depth);
        }
        let mut left = self.binary(level + 1, depth)?;
        while let Some(op) = self.peek_op().filter(|o| LEVELS[level].contains(o)) {
            self.at += 1;
            let right = self.binary(level + 1, depth)?;
            left = apply(op, left, right);
        }
        Ok(left)
    }

    fn unary(&mut self, depth: u32) -> Parsed {
        if depth > MAX_NESTING {
            return Err(());
        }
        match self.items.get(self.at).copied() {
            Some(Item::V(v)) => {
                self.at += 1;
                Ok(v)
            }
            Some(Item::Op("(")) => {
                self.at += 1;
                let v = self.conditional(depth + 1)?;
                if !self.eat(")") {
                    return Err(());
                }
                Ok(v)
            }
            Some(Item::Op(op @ ("+" | "-" | "~" | "!"))) => {
                self.at += 1;
                let v = self.unary(depth + 1)?;
                Ok(v.map(|n| match op {
                    "+" => n,
                    "-" => Num {
                        bits: n.bits.wrapping_neg(),
                        unsigned: n.unsigned,
                    },
                    "~" => Num {
                        bits: !n.bits,
                        unsigned: n.unsigned,
                    },
                    _ => Num::signed(i64::from(!n.is_true())),
                }))
            }
            _ => Err(()),
        }
    }
}

/// The type of `?:`'s result: unsigned when either branch is.
fn common(v: Num, other: Val) -> Num {
    Num {
        bits: v.bits,
        unsigned: v.unsigned || other.is_some_and(|o| o.unsigned),
    }
}

fn truth(b: bool) -> Val {
    Some(Num::signed(i64::from(b)))
}

/// One binary operator in the usual arithmetic conversions (unsigned when either
/// side is); `&&` and `||` decide on a known side alone; division by zero is unknown.
fn apply(op: &str, l: Val, r: Val) -> Val {
    match op {
        "&&" => {
            return match (l, r) {
                (Some(a), _) if !a.is_true() => truth(false),
                (_, Some(b)) if !b.is_true() => truth(false),
                (Some(_), Some(_)) => truth(true),
                _ => None,
            }
        }
        "||" => {
            return match (l, r) {
                (Some(a), _) if a.is_true() => truth(true),
                (_, Some(b)) if b.is_true() => truth(true),
                (Some(_), Some(_)) => truth(false),
                _ => None,
            }
        }
        _ => {}
    }
    let (a, b) = (l?, r?);
    let unsigned = a.unsigned || b.unsigned;
    let num = |bits: u64| Some(Num { bits, unsigned });
    let (sa, sb) = (a.bits as i64, b.bits as i64);
    match op {
        "|" => num(a.bits | b.bits),
        "^" => num(a.bits ^ b.bits),
        "&" => num(a.bits & b.bits),
        "==" => truth(a.bits == b.bits),
        "!=" => truth(a.bits != b.bits),
        "<" | ">" | "<=" | ">=" => {
            let ord = if unsigned {
                a.bits.cmp(&b.bits)
            } else {
                sa.cmp(&sb)
            };
            truth(match op {
                "<" => ord.is_lt(),
                ">" => ord.is_gt(),
                "<=" => ord.is_le(),
                _ => ord.is_ge(),
            })
        }
        // The shifted value keeps its own type; the count is taken mod 64.
        "<<" => Some(Num {
            bits: a.bits.wrapping_shl(b.bits as u32),
            unsigned: a.unsigned,
        }),
        ">>" => Some(Num {
            bits: if a.unsigned {
                a.bits.wrapping_shr(b.bits as u32)
            } else {
                sa.wrapping_shr(b.bits as u32) as u64
            },
            unsigned: a.unsigned,
        }),
        "+" => num(a.bits.wrapping_add(b.bits)),
        "-" => num(a.bits.wrapping_sub(b.bits)),
        "*" => num(a.bits.wrapping_mul(b.bits)),
        "/" | "%" => {
            if b.bits == 0 {
                return None;
            }
            let bits = match (unsigned, op) {
                (true, "/") => a.bits / b.bits,
                (true, _) => a.bits % b.bits,
                (false, "/") => sa.wrapping_div(sb) as u64,
                (false, _) => sa.wrapping_rem(sb) as u64,
            };
            num(bits)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    struct TestEnv {
        defs: HashMap<String, Arc<MacroDef>>,
        unknown: Vec<&'static str>,
    }

    impl Env for TestEnv {
        fn macro_state(&self, name: &str) -> MacroState {
            if let Some(d) = self.defs.get(name) {
                return MacroState::Def(d.clone());
            }
            if self.unknown.contains(&name) {
                return MacroState::Unknown;
            }
            if name.starts_with("__has_") {
                return MacroState::Builtin;
            }
            MacroState::Undefined
        }
        fn has_include(&self, name: &str, _angled: bool) -> Option<bool> {
            match name {
                "stdio.h" => Some(true),
                "windows.h" => Some(false),
                _ => None,
            }
        }
        fn query(&self, function: &str, argument: &str) -> Option<i64> {
            (function == "__has_builtin" && argument == "__builtin_clz").then_some(1)
        }
        fn cpp(&self) -> bool {
            true
        }
    }

    fn env(defines: &[&str], unknown: &[&'static str]) -> TestEnv {
        TestEnv {
            defs: defines
                .iter()
                .map(|d| {
                    let (n, m) = parse_define(d).expect("a define");
                    (n.to_string(), Arc::new(m))
                })
                .collect(),
            unknown: unknown.to_vec(),
        }
    }

    fn eval(text: &str, e: &TestEnv) -> Tri {
        evaluate(&tokens(text), e)
    }

    #[test]
    fn arithmetic_comparison_logic_and_conditional() {
        let e = env(&[], &[]);
        for (text, want) in [
            ("1 + 2 * 3 == 7", Tri::True),
            ("(1 << 4) - 1 == 0xf", Tri::True),
            ("-1 < 0", Tri::True),
            ("-1 < 0u", Tri::False),
            ("18446744073709551615 == -1", Tri::True),
            ("10 / 3 == 3 && 10 % 3 == 1", Tri::True),
            ("1 ? 2 : 0", Tri::True),
            ("0 ? 2 : 0", Tri::False),
            ("!0 && ~0 == -1", Tri::True),
            (
                "'a' == 97 && '\\n' == 10 && '\\xff' < 0 && L'\\xff' == 255",
                Tri::True,
            ),
            ("'ab' == 0x6162", Tri::True),
            ("1'000 == 1000 && 0b101 == 5 && 010 == 8", Tri::True),
            ("(2 || 1 / 0)", Tri::True),
            ("1 / 0", Tri::Unknown),
            ("1 +", Tri::Unknown),
            ("1.5", Tri::Unknown),
            ("true && not false", Tri::True),
            ("(1, 0)", Tri::False),
        ] {
            assert_eq!(eval(text, &e), want, "{text}");
        }
    }

    #[test]
    fn macros_expand_to_their_values() {
        let e = env(
            &[
                "VERSION 201703L",
                "GCC (__GNUC__ * 100 + MINOR)",
                "__GNUC__ 4",
                "MINOR 2",
                "HAS(x) __has_builtin(x)",
                "CAT(a, b) a ## b",
                "STR(x) #x",
                "SELF SELF",
                "ARGS(...) (0, __VA_ARGS__)",
                "GNU(fmt, ...) F(fmt, ## __VA_ARGS__)",
                "F(a) a",
            ],
            &[],
        );
        for (text, want) in [
            ("VERSION >= 201703L", Tri::True),
            ("GCC == 402", Tri::True),
            ("HAS(__builtin_clz)", Tri::True),
            ("CAT(VER, SION) == 201703", Tri::True),
            ("CAT(1, 2) == 12", Tri::True),
            ("SELF", Tri::False),
            ("ARGS(1, 2) == 2", Tri::True),
            ("GNU(3) == 3", Tri::True),
            ("UNDEFINED_NAME", Tri::False),
            (
                "defined VERSION && defined(GCC) && !defined(NOPE)",
                Tri::True,
            ),
            ("F", Tri::False),
        ] {
            assert_eq!(eval(text, &e), want, "{text}");
        }
        assert_eq!(eval("STR(a b) == 0", &e), Tri::Unknown);
    }

    #[test]
    fn unknowns_stay_unknown_unless_logic_decides() {
        let e = env(&["WRAP(x) x", "U_ALIAS U"], &["U"]);
        for (text, want) in [
            ("U", Tri::Unknown),
            ("defined(U)", Tri::Unknown),
            ("U_ALIAS + 1", Tri::Unknown),
            ("WRAP(U) || 1", Tri::True),
            ("0 && U", Tri::False),
            ("U && 0", Tri::False),
            ("U ? 1 : 1", Tri::True),
            ("U ? 1 : 0", Tri::Unknown),
            (
                "__has_include(<stdio.h>) && !__has_include(<windows.h>)",
                Tri::True,
            ),
            ("__has_include(\"other.h\")", Tri::Unknown),
            ("__has_builtin(__builtin_nope)", Tri::Unknown),
            ("__has_builtin(U)", Tri::Unknown),
        ] {
            assert_eq!(eval(text, &e), want, "{text}");
        }
    }

    #[test]
    fn defines_read_function_like_only_without_a_space() {
        let (n, d) = parse_define("F(a, b) a + b").unwrap();
        assert_eq!((&*n, d.function_like, d.params.len()), ("F", true, 2));
        let (_, d) = parse_define("O (a) a").unwrap();
        assert!(!d.function_like);
        let (_, d) = parse_define("V(fmt, args...) f(fmt, args)").unwrap();
        assert!(d.variadic);
        assert_eq!(&*d.params[1], "args");
        assert!(parse_define("1X").is_none());
    }
}
