#!/usr/bin/env bash
# Refreshes the browser libraries vendored under crates/escaque-server/web/vendor/
# from the npm registry (needs `npm` only when run; building and running escaque
# never needs Node.js). Usage: scripts/vendor-web.sh [CHESSGROUND_VERSION]
set -euo pipefail
version="${1:-9.2.1}"
root="$(cd "$(dirname "$0")/.." && pwd)"
dest="$root/crates/escaque-server/web/vendor/chessground"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
npm pack --silent "chessground@$version" >/dev/null
tar xzf chessground-*.tgz
mkdir -p "$dest"
cp package/dist/chessground.min.js "$dest/chessground.min.js"
cp package/assets/chessground.base.css "$dest/chessground.base.css"
# cburnett pieces (GPL-2.0-or-later, Colin M.L. Burnett), shipped by chessground as data URIs.
cp package/assets/chessground.cburnett.css "$dest/chessground.cburnett.css"
cp package/LICENSE "$dest/LICENSE"
{
  echo "chessground $version (npm registry, package/dist/chessground.min.js and package/assets/)"
  echo "licence: $(node -e 'console.log(require("./package/package.json").license)' 2>/dev/null || echo GPL-3.0-or-later)"
  echo "sha256:"
  (cd "$dest" && sha256sum chessground.min.js chessground.base.css chessground.cburnett.css)
  echo "Pieces: cburnett by Colin M.L. Burnett, GPL-2.0-or-later (https://commons.wikimedia.org/wiki/Category:SVG_chess_pieces)."
} > "$dest/VERSION"
echo "vendored chessground $version into $dest"
