//! Atomic writes: a table is either the old complete one or the new complete one,
//! never half of each. The text goes to a temporary file with a name of its own in
//! the target's directory (so the rename does not cross filesystems and two runs
//! never share one), then is renamed over the target.
//!
//! Only a regular file (or a new name) is replaced so: a link keeps being a link and
//! the file it names gets the text; a device or a FIFO (`--json /dev/stdout`) is
//! written through, never replaced by a regular file (D1).

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// Writes `bytes` to `path` atomically, creating the directory when needed.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let staged = stage(path, bytes)?;
    staged.commit()
}

/// A write prepared but not yet visible: its temporary file is complete.
pub struct Staged {
    target: PathBuf,
    temp: Option<tempfile::NamedTempFile>,
}

impl Staged {
    /// Makes the write visible: renames the temporary file over the target (or did
    /// nothing to do, for a node written through).
    pub fn commit(self) -> Result<()> {
        match self.temp {
            Some(temp) => temp
                .persist(&self.target)
                .map(|_| ())
                .map_err(|e| Error::io(&self.target, e.error)),
            None => Ok(()),
        }
    }
}

/// Where a write to `path` must go: `Some(file)` to replace by rename (the path
/// itself, or the regular file a link names), `None` to write through (a node that
/// exists, or a link to a name not yet created).
fn replaced_file(path: &Path) -> Result<Option<PathBuf>> {
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_dir() => Err(Error::InvalidArgument(format!(
            "{} is a directory, not a file",
            path.display()
        ))),
        Ok(meta) if meta.is_file() => path
            .canonicalize()
            .map(Some)
            .map_err(|e| Error::io(path, e)),
        Ok(_) => Ok(None),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let dangling_link = std::fs::symlink_metadata(path).is_ok();
            Ok((!dangling_link).then(|| path.to_path_buf()))
        }
        Err(e) => Err(Error::io(path, e)),
    }
}

/// Writes `bytes` where they cannot be seen yet (see [`Staged::commit`]); a device
/// or FIFO is written at once, since it has nothing to replace.
pub fn stage(path: &Path, bytes: &[u8]) -> Result<Staged> {
    let Some(target) = replaced_file(path)? else {
        // Created only through a dangling link: a device that vanished meanwhile
        // must not come back as a regular file.
        let dangling_link = std::fs::metadata(path).is_err();
        let mut node = std::fs::OpenOptions::new()
            .write(true)
            .create(dangling_link)
            .truncate(false)
            .open(path)
            .map_err(|e| Error::io(path, e))?;
        node.write_all(bytes).map_err(|e| Error::io(path, e))?;
        return Ok(Staged {
            target: path.to_path_buf(),
            temp: None,
        });
    };
    let dir = match target.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
    let mut temp = tempfile::NamedTempFile::new_in(&dir).map_err(|e| Error::io(&dir, e))?;
    temp.write_all(bytes).map_err(|e| Error::io(&target, e))?;
    temp.as_file()
        .sync_all()
        .map_err(|e| Error::io(&target, e))?;
    readable_by_all(temp.as_file()).map_err(|e| Error::io(&target, e))?;
    Ok(Staged {
        target,
        temp: Some(temp),
    })
}

/// Temporary files are created private (0600); a table is not a secret.
#[cfg(unix)]
fn readable_by_all(file: &std::fs::File) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    file.set_permissions(std::fs::Permissions::from_mode(0o644))
}

#[cfg(not(unix))]
fn readable_by_all(_file: &std::fs::File) -> std::io::Result<()> {
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_the_whole_file_and_leaves_no_temporary_behind() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("reports").join("t.md");
        write_atomic(&path, b"old table, long text").unwrap();
        write_atomic(&path, b"new").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new");
        let names: Vec<_> = std::fs::read_dir(path.parent().unwrap()).unwrap().collect();
        assert_eq!(names.len(), 1);
    }

    #[test]
    fn a_link_stays_a_link_and_its_target_gets_the_text() {
        // D1: `score --json lnk.json` replaced the link and left its target old.
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("tgt.json"), "old").unwrap();
        let link = dir.path().join("lnk.json");
        std::os::unix::fs::symlink("tgt.json", &link).unwrap();
        write_atomic(&link, b"new").unwrap();
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(std::fs::read(dir.path().join("tgt.json")).unwrap(), b"new");
    }

    #[test]
    fn a_fifo_or_a_device_is_written_through() {
        use std::os::unix::fs::FileTypeExt;
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("f");
        assert!(std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success());
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || std::fs::read(fifo).unwrap())
        };
        write_atomic(&fifo, b"row").unwrap();
        assert_eq!(reader.join().unwrap(), b"row");
        assert!(std::fs::symlink_metadata(&fifo)
            .unwrap()
            .file_type()
            .is_fifo());
        write_atomic(Path::new("/dev/null"), b"x").unwrap();
        assert!(std::fs::symlink_metadata("/dev/null")
            .unwrap()
            .file_type()
            .is_char_device());
    }
}
