#!/usr/bin/env python3
"""Unusual results (½-0, 0-½, 0-0; issue 58, FIDE's checklist VCL.13)
against bbpPairings --dutch -c (built outside the project).

Usage:
  torneo_inusuales_bbp.py ESCAQUE BBP_EXE WORK_DIR COUNT [FIRST_SEED [RATE]]

Makes COUNT tournaments with `escaque torneo generar` with the size and rate
draws of torneo_comprobar_bbp.py (players 8-300, rounds 5-13, draws,
forfeits, double forfeits, retirements, byes, late entries, every fourth one
with Baku) plus `inusuales = RATE` (default 0.05: that share of the games
end ½-0, 0-½ or 0-0, each player's own code in the file). escaque pairs
every round with each player's own score; bbpPairings reads each player's
score from their own codes too, so `bbpPairings --dutch FILE -c` re-pairs
every round independently. Prints, for the files and for one swapped-pairing
mutation of each (two boards of one round with the same result have their
black players exchanged), how many files each checker finds wrong and on how
many they agree, and how many unusual games the files hold.
"""
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torneo_comprobar_bbp as base  # noqa: E402
import subprocess  # noqa: E402


def unusual_games(path):
    """Games whose two codes are =/0, 0/= or 0/0 (each counted once)."""
    n = 0
    # Count by pairs: a game is unusual when the two codes' points add up
    # to less than one with both codes in {=, 0}.
    codes = {}
    for line in open(path, encoding='utf-8'):
        if not line.startswith('001'):
            continue
        me = int(line[4:8])
        for r, c in enumerate(base.cells(line.rstrip('\n'))):
            opp, code = c[2:6].strip(), c[9]
            if opp and opp != '0000':
                codes[(r, me, int(opp))] = code
    for (r, a, b), ca in codes.items():
        cb = codes.get((r, b, a))
        if a < b and cb is not None and (ca, cb) in (('=', '0'), ('0', '='), ('0', '0')):
            n += 1
    return n


def main():
    escaque, bbp, work, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    first = int(sys.argv[5]) if len(sys.argv) > 5 else 58001
    rate = sys.argv[6] if len(sys.argv) > 6 else '0.05'
    for d in ('escaque', 'swap', 'cfg'):
        os.makedirs(os.path.join(work, d), exist_ok=True)
    rng = random.Random(first)
    files = []
    for seed in range(first, first + count):
        cfg = os.path.join(work, 'cfg', 'e%d.txt' % seed)
        base.escaque_config(cfg, rng, baku=seed % 4 == 0)
        with open(cfg, 'a') as f:
            f.write('inusuales = %s\n' % rate)
        out = os.path.join(work, 'escaque', 'e%d.trf' % seed)
        try:
            p = subprocess.run([escaque, 'torneo', 'generar', '--config', cfg, '--semilla',
                                str(seed), '-o', out], capture_output=True, text=True,
                               timeout=120)
        except subprocess.TimeoutExpired:
            continue
        if p.returncode == 0:
            files.append(out)
    games = sum(unusual_games(f) for f in files)
    print('escaque torneo generar (inusuales = %s): %d of %d files, %d unusual games'
          % (rate, len(files), count, games))
    mrng = random.Random(first + 1)
    swaps = []
    for f in files:
        text = open(f, newline='').read()
        m = base.swap_mutation(text, mrng)
        if m is not None:
            p = os.path.join(work, 'swap', os.path.basename(f))
            with open(p, 'w') as fh:
                fh.write(m)
            swaps.append(p)
    for name, group in (('files', files), ('swapped', swaps)):
        vb = {f: base.bbp_verdict(bbp, f)[0] for f in group}
        ve, _ = base.escaque_verdicts(escaque, group)
        same = sum(1 for f in group if ve[f][0] == vb[f])
        print('%s: %d; same verdict on %d; bbpPairings finds something wrong in %d, escaque in %d'
              % (name, len(group), same, sum(1 for f in group if vb[f] != 'ok'),
                 sum(1 for f in group if ve[f][0] != 'ok')))
        for f in group:
            if ve[f][0] != vb[f]:
                print('  differs: %s bbp=%s escaque=%s %s' % (f, vb[f], ve[f][0], sorted(ve[f][1])))


if __name__ == '__main__':
    main()
