//! Facts about where a report was measured: the CPU, the compiler, the code.
//! Timings mean little without them. A fact that cannot be found is
//! "unknown"; it never stops a report.
//!
//! Nothing is run to find them: the report is run from a student's folder,
//! where `git` would run what the checkout's configuration names
//! (`core.fsmonitor`) and `rustc` the toolchain its `rust-toolchain.toml`
//! names. What was built and by which compiler is recorded at build time
//! (`build.rs`); the rest is read from the system.

/// What the report says about the machine and the build.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Machine {
    /// The CPU model, from `/proc/cpuinfo`.
    pub cpu: String,
    /// Logical cores available to this program.
    pub cores: String,
    /// Operating system and architecture.
    pub platform: String,
    /// `rustc --version` of the compiler this program was built with.
    pub rustc: String,
    /// The short git revision this program was built from, marked when
    /// tracked files had uncommitted changes.
    pub revision: String,
    /// How this program was compiled, in words.
    pub profile: &'static str,
    /// Whether it was compiled with optimizations: an unoptimized build's
    /// own searches are many times slower, and their timings not to be
    /// trusted (see [`super::trust::build`]).
    pub optimized: bool,
}

const UNKNOWN: &str = "unknown";

impl Machine {
    /// Looks up every fact, each "unknown" where it cannot be found.
    #[must_use]
    pub fn probe() -> Machine {
        let cpu = std::fs::read_to_string("/proc/cpuinfo").ok().and_then(|text| cpu_model(&text));
        let cores = std::thread::available_parallelism().map(|cores| cores.to_string()).ok();
        Machine {
            cpu: cpu.unwrap_or_else(|| UNKNOWN.to_owned()),
            cores: cores.unwrap_or_else(|| UNKNOWN.to_owned()),
            platform: format!("{} {}", std::env::consts::OS, std::env::consts::ARCH),
            rustc: built(option_env!("MAXCONNECT4_RUSTC")),
            revision: built(option_env!("MAXCONNECT4_REVISION")),
            profile: if cfg!(debug_assertions) { "debug (unoptimized)" } else { "release" },
            optimized: !cfg!(debug_assertions),
        }
    }
}

/// A fact `build.rs` recorded, or "unknown" where it could not tell.
fn built(recorded: Option<&str>) -> String {
    recorded.filter(|fact| !fact.is_empty()).unwrap_or(UNKNOWN).to_owned()
}

/// The first `model name` in the text of `/proc/cpuinfo`.
fn cpu_model(cpuinfo: &str) -> Option<String> {
    cpuinfo.lines().find_map(|line| {
        let (key, value) = line.split_once(':')?;
        (key.trim() == "model name" && !value.trim().is_empty()).then(|| value.trim().to_owned())
    })
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
    fn the_compiler_is_the_one_that_built_this_program() {
        let rustc = Machine::probe().rustc;
        assert!(rustc.starts_with("rustc "), "recorded by build.rs: {rustc}");
        assert_eq!(built(Some("")), "unknown");
        assert_eq!(built(None), "unknown");
    }
}
