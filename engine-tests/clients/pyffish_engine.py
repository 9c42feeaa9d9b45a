#!/usr/bin/env python3
"""Fairy-Stockfish's rules (through pyffish, from PyPI) behind a minimal UCI
`go perft`, so that `fission perft-diff` can compare against them.
Chess and atomic (the variants both programs know). Slow: depth 3 at most.

  pip install pyffish
  fission perft-diff --engine "python3 engine-tests/clients/pyffish_engine.py" --variant atomic --depth 3
"""
import sys

import pyffish as sf

variant, fen, moves = "chess", None, []


def perft(fen, depth):
    legal = sf.legal_moves(variant, fen, [])
    if depth == 1:
        return len(legal)
    return sum(perft(sf.get_fen(variant, fen, [m]), depth - 1) for m in legal)


for line in sys.stdin:
    cmd = line.split()
    if not cmd:
        continue
    if cmd[0] == "uci":
        print("id name pyffish " + ".".join(map(str, sf.version())))
        print("option name UCI_Variant type combo default chess var chess var atomic")
        print("uciok", flush=True)
    elif cmd[0] == "setoption" and "UCI_Variant" in cmd:
        variant = cmd[-1]
    elif cmd[0] == "isready":
        print("readyok", flush=True)
    elif cmd[0] == "position":
        rest = line.strip().split(" moves ", 1)
        head = rest[0].split(None, 2)
        fen = sf.start_fen(variant) if head[1] == "startpos" else head[2]
        moves = rest[1].split() if len(rest) > 1 else []
    elif cmd[0] == "go" and len(cmd) >= 3 and cmd[1] == "perft":
        depth = int(cmd[2])
        root = sf.get_fen(variant, fen, moves)
        total = 0
        for m in sf.legal_moves(variant, root, []):
            n = 1 if depth == 1 else perft(sf.get_fen(variant, root, [m]), depth - 1)
            total += n
            print(f"{m}: {n}")
        print()
        print(f"Nodes searched: {total}", flush=True)
    elif cmd[0] == "quit":
        break
