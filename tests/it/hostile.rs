//! A hostile student against the referee's own side: what a submission
//! holds must never run, or be read unbounded, outside the sandbox, and no
//! player sees another's files (docs/referee.md, "What a submission can
//! and cannot do"). Each attack here was reproduced against an earlier
//! referee; its assertion is what leaked or was spent then: a secret, a
//! marker file, bytes written, the referee's memory.
//!
//! CI runs these as root, as a course server often does; run as another
//! user they attack the same way (the sandbox is then a user namespace),
//! with the secret readable by the user alone.

use std::path::{Path, PathBuf};
use std::process::Stdio;

use super::students::{put, pyenv_of_our_own, python_student, ran};
use super::util::{maxconnect4, paths_under, records};

/// What a submission must never learn: in a file only the referee's user
/// may read.
const SECRET: &str = "TOPSECRET-XYZ";

/// A file holding [`SECRET`], readable by its owner alone, in `dir`.
fn secret_file(dir: &Path) -> PathBuf {
    use std::os::unix::fs::PermissionsExt as _;
    let path = dir.join("secret");
    std::fs::write(&path, format!("{SECRET} and more\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
    path
}

/// Everything under `folder` read as text, to look for a secret in.
fn all_text(folder: &Path) -> String {
    let files = paths_under(folder).into_iter().filter(|path| std::fs::symlink_metadata(path).unwrap().is_file());
    files.map(|path| String::from_utf8_lossy(&std::fs::read(path).unwrap()).into_owned()).collect()
}

/// A student who plays with `python3.7` (a shim, as pyenv gives), with
/// `.python-version` a link to `secret`.
fn linked_version(folder: &Path, secret: &Path) {
    python_student(folder, &[]);
    put(folder, &[("maxconnect4-player.txt", "run: python3.7 maxconnect4.py one-move {in} {out} {depth}\n")]);
    std::os::unix::fs::symlink(secret, folder.join(".python-version")).unwrap();
}

/// The line of `name` in a check's output.
fn line_of<'a>(text: &'a str, name: &str) -> &'a str {
    text.lines().find(|line| line.get(8..).is_some_and(|rest| rest.starts_with(&format!("{name} [")))).unwrap_or("")
}

#[test]
fn a_linked_python_version_leaks_nothing_to_the_class_or_its_results() {
    let temp = tempfile::tempdir().unwrap();
    let home = temp.path().join("home");
    let path = pyenv_of_our_own(&home, "3.7", &["python3", "python3.7"]);
    let secret = secret_file(temp.path());
    let class = temp.path().join("class");
    python_student(&class.join("alice"), &[]);
    linked_version(&class.join("mallory"), &secret);
    // No version file of its own, and one planted in the referee's
    // temporary folder, above every copy.
    python_student(&class.join("oscar"), &[]);
    put(
        &class.join("oscar"),
        &[("maxconnect4-player.txt", "run: python3.7 maxconnect4.py one-move {in} {out} {depth}\n")],
    );
    let tmp = temp.path().join("tmp");
    put(&tmp, &[(".python-version", "TMPSECRET-ABC\n")]);
    let work = temp.path().join("work");
    std::fs::create_dir(&work).unwrap();

    let referee = || {
        let mut command = maxconnect4(&work);
        command.env("HOME", &home).env("PATH", &path).env("TMPDIR", &tmp);
        command
    };
    let (text, code) = ran(referee().args(["check", "--class", "../class"]));
    assert_eq!(code, 1, "{text}");
    assert!(!text.contains(SECRET) && !text.contains("TMPSECRET"), "{text}");
    let mallory = line_of(&text, "mallory");
    assert!(
        mallory.starts_with("FAILED") && mallory.contains("the program's .python-version is a symbolic link"),
        "{text}"
    );
    assert!(line_of(&text, "oscar").starts_with("ok"), "{text}");

    // A tournament's published results hold nothing of it either: mallory
    // alone against this program, its games forfeited with the reason.
    let mallory_only = temp.path().join("mallory-only");
    linked_version(&mallory_only.join("mallory"), &secret);
    let (text, code) = ran(referee().args([
        "tournament",
        "--class",
        "../mallory-only",
        "--player",
        "me=self",
        // Played, so that the reason mallory cannot start is recorded.
        "--no-check",
        "--openings",
        "1",
        "--depth",
        "1",
    ]));
    assert_eq!(code, 0, "{text}");
    assert!(!text.contains(SECRET) && !text.contains("TMPSECRET"), "{text}");
    let results = all_text(&work.join("tournament"));
    assert!(results.contains("mallory") && results.contains("symbolic link"), "{results}");
    assert!(!results.contains(SECRET) && !results.contains("TMPSECRET"), "the results quote the secret");
}

