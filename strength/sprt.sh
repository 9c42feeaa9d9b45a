#!/usr/bin/env bash
# SPRT between two builds of Fission, self-play, atomic, on the balanced
# openings (each played with both colours). Stops when H0 or H1 is accepted
# or after MAX_GAMES games; prints W/L/D, Elo +/- 95% error and the
# pentanomial counts with the log-likelihood ratio at the end.
#
#   strength/sprt.sh NEW OLD [TC] [ELO0] [ELO1] [extra fission match arguments...]
#   strength/sprt.sh ./fission-new ./fission-old 8+0.08 0 10
#   strength/sprt.sh ./fission-new ./fission-old 3+0.03 0 20     # a quick screen
#
# Build the two binaries first, e.g.:
#   git stash; cargo build --release; cp target/release/fission /tmp/fission-old
#   git stash pop; cargo build --release; cp target/release/fission /tmp/fission-new
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
if [ $# -lt 2 ]; then
  sed -n '2,13p' "$0" >&2
  exit 2
fi
new="$1"; old="$2"
tc="${3:-8+0.08}"; elo0="${4:-0}"; elo1="${5:-10}"
shift $(( $# > 5 ? 5 : $# ))
mkdir -p "$here/results"
pgn="$here/results/sprt-$(date +%Y%m%d-%H%M%S)-$$.pgn"
echo "SPRT $new vs $old at $tc, elo0=$elo0 elo1=$elo1; PGN: $pgn" >&2
exec "$new" match --variant atomic --engine "$new" --engine "$old" \
  --openings "$here/atomic-openings.epd" --games "${MAX_GAMES:-20000}" --tc "$tc" \
  --concurrency "${CONCURRENCY:-2}" --option Hash=32 --option Threads=1 \
  --sprt "elo0=$elo0,elo1=$elo1,alpha=0.05,beta=0.05" --pgn "$pgn" "$@"
