"""The introspection dashboard (seed 004, 内省ダッシュボード): the drives as bars, the dominant drive's
details, the emotion graph over time (plotly, with a range selector), the last and next sleep-time
run, and goals, open questions and the dream diary when there are any. Layout only: the data is the
facade's `inner_life` (persona/dashboard.py). The page refreshes it on a timer, after replies and
sleep-time work alike; the graph is redrawn only when its points changed.
"""
from __future__ import annotations

from dataclasses import dataclass

import gradio as gr
import plotly.graph_objects as go

import constants
from persona.service import NexusService

# One colour per category, warm to cool (seed 004 §9's seven).
COLOURS = {"joy": "#f5b700", "contentment": "#7bc96f", "protective": "#e07a5f", "anxious": "#9b5de5",
           "sadness": "#4d7ea8", "anger": "#d62828", "neutral": "#9e9e9e"}
NO_DATA = "No emotions logged yet: the graph fills in as you talk. / まだ感情の記録はありません。"


@dataclass
class DashboardTab:
    drives: gr.Markdown
    details: gr.Markdown
    graph: gr.Plot
    sleep: gr.Markdown
    extras: gr.Markdown
    shown: gr.State  # the graph's stamp as last drawn

    def outputs(self) -> list:
        return [self.drives, self.details, self.graph, self.sleep, self.extras, self.shown]


def _bar(level: float, width: int = 20) -> str:
    filled = round(level * width)
    return "█" * filled + "░" * (width - filled)


def drives_markdown(view) -> str:
    lines = ["| Drive / 動機 | | Level |", "|---|---|---|"]
    for drive, name, level in view.levels:
        mark = " ◀" if drive == view.dominant else ""
        lines.append(f"| {name}{mark} | `{_bar(level)}` | {level:.2f} |")
    return "\n".join(lines)


def details_markdown(view) -> str:
    if not view.dominant:
        return "**Dominant drive / 最強の動機:** none yet — nothing stirs. / まだありません"
    lines = [f"**Dominant drive / 最強の動機:** {view.dominant_label} — {view.narrative}"]
    if view.idle_minutes is not None:
        lines.append(f"- Since the last talk / 最終対話から: {view.idle_minutes:.0f} min")
    if view.emotion:
        lines.append(f"- Emotion / ペルソナ感情: {view.emotion_label or view.emotion} (intensity {view.intensity:.1f})")
    if view.top_question:
        lines.append(f"- Top question / 最優先の問い: {view.top_question}")
    if view.top_goal:
        lines.append(f"- Top goal / 最優先目標: {view.top_goal}")
    return "\n".join(lines)


def emotion_figure(view) -> go.Figure:
    figure = go.Figure()
    order = list(constants.EMOTION_CATEGORIES)
    for category in order:
        points = [p for p in view.emotions if p.category == category]
        if not points:
            continue
        figure.add_trace(go.Scatter(
            x=[p.at.replace(tzinfo=None) for p in points], y=[p.intensity for p in points], mode="markers", name=category,
            marker={"color": COLOURS[category], "size": [8 + 10 * p.intensity for p in points]},
            text=[f"{category}" + (f" (logged as {p.original})" if p.original else "") for p in points],
            hovertemplate="%{x|%Y-%m-%d %H:%M}<br>%{text}: %{y:.2f}<extra></extra>"))
    figure.update_layout(
        height=380, margin={"l": 40, "r": 20, "t": 30, "b": 30}, yaxis={"title": "intensity", "range": [0, 1.05]},
        xaxis={"type": "date", "rangeslider": {"visible": True}, "rangeselector": {"buttons": [
            {"count": 1, "label": "1d", "step": "day", "stepmode": "backward"},
            {"count": 7, "label": "1w", "step": "day", "stepmode": "backward"},
            {"count": 1, "label": "1m", "step": "month", "stepmode": "backward"},
            {"step": "all", "label": "all"}]}})
    if not view.emotions:
        figure.add_annotation(text=NO_DATA, showarrow=False, xref="paper", yref="paper", x=0.5, y=0.5)
    return figure


def sleep_markdown(view) -> str:
    last = view.last_run or "never yet / まだ"
    return f"**Last sleep-time run / 前回の睡眠時処理:** {last}\n\n**Next / 次回:** {view.next_run}"


def _listing(title: str, items) -> str:
    if not items:
        return f"**{title}:** none yet / まだありません"
    return f"**{title}:**\n" + "\n".join(f"- {item}" for item in items)


def extras_markdown(view) -> str:
    return "\n\n".join((_listing("Goals / 目標", view.goals), _listing("Open questions / 未解決の問い", view.questions),
                        _listing("Dream diary / 夢日記", view.dreams)))


def dashboard_values(service: NexusService, name: str, shown: str = "") -> list:
    """Every output; the graph only when its points changed since `shown` (its stamp)."""
    if not name:
        return ["", "", gr.update(), "", "", shown]
    view = service.inner_life(name)
    graph = emotion_figure(view) if view.emotions_stamp != shown else gr.update()
    return [drives_markdown(view), details_markdown(view), graph, sleep_markdown(view), extras_markdown(view),
            view.emotions_stamp]


def build_dashboard_tab(service: NexusService, persona: gr.Dropdown) -> DashboardTab:
    gr.Markdown("What moves the persona now, how it has felt over time, and its sleep-time work. "
                "/ ペルソナの今の動機、感情の推移、睡眠時処理。")
    with gr.Row():
        drives = gr.Markdown(elem_id="dashboard-drives")
        details = gr.Markdown(elem_id="dashboard-details")
    graph = gr.Plot(label="Emotions over time / 感情の推移", elem_id="emotion-graph")
    sleep = gr.Markdown(elem_id="dashboard-sleep")
    extras = gr.Markdown(elem_id="dashboard-extras")
    shown = gr.State("")
    tab = DashboardTab(drives, details, graph, sleep, extras, shown)
    gr.Timer(constants.UI_INNER_REFRESH_S).tick(lambda name, seen: dashboard_values(service, name, seen),
                                                [persona, shown], tab.outputs(), api_name=False)
    return tab
