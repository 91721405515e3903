"""The seat panel: a push-button and an LED per seat, a status LED and a buzzer.

Players confirm with their seat button (a press, a hold, or a double press); the panel
lights the LED of the seat to play and sounds the buzzer on a flagged play. On a
machine without GPIO, gpiozero's mock pins stand in for the real ones:

    >>> from gpiozero.pins.mock import MockFactory
    >>> factory = MockFactory()
    >>> panel = SeatPanel([(17, 27), (22, 5)], status_led_pin=6, buzzer_pin=13,
    ...                   pin_factory=factory)
    >>> panel.show_turn(1)
    >>> factory.pin(5).state, factory.pin(27).state
    (True, False)
    >>> panel.close()
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial
from operator import methodcaller
from typing import Literal, Protocol

from gpiozero import LED, Button, Buzzer, Device
from gpiozero.pins import Factory

from hardware.closing import Closing

ButtonKind = Literal["press", "hold", "double"]
BUTTON_KINDS: tuple[ButtonKind, ...] = ("press", "hold", "double")
MAX_SEATS = 6
#: Seats a table may have: those beyond the panel's buttons press on the phone page.
MAX_TABLE_SEATS = 10


@dataclass(frozen=True)
class ButtonEvent:
    """A classified seat-button gesture; ``t`` is when the panel knew what it was (s)."""

    seat: int
    kind: ButtonKind
    t: float


@dataclass(frozen=True)
class PinMap:
    """BCM pin numbers: (button, LED) per seat, then the status LED and the buzzer."""

    seats: tuple[tuple[int, int], ...]
    status_led: int
    buzzer: int


# Keeps clear of ID EEPROM (0, 1), I2C (2, 3), SPI0 (7-11), UART (14, 15) and the
# SPI1 / PCM data pins (19-21); the camera uses its CSI ribbon, no GPIO. See WIRING.md.
DEFAULT_PIN_MAP = PinMap(
    seats=((4, 17), (27, 22), (5, 6), (13, 26), (23, 24), (25, 12)),
    status_led=16,
    buzzer=18,
)


class PinsError(Exception):
    """A GPIO backend that cannot be used here; the message says how to fix it."""


#: The OS package (Raspberry Pi OS) that provides each backend's Python module.
BACKEND_PACKAGES = {"lgpio": "python3-lgpio", "rpigpio": "python3-rpi-lgpio"}


def make_pin_factory(name: str) -> Factory:
    """The gpiozero pin factory named in the config: "mock", "lgpio" or "rpigpio".

    Chosen once at start-up; a backend that is missing or cannot open the GPIO chip
    raises PinsError (one line), never ImportError from deep inside gpiozero.
    """
    if name == "mock":
        from gpiozero.pins.mock import MockFactory

        return MockFactory()
    if name not in BACKEND_PACKAGES:
        raise PinsError(f"unknown GPIO backend {name!r}: use mock, lgpio or rpigpio")
    try:
        if name == "lgpio":
            from gpiozero.pins.lgpio import LGPIOFactory as Backend
        else:
            from gpiozero.pins.rpigpio import RPiGPIOFactory as Backend
    except ImportError as error:
        raise PinsError(
            f"the {name} GPIO backend is not installed ({error.name or error}): on the Pi run "
            f"'sudo apt install {BACKEND_PACKAGES[name]}' and make the venv with "
            "--system-site-packages, or pip install 'tableref[pi]'"
        ) from None
    except Exception as error:  # a broken or too old install fails while loading
        raise PinsError(f"the {name} GPIO backend cannot be loaded: {one_line(error)}") from None
    try:
        return Backend()
    except Exception as error:  # each backend raises its own kind (lgpio.error, RuntimeError)
        raise PinsError(
            f"the {name} GPIO backend cannot open the pins ({one_line(error)}): is this a "
            "Raspberry Pi, and is the user in the gpio group?"
        ) from None


def one_line(error: BaseException) -> str:
    """An exception's message on one line, for messages the user reads."""
    text = " ".join(str(error).split())
    return text or type(error).__name__


class Panel(Closing, Protocol):
    """What the firmware drives: turn LEDs, alarm, status, and the button events."""

    def show_turn(self, seat: int | None) -> None:
        """Light the LED of ``seat`` only; None turns every seat LED off."""
        ...

    def alarm(self) -> None:
        """Signal a flagged play: a short beep and a blinking status LED."""
        ...

    def status_ok(self) -> None:
        """Signal that the referee is watching: status LED steady, buzzer quiet."""
        ...

    def events(self) -> list[ButtonEvent]:
        """The button events since the last call, oldest first."""
        ...

    def poll(self) -> None:
        """Deliver gestures that time alone decides; call it from the main loop."""
        ...

    def close(self) -> None:
        """Turn everything off and release the pins."""
        ...


