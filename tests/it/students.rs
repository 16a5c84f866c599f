//! A class's programs as their students wrote them: each run from its own
//! folder (a copy), with the interpreter the user's own PATH gives (a
//! version manager's shim or a virtual environment in the home folder), in
//! an environment of its own, and a whole class checked and played from
//! its folder in one command. The programs here are written for the tests
//! and reproduce what public student programs of the assignment do: a
//! script importing a module beside it, Java in a package and several
//! classes, output with bare carriage returns, `computer.txt` written in
//! the program's folder.
//!
//! Every program here also spies: a file `spy.txt` beside it lists what it
//! must not see (paths, variables, the referee's folder in any process's
//! command line or environment, descriptors beyond its own three) and what
//! it must have; it answers garbage, and so fails, when anything is amiss.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::bots::tool_available;
use super::util::{maxconnect4, paths_under, python, records};

/// A student's one-move program in Python, importing the module
/// [`MODULE`] from beside it, writing `computer.txt` in its folder, and
/// ending its lines with bare carriage returns; the README's sample class
/// has it. It checks `spy.txt` first.
pub(super) const SCRIPT: &str = include_str!("../class/alice/maxconnect4.py");

/// The module beside the script.
pub(super) const MODULE: &str = include_str!("../class/alice/MaxConnect4Game.py");

/// The same program in Java, in the package `game`, its rules in a second
/// class; its lines end with CRLF, as Java programs' do on Windows.
const JAVA_MAIN: &str = include_str!("../programs/java-package/src/game/MaxConnect4.java");

const JAVA_BOARD: &str = include_str!("../programs/java-package/src/game/Board.java");

/// The same program in C, without a final newline.
const C_MAIN: &str = include_str!("../class/carol/main.c");

/// The Python student's command, from its folder.
pub(super) const PYTHON_COMMAND: &str = "python3 maxconnect4.py one-move {in} {out} {depth}";

/// Writes `files` (name, text) under `folder`, making folders on the way.
pub(super) fn put(folder: &Path, files: &[(&str, &str)]) {
    for (name, text) in files {
        let path = folder.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
}

/// A Python student's folder at `folder`, spying on `spy` (lines of
/// `spy.txt`).
pub(super) fn python_student(folder: &Path, spy: &[String]) {
    put(folder, &[("maxconnect4.py", SCRIPT), ("MaxConnect4Game.py", MODULE)]);
    if !spy.is_empty() {
        put(folder, &[("spy.txt", &spy.join("\n"))]);
    }
}

/// Every file under `folder` with its contents, to see it unchanged.
pub(super) fn snapshot(folder: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut files: Vec<(PathBuf, Vec<u8>)> = paths_under(folder)
        .into_iter()
        .filter(|path| !path.is_dir())
        .map(|path| {
            let contents = std::fs::read(&path).unwrap();
            (path, contents)
        })
        .collect();
    files.sort();
    files
}

/// What a command printed on stdout and stderr, and its exit code.
pub(super) fn ran(command: &mut assert_cmd::Command) -> (String, i32) {
    let output = command.output().unwrap();
    let mut text = String::from_utf8_lossy(&output.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&output.stderr));
    (text, output.status.code().unwrap_or(-1))
}

#[test]
fn a_program_runs_from_its_own_folder_which_it_cannot_change() {
    let class = tempfile::tempdir().unwrap();
    let alice = class.path().join("alice");
    python_student(&alice, &[format!("unseen {}", class.path().join("bob").display())]);
    python_student(&class.path().join("bob"), &[format!("unseen {}", alice.display())]);
    let before = snapshot(&alice);

    // As the student would: from the program's folder, its own command.
    let (text, code) = ran(maxconnect4(&alice).args(["check", PYTHON_COMMAND]));
    assert_eq!(code, 0, "{text}");
    assert!(text.starts_with(&format!("ok      1 ({PYTHON_COMMAND}): started and played column 1 in")), "{text}");

    // As an instructor would, from the class's folder: each program runs in
    // a copy of its own, and sees neither the other's nor the log.
    let (text, code) = ran(maxconnect4(class.path()).args([
        "match",
        "--quiet",
        "--depth",
        "1",
        "python3 alice/maxconnect4.py one-move {in} {out} {depth}",
        "cd bob && python3 maxconnect4.py one-move {in} {out} {depth}",
    ]));
    assert_eq!(code, 0, "{text}");
    let game = records(&class.path().join("games.jsonl")).remove(0);
    assert!(game.forfeit.is_none(), "{text}");
    assert_eq!(game.moves.len(), 42, "the game is played to the full board");
    assert_eq!(snapshot(&alice), before, "the student's folder is never changed");
    assert!(!class.path().join("computer.txt").exists());

    // From the student's folder, where the log and the games' output then
    // are: the copy of the folder leaves them out, the first time and after.
    let carol = class.path().join("carol");
    python_student(&carol, &["unseen games.jsonl".to_owned(), "unseen games.output".to_owned()]);
    for game in 0..2 {
        let (text, code) = ran(maxconnect4(&carol).args(["match", "--quiet", "--depth", "1", PYTHON_COMMAND, "self"]));
        assert_eq!(code, 0, "{text}");
        assert!(records(&carol.join("games.jsonl"))[game].forfeit.is_none(), "{text}");
    }
}

