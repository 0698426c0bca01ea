"""Pinned raw files: locate them under the raw-data directory, verify them, download them.

A raw file is pinned by a :class:`RawFile` entry of the config: its path under the raw-data
directory (``data.raw_dir``), the sha256 of its content, the address that serves exactly those
bytes and the publisher's page. The file may sit there as given or gzip-compressed (``<path>.gz``,
as in the DELVE copy of UCI Adult); the checksum is always that of the uncompressed content, so
both forms of the same file pass and the pinned value is the one of the official download.

Every failure is one line that names the file, the expected checksum and where to get the file:
a missing file, a corrupt or different file, a download that fails or yields other bytes.
Downloads go to a temporary file beside the destination and are renamed into place only after
their checksum matched, so nothing half-written or unverified is ever left under ``raw_dir``.
"""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import json
import logging
import os
import shutil
import socket
import urllib.error
import urllib.parse
import urllib.request
import zipfile
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, cast

from causal_bandits import papers
from causal_bandits.errors import DataError
from causal_bandits.store import atomic_path, write_json

if TYPE_CHECKING:
    from causal_bandits.stages import Job


log = logging.getLogger(__name__)

_CHUNK = 1 << 20


#: Where a stand-in for a missing raw file is written (by the paper's own package), under the file's pinned
#: path: never under the raw-data directory.
STANDIN_DIR = "data/standin"


@dataclass(frozen=True)
class RawFile:
    """One pinned raw file (a config entry ``{path, sha256, url, publisher, member}``).

    ``url`` serves exactly the pinned bytes; when ``member`` is set, ``url`` is a zip archive and
    the file is that member of it (the netsg YouTube crawls are published as zips).
    """

    path: str
    sha256: str
    url: str
    publisher: str = ""
    member: str | None = None

    @classmethod
    def from_config(cls, entry: Mapping[str, Any]) -> RawFile:
        return cls(
            path=entry["path"],
            sha256=entry["sha256"].lower(),
            url=entry["url"],
            publisher=entry.get("publisher", ""),
            member=entry.get("member"),
        )

    def where_to_get(self) -> str:
        source = f"{self.url} (member {self.member})" if self.member else self.url
        return source + (f" (publisher: {self.publisher})" if self.publisher and self.publisher != self.url else "")

    def candidates(self, raw_dir: str | os.PathLike) -> tuple[Path, Path]:
        """The two places the file may be: ``raw_dir/path`` and ``raw_dir/path.gz``."""
        plain = Path(raw_dir) / self.path
        return plain, plain.with_name(plain.name + ".gz")


def recorded_name(path: str | os.PathLike, raw_dir: str | os.PathLike) -> str:
    """How an output names the file at ``path``: relative to ``raw_dir`` when it lies there (``adult/adult.data.gz``:
    where the raw files are is not part of a result, as ``data.raw_dir`` is not part of the config hash), else as
    given (a stand-in, :data:`STANDIN_DIR`)."""
    relative = os.path.relpath(path, raw_dir)
    return Path(path).as_posix() if relative.startswith("..") else Path(relative).as_posix()


def locate(raw_dir: str | os.PathLike, spec: RawFile) -> Path | None:
    """The file of ``spec`` under ``raw_dir`` (plain first, then ``.gz``), or None."""
    return next((p for p in spec.candidates(raw_dir) if p.is_file()), None)


@contextmanager
def open_binary(path: str | os.PathLike) -> Iterator[IO[bytes]]:
    """The content of ``path`` as a binary stream, decompressed when the name ends in ``.gz``."""
    path = Path(path)
    with gzip.open(path, "rb") if path.suffix == ".gz" else open(path, "rb") as stream:
        yield cast(IO[bytes], stream)  # GzipFile and BufferedReader both read bytes