#[test]
fn the_users_own_pyenv_reads_no_file_of_a_submission() {
    // Where the machine's python3 is a real pyenv's shim, as on the
    // project's machines: pyenv itself, with every shim the attack used.
    let Some(shims) = std::env::var_os("PATH")
        .and_then(|path| std::env::split_paths(&path).find(|folder| folder.ends_with(".pyenv/shims")))
    else {
        return;
    };
    let temp = tempfile::tempdir().unwrap();
    let secret = secret_file(temp.path());
    let class = temp.path().join("class");
    for shim in ["python3", "python2", "python3.7", "idle3.7"] {
        if !shims.join(shim).exists() {
            continue;
        }
        let folder = class.join(format!("mallory-{}", shim.replace('.', "_")));
        linked_version(&folder, &secret);
        put(
            &folder,
            &[("maxconnect4-player.txt", &format!("run: {shim} maxconnect4.py one-move {{in}} {{out}} {{depth}}\n"))],
        );
    }
    let (text, code) = ran(maxconnect4(temp.path()).args(["check", "--class", "class"]));
    assert_eq!(code, 1, "{text}");
    assert!(!text.contains(SECRET), "{text}");
    let failed: Vec<&str> = text.lines().filter(|line| line.starts_with("FAILED")).collect();
    assert!(!failed.is_empty() && failed.iter().all(|line| line.contains("is a symbolic link")), "{text}");
}

/// Runs `command` to its end, with its output, and the bytes it and every
/// process it waited for wrote to storage, and the largest resident size
/// any of them reached (`wait4`'s count).
#[expect(clippy::zombie_processes, reason = "the child is reaped by wait4, which gives what it used")]
fn measured(command: &mut std::process::Command) -> (String, u64, u64) {
    let child = command.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let pid = i32::try_from(child.id()).unwrap();
    let (mut stdout, mut stderr) = (child.stdout.unwrap(), child.stderr.unwrap());
    let errors = std::thread::spawn(move || {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut stderr, &mut text).unwrap();
        text
    });
    let mut text = String::new();
    std::io::Read::read_to_string(&mut stdout, &mut text).unwrap();
    text.push_str(&errors.join().unwrap());
    let mut status = 0;
    // SAFETY: a plain system call on this test's own child, with room for
    // its answer.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        assert_eq!(libc::wait4(pid, &raw mut status, 0, &raw mut usage), pid);
        usage
    };
    let written = u64::try_from(usage.ru_oublock).unwrap() * 512;
    let resident = u64::try_from(usage.ru_maxrss).unwrap() * 1024;
    (text, written, resident)
}

/// A file of `size` bytes that takes no room: a sparse file.
fn sparse(path: &Path, size: u64) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::File::create(path).unwrap().set_len(size).unwrap();
}

#[test]
fn sparse_files_are_refused_before_a_byte_of_them_is_written() {
    let temp = tempfile::tempdir().unwrap();
    let class = temp.path().join("class");
    python_student(&class.join("alice"), &[]);
    // A 30 GiB file of no blocks beside a valid player; each kind of
    // source the referee looks into, large; a build that makes two 250 MB
    // sparse files in its copy.
    python_student(&class.join("mallory"), &[]);
    sparse(&class.join("mallory/data.bin"), 30 << 30);
    // Sources of 1 GiB, which an allocator grants where it refuses 30
    // (the referee read them whole: 1.06 GB resident).
    python_student(&class.join("pyzed"), &[]);
    sparse(&class.join("pyzed/zbig.py"), 1 << 30);
    sparse(&class.join("javazed/zbig.java"), 1 << 30);
    sparse(&class.join("javazed/zbig.class"), 1 << 30);
    sparse(&class.join("czed/zbig.c"), 1 << 30);
    python_student(&class.join("trudy"), &[]);
    put(
        &class.join("trudy"),
        &[(
            "maxconnect4-player.txt",
            "build: truncate -s 250M a && truncate -s 250M b\nrun: python3 maxconnect4.py one-move {in} {out} {depth}\n",
        )],
    );
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_maxconnect4"));
    // A temporary directory of its own: what other tests' referees leave
    // in the shared one is not this referee's to measure.
    std::fs::create_dir(temp.path().join("tmp")).unwrap();
    command.args(["check", "--class", "class"]).current_dir(temp.path()).env_remove("RUST_BACKTRACE");
    command.env("TMPDIR", temp.path().join("tmp"));
    let (text, written, resident) = measured(&mut command);
    assert!(line_of(&text, "alice").starts_with("ok"), "{text}");
    for name in ["mallory", "pyzed", "javazed", "czed"] {
        let line = line_of(&text, name);
        assert!(line.starts_with("FAILED") && line.contains("sparse files counted at their full size"), "{text}");
    }
    // trudy's build is stopped at the disk limit when the referee looks at
    // its folder before the build ends, else its copy is refused.
    let trudy = line_of(&text, "trudy");
    assert!(
        trudy.starts_with("FAILED")
            && (trudy.contains("sparse files counted at their full size")
                || trudy.contains("the build was stopped: disk limit")),
        "{text}"
    );
    // The players' own writes (Python's caches, the turn's files) are a
    // few hundred kilobytes; one sparse file copied is a gigabyte.
    assert!(written < 32 << 20, "{written} bytes written:\n{text}");
    assert!(resident < 100 << 20, "{resident} bytes resident:\n{text}");
}

