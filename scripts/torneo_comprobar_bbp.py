#!/usr/bin/env python3
"""escaque torneo generar / comprobar against bbpPairings (built outside the project).

Usage:
  torneo_comprobar_bbp.py ESCAQUE BBP_EXE WORK_DIR COUNT [FIRST_SEED [BBP_COUNT]]

Makes COUNT tournaments with `escaque torneo generar` (players 8-300, rounds
5-13, draws, forfeits, double forfeits, retirements, half/full/zero-point
byes, late entries; every fourth one with the Baku acceleration) and COUNT
with `bbpPairings --dutch -g` (the same ranges, its own draw, forfeit,
retirement and half-point-bye rates; BBP_COUNT of them when given, since
bbpPairings -g takes seconds a file), each size and rate drawn from the seed.
Then:
  * the verdict of `bbpPairings --dutch FILE -c` (something wrong when it
    prints anything but its "Round #n" lines, or exits non-zero) and of
    `escaque torneo comprobar --json` on the pairings (pairing_differs,
    no_pairing, a C.04.3 breach), file by file, and the time each took;
  * the frequencies of draws, forfeits and byes over escaque's files
    against the configured rates;
  * mutations of every file: the black players of two boards of one round
    with the same result exchanged (points unchanged, the file still
    valid): both checkers must find something wrong; one decisive result
    reversed, points left as they were: escaque must report the points,
    bbpPairings refuses the file (exit 3).
Prints the figures for BENCHMARKS.md.
"""
import json
import os
import random
import subprocess
import sys
import time

RATES = dict(tablas=0.3, incomparecencias=0.03, dobles_incomparecencias=0.01,
             retiradas=0.01, medio_punto=0.04, punto_completo=0.01, cero_puntos=0.02)