def content_sha256(path: str | os.PathLike) -> str:
    """sha256 of the (uncompressed) content of ``path``; a broken gzip stream is a DataError."""
    digest = hashlib.sha256()
    try:
        with open_binary(path) as stream:
            while block := stream.read(_CHUNK):
                digest.update(block)
    except (OSError, EOFError, zlib.error) as err:
        raise DataError(f"{path}: cannot read it ({err}); the file is damaged — replace it") from err
    return digest.hexdigest()


def missing_message(raw_dir: str | os.PathLike, spec: RawFile, reason: str = "") -> str:
    plain, packed = spec.candidates(raw_dir)
    why = f" ({reason})" if reason else ""
    return (
        f"raw file {spec.path} is missing{why}: looked for {plain} and {packed}; expected sha256 "
        f"{spec.sha256}; get it from {spec.where_to_get()} and put it at {plain}, or run the "
        f"workflow on a machine with network access to download it"
    )


def cached_sha256(path: str | os.PathLike, cache: str | os.PathLike) -> str:
    """:func:`content_sha256` of ``path``, remembered in the JSON file ``cache`` under the file's absolute path
    with its size and modification time (ns): while both stay the same the file is not read again. A cache
    that cannot be read is rebuilt; one that cannot be written is skipped."""
    stat = os.stat(path)
    key, stamp = os.path.abspath(path), [stat.st_size, stat.st_mtime_ns]
    try:
        known = json.loads(Path(cache).read_text())
        entry = known[key] if isinstance(known, dict) else None
    except (OSError, ValueError, KeyError):
        known, entry = {}, None
    if isinstance(entry, dict) and entry.get("stamp") == stamp and isinstance(entry.get("sha256"), str):
        return entry["sha256"]
    digest = content_sha256(path)
    known = known if isinstance(known, dict) else {}
    known[key] = {"stamp": stamp, "sha256": digest}
    with contextlib.suppress(OSError):
        write_json(cache, known)
    return digest


def present(
    raw_dir: str | os.PathLike, specs: Iterable[RawFile], cache: str | os.PathLike | None
) -> dict[str, Path | None]:
    """Locate every file of ``specs`` under ``raw_dir`` and check those found against their pinned checksum
    (cached: :func:`cached_sha256`, unless ``cache`` is None), as the workflow does once when it plans; a wrong one
    raises the one-line DataError of :func:`check`, and so does a directory where a file belongs. Returns where each
    was found, by its pinned path (None for those not found: a download or a stand-in provides them)."""
    found = {}
    for spec in specs:
        for place in spec.candidates(raw_dir):
            folder = next(p for p in place.parents if p.exists())  # where a download would create folders
            if place.exists() and not place.is_file():  # a download could never put the file there
                blocked = f"{place} is a directory (or another non-file), not the file"
            elif not folder.is_dir():
                blocked = f"{folder} is a file where a folder belongs"
            else:
                continue
            raise DataError(
                f"raw file {spec.path}: {blocked}; move it away and put the file at {spec.candidates(raw_dir)[0]} "
                f"(sha256 {spec.sha256}, from {spec.where_to_get()})"
            )
        path = found[spec.path] = locate(raw_dir, spec)
        if path is not None:
            check(path, spec, cache)
    return found


def check(path: str | os.PathLike, spec: RawFile, cache: str | os.PathLike | None = None) -> None:
    """Raise a one-line DataError unless the content of ``path`` has the pinned checksum (read through the
    checksum ``cache`` when one is given: :func:`cached_sha256`); it names the file, the expected checksum and
    where to get the right file, last."""
    fix = f"expected sha256 {spec.sha256} ({spec.path}); replace it with the file from {spec.where_to_get()}"
    try:
        got = content_sha256(path) if cache is None else cached_sha256(path, cache)
    except DataError as err:
        raise DataError(f"{path}: cannot read it ({err.__cause__}), the file is damaged; {fix}") from err
    if got != spec.sha256:
        raise DataError(f"{path}: sha256 of the content is {got}, the file is corrupt or a different version; {fix}")


