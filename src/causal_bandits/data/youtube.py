"""Crawl files of "Statistics and Social Network of YouTube Videos" (Cheng, Dale & Liu; netsg).

Format (netsg.cs.sfu.ca/youtubedata): one video per line, tab-separated: video ID, uploader, age
(days since YouTube's establishment), category, length (s), views, rate, ratings, comments, then
up to 20 related video IDs. Lines that hold only a video ID (videos whose page could not be
fetched) or fewer than the 9 metadata fields are skipped and counted, as are lines whose numeric
fields do not parse (or are negative, or a rate outside [0, 5]); a later duplicate of a video ID
is dropped. When more than ``max_skipped_fraction`` of the non-blank lines are skipped the file is
not a crawl file (or is damaged) and the parse stops with one line saying why.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from causal_bandits.data.raw import read_lines
from causal_bandits.errors import DataError

FIELDS = ("video_id", "uploader", "age_days", "category", "length_s", "views", "rate", "ratings", "comments")
INTEGER_FIELDS = ("age_days", "length_s", "views", "ratings", "comments")


@dataclass
class CrawlParse:
    """Parsed videos and the bookkeeping of what was skipped."""

    videos: pd.DataFrame
    n_lines: int = 0
    n_short: int = 0
    n_malformed: int = 0
    n_duplicates: int = 0
    first_skipped: list[str] = field(default_factory=list)

    @property
    def n_skipped(self) -> int:
        return self.n_short + self.n_malformed

    def summary(self) -> dict[str, int]:
        return {
            "lines": self.n_lines,
            "videos": len(self.videos),
            "skipped_short": self.n_short,
            "skipped_non_numeric": self.n_malformed,
            "duplicates_dropped": self.n_duplicates,
        }


def _numbers(fields: Sequence[str]) -> dict[str, float] | None:
    values = dict(zip(FIELDS, fields))
    out: dict[str, float] = {}
    try:
        for name in INTEGER_FIELDS:
            out[name] = int(values[name])
        out["rate"] = float(values["rate"])
    except ValueError:
        return None
    if min(out[n] for n in INTEGER_FIELDS) < 0 or not 0.0 <= out["rate"] <= 5.0:
        return None
    return out


def read_crawl(paths: Sequence[str | os.PathLike], max_skipped_fraction: float) -> CrawlParse:
    """All videos of the crawl files ``paths`` (in order), first occurrence of each ID kept."""
    rows: list[dict] = []
    parse = CrawlParse(pd.DataFrame())
    seen: set[str] = set()
    for path in paths:
        for number, line in enumerate(read_lines(path), 1):
            if not line.strip():
                continue
            parse.n_lines += 1
            fields = [f.strip() for f in line.split("\t")]
            numbers = _numbers(fields) if len(fields) >= len(FIELDS) else None
            if numbers is None:
                if len(fields) < len(FIELDS):
                    parse.n_short += 1
                else:
                    parse.n_malformed += 1
                if len(parse.first_skipped) < 3:
                    parse.first_skipped.append(f"{path}:{number}")
                continue
            if fields[0] in seen:
                parse.n_duplicates += 1
                continue
            seen.add(fields[0])
            rows.append({"video_id": fields[0], "uploader": fields[1], "category": fields[3], **numbers})
    names = ", ".join(map(str, paths))
    if parse.n_lines == 0:
        raise DataError(f"{names}: no lines; replace the file(s) with netsg YouTube crawl files")
    if parse.n_skipped > max_skipped_fraction * parse.n_lines:
        raise DataError(
            f"{names}: {parse.n_skipped} of {parse.n_lines} lines skipped ({parse.n_short} with fewer than "
            f"{len(FIELDS)} fields, {parse.n_malformed} with non-numeric or out-of-range fields; first at "
            f"{', '.join(parse.first_skipped)}), more than the allowed {max_skipped_fraction:.1%} "
            f"(raw.youtube_max_skipped_fraction of the paper's config section); the file is damaged or not a netsg "
            "crawl file"
        )
    videos = pd.DataFrame(rows, columns=["video_id", "uploader", "category", *INTEGER_FIELDS, "rate"])
    for name in INTEGER_FIELDS:
        videos[name] = videos[name].astype(np.int64)
    parse.videos = videos
    return parse
