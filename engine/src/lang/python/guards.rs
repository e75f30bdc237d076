//! Python's static guards, evaluated for the interpreter the run is configured for
//! (`Configuration.python`: 3.11 on linux by default), the way a type checker and
//! the interpreter read them:
//!
//! - `if TYPE_CHECKING:` (`typing.TYPE_CHECKING`, any `X.TYPE_CHECKING`) runs only
//!   under a type checker: its imports bind names for annotations only, and its
//!   `else:` is what runs. `not TYPE_CHECKING` the other way round.
//! - `sys.version_info` compared with a tuple of integers (`>= (3, 8)`, `< (3,)`),
//!   `sys.version_info[0]` / `[1]` / `.major` / `.minor` with an integer,
//!   `sys.version_info[:2]` with a tuple; `sys.platform == "linux"` / `!=`, and
//!   `sys.platform.startswith("win")` (a string or a tuple of strings).
//! - `not`, `and`, `or` of those, and `True` / `False`.
//!
//! Anything else is `Unknown`: both branches are kept, as the engine read them
//! before it evaluated any guard.

use tree_sitter::Node;

use crate::config::PythonConfig;
use crate::lang::node_text;
use crate::lang::python::types::attribute_path;

/// Conditions nested deeper than this (`not not not …`) are unknown.
const MAX_CONDITION_DEPTH: u32 = 32;

/// What a condition is for the configured interpreter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Condition {
    /// Known at run time.
    Known(bool),
    /// `TYPE_CHECKING`: false at run time, true for a type checker.
    TypeChecking,
    /// `not TYPE_CHECKING`: true at run time, false for a type checker.
    NotTypeChecking,
    Unknown,
}

impl Condition {
    fn not(self) -> Condition {
        match self {
            Condition::Known(b) => Condition::Known(!b),
            Condition::TypeChecking => Condition::NotTypeChecking,
            Condition::NotTypeChecking => Condition::TypeChecking,
            Condition::Unknown => Condition::Unknown,
        }
    }

    /// What the interpreter decides (`TYPE_CHECKING` is false when the code runs).
    pub fn at_run_time(self) -> Option<bool> {
        match self {
            Condition::Known(b) => Some(b),
            Condition::TypeChecking => Some(false),
            Condition::NotTypeChecking => Some(true),
            Condition::Unknown => None,
        }
    }
}

/// Reads `if` conditions of one file.
pub struct Guards<'s> {
    src: &'s [u8],
    python: &'s PythonConfig,
}

impl<'s> Guards<'s> {
    pub fn new(src: &'s [u8], python: &'s PythonConfig) -> Self {
        Guards { src, python }
    }

