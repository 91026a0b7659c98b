#!/usr/bin/env bash
# Builds Mesa's AGX (Asahi) compiler tools once, into a cache outside the
# clone keyed by the Mesa version, and prints the directory holding them:
#   mesa_clc     OpenCL C -> SPIR-V (LLVM 15, libclc)
#   asahi_clc    SPIR-V -> AGX (G13) machine code, as C arrays
#   libagx_shaders.c  Mesa's own 69 compiled kernels (the decoder's corpus)
#
# Idempotent: when the cache holds the tools it prints the directory and
# returns at once. Everything comes from Debian's packages: the build
# dependencies from bookworm, meson 1.7 from bookworm-backports (bookworm's
# 1.0.1 is too old for Mesa 25), and the mesa source package through apt's
# source-package support (trixie's deb-src: bookworm-backports lists
# 25.0.7-2~bpo12+1 but does not serve its .dsc). apt reads the project's own
# source list (in the cache), so the machine's apt setup is left as it was.
#
# When the build cannot happen (no network, no root, no disk) the script
# prints one line naming what is missing and exits 3; everything but the
# compiled-kernel features works without these tools.
#
# AGXSIM_CACHE_DIR overrides the cache root (default: $XDG_CACHE_HOME/agxsim,
# else ~/.cache/agxsim). A first build takes about 4 minutes of wall time on
# 2 cores after the packages are installed (traces/KERNEL.md, "Writing a
# kernel in OpenCL C").
set -euo pipefail

mesa_version=25.0.7
mesa_orig_sha256=592272df3cf01e85e7db300c449df5061092574d099da275d19e97ef0510f8a6
# The source packages that carry that tarball, tried in turn: only the
# upstream tarball (its sha256 checked) is used, so a later Debian revision
# of 25.0.7 serves as well, and bookworm-backports' (whose .dsc is not
# served) still delivers it.
mesa_sources=("mesa=25.0.7-2+deb13u1" "mesa" "mesa=25.0.7-2~bpo12+1")
# Bump when the build options or the copied outputs change.
recipe=1

cache_root="${AGXSIM_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/agxsim}"
dest="$cache_root/agx-compiler/mesa-$mesa_version-r$recipe"

if [ -x "$dest/bin/mesa_clc" ] && [ -x "$dest/bin/asahi_clc" ] && [ -f "$dest/COMPLETE" ]; then
    echo "$dest"
    exit 0
fi

fail() {
    echo "agxsim: the AGX compiler cannot be built here: $*" >&2
    exit 3
}
trap 'fail "unexpected failure at line $LINENO of scripts/setup-agx-compiler.sh"' ERR

# Debian 12's packages and its backports: another system would mix suites.
codename=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")
[ "$codename" = bookworm ] || fail "it needs Debian 12 (bookworm); this is '${codename:-unknown}'"

mkdir -p "$cache_root/agx-compiler" 2>/dev/null || fail "cannot create $cache_root/agx-compiler"
# One build at a time per cache (two clones, or CI beside a session).
exec 9>"$cache_root/agx-compiler/.lock" || fail "cannot write $cache_root/agx-compiler/.lock"
flock 9 || fail "cannot lock $cache_root/agx-compiler/.lock"
if [ -x "$dest/bin/mesa_clc" ] && [ -x "$dest/bin/asahi_clc" ] && [ -f "$dest/COMPLETE" ]; then
    echo "$dest"
    exit 0
fi

export DEBIAN_FRONTEND=noninteractive
# apt as root: itself, or through passwordless sudo, asked for only when
# something must be installed.
as_root() {
    if [ "$(id -u)" -eq 0 ]; then
        "$@"
    elif command -v sudo >/dev/null; then
        sudo -n env DEBIAN_FRONTEND=noninteractive "$@"
    else
        return 1
    fi
}

apt_dir="$cache_root/agx-compiler/apt"
mkdir -p "$apt_dir/lists/partial"
cat >"$apt_dir/sources.list" <<'EOF'
deb http://deb.debian.org/debian bookworm main
deb http://deb.debian.org/debian bookworm-updates main
deb http://deb.debian.org/debian-security bookworm-security main
deb http://deb.debian.org/debian bookworm-backports main
deb-src http://deb.debian.org/debian trixie main
deb-src http://deb.debian.org/debian bookworm-backports main
EOF
apt_own=(-o "Dir::Etc::SourceList=$apt_dir/sources.list" -o "Dir::Etc::SourceParts=/dev/null"
    -o "Dir::State::Lists=$apt_dir/lists")

build_deps=(build-essential pkgconf python3-mako python3-yaml python3-ply python3-packaging
    python3-setuptools bison flex ninja-build llvm-15-dev libclang-15-dev libclang-cpp15-dev
    libclc-15 libclc-15-dev libllvmspirvlib-15-dev spirv-tools zlib1g-dev libzstd-dev
    libexpat1-dev libdrm-dev libelf-dev xz-utils dpkg-dev)
