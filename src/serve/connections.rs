//! The server's connections: at most so many at once, and room made for a
//! new client by closing the oldest connection still waiting for a
//! request's headers.
//!
//! A slowloris attacker opens connections and never finishes a request's
//! headers. Waiting for a free slot would let such a crowd shut every
//! other client out until the header timeout frees its slots, and a client
//! that reconnects at once would keep them. So the server always accepts,
//! and at the cap closes the oldest connection that is not answering a
//! request: the attacker's (a client that has sent its headers is being
//! answered), or a browser's idle keep-alive connection, which it opens
//! again when it needs one. Only when every connection is answering a
//! request is the new one closed at once.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use axum::Router;
use tokio::sync::Notify;

/// How long a client has to send a request's headers, from the moment the
/// connection waits for one (an idle keep-alive connection included): a
/// browser or a bot sends them at once, a slowloris attacker never.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// Connections served at once; at the cap, the oldest one still waiting
/// for a request's headers is closed to make room for a new client (see
/// [`connections`]). Each costs a descriptor and a task, a few KB; the
/// limit keeps the descriptors of a default `ulimit -n` (1024) from running
/// out under a flood of idle connections.
pub const MAX_CONNECTIONS: usize = 512;

/// How connections are served.
#[derive(Clone, Copy, Debug)]
pub struct Connections {
    /// At most this many at once.
    pub most: usize,
    /// See [`HEADER_TIMEOUT`].
    pub header_timeout: Duration,
}

impl Default for Connections {
    fn default() -> Connections {
        Connections { most: MAX_CONNECTIONS, header_timeout: HEADER_TIMEOUT }
    }
}

/// One connection being served: how many of its requests are being
/// answered (headers read, response not yet given), and the means to close
/// it.
#[derive(Clone, Default)]
struct Open {
    answering: Arc<AtomicUsize>,
    close: Arc<Notify>,
}

/// The open connections, by the order they were accepted: the first is the
/// oldest.
#[derive(Default)]
struct Served {
    next: u64,
    open: BTreeMap<u64, Open>,
}

impl Served {
    /// Registers a new connection, making room for it when `most` are
    /// open; none when every open one is answering a request.
    fn admit(&mut self, most: usize) -> Option<(u64, Open)> {
        if self.open.len() >= most {
            let idle = self.open.iter().find(|(_, open)| open.answering.load(Ordering::SeqCst) == 0);
            let (&id, _) = idle?;
            let evicted = self.open.remove(&id).expect("found above");
            // Stored if the connection's task is not waiting yet.
            evicted.close.notify_one();
        }
        let id = self.next;
        self.next += 1;
        let open = Open::default();
        self.open.insert(id, open.clone());
        Some((id, open))
    }
}

/// Counts a request as being answered while it lives.
struct Answering(Arc<AtomicUsize>);

impl Answering {
    fn new(count: &Arc<AtomicUsize>) -> Answering {
        count.fetch_add(1, Ordering::SeqCst);
        Answering(Arc::clone(count))
    }
}

impl Drop for Answering {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Serves `app` on `listener` until the process is stopped, as
/// `connections` says.
///
/// # Errors
/// Never: an accept that fails (no descriptor left) is retried.
pub async fn serve(listener: tokio::net::TcpListener, app: Router, connections: Connections) -> std::io::Result<()> {
    use hyper::service::Service as _;
    use hyper_util::rt::{TokioIo, TokioTimer};
    let app = hyper_util::service::TowerToHyperService::new(app);
    let served = Arc::new(Mutex::new(Served::default()));
    loop {
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            Err(_) => {
                // Out of descriptors, or a connection reset before it was
                // taken: the server goes on once things settle.
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let admitted = served.lock().unwrap_or_else(PoisonError::into_inner).admit(connections.most.max(1));
        // Every connection is answering a request: this one is closed.
        let Some((id, open)) = admitted else { continue };
        let (app, served) = (app.clone(), Arc::clone(&served));
        tokio::spawn(async move {
            let answering = Arc::clone(&open.answering);
            let service = hyper::service::service_fn(move |request| {
                let counted = Answering::new(&answering);
                let call = app.call(request);
                async move {
                    let response = call.await;
                    drop(counted);
                    response
                }
            });
            let connection = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(connections.header_timeout)
                .serve_connection(TokioIo::new(stream), service);
            tokio::select! {
                _ = connection => {}
                () = open.close.notified() => {}
            }
            served.lock().unwrap_or_else(PoisonError::into_inner).open.remove(&id);
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn at_the_cap_the_oldest_connection_not_answering_makes_room() {
        let mut served = Served::default();
        let opened: Vec<(u64, Open)> = (0..3).map(|_| served.admit(3).unwrap()).collect();
        // The oldest is answering a request; the second is idle.
        let _answering = Answering::new(&opened[0].1.answering);
        let (id, _) = served.admit(3).unwrap();
        assert_eq!(id, 3);
        assert_eq!(served.open.keys().copied().collect::<Vec<_>>(), [0, 2, 3]);
        // Its task is told to close, even before it waits.
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        runtime.block_on(opened[1].1.close.notified());
        // Every connection answering: the newcomer is refused.
        let others: Vec<Answering> = [2, 3].iter().map(|id| Answering::new(&served.open[id].answering)).collect();
        assert!(served.admit(3).is_none());
        drop(others);
        assert!(served.admit(3).is_some());
    }
}
