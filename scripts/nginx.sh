#!/usr/bin/env bash
# Installs Debian's nginx (nginx-light) for the test of the deployment
# behind nginx (crates/escaque-cli/tests/cluster_nginx.rs), if it is
# missing. Idempotent; needs apt-get (root or sudo). The test runs nginx as
# the user running it, from deploy/nginx/escaque.conf; it runs this script
# itself when /usr/sbin/nginx is missing.
set -euo pipefail
if [ -x /usr/sbin/nginx ]; then
  echo "nginx already installed: $(/usr/sbin/nginx -v 2>&1)"
  exit 0
fi
source "$(dirname "${BASH_SOURCE[0]}")/lib-apt.sh"
apt_install nginx-light
# Where a service manager runs, the package also starts a system nginx on
# port 80; the tests never use it (each starts its own on a free port).
echo "installed: $(/usr/sbin/nginx -v 2>&1)"
