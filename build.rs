//! Records what the program is built from, so that a timing report run
//! anywhere can say which code it measured and which compiler built it
//! without running anything where it is run (a student's folder may be a
//! checkout whose configuration, or a `rust-toolchain.toml`, runs programs
//! of its own): the git revision (`MAXCONNECT4_REVISION`, empty outside a
//! git checkout) and the compiler's version (`MAXCONNECT4_RUSTC`, empty if
//! it cannot be told).

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    output("git", args)
}

/// The trimmed standard output of a command that succeeded.
fn output(program: &str, args: &[&str]) -> Option<String> {
    let output = Command::new(program).args(args).output().ok()?;
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
    // Cargo names the compiler building this crate; a new compiler builds
    // everything again, this script included.
    let rustc = std::env::var("RUSTC").ok().and_then(|rustc| output(&rustc, &["--version"]));
    println!("cargo:rustc-env=MAXCONNECT4_RUSTC={}", rustc.unwrap_or_default());
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
