"""Statistics as SVG charts: bars (win rate by seat, match lengths, cooperative results) and rating lines. Each
chart says the global log position its numbers are computed up to."""

from __future__ import annotations

from collections.abc import Sequence

from api.web.svg import Svg, seat_colour

WIDTH, HEIGHT = 560, 260
FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, 'DejaVu Sans', sans-serif"  # the pages' own sans-serif
NEUTRAL = "#5b6b7a"  # bars that are not seats (match lengths) are not drawn in a seat's colour
LEFT, TOP, BOTTOM = 50, 40, 50


def _frame(title: str, position: int, **attrs: object) -> Svg:
    """A chart's canvas, its title and its position note."""
    svg = Svg(WIDTH, HEIGHT, title=title, data_position=position, font_family=FONT, **attrs)
    svg.text(LEFT, 22, title, 14, font_weight="bold")
    svg.text(LEFT, HEIGHT - 8, f"computed up to log position {position}", 11, fill="#555555", data_note="position")
    return svg


NICE = (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000, 10_000)


def binned(counts: dict[int, int], most: int = 8) -> list[tuple[str, int, int, int]]:
    """Counts of integer values in at most `most` bins of a round width: (label "40–49", low, high, count), every bin
    from the lowest to the highest value (empty ones too, so the axis reads evenly)."""
    if not counts:
        return []
    low, high = min(counts), max(counts)
    width = next((w for w in NICE if (high // w - low // w + 1) <= most), NICE[-1])
    bins = []
    for start in range(low // width * width, high + 1, width):
        end = start + width - 1
        label = str(start) if width == 1 else f"{start}–{end}"
        bins.append((label, start, end, sum(n for value, n in counts.items() if start <= value <= end)))
    return bins


def bars(title: str, position: int, items: Sequence[tuple[str, float]], *, unit: str = "", seats: bool = False,
         empty: str = "no finished match yet", axis: str = "") -> str:
    """A bar per (label, value), scaled to the largest value (1 for rates); in seat colours when the bars are seats,
    else one neutral colour; `empty` says why there is no bar; `axis` names what the labels are."""
    svg = _frame(title, position, data_chart="bars")
    if axis:
        svg.text(WIDTH - 10, HEIGHT - BOTTOM + 34, axis, 12, fill="#555555", text_anchor="end", data_note="axis")
    if not items:
        svg.text(LEFT, HEIGHT / 2, empty, 13, data_note="empty")
        return svg.tostring()
    top = max(max(value for _, value in items), 1 if unit == "%" else 0) or 1
    room = (WIDTH - LEFT - 20) / len(items)
    height = HEIGHT - TOP - BOTTOM
    svg.line(LEFT, HEIGHT - BOTTOM, WIDTH - 10, HEIGHT - BOTTOM, stroke="#333333")
    for index, (label, value) in enumerate(items):
        x, h = LEFT + room * index + room * 0.15, height * value / top
        shown = f"{value * 100:.0f}%" if unit == "%" else f"{value:g}"
        colour = seat_colour(index % 7) if seats else NEUTRAL
        svg.rect(x, HEIGHT - BOTTOM - h, room * 0.7, h, fill=colour, data_label=label, data_value=round(value, 6))
        svg.text(x + room * 0.35, HEIGHT - BOTTOM - h - 4, shown, 12, text_anchor="middle")
        svg.text(x + room * 0.35, HEIGHT - BOTTOM + 16, label, 12, text_anchor="middle")
    return svg.tostring()


def lines(title: str, position: int, series: Sequence[tuple[str, Sequence[tuple[float, float]]]]) -> str:
    """A line per (name, points), x and y scaled to all points together."""
    svg = _frame(title, position, data_chart="lines")
    points = [point for _, line in series for point in line]
    if not points:
        svg.text(LEFT, HEIGHT / 2, "no rated match yet", 13)
        return svg.tostring()
    xs, ys = [x for x, _ in points], [y for _, y in points]
    x0, x1 = min(xs), max(xs) if max(xs) > min(xs) else min(xs) + 1
    y0, y1 = min(ys), max(ys) if max(ys) > min(ys) else min(ys) + 1
    width, height = WIDTH - LEFT - 150, HEIGHT - TOP - BOTTOM

    def at(x: float, y: float) -> tuple[float, float]:
        return LEFT + width * (x - x0) / (x1 - x0), TOP + height * (1 - (y - y0) / (y1 - y0))

    svg.text(LEFT - 6, TOP + 8, f"{y1:.1f}", 12, text_anchor="end")
    svg.text(LEFT - 6, TOP + height, f"{y0:.1f}", 12, text_anchor="end")
    svg.line(LEFT, TOP + height + 4, LEFT + width, TOP + height + 4, stroke="#999999")
    for index, (name, line) in enumerate(series):
        colour = seat_colour(index % 7)
        drawn = " ".join("{:.1f},{:.1f}".format(*at(x, y)) for x, y in line)
        svg.add("polyline", points=drawn, fill="none", stroke=colour, stroke_width=2,
                data_series=name, data_points=len(line))
        for x, y in line:
            svg.circle(*at(x, y), 2.5, fill=colour)
        # the legend in its own column right of the plot, clear of every point
        svg.rect(LEFT + width + 24, TOP + 18 * index, 12, 12, fill=colour)
        svg.text(LEFT + width + 42, TOP + 18 * index + 11, name, 12, fill=colour)
    return svg.tostring()
