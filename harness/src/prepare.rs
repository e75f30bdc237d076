//! Documented preparation steps: what turns an unpacked archive into the tree a
//! corpus analyses, when the archive does not hold that tree as files.
//!
//! Two steps exist; a corpus names one.
//!
//! `source_maps`: npm packages often ship only compiled JavaScript,
//! but their source maps carry the original TypeScript in `sourcesContent`. Every
//! `*.map` under `maps` is read; each source is placed at its own path, resolved
//! against the map's directory as if `maps` sat at `at` in the package's repository
//! (`dist/dev/../../index.tsx` with `at` = `packages/excalidraw/dist/dev` is
//! `packages/excalidraw/index.tsx`). Only sources with one of `extensions` are kept;
//! sources under node_modules (bundled dependencies), virtual sources (`<define:…>`,
//! `webpack://…`) and sources without content are skipped and counted. Two maps that
//! give one path different contents refuse the whole step (`tool_failed`): which one
//! is the source would be a guess. A path that climbs above `at`'s repository root is
//! refused the same way.
//!
//! Optionally, `declarations` adds the `.d.ts` files the package ships for the modules
//! the maps do not recover (a bundler's maps omit type-only modules and re-export
//! barrels): declarations only, so the checker knows those modules' types; a module
//! whose source was recovered keeps its source alone.
//!
//! `generate`: some sources are made by the package's own build (libncursesada's
//! specs come from `gen/*.m4` and from a C program linked against ncurses). A copy
//! of the archive's directory `dir` is configured (`sh ./configure` with the given
//! arguments) and the listed `make` invocations run in it, in order, each through
//! the subprocess door with a bound of ten minutes; the programs named in `tools`
//! must be on `PATH` (else `tool_missing`). The prepared tree then holds the files
//! of that built copy whose extension is in `keep`, at their paths under `dir`:
//! sources only, so the build's objects and scripts are in neither the engine's
//! tree nor the oracle's. Oracle and engine read this one tree.
//!
//! The prepared tree is written to `prepared/<id>-<pin>-<step digest>/` under the
//! cache, renamed into place only once complete, with `<same>.json` beside it saying
//! how many files and lines it holds (and, for source maps, what was skipped).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use oracles::{read_capped, Outcome};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::corpora::CorpusEntry;

const TOOL: &str = "prepare";

/// The largest source map read (excalidraw's biggest is about 20 MB).
const MAP_CAP: u64 = 256 * 1024 * 1024;

/// A preparation step of corpora.json: exactly one of its fields.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Prepare {
    /// Recover the original sources from the archive's source maps.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_maps: Option<SourceMaps>,
    /// Run the package's own configure and generation steps.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generate: Option<Generate>,
}

/// The package's build steps that generate sources (the `generate` step).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Generate {
    /// The directory of the unpacked archive the build runs in (a copy of it).
    pub dir: String,
    /// The arguments of `sh ./configure`.
    #[serde(default)]
    pub configure: Vec<String>,
    /// `make` invocations in order, each its argument list (`["-C", "gen"]`).
    pub make: Vec<Vec<String>>,
    /// Programs the build needs besides `sh` and `make` (`m4`, `gcc`).
    #[serde(default)]
    pub tools: Vec<String>,
    /// The extensions kept in the prepared tree, without the dot (`ads`, `adb`).
    pub keep: Vec<String>,
}

/// How long one command of a `generate` step may run.
const GENERATE_BOUND: std::time::Duration = std::time::Duration::from_secs(600);

/// Where the maps are and where their sources belong.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SourceMaps {
    /// The directory of the unpacked archive whose `*.map` files are read (recursively).
    pub maps: String,
    /// Where that directory sat in the package's repository, so `..` in a source
    /// resolves to the repository's own layout.
    pub at: String,
    /// The extensions kept, without the dot (`ts`, `tsx`).
    pub extensions: Vec<String>,
    /// The declaration files the package ships, added for the modules the maps do
    /// not recover (type-only modules and re-export barrels, which a bundler drops
    /// from its maps): without them every type those modules declare is unknown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub declarations: Option<Declarations>,
}

