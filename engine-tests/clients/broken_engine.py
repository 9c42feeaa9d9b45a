#!/usr/bin/env python3
"""A deliberately broken UCI engine for the match runner's tests.

  broken_engine.py illegal   answers every `go` with an illegal move
  broken_engine.py crash     exits at the first `go`
  broken_engine.py hang      never answers `go` (loses on time)
  broken_engine.py late      answers `go` with an illegal move, a second
                             later (loses on time, the answer comes when the
                             next game may have begun)
  broken_engine.py dying F   the first process (while file F does not
                             exist) closes its output at the first `go` and
                             lives on for two seconds before it exits, as a
                             crashed engine does while its core is dumped;
                             later processes answer `go` with illegal moves
"""
import os
import sys
import threading
import time

mode = sys.argv[1] if len(sys.argv) > 1 else "illegal"
if mode == "dying":
    marker = sys.argv[2]
    if os.path.exists(marker):
        mode = "illegal"
    else:
        open(marker, "w").close()
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
        elif mode == "late":
            threading.Timer(1.0, lambda: print("bestmove a1a1", flush=True)).start()
        elif mode == "crash":
            sys.exit(3)
        elif mode == "dying":
            sys.stdout.close()
            os.close(1)
            time.sleep(2)
            sys.exit(3)
    elif cmd[0] == "quit":
        break
