//! Saving and loading a tournament file for `escaque torneo` (the
//! tournament crate itself does no I/O: it reads and writes TRF as text).
//! Saving is atomic: the text goes to a temporary file in the same
//! directory, is flushed to disk, and then replaces the old file with a
//! rename, so a crash mid-write leaves either the old file or the new one,
//! never half of one.

use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::Path;

use escaque_torneo::{trf, TorneoError, Tournament};

use crate::error::CliError;

/// Writes `text` to `path` atomically (temporary file, fsync, rename, fsync
/// of the directory).
pub fn write_atomic(path: &Path, text: &str) -> Result<(), CliError> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => std::path::PathBuf::from("."),
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "torneo".into());
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let result = (|| {
        let mut f = OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .open(&tmp)?;
        f.write_all(text.as_bytes())?;
        f.sync_all()?;
        drop(f);
        fs::rename(&tmp, path)?;
        // Make the rename itself durable (not possible on every platform).
        if let Ok(d) = File::open(&dir) {
            let _ = d.sync_all();
        }
        Ok(())
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result.map_err(|error| CliError::Save {
        path: path.display().to_string(),
        error,
    })
}

/// Saves a tournament as TRF (with escaque's extension lines), written by
/// [`trf::write_checked`]: a tournament whose text would not read back is
/// refused and the old file is left as it was.
pub fn save(path: &Path, t: &Tournament) -> Result<(), CliError> {
    let text = trf::write_checked(t).map_err(CliError::Tournament)?;
    write_atomic(path, &text)
}

/// The text of a tournament file: UTF-8, or Windows-1252 when it is not
/// valid UTF-8 (older Swiss-Manager exports); the flag says it was read as
/// Windows-1252 ([`trf::decode`]).
pub fn read_text(path: &Path) -> Result<(String, bool), CliError> {
    let bytes = fs::read(path).map_err(|error| CliError::Open {
        path: path.display().to_string(),
        error,
    })?;
    Ok(trf::decode(&bytes))
}

/// Loads a tournament saved by [`save`] or any TRF file; the flag says it
/// was read as Windows-1252.
pub fn load(path: &Path) -> Result<(Tournament, bool), CliError> {
    let (text, cp1252) = read_text(path)?;
    let t = trf::parse(&text).map_err(|e| CliError::Tournament(TorneoError::from(e)))?;
    Ok((t, cp1252))
}

#[cfg(test)]
mod tests {
    use super::*;
    use escaque_torneo::{Player, System};

    fn temp_dir(tag: &str) -> std::path::PathBuf {
        let dir =
            std::env::temp_dir().join(format!("escaque-torneo-file-{tag}-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_saved_tournament_reads_back_identical_and_leaves_no_temporary_file() {
        let dir = temp_dir("save");
        let path = dir.join("club.trf");
        let mut t = Tournament::new("Club", System::Swiss, 5);
        t.add_player(Player::new("Ana")).unwrap();
        t.add_player(Player::new("Luis")).unwrap();
        fs::write(&path, "old").unwrap();
        save(&path, &t).unwrap();
        assert_eq!(load(&path).unwrap(), (t, false));
        let names: Vec<_> = fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("club.trf")]);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_file_that_cannot_be_written_or_read_is_a_typed_error_naming_it() {
        let dir = temp_dir("fail");
        let missing = dir.join("no-such-dir").join("t.trf");
        let t = Tournament::new("Club", System::Swiss, 5);
        let e = save(&missing, &t).unwrap_err();
        assert!(
            matches!(&e, CliError::Save { path, .. } if path.ends_with("t.trf")),
            "{e:?}"
        );
        let e = load(&missing).unwrap_err();
        assert!(
            matches!(&e, CliError::Open { path, .. } if path.ends_with("t.trf")),
            "{e:?}"
        );
        fs::remove_dir_all(&dir).unwrap();
    }
}