/// A new folder anyone may go through, outside the home folder and the
/// temporary folder, which players never see anyway: where a class at
/// `/srv/class` would be. The build's own scratch folder, else `/var/tmp`.
fn outside_what_players_never_see() -> tempfile::TempDir {
    use std::os::unix::fs::PermissionsExt as _;
    let never_seen: Vec<PathBuf> = [Some(std::env::temp_dir()), std::env::var_os("HOME").map(PathBuf::from)]
        .into_iter()
        .flatten()
        .filter_map(|folder| folder.canonicalize().ok())
        .collect();
    let place = [env!("CARGO_TARGET_TMPDIR"), "/var/tmp"]
        .into_iter()
        .filter_map(|place| Path::new(place).canonicalize().ok())
        .find(|place| !never_seen.iter().any(|folder| place.starts_with(folder)))
        .expect("a folder outside the temporary and home folders, for the class");
    let outside = tempfile::tempdir_in(place).unwrap();
    std::fs::set_permissions(outside.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    outside
}

#[test]
fn no_player_sees_the_class_wherever_it_lies() {
    let outside = outside_what_players_never_see();
    let class = outside.path().join("class");
    let alice = class.join("alice");
    python_student(&alice, &[]);
    put(&alice, &[("notes.txt", "how I did it")]);
    // A classmate's files, by their real paths (the class's folder is an
    // empty one).
    let unseen = [format!("unseen {}", alice.join("notes.txt").display()), format!("unseen {}", alice.display())];
    python_student(&class.join("mallory"), &unseen);
    let work = tempfile::tempdir().unwrap();
    let (text, code) = ran(maxconnect4(work.path()).args(["check", "--class", &class.display().to_string()]));
    assert_eq!(code, 0, "{text}");

    let (text, code) = ran(maxconnect4(work.path()).args([
        "tournament",
        "--class",
        &class.display().to_string(),
        "--openings",
        "1",
        "--depth",
        "1",
    ]));
    assert_eq!(code, 0, "{text}");
    let games = records(&work.path().join("tournament/games.jsonl"));
    assert_eq!(games.len(), 2);
    assert!(games.iter().all(|game| game.forfeit.is_none()), "{text}");
}

#[test]
fn a_classmates_original_folder_is_hidden_from_a_match_of_copies() {
    let outside = outside_what_players_never_see();
    let alice = outside.path().join("alice");
    python_student(&alice, &[]);
    put(&alice, &[("notes.txt", "how I did it")]);
    let bob = outside.path().join("bob");
    // Its classmate's files and its own original (hidden under an empty
    // folder): it plays its copy.
    let unseen =
        [format!("unseen {}", alice.join("notes.txt").display()), format!("unseen {}", bob.join("spy.txt").display())];
    python_student(&bob, &unseen);
    let work = tempfile::tempdir().unwrap();
    let command =
        |folder: &Path| format!("cd {} && python3 maxconnect4.py one-move {{in}} {{out}} {{depth}}", folder.display());
    // From a nearly full board: each plays a few turns, each turn a spy.
    let start = super::util::shipped("nearly_full.txt").display().to_string();
    let (text, code) = ran(maxconnect4(work.path()).args([
        "match",
        "--quiet",
        "--depth",
        "1",
        "--start",
        &start,
        &command(&alice),
        &command(&bob),
    ]));
    assert_eq!(code, 0, "{text}");
    let game = records(&work.path().join("games.jsonl")).remove(0);
    assert!(game.forfeit.is_none(), "{:?}", game.forfeit);
}
