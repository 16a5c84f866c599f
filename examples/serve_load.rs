//! How many moves per second `serve` answers, and how long a request waits,
//! under 16 concurrent clients asking for depth-8 classic moves.
//!
//! Starts the server in this process on a free port with the defaults of
//! `maxconnect4 serve --depth 8` (one search per core at once), then runs 16
//! client threads, each posting play-turn requests from random positions
//! (4 to 20 random moves in, unfinished) over a fresh connection per
//! request for SECONDS, and prints the moves per second and the latency
//! percentiles. Every request must be answered with a move.
//!
//! Run: `cargo run --release --example serve_load [SECONDS] [CLIENTS] [DEPTH]`
//! (default 20 seconds, 16 clients, depth 8).

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use maxconnect4::board::{Board, Column};
use maxconnect4::protocol::arena::{PlayTurn, Request};
use maxconnect4::rules::Rules;
use maxconnect4::search::Limits;
use maxconnect4::serve;

fn main() {
    let args: Vec<u64> = std::env::args().skip(1).map(|arg| arg.parse().expect("whole numbers")).collect();
    let seconds = args.first().copied().unwrap_or(20);
    let clients = args.get(1).copied().unwrap_or(16) as usize;
    let depth = args.get(2).copied().unwrap_or(8) as u32;
    let searches = std::thread::available_parallelism().map_or(1, usize::from);
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    let listener = runtime.block_on(tokio::net::TcpListener::bind("127.0.0.1:0")).unwrap();
    let addr = listener.local_addr().unwrap();
    let options = serve::Options {
        limits: Limits { depth, time_limit: Some(serve::SEARCH_TIME_CAP) },
        searches,
        // One search a core, as `serve` runs them by default.
        threads: 1,
        // Every client waits its turn: this measures throughput, not refusals.
        queue: 4096,
        caps: serve::Caps::default(),
        name: "load".into(),
        body_timeout: serve::HEADER_TIMEOUT,
        use_book: true,
    };
    runtime.spawn(serve::serve(listener, options, serve::Connections::default()));

    let end = Instant::now() + Duration::from_secs(seconds);
    let started = Instant::now();
    let mut latencies: Vec<Duration> = std::thread::scope(|scope| {
        let threads: Vec<_> = (0..clients)
            .map(|client| {
                scope.spawn(move || {
                    let mut seed = 0x9E37_79B9_7F4A_7C15u64.wrapping_mul(client as u64 + 1) | 1;
                    let mut random = move |n: usize| {
                        seed ^= seed << 13;
                        seed ^= seed >> 7;
                        seed ^= seed << 17;
                        (seed % n as u64) as usize
                    };
                    let mut latencies = Vec::new();
                    while Instant::now() < end {
                        let mut board = Board::empty();
                        for _ in 0..4 + random(17) {
                            let legal: Vec<Column> = board.legal_columns().collect();
                            board.play(legal[random(legal.len())]);
                        }
                        if Rules::Classic.is_over(&board) {
                            continue;
                        }
                        let body = Request::PlayTurn(PlayTurn::new(&board, Rules::Classic)).to_string();
                        let sent = Instant::now();
                        let answer = post(addr, &body);
                        latencies.push(sent.elapsed());
                        assert!(answer.starts_with("HTTP/1.1 200") && answer.contains("{\"play\":"), "{answer}");
                    }
                    latencies
                })
            })
            .collect();
        threads.into_iter().flat_map(|thread| thread.join().unwrap()).collect()
    });
    let elapsed = started.elapsed().as_secs_f64();
    latencies.sort();
    let percentile = |p: f64| latencies[((latencies.len() - 1) as f64 * p).round() as usize].as_secs_f64() * 1e3;
    println!(
        "{} moves at depth {depth} in {elapsed:.1} s from {clients} clients, {searches} searches at once: {:.1} moves/s; latency p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        latencies.len(),
        latencies.len() as f64 / elapsed,
        percentile(0.5),
        percentile(0.99),
        percentile(1.0),
    );
}

/// One POST / over a fresh connection; the whole response.
fn post(addr: std::net::SocketAddr, body: &str) -> String {
    let mut stream = TcpStream::connect(addr).unwrap();
    write!(stream, "POST / HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}", body.len()).unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    response
}
