//! `escaque torneo imprimir --pdf`: the printable HTML pages turned into PDF
//! by headless Chromium, the browser the project already tests with. A PDF
//! library would mean laying the tables out a second time; Chromium prints
//! the same page an organiser sees, with its print stylesheet.
//!
//! One Chromium prints every page of a run: it is started once, with its
//! DevTools protocol on a pipe (`--remote-debugging-pipe`: JSON messages
//! ended by a NUL byte, read by Chromium from its descriptor 3 and written
//! to its descriptor 4; no port is opened), and each page is loaded in the
//! same tab and printed with `Page.printToPDF`. Starting the browser is most
//! of the work: a tournament's five pages cost one start instead of five.
//! The options are those Chromium's own `--print-to-pdf` uses (background
//! graphics, the page's CSS paper size), with no header or footer, so the
//! PDFs are the ones `chromium --headless --no-pdf-header-footer
//! --print-to-pdf` writes.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use base64::Engine as _;
use serde_json::{json, Value};

use crate::error::CliError;

/// How long one DevTools reply (a start, a page's load, a print) may take
/// before the print is given up: far more than a tournament's page needs.
const REPLY: Duration = Duration::from_secs(120);

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

/// Prints pages to PDF with one Chromium, started at the first page and
/// closed when the printer is dropped.
pub struct Printer {
    chromium: PathBuf,
    browser: Option<Browser>,
}

impl Printer {
    /// A printer using the Chromium at `chromium` (nothing started yet).
    pub fn new(chromium: PathBuf) -> Printer {
        Printer {
            chromium,
            browser: None,
        }
    }

    /// Prints `html` to `pdf` on the paper the page asks for (its CSS
    /// `@page`: A4 unless the organiser chose Letter), with no browser
    /// header or footer. The PDF is written next to its page and checked to
    /// be one.
    pub fn print(&mut self, html: &Path, pdf: &Path) -> Result<(), CliError> {
        let fail = |detail: String| CliError::Pdf {
            page: html.display().to_string(),
            detail,
        };
        let page = std::fs::canonicalize(html).map_err(|e| fail(e.to_string()))?;
        let browser = match self.browser.take() {
            Some(b) => b,
            None => Browser::start(&self.chromium).map_err(&fail)?,
        };
        let browser = self.browser.insert(browser);
        let bytes = match browser.print(&file_url(&page)) {
            Ok(b) => b,
            Err(e) => {
                // A browser that failed once is not trusted with the next page.
                let said = self.browser.take().map(Browser::close).unwrap_or_default();
                return Err(fail(with_last_line(e, &said)));
            }
        };
        if !bytes.starts_with(b"%PDF-") {
            return Err(fail("Chromium did not return a PDF".to_string()));
        }
        std::fs::write(pdf, &bytes).map_err(|e| fail(e.to_string()))
    }
}

/// `e`, followed by the last line Chromium wrote on its standard error, if
/// any.
fn with_last_line(e: String, said: &str) -> String {
    match said.lines().rev().find(|l| !l.trim().is_empty()) {
        Some(last) => format!("{e} {last}"),
        None => e,
    }
}

/// A `file://` URL for an absolute path, each byte outside the unreserved
/// set and `/` percent-encoded (spaces, `#`, `?` and accents included).
fn file_url(path: &Path) -> String {
    let mut url = String::from("file://");
    for &b in path.to_string_lossy().as_bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~".contains(&b) {
            url.push(b as char);
        } else {
            url.push_str(&format!("%{b:02X}"));
        }
    }
    url
}

/// A running Chromium, its DevTools pipe and the tab the pages load in.
struct Browser {
    child: Child,
    to: ChildStdin,
    from: Receiver<Value>,
    /// Events read while waiting for a reply, kept for whoever awaits them.
    events: VecDeque<Value>,
    next_id: u64,
    session: String,
    profile: PathBuf,
    /// What Chromium wrote on its standard error (for error messages).
    said: Arc<Mutex<String>>,
}

impl Browser {
    fn start(chromium: &Path) -> Result<Browser, String> {
        // A profile of its own, so a browser the user has open is not disturbed.
        let profile = std::env::temp_dir().join(format!("escaque-pdf-{}", std::process::id()));
        // The pipe is Chromium's descriptors 3 and 4: a POSIX shell moves our
        // standard input and output there, then runs Chromium in its place
        // (the arguments are passed as arguments, never as shell text).
        let mut child = Command::new("/bin/sh")
            .arg("-c")
            .arg(r#"exec "$0" "$@" 3<&0 4>&1 </dev/null >/dev/null"#)
            .arg(chromium)
            .args([
                "--headless",
                "--disable-gpu",
                "--no-sandbox",
                "--no-first-run",
                "--remote-debugging-pipe",
            ])
            .arg(format!("--user-data-dir={}", profile.display()))
            .arg("about:blank")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("{}: {e}", chromium.display()))?;
        let (Some(to), Some(out), Some(err)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            let _ = child.kill();
            let _ = child.wait();
            return Err("no pipe to Chromium".to_string());
        };
        let said = Arc::new(Mutex::new(String::new()));
        let keep = Arc::clone(&said);
        std::thread::spawn(move || {
            for line in BufReader::new(err).lines().map_while(Result::ok) {
                if let Ok(mut s) = keep.lock() {
                    s.push_str(&line);
                    s.push('\n');
                }
            }
        });
        let (tx, from) = mpsc::channel();
        std::thread::spawn(move || {
            let mut out = BufReader::new(out);
            let mut message = Vec::new();
            loop {
                message.clear();
                match out.read_until(0, &mut message) {
                    Ok(0) | Err(_) => return,
                    Ok(_) => {}
                }
                if message.last() == Some(&0) {
                    message.pop();
                }
                let Ok(v) = serde_json::from_slice::<Value>(&message) else {
                    return;
                };
                if tx.send(v).is_err() {
                    return;
                }
            }
        });
        let mut b = Browser {
            child,
            to,
            from,
            events: VecDeque::new(),
            next_id: 0,
            session: String::new(),
            profile,
            said,
        };
        match b.open_tab() {
            Ok(()) => Ok(b),
            Err(e) => {
                let said = b.close();
                Err(with_last_line(e, &said))
            }
        }
    }

