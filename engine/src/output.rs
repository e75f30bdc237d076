//! Writing the report to `--out`: atomically where that is possible, through the
//! node where it is not, and never replacing what the path points at (D1, D11).
//!
//! - A regular file, a new name in a directory, or a link to either: the report goes
//!   to a temporary file with a name of its own beside the file the path resolves
//!   to, and is renamed over it once complete. A link stays a link; its target gets
//!   the new report. Two runs to one path each write their own temporary file, so
//!   each either lands whole or fails; neither reports success with the other's text.
//! - Anything else that exists (a device such as `/dev/null`, a FIFO, a terminal):
//!   written through, opened without creating or truncating; a rename would replace
//!   the node itself.
//! - A directory: refused (`io_error`).

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::error::EngineError;

fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> EngineError + '_ {
    move |source| EngineError::Io {
        path: path.display().to_string(),
        source,
    }
}

/// Where `path` leads, decided without writing.
enum Destination {
    /// Rename a complete temporary file over this path (which may not exist yet).
    Replace(PathBuf),
    /// Write into the existing node itself; never created (a device that vanished
    /// meanwhile must not come back as a regular file).
    WriteThrough,
    /// A link to a name that does not exist yet: the file is created through it.
    CreateThroughLink,
}

fn destination(path: &Path) -> Result<Destination, EngineError> {
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_dir() => Err(EngineError::Io {
            path: path.display().to_string(),
            source: std::io::Error::new(std::io::ErrorKind::IsADirectory, "is a directory"),
        }),
        Ok(meta) if meta.is_file() => {
            // Through a link: the file the link names is the one replaced.
            let real = path.canonicalize().map_err(io_error(path))?;
            Ok(Destination::Replace(real))
        }
        Ok(_) => Ok(Destination::WriteThrough),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            match std::fs::symlink_metadata(path) {
                Ok(_) => Ok(Destination::CreateThroughLink),
                Err(_) => Ok(Destination::Replace(path.to_path_buf())),
            }
        }
        Err(e) => Err(io_error(path)(e)),
    }
}

/// Writes `bytes` to `path` (see the module comment).
pub fn write_report(path: &Path, bytes: &[u8]) -> Result<(), EngineError> {
    match destination(path)? {
        Destination::WriteThrough => write_into(path, bytes, false),
        Destination::CreateThroughLink => write_into(path, bytes, true),
        Destination::Replace(target) => replace(&target, bytes),
    }
}

/// Writes into the node at `path`, neither truncating it nor (unless `create`)
/// creating it.
fn write_into(path: &Path, bytes: &[u8], create: bool) -> Result<(), EngineError> {
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create(create)
        .truncate(false)
        .open(path)
        .map_err(io_error(path))?;
    file.write_all(bytes).map_err(io_error(path))?;
    file.flush().map_err(io_error(path))
}

fn replace(target: &Path, bytes: &[u8]) -> Result<(), EngineError> {
    let dir = match target.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let mut temp = tempfile::Builder::new()
        .prefix(".callgraph-")
        .suffix(".tmp")
        .tempfile_in(dir)
        .map_err(io_error(target))?;
    temp.write_all(bytes).map_err(io_error(target))?;
    keep_mode(target, temp.as_file()).map_err(io_error(target))?;
    temp.persist(target)
        .map_err(|e| io_error(target)(e.error))?;
    Ok(())
}

/// The temporary file is private (0600); the report keeps the mode of the file it
/// replaces, or gets 0644 when new.
#[cfg(unix)]
fn keep_mode(target: &Path, temp: &std::fs::File) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(target).map_or(0o644, |m| m.permissions().mode() & 0o7777);
    temp.set_permissions(std::fs::Permissions::from_mode(mode))
}

#[cfg(not(unix))]
fn keep_mode(_target: &Path, _temp: &std::fs::File) -> std::io::Result<()> {
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_link_stays_a_link_and_its_target_gets_the_report() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("t.json");
        std::fs::write(&target, "old").unwrap();
        let link = dir.path().join("l.json");
        std::os::unix::fs::symlink("t.json", &link).unwrap();
        write_report(&link, b"new").unwrap();
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(std::fs::read(&target).unwrap(), b"new");
        assert_eq!(names(dir.path()), ["l.json", "t.json"]);
    }

    #[test]
    fn a_fifo_is_written_through_not_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("out.fifo");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || std::fs::read(fifo).unwrap())
        };
        write_report(&fifo, b"through the pipe").unwrap();
        assert_eq!(reader.join().unwrap(), b"through the pipe");
        let kind = std::fs::symlink_metadata(&fifo).unwrap().file_type();
        use std::os::unix::fs::FileTypeExt;
        assert!(kind.is_fifo(), "the FIFO was replaced");
    }

    #[test]
    fn a_device_is_written_through_and_stays_a_device() {
        write_report(Path::new("/dev/null"), b"discarded").unwrap();
        use std::os::unix::fs::FileTypeExt;
        let kind = std::fs::symlink_metadata("/dev/null").unwrap().file_type();
        assert!(kind.is_char_device());
    }

    #[test]
    fn a_regular_file_is_replaced_whole_and_no_temporary_is_left() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("r.json");
        write_report(&out, b"a long first report").unwrap();
        write_report(&out, b"second").unwrap();
        assert_eq!(std::fs::read(&out).unwrap(), b"second");
        assert_eq!(names(dir.path()), ["r.json"]);
        let err = write_report(dir.path(), b"x").unwrap_err();
        assert_eq!(err.code(), "io_error");
        assert_eq!(names(dir.path()), ["r.json"]);
    }

    #[test]
    fn two_writers_to_one_path_never_share_a_temporary_file() {
        // D11: each writer's report lands whole; the file holds one of the two.
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("r.json");
        let big = vec![b'a'; 4 << 20];
        let writers: Vec<_> = [big.clone(), b"tiny".to_vec()]
            .into_iter()
            .map(|bytes| {
                let out = out.clone();
                std::thread::spawn(move || write_report(&out, &bytes))
            })
            .collect();
        for w in writers {
            w.join().unwrap().unwrap();
        }
        let landed = std::fs::read(&out).unwrap();
        assert!(landed == big || landed == b"tiny");
        assert_eq!(names(dir.path()), ["r.json"]);
    }
}
