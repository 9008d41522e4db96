//! A bounded slowloris client for measuring a running gateway: opens N connections that send a
//! request's headers one byte at a time and never finish them, for S seconds, reopening none;
//! prints how many the server still holds each second.
//!
//! ```sh
//! cargo run -p agent-gateway --example slowloris -- --address 127.0.0.1:8080 --connections 400 --seconds 20
//! ```
//!
//! It only talks to the address it is given (use a loopback address) and stops by itself.

use std::io::{Read as _, Write as _};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use clap::Parser;

#[derive(Debug, Parser)]
struct Args {
    /// The gateway's `host:port`.
    #[arg(long, default_value = "127.0.0.1:8080")]
    address: String,
    /// Connections to open (at most 2000).
    #[arg(long, default_value_t = 400)]
    connections: usize,
    /// How long to run (at most 120).
    #[arg(long, default_value_t = 20)]
    seconds: u64,
}

fn main() {
    let args = Args::parse();
    let started = Instant::now();
    let deadline = started + Duration::from_secs(args.seconds.min(120));
    let mut out = std::io::stdout().lock();
    let mut open: Vec<TcpStream> = Vec::new();
    let mut refused = 0;
    for _ in 0..args.connections.min(2000) {
        match TcpStream::connect(&args.address) {
            Ok(mut stream) => {
                let _ = stream.write_all(b"POST /_plugins/_ml/agents/echo/_execute HTTP/1.1\r\nhost: ");
                let _ = stream.set_nonblocking(true);
                open.push(stream);
            }
            Err(_) => refused += 1,
        }
    }
    let _ =
        writeln!(out, "opened {} connections ({refused} refused) in {} ms", open.len(), started.elapsed().as_millis());
    let mut next_report = Instant::now();
    while Instant::now() < deadline && !open.is_empty() {
        open.retain_mut(|stream| {
            let mut buf = [0_u8; 256];
            match stream.read(&mut buf) {
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => stream.write_all(b"x").is_ok(),
                _ => false, // closed, answered, or reset
            }
        });
        if Instant::now() >= next_report {
            let _ = writeln!(out, "t={:>5.1} s held {}", started.elapsed().as_secs_f64(), open.len());
            let _ = out.flush();
            next_report += Duration::from_secs(1);
        }
        std::thread::sleep(Duration::from_millis(250));
    }
    let _ = writeln!(out, "t={:>5.1} s held {} at the end", started.elapsed().as_secs_f64(), open.len());
}
