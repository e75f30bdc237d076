//! Maven Central through its ordinary client, `mvn`: one artifact copied by its
//! coordinates (a corpus's `sources` jar), or the classpath of a list of pinned
//! coordinates with their transitive dependencies (an oracle's compile classpath).
//!
//! Every run goes through the subprocess door. The maven-dependency-plugin is named
//! with its version, so what `mvn` does does not move with Maven's defaults.

use std::path::{Path, PathBuf};
use std::time::Duration;

use sha2::{Digest, Sha256};

use crate::toolchain::{Outcome, Tool};

/// The plugin every call runs, by exact version.
pub const DEPENDENCY_PLUGIN: &str = "org.apache.maven.plugins:maven-dependency-plugin:3.6.1";

/// Maven coordinates `group:artifact:version[:packaging[:classifier]]`, checked.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Coordinates {
    pub group: String,
    pub artifact: String,
    pub version: String,
    pub packaging: Option<String>,
    pub classifier: Option<String>,
}

impl Coordinates {
    /// Parses `g:a:v`, `g:a:v:packaging` or `g:a:v:packaging:classifier`.
    pub fn parse(text: &str) -> Result<Coordinates, String> {
        let parts: Vec<&str> = text.split(':').collect();
        let ok = |s: &str| {
            !s.is_empty()
                && s.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "._-+".contains(c))
        };
        if !(3..=5).contains(&parts.len()) || !parts.iter().all(|p| ok(p)) {
            return Err(format!(
                "`{text}` is not Maven coordinates group:artifact:version[:packaging[:classifier]]"
            ));
        }
        Ok(Coordinates {
            group: parts[0].into(),
            artifact: parts[1].into(),
            version: parts[2].into(),
            packaging: parts.get(3).map(|s| s.to_string()),
            classifier: parts.get(4).map(|s| s.to_string()),
        })
    }

    /// The `-Dartifact=` form: `g:a:v:packaging[:classifier]`.
    pub fn artifact_arg(&self) -> String {
        let mut text = format!(
            "{}:{}:{}:{}",
            self.group,
            self.artifact,
            self.version,
            self.packaging.as_deref().unwrap_or("jar")
        );
        if let Some(classifier) = &self.classifier {
            text.push(':');
            text.push_str(classifier);
        }
        text
    }

    /// The file name Maven gives the artifact (`gson-2.10.1-sources.jar`).
    pub fn file_name(&self) -> String {
        let classifier = self
            .classifier
            .as_deref()
            .map_or(String::new(), |c| format!("-{c}"));
        format!(
            "{}-{}{}.{}",
            self.artifact,
            self.version,
            classifier,
            self.packaging.as_deref().unwrap_or("jar")
        )
    }
}

/// Finds `mvn`; absent is `tool_missing`.
pub fn locate_mvn() -> Result<Tool, Outcome> {
    Tool::locate("mvn").map_err(|_| Outcome::ToolMissing {
        tool: "mvn".into(),
        detail: "Maven (`mvn`) is not on PATH; `make setup` installs it".into(),
    })
}

/// Copies one artifact from Maven Central into `out_dir` (`dependency:copy`); returns
/// the file. `work_dir` is the directory mvn runs in.
pub fn copy_artifact(
    coordinates: &Coordinates,
    out_dir: &Path,
    bound: Duration,
) -> Result<PathBuf, Outcome> {
    let mvn = locate_mvn()?;
    std::fs::create_dir_all(out_dir).map_err(|e| failed(format!("cannot create {e}")))?;
    let out_dir = absolute(out_dir)?;
    mvn.command(&out_dir)
        .args(["-B", "-q", "-ntp"])
        .arg(format!("{DEPENDENCY_PLUGIN}:copy"))
        .arg(format!("-Dartifact={}", coordinates.artifact_arg()))
        .arg(format!("-DoutputDirectory={}", out_dir.display()))
        .arg("-Dmdep.overWriteReleases=true")
        .timeout(bound)
        .run()
        .map_err(|o| last_maven_error(o, "dependency:copy"))?;
    let file = out_dir.join(coordinates.file_name());
    if file.is_file() {
        Ok(file)
    } else {
        Err(failed(format!(
            "dependency:copy of {} left no {}",
            coordinates.artifact_arg(),
            coordinates.file_name()
        )))
    }
}

