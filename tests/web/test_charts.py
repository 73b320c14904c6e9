"""The server-drawn score chart: what a player sees in the SVG."""

import re
import xml.etree.ElementTree as ET

from companion.web.charts import score_chart

SVG = "{http://www.w3.org/2000/svg}"


def result_of(*rounds):
    return {"rounds": [{"totals": totals} for totals in rounds]}


def polylines(svg):
    root = ET.fromstring(str(svg))
    return {line.find(f"{SVG}title").text: [tuple(map(float, p.split(",")))
                                           for p in line.get("points").split()]
            for line in root.iter(f"{SVG}polyline")}


def test_one_line_per_player_with_a_point_per_round_plus_the_start():
    lines = polylines(score_chart(result_of({"Rob": 11, "Sam": -9}, {"Rob": 40, "Sam": 2})))
    assert set(lines) == {"Rob", "Sam"}
    assert all(len(points) == 3 for points in lines.values())


def test_a_higher_total_is_drawn_higher():
    lines = polylines(score_chart(result_of({"Rob": 30, "Sam": -9})))
    rob_y, sam_y = lines["Rob"][-1][1], lines["Sam"][-1][1]
    assert rob_y < sam_y  # SVG y grows downwards


def test_the_latest_total_is_written_at_the_end_of_each_line():
    svg = str(score_chart(result_of({"Ann": 3.5, "Bo": 2}, {"Ann": 4, "Bo": 7.5})))
    assert "Ann 4<" in svg and "Bo 7½<" in svg  # halves as ½, as every page writes them
    svg = str(score_chart(result_of({"Ann": -12, "Bo": 2})))
    assert "Ann −12<" in svg and ">−12<" in svg  # one minus sign, on the axis too


def test_player_names_are_escaped():
    svg = str(score_chart(result_of({"<script>x</script>": 5, "Bo": 1})))
    assert "<script>" not in svg
    assert "&lt;script&gt;" in svg
    ET.fromstring(svg)  # still well-formed


def test_no_rounds_draws_nothing():
    assert str(score_chart({"rounds": []})) == ""


def test_chip_games_start_from_the_starting_stack():
    lines = polylines(score_chart(result_of({"Ann": 110, "Bo": 90}), start={"Ann": 100,
                                                                         "Bo": 100}))
    assert lines["Ann"][0][1] == lines["Bo"][0][1]
    assert re.search(r">100<", str(score_chart(result_of({"Ann": 110, "Bo": 90}),
                                               start={"Ann": 100, "Bo": 100})))
