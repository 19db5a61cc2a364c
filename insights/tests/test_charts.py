"""The server-side SVG charts: values as text, labels escaped, bars to scale."""

from insights import charts


def test_horizontal_bars_scale_to_the_largest_value_and_show_each_value():
    svg = charts.horizontal_bars(
        [charts.Bar("One", 50), charts.Bar("Two", 100, highlight=True)], title="Reached"
    )

    assert svg.startswith('<svg class="insights-chart" role="img"')
    assert "<title>Reached</title>" in svg
    assert 'width="155.0"' in svg  # half the span
    assert 'width="310.0"' in svg  # all of it
    assert f'fill="{charts.HIGHLIGHT}"' in svg
    assert ">50<" in svg
    assert ">100<" in svg


def test_labels_and_links_are_escaped():
    svg = charts.horizontal_bars(
        [charts.Bar('<script>alert("x")</script>', 1, href='/a?b=1&c="2"')], title="<t>"
    )

    assert "<script>" not in svg
    assert "&lt;script&gt;" in svg
    assert 'href="/a?b=1&amp;c=&quot;2&quot;"' in svg
    assert "<title>&lt;t&gt;</title>" in svg


def test_an_empty_chart_says_so():
    assert "No data yet." in charts.horizontal_bars([], title="Nothing")


def test_columns_over_time_label_the_maximum_and_each_column():
    svg = charts.columns_over_time([("01 Jan", 3), ("08 Jan", 1200)], title="Weekly")

    assert ">1,200</text>" in svg
    assert "<title>08 Jan: 1,200</title>" in svg
    assert svg.count("<rect") == 2