    fn text(&self, node: Node) -> &'s str {
        node_text(self.src, node)
    }

    /// What an `if`/`elif` condition is for the configured interpreter.
    pub fn condition(&self, node: Node) -> Condition {
        self.condition_at(node, 0)
    }

    fn condition_at(&self, node: Node, depth: u32) -> Condition {
        if depth > MAX_CONDITION_DEPTH {
            return Condition::Unknown;
        }
        match node.kind() {
            "parenthesized_expression" => match node.named_child(0) {
                Some(inner) => self.condition_at(inner, depth + 1),
                None => Condition::Unknown,
            },
            "true" => Condition::Known(true),
            "false" => Condition::Known(false),
            "identifier" | "attribute" if self.names_type_checking(node) => Condition::TypeChecking,
            "not_operator" => match node.child_by_field_name("argument") {
                Some(a) => self.condition_at(a, depth + 1).not(),
                None => Condition::Unknown,
            },
            "boolean_operator" => self.boolean(node, depth),
            "comparison_operator" => self
                .comparison(node)
                .map_or(Condition::Unknown, Condition::Known),
            "call" => self
                .platform_startswith(node)
                .map_or(Condition::Unknown, Condition::Known),
            _ => Condition::Unknown,
        }
    }

    /// `TYPE_CHECKING`, `typing.TYPE_CHECKING`, `t.TYPE_CHECKING`.
    fn names_type_checking(&self, node: Node) -> bool {
        attribute_path(self.src, node)
            .is_some_and(|p| p.last().is_some_and(|n| n == "TYPE_CHECKING"))
    }

    /// `a and b`, `a or b`: decided when the sides that decide it are known at
    /// run time.
    fn boolean(&self, node: Node, depth: u32) -> Condition {
        let (Some(l), Some(r)) = (
            node.child_by_field_name("left"),
            node.child_by_field_name("right"),
        ) else {
            return Condition::Unknown;
        };
        let is_and = node
            .child_by_field_name("operator")
            .is_some_and(|o| o.kind() == "and");
        let l = self.condition_at(l, depth + 1);
        let r = self.condition_at(r, depth + 1);
        // Only conditions known at run time combine: `TYPE_CHECKING or X` is
        // neither checker-only nor run-time only.
        let known = |c: Condition| match c {
            Condition::Known(b) => Some(b),
            _ => None,
        };
        match (known(l), known(r), is_and) {
            (Some(a), Some(b), true) => Condition::Known(a && b),
            (Some(a), Some(b), false) => Condition::Known(a || b),
            (Some(false), _, true) | (_, Some(false), true) => Condition::Known(false),
            (Some(true), _, false) | (_, Some(true), false) => Condition::Known(true),
            _ => Condition::Unknown,
        }
    }

    /// `sys.version_info OP (3, N)` and the platform comparisons, either way round.
    fn comparison(&self, node: Node) -> Option<bool> {
        let operands: Vec<Node> = crate::lang::syntax::named_children(node).collect();
        let [left, right] = operands[..] else {
            return None;
        };
        let op = comparison_operator(node)?;
        if let Some(v) = self.version_operand(left) {
            return compare(&v, op, &self.literal_operand(right)?);
        }
        if let Some(v) = self.version_operand(right) {
            return compare(&self.literal_operand(left)?, op, &v);
        }
        if self.is_platform(left) {
            return platform_compare(self.python.platform, op, &self.string(right)?);
        }
        if self.is_platform(right) {
            return platform_compare(self.python.platform, op, &self.string(left)?);
        }
        None
    }

    /// The interpreter's `sys.version_info`, or the part of it written.
    fn version_operand(&self, node: Node) -> Option<Operand> {
        let v = self.python.version;
        let full = Operand::Version(vec![v.major as i64, v.minor as i64]);
        match node.kind() {
            "attribute" => match attribute_path(self.src, node)?.as_slice() {
                [s, vi] if s == "sys" && vi == "version_info" => Some(full),
                [s, vi, m] if s == "sys" && vi == "version_info" => match m.as_str() {
                    "major" => Some(Operand::Int(v.major as i64)),
                    "minor" => Some(Operand::Int(v.minor as i64)),
                    _ => None,
                },
                _ => None,
            },
            "subscript" => {
                let value = node.child_by_field_name("value")?;
                let is_version =
                    attribute_path(self.src, value).is_some_and(|p| p == ["sys", "version_info"]);
                if !is_version {
                    return None;
                }
                let subs: Vec<Node> = node
                    .children_by_field_name("subscript", &mut node.walk())
                    .collect();
                let [sub] = subs[..] else {
                    return None;
                };
                match sub.kind() {
                    "integer" => match self.text(sub) {
                        "0" => Some(Operand::Int(v.major as i64)),
                        "1" => Some(Operand::Int(v.minor as i64)),
                        _ => None,
                    },
                    // `[:2]` is exactly (major, minor); `[:1]` the major alone.
                    "slice" => match self.text(sub).replace(' ', "").as_str() {
                        ":2" | "0:2" => Some(Operand::Exact(vec![v.major as i64, v.minor as i64])),
                        ":1" | "0:1" => Some(Operand::Exact(vec![v.major as i64])),
                        _ => None,
                    },
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// A tuple of integer literals or one integer literal (in any parentheses,
    /// unwrapped by a loop: a file may nest them deeper than a stack).
    fn literal_operand(&self, node: Node) -> Option<Operand> {
        let mut node = node;
        while node.kind() == "parenthesized_expression" {
            node = node.named_child(0)?;
        }
        match node.kind() {
            "integer" => Some(Operand::Int(self.text(node).parse().ok()?)),
            "tuple" => {
                let mut out = Vec::new();
                for c in crate::lang::syntax::named_children(node) {
                    if c.kind() != "integer" {
                        return None;
                    }
                    out.push(self.text(c).parse().ok()?);
                }
                Some(Operand::Exact(out))
            }
            _ => None,
        }
    }

    fn is_platform(&self, node: Node) -> bool {
        node.kind() == "attribute"
            && attribute_path(self.src, node).is_some_and(|p| p == ["sys", "platform"])
    }

    fn string(&self, node: Node) -> Option<String> {
        (node.kind() == "string")
            .then(|| crate::lang::python::types::plain_string(self.src, node))
            .flatten()
    }

    /// `sys.platform.startswith("win")` / `.startswith(("linux", "darwin"))`.
    fn platform_startswith(&self, node: Node) -> Option<bool> {
        let function = node.child_by_field_name("function")?;
        if function.kind() != "attribute" {
            return None;
        }
        let path = attribute_path(self.src, function)?;
        if path != ["sys", "platform", "startswith"] {
            return None;
        }
        let args: Vec<Node> =
            crate::lang::syntax::named_children(node.child_by_field_name("arguments")?).collect();
        let [arg] = args[..] else {
            return None;
        };
        let prefixes: Vec<String> = match arg.kind() {
            "string" => vec![self.string(arg)?],
            "tuple" => crate::lang::syntax::named_children(arg)
                .map(|c| self.string(c))
                .collect::<Option<Vec<_>>>()?,
            _ => return None,
        };
        Some(
            prefixes
                .iter()
                .any(|p| self.python.platform.starts_with(p.as_str())),
        )
    }
}

/// One side of a version comparison.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Operand {
    /// `sys.version_info` itself: major and minor known, the rest (micro, release
    /// level) not.
    Version(Vec<i64>),
    /// A tuple whose every element is known (a literal, `version_info[:2]`).
    Exact(Vec<i64>),
    Int(i64),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
}

fn comparison_operator(node: Node) -> Option<Op> {
    let mut ops = Vec::new();
    for i in 0..node.child_count() {
        let c = node.child(i)?;
        if !c.is_named() {
            ops.push(match c.kind() {
                "<" => Op::Lt,
                "<=" => Op::Le,
                ">" => Op::Gt,
                ">=" => Op::Ge,
                "==" => Op::Eq,
                "!=" => Op::Ne,
                _ => return None,
            });
        }
    }
    match ops[..] {
        [op] => Some(op),
        _ => None,
    }
}

/// `a OP b` for the version operands, where the outcome is decided by what is
/// known: `sys.version_info` against `(3, 11, 2)` is not (the micro version is not
/// configured), against `(3, 8)` or `(3, 12, 1)` it is.
fn compare(a: &Operand, op: Op, b: &Operand) -> Option<bool> {
    let ordering = match (a, b) {
        (Operand::Int(x), Operand::Int(y)) => x.cmp(y),
        (Operand::Version(v), Operand::Exact(t)) => version_vs_tuple(v, t)?,
        (Operand::Exact(t), Operand::Version(v)) => version_vs_tuple(v, t)?.reverse(),
        (Operand::Exact(x), Operand::Exact(y)) => x.cmp(y),
        _ => return None,
    };
    use std::cmp::Ordering::*;
    Some(match op {
        Op::Lt => ordering == Less,
        Op::Le => ordering != Greater,
        Op::Gt => ordering == Greater,
        Op::Ge => ordering != Less,
        Op::Eq => ordering == Equal,
        Op::Ne => ordering != Equal,
    })
}

/// The running version (5 elements, of which `known` are configured) against a
/// literal tuple, lexicographically as Python compares tuples.
fn version_vs_tuple(known: &[i64], tuple: &[i64]) -> Option<std::cmp::Ordering> {
    for (i, t) in tuple.iter().enumerate() {
        let Some(k) = known.get(i) else {
            // The tuple goes on where the configuration says nothing.
            return None;
        };
        match k.cmp(t) {
            std::cmp::Ordering::Equal => continue,
            other => return Some(other),
        }
    }
    // Every written element matched, and `sys.version_info` has more: greater.
    Some(std::cmp::Ordering::Greater)
}

fn platform_compare(platform: &str, op: Op, written: &str) -> Option<bool> {
    match op {
        Op::Eq => Some(platform == written),
        Op::Ne => Some(platform != written),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cmp::Ordering::*;

    #[test]
    fn the_running_version_compares_as_a_longer_tuple() {
        assert_eq!(version_vs_tuple(&[3, 11], &[3, 8]), Some(Greater));
        assert_eq!(version_vs_tuple(&[3, 11], &[3, 11]), Some(Greater));
        assert_eq!(version_vs_tuple(&[3, 11], &[3, 12]), Some(Less));
        assert_eq!(version_vs_tuple(&[3, 11], &[3]), Some(Greater));
        assert_eq!(version_vs_tuple(&[3, 11], &[3, 11, 2]), None);
        assert_eq!(version_vs_tuple(&[3, 11], &[3, 12, 1]), Some(Less));
        assert_eq!(version_vs_tuple(&[3, 11], &[4, 0, 0]), Some(Less));
    }
}
