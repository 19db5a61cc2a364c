# Sourced by the scripts that start a server of their own for one run (lighthouse.sh,
# schemathesis.sh): a temporary directory in $tmp, and on exit the server whose pid the script
# puts in $server_pid stopped and the directory removed.
tmp="$(mktemp -d)"
server_pid=""
stop_throwaway_server() {
    if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
    rm -rf "$tmp"
}
trap stop_throwaway_server EXIT
