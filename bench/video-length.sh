#!/usr/bin/env bash
# Long session videos: the video end-to-end check (test/e2e/df/df-video.e2e.spec.ts) on a Chromium
# device recorded for 2 and for 15 minutes (the same assertions: one H.264 MP4, duration within 1 s of
# the recording, at least 24 frames a second, the frame at a chosen second, ranges, <video> seeking), and
# an Android device's host killed 60 s into its recording leaving a playable video of at least 58 s.
# Usage: bash bench/video-length.sh [seconds...]   (default: 120 900)
set -euo pipefail
cd "$(dirname "$0")/.."
for seconds in "${@:-120 900}"; do
  for s in $seconds; do
    echo "== a ${s} s session video"
    # The Android host killed 60 s into its recording as well (at least 50 s must be left).
    VIDEO_RECORD_SECONDS="$s" VIDEO_KILL_SECONDS=60 npx vitest run test/e2e/df/df-video.e2e.spec.ts
  done
done
