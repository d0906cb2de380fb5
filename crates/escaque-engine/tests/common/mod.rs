//! What several test files share: a UCI session driven in-process.

use std::sync::{Arc, Mutex};

use escaque_engine::uci::{SharedBuf, Uci};

/// The UCI loop with its output in a buffer the test reads.
pub struct Session {
    buf: Arc<Mutex<Vec<u8>>>,
    pub uci: Uci,
}

impl Session {
    pub fn new() -> Session {
        let buf = Arc::new(Mutex::new(Vec::new()));
        let uci = Uci::new(SharedBuf(buf.clone()));
        Session { buf, uci }
    }

    /// Handles one command line; `false` once the loop should end.
    pub fn send(&mut self, line: &str) -> bool {
        self.uci.handle_line(line)
    }

    /// Everything written since the last `take`.
    pub fn output(&self) -> String {
        String::from_utf8(self.buf.lock().unwrap().clone()).unwrap()
    }

    /// Everything written since the last `take`, and the buffer emptied.
    pub fn take(&self) -> String {
        let mut b = self.buf.lock().unwrap();
        let s = String::from_utf8(b.clone()).unwrap();
        b.clear();
        s
    }

    /// Waits (polling, no time limit) until the output contains `needle`;
    /// the output, left in the buffer.
    pub fn wait_for(&self, needle: &str) -> String {
        loop {
            let out = self.output();
            if out.contains(needle) {
                return out;
            }
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
    }

    /// As `wait_for`, then the buffer emptied.
    pub fn take_when(&self, needle: &str) -> String {
        self.wait_for(needle);
        self.take()
    }

    /// Sends `go …` and waits for `bestmove`: the output, taken.
    pub fn go(&mut self, args: &str) -> String {
        self.send(&format!("go {args}"));
        self.take_when("bestmove")
    }
}
