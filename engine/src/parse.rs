//! Parse + extract, in parallel, one tree-sitter parse per file. The frontend turns
//! the tree into FileFacts while it is alive; the tree is dropped right after.
//!
//! Every parse runs within a budget (docs/REPORT.md, "Limits"): tree-sitter's
//! error recovery is quadratic on some inputs (14 minutes for a 2 MiB Python file of
//! comments, 13 s for 40 KB of TypeScript quotes), so a parse past its time, or a
//! tree past its size, is abandoned and the file is recorded as `parse_budget`.
//!
//! The time is checked in two places. Tree-sitter's progress callback cancels the
//! parse itself; but the callback is not called while tree-sitter accepts a finished
//! parse, and that step alone took 139 s on 34 KB of Java `A<A<A<…` (a fuzz
//! finding). So the parse runs on a thread of its own, and the worker waits for it
//! no longer than the budget: a parse still running then is left to finish on its
//! own, its file is `parse_budget`, and the run goes on.

use std::cell::Cell;
use std::sync::Arc;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::discover::SourceFile;
use crate::facts::FileFacts;
use crate::lang::{Language, TreeWide};
use crate::limits::Limits;

/// `tree_wide` is what a frontend needs from the whole tree (the configuration,
/// the build files, C/C++ macros), read once before any file is parsed.
pub fn extract_all(files: &[SourceFile], tree_wide: &TreeWide, limits: &Limits) -> Vec<FileFacts> {
    files
        .par_iter()
        .map(|f| extract_one(f, tree_wide, limits))
        .collect()
}

fn extract_one(file: &SourceFile, tree_wide: &TreeWide, limits: &Limits) -> FileFacts {
    // C/C++: the bytes with the branches the build leaves out blanked and
    // visibility macros masked (same length, same positions).
    let prepared = file.language.prepare(&file.path, &file.bytes, tree_wide);
    let bytes = prepared.as_deref().unwrap_or(&file.bytes);
    let mut facts = match parse_guarded(file.language, bytes, &Budget::of(limits)) {
        Parsed::Tree(tree) => file
            .language
            .extract_with(&file.path, bytes, &tree, tree_wide),
        Parsed::OverBudget => FileFacts {
            over_parse_budget: true,
            ..FileFacts::new(&file.path, file.language)
        },
        Parsed::Failed => empty_facts(&file.path, file.language),
    };
    facts.finish();
    facts
}

/// What one file's parse may spend.
#[derive(Debug, Clone, Copy)]
pub struct Budget {
    pub time: Duration,
    pub max_nodes: u64,
}

impl Budget {
    pub fn of(limits: &Limits) -> Budget {
        Budget {
            time: Duration::from_millis(limits.parse_time_ms),
            max_nodes: limits.max_tree_nodes,
        }
    }

    /// No bound (the benchmark's baseline and tests that parse a snippet).
    pub fn unbounded() -> Budget {
        Budget {
            time: Duration::MAX,
            max_nodes: u64::MAX,
        }
    }
}

/// The result of one bounded parse.
pub enum Parsed {
    Tree(tree_sitter::Tree),
    /// The parse ran past its time, or the tree has more nodes than the budget.
    OverBudget,
    /// The grammar could not be loaded or tree-sitter gave no tree.
    Failed,
}

/// How long past its budget a parse may take before its worker stops waiting: the
/// callback normally cancels it first, at the budget itself.
const GUARD_GRACE: Duration = Duration::from_secs(1);

/// [`parse_within`] on a thread of its own, waited for no longer than the budget
/// (plus [`GUARD_GRACE`]); see the module comment. Where no thread can be started,
/// the parse runs here, bounded by the callback alone.
pub fn parse_guarded(language: Language, bytes: &[u8], budget: &Budget) -> Parsed {
    let owned: Arc<[u8]> = Arc::from(bytes);
    let (send, receive) = std::sync::mpsc::channel();
    let job = {
        let (budget, owned) = (*budget, owned.clone());
        move || {
            let mut parser = tree_sitter::Parser::new();
            let parsed = parse_within(&mut parser, language, &owned, &budget);
            // The receiver is gone when the worker stopped waiting.
            let _ = send.send(parsed);
        }
    };
    let started = std::thread::Builder::new()
        .name("parse".into())
        .spawn(job)
        .is_ok();
    if !started {
        let mut parser = tree_sitter::Parser::new();
        return parse_within(&mut parser, language, &owned, budget);
    }
    match receive.recv_timeout(budget.time.saturating_add(GUARD_GRACE)) {
        Ok(parsed) => parsed,
        Err(std::sync::mpsc::RecvTimeoutError::Timeout) => Parsed::OverBudget,
        Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => Parsed::Failed,
    }
}

