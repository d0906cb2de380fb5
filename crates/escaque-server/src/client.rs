//! A small client for the server's own protocol, used by the tests and the
//! load generator: one HTTP/1.1 request over a fresh connection, and a
//! WebSocket connection to a game that answers the server's pings.

use std::net::SocketAddr;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// An HTTP answer.
#[derive(Clone, Debug)]
pub struct HttpReply {
    /// Status code.
    pub status: u16,
    /// Headers, names in lower case.
    pub headers: Vec<(String, String)>,
    /// Body.
    pub body: String,
}

impl HttpReply {
    /// The body as JSON (`Null` if it is not JSON).
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or(Value::Null)
    }

    /// The `name=value` part of every `Set-Cookie`.
    pub fn cookies(&self) -> Vec<String> {
        self.headers
            .iter()
            .filter(|(k, _)| k == "set-cookie")
            .filter_map(|(_, v)| v.split(';').next().map(str::to_string))
            .collect()
    }
}

/// An HTTP answer with its body as bytes (a PDF is not text).
#[derive(Clone, Debug)]
pub struct RawReply {
    /// Status code.
    pub status: u16,
    /// Headers, names in lower case.
    pub headers: Vec<(String, String)>,
    /// Body, de-chunked.
    pub body: Vec<u8>,
}

impl RawReply {
    /// The first header named `name` (lower case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Sends one request (`Connection: close`) and reads the whole answer.
/// `extra` adds headers (`("Cookie", "…")`, `("Origin", "…")`).
/// A request body (one of `crate::proto`'s types) as [`http`] sends it.
pub fn body<T: serde::Serialize>(t: &T) -> Value {
    serde_json::to_value(t).unwrap_or(Value::Null)
}

pub async fn http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&Value>,
    extra: &[(&str, &str)],
) -> std::io::Result<HttpReply> {
    let r = http_raw(addr, &addr.to_string(), method, path, body, extra).await?;
    Ok(HttpReply {
        status: r.status,
        headers: r.headers,
        body: String::from_utf8_lossy(&r.body).into_owned(),
    })
}

/// As [`http`], sent with the `Host` header `host`, the body kept as bytes.
pub async fn http_raw(
    addr: SocketAddr,
    host: &str,
    method: &str,
    path: &str,
    body: Option<&Value>,
    extra: &[(&str, &str)],
) -> std::io::Result<RawReply> {
    let mut s = TcpStream::connect(addr).await?;
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let mut req = format!("{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n");
    if !body.is_empty() || method == "POST" {
        req.push_str("Content-Type: application/json\r\n");
        req.push_str(&format!("Content-Length: {}\r\n", body.len()));
    }
    for (k, v) in extra {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    req.push_str("\r\n");
    req.push_str(&body);
    s.write_all(req.as_bytes()).await?;
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).await?;
    let split = raw.windows(4).position(|w| w == b"\r\n\r\n");
    let (head, rest) = match split {
        Some(i) => (&raw[..i], &raw[i + 4..]),
        None => (&raw[..], &[][..]),
    };
    let head = String::from_utf8_lossy(head);
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let chunked = headers
        .iter()
        .any(|(k, v)| k == "transfer-encoding" && v.contains("chunked"));
    let body = if chunked {
        dechunk(rest)
    } else {
        rest.to_vec()
    };
    Ok(RawReply {
        status,
        headers,
        body,
    })
}

fn dechunk(mut s: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(eol) = s.windows(2).position(|w| w == b"\r\n") {
        let size = String::from_utf8_lossy(&s[..eol]);
        let Ok(n) = usize::from_str_radix(size.trim(), 16) else {
            break;
        };
        let rest = &s[eol + 2..];
        if n == 0 || rest.len() < n {
            break;
        }
        out.extend_from_slice(&rest[..n]);
        s = &rest[n..];
        while let Some(r) = s.strip_prefix(b"\r\n") {
            s = r;
        }
    }
    out
}

/// A WebSocket connection to a game.
pub struct GameSocket {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    /// Answer the server's pings (on by default).
    pub answer_pings: bool,
}

/// What went wrong on a game socket.
#[derive(Debug)]
pub enum SocketError {
    /// The connection failed or closed.
    Closed(String),
    /// Nothing arrived in time.
    Timeout,
    /// The server sent a close frame with this code and reason.
    CloseFrame {
        /// The close code (1009: message too big).
        code: u16,
        /// The reason given.
        reason: String,
    },
}

