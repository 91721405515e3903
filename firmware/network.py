"""The Pi's address on the local network, for the QR code and the printout: phones must
get an address they can reach, never 127.0.0.1. Where the room has no Wi-Fi and the Pi
runs its own hotspot, phones join that first (a Wi-Fi QR code)."""

from __future__ import annotations

import fcntl
import socket
import struct
import subprocess
import time
from collections.abc import Callable, Iterable, Sequence
from contextlib import suppress
from dataclasses import dataclass, field

#: Linux's ioctl that gives an interface's IPv4 address.
SIOCGIFADDR = 0x8915
NOT_FOR_PHONES = ("127.", "0.", "169.254.")


def route_address() -> str | None:
    """The address the kernel would send from towards the LAN (a UDP "connect" sends
    nothing), if there is a route: a Pi on the room's Wi-Fi."""
    with suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("10.255.255.255", 1))
        return str(probe.getsockname()[0])
    return None


def interface_addresses() -> list[str]:
    """Every interface's IPv4 address: a Pi running its own hotspot has no route out,
    but wlan0 has 10.42.0.1."""
    addresses = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        for _index, name in socket.if_nameindex():
            request = struct.pack("256s", name.encode()[:15])
            with suppress(OSError):
                reply = fcntl.ioctl(sock.fileno(), SIOCGIFADDR, request)
                addresses.append(socket.inet_ntoa(reply[20:24]))
    return addresses


def lan_address(
    route: Callable[[], str | None] = route_address,
    interfaces: Callable[[], Iterable[str]] = interface_addresses,
    hostname: Callable[[], str] = socket.gethostname,
) -> str:
    """The first address phones can reach; with no network at all, the mDNS name
    (`<hostname>.local`, which avahi answers once a network comes up)."""
    for address in (route(), *interfaces()):
        if address and not address.startswith(NOT_FOR_PHONES):
            return address
    return f"{hostname()}.local"


#: The NetworkManager connection scripts/pi/install adds for rooms without Wi-Fi.
HOTSPOT_CONNECTION = "tableref-hotspot"
ACTIVE_CONNECTIONS = ("nmcli", "--terse", "--fields", "NAME", "connection", "show", "--active")
#: Seconds a look at NetworkManager is trusted: the page asks on every visit.
HOTSPOT_RECHECK_S = 30.0


def hotspot_running(
    run: Callable[[Sequence[str]], str | None] | None = None,
) -> bool:
    """Whether the Pi's own hotspot is up (NetworkManager says its connection is active);
    False where there is no NetworkManager."""
    output = (run or command_output)(ACTIVE_CONNECTIONS)
    return output is not None and HOTSPOT_CONNECTION in output.splitlines()


def command_output(command: Sequence[str]) -> str | None:
    """What a command prints, or None if it is missing, fails or hangs."""
    try:
        done = subprocess.run(list(command), capture_output=True, text=True, timeout=5,
                              check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout if done.returncode == 0 else None


@dataclass
class HotspotWatch:
    """The hotspot phones must join first, while the Pi runs it: (SSID, password) from the
    config, or None when it is not configured or not up (looked at every
    HOTSPOT_RECHECK_S at most)."""

    ssid: str | None
    password: str | None
    running: Callable[[], bool] = hotspot_running
    clock: Callable[[], float] = time.monotonic
    _seen: tuple[float, bool] | None = field(default=None, init=False)

    def __call__(self) -> tuple[str, str] | None:
        if not self.ssid or self.password is None:
            return None
        now = self.clock()
        if self._seen is None or now - self._seen[0] >= HOTSPOT_RECHECK_S:
            self._seen = (now, self.running())
        return (self.ssid, self.password) if self._seen[1] else None
