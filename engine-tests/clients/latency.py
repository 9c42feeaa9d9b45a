#!/usr/bin/env python3
"""Measures UCI responsiveness of a Fission binary (a measurement, not a test):
time from process start to `uciok`, and from `stop` to `bestmove` during
`go infinite` (medians over many runs).

Usage: latency.py PATH_TO_FISSION [RUNS]
"""
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


def main():
    path = sys.argv[1]
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 30
    startup = []
    for _ in range(runs):
        t = time.perf_counter()
        p = start(path)
        send(p, "uci")
        until(p, "uciok")
        startup.append(time.perf_counter() - t)
        send(p, "quit")
        p.wait()
    stops = {}
    for variant in ("chess", "atomic"):
        p = start(path)
        send(p, f"setoption name UCI_Variant value {variant}\nposition startpos")
        lat = []
        for _ in range(runs):
            send(p, "go infinite")
            time.sleep(0.2)
            lat.append(timed(p, "stop", "bestmove"))
        send(p, "quit")
        p.wait()
        stops[variant] = lat
    ms = lambda xs: f"median {statistics.median(xs) * 1000:.2f} ms, max {max(xs) * 1000:.2f} ms"
    print(f"start to uciok ({runs} runs): {ms(startup)}")
    for v, lat in stops.items():
        print(f"stop to bestmove, {v} go infinite ({runs} runs): {ms(lat)}")


if __name__ == "__main__":
    main()
