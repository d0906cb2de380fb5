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

Modes for long runs (the 5,000-file benchmark), each on its own:
  --gen-jobs N      generate the set's missing files N at a time.
  --solo-set        make the set only and print its spread (players, rounds,
                    Baku, byes, forfeits, retirements, late entries), also
                    written to WORK_DIR/spread-COUNT.txt.
  --solo-bbp BBP    `BBP --dutch FILE -c` on each file, one at a time, each
                    file's verdict and CPU time (user + system, from rusage)
                    appended to WORK_DIR/bbp-results.tsv as it finishes;
                    files already there are skipped, so the run can be
                    stopped and resumed. Then WORK_DIR/verdicts-bbp.txt
                    (file name and verdict, sorted) and the CPU sum over the
                    files done.
  --solo-escaque    `ESCAQUE torneo comprobar --json` over the set in chunks
                    of --chunk files (default 100; `-j N` with --jobs), each
                    chunk's JSON lines appended to
                    WORK_DIR/escaque-LABEL.jsonl and its CPU to
                    WORK_DIR/escaque-LABEL-chunks.tsv; chunks already there
                    are skipped (resumable; CPU only indicative on a busy
                    machine). Then the verdicts, as --compare does.
  --compare JSONL   no run: the verdicts in JSONL (one `comprobar --json` line
                    a file) against bbp-results.tsv and, with --against
                    OTHER.jsonl, line by line against another escaque run;
                    every difference is listed. Verdicts over the pairings:
                    "wrong" when a problem is a pairing one (pairing_differs,
                    no_pairing, rematch, ...), "error" when the file was not
                    read, else "ok"; bbpPairings' as torneo_comprobar_bbp.py
                    reads them.
"""
import argparse
import concurrent.futures
import json
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


def make_set(escaque, work, first, count, jobs=1):
    """The set's files, made once: the configs drawn in seed order, then the
    missing files generated `jobs` at a time (each written aside and renamed,
    so a run cut off never leaves half a file taken for a made one)."""
    d = os.path.join(work, 'set')
    os.makedirs(d, exist_ok=True)
    rng = random.Random(first)
    files, todo = [], []
    for seed in range(first, first + count):
        cfg = os.path.join(d, 'e%d.cfg' % seed)
        base.escaque_config(cfg, rng, baku=seed % 4 == 0)
        out = os.path.join(d, 'e%d.trf' % seed)
        if not os.path.exists(out):
            todo.append((seed, cfg, out))
        files.append(out)

    def generate(job):
        seed, cfg, out = job
        subprocess.run([escaque, 'torneo', 'generar', '--config', cfg, '--semilla',
                        str(seed), '-o', out + '.tmp'], check=True, capture_output=True)
        os.replace(out + '.tmp', out)

    if todo:
        print('generating %d files, %d at a time' % (len(todo), jobs), flush=True)
        with concurrent.futures.ThreadPoolExecutor(max(jobs, 1)) as pool:
            list(pool.map(generate, todo))
    return files


def spread(files):
    """The set's spread: sizes, rounds, Baku, byes, forfeits, retirements."""
    n = dict(baku=0, late=0, retired=0, forfeits=0)
    byes = dict(H=[0, 0], F=[0, 0], Z=[0, 0], U=[0, 0])  # files with one, total
    bands = [(8, 50), (51, 100), (101, 200), (201, 300)]
    per_band = [0] * len(bands)
    per_rounds = {}
    players_all = []
    for f in files:
        with open(f) as fh:
            lines = fh.read().splitlines()
        entry = {int(l[4:8]): int(l[9:]) for l in lines if l.startswith('XZE')}
        withdrawn = {int(l[4:8]): int(l[9:]) for l in lines if l.startswith('XZW')}
        ids = [int(l[4:8]) for l in lines if l.startswith('001')]
        rows = [base.cells(l) for l in lines if l.startswith('001')]
        players = len(rows)
        players_all.append(players)
        rounds = max((len(c) for c in rows), default=0)
        per_rounds[rounds] = per_rounds.get(rounds, 0) + 1
        for i, (lo, hi) in enumerate(bands):
            per_band[i] += lo <= players <= hi
        n['baku'] += any('BAKU' in l for l in lines if l.startswith('192')) or \
            any(l.startswith('XXA') for l in lines)
        n['late'] += any(l.startswith('XZE') for l in lines)
        n['retired'] += any(l.startswith('XZW') for l in lines)
        seen = {}
        forfeit = False
        for pid, cs in zip(ids, rows):
            for r, c in enumerate(cs, start=1):
                # Byes of the rounds a player was in the draw for: not before
                # a late entry, not from the round of a withdrawal on.
                if r < entry.get(pid, 1) or r >= withdrawn.get(pid, 10 ** 6):
                    continue
                if c[2:6] == '0000' and c[9] in byes:
                    seen[c[9]] = seen.get(c[9], 0) + 1
                elif c[2:6].strip() and c[9] in '+-':
                    forfeit = True
        n['forfeits'] += forfeit
        for k, v in seen.items():
            byes[k][0] += 1
            byes[k][1] += v
    out = ['set: %d files, %d-%d players (mean %.0f), rounds %s' % (
        len(files), min(players_all), max(players_all), sum(players_all) / len(files),
        ', '.join('%d: %d' % kv for kv in sorted(per_rounds.items())))]
    out.append('players ' + ', '.join('%d-%d: %d' % (lo, hi, c)
                                      for (lo, hi), c in zip(bands, per_band)))
    out.append('Baku: %d files; late entries (XZE): %d; retirements (XZW): %d; '
               'forfeits: %d' % (n['baku'], n['late'], n['retired'], n['forfeits']))
    out.append('byes, in the rounds a player was drawn for (files with one / player-rounds): '
               + ', '.join(
        '%s %d / %d' % (k, v[0], v[1]) for k, v in byes.items()))
    return out


