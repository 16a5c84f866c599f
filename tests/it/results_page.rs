//! The results page a tournament writes, `results.html`, opened from disk
//! in a real headless Chromium as `page` opens the server's page: the
//! standings as the CSV has them, a game replayed with the buttons and
//! checked against its logged moves, and a hostile forfeit reason shown as
//! text. And a class-sized tournament of six kinds of program producing it.

use std::path::Path;

use maxconnect4::board::{Board, Column};
use maxconnect4::referee::log::{decode_board, encode_board, GameRecord};
use maxconnect4::rules::Outcome;

use super::bots::tool_available;
use super::page::{browser, Driver, PATIENCE};
use super::util::{bot, engine, maxconnect4, protocol_bot, python, read, records};
use super::webdriver::Session;

/// What a hostile program prints on stderr before it fails, which the
/// referee quotes in its forfeit's reason.
const HOSTILE: &str = "<script>document.title='pwned'</script><b id=injected>bold</b>";

/// A folder a player run as another user (under a root referee) may read,
/// unlike a temporary directory under /tmp.
fn readable_folder() -> tempfile::TempDir {
    let folder = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    std::fs::set_permissions(folder.path(), std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    folder
}

/// A player that prints [`HOSTILE`] on stderr and exits without a move.
fn hostile_player(folder: &Path) -> String {
    let script = folder.join("hostile.py");
    std::fs::write(&script, format!("import sys\nprint({HOSTILE:?}, file=sys.stderr)\nsys.exit(1)\n")).unwrap();
    format!("{} -S {} {{in}} {{out}}", python(), script.display())
}

/// Runs a tournament of `players` with `args` (and a generous time limit)
/// in a new directory, into its folder `t`; returns the directory and what
/// the tournament printed.
fn tournament(players: &[String], args: &[&str]) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let mut command = maxconnect4(dir.path());
    command.args(["tournament", "--timeout", "60", "--out", "t"]).args(args);
    for player in players {
        command.args(["--player", player]);
    }
    let assert = command.assert().success();
    (dir, String::from_utf8(assert.get_output().stdout.clone()).unwrap())
}

/// A CSV file's rows of cells, the header first (no cell here is quoted).
fn csv(path: &Path) -> Vec<Vec<String>> {
    read(path).lines().map(|line| line.split(',').map(str::to_owned).collect()).collect()
}

/// The results in a page's JSON blob.
fn page_data(page: &str) -> serde_json::Value {
    let start = page.find("<script type=\"application/json\" id=\"results-data\">").expect("the results' blob");
    let rest = &page[start..];
    serde_json::from_str(&rest[rest.find('>').unwrap() + 1..rest.find("</script>").unwrap()]).unwrap()
}

/// The board after the first `count` of a logged game's moves, as the log
/// writes boards, without whose turn it is: the rows top first.
fn expected_board(record: &GameRecord, count: usize) -> String {
    let start = decode_board(&record.start).unwrap();
    let board = record
        .moves
        .bytes()
        .take(count)
        .fold(start, |board: Board, digit| board.after(Column::from_number(usize::from(digit - b'0')).unwrap()));
    encode_board(&board).split(' ').next().unwrap().to_owned()
}

/// The board the page draws, written the same way: each cell's piece as
/// 0, 1 (red) or 2 (green), the rows top first.
fn drawn_board(client: &Session) -> String {
    let script = "return [...document.querySelectorAll('#board .cell')]
        .map((cell) => ({ empty: '0', red: '1', green: '2' })[cell.dataset.piece]).join('')";
    let cells = client.execute(script);
    let cells = cells.as_str().unwrap();
    assert_eq!(cells.len(), 42, "{cells}");
    cells.as_bytes().chunks(7).map(|row| std::str::from_utf8(row).unwrap()).collect::<Vec<_>>().join("/")
}

fn text(client: &Session, css: &str) -> String {
    client.find(css).text()
}

fn click(client: &Session, css: &str) {
    client.find(css).click();
}

