#!/usr/bin/env bash
# Builds the release artefact plistkit-VERSION-linux-ARCH.tar.gz
# (Specs/plistkit.md, "Install and release"), laid out as an install prefix:
#
#   plistkit-VERSION-linux-ARCH/
#     bin/plistkit                                   the binary, Swift's libraries linked in
#     share/man/man1/plistkit.1                      the man page, generated from its help
#     share/bash-completion/completions/plistkit     completion scripts the binary writes
#     share/zsh/site-functions/_plistkit
#     share/fish/vendor_completions.d/plistkit.fish
#     LICENSE
#
# Usage: bash Scripts/package.sh [OUTPUT_DIRECTORY]   (default: .build/dist)
# Prints the tarball's path on its last line. The binary needs no Swift
# toolchain where it runs: only the distribution's libc, libstdc++, libxml2
# and libbz2 (.ci/check-artefact proves it in a root holding nothing else).
set -euo pipefail
cd "$(dirname "$0")/.."
output=${1:-.build/dist}

# The build: the Swift runtime and Foundation linked in (--static-swift-stdlib);
# no $ORIGIN search path (--disable-local-rpath: the binary looks for libraries
# where the system keeps them, not beside itself); and only the symbols the
# runtime needs in the dynamic symbol table (--no-export-dynamic: our own
# thousands made every library's symbol lookup at start slower).
flags=(-c release --static-swift-stdlib --disable-local-rpath -Xlinker --no-export-dynamic --product plistkit)
swift build "${flags[@]}" >&2
built="$(swift build "${flags[@]}" --show-bin-path)/plistkit"
[ -x "$built" ] || { echo "package.sh: no binary at $built" >&2; exit 1; }

version_line=$("$built" --version)
version=${version_line%% *}
case "$version_line" in
  *"uncommitted changes"*) echo "package.sh: warning: built from a tree with uncommitted changes: $version_line" >&2 ;;
esac
arch=$(uname -m)
name="plistkit-$version-linux-$arch"

# Dates from the commit, so that the same commit packs the same bytes.
epoch=$(git log -1 --format=%ct 2>/dev/null || date +%s)
day=$(date -u -d "@$epoch" +%Y-%m-%d)

# swift-argument-parser's generate-manual (the tool its GenerateManual plugin
# runs), built alone: the plugin would build every product of the package first.
swift build --product generate-manual >&2
generate_manual="$(swift build --show-bin-path)/generate-manual"

stage="$output/$name"
rm -rf "$stage" "$output/$name.tar.gz"
mkdir -p "$stage/bin" "$stage/share/man/man1" "$stage/share/bash-completion/completions" \
  "$stage/share/zsh/site-functions" "$stage/share/fish/vendor_completions.d"
# Without its debug information (37 MB → 27 MB); its symbols stay, for backtraces.
strip --strip-debug -o "$stage/bin/plistkit" "$built"
chmod 755 "$stage/bin/plistkit"
"$stage/bin/plistkit" --generate-completion-script bash > "$stage/share/bash-completion/completions/plistkit"
"$stage/bin/plistkit" --generate-completion-script zsh > "$stage/share/zsh/site-functions/_plistkit"
"$stage/bin/plistkit" --generate-completion-script fish > "$stage/share/fish/vendor_completions.d/plistkit.fish"
"$generate_manual" "$stage/bin/plistkit" --date "$day" --output-directory "$stage/share/man/man1" >&2
[ -s "$stage/share/man/man1/plistkit.1" ] || { echo "package.sh: no man page written" >&2; exit 1; }
cp LICENSE "$stage/LICENSE"
chmod 644 "$stage/LICENSE" "$stage/share/man/man1/plistkit.1" "$stage/share/bash-completion/completions/plistkit" \
  "$stage/share/zsh/site-functions/_plistkit" "$stage/share/fish/vendor_completions.d/plistkit.fish"

# Sorted names, no owner, the commit's time, gzip without a name or time.
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$epoch" -C "$output" -cf - "$name" | gzip -9n > "$output/$name.tar.gz"
echo "$output/$name.tar.gz"
