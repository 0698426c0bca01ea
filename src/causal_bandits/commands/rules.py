"""``rules check | show [RULE...] | register RULE --reason TEXT``: the pre-registered claim rules.

``check`` prints one line per rule whose fingerprint (its text and the code that applies it) is neither registered
nor amended, with the command that fixes it, and exits 1 when there is one (0 and ``ok: ...`` when none);
``show`` prints each rule's current fingerprint, its text and code fingerprints and whether it is recorded;
``register`` records a rule: a new one into registry.json, a changed one as an amendment of amendments.yaml
(:mod:`causal_bandits.preregistration`).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from causal_bandits import preregistration as prereg
from causal_bandits.commands import subcommand


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register the ``rules`` subcommand (and its own subcommands) on an ``argparse`` subparsers action."""
    parser = subcommand(subparsers, "rules", "check, show or register the pre-registered claim rules", __doc__)
    sub = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    sub.add_parser("check", help="list each rule neither registered nor amended (exit 1 if any)").set_defaults(
        func=check
    )
    show_parser = sub.add_parser("show", help="print each rule's current fingerprint")
    show_parser.add_argument("keys", metavar="RULE", nargs="*", help="<paper>/<rule key> (default: every rule)")
    show_parser.set_defaults(func=show)
    reg = sub.add_parser("register", help="record a new rule, or a changed rule's amendment")
    reg.add_argument("key", metavar="RULE", help="<paper>/<rule key>")
    reg.add_argument("--reason", required=True, help="why the rule is new or changed (the amendment's reason)")
    reg.add_argument("--verdict-new", default="", help="the archived rows' verdicts under the changed rule")
    reg.add_argument(
        "--verdict-old", default="", help="their verdicts under the old rule (default: counted from the archive)"
    )
    reg.add_argument(
        "--after-result", action="store_true", help="the change was made after the result it judges was seen"
    )
    reg.set_defaults(func=register)
    return parser


def check(args: argparse.Namespace) -> int:
    """One line per rule that is neither registered nor amended; exit 1 when there is one."""
    from causal_bandits import seed_plans

    found = prereg.problems() + seed_plans.problems()
    for line in found:
        print(line, file=sys.stderr)
    if found:
        print(f"error: {len(found)} rule(s) not registered or amended", file=sys.stderr)
        return 1
    print("ok: every rule's fingerprint is registered or amended, and the seed plan carries its own")
    return 0


def show(args: argparse.Namespace) -> int:
    """``<paper>/<key> <fingerprint> text <text fingerprint> code <code fingerprint> <recorded or not>``, per rule."""
    from causal_bandits.papers import PAPERS
    from causal_bandits.preregistration.register import split

    keys = args.keys or [f"{p}/{k}" for p in PAPERS for k in prereg.paper_rules(p)]
    for key in keys:
        paper, name, rule = split(key)
        state = "recorded" if prereg.current(paper, name) == rule.fingerprint else "NOT recorded"
        print(f"{key} {rule.fingerprint} text {rule.text_fingerprint} code {rule.code_fingerprint} {state}")
    return 0


def register(args: argparse.Namespace) -> int:
    """Record ``args.key`` (:func:`causal_bandits.preregistration.register.register`)."""
    from causal_bandits.preregistration.register import register as record

    print(record(args.key, args.reason, args.verdict_new, args.verdict_old, args.after_result))
    return 0