missing=()
for p in "${build_deps[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
meson_ok=0
if v=$(dpkg-query -W -f='${Version}' meson 2>/dev/null) && dpkg --compare-versions "$v" ge 1.4; then
    meson_ok=1
fi
if [ ${#missing[@]} -gt 0 ] || [ $meson_ok = 0 ] || [ ! -f "$apt_dir/lists/.updated" ]; then
    echo "agxsim: fetching package lists for the AGX compiler" >&2
    as_root apt-get "${apt_own[@]}" update -qq >/dev/null 2>"$apt_dir/update.log" ||
        fail "apt-get update failed (no network, or no root or passwordless sudo?): $(tail -n 1 "$apt_dir/update.log")"
    touch "$apt_dir/lists/.updated"
fi
if [ ${#missing[@]} -gt 0 ]; then
    echo "agxsim: installing ${missing[*]}" >&2
    as_root apt-get "${apt_own[@]}" install -y -qq --no-install-recommends "${missing[@]}" \
        >"$apt_dir/install.log" 2>&1 ||
        fail "apt-get install of ${missing[*]} failed: $(tail -n 1 "$apt_dir/install.log")"
fi
if [ $meson_ok = 0 ]; then
    echo "agxsim: installing meson from bookworm-backports" >&2
    as_root apt-get "${apt_own[@]}" install -y -qq --no-install-recommends -t bookworm-backports meson \
        >"$apt_dir/install.log" 2>&1 ||
        fail "apt-get install -t bookworm-backports meson failed: $(tail -n 1 "$apt_dir/install.log")"
fi

src_dir="$cache_root/agx-compiler/src"
mkdir -p "$src_dir"
orig="$src_dir/mesa_$mesa_version.orig.tar.xz"
have_orig() { [ -f "$orig" ] && echo "$mesa_orig_sha256  $orig" | sha256sum -c --status; }
work="$cache_root/agx-compiler/work-$mesa_version-r$recipe"
if [ ! -f "$work/meson.build" ] && ! have_orig; then
    echo "agxsim: fetching Debian's mesa $mesa_version source package" >&2
    for source in "${mesa_sources[@]}"; do
        rm -f "$orig"
        (cd "$src_dir" && apt-get "${apt_own[@]}" source --download-only -qq "$source" \
            >/dev/null 2>"$src_dir/source.log") || true
        have_orig && break
    done
    have_orig || fail "no source package served mesa_$mesa_version.orig.tar.xz with sha256 $mesa_orig_sha256: $(tail -n 1 "$src_dir/source.log")"
fi

if [ ! -f "$work/meson.build" ]; then
    rm -rf "$work" "$work.tmp"
    mkdir -p "$work.tmp"
    tar -xJf "$orig" -C "$work.tmp" --strip-components=1 || fail "cannot unpack $orig"
    mv "$work.tmp" "$work"
fi

# Mesa's generators need Debian's python3 and its modules (python3-mako,
# ...), not another python3 that may come first on PATH (pyenv's, say).
export PATH="/usr/bin:$PATH"
echo "agxsim: building Mesa $mesa_version's AGX compiler (a few minutes, once)" >&2
start=$(date +%s)
if [ ! -f "$work/B/build.ninja" ]; then
    rm -rf "$work/B"  # a setup interrupted before it wrote build.ninja
    (cd "$work" && meson setup B -Dbuildtype=release -Dgallium-drivers=asahi -Dvulkan-drivers= \
        -Dplatforms= -Dglx=disabled -Degl=disabled -Dgbm=disabled -Dgles1=disabled \
        -Dgles2=disabled -Dopengl=false -Dllvm=enabled -Dshared-llvm=enabled \
        -Dvalgrind=disabled -Dlibunwind=disabled -Dvideo-codecs= -Dtools= >"$work/setup.log" 2>&1) ||
        { rm -rf "$work/B"; fail "meson setup failed: $(tail -n 1 "$work/setup.log") (see $work/setup.log)"; }
fi
ninja -C "$work/B" src/asahi/clc/asahi_clc src/compiler/clc/mesa_clc src/asahi/lib/libagx_shaders.h \
    >"$work/build.log" 2>&1 || fail "ninja failed: see $work/build.log"

rm -rf "$dest.tmp"
mkdir -p "$dest.tmp/bin"
cp "$work/B/src/asahi/clc/asahi_clc" "$work/B/src/compiler/clc/mesa_clc" "$dest.tmp/bin/"
corpus=$(find "$work/B/src/asahi/lib" -maxdepth 1 -name 'libagx_shaders.c' | head -n 1)
[ -n "$corpus" ] && cp "$corpus" "$dest.tmp/"
# mesa_clc's own options for the libclc library Mesa's build attaches.
cp "$work/B/src/asahi/lib/libagx_shaders.h" "$dest.tmp/" 2>/dev/null || true
echo "mesa $mesa_version, recipe $recipe, built in $(($(date +%s) - start)) s" >"$dest.tmp/COMPLETE"
rm -rf "$dest"
mv "$dest.tmp" "$dest"
echo "$dest"
