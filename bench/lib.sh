# bench/lib.sh: what bench/run and bench/ab share — timing helpers, seeded stores, one launch
# of the deck timed to its first frame. Sourced; expects $bin (the `authdeck` to run), $work
# (a scratch directory) and $session (the tmux server's name) set by the caller.

# Our own tmux server (its own -L socket), never the person's: a deck left behind by a failed
# run must not live on under their tmux.
tm() { tmux -L "$session" "$@"; }
now_ns() { date +%s%N; }
ms_since() { awk -v a="$1" -v b="$(now_ns)" 'BEGIN { printf "%.1f", (b - a) / 1e6 }'; }
median_ms() { python3 -c 'import json,sys; print("%.2f" % (json.load(open(sys.argv[1]))["results"][int(sys.argv[2])]["median"] * 1000))' "$1" "${2:-0}"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.1fx", a / b; else print "-" }'; }
seed_msal() {  # seed_msal N DIR: N Azure AD accounts through `authdeck import msal`
  python3 - "$1" "$2" <<'EOF'
import json, sys
n, d = int(sys.argv[1]), sys.argv[2]
tid, env = "11111111-1111-1111-1111-111111111111", "login.microsoftonline.com"
c = {"Account": {}, "RefreshToken": {}, "AccessToken": {}, "IdToken": {}, "AppMetadata": {}}
for i in range(n):
    home = f"{i:08d}-0000-4000-8000-000000000000.{tid}"
    c["Account"][f"{home}-{env}-{tid}"] = {"home_account_id": home, "environment": env, "realm": tid,
        "local_account_id": home[:36], "username": f"user{i}@contoso.example", "authority_type": "MSSTS"}
    c["RefreshToken"][f"{home}-{env}-refreshtoken-bench--"] = {"home_account_id": home, "environment": env,
        "credential_type": "RefreshToken", "client_id": "bench", "secret": f"bench-rt-{i}"}
json.dump(c, open(f"{d}/cache.json", "w"))
open(f"{d}/config.toml", "w").write('[[provider]]\nid = "contoso"\nkind = "azuread"\nclient_id = "bench"\n')
EOF
  XDG_DATA_HOME="$2/data" "$bin" import msal --config "$2/config.toml" --provider contoso "$2/cache.json" >/dev/null
}
first_frame() {  # first_frame N DIR: one launch of the deck, quit at once; prints its first-frame ms
  local n=$1 dir=$2
  : > "$dir/frames1"
  tm new-session -d -s "$session" -x 120 -y 40 \
    "export XDG_DATA_HOME=$dir/data AUTHDECK_TRACE_FRAMES=$dir/frames1; export AUTHDECK_TRACE_T0=\$(date +%s%N); exec $bin deck --config $dir/config.toml"
  # Wait for the deck's own record of its first frame, spawning nothing while it starts: on
  # two cores, polling `tmux capture-pane | grep` every 50 ms took CPU from the deck itself.
  sleep 0.3
  local deadline=$(( SECONDS + 60 )) tag="" ms=""
  until read -r tag ms _ < "$dir/frames1" && [ "$tag" = first-frame ]; do
    [ "$SECONDS" -lt "$deadline" ] || { echo "the deck drew no frame within 60 s" >&2; exit 1; }
    sleep 0.1
  done
  # That frame was complete: the deck draws once every account is read (checked, not assumed).
  tm capture-pane -p -t "$session" | grep -q "($n)" || { echo "the deck's first frame does not show $n accounts" >&2; exit 1; }
  tm send-keys -t "$session" q
  for _ in $(seq 1 100); do tm has-session -t "$session" 2>/dev/null || break; sleep 0.05; done
  tm kill-session -t "$session" 2>/dev/null || true
  echo "$ms"
}
seed_stale() {  # seed_stale N DIR: N accounts whose sign-in never completed (stale for a year)
  mkdir -p "$2"
  printf '[[provider]]\nid = "contoso"\nkind = "azuread"\nclient_id = "bench"\n' > "$2/config.toml"
  # A reading command no longer creates a store: an import of an empty MSAL cache does.
  echo '{"Account": {}, "RefreshToken": {}, "AccessToken": {}, "IdToken": {}, "AppMetadata": {}}' > "$2/empty.json"
  XDG_DATA_HOME="$2/data" "$bin" import msal --config "$2/config.toml" --provider contoso "$2/empty.json" >/dev/null 2>&1
  sqlite3 "$2/data/authdeck/authdeck.db" "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $1)
    INSERT INTO accounts (id, provider_id, subject, username, display_name, created_at, failed_attempts)
    SELECT printf('contoso/%08x', i), 'contoso', 'subject-' || i, 'user' || i || '@contoso.example', '', strftime('%s','now') - 31536000, 0 FROM n;"
}
