"""XSS payloads and a check that rendered HTML carries no live script, for the tests."""

from html.parser import HTMLParser

XSS_PAYLOADS = [
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    '<a href="javascript:alert(1)">x</a>',
    "[x](javascript:alert(1))",
    "[x](JaVaScRiPt:alert(1))",
    "[x](jav&#x09;ascript:alert(1))",
    "[x](jav&#x0A;ascript:alert(1))",
    "[x](&#106;avascript:alert(1))",
    "[x](  javascript:alert(1))",
    "[x](vbscript:msgbox(1))",
    "[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
    "![x](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)",
    "![x](javascript:alert(1))",
    "[x][ref]\n\n[ref]: javascript:alert(1)",
    '[x](https://ok.example "t" onmouseover="alert(1)")',
    "<svg onload=alert(1)><script>alert(1)</script></svg>",
    "<iframe src=https://evil.example></iframe>",
    "<div onclick='alert(1)' style='background:url(javascript:alert(1))'>d</div>",
    "<<script>script>alert(1)<</script>/script>",
    "<!-- <script>alert(1)</script> -->",
    "```\n</code><script>alert(1)</script>\n```",
]

ALLOWED_URL_PREFIXES = ("http://", "https://", "mailto:", "/", "#")


class _MarkupAudit(HTMLParser):
    """Collects the real tags and attributes of an HTML fragment, as a browser would see them."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.attributes: list[tuple[str, str]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attributes.extend((name, value or "") for name, value in attrs)


def assert_harmless(html: str) -> None:
    audit = _MarkupAudit()
    audit.feed(html)
    assert not {"script", "iframe", "svg", "style", "object", "embed"} & set(audit.tags), html
    for name, value in audit.attributes:
        assert not name.startswith("on"), html
        assert name != "style", html
        if name in ("href", "src"):
            # Browsers ignore tabs and newlines inside a scheme; compare without them.
            compact = "".join(value.split()).lower()
            assert compact.startswith(ALLOWED_URL_PREFIXES), html
