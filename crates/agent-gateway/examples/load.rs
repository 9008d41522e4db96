//! A bounded load generator for a running gateway: N concurrent clients for S seconds, each
//! sending `_execute` requests back to back; prints throughput, latency percentiles and errors.
//!
//! ```sh
//! cargo run --release -p agent-gateway --example load -- --url http://127.0.0.1:8080 --clients 50 --seconds 10
//! ```
//!
//! It only talks to the URL it is given (use a loopback address) and stops by itself.

use std::io::Write as _;
use std::time::{Duration, Instant};

use clap::Parser;

#[derive(Debug, Parser)]
struct Args {
    /// The gateway.
    #[arg(long, default_value = "http://127.0.0.1:8080")]
    url: String,
    /// Agent to execute.
    #[arg(long, default_value = "echo")]
    agent: String,
    /// Concurrent clients.
    #[arg(long, default_value_t = 50)]
    clients: usize,
    /// How long to run.
    #[arg(long, default_value_t = 10)]
    seconds: u64,
    /// Every Nth request of a client continues its conversation (0: never).
    #[arg(long, default_value_t = 0)]
    continue_every: usize,
}

#[derive(Debug, Default)]
struct Tally {
    latencies: Vec<Duration>,
    errors: usize,
}

const BODY: &str = r#"{"input": [{"type": "text", "text": "What is in this picture?"},
  {"type": "image", "source": {"type": "base64", "format": "png",
   "data": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="}}]}"#;

async fn client(http: reqwest::Client, url: String, deadline: Instant, continue_every: usize) -> Tally {
    let mut tally = Tally::default();
    let mut memory: Option<String> = None;
    let mut n = 0_usize;
    while Instant::now() < deadline {
        n += 1;
        let body = match (&memory, continue_every) {
            (Some(id), every) if every > 0 && !n.is_multiple_of(every) => {
                format!(r#"{{"input": "And then?", "parameters": {{"memory_id": "{id}"}}}}"#)
            }
            _ => BODY.to_string(),
        };
        let started = Instant::now();
        let result = http.post(&url).header("content-type", "application/json").body(body).send().await;
        match result {
            Ok(response) if response.status().is_success() => match response.json::<serde_json::Value>().await {
                Ok(answer) => {
                    tally.latencies.push(started.elapsed());
                    memory = answer["inference_results"][0]["output"][0]["result"].as_str().map(str::to_string);
                }
                Err(_) => tally.errors += 1,
            },
            _ => tally.errors += 1,
        }
    }
    tally
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss, clippy::cast_precision_loss)]
    let index = ((sorted.len() as f64 * p).ceil() as usize).clamp(1, sorted.len()) - 1;
    sorted[index]
}

#[tokio::main]
async fn main() {
    let args = Args::parse();
    let url = format!("{}/_plugins/_ml/agents/{}/_execute", args.url.trim_end_matches('/'), args.agent);
    let http = reqwest::Client::builder()
        .timeout(Duration::from_secs(30))
        .pool_max_idle_per_host(args.clients)
        .build()
        .expect("HTTP client");
    let started = Instant::now();
    let deadline = started + Duration::from_secs(args.seconds);
    let tasks: Vec<_> = (0..args.clients)
        .map(|_| tokio::spawn(client(http.clone(), url.clone(), deadline, args.continue_every)))
        .collect();
    let mut latencies = Vec::new();
    let mut errors = 0;
    for task in tasks {
        let tally = task.await.expect("client task");
        latencies.extend(tally.latencies);
        errors += tally.errors;
    }
    let elapsed = started.elapsed();
    latencies.sort();
    let ok = latencies.len();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    #[allow(clippy::cast_precision_loss)]
    let throughput = ok as f64 / elapsed.as_secs_f64();
    let mut out = std::io::stdout().lock();
    let _ = writeln!(
        out,
        "clients {} for {:.1} s: {ok} ok, {errors} errors, {throughput:.0} req/s; latency p50 {:.2} ms, p90 {:.2} ms, \
         p99 {:.2} ms, max {:.2} ms",
        args.clients,
        elapsed.as_secs_f64(),
        ms(percentile(&latencies, 0.50)),
        ms(percentile(&latencies, 0.90)),
        ms(percentile(&latencies, 0.99)),
        ms(latencies.last().copied().unwrap_or_default()),
    );
}
