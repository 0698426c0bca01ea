"""Pinned raw files: location (plain or .gz), sha256 verification, downloads that verify first."""

import gzip
import hashlib
import re
import socket
import zipfile
from pathlib import Path

import pytest
from workflow_helpers import SHARED_RAW

from causal_bandits.data import raw
from causal_bandits.errors import DataError

RAW_DIR = SHARED_RAW
ADULT_SHA = "5b00264637dbfec36bdeaab5676b0b309ff9eb788d63554ca0a249491c86603d"
ADULT = raw.RawFile(
    "adult/adult.data",
    ADULT_SHA,
    "https://archive.ics.uci.edu/ml/machine-learning-databases/adult/adult.data",
    "https://archive.ics.uci.edu/dataset/2/adult",
)
needs_raw = pytest.mark.skipif(
    not (RAW_DIR / "adult" / "adult.data.gz").is_file(), reason=f"shared raw data not found at {RAW_DIR}"
)


def spec_for(tmp_path: Path, content: bytes, name: str = "d/file.txt", **kw) -> raw.RawFile:
    return raw.RawFile(name, hashlib.sha256(content).hexdigest(), "file://" + str(tmp_path / "src.bin"), **kw)


@needs_raw
def test_shared_adult_gz_is_located_and_verified():
    path = raw.verify(RAW_DIR, ADULT)
    assert path.name == "adult.data.gz"


@needs_raw
def test_corrupted_copy_of_adult_data_gz_is_rejected_by_checksum(tmp_path):
    lines = gzip.decompress((RAW_DIR / "adult" / "adult.data.gz").read_bytes()).split(b"\n")
    lines[100] = lines[100].replace(b"Male", b"Mole", 1)  # one flipped letter, still valid gzip and CSV
    (tmp_path / "adult").mkdir()
    (tmp_path / "adult" / "adult.data.gz").write_bytes(gzip.compress(b"\n".join(lines)))
    with pytest.raises(DataError) as err:
        raw.verify(tmp_path, ADULT)
    message = str(err.value)
    assert "adult.data.gz" in message and ADULT_SHA in message and ADULT.url in message
    assert "\n" not in message


