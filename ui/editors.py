"""Editors of files the persona also writes (core memory, notepad, diaries): refreshed while unedited."""
from __future__ import annotations

from typing import Sequence

import gradio as gr


def refreshed_unless_edited(fresh: Sequence[str], boxes: Sequence[str], shown: Sequence[str]) -> list:
    """Updates for the boxes then their `shown` states: the file's fresh text where it changed since the
    box was filled and the box still holds what it was filled with; a box being edited is left (its save
    deals with the change), and an unchanged file sends nothing, so a refresh that arrives after the user
    started typing cannot put the old text back."""
    keep = [box != was or text == was for box, was, text in zip(boxes, shown, fresh)]
    updates = [gr.update() if k else text for k, text in zip(keep, fresh)]
    return updates + updates