/// A pyenv of the tests' own in `home`, laid out as pyenv lays itself out,
/// and the PATH with its shims first: a shim asks the manager, which takes
/// the version from `PYENV_VERSION`, else from the first `.python-version`
/// in the current folder or a folder above it (following links, as pyenv
/// does), else 1.0, and quotes what it read when that version is not
/// installed. Only `installed` is, with `programs` in it running the
/// tests' Python; so is 1.0.
pub(super) fn pyenv_of_our_own(home: &Path, installed: &str, programs: &[&str]) -> std::ffi::OsString {
    use std::os::unix::fs::PermissionsExt as _;
    let manager = home.join(".pyenv");
    let shim = format!(
        "#!/usr/bin/env bash\nset -e\nprogram=\"${{0##*/}}\"\nexec \"{}\" exec \"$program\" \"$@\"\n",
        manager.join("libexec/pyenv").display()
    );
    let pyenv = format!(
        "#!/bin/sh\nversion=1.0\nif [ -n \"$PYENV_VERSION\" ]; then version=$PYENV_VERSION; else dir=$PWD\n\
         while :; do if [ -f \"$dir/.python-version\" ]; then version=$(cat \"$dir/.python-version\"); break; fi\n\
         [ \"$dir\" = / ] && break; dir=$(dirname \"$dir\"); done; fi\n\
         program={versions}/$version/bin/$2\n\
         [ -x \"$program\" ] || {{ echo \"pyenv: version '$version' is not installed\" >&2; exit 1; }}\n\
         case \"$1\" in which) echo \"$program\";; exec) shift; shift; exec \"$program\" \"$@\";; esac\n",
        versions = manager.join("versions").display()
    );
    put(&manager, &[("libexec/pyenv", &pyenv)]);
    for program in programs {
        put(&manager, &[(&format!("shims/{program}"), &shim)]);
        std::fs::set_permissions(manager.join("shims").join(program), std::fs::Permissions::from_mode(0o755)).unwrap();
        for version in ["1.0", installed] {
            let bin = manager.join("versions").join(version).join("bin");
            std::fs::create_dir_all(&bin).unwrap();
            let _ = std::os::unix::fs::symlink(python(), bin.join(program));
        }
    }
    std::fs::set_permissions(manager.join("libexec/pyenv"), std::fs::Permissions::from_mode(0o755)).unwrap();
    std::env::join_paths(
        std::iter::once(manager.join("shims")).chain(std::env::split_paths(&std::env::var_os("PATH").unwrap())),
    )
    .unwrap()
}

#[test]
fn a_version_managers_shim_in_the_home_folder_runs_the_version_the_programs_folder_names() {
    let temp = tempfile::tempdir().unwrap();
    let home = temp.path().join("home");
    let path = pyenv_of_our_own(&home, "2.0", &["python3"]);
    put(&home, &[(".ssh/id_ed25519", "a private key")]);
    let alice = temp.path().join("alice");
    python_student(&alice, &[format!("unseen {}", home.join(".ssh").display())]);
    put(&alice, &[(".python-version", "2.0")]);

    let (text, code) = ran(maxconnect4(&alice).env("HOME", &home).env("PATH", &path).args(["check", PYTHON_COMMAND]));
    assert_eq!(code, 0, "{text}");
    assert!(text.starts_with("ok      1 "), "{text}");

    // Where the folder names a version that is not installed, the
    // manager's own words say why.
    put(&alice, &[(".python-version", "3.0")]);
    let (text, code) = ran(maxconnect4(&alice).env("HOME", &home).env("PATH", &path).args(["check", PYTHON_COMMAND]));
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("cannot tell which python3 to run here: pyenv: version '3.0' is not installed"), "{text}");
}