/// Each row of the table `css` as the texts of its cells.
fn rows(client: &Session, css: &str) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    for row in client.find_all(&format!("{css} tbody tr")) {
        let mut cells = Vec::new();
        for cell in row.find_all("td") {
            cells.push(cell.text());
        }
        rows.push(cells);
    }
    rows
}

fn file_url(path: &Path) -> String {
    format!("file://{}", path.canonicalize().unwrap().display())
}

#[test]
fn the_results_page_opens_from_disk_and_replays_every_game() {
    if !tool_available("chromedriver", "MAXCONNECT4_REQUIRE_BROWSER") {
        return;
    }
    let folder = readable_folder();
    let players =
        ["me=self".to_owned(), format!("deep={}", engine(2)), format!("hostile={}", hostile_player(folder.path()))];
    let (dir, stdout) = tournament(&players, &["--openings", "1", "--depth", "1", "--no-check"]);
    assert!(stdout.ends_with("The results page, to publish or open from disk: t/results.html\n"), "{stdout}");
    let out = dir.path().join("t");
    let logged = records(&out.join("games.jsonl"));
    let standings = csv(&out.join("standings.csv"));
    let game = logged.iter().find(|record| record.forfeit.is_none()).expect("me and deep play a game to the end");
    let moves = game.moves.len();
    assert!(moves > 6, "{}: {}", game.id, game.moves);

    let driver = Driver::start();
    let profile = tempfile::tempdir().unwrap();
    let client = browser(&driver, profile.path());
    client.goto(&file_url(&out.join("results.html")));
    client.wait_for("body[data-ready='yes']", PATIENCE);

    // The standings table says what the CSV says, row for row, and
    // each player's command as the log has it, the home folder as `~`.
    let shown = rows(&client, "#standings");
    let written: Vec<Vec<String>> = standings[1..].iter().map(|row| row[..9].to_vec()).collect();
    assert_eq!(shown.iter().map(|row| row[..9].to_vec()).collect::<Vec<_>>(), written);
    let home = std::env::var("HOME").ok().filter(|home| home.len() > 1).map(|home| format!("{home}/"));
    for row in &shown {
        let side = logged.iter().flat_map(|game| [&game.red, &game.green]).find(|side| side.name == row[1]).unwrap();
        let command = home.as_ref().map_or(side.command.clone(), |home| side.command.replace(home, "~/"));
        assert_eq!(row[9], command);
    }
    let games = rows(&client, "#games");
    assert_eq!(games.len(), logged.len(), "every game is listed");
    for row in &games {
        // Each game's opening as its moves: "44" is red's 4, then green's 4.
        let record = logged.iter().find(|record| record.id == row[0]).unwrap();
        let opening = record.opening.as_deref().unwrap();
        let moves: Vec<String> =
            opening.chars().enumerate().map(|(i, c)| format!("{} {c}", ["red", "green"][i % 2])).collect();
        assert_eq!(row[3], moves.join(", "), "{}", record.id);
    }
    assert_eq!(client.find_all("#ratings-chart g.rating").len(), 3, "a bar for each player's rating");

    // A game opened from its link, stepped through with the buttons.
    click(&client, &format!("#games a[data-game='{}']", game.id));
    assert_eq!(text(&client, "#replay-title"), format!("Replay of game {}", game.id));
    assert!(text(&client, "#replay-status").starts_with(&format!("Move 0 of {moves}.")));
    assert_eq!(drawn_board(&client), expected_board(game, 0), "the start: the opening's two pieces");
    for _ in 0..3 {
        click(&client, "#forward");
    }
    assert!(text(&client, "#replay-status").starts_with(&format!("Move 3 of {moves}.")));
    assert_eq!(drawn_board(&client), expected_board(game, 3));
    click(&client, "#back");
    assert_eq!(drawn_board(&client), expected_board(game, 2));
    click(&client, "#last");
    assert_eq!(drawn_board(&client), expected_board(game, moves));
    let status = text(&client, "#replay-status");
    let winner = match game.result {
        Outcome::Draw => "a draw".to_owned(),
        result => {
            let colour = result.winner().unwrap();
            format!("{} ({}) wins", game.side(colour).name, colour.colour_name())
        }
    };
    assert!(status.starts_with(&format!("Move {moves} of {moves}.")) && status.contains(&winner), "{status}");
    let fours = game.score.red + game.score.green;
    let marked = if fours > 0 { " (each four marked)." } else { "." };
    assert_eq!(
        text(&client, "#replay-score"),
        format!("Score: red {}, green {}{marked}", game.score.red, game.score.green),
        "the score counted on the page is the logged one"
    );
    // Every cell of a scoring four is marked at the end.
    let marked = client.find_all("#board .cell.four").len();
    assert!(fours == 0 || marked >= 4, "{marked} cells marked for {fours} fours");
    assert!(!client.find_id("forward").is_enabled());
    click(&client, "#first");
    assert_eq!(drawn_board(&client), expected_board(game, 0));

    // Hostile forfeits its 4 games for one verdict: one line, with the
    // count and the first reason, which quotes its stderr as text.
    let forfeited: Vec<&GameRecord> = logged.iter().filter(|record| record.forfeit.is_some()).collect();
    assert_eq!(forfeited.len(), 4, "hostile forfeits its 4 games");
    let verdict = &forfeited[0].forfeit.as_ref().unwrap().verdict;
    let lines = rows(&client, "#forfeits");
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert_eq!(lines[0][..3], ["hostile", verdict.as_str(), "4"], "the games closed, their count shown");
    assert!(lines[0][3].contains(HOSTILE), "{lines:?}");
    assert!(client.find_all("#injected").is_empty(), "no element was made from it");
    assert_eq!(client.title(), "Tournament results", "no script from it ran");
    // Opened, the count lists the games, each a link to its replay.
    assert!(!client.find("#forfeits details a").is_displayed());
    click(&client, "#forfeits summary");
    let links: Vec<String> = client.find_all("#forfeits details a").iter().map(|link| link.text()).collect();
    let ids: Vec<&str> = forfeited.iter().map(|record| record.id.as_str()).collect();
    assert_eq!(links, ids);
    click(&client, &format!("#forfeits a[data-game='{}']", ids[3]));
    assert_eq!(text(&client, "#replay-title"), format!("Replay of game {}", ids[3]));
    client.close();
}