/// Where the package's `.d.ts` files are and where their modules sat.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Declarations {
    /// The directory of the unpacked archive holding the `.d.ts` tree.
    pub from: String,
    /// The repository directory that tree mirrors.
    pub at: String,
}

/// What a recovery made, written beside the recovered tree.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Recovered {
    pub maps: u64,
    pub files: u64,
    pub lines: u64,
    /// Files per extension.
    pub by_extension: BTreeMap<String, u64>,
    /// Sources not recovered, by reason: `node_modules`, `extension`, `virtual`,
    /// `no_content`.
    pub skipped: BTreeMap<String, u64>,
    /// Declaration files added for modules the maps do not recover.
    #[serde(default)]
    pub declarations: u64,
}

/// The tree `root`/`include` apply to: the prepared one when the corpus names a step.
pub fn prepared_tree(
    unpacked: &Path,
    corpus: &CorpusEntry,
    cache_dir: &Path,
) -> Result<PathBuf, Outcome> {
    let Some(step) = &corpus.prepare else {
        return Ok(unpacked.to_path_buf());
    };
    let target = cache_dir.join("prepared").join(tree_name(corpus, step));
    if target.is_dir() {
        return Ok(target);
    }
    // Built into a directory of its own, renamed into place once whole (D2).
    let recovered = crate::fetch::build_into_place(&target, "prepare", |partial| {
        match (&step.source_maps, &step.generate) {
            (Some(maps), None) => recover_sources(unpacked, maps, partial),
            (None, Some(generate)) => generate_sources(unpacked, generate, partial),
            _ => Err(failed(format!(
                "corpus {}: a preparation step names exactly one of source_maps and generate",
                corpus.id
            ))),
        }
    })?;
    let mut summary = serde_json::to_string_pretty(&recovered).expect("counts serialize");
    summary.push('\n');
    let _ = crate::atomic::write_atomic(&target.with_extension("json"), summary.as_bytes());
    Ok(target)
}

/// The counts of a prepared tree, when it was made.
pub fn recovered_counts(prepared: &Path) -> Option<Recovered> {
    let text = std::fs::read_to_string(prepared.with_extension("json")).ok()?;
    serde_json::from_str(&text).ok()
}

/// `<id>-<pin>-<digest of the step>`, the whole pin (D3).
fn tree_name(corpus: &CorpusEntry, step: &Prepare) -> String {
    let spec = serde_json::to_string(step).expect("steps serialize");
    let digest = crate::proofs::hex(&Sha256::digest(spec.as_bytes()));
    let pin = corpus.source.sha256.to_ascii_lowercase();
    format!("{}-{pin}-{}", corpus.id, &digest[..12])
}

