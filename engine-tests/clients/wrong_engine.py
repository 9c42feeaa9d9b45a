#!/usr/bin/env python3
"""A UCI engine whose `go perft` is deliberately wrong, for `fission perft-diff`'s tests.

It counts perft itself, asking a real Fission (the oracle) for the legal moves
of every position it visits, and falsifies the list at one position:

  wrong_engine.py ORACLE [--at M1/M2/...] [--drop MOVE] [--add MOVE]
                  [--style stockfish|perftree] [--castle960] [--crash] [--hang]

  --at      the position, as the moves from the root of `position` ('/'-separated;
            empty = the root itself)
  --drop    leave this move out of the list there
  --add     list this (illegal) move there too; the position after it has no moves
  --style   divide format: `move: count` + `Nodes searched: N` (stockfish) or
            `move count`, blank line, `N` (perftree)
  --castle960  write castling as king takes rook (e1h1)
  --crash   exit at the first `go`;  --hang: never answer `go`
"""
import subprocess
import sys

args = sys.argv[1:]
oracle_cmd = args.pop(0)
opts = {"--at": "", "--drop": None, "--add": None, "--style": "stockfish"}
flags = set()
while args:
    a = args.pop(0)
    if a in opts:
        opts[a] = args.pop(0)
    else:
        flags.add(a)
at = [m for m in opts["--at"].split("/") if m]

oracle = subprocess.Popen([oracle_cmd], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)


def ask(line):
    oracle.stdin.write(line + "\n")
    oracle.stdin.flush()


def legal(root, path):
    """The oracle's legal moves after `root` (a `position` command) and `path`."""
    if opts["--add"] and opts["--add"] in path:
        return []
    ask(root + (" moves " + " ".join(path) if path else ""))
    ask("go perft 1")
    moves = []
    for line in oracle.stdout:
        line = line.strip()
        if line.startswith("Nodes searched"):
            break
        if ":" in line:
            moves.append(line.rsplit(":", 1)[0].strip())
    if path == at:
        if opts["--drop"] in moves:
            moves.remove(opts["--drop"])
        if opts["--add"]:
            moves.append(opts["--add"])
    return moves


def perft(root, path, depth):
    moves = legal(root, path)
    if depth == 1:
        return len(moves)
    return sum(perft(root, path + [m], depth - 1) for m in moves)


CASTLE960 = {"e1g1": "e1h1", "e1c1": "e1a1", "e8g8": "e8h8", "e8c8": "e8a8"}
UNSPELL = {v: k for k, v in CASTLE960.items()}


def spell(m):
    # King moves from e1/e8 two files over are castling in the standard
    # setups this test engine is used with.
    return CASTLE960.get(m, m) if "--castle960" in flags else m


root, base = "position startpos", []
for line in sys.stdin:
    cmd = line.split()
    if not cmd:
        continue
    if cmd[0] == "uci":
        print("id name WrongPerft")
        print("option name UCI_Variant type combo default chess var chess var atomic var dynamo var push")
        print("uciok", flush=True)
    elif cmd[0] == "setoption":
        ask(line.strip())
    elif cmd[0] == "isready":
        ask("isready")
        for l in oracle.stdout:
            if l.strip() == "readyok":
                break
        print("readyok", flush=True)
    elif cmd[0] == "position":
        text = line.strip()
        if " moves " in text:
            root, moves = text.split(" moves ", 1)
            base = moves.split()
            if "--castle960" in flags:
                base = [UNSPELL.get(m, m) for m in base]
        else:
            root, base = text, []
    elif cmd[0] == "go" and len(cmd) >= 3 and cmd[1] == "perft":
        if "--crash" in flags:
            sys.exit(3)
        if "--hang" in flags:
            continue
        depth = int(cmd[2])
        total = 0
        for m in legal(root, base):
            n = 1 if depth == 1 else perft(root, base + [m], depth - 1)
            total += n
            sep = ":" if opts["--style"] == "stockfish" else ""
            print(f"{spell(m)}{sep} {n}")
        print()
        print(f"Nodes searched: {total}" if opts["--style"] == "stockfish" else str(total), flush=True)
    elif cmd[0] == "quit":
        break
ask("quit")