def run_cpu(cmd):
    """cmd's process (and its children): wall, CPU (user + system)."""
    c0, t0 = children_cpu(), time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True)
    return p, time.perf_counter() - t0, children_cpu() - c0


def solo_bbp(bbp, work, files):
    out = os.path.join(work, 'bbp-results.tsv')
    done = read_tsv(out)
    todo = [f for f in files if os.path.basename(f) not in done]
    print('bbpPairings: %d of %d files already done, %d to go' % (
        len(files) - len(todo), len(files), len(todo)), flush=True)
    with open(out, 'a') as fh:
        for f in todo:
            c0 = resource.getrusage(resource.RUSAGE_CHILDREN)
            v, wall = base.bbp_verdict(bbp, f)
            c1 = resource.getrusage(resource.RUSAGE_CHILDREN)
            fh.write('%s\t%s\t%.3f\t%.3f\t%.3f\n' % (
                os.path.basename(f), v, c1.ru_utime - c0.ru_utime,
                c1.ru_stime - c0.ru_stime, wall))
            fh.flush()
    bbp_summary(work, files)


def read_tsv(path):
    """bbp-results.tsv: file -> (verdict, user, sys, wall)."""
    done = {}
    if os.path.exists(path):
        with open(path) as fh:
            for line in fh:
                parts = line.rstrip('\n').split('\t')
                if len(parts) == 5:
                    done[parts[0]] = (parts[1], float(parts[2]), float(parts[3]),
                                      float(parts[4]))
    return done


def bbp_summary(work, files):
    done = read_tsv(os.path.join(work, 'bbp-results.tsv'))
    names = [os.path.basename(f) for f in files if os.path.basename(f) in done]
    with open(os.path.join(work, 'verdicts-bbp.txt'), 'w') as fh:
        for name in sorted(names):
            fh.write('%s %s\n' % (name, done[name][0]))
    if not names:
        print('bbpPairings --dutch -c: no file done yet')
        return
    user = sum(done[x][1] for x in names)
    sys_ = sum(done[x][2] for x in names)
    wall = sum(done[x][3] for x in names)
    verdicts = {}
    for x in names:
        verdicts[done[x][0]] = verdicts.get(done[x][0], 0) + 1
    print('bbpPairings --dutch -c: %d of %d files done; CPU %.1f s (user %.1f + sys %.1f), '
          '%.3f s a file; wall %.1f s; verdicts %s' % (
              len(names), len(files), user + sys_, user, sys_, (user + sys_) / len(names),
              wall, ', '.join('%s %d' % kv for kv in sorted(verdicts.items()))))


def pairing_verdict(r):
    if 'error' in r:
        return 'error'
    kinds = {q['kind'] for q in r['problems']}
    return 'wrong' if kinds & base.PAIRING_KINDS else 'ok'


def read_jsonl(path):
    """file name -> the JSON object (the last line for a file wins)."""
    out = {}
    with open(path) as fh:
        for line in fh:
            if line.strip():
                r = json.loads(line)
                r['file'] = os.path.basename(r['file'])
                out[r['file']] = r
    return out


