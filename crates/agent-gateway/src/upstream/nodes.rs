//! The cluster's nodes (`--upstream`, once per node): which node a request goes to, and which
//! nodes are out of service.
//!
//! Requests go round-robin over the nodes in service. A node whose connection failed is taken out
//! of service; a probe (`GET /`, any HTTP answer will do) tries it again after a pause that doubles
//! with each failed probe, from [`FIRST_PAUSE`] up to [`LONGEST_PAUSE`], and puts it back on the
//! first answer. While every node is out, a request still tries each one, in turn: the cluster may
//! be back before a probe says so, and a refused connection costs nothing.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

/// The first pause before a node out of service is probed.
pub(super) const FIRST_PAUSE: Duration = Duration::from_millis(500);
/// The longest pause between two probes of a node.
pub(super) const LONGEST_PAUSE: Duration = Duration::from_secs(30);
/// How long a probe waits for the node's answer.
const PROBE_TIMEOUT: Duration = Duration::from_secs(5);

/// The nodes of one cluster and their state.
#[derive(Debug)]
pub(super) struct Nodes {
    all: Vec<Node>,
    /// The round-robin counter: the next request starts at `next % nodes.len()`.
    next: AtomicUsize,
    /// Whether a node's leaving and coming back are logged.
    log: bool,
}

#[derive(Debug)]
struct Node {
    url: reqwest::Url,
    /// Out of service: taken out after a failure, until a probe or a request gets an answer.
    out: AtomicBool,
    /// A probe task runs for this node.
    probing: AtomicBool,
}

impl Nodes {
    /// The nodes at `urls`, all in service.
    pub(super) fn new(urls: &[reqwest::Url], log: bool) -> Self {
        let nodes = urls
            .iter()
            .map(|url| Node { url: url.clone(), out: AtomicBool::new(false), probing: AtomicBool::new(false) })
            .collect();
        Self { all: nodes, next: AtomicUsize::new(0), log }
    }

    /// Node `i`'s base URL.
    pub(super) fn url(&self, i: usize) -> &reqwest::Url {
        &self.all[i].url
    }

    /// The order in which one request tries the nodes: those in service, from the next one in
    /// turn, then those out of service (the last resort).
    pub(super) fn order(&self) -> Vec<usize> {
        let (mut order, out): (Vec<usize>, Vec<usize>) =
            (0..self.all.len()).partition(|&i| !self.all[i].out.load(Ordering::Relaxed));
        if !order.is_empty() {
            let turn = self.next.fetch_add(1, Ordering::Relaxed) % order.len();
            order.rotate_left(turn);
        }
        order.extend(out);
        order
    }

    /// How many nodes are in service.
    #[cfg(test)]
    fn in_service(&self) -> usize {
        self.all.iter().filter(|node| !node.out.load(Ordering::Relaxed)).count()
    }

    /// Node `i` answered: it is in service.
    pub(super) fn answered(&self, i: usize) {
        if self.all[i].out.swap(false, Ordering::Relaxed) && self.log {
            eprintln!("agent-gateway: node {} is back in service", self.all[i].url);
        }
    }

    /// Node `i` failed (`why`): it is out of service, and probed until it answers.
    pub(super) fn failed(self: &Arc<Self>, i: usize, why: &str, client: &reqwest::Client) {
        let node = &self.all[i];
        if !node.out.swap(true, Ordering::Relaxed) && self.log {
            eprintln!("agent-gateway: node {} is out of service: {why}", node.url);
        }
        if node.probing.swap(true, Ordering::Relaxed) {
            return;
        }
        let nodes = Arc::clone(self);
        let client = client.clone();
        tokio::spawn(async move {
            let node = &nodes.all[i];
            let mut pause = FIRST_PAUSE;
            while node.out.load(Ordering::Relaxed) {
                tokio::time::sleep(pause).await;
                if client.get(node.url.clone()).timeout(PROBE_TIMEOUT).send().await.is_ok() {
                    nodes.answered(i);
                }
                pause = (pause * 2).min(LONGEST_PAUSE);
            }
            node.probing.store(false, Ordering::Relaxed);
            // A failure between the last check and here would have found the flag still set.
            if node.out.load(Ordering::Relaxed) {
                nodes.failed(i, "it failed again", &client);
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nodes(count: u16) -> Arc<Nodes> {
        let urls: Vec<reqwest::Url> =
            (0..count).map(|i| format!("http://127.0.0.1:{}/", 1 + i).parse().unwrap()).collect();
        Arc::new(Nodes::new(&urls, false))
    }

    #[test]
    fn requests_take_turns_and_nodes_out_of_service_come_last() {
        let nodes = nodes(3);
        let firsts: Vec<usize> = (0..6).map(|_| nodes.order()[0]).collect();
        assert_eq!(firsts, [0, 1, 2, 0, 1, 2]);
        assert_eq!(nodes.order(), [0, 1, 2]);
        nodes.all[1].out.store(true, Ordering::Relaxed);
        assert_eq!(nodes.in_service(), 2);
        // Turns go on over the nodes in service; the node out of service is the last resort.
        let orders: Vec<Vec<usize>> = (0..3).map(|_| nodes.order()).collect();
        assert_eq!(orders, [vec![2, 0, 1], vec![0, 2, 1], vec![2, 0, 1]]);
        nodes.all[0].out.store(true, Ordering::Relaxed);
        nodes.all[2].out.store(true, Ordering::Relaxed);
        assert_eq!(nodes.order(), [0, 1, 2], "all out: each is tried in turn");
        for i in 0..3 {
            nodes.answered(i);
        }
        assert_eq!(nodes.in_service(), 3);
    }

    #[tokio::test]
    async fn a_failed_node_is_probed_until_it_answers() {
        // A port that refuses connections now and serves once the listener is bound there.
        let probe = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let address = probe.local_addr().unwrap();
        drop(probe);
        let url: reqwest::Url = format!("http://{address}/").parse().unwrap();
        let nodes = Arc::new(Nodes::new(std::slice::from_ref(&url), false));
        let client = reqwest::Client::new();
        nodes.failed(0, "refused", &client);
        assert_eq!(nodes.in_service(), 0);
        assert!(client.get(url).send().await.is_err(), "nothing listens yet");
        let listener = tokio::net::TcpListener::bind(address).await.unwrap();
        tokio::spawn(async move {
            let app = axum::Router::new().route("/", axum::routing::get(|| async { "{}" }));
            axum::serve(listener, app).await.unwrap();
        });
        let back = tokio::time::timeout(Duration::from_secs(10), async {
            while nodes.in_service() == 0 {
                tokio::task::yield_now().await;
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        });
        assert!(back.await.is_ok(), "the probe put the node back in service");
    }
}
