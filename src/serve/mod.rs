//! `maxconnect4 serve`: the program as a web-arena bot (seed 004) and a web
//! page to play it in the browser.
//!
//! `POST /` takes the arena's JSON requests ([`crate::protocol::arena`]);
//! `GET /solve?pos=MOVES` gives every column's value as the solver sites'
//! API does (see `solve` below, and [`crate::search::analyse`]); `GET /` is
//! the page (`page.html`, compiled into the binary). The server is
//! axum on tokio: requests are independent and served concurrently, each
//! search on a blocking thread so that slow searches never hold up the
//! page, a preflight or a bad request. The limits (body size, CORS) are
//! tower layers declared together in [`router`]; the searches are one
//! budget for the whole server, whoever asks: at most `searches` run at once,
//! at most `queue` requests wait for one, and a request beyond is refused
//! with 503 at once, so a crowd of clients costs the machine a bounded
//! number of threads and tables. Every client error is answered with a
//! one-line JSON `{"error": ...}`.

mod connections;

pub use connections::{Connections, HEADER_TIMEOUT, MAX_CONNECTIONS};

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::FromRequest as _;
use axum::extract::State;
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use tower_http::cors::{Any, CorsLayer};
use tower_http::limit::RequestBodyLimitLayer;

use crate::bitboard::WIDTH;
use crate::moves::Moves;
use crate::protocol::arena::{self, Play, PlayTurn, Request};
use crate::protocol::Mover;
use crate::rules::Rules;
use crate::search::book::Book;
use crate::search::{self, Analysis, Chosen, Engine, Limits, PerfectMove};

/// The page, with its CSS and JavaScript inline: no build step, no CDN.
const PAGE: &str = include_str!("page.html");

/// The largest request body accepted. A play-turn with every cell filled and
/// every field the arena sends is about 400 bytes.
pub const BODY_LIMIT: usize = 16 * 1024;

/// The longest any one search may run, whatever the request or the server's
/// options ask: a search slot is never held longer (`--max-time` may lower
/// it).
pub const SEARCH_TIME_CAP: Duration = Duration::from_secs(10);

/// The most one request may ask for.
#[derive(Clone, Copy, Debug)]
pub struct Caps {
    /// Plies, 1 to 42.
    pub depth: u32,
    /// Seconds, at most [`SEARCH_TIME_CAP`].
    pub time: Duration,
}

impl Default for Caps {
    fn default() -> Caps {
        Caps { depth: 42, time: SEARCH_TIME_CAP }
    }
}

/// Table size of each search: searches at the default limits fill a few MB.
const HASH_BYTES: usize = 16 << 20;

/// How the server searches and how many searches it runs at once.
#[derive(Clone, Debug)]
pub struct Options {
    /// The depth and time of a search when the request names neither.
    pub limits: Limits,
    /// Searches running at the same time, in the whole server.
    pub searches: usize,
    /// Threads each search runs: the cores shared out among the searches,
    /// so that a server of one search at a time solves on every core.
    pub threads: usize,
    /// Requests waiting for a search at the same time; more are refused.
    pub queue: usize,
    /// The most one request may ask for.
    pub caps: Caps,
    /// The name answered to `init`.
    pub name: String,
    /// Whether the shipped opening books answer the positions they hold
    /// (`--no-book`: every position is searched, as by `solve --no-book`).
    pub use_book: bool,
    /// How long a client has to send a request's body once its headers are
    /// in: a slow body holds a connection as slow headers would.
    pub body_timeout: Duration,
}

impl Options {
    /// The book a search under `rules` plays and solves from, if any.
    fn book(&self, rules: Rules) -> Option<Arc<Book>> {
        self.use_book.then(|| Book::shipped_for(rules))
    }
}

/// What every request shares: the options and the one budget of searches.
struct Shared {
    options: Options,
    /// A permit for each search that may run at once, held until the search
    /// ends.
    searches: Arc<tokio::sync::Semaphore>,
    /// Requests holding a permit or waiting for one.
    admitted: std::sync::atomic::AtomicUsize,
}

/// Stops a search when dropped.
struct CancelOnDrop(Arc<std::sync::atomic::AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, std::sync::atomic::Ordering::Relaxed);
    }
}

/// A request's place among those admitted, given back when it is dropped:
/// when its search ends, or when its client hangs up while it waits.
struct Admission<'a>(&'a std::sync::atomic::AtomicUsize);

impl Drop for Admission<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
    }
}

