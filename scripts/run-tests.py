#!/usr/bin/env python3
"""Builds every test binary of the workspace and runs them, several at once.

`cargo test --workspace --tests` runs its test binaries one after the other,
each alone, and only after the last one is built. Most of escaque's long
tests wait (on a browser, on sockets, on a server's lease), so the two cores
are half idle while they run, and the binaries built first wait for the
slowest crate to compile. This script asks cargo for the same build
(`cargo test --workspace --tests --no-run`, its JSON messages) and, once
the build is done, runs up to JOBS test binaries at a time, the slowest
first (SLOW below; the rest in the order cargo built them); the doctests
(`cargo test --workspace --doc`) run as one more job. (Binaries are not
started during the build: an integration test may be linked before the
executable it runs.)
Each binary runs as `cargo test` would run it: in its package's directory,
with CARGO_MANIFEST_DIR set, its own test threads (libtest's default: one
per core). Its output is printed in one piece when it ends, then a summary
(each binary's time, passed and failed counts).

Exit status: 0 when the build and every binary pass; 1 otherwise (every
binary runs even when one fails, as with `--no-fail-fast`).

    scripts/run-tests.py [--jobs N] [-- CARGO_ARGS...]

JOBS: `--jobs`, else the environment's ESCAQUE_TEST_JOBS, else 2.
"""

import json
import os
import queue
import re
import subprocess
import sys
import tempfile
import threading
import time

# The binaries that take longest (BENCHMARKS.md, "The test suite again"),
# slowest first: started before the others.
SLOW = [
    ("escaque-server", "integration"),
    ("escaque-cli", "integration"),
    ("escaque", "integration"),
    ("escaque-engine", "integration"),
    ("escaque-torneo", "integration"),
    ("escaque-analysis", "integration"),
]

RESULT = re.compile(
    r"^test result: \w+\. (\d+) passed; (\d+) failed; (\d+) ignored", re.M
)


def package_name(package_id):
    """The name in a package id: `path+file:///…/escaque-server#0.1.0`
    (the folder's name is the package's) or `…/dir#name@0.1.0`."""
    path, _, rest = package_id.partition("#")
    if "@" in rest:
        return rest.split("@", 1)[0]
    return path.rstrip("/").rsplit("/", 1)[-1]


def rank(job):
    key = (job["package"], job["target"])
    return SLOW.index(key) if key in SLOW else len(SLOW)


class Runner:
    def __init__(self, jobs):
        self.jobs = jobs
        self.lock = threading.Lock()
        self.ready = threading.Condition(self.lock)
        self.waiting = []
        self.building = True
        self.results = []
        self.out = tempfile.mkdtemp(prefix="escaque-tests-")

    def add(self, job):
        with self.lock:
            self.waiting.append(job)
            self.waiting.sort(key=rank)
            self.ready.notify()

    def built(self):
        with self.lock:
            self.building = False
            self.ready.notify_all()

    def next_job(self):
        with self.lock:
            while not self.waiting and self.building:
                self.ready.wait()
            if not self.waiting:
                return None
            return self.waiting.pop(0)

    def worker(self):
        while True:
            job = self.next_job()
            if job is None:
                return
            self.run(job)

    def run(self, job):
        name = f"{job['package']} {job['kind']} {job['target']}"
        log = os.path.join(self.out, f"{len(self.results)}-{os.getpid()}-{id(job)}.log")
        env = dict(os.environ)
        env["CARGO_MANIFEST_DIR"] = job["dir"]
        env["CARGO_PKG_NAME"] = job["package"]
        t0 = time.monotonic()
        with open(log, "wb") as f:
            child = subprocess.Popen(
                [job["exe"]] + job["args"],
                cwd=job["dir"],
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=f,
                stderr=subprocess.STDOUT,
            )
            # wait4: this binary's own CPU time (and its children's: the
            # browsers, `escaque` processes), not the other jobs'.
            _, status, usage = os.wait4(child.pid, 0)
            child.returncode = os.waitstatus_to_exitcode(status)
            code = child.returncode
        secs = time.monotonic() - t0
        cpu = usage.ru_utime + usage.ru_stime
        with open(log, "rb") as f:
            text = f.read().decode("utf-8", "replace")
        os.unlink(log)
        counts = [0, 0, 0]
        for m in RESULT.finditer(text):
            for i in range(3):
                counts[i] += int(m.group(i + 1))
        with self.lock:
            self.results.append((name, code, secs, counts, cpu))
            sys.stdout.write(
                f"\n==== {name} ({job['exe']}): "
                f"{'ok' if code == 0 else f'FAILED (exit {code})'} in {secs:.1f} s "
                f"(CPU {cpu:.1f} s)\n"
            )
            sys.stdout.write(text)
            sys.stdout.flush()


