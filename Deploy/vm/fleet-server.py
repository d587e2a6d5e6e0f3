#!/usr/bin/env python3
"""A tiny HTTP/1.1 file server for fleet-test.sh, run in the guest on 127.0.0.1 (stdlib only).

usage: fleet-server.py ROOT PORT LOG [--slow PATH BYTES_PER_S]...

Serves the files under ROOT with ETag and Last-Modified, honours `Range: bytes=N-` (206 with
Content-Range; 416 past the end) unless an If-Range names another version, and sends bodies in
16 KB chunks, those of each --slow PATH paced to its rate (a slow link: a download that can be
cut midway, or one that loses a race). Each
request is one JSON line in LOG, written when it begins and flushed at once (a power cut loses
nothing already logged): path, range, if-range, status, the first byte sent, and `t`, the
monotonic clock's time (clock-step-test.sh times polls by it across wall-clock steps). Touches
LOG + '.ready' once it listens.
"""
import http.server, json, os, sys, time

root, port, log_path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
slow = {sys.argv[i + 1]: int(sys.argv[i + 2]) for i, a in enumerate(sys.argv) if a == '--slow'}
log = open(log_path, 'a', buffering=1)


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = 'HTTP/1.1'

    def log_message(self, *args):
        pass

    def record(self, **fields):
        log.write(json.dumps(dict(path=self.path, range=self.headers.get('Range'),
                                  ifRange=self.headers.get('If-Range'), t=time.monotonic(), **fields)) + '\n')
        log.flush()
        os.fsync(log.fileno())

    def do_GET(self):
        path = os.path.join(root, self.path.lstrip('/').split('?')[0])
        if not os.path.isfile(path):
            self.record(status=404)
            self.send_response(404)
            self.send_header('Content-Length', '0')
            self.end_headers()
            return
        st = os.stat(path)
        etag = '"%x-%x"' % (st.st_size, int(st.st_mtime))
        start, status = 0, 200
        wanted = self.headers.get('Range', '')
        if_range = self.headers.get('If-Range')
        if wanted.startswith('bytes=') and wanted.endswith('-') and if_range in (None, etag,
                                                                               self.date_time_string(int(st.st_mtime))):
            start, status = int(wanted[6:-1]), 206
            if start >= st.st_size:
                self.record(status=416, start=start)
                self.send_response(416)
                self.send_header('Content-Range', 'bytes */%d' % st.st_size)
                self.send_header('Content-Length', '0')
                self.end_headers()
                return
        self.record(status=status, start=start)
        self.send_response(status)
        self.send_header('Content-Type', 'video/mp4' if path.endswith('.mp4') else 'application/yaml')
        self.send_header('Content-Length', str(st.st_size - start))
        self.send_header('ETag', etag)
        self.send_header('Last-Modified', self.date_time_string(int(st.st_mtime)))
        self.send_header('Accept-Ranges', 'bytes')
        if status == 206:
            self.send_header('Content-Range', 'bytes %d-%d/%d' % (start, st.st_size - 1, st.st_size))
        self.end_headers()
        rate = slow.get(self.path)
        with open(path, 'rb') as f:
            f.seek(start)
            t0, sent = time.monotonic(), 0
            while True:
                chunk = f.read(16384)
                if not chunk:
                    break
                try:
                    self.wfile.write(chunk)
                except OSError:
                    return
                sent += len(chunk)
                if rate:
                    ahead = sent / rate - (time.monotonic() - t0)
                    if ahead > 0:
                        time.sleep(ahead)


server = http.server.ThreadingHTTPServer(('127.0.0.1', port), Handler)
server.daemon_threads = True
open(log_path + '.ready', 'w').close()
server.serve_forever()
