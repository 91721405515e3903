"""The seat panel on gpiozero's mock pins, with a clock the tests move by hand."""

from __future__ import annotations

import doctest
import time
from collections.abc import Iterator

import pytest
from gpiozero.pins.mock import MockFactory

import hardware.panel
from hardware.panel import (
    DEFAULT_PIN_MAP,
    MAX_SEATS,
    ButtonEvent,
    PinsError,
    PressClassifier,
    SeatPanel,
    SimulatedPanel,
    make_pin_factory,
)

SEAT_PINS = [(4, 17), (27, 22), (5, 6)]
STATUS_LED = 16
BUZZER = 18


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def factory() -> MockFactory:
    return MockFactory()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def panel(factory: MockFactory, clock: FakeClock) -> Iterator[SeatPanel]:
    with SeatPanel(
        SEAT_PINS, STATUS_LED, BUZZER, pin_factory=factory, bounce_time=None, clock=clock
    ) as seat_panel:
        yield seat_panel


def push(factory: MockFactory, clock: FakeClock, seat: int, down_for: float) -> None:
    pin = factory.pin(SEAT_PINS[seat][0])
    pin.drive_low()
    clock.now += down_for
    pin.drive_high()


def test_a_short_push_is_a_press_once_the_double_window_has_passed(
    panel: SeatPanel, factory: MockFactory, clock: FakeClock
) -> None:
    push(factory, clock, seat=1, down_for=0.1)
    released_at = clock.now
    clock.now += 0.3
    panel.poll()
    assert panel.events() == []
    clock.now += 0.2
    panel.poll()
    assert panel.events() == [ButtonEvent(seat=1, kind="press", t=released_at + 0.4)]
    panel.poll()
    assert panel.events() == []


def test_a_long_push_is_one_hold_and_no_press(
    panel: SeatPanel, factory: MockFactory, clock: FakeClock
) -> None:
    pin = factory.pin(SEAT_PINS[2][0])
    pin.drive_low()
    pushed_at = clock.now
    clock.now += 1.6
    panel.poll()
    assert panel.events() == [ButtonEvent(seat=2, kind="hold", t=pushed_at + 1.5)]
    clock.now += 1.0
    pin.drive_high()
    clock.now += 1.0
    panel.poll()
    assert panel.events() == []


def test_a_hold_is_noticed_on_release_without_a_poll(
    panel: SeatPanel, factory: MockFactory, clock: FakeClock
) -> None:
    push(factory, clock, seat=0, down_for=2.0)
    assert [event.kind for event in panel.events()] == ["hold"]


def test_two_quick_pushes_are_a_double_and_no_press(
    panel: SeatPanel, factory: MockFactory, clock: FakeClock
) -> None:
    push(factory, clock, seat=0, down_for=0.1)
    clock.now += 0.15
    push(factory, clock, seat=0, down_for=0.1)
    second_release = clock.now
    assert panel.events() == [ButtonEvent(seat=0, kind="double", t=second_release)]
    clock.now += 1.0
    panel.poll()
    assert panel.events() == []


def test_two_slow_pushes_are_two_presses(
    panel: SeatPanel, factory: MockFactory, clock: FakeClock
) -> None:
    push(factory, clock, seat=0, down_for=0.1)
    clock.now += 0.6
    push(factory, clock, seat=0, down_for=0.1)
    clock.now += 0.6
    panel.poll()
    assert [event.kind for event in panel.events()] == ["press", "press"]


def test_pushes_on_different_seats_do_not_make_a_double(
    panel: SeatPanel, factory: MockFactory, clock: FakeClock
) -> None:
    push(factory, clock, seat=0, down_for=0.1)
    push(factory, clock, seat=1, down_for=0.1)
    clock.now += 0.5
    panel.poll()
    assert [(event.seat, event.kind) for event in panel.events()] == [(0, "press"), (1, "press")]


def test_show_turn_lights_only_that_seat(panel: SeatPanel, factory: MockFactory) -> None:
    panel.show_turn(1)
    assert [factory.pin(led).state for _, led in SEAT_PINS] == [False, True, False]
    panel.show_turn(2)
    assert [factory.pin(led).state for _, led in SEAT_PINS] == [False, False, True]
    panel.show_turn(None)
    assert [factory.pin(led).state for _, led in SEAT_PINS] == [False, False, False]
    panel.show_turn(1)
    panel.show_turn(3)  # a seventh-or-later seat without a button: it presses on the page
    assert [factory.pin(led).state for _, led in SEAT_PINS] == [False, False, False]
    with pytest.raises(ValueError, match="no seat 10"):
        panel.show_turn(10)