    /// A new tab, attached to, with its page events and load steps on.
    fn open_tab(&mut self) -> Result<(), String> {
        let target = self.call("Target.createTarget", json!({"url": "about:blank"}), false)?;
        let target = target["targetId"].as_str().ok_or("no tab")?.to_string();
        let attached = self.call(
            "Target.attachToTarget",
            json!({"targetId": target, "flatten": true}),
            false,
        )?;
        self.session = attached["sessionId"]
            .as_str()
            .ok_or("no tab session")?
            .to_string();
        self.call("Page.enable", json!({}), true)?;
        self.call(
            "Page.setLifecycleEventsEnabled",
            json!({"enabled": true}),
            true,
        )?;
        Ok(())
    }

    /// Loads `url` in the tab and returns its PDF's bytes.
    fn print(&mut self, url: &str) -> Result<Vec<u8>, String> {
        let nav = self.call("Page.navigate", json!({"url": url}), true)?;
        if let Some(e) = nav["errorText"].as_str() {
            return Err(e.to_string());
        }
        let frame = nav["frameId"].clone();
        let loader = nav["loaderId"].clone();
        // The page is printed once it has loaded (its `load` event), as
        // `--print-to-pdf` does.
        self.event(|e| {
            let p = &e["params"];
            e["method"] == "Page.lifecycleEvent"
                && p["name"] == "load"
                && p["frameId"] == frame
                && (loader.is_null() || p["loaderId"] == loader)
        })?;
        let printed = self.call(
            "Page.printToPDF",
            json!({
                "printBackground": true,
                "preferCSSPageSize": true,
                "displayHeaderFooter": false,
            }),
            true,
        )?;
        let data = printed["data"].as_str().ok_or("no PDF data")?;
        base64::engine::general_purpose::STANDARD
            .decode(data)
            .map_err(|e| e.to_string())
    }

    /// Sends a DevTools command (to the tab when `in_tab`) and returns its
    /// result.
    fn call(&mut self, method: &str, params: Value, in_tab: bool) -> Result<Value, String> {
        self.next_id += 1;
        let id = self.next_id;
        let mut msg = json!({"id": id, "method": method, "params": params});
        if in_tab {
            msg["sessionId"] = json!(self.session);
        }
        self.send(&msg).map_err(|e| format!("{method}: {e}"))?;
        let deadline = Instant::now() + REPLY;
        loop {
            let m = self.receive(method, deadline)?;
            if m["id"] == id {
                if let Some(e) = m.get("error") {
                    return Err(format!("{method}: {}", e["message"]));
                }
                return Ok(m["result"].clone());
            }
            if m.get("method").is_some() {
                self.events.push_back(m);
            }
        }
    }

    /// Writes one DevTools message on the pipe: its JSON, ended by a NUL
    /// byte.
    fn send(&mut self, msg: &Value) -> std::io::Result<()> {
        let mut bytes = msg.to_string().into_bytes();
        bytes.push(0);
        self.to.write_all(&bytes)?;
        self.to.flush()
    }

    /// Waits for the first event `wanted` accepts (those already read
    /// first); the events before it are dropped.
    fn event(&mut self, wanted: impl Fn(&Value) -> bool) -> Result<Value, String> {
        while let Some(e) = self.events.pop_front() {
            if wanted(&e) {
                return Ok(e);
            }
        }
        let deadline = Instant::now() + REPLY;
        loop {
            let m = self.receive("page load", deadline)?;
            if wanted(&m) {
                return Ok(m);
            }
        }
    }

    fn receive(&mut self, what: &str, deadline: Instant) -> Result<Value, String> {
        let left = deadline.saturating_duration_since(Instant::now());
        self.from.recv_timeout(left).map_err(|e| match e {
            RecvTimeoutError::Timeout => format!("{what}: no answer in {} s", REPLY.as_secs()),
            RecvTimeoutError::Disconnected => format!("{what}: Chromium closed its pipe"),
        })
    }

    /// Asks Chromium to close, ends it if it has not in a few seconds,
    /// removes its profile, and returns what it wrote on standard error.
    fn close(mut self) -> String {
        self.shut();
        self.said.lock().map(|s| s.clone()).unwrap_or_default()
    }

    fn shut(&mut self) {
        if self.child.try_wait().ok().flatten().is_none() {
            self.next_id += 1;
            let _ = self.send(&json!({"id": self.next_id, "method": "Browser.close"}));
            let t0 = Instant::now();
            while self.child.try_wait().ok().flatten().is_none() {
                if t0.elapsed() > Duration::from_secs(5) {
                    let _ = self.child.kill();
                    let _ = self.child.wait();
                    break;
                }
                std::thread::sleep(Duration::from_millis(10));
            }
        }
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        self.shut();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_urls_escape_what_a_url_cannot_hold() {
        assert_eq!(
            file_url(Path::new("/tmp/a b/Íñigo#1?.html")),
            "file:///tmp/a%20b/%C3%8D%C3%B1igo%231%3F.html"
        );
        assert_eq!(
            file_url(Path::new("/srv/t-1/clasificacion.html")),
            "file:///srv/t-1/clasificacion.html"
        );
    }
}
