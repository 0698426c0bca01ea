"""Adult and YouTube parsers: real files parse to the documented counts; bad input fails in one line."""

import pytest
from workflow_helpers import SHARED_RAW

from causal_bandits.data.adult import read_adult
from causal_bandits.data.youtube import read_crawl
from causal_bandits.errors import DataError
from causal_bandits.papers.fairness import standin

RAW_DIR = SHARED_RAW
needs_raw = pytest.mark.skipif(
    not (RAW_DIR / "adult" / "adult.data.gz").is_file(), reason=f"shared raw data not found at {RAW_DIR}"
)
GOOD = (
    "39, State-gov, 77516, Bachelors, 13, Never-married, Adm-clerical, Not-in-family, White, Male, 2174, 0, 40, "
    "United-States, <=50K"
)
VIDEO = "QuRYeRnAuXM\tuser\t1135\tPets & Animals\t252\t1075\t4.96\t46\t86\trelated1\trelated2"


@needs_raw
def test_real_adult_matches_the_documented_counts():
    adult = read_adult(RAW_DIR / "adult" / "adult.data.gz")
    assert len(adult) == 32_561
    assert (adult["sex"] == "Male").sum() == 21_790 and (adult["sex"] == "Female").sum() == 10_771
    assert adult["age"].median() == 37
    assert adult["row_id"].iloc[-1] == 32_560


@needs_raw
def test_real_adult_test_file_with_header_and_periods_parses():
    test = read_adult(RAW_DIR / "adult" / "adult.test.gz")
    assert len(test) == 16_281 and set(test["income"]) == {"<=50K", ">50K"}


@needs_raw
def test_real_youtube_file_counts_id_only_lines():
    crawl = read_crawl([RAW_DIR / "youtube" / "youtubedata.txt"], 0.05)
    assert crawl.summary() == {
        "lines": 4100,
        "videos": 4066,
        "skipped_short": 34,
        "skipped_non_numeric": 0,
        "duplicates_dropped": 0,
    }


def test_adult_with_a_wrong_column_count_is_rejected(tmp_path):
    path = tmp_path / "adult.data"
    path.write_text(GOOD + "\n" + GOOD.replace(", State-gov", "") + "\n")
    with pytest.raises(DataError, match=r"adult.data, line 2: 14 comma-separated fields, expected 15") as err:
        read_adult(path)
    assert "\n" not in str(err.value)


def test_adult_with_a_truncated_last_line_is_rejected(tmp_path):
    path = tmp_path / "adult.data"
    path.write_text(GOOD + "\n" + GOOD[:60])
    with pytest.raises(DataError, match=r"line 2: .* fields, expected 15.*truncated"):
        read_adult(path)


def test_adult_with_bad_values_is_rejected(tmp_path):
    path = tmp_path / "adult.data"
    path.write_text(GOOD.replace("<=50K", "<=5") + "\n")
    with pytest.raises(DataError, match="income '<=5'"):
        read_adult(path)
    path.write_text(GOOD.replace("39,", "x9,") + "\n")
    with pytest.raises(DataError, match="age 'x9'"):
        read_adult(path)


def test_youtube_non_numeric_lines_are_skipped_and_counted(tmp_path):
    lines = [VIDEO.replace("QuRYeRnAuXM", f"id{k:09d}") for k in range(99)] + [VIDEO.replace("\t252\t", "\tabc\t")]
    (tmp_path / "0.txt").write_text("\r\n".join(lines) + "\r\n")
    crawl = read_crawl([tmp_path / "0.txt"], 0.05)
    assert crawl.n_malformed == 1 and len(crawl.videos) == 99
    assert crawl.videos["length_s"].dtype.kind == "i"


def test_youtube_above_the_threshold_stops_with_counts(tmp_path):
    lines = [VIDEO] + [VIDEO.replace("\t1075\t", "\tmany\t").replace("QuRYeRnAuXM", f"x{k}") for k in range(3)]
    (tmp_path / "0.txt").write_text("\n".join(lines))
    expected = r"3 of 4 lines skipped \(0 with fewer than 9 fields, 3 with non-numeric"
    with pytest.raises(DataError, match=expected) as err:
        read_crawl([tmp_path / "0.txt"], 0.05)
    assert "0.txt:2" in str(err.value) and "\n" not in str(err.value)


def test_youtube_duplicates_keep_the_first(tmp_path):
    (tmp_path / "0.txt").write_text(VIDEO + "\n" + VIDEO.replace("\t46\t", "\t47\t") + "\n")
    crawl = read_crawl([tmp_path / "0.txt"], 0.05)
    assert crawl.n_duplicates == 1 and crawl.videos["ratings"].tolist() == [46]


def test_standins_have_the_real_formats_and_marginals(tmp_path):
    standin.write_lines(tmp_path / "adult.data", standin.adult_lines(0))
    adult = read_adult(tmp_path / "adult.data")
    assert len(adult) == 32_561 and (adult["sex"] == "Male").sum() == 21_790
    assert abs(adult["age"].mean() - 38.6) < 0.5 and adult["age"].median() == 37
    rate = adult.groupby("sex")["income"].apply(lambda s: (s == ">50K").mean())
    assert abs(rate["Male"] - 0.306) < 0.02 and abs(rate["Female"] - 0.109) < 0.02
    standin.write_lines(tmp_path / "yt.txt", standin.youtube_lines(0))
    crawl = read_crawl([tmp_path / "yt.txt"], 0.0)
    assert len(crawl.videos) >= 1580 and crawl.n_skipped == 0
    assert standin.youtube_lines(0)[:3] == standin.youtube_lines(0)[:3]  # deterministic