def main():
    args = sys.argv[1:]
    jobs = int(os.environ.get("ESCAQUE_TEST_JOBS", "2"))
    cargo_args = []
    test_args = []
    if "--jobs" in args:
        i = args.index("--jobs")
        jobs = int(args[i + 1])
        del args[i : i + 2]
    if "--" in args:
        i = args.index("--")
        cargo_args, test_args = args[:i], args[i + 1 :]
    else:
        cargo_args = args
    runner = Runner(max(1, jobs))
    workers = [threading.Thread(target=runner.worker) for _ in range(runner.jobs)]
    t0 = time.monotonic()
    cargo = subprocess.Popen(
        ["cargo", "test", "--workspace", "--tests", "--no-run"]
        + ["--message-format=json-render-diagnostics"]
        + cargo_args,
        stdout=subprocess.PIPE,
        text=True,
    )
    for line in cargo.stdout:
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        if msg.get("reason") != "compiler-artifact" or not msg.get("executable"):
            continue
        if not msg.get("profile", {}).get("test"):
            continue
        target = msg["target"]
        runner.add(
            {
                "package": package_name(msg["package_id"]),
                "target": target["name"],
                "kind": "/".join(target["kind"]),
                "exe": msg["executable"],
                "dir": os.path.dirname(msg["manifest_path"]),
                "args": test_args,
            }
        )
    build_status = cargo.wait()
    build_secs = time.monotonic() - t0
    # The doctests: cargo builds and runs them itself (rustdoc), beside the
    # binaries still running.
    runner.add(
        {
            "package": "workspace",
            "target": "doctests",
            "kind": "doc",
            "exe": "cargo",
            "args": ["test", "--workspace", "--no-fail-fast", "--doc"]
            + cargo_args
            + (["--"] + test_args if test_args else []),
            "dir": os.getcwd(),
        }
    )
    runner.built()
    # The binaries start once the whole build is done: an integration test
    # can be linked before the package's own executable that it runs
    # (escaque-cli's tests run `escaque`, CARGO_BIN_EXE_escaque), and a
    # fresh clone's run failed so (124 tests: "No such file"). Starting
    # them during the build had not shortened the suite anyway (BENCHMARKS.md).
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    total = time.monotonic() - t0
    failed = [r for r in runner.results if r[1] != 0]
    print(f"\n==== summary ({runner.jobs} binaries at a time)")
    print(f"build: {'ok' if build_status == 0 else 'FAILED'}, done after {build_secs:.1f} s")
    print("    wall       CPU")
    for name, code, secs, (p, f, i), cpu in sorted(runner.results, key=lambda r: -r[2]):
        mark = "ok" if code == 0 else "FAILED"
        print(
            f"{secs:8.1f} s {cpu:7.1f} s  {mark:6}  "
            f"{p:4} passed {f:3} failed {i:2} ignored  {name}"
        )
    cpu = sum(r[4] for r in runner.results)
    passed = sum(r[3][0] for r in runner.results)
    nfailed = sum(r[3][1] for r in runner.results)
    print(
        f"{len(runner.results)} jobs, {passed} tests passed, {nfailed} failed; "
        f"{total:.1f} s from the start of the build; the tests' CPU {cpu:.1f} s"
    )
    if build_status != 0 or failed or not runner.results:
        sys.exit(1)


if __name__ == "__main__":
    main()