/// One parse within `budget`. Tree-sitter calls the progress callback every hundred
/// parse operations; returning `true` there cancels the parse.
pub fn parse_within(
    parser: &mut tree_sitter::Parser,
    language: Language,
    bytes: &[u8],
    budget: &Budget,
) -> Parsed {
    if parser
        .set_language(&language.tree_sitter_language())
        .is_err()
    {
        return Parsed::Failed;
    }
    let deadline = Instant::now().checked_add(budget.time);
    let cancelled = Cell::new(false);
    let mut past_deadline = |_: &tree_sitter::ParseState| {
        let over = deadline.is_some_and(|d| Instant::now() > d);
        cancelled.set(over);
        over
    };
    let options = tree_sitter::ParseOptions::new().progress_callback(&mut past_deadline);
    let mut read = |offset: usize, _| &bytes[offset.min(bytes.len())..];
    let tree = parser.parse_with_options(&mut read, None, Some(options));
    if cancelled.get() {
        // A cancelled parser resumes where it stopped unless it is reset.
        parser.reset();
        return Parsed::OverBudget;
    }
    match tree {
        Some(tree) if tree.root_node().descendant_count() as u64 > budget.max_nodes => {
            Parsed::OverBudget
        }
        Some(tree) => Parsed::Tree(tree),
        None => Parsed::Failed,
    }
}

/// One parse, nothing else, unbounded (the benchmark's baseline).
pub fn parse_only(
    parser: &mut tree_sitter::Parser,
    language: Language,
    bytes: &[u8],
) -> Option<tree_sitter::Tree> {
    match parse_within(parser, language, bytes, &Budget::unbounded()) {
        Parsed::Tree(tree) => Some(tree),
        Parsed::OverBudget | Parsed::Failed => None,
    }
}

/// A lone carriage return (old Mac line ends) made a line end: tree-sitter counts
/// rows on `\n` only, so without this every position of such a file is on line 1,
/// while the languages' compilers count a lone CR as a line end (D17). CRLF is left
/// as it is; the length never changes, so byte columns stay right. `None` when the
/// file has no lone CR (the common case costs one scan and no copy).
pub fn lone_cr_as_lf(bytes: &[u8]) -> Option<Vec<u8>> {
    let lone = |i: usize| bytes[i] == b'\r' && bytes.get(i + 1) != Some(&b'\n');
    let first = (0..bytes.len()).find(|&i| lone(i))?;
    let mut out = bytes.to_vec();
    for (i, byte) in out.iter_mut().enumerate().skip(first) {
        if bytes[i] == b'\r' && bytes.get(i + 1) != Some(&b'\n') {
            *byte = b'\n';
        }
    }
    Some(out)
}

/// The facts of a file the parser gave up on: no declarations, one parse error.
fn empty_facts(path: &str, language: Language) -> FileFacts {
    FileFacts {
        parse_errors: 1,
        ..FileFacts::new(path, language)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lone_carriage_returns_become_line_feeds_and_crlf_stays() {
        assert_eq!(lone_cr_as_lf(b"a\nb\r\nc"), None);
        assert_eq!(
            lone_cr_as_lf(b"a\rb\r\nc\r").as_deref(),
            Some(&b"a\nb\r\nc\n"[..])
        );
    }

    #[test]
    fn a_parse_past_its_time_is_over_budget_and_the_parser_is_usable_again() {
        // D5: 4 000 unclosed quotes cost TypeScript's error recovery quadratic time;
        // a budget of zero milliseconds stops it at the first progress check.
        let source = "\"".repeat(4_000);
        let mut parser = tree_sitter::Parser::new();
        let zero = Budget {
            time: Duration::ZERO,
            max_nodes: u64::MAX,
        };
        let parsed = parse_within(&mut parser, Language::TypeScript, source.as_bytes(), &zero);
        assert!(matches!(parsed, Parsed::OverBudget));
        let parsed = parse_within(
            &mut parser,
            Language::TypeScript,
            b"f();\n",
            &Budget::unbounded(),
        );
        let Parsed::Tree(tree) = parsed else {
            panic!("the parser was not reset after the cancelled parse");
        };
        assert_eq!(
            tree.root_node()
                .to_sexp()
                .matches("call_expression")
                .count(),
            1
        );
    }

    #[test]
    fn a_tree_larger_than_the_node_budget_is_over_budget() {
        let mut parser = tree_sitter::Parser::new();
        let small = Budget {
            time: Duration::MAX,
            max_nodes: 10,
        };
        let source = "f();\n".repeat(100);
        let parsed = parse_within(&mut parser, Language::Python, source.as_bytes(), &small);
        assert!(matches!(parsed, Parsed::OverBudget));
    }
}
