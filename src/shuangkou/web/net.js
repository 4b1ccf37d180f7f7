// HTTP calls and the WebSocket link, which reconnects by itself with backoff.

export class ApiError extends Error {
  constructor(code, message, status) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

/** JSON over HTTP; a refusal becomes an ApiError with the server's code. */
export async function api(path, { method = "GET", body, token } = {}) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (problem) {
    throw new ApiError("network", String(problem), 0);
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    throw new ApiError(data?.code || `http_${response.status}`, data?.message || response.statusText, response.status);
  }
  return data;
}

const PING_EVERY = 20000;
const SILENCE_LIMIT = 45000;
const MAX_DELAY = 10000;

/**
 * One WebSocket to the server. Messages go to `onMessage`; the link's status
 * ("connecting", "open", "waiting" with the delay in ms, "stopped") goes to `onStatus`.
 * Unless stopped, a closed socket is opened again after 0.5 s, 1 s, 2 s, … (at most 10 s).
 */
export class Link {
  constructor({ url, onMessage, onStatus }) {
    this.url = url;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.socket = null;
    this.attempts = 0;
    this.timer = null;
    this.heartbeat = null;
    this.lastHeard = 0;
    this.stopped = true;
    this.nextDelay = null;
    window.addEventListener("online", () => this.wake());
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") this.wake();
    });
  }

  get open() {
    return this.socket !== null && this.socket.readyState === WebSocket.OPEN;
  }

  start() {
    this.stopped = false;
    if (!this.socket) this.connect();
  }

  /** Close for good (until start()). */
  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = null;
    const socket = this.socket;
    this.socket = null;
    clearInterval(this.heartbeat);
    if (socket) socket.close();
    this.onStatus("stopped");
  }

  /** Close and open again at once (e.g. after leaving a table). */
  restart() {
    this.stopped = false;
    this.nextDelay = 0;
    const socket = this.socket;
    if (socket) {
      this.dropped(socket);
      socket.close();
    } else {
      this.connect();
    }
  }

  /** Reconnect now if we are waiting to. */
  wake() {
    if (this.stopped || this.socket) return;
    clearTimeout(this.timer);
    this.connect();
  }

  send(message) {
    if (!this.open) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  connect() {
    clearTimeout(this.timer);
    this.timer = null;
    this.onStatus("connecting");
    const socket = new WebSocket(this.url());
    this.socket = socket;
    socket.addEventListener("open", () => {
      if (this.socket !== socket) return;
      this.attempts = 0;
      this.lastHeard = Date.now();
      this.onStatus("open");
      clearInterval(this.heartbeat);
      this.heartbeat = setInterval(() => this.beat(), PING_EVERY / 4);
    });
    socket.addEventListener("message", (event) => {
      if (this.socket !== socket) return;
      this.lastHeard = Date.now();
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      this.onMessage(message);
    });
    socket.addEventListener("close", () => this.dropped(socket));
  }

  /** The socket is gone (closed, or silent for too long): schedule the next attempt. */
  dropped(socket) {
    if (this.socket !== socket) return;
    this.socket = null;
    clearInterval(this.heartbeat);
    if (this.stopped) return;
    const delay = this.nextDelay ?? Math.min(MAX_DELAY, 500 * 2 ** this.attempts) * (0.85 + Math.random() * 0.3);
    this.nextDelay = null;
    this.attempts += 1;
    this.onStatus("waiting", delay);
    this.timer = setTimeout(() => this.connect(), delay);
  }

  beat() {
    if (!this.open) return;
    const silent = Date.now() - this.lastHeard;
    if (silent > SILENCE_LIMIT) {
      const socket = this.socket;
      this.dropped(socket);
      socket.close();
    } else if (silent > PING_EVERY) {
      this.send({ type: "ping" });
    }
  }
}