impl GameSocket {
    /// Connects to `path` (for example `/ws/games/ID?seat=SECRET`).
    pub async fn connect(addr: SocketAddr, path: &str) -> Result<GameSocket, SocketError> {
        let url = format!("ws://{addr}{path}");
        let (ws, _) = tokio_tungstenite::connect_async(url)
            .await
            .map_err(|e| SocketError::Closed(e.to_string()))?;
        Ok(GameSocket {
            ws,
            answer_pings: true,
        })
    }

    /// Connects to `path` with a `Cookie` header (an identity's sockets:
    /// the lobby's, a tournament's).
    pub async fn connect_with_cookie(
        addr: SocketAddr,
        path: &str,
        cookie: &str,
    ) -> Result<GameSocket, SocketError> {
        use tokio_tungstenite::tungstenite::client::IntoClientRequest;
        let mut req = format!("ws://{addr}{path}")
            .into_client_request()
            .map_err(|e| SocketError::Closed(e.to_string()))?;
        let value = cookie
            .parse()
            .map_err(|_| SocketError::Closed("cookie is not a header value".into()))?;
        req.headers_mut().insert("Cookie", value);
        let (ws, _) = tokio_tungstenite::connect_async(req)
            .await
            .map_err(|e| SocketError::Closed(e.to_string()))?;
        Ok(GameSocket {
            ws,
            answer_pings: true,
        })
    }

    /// Sends a JSON message.
    pub async fn send(&mut self, v: &Value) -> Result<(), SocketError> {
        self.send_text(&v.to_string()).await
    }

    /// Sends a client message (`crate::proto::ClientMsg`).
    pub async fn send_msg(&mut self, m: &crate::proto::ClientMsg) -> Result<(), SocketError> {
        self.send_text(&serde_json::to_string(m).unwrap_or_default())
            .await
    }

    /// Sends raw text.
    pub async fn send_text(&mut self, t: &str) -> Result<(), SocketError> {
        self.ws
            .send(Message::Text(t.into()))
            .await
            .map_err(|e| SocketError::Closed(e.to_string()))
    }

    /// Sends a raw frame.
    pub async fn send_raw(&mut self, m: Message) -> Result<(), SocketError> {
        self.ws
            .send(m)
            .await
            .map_err(|e| SocketError::Closed(e.to_string()))
    }

    /// The next JSON message, waiting at most `wait`. Pings are answered
    /// and skipped, or returned when `answer_pings` is off.
    pub async fn recv(&mut self, wait: Duration) -> Result<Value, SocketError> {
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            let next = tokio::time::timeout_at(deadline, self.ws.next())
                .await
                .map_err(|_| SocketError::Timeout)?;
            match next {
                None => return Err(SocketError::Closed("closed".into())),
                Some(Err(e)) => return Err(SocketError::Closed(e.to_string())),
                Some(Ok(Message::Text(t))) => {
                    let v: Value = serde_json::from_str(t.as_str())
                        .map_err(|e| SocketError::Closed(format!("not JSON: {e}")))?;
                    if v["t"] == "ping" && self.answer_pings {
                        let n = v["n"].as_u64().unwrap_or(0);
                        let pong = crate::proto::ClientMsg::Pong { n, id: None };
                        self.send_text(&serde_json::to_string(&pong).unwrap_or_default())
                            .await?;
                        continue;
                    }
                    return Ok(v);
                }
                Some(Ok(Message::Close(Some(f)))) => {
                    return Err(SocketError::CloseFrame {
                        code: f.code.into(),
                        reason: f.reason.to_string(),
                    })
                }
                Some(Ok(Message::Close(None))) => {
                    return Err(SocketError::Closed("close frame".into()))
                }
                Some(Ok(_)) => continue,
            }
        }
    }

    /// Reads messages until one satisfies `pred` (returned), waiting at most
    /// `wait` in all.
    pub async fn until(
        &mut self,
        wait: Duration,
        mut pred: impl FnMut(&Value) -> bool,
    ) -> Result<Value, SocketError> {
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            let left = deadline.saturating_duration_since(tokio::time::Instant::now());
            let v = self.recv(left).await?;
            if pred(&v) {
                return Ok(v);
            }
        }
    }

    /// Closes the connection.
    pub async fn close(mut self) {
        let _ = self.ws.close(None).await;
    }
}
