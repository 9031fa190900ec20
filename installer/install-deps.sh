#!/usr/bin/env bash
# Installs every Debian 12 package that the build, the tests and the benchmarks need; with --fuzz,
# also clang and its libFuzzer runtime (make fuzz).
# Idempotent: when everything is present it only runs dpkg-query and exits (well under a second).
set -euo pipefail

packages=(
  # toolchain
  build-essential cmake ninja-build ccache pkg-config git clang-format
  # GUI
  qt6-base-dev qt6-base-dev-tools libqt6opengl6-dev qt6-charts-dev libgl-dev libxkbcommon-dev
  # Vulkan: loader, headers, shader compiler, lavapipe software device, validation layers, tools
  libvulkan-dev glslc mesa-vulkan-drivers vulkan-validationlayers vulkan-tools
  # headless display for GUI tests
  xvfb xauth
  # engine
  libeigen3-dev liburdfdom-dev liburdfdom-headers-dev libtinyxml2-dev libassimp-dev libfcl-dev
  libtomlplusplus-dev nlohmann-json3-dev libpng-dev libyaml-cpp-dev libqhull-dev
  # viewer overlay and input devices
  libimgui-dev libspnav-dev libmeshoptimizer-dev
  # tests and benchmarks (peers: KDL, OMPL)
  libgtest-dev libgmock-dev libbenchmark-dev liborocos-kdl-dev libkdl-parser-dev libompl-dev
  # the VAMP peer's MotionBenchMaker problem converter (../shared/peers/vamp/harness/convert.py)
  python3-yaml
  # make deb (dpkg-shlibdeps works out Depends) and the desktop entry / AppStream metadata checks
  dpkg-dev desktop-file-utils appstream
)
if [[ "${1:-}" == --fuzz ]]; then
  packages+=(clang libclang-rt-14-dev)
fi

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$p")
done

if ((${#missing[@]} == 0)); then
  exit 0
fi

echo "install-deps: installing ${#missing[@]} missing package(s): ${missing[*]}"
sudo_cmd=()
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null || { echo "install-deps: run as root or install sudo" >&2; exit 1; }
  sudo_cmd=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
