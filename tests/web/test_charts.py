"""The server-drawn score chart: what a player sees in the SVG."""

import random
import re
import xml.etree.ElementTree as ET

import pytest

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


def end_labels(svg):
    """Each end label's text and its box (top, bottom) in the chart's units: from its
    baseline up by the font size (the tallest ascender) and down by a third of it (the
    deepest descender), as wide a box as the font can draw."""
    root = ET.fromstring(str(svg))
    height = float(root.get("viewBox").split()[3])
    labels = []
    for text in root.iter(f"{SVG}text"):
        if text.get("class") == "end-label":
            size, baseline = float(text.get("font-size")), float(text.get("y"))
            labels.append((text.text, baseline - size, baseline + size / 3))
    return labels, height


def assert_apart(labels):
    boxes = sorted(labels, key=lambda label: label[1])
    for (above, _top, bottom), (below, top, _bottom) in zip(boxes, boxes[1:], strict=False):
        assert bottom <= top, f"{above!r} overlaps {below!r}"


def test_end_labels_of_totals_a_point_apart_do_not_overlap_and_keep_their_order():
    # Trumplestiltskin at the deciding moment: Fay 61 and Gus 60, the others far below.
    svg = score_chart(result_of({"Fay": 20, "Gus": 25, "Hal": 10, "Ivo": 5},
                                {"Fay": 61, "Gus": 60, "Hal": 12, "Ivo": -3}))
    labels, height = end_labels(svg)
    assert [text for text, _top, _bottom in labels] == ["Fay 61", "Gus 60", "Hal 12", "Ivo −3"]
    assert_apart(labels)
    by_name = {text.split()[0]: top for text, top, _bottom in labels}
    assert by_name["Fay"] < by_name["Gus"] < by_name["Hal"] < by_name["Ivo"]
    assert all(0 <= top and bottom <= height for _text, top, bottom in labels)


def test_eight_equal_totals_get_eight_labels_apart_inside_the_chart():
    totals = {name: 7 for name in ("Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal")}
    labels, height = end_labels(score_chart(result_of(totals)))
    assert len(labels) == 8
    assert_apart(labels)
    assert all(0 <= top and bottom <= height for _text, top, bottom in labels)


def test_a_label_far_from_the_others_stays_at_the_end_of_its_line():
    svg = score_chart(result_of({"Rob": 90, "Sam": -40}))
    ends = {line: points[-1][1] for line, points in polylines(svg).items()}
    labels, _height = end_labels(svg)
    for text, _top, bottom in labels:
        baseline = bottom - 13 / 3
        assert baseline == pytest.approx(ends[text.split()[0]] + 4, abs=0.2)


@pytest.mark.parametrize("seed", range(40))
def test_no_two_end_labels_overlap_whatever_the_totals(seed):
    chance = random.Random(seed)
    names = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"][:chance.randint(2, 8)]
    rounds = [{name: chance.randint(-30, 120) for name in names}
              for _ in range(chance.randint(1, 25))]
    labels, height = end_labels(score_chart(result_of(*rounds)))
    assert_apart(labels)
    assert all(0 <= top and bottom <= height for _text, top, bottom in labels)
    last = rounds[-1]
    tops = {text.split()[0]: top for text, top, _bottom in labels}
    for higher in names:  # a higher total's label is never below a lower total's
        for lower in names:
            if last[higher] > last[lower]:
                assert tops[higher] < tops[lower]
