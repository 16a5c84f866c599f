//! The little of the W3C WebDriver protocol the browser tests use, over
//! `ureq` (a dependency already): a session, an address to open, elements
//! found by CSS selector, clicked, typed into and read, a script run.
//!
//! A WebDriver client crate (fantoccini) brought an async HTTP client that
//! turned on features of about thirty crates the program shares with it
//! (tokio, hyper, serde, syn among them), so that `cargo test --release`
//! built those and the library a second time (reports/build.md).
//!
//! Every command is JSON over HTTP: <https://www.w3.org/TR/webdriver2/>.
//! A failed command panics with the driver's error, as the tests' `unwrap`
//! of fantoccini's errors did.

use std::time::{Duration, Instant};

use serde_json::{json, Value};

/// The key under which WebDriver names an element (W3C's constant).
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

/// How long one command may take: it only bounds a hung driver.
const COMMAND_TIME: Duration = Duration::from_secs(120);

/// How often a wait looks for its element again, as fantoccini's waits did
/// (they looked every 250 ms; the page here answers within milliseconds).
const POLL: Duration = Duration::from_millis(50);

/// A browser session on a WebDriver server, deleted when dropped.
pub struct Session {
    agent: ureq::Agent,
    /// `http://127.0.0.1:PORT/session/ID`.
    url: String,
    open: bool,
}

/// An element of the session's current page.
pub struct Element<'a> {
    session: &'a Session,
    id: String,
}

impl Session {
    /// Starts a browser with `capabilities` on the driver at `port`.
    pub fn new(port: u16, capabilities: Value) -> Session {
        let agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            // The driver is on this machine, never behind a proxy.
            .proxy(None)
            .timeout_global(Some(COMMAND_TIME))
            .build()
            .new_agent();
        let driver = format!("http://127.0.0.1:{port}");
        let answer = request(
            &agent,
            "POST",
            &format!("{driver}/session"),
            Some(json!({
                "capabilities": { "alwaysMatch": capabilities }
            })),
        );
        let id = answer["sessionId"].as_str().unwrap_or_else(|| panic!("no session id in {answer}"));
        Session { url: format!("{driver}/session/{id}"), agent, open: true }
    }

    fn get(&self, path: &str) -> Value {
        request(&self.agent, "GET", &format!("{}{path}", self.url), None)
    }

    fn post(&self, path: &str, body: Value) -> Value {
        request(&self.agent, "POST", &format!("{}{path}", self.url), Some(body))
    }

    /// Opens `url` and returns once it has loaded.
    pub fn goto(&self, url: &str) {
        self.post("/url", json!({ "url": url }));
    }

    pub fn current_url(&self) -> String {
        string(self.get("/url"))
    }

    pub fn title(&self) -> String {
        string(self.get("/title"))
    }

    /// The first element matching the CSS selector `css`; panics if none does.
    pub fn find(&self, css: &str) -> Element<'_> {
        self.element(&self.post("/element", by_css(css)))
    }

    /// The element whose id is `id`.
    pub fn find_id(&self, id: &str) -> Element<'_> {
        self.find(&format!("[id=\"{id}\"]"))
    }

    /// Every element matching `css`, in document order.
    pub fn find_all(&self, css: &str) -> Vec<Element<'_>> {
        self.elements(self.post("/elements", by_css(css)))
    }

    /// The first element matching `css` once there is one, looked for every
    /// [`POLL`] for at most `patience`.
    pub fn wait_for(&self, css: &str, patience: Duration) -> Element<'_> {
        let started = Instant::now();
        loop {
            if let Some(element) = self.find_all(css).into_iter().next() {
                return element;
            }
            assert!(started.elapsed() < patience, "no element matched {css} within {patience:?}");
            std::thread::sleep(POLL);
        }
    }

    /// Runs `script` (a function body) in the page; returns what it returns.
    pub fn execute(&self, script: &str) -> Value {
        self.post("/execute/sync", json!({ "script": script, "args": [] }))
    }

    /// Ends the session and closes the browser.
    pub fn close(mut self) {
        self.open = false;
        request(&self.agent, "DELETE", &self.url, None);
    }

    fn element(&self, value: &Value) -> Element<'_> {
        let id = value[ELEMENT].as_str().unwrap_or_else(|| panic!("no element in {value}"));
        Element { session: self, id: id.to_owned() }
    }

    fn elements(&self, value: Value) -> Vec<Element<'_>> {
        value
            .as_array()
            .unwrap_or_else(|| panic!("no list of elements in {value}"))
            .iter()
            .map(|value| self.element(value))
            .collect()
    }
}

