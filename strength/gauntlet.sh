#!/usr/bin/env bash
# Gauntlet: Fission against one or more opponents, atomic, every opening of
# strength/atomic-openings.epd played with both colours. Prints W/L/D and
# Elo +/- 95% error for each opponent at the end.
#
#   strength/gauntlet.sh [GAMES] [TC] [--opponent CMD [--opponent-option NAME=VALUE]...]... [match arguments...]
#
#   strength/gauntlet.sh 200 5+0.05                   # the npm Fairy-Stockfish (default)
#   strength/gauntlet.sh 100 10+0.1 --opponent /opt/stormphrax-atomic
#   strength/gauntlet.sh 100 10+0.1 --opponent /opt/mvsf/stockfish --opponent-option "Use NNUE=false"
#   FISSION=./fission-old strength/gauntlet.sh 100 5+0.05 --option Threads=2
#
# GAMES is per opponent. An opponent is any UCI command line (split on
# whitespace); each --opponent-option applies to the opponent named just
# before it. `fsf-wasm` names the npm Fairy-Stockfish, installed on first use
# (about 3x slower than a native build, so equal time handicaps it: say so
# wherever results are reported). With no --opponent the opponent is
# $FSF_CMD if set, else fsf-wasm. Every other argument goes to
# `fission match` (e.g. --option Hash=64, --timemargin 50, --seed 3).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
games="${1:-200}"
tc="${2:-5+0.05}"
shift $(( $# > 2 ? 2 : $# ))

fsf_wasm() {
  local dir="$here/.fsf-wasm"
  local js="$dir/node_modules/fairy-stockfish-nnue.wasm/uci.js"
  if [ ! -f "$js" ]; then
    mkdir -p "$dir"
    npm install --prefix "$dir" --silent --no-audit --no-fund fairy-stockfish-nnue.wasm@1.1.12 >&2
  fi
  # node 20 would fetch() the .wasm by URL and fail on a file path; this flag makes it read the file.
  echo "node --no-experimental-fetch $js"
}

opponents=()   # --engine/--engine-option pairs for fission match
rest=()
names=()
while [ $# -gt 0 ]; do
  case "$1" in
    --opponent)
      [ $# -ge 2 ] || { echo "gauntlet.sh: --opponent needs a command" >&2; exit 2; }
      cmd="$2"
      [ "$cmd" = fsf-wasm ] && cmd="$(fsf_wasm)"
      opponents+=(--engine "$cmd"); names+=("$cmd"); shift 2 ;;
    --opponent-option)
      [ $# -ge 2 ] || { echo "gauntlet.sh: --opponent-option needs NAME=VALUE" >&2; exit 2; }
      [ ${#names[@]} -gt 0 ] || { echo "gauntlet.sh: --opponent-option before any --opponent" >&2; exit 2; }
      opponents+=(--engine-option "$2"); shift 2 ;;
    *) rest+=("$1"); shift ;;
  esac
done
if [ ${#names[@]} -eq 0 ]; then
  cmd="${FSF_CMD:-$(fsf_wasm)}"
  opponents=(--engine "$cmd"); names=("$cmd")
fi

if [ -z "${FISSION:-}" ]; then
  (cd "$root" && cargo build --release --locked --quiet)
  FISSION="$root/target/release/fission"
fi
mkdir -p "$here/results"
pgn="$here/results/gauntlet-$(date +%Y%m%d-%H%M%S)-$$.pgn"
echo "Fission: $FISSION; opponents: ${names[*]}; $games games each at $tc; PGN: $pgn" >&2
exec "$FISSION" match --gauntlet --variant atomic \
  --engine "$FISSION" "${opponents[@]}" \
  --openings "$here/atomic-openings.epd" --games "$games" --tc "$tc" \
  --concurrency "${CONCURRENCY:-2}" --option Hash=32 --option Threads=1 \
  --pgn "$pgn" ${rest[@]+"${rest[@]}"}
