# Sourced (not run) by the scripts that install a Debian package the tests
# need: poppler.sh, gnuchess-book.sh, stockfish.sh, chromium.sh, nginx.sh.

# apt_install PACKAGE...: installs the packages (no recommends, quietly) with
# apt-get, as root or through `sudo -n` (which never asks for a password).
apt_install() {
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo -n"; fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}
