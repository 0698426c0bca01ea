"""The console script, as a researcher calls it."""

from __future__ import annotations

import json
import subprocess
import sys


def run(*args):
    return subprocess.run([sys.executable, "-m", "causal_bandits", *args], capture_output=True, text=True)


def test_pomis_on_the_paper_front_door_graph(tmp_path):
    graph = tmp_path / "g.json"
    graph.write_text(
        json.dumps(
            {
                "nodes": ["X", "Z", "Y"],
                "directed": [["X", "Z"], ["Z", "Y"]],
                "bidirected": [["X", "Y"]],
                "reward": "Y",
                "non_manipulable": ["Z"],
            }
        )
    )
    result = run("pomis", str(graph))
    assert result.returncode == 0
    assert json.loads(result.stdout) == {"mis": [[], ["X"]], "pomis": [[], ["X"]]}


def test_malformed_graph_is_one_line_and_exit_2(tmp_path):
    graph = tmp_path / "g.json"
    graph.write_text("{not json")
    result = run("pomis", str(graph))
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("error:")
