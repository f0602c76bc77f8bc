"""Compare a replay's JSON with the expectations a scenario file carries under ``expect:``.

The vocabulary is the contract's (SPEC section 3): names compare as sets, ``cite`` is a regular
expression searched in the citation, ``due``/``moved_from``/``at`` are prefixes of the local time
``YYYY-MM-DDTHH:MM``; ``no_rulings`` lists kinds that must not appear; ``rulings_count`` counts.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

TZ = ZoneInfo("America/New_York")


def local_iso(value: Any) -> str:
    if value is None:
        return ""
    s = str(value)
    if len(s) == 10:
        return s
    try:
        dt = datetime.fromisoformat(s)
    except ValueError:
        return s
    if dt.tzinfo is not None:
        dt = dt.astimezone(TZ)
    return dt.strftime("%Y-%m-%dT%H:%M")


def _names(xs: Any) -> set[str]:
    return {str(x).strip() for x in (xs or [])}


def _match_ruling(exp: dict[str, Any], r: dict[str, Any]) -> bool:
    if exp.get("kind", "*") not in ("*", r.get("kind")):
        return False
    if "cite" in exp and not re.search(exp["cite"], str(r.get("cite", ""))):
        return False
    if "candidates" in exp and _names(exp["candidates"]) != _names(r.get("candidates")):
        return False
    if "at" in exp and not local_iso(r.get("at")).startswith(str(exp["at"])):
        return False
    for k, v in exp.items():
        if k in ("kind", "cite", "candidates", "at"):
            continue
        got = r.get(k)
        if k in ("opens", "closes"):
            if not local_iso(got).startswith(str(v)):
                return False
        elif str(got) != str(v):
            return False
    return True


def _match_deadline(exp: dict[str, Any], d: dict[str, Any]) -> bool:
    if d.get("kind") != exp["kind"]:
        return False
    if "due" in exp and not local_iso(d.get("due")).startswith(str(exp["due"])):
        return False
    if "moved_from" in exp:
        if exp["moved_from"] is None:
            return d.get("moved_from") is None
        if not local_iso(d.get("moved_from")).startswith(str(exp["moved_from"])):
            return False
    return "cite" not in exp or bool(re.search(exp["cite"], str(d.get("cite", ""))))


def check_contest(exp: dict[str, Any], doc: dict[str, Any]) -> list[str]:
    """Every way the JSON result ``doc`` differs from one ``expect`` entry."""
    contests = doc.get("contests", [])
    if "contest" in exp:
        contests = [c for c in contests if c.get("id") == exp["contest"]]
    if not contests:
        return [f"contest {exp.get('contest')} missing"]
    c = contests[0]
    out = c["outcome"]
    errs: list[str] = []
    for key in ("elected", "nominated"):
        if key in exp and _names(exp[key]) != _names(out.get(key)):
            errs.append(f"{key}: want {sorted(_names(exp[key]))}, got {out.get(key)}")
    for key in ("vacant_seats", "pending", "state"):
        got = c.get("state") if key == "state" else out.get(key)
        if key in exp and got != exp[key]:
            errs.append(f"{key}: want {exp[key]}, got {got}")
    if "runoff" in exp:
        got = out.get("runoff") or {}
        want = exp["runoff"]
        if "status" in want and got.get("status") != want["status"]:
            errs.append(f"runoff.status: want {want['status']}, got {got.get('status')}")
        want_names = _names(want.get("candidates"))
        if "candidates" in want and want_names != _names(got.get("candidates")):
            errs.append(
                f"runoff.candidates: want {want['candidates']}, got {got.get('candidates')}"
            )
    rulings = c.get("rulings", [])
    for r in exp.get("rulings", []):
        if not any(_match_ruling(r, x) for x in rulings):
            seen = [(x["kind"], x["cite"], x["candidates"]) for x in rulings]
            errs.append(f"no ruling like {r}; have {seen}")
    for kind in exp.get("no_rulings", []):
        if any(x.get("kind") == kind for x in rulings):
            errs.append(f"unexpected ruling {kind}")
    for kind, n in (exp.get("rulings_count") or {}).items():
        got_n = sum(1 for x in rulings if x.get("kind") == kind)
        if got_n != n:
            errs.append(f"{kind} rulings: want {n}, got {got_n}")
    for dl in exp.get("deadlines", []):
        if not any(_match_deadline(dl, x) for x in c.get("deadlines", [])):
            seen = [(x["kind"], x["due"], x["moved_from"]) for x in c.get("deadlines", [])]
            errs.append(f"no deadline like {dl}; have {seen}")
    return errs
