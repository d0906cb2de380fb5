#!/usr/bin/env python3
"""TRF files written by escaque, read by the reference programs (issues 62
and 64): the test data of crates/escaque-torneo/tests/exchange.rs.

  torneo_exchange.py make ESCAQUE OUTDIR [COUNT] [SEED]
      runs the escaque binary as an organiser would (torneo nuevo,
      inscribir, descanso, retirar, emparejar, resultado, exportar) to make
      COUNT (default 10) Swiss events; writes OUTDIR/eNN.escaque.trf (the
      tournament file with escaque's own XZ lines) and OUTDIR/eNN.trf (the
      FIDE TRF of `torneo exportar`). Every event has a pairing-allocated
      bye (odd number of players) or requested byes: half-point
      (`descanso --tipo medio`), full-point (`completo`) and zero-point
      (`cero`) byes are spread over the events, each event has results
      `+/-`, `-/+` and `-/-`, and most have a withdrawal (`retirar`) and a
      late entry. Events 1-5 start in 2025 (C.07 2024 rules by the date),
      6-10 in 2026 after 1 March (2026 rules).
  torneo_exchange.py bbp BBPPAIRINGS OUTDIR
      runs `bbpPairings --dutch eNN.trf -c` on every eNN.trf and writes
      what it printed and its exit status to eNN.bbp.
  torneo_exchange.py gacrux GACRUX_DIR OUTDIR
      runs Gacrux's tiebreakchecker in check mode on every eNN.trf, reading
      the file as UTF-8 (`-b utf-8`) and taking the tie-breaks from the
      file's own 202/212 lines, and writes its table (start number, rank,
      PTS and each tie-break) and `Check: True|False` (its ranks against
      the rank column escaque wrote) to eNN.gacrux.
"""
import os
import random
import re
import subprocess
import sys

NAMES = [
    "Núñez, Íñigo", "Peña Sáez, María José", "Gómez, Luis", "Ruiz, Eva",
    "Fernández Ortiz, Lucía", "Ibáñez, Martín", "Muñoz, Sofía", "Álvarez, Raúl",
    "Castaño, Inés", "Domínguez, Óscar", "Echeverría, Begoña", "Fuentes, Ángel",
    "García Lorca, Ana", "Hernández, José", "Iglesias, Nuria", "Jiménez, Tomás",
    "López, Belén", "Martínez, Jesús", "Navarro, Ainhoa", "Ortega, Adrián",
    "Pérez, Mónica", "Quintana, Héctor", "Rodríguez, Elena", "Sánchez, Iván",
    "Torres, Noemí", "Urrutia, Gorka", "Vázquez, Clara", "Zamora, Rubén",
]
LISTS = [
    "BH-C1,BH,SB,WIN,WON,BPG,ARO,PS,KS",
    "DE,BH-C1,BH,SB,WIN",
    "BH-M1,BH-C1,SB,PS,KS,WON",
    "SB,BH,BH-C1,BPG,WIN",
]


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({p.returncode}):\n{p.stdout}{p.stderr}")
    return p.stdout


