#!/usr/bin/env python3
"""Fits the strength of the weakened engine as a curve of its setting.

  python3 calibrate.py results.txt [--degree D] [TARGET ...]

results.txt has one match per line, `SETTING OPPONENT W D L` (W-D-L from
escaque's side; `#` starts a comment): the W/D/L that match.py prints for
`--a "escaque uci --ajuste SETTING" --b stockfish:OPPONENT` (OPPONENT an Elo)
or `--b "escaque uci --ajuste S2"` (OPPONENT written `sS2`: escaque at another
setting, which links settings below Stockfish's floor of 1350 to the rest).

Every game is one observation: escaque at setting s scores on average
1 / (1 + 10^((opponent - elo(s)) / 400)), where elo(s) is a polynomial of
degree D (default 2) in s and an opponent `sS2` stands at elo(S2). Its coefficients are fitted by maximum likelihood
over all games at once (Newton's method; a draw counts as half a win and half
a loss), so that every match informs the whole curve. Prints the curve, each
match's own estimate beside it with the curve's 95 % interval there, the curve
at the settings of the schedule's ends, and for each TARGET Elo the setting
the curve asks for."""
import math, sys

K = math.log(10) / 400

def read(path):
    rows = []
    for line in open(path, encoding="utf-8"):
        f = line.split("#", 1)[0].split()
        if f:
            # An opponent setting is stored as a negative number.
            opp = -float(f[1][1:]) if f[1].startswith("s") else float(f[1])
            rows.append((float(f[0]), opp) + tuple(float(x) for x in f[2:5]))
    return rows

def solve(a, b):
    """Solves a x = b (Gaussian elimination with partial pivoting)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(n):
            if r != c:
                f = m[r][c] / m[c][c]
                m[r] = [x - f * y for x, y in zip(m[r], m[c])]
    return [m[i][n] / m[i][i] for i in range(n)]

def inverse(a):
    n = len(a)
    cols = [solve(a, [1.0 if i == j else 0.0 for i in range(n)]) for j in range(n)]
    return [[cols[j][i] for j in range(n)] for i in range(n)]

class Curve:
    """elo(s) = sum c_i x^i with x = (s - centre) / scale (well conditioned)."""
    def __init__(self, rows, degree):
        games = sum(sum(r[2:]) for r in rows)
        self.centre = sum(r[0] * sum(r[2:]) for r in rows) / games
        self.scale = 1000.0
        self.c = [1500.0] + [0.0] * degree
        for _ in range(100):
            g = [0.0] * (degree + 1)
            h = [[0.0] * (degree + 1) for _ in range(degree + 1)]
            for s, opp, w, d, l in rows:
                n, score = w + d + l, w + d / 2
                x = self.features(s, opp)
                p = 1 / (1 + 10 ** (-self.diff(s, opp) / 400))
                r, q = K * (score - n * p), K * K * n * p * (1 - p)
                for i in range(degree + 1):
                    g[i] += r * x[i]
                    for j in range(degree + 1):
                        h[i][j] += q * x[i] * x[j]
            step = solve(h, g)
            # Newton's step, halved until the likelihood does not drop.
            old, before = self.c, self.log_likelihood(rows)
            for _ in range(40):
                self.c = [c + d for c, d in zip(old, step)]
                if self.log_likelihood(rows) >= before:
                    break
                step = [d / 2 for d in step]
            if max(abs(d) for d in step) < 1e-7:
                break
        self.cov = inverse(h)

    def log_likelihood(self, rows):
        total = 0.0
        for s, opp, w, d, l in rows:
            z = -self.diff(s, opp) / 400 * math.log(10)
            # log p and log(1 - p) for p = 1 / (1 + e^z), without overflow
            log_p = -max(z, 0) - math.log1p(math.exp(-abs(z)))
            log_q = log_p + z
            total += (w + d / 2) * log_p + (l + d / 2) * log_q
        return total

    def diff(self, s, opp):
        """Expected Elo difference between setting s and its opponent."""
        return self.elo(s) - (self.elo(-opp) if opp < 0 else opp)

    def features(self, s, opp):
        """Derivative of diff(s, opp) with respect to each coefficient."""
        x = self.basis(s)
        if opp < 0:
            x = [a - b for a, b in zip(x, self.basis(-opp))]
        return x

    def basis(self, s):
        x = (s - self.centre) / self.scale
        return [x ** i for i in range(len(self.c))]

    def elo(self, s):
        return sum(c * x for c, x in zip(self.c, self.basis(s)))

    def half_width(self, s):
        x = self.basis(s)
        var = sum(x[i] * self.cov[i][j] * x[j] for i in range(len(x)) for j in range(len(x)))
        return 1.96 * math.sqrt(var)

    def setting_for(self, elo, lo=200, hi=2600):
        for _ in range(60):  # bisection: the curve rises over the schedule
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if self.elo(mid) < elo else (lo, mid)
        return (lo + hi) / 2

def point_elo(opp, w, d, l):
    n = w + d + l
    s = min(max((w + d / 2) / n, 0.5 / n), 1 - 0.5 / n)
    return opp - 400 * math.log10(1 / s - 1)

def main():
    args = sys.argv[1:]
    degree = 2
    if "--degree" in args:
        i = args.index("--degree")
        degree = int(args[i + 1])
        del args[i:i + 2]
    rows = read(args[0])
    curve = Curve(rows, degree)
    games = sum(sum(r[2:]) for r in rows)
    print(f"{len(rows)} matches, {games:.0f} games, degree {degree}")
    for s, opp, w, d, l in rows:
        name, opp_elo = (f"setting {-opp:.0f}", curve.elo(-opp)) if opp < 0 else (f"{opp:.0f}", opp)
        print(f"  setting {s:.0f} vs {name}: {w:.0f}-{d:.0f}-{l:.0f}, alone "
              f"≈ {point_elo(opp_elo, w, d, l):.0f}; curve {curve.elo(s):.0f} ± {curve.half_width(s):.0f}")
    # The settings the games span: the curve is read there and nowhere else.
    lo = 200 * math.floor(min(r[0] for r in rows) / 200)
    hi = 200 * math.ceil(max(r[0] for r in rows) / 200)
    for s in range(lo, hi + 1, 100 if hi - lo <= 800 else 200):
        print(f"  curve at {s}: {curve.elo(s):.0f} ± {curve.half_width(s):.0f}")
    for t in args[1:]:
        print(f"  target {float(t):.0f}: setting {curve.setting_for(float(t), lo, hi):.0f}")

if __name__ == "__main__":
    main()
