//! What each subcommand does. Tables go to `out` (stdout in the binary); progress and
//! notes go to stderr.

use std::io::Write;
use std::path::Path;
use std::time::Duration;

use oracles::{input_cap_from_env, Truth};

use crate::cli::{
    Cli, Command, EngineArgs, GateArgs, MeasureArgs, MergeArgs, MissesArgs, ProofsArgs,
    ReproduceArgs, ScoreArgs, SourceArgs,
};
use crate::engine::{Analyzer, EngineBinary};
use crate::error::{Error, Result, EXIT_CANNOT_ANSWER, EXIT_NO, EXIT_OK};
use crate::families::{is_family, FAMILIES};
use crate::figures::{family_figures, figures, verdict_counts};
use crate::gate::{compare, render};
use crate::measure::{measure_units, plan, take_shard, Selection, Sources, Unit};
use crate::merge::merge;
use crate::model::{CorpusStamp, Measurements, NameVersion, Row};
use crate::outputs::write_outputs;
use crate::pairing::NameRule;
use crate::pipeline::CorpusSetup;
use crate::progress::Progress;
use crate::proof_runs::{build_and_run, CaseRun, Step};
use crate::proofs::{language_of_row, languages, load_cases, ProofCase};
use crate::report::Report;
use crate::score::{score, ScoreOptions, SiteRecord};
use crate::tables::{
    figure_cells, header, language_family, percent, render_row_families, FIRST_FIGURE_COLUMN,
    ROW_HEADER,
};

/// Runs one command; returns the exit code.
pub fn run(cli: Cli, out: &mut dyn Write) -> Result<u8> {
    let cap = cli.max_input_bytes.unwrap_or_else(input_cap_from_env);
    let progress = Progress::on_stderr();
    match cli.command {
        Command::Measure(args) => measure(args, cap, &progress, out),
        Command::Score(args) => score_command(args, cap, out),
        Command::Proofs(args) => proofs(args, cap, &progress, out),
        Command::Gate(args) => gate(args, cap, &progress, out),
        Command::Reproduce(args) => reproduce(args, cap, &progress, out),
        Command::Merge(args) => merge_command(args, cap, out),
        Command::Misses(args) => misses_command(args, cap, &progress, out),
        Command::Fetch(args) => crate::fetch_command::fetch(args, cap, &progress, out),
        Command::Crosscheck(args) => crate::crosscheck::crosscheck(args, cap, &progress, out),
    }
}

fn say(out: &mut dyn Write, text: &str) -> Result<()> {
    out.write_all(text.as_bytes())
        .map_err(|e| Error::io(Path::new("<stdout>"), e))
}

fn locate_engine(args: &EngineArgs, cap: u64) -> Result<EngineBinary> {
    Ok(EngineBinary::locate(
        args.engine.as_deref(),
        Duration::from_secs(args.engine_timeout),
        cap,
    )?)
}

fn sources_of(args: &SourceArgs, cap: u64) -> (Sources, CorpusSetup) {
    let sources = Sources {
        proofs_dir: args.proofs.clone(),
        corpora_path: args
            .corpora
            .clone()
            .unwrap_or_else(|| "corpora.json".into()),
        corpora_explicit: args.corpora.is_some(),
        input_cap: cap,
    };
    let setup = CorpusSetup {
        cache_dir: args.cache.clone(),
        bound: Duration::from_secs(args.tool_timeout),
        // Beside corpora.json: the manifests are the repository's, as the corpora are.
        manifests_dir: sources
            .corpora_path
            .parent()
            .unwrap_or(std::path::Path::new(""))
            .join("manifests"),
        peers: false,
    };
    // No version probe waits longer than the tools' own bound (D23).
    oracles::toolchain::set_tool_bound(setup.bound);
    (sources, setup)
}