def test_alarm_sounds_the_buzzer_and_status_ok_silences_it(
    panel: SeatPanel, factory: MockFactory
) -> None:
    buzzer = factory.pin(BUZZER)
    panel.alarm()
    deadline = time.monotonic() + 2.0
    while not any(state.state for state in buzzer.states) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert any(state.state for state in buzzer.states)
    panel.status_ok()
    assert buzzer.state is False
    assert factory.pin(STATUS_LED).state is True


def test_close_releases_the_pins(factory: MockFactory) -> None:
    SeatPanel(SEAT_PINS, STATUS_LED, BUZZER, pin_factory=factory).close()
    with SeatPanel(SEAT_PINS, STATUS_LED, BUZZER, pin_factory=factory) as panel:
        panel.show_turn(0)


def test_seven_seats_are_refused(factory: MockFactory) -> None:
    seven = [(4 + 2 * seat, 5 + 2 * seat) for seat in range(MAX_SEATS + 1)]
    with pytest.raises(ValueError, match="1 to 6 seats, got 7"):
        SeatPanel(seven, 40, 41, pin_factory=factory)


def test_a_pin_used_twice_is_refused(factory: MockFactory) -> None:
    with pytest.raises(ValueError, match="GPIO 17 used more than once"):
        SeatPanel([(4, 17), (27, 17)], STATUS_LED, BUZZER, pin_factory=factory)


def test_the_default_pin_map_has_six_seats_on_distinct_free_pins(factory: MockFactory) -> None:
    pins = [pin for pair in DEFAULT_PIN_MAP.seats for pin in pair]
    pins += [DEFAULT_PIN_MAP.status_led, DEFAULT_PIN_MAP.buzzer]
    assert len(DEFAULT_PIN_MAP.seats) == MAX_SEATS
    assert len(set(pins)) == len(pins)
    reserved = {0, 1, 2, 3, 7, 8, 9, 10, 11, 14, 15}
    assert not reserved & set(pins)
    with SeatPanel(
        DEFAULT_PIN_MAP.seats,
        DEFAULT_PIN_MAP.status_led,
        DEFAULT_PIN_MAP.buzzer,
        pin_factory=factory,
    ) as panel:
        panel.show_turn(5)


def test_make_pin_factory_knows_mock_and_refuses_unknown_names() -> None:
    assert isinstance(make_pin_factory("mock"), MockFactory)
    with pytest.raises(PinsError, match="unknown GPIO backend 'gpio'"):
        make_pin_factory("gpio")


def test_the_classifier_orders_a_pending_press_before_a_later_hold() -> None:
    classifier = PressClassifier(seats=1, hold_time=1.5, double_press_window=0.4)
    classifier.push(0, now=0.0)
    classifier.release(0, now=0.1)
    classifier.push(0, now=0.3)
    assert classifier.settle(now=2.0) == [
        ButtonEvent(seat=0, kind="press", t=0.5),
        ButtonEvent(seat=0, kind="hold", t=1.8),
    ]
    assert classifier.release(0, now=2.1) == []


def test_the_simulated_panel_records_what_it_showed() -> None:
    panel = SimulatedPanel(seats=4)
    panel.show_turn(0)
    panel.show_turn(0)
    panel.show_turn(3)
    panel.alarm()
    panel.inject(ButtonEvent(seat=2, kind="double", t=1.0))
    panel.poll()
    assert panel.turn_history == [0, 3]
    assert panel.alarms == 1
    assert panel.events() == [ButtonEvent(seat=2, kind="double", t=1.0)]
    assert panel.events() == []
    with pytest.raises(ValueError, match="no seat 4"):
        panel.inject(ButtonEvent(seat=4, kind="press", t=2.0))
    panel.show_turn(6)  # a seat with its button on the page may have the turn
    assert panel.turn_history == [0, 3, 6]
    with pytest.raises(ValueError, match="no seat 10"):
        panel.show_turn(10)


def test_the_docstring_examples_run() -> None:
    assert doctest.testmod(hardware.panel).failed == 0