@dataclass
class _Gesture:
    pushed_at: float | None = None
    hold_sent: bool = False
    released_at: float | None = None


class PressClassifier:
    """Turns button pushes and releases into press, hold and double events.

    A push kept down for ``hold_time`` is a hold (and nothing else); two releases
    within ``double_press_window`` are a double; any other release is a press,
    known once the window has passed with no second release:

    >>> classifier = PressClassifier(seats=2, hold_time=1.5, double_press_window=0.4)
    >>> classifier.push(0, now=10.0) + classifier.release(0, now=10.1)
    []
    >>> classifier.settle(now=10.6)
    [ButtonEvent(seat=0, kind='press', t=10.5)]
    """

    def __init__(self, seats: int, hold_time: float, double_press_window: float) -> None:
        if hold_time <= double_press_window:
            raise ValueError("hold_time must be longer than double_press_window")
        self._gestures = [_Gesture() for _ in range(seats)]
        self._hold_time = hold_time
        self._double_press_window = double_press_window

    def push(self, seat: int, now: float) -> list[ButtonEvent]:
        """The button of ``seat`` went down at ``now``; returns the events now decided."""
        decided = self.settle(now)
        gesture = self._gestures[seat]
        gesture.pushed_at = now
        gesture.hold_sent = False
        return decided

    def release(self, seat: int, now: float) -> list[ButtonEvent]:
        """The button of ``seat`` came up at ``now``; returns the events now decided."""
        decided = self.settle(now)
        gesture = self._gestures[seat]
        if gesture.pushed_at is None or gesture.hold_sent:
            gesture.pushed_at = None
            return decided
        gesture.pushed_at = None
        if gesture.released_at is None:
            gesture.released_at = now
        else:
            gesture.released_at = None
            decided.append(ButtonEvent(seat=seat, kind="double", t=now))
        return decided

    def settle(self, now: float) -> list[ButtonEvent]:
        """The holds and single presses that time has decided by ``now``, oldest first."""
        decided: list[ButtonEvent] = []
        for seat, gesture in enumerate(self._gestures):
            released_at = gesture.released_at
            if released_at is not None and now - released_at > self._double_press_window:
                gesture.released_at = None
                decided.append(
                    ButtonEvent(seat=seat, kind="press", t=released_at + self._double_press_window)
                )
            pushed_at = gesture.pushed_at
            if pushed_at is None or gesture.hold_sent:
                continue
            if now - pushed_at >= self._hold_time:
                gesture.hold_sent = True
                decided.append(ButtonEvent(seat=seat, kind="hold", t=pushed_at + self._hold_time))
        return sorted(decided, key=lambda event: event.t)


def _drain(events: queue.SimpleQueue[ButtonEvent]) -> list[ButtonEvent]:
    drained: list[ButtonEvent] = []
    while True:
        try:
            drained.append(events.get_nowait())
        except queue.Empty:
            return drained


