"""The shared Markdown renderer (learning_platform.markdown) against XSS and for its subsets."""

import time

import pytest

from community.tests.xss import XSS_PAYLOADS, assert_harmless
from learning_platform.markdown import markdown_problems, render_markdown


@pytest.mark.parametrize("profile", ["comment", "lesson"])
@pytest.mark.parametrize("payload", XSS_PAYLOADS)
def test_xss_payload_renders_harmless(payload, profile):
    assert_harmless(render_markdown(payload, profile=profile))


def test_comment_escapes_raw_html_as_text():
    html = render_markdown("<b>hi</b> <script>alert(1)</script>", profile="comment")

    assert html == "<p>&lt;b&gt;hi&lt;/b&gt; &lt;script&gt;alert(1)&lt;/script&gt;</p>"


def test_lesson_sanitizes_raw_html_and_drops_script_content():
    html = render_markdown("<p>raw <b>bold</b></p><script>alert(1)</script>", profile="lesson")

    assert "<b>bold</b>" in html
    assert "alert" not in html


def test_obfuscated_javascript_link_loses_its_href():
    html = render_markdown("[x](jav&#x09;ascript:alert(1))", profile="comment")

    assert "href" not in html


def test_comment_renders_the_subset():
    html = render_markdown(
        "**b** _i_ `a < b` [l](https://x.example)\n\n- one\n- two\n\n```python\nx = 1\n```",
        profile="comment",
    )

    assert "<strong>b</strong>" in html
    assert "<em>i</em>" in html
    assert "<code>a &lt; b</code>" in html
    assert '<a href="https://x.example" rel="nofollow noopener ugc">l</a>' in html
    assert "<li>one</li>" in html
    assert '<code class="language-python">x = 1' in html


def test_comment_links_are_nofollow_ugc_and_mailto_is_allowed():
    html = render_markdown("[m](mailto:a@b.example) [r](/lessons/x)", profile="comment")

    assert 'href="mailto:a@b.example" rel="nofollow noopener ugc"' in html
    assert 'href="/lessons/x" rel="nofollow noopener ugc"' in html


def test_comment_keeps_headings_and_images_as_typed_text():
    html = render_markdown("# Title\n\n![i](https://x.example/i.png)", profile="comment")

    assert html == "<p># Title</p>\n<p>![i](https://x.example/i.png)</p>"


def test_lesson_renders_headings_tables_and_https_images_only():
    html = render_markdown(
        "## Head\n\n| a | b |\n|---|--:|\n| 1 | 2 |\n\n![ok](https://x.example/i.png) ![no](http://x.example/j.png)",
        profile="lesson",
    )

    assert "<h2>Head</h2>" in html
    assert '<td align="right">2</td>' in html
    assert 'src="https://x.example/i.png"' in html
    assert "http://x.example/j.png" not in html


def test_code_class_other_than_language_is_dropped():
    html = render_markdown('<code class="evil language-py">x</code>', profile="lesson")

    assert html == '<p><code class="language-py">x</code></p>'


def test_unknown_profile_is_rejected():
    with pytest.raises(ValueError, match="profile"):
        render_markdown("x", profile="email")  # type: ignore[arg-type]


def test_rendering_is_memoised():
    render_markdown.cache_clear()
    render_markdown("memo", profile="comment")
    render_markdown("memo", profile="comment")

    assert render_markdown.cache_info().hits == 1


def test_markdown_too_deeply_nested_to_render_shows_as_escaped_text():
    html = render_markdown("- " * 3000 + "<b>x</b>", profile="lesson")

    assert html.startswith("<p>- - ")
    assert "<b>" not in html


def test_a_list_nested_eight_deep_still_renders_as_lists():
    html = render_markdown("".join("  " * i + "- x\n" for i in range(8)), profile="comment")

    assert html.count("<ul>") == 8


# Python-Markdown took 12.5 s on the first and 3.6 s on the second, inside the request.
MARKDOWN_BOMBS = ["[" * 4990, "*[" * 1660, "![" * 2490, "[a](" * 1240, "> " * 2490]


@pytest.mark.parametrize("profile", ["comment", "lesson"])
@pytest.mark.parametrize("bomb", MARKDOWN_BOMBS, ids=lambda b: f"{b[:4]!r}x{len(b)}")
def test_a_markdown_bomb_renders_at_once_and_sanitized(bomb, profile):
    render_markdown.cache_clear()
    # CPU time of this process, not the wall clock: a loaded machine must not fail the test.
    # Today's renderer needs under 0.4 s on any of these; Python-Markdown needed up to 12.5 s.
    started = time.process_time()

    html = render_markdown(bomb, profile=profile)

    assert time.process_time() - started < 1.0
    assert html.startswith("<p>")
    assert_harmless(html)


def test_comment_shows_an_image_as_typed_even_inside_a_link():
    html = render_markdown("see ![i](https://x.example/i.png) and ![x", profile="comment")

    assert html == "<p>see ![i](https://x.example/i.png) and ![x</p>"


def test_lesson_table_alignment_is_an_attribute_not_a_style():
    html = render_markdown("| a | b |\n|:-:|:--|\n| 1 | 2 |", profile="lesson")

    assert '<th align="center">a</th>' in html
    assert '<td align="left">2</td>' in html
    assert "style" not in html


def test_a_link_hiding_a_scheme_behind_an_escape_loses_its_href():
    html = render_markdown(
        "[x](java%73cript:alert(1)) [y](https://ok.example/a:b)", profile="comment"
    )

    assert '<a rel="nofollow noopener ugc">x</a>' in html
    assert 'href="https://ok.example/a:b"' in html


def test_lesson_renders_inline_and_display_math_as_mathml():
    html = render_markdown(
        "Width $d_{\\text{model}}$:\n\n$$\n\\frac{QK^T}{\\sqrt{d_k}}\n$$", profile="lesson"
    )

    assert '<math display="inline"><mrow><msub><mi>d</mi>' in html
    assert '<p><math display="block"><mrow><mfrac>' in html
    assert "<msqrt>" in html
    assert "$" not in html


def test_dollar_amounts_in_lesson_prose_stay_dollar_signs():
    html = render_markdown("A GPU hour costs $2 and a day $48; `echo $HOME`.", profile="lesson")

    assert html == "<p>A GPU hour costs $2 and a day $48; <code>echo $HOME</code>.</p>"


def test_comments_show_math_as_typed():
    assert render_markdown("$x^2$", profile="comment") == "<p>$x^2$</p>"


@pytest.mark.parametrize(
    "tex",
    [
        r"$\href{javascript:alert(1)}{x}$",
        r"$\text{<script>alert(1)</script>}$",
        r"$\text{<img src=x onerror=alert(1)>}$",
    ],
)
def test_math_renders_harmless(tex):
    assert_harmless(render_markdown(tex, profile="lesson"))


def test_unreadable_math_shows_as_typed_and_is_named_for_the_editor():
    source = r"Softmax $\left( x$ here."

    assert render_markdown(source, profile="lesson") == (
        r"<p>Softmax <code>\left( x</code> here.</p>"
    )
    assert markdown_problems(source, profile="lesson") == [
        r"fix the math `\left( x`: it cannot be read (ExtraLeftOrMissingRightError)"
    ]


def test_readable_math_is_no_problem():
    assert markdown_problems(r"$\sum_{i=1}^{n} x_i$", profile="lesson") == []
