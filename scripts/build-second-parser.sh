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
mkdir -p "$work/build" "$work/gopath/src/mvdan.cc/sh/v3"
cp "$out/go/main.go" "$out/go/linkname.s" "$work/build/"
# One change to Debian's mvdan.cc/sh, to memory only: Parser.reset drops the node batches it
# allocates (64 literals, 32 words, statements and calls), so every parse of a short command
# allocated and zeroed ~10 KiB, a third of its time. Kept, a batch's unused nodes (still zero)
# serve the next parse; the trees themselves are unchanged. The copy earlier in GOPATH wins.
syntax="$work/gopath/src/mvdan.cc/sh/v3/syntax"
cp -r /usr/share/gocode/src/mvdan.cc/sh/v3/syntax "$syntax"
reset='^[[:space:]]+p\.(lit|word|stmt|call)Batch = nil$'
if [ "$(grep -cE "$reset" "$syntax/parser.go" || true)" != 4 ]; then
  echo "mvdan.cc/sh's Parser.reset is not the one reviewed (4 batch resets expected): review the patch" >&2
  exit 1
fi
sed -i -E "/$reset/d" "$syntax/parser.go"
(cd "$work/build" && GO111MODULE=off GOPATH="$work/gopath:/usr/share/gocode" GOOS=js GOARCH=wasm \
  go build -trimpath -ldflags="-s -w" -o "$out/mvdan-sh.wasm" .)
cp "$(go env GOROOT)/misc/wasm/wasm_exec.js" "$out/wasm_exec.cjs"
echo "built $out/mvdan-sh.wasm with $(go version) and golang-mvdan-sh-dev $(dpkg-query -W -f='${Version}' golang-mvdan-sh-dev)"