/// The server's routes and limits.
pub fn router(options: Options) -> Router {
    let searches = Arc::new(tokio::sync::Semaphore::new(options.searches.max(1)));
    let cors = CorsLayer::new()
        .allow_origin(Any)
        .allow_methods([Method::GET, Method::POST, Method::OPTIONS])
        .allow_headers(Any);
    Router::new()
        .route("/", get(page).post(play))
        .route("/solve", get(solve))
        .fallback(|| async {
            error(
                StatusCode::NOT_FOUND,
                "no such page: the bot answers POST / and GET /solve?pos=MOVES, and serves its page at GET /",
            )
        })
        .layer(RequestBodyLimitLayer::new(BODY_LIMIT))
        .layer(axum::middleware::map_response(json_errors))
        .layer(cors)
        .with_state(Arc::new(Shared { options, searches, admitted: std::sync::atomic::AtomicUsize::new(0) }))
}

/// Serves on `listener` until the process is stopped, at most
/// `connections.most` connections at once (at the cap, the oldest one still
/// waiting for a request's headers is closed to make room: see
/// [`connections`]), each closed when its client is slower than
/// `connections.header_timeout` to send its headers.
///
/// # Errors
/// Never: an accept that fails (no descriptor left) is retried.
pub async fn serve(
    listener: tokio::net::TcpListener,
    options: Options,
    connections: Connections,
) -> std::io::Result<()> {
    connections::serve(listener, router(options), connections).await
}

/// Binds `addr`, says where on `out`, and serves until Ctrl-C.
///
/// # Errors
/// When the address cannot be bound.
pub fn run(
    addr: SocketAddr,
    options: Options,
    connections: Connections,
    out: &mut dyn std::io::Write,
) -> Result<(), Error> {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().map_err(Error::Start)?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(addr).await.map_err(|source| Error::Listen { addr, source })?;
        let local = listener.local_addr()?;
        let (searches, threads) = (options.searches.max(1), options.threads.max(1));
        writeln!(
            out,
            "Serving on http://{local}/ (the page at GET /, the arena's bot at POST /): {searches} search{} at once, {threads} thread{} each",
            if searches == 1 { "" } else { "es" },
            if threads == 1 { "" } else { "s" },
        )?;
        out.flush()?;
        tokio::select! {
            result = serve(listener, options, connections) => result.map_err(Error::Failed),
            _ = tokio::signal::ctrl_c() => Ok(()),
        }
    })
}