def escaque_config(path, rng, baku):
    players = rng.randint(8, 300)
    # At most half the players' number of rounds (a Swiss, not a round
    # robin: with more, late rounds often have no legal pairing).
    rounds = min(rng.randint(5, 13), max(5, players // 2))
    with open(path, 'w') as f:
        f.write('jugadores = %d\nrondas = %d\n' % (players, rounds))
        for k, v in RATES.items():
            f.write('%s = %s\n' % (k, v))
        f.write('tardios = 0.02\nbaku = %s\n' % ('si' if baku else 'no'))


def bbp_config(path, rng):
    players = rng.randint(8, 300)
    with open(path, 'w') as f:
        f.write('PlayersNumber=%d\nRoundsNumber=%d\nDrawPercentage=%d\n'
                'ForfeitRate=%d\nRetiredRate=%d\nHalfPointByeRate=%d\n'
                'HighestRating=2700\nLowestRating=1200\n'
                % (players, min(rng.randint(5, 13), max(5, players // 2)), rng.randint(10, 50),
                   rng.choice([20, 50, 1000]), rng.choice([50, 200, 100000]),
                   rng.choice([30, 100, 100000])))


def cells(line):
    out = []
    col = 91
    while col < len(line):
        out.append(line[col - 2:col + 8].ljust(10))
        col += 10
    return out


def bbp_verdict(bbp, path):
    t0 = time.perf_counter()
    p = subprocess.run([bbp, '--dutch', path, '-c'], capture_output=True, text=True)
    dt = time.perf_counter() - t0
    if p.returncode != 0:
        return 'error %d' % p.returncode, dt
    lines = [l for l in p.stdout.replace('\r', '\n').split('\n')
             if l.strip() and ': Round #' not in l]
    return ('wrong' if lines else 'ok'), dt


PAIRING_KINDS = {'pairing_differs', 'no_pairing', 'rematch', 'forbidden',
                 'second_bye', 'absolute_colours'}


def escaque_verdicts(escaque, paths):
    """File -> ('ok' | 'wrong' | 'error', kinds) over the pairings; the time."""
    out = {}
    t0 = time.perf_counter()
    for i in range(0, len(paths), 200):
        chunk = paths[i:i + 200]
        p = subprocess.run([escaque, 'torneo', 'comprobar', '--json'] + chunk,
                           capture_output=True, text=True)
        for line in p.stdout.splitlines():
            r = json.loads(line)
            if 'error' in r:
                out[r['file']] = ('error', {r['error']})
                continue
            kinds = {q['kind'] for q in r['problems']}
            out[r['file']] = ('wrong' if kinds & PAIRING_KINDS else 'ok', kinds)
    return out, time.perf_counter() - t0


def swap_mutation(text, rng):
    lines = text.replace('\r\n', '\n').replace('\r', '\n').split('\n')
    players = {}
    for i, l in enumerate(lines):
        if l.startswith('001'):
            players[int(l[4:8])] = i
    rounds = max((len(cells(lines[i])) for i in players.values()), default=0)
    order = list(range(rounds))
    rng.shuffle(order)
    for r in order:
        games = []
        for pid, i in sorted(players.items()):
            c = cells(lines[i])
            if r < len(c) and c[r][7] == 'w' and c[r][2:6].strip() not in ('', '0000'):
                games.append((pid, int(c[r][2:6]), c[r][9]))
        rng.shuffle(games)
        for x in range(len(games)):
            for y in range(x + 1, len(games)):
                (a, b, ra), (c_, d, rc) = games[x], games[y]
                if ra != rc or ra not in '10=':
                    continue
                new = {a: d, d: a, c_: b, b: c_}
                for pid, opp in new.items():
                    i = players[pid]
                    col = 89 + 10 * r
                    l = lines[i]
                    lines[i] = l[:col + 2] + '%4d' % opp + l[col + 6:]
                return '\n'.join(lines)
    return None


def result_mutation(text, rng):
    lines = text.replace('\r\n', '\n').replace('\r', '\n').split('\n')
    players = {int(l[4:8]): i for i, l in enumerate(lines) if l.startswith('001')}
    cands = []
    for pid, i in players.items():
        for r, c in enumerate(cells(lines[i])):
            if c[7] == 'w' and c[9] in '10':
                cands.append((pid, int(c[2:6]), r))
    if not cands:
        return None
    a, b, r = rng.choice(cands)
    for pid in (a, b):
        i = players[pid]
        col = 89 + 10 * r + 9
        l = lines[i]
        lines[i] = l[:col] + ('0' if l[col] == '1' else '1') + l[col + 1:]
    return '\n'.join(lines)


def rates(paths):
    n = dict(games=0, played=0, draws=0, forfeits=0, doubles=0, slots=0, retired=0,
             H=0, F=0, Z=0)
    for path in paths:
        with open(path) as f:
            lines = f.read().split('\n')
        entry = {int(l[4:8]): int(l[9:]) for l in lines if l.startswith('XZE')}
        withdrawn = {int(l[4:8]): int(l[9:]) for l in lines if l.startswith('XZW')}
        byid = {int(l[4:8]): cells(l) for l in lines if l.startswith('001')}
        for pid, cs in byid.items():
            for r, c in enumerate(cs, start=1):
                code = c[9]
                if c[7] == 'w':
                    n['games'] += 1
                    if code in '10=':
                        n['played'] += 1
                        n['draws'] += code == '='
                    elif code == '+':
                        n['forfeits'] += 1
                    elif code == '-':
                        other = byid[int(c[2:6])][r - 1][9]
                        n['doubles' if other == '-' else 'forfeits'] += 1
                # Player-rounds where the draw was made: entered, not yet
                # withdrawn (the round of the withdrawal is the retirement).
                if r < entry.get(pid, 1) or r > withdrawn.get(pid, 10 ** 6):
                    continue
                n['slots'] += 1
                if withdrawn.get(pid) == r:
                    n['retired'] += 1
                elif code in 'HFZ' and c[2:6] == '0000':
                    n[code] += 1
    stay = n['slots'] - n['retired']
    p_stay = 1 - RATES['retiradas']
    return [
        ('tablas (of games played)', n['draws'], n['played'], RATES['tablas']),
        ('incomparecencias (of games)', n['forfeits'], n['games'], RATES['incomparecencias']),
        ('dobles incomparecencias (of games)', n['doubles'], n['games'],
         RATES['dobles_incomparecencias']),
        ('medio punto H (of player-rounds)', n['H'], stay, RATES['medio_punto'] * p_stay),
        ('punto completo F (of player-rounds)', n['F'], stay, RATES['punto_completo'] * p_stay),
        ('cero puntos Z (of player-rounds)', n['Z'], stay, RATES['cero_puntos'] * p_stay),
    ]


def main():
    escaque, bbp, work, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    first = int(sys.argv[5]) if len(sys.argv) > 5 else 1
    bbp_count = int(sys.argv[6]) if len(sys.argv) > 6 else count
    for d in ('escaque', 'bbp', 'mut_swap', 'mut_result', 'cfg'):
        os.makedirs(os.path.join(work, d), exist_ok=True)
    rng = random.Random(first)
    # escaque's files.
    esc_files = []
    t0 = time.perf_counter()
    for seed in range(first, first + count):
        cfg = os.path.join(work, 'cfg', 'e%d.txt' % seed)
        escaque_config(cfg, rng, baku=seed % 4 == 0)
        out = os.path.join(work, 'escaque', 'e%d.trf' % seed)
        try:
            p = subprocess.run([escaque, 'torneo', 'generar', '--config', cfg, '--semilla',
                                str(seed), '-o', out], capture_output=True, text=True,
                               timeout=120)
        except subprocess.TimeoutExpired:
            print('escaque generar seed %d: over 120 s, left out' % seed)
            continue
        if p.returncode == 0:
            esc_files.append(out)
    print('escaque torneo generar: %d of %d files in %.1f s'
          % (len(esc_files), count, time.perf_counter() - t0))
    bbp_files = []
    t0 = time.perf_counter()
    for seed in range(first, first + bbp_count):
        cfg = os.path.join(work, 'cfg', 'b%d.txt' % seed)
        bbp_config(cfg, rng)
        out = os.path.join(work, 'bbp', 'b%d.trf' % seed)
        try:
            p = subprocess.run([bbp, '--dutch', '-g', cfg, '-o', out, '-s', str(seed)],
                               capture_output=True, timeout=30)
        except subprocess.TimeoutExpired:
            print('bbpPairings -g seed %d: over 30 s, left out' % seed)
            continue
        if p.returncode == 0:
            bbp_files.append(out)
    print('bbpPairings -g: %d of %d files in %.1f s'
          % (len(bbp_files), bbp_count, time.perf_counter() - t0))

    def compare(name, files):
        bbp_time = 0.0
        verdict_b = {}
        for f in files:
            v, dt = bbp_verdict(bbp, f)
            verdict_b[f] = v
            bbp_time += dt
        verdict_e, esc_time = escaque_verdicts(escaque, files)
        same = sum(1 for f in files if verdict_e[f][0] == verdict_b[f])
        wrong_b = sum(1 for f in files if verdict_b[f] != 'ok')
        wrong_e = sum(1 for f in files if verdict_e[f][0] != 'ok')
        print('%s: %d files; same verdict on %d; bbpPairings finds something wrong in %d, '
              'escaque in %d; time bbpPairings %.1f s, escaque %.1f s'
              % (name, len(files), same, wrong_b, wrong_e, bbp_time, esc_time))
        for f in files:
            if verdict_e[f][0] != verdict_b[f]:
                print('  differs: %s bbp=%s escaque=%s %s'
                      % (f, verdict_b[f], verdict_e[f][0], sorted(verdict_e[f][1])))
        return verdict_b, verdict_e

    compare('escaque generar', esc_files)
    compare('bbpPairings -g', bbp_files)

    # Mutations.
    mrng = random.Random(first + 1)
    swaps, results = [], []
    for f in esc_files + bbp_files:
        with open(f, newline='') as fh:
            text = fh.read()
        base = os.path.basename(f)
        m = swap_mutation(text, mrng)
        if m is not None:
            p = os.path.join(work, 'mut_swap', base)
            with open(p, 'w') as fh:
                fh.write(m)
            swaps.append(p)
        m = result_mutation(text, mrng)
        if m is not None:
            p = os.path.join(work, 'mut_result', base)
            with open(p, 'w') as fh:
                fh.write(m)
            results.append(p)
    vb, ve = compare('swapped pairing', swaps)
    print('swapped pairing caught: escaque %d of %d, bbpPairings %d of %d'
          % (sum(ve[f][0] != 'ok' for f in swaps), len(swaps),
             sum(vb[f] != 'ok' for f in swaps), len(swaps)))
    verdict_e, _ = escaque_verdicts(escaque, results)
    caught_e = sum(1 for f in results if 'points' in verdict_e[f][1])
    caught_b = sum(1 for f in results if bbp_verdict(bbp, f)[0] != 'ok')
    print('result reversed (points as they were): escaque reports the points in %d of %d; '
          'bbpPairings refuses or flags %d of %d' % (caught_e, len(results), caught_b, len(results)))

    # Baku: the accelerated files without their 250 records, so that each
    # program computes the Baku acceleration itself from record 192.
    baku = []
    for f in esc_files:
        with open(f) as fh:
            text = fh.read()
        if '192 FIDE_DUTCH_2025_BAKU' not in text:
            continue
        p = os.path.join(work, 'baku', os.path.basename(f))
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, 'w') as fh:
            fh.write(''.join(l for l in text.splitlines(True) if not l.startswith('250')))
        n = sum(1 for l in text.splitlines() if l.startswith('001'))
        baku.append((p, n))
    vb, ve = compare('Baku from record 192 (no 250)', [p for p, _ in baku])
    for rest in range(4):
        group = [p for p, n in baku if n % 4 == rest]
        print('  players = %d mod 4: %d files, bbpPairings finds something wrong in %d, escaque in %d'
              % (rest, len(group), sum(vb[p] != 'ok' for p in group),
                 sum(ve[p][0] != 'ok' for p in group)))

    for what, k, n, p in rates(esc_files):
        print('%s: %.4f over %d, configured %.4f (%+.2f %%)'
              % (what, k / n, n, p, 100 * (k / n - p) / p))


if __name__ == '__main__':
    main()