#[test]
fn a_virtual_environment_in_the_home_folder_runs_with_its_own_packages() {
    let temp = tempfile::tempdir().unwrap();
    let home = temp.path().join("home");
    let venv = home.join("venvs/c4");
    let made = Command::new("python3").args(["-m", "venv", "--without-pip"]).arg(&venv).status().unwrap();
    assert!(made.success());
    // A package only the environment has, which the student's module uses.
    let lib = std::fs::read_dir(venv.join("lib")).unwrap().next().unwrap().unwrap().path();
    put(&lib.join("site-packages"), &[("only_in_the_venv.py", "MARK = 1\n")]);
    let alice = temp.path().join("alice");
    python_student(&alice, &[]);
    put(&alice, &[("MaxConnect4Game.py", &format!("import only_in_the_venv\n{MODULE}"))]);

    // As after `source ~/venvs/c4/bin/activate`.
    let path = std::env::join_paths(
        std::iter::once(venv.join("bin")).chain(std::env::split_paths(&std::env::var_os("PATH").unwrap())),
    )
    .unwrap();
    let (text, code) = ran(maxconnect4(&alice).env("HOME", &home).env("PATH", &path).args(["check", PYTHON_COMMAND]));
    assert_eq!(code, 0, "{text}");
}

#[test]
fn the_referees_environment_and_descriptors_stay_its_own() {
    let alice = tempfile::tempdir().unwrap();
    let referee = tempfile::tempdir().unwrap();
    let spy =
        ["has SEAT=window".to_owned(), format!("nowhere {}", referee.path().display()), "nowhere hunter2".to_owned()];
    python_student(alice.path(), &spy);
    // The referee is started from another folder, with a secret in its
    // environment and a descriptor open: none of it reaches the player.
    let script = format!(
        "exec 7</dev/null; cd {} && exec {} check --env SEAT 'cd {} && {PYTHON_COMMAND}'",
        shell_words::quote(&referee.path().to_string_lossy()),
        shell_words::quote(env!("CARGO_BIN_EXE_maxconnect4")),
        shell_words::quote(&alice.path().to_string_lossy()),
    );
    let (text, code) = ran(assert_cmd::Command::new("sh")
        .args(["-c", &script])
        .env("AWS_SECRET_ACCESS_KEY", "hunter2")
        .env("SEAT", "window")
        .env_remove("RUST_BACKTRACE"));
    assert_eq!(code, 0, "{text}");

    // Without --env, the variable is not passed, and the player says so.
    let (text, code) = ran(maxconnect4(referee.path())
        .env("SEAT", "window")
        .args(["check", &format!("cd {} && {PYTHON_COMMAND}", alice.path().display())]));
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("the line reads \"GARBAGE no SEAT\""), "{text}");
    assert!(!text.contains("its output is in"), "check names no file it has removed: {text}");
}

#[test]
fn a_program_that_cannot_start_is_told_why_and_what_would_fix_it() {
    let alice = tempfile::tempdir().unwrap();
    put(alice.path(), &[("maxconnect4.py", SCRIPT)]);
    let (text, code) = ran(maxconnect4(alice.path()).args(["check", PYTHON_COMMAND]));
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains(
            "failed to start: the program could not start (exit status 1): ModuleNotFoundError: No module named \
             'MaxConnect4Game'; the module is neither beside the script in the program's folder nor installed"
        ),
        "{text}"
    );
    if !tool_available("javac", "MAXCONNECT4_REQUIRE_JDK") {
        return;
    }
    // Java sources never compiled: the JVM's first line says why, not its last.
    put(alice.path(), &[("game/MaxConnect4.java", JAVA_MAIN)]);
    let (text, code) =
        ran(maxconnect4(alice.path()).args(["check", "java game.MaxConnect4 one-move {in} {out} {depth}"]));
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains("failed to start: the program could not start (exit status 1): Error: Could not find or load main class game.MaxConnect4; compile the program (javac)"),
        "{text}"
    );
}

