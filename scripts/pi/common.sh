# What scripts/pi/install and scripts/pi/uninstall share: the paths, and running or
# printing commands. Expects ROOT (a prefix, "" for /), FAKE (1: print commands, never
# run them) and DRY (1: write no file either).
USER_NAME=tableref
OPT=/opt/tableref
VENV=$OPT/venv
DATA=/var/lib/tableref
CACHE=/var/cache/tableref
CONFIG=/etc/tableref/tableref.toml
UNIT=/etc/systemd/system/tableref.service
AVAHI_SERVICE=/etc/avahi/services/tableref.service
HOTSPOT_NAME=tableref-hotspot
HOTSPOT_FILE=/etc/NetworkManager/system-connections/$HOTSPOT_NAME.nmconnection

step() { printf '== %s\n' "$*"; }

# run COMMAND...: run it, or print it when FAKE=1.
run() {
    if [ "$FAKE" = 1 ]; then
        printf 'would run: %s\n' "$*"
    else
        "$@"
    fi
}

# put MODE PATH < CONTENT: write PATH under ROOT (DRY=1: only say so).
put() {
    if [ "$DRY" = 1 ]; then
        cat >/dev/null
        echo "would write $2"
        return
    fi
    mkdir -p "$(dirname "$ROOT$2")"
    cat >"$ROOT$2"
    chmod "$1" "$ROOT$2"
    echo "wrote $2"
}

# remove PATH...: delete them under ROOT (DRY=1: only say so).
remove() {
    local path
    for path in "$@"; do
        if [ -e "$ROOT$path" ] || [ -L "$ROOT$path" ]; then
            if [ "$DRY" = 1 ]; then
                echo "would remove $path"
            else
                rm -rf -- "$ROOT$path"
                echo "removed $path"
            fi
        fi
    done
}

# systemd_runs: true when systemctl is to be used (printed in a fake root).
systemd_runs() { [ "$FAKE" = 1 ] || [ -d /run/systemd/system ]; }
