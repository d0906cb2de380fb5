#!/usr/bin/env python3
"""Makes the Dutch-system test data with bbpPairings (built outside the project).

For each seed: bbpPairings' random tournament generator (-g) makes a whole
tournament; then, for every round r, the tournament cut after round r - 1
(keeping round r's requested byes and absences, which are input to the
pairing) is paired by bbpPairings (-p), and its answer is kept.

Usage: torneo_dutch_testdata.py BBP_EXE OUT_DIR FIRST_SEED COUNT [MIN_PLAYERS MAX_PLAYERS]
(players 7-60 unless given; the seed draws the number between them)
Writes OUT_DIR/tSEED.trf (the generated tournament, with XXR) and
OUT_DIR/tSEED.expected ("round R" lines, each followed by bbpPairings' output).
"""
import os
import random
import subprocess
import sys
import tempfile

POINTS = {'1': 2, '+': 2, 'W': 2, 'U': 2, 'F': 2, '=': 1, 'D': 1, 'H': 1}


def cells(line):
    out = []
    col = 91  # 0-based start of round 1's opponent field
    while col < len(line):
        out.append(line[col - 2:col + 8].ljust(10))
        col += 10
    return out


def truncate(lines, r, total):
    """Tournament lines cut after round r-1, plus round r's non-game cells."""
    out = []
    for line in lines:
        if not line.startswith('001'):
            if not line.startswith('XXR'):
                out.append(line)
            continue
        cs = cells(line)
        keep = cs[:r - 1]
        pts = sum(POINTS.get(c[9], 0) for c in keep)
        head = line[:80] + '{:>4}'.format('%d.%d' % (pts // 2, 5 if pts % 2 else 0)) + line[84:89]
        extra = ''
        if len(cs) >= r:
            c = cs[r - 1]
            if c[2:6].strip() in ('0000', '') and c[9] not in ('U', ' '):
                extra = c
        out.append((head + ''.join(keep) + extra).rstrip())
    out.append('XXR %d' % total)
    out.append('XXC white1')
    return out


def main():
    exe, out_dir, first, count = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    lo, hi = (int(sys.argv[5]), int(sys.argv[6])) if len(sys.argv) > 6 else (7, 60)
    os.makedirs(out_dir, exist_ok=True)
    for seed in range(first, first + count):
        rng = random.Random(seed)
        players = rng.randint(lo, hi)
        rounds = rng.randint(4, 11)
        with tempfile.TemporaryDirectory() as tmp:
            cfg = os.path.join(tmp, 'cfg.txt')
            with open(cfg, 'w') as f:
                f.write('PlayersNumber=%d\nRoundsNumber=%d\nDrawPercentage=%d\n'
                        'ForfeitRate=%d\nRetiredRate=%d\nHalfPointByeRate=%d\n'
                        'HighestRating=2600\nLowestRating=1400\n'
                        % (players, rounds, rng.randint(10, 50), rng.choice([20, 50, 1000]),
                           rng.choice([50, 200, 100000]), rng.choice([30, 100, 100000])))
            gen = os.path.join(tmp, 'gen.trf')
            res = subprocess.run([exe, '--dutch', '-g', cfg, '-o', gen, '-s', str(seed)])
            if res.returncode != 0:
                # The generator could not finish (e.g. no legal pairing for a
                # late round of a small event): no test case for this seed.
                print('seed %d skipped: generator exit %d' % (seed, res.returncode))
                continue
            with open(gen, newline='') as f:
                lines = f.read().replace('\r\n', '\n').replace('\r', '\n').split('\n')
            lines = [l for l in lines if l.strip()]
            total = max((len(cells(l)) for l in lines if l.startswith('001')), default=0)
            full = [l for l in lines if not l.startswith('XXR')] + ['XXR %d' % total, 'XXC white1']
            expected = []
            for r in range(1, total + 1):
                inp = os.path.join(tmp, 'in.trf')
                with open(inp, 'w') as f:
                    f.write('\n'.join(truncate(lines, r, total)) + '\n')
                outp = os.path.join(tmp, 'out.txt')
                res = subprocess.run([exe, '--dutch', inp, '-p', outp], capture_output=True, text=True)
                if res.returncode != 0:
                    expected.append('round %d\nerror %d %s' % (r, res.returncode, res.stderr.strip().replace('\n', ' ')))
                    continue
                with open(outp) as f:
                    expected.append('round %d\n%s' % (r, f.read().strip()))
        with open(os.path.join(out_dir, 't%05d.trf' % seed), 'w') as f:
            f.write('\n'.join(full) + '\n')
        with open(os.path.join(out_dir, 't%05d.expected' % seed), 'w') as f:
            f.write('\n'.join(expected) + '\n')


if __name__ == '__main__':
    main()