def make(escaque, outdir, count=10, seed=64):
    os.makedirs(outdir, exist_ok=True)
    rng = random.Random(seed)
    for n in range(1, count + 1):
        f = os.path.join(outdir, f"e{n:02d}.escaque.trf")
        if os.path.exists(f):
            os.remove(f)
        players = rng.randrange(9, 24) | 1 if n % 3 else rng.randrange(10, 24)
        rounds = rng.randrange(5, 9)
        unrated = n in (8, 9)
        tbs = LISTS[n % len(LISTS)]
        if unrated:
            tbs = tbs.replace(",ARO", "")
        date = f"2025/{rng.randrange(1, 13):02d}/{rng.randrange(1, 29):02d}" if n <= 5 \
            else f"2026/{rng.randrange(3, 12):02d}/{rng.randrange(1, 29):02d}"
        run([escaque, "torneo", "nuevo", f, "--nombre", f"Abierto de Peñíscola {n}",
             "--rondas", str(rounds), "--desempates", tbs, "--fecha", date,
             "--lugar", "Peñíscola"])
        names = rng.sample(NAMES, len(NAMES))
        late = n % 4 != 0

        def enrol(i):
            args = [escaque, "torneo", "inscribir", f, names[i], "--club", f"Club {i % 5 + 1}"]
            if not (unrated and i % 4 == 1):
                args += ["--elo", str(rng.randrange(1200, 2400))]
            run(args)

        for i in range(players):
            enrol(i)
        enrolled = players
        withdrawn = set()
        withdraw_at = rng.randrange(3, rounds + 1) if n % 5 else None
        forfeits = ["+/-", "-/+", "-/-"]
        for r in range(1, rounds + 1):
            if late and r == 2:
                enrol(enrolled)
                enrolled += 1
            if withdraw_at == r:
                p = rng.randrange(1, enrolled + 1)
                run([escaque, "torneo", "retirar", f, str(p), "--desde", str(r)])
                withdrawn.add(p)
            # Requested byes for this round, each kind somewhere in the set.
            for kind in ["medio", "completo", "cero"]:
                if rng.random() < {"medio": 0.5, "completo": 0.2, "cero": 0.3}[kind] \
                        and r < rounds:
                    p = rng.randrange(1, enrolled + 1)
                    if p in withdrawn:
                        continue
                    subprocess.run([escaque, "torneo", "descanso", f, str(p), str(r),
                                    "--tipo", kind], capture_output=True, text=True)
            out = run([escaque, "torneo", "emparejar", f])
            boards = len([l for l in out.splitlines() if re.match(r"^\s*\d+\.\s", l)])
            for b in range(1, boards + 1):
                if forfeits and r >= 2 and rng.random() < 0.4:
                    res = forfeits.pop(0)
                else:
                    x = rng.random()
                    res = "1-0" if x < 0.4 else "½-½" if x < 0.7 else "0-1"
                run([escaque, "torneo", "resultado", f, str(r), str(b), res])
        # Any forfeit not yet entered goes to the last round's first boards.
        for b, res in enumerate(forfeits, start=1):
            run([escaque, "torneo", "resultado", f, str(rounds), str(b), res])
        run([escaque, "torneo", "exportar", f, "--trf", os.path.join(outdir, f"e{n:02d}.trf")])
        print(f"e{n:02d}: {enrolled} players, {rounds} rounds, {date}, {tbs}")


def events(outdir):
    return sorted(x[:-4] for x in os.listdir(outdir)
                  if re.fullmatch(r"e\d\d\.trf", x))


def bbp(binary, outdir):
    for e in events(outdir):
        p = subprocess.run([binary, "--dutch", os.path.join(outdir, e + ".trf"), "-c"],
                           capture_output=True, text=True)
        with open(os.path.join(outdir, e + ".bbp"), "w") as out:
            out.write(p.stdout + p.stderr + f"exit {p.returncode}\n")
        print(e, "exit", p.returncode, (p.stdout + p.stderr).strip()[:200])


def gacrux(gdir, outdir):
    for e in events(outdir):
        src = os.path.abspath(os.path.join(outdir, e + ".trf"))
        p = subprocess.run([sys.executable, "tiebreakchecker.py", "-i", src, "-b", "utf-8",
                            "-c", "-d", "B"], capture_output=True, text=True, cwd=gdir)
        with open(os.path.join(outdir, e + ".gacrux"), "w") as out:
            out.write(p.stdout + p.stderr)
        print(e, p.stdout.strip().splitlines()[-1:] if p.stdout else p.stderr[-300:])


if __name__ == "__main__":
    a = sys.argv[1:]
    if a[:1] == ["make"] and len(a) >= 3:
        make(a[1], a[2], *(int(x) for x in a[3:5]))
    elif a[:1] == ["bbp"] and len(a) == 3:
        bbp(a[1], a[2])
    elif a[:1] == ["gacrux"] and len(a) == 3:
        gacrux(a[1], a[2])
    else:
        sys.exit(__doc__)
