//! Facts about where a report was measured: the CPU, the compiler, the code.
//! Timings mean little without them. A fact that cannot be found is
//! "unknown"; it never stops a report.

use std::process::Command;

/// What the report says about the machine and the build.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Machine {
    /// The CPU model, from `/proc/cpuinfo`.
    pub cpu: String,
    /// Logical cores available to this program.
    pub cores: String,
    /// Operating system and architecture.
    pub platform: String,
    /// `rustc --version` of the compiler on the `PATH`.
    pub rustc: String,
    /// The short git revision of the working directory's checkout, marked
    /// when tracked files have uncommitted changes.
    pub revision: String,
    /// How this program was compiled.
    pub profile: &'static str,
}

const UNKNOWN: &str = "unknown";

impl Machine {
    /// Looks up every fact, each "unknown" where it cannot be found.
    #[must_use]
    pub fn probe() -> Machine {
        let cpu = std::fs::read_to_string("/proc/cpuinfo").ok().and_then(|text| cpu_model(&text));
        let cores = std::thread::available_parallelism().map(|cores| cores.to_string()).ok();
        let revision = output("git", &["rev-parse", "--short", "HEAD"]).map(|revision| {
            match output("git", &["status", "--porcelain", "--untracked-files=no"]) {
                Some(changes) if !changes.is_empty() => format!("{revision} (with uncommitted changes)"),
                _ => revision,
            }
        });
        Machine {
            cpu: cpu.unwrap_or_else(|| UNKNOWN.to_owned()),
            cores: cores.unwrap_or_else(|| UNKNOWN.to_owned()),
            platform: format!("{} {}", std::env::consts::OS, std::env::consts::ARCH),
            rustc: output("rustc", &["--version"]).unwrap_or_else(|| UNKNOWN.to_owned()),
            revision: revision.unwrap_or_else(|| UNKNOWN.to_owned()),
            profile: if cfg!(debug_assertions) {
                "debug (unoptimized: timings are not representative)"
            } else {
                "release"
            },
        }
    }
}

/// The first `model name` in the text of `/proc/cpuinfo`.
fn cpu_model(cpuinfo: &str) -> Option<String> {
    cpuinfo.lines().find_map(|line| {
        let (key, value) = line.split_once(':')?;
        (key.trim() == "model name" && !value.trim().is_empty()).then(|| value.trim().to_owned())
    })
}

/// The trimmed standard output of a command that succeeded.
fn output(program: &str, args: &[&str]) -> Option<String> {
    let output = Command::new(program).args(args).output().ok()?;
    output.status.success().then(|| String::from_utf8_lossy(&output.stdout).trim().to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cpu_model_is_the_first_model_name() {
        let cpuinfo = "processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: Intel(R) Xeon(R) CPU @ 2.20GHz\n\n\
                       processor\t: 1\nmodel name\t: Other\n";
        assert_eq!(cpu_model(cpuinfo).as_deref(), Some("Intel(R) Xeon(R) CPU @ 2.20GHz"));
        assert_eq!(cpu_model("processor\t: 0\nmodel name\t:\n"), None);
        assert_eq!(cpu_model(""), None);
    }

    #[test]
    fn a_missing_program_is_unknown_not_an_error() {
        assert_eq!(output("maxconnect4-no-such-program", &[]), None);
    }
}