/// The maps' sources, written under `into` at their repository paths.
pub fn recover_sources(
    unpacked: &Path,
    spec: &SourceMaps,
    into: &Path,
) -> Result<Recovered, Outcome> {
    let maps_dir = unpacked.join(relative_parts(&spec.maps, "maps")?.join("/"));
    let at = relative_parts(&spec.at, "at")?;
    if !maps_dir.is_dir() {
        return Err(failed(format!(
            "maps `{}` is not a directory of the archive",
            spec.maps
        )));
    }
    let mut maps = Vec::new();
    list_files(&maps_dir, &maps_dir, ".map", &mut maps)
        .map_err(|e| failed(format!("cannot list the maps: {e}")))?;
    maps.sort();
    let mut recovered = Recovered::default();
    // path → (content, the map that gave it)
    let mut files: BTreeMap<String, (String, String)> = BTreeMap::new();
    for map in &maps {
        recovered.maps += 1;
        let bytes = read_capped(&maps_dir.join(map), MAP_CAP)
            .map_err(|e| failed(format!("cannot read {map}: {e}")))?;
        let parsed: MapFile = serde_json::from_slice(&bytes)
            .map_err(|e| failed(format!("{map} is not a source map: {e}")))?;
        let mut base = at.clone();
        base.extend(map.split('/').map(str::to_string));
        base.pop(); // the map's own file name
        let source_root = parsed.source_root.unwrap_or_default();
        for (i, source) in parsed.sources.iter().enumerate() {
            let content = parsed.sources_content.get(i).cloned().flatten();
            let Some(placed) = place_source(&base, &source_root, source, spec, map)? else {
                *recovered
                    .skipped
                    .entry(skip_reason(&source_root, source, spec).into())
                    .or_default() += 1;
                continue;
            };
            let Some(content) = content else {
                *recovered.skipped.entry("no_content".into()).or_default() += 1;
                continue;
            };
            match files.get(&placed) {
                Some((earlier, from)) if *earlier != content => {
                    return Err(failed(format!(
                        "{placed}: {from} and {map} give different contents; refusing to pick one"
                    )));
                }
                Some(_) => {}
                None => {
                    files.insert(placed, (content, map.clone()));
                }
            }
        }
    }
    if files.is_empty() {
        return Err(failed(format!(
            "the maps under `{}` recover no source with extension {:?}",
            spec.maps, spec.extensions
        )));
    }
    for (path, (content, _)) in &files {
        let file = into.join(path);
        if let Some(parent) = file.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|e| failed(format!("cannot create {}: {e}", parent.display())))?;
        }
        std::fs::write(&file, content).map_err(|e| failed(format!("cannot write {path}: {e}")))?;
        recovered.files += 1;
        recovered.lines += content.lines().count() as u64;
        let extension = path.rsplit('.').next().unwrap_or_default().to_string();
        *recovered.by_extension.entry(extension).or_default() += 1;
    }
    if let Some(declarations) = &spec.declarations {
        recovered.declarations = add_declarations(unpacked, declarations, &files, into)?;
    }
    Ok(recovered)
}

/// The `generate` step: configure and make a copy of `dir`, then keep its files
/// with one of the `keep` extensions under `into`, at their paths under `dir`.
pub fn generate_sources(
    unpacked: &Path,
    spec: &Generate,
    into: &Path,
) -> Result<Recovered, Outcome> {
    let dir = relative_parts(&spec.dir, "dir")?;
    let source = unpacked.join(dir.join("/"));
    if !source.join("configure").is_file() {
        return Err(failed(format!(
            "dir `{}` of the archive has no configure script",
            spec.dir
        )));
    }
    let sh = oracles::Tool::locate("sh")?;
    let make = oracles::Tool::locate("make")?;
    for tool in &spec.tools {
        oracles::Tool::locate(tool)?;
    }
    let build = into.with_extension("build");
    let _ = std::fs::remove_dir_all(&build);
    let result = (|| {
        copy_files(&source, &build)
            .map_err(|e| failed(format!("cannot copy `{}`: {e}", spec.dir)))?;
        sh.command(&build)
            .arg("./configure")
            .args(&spec.configure)
            .timeout(GENERATE_BOUND)
            .run()?;
        for args in &spec.make {
            make.command(&build)
                .args(args)
                .timeout(GENERATE_BOUND)
                .run()?;
        }
        keep_sources(&build, &into.join(dir.join("/")), &spec.keep)
    })();
    let _ = std::fs::remove_dir_all(&build);
    result
}

