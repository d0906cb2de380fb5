#!/usr/bin/env python3
"""Benchmark (issue 57): the teacher's grid of a 30 pupils x 20 items homework
on SQLite, p50/p95 of GET /api/classes/{id}/tareas/{hw}/grid.

Starts `escaque servir --docentes-libres` on a fresh data folder (the binary
given as the first argument, default target/release/escaque: build it with
`cargo build --release -p escaque-cli`), makes a teacher, a class of 30
pupils and a 20-item homework (20 puzzles drawn from the shipped set), has
every pupil hand in an attempt at every other item (an unfinished one,
stored as failed), then times N grid requests (default 200,
second argument) one after another and prints the percentiles. Goal: p95 at
most 100 ms.
"""
import http.cookiejar
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.request

BIN = sys.argv[1] if len(sys.argv) > 1 else "target/release/escaque"
N = int(sys.argv[2]) if len(sys.argv) > 2 else 200


class Client:
    def __init__(self, base):
        self.base = base
        self.op = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def req(self, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        r = urllib.request.Request(self.base + path, data=data, method=method,
                                   headers={"Content-Type": "application/json"})
        with self.op.open(r) as resp:
            raw = resp.read()
        try:
            return json.loads(raw)
        except ValueError:
            return raw


def main():
    data = tempfile.mkdtemp(prefix="bench-tareas-")
    srv = subprocess.Popen([BIN, "servir", "--puerto", "0", "--datos", data,
                            "--docentes-libres"], stdout=subprocess.PIPE, text=True)
    line = srv.stdout.readline()
    base = "http://" + line.split("http://")[1].split()[0]
    try:
        t = Client(base)
        t.req("POST", "/api/signup", {"name": "DocenteBench", "password": "contraseña-larga"})
        cls = t.req("POST", "/api/classes", {"name": "Bench"})["id"]
        pupils = t.req("POST", f"/api/classes/{cls}/pupils",
                       {"real_names": [f"Alumno {i + 1}" for i in range(30)]})["pupils"]
        hw = t.req("POST", f"/api/classes/{cls}/tareas",
                   {"title": "Bench", "due_ms": int(time.time() * 1000) + 86400000,
                    "retry": True, "items": [{"kind": "puzzles", "count": 20}]})["id"]
        for k, p in enumerate(pupils):
            c = Client(base)
            c.req("POST", "/api/login", {"name": p["name"], "password": p["password"]})
            view = c.req("GET", f"/api/classes/{cls}/tareas/{hw}")
            for it in view["items"][k % 2::2]:
                # An attempt left before the first move: stored, judged
                # unfinished (failed), so every other cell has an attempt.
                moves = []
                c.req("POST", f"/api/classes/{cls}/tareas/{hw}/items/{it['idx']}/intentos",
                      {"moves": moves, "time_ms": 1000, "hints": 0})
        times = []
        for _ in range(N):
            s = time.perf_counter()
            g = t.req("GET", f"/api/classes/{cls}/tareas/{hw}/grid")
            times.append((time.perf_counter() - s) * 1000)
        assert len(g["pupils"]) == 30 and len(g["items"]) == 20
        times.sort()
        p = lambda q: times[min(len(times) - 1, int(q * len(times)))]
        print(f"grid 30x20, {N} requests: p50 {p(0.5):.1f} ms, p95 {p(0.95):.1f} ms, max {times[-1]:.1f} ms")
    finally:
        srv.kill()
        srv.wait()


if __name__ == "__main__":
    main()