/// Why the server stopped, or never started.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("cannot start the server")]
    Start(#[source] std::io::Error),
    #[error("cannot listen on {addr}")]
    Listen {
        addr: SocketAddr,
        #[source]
        source: std::io::Error,
    },
    #[error("the server failed")]
    Failed(#[source] std::io::Error),
    /// Standard output, where the address is said.
    // The I/O error itself, also as the source, where `main` looks for a
    // broken pipe (a reader that stopped reading).
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

async fn page() -> Html<&'static str> {
    Html(PAGE)
}

/// `{"error": message}` with `status`.
fn error(status: StatusCode, message: &str) -> Response {
    (status, Json(arena::Response::Error { error: message.to_owned() })).into_response()
}

/// Gives the client errors that the layers and axum produce as plain text
/// (a body over the limit, a wrong method) the JSON form of the others.
async fn json_errors(response: Response) -> Response {
    let status = response.status();
    let is_json = response.headers().get(header::CONTENT_TYPE) == Some(&HeaderValue::from_static("application/json"));
    if status.is_client_error() && !is_json {
        let reason = status.canonical_reason().unwrap_or("bad request").to_lowercase();
        return error(status, &reason);
    }
    response
}

/// `POST /`: an arena request.
async fn play(State(shared): State<Arc<Shared>>, request: axum::extract::Request) -> Response {
    let options = &shared.options;
    let body = match tokio::time::timeout(options.body_timeout, Bytes::from_request(request, &())).await {
        Ok(Ok(body)) => body,
        // Over the limit (413), or a body that breaks off (400).
        Ok(Err(rejection)) => return error(rejection.status(), &rejection.body_text()),
        Err(_) => {
            let message = format!(
                "request timeout: the body did not arrive within {} s of the headers",
                options.body_timeout.as_secs_f64()
            );
            return error(StatusCode::REQUEST_TIMEOUT, &message);
        }
    };
    let Ok(text) = std::str::from_utf8(&body) else {
        return error(StatusCode::BAD_REQUEST, "not JSON: the body is not UTF-8");
    };
    let turn = match text.parse::<Request>() {
        Ok(Request::Init { .. }) => return Json(arena::Response::Name { name: options.name.clone() }).into_response(),
        Ok(Request::PlayTurn(turn)) => turn,
        Err(parse) => return error(StatusCode::BAD_REQUEST, &parse.to_string()),
    };
    let limits = match limits(&turn, &options.limits, options.caps) {
        Ok(limits) => limits,
        Err(beyond) => return error(StatusCode::UNPROCESSABLE_ENTITY, &beyond.to_string()),
    };
    let board = match turn.position() {
        Ok(board) => board,
        Err(invalid) => return error(StatusCode::UNPROCESSABLE_ENTITY, &invalid.to_string()),
    };
    let rules = turn.rules();
    let (_admission, permit) = match admit(&shared).await {
        Ok(admitted) => admitted,
        Err(refused) => return refused,
    };
    let Ok(mut mover) = Mover::with_book(rules, HASH_BYTES, shared.options.book(rules)) else {
        return error(StatusCode::INTERNAL_SERVER_ERROR, "no memory for the search's table");
    };
    mover.set_threads(shared.options.threads);
    // Dropped with this request: when its answer is sent, or when its
    // client hangs up, which stops the search.
    let _cancel = CancelOnDrop(mover.canceller());
    let search = tokio::task::spawn_blocking(move || {
        let started = std::time::Instant::now();
        let answer = if turn.perfect {
            mover.choose_perfectly(&board, &limits).map(|played| perfect_answer(rules, &played))
        } else {
            mover.choose(&board, &limits).map(|result| arena::Response::play(result.column))
        };
        // The search's place is given back when it ends, not when its
        // client goes; and before the server says it stopped, so that
        // whoever reads that finds the place free.
        drop(permit);
        if mover.canceller().load(std::sync::atomic::Ordering::Relaxed) {
            eprintln!(
                "a search stopped after {:.1} s of its {} s: its client hung up",
                started.elapsed().as_secs_f64(),
                limits.time_limit.unwrap_or_default().as_secs_f64()
            );
        }
        answer
    });
    match search.await {
        Ok(Some(answer)) => Json(answer).into_response(),
        // `position` has ruled out finished games: no move means no memory for the
        // table or a failed search, the server's fault.
        Ok(None) | Err(_) => error(StatusCode::INTERNAL_SERVER_ERROR, "the search failed"),
    }
}

/// The answer to a request to play perfectly: the move, whether it is
/// perfect play and, where it is, the position's exact value, so that a
/// client is told when the move is the depth-limited search's instead.
fn perfect_answer(rules: Rules, played: &PerfectMove) -> arena::Response {
    let perfect = played.chosen != Chosen::Searched;
    let value = perfect.then(|| played.result.value / Analysis::unit(rules));
    arena::Response::Play { play: Play(played.result.column), perfect: Some(perfect), value }
}

/// A place among the requests admitted and, once one is free, a search's
/// permit; a 503 at once when the searches running and the queue are full.
async fn admit(shared: &Shared) -> Result<(Admission<'_>, tokio::sync::OwnedSemaphorePermit), Response> {
    let options = &shared.options;
    let capacity = options.searches.max(1) + options.queue;
    let admitted = shared.admitted.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let admission = Admission(&shared.admitted);
    if admitted >= capacity {
        let message = format!(
            "busy: {} searches are running and {} waiting, the most this server takes; try again shortly",
            options.searches.max(1),
            options.queue
        );
        return Err(error(StatusCode::SERVICE_UNAVAILABLE, &message));
    }
    let Ok(permit) = Arc::clone(&shared.searches).acquire_owned().await else {
        return Err(error(StatusCode::SERVICE_UNAVAILABLE, "the server is stopping"));
    };
    Ok((admission, permit))
}

/// `GET /solve?pos=MOVES[&rules=classic|max]`: the value of every column
/// of the position after `MOVES`, as connect4.gamesolver.org's solver
/// answers it, so that bots written against that site run against this
/// server unchanged: `{"pos":"4453","score":[...]}` with 100 for a column
/// that cannot be played, under classic rules in the field's convention
/// (positive a win, larger sooner; 0 a draw; negative a loss), under
/// Max-Connect4 rules the final score difference. Beside them, for those
/// who want to know, `exact` and `depth` per column (see
/// [`crate::search::analyse`]): a value the time did not let the server
/// solve is depth-limited, and not a whole number. Searched like every
/// other request: a search's place, the server's depth and time per move
/// within its caps.
async fn solve(
    State(shared): State<Arc<Shared>>,
    axum::extract::Query(query): axum::extract::Query<std::collections::HashMap<String, String>>,
) -> Result<Response, Response> {
    let bad = |message: String| error(StatusCode::BAD_REQUEST, &message);
    let pos = query
        .get("pos")
        .ok_or_else(|| bad("give the position as pos=MOVES, the columns 1-7 played from the empty board".to_owned()))?;
    let rules = match query.get("rules") {
        None => Rules::Classic,
        Some(rules) => rules.parse::<Rules>().map_err(|invalid| bad(format!("bad rules: {invalid}")))?,
    };
    let board =
        Moves::board(rules, pos).map_err(|invalid| bad(format!("bad pos '{}': {invalid}", pos.escape_debug())))?;
    // A finished game, and a position of the book, are answered at once,
    // without waiting for a search's place.
    if rules.is_over(&board) {
        return Ok(Json(SolveAnswer::new(pos, &Analysis::none(rules))).into_response());
    }
    let options = &shared.options;
    if let Some(booked) = options.book(rules).and_then(|book| search::from_book(&book, rules, &board)) {
        return Ok(Json(SolveAnswer::new(pos, &booked)).into_response());
    }
    // The server's time for a move, or else the longest a request may have
    // (a server told to search to a depth "however long it takes" still
    // holds a search's place no longer): all of it to solving.
    let time = options.limits.time_limit.unwrap_or(options.caps.time).min(options.caps.time);
    let (_admission, permit) = admit(&shared).await?;
    let mut engine = Engine::with_book(rules, HASH_BYTES, options.book(rules))
        .map_err(|_| error(StatusCode::INTERNAL_SERVER_ERROR, "no memory for the search's table"))?;
    engine.set_threads(options.threads);
    // Stops the analysis when its client hangs up, as for a move.
    let _cancel = CancelOnDrop(engine.canceller());
    let analysis = tokio::task::spawn_blocking(move || {
        let analysis = search::solve_columns(&mut engine, &board, time);
        // The search's place is given back when the analysis ends.
        drop(permit);
        analysis
    })
    .await
    .map_err(|_| error(StatusCode::INTERNAL_SERVER_ERROR, "the search failed"))?;
    Ok(Json(SolveAnswer::new(pos, &analysis)).into_response())
}

/// The answer of `GET /solve`: as the solver sites', `score` holds exact
/// values only. A column the server could not solve in its time has `null`
/// there (a bot that takes the highest score must not weigh a guess against
/// a proof; `null` makes it see, or fail, rather than play a losing move
/// trusting a guess), and its depth-limited value in `estimate`.
#[derive(serde::Serialize)]
struct SolveAnswer<'a> {
    pos: &'a str,
    /// By column: its exact value for the player to move, 100 if it cannot
    /// be played, `null` if it was not solved in time.
    score: [serde_json::Value; WIDTH],
    rules: &'static str,
    /// By column: whether the value is exact; `null` for a column that cannot be played.
    exact: [Option<bool>; WIDTH],
    /// By column: the plies of a depth-limited value, `null` for an exact one.
    depth: [Option<u32>; WIDTH],
    /// By column: the depth-limited value of a column not solved in time;
    /// `null` for the others.
    estimate: [Option<f64>; WIDTH],
}

