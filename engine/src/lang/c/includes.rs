//! Where an `#include` leads in the tree: the file beside the including one, else
//! the one from the root, else the one file of the tree whose path ends with what
//! is written (the `-I` directories a build passes are not known; a path several
//! files end with is ambiguous). The preprocessor pass and the facts' include
//! resolution read includes by this one rule.

use crate::fasthash::{FastMap, FastSet};

/// The C/C++ files of the tree, by path and by every path suffix.
pub struct IncludePaths {
    paths: FastSet<String>,
    by_suffix: FastMap<String, Vec<String>>,
}

/// What an include names in the tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Found<'p> {
    File(&'p str),
    /// Several files of the tree end with the written path.
    Ambiguous,
    /// No file of the tree: a system header, a library's, or one the build generates.
    Absent,
}

impl IncludePaths {
    pub fn new<'a>(paths: impl Iterator<Item = &'a str>) -> IncludePaths {
        let paths: FastSet<String> = paths.map(str::to_string).collect();
        let mut by_suffix: FastMap<String, Vec<String>> = FastMap::default();
        for p in &paths {
            let mut rest = p.as_str();
            loop {
                by_suffix
                    .entry(rest.to_string())
                    .or_default()
                    .push(p.clone());
                match rest.split_once('/') {
                    Some((_, r)) => rest = r,
                    None => break,
                }
            }
        }
        IncludePaths { paths, by_suffix }
    }

    /// The file `written` names when `including` includes it.
    pub fn find(&self, including: &str, written: &str) -> Found<'_> {
        let dir = including.rsplit_once('/').map(|(d, _)| d).unwrap_or("");
        let beside = normalize(&if dir.is_empty() {
            written.to_string()
        } else {
            format!("{dir}/{written}")
        });
        let from_root = normalize(written);
        for candidate in [beside, from_root].into_iter().flatten() {
            if let Some(p) = self.paths.get(&candidate) {
                return Found::File(p);
            }
        }
        match self.by_suffix.get(written.trim_start_matches("./")) {
            Some(v) if v.len() == 1 => Found::File(&v[0]),
            Some(v) if v.len() > 1 => Found::Ambiguous,
            _ => Found::Absent,
        }
    }
}

/// `a/./b/../c.h` → `a/c.h`; `None` when it climbs out of the root.
fn normalize(path: &str) -> Option<String> {
    let mut out: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                out.pop()?;
            }
            p => out.push(p),
        }
    }
    Some(out.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn beside_then_root_then_the_one_suffix() {
        let t = IncludePaths::new(
            [
                "src/a.c",
                "src/a.h",
                "include/lib/api.h",
                "x/util.h",
                "y/util.h",
                "a.h",
            ]
            .into_iter(),
        );
        assert_eq!(t.find("src/a.c", "a.h"), Found::File("src/a.h"));
        assert_eq!(t.find("main.c", "a.h"), Found::File("a.h"));
        assert_eq!(t.find("src/a.c", "../a.h"), Found::File("a.h"));
        assert_eq!(
            t.find("src/a.c", "lib/api.h"),
            Found::File("include/lib/api.h")
        );
        assert_eq!(t.find("src/a.c", "util.h"), Found::Ambiguous);
        assert_eq!(t.find("src/a.c", "stdio.h"), Found::Absent);
        assert_eq!(t.find("src/a.c", "../../a.h"), Found::Absent);
    }
}