/// Copies the files of `build` with a kept extension to `into`; counts them.
fn keep_sources(build: &Path, into: &Path, keep: &[String]) -> Result<Recovered, Outcome> {
    let mut found = Vec::new();
    for extension in keep {
        list_files(build, build, &format!(".{extension}"), &mut found)
            .map_err(|e| failed(format!("cannot list the built tree: {e}")))?;
    }
    found.sort();
    found.dedup();
    if found.is_empty() {
        return Err(failed(format!(
            "the build left no file with extension {keep:?}"
        )));
    }
    let mut counts = Recovered::default();
    for relative in found {
        let target = into.join(&relative);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|e| failed(format!("cannot create {}: {e}", parent.display())))?;
        }
        let text = std::fs::read(build.join(&relative))
            .map_err(|e| failed(format!("cannot read {relative}: {e}")))?;
        std::fs::write(&target, &text)
            .map_err(|e| failed(format!("cannot write {relative}: {e}")))?;
        counts.files += 1;
        counts.lines += text.iter().filter(|&&b| b == b'\n').count() as u64;
        let extension = relative.rsplit('.').next().unwrap_or_default().to_string();
        *counts.by_extension.entry(extension).or_default() += 1;
    }
    Ok(counts)
}

/// Copies the regular files and directories under `from` to `to` (links are not
/// carried over), keeping their permissions (`configure` is run by `sh`, but the
/// scripts it runs are executed directly).
fn copy_files(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    let mut entries: Vec<_> = std::fs::read_dir(from)?.collect::<Result<_, _>>()?;
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let kind = entry.file_type()?;
        let target = to.join(entry.file_name());
        if kind.is_dir() {
            copy_files(&entry.path(), &target)?;
        } else if kind.is_file() {
            std::fs::copy(entry.path(), &target)?;
        }
    }
    Ok(())
}

/// Copies each `.d.ts` under `from` to its place under `at`, unless a source of the
/// same module (`x.ts`, `x.tsx` for `x.d.ts`) was recovered; returns how many.
fn add_declarations(
    unpacked: &Path,
    spec: &Declarations,
    recovered: &BTreeMap<String, (String, String)>,
    into: &Path,
) -> Result<u64, Outcome> {
    let from = unpacked.join(relative_parts(&spec.from, "declarations.from")?.join("/"));
    let at = relative_parts(&spec.at, "declarations.at")?;
    if !from.is_dir() {
        return Err(failed(format!(
            "declarations `{}` is not a directory of the archive",
            spec.from
        )));
    }
    let mut found = Vec::new();
    list_files(&from, &from, ".d.ts", &mut found)
        .map_err(|e| failed(format!("cannot list the declarations: {e}")))?;
    found.sort();
    let mut added = 0;
    for relative in found {
        let mut parts = at.clone();
        parts.extend(relative.split('/').map(str::to_string));
        let placed = parts.join("/");
        let stem = placed.trim_end_matches(".d.ts");
        let has_source = ["ts", "tsx", "mts", "cts"]
            .iter()
            .any(|ext| recovered.contains_key(&format!("{stem}.{ext}")));
        if has_source {
            continue;
        }
        let target = into.join(&placed);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|e| failed(format!("cannot create {}: {e}", parent.display())))?;
        }
        std::fs::copy(from.join(&relative), &target)
            .map_err(|e| failed(format!("cannot copy {relative}: {e}")))?;
        added += 1;
    }
    Ok(added)
}

#[derive(Deserialize)]
struct MapFile {
    #[serde(default)]
    sources: Vec<String>,
    #[serde(default, rename = "sourcesContent")]
    sources_content: Vec<Option<String>>,
    #[serde(default, rename = "sourceRoot")]
    source_root: Option<String>,
}

/// The repository path of one source, or `None` when it is not kept (the reason is
/// [`skip_reason`]'s). A kept source that climbs above the repository is refused.
fn place_source(
    base: &[String],
    source_root: &str,
    source: &str,
    spec: &SourceMaps,
    map: &str,
) -> Result<Option<String>, Outcome> {
    if is_virtual(source_root, source) {
        return Ok(None);
    }
    let mut parts: Vec<String> = base.to_vec();
    for piece in source_root.split('/').chain(source.split('/')) {
        match piece {
            "" | "." => {}
            ".." => {
                if parts.pop().is_none() {
                    if !kept_extension(source, spec) || in_node_modules(source) {
                        return Ok(None);
                    }
                    return Err(failed(format!(
                        "{map}: source `{source}` climbs above the repository root `{}` puts the maps at",
                        spec.at
                    )));
                }
            }
            other => parts.push(other.to_string()),
        }
    }
    if parts.iter().any(|p| p == "node_modules") || !kept_extension(source, spec) {
        return Ok(None);
    }
    Ok(Some(parts.join("/")))
}

