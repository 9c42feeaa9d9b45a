#!/usr/bin/env bash
# Gauntlet: Fission against Fairy-Stockfish (the npm WebAssembly build,
# classical evaluation), atomic, every opening of strength/atomic-openings.epd
# played with both colours. Prints W/L/D and Elo +/- 95% error at the end.
#
#   strength/gauntlet.sh [GAMES] [TC] [extra fission match arguments...]
#   strength/gauntlet.sh 200 5+0.05
#   FISSION=./fission-old strength/gauntlet.sh 100 5+0.05 --option Threads=2
#
# The opponent runs about 3x slower than a native Fairy-Stockfish build, so
# equal time is a handicap for it: say so wherever results are reported.
# Set FSF_CMD to use another opponent (e.g. a native build).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
games="${1:-200}"
tc="${2:-5+0.05}"
shift $(( $# > 2 ? 2 : $# ))

if [ -z "${FISSION:-}" ]; then
  (cd "$root" && cargo build --release --locked --quiet)
  FISSION="$root/target/release/fission"
fi
fsf_dir="$here/.fsf-wasm"
if [ -z "${FSF_CMD:-}" ]; then
  js="$fsf_dir/node_modules/fairy-stockfish-nnue.wasm/uci.js"
  if [ ! -f "$js" ]; then
    mkdir -p "$fsf_dir"
    npm install --prefix "$fsf_dir" --silent --no-audit --no-fund fairy-stockfish-nnue.wasm@1.1.12 >&2
  fi
  # node 20 would fetch() the .wasm by URL and fail on a file path; this flag makes it read the file.
  FSF_CMD="node --no-experimental-fetch $js"
fi
mkdir -p "$here/results"
pgn="$here/results/gauntlet-$(date +%Y%m%d-%H%M%S)-$$.pgn"
echo "Fission: $FISSION; opponent: $FSF_CMD; $games games at $tc; PGN: $pgn" >&2
exec "$FISSION" match --gauntlet --variant atomic \
  --engine "$FISSION" --engine "$FSF_CMD" \
  --openings "$here/atomic-openings.epd" --games "$games" --tc "$tc" \
  --concurrency "${CONCURRENCY:-2}" --option Hash=32 --option Threads=1 \
  --pgn "$pgn" "$@"
