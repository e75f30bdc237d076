//! `fuzz`: mutation fuzzing of every frontend (one target per language, driving
//! `engine::analyze` on generated trees) and of the harness's report and truth
//! readers and scorer. `make test` runs each target for a few seconds; `make fuzz
//! FUZZ_SECONDS=N` for as long as asked.
//!
//! A finding fails the run (exit 1) and is saved under `--work`/findings with what
//! it was: a panic, an analysis that ran past its budget (the per-file parse budget
//! times the files, plus a margin for the stages after parsing), or a report that
//! differs between one and two threads. A crash that kills the process (a stack
//! overflow) leaves the input in `--work`/TARGET/current. Every finding becomes a
//! regression test (engine/tests/fuzz_findings.rs).

mod mutate;
mod seeds;

use std::io::Write;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::Parser;

use mutate::{dictionary, mutate_once, Rng, JSON_TOKENS};
use seeds::{donors, extension_of, language_seeds, reader_seeds, Tree, LANGUAGE_TARGETS};

/// Mutation fuzzing of the frontends and of the report and truth readers.
#[derive(Parser)]
#[command(name = "fuzz")]
struct Cli {
    /// Seconds per target.
    #[arg(long, default_value_t = 3)]
    seconds: u64,
    /// Only these targets (repeatable): a language, `report` or `truth`.
    #[arg(long = "target")]
    targets: Vec<String>,
    /// The generator's seed; the same seed gives the same inputs.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Where inputs are written and findings saved.
    #[arg(long, default_value = "target/fuzz")]
    work: PathBuf,
    /// The repository (its proofs and fixtures are the seeds).
    #[arg(long, default_value = ".")]
    repo: PathBuf,
    /// The engine's per-file parse budget during fuzzing, in milliseconds.
    #[arg(long, default_value_t = 2_000)]
    parse_time_ms: u64,
    /// Append one JSON line of figures per target to this file.
    #[arg(long)]
    stats: Option<PathBuf>,
}

const READER_TARGETS: &[&str] = &["report", "truth"];

/// What one target's run counted.
#[derive(Debug, Default, Clone)]
struct Stats {
    inputs: u64,
    crashes: u64,
    timeouts: u64,
    thread_diffs: u64,
    /// Inputs with a file skipped as `parse_budget`: the budget working.
    budget_hits: u64,
    /// Runs refused with a typed error (`workload_too_large`).
    refusals: u64,
    /// Inputs of the readers that were refused as invalid (the expected answer).
    rejected: u64,
    slowest: f64,
    seconds: f64,
}

impl Stats {
    fn findings(&self) -> u64 {
        self.crashes + self.timeouts + self.thread_diffs
    }

    fn line(&self, target: &str) -> String {
        format!(
            "{target}: {} inputs in {:.0} s, {} crashes, {} timeouts, {} thread differences, \
             {} over the parse budget, {} refused, {} rejected, slowest {:.2} s",
            self.inputs,
            self.seconds,
            self.crashes,
            self.timeouts,
            self.thread_diffs,
            self.budget_hits,
            self.refusals,
            self.rejected,
            self.slowest
        )
    }

    fn json(&self, target: &str, seed: u64) -> String {
        serde_json::json!({
            "target": target, "seed": seed, "inputs": self.inputs, "seconds": self.seconds,
            "crashes": self.crashes, "timeouts": self.timeouts,
            "thread_differences": self.thread_diffs, "parse_budget": self.budget_hits,
            "refused": self.refusals, "rejected": self.rejected, "slowest": self.slowest,
        })
        .to_string()
    }
}

/// The watchdog's view of the running input: when it started (ms since the run
/// began; 0 when idle) and where its tree is.
struct Watch {
    started_ms: AtomicU64,
    epoch: Instant,
}

/// An input still running after this long is a hang: the watchdog saves it and ends
/// the process (in-process analysis cannot be interrupted).
const HANG: Duration = Duration::from_secs(300);

fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    let all: Vec<String> = LANGUAGE_TARGETS
        .iter()
        .map(|(t, _, _)| t.to_string())
        .chain(READER_TARGETS.iter().map(|t| t.to_string()))
        .collect();
    let targets = if cli.targets.is_empty() {
        all.clone()
    } else {
        cli.targets.clone()
    };
    if let Some(bad) = targets.iter().find(|t| !all.contains(t)) {
        eprintln!("fuzz: invalid_argument: no target `{bad}`; the targets are {all:?}");
        return std::process::ExitCode::from(2);
    }
    let watch = Arc::new(Watch {
        started_ms: AtomicU64::new(0),
        epoch: Instant::now(),
    });
    start_watchdog(watch.clone(), cli.work.clone());
    let donors = donors(&cli.repo);
    let mut findings = 0;
    for (i, target) in targets.iter().enumerate() {
        let mut rng = Rng::new(cli.seed.wrapping_mul(1000).wrapping_add(i as u64));
        let stats = if READER_TARGETS.contains(&target.as_str()) {
            fuzz_reader(&cli, target, &mut rng, &watch)
        } else {
            fuzz_language(&cli, target, &mut rng, &donors, &watch)
        };
        println!("{}", stats.line(target));
        if let Some(path) = &cli.stats {
            let line = format!("{}\n", stats.json(target, cli.seed));
            let appended = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .and_then(|mut f| f.write_all(line.as_bytes()));
            if let Err(e) = appended {
                eprintln!("fuzz: io_error: {}: {e}", path.display());
            }
        }
        findings += stats.findings();
    }
    if findings > 0 {
        eprintln!(
            "fuzz: {findings} finding(s) saved under {}",
            cli.work.join("findings").display()
        );
        return std::process::ExitCode::from(1);
    }
    std::process::ExitCode::SUCCESS
}

