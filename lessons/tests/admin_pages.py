"""The admin's change form as a browser posts it back: every field as the page shows it."""

from typing import Any

from django import forms


def _field_data(bound: forms.BoundField) -> dict[str, Any]:
    widget = bound.field.widget
    value = bound.value()
    if isinstance(widget, forms.CheckboxInput):
        return {bound.html_name: "on"} if value else {}
    if isinstance(widget, forms.MultiWidget):
        parts = widget.decompress(value) if not isinstance(value, list) else value
        return {
            f"{bound.html_name}_{i}": "" if part is None else str(part)
            for i, part in enumerate(parts)
        }
    if isinstance(value, list | tuple):
        return {bound.html_name: [str(v) for v in value]}
    text = "" if value is None else str(value)
    if isinstance(widget, forms.Textarea):
        # Browsers post a textarea's lines with "\r\n".
        text = text.replace("\r\n", "\n").replace("\n", "\r\n")
    return {bound.html_name: text}


def posted_unchanged(response) -> dict[str, Any]:
    """The POST body of the change form in `response` submitted without an edit."""
    data: dict[str, Any] = {}
    form_list = [response.context["adminform"].form]
    for inline in response.context["inline_admin_formsets"]:
        formset = inline.formset
        form_list += [formset.management_form, *formset.forms]
    for form in form_list:
        for bound in form:
            data.update(_field_data(bound))
    return data
