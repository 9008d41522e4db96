//! The gateway beside `LiteLLM`'s proxy on the same loopback Bedrock Converse stub, in one run
//! (`bench/gateway/run` builds it, installs `LiteLLM` and starts this).
//!
//! It starts the stub (it reads each request body whole and answers a fixed Converse answer),
//! the gateway (`--gateway-bin`, a fresh database, an agent on `bedrock/converse` with `SigV4`
//! keys and the stub as its endpoint) and `LiteLLM`'s proxy (`--litellm-bin`, the same model on
//! the stub, `SigV4` keys). Each round sends the same content three ways, in turn: straight to the
//! stub (the `Converse` body), through the gateway (`_execute`), through `LiteLLM` (`OpenAI` chat
//! completions). Added latency = through a proxy minus straight, per round; medians and p90s are
//! printed. Then the database after the image rounds (every one a new conversation with the same
//! image), and the gateway's RSS over a soak of image and text turns.
//!
//! Everything binds 127.0.0.1; every child process is killed at the end.

#![allow(clippy::print_stdout)] // a measuring program: its report is its output
#![allow(clippy::cast_precision_loss)] // milliseconds and MiB for a report

use std::io::{BufRead as _, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use clap::Parser;
use serde_json::{Value, json};

#[derive(Debug, Parser)]
struct Args {
    /// The gateway binary (a release build).
    #[arg(long)]
    gateway_bin: PathBuf,
    /// `LiteLLM`'s `litellm` command, in its own virtual environment.
    #[arg(long)]
    litellm_bin: PathBuf,
    /// Rounds with the image (each a new conversation carrying the same image).
    #[arg(long, default_value_t = 100)]
    image_rounds: usize,
    /// Rounds with a small text.
    #[arg(long, default_value_t = 300)]
    text_rounds: usize,
    /// Bytes of the image (before base64).
    #[arg(long, default_value_t = 3_670_016)]
    image_bytes: usize,
    /// Seconds of the soak (image and text turns through the gateway, 4 clients).
    #[arg(long, default_value_t = 60)]
    soak_secs: u64,
    /// Scratch directory (the database, `LiteLLM`'s configuration).
    #[arg(long)]
    dir: PathBuf,
}

const MODEL: &str = "anthropic.claude-3-haiku-20240307-v1:0";
const ANSWER: &str = r#"{"output":{"message":{"role":"assistant","content":[{"text":"A picture."}]}},"stopReason":"end_turn","usage":{"inputTokens":1200,"outputTokens":4,"totalTokens":1204},"metrics":{"latencyMs":1}}"#;

/// Children killed on drop.
struct Children(Vec<Child>);

impl Drop for Children {
    fn drop(&mut self) {
        for child in &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = (u32::from(chunk[0]) << 16)
            | (u32::from(*chunk.get(1).unwrap_or(&0)) << 8)
            | u32::from(*chunk.get(2).unwrap_or(&0));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// A PNG signature and header followed by noise: what a photo costs, uncompressible.
fn image(bytes: usize) -> String {
    let mut data = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
    let mut state = 0x2545_f491_u32;
    while data.len() < bytes {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        data.extend_from_slice(&state.to_le_bytes());
    }
    data.truncate(bytes);
    base64(&data)
}

async fn stub() -> String {
    use axum::routing::post;
    let app = axum::Router::new()
        .route(
            "/model/{model}/converse",
            post(|body: axum::body::Bytes| async move {
                let _ = body.len();
                ([("content-type", "application/json")], ANSWER)
            }),
        )
        .layer(axum::extract::DefaultBodyLimit::disable());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    url
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

fn start_gateway(bin: &Path, db: &Path) -> (Child, String) {
    let mut child = Command::new(bin)
        .args(["--listen", "127.0.0.1:0", "--quiet", "--db"])
        .arg(db)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start the gateway");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let url = line.split_whitespace().find(|w| w.starts_with("http://")).unwrap().trim_end_matches('/').to_string();
    (child, url)
}

async fn start_litellm(bin: &Path, dir: &Path, stub: &str, http: &reqwest::Client) -> (Child, String) {
    let config = dir.join("litellm.yaml");
    std::fs::write(
        &config,
        format!(
            "model_list:\n  - model_name: bench\n    litellm_params:\n      model: bedrock/converse/{MODEL}\n      \
             aws_access_key_id: AKIDEXAMPLE\n      aws_secret_access_key: bench-secret\n      \
             aws_region_name: us-east-1\n      aws_bedrock_runtime_endpoint: {stub}\n\
             litellm_settings:\n  telemetry: false\n  drop_params: true\n"
        ),
    )
    .unwrap();
    let port = free_port();
    let child = Command::new(bin)
        .args(["--config"])
        .arg(&config)
        .args(["--host", "127.0.0.1", "--port", &port.to_string(), "--num_workers", "1"])
        .env("LITELLM_LOCAL_MODEL_COST_MAP", "True")
        .env("LITELLM_LOG", "ERROR")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start litellm");
    let url = format!("http://127.0.0.1:{port}");
    let deadline = Instant::now() + Duration::from_secs(180);
    loop {
        if let Ok(response) = http.get(format!("{url}/health/liveliness")).send().await
            && response.status().is_success()
        {
            break;
        }
        assert!(Instant::now() < deadline, "LiteLLM did not come up within 180 s");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    (child, url)
}

struct Target {
    url: String,
    body: String,
}

async fn time(http: &reqwest::Client, target: &Target) -> (Duration, usize) {
    let started = Instant::now();
    let response = http
        .post(&target.url)
        .header("content-type", "application/json")
        .body(target.body.clone())
        .send()
        .await
        .unwrap();
    let status = response.status();
    let body = response.bytes().await.unwrap();
    let took = started.elapsed();
    assert!(status.is_success(), "{}: {status} {}", target.url, String::from_utf8_lossy(&body));
    (took, body.len())
}

fn ms(d: f64) -> String {
    format!("{d:.2} ms")
}

/// The value at fraction `p` of `sorted` (nearest rank).
fn percentile(sorted: &[f64], p: f64) -> f64 {
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let at = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[at.min(sorted.len() - 1)]
}

/// Runs `rounds` rounds of direct, gateway, `LiteLLM` (the order rotating); prints the added
/// latencies.
async fn compare(http: &reqwest::Client, name: &str, rounds: usize, targets: &[Target; 3]) {
    let mut times = [Vec::new(), Vec::new(), Vec::new()];
    let mut sizes = [0; 3];
    for warm in targets {
        time(http, warm).await;
    }
    for round in 0..rounds {
        for k in 0..3 {
            let i = (round + k) % 3;
            let (took, size) = time(http, &targets[i]).await;
            times[i].push(took.as_secs_f64() * 1000.0);
            sizes[i] = size;
        }
    }
    let added = |i: usize| -> Vec<f64> {
        let mut added: Vec<f64> = times[i].iter().zip(&times[0]).map(|(t, d)| t - d).collect();
        added.sort_by(f64::total_cmp);
        added
    };
    let mut direct = times[0].clone();
    direct.sort_by(f64::total_cmp);
    let (gateway, litellm) = (added(1), added(2));
    println!("{name}: {rounds} rounds; straight to the stub median {}", ms(percentile(&direct, 0.5)));
    for (who, added, size) in [("gateway", &gateway, sizes[1]), ("LiteLLM", &litellm, sizes[2])] {
        println!(
            "  {who:8} added median {}  p90 {}  answer {size} B",
            ms(percentile(added, 0.5)),
            ms(percentile(added, 0.9))
        );
    }
    println!("  gateway / LiteLLM (medians): {:.3}", percentile(&gateway, 0.5) / percentile(&litellm, 0.5));
}

fn rss_kib(pid: u32, field: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find(|line| line.starts_with(field))
        .and_then(|line| line.split_whitespace().nth(1))
        .and_then(|kb| kb.parse().ok())
        .unwrap_or(0)
}

fn file_len(path: &Path) -> u64 {
    std::fs::metadata(path).map_or(0, |m| m.len())
}

#[tokio::main]
async fn main() {
    let args = Args::parse();
    std::fs::create_dir_all(&args.dir).unwrap();
    let http = reqwest::Client::builder().timeout(Duration::from_secs(120)).build().unwrap();
    let stub = stub().await;
    let db = args.dir.join("bench.db");
    let _ = std::fs::remove_file(&db);
    let (gateway, gateway_url) = start_gateway(&args.gateway_bin, &db);
    let gateway_pid = gateway.id();
    let mut children = Children(vec![gateway]);
    let (litellm, litellm_url) = start_litellm(&args.litellm_bin, &args.dir, &stub, &http).await;
    children.0.push(litellm);

    let agent = json!({"name": "bench", "type": "conversational", "model": {"model_id": MODEL,
        "model_provider": "bedrock/converse",
        "credential": {"access_key": "AKIDEXAMPLE", "secret_key": "bench-secret"},
        "model_parameters": {"region": "us-east-1", "endpoint": stub}}});
    let registered: Value = http
        .post(format!("{gateway_url}/_plugins/_ml/agents/_register"))
        .header("content-type", "application/json")
        .body(agent.to_string())
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let agent_id = registered["agent_id"].as_str().expect("registered").to_string();
    let execute = format!("{gateway_url}/_plugins/_ml/agents/{agent_id}/_execute");
    let chat = format!("{litellm_url}/v1/chat/completions");
    let direct = format!("{stub}/model/{MODEL}/converse");

    let targets = |text: &str, image: Option<&str>| -> [Target; 3] {
        let (converse, standard, openai) = match image {
            Some(data) => (
                json!([{"text": text}, {"image": {"format": "png", "source": {"bytes": data}}}]),
                json!([{"type": "text", "text": text},
                    {"type": "image", "source": {"type": "base64", "format": "png", "data": data}}]),
                json!([{"type": "text", "text": text},
                    {"type": "image_url", "image_url": {"url": format!("data:image/png;base64,{data}")}}]),
            ),
            None => (json!([{"text": text}]), json!(text), json!(text)),
        };
        [
            Target {
                url: direct.clone(),
                body:
                    json!({"messages": [{"role": "user", "content": converse}], "inferenceConfig": {"maxTokens": 512}})
                        .to_string(),
            },
            Target { url: execute.clone(), body: json!({"input": standard}).to_string() },
            Target {
                url: chat.clone(),
                body: json!({"model": "bench", "max_tokens": 512, "messages": [{"role": "user", "content": openai}]})
                    .to_string(),
            },
        ]
    };

    let image = image(args.image_bytes);
    println!(
        "image: {} bytes, {} bytes of base64; gateway pid {gateway_pid}, RSS {} KiB",
        args.image_bytes,
        image.len(),
        rss_kib(gateway_pid, "VmRSS")
    );
    compare(&http, "small text", args.text_rounds, &targets("What is OpenSearch?", None)).await;
    let before = (file_len(&db), file_len(&db.with_extension("db-wal")));
    compare(&http, "one image", args.image_rounds, &targets("What is in this picture?", Some(&image))).await;
    let wal = db.with_extension("db-wal");
    println!(
        "database after {} image requests (+1 warm-up), every one a new conversation with the same image: \
         file {} B, WAL {} B (before them: file {} B, WAL {} B)",
        args.image_rounds,
        file_len(&db),
        file_len(&wal),
        before.0,
        before.1
    );
    println!("gateway RSS {} KiB, peak {} KiB", rss_kib(gateway_pid, "VmRSS"), rss_kib(gateway_pid, "VmHWM"));

    if args.soak_secs > 0 {
        soak(&http, &execute, &image, args.soak_secs, gateway_pid, &db).await;
    }
    drop(children);
}

/// Four clients for `secs` seconds: new conversations with the image, continued with text.
async fn soak(http: &reqwest::Client, execute: &str, image: &str, secs: u64, pid: u32, db: &Path) {
    let deadline = Instant::now() + Duration::from_secs(secs);
    let clients: Vec<_> = (0..4)
        .map(|_| {
            let (http, execute, image) = (http.clone(), execute.to_string(), image.to_string());
            tokio::spawn(async move {
                let (mut turns, mut errors) = (0_usize, 0_usize);
                let mut memory: Option<String> = None;
                while Instant::now() < deadline {
                    let body = match &memory {
                        Some(id) if turns % 5 != 0 => {
                            json!({"input": "And then?", "parameters": {"memory_id": id}})
                        }
                        _ => json!({"input": [{"type": "text", "text": "What is in this picture?"},
                            {"type": "image", "source": {"type": "base64", "format": "png", "data": image}}]}),
                    };
                    turns += 1;
                    match http
                        .post(&execute)
                        .header("content-type", "application/json")
                        .body(body.to_string())
                        .send()
                        .await
                    {
                        Ok(response) if response.status().is_success() => {
                            let answer: Value = response.json().await.unwrap_or(Value::Null);
                            memory = answer["inference_results"][0]["output"][0]["result"].as_str().map(str::to_string);
                        }
                        _ => errors += 1,
                    }
                }
                (turns, errors)
            })
        })
        .collect();
    let mut samples = Vec::new();
    let started = Instant::now();
    while Instant::now() < deadline {
        samples.push((started.elapsed().as_secs(), rss_kib(pid, "VmRSS"), file_len(db)));
        tokio::time::sleep(Duration::from_secs(10).min(deadline.saturating_duration_since(Instant::now()))).await;
    }
    let (mut turns, mut errors) = (0, 0);
    for client in clients {
        let (t, e) = client.await.unwrap();
        turns += t;
        errors += e;
    }
    println!("soak: {secs} s, 4 clients, {turns} turns (every 5th a new conversation with the image), {errors} errors");
    for (t, rss, size) in samples {
        println!("  t={t:>4} s  RSS {:.1} MiB  database {:.1} MiB", rss as f64 / 1024.0, size as f64 / 1_048_576.0);
    }
    println!(
        "  end: RSS {:.1} MiB, peak {:.1} MiB",
        rss_kib(pid, "VmRSS") as f64 / 1024.0,
        rss_kib(pid, "VmHWM") as f64 / 1024.0
    );
}
