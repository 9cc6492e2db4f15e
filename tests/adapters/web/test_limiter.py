"""The socket's token bucket on a clock the test moves: a burst goes, then a steady pace;
a flood is refused, then closed; a page that trips the limit now and then never is."""

from __future__ import annotations

from adapters.web.limiter import BURST, PATIENCE, RATE, Limiter, Verdict


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_burst_goes_and_the_next_frame_is_too_fast() -> None:
    limiter = Limiter(Clock())
    assert [limiter.judge() for _ in range(int(BURST))] == [Verdict.SERVE] * int(BURST)
    assert limiter.judge() is Verdict.TOO_FAST


def test_the_bucket_fills_again_at_its_rate() -> None:
    clock = Clock()
    limiter = Limiter(clock)
    for _ in range(int(BURST)):
        limiter.judge()
    clock.now += 1
    assert [limiter.judge() for _ in range(int(RATE))] == [Verdict.SERVE] * int(RATE)
    assert limiter.judge() is Verdict.TOO_FAST


def test_twenty_frames_a_second_are_closed_within_a_few_seconds() -> None:
    clock = Clock()
    limiter = Limiter(clock)
    verdicts = []
    for _ in range(200):  # ten seconds of a flood
        clock.now += 0.05
        verdicts.append(limiter.judge())
        if verdicts[-1] is Verdict.CLOSE:
            break
    assert verdicts[-1] is Verdict.CLOSE
    assert PATIENCE <= verdicts.count(Verdict.TOO_FAST) < len(verdicts) <= 80


def test_a_page_that_trips_the_limit_now_and_then_is_never_closed() -> None:
    clock = Clock()
    limiter = Limiter(clock)
    for _ in range(100):  # ten taps at once every five seconds, for minutes
        verdicts = [limiter.judge() for _ in range(10)]
        assert Verdict.CLOSE not in verdicts
        clock.now += 5