impl Drop for Session {
    /// A session a failed test left open is ended, so that its browser
    /// does not outlive the test.
    fn drop(&mut self) {
        if self.open {
            let _ = self.agent.delete(&self.url).call();
        }
    }
}

impl<'a> Element<'a> {
    fn get(&self, path: &str) -> Value {
        self.session.get(&format!("/element/{}{path}", self.id))
    }

    fn post(&self, path: &str, body: Value) -> Value {
        self.session.post(&format!("/element/{}{path}", self.id), body)
    }

    pub fn click(&self) {
        self.post("/click", json!({}));
    }

    pub fn clear(&self) {
        self.post("/clear", json!({}));
    }

    pub fn send_keys(&self, text: &str) {
        self.post("/value", json!({ "text": text }));
    }

    /// Chooses the option of this `select` whose value is `value`.
    pub fn select_by_value(&self, value: &str) {
        let option = self.post("/element", by_css(&format!("option[value=\"{value}\"]")));
        self.session.element(&option).click();
    }

    /// The attribute `name` as the HTML has it, `None` if it has none.
    pub fn attr(&self, name: &str) -> Option<String> {
        optional_string(self.get(&format!("/attribute/{name}")))
    }

    /// The DOM property `name`, `None` if it is unset.
    pub fn prop(&self, name: &str) -> Option<String> {
        optional_string(self.get(&format!("/property/{name}")))
    }

    /// The text as rendered, what a reader sees.
    pub fn text(&self) -> String {
        string(self.get("/text"))
    }

    pub fn is_displayed(&self) -> bool {
        self.get("/displayed").as_bool().expect("displayed is true or false")
    }

    pub fn is_enabled(&self) -> bool {
        self.get("/enabled").as_bool().expect("enabled is true or false")
    }

    /// Every element within this one matching `css`.
    pub fn find_all(&self, css: &str) -> Vec<Element<'a>> {
        self.session.elements(self.post("/elements", by_css(css)))
    }
}

fn by_css(css: &str) -> Value {
    json!({ "using": "css selector", "value": css })
}

fn string(value: Value) -> String {
    value.as_str().unwrap_or_else(|| panic!("not a string: {value}")).to_owned()
}

fn optional_string(value: Value) -> Option<String> {
    match value {
        Value::Null => None,
        Value::String(text) => Some(text),
        other => Some(other.to_string()),
    }
}

/// Sends a command (a POST when it has a body, else a GET or a DELETE);
/// returns its answer's `value`, or panics with the
/// driver's error.
fn request(agent: &ureq::Agent, method: &str, url: &str, body: Option<Value>) -> Value {
    let answer = match body {
        Some(body) => agent.post(url).header("Content-Type", "application/json").send(body.to_string()),
        None if method == "DELETE" => agent.delete(url).call(),
        None => agent.get(url).call(),
    };
    let mut answer = answer.unwrap_or_else(|error| panic!("{method} {url}: {error}"));
    let status = answer.status().as_u16();
    let text = answer.body_mut().read_to_string().unwrap_or_else(|error| panic!("{method} {url}: {error}"));
    let mut answer: Value =
        serde_json::from_str(&text).unwrap_or_else(|error| panic!("{method} {url}: {error} in {text:?}"));
    assert!((200..300).contains(&status), "{method} {url}: {status} {}", answer["value"]);
    answer["value"].take()
}