def verify(raw_dir: str | os.PathLike, spec: RawFile) -> Path:
    """The verified file of ``spec`` under ``raw_dir``; one-line DataError if missing or wrong."""
    path = locate(raw_dir, spec)
    if path is None:
        raise DataError(missing_message(raw_dir, spec))
    check(path, spec)
    return path


def unreachable(url: str, timeout: float = 5.0) -> str | None:
    """Why a download from ``url`` cannot start, when that is certain without fetching anything: a ``file:`` address
    naming no file, a host name that does not resolve, a connection refused or a network that is unreachable (one
    connection, closed unused, at most ``timeout`` seconds); None when it may start, a slow answer included (the
    download then tries and, failing, says so in its job)."""
    parts = urllib.parse.urlsplit(url)
    if parts.scheme == "file":
        path = urllib.request.url2pathname(parts.path)
        return None if os.path.isfile(path) else f"{path} is not a file"
    host, port = parts.hostname or "", parts.port or (443 if parts.scheme == "https" else 80)
    try:
        socket.create_connection((host, port), timeout=timeout).close()
    except socket.gaierror as err:
        return f"host {host} not found ({err.strerror})"
    except TimeoutError:
        return None
    except OSError as err:
        return f"cannot connect to {host} port {port} ({err.strerror or err})"
    return None


def check_downloads(raw_dir: str | os.PathLike, specs: Iterable[RawFile], timeout: float = 5.0) -> None:
    """Raise the one-line :func:`missing_message` of the first of ``specs``, files a run is about to download, whose
    address cannot be reached (:func:`unreachable`, each host asked once): before any job runs, rather than at
    the end of the run's output when the download fails."""
    reasons: dict[str, str | None] = {}
    for spec in specs:
        site = urllib.parse.urlsplit(spec.url).netloc or spec.url
        if site not in reasons:
            reasons[site] = unreachable(spec.url, timeout)
        if reasons[site]:
            raise DataError(missing_message(raw_dir, spec, f"{spec.url} cannot be reached: {reasons[site]}"))


def _pinned(config: Mapping[str, Any]) -> dict[str, list[RawFile]]:
    """The raw files each paper with a section in ``config`` pins (:meth:`causal_bandits.papers.Paper.raw_entries`),
    by paper."""
    sections = {key: config.get(key) or {} for key in papers.PAPERS}
    return {key: [RawFile.from_config(e) for e in papers.paper(key).raw_entries(s)] for key, s in sections.items() if s}


def pinned(config: Mapping[str, Any]) -> list[RawFile]:
    """The raw files a workflow config pins: each paper's with a section in the config, in paper order."""
    return [spec for specs in _pinned(config).values() for spec in specs]


def check_before_run(config: Mapping[str, Any], raw_dir: str | os.PathLike | None = None) -> None:
    """The raw data a run of ``config`` reads, checked before it starts anything (``make reproduce``, ``quick``,
    ``run``, ``studies`` and ``causal-bandits verify``): each pinned file present under ``raw_dir`` (default: the
    config's ``data.raw_dir``) has its checksum, and each missing one can be downloaded, unless the config stands
    in for the paper's missing files (:meth:`causal_bandits.papers.Paper.stands_in`). The first problem raises its
    one-line DataError (:func:`present`, :func:`check_downloads`), instead of a job's failure at the end of the run's
    output."""
    by_paper = _pinned(config)
    where = raw_dir if raw_dir is not None else config["data"]["raw_dir"]
    found = present(where, [spec for specs in by_paper.values() for spec in specs], None)
    fetched = [key for key in by_paper if not papers.paper(key).stands_in(config.get(key) or {})]
    check_downloads(where, [spec for key in fetched for spec in by_paper[key] if found[spec.path] is None])


Opener = Callable[[str], IO[bytes]]