/// One line per row for the terminal.
fn summary_line(row: &Row) -> String {
    match (&row.outcome, &row.figures) {
        (None, Some(f)) if f.coverage.is_none() && f.pairs.counts.pair_only_calls > 0 => format!(
            "{}: pairs only, {} pairs, pair precision {}, pair recall {}\n",
            row.id,
            f.pairs.counts.engine_pairs,
            percent(f.pairs.precision),
            percent(f.pairs.recall)
        ),
        (None, Some(f)) => format!(
            "{}: {} judged, {} right, coverage {}, precision {}, {} false edges\n",
            row.id,
            f.judged_in_tree,
            f.right,
            percent(f.coverage),
            percent(f.precision),
            f.false_edges
        ),
        (Some(outcome), _) => format!("{}: {outcome}\n", row.id),
        (None, None) if row.name_pairs.is_some() => {
            let p = row.name_pairs.as_ref().expect("checked");
            format!(
                "{}: {} truth pairs, pair precision {}, pair recall {}, {}/{} cases complete, {}/{} sound\n",
                row.id,
                p.truth_pairs,
                percent(p.precision),
                percent(p.recall),
                p.complete_cases,
                p.cases,
                p.sound_cases,
                p.cases
            )
        }
        (None, None) => format!("{}: no figures\n", row.id),
    }
}

/// `--all`, named corpora, or the embedded default.
fn selection_of(all: bool, ids: &[String]) -> Selection {
    if all {
        Selection::All
    } else if !ids.is_empty() {
        Selection::Named(ids.to_vec())
    } else {
        Selection::Default
    }
}

fn measure(args: MeasureArgs, cap: u64, progress: &Progress, out: &mut dyn Write) -> Result<u8> {
    let (sources, mut setup) = sources_of(&args.sources, cap);
    setup.peers = args.peers;
    let selection = selection_of(args.all, &args.corpora_ids);
    let mut units = plan(&sources, &selection)?;
    if let Some(shard) = args.shard {
        units = take_shard(units, shard);
    }
    let engine = locate_engine(&args.engine, cap)?;
    let measurements = measure_units(&units, &sources, &setup, &engine, progress)?
        .with_crosschecks(crate::crosscheck::recorded(&args.out, cap));
    for row in &measurements.rows {
        say(out, &summary_line(row))?;
    }
    for path in write_outputs(&measurements, &args.out)? {
        say(out, &format!("wrote {}\n", path.display()))?;
    }
    let requested: Vec<String> = units.iter().map(Unit::id).collect();
    Ok(measure_exit_code(&measurements, &requested))
}

/// DESIGN §9 for `harness measure`, once the tables are written: 1 when a requested
/// row's archive failed its checksum (the answer is no), 3 when another requested
/// row is an outcome (a tool missing, failing, timing out: could not answer), else 0
/// (D9). Peer rows (`<id>@<tool>`) are not requested rows.
pub fn measure_exit_code(measurements: &Measurements, requested: &[String]) -> u8 {
    let mut code = EXIT_OK;
    for row in &measurements.rows {
        let Some(outcome) = &row.outcome else {
            continue;
        };
        if !requested.contains(&row.id) {
            continue;
        }
        let this = match outcome {
            oracles::Outcome::ChecksumMismatch { .. } => EXIT_NO,
            _ => EXIT_CANNOT_ANSWER,
        };
        code = if code == EXIT_OK {
            this
        } else {
            code.min(this)
        };
    }
    code
}

fn score_command(args: ScoreArgs, cap: u64, out: &mut dyn Write) -> Result<u8> {
    if let Some(family) = &args.only {
        if !is_family(family) {
            return Err(Error::InvalidArgument(format!(
                "`{family}` is not a family; the families are: {}",
                FAMILIES.join(", ")
            )));
        }
    }
    let report = Report::load(&args.report, cap)?;
    let truth = Truth::load(&args.truth, cap)?;
    let options = ScoreOptions {
        only: args.only.clone(),
        names: NameRule::for_language(&args.language),
    };
    let scored = score(&report, &truth, &options);
    let row = Row {
        id: truth.corpus.clone(),
        language: args.language.clone(),
        corpus: CorpusStamp {
            id: truth.corpus.clone(),
            pin: String::new(),
        },
        oracle: NameVersion {
            name: truth.oracle.name.clone(),
            version: truth.oracle.version.clone(),
        },
        engine: NameVersion {
            name: "callgraph".into(),
            version: report.engine.version.clone(),
        },
        figures: Some(figures(&scored)),
        verdicts: verdict_counts(&scored),
        families: family_figures(&scored),
        sites: scored.sites.clone(),
        ..Row::default()
    };
    let f = row.figures.as_ref().expect("just scored");
    let mut text = String::new();
    if let Some(family) = &args.only {
        text.push_str(&format!(
            "only `{family}`: every other family's answers read as declined\n\n"
        ));
    }
    text.push_str(&header(&ROW_HEADER[FIRST_FIGURE_COLUMN..]));
    text.push_str(&format!("| {} |\n\n", figure_cells(f).join(" | ")));
    text.push_str(&render_row_families(&row));
    if args.pairs {
        let p = &f.pairs;
        text.push_str("\npairs (kept apart from the site figures)\n\n");
        text.push_str(&header(&[
            "pair precision",
            "pair recall",
            "judged engine pairs",
            "true engine pairs",
            "truth pairs",
            "recalled truth pairs",
        ]));
        text.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} |\n",
            percent(p.precision),
            percent(p.recall),
            p.counts.judged_engine_pairs,
            p.counts.true_engine_pairs,
            p.counts.truth_pairs,
            p.counts.recalled_truth_pairs
        ));
    }
    say(out, &text)?;
    if let Some(path) = &args.json {
        let mut json = serde_json::to_string_pretty(&row).expect("rows serialize");
        json.push('\n');
        crate::atomic::write_atomic(path, json.as_bytes())?;
        say(out, &format!("wrote {}\n", path.display()))?;
    }
    Ok(EXIT_OK)
}