/// The jars of `coordinates` and their transitive compile and runtime dependencies,
/// resolved once into `cache_dir/<digest of the list>/` and reused after that.
pub fn resolve_classpath(
    coordinates: &[Coordinates],
    cache_dir: &Path,
    bound: Duration,
) -> Result<Vec<PathBuf>, Outcome> {
    if coordinates.is_empty() {
        return Ok(Vec::new());
    }
    let mut sorted = coordinates.to_vec();
    sorted.sort();
    let key = {
        let mut hasher = Sha256::new();
        hasher.update(DEPENDENCY_PLUGIN.as_bytes());
        for c in &sorted {
            hasher.update(c.artifact_arg().as_bytes());
            hasher.update(b"\n");
        }
        hex16(&hasher.finalize())
    };
    std::fs::create_dir_all(cache_dir).map_err(|e| failed(format!("cannot create cache: {e}")))?;
    let dir = absolute(cache_dir)?.join(&key);
    let listing = dir.join("classpath.txt");
    if let Ok(text) = std::fs::read_to_string(&listing) {
        let jars: Vec<PathBuf> = text
            .lines()
            .filter(|l| !l.is_empty())
            .map(|l| dir.join("lib").join(l))
            .collect();
        if jars.iter().all(|j| j.is_file()) {
            return Ok(jars);
        }
    }
    let mvn = locate_mvn()?;
    let partial = dir.with_extension("partial");
    let _ = std::fs::remove_dir_all(&partial);
    std::fs::create_dir_all(partial.join("lib"))
        .map_err(|e| failed(format!("cannot create {}: {e}", partial.display())))?;
    std::fs::write(partial.join("pom.xml"), throwaway_pom(&sorted))
        .map_err(|e| failed(format!("cannot write the throwaway pom: {e}")))?;
    mvn.command(&partial)
        .args(["-B", "-q", "-ntp", "-f", "pom.xml"])
        .arg(format!("{DEPENDENCY_PLUGIN}:copy-dependencies"))
        .arg("-DoutputDirectory=lib")
        .arg("-DincludeScope=runtime")
        .timeout(bound)
        .run()
        .map_err(|o| last_maven_error(o, "dependency:copy-dependencies"))?;
    let mut jars: Vec<String> = std::fs::read_dir(partial.join("lib"))
        .map_err(|e| failed(format!("no lib directory after mvn: {e}")))?
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".jar"))
        .collect();
    jars.sort();
    std::fs::write(partial.join("classpath.txt"), jars.join("\n") + "\n")
        .map_err(|e| failed(format!("cannot write the classpath listing: {e}")))?;
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::rename(&partial, &dir)
        .map_err(|e| failed(format!("cannot move the classpath into place: {e}")))?;
    Ok(jars.iter().map(|j| dir.join("lib").join(j)).collect())
}

fn throwaway_pom(coordinates: &[Coordinates]) -> String {
    let mut deps = String::new();
    for c in coordinates {
        deps.push_str(&format!(
            "    <dependency><groupId>{}</groupId><artifactId>{}</artifactId><version>{}</version>",
            c.group, c.artifact, c.version
        ));
        if let Some(p) = &c.packaging {
            deps.push_str(&format!("<type>{p}</type>"));
        }
        if let Some(k) = &c.classifier {
            deps.push_str(&format!("<classifier>{k}</classifier>"));
        }
        deps.push_str("</dependency>\n");
    }
    format!(
        "<project xmlns=\"http://maven.apache.org/POM/4.0.0\">\n  <modelVersion>4.0.0</modelVersion>\n  \
         <groupId>callgraph.oracle</groupId>\n  <artifactId>classpath</artifactId>\n  <version>0</version>\n  \
         <packaging>pom</packaging>\n  <dependencies>\n{deps}  </dependencies>\n</project>\n"
    )
}

/// mvn prints its errors on stdout as `[ERROR] …`; the door's detail holds only the last
/// stderr line, so name the step instead when that is empty.
fn last_maven_error(outcome: Outcome, step: &str) -> Outcome {
    match outcome {
        Outcome::ToolFailed { tool, detail } => Outcome::ToolFailed {
            tool,
            detail: format!("{step}: {detail}"),
        },
        other => other,
    }
}

fn absolute(path: &Path) -> Result<PathBuf, Outcome> {
    path.canonicalize()
        .map_err(|e| failed(format!("cannot resolve {}: {e}", path.display())))
}

fn failed(detail: String) -> Outcome {
    Outcome::ToolFailed {
        tool: "mvn".into(),
        detail,
    }
}

fn hex16(digest: &[u8]) -> String {
    digest[..8].iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinates_are_checked_and_named_as_maven_names_files() {
        let c = Coordinates::parse("com.google.code.gson:gson:2.10.1:jar:sources").unwrap();
        assert_eq!(
            c.artifact_arg(),
            "com.google.code.gson:gson:2.10.1:jar:sources"
        );
        assert_eq!(c.file_name(), "gson-2.10.1-sources.jar");
        let j = Coordinates::parse("junit:junit:4.11").unwrap();
        assert_eq!(j.artifact_arg(), "junit:junit:4.11:jar");
        assert_eq!(j.file_name(), "junit-4.11.jar");
        for bad in ["junit", "a:b", "a:b:c:d:e:f", "a:b:1.0; rm -rf /", "a::1"] {
            assert!(Coordinates::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_throwaway_pom_lists_every_pin() {
        let pom = throwaway_pom(&[Coordinates::parse("junit:junit:4.11").unwrap()]);
        assert!(pom.contains(
            "<groupId>junit</groupId><artifactId>junit</artifactId><version>4.11</version>"
        ));
    }
}