/// A copy of the students of `tests/class` named in `students` in `class`.
fn class_of(class: &Path, students: &[&str]) {
    for student in students {
        let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/class").join(student);
        std::fs::create_dir_all(class.join(student)).unwrap();
        for file in std::fs::read_dir(&from).unwrap() {
            let file = file.unwrap();
            std::fs::copy(file.path(), class.join(student).join(file.file_name())).unwrap();
        }
    }
}

/// A class named by its absolute path, as an instructor's script names it:
/// the page, which is published, shows each command from the folder that
/// holds the tournament's (the class beside it), while the terminal keeps
/// the path given; and a student whose program never runs has one line of
/// forfeits for its two, as on the terminal, with its games.
#[test]
fn a_published_page_shows_no_path_of_the_machine_and_counts_forfeits() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let class = root.join("class");
    class_of(&class, &["alice", "dave"]);
    let out = root.join("t");
    let assert = maxconnect4(&root)
        .arg("tournament")
        .arg("--class")
        .arg(&class)
        .args(["--player", "me=self", "--gauntlet", "me", "--openings", "1", "--depth", "1", "--timeout", "60"])
        .args(["--no-check", "--out"])
        .arg(&out)
        .assert()
        .success();
    let stdout = String::from_utf8(assert.get_output().stdout.clone()).unwrap();
    let alice = "python3 maxconnect4.py one-move {in} {out} {depth}";
    let given = format!("cd {} && {alice}", class.join("alice").display());
    assert!(stdout.contains(&given), "the terminal shows the command as given: {stdout}");
    assert!(stdout.contains("dave forfeited 2 games:\n  2 × failed-to-start, for example: "), "{stdout}");

    let page = read(&out.join("results.html"));
    let root = root.to_str().unwrap();
    assert!(!page.contains(root), "the page names {root}");
    let data = page_data(&page);
    let command = |name: &str| {
        let standings = data["standings"].as_array().unwrap();
        standings.iter().find(|row| row["name"] == name).unwrap()["command"].as_str().unwrap().to_owned()
    };
    assert_eq!(command("alice"), format!("cd class/alice && {alice}"));
    assert_eq!(command("dave"), "cd class/dave && (no program)");
    assert_eq!(command("me"), "self");
    let logged = records(&out.join("games.jsonl"));
    let forfeited: Vec<&GameRecord> = logged.iter().filter(|record| record.forfeit.is_some()).collect();
    assert_eq!(forfeited.len(), 2, "dave forfeits each of his games");
    let ids: Vec<&str> = forfeited.iter().map(|record| record.id.as_str()).collect();
    assert_eq!(
        data["forfeits"],
        serde_json::json!([{
            "player": "dave",
            "verdict": "failed-to-start",
            "count": 2,
            "reason": forfeited[0].forfeit.as_ref().unwrap().reason.replace(&format!("{root}/"), ""),
            "games": ids,
        }])
    );
}

