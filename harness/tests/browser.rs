//! reports/index.html in a real headless browser (D68): the page rendered from the
//! committed reports/measurements.json is loaded from disk by Debian's Chromium,
//! driven by playwright-core (pinned by harness/tests/browser/package-lock.json);
//! the script sorts a column, filters a language and checks its screenshot is not
//! blank. `.ci/setup` installs the browser and runs `npm ci` there; without them this
//! test fails and says so (it is part of `make test`, which runs the setup first).

use std::path::{Path, PathBuf};
use std::time::Duration;

use harness::index_html::render_index;
use harness::model::Measurements;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

#[test]
fn the_index_page_sorts_filters_and_draws_in_chromium() {
    let root = workspace();
    let driver = root.join("harness/tests/browser");
    let chromium = std::env::var_os("CHROMIUM")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/bin/chromium"));
    assert!(
        chromium.exists() && driver.join("node_modules/playwright-core").is_dir(),
        "the browser test needs {} and `npm ci` in {}: `make setup` (bash .ci/setup) installs both",
        chromium.display(),
        driver.display()
    );
    let measurements =
        Measurements::load(&root.join("reports/measurements.json"), u64::MAX).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("index.html");
    std::fs::write(&page, render_index(&measurements)).unwrap();
    let shot = dir.path().join("index.png");
    let node = oracles::Tool::locate("node").expect("node (make setup installs it)");
    let run = node
        .command(&driver)
        .arg(driver.join("index_page.mjs"))
        .arg(&page)
        .arg(&shot)
        .env("CHROMIUM", &chromium)
        .timeout(Duration::from_secs(120))
        .run_unchecked()
        .expect("node ran");
    assert_eq!(
        run.status,
        Some(0),
        "the page failed in the browser:\n{}\n{}",
        run.stdout,
        run.stderr
    );
    let summary: serde_json::Value = serde_json::from_str(run.stdout.trim()).unwrap();
    assert_eq!(summary["rows"], measurements.rows.len());
    assert!(
        std::fs::metadata(&shot).unwrap().len() > 10_000,
        "{summary}"
    );
}