fn start_watchdog(watch: Arc<Watch>, work: PathBuf) {
    std::thread::spawn(move || loop {
        std::thread::sleep(Duration::from_secs(1));
        let started = watch.started_ms.load(Ordering::SeqCst);
        let now = watch.epoch.elapsed().as_millis() as u64;
        if started > 0 && now.saturating_sub(started) > HANG.as_millis() as u64 {
            eprintln!(
                "fuzz: an input ran past {} s; it is in {}/*/current",
                HANG.as_secs(),
                work.display()
            );
            std::process::exit(3);
        }
    });
}

impl Watch {
    fn begin(&self) {
        let now = self.epoch.elapsed().as_millis() as u64;
        self.started_ms.store(now.max(1), Ordering::SeqCst);
    }

    fn end(&self) {
        self.started_ms.store(0, Ordering::SeqCst);
    }
}

/// A seed tree, mutated: one or more of its files (mostly of the target's language)
/// changed one to four times, sometimes with another language's text added as a
/// file of this one.
fn mutant(rng: &mut Rng, seed: &Tree, ext: &str, dict: &[&str], donors: &[Vec<u8>]) -> Tree {
    let mut tree = seed.clone();
    if rng.chance(8) && !donors.is_empty() {
        tree.files
            .push((format!("foreign.{ext}"), rng.pick(donors).clone()));
    }
    let own: Vec<usize> = (0..tree.files.len())
        .filter(|&i| tree.files[i].0.ends_with(&format!(".{ext}")))
        .collect();
    for _ in 0..1 + rng.below(4) {
        let i = if own.is_empty() || rng.chance(10) {
            rng.below(tree.files.len())
        } else {
            *rng.pick(&own)
        };
        let donor = if donors.is_empty() {
            &[][..]
        } else {
            rng.pick(donors).as_slice()
        };
        mutate_once(rng, &mut tree.files[i].1, dict, donor);
    }
    tree
}

fn write_tree(dir: &Path, tree: &Tree) -> std::io::Result<()> {
    if dir.exists() {
        std::fs::remove_dir_all(dir)?;
    }
    std::fs::create_dir_all(dir)?;
    for (path, bytes) in &tree.files {
        let rel = Path::new(path);
        if rel.is_absolute() || path.contains("..") {
            continue;
        }
        let full = dir.join(rel);
        if let Some(parent) = full.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(full, bytes)?;
    }
    Ok(())
}

/// Copies the input of a finding, with a note of what it was, under findings/.
fn save_finding(work: &Path, target: &str, kind: &str, n: u64, tree: &Tree, note: &str) {
    let dir = work.join("findings").join(format!("{target}-{kind}-{n}"));
    let saved = write_tree(&dir.join("tree"), tree)
        .and_then(|()| std::fs::write(dir.join("info.txt"), note));
    match saved {
        Ok(()) => eprintln!("fuzz: {target}: {kind}: saved in {}", dir.display()),
        Err(e) => eprintln!("fuzz: {target}: {kind}: cannot save {}: {e}", dir.display()),
    }
}

fn engine_options(threads: usize, parse_time_ms: u64) -> engine::Options {
    let mut options = engine::Options {
        threads,
        ..engine::Options::default()
    };
    options.limits.parse_time_ms = parse_time_ms;
    options
}

/// Analyses `root` once; `None` when the analysis panicked.
fn analyse(root: &Path, threads: usize, parse_time_ms: u64) -> Option<Result<Vec<u8>, String>> {
    let options = engine_options(threads, parse_time_ms);
    catch_unwind(AssertUnwindSafe(|| {
        engine::analyze_to_json(root, &options).map_err(|e| e.to_string())
    }))
    .ok()
}

fn over_budget(report: &[u8]) -> bool {
    report
        .windows(b"\"parse_budget\"".len())
        .any(|w| w == b"\"parse_budget\"")
}

