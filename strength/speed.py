#!/usr/bin/env python3
"""Search speed of each variant from its start position, in one run.

For every variant given (default: atomic, then dynamo) the engine is started
fresh, set to that variant with the given Hash and Threads, and searches the
start position for a fixed time (`go movetime MS`) or to a fixed depth
(`go depth D`). The last `info` line with `nps` gives the speed and the depth
completed. With two or more variants the script also prints each variant's
nodes/s as a fraction of the first one's.

    strength/speed.py                                  # atomic and dynamo, movetime 3000
    strength/speed.py --engine target/release/fission --variants atomic dynamo chess push
    strength/speed.py --depth 10 --variants dynamo

Run it on an otherwise idle machine: nodes/s depend on what else runs.
"""

import argparse
import subprocess
import sys


def measure(engine, variant, hash_mb, threads, go):
    proc = subprocess.Popen(
        [engine],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        bufsize=1,
    )

    def send(line):
        proc.stdin.write(line + "\n")
        proc.stdin.flush()

    def wait_for(token):
        for line in proc.stdout:
            if line.split()[:1] == [token]:
                return line
        raise RuntimeError(f"engine ended before '{token}'")

    send("uci")
    wait_for("uciok")
    send(f"setoption name UCI_Variant value {variant}")
    send(f"setoption name Hash value {hash_mb}")
    send(f"setoption name Threads value {threads}")
    send("ucinewgame")
    send("isready")
    wait_for("readyok")
    send("position startpos")
    send(go)
    last = None
    for line in proc.stdout:
        words = line.split()
        if not words:
            continue
        if words[0] == "info" and "nps" in words and "depth" in words:
            last = words
        if words[0] == "bestmove":
            break
    send("quit")
    proc.wait()
    if last is None:
        raise RuntimeError(f"{variant}: no info line with nps")
    depth = int(last[last.index("depth") + 1])
    nodes = int(last[last.index("nodes") + 1])
    nps = int(last[last.index("nps") + 1])
    return depth, nodes, nps


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", default="target/release/fission")
    parser.add_argument("--variants", nargs="+", default=["atomic", "dynamo"])
    parser.add_argument("--hash", type=int, default=64)
    parser.add_argument("--threads", type=int, default=1)
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--movetime", type=int, default=3000, help="ms per search")
    group.add_argument("--depth", type=int, help="search to this depth instead")
    args = parser.parse_args()

    go = f"go depth {args.depth}" if args.depth else f"go movetime {args.movetime}"
    print(f"{args.engine}: {go}, Hash {args.hash}, Threads {args.threads}")
    base = None
    for variant in args.variants:
        depth, nodes, nps = measure(args.engine, variant, args.hash, args.threads, go)
        line = f"{variant:8} depth {depth:3}  nodes {nodes:11,}  nodes/s {nps:10,}"
        if base is None:
            base = nps
        else:
            line += f"  ratio to {args.variants[0]} {nps / base:.3f}"
        print(line)
        sys.stdout.flush()


if __name__ == "__main__":
    main()
