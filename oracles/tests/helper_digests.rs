//! An adapter's version follows its helpers' text (issue 13). Truths are cached by
//! (adapter name, adapter version, toolchain, corpus); a helper program, a pinned
//! module or lock file that changes what a truth says without a version bump would
//! let the cache serve the old truth as the new one. This table pins, per adapter
//! version, the sha256 of every file the adapter embeds: change a file and this
//! test fails until the adapter's version is bumped and the row rewritten.

use std::path::{Path, PathBuf};

use sha2::{Digest as _, Sha256};

/// (file under oracles/, sha256).
type Digest = (&'static str, &'static str);

/// (oracle, adapter version, the digests of the files it embeds).
const PINS: &[(&str, &str, &[Digest])] = &[
    (
        "clang",
        "4",
        &[
            (
                "clang/googletest.cmake",
                "e52aa8f13becffc12df9f01b31e9c03c9c605b0c78fcc83a5d7f51e082825909",
            ),
            (
                "clang/benchmark.cmake",
                "259b8ec4b0741d2caf3f2d6fbd4ad9bb9af8cd6f250eac2ec9e891481aa80237",
            ),
        ],
    ),
    (
        "go-callgraph",
        "1",
        &[
            (
                "go/go.mod",
                "18a647c094efa0b59331fbc68421bcfcc1b66f7fa6436364565436460ba5b155",
            ),
            (
                "go/go.sum",
                "b2a9b8d4ce2712108876b91bb86be28c92827d4a2c5179b3afa2b3f79cba307b",
            ),
        ],
    ),
    (
        "gotypes",
        "1",
        &[
            (
                "go/main.go",
                "4c3aa170208179d77de38745a658ca9052e792b3a9cd57b1bc9f2dbaadf449e6",
            ),
            (
                "go/go.mod",
                "18a647c094efa0b59331fbc68421bcfcc1b66f7fa6436364565436460ba5b155",
            ),
            (
                "go/go.sum",
                "b2a9b8d4ce2712108876b91bb86be28c92827d4a2c5179b3afa2b3f79cba307b",
            ),
        ],
    ),
    (
        "javac",
        "2",
        &[(
            "java/CallTruth.java",
            "398da3ea2372798d9120735e57e1f22c8a225b74fbd93d24af0c79d587285906",
        )],
    ),
    (
        "javac-bytecode",
        "3",
        &[(
            "java/Declarations.java",
            "b25a179dde4a455b31c784de246183e72c36f718ed2b98050b191997602b3f1c",
        )],
    ),
    (
        "jstrace",
        "2",
        &[
            (
                "jstrace/jstrace.js",
                "70ac3aead166d293c4c822d15cee9de96b8e80ba0eba2bf90682fab6cd1eaaf9",
            ),
            (
                "jstrace/package.json",
                "413991738c6813970db526b8f8ea575628a54695f6a9e34fe6287f32f85d0f0a",
            ),
            (
                "jstrace/package-lock.json",
                "4358784168f1384e9d1f1e1d9db72bbdfa3494d2233e214f7a8b0fa8d04405b9",
            ),
            (
                "jstrace/express/package.json",
                "69a2919f5e9edfcff0edcf4232a346e9a6b8c5c4f6c7fbd5c577c3f54caf64f9",
            ),
            (
                "jstrace/express/package-lock.json",
                "6cc184be3dbf38f06bab5729fae6416c7bc83304b965a2ab3361d6f796f36149",
            ),
            (
                "jstrace/qs/package.json",
                "e7a13da7b01bf13252846549502ba917c28874fdc0f1e1202dd379778e75f644",
            ),
            (
                "jstrace/qs/package-lock.json",
                "029c25e0c16e3b90ae7d0002aca63cbe4b3e6cf3bce4b26c33dc97765fa73f03",
            ),
        ],
    ),
    (
        "kotlinc",
        "3+plugin1",
        &[
            (
                "kotlin/CallTruth.kt",
                "506d534044cc769971c17c22708b9cdd90d8f1199d224fa728ff26ecb2748791",
            ),
            (
                "kotlin/package.json",
                "fc9ffdd39d5adb99c616234170b89190851c01436dd02a38c38de3f58d2bf490",
            ),
        ],
    ),
    (
        "mcs",
        "2",
        &[(
            "csharp/CallTruth.cs",
            "df7e259114ac71fb7d4841fb9ce1d2eceed7986c07d98178f7f1a13e2d3c65ca",
        )],
    ),
    (
        "pytrace",
        "4",
        &[(
            "python/pytrace.py",
            "d6e0b19a9ec86e7d6d577e3d2032dc52ea039450dc2afe300b1d453b0148eb7f",
        )],
    ),
    ("rustc", "3", RUST_LOCKS),
    ("rustc-ir", "3", RUST_LOCKS),
    (
        "scip-python",
        "3",
        &[
            (
                "scip/scip-calls.js",
                "2fcdcaec91b7c8d03d8b2ba8b82c51562e186194bfc48ee8903c3f62a4de27d6",
            ),
            (
                "../peers/scip/package.json",
                "285cbc6f16e2499418325e2f0645ba7e8d46a0331d27cd3717939adc605c7c71",
            ),
            (
                "../peers/scip/package-lock.json",
                "9da1e43f44c299e4283641088c8e37ec3cdda48b594e82bd7090a41680d723b4",
            ),
        ],
    ),
    (
        "scip-typescript",
        "2",
        &[
            (
                "scip/scip-calls.js",
                "2fcdcaec91b7c8d03d8b2ba8b82c51562e186194bfc48ee8903c3f62a4de27d6",
            ),
            (
                "scip/package.json",
                "98918f6bd2715d995564950c2b8d202f668f0622ac879a37bfacd7bd04a2236e",
            ),
            (
                "scip/package-lock.json",
                "e1f0c283ab6b503c58420540fd37f580b2d37866b28bd33f0274254648e75e20",
            ),
        ],
    ),
    (
        "tsc",
        "2",
        &[
            (
                "tsc/calls.js",
                "f28827e3bc7eca93c43bbbbd792c2971001a866e08050e94c79711e8cb1931aa",
            ),
            (
                "tsc/package.json",
                "3af130c3aaf86234d1b9fead6a2a789d1a25efd14b43c38ae863da78e212c4c0",
            ),
        ],
    ),
];

