#!/usr/bin/env python3
"""CPU time of `escaque torneo comprobar` (and of `bbpPairings --dutch -c`)
on a fixed, seeded set of generated tournaments (issue 58).

Usage:
  torneo_comprobar_bench.py ESCAQUE WORK_DIR [--bbp BBP_EXE] [--count 200]
                            [--first 20001] [--jobs N] [--repeat K]

WORK_DIR/set holds the set: COUNT files made by `escaque torneo generar`
with the seeds FIRST .. FIRST+COUNT-1 and the size/rate draws of
torneo_comprobar_bbp.py (players 8-300, rounds 5-13, draws, forfeits,
retirements, byes, late entries, every fourth file with Baku), made once
and kept (the same seeds give the same bytes).
Then `ESCAQUE torneo comprobar --json FILES...` (all the files in one
invocation; `-j N` added when --jobs is given) is timed: wall clock and the
CPU time (user + system) of the process, divided by the number of files;
K times (--repeat), the fastest kept. With --bbp, `BBP --dutch FILE -c` is
run on each file and its CPU time added up the same way.
The verdicts (the JSON lines, sorted) are written to WORK_DIR/verdicts-LABEL.txt
where LABEL is the escaque binary's file name, so that two builds' verdicts
can be compared with diff.
"""
import argparse
import os
import random
import resource
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torneo_comprobar_bbp as base  # noqa: E402


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def make_set(escaque, work, first, count):
    d = os.path.join(work, 'set')
    os.makedirs(d, exist_ok=True)
    rng = random.Random(first)
    files = []
    for seed in range(first, first + count):
        cfg = os.path.join(d, 'e%d.cfg' % seed)
        base.escaque_config(cfg, rng, baku=seed % 4 == 0)
        out = os.path.join(d, 'e%d.trf' % seed)
        if not os.path.exists(out):
            subprocess.run([escaque, 'torneo', 'generar', '--config', cfg, '--semilla',
                            str(seed), '-o', out], check=True, capture_output=True)
        files.append(out)
    return files


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('escaque')
    ap.add_argument('work')
    ap.add_argument('--bbp')
    ap.add_argument('--count', type=int, default=200)
    ap.add_argument('--first', type=int, default=20001)
    ap.add_argument('--jobs', type=int)
    ap.add_argument('--repeat', type=int, default=1)
    a = ap.parse_args()
    files = make_set(a.escaque, a.work, a.first, a.count)
    sizes = []
    for f in files:
        with open(f) as fh:
            lines = fh.read().splitlines()
        players = [l for l in lines if l.startswith('001')]
        sizes.append((len(players), max((len(base.cells(l)) for l in players), default=0)))
    print('set: %d files, %d-%d players (mean %.0f), %d-%d rounds' % (
        len(files), min(s[0] for s in sizes), max(s[0] for s in sizes),
        sum(s[0] for s in sizes) / len(sizes), min(s[1] for s in sizes),
        max(s[1] for s in sizes)))
    cmd = [a.escaque, 'torneo', 'comprobar', '--json'] + files
    if a.jobs:
        cmd += ['-j', str(a.jobs)]
    best = None
    for _ in range(a.repeat):
        c0, t0 = children_cpu(), time.perf_counter()
        p = subprocess.run(cmd, capture_output=True, text=True)
        wall, cpu = time.perf_counter() - t0, children_cpu() - c0
        if best is None or cpu < best[1]:
            best = (wall, cpu, p)
    wall, cpu, p = best
    out = os.path.join(a.work, 'verdicts-%s.txt' % os.path.basename(a.escaque))
    with open(out, 'w') as fh:
        fh.write('\n'.join(sorted(p.stdout.splitlines())) + '\n')
    print('escaque comprobar%s: exit %d, wall %.1f s, CPU %.1f s, %.3f s of CPU a file (%s)' % (
        ' -j %d' % a.jobs if a.jobs else '', p.returncode, wall, cpu, cpu / len(files), out))
    if a.bbp:
        c0, t0 = children_cpu(), time.perf_counter()
        wrong = 0
        for f in files:
            v, _ = base.bbp_verdict(a.bbp, f)
            wrong += v != 'ok'
        wall, cpu = time.perf_counter() - t0, children_cpu() - c0
        print('bbpPairings --dutch -c: wall %.1f s, CPU %.1f s, %.3f s of CPU a file, '
              'something wrong in %d' % (wall, cpu, cpu / len(files), wrong))


if __name__ == '__main__':
    main()