/// A class's folder: Python, C, a command file, an empty folder, and Java
/// in a package where a JDK is installed.
fn class_folder(with_java: bool) -> tempfile::TempDir {
    let class = tempfile::tempdir().unwrap();
    python_student(&class.path().join("alice"), &[]);
    put(&class.path().join("carol"), &[("main.c", C_MAIN), ("notes.txt", "how I did it")]);
    put(
        &class.path().join("dave"),
        &[
            ("players/mine.py", SCRIPT),
            ("players/MaxConnect4Game.py", MODULE),
            ("players/other.py", "import sys\nprint(sys.argv)\n"),
            ("maxconnect4-player.txt", "# mine is the one\nrun: python3 players/mine.py one-move {in} {out} {depth}\n"),
        ],
    );
    std::fs::create_dir(class.path().join("eve")).unwrap();
    if with_java {
        put(
            &class.path().join("bob"),
            &[("src/game/MaxConnect4.java", JAVA_MAIN), ("src/game/Board.java", JAVA_BOARD)],
        );
    }
    class
}

#[test]
fn a_class_is_found_built_and_checked_in_one_command() {
    let with_java = tool_available("javac", "MAXCONNECT4_REQUIRE_JDK");
    let parent = tempfile::tempdir().unwrap();
    let class = class_folder(with_java);
    let before = snapshot(class.path());
    let folder = class.path().display().to_string();
    let (text, code) = ran(maxconnect4(parent.path()).args(["check", "--class", &folder, "--gradebook", "grades.csv"]));
    assert_eq!(code, 1, "{text}");
    let line = |name: &str| {
        text.lines()
            .find(|line| line.get(8..).is_some_and(|rest| rest.starts_with(&format!("{name} ["))))
            .unwrap_or_default()
    };
    assert!(
        line("alice")
            .starts_with(&format!("ok      alice [Python 3] (cd {folder}/alice && {PYTHON_COMMAND}): started")),
        "{text}"
    );
    assert!(
        line("carol").starts_with(&format!(
            "ok      carol [C, built with `gcc -O2 -o maxconnect4 main.c -lm`] (cd {folder}/carol && ./maxconnect4 one-move"
        )),
        "{text}"
    );
    assert!(line("dave").starts_with("ok      dave [as its command file says]"), "{text}");
    assert!(
        line("eve").starts_with(&format!(
            "FAILED  eve [nothing] (cd {folder}/eve && (no program)): failed to start: no program found"
        )),
        "{text}"
    );
    if with_java {
        assert!(
            line("bob").starts_with(&format!(
                "ok      bob [Java, built with `javac -nowarn -d . src/game/Board.java src/game/MaxConnect4.java`] \
                 (cd {folder}/bob && java -cp . game.MaxConnect4 one-move {{in}} {{out}} {{depth}}): started"
            )),
            "{text}"
        );
    }
    let players = if with_java { 5 } else { 4 };
    assert!(text.ends_with(&format!("error: 1 of {players} players failed the check\n")), "{text}");
    assert_eq!(snapshot(class.path()), before, "the build happens in a copy");

    // One row per student for the grade sheet, the one who failed with why.
    let grades = std::fs::read_to_string(parent.path().join("grades.csv")).unwrap();
    let rows: Vec<&str> = grades.lines().collect();
    assert_eq!(rows[0], "student,program,check,reason,rank,games,wins,draws,losses,points,forfeits,rating,interval");
    assert_eq!(rows.len(), players + 1, "{grades}");
    assert!(rows.contains(&"alice,Python 3,passed,,,,,,,,,,"), "{grades}");
    assert!(rows.contains(&"carol,\"C, built with `gcc -O2 -o maxconnect4 main.c -lm`\",passed,,,,,,,,,,"), "{grades}");
    let eve = rows.iter().find(|row| row.starts_with("eve,")).unwrap();
    assert!(eve.starts_with("eve,nothing,failed,\"failed to start: no program found"), "{grades}");
}

