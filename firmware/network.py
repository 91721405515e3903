"""The Pi's address on the local network, for the QR code and the printout: phones must
get an address they can reach, never 127.0.0.1."""

from __future__ import annotations

import fcntl
import socket
import struct
from collections.abc import Callable, Iterable
from contextlib import suppress

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
