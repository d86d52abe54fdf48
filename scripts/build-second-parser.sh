#!/bin/sh
# Rebuilds policy/second-parser/mvdan-sh.wasm, the classifier's second bash parser: mvdan.cc/sh/v3
# (syntax package, bash mode) compiled to WebAssembly with policy/second-parser/go/main.go.
# Everything comes from Debian packages (no Go module download): golang-go and
# golang-mvdan-sh-dev. Run as root on Debian (apt-get); the wasm is committed, so neither the tests
# nor `oikos start` need Go. Also copies Go's wasm_exec.js, which must match the compiler.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
out="$root/policy/second-parser"
if [ ! -x /usr/bin/go ] || [ ! -d /usr/share/gocode/src/mvdan.cc/sh/v3/syntax ]; then
  DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -qq golang-go golang-mvdan-sh-dev
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$out/go/main.go" "$out/go/linkname.s" "$work/"
(cd "$work" && GO111MODULE=off GOPATH=/usr/share/gocode GOOS=js GOARCH=wasm \
  go build -trimpath -ldflags="-s -w" -o "$out/mvdan-sh.wasm" .)
cp "$(go env GOROOT)/misc/wasm/wasm_exec.js" "$out/wasm_exec.cjs"
echo "built $out/mvdan-sh.wasm with $(go version) and golang-mvdan-sh-dev $(dpkg-query -W -f='${Version}' golang-mvdan-sh-dev)"
