//! Saving and loading a tournament file. Saving is atomic: the text goes to
//! a temporary file in the same directory, is flushed to disk, and then
//! replaces the old file with a rename, so a crash mid-write leaves either
//! the old file or the new one, never half of one.

use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::Path;

use crate::error::TorneoError;
use crate::model::Tournament;

fn io(path: &Path, e: std::io::Error) -> TorneoError {
    TorneoError::Io(format!("{}: {e}", path.display()))
}

/// Writes `text` to `path` atomically (temporary file, fsync, rename, fsync of the directory).
pub fn write_atomic(path: &Path, text: &str) -> Result<(), TorneoError> {
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
    result.map_err(|e| io(path, e))
}

/// Saves a tournament as TRF (with escaque's extension lines).
pub fn save(path: &Path, t: &Tournament) -> Result<(), TorneoError> {
    write_atomic(path, &crate::trf::write(t))
}

/// Loads a tournament saved by [`save`] or any TRF file.
pub fn load(path: &Path) -> Result<Tournament, TorneoError> {
    let text = fs::read_to_string(path).map_err(|e| io(path, e))?;
    Ok(crate::trf::parse(&text)?)
}