def compare(work, jsonl, against=None):
    mine = read_jsonl(jsonl)
    verdicts = {}
    other = 0
    for r in mine.values():
        v = pairing_verdict(r)
        verdicts[v] = verdicts.get(v, 0) + 1
        other += v == 'ok' and not r.get('ok', False)
    print('%s: %d files; verdicts over the pairings %s; with a problem outside the '
          'pairings only: %d' % (jsonl, len(mine), ', '.join(
              '%s %d' % kv for kv in sorted(verdicts.items())), other))
    bbp = read_tsv(os.path.join(work, 'bbp-results.tsv'))
    both = sorted(set(mine) & set(bbp))
    diff = [x for x in both if pairing_verdict(mine[x]) != bbp[x][0]]
    print('against bbpPairings --dutch -c: %d files in both, same verdict on %d, '
          'different on %d' % (len(both), len(both) - len(diff), len(diff)))
    for x in diff:
        print('  differs: %s escaque %s (%s), bbpPairings %s' % (
            x, pairing_verdict(mine[x]), ','.join(sorted(
                {q['kind'] for q in mine[x].get('problems', [])})), bbp[x][0]))
    if against:
        theirs = read_jsonl(against)
        both = sorted(set(mine) & set(theirs))
        diff = [x for x in both if mine[x] != theirs[x]]
        print('against %s: %d files in both, the same JSON line on %d, different on %d' % (
            against, len(both), len(both) - len(diff), len(diff)))
        for x in diff:
            print('  differs: %s' % x)
    return diff


def solo_escaque(escaque, work, files, chunk, jobs):
    label = os.path.basename(escaque)
    jsonl = os.path.join(work, 'escaque-%s.jsonl' % label)
    tsv = os.path.join(work, 'escaque-%s-chunks.tsv' % label)
    done = set()
    if os.path.exists(tsv):
        with open(tsv) as fh:
            done = {int(line.split('\t')[0]) for line in fh if line.strip()}
    for i in range(0, len(files), chunk):
        if i in done:
            continue
        cmd = [escaque, 'torneo', 'comprobar', '--json'] + files[i:i + chunk]
        if jobs:
            cmd += ['-j', str(jobs)]
        p, wall, cpu = run_cpu(cmd)
        if p.returncode not in (0, 1):
            sys.exit('escaque exit %d on chunk %d: %s' % (p.returncode, i, p.stderr[-2000:]))
        with open(jsonl, 'a') as fh:
            fh.write(p.stdout)
        with open(tsv, 'a') as fh:
            fh.write('%d\t%d\t%.3f\t%.3f\t%d\n' % (i, len(files[i:i + chunk]), cpu, wall,
                                                   p.returncode))
        print('chunk %d: %d files, CPU %.1f s, wall %.1f s' % (
            i, len(files[i:i + chunk]), cpu, wall), flush=True)
    with open(tsv) as fh:
        rows = [line.split('\t') for line in fh if line.strip()]
    n = sum(int(r[1]) for r in rows)
    cpu = sum(float(r[2]) for r in rows)
    wall = sum(float(r[3]) for r in rows)
    print('escaque comprobar (%s, chunks of %d%s): %d files, CPU %.1f s, %.3f s a file, '
          'wall %.1f s' % (label, chunk, ', -j %d' % jobs if jobs else '', n, cpu,
                           cpu / max(n, 1), wall))
    compare(work, jsonl)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('escaque')
    ap.add_argument('work')
    ap.add_argument('--bbp')
    ap.add_argument('--count', type=int, default=200)
    ap.add_argument('--first', type=int, default=20001)
    ap.add_argument('--jobs', type=int)
    ap.add_argument('--repeat', type=int, default=1)
    ap.add_argument('--solo-set', action='store_true')
    ap.add_argument('--gen-jobs', type=int, default=1)
    ap.add_argument('--solo-bbp', metavar='BBP')
    ap.add_argument('--solo-escaque', action='store_true')
    ap.add_argument('--chunk', type=int, default=100)
    ap.add_argument('--compare', metavar='JSONL')
    ap.add_argument('--against', metavar='JSONL')
    a = ap.parse_args()
    if a.compare:
        diff = compare(a.work, a.compare, a.against)
        sys.exit(1 if diff else 0)
    if a.solo_bbp or a.solo_escaque:
        # Only the files already made (another run may still be making the
        # rest): run again later to go on with the ones made since.
        files = [os.path.join(a.work, 'set', 'e%d.trf' % s)
                 for s in range(a.first, a.first + a.count)]
        made = [f for f in files if os.path.exists(f)]
        if len(made) < len(files):
            print('%d of the %d files not made yet: left out of this run' % (
                len(files) - len(made), len(files)))
        files = made
    else:
        files = make_set(a.escaque, a.work, a.first, a.count, a.gen_jobs)
    if a.solo_set:
        lines = spread(files)
        with open(os.path.join(a.work, 'spread-%d.txt' % len(files)), 'w') as fh:
            fh.write('\n'.join(lines) + '\n')
        print('\n'.join(lines))
        return
    if a.solo_bbp:
        solo_bbp(a.solo_bbp, a.work, files)
        return
    if a.solo_escaque:
        solo_escaque(a.escaque, a.work, files, a.chunk, a.jobs)
        return
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
