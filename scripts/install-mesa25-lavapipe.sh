#!/usr/bin/env bash
# Installs Mesa 25's lavapipe from bookworm-backports into a private prefix, on Debian 12 as
# root, for Dawn: Debian 12's own lavapipe (Mesa 22.3) lacks a Vulkan feature Dawn requires, and
# SwiftShader (subgroup size 4) hides what subgroups of 8 show.
#
# The system's Mesa is left alone (the Vulkan tests use its lavapipe): the backports packages are
# fetched with `apt-get download` through a private apt state and unpacked with `dpkg -x` into
#
#   $MESA25_PREFIX (default /opt/oneshader/mesa25)
#     lib/                 libvulkan_lvp.so and the newer libraries it needs (libdrm)
#     lvp_icd.json         the ICD manifest the harness hands to Dawn's Vulkan loader
#
# The harness runs node with LD_LIBRARY_PATH=<prefix>/lib for that child only.
# Safe to run again: a prefix whose manifest names the wanted version is left alone.
# Called by install-test-deps.sh; fails loudly when anything is missing.
set -euo pipefail

MESA25_PREFIX="${MESA25_PREFIX:-/opt/oneshader/mesa25}"
# The Mesa series Dawn needs; backports' newest mesa-vulkan-drivers must belong to it or later.
MESA_MIN_MAJOR=25
# Packages taken from backports: lavapipe, and the libraries it needs newer than bookworm's.
BACKPORTS_PACKAGES=(mesa-vulkan-drivers libdrm2)
ARCH_TRIPLET="$(uname -m)-linux-gnu"

log() { echo "install-mesa25-lavapipe: $*"; }
fail() {
    echo "install-mesa25-lavapipe: ERROR: $*" >&2
    exit 1
}

for tool in apt-get apt-cache dpkg dpkg-deb ldd sed; do
    command -v "$tool" >/dev/null 2>&1 || fail "'$tool' is missing"
done
[[ -f /usr/share/keyrings/debian-archive-keyring.gpg ]] ||
    fail "/usr/share/keyrings/debian-archive-keyring.gpg is missing (package debian-archive-keyring)"

manifest="$MESA25_PREFIX/lvp_icd.json"
stamp="$MESA25_PREFIX/version"

# A private apt state: the system's sources and lists stay as they are.
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/lists/partial" "$work/cache/archives/partial" "$work/debs"
cat >"$work/sources.sources" <<'EOF'
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
apt_options=(
    -o "Dir::Etc::sourcelist=$work/sources.sources"
    -o "Dir::Etc::sourceparts=/dev/null"
    -o "Dir::State::Lists=$work/lists"
    -o "Dir::Cache=$work/cache"
    -o "APT::Sandbox::User=root"
)

log "reading bookworm-backports' package lists"
apt-get "${apt_options[@]}" update -qq || fail "apt-get update of bookworm-backports failed"
version="$(apt-cache "${apt_options[@]}" madison mesa-vulkan-drivers |
    sed -n 's/^ *mesa-vulkan-drivers *| *\([^ ]*\) *| .*bookworm-backports.*/\1/p' | head -n 1)"
[[ -n "$version" ]] || fail "bookworm-backports has no mesa-vulkan-drivers"
major="${version%%.*}"
((major >= MESA_MIN_MAJOR)) ||
    fail "bookworm-backports has mesa-vulkan-drivers $version; Mesa $MESA_MIN_MAJOR or later is needed"

if [[ -f "$stamp" && "$(cat "$stamp")" == "$version" && -f "$manifest" ]]; then
    log "Mesa $version's lavapipe already in $MESA25_PREFIX"
else
    log "fetching ${BACKPORTS_PACKAGES[*]} from bookworm-backports (Mesa $version)"
    (cd "$work/debs" && apt-get "${apt_options[@]}" download \
        "${BACKPORTS_PACKAGES[@]/%//bookworm-backports}") ||
        fail "apt-get download from bookworm-backports failed"
    unpacked="$work/unpacked"
    for deb in "$work"/debs/*.deb; do
        dpkg -x "$deb" "$unpacked" || fail "dpkg -x $deb failed"
    done
    rm -rf "$MESA25_PREFIX"
    mkdir -p "$MESA25_PREFIX/lib"
    for library in libvulkan_lvp.so libdrm.so.2; do
        source="$unpacked/usr/lib/$ARCH_TRIPLET/$library"
        [[ -e "$source" ]] || fail "$library is not in the backports packages"
        cp -L "$source" "$MESA25_PREFIX/lib/$library"
    done
    api_version="$(sed -n 's/.*"api_version": *"\([^"]*\)".*/\1/p' \
        "$unpacked/usr/share/vulkan/icd.d/lvp_icd.json")"
    [[ -n "$api_version" ]] || fail "the backports lvp_icd.json names no api_version"
    cat >"$manifest" <<EOF
{
    "file_format_version": "1.0.0",
    "ICD": {
        "library_path": "$MESA25_PREFIX/lib/libvulkan_lvp.so",
        "api_version": "$api_version"
    }
}
EOF
    echo "$version" >"$stamp"
    log "Mesa $version's lavapipe is in $MESA25_PREFIX"
fi

# Every library lavapipe links must resolve, from the prefix or the system.
unresolved="$(LD_LIBRARY_PATH="$MESA25_PREFIX/lib" ldd "$MESA25_PREFIX/lib/libvulkan_lvp.so" |
    grep 'not found' || true)"
[[ -z "$unresolved" ]] || fail "Mesa 25's lavapipe lacks libraries:
$unresolved"