class SeatPanel(Panel):
    """The real panel on gpiozero: buttons to GND (internal pull-ups), LEDs, a buzzer.

    Button gestures are classified on the injected clock and queued from gpiozero's
    callbacks; the main loop calls :meth:`poll` and drains :meth:`events`:

        panel = SeatPanel(DEFAULT_PIN_MAP.seats[:4], DEFAULT_PIN_MAP.status_led,
                          DEFAULT_PIN_MAP.buzzer, pin_factory=make_pin_factory("lgpio"))
        panel.show_turn(0)
        while True:
            panel.poll()
            for event in panel.events():
                print(event.seat, event.kind)
    """

    def __init__(
        self,
        seat_pins: Sequence[tuple[int, int]],
        status_led_pin: int,
        buzzer_pin: int,
        pin_factory: Factory | None = None,
        hold_time: float = 1.5,
        double_press_window: float = 0.4,
        clock: Callable[[], float] = time.monotonic,
        bounce_time: float | None = 0.02,
    ) -> None:
        if not 1 <= len(seat_pins) <= MAX_SEATS:
            raise ValueError(
                f"a seat panel has 1 to {MAX_SEATS} seats, got {len(seat_pins)} (button, LED) pairs"
            )
        all_pins = [pin for pair in seat_pins for pin in pair] + [status_led_pin, buzzer_pin]
        reused = sorted({pin for pin in all_pins if all_pins.count(pin) > 1})
        if reused:
            raise ValueError(f"GPIO {', '.join(map(str, reused))} used more than once in the pins")
        self.seats = len(seat_pins)
        self._clock = clock
        self._classifier = PressClassifier(len(seat_pins), hold_time, double_press_window)
        self._lock = threading.Lock()
        self._queue: queue.SimpleQueue[ButtonEvent] = queue.SimpleQueue()
        self._devices: list[Device] = []  # everything opened so far, for close()
        self._seat_leds: list[LED] = []
        try:
            for seat, (button_pin, led_pin) in enumerate(seat_pins):
                button = Button(
                    button_pin, pull_up=True, bounce_time=bounce_time, pin_factory=pin_factory
                )
                self._devices.append(button)
                button.when_pressed = partial(self._on_push, seat)
                button.when_released = partial(self._on_release, seat)
                self._seat_leds.append(LED(led_pin, pin_factory=pin_factory))
                self._devices.append(self._seat_leds[-1])
            self._status_led = LED(status_led_pin, pin_factory=pin_factory)
            self._devices.append(self._status_led)
            self._buzzer = Buzzer(buzzer_pin, pin_factory=pin_factory)
            self._devices.append(self._buzzer)
        except BaseException:
            self.close()
            raise

    def _on_push(self, seat: int) -> None:
        with self._lock:
            self._enqueue(self._classifier.push(seat, self._clock()))

    def _on_release(self, seat: int) -> None:
        with self._lock:
            self._enqueue(self._classifier.release(seat, self._clock()))

    def poll(self) -> None:
        with self._lock:
            self._enqueue(self._classifier.settle(self._clock()))

    def _enqueue(self, decided: list[ButtonEvent]) -> None:
        for event in decided:
            self._queue.put(event)

    def events(self) -> list[ButtonEvent]:
        return _drain(self._queue)

    def show_turn(self, seat: int | None) -> None:
        """Light `seat`'s LED only; a seat beyond the panel's buttons (it presses on the
        phone page) lights none."""
        if seat is not None and not 0 <= seat < MAX_TABLE_SEATS:
            raise ValueError(f"no seat {seat}: a table has seats 0 to {MAX_TABLE_SEATS - 1}")
        for led_seat, led in enumerate(self._seat_leds):
            if led_seat == seat:
                led.on()
            else:
                led.off()

    def alarm(self) -> None:
        self._buzzer.beep(on_time=0.2, off_time=0.1, n=3, background=True)
        self._status_led.blink(on_time=0.1, off_time=0.1, n=8, background=True)

    def status_ok(self) -> None:
        self._buzzer.off()
        self._status_led.on()

    def close(self) -> None:
        """Close every device at once: each gpiozero Button ends a thread of its own that
        looks for the stop every 0.1 s, so six seats closed in turn took over half a
        second of a stop (SIGTERM)."""
        with ThreadPoolExecutor(max_workers=max(len(self._devices), 1)) as pool:
            for _ in pool.map(methodcaller("close"), self._devices):
                pass  # each close's error, if any, is raised here


class SimulatedPanel(Panel):
    """A panel with no hardware, for the demo and for replays.

    Replays feed recorded, already classified events in with :meth:`inject`; what the
    panel was told to show is kept for checks:

    >>> panel = SimulatedPanel(seats=3)
    >>> panel.show_turn(2); panel.alarm()
    >>> panel.inject(ButtonEvent(seat=0, kind="press", t=4.0))
    >>> panel.events(), panel.turn_history, panel.alarms
    ([ButtonEvent(seat=0, kind='press', t=4.0)], [2], 1)
    """

    def __init__(self, seats: int = MAX_SEATS) -> None:
        # It stands for the physical buttons and the page's seat buttons alike.
        if not 1 <= seats <= MAX_TABLE_SEATS:
            raise ValueError(f"a table has 1 to {MAX_TABLE_SEATS} seats, got {seats}")
        self.seats = seats
        self.turn_history: list[int | None] = []
        self.alarms = 0
        self.status_ok_count = 0
        self._queue: queue.SimpleQueue[ButtonEvent] = queue.SimpleQueue()

    def inject(self, event: ButtonEvent) -> None:
        """Queue ``event`` as if a player had made that gesture."""
        if not 0 <= event.seat < self.seats:
            raise ValueError(f"no seat {event.seat}: this panel has seats 0 to {self.seats - 1}")
        self._queue.put(event)

    def events(self) -> list[ButtonEvent]:
        return _drain(self._queue)

    def poll(self) -> None:
        """Nothing to decide: injected events are already classified."""

    def show_turn(self, seat: int | None) -> None:
        """Record ``seat`` in ``turn_history`` when it differs from the last one shown.

        As on the real panel, a seat beyond its buttons (it presses on the phone page)
        may have the turn."""
        if seat is not None and not 0 <= seat < MAX_TABLE_SEATS:
            raise ValueError(f"no seat {seat}: a table has seats 0 to {MAX_TABLE_SEATS - 1}")
        if not self.turn_history or self.turn_history[-1] != seat:
            self.turn_history.append(seat)

    def alarm(self) -> None:
        self.alarms += 1

    def status_ok(self) -> None:
        self.status_ok_count += 1

    def close(self) -> None:
        """Nothing to release."""
