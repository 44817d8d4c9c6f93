#!/usr/bin/env bash
# The development token issuer of ./stack and compose: an RSA key pair on this machine (never in the repository)
# and tokens signed with it, shaped as the services expect from any identity provider (sub = the user id,
# scope = orders for a customer or admin for an operator, exp one hour ahead). A real provider replaces it by
# configuration only (docs/operations.md, "Authentication").
#   docker/dev-issuer.sh keys DIR                   create DIR/private.pem (yours only) and DIR/public.pem, once
#   docker/dev-issuer.sh token DIR --user N|--admin print a bearer token signed with DIR/private.pem
set -euo pipefail

die() { printf 'dev-issuer: %s\n' "$*" >&2; exit 1; }
command -v openssl >/dev/null || die "openssl is missing (Debian/Ubuntu: apt-get install openssl)"

keys() { # dir
  local dir=$1
  [[ -f $dir/private.pem && -f $dir/public.pem ]] && return 0
  mkdir -p "$dir"
  (umask 077 && openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$dir/private.pem" 2>/dev/null) \
    || die "could not create $dir/private.pem"
  openssl pkey -in "$dir/private.pem" -pubout -out "$dir/public.pem" 2>/dev/null || die "could not write $dir/public.pem"
  chmod 644 "$dir/public.pem"
}

b64url() { openssl base64 -A | tr '+/' '-_' | tr -d '='; }

token() { # dir subject scope
  local dir=$1 subject=$2 scope=$3 now header claims signature
  [[ -r $dir/private.pem ]] || die "$dir/private.pem is missing: ./stack up (or docker/compose-env.sh) creates it"
  now=$(date +%s)
  header=$(printf '{"alg":"RS256","typ":"JWT"}' | b64url)
  # iss is a URL, as an OpenID provider's is: Spring Security reads it as a URL first, and a plain name there costs
  # the service an exception on every request. .invalid never resolves; nothing fetches it (the key is a file).
  claims=$(printf '{"sub":"%s","scope":"%s","iss":"https://dev-issuer.invalid","iat":%d,"exp":%d}' "$subject" \
    "$scope" "$now" \
    $((now + 3600)) | b64url)
  signature=$(printf '%s.%s' "$header" "$claims" | openssl dgst -sha256 -sign "$dir/private.pem" -binary | b64url)
  printf '%s.%s.%s\n' "$header" "$claims" "$signature"
}

case "${1:-}" in
  keys) [[ -n ${2:-} ]] || die "usage: dev-issuer.sh keys DIR"; keys "$2" ;;
  token)
    [[ -n ${2:-} ]] || die "usage: dev-issuer.sh token DIR --user N|--admin"
    case "${3:-}" in
      --user) [[ ${4:-} =~ ^[1-9][0-9]*$ ]] || die "--user needs a user id (a positive integer)"; token "$2" "$4" orders ;;
      --admin) token "$2" operator admin ;;
      *) die "usage: dev-issuer.sh token DIR --user N|--admin" ;;
    esac
    ;;
  *) sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
