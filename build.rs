//! Records the git revision the program is built from, so that a timing
//! report run anywhere can say which code it measured
//! (`MAXCONNECT4_REVISION`, empty outside a git checkout).

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let output = Command::new("git").args(args).output().ok()?;
    output.status.success().then(|| String::from_utf8_lossy(&output.stdout).trim().to_owned())
}

fn main() {
    let revision = git(&["rev-parse", "--short", "HEAD"]).map(|revision| {
        match git(&["status", "--porcelain", "--untracked-files=no"]) {
            Some(changes) if !changes.is_empty() => format!("{revision} with uncommitted changes"),
            _ => revision,
        }
    });
    println!("cargo:rustc-env=MAXCONNECT4_REVISION={}", revision.unwrap_or_default());
    // Built again when the sources change (which may make the checkout
    // dirty) or the checkout moves to another commit.
    for path in ["src", "Cargo.toml", "build.rs"] {
        println!("cargo:rerun-if-changed={path}");
    }
    for name in ["HEAD"] {
        if let Some(path) = git(&["rev-parse", "--git-path", name]) {
            println!("cargo:rerun-if-changed={path}");
        }
    }
    if let Some(reference) = git(&["symbolic-ref", "-q", "HEAD"]) {
        if let Some(path) = git(&["rev-parse", "--git-path", &reference]) {
            println!("cargo:rerun-if-changed={path}");
        }
    }
}
