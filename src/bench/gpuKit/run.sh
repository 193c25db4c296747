#!/usr/bin/env bash
# Runs the GPU bench from the kit (.gpukit, made by pack.sh) on this machine's GPU, with no Node, Chromium
# or network needed here: the engine in-process in the kit's Node on Dawn's WebGPU (Vulkan), then PyTorch's
# same step on CUDA when python3 has a torch that sees the GPU. Arguments go to the bench (gpu.bench.ts):
#   bash src/bench/gpuKit/run.sh --presets tiny,small,paper@256,paper@512 --seconds 20
set -euo pipefail
cd "$(dirname "$0")/../../.."
kit=$PWD/.gpukit
if [ ! -f "$kit/runtime.tar.xz" ]; then
  echo "No GPU kit in $kit: make it with 'npm run gpu-kit' on a machine with npm, then bring .gpukit along." >&2
  exit 2
fi
rt=${TMPDIR:-/tmp}/eorm-gpukit
rm -rf "$rt" && mkdir -p "$rt"
if command -v xz >/dev/null; then
  xz -dc "$kit/runtime.tar.xz" | tar xf - -C "$rt"
else
  python3 -c 'import lzma, sys, tarfile; tarfile.open(fileobj=lzma.open(sys.argv[1])).extractall(sys.argv[2])' "$kit/runtime.tar.xz" "$rt"
fi
# The Vulkan loader and the driver's own needs: the system's, else the kit's, unpacked beside the runtime
# (not into /); only the libraries the system lacks are put on the library path.
mkdir -p "$rt/sys" "$rt/lib"
for deb in "$kit"/debs/*.deb; do
  [ -f "$deb" ] || continue
  if command -v dpkg-deb >/dev/null; then dpkg-deb -x "$deb" "$rt/sys"; else (cd "$rt/sys" && ar p "$deb" data.tar.xz | xz -dc | tar xf -); fi
done
have=$(ldconfig -p 2>/dev/null || true)
for so in "$rt"/sys/usr/lib/x86_64-linux-gnu/*.so.[0-9]; do
  [ -e "$so" ] || continue
  grep -q "^[[:space:]]$(basename "$so") " <<<"$have" || ln -sf "$so" "$rt/lib/"
done
if [ -n "$(ls "$rt/lib")" ]; then
  echo "gpu-kit: from the kit: $(ls "$rt/lib" | tr '\n' ' ')"
  export LD_LIBRARY_PATH="$rt/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-$rt}
export EORM_PYTHON_DIR=$PWD/python
echo "gpu-kit: $(tr '\n' ' ' <"$kit/VERSION")"
loader=$(grep -o '/[^ ]*libvulkan\.so\.1$' <<<"$have" | head -1 || true)
echo "gpu-kit: Vulkan loader ${loader:-from the kit}"
command -v nvidia-smi >/dev/null && nvidia-smi -L || true

# Which Vulkan driver gives Dawn an adapter: the one asked for (VK_DRIVER_FILES / VK_ICD_FILENAMES), else
# the loader's own search, then NVIDIA's driver where containers mount it (/usr/local/nvidia), through
# its GLX library and then its EGL one (GLX needs more of a display stack; EGL is NVIDIA's headless path).
nv=/usr/local/nvidia
base_ld=${LD_LIBRARY_PATH:-}
candidates=("asked-or-default")
if [ -z "${VK_DRIVER_FILES:-}${VK_ICD_FILENAMES:-}" ] && [ -f "$nv/share/vulkan/icd.d/nvidia_icd.json" ]; then
  sed 's/libGLX_nvidia\.so\.0/libEGL_nvidia.so.0/' "$nv/share/vulkan/icd.d/nvidia_icd.json" >"$rt/nvidia_egl_icd.json"
  candidates+=("$nv/share/vulkan/icd.d/nvidia_icd.json" "$rt/nvidia_egl_icd.json")
fi
use() { # a candidate's environment
  if [ "$1" = asked-or-default ]; then return; fi
  export VK_DRIVER_FILES=$1 LD_LIBRARY_PATH="$nv/lib64:$nv/lib${base_ld:+:$base_ld}"
}
# A driver whose library cannot be loaded is the usual cause of "Found no drivers": show what it lacks.
why() {
  for icd in $(echo "${VK_DRIVER_FILES:-${VK_ICD_FILENAMES:-}}" | tr : " "); do
    lib=$(grep -o '"library_path"[^,]*' "$icd" 2>/dev/null | sed 's/.*: *"\(.*\)"/\1/' || true)
    [ -n "$lib" ] || continue
    case $lib in
      /*) path=$lib ;;
      */*) path=$(dirname "$icd")/$lib ;; # relative to the driver's json
      *)
        path=$(grep -o "/[^ ]*/$lib\$" <<<"$have" | head -1 || true)
        for d in ${LD_LIBRARY_PATH//:/ }; do [ -z "$path" ] && [ -e "$d/$lib" ] && path=$d/$lib; done
        ;;
    esac
    [ -e "$path" ] || path=
    missing=$( [ -n "$path" ] && ldd "$path" 2>/dev/null | grep 'not found' | tr -s ' \t\n' ' ' || true)
    echo "gpu-kit:   its library $lib: ${path:-not found}${missing:+; lacks$missing}"
  done
}
chosen= software=
for c in "${candidates[@]}"; do
  (
    use "$c"
    out=$(timeout 120 "$rt/bin/node" src/bench/gpuKit/adapter.mjs "$rt/webgpu" 2>&1 | tail -1) && rc=0 || rc=$?
    echo "gpu-kit: driver ${VK_DRIVER_FILES:-${VK_ICD_FILENAMES:-default search}}: $out"
    [ $rc -eq 0 ] || why
    exit $rc
  ) && rc=0 || rc=$?
  if [ $rc -eq 0 ]; then chosen=$c; break; fi
  if [ $rc -eq 3 ] && [ -z "$software" ]; then software=$c; fi
done
chosen=${chosen:-$software}
if [ -z "$chosen" ]; then
  echo "gpu-kit: Dawn found no adapter with any Vulkan driver above; see src/bench/gpuKit/README.md for what it needs" >&2
  exit 2
fi
use "$chosen"
# EORM_NODE_FLAGS: flags for the bench's Node only (e.g. --cpu-prof; Node refuses those in NODE_OPTIONS).
exec "$rt/bin/node" ${EORM_NODE_FLAGS:-} "$kit/bench/gpu.bench.mjs" --node --dawn "$rt/webgpu" "$@"