/// How the engine did on one case, in the three words of `harness proofs`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CaseJudgement {
    pub right: u64,
    pub abstained: u64,
    pub wrong: u64,
}

/// right: the engine did what the truth asks (right, right_outside,
/// right_abstention); wrong: any contradicted answer; abstained: everything else
/// (declined, overload_unnamed, an accepted abstention, a missed site).
pub fn judge_case(sites: &[SiteRecord]) -> CaseJudgement {
    let mut judgement = CaseJudgement::default();
    for site in sites {
        if site.verdict.is_right() {
            judgement.right += 1;
        } else if site.verdict.is_wrong() {
            judgement.wrong += 1;
        } else {
            judgement.abstained += 1;
        }
    }
    judgement
}

#[derive(Debug, Default)]
struct ProofTotals {
    judgement: CaseJudgement,
    cases: u64,
    built: u64,
    ran: u64,
    skipped: u64,
    failed: u64,
}

fn proofs(args: ProofsArgs, cap: u64, progress: &Progress, out: &mut dyn Write) -> Result<u8> {
    let engine = if args.no_engine {
        None
    } else {
        Some(locate_engine(&args.engine, cap).inspect_err(|_| {
            progress
                .note("(pass --no-engine to build and run the proofs without judging the engine)");
        })?)
    };
    let mut selected = languages(&args.proofs)?;
    if !args.language.is_empty() {
        for wanted in &args.language {
            if !selected.contains(wanted) {
                return Err(Error::InvalidArgument(format!(
                    "no proofs for `{wanted}` under {}",
                    args.proofs.display()
                )));
            }
        }
        selected.retain(|l| args.language.contains(l));
    }
    let bound = Duration::from_secs(args.timeout);
    let mut totals = ProofTotals::default();
    for language in &selected {
        let cases = load_cases(&args.proofs, language, cap)?;
        let task = progress.task(language, cases.len() as u64);
        for case in &cases {
            task.step(&case.name);
            let text = prove_case(
                case,
                bound,
                engine.as_ref().map(|e| e as &dyn Analyzer),
                &mut totals,
            );
            task.suspend(|| say(out, &text))?;
        }
        task.finish();
    }
    let j = totals.judgement;
    let mut text = String::new();
    if engine.is_some() {
        text.push_str(&format!(
            "{} right, {} abstained, {} wrong\n",
            j.right, j.abstained, j.wrong
        ));
    }
    text.push_str(&format!(
        "{} cases: {} built, {} ran, {} skipped, {} failed\n",
        totals.cases, totals.built, totals.ran, totals.skipped, totals.failed
    ));
    say(out, &text)?;
    Ok(if totals.failed > 0 || j.wrong > 0 {
        EXIT_NO
    } else {
        EXIT_OK
    })
}