/// The Java player of `tests/bots/Leftmost.java`, compiled into `folder`.
fn java_player(folder: &Path) -> String {
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bots/Leftmost.java");
    let status = std::process::Command::new("javac").arg("-d").arg(folder).arg(&source).status().unwrap();
    assert!(status.success(), "javac failed on {}", source.display());
    let classpath = folder.display().to_string();
    format!("{} {{in}} {{out}}", shell_words::join(["java", "-classpath", &classpath, "Leftmost"]))
}

#[test]
fn a_class_of_six_kinds_of_program_gets_its_page() {
    if !tool_available("javac", "MAXCONNECT4_REQUIRE_JDK") {
        return;
    }
    let folder = readable_folder();
    let players = [
        "me=self".to_owned(),
        format!("depth1={}", engine(1)),
        format!("depth2={}", engine(2)),
        format!("python={}", bot("valid", None)),
        format!("coordinator={}", protocol_bot("coordinator", &["valid"])),
        format!("java={}", java_player(folder.path())),
    ];
    // Played as a class plays (README: "For a class, `--gauntlet ...`"):
    // every other kind of program against this one, in both colours, each
    // playing whole games into the page. The round robin it was (30 games,
    // the Java player's 200 moves each a JVM's start) took 154 s of a
    // loaded suite's 1120 (reports/build.md).
    let (dir, _) = tournament(&players, &["--openings", "1", "--jobs", "2", "--depth", "3", "--gauntlet", "me"]);
    let out = dir.path().join("t");
    let logged = records(&out.join("games.jsonl"));
    assert_eq!(logged.len(), 5 * 2, "each of five kinds against me, in both colours, from one opening");
    assert!(logged.iter().all(|record| record.forfeit.is_none()), "every program plays its games");

    let page = read(&out.join("results.html"));
    let data = page_data(&page);
    let names = |key: &str| -> Vec<String> {
        data[key].as_array().unwrap().iter().map(|row| row["name"].as_str().unwrap().to_owned()).collect()
    };
    let ranked: Vec<String> = csv(&out.join("standings.csv"))[1..].iter().map(|row| row[1].clone()).collect();
    assert_eq!(names("standings"), ranked);
    assert_eq!(names("ratings"), ranked);
    assert_eq!(names("figures"), ranked);
    let games = data["games"].as_array().unwrap();
    assert_eq!(games.len(), 5 * 2);
    for (game, record) in games.iter().zip(&logged) {
        assert_eq!(
            (game["id"].as_str(), game["moves"].as_str()),
            (Some(record.id.as_str()), Some(record.moves.as_str()))
        );
    }
    let java = data["figures"].as_array().unwrap().iter().find(|row| row["name"] == "java").unwrap();
    assert_eq!(java["moves"], 2 * 20, "java moved 20 times in each of its 2 games");
}
