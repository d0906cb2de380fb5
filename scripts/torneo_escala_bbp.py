#!/usr/bin/env python3
"""escaque torneo comprobar against bbpPairings --dutch -c at scale, in seeded
chunks that a later session can continue (issue 58).

Usage:
  torneo_escala_bbp.py ESCAQUE BBP_EXE WORK_DIR RECORD FIRST_SEED CHUNKS [CHUNK [BBP_PER_CHUNK]]

Each chunk takes the seeds FIRST_SEED + k*CHUNK .. + CHUNK - 1 (CHUNK = 50 by
default) and, with the generators and mutations of torneo_comprobar_bbp.py
(imported from it: the same size and rate draws, players 8-300, rounds 5-13,
every fourth escaque file with Baku):
  * makes CHUNK files with `escaque torneo generar` and BBP_PER_CHUNK
    (default 5: bbpPairings -g takes seconds a file) with `bbpPairings
    --dutch -g`, the config of each drawn from random.Random(chunk's first seed);
  * makes one mutation of every file: two boards of one round with the same
    result have their black players exchanged (points unchanged);
  * checks every file with both checkers and appends one line a group
    (escaque, bbp, swapped) to RECORD (tab-separated, with a header when new):
    first_seed, last_seed, group, files, same_verdict, bbp_wrong, escaque_wrong,
    bbp_seconds, escaque_seconds, differing files (by name).
The chunk's files are deleted after it is recorded (only the record stays).
A chunk that does not finish is not recorded: continue with the next
FIRST_SEED after the record's last line.
"""
import os
import random
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torneo_comprobar_bbp as base  # noqa: E402

HEADER = ('first_seed\tlast_seed\tgroup\tfiles\tsame_verdict\tbbp_wrong\tescaque_wrong'
          '\tbbp_seconds\tescaque_seconds\tdiffering\n')


def chunk(escaque, bbp, work, first, size, bbp_count):
    shutil.rmtree(work, ignore_errors=True)
    for d in ('escaque', 'bbp', 'swap', 'cfg'):
        os.makedirs(os.path.join(work, d), exist_ok=True)
    rng = random.Random(first)
    esc_files, bbp_files = [], []
    for seed in range(first, first + size):
        cfg = os.path.join(work, 'cfg', 'e%d.txt' % seed)
        base.escaque_config(cfg, rng, baku=seed % 4 == 0)
        out = os.path.join(work, 'escaque', 'e%d.trf' % seed)
        try:
            p = subprocess.run([escaque, 'torneo', 'generar', '--config', cfg, '--semilla',
                                str(seed), '-o', out], capture_output=True, timeout=120)
        except subprocess.TimeoutExpired:
            continue
        if p.returncode == 0:
            esc_files.append(out)
    for seed in range(first, first + bbp_count):
        cfg = os.path.join(work, 'cfg', 'b%d.txt' % seed)
        base.bbp_config(cfg, rng)
        out = os.path.join(work, 'bbp', 'b%d.trf' % seed)
        try:
            p = subprocess.run([bbp, '--dutch', '-g', cfg, '-o', out, '-s', str(seed)],
                               capture_output=True, timeout=30)
        except subprocess.TimeoutExpired:
            continue
        if p.returncode == 0:
            bbp_files.append(out)
    mrng = random.Random(first + 1)
    swaps = []
    for f in esc_files + bbp_files:
        with open(f, newline='') as fh:
            text = fh.read()
        m = base.swap_mutation(text, mrng)
        if m is not None:
            p = os.path.join(work, 'swap', os.path.basename(f))
            with open(p, 'w') as fh:
                fh.write(m)
            swaps.append(p)
    rows = []
    for group, files in (('escaque', esc_files), ('bbp', bbp_files), ('swapped', swaps)):
        vb, tb = {}, 0.0
        for f in files:
            vb[f], dt = base.bbp_verdict(bbp, f)
            tb += dt
        ve, te = base.escaque_verdicts(escaque, files)
        differing = [os.path.basename(f) for f in files if ve[f][0] != vb[f]]
        rows.append('%d\t%d\t%s\t%d\t%d\t%d\t%d\t%.1f\t%.1f\t%s\n' % (
            first, first + size - 1, group, len(files), len(files) - len(differing),
            sum(vb[f] != 'ok' for f in files), sum(ve[f][0] != 'ok' for f in files),
            tb, te, ','.join(differing) or '-'))
    shutil.rmtree(work, ignore_errors=True)
    return rows


def main():
    escaque, bbp, work, record = sys.argv[1:5]
    first, chunks = int(sys.argv[5]), int(sys.argv[6])
    size = int(sys.argv[7]) if len(sys.argv) > 7 else 50
    bbp_count = int(sys.argv[8]) if len(sys.argv) > 8 else 5
    for k in range(chunks):
        s = first + k * size
        t0 = time.perf_counter()
        rows = chunk(escaque, bbp, os.path.join(work, 'c%d' % s), s, size, bbp_count)
        new = not os.path.exists(record)
        with open(record, 'a') as f:
            if new:
                f.write(HEADER)
            f.writelines(rows)
        print('seeds %d-%d: %.0f s' % (s, s + size - 1, time.perf_counter() - t0), flush=True)
        for r in rows:
            print('  ' + r.rstrip(), flush=True)


if __name__ == '__main__':
    main()