/// The committed lock files both Rust readings build with.
const RUST_LOCKS: &[Digest] = &[
    (
        "rust/clap_builder/Cargo.lock",
        "afd665aeb3e34977878a14971de8ec6fd9a615af77e20a338757df5a7debc56d",
    ),
    (
        "rust/regex/Cargo.lock",
        "f9e75ae093761e35ec1fa8039498b7e7f5ac93d5620578896d05f032c615fdb0",
    ),
    (
        "rust/bytes/Cargo.lock",
        "4e6bfdee1840a8512e3591a3079543eb4446be268ed520b92b93bf05ae4ca682",
    ),
    (
        "rust/serde_derive/Cargo.lock",
        "5db24bb8907c8a4ca7fa58e927aa61e0dfaa0ebae1f1431f817385ffcf8f41df",
    ),
];

fn oracles_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

fn sha256_of(path: &Path) -> String {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Sha256::digest(&bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[test]
fn every_helper_is_the_text_its_adapter_version_was_written_for() {
    let mut stale = Vec::new();
    for (name, version, files) in PINS {
        let oracle = oracles::oracle_named(name).unwrap_or_else(|| panic!("no oracle {name}"));
        if oracle.version() != *version {
            stale.push(format!(
                "{name}: adapter version is {}, the table pins {version}: rewrite its row with the digests of its files",
                oracle.version()
            ));
        }
        for (file, digest) in *files {
            let actual = sha256_of(&oracles_dir().join(file));
            if actual != *digest {
                stale.push(format!(
                    "oracles/{file} changed (sha256 {actual}): bump {name}'s adapter version and rewrite its row"
                ));
            }
        }
    }
    assert!(stale.is_empty(), "{}", stale.join("\n"));
}

/// Every file an adapter embeds (`include_str!("../…")` in oracles/src) is in the
/// table, so a new helper cannot escape the pin.
#[test]
fn every_embedded_file_is_pinned() {
    let pinned: Vec<&str> = PINS
        .iter()
        .flat_map(|(_, _, files)| files.iter().map(|(f, _)| *f))
        .collect();
    let mut unpinned = Vec::new();
    let src = oracles_dir().join("src");
    let mut entries: Vec<PathBuf> = std::fs::read_dir(&src)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "rs"))
        .collect();
    entries.sort();
    let marker = "include_str!(\"../";
    for path in entries {
        let text = std::fs::read_to_string(&path).unwrap();
        for (at, _) in text.match_indices(marker) {
            let rest = &text[at + marker.len()..];
            let file = &rest[..rest.find('"').expect("a closed string")];
            if !pinned.contains(&file) {
                unpinned.push(format!("{}: {file}", path.display()));
            }
        }
    }
    assert!(
        unpinned.is_empty(),
        "embedded files without a pin in tests/helper_digests.rs:\n{}",
        unpinned.join("\n")
    );
}

#[test]
fn every_adapter_with_a_pin_exists() {
    for (name, _, _) in PINS {
        assert!(
            oracles::oracle_names().contains(name),
            "{name} is pinned but not an oracle"
        );
    }
}
