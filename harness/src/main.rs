//! `harness`: see `harness --help`.

use std::process::ExitCode;

use anyhow::Context;
use clap::Parser;
use harness::cli::Cli;
use harness::error::EXIT_CANNOT_ANSWER;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let command = cli.command.name();
    let result = harness::commands::run(cli, &mut std::io::stdout().lock())
        .with_context(|| format!("harness {command}"));
    match result {
        Ok(code) => ExitCode::from(code),
        Err(error) => {
            eprintln!("error: {error:#}");
            let code = error
                .downcast_ref::<harness::Error>()
                .map_or(EXIT_CANNOT_ANSWER, harness::Error::exit_code);
            ExitCode::from(code)
        }
    }
}
