//! The web page of `serve`, in a real headless Chromium driven through
//! chromedriver: whole games under both rules, clicked through, and a replay
//! of a logged game.
//!
//! Chromium and chromedriver are Debian's `chromium` and `chromium-driver`.
//! In CI (`MAXCONNECT4_REQUIRE_BROWSER=1`, set by `.ci/run`) a missing browser
//! fails the test; elsewhere it is skipped with the reason printed.

use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};

use crate::bots::tool_available;
use crate::serve::Server;

/// How long the page may take to reach a state: generous, since it only
/// bounds a failure (the searches are at depth 2 or 3).
const PATIENCE: Duration = Duration::from_secs(120);

/// A chromedriver process on a free port, killed when dropped.
pub struct Driver {
    child: Child,
    port: u16,
}

impl Driver {
    pub fn start() -> Driver {
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let child = Command::new("chromedriver")
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver runs");
        // Wait until it accepts connections.
        let started = Instant::now();
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(started.elapsed() < PATIENCE, "chromedriver did not start listening on port {port}");
            std::thread::sleep(Duration::from_millis(50));
        }
        Driver { child, port }
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A headless Chromium session with its profile in `profile`.
pub async fn browser(driver: &Driver, profile: &std::path::Path) -> Client {
    let mut capabilities = serde_json::Map::new();
    let args = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
    ]
    .map(String::from)
    .into_iter()
    .chain([format!("--user-data-dir={}", profile.display())])
    .collect::<Vec<_>>();
    capabilities.insert("goog:chromeOptions".into(), serde_json::json!({ "args": args }));
    ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(capabilities)
        .connect(&format!("http://127.0.0.1:{}", driver.port))
        .await
        .expect("a browser session")
}

/// Waits until the page's state is one of `states`; returns it.
async fn state(client: &Client, states: &[&str]) -> String {
    let selector: Vec<String> = states.iter().map(|state| format!("body[data-state='{state}']")).collect();
    let body = client.wait().at_most(PATIENCE).for_element(Locator::Css(&selector.join(", "))).await.unwrap();
    body.attr("data-state").await.unwrap().unwrap()
}

async fn status(client: &Client) -> String {
    client.find(Locator::Id("status")).await.unwrap().text().await.unwrap()
}

/// Starts a game from the form and clicks the leftmost open column on each
/// of the person's turns until the game is over; returns the final status.
async fn play_game(client: &Client, rules: &str, depth: &str, first: &str) -> String {
    client.find(Locator::Id("rules")).await.unwrap().select_by_value(rules).await.unwrap();
    client.find(Locator::Id("limit")).await.unwrap().select_by_value("depth").await.unwrap();
    let amount = client.find(Locator::Id("amount")).await.unwrap();
    amount.clear().await.unwrap();
    amount.send_keys(depth).await.unwrap();
    client.find(Locator::Id("first")).await.unwrap().select_by_value(first).await.unwrap();
    client.find(Locator::Id("new-game")).await.unwrap().click().await.unwrap();
    let mut clicks = 0;
    while state(client, &["your-turn", "over"]).await == "your-turn" {
        let open = client.find(Locator::Css("#board button:not(:disabled)")).await.unwrap();
        open.click().await.unwrap();
        clicks += 1;
        assert!(clicks <= 21, "more than 21 moves for the person");
    }
    status(client).await
}

#[test]
fn a_person_plays_whole_games_and_replays_one_in_the_browser() {
    if !tool_available("chromedriver", "MAXCONNECT4_REQUIRE_BROWSER") {
        return;
    }
    let server = Server::start(&["--depth", "3"]);
    let driver = Driver::start();
    let profile = tempfile::tempdir().unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let client = browser(&driver, profile.path()).await;
        client.goto(&format!("http://{}/", server.addr)).await.unwrap();
        assert_eq!(client.title().await.unwrap(), "maxconnect4");

        // Classic: the engine beats a person who always plays the leftmost
        // open column, and the winning four is marked.
        let result = play_game(&client, "classic", "3", "human").await;
        assert_eq!(result, "Game over: Yellow (O) wins.");
        assert_eq!(client.find_all(Locator::Css("#board button.win")).await.unwrap().len(), 4);

        // Max-Connect4 with the computer first: played to a full board, scored.
        let result = play_game(&client, "max", "2", "computer").await;
        assert!(result.starts_with("Game over: "), "{result}");
        assert_eq!(client.find_all(Locator::Css("#board button.X, #board button.O")).await.unwrap().len(), 42);
        let score = client.find(Locator::Id("score")).await.unwrap().text().await.unwrap();
        assert!(score.starts_with("Score: red "), "{score}");

        // A bad depth is refused without starting a game.
        let amount = client.find(Locator::Id("amount")).await.unwrap();
        amount.clear().await.unwrap();
        amount.send_keys("0").await.unwrap();
        client.find(Locator::Id("new-game")).await.unwrap().click().await.unwrap();
        assert_eq!(status(&client).await, "The depth must be a whole number from 1 to 42.");

        // A replay of a referee log line: classic, player 1 wins in column 1.
        let line = r#"{"id":"1","red":{"name":"a","command":"self"},"green":{"name":"b","command":"self"},"rules":"classic","start":"0000000/0000000/0000000/0000000/0000000/0000000 1","moves":"1212121","result":"red"}"#;
        let text = client.find(Locator::Id("log-line")).await.unwrap();
        text.send_keys(line).await.unwrap();
        client.find(Locator::Id("replay")).await.unwrap().click().await.unwrap();
        state(&client, &["replay"]).await;
        assert_eq!(status(&client).await, "Replay of a (red) against b (yellow), game 1, classic rules: move 0 of 7.");
        client.find(Locator::Id("step-forward")).await.unwrap().click().await.unwrap();
        assert!(status(&client).await.contains("move 1 of 7."));
        client.find(Locator::Id("step-end")).await.unwrap().click().await.unwrap();
        assert_eq!(
            status(&client).await,
            "Replay of a (red) against b (yellow), game 1, classic rules: move 7 of 7. Red (X) wins."
        );
        assert_eq!(client.find_all(Locator::Css("#board button.win")).await.unwrap().len(), 4);

        // A line that is not a log record is explained.
        text.clear().await.unwrap();
        text.send_keys("{\"moves\":\"18\"}").await.unwrap();
        client.find(Locator::Id("replay")).await.unwrap().click().await.unwrap();
        assert_eq!(status(&client).await, "Cannot replay: the record has no \"moves\" string of digits 1-7");
        client.close().await.unwrap();
    });
}