@needs_raw
def test_truncated_gzip_is_rejected_in_one_line(tmp_path):
    data = (RAW_DIR / "adult" / "adult.data.gz").read_bytes()
    (tmp_path / "adult").mkdir()
    (tmp_path / "adult" / "adult.data.gz").write_bytes(data[: len(data) // 2])
    with pytest.raises(DataError, match=re.escape("adult.data.gz")) as err:
        raw.verify(tmp_path, ADULT)
    assert "\n" not in str(err.value)


def test_missing_file_names_file_checksum_and_source(tmp_path):
    with pytest.raises(DataError) as err:
        raw.verify(tmp_path, ADULT)
    message = str(err.value)
    for part in ("adult/adult.data", ADULT_SHA, ADULT.url, "adult.data.gz"):
        assert part in message


def test_plain_file_is_preferred_and_gz_checks_its_content(tmp_path):
    content = b"a, b\n"
    spec = spec_for(tmp_path, content)
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "file.txt.gz").write_bytes(gzip.compress(content))
    assert raw.verify(tmp_path, spec).name == "file.txt.gz"
    (tmp_path / "d" / "file.txt").write_bytes(b"other")
    with pytest.raises(DataError, match="sha256"):
        raw.verify(tmp_path, spec)


def test_fetch_downloads_verifies_and_places_the_file(tmp_path):
    content = b"x\ty\n" * 10
    (tmp_path / "src.bin").write_bytes(content)
    spec = spec_for(tmp_path, content)
    dest = raw.fetch(tmp_path / "raw", spec)
    assert dest.read_bytes() == content and raw.verify(tmp_path / "raw", spec) == dest


def test_fetch_of_wrong_bytes_leaves_nothing_behind(tmp_path):
    (tmp_path / "src.bin").write_bytes(b"tampered")
    spec = spec_for(tmp_path, b"expected")
    with pytest.raises(DataError, match=re.escape("download of d/file.txt rejected")):
        raw.fetch(tmp_path / "raw", spec)
    assert not any(p.is_file() for p in (tmp_path / "raw").rglob("*"))


def test_fetch_extracts_a_zip_member(tmp_path):
    content = b"id\tuser\t1\tMusic\t10\t20\t3.5\t4\t5\n"
    with zipfile.ZipFile(tmp_path / "src.bin", "w") as z:
        z.writestr("080327/0.txt", content)
    spec = spec_for(tmp_path, content, member="080327/0.txt")
    assert raw.fetch(tmp_path / "raw", spec).read_bytes() == content
    wrong = spec_for(tmp_path, content, name="d/other.txt", member="080327/9.txt")
    with pytest.raises(DataError, match="no member"):
        raw.fetch(tmp_path / "raw", wrong)


def test_unreachable_url_gives_the_missing_message(tmp_path):
    spec = raw.RawFile("d/f.txt", "0" * 64, "file://" + str(tmp_path / "nowhere"))
    with pytest.raises(DataError, match=r"missing .*download from .* failed.*expected sha256 0{64}"):
        raw.fetch(tmp_path, spec)


def test_read_lines_handles_crlf_and_a_missing_final_newline(tmp_path):
    (tmp_path / "f.txt").write_bytes(b"a\r\nb\r\nc")
    assert raw.read_lines(tmp_path / "f.txt") == ["a", "b", "c"]


def test_a_checksum_is_read_once_per_size_and_modification_time(tmp_path, monkeypatch):
    path, cache = tmp_path / "d" / "file.txt", tmp_path / "cache" / "sha256.json"
    path.parent.mkdir()
    path.write_bytes(b"abc")
    reads = []
    content = raw.content_sha256
    monkeypatch.setattr(raw, "content_sha256", lambda p: reads.append(p) or content(p))
    expected = hashlib.sha256(b"abc").hexdigest()
    assert raw.cached_sha256(path, cache) == expected == raw.cached_sha256(path, cache)
    assert len(reads) == 1
    path.write_bytes(b"abd")  # another size or time: read again
    assert raw.cached_sha256(path, cache) == hashlib.sha256(b"abd").hexdigest() and len(reads) == 2
    cache.write_text("{not json")  # a damaged cache is rebuilt
    assert raw.cached_sha256(path, cache) == hashlib.sha256(b"abd").hexdigest() and len(reads) == 3


def test_planning_names_a_corrupt_file_with_its_checksum_and_returns_the_missing_ones(tmp_path):
    good, bad, absent = (spec_for(tmp_path, b"pinned", name=f"d/{n}.txt") for n in ("good", "bad", "absent"))
    (tmp_path / "raw" / "d").mkdir(parents=True)
    (tmp_path / "raw" / "d" / "good.txt").write_bytes(b"pinned")
    found = raw.present(tmp_path / "raw", [good, absent], tmp_path / "cache.json")
    assert found == {"d/good.txt": tmp_path / "raw" / "d" / "good.txt", "d/absent.txt": None}
    (tmp_path / "raw" / "d" / "bad.txt").write_bytes(b"pinnex")
    with pytest.raises(DataError) as err:
        raw.present(tmp_path / "raw", [good, bad, absent], tmp_path / "cache.json")
    message = str(err.value)
    assert message.startswith(f"{tmp_path / 'raw' / 'd' / 'bad.txt'}: sha256 of the content is ")
    assert f"expected sha256 {bad.sha256}" in message and message.endswith(f"replace it with the file from {bad.url}")


def test_planning_names_a_directory_where_a_raw_file_belongs(tmp_path):
    """A directory at a raw file's place (which no download could fill) is one line when the workflow plans."""
    spec = spec_for(tmp_path, b"pinned", name="d/adult.data")
    (tmp_path / "raw" / "d" / "adult.data").mkdir(parents=True)
    with pytest.raises(DataError) as err:
        raw.present(tmp_path / "raw", [spec], tmp_path / "cache.json")
    message = str(err.value)
    assert message.startswith(f"raw file d/adult.data: {tmp_path / 'raw' / 'd' / 'adult.data'} is a directory")
    assert f"sha256 {spec.sha256}" in message and "\n" not in message


def test_planning_names_a_file_where_a_raw_files_folder_belongs(tmp_path):
    """``raw_dir/adult`` a file: no download could create ``adult/adult.data`` under it."""
    spec = spec_for(tmp_path, b"pinned", name="d/adult.data")
    (tmp_path / "raw").mkdir()
    (tmp_path / "raw" / "d").write_text("not a folder")
    with pytest.raises(DataError) as err:
        raw.present(tmp_path / "raw", [spec], tmp_path / "cache.json")
    assert str(err.value).startswith(
        f"raw file d/adult.data: {tmp_path / 'raw' / 'd'} is a file where a folder belongs; move it away and put the "
        f"file at {tmp_path / 'raw' / 'd' / 'adult.data'} (sha256 {spec.sha256}"
    )


def _closed_port() -> int:
    """A local TCP port nothing listens on (bound, then released)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_an_address_that_cannot_be_reached_is_named_before_any_download(tmp_path):
    """Never the network: a local file (``file:``) stands for a server, a released local port for a refusing one."""
    (tmp_path / "src.bin").write_bytes(b"pinned")
    served, gone = spec_for(tmp_path, b"pinned"), raw.RawFile("d/gone.txt", "0" * 64, f"file://{tmp_path}/nowhere")
    assert raw.unreachable(served.url) is None
    assert raw.unreachable(gone.url) == f"{tmp_path}/nowhere is not a file"
    port = _closed_port()
    assert raw.unreachable(f"http://127.0.0.1:{port}/adult.data").startswith(f"cannot connect to 127.0.0.1 port {port}")
    raw.check_downloads(tmp_path / "raw", [served])
    with pytest.raises(DataError) as err:
        raw.check_downloads(tmp_path / "raw", [served, gone])
    assert str(err.value).startswith(
        f"raw file d/gone.txt is missing ({gone.url} cannot be reached: {tmp_path}/nowhere is not a file): looked for "
        f"{tmp_path / 'raw' / 'd' / 'gone.txt'}"
    )
    assert str(err.value).endswith("or run the workflow on a machine with network access to download it")


def _config(raw_dir, on_missing="download", **adult):
    entry = {"path": "adult/adult.data", "sha256": ADULT_SHA, "url": f"file://{raw_dir}/nowhere", **adult}
    return {"data": {"raw_dir": str(raw_dir)}, "fairness": {"raw": {"adult": entry, "on_missing": on_missing}}}


def test_before_a_run_the_raw_data_are_checked_first_in_one_line(tmp_path):
    """What make's targets and verify run before any job: a missing file that cannot be downloaded and a wrong file
    are one line each; stand-ins for missing files, and a config without the fairness paper, pass."""
    with pytest.raises(DataError, match=r"^raw file adult/adult.data is missing \(file://.* cannot be reached") as err:
        raw.check_before_run(_config(tmp_path))
    assert "\n" not in str(err.value)
    raw.check_before_run(_config(tmp_path, on_missing="standin"))
    raw.check_before_run({"data": {"raw_dir": str(tmp_path)}})
    (tmp_path / "adult").mkdir()
    (tmp_path / "adult" / "adult.data").write_text("not the pinned file\n")
    for on_missing in ("download", "standin"):
        with pytest.raises(DataError, match=r"adult.data: sha256 of the content is .*, the file is corrupt"):
            raw.check_before_run(_config(tmp_path, on_missing))
    with pytest.raises(DataError, match=r"is missing"):
        raw.check_before_run(_config(tmp_path), tmp_path / "elsewhere")
