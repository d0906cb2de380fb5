//! `escaque torneo imprimir --pdf`: the printable HTML pages turned into PDF
//! by headless Chromium, the browser the project already tests with. A PDF
//! library would mean laying the tables out a second time; Chromium prints
//! the same page an organiser sees, with its print stylesheet.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::error::CliError;

/// Chromium's path: `ESCAQUE_CHROMIUM` if set, else the first of the usual
/// names found on `PATH`.
pub fn find_chromium() -> Result<PathBuf, CliError> {
    if let Some(p) = std::env::var_os("ESCAQUE_CHROMIUM") {
        let p = PathBuf::from(p);
        return if p.is_file() {
            Ok(p)
        } else {
            Err(CliError::NoChromium)
        };
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    for name in [
        "chromium",
        "chromium-browser",
        "google-chrome",
        "google-chrome-stable",
    ] {
        for dir in std::env::split_paths(&path) {
            let candidate = dir.join(name);
            if candidate.is_file() {
                return Ok(candidate);
            }
        }
    }
    Err(CliError::NoChromium)
}

/// Prints `html` to `pdf` on the paper the page asks for (its CSS `@page`:
/// A4 unless the organiser chose Letter), with no browser header or
/// footer. The PDF is written next to its page and checked to be one.
pub fn print(chromium: &Path, html: &Path, pdf: &Path) -> Result<(), CliError> {
    let fail = |detail: String| CliError::Pdf {
        page: html.display().to_string(),
        detail,
    };
    let page = std::fs::canonicalize(html).map_err(|e| fail(e.to_string()))?;
    // A profile of its own, so a browser the user has open is not disturbed.
    let profile = std::env::temp_dir().join(format!("escaque-pdf-{}", std::process::id()));
    let output = Command::new(chromium)
        .arg("--headless")
        .arg("--disable-gpu")
        .arg("--no-sandbox")
        .arg("--no-first-run")
        .arg("--no-pdf-header-footer")
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(format!("--print-to-pdf={}", pdf.display()))
        .arg(format!("file://{}", page.display()))
        .output();
    let _ = std::fs::remove_dir_all(&profile);
    let output = output.map_err(|e| fail(e.to_string()))?;
    let head = std::fs::read(pdf)
        .map(|b| b.starts_with(b"%PDF-"))
        .unwrap_or(false);
    if !output.status.success() || !head {
        let said = String::from_utf8_lossy(&output.stderr);
        let last = said
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("");
        return Err(fail(format!("{} {last}", output.status)));
    }
    Ok(())
}