fn skip_reason(source_root: &str, source: &str, spec: &SourceMaps) -> &'static str {
    if is_virtual(source_root, source) {
        "virtual"
    } else if in_node_modules(source) {
        "node_modules"
    } else if !kept_extension(source, spec) {
        "extension"
    } else {
        "outside_repository"
    }
}

/// A source that names no file: `<define:import.meta.env>`, `webpack://…`, an
/// absolute path.
fn is_virtual(source_root: &str, source: &str) -> bool {
    let odd = |s: &str| s.contains(':') || s.starts_with('<') || s.starts_with('/');
    odd(source) || (!source_root.is_empty() && odd(source_root))
}

fn in_node_modules(source: &str) -> bool {
    source.split('/').any(|p| p == "node_modules")
}

fn kept_extension(source: &str, spec: &SourceMaps) -> bool {
    let name = source.rsplit('/').next().unwrap_or(source);
    name.rsplit_once('.')
        .is_some_and(|(stem, ext)| !stem.is_empty() && spec.extensions.iter().any(|e| e == ext))
        && !name.ends_with(".d.ts")
}

/// A relative path's components, refusing anything that could leave the archive.
fn relative_parts(text: &str, what: &str) -> Result<Vec<String>, Outcome> {
    let parts: Vec<String> = text
        .split('/')
        .filter(|p| !p.is_empty() && *p != ".")
        .map(str::to_string)
        .collect();
    if text.starts_with('/') || parts.iter().any(|p| p == ".." || p.contains('\\')) {
        return Err(failed(format!(
            "{what} `{text}` must be a relative path inside the archive"
        )));
    }
    Ok(parts)
}

/// Every file under `dir` whose name ends with `suffix`, relative to `top`,
/// `/`-separated (links not followed).
fn list_files(top: &Path, dir: &Path, suffix: &str, out: &mut Vec<String>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let kind = entry.file_type()?;
        let path = entry.path();
        if kind.is_dir() {
            list_files(top, &path, suffix, out)?;
        } else if kind.is_file() && entry.file_name().to_string_lossy().ends_with(suffix) {
            let relative = path
                .strip_prefix(top)
                .expect("walked under the top")
                .components()
                .map(|c| c.as_os_str().to_string_lossy())
                .collect::<Vec<_>>()
                .join("/");
            out.push(relative);
        }
    }
    Ok(())
}

