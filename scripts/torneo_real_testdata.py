#!/usr/bin/env python3
"""Asks bbpPairings (built outside the project) to pair every round of real
tournaments, for crates/escaque-torneo/tests/data/real.

For each DIR/NAME.trf and each round r from 1 to the number of rounds (XXR or
142, else the rounds in the file), the event is cut before round r: player
lines keep rounds 1..r-1 and, of round r, only a cell that is not a game
(a requested bye or an absence: input to the pairing); the points column is
recomputed; every other line stays as it is (no XXC is added: a file without
an initial colour keeps none). bbpPairings pairs the cut file and its answer
goes to DIR/NAME.expected ("round R" lines, each followed by the answer or
"error ..."). The Rust test (tests/real.rs) cuts the same way.

Usage: torneo_real_testdata.py BBP_EXE DIR  (tests/data/real, tests/data/made)
"""
import glob
import os
import subprocess
import sys
import tempfile

POINTS = {'1': 2, '+': 2, 'W': 2, 'U': 2, 'F': 2, '=': 1, 'D': 1, 'H': 1}


def cells(line):
    out = []
    col = 91  # 0-based start of round 1's opponent field
    while col - 2 < len(line):
        out.append(line[col - 2:col + 8].ljust(10))
        col += 10
    return out


def declared_rounds(lines):
    for l in lines:
        if l[:3] in ('XXR', '142'):
            return int(l[4:].strip())
    return None


def cut(lines, r):
    out = []
    for line in lines:
        if not line.startswith('001'):
            out.append(line)
            continue
        cs = cells(line)
        keep = cs[:r - 1]
        pts = sum(POINTS.get(c[9], 0) for c in keep)
        head = line[:80].ljust(80) + '{:>4}'.format('%d.%d' % (pts // 2, 5 if pts % 2 else 0)) + line[84:89].ljust(5)
        extra = ''
        if len(cs) >= r:
            c = cs[r - 1]
            if c[2:6].strip() in ('0000', '') and c[9] not in ('U', ' '):
                extra = c
        out.append((head + ''.join(keep) + extra).rstrip())
    return out


def main():
    exe, folder = sys.argv[1], sys.argv[2]
    for path in sorted(glob.glob(os.path.join(folder, '*.trf'))):
        with open(path, 'rb') as f:
            raw = f.read()
        try:
            text = raw.decode('utf-8')
        except UnicodeDecodeError:
            text = raw.decode('cp1252')
        lines = [l for l in text.replace('\r\n', '\n').replace('\r', '\n').split('\n') if l.strip()]
        # Rounds with a game in them (cells after that are requests).
        played = max((i + 1 for l in lines if l.startswith('001')
                      for i, c in enumerate(cells(l)) if c[2:6].strip() not in ('0000', '', '0')),
                     default=0)
        total = declared_rounds(lines) or max((len(cells(l)) for l in lines if l.startswith('001')), default=0)
        if declared_rounds(lines) is None:
            lines.append('XXR %d' % total)
        expected = []
        with tempfile.TemporaryDirectory() as tmp:
            # Every round of the event, and the next one if it is not over
            # (a made file may stop before its last round).
            for r in range(1, min(total, played + 1) + 1):
                inp = os.path.join(tmp, 'in.trf')
                with open(inp, 'w', encoding='utf-8') as f:
                    f.write('\n'.join(cut(lines, r)) + '\n')
                outp = os.path.join(tmp, 'out.txt')
                res = subprocess.run([exe, '--dutch', inp, '-p', outp], capture_output=True, text=True)
                if res.returncode != 0:
                    expected.append('round %d\nerror %d %s' % (r, res.returncode, res.stderr.replace(inp, 'in.trf').strip().replace('\n', ' ')))
                    continue
                with open(outp) as f:
                    expected.append('round %d\n%s' % (r, f.read().strip()))
        with open(path[:-4] + '.expected', 'w') as f:
            f.write('\n'.join(expected) + '\n')
        print(path, total, 'rounds')


if __name__ == '__main__':
    main()
