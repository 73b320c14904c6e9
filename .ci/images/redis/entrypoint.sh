#!/bin/sh
# As the official image: redis-server without a configuration file answers on the network
# (protected mode off: the stack's network is its only way in), as the user redis.
set -eu
if [ "${1:-}" = redis-server ]; then
  shift
  set -- redis-server --protected-mode no "$@"
fi
exec setpriv --reuid=redis --regid=redis --init-groups "$@"
