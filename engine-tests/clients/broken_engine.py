#!/usr/bin/env python3
"""A deliberately broken UCI engine for the match runner's tests.

  broken_engine.py illegal   answers every `go` with an illegal move
  broken_engine.py crash     exits at the first `go`
  broken_engine.py hang      never answers `go` (loses on time)
"""
import sys

mode = sys.argv[1] if len(sys.argv) > 1 else "illegal"
for line in sys.stdin:
    cmd = line.split()
    if not cmd:
        continue
    if cmd[0] == "uci":
        print(f"id name Broken-{mode}")
        print("option name UCI_Variant type combo default chess var chess var atomic")
        print("uciok", flush=True)
    elif cmd[0] == "isready":
        print("readyok", flush=True)
    elif cmd[0] == "go":
        if mode == "illegal":
            print("bestmove a1a1", flush=True)
        elif mode == "crash":
            sys.exit(3)
    elif cmd[0] == "quit":
        break
