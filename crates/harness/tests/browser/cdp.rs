//! A small client of the Chrome DevTools Protocol over
//! `--remote-debugging-pipe`: Chromium reads commands from its fd 3 and
//! writes replies and events to its fd 4, each a JSON object ended by a NUL
//! byte. No WebSocket, no port, nothing another process could reach.
//!
//! Everything the page does that a reader would call broken is kept: console
//! errors, uncaught exceptions, log errors, and any request that leaves the
//! file system (the page must work offline).

use std::io::{BufRead, BufReader, PipeWriter, Write};
use std::os::fd::AsRawFd;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use base64::Engine;
use serde_json::{Value, json};

/// How long one command may take before the test fails rather than hangs.
const REPLY_TIMEOUT: Duration = Duration::from_secs(30);

/// A headless Chromium with one page attached.
pub(super) struct Browser {
    child: Child,
    to_browser: PipeWriter,
    from_browser: Receiver<Value>,
    next_id: u64,
    session: String,
    /// Every event seen, in order.
    events: Vec<Value>,
    _profile: tempfile::TempDir,
}

impl Browser {
    /// Starts `chromium` (or `$QUEENS_CHROMIUM`) headless with a fresh
    /// profile, opens a blank page of `width` x `height` and attaches to it
    /// with the Page, Runtime, Log and Network domains on.
    pub(super) fn launch(width: u32, height: u32) -> Result<Browser, String> {
        let program = std::env::var("QUEENS_CHROMIUM").unwrap_or_else(|_| "chromium".into());
        let profile = tempfile::tempdir().map_err(|e| format!("temporary profile: {e}"))?;
        let (child_reads, to_browser) = std::io::pipe().map_err(|e| e.to_string())?;
        let (from_browser, child_writes) = std::io::pipe().map_err(|e| e.to_string())?;
        let (read_fd, write_fd) = (child_reads.as_raw_fd(), child_writes.as_raw_fd());
        let mut command = Command::new(&program);
        command
            .args([
                "--headless",
                "--no-sandbox", // CI runs as root, where Chromium's sandbox refuses to start
                "--disable-gpu",
                "--disable-dev-shm-usage", // containers often have a tiny /dev/shm
                "--remote-debugging-pipe",
                "--no-first-run",
                "--no-default-browser-check",
                "--disable-extensions",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--hide-scrollbars",
                "--mute-audio",
            ])
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .arg("about:blank")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        // SAFETY: between fork and exec only async-signal-safe calls are
        // made (fcntl, dup2), on descriptors this process owns. The pipe
        // ends are first copied above 10 so that placing one on 3 cannot
        // overwrite the other, then put on 3 and 4, where dup2 clears
        // close-on-exec so that Chromium inherits them.
        unsafe {
            command.pre_exec(move || {
                let high_read = libc::fcntl(read_fd, libc::F_DUPFD, 10);
                let high_write = libc::fcntl(write_fd, libc::F_DUPFD, 10);
                if high_read < 0
                    || high_write < 0
                    || libc::dup2(high_read, 3) < 0
                    || libc::dup2(high_write, 4) < 0
                {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let child = command.spawn().map_err(|e| {
            format!(
                "cannot start {program}: {e} (install Debian's chromium, or set QUEENS_CHROMIUM)"
            )
        })?;
        // The child's ends must close here, or the reader never sees EOF.
        drop(child_reads);
        drop(child_writes);
        let (sender, receiver) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(from_browser);
            let mut message = Vec::new();
            while reader
                .read_until(0, &mut message)
                .is_ok_and(|read| read > 0)
            {
                message.pop_if(|b| *b == 0);
                if let Ok(value) = serde_json::from_slice::<Value>(&message)
                    && sender.send(value).is_err()
                {
                    return;
                }
                message.clear();
            }
        });
        let mut browser = Browser {
            child,
            to_browser,
            from_browser: receiver,
            next_id: 0,
            session: String::new(),
            events: Vec::new(),
            _profile: profile,
        };
        let target = browser.send(None, "Target.createTarget", json!({"url": "about:blank"}))?;
        let target_id = target["targetId"]
            .as_str()
            .ok_or("no targetId")?
            .to_string();
        let attached = browser.send(
            None,
            "Target.attachToTarget",
            json!({"targetId": target_id, "flatten": true}),
        )?;
        browser.session = attached["sessionId"]
            .as_str()
            .ok_or("no sessionId")?
            .to_string();
        for domain in ["Page", "Runtime", "Log", "Network"] {
            browser.call(&format!("{domain}.enable"), json!({}))?;
        }
        browser.call(
            "Emulation.setDeviceMetricsOverride",
            json!({"width": width, "height": height, "deviceScaleFactor": 1, "mobile": false}),
        )?;
        Ok(browser)
    }

    /// One command to the attached page; its result.
    pub(super) fn call(&mut self, method: &str, params: Value) -> Result<Value, String> {
        let session = self.session.clone();
        self.send(Some(&session), method, params)
    }

    fn send(
        &mut self,
        session: Option<&str>,
        method: &str,
        params: Value,
    ) -> Result<Value, String> {
        self.next_id += 1;
        let id = self.next_id;
        let mut message = json!({"id": id, "method": method, "params": params});
        if let Some(session) = session {
            message["sessionId"] = json!(session);
        }
        let mut bytes = message.to_string().into_bytes();
        bytes.push(0);
        self.to_browser
            .write_all(&bytes)
            .map_err(|e| format!("{method}: cannot write to Chromium: {e}"))?;
        let deadline = Instant::now() + REPLY_TIMEOUT;
        loop {
            let message = self.next_message(deadline, method)?;
            if message["id"] == json!(id) {
                if let Some(error) = message.get("error") {
                    return Err(format!("{method}: {error}"));
                }
                return Ok(message["result"].clone());
            }
            if message.get("method").is_some() {
                self.events.push(message);
            }
        }
    }

    fn next_message(&mut self, deadline: Instant, waiting_for: &str) -> Result<Value, String> {
        let left = deadline.saturating_duration_since(Instant::now());
        self.from_browser.recv_timeout(left).map_err(|e| match e {
            RecvTimeoutError::Timeout => {
                format!("{waiting_for}: no answer from Chromium in {REPLY_TIMEOUT:?}")
            }
            RecvTimeoutError::Disconnected => format!("{waiting_for}: Chromium closed its pipe"),
        })
    }

    /// Waits for the event `method` (one already seen counts once).
    pub(super) fn wait_event(&mut self, method: &str) -> Result<Value, String> {
        if let Some(index) = self.events.iter().position(|e| e["method"] == method) {
            let event = self.events[index].clone();
            // Kept for `problems`, but marked as waited for.
            self.events[index]["method"] = json!(format!("{method} (seen)"));
            return Ok(event);
        }
        let deadline = Instant::now() + REPLY_TIMEOUT;
        loop {
            let message = self.next_message(deadline, method)?;
            if message["method"] == method {
                return Ok(message);
            }
            if message.get("method").is_some() {
                self.events.push(message);
            }
        }
    }

    /// Opens `file` and waits for its load event.
    pub(super) fn open(&mut self, file: &Path) -> Result<(), String> {
        let url = format!("file://{}", file.display());
        let navigated = self.call("Page.navigate", json!({"url": url}))?;
        if let Some(error) = navigated.get("errorText") {
            return Err(format!("cannot open {url}: {error}"));
        }
        self.wait_event("Page.loadEventFired").map(|_| ())
    }

    /// The value of a JavaScript expression (promises awaited); a thrown
    /// exception is an error naming the expression.
    pub(super) fn evaluate(&mut self, expression: &str) -> Result<Value, String> {
        let reply = self.call(
            "Runtime.evaluate",
            json!({"expression": expression, "returnByValue": true, "awaitPromise": true}),
        )?;
        if let Some(details) = reply.get("exceptionDetails") {
            return Err(format!("{expression}: threw {details}"));
        }
        Ok(reply["result"]["value"].clone())
    }

    /// A real key press (keyDown then keyUp), as from a keyboard.
    pub(super) fn press(&mut self, key: &str, code: &str, key_code: u32) -> Result<(), String> {
        // Printable keys carry their text, as a keyboard's do.
        let text = if key.chars().count() == 1 { key } else { "" };
        for (kind, text) in [("keyDown", text), ("keyUp", "")] {
            self.call(
                "Input.dispatchKeyEvent",
                json!({"type": kind, "key": key, "code": code, "text": text,
                       "windowsVirtualKeyCode": key_code, "nativeVirtualKeyCode": key_code}),
            )?;
        }
        Ok(())
    }

    /// A PNG of the page region (x, y, width, height) in page coordinates,
    /// written to `path`.
    pub(super) fn screenshot(
        &mut self,
        path: &Path,
        clip: (f64, f64, f64, f64),
    ) -> Result<(), String> {
        let (x, y, width, height) = clip;
        let shot = self.call(
            "Page.captureScreenshot",
            json!({"format": "png", "captureBeyondViewport": true,
                   "clip": {"x": x, "y": y, "width": width, "height": height, "scale": 1}}),
        )?;
        let png = base64::engine::general_purpose::STANDARD
            .decode(shot["data"].as_str().ok_or("no screenshot data")?)
            .map_err(|e| format!("screenshot: {e}"))?;
        std::fs::write(path, png).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// What a reader would call broken, so far: console errors and
    /// assertions, uncaught exceptions, log errors, and every request that
    /// is not for a local file (or inline data).
    pub(super) fn problems(&mut self) -> Vec<String> {
        // Collect what is already in the pipe.
        while let Ok(message) = self.from_browser.try_recv() {
            if message.get("method").is_some() {
                self.events.push(message);
            }
        }
        self.events
            .iter()
            .filter_map(|event| {
                let params = &event["params"];
                match event["method"].as_str()? {
                    "Runtime.consoleAPICalled"
                        if matches!(params["type"].as_str(), Some("error" | "assert")) =>
                    {
                        Some(format!("console.{}: {}", params["type"], params["args"]))
                    }
                    "Runtime.exceptionThrown" => {
                        Some(format!("exception: {}", params["exceptionDetails"]))
                    }
                    "Log.entryAdded" if params["entry"]["level"] == "error" => {
                        Some(format!("log error: {}", params["entry"]))
                    }
                    "Network.requestWillBeSent" => {
                        let url = params["request"]["url"].as_str().unwrap_or("");
                        let local = ["file://", "data:", "about:"]
                            .iter()
                            .any(|p| url.starts_with(p));
                        (!local).then(|| format!("a request off the file system: {url}"))
                    }
                    _ => None,
                }
            })
            .collect()
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        // Only the Chromium this test started, by its own handle.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