#[test]
fn a_class_tournament_plays_the_students_commands() {
    let with_java = tool_available("javac", "MAXCONNECT4_REQUIRE_JDK");
    let parent = tempfile::tempdir().unwrap();
    let class = class_folder(with_java);
    let before = snapshot(class.path());
    let (text, code) = ran(maxconnect4(parent.path()).args([
        "tournament",
        "--class",
        &class.path().display().to_string(),
        "--player",
        "me=self",
        // Every student against me, as a class plays a gauntlet: a round
        // robin among the students checks nothing more than each one's two
        // games, and gave the Java one 8 games, a JVM started each move
        // (reports/build.md).
        "--gauntlet",
        "me",
        "--drop-failing",
        "--openings",
        "1",
        "--depth",
        "1",
        "--jobs",
        "2",
    ]));
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("FAILED  eve ("), "{text}");
    let logged = records(&parent.path().join("tournament/games.jsonl"));
    let students = if with_java { 4 } else { 3 };
    assert_eq!(logged.len(), students * 2, "each student against me, in both colours");
    assert!(logged.iter().all(|game| game.forfeit.is_none()), "{text}");
    let alice = format!("alice  cd {}/alice && {PYTHON_COMMAND}", class.path().display());
    assert!(text.lines().any(|line| line == alice), "the standings show each player's command:\n{text}");
    assert_eq!(snapshot(class.path()), before);

    // eve, dropped, does not vanish: last in the standings with no game,
    // and in the gradebook with why; `results` writes the same from the log.
    let standings = std::fs::read_to_string(parent.path().join("tournament/standings.csv")).unwrap();
    let last = standings.lines().last().unwrap();
    assert!(last.starts_with(&format!("{},eve,0,0,0,0,0,0,+0,", students + 2)), "{standings}");
    let gradebook = std::fs::read_to_string(parent.path().join("tournament/gradebook.csv")).unwrap();
    let row = |name: &str| gradebook.lines().find(|row| row.starts_with(&format!("{name},"))).unwrap_or_default();
    assert!(row("alice").starts_with("alice,Python 3,passed,,"), "{gradebook}");
    assert!(row("me").starts_with("me,,passed,,1,"), "{gradebook}");
    assert!(row("eve").starts_with("eve,nothing,dropped,\"failed to start: no program found"), "{gradebook}");
    assert!(row("eve").ends_with(&format!(",{},0,0,0,0,0,,,", students + 2)), "{gradebook}");
    std::fs::remove_file(parent.path().join("tournament/gradebook.csv")).unwrap();
    let (text, code) = ran(maxconnect4(parent.path()).args(["results", "tournament"]));
    assert_eq!(code, 0, "{text}");
    assert_eq!(std::fs::read_to_string(parent.path().join("tournament/gradebook.csv")).unwrap(), gradebook);
}

#[test]
fn a_submission_reaches_nothing_beyond_its_own_folder() {
    let parent = tempfile::tempdir().unwrap();
    let class = parent.path().join("class");
    python_student(&class.join("alice"), &[]);
    // A "shim" of its own whose "manager" would run the submission's
    // `which` script on the referee's side, outside any sandbox.
    let marker = parent.path().join("ran-outside");
    let mallory = class.join("mallory");
    put(
        &mallory,
        &[
            ("shims/maxconnect4", "#!/bin/sh\nexec /bin/sh exec x\n"),
            ("which", &format!("#!/bin/sh\ntouch {}\n", marker.display())),
        ],
    );
    {
        use std::os::unix::fs::PermissionsExt as _;
        for file in ["shims/maxconnect4", "which"] {
            std::fs::set_permissions(mallory.join(file), std::fs::Permissions::from_mode(0o755)).unwrap();
        }
    }
    // A command file that is a link to the referee's environment.
    std::fs::create_dir(class.join("oscar")).unwrap();
    std::os::unix::fs::symlink("/proc/self/environ", class.join("oscar/maxconnect4-player.txt")).unwrap();
    // A command that plays another student's program.
    put(
        &class.join("trudy"),
        &[("maxconnect4-player.txt", "run: python3 ../alice/maxconnect4.py one-move {in} {out}\n")],
    );

    let (text, code) =
        ran(maxconnect4(parent.path()).env("AWS_SECRET_ACCESS_KEY", "hunter3").args(["check", "--class", "class"]));
    assert_eq!(code, 1, "{text}");
    assert!(!marker.exists(), "a submission's file ran outside the sandbox");
    assert!(text.lines().any(|line| line.starts_with("ok      alice [")), "{text}");
    assert!(text.contains("oscar/maxconnect4-player.txt is not a regular file"), "{text}");
    assert!(!text.contains("hunter3"), "the referee's environment was read: {text}");
    let trudy = text.lines().find(|line| line.contains(" trudy [")).unwrap();
    assert!(trudy.starts_with("FAILED") && trudy.contains("can't open file"), "{trudy}");

    // A program whose folder holds the home folder is refused, not copied.
    let home = parent.path().join("me");
    std::fs::create_dir(&home).unwrap();
    python_student(parent.path(), &[]);
    let (text, code) = ran(maxconnect4(parent.path()).env("HOME", &home).args(["check", PYTHON_COMMAND]));
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("which players never see: start the referee in the program's own folder"), "{text}");
}
