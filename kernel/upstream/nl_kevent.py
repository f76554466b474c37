#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0

"""
Tests for the kevent netlink family: its requests, answered as its spec
says, and the event of a power supply's attribute, received from the
multicast group of its class.
"""

import errno
from pathlib import Path
from lib.py import ksft_run, ksft_exit, ksft_pr, ktap_result
from lib.py import ksft_eq, ksft_ge, ksft_in, ksft_true
from lib.py import KsftFailEx, KsftSkipEx, NlctrlFamily, NlError, YnlFamily
from lib.py import cmd, defer
from lib.py.ynl import SPEC_PATH

CLASSES = ["general", "storage", "power", "fs", "hotplug", "net"]
CAPACITY = Path("/sys/module/test_power/parameters/battery_capacity")
BATTERY = "/devices/virtual/power_supply/test_battery"


class KeventFamily(YnlFamily):
    def __init__(self):
        super().__init__((SPEC_PATH / "kevent.yaml").as_posix(), schema="")


def stats(kf) -> None:
    """get-stats answers with every counter of the layer."""
    st = kf.get_stats({})
    for name in ["stat-sent", "stat-coalesced", "stat-failed",
                 "stat-unrecorded", "stat-sources"]:
        ksft_in(name, st)
    ksft_ge(st["stat-sent"], 0)


def sources_dump(kf) -> None:
    """Each source has a path, a name and a class; a class keeps its own."""
    for src in kf.get_sources({}, dump=True):
        ksft_true(src["path"].startswith("/"), comment=src["path"])
        ksft_true(src["attr-name"], comment=src["path"])
        ksft_in(src["class"], CLASSES)
    for src in kf.get_sources({"class": "power"}, dump=True):
        ksft_eq(src["class"], "power")


def replay_dump(kf) -> None:
    """The ring's events come oldest first, and after a sequence number."""
    seqs = [ev["seq"] for ev in kf.get_replay({}, dump=True)]
    ksft_eq(seqs, sorted(seqs))
    if not seqs:
        return
    later = [ev["seq"] for ev in kf.get_replay({"seq": seqs[0]}, dump=True)]
    # Events sent meanwhile may follow
    ksft_eq(later[:len(seqs) - 1], seqs[1:])


def power_supply_event(_kf) -> None:
    """A change of test_power's battery: an event of its capacity."""
    if not CAPACITY.exists():
        try:
            cmd("modprobe test_power")
        except Exception as err:
            raise KsftSkipEx("no test_power (CONFIG_TEST_POWER)") from err

    # A socket of its own: one that sent requests is bound already
    listener = KeventFamily()
    listener.ntf_subscribe("power")
    old = CAPACITY.read_text().strip()
    new = "42" if old != "42" else "43"
    CAPACITY.write_text(new)
    defer(CAPACITY.write_text, old)

    for ntf in listener.poll_ntf(duration=5):
        msg = ntf["msg"]
        if msg.get("path") != BATTERY or msg.get("attr-name") != "capacity":
            continue
        ksft_eq(ntf["name"], "event")
        ksft_eq(msg["class"], "power")
        ksft_ge(msg["seq"], 1)
        # The event carries no value: the attribute has the new one
        ksft_eq(Path("/sys" + BATTERY, "capacity").read_text().strip(), new)
        return
    raise KsftFailEx("no event of the battery's capacity within 5 s")


def family_registered() -> bool:
    try:
        NlctrlFamily().getfamily({"family-name": "kevent"})
    except NlError as err:
        if err.nl_msg.error == -errno.ENOENT:
            return False
        raise
    return True


def main() -> None:
    if not family_registered():
        ksft_pr("no kevent family (CONFIG_KEVENT)")
        ktap_result(True, comment="SKIP")
        raise SystemExit(4)
    kf = KeventFamily()
    ksft_run([stats, sources_dump, replay_dump, power_supply_event],
             args=(kf,))
    ksft_exit()


if __name__ == "__main__":
    main()