impl SolveAnswer<'_> {
    /// The column a solver site scores so: it cannot be played.
    const UNPLAYABLE: i32 = 100;

    fn new<'a>(pos: &'a str, analysis: &Analysis) -> SolveAnswer<'a> {
        SolveAnswer {
            pos,
            score: analysis.columns.map(|column| match column {
                None => SolveAnswer::UNPLAYABLE.into(),
                Some(value) if value.is_exact() => serde_json::json!(value),
                Some(_) => serde_json::Value::Null,
            }),
            rules: analysis.rules.name(),
            exact: analysis.exact(),
            depth: analysis.depths(),
            estimate: analysis
                .columns
                .map(|column| column.filter(|value| !value.is_exact()).map(|value| value.score())),
        }
    }
}

/// A request's limit beyond the server's caps (a 422).
#[derive(Debug, PartialEq, thiserror::Error)]
enum BeyondCaps {
    #[error("depth {depth} is out of range: expected 1 to {most}")]
    Depth { depth: u32, most: u32 },
    #[error("time-limit {seconds} is out of range: expected more than 0 and at most {most} seconds")]
    Time { seconds: f64, most: f64 },
}

/// The search limits for `turn`: what it asks, else the server's, within
/// the server's `caps` (a request beyond them is refused, so that a bot
/// author sees why it did not get the depth it asked for).
fn limits(turn: &PlayTurn, default: &Limits, caps: Caps) -> Result<Limits, BeyondCaps> {
    let depth = match turn.depth {
        None => default.depth.min(caps.depth),
        Some(depth) if (1..=caps.depth).contains(&depth) => depth,
        Some(depth) => return Err(BeyondCaps::Depth { depth, most: caps.depth }),
    };
    let time = match turn.time_limit {
        None if turn.depth.is_some() => caps.time,
        None => default.time_limit.unwrap_or(caps.time),
        Some(seconds) if seconds > 0.0 && seconds <= caps.time.as_secs_f64() => Duration::from_secs_f64(seconds),
        Some(seconds) => return Err(BeyondCaps::Time { seconds, most: caps.time.as_secs_f64() }),
    };
    Ok(Limits { depth, time_limit: Some(time.min(caps.time)) })
}