fn failed(detail: String) -> Outcome {
    Outcome::ToolFailed {
        tool: TOOL.into(),
        detail,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(path: &Path, text: &str) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    fn map(sources: &[&str], contents: &[Option<&str>]) -> String {
        serde_json::json!({"version": 3, "sources": sources, "sourcesContent": contents,
                           "mappings": ""})
        .to_string()
    }

    fn spec() -> SourceMaps {
        SourceMaps {
            maps: "package/dist/dev".into(),
            at: "packages/app/dist/dev".into(),
            extensions: vec!["ts".into(), "tsx".into()],
            declarations: None,
        }
    }

    #[test]
    fn sources_land_at_their_repository_paths_and_the_rest_is_counted() {
        let dir = tempfile::tempdir().unwrap();
        let unpacked = dir.path().join("unpacked");
        write(
            &unpacked.join("package/dist/dev/index.js.map"),
            &map(
                &[
                    "../../index.tsx",
                    "../../../math/point.ts",
                    "../../../../node_modules/react/index.js",
                    "../../../../node_modules/x/y.ts",
                    "<define:import.meta.env>",
                    "../../a.scss",
                    "../../empty.ts",
                ],
                &[
                    Some("export const A = 1;\n"),
                    Some("export function p() {}\nexport function q() {}\n"),
                    Some("x"),
                    Some("x"),
                    Some("{}"),
                    Some("a {}"),
                    None,
                ],
            ),
        );
        // A second map repeating one source with the same content is fine.
        write(
            &unpacked.join("package/dist/dev/chunks/c.js.map"),
            &map(&["../../../index.tsx"], &[Some("export const A = 1;\n")]),
        );
        let into = dir.path().join("out");
        let got = recover_sources(&unpacked, &spec(), &into).unwrap();
        assert_eq!((got.maps, got.files, got.lines), (2, 2, 3));
        assert_eq!(
            std::fs::read_to_string(into.join("packages/app/index.tsx")).unwrap(),
            "export const A = 1;\n"
        );
        assert!(into.join("packages/math/point.ts").is_file());
        assert!(!into.join("node_modules").exists());
        let skipped: Vec<(&str, u64)> = got.skipped.iter().map(|(k, v)| (k.as_str(), *v)).collect();
        assert_eq!(
            skipped,
            [
                ("extension", 1),
                ("no_content", 1),
                ("node_modules", 2),
                ("virtual", 1)
            ]
        );
        assert_eq!(got.by_extension["ts"], 1);
        assert_eq!(got.by_extension["tsx"], 1);
        assert_eq!(got.declarations, 0);
    }

    #[test]
    fn declarations_fill_only_the_modules_the_maps_lack() {
        let dir = tempfile::tempdir().unwrap();
        let unpacked = dir.path().join("unpacked");
        write(
            &unpacked.join("package/dist/dev/index.js.map"),
            &map(&["../../index.tsx"], &[Some("export {};\n")]),
        );
        write(
            &unpacked.join("package/dist/types/app/index.d.ts"),
            "export {};\n",
        );
        write(
            &unpacked.join("package/dist/types/app/types.d.ts"),
            "export type T = 1;\n",
        );
        write(
            &unpacked.join("package/dist/types/math/index.d.ts"),
            "export * from \"./p\";\n",
        );
        let mut with = spec();
        with.declarations = Some(Declarations {
            from: "package/dist/types".into(),
            at: "packages".into(),
        });
        let into = dir.path().join("out");
        let got = recover_sources(&unpacked, &with, &into).unwrap();
        assert_eq!((got.files, got.declarations), (1, 2));
        assert!(into.join("packages/app/index.tsx").is_file());
        assert!(
            !into.join("packages/app/index.d.ts").exists(),
            "the source wins"
        );
        assert!(into.join("packages/app/types.d.ts").is_file());
        assert!(into.join("packages/math/index.d.ts").is_file());
    }

    #[test]
    fn two_contents_for_one_path_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let unpacked = dir.path().join("unpacked");
        write(
            &unpacked.join("package/dist/dev/a.js.map"),
            &map(&["../../x.ts"], &[Some("one\n")]),
        );
        write(
            &unpacked.join("package/dist/dev/b.js.map"),
            &map(&["../../x.ts"], &[Some("two\n")]),
        );
        let err = recover_sources(&unpacked, &spec(), &dir.path().join("out")).unwrap_err();
        assert_eq!(err.token(), "tool_failed");
        let text = err.to_string();
        assert!(
            text.contains("packages/app/x.ts") && text.contains("a.js.map"),
            "{text}"
        );
    }

    #[test]
    fn a_source_above_the_repository_or_a_path_out_of_the_archive_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let unpacked = dir.path().join("unpacked");
        write(
            &unpacked.join("package/dist/dev/a.js.map"),
            &map(&["../../../../../x.ts"], &[Some("x\n")]),
        );
        let err = recover_sources(&unpacked, &spec(), &dir.path().join("out")).unwrap_err();
        assert!(err.to_string().contains("climbs above"), "{err}");
        let mut bad = spec();
        bad.maps = "../elsewhere".into();
        let err = recover_sources(&unpacked, &bad, &dir.path().join("out")).unwrap_err();
        assert!(err.to_string().contains("relative path"), "{err}");
    }

    #[test]
    fn the_prepared_tree_is_made_once_with_its_counts_beside_it() {
        let dir = tempfile::tempdir().unwrap();
        let unpacked = dir.path().join("unpacked");
        write(
            &unpacked.join("package/distribution/index.js.map"),
            &map(&["../source/index.ts"], &[Some("export {};\n")]),
        );
        let corpus: CorpusEntry = serde_json::from_value(serde_json::json!({
            "id": "ky", "language": "typescript",
            "source": {"registry": "npm", "package": "ky", "version": "2.1.0",
                       "sha256": "ab".repeat(32)},
            "prepare": {"source_maps": {"maps": "package/distribution", "at": "distribution",
                                        "extensions": ["ts"]}},
            "oracle": {"name": "tsc"}}))
        .unwrap();
        let cache = dir.path().join("cache");
        let tree = prepared_tree(&unpacked, &corpus, &cache).unwrap();
        assert!(tree.join("source/index.ts").is_file());
        assert_eq!(recovered_counts(&tree).unwrap().files, 1);
        assert_eq!(prepared_tree(&unpacked, &corpus, &cache).unwrap(), tree);
        let mut plain = corpus.clone();
        plain.prepare = None;
        assert_eq!(prepared_tree(&unpacked, &plain, &cache).unwrap(), unpacked);
    }
    #[test]
    fn a_generate_step_configures_makes_and_keeps_the_sources_only() {
        let dir = tempfile::tempdir().unwrap();
        let unpacked = dir.path().join("unpacked");
        write(
            &unpacked.join("pkg/configure"),
            "#!/bin/sh\necho \"package G is end G; -- $1\" > gen.ads\n",
        );
        write(
            &unpacked.join("pkg/Makefile"),
            "made:\n\tcp gen.ads sub/made.adb\n",
        );
        write(&unpacked.join("pkg/sub/a.ads"), "package A is end A;\n");
        write(&unpacked.join("pkg/sub/notes.txt"), "not a source\n");
        let spec = Generate {
            dir: "pkg".into(),
            configure: vec!["--quiet".into()],
            make: vec![vec!["made".into()]],
            tools: vec![],
            keep: vec!["ads".into(), "adb".into()],
        };
        let into = dir.path().join("out");
        let got = generate_sources(&unpacked, &spec, &into).unwrap();
        assert_eq!((got.files, got.lines), (3, 3));
        assert_eq!(
            std::fs::read_to_string(into.join("pkg/sub/made.adb")).unwrap(),
            "package G is end G; -- --quiet\n"
        );
        assert!(into.join("pkg/gen.ads").is_file());
        assert!(into.join("pkg/sub/a.ads").is_file());
        assert!(!into.join("pkg/Makefile").exists() && !into.join("pkg/sub/notes.txt").exists());
        assert!(
            !into.with_extension("build").exists(),
            "the build copy is removed"
        );
        let mut missing = spec.clone();
        missing.tools = vec!["no-such-tool-anywhere".into()];
        let err = generate_sources(&unpacked, &missing, &dir.path().join("out2")).unwrap_err();
        assert_eq!(err.token(), "tool_missing");
        let mut failing = spec;
        failing.make = vec![vec!["no-such-target".into()]];
        let err = generate_sources(&unpacked, &failing, &dir.path().join("out3")).unwrap_err();
        assert_eq!(err.token(), "tool_failed");
    }

    #[test]
    fn a_step_names_exactly_one_kind() {
        let corpus: CorpusEntry = serde_json::from_value(serde_json::json!({
            "id": "x", "language": "ada",
            "source": {"registry": "debian", "package": "x", "version": "1",
                       "sha256": "ab".repeat(32)},
            "prepare": {},
            "oracle": {"name": "gnat"}}))
        .unwrap();
        let dir = tempfile::tempdir().unwrap();
        let err = prepared_tree(dir.path(), &corpus, &dir.path().join("cache")).unwrap_err();
        assert!(err.to_string().contains("exactly one"), "{err}");
    }
}