def _urlopen(url: str) -> IO[bytes]:
    return urllib.request.urlopen(url, timeout=120)


def fetch(raw_dir: str | os.PathLike, spec: RawFile, opener: Opener = _urlopen) -> Path:
    """Download the file of ``spec`` to ``raw_dir/path``; verified before it appears there.

    ``opener(url)`` returns a binary stream (default: :func:`urllib.request.urlopen`); tests pass
    one that reads a local file.
    """
    dest = Path(raw_dir) / spec.path
    try:
        with atomic_path(dest) as tmp:
            with opener(spec.url) as response, open(tmp, "wb") as out:
                shutil.copyfileobj(response, out, _CHUNK)
            if spec.member is not None:
                _extract_member(tmp, spec)
            check(tmp, spec)
    except DataError as err:
        raise DataError(f"download of {spec.path} rejected: {err}") from err
    except (OSError, urllib.error.URLError, ValueError) as err:
        raise DataError(missing_message(raw_dir, spec, f"download from {spec.url} failed: {err}")) from err
    return dest


def _extract_member(path: Path, spec: RawFile) -> None:
    """Replace the zip archive at ``path`` by its member ``spec.member``."""
    assert spec.member is not None  # the caller extracts only for a spec with a member
    try:
        with zipfile.ZipFile(path) as archive:
            data = archive.read(spec.member)
    except KeyError as err:
        raise DataError(f"{spec.url} has no member {spec.member!r}; fix `member` in the config") from err
    except zipfile.BadZipFile as err:
        raise DataError(f"{spec.url} is not a zip archive ({err}); fix `url` or `member` in the config") from err
    path.write_bytes(data)


def read_lines(path: str | os.PathLike, encoding: str = "utf-8") -> list[str]:
    """The (uncompressed) content of ``path`` as lines without their ``\\n`` / ``\\r\\n`` endings.

    A final line break does not start an extra line; a file that does not end in a line break keeps
    its last (possibly truncated) line, for the parser to judge.
    """
    with open_binary(path) as stream:
        raw = stream.read()
    try:
        text = raw.decode(encoding)
    except UnicodeDecodeError as err:
        raise DataError(f"{path}: not {encoding} text at byte {err.start}; replace the file") from err
    lines = [line.removesuffix("\r") for line in text.split("\n")]
    return lines[:-1] if lines and lines[-1] == "" else lines


def download_step(job: Job) -> None:
    """Rule ``<paper>_download``: fetch a missing raw file from its pinned address (:func:`fetch`), verified before it
    appears."""
    spec = RawFile.from_config(job.params.entry)
    path = fetch(job.params.raw_dir, spec)
    log.info("downloaded %s from %s (sha256 %s)", path, spec.url, spec.sha256)


def check_step(job: Job) -> None:
    """Rule ``<paper>_raw_check``: verify the sha256 of a data set's raw files (:func:`check`; read once: the checksum
    cache the planning filled, :func:`cached_sha256`) and label stand-ins, into the data set's manifest."""
    p = job.params
    files = []
    for entry, path in zip(p.entries, job.input.files):
        spec = RawFile.from_config(entry)
        if Path(path).is_relative_to(STANDIN_DIR):
            files.append({"file": path, "pinned": spec.path, "provenance": "synthetic-standin"})
            log.warning("%s is missing under %s: using the synthetic stand-in %s", spec.path, p.raw_dir, path)
            continue
        check(path, spec, p.checksums)
        name = recorded_name(path, p.raw_dir)
        files.append({"file": name, "pinned": spec.path, "sha256": spec.sha256, "provenance": "raw"})
        log.info("%s: sha256 %s verified", path, spec.sha256)
    provenance = "synthetic-standin" if any(f["provenance"] != "raw" for f in files) else "raw"
    write_json(job.output[0], {"dataset": job.wildcards.dataset, "data_provenance": provenance, "files": files})
