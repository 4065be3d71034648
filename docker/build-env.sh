#!/bin/sh
# Sourced by the Dockerfile's build stages before each step that reaches a registry (never in the final image):
# trust the CA certificates the build was given in docker/ca/, and use the mirrors it was told to use.
set -e
extra=$(find /tmp/kb-ca -maxdepth 1 -type f \( -name '*.pem' -o -name '*.crt' \) 2>/dev/null | sort)
if [ -n "$extra" ]; then
  bundle=/tmp/kb-ca/bundle.crt
  if [ ! -s "$bundle" ]; then
    # the image's own roots (when it has them) and the given ones: each tool below replaces its roots with this file
    { cat /etc/ssl/certs/ca-certificates.crt 2>/dev/null || true; for f in $extra; do cat "$f"; echo; done; } >"$bundle"
  fi
  export SSL_CERT_FILE="$bundle" PIP_CERT="$bundle" REQUESTS_CA_BUNDLE="$bundle" CURL_CA_BUNDLE="$bundle" \
         NODE_EXTRA_CA_CERTS="$bundle" npm_config_cafile="$bundle" GIT_SSL_CAINFO="$bundle"
fi
if [ -n "${NPM_REGISTRY:-}" ]; then export npm_config_registry="$NPM_REGISTRY"; fi
# an empty build argument means "the tool's default", not an empty setting
for name in PIP_INDEX_URL npm_config_registry GOPROXY GOSUMDB; do
  eval "value=\${$name:-}"
  if [ -z "$value" ]; then unset "$name"; else export "$name"; fi
done
if [ -n "${APT_MIRROR:-}" ]; then
  # Debian's images list deb.debian.org (and its security suite beside it) in debian.sources or sources.list
  for f in /etc/apt/sources.list.d/debian.sources /etc/apt/sources.list; do
    [ -f "$f" ] && sed -i "s#http://deb.debian.org/debian#${APT_MIRROR%/}#g" "$f"
  done
fi
if [ -n "$extra" ] && [ -d /etc/apt/apt.conf.d ]; then
  echo "Acquire::https::CaInfo \"$bundle\";" >/etc/apt/apt.conf.d/99kb-build-ca
fi
