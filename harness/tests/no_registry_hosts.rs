//! The repository names no package registry's host (issue 14): every registry is
//! reached through its ordinary client as the machine configures it (apt's own
//! sources, cargo, pip, npm, mvn, go), so no tracked file holds a URL of one.
//! The hosts below are written reversed, so this file does not name them either.

use std::path::Path;
use std::process::Command;

/// Registry hosts, each written back to front.
const REVERSED_HOSTS: &[&str] = &[
    "gro.naibed.bed",
    "gro.naibed.ytiruces",
    "gro.naibed.ptf",
    "oi.setarc",
    "oi.setarc.citats",
    "oi.setarc.xedni",
    "gro.iypyp",
    "gro.detsohnohtyp.selif",
    "gro.sjmpn.yrtsiger",
    "moc.sjmpn",
    "gro.ehcapa.nevam.oper",
    "gro.nevam.1oper",
    "moc.epytanos.lartnec",
    "gro.gnalog.yxorp",
    "gro.gnalog.mus",
];

fn hosts() -> Vec<String> {
    REVERSED_HOSTS
        .iter()
        .map(|h| h.chars().rev().collect())
        .collect()
}

/// The host of every `scheme://host` in `text`.
fn url_hosts(text: &str) -> Vec<String> {
    text.match_indices("://")
        .map(|(at, _)| {
            text[at + 3..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '.' || *c == '-')
                .collect::<String>()
                .to_ascii_lowercase()
        })
        .collect()
}

fn is_registry_host(host: &str, registries: &[String]) -> bool {
    registries
        .iter()
        .any(|r| host == r || host.ends_with(&format!(".{r}")))
}

#[test]
fn no_tracked_file_holds_a_registry_url() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let listed = Command::new("git")
        .args(["ls-files", "-z"])
        .current_dir(&repo)
        .output();
    let Some(listed) = listed.ok().filter(|o| o.status.success()) else {
        // Not a git checkout (an unpacked source archive): nothing is tracked.
        return;
    };
    let registries = hosts();
    let mut found = Vec::new();
    for name in listed.stdout.split(|&b| b == 0).filter(|n| !n.is_empty()) {
        let name = String::from_utf8_lossy(name).into_owned();
        let Ok(text) = std::fs::read_to_string(repo.join(&name)) else {
            continue;
        };
        for host in url_hosts(&text) {
            if is_registry_host(&host, &registries) {
                found.push(format!("{name}: {host}"));
            }
        }
    }
    assert!(
        found.is_empty(),
        "registry URLs in tracked files: {found:?}"
    );
}

#[test]
fn the_check_finds_a_registry_url() {
    let registries = hosts();
    let text = format!("see https://{}/crates/x", registries[3]);
    let hit = url_hosts(&text);
    assert!(is_registry_host(&hit[0], &registries));
    assert!(!is_registry_host("github.com", &registries));
    assert!(url_hosts("registry+https://github.com/rust-lang/x-index")
        .iter()
        .all(|h| !is_registry_host(h, &registries)));
}
