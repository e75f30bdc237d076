//! The driver of the clap_builder manifest's run (manifests/tools/clap_builder-callers.py,
//! DECISIONS D65): builds a command that goes through every call of a value the
//! THIR truth leaves unjudged and that the tree itself can feed — the debug
//! assertions' `two_args_of` closures, the help's sort keys, the `ValueParserFactory`
//! maps of `Box<str>`/`Box<OsStr>`/`Box<Path>`, `value_parser!` of a `FromStr` type of
//! the tree (`ValueHint`) — and, beside them, the callbacks only a user passes
//! (`defer`, `mut_arg`, `mut_group`, `mut_subcommand`, `map`, `try_map`), which the
//! manifest leaves out.
use clap_builder::builder::{StringValueParser, TypedValueParser, ValueHint};
use clap_builder::{value_parser, Arg, ArgGroup, Command};

fn add_late(cmd: Command) -> Command {
    cmd.arg(Arg::new("late").long("late"))
}

fn shout(arg: Arg) -> Arg {
    arg.help("SHOUTED")
}

fn grouped(g: ArgGroup) -> ArgGroup {
    g.required(false)
}

fn renamed(sub: Command) -> Command {
    sub.about("renamed sub")
}

fn len_of(s: String) -> usize {
    s.len()
}

fn parse_i32(s: String) -> Result<i32, std::num::ParseIntError> {
    s.parse::<i32>()
}

fn main() {
    let mut cmd = Command::new("drv")
        .defer(add_late)
        .arg(Arg::new("n").long("n").value_parser(StringValueParser::new().map(len_of)))
        .arg(Arg::new("m").long("m").value_parser(StringValueParser::new().try_map(parse_i32)))
        .arg(Arg::new("b").long("b").value_parser(value_parser!(Box<str>)))
        .arg(Arg::new("os").long("os").value_parser(value_parser!(Box<std::ffi::OsStr>)))
        .arg(Arg::new("path").long("path").value_parser(value_parser!(Box<std::path::Path>)))
        .arg(Arg::new("hint").long("hint").value_parser(value_parser!(ValueHint)))
        .arg(Arg::new("pos"))
        .group(ArgGroup::new("g").args(["n", "m"]).multiple(true))
        .mut_arg("n", shout)
        .mut_group("g", grouped)
        .subcommand(Command::new("sub"))
        .mut_subcommand("sub", renamed);
    let m = cmd
        .try_get_matches_from_mut([
            "drv", "--n", "abc", "--m", "5", "--b", "x", "--os", "o", "--path", "/tmp", "--hint",
            "filepath", "--late", "y", "p",
        ])
        .expect("parses");
    println!(
        "n={:?} m={:?} b={:?}",
        m.get_one::<usize>("n"),
        m.get_one::<i32>("m"),
        m.get_one::<Box<str>>("b")
    );
    println!("hint={:?}", m.get_one::<ValueHint>("hint"));
    // TypedValueParser::parse, the owned-value entry of the public API.
    let owned = value_parser!(Box<str>).parse(&cmd, None, std::ffi::OsString::from("owned"));
    println!("owned={owned:?}");
    println!("{}", cmd.render_help());
}
