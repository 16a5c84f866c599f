//! `serve`: the web arena's bot and a page to play in the browser.

use std::process::ExitCode;
use std::time::Duration;

use clap::Args;

use maxconnect4::modes;
use maxconnect4::serve;

use super::{Out, Subcommand};
use crate::cli::{parse_seconds, SearchOptions};

/// The server's time per move when neither `--depth` nor `--time-limit` is given.
const SERVE_TIME_LIMIT: Duration = Duration::from_secs(1);

/// Serve the web arena's bot (POST /) and a page to play in the browser (GET /).
#[derive(Args)]
pub(crate) struct ServeArgs {
    /// The address and port to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: std::net::SocketAddr,
    #[command(flatten)]
    search: SearchOptions,
    /// Searches running at once, whoever asks [default: the number of cores]; each searches with
    /// as many threads as the cores divided among them (one by default, all with --searches 1).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    searches: Option<u16>,
    /// Requests waiting for a search at once; beyond, 503 Service Unavailable.
    #[arg(long, value_name = "N", default_value_t = 16, value_parser = clap::value_parser!(u16).range(0..=4096))]
    queue: u16,
    /// The deepest search one request may ask for (its "depth").
    #[arg(long, value_name = "PLIES", default_value_t = 42, value_parser = clap::value_parser!(u32).range(1..=42))]
    max_depth: u32,
    /// The longest search one request may ask for (its "time-limit"), in seconds.
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = parse_seconds)]
    max_time: Duration,
    /// Connections served at once; at the cap, the oldest one still waiting for a request's
    /// headers is closed to make room for a new client.
    #[arg(long, value_name = "N", default_value_t = serve::MAX_CONNECTIONS as u32, value_parser = clap::value_parser!(u32).range(1..=65536))]
    max_connections: u32,
    /// Seconds a client has to send a request's headers before its connection is closed, and then its body before it is answered 408.
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = parse_seconds)]
    header_timeout: Duration,
    /// The name answered to the arena's init.
    #[arg(long, default_value = "maxconnect4")]
    name: String,
    /// Use no opening book: every position is searched, as by solve --no-book.
    #[arg(long)]
    no_book: bool,
}

impl ServeArgs {
    fn options(&self) -> serve::Options {
        let caps = serve::Caps { depth: self.max_depth, time: self.max_time.min(serve::SEARCH_TIME_CAP) };
        let searches = self.searches.map_or_else(modes::default_threads, usize::from);
        serve::Options {
            limits: self.search.limits(SERVE_TIME_LIMIT),
            searches,
            // The cores shared out among the searches that may run at once.
            threads: (modes::default_threads() / searches).max(1),
            queue: usize::from(self.queue),
            caps,
            name: self.name.clone(),
            body_timeout: self.header_timeout,
            use_book: !self.no_book,
        }
    }
}

impl Subcommand for ServeArgs {
    fn run(self, out: &mut Out) -> anyhow::Result<ExitCode> {
        let connections =
            serve::Connections { most: self.max_connections as usize, header_timeout: self.header_timeout };
        serve::run(self.addr, self.options(), connections, out)?;
        Ok(ExitCode::SUCCESS)
    }
}
