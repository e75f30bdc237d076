//! The README's measurement block is the "By language" table of the committed
//! measurements: this test fails when they differ. `UPDATE_EXPECT=1` rewrites the
//! block from reports/measurements.json (review the diff like code).

use std::path::{Path, PathBuf};

use harness::model::Measurements;
use harness::tables::render_by_language;

const BEGIN: &str = "<!-- by-language: begin -->\n";
const END: &str = "<!-- by-language: end -->";

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// The README with its block replaced by `table`, and the block it had.
fn with_block(readme: &str, table: &str) -> (String, String) {
    let start = readme.find(BEGIN).expect("the README has the begin marker") + BEGIN.len();
    let end = start
        + readme[start..]
            .find(END)
            .expect("the README has the end marker after the begin marker");
    let replaced = format!("{}{table}{}", &readme[..start], &readme[end..]);
    (replaced, readme[start..end].to_string())
}

#[test]
fn the_readme_block_is_the_by_language_table_of_the_committed_measurements() {
    let root = workspace();
    let measurements =
        Measurements::load(&root.join("reports/measurements.json"), u64::MAX).unwrap();
    let table = render_by_language(&measurements);
    let readme_path = root.join("README.md");
    let readme = std::fs::read_to_string(&readme_path).unwrap();
    let (expected_readme, block) = with_block(&readme, &table);
    if block != table && std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::write(&readme_path, expected_readme).unwrap();
        return;
    }
    assert_eq!(
        block, table,
        "README.md's by-language block differs from reports/measurements.json \
         (UPDATE_EXPECT=1 cargo test -p harness --test readme rewrites it)"
    );
}

#[test]
fn a_stale_block_is_told_apart() {
    let readme = format!("intro\n{BEGIN}| old |\n{END}\nrest\n");
    let (replaced, block) = with_block(&readme, "| new |\n");
    assert_eq!(block, "| old |\n");
    assert_eq!(replaced, format!("intro\n{BEGIN}| new |\n{END}\nrest\n"));
}
