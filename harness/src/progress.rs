//! Progress on long work: an indicatif bar when stderr is a terminal, plain lines
//! otherwise (CI logs), nothing in tests.

use std::cell::Cell;
use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressStyle};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Bar,
    Plain,
    Quiet,
}

/// Where progress goes.
#[derive(Debug, Clone, Copy)]
pub struct Progress {
    mode: Mode,
}

impl Progress {
    /// A bar on a terminal, plain lines on anything else.
    pub fn on_stderr() -> Progress {
        let mode = if std::io::stderr().is_terminal() {
            Mode::Bar
        } else {
            Mode::Plain
        };
        Progress { mode }
    }

    /// No progress output (tests, library use).
    pub fn quiet() -> Progress {
        Progress { mode: Mode::Quiet }
    }

    /// Starts a task of `len` steps.
    pub fn task(&self, label: &str, len: u64) -> Task {
        let bar = (self.mode == Mode::Bar).then(|| {
            let bar = ProgressBar::new(len);
            let style = ProgressStyle::with_template("{prefix:>16} [{bar:30}] {pos}/{len} {msg}")
                .expect("a valid template")
                .progress_chars("=> ");
            bar.set_style(style);
            bar.set_prefix(label.to_string());
            bar
        });
        Task {
            bar,
            plain: self.mode == Mode::Plain,
            label: label.to_string(),
            len,
            done: Cell::new(0),
        }
    }

    /// A line for the person watching (above the bar, or plain).
    pub fn note(&self, line: &str) {
        if self.mode != Mode::Quiet {
            eprintln!("{line}");
        }
    }
}

/// One task's progress.
pub struct Task {
    bar: Option<ProgressBar>,
    plain: bool,
    label: String,
    len: u64,
    done: Cell<u64>,
}

impl Task {
    /// Announces the step about to run.
    pub fn step(&self, item: &str) {
        self.done.set(self.done.get() + 1);
        if let Some(bar) = &self.bar {
            bar.set_message(item.to_string());
            bar.set_position(self.done.get() - 1);
        } else if self.plain {
            eprintln!("[{}/{}] {}: {item}", self.done.get(), self.len, self.label);
        }
    }

    /// A line printed without breaking the bar.
    pub fn note(&self, line: &str) {
        match &self.bar {
            Some(bar) => bar.println(line),
            None if self.plain => eprintln!("{line}"),
            None => {}
        }
    }

    /// Runs `write` with the bar hidden, so lines printed to stdout do not tear it.
    pub fn suspend<T>(&self, write: impl FnOnce() -> T) -> T {
        match &self.bar {
            Some(bar) => bar.suspend(write),
            None => write(),
        }
    }

    pub fn finish(self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
