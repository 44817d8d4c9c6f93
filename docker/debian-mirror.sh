# Sourced by the scripts that fetch Debian packages themselves (debootstrap, the Compose .deb): prints the
# Debian archive this machine's apt already uses, so they reach the same mirror apt does. DEBIAN_MIRROR
# overrides it.
debian_mirror() {
  if [[ -n ${DEBIAN_MIRROR:-} ]]; then
    printf '%s\n' "${DEBIAN_MIRROR%/}"
    return 0
  fi
  local uri
  # deb822 files (URIs: ...) and one-line entries (deb [options] URI suite ...); the security archive and
  # third-party repositories are not the Debian archive.
  uri=$({ cat /etc/apt/sources.list.d/*.sources 2>/dev/null | sed -nE 's/^URIs:[[:space:]]*//p' | tr ' ' '\n'
          cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null \
            | sed -nE 's/^deb[[:space:]]+(\[[^]]*\][[:space:]]+)?([^[:space:]]+).*/\2/p'; } \
        | grep -E '/debian/?$' | head -n 1)
  if [[ -z $uri ]]; then
    printf 'no Debian archive found in /etc/apt; set DEBIAN_MIRROR to one\n' >&2
    return 1
  fi
  printf '%s\n' "${uri%/}"
}
