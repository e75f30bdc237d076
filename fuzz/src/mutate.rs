//! The mutations: what a hostile or merely odd tree does to a parser — bytes
//! flipped and cut, tokens of every grammar dropped in, a span repeated thousands of
//! times (tree-sitter's quadratic error recovery), brackets nested deep, line ends
//! rewritten, text of another seed spliced in. A seeded generator, so a run is
//! reproducible from its seed.

/// SplitMix64: small, fast, and the same sequence on every machine.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    pub fn chance(&mut self, one_in: usize) -> bool {
        self.below(one_in) == 0
    }

    /// Log-uniform in `1..=max`: small counts often, huge ones sometimes.
    pub fn count(&mut self, max: usize) -> usize {
        let bits = usize::BITS - max.max(1).leading_zeros();
        let limit = 1usize << self.below(bits as usize + 1).min(bits as usize);
        1 + self.below(limit.min(max))
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// No mutant grows past this: the quadratic inputs the probe found were 40–230 KB.
pub const MAX_MUTANT_BYTES: usize = 256 * 1024;

/// Tokens of every grammar, and the characters that trouble lexers.
const COMMON: &[&str] = &[
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    "<",
    ">",
    "\"",
    "'",
    "`",
    "\\",
    "/*",
    "*/",
    "//",
    "#",
    "\n",
    "\r",
    "\r\n",
    "\t",
    "\u{feff}",
    ";",
    ",",
    ".",
    "::",
    "->",
    "=>",
    ":",
    "=",
    "@",
    "$",
    "...",
    "?",
    "!",
    "&",
    "*",
    "|",
    "0x",
    "1e309",
    "\"\"\"",
    "'''",
    "${",
    "é",
    "漢",
    "🙂",
    "\u{0}",
    "f()",
    "a.b.c()",
    "x(y(z()))",
    "new A()",
    "A<A<A>>",
    "super().m()",
    "self.m()",
    "this.m()",
];

const PYTHON: &[&str] = &[
    "def f(x: A|B[C]) -> D:\n",
    "class C(B):\n",
    "lambda x: x",
    "async ",
    "await ",
    "yield ",
    "import a.b\n",
    "from . import x\n",
    "global x\n",
    "with a as b:\n",
    "try:\n",
    "except E as e:\n",
    "raise ",
    "match x:\n case 1:",
    "if TYPE_CHECKING:\n",
    "@decorator\n",
    "    ",
    "sys.version_info >= (3, 12)",
    "__all__ = ['f']\n",
    "setattr(a, 'b', c)\n",
];

const JAVA: &[&str] = &[
    "class A<T> extends B implements C {",
    "interface I {",
    "enum E { A, B; }",
    "record R(int x) {}",
    "new A<>()",
    "this.",
    "super.",
    "static ",
    "@Override ",
    "import java.util.*;",
    "package p;",
    "throws E",
    "(a) -> a",
    "A::m",
    "int[] a = {1};",
    "var x = ",
];

const GO: &[&str] = &[
    "func (r *T) M() {",
    "type T struct {",
    "interface {",
    "package main\n",
    "import \"fmt\"\n",
    "go f()",
    "defer g()",
    "chan int",
    "select {",
    "map[string]func(){",
    "//go:build linux\n",
    "x := T{}",
    "func[T any](x T) T",
    "module example.com/m\n",
];

const RUST: &[&str] = &[
    "fn f<T: Tr>(x: T) -> T {",
    "impl<T> Tr for S<T> {",
    "trait Tr {",
    "struct S;",
    "enum E {",
    "mod m {",
    "use crate::a::b;",
    "macro_rules! m { ($x:expr) => { $x } }",
    "pub ",
    "Self::",
    "crate::",
    "super::",
    "dyn ",
    "where T: Tr",
    "'a",
    "#[cfg(test)]",
    "::<T>",
    "unsafe {",
    "async move {",
    "m!(f())",
    "#[cfg(feature = \"x\")]",
    "[features]\ndefault = [\"x\"]\n",
];

const C_FAMILY: &[&str] = &[
    "#define X(a) a(",
    "#include \"a.h\"\n",
    "#if 0\n",
    "#endif\n",
    "#ifdef X\n",
    "template<typename T>",
    "namespace n {",
    "class C : public B {",
    "struct S {",
    "operator()",
    "virtual ",
    "typedef ",
    "static ",
    "r += :add [import]",
    "(*fp)(x)",
    "a->b->c()",
    "std::vector<int>",
    "using namespace std;",
    "extern \"C\" {",
];

const SCRIPT: &[&str] = &[
    "function f(a, b) {",
    "=> ",
    "class A extends B {",
    "import { a } from './a';",
    "export default ",
    "require('./x')",
    "module.exports = ",
    "new ",
    "this.",
    "super(",
    "async ",
    "await ",
    "yield ",
    "interface I {",
    "type T = ",
    "enum E {",
    "namespace N {",
    "declare ",
    "<div>",
    "</div>",
    "`${x}`",
    " as ",
    " satisfies ",
    "/re/g",
    "?.",
    "??",
];

/// The dictionary of a target: the common tokens and its grammar's.
pub fn dictionary(target: &str) -> Vec<&'static str> {
    let own: &[&str] = match target {
        "python" => PYTHON,
        "java" => JAVA,
        "go" => GO,
        "rust" => RUST,
        "c" | "cpp" => C_FAMILY,
        _ => SCRIPT,
    };
    COMMON.iter().chain(own).copied().collect()
}

