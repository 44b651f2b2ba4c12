#!/usr/bin/env bash
# Rewrites a built .deb under another version string, nothing else changed: the "newer package"
# of the upgrade tests (tests/package/upgrade_test.sh, tests/multihost). Prints the new file.
# Usage: repack-version.sh DEB VERSION OUTDIR
set -euo pipefail
[[ $# -eq 3 ]] || { sed -n '2,4p' "$0" >&2; exit 2; }
deb=$1 version=$2 out=$3
[[ -f $deb ]] || { echo "repack-version: no package '$deb'" >&2; exit 1; }
tree=$(mktemp -d)
trap 'rm -rf "$tree"' EXIT
dpkg-deb -R "$deb" "$tree/pkg"
sed -i "s/^Version: .*/Version: $version/" "$tree/pkg/DEBIAN/control"
name=$(dpkg-deb -f "$deb" Package)
arch=$(dpkg-deb -f "$deb" Architecture)
mkdir -p "$out"
file=$out/${name}_${version}_${arch}.deb
dpkg-deb --root-owner-group -Zxz -b "$tree/pkg" "$file" >/dev/null
[[ $(dpkg-deb -f "$file" Version) == "$version" ]] || { echo "repack-version: $file is not $version" >&2; exit 1; }
echo "$file"
