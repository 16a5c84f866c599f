//! The web page of `serve`, in a real headless Chromium driven through
//! chromedriver: whole games under both rules, clicked through, a replay
//! of a logged game and its annotation, undo and redo against the computer,
//! the position in the address, and each column's value.
//!
//! Chromium and chromedriver are Debian's `chromium` and `chromium-driver`.
//! In CI (`MAXCONNECT4_REQUIRE_BROWSER=1`, set by `.ci/run`) a missing browser
//! fails the test; elsewhere it is skipped with the reason printed.

use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::bots::tool_available;
use crate::serve::Server;
use crate::webdriver::Session;

/// How long the page may take to reach a state: generous, since it only
/// bounds a failure (the searches are at depth 2 or 3).
pub const PATIENCE: Duration = Duration::from_secs(120);

/// A chromedriver process on a free port, killed when dropped.
pub struct Driver {
    child: Child,
    port: u16,
}

impl Driver {
    pub fn start() -> Driver {
        let started = Instant::now();
        // A free port may be taken by another test between its choice and
        // chromedriver's bind (chromedriver then exits, and whoever took it
        // answers): another port is tried until chromedriver itself answers.
        loop {
            assert!(started.elapsed() < PATIENCE, "chromedriver did not start listening");
            let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
            let mut child = Command::new("chromedriver")
                .arg(format!("--port={port}"))
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("chromedriver runs");
            let answers = loop {
                if child.try_wait().unwrap().is_some() {
                    break false;
                }
                if let Ok(status) = chromedriver_status(port) {
                    break status.contains("\"ready\"");
                }
                assert!(started.elapsed() < PATIENCE, "chromedriver did not start listening on port {port}");
                std::thread::sleep(Duration::from_millis(50));
            };
            if answers && child.try_wait().unwrap().is_none() {
                return Driver { child, port };
            }
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// What `GET /status` on `port` answers.
fn chromedriver_status(port: u16) -> std::io::Result<String> {
    use std::io::{Read as _, Write as _};
    let mut stream = TcpStream::connect(("127.0.0.1", port))?;
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    stream.write_all(b"GET /status HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")?;
    // Read until the status is in, whether or not the connection closes.
    let mut answer = Vec::new();
    let mut buffer = [0u8; 4096];
    while !String::from_utf8_lossy(&answer).contains("\"ready\"") {
        match stream.read(&mut buffer) {
            Ok(0) | Err(_) => break,
            Ok(read) => answer.extend_from_slice(&buffer[..read]),
        }
    }
    Ok(String::from_utf8_lossy(&answer).into_owned())
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A headless Chromium session with its profile in `profile`.
pub fn browser(driver: &Driver, profile: &std::path::Path) -> Session {
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
    Session::new(driver.port, serde_json::json!({ "goog:chromeOptions": { "args": args } }))
}

/// Waits until the page's state is one of `states`; returns it.
fn state(client: &Session, states: &[&str]) -> String {
    let selector: Vec<String> = states.iter().map(|state| format!("body[data-state='{state}']")).collect();
    let body = client.wait_for(&selector.join(", "), PATIENCE);
    body.attr("data-state").unwrap()
}

fn status(client: &Session) -> String {
    client.find_id("status").text()
}

/// Starts a game from the form and clicks the leftmost open column on each
/// of the person's turns until the game is over; returns the final status.
fn play_game(client: &Session, rules: &str, depth: &str, first: &str) -> String {
    client.find_id("rules").select_by_value(rules);
    client.find_id("limit").select_by_value("depth");
    let amount = client.find_id("amount");
    amount.clear();
    amount.send_keys(depth);
    client.find_id("first").select_by_value(first);
    client.find_id("new-game").click();
    let mut clicks = 0;
    while state(client, &["your-turn", "over"]) == "your-turn" {
        let open = client.find("#board button:not(:disabled)");
        open.click();
        clicks += 1;
        assert!(clicks <= 21, "more than 21 moves for the person");
    }
    status(client)
}

#[test]
fn a_person_plays_whole_games_and_replays_one_in_the_browser() {
    if !tool_available("chromedriver", "MAXCONNECT4_REQUIRE_BROWSER") {
        return;
    }
    let server = Server::start(&["--depth", "3"]);
    let driver = Driver::start();
    let profile = tempfile::tempdir().unwrap();
    let client = browser(&driver, profile.path());
    client.goto(&format!("http://{}/", server.addr));
    assert_eq!(client.title(), "maxconnect4");

    // Classic: the engine beats a person who always plays the leftmost
    // open column, and the winning four is marked.
    let result = play_game(&client, "classic", "3", "human");
    assert_eq!(result, "Game over: Green (O) wins.");
    assert_eq!(client.find_all("#board button.win").len(), 4);

    // Max-Connect4 with the computer first: played to a full board, scored.
    let result = play_game(&client, "max", "2", "computer");
    assert!(result.starts_with("Game over: "), "{result}");
    assert_eq!(client.find_all("#board button.X, #board button.O").len(), 42);
    let score = client.find_id("score").text();
    assert!(score.starts_with("Score: red "), "{score}");
    // Every scoring four is marked, and the status counts them as the
    // score does.
    let counted: Vec<usize> =
        score.trim_start_matches("Score: red ").split(", green ").map(|count| count.trim().parse().unwrap()).collect();
    assert!(result.contains(&format!(", {} fours to {} (marked).", counted[0], counted[1])), "{result}");
    let marked = client.find_all("#board button.win").len();
    assert!(counted[0] + counted[1] == 0 || marked >= 4, "{marked} cells marked for {score}");

    // A bad depth is refused without starting a game.
    let amount = client.find_id("amount");
    amount.clear();
    amount.send_keys("0");
    client.find_id("new-game").click();
    assert_eq!(status(&client), "The depth must be a whole number from 1 to 42.");

    // A replay of a referee log line: classic, player 1 wins in column 1.
    let line = r#"{"id":"1","red":{"name":"a","command":"self"},"green":{"name":"b","command":"self"},"rules":"classic","start":"0000000/0000000/0000000/0000000/0000000/0000000 1","moves":"1212121","result":"red"}"#;
    let text = client.find_id("log-line");
    text.send_keys(line);
    client.find_id("replay").click();
    state(&client, &["replay"]);
    assert_eq!(status(&client), "Replay of a (red) against b (green), game 1, classic rules: move 0 of 7.");
    client.find_id("step-forward").click();
    assert!(status(&client).contains("move 1 of 7."));
    client.find_id("step-end").click();
    assert_eq!(
        status(&client),
        "Replay of a (red) against b (green), game 1, classic rules: move 7 of 7. Red (X) wins."
    );
    assert_eq!(client.find_all("#board button.win").len(), 4);

    // A line that is not a log record is explained.
    text.clear();
    text.send_keys("{\"moves\":\"18\"}");
    client.find_id("replay").click();
    assert_eq!(status(&client), "Cannot replay: the record has no \"moves\" string of digits 1-7");
    client.close();
}

/// Runs `body` with a browser on a server started with `args`, unless the
/// browser is missing outside CI.
fn with_page(args: &[&str], body: impl FnOnce(Session, String)) {
    if !tool_available("chromedriver", "MAXCONNECT4_REQUIRE_BROWSER") {
        return;
    }
    let server = Server::start(args);
    let driver = Driver::start();
    let profile = tempfile::tempdir().unwrap();
    body(browser(&driver, profile.path()), format!("http://{}/", server.addr));
}

/// The pieces on the board, bottom row first, one string per row: `X`,
/// `O` or `.`.
fn pieces(client: &Session) -> Vec<String> {
    let script = "return [0,1,2,3,4,5].map((r) => [0,1,2,3,4,5,6].map((c) => { \
        const cell = document.getElementById('cell-' + c + '-' + r); \
        return cell.classList.contains('X') ? 'X' : cell.classList.contains('O') ? 'O' : '.'; }).join(''));";
    serde_json::from_value(client.execute(script)).unwrap()
}

/// The page's address after `?`.
fn query(client: &Session) -> String {
    let url = client.current_url();
    let query = url.split_once('?').map_or("", |(_, query)| query);
    query.split('#').next().unwrap_or("").to_owned()
}

fn click(client: &Session, id: &str) {
    client.find_id(id).click();
}

fn choose(client: &Session, id: &str, value: &str) {
    client.find_id(id).select_by_value(value);
}

fn type_into(client: &Session, id: &str, text: &str) {
    let field = client.find_id(id);
    field.clear();
    field.send_keys(text);
}

/// The relative luminance (WCAG) of a CSS `rgb(r, g, b)` colour, and its
/// channels.
fn luminance(css: &str) -> (f64, [u8; 3]) {
    let channels: Vec<u8> =
        css.trim_start_matches("rgb(").trim_end_matches(')').split(',').map(|c| c.trim().parse().unwrap()).collect();
    let linear = |c: u8| {
        let c = f64::from(c) / 255.0;
        if c <= 0.039_28 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    let l = 0.2126 * linear(channels[0]) + 0.7152 * linear(channels[1]) + 0.0722 * linear(channels[2]);
    (l, [channels[0], channels[1], channels[2]])
}

#[test]
fn undo_redo_a_typed_position_and_the_address_and_green_for_the_second_player() {
    with_page(&["--depth", "3"], |client, url| {
        client.goto(&url);
        // The page opens on the program's own game.
        let rules = client.find_id("rules");
        assert_eq!(rules.prop("value").as_deref(), Some("max"));

        // A move string typed in, with nobody to play against: red and
        // green pieces where the moves put them, green in words too.
        choose(&client, "first", "nobody");
        type_into(&client, "start-moves", "4453");
        click(&client, "start-from");
        state(&client, &["your-turn"]);
        assert_eq!(pieces(&client)[..2], ["..OXX..", "...O..."]);
        assert_eq!(status(&client), "Red (X) to move: click a column.");
        assert_eq!(query(&client), "rules=max&pos=4453");
        let green = client.find_id("cell-3-1");
        assert_eq!(green.attr("aria-label").as_deref(), Some("column 4, row 2, green O"));
        assert_eq!(client.find_id("score").text(), "Score: red 0, green 0");
        // Green is green, and lighter than the red by a contrast a reader
        // who does not tell the hues apart still sees.
        let colour = |id: &str| {
            let script = format!("return getComputedStyle(document.getElementById('{id}')).backgroundColor;");
            client.execute(&script).as_str().unwrap().to_owned()
        };
        let (green_light, [r, g, b]) = luminance(&colour("cell-3-1"));
        let (red_light, _) = luminance(&colour("cell-3-0"));
        assert!(g > r && g > b, "player 2's pieces are not green: {:?}", [r, g, b]);
        let contrast = (green_light + 0.05) / (red_light + 0.05);
        assert!(contrast >= 3.0, "green against red has a contrast of only {contrast:.2}");

        // A typed string that is no game is explained, and nothing changes.
        type_into(&client, "start-moves", "44x");
        click(&client, "start-from");
        assert_eq!(status(&client), "Cannot start from \"44x\": move 3 is 'x', not a column 1-7.");
        assert_eq!(query(&client), "rules=max&pos=4453");

        // Undo and redo, one move at a time with nobody to play against.
        click(&client, "undo");
        assert_eq!(query(&client), "rules=max&pos=445");
        click(&client, "redo");
        assert_eq!(query(&client), "rules=max&pos=4453");
        let board = pieces(&client);

        // The address, shared and reloaded, gives the same position.
        let shared = client.current_url();
        client.goto("about:blank");
        client.goto(&shared);
        state(&client, &["your-turn"]);
        assert_eq!(pieces(&client), board);
        assert_eq!(client.find_id("start-moves").prop("value").as_deref(), Some("4453"));

        // An address whose position is no game says so and starts empty.
        client.goto(&format!("{url}?rules=classic&pos=4449"));
        state(&client, &["your-turn"]);
        assert_eq!(
            status(&client),
            "The address's position \"4449\" is not a game: move 4 is '9', not a column 1-7; starting from the empty \
             board. Red (X) to move: click a column."
        );
        assert!(pieces(&client).iter().all(|row| row == "......."));
        assert_eq!(query(&client), "rules=classic&pos=");

        // Against the computer: Undo takes back its reply and the person's
        // move, Redo puts both back.
        choose(&client, "first", "human");
        choose(&client, "limit", "depth");
        type_into(&client, "amount", "3");
        click(&client, "new-game");
        state(&client, &["your-turn"]);
        click(&client, "cell-0-0");
        state(&client, &["your-turn"]);
        let after_reply = query(&client);
        assert_eq!(after_reply.len(), "rules=classic&pos=1".len() + 1, "{after_reply}");
        let board = pieces(&client);
        click(&client, "undo");
        state(&client, &["your-turn"]);
        assert!(pieces(&client).iter().all(|row| row == "......."));
        assert_eq!(query(&client), "rules=classic&pos=");
        click(&client, "redo");
        state(&client, &["your-turn"]);
        assert_eq!(pieces(&client), board);
        assert_eq!(query(&client), after_reply);

        // Undo while the computer thinks (up to 3 s a move): the person's
        // move goes back, and the search's answer, when it comes, is not
        // played; the reply to the next move lands after that move.
        choose(&client, "limit", "time");
        choose(&client, "rules", "max");
        click(&client, "new-game");
        state(&client, &["your-turn"]);
        click(&client, "cell-0-0");
        click(&client, "undo");
        state(&client, &["your-turn"]);
        assert!(pieces(&client).iter().all(|row| row == "......."));
        click(&client, "cell-6-0");
        state(&client, &["your-turn"]);
        let board = pieces(&client);
        assert_eq!(board.concat().matches(['X', 'O']).count(), 2, "{board:?}");
        assert_eq!(&board[0][6..], "X");
        assert!(query(&client).starts_with("rules=max&pos=7"));
        client.close();
    });
}

/// A classic position of the End-Easy benchmark set (`Test_L3_R1`, published
/// score 4), red to move, column 5 full.
const END_EASY: &str = "655651721435342216255374674123";

/// Waits for the values of `pos` under `rules`, and returns each column's
/// label as a screen reader hears it.
fn values(client: &Session, rules: &str, pos: &str) -> Vec<String> {
    let ready = format!("#values[data-state='ready'][data-rules='{rules}'][data-pos='{pos}']");
    client.wait_for(&ready, PATIENCE);
    let script = "return [...document.querySelectorAll('#values .value')].map((v) => v.getAttribute('aria-label'));";
    serde_json::from_value(client.execute(script)).unwrap()
}

/// Each column's value from `solve` on the position after it (negated: the
/// child's value is the opponent's), `None` for a full column.
fn solved_by_the_command_line(rules: &str, pos: &str) -> Vec<Option<i64>> {
    (1..=7)
        .map(|column| {
            let output = Command::new(env!("CARGO_BIN_EXE_maxconnect4"))
                .args(["solve", "--rules", rules, "--moves", &format!("{pos}{column}")])
                .output()
                .unwrap();
            let text = String::from_utf8(output.stdout).unwrap();
            let value = text.split_whitespace().nth(1)?.parse::<i64>().ok()?;
            Some(-value)
        })
        .collect()
}

fn labels(values: &[Option<i64>]) -> Vec<String> {
    let best = values.iter().flatten().max().copied();
    values
        .iter()
        .enumerate()
        .map(|(index, value)| match value {
            None => format!("column {}: full", index + 1),
            Some(v) => {
                let signed = if *v > 0 { format!("+{v}") } else { v.to_string() };
                let best = if Some(*v) == best { ", best" } else { "" };
                format!("column {}: {signed}, exact{best}", index + 1)
            }
        })
        .collect()
}

#[test]
fn show_values_gives_every_columns_value_under_both_rules_updated_after_each_move() {
    // The server's own budget: GET /solve searches to the end, so these
    // near-full positions get exact values.
    with_page(&[], |client, url| {
        // Classic: the values of each column, exact, from the view of red,
        // who is to move; the best is the benchmark's published score.
        client.goto(&format!("{url}?rules=classic&pos={END_EASY}"));
        state(&client, &["your-turn"]);
        click(&client, "show-values");
        let shown = values(&client, "classic", END_EASY);
        let expected = [Some(-1), Some(-1), Some(4), Some(0), None, Some(0), Some(-1)];
        assert_eq!(shown, labels(&expected));
        assert_eq!(solved_by_the_command_line("classic", END_EASY), expected);
        let note = client.find_id("values-note").text();
        assert!(note.starts_with("Each column's value for red, to move: positive wins"), "{note}");

        // After a move, the values are green's, in the new position.
        click(&client, "cell-0-5");
        let after = format!("{END_EASY}1");
        let shown = values(&client, "classic", &after);
        assert_eq!(shown, labels(&solved_by_the_command_line("classic", &after)));
        assert_eq!(shown[2], "column 3: +1, exact, best");
        // Undo brings back red's values.
        click(&client, "undo");
        assert_eq!(values(&client, "classic", END_EASY), labels(&expected));

        // Max-Connect4, the same position: the final score difference, as
        // `solve` finds it.
        client.goto(&format!("{url}?rules=max&pos={END_EASY}"));
        state(&client, &["your-turn"]);
        click(&client, "show-values");
        let shown = values(&client, "max", END_EASY);
        assert_eq!(shown, labels(&solved_by_the_command_line("max", END_EASY)));
        let note = client.find_id("values-note").text();
        assert!(note.starts_with("Each column's value for red, to move: the final score difference"), "{note}");

        // Off, the values go.
        click(&client, "show-values");
        assert!(!client.find_id("values").is_displayed());
        client.close();
    });
}

/// Where the server's time does not solve every column (one second, a
/// Max-Connect4 position one move deep, searched without the book), the
/// values not solved are estimates marked with their depth, and the best
/// column is said to be only the best seen.
#[test]
fn estimates_and_an_unproven_best_column_say_so() {
    with_page(&["--max-time", "1", "--no-book"], |client, url| {
        let pos = super::util::FAR_FROM_SOLVED;
        client.goto(&format!("{url}?rules=max&pos={pos}"));
        state(&client, &["your-turn"]);
        click(&client, "show-values");
        let shown = values(&client, "max", pos);
        let estimated = shown.iter().filter(|label| !label.contains(", exact")).collect::<Vec<_>>();
        assert!(!estimated.is_empty(), "every column solved in a second: {shown:?}");
        assert!(estimated.iter().all(|label| label.contains(", depth ")), "{shown:?}");
        let best: Vec<&String> = shown.iter().filter(|label| label.contains("best")).collect();
        assert!(!best.is_empty() && best.iter().all(|label| label.ends_with(", best, not proven")), "{shown:?}");
        let note = client.find_id("values-note").text();
        assert!(note.contains("the column marked best is only the best the search saw"), "{note}");
        client.close();
    });
}

/// Waits for the replay's annotation to give `verdict`; returns its text.
fn annotation(client: &Session, verdict: &str) -> String {
    let selector = format!("#annotation[data-verdict='{verdict}']");
    let annotation = client.wait_for(&selector, PATIENCE);
    annotation.text()
}

#[test]
fn the_replay_of_a_logged_game_marks_a_blunder() {
    with_page(&[], |client, url| {
        client.goto(&url);
        // The End-Easy position as the log's start (no opening: the page
        // finds moves that reach it); red throws its win away in column 1
        // (column 3 wins), green answers with the best move, column 3.
        let line = r#"{"id":"7","red":{"name":"a","command":"self"},"green":{"name":"b","command":"self"},"rules":"classic","start":"0000100/0100200/2121210/1222122/1112121/2212211 1","moves":"13","result":"green"}"#;
        type_into(&client, "log-line", line);
        click(&client, "replay");
        state(&client, &["replay"]);
        assert_eq!(
            annotation(&client, "blunder"),
            "Move 1, red plays column 1: value -1; the best +4 (column 3). A blunder: a win thrown to a loss. Exact values."
        );
        let marked = client.find("#values .value.played");
        assert_eq!(marked.attr("id").as_deref(), Some("value-1"));
        assert!(marked.attr("class").unwrap().contains("blunder"));

        click(&client, "step-forward");
        assert_eq!(
            annotation(&client, "best"),
            "Move 2, green plays column 3: value +1; the best +1 (column 3). A best move. Exact values."
        );
        // At the end there is no next move to annotate.
        click(&client, "step-forward");
        assert!(status(&client).ends_with("move 2 of 2. The log ends here (a forfeit or an unfinished game)."));
        assert_eq!(client.find_id("annotation").text(), "");
        client.close();
    });
}

/// The best columns of the Max-Connect4 position after `pos`, as `solve`
/// gives them (at once from the opening book built in, near the empty
/// board).
fn best_by_the_command_line(pos: &str) -> Vec<String> {
    let output = Command::new(env!("CARGO_BIN_EXE_maxconnect4"))
        .args(["solve", "--rules", "max", "--moves", pos])
        .output()
        .unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    let best = text.split_whitespace().nth(3).unwrap_or_else(|| panic!("no best columns in {text:?}"));
    best.split(',').map(str::to_owned).collect()
}

/// "perfect, seconds" plays the opening book's moves at once: its first
/// move as red is one of the best from the empty board, and as green its
/// reply to the person's first move is one of the best there.
#[test]
fn the_perfect_strength_plays_the_books_best_moves() {
    with_page(&[], |client, url| {
        client.goto(&url);
        choose(&client, "rules", "max");
        choose(&client, "limit", "perfect");
        type_into(&client, "amount", "5");

        choose(&client, "first", "computer");
        click(&client, "new-game");
        state(&client, &["your-turn"]);
        let opening = query(&client).strip_prefix("rules=max&pos=").unwrap().to_owned();
        assert_eq!(opening.len(), 1, "{opening}");
        assert!(best_by_the_command_line("").contains(&opening), "{opening}");
        // The page says the move was perfect play, and the value: a draw.
        let said = client.find_id("status").text();
        assert!(
            said.starts_with("The computer played perfectly (the position's value for the computer: 0). "),
            "{said}"
        );

        choose(&client, "first", "human");
        click(&client, "new-game");
        state(&client, &["your-turn"]);
        // Column 2, a first move that loses a point, and only if green
        // replies in column 5.
        assert_eq!(best_by_the_command_line("2"), ["5"]);
        click(&client, "cell-1-0");
        state(&client, &["your-turn"]);
        assert_eq!(query(&client), "rules=max&pos=25");
        client.close();
    });
}

#[test]
fn a_first_click_on_the_board_starts_a_game_and_the_columns_are_numbered() {
    with_page(&["--depth", "2"], |client, url| {
        client.goto(&url);
        let numbers = client.find_id("columns").text();
        assert_eq!(numbers.split_whitespace().collect::<Vec<_>>(), ["1", "2", "3", "4", "5", "6", "7"]);
        // A newcomer clicks column 3 without pressing New game: the game
        // starts, the piece drops, and the computer answers.
        choose(&client, "first", "human");
        click(&client, "cell-2-5");
        state(&client, &["your-turn"]);
        let board = pieces(&client);
        assert_eq!(&board[0][2..3], "X", "{board:?}");
        assert_eq!(board.concat().chars().filter(|&piece| piece == 'O').count(), 1, "{board:?}");
    });
}
