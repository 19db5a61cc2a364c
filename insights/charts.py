"""Charts as inline SVG, drawn on the server: no JavaScript, no CDN, readable without colour
(every bar carries its value as text) and accessible (a <title> and role="img")."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

BAR = "#417690"
HIGHLIGHT = "#ba2121"
MUTED = "#9aa7b0"


@dataclass(frozen=True)
class Bar:
    label: str
    value: float
    text: str = ""  # shown after the bar; the value when empty
    highlight: bool = False
    href: str = ""
    part: float = 0  # a share of the value drawn over the bar's start in the highlight colour


def _svg(width: int, height: int, title: str, body: list[str]) -> SafeString:
    return mark_safe(  # noqa: S308 - every text inside was escaped
        f'<svg class="insights-chart" role="img" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" xmlns="http://www.w3.org/2000/svg" '
        f'font-family="sans-serif" font-size="12"><title>{escape(title)}</title>'
        + "".join(body)
        + "</svg>"
    )


def horizontal_bars(
    bars: Sequence[Bar],
    *,
    title: str,
    maximum: float | None = None,
    width: int = 720,
    legend: tuple[str, str] | None = None,
) -> SafeString:
    """One labelled bar per row, longest for the largest value (or `maximum`); `legend` names
    the bar and its highlighted part."""
    label_width, text_width, row = 260, 150, 20
    top_pad = 22 if legend else 0
    height = max(row * len(bars) + 8 + top_pad, 30)
    top = max([maximum or 0, *(b.value for b in bars)]) or 1
    span = width - label_width - text_width
    body = []
    if legend:
        body.append(
            f'<rect x="{label_width}" y="4" width="12" height="12" fill="{BAR}"/>'
            f'<text x="{label_width + 16}" y="14">{escape(legend[0])}</text>'
            f'<rect x="{label_width + 180}" y="4" width="12" height="12" fill="{HIGHLIGHT}"/>'
            f'<text x="{label_width + 196}" y="14">{escape(legend[1])}</text>'
        )
    if not bars:
        body.append('<text x="4" y="18" fill="#666">No data yet.</text>')
    for index, bar in enumerate(bars):
        y = 4 + top_pad + index * row
        length = max(bar.value / top * span, 1 if bar.value else 0)
        label = escape(bar.label if len(bar.label) <= 40 else bar.label[:39] + "…")
        text = escape(bar.text or f"{bar.value:g}")
        colour = HIGHLIGHT if bar.highlight else BAR
        label_svg = f'<text x="{label_width - 8}" y="{y + 14}" text-anchor="end">{label}</text>'
        if bar.href:
            label_svg = f'<a href="{escape(bar.href)}">{label_svg}</a>'
        body.append(
            label_svg
            + f'<rect x="{label_width}" y="{y + 2}" width="{length:.1f}" height="{row - 6}" '
            f'fill="{colour}"><title>{label}: {text}</title></rect>'
            + (
                f'<rect x="{label_width}" y="{y + 2}" width="{bar.part / top * span:.1f}" '
                f'height="{row - 6}" fill="{HIGHLIGHT}"><title>{label}: {text}</title></rect>'
                if bar.part
                else ""
            )
            + f'<text x="{label_width + length + 6:.1f}" y="{y + 14}">{text}</text>'
        )
    return _svg(width, height, title, body)


def columns_over_time(
    points: Sequence[tuple[str, int]], *, title: str, width: int = 720, height: int = 220
) -> SafeString:
    """A column per period (label, count), with the y-axis maximum and a few x labels."""
    left, bottom, top_pad = 48, 40, 14
    plot_w, plot_h = width - left - 8, height - bottom - top_pad
    top = max((value for _, value in points), default=0) or 1
    body = [
        f'<line x1="{left}" y1="{top_pad + plot_h}" x2="{width - 8}" y2="{top_pad + plot_h}" '
        f'stroke="{MUTED}"/>',
        f'<text x="{left - 6}" y="{top_pad + 4}" text-anchor="end">{top:,}</text>',
        f'<text x="{left - 6}" y="{top_pad + plot_h}" text-anchor="end">0</text>',
    ]
    if points:
        step = plot_w / len(points)
        every = max(1, len(points) // 8)
        for index, (label, value) in enumerate(points):
            x = left + index * step
            bar_h = value / top * plot_h
            body.append(
                f'<rect x="{x + 1:.1f}" y="{top_pad + plot_h - bar_h:.1f}" '
                f'width="{max(step - 2, 1):.1f}" height="{bar_h:.1f}" fill="{BAR}">'
                f"<title>{escape(label)}: {value:,}</title></rect>"
            )
            if index % every == 0:
                body.append(
                    f'<text x="{x + step / 2:.1f}" y="{height - bottom + 16}" '
                    f'text-anchor="middle">{escape(label)}</text>'
                )
    return _svg(width, height, title, body)