/// JSON that bends the report and truth readers.
pub const JSON_TOKENS: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    "\"",
    ",",
    ":",
    "null",
    "true",
    "false",
    "-1",
    "0",
    "1e999",
    "4294967296",
    "18446744073709551616",
    "\"in_tree\"",
    "\"outside\"",
    "\"undetermined\"",
    "\"unresolved\"",
    "\"placed_by\"",
    "\"telepathy\"",
    "\"target\"",
    "\"entity\"",
    "\"line\"",
    "\"column\"",
    "\"file\"",
    "\"name\"",
    "\"sites\"",
    "\"calls\"",
    "\"\\u0000\"",
    "\"\\ud800\"",
    "\u{feff}",
    "[[[[[[[[",
    "]]]]]]]]",
    "\"callgraph-report/1\"",
    "\"callgraph-truth/1\"",
];

/// One mutation of `bytes`, drawing tokens from `dictionary` and spliced text from
/// `donor`.
pub fn mutate_once(rng: &mut Rng, bytes: &mut Vec<u8>, dictionary: &[&str], donor: &[u8]) {
    let len = bytes.len();
    let at = rng.below(len + 1);
    match rng.below(12) {
        0 if len > 0 => {
            let i = rng.below(len);
            bytes[i] = if rng.chance(4) {
                rng.next() as u8
            } else {
                b' ' + rng.below(95) as u8
            };
        }
        1 if len > 0 => {
            let n = rng.count((len - at.min(len)).max(1)).min(len - at.min(len));
            bytes.drain(at..at + n);
        }
        2 | 3 => {
            let token = rng.pick(dictionary).as_bytes();
            bytes.splice(at..at, token.iter().copied());
        }
        4 if len > 0 => {
            // A span repeated: the shape of every quadratic input the probe found.
            let start = rng.below(len);
            let n = rng.count(64).min(len - start);
            let span = bytes[start..start + n].to_vec();
            let times = rng.count(5_000);
            let mut inserted = Vec::with_capacity(span.len() * times);
            for _ in 0..times {
                inserted.extend_from_slice(&span);
            }
            bytes.splice(start..start, inserted);
        }
        5 => {
            let open = *rng.pick(&["(", "[", "{", "<", "\"", "f(", "A<", "a."]);
            let close = match open {
                "(" | "f(" => ")",
                "[" => "]",
                "{" => "}",
                "<" | "A<" => ">",
                _ => "",
            };
            let depth = rng.count(20_000);
            let end = at + rng.below(len - at + 1);
            let mut out = bytes[..at].to_vec();
            out.extend(open.repeat(depth).into_bytes());
            out.extend_from_slice(&bytes[at..end]);
            if rng.chance(2) {
                out.extend(close.repeat(depth).into_bytes());
            }
            out.extend_from_slice(&bytes[end..]);
            *bytes = out;
        }
        6 if !donor.is_empty() => {
            let start = rng.below(donor.len());
            let n = rng.count(512).min(donor.len() - start);
            bytes.splice(at..at, donor[start..start + n].iter().copied());
        }
        7 => {
            let text = String::from_utf8_lossy(bytes).into_owned();
            let rewritten = match rng.below(3) {
                0 => text.replace('\n', "\r\n"),
                1 => text.replace('\n', "\r"),
                _ => format!("\u{feff}{text}"),
            };
            *bytes = rewritten.into_bytes();
        }
        8 => rename_identifier(rng, bytes, dictionary),
        9 if len > 0 => bytes.truncate(at),
        10 if len > 1 => {
            // Two lines swapped.
            let text = String::from_utf8_lossy(bytes).into_owned();
            let mut lines: Vec<&str> = text.split('\n').collect();
            let (a, b) = (rng.below(lines.len()), rng.below(lines.len()));
            lines.swap(a, b);
            *bytes = lines.join("\n").into_bytes();
        }
        _ => {
            let token = rng.pick(dictionary).as_bytes();
            let times = rng.count(200);
            for _ in 0..times {
                let at = rng.below(bytes.len() + 1);
                bytes.splice(at..at, token.iter().copied());
            }
        }
    }
    bytes.truncate(MAX_MUTANT_BYTES);
}

/// Every occurrence of one identifier-like word replaced by a token (a keyword, a
/// bracket): a declaration renamed, a call turned into syntax.
fn rename_identifier(rng: &mut Rng, bytes: &mut Vec<u8>, dictionary: &[&str]) {
    let text = String::from_utf8_lossy(bytes).into_owned();
    let words: Vec<&str> = text
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| w.len() > 1 && !w.starts_with(|c: char| c.is_ascii_digit()))
        .collect();
    if words.is_empty() {
        return;
    }
    let word = *rng.pick(&words);
    let by = if rng.chance(2) {
        (*rng.pick(dictionary)).to_string()
    } else {
        (*rng.pick(&words)).to_string()
    };
    *bytes = text.replace(word, &by).into_bytes();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_gives_the_same_mutants() {
        let run = |seed| {
            let mut rng = Rng::new(seed);
            let mut bytes = b"def f():\n    g()\n".to_vec();
            for _ in 0..50 {
                mutate_once(
                    &mut rng,
                    &mut bytes,
                    &dictionary("python"),
                    b"class A: pass",
                );
            }
            bytes
        };
        assert_eq!(run(7), run(7));
        assert_ne!(run(7), run(8));
        assert!(run(7).len() <= MAX_MUTANT_BYTES);
    }
}
