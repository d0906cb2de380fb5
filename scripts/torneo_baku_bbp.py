#!/usr/bin/env python3
"""Baku acceleration (C.04.5.1): escaque's pairings against bbpPairings'.

Usage:
  torneo_baku_bbp.py ESCAQUE BBP_EXE WORK_DIR COUNT [FIRST_SEED]

Makes COUNT accelerated tournaments with `escaque torneo generar` (baku = si,
xxa = si: the accelerations written as JaVaFo's XXA lines, one a player;
players 8-120, rounds 5-9 but at most half the players, draws, forfeits,
retirements, H/F/Z byes, late entries in every third file), each size drawn
from the seed. Every round of each file was paired by escaque's Dutch engine
with those accelerations; `bbpPairings --dutch FILE -c` re-pairs every round
with the same XXA accelerations and prints a line for each round whose
pairing is not its own. A file is "same" when bbpPairings prints nothing but
its "Round #n" lines and exits 0.

Then the same files with the XXA lines removed and only `192
FIDE_DUTCH_2025_BAKU` left (each program computes the Baku groups itself),
split by the number of players mod 4 and by late entries, since bbpPairings'
GA is ceil(n/2) of every player in the file and C.04.5.1's 2*ceil(n/4) of the
players at round 1 (see BENCHMARKS.md).
"""
import json
import os
import random
import subprocess
import sys
import time


def bbp_same(bbp, path):
    p = subprocess.run([bbp, '--dutch', path, '-c'], capture_output=True, text=True)
    if p.returncode != 0:
        return False
    lines = [l for l in p.stdout.replace('\r', '\n').split('\n')
             if l.strip() and ': Round #' not in l]
    return not lines


def main():
    escaque, bbp, work, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    first = int(sys.argv[5]) if len(sys.argv) > 5 else 1
    for d in ('cfg', 'xxa', 'b192'):
        os.makedirs(os.path.join(work, d), exist_ok=True)
    rng = random.Random(first)
    files = []
    t0 = time.perf_counter()
    for seed in range(first, first + count):
        players = rng.randint(8, 120)
        rounds = min(rng.randint(5, 9), max(5, players // 2))
        late = seed % 3 == 0
        cfg = os.path.join(work, 'cfg', 'k%d.txt' % seed)
        with open(cfg, 'w') as f:
            f.write('jugadores = %d\nrondas = %d\ntablas = 0.3\nincomparecencias = 0.02\n'
                    'retiradas = 0.01\nmedio_punto = 0.03\npunto_completo = 0.01\n'
                    'cero_puntos = 0.01\ntardios = %s\nbaku = si\nxxa = si\n'
                    % (players, rounds, '0.02' if late else '0'))
        out = os.path.join(work, 'xxa', 'k%d.trf' % seed)
        p = subprocess.run([escaque, 'torneo', 'generar', '--config', cfg, '--semilla',
                            str(seed), '-o', out], capture_output=True, text=True)
        if p.returncode == 0:
            files.append((out, players, late))
        else:
            print('generar seed %d failed: %s' % (seed, p.stderr.strip()[:200]))
    print('escaque torneo generar (Baku, XXA): %d of %d files in %.1f s'
          % (len(files), count, time.perf_counter() - t0))

    t0 = time.perf_counter()
    same = [f for f, _, _ in files if bbp_same(bbp, f)]
    print('bbpPairings --dutch -c with the XXA accelerations: every round its own pairing '
          'in %d of %d files (%.1f s)' % (len(same), len(files), time.perf_counter() - t0))
    for f, _, _ in files:
        if f not in same:
            print('  differs: %s' % f)

    # escaque's own checker on the same files.
    t0 = time.perf_counter()
    ok_e = 0
    paths = [f for f, _, _ in files]
    for i in range(0, len(paths), 200):
        p = subprocess.run([escaque, 'torneo', 'comprobar', '--json'] + paths[i:i + 200],
                           capture_output=True, text=True)
        for line in p.stdout.splitlines():
            r = json.loads(line)
            kinds = {q['kind'] for q in r.get('problems', [])}
            if 'error' not in r and not (kinds - {'rank'}):
                ok_e += 1
    print('escaque torneo comprobar: nothing wrong in %d of %d (%.1f s)'
          % (ok_e, len(files), time.perf_counter() - t0))

    # Record 192 only.
    groups = {}
    for f, n, late in files:
        with open(f) as fh:
            text = fh.read()
        p = os.path.join(work, 'b192', os.path.basename(f))
        with open(p, 'w') as fh:
            fh.write(''.join(l for l in text.splitlines(True) if not l.startswith('XXA')))
        key = (n % 4, late)
        groups.setdefault(key, [0, 0])
        groups[key][0] += 1
        if bbp_same(bbp, p):
            groups[key][1] += 1
    print('record 192 only (each computes Baku): files where bbpPairings finds every round its own')
    for (rest, late), (total, agree) in sorted(groups.items()):
        print('  n mod 4 = %d, %s: %d of %d' % (rest, 'late entries' if late else 'no late entries',
                                                agree, total))


if __name__ == '__main__':
    main()
