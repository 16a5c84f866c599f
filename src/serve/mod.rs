//! `maxconnect4 serve`: the program as a web-arena bot (seed 004) and a web
//! page to play it in the browser.
//!
//! `POST /` takes the arena's JSON requests ([`crate::protocol::arena`]);
//! `GET /` is the page (`page.html`, compiled into the binary). The server is
//! axum on tokio: requests are independent and served concurrently, each
//! search on a blocking thread so that slow searches never hold up the
//! page, a preflight or a bad request. The limits (body size, searches at
//! once, CORS) are tower layers declared together in [`router`]; every client
//! error is answered with a one-line JSON `{"error": ...}`.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::State;
use axum::handler::Handler as _;
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use tower::limit::ConcurrencyLimitLayer;
use tower_http::cors::{Any, CorsLayer};
use tower_http::limit::RequestBodyLimitLayer;

use crate::protocol::arena::{self, Play, PlayTurn, Request};
use crate::protocol::Mover;
use crate::search::Limits;

/// The page, with its CSS and JavaScript inline: no build step, no CDN.
const PAGE: &str = include_str!("page.html");

/// The largest request body accepted. A play-turn with every cell filled and
/// every field the arena sends is about 400 bytes.
pub const BODY_LIMIT: usize = 16 * 1024;

/// The longest any one search may run, whatever the request or the server's
/// options ask: a search slot is never held longer.
pub const SEARCH_TIME_CAP: Duration = Duration::from_secs(10);

/// Table size of each search: searches at the default limits fill a few MB.
const HASH_BYTES: usize = 16 << 20;

/// How the server searches and how many searches it runs at once.
#[derive(Clone, Debug)]
pub struct Options {
    /// The depth and time of a search when the request names neither.
    pub limits: Limits,
    /// Searches running at the same time; further requests wait their turn.
    pub searches: usize,
    /// The name answered to `init`.
    pub name: String,
}

/// The server's routes and limits.
pub fn router(options: Options) -> Router {
    let searches = options.searches.max(1);
    let cors = CorsLayer::new()
        .allow_origin(Any)
        .allow_methods([Method::GET, Method::POST, Method::OPTIONS])
        .allow_headers(Any);
    Router::new()
        .route("/", get(page).post(play.layer(ConcurrencyLimitLayer::new(searches))))
        .fallback(|| async {
            error(StatusCode::NOT_FOUND, "no such page: the bot answers POST / and serves its page at GET /")
        })
        .layer(RequestBodyLimitLayer::new(BODY_LIMIT))
        .layer(axum::middleware::map_response(json_errors))
        .layer(cors)
        .with_state(Arc::new(options))
}

/// Serves on `listener` until the process is stopped.
///
/// # Errors
/// When the listener fails.
pub async fn serve(listener: tokio::net::TcpListener, options: Options) -> std::io::Result<()> {
    axum::serve(listener, router(options)).await
}

/// Binds `addr`, says where on `out`, and serves until Ctrl-C.
///
/// # Errors
/// When the address cannot be bound.
pub fn run(addr: SocketAddr, options: Options, out: &mut dyn std::io::Write) -> anyhow::Result<()> {
    use anyhow::Context as _;
    let runtime =
        tokio::runtime::Builder::new_multi_thread().enable_all().build().context("cannot start the server")?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(addr).await.with_context(|| format!("cannot listen on {addr}"))?;
        let local = listener.local_addr()?;
        writeln!(out, "Serving on http://{local}/ (the page at GET /, the arena's bot at POST /)")?;
        out.flush()?;
        tokio::select! {
            result = serve(listener, options) => result.context("the server failed"),
            _ = tokio::signal::ctrl_c() => Ok(()),
        }
    })
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
async fn play(State(options): State<Arc<Options>>, body: Result<Bytes, BytesRejection>) -> Response {
    let body = match body {
        Ok(body) => body,
        Err(rejection) => return error(rejection.status(), &rejection.body_text()),
    };
    let Ok(text) = std::str::from_utf8(&body) else {
        return error(StatusCode::BAD_REQUEST, "not JSON: the body is not UTF-8");
    };
    let turn = match text.parse::<Request>() {
        Ok(Request::Init { .. }) => return Json(arena::Response::Name { name: options.name.clone() }).into_response(),
        Ok(Request::PlayTurn(turn)) => turn,
        Err(parse) => return error(StatusCode::BAD_REQUEST, &parse.to_string()),
    };
    let limits = match limits(&turn, &options.limits) {
        Ok(limits) => limits,
        Err(message) => return error(StatusCode::UNPROCESSABLE_ENTITY, &message),
    };
    let board = match turn.position() {
        Ok(board) => board,
        Err(invalid) => return error(StatusCode::UNPROCESSABLE_ENTITY, &invalid.to_string()),
    };
    let rules = turn.rules();
    let search = tokio::task::spawn_blocking(move || {
        Mover::new(rules, HASH_BYTES).ok().and_then(|mut mover| mover.choose(&board, &limits))
    });
    match search.await {
        Ok(Some(result)) => Json(arena::Response::Play { play: Play(result.column) }).into_response(),
        // `position` has ruled out finished games: no move means no memory for the
        // table or a failed search, the server's fault.
        Ok(None) | Err(_) => error(StatusCode::INTERNAL_SERVER_ERROR, "the search failed"),
    }
}

/// The search limits for `turn`: what it asks, else the server's, the time
/// always capped at [`SEARCH_TIME_CAP`].
fn limits(turn: &PlayTurn, default: &Limits) -> Result<Limits, String> {
    let depth = match turn.depth {
        None => default.depth,
        Some(depth @ 1..=42) => depth,
        Some(depth) => return Err(format!("depth {depth} is out of range: expected 1 to 42")),
    };
    let time = match turn.time_limit {
        None if turn.depth.is_some() => SEARCH_TIME_CAP,
        None => default.time_limit.unwrap_or(SEARCH_TIME_CAP),
        Some(seconds) if seconds > 0.0 && seconds <= SEARCH_TIME_CAP.as_secs_f64() => Duration::from_secs_f64(seconds),
        Some(seconds) => {
            return Err(format!(
                "time-limit {seconds} is out of range: expected more than 0 and at most {} seconds",
                SEARCH_TIME_CAP.as_secs()
            ))
        }
    };
    Ok(Limits { depth, time_limit: Some(time.min(SEARCH_TIME_CAP)) })
}
