#!/usr/bin/env python3
"""Measures UCI responsiveness of a Fission binary (a measurement, not a test):
time from process start to `uciok`, and from `stop` to `bestmove` during
`go infinite` at several thread counts (median, 99th percentile, worst).

Usage: latency.py PATH_TO_FISSION [RUNS] [THREADS,...]

RUNS defaults to 30 and THREADS to 1,2,16,256. The stop is sent after a
random 50-400 ms of search (seeded, so two runs send the same schedule).
"""
import random
import statistics
import subprocess
import sys
import time


def start(path):
    return subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)


def send(p, text):
    p.stdin.write(text + "\n")
    p.stdin.flush()


def timed(p, command, answer):
    """Seconds from sending `command` to the line starting with `answer`."""
    t = time.perf_counter()
    send(p, command)
    until(p, answer)
    return time.perf_counter() - t


def until(p, prefix):
    while True:
        line = p.stdout.readline()
        if not line:
            raise RuntimeError("engine closed its output")
        if line.startswith(prefix):
            return line


def summary(xs):
    xs = sorted(xs)
    p99 = xs[min(len(xs) - 1, int(round(0.99 * (len(xs) - 1))))]
    return f"median {statistics.median(xs) * 1000:7.2f} ms   p99 {p99 * 1000:7.2f} ms   worst {xs[-1] * 1000:7.2f} ms"


def main():
    path = sys.argv[1]
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 30
    thread_counts = [int(t) for t in sys.argv[3].split(",")] if len(sys.argv) > 3 else [1, 2, 16, 256]
    rng = random.Random(1)
    startup = []
    for _ in range(runs):
        t = time.perf_counter()
        p = start(path)
        send(p, "uci")
        until(p, "uciok")
        startup.append(time.perf_counter() - t)
        send(p, "quit")
        p.wait()
    print(f"start to uciok ({runs} runs): {summary(startup)}")
    for threads in thread_counts:
        for variant in ("chess", "atomic"):
            p = start(path)
            send(p, f"setoption name UCI_Variant value {variant}\nsetoption name Threads value {threads}")
            send(p, "position startpos")
            timed(p, "isready", "readyok")
            lat = []
            for _ in range(runs):
                send(p, "go infinite")
                time.sleep(rng.uniform(0.05, 0.4))
                lat.append(timed(p, "stop", "bestmove"))
            send(p, "quit")
            p.wait()
            print(f"stop to bestmove, Threads {threads:3}, {variant:6} go infinite ({runs} runs): {summary(lat)}", flush=True)


if __name__ == "__main__":
    main()
