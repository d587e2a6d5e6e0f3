#!/usr/bin/env python3
"""The fleet soak's config server (127.0.0.1 only): every config request after `/next` has been
asked for answers a new config (a new ETag) naming two media files drawn from a pool, with their
sha256; a request carrying the current ETag gets a 304. Media are served from the pool folder.
It stops by itself when the parent goes away (stdin closes).

Usage: fleet-soak-server.py POOL_DIR PORT_FILE
  Writes the port it listens on to PORT_FILE. GET /next moves to the next config and answers its
  generation number; GET /generation answers the current one.
"""
import hashlib
import http.server
import os
import random
import sys
import threading

pool_dir, port_file = sys.argv[1], sys.argv[2]
pool = sorted(name for name in os.listdir(pool_dir) if name.endswith(".mp4"))
digests = {name: hashlib.sha256(open(os.path.join(pool_dir, name), "rb").read()).hexdigest() for name in pool}
state = {"generation": 0, "body": b""}
lock = threading.Lock()
rng = random.Random(7)


def make_config(generation):
    names = rng.sample(pool, 2)
    lines = ["# generation %d" % generation, "playlist:", "  repeat: all", "  items:"]
    for name in names:
        lines += ["    - url: media/%s" % name, "      sha256: %s" % digests[name]]
    return ("\n".join(lines) + "\n").encode()


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def answer(self, code, body=b"", headers=()):
        self.send_response(code)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if body and self.command == "GET":
            self.wfile.write(body)

    def do_GET(self):
        if self.path == "/next":
            with lock:
                state["generation"] += 1
                state["body"] = make_config(state["generation"])
                generation = state["generation"]
            return self.answer(200, str(generation).encode())
        if self.path == "/generation":
            with lock:
                return self.answer(200, str(state["generation"]).encode())
        if self.path == "/lobby.yaml":
            with lock:
                etag, body = '"g%d"' % state["generation"], state["body"]
            if self.headers.get("If-None-Match") == etag:
                return self.answer(304, headers=[("ETag", etag)])
            return self.answer(200, body, [("ETag", etag), ("Content-Type", "application/yaml")])
        name = self.path.rsplit("/", 1)[-1]
        if self.path.startswith("/media/") and name in digests:
            return self.answer(200, open(os.path.join(pool_dir, name), "rb").read(), [("Content-Type", "video/mp4")])
        return self.answer(404)


state["body"] = make_config(0)
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
with open(port_file, "w") as handle:
    handle.write(str(server.server_address[1]))
threading.Thread(target=server.serve_forever, daemon=True).start()
sys.stdin.read()  # the parent's pipe closing ends the server