/// Builds, runs and judges one case; returns its lines.
fn prove_case(
    case: &ProofCase,
    bound: Duration,
    engine: Option<&dyn Analyzer>,
    totals: &mut ProofTotals,
) -> String {
    let CaseRun { build, run } = build_and_run(case, bound);
    totals.cases += 1;
    totals.built += u64::from(matches!(build, Step::Done | Step::NotNeeded));
    totals.ran += u64::from(run == Step::Done);
    let skipped = build.skipped() || run.skipped() && !build.failed();
    let mut failed = build.failed() || run.failed();
    totals.skipped += u64::from(skipped && !failed);
    let mut line = format!(
        "{}/{}: build {}, run {}",
        case.language,
        case.name,
        build.word(),
        run.word()
    );
    let mut details = Vec::new();
    for (what, step) in [("build", &build), ("run", &run)] {
        match step {
            Step::Failed(why) => details.push(format!("{what} failed: {why}")),
            Step::Skipped(why) if what == "build" || !build.skipped() => {
                details.push(format!("{what} skipped: {why}"))
            }
            _ => {}
        }
    }
    if let Some(engine) = engine {
        match engine.analyze_with(&case.dir, &crate::proof_runs::engine_build(&case.language)) {
            Ok(report) => {
                let options = ScoreOptions {
                    only: None,
                    names: NameRule::for_language(&case.language),
                };
                let scored = score(&report, &case.truth, &options);
                let j = judge_case(&scored.sites);
                line.push_str(&format!(
                    ", {} right, {} abstained, {} wrong",
                    j.right, j.abstained, j.wrong
                ));
                for site in scored.sites.iter().filter(|s| s.verdict.is_wrong()) {
                    details.push(format!("wrong: {} — {}", site.label(), describe_site(site)));
                }
                totals.judgement.right += j.right;
                totals.judgement.abstained += j.abstained;
                totals.judgement.wrong += j.wrong;
            }
            Err(outcome) => {
                line.push_str(", engine FAILED");
                details.push(format!("engine: {outcome}"));
                failed = true;
            }
        }
    }
    totals.failed += u64::from(failed);
    let mut text = format!("{line}\n");
    for detail in details {
        text.push_str(&format!("    {detail}\n"));
    }
    text
}

fn describe_site(site: &SiteRecord) -> String {
    match &site.family {
        Some(family) => format!("{} ({family})", site.verdict.token()),
        None => site.verdict.token().to_string(),
    }
}

/// Measures the rows a baseline names, as they are now. Rows that cannot even be
/// planned (a corpus no longer listed) are left out, so the gate reports them missing.
fn measure_like(
    baseline: &Measurements,
    sources: &Sources,
    setup: &CorpusSetup,
    engine: &dyn Analyzer,
    progress: &Progress,
) -> Result<Measurements> {
    let mut units: Vec<Unit> = Vec::new();
    for row in &baseline.rows {
        match plan(sources, &Selection::Named(vec![row.id.clone()])) {
            Ok(found) => units.extend(found),
            Err(Error::UnknownCorpus { .. }) => {
                progress.note(&format!("{}: cannot be measured here", row.id))
            }
            Err(e) => return Err(e),
        }
    }
    // A corpus and its peer rows are one unit.
    units.sort_by_key(Unit::id);
    units.dedup_by_key(|u| u.id());
    measure_units(&units, sources, setup, engine, progress)
}

fn gate(args: GateArgs, cap: u64, progress: &Progress, out: &mut dyn Write) -> Result<u8> {
    if !(args.tolerance.is_finite() && args.tolerance >= 0.0) {
        return Err(Error::InvalidArgument(format!(
            "tolerance {} is not a non-negative ratio",
            args.tolerance
        )));
    }
    let baseline = Measurements::load(&args.baseline, cap)?;
    let current = match &args.current {
        Some(path) => Measurements::load(path, cap)?,
        None => {
            let (sources, setup) = sources_of(&args.sources, cap);
            let engine = locate_engine(&args.engine, cap)?;
            measure_like(&baseline, &sources, &setup, &engine, progress)?
        }
    };
    let verdict = compare(&baseline, &current, args.tolerance);
    say(out, &render(&verdict, args.tolerance))?;
    Ok(verdict.exit_code())
}