fn fuzz_language(
    cli: &Cli,
    target: &str,
    rng: &mut Rng,
    donors: &[Vec<u8>],
    watch: &Watch,
) -> Stats {
    let ext = extension_of(target).expect("a language target");
    let seeds = language_seeds(&cli.repo, target);
    let dict = dictionary(target);
    let current = cli.work.join(target).join("current");
    let mut stats = Stats::default();
    if seeds.is_empty() {
        eprintln!("fuzz: {target}: no seeds under {}", cli.repo.display());
        stats.crashes += 1;
        return stats;
    }
    let began = Instant::now();
    while began.elapsed() < Duration::from_secs(cli.seconds) {
        let seed = rng.pick(&seeds);
        let tree = mutant(rng, seed, ext, &dict, donors);
        if let Err(e) = write_tree(&current, &tree) {
            eprintln!("fuzz: io_error: {}: {e}", current.display());
            stats.crashes += 1;
            break;
        }
        stats.inputs += 1;
        let n = stats.inputs;
        // The budget is per file; the stages after parsing get a margin on top.
        let bound = Duration::from_millis(cli.parse_time_ms) * tree.files.len() as u32
            + Duration::from_secs(10);
        watch.begin();
        let started = Instant::now();
        let one = analyse(&current, 1, cli.parse_time_ms);
        let took = started.elapsed();
        watch.end();
        stats.slowest = stats.slowest.max(took.as_secs_f64());
        let Some(one) = one else {
            stats.crashes += 1;
            save_finding(
                &cli.work,
                target,
                "panic",
                n,
                &tree,
                "the analysis panicked\n",
            );
            continue;
        };
        if took > bound {
            stats.timeouts += 1;
            let note = format!(
                "analysis took {:.1} s, past its bound of {:.1} s\n",
                took.as_secs_f64(),
                bound.as_secs_f64()
            );
            save_finding(&cli.work, target, "timeout", n, &tree, &note);
        }
        let one = match one {
            Ok(report) => report,
            Err(_) => {
                stats.refusals += 1;
                continue;
            }
        };
        if over_budget(&one) {
            stats.budget_hits += 1;
            // Whether a file lands over a time budget depends on the machine's load,
            // so such reports are not compared across thread counts.
            continue;
        }
        if n % 8 == 0 {
            watch.begin();
            let two = analyse(&current, 2, cli.parse_time_ms);
            watch.end();
            match two {
                Some(Ok(two)) if two == one || over_budget(&two) => {}
                _ => {
                    stats.thread_diffs += 1;
                    save_finding(
                        &cli.work,
                        target,
                        "threads",
                        n,
                        &tree,
                        "one and two threads disagree\n",
                    );
                }
            }
        }
    }
    stats.seconds = began.elapsed().as_secs_f64();
    stats
}

/// What a reader target mutates: the report of a pair, or its truth.
fn fuzz_reader(cli: &Cli, target: &str, rng: &mut Rng, watch: &Watch) -> Stats {
    let seeds = reader_seeds(&cli.repo, 3);
    let mut stats = Stats::default();
    if seeds.is_empty() {
        eprintln!("fuzz: {target}: no seeds under {}", cli.repo.display());
        stats.crashes += 1;
        return stats;
    }
    let began = Instant::now();
    while began.elapsed() < Duration::from_secs(cli.seconds) {
        let seed = rng.pick(&seeds);
        let donor = &rng.pick(&seeds).report;
        let (mut report, mut truth) = (seed.report.clone(), seed.truth.clone());
        let mutated = if target == "report" {
            &mut report
        } else {
            &mut truth
        };
        for _ in 0..1 + rng.below(4) {
            mutate_once(rng, mutated, JSON_TOKENS, donor);
        }
        stats.inputs += 1;
        watch.begin();
        let started = Instant::now();
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            read_and_score(&report, &truth, &seed.language)
        }));
        let took = started.elapsed();
        watch.end();
        stats.slowest = stats.slowest.max(took.as_secs_f64());
        let tree = Tree {
            files: vec![("report.json".into(), report), ("truth.json".into(), truth)],
        };
        match outcome {
            Err(_) => {
                stats.crashes += 1;
                save_finding(
                    &cli.work,
                    target,
                    "panic",
                    stats.inputs,
                    &tree,
                    "reading or scoring panicked\n",
                );
            }
            Ok(false) => stats.rejected += 1,
            Ok(true) => {}
        }
        if took > Duration::from_secs(10) {
            stats.timeouts += 1;
            save_finding(
                &cli.work,
                target,
                "timeout",
                stats.inputs,
                &tree,
                "reading took more than 10 s\n",
            );
        }
    }
    stats.seconds = began.elapsed().as_secs_f64();
    stats
}

/// Reads both documents and, when both are valid, scores one against the other;
/// `false` when either was refused.
fn read_and_score(report: &[u8], truth: &[u8], language: &str) -> bool {
    let report = harness::report::Report::from_slice(report, "report.json");
    let truth = oracles::Truth::from_slice(truth, "truth.json");
    let (Ok(report), Ok(truth)) = (report, truth) else {
        return false;
    };
    let options = harness::score::ScoreOptions {
        only: None,
        names: harness::pairing::NameRule::for_language(language),
    };
    let scored = harness::score::score(&report, &truth, &options);
    let _ = harness::figures::figures(&scored);
    true
}
