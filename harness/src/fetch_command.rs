//! `harness fetch [--corpus ID | --all]`: download each named corpus with its
//! registry's ordinary client, check its sha256, unpack it into the cache and lay out
//! its `include` subtrees. Prints one line per corpus; exit 0 when all are in the
//! cache, 1 when an archive failed its checksum, 3 when a registry client is missing
//! or failed.

use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};

use clap::Args;
use oracles::Outcome;

use crate::cli::SourceArgs;
use crate::corpora::CorpusEntry;
use crate::error::{Error, Result, EXIT_CANNOT_ANSWER, EXIT_NO, EXIT_OK};
use crate::measure::{load_corpora, Sources};
use crate::pipeline::fetcher_for;
use crate::progress::Progress;

#[derive(Debug, Args)]
pub struct FetchArgs {
    #[command(flatten)]
    pub sources: SourceArgs,
    /// Fetch this corpus of corpora.json; repeatable.
    #[arg(long = "corpus", value_name = "ID", conflicts_with = "all")]
    pub corpora_ids: Vec<String>,
    /// Fetch every corpus of corpora.json.
    #[arg(long)]
    pub all: bool,
}

/// Fetches one corpus into the cache; returns the analysed tree.
pub fn fetch_one(
    corpus: &CorpusEntry,
    cache_dir: &Path,
    bound: Duration,
) -> std::result::Result<std::path::PathBuf, Outcome> {
    let fetcher = fetcher_for(&corpus.source.registry).ok_or_else(|| Outcome::NotImplemented {
        tool: format!("fetch:{}", corpus.source.registry),
        detail: "no fetcher for this registry yet".into(),
    })?;
    let unpacked = fetcher.fetch(corpus, cache_dir, bound)?;
    crate::tree_view::analysed_root(&unpacked, corpus, cache_dir)
}

pub fn fetch(args: FetchArgs, cap: u64, progress: &Progress, out: &mut dyn Write) -> Result<u8> {
    let sources = Sources {
        proofs_dir: args.sources.proofs.clone(),
        corpora_path: args
            .sources
            .corpora
            .clone()
            .unwrap_or_else(|| "corpora.json".into()),
        corpora_explicit: args.sources.corpora.is_some(),
        input_cap: cap,
    };
    let file = load_corpora(&sources)?;
    let selected: Vec<CorpusEntry> = if args.all {
        file.corpora.clone()
    } else if args.corpora_ids.is_empty() {
        return Err(Error::InvalidArgument(
            "name the corpora to fetch with --corpus ID, or --all".into(),
        ));
    } else {
        let mut chosen = Vec::new();
        for id in &args.corpora_ids {
            match file.corpora.iter().find(|c| &c.id == id) {
                Some(c) => chosen.push(c.clone()),
                None => {
                    return Err(Error::UnknownCorpus {
                        id: id.clone(),
                        proofs: sources.proofs_dir.display().to_string(),
                        corpora: sources.corpora_path.display().to_string(),
                    })
                }
            }
        }
        chosen
    };
    let bound = Duration::from_secs(args.sources.tool_timeout);
    oracles::toolchain::set_tool_bound(bound);
    let task = progress.task("fetch", selected.len() as u64);
    let mut code = EXIT_OK;
    for corpus in &selected {
        task.step(&format!(
            "{} ({} {} {})",
            corpus.id, corpus.source.registry, corpus.source.package, corpus.source.version
        ));
        let started = Instant::now();
        let line = match fetch_one(corpus, &args.sources.cache, bound) {
            Ok(tree) => format!(
                "{}: sha256:{} verified; {} files under {} ({:.1} s)\n",
                corpus.id,
                corpus.source.sha256,
                crate::fetch::count_files(&tree),
                tree.display(),
                started.elapsed().as_secs_f64()
            ),
            Err(outcome) => {
                let this = if matches!(outcome, Outcome::ChecksumMismatch { .. }) {
                    EXIT_NO
                } else {
                    EXIT_CANNOT_ANSWER
                };
                code = if code == EXIT_OK {
                    this
                } else {
                    code.min(this)
                };
                format!("{}: {outcome}\n", corpus.id)
            }
        };
        task.suspend(|| out.write_all(line.as_bytes()))
            .map_err(|e| Error::io(Path::new("<stdout>"), e))?;
    }
    task.finish();
    Ok(code)
}