fn reproduce(
    args: ReproduceArgs,
    cap: u64,
    progress: &Progress,
    out: &mut dyn Write,
) -> Result<u8> {
    let published = Measurements::load(&args.measurements, cap)?;
    let row = published.row(&args.row).ok_or_else(|| Error::UnknownRow {
        id: args.row.clone(),
        path: args.measurements.display().to_string(),
    })?;
    let (sources, setup) = sources_of(&args.sources, cap);
    let units = plan(&sources, &Selection::Named(vec![args.row.clone()]))
        .map_err(|e| Error::MissingRow(format!("cannot re-measure `{}`: {e}", args.row)))?;
    let engine = locate_engine(&args.engine, cap)?;
    let now = measure_units(&units, &sources, &setup, &engine, progress)?;
    let now_row = now.row(&args.row).expect("the planned row was measured");
    let diff = crate::reproduce::differences(row, now_row);
    let mut text = String::new();
    for note in &diff.notes {
        text.push_str(&format!("note: {note}\n"));
    }
    for figure in &diff.figures {
        text.push_str(&format!("differs: {figure}\n"));
    }
    let code = if now_row.outcome.is_some() && row.outcome.is_none() {
        text.push_str(&format!("{}: could not answer now\n", args.row));
        EXIT_CANNOT_ANSWER
    } else if diff.figures.is_empty() {
        text.push_str(&format!("{}: reproduced, every figure equal\n", args.row));
        EXIT_OK
    } else {
        text.push_str(&format!(
            "{}: {} figure(s) differ\n",
            args.row,
            diff.figures.len()
        ));
        EXIT_NO
    };
    if language_of_row(&args.row).is_some() {
        text.push_str(&format!(
            "(measured the proofs under {})\n",
            args.sources.proofs.display()
        ));
    }
    say(out, &text)?;
    Ok(code)
}

fn merge_command(args: MergeArgs, cap: u64, out: &mut dyn Write) -> Result<u8> {
    let mut parts = Vec::new();
    for path in &args.inputs {
        parts.push((path.display().to_string(), Measurements::load(path, cap)?));
    }
    let merged = merge(parts)?;
    for row in &merged.rows {
        say(out, &summary_line(row))?;
    }
    for path in write_outputs(&merged, &args.out)? {
        say(out, &format!("wrote {}\n", path.display()))?;
    }
    Ok(EXIT_OK)
}

/// `harness misses`: the same pipeline as `measure` (cached fetch and truth, the
/// engine, the scorer's verdicts), read by shape instead of into figures.
fn misses_command(
    args: MissesArgs,
    cap: u64,
    progress: &Progress,
    out: &mut dyn Write,
) -> Result<u8> {
    let (sources, setup) = sources_of(&args.sources, cap);
    let mut units = plan(&sources, &selection_of(args.all, &args.corpora_ids))?;
    if let Some(language) = &args.language {
        let wanted = language_family(language);
        units.retain(|u| language_family(unit_language(u)) == wanted);
        if units.is_empty() {
            return Err(Error::InvalidArgument(format!(
                "no corpus of language `{language}` in the selection"
            )));
        }
    }
    let engine = locate_engine(&args.engine, cap)?;
    let mut corpora = Vec::new();
    for unit in &units {
        corpora.push(misses_of_unit(unit, &sources, &setup, &engine, progress)?);
    }
    let misses = crate::misses::group(corpora, args.examples);
    let text = if args.json {
        crate::misses::to_json(&misses)
    } else {
        crate::misses::render_markdown(&misses)
    };
    say(out, &text)?;
    Ok(EXIT_OK)
}

fn unit_language(unit: &Unit) -> &str {
    match unit {
        Unit::Proofs { language } => language,
        Unit::Corpus(corpus) => &corpus.language,
    }
}

/// One unit's listed sites; a unit that cannot be scored by site says why.
fn misses_of_unit(
    unit: &Unit,
    sources: &Sources,
    setup: &CorpusSetup,
    engine: &dyn Analyzer,
    progress: &Progress,
) -> Result<crate::misses::CorpusMisses> {
    use crate::misses::{collect, without_sites};
    let id = unit.id();
    let language = unit_language(unit);
    let (row, prepared) = match unit {
        Unit::Proofs { language } => {
            let p = crate::measure::prepare_proof_language(language, sources, engine, progress)?;
            (p.row, p.prepared)
        }
        Unit::Corpus(corpus) if corpus.oracle.name == oracles::pycg_micro::NAME => {
            let why = "pairs only: its truth has no sites".to_string();
            return Ok(without_sites(&id, language, why));
        }
        Unit::Corpus(corpus) => {
            progress.note(&format!("reading {}", corpus.id));
            crate::pipeline::prepare_corpus(corpus, setup, engine)
        }
    };
    Ok(match (prepared, row.outcome) {
        (Some(prepared), None) => collect(&id, language, &prepared),
        (_, outcome) => {
            let why = outcome.map_or("no figures".to_string(), |o| o.to_string());
            progress.note(&format!("{id}: {why}"));
            without_sites(&id, language, why)
        }
    })
}
